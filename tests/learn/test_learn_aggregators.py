"""Aggregators and pre-aggregators against their definitions."""

from __future__ import annotations

import numpy as np
import pytest

from bb_edge.learn import aggregators as A
from bb_edge.learn.attacks import ALIE, SignFlip
from bb_edge.learn.roles import Aggregator, ConfigError, RobustnessBoundError, create, from_snapshot


def _honest(n, d, seed=0, center=1.0, spread=0.1):
    rng = np.random.default_rng(seed)
    return [(center + spread * rng.standard_normal(d)).astype(np.float32) for _ in range(n)]


def test_mean_is_weighted_fedavg():
    ups = [np.array([1.0, 2.0], np.float32), np.array([3.0, 6.0], np.float32)]
    np.testing.assert_allclose(A.Mean().aggregate(ups), [2.0, 4.0])
    np.testing.assert_allclose(A.Mean().aggregate(ups, [3, 1]), [1.5, 3.0])
    with pytest.raises(ConfigError):
        A.Mean().aggregate(ups, [1])
    with pytest.raises(ConfigError):
        A.Mean().aggregate([np.zeros(2, np.float32), np.zeros(3, np.float32)])


def test_median_and_trimmed_mean_hand_cases():
    ups = [np.array([v, -v], np.float32) for v in (1.0, 2.0, 3.0, 100.0, -50.0)]
    np.testing.assert_allclose(A.Median().aggregate(ups), [2.0, -2.0])
    # drop 1 largest and 1 smallest: mean(1, 2, 3) = 2
    np.testing.assert_allclose(A.TrimmedMean(f=1).aggregate(ups), [2.0, -2.0])
    # f=2: only the median remains
    np.testing.assert_allclose(A.TrimmedMean(f=2).aggregate(ups), [2.0, -2.0])
    with pytest.raises(RobustnessBoundError):
        A.TrimmedMean(f=3).aggregate(ups)


def test_trimmed_mean_matches_sort_definition():
    rng = np.random.default_rng(1)
    mat = rng.standard_normal((11, 300)).astype(np.float32)
    ref = np.sort(mat, axis=0)[3:-3].mean(axis=0)
    np.testing.assert_allclose(A.TrimmedMean(f=3).aggregate(list(mat)), ref, rtol=1e-5, atol=1e-6)
    # ignores the f largest/smallest whatever their magnitude
    mat2 = mat.copy()
    mat2[0] = 1e9
    mat2[1] = -1e9
    out = A.TrimmedMean(f=3).aggregate(list(mat2))
    assert np.abs(out).max() < 10


def test_mean_around_median():
    ups = [np.array([v], np.float32) for v in (0.0, 1.0, 2.0, 3.0, 1000.0)]
    # median 2, the 4 closest: 1, 2, 3, 0 (tie 0/4 -> 0, 1000 excluded) -> 1.5
    np.testing.assert_allclose(A.MeanAroundMedian(f=1).aggregate(ups), [1.5])


def test_krum_picks_honest_and_multikrum():
    n, f = 9, 3  # f < (n-2)/2
    honest = _honest(n - f, 20, seed=2)
    bad = [np.full(20, 50.0, np.float32) + i for i in range(f)]
    ups = bad[:1] + honest + bad[1:]
    k = A.Krum(f=f)
    out = k.aggregate(ups)
    sel = k.last_selected[0]
    assert 1 <= sel <= n - f and np.array_equal(out, ups[sel])
    mk = A.MultiKrum(f=f)
    out = mk.aggregate(ups)
    assert mk.last_selected == list(range(1, n - f + 1))
    np.testing.assert_allclose(out, np.mean(honest, axis=0), rtol=1e-5)
    with pytest.raises(RobustnessBoundError):
        A.Krum(f=4).aggregate(ups)


