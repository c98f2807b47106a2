"""Compile the portable core of a generated ESP-IDF project and estimate its sizes.

ESP32-C3 is rv32imc: the estimate comes from a real rv32imc build of the same
sources. ESP32 and ESP32-S3 are Xtensa: the estimate comes from a real Xtensa
build with Debian's gcc-xtensa-lx106 (the LX106 core of the ESP8266, the same
base ISA and call0 code as the LX6/LX7 without their windowed registers), the
same ELF that runs under ``qemu-system-xtensa -cpu lx106``
(firmware/ports/qemu-xtensa). Only when that compiler is missing does the
Cortex-M3 (Thumb-2) build stand in, which the report marks as a proxy.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from bb_edge.bbrt import native
from bb_edge.bbrt.errors import NativeBuildError

WARN = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-Wshadow"]


def compile_check(core: Path, cc: str, flags: list[str], out: Path) -> None:
    """Compile every .c in ``core`` with ``cc`` (objects only); NativeBuildError on any warning."""
    if shutil.which(cc) is None:
        raise NativeBuildError(f"{cc} is not installed")
    out.mkdir(parents=True, exist_ok=True)
    for c in sorted(core.glob("*.c")):
        proc = subprocess.run([cc, *WARN, *flags, f"-I{core}", "-c", str(c), "-o", str(out / (c.stem + ".o"))],
                              capture_output=True, text=True)
        if proc.returncode:
            raise NativeBuildError(f"{cc} failed on {c.name}:\n{proc.stderr}")


def estimate_sizes(core: Path, chip: str, tmp: Path, *, max_payload: int, arena: int) -> dict[str, Any]:
    """Host + cross compile checks, then code/RAM sizes from the closest MCU ELF build."""
    from bb_edge.bbrt.firmware import elf_sizes

    compile_check(core, "gcc", ["-Os"], tmp / "host")
    if chip == "esp32c3":
        rv_flags = ["-Os", "-ffreestanding", "-march=rv32imc", "-mabi=ilp32"]
        compile_check(core, "riscv64-unknown-elf-gcc", rv_flags, tmp / "rv32")
        goal, prefix, source = "rv32", "riscv64-unknown-elf-", "rv32imc build (same ISA as the ESP32-C3)"
    elif shutil.which("xtensa-lx106-elf-gcc") is not None:
        compile_check(core, "xtensa-lx106-elf-gcc", ["-Os", "-ffreestanding", "-mlongcalls"], tmp / "xtensa")
        goal, prefix, source = "xtensa", "xtensa-lx106-elf-", "Xtensa LX106 build (gcc-xtensa-lx106, call0 ABI)"
    else:
        compile_check(core, "arm-none-eabi-gcc", ["-Os", "-ffreestanding", "-mcpu=cortex-m3", "-mthumb"], tmp / "thumb")
        goal, prefix, source = "cortex-m3", "arm-none-eabi-", "Cortex-M3 build (proxy: no Xtensa compiler here)"
    cross = prefix + "gcc"
    build = tmp / goal
    native.make(goal, build, RESOLVER=str(core / "bbrt_resolver.c"), MAX_PAYLOAD=str(max_payload),
                ARENA=str(arena), OPT="-Os")
    sizes = elf_sizes(build / "bbrt.elf", prefix)
    return {"elf": sizes, "code_bytes": sizes["text"], "code_size_source": source,
            "static_ram_bytes": sizes["data"] + sizes["bss"],
            "portable_c_checked_with": ["gcc", cross],
            "idf_build": "not run: ESP-IDF is not available from the package registries"}
