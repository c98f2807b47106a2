"""``bb-edge demo``: train a digits classifier, split it over three nodes, show predictions and accuracy."""

from __future__ import annotations

import argparse
from pathlib import Path

from bb_edge.commands._args import positive_int


def _run(args: argparse.Namespace) -> int:
    from bb_edge.adapters.demo import run_demo

    result = run_demo(Path(args.output) if args.output else None, requests=args.requests, epochs=args.epochs,
                      seed=args.seed, native=not args.no_native)
    # non-zero when the split is not exact or the trained classifier is not useful (< 0.9 held out)
    return 0 if result.ok else 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``demo`` subcommand."""
    p = sub.add_parser(
        "demo", help="train a digits classifier, split it over three nodes (one on the C runtime), check it",
        description="Train an MLP on the 8x8 digits shipped with bb-edge using bb-edge's own ONNX training "
                    "program, compile it into sensor -> gateway -> cloud, run the held-out digits through the "
                    "fleet, check the split against one ONNX Runtime session and print the accuracy. With make "
                    "and a C compiler the sensor also runs as an int8 .bbrt program on the host C runtime.")
    p.add_argument("-o", "--output", help="keep the trained model, calibration/input files, the compiled "
                                          "deployment and the sensor build here (default: a temp dir)")
    p.add_argument("--requests", type=positive_int, default=None,
                   help="held-out digits to run (default: all 450)")
    p.add_argument("--epochs", type=positive_int, default=12, help="training epochs (default 12)")
    p.add_argument("--seed", type=int, default=0, help="seed for the split, the weights and the batches")
    p.add_argument("--no-native", action="store_true",
                   help="keep every node on ONNX Runtime (skip the int8 C-runtime sensor)")
    p.set_defaults(func=_run)
