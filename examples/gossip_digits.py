"""Gossip learning (age-weighted merging) vs FedAvg on uniform digits, compared at equal bytes sent.

    python examples/gossip_digits.py --summary out.json [--curves curves.png]
"""

from __future__ import annotations

from _common import finish, parser, run

BASE = {"clients": 20, "epochs": 1, "batch_size": 8, "data": {"partition": {"type": "partition.iid"}}}

if __name__ == "__main__":
    args = parser(__doc__).parse_args()
    fed = run({**BASE, "strategy": "fedavg", "rounds": 20}, args)
    gos = run({**BASE, "strategy": "gossip", "rounds": 44, "period": 1.0}, args)
    at = [r for r in gos.records if r.bytes_total <= fed.bytes_total][-1]
    print(f"fedavg {fed.final_accuracy:.4f} at {fed.bytes_total:,} B; "
          f"gossip {at.accuracy:.4f} at {at.bytes_total:,} B (period {at.round})")
    finish(args, {**gos.summary(), "fedavg": fed.summary(), "gossip_accuracy_at_fedavg_bytes": at.accuracy,
                  "fedavg_accuracy": fed.final_accuracy}, {"fedavg": fed, "gossip": gos})
