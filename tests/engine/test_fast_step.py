"""The fast path of a plain session step (bb_edge/engine/fast_step.py) changes what the general path changes.

Oracle: the engine's general path. Two engines of the same decoder stage (a tiny random-weight llama split in
3, ONNX Runtime), one with ``fast_steps`` off, take the same envelopes; after every poll their outbound bytes,
events, counters, open requests and every session's step and state must be equal. The sequence has plain
steps (which take the fast path) and everything around them: a session's first step, a duplicate, a retry of
the last step, a step ahead of its turn, another client naming the session, a session evicted by the commit
of another's step, an explicit close and steps after it, a wrong shape, a backend error.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np
import pytest

from bb_edge.backends.ort import OrtBackend
from bb_edge.deployment.clients import owned_request_id
from bb_edge.deployment.manifest import load_deployment
from bb_edge.engine import Engine
from bb_edge.engine.fast_step import FastStep
from bb_edge.llm.fleet import compile_gguf
from bb_edge.llm.tiny import write_tiny_gguf
from bb_edge.wire import envelope as wire
from bb_edge.wire.dtypes import CODE_TO_NUMPY


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Any:
    work = tmp_path_factory.mktemp("fast")
    compile_gguf(write_tiny_gguf(work / "tiny.gguf"), work / "dep", nodes=3, context=32)
    return load_deployment(work / "dep")


def _norm(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return ("array", x.dtype.str, x.shape, x.tobytes())
    if isinstance(x, (list, tuple)):
        return tuple(_norm(v) for v in x)
    return x


def _event(e: Any) -> tuple[Any, ...]:
    return (type(e).__name__, *(_norm(getattr(e, f.name)) for f in fields(e)))


def _observed(eng: Engine, out: list[Any]) -> dict[str, Any]:
    sessions = {s.key: (s.next_step, s.nbytes, s.busy, s.last_request, sorted((k, _norm(v)) for k, v in
                                                                                s.state.items()),
                        _norm(s.last_outputs)) for s in eng.sessions}
    return {"out": [(o.peer, o.receiver, o.data, o.kind, o.edge, o.request_id, o.seq) for o in out],
            "events": [_event(e) for e in eng.drain_events()], "counters": dict(eng.counters),
            "requests": eng.open_requests, "held": eng.held_bytes, "sessions": sessions,
            "store": eng.sessions.nbytes, "seq": eng.seq}


class Flaky:
    """A prepared segment that fails on request ids in ``fail`` (a backend error mid-session)."""

    def __init__(self, inner: Any, fail: set[int]) -> None:
        self.inner, self.fail, self.rid = inner, fail, 0

    def run(self, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        if self.rid in self.fail:
            raise RuntimeError("backend lost its device")
        return self.inner.run(inputs)  # type: ignore[no-any-return]


@pytest.mark.parametrize("node", ["n1", "n2"])
def test_fast_and_general_paths_agree_on_every_step(deployment: Any, node: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    taken = [0]
    real = FastStep._fast_step

    def counted(eng: Engine, peer: str, payload: bytes) -> bool:
        done = real(eng, peer, payload)
        taken[0] += done
        return done

    monkeypatch.setattr(FastStep, "_fast_step", counted)
    engines = []
    for fast in (True, False):
        eng = Engine.for_node(deployment, node, backend=OrtBackend(intra_op_threads=1), outputs_to_host=True)
        eng.fast_steps = fast
        eng.set_boot_epoch(5)
        engines.append(eng)
    prog = engines[0].programs[node]
    assert prog.fast
    (edge, port), = prog.recv.items()
    producer = engines[0].peers[port.peer]
    flaky = [Flaky(e.programs[node].prepared[0], fail=set()) for e in engines]
    for e, f in zip(engines, flaky):
        e.programs[node].prepared[0] = f  # type: ignore[call-overload]
    rng = np.random.default_rng(1)
    dtype = CODE_TO_NUMPY[port.elem_type]
    seq = [7 << 32]
    now = [1.0]
    rid = [100]

    def send(session: int, step: int, owner: int = 0, shape: tuple[int, ...] | None = None,
             same: bytes | None = None, rid_of: int | None = None) -> bytes:
        if same is None:
            seq[0] += 1
            rid[0] += 1
            request = rid_of if rid_of is not None else owned_request_id(owner, rid[0]) if owner else rid[0]
            x = (rng.standard_normal(shape or tuple(1 if d < 0 else d for d in port.shape)) * 0.5).astype(dtype)
            env = wire.Envelope.for_array(x, sender=producer, receiver=engines[0].node_id, seq=seq[0],
                                          request_id=request, edge=edge)
            same = wire.encode(env.in_session(session, step))
        now[0] += 0.01
        seen = []
        for e, f in zip(engines, flaky):
            f.rid = wire.decode(same).request_id
            e.deliver(port.peer, same)
            seen.append(_observed(e, e.poll(now[0])))
        assert seen[0] == seen[1]
        return same

    for step in range(4):  # session 1: step 0 opens it (general), then plain steps
        last = send(1, step)
    send(1, 3, same=last)  # the same envelope again: a duplicate
    send(1, 3, rid_of=wire.decode(last).request_id)  # the last step retried (new seq): answered again
    send(1, 5)  # ahead of its turn: waits
    send(1, 4)  # its turn (a request is open: the general path), then step 5 runs
    send(1, 6)
    send(1, 6, owner=1)  # another client names session 1: not its session
    send(1, 7, shape=(1, port.shape[-1] + 1))  # the wrong shape: a contract violation
    for step in range(3):  # session 2, interleaved with session 1
        send(2, step)
        send(1, 7 + step)
    engines_budget = engines[0].sessions.nbytes
    for e in engines:  # the next commit of session 1 passes the budget: idle session 2 is evicted
        e.sessions.limits.state_budget = engines_budget + 1
    send(1, 10)
    send(2, 3)  # evicted
    for e in engines:
        e.sessions.limits.state_budget = 1 << 30
    flaky[0].fail.add(rid[0] + 1)
    flaky[1].fail.add(rid[0] + 1)
    send(1, 11)  # the backend fails: ComputeFailed, the state stays as it was
    send(1, 11)  # and the step runs when retried
    send(3, 0)
    send(3, 1)
    now[0] += 0.01
    seen = []
    for e in engines:
        e.close_session(3)
        seen.append(_observed(e, e.poll(now[0])))
    assert seen[0] == seen[1]
    send(3, 2)  # closed
    send(1, 12)
    assert taken[0] >= 12  # the plain steps did take the fast path
    assert engines[0].counters["requests_completed"] >= 15
