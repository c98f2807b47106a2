"""``bb-edge flash NODE_BUILD --port PORT [--program-only] [--dry-run]``: write an ESP32 node with esptool."""

from __future__ import annotations

import argparse

from rich.console import Console


def _run(args: argparse.Namespace) -> int:
    from bb_edge.bbrt.flash import flash

    lines = flash(args.build, args.port, program_only=args.program_only, dry_run=args.dry_run, baud=args.baud)
    for line in lines:
        print(line) if args.dry_run else Console().print(f"[green]flashed[/] {line}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``flash`` subcommand."""
    p = sub.add_parser("flash", help="flash an ESP32 node build (firmware + program, or the program only)")
    p.add_argument("build", help="a node build directory (DIST/<node>) made for esp32, esp32s3 or esp32c3")
    p.add_argument("--port", required=True, help="serial port of the board, e.g. /dev/ttyUSB0")
    p.add_argument("--program-only", action="store_true",
                   help="write only the .bbrt program partition (a new model, same firmware)")
    p.add_argument("--dry-run", action="store_true", help="print the exact esptool commands, run nothing")
    p.add_argument("--baud", type=int, help="flashing baud rate (default: the target profile's)")
    p.set_defaults(func=_run)
