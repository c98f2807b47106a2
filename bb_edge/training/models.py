"""Small forward models built directly as ONNX (for tests, examples and simulations).

Each factory returns an ``onnx.ModelProto`` with parameters stored as
initializers, a single input ``x`` and a single output ``logits`` (or ``y``),
ready for :func:`bb_edge.training.build_training_step`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

__all__ = ["mlp", "small_cnn", "init_uniform"]


def init_uniform(rng: np.random.Generator, shape: Sequence[int], fan_in: int, dtype: str) -> np.ndarray:
    """Kaiming-uniform-style initialisation ``U(-1/sqrt(fan_in), 1/sqrt(fan_in)) * sqrt(3)``."""
    bound = float(np.sqrt(3.0 / max(fan_in, 1)))
    return rng.uniform(-bound, bound, size=tuple(shape)).astype(dtype)


def _elem(dtype: str) -> int:
    return TensorProto.DOUBLE if dtype == "float64" else TensorProto.FLOAT


def mlp(
    sizes: Sequence[int],
    activation: str = "Relu",
    seed: int = 0,
    dtype: str = "float32",
    use_matmul: bool = False,
    batch: int = 1,
) -> onnx.ModelProto:
    """Multi-layer perceptron ``sizes[0] -> ... -> sizes[-1]`` (Gemm or MatMul+Add layers)."""
    rng = np.random.default_rng(seed)
    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = []
    h = "x"
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:], strict=True)):
        w = init_uniform(rng, (a, b) if use_matmul else (b, a), a, dtype)
        bias = np.zeros(b, dtype=dtype)
        inits += [numpy_helper.from_array(w, f"fc{i}.weight"), numpy_helper.from_array(bias, f"fc{i}.bias")]
        last = i == len(sizes) - 2
        out = "logits" if last else f"h{i}"
        pre = out if last else f"z{i}"
        if use_matmul:
            nodes.append(helper.make_node("MatMul", [h, f"fc{i}.weight"], [pre + "_mm"], name=f"fc{i}_mm"))
            nodes.append(helper.make_node("Add", [pre + "_mm", f"fc{i}.bias"], [pre], name=f"fc{i}_add"))
        else:
            nodes.append(helper.make_node("Gemm", [h, f"fc{i}.weight", f"fc{i}.bias"], [pre],
                                          name=f"fc{i}", transB=1))
        if not last:
            nodes.append(helper.make_node(activation, [pre], [out], name=f"act{i}"))
        h = out
    el = _elem(dtype)
    graph = helper.make_graph(
        nodes, "mlp", [helper.make_tensor_value_info("x", el, [batch, sizes[0]])],
        [helper.make_tensor_value_info("logits", el, [batch, sizes[-1]])], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def small_cnn(
    in_shape: Sequence[int] = (1, 8, 8),
    channels: int = 4,
    classes: int = 10,
    pool: str = "MaxPool",
    seed: int = 0,
    dtype: str = "float32",
    batch: int = 1,
) -> onnx.ModelProto:
    """Conv(3x3, pad 1) -> Relu -> {Max,Average}Pool(2) -> Flatten -> Gemm classifier."""
    rng = np.random.default_rng(seed)
    c, hh, ww = (int(v) for v in in_shape)
    w = init_uniform(rng, (channels, c, 3, 3), c * 9, dtype)
    bconv = np.zeros(channels, dtype=dtype)
    feat = channels * (hh // 2) * (ww // 2)
    wf = init_uniform(rng, (classes, feat), feat, dtype)
    bf = np.zeros(classes, dtype=dtype)
    nodes = [
        helper.make_node("Conv", ["x", "conv.weight", "conv.bias"], ["c1"], name="conv",
                         pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu"),
        helper.make_node(pool, ["r1"], ["p1"], name="pool", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["p1"], ["f1"], name="flatten", axis=1),
        helper.make_node("Gemm", ["f1", "fc.weight", "fc.bias"], ["logits"], name="fc", transB=1),
    ]
    inits = [numpy_helper.from_array(a, n) for a, n in
             ((w, "conv.weight"), (bconv, "conv.bias"), (wf, "fc.weight"), (bf, "fc.bias"))]
    el = _elem(dtype)
    graph = helper.make_graph(
        nodes, "small_cnn", [helper.make_tensor_value_info("x", el, [batch, c, hh, ww])],
        [helper.make_tensor_value_info("logits", el, [batch, classes])], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model
