"""Reverse-mode rules: the graph builder and one vector-Jacobian-product rule per supported op.

Each ``_bwd_*`` rule reads the upstream gradient of a node's output and adds
the gradients of its differentiable inputs to the :class:`_Builder`; the
forward model is prepared (opset upgrade, shape inference) by :func:`_prepare`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from bb_edge.errors import ModelError, UnsupportedOpError
from bb_edge.training.program import OPSET, Shape

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
