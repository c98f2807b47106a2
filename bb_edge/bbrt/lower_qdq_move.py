"""The int8 lowering's data-movement ops, MaxPool and requantization (a QDQ model's ``DQ -> [Relu|Clip] -> Q``).

Each data-movement op copies int8 bytes, so its output keeps its input's scale and zero point and the
result is exact by definition: Transpose -> TRANSPOSE, Concat -> CONCAT (inputs of one pair of
parameters), Pad (constant), Slice, Gather (constant indices) and Split -> GATHER_AXES (one int32 index
table per output axis, -1 = the pad value), MaxPool -> MAXPOOL_I8. An op reads int8 tensors directly
(the TFLite translator's form) or sits between DequantizeLinear and QuantizeLinear with the same
parameters on both sides (a QDQ converter's form; other parameters are an :class:`UnsupportedQuantPattern`).

An int8 -> int8 requantization (TFLite's QUANTIZE of an int8 tensor; a clamp after MaxPool) is a pure
function of one byte: LUT_I8 with TFLite's ``Requantize`` (``MultiplyByQuantizedMultiplier`` of
``x - z_in`` with the multiplier of ``s_in / s_out``, double rounding as TFLite's reference kernels) and
the activation's clamp, computed here for all 256 inputs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx

from bb_edge.bbrt.format import DT_INT8, DT_INT32, STORE_ARENA, Op, Tensor
from bb_edge.bbrt.lower_ops import MOVE_MAX_RANK, gather_table, pad_tables
from bb_edge.bbrt.quant import quantize_multiplier

#: ONNX ops lowered here (data inputs int8, outputs with the input's parameters)
MOVE_OPS = frozenset({"Transpose", "Concat", "Pad", "Slice", "Gather", "Split", "MaxPool"})


@dataclass
class MoveCtx:
    """What these lowerings need of lower_qdq's state."""

    B: Any  # lower._Builder
    L: Any  # lower.Lowered
    init: dict[str, np.ndarray]
    shape_of: Callable[[str], tuple[int, ...]]
    qidx: dict[str, int]
    new_q: Callable[..., int]
    refuse: Callable[[onnx.NodeProto, str], Exception]


def data_inputs(node: onnx.NodeProto) -> list[str]:
    """The inputs of ``node`` that are activations (the rest are constant attributes)."""
    return [i for i in node.input if i] if node.op_type == "Concat" else [node.input[0]]


def _attrs(node: onnx.NodeProto) -> dict[str, Any]:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _ints(c: MoveCtx, node: onnx.NodeProto, k: int) -> list[int] | None:
    if len(node.input) <= k or not node.input[k]:
        return None
    if node.input[k] not in c.init:
        raise c.refuse(node, f"input {k} ({node.input[k]!r}) must be a constant")
    return [int(v) for v in np.asarray(c.init[node.input[k]]).reshape(-1)]


def srdhm(a: int, b: int) -> int:
    """gemmlowp's SaturatingRoundingDoublingHighMul (its nudge rounds half up for either sign)."""
    if a == b == -(2**31):
        return 2**31 - 1
    return (a * b + (1 << 30)) >> 31


def rdpot(x: int, e: int) -> int:
    """gemmlowp's RoundingDivideByPOT: x / 2^e rounded half away from zero."""
    if e == 0:
        return x
    mask = (1 << e) - 1
    return (x >> e) + (1 if (x & mask) > (mask >> 1) + (1 if x < 0 else 0) else 0)


def mbqm_tflite(x: int, m: int, shift: int) -> int:
    """TFLite's MultiplyByQuantizedMultiplier as its reference kernels build it (double rounding)."""
    left, right = max(shift, 0), max(-shift, 0)
    v = max(-(2**31), min(2**31 - 1, x * (1 << left)))
    return rdpot(srdhm(v, m), right)


def requant_table(s_in: float, z_in: int, s_out: float, z_out: int, lo: int = -128, hi: int = 127,
                  f32_ratio: bool = False) -> np.ndarray:
    """LUT_I8's 256 bytes for TFLite's int8 Requantize (s_in -> s_out) and a clamp to [lo, hi].

    ``f32_ratio``: the ratio s_in / s_out divided in float32, as TFLite's RELU/RELU6/RELU_N1_TO_1 prepare it
    (QUANTIZE divides in double)."""
    ratio = float(np.float32(np.float32(s_in) / np.float32(s_out))) if f32_ratio else float(s_in) / float(s_out)
    m, sh = quantize_multiplier(ratio)
    vals = [min(hi, max(lo, mbqm_tflite(x - z_in, m, sh) + z_out)) for x in range(-128, 128)]
    return np.array(vals, np.int8)


