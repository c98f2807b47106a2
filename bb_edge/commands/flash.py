"""``bb-edge flash NODE_BUILD --port PORT [--program-only] [--dry-run]``: write an ESP32 node with esptool
(offsets from the node's ``esp-idf/partitions.csv``; docs/targets.md "``bb-edge flash``")."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console

from bb_edge.commands._args import positive_int
from bb_edge.paths import check_input_path


def _is_micropython_bundle(build: str) -> bool:
    info = Path(build) / "build.json"
    if not info.is_file():
        return False
    try:
        return bool(json.loads(info.read_text()).get("builder") == "micropython")
    except (OSError, json.JSONDecodeError):
        return False


def _run(args: argparse.Namespace) -> int:
    check_input_path(args.build, "flash", want_dir=True)
    if args.target == "esp32-micropython" or (args.target is None and _is_micropython_bundle(args.build)):
        from bb_edge.mpy.flash import flash as mpy_flash

        lines = mpy_flash(args.build, args.port, dry_run=args.dry_run)
    else:
        from bb_edge.bbrt.flash import flash

        lines = flash(args.build, args.port, program_only=args.program_only, dry_run=args.dry_run,
                      baud=args.baud)
    for line in lines:
        print(line) if args.dry_run else Console().print(f"[green]flashed[/] {line}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``flash`` subcommand."""
    p = sub.add_parser("flash", help="flash an ESP32 node build (firmware, NVS image and program, or the program only)")
    p.add_argument("build", help="a node build directory (DIST/<node>) made for esp32, esp32s3 or esp32c3")
    p.add_argument("--port", required=True, help="serial port of the board, e.g. /dev/ttyUSB0")
    p.add_argument("--program-only", action="store_true",
                   help="write only the .bbrt program partition (a new model, same firmware)")
    p.add_argument("--dry-run", action="store_true", help="print the exact esptool commands, run nothing")
    p.add_argument("--baud", type=positive_int, help="flashing baud rate (default: the target profile's)")
    p.add_argument("--target", help="esp32-micropython: copy a MicroPython bundle with mpremote "
                                    "(detected from the bundle's build.json when omitted)")
    p.set_defaults(func=_run)
