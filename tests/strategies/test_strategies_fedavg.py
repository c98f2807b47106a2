"""FedAvg on the engine: must-shows (Dirichlet digits, int8, churn) and bad input / faults."""

from __future__ import annotations

import numpy as np
import pytest

from bb_edge.adapters.learn.simulator import simulate
from bb_edge.engine import Engine
from bb_edge.learn.aggregators import Mean
from bb_edge.strategies import events as lev
from bb_edge.strategies.base import PROTO_FEDAVG_SERVER, Msg
from bb_edge.strategies.modules import module_for
from bb_edge.training.setup import build_setup
from bb_edge.wire import envelope as wire

BASE = {"strategy": "fedavg", "clients": 20, "rounds": 20, "epochs": 1, "batch_size": 8}


def test_fedavg_dirichlet_20_clients_reaches_093_within_30_rounds():
    res = simulate({**BASE, "rounds": 30, "epochs": 2,
                    "data": {"partition": {"type": "partition.dirichlet", "alpha": 0.5}}}, seed=0)
    accs = [r.accuracy for r in res.records]
    print("fedavg dirichlet accuracy per round", [round(a, 3) for a in accs])
    assert len(accs) == 30
    assert max(accs) >= 0.93 and accs[-1] >= 0.93, accs
    assert res.counts["RoundCompleted"] == 30 and not res.rejections


@pytest.fixture(scope="module")
def plain():
    return simulate(BASE, seed=0)


def test_int8_codec_bytes_and_accuracy(plain):
    q = simulate({**BASE, "codec": {"type": "codec.int8"}}, seed=0)
    ratio = plain.bytes_total / q.bytes_total
    print(f"int8: {ratio:.2f}x fewer bytes, accuracy {q.final_accuracy:.4f} vs {plain.final_accuracy:.4f}")
    assert ratio >= 3.5
    assert q.final_accuracy >= plain.final_accuracy - 0.01


def test_thirty_percent_churn_completes_within_two_points(plain):
    res = simulate({**BASE, "churn": {"leave": 0.3, "late_join": 0.1}}, seed=0, latency=0.02, jitter=0.01)
    print(f"churn: {res.final_accuracy:.4f} vs {plain.final_accuracy:.4f}; events {res.counts}")
    assert len(res.records) == 20 and len(res.departed) == 6 and len(res.joined) == 2
    assert res.counts["PeerSuspected"] == 6  # phi-accrual noticed every leaver
    assert res.counts["ModelFetched"] == 2  # late joiners took the current model first
    assert res.final_accuracy >= plain.final_accuracy - 0.02


def test_diloco_outer_momentum_learns():
    res = simulate({"strategy": "diloco", "clients": 8, "rounds": 10, "local_steps": 20, "batch_size": 16,
                    "optimizer": {"kind": "adam", "lr": 0.003}}, seed=0)
    assert res.final_accuracy >= 0.88, res.final_accuracy


# --------------------------------------------------------------- bad input


class Recorder(Mean):
    """Mean that remembers what it aggregated."""

    seen: list = []

    def aggregate(self, updates, weights=None):
        Recorder.seen.append([np.array(u) for u in updates])
        return super().aggregate(updates, weights)


def _fleet(clients: int, **cfg):
    setup = build_setup({"strategy": "fedavg", "clients": clients, "rounds": 1, "batch_size": 32, **cfg})
    mod = module_for(setup)
    engines = {}
    for name, nid in mod.nodes():
        e = Engine(name, nid, mod.peers_of(name))
        e.prepare_compute("train", setup.program.model) if name == "server" else None
        engines[name] = e
    for name, e in engines.items():
        e.attach_compute("train", engines["server"].compute_model("train"))
        mod.install(e, name)
    return mod, engines


def _pump(engines, now, skip=()):
    for name, e in list(engines.items()):
        if name in skip:
            continue
        for o in e.poll(now):
            targets = [n for n in engines if n != name] if o.peer == "*" else [o.peer]
            for t in targets:
                engines[t].deliver(name, o.data)


def _events(engines, kind):
    return [ev for e in engines.values() for ev in e.drain_events() if isinstance(ev, kind)]


def _bad(arr, sender, rnd, seq):
    return wire.encode(wire.Envelope.for_array(arr, sender=sender, receiver=1, seq=seq, request_id=rnd,
                                               edge=int(Msg.UPDATE), protocol=PROTO_FEDAVG_SERVER))


