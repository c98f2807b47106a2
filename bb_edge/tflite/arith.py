"""TFLite's int8 elementwise arithmetic, activations and MEAN as ONNX QDQ groups.

Each op becomes ``DequantizeLinear -> ONNX op [-> Relu|Clip] -> QuantizeLinear`` with the tensors' own
parameters; the int8 lowering (bb_edge/bbrt/lower_qdq_arith.py) applies TFLite's reference arithmetic:

- ADD, SUB, MUL with numpy broadcasting (TFLite aligns the trailing axes: a lower-rank operand is first
  given leading 1s, then a 4-D operand goes NCHW as every 4-D value does); an operand may be a constant int8
  tensor; a fused RELU/RELU6/RELU_N1_TO_1 is the output clamp
- LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU, and RELU, RELU6, RELU_N1_TO_1 as ops of their own (a requantization
  and a clamp): one 256-byte table each
- MAXIMUM, MINIMUM with broadcast (Max/Min): TFLite compares the raw bytes, so operands and output must share
  one scale and zero point (else refused: the interpreter's answer would not be the float max)
- PRELU (PRelu): alpha a constant or an activation broadcast to the input (a per-channel slope), per-tensor
- RESIZE_BILINEAR (Resize linear: asymmetric, align_corners or half_pixel) keeping the input's parameters
- MEAN and SUM over any axes: reduced over the trailing axes of a value in TFLite's own layout (a 4-D input reduced
  over H and W reads the NCHW value directly: global average pooling), then viewed to the output's shape
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bb_edge.tflite.errors import TfliteFormatError, TfliteQuantError, TfliteUnsupportedError
from bb_edge.tflite.moves import ACT_NONE, ACT_RELU, ACT_RELU6, ACT_RELU_N1_TO_1, _const_ints, _tfl_value
from bb_edge.tflite.reader import TflOp

if TYPE_CHECKING:
    from bb_edge.tflite.to_onnx import _Builder

#: ops this module translates
ARITH = ("ADD", "SUB", "MUL", "MEAN", "SUM", "LOGISTIC", "TANH", "HARD_SWISH", "LEAKY_RELU", "RELU", "RELU6",
         "RELU_N1_TO_1", "MAXIMUM", "MINIMUM", "PRELU", "RESIZE_BILINEAR")
_UNARY = {"LOGISTIC": "Sigmoid", "TANH": "Tanh", "HARD_SWISH": "HardSwish", "LEAKY_RELU": "LeakyRelu"}
_ACT_OPS = {"RELU": ACT_RELU, "RELU6": ACT_RELU6, "RELU_N1_TO_1": ACT_RELU_N1_TO_1}


def _operand(b: _Builder, op: TflOp, i: int, rank: int) -> str:
    """The float (dequantized) value of input ``i``, given the output's rank (leading 1s, TFLite's broadcast)."""
    t = b.g.tensors[i]
    b.int8(t, op)
    s, z = b.qparams(t, op)
    shape = (1,) * (rank - len(t.shape)) + tuple(t.shape)
    if t.data is not None:  # a constant operand: an int8 initializer in the ONNX layout
        arr = np.asarray(t.data).astype(np.int8).reshape(shape)
        if rank == 4:
            arr = arr.transpose(0, 3, 1, 2)
        v = b.init(b.names[i], np.ascontiguousarray(arr))
    elif shape != tuple(t.shape):
        v = b.view(b.value[i], tuple(t.shape), shape, f"{b.names[i]}_bcast")
    else:
        return b.act_in(i, op)
    return b.node("DequantizeLinear", [v, *b.scale_zp(f"{v}_{op.index}", s, z)], f"{v}_dq")


def _binary(b: _Builder, op: TflOp) -> None:
    yt = b.g.tensors[op.outputs[0]]
    rank = len(yt.shape)
    for i in op.inputs[:2]:
        xs = b.g.tensors[i].shape
        full = (1,) * (rank - len(xs)) + tuple(xs)
        if len(xs) > rank or any(d not in (1, e) for d, e in zip(full, yt.shape, strict=True)):
            raise TfliteUnsupportedError(op.op, op.index, f"operand {list(xs)} does not broadcast to the output "
                                         f"{list(yt.shape)}")
    if len(op.inputs) < 2 or min(op.inputs[:2]) < 0:
        raise TfliteUnsupportedError(op.op, op.index, "two operands expected")
    if all(b.g.tensors[i].data is not None for i in op.inputs[:2]):
        raise TfliteUnsupportedError(op.op, op.index, "both operands are constants (fold them in the model)")
    if op.op in ("MAXIMUM", "MINIMUM"):  # raw bytes compared: one scale and zero point for all three
        ps = {b.qparams(b.g.tensors[i], op) for i in (*op.inputs[:2], op.outputs[0])}
        if len(ps) != 1:
            raise TfliteUnsupportedError(op.op, op.index, f"operands and output with different parameters "
                                         f"{sorted(ps)}: TFLite compares the int8 bytes, not the values")
    onnx_op = {"ADD": "Add", "SUB": "Sub", "MUL": "Mul", "MAXIMUM": "Max", "MINIMUM": "Min", "PRELU": "PRelu"}[op.op]
    f = b.node(onnx_op, [_operand(b, op, op.inputs[0], rank), _operand(b, op, op.inputs[1], rank)],
               f"{b.names[op.outputs[0]]}_{onnx_op.lower()}")
    b.quantize_out(f, op.outputs[0], op, int(op.options.get("fused_activation_function", 0)))


def _unary(b: _Builder, op: TflOp) -> None:
    x = b.act_in(op.inputs[0], op)
    name = b.names[op.outputs[0]]
    if op.op in _ACT_OPS:  # a requantization and a clamp (TFLite's ReluX)
        b.quantize_out(x, op.outputs[0], op, _ACT_OPS[op.op])
        return
    kw = {"alpha": float(op.options.get("alpha", 0.0))} if op.op == "LEAKY_RELU" else {}
    b.quantize_out(b.node(_UNARY[op.op], [x], f"{name}_{op.op.lower()}", **kw), op.outputs[0], op, ACT_NONE)


def _mean(b: _Builder, op: TflOp) -> None:
    xt, yt = b.g.tensors[op.inputs[0]], b.g.tensors[op.outputs[0]]
    b.int8(xt, op)
    if xt.data is not None:
        raise TfliteUnsupportedError(op.op, op.index, f"input {xt.name!r} is a constant (fold it in the model)")
    r = len(xt.shape)
    axes = sorted({int(a) + (r if a < 0 else 0) for a in _const_ints(b, op, 1, "axis")})
    if not axes or axes[0] < 0 or axes[-1] >= r:
        raise TfliteUnsupportedError(op.op, op.index, f"axes {axes} of a rank-{r} tensor")
    kept = [k for k in range(r) if k not in axes]
    kept_shape = tuple(xt.shape[k] for k in kept)
    if r == 4 and axes == [1, 2]:  # NHWC over H, W = NCHW over its trailing axes (global average pooling)
        v, red = b.value[op.inputs[0]], [2, 3]
    else:
        v = _tfl_value(b, op.inputs[0])
        if kept != list(range(len(kept))):  # the reduced axes last (an int8 transpose, exact)
            v = b.node("Transpose", [v], f"{b.names[op.inputs[0]]}_redlast", perm=kept + axes)
        red = list(range(len(kept), r))
    s, z = b.qparams(xt, op)
    x = b.node("DequantizeLinear", [v, *b.scale_zp(f"{v}_{op.index}", s, z)], f"{v}_mdq")
    if op.op == "SUM":  # opset 13+: ReduceSum takes its axes as an input
        f = b.node("ReduceSum", [x, b.init(f"{b.names[op.outputs[0]]}_axes", np.array(red, np.int64))],
                   f"{b.names[op.outputs[0]]}_sum", keepdims=0)
    else:
        f = b.node("ReduceMean", [x], f"{b.names[op.outputs[0]]}_mean", axes=red, keepdims=0)
    b.quantize_out(f, op.outputs[0], op, ACT_NONE)
    if kept_shape != tuple(yt.shape):  # keep_dims (or a 4-D output): a view of the reduced values
        out = op.outputs[0]
        b.value[out] = b.view(b.value[out], kept_shape, yt.shape, f"{b.names[out]}_keep")


def _prelu(b: _Builder, op: TflOp) -> None:
    xt, yt = b.g.tensors[op.inputs[0]], b.g.tensors[op.outputs[0]]
    if tuple(xt.shape) != tuple(yt.shape) or xt.data is not None:
        raise TfliteUnsupportedError(op.op, op.index, f"input {list(xt.shape)} (an activation) and output "
                                     f"{list(yt.shape)} must have one shape: alpha broadcasts to the input")
    _binary(b, op)


def _resize_bilinear(b: _Builder, op: TflOp) -> None:
    xt, yt, out = b.g.tensors[op.inputs[0]], b.g.tensors[op.outputs[0]], op.outputs[0]
    b.int8(xt, op)
    if len(xt.shape) != 4 or xt.data is not None:
        raise TfliteUnsupportedError(op.op, op.index, f"input shape {list(xt.shape)}: a 4-D NHWC activation only")
    if b.qparams(xt, op) != b.qparams(yt, op):
        raise TfliteQuantError(yt.name, f"op {op.index} ({op.op}) interpolates int8 bytes but its output's "
                               f"parameters differ from its input's")
    size = _const_ints(b, op, 1, "size")
    if size.shape != (2,) or tuple(int(v) for v in size) != tuple(yt.shape[1:3]) or min(size) < 1:
        raise TfliteFormatError(f"operator {op.index} ({op.op}): size {size.tolist()} for output {list(yt.shape)}")
    ac, hp = bool(op.options.get("align_corners", False)), bool(op.options.get("half_pixel_centers", False))
    if ac and hp:
        raise TfliteFormatError(f"operator {op.index} ({op.op}): align_corners and half_pixel_centers both set")
    ctm = "align_corners" if ac else "half_pixel" if hp else "asymmetric"
    sizes = np.array([yt.shape[0], yt.shape[3], yt.shape[1], yt.shape[2]], np.int64)
    f = b.node("Resize", [b.act_in(op.inputs[0], op), "", "", b.init(f"{b.names[out]}_sizes", sizes)],
               f"{b.names[out]}_bilinear", mode="linear", coordinate_transformation_mode=ctm)
    b.quantize_out(f, out, op, ACT_NONE)


ARITH_HANDLERS = {"ADD": _binary, "SUB": _binary, "MUL": _binary, "MEAN": _mean, "SUM": _mean,
                  "MAXIMUM": _binary, "MINIMUM": _binary, "PRELU": _prelu, "RESIZE_BILINEAR": _resize_bilinear,
                  **{k: _unary for k in (*_UNARY, *_ACT_OPS)}}
