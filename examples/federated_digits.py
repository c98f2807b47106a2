"""FedAvg on digits: 20 clients with Dirichlet(0.5) data, 30 rounds, raw and int8 updates.

    python examples/federated_digits.py --summary out.json [--curves curves.png] [--out DIR]

``--out DIR`` keeps the float32 run's deployment (the int8 run uses a scratch directory), ready for
``bb-edge run DIR``. ``--mcu`` makes it one a microcontroller client can join (``bb-edge run DIR ...
--processes --target c2=qemu-cortex-m3``): softmax regression (650 parameters, fits a Cortex-M3's
64 KiB) instead of the 64-32-10 MLP, a 60 s round timeout (an emulated M3 trains a round in seconds),
and no int8 run. ``--clients`` and ``--rounds`` shrink the run.
"""

from __future__ import annotations

from _common import finish, parser, run

LEARNING = {"strategy": "fedavg", "clients": 20, "rounds": 30, "epochs": 2, "batch_size": 8,
            "optimizer": {"kind": "sgd", "lr": 0.05, "momentum": 0.9},
            "data": {"source": "digits", "partition": {"type": "partition.dirichlet", "alpha": 0.5}}}

if __name__ == "__main__":
    p = parser(__doc__)
    p.add_argument("--mcu", action="store_true",
                   help="a deployment MCU clients can join: softmax regression, float32 updates only")
    p.add_argument("--clients", type=int, default=LEARNING["clients"], help="clients (default 20)")
    p.add_argument("--rounds", type=int, default=LEARNING["rounds"], help="rounds (default 30)")
    args = p.parse_args()
    learning = {**LEARNING, "clients": args.clients, "rounds": args.rounds, "seed": args.seed}
    model = None
    if args.mcu:
        from bb_edge.training.models import mlp

        model = mlp([64, 10], seed=args.seed)  # softmax regression: what a 64 KiB client trains
        # an emulated M3 trains a 500-row shard's round in seconds: the server waits for it (not 5 s)
        learning["round_timeout"] = 60.0
    raw = run(learning, args, model=model)
    runs = {"float32": raw}
    summary = raw.summary()
    if not args.mcu:  # int8 updates: a codec MCU clients refuse (they send raw float32), so not in --out
        q = run({**learning, "codec": {"type": "codec.int8"}}, args, keep=False)
        runs["int8"] = q
        summary = {**summary, "int8": q.summary(), "int8_bytes_ratio": raw.bytes_total / q.bytes_total}
    for name, r in runs.items():
        print(f"{name:8s} accuracy {r.final_accuracy:.4f}  bytes {r.bytes_total:,}  {r.wall_time:.1f} s")
    finish(args, summary, {f"fedavg {k}" if k != "float32" else "fedavg": r for k, r in runs.items()})
