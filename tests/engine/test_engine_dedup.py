"""The duplicate filter (bb_edge/engine/dedup.py) against a naive model of docs/wire.md's rules."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bb_edge.engine.dedup import DUPLICATE, FRESH, STALE_EPOCH, SeqFilter


class Naive:
    """The rules written out with unbounded sets: the oracle (no ring, no bitmap)."""

    def __init__(self, window: int, epochs: int) -> None:
        self.window, self.epochs = window, epochs
        self.wins: dict[int, tuple[int, set[int]]] = {}
        self.probation: int | None = None  # the one epoch held by a jump (docs/wire.md)

    def check(self, seq: int) -> str:
        epoch, n = seq >> 32, seq & 0xFFFFFFFF
        if epoch not in self.wins:
            return STALE_EPOCH if self.wins and epoch < min(self.wins) else FRESH
        top, seen = self.wins[epoch]
        if n > top:
            return FRESH
        return DUPLICATE if top - n > self.window or n in seen else FRESH

    def record(self, seq: int) -> None:
        epoch, n = seq >> 32, seq & 0xFFFFFFFF
        if epoch not in self.wins:
            regular = [e for e in self.wins if e != self.probation]
            if regular and epoch > max(regular) + 1:  # a jump: it replaces the probation epoch
                if self.probation is not None:
                    del self.wins[self.probation]
                self.probation = epoch
        top, seen = self.wins.get(epoch, (n, set()))
        seen.add(n)
        self.wins[epoch] = (max(top, n), seen)
        while len(self.wins) > self.epochs:
            lo = min(self.wins)
            del self.wins[lo]
            if lo == self.probation:
                self.probation = None


@settings(max_examples=300, deadline=None)
@given(window=st.sampled_from([1, 2, 7, 8, 9, 64, 100]), epochs=st.integers(1, 4),
       steps=st.lists(st.tuples(st.sampled_from([0, 1, 2, 3, 4, 5, 9, 2**31, 2**31 + 1, 2**32 - 1]),
                                st.integers(-3, 250), st.booleans()), max_size=300))
def test_filter_matches_the_naive_rules(window: int, epochs: int, steps: list[tuple[int, int, bool]]) -> None:
    f, ref = SeqFilter(window, epochs), Naive(window, epochs)
    cursor = 1
    for epoch, delta, snapshot in steps:
        cursor = max(0, cursor + delta) if delta > 0 else cursor
        n = max(0, cursor + delta) if delta <= 0 else cursor
        seq = (epoch << 32) | n
        got = f.check(1, seq)
        assert got == ref.check(seq), (epoch, n)
        if got == FRESH:
            f.record(1, seq)
            ref.record(seq)
        if snapshot:  # state survives a JSON round trip exactly
            g = SeqFilter(window, epochs)
            g.load_json(f.to_json())
            assert g.to_json() == f.to_json()
            f = g


def test_wide_windows_stay_cheap_and_senders_are_bounded() -> None:
    f = SeqFilter(window=1 << 16, epochs=2, max_senders=3)
    for n in range(1, 20001):
        assert f.check(7, (9 << 32) | n) == FRESH
        f.record(7, (9 << 32) | n)
    assert f.check(7, (9 << 32) | 1) == DUPLICATE and f.check(7, (9 << 32) | 20001) == FRESH
    for s in range(100):
        f.record(1000 + s, 1)
    assert len(f.to_json()) == 3  # the least recently heard senders are forgotten


def test_a_window_costs_what_its_sender_sent_not_the_window_width() -> None:
    """A server keeps one window per client of a large fleet: a few envelopes cost bytes, not window / 8.

    Oracle: tracemalloc's count of what 20,000 senders' windows hold at the engine's default width
    (2^16, i.e. 8 KiB per sender if the ring were allocated whole).
    """
    import tracemalloc

    from bb_edge.engine import Limits

    senders = 20_000
    tracemalloc.start()
    try:
        f = SeqFilter(Limits.dedup_window, Limits.dedup_epochs, max_senders=senders)
        for s in range(senders):
            for n in range(1, 9):  # JOIN, heartbeats, updates of a few rounds
                f.record(s, n)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert held / senders < 1024, held / senders
    assert all(f.check(s, n) == DUPLICATE for s in (0, senders - 1) for n in range(1, 9))
    assert f.check(0, 9) == FRESH
    # a sender that jumps by more than the window drops the old slots (no growth past window / 8 either)
    f.record(0, 9 + (1 << 16))
    assert f.check(0, 8) == DUPLICATE and f.check(0, 9) == FRESH and f.check(0, 10 + (1 << 16)) == FRESH


def test_a_learning_server_of_5000_clients_still_knows_the_first_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Past the engine's default 4,096 senders: a replayed JOIN of the first client is a duplicate.

    The engine is the learning server exactly as ``bb-edge run``/``bb-edge node`` build it
    (adapters/learn_node.build_engine), fed real encoded JOIN envelopes from 5,000 client ids.
    """
    import numpy as np

    from bb_edge.adapters.learn.node import build_engine, load_module, prepare_programs
    from bb_edge.backends.base import get_backend
    from bb_edge.engine import events
    from bb_edge.strategies.base import Msg
    from bb_edge.wire.envelope import Envelope, encode

    n = 5000
    rng = np.random.default_rng(0)
    np.savez(tmp_path / "d.npz", x=rng.random((n, 64), dtype=np.float32), y=rng.integers(0, 10, n),
             x_test=rng.random((10, 64), dtype=np.float32), y_test=rng.integers(0, 10, 10))
    module = load_module({"strategy": "fedavg", "clients": n, "rounds": 1,
                          "data": {"source": str(tmp_path / "d.npz"), "partition": {"type": "partition.iid"}}},
                         None, seed=0)
    backend = get_backend("ort")
    server = build_engine(module, "server", prepare_programs(module, backend), backend)
    (proto,) = server.protocols
    ids = module.roster().ids

    def join(name: str) -> bytes:
        return encode(Envelope.for_array(np.array([1], np.int64), sender=ids[name], receiver=ids["server"], seq=1,
                                         protocol=proto, edge=int(Msg.JOIN)))

    first = join("c0")
    server.deliver("c0", first)
    for i in range(1, n):
        server.deliver(f"c{i}", join(f"c{i}"))
    server.poll(0.0)
    assert not [e for e in server.drain_events() if isinstance(e, events.DuplicateDropped)]
    server.deliver("c0", first)  # the same bytes again, after 4,999 other senders
    server.poll(0.1)
    dups = [e for e in server.drain_events() if isinstance(e, events.DuplicateDropped)]
    assert len(dups) == 1 and dups[0].sender == ids["c0"]


def test_far_future_epochs_cannot_fill_the_window() -> None:
    """Issue 25: four distinct far-future epochs (2**31 ... 2**31+3) took all 4 windows, so the sender's real
    epoch was StaleEpoch from then on (0/4), also after it restarted (0/3)."""
    f = SeqFilter(window=64, epochs=4)
    f.record(1, (5 << 32) | 1)
    for k in range(4):
        seq = ((2**31 + k) << 32) | 1
        assert f.check(1, seq) == FRESH
        f.record(1, seq)
    for n in range(2, 6):  # the real epoch keeps working
        assert f.check(1, (5 << 32) | n) == FRESH
        f.record(1, (5 << 32) | n)
    assert f.check(1, (5 << 32) | 3) == DUPLICATE  # and keeps its duplicate window
    for n in range(1, 4):  # and so does its next boot (adjacent epoch, a regular window)
        assert f.check(1, (6 << 32) | n) == FRESH
        f.record(1, (6 << 32) | n)
    assert sum(1 for w in f.to_json()["1"].values() if len(w) > 2) == 1  # one probation window in all
