"""The ONNX -> torch converter (the ExecuTorch path's front end), op by op against ONNX Runtime (issue 26).

Each case is a one- or two-op ONNX model; the oracle is an ONNX Runtime session on the same model.
Conversion runs eagerly in torch (no export), so the whole table takes a second.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from bb_edge.convert.onnx_torch import SUPPORTED_OPS, to_torch, unsupported_ops
from bb_edge.errors import UnsupportedOpError

RNG = np.random.default_rng(26)
F32 = T.FLOAT


def _f(*s: int) -> np.ndarray:
    return RNG.standard_normal(s).astype(np.float32)


def _model(nodes: list[onnx.NodeProto], inputs: dict[str, np.ndarray], consts: dict[str, np.ndarray],
           outputs: list[str]) -> onnx.ModelProto:
    g = h.make_graph(nodes, "op", [h.make_tensor_value_info(k, h.np_dtype_to_tensor_dtype(v.dtype), v.shape)
                                   for k, v in inputs.items()],
                     [h.make_tensor_value_info(o, T.UNDEFINED, None) for o in outputs],
                     [nh.from_array(np.asarray(v), k) for k, v in consts.items()])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    return onnx.shape_inference.infer_shapes(m)


def _case(op: str, n_in: int = 1, consts: dict[str, np.ndarray] | None = None, shape: tuple[int, ...] = (2, 3, 4),
          outputs: int = 1, **attrs: Any) -> Callable[[], tuple[onnx.ModelProto, dict[str, np.ndarray]]]:
    def make() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
        ins = {f"x{i}": _f(*shape) for i in range(n_in)}
        names = list(ins) + list(consts or {})
        outs = [f"y{i}" for i in range(outputs)]
        return _model([h.make_node(op, names, outs, name=op.lower(), **attrs)], ins, dict(consts or {}), outs), ins
    return make


CASES = {
    "PRelu": _case("PRelu", consts={"slope": np.array([0.1, 0.2, 0.3, 0.4], np.float32)}),
    "Elu": _case("Elu", alpha=0.7),
    "HardSigmoid": _case("HardSigmoid", alpha=0.3, beta=0.4),
    "Erf": _case("Erf"),
    "Sqrt+Abs": lambda: (_model([h.make_node("Abs", ["x"], ["a"]), h.make_node("Sqrt", ["a"], ["y0"])],
                                {"x": _f(3, 4)}, {}, ["y0"]), None),
    "Pow": _case("Pow", consts={"e": np.array(2.0, np.float32)}),
    "Exp": _case("Exp"),
    "Reciprocal": _case("Reciprocal"),
    "Max": _case("Max", n_in=2),
    "Min": _case("Min", n_in=3),
    "ReduceSum": _case("ReduceSum", consts={"ax": np.array([1], np.int64)}, keepdims=0),
    "ReduceMax": _case("ReduceMax", consts={"ax": np.array([-1], np.int64)}),
    "Slice": _case("Slice", consts={"s": np.array([1, -3], np.int64), "e": np.array([3, 100], np.int64),
                                    "a": np.array([1, 2], np.int64), "st": np.array([1, 2], np.int64)}),
    "Pad": _case("Pad", consts={"p": np.array([0, 1, 2, 0, 0, 1], np.int64), "v": np.array(0.5, np.float32)}),
    "Split": _case("Split", consts={"sp": np.array([1, 3], np.int64)}, outputs=2, axis=-1),
    "Split-even": _case("Split", outputs=3, axis=1, num_outputs=3),
    "LayerNormalization": _case("LayerNormalization", consts={"g": _f(4), "b": _f(4)}, epsilon=1e-5),
    "Gather-const": lambda: (_model([h.make_node("Gather", ["x", "i"], ["y0"], axis=1)], {"x": _f(2, 5, 3)},
                                    {"i": np.array([[4, 0], [-1, 2]], np.int64)}, ["y0"]), None),
    "Gather-ids": lambda: (_model([h.make_node("Gather", ["E", "ids"], ["y0"])],
                                  {"ids": np.array([[3, 1, 4]], np.int64)}, {"E": _f(6, 4)}, ["y0"]), None),
    "Where+Equal": lambda: (_model([h.make_node("Equal", ["x", "z"], ["c"]),
                                    h.make_node("Where", ["c", "x", "w"], ["y0"])],
                                   {"x": np.array([[0.0, 1.0], [2.0, 0.0]], np.float32)},
                                   {"z": np.array(0.0, np.float32), "w": np.array(-5.0, np.float32)}, ["y0"]), None),
    "Cast": _case("Cast", to=T.INT32),
    "Expand": _case("Expand", consts={"s": np.array([2, 2, 3, 4], np.int64)}),
    "Trilu": _case("Trilu", shape=(4, 4), upper=0),
}


def _rnn_case(op: str, gates: int, **attrs: Any) -> Callable[[], tuple[onnx.ModelProto, dict[str, np.ndarray]]]:
    """A bidirectional recurrent layer with biases and initial states (as torch exports them), all outputs."""
    def make() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
        seq, batch, inp, hid = 5, 2, 3, 4
        ins = {"x": _f(seq, batch, inp), "h0": _f(2, batch, hid)}
        names = ["x", "W", "R", "B", "", "h0"]
        outs = ["y0", "y1"]
        if op == "LSTM":
            ins["c0"] = _f(2, batch, hid)
            names.append("c0")
            outs.append("y2")
        consts = {"W": _f(2, gates * hid, inp) * 0.5, "R": _f(2, gates * hid, hid) * 0.5, "B": _f(2, 2 * gates * hid)}
        node = h.make_node(op, names, outs, name=op.lower(), hidden_size=hid, direction="bidirectional", **attrs)
        return _model([node], ins, consts, outs), ins
    return make


CASES.update({
    "LSTM-bidirectional": _rnn_case("LSTM", 4),
    "GRU-bidirectional-lbr": _rnn_case("GRU", 3, linear_before_reset=1),
    "GRU-bidirectional": _rnn_case("GRU", 3),
    "RNN-bidirectional": _rnn_case("RNN", 1),
    "Resize-linear": _case("Resize", shape=(1, 2, 3, 4), consts={"roi": np.zeros(0, np.float32),
                                                                 "sc": np.array([1, 1, 2, 1.5], np.float32)},
                           mode="linear"),
    "Resize-nearest-sizes": _case("Resize", shape=(1, 2, 3, 4), consts={
        "roi": np.zeros(0, np.float32), "sc": np.zeros(0, np.float32), "sz": np.array([1, 2, 7, 5], np.int64)}),
    "ConvTranspose": _case("ConvTranspose", shape=(1, 2, 4, 5), consts={"w": _f(2, 3, 3, 3), "b": _f(3)},
                           strides=[2, 2], pads=[1, 0, 0, 1], output_padding=[1, 1]),
    "If-constant": lambda: (_model([h.make_node("If", ["c"], ["y0"], then_branch=h.make_graph(
        [h.make_node("Neg", ["x"], ["t"])], "then", [], [h.make_tensor_value_info("t", F32, None)]),
        else_branch=h.make_graph([h.make_node("Abs", ["x"], ["e"])], "else", [],
                                 [h.make_tensor_value_info("e", F32, None)]))],
        {"x": _f(2, 3)}, {"c": np.array(True)}, ["y0"]), None),
    "Shape-plumbing": lambda: (_model([
        h.make_node("Shape", ["x"], ["s"]), h.make_node("Gather", ["s", "i0"], ["n"], axis=0),
        h.make_node("Unsqueeze", ["n", "a0"], ["n1"]), h.make_node("Concat", ["n1", "m1"], ["shp"], axis=0),
        h.make_node("Reshape", ["x", "shp"], ["y0"])],
        {"x": _f(2, 3, 4)}, {"i0": np.array(0, np.int64), "a0": np.array([0], np.int64),
                             "m1": np.array([-1], np.int64)}, ["y0"]), None),
})


@pytest.mark.parametrize("name", sorted(CASES))
def test_op_matches_ort(name: str) -> None:
    model, feed = CASES[name]()
    if feed is None and name == "Shape-plumbing":
        feed = {"x": _f(2, 3, 4)}
    if feed is None:
        feed = {i.name: v for i, v in zip(model.graph.input, [
            np.array([[3, 1, 4]], np.int64) if i.type.tensor_type.elem_type == T.INT64 else
            (np.array([[0.0, 1.0], [2.0, 0.0]], np.float32) if name == "Where+Equal" else
             _f(*[d.dim_value for d in i.type.tensor_type.shape.dim])) for i in model.graph.input], strict=True)}
    assert not unsupported_ops(model)
    ref = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)
    with torch.no_grad():
        got = to_torch(model)(*[torch.from_numpy(np.array(feed[i.name])) for i in model.graph.input])
    for g, r in zip(got, ref, strict=True):
        g = g.numpy()
        assert g.shape == r.shape and g.dtype == r.dtype, (name, g.shape, r.shape, g.dtype, r.dtype)
        np.testing.assert_allclose(g, r, rtol=1e-5, atol=1e-6)


def test_issue_ops_are_covered() -> None:
    """The ops issue 26 lists, minus Shape/Range/ConstantOfShape plumbing that folding removes."""
    listed = {"PRelu", "Slice", "Elu", "Pad", "LayerNormalization", "Gather", "Erf", "Trilu", "Where", "Cast",
              "Split", "LSTM", "GRU", "Resize", "ConvTranspose", "If"}
    assert listed <= SUPPORTED_OPS


def test_run_time_shape_inputs_are_refused_up_front() -> None:
    """A Slice whose bounds are computed at run time (Shape of a dynamic dim) is listed before conversion.

    With a static dim the Shape folds to a constant (see test_static_shape_plumbing_folds).
    """
    g = h.make_graph([h.make_node("Shape", ["x"], ["s"], name="sh"),
                      h.make_node("Slice", ["x", "z", "s"], ["y"], name="cut")], "dyn",
                     [h.make_tensor_value_info("x", F32, ["n"])], [h.make_tensor_value_info("y", F32, ["n"])],
                     [nh.from_array(np.array([0], np.int64), "z")])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    assert ("Shape", "sh") in unsupported_ops(m) and any(op.startswith("Slice (run-time 's')")
                                                         for op, _ in unsupported_ops(m))
    with pytest.raises(UnsupportedOpError, match="Shape"):
        to_torch(m)
