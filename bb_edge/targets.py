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


def load_target(name: str) -> TargetProfile:
    """Load a profile by name; UnknownTargetError suggests the closest names."""
    path = targets_dir() / f"{name}.json"
    if not path.is_file():
        names = list_targets()
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.4)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        raise UnknownTargetError(
            f"no target profile named {name!r}.{hint} Run `bb-edge targets` to list them "
            f"(profiles are JSON files in {targets_dir()})."
        )
    raw = json.loads(path.read_text())
    return TargetProfile(
        name=raw.get("name", name),
        summary=raw.get("summary", ""),
        builder=raw["builder"],
        runtime=raw.get("runtime", "onnxruntime"),
        arch=raw.get("arch", "unknown"),
        ram_bytes=int(raw.get("ram_bytes", 0)),
        flash_bytes=int(raw.get("flash_bytes", 0)),
        precision=raw.get("precision", "fp32"),
        raw=raw,
    )
