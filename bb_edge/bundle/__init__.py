"""Bundle builders: one module per ``builder`` named in a target profile.

``bb_edge.bundle.<builder>`` (dashes become underscores) defines
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
    mod_name = f"bb_edge.bundle.{profile.builder.replace('-', '_')}"
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


def lower_request(request: BuildRequest) -> tuple[Any, Any, str]:
    """Load the request's deployment and lower its node to a .bbrt program.

    Shared by the builders of bbrt-based targets (C runtime, MicroPython):
    precision from ``--precision`` or the profile, calibration from ``--calib``
    (seeded random inputs without it), ``float_ops`` kept in float32.
    Returns ``(deployment, Lowered, precision)``.
    """
    from bb_edge.bbrt.deploy import load_calibration, lower_node
    from bb_edge.compiler.manifest import load_deployment

    dep = load_deployment(request.deployment_dir)
    precision = str(request.options.get("precision") or request.profile.precision or "int8")
    samples, _synthetic = load_calibration(request.calib, dep)
    float_ops = set(request.options.get("float_ops") or ())  # type: ignore[call-overload]
    lowered = lower_node(dep, request.node, precision=precision, samples=samples, float_ops=float_ops,
                         fuse_pool=bool(request.options.get("fuse_pool")))  # C-runtime builders set it
    return dep, lowered, precision
