"""uint8 activations of a QDQ model as bbrt's int8: the value v - 128 with the zero point z - 128.

A uint8 value ``v`` with zero point ``z`` and scale ``s`` stands for ``(v - z) * s``; the int8 value
``v - 128`` with zero point ``z - 128`` stands for the same real number, and QuantizeLinear's rounding
and saturation map one to one (``clip(round(x / s) + z, 0, 255) - 128 = clip(round(x / s) + z - 128,
-128, 127)``). Every int8 kernel reads only ``v - z`` and writes ``round(...) + z`` saturated, so it
computes the same bytes shifted by 128: the rewrite is exact. Weights stored uint8 shift the same way
(zero point 128 becomes a symmetric int8 weight).

:func:`int8_from_uint8` rewrites a QDQ model so: every uint8 zero point of a QuantizeLinear /
DequantizeLinear (stated, or uint8 by default on a QuantizeLinear without one) and every uint8 constant
a DequantizeLinear reads become int8, and uint8 graph inputs/outputs are typed int8. Those graph
inputs/outputs are returned: their edge on the device is int8 with the shifted zero point, which the
envelope states (dtype int8, ``z - 128``), so a peer reading it gets the same real values; a caller
holding the model's uint8 bytes converts at the device boundary with :func:`to_device` /
:func:`from_device`.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper

QDQ_OPS = ("QuantizeLinear", "DequantizeLinear")


def to_device(v: np.ndarray) -> np.ndarray:
    """The model's uint8 bytes as the device's int8 edge holds them (v - 128)."""
    return (np.asarray(v, np.uint8).astype(np.int16) - 128).astype(np.int8)


def from_device(q: np.ndarray) -> np.ndarray:
    """The device's int8 bytes as the model's uint8 values (q + 128)."""
    return (np.asarray(q, np.int8).astype(np.int16) + 128).astype(np.uint8)


def _shifted(a: np.ndarray) -> np.ndarray:
    return (a.astype(np.int16) - 128).astype(np.int8)


def int8_from_uint8(model: onnx.ModelProto) -> tuple[onnx.ModelProto, set[str]]:
    """A copy of ``model`` with its uint8 quantization as int8 (exact), and the graph inputs/outputs
    that were uint8 (their device edge is int8, ``v - 128``)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    consts: dict[str, np.ndarray] = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    for n in g.node:
        if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value":
            consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
    io = {v.name for v in list(g.input) + list(g.output) if v.type.tensor_type.elem_type == TensorProto.UINT8}
    if not io and not any(n.op_type in QDQ_OPS and (
            (len(n.input) > 2 and n.input[2] in consts and consts[n.input[2]].dtype == np.uint8)
            or (n.op_type == "QuantizeLinear" and (len(n.input) < 3 or not n.input[2]))) for n in g.node):
        return m, set()
    u8 = set(io) | {k for k, v in consts.items() if v.dtype == np.uint8}  # tensors holding uint8 data
    made: dict[str, str] = {}

    def as_int8(name: str) -> str:
        """The int8 twin of a uint8 constant (one per constant)."""
        if name not in made:
            made[name] = f"{name}__int8"
            g.initializer.append(numpy_helper.from_array(_shifted(consts[name]), made[name]))
        return made[name]

    def default_zp(node: onnx.NodeProto) -> str:
        name = f"{node.name or node.output[0]}__zp_int8"
        scale = consts.get(node.input[1])
        shape = () if scale is None else scale.shape
        g.initializer.append(numpy_helper.from_array(np.full(shape, -128, np.int8), name))
        return name

    for n in g.node:  # topological order: a QuantizeLinear's uint8 output is known before its readers
        if n.op_type not in QDQ_OPS:
            continue
        zp = n.input[2] if len(n.input) > 2 and n.input[2] else ""
        if zp and zp in consts and consts[zp].dtype == np.uint8:
            n.input[2] = as_int8(zp)
        elif not zp and (n.op_type == "QuantizeLinear" or n.input[0] in u8):
            while len(n.input) < 3:
                n.input.append("")
            n.input[2] = default_zp(n)
        else:
            continue
        if n.op_type == "QuantizeLinear":
            u8.add(n.output[0])
        elif n.input[0] in consts and consts[n.input[0]].dtype == np.uint8:
            n.input[0] = as_int8(n.input[0])
    for v in list(g.input) + list(g.output) + list(g.value_info):
        if v.type.tensor_type.elem_type == TensorProto.UINT8 and (v.name in io or v.name in u8):
            v.type.tensor_type.elem_type = TensorProto.INT8
    return m, io
