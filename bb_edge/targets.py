"""Target profiles: data files in targets/ describing a kind of node.

A profile is ``targets/<name>.json``. Adding a board is adding a file. Keys:

- ``name``, ``summary`` (one line), ``builder`` (which bundle builder makes it:
  ``mcu-bbrt``, ``linux``, ``jetson``, ``ros2``, ``android``, ``micropython``)
- ``arch``, ``runtime`` (``onnxruntime``, ``executorch``, ``bbrt``,
  ``micropython``), ``backend``, ``precision`` (default precision),
  ``precisions`` (supported), ``execution_providers`` (ORT preference order)
- ``ram_bytes``, ``flash_bytes`` (limits a node must fit)
- ``packaging``, ``transport`` (default transport URL scheme), plus any
  builder-specific keys (``chip``, ``qemu_machine``, ``toolchain`` ...).
"""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bb_edge.errors import BBError
from bb_edge.resources import package_data

#: the bundle builders of this version (modules of :mod:`bb_edge.bundle`)
BUILDERS = ("mcu-bbrt", "linux", "jetson", "ros2", "android", "micropython")


class UnknownTargetError(BBError):
    """A target name matches no profile file."""


def targets_dir() -> Path:
    """Where profiles live: $BB_EDGE_TARGETS, else the package's ``_targets`` (the repository's targets/)."""
    env = os.environ.get("BB_EDGE_TARGETS")
    if env:
        return Path(env)
    return package_data("_targets")


@dataclass(frozen=True)
class TargetProfile:
    """One parsed target profile."""

    name: str
    summary: str
    builder: str
    runtime: str
    arch: str
    ram_bytes: int
    flash_bytes: int
    precision: str = "fp32"
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def get(self, key: str, default: Any = None) -> Any:
        """Any other key of the profile file."""
        return self.raw.get(key, default)


def list_targets() -> list[str]:
    """Names of every profile, sorted."""
    return sorted(p.stem for p in targets_dir().glob("*.json"))


class TargetProfileError(BBError):
    """A target profile file is not valid (not JSON, not an object, a missing ``builder``, a bad value)."""


def _target_path(name: str) -> Path | None:
    """The file ``name`` refers to: a profile in :func:`targets_dir`, or a path to a ``.json`` file."""
    if name.endswith(".json") or os.sep in name or "/" in name:
        path = Path(name)
        return path if path.is_file() else None
    path = targets_dir() / f"{name}.json"
    return path if path.is_file() else None


def _read_profile(path: Path) -> dict[str, Any]:
    """The profile's JSON object, with the keys every builder relies on checked."""
    try:
        raw = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TargetProfileError(f"target file {path}: not readable JSON ({exc}); fix the file "
                                 f"(see docs/targets.md for the keys)") from None
    if not isinstance(raw, dict):
        raise TargetProfileError(f"target file {path}: must hold a JSON object, not {type(raw).__name__}; "
                                 f"see docs/targets.md for the keys")
    if not isinstance(raw.get("builder"), str) or not raw["builder"]:
        raise TargetProfileError(
            f"target file {path}: has no \"builder\" key; add one of {', '.join(BUILDERS)} "
            f"(copy a profile from `bb-edge targets` as a start)")
    for key in ("ram_bytes", "flash_bytes"):
        value = raw.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TargetProfileError(f"target file {path}: {key!r} must be a whole number of bytes >= 0, "
                                     f"not {value!r}; fix the file")
    for key in ("name", "summary", "runtime", "arch", "precision"):
        if key in raw and not isinstance(raw[key], str):
            raise TargetProfileError(f"target file {path}: {key!r} must be a string, not {raw[key]!r}; fix the file")
    return raw


def load_target(name: str) -> TargetProfile:
    """Load a profile by name or ``.json`` path; UnknownTargetError suggests the closest names."""
    path = _target_path(name)
    if path is None:
        names = list_targets()
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.4)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise UnknownTargetError(
            f"no target profile named {name!r}; {hint}run `bb-edge targets` to list them "
            f"(profiles are JSON files in {targets_dir()}; a path to your own .json file works too)"
        )
    raw = _read_profile(path)
    return TargetProfile(
        name=raw.get("name", path.stem),
        summary=raw.get("summary", ""),
        builder=raw["builder"],
        runtime=raw.get("runtime", "onnxruntime"),
        arch=raw.get("arch", "unknown"),
        ram_bytes=int(raw.get("ram_bytes", 0)),
        flash_bytes=int(raw.get("flash_bytes", 0)),
        precision=raw.get("precision", "fp32"),
        raw=raw,
    )
