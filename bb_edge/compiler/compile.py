"""compile_model: load -> place -> partition -> write, the whole compiler in one call."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path

import onnx

from bb_edge.compiler.budgets import assign, budget
from bb_edge.compiler.cost import tensor_bytes
from bb_edge.compiler.freeze import InputValues
from bb_edge.compiler.load import InputShapes, dynamic_inputs, load_model
from bb_edge.compiler.partition import partition
from bb_edge.compiler.placement import (
    BALANCE_CAP,
    annotation,
    default_names,
    place_auto_report,
    place_by_annotation,
    place_by_cuts,
    place_by_map,
)
from bb_edge.compiler.state import StatePair, check_fit, check_pairs, declared_pairs, spans, state_budget
from bb_edge.deployment.manifest import Deployment, InvalidDeploymentError, validate_manifest
from bb_edge.errors import PlacementError
from bb_edge.names import check_name
from bb_edge.wire.envelope import DEFAULT_MAX_PAYLOAD


class PlacementWarning(UserWarning):
    """Automatic placement could not meet its documented balance; the message says why."""


class EdgeTooLargeError(PlacementError):
    """A cross-node edge (or graph input) carries more bytes per inference than its receiver accepts."""


#: the engine's per-session state limit when deployment.json sets none (bb_edge.engine.engine.Limits)
SESSION_BYTES_DEFAULT = 64 * 1024 * 1024

#: ops before a model's first compute op that leave patch-based execution possible
_LAYOUT_OPS = ("QuantizeLinear", "DequantizeLinear", "Transpose", "Reshape", "Cast")


def compile_model(
    source: str | Path | onnx.ModelProto,
    *,
    nodes: int | None = None,
    cuts: Sequence[str] | None = None,
    place: dict[str, str] | None = None,
    node_names: Sequence[str] | None = None,
    memory_limits: Sequence[int] | None = None,
    name: str | None = None,
    out_dir: str | Path | None = None,
    allow_cycles: bool = True,
    input_shapes: InputShapes | None = None,
    max_payload: int = DEFAULT_MAX_PAYLOAD,
    targets: Sequence[str] | None = None,
    input_values: InputValues | None = None,
    state: Sequence[tuple[str, str]] | None = None,
    state_budget_bytes: int | None = None,
    context: int | None = None,
) -> tuple[Deployment, dict[str, onnx.ModelProto]]:
    """Compile a model into per-node programs and a manifest (written to ``out_dir`` if given).

    Exactly one of ``nodes``, ``cuts`` or ``place`` may be given; with none, the
    model's ``bb.place`` annotations (from a recorded Module) are used.
    ``input_shapes`` pins dynamic input dims before shape inference;
    ``input_values`` freezes graph inputs as constants (``{name: elements as text}``);
    ``max_payload`` is every node's ``limits.max_payload`` and no edge may
    exceed it (EdgeTooLargeError). Automatic placement that cannot meet its
    balance cap says why in a PlacementWarning (also kept in the manifest's
    ``placement.warnings``).

    ``targets`` (with ``nodes``): ``[NODE=]TARGET`` items as ``bb-edge build
    --target`` takes them; automatic placement then fits every node's program
    and arena estimates into its profile's flash and RAM (bb_edge.compiler.budgets)
    instead of ``memory_limits``, records the estimates in the manifest's
    ``placement.nodes`` and each node's target, and raises FitError (by how many
    bytes, suggesting more nodes) when no split fits.

    ``state`` pairs ``(output, input)`` (``--state OUTPUT=INPUT``): the output at one step feeds the input
    at the next and both stay on one node (bb_edge.compiler.state); deployment.json lists them under
    ``state``. Each node keeping state gets ``limits.state_budget``: ``state_budget_bytes`` if given, else its
    target profile's (``state_budget_bytes``, else a quarter of its RAM). A growing state (a dynamic dim)
    counts at ``context`` steps (default 1). FitError when one session's state passes the budget, or the
    node's weights + state its target's RAM.
    """
    chosen = sum(x is not None for x in (nodes, cuts, place))
    if chosen > 1:
        raise PlacementError("give only one of --nodes, --cut and --place")
    if node_names is not None:
        dupes = sorted({n for n in node_names if list(node_names).count(n) > 1})
        if dupes:
            raise PlacementError(f"node names must be distinct; {', '.join(dupes)} given more than once")
    if max_payload < 1:
        raise PlacementError(f"max_payload must be a positive number of bytes, not {max_payload}")
    node_targets: dict[str, str] = {}
    if targets:
        if nodes is None:
            raise PlacementError("--target places by target budgets with --nodes N; with --cut or --place give "
                                 "the targets to `bb-edge build --target`")
        if memory_limits:
            raise PlacementError("give --target or --memory-limit, not both: a target's profile sets its limits")
        node_targets = assign(list(node_names) if node_names else default_names(nodes), targets)
    if context is not None and context < 1:
        raise PlacementError(f"--context must be a positive number of steps, not {context}")
    model = load_model(source, input_shapes, input_values)
    pairs = check_pairs(model, declared_pairs(model, list(state or [])))  # --state and the model's own
    report: dict[str, object] = {}
    kept: dict[str, str] = {}
    if nodes is not None:
        names = list(node_names) if node_names else default_names(nodes)
        # the build can run leading convs in bands (bb_edge/bbrt/patch.py): the first node, if the model starts so
        lead = next((n.op_type for n in model.graph.node if n.op_type not in _LAYOUT_OPS), "")
        budgets = [budget(n, node_targets[n], patchable=(k == 0 and lead == "Conv")) if n in node_targets else None
                   for k, n in enumerate(names)] if node_targets else None
        auto = place_auto_report(model, nodes, names, memory_limits, budgets, together=spans(model, pairs))
        kept = {b.node: b.spec for b in budgets or [] if b is not None}
        placement = auto.placement
        report = {"method": "auto", "balance_cap": BALANCE_CAP, "max_share": round(auto.cap, 6),
                  "shares": [round(x, 6) for x in auto.shares], "warnings": auto.warnings}
        if auto.estimates:
            report["nodes"] = dict(zip(names, auto.estimates, strict=True))
        for w in auto.warnings:
            warnings.warn(w, PlacementWarning, stacklevel=2)
    elif cuts is not None:
        placement = place_by_cuts(model, cuts, node_names)
    elif place is not None:
        placement = place_by_map(model, place)
    else:
        if not any(annotation(n) for n in model.graph.node):
            raise PlacementError(
                "the model has no placement: pass --nodes N, --cut T1,T2 or --place FILE.json, "
                "or record a Module with `with on('node'):` blocks"
            )
        placement = place_by_annotation(model)
    if name is None:
        name = Path(str(source)).stem if not isinstance(source, onnx.ModelProto) else (model.graph.name or "model")
    order = list(node_names) if node_names else None
    dep, programs = partition(model, placement, name=_safe(name), node_order=order, allow_cycles=allow_cycles,
                              state=pairs)
    for spec in dep.nodes:
        check_name(spec.name, "node")  # annotations and --names: the name rule (docs/architecture.md, Names)
        spec.limits = {**spec.limits, "max_payload": int(max_payload)}
        if spec.name in kept:  # `bb-edge build DIR` builds each node for the target it was placed by
            spec.target = kept[spec.name]
    if pairs:
        _place_state(dep, pairs, node_targets, state_budget_bytes, context or 1)
    _check_payloads(dep)
    dep.extra["pipeline"] = not allow_cycles
    dyn = {k: v for k, v in dynamic_inputs(model).items() if k not in {p.input for p in pairs}}  # host inputs only
    if dyn:
        dep.extra["dynamic_inputs"] = dyn
    if report:
        dep.extra["placement"] = report
    problems = validate_manifest(dep.to_json())
    if problems:  # e.g. an edge of a dtype the wire cannot carry
        raise InvalidDeploymentError(
            f"the deployment compiled from {name}", problems,
            "the wire carries bool, 8/16/32/64-bit integers and float16/32/64 tensors only: place the ops "
            "around other tensor types on one node, or cast them in the model")
    if out_dir is not None:
        write_deployment(dep, programs, Path(out_dir))
    return dep, programs


def write_deployment(dep: Deployment, programs: dict[str, onnx.ModelProto], out_dir: Path) -> None:
    """Write ``<node>.onnx`` for every node and deployment.json into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for spec in dep.nodes:
        onnx.save(programs[spec.name], str(out_dir / spec.program))
    dep.save(out_dir)


