"""``bb-edge inspect DIR|MODEL.onnx [--png FILE] [--tensors]``: who runs what, bytes per cut."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bb_edge.commands._args import positive_int
from bb_edge.errors import InputFileError
from bb_edge.paths import check_output_file

# the compiler (onnx) and the picture (matplotlib) are imported when used: the CLI starts fast


def inspect_model(path: Path, console: Console, show_tensors: bool) -> None:
    """Summarise a single .onnx model (ops and, optionally, every tensor)."""
    from bb_edge.compiler.load import load_model, tensor_types

    model = load_model(path)
    types = tensor_types(model)
    ops: dict[str, int] = {}
    for n in model.graph.node:
        ops[n.op_type] = ops.get(n.op_type, 0) + 1
    console.print(f"{path}: {len(model.graph.node)} ops " + ", ".join(f"{k}x{v}" for k, v in sorted(ops.items())))
    from bb_edge.commands.compile import estimate_note
    from bb_edge.compiler.load import dynamic_inputs

    dynamic = dynamic_inputs(model)
    if dynamic:
        console.print(f"[yellow]dynamic input dims[/]: {estimate_note(dynamic)} (sizes and costs are estimates)")
    if show_tensors:
        t = Table(title="tensors (usable as --cut names)")
        for col in ("op", "output", "dtype", "shape"):
            t.add_column(col)
        for n in model.graph.node:
            for o in n.output:
                et, shp = types.get(o, (0, ()))
                t.add_row(n.name, o, str(et), str(list(shp)))
        console.print(t)


def state_rows(dep: object, context: int | None) -> list[tuple[str, str, int, int, int | None]]:
    """Per stateful node: (node, pairs, state bytes per session at ``context`` (default the deployment's),
    bytes per step of growing states, state budget or None)."""
    extra = getattr(dep, "extra", {})
    n_ctx = context or int(extra.get("context", 1))
    rows = []
    for node, pairs in (extra.get("state") or {}).items():
        fixed = sum(p.get("bytes", 0) for p in pairs if "bytes_per_step" not in p)
        per_step = sum(p["bytes_per_step"] for p in pairs if "bytes_per_step" in p)
        budget = dep.node(node).limits.get("state_budget")  # type: ignore[attr-defined]
        rows.append((node, ", ".join(f"{p['output']}->{p['input']}" for p in pairs), fixed + per_step * n_ctx,
                     per_step, budget))
    return rows


def inspect_deployment(directory: Path, console: Console, png: str | None, context: int | None = None) -> None:
    """Tables of nodes and cuts, plus the partition picture; session state per node at ``context`` steps."""
    from bb_edge.deployment.manifest import load_deployment
    from bb_edge.viz.partition import draw_partition, human_bytes

    dep = load_deployment(directory)
    t = Table(title=f"deployment {dep.name}")
    dynamic = dep.extra.get("dynamic_inputs") or {}
    mflop = "MFLOP (estimate)" if dynamic else "MFLOP"
    for col in ("node", "id", "ops", "params", mflop, "peak activations", "inputs", "outputs", "target"):
        t.add_column(col)
    for n in dep.nodes:
        t.add_row(n.name, str(n.id), str(n.ops), human_bytes(n.param_bytes), f"{n.flops / 1e6:.1f}",
                  human_bytes(n.peak_activation_bytes), ",".join(n.inputs), ",".join(n.outputs), n.target or "-")
    console.print(t)
    if dynamic:
        from bb_edge.commands.compile import estimate_note

        console.print(f"[yellow]costs are estimates[/]: dynamic dims of {estimate_note(dynamic)} when compiling")
    c = Table(title="cuts (cross-node edges)")
    for col in ("edge", "tensor", "from", "to", "dtype", "shape", "bytes/inference"):
        c.add_column(col)
    for e in dep.edges:
        c.add_row(str(e.id), e.tensor, e.src, e.dst, e.dtype, str(e.shape), human_bytes(e.bytes_per_inference))
    console.print(c)
    console.print(f"total bytes crossing cuts per inference: "
                  f"{human_bytes(sum(e.bytes_per_inference for e in dep.edges))}")
    rows = state_rows(dep, context)
    if rows:
        n_ctx = context or dep.extra.get("context", 1)
        s = Table(title=f"session state (kept on the node, never on the wire) at context {n_ctx}")
        for col in ("node", "state pairs", "params", "state/session", "per step", "state budget", "sessions fit"):
            s.add_column(col)
        for node, pairs, nbytes, per_step, budget in rows:
            s.add_row(node, pairs, human_bytes(dep.node(node).param_bytes), human_bytes(nbytes),
                      human_bytes(per_step) if per_step else "-", human_bytes(budget) if budget else "default",
                      str(budget // nbytes) if budget and nbytes else "-")
        console.print(s)
    if png:
        console.print(f"partition picture: {draw_partition(dep, png)}")


def inspect_training(path: Path, console: Console, batch: int, target: str | None) -> None:
    """The training step's arena on every bbrt target (FitError when it does not fit ``target``)."""
    from bb_edge.bbrt.train_lower import training_report
    from bb_edge.compiler.load import load_model

    lowered, rows = training_report(load_model(path), batch, target=target)
    bd = lowered.breakdown()
    console.print(f"training step (batch {batch}, SGD momentum): arena {bd['arena']} B = params {bd['params']} "
                  f"+ optimizer state {bd['optimizer_state']} + planned {bd['planned']}; "
                  f"lower bound {bd['lower_bound']} B")
    t = Table(title="training footprint per bbrt target")
    for col in ("target", "need", "RAM", "fits", "over by"):
        t.add_column(col)
    for r in rows:
        t.add_row(str(r["target"]), str(r["need"]), str(r["ram"]), "yes" if r["fits"] else "no", str(r["over"]))
    console.print(t)


def _run(args: argparse.Namespace) -> int:
    console = Console()
    path = Path(args.path)
    if args.png:  # before any work: a bad --png fails in one line
        check_output_file(args.png, "--png")
        Path(args.png).parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        raise InputFileError(f"{path}: no such file or directory; give a deployment directory, a build "
                             f"directory (DIST/<node>) or MODEL.onnx")
    if path.is_file() and path.suffix == ".onnx":
        inspect_model(path, console, args.tensors)
        if args.train_batch:  # the bbrt training step's footprint per target (docs/bbrt.md "Training")
            inspect_training(path, console, args.train_batch, args.train_target)
        return 0
    # MCU builds (bb_edge.bbrt) carry their own memory report
    try:
        bbrt = importlib.import_module("bb_edge.bbrt.report")
    except ModuleNotFoundError:
        bbrt = None
    if bbrt is not None and hasattr(bbrt, "is_mcu_build") and bbrt.is_mcu_build(path):
        bbrt.print_report(path, console, args.png)
        return 0
    inspect_deployment(path, console, args.png, args.context)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``inspect`` subcommand."""
    p = sub.add_parser("inspect", help="show nodes, cuts and memory of a deployment, build or model")
    p.add_argument("path", help="deployment directory, MCU build directory, or MODEL.onnx")
    p.add_argument("--png", help="write the partition (or memory map) picture here")
    p.add_argument("--tensors", action="store_true", help="with MODEL.onnx: list every tensor")
    p.add_argument("--train-batch", type=int, default=0, metavar="N",
                   help="with MODEL.onnx: the bbrt training step's footprint per target at batch N")
    p.add_argument("--context", type=positive_int, metavar="N",
                   help="with a deployment: count growing session state (a dynamic dim) at N steps")
    p.add_argument("--train-target", metavar="TARGET", help="with --train-batch: refuse (FitError) if it does not fit")
    p.set_defaults(func=_run)
