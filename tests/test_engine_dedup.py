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
        top, seen = self.wins.get(epoch, (n, set()))
        seen.add(n)
        self.wins[epoch] = (max(top, n), seen)
        while len(self.wins) > self.epochs:
            del self.wins[min(self.wins)]


@settings(max_examples=300, deadline=None)
@given(window=st.sampled_from([1, 2, 7, 8, 9, 64, 100]), epochs=st.integers(1, 4),
       steps=st.lists(st.tuples(st.integers(0, 5), st.integers(-3, 250), st.booleans()), max_size=300))
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
