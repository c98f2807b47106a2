"""Attacks, peer selection, codecs, secure aggregation, data, liveness, validation, registry."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bb_edge.learn import attacks as T
from bb_edge.learn.codecs import (
    CodecError,
    Float32Codec,
    GaussianDPCodec,
    Int8Codec,
    SecAggClient,
    TopKCodec,
    secagg_unmask_sum,
    shamir_combine,
    shamir_split,
)
from bb_edge.learn.data import (
    ArraySource,
    DirichletPartitioner,
    IIDPartitioner,
    ShardPartitioner,
    SklearnSource,
    train_test_split,
)
from bb_edge.learn.liveness import LivenessTable, PhiAccrualDetector
from bb_edge.learn.peers import PeerSelector
from bb_edge.learn.roles import (
    REGISTRY,
    Attack,
    Codec,
    ConfigError,
    DataSource,
    from_snapshot,
    load_builtin_components,
    pack_state,
    unpack_state,
)
from bb_edge.learn.roles import (
    PeerSelector as PeerSelectorRole,
)
from bb_edge.learn.validation import Accepted, Rejection, RejectReason, UpdateValidator

RNG = np.random.default_rng(7)


# -- attacks -------------------------------------------------------------------

def test_attacks_definitions():
    honest = [RNG.standard_normal(50).astype(np.float32) for _ in range(6)]
    own = honest[0]
    np.testing.assert_array_equal(T.SignFlip().craft(own, honest), -own)
    mean, std = np.mean(honest, axis=0), np.std(honest, axis=0)
    alie = T.ALIE(n=25, f=5)
    # s = 25//2 + 1 - 5 = 8 ; z = Phi^-1(17/25) ~= 0.4677
    assert T.alie_z(25, 5) == pytest.approx(0.46769, abs=1e-4)
    np.testing.assert_allclose(alie.craft(own, honest), mean - T.alie_z(25, 5) * std, rtol=1e-5, atol=1e-6)
    ipm = T.InnerProductManipulation(eps=0.5).craft(own, honest)
    np.testing.assert_allclose(ipm, -0.5 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(T.Mimic(target=2).craft(own, honest), honest[2])
    assert np.isnan(T.NonFinite().craft(own, honest)).all()
    assert np.isposinf(T.NonFinite("inf").craft(own, honest)).all()
    g = T.GaussianNoise(sigma=2.0, seed=1)
    a, b = g.craft(own, honest), g.craft(own, honest)
    assert not np.array_equal(a, b) and 1.0 < float(np.std(a)) < 3.0
    g2 = T.GaussianNoise(sigma=2.0, seed=1)
    np.testing.assert_array_equal(g2.craft(own, honest), a)  # seeded, replayable
    x, y = np.zeros((4, 2)), np.array([0, 1, 8, 9])
    _, yf = T.LabelFlip(num_classes=10).poison(x, y)
    np.testing.assert_array_equal(yf, [9, 8, 1, 0])
    for att in (T.SignFlip(), T.LabelFlip(), T.ALIE(), T.Mimic(), T.GaussianNoise()):
        assert isinstance(att, Attack)


# -- peers ---------------------------------------------------------------------

def test_topologies():
    nodes = [10, 11, 12, 13, 14, 15]
    star = PeerSelector(nodes, "star")
    assert star.neighbours(10) == [11, 12, 13, 14, 15] and star.neighbours(13) == [10]
    assert PeerSelector(nodes, "full").neighbours(12) == [10, 11, 13, 14, 15]
    ring = PeerSelector(nodes, "ring")
    assert ring.neighbours(10) == [11, 15] and ring.neighbours(15) == [10, 14]
    assert PeerSelector(nodes, "ring", k=2).neighbours(10) == [11, 12, 14, 15]
    grid = PeerSelector(nodes, "grid", cols=3)  # 10 11 12 / 13 14 15
    assert grid.neighbours(14) == [11, 13, 15] and grid.neighbours(10) == [11, 13]
    assert PeerSelector(nodes, "grid", cols=3, torus=True).neighbours(10) == [11, 12, 13]
    local = PeerSelector(nodes, "local", positions=[[0, 0], [0.5, 0], [3, 0], [3.5, 0], [10, 0], [0, 0.9]],
                         radius=1.0)
    assert local.neighbours(10) == [11, 15] and local.neighbours(14) == []
    rnd = PeerSelector(nodes, "random", k=2, seed=3)
    picks = {tuple(rnd.neighbours(12, r)) for r in range(20)}
    assert all(len(p) == 2 and 12 not in p for p in picks) and len(picks) > 1
    assert rnd.neighbours(12, 5) == PeerSelector(nodes, "random", k=2, seed=3).neighbours(12, 5)
    assert isinstance(rnd, PeerSelectorRole)
    with pytest.raises(ConfigError):
        PeerSelector(nodes, "hypercube")


def test_sharing_modes_and_blocks_switch_at_runtime():
    ps = PeerSelector([1, 2, 3], "full")
    assert ps.send_targets(1, 0) == [2, 3] and ps.accepts(2, 1, 0)
    ps.set_mode(2, "ro")
    assert ps.send_targets(2, 0) == [] and ps.accepts(2, 1, 0)
    ps.set_mode(3, "wo")
    assert ps.send_targets(1, 0) == [2] and not ps.accepts(3, 1, 0) and ps.accepts(1, 3, 0)
    ps.set_mode(1, "off")
    assert ps.send_targets(1, 0) == [] and not ps.accepts(2, 1, 0)
    ps.set_mode(1, "rw")
    ps.block(1, 2)
    assert ps.send_targets(1, 0) == [] and not ps.accepts(2, 1, 0) and not ps.accepts(1, 2, 0)
    twin = from_snapshot(ps.snapshot())
    assert twin.mode(2) == "ro" and twin.is_blocked(2, 1)
    ps.unblock(1, 2)
    ps.block(3)
    assert ps.send_targets(3, 0) == [] and ps.send_targets(1, 0) == [2]
    assert not ps.accepts(1, 99, 0)
    with pytest.raises(ConfigError):
        ps.set_mode(1, "sometimes")


# -- codecs --------------------------------------------------------------------

def test_float32_and_int8_codecs():
    v = RNG.standard_normal(10_000).astype(np.float32)
    raw = Float32Codec()
    np.testing.assert_array_equal(raw.decode(raw.encode(v)), v)
    q = Int8Codec(chunk=1024)
    data = q.encode(v)
    assert len(raw.encode(v)) / len(data) >= 3.5
    out = q.decode(data)
    # error at most half a quantisation step of its chunk
    step = np.repeat(np.abs(np.pad(v, (0, 240))).reshape(-1, 1024).max(axis=1) / 127, 1024)[: v.size]
    assert (np.abs(out - v) <= step / 2 + 1e-7).all()
    qs = Int8Codec(chunk=1024, stochastic=True, seed=1)
    mean = np.mean([qs.decode(qs.encode(v)) for _ in range(30)], axis=0)
    assert np.abs(mean - v).mean() < np.abs(out - v).mean()  # unbiased rounding averages out
    with pytest.raises(CodecError):
        q.decode(data[:-1])
    with pytest.raises(CodecError):
        q.decode(raw.encode(v))
    with pytest.raises(CodecError):
        q.encode(np.array([np.nan], np.float32))
    assert isinstance(q, Codec)


def test_topk_error_feedback_conserves_mass():
    c = TopKCodec(k=3)
    v = np.array([5.0, -1.0, 0.5, 4.0, -6.0, 0.1], np.float32)
    d = c.decode(c.encode(v))
    np.testing.assert_array_equal(d, [5.0, 0, 0, 4.0, -6.0, 0])
    np.testing.assert_allclose(c.residual, [0, -1.0, 0.5, 0, 0, 0.1])
    sent = d.copy()
    for _ in range(5):
        sent += c.decode(c.encode(np.zeros(6, np.float32)))
    # everything is eventually sent: sum of sent == sum of inputs
    np.testing.assert_allclose(sent, v, atol=1e-7)
    twin = from_snapshot(c.snapshot())
    np.testing.assert_array_equal(twin.residual, c.residual)
    no_ef = TopKCodec(k=1, error_feedback=False)
    no_ef.encode(v)
    assert no_ef.residual is None


def test_gaussian_dp_codec_clips_and_noises():
    v = np.full(1000, 1.0, np.float32)  # norm ~31.6
    dp = GaussianDPCodec(clip=1.0, sigma=0.0)
    assert np.linalg.norm(dp.decode(dp.encode(v))) == pytest.approx(1.0, rel=1e-5)
    noisy = GaussianDPCodec(clip=1.0, sigma=0.5, seed=2)
    out = noisy.decode(noisy.encode(np.zeros(20_000, np.float32)))
    assert float(np.std(out)) == pytest.approx(0.5, rel=0.05)


def test_shamir():
    rng = np.random.default_rng(0)
    sh = shamir_split(123456789, 5, 3, rng)
    assert shamir_combine({k: sh[k] for k in (1, 3, 5)}) == 123456789
    assert shamir_combine({k: sh[k] for k in (2, 4, 5)}) == 123456789
    assert shamir_combine({k: sh[k] for k in (2, 4)}) != 123456789


def test_secure_aggregation_masks_cancel_and_tolerate_dropouts():
    ids = [1, 2, 3, 4, 5]
    clients = {i: SecAggClient(node=i, seed=11) for i in ids}
    pubs = {i: c.public_key() for i, c in clients.items()}
    for c in clients.values():
        c.set_peers(pubs)
    shares = {i: c.share_secret(ids, threshold=3) for i, c in clients.items()}  # shares[owner][holder]
    vecs = {i: RNG.uniform(-1, 1, 64).astype(np.float32) for i in ids}
    masked = {i: clients[i].encode(vecs[i]) for i in ids}
    # a single masked update reveals nothing useful: far from the true vector
    assert np.abs(clients[1].decode(masked[1]).view(np.int32) / 65536.0 - vecs[1]).mean() > 100
    total = secagg_unmask_sum(masked, pubs)
    np.testing.assert_allclose(total, sum(vecs.values()), atol=1e-4)
    # clients 2 and 5 drop after masking; 3 survivors hold shares of their secrets
    survivors = {i: masked[i] for i in (1, 3, 4)}
    with pytest.raises(ConfigError):
        secagg_unmask_sum(survivors, pubs)
    recovered = {d: {h: shares[d][h] for h in (1, 3, 4)} for d in (2, 5)}
    total = secagg_unmask_sum(survivors, pubs, recovered, holders=ids)
    np.testing.assert_allclose(total, vecs[1] + vecs[3] + vecs[4], atol=1e-4)


# -- data ----------------------------------------------------------------------

@pytest.mark.parametrize("name,n,k", [("digits", 1797, 10), ("iris", 150, 3), ("wine", 178, 3),
                                      ("breast_cancer", 569, 2)])
def test_sklearn_sources(name, n, k):
    x, y = SklearnSource(name).arrays()
    assert x.shape[0] == n and len(np.unique(y)) == k and x.dtype == np.float32
    assert x.min() >= 0.0 and x.max() <= 1.0
    assert isinstance(SklearnSource(name), DataSource)


def test_partitioners():
    x, y = SklearnSource("digits").arrays()
    for part in (IIDPartitioner(seed=1), DirichletPartitioner(alpha=0.5, seed=1), ShardPartitioner(seed=1)):
        parts = part.split(y, 20)
        allidx = np.concatenate(parts)
        assert len(parts) == 20 and len(allidx) == len(y) and len(np.unique(allidx)) == len(y)
        again = part.split(y, 20)
        assert all(np.array_equal(a, b) for a, b in zip(parts, again, strict=True))
    iid = IIDPartitioner(seed=1).split(y, 20)
    dirich = DirichletPartitioner(alpha=0.1, seed=1, min_size=5).split(y, 20)
    shards = ShardPartitioner(shards_per_client=2, seed=1).split(y, 20)
    assert min(len(p) for p in dirich) >= 5

    def label_entropy(parts):
        ent = []
        for p in parts:
            c = np.bincount(y[p], minlength=10) / len(p)
            c = c[c > 0]
            ent.append(-(c * np.log(c)).sum())
        return float(np.mean(ent))

    assert label_entropy(iid) > 2.1  # near log(10) = 2.30
    assert label_entropy(dirich) < 1.5
    assert max(len(np.unique(y[p])) for p in shards) <= 4
    subs = IIDPartitioner().subsets(x, y, 4)
    assert sum(len(s) for s in subs) == len(y)
    with pytest.raises(ConfigError):
        DirichletPartitioner(min_size=200).split(y, 20)


def test_array_source_snapshot_and_split():
    xs = RNG.standard_normal((30, 3))
    ys = RNG.integers(0, 3, 30)
    src = ArraySource(xs, ys)
    twin = from_snapshot(src.snapshot())
    np.testing.assert_array_equal(twin.arrays()[0], src.arrays()[0])
    np.testing.assert_array_equal(twin.arrays()[1], ys)
    xtr, ytr, xte, yte = train_test_split(xs, ys, 0.3, seed=0)
    assert len(ytr) + len(yte) == 30 and set(np.unique(yte)) <= set(np.unique(ys))
    with pytest.raises(ConfigError):
        ArraySource(xs, ys[:-1])


# -- liveness ------------------------------------------------------------------

def test_phi_accrual_detector():
    d = PhiAccrualDetector(threshold=8.0, min_std=0.1)
    assert d.phi(100.0) == 0.0
    t = 0.0
    for _ in range(50):
        d.heartbeat(t)
        t += 1.0
    last = t - 1.0
    assert d.phi(last + 0.5) < 0.5
    assert d.is_available(last + 1.1)
    phis = [d.phi(last + dt) for dt in (1.0, 1.2, 1.5, 2.0)]
    assert phis == sorted(phis) and phis[-1] > 8.0
    assert not d.is_available(last + 2.0)
    # a jittery peer is suspected later than a regular one for the same silence
    j = PhiAccrualDetector(min_std=0.1)
    rng = np.random.default_rng(0)
    t = 0.0
    for _ in range(50):
        j.heartbeat(t)
        t += float(rng.uniform(0.5, 1.5))
    assert j.phi(j.last + 1.5) < d.phi(last + 1.5)
    with pytest.raises(ConfigError):
        d.heartbeat(0.0)
    twin = from_snapshot(d.snapshot())
    assert twin.phi(last + 1.3) == d.phi(last + 1.3)


def test_liveness_table():
    tab = LivenessTable(threshold=5.0)
    for t in range(10):
        tab.heartbeat(1, float(t))
        if t < 5:
            tab.heartbeat(2, float(t))
    assert tab.alive(9.5) == [1] and tab.suspected(9.5) == [2]
    assert math.isinf(tab.phi(3, 9.5))
    twin = from_snapshot(tab.snapshot())
    assert twin.alive(9.5) == [1] and twin.phi(2, 9.5) == tab.phi(2, 9.5)
    tab.forget(2)
    assert tab.suspected(9.5) == []


# -- validation ----------------------------------------------------------------

def test_update_validation_typed_rejections():
    v = UpdateValidator(size=4, known_peers={1, 2, 3}, max_norm=10.0)
    good = np.ones(4, np.float32)
    assert isinstance(v.check(1, good), Accepted)
    cases = {
        RejectReason.UNKNOWN_PEER: (9, good),
        RejectReason.WRONG_DTYPE: (1, good.astype(np.float64)),
        RejectReason.WRONG_SHAPE: (1, np.ones(5, np.float32)),
        RejectReason.NON_FINITE: (1, np.array([1, np.nan, 1, 1], np.float32)),
        RejectReason.NORM_TOO_LARGE: (1, np.full(4, 100.0, np.float32)),
    }
    for reason, (sender, upd) in cases.items():
        res = v.check(sender, upd)
        assert isinstance(res, Rejection) and res.reason is reason and not res.ok
    assert v.check(1, [1.0, 1.0, 1.0, 1.0]).reason is RejectReason.WRONG_DTYPE
    assert v.check(1, good, round=3, current_round=4).reason is RejectReason.STALE_ROUND
    acc, rej = v.check_all([(1, good), (1, good * 2), (2, np.full(4, np.inf, np.float32)), (3, good)])
    assert [a.sender for a in acc] == [1, 3]
    assert [(r.sender, r.reason) for r in rej] == [(1, RejectReason.DUPLICATE), (2, RejectReason.NON_FINITE)]
    # accepted updates are copies: mutating the input does not change what gets aggregated
    good[0] = 123.0
    assert acc[0].update[0] == 1.0


# -- registry ------------------------------------------------------------------

def test_registry_and_snapshot_format():
    load_builtin_components()
    for tid in ("mean", "krum", "bulyan", "fedadam", "attack.alie", "peers", "codec.int8", "codec.topk",
                "codec.secagg", "data.sklearn", "partition.dirichlet", "liveness.phi", "liveness.table"):
        assert tid in REGISTRY and REGISTRY[tid].type_id == tid
    blob = pack_state({"a": 1}, {"z": np.arange(3, dtype=np.int16), "b": np.eye(2, dtype=np.float32)})
    assert blob == pack_state({"a": 1}, {"b": np.eye(2, dtype=np.float32), "z": np.arange(3, dtype=np.int16)})
    meta, arrays = unpack_state(blob)
    assert meta == {"a": 1} and arrays["z"].tolist() == [0, 1, 2]
    with pytest.raises(ConfigError):
        unpack_state(b"XXXX" + blob[4:])
    with pytest.raises(ConfigError):
        unpack_state(blob[:-3])
    with pytest.raises(ConfigError):
        Int8Codec().restore(TopKCodec().snapshot())


def test_liveness_table_suspected_equals_testing_every_detector():
    """The heap of suspicion instants answers as phi tested on every detector does, heartbeat by heartbeat
    (jittered intervals, peers that stop, come back, are forgotten; a query at an earlier time too)."""
    rng = np.random.default_rng(3)
    for threshold in (0.1, 1.0, 3.0, 8.0):
        tab = LivenessTable(threshold=threshold, min_std=0.05)
        t, asked = 0.0, 0
        quiet = {int(p): float(rng.uniform(2, 12)) for p in range(12)}  # each peer stops beating for a while
        for _ in range(1500):
            t += float(rng.exponential(0.02))
            p = int(rng.integers(0, 12))
            if not quiet[p] <= t < quiet[p] + 3.0:
                tab.heartbeat(p, t + float(rng.uniform(0, 0.01)) if tab.detectors.get(p) is None else
                              max(t, tab.detectors[p].last or 0.0))
            if rng.random() < 0.01:
                tab.forget(int(rng.integers(0, 12)))
            q = t - float(rng.uniform(0, 0.5)) if rng.random() < 0.05 else t
            brute = sorted(k for k, d in tab.detectors.items() if not d.is_available(q))
            assert tab.suspected(q) == brute, (threshold, q)
            asked += len(brute)
        assert asked > 100, asked  # the schedule does make peers suspected
