"""The TFLite translator's ``Lstm`` (:mod:`bb_edge.tflite.lstm`) -> LSTM_I8, TFLite's integer LSTM (8x8->16).

The translator has stacked the gates' weights and folded the zero points into TFLite's effective biases;
this lowering derives the multipliers from the node's scales as TFLite's ``PopulateQuantizedLstmParams8x8_16``
does (float32 products and quotients, then QuantizeMultiplier) into the int32 parameter vector Q
(:func:`lstm_q`), keeps everything as program constants and gives the op its int16 scratch (cell state,
four gates, the int8 hidden state) as a second arena output, planned like any tensor: it lives for the one op.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx

from bb_edge.bbrt.format import DT_INT8, DT_INT16, DT_INT32, STORE_ARENA, Op, Tensor
from bb_edge.bbrt.lower_qdq_move import MoveCtx, tflite_operands
from bb_edge.bbrt.quant import quantize_multiplier

#: LSTM_I8's parameter vector Q (firmware/src/bbrt_kernels.c): 8 gate multipliers, then these
Q_HIDDEN, Q_HZP, Q_CELL, Q_CLIP, Q_TIME_MAJOR, Q_HZERO, Q_LEN = 16, 18, 19, 20, 21, 22, 23
GATE_SCALE = np.float32(2.0**-12)  # Q3.12: the gates without layer norm (TFLite's intermediate_scale 0-3)


def lstm_q(a: dict[str, Any]) -> np.ndarray:
    """Q from the ``Lstm`` node's attributes, TFLite's arithmetic: w s_x / 2^-12 and w s_h / 2^-12 in float32,
    the hidden multiplier 2^-15 / s_hidden * 2^-15 in double then float32."""
    f32 = np.float32
    q = np.zeros(Q_LEN, np.int64)
    for k in range(4):
        q[2 * k: 2 * k + 2] = quantize_multiplier(float(f32(f32(a["wx_scales"][k]) * f32(a["x_scale"])) / GATE_SCALE))
        q[8 + 2 * k: 10 + 2 * k] = quantize_multiplier(float(f32(f32(a["wh_scales"][k]) * f32(a["h_scale"]))
                                                             / GATE_SCALE))
    q[Q_HIDDEN: Q_HIDDEN + 2] = quantize_multiplier(float(f32(2.0**-15 / float(f32(a["hidden_scale"])) * 2.0**-15)))
    q[Q_HZP] = int(a["hidden_zero_point"])
    q[Q_CELL] = int(a["cell_log2"])
    q[Q_CLIP] = int(a["cell_clip"])
    q[Q_TIME_MAJOR] = int(a["time_major"])
    q[Q_HZERO] = int(a["h_zero_point"])
    return q.astype(np.int32)


def scratch_values(batch: int, cells: int) -> int:
    """int16 values of LSTM_I8's scratch: cell state and four gates [B, C] each, then the int8 hidden state."""
    return 5 * batch * cells + (batch * cells + 1) // 2


def lower_lstm(c: MoveCtx, node: onnx.NodeProto) -> None:
    """``Lstm`` -> one LSTM_I8 op (inputs X, Wx, Wh, bias, Q; outputs Y and the scratch)."""
    a, x, (wx, wh, bias) = tflite_operands(c, node, "weights and biases")
    q = lstm_q(a)
    xs = tuple(int(d) for d in c.B.tensors[c.qidx[x]].shape)
    if wx.dtype != np.int8 or wh.dtype != np.int8 or bias.dtype != np.int32:
        raise c.refuse(node, "Wx, Wh int8 and bias int32")
    n_cell = wx.shape[1] if wx.ndim == 3 else -1
    if (len(xs) != 3 or wx.shape != (4, n_cell, xs[2]) or wh.shape != (4, n_cell, n_cell)
            or bias.shape != (2, 4, n_cell)):
        raise c.refuse(node, f"input {list(xs)}, Wx {list(wx.shape)}, Wh {list(wh.shape)}, bias {list(bias.shape)}")
    batch = xs[1] if int(q[Q_TIME_MAJOR]) else xs[0]
    name = node.name
    ins = [c.qidx[x], c.B.const(f"{name}__wx", np.ascontiguousarray(wx), DT_INT8, 1.0),
           c.B.const(f"{name}__wh", np.ascontiguousarray(wh), DT_INT8, 1.0),
           c.B.const(f"{name}__bias", np.ascontiguousarray(bias), DT_INT32),
           c.B.const(f"{name}__q", np.ascontiguousarray(q), DT_INT32)]
    s = c.B.add(Tensor(f"{name}__scratch", DT_INT16, (scratch_values(batch, n_cell),), STORE_ARENA, scale=1.0,
                       zero_point=0))
    y = c.new_q(node.output[0], float(a["y_scale"]), int(a["y_zero_point"]), (xs[0], xs[1], n_cell))
    c.B.op(Op.LSTM_I8, ins, [y, s], [], name)
