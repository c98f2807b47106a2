"""Per-op cost estimates used by placement and `bb-edge inspect`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import onnx
from onnx import helper, numpy_helper

from bb_edge.compiler.load import tensor_types
from bb_edge.deployment.ports import node_reads


def elem_size(elem_type: int) -> int:
    """Bytes per element of an ONNX elem_type (1 for unknown/bool)."""
    try:
        return int(np.dtype(helper.tensor_dtype_to_np_dtype(elem_type)).itemsize)
    except (KeyError, TypeError, ValueError):
        return 1


def tensor_bytes(elem_type: int, shape: tuple[int, ...] | list[int]) -> int:
    """Bytes of one tensor; symbolic (-1) dims count as 1."""
    n = 1
    for d in shape:
        n *= d if d > 0 else (0 if d == 0 else 1)
    return n * elem_size(elem_type)


@dataclass
class OpCost:
    """Estimated cost of one op."""

    name: str
    flops: float
    param_bytes: int
    out_bytes: int


def op_costs(model: onnx.ModelProto) -> list[OpCost]:
    """FLOP and byte estimates for every op, in graph order.

    A control-flow op costs what its subgraphs do: the dearer If branch, a
    Loop body times a constant trip count, a Scan body times the scan length
    (once when not known). Symbolic dims count as 1, so costs of models with
    dynamic inputs are estimates (pin them with ``--input-shape``).
    """
    types = tensor_types(model)
    inits = {i.name: i for i in model.graph.initializer}
    costs: list[OpCost] = []
    for node in model.graph.node:
        flops = _op_flops(node, types, inits)
        params = sum(tensor_bytes(*types[x]) for x in node_reads(node) if x in inits and x in types)
        out_bytes = sum(tensor_bytes(*types[o]) for o in node.output if o in types)
        costs.append(OpCost(node.name, flops, params, out_bytes))
    return costs


Types = dict[str, tuple[int, tuple[int, ...]]]


def _op_flops(node: onnx.NodeProto, types: Types, inits: dict[str, onnx.TensorProto]) -> float:
    if node.op_type in ("If", "Loop", "Scan"):
        return _control_flow_flops(node, types, inits)
    out_shape = types.get(node.output[0], (1, ()))[1] if node.output else ()
    out_elems = float(np.prod([max(d, 1) for d in out_shape])) if out_shape else 1.0
    flops = out_elems
    if node.op_type in ("Conv", "ConvTranspose") and len(node.input) > 1:
        w = types.get(node.input[1], (1, ()))[1]
        k = float(np.prod([max(d, 1) for d in w[1:]])) if len(w) > 1 else 1.0
        flops = 2.0 * out_elems * k
    elif node.op_type in ("Gemm", "MatMul") and node.input:
        a = types.get(node.input[0], (1, ()))[1]
        kdim = a[-1] if a else 1
        if node.op_type == "Gemm":
            for at in node.attribute:
                if at.name == "transA" and at.i and len(a) == 2:
                    kdim = a[0]
        flops = 2.0 * out_elems * max(kdim, 1)
    elif node.op_type in ("LSTM", "GRU", "RNN") and len(node.input) > 2:
        # per step: input and recurrent matmuls over every gate
        x = types.get(node.input[0], (1, ()))[1]
        w = types.get(node.input[1], (1, ()))[1]
        r = types.get(node.input[2], (1, ()))[1]
        if len(x) == 3 and len(w) == 3 and len(r) == 3:
            steps, batch = max(x[0], 1), max(x[1], 1)
            flops = 2.0 * steps * batch * max(w[0], 1) * max(w[1], 1) * (max(w[2], 1) + max(r[2], 1))
    return flops


def _graph_flops(graph: onnx.GraphProto, outer: Types, inits: dict[str, onnx.TensorProto]) -> float:
    types = dict(outer)
    for v in list(graph.input) + list(graph.value_info) + list(graph.output):
        tt = v.type.tensor_type
        types[v.name] = (tt.elem_type, tuple(d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim))
    for i in graph.initializer:
        types[i.name] = (i.data_type, tuple(int(d) for d in i.dims))
    local = dict(inits)
    local.update({i.name: i for i in graph.initializer})
    return float(sum(_op_flops(n, types, local) for n in graph.node))


def _control_flow_flops(node: onnx.NodeProto, types: Types, inits: dict[str, onnx.TensorProto]) -> float:
    subs = {a.name: a.g for a in node.attribute if a.type == onnx.AttributeProto.GRAPH}
    if node.op_type == "If":
        return max((_graph_flops(g, types, inits) for g in subs.values()), default=1.0)
    body = subs.get("body")
    per_step = _graph_flops(body, types, inits) if body is not None else 1.0
    steps = 1
    if node.op_type == "Loop" and node.input and node.input[0] in inits:
        trip = numpy_helper.to_array(inits[node.input[0]])
        steps = int(trip.reshape(-1)[0]) if trip.size else 1
    elif node.op_type == "Scan":
        n_scan = len(node.input) - next((a.i for a in node.attribute if a.name == "num_scan_inputs"), 0)
        if 0 <= n_scan < len(node.input):
            shape = types.get(node.input[n_scan], (1, ()))[1]
            steps = shape[0] if shape and shape[0] > 0 else 1
    return per_step * max(min(steps, 1 << 20), 1)
