"""FedAvg on digits: 20 clients with Dirichlet(0.5) data, 30 rounds, raw and int8 updates.

    python examples/federated_digits.py --summary out.json [--curves curves.png]
"""

from __future__ import annotations

from _common import finish, parser, run

LEARNING = {"strategy": "fedavg", "clients": 20, "rounds": 30, "epochs": 2, "batch_size": 8,
            "optimizer": {"kind": "sgd", "lr": 0.05, "momentum": 0.9},
            "data": {"source": "digits", "partition": {"type": "partition.dirichlet", "alpha": 0.5}}}

if __name__ == "__main__":
    args = parser(__doc__).parse_args()
    raw = run(LEARNING, args)
    q = run({**LEARNING, "codec": {"type": "codec.int8"}}, args)
    for name, r in (("float32", raw), ("int8", q)):
        print(f"{name:8s} accuracy {r.final_accuracy:.4f}  bytes {r.bytes_total:,}  {r.wall_time:.1f} s")
    summary = {**raw.summary(), "int8": q.summary(), "int8_bytes_ratio": raw.bytes_total / q.bytes_total}
    finish(args, summary, {"fedavg": raw, "fedavg int8": q})
