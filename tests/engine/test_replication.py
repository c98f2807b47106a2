"""A stateful stage's standby kept current by state deltas (bb_edge/engine/replication.py), against ORT."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from bb_edge.engine import events as ev
from bb_edge.engine.engine import CTRL_STATE_DELTA, Engine, Outbound
from bb_edge.wire import envelope as wire
from tests.support.stateful import history_cell, history_oracle, oracle, rnn_cell, xs

X_EDGE, Y_EDGE = 100, 101
PEERS = {"_host": 0, "n0": 1, "n0b": 2, "rogue": 3}
STATES = {"history": [("hist_next", "hist")], "rnn": [("h_next", "h")]}


def node(name: str, kind: str = "history") -> Engine:
    eng = Engine(name, PEERS[name], PEERS, outputs_to_host=True)
    eng.standby = {"n0": ["n0b"]}
    model: onnx.ModelProto = history_cell() if kind == "history" else rnn_cell()
    eng.install(model, name=name, input_edges={X_EDGE: "x"}, output_edges={"y": Y_EDGE}, state=STATES[kind])
    return eng


class Host:
    """The host's step envelopes, to whichever member serves the stage."""

    def __init__(self) -> None:
        self.seq = 0

    def step(self, to: Engine, x: np.ndarray, step: int, session: int = 5, rid: int | None = None) -> None:
        self.seq += 1
        env = wire.Envelope.for_array(x, sender=0, receiver=to.node_id, seq=self.seq,
                                      request_id=rid if rid is not None else 1000 + step, edge=X_EDGE)
        to.deliver("_host", wire.encode(env.in_session(session, step)))


def split(out: list[Outbound]) -> tuple[list[np.ndarray], list[bytes]]:
    """(outputs to the host, deltas to the standby) of one poll."""
    ys = [np.array(wire.decode(o.data).array()) for o in out if o.peer == "_host" and o.edge == Y_EDGE]
    deltas = [o.data for o in out if o.peer == "n0b" and o.edge == CTRL_STATE_DELTA]
    return ys, deltas


@pytest.mark.parametrize("kind", ["history", "rnn"])
def test_the_standby_takes_over_with_the_replicated_state_and_equals_ort(kind: str) -> None:
    primary, standby, host, steps = node("n0", kind), node("n0b", kind), Host(), xs(8)
    got = []
    for t in range(5):
        host.step(primary, steps[t], t)
        ys, deltas = split(primary.poll(float(t)))
        got += ys
        assert len(deltas) == 1  # one delta per step, queued before the output
        standby.deliver("n0", deltas[0])
        standby.poll(float(t))
    assert standby.counters["state_deltas_in"] == 5 and not [
        e for e in standby.drain_events() if isinstance(e, ev.StateDeltaRefused)]
    for t in range(5, 8):  # n0 is gone: the host sends the next steps to n0b
        host.step(standby, steps[t], t)
        got += split(standby.poll(10.0 + t))[0]
    want = oracle(steps) if kind == "rnn" else history_oracle(steps)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)


def test_a_growing_state_crosses_as_its_new_rows_only() -> None:
    primary, host, steps = node("n0"), Host(), xs(40)
    sizes = []
    for t in range(40):
        host.step(primary, steps[t], t)
        sizes.append(len(split(primary.poll(float(t)))[1][0]))
    assert max(sizes) - min(sizes) <= 8  # the same bytes at step 39 as at step 1: never the whole history


def test_a_retry_of_the_last_step_is_answered_from_the_replica() -> None:
    """The primary died after its delta and before its output: the standby answers the retried step."""
    primary, standby, host, steps = node("n0"), node("n0b"), Host(), xs(3)
    for t in range(2):
        host.step(primary, steps[t], t)
        ys, deltas = split(primary.poll(float(t)))
        standby.deliver("n0", deltas[0])
        standby.poll(float(t))
    host.step(standby, steps[1], 1, rid=1001)  # the step's retry (same request id) reaches the standby
    (y,) = split(standby.poll(5.0))[0]
    np.testing.assert_array_equal(y, ys[0])
    host.step(standby, steps[2], 2)
    np.testing.assert_array_equal(split(standby.poll(6.0))[0][0], history_oracle(steps)[2])


def test_forged_replayed_skipping_and_unknown_deltas_are_refused_and_change_nothing() -> None:
    primary, standby, host, steps = node("n0"), node("n0b"), Host(), xs(4)
    deltas = []
    for t in range(3):
        host.step(primary, steps[t], t)
        deltas += split(primary.poll(float(t)))[1]
    rogue = wire.decode(deltas[0])
    rogue.sender = 3  # a node outside the stage group
    standby.deliver("rogue", wire.encode(rogue))
    standby.deliver("n0", deltas[1])  # skips step 0: the session is not held
    standby.deliver("n0", deltas[0])
    standby.deliver("n0", deltas[0])  # replayed (the same envelope: a duplicate; a new seq: a replay)
    replay = wire.decode(deltas[0])
    replay.seq += 100
    standby.deliver("n0", wire.encode(replay))
    skip = wire.decode(deltas[2])  # step 2 while the next is 1
    standby.deliver("n0", wire.encode(skip))
    standby.poll(1.0)
    reasons = [e.reason for e in standby.drain_events() if isinstance(e, ev.StateDeltaRefused)]
    assert len(reasons) == 4, reasons
    assert "not a member" in reasons[0] and "skipping" in reasons[1] and "replayed" in reasons[2]
    assert "skipping" in reasons[3]
    live = standby.sessions.get((0, 5))
    assert live is not None and live.next_step == 1 and live.state["hist_next"].shape == (1, 3)


def test_a_member_that_comes_back_gets_a_full_copy_and_a_standby_never_serves_from_incomplete_state() -> None:
    primary, host, steps = node("n0"), Host(), xs(6)
    for t in range(4):
        host.step(primary, steps[t], t)
        primary.poll(float(t))
    fresh = node("n0b")  # the standby restarted empty (or from an old snapshot)
    primary.push_event(ev.PeerUp("n0b"))
    full = [o.data for o in primary.poll(5.0) if o.edge == CTRL_STATE_DELTA]
    assert len(full) == 1
    fresh.deliver("n0", full[0])
    fresh.poll(5.0)
    fresh.push_event(ev.PeerDown("n0", "killed"))
    fresh.poll(5.5)
    host.step(fresh, steps[5], 5)  # step 4 never reached the replica: refused, never a wrong output
    ys, _ = split(fresh.poll(6.0))
    assert ys == [] and any(isinstance(e, ev.SessionRefused) and "complete state" in e.reason
                            for e in fresh.drain_events())
    host.step(fresh, steps[4], 4)
    host.step(fresh, steps[5], 5)
    got = split(fresh.poll(7.0))[0]
    want = history_oracle(steps)
    np.testing.assert_array_equal(got[0], want[4])
    np.testing.assert_array_equal(got[1], want[5])
