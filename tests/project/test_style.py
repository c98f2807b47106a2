"""Project rules that are checkable: ruff, mypy, sans-IO under bb_edge/, the stage order, no Python behind a link."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# what would make bb_edge/ do I/O: sockets, threads, event loops, clocks
FORBIDDEN = [
    (r"^\s*(import|from)\s+(socket|asyncio|selectors|ssl|serial|paho)\b", "network / serial I/O"),
    (r"threading\.Thread\b|ThreadPoolExecutor|ProcessPoolExecutor|multiprocessing", "threads or processes"),
    (r"\btime\.(time|monotonic|perf_counter|sleep|time_ns|monotonic_ns)\b|datetime\.now", "clocks"),
    (r"^\s*(import|from)\s+(bb_edge\.)?adapters\b", "the adapters layer (I/O)"),
]

# not core code: the I/O layer, and the firmware tree a wheel build copies in (MicroPython code)
NOT_CORE = {"adapters", "_firmware"}


def test_ruff_clean() -> None:
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "bb_edge", "tests", "bench", "examples"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_clean() -> None:
    r = subprocess.run([sys.executable, "-m", "mypy", "bb_edge"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr


def test_bb_edge_is_sans_io() -> None:
    """Nothing under bb_edge/ but the adapters opens a socket, starts a thread or reads a clock.

    The CLI entry points (bb_edge/commands) are thin shells that hand I/O work
    to bb_edge/adapters through late imports; they are checked for the first three
    rules only.
    """
    problems = []
    for path in sorted((ROOT / "bb_edge").rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[1] in NOT_CORE:
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
LONG_FILE_GLOBS = ("bb_edge/**/*.py", "firmware/src/*.c", "firmware/include/*.h",
                   "firmware/ports/**/*.c", "firmware/micropython/bbnode/*.py")


def long_files_without_a_reason(root: Path) -> list[str]:
    """Files of LONG_FILE_GLOBS under ``root`` over LONG_FILE lines whose first 60 lines lack "Why one file:"."""
    out = []
    for pattern in LONG_FILE_GLOBS:
        for path in sorted(root.glob(pattern)):
            if path.relative_to(root).parts[1:2] == ("_firmware",):
                continue  # a wheel build's copy of firmware/, listed on its own
            lines = path.read_text(errors="replace").splitlines()
            if len(lines) > LONG_FILE and not any("Why one file:" in line for line in lines[:60]):
                out.append(f"{path.relative_to(root)} ({len(lines)} lines)")
    return out


def test_long_core_files_say_why_they_are_one_file() -> None:
    """The style rule: a core file over ~500 lines says at its top why it is one file."""
    assert long_files_without_a_reason(ROOT) == []


def test_the_long_file_check_finds_a_file_without_its_reason(tmp_path: Path) -> None:
    d = tmp_path / "bb_edge" / "adapters"
    d.mkdir(parents=True)
    (d / "big.py").write_text('"""A module."""\n' + "x = 1\n" * (LONG_FILE + 1))
    (d / "small.py").write_text("x = 1\n" * LONG_FILE)
    (d / "ok.py").write_text('"""Why one file: one state machine."""\n' + "x = 1\n" * 600)
    assert long_files_without_a_reason(tmp_path) == [f"bb_edge/adapters{'/'}big.py ({LONG_FILE + 2} lines)"]


# ------------------------------------------------------------------ stages

# The stages, earliest first: a module may import its own stage and earlier ones, never a later one.
# The longest matching prefix decides a module's stage. The learning package records training steps and
# defines its components (compiler stage); its strategies and events drive engines (engine stage).
STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("bb_edge", "bb_edge.errors", "bb_edge.resources", "bb_edge.targets", "bb_edge.paths",
              "bb_edge.names")),
    ("ir", ("bb_edge.ir",)),
    ("deployment", ("bb_edge.deployment",)),
    ("wire", ("bb_edge.wire",)),
    ("compiler", ("bb_edge.compiler", "bb_edge.learn", "bb_edge.viz")),
    ("lowering", ("bb_edge.quant", "bb_edge.bbrt", "bb_edge.mpy", "bb_edge.convert", "bb_edge.backends")),
    ("bundle", ("bb_edge.bundle", "bb_edge.templates")),
    ("engine", ("bb_edge.engine", "bb_edge.roles", "bb_edge.learn.strategies", "bb_edge.learn.events")),
    ("adapters", ("bb_edge.adapters",)),
    ("commands", ("bb_edge.commands", "bb_edge.cli")),
)


def stage_of(module: str) -> int | None:
    """The index in STAGES of ``module`` (longest prefix wins), None outside bb_edge."""
    best: tuple[int, int] | None = None
    for i, (_, prefixes) in enumerate(STAGES):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and (best is None or len(p) > best[1]):
                best = (i, len(p))
    return None if best is None else best[0]


def _type_checking_lines(tree: ast.AST) -> set[int]:
    """Lines under ``if TYPE_CHECKING:`` (imports for annotations only: no run-time dependency)."""
    out: set[int] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test):
            out |= {k.lineno for m in n.body for k in ast.walk(m) if hasattr(k, "lineno")}
    return out


def backward_imports(root: Path) -> list[str]:
    """Every import under ``root/bb_edge`` of a later stage than the importing module's, as text."""
    problems = []
    for path in sorted((root / "bb_edge").rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[1] == "_firmware":
            continue
        parts = list(rel.with_suffix("").parts)
        mod = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        src = stage_of(mod)
        tree = ast.parse(path.read_text())
        typing_only = _type_checking_lines(tree)
        for n in ast.walk(tree):
            if isinstance(n, ast.Import):
                names = [a.name for a in n.names]
            elif isinstance(n, ast.ImportFrom) and n.module and n.level == 0:
                names = [n.module]
            else:
                continue
            for target in names:
                dst = stage_of(target)
                if n.lineno not in typing_only and src is not None and dst is not None and dst > src:
                    problems.append(f"{rel}:{n.lineno}: {STAGES[src][0]} imports {target} ({STAGES[dst][0]})")
    return problems


def test_no_stage_imports_a_later_stage() -> None:
    """ir -> deployment -> wire -> compiler -> lowering -> bundle -> engine -> adapters -> commands."""
    assert backward_imports(ROOT) == []


def test_the_stage_check_finds_a_backward_import(tmp_path: Path) -> None:
    (tmp_path / "bb_edge" / "engine").mkdir(parents=True)
    (tmp_path / "bb_edge" / "engine" / "x.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bb_edge.adapters import y\n"
        "def f():\n    from bb_edge.commands.build import z\n")
    (tmp_path / "bb_edge" / "compiler").mkdir()
    (tmp_path / "bb_edge" / "compiler" / "ok.py").write_text("import bb_edge.wire.envelope\nimport numpy\n")
    assert backward_imports(tmp_path) == ["bb_edge/engine/x.py:5: engine imports bb_edge.commands.build (commands)"]


def test_every_package_has_a_stage() -> None:
    packages = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "bb_edge").rglob("__init__.py")}
    packages |= {f"bb_edge.{p.stem}" for p in (ROOT / "bb_edge").glob("*.py")}
    assert not [p for p in sorted(packages) if not p.startswith("bb_edge._") and stage_of(p) is None]


