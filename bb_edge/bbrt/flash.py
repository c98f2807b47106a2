"""Flash an ESP32 node build with esptool: firmware + program partition, or the program only."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.firmware import BUILD_JSON
from bb_edge.targets import load_target


def flash_commands(build_dir: str | Path, port: str, *, program_only: bool = False,
                   baud: int | None = None) -> list[list[str]]:
    """The exact esptool command lines for a node build (``python -m esptool ...``)."""
    d = Path(build_dir)
    if not (d / BUILD_JSON).is_file():
        raise BbrtError(f"{d} is not a bbrt build; run `bb-edge build DIR --target esp32|esp32s3|esp32c3`")
    facts = json.loads((d / BUILD_JSON).read_text())
    if "esp_chip" not in facts:
        raise BbrtError(f"{d} was built for {facts['target']}, not an ESP32 chip: only ESP builds are flashed "
                        "(QEMU and host builds run with their run.sh)")
    prof = load_target(facts["target"])
    chip = facts["esp_chip"]
    baud = baud or int(prof.get("baud", 921600))
    prog_off = int(prof.get("program_partition_offset", 0x110000))
    base = [sys.executable, "-m", "esptool", "--chip", chip, "--port", port, "--baud", str(baud)]
    program = str(d / "program.bbrt")
    if program_only:
        return [base + ["write_flash", f"0x{prog_off:x}", program]]
    idf = d / "esp-idf" / "build"
    boot = int(prof.get("bootloader_offset", 0))
    return [base + ["write_flash", "--flash_mode", "dio", "--flash_size", "detect",
                    f"0x{boot:x}", str(idf / "bootloader" / "bootloader.bin"),
                    "0x8000", str(idf / "partition_table" / "partition-table.bin"),
                    "0x10000", str(idf / "bbrt_node.bin"),
                    f"0x{prog_off:x}", program]]


def flash(build_dir: str | Path, port: str, *, program_only: bool = False, dry_run: bool = False,
          baud: int | None = None) -> list[str]:
    """Run (or with ``dry_run`` only return) the esptool commands; return them as shell lines."""
    cmds = flash_commands(build_dir, port, program_only=program_only, baud=baud)
    lines = [shlex.join(c) for c in cmds]
    if dry_run:
        return lines
    if not program_only:
        app = Path(build_dir) / "esp-idf" / "build" / "bbrt_node.bin"
        if not app.is_file():
            raise BbrtError(f"{app} is missing: build the firmware first (cd {Path(build_dir) / 'esp-idf'} && "
                            "idf.py build), or flash only the program with --program-only")
    for c in cmds:
        proc = subprocess.run(c)
        if proc.returncode:
            raise BbrtError(f"esptool failed ({proc.returncode}): {shlex.join(c)}")
    return lines
