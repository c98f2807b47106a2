"""Aggregators (plain, server-optimizer, robust) and pre-aggregators.

Every class is a registered :class:`~bb_edge.learn.roles.Component`
implementing :class:`~bb_edge.learn.roles.Aggregator` or
:class:`~bb_edge.learn.roles.PreAggregator`. ``f`` is always the number of
Byzantine updates the rule must tolerate; a rule whose bound does not hold
raises :class:`~bb_edge.learn.roles.RobustnessBoundError`.

Definitions (``x_1..x_n`` updates, per coordinate where noted):

* ``mean``: weighted average (FedAvg).
* ``median``: coordinate-wise median.
* ``trimmed_mean(f)``: per coordinate drop the f largest and f smallest, average the rest (n > 2f).
* ``mean_around_median(f)`` (Mean-of-Medians, Xie et al. 2018 "MeaMed"): per coordinate
  average the n-f values closest to the median.
* ``krum(f)``: the x_i minimising the sum of squared distances to its n-f-2 nearest others
  (n > 2f+2); ``multi_krum(f, m)`` averages the m best-scored (default n-f).
* ``geometric_median``: smoothed Weiszfeld iterations (weighted).
* ``bulyan(f)``: iteratively select theta = n-2f updates with Krum, then per coordinate
  average the beta = theta-2f values closest to the median (n >= 4f+3).
* ``centered_clipping(tau, iters)``: v <- v + mean_i clip_tau(x_i - v), started from the
  previous round's result (state).
* server optimizers ``fedavgm``, ``fedadam``, ``fedyogi`` (Reddi et al. 2021): apply
  momentum / adaptive steps to the base rule's aggregate (the pseudo-gradient).
* ``mda(f)``: mean of the (n-f)-subset of smallest diameter (exact search).
* ``monna(f, reference)``: mean of the n-f updates nearest the trusted ``updates[reference]``.
* ``smea(f)``: mean of the (n-f)-subset whose covariance has the smallest top eigenvalue.
* ``cge(f)``: mean of the n-f smallest-norm updates.
* ``caf(f)``: covariance-bound agnostic filter (soft down-weighting along the top eigenvector).
* pre-aggregators ``bucketing(s)``, ``norm_clipping(tau)``, ``nnm(f)``, ``arc(f)``; ``pipeline``
  chains pre-aggregators and a rule.

Each of these matches ByzPy 0.1.4 on the same inputs and parameters
(tests/learn/test_learn_byzpy_parity.py; conventions that differ are parameters:
Krum's ``neighbours="byzpy"``, ALIE's ``direction=1``).

Why one file: a registry of small, independent rules (most under 40 lines) that share the distance,
Krum-score and median helpers at the top. One file per rule would scatter those helpers.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from bb_edge.learn.roles import (
    Component,
    ConfigError,
    RobustnessBoundError,
    as_matrix,
    normalize_weights,
    register,
)

__all__ = [
    "Mean", "Median", "TrimmedMean", "MeanAroundMedian", "Krum", "MultiKrum", "GeometricMedian",
    "Bulyan", "CenteredClipping", "FedAvgM", "FedAdam", "FedYogi", "Bucketing", "NormClipping",
    "NearestNeighborMixing", "Pipeline", "pairwise_sq_distances", "krum_scores",
    "MinimumDiameterAveraging", "MoNNA", "SMEA", "ComparativeGradientElimination", "CAF", "ARC",
]


def pairwise_sq_distances(mat: np.ndarray) -> np.ndarray:
    """Squared Euclidean distances between the rows of ``mat`` (float64, exact zeros on the diagonal)."""
    m = mat.astype(np.float64, copy=False)
    sq = np.einsum("ij,ij->i", m, m)
    d = sq[:, None] + sq[None, :] - 2.0 * (m @ m.T)
    np.maximum(d, 0.0, out=d)
    np.fill_diagonal(d, 0.0)
    return d


def krum_scores(dist: np.ndarray, f: int, neighbours: int | None = None) -> np.ndarray:
    """Krum score of each row: sum of its ``neighbours`` (default n-f-2) smallest distances to the other rows."""
    n = dist.shape[0]
    k = n - f - 2 if neighbours is None else neighbours
    if k < 1 or k > n - 1:
        raise RobustnessBoundError("Krum", n, f, "n > 2f + 2")
    # partition, not a full sort: only the k smallest of each row are summed
    masked = dist + np.diag(np.full(n, np.inf))
    others = np.partition(masked, k - 1, axis=1)[:, :k]
    return np.asarray(others.sum(axis=1))


def _krum_neighbours(n: int, f: int, convention: str) -> int:
    """Neighbours summed in a Krum score: ``"paper"`` n-f-2 (Blanchard et al.), ``"byzpy"`` n-f-1."""
    if convention == "paper":
        return n - f - 2
    if convention == "byzpy":
        return n - f - 1
    raise ConfigError(f"Krum neighbours must be 'paper' (n-f-2) or 'byzpy' (n-f-1), got {convention!r}")


def _sorted_columns(mat: np.ndarray) -> np.ndarray:
    """``(d, n)`` array whose row j holds coordinate j of every update, sorted.

    A contiguous transpose then a row sort is several times faster than
    sorting or partitioning along axis 0 (numpy's vectorised sort needs
    contiguous rows).
    """
    mt = np.ascontiguousarray(mat.T)
    mt.sort(axis=1)
    return mt


def _median(mat: np.ndarray) -> np.ndarray:
    st = _sorted_columns(mat)
    n = mat.shape[0]
    if n % 2:
        return np.asarray(st[:, n // 2])
    return np.asarray((st[:, n // 2 - 1].astype(np.float64) + st[:, n // 2]) / 2.0)


def _closest_to_median_mean(mat: np.ndarray, keep: int) -> np.ndarray:
    med = _median(mat)
    idx = np.argsort(np.abs(mat - med), axis=0, kind="stable")[:keep]
    return np.asarray(np.take_along_axis(mat, idx, axis=0).mean(axis=0))


def _mean_of_smallest(mat: np.ndarray, scores: np.ndarray, keep: int) -> tuple[np.ndarray, list[int]]:
    """Mean of the ``keep`` rows with the smallest ``scores`` (ties: lower index first) and their sorted indices."""
    sel = np.argsort(scores, kind="stable")[:keep]
    return np.asarray(mat[sel].mean(axis=0)), sorted(int(i) for i in sel)


def _passthrough_weights(weights: Sequence[float] | None, n: int) -> list[float]:
    """A pre-aggregator's output weights when it keeps one update per input: the inputs' (1.0 each if none)."""
    return [1.0] * n if weights is None else [float(x) for x in weights]


def _scale_rows(mat: np.ndarray, scale: np.ndarray) -> list[np.ndarray]:
    """Each row of ``mat`` times its factor in ``scale``, in ``mat``'s dtype (the clipping pre-aggregators)."""
    return [np.asarray((u * s).astype(mat.dtype)) for u, s in zip(mat, scale, strict=True)]