def _place_state(dep: Deployment, pairs: list[StatePair], node_targets: dict[str, str], budget_bytes: int | None,
                 context: int) -> None:
    """Each stateful node's state bytes (at ``context``), its ``limits.state_budget``, and the fit check."""
    from bb_edge.targets import load_target

    by_input = {p.input: p for p in pairs}
    for node, entries in dep.extra["state"].items():
        mine = [by_input[e["input"]] for e in entries]
        for e, p in zip(entries, mine, strict=True):
            e["bytes"] = p.nbytes(context)
            if p.grows:
                e["bytes_per_step"] = p.bytes_per_step
        total = sum(p.nbytes(context) for p in mine)
        spec = dep.node(node)
        prof = load_target(node_targets[node]) if node in node_targets else None
        budget_n = budget_bytes if budget_bytes is not None else (state_budget(prof) if prof else None)
        if budget_n is not None:
            spec.limits = {**spec.limits, "state_budget": int(budget_n)}
        if total > SESSION_BYTES_DEFAULT:  # one session of this size must not end at its limit
            spec.limits = {**spec.limits, "session_bytes": int(min(total, budget_n) if budget_n else total)}
        weights = spec.param_bytes if prof is not None and prof.builder != "mcu-bbrt" else 0  # MCU: weights in flash
        check_fit(node, prof.name if prof else "-", total, budget_n, weights, prof.ram_bytes if prof else 0, context)
    dep.extra["context"] = context


def _check_payloads(dep: Deployment) -> None:
    """EdgeTooLargeError naming every edge (and graph input) larger than its receiver's max_payload."""
    limit = {n.name: n.limits.get("max_payload", DEFAULT_MAX_PAYLOAD) for n in dep.nodes}
    big = [f"edge {e.id} {e.tensor!r} {e.src}->{e.dst}: {e.bytes_per_inference} bytes > {limit[e.dst]}"
           for e in dep.edges if e.bytes_per_inference > limit[e.dst]]
    big += [f"input {i.name!r} -> {i.node}: {b} bytes > {limit[i.node]}"
            for i in dep.inputs if (b := tensor_bytes(i.elem_type, i.shape)) > limit[i.node]]
    if big:
        raise EdgeTooLargeError(
            f"{len(big)} tensor(s) exceed the receiving node's payload limit (limits.max_payload): "
            f"{'; '.join(big[:4])}. Cut where tensors are smaller (--cut, --place), use more nodes, pin smaller "
            f"dims with --input-shape, or raise --max-payload if every receiver can take it")


def _safe(name: str) -> str:
    """A deployment name following the name rule (bb_edge.names) made from a file or graph name."""
    out = "".join(c if (c.isascii() and c.isalnum()) or c in "-_" else "_" for c in name)
    if not out[:1].isalpha():
        out = "m" + out
    return out[:63]
