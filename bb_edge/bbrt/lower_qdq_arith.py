"""QDQ groups of TFLite's int8 arithmetic beyond the MLPerf ops: Mul, Sub, ReduceMean and the unary activations.

``DQ -> op -> Q`` becomes (the arithmetic is TFLite's reference kernels', :mod:`bb_edge.bbrt.tflite_ref`):

- Sigmoid, Tanh, HardSwish, LeakyRelu -> LUT_I8: a 256-byte table of the int8 function (exact: the output is
  a function of one int8 value)
- Mul [+ Relu/Clip] -> MUL_I8 with p4 = 1 (MultiplyByQuantizedMultiplier with two roundings), broadcast
- Sub [+ Relu/Clip] -> ADD_I8 with p9 = 1 (ADD's left shift 20 and three multipliers, the second term
  subtracted), broadcast
- ReduceMean, ReduceSum over the trailing axes -> GAP_I8 with p0 = 1 (QuantizedMeanOrSum: one multiplier of
  s_x / s_y, for the mean with 1/n folded in)
- Max, Min of two operands sharing one scale and zero point -> MAXMIN_I8 (TFLite compares the raw bytes),
  broadcast
- PRelu -> PRELU_I8 (TFLite's two multipliers, computed from float32 scale ratios as its Prepare does), the
  slope broadcast to X (per channel)
- Resize (mode linear; asymmetric, align_corners or half_pixel) with equal parameters -> RESIZE_BILINEAR_I8
  with TFLite's 10-bit source coordinates as a table (:func:`bb_edge.bbrt.tflite_ref.bilinear_table`)
- MatMul of two activations, and QLinearMatMul (the TFLite translator's BATCH_MATMUL, an operand may be a
  constant) -> BATCH_MATMUL_I8 (TFLite's BATCH_MATMUL: one multiplier of s_a s_b / s_y, two roundings)
- the TFLite translator's Svdf -> SVDF_I8, its int16 activation state a STATE pair (:func:`lower_svdf`)

An operand of Mul or Sub may be a constant int8 tensor (per-tensor parameters), kept as a program constant.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import onnx

from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.format import DT_INT8, DT_INT16, DT_INT32, STORE_ARENA, Op, Tensor
from bb_edge.bbrt.lower_qdq_move import MoveCtx, tflite_operands
from bb_edge.bbrt.quant import quantize_multiplier, svdf_multipliers
from bb_edge.bbrt.tflite_ref import (
    bilinear_table,
    float_table,
    hard_swish_table,
    leaky_relu_table,
    mean_multiplier,
    prelu_multipliers,
)

#: ONNX ops this module lowers between a DequantizeLinear and a QuantizeLinear
ARITH_OPS = frozenset({"Sigmoid", "Tanh", "HardSwish", "LeakyRelu", "Mul", "Sub", "ReduceMean", "ReduceSum",
                       "Max", "Min", "PRelu", "Resize"})
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
    if t in ("Max", "Min", "PRelu", "Resize"):
        _lower_tfl(c, p, out, sy, zy, operand)
        return
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


def _lower_tfl(c: MoveCtx, p: onnx.NodeProto, out: str, sy: float, zy: int, operand: Operand) -> None:
    """Max/Min, PRelu, Resize (linear) between DequantizeLinear and QuantizeLinear (no activation after)."""
    t = p.op_type
    y32 = (float(np.float32(sy)), int(zy))
    if t in ("Max", "Min"):
        if len(p.input) != 2:
            raise c.refuse(p, f"{len(p.input)} operands (two only)")
        (ia, sa, za), (ib, sb, zb) = operand(p.input[0], p), operand(p.input[1], p)
        if {(float(np.float32(sa)), za), (float(np.float32(sb)), zb)} != {y32}:
            raise c.refuse(p, f"operands ({sa}, {za}), ({sb}, {zb}) and output ({sy}, {zy}) differ: TFLite's int8 "
                              f"{t.upper()}IMUM compares raw bytes of one scale and zero point")
        c.B.op(Op.MAXMIN_I8, [ia, ib], [c.new_q(out, sy, zy)], [0 if t == "Max" else 1], p.name)
        return
    if t == "PRelu":
        (ix, sx, _zx), (ia, sa, _za) = operand(p.input[0], p), operand(p.input[1], p)
        if tuple(c.shape_of(p.input[0])) != tuple(c.shape_of(out)):
            raise c.refuse(p, "the slope must broadcast to X (the output has X's shape)")
        m1, s1, m2, s2 = prelu_multipliers(sx, sa, sy)
        c.B.op(Op.PRELU_I8, [ix, ia], [c.new_q(out, sy, zy)], [m1, s1, m2, s2], p.name)
        return
    a = _attrs(p)
    mode = a.get("mode", b"nearest")
    ctm = a.get("coordinate_transformation_mode", b"half_pixel")
    mode, ctm = (v.decode() if isinstance(v, bytes) else str(v) for v in (mode, ctm))
    if mode != "linear" or ctm not in ("asymmetric", "align_corners", "half_pixel"):
        raise c.refuse(p, f"int8 Resize mode {mode!r}, coordinates {ctm!r} (linear with asymmetric, "
                          f"align_corners or half_pixel only)")
    ix, sx, zx = operand(p.input[0], p)
    if (float(np.float32(sx)), int(zx)) != y32:
        raise c.refuse(p, "an int8 bilinear resize keeps its input's scale and zero point (TFLite interpolates "
                          "the bytes); this one requantizes")
    xs, ys = tuple(c.shape_of(p.input[0])), tuple(c.shape_of(out))
    if len(xs) != 4 or xs[:2] != ys[:2]:
        raise c.refuse(p, f"resize of {list(xs)} to {list(ys)}: 4-D NCHW over H and W only")
    try:
        tab = bilinear_table(xs[2], xs[3], ys[2], ys[3], ctm == "align_corners", ctm == "half_pixel")
    except ValueError as e:
        raise c.refuse(p, f"bilinear resize {list(xs)} -> {list(ys)}: {e}") from e
    c.B.op(Op.RESIZE_BILINEAR_I8, [ix, c.B.const(f"{p.name}__bilinear", tab, DT_INT32)],
           [c.new_q(out, sy, zy)], [], p.name)


def batch_matmul(c: MoveCtx, name: str, a: tuple[int, float, int], b: tuple[int, float, int], out: str,
                 q: tuple[float, int, int, int]) -> None:
    """BATCH_MATMUL_I8 of int8 operands ``a``, ``b`` ((tensor, scale, zero point), one rank) into ``out``."""
    sy, zy, lo, hi = q
    ra, rb, ry = (len(c.B.tensors[a[0]].shape), len(c.B.tensors[b[0]].shape), len(c.shape_of(out)))
    if not ra == rb == ry >= 2:
        raise BbrtError(f"node {name!r} (MatMul): operands of rank {ra} and {rb} for an output of rank {ry}: "
                        f"bbrt's int8 batch matmul takes operands of the output's rank (2 or more)")
    m, sh = quantize_multiplier(float(a[1]) * float(b[1]) / float(sy))
    c.B.op(Op.BATCH_MATMUL_I8, [a[0], b[0]], [c.new_q(out, sy, zy)], [m, sh, lo, hi], name)


def lower_qlinear_matmul(c: MoveCtx, node: onnx.NodeProto) -> None:
    """QLinearMatMul (int8 in, int8 out; per-tensor parameters; an operand may be an int8 constant)."""
    def param(k: int) -> float | int:
        if node.input[k] not in c.init or np.asarray(c.init[node.input[k]]).size != 1:
            raise c.refuse(node, f"input {k} must be one constant (per-tensor parameters)")
        v = np.asarray(c.init[node.input[k]]).reshape(-1)[0]
        return float(np.float32(v)) if k in (1, 4, 6) else int(v)

    ops = []
    for k in (0, 3):
        s, z = param(k + 1), int(param(k + 2))
        name = node.input[k]
        if name in c.qidx:
            if c.L.qparams[name] != (s, z):
                raise c.refuse(node, f"{name!r} has parameters {c.L.qparams[name]}, the node says {(s, z)}")
            ops.append((c.qidx[name], float(s), z))
        elif name in c.init and np.asarray(c.init[name]).dtype == np.int8:
            ops.append((c.B.const(f"{node.name}__{name}", np.ascontiguousarray(c.init[name]), DT_INT8, s, z),
                        float(s), z))
        else:
            raise c.refuse(node, f"input {name!r} is neither an int8 tensor of the program nor an int8 constant")
    zy = int(param(7))
    if np.asarray(c.init[node.input[7]]).dtype != np.int8:
        raise c.refuse(node, "a uint8 output (bbrt keeps int8)")
    try:
        batch_matmul(c, node.name, ops[0], ops[1], node.output[0], (float(param(6)), zy, -128, 127))
    except BbrtError as e:
        raise c.refuse(node, str(e)) from e


def lower_svdf(c: MoveCtx, node: onnx.NodeProto) -> None:
    """The TFLite translator's ``Svdf`` (:mod:`bb_edge.tflite.svdf`) -> SVDF_I8 with an int16 STATE pair.

    The state input and its next value are two int16 arena tensors of the program, recorded in
    ``c.B.state_pairs``; lower_qdq makes them a STATE edge, so the node copies the session's state in before
    a step and the next state back after it. TFLite's multipliers come from its float products of the scales
    (``s_x * s_wf / s_state`` and ``s_state * s_wt / s_y`` in float32, then QuantizeMultiplier in double).
    """
    a, x, (wf, wt, bias) = tflite_operands(c, node, "weights and bias")
    f32 = np.float32
    if wf.dtype != np.int8 or wt.dtype != np.int16 or bias.dtype != np.int32 or wf.ndim != 2 or wt.ndim != 2:
        raise c.refuse(node, "weights_feature int8 [F, I], weights_time int16 [F, M], bias int32 [U]")
    rank, (n_f, n_m) = int(a["rank"]), wt.shape
    xs = c.B.tensors[c.qidx[x]].shape
    if len(xs) != 2 or rank < 1 or n_f % rank or wf.shape != (n_f, xs[1]) or bias.shape != (n_f // rank,):
        raise c.refuse(node, f"rank {rank}, input {list(xs)}, weights {list(wf.shape)} and {list(wt.shape)}, bias "
                       f"{list(bias.shape)}")
    ss = f32(a["state_scale"])
    m1, m2 = svdf_multipliers(a)
    name, sh = node.name, (int(xs[0]), n_f * n_m)
    s_in = c.B.add(Tensor(f"{name}__state", DT_INT16, sh, STORE_ARENA, scale=float(ss), zero_point=0))
    s_out = c.B.add(Tensor(f"{name}__state_next", DT_INT16, sh, STORE_ARENA, scale=float(ss), zero_point=0))
    ins = [c.qidx[x], c.B.const(f"{name}__wf", np.ascontiguousarray(wf), DT_INT8, float(f32(a["wf_scale"]))),
           c.B.const(f"{name}__wt", np.ascontiguousarray(wt), DT_INT16, float(f32(a["wt_scale"]))),
           c.B.const(f"{name}__bias", np.ascontiguousarray(bias), DT_INT32), s_in]
    y = c.new_q(node.output[0], float(a["y_scale"]), int(a["y_zero_point"]), (int(xs[0]), n_f // rank))
    c.B.op(Op.SVDF_I8, ins, [y, s_out], [*m1, *m2, rank], name)
    c.B.state_pairs.append((s_in, s_out, f"{name}__state"))
