"""Issue 26: shape plumbing folds away after --input-shape, bit-exact; strict inference falls back with a warning.

Oracles: ONNX Runtime on the model as exported (no bb-edge folding) against the loaded model, and
onnx.checker / ORT for which models are valid.
"""

from __future__ import annotations

import collections
import warnings
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from bb_edge.compiler import compile_model, load_model
from bb_edge.compiler.load import ShapeInferenceWarning
from bb_edge.errors import InputShapeError
from tests.support.zoo_models import tiny_gpt

PLUMBING = {"Shape", "Size", "Range", "ConstantOfShape", "Trilu", "Equal"}


def _run(model: onnx.ModelProto, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
    so = ort.SessionOptions()
    so.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feed)


def test_pinned_gpt_carries_no_shape_plumbing_and_stays_bit_exact() -> None:
    src = tiny_gpt()
    loaded = load_model(src, {"tokens": [1, 8]})
    ops = collections.Counter(n.op_type for n in loaded.graph.node)
    assert not PLUMBING & set(ops), ops
    assert ops["MatMul"] == 6 and ops["Where"] == 1  # the compute is all still there
    tokens = np.array([[3, 1, 4, 1, 5, 9, 2, 6]], np.int64)
    for a, b in zip(_run(src, {"tokens": tokens}), _run(loaded, {"tokens": tokens}), strict=True):
        assert a.shape == b.shape and a.tobytes() == b.tobytes()  # bit for bit
    # without a pin the plumbing stays: the sequence length is not known
    dynamic = load_model(src)
    assert {"Shape", "Range", "Trilu"} <= {n.op_type for n in dynamic.graph.node}


def test_folded_plumbing_never_crosses_a_node(tmp_path: Path) -> None:
    dep, programs = compile_model(load_model(tiny_gpt(), {"tokens": [1, 8]}), nodes=2)
    assert all(e.elem_type == 1 for e in dep.edges), [(e.tensor, e.elem_type) for e in dep.edges]
    for p in programs.values():
        assert not PLUMBING & {n.op_type for n in p.graph.node}


def _rnn_with_wrong_declared_rank(decl: list[int]) -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    g = h.make_graph([h.make_node("RNN", ["x", "W", "R"], ["Y", "Yh"], name="rnn", hidden_size=4),
                      h.make_node("Relu", ["Yh"], ["z"], name="act")], "rnn",
                     [h.make_tensor_value_info("x", T.FLOAT, [3, 1, 2])],
                     [h.make_tensor_value_info("z", T.FLOAT, decl)],
                     [nh.from_array(rng.standard_normal((1, 4, 2)).astype(np.float32), "W"),
                      nh.from_array(rng.standard_normal((1, 4, 4)).astype(np.float32), "R")])
    g.value_info.extend([h.make_tensor_value_info("Yh", T.FLOAT, decl)])  # the exporter's wrong rank
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


def test_strict_inference_failure_falls_back_with_a_warning() -> None:
    model = _rnn_with_wrong_declared_rank([1, 4])
    with pytest.raises(Exception, match="ShapeInferenceError"):  # strict ONNX inference refuses it ...
        onnx.shape_inference.infer_shapes(model, strict_mode=True)
    x = np.random.default_rng(1).standard_normal((3, 1, 2)).astype(np.float32)
    (ref,) = _run(model, {"x": x})  # ... ONNX Runtime runs it
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loaded = load_model(model)
    msgs = [str(w.message) for w in caught if issubclass(w.category, ShapeInferenceWarning)]
    assert len(msgs) == 1 and "rnn" in msgs[0], msgs
    dep, programs = compile_model(loaded, nodes=2)
    yh = next(e for e in dep.edges if e.tensor == "Yh") if any(e.tensor == "Yh" for e in dep.edges) else None
    if yh is not None:
        assert list(yh.shape) == [1, 1, 4]  # the contract is what the op produces, not the declaration
    from bb_edge.adapters.transports.inproc import InProcFleet

    got = InProcFleet(dep, programs).infer({"x": x})["z"]
    assert got.shape == ref.shape and got.tobytes() == ref.tobytes()


def test_wrong_input_shape_name_says_which_inputs_exist() -> None:
    with pytest.raises(InputShapeError, match=r"no graph input 'tok' \(inputs: tokens\)"):
        load_model(tiny_gpt(), {"tok": [1, 8]})
    assert "onnx.checker" not in InputShapeError.fix
