"""A FedAvg federation through a 5-minute broker outage and a 5-minute client partition (issue 28).

The scenario of tests/learn/test_learn_partitions.py (tests/support/partitions.py) at the issue's full
length: Mosquitto with persistence stopped for OUTAGE seconds after round 2 and started again on the
same port, then client c1 SIGSTOPped for PARTITION seconds, 3 clients, 40 completed rounds. Prints how
many rounds aborted in each fault, how long the federation took to complete a round after each, and
whether the final model equals FedAvg's rule recomputed from the completed rounds.

Run: PYTHONPATH=. python bench/bench_partitions.py [--outage 300] [--partition 300]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.partitions import run_partitions  # noqa: E402


def main() -> None:
    """Run the scenario once and print one table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--outage", type=float, default=300.0, help="seconds the broker is down")
    ap.add_argument("--partition", type=float, default=300.0, help="seconds client c1 is cut off")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        r = run_partitions(Path(tmp), args.outage, args.partition)
    ok = r.final is not None and r.expected is not None and bool(np.allclose(r.final, r.expected, atol=1e-5))
    print("| fault | length | rounds aborted | first completed round after | nodes exited |")
    print("|---|---:|---:|---:|---|")
    exited = ", ".join(r.exited) or "none"
    print(f"| broker outage | {args.outage:.0f} s | {r.outage_aborted} | {r.recover_s:.1f} s | {exited} |")
    print(f"| client c1 partitioned | {args.partition:.0f} s | {r.cut_aborted} | {r.rejoin_s:.1f} s | |")
    print(f"\n{len(r.completed)} rounds completed (last numbered {r.completed[-1] if r.completed else '-'}), "
          f"every one with its whole cohort: {all(a == c == r.clients for a, c in r.cohorts)}; "
          f"final model = FedAvg's rule over them: {ok}")


if __name__ == "__main__":
    main()
