"""Sessions and per-session state on one engine (docs/wire.md "Sessions"), against ORT looping by hand."""

from __future__ import annotations

import numpy as np
from onnx import helper

from bb_edge.deployment.clients import client_id, owned_request_id
from bb_edge.engine import events as ev
from bb_edge.engine.engine import CTRL_SESSION_CLOSE, Engine, Limits
from bb_edge.wire import envelope as wire
from tests.support.stateful import oracle, rnn_cell, xs

X_EDGE, Y_EDGE = 100, 101


def engine(**limits: int) -> Engine:
    peers = {"n0": 1, "_host": 0, "_client1": client_id(1), "_client2": client_id(2)}
    eng = Engine("n0", 1, peers, outputs_to_host=True, limits=Limits(**limits))
    eng.install(rnn_cell(), name="n0", input_edges={X_EDGE: "x"}, output_edges={"y": Y_EDGE},
                state=[("h_next", "h")])
    return eng


class Sender:
    """Envelopes of one identity (the host, or a client) with its own seq series."""

    def __init__(self, slot: int = 0) -> None:
        self.slot, self.id, self.seq, self.n = slot, (0 if slot == 0 else client_id(slot)), 0, 0

    def step(self, x: np.ndarray, session: int | None, step: int = 0, rid: int | None = None) -> bytes:
        self.seq += 1
        self.n += 1
        rid = rid if rid is not None else (self.n if self.slot == 0 else owned_request_id(self.slot, self.n))
        env = wire.Envelope.for_array(x, sender=self.id, receiver=1, seq=self.seq, request_id=rid, edge=X_EDGE)
        if session is not None:
            env.in_session(session, step)
        return wire.encode(env)

    def close(self, session: int) -> bytes:
        self.seq += 1
        self.n += 1
        rid = self.n if self.slot == 0 else owned_request_id(self.slot, self.n)
        env = wire.Envelope.for_bytes(b"", sender=self.id, receiver=1, seq=self.seq, edge=CTRL_SESSION_CLOSE,
                                      request_id=rid)
        return wire.encode(env.in_session(session, 0))


def outputs(eng: Engine, now: float = 0.0) -> list[wire.Envelope]:
    return [wire.decode(o.data) for o in eng.poll(now) if o.kind == wire.KIND_DATA]


def test_a_session_keeps_its_state_and_equals_ort_looping_by_hand() -> None:
    eng, host, steps = engine(), Sender(), xs(6)
    got = []
    for t, x in enumerate(steps):
        eng.deliver("_host", host.step(x, session=7, step=t))
        (env,) = outputs(eng)
        assert env.session == 7 and env.step == t and env.edge == Y_EDGE  # the answer names its step
        got.append(np.array(env.array()))
    for a, b in zip(got, oracle(steps)):
        np.testing.assert_array_equal(a, b)
    assert len(eng.sessions) == 1 and eng.sessions.nbytes == 16  # one [1, 4] float32 state, never on the wire


def test_sessions_are_apart_and_steps_that_arrive_early_wait_their_turn() -> None:
    eng, host, a, b = engine(), Sender(), xs(4, 1), xs(4, 2)
    eng.deliver("_host", host.step(a[0], 1, 0))
    eng.deliver("_host", host.step(b[0], 2, 0))
    eng.deliver("_host", host.step(a[2], 1, 2))  # before step 1: held
    eng.deliver("_host", host.step(a[1], 1, 1))
    eng.deliver("_host", host.step(b[1], 2, 1))
    eng.deliver("_host", host.step(a[3], 1, 3))
    eng.deliver("_host", host.step(b[2], 2, 2))
    eng.deliver("_host", host.step(b[3], 2, 3))
    got: dict[tuple[int, int], np.ndarray] = {}
    for _ in range(3):
        for env in outputs(eng):
            got[(env.session, env.step)] = np.array(env.array())
    assert sorted(got) == [(s, t) for s in (1, 2) for t in range(4)]
    for sid, seq in ((1, a), (2, b)):
        for t, want in enumerate(oracle(seq)):
            np.testing.assert_array_equal(got[(sid, t)], want)


def test_another_identity_cannot_continue_or_close_a_session() -> None:
    eng, c1, c2, x = engine(), Sender(1), Sender(2), xs(3)
    eng.deliver("_client1", c1.step(x[0], 5, 0))
    assert len(outputs(eng)) == 1
    # client 2 names client 1's request id: refused as a graph input it does not own
    eng.deliver("_client2", c2.step(x[1], 5, 1, rid=owned_request_id(1, 99)))
    # client 2's own session 5 is another session: its step 1 is refused (never opened), state untouched
    eng.deliver("_client2", c2.step(x[1], 5, 1))
    eng.deliver("_client2", c2.close(5))
    assert outputs(eng) == []
    kinds = [type(e) for e in eng.drain_events()]
    assert ev.Unauthorised in kinds and ev.SessionRefused in kinds and ev.SessionEnded not in kinds
    eng.deliver("_client1", c1.step(x[1], 5, 1))
    (env,) = outputs(eng)
    np.testing.assert_array_equal(np.array(env.array()), oracle(x[:2])[1])


