"""``bb-edge build DIR --target T [--target NODE=T ...] -o DIST``: per-node bundles."""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from bb_edge.bundle import BuildError, BuildRequest, BuildResult, builder_for
from bb_edge.commands._args import bundle_transport, check_output_dir, non_negative_float
from bb_edge.targets import TargetProfile, load_target, resolve_target


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
    deployment_dir: Path,
    specs: list[str],
    out: Path,
    calib: Path | None = None,
    options: dict[str, object] | None = None,
    console: Console | None = None,
) -> list[BuildResult]:
    """Build every assigned node; each bundle appears only once it is complete."""
    from bb_edge.commands._io import check_calibration
    from bb_edge.compiler.manifest import load_deployment

    console = console or Console()
    dep = load_deployment(deployment_dir)
    names = dep.node_names
    if "learning" in dep.extra:  # a learning deployment: the strategy generates its nodes
        from bb_edge.bundle.learning import learning_node_names

        names = learning_node_names(Path(deployment_dir))
    mapping = assign_targets(names, {n.name: n.target for n in dep.nodes}, specs)
    if not mapping:
        raise BuildError("no node has a target: pass --target T (all nodes) or --target NODE=T")
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
    if "learning" not in dep.extra:  # int8 edges where a bbrt int8 node meets its peers (docs/bbrt.md)
        from bb_edge.bbrt.edges import choose_for_build

        choose_for_build(Path(deployment_dir), profiles, calib, dict(options or {}))
    out.mkdir(parents=True, exist_ok=True)
    results: list[BuildResult] = []
    progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                        console=console, transient=True, disable=not console.is_terminal)
    with progress:
        task = progress.add_task("building", total=len(profiles))
        for node, profile in profiles.items():
            progress.update(task, description=f"building {node} for {profile.name} ({profile.builder})")
            console.print(f"[bold]building[/] {node} for {profile.name} ({profile.builder})")
            results.append(_build_one(Path(deployment_dir), node, profile, out, calib, options))
            progress.advance(task)
    return results


def _build_one(deployment_dir: Path, node: str, profile: TargetProfile, out: Path, calib: Path | None,
               options: dict[str, object] | None) -> BuildResult:
    """Build one bundle in a hidden temp dir and rename it into place only when complete."""
    final = out / node
    tmp = Path(tempfile.mkdtemp(prefix=f".{node}.partial-", dir=out))
    try:
        req = BuildRequest(deployment_dir=deployment_dir, node=node, profile=profile,
                           out_dir=tmp, calib=calib, options=dict(options or {}))
        res = builder_for(profile)(req)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if final.exists():
        shutil.rmtree(final)
    tmp.rename(final)
    res.out_dir = final
    res.artifacts = {k: final / Path(v).relative_to(tmp) if Path(v).is_relative_to(tmp) else Path(v)
                     for k, v in res.artifacts.items()}
    return res


def add_latency(results: list[BuildResult]) -> None:
    """Measure every model artifact's latency on this host (bb_edge.adapters.measure) into the figures."""
    import json

    from bb_edge.adapters.measure import measure_bundle

    for r in results:
        shapes = None
        if "pte" in r.artifacts:
            man = json.loads((r.out_dir / "manifest.json").read_text())
            shapes = [i["shape"] for i in man["inputs"]]
        r.figures["latency_ms"] = measure_bundle(r.artifacts, shapes)


def _run(args: argparse.Namespace) -> int:
    from bb_edge.bundle.report import flagged, write_report

    check_output_dir(args.output, "-o")

    results = build_all(Path(args.dir), args.target, Path(args.output),
                        Path(args.calib) if args.calib else None,
                        {"max_accuracy_drop": args.max_accuracy_drop, "precision": args.precision,
                         "transport": args.transport, "accept_inaccurate": args.accept_inaccurate,
                         "float_edges": args.float_edges, "ota": args.ota, "train_arith": args.train_arith})
    console = Console()
    if not args.no_report:
        add_latency(results)
        md, png = write_report(results, Path(args.output))
        console.print(escape(f"report: {md} {png}"))
    for r in results:
        console.print(f"[green]built[/] {escape(f'{r.node} -> {r.out_dir} ({r.target})')}")
    for line in flagged(results):  # kept because asked for, or an extra artifact: say so where it is seen
        console.print(f"[bold yellow]warning[/]: {escape(line)}", soft_wrap=True)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``build`` subcommand."""
    p = sub.add_parser("build", help="build per-node bundles for target profiles")
    p.add_argument("dir", help="a compiled deployment directory")
    p.add_argument("--target", action="append", default=[], metavar="[NODE=]TARGET",
                   help="target profile, family (jetson, esp32, ros2, android, linux-vm, qemu, host: its "
                        "default profile) or profile .json file, for every node, or NODE=TARGET for one node "
                        "(repeatable; `bb-edge targets` lists them)")
    p.add_argument("-o", "--output", default="dist", help="output directory (one bundle per node)")
    p.add_argument("--ota", action="store_true",
                   help="MCU targets (qemu-cortex-m3): compile in an update key and A/B program slots in RAM "
                        "(two program copies; posix host builds always take updates)")
    p.add_argument("--calib", help="calibration inputs (.npz keyed by graph input / tensor name)")
    p.add_argument("--precision", choices=["fp32", "fp16", "int8", "int8-dynamic"],
                   help="override the profile's precision (the target must support it); a precision named "
                        "here is built even when over its tolerance, and flagged")
    p.add_argument("--max-accuracy-drop", type=non_negative_float, default=None,
                   help="fail if a quantized node's error against float exceeds this (top-1 disagreement "
                        "for classifier outputs, else max error relative to the float output's magnitude)")
    p.add_argument("--transport", type=bundle_transport,
                   help="transport URL written to the bundles' env files (e.g. mqtt://broker:1883)")
    p.add_argument("--accept-inaccurate", action="store_true",
                   help="build a target's default precision even when its error exceeds that precision's "
                        "tolerance (the build report still flags it)")
    p.add_argument("--train-arith", choices=["float", "int"], default=None,
                   help="MicroPython training clients: 'int' trains with float32 held in small ints "
                        "(bbnode/train_int.py: a step allocates nothing, and is slower; docs/learning.md)")
    p.add_argument("--no-report", action="store_true", help="skip latency measurement and the build report")
    p.add_argument("--float-edges", action="store_true",
                   help="keep every edge of the nodes built float32 on the wire (default: int8 where an int8 "
                        "bbrt node meets its peers; the Python ends quantize)")
    p.set_defaults(func=_run)
