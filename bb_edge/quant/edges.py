"""Int8 edges, their one home: which edges of a deployment go int8, with which parameters, and the rewrite.

A float32 edge becomes int8 with fixed affine parameters ``(scale, zero_point)``
(the arithmetic: :mod:`bb_edge.deployment.int8`):

- deployment.json: the edge's ``elem_type``/``dtype`` become 3/``int8`` (the wire contract),
  ``bytes_per_inference`` its int8 size, and ``quant`` holds the parameters; a graph
  input/output keeps its float32 type (what the host hands in and gets back) and gains
  ``quant`` (the host quantizes/dequantizes);
- both node programs: the edge's ``bb.wire`` Send/Recv get ``elem_type`` 3 plus ``scale`` and
  ``zero_point`` attributes; the compute model still sees float32
  (:attr:`bb_edge.deployment.ports.WirePort.compute_elem_type`).

Which edges (``bb-edge build``): an edge goes int8 when one of its ends is built now as an int8
bbrt node (C runtime or MicroPython) and neither end is built now as a float32 bbrt node: the bbrt
end holds int8 activations anyway, and a Python engine end (ORT or any other backend) quantizes or
dequantizes at its side (:mod:`bb_edge.engine.edgequant`). A graph input/output goes int8 when its
node is built now as an int8 bbrt node (the host converts). Edges with no end built now are left as
they are, so nodes can be built in separate runs. ``float_edges`` (``--float-edges``) turns every
edge touching a node built now back to float32.

Parameters: the producer decides (an edge whose other end is not built now keeps the ones that end
was built with). A tensor sent by an int8 bbrt node gets the parameters that node's lowering gives
it (e.g. a MaxPool output keeps its input's), everything else the asymmetric parameters of its
range over the calibration samples run through the float fleet, which is also what a lowering
computes for it, so both ends agree bit for bit. The plan lowers each int8 node once, in its final
form (its received edges fixed, its sent ones left to the lowering: ``lower(int8_sends=...)``); the
build hands those lowerings to the builders (:mod:`bb_edge.bundle.lowering`).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper

from bb_edge.deployment.int8 import Quant, affine_params
from bb_edge.deployment.manifest import HOST_NAME, Deployment, EdgeSpec, IOSpec, load_deployment
from bb_edge.deployment.ports import WIRE_DOMAIN
from bb_edge.errors import DeploymentError
from bb_edge.quant.calib import ranges

INT8_NODE, FLOAT_NODE, OTHER_NODE = "int8", "float", "other"
#: builders whose nodes run the Python engine, which (de)quantizes int8 edges at its side
PYTHON_ENGINE_BUILDERS = frozenset({"jetson", "linux", "ros2"})
BBRT_BUILDERS = frozenset({"mcu-bbrt", "micropython"})


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


def node_kind(builder: str, precision: str) -> str:
    """:data:`INT8_NODE`, :data:`FLOAT_NODE` or :data:`OTHER_NODE` for a target's builder and precision.

    A runtime not known to convert int8 edges (e.g. the Android module) counts as float32.
    """
    if builder in BBRT_BUILDERS:
        return INT8_NODE if precision == "int8" else FLOAT_NODE
    return OTHER_NODE if builder in PYTHON_ENGINE_BUILDERS else FLOAT_NODE


#: lowers one int8 node for the plan (:class:`bb_edge.bundle.lowering.BuildLowering`):
#: ``(node, deployment, program, free) -> (is a QDQ model, parameters)``, the lowering of ``node``'s
#: ``program`` in the deployment (its edges as the plan stands, ``free`` its sent tensors left to it);
#: the parameters are its int8 tensors' (``qparams``), or for a QDQ model its own graph boundary's
#: (``wire_quant``)
NodeLowering = Callable[[str, Deployment, onnx.ModelProto, set[str]], tuple[bool, dict[str, Quant]]]


def assumed(dep: Deployment, edges: dict[int, Quant | None], io: dict[str, Quant | None],
            node: str) -> tuple[Deployment, onnx.ModelProto]:
    """A copy of ``dep`` with the plan as it stands applied, and ``node``'s program stamped so; nothing is written."""
    out = copy.deepcopy(dep)
    by_id = {e.id: e for e in out.edges}
    for eid, q in edges.items():
        set_edge(by_id[eid], q)
    specs = {s.name: s for s in list(out.inputs) + list(out.outputs)}
    for name, q in io.items():
        set_io(specs[name], q)
    program = float_program(dep.program(node))  # the parameters of an earlier build do not count
    stamp_program(program, by_id)
    return out, program


