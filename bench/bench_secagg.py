"""Cost of secure aggregation per FedAvg round, relative to plain FedAvg, in-process (the simulator).

Runs the same digits FedAvg deployment (Dirichlet 0.5) three times on the
simulator's virtual clock: plain (the in-process baseline), with secure
aggregation (``secagg``, threshold n/2+1, X25519 + AES-GCM, double masking),
with secure aggregation where two clients drop out after sharing (``withhold``:
the server rebuilds their s-keys from the survivors' shares), and with one
client sealing garbage share boxes (``garble``: dropped as ``bad_share``). The
runs are interleaved ``--repeat`` times and each one's fastest repetition is
kept. Time is this process's CPU seconds per round (``time.process_time``:
what other processes on a shared machine do is not counted; the simulator is
one process, so that is every node's compute). Prints CPU seconds and bytes
sent per round for each, their ratios to the plain run, the bytes per client
and round beyond plain FedAvg's, and the final accuracies. On a real fleet the
extra phases also cost round trips. Prints figures; asserts nothing.

    python bench/bench_secagg.py [--clients 10] [--rounds 5] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def run(cfg: dict[str, Any]) -> tuple[float, float, float]:
    """(CPU seconds per round, bytes per round, final accuracy) of one simulated run."""
    from bb_edge.adapters.learn.simulator import simulate

    t0 = time.process_time()
    res = simulate(cfg)
    cpu = time.process_time() - t0
    rounds = max(len(res.records), 1)
    return cpu / rounds, res.bytes_total / rounds, res.final_accuracy


def main() -> None:
    """Run plain, secure and secure-with-dropouts; print per-round figures and ratios."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    base = {"strategy": "fedavg", "clients": a.clients, "rounds": a.rounds, "seed": 5,
            "data": {"source": "digits", "partition": {"type": "partition.dirichlet", "alpha": 0.5}}}
    run({**base, "rounds": 1})  # warm-up: imports and program preparation are not a round's cost
    t = a.clients // 2 + 1
    runs = {"plain (baseline)": base, f"secagg t={t}": {**base, "secagg": {"threshold": t}},
            "secagg, 2 dropouts": {**base, "secagg": {"threshold": t, "withhold": ["c0", "c1"]}},
            "secagg, 1 garbling client": {**base, "secagg": {"threshold": t, "garble": ["c2"]}}}
    best: dict[str, tuple[float, float, float]] = {}
    for _ in range(a.repeat):
        for name, cfg in runs.items():
            got = run(cfg)
            if name not in best or got[0] < best[name][0]:
                best[name] = got
    plain = best["plain (baseline)"]
    print(f"FedAvg digits, {a.clients} clients, {a.rounds} rounds, in-process (simulator)")
    print(f"{'run':<28}{'cpu s/rnd':>10}{'KiB/round':>12}{'time x':>9}{'bytes x':>9}{'+B/client':>11}"
          f"{'accuracy':>10}")
    for name, (s, b, acc) in best.items():
        extra = (b - plain[1]) / a.clients  # the protocol's bytes per client and round beyond plain FedAvg's
        print(f"{name:<28}{s:>10.3f}{b / 1024:>12.1f}{s / plain[0]:>9.2f}{b / plain[1]:>9.2f}{extra:>11.0f}"
              f"{acc:>10.4f}")


if __name__ == "__main__":
    main()
