"""Training-step programs: reverse-mode autodiff and optimizer updates in plain ONNX.

:func:`build_training_step` takes a recorded forward ``onnx.ModelProto``
(standard ops, parameters stored as initializers), the name of the output to
train, a loss spec and an optimizer spec, and returns a
:class:`TrainingProgram` whose model computes one training step with standard
ONNX ops only (opset 17, default domain). The program runs unchanged on
``onnxruntime.InferenceSession`` and ``onnx.reference.ReferenceEvaluator``.

Program interface (all names are fixed by the rules below):

============================  ===============================================
inputs                        outputs
============================  ===============================================
forward data inputs (``x``)   ``loss`` (scalar, when a loss is given)
``labels`` (loss given)       the forward output (e.g. logits)
``grad/<out>`` (no loss)      ``next/<p>`` per parameter (optimizer given)
``<p>`` per parameter         ``grad/<p>`` per parameter (no optimizer)
``global/<p>`` (FedProx mu)   ``next/opt/<k>`` per optimizer state key
``opt/<k>`` optimizer state   ``grad/<x>`` for inputs listed in ``input_grads``
============================  ===============================================

Optimizer state keys are those of :func:`bb_edge.learn.optim.init_state`
(``m/<p>``, ``v/<p>``, ``step``). A program without a loss takes the upstream
gradient of the output as ``grad/<out>`` (client side of split learning); a
program with ``input_grads`` returns the gradient of a data input (server
side). ``proximal_mu > 0`` adds the FedProx term ``mu/2 * ||p - global/p||^2``.

Supported ops: Gemm, MatMul (rank >= 2), Add, Sub, Mul, Div (with
broadcasting), Relu, LeakyRelu, Sigmoid, Tanh, Softmax, LogSoftmax, Conv
(weight gradient for ``group == 1``), MaxPool, AveragePool, GlobalAveragePool,
Flatten, Reshape, Squeeze, Unsqueeze, Transpose, Identity, Dropout
(inference), plus constant-only subgraphs. Anything else on a differentiable
path raises :class:`bb_edge.errors.UnsupportedOpError`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from bb_edge.errors import ModelError, UnsupportedOpError
from bb_edge.learn.optim import SGD, Adam, OptimizerSpec, Yogi, init_state, state_slots, uses_step

__all__ = [
    "SoftmaxCrossEntropy",
    "MSE",
    "LossSpec",
    "TensorSpec",
    "ParamLayout",
    "TrainingProgram",
    "build_training_step",
    "parameterized_forward",
    "with_params",
    "Session",
    "make_session",
    "Trainer",
    "ForwardRunner",
    "OPSET",
    "SUPPORTED_OPS",
]

OPSET = 17
Shape = tuple[int | None, ...]


@dataclass(frozen=True)
class SoftmaxCrossEntropy:
    """Mean softmax cross-entropy over the batch; output must be logits ``(N, K)``.

    ``labels="index"``: ``labels`` input is int64 ``(N,)``; ``"onehot"``: it
    has the logits' shape and float dtype (soft labels allowed).
    """

    labels: Literal["index", "onehot"] = "index"


@dataclass(frozen=True)
class MSE:
    """Mean squared error over all elements; ``labels`` has the output's shape."""


LossSpec = SoftmaxCrossEntropy | MSE


@dataclass(frozen=True)
class TensorSpec:
    """Name, shape (``None`` for a symbolic dim) and numpy dtype name of a tensor."""

    name: str
    shape: Shape
    dtype: str = "float32"

    @property
    def size(self) -> int:
        """Number of elements (symbolic dims count as 1)."""
        n = 1
        for d in self.shape:
            n *= d if d is not None else 1
        return n


class ParamLayout:
    """Fixed order of named parameters packed into one float32 vector.

    The vector is what travels over the wire as one envelope; every node of a
    federation must use the same layout (same names, shapes, order).
    """

    def __init__(self, specs: Sequence[TensorSpec]) -> None:
        self.specs: tuple[TensorSpec, ...] = tuple(specs)
        self.offsets: dict[str, tuple[int, int]] = {}
        off = 0
        for s in self.specs:
            if any(d is None for d in s.shape):
                raise ModelError(f"parameter {s.name!r} has a symbolic shape {s.shape}")
            self.offsets[s.name] = (off, off + s.size)
            off += s.size
        self.size: int = off

    @property
    def names(self) -> tuple[str, ...]:
        """Parameter names in layout order."""
        return tuple(s.name for s in self.specs)

    def flatten(self, params: Mapping[str, np.ndarray]) -> np.ndarray:
        """Pack a name -> array dict into one float32 vector (layout order)."""
        out = np.empty(self.size, dtype=np.float32)
        for s in self.specs:
            a, b = self.offsets[s.name]
            arr = np.asarray(params[s.name])
            if arr.shape != s.shape:
                raise ValueError(f"parameter {s.name!r} has shape {arr.shape}, layout says {s.shape}")
            out[a:b] = arr.reshape(-1)
        return out

    def unflatten(self, vec: np.ndarray) -> dict[str, np.ndarray]:
        """Split a vector back into a name -> array dict (copies, each spec's dtype)."""
        vec = np.asarray(vec)
        if vec.shape != (self.size,):
            raise ValueError(f"vector has shape {vec.shape}, layout needs ({self.size},)")
        out: dict[str, np.ndarray] = {}
        for s in self.specs:
            a, b = self.offsets[s.name]
            out[s.name] = vec[a:b].astype(s.dtype).reshape(tuple(int(d or 1) for d in s.shape))
        return out