def test_bad_updates_are_rejected_with_typed_events_and_never_aggregated():
    mod, engines = _fleet(2)
    Recorder.seen = []
    engines["server"].bind("aggregator", Recorder())
    size = mod.setup.program.layout.size
    _pump(engines, 0.0)  # clients JOIN
    _pump(engines, 0.0, skip=("c0", "c1"))  # server registers both, opens round 1, sends MODEL
    srv = engines["server"]
    nan = np.zeros(size, np.float32)
    nan[3] = np.nan
    srv.deliver("c0", _bad(np.zeros(size - 1, np.float32), 2, 1, 10_001))  # wrong shape
    srv.deliver("c1", _bad(np.zeros(size, np.float64), 3, 1, 10_002))  # wrong dtype
    srv.deliver("c0", _bad(nan, 2, 1, 10_003))  # NaN
    srv.deliver("c1", _bad(np.full(size, np.inf, np.float32), 3, 1, 10_004))  # Inf
    srv.deliver("c0", _bad(np.zeros(size, np.float32), 99, 1, 10_005))  # unknown peer
    srv.deliver("c0", _bad(np.zeros(size, np.float32), 2, 7, 10_006))  # stale round
    for _ in range(3):
        _pump(engines, 0.0)
    rejected = _events(engines, lev.UpdateRejected)
    reasons = sorted(r.reason for r in rejected)
    assert reasons == ["non_finite", "non_finite", "stale_round", "unknown_peer", "wrong_dtype", "wrong_shape"]
    assert len(Recorder.seen) == 1 and len(Recorder.seen[0]) == 2  # only the two honest updates
    assert all(u.shape == (size,) and np.isfinite(u).all() for u in Recorder.seen[0])
    srv.deliver("c0", _bad(np.zeros(size, np.float32), 2, 1, 10_007))  # round 1 is closed now
    _pump(engines, 0.0)
    assert [r.reason for r in _events(engines, lev.UpdateRejected)] == ["stale_round"]


def test_duplicate_update_rejected():
    mod, engines = _fleet(2)
    size = mod.setup.program.layout.size
    _pump(engines, 0.0)
    _pump(engines, 0.0, skip=("c0", "c1"))
    srv = engines["server"]
    srv.deliver("c0", _bad(np.zeros(size, np.float32), 2, 1, 10_001))
    srv.deliver("c0", _bad(np.ones(size, np.float32), 2, 1, 10_002))
    _pump(engines, 0.0, skip=("c0", "c1"))
    assert [r.reason for r in _events(engines, lev.UpdateRejected)] == ["duplicate"]


def test_cohort_below_minimum_ends_with_an_event_instead_of_hanging():
    mod, engines = _fleet(2, min_clients=2, round_timeout=3.0, rounds=3)
    _pump(engines, 0.0)
    _pump(engines, 0.0, skip=("c0", "c1"))  # round 1 opens with both clients
    now = 0.0
    srv = next(h for h in engines["server"].protocols.values())
    while not srv.finished and now < 60:  # c1 left: only c0 is polled from now on
        now += 0.25
        _pump(engines, now, skip=("c1",))
    assert srv.finished, "the server hung"
    evs = [ev for e in engines.values() for ev in e.drain_events()]
    aborted = [e for e in evs if isinstance(e, lev.RoundAborted)]
    assert [a.round for a in aborted] == [1, 2, 3]
    assert "deadline passed with 1 of 2 updates" in aborted[0].reason
    assert "only 1 live clients" in aborted[2].reason  # by then phi-accrual suspects c1
    assert [e.peer for e in evs if isinstance(e, lev.PeerSuspected)] == [3]
    assert not any(isinstance(e, lev.RoundCompleted) for e in evs)


def _run_losing_first_update(reask: float):
    """3 clients, round 1; c1's first UPDATE is lost on the way. Returns (events, the lost update, aggregated)."""
    mod, engines = _fleet(3, round_timeout=4.0, reask=reask)
    Recorder.seen = []
    engines["server"].bind("aggregator", Recorder())
    srv = next(h for h in engines["server"].protocols.values())
    lost: list[np.ndarray] = []
    now, evs = 0.0, []
    while not srv.finished and now < 30:
        for name, e in list(engines.items()):
            for o in e.poll(now):
                env = wire.decode(o.data)
                if name == "c1" and env.edge == Msg.UPDATE and not lost:
                    lost.append(np.array(env.array()))  # dropped: a broker member died with it
                    continue
                for t in ([n for n in engines if n != name] if o.peer == "*" else [o.peer]):
                    engines[t].deliver(name, o.data)
        evs += [ev for e in engines.values() for ev in e.drain_events()]
        now += 0.25
    return evs, lost, Recorder.seen


def test_lost_update_is_reasked_and_the_round_keeps_its_cohort():
    """Half-way to the deadline the server sends round 1's MODEL again to the client it has no update from; the
    client trains again and its re-sent update is the lost one, bit for bit: the round aggregates all three.
    Without the re-ask (reask 0) the same loss shrinks the round to 2 of 3 at the deadline."""
    evs, lost, seen = _run_losing_first_update(reask=-1.0)
    assert len(lost) == 1
    asked = [e for e in evs if isinstance(e, lev.RoundReasked)]
    assert [(a.round, a.clients) for a in asked] == [(1, 1)]
    done = [e for e in evs if isinstance(e, lev.RoundCompleted)]
    assert [(d.accepted, d.cohort, d.partial) for d in done] == [(3, 3, False)]
    assert len(seen) == 1 and any(np.array_equal(u, lost[0]) for u in seen[0])
    assert not [e for e in evs if isinstance(e, lev.UpdateRejected)]
    evs, lost, seen = _run_losing_first_update(reask=0.0)
    assert len(lost) == 1 and not [e for e in evs if isinstance(e, lev.RoundReasked)]
    assert [(d.accepted, d.cohort) for d in evs if isinstance(d, lev.RoundCompleted)] == [(2, 3)]
