"""``bb-edge targets``: list the target profiles with a one-line summary each."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from bb_edge.targets import list_targets, load_target


def _run(args: argparse.Namespace) -> int:
    table = Table(title="target profiles")
    for col in ("name", "builder", "runtime", "arch", "RAM", "summary"):
        table.add_column(col)
    for name in list_targets():
        p = load_target(name)
        ram = f"{p.ram_bytes / 2**20:.1f} MiB" if p.ram_bytes >= 2**20 else f"{p.ram_bytes / 1024:.0f} KiB"
        table.add_row(p.name, p.builder, p.runtime, p.arch, ram, p.summary)
    Console().print(table)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``targets`` subcommand."""
    p = sub.add_parser("targets", help="list target profiles")
    p.set_defaults(func=_run)