@register
@dataclass
class Mean(Component):
    """Weighted average (FedAvg's rule)."""

    type_id: ClassVar[str] = "mean"

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Weighted mean of the updates."""
        mat = as_matrix(updates)
        w = normalize_weights(weights, len(mat))
        return np.asarray((w @ mat).astype(mat.dtype))


@register
@dataclass
class Median(Component):
    """Coordinate-wise median (weights ignored)."""

    type_id: ClassVar[str] = "median"

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Coordinate-wise median of the updates."""
        mat = as_matrix(updates)
        return _median(mat).astype(mat.dtype)


@register
@dataclass
class TrimmedMean(Component):
    """Coordinate-wise mean after dropping the ``f`` largest and ``f`` smallest values."""

    type_id: ClassVar[str] = "trimmed_mean"
    f: int = 1

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Trimmed mean (weights ignored); needs n > 2f."""
        mat = as_matrix(updates)
        n, f = len(mat), self.f
        if n <= 2 * f:
            raise RobustnessBoundError("TrimmedMean", n, f, "n > 2f")
        if f == 0:
            return np.asarray(mat.mean(axis=0))
        st = _sorted_columns(mat)
        return np.asarray(st[:, f:n - f].mean(axis=1, dtype=np.float64).astype(mat.dtype))


@register
@dataclass
class MeanAroundMedian(Component):
    """Mean-of-Medians / MeaMed: per coordinate, mean of the n-f values closest to the median."""

    type_id: ClassVar[str] = "mean_around_median"
    f: int = 1

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Mean around the median (weights ignored); needs n > 2f."""
        mat = as_matrix(updates)
        if len(mat) <= 2 * self.f:
            raise RobustnessBoundError("MeanAroundMedian", len(mat), self.f, "n > 2f")
        return _closest_to_median_mean(mat, len(mat) - self.f).astype(mat.dtype)


