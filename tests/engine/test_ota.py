"""Over-the-air program updates (bb_edge/engine/ota/, adapters/ota_*.py, ``bb-edge deploy``/``keygen``).

Unit tests drive the real protocol both ends (an :class:`OtaDeployer` and an
engine with :class:`OtaNode` and the real ONNX loader) in one process on a
small CNN; every refusal is checked as an event, a NACK on the wire and an
unchanged program (its outputs still equal ONNX Runtime on the old whole
model). The live-fleet test runs a 3-node squeezenet (seeded weights,
tests/_models.seeded_squeezenet) as three ``bb-edge node`` processes over a
real Mosquitto and updates them mid-stream.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.compiler import compile_model
from bb_edge.deployment.manifest import HOST_ID, Deployment
from bb_edge.engine import Engine, ota
from bb_edge.engine import events as ev
from bb_edge.wire import envelope as wire
from tests.support.models import monolithic, random_inputs, seeded_squeezenet
from tests.support.ota_helpers import tamper_last_chunk

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))


def _scaled(model: onnx.ModelProto, factor: float) -> onnx.ModelProto:
    """The same graph with every float initializer scaled: a retrained model with the same contract."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for init in m.graph.initializer:
        a = numpy_helper.to_array(init)
        if a.dtype == np.float32:
            init.CopyFrom(numpy_helper.from_array((a * factor).astype(np.float32), init.name))
    return m


