"""Deploy a MicroPython node bundle with mpremote (``bb-edge flash BUNDLE --port PORT --target esp32-micropython``)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from bb_edge.errors import BuildError

BUILD_JSON = "build.json"


def bundle_files(bundle_dir: str | Path) -> list[str]:
    """The bundle's files to copy (relative paths, directories first), from build.json."""
    d = Path(bundle_dir)
    if not (d / BUILD_JSON).is_file():
        raise BuildError(f"{d} is not a MicroPython bundle; run `bb-edge build DIR --target esp32-micropython`")
    facts = json.loads((d / BUILD_JSON).read_text())
    if facts.get("builder") != "micropython":
        raise BuildError(f"{d} was built for {facts.get('target')!r}, not a MicroPython target")
    files = [str(f) for f in facts["files"]]
    missing = [f for f in files if not (d / f).is_file()]
    if missing:
        raise BuildError(f"bundle {d} is incomplete: missing {', '.join(missing)}")
    return files


def flash_commands(bundle_dir: str | Path, port: str) -> list[list[str]]:
    """The exact mpremote command lines: make lib/ dirs, copy every file, soft-reset (``python -m mpremote``)."""
    d = Path(bundle_dir)
    files = bundle_files(d)
    base = [sys.executable, "-m", "mpremote", "connect", port]
    dirs = sorted({str(Path(f).parent) for f in files if str(Path(f).parent) != "."}, key=lambda s: s.count("/"))
    cmds: list[list[str]] = []
    for sub in dirs:
        parts = Path(sub).parts
        for i in range(1, len(parts) + 1):
            mk = base + ["mkdir", ":" + "/".join(parts[:i])]
            if mk not in cmds:
                cmds.append(mk)
    # the program and config first, main.py last: a board never boots a half-copied bundle's main.py
    order = sorted(files, key=lambda f: (f == "main.py", f))
    cmd = list(base)
    for f in order:
        if len(cmd) > len(base):
            cmd.append("+")
        cmd += ["cp", str(d / f), ":" + f]
    cmds.append(cmd)
    cmds.append(base + ["reset"])
    return cmds


def flash(bundle_dir: str | Path, port: str, dry_run: bool = False) -> list[str]:
    """Run (or with ``dry_run`` only return) the mpremote commands; one shell-quoted line per command."""
    cmds = flash_commands(bundle_dir, port)
    lines = [shlex.join(c) for c in cmds]
    if dry_run:
        return lines
    import importlib.util

    if importlib.util.find_spec("mpremote") is None:
        raise BuildError("mpremote is not installed: pip install mpremote (`bb-edge doctor` lists what is missing)")
    for c, line in zip(cmds, lines, strict=True):
        proc = subprocess.run(c, capture_output=True, text=True)
        # mpremote mkdir fails when the directory exists: that is fine
        if proc.returncode != 0 and not (c[4:5] == ["mkdir"] and "EEXIST" in (proc.stdout + proc.stderr)):
            raise BuildError(f"`{line}` failed:\n{proc.stdout}{proc.stderr}")
    return lines