@register
@dataclass
class Krum(Component):
    """Krum (Blanchard et al. 2017): the update with the smallest Krum score."""

    type_id: ClassVar[str] = "krum"
    f: int = 1
    neighbours: str = "paper"
    last_selected: list[int] = field(default_factory=list, init=False)

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Select one update; ``last_selected`` records its index."""
        mat = as_matrix(updates)
        if len(mat) <= 2 * self.f + 2:
            raise RobustnessBoundError("Krum", len(mat), self.f, "n > 2f + 2")
        k = _krum_neighbours(len(mat), self.f, self.neighbours)
        scores = krum_scores(pairwise_sq_distances(mat), self.f, k)
        i = int(np.argmin(scores))
        self.last_selected = [i]
        return np.asarray(mat[i].copy())


@register
@dataclass
class MultiKrum(Component):
    """Multi-Krum: weighted mean of the ``m`` updates with the best Krum scores (default n-f)."""

    type_id: ClassVar[str] = "multi_krum"
    f: int = 1
    m: int | None = None
    neighbours: str = "paper"
    last_selected: list[int] = field(default_factory=list, init=False)

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Mean of the selected updates; ``last_selected`` records their indices."""
        mat = as_matrix(updates)
        n = len(mat)
        m = self.m if self.m is not None else n - self.f
        if n <= 2 * self.f + 2:
            raise RobustnessBoundError("MultiKrum", n, self.f, "n > 2f + 2")
        if not 1 <= m <= n:
            raise ConfigError(f"MultiKrum m={m} must be in 1..{n}")
        scores = krum_scores(pairwise_sq_distances(mat), self.f, _krum_neighbours(n, self.f, self.neighbours))
        sel = np.argsort(scores, kind="stable")[:m]
        self.last_selected = sorted(int(i) for i in sel)
        w = normalize_weights(weights, n)[sel]
        w = w / w.sum() if w.sum() > 0 else np.full(m, 1.0 / m)
        return np.asarray((w @ mat[sel]).astype(mat.dtype))


