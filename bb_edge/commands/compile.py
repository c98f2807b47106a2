"""``bb-edge compile MODEL.onnx|MODEL.tflite|FILE.py:Module (--nodes N | --cut T1,T2 | --place FILE.json) -o DIR``."""

from __future__ import annotations

import argparse
import json
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from bb_edge.commands._args import TargetAppend, byte_size, byte_sizes, name_list, positive_int, target_spec
from bb_edge.errors import InputFileError, UsageError
from bb_edge.names import cli_name, is_name
from bb_edge.paths import check_input_path, check_output_dir

if TYPE_CHECKING:  # onnx is imported when a command runs, not when the CLI parses its arguments
    import onnx


def load_source(spec: str) -> onnx.ModelProto | Path:
    """An .onnx path, or ``FILE.py:ModuleClass`` recorded into a ModelProto."""
    if ":" in spec and spec.split(":", 1)[0].endswith(".py"):
        from bb_edge.errors import BBError, RecordingError
        from bb_edge.ir.load import record_from_file

        try:
            return record_from_file(spec)
        except BBError:
            raise
        except Exception as exc:  # the user's module raised while importing or recording: say whose code it was
            raise RecordingError(f"{spec}: the module raised {type(exc).__name__}: {exc}; fix the module "
                                 f"(bb-edge --debug shows where)") from exc
    path = Path(spec)
    if not path.is_file():
        what = "is a directory" if path.is_dir() else "no such file"
        raise InputFileError(f"{spec}: {what}; give MODEL.onnx or FILE.py:ModuleClass")
    if path.suffix.lower() == ".tflite":  # an int8 TFLite flatbuffer, translated to ONNX QDQ (bb_edge/tflite)
        from bb_edge.tflite import load_tflite

        return load_tflite(path)
    return path


def input_shape(text: str) -> tuple[str, list[int]]:
    """``NAME=1,3,640,640`` for ``--input-shape`` (argparse type: a bad value is a one-line usage error)."""
    name, sep, dims = text.rpartition("=")
    try:
        shape = [int(d) for d in dims.split(",")]
    except ValueError:
        shape = []
    if not sep or not name or not shape or any(d < 1 for d in shape):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not NAME=D1,D2,...; give a graph input name and positive dims, e.g. x=1,3,640,640")
    return name, shape


def input_value(text: str) -> tuple[str, list[str]]:
    """``NAME=V1,V2,...`` for ``--input-value`` (the dtype check is the compiler's: InputValueError)."""
    name, sep, values = text.rpartition("=")
    elems = [v.strip() for v in values.split(",")]
    if not sep or not name or not all(elems):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not NAME=VALUE[,VALUE...]; give a graph input name and its elements, e.g. sr=16000")
    return name, elems


