"""TFLite's integer UNIDIRECTIONAL_SEQUENCE_LSTM (8x8->16, a Keras LSTM as the converter writes it) as one ONNX
node the int8 lowering runs as LSTM_I8.

ONNX's LSTM is a float op with other gate arithmetic, so the translator writes a node of its own domain
(:data:`bb_edge.tflite.svdf.DOMAIN`, op ``Lstm``): the int8 input [T, B, I] (time-major) or [B, T, I], and as
initializers the four gates' input and recurrent weights stacked [4, C, I] and [4, C, C] (input, forget,
cell, output) and the effective biases [2, 4, C]; the scales and zero points as attributes, from which the
lowering (:mod:`bb_edge.bbrt.lower_qdq_lstm`) derives the multipliers as TFLite's
``PopulateQuantizedLstmParams8x8_16`` does. TFLite's effective biases carry the zero points:
``bias - z_x * row sums`` on the input side, ``-z_h * row sums`` on the recurrent side, so the kernel
multiplies raw int8 values.

The output state h and cell state c (TFLite's variable inputs 18 and 19) live only within one invocation:
both start from TFLite's reset values (h at its zero point, c at 0) and carry from step to step inside the
kernel, which equals the interpreter invoked once on a fresh model (a second invoke of the same interpreter
would start from the last state; bbrt does not keep it across runs).

Supported: what TFLite's integer kernel runs for a standard LSTM: per-tensor symmetric int8 weights, int32
biases, a TANH cell activation, a power-of-two cell scale 2^-15..2^-9, an optional cell clip. Refused, each
by name: CIFG (no input gate), peephole, projection, layer normalization, hybrid (float input) models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from onnx import TensorProto, helper

from bb_edge.tflite.errors import TfliteFormatError, TfliteUnsupportedError
from bb_edge.tflite.svdf import DOMAIN

if TYPE_CHECKING:
    from bb_edge.tflite.reader import TflOp, TflTensor
    from bb_edge.tflite.to_onnx import _Builder

#: TFLite's input index of the output state and cell state (variables the op keeps; not ONNX values)
STATE_INPUTS = (18, 19)
ACT_TANH = 4
X_W, H_W, BIAS = (1, 2, 3, 4), (5, 6, 7, 8), (12, 13, 14, 15)  # gates input, forget, cell, output
FEATURES = {"CIFG (no input gate)": (1, 5, 12), "peephole": (9, 10, 11), "projection": (16, 17),
            "layer normalization": (20, 21, 22, 23)}


def _weights(op: TflOp, t: TflTensor, shape: tuple[int, int]) -> tuple[np.ndarray, np.float32]:
    if t.data is None or t.dtype != "INT8" or tuple(t.shape) != shape:
        raise TfliteUnsupportedError(op.op, op.index, f"weights {t.name!r} must be a constant int8 {list(shape)} "
                                     f"(got {t.dtype} {list(t.shape)}{'' if t.data is not None else ', not constant'})")
    if t.quant is None or not t.quant.per_tensor or int(t.quant.zero_point[0]) != 0:
        raise TfliteUnsupportedError(op.op, op.index, f"weights {t.name!r} need one scale and zero point 0 "
                                     f"(TFLite's integer LSTM)")
    return np.asarray(t.data, np.int8), np.float32(t.quant.scale[0])


def _check_features(b: _Builder, op: TflOp) -> None:
    ins = op.inputs
    if len(ins) not in (20, 24) or len(op.outputs) != 1:
        raise TfliteFormatError(f"operator {op.index} ({op.op}): {len(ins)} inputs and {len(op.outputs)} outputs "
                                f"(20 or 24 inputs, 1 output)")
    for name, idx in FEATURES.items():
        present = [i for i in idx if i < len(ins) and ins[i] >= 0]
        if (name.startswith("CIFG") and len(present) < len(idx)) or (not name.startswith("CIFG") and present):
            raise TfliteUnsupportedError(op.op, op.index, f"{name} is not supported (bbrt's LSTM_I8 runs the "
                                         f"standard integer LSTM: no CIFG, peephole, projection or layer norm)")
    o = op.options
    if o.get("asymmetric_quantize_inputs") or b.g.tensors[ins[0]].dtype == "FLOAT32":
        raise TfliteUnsupportedError(op.op, op.index, "a float input (a float or hybrid-quantized LSTM)")
    if int(o.get("fused_activation_function", 0)) != ACT_TANH:
        raise TfliteUnsupportedError(op.op, op.index, "the cell activation must be TANH (TFLite's integer LSTM)")
    if len(op.intermediates) < 5 or op.intermediates[4] < 0:
        raise TfliteUnsupportedError(op.op, op.index, "an integer LSTM needs its five intermediates (the hidden "
                                     "state's scale is the fifth)")


def _cell_log2(op: TflOp, t: TflTensor) -> int:
    per_tensor = t.quant is not None and t.quant.per_tensor
    s = float(t.quant.scale[0]) if t.quant is not None and per_tensor else 0.0
    zp = int(t.quant.zero_point[0]) if t.quant is not None and per_tensor else 0
    e = int(np.round(np.log2(s))) if s > 0 else 0
    if s <= 0 or 2.0**e != s or not -15 <= e <= -9 or t.dtype != "INT16" or zp != 0:
        raise TfliteUnsupportedError(op.op, op.index, f"cell state {t.name!r} must be int16 with a power-of-two "
                                     f"scale 2^-15..2^-9 and zero point 0 (got {t.dtype}, scale {s})")
    return e


def lstm_params(b: _Builder, op: TflOp) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """(Wx [4, C, I], Wh [4, C, C], effective biases [2, 4, C], the node's scale attributes)."""
    g = b.g
    xt, ht, ct = g.tensors[op.inputs[0]], g.tensors[op.inputs[18]], g.tensors[op.inputs[19]]
    n_in = int(xt.shape[-1])
    n_cell = int(g.tensors[op.inputs[X_W[3]]].shape[0])
    _, zx = b.qparams(xt, op)
    sh, zh = b.qparams(ht, op)
    s_hid, z_hid = b.qparams(g.tensors[op.intermediates[4]], op)
    wx, wh, bx, bh, swx, swh = [], [], [], [], [], []
    for k in range(4):
        w, s = _weights(op, g.tensors[op.inputs[X_W[k]]], (n_cell, n_in))
        r, s_r = _weights(op, g.tensors[op.inputs[H_W[k]]], (n_cell, n_cell))
        bt = g.tensors[op.inputs[BIAS[k]]]
        if bt.data is None or bt.dtype != "INT32" or tuple(bt.shape) != (n_cell,):
            raise TfliteUnsupportedError(op.op, op.index, f"gate bias {bt.name!r} must be a constant int32 [{n_cell}]")
        wx.append(w)
        wh.append(r)
        swx.append(float(s))
        swh.append(float(s_r))
        # TFLite's PrecomputeZeroPointTimesWeightWithBias, in int32 (wrapping as the kernel's sums do)
        bx.append(np.asarray(bt.data, np.int64) - zx * w.astype(np.int64).sum(1))
        bh.append(-zh * r.astype(np.int64).sum(1))
    bias = ((np.array([bx, bh], np.int64) + 2**31) % 2**32 - 2**31).astype(np.int32)
    clip = float(op.options.get("cell_clip", 0.0))
    log2 = _cell_log2(op, ct)
    q_clip = int(min(max(float(np.float32(clip) / np.float32(2.0**log2)), -32768.0), 32767.0)) if clip > 0 else 0
    attrs: dict[str, Any] = {"wx_scales": swx, "wh_scales": swh, "h_scale": sh, "h_zero_point": zh,
                                "hidden_scale": s_hid, "hidden_zero_point": z_hid, "cell_log2": log2,
                                "cell_clip": q_clip, "time_major": int(bool(op.options.get("time_major", True)))}
    return np.stack(wx), np.stack(wh), bias, attrs


def _lstm(b: _Builder, op: TflOp) -> None:
    _check_features(b, op)
    xt, yt = b.g.tensors[op.inputs[0]], b.g.tensors[op.outputs[0]]
    b.int8(xt, op)
    b.int8(yt, op)
    b.int8(b.g.tensors[op.inputs[18]], op)
    if len(xt.shape) != 3 or xt.data is not None:
        raise TfliteUnsupportedError(op.op, op.index, f"input {xt.name!r} {list(xt.shape)}: an activation [T, B, I] "
                                     f"or [B, T, I]")
    wx, wh, bias, attrs = lstm_params(b, op)
    n_cell = wx.shape[1]
    if tuple(yt.shape) != (*xt.shape[:2], n_cell):
        raise TfliteFormatError(f"operator {op.index} ({op.op}): output {list(yt.shape)}, expected "
                                f"{[*xt.shape[:2], n_cell]}")
    sx, zx = b.qparams(xt, op)
    sy, zy = b.qparams(yt, op)
    base = b.names[op.outputs[0]]
    ins = [b.value[op.inputs[0]], b.init(f"{base}_wx", wx), b.init(f"{base}_wh", wh), b.init(f"{base}_bias", bias)]
    out = b.fresh(f"{base}_lstm")
    b.nodes.append(helper.make_node("Lstm", ins, [out], name=b.fresh(f"{base}_Lstm"), domain=DOMAIN, x_scale=sx,
                                    x_zero_point=zx, y_scale=sy, y_zero_point=zy, **attrs))
    b.value_info.append(helper.make_tensor_value_info(out, TensorProto.INT8, list(yt.shape)))
    b.value[op.outputs[0]] = out


LSTM_HANDLERS = {"UNIDIRECTIONAL_SEQUENCE_LSTM": _lstm}
