"""Build step of the wheel: ship the top-level C project (firmware/) inside the package as bb_edge/_firmware.

Everything else is declared in pyproject.toml. The firmware tree stays one C project at the top of the
repository (its Makefile, ports and MicroPython runtime); the wheel carries a copy so an installed bb-edge
builds C-runtime and MicroPython bundles with no checkout nearby.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
FIRMWARE_SKIP = shutil.ignore_patterns("build", "*.o", "*.elf", "*.bin", "__pycache__", "*.pyc", "node_modules")


class BuildPyWithFirmware(build_py):
    """``build_py`` plus a copy of firmware/ into the built package as ``bb_edge/_firmware``."""

    def run(self) -> None:
        """Build the package, then copy firmware/ beside it."""
        super().run()
        src = HERE / "firmware"
        if src.is_dir():  # an sdist unpacked elsewhere carries firmware/ too (MANIFEST.in)
            dst = Path(self.build_lib) / "bb_edge" / "_firmware"
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(src, dst, ignore=FIRMWARE_SKIP)


setup(cmdclass={"build_py": BuildPyWithFirmware})
