"""Validation of incoming model updates: typed results, never exceptions.

A client update is accepted only if it comes from a known peer, has the
expected dtype and shape, holds only finite values and (optionally) has an L2
norm within ``max_norm``; and only one update per peer and round is taken.
Anything else yields a :class:`Rejection` with a :class:`RejectReason`, and
the caller must keep it out of every aggregate.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

import numpy as np

__all__ = ["RejectReason", "Rejection", "Accepted", "UpdateValidator", "ValidationResult"]


class RejectReason(enum.Enum):
    """Why an update was refused."""

    UNKNOWN_PEER = "unknown_peer"
    WRONG_DTYPE = "wrong_dtype"
    WRONG_SHAPE = "wrong_shape"
    NON_FINITE = "non_finite"
    NORM_TOO_LARGE = "norm_too_large"
    DUPLICATE = "duplicate"
    STALE_ROUND = "stale_round"
    BLOCKED = "blocked"
    SHARING_MODE = "sharing_mode"
    BAD_SAMPLE_COUNT = "bad_sample_count"
    BAD_WEIGHT = "bad_weight"
    BAD_SHARE = "bad_share"  # a secure-aggregation key, share or reveal that fails its checks


@dataclass(frozen=True)
class Rejection:
    """A refused update: who sent it, why, and a human-readable detail."""

    sender: int
    reason: RejectReason
    detail: str

    @property
    def ok(self) -> bool:
        """Always False."""
        return False


@dataclass(frozen=True)
class Accepted:
    """An accepted update (a float32 1-D copy, safe to aggregate)."""

    sender: int
    update: np.ndarray = field(repr=False)

    @property
    def ok(self) -> bool:
        """Always True."""
        return True


ValidationResult = Accepted | Rejection


@dataclass
class UpdateValidator:
    """Checks updates against the expected layout and the set of known peers."""

    size: int
    known_peers: AbstractSet[int] = field(default_factory=set)  # only tested with `in` (a dict view will do)
    dtype: str = "float32"
    max_norm: float | None = None

    def check(self, sender: int, update: object, round: int | None = None,
              current_round: int | None = None) -> ValidationResult:
        """Validate one update; returns :class:`Accepted` or :class:`Rejection`."""
        if sender not in self.known_peers:
            return Rejection(sender, RejectReason.UNKNOWN_PEER, f"peer {sender} is not a known peer")
        if round is not None and current_round is not None and round != current_round:
            return Rejection(sender, RejectReason.STALE_ROUND,
                             f"update for round {round}, now {current_round}")
        if not isinstance(update, np.ndarray):
            return Rejection(sender, RejectReason.WRONG_DTYPE, f"update is a {type(update).__name__}")
        if update.dtype != np.dtype(self.dtype):
            return Rejection(sender, RejectReason.WRONG_DTYPE, f"dtype {update.dtype}, expected {self.dtype}")
        if update.shape != (self.size,):
            return Rejection(sender, RejectReason.WRONG_SHAPE,
                             f"shape {update.shape}, expected ({self.size},)")
        if not np.isfinite(update).all():
            bad = int((~np.isfinite(update)).sum())
            return Rejection(sender, RejectReason.NON_FINITE, f"{bad} non-finite values")
        if self.max_norm is not None:
            norm = float(np.linalg.norm(update.astype(np.float64)))
            if norm > self.max_norm:
                return Rejection(sender, RejectReason.NORM_TOO_LARGE, f"L2 norm {norm:.4g} > {self.max_norm}")
        return Accepted(sender, np.array(update, dtype=np.float32))

    def check_all(
        self, updates: Iterable[tuple[int, object]] | Mapping[int, object]
    ) -> tuple[list[Accepted], list[Rejection]]:
        """Validate a round's updates; a second update from the same peer is a DUPLICATE."""
        items = updates.items() if isinstance(updates, Mapping) else updates
        accepted: list[Accepted] = []
        rejected: list[Rejection] = []
        seen: set[int] = set()
        for sender, upd in items:
            if sender in seen:
                rejected.append(Rejection(sender, RejectReason.DUPLICATE, "second update in this round"))
                continue
            res = self.check(sender, upd)
            if isinstance(res, Accepted):
                seen.add(sender)
                accepted.append(res)
            else:
                rejected.append(res)
        return accepted, rejected