def test_krum_score_definition():
    pts = [np.array([x], np.float32) for x in (0.0, 1.0, 3.0, 10.0)]
    # f=0, n-f-2 = 2 nearest squared distances: 0:{1,9}=10 1:{1,4}=5 3:{4,9}=13 10:{49,81}=130
    d = A.pairwise_sq_distances(np.stack(pts))
    np.testing.assert_allclose(A.krum_scores(d, 0), [10, 5, 13, 130])
    assert A.Krum(f=0).aggregate(pts)[0] == 1.0


def test_geometric_median():
    # weighted: the point with more than half the weight is the geometric median
    pts = [np.array(p, np.float32) for p in ([0.0, 0.0], [1.0, 0.0], [0.0, 1.0])]
    gm = A.GeometricMedian(max_iter=500, tol=1e-10)
    np.testing.assert_allclose(gm.aggregate(pts, [0.6, 0.2, 0.2]), [0, 0], atol=1e-4)
    # equilateral triangle: the centroid (Fermat point)
    tri = [np.array([np.cos(a), np.sin(a)], np.float32) for a in (0, 2 * np.pi / 3, 4 * np.pi / 3)]
    np.testing.assert_allclose(gm.aggregate(tri), [0, 0], atol=1e-4)
    # robust to one far outlier among 5
    pts5 = [np.array([x], np.float32) for x in (1.0, 1.1, 0.9, 1.05, 1e6)]
    assert abs(A.GeometricMedian().aggregate(pts5)[0] - 1.0) < 0.2


def test_bulyan_bound_and_selection():
    f = 2
    with pytest.raises(RobustnessBoundError) as ei:
        A.Bulyan(f=f).aggregate(_honest(10, 5))
    assert ei.value.need == "n >= 4f + 3"
    honest = _honest(9, 30, seed=3)
    bad = [np.full(30, -40.0, np.float32), np.full(30, 40.0, np.float32)]
    b = A.Bulyan(f=f)
    out = b.aggregate(honest + bad)
    assert set(b.last_selected) <= set(range(9)) and len(b.last_selected) == 11 - 4
    lo, hi = np.min(honest, axis=0), np.max(honest, axis=0)
    assert ((out >= lo - 1e-6) & (out <= hi + 1e-6)).all()


def test_centered_clipping_bounds_the_influence():
    honest = [np.zeros(4, np.float32) for _ in range(4)]
    bad = [np.full(4, 1000.0, np.float32)]
    cc = A.CenteredClipping(tau=1.0, iters=1)
    out = cc.aggregate(honest + bad)
    # one iteration from center 0: the outlier contributes at most tau / n in norm
    assert np.linalg.norm(out) == pytest.approx(1.0 / 5, rel=1e-5)
    snap = cc.snapshot()
    cc2 = from_snapshot(snap)
    assert isinstance(cc2, A.CenteredClipping)
    np.testing.assert_array_equal(cc2.center, cc.center)


def test_server_optimizers_match_formulas():
    g1 = np.array([1.0, -2.0], np.float32)
    g2 = np.array([0.5, 0.5], np.float32)
    m = A.FedAvgM(lr=0.5, momentum=0.9)
    np.testing.assert_allclose(m.aggregate([g1]), 0.5 * g1)
    np.testing.assert_allclose(m.aggregate([g2]), 0.5 * (0.9 * g1 + g2), rtol=1e-6)
    fa = A.FedAdam(lr=0.1, beta1=0.9, beta2=0.99, tau=1e-3)
    mm = 0.1 * g1
    vv = 0.99 * 1e-6 + 0.01 * g1.astype(np.float64) ** 2
    np.testing.assert_allclose(fa.aggregate([g1]), 0.1 * mm / (np.sqrt(vv) + 1e-3), rtol=1e-5)
    fy = A.FedYogi(lr=0.1, beta1=0.9, beta2=0.99, tau=1e-3)
    v0 = np.full(2, 1e-6)
    vy = v0 - 0.01 * g1**2 * np.sign(v0 - g1**2)
    np.testing.assert_allclose(fy.aggregate([g1]), 0.1 * mm / (np.sqrt(vy) + 1e-3), rtol=1e-5)
    # state survives a snapshot round trip and continues identically
    twin = from_snapshot(fa.snapshot())
    np.testing.assert_array_equal(twin.aggregate([g2]), fa.aggregate([g2]))