@dataclass(frozen=True)
class TrainingProgram:
    """A built training-step program and the names/shapes needed to drive it."""

    model: onnx.ModelProto
    params: tuple[TensorSpec, ...]
    data_inputs: tuple[TensorSpec, ...]
    output: str
    labels: TensorSpec | None
    grad_input: TensorSpec | None
    state: tuple[TensorSpec, ...]
    loss: LossSpec | None
    optimizer: OptimizerSpec | None
    proximal_mu: float
    input_grads: tuple[str, ...]
    initial_params: dict[str, np.ndarray] = field(repr=False)

    @property
    def layout(self) -> ParamLayout:
        """The parameter layout (flatten/unflatten to one float32 vector)."""
        return ParamLayout(self.params)

    @property
    def param_outputs(self) -> tuple[str, ...]:
        """Output names carrying updated parameters (or gradients without optimizer)."""
        prefix = "next/" if self.optimizer is not None else "grad/"
        return tuple(prefix + p.name for p in self.params)

    @property
    def state_outputs(self) -> tuple[str, ...]:
        """Output names of the updated optimizer state, aligned with ``state``."""
        return tuple("next/" + s.name for s in self.state)

    def initial_state(self) -> dict[str, np.ndarray]:
        """Zero optimizer state, keyed like :func:`bb_edge.learn.optim.init_state`."""
        if self.optimizer is None:
            return {}
        st = init_state(self.optimizer, self.initial_params)
        if "step" in st:
            st["step"] = st["step"].astype(self.params[0].dtype)
        return st


SUPPORTED_OPS = frozenset(
    {
        "Gemm", "MatMul", "Add", "Sub", "Mul", "Div", "Relu", "LeakyRelu", "Sigmoid", "Tanh",
        "Softmax", "LogSoftmax", "Conv", "MaxPool", "AveragePool", "GlobalAveragePool", "Flatten",
        "Reshape", "Squeeze", "Unsqueeze", "Transpose", "Identity", "Dropout",
    }
)

_NP_OF: dict[int, str] = {
    TensorProto.FLOAT: "float32", TensorProto.DOUBLE: "float64", TensorProto.FLOAT16: "float16",
}


def _attrs(node: onnx.NodeProto) -> dict[str, Any]:
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _upgrade(model: onnx.ModelProto) -> onnx.ModelProto:
    ver = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    if ver is None:
        raise ModelError("model has no default-domain opset import")
    if ver < OPSET:
        try:
            model = onnx.version_converter.convert_version(model, OPSET)
        except Exception as exc:  # the converter raises several unrelated types
            raise ModelError(f"cannot convert opset {ver} to {OPSET}: {exc}") from exc
    elif ver > OPSET:
        raise ModelError(f"opset {ver} is newer than the autodiff's opset {OPSET}; export at <= {OPSET}")
    return model


def _dims(tp: onnx.TypeProto) -> Shape | None:
    if not tp.tensor_type.HasField("shape"):
        return None
    return tuple(d.dim_value if d.HasField("dim_value") else None for d in tp.tensor_type.shape.dim)


def _prepare(
    forward: onnx.ModelProto, batch_dim: str | None
) -> tuple[onnx.ModelProto, dict[str, onnx.TensorProto]]:
    model = _upgrade(copy.deepcopy(forward))
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    # old-style models list initializers among the inputs as well: drop those
    keep = [i for i in g.input if i.name not in inits]
    del g.input[:]
    g.input.extend(keep)
    if batch_dim is not None:
        for vi in list(g.input) + list(g.output):
            dims = vi.type.tensor_type.shape.dim
            if len(dims) > 0:
                dims[0].Clear()
                dims[0].dim_param = batch_dim
        del g.value_info[:]
    try:
        model = onnx.shape_inference.infer_shapes(model, strict_mode=True, data_prop=True)
    except Exception as exc:
        raise ModelError(f"shape inference failed on the forward model: {exc}") from exc
    return model, inits


class _Builder:
    """Accumulates the nodes and constants of the backward + update graph."""

    def __init__(self, model: onnx.ModelProto, elem: int) -> None:
        self.elem = elem
        self.np_dtype = np.dtype(_NP_OF[elem])
        self.nodes: list[onnx.NodeProto] = []
        self.consts: list[onnx.TensorProto] = []
        self.grads: dict[str, list[str]] = {}
        self.shapes: dict[str, Shape] = {}
        self.types: dict[str, int] = {}
        self._n = 0
        g = model.graph
        for vi in list(g.input) + list(g.value_info) + list(g.output):
            s = _dims(vi.type)
            if s is not None:
                self.shapes[vi.name] = s
            self.types[vi.name] = vi.type.tensor_type.elem_type
        for t in g.initializer:
            self.shapes[t.name] = tuple(int(d) for d in t.dims)
            self.types[t.name] = t.data_type
        self.needs: set[str] = set()

    # -- naming and constants ------------------------------------------------
    def fresh(self, base: str) -> str:
        self._n += 1
        return f"bb_ad/{self._n}/{base}"

    def op(self, op_type: str, inputs: Sequence[str], n_out: int = 1, **attrs: Any) -> Any:
        outs = [self.fresh(op_type) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op_type, list(inputs), outs, name=outs[0], **attrs))
        return outs[0] if n_out == 1 else outs

    def const(self, value: np.ndarray, base: str = "c") -> str:
        name = self.fresh(base)
        self.consts.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def scalar(self, v: float) -> str:
        return self.const(np.asarray(v, dtype=self.np_dtype), "s")

    def ints(self, v: Sequence[int]) -> str:
        return self.const(np.asarray(list(v), dtype=np.int64), "i")

    def shape(self, name: str) -> Shape:
        if name not in self.shapes:
            raise ModelError(f"no inferred shape for tensor {name!r}; the autodiff needs static ranks")
        return self.shapes[name]

    # -- gradient bookkeeping -------------------------------------------------
    def add_grad(self, name: str, g: str) -> None:
        self.grads.setdefault(name, []).append(g)

    def grad(self, name: str) -> str | None:
        gs = self.grads.get(name)
        if not gs:
            return None
        if len(gs) > 1:
            self.grads[name] = [self.op("Sum", gs)]
        return self.grads[name][0]

    def reduce_to(self, g: str, src: Shape, dst: Shape) -> str:
        """Sum a broadcast gradient ``g`` (shape ``src``) down to shape ``dst``."""
        lead = len(src) - len(dst)
        if lead < 0:
            raise ModelError(f"cannot reduce a rank-{len(src)} gradient to rank {len(dst)}")
        if lead:
            g = self.op("ReduceSum", [g, self.ints(range(lead))], keepdims=0)
        keep = [i for i, d in enumerate(dst) if d == 1 and src[lead + i] != 1]
        if keep:
            g = self.op("ReduceSum", [g, self.ints(keep)], keepdims=1)
        return g

    def zeros_like(self, x: str) -> str:
        size = self.op("Reshape", [self.op("Size", [x]), self.ints([1])])
        z = self.op("ConstantOfShape", [size], value=numpy_helper.from_array(np.zeros(1, self.np_dtype)))
        return z


