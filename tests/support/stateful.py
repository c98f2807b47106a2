"""A tiny stateful program (an RNN cell whose h' feeds h at the next step) and its ORT oracle."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper


def rnn_cell() -> onnx.ModelProto:
    """h' = tanh(W x + U h); y = 2 h'. ``h`` is the state (h' feeds h at the next step)."""
    rng = np.random.default_rng(0)
    w = helper.make_tensor("W", TensorProto.FLOAT, [3, 4], rng.normal(size=12).astype(np.float32).tolist())
    u = helper.make_tensor("U", TensorProto.FLOAT, [4, 4], rng.normal(size=16).astype(np.float32).tolist())
    two = helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])
    nodes = [helper.make_node("MatMul", ["x", "W"], ["wx"]), helper.make_node("MatMul", ["h", "U"], ["uh"]),
             helper.make_node("Add", ["wx", "uh"], ["pre"]), helper.make_node("Tanh", ["pre"], ["h_next"]),
             helper.make_node("Mul", ["h_next", "two"], ["y"])]
    g = helper.make_graph(nodes, "cell", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3]),
                                           helper.make_tensor_value_info("h", TensorProto.FLOAT, [1, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4]),
                           helper.make_tensor_value_info("h_next", TensorProto.FLOAT, [1, 4])], [w, u, two])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def oracle(xs: list[np.ndarray]) -> list[np.ndarray]:
    """One ORT session looping over the steps with the state fed back by hand."""
    sess = ort.InferenceSession(rnn_cell().SerializeToString(), providers=["CPUExecutionProvider"])
    h = np.zeros((1, 4), np.float32)
    out = []
    for x in xs:
        y, h = sess.run(["y", "h_next"], {"x": x, "h": h})
        out.append(y)
    return out


def xs(n: int, seed: int = 1) -> list[np.ndarray]:
    """``n`` seeded [1, 3] float32 step inputs."""
    rng = np.random.default_rng(seed)
    return [rng.normal(size=(1, 3)).astype(np.float32) for _ in range(n)]


def history_cell() -> onnx.ModelProto:
    """hist' = concat(hist, x) on axis 0 (a state that grows by one row a step, as a KV cache does);
    y = the column sums of hist' times a weight."""
    w = helper.make_tensor("w", TensorProto.FLOAT, [3], [0.5, -1.25, 2.0])
    axes = helper.make_tensor("axes", TensorProto.INT64, [1], [0])
    nodes = [helper.make_node("Concat", ["hist", "x"], ["hist_next"], axis=0),
             helper.make_node("ReduceSum", ["hist_next", "axes"], ["s"], keepdims=1),
             helper.make_node("Mul", ["s", "w"], ["y"])]
    g = helper.make_graph(nodes, "history", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3]),
                                              helper.make_tensor_value_info("hist", TensorProto.FLOAT, ["t", 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3]),
                           helper.make_tensor_value_info("hist_next", TensorProto.FLOAT, ["t1", 3])], [w, axes])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def history_oracle(xs: list[np.ndarray]) -> list[np.ndarray]:
    """One ORT session of :func:`history_cell` looping over the steps, the state fed back by hand."""
    sess = ort.InferenceSession(history_cell().SerializeToString(), providers=["CPUExecutionProvider"])
    hist = np.zeros((0, 3), np.float32)
    out = []
    for x in xs:
        y, hist = sess.run(["y", "hist_next"], {"x": x, "hist": hist})
        out.append(y)
    return out
