"""``bb-edge demo``: a small self-explaining split-inference run, in-process, no servers."""

from __future__ import annotations

import argparse
from pathlib import Path


def _run(args: argparse.Namespace) -> int:
    from bb_edge.adapters.demo import run_demo

    figures = run_demo(Path(args.output) if args.output else None, requests=args.requests)
    return 0 if figures["max_abs_error"] <= 1e-5 else 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``demo`` subcommand."""
    p = sub.add_parser("demo", help="split-inference demo on three in-process nodes")
    p.add_argument("-o", "--output", help="keep the compiled deployment here (default: a temp dir)")
    p.add_argument("--requests", type=int, default=16, help="images to run")
    p.set_defaults(func=_run)