def test_lru_eviction_ends_the_session_with_a_typed_event_and_tells_its_owner() -> None:
    eng, host, x = engine(max_sessions=2), Sender(), xs(2)
    sent = []
    for sid in (1, 2, 3):
        eng.deliver("_host", host.step(x[0], sid, 0))
        sent += [wire.decode(o.data) for o in eng.poll(float(sid))]
    ended = [e for e in eng.drain_events() if isinstance(e, ev.SessionEnded)]
    assert [(e.session, e.steps) for e in ended] == [(1, 1)] and "evicted" in ended[0].reason
    told = [bytes(e.data).decode() for e in sent if e.flags & wire.FLAG_ERROR]
    assert len(told) == 1 and told[0].startswith("SessionEnded: session 1 at n0: evicted")
    eng.deliver("_host", host.step(x[1], 1, 1))  # continued after eviction: refused, never a fresh state
    (err,) = [wire.decode(o.data) for o in eng.poll(4.0)]
    assert err.flags & wire.FLAG_ERROR and "SessionRefused" in bytes(err.data).decode()
    refused = [e for e in eng.drain_events() if isinstance(e, ev.SessionRefused)]
    assert len(refused) == 1 and "evicted" in refused[0].reason


def test_idle_sessions_end_and_a_close_ends_one_at_once() -> None:
    eng, host, x = engine(session_idle_s=10), Sender(), xs(2)
    eng.deliver("_host", host.step(x[0], 1, 0))
    eng.deliver("_host", host.step(x[0], 2, 0))
    eng.poll(0.0)
    eng.deliver("_host", host.close(2))
    eng.poll(1.0)
    assert [e.reason for e in eng.drain_events() if isinstance(e, ev.SessionEnded)] == ["closed by its owner"]
    eng.poll(11.5)
    assert [e.reason for e in eng.drain_events() if isinstance(e, ev.SessionEnded)] == ["idle for more than 10 s"]
    assert len(eng.sessions) == 0 and eng.sessions.nbytes == 0


def test_a_snapshot_mid_session_restores_the_state() -> None:
    eng, host, x = engine(), Sender(), xs(5)
    for t in range(3):
        eng.deliver("_host", host.step(x[t], 9, t))
        outputs(eng)
    blob = eng.snapshot()
    fresh = engine()
    fresh.restore(blob)
    got = []
    for t in (3, 4):
        fresh.deliver("_host", host.step(x[t], 9, t))
        got += [np.array(e.array()) for e in outputs(fresh)]
    want = oracle(x)
    np.testing.assert_array_equal(got[0], want[3])
    np.testing.assert_array_equal(got[1], want[4])


def test_a_stateful_program_refuses_requests_outside_a_session_and_stale_steps() -> None:
    eng, host, x = engine(), Sender(), xs(2)
    eng.deliver("_host", host.step(x[0], None))
    eng.deliver("_host", host.step(x[0], 3, 0))
    eng.deliver("_host", host.step(x[1], 3, 0))  # step 0 again, another request: the session is open
    assert len(outputs(eng)) == 1
    reasons = [e.reason for e in eng.drain_events() if isinstance(e, ev.SessionRefused)]
    assert len(reasons) == 2 and "keeps state" in reasons[0] and "done or running" in reasons[1]


def test_a_state_whose_static_shape_changes_ends_the_session() -> None:
    m = rnn_cell()
    m.graph.node[3].op_type = "Concat"  # h' = concat(pre, pre) on axis 1: [1, 8], but h takes [1, 4]
    m.graph.node[3].input.append("pre")
    m.graph.node[3].attribute.append(helper.make_attribute("axis", 1))
    m.graph.node[4].input[0] = "pre"
    m.graph.output[1].type.tensor_type.shape.dim[1].dim_value = 8
    eng = Engine("n0", 1, {"n0": 1, "_host": 0}, outputs_to_host=True)
    eng.install(m, name="n0", input_edges={X_EDGE: "x"}, output_edges={"y": Y_EDGE}, state=[("h_next", "h")])
    host, x = Sender(), xs(2)
    eng.deliver("_host", host.step(x[0], 4, 0))
    outputs(eng)
    ended = [e for e in eng.drain_events() if isinstance(e, ev.SessionEnded)]
    assert len(ended) == 1 and "[1, 8]" in ended[0].reason and len(eng.sessions) == 0
