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
            "print(sorted(m for m in sys.modules if m.startswith(('bb_edge.learn', 'bb_edge.strategies', "
            "'bb_edge.training'))))")
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

# Two wings on a shared base, drawn top-down (docs/architecture.md draws the same tree):
#
#                    commands
#                    adapters                 the only I/O, on top of both wings
#     build wing               run wing
#     bundle                   strategies     strategies/: the learning protocols and their events
#     lowering                 engine         engine (OTA inside), roles
#     training                 backends       no wing: the run wing's one way to a converter (convert/)
#     compiler
#                    components               learn/: role registry, data, aggregators, codecs (both wings)
#                    wire, deployment, ir, base (errors, names, paths, targets ...)
#
# STAGES lists the tree bottom-up, the build wing before the backends and the run wing: a module may import
# its own stage and earlier ones, never a later one; and no wing imports the other (WINGS). The longest
# matching prefix decides a module's stage.
STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("bb_edge", "bb_edge.errors", "bb_edge.resources", "bb_edge.targets", "bb_edge.paths",
              "bb_edge.names", "bb_edge.tools")),
    ("ir", ("bb_edge.ir",)),
    ("deployment", ("bb_edge.deployment",)),
    ("wire", ("bb_edge.wire",)),
    ("components", ("bb_edge.learn",)),
    ("compiler", ("bb_edge.compiler", "bb_edge.tflite", "bb_edge.llm", "bb_edge.viz")),
    ("training", ("bb_edge.training",)),
    ("lowering", ("bb_edge.quant", "bb_edge.convert", "bb_edge.bbrt", "bb_edge.mpy")),
    ("bundle", ("bb_edge.bundle", "bb_edge.templates")),
    ("backends", ("bb_edge.backends",)),
    ("engine", ("bb_edge.engine", "bb_edge.roles")),
    ("strategies", ("bb_edge.strategies",)),
    ("adapters", ("bb_edge.adapters",)),
    ("commands", ("bb_edge.commands", "bb_edge.cli")),
)

# the wing of every stage: the build wing and the run wing never import each other; backends are no wing
WINGS: dict[str, str] = {
    "base": "shared", "ir": "shared", "deployment": "shared", "wire": "shared", "components": "shared",
    "compiler": "build", "training": "build", "lowering": "build", "bundle": "build",
    "backends": "backends",
    "engine": "run", "strategies": "run",
    "adapters": "top", "commands": "top",
}


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


def stage_imports(root: Path) -> list[tuple[str, int, int, int, str]]:
    """(file, line, importer's stage, imported stage, imported module) for every run-time import under
    ``root/bb_edge`` between modules with a stage (``if TYPE_CHECKING:`` imports are for annotations only)."""
    out = []
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
                if n.lineno not in typing_only and src is not None and dst is not None:
                    out.append((str(rel), n.lineno, src, dst, target))
    return out


def backward_imports(root: Path) -> list[str]:
    """Every import under ``root/bb_edge`` of a later stage than the importing module's, as text."""
    return [f"{rel}:{line}: {STAGES[src][0]} imports {target} ({STAGES[dst][0]})"
            for rel, line, src, dst, target in stage_imports(root) if dst > src]


def cross_wing_imports(root: Path) -> list[str]:
    """Every import under ``root/bb_edge`` from the build wing into the run wing or back, as text."""
    out = []
    for rel, line, src, dst, target in stage_imports(root):
        a, b = WINGS[STAGES[src][0]], WINGS[STAGES[dst][0]]
        if {a, b} == {"build", "run"}:
            out.append(f"{rel}:{line}: {a} wing ({STAGES[src][0]}) imports {target} ({b} wing)")
    return out


def test_no_stage_imports_a_later_stage() -> None:
    """Up the tree only: base -> components -> each wing -> adapters -> commands (STAGES, bottom-up)."""
    assert backward_imports(ROOT) == []


def test_the_stage_check_finds_a_backward_import(tmp_path: Path) -> None:
    (tmp_path / "bb_edge" / "engine").mkdir(parents=True)
    (tmp_path / "bb_edge" / "engine" / "x.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bb_edge.adapters import y\n"
        "def f():\n    from bb_edge.commands.build import z\n")
    (tmp_path / "bb_edge" / "compiler").mkdir()
    (tmp_path / "bb_edge" / "compiler" / "ok.py").write_text("import bb_edge.wire.envelope\nimport numpy\n")
    (tmp_path / "bb_edge" / "learn").mkdir()
    (tmp_path / "bb_edge" / "learn" / "data.py").write_text("from bb_edge.strategies import base\n")
    assert backward_imports(tmp_path) == [
        "bb_edge/engine/x.py:5: engine imports bb_edge.commands.build (commands)",
        "bb_edge/learn/data.py:1: components imports bb_edge.strategies (strategies)"]