def _spatial(pads: Sequence[int], k: int) -> tuple[list[int], list[int]]:
    return list(pads[:k]), list(pads[k:])


def _bwd_linear_alg(b: _Builder, node: onnx.NodeProto, gy: str) -> None:
    a = _attrs(node)
    ins = list(node.input)
    y = node.output[0]
    if node.op_type == "Gemm":
        alpha, beta = float(a.get("alpha", 1.0)), float(a.get("beta", 1.0))
        ta, tb = int(a.get("transA", 0)), int(a.get("transB", 0))
        A, B = ins[0], ins[1]
        if A in b.needs:
            d = b.op("Gemm", [gy, B], alpha=alpha, transB=1 - tb)
            b.add_grad(A, b.op("Transpose", [d]) if ta else d)
        if B in b.needs:
            d = b.op("Gemm", [A, gy], alpha=alpha, transA=1 - ta)
            b.add_grad(B, b.op("Transpose", [d]) if tb else d)
        if len(ins) > 2 and ins[2] and ins[2] in b.needs:
            d = gy if beta == 1.0 else b.op("Mul", [gy, b.scalar(beta)])
            b.add_grad(ins[2], b.reduce_to(d, b.shape(y), b.shape(ins[2])))
        return
    # MatMul
    A, B = ins
    sa, sb, sy = b.shape(A), b.shape(B), b.shape(y)
    if len(sa) < 2 or len(sb) < 2:
        raise UnsupportedOpError(f"MatMul {node.name!r}: rank-1 operands are not differentiated")

    def swap(x: str, r: int) -> str:
        perm = list(range(r - 2)) + [r - 1, r - 2]
        return b.op("Transpose", [x], perm=perm)

    if A in b.needs:
        d = b.op("MatMul", [gy, swap(B, len(sb))])
        b.add_grad(A, b.reduce_to(d, sy[:-2] + sa[-2:], sa))
    if B in b.needs:
        d = b.op("MatMul", [swap(A, len(sa)), gy])
        b.add_grad(B, b.reduce_to(d, sy[:-2] + sb[-2:], sb))


def _bwd_elementwise(b: _Builder, node: onnx.NodeProto, gy: str) -> None:
    op = node.op_type
    A, B = node.input[0], node.input[1]
    y = node.output[0]
    sy = b.shape(y)
    if A in b.needs:
        if op in ("Add", "Sub"):
            d = gy
        elif op == "Mul":
            d = b.op("Mul", [gy, B])
        else:  # Div
            d = b.op("Div", [gy, B])
        b.add_grad(A, b.reduce_to(d, sy, b.shape(A)))
    if B in b.needs:
        if op == "Add":
            d = gy
        elif op == "Sub":
            d = b.op("Neg", [gy])
        elif op == "Mul":
            d = b.op("Mul", [gy, A])
        else:  # d(A/B)/dB = -y/B
            d = b.op("Neg", [b.op("Mul", [gy, b.op("Div", [y, B])])])
        b.add_grad(B, b.reduce_to(d, sy, b.shape(B)))


def _bwd_activation(b: _Builder, node: onnx.NodeProto, gy: str) -> None:
    op = node.op_type
    x, y = node.input[0], node.output[0]
    a = _attrs(node)
    if op == "Relu":
        d = b.op("Where", [b.op("Greater", [x, b.scalar(0.0)]), gy, b.scalar(0.0)])
    elif op == "LeakyRelu":
        alpha = float(a.get("alpha", 0.01))
        d = b.op("Where", [b.op("Greater", [x, b.scalar(0.0)]), gy, b.op("Mul", [gy, b.scalar(alpha)])])
    elif op == "Sigmoid":
        d = b.op("Mul", [gy, b.op("Mul", [y, b.op("Sub", [b.scalar(1.0), y])])])
    elif op == "Tanh":
        d = b.op("Mul", [gy, b.op("Sub", [b.scalar(1.0), b.op("Mul", [y, y])])])
    elif op == "Softmax":
        axis = int(a.get("axis", -1))
        s = b.op("ReduceSum", [b.op("Mul", [gy, y]), b.ints([axis])], keepdims=1)
        d = b.op("Mul", [y, b.op("Sub", [gy, s])])
    else:  # LogSoftmax
        axis = int(a.get("axis", -1))
        s = b.op("ReduceSum", [gy, b.ints([axis])], keepdims=1)
        d = b.op("Sub", [gy, b.op("Mul", [b.op("Exp", [y]), s])])
    b.add_grad(x, d)


