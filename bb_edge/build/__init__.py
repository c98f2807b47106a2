"""Bundle builders: one module per ``builder`` named in a target profile.

``bb_edge.build.<builder>`` (dashes become underscores) defines
``build(request: BuildRequest) -> BuildResult``. :func:`builder_for` finds it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bb_edge.errors import BBError
from bb_edge.targets import TargetProfile


class BuildError(BBError):
    """A bundle could not be built; the message says why and how to fix it."""


@dataclass
class BuildRequest:
    """What one builder call must produce: the bundle of one node for one target."""

    deployment_dir: Path
    node: str
    profile: TargetProfile
    out_dir: Path  # DIST/<node>; the builder writes here (a temp dir renamed on success)
    calib: Path | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class BuildResult:
    """What a builder made: artifacts and figures for the build report."""

    node: str
    target: str
    out_dir: Path
    artifacts: dict[str, Path] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)


def builder_for(profile: TargetProfile) -> Callable[[BuildRequest], BuildResult]:
    """The build function for a profile's ``builder``; BuildError if none exists."""
    mod_name = f"bb_edge.build.{profile.builder.replace('-', '_')}"
    try:
        mod = importlib.import_module(mod_name)
    except ModuleNotFoundError as exc:
        if exc.name != mod_name:
            raise
        raise BuildError(
            f"target {profile.name!r} names builder {profile.builder!r}, which this version "
            f"of bb-edge does not have (no module {mod_name})"
        ) from exc
    fn: Callable[[BuildRequest], BuildResult] = mod.build
    return fn
