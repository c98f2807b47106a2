"""Translate a checked TFLite int8 subgraph into an ONNX QDQ model that bbrt's int8 lowering keeps exact.

The output has the form tf2onnx gives the same file (the MLPerf Tiny QDQ models in shared/, which lower
bit-exactly): every int8 tensor stays int8, every op becomes ``DequantizeLinear -> float op [-> Relu|Clip]
-> QuantizeLinear`` with the tensor's own scale and zero point, weights are int8 initializers behind a
DequantizeLinear (per channel along ONNX's output-channel axis 0 for Conv, axis 1 for MatMul's [K, N]),
biases are int32 initializers (scale s_x * s_w, zero point 0). TFLite's integer arithmetic is not spelled
out in ONNX: the lowering (bb_edge/bbrt/lower_qdq.py) recognises each group and applies TFLite's rounding
(QuantizeMultiplier from the scales in double, single-rounding MultiplyByQuantizedMultiplier, the fused
activation as an int8 clamp, ADD's left shift 20, AVERAGE_POOL's rounded integer division, SOFTMAX's
exp table), as it does for tf2onnx's files.

Layout: 4-D TFLite tensors are NHWC, ONNX convs are NCHW. Every 4-D activation is NCHW inside the ONNX
graph; a 4-D graph input stays NHWC and is transposed once (the lowering folds that Transpose into the
first convs, which read NHWC in place), and a reshape between layouts transposes only when the move is
not a pure reinterpretation (as tf2onnx's optimiser leaves it).

Ops translated: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, AVERAGE_POOL_2D, SOFTMAX (beta 1),
RESHAPE, SQUEEZE, EXPAND_DIMS, QUANTIZE (of a float graph input, or int8 -> int8), DEQUANTIZE (to a float graph
output), the arithmetic of :mod:`bb_edge.tflite.arith` (ADD, SUB, MUL, MAXIMUM, MINIMUM with broadcast, MEAN,
SUM, LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU, PRELU, RELU, RELU6, RELU_N1_TO_1, RESIZE_BILINEAR), the data-movement
ops of :mod:`bb_edge.tflite.moves` (TRANSPOSE, CONCATENATION, PAD, PADV2, STRIDED_SLICE, GATHER, SPLIT, PACK,
UNPACK, RESIZE_NEAREST_NEIGHBOR) and MAX_POOL_2D, TRANSPOSE_CONV and BATCH_MATMUL (:mod:`bb_edge.tflite.convs`),
SVDF (:mod:`bb_edge.tflite.svdf`), UNIDIRECTIONAL_SEQUENCE_LSTM (:mod:`bb_edge.tflite.lstm`).
Anything else, float ops and int16 activations (16x8) included, is a :class:`TfliteUnsupportedError`
naming the op: the int8 lowering has no exact kernel for it.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from bb_edge.tflite.arith import ARITH, ARITH_HANDLERS
from bb_edge.tflite.convs import CONV_HANDLERS, CONVS
from bb_edge.tflite.errors import TfliteError, TfliteFormatError, TfliteQuantError, TfliteUnsupportedError
from bb_edge.tflite.lstm import LSTM_HANDLERS, STATE_INPUTS
from bb_edge.tflite.moves import MOVE_HANDLERS, MOVES
from bb_edge.tflite.reader import TflGraph, TflOp, TflTensor, read_tflite
from bb_edge.tflite.svdf import DOMAIN, STATE_INPUT, SVDF_HANDLERS

OPSET = 17
#: TFLite ops this module translates (docs/bbrt.md, "Compiling a .tflite")
SUPPORTED = ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "AVERAGE_POOL_2D", "SOFTMAX", "RESHAPE",
             "SQUEEZE", "EXPAND_DIMS", "QUANTIZE", "DEQUANTIZE", *ARITH, *MOVES, *CONVS, "SVDF",
             "UNIDIRECTIONAL_SEQUENCE_LSTM")
VIEWS = ("RESHAPE", "SQUEEZE", "EXPAND_DIMS")
ACT_NONE, ACT_RELU, ACT_RELU_N1_TO_1, ACT_RELU6 = 0, 1, 2, 3
ACT_NAMES = {0: "NONE", 1: "RELU", 2: "RELU_N1_TO_1", 3: "RELU6", 4: "TANH", 5: "SIGN_BIT"}
SAME, VALID = 0, 1
TO_NCHW, TO_NHWC = [0, 3, 1, 2], [0, 2, 3, 1]


def pure_view(shape: tuple[int, ...], perm: list[int]) -> bool:
    """True when transposing ``shape`` by ``perm`` moves no element (the non-1 axes keep their order)."""
    kept = [p for p in perm if shape[p] != 1]
    return kept == sorted(kept)


def same_padding(size: int, k: int, stride: int, dil: int) -> tuple[int, int]:
    """TFLite's SAME padding (ComputePaddingHeightWidth): (before, after), the odd pixel after."""
    out = (size + stride - 1) // stride
    eff = (k - 1) * dil + 1
    total = max((out - 1) * stride + eff - size, 0)
    return total // 2, total - total // 2


