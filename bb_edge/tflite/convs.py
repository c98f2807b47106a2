"""TFLite's int8 TRANSPOSE_CONV and BATCH_MATMUL as ONNX ops the int8 lowering keeps exact.

TRANSPOSE_CONV becomes a ``DequantizeLinear -> ConvTranspose -> QuantizeLinear`` group.

TFLite scatters ``(x - z_x) * w`` into an int32 accumulator per output pixel, adds the bias and requantizes
per output channel with CONV_2D's multipliers (``s_x * s_w[c] / s_y`` in double;
``reference_integer_ops::TransposeConv``). The ConvTranspose carries TFLite's geometry: weights
[O, KH, KW, I] become ONNX's [I, O, KH, KW] (per-channel scales on ONNX axis 1), the padding TFLite computes
from the output's size (``ComputePaddingHeightWidth`` of the output as a conv's input) is ``pads``' start, and
the end is what makes ONNX's output size equal TFLite's (``output_padding`` when it would be negative). The
int8 lowering (bb_edge/bbrt/lower_qdq.py) gathers the input into the stride-1 convolution's padded,
zero-point-filled form (GATHER_AXES) and runs CONV_I8 with the flipped kernel and TFLite's two-rounding
requantization (p11 = 1).

BATCH_MATMUL becomes a QLinearMatMul of its int8 operands in TFLite's layout (adj_x / adj_y as int8 transposes,
a lower-rank operand given leading 1s: the batch dims broadcast), each with its own scale and zero point; the
lowering runs BATCH_MATMUL_I8 (``sum (a - z_a)(b - z_b)``, TFLite's multiplier of ``s_a s_b / s_y`` with two
roundings). Either operand may be a constant int8 tensor (per-tensor parameters).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bb_edge.tflite.errors import TfliteFormatError, TfliteUnsupportedError
from bb_edge.tflite.moves import _const_ints
from bb_edge.tflite.reader import TflOp

if TYPE_CHECKING:
    from bb_edge.tflite.to_onnx import _Builder

#: ops this module translates
CONVS = ("TRANSPOSE_CONV", "BATCH_MATMUL")
SAME = 0


def _transpose_conv(b: _Builder, op: TflOp) -> None:
    from bb_edge.tflite.to_onnx import _w_scales, same_padding

    if len(op.inputs) < 3 or op.inputs[2] < 0:
        raise TfliteFormatError(f"operator {op.index} ({op.op}): {len(op.inputs)} inputs (output_shape, weights, "
                                f"input[, bias])")
    g, o = b.g, op.options
    xi = op.inputs[2]
    xt, wt, yt = g.tensors[xi], g.tensors[op.inputs[1]], g.tensors[op.outputs[0]]
    b.int8(xt, op)
    if xt.data is not None or len(xt.shape) != 4 or len(wt.shape) != 4 or wt.data is None:
        raise TfliteUnsupportedError(op.op, op.index, f"input {list(xt.shape)} (a 4-D activation) and weights "
                                     f"{list(wt.shape)} (4-D constant) only")
    shape = tuple(int(v) for v in _const_ints(b, op, 0, "output_shape"))
    n_out, kh, kw, cin = wt.shape
    if shape != tuple(yt.shape) or cin != xt.shape[3] or n_out != yt.shape[3] or xt.shape[0] != yt.shape[0]:
        raise TfliteFormatError(f"operator {op.index} ({op.op}): output_shape {list(shape)}, weights "
                                f"{list(wt.shape)}, input {list(xt.shape)}, output {list(yt.shape)} disagree")
    sh, sw = int(o.get("stride_h", 1)), int(o.get("stride_w", 1))
    if min(sh, sw, kh, kw) < 1:
        raise TfliteFormatError(f"operator {op.index} ({op.op}): strides {sh},{sw}, kernel {kh}x{kw}")
    h, w = xt.shape[1:3]
    oh, ow = yt.shape[1:3]
    pt = pl = 0
    if int(o.get("padding", SAME)) == SAME:  # TFLite pads as a conv whose input has the output's size
        pt, pl = same_padding(oh, kh, sh, 1)[0], same_padding(ow, kw, sw, 1)[0]
    end = [sh * (h - 1) + kh - pt - oh, sw * (w - 1) + kw - pl - ow]  # ONNX: out = s (in - 1) + k - pads
    if min(pt, pl) < 0:
        raise TfliteFormatError(f"operator {op.index} ({op.op}): padding {pt},{pl}")
    s, _ = b.qparams(xt, op)
    wo = np.ascontiguousarray(wt.data.transpose(3, 0, 1, 2))  # [I, O, KH, KW]
    ins = [b.act_in(xi, op), b.weights(wt, op, 0, wo, 1)]
    bn = b.bias(op.inputs[3] if len(op.inputs) > 3 else -1, op, s, _w_scales(wt, n_out), n_out)
    if bn:
        ins.append(bn)
    f = b.node("ConvTranspose", ins, f"{b.names[op.outputs[0]]}_tconv", kernel_shape=[kh, kw], strides=[sh, sw],
               pads=[pt, pl, max(end[0], 0), max(end[1], 0)], output_padding=[max(-end[0], 0), max(-end[1], 0)])
    b.quantize_out(f, op.outputs[0], op, int(o.get("fused_activation_function", 0)))


def _mm_operand(b: _Builder, op: TflOp, i: int, rank: int, adj: bool) -> str:
    """Operand ``i`` in TFLite's layout, its last two axes swapped when ``adj``, with leading 1s to ``rank``."""
    from bb_edge.tflite.moves import _tfl_value

    t = b.g.tensors[i]
    b.int8(t, op)
    b.qparams(t, op)  # per-tensor parameters, or a typed error
    shape = list(t.shape)
    if len(shape) < 2:
        raise TfliteUnsupportedError(op.op, op.index, f"operand {t.name!r} of rank {len(shape)} (2 or more)")
    if adj:
        shape[-2], shape[-1] = shape[-1], shape[-2]
    full = [1] * (rank - len(shape)) + shape
    base = f"{b.names[i]}_{op.index}"
    if t.data is not None:
        arr = np.asarray(t.data).astype(np.int8)
        return b.init(base, np.ascontiguousarray(np.swapaxes(arr, -1, -2) if adj else arr).reshape(full))
    v = _tfl_value(b, i)
    if adj:
        perm = list(range(len(t.shape)))
        perm[-2], perm[-1] = perm[-1], perm[-2]
        v = b.node("Transpose", [v], f"{base}_adj", perm=perm)
    if len(full) != len(shape):
        v = b.node("Reshape", [v, b.init(f"{base}_rank", np.array(full, np.int64))], f"{base}_rank")
    return v


