"""Bundles: one builder per ``builder`` named in a target profile, and one per kind of learning node.

:data:`BUILDERS` maps (builder, learning?) to the function that makes one node's bundle;
:func:`builder_for` is the one dispatch. :mod:`bb_edge.bundle.build` builds a whole deployment.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bb_edge.errors import BuildError
from bb_edge.targets import TargetProfile

__all__ = ["BUILDERS", "BuildError", "BuildRequest", "BuildResult", "builder_for", "lower_request"]


@dataclass
class BuildRequest:
    """What one builder call must produce: the bundle of one node for one target."""

    deployment_dir: Path
    node: str
    profile: TargetProfile
    out_dir: Path  # DIST/<node>; the builder writes here (a temp dir renamed on success)
    calib: Path | None = None
    options: dict[str, Any] = field(default_factory=dict)
    #: the build's lowerings (:class:`bb_edge.bundle.lowering.BuildLowering`); None: the builder makes its own
    lowering: Any = None


@dataclass
class BuildResult:
    """What a builder made: artifacts and figures for the build report."""

    node: str
    target: str
    out_dir: Path
    artifacts: dict[str, Path] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)
    #: the deployment this bundle was built from: the compile directory, or the build output's rewritten copy
    deployment_dir: Path | None = None


# (builder named by the target profile, learning deployment?) -> "module:function"; one table, one dispatch
BUILDERS: dict[tuple[str, bool], str] = {
    ("linux", False): "bb_edge.bundle.builders.linux:build",
    ("jetson", False): "bb_edge.bundle.builders.jetson:build",
    ("ros2", False): "bb_edge.bundle.builders.ros2:build",
    ("android", False): "bb_edge.bundle.builders.android:build",
    ("mcu-bbrt", False): "bb_edge.bundle.builders.mcu_bbrt:build",
    ("micropython", False): "bb_edge.bundle.builders.micropython:build",
    # a learning deployment: a node that trains, or a refusal that says which targets can
    ("linux", True): "bb_edge.bundle.learning.linux:build_learning",
    ("jetson", True): "bb_edge.bundle.learning.linux:build_learning",
    ("ros2", True): "bb_edge.bundle.learning.linux:build_learning",
    ("android", True): "bb_edge.bundle.learning.linux:build_learning",
    ("mcu-bbrt", True): "bb_edge.bundle.learning.mcu:build",
    ("micropython", True): "bb_edge.bundle.learning.micropython:build_training_client",
}


def builder_for(profile: TargetProfile, learning: bool = False) -> Callable[[BuildRequest], BuildResult]:
    """The build function for a profile's ``builder`` (and a learning deployment or not); BuildError if none."""
    where = BUILDERS.get((profile.builder, bool(learning)))
    if where is None:
        raise BuildError(
            f"target {profile.name!r} names builder {profile.builder!r}, which this version of bb-edge does not "
            f"have (builders: {', '.join(sorted({b for b, _ in BUILDERS}))})")
    mod_name, fn_name = where.split(":")
    fn: Callable[[BuildRequest], BuildResult] = getattr(importlib.import_module(mod_name), fn_name)
    return fn


def lower_request(request: BuildRequest) -> tuple[Any, Any, str]:
    """Load the request's deployment and lower its node to a .bbrt program.

    Shared by the builders of bbrt-based targets (C runtime, MicroPython):
    precision from ``--precision`` or the profile, calibration from ``--calib``
    (seeded random inputs without it), ``float_ops`` kept in float32. The build's
    :class:`~bb_edge.bundle.lowering.BuildLowering` hands over the lowering its int8-edge plan made.
    Returns ``(deployment, Lowered, precision)``.
    """
    from bb_edge.bundle.lowering import BuildLowering, lowering_options
    from bb_edge.deployment.manifest import load_deployment

    dep = load_deployment(request.deployment_dir)
    precision = str(request.options.get("precision") or request.profile.precision or "int8")
    lowering = request.lowering or BuildLowering(request.calib, request.options)
    fuse_pool, float_ops = lowering_options(str(request.profile.builder), request.options)
    return dep, lowering.lower(dep, request.node, precision, fuse_pool, float_ops), precision
