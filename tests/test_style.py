"""Project rules that are checkable: ruff, mypy, and sans-IO under bb_edge/."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# what would make bb_edge/ do I/O: sockets, threads, event loops, clocks
FORBIDDEN = [
    (r"^\s*(import|from)\s+(socket|asyncio|selectors|ssl|serial|paho)\b", "network / serial I/O"),
    (r"threading\.Thread\b|ThreadPoolExecutor|ProcessPoolExecutor|multiprocessing", "threads or processes"),
    (r"\btime\.(time|monotonic|perf_counter|sleep|time_ns|monotonic_ns)\b|datetime\.now", "clocks"),
    (r"^\s*(import|from)\s+(bb_edge\.)?adapters\b", "the adapters layer (I/O)"),
]

# links to the top-level adapters/ (the I/O layer) and firmware/ (MicroPython code), not core code
LINKED_DATA = {"adapters", "_firmware", "_targets"}


def test_ruff_clean() -> None:
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "bb_edge", "adapters"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_clean() -> None:
    r = subprocess.run([sys.executable, "-m", "mypy", "bb_edge"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr


def test_bb_edge_is_sans_io() -> None:
    """Nothing under bb_edge/ opens a socket, starts a thread or reads a clock.

    The CLI entry points (bb_edge/commands) are thin shells that hand I/O work
    to adapters/ through late imports; they are checked for the first three
    rules only.
    """
    problems = []
    for path in sorted((ROOT / "bb_edge").rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[1] in LINKED_DATA:
            continue
        rules = FORBIDDEN[:3] if rel.parts[1] == "commands" else FORBIDDEN
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            for pattern, what in rules:
                if re.search(pattern, line):
                    problems.append(f"{rel}:{lineno}: {what}: {line.strip()}")
    assert not problems, "\n".join(problems)