@register
@dataclass
class GeometricMedian(Component):
    """Weighted geometric median by smoothed Weiszfeld iterations (Pillutla et al. RFA)."""

    type_id: ClassVar[str] = "geometric_median"
    max_iter: int = 100
    tol: float = 1e-6
    nu: float = 1e-8
    init: str = "mean"
    last_iterations: int = field(default=0, init=False)

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Point minimising the weighted sum of Euclidean distances to the updates.

        ``init`` is the starting point: ``"mean"`` (weighted) or ``"median"``
        (coordinate-wise); both converge to the same point, the choice only
        changes the iterations needed.
        """
        mat = as_matrix(updates).astype(np.float64)
        w = normalize_weights(weights, len(mat))
        if self.init == "mean":
            z = w @ mat
        elif self.init == "median":
            z = _median(mat)
        else:
            raise ConfigError(f"GeometricMedian init must be 'mean' or 'median', got {self.init!r}")
        it = 0
        for it in range(1, self.max_iter + 1):  # noqa: B007 - recorded below
            d = np.sqrt(((mat - z) ** 2).sum(axis=1))
            beta = w / np.maximum(d, self.nu)
            z_new = (beta @ mat) / beta.sum()
            moved = float(np.linalg.norm(z_new - z))
            z = z_new
            if moved <= self.tol * max(1.0, float(np.linalg.norm(z))):
                break
        self.last_iterations = it
        return np.asarray(z.astype(np.float32))


@register
@dataclass
class Bulyan(Component):
    """Bulyan (El Mhamdi et al. 2018) over Krum; needs n >= 4f+3."""

    type_id: ClassVar[str] = "bulyan"
    f: int = 1
    last_selected: list[int] = field(default_factory=list, init=False)

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Krum-select n-2f updates, then per coordinate average the n-4f closest to the median."""
        mat = as_matrix(updates)
        n, f = len(mat), self.f
        if n < 4 * f + 3:
            raise RobustnessBoundError("Bulyan", n, f, "n >= 4f + 3")
        dist = pairwise_sq_distances(mat)
        remaining = list(range(n))
        selected: list[int] = []
        theta = n - 2 * f
        while len(selected) < theta:
            sub = dist[np.ix_(remaining, remaining)]
            k = len(remaining) - f - 2
            if k >= 1:
                scores = krum_scores(sub, f)
            else:  # fewer than f+3 left: plain sum of distances
                scores = sub.sum(axis=1)
            pick = remaining[int(np.argmin(scores))]
            selected.append(pick)
            remaining.remove(pick)
        self.last_selected = sorted(selected)
        beta = theta - 2 * f
        return _closest_to_median_mean(mat[selected], beta).astype(mat.dtype)


@register
@dataclass
class CenteredClipping(Component):
    """Centered clipping (Karimireddy et al. 2021): iterative clipping around the previous center."""

    type_id: ClassVar[str] = "centered_clipping"
    tau: float = 1.0
    iters: int = 3
    center: np.ndarray | None = field(default=None, init=False)

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Clip each update's distance to the center at ``tau`` and move the center; keeps it as state."""
        mat = as_matrix(updates).astype(np.float64)
        w = normalize_weights(weights, len(mat))
        v = (np.zeros(mat.shape[1]) if self.center is None or self.center.shape != (mat.shape[1],)
             else self.center.astype(np.float64))
        for _ in range(self.iters):
            diff = mat - v
            norms = np.sqrt((diff**2).sum(axis=1))
            scale = np.minimum(1.0, self.tau / np.maximum(norms, 1e-12))
            v = v + (w * scale) @ diff
        self.center = v.astype(np.float32)
        return np.asarray(self.center.copy())


def _check_subsets(rule: str, n: int, m: int, limit: int) -> None:
    """Refuse an exhaustive subset search larger than ``limit`` subsets (typed, before any work)."""
    count = math.comb(n, m)
    if count > limit:
        raise ConfigError(f"{rule} would search C({n},{m}) = {count} subsets (> max_subsets={limit}); "
                          "lower n or f, or raise max_subsets")


