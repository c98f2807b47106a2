"""The tiny model and its two-node deployment that the CLI, broker and node tests compile in a second."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from bb_edge.compiler import compile_model


def tiny_model() -> onnx.ModelProto:
    """x[1,8] -> Gemm -> Relu -> MatMul -> y[1,4]: small enough to compile and build in a second."""
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal(s).astype(np.float32), n)
             for n, s in (("W1", (8, 16)), ("B1", (16,)), ("W2", (16, 4)))]
    nodes = [helper.make_node("Gemm", ["x", "W1", "B1"], ["h"], name="fc1"),
             helper.make_node("Relu", ["h"], ["r"], name="relu"),
             helper.make_node("MatMul", ["r", "W2"], ["y"], name="fc2")]
    graph = helper.make_graph(nodes, "tiny", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def tiny_deployment(tmp: Path) -> Path:
    """``tiny_model`` saved as ``tmp/tiny.onnx`` and compiled for two nodes into ``tmp/dep`` (returned)."""
    onnx.save(tiny_model(), tmp / "tiny.onnx")
    compile_model(str(tmp / "tiny.onnx"), nodes=2, out_dir=tmp / "dep")
    return tmp / "dep"