def test_bucketing_clipping_nnm():
    ups = [np.array([float(i)], np.float32) for i in range(6)]
    b = A.Bucketing(s=2, seed=0)
    out, w = b.transform(ups, [1] * 6)
    assert len(out) == 3 and w == [2.0, 2.0, 2.0]
    pair_sums = [float(o[0]) * 2 for o in out]
    assert all(v == int(v) for v in pair_sums) and np.isclose(sum(pair_sums), 15.0)
    out2, _ = b.transform(ups)  # counter advances: a different shuffle is allowed, same multiset sum
    assert np.isclose(sum(o[0] for o in out2) * 2, 15.0)
    assert b.calls == 2
    c, _ = A.NormClipping(tau=1.0).transform([np.array(p, np.float32) for p in ([3.0, 4.0], [0.3, 0.4])])
    np.testing.assert_allclose(c[0], [0.6, 0.8], rtol=1e-6)
    np.testing.assert_allclose(c[1], [0.3, 0.4], rtol=1e-6)
    pts = [np.array([x], np.float32) for x in (0.0, 1.0, 2.0, 100.0)]
    mixed, _ = A.NearestNeighborMixing(f=1).transform(pts)
    np.testing.assert_allclose([m[0] for m in mixed], [1.0, 1.0, 1.0, (100 + 2 + 1) / 3])


def test_pipeline_config_and_snapshot_roundtrip():
    p = A.Pipeline(pre=[A.Bucketing(s=2, seed=3), A.NormClipping(tau=5.0)], rule=A.TrimmedMean(f=1))
    assert isinstance(p, Aggregator)
    ups = _honest(8, 10, seed=4)
    p.aggregate(ups)
    twin = from_snapshot(p.snapshot())
    assert twin.get_config() == p.get_config()
    np.testing.assert_array_equal(twin.aggregate(ups), p.aggregate(ups))
    q = create("pipeline", pre=[{"$component": "bucketing", "config": {"s": 3, "seed": 1}}],
               rule={"$component": "median", "config": {}})
    assert isinstance(q.rule, A.Median) and q.pre[0].s == 3
    with pytest.raises(ConfigError):
        create("no_such_rule")


def _attack_round(rule, attack, n=25, f=5, d=200, seed=0):
    rng = np.random.default_rng(seed)
    true = rng.standard_normal(d).astype(np.float32)
    honest = [(true + 0.5 * rng.standard_normal(d)).astype(np.float32) for _ in range(n - f)]
    bad = [attack.craft(honest[i], honest) for i in range(f)]
    out = rule.aggregate(honest + bad)
    return float(np.dot(out, true) / (np.linalg.norm(out) * np.linalg.norm(true))), true


@pytest.mark.parametrize("rule", [
    A.Median(), A.TrimmedMean(f=5), A.MeanAroundMedian(f=5), A.MultiKrum(f=5), A.GeometricMedian(),
    A.Pipeline(pre=[A.Bucketing(s=2)], rule=A.Median()), A.Pipeline(pre=[A.NearestNeighborMixing(f=5)],
                                                                   rule=A.TrimmedMean(f=5)),
])
def test_robust_rules_survive_sign_flip(rule):
    cos_mean, _ = _attack_round(A.Mean(), SignFlip(scale=10.0))
    cos_rule, _ = _attack_round(rule, SignFlip(scale=10.0))
    assert cos_mean < 0.0  # FedAvg is dragged the wrong way
    assert cos_rule > 0.9


def test_alie_shifts_mean_within_honest_spread():
    cos, _ = _attack_round(A.Median(), ALIE(n=25, f=5))
    assert 0.5 < cos <= 1.0