def _out(c: MoveCtx, name: str, shape: tuple[int, ...], s: float, z: int) -> tuple[int, int | None]:
    """The op's output tensor (its ONNX shape), or a staging tensor of ``shape`` plus the tensor a COPY fills."""
    if tuple(c.shape_of(name)) == tuple(shape):
        return c.new_q(name, s, z), None
    stage = c.B.add(Tensor(f"{name}__axes", DT_INT8, tuple(shape), STORE_ARENA, scale=float(np.float32(s)),
                           zero_point=int(z)))
    return stage, c.new_q(name, s, z)


def _axes_op(c: MoveCtx, node: onnx.NodeProto, x: str, out: str, tables: list[np.ndarray], fill: int = 0) -> None:
    s, z = c.L.qparams[x]
    shape = tuple(len(t) for t in tables)
    if len(shape) > MOVE_MAX_RANK:
        raise c.refuse(node, f"rank {len(shape)} > {MOVE_MAX_RANK}")
    y, final = _out(c, out, shape, s, z)
    tab = c.B.const(f"{node.name}__{out}__axes", gather_table(tables), DT_INT32)
    c.B.op(Op.GATHER_AXES, [c.qidx[x], tab], [y], [int(fill)], f"{node.name}:{out}")
    if final is not None:
        c.B.op(Op.COPY, [y], [final], [], f"{node.name}:{out}__view")


def lower_move(c: MoveCtx, node: onnx.NodeProto, xs: list[str], outs: list[str]) -> None:
    """Lower ``node`` reading int8 tensors ``xs`` (its data inputs) into int8 ``outs`` (its outputs), which
    keep ``xs[0]``'s parameters."""
    t, a = node.op_type, _attrs(node)
    x = xs[0]
    s, z = c.L.qparams[x]
    xsh = c.shape_of(x)
    r = len(xsh)
    if t == "Transpose":
        perm = [int(p) for p in a.get("perm", list(range(r))[::-1])]
        if not 1 <= r <= MOVE_MAX_RANK or sorted(perm) != list(range(r)):
            raise c.refuse(node, f"rank {r} (1..{MOVE_MAX_RANK}) with perm {perm}")
        y, final = _out(c, outs[0], tuple(xsh[p] for p in perm), s, z)
        c.B.op(Op.TRANSPOSE, [c.qidx[x]], [y], perm, node.name)
        if final is not None:
            c.B.op(Op.COPY, [y], [final], [], f"{node.name}__view")
    elif t == "Concat":
        if any(c.L.qparams[v] != (s, z) for v in xs):
            raise c.refuse(node, f"inputs with different parameters {[c.L.qparams[v] for v in xs]} (TFLite's int8 "
                                 f"concatenation takes one pair)")
        axis = int(a.get("axis", 0)) % r
        c.B.op(Op.CONCAT, [c.qidx[v] for v in xs], [c.new_q(outs[0], s, z)], [axis], node.name)
    elif t == "Pad":
        mode = a.get("mode", b"constant")
        if (mode.decode() if isinstance(mode, bytes) else str(mode)) != "constant" or _ints(c, node, 3) is not None:
            raise c.refuse(node, "constant mode over all axes only")
        pads = _ints(c, node, 1) or []
        if len(pads) != 2 * r or min(pads, default=0) < 0:
            raise c.refuse(node, f"pads {pads} for rank {r} (no cropping)")
        fill = z
        if len(node.input) > 2 and node.input[2]:
            v = np.asarray(c.init.get(node.input[2], np.zeros(0))).reshape(-1)
            if node.input[2] not in c.init or v.size != 1:
                raise c.refuse(node, "constant_value must be one constant")
            fill = int(v[0]) if v.dtype == np.int8 else int(np.clip(np.rint(float(v[0]) / s) + z, -128, 127))
        _axes_op(c, node, x, outs[0], pad_tables(xsh, pads), fill)
    elif t in ("Slice", "Split", "Gather"):
        for k, out in enumerate(outs):
            _axes_op(c, node, x, out, _tables(c, node, a, xsh, k))
    elif t == "MaxPool":
        if r != 4 or int(a.get("ceil_mode", 0)) or any(int(d) != 1 for d in a.get("dilations", [1, 1])):
            raise c.refuse(node, "a 4-D MaxPool without ceil_mode and dilations")
        ks = [int(v) for v in a["kernel_shape"]]
        st = [int(v) for v in a.get("strides", [1, 1])]
        pads = [int(v) for v in a.get("pads", [0, 0, 0, 0])]
        c.B.op(Op.MAXPOOL_I8, [c.qidx[x]], [c.new_q(outs[0], s, z)], [ks[0], ks[1], st[0], st[1], *pads], node.name)
    else:
        raise c.refuse(node, "not a data-movement op")