class _Builder:
    """The ONNX graph under construction, and which ONNX value holds each TFLite tensor."""

    def __init__(self, g: TflGraph) -> None:
        self.g = g
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.used: set[str] = set()
        self.names = {}
        for t in g.tensors:
            n = t.name if t.name not in self.used else f"{t.name}__{t.index}"
            self.used.add(n)
            self.names[t.index] = n
        self.value: dict[int, str] = {}  # tensor index -> the ONNX value (NCHW when 4-D)
        self.dq: dict[int, str] = {}  # tensor index -> its DequantizeLinear output
        self.value_info: list[onnx.ValueInfoProto] = []  # outputs of the translator's own ops (no ONNX inference)

    def fresh(self, base: str) -> str:
        n, k = base, 0
        while n in self.used:
            k += 1
            n = f"{base}_{k}"
        self.used.add(n)
        return n

    def init(self, base: str, arr: np.ndarray) -> str:
        name = self.fresh(base)
        self.inits.append(numpy_helper.from_array(np.array(arr, order="C"), name))  # keeps 0-d scalars 0-d
        return name

    def node(self, op: str, ins: list[str], base: str, **attrs: Any) -> str:
        out = self.fresh(base)
        self.nodes.append(helper.make_node(op, ins, [out], name=self.fresh(f"{base}_{op}"), **attrs))
        return out

    def qparams(self, t: TflTensor, op: TflOp) -> tuple[float, int]:
        """(scale, zero point) of an int8 activation; TfliteQuantError when missing or per channel."""
        if t.quant is None:
            raise TfliteQuantError(t.name, f"{t.dtype} tensor of op {op.index} ({op.op}) has no quantization "
                                   f"parameters")
        if not t.quant.per_tensor:
            raise TfliteQuantError(t.name, f"activation of op {op.index} ({op.op}) quantized per channel "
                                   f"({t.quant.scale.size} scales): activations take one scale")
        return float(t.quant.scale[0]), int(t.quant.zero_point[0])

    def scale_zp(self, base: str, s: float, z: int, dtype: type = np.int8) -> tuple[str, str]:
        return self.init(f"{base}_scale", np.array(s, np.float32)), self.init(f"{base}_zp", np.array(z, dtype))

    def act_in(self, i: int, op: TflOp) -> str:
        """The float (dequantized) value of int8 activation ``i``."""
        t = self.g.tensors[i]
        self.int8(t, op)
        if t.data is not None:
            raise TfliteUnsupportedError(op.op, op.index, f"input {t.name!r} is a constant; bb-edge translates "
                                         f"this op between activations only")
        if i not in self.dq:
            s, z = self.qparams(t, op)
            self.dq[i] = self.node("DequantizeLinear", [self.value[i], *self.scale_zp(self.names[i], s, z)],
                                   f"{self.names[i]}_dq")
        return self.dq[i]

    def int8(self, t: TflTensor, op: TflOp) -> None:
        if t.dtype == "INT16":
            raise TfliteUnsupportedError(op.op, op.index, f"tensor {t.name!r} is int16 (16x8 quantization): "
                                         f"bbrt's lowering keeps int8 activations only")
        if t.dtype != "INT8":
            raise TfliteUnsupportedError(op.op, op.index, f"tensor {t.name!r} is {t.dtype}: bb-edge compiles "
                                         f"int8 .tflite models (for a float model give ONNX)")

    def quantize_out(self, f: str, i: int, op: TflOp, act: int) -> None:
        """[fused activation ->] QuantizeLinear to int8 tensor ``i`` (its ONNX value NCHW when 4-D)."""
        t = self.g.tensors[i]
        self.int8(t, op)
        s, z = self.qparams(t, op)
        base = self.names[i]
        if act == ACT_RELU:
            f = self.node("Relu", [f], f"{base}_relu")
        elif act in (ACT_RELU_N1_TO_1, ACT_RELU6):
            lo, hi = (-1.0, 1.0) if act == ACT_RELU_N1_TO_1 else (0.0, 6.0)
            f = self.node("Clip", [f, self.init(f"{base}_min", np.array(lo, np.float32)),
                                   self.init(f"{base}_max", np.array(hi, np.float32))], f"{base}_clip")
        elif act != ACT_NONE:
            raise TfliteUnsupportedError(op.op, op.index, f"fused activation {ACT_NAMES.get(act, act)}")
        self.value[i] = self.node("QuantizeLinear", [f, *self.scale_zp(base, s, z)], f"{base}_q")

    def view(self, src: str, shape_in: tuple[int, ...], shape_out: tuple[int, ...], base: str) -> str:
        """Reshape an int8 ONNX value (NCHW when 4-D) from TFLite shape ``shape_in`` to ``shape_out``."""
        nchw = (lambda s: (s[0], s[3], s[1], s[2]))  # noqa: E731 - a shape's NCHW form
        a, b = len(shape_in) == 4, len(shape_out) == 4
        if a and not pure_view(nchw(shape_in), TO_NHWC):  # the value is NCHW: does going NHWC move bytes?
            src = self.node("Transpose", [src], f"{base}_nhwc", perm=TO_NHWC)
            a = False
        target = nchw(shape_out) if b and pure_view(shape_out, TO_NCHW) else shape_out
        if (nchw(shape_in) if a else shape_in) != target:
            src = self.node("Reshape", [src, self.init(f"{base}_shape", np.array(target, np.int64))],
                            f"{base}_reshape")
        if b and target == shape_out and shape_out != nchw(shape_out):
            src = self.node("Transpose", [src], f"{base}_nchw", perm=TO_NCHW)
        return src

    def weights(self, t: TflTensor, op: TflOp, axis_tfl: int, arr: np.ndarray, axis_onnx: int) -> str:
        """DequantizeLinear of int8 weights ``arr`` (already in ONNX layout), per tensor or per channel."""
        if t.data is None or t.dtype != "INT8":
            raise TfliteUnsupportedError(op.op, op.index, f"weights {t.name!r} must be constant int8 "
                                         f"({t.dtype}{', not constant' if t.data is None else ''})")
        if t.quant is None:
            raise TfliteQuantError(t.name, f"int8 weights of op {op.index} ({op.op}) have no quantization parameters")
        q = t.quant
        if np.any(q.zero_point != 0):
            raise TfliteQuantError(t.name, f"int8 weights of op {op.index} ({op.op}) with zero point "
                                   f"{np.unique(q.zero_point)[:4].tolist()}: TFLite's int8 weights are symmetric")
        if q.per_tensor:
            s, z = np.array(q.scale[0], np.float32), np.array(0, np.int8)
            return self.node("DequantizeLinear", [self.init(t.name, arr), self.init(f"{t.name}_scale", s),
                                                  self.init(f"{t.name}_zp", z)], f"{t.name}_dq")
        if q.axis != axis_tfl:
            raise TfliteQuantError(t.name, f"weights of op {op.index} ({op.op}) quantized along dimension {q.axis}, "
                                   f"not the output channels ({axis_tfl})")
        return self.node("DequantizeLinear", [self.init(t.name, arr), self.init(f"{t.name}_scale", q.scale),
                                              self.init(f"{t.name}_zp", np.zeros(q.scale.size, np.int8))],
                         f"{t.name}_dq", axis=axis_onnx)

    def bias(self, i: int, op: TflOp, sx: float, ws: np.ndarray, n: int) -> str | None:
        if i < 0:
            return None
        t = self.g.tensors[i]
        if t.data is None or t.dtype != "INT32" or t.data.size != n:
            raise TfliteUnsupportedError(op.op, op.index, f"bias {t.name!r} must be {n} constant int32 values "
                                         f"({t.dtype}{', not constant' if t.data is None else ''})")
        if t.quant is not None and np.any(t.quant.zero_point != 0):
            raise TfliteQuantError(t.name, f"int32 bias of op {op.index} ({op.op}) with a nonzero zero point")
        scale = (np.float64(sx) * ws.astype(np.float64)).astype(np.float32)
        scale = np.broadcast_to(scale, (n,)).copy()
        return self.node("DequantizeLinear", [self.init(t.name, t.data.reshape(n).astype(np.int32)),
                                              self.init(f"{t.name}_scale", scale),
                                              self.init(f"{t.name}_zp", np.zeros(n, np.int32))],
                         f"{t.name}_dq", axis=0)


