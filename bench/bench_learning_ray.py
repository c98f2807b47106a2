"""Seconds per FedAvg round and peak PSS of the whole process tree: in-process simulator vs Ray local.

Each (mode, fleet size) runs in a fresh child process. ``inproc`` is the plain
simulator (bb_edge/adapters/learn/simulator.py); ``ray`` is the same simulator with the
clients' training on a Ray cluster started inside the child (``ray.init``
with ``--cpus`` CPUs, its own temp dir), batched by bb_edge/adapters/learn/ray_cluster.py.
This script samples the PSS of the child and all its descendants (Ray's GCS,
raylet, workers) from /proc every ``--sample`` seconds and keeps the peak.
Seconds per round exclude set-up and the first round (worker start-up).
Prints a table and the ratios against the in-process baseline (each row as
soon as it is measured), then per fleet size the per-client overhead: Ray's
round minus the in-process one, the driver's part of a Ray round, and the
CPU the Ray tasks took per client on the workers; asserts nothing. Both
modes give the same model bytes (tests/learn/test_learn_ray.py).

    python bench/bench_learning_ray.py [--sizes 1000 10000 100000] [--rounds 3] [--cpus 2]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def digits_npz(path: Path, rows: int) -> None:
    """Digits scaled to [0, 1], the training part tiled to ``rows`` rows with small noise (every
    client gets the same number of samples at every fleet size); the held-out part kept as the test set."""
    import numpy as np

    from bb_edge.learn.data import bundled_dataset  # scikit-learn's digits, shipped in the package

    data, y = bundled_dataset("digits")
    x = (data / 16.0).astype(np.float32)
    rng = np.random.default_rng(0)
    order = rng.permutation(len(y))
    test, train = order[:450], order[450:]
    idx = np.resize(train, rows)
    xt = np.clip(x[idx] + rng.normal(0, 0.02, (rows, x.shape[1])).astype(np.float32), 0, 1)
    np.savez(path, x=xt, y=y[idx], x_test=x[test], y_test=y[test])


def one(mode: str, n: int, rounds: int, cpus: int, per_client: int) -> dict[str, float]:
    """Run one (mode, size) in this process; its figures."""
    from bb_edge.adapters.learn.simulator import simulate

    scratch = Path(tempfile.mkdtemp(prefix="bbbench"))
    data = scratch / "digits.npz"
    digits_npz(data, per_client * n)
    cfg = {"strategy": "fedavg", "clients": n, "rounds": rounds, "epochs": 1, "batch_size": 16,
           "data": {"source": str(data), "partition": {"type": "partition.iid"}}}
    rc = None
    if mode == "ray":
        import ray

        from bb_edge.adapters.learn.ray_cluster import RayClientCompute

        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        tmp = str(scratch / "ray")
        ray.init(address="local", num_cpus=cpus, include_dashboard=False, _temp_dir=tmp,
                 object_store_memory=1 << 30, log_to_driver=False)
        rc = RayClientCompute()
    t0 = time.perf_counter()
    try:
        res = simulate(cfg, seed=0, client_compute=rc)
    finally:
        if rc is None:
            shutil.rmtree(scratch, ignore_errors=True)
    total = time.perf_counter() - t0
    walls = [r.wall_time for r in res.records]
    out = {"clients": n, "s_per_round": (walls[-1] - walls[0]) / max(len(walls) - 1, 1), "total_s": total,
           "first_round_done_s": walls[0],
           "accuracy": res.final_accuracy, "remote_s_per_round": 0.0, "tasks_per_round": 0.0,
           "task_cpu_s_per_round": 0.0}
    if rc is not None:
        s = rc.seconds[1:] or rc.seconds
        out["remote_s_per_round"] = sum(s) / max(len(s), 1)
        c = rc.cpu_seconds[1:] or rc.cpu_seconds
        out["task_cpu_s_per_round"] = sum(c) / max(len(c), 1)
        out["tasks_per_round"] = rc.tasks / max(rc.rounds, 1)
        import ray

        ray.shutdown()
        shutil.rmtree(scratch, ignore_errors=True)
    return out


def tree_pss_mb(root: int) -> float:
    """PSS (MiB) of ``root`` and every descendant, from /proc."""
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(d))
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        total += float(line.split()[1]) / 1024
                        break
        except OSError:
            continue
    return total


def measure(mode: str, n: int, rounds: int, cpus: int, sample: float, per_client: int) -> dict[str, float]:
    """Run a child for (mode, n), sampling its process tree's PSS; the child's figures plus the peak."""
    proc = subprocess.Popen([sys.executable, __file__, "--one", mode, str(n), "--rounds", str(rounds),
                             "--cpus", str(cpus), "--per-client", str(per_client)], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    peak = [0.0]

    def sampler() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], tree_pss_mb(proc.pid))
            time.sleep(sample)

    th = threading.Thread(target=sampler, daemon=True)
    th.start()
    out, _ = proc.communicate()
    th.join()
    if proc.returncode != 0:
        raise SystemExit(f"{mode} x{n} failed ({proc.returncode})")
    r: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    r["peak_pss_mb"] = peak[0]
    return r


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray cluster")
    ap.add_argument("--per-client", type=int, default=2, help="training samples per client (digits, tiled)")
    ap.add_argument("--sample", type=float, default=0.5, help="PSS sampling period (s)")
    ap.add_argument("--one", nargs=2, help=argparse.SUPPRESS)  # child mode: MODE SIZE, JSON on stdout
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]), args.rounds, args.cpus, args.per_client)))
        sys.exit(0)
    print(f"{'clients':>8} {'mode':>7} {'set-up+round 1 s':>17} {'s/round':>9} {'ms/client-round':>16} "
          f"{'remote s/round':>15} "
          f"{'tasks/round':>12} {'peak PSS MB':>12} {'accuracy':>9} {'s/round vs inproc':>18}")
    crossover = None
    for n in args.sizes:
        base = measure("inproc", n, args.rounds, args.cpus, args.sample, args.per_client)
        ray_: dict[str, float] = {}
        # each row as soon as it is measured: a long Ray run stopped by hand keeps the baseline's row
        for mode in ("inproc", "ray"):
            r = base if mode == "inproc" else measure("ray", n, args.rounds, args.cpus, args.sample, args.per_client)
            if mode == "ray":
                ray_ = r
            print(f"{n:>8} {mode:>7} {r['first_round_done_s']:>17.1f} {r['s_per_round']:>9.3f} "
                  f"{r['s_per_round'] / n * 1e3:>16.3f} "
                  f"{r['remote_s_per_round']:>15.3f} {r['tasks_per_round']:>12.1f} {r['peak_pss_mb']:>12.1f} "
                  f"{r['accuracy']:>9.4f} {r['s_per_round'] / base['s_per_round']:>17.2f}x", flush=True)
        # per-client overhead of the Ray path: what it adds per client beyond the in-process round,
        # the driver's remaining per-client work (handlers, aggregation) outside the remote wait, and
        # the CPU the tasks spent per client on the workers (training, encoding, (de)serialising)
        extra = (ray_["s_per_round"] - base["s_per_round"]) / n * 1e3
        driver = (ray_["s_per_round"] - ray_["remote_s_per_round"]) / n * 1e3
        cpu = ray_["task_cpu_s_per_round"] / n * 1e3
        print(f"{'':>8} Ray - inproc: {extra:+.3f} ms per client-round; driver part of a Ray round "
              f"{driver:.3f} ms per client; task CPU {cpu:.3f} ms per client on the workers "
              f"(remote wall x {args.cpus} CPUs: {ray_['remote_s_per_round'] * args.cpus / n * 1e3:.3f}); "
              f"PSS x{ray_['peak_pss_mb'] / max(base['peak_pss_mb'], 1):.2f}", flush=True)
        if crossover is None and ray_["s_per_round"] < base["s_per_round"]:
            crossover = n
    print(f"crossover (Ray faster per round): {crossover if crossover else 'not reached at these sizes'}")
