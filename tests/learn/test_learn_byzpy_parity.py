"""ByzPy parity: every aggregator, pre-aggregator and attack bb-edge shares with ByzPy 0.1.4 gives ByzPy's output.

ByzPy is the oracle here (it runs on torch tensors; we run on numpy). Same f,
same parameters, random inputs from several seeds. Selection rules (Krum, MDA,
MoNNA, SMEA, CGE) must pick the same vectors, so they are compared exactly;
arithmetic rules within float32 rounding. Conventions that differ are named
parameters on our side (documented in docs/learning.md): Krum counts n-f-1
neighbours in ByzPy (``neighbours="byzpy"``), ByzPy's LittleAttack is
``mu + z*sigma`` (``direction=1``), its EmpireAttack/SignFlipAttack ``scale`` is our
``-eps``/``-scale``. Median-based rules use odd n: torch's median of an even
count is the lower middle value, ours the average of the two.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from byzpy import aggregators as _bagg  # noqa: F401 - byzpy's package must import
from byzpy.aggregators.coordinate_wise.mean_of_medians import MeanOfMedians
from byzpy.aggregators.coordinate_wise.median import CoordinateWiseMedian
from byzpy.aggregators.coordinate_wise.trimmed_mean import CoordinateWiseTrimmedMean
from byzpy.aggregators.geometric_wise.geometric_median import GeometricMedian as BGeometricMedian
from byzpy.aggregators.geometric_wise.krum import Krum as BKrum
from byzpy.aggregators.geometric_wise.krum import MultiKrum as BMultiKrum
from byzpy.aggregators.geometric_wise.minimum_diameter_average import MinimumDiameterAveraging as BMDA
from byzpy.aggregators.geometric_wise.monna import MoNNA as BMoNNA
from byzpy.aggregators.geometric_wise.smea import SMEA as BSMEA
from byzpy.aggregators.norm_wise.caf import CAF as BCAF
from byzpy.aggregators.norm_wise.center_clipping import CenteredClipping as BCenteredClipping
from byzpy.aggregators.norm_wise.comparative_gradient_elimination import ComparativeGradientElimination as BCGE
from byzpy.attacks import EmpireAttack, GaussianAttack, InfAttack, LittleAttack, MimicAttack, SignFlipAttack
from byzpy.attacks.label_flip import _mirror_labels
from byzpy.pre_aggregators import ARC as BARC
from byzpy.pre_aggregators import Bucketing as BBucketing
from byzpy.pre_aggregators import Clipping as BClipping
from byzpy.pre_aggregators import NearestNeighborMixing as BNNM

from bb_edge.learn import aggregators as A
from bb_edge.learn import attacks as K

SEEDS = [0, 1, 2]
D = 257  # odd, not a power of two: no accidental alignment


def _inputs(seed: int, n: int, outliers: int = 2) -> np.ndarray:
    """n random float32 updates, ``outliers`` of them far off (so robust rules have something to reject)."""
    rng = np.random.default_rng(seed)
    mat = rng.normal(0.0, 1.0, size=(n, D)).astype(np.float32)
    mat[:outliers] += rng.normal(8.0, 3.0, size=(outliers, D)).astype(np.float32)
    return mat[rng.permutation(n)]


def _t(mat: np.ndarray) -> list[torch.Tensor]:
    return [torch.from_numpy(row.copy()) for row in mat]


def _np(x: Any) -> np.ndarray:
    return x.detach().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)


# name -> (n, ours, ByzPy's, exact?)
AGG_CASES: dict[str, tuple[int, Callable[[], Any], Callable[[], Any], bool]] = {
    "median": (11, lambda: A.Median(), lambda: CoordinateWiseMedian(), True),
    "trimmed_mean": (12, lambda: A.TrimmedMean(f=3), lambda: CoordinateWiseTrimmedMean(f=3), False),
    "mean_around_median": (11, lambda: A.MeanAroundMedian(f=3), lambda: MeanOfMedians(f=3), False),
    "krum": (12, lambda: A.Krum(f=3, neighbours="byzpy"), lambda: BKrum(f=3), True),
    "multi_krum": (12, lambda: A.MultiKrum(f=3, m=5, neighbours="byzpy"), lambda: BMultiKrum(f=3, q=5), False),
    "geometric_median": (11, lambda: A.GeometricMedian(max_iter=2000, tol=1e-12, nu=1e-12, init="median"),
                         lambda: BGeometricMedian(tol=1e-9, max_iter=2000, init="median"), False),
    "centered_clipping": (10, lambda: A.CenteredClipping(tau=2.0, iters=10),
                          lambda: BCenteredClipping(c_tau=2.0, M=10, init="zero"), False),
    "mda": (10, lambda: A.MinimumDiameterAveraging(f=3), lambda: BMDA(f=3), True),
    "monna": (11, lambda: A.MoNNA(f=4, reference=2), lambda: BMoNNA(f=4, reference_index=2), False),
    "smea": (9, lambda: A.SMEA(f=3), lambda: BSMEA(f=3), False),
    "cge": (10, lambda: A.ComparativeGradientElimination(f=3), lambda: BCGE(f=3), False),
    "caf": (10, lambda: A.CAF(f=3), lambda: BCAF(f=3), False),
}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(AGG_CASES))
def test_aggregator_matches_byzpy(name: str, seed: int) -> None:
    n, ours, theirs, exact = AGG_CASES[name]
    mat = _inputs(seed, n)
    got = np.asarray(ours().aggregate(list(mat)), dtype=np.float64)
    want = _np(theirs().aggregate(_t(mat))).astype(np.float64)
    assert got.shape == want.shape == (D,)
    if exact:
        np.testing.assert_array_equal(got, want)
    elif name == "geometric_median":  # two Weiszfeld runs to tight tolerances: same point
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    else:
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=2e-6)
    # the oracle is not trivially the mean: robust rules must differ from it on these inputs
    if name not in ("centered_clipping",):
        assert not np.allclose(want, mat.mean(axis=0), atol=1e-3)


@pytest.mark.parametrize("seed", SEEDS)
def test_subset_rules_pick_byzpys_subset(seed: int) -> None:
    """MDA/SMEA/MoNNA/CGE choose the same vectors: our mean of the recorded selection is ByzPy's output."""
    mat = _inputs(seed, 9, outliers=3)
    for ours, theirs in [(A.MinimumDiameterAveraging(f=3), BMDA(f=3)), (A.SMEA(f=3), BSMEA(f=3)),
                         (A.MoNNA(f=3, reference=1), BMoNNA(f=3, reference_index=1)),
                         (A.ComparativeGradientElimination(f=3), BCGE(f=3))]:
        ours.aggregate(list(mat))
        want = _np(theirs.aggregate(_t(mat)))
        np.testing.assert_allclose(mat[ours.last_selected].mean(axis=0), want, rtol=1e-6, atol=1e-6)
        assert len(ours.last_selected) == 6


