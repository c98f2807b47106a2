"""No heap: no malloc/free/realloc/calloc/sbrk symbol in any built firmware ELF."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bb_edge.bbrt.native import cached_build, host_executable

FORBIDDEN = {"malloc", "free", "realloc", "calloc", "sbrk", "_sbrk", "_malloc_r", "_free_r",
             "_realloc_r", "_calloc_r", "_sbrk_r", "aligned_alloc", "posix_memalign", "memalign"}


def symbols(elf: Path, nm: str = "nm") -> set[str]:
    out = subprocess.run([nm, "-A", str(elf)], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if parts:
            names.add(parts[-1].split("@")[0])
    return names


def check(elf: Path, nm: str = "nm") -> None:
    bad = symbols(elf, nm) & FORBIDDEN
    assert not bad, f"{elf} references heap symbols {sorted(bad)}"


def test_host_executable_has_no_heap_symbols() -> None:
    check(host_executable())


@pytest.mark.parametrize("goal,nm", [("cortex-m3", "arm-none-eabi-nm"), ("rv32", "riscv64-unknown-elf-nm")])
def test_mcu_elves_have_no_heap_symbols(goal: str, nm: str) -> None:
    assert shutil.which(nm), f"{nm} missing: bash .ci/test.sh installs it"
    check(cached_build(goal) / "bbrt.elf", nm)
