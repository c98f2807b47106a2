"""No heap in firmware: the allocator symbols no built ELF may reference, and the nm check the firmware
tests share."""

from __future__ import annotations

import subprocess
from pathlib import Path

#: allocator symbols (libc and newlib reentrant forms) that no firmware ELF may reference
HEAP_SYMBOLS = {"malloc", "free", "realloc", "calloc", "sbrk", "_sbrk", "_malloc_r", "_free_r",
                "_realloc_r", "_calloc_r", "_sbrk_r", "aligned_alloc", "posix_memalign", "memalign"}


def elf_symbols(elf: Path, nm: str = "nm") -> set[str]:
    """Every symbol name ``nm`` lists for ``elf`` (version suffixes after ``@`` dropped)."""
    out = subprocess.run([nm, "-A", str(elf)], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if parts:
            names.add(parts[-1].split("@")[0])
    return names


def check_no_heap(elf: Path, nm: str = "nm") -> None:
    """Fail when ``elf`` references any heap symbol."""
    bad = elf_symbols(elf, nm) & HEAP_SYMBOLS
    assert not bad, f"{elf} references heap symbols {sorted(bad)}"
