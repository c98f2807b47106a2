"""Project rules that are checkable: ruff, mypy, and sans-IO under bb_edge/."""

from __future__ import annotations

import ast
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


# the sans-IO core: not even an import of these, in any form (the engine is fed by adapters' threads
# through a deque, and time enters only as poll(now))
CORE_DIRS = ("bb_edge/engine", "bb_edge/wire")
CORE_FORBIDDEN = {"threading", "socket", "subprocess", "time", "_thread", "asyncio", "selectors"}


def forbidden_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) for every import of a CORE_FORBIDDEN module in ``source``, in any form.

    Catches ``import time``, ``import os, time as t``, ``from threading import Lock``,
    ``from time import *``, imports inside functions, ``__import__("socket")`` and
    ``importlib.import_module("subprocess")``.
    """
    hits = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            f = node.func
            fname = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if fname in ("__import__", "import_module") and isinstance(node.args[0].value, str):
                names = [node.args[0].value]
        hits += [(node.lineno, n) for n in names if n.split(".")[0] in CORE_FORBIDDEN]
    return hits


def test_engine_and_wire_import_no_threads_sockets_processes_or_clocks() -> None:
    problems = []
    for d in CORE_DIRS:
        for path in sorted((ROOT / d).rglob("*.py")):
            for lineno, mod in forbidden_imports(path.read_text()):
                problems.append(f"{path.relative_to(ROOT)}:{lineno}: imports {mod}")
    assert not problems, "\n".join(problems)


def test_the_core_import_check_catches_every_form() -> None:
    bad = ["import time", "import os, threading", "from socket import socket", "import subprocess as sp",
           "from time import *", "def f():\n    import time\n", "x = __import__('threading')",
           "import importlib\nm = importlib.import_module('socket')", "import time.something"]
    for src in bad:
        assert forbidden_imports(src), src
    assert not forbidden_imports("import timeit_like_name as t\nfrom bb_edge.wire import framing\n"
                                 "x = 'import time'\n")


def test_the_core_does_not_load_the_learning_layer() -> None:
    code = ("import sys, bb_edge.engine, bb_edge.roles, bb_edge.wire.hello; "
            "print(sorted(m for m in sys.modules if m.startswith('bb_edge.learn')))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr


# the core source whose files must stay readable: over LONG_FILE lines, a file says why it is one file
LONG_FILE = 500
LONG_FILE_GLOBS = ("bb_edge/**/*.py", "adapters/*.py", "firmware/src/*.c", "firmware/include/*.h",
                   "firmware/ports/**/*.c", "firmware/micropython/bbnode/*.py")


def long_files_without_a_reason(root: Path) -> list[str]:
    """Files of LONG_FILE_GLOBS under ``root`` over LONG_FILE lines whose first 60 lines lack "Why one file:"."""
    out = []
    for pattern in LONG_FILE_GLOBS:
        for path in sorted(root.glob(pattern)):
            if any(part in LINKED_DATA for part in path.relative_to(root).parts[1:2]) and pattern.startswith("bb_edge"):
                continue  # bb_edge/adapters, bb_edge/_firmware: links to the trees listed on their own
            lines = path.read_text(errors="replace").splitlines()
            if len(lines) > LONG_FILE and not any("Why one file:" in line for line in lines[:60]):
                out.append(f"{path.relative_to(root)} ({len(lines)} lines)")
    return out


def test_long_core_files_say_why_they_are_one_file() -> None:
    """The style rule: a core file over ~500 lines says at its top why it is one file."""
    assert long_files_without_a_reason(ROOT) == []


def test_the_long_file_check_finds_a_file_without_its_reason(tmp_path: Path) -> None:
    (tmp_path / "adapters").mkdir()
    (tmp_path / "adapters" / "big.py").write_text('"""A module."""\n' + "x = 1\n" * (LONG_FILE + 1))
    (tmp_path / "adapters" / "small.py").write_text("x = 1\n" * LONG_FILE)
    (tmp_path / "adapters" / "ok.py").write_text('"""Why one file: one state machine."""\n' + "x = 1\n" * 600)
    assert long_files_without_a_reason(tmp_path) == [f"adapters{'/'}big.py ({LONG_FILE + 2} lines)"]
