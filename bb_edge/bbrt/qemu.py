"""QEMU command lines for the emulated bbrt ports (pure data, no processes)."""

from __future__ import annotations

from pathlib import Path

from bb_edge.bbrt.errors import BbrtError

#: QEMU facts per emulated target: binary, machine arguments, program load address
QEMU = {
    "cortex-m3": ("qemu-system-arm", ["-M", "mps2-an385", "-cpu", "cortex-m3"], 0x00100000),
    # Cortex-M4 (DSP extension) with the AN385 memory map: the M4 build runs the SMLAD kernels
    "cortex-m4": ("qemu-system-arm", ["-M", "mps2-an386", "-cpu", "cortex-m4"], 0x00100000),
    # Cortex-M55 with Helium (MVE) on the SSE-300 board: the program region is SRAM 2 (ports/qemu-cortex-m55)
    "cortex-m55": ("qemu-system-arm", ["-M", "mps3-an547", "-cpu", "cortex-m55"], 0x21000000),
    "rv32": ("qemu-system-riscv32", ["-M", "virt", "-bios", "none"], 0x80800000),
    # the ESP8266 core on QEMU's sim board: serial = the simulator console (firmware/ports/qemu-xtensa)
    "xtensa": ("qemu-system-xtensa", ["-M", "sim", "-cpu", "lx106"], 0x3FF40000),
}


def qemu_command(kind: str, elf: Path, program: Path, epoch_file: Path | None = None,
                 flash_file: Path | None = None, *, flash: bool = True) -> list[str]:
    """The QEMU command line that boots ``elf`` with ``program`` in its flash region, serial on a pty.

    The firmware keeps its boot epoch in ``epoch_file`` (default: next to the program,
    ``program.bbrt.epoch``) through semihosting: it reads, increments and writes the file itself
    at every boot (firmware/ports/common/semihost.c). A build that takes updates keeps its boot record
    and program slots in ``flash_file`` (default ``program.bbrt.flash``), its flash image across power cuts.
    ``flash=False`` (training clients, learn_mcu_main.c): no flash word; the caller's next word follows the
    epoch file (the client's round record).
    """
    if kind not in QEMU:
        raise BbrtError(f"no QEMU machine for {kind!r}; known: {', '.join(QEMU)}")
    binary, machine, addr = QEMU[kind]
    epoch = epoch_file if epoch_file is not None else program.with_name(program.name + ".epoch")
    flash_path = flash_file if flash_file is not None else program.with_name(program.name + ".flash")
    words = [epoch, flash_path] if flash else [epoch]
    for path in words:
        if "," in str(path) or " " in str(path):
            raise BbrtError(f"file path {path} may not contain ',' or ' ' (QEMU option syntax)")
    return [binary, *machine, "-display", "none", "-monitor", "none", "-serial", "pty", "-kernel", str(elf),
            "-device", f"loader,file={program},addr=0x{addr:08x}",
            "-semihosting-config", "enable=on,target=native,arg=bbrt" + "".join(f",arg={w}" for w in words)]
