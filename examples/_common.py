"""Shared by the examples: argument parsing, writing a learning deployment, running it like `bb-edge run`."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.adapters.learn.simulator import SimResult, simulate, write_curves  # noqa: E402
from bb_edge.cli import format_error  # noqa: E402
from bb_edge.errors import BBError  # noqa: E402
from bb_edge.training.setup import write_learning_deployment  # noqa: E402


def _one_line_errors(kind: type[BaseException], exc: BaseException, tb: Any) -> None:
    """bb-edge's errors (and a missing module) as the CLI prints them, one line; tracebacks with BB_EDGE_DEBUG=1."""
    if isinstance(exc, BBError | ModuleNotFoundError) and not os.environ.get("BB_EDGE_DEBUG"):
        print(format_error(exc), file=sys.stderr)
    else:
        sys.__excepthook__(kind, exc, tb)


sys.excepthook = _one_line_errors


def parser(description: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--summary", help="write the final figures as JSON here")
    p.add_argument("--curves", help="write training curves (PNG) here")
    p.add_argument("--out", help="directory for the learning deployment (default: a temporary one)")
    p.add_argument("--seed", type=int, default=0)
    return p


def run(learning: dict[str, Any], args: argparse.Namespace, model: Any = None, keep: bool = True,
        **kw: Any) -> SimResult:
    """Write the deployment (deployment.json + model.onnx: ``model``, else the default MLP) and simulate it as
    `bb-edge run DIR` would; ``keep=False`` runs it in a scratch directory even when --out is given."""
    if not args.out or not keep:  # a scratch directory, removed on exit
        with tempfile.TemporaryDirectory(prefix="bb-learn-") as scratch:
            write_learning_deployment(Path(scratch), learning, model=model)
            print("deployment: a temporary directory" + (" (--out keeps the first run)" if args.out else
                                                          " (keep it with --out DIR, then `bb-edge run DIR`)"))
            return simulate(learning, Path(scratch), seed=args.seed, **kw)
    d = Path(args.out)
    write_learning_deployment(d, learning, model=model)
    print(f"deployment: {d} (also runnable as `bb-edge run {d} --summary s.json`)")
    return simulate(learning, d, seed=args.seed, **kw)


def finish(args: argparse.Namespace, summary: dict[str, Any], curves: dict[str, SimResult]) -> None:
    if args.summary:
        Path(args.summary).write_text(json.dumps(summary, indent=1) + "\n")
        print(f"summary: {args.summary}")
    if args.curves:
        write_curves(curves, args.curves)
        print(f"curves: {args.curves}")