def _bwd_shape(b: _Builder, node: onnx.NodeProto, gy: str) -> None:
    x = node.input[0]
    if node.op_type in ("Identity", "Dropout"):
        b.add_grad(x, gy)
    elif node.op_type == "Transpose":
        perm = _attrs(node).get("perm")
        r = len(b.shape(x))
        perm = list(perm) if perm is not None else list(reversed(range(r)))
        inv = [0] * r
        for i, p in enumerate(perm):
            inv[p] = i
        b.add_grad(x, b.op("Transpose", [gy], perm=inv))
    else:  # Flatten, Reshape, Squeeze, Unsqueeze
        b.add_grad(x, b.op("Reshape", [gy, b.op("Shape", [x])]))


def _conv_geometry(
    b: _Builder, node: onnx.NodeProto, x: str, kernel: Sequence[int]
) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """strides, dilations, pads (begin+end), output_padding, input spatial size."""
    a = _attrs(node)
    k = len(kernel)
    auto = a.get("auto_pad", b"NOTSET")
    auto = auto.decode() if isinstance(auto, bytes) else str(auto)
    if auto not in ("NOTSET", "VALID"):
        raise UnsupportedOpError(f"{node.op_type} {node.name!r}: auto_pad={auto} is not differentiated")
    if int(a.get("ceil_mode", 0)):
        raise UnsupportedOpError(f"{node.op_type} {node.name!r}: ceil_mode=1 is not differentiated")
    strides = list(a.get("strides", [1] * k))
    dil = list(a.get("dilations", [1] * k))
    pads = list(a.get("pads", [0] * 2 * k)) if auto == "NOTSET" else [0] * 2 * k
    sx = b.shape(x)
    hw = list(sx[2:])
    if any(d is None for d in hw):
        raise ModelError(f"{node.op_type} {node.name!r}: spatial dims of {x!r} must be static")
    pb, pe = _spatial(pads, k)
    outpad = []
    for i in range(k):
        h = int(hw[i])  # type: ignore[arg-type]
        o = (h + pb[i] + pe[i] - dil[i] * (kernel[i] - 1) - 1) // strides[i] + 1
        outpad.append(h - (strides[i] * (o - 1) + dil[i] * (kernel[i] - 1) + 1 - pb[i] - pe[i]))
    return strides, dil, pads, outpad, [int(h) for h in hw]  # type: ignore[arg-type]


