"""Target profiles: data files in targets/ describing a kind of node.

A profile is ``targets/<name>.json``. Adding a board is adding a file. Keys:

- ``name``, ``summary`` (one line), ``builder`` (which bundle builder makes it:
  ``mcu-bbrt``, ``linux``, ``jetson``, ``ros2``, ``android``, ``micropython``)
- ``arch``, ``runtime`` (``onnxruntime``, ``executorch``, ``bbrt``,
  ``micropython``), ``backend``, ``precision`` (default precision),
  ``precisions`` (supported), ``execution_providers`` (ORT preference order)
- ``ram_bytes``, ``flash_bytes`` (limits a node must fit); optional ``reserved_ram_bytes``,
  ``reserved_flash_bytes`` (taken by the platform) and ``runtime_ram_bytes``, ``runtime_code_bytes``
  (the runtime's own, for ``bb-edge compile --target``'s placement estimates: bb_edge.compiler.budgets)
- ``packaging``, ``transport`` (default transport URL scheme), plus any
  builder-specific keys (``chip``, ``qemu_machine``, ``toolchain`` ...).
- ``family`` (``jetson``, ``esp32``, ``ros2``, ``android``, ``linux-vm``,
  ``qemu``, ``host``) and ``family_default`` (true on exactly one profile of
  each family): ``--target jetson`` means that family's default profile.
- ``widen_weights`` (``mcu-bbrt`` Cortex-M4 targets; default true): false keeps conv/FC weights int8 in flash
  instead of widened to int16 pairs for the DSP kernels (bb_edge/bbrt/widen.py; ``bb-edge build --no-widen``).
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
    """Where profiles live: $BB_EDGE_TARGETS, else the package's ``target_profiles``."""
    env = os.environ.get("BB_EDGE_TARGETS")
    if env:
        return Path(env)
    return package_data("target_profiles")


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
    family: str = ""
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def get(self, key: str, default: Any = None) -> Any:
        """Any other key of the profile file."""
        return self.raw.get(key, default)


def list_targets() -> list[str]:
    """Names of every profile, sorted."""
    return sorted(p.stem for p in targets_dir().glob("*.json"))


def families() -> dict[str, list[str]]:
    """Family name -> its profile names (the default first, then by name)."""
    members: dict[str, list[tuple[bool, str]]] = {}
    for name in list_targets():
        raw = _read_profile(targets_dir() / f"{name}.json")
        if raw.get("family"):
            members.setdefault(str(raw["family"]), []).append((not raw.get("family_default"), name))
    return {fam: [n for _, n in sorted(ms)] for fam, ms in sorted(members.items())}


def family_default(family: str) -> str | None:
    """The default profile of ``family`` (None if no profile belongs to it).

    TargetProfileError if the family has no default or more than one: the
    choice must not depend on file order.
    """
    defaults, members = [], []
    for name in list_targets():
        raw = _read_profile(targets_dir() / f"{name}.json")
        if raw.get("family") == family:
            members.append(name)
            if raw.get("family_default") is True:
                defaults.append(name)
    if not members:
        return None
    if len(defaults) != 1:
        raise TargetProfileError(
            f"target family {family!r} has {len(defaults)} default profiles ({', '.join(defaults) or 'none'}) "
            f"among {', '.join(members)}; set \"family_default\": true on exactly one of them in {targets_dir()}")
    return defaults[0]


def resolve_target(name: str) -> tuple[str, str | None]:
    """``(profile, family)``: a profile name or path is itself; a family name is its default profile.

    A profile named like a family (``esp32``, ``host``) wins, which is why each
    of those is also its family's default.
    """
    if _target_path(name) is not None:
        return name, None
    chosen = family_default(name)
    return (chosen, name) if chosen else (name, None)


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
    except RecursionError:  # nested deeper than the parser's stack: no profile is
        raise TargetProfileError(f"target file {path}: JSON nested too deeply to be a target profile; fix the "
                                 f"file (see docs/targets.md for the keys)") from None
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
    for key in ("ram_bytes", "flash_bytes", "reserved_ram_bytes", "reserved_flash_bytes", "runtime_ram_bytes",
                "runtime_code_bytes"):
        value = raw.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TargetProfileError(f"target file {path}: {key!r} must be a whole number of bytes >= 0, "
                                     f"not {value!r}; fix the file")
    for key in ("family_default", "widen_weights"):
        if key in raw and not isinstance(raw[key], bool):
            raise TargetProfileError(f"target file {path}: {key!r} must be true or false, not {raw[key]!r}; "
                                     f"fix the file")
    for key in ("name", "summary", "runtime", "arch", "precision", "family"):
        if key in raw and not isinstance(raw[key], str):
            raise TargetProfileError(f"target file {path}: {key!r} must be a string, not {raw[key]!r}; fix the file")
    return raw


def load_target(name: str) -> TargetProfile:
    """Load a profile by name, family or ``.json`` path; UnknownTargetError suggests the closest names."""
    name, _family = resolve_target(name)
    path = _target_path(name)
    if path is None:
        names = list_targets() + list(families())
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.4)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise UnknownTargetError(
            f"no target profile or family named {name!r}; {hint}run `bb-edge targets` to list profiles and "
            f"families (profiles are JSON files in {targets_dir()}; a path to your own .json file works too)"
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
        family=str(raw.get("family", "")),
        raw=raw,
    )
