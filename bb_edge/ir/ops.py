"""Functional ops recorded into the current graph (standard ONNX, opset 17)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from onnx import helper

from bb_edge.ir.graph import Value, current_graph


def _v(x: Any) -> Value:
    from bb_edge.ir.module import Parameter

    if isinstance(x, Value):
        return x
    if isinstance(x, Parameter):
        return x.value()
    return current_graph().constant(x, np.dtype("float32"))


def gemm(a: Any, b: Any, c: Any = None, alpha: float = 1.0, beta: float = 1.0,
         trans_a: bool = False, trans_b: bool = False) -> Value:
    """Gemm: alpha * op(a) @ op(b) + beta * c."""
    ins = [_v(a), _v(b)] + ([_v(c)] if c is not None else [])
    return current_graph().op("Gemm", ins, alpha=alpha, beta=beta, transA=int(trans_a), transB=int(trans_b))[0]


def matmul(a: Any, b: Any) -> Value:
    """MatMul with numpy broadcasting semantics."""
    return current_graph().op("MatMul", [_v(a), _v(b)])[0]


def add(a: Any, b: Any) -> Value:
    """Elementwise a + b."""
    return _v(a) + b


def sub(a: Any, b: Any) -> Value:
    """Elementwise a - b."""
    return _v(a) - b


def mul(a: Any, b: Any) -> Value:
    """Elementwise a * b."""
    return _v(a) * b


def div(a: Any, b: Any) -> Value:
    """Elementwise a / b."""
    return _v(a) / b


def relu(x: Value) -> Value:
    """max(x, 0)."""
    return current_graph().op("Relu", [_v(x)])[0]


def sigmoid(x: Value) -> Value:
    """1 / (1 + exp(-x))."""
    return current_graph().op("Sigmoid", [_v(x)])[0]


def tanh(x: Value) -> Value:
    """Hyperbolic tangent."""
    return current_graph().op("Tanh", [_v(x)])[0]


def softmax(x: Value, axis: int = -1) -> Value:
    """Softmax along ``axis``."""
    return current_graph().op("Softmax", [_v(x)], axis=axis)[0]


def _pair(v: int | Sequence[int]) -> list[int]:
    return [int(v), int(v)] if isinstance(v, int) else [int(x) for x in v]


def _pads(p: int | Sequence[int]) -> list[int]:
    if isinstance(p, int):
        return [p] * 4
    p = list(p)
    return p * 2 if len(p) == 2 else p


def conv(x: Value, w: Any, b: Any = None, stride: int | Sequence[int] = 1, padding: int | Sequence[int] = 0,
         dilation: int | Sequence[int] = 1, groups: int = 1) -> Value:
    """2-D convolution (NCHW, weights OIHW)."""
    ins = [_v(x), _v(w)] + ([_v(b)] if b is not None else [])
    return current_graph().op("Conv", ins, strides=_pair(stride), pads=_pads(padding),
                              dilations=_pair(dilation), group=groups)[0]


def max_pool(x: Value, kernel: int | Sequence[int], stride: int | Sequence[int] | None = None,
             padding: int | Sequence[int] = 0) -> Value:
    """2-D max pooling."""
    return current_graph().op("MaxPool", [_v(x)], kernel_shape=_pair(kernel),
                              strides=_pair(stride if stride is not None else kernel), pads=_pads(padding))[0]


def avg_pool(x: Value, kernel: int | Sequence[int], stride: int | Sequence[int] | None = None,
             padding: int | Sequence[int] = 0) -> Value:
    """2-D average pooling (padding excluded from the count)."""
    return current_graph().op("AveragePool", [_v(x)], kernel_shape=_pair(kernel),
                              strides=_pair(stride if stride is not None else kernel), pads=_pads(padding))[0]


def global_avg_pool(x: Value) -> Value:
    """Mean over every spatial dimension, keeping them as size 1."""
    return current_graph().op("GlobalAveragePool", [_v(x)])[0]


def batch_norm(x: Value, scale: Any, bias: Any, mean: Any, var: Any, epsilon: float = 1e-5) -> Value:
    """Inference-mode batch normalization."""
    return current_graph().op("BatchNormalization", [_v(x), _v(scale), _v(bias), _v(mean), _v(var)],
                              epsilon=epsilon)[0]


def flatten(x: Value, axis: int = 1) -> Value:
    """Flatten to 2-D at ``axis``."""
    return _v(x).flatten(axis)


def reshape(x: Value, shape: Sequence[int]) -> Value:
    """Reshape to ``shape``."""
    return _v(x).reshape(*shape)


def transpose(x: Value, perm: Sequence[int]) -> Value:
    """Permute axes."""
    return _v(x).transpose(*perm)


def concat(values: Sequence[Value], axis: int) -> Value:
    """Concatenate along ``axis``."""
    return current_graph().op("Concat", [_v(v) for v in values], axis=axis)[0]


def identity(x: Value) -> Value:
    """The same tensor under a new name (useful as a named cut point)."""
    return current_graph().op("Identity", [_v(x)])[0]


def cast(x: Value, dtype: Any) -> Value:
    """Convert element type."""
    dt = np.dtype(dtype)
    return current_graph().op("Cast", [_v(x)], dtype=dt, to=helper.np_dtype_to_tensor_dtype(dt))[0]
