"""Building this checkout's wheel from a copy of the working tree, and the wheelhouse its dependencies install
from: the wheel-install and base-venv tests share them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


WHEELHOUSE = Path(os.environ.get("BB_EDGE_CACHE", Path.home() / ".cache" / "bb-edge")) / "wheelhouse"


#: working-tree litter and what the wheel never carries
IGNORE = shutil.ignore_patterns(".git", "node_modules", "__pycache__", "build", "dist", "*.egg-info", ".mypy_cache",
                                ".ruff_cache", ".hypothesis", ".pytest_cache", "*.whl", "tests", "bench", "*.o")


def run_cmd(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    """Run ``cmd`` in ``cwd`` with ``env``, capturing text output."""
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def check_ok(proc: subprocess.CompletedProcess[str]) -> str:
    """Assert ``proc`` succeeded (showing its output tails); its stdout, whitespace-normalised."""
    assert proc.returncode == 0, f"{proc.args}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return " ".join(proc.stdout.split())


def build_wheel(base: Path) -> Path:
    """Build this checkout's wheel from a copy of it under ``base`` (the checkout gets no build litter)."""
    src = base / "src"
    shutil.copytree(ROOT, src, symlinks=True, ignore=IGNORE)
    cmd = [sys.executable, "-m", "build", "--wheel", "--outdir", str(base / "wheel")]
    try:  # the installed setuptools is enough when it is recent: no isolated env to download
        from importlib.metadata import version

        if int(version("setuptools").split(".")[0]) >= 77:
            cmd.append("--no-isolation")
    except Exception:  # noqa: BLE001 - no setuptools here: let build make its isolated env
        pass
    check_ok(run_cmd([*cmd, str(src)], base, dict(os.environ), 300))
    wheels = sorted((base / "wheel").glob("bb_edge-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def install_from_wheelhouse(python: str, wheel: Path, cwd: Path, env: dict[str, str], timeout: float,
                            extras: str = "") -> None:
    """``pip install wheel`` into ``python``'s environment from the wheelhouse only (``--no-index``); on the first
    run on a machine, or when a dependency is missing from it, fill the wheelhouse once through pip's configured
    index, then install offline. ``extras`` (e.g. ``"llm"``) installs the wheel with those extras."""
    pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    req = f"{wheel}[{extras}]" if extras else str(wheel)
    offline = run_cmd([*pip, "--no-index", "--find-links", str(WHEELHOUSE), req], cwd, env, timeout)
    if offline.returncode != 0:
        WHEELHOUSE.mkdir(parents=True, exist_ok=True)
        check_ok(run_cmd([sys.executable, "-m", "pip", "wheel", "-q", "--disable-pip-version-check", "--wheel-dir",
                          str(WHEELHOUSE), req], cwd, dict(os.environ), 900))
        for stale in WHEELHOUSE.glob("bb_edge-*.whl"):
            stale.unlink()  # the project itself always comes from the freshly built wheel
        check_ok(run_cmd([*pip, "--no-index", "--find-links", str(WHEELHOUSE), req], cwd, env, timeout))


def install_no_deps(python: str, package: str, cwd: Path, env: dict[str, str], timeout: float) -> None:
    """``pip install --no-deps package`` into ``python``'s environment from the wheelhouse (downloaded into it
    once through pip's configured index when missing)."""
    pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps"]
    if run_cmd([*pip, "--no-index", "--find-links", str(WHEELHOUSE), package], cwd, env, timeout).returncode != 0:
        WHEELHOUSE.mkdir(parents=True, exist_ok=True)
        check_ok(run_cmd([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps",
                          "-d", str(WHEELHOUSE), package], cwd, dict(os.environ), 900))
        check_ok(run_cmd([*pip, "--no-index", "--find-links", str(WHEELHOUSE), package], cwd, env, timeout))
