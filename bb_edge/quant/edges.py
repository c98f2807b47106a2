"""Int8 edges: a deployment's cross-node edges and graph inputs/outputs carried as int8 on the wire.

A float32 edge becomes int8 with fixed affine parameters ``(scale, zero_point)``:

- deployment.json: the edge's ``elem_type``/``dtype`` become 3/``int8`` (the wire contract),
  ``bytes_per_inference`` its int8 size, and ``quant`` holds the parameters; a graph
  input/output keeps its float32 type (what the host hands in and gets back) and gains
  ``quant`` (the host quantizes/dequantizes);
- both node programs: the edge's ``bb.wire`` Send/Recv get ``elem_type`` 3 plus ``scale`` and
  ``zero_point`` attributes; the compute model still sees float32
  (:attr:`bb_edge.deployment.ports.WirePort.compute_elem_type`).

Which edges and which parameters is decided by the build (:mod:`bb_edge.bbrt.edges`);
this module only rewrites. ``None`` for an edge turns it back into float32.
"""

from __future__ import annotations

import math
from pathlib import Path

import onnx
from onnx import TensorProto, helper

from bb_edge.deployment.manifest import Deployment, EdgeSpec, IOSpec, load_deployment
from bb_edge.deployment.ports import WIRE_DOMAIN
from bb_edge.errors import DeploymentError

Quant = tuple[float, int]


def _check(what: str, q: Quant) -> dict[str, float | int]:
    scale, zp = float(q[0]), int(q[1])
    if not (math.isfinite(scale) and scale > 0) or not -128 <= zp <= 127:
        raise DeploymentError(f"{what}: int8 parameters scale {scale}, zero point {zp} are not valid "
                              f"(scale finite > 0, zero point in [-128, 127])")
    return {"scale": scale, "zero_point": zp}


def _numel(shape: list[int]) -> int:
    return math.prod(max(d, 1) for d in shape)


def set_edge(e: EdgeSpec, q: Quant | None) -> None:
    """Make edge ``e`` int8 with ``q``, or float32 again with None."""
    if q is not None:
        if e.quant is None and e.elem_type != TensorProto.FLOAT:
            raise DeploymentError(f"edge {e.id} ({e.tensor!r}) is {e.dtype}: only float32 edges can go int8")
        e.quant = _check(f"edge {e.id} ({e.tensor!r})", q)
        e.elem_type, e.dtype, e.bytes_per_inference = TensorProto.INT8, "int8", _numel(e.shape)
    elif e.quant is not None:
        e.quant = None
        e.elem_type, e.dtype, e.bytes_per_inference = TensorProto.FLOAT, "float32", 4 * _numel(e.shape)


def set_io(spec: IOSpec, q: Quant | None) -> None:
    """Carry graph input/output ``spec`` as int8 with ``q`` (its type stays float32), or as float32 with None."""
    if q is not None and spec.elem_type != TensorProto.FLOAT:
        raise DeploymentError(f"graph input/output {spec.name!r} is {spec.dtype}: only float32 ones can go int8")
    spec.quant = None if q is None else _check(f"graph input/output {spec.name!r}", q)


def _set_attr(node: onnx.NodeProto, name: str, value: int | float | None) -> None:
    for i, a in enumerate(node.attribute):
        if a.name == name:
            del node.attribute[i]
            break
    if value is not None:
        node.attribute.append(helper.make_attribute(name, value))


def stamp_program(program: onnx.ModelProto, edges: dict[int, EdgeSpec]) -> bool:
    """Copy the contracts of ``edges`` into the program's bb.wire ops; True when anything changed."""
    changed = False
    for node in program.graph.node:
        if node.domain != WIRE_DOMAIN:
            continue
        eid = next(int(helper.get_attribute_value(a)) for a in node.attribute if a.name == "edge_id")
        e = edges.get(eid)
        if e is None:
            continue
        before = node.SerializeToString()
        _set_attr(node, "elem_type", e.elem_type)
        _set_attr(node, "scale", None if e.quant is None else float(e.quant["scale"]))
        _set_attr(node, "zero_point", None if e.quant is None else int(e.quant["zero_point"]))
        changed |= node.SerializeToString() != before
    return changed


def float_program(program: onnx.ModelProto) -> onnx.ModelProto:
    """A copy of ``program`` whose int8 edges of float tensors are float32 edges again."""
    out = onnx.ModelProto()
    out.CopyFrom(program)
    for node in out.graph.node:
        if node.domain == WIRE_DOMAIN and any(a.name == "scale" for a in node.attribute):
            _set_attr(node, "elem_type", TensorProto.FLOAT)
            _set_attr(node, "scale", None)
            _set_attr(node, "zero_point", None)
    return out


def apply_int8_edges(directory: str | Path, edges: dict[int, Quant | None],
                     io: dict[str, Quant | None]) -> Deployment:
    """Rewrite a compiled deployment in place: ``edges`` by id, ``io`` by graph input/output name.

    Edges and inputs/outputs not named are left as they are. Programs are rewritten only when
    their ``bb.wire`` ops change. Returns the reloaded deployment.
    """
    directory = Path(directory)
    dep = load_deployment(directory)
    by_id = {e.id: e for e in dep.edges}
    for eid, q in edges.items():
        if eid not in by_id:
            raise DeploymentError(f"no edge {eid} in {directory}")
        set_edge(by_id[eid], q)
    specs = {s.name: s for s in list(dep.inputs) + list(dep.outputs)}
    for name, q in io.items():
        if name not in specs:
            raise DeploymentError(f"no graph input/output {name!r} in {directory}")
        set_io(specs[name], q)
    for n in dep.nodes:
        path = directory / n.program
        prog = onnx.load(str(path))
        if stamp_program(prog, by_id):
            onnx.save(prog, str(path))
    dep.save(directory)
    return load_deployment(directory)
