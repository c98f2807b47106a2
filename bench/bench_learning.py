"""Seconds per FedAvg round at 10, 100 and 1,000 virtual clients in one process, and peak memory.

One ONNX Runtime session for the training program is shared by every
simulated client (``attach_compute``). Prints figures; asserts nothing.

    python bench/bench_learning.py [--sizes 10 100 1000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.adapters.learnsim import simulate  # noqa: E402

if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--strategy", default="fedavg")
    args = ap.parse_args()
    print(f"{'clients':>8} {'s/round':>9} {'s/client-round':>15} {'KiB/node':>9} {'peak MB':>8} {'accuracy':>9}")
    base = None
    for n in args.sizes:
        cfg = {"strategy": args.strategy, "clients": n, "rounds": args.rounds, "epochs": 1, "batch_size": 16,
               "data": {"partition": {"type": "partition.iid"}}}
        res = simulate(cfg, seed=0, measure_memory=True)
        walls = [r.wall_time for r in res.records]
        per_round = (walls[-1] - walls[0]) / max(len(walls) - 1, 1)  # excludes setup and the first round
        base = base or per_round / n
        print(f"{n:>8} {per_round:>9.3f} {per_round / n * 1e3:>12.3f} ms {res.bytes_per_node / 1024:>9.1f} "
              f"{res.peak_memory_mb or 0:>8.1f} {res.final_accuracy:>9.4f}  "
              f"(per-client cost x{per_round / n / base:.2f} of the smallest)")
