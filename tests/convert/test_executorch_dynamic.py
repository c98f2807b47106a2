"""Ops with a data-dependent output shape through ExecuTorch (issue 26): one .pte per model, run on inputs
whose output counts differ (none, some, all), each compared with ONNX Runtime on the same model."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

from bb_edge.backends.executorch import PteSegment
from bb_edge.convert.onnx_torch import ProgramIO
from bb_edge.convert.pte import export_pte


def _model(node: onnx.NodeProto, x: tuple[int, list[int]], outs: dict[str, int]) -> onnx.ModelProto:
    g = helper.make_graph([node], "dyn", [helper.make_tensor_value_info("x", x[0], x[1])],
                          [helper.make_tensor_value_info(o, t, None) for o, t in outs.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def _unique_outs(values: int) -> dict[str, int]:
    return {"y": values, "idx": TensorProto.INT64, "inv": TensorProto.INT64, "cnt": TensorProto.INT64}


def _check(model: onnx.ModelProto, feeds: list[np.ndarray]) -> None:
    io = ProgramIO(model)
    outs = [o.name for o in model.graph.output]
    seg = PteSegment(export_pte(model), io.inputs, outs, io)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for x in feeds:
        want = sess.run(None, {"x": x})
        got = seg.run({"x": x})
        for name, w in zip(outs, want, strict=True):
            assert got[name].shape == w.shape, (name, x, got[name].shape, w.shape)
            np.testing.assert_array_equal(got[name], w)


def test_nonzero_counts_vary_in_one_program() -> None:
    model = _model(helper.make_node("NonZero", ["x"], ["y"]), (TensorProto.FLOAT, [3, 4]), {"y": TensorProto.INT64})
    rng = np.random.default_rng(26)
    _check(model, [np.zeros((3, 4), np.float32), np.ones((3, 4), np.float32),
                   (rng.random((3, 4)) > 0.6).astype(np.float32) * 2])


def test_unique_along_an_axis_counts_vary() -> None:
    node = helper.make_node("Unique", ["x"], ["y", "idx", "inv", "cnt"], axis=1, sorted=1)
    model = _model(node, (TensorProto.FLOAT, [2, 5]), _unique_outs(TensorProto.FLOAT))
    _check(model, [np.array([[1, 1, 2, 1, 0], [3, 3, 0, 3, 1]], np.float32), np.zeros((2, 5), np.float32),
                   np.arange(10, dtype=np.float32).reshape(2, 5)[:, ::-1].copy()])


def test_unique_first_occurrence_order() -> None:
    node = helper.make_node("Unique", ["x"], ["y", "idx", "inv", "cnt"], sorted=0)
    model = _model(node, (TensorProto.INT64, [6]), _unique_outs(TensorProto.INT64))
    _check(model, [np.array([4, 2, 4, 9, 2, 1], np.int64), np.full(6, 7, np.int64)])
