"""Seconds per FedAvg round at 10, 100 and 1,000 virtual clients in one process, and the process's memory.

One ONNX Runtime session for the training program is shared by every
simulated client (``attach_compute``). Each fleet size runs in a fresh
Python process, so its peak RSS (``VmHWM``) and peak PSS (sampled from
/proc at every round) belong to that run alone; no tracemalloc (it slows a
1,000-client run several times and sees only the Python heap). Bytes per
node are sent + received by the clients (the server excluded). Prints
figures; asserts nothing. ``--per-client K`` trains on digits tiled to K
samples per client (bench_learning_ray.py's data), so sizes past the 1,347
digits training rows (10,000, 100,000 clients) run too; without it every size
splits the plain digits training set.

    python bench/bench_learning.py [--sizes 10 100 1000] [--rounds 3] [--per-client 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_learning_ray.digits_npz


def one(n: int, rounds: int, strategy: str, per_client: int = 0) -> dict[str, float]:
    """Run one fleet size in this process and return its figures."""
    import tempfile

    from bb_edge.adapters.learn.simulator import simulate

    data: dict[str, object] = {"partition": {"type": "partition.iid"}}
    scratch = tempfile.TemporaryDirectory(prefix="bbbench")
    if per_client:
        from bench_learning_ray import digits_npz

        digits_npz(Path(scratch.name) / "digits.npz", per_client * n)
        data["source"] = str(Path(scratch.name) / "digits.npz")
    cfg = {"strategy": strategy, "clients": n, "rounds": rounds, "epochs": 1, "batch_size": 16, "data": data}
    t0 = time.perf_counter()
    with scratch:
        res = simulate(cfg, seed=0, measure_memory=True)
    walls = [r.wall_time for r in res.records]
    per_round = (walls[-1] - walls[0]) / max(len(walls) - 1, 1)  # excludes setup and the first round
    return {"clients": n, "s_per_round": per_round, "setup_and_round1_s": walls[0] if walls else 0.0,
            "total_s": time.perf_counter() - t0, "kib_per_node": res.bytes_per_node / 1024,
            "peak_rss_mb": res.peak_memory_mb or 0.0, "peak_pss_mb": res.peak_pss_mb or 0.0,
            "accuracy": res.final_accuracy}


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--strategy", default="fedavg")
    ap.add_argument("--per-client", type=int, default=0, help="digits tiled to this many samples per client")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)  # child mode: one size, JSON on stdout
    args = ap.parse_args()
    if args.one is not None:
        print(json.dumps(one(args.one, args.rounds, args.strategy, args.per_client)))
        sys.exit(0)
    print(f"{'clients':>8} {'set-up+round 1 s':>17} {'s/round':>9} {'s/client-round':>15} {'KiB/node':>9} "
          f"{'peak RSS MB':>12} {'peak PSS MB':>12} {'accuracy':>9}")
    base = None
    for n in args.sizes:
        out = subprocess.run([sys.executable, __file__, "--one", str(n), "--rounds", str(args.rounds),
                              "--strategy", args.strategy, "--per-client", str(args.per_client)],
                             capture_output=True, text=True, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        per_round = r["s_per_round"]
        base = base or per_round / n
        print(f"{n:>8} {r['setup_and_round1_s']:>17.1f} {per_round:>9.3f} {per_round / n * 1e3:>12.3f} ms "
              f"{r['kib_per_node']:>9.1f} {r['peak_rss_mb']:>12.1f} {r['peak_pss_mb']:>12.1f} {r['accuracy']:>9.4f}  "
              f"(per-client cost x{per_round / n / base:.2f} of the smallest)", flush=True)
