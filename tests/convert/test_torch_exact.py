"""The exact forms of bb_edge/convert/torch_exact.py and the program boundary, against ONNX Runtime
(onnx's reference implementation where ORT has no kernel for the type).

Eager torch (the module torch.export traces), on random values over each type's whole range: unsigned
16/32/64-bit arithmetic carried widened (wrap-around, unsigned order, unsigned division), BitShift on every
integer type with out-of-range shifts, integer Mod of mixed signs, TopK ties. The ExecuTorch path of the same
forms is tests/convert/test_executorch_peer_subset.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch
from onnx import TensorProto, helper

from bb_edge.convert.onnx_torch import ProgramIO, to_torch

_NP: dict[int, Any] = {TensorProto.UINT8: np.uint8, TensorProto.UINT16: np.uint16, TensorProto.UINT32: np.uint32,
       TensorProto.UINT64: np.uint64, TensorProto.INT8: np.int8, TensorProto.INT16: np.int16,
       TensorProto.INT32: np.int32, TensorProto.INT64: np.int64}


def _model(op: str, elem: int, out_elem: int | None = None, **attrs: Any) -> onnx.ModelProto:
    g = helper.make_graph([helper.make_node(op, ["a", "b"], ["y"], **attrs)], "t",
                          [helper.make_tensor_value_info(n, elem, [64]) for n in ("a", "b")],
                          [helper.make_tensor_value_info("y", out_elem or elem, [64])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


def _both(model: onnx.ModelProto, feed: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    so = ort.SessionOptions()
    so.log_severity_level = 4
    try:
        ref = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feed)[0]
    except ort.capi.onnxruntime_pybind11_state.NotImplemented:  # ORT lacks the kernel (Max on uint16): onnx's
        from onnx.reference import ReferenceEvaluator  # reference implementation is the oracle then

        ref = list(ReferenceEvaluator(model).run(None, feed))[0]
    io = ProgramIO(model)
    with torch.no_grad():
        got = to_torch(model)(*[torch.from_numpy(np.array(a)) for a in io.feed(feed)])
    return io.results(list(got))["y"], ref


def _rand(dt: Any, rng: np.random.Generator, nonzero: bool = False) -> np.ndarray:
    info = np.iinfo(dt)
    v = rng.integers(int(info.min), int(info.max), 64, dtype=dt, endpoint=True)
    v[:4] = [info.min, info.max, info.max - 1, info.min + 1]
    if nonzero:
        v[v == 0] = 1
    return v


@pytest.mark.parametrize("elem", [TensorProto.UINT16, TensorProto.UINT32, TensorProto.UINT64])
@pytest.mark.parametrize("op", ["Add", "Sub", "Mul", "Div", "Mod", "Max", "Min", "Less", "GreaterOrEqual"])
def test_unsigned_arithmetic_matches_ort(op: str, elem: int) -> None:
    rng = np.random.default_rng(26)
    dt = _NP[elem]
    cmp = op in ("Less", "GreaterOrEqual")
    model = _model(op, elem, TensorProto.BOOL if cmp else None)
    a, b = _rand(dt, rng), _rand(dt, rng, nonzero=op in ("Div", "Mod"))
    b[4:8] = a[4:8]  # equal operands
    got, ref = _both(model, {"a": a, "b": b})
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("direction", ["LEFT", "RIGHT"])
@pytest.mark.parametrize("elem", [TensorProto.UINT8, TensorProto.UINT16, TensorProto.UINT32, TensorProto.UINT64])
def test_bitshift_matches_ort(elem: int, direction: str) -> None:
    rng = np.random.default_rng(7)
    dt = _NP[elem]
    bits = np.iinfo(dt).bits
    a = _rand(dt, rng)
    b = rng.integers(0, bits, 64).astype(dt)
    got, ref = _both(_model("BitShift", elem, direction=direction), {"a": a, "b": b})
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("fmod", [0, 1])
@pytest.mark.parametrize("elem", [TensorProto.INT8, TensorProto.INT32, TensorProto.INT64])
def test_integer_mod_of_mixed_signs_matches_ort(elem: int, fmod: int) -> None:
    rng = np.random.default_rng(3)
    dt = _NP[elem]
    a = rng.integers(-100, 100, 64).astype(dt)
    b = rng.integers(1, 20, 64).astype(dt) * rng.choice([-1, 1], 64).astype(dt)
    got, ref = _both(_model("Mod", elem, fmod=fmod), {"a": a, "b": b})
    np.testing.assert_array_equal(got, ref)


def test_topk_ties_take_the_lower_index_first() -> None:
    k = helper.make_tensor("k", TensorProto.INT64, [1], [5])
    g = helper.make_graph([helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=1)], "t",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 12])],
                          [helper.make_tensor_value_info("v", TensorProto.FLOAT, [3, 5]),
                           helper.make_tensor_value_info("i", TensorProto.INT64, [3, 5])], [k])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    x = np.random.default_rng(1).integers(0, 4, (3, 12)).astype(np.float32)  # many ties
    so = ort.SessionOptions()
    so.log_severity_level = 4
    ref = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {"x": x})
    with torch.no_grad():
        v, i = to_torch(model)(torch.from_numpy(x))
    np.testing.assert_array_equal(v.numpy(), ref[0])
    np.testing.assert_array_equal(i.numpy(), ref[1])


@pytest.mark.parametrize("elem", [TensorProto.UINT16, TensorProto.UINT32])
def test_wrapped_unsigned_values_feed_later_ops(elem: int) -> None:
    """An overflowing Add/Mul wraps before the next op sees it (Less(a + b, a) is the carry; Div of a product)."""
    g = helper.make_graph([helper.make_node("Add", ["a", "b"], ["s"]), helper.make_node("Less", ["s", "a"], ["y"]),
                           helper.make_node("Mul", ["a", "b"], ["p"]), helper.make_node("Div", ["p", "b"], ["q"])],
                          "t", [helper.make_tensor_value_info(n, elem, [64]) for n in ("a", "b")],
                          [helper.make_tensor_value_info("y", TensorProto.BOOL, [64]),
                           helper.make_tensor_value_info("q", elem, [64])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    rng = np.random.default_rng(5)
    dt = _NP[elem]
    feed = {"a": _rand(dt, rng), "b": _rand(dt, rng, nonzero=True)}
    so = ort.SessionOptions()
    so.log_severity_level = 4
    ref = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feed)
    io = ProgramIO(model)
    with torch.no_grad():
        got = io.results(list(to_torch(model)(*[torch.from_numpy(np.array(a)) for a in io.feed(feed)])))
    assert ref[0].any()  # some sums overflow
    np.testing.assert_array_equal(got["y"], ref[0])
    np.testing.assert_array_equal(got["q"], ref[1])