PRE_CASES: dict[str, tuple[Callable[[], Any], Callable[[Any], Any]]] = {
    "norm_clipping": (lambda: A.NormClipping(tau=20.0), lambda ours: BClipping(threshold=20.0)),
    "nnm": (lambda: A.NearestNeighborMixing(f=3), lambda ours: BNNM(f=3)),
    "arc": (lambda: A.ARC(f=3), lambda ours: BARC(f=3)),
    # ByzPy shuffles with Python's random; give it the permutation ours drew
    "bucketing": (lambda: A.Bucketing(s=3, seed=7), lambda ours: BBucketing(3, perm=ours.last_perm)),
}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(PRE_CASES))
def test_pre_aggregator_matches_byzpy(name: str, seed: int) -> None:
    ours_f, theirs_f = PRE_CASES[name]
    mat = _inputs(seed, 11)
    ours = ours_f()
    got, _ = ours.transform(list(mat))
    want = theirs_f(ours).pre_aggregate(_t(mat))
    assert len(got) == len(want)
    np.testing.assert_allclose(np.stack(got), np.stack([_np(w) for w in want]), rtol=2e-6, atol=2e-6)
    assert not np.allclose(np.stack(got), mat[: len(got)])  # the transform did something


@pytest.mark.parametrize("seed", SEEDS)
def test_attacks_match_byzpy(seed: int) -> None:
    honest = _inputs(seed, 8, outliers=0)
    own = honest[0]
    f = 3
    n = len(honest) + f
    cases: list[tuple[np.ndarray, Any]] = [
        (K.ALIE(n=n, f=f, direction=1).craft(own, list(honest)), LittleAttack(f=f).apply(honest_grads=_t(honest))),
        (K.InnerProductManipulation(eps=0.7).craft(own, list(honest)),
         EmpireAttack(scale=-0.7).apply(honest_grads=_t(honest))),
        (K.SignFlip(scale=2.5).craft(own, list(honest)), SignFlipAttack(scale=-2.5).apply(base_grad=_t(honest)[0])),
        (K.Mimic(target=3).craft(own, list(honest)), MimicAttack(epsilon=3).apply(honest_grads=_t(honest))),
        (K.NonFinite(value="inf").craft(own, list(honest)), InfAttack().apply(honest_grads=_t(honest))),
        (K.GaussianNoise(sigma=0.5, mu=0.2, seed=seed, fixed_noise=True).craft(own, list(honest)),
         GaussianAttack(mu=0.2, sigma=0.5, seed=seed).apply(honest_grads=_t(honest))),
    ]
    for got, want in cases:
        np.testing.assert_allclose(np.asarray(got, np.float64), _np(want).astype(np.float64), rtol=2e-6, atol=2e-6)


def test_label_flip_matches_byzpy() -> None:
    y = np.random.default_rng(0).integers(0, 10, size=200)
    _, flipped = K.LabelFlip(num_classes=10).poison(np.zeros((200, 1)), y)
    np.testing.assert_array_equal(flipped, _mirror_labels(torch.from_numpy(y), 10).numpy())


def test_krum_conventions_differ() -> None:
    """The ``neighbours`` parameter matters: the paper's n-f-2 and ByzPy's n-f-1 can choose differently."""
    diffs = 0
    for seed in range(30):
        mat = np.random.default_rng(seed).normal(size=(8, 5)).astype(np.float32)
        a = A.Krum(f=2).aggregate(list(mat))
        b = A.Krum(f=2, neighbours="byzpy").aggregate(list(mat))
        diffs += int(not np.array_equal(a, b))
    assert diffs > 0


def test_exhaustive_rules_refuse_huge_searches() -> None:
    from bb_edge.learn.roles import ConfigError
    mat = list(np.zeros((40, 3), np.float32))
    with pytest.raises(ConfigError, match="max_subsets"):
        A.MinimumDiameterAveraging(f=10).aggregate(mat)
    with pytest.raises(ConfigError, match="max_subsets"):
        A.SMEA(f=10).aggregate(mat)
