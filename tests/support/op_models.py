"""Small models shared by op tests: ONNX Gather with run-time indices, an int8 TRANSPOSE_CONV .tflite."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from tests.support.tflite_build import M, O, T, act, build

ONNX_INT = {np.dtype(np.int64): TensorProto.INT64, np.dtype(np.int32): TensorProto.INT32}
I64 = np.dtype(np.int64)


def gather_model(xshape: list[int], ishape: list[int], axis: int, table: np.ndarray | None,
                 idt: np.dtype = I64) -> onnx.ModelProto:
    """y = Gather(x, ids, axis): x a float input, or the constant ``table`` (an embedding)."""
    ins = [helper.make_tensor_value_info("ids", ONNX_INT[idt], ishape)]
    if table is None:
        ins.insert(0, helper.make_tensor_value_info("x", TensorProto.FLOAT, xshape))
    g = helper.make_graph([helper.make_node("Gather", ["x", "ids"], ["y"], name="embed", axis=axis)], "m", ins,
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          [] if table is None else [numpy_helper.from_array(table, "x")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def tconv_model(hw: tuple[int, int], k: tuple[int, int], s: int, padding: int, out_hw: tuple[int, int] | None = None,
                activation: int = 0, per_channel: bool = True, bias: bool = True, cin: int = 3, cout: int = 4,
                seed: int = 0) -> bytes:
    """TRANSPOSE_CONV of an int8 NHWC input: weights [O, KH, KW, I], output_shape, an int32 bias."""
    rng = np.random.default_rng(seed)
    h, w = hw
    oh, ow = out_hw or ((h * s, w * s) if padding == 0 else ((h - 1) * s + k[0], (w - 1) * s + k[1]))
    wq = rng.integers(-127, 128, (cout, *k, cin)).astype(np.int8)
    ws = (rng.uniform(0.002, 0.01, cout) if per_channel else np.array([0.005])).astype(np.float32)
    sx = 0.05
    bs = (np.float64(sx) * np.broadcast_to(ws, (cout,))).astype(np.float32)
    tens = [T("os", (4,), "INT32", np.array([1, oh, ow, cout], np.int32)),
            T("w", wq.shape, "INT8", wq, ws.tolist(), [0] * ws.size, 0), act("x", (1, h, w, cin), sx, 3),
            T("b", (cout,), "INT32", rng.integers(-2000, 2000, cout).astype(np.int32), bs.tolist(), [0] * cout, 0),
            act("y", (1, oh, ow, cout), 0.08, -5)]
    opts = ("TransposeConvOptions", {"Padding": padding, "StrideW": s, "StrideH": s,
                                     "FusedActivationFunction": activation})
    return build(M(tens, [O("TRANSPOSE_CONV", [0, 1, 2, 3 if bias else -1], [4], opts)], [2], [4]))