def _bwd_conv(b: _Builder, node: onnx.NodeProto, gy: str) -> None:
    a = _attrs(node)
    x, w = node.input[0], node.input[1]
    sw = b.shape(w)
    if any(d is None for d in sw):
        raise ModelError(f"Conv {node.name!r}: weight shape must be static")
    kernel = [int(d) for d in sw[2:]]  # type: ignore[arg-type]
    k = len(kernel)
    group = int(a.get("group", 1))
    strides, dil, pads, outpad, hw = _conv_geometry(b, node, x, kernel)
    if x in b.needs:
        d = b.op("ConvTranspose", [gy, w], strides=strides, dilations=dil, pads=pads,
                 output_padding=outpad, group=group)
        b.add_grad(x, d)
    if w in b.needs:
        if group != 1:
            raise UnsupportedOpError(f"Conv {node.name!r}: weight gradient needs group == 1")
        perm = [1, 0] + list(range(2, 2 + k))
        xt = b.op("Transpose", [x], perm=perm)
        gt = b.op("Transpose", [gy], perm=perm)
        r = b.op("Conv", [xt, gt], strides=dil, dilations=strides, pads=pads)
        pb, pe = _spatial(pads, k)
        big = []
        for i in range(k):
            o = (hw[i] + pb[i] + pe[i] - dil[i] * (kernel[i] - 1) - 1) // strides[i] + 1
            big.append((hw[i] + pb[i] + pe[i] - strides[i] * (o - 1) - 1) // dil[i] + 1)
        if big != kernel:
            r = b.op("Slice", [r, b.ints([0] * k), b.ints(kernel), b.ints(range(2, 2 + k))])
        b.add_grad(w, b.op("Transpose", [r], perm=perm))
    if len(node.input) > 2 and node.input[2] and node.input[2] in b.needs:
        b.add_grad(node.input[2], b.op("ReduceSum", [gy, b.ints([0] + list(range(2, 2 + k)))], keepdims=0))


def _bwd_pool(b: _Builder, node: onnx.NodeProto, gy: str) -> None:
    x = node.input[0]
    a = _attrs(node)
    if node.op_type == "MaxPool":
        if int(a.get("storage_order", 0)):
            raise UnsupportedOpError(f"MaxPool {node.name!r}: storage_order=1 is not differentiated")
        idx = node.output[1]
        flat = b.op("ScatterElements", [
            b.zeros_like(x),
            b.op("Reshape", [idx, b.ints([-1])]),
            b.op("Reshape", [gy, b.ints([-1])]),
        ], axis=0, reduction="add")
        b.add_grad(x, b.op("Reshape", [flat, b.op("Shape", [x])]))
        return
    sx = b.shape(x)
    if len(sx) < 3 or sx[1] is None:
        raise ModelError(f"{node.op_type} {node.name!r}: channel dim of {x!r} must be static")
    c = int(sx[1])
    if node.op_type == "GlobalAveragePool":
        sp = sx[2:]
        if any(d is None for d in sp):
            raise ModelError(f"GlobalAveragePool {node.name!r}: spatial dims must be static")
        n = int(np.prod([int(d) for d in sp]))  # type: ignore[arg-type]
        d = b.op("Expand", [b.op("Mul", [gy, b.scalar(1.0 / n)]), b.op("Shape", [x])])
        b.add_grad(x, d)
        return
    kernel = list(a["kernel_shape"])
    strides, dil, pads, outpad, _ = _conv_geometry(b, node, x, kernel)
    if any(dil_i != 1 for dil_i in dil):
        raise UnsupportedOpError(f"AveragePool {node.name!r}: dilations are not differentiated")
    if any(pads) and not int(a.get("count_include_pad", 0)):
        raise UnsupportedOpError(
            f"AveragePool {node.name!r}: padding with count_include_pad=0 is not differentiated")
    n = int(np.prod(kernel))
    wk = np.full([c, 1] + kernel, 1.0 / n, dtype=b.np_dtype)
    d = b.op("ConvTranspose", [gy, b.const(wk, "avgk")], strides=strides, pads=pads,
             output_padding=outpad, group=c)
    b.add_grad(x, d)


_HANDLERS: dict[str, Callable[[_Builder, onnx.NodeProto, str], None]] = {
    "Gemm": _bwd_linear_alg, "MatMul": _bwd_linear_alg,
    "Add": _bwd_elementwise, "Sub": _bwd_elementwise, "Mul": _bwd_elementwise, "Div": _bwd_elementwise,
    "Relu": _bwd_activation, "LeakyRelu": _bwd_activation, "Sigmoid": _bwd_activation,
    "Tanh": _bwd_activation, "Softmax": _bwd_activation, "LogSoftmax": _bwd_activation,
    "Conv": _bwd_conv, "MaxPool": _bwd_pool, "AveragePool": _bwd_pool, "GlobalAveragePool": _bwd_pool,
    "Flatten": _bwd_shape, "Reshape": _bwd_shape, "Squeeze": _bwd_shape, "Unsqueeze": _bwd_shape,
    "Transpose": _bwd_shape, "Identity": _bwd_shape, "Dropout": _bwd_shape,
}

# inputs (by position) through which a gradient flows
_DIFF_INPUTS: dict[str, tuple[int, ...]] = {
    "Gemm": (0, 1, 2), "MatMul": (0, 1), "Add": (0, 1), "Sub": (0, 1), "Mul": (0, 1), "Div": (0, 1),
    "Conv": (0, 1, 2),
}


def _diff_inputs(node: onnx.NodeProto) -> list[str]:
    pos = _DIFF_INPUTS.get(node.op_type, (0,))
    return [node.input[i] for i in pos if i < len(node.input) and node.input[i]]


def _emit_loss(
    b: _Builder, loss: LossSpec, out: str, labels: str
) -> tuple[str, str]:
    """Emit the loss value and the gradient of the loss w.r.t. ``out``."""
    so = b.shape(out)
    if isinstance(loss, SoftmaxCrossEntropy):
        if len(so) != 2 or so[1] is None:
            raise ModelError(f"softmax cross-entropy needs logits (N, K) with static K; {out!r} is {so}")
        logp = b.op("LogSoftmax", [out], axis=1)
        if loss.labels == "index":
            depth = b.const(np.asarray(int(so[1]), np.int64), "depth")
            t = b.op("OneHot", [labels, depth, b.const(np.asarray([0, 1], b.np_dtype))], axis=-1)
            rowsum = None
        else:
            t = labels
            rowsum = b.op("ReduceSum", [t, b.ints([1])], keepdims=1)
        nll = b.op("Neg", [b.op("ReduceSum", [b.op("Mul", [t, logp]), b.ints([1])], keepdims=0)])
        value = b.op("ReduceMean", [nll], keepdims=0)
        n = b.op("Cast", [b.op("Shape", [out], start=0, end=1)], to=b.elem)
        p = b.op("Exp", [logp])
        if rowsum is not None:
            p = b.op("Mul", [p, rowsum])
        grad = b.op("Div", [b.op("Sub", [p, t]), n])
        return value, grad
    diff = b.op("Sub", [out, labels])
    value = b.op("ReduceMean", [b.op("Mul", [diff, diff])], keepdims=0)
    numel = b.op("Cast", [b.op("Size", [out])], to=b.elem)
    grad = b.op("Mul", [diff, b.op("Div", [b.scalar(2.0), numel])])
    return value, grad


def _emit_update(
    b: _Builder, opt: OptimizerSpec, params: Sequence[str], grads: Mapping[str, str]
) -> tuple[dict[str, str], dict[str, str]]:
    """Emit the optimizer update; returns (param -> new value, state key -> new value)."""
    new_p: dict[str, str] = {}
    new_s: dict[str, str] = {}
    lr = b.scalar(opt.lr)

    def wd(p: str) -> str:
        g = grads[p]
        if opt.weight_decay:
            g = b.op("Add", [g, b.op("Mul", [p, b.scalar(opt.weight_decay)])])
        return g

    if isinstance(opt, SGD):
        for p in params:
            g = wd(p)
            if opt.momentum > 0:
                mu = b.scalar(opt.momentum)
                v = b.op("Add", [b.op("Mul", [mu, "opt/m/" + p]), g])
                new_s["m/" + p] = v
                d = b.op("Add", [g, b.op("Mul", [mu, v])]) if opt.nesterov else v
            else:
                d = g
            new_p[p] = b.op("Sub", [p, b.op("Mul", [lr, d])])
        return new_p, new_s
    assert isinstance(opt, Adam | Yogi)
    t = b.op("Add", ["opt/step", b.scalar(1.0)])
    new_s["step"] = t
    bc1 = b.op("Sub", [b.scalar(1.0), b.op("Pow", [b.scalar(opt.beta1), t])])
    bc2 = b.op("Sub", [b.scalar(1.0), b.op("Pow", [b.scalar(opt.beta2), t])])
    b1, b2 = b.scalar(opt.beta1), b.scalar(opt.beta2)
    c1, c2 = b.scalar(1 - opt.beta1), b.scalar(1 - opt.beta2)
    eps = b.scalar(opt.eps)
    for p in params:
        g = wd(p)
        m = b.op("Add", [b.op("Mul", [b1, "opt/m/" + p]), b.op("Mul", [c1, g])])
        g2 = b.op("Mul", [g, g])
        v0 = "opt/v/" + p
        if isinstance(opt, Yogi):
            sgn = b.op("Sign", [b.op("Sub", [v0, g2])])
            v = b.op("Sub", [v0, b.op("Mul", [c2, b.op("Mul", [g2, sgn])])])
        else:
            v = b.op("Add", [b.op("Mul", [b2, v0]), b.op("Mul", [c2, g2])])
        step = b.op("Div", [b.op("Div", [m, bc1]), b.op("Add", [b.op("Sqrt", [b.op("Div", [v, bc2])]), eps])])
        new_p[p] = b.op("Sub", [p, b.op("Mul", [lr, step])])
        new_s["m/" + p] = m
        new_s["v/" + p] = v
    return new_p, new_s


def _vi(name: str, elem: int, shape: Shape, sym: str = "N") -> onnx.ValueInfoProto:
    dims: list[int | str] = [d if d is not None else sym for d in shape]
    return helper.make_tensor_value_info(name, elem, dims)


def build_training_step(
    forward: onnx.ModelProto,
    output: str | None = None,
    loss: LossSpec | None = None,
    optimizer: OptimizerSpec | None = None,
    *,
    params: Sequence[str] | None = None,
    input_grads: Sequence[str] = (),
    proximal_mu: float = 0.0,
    batch_dim: str | None = "N",
) -> TrainingProgram:
    """Build a training-step program from a forward model (see the module docstring).

    ``output`` defaults to the forward model's first output. ``params`` are
    the trainable initializers (default: every floating-point initializer that
    the output depends on). ``batch_dim`` makes dim 0 of the data inputs
    symbolic so any batch size runs (``None`` keeps the recorded shapes).
    Without a loss the program takes ``grad/<output>``; without an optimizer
    it returns ``grad/<p>`` instead of ``next/<p>``.
    """
    model, inits = _prepare(forward, batch_dim)
    g = model.graph
    output = output or g.output[0].name
    producers = {o: n for n in g.node for o in n.output}
    if output not in producers and output not in {i.name for i in g.input}:
        raise ModelError(f"output {output!r} is not produced by the forward graph")
    float_inits = [n for n, t in inits.items() if t.data_type in _NP_OF]
    if params is None:
        cand = float_inits
    else:
        for p in params:
            if p not in float_inits:
                raise ModelError(f"parameter {p!r} is not a floating-point initializer")
        cand = list(params)
    data_names = [i.name for i in g.input]
    for x in input_grads:
        if x not in data_names:
            raise ModelError(f"input_grads: {x!r} is not a graph input")

    # tensors on which the output depends (backward reachability)
    relevant: set[str] = {output}
    for node in reversed(g.node):
        if any(o in relevant for o in node.output):
            relevant.update(i for i in node.input if i)
    # forward: tensors that depend on a trainable leaf
    leaves = {p for p in cand if p in relevant} | set(input_grads)
    requires: set[str] = set(leaves)
    for node in g.node:
        if any(i in requires for i in _diff_inputs(node)):
            requires.update(node.output)
    if params is not None:
        missing = [p for p in cand if p not in relevant]
        if missing:
            raise ModelError(f"parameters {missing} do not affect output {output!r}")
    train = [p for p in cand if p in relevant]
    if not train and not input_grads:
        raise ModelError("nothing to differentiate: no trainable parameter reaches the output")

    elem = inits[train[0]].data_type if train else TensorProto.FLOAT
    b = _Builder(model, elem)
    b.needs = requires & relevant

    fwd_nodes = [copy.deepcopy(n) for n in g.node]
    for n in fwd_nodes:
        if n.op_type == "MaxPool" and n.output[0] in b.needs and len(n.output) == 1:
            n.output.append(b.fresh("maxpool_idx"))
        if n.op_type == "Dropout" and len(n.input) > 2 and n.input[2]:
            raise UnsupportedOpError(f"Dropout {n.name!r}: training_mode input is not supported")

    inputs: list[onnx.ValueInfoProto] = list(g.input)
    labels_spec: TensorSpec | None = None
    grad_in: TensorSpec | None = None
    so = b.shape(output)
    out_elem = b.types.get(output, elem)
    loss_value: str | None = None
    if loss is not None:
        if isinstance(loss, SoftmaxCrossEntropy) and loss.labels == "index":
            labels_spec = TensorSpec("labels", so[:1], "int64")
            inputs.append(_vi("labels", TensorProto.INT64, so[:1]))
        else:
            labels_spec = TensorSpec("labels", so, _NP_OF[out_elem])
            inputs.append(_vi("labels", out_elem, so))
        loss_value, seed = _emit_loss(b, loss, output, "labels")
    else:
        grad_in = TensorSpec("grad/" + output, so, _NP_OF[out_elem])
        inputs.append(_vi(grad_in.name, out_elem, so))
        seed = grad_in.name
    b.add_grad(output, seed)

    for node in reversed(fwd_nodes):
        outs = [o for o in node.output if o in b.needs]
        if not outs or not any(i in b.needs for i in _diff_inputs(node)):
            continue
        if node.op_type not in _HANDLERS:
            raise UnsupportedOpError(
                f"{node.op_type} ({node.name!r}) has no gradient; supported: {sorted(SUPPORTED_OPS)}")
        gy = b.grad(node.output[0])
        if gy is None:
            continue
        _HANDLERS[node.op_type](b, node, gy)

    grads: dict[str, str] = {}
    for p in train:
        gp = b.grad(p)
        if gp is None:  # pragma: no cover - reachability guarantees a gradient
            raise ModelError(f"no gradient reached parameter {p!r}")
        if proximal_mu > 0:
            gp = b.op("Add", [gp, b.op("Mul", [b.scalar(proximal_mu), b.op("Sub", [p, "global/" + p])])])
        grads[p] = gp

    param_specs = tuple(
        TensorSpec(p, tuple(int(d) for d in inits[p].dims), _NP_OF[inits[p].data_type]) for p in train
    )
    for s in param_specs:
        inputs.append(_vi(s.name, inits[s.name].data_type, s.shape))
    if proximal_mu > 0:
        for s in param_specs:
            inputs.append(_vi("global/" + s.name, inits[s.name].data_type, s.shape))

    outputs: list[onnx.ValueInfoProto] = []
    renames: list[onnx.NodeProto] = []

    def emit_out(src: str, name: str, el: int, shape: Shape) -> None:
        renames.append(helper.make_node("Identity", [src], [name], name="out/" + name))
        outputs.append(_vi(name, el, shape))

    if loss_value is not None:
        emit_out(loss_value, "loss", elem, ())
    outputs.append(_vi(output, out_elem, so))
    state_specs: list[TensorSpec] = []
    if optimizer is not None:
        new_p, new_s = _emit_update(b, optimizer, train, grads)
        for s in param_specs:
            emit_out(new_p[s.name], "next/" + s.name, inits[s.name].data_type, s.shape)
        for slot in state_slots(optimizer):
            for s in param_specs:
                key = f"{slot}/{s.name}"
                state_specs.append(TensorSpec("opt/" + key, s.shape, s.dtype))
        if uses_step(optimizer):
            state_specs.append(TensorSpec("opt/step", (), _NP_OF[elem]))
        for st in state_specs:
            inputs.append(_vi(st.name, elem, st.shape))
            emit_out(new_s[st.name[len("opt/"):]], "next/" + st.name, elem, st.shape)
    else:
        for s in param_specs:
            emit_out(grads[s.name], "grad/" + s.name, inits[s.name].data_type, s.shape)
    for x in input_grads:
        gx = b.grad(x)
        if gx is None:
            raise ModelError(f"no gradient reached input {x!r}")
        emit_out(gx, "grad/" + x, b.types.get(x, elem), b.shape(x))

    frozen = [t for n, t in inits.items() if n not in set(train)]
    graph = helper.make_graph(
        fwd_nodes + b.nodes + renames, (g.name or "forward") + ".train_step", inputs, outputs,
        initializer=frozen + b.consts,
    )
    prog = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="bb_edge.learn.autodiff",
    )
    prog.ir_version = max(8, min(int(forward.ir_version or 8), 10))
    try:
        onnx.checker.check_model(prog)
    except onnx.checker.ValidationError as exc:  # pragma: no cover - a bug in this module
        raise ModelError(f"generated training program fails onnx.checker: {exc}") from exc
    data_specs = tuple(
        TensorSpec(i.name, _dims(i.type) or (), _NP_OF.get(i.type.tensor_type.elem_type, "float32"))
        for i in g.input
    )
    return TrainingProgram(
        model=prog, params=param_specs, data_inputs=data_specs, output=output, labels=labels_spec,
        grad_input=grad_in, state=tuple(state_specs), loss=loss, optimizer=optimizer,
        proximal_mu=float(proximal_mu), input_grads=tuple(input_grads),
        initial_params={p: numpy_helper.to_array(inits[p]).copy() for p in train},
    )


