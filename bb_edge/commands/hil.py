"""``bb-edge hil DIR --device NODE=SPEC``: run device nodes on a board, QEMU or the host build, the rest in-process."""

from __future__ import annotations

import argparse
from pathlib import Path

from bb_edge.commands._args import positive_int
from bb_edge.names import is_name
from bb_edge.paths import check_output_dir

#: device specs that are not serial ports (bb_edge/adapters/devices/hil.py builds and starts them)
EMULATED = ("qemu:cortex-m3", "qemu:rv32", "host")


def device_spec(text: str) -> str:
    """argparse type: ``NODE=SPEC`` with SPEC an emulator/host name, a pyserial URL or an existing port."""
    node, sep, spec = text.partition("=")
    usage = "give NODE=SPEC with SPEC a serial port (e.g. /dev/ttyUSB0), qemu:cortex-m3, qemu:rv32 or host"
    if not sep or not node or not spec:
        raise argparse.ArgumentTypeError(f"{text!r} is not NODE=SPEC; {usage}")
    if not is_name(node):
        raise argparse.ArgumentTypeError(f"{text!r}: {node!r} is not a node name (a letter, then up to 62 letters, "
                                         f"digits, '-' or '_')")
    if spec not in EMULATED and "://" not in spec and not Path(spec).exists():
        raise argparse.ArgumentTypeError(f"{text!r}: {spec!r} is neither a known emulator nor an existing "
                                         f"serial port; {usage}")
    return text


def _run(args: argparse.Namespace) -> int:
    from bb_edge.adapters.devices.hil import parse_devices, run_hil
    from bb_edge.deployment.arrays import check_calibration
    from bb_edge.deployment.manifest import load_deployment

    if args.build_dir:
        check_output_dir(args.build_dir, "--build-dir")
    if args.calib:
        check_calibration(load_deployment(args.dir), args.calib)

    run_hil(Path(args.dir), parse_devices(args.device), requests=args.requests, build_dir=args.build_dir,
            calib=Path(args.calib) if args.calib else None)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``hil`` subcommand."""
    p = sub.add_parser("hil", help="hardware-in-the-loop: some nodes on devices/emulators, the rest in-process")
    p.add_argument("dir", help="a compiled deployment directory")
    p.add_argument("--device", action="append", default=[], required=True, metavar="NODE=SPEC", type=device_spec,
                   help="SPEC: a serial port (flashed board), qemu:cortex-m3, qemu:rv32 or host (repeatable)")
    p.add_argument("-n", "--requests", type=positive_int, default=8, help="inferences to run (default 8)")
    p.add_argument("--calib", help="inputs (.npz keyed by graph input) for calibration and the run")
    p.add_argument("--build-dir", help="where device builds go (default DIR/hil-build)")
    p.set_defaults(func=_run)