def _run(args: argparse.Namespace) -> int:
    check_output_dir(args.output, "-o")  # before any work: a bad -o fails in one line
    if args.model.lower().endswith(".gguf"):
        return _compile_gguf(args)
    place = None
    if args.place:
        check_input_path(args.place, "--place")
        try:
            place = json.loads(Path(args.place).read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputFileError(f"--place {args.place}: cannot read a JSON op->node map ({exc}); "
                                 f'write {{"op name": "node", "*": "default node"}}') from exc
        if not isinstance(place, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                  for k, v in place.items()):
            raise InputFileError(f"--place {args.place}: must be a JSON object of op name -> node name; "
                                 f'write {{"op name": "node", "*": "default node"}}')
    from bb_edge.compiler.compile import compile_model

    source = load_source(args.model)
    names = args.names
    limits = args.memory_limit
    if limits and args.nodes and len(limits) not in (1, args.nodes):
        raise UsageError(f"--memory-limit has {len(limits)} values for --nodes {args.nodes}; give one value "
                         f"(used for every node) or {args.nodes} values")
    if limits and len(limits) == 1 and args.nodes:
        limits = limits * args.nodes
    c = Console()
    from bb_edge.compiler.compile import PlacementWarning

    with c.status(f"compiling {args.model}: check, fold constants, infer shapes, place, partition"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", PlacementWarning)  # printed below from the manifest, once
        dep, _ = compile_model(
            source, nodes=args.nodes, cuts=args.cut.split(",") if args.cut else None, place=place,
            node_names=names, memory_limits=limits, out_dir=args.output, name=args.name, targets=args.target,
            allow_cycles=not args.pipeline, input_shapes=dict(args.input_shape or []) or None,
            input_values=dict(args.input_value or []) or None, state=args.state,
            state_budget_bytes=args.state_budget, context=args.context,
            **({"max_payload": args.max_payload} if args.max_payload else {}),
        )
    if args.rebuild and not args.standby:
        raise UsageError(f"--rebuild {args.rebuild} chooses how a standby rebuilds sessions: give --standby too")
    if args.standby:
        for stage, node in args.standby:
            dep.add_standby(stage, node)  # DeploymentError (one line) for an unknown stage or a taken name
        dep.extra["rebuild"] = args.rebuild or "replicate"
        dep.save(Path(args.output))
    c.print(f"[green]compiled[/] {dep.name}: {len(dep.nodes)} nodes, {len(dep.edges)} cross-node edges "
            f"-> {args.output}")
    dynamic = dep.extra.get("dynamic_inputs") or {}
    mark = " (estimate)" if dynamic else ""
    for n in dep.nodes:
        c.print(f"  {n.name}: {n.ops} ops, {n.param_bytes / 1e6:.2f} MB params, {n.flops / 1e6:.1f} MFLOP{mark}")
    if dynamic:
        c.print(f"[yellow]costs are estimates[/]: dynamic dims of {estimate_note(dynamic)}")
    for node, est in ((dep.extra.get("placement") or {}).get("nodes") or {}).items():
        if "target" in est:
            c.print(f"  {node} on {est['target']}: program ~{est['program_estimate']} of {est['flash_budget']} B "
                    f"flash, arena + tx ~{est['arena_estimate'] + est['tx_estimate']} of {est['ram_budget']} B RAM"
                    f"{' (first stages in bands)' if est['patch_assumed'] else ''} (estimates; build checks)")
    for node, pairs in (dep.extra.get("state") or {}).items():
        shown = ", ".join(f"{p['output']}->{p['input']}" for p in pairs)
        budget = dep.node(node).limits.get("state_budget")
        c.print(f"  {node} keeps state {shown}: {sum(p['bytes'] for p in pairs)} B per session at context "
                f"{dep.extra.get('context', 1)}" + (f" (budget {budget} B)" if budget else ""))
    for stage, nodes in dep.standby.items():
        c.print(f"  standby for {stage}: {', '.join(nodes)} (same program, own node ids)")
    for w in (dep.extra.get("placement") or {}).get("warnings", []):
        c.print(f"[yellow]warning[/]: {w}")
    return 0


def _compile_gguf(args: argparse.Namespace) -> int:
    """A llama-family GGUF: the decoder split by layers, KV caches kept on the nodes (bb_edge/llm/fleet.py)."""
    if args.cut or args.place or args.target:
        raise UsageError("a GGUF model is split by decoder layers: give --nodes N (and --names, --standby), not "
                         "--cut, --place or --target")
    check_input_path(args.model, "MODEL")
    from bb_edge.compiler.compile import default_names
    from bb_edge.llm.fleet import compile_gguf

    standby: dict[str, list[str]] = {}
    for stage, node in args.standby or []:
        standby.setdefault(stage, []).append(node)
    stages = args.names or default_names(args.nodes or 1)
    every = stages + [n for sbs in standby.values() for n in sbs]
    limits = args.memory_limit or []
    if len(limits) not in (0, 1, len(stages), len(every)):
        raise UsageError(f"--memory-limit has {len(limits)} values; give one (every node), one per stage "
                         f"({len(stages)}) or one per stage then per standby ({len(every)})")
    per_node = dict(zip(every, limits * len(every) if len(limits) == 1 else limits))
    if len(limits) == len(stages) and standby:  # a standby holds what its stage holds
        per_node.update({sb: per_node[st] for st, sbs in standby.items() if st in per_node for sb in sbs})
    c = Console()
    with c.status(f"converting {args.model} (weights {args.weights}) and splitting it over {args.nodes or 1} nodes"):
        dep, _ = compile_gguf(args.model, args.output, nodes=args.nodes or 1, node_names=args.names,
                              weights=args.weights, context=args.context, standby=standby or None,
                              memory_limits=per_node or None, rebuild=args.rebuild or "replicate")
    llm = dep.extra["llm"]
    c.print(f"[green]compiled[/] {dep.name}: {llm['layers']} decoder layers over {len(dep.nodes)} nodes, weights "
            f"{args.weights}, context {llm['context']} tokens -> {args.output}")
    for node, est in dep.extra["placement"]["nodes"].items():
        role = (f" (standby of {est['standby_of']}: "
                f"{'rebuilt by replay' if dep.extra.get('rebuild') == 'replay' else 'replicas of its sessions'})"
                if "standby_of" in est else "")
        if est.get("replay_log_bytes"):
            role += f", keeps {est['replay_log_bytes'] / 1e6:.1f} MB of inputs to replay"
        c.print(f"  {node}: layers {est['layers'][0]}..{est['layers'][1] - 1}, weights {est['weight_bytes'] / 1e6:.1f} "
                f"MB, KV cache {est['kv_bytes_at_context'] / 1e6:.1f} MB at {llm['context']} tokens, "
                f"{est['kv_budget_bytes'] / 1e6:.1f} MB for {dep.extra['placement']['max_sessions']} sessions{role}")
    for e in dep.edges:
        c.print(f"  {e.src} -> {e.dst}: {e.tensor} {e.dtype} {[d if d >= 0 else 'tokens' for d in e.shape]}")
    return 0


def state_pair(text: str) -> tuple[str, str]:
    """argparse type of ``--state OUTPUT=INPUT`` (whether the names exist is the compiler's check)."""
    out, sep, inp = text.partition("=")
    if not sep or not out or not inp:
        raise argparse.ArgumentTypeError(f"{text!r}: give OUTPUT=INPUT, e.g. hn=h0 (the tensor computed at one step "
                                         f"and the graph input it feeds at the next)")
    return out, inp


def standby_pair(text: str) -> tuple[str, str]:
    """argparse type of ``--standby STAGE=NODE``."""
    stage, sep, node = text.partition("=")
    if not sep or not is_name(stage) or not is_name(node):
        raise argparse.ArgumentTypeError(f"{text!r}: give STAGE=NODE, e.g. n1=n1b (each a letter, then up to 62 "
                                         f"letters, digits, '-' or '_')")
    return stage, node


def estimate_note(dynamic: dict[str, list[int]]) -> str:
    """Which inputs have dynamic dims and how to pin them (shared with ``inspect``)."""
    shown = ", ".join(f"{k} {v}" for k, v in dynamic.items())
    example = next(iter(dynamic))
    return f"{shown} count as 1; pin them with --input-shape {example}=..."


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``compile`` subcommand."""
    p = sub.add_parser("compile", help="partition a model into per-node programs")
    p.add_argument("model", help="MODEL.onnx, MODEL.tflite (int8), MODEL.gguf (llama-family) or FILE.py:ModuleClass")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--nodes", type=positive_int, help="split automatically into N nodes")
    g.add_argument("--cut", help="comma-separated tensor names where pipeline stages meet")
    g.add_argument("--place", help="JSON file mapping op names to node names ('*' = default)")
    p.add_argument("--names", type=name_list, help="comma-separated distinct node names (default n0,n1,...)")
    p.add_argument("--memory-limit", type=byte_sizes,
                   help="per-node memory limit in bytes, e.g. 65536 or 256KiB (one value or one per node)")
    p.add_argument("--target", action=TargetAppend, type=target_spec, metavar="[NODE=]TARGET",
                   help="with --nodes: place by target profiles' RAM and flash (a profile name, family or .json "
                        "file; NODE=TARGET for one node, a bare TARGET for the others; repeatable); each node "
                        "keeps its target for `bb-edge build`")
    p.add_argument("--name", type=cli_name, help="deployment name, a name (default: model file stem)")
    p.add_argument("--pipeline", action="store_true",
                   help="refuse placements where data flows around a cycle of nodes")
    p.add_argument("--input-shape", type=input_shape, action="append", metavar="NAME=D1,D2,...",
                   help="pin a graph input's dynamic dims before shape inference (repeatable), "
                        "e.g. x=1,3,640,640; without it costs from dynamic dims are estimates")
    p.add_argument("--input-value", type=input_value, action="append", metavar="NAME=V1,...",
                   help="freeze a graph input as a constant (repeatable), e.g. sr=16000: it is no longer fed "
                        "at run time, and what it decides (an If on it) folds away")
    p.add_argument("--max-payload", type=byte_size, metavar="BYTES",
                   help="largest tensor a node accepts per envelope (limits.max_payload; default 64MiB); "
                        "compile refuses a larger edge")
    p.add_argument("--standby", type=standby_pair, action="append", metavar="STAGE=NODE",
                   help="declare NODE a standby of stage node STAGE: it runs STAGE's program under its own id, "
                        "and upstream nodes re-route to it when STAGE is down (repeatable)")
    p.add_argument("--rebuild", choices=("replicate", "replay"), default=None,
                   help="how a standby of a stateful stage rebuilds its sessions at failover: replicate (the "
                        "primary streams each step's state delta; default) or replay (the node upstream keeps "
                        "the session's inputs and replays them in one prefill; no standby traffic until then)")
    p.add_argument("--state", type=state_pair, action="append", metavar="OUTPUT=INPUT",
                   help="a state pair (repeatable): OUTPUT computed at one step feeds graph input INPUT at the next; "
                        "both stay on one node, kept per session and never sent (run it with `bb-edge run "
                        "--session`)")
    p.add_argument("--state-budget", type=byte_size, metavar="BYTES",
                   help="bytes of session state each stateful node may hold (limits.state_budget; default: the "
                        "target profile's state_budget_bytes or a quarter of its RAM, else 256MiB)")
    p.add_argument("--context", type=positive_int, metavar="N",
                   help="steps a growing state (a dynamic dim, e.g. a KV cache) is counted at (default 1; for a GGUF: "
                        "the tokens of KV cache each session may hold, default the model's context)")
    llm = p.add_argument_group("language models (MODEL.gguf)")
    llm.add_argument("--weights", default="int4", choices=["int4", "int8", "fp16", "fp32"],
                     help="weight format of a GGUF's linear layers (default int4: ONNX Runtime's MatMulNBits)")
    p.add_argument("-o", "--output", required=True, help="output directory")
    p.set_defaults(func=_run)