def parameterized_forward(
    forward: onnx.ModelProto, params: Sequence[str] | None = None, batch_dim: str | None = "N"
) -> tuple[onnx.ModelProto, tuple[TensorSpec, ...]]:
    """The forward model with the given initializers turned into graph inputs.

    One session of the result evaluates any parameter vector (the global
    model of a round, a peer's model) without rebuilding the model.
    """
    model, inits = _prepare(forward, batch_dim)
    names = list(params) if params is not None else [n for n, t in inits.items() if t.data_type in _NP_OF]
    specs = tuple(TensorSpec(n, tuple(int(d) for d in inits[n].dims), _NP_OF[inits[n].data_type])
                  for n in names)
    g = model.graph
    keep = [t for n, t in inits.items() if n not in set(names)]
    del g.initializer[:]
    g.initializer.extend(keep)
    for s in specs:
        g.input.append(_vi(s.name, inits[s.name].data_type, s.shape))
    del g.value_info[:]
    model.ir_version = max(8, min(int(forward.ir_version or 8), 10))
    onnx.checker.check_model(model)
    return model, specs


def with_params(forward: onnx.ModelProto, params: Mapping[str, np.ndarray]) -> onnx.ModelProto:
    """A copy of ``forward`` whose initializers are replaced by ``params``."""
    model = copy.deepcopy(forward)
    for t in model.graph.initializer:
        if t.name in params:
            arr = np.asarray(params[t.name]).astype(_NP_OF.get(t.data_type, "float32"))
            t.CopyFrom(numpy_helper.from_array(arr.reshape(tuple(t.dims)), t.name))
    return model