def test_no_python_behind_a_link() -> None:
    """No tracked symlink: every Python file has one path (the wheel's firmware copy is a build step)."""
    r = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    links = [line.split("\t", 1)[1] for line in r.stdout.splitlines() if line.startswith("120000")]
    assert links == [], links


# ----------------------------------------------------- header offsets

# reading an envelope header field by offset: unpack_from on an envelope-like buffer at a literal offset,
# or indexing one at a literal position; outside bb_edge/wire, use bb_edge.wire.envelope.peek()
HEADER_READ = re.compile(r"unpack_from\([^,()]+,\s*(env|envelope|data|payload|frame|raw)\s*,\s*\d+\s*\)"
                         r"|\b(env|envelope)\[\d+\]")


def header_offset_reads(root: Path) -> list[str]:
    """``path:line`` of every hand-coded envelope header read under ``root/bb_edge`` outside ``wire/``."""
    out = []
    for path in sorted((root / "bb_edge").rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[1] in ("wire", "_firmware"):
            continue
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            if HEADER_READ.search(line):
                out.append(f"{rel}:{lineno}")
    return out


def test_no_hand_coded_header_offsets_outside_wire() -> None:
    assert header_offset_reads(ROOT) == []


def test_the_header_offset_check_finds_one(tmp_path: Path) -> None:
    (tmp_path / "bb_edge" / "adapters").mkdir(parents=True)
    (tmp_path / "bb_edge" / "adapters" / "x.py").write_text(
        'a = struct.unpack_from("<I", payload, 8)[0]\nb = env[45]\nc = struct.unpack_from("<I", mv, at)\n')
    (tmp_path / "bb_edge" / "wire").mkdir()
    (tmp_path / "bb_edge" / "wire" / "ok.py").write_text('a = struct.unpack_from("<I", data, 8)\n')
    assert header_offset_reads(tmp_path) == ["bb_edge/adapters/x.py:1", "bb_edge/adapters/x.py:2"]


# ----------------------------------------------------------- tests layout

TEST_STAGES = {"ir", "deployment", "wire", "compiler", "lowering", "bundle", "engine", "learn", "adapters", "llm",
               "firmware", "micropython", "commands", "project"}


def test_tests_mirror_the_stages() -> None:
    """Every test module lives in a stage's folder; shared helpers in tests/support."""
    here = ROOT / "tests"
    loose = [p.name for p in here.glob("test_*.py")]
    folders = {p.parent.name for p in here.glob("*/test_*.py")}
    assert loose == [] and folders <= TEST_STAGES, (loose, folders - TEST_STAGES)