@register
@dataclass
class MinimumDiameterAveraging(Component):
    """MDA (El Mhamdi et al. 2020): mean of the n-f updates whose set has the smallest diameter.

    Exact search with branch and bound in lexicographic order; among equal
    diameters the lexicographically first subset wins (as ByzPy). Weights ignored.
    """

    type_id: ClassVar[str] = "mda"
    f: int = 1
    max_subsets: int = 1_000_000
    last_selected: list[int] = field(default_factory=list, init=False)

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Mean of the minimum-diameter (n-f)-subset; needs 0 <= f < n."""
        mat = as_matrix(updates)
        n, f = len(mat), self.f
        if not 0 <= f < n:
            raise RobustnessBoundError("MDA", n, f, "0 <= f < n")
        m = n - f
        _check_subsets("MDA", n, m, self.max_subsets)
        d = pairwise_sq_distances(mat)
        best: list[float] = [math.inf]
        best_set: list[int] = []
        chosen: list[int] = []

        def dfs(start: int, diam: float) -> None:
            if len(chosen) == m:
                if diam < best[0]:  # strict: the first subset reaching a diameter keeps it
                    best[0] = diam
                    best_set[:] = chosen
                return
            for i in range(start, n - (m - len(chosen)) + 1):
                nd = max(diam, float(d[i, chosen].max())) if chosen else diam
                if nd >= best[0]:  # cannot beat (or tie earlier) the best found
                    continue
                chosen.append(i)
                dfs(i + 1, nd)
                chosen.pop()

        dfs(0, 0.0)
        self.last_selected = list(best_set)
        return np.asarray(mat[best_set].mean(axis=0))


@register
@dataclass
class MoNNA(Component):
    """MoNNA (Farhadkhani et al. 2023): mean of the n-f updates nearest to a trusted reference update.

    ``reference`` is the index of the trusted update (e.g. the server's own). Weights ignored.
    """

    type_id: ClassVar[str] = "monna"
    f: int = 1
    reference: int = 0
    last_selected: list[int] = field(default_factory=list, init=False)

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Mean of the n-f nearest neighbours of ``updates[reference]``; needs n > 2f."""
        mat = as_matrix(updates)
        n, f = len(mat), self.f
        if n <= 2 * f:
            raise RobustnessBoundError("MoNNA", n, f, "n > 2f")
        if not 0 <= self.reference < n:
            raise ConfigError(f"MoNNA reference={self.reference} must be in 0..{n - 1}")
        diff = mat.astype(np.float64) - mat[self.reference].astype(np.float64)
        mean, self.last_selected = _mean_of_smallest(mat, np.einsum("ij,ij->i", diff, diff), n - f)
        return mean


@register
@dataclass
class SMEA(Component):
    """SMEA (Allouah et al. 2023): mean of the n-f subset whose covariance has the smallest top eigenvalue.

    Exact search over all (n-f)-subsets via the subset's centred Gram matrix
    (an m x m eigenproblem); the lexicographically first minimum wins (as ByzPy).
    Weights ignored.
    """

    type_id: ClassVar[str] = "smea"
    f: int = 1
    max_subsets: int = 200_000
    last_selected: list[int] = field(default_factory=list, init=False)

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Mean of the smallest-maximum-eigenvalue subset; needs n > 2f."""
        mat = as_matrix(updates)
        n, f = len(mat), self.f
        if n <= 2 * f:
            raise RobustnessBoundError("SMEA", n, f, "n > 2f")
        m = n - f
        _check_subsets("SMEA", n, m, self.max_subsets)
        flat = mat.astype(np.float64)
        gram = flat @ flat.T
        centre = np.eye(m) - np.full((m, m), 1.0 / m)
        best, best_set = math.inf, list(range(m))
        for combo in itertools.combinations(range(n), m):
            sub = gram[np.ix_(combo, combo)]
            top = max(float(np.linalg.eigvalsh(centre @ sub @ centre)[-1]), 0.0) / m
            if top < best:
                best, best_set = top, list(combo)
        self.last_selected = best_set
        return np.asarray(mat[best_set].mean(axis=0))


@register
@dataclass
class ComparativeGradientElimination(Component):
    """CGE (Gupta et al. 2021): mean of the n-f updates with the smallest L2 norms. Weights ignored."""

    type_id: ClassVar[str] = "cge"
    f: int = 1
    last_selected: list[int] = field(default_factory=list, init=False)

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Drop the f largest-norm updates, average the rest; needs 0 <= f < n."""
        mat = as_matrix(updates)
        n, f = len(mat), self.f
        if not 0 <= f < n:
            raise RobustnessBoundError("CGE", n, f, "0 <= f < n")
        flat = mat.astype(np.float64)
        mean, self.last_selected = _mean_of_smallest(mat, np.einsum("ij,ij->i", flat, flat), n - f)
        return mean


def _dominant_eigenpair(diffs: np.ndarray, weights: np.ndarray, iters: int) -> tuple[float, np.ndarray]:
    """Top eigenpair of the weighted covariance of ``diffs`` by ``iters`` power iterations.

    The start vector is ``default_rng(0)`` normal draws, as ByzPy's CAF, so
    results match it bit for bit in the same dtype.
    """
    vec = np.asarray(np.random.default_rng(0).normal(size=diffs.shape[1])).astype(diffs.dtype, copy=False)
    norm = np.linalg.norm(vec)
    if norm == 0:
        vec = np.ones(diffs.shape[1], dtype=diffs.dtype)
        norm = np.linalg.norm(vec)
    vec /= norm
    for _ in range(iters):
        proj = diffs @ vec
        # the same summation order as ByzPy (row-scaled then summed), for equal floats
        nxt = ((weights * proj)[:, None] * diffs).sum(axis=0)
        nn = np.linalg.norm(nxt)
        if nn <= 1e-12:
            break
        vec = nxt / nn
    proj = diffs @ vec
    return float(np.sum(weights * proj**2) / max(1e-12, float(weights.sum()))), vec


@register
@dataclass
class CAF(Component):
    """CAF, covariance-bound agnostic filter (Allouah et al. 2024): soft-filter along the top eigenvector.

    Weights start at 1; while their total exceeds n-2f, each update's weight is
    scaled by ``1 - tau_i / max tau`` (tau_i its squared projection on the top
    eigenvector of the weighted covariance); the weighted mean with the smallest
    top eigenvalue seen is returned. Client weights are ignored.
    """

    type_id: ClassVar[str] = "caf"
    f: int = 1
    power_iters: int = 3

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """The filtered mean; needs n > 2f."""
        mat = as_matrix(updates)
        n, f = len(mat), self.f
        if n <= 2 * f:
            raise RobustnessBoundError("CAF", n, f, "n > 2f")
        if self.power_iters < 1:
            raise ConfigError("CAF power_iters must be >= 1")
        data = mat if np.issubdtype(mat.dtype, np.floating) else mat.astype(np.float32)
        w = np.ones(n, dtype=data.dtype)
        total = float(w.sum())
        best_mu = np.mean(data, axis=0, dtype=data.dtype)
        best_lam = math.inf
        while total > n - 2 * f:
            mu = np.sum(w[:, None] * data, axis=0, dtype=data.dtype) / total
            diffs = data - mu
            lam, vec = _dominant_eigenpair(diffs, w, self.power_iters)
            if lam < best_lam:
                best_lam, best_mu = lam, mu.copy()
            tau = (diffs @ vec) ** 2
            tau_max = float(tau.max())
            if tau_max <= 1e-12:
                break
            w = np.clip(w * (1.0 - tau / tau_max), 0.0, None)
            total = float(w.sum())
            if total <= 0:
                break
        return np.asarray(best_mu.astype(mat.dtype, copy=False))


def _base_rule(base: Any) -> Any:
    if base is None:
        return Mean()
    if not hasattr(base, "aggregate"):
        raise ConfigError(f"base must be an aggregator component, got {type(base).__name__}")
    return base


class _WithBase(Component):
    """Mixin: a server optimizer whose ``base`` rule's snapshot is part of its state."""

    base: Any

    def get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """Own state plus the base rule's snapshot."""
        meta, arrays = super().get_state()
        arrays["base"] = np.frombuffer(self.base.snapshot(), dtype=np.uint8)
        return meta, arrays

    def set_state(self, meta: Any, arrays: Any) -> None:
        """Restore own state and the base rule."""
        arrays = dict(arrays)
        base = arrays.pop("base", None)
        super().set_state(meta, arrays)
        if base is not None:
            self.base.restore(base.tobytes())


@register
@dataclass
class FedAvgM(_WithBase):
    """Server momentum (Hsu et al. 2019): v <- beta*v + agg; step = lr * v."""

    type_id: ClassVar[str] = "fedavgm"
    lr: float = 1.0
    momentum: float = 0.9
    base: Any = None
    velocity: np.ndarray | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.base = _base_rule(self.base)

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """The server step to add to the global model."""
        agg = self.base.aggregate(updates, weights).astype(np.float64)
        v = agg if self.velocity is None else self.momentum * self.velocity + agg
        self.velocity = v.astype(np.float32)
        return np.asarray((self.lr * v).astype(np.float32))


@register
@dataclass
class FedAdam(_WithBase):
    """FedAdam (Reddi et al. 2021): m, v moments of the aggregate; step = lr*m/(sqrt(v)+tau)."""

    type_id: ClassVar[str] = "fedadam"
    lr: float = 0.01
    beta1: float = 0.9
    beta2: float = 0.99
    tau: float = 1e-3
    base: Any = None
    m: np.ndarray | None = field(default=None, init=False)
    v: np.ndarray | None = field(default=None, init=False)
    rounds: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        self.base = _base_rule(self.base)

    def _second(self, v: np.ndarray, g2: np.ndarray) -> np.ndarray:
        return np.asarray(self.beta2 * v + (1 - self.beta2) * g2)

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """The server step to add to the global model."""
        g = self.base.aggregate(updates, weights).astype(np.float64)
        m = np.zeros_like(g) if self.m is None else self.m.astype(np.float64)
        v = np.full_like(g, self.tau**2) if self.v is None else self.v.astype(np.float64)
        m = self.beta1 * m + (1 - self.beta1) * g
        v = self._second(v, g * g)
        self.m, self.v = m.astype(np.float32), v.astype(np.float32)
        self.rounds += 1
        return np.asarray((self.lr * m / (np.sqrt(v) + self.tau)).astype(np.float32))


@register
@dataclass
class FedYogi(FedAdam):
    """FedYogi (Reddi et al. 2021): v <- v - (1-beta2) * g^2 * sign(v - g^2)."""

    type_id: ClassVar[str] = "fedyogi"

    def _second(self, v: np.ndarray, g2: np.ndarray) -> np.ndarray:
        return np.asarray(v - (1 - self.beta2) * g2 * np.sign(v - g2))


# ---------------------------------------------------------------------------
# pre-aggregators
# ---------------------------------------------------------------------------


@register
@dataclass
class Bucketing(Component):
    """Bucketing (Karimireddy et al. 2022): shuffle, average buckets of size ``s``."""

    type_id: ClassVar[str] = "bucketing"
    s: int = 2
    seed: int = 0
    calls: int = field(default=0, init=False)
    last_perm: list[int] = field(default_factory=list, init=False)

    def transform(
        self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None
    ) -> tuple[list[np.ndarray], list[float]]:
        """Bucket means and the summed weights of each bucket."""
        mat = as_matrix(updates)
        n = len(mat)
        w = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
        perm = np.random.default_rng([self.seed, self.calls]).permutation(n)
        self.calls += 1
        self.last_perm = [int(i) for i in perm]
        out: list[np.ndarray] = []
        ws: list[float] = []
        for i in range(0, n, self.s):
            idx = perm[i:i + self.s]
            out.append(np.asarray(mat[idx].mean(axis=0)))
            ws.append(float(w[idx].sum()))
        return out, ws


@register
@dataclass
class NormClipping(Component):
    """Scale each update to L2 norm at most ``tau``."""

    type_id: ClassVar[str] = "norm_clipping"
    tau: float = 1.0

    def transform(
        self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None
    ) -> tuple[list[np.ndarray], list[float]]:
        """Clipped updates, weights unchanged."""
        mat = as_matrix(updates)
        norms = np.linalg.norm(mat.astype(np.float64), axis=1)
        scale = np.minimum(1.0, self.tau / np.maximum(norms, 1e-12))
        ws = _passthrough_weights(weights, len(mat))
        return _scale_rows(mat, scale), ws


@register
@dataclass
class NearestNeighborMixing(Component):
    """NNM (Allouah et al. 2023): replace each update by the mean of its n-f nearest (itself included)."""

    type_id: ClassVar[str] = "nnm"
    f: int = 1

    def transform(
        self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None
    ) -> tuple[list[np.ndarray], list[float]]:
        """Mixed updates, weights unchanged."""
        mat = as_matrix(updates)
        n = len(mat)
        if n <= self.f:
            raise RobustnessBoundError("NNM", n, self.f, "n > f")
        dist = pairwise_sq_distances(mat)
        nn = np.argsort(dist, axis=1, kind="stable")[:, : n - self.f]
        ws = _passthrough_weights(weights, n)
        return [np.asarray(mat[idx].mean(axis=0)) for idx in nn], ws


@register
@dataclass
class ARC(Component):
    """ARC, adaptive robust clipping (Allouah et al. 2024).

    The k = floor(2f/n * (n-f)) largest-norm updates are clipped to the norm of
    the largest remaining one; weights unchanged.
    """

    type_id: ClassVar[str] = "arc"
    f: int = 1

    def transform(
        self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None
    ) -> tuple[list[np.ndarray], list[float]]:
        """Clipped updates, weights unchanged; needs 0 <= f <= n."""
        mat = as_matrix(updates)
        n = len(mat)
        if not 0 <= self.f <= n:
            raise RobustnessBoundError("ARC", n, self.f, "0 <= f <= n")
        norms = np.linalg.norm(mat, axis=1)
        k = max(0, min(int(math.floor((2.0 * self.f / n) * (n - self.f))), n - 1))
        threshold = float(np.sort(norms)[max(0, n - k - 1)])
        scale = np.minimum(1.0, threshold / np.maximum(norms, 1e-12))
        ws = _passthrough_weights(weights, n)
        return _scale_rows(mat, scale), ws


@register
@dataclass
class Pipeline(Component):
    """Pre-aggregators applied in order, then a rule: ``Pipeline([Bucketing(2)], Median())``."""

    type_id: ClassVar[str] = "pipeline"
    pre: list[Any] = field(default_factory=list)
    rule: Any = None

    def __post_init__(self) -> None:
        self.rule = _base_rule(self.rule)
        for p in self.pre:
            if not hasattr(p, "transform"):
                raise ConfigError(f"pre-aggregator {type(p).__name__} has no transform()")

    def aggregate(self, updates: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
        """Run the pre-aggregators, then the rule."""
        ups: list[np.ndarray] = list(updates)
        ws: list[float] | None = None if weights is None else list(weights)
        for p in self.pre:
            ups, ws = p.transform(ups, ws)
        return np.asarray(self.rule.aggregate(ups, ws))

    def get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """Children's snapshots."""
        arrays = {f"pre{i}": np.frombuffer(p.snapshot(), dtype=np.uint8) for i, p in enumerate(self.pre)}
        arrays["rule"] = np.frombuffer(self.rule.snapshot(), dtype=np.uint8)
        return {}, arrays

    def set_state(self, meta: Any, arrays: Any) -> None:
        """Restore the children from their snapshots."""
        for i, p in enumerate(self.pre):
            p.restore(arrays[f"pre{i}"].tobytes())
        self.rule.restore(arrays["rule"].tobytes())