def _tables(c: MoveCtx, node: onnx.NodeProto, a: dict[str, Any], xsh: tuple[int, ...], k: int) -> list[np.ndarray]:
    """Per-axis index tables of output ``k`` of a Slice, Split or Gather (constant indices)."""
    r = len(xsh)
    tables = [np.arange(d) for d in xsh]
    t = node.op_type
    if t == "Slice":
        starts, ends = _ints(c, node, 1), _ints(c, node, 2)
        axes, steps = _ints(c, node, 3), _ints(c, node, 4)
        if starts is None or ends is None or len(starts) != len(ends):
            raise c.refuse(node, "starts and ends must be constants of one length")
        axes = axes if axes is not None else list(range(len(starts)))
        steps = steps if steps is not None else [1] * len(starts)
        for st, en, ax, sp in zip(starts, ends, axes, steps, strict=True):
            if sp == 0:
                raise c.refuse(node, "step 0")
            tables[ax % r] = np.arange(xsh[ax % r])[slice(st, en, sp)]
        return tables
    if t == "Split":
        axis = int(a.get("axis", 0)) % r
        sizes = _ints(c, node, 1) or [int(v) for v in a.get("split", [])]
        if not sizes:
            n = len(node.output)
            if xsh[axis] % n:
                raise c.refuse(node, f"{n} equal parts of {xsh[axis]}")
            sizes = [xsh[axis] // n] * n
        if sum(sizes) != xsh[axis] or len(sizes) != len(node.output):
            raise c.refuse(node, f"split sizes {sizes} of axis {axis} ({xsh[axis]})")
        off = sum(sizes[:k])
        tables[axis] = np.arange(off, off + sizes[k])
        return tables
    axis = int(a.get("axis", 0)) % r
    if node.input[1] not in c.init:
        raise c.refuse(node, "run-time indices in an int8 QDQ program")
    idx = np.asarray(c.init[node.input[1]], np.int64)
    if idx.ndim > 1:
        raise c.refuse(node, f"indices of rank {idx.ndim} (0 or 1)")
    idx = np.where(idx < 0, idx + xsh[axis], idx).reshape(-1)
    if idx.size and (idx.min() < 0 or idx.max() >= xsh[axis]):
        raise c.refuse(node, f"index out of range for axis {axis} of size {xsh[axis]}")
    tables[axis] = idx
    return tables


def tconv_tables(xs: tuple[int, ...], k: tuple[int, int], strides: tuple[int, int], pads_begin: tuple[int, int],
                 out_hw: tuple[int, int]) -> list[np.ndarray]:
    """GATHER_AXES tables of a ConvTranspose's input as a stride-1 convolution's (flipped kernel, no padding):
    padded row ``p`` holds input row ``i`` when ``p - (k - 1 - pad_begin) = i * stride``, the fill (the input's
    zero point, adding nothing) elsewhere; ``out + k - 1`` rows, so the convolution gives ``out`` rows."""
    tabs = [np.arange(xs[0]), np.arange(xs[1])]
    for a in range(2):
        p = np.arange(out_hw[a] + k[a] - 1) - (k[a] - 1 - pads_begin[a])
        i = p // strides[a]
        ok = (p >= 0) & (p % strides[a] == 0) & (i < xs[2 + a])
        tabs.append(np.where(ok, i, -1))
    return tabs


def gathered(c: MoveCtx, node: onnx.NodeProto, x: str, tables: list[np.ndarray], fill: int) -> int:
    """A new int8 tensor (``x``'s parameters) filled by GATHER_AXES with ``tables``: its program index."""
    s, z = c.L.qparams[x]
    y = c.B.add(Tensor(f"{node.name}__gathered", DT_INT8, tuple(len(t) for t in tables), STORE_ARENA,
                       scale=float(np.float32(s)), zero_point=int(z)))
    tab = c.B.const(f"{node.name}__gather_tab", gather_table(tables), DT_INT32)
    c.B.op(Op.GATHER_AXES, [c.qidx[x], tab], [y], [int(fill)], f"{node.name}__gather")
    return int(y)


def tflite_operands(c: MoveCtx, node: onnx.NodeProto,
                    constants: str) -> tuple[dict[str, Any], str, tuple[np.ndarray, ...]]:
    """A TFLite translator node's (``bb.tflite``: Svdf, Lstm) attributes, its int8 input ``X`` checked against
    the program's parameters for it, and its inputs 1-3 as constants (``constants`` names them in the refusal)."""
    a = {x.name: onnx.helper.get_attribute_value(x) for x in node.attribute}
    x = node.input[0]
    if x not in c.qidx:
        raise c.refuse(node, f"input {x!r} is not an int8 tensor of the program")
    if c.L.qparams[x] != (float(np.float32(a["x_scale"])), int(a["x_zero_point"])):
        raise c.refuse(node, f"{x!r} has parameters {c.L.qparams[x]}, the node says "
                       f"{(a['x_scale'], a['x_zero_point'])}")
    try:
        arrays = tuple(np.asarray(c.init[n]) for n in node.input[1:4])
    except KeyError as e:
        raise c.refuse(node, f"{constants} must be constants ({e})") from e
    return a, x, arrays