class Session(Protocol):
    """What a backend session must offer (``InferenceSession`` and ``ReferenceEvaluator`` both do)."""

    def run(self, output_names: Any, feeds: Any, /) -> Any:
        """Run the model; return the outputs in the order of ``output_names``."""
        ...


def make_session(model: onnx.ModelProto, backend: Literal["ort", "reference"] = "ort") -> Session:
    """Open a session on ONNX Runtime (CPU) or the ONNX reference evaluator."""
    if backend == "ort":
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        sess: Session = ort.InferenceSession(
            model.SerializeToString(), sess_options=opts, providers=["CPUExecutionProvider"])
        return sess
    if backend == "reference":
        from onnx.reference import ReferenceEvaluator

        ref: Session = ReferenceEvaluator(model)
        return ref
    raise ValueError(f"unknown backend {backend!r}; use 'ort' or 'reference'")


class Trainer:
    """Runs training steps of a :class:`TrainingProgram` on a backend session.

    Holds the current parameters and optimizer state; ``vector()`` /
    ``load_vector()`` move the parameters to and from the wire layout.
    """

    def __init__(
        self,
        program: TrainingProgram,
        session: Session | None = None,
        params: Mapping[str, np.ndarray] | None = None,
    ) -> None:
        if program.loss is None or program.optimizer is None:
            raise ValueError("Trainer needs a program built with a loss and an optimizer")
        self.program = program
        self.session = session if session is not None else make_session(program.model)
        self.layout = program.layout
        self.params: dict[str, np.ndarray] = {
            k: np.array(v) for k, v in (params or program.initial_params).items()}
        self.state: dict[str, np.ndarray] = program.initial_state()
        self.global_params: dict[str, np.ndarray] | None = None
        self.steps = 0
        self._outs = ["loss", *program.param_outputs, *program.state_outputs]

    def reset_state(self) -> None:
        """Zero the optimizer state (e.g. at the start of a federated round)."""
        self.state = self.program.initial_state()

    def vector(self) -> np.ndarray:
        """Current parameters as one float32 vector."""
        return self.layout.flatten(self.params)

    def load_vector(self, vec: np.ndarray) -> None:
        """Replace the parameters from a float32 vector (wire layout)."""
        self.params = self.layout.unflatten(vec)

    def set_global(self, vec: np.ndarray) -> None:
        """Set the anchor of the FedProx proximal term (programs with ``proximal_mu > 0``)."""
        self.global_params = self.layout.unflatten(vec)

    def feeds(self, x: np.ndarray | Mapping[str, np.ndarray], labels: np.ndarray) -> dict[str, np.ndarray]:
        """The input dict of one step for batch ``x`` (array or name -> array) and ``labels``."""
        prog = self.program
        feeds: dict[str, np.ndarray] = {}
        if isinstance(x, Mapping):
            feeds.update(x)
        else:
            feeds[prog.data_inputs[0].name] = np.asarray(x, dtype=prog.data_inputs[0].dtype)
        assert prog.labels is not None
        feeds["labels"] = np.asarray(labels, dtype=prog.labels.dtype)
        feeds.update(self.params)
        if prog.proximal_mu > 0:
            anchor = self.global_params if self.global_params is not None else self.params
            feeds.update({"global/" + k: v for k, v in anchor.items()})
        feeds.update({"opt/" + k: v for k, v in self.state.items()})
        return feeds

    def step(self, x: np.ndarray | Mapping[str, np.ndarray], labels: np.ndarray) -> float:
        """Run one step on a batch; updates parameters and state, returns the loss."""
        res = self.session.run(self._outs, self.feeds(x, labels))
        n = len(self.program.params)
        self.params = {s.name: np.asarray(r) for s, r in zip(self.program.params, res[1:1 + n], strict=True)}
        self.state = {s.name[len("opt/"):]: np.asarray(r)
                      for s, r in zip(self.program.state, res[1 + n:], strict=True)}
        self.steps += 1
        return float(res[0])

    def epoch(
        self, x: np.ndarray, y: np.ndarray, batch_size: int, rng: np.random.Generator
    ) -> float:
        """One pass over ``(x, y)`` in shuffled mini-batches; returns the mean loss."""
        order = rng.permutation(len(x))
        losses = [self.step(x[order[i:i + batch_size]], y[order[i:i + batch_size]])
                  for i in range(0, len(x), batch_size)]
        return float(np.mean(losses)) if losses else float("nan")