def _batch_matmul(b: _Builder, op: TflOp) -> None:
    from bb_edge.tflite.moves import _put_tfl

    o = op.options
    if o.get("asymmetric_quantize_inputs"):
        raise TfliteUnsupportedError(op.op, op.index, "hybrid quantization (float inputs)")
    if len(op.inputs) < 2 or min(op.inputs[:2]) < 0:
        raise TfliteFormatError(f"operator {op.index} ({op.op}): {len(op.inputs)} inputs")
    at, bt, yt = (b.g.tensors[i] for i in (*op.inputs[:2], op.outputs[0]))
    if at.data is not None and bt.data is not None:
        raise TfliteUnsupportedError(op.op, op.index, "both operands are constants (fold them in the model)")
    b.int8(yt, op)
    r = len(yt.shape)
    va = _mm_operand(b, op, op.inputs[0], r, bool(o.get("adj_x", False)))
    vb = _mm_operand(b, op, op.inputs[1], r, bool(o.get("adj_y", False)))
    ins = []
    for v, t in ((va, at), (vb, bt), (None, yt)):
        s, z = b.qparams(t, op)
        ins += ([v] if v else []) + list(b.scale_zp(f"{b.names[op.outputs[0]]}_{t.index}", s, z))
    y = b.node("QLinearMatMul", ins, f"{b.names[op.outputs[0]]}_bmm")
    _put_tfl(b, op.outputs[0], y)


CONV_HANDLERS = {"TRANSPOSE_CONV": _transpose_conv, "BATCH_MATMUL": _batch_matmul}
