"""``bb-edge targets``: list the target profiles and families with a one-line summary each."""

from __future__ import annotations

import argparse

from rich import box
from rich.console import Console
from rich.table import Table

from bb_edge.targets import families, list_targets, load_target


def _ram(n: int) -> str:
    if n >= 2**30:
        return f"{n / 2**30:.0f} GiB"
    return f"{n / 2**20:.0f} MiB" if n >= 2**20 else f"{n / 1024:.0f} KiB"


def targets_table(width: int) -> Table:
    """One row per profile for a ``width``-column terminal.

    Names and families never wrap or shorten (their columns are as wide as
    their longest value); only the summary wraps. Builder and arch columns
    are added when the terminal has room for them (>= 120 columns).
    """
    defaults = {members[0] for members in families().values()}
    profiles = [load_target(name) for name in list_targets()]
    # the default mark goes on the family, so the name column holds exactly what --target takes
    rows = [{"name": p.name, "family": (p.family + ("*" if p.name in defaults else "")) if p.family else "-",
             "builder": p.builder, "arch": p.arch, "RAM": _ram(p.ram_bytes), "summary": p.summary}
            for p in profiles]
    fixed = ["name", "family", "builder", "arch", "RAM"] if width >= 120 else ["name", "family", "RAM"]
    table = Table(title="target profiles (family* = the profile --target FAMILY picks)",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    for col in fixed:
        longest = max([len(col), *(len(r[col]) for r in rows)])
        table.add_column(col, no_wrap=True, min_width=longest, max_width=longest)
    table.add_column("summary", overflow="fold", ratio=1)
    for r in rows:
        table.add_row(*(r[c] for c in fixed), r["summary"])
    return table


def _run(args: argparse.Namespace) -> int:
    console = Console()
    console.print(targets_table(console.width))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``targets`` subcommand."""
    p = sub.add_parser("targets", help="list target profiles and families")
    p.set_defaults(func=_run)
