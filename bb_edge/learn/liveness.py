"""Peer liveness by the phi-accrual failure detector (Hayashibara et al. 2004).

Pure: heartbeat arrival times and the current time are arguments (seconds,
any monotonic origin). ``phi(now)`` is ``-log10(P(a heartbeat arrives later
than now))`` under a normal model of the inter-arrival times (mean, std of a
sliding window, std floored at ``min_std``), with the logistic approximation
of the normal CDF used by Akka/Cassandra. A peer is suspected when
``phi >= threshold`` (8 ~ one false suspicion in 10^8 heartbeats).

Since phi grows with the time since the last heartbeat (the window's statistics fixed until the next one),
each detector has one instant from which it is suspected (:meth:`PhiAccrualDetector.suspected_from`).
:class:`LivenessTable` keeps those instants in a heap, so asking which peers are suspected costs the peers
that became suspected, not every peer: a FedAvg server asks at every poll, and at 1,000 clients a scan of
every detector per envelope was 95% of its receive path (issue 35).
"""

from __future__ import annotations

import functools
import heapq
import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from bb_edge.learn.roles import Component, ConfigError, register

__all__ = ["PhiAccrualDetector", "LivenessTable"]


@functools.lru_cache(maxsize=16)
def _crossing(threshold: float) -> float:
    """The ``y = (elapsed - mean) / std`` at which :func:`_phi` reaches ``threshold`` (-inf: at once).

    ``phi = threshold`` where ``e / (1 + e) = p = 10^-threshold``, i.e. ``y (1.5976 + 0.070566 y^2) =
    ln((1 - p) / p)``: a strictly increasing cubic, so one root, found by Newton's method.
    """
    p = 10.0 ** -threshold
    if p >= 1.0:
        return -math.inf
    target = math.log((1.0 - p) / p) if p > 0.0 else math.inf
    if not math.isfinite(target):
        return math.inf
    y = 0.0
    for _ in range(100):
        step = (y * (1.5976 + 0.070566 * y * y) - target) / (1.5976 + 3 * 0.070566 * y * y)
        y -= step
        if abs(step) < 1e-12 * (1.0 + abs(y)):
            break
    return y


def _phi(elapsed: float, mean: float, std: float) -> float:
    y = (elapsed - mean) / std
    e = math.exp(-y * (1.5976 + 0.070566 * y * y)) if y > -30 else math.inf
    if elapsed > mean:
        p_later = e / (1.0 + e)
    else:
        p_later = 1.0 - 1.0 / (1.0 + e) if math.isfinite(e) else 1.0
    if p_later <= 0.0:
        return math.inf
    return -math.log10(p_later)


@register
@dataclass
class PhiAccrualDetector(Component):
    """Phi-accrual detector for one peer."""

    type_id: ClassVar[str] = "liveness.phi"
    threshold: float = 8.0
    window: int = 100
    min_std: float = 0.05
    acceptable_pause: float = 0.0
    first_interval: float = 1.0
    last: float | None = field(default=None, init=False)
    intervals: list[float] = field(default_factory=list, init=False)

    def heartbeat(self, now: float) -> None:
        """Record a heartbeat (any message from the peer) received at ``now``."""
        if self.last is not None:
            if now < self.last:
                raise ConfigError(f"time went backwards: {now} < {self.last}")
            self.intervals.append(float(now - self.last))
            if len(self.intervals) > self.window:
                del self.intervals[: len(self.intervals) - self.window]
        else:  # bootstrap with a guess, as Akka does
            self.intervals = [self.first_interval, self.first_interval]
        self.last = float(now)
        self.__dict__["_beats"] = self.__dict__.get("_beats", 0) + 1

    def stats(self) -> tuple[float, float]:
        """Mean and (floored) standard deviation of the inter-arrival window."""
        # kept until the next heartbeat (or a restored window): a server asks every peer's phi at every tick.
        # Not a dataclass field, so never part of the component's state.
        key = (id(self.intervals), self.__dict__.get("_beats", 0))
        cached = self.__dict__.get("_stats")
        if cached is not None and cached[0] == key:
            return cached[1]  # type: ignore[no-any-return]
        arr = np.asarray(self.intervals or [self.first_interval], dtype=np.float64)
        out = (float(arr.mean()) + self.acceptable_pause, max(float(arr.std()), self.min_std))
        self.__dict__["_stats"] = (key, out)
        return out

    def set_state(self, meta: Any, arrays: Any) -> None:
        """Restore the window (and drop the kept statistics of the old one)."""
        super().set_state(meta, arrays)
        self.__dict__.pop("_stats", None)

    def phi(self, now: float) -> float:
        """Suspicion level at ``now`` (0 before the first heartbeat)."""
        if self.last is None:
            return 0.0
        mean, std = self.stats()
        return _phi(max(0.0, now - self.last), mean, std)

    def is_available(self, now: float) -> bool:
        """``phi(now) < threshold``."""
        return self.phi(now) < self.threshold

    def suspected_from(self) -> float:
        """The earliest time at which ``phi`` reaches the threshold until the next heartbeat (inf: never heard from).

        A hint, a hair early rather than late (callers confirm with :meth:`is_available`).
        """
        if self.last is None:
            return math.inf
        mean, std = self.stats()
        after = mean + _crossing(self.threshold) * std
        if after <= 0.0:
            return -math.inf  # phi reaches the threshold at no elapsed time: suspected at any time
        due = self.last + after
        return due - 1e-9 * (1.0 + abs(due))


