"""Hostile surfaces of program updates, round 3 (issue 37): each test fails on the code before its fix.

Real components: programs compiled by bb_edge, the node's engine with the OTA handler and ONNX Runtime, the
real deployer; bytes pass between them in this process (tests/engine/test_ota.py's Harness). Oracles: the
program hash the node serves (SHA-256 of the program), its accepted version, and the typed NACK codes.
"""

from __future__ import annotations

import copy
import hashlib
import math
import warnings
from pathlib import Path

import onnx
import pytest

from bb_edge.compiler import compile_model
from bb_edge.deployment.manifest import HOST_ID, Deployment
from bb_edge.engine import Engine, ota
from bb_edge.wire import envelope as wire
from tests.support.ota_helpers import KEY, Harness, ota_cnn, ota_envelope, program_image, public_key, scaled_model


@pytest.fixture(scope="module")
def compiled() -> dict[str, tuple[Deployment, dict[str, onnx.ModelProto]]]:
    """A small CNN and the same with every weight x1.25, compiled for the same 3 nodes."""
    old = ota_cnn()
    with warnings.catch_warnings():  # the placement warning (one conv dominates) is expected here
        warnings.simplefilter("ignore")
        return {k: compile_model(m, nodes=3) for k, m in (("old", old), ("new", scaled_model(old, 1.25)),
                                                          ("good", scaled_model(old, 1.001)))}


def _hash(programs: dict, node: str = "n0") -> bytes:  # type: ignore[type-arg]
    return hashlib.sha256(programs[node].SerializeToString(deterministic=True)).digest()


def test_a_verified_stage_frees_the_node_when_the_deployer_dies(compiled) -> None:  # type: ignore[no-untyped-def]
    """Finding 4: a deployer that dies after READY leaves the node free again after the stage timeout (a
    later update is staged, not refused busy); a late COMMIT of the abandoned one is refused."""
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h = Harness(dep, old)
    d = h.deployer(program_image(new), uid=1, commit_gate=lambda: False)  # it never gets past READY
    h.send(d.start(0.0))
    h.pump(d, rounds=4)
    assert "n0" in d.ready  # then the deployer dies: nothing more comes
    h.now += ota.DEFAULT_STAGE_TIMEOUT_S + 1
    h.pump()
    assert h.handler.current is None
    assert h.nacks and h.nacks[-1][:2] == (1, ota.ABORTED), h.nacks
    h.send([ota.Outgoing("n0", h.engine.node_id, ota_envelope(h, ota.COMMIT, ota.U32.pack(1)))])
    h.pump()
    assert h.engine.program_hash == _hash(old)
    d2 = h.deployer(program_image(new), uid=2, version=10)
    h.send(d2.start(h.now))
    h.pump(d2, rounds=8)
    assert d2.state == "done", (d2.state, d2.failures)
    assert h.engine.program_hash == _hash(new)


def test_a_waiting_node_stays_staged_through_a_long_canary_window(compiled) -> None:  # type: ignore[no-untyped-def]
    """Finding 4's other side: during a canary window longer than the stage timeout the deployer keeps the
    verified (non-canary) stages alive, so a good staged rollout still completes."""
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h = Harness(dep, old)
    d = h.deployer(program_image(new), uid=3, stages=[["n0"], ["n0"]],
                   canary=ota.CanaryLimits(window_s=3 * ota.DEFAULT_STAGE_TIMEOUT_S, min_requests=0))
    h.send(d.start(0.0))
    h.pump(d, rounds=4)
    assert d.state == "canary"
    for _ in range(int(3 * ota.DEFAULT_STAGE_TIMEOUT_S)):  # one second at a time
        h.now += 1.0
        h.pump(d, rounds=1)
    h.pump(d, rounds=8)
    assert d.state == "done", (d.state, d.failures)


def test_the_operator_aborts_an_update_by_its_id(compiled) -> None:  # type: ignore[no-untyped-def]
    """Finding 4: ``bb-edge deploy --abort UPDATE_ID`` (OtaAbort, sans-IO) frees a node a dead deployer left
    READY: the node answers NACK aborted and stages the next update at once."""
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h = Harness(dep, old)
    d = h.deployer(program_image(new), uid=4, commit_gate=lambda: False)
    h.send(d.start(0.0))
    h.pump(d, rounds=4)
    assert h.handler.current is not None and h.handler.current.ready
    a = ota.OtaAbort(dep.ids(), ["n0"], 4, h.next_seq)
    h.send(a.start(h.now))
    for _ in range(3):
        h.now += 0.01
        for out in h.engine.poll(h.now):
            a.on_envelope(wire.decode(out.data, max_payload=len(out.data)))
        h.send(a.poll(h.now))
    assert a.state == "done" and a.answered == {"n0": ota.ABORTED}, (a.state, a.answered)
    assert h.handler.current is None


