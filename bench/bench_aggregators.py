"""Aggregator time vs a plain numpy implementation of the same rule, and vs ByzPy 0.1.4.

Prints, per rule, the bb-edge time, the baseline's time and their ratio
(< 1 means bb-edge is faster). The ByzPy table runs ByzPy's own aggregators
on torch CPU tensors (its only backend) for trimmed mean, Krum and the
geometric median, with the parameters under which the two agree
(tests/learn/test_learn_byzpy_parity.py). No assertions: timings depend on the machine.

    python bench/bench_aggregators.py [--n 64] [--d 65536] [--repeat 5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bb_edge.learn import aggregators as A


def plain_trimmed_mean(mat: np.ndarray, f: int) -> np.ndarray:
    return np.sort(mat, axis=0)[f:len(mat) - f].mean(axis=0)


def plain_median(mat: np.ndarray) -> np.ndarray:
    return np.sort(mat, axis=0)[len(mat) // 2 - 1:len(mat) // 2 + 1].mean(axis=0) if len(mat) % 2 == 0 \
        else np.sort(mat, axis=0)[len(mat) // 2]


def plain_mean(mat: np.ndarray, w: np.ndarray) -> np.ndarray:
    return (mat * w[:, None]).sum(axis=0) / w.sum()


def plain_krum(mat: np.ndarray, f: int) -> np.ndarray:
    n = len(mat)
    d = np.array([[float(((mat[i] - mat[j]) ** 2).sum()) for j in range(n)] for i in range(n)])
    scores = [np.sort(np.delete(d[i], i))[: n - f - 2].sum() for i in range(n)]
    return mat[int(np.argmin(scores))]


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def byzpy_table(mat: np.ndarray, f: int, repeat: int) -> None:
    """Time ratio bb-edge / ByzPy on the same updates (skipped when ByzPy is not installed)."""
    try:
        import torch
        from byzpy.aggregators.coordinate_wise.trimmed_mean import CoordinateWiseTrimmedMean
        from byzpy.aggregators.geometric_wise.geometric_median import GeometricMedian
        from byzpy.aggregators.geometric_wise.krum import Krum
    except ImportError as exc:
        print(f"ByzPy not installed ({exc}); see .ci/pip-preinstall.sh")
        return
    ups = list(mat)
    tups = [torch.from_numpy(r.copy()) for r in mat]
    gm_ours = A.GeometricMedian(init="median", max_iter=100, tol=1e-6)
    cases = [
        (f"trimmed_mean(f={f})", lambda: A.TrimmedMean(f=f).aggregate(ups),
         lambda: CoordinateWiseTrimmedMean(f=f).aggregate(tups), 1e-5),
        (f"krum(f={f})", lambda: A.Krum(f=f, neighbours="byzpy").aggregate(ups),
         lambda: Krum(f=f).aggregate(tups), 0.0),
        ("geometric_median", lambda: gm_ours.aggregate(ups),
         lambda: GeometricMedian(init="median", max_iter=100, tol=1e-6).aggregate(tups), 1e-3),
    ]
    print(f"\nvs ByzPy 0.1.4 (torch {torch.__version__}, {torch.get_num_threads()} threads)")
    print(f"{'rule':<22}{'bb-edge ms':>12}{'ByzPy ms':>12}{'ratio':>8}  same result")
    for name, ours, theirs, tol in cases:
        a, b = np.asarray(ours(), np.float64), theirs().numpy().astype(np.float64)
        ok = np.array_equal(a, b) if tol == 0.0 else np.allclose(a, b, atol=tol, rtol=tol)
        t_ours = best_of(ours, repeat)
        t_theirs = best_of(theirs, repeat)
        print(f"{name:<22}{t_ours * 1e3:>12.1f}{t_theirs * 1e3:>12.1f}{t_ours / t_theirs:>8.2f}  {ok}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--d", type=int, default=65_536)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    mat = rng.standard_normal((args.n, args.d)).astype(np.float32)
    ups = list(mat)
    w = rng.uniform(1, 10, args.n)
    f = args.n // 8
    cases = [
        (f"trimmed_mean(f={f})", lambda: A.TrimmedMean(f=f).aggregate(ups), lambda: plain_trimmed_mean(mat, f),
         lambda a, b: np.allclose(a, b, atol=1e-5)),
        ("median", lambda: A.Median().aggregate(ups), lambda: plain_median(mat),
         lambda a, b: np.allclose(a, b, atol=1e-6)),
        ("mean (weighted)", lambda: A.Mean().aggregate(ups, w), lambda: plain_mean(mat, w),
         lambda a, b: np.allclose(a, b, atol=1e-5)),
        (f"krum(f={f})", lambda: A.Krum(f=f).aggregate(ups), lambda: plain_krum(mat, f),
         lambda a, b: np.array_equal(a, b)),
    ]
    print(f"n={args.n} updates x d={args.d}, float32, best of {args.repeat}")
    print(f"{'rule':<22}{'bb-edge ms':>12}{'numpy ms':>12}{'ratio':>8}  same result")
    for name, ours, plain, same in cases:
        ok = same(ours(), plain())
        t_ours = best_of(ours, args.repeat)
        t_plain = best_of(plain, args.repeat)
        print(f"{name:<22}{t_ours * 1e3:>12.1f}{t_plain * 1e3:>12.1f}{t_ours / t_plain:>8.2f}  {ok}")
    byzpy_table(mat, f, args.repeat)


if __name__ == "__main__":
    main()
