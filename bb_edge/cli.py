"""The ``bb-edge`` command line: one subcommand per module in :mod:`bb_edge.commands`.

Each module there defines ``register(subparsers)`` which adds its parser and
sets ``func`` to a callable taking the parsed namespace and returning an exit
code. Adding a command is adding a file.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from rich.console import Console

import bb_edge.commands
from bb_edge.errors import BBError


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every discovered subcommand."""
    parser = argparse.ArgumentParser(
        prog="bb-edge", description="Run one ML workload across a mixed edge fleet."
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(bb_edge.commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"bb_edge.commands.{info.name}")
        mod.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``bb-edge`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        from bb_edge import __version__

        print(__version__)
        return 0
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except BBError as exc:
        Console(stderr=True).print(f"[bold red]error[/]: {type(exc).__name__}: {exc}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