class ForwardRunner:
    """Evaluates a forward model for any parameter dict or vector (one session)."""

    def __init__(
        self,
        forward: onnx.ModelProto,
        params: Iterable[str] | None = None,
        backend: Literal["ort", "reference"] = "ort",
        output: str | None = None,
    ) -> None:
        self.model, self.specs = parameterized_forward(forward, list(params) if params is not None else None)
        self.layout = ParamLayout(self.specs)
        self.session = make_session(self.model, backend)
        self.output = output or self.model.graph.output[0].name
        self.input = next(i.name for i in self.model.graph.input if i.name not in self.layout.offsets)

    def __call__(self, x: np.ndarray, params: Mapping[str, np.ndarray] | np.ndarray) -> np.ndarray:
        """Forward output for batch ``x`` under ``params`` (dict or flat vector)."""
        p = self.layout.unflatten(params) if isinstance(params, np.ndarray) else dict(params)
        return np.asarray(self.session.run([self.output], {self.input: x, **p})[0])

    def accuracy(self, x: np.ndarray, y: np.ndarray, params: Mapping[str, np.ndarray] | np.ndarray) -> float:
        """Top-1 accuracy of the logits against integer labels ``y``."""
        return float(np.mean(np.argmax(self(x, params), axis=1) == y))
