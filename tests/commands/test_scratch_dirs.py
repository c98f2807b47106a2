"""Temporary directories are removed on exit: ``bb-edge demo`` without ``-o`` and a learning example without
``--out`` leave nothing in the system temp directory; ``demo -o FILE`` is a one-line error before any work."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(ROOT)}


def test_demo_and_example_leave_no_temp_dirs(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    r = subprocess.run([sys.executable, "-m", "bb_edge.cli", "demo", "--epochs", "2", "--requests", "20",
                        "--no-native"], capture_output=True, text=True, timeout=300, env=_env(scratch), cwd=tmp_path)
    assert "split exact: yes" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    assert "temporary directory, now removed" in r.stdout
    examples = sorted((ROOT / "examples").glob("*.py"))
    example = next(p for p in examples if not p.name.startswith("_") and "federated" in p.name)
    r = subprocess.run([sys.executable, str(example)], capture_output=True, text=True, timeout=300,
                       env=_env(scratch), cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    left = sorted(p.name for p in scratch.iterdir())
    assert not [n for n in left if n.startswith(("bb-edge-demo-", "bb-learn-"))], left


def test_demo_output_that_is_a_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    r = subprocess.run([sys.executable, "-m", "bb_edge.cli", "demo", "-o", str(tmp_path / "afile")],
                       capture_output=True, text=True, timeout=60, env=_env(tmp_path))
    assert r.returncode == 1 and r.stderr.startswith("error: OutputPathError:") and len(r.stderr.splitlines()) == 1
