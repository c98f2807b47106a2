"""QDQ groups of TFLite's int8 arithmetic beyond the MLPerf ops: Mul, Sub, ReduceMean and the unary activations.

``DQ -> op -> Q`` becomes (the arithmetic is TFLite's reference kernels', :mod:`bb_edge.bbrt.tflite_ref`):

- Sigmoid, Tanh, HardSwish, LeakyRelu -> LUT_I8: a 256-byte table of the int8 function (exact: the output is
  a function of one int8 value)
- Mul [+ Relu/Clip] -> MUL_I8 with p4 = 1 (MultiplyByQuantizedMultiplier with two roundings), broadcast
- Sub [+ Relu/Clip] -> ADD_I8 with p9 = 1 (ADD's left shift 20 and three multipliers, the second term
  subtracted), broadcast
- ReduceMean, ReduceSum over the trailing axes -> GAP_I8 with p0 = 1 (QuantizedMeanOrSum: one multiplier of
  s_x / s_y, for the mean with 1/n folded in)

An operand of Mul or Sub may be a constant int8 tensor (per-tensor parameters), kept as a program constant.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import onnx

from bb_edge.bbrt.format import DT_INT8, STORE_ARENA, Op, Tensor
from bb_edge.bbrt.lower_qdq_move import MoveCtx
from bb_edge.bbrt.quant import quantize_multiplier
from bb_edge.bbrt.tflite_ref import float_table, hard_swish_table, leaky_relu_table, mean_multiplier

#: ONNX ops this module lowers between a DequantizeLinear and a QuantizeLinear
ARITH_OPS = frozenset({"Sigmoid", "Tanh", "HardSwish", "LeakyRelu", "Mul", "Sub", "ReduceMean", "ReduceSum"})
#: an operand: its program tensor index and (scale, zero point)
Operand = Callable[[str, onnx.NodeProto], tuple[int, float, int]]


def _attrs(node: onnx.NodeProto) -> dict[str, Any]:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def lower_arith(c: MoveCtx, p: onnx.NodeProto, act: onnx.NodeProto | None, out: str,
                q: tuple[float, int, int, int], operand: Operand) -> None:
    """Lower group ``p`` (op type in :data:`ARITH_OPS`) whose QuantizeLinear writes int8 ``out``."""
    sy, zy, lo, hi = q
    t = p.op_type
    if t in ("Mul", "Sub"):
        (ia, sa, _za), (ib, sb, _zb) = operand(p.input[0], p), operand(p.input[1], p)
        y = c.new_q(out, sy, zy)
        if t == "Mul":
            m, sh = quantize_multiplier(float(sa) * float(sb) / float(sy))
            c.B.op(Op.MUL_I8, [ia, ib], [y], [m, sh, lo, hi, 1], p.name)
            return
        ls, twice = 20, 2.0 * max(sa, sb)
        ma, sha = quantize_multiplier(sa / twice)
        mb, shb = quantize_multiplier(sb / twice)
        mo, sho = quantize_multiplier(twice / ((1 << ls) * sy))
        c.B.op(Op.ADD_I8, [ia, ib], [y], [ls, ma, sha, mb, shb, mo, sho, lo, hi, 1], p.name)
        return
    if act is not None:
        raise c.refuse(p, "a fused activation after this op (TFLite fuses none here)")
    x, sx, zx = operand(p.input[0], p)
    if t in ("ReduceMean", "ReduceSum"):
        xs = tuple(c.shape_of(p.input[0]))
        a = _attrs(p)
        ax = a.get("axes", range(len(xs)))
        if len(p.input) > 1 and p.input[1]:  # ReduceSum (opset 13+): the axes as a constant input
            if p.input[1] not in c.init:
                raise c.refuse(p, "run-time axes (a constant only)")
            ax = [int(v) for v in np.asarray(c.init[p.input[1]]).reshape(-1)]
        axes = sorted({int(v) % len(xs) for v in ax})
        if axes != list(range(len(xs) - len(axes), len(xs))):
            raise c.refuse(p, f"a mean over axes {axes} of {list(xs)}: the trailing axes only")
        n = math.prod(xs[axes[0]:])
        outer = math.prod(xs[:axes[0]])
        if n == 0 or outer == 0:
            raise c.refuse(p, f"a mean over an empty tensor {list(xs)}")
        if len(xs) < 3 or xs[0] * xs[1] != outer:  # GAP_I8 reads [outer, ..., n]: view the input so
            v = c.B.add(Tensor(f"{p.name}__rows", DT_INT8, (outer, 1, n), STORE_ARENA, scale=float(np.float32(sx)),
                               zero_point=int(zx)))
            c.B.op(Op.COPY, [x], [v], [], f"{p.name}__rows")
            x = v
        m, sh = mean_multiplier(sx, sy, n) if t == "ReduceMean" else quantize_multiplier(float(sx) / float(sy))
        c.B.op(Op.GAP_I8, [x], [c.new_q(out, sy, zy)], [1, m, sh], p.name)
        return
    if t == "Sigmoid":
        tab = float_table("logistic", sx, zx, sy, zy)
    elif t == "Tanh":
        tab = float_table("tanh", sx, zx, sy, zy)
    elif t == "HardSwish":
        try:
            tab = hard_swish_table(sx, zx, sy, zy)
        except ValueError as e:
            raise c.refuse(p, f"int8 hard swish: {e}") from e
    else:
        tab = leaky_relu_table(float(_attrs(p).get("alpha", 0.01)), sx, zx, sy, zy)
    c.B.op(Op.LUT_I8, [x, c.B.const(f"{p.name}__lut", tab, DT_INT8, 1.0, 0)], [c.new_q(out, sy, zy)], [], p.name)