def test_the_build_wing_and_the_run_wing_never_import_each_other() -> None:
    """compiler, training, lowering, bundle <-/-> engine, roles, strategies; both may use backends."""
    assert cross_wing_imports(ROOT) == []


def test_the_wing_check_finds_a_cross_wing_import(tmp_path: Path) -> None:
    (tmp_path / "bb_edge" / "strategies").mkdir(parents=True)
    (tmp_path / "bb_edge" / "strategies" / "x.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bb_edge.training import TrainingProgram\n"
        "def f():\n    from bb_edge.training.step import build_training_step\n"
        "from bb_edge.backends import get_backend\nimport bb_edge.learn.data\n")
    (tmp_path / "bb_edge" / "bbrt").mkdir()
    (tmp_path / "bb_edge" / "bbrt" / "y.py").write_text("import bb_edge.engine.context\nimport bb_edge.wire\n")
    assert cross_wing_imports(tmp_path) == [
        "bb_edge/bbrt/y.py:1: build wing (lowering) imports bb_edge.engine.context (run wing)",
        "bb_edge/strategies/x.py:5: run wing (strategies) imports bb_edge.training.step (build wing)"]
    # the run wing importing the build wing is not a later stage: only the wing check catches it
    assert backward_imports(tmp_path) == ["bb_edge/bbrt/y.py:1: lowering imports bb_edge.engine.context (engine)"]


def test_every_stage_has_a_wing() -> None:
    assert [name for name, _ in STAGES] == list(WINGS)


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

# a test folder is named after the package (or stage) it tests; tests/lowering keeps the three modules other
# tests still take helpers from (they move once those helpers live in tests/support)
TEST_STAGES = {"ir", "deployment", "wire", "compiler", "training", "lowering", "bbrt", "convert", "bundle", "engine",
               "strategies", "learn", "adapters", "firmware", "micropython", "commands", "project",
               "tflite", "llm"}


def test_tests_mirror_the_stages() -> None:
    """Every test module lives in a stage's folder; shared helpers in tests/support."""
    here = ROOT / "tests"
    loose = [p.name for p in here.glob("test_*.py")]
    folders = {p.parent.name for p in here.glob("*/test_*.py")}
    assert loose == [] and folders <= TEST_STAGES, (loose, folders - TEST_STAGES)


# ----------------------------------------------- engine privates stay in engine.py

ENGINE_MODULE = "bb_edge/engine/engine.py"
ENGINE_SCAN = ("bb_edge", "tests", "bench", "examples")
# names that hold an engine by convention (eng, engine, engines[...], self._engine, host_engine ...)
ENGINE_NAME = re.compile(r"^_?(eng|engs|engine|engines)$|^_?\w+_engines?$|^_?engines?_\w+$")


def engine_privates(source: str) -> set[str]:
    """Private attributes and methods class Engine defines (``self._x = ...``, ``def _x``)."""
    out: set[str] = set()
    for cls in ast.walk(ast.parse(source)):
        if not (isinstance(cls, ast.ClassDef) and cls.name == "Engine"):
            continue
        for node in ast.walk(cls):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                out.add(node.name)
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id == "self"):
                out.add(node.attr)
    return {n for n in out if n.startswith("_") and not n.startswith("__")}


def _annotation_is_engine(ann: ast.expr | None) -> bool:
    return ann is not None and re.search(r"\bEngine\b", ast.unparse(ann)) is not None


def _is_engine(expr: ast.expr, names: set[str]) -> bool:
    """Whether ``expr`` evidently holds an Engine: a name bound to one, an ``.engine`` attribute,
    ``engines[...]``, or ``Engine(...)`` / ``Engine.for_node(...)`` itself."""
    if isinstance(expr, ast.Name):
        return expr.id in names or ENGINE_NAME.match(expr.id) is not None
    if isinstance(expr, ast.Attribute):
        return ENGINE_NAME.match(expr.attr) is not None
    if isinstance(expr, ast.Subscript):
        return _is_engine(expr.value, names)
    if isinstance(expr, ast.Call):
        f = expr.func
        return (isinstance(f, ast.Name) and f.id == "Engine") or (
            isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "Engine")
    return False


