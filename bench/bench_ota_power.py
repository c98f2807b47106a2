"""Power cuts during an update (issue 23): how many boots end on a valid program, per node end.

The harness is tests/support/power_cut.py (the CI test is tests/firmware/test_ota_power_cuts.py with 20 cuts
per node): each node is SIGKILLed at seeded random points in staging, verification, switching and the first
run of an update, then booted again from the same persistent store, and must answer with the old or the new
program (the new one whenever SWITCHED had arrived, the old one whenever COMMIT had not been sent).

- qemu-cortex-m3: the Cortex-M3 build under QEMU, its flash image a host file (semihosting), the update over
  its UART with the link layer; 2.4 KiB images;
- posix-c: bbrt-host with ``--ota-state`` (a state file: pwrite + fdatasync); 32 KiB images;
- micropython: bbnode (firmware/micropython) under CPython with its slot and version files; 32 KiB images.

    python bench/bench_ota_power.py [--cuts N] [--seed S] [--only qemu-cortex-m3|posix-c|micropython]

--cuts defaults to 20, or 200 with BB_EDGE_LONG=1. Prints one line per node, e.g.
``qemu-cortex-m3: 200/200 valid boots (staging 52, ...)``, and the seconds per cut as a ratio to one boot
of the same node measured in the same run. Exits non-zero if any boot was not valid.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bb_edge.bbrt import native  # noqa: E402
from bb_edge.engine import ota  # noqa: E402
from tests.support import power_cut as pc  # noqa: E402


def _boot_seconds(boot: Callable[[], pc.Life]) -> float:
    t0 = time.monotonic()
    life = boot()
    seq = pc._Seq()
    assert pc._answer(life, seq, 1, 30.0) in ("a", "b")
    life.cut()
    return time.monotonic() - t0


def main() -> int:
    """Run the cuts; print the lines."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cuts", type=int, default=200 if os.environ.get("BB_EDGE_LONG") == "1" else 20)
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--only", choices=["qemu-cortex-m3", "posix-c", "micropython"])
    args = ap.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        runs: dict[str, tuple[Callable[[], pc.Life], dict[str, bytes], int, int]] = {}
        if args.only in (None, "qemu-cortex-m3"):
            d = root / "m3"
            d.mkdir()
            elf = pc.m3_elf()
            imgs = {k: pc.padded_program(c, 512) for k, c in pc.CONSTS.items()}
            (d / "a.bbrt").write_bytes(imgs["a"])
            runs["qemu-cortex-m3"] = (functools.partial(pc.QemuLife, elf, d / "a.bbrt", d / "epoch",
                                                        d / "flash"), imgs, 1024, ota.TARGET_BBRT)
        if args.only in (None, "posix-c"):
            d = root / "posix"
            d.mkdir()
            imgs = {k: pc.padded_program(c, 8192) for k, c in pc.CONSTS.items()}
            (d / "a.bbrt").write_bytes(imgs["a"])
            (d / "key").write_text(pc.KEY.hex() + "\n")
            exe = native.host_executable()
            runs["posix-c"] = (functools.partial(pc.PosixLife, exe, d / "a.bbrt", d / "key", d / "state"), imgs,
                               2048, ota.TARGET_BBRT)
        if args.only in (None, "micropython"):
            d = root / "mpy"
            d.mkdir()
            imgs = {k: pc.padded_program(c, 8192) for k, c in pc.CONSTS.items()}
            (d / "program.bbrt").write_bytes(imgs["a"])
            runs["micropython"] = (functools.partial(pc.MpyLife, d), imgs, 2048, ota.TARGET_MPY)
        for name, (boot, imgs, chunk, target) in runs.items():
            base = _boot_seconds(boot)
            t0 = time.monotonic()
            report = pc.run_power_cuts(boot, imgs, args.cuts, args.seed, chunk, target=target)
            per_cut = (time.monotonic() - t0) / max(1, len(report.trials))
            print(f"{name}: {report.line()}; {per_cut / base:.1f} boots of time per cut")
            failed += len(report.trials) - report.valid + (args.cuts - len(report.trials))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