@register
@dataclass
class LivenessTable(Component):
    """One :class:`PhiAccrualDetector` per peer id, created on the first heartbeat."""

    type_id: ClassVar[str] = "liveness.table"
    threshold: float = 8.0
    window: int = 100
    min_std: float = 0.05
    acceptable_pause: float = 0.0
    first_interval: float = 1.0
    detectors: dict[int, PhiAccrualDetector] = field(default_factory=dict, init=False)

    def _new(self) -> PhiAccrualDetector:
        return PhiAccrualDetector(self.threshold, self.window, self.min_std, self.acceptable_pause,
                                  self.first_interval)

    def _index(self) -> _SuspicionIndex:
        """The heap of suspicion instants, rebuilt when ``detectors`` was replaced (a restore) or is new."""
        idx: _SuspicionIndex | None = self.__dict__.get("_idx")
        if idx is None or idx.table is not self.detectors:
            idx = _SuspicionIndex(self.detectors)
            self.__dict__["_idx"] = idx
        return idx

    def heartbeat(self, peer: int, now: float) -> None:
        """Record a heartbeat of ``peer`` at ``now``."""
        d = self.detectors.get(peer)
        if d is None:
            d = self.detectors[peer] = self._new()
        d.heartbeat(now)
        self._index().beat(peer, d)

    def phi(self, peer: int, now: float) -> float:
        """Suspicion level of ``peer`` (inf for a peer never heard from)."""
        d = self.detectors.get(peer)
        return math.inf if d is None else d.phi(now)

    def alive(self, now: float) -> list[int]:
        """Peers whose phi is below the threshold, sorted."""
        return sorted(p for p, d in self.detectors.items() if d.is_available(now))

    def suspected(self, now: float) -> list[int]:
        """Peers heard from before whose phi reached the threshold, sorted (the same as testing every detector,
        at the cost of the suspected ones: heartbeats must come through :meth:`heartbeat`)."""
        return self._index().suspected(now)

    def forget(self, peer: int) -> None:
        """Drop a peer's history (it left)."""
        self.detectors.pop(peer, None)
        self._index().flagged.discard(peer)

    def get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """Per-peer last heartbeat and intervals."""
        meta = {str(p): {"last": d.last, "intervals": d.intervals} for p, d in self.detectors.items()}
        return {"peers": meta}, {}

    def set_state(self, meta: Any, arrays: Any) -> None:
        """Restore the per-peer detectors."""
        self.detectors = {}
        for p, st in meta.get("peers", {}).items():
            d = self._new()
            d.last, d.intervals = st["last"], list(st["intervals"])
            self.detectors[int(p)] = d


class _SuspicionIndex:
    """Each detector's suspicion instant in a heap (stale entries skipped by the heartbeat count they were made
    at), and the peers already found suspected since their last heartbeat."""

    def __init__(self, table: dict[int, PhiAccrualDetector]) -> None:
        self.table = table
        self.heap: list[tuple[float, int, int]] = []
        self.flagged: set[int] = set()
        self.asked = -math.inf  # the latest time asked: a flagged peer stays suspected until it beats again
        for peer, d in table.items():
            self.beat(peer, d)

    def beat(self, peer: int, d: PhiAccrualDetector) -> None:
        """``peer`` was heard from: its old instant is stale, its new one goes on the heap."""
        self.flagged.discard(peer)
        due = d.suspected_from()
        if due != math.inf:
            heapq.heappush(self.heap, (due, peer, d.__dict__.get("_beats", 0)))

    def suspected(self, now: float) -> list[int]:
        """Pop every instant due by ``now``; confirm each with the detector itself."""
        heap = self.heap
        if now < self.asked:  # asked about an earlier time: re-test the flagged peers (rare; tests)
            for p in [p for p in self.flagged if self.table[p].is_available(now)]:
                self.flagged.discard(p)
                self.beat(p, self.table[p])
        self.asked = now
        while heap and heap[0][0] <= now:
            due, peer, beats = heapq.heappop(heap)
            d = self.table.get(peer)
            if d is None or d.__dict__.get("_beats", 0) != beats or peer in self.flagged:
                continue  # forgotten, or a heartbeat came after this entry was made
            if d.is_available(now):  # the hint was a hair early
                heapq.heappush(heap, (max(due, now) + 1e-6, peer, beats))
                continue
            self.flagged.add(peer)
        return sorted(self.flagged)
