"""Per-op cost estimates used by placement and `bb-edge inspect`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import onnx
from onnx import helper

from bb_edge.compiler.load import tensor_types


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
    """FLOP and byte estimates for every op, in graph order."""
    types = tensor_types(model)
    inits = {i.name for i in model.graph.initializer}
    costs: list[OpCost] = []
    for node in model.graph.node:
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
        params = sum(tensor_bytes(*types[x]) for x in node.input if x in inits and x in types)
        out_bytes = sum(tensor_bytes(*types[o]) for o in node.output if o in types)
        costs.append(OpCost(node.name, flops, params, out_bytes))
    return costs
