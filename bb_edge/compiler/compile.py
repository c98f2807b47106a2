"""compile_model: load -> place -> partition -> write, the whole compiler in one call."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import onnx

from bb_edge.compiler.load import load_model
from bb_edge.compiler.manifest import Deployment
from bb_edge.compiler.partition import partition
from bb_edge.compiler.placement import (
    annotation,
    place_auto,
    place_by_annotation,
    place_by_cuts,
    place_by_map,
)
from bb_edge.errors import PlacementError


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
) -> tuple[Deployment, dict[str, onnx.ModelProto]]:
    """Compile a model into per-node programs and a manifest (written to ``out_dir`` if given).

    Exactly one of ``nodes``, ``cuts`` or ``place`` may be given; with none, the
    model's ``bb.place`` annotations (from a recorded Module) are used.
    """
    chosen = sum(x is not None for x in (nodes, cuts, place))
    if chosen > 1:
        raise PlacementError("give only one of --nodes, --cut and --place")
    model = load_model(source)
    if nodes is not None:
        placement = place_auto(model, nodes, node_names, memory_limits)
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
    dep, programs = partition(model, placement, name=_safe(name), node_order=order, allow_cycles=allow_cycles)
    if out_dir is not None:
        write_deployment(dep, programs, Path(out_dir))
    return dep, programs


def write_deployment(dep: Deployment, programs: dict[str, onnx.ModelProto], out_dir: Path) -> None:
    """Write ``<node>.onnx`` for every node and deployment.json into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for spec in dep.nodes:
        onnx.save(programs[spec.name], str(out_dir / spec.program))
    dep.save(out_dir)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "model"
