"""``bb-edge build DIR --target T [--target NODE=T ...] -o DIST``: per-node bundles."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from bb_edge.bundle import BuildResult
from bb_edge.bundle.build import build_all
from bb_edge.commands._args import TargetAppend, bundle_transport, node_backend, non_negative_float, target_spec
from bb_edge.paths import check_output_dir


def add_latency(results: list[BuildResult]) -> None:
    """Measure every model artifact's latency on this host (bb_edge.adapters.devices.measure) into the figures."""
    import json

    from bb_edge.adapters.devices.measure import measure_bundle

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
                         "float_edges": args.float_edges, "ota": args.ota, "train_arith": args.train_arith,
                         "widen": not args.no_widen,
                         "node_backend": dict(args.node_backend)})
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
    p.add_argument("--target", action=TargetAppend, type=target_spec, default=[], metavar="[NODE=]TARGET",
                   help="target profile, family (jetson, esp32, ros2, android, linux-vm, qemu, host: its "
                        "default profile) or profile .json file, for every node, or NODE=TARGET for one node "
                        "(repeatable; `bb-edge targets` lists them)")
    p.add_argument("-o", "--output", default="dist", help="output directory (one bundle per node)")
    p.add_argument("--ota", action="store_true",
                   help="MCU targets (qemu-cortex-m3): compile in an update key and A/B program slots in RAM "
                        "(two program copies; posix host builds always take updates)")
    p.add_argument("--no-widen", action="store_true",
                   help="Cortex-M4 (DSP kernel) targets: keep conv/FC weights int8 in flash instead of widened "
                        "to int16 pairs (half the weights' flash, more instructions; profile key widen_weights)")
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
    p.add_argument("--node-backend", action="append", default=[], type=node_backend, metavar="NODE=BACKEND",
                   help="compute one node with another backend than its target's: android-arm64 nodes take "
                        "executorch (default) or ort (ONNX Runtime mobile, for ops ExecuTorch cannot lower; "
                        "repeatable)")
    p.set_defaults(func=_run)
