"""TFLite's int8 data-movement ops and MAX_POOL_2D as ONNX ops on the int8 values themselves.

TFLite's kernels for these ops copy bytes: the output keeps the input's scale and zero point (a file
whose output parameters differ is refused, :class:`TfliteQuantError`), so every one is exact in int8 and
no DequantizeLinear/QuantizeLinear surrounds it. The int8 lowering (bb_edge/bbrt/lower_qdq_move.py) runs
Transpose as TRANSPOSE, Concat as CONCAT, Pad/Slice/Gather/Split as GATHER_AXES (one index table per
axis; RESIZE_NEAREST_NEIGHBOR is a constant-index Gather along H and W) and MaxPool as MAXPOOL_I8 (a fused
activation as a LUT_I8 clamp, built in the lowering from the ONNX Clip that follows).

Layout: a 4-D value is NCHW inside the ONNX graph (bb_edge/tflite/to_onnx.py). Per-axis ops map their
axes (TFLite axis a of a 4-D tensor is ONNX axis ``NCHW_AXIS[a]``); ops that change the rank (GATHER with
indices of rank != 1, PACK, UNPACK) work on the TFLite (NHWC) layout between two layout moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bb_edge.tflite.errors import TfliteFormatError, TfliteQuantError, TfliteUnsupportedError
from bb_edge.tflite.reader import TflOp

if TYPE_CHECKING:
    from bb_edge.tflite.to_onnx import _Builder

NCHW_AXIS = (0, 2, 3, 1)  # TFLite NHWC axis -> ONNX NCHW axis
NHWC_OF_NCHW = (0, 3, 1, 2)  # ONNX axis -> TFLite axis
SAME, VALID = 0, 1
ACT_NONE, ACT_RELU, ACT_RELU_N1_TO_1, ACT_RELU6 = 0, 1, 2, 3
#: ops this module translates
MOVES = ("TRANSPOSE", "CONCATENATION", "PAD", "PADV2", "STRIDED_SLICE", "GATHER", "SPLIT", "PACK", "UNPACK",
         "MAX_POOL_2D", "RESIZE_NEAREST_NEIGHBOR")


def onnx_axis(rank: int, a: int) -> int:
    """The ONNX axis of TFLite axis ``a`` (negative counts from the end) of a rank-``rank`` tensor."""
    a = a + rank if a < 0 else a
    if not 0 <= a < rank:
        raise IndexError(f"axis {a} of a rank-{rank} tensor")
    return NCHW_AXIS[a] if rank == 4 else a


def per_onnx_axis(rank: int, values: list[int]) -> list[int]:
    """A per-axis list in TFLite's axis order, reordered to the ONNX value's axes."""
    return [values[NHWC_OF_NCHW[j]] for j in range(4)] if rank == 4 else list(values)


def _const_ints(b: _Builder, op: TflOp, i: int, what: str) -> np.ndarray:
    t = b.g.tensors[op.inputs[i]] if i < len(op.inputs) and op.inputs[i] >= 0 else None
    if t is None or t.data is None:
        raise TfliteUnsupportedError(op.op, op.index, f"{what} must be a constant")
    return np.asarray(t.data).astype(np.int64).reshape(-1)


def _same_params(b: _Builder, op: TflOp, i: int, o: int) -> tuple[float, int]:
    """The parameters input ``i`` and output ``o`` share (TFLite's kernel copies bytes); else refused."""
    xt, yt = b.g.tensors[i], b.g.tensors[o]
    b.int8(xt, op)
    b.int8(yt, op)
    if xt.data is not None:
        raise TfliteUnsupportedError(op.op, op.index, f"input {xt.name!r} is a constant; bb-edge translates "
                                     f"this op between activations only")
    px, py = b.qparams(xt, op), b.qparams(yt, op)
    if px != py:
        raise TfliteQuantError(yt.name, f"op {op.index} ({op.op}) moves int8 bytes but its output's parameters "
                               f"{py} differ from its input {xt.name!r}'s {px}")
    return px


def _tfl_value(b: _Builder, i: int) -> str:
    """Tensor ``i``'s ONNX value in TFLite's own (NHWC) layout."""
    from bb_edge.tflite.to_onnx import _to_nhwc
    t = b.g.tensors[i]
    return _to_nhwc(b, b.value[i], t.shape) if len(t.shape) == 4 else b.value[i]


def _put_tfl(b: _Builder, i: int, v: str) -> None:
    """Store ``v`` (TFLite layout) as tensor ``i``'s value (NCHW when 4-D)."""
    from bb_edge.tflite.to_onnx import _to_nchw
    t = b.g.tensors[i]
    b.value[i] = _to_nchw(b, v, t.shape) if len(t.shape) == 4 else v


def _i64(b: _Builder, base: str, values: list[int]) -> str:
    return b.init(base, np.array(values, np.int64))


def _transpose(b: _Builder, op: TflOp) -> None:
    xt, out = b.g.tensors[op.inputs[0]], op.outputs[0]
    _same_params(b, op, op.inputs[0], out)
    r = len(xt.shape)
    perm = [int(p) + (r if p < 0 else 0) for p in _const_ints(b, op, 1, "perm")]
    if sorted(perm) != list(range(r)):
        raise TfliteFormatError(f"operator {op.index} (TRANSPOSE): perm {perm} for rank {r}")
    # ONNX output axis j is TFLite output axis t, which is TFLite input axis perm[t], ONNX input axis of that
    onnx_perm = [onnx_axis(r, perm[NHWC_OF_NCHW[j] if r == 4 else j]) for j in range(r)]
    b.value[out] = b.node("Transpose", [b.value[op.inputs[0]]], b.names[out], perm=onnx_perm)


def _concat(b: _Builder, op: TflOp) -> None:
    out = op.outputs[0]
    for i in op.inputs:
        _same_params(b, op, i, out)
    if int(op.options.get("fused_activation_function", 0)) != ACT_NONE:
        raise TfliteUnsupportedError(op.op, op.index, "a fused activation on a concatenation")
    r = len(b.g.tensors[out].shape)
    axis = onnx_axis(r, int(op.options.get("axis", 0)))
    b.value[out] = b.node("Concat", [b.value[i] for i in op.inputs], b.names[out], axis=axis)


def _pad(b: _Builder, op: TflOp) -> None:
    xt, out = b.g.tensors[op.inputs[0]], op.outputs[0]
    _, z = _same_params(b, op, op.inputs[0], out)
    r = len(xt.shape)
    pads = _const_ints(b, op, 1, "paddings").reshape(-1, 2) if r else np.zeros((0, 2), np.int64)
    if pads.shape != (r, 2) or np.any(pads < 0):
        raise TfliteFormatError(f"operator {op.index} ({op.op}): paddings {pads.tolist()} for rank {r}")
    fill = z  # PAD pads with the output's zero point (a real 0)
    if op.op == "PADV2" and len(op.inputs) > 2 and op.inputs[2] >= 0:
        fill = int(_const_ints(b, op, 2, "constant_values")[0])
    before = per_onnx_axis(r, [int(v) for v in pads[:, 0]])
    after = per_onnx_axis(r, [int(v) for v in pads[:, 1]])
    b.value[out] = b.node("Pad", [b.value[op.inputs[0]], _i64(b, f"{b.names[out]}_pads", before + after),
                                  b.init(f"{b.names[out]}_fill", np.array(fill, np.int8))], b.names[out],
                          mode="constant")


def _strided_slice(b: _Builder, op: TflOp) -> None:
    xt, yt, out = b.g.tensors[op.inputs[0]], b.g.tensors[op.outputs[0]], op.outputs[0]
    _same_params(b, op, op.inputs[0], out)
    o = op.options
    for key in ("ellipsis_mask", "new_axis_mask", "offset"):
        if int(o.get(key, 0)):
            raise TfliteUnsupportedError(op.op, op.index, f"{key} (begin/end masks and shrink_axis_mask only)")
    r = len(xt.shape)
    begin, end, stride = (_const_ints(b, op, k, w) for k, w in ((1, "begin"), (2, "end"), (3, "strides")))
    if not len(begin) == len(end) == len(stride) == r or np.any(stride == 0):
        raise TfliteFormatError(f"operator {op.index} (STRIDED_SLICE): begin/end/strides for rank {r}")
    bm, em, sm = int(o.get("begin_mask", 0)), int(o.get("end_mask", 0)), int(o.get("shrink_axis_mask", 0))
    starts, ends, steps, sizes = [], [], [], []
    for k in range(r):
        s = int(stride[k])
        lo = None if bm >> k & 1 else int(begin[k])
        hi = None if em >> k & 1 else int(end[k])
        if sm >> k & 1:  # one element at begin, the axis dropped
            i = int(begin[k]) + (xt.shape[k] if begin[k] < 0 else 0)
            if not 0 <= i < xt.shape[k]:
                raise TfliteFormatError(f"operator {op.index} (STRIDED_SLICE): index {int(begin[k])} out of axis {k}")
            lo, hi, s = i, i + 1, 1
        idx = np.arange(xt.shape[k])[slice(lo, hi, s)]  # TFLite clamps begin and end as Python slicing does
        if idx.size == 0:
            raise TfliteUnsupportedError(op.op, op.index, f"an empty slice along axis {k}")
        stop = int(idx[-1]) + (1 if s > 0 else -1)
        starts.append(int(idx[0]))
        ends.append(stop if stop >= 0 else -(2**62))  # ONNX: a negative end counts from the back
        steps.append(s)
        sizes.append(int(idx.size))
    kept = tuple(n for k, n in enumerate(sizes) if not sm >> k & 1)
    if kept != tuple(yt.shape):
        raise TfliteFormatError(f"operator {op.index} (STRIDED_SLICE): output shape {list(yt.shape)}, the slice "
                                f"gives {list(kept)}")
    name = b.names[out]
    v = b.node("Slice", [b.value[op.inputs[0]], _i64(b, f"{name}_starts", per_onnx_axis(r, starts)),
                         _i64(b, f"{name}_ends", per_onnx_axis(r, ends)), _i64(b, f"{name}_axes", list(range(r))),
                         _i64(b, f"{name}_steps", per_onnx_axis(r, steps))], f"{name}_slice")
    b.value[out] = b.view(v, tuple(sizes), yt.shape, name) if tuple(sizes) != yt.shape else v


def _gather(b: _Builder, op: TflOp) -> None:
    xt, yt, out = b.g.tensors[op.inputs[0]], b.g.tensors[op.outputs[0]], op.outputs[0]
    _same_params(b, op, op.inputs[0], out)
    if int(op.options.get("batch_dims", 0)):
        raise TfliteUnsupportedError(op.op, op.index, "batch_dims")
    it = b.g.tensors[op.inputs[1]]
    if it.data is None:
        raise TfliteUnsupportedError(op.op, op.index, "run-time indices (constant indices only)")
    r = len(xt.shape)
    axis = int(op.options.get("axis", 0))
    axis = axis + r if axis < 0 else axis
    idx = np.asarray(it.data).astype(np.int64)
    if idx.size and (idx.min() < 0 or idx.max() >= xt.shape[axis]):
        raise TfliteFormatError(f"operator {op.index} (GATHER): index out of range for axis {axis}")
    if idx.ndim == 1:
        ind = b.init(f"{b.names[out]}_indices", idx)
        b.value[out] = b.node("Gather", [b.value[op.inputs[0]], ind], b.names[out], axis=onnx_axis(r, axis))
        return
    # other index ranks: a 1-D gather in TFLite's layout, then a reshape (the lowering's tables are 1-D per axis)
    flat = b.node("Gather", [_tfl_value(b, op.inputs[0]), b.init(f"{b.names[out]}_indices", idx.reshape(-1))],
                  f"{b.names[out]}_flat", axis=axis)
    _put_tfl(b, out, b.node("Reshape", [flat, _i64(b, f"{b.names[out]}_shape", list(yt.shape))],
                            f"{b.names[out]}_tfl"))


def _split(b: _Builder, op: TflOp) -> None:
    xt = b.g.tensors[op.inputs[1]]
    axis_c = _const_ints(b, op, 0, "axis")
    r = len(xt.shape)
    axis = int(axis_c[0]) + (r if axis_c[0] < 0 else 0)
    n = len(op.outputs)
    if n < 1 or xt.shape[axis] % n:
        raise TfliteFormatError(f"operator {op.index} (SPLIT): {n} outputs of axis {axis} ({xt.shape[axis]})")
    for o in op.outputs:
        _same_params(b, op, op.inputs[1], o)
    outs = [b.fresh(f"{b.names[o]}_split") for o in op.outputs]
    from onnx import helper
    b.nodes.append(helper.make_node("Split", [b.value[op.inputs[1]], _i64(b, f"{b.names[op.outputs[0]]}_sizes",
                                                                          [xt.shape[axis] // n] * n)], outs,
                                    name=b.fresh(f"{b.names[op.outputs[0]]}_Split"), axis=onnx_axis(r, axis)))
    for o, v in zip(op.outputs, outs, strict=True):
        b.value[o] = v


def _pack(b: _Builder, op: TflOp) -> None:
    out, yt = op.outputs[0], b.g.tensors[op.outputs[0]]
    r = len(yt.shape)
    axis = int(op.options.get("axis", 0))
    axis = axis + r if axis < 0 else axis
    parts = []
    for i in op.inputs:
        _same_params(b, op, i, out)
        parts.append(b.node("Unsqueeze", [_tfl_value(b, i), _i64(b, f"{b.names[out]}_axis", [axis])],
                            f"{b.names[i]}_unsq"))
    _put_tfl(b, out, b.node("Concat", parts, f"{b.names[out]}_tfl", axis=axis))


def _unpack(b: _Builder, op: TflOp) -> None:
    xt = b.g.tensors[op.inputs[0]]
    r = len(xt.shape)
    axis = int(op.options.get("axis", 0))
    axis = axis + r if axis < 0 else axis
    if len(op.outputs) != xt.shape[axis]:
        raise TfliteFormatError(f"operator {op.index} (UNPACK): {len(op.outputs)} outputs of axis size "
                                f"{xt.shape[axis]}")
    x = _tfl_value(b, op.inputs[0])
    for k, o in enumerate(op.outputs):
        _same_params(b, op, op.inputs[0], o)
        v = b.node("Gather", [x, b.init(f"{b.names[o]}_index", np.array(k, np.int64))], f"{b.names[o]}_tfl",
                   axis=axis)
        _put_tfl(b, o, v)


def _maxpool(b: _Builder, op: TflOp) -> None:
    from bb_edge.tflite.to_onnx import same_padding
    xt, o, out = b.g.tensors[op.inputs[0]], op.options, op.outputs[0]
    s, z = _same_params(b, op, op.inputs[0], out)
    if len(xt.shape) != 4:
        raise TfliteUnsupportedError(op.op, op.index, f"input shape {list(xt.shape)}: 4-D NHWC only")
    kh, kw = int(o.get("filter_height", 0)), int(o.get("filter_width", 0))
    sh, sw = int(o.get("stride_h", 0)), int(o.get("stride_w", 0))
    if min(kh, kw, sh, sw) < 1:
        raise TfliteFormatError(f"operator {op.index} ({op.op}): filter {kh}x{kw}, strides {sh},{sw} must be "
                                f"positive")
    pads = [0, 0, 0, 0]
    if int(o.get("padding", SAME)) == SAME:
        pt, pb = same_padding(xt.shape[1], kh, sh, 1)
        pl, pr = same_padding(xt.shape[2], kw, sw, 1)
        pads = [pt, pl, pb, pr]
    v = b.node("MaxPool", [b.value[op.inputs[0]]], b.names[out], kernel_shape=[kh, kw], strides=[sh, sw],
               pads=pads)
    act = int(o.get("fused_activation_function", 0))
    if act != ACT_NONE:  # the activation as an int8 clamp (TFLite's: zero point + round(bound / scale))
        f = b.node("DequantizeLinear", [v, *b.scale_zp(f"{b.names[out]}_pool", s, z)], f"{b.names[out]}_pool_dq")
        b.quantize_out(f, out, op, act)
        return
    b.value[out] = v


def nearest_indices(n_in: int, n_out: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    """TFLite's ``GetNearestNeighbor`` for each output index, in float32 as its reference kernel computes."""
    f = np.float32
    scale = f(n_in - 1) / f(n_out - 1) if align_corners and n_out > 1 else f(n_in) / f(n_out)
    off = f(0.5) if half_pixel else f(0.0)
    v = (np.arange(n_out, dtype=np.float32) + off) * scale
    idx = np.trunc(np.abs(v) + f(0.5)) * np.sign(v) if align_corners else np.floor(v)  # TfLiteRound: half away
    idx = np.minimum(idx.astype(np.int64), n_in - 1)
    return np.maximum(idx, 0) if half_pixel else idx


def _resize_nearest(b: _Builder, op: TflOp) -> None:
    xt, yt, out = b.g.tensors[op.inputs[0]], b.g.tensors[op.outputs[0]], op.outputs[0]
    _same_params(b, op, op.inputs[0], out)
    if len(xt.shape) != 4:
        raise TfliteUnsupportedError(op.op, op.index, f"input shape {list(xt.shape)}: 4-D NHWC only")
    size = _const_ints(b, op, 1, "size")
    if size.shape != (2,) or tuple(int(v) for v in size) != tuple(yt.shape[1:3]) or min(size) < 1:
        raise TfliteFormatError(f"operator {op.index} ({op.op}): size {size.tolist()} for output "
                                f"{list(yt.shape)}")
    ac, hp = bool(op.options.get("align_corners", False)), bool(op.options.get("half_pixel_centers", False))
    v = b.value[op.inputs[0]]
    for k, axis in ((1, 2), (2, 3)):  # H, W of the NCHW value: one constant-index gather each (a copy)
        idx = nearest_indices(xt.shape[k], int(size[k - 1]), ac, hp)
        if idx.size != xt.shape[k] or np.any(idx != np.arange(idx.size)):
            v = b.node("Gather", [v, b.init(f"{b.names[out]}_idx{k}", idx)], f"{b.names[out]}_rs{k}", axis=axis)
    b.value[out] = v


MOVE_HANDLERS = {"TRANSPOSE": _transpose, "CONCATENATION": _concat, "PAD": _pad, "PADV2": _pad,
                 "STRIDED_SLICE": _strided_slice, "GATHER": _gather, "SPLIT": _split, "PACK": _pack,
                 "UNPACK": _unpack, "MAX_POOL_2D": _maxpool, "RESIZE_NEAREST_NEIGHBOR": _resize_nearest}