def small_cnn(seed: int = 0) -> onnx.ModelProto:
    """A small CNN (conv, relu, conv, relu, pool, gemm) with seeded random weights.

    The in-process unit tests use it (cheap to compile and run many times on 2 cores); the live-fleet
    test uses squeezenet with seeded weights (tests/_models.seeded_squeezenet).
    """
    from onnx import TensorProto, helper

    rng = np.random.default_rng(seed)

    def init(name: str, *shape: int) -> onnx.TensorProto:
        return numpy_helper.from_array((rng.standard_normal(shape) * 0.3).astype(np.float32), name)

    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("Conv", ["r2", "w3", "b3"], ["c3"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c3"], ["r3"]),
        helper.make_node("GlobalAveragePool", ["r3"], ["p"]),
        helper.make_node("Flatten", ["p"], ["f"]),
        helper.make_node("Gemm", ["f", "w4", "b4"], ["y"], transB=1),
    ]
    graph = helper.make_graph(
        nodes, "small_cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])],
        [init("w1", 8, 3, 3, 3), init("b1", 8), init("w2", 16, 8, 3, 3), init("b2", 16),
         init("w3", 16, 16, 3, 3), init("b3", 16), init("w4", 10, 16), init("b4", 10)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    return model


@pytest.fixture(scope="module")
def models() -> dict[str, onnx.ModelProto]:
    """The old whole model and a new one with different weights."""
    old = small_cnn()
    return {"old": old, "new": _scaled(old, 1.25)}


@pytest.fixture(scope="module")
def compiled(models: dict[str, onnx.ModelProto]) -> dict[str, tuple[Deployment, dict[str, onnx.ModelProto]]]:
    """Both models compiled for the same 3 nodes."""
    with warnings.catch_warnings():  # the placement warning (one conv dominates) is expected here
        warnings.simplefilter("ignore")
        return {k: compile_model(m, nodes=3) for k, m in models.items()}


def _inputs(model: onnx.ModelProto, seed: int) -> dict[str, np.ndarray]:
    """Random graph inputs (initializers listed as inputs in this old-IR model are left out)."""
    inits = {i.name for i in model.graph.initializer}
    return {k: v for k, v in random_inputs(model, seed).items() if k not in inits}


def _pub(private: bytes) -> bytes:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return Ed25519PrivateKey.from_private_bytes(private).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


class Harness:
    """One node's engine with the OTA handler, and a deployer; bytes pass between them in this process."""

    def __init__(self, dep: Deployment, programs: dict[str, onnx.ModelProto], node: str = "n0",
                 inline: bool = True) -> None:
        self.dep = dep
        self.engine = Engine.for_node(dep, node, programs, inline_compute=inline)
        self.node = node
        self.handler = ota.OtaNode(self.engine, ota.OnnxLoader(self.engine), ota.ed25519_verifier(_pub(KEY)))
        self.engine.register_protocol(self.handler)
        self.seq = (7 << 32)
        self.now = 0.0
        self.nacks: list[tuple[int, int, str]] = []
        self.replies: list[wire.Envelope] = []

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def deployer(self, image: bytes, key: bytes = KEY, uid: int = 1, **kw: object) -> ota.OtaDeployer:
        upd = ota.NodeUpdate(self.node, image, ota.TARGET_ONNX, ota.ed25519_signer(key), chunk=1024)
        return ota.OtaDeployer(self.dep.ids(), [upd], self.next_seq, uid, **kw)  # type: ignore[arg-type]

    def send(self, items: list[ota.Outgoing]) -> None:
        for o in items:
            self.engine.deliver("_host", o.data)

    def pump(self, d: ota.OtaDeployer | None = None, rounds: int = 3) -> None:
        for _ in range(rounds):
            self.now += 0.01
            for out in self.engine.poll(self.now):
                env = wire.decode(out.data, max_payload=len(out.data))
                if env.protocol == ota.PROTO_OTA:
                    self.replies.append(env)
                    if env.edge == ota.NACK:
                        self.nacks.append(ota.decode_nack(bytes(env.payload_bytes())))
                    if d is not None:
                        d.on_envelope(env)
            if d is not None:
                self.send(d.poll(self.now))

    def events(self, kind: type) -> list[object]:
        return [e for e in self.engine.drain_events() if isinstance(e, kind)]


def _image(programs: dict[str, onnx.ModelProto], node: str = "n0") -> bytes:
    return programs[node].SerializeToString()


def _refused(h: Harness, code: int) -> None:
    evs = [e for e in h.engine.drain_events() if isinstance(e, ota.OtaRefused)]
    assert [e.code for e in evs] == [code], evs
    assert h.nacks and {n[1] for n in h.nacks} == {code}  # an ABORT's answer repeats the NACK


def _unchanged(h: Harness, old_programs: dict[str, onnx.ModelProto]) -> None:
    want = hashlib.sha256(old_programs[h.node].SerializeToString(deterministic=True)).digest()
    assert h.engine.program_hash == want
    assert h.engine.programs[h.node].model is not None
    assert h.handler.current is None


def test_update_switches_and_announces_new_hash(compiled) -> None:  # type: ignore[no-untyped-def]
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h = Harness(dep, old)
    d = h.deployer(_image(new))
    h.send(d.start(0.0))
    h.pump(d, rounds=6)
    assert d.state == "done", (d.state, d.failures)
    want = hashlib.sha256(new["n0"].SerializeToString(deterministic=True)).digest()
    assert h.engine.program_hash == want and d.switched["n0"] == want
    assert h.handler.store.slots[h.handler.store.active] == _image(new)  # type: ignore[attr-defined]
    hellos = [o for o in h.engine.flush_outbound()]
    assert hellos == [] or all(o.protocol == wire.PROTO_CONTROL for o in hellos)


def _hello_hashes(h: Harness) -> list[bytes]:
    from bb_edge.wire import hello as hello_record

    out = []
    for env in h.replies:
        if env.protocol == wire.PROTO_CONTROL:
            out.append(hello_record.decode(bytes(env.payload_bytes())).program_hash)
    return out


def test_new_program_computes_new_outputs_in_process(compiled, models) -> None:  # type: ignore[no-untyped-def]
    """Every node updated in-process: the fleet's outputs go from ORT(old) to ORT(new)."""
    dep, old = compiled["old"]
    _, new = compiled["new"]
    x = _inputs(models["old"], seed=3)
    want_old, want_new = monolithic(models["old"], x), monolithic(models["new"], x)
    key = next(iter(want_old))
    assert not np.allclose(want_old[key], want_new[key], rtol=1e-3, atol=1e-4)  # distinguishable
    fleet = InProcFleet(dep, programs=old)
    got = fleet.run([x])[0]
    np.testing.assert_allclose(got[key], want_old[key], rtol=1e-4, atol=1e-5)
    for name, eng in fleet.engines.items():
        loader = ota.OnnxLoader(eng)
        loader.switch(loader.validate(_image(new, name)))
    got = fleet.run([x])[0]
    np.testing.assert_allclose(got[key], want_new[key], rtol=1e-4, atol=1e-5)


def test_corrupt_image_is_refused(compiled) -> None:  # type: ignore[no-untyped-def]
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h = Harness(dep, old)
    image = _image(new)
    d = h.deployer(image)
    items = d.start(0.0)
    # flip one byte of the last DATA chunk after the deployer hashed and signed the original
    last = wire.decode(items[-1].data, max_payload=len(items[-1].data))
    body = bytearray(last.payload_bytes())
    body[-1] ^= 0xFF
    env = wire.Envelope.for_bytes(bytes(body), sender=HOST_ID, receiver=last.receiver, seq=last.seq,
                                  kind=wire.KIND_CONTROL, protocol=ota.PROTO_OTA, edge=ota.DATA)
    items[-1] = ota.Outgoing(items[-1].peer, items[-1].receiver, wire.encode(env, max_payload=len(body)))
    h.send(items)
    h.pump(d)
    _refused(h, ota.CORRUPT)
    assert d.state == "failed" and d.failures["n0"][0] == ota.CORRUPT
    _unchanged(h, old)


def test_bad_signature_is_refused(compiled) -> None:  # type: ignore[no-untyped-def]
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h = Harness(dep, old)
    d = h.deployer(_image(new), key=OTHER_KEY)
    h.send(d.start(0.0))
    h.pump(d)
    _refused(h, ota.BAD_SIGNATURE)
    _unchanged(h, old)


def test_signature_is_bound_to_the_node(compiled) -> None:  # type: ignore[no-untyped-def]
    """An image signed for n1 is refused by n0 even with the right key."""
    dep, old = compiled["old"]
    h = Harness(dep, old)
    image = _image(old)
    digest = hashlib.sha256(image).digest()
    sig = ota.ed25519_signer(KEY)(ota.signed_message("n1", ota.TARGET_ONNX, len(image), digest))
    offer = ota.Offer(5, len(image), ota.TARGET_ONNX, ota.SIG_ED25519, digest, sig)
    h.engine.deliver("_host", _ota_env(h, ota.OFFER, offer.encode()))
    h.engine.deliver("_host", _ota_env(h, ota.DATA, ota.encode_data(5, 0, image)))
    h.pump()
    _refused(h, ota.BAD_SIGNATURE)


def _ota_env(h: Harness, edge: int, payload: bytes, sender: int = HOST_ID) -> bytes:
    env = wire.Envelope.for_bytes(payload, sender=sender, receiver=h.engine.node_id, seq=h.next_seq(),
                                  kind=wire.KIND_CONTROL, protocol=ota.PROTO_OTA, edge=edge)
    return wire.encode(env, max_payload=max(1, len(payload)))


def test_truncated_image_is_refused(compiled) -> None:  # type: ignore[no-untyped-def]
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h = Harness(dep, old)
    d = h.deployer(_image(new))
    items = d.start(0.0)
    del items[2]  # a chunk lost: the next one leaves a gap
    h.send(items)
    h.pump(d)
    _refused(h, ota.TRUNCATED)
    _unchanged(h, old)


def test_stalled_staging_times_out(compiled) -> None:  # type: ignore[no-untyped-def]
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h = Harness(dep, old)
    d = h.deployer(_image(new), timeout_s=1e9)
    h.send(d.start(0.0)[:-1])  # the last chunk never comes
    h.pump(d)
    assert h.nacks == []
    h.now += ota.DEFAULT_STAGE_TIMEOUT_S + 1
    h.pump(d)
    _refused(h, ota.TRUNCATED)
    _unchanged(h, old)


def test_contract_mismatch_is_refused(compiled) -> None:  # type: ignore[no-untyped-def]
    """n1's program offered to n0: a valid signed ONNX program whose edges differ."""
    dep, old = compiled["old"]
    h = Harness(dep, old)
    d = h.deployer(_image(old, "n1"))
    h.send(d.start(0.0))
    h.pump(d)
    _refused(h, ota.CONTRACT_MISMATCH)
    _unchanged(h, old)


def test_invalid_program_is_refused(compiled) -> None:  # type: ignore[no-untyped-def]
    dep, old = compiled["old"]
    h = Harness(dep, old)
    d = h.deployer(b"\x08\x07 this is not a model")
    h.send(d.start(0.0))
    h.pump(d)
    _refused(h, ota.INVALID_PROGRAM)
    _unchanged(h, old)


def test_second_update_while_one_is_in_progress(compiled) -> None:  # type: ignore[no-untyped-def]
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h = Harness(dep, old)
    d1 = h.deployer(_image(new), uid=1)
    first = d1.start(0.0)
    h.send(first[:2])  # OFFER and one chunk of update 1
    d2 = h.deployer(_image(old), uid=2)  # other bytes (the same bytes would resume update 1's transfer)
    h.send(d2.start(0.0)[:1])  # OFFER of update 2
    h.pump()
    _refused(h, ota.BUSY)
    assert h.handler.current is not None and h.handler.current.offer.update_id == 1
    h.send(first[2:])  # update 1 still completes
    h.pump(d1, rounds=6)
    assert d1.state == "done"


def test_unknown_node_is_refused_before_anything_is_sent(compiled) -> None:  # type: ignore[no-untyped-def]
    dep, old = compiled["old"]
    upd = ota.NodeUpdate("n9", b"x", ota.TARGET_ONNX, ota.ed25519_signer(KEY))
    d = ota.OtaDeployer(dep.ids(), [upd], lambda: 1, 1)
    assert d.start(0.0) == [] and d.state == "failed" and d.failures["n9"][0] == ota.UNKNOWN_NODE


def test_only_the_host_may_update(compiled) -> None:  # type: ignore[no-untyped-def]
    dep, old = compiled["old"]
    h = Harness(dep, old)
    offer = ota.Offer(1, 10, ota.TARGET_ONNX, ota.SIG_ED25519, b"\0" * 32, b"")
    h.engine.deliver("n1", _ota_env(h, ota.OFFER, offer.encode(), sender=dep.ids()["n1"]))
    h.pump()
    evs = h.events(ota.OtaRefused)
    assert [e.code for e in evs] == [ota.NOT_AUTHORISED]  # type: ignore[attr-defined]
    assert h.handler.current is None


@pytest.mark.parametrize("payload", [b"", b"\x01\x00", b"\x00" * 43, b"\x00" * 44 + b"\x05",
                                     b"\x01\x00\x00\x00\xff\xff\xff\xff"])
def test_malformed_messages_are_typed_refusals(compiled, payload: bytes) -> None:  # type: ignore[no-untyped-def]
    dep, old = compiled["old"]
    h = Harness(dep, old)
    for edge in (ota.OFFER, ota.DATA, ota.COMMIT, 99):
        h.engine.deliver("_host", _ota_env(h, edge, payload))
    h.pump()
    evs = [e for e in h.engine.drain_events() if isinstance(e, ota.OtaRefused)]
    assert len(evs) == 4 and all(e.code in (ota.BAD_MESSAGE, ota.UNKNOWN_UPDATE) for e in evs), evs
    _unchanged(h, old)


def test_abort_discards_a_staged_program(compiled) -> None:  # type: ignore[no-untyped-def]
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h = Harness(dep, old)
    d = h.deployer(_image(new))
    h.send(d.start(0.0))
    h.pump()
    assert h.handler.current is not None and h.handler.current.ready
    h.engine.deliver("_host", _ota_env(h, ota.ABORT, (1).to_bytes(4, "little")))
    h.pump()
    _unchanged(h, old)
    h.engine.deliver("_host", _ota_env(h, ota.COMMIT, (1).to_bytes(4, "little")))
    h.pump()
    _refused(h, ota.ABORTED)  # a COMMIT after an ABORT of the same update never switches


def test_epoch_switch_keeps_an_open_request_on_the_old_program(compiled, models) -> None:  # type: ignore[no-untyped-def]
    """An update while a request is open on n0: it switches at once (the switch point is past every request
    n0 has seen), the open request still finishes on the old program, and a request after the switch point
    runs the new one. Oracle: ORT on each node program, run alone."""
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h = Harness(dep, old, inline=False)  # compute is handed out as commands: the request stays open
    x = _inputs(models["old"], seed=5)
    h.engine.submit(1, x)
    h.pump()
    cmds = h.engine.take_commands()
    assert cmds and h.engine.open_requests == 1
    old_hash = h.engine.program_hash
    d = h.deployer(_image(new))
    h.send(d.start(0.0))
    h.pump(d, rounds=6)
    assert d.state == "done" and d.boundary == {0: 2} and h.engine.program_hash != old_hash
    Engine.for_node(dep, "n0", new).restore(h.engine.snapshot())  # a state file never names the variant
    h.engine.submit(2, x)  # at the switch point: the new program

    def sent(eng: Engine, now: float) -> dict[int, bytes]:  # request id -> what n0 sends n1 (bytes)
        out = {}
        for o in eng.poll(now):
            env = wire.decode(o.data, max_payload=len(o.data))
            if env.protocol == wire.PROTO_DATAFLOW and env.kind == wire.KIND_DATA:
                out[env.request_id] = bytes(env.payload_bytes())
        return out

    for c in cmds:
        h.engine.complete(c.cmd_id, h.engine.run_command(c))
    got: dict[int, bytes] = {}
    for _ in range(6):
        for c in h.engine.take_commands():
            h.engine.complete(c.cmd_id, h.engine.run_command(c))
        h.now += 0.01
        got.update(sent(h.engine, h.now))
    assert h.engine.open_requests == 0 and set(got) == {1, 2}
    for rid, progs in ((1, old), (2, new)):  # oracle: a fresh engine with only that program (ORT)
        ref = Engine.for_node(dep, "n0", progs, inline_compute=True)
        ref.submit(rid, x)
        assert sent(ref, 0.0)[rid] == got[rid], rid
    assert got[1] != got[2]
    h.now += 5.0
    h.pump(d, rounds=2)  # past the grace window, idle: the update is the bound program, the variant is gone
    assert h.handler.epoch is None and sorted(h.engine.programs) == ["n0"]


def test_failed_health_check_rolls_back(compiled) -> None:  # type: ignore[no-untyped-def]
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h = Harness(dep, old)

    class Broken(ota.OnnxLoader):
        def health(self, staged: onnx.ModelProto, program: str | None = None) -> None:
            raise ota.OtaError(ota.ROLLED_BACK, "first inference failed")

    h.handler.loader = Broken(h.engine)
    d = h.deployer(_image(new))
    h.send(d.start(0.0))
    h.pump(d, rounds=6)
    evs = h.engine.drain_events()
    assert any(isinstance(e, ota.OtaRolledBack) for e in evs)
    assert [e.code for e in evs if isinstance(e, ota.OtaRefused)] == [ota.ROLLED_BACK]
    assert d.state == "failed"
    _unchanged(h, old)
    assert h.engine.edge_bindings == Engine.for_node(dep, "n0", old).edge_bindings


# ------------------------------------------------------------------- live fleet over real Mosquitto

FLEET_TIMEOUT = float(os.environ.get("OTA_FLEET_TIMEOUT", "90"))
# requests per phase (squeezenet: CI 2, BB_EDGE_LONG=1: 6); OTA_FLEET_REQUESTS=50 gives a longer run
PER_PHASE = int(os.environ.get("OTA_FLEET_REQUESTS", "6" if os.environ.get("BB_EDGE_LONG") == "1" else "2"))


SQZ_OUT = "softmaxout_1"


@pytest.fixture(scope="module")
def sqz_models() -> dict[str, onnx.ModelProto]:
    """Squeezenet (onnx's light graph) with seeded weights: old = seed 0, new = seed 1, the same contract."""
    return {"old": seeded_squeezenet(0), "new": seeded_squeezenet(1)}


def test_live_fleet_updated_mid_stream(sqz_models, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A 3-node squeezenet fleet (``compile --nodes 3``, three ``bb-edge node`` processes over Mosquitto) moves
    from seed 0 to seed 1: staged while requests flow, switched between requests.

    Every output is checked against ORT on the old or the new whole model (and not the other one), none
    lost; then a corrupt image and a badly signed one are refused and the fleet keeps serving the new
    program.
    """
    from bb_edge.adapters.fleet.hostloop import HostEndpoint
    from bb_edge.adapters.fleet.mqtt_fleet import spawn_node, stop_process
    from bb_edge.adapters.ops.broker import Broker, write_broker_files
    from bb_edge.adapters.ops.ota_deploy import Deploy, OtaTap, plan_update
    from bb_edge.adapters.transports.mqtt import MqttConfig, MqttTransport
    from bb_edge.commands.keygen import embed_public_key, make_keys
    from bb_edge.deployment.manifest import HOST_NAME, load_deployment

    old_dir, new_dir = tmp_path / "old", tmp_path / "new"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile_model(sqz_models["old"], nodes=3, out_dir=old_dir)
        compile_model(sqz_models["new"], nodes=3, out_dir=new_dir)
    priv, pub = make_keys(tmp_path / "keys")
    embed_public_key(old_dir, pub)
    dep = load_deployment(old_dir)
    assert dep.extra["ota"]["public_key"] == pub
    updates = plan_update(dep, load_deployment(new_dir), ota.ed25519_signer(bytes.fromhex(priv)))  # 32 KiB chunks
    assert sorted(u.node for u in updates) == dep.node_names

    files = write_broker_files(tmp_path / "broker", dep)
    broker = Broker(files).start()
    url = files.url()
    logs = {n: open(tmp_path / f"{n}.log", "wb") for n in dep.node_names}  # noqa: SIM115 (closed below)
    procs = [spawn_node(old_dir, n, url, extra=["--quiet", "--status-interval", "0"], stdout=logs[n],
                        stderr=subprocess.STDOUT) for n in dep.node_names]
    tr = MqttTransport(MqttConfig.from_url(files.url()), dep.name, HOST_NAME, dep.ids())
    tap = OtaTap(tr)
    host = HostEndpoint(dep, tap)
    rid = [0]

    def next_seq() -> int:  # the deployer numbers its envelopes in the host's sequence (same thread)
        return host.next_seq()

    def one_request(seed: int) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        rid[0] += 1
        x = random_inputs(sqz_models["old"], seed)  # data_0 [1, 3, 224, 224]
        host.submit(rid[0], x)
        return x, host.wait(rid[0], FLEET_TIMEOUT)

    def check(pairs: list[tuple[dict[str, np.ndarray], dict[str, np.ndarray]]], which: str) -> None:
        other = "new" if which == "old" else "old"
        for x, got in pairs:
            want, not_want = monolithic(sqz_models[which], x)[SQZ_OUT], monolithic(sqz_models[other], x)[SQZ_OUT]
            np.testing.assert_allclose(got[SQZ_OUT], want, rtol=1e-4, atol=1e-5)
            assert float(np.abs(got[SQZ_OUT] - not_want).max()) > 0.1  # the seeds' outputs differ by ~0.8

    try:
        host.open()
        tr.wait_connected(20.0)
        host.wait_for_peers(dep.node_names, FLEET_TIMEOUT)
        before = [one_request(s) for s in range(PER_PHASE)]
        old_hashes = dict(tap.program_hashes)

        run = Deploy(tap, dep.ids(), updates, next_seq, timeout_s=FLEET_TIMEOUT, update_id=41, deployment=dep.name)
        run.start()
        staging = []
        deadline = time.monotonic() + FLEET_TIMEOUT
        while run.step() == "staging":  # requests keep flowing while every node stages
            staging.append(one_request(100 + len(staging)))
            assert time.monotonic() < deadline, (run.report(), _logs(tmp_path, dep.node_names))
        while run.step() not in ("done", "failed"):
            time.sleep(0.01)
            assert time.monotonic() < deadline
        report = run.report()
        assert report.ok, report
        assert staging  # requests were served while the nodes staged
        after = [one_request(200 + s) for s in range(PER_PHASE)]
        check(before + staging, "old")
        check(after, "new")
        # HELLOs announce the new program hash (what each node reported in SWITCHED)
        ids = dep.ids()
        wait_deadline = time.monotonic() + 10
        while time.monotonic() < wait_deadline and any(
                tap.program_hashes.get(ids[n]) != bytes.fromhex(report.switched[n]) for n in dep.node_names):
            time.sleep(0.05)
        for n in dep.node_names:
            assert tap.program_hashes[ids[n]] == bytes.fromhex(report.switched[n]) != old_hashes.get(ids[n])
        # the active slot on disk is the new program
        assert (old_dir / "ota" / "n1" / "active").read_text().strip() in ("a", "b")

        # a corrupt image and a badly signed one: refused, ABORT everywhere, the new program keeps serving
        back = plan_update(load_deployment(new_dir), dep, ota.ed25519_signer(bytes.fromhex(priv)))
        corrupt = Deploy(tap, ids, back, next_seq, timeout_s=FLEET_TIMEOUT, update_id=42, deployment=dep.name)
        corrupt._ship(tamper_last_chunk(corrupt.deployer.start(time.monotonic()), "n1"))
        while corrupt.step() not in ("done", "failed"):
            time.sleep(0.01)
        assert corrupt.deployer.failures["n1"][0] == ota.CORRUPT, corrupt.report()
        check([one_request(300)], "new")
        forged = plan_update(load_deployment(new_dir), dep, ota.ed25519_signer(KEY))
        bad = Deploy(tap, ids, forged, next_seq, timeout_s=FLEET_TIMEOUT, update_id=43, deployment=dep.name)
        rep = bad.run()
        assert rep.state == "failed" and {c for c, _ in bad.deployer.failures.values()} == {ota.BAD_SIGNATURE}
        check([one_request(301), one_request(302)], "new")
        assert all(p.poll() is None for p in procs)  # every node still running
    finally:
        for p in procs:
            stop_process(p)
        for f in logs.values():
            f.close()
        host.close()
        broker.stop()


def _logs(directory: Path, names: list[str]) -> str:
    """The node processes' output (for a failure message)."""
    return "\n".join(f"--- {n}\n" + (directory / f"{n}.log").read_text()[-3000:] for n in names)


def test_plan_refuses_a_contract_change_before_sending(models, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """``plan_update``: a DIST whose n0 program has other edges is refused up front, as is an unknown node."""
    import shutil

    from bb_edge.adapters.ops.ota_deploy import plan_update
    from bb_edge.deployment.manifest import load_deployment

    cur, bad = tmp_path / "cur", tmp_path / "bad"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile_model(models["old"], nodes=3, out_dir=cur)
    shutil.copytree(cur, bad)
    shutil.copy(cur / "n1.onnx", bad / "n0.onnx")
    signer = ota.ed25519_signer(KEY)
    with pytest.raises(ota.OtaError) as err:
        plan_update(load_deployment(cur), load_deployment(bad), signer)
    assert err.value.code == ota.CONTRACT_MISMATCH and "n0" in str(err.value)
    raw = json.loads((bad / "deployment.json").read_text())
    shutil.copy(cur / "n0.onnx", bad / "n0.onnx")
    raw["nodes"][0]["id"] = 77
    (bad / "deployment.json").write_text(json.dumps(raw))
    with pytest.raises(ota.OtaError) as err:
        plan_update(load_deployment(cur), load_deployment(bad), signer)
    assert err.value.code == ota.UNKNOWN_NODE
    assert plan_update(load_deployment(cur), load_deployment(cur), signer) == []  # nothing changed


def test_cli_keygen_and_deploy(models, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """``bb-edge keygen --deployment`` then ``bb-edge deploy`` against node processes; a refused DIST exits 4.
    The good deploy runs while a host serves requests: it connects as ``_deploy``, the host keeps its one
    connection (broker log), every request is answered (old program before, new after)."""
    import shutil
    import sys
    import threading

    from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint, spawn_node, stop_process
    from bb_edge.adapters.ops.broker import Broker, write_broker_files
    from bb_edge.deployment.manifest import load_deployment

    old_dir, new_dir = tmp_path / "old", tmp_path / "new"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile_model(models["old"], nodes=3, out_dir=old_dir)
        compile_model(models["new"], nodes=3, out_dir=new_dir)
    cli = [sys.executable, "-m", "bb_edge.cli"]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    out = subprocess.run([*cli, "keygen", "-o", str(tmp_path / "keys"), "--deployment", str(old_dir)],
                         capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "keys" / "ota_ed25519.key").stat().st_mode & 0o077 == 0
    dep = load_deployment(old_dir)
    files = write_broker_files(tmp_path / "broker", dep)
    broker = Broker(files).start()
    url = files.url()
    procs = [spawn_node(old_dir, n, url, extra=["--quiet", "--status-interval", "0"], stdout=subprocess.DEVNULL)
             for n in dep.node_names]
    host = None
    try:
        bad = tmp_path / "bad"
        shutil.copytree(new_dir, bad)
        shutil.copy(new_dir / "n2.onnx", bad / "n1.onnx")
        deploy = [*cli, "deploy", "--current", str(old_dir), "--fleet", url,
                  "--key", str(tmp_path / "keys" / "ota_ed25519.key")]
        out = subprocess.run([*deploy, str(bad)], capture_output=True, text=True, timeout=120, env=env)
        assert out.returncode == 4 and "contract_mismatch" in out.stdout, (out.stdout, out.stderr)
        host = host_endpoint(dep, url)
        host.wait_for_peers(dep.node_names, FLEET_TIMEOUT)
        x = _inputs(models["old"], 9)
        want = {k: monolithic(models[k], x)["y"] for k in ("old", "new")}
        answers: list[str] = []
        stop = threading.Event()

        def traffic() -> None:  # the running host keeps serving requests while the deploy runs
            rid = 100
            while not stop.is_set():
                rid += 1
                host.submit(rid, x)
                y = host.wait(rid, FLEET_TIMEOUT)["y"]
                answers.append(next((k for k, w in want.items() if np.allclose(y, w, rtol=1e-4, atol=1e-5)),
                                    "mixed"))

        worker = threading.Thread(target=traffic, daemon=True)
        worker.start()
        time.sleep(0.5)
        out = subprocess.run([*deploy, str(new_dir)], capture_output=True, text=True, timeout=120, env=env)
        time.sleep(0.5)
        stop.set()
        worker.join(FLEET_TIMEOUT)
        assert out.returncode == 0, (out.stdout, out.stderr)
        assert out.stdout.count("switched to") == 3 and "deploy done" in out.stdout
        log = (files.directory / "mosquitto.log").read_text()
        # the deployer is its own client: the host was never displaced, and connected exactly once
        assert "as _deploy" in log and "_host already connected" not in log, log[-2000:]
        assert log.count(" as _host ") == 1, log[-2000:]
        assert not worker.is_alive() and answers and answers[0] == "old" and answers[-1] == "new", answers
        host.submit(10**6, x)  # a request after the switch point (host request ids only grow)
        got = host.wait(10**6, FLEET_TIMEOUT)
        np.testing.assert_allclose(got["y"], want["new"], rtol=1e-4, atol=1e-5)
        # restarted, every node runs its active slot (the new program), not the compiled one
        for p in procs:
            assert stop_process(p) == 0
        procs += [spawn_node(old_dir, n, url, extra=["--quiet", "--status-interval", "0"],
                             stdout=subprocess.DEVNULL) for n in dep.node_names]
        host.submit(2, x)
        got = host.wait(2, FLEET_TIMEOUT)
        np.testing.assert_allclose(got["y"], monolithic(models["new"], x)["y"], rtol=1e-4, atol=1e-5)
    finally:
        for p in procs:
            stop_process(p)
        if host is not None:
            host.close()
        broker.stop()


# ------------------------------------------------------------------- the C node end (firmware/src/bbrt_ota.c)

C_NODE = "n2"
HMAC_KEY = bytes(range(100, 132))


@pytest.fixture(scope="module")
def c_ota(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """bbrt with bbrt_sha256.c and bbrt_ota.c as a shared library (C99, -Wall -Wextra -Werror -pedantic)."""
    import ctypes
    import shutil

    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    fw = Path(__file__).resolve().parents[2] / "firmware"
    out = tmp_path_factory.mktemp("ota_c") / "libbbrt_ota.so"
    srcs = ["bbrt_sha256.c", "bbrt_ota.c", "bbrt_base.c", "bbrt_wire.c", "bbrt_program.c", "bbrt_check.c",
            "bbrt_kernels.c", "bbrt_node.c", "bbrt_link.c", "bbrt_resolver_all.c"]
    subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-Wno-cast-align", "-O2", "-fPIC",
                    "-shared", f"-I{fw / 'include'}", *[str(fw / "src" / s) for s in srcs], "-o", str(out)],
                   check=True, timeout=180)
    lib = ctypes.CDLL(str(out))
    lib.bbrt_ota_sizeof.restype = ctypes.c_size_t
    lib.bbrt_ota_message.restype = ctypes.c_uint16
    lib.bbrt_ota_poll.restype = ctypes.c_uint16
    return lib


@pytest.fixture(scope="module")
def bbrt_blobs() -> dict[str, bytes]:
    """n2 of bbrt's small_cnn lowered to .bbrt twice (different weights), and n1 (other edges)."""
    from bb_edge.bbrt.lower import lower
    from tests.support.examples import small_cnn as bbrt_cnn

    out = {}
    for key, seed, node in (("old", 0, "n2"), ("new", 1, "n2"), ("n1", 0, "n1")):
        dep, progs = compile_model(bbrt_cnn(seed=seed), cuts=["r3", "c4"], node_names=["n0", "n1", "n2"])
        io = {i.name: i.edge_id for i in dep.inputs} | {o.name: o.edge_id for o in dep.outputs}
        out[key] = lower(progs[node], node_id=dep.ids()[node], node_ids=dep.ids(), io_edges=io,
                         precision="fp32").blob
    return out


class COta:
    """The C OTA state machine with an active program, a staging slot and an arena (all caller memory)."""

    ARENA = 1 << 16

    def __init__(self, lib, old: bytes, key: bytes | None = HMAC_KEY, slot_cap: int = 1 << 16) -> None:  # type: ignore[no-untyped-def]
        import ctypes

        self.lib, self.ct = lib, ctypes
        self.state = ctypes.create_string_buffer(lib.bbrt_ota_sizeof())
        self.active_blob = ctypes.create_string_buffer(old, len(old))
        self.arena = ctypes.create_string_buffer(self.ARENA)
        self.slot = ctypes.create_string_buffer(slot_cap)
        self.active = ctypes.create_string_buffer(256)  # bbrt_program_t
        self.key = ctypes.create_string_buffer(key, len(key)) if key else None
        assert lib.bbrt_program_load(self.active, self.active_blob, ctypes.c_size_t(len(old)), self.arena,
                                     ctypes.c_size_t(self.ARENA)) == 0
        assert lib.bbrt_ota_init(self.state, C_NODE.encode(), self.slot, ctypes.c_size_t(slot_cap), self.arena,
                                 ctypes.c_size_t(self.ARENA), self.key, ctypes.c_size_t(len(key) if key else 0)) == 0
        self.reply = ctypes.create_string_buffer(ota.MAX_REASON)
        self.resumes: list[bytes] = []  # RESUME payloads (u32 update id, u32 offset) answered so far

    def message(self, edge: int, payload: bytes) -> tuple[int, bytes]:
        ct = self.ct
        n = ct.c_size_t()
        t = self.lib.bbrt_ota_message(self.state, self.active, ct.c_uint16(edge), payload, ct.c_size_t(len(payload)),
                                      self.reply, ct.c_size_t(len(self.reply)), ct.byref(n))
        return int(t), self.reply.raw[:n.value]

    def poll(self, idle: bool) -> tuple[int, bytes]:
        ct = self.ct
        n = ct.c_size_t()
        t = self.lib.bbrt_ota_poll(self.state, ct.c_int(int(idle)), self.active, self.reply,
                                   ct.c_size_t(len(self.reply)), ct.byref(n))
        return int(t), self.reply.raw[:n.value]

    def running(self) -> int:
        """Address of the running program's blob (bbrt_program_t.blob, its first field)."""
        return int(self.ct.c_void_p.from_buffer(self.active).value or 0)

    def send_update(self, image: bytes, key: bytes = HMAC_KEY, uid: int = 1, chunk: int = 500,
                    target: int = ota.TARGET_BBRT) -> list[tuple[int, bytes]]:
        """What the Python deployer sends (OtaDeployer), each message handed to the C node; its replies."""
        upd = ota.NodeUpdate(C_NODE, image, target, ota.hmac_signer(key), ota.SIG_HMAC_SHA256, chunk)
        d = ota.OtaDeployer({C_NODE: 3, "_host": 0}, [upd], lambda: 1, uid)
        replies = []
        for o in d.start(0.0):
            env = wire.decode(o.data, max_payload=len(o.data))
            t, body = self.message(env.edge, bytes(env.payload_bytes()))
            if t == ota.RESUME:  # every accepted OFFER2 is answered RESUME (docs/wire.md): kept apart
                self.resumes.append(body)
            elif t:
                replies.append((t, body))
        return replies


def test_c_sha256_and_hmac_match_hashlib(c_ota) -> None:  # type: ignore[no-untyped-def]
    import ctypes
    import hmac as pyhmac

    rng = np.random.default_rng(0)
    out = ctypes.create_string_buffer(32)
    for n in [0, 1, 55, 56, 63, 64, 65, 119, 128, 1000, 4097]:
        data = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        c_ota.bbrt_sha256(data, ctypes.c_size_t(n), out)
        assert out.raw == hashlib.sha256(data).digest(), n
        for key in (b"k", bytes(64), bytes(range(200))):
            c_ota.bbrt_hmac_sha256(key, ctypes.c_size_t(len(key)), data, ctypes.c_size_t(n), out)
            assert out.raw == pyhmac.new(key, data, hashlib.sha256).digest(), (n, len(key))


def test_c_node_stages_verifies_and_switches_at_idle(c_ota, bbrt_blobs) -> None:  # type: ignore[no-untyped-def]
    node = COta(c_ota, bbrt_blobs["old"])
    before = node.running()
    replies = node.send_update(bbrt_blobs["new"])
    sha = hashlib.sha256(bbrt_blobs["new"]).digest()
    assert replies == [(ota.READY, (1).to_bytes(4, "little") + sha)]
    assert node.resumes == [(1).to_bytes(4, "little") + bytes(4)]  # a new transfer: RESUME at byte 0
    assert node.running() == before  # staged only
    assert node.message(ota.COMMIT, (1).to_bytes(4, "little")) == (0, b"")
    assert node.poll(idle=False) == (0, b"") and node.running() == before  # a request is in progress
    t, body = node.poll(idle=True)
    assert t == ota.SWITCHED and body[4:] == sha
    assert node.running() == ctypes_addr(node.slot) != before


def ctypes_addr(buf) -> int:  # type: ignore[no-untyped-def]
    import ctypes

    return ctypes.addressof(buf)


@pytest.mark.parametrize("case", ["corrupt", "bad_signature", "contract", "invalid", "truncated", "too_large",
                                  "wrong_target", "no_key"])
def test_c_node_refusals_keep_the_running_program(c_ota, bbrt_blobs, case: str) -> None:  # type: ignore[no-untyped-def]
    node = COta(c_ota, bbrt_blobs["old"], key=None if case == "no_key" else HMAC_KEY,
                slot_cap=1000 if case == "too_large" else 1 << 16)
    before = node.running()
    image = bbrt_blobs["new"]
    if case == "corrupt":
        upd = ota.NodeUpdate(C_NODE, image, ota.TARGET_BBRT, ota.hmac_signer(HMAC_KEY), ota.SIG_HMAC_SHA256, 500)
        d = ota.OtaDeployer({C_NODE: 3, "_host": 0}, [upd], lambda: 1, 1)
        msgs = [wire.decode(o.data, max_payload=len(o.data)) for o in d.start(0.0)]
        replies = []
        for i, env in enumerate(msgs):
            body = bytearray(env.payload_bytes())
            if i == len(msgs) - 1:
                body[-1] ^= 1
            t, r = node.message(env.edge, bytes(body))
            if t and t != ota.RESUME:
                replies.append((t, r))
        want = ota.CORRUPT
    elif case == "truncated":
        upd = ota.NodeUpdate(C_NODE, image, ota.TARGET_BBRT, ota.hmac_signer(HMAC_KEY), ota.SIG_HMAC_SHA256, 500)
        d = ota.OtaDeployer({C_NODE: 3, "_host": 0}, [upd], lambda: 1, 1)
        msgs = [wire.decode(o.data, max_payload=len(o.data)) for o in d.start(0.0)]
        del msgs[2]
        replies = [r for r in (node.message(e.edge, bytes(e.payload_bytes())) for e in msgs)
                   if r[0] not in (0, ota.RESUME)]
        want = ota.TRUNCATED
    else:
        key = OTHER_KEY if case == "bad_signature" else HMAC_KEY
        if case == "contract":
            image = bbrt_blobs["n1"]
        elif case == "invalid":
            image = bytes(len(image))  # hash and signature are right: bbrt's loader refuses it
        target = ota.TARGET_ONNX if case == "wrong_target" else ota.TARGET_BBRT
        replies = node.send_update(image, key=key, target=target)
        want = {"bad_signature": ota.BAD_SIGNATURE, "contract": ota.CONTRACT_MISMATCH,
                "invalid": ota.INVALID_PROGRAM, "too_large": ota.TOO_LARGE, "wrong_target": ota.WRONG_TARGET,
                "no_key": ota.NO_KEY}[case]
    assert len(replies) == 1 and replies[0][0] == ota.NACK, replies
    assert ota.decode_nack(replies[0][1])[1] == want
    assert node.running() == before
    assert node.message(ota.COMMIT, (1).to_bytes(4, "little"))[0] == ota.NACK  # nothing staged
    assert node.poll(idle=True) == (0, b"") and node.running() == before
    # the node takes the next, good update
    again = node.send_update(bbrt_blobs["new"], uid=2)[0][0]
    assert again == (ota.NACK if case in ("no_key", "too_large") else ota.READY)


def test_c_node_refuses_a_second_update_and_malformed_messages(c_ota, bbrt_blobs) -> None:  # type: ignore[no-untyped-def]
    node = COta(c_ota, bbrt_blobs["old"])
    image = bbrt_blobs["new"]
    digest = hashlib.sha256(image).digest()
    sig = ota.hmac_signer(HMAC_KEY)(ota.signed_manifest("", C_NODE, ota.TARGET_BBRT, len(image), 1, 1, digest))
    offer1 = ota.Offer(1, len(image), ota.TARGET_BBRT, ota.SIG_HMAC_SHA256, digest, sig, 1, "").encode()
    assert node.message(ota.OFFER2, offer1) == (ota.RESUME, (1).to_bytes(4, "little") + bytes(4))
    # another image while one is staged: busy (an offer of the same image would resume it instead)
    t, body = node.message(ota.OFFER2, ota.Offer(2, len(image), ota.TARGET_BBRT, ota.SIG_HMAC_SHA256,
                                                 hashlib.sha256(b"other").digest(), sig, 2, "").encode())
    assert t == ota.NACK and ota.decode_nack(body)[:2] == (2, ota.BUSY)
    for edge, payload in ((ota.OFFER2, b"\x01"), (ota.DATA, b"\x01\x00"), (ota.COMMIT, b""), (99, b"1234")):
        t, body = node.message(edge, payload)
        assert t == ota.NACK and ota.decode_nack(body)[1] == ota.BAD_MESSAGE
    t, body = node.message(ota.DATA, ota.encode_data(7, 0, b"xx"))
    assert ota.decode_nack(body)[1] == ota.UNKNOWN_UPDATE
    # update 1 still completes
    t, body = node.message(ota.DATA, ota.encode_data(1, 0, image))
    assert t == ota.READY


def test_a_rollback_after_commit_puts_switched_nodes_back(compiled) -> None:  # type: ignore[no-untyped-def]
    """n1 fails its health check at PREPARE: no SWITCH_AT leaves, so n0 (prepared, holding) never switches;
    the ABORT releases it on its previous program."""
    dep, old = compiled["old"]
    _, new = compiled["new"]
    h0, h1 = Harness(dep, old, "n0"), Harness(dep, old, "n1")

    class Broken(ota.OnnxLoader):
        def health(self, staged: onnx.ModelProto, program: str | None = None) -> None:
            raise ota.OtaError(ota.ROLLED_BACK, "first inference failed")

    h1.handler.loader = Broken(h1.engine)
    seq = [9 << 32]

    def next_seq() -> int:
        seq[0] += 1
        return seq[0]

    signer = ota.ed25519_signer(KEY)
    ups = [ota.NodeUpdate(n, _image(new, n), ota.TARGET_ONNX, signer, chunk=1024, previous=_image(old, n))
           for n in ("n0", "n1")]
    d = ota.OtaDeployer(dep.ids(), ups, next_seq, 10)
    hs = {"n0": h0, "n1": h1}
    pending = d.start(0.0)
    now = 0.0
    for _ in range(40):
        for o in pending:
            hs[o.peer].engine.deliver("_host", o.data)
        now += 0.01
        for h in hs.values():
            for out in h.engine.poll(now):
                env = wire.decode(out.data, max_payload=len(out.data))
                if env.protocol == ota.PROTO_OTA:
                    d.on_envelope(env)
        pending = d.poll(now)
        if d.state == "failed" and not pending:
            break
    assert d.state == "failed" and d.failures["n1"][0] == ota.ROLLED_BACK
    assert d.reverted == [] and d.off == {"n0", "n1"} and not d.switched and h0.handler.epoch is None
    for n, h in hs.items():
        assert h.engine.program_hash == hashlib.sha256(old[n].SerializeToString(deterministic=True)).digest(), n


def test_file_slots_are_atomic_and_lazy(tmp_path: Path) -> None:
    """FileSlots: nothing on disk until a stage; the active slot flips only on activate; discard removes."""
    from bb_edge.adapters.ops.ota_store import FileSlots

    s = FileSlots(tmp_path / "ota" / "n0")
    assert s.active is None and not (tmp_path / "ota").exists()
    s.stage(b"one")
    assert s.active is None and s.active_program() is None  # staged is not active
    s.activate()
    assert s.active == "a" and s.active_program() == b"one"
    s.stage(b"two")  # the inactive slot: the running one is untouched
    assert (tmp_path / "ota" / "n0" / "slot_a").read_bytes() == b"one"
    s.discard()
    assert s.active_program() == b"one" and not (tmp_path / "ota" / "n0" / "slot_b").exists()
    s.stage(b"three")
    s.activate()
    assert s.active == "b" and FileSlots(tmp_path / "ota" / "n0").active_program() == b"three"
    assert not list((tmp_path / "ota" / "n0").glob("*.tmp"))


def test_hmac_key_file_verifies_what_deploy_hmac_signs(compiled, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A provisioned ota_hmac.key (hex, as build writes it) verifies what `deploy --hmac` signs with that file;
    a key file that is not hex is a typed DeploymentError."""
    from bb_edge.adapters.ops.ota_store import verifier_for
    from bb_edge.errors import DeploymentError

    dep = next(iter(compiled.values()))[0]
    node = dep.nodes[0].name
    secret = os.urandom(32)
    key_file = tmp_path / "ota_hmac.key"
    key_file.write_text(secret.hex() + "\n")
    verify, kind = verifier_for(dep, node, key_file)
    assert kind == ota.SIG_HMAC_SHA256 and verify is not None
    signature = ota.hmac_signer(bytes.fromhex(key_file.read_text().strip()))(b"offer bytes")
    assert verify(b"offer bytes", signature)
    assert not verify(b"offer bytes", ota.hmac_signer(secret.hex().encode())(b"offer bytes"))
    key_file.write_text("not hex")
    with pytest.raises(DeploymentError, match="not a hex HMAC key"):
        verifier_for(dep, node, key_file)


# ------------------------------------------------ atomic fleet update: explored interleavings

from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule  # noqa: E402

_FLEET: dict[str, object] = {}


def _nan_program(model: onnx.ModelProto) -> onnx.ModelProto:
    """The same program with its first float initializer all NaN: it loads, and fails the health check."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for init in m.graph.initializer:
        a = numpy_helper.to_array(init)
        if a.dtype == np.float32:
            init.CopyFrom(numpy_helper.from_array(np.full_like(a, np.nan), init.name))
            break
    return m


def _fleet_models() -> dict[str, object]:
    """Old and new small-CNN programs for 3 nodes (built once per test process)."""
    if not _FLEET:
        old = small_cnn()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            dep, progs_old = compile_model(old, nodes=3)
            _, progs_new = compile_model(_scaled(old, 1.25), nodes=3)
        _FLEET.update(dep=dep, old=progs_old, new=progs_new, old_model=old, new_model=_scaled(old, 1.25),
                      bad={n: _nan_program(p) for n, p in progs_new.items()})
    return _FLEET


def _hash(model: onnx.ModelProto) -> bytes:
    return hashlib.sha256(model.SerializeToString(deterministic=True)).digest()


class AtomicUpdate(RuleBasedStateMachine):
    """One deployer and three real node engines (ONNX Runtime); the network between them is the explored part.

    Every envelope sits in ``net`` until a rule delivers it (in any order), drops it or duplicates it; time
    moves in small steps or jumps past a phase's deadline. Some nodes get an update that fails its health
    check after COMMIT. At the end every envelope still in flight is delivered and time moves on until the
    deployer decides; then every node must run one program: all the new one (the deployer says ``done``) or
    all the old one (``failed``). The oracle is the program hash each engine runs, compared with SHA-256 of
    the compiled programs.
    """

    TIMEOUT = 30.0
    RETRY = 1.0

    def __init__(self) -> None:
        super().__init__()
        f = _fleet_models()
        self.dep: Deployment = f["dep"]  # type: ignore[assignment]
        self.old: dict[str, onnx.ModelProto] = f["old"]  # type: ignore[assignment]
        self.new: dict[str, onnx.ModelProto] = f["new"]  # type: ignore[assignment]
        self.bad_models: dict[str, onnx.ModelProto] = f["bad"]  # type: ignore[assignment]
        self.now = 0.0
        self.net: list[tuple[str, bytes]] = []  # (node, bytes): to the node, or "@node" from it
        self.drops = 0
        # requests flow through the pipeline while the update runs: every output must be wholly old or new
        self.x = _inputs(f["old_model"], 4)  # type: ignore[arg-type]
        self.want = {k: monolithic(f[f"{k}_model"], self.x)["y"] for k in ("old", "new")}  # type: ignore[arg-type]
        self.outputs: dict[int, np.ndarray] = {}
        self.requests = 0

    @initialize(bad=st.sets(st.sampled_from(["n0", "n1", "n2"]), max_size=2))
    def start(self, bad: set[str]) -> None:
        self.bad = bad
        self.engines = {}
        self.handlers = {}
        for n in self.dep.node_names:
            eng = Engine.for_node(self.dep, n, self.old, inline_compute=True)
            eng.subscribe(lambda e: self.outputs.__setitem__(e.request_id, e.value)  # type: ignore[attr-defined]
                          if e.name == "y" else None, ev.OutputReady)
            h = ota.OtaNode(eng, ota.OnnxLoader(eng), ota.ed25519_verifier(_pub(KEY)))
            eng.register_protocol(h)
            self.engines[n], self.handlers[n] = eng, h
        seq = [11 << 32]

        def next_seq() -> int:  # the deployer and the requests speak as the host: one sequence
            seq[0] += 1
            return seq[0]

        self.next_seq = next_seq
        signer = ota.ed25519_signer(KEY)
        self.want_prog = {n: (self.bad_models if n in bad else self.new)[n] for n in self.dep.node_names}
        ups = [ota.NodeUpdate(n, self.want_prog[n].SerializeToString(), ota.TARGET_ONNX, signer, chunk=4096)
               for n in self.dep.node_names]
        self.d = ota.OtaDeployer(self.dep.ids(), ups, next_seq, 77, timeout_s=self.TIMEOUT, retry_s=self.RETRY,
                                 resume=True)  # OFFER, then DATA from each node's RESUME
        self.net += [(o.peer, o.data) for o in self.d.start(self.now)]

    def _step(self, dt: float) -> None:
        self.now += dt
        for n, eng in self.engines.items():
            for out in eng.poll(self.now):
                env = wire.decode(out.data, max_payload=len(out.data))
                if env.protocol == ota.PROTO_OTA:
                    self.net.append(("@" + n, out.data))
                elif env.kind == wire.KIND_DATA and out.peer in self.engines:  # an intermediate to the next node
                    self.net.append((out.peer, out.data))
        self.net += [(o.peer, o.data) for o in self.d.poll(self.now)]

    def _deliver(self, item: tuple[str, bytes]) -> None:
        peer, data = item
        if peer.startswith("@"):
            self.d.on_envelope(wire.decode(data, max_payload=len(data)))
        else:
            sender = wire.decode(data, max_payload=len(data)).sender
            self.engines[peer].deliver({v: k for k, v in self.dep.ids().items()}.get(sender, "_host"), data)

    def _channels(self) -> list[str]:
        return sorted({peer for peer, _ in self.net})

    def _head(self, i: int) -> int:
        """Index in ``net`` of the oldest envelope on the ``i``-th busy channel (channels are FIFO)."""
        chan = self._channels()[i % len(self._channels())]
        return next(k for k, (peer, _) in enumerate(self.net) if peer == chan)

    @precondition(lambda self: self.requests < 12)
    @rule()
    def request(self) -> None:
        """The host sends a request's input to the entry node (request ids grow, as a host's do)."""
        spec = self.dep.inputs[0]
        self.requests += 1
        env = wire.Envelope.for_array(self.x[spec.name], sender=HOST_ID, receiver=self.dep.ids()[spec.node],
                                      seq=self.next_seq(), request_id=1000 + self.requests, edge=spec.edge_id)
        self.net.append((spec.node, wire.encode(env)))

    @precondition(lambda self: bool(self.net))
    @rule(i=st.integers(0, 5))
    def deliver(self, i: int) -> None:
        """One channel's oldest envelope arrives: channels interleave in any order."""
        self._deliver(self.net.pop(self._head(i)))

    @precondition(lambda self: bool(self.net) and self.drops < 3)
    @rule(i=st.integers(0, 5))
    def drop(self, i: int) -> None:
        self.net.pop(self._head(i))
        self.drops += 1

    @precondition(lambda self: bool(self.net))
    @rule(i=st.integers(0, 5))
    def duplicate(self, i: int) -> None:
        """A channel's oldest envelope arrives twice (the copy later)."""
        self.net.append(self.net[self._head(i)])

    @precondition(lambda self: bool(self.net))
    @rule(seed=st.integers(0, 2**32 - 1), keep=st.integers(0, 3), dt=st.sampled_from([0.0, 0.01, 0.5]))
    def flush(self, seed: int, keep: int, dt: float) -> None:
        """Channels interleave in an order drawn from ``seed``, each in order; ``keep`` channels hold back."""
        import random

        rng = random.Random(seed)
        held = set(rng.sample(self._channels(), min(keep, len(self._channels()))))
        batch = [it for it in self.net if it[0] not in held]
        self.net = [it for it in self.net if it[0] in held]
        queues: dict[str, list[tuple[str, bytes]]] = {}
        for it in batch:
            queues.setdefault(it[0], []).append(it)
        while queues:
            chan = rng.choice(sorted(queues))
            self._deliver(queues[chan].pop(0))
            if not queues[chan]:
                del queues[chan]
        self._step(dt)

    @rule(dt=st.sampled_from([0.01, 0.5, 1.5]))
    def tick(self, dt: float) -> None:
        self._step(dt)

    @precondition(lambda self: self.d.state in ("staging", "committing"))
    @rule()
    def deadline_passes(self) -> None:
        """A phase times out (the deployer gives up waiting for READY or SWITCHED)."""
        self._step(self.TIMEOUT + 0.5)

    @invariant()
    def outcome_follows_the_deployer(self) -> None:
        """``done`` only when every node said SWITCHED; never ``done`` with a bad node."""
        if self.d.state == "done":
            assert not self.bad and set(self.d.switched) == set(self.engines)

    def teardown(self) -> None:
        if not hasattr(self, "d"):
            return
        for _ in range(200):  # the network heals: everything in flight arrives, time moves on
            while self.net:
                self._deliver(self.net.pop(0))
            if self.d.state in ("done", "failed") and not self.net:
                break
            self._step(self.RETRY)
        for _ in range(3):  # the nodes apply what they were told (reverts at their idle point)
            self._step(self.RETRY)
            while self.net:
                self._deliver(self.net.pop(0))
        assert self.d.state in ("done", "failed"), self.d.state
        from hypothesis.control import currently_in_test_context, event

        if currently_in_test_context():  # --hypothesis-show-statistics: how often each outcome was explored
            event(f"{self.d.state} after {'COMMIT' if self.d.committed else 'staging'}")
        for rid, y in self.outputs.items():  # no output mixes programs
            which = [k for k, w in self.want.items() if np.allclose(y, w, rtol=1e-5, atol=1e-6)]
            assert which, f"request {rid}: its output is neither the old model's nor the new one's"
            assert which == ["old"] or not self.bad, f"request {rid} ran on an update that failed"
        running = {n: e.program_hash for n, e in self.engines.items()}
        old = {n: _hash(self.old[n]) for n in running}
        new = {n: _hash(self.want_prog[n]) for n in running}
        if self.d.state == "done":
            assert running == new, "deployer says done, a node does not run the update"
        else:
            assert running == old, (f"deployer says failed ({self.d.failures}), nodes on the update: "
                                    f"{[n for n in running if running[n] != old[n]]}")
            assert self.d.unreverted == []


AtomicUpdate.TestCase.settings = settings(
    max_examples=int(os.environ.get("BB_EDGE_OTA_EXAMPLES", "150")), stateful_step_count=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
test_atomic_fleet_update_over_message_orders = AtomicUpdate.TestCase


@pytest.mark.parametrize("lose_held", [False, True])
def test_refusal_before_a_late_held_switches_no_node(lose_held: bool) -> None:
    """The issue's hand test in process: n1's refusal (health check at PREPARE) reaches the deployer before
    n0's and n2's HELD (or those are lost). No SWITCH_AT ever left, so no node ran the update; the ABORT
    releases what n0 and n2 held, and they answer it."""
    m = AtomicUpdate()
    m.start({"n1"})
    while m.d.state == "staging":
        while m.net:
            m._deliver(m.net.pop(0))
        m._step(0.01)
    assert m.d.state == "preparing"
    while m.net:  # the PREPAREs arrive
        m._deliver(m.net.pop(0))
    m._step(0.01)
    n1 = [it for it in m.net if it[0] == "@n1"]
    late = [it for it in m.net if it[0] != "@n1"]
    m.net = []
    for it in n1:
        m._deliver(it)
    m._step(0.01)
    assert m.d.state == "reverting" and all(h.epoch is not None for n, h in m.handlers.items() if n != "n1")
    m.net += [] if lose_held else late
    m.teardown()
    assert m.d.state == "failed" and m.d.reverted == [] and m.d.unreverted == [] and not m.d.switched
    assert all(h.epoch is None for h in m.handlers.values())


def test_a_revert_after_the_switch_point_keeps_every_request_on_one_program() -> None:
    """SWITCH_AT reaches n0 and n1, never n2; a request past the switch point runs on n0's update and its
    intermediate is held back on the way to n1 while the deployer times out and reverts. The revert is one
    request boundary too (REVERT, HELD, REVERT_AT): the late intermediate still runs the update on n1 and n2,
    so its output is the new model's, and requests after it the old model's; every node ends on the old
    program. (Sending every node back at once would have run that request's n1 and n2 on the old program.)"""
    m = AtomicUpdate()
    m.start(set())

    def edge(data: bytes) -> int:
        return wire.decode(data, max_payload=len(data)).edge

    def to_n1(it: tuple[str, bytes]) -> bool:  # a dataflow envelope on its way to n1
        return it[0] == "n1" and wire.decode(it[1], max_payload=len(it[1])).kind == wire.KIND_DATA

    def deliver_all(keep: Callable[[tuple[str, bytes]], bool] = lambda it: False) -> None:
        for _ in range(50):
            items = [it for it in m.net if not keep(it)]
            m.net = [it for it in m.net if keep(it)]
            for it in items:
                if not (it[0] == "n2" and edge(it[1]) == ota.SWITCH_AT):  # n2 never hears SWITCH_AT
                    m._deliver(it)
            m._step(0.01)
            if not [it for it in m.net if not keep(it)]:
                return

    while m.d.state in ("staging", "preparing"):
        deliver_all()
    assert m.d.state == "committing" and m.handlers["n0"].epoch.boundary is not None  # type: ignore[union-attr]
    m.request()  # past the switch point: n0 runs it on the update
    assert m.dep.inputs[0].node == "n0"
    deliver_all(to_n1)
    held = [it for it in m.net if to_n1(it)]
    assert held, "n0's intermediate for n1 is held back"
    m.net = [it for it in m.net if it not in held]
    m._step(m.TIMEOUT + 0.5)  # no SWITCHED from n2: the deployer reverts
    assert m.d.state == "reverting"
    for _ in range(10):
        deliver_all()
    assert all(h.epoch is not None and h.epoch.revert_at is not None for h in m.handlers.values())
    m.net += held  # the late intermediate arrives after every node reverted
    deliver_all()
    m.request()  # after the revert point: the old program everywhere
    m.teardown()
    assert m.d.state == "failed" and m.d.unreverted == []
    ys = [m.outputs[r] for r in sorted(m.outputs)]
    assert len(ys) == 2
    np.testing.assert_allclose(ys[0], m.want["new"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ys[1], m.want["old"], rtol=1e-5, atol=1e-6)


# ----------------------------------------------------------------------- anti-rollback (OFFER2)


def _reseq(data: bytes, seq: int, uid: int | None = None) -> bytes:
    """A captured OTA envelope with a fresh seq (and, given ``uid``, its update id rewritten)."""
    env = wire.decode(data, max_payload=len(data))
    body = bytearray(env.payload_bytes())
    if uid is not None:
        body[:4] = uid.to_bytes(4, "little")
    out = wire.Envelope.for_bytes(bytes(body), sender=env.sender, receiver=env.receiver, seq=seq,
                                  kind=wire.KIND_CONTROL, protocol=ota.PROTO_OTA, edge=env.edge)
    return wire.encode(out, max_payload=len(body))


def test_replayed_old_update_is_refused_in_three_forms(compiled, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A node on version 2 refuses a captured, validly signed version-1 update: replayed with fresh seqs,
    with a rewritten update id (also with a forged higher version: the manifest is signed), and byte for
    byte after a restart (the accepted version is in its slot directory). The oracle: the program hash it
    runs stays SHA-256 of the version-2 program, and each refusal is the typed NACK."""
    from bb_edge.adapters.ops.ota_store import FileSlots

    dep, old = compiled["old"]
    _, new = compiled["new"]

    def node() -> Harness:
        h = Harness(dep, old)  # its handler is replaced: same key, slots in files, the deployment's name
        h.handler = ota.OtaNode(h.engine, ota.OnnxLoader(h.engine), ota.ed25519_verifier(_pub(KEY)),
                                store=FileSlots(tmp_path / "slots"), deployment=dep.name)
        h.engine.register_protocol(h.handler)
        return h

    def deploy(h: Harness, image: bytes, uid: int, version: int) -> list[ota.Outgoing]:
        upd = ota.NodeUpdate("n0", image, ota.TARGET_ONNX, ota.ed25519_signer(KEY), chunk=1024)
        d = ota.OtaDeployer(dep.ids(), [upd], h.next_seq, uid, version=version, deployment=dep.name)
        sent = d.start(h.now)
        h.send(sent)
        for _ in range(6):
            h.pump(d)
            sent += d.take()
        assert d.state == "done", d.failures
        return sent

    h = node()
    v1 = deploy(h, _image(new), uid=1, version=1)  # the captured update (OFFER2, DATA..., COMMIT)
    v2_hash = _hash(old["n0"])
    deploy(h, _image(old), uid=2, version=2)  # an explicit rollback is a newer manifest naming the old image
    assert h.engine.program_hash == v2_hash and FileSlots(tmp_path / "slots").accepted_version() == 2

    def replay(h: Harness, items: list[bytes]) -> list[int]:
        h.nacks.clear()
        for data in items:
            h.engine.deliver("_host", data)
        h.pump(rounds=4)
        assert h.engine.program_hash == v2_hash
        return [code for _, code, _ in h.nacks]

    offer_and_data = [o.data for o in v1 if wire.decode(o.data, max_payload=len(o.data)).edge != ota.COMMIT]
    commit = [o.data for o in v1 if wire.decode(o.data, max_payload=len(o.data)).edge == ota.COMMIT]
    # 1. fresh seqs
    assert replay(h, [_reseq(x, h.next_seq()) for x in offer_and_data + commit])[0] == ota.STALE_VERSION
    # 2. a rewritten update id (the version is still 1), then also a forged higher version
    assert replay(h, [_reseq(x, h.next_seq(), uid=77) for x in offer_and_data])[0] == ota.STALE_VERSION
    env = wire.decode(offer_and_data[0], max_payload=len(offer_and_data[0]))
    forged = ota.Offer.decode2(bytes(env.payload_bytes()))
    forged = ota.Offer(78, forged.size, forged.target, forged.sig_kind, forged.sha256, forged.signature, 99,
                       forged.deployment)
    first = wire.encode(wire.Envelope.for_bytes(forged.encode(), sender=0, receiver=1, seq=h.next_seq(),
                                                kind=wire.KIND_CONTROL, protocol=ota.PROTO_OTA, edge=ota.OFFER2),
                        max_payload=len(forged.encode()))
    assert replay(h, [first, *(_reseq(x, h.next_seq(), uid=78) for x in offer_and_data[1:])]) == \
        [ota.BAD_SIGNATURE]
    # 3. byte for byte, after a restart (a new engine: its duplicate window is empty)
    h2 = node()
    h2.engine.program_hash = v2_hash  # what it boots: the active slot (the version-2 program)
    assert replay(h2, offer_and_data + commit)[0] == ota.STALE_VERSION
    # another deployment's signed manifest is refused by name
    h3 = node()
    h3.handler.deployment = "other"
    h3.engine.program_hash = v2_hash
    assert replay(h3, [_reseq(x, h3.next_seq(), uid=79) for x in offer_and_data])[0] == ota.WRONG_DEPLOYMENT


def test_cli_deploys_under_traffic_never_mix_programs(models, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The issue's hand test, from the CLI, while a running host serves requests over Mosquitto: each run
    deploys a bad update (NaN weights on n1: it fails its health check at PREPARE), which exits 4 with the
    fleet on the program it ran, then a good one (old <-> new, alternately), which exits 0. Every output of
    the whole run must equal ORT of the old or of the new model (none mixes programs), every request is
    answered (0 lost), and the host connected once (never displaced). CI: 2 runs; BB_EDGE_LONG=1: 10."""
    import shutil
    import sys
    import threading

    from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint, spawn_node, stop_process
    from bb_edge.adapters.ops.broker import Broker, write_broker_files
    from bb_edge.deployment.manifest import load_deployment

    dirs = {k: tmp_path / k for k in ("old", "new", "bad")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile_model(models["old"], nodes=3, out_dir=dirs["old"])
        compile_model(models["new"], nodes=3, out_dir=dirs["new"])
        compile_model(models["new"], nodes=3, out_dir=dirs["bad"])
    onnx.save(_nan_program(onnx.load(dirs["bad"] / "n1.onnx")), dirs["bad"] / "n1.onnx")
    cli = [sys.executable, "-m", "bb_edge.cli"]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    out = subprocess.run([*cli, "keygen", "-o", str(tmp_path / "keys"), "--deployment", str(dirs["old"])],
                         capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    for k in ("new", "bad"):  # the same deployment (and ota key)
        shutil.copy(dirs["old"] / "deployment.json", dirs[k] / "deployment.json")
    dep = load_deployment(dirs["old"])
    files = write_broker_files(tmp_path / "broker", dep)
    broker = Broker(files).start()
    url = files.url()
    procs = [spawn_node(dirs["old"], n, url, extra=["--quiet", "--status-interval", "0"],
                        stdout=subprocess.DEVNULL) for n in dep.node_names]
    host = host_endpoint(dep, url)
    runs = int(os.environ.get("BB_EDGE_OTA_TRAFFIC_RUNS", "10" if os.environ.get("BB_EDGE_LONG") == "1" else "2"))
    x = _inputs(models["old"], 9)
    want = {k: monolithic(models[k], x)["y"] for k in ("old", "new")}
    assert not np.allclose(want["old"], want["new"], rtol=1e-3, atol=1e-4)
    answers: list[tuple[int, str]] = []  # (request id, "old" | "new" | "mixed" | "lost: ...")
    stop = threading.Event()
    try:
        host.wait_for_peers(dep.node_names, FLEET_TIMEOUT)

        def traffic() -> None:  # request ids only grow, as the host's clock-derived ones do
            rid = 1000
            while not stop.is_set():
                rid += 1
                host.submit(rid, x)
                try:
                    y = host.wait(rid, FLEET_TIMEOUT)["y"]
                except Exception as exc:  # noqa: BLE001 - a lost or failed request is counted, not raised
                    answers.append((rid, f"lost: {exc}"))
                    continue
                answers.append((rid, next((k for k, w in want.items()
                                           if np.allclose(y, w, rtol=1e-5, atol=1e-6)), "mixed")))

        worker = threading.Thread(target=traffic, daemon=True)
        worker.start()
        cur = "old"
        key = str(tmp_path / "keys" / "ota_ed25519.key")
        for run in range(runs):
            deploy = [*cli, "deploy", "--current", str(dirs[cur]), "--fleet", url, "--key", key, "--timeout", "30"]
            out = subprocess.run([*deploy, str(dirs["bad"])], capture_output=True, text=True, timeout=120, env=env)
            assert out.returncode == 4 and "n1: rolled_back" in out.stdout, (run, out.stdout, out.stderr)
            assert "did not answer" not in out.stdout and "switched to" not in out.stdout, out.stdout
            # one line per node not on the intended program, naming the program it serves
            assert "n1: not updated; serves " in out.stdout, out.stdout
            if cur == "new":  # the bad program differs from the running one in one tensor of n1: a delta ships it
                assert "n1: weights-only change, sent a " in out.stdout, out.stdout
            nxt = "new" if cur == "old" else "old"
            out = subprocess.run([*deploy, str(dirs[nxt])], capture_output=True, text=True, timeout=120, env=env)
            assert out.returncode == 0 and "deploy done" in out.stdout, (run, out.stdout, out.stderr)
            mark = len(answers)
            time.sleep(2.5)  # traffic on the new program; the nodes finish the switch at an idle point
            assert {a for _, a in answers[mark + 2:]} == {nxt}, answers[mark:]
            cur = nxt
        stop.set()
        worker.join(FLEET_TIMEOUT)
        assert not worker.is_alive()
        kinds = [a for _, a in answers]
        mixed, lost = kinds.count("mixed"), sum(a.startswith("lost") for a in kinds)
        print(f"{runs} bad + {runs} good deploys under traffic: {len(kinds)} requests, {mixed} mixed, {lost} lost")
        assert mixed == 0 and lost == 0 and kinds.count("old") and kinds.count("new"), \
            [a for a in answers if a[1] not in ("old", "new")][:5]
        log = (files.directory / "mosquitto.log").read_text()
        assert "_host already connected" not in log and log.count(" as _host ") == 1, log[-2000:]
        assert log.count(" as _deploy ") == 2 * runs, log[-2000:]
    finally:
        stop.set()
        for p in procs:
            stop_process(p)
        host.close()
        broker.stop()


def _reply(t: int, body: bytes) -> wire.Envelope:
    """A C node's OTA reply as the deployer receives it."""
    return wire.Envelope.for_bytes(body, sender=3, receiver=0, seq=1, kind=wire.KIND_CONTROL, protocol=ota.PROTO_OTA,
                                   edge=t)


def test_c_node_resumes_for_a_restarted_deployer(c_ota, bbrt_blobs) -> None:  # type: ignore[no-untyped-def]
    """A deployer cut off after half the chunks; a new one (new update id and version) offers the same image:
    the C node answers RESUME at the bytes it holds, the new deployer sends only the rest, READY. A stale offer
    of the same bytes in between is refused and leaves the transfer as it was; DATA at 0 starts over."""
    node = COta(c_ota, bbrt_blobs["old"])
    image = bbrt_blobs["new"]
    upd = ota.NodeUpdate(C_NODE, image, ota.TARGET_BBRT, ota.hmac_signer(HMAC_KEY), ota.SIG_HMAC_SHA256, 500)

    def deliver(d: ota.OtaDeployer, out: list[ota.Outgoing], keep: int | None = None) -> None:
        data = 0
        for o in out:
            env = wire.decode(o.data, max_payload=len(o.data))
            if env.edge == ota.DATA:
                data += 1
                if keep is not None and data > keep:
                    continue
            t, body = node.message(env.edge, bytes(env.payload_bytes()))
            if t:
                d.on_envelope(_reply(t, body))
                deliver(d, d.take(), keep)

    first = ota.OtaDeployer({C_NODE: 3, "_host": 0}, [upd], lambda: 1, 1, resume=True, version=1)
    deliver(first, first.start(0.0), keep=len(image) // 1000)
    held = len(image) // 1000 * 500
    assert first.resumed == {C_NODE: 0} and first.ready == set()
    stale = ota.OtaDeployer({C_NODE: 3, "_host": 0}, [upd], lambda: 1, 5, resume=True, version=0)
    env = wire.decode(stale.start(0.0)[0].data)
    t, body = node.message(env.edge, bytes(env.payload_bytes()))
    assert t == ota.NACK and ota.decode_nack(body)[:2] == (5, ota.STALE_VERSION)
    second = ota.OtaDeployer({C_NODE: 3, "_host": 0}, [upd], lambda: 1, 2, resume=True, version=2)
    deliver(second, second.start(0.0))
    assert second.resumed == {C_NODE: held} and second.streamed == {C_NODE: len(image) - held}
    assert second.ready == {C_NODE}
    # a deployer that does not wait for RESUME sends from byte 0: the transfer starts over and still verifies
    node = COta(c_ota, bbrt_blobs["old"])  # a fresh node (deliver() talks to whichever `node` is current)
    third = ota.OtaDeployer({C_NODE: 3, "_host": 0}, [upd], lambda: 1, 3, resume=True, version=3)
    deliver(third, third.start(0.0), keep=3)
    fourth = ota.OtaDeployer({C_NODE: 3, "_host": 0}, [upd], lambda: 1, 4, version=4)  # streams at once
    deliver(fourth, fourth.start(0.0))
    assert fourth.ready == {C_NODE}


def test_deployer_streams_everything_to_a_c_node_that_does_not_resume() -> None:
    """Older C firmware answers no RESUME: after retry_s the deployer sends every chunk from byte 0 (no new OFFER)."""
    upd = ota.NodeUpdate(C_NODE, bytes(2000), ota.TARGET_BBRT, ota.hmac_signer(HMAC_KEY), ota.SIG_HMAC_SHA256, 500)
    d = ota.OtaDeployer({C_NODE: 3, "_host": 0}, [upd], lambda: 1, 1, resume=True, retry_s=1.0)
    assert [wire.decode(o.data).edge for o in d.start(0.0)] == [ota.OFFER2]
    assert d.poll(0.5) == []
    offsets = [int.from_bytes(bytes(wire.decode(o.data).payload_bytes())[4:8], "little") for o in d.poll(1.0)]
    assert offsets == [0, 500, 1000, 1500] and d.awaiting == set()
