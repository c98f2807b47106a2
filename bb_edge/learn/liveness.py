"""Peer liveness by the phi-accrual failure detector (Hayashibara et al. 2004).

Pure: heartbeat arrival times and the current time are arguments (seconds,
any monotonic origin). ``phi(now)`` is ``-log10(P(a heartbeat arrives later
than now))`` under a normal model of the inter-arrival times (mean, std of a
sliding window, std floored at ``min_std``), with the logistic approximation
of the normal CDF used by Akka/Cassandra. A peer is suspected when
``phi >= threshold`` (8 ~ one false suspicion in 10^8 heartbeats).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from bb_edge.learn.roles import Component, ConfigError, register

__all__ = ["PhiAccrualDetector", "LivenessTable"]


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

    def heartbeat(self, peer: int, now: float) -> None:
        """Record a heartbeat of ``peer`` at ``now``."""
        self.detectors.setdefault(peer, self._new()).heartbeat(now)

    def phi(self, peer: int, now: float) -> float:
        """Suspicion level of ``peer`` (inf for a peer never heard from)."""
        d = self.detectors.get(peer)
        return math.inf if d is None else d.phi(now)

    def alive(self, now: float) -> list[int]:
        """Peers whose phi is below the threshold, sorted."""
        return sorted(p for p, d in self.detectors.items() if d.is_available(now))

    def suspected(self, now: float) -> list[int]:
        """Peers heard from before whose phi reached the threshold, sorted."""
        return sorted(p for p, d in self.detectors.items() if not d.is_available(now))

    def forget(self, peer: int) -> None:
        """Drop a peer's history (it left)."""
        self.detectors.pop(peer, None)

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
