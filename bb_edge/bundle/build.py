"""Build a compiled deployment into per-node bundles: the library call behind ``bb-edge build``.

Reads the compile directory and never writes to it: a stage never rewrites its input. Where the
int8-edge decision changes the deployment's contract, the changed deployment goes into the build output
(:data:`BUILT_DEPLOYMENT`) and the builders read it from there.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from bb_edge.bundle import BuildError, BuildRequest, BuildResult, builder_for
from bb_edge.deployment.arrays import check_calibration
from bb_edge.deployment.learning import is_learning, learning_node_names
from bb_edge.deployment.manifest import load_deployment
from bb_edge.names import check_name
from bb_edge.paths import check_output_dir, path_inside
from bb_edge.targets import TargetProfile, load_target, resolve_target

#: the directory of a build output that holds the deployment its bundles were built from, when the build
#: changed it (int8 edges); the compile directory itself is never written
BUILT_DEPLOYMENT = "_deployment"


def assign_targets(node_names: list[str], preset: dict[str, str | None], specs: list[str]) -> dict[str, str]:
    """Map every node to a target name.

    ``NODE=T`` assigns one node; a bare ``T`` applies to every node not assigned
    otherwise; a node with neither keeps its manifest target. Nodes left without
    a target are not built.
    """
    explicit: dict[str, str] = {}
    default: str | None = None
    for spec in specs:
        if "=" in spec:
            node, target = spec.split("=", 1)
            if node not in node_names:
                raise BuildError(f"--target {spec}: no node {node!r}; nodes: {', '.join(node_names)}")
            explicit[node] = target
        else:
            if default is not None:
                raise BuildError(
                    f"two default targets ({default}, {spec}); use NODE=TARGET to give nodes different targets"
                )
            default = spec
    out: dict[str, str] = {}
    for n in node_names:
        t = explicit.get(n) or default or preset.get(n)
        if t:
            out[n] = t
    return out


def build_all(
    deployment_dir: Path | str,
    specs: list[str],
    out: Path | str,
    calib: Path | str | None = None,
    options: dict[str, object] | None = None,
    console: Console | None = None,
) -> list[BuildResult]:
    """Build every assigned node; each bundle appears only once it is complete.

    ``deployment_dir`` (the output of ``bb-edge compile``) is only read. When int8 edges change its
    contract, the rewritten deployment is written to ``out/_deployment`` and the bundles are built from
    it (each result's ``deployment_dir`` says which one); a later build into the same ``out`` starts from
    that copy, so nodes built in separate runs agree on their edges.
    """
    console = console or Console()
    # a library call: callers pass str as often as Path
    deployment_dir, out = Path(deployment_dir), Path(out)
    calib = Path(calib) if calib is not None else None
    dep = load_deployment(deployment_dir)
    learning = is_learning(dep)
    names = learning_node_names(dep) if learning else dep.node_names  # a learning strategy names its nodes
    mapping = assign_targets(names, {n.name: n.target for n in dep.nodes}, specs)
    if not mapping:
        raise BuildError("no node has a target: pass --target T (all nodes) or --target NODE=T")
    for n in dict((options or {}).get("node_backend") or {}):  # type: ignore[call-overload]
        if n not in mapping:
            raise BuildError(f"--node-backend {n}=...: no node {n!r} is built; built: {', '.join(mapping)}")
    profiles: dict[str, TargetProfile] = {}
    announced: set[str] = set()
    for n, t in mapping.items():
        chosen, family = resolve_target(t)
        if family and family not in announced:  # say which board a family name stands for
            announced.add(family)
            console.print(escape(f"target family {family} -> {chosen} (its default; others: bb-edge targets)"))
        profiles[n] = load_target(chosen)
    # inputs and the output location are checked before any (minutes-long) build starts
    if calib is not None:
        check_calibration(dep, calib)
    check_output_dir(out, "-o")
    for n in profiles:  # every bundle path stays inside -o, checked before anything is created or deleted
        path_inside(out, check_name(n, "node"), option="-o")
    out.mkdir(parents=True, exist_ok=True)
    source = Path(deployment_dir)
    lowering = None
    if not learning:  # int8 edges where a bbrt int8 node meets its peers (docs/bbrt.md), into the output;
        # the plan lowers each int8 node once and the builders take those lowerings (bundle/lowering.py)
        from bb_edge.bundle.lowering import BuildLowering

        lowering = BuildLowering(calib, dict(options or {}))
        source = lowering.choose(Path(deployment_dir), out / BUILT_DEPLOYMENT, profiles)
    results: list[BuildResult] = []
    progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                        console=console, transient=True, disable=not console.is_terminal)
    with progress:
        task = progress.add_task("building", total=len(profiles))
        for node, profile in profiles.items():
            progress.update(task, description=f"building {node} for {profile.name} ({profile.builder})")
            console.print(f"[bold]building[/] {node} for {profile.name} ({profile.builder})")
            results.append(_build_one(source, node, profile, out, calib, options, learning, lowering))
            progress.advance(task)
    return results


def _build_one(deployment_dir: Path, node: str, profile: TargetProfile, out: Path, calib: Path | None,
               options: dict[str, object] | None, learning: bool, lowering: object = None) -> BuildResult:
    """Build one bundle in a hidden temp dir and rename it into place only when complete."""
    final = path_inside(out, check_name(node, "node"), option="-o")  # before anything is created or deleted
    tmp = Path(tempfile.mkdtemp(prefix=f".{node}.partial-", dir=out))
    try:
        req = BuildRequest(deployment_dir=deployment_dir, node=node, profile=profile,
                           out_dir=tmp, calib=calib, options=dict(options or {}), lowering=lowering)
        res = builder_for(profile, learning)(req)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if final.exists():
        shutil.rmtree(final)
    tmp.rename(final)
    res.out_dir = final
    res.deployment_dir = deployment_dir
    res.artifacts = {k: final / Path(v).relative_to(tmp) if Path(v).is_relative_to(tmp) else Path(v)
                     for k, v in res.artifacts.items()}
    return res