def plan_int8_edges(dep: Deployment, kinds: dict[str, str], values: list[dict[str, np.ndarray]],
                    lower_node: NodeLowering, *,
                    float_edges: bool = False) -> tuple[dict[int, Quant | None], dict[str, Quant | None]]:
    """``(edges, io)`` for :func:`apply_int8_edges`; ``values`` the float fleet's tensors over the calibration.

    ``kinds`` maps the nodes built now to :data:`INT8_NODE` (an int8 bbrt program),
    :data:`FLOAT_NODE` (a float32 bbrt program) or :data:`OTHER_NODE` (a Python engine node).
    ``lower_node`` is called once per int8 node that sends or receives an int8 edge, upstream nodes first.
    """
    edges: dict[int, Quant | None] = {}
    io: dict[str, Quant | None] = {}
    want: list[str] = []
    # an int8 edge whose other end is not built now keeps its parameters: that end was built with them
    keep: dict[str, Quant] = {}
    for e in dep.edges:
        ends = {kinds.get(e.src), kinds.get(e.dst)} - {None}
        if not ends:
            continue  # neither end built now: as it is
        if float_edges or FLOAT_NODE in ends:
            edges[e.id] = None
            continue
        if INT8_NODE not in ends:
            continue  # only Python ends built now: as it is
        if e.quant is None and e.elem_type != 1:
            continue  # not a float32 tensor: stays as it is
        edges[e.id] = (0.0, 0)
        want.append(e.tensor)
        if e.quant is not None and None in (kinds.get(e.src), kinds.get(e.dst)):
            keep[e.tensor] = (float(e.quant["scale"]), int(e.quant["zero_point"]))
    for s in list(dep.inputs) + list(dep.outputs):
        k = kinds.get(s.node)
        if k is None:
            continue
        if k == INT8_NODE and not float_edges and s.elem_type == 1:
            io[s.name] = (0.0, 0)
            want.append(s.name)
        else:
            io[s.name] = None
    if not want:
        return edges, io
    rng = ranges(values)
    chosen: dict[str, Quant | None] = {t: keep.get(t) or affine_params(*rng.get(t, (-1.0, 1.0))) for t in want}

    def current() -> tuple[dict[int, Quant | None], dict[str, Quant | None]]:
        return ({eid: None if q is None else chosen[by_id[eid].tensor] for eid, q in edges.items()},
                {n: None if q is None else chosen[n] for n, q in io.items()})

    by_id = {e.id: e for e in dep.edges}
    # int8 bbrt producers decide their outputs' parameters; upstream nodes first, so a tensor a
    # producer passes through (Reshape, MaxPool) keeps the parameters its own producer chose
    for node in _node_order(dep):
        if kinds.get(node) != INT8_NODE:
            continue
        boundary = [s.name for s in list(dep.inputs) + list(dep.outputs) if s.node == node and s.name in chosen]
        sent = [e.tensor for e in dep.edges if e.src == node and e.tensor in chosen] + \
               [o.name for o in dep.outputs if o.node == node and o.name in chosen]
        if not sent and not boundary:
            continue
        free = {t for t in sent if t not in keep}
        cur_edges, cur_io = current()
        # the node's own sends and outputs are the lowering's to decide: float32 in the program it is given
        cur_edges.update({e.id: None for e in dep.edges if e.src == node and e.tensor in free and e.id in edges})
        cur_io.update({o.name: None for o in dep.outputs if o.node == node and o.name in free})
        qdq, params = lower_node(node, *assumed(dep, cur_edges, cur_io, node), free)
        if qdq:  # a QDQ model states its graph boundary's parameters (lower_qdq)
            for name in boundary:
                chosen[name] = params.get(name)
            continue
        for t in sent:
            # a tensor the lowering keeps float32 (e.g. a Squeeze of a float received tensor) stays float on the
            # wire too: the contract follows what the program holds
            chosen[t] = params.get(t)
    return current()


def _node_order(dep: Deployment) -> list[str]:
    """Nodes with every producer before its consumers (manifest order where a cycle leaves a choice)."""
    names = dep.node_names
    preds = {n: {e.src for e in dep.edges if e.dst == n and e.src != HOST_NAME} for n in names}
    out: list[str] = []
    while len(out) < len(names):
        ready = [n for n in names if n not in out and preds[n] <= set(out)]
        out.append(ready[0] if ready else next(n for n in names if n not in out))
    return out


def changes(dep: Deployment, edges: dict[int, Quant | None], io: dict[str, Quant | None]) -> bool:
    """True when applying the plan would change the deployment's contract."""
    def same(cur: dict[str, Any] | None, q: Quant | None) -> bool:
        if cur is None or q is None:
            return cur is None and q is None
        return np.float32(cur["scale"]) == np.float32(q[0]) and int(cur["zero_point"]) == int(q[1])

    by_id = {e.id: e for e in dep.edges}
    specs = {s.name: s for s in list(dep.inputs) + list(dep.outputs)}
    return any(eid not in by_id or not same(by_id[eid].quant, q) for eid, q in edges.items()) or \
        any(name not in specs or not same(specs[name].quant, q) for name, q in io.items())
