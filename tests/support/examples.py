"""Small models for tests, benchmarks and demos of MCU nodes."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def small_cnn(seed: int = 0, size: int = 16) -> onnx.ModelProto:
    """A small image classifier: conv-relu-pool, depthwise + pointwise, residual add, GAP, gemm, softmax.

    Cut points for a 4-node pipeline: ``p1``, ``r3``, ``g``.
    """
    rng = np.random.default_rng(seed)

    def w(*shape: int, s: float = 0.3) -> np.ndarray:
        return (rng.standard_normal(shape) * s).astype(np.float32)

    inits = {
        "W1": w(8, 3, 3, 3), "B1": w(8, s=0.1),
        "W2": w(8, 1, 3, 3), "B2": w(8, s=0.1),
        "W3": w(16, 8, 1, 1), "B3": w(16, s=0.1),
        "W4": w(16, 16, 3, 3, s=0.1), "B4": w(16, s=0.1),
        "Wf": w(10, 16), "Bf": w(10, s=0.1),
        "six": np.array(6.0, np.float32), "zero": np.array(0.0, np.float32),
    }
    n = helper.make_node
    nodes = [
        n("Conv", ["x", "W1", "B1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        n("Relu", ["c1"], ["r1"], name="relu1"),
        n("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
        n("Conv", ["p1", "W2", "B2"], ["c2"], name="dw2", pads=[1, 1, 1, 1], group=8),
        n("Clip", ["c2", "zero", "six"], ["r2"], name="relu6_2"),
        n("Conv", ["r2", "W3", "B3"], ["c3"], name="pw3"),
        n("Relu", ["c3"], ["r3"], name="relu3"),
        n("Conv", ["r3", "W4", "B4"], ["c4"], name="conv4", pads=[1, 1, 1, 1]),
        n("Add", ["c4", "r3"], ["a4"], name="res4"),
        n("Relu", ["a4"], ["r4"], name="relu4"),
        n("GlobalAveragePool", ["r4"], ["g"], name="gap"),
        n("Flatten", ["g"], ["f"], name="flat", axis=1),
        n("Gemm", ["f", "Wf", "Bf"], ["logits"], name="fc", transB=1),
        n("Softmax", ["logits"], ["prob"], name="softmax", axis=-1),
    ]
    g = helper.make_graph(
        nodes, "small_cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, size, size])],
        [helper.make_tensor_value_info("prob", TensorProto.FLOAT, [1, 10])],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def sample_inputs(n: int, seed: int = 1, size: int = 16) -> list[dict[str, np.ndarray]]:
    """``n`` random images for :func:`small_cnn`."""
    rng = np.random.default_rng(seed)
    return [{"x": rng.standard_normal((1, 3, size, size)).astype(np.float32)} for _ in range(n)]


def small_mlp() -> onnx.ModelProto:
    """The MLP 64-48-32-10 of the bbrt/TFLM comparison (Gemm+Relu, Gemm+Relu, Gemm), float32, fixed seed."""
    rng = np.random.default_rng(0)
    dims = [64, 48, 32, 10]
    inits, nodes, x = [], [], "x"
    for i in range(3):
        inits += [numpy_helper.from_array((rng.standard_normal((dims[i + 1], dims[i])) * 0.3).astype(np.float32),
                                          f"W{i}"),
                  numpy_helper.from_array((rng.standard_normal(dims[i + 1]) * 0.1).astype(np.float32), f"B{i}")]
        y = f"h{i}" if i < 2 else "y"
        nodes.append(helper.make_node("Gemm", [x, f"W{i}", f"B{i}"], [y + "_pre" if i < 2 else y], name=f"fc{i}",
                                      transB=1))
        if i < 2:
            nodes.append(helper.make_node("Relu", [y + "_pre"], [y], name=f"relu{i}"))
        x = y
    g = helper.make_graph(nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def tflm_cnn() -> onnx.ModelProto:
    """The bbrt/TFLM bench CNN: conv 3x3 (3->8) + Relu, 1x1 conv (8->16) + Relu, 2x2 max pool, Flatten, FC 16*6*6 -> 10
    on a 12x12 image (the issue's layer structure; bench/bench_bbrt.py), float32, fixed seed."""
    rng = np.random.default_rng(1)

    def w(*shape: int, s: float = 0.3) -> np.ndarray:
        return (rng.standard_normal(shape) * s).astype(np.float32)

    n = helper.make_node
    inits = {"W1": w(8, 3, 3, 3), "B1": w(8, s=0.1), "W2": w(16, 8, 1, 1), "B2": w(16, s=0.1),
             "Wf": w(10, 16 * 6 * 6, s=0.05), "Bf": w(10, s=0.1)}
    nodes = [n("Conv", ["x", "W1", "B1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
             n("Relu", ["c1"], ["r1"], name="relu1"),
             n("Conv", ["r1", "W2", "B2"], ["c2"], name="pw2"),
             n("Relu", ["c2"], ["r2"], name="relu2"),
             n("MaxPool", ["r2"], ["p"], name="pool", kernel_shape=[2, 2], strides=[2, 2]),
             n("Flatten", ["p"], ["f"], name="flat", axis=1),
             n("Gemm", ["f", "Wf", "Bf"], ["y"], name="fc", transB=1)]
    g = helper.make_graph(nodes, "cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 12, 12])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])],
                          [numpy_helper.from_array(v, k) for k, v in inits.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