def _w_scales(t: TflTensor, n: int) -> np.ndarray:
    q = t.quant
    assert q is not None  # checked by _Builder.weights first
    return np.broadcast_to(q.scale.astype(np.float32), (n,)) if q.per_tensor else q.scale.astype(np.float32)


def _conv(b: _Builder, op: TflOp) -> None:
    g, o = b.g, op.options
    if len(op.inputs) < 2 or len(op.outputs) != 1:
        raise TfliteFormatError(f"operator {op.index} ({op.op}): {len(op.inputs)} inputs and {len(op.outputs)} "
                                f"outputs")
    xt, wt = g.tensors[op.inputs[0]], g.tensors[op.inputs[1]]
    if len(xt.shape) != 4 or len(wt.shape) != 4:
        raise TfliteUnsupportedError(op.op, op.index, f"input shape {list(xt.shape)}, weights {list(wt.shape)}: "
                                     f"4-D NHWC only")
    x = b.act_in(op.inputs[0], op)
    sx, _ = b.qparams(xt, op)
    cin = xt.shape[3]
    dw = op.op == "DEPTHWISE_CONV_2D"
    if wt.data is None:
        raise TfliteUnsupportedError(op.op, op.index, f"weights {wt.name!r} are not constant")
    if dw:  # [1, KH, KW, C*M] -> [C*M, 1, KH, KW], one group per input channel
        n_out, kh, kw = wt.shape[3], wt.shape[1], wt.shape[2]
        if wt.shape[0] != 1 or n_out % max(cin, 1):
            raise TfliteUnsupportedError(op.op, op.index, f"depthwise weights {list(wt.shape)} for {cin} channels")
        w = b.weights(wt, op, 3, wt.data.transpose(3, 0, 1, 2), 0)
        group = cin
    else:  # [O, KH, KW, I] -> [O, I, KH, KW]; grouped when I divides the input channels
        n_out, kh, kw = wt.shape[0], wt.shape[1], wt.shape[2]
        if wt.shape[3] == 0 or cin % wt.shape[3]:
            raise TfliteUnsupportedError(op.op, op.index, f"weights {list(wt.shape)} for {cin} input channels")
        w = b.weights(wt, op, 0, wt.data.transpose(0, 3, 1, 2), 0)
        group = cin // wt.shape[3]
    sh, sw = int(o.get("stride_h", 1)), int(o.get("stride_w", 1))
    dh, dwf = int(o.get("dilation_h_factor", 1)), int(o.get("dilation_w_factor", 1))
    if min(sh, sw, dh, dwf) < 1:
        raise TfliteFormatError(f"operator {op.index} ({op.op}): strides {sh},{sw} and dilations {dh},{dwf} "
                                f"must be positive")
    pads = [0, 0, 0, 0]
    if int(o.get("padding", SAME)) == SAME:
        pt, pb = same_padding(xt.shape[1], kh, sh, dh)
        pl, pr = same_padding(xt.shape[2], kw, sw, dwf)
        pads = [pt, pl, pb, pr]
    ins = [x, w]
    bn = b.bias(op.inputs[2] if len(op.inputs) > 2 else -1, op, sx, _w_scales(wt, n_out), n_out)
    if bn:
        ins.append(bn)
    f = b.node("Conv", ins, f"{b.names[op.outputs[0]]}_conv", kernel_shape=[kh, kw], strides=[sh, sw],
               dilations=[dh, dwf], pads=pads, group=group)
    b.quantize_out(f, op.outputs[0], op, int(o.get("fused_activation_function", 0)))


