"""Recording state: the graph under construction and the symbolic Value."""

from __future__ import annotations

import contextvars
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from bb_edge.errors import RecordingError

PLACE_KEY = "bb.place"

_current_graph: contextvars.ContextVar[Graph | None] = contextvars.ContextVar("bb_graph", default=None)
_current_place: contextvars.ContextVar[str | None] = contextvars.ContextVar("bb_place", default=None)


@contextmanager
def on(node: str) -> Iterator[None]:
    """Place every op recorded inside the block on fleet node ``node``."""
    if not node or node.startswith("_") or "/" in node:
        raise RecordingError(f"node name {node!r} is not allowed (non-empty, no leading '_', no '/')")
    token = _current_place.set(node)
    try:
        yield
    finally:
        _current_place.reset(token)


class Graph:
    """The ONNX graph being recorded: nodes, initializers, unique names."""

    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: dict[str, onnx.TensorProto] = {}
        self._const_ids: dict[int, str] = {}
        self._names: dict[str, int] = {}

    def fresh(self, base: str) -> str:
        """A tensor/node name not used before in this graph."""
        n = self._names.get(base, 0)
        self._names[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def add_initializer(self, name: str, array: np.ndarray) -> str:
        """Register a parameter or constant as an initializer; returns its name."""
        if name in self.initializers:
            return name
        self.initializers[name] = numpy_helper.from_array(np.ascontiguousarray(array), name)
        self._names.setdefault(name, 1)
        return name

    def constant(self, value: Any, dtype: np.dtype) -> Value:
        """A Python scalar or array as a (deduplicated) constant initializer."""
        arr = np.asarray(value, dtype=dtype)
        key = hash((arr.dtype.str, arr.shape, arr.tobytes()))
        if key not in self._const_ids:
            self._const_ids[key] = self.add_initializer(self.fresh("const"), arr)
        return Value(self, self._const_ids[key], arr.dtype, arr.shape)

    def op(self, op_type: str, inputs: Sequence[Value | None], n_out: int = 1,
           dtype: np.dtype | None = None, **attrs: Any) -> list[Value]:
        """Record one op and return its output Values."""
        ins = [v.name if v is not None else "" for v in inputs]
        base = op_type.lower()
        name = self.fresh(base)
        outs = [self.fresh(f"{name}_out{i}" if n_out > 1 else f"{name}_out") for i in range(n_out)]
        node = helper.make_node(op_type, ins, outs, name=name, **{k: v for k, v in attrs.items() if v is not None})
        place = _current_place.get()
        if place is not None:
            p = node.metadata_props.add()
            p.key, p.value = PLACE_KEY, place
        self.nodes.append(node)
        first = next((v for v in inputs if v is not None), None)
        out_dtype = dtype if dtype is not None else (first.dtype if first is not None else np.dtype("float32"))
        return [Value(self, o, out_dtype, None) for o in outs]


def current_graph() -> Graph:
    """The graph being recorded; RecordingError outside of record()."""
    g = _current_graph.get()
    if g is None:
        raise RecordingError("ops can only be used while recording (inside bb_edge.ir.record)")
    return g


@contextmanager
def recording(graph: Graph) -> Iterator[Graph]:
    """Make ``graph`` the current recording target."""
    token = _current_graph.set(graph)
    try:
        yield graph
    finally:
        _current_graph.reset(token)


class Value:
    """A symbolic tensor: the name of an ONNX value plus its element type.

    Arithmetic operators record Add/Sub/Mul/Div/MatMul; Python scalars and
    numpy arrays on either side become constant initializers.
    """

    __array_priority__ = 1000  # make numpy defer to our reflected operators

    def __init__(self, graph: Graph, name: str, dtype: np.dtype, shape: tuple[int, ...] | None) -> None:
        self.graph = graph
        self.name = name
        self.dtype = np.dtype(dtype)
        self.shape = shape

    def __repr__(self) -> str:
        return f"Value({self.name!r}, {self.dtype})"

    def _lift(self, other: Any) -> Value:
        if isinstance(other, Value):
            return other
        from bb_edge.ir.module import Parameter

        if isinstance(other, Parameter):
            return other.value()
        return self.graph.constant(other, self.dtype)

    def _bin(self, op: str, other: Any, reverse: bool = False) -> Value:
        o = self._lift(other)
        a, b = (o, self) if reverse else (self, o)
        return self.graph.op(op, [a, b])[0]

    def __add__(self, other: Any) -> Value:
        return self._bin("Add", other)

    def __radd__(self, other: Any) -> Value:
        return self._bin("Add", other, True)

    def __sub__(self, other: Any) -> Value:
        return self._bin("Sub", other)

    def __rsub__(self, other: Any) -> Value:
        return self._bin("Sub", other, True)

    def __mul__(self, other: Any) -> Value:
        return self._bin("Mul", other)

    def __rmul__(self, other: Any) -> Value:
        return self._bin("Mul", other, True)

    def __truediv__(self, other: Any) -> Value:
        return self._bin("Div", other)

    def __rtruediv__(self, other: Any) -> Value:
        return self._bin("Div", other, True)

    def __matmul__(self, other: Any) -> Value:
        return self._bin("MatMul", other)

    def __rmatmul__(self, other: Any) -> Value:
        return self._bin("MatMul", other, True)

    def __neg__(self) -> Value:
        return self.graph.op("Neg", [self])[0]

    # fluent forms of the common ops
    def relu(self) -> Value:
        """Relu of this value."""
        return self.graph.op("Relu", [self])[0]

    def sigmoid(self) -> Value:
        """Sigmoid of this value."""
        return self.graph.op("Sigmoid", [self])[0]

    def tanh(self) -> Value:
        """Tanh of this value."""
        return self.graph.op("Tanh", [self])[0]

    def flatten(self, axis: int = 1) -> Value:
        """Flatten to 2-D at ``axis``."""
        return self.graph.op("Flatten", [self], axis=axis)[0]

    def reshape(self, *shape: int) -> Value:
        """Reshape (-1 infers one dimension, 0 copies the input's)."""
        dims = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
        s = self.graph.constant(np.array(dims, dtype=np.int64), np.dtype("int64"))
        return self.graph.op("Reshape", [self, s])[0]

    def transpose(self, *perm: int) -> Value:
        """Permute axes."""
        p = perm[0] if len(perm) == 1 and isinstance(perm[0], (tuple, list)) else perm
        return self.graph.op("Transpose", [self], perm=list(p))[0]
