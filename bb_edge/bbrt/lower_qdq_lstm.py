"""The TFLite translator's ``Lstm`` (:mod:`bb_edge.tflite.lstm`) -> LSTM_I8, TFLite's integer LSTM (8x8->16).

The translator has already derived TFLite's integer parameters (multipliers, effective biases, the cell
scale's exponent) into the node's initializers; this lowering checks their shapes, keeps them as program
constants and gives the op its int16 scratch (cell state, four gates, the int8 hidden state) as a second
arena output, planned like any tensor: it lives for the one op.
"""

from __future__ import annotations

import numpy as np
import onnx

from bb_edge.bbrt.format import DT_INT8, DT_INT16, DT_INT32, STORE_ARENA, Op, Tensor
from bb_edge.bbrt.lower_qdq_move import MoveCtx

#: length of the translator's integer parameter vector (bb_edge/tflite/lstm.py Q_LEN)
Q_LEN = 23


def scratch_values(batch: int, cells: int) -> int:
    """int16 values of LSTM_I8's scratch: cell state and four gates [B, C] each, then the int8 hidden state."""
    return 5 * batch * cells + (batch * cells + 1) // 2


def lower_lstm(c: MoveCtx, node: onnx.NodeProto) -> None:
    """``Lstm`` -> one LSTM_I8 op (inputs X, Wx, Wh, bias, q; outputs Y and the scratch)."""
    a = {x.name: onnx.helper.get_attribute_value(x) for x in node.attribute}
    x = node.input[0]
    if x not in c.qidx:
        raise c.refuse(node, f"input {x!r} is not an int8 tensor of the program")
    f32 = np.float32
    if c.L.qparams[x] != (float(f32(a["x_scale"])), int(a["x_zero_point"])):
        raise c.refuse(node, f"{x!r} has parameters {c.L.qparams[x]}, the node says "
                       f"{(a['x_scale'], a['x_zero_point'])}")
    try:
        wx, wh, bias, q = (np.asarray(c.init[n]) for n in node.input[1:5])
    except KeyError as e:
        raise c.refuse(node, f"weights, biases and parameters must be constants ({e})") from e
    xs = tuple(int(d) for d in c.B.tensors[c.qidx[x]].shape)
    if wx.dtype != np.int8 or wh.dtype != np.int8 or bias.dtype != np.int32 or q.dtype != np.int32:
        raise c.refuse(node, "Wx, Wh int8, bias and q int32")
    n_cell = wx.shape[1] if wx.ndim == 3 else -1
    if (len(xs) != 3 or wx.shape != (4, n_cell, xs[2]) or wh.shape != (4, n_cell, n_cell)
            or bias.shape != (2, 4, n_cell) or q.shape != (Q_LEN,)):
        raise c.refuse(node, f"input {list(xs)}, Wx {list(wx.shape)}, Wh {list(wh.shape)}, bias {list(bias.shape)}, "
                       f"q {list(q.shape)}")
    batch = xs[1] if int(q[21]) else xs[0]
    name = node.name
    ins = [c.qidx[x], c.B.const(f"{name}__wx", np.ascontiguousarray(wx), DT_INT8, 1.0),
           c.B.const(f"{name}__wh", np.ascontiguousarray(wh), DT_INT8, 1.0),
           c.B.const(f"{name}__bias", np.ascontiguousarray(bias), DT_INT32),
           c.B.const(f"{name}__q", np.ascontiguousarray(q), DT_INT32)]
    s = c.B.add(Tensor(f"{name}__scratch", DT_INT16, (scratch_values(batch, n_cell),), STORE_ARENA, scale=1.0,
                       zero_point=0))
    y = c.new_q(node.output[0], float(a["y_scale"]), int(a["y_zero_point"]), (xs[0], xs[1], n_cell))
    c.B.op(Op.LSTM_I8, ins, [y, s], [], name)
