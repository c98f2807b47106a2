"""QEMU command lines for the emulated bbrt ports (pure data, no processes)."""

from __future__ import annotations

from pathlib import Path

from bb_edge.bbrt.errors import BbrtError

#: QEMU facts per emulated target: binary, machine arguments, program load address
QEMU = {
    "cortex-m3": ("qemu-system-arm", ["-M", "mps2-an385", "-cpu", "cortex-m3"], 0x00100000),
    "rv32": ("qemu-system-riscv32", ["-M", "virt", "-bios", "none"], 0x80800000),
}


def qemu_command(kind: str, elf: Path, program: Path) -> list[str]:
    """The QEMU command line that boots ``elf`` with ``program`` in its flash region, serial on a pty."""
    if kind not in QEMU:
        raise BbrtError(f"no QEMU machine for {kind!r}; known: {', '.join(QEMU)}")
    binary, machine, addr = QEMU[kind]
    return [binary, *machine, "-display", "none", "-monitor", "none", "-serial", "pty", "-kernel", str(elf),
            "-device", f"loader,file={program},addr=0x{addr:08x}"]