@pytest.mark.parametrize("field,value", [("max_drift", math.nan), ("window_s", math.nan), ("max_drift", -1.0),
                                         ("max_latency_ratio", math.inf), ("max_error_rate", math.nan),
                                         ("window_s", math.inf), ("min_requests", -1)])
def test_canary_limits_refuse_nan_inf_and_negative(field: str, value: float) -> None:
    """Finding 5: ``max_drift > nan`` is always false, so a nan limit would pass any drift: refused, typed."""
    with pytest.raises(ota.OtaError, match=field.replace("_s", "")[:6]):
        ota.CanaryLimits(**{field: value})


def test_switch_at_is_refused_while_the_canary_is_in_shadow(compiled) -> None:  # type: ignore[no-untyped-def]
    """Finding 6: SWITCH_AT to a node still running the update in shadow (no PREPARE) is refused: the node
    keeps serving its program, announces nothing and does not raise its anti-rollback floor."""
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h = Harness(dep, old)
    d = h.deployer(program_image(new), uid=5, version=50, stages=[["n0"], ["n0"]],
                   canary=ota.CanaryLimits(window_s=1e6))
    h.send(d.start(0.0))
    h.pump(d, rounds=6)
    assert h.handler.epoch is not None and h.handler.epoch.shadow
    h.send([ota.Outgoing("n0", h.engine.node_id, ota_envelope(h, ota.SWITCH_AT, ota.encode_marks(5, {0: 1 << 40})))])
    h.pump()
    assert h.nacks and h.nacks[-1][:2] == (5, ota.BAD_MESSAGE), h.nacks
    assert h.engine.program_hash == _hash(old)
    assert h.handler.store.accepted_version() == 0
    assert h.handler.epoch is not None and h.handler.epoch.shadow and h.handler.epoch.boundary is None


def test_a_fresh_node_takes_the_bundles_program_version_as_its_floor(compiled, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The floor: a node freshly installed from a bundle whose deployment says ``ota.program_version`` V
    refuses a signed update of a version at or below V (stale_version), as MCUboot's image header does."""
    from bb_edge.adapters.ops.ota_store import attach_ota

    dep, old = compiled["old"]
    _, new = compiled["new"]
    dep = copy.deepcopy(dep)
    dep.extra["ota"] = {"public_key": public_key(KEY).hex(), "program_version": 1000}
    h = Harness(dep, old)
    h.engine = Engine.for_node(dep, "n0", old, inline_compute=True)
    h.handler = attach_ota(h.engine, dep, "n0", tmp_path)
    d = h.deployer(program_image(new), uid=6, version=999, deployment=dep.name)
    h.send(d.start(0.0))
    h.pump(d, rounds=6)
    assert d.state == "failed" and d.failures["n0"][0] == ota.STALE_VERSION, (d.state, d.failures)
    assert h.engine.program_hash == _hash(old)
    d = h.deployer(program_image(new), uid=7, version=1001, deployment=dep.name)
    h.send(d.start(h.now))
    h.pump(d, rounds=8)
    assert d.state == "done", (d.state, d.failures)
    assert HOST_ID == 0


@pytest.mark.parametrize("node", ["n0", "n1"])
def test_one_lying_canary_cannot_push_an_update_alone(compiled, monkeypatch, node: str) -> None:  # type: ignore[no-untyped-def]
    """Finding 8: a canary that reports drift 0 for an update whose outputs drift by 25% (every weight x1.25)
    does not pass its stage: the deployer recomputes both programs itself on requests of the node's contract
    (probe_verifier, what ``bb-edge deploy --stages`` uses) and judges its own figures by the same limits. An
    honest small change (x1.001) still passes. Oracle: the x1.25 scale itself (drift 0.25 > 0.05)."""
    from bb_edge.adapters.ops.ota_verify import probe_verifier
    from bb_edge.engine.ota import node as ota_node

    dep, old = compiled["old"]
    monkeypatch.setattr(ota_node._Epoch, "stats",  # noqa: SLF001 - the compromised canary's report
                        lambda self: ota.CanaryStats(self.st.offer.update_id, 100, 0, 0, 0.0, 1.0, 1.0))
    for which, want in (("new", "failed"), ("good", "done")):
        _, new = compiled[which]
        h = Harness(dep, old, node)
        upd = ota.NodeUpdate(node, new[node].SerializeToString(), ota.TARGET_ONNX, ota.ed25519_signer(KEY),
                             chunk=1024, previous=old[node].SerializeToString())
        d = ota.OtaDeployer(dep.ids(), [upd], h.next_seq, 8, stages=[[node], [node]],
                            canary=ota.CanaryLimits(window_s=0.05), verify=probe_verifier(dep, [upd]))
        h.send(d.start(0.0))
        h.pump(d, rounds=20)
        assert d.state == want, (which, d.state, d.failures)
        if want == "failed":
            code, why = d.failures[node]
            assert code == ota.CANARY_FAILED and "deployer's own run" in why and "drift" in why, why
            assert h.engine.program_hash == _hash(old, node)
