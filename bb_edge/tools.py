"""System programs bb-edge runs (broker, compilers, QEMU): where they are and how to install them.

The table is what ``bb-edge doctor`` prints; an error about a missing program adds :func:`missing` (its
install line and a pointer to ``bb-edge doctor``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

#: Debian puts daemons (mosquitto) in /usr/sbin, which a normal user's PATH often lacks
EXTRA_BIN = ("/usr/sbin", "/usr/local/sbin")

#: system programs: (program, needed by, install line)
PROGRAMS: tuple[tuple[str, str, str], ...] = (
    ("mosquitto", "bb-edge broker; run/node/request/status over mqtt:// on a local broker",
     "apt-get install mosquitto"),
    ("make", "demo (C runtime stage), build --target host|linux-*|qemu-*|esp32 (no-heap C runtime), hil",
     "apt-get install make gcc"),
    ("cc", "demo (C runtime stage), build --target host|linux-* (posix C node), hil --device NODE=host",
     "apt-get install gcc"),
    ("arm-none-eabi-gcc", "build --target qemu-cortex-m3|qemu-cortex-m4|qemu-cortex-m55, "
     "hil --device NODE=qemu:cortex-m3",
     "apt-get install gcc-arm-none-eabi"),
    ("qemu-system-arm", "hil --device NODE=qemu:cortex-m3|qemu:cortex-m4|qemu:cortex-m55, MCU learning clients in QEMU",
     "apt-get install qemu-system-arm"),
    ("riscv64-unknown-elf-gcc", "build --target qemu-rv32|esp32c3, hil --device NODE=qemu:rv32",
     "apt-get install gcc-riscv64-unknown-elf"),
    ("qemu-system-riscv32", "hil --device NODE=qemu:rv32", "apt-get install qemu-system-misc"),
    ("xtensa-lx106-elf-gcc", "build --target qemu-xtensa-lx106, hil --device NODE=qemu:xtensa",
     "apt-get install gcc-xtensa-lx106 picolibc-xtensa-lx106-elf"),
    ("qemu-system-xtensa", "hil --device NODE=qemu:xtensa", "apt-get install qemu-system-misc"),
    ("node", "the MicroPython VM of the tests (WebAssembly build); not needed by the CLI",
     "apt-get install nodejs"),
)

def which(program: str) -> str | None:
    """Path of ``program`` on PATH or in /usr/sbin, /usr/local/sbin; None when absent."""
    found = shutil.which(program)
    if found is None:
        found = next((str(Path(d) / program) for d in EXTRA_BIN if os.access(Path(d) / program, os.X_OK)), None)
    return found



def install_line(program: str) -> str:
    """How to install ``program`` (Debian/Ubuntu), from :data:`PROGRAMS`; a generic line for others."""
    return next((how for p, _, how in PROGRAMS if p == program), f"install {program}")


def missing(program: str) -> str:
    """The message tail for a missing program: its install line and where to see what else is missing."""
    return f"{program} is not installed ({install_line(program)}; `bb-edge doctor` lists what this machine lacks)"