def _engine_names(tree: ast.AST) -> set[str]:
    """Names bound to an engine anywhere in a module: annotated ``Engine``, assigned one, or iterated
    from a collection of engines (``for name, e in engines.items()``); to a fixed point for aliases."""
    names: set[str] = set()
    while True:
        before = len(names)
        for node in ast.walk(tree):
            if isinstance(node, ast.arg) and _annotation_is_engine(node.annotation):
                names.add(node.arg)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and (
                    _annotation_is_engine(node.annotation)
                    or (node.value is not None and _is_engine(node.value, names))):
                names.add(node.target.id)
            elif isinstance(node, ast.Assign) and _is_engine(node.value, names):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.For | ast.comprehension):
                it = node.iter
                if (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute)
                        and it.func.attr in ("values", "items") and _is_engine(it.func.value, names)):
                    target = node.target
                    if isinstance(target, ast.Tuple) and target.elts:
                        target = target.elts[-1]
                    if isinstance(target, ast.Name):
                        names.add(target.id)
        if len(names) == before:
            return names


def engine_private_access(root: Path) -> list[str]:
    """``file:line: expr`` for every access to a private attribute of Engine on an engine held outside
    bb_edge/engine/engine.py (a protocol handler, an adapter or a test uses the engine's public methods)."""
    privates = engine_privates((root / ENGINE_MODULE).read_text())
    out = []
    for top in ENGINE_SCAN:
        for path in sorted((root / top).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel == ENGINE_MODULE:
                continue
            tree = ast.parse(path.read_text(), filename=rel)
            names = _engine_names(tree)
            hits = sorted((node.lineno, ast.unparse(node)) for node in ast.walk(tree)
                          if isinstance(node, ast.Attribute) and node.attr in privates
                          and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
                          and _is_engine(node.value, names))
            out += [f"{rel}:{line}: {text}" for line, text in hits]
    return out


def test_no_engine_private_access_outside_the_engine() -> None:
    assert engine_private_access(ROOT) == []


def test_the_engine_private_check_finds_each_form(tmp_path: Path) -> None:
    (tmp_path / "bb_edge" / "engine").mkdir(parents=True)
    (tmp_path / "bb_edge" / "engine" / "engine.py").write_text(
        "class Engine:\n    def __init__(self):\n        self._table = {}\n        self.public = 1\n"
        "    def _emit(self, e):\n        self._table[e] = 1\n")
    (tmp_path / "bb_edge" / "engine" / "ota.py").write_text(
        "from bb_edge.engine.engine import Engine\n"
        "class Loader:\n"
        "    def __init__(self, engine: Engine):\n        self.engine = engine\n"
        "    def swap(self):\n        self.engine._table.pop(1)\n"          # line 6
        "def ctx(c):\n    c._engine._emit(1)\n"                              # line 8
        "def f(x: Engine):\n    return x._table\n"                           # line 10
        "def g():\n    fresh = Engine.for_node()\n    first = fresh\n    return first._table\n"  # 14
        "def h(engines):\n    for name, e in engines.items():\n        e._emit(name)\n"  # line 17
        "def fine(self, dev, eng):\n    self._table = dev._table\n    return eng.public\n")
    for top in ("tests", "bench", "examples"):
        (tmp_path / top).mkdir()
    (tmp_path / "tests" / "t.py").write_text("def t(h):\n    assert Engine()._emit and h.engine.public\n")
    assert engine_private_access(tmp_path) == [
        "bb_edge/engine/ota.py:6: self.engine._table", "bb_edge/engine/ota.py:8: c._engine._emit",
        "bb_edge/engine/ota.py:10: x._table", "bb_edge/engine/ota.py:14: first._table",
        "bb_edge/engine/ota.py:17: e._emit", "tests/t.py:2: Engine()._emit"]
# ----------------------------------------------------------- C lives in C files

#: a C preprocessor include or a C function definition (a return type, a name, a parameter list, a body)
C_SOURCE = re.compile(r'#\s*include\s*[<"]|'
                      r"\b(?:void|char|int|unsigned|float|double|size_t|u?int(?:8|16|32|64)_t|bbrt_\w+_t)"
                      r"\s+\**\w+\s*\([^;{}()]*\)\s*\{")
#: the one module that writes generated C headers: checked #define lines and the firmware header that reads them
C_CONFIG_WRITER = "bb_edge/bbrt/cconfig.py"


def c_source_in_strings(root: Path) -> list[str]:
    """``path:line`` of every Python string literal under ``root/bb_edge`` that holds C source (an ``#include`` or
    a function definition): the C of a port belongs in firmware/ as a real file, its build facts in a header
    written by bb_edge/bbrt/cconfig.py."""
    out = []
    for path in sorted((root / "bb_edge").rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[1] == "_firmware" or rel.as_posix() == C_CONFIG_WRITER:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and C_SOURCE.search(node.value):
                out.append(f"{rel}:{node.lineno}")
    return out


def test_no_c_source_in_python_strings() -> None:
    assert c_source_in_strings(ROOT) == []


def test_the_c_string_check_finds_includes_and_functions(tmp_path: Path) -> None:
    (tmp_path / "bb_edge" / "bbrt").mkdir(parents=True)
    (tmp_path / "bb_edge" / "bbrt" / "gen.py").write_text(
        'MAIN = """#include <string.h>\nint x;\n"""\n'
        'BODY = (\n    "static uint32_t le32(const uint8_t *p) {\\n"\n    "    return p[0];\\n}\\n")\n'
        "HEAD = f'#include \"{name}.h\"'\n"
        'OK = "#define LIBMOSQUITTO_MAJOR (\\\\d+)"  # a pattern that reads a header, not C source\n'
        'DOC = "int main(void) is where a C program starts"\n')
    (tmp_path / "bb_edge" / "bbrt" / "cconfig.py").write_text('X = "#include \\"bbrt.h\\""\n')
    assert c_source_in_strings(tmp_path) == ["bb_edge/bbrt/gen.py:1", "bb_edge/bbrt/gen.py:5",
                                             "bb_edge/bbrt/gen.py:7"]


# ----------------------------------------------------------- test helpers come from tests/support


def _imported_modules(node: ast.AST, package: list[str]) -> list[str]:
    """The dotted modules an import statement in a module of ``package`` names, relative imports resolved;
    for ``from P import name`` both ``P`` and ``P.name`` (the name may be a module)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
    return [base] + [f"{base}.{a.name}" for a in node.names]


def _is_test_module(module: str) -> bool:
    last = module.rsplit(".", 1)[-1]
    return module.split(".")[0] == "tests" and (last.startswith("test_") or last == "conftest")


def helper_imports_from_test_modules(root: Path) -> list[str]:
    """``file:line module`` for every import, at any depth, by which a module under tests/ takes something from a
    test module (``test_*.py``) or a conftest. Helpers shared between test modules live in tests/support;
    fixtures reach other modules through conftest.py or ``pytest_plugins``, never by import."""
    out = []
    for path in sorted((root / "tests").rglob("*.py")):
        rel = path.relative_to(root)
        package = list(rel.with_suffix("").parts[:-1])
        for node in ast.walk(ast.parse(path.read_text(), str(rel))):
            hits = [m for m in _imported_modules(node, package) if _is_test_module(m)]
            if hits:
                out.append(f"{rel.as_posix()}:{node.lineno} {hits[0]}")
    return out


def test_tests_import_helpers_only_from_support() -> None:
    assert helper_imports_from_test_modules(ROOT) == []


def test_the_helper_import_check_finds_each_form(tmp_path: Path) -> None:
    for folder in ("tests/a", "tests/b", "tests/support"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "tests/a/test_x.py").write_text(
        "from tests.b.test_y import helper\n"
        "from .test_z import other\n"
        "from tests.b import test_y\n"
        "from tests.support.waits import wait_until\n"
        "from tests.vectors.make_vectors import vectors\n"
        "def test_f():\n    import tests.b.test_y\n")
    (tmp_path / "tests/support/waits.py").write_text("from ..a.test_x import leak\nfrom .. import conftest\n")
    assert helper_imports_from_test_modules(tmp_path) == [
        "tests/a/test_x.py:1 tests.b.test_y", "tests/a/test_x.py:2 tests.a.test_z",
        "tests/a/test_x.py:3 tests.b.test_y", "tests/a/test_x.py:7 tests.b.test_y",
        "tests/support/waits.py:1 tests.a.test_x", "tests/support/waits.py:2 tests.conftest"]