def _fully_connected(b: _Builder, op: TflOp) -> None:
    g, o = b.g, op.options
    if int(o.get("weights_format", 0)) != 0 or o.get("asymmetric_quantize_inputs"):
        raise TfliteUnsupportedError(op.op, op.index, "shuffled weights or hybrid (float input) quantization")
    xt, wt = g.tensors[op.inputs[0]], g.tensors[op.inputs[1]]
    if len(wt.shape) != 2 or wt.data is None:
        raise TfliteUnsupportedError(op.op, op.index, f"weights {wt.name!r} must be constant [N, K]")
    n, k = wt.shape
    b.int8(xt, op)
    if k == 0 or math.prod(xt.shape) % k:
        raise TfliteUnsupportedError(op.op, op.index, f"input {list(xt.shape)} does not flatten to [-1, {k}]")
    flat = (math.prod(xt.shape) // k, k)
    if xt.shape != flat:  # TFLite flattens the input to [batch, K] in its own (NHWC) order
        v = b.view(b.value[op.inputs[0]], xt.shape, flat, f"{b.names[op.inputs[0]]}_flat")
        s, z = b.qparams(xt, op)
        x = b.node("DequantizeLinear", [v, *b.scale_zp(f"{b.names[op.inputs[0]]}_flat", s, z)], f"{v}_dq")
    else:
        x = b.act_in(op.inputs[0], op)
    sx, _ = b.qparams(xt, op)
    w = b.weights(wt, op, 0, np.ascontiguousarray(wt.data.T), 1)  # MatMul's [K, N]: output channels on axis 1
    f = b.node("MatMul", [x, w], f"{b.names[op.outputs[0]]}_matmul")
    bn = b.bias(op.inputs[2] if len(op.inputs) > 2 else -1, op, sx, _w_scales(wt, n), n)
    if bn:
        f = b.node("Add", [f, bn], f"{b.names[op.outputs[0]]}_bias")
    yt = g.tensors[op.outputs[0]]
    if yt.shape == (flat[0], n):
        b.quantize_out(f, op.outputs[0], op, int(o.get("fused_activation_function", 0)))
        return
    if math.prod(yt.shape) != flat[0] * n:
        raise TfliteFormatError(f"operator {op.index} (FULLY_CONNECTED): output shape {list(yt.shape)} for "
                                f"{flat[0]}x{n} values")
    b.quantize_out(f, op.outputs[0], op, int(o.get("fused_activation_function", 0)))  # keep_num_dims: view after
    b.value[op.outputs[0]] = b.view(b.value[op.outputs[0]], (flat[0], n), yt.shape, f"{b.names[op.outputs[0]]}_keep")


def _avgpool(b: _Builder, op: TflOp) -> None:
    xt, o = b.g.tensors[op.inputs[0]], op.options
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
    f = b.node("AveragePool", [b.act_in(op.inputs[0], op)], f"{b.names[op.outputs[0]]}_avgpool",
               kernel_shape=[kh, kw], strides=[sh, sw], pads=pads, count_include_pad=0)
    b.quantize_out(f, op.outputs[0], op, int(o.get("fused_activation_function", 0)))


def _softmax(b: _Builder, op: TflOp) -> None:
    xt = b.g.tensors[op.inputs[0]]
    beta = float(op.options.get("beta", 1.0)) if op.options else 1.0
    if beta != 1.0:
        raise TfliteUnsupportedError(op.op, op.index, f"beta {beta}: bbrt's int8 softmax takes beta 1")
    if len(xt.shape) == 4 and not pure_view(xt.shape, TO_NCHW):
        raise TfliteUnsupportedError(op.op, op.index, f"softmax over the channels of a 4-D tensor "
                                     f"{list(xt.shape)}")
    f = b.node("Softmax", [b.act_in(op.inputs[0], op)], f"{b.names[op.outputs[0]]}_softmax", axis=-1)
    b.quantize_out(f, op.outputs[0], op, ACT_NONE)


def _view(b: _Builder, op: TflOp) -> None:
    xt, yt = b.g.tensors[op.inputs[0]], b.g.tensors[op.outputs[0]]
    b.int8(xt, op)
    b.int8(yt, op)
    if math.prod(xt.shape) != math.prod(yt.shape):
        raise TfliteFormatError(f"operator {op.index} ({op.op}): {list(xt.shape)} cannot be reshaped to "
                                f"{list(yt.shape)}")
    if b.qparams(xt, op) != b.qparams(yt, op):
        raise TfliteUnsupportedError(op.op, op.index, "a reshape that requantizes (input and output parameters "
                                     "differ)")
    b.value[op.outputs[0]] = b.view(b.value[op.inputs[0]], xt.shape, yt.shape, b.names[op.outputs[0]])


def _quantize(b: _Builder, op: TflOp) -> None:
    xt = b.g.tensors[op.inputs[0]]
    if xt.dtype == "FLOAT32":
        if op.inputs[0] not in b.g.inputs:
            raise TfliteUnsupportedError(op.op, op.index, "quantizes a float tensor inside the model (only a "
                                         "float graph input is quantized, at the wire)")
        b.quantize_out(b.value[op.inputs[0]], op.outputs[0], op, ACT_NONE)
        return
    b.quantize_out(b.act_in(op.inputs[0], op), op.outputs[0], op, ACT_NONE)  # int8 -> int8 requantization


def _dequantize(b: _Builder, op: TflOp) -> None:
    yt = b.g.tensors[op.outputs[0]]
    if yt.dtype != "FLOAT32" or op.outputs[0] not in b.g.outputs:
        raise TfliteUnsupportedError(op.op, op.index, "dequantizes into the model (only a float graph output is "
                                     "dequantized, at the wire)")
    b.value[op.outputs[0]] = b.act_in(op.inputs[0], op)


HANDLERS = {"CONV_2D": _conv, "DEPTHWISE_CONV_2D": _conv, "FULLY_CONNECTED": _fully_connected,
            "AVERAGE_POOL_2D": _avgpool, "SOFTMAX": _softmax, "RESHAPE": _view, "SQUEEZE": _view,
            "EXPAND_DIMS": _view, "QUANTIZE": _quantize, "DEQUANTIZE": _dequantize, **MOVE_HANDLERS,
            **ARITH_HANDLERS, **CONV_HANDLERS, **SVDF_HANDLERS, **LSTM_HANDLERS}
#: input positions that are an op's own state (TFLite variables the op reads and writes), not graph values
OWN_STATE = {"SVDF": (STATE_INPUT,), "UNIDIRECTIONAL_SEQUENCE_LSTM": STATE_INPUTS}
MULTI_OUTPUT = ("SPLIT", "UNPACK")


def _value_info(name: str, dtype: str, shape: tuple[int, ...]) -> onnx.ValueInfoProto:
    elem = {"INT8": TensorProto.INT8, "FLOAT32": TensorProto.FLOAT}.get(dtype)
    if elem is None:
        raise TfliteUnsupportedError("graph input/output", -1, f"{name!r} is {dtype}: int8 or float32 only")
    return helper.make_tensor_value_info(name, elem, list(shape))


def graph_to_onnx(g: TflGraph, name: str = "model", nchw_outputs: bool = False) -> onnx.ModelProto:
    """The ONNX QDQ model of a checked subgraph; TfliteUnsupportedError for an op outside :data:`SUPPORTED`.

    A 4-D int8 graph output is transposed back to TFLite's NHWC, a Transpose the int8 lowering has no
    kernel for yet unless it moves no element; ``nchw_outputs`` leaves such outputs NCHW (the per-op tests
    transpose the oracle instead).
    """
    for op in g.ops:  # refuse before translating: the first op outside the table, by name
        if op.op == "CUSTOM":
            raise TfliteUnsupportedError(f"CUSTOM {op.custom!r}", op.index, "a custom op has no kernel outside "
                                         "the application that registered it")
        if op.op not in HANDLERS:
            raise TfliteUnsupportedError(op.op, op.index, f"no exact int8 translation (bb-edge translates "
                                         f"{', '.join(SUPPORTED)})")
        for pos, i in enumerate((*op.inputs, *op.outputs)):
            if pos in OWN_STATE.get(op.op, ()):
                continue  # its int16 state (the op's own: bb_edge/tflite/svdf.py, bb_edge/tflite/lstm.py)
            if i >= 0 and g.tensors[i].dtype == "INT16" and g.tensors[i].data is None:
                raise TfliteUnsupportedError(op.op, op.index, f"tensor {g.tensors[i].name!r} is int16 (16x8 "
                                             f"quantization): bbrt's lowering keeps int8 activations only")
        n_out_ok = len(op.outputs) >= 1 if op.op in MULTI_OUTPUT else len(op.outputs) == 1
        if not op.inputs or op.inputs[0] < 0 or not n_out_ok or min(op.outputs) < 0:
            raise TfliteFormatError(f"operator {op.index} ({op.op}): {len(op.inputs)} inputs and {len(op.outputs)} "
                                    f"outputs")
    b = _Builder(g)
    inputs = []
    for i in g.inputs:
        t = g.tensors[i]
        inputs.append(_value_info(b.names[i], t.dtype, t.shape))
        b.value[i] = b.names[i]
        if len(t.shape) == 4:  # NHWC at the wire, NCHW inside
            b.value[i] = _to_nchw(b, b.names[i], t.shape)
    for op in g.ops:
        if op.inputs[0] not in b.value and g.tensors[op.inputs[0]].data is None:
            raise TfliteFormatError(f"operator {op.index} ({op.op}): input {g.tensors[op.inputs[0]].name!r} is read "
                                    f"before any op writes it (ops must be in execution order)")
        for pos, i in enumerate(op.inputs[1:], 1):
            if pos in OWN_STATE.get(op.op, ()):
                continue
            if i >= 0 and g.tensors[i].data is None and i not in b.value:
                t = g.tensors[i]
                raise TfliteFormatError(f"operator {op.index} ({op.op}): input {t.name!r} is read before any op "
                                        f"writes it")
        try:
            HANDLERS[op.op](b, op)
        except TfliteError:
            raise
        except (ValueError, IndexError, KeyError, TypeError, OverflowError) as exc:  # shapes that disagree
            raise TfliteFormatError(f"operator {op.index} ({op.op}): its tensors' shapes or types disagree "
                                    f"({type(exc).__name__}: {str(exc)[:80]})") from exc
    outputs = []
    for i in g.outputs:
        t = g.tensors[i]
        if i not in b.value:
            raise TfliteFormatError(f"graph output {t.name!r} is written by no op")
        v = b.value[i]
        shape = t.shape
        if len(t.shape) == 4 and t.dtype == "INT8":
            if nchw_outputs:
                shape = (t.shape[0], t.shape[3], t.shape[1], t.shape[2])
            else:
                v = _to_nhwc(b, v, t.shape)
        if v != b.names[i]:
            b.nodes.append(helper.make_node("Identity", [v], [b.names[i]], name=b.fresh(f"{b.names[i]}_out")))
        outputs.append(_value_info(b.names[i], t.dtype, shape))
    graph = helper.make_graph(b.nodes, name, inputs, outputs, b.inits, value_info=b.value_info)
    for i in g.inputs:  # an int8 input's parameters, also when no DequantizeLinear reads it (data movement only)
        t = g.tensors[i]
        if t.dtype == "INT8" and t.quant is not None and t.quant.per_tensor:
            sn, zn = b.scale_zp(f"{b.names[i]}_in", float(t.quant.scale[0]), int(t.quant.zero_point[0]))
            graph.initializer.extend(b.inits[-2:])
            ann = graph.quantization_annotation.add()
            ann.tensor_name = b.names[i]
            for k, v in (("SCALE_TENSOR", sn), ("ZERO_POINT_TENSOR", zn)):
                e = ann.quant_parameter_tensor_names.add()
                e.key, e.value = k, v
    opsets = [helper.make_opsetid("", OPSET)] + ([helper.make_opsetid(DOMAIN, 1)] if b.value_info else [])
    model = helper.make_model(graph, opset_imports=opsets, producer_name="bb-edge",
                              producer_version="tflite")
    model.ir_version = 8
    return model


def _to_nchw(b: _Builder, v: str, shape: tuple[int, ...]) -> str:
    nchw = (shape[0], shape[3], shape[1], shape[2])
    if pure_view(shape, TO_NCHW):
        return v if nchw == shape else b.node("Reshape", [v, b.init(f"{v}_nchw_shape", np.array(nchw, np.int64))],
                                              f"{v}_nchw")
    return b.node("Transpose", [v], f"{v}_nchw", perm=TO_NCHW)


def _to_nhwc(b: _Builder, v: str, shape: tuple[int, ...]) -> str:
    nchw = (shape[0], shape[3], shape[1], shape[2])
    if pure_view(nchw, TO_NHWC):
        return v if nchw == shape else b.node("Reshape", [v, b.init(f"{v}_nhwc_shape", np.array(shape, np.int64))],
                                              f"{v}_nhwc")
    return b.node("Transpose", [v], f"{v}_nhwc", perm=TO_NHWC)


def tflite_to_onnx(data: bytes, name: str = "model", subgraph: int = 0, nchw_outputs: bool = False) -> onnx.ModelProto:
    """Read a .tflite file's bytes and translate subgraph ``subgraph`` to ONNX QDQ (typed errors only)."""
    return graph_to_onnx(read_tflite(data, subgraph), name, nchw_outputs)


def load_tflite(path: str | Path, subgraph: int = 0) -> onnx.ModelProto:
    """``bb-edge compile MODEL.tflite``: the file as an ONNX QDQ model named after the file."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise TfliteError(f"{p}: cannot read ({exc.strerror or exc})") from exc
    try:
        return tflite_to_onnx(data, "".join(c if c.isalnum() or c in "-_" else "_" for c in p.stem) or "model",
                              subgraph)
    except TfliteError as exc:
        exc.args = (f"{p.name}: {exc}",)
        raise
