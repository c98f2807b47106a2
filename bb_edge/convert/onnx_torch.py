"""A standard-ONNX compute model as a ``torch.nn.Module``, for ``torch.export`` and ExecuTorch.

Why not onnx2torch: it imports torchvision, and PyPI's torchvision is a CUDA
build that does not import next to the CPU torch wheel (``torch==2.13.0+cpu``).
This converter needs only torch: the module interprets the ONNX graph node by
node with ``torch.nn.functional`` calls, initializers become (frozen)
parameters, and ``torch.export`` traces it into a clean ATen graph that the
XNNPACK partitioner lowers. Ops outside :data:`SUPPORTED_OPS` raise
:class:`~bb_edge.errors.UnsupportedOpError` naming the op and the node.

Why one file: the interpreter, its conversion-time pre-passes (constant If inlining, static-shape folding),
the up-front check and the basic op table must agree on one thing, which inputs are read as constants
(``_STATIC_INPUTS``); the newer ops live in :mod:`bb_edge.convert.torch_ops`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import helper, numpy_helper

from bb_edge.convert.torch_contrib import CONTRIB, CONTRIB_OPS, has_dynamic_attention, shape
from bb_edge.convert.torch_control import (
    CONTROL_OPS,
    control_module,
    loop_reads_condition,
    nested_unsupported,
    structural_refusal,
    value_types,
)
from bb_edge.convert.torch_dynamic import leading_axes
from bb_edge.convert.torch_ops import EXTRA, STATIC_INPUTS, same_pads
from bb_edge.convert.torch_ops_more import ML_OPS, max_pool_with_indices
from bb_edge.convert.torch_seq import (
    SEQ_MAP,
    SEQ_OPS,
    SEQ_STATIC_INPUTS,
    elem_dtype,
    flatten_optional,
    flatten_output,
    is_sequence,
    optional_inner,
    run_sequence_map,
    sequence_inputs,
)
from bb_edge.errors import UnsupportedOpError
from bb_edge.ir.rewrite import constant_value, constant_values, inline_static_ifs

Tensor = torch.Tensor
OpFn = Callable[[list[Any], dict[str, Any]], list[Tensor]]


def _attrs(node: onnx.NodeProto) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for a in node.attribute:
        v = helper.get_attribute_value(a)
        if isinstance(v, bytes):
            v = v.decode()
        elif isinstance(v, onnx.TensorProto):
            v = numpy_helper.to_array(v)
        out[a.name] = v
    return out


def _pads2d(a: dict[str, Any], rank: int) -> tuple[list[int], list[int] | None]:
    """(symmetric padding per spatial dim, explicit F.pad list or None)."""
    auto = a.get("auto_pad", "NOTSET")
    if auto not in ("NOTSET", "VALID"):
        raise UnsupportedOpError(f"auto_pad={auto} is not supported by the torch converter; "
                                 "re-export the model with explicit pads")
    pads = list(a.get("pads", [0] * (2 * rank))) if auto == "NOTSET" else [0] * (2 * rank)
    begin, end = pads[:rank], pads[rank:]
    if begin == end:
        return begin, None
    fpad: list[int] = []
    for b, e in zip(reversed(begin), reversed(end)):
        fpad += [b, e]
    return [0] * rank, fpad


def _conv(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    w = x[1]
    rank = w.dim() - 2
    a = same_pads(a, [int(s) for s in x[0].shape[2:]], [int(s) for s in a.get("kernel_shape", w.shape[2:])])
    pad, fpad = _pads2d(a, rank)
    inp = F.pad(x[0], fpad) if fpad else x[0]
    fn = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[rank]
    b = x[2] if len(x) > 2 and x[2] is not None else None
    return [fn(inp, w, b, stride=a.get("strides", [1] * rank), padding=pad,
               dilation=a.get("dilations", [1] * rank), groups=a.get("group", 1))]


def _pool(kind: str) -> OpFn:
    def run(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
        k = list(a["kernel_shape"])
        rank = len(k)
        a = same_pads(a, [int(s) for s in x[0].shape[2:]], k)
        pad, fpad = _pads2d(a, rank)
        dil = [int(d) for d in a.get("dilations", [1] * rank)]
        if rank > 2 or any(2 * p > (kk - 1) * d + 1 for p, kk, d in zip(pad, k, dil)) or (
                kind == "avg" and (fpad or dil != [1] * rank)):
            return [_pool_general(kind, x[0], a, k, dil)]
        inp = x[0]
        if fpad:
            inp = F.pad(inp, fpad, value=float("-inf") if kind == "max" else 0.0)
        strides = a.get("strides", [1] * rank)
        ceil = bool(a.get("ceil_mode", 0))
        if kind == "max":
            fn = {1: F.max_pool1d, 2: F.max_pool2d}[rank]
            return [fn(inp, k, strides, pad, dil, ceil)]
        fn2 = {1: F.avg_pool1d, 2: F.avg_pool2d}[rank]
        return [fn2(inp, k, strides, pad, ceil, bool(a.get("count_include_pad", 0)))]
    return run


def _pool_general(kind: str, x: Tensor, a: dict[str, Any], k: list[int], dil: list[int]) -> Tensor:
    """Pooling with explicit padding: any pads, dilations, ceil_mode, 1-3 spatial dims (onnx reference sizes)."""
    rank = len(k)
    ins = [int(s) for s in x.shape[2:]]
    explicit = a.get("auto_pad", "NOTSET") == "NOTSET"
    pads = [int(p) for p in a.get("pads", [0] * 2 * rank)] if explicit else [0] * 2 * rank
    st = [int(s) for s in a.get("strides", [1] * rank)]
    ceil = bool(a.get("ceil_mode", 0))
    fpad_x: list[int] = []
    fpad_m: list[int] = []
    include = bool(a.get("count_include_pad", 0))
    extra = []
    for i in range(rank):
        dk = (k[i] - 1) * dil[i] + 1
        span = ins[i] + pads[i] + pads[rank + i] - dk
        out = (-(-span // st[i]) if ceil else span // st[i]) + 1
        if ceil and (out - 1) * st[i] >= ins[i] + pads[i]:
            out -= 1
        extra.append(max(0, (out - 1) * st[i] + dk - (ins[i] + pads[i] + pads[rank + i])))
    for i in reversed(range(rank)):
        fpad_x += [pads[i], pads[rank + i] + extra[i]]
    if kind == "max":
        xp = F.pad(x, fpad_x, value=float("-inf"))
        if rank < 3:
            return {1: F.max_pool1d, 2: F.max_pool2d}[rank](xp, k, st, 0, dil, False)
        # 3-D: ExecuTorch has no max_pool3d kernel; 2-D pools over (H, W), then a max over depth windows
        n, c, d = int(xp.shape[0]), int(xp.shape[1]), int(xp.shape[2])
        hw = F.max_pool2d(xp.reshape(n, c * d, *xp.shape[3:]), k[1:], st[1:], 0, dil[1:], False)
        hw = hw.reshape(n, c, d, *hw.shape[2:])
        depth = [torch.amax(hw[:, :, o * st[0]:o * st[0] + (k[0] - 1) * dil[0] + 1:dil[0]], dim=2)
                 for o in range((d - (k[0] - 1) * dil[0] - 1) // st[0] + 1)]
        return torch.stack(depth, 2)
    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[rank]
    c = int(x.shape[1])
    if rank == 3:  # ExecuTorch runs no conv3d here: separable sums of strided slices
        total = _window_sum(F.pad(x, fpad_x), k, st, dil)
    else:
        total = conv(F.pad(x, fpad_x), torch.ones([c, 1, *k], dtype=x.dtype), None, st, 0, dil, c)
    mask = torch.ones([1, 1, *ins], dtype=x.dtype)
    if include:  # pads count, the ceil_mode overhang does not
        mask = F.pad(mask, [p for i in reversed(range(rank)) for p in (pads[i], pads[rank + i])], value=1.0)
        for i in reversed(range(rank)):
            fpad_m += [0, extra[i]]
    else:
        fpad_m = fpad_x
    if rank == 3:
        count = _window_sum(F.pad(mask, fpad_m), k, st, dil)
    else:
        count = conv(F.pad(mask, fpad_m), torch.ones([1, 1, *k], dtype=x.dtype), None, st, 0, dil)
    return total / count


def _window_sum(x: Tensor, k: list[int], st: list[int], dil: list[int]) -> Tensor:
    """Sum over every pooling window of the (already padded) spatial dims, one dim at a time."""
    for i, (kk, s, d) in enumerate(zip(k, st, dil)):
        ax = 2 + i
        n = int(x.shape[ax])
        out = (n - (kk - 1) * d - 1) // s + 1
        acc = None
        for j in range(kk):
            idx = torch.arange(j * d, j * d + (out - 1) * s + 1, s)
            part = torch.index_select(x, ax, idx)
            acc = part if acc is None else acc + part
        assert acc is not None
        x = acc
    return x


def _gemm(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    A = x[0].transpose(0, 1) if a.get("transA", 0) else x[0]
    B = x[1].transpose(0, 1) if a.get("transB", 0) else x[1]
    y = torch.matmul(A, B) * a.get("alpha", 1.0)
    if len(x) > 2 and x[2] is not None:
        y = y + x[2] * a.get("beta", 1.0)
    return [y]


def _softmax(x: list[Any], a: dict[str, Any], opset: int) -> list[Tensor]:
    axis = a.get("axis", -1 if opset >= 13 else 1)
    t = x[0]
    if opset < 13 and t.dim() > 2:  # old semantics: flatten from axis, softmax, restore
        ax = axis % t.dim()
        shape = t.shape
        return [torch.softmax(t.reshape(int(np.prod(shape[:ax])), -1), dim=1).reshape(shape)]
    return [torch.softmax(t, dim=axis)]


def _reshape(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    shape = [int(s) for s in x[1].tolist()]
    if not a.get("allowzero", 0):
        shape = [x[0].shape[i] if s == 0 else s for i, s in enumerate(shape)]
    return [x[0].reshape(shape)]


def _flatten(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    ax = a.get("axis", 1) % max(x[0].dim(), 1)
    lead = int(np.prod(x[0].shape[:ax])) if ax else 1
    return [x[0].reshape(lead, -1)]


def _bn(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    return [F.batch_norm(x[0], x[3], x[4], x[1], x[2], False, 0.0, a.get("epsilon", 1e-5))]


def _clip(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    lo = x[1] if len(x) > 1 and x[1] is not None else a.get("min")
    hi = x[2] if len(x) > 2 and x[2] is not None else a.get("max")
    if lo is None and hi is None:
        return [x[0]]
    conv = float if x[0].dtype.is_floating_point else int
    lo_f = conv(np.asarray(lo).reshape(-1)[0]) if lo is not None and np.size(lo) else None
    hi_f = conv(np.asarray(hi).reshape(-1)[0]) if hi is not None and np.size(hi) else None
    if lo_f is None and hi_f is None:
        return [x[0]]
    return [torch.clamp(x[0], lo_f, hi_f)]


def _axes(x: list[Any], a: dict[str, Any]) -> list[int]:
    if "axes" in a:
        return [int(v) for v in a["axes"]]
    return [int(v) for v in np.asarray(x[1]).reshape(-1)] if len(x) > 1 and x[1] is not None else []


def _squeeze(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    axes = _axes(x, a)
    t = x[0]
    if not axes:
        return [t.squeeze()]
    for ax in sorted((v % t.dim() for v in axes), reverse=True):
        t = t.squeeze(ax)
    return [t]


def _unsqueeze(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    t = x[0]
    rank = t.dim() + len(_axes(x, a))
    for ax in sorted(v % rank for v in _axes(x, a)):
        t = t.unsqueeze(ax)
    return [t]


def _reduce_mean(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    axes = _axes(x, a) or list(range(x[0].dim()))
    return [torch.mean(x[0], dim=axes, keepdim=bool(a.get("keepdims", 1)))]


def _lrn(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    return [F.local_response_norm(x[0], int(a["size"]), a.get("alpha", 1e-4), a.get("beta", 0.75), a.get("bias", 1.0))]


def _reduce(fn: Callable[..., Tensor]) -> OpFn:
    def run(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
        axes = _axes(x, a)
        if not axes and a.get("noop_with_empty_axes", 0):
            return [x[0]]
        return [fn(x[0], dim=axes or list(range(x[0].dim())), keepdim=bool(a.get("keepdims", 1)))]
    return run


def _slice(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    t = x[0]
    starts = [int(v) for v in x[1].tolist()]
    ends = [int(v) for v in x[2].tolist()]
    axes = [int(v) for v in x[3].tolist()] if len(x) > 3 and x[3] is not None else list(range(len(starts)))
    steps = [int(v) for v in x[4].tolist()] if len(x) > 4 and x[4] is not None else [1] * len(starts)
    index: list[Any] = [slice(None)] * t.dim()
    for st, en, ax, sp in zip(starts, ends, axes, steps, strict=True):
        if sp < 0:  # constant indices (ONNX clamps like Python's slice)
            n = int(t.shape[ax])
            st = max(-1, min(n - 1, st + n if st < 0 else st))
            en = max(-1, min(n - 1, en + n if en < 0 else en))
            idx = np.arange(st, en, sp, dtype=np.int64)
            t = torch.index_select(t, ax % t.dim(), torch.from_numpy(idx))
            continue
        n = t.shape[ax]
        if isinstance(n, torch.SymInt):  # a dynamic dim: torch's slice clamps (Python min() would add guards)
            index[ax % t.dim()] = slice(st, None if en >= 2**62 else en, sp)
            continue
        st = max(0, min(n, st + n if st < 0 else st))
        en = max(0, min(n, en + n if en < 0 else en))
        index[ax % t.dim()] = slice(st, en, sp)
    return [t[tuple(index)]]


def _pad(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    mode = str(a.get("mode", "constant"))
    rank = x[0].dim()
    raw = [int(v) for v in np.asarray(x[1] if len(x) > 1 and x[1] is not None else a.get("pads", [])).reshape(-1)]
    axes = ([int(v) % rank for v in np.asarray(x[3]).reshape(-1)] if len(x) > 3 and x[3] is not None
            else list(range(rank)))
    begin, end = [0] * rank, [0] * rank
    for i, ax in enumerate(axes):
        begin[ax], end[ax] = raw[i], raw[i + len(axes)]
    value = float(np.asarray(x[2]).reshape(-1)[0]) if len(x) > 2 and x[2] is not None and np.size(x[2]) else (
        float(a.get("value", 0.0)))
    fpad: list[int] = []
    for d in reversed(range(rank)):
        fpad += [begin[d], end[d]]
    if mode == "constant":
        return [F.pad(x[0], fpad, value=value)]
    tmode = {"edge": "replicate", "reflect": "reflect", "wrap": "circular"}.get(mode)
    if tmode is None:
        raise UnsupportedOpError(f"Pad mode={mode} is not supported by the torch converter")
    lead = next((d for d in range(rank) if begin[d] or end[d]), rank)
    if rank - lead > 3 or lead == 0:  # torch pads the last 1-3 dims of a batched tensor
        if tmode != "circular" and rank - lead <= 3:
            pass
        else:
            raise UnsupportedOpError(f"Pad mode={mode} over {rank - lead} leading dims is not supported")
    t = x[0]
    keep = max(lead, 1) if rank - lead < 3 else lead
    shape = list(t.shape)
    squeezed = t.reshape(1, int(np.prod(shape[:keep])), *shape[keep:]) if keep else t.unsqueeze(0)
    y = F.pad(squeezed, fpad[: 2 * (rank - keep)], mode=tmode)
    return [y.reshape(*shape[:keep], *y.shape[2:])]


def _split(x: list[Any], a: dict[str, Any], n_out: int) -> list[Tensor]:
    ax = int(a.get("axis", 0))
    if len(x) > 1 and x[1] is not None:
        sizes = [int(v) for v in x[1].tolist()]
    elif "split" in a:
        sizes = [int(v) for v in a["split"]]
    else:
        total = x[0].shape[ax]
        k = -(-total // n_out)
        sizes = [min(k, total - i * k) for i in range(n_out)]
    return list(torch.split(x[0], sizes, dim=ax))


def _layer_norm(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    ax = int(a.get("axis", -1)) % x[0].dim()
    shape = list(x[0].shape[ax:])
    bias = x[2] if len(x) > 2 else None
    eps = float(a.get("epsilon", 1e-5))
    y = F.layer_norm(x[0], shape, x[1], bias, eps)
    dims = list(range(ax, x[0].dim()))
    mean = torch.mean(x[0], dim=dims, keepdim=True)
    inv = torch.rsqrt(torch.mean((x[0] - mean) ** 2, dim=dims, keepdim=True) + eps)
    return [y, mean, inv]  # Mean and InvStdDev: the optional outputs


def _gather(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    ax = int(a.get("axis", 0)) % x[0].dim()
    idx = x[1].long()
    idx = torch.where(idx < 0, idx + x[0].shape[ax], idx)
    out = torch.index_select(x[0], ax, idx.reshape(-1))
    return [out.reshape([*x[0].shape[:ax], *idx.shape, *x[0].shape[ax + 1:]])]  # a list: 0-d results too


#: ONNX TensorProto element types -> torch dtypes (Cast)
_TORCH_DTYPES = {1: torch.float32, 2: torch.uint8, 3: torch.int8, 5: torch.int16, 6: torch.int32, 7: torch.int64,
                 9: torch.bool, 10: torch.float16, 11: torch.float64, 16: torch.bfloat16}

#: unsigned ONNX types -> the signed torch dtype that carries them in a program (torch_exact.WIDE)
_WIDE_TORCH = {4: torch.int32, 12: torch.int64, 13: torch.int64}


def _cast(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
    to = int(a["to"])
    if to in _WIDE_TORCH:  # unsigned 16/32/64: the program's wider signed type (masked by the interpreter)
        return [x[0].to(_WIDE_TORCH[to])]
    if to not in _TORCH_DTYPES:
        raise UnsupportedOpError(f"Cast to ONNX type {to} is not supported by the torch converter")
    return [x[0].to(_TORCH_DTYPES[to])]


def _variadic(fn: Callable[[Tensor, Tensor], Tensor]) -> OpFn:
    def run(x: list[Any], a: dict[str, Any]) -> list[Tensor]:
        out = x[0]
        for t in x[1:]:
            out = fn(out, t)
        return [out]
    return run


_SIMPLE: dict[str, OpFn] = {
    "PRelu": lambda x, a: [torch.where(x[0] >= 0, x[0], x[0] * x[1])],
    "Elu": lambda x, a: [F.elu(x[0], float(a.get("alpha", 1.0)))],
    "Selu": lambda x, a: [float(a.get("gamma", 1.0507009873554805)) * torch.where(
        x[0] > 0, x[0], float(a.get("alpha", 1.6732632423543772)) * (torch.exp(x[0]) - 1))],
    "HardSigmoid": lambda x, a: [torch.clamp(float(a.get("alpha", 0.2)) * x[0] + float(a.get("beta", 0.5)), 0, 1)],
    "HardSwish": lambda x, a: [F.hardswish(x[0])],
    "Softplus": lambda x, a: [F.softplus(x[0])],
    "Erf": lambda x, a: [torch.erf(x[0])],
    "Exp": lambda x, a: [torch.exp(x[0])],
    "Log": lambda x, a: [torch.log(x[0])],
    "Sqrt": lambda x, a: [torch.sqrt(x[0])],
    "Abs": lambda x, a: [torch.abs(x[0])],
    "Neg": lambda x, a: [torch.neg(x[0])],
    "Reciprocal": lambda x, a: [torch.reciprocal(x[0])],
    "Pow": lambda x, a: [torch.pow(x[0], x[1]).to(x[0].dtype)],
    "Equal": lambda x, a: [torch.eq(x[0], x[1])],
    "Less": lambda x, a: [torch.lt(x[0], x[1])],
    "Greater": lambda x, a: [torch.gt(x[0], x[1])],
    "Not": lambda x, a: [torch.logical_not(x[0])],
    "And": lambda x, a: [torch.logical_and(x[0], x[1])],
    "Or": lambda x, a: [torch.logical_or(x[0], x[1])],
    "Where": lambda x, a: [torch.where(x[0].bool(), x[1], x[2])],
    "Cast": _cast,
    "Max": _variadic(torch.maximum),
    "Min": _variadic(torch.minimum),
    "Sum": _variadic(torch.add),
    "ReduceSum": _reduce(torch.sum),
    "ReduceMax": _reduce(torch.amax),
    "ReduceMin": _reduce(torch.amin),
    "Slice": _slice,
    "Pad": _pad,
    "LayerNormalization": _layer_norm,
    "Gather": _gather,
    "Expand": lambda x, a: [x[0] * torch.ones([int(v) for v in x[1].tolist()], dtype=x[0].dtype)],
    "Trilu": lambda x, a: [torch.triu(x[0], int(x[1].item()) if len(x) > 1 and x[1] is not None else 0)
                           if a.get("upper", 1) else
                           torch.tril(x[0], int(x[1].item()) if len(x) > 1 and x[1] is not None else 0)],

    "Conv": _conv,
    "Relu": lambda x, a: [torch.relu(x[0])],
    "LeakyRelu": lambda x, a: [F.leaky_relu(x[0], a.get("alpha", 0.01))],
    "Sigmoid": lambda x, a: [torch.sigmoid(x[0])],
    "Tanh": lambda x, a: [torch.tanh(x[0])],
    "Identity": lambda x, a: [x[0]],
    "Dropout": lambda x, a: [x[0], torch.ones_like(x[0], dtype=torch.bool)],
    "CastLike": lambda x, a: [x[0].to(x[1].dtype)],
    "MaxPool": _pool("max"),
    "AveragePool": _pool("avg"),
    "GlobalAveragePool": lambda x, a: [torch.mean(x[0], dim=list(range(2, x[0].dim())), keepdim=True)],
    "GlobalMaxPool": lambda x, a: [torch.amax(x[0], dim=list(range(2, x[0].dim())), keepdim=True)],
    "Concat": lambda x, a: [torch.cat(list(x), dim=a["axis"])],
    "Gemm": _gemm,
    "MatMul": lambda x, a: [torch.matmul(x[0], x[1])],
    "Add": lambda x, a: [x[0] + x[1]],
    "Sub": lambda x, a: [x[0] - x[1]],
    "Mul": lambda x, a: [x[0] * x[1]],
    "Div": lambda x, a: [x[0] / x[1] if x[0].dtype.is_floating_point else
                         torch.div(x[0], x[1], rounding_mode="trunc")],
    "Flatten": _flatten,
    "Reshape": _reshape,
    "BatchNormalization": _bn,
    "Clip": _clip,
    "Transpose": lambda x, a: [x[0].permute(*(a.get("perm") or reversed(range(x[0].dim()))))],
    "Squeeze": _squeeze,
    "Unsqueeze": _unsqueeze,
    "ReduceMean": _reduce_mean,
    "LRN": _lrn,
}
_SIMPLE.update(EXTRA)
_SIMPLE.update(SEQ_OPS)
_SIMPLE.update(CONTRIB)
#: (domain, op) pairs outside the default domain the converter takes
_DOMAIN_OPS = ML_OPS | CONTRIB_OPS
SUPPORTED_OPS = frozenset(_SIMPLE) | {"Softmax", "Constant", "Split", SEQ_MAP} | CONTROL_OPS
# inputs read as Python values at conversion time (shapes/axes/pads), not traced tensors
_STATIC_INPUTS = {"Reshape": {1}, "Squeeze": {1}, "Unsqueeze": {1}, "ReduceMean": {1}, "ReduceSum": {1},
                  "ReduceMax": {1}, "ReduceMin": {1}, "Slice": {1, 2, 3, 4}, "Pad": {1, 2, 3}, "Split": {1},
                  "Expand": {1}, "Trilu": {1}, "Clip": {1, 2}, "Loop": {0}, **STATIC_INPUTS, **SEQ_STATIC_INPUTS}


def _constant(n: onnx.NodeProto) -> np.ndarray:
    """The value of a Constant node; UnsupportedOpError for a form the converter cannot carry."""
    v = constant_value(n)
    if v is None:
        raise UnsupportedOpError(f"Constant with {sorted(a.name for a in n.attribute)} is not supported by "
                                 f"the torch converter")
    return v


#: ops never folded at conversion time (random, or values the graph must compute per run)
_NO_FOLD = {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial", "Bernoulli",
            "If", "Loop", "Scan", SEQ_MAP, *SEQ_OPS}


def fold_static(model: onnx.ModelProto) -> onnx.ModelProto:
    """The model with Shape/Size of static shapes and every node of constant inputs replaced by initializers.

    Input shapes are static at export, so shape plumbing is constant here: what ``compile --input-shape``
    folding does for a deployment, done again on the node the converter gets. Repeated until nothing
    changes (a folded value can make a later shape or If condition static); zero-size graph inputs count as
    constants.
    """
    model = _empty_inputs_as_constants(model)
    for _ in range(16):
        folded = _fold_once(inline_static_ifs(model))  # a folded condition can make an If static
        if folded is model:
            break
        model = folded
    return model


def _static_shape(vi: onnx.ValueInfoProto) -> list[int] | None:
    t = vi.type
    if not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    d = t.tensor_type.shape.dim
    return [x.dim_value for x in d] if all(x.HasField("dim_value") for x in d) else None


def _empty_inputs_as_constants(model: onnx.ModelProto) -> onnx.ModelProto:
    """Graph inputs of a static zero-size shape (their one possible value) turned into initializers."""
    inits = {t.name for t in model.graph.initializer}
    empty = [vi for vi in model.graph.input if vi.name not in inits and 0 in (_static_shape(vi) or [1])]
    if not empty:
        return model
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for vi in empty:
        dt = helper.tensor_dtype_to_np_dtype(vi.type.tensor_type.elem_type)
        m.graph.initializer.append(numpy_helper.from_array(np.zeros(_static_shape(vi) or [0], dt), vi.name))
    keep = [vi for vi in m.graph.input if vi.name not in {e.name for e in empty}]
    del m.graph.input[:]
    m.graph.input.extend(keep)
    return m


def _fold_once(model: onnx.ModelProto) -> onnx.ModelProto:
    from onnx.reference import ReferenceEvaluator

    try:
        inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
    except Exception:  # noqa: BLE001 - folding is an optimisation; without shapes fold constants only
        inferred = model
    g = inferred.graph
    shapes: dict[str, list[int] | None] = {}
    types = {vi.name: vi.type.tensor_type.elem_type for vi in list(g.input) + list(g.value_info) + list(g.output)
             if vi.type.HasField("tensor_type")}
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        if vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape"):
            d = vi.type.tensor_type.shape.dim
            shapes[vi.name] = [x.dim_value for x in d] if all(x.HasField("dim_value") for x in d) else None
    consts = constant_values(model.graph)
    keep: list[onnx.NodeProto] = []
    new: dict[str, np.ndarray] = {}
    opset = [o for o in model.opset_import]
    pinned = sequence_inputs(model, strict=False)
    for n in model.graph.node:  # an element taken at a constant position of a pinned sequence: its shape
        if n.op_type == "SequenceAt" and n.input[0] in pinned and n.input[1] in consts:
            elems = pinned[n.input[0]]
            k = int(np.asarray(consts[n.input[1]]).reshape(-1)[0])
            if -len(elems) <= k < len(elems):
                shapes[n.output[0]] = elems[k][1]
    for n in model.graph.node:
        val: list[np.ndarray] | None = None
        if n.op_type == "SequenceLength" and n.input[0] in pinned:  # a pinned sequence's length is static
            val = [np.array(len(pinned[n.input[0]]), np.int64)]
        elif n.op_type in ("Shape", "Size") and n.domain in ("", "ai.onnx") and shapes.get(n.input[0]) is not None:
            shp = np.array(shapes[n.input[0]], np.int64)
            if n.op_type == "Size":
                val = [np.array(int(np.prod(shp)), np.int64)]
            else:
                a = _attrs(n)
                r = len(shp)
                start, end = int(a.get("start", 0)), int(a.get("end", r))
                start, end = (max(0, min(r, v + r if v < 0 else v)) for v in (start, end))
                val = [shp[start:end]]
        elif (n.op_type == "CastLike" and n.input[0] in consts and types.get(n.input[1]) is not None
              and types[n.input[1]] != onnx.TensorProto.UNDEFINED and types[n.input[1]] not in (8, 16)):
            val = [np.asarray(consts[n.input[0]]).astype(helper.tensor_dtype_to_np_dtype(types[n.input[1]]))]
        elif (n.op_type not in _NO_FOLD and n.op_type != "Constant" and n.domain in ("", "ai.onnx")
              and n.input and all(not x or x in consts for x in n.input)
              and not any(a.type == onnx.AttributeProto.GRAPH for a in n.attribute)):
            try:
                sub = helper.make_model(helper.make_graph(
                    [n], "fold", [], [helper.make_tensor_value_info(o, onnx.TensorProto.UNDEFINED, None)
                                      for o in n.output if o],
                    [numpy_helper.from_array(np.asarray(consts[x]), x) for x in dict.fromkeys(n.input) if x]),
                    opset_imports=opset)
                val = [np.asarray(v) for v in ReferenceEvaluator(sub).run(None, {})]
            except Exception:  # noqa: BLE001 - not foldable here: left to the converter
                val = None
        if val is None:
            keep.append(n)
            continue
        for o, v in zip([o for o in n.output if o], val):
            consts[o] = v
            new[o] = v
    if not new:
        return model
    m = onnx.ModelProto()
    m.CopyFrom(model)
    used = {x for n in keep for x in list(n.input) + _outer_names(n)} | {o.name for o in m.graph.output}
    del m.graph.node[:]
    m.graph.node.extend(keep)
    for name, v in new.items():
        if name in used:
            m.graph.initializer.append(numpy_helper.from_array(np.asarray(v), name))
    outs = {o.name for o in m.graph.output}
    if outs & set(new):  # a graph output that is a constant stays a node
        for name in outs & set(new):
            m.graph.node.append(helper.make_node("Constant", [], [name], value=numpy_helper.from_array(
                np.asarray(new[name]), name)))
            m.graph.initializer.remove(next(t for t in m.graph.initializer if t.name == name))
    return m


def simplify(model: onnx.ModelProto, rounds: int = 32) -> onnx.ModelProto:
    """:func:`inline_static_ifs` and :func:`fold_static` repeated until nothing changes (an If whose
    condition folding makes constant is inlined, and its branch folded, in the next round)."""
    for _ in range(rounds):
        before = len(model.graph.node)
        nxt = fold_static(inline_static_ifs(model))  # a fold can make more shapes known: go again
        if nxt is model:
            break
        model = nxt
        consts = {t.name for t in model.graph.initializer} | {
            n.output[0] for n in model.graph.node if n.op_type == "Constant"}
        if len(model.graph.node) == before and not any(
                n.op_type == "If" and n.input[0] in consts for n in model.graph.node):
            break
    return model


#: inputs whose value never reaches an op's output (only their shape or type does)
_SHAPE_OR_TYPE_ONLY = {"Shape": {0}, "Size": {0}, "CastLike": {1}, "EyeLike": {0}, "RandomNormalLike": {0},
                       "RandomUniformLike": {0}}


def static_input_names(model: onnx.ModelProto) -> list[str]:
    """Names the converter reads as constants at conversion time (shape, axes, pads, sizes inputs), then every
    value those are computed from (a window size that a Cast feeds to Range is one too)."""
    out: list[str] = []
    model = simplify(model)  # an If on a shape-only condition is inlined, so its branch is walked too
    for n in model.graph.node:
        static = _STATIC_INPUTS.get(n.op_type, set())
        if n.op_type == "Loop" and loop_reads_condition(n):  # the condition decides the scan outputs' length
            static = static | {1}
        if n.op_type == "If" and any(not o.type.HasField("tensor_type") for a in n.attribute
                                     if a.type == onnx.AttributeProto.GRAPH for o in a.g.output):
            static = static | {0}  # which sequence/optional comes out (its length, its presence) is static
        for i, x in enumerate(n.input):
            if x and i in static and x not in out:
                out.append(x)
    producer = {o: n for n in model.graph.node for o in n.output if o}
    todo = list(out)
    while todo:
        n = producer.get(todo.pop())
        if n is None or n.op_type in _NO_FOLD - {"If"}:
            continue
        skip = _SHAPE_OR_TYPE_ONLY.get(n.op_type, set())
        for x in [x for i, x in enumerate(n.input) if i not in skip] + _outer_names(n):
            if x and x not in out:
                out.append(x)
                todo.append(x)
    return out


def _outer_names(node: onnx.NodeProto) -> list[str]:
    """Names a node's subgraphs (an If's branches, nested ones too) read from the enclosing graph."""
    out: list[str] = []
    for a in node.attribute:
        if a.type == onnx.AttributeProto.GRAPH:
            g = a.g
            local = ({x.name for x in g.initializer} | {o for n in g.node for o in n.output}
                     | {x.name for x in g.input})
            out += [x for n in g.node for x in list(n.input) + _outer_names(n) if x and x not in local]
    return out


def unsupported_ops(model: onnx.ModelProto) -> list[tuple[str, str]]:
    """(op_type, node name) of every node the converter cannot translate (checked before any conversion).

    An op whose shape/axes/pads input is computed at run time counts too: the converter reads those as
    constants (fold them with ``compile --input-shape``).
    """
    model = simplify(model)
    consts = {t.name for t in model.graph.initializer} | {
        n.output[0] for n in model.graph.node if n.op_type == "Constant"}
    control = any(n.op_type in CONTROL_OPS for n in model.graph.node)
    types = value_types(model) if control else {}
    values = constant_values(model.graph) if control else {}
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 13)
    dyn_shapes = has_dynamic_attention(model)  # a decoder stage exports with dynamic lengths: Shape is traced
    out = []
    for n in model.graph.node:
        static = _STATIC_INPUTS.get(n.op_type, set())
        dynamic = [x for i, x in enumerate(n.input) if i in static and x and x not in consts]
        if not (n.op_type in SUPPORTED_OPS or n.op_type == "Shape" and dyn_shapes) or (
                n.domain not in ("", "ai.onnx") and (n.domain, n.op_type) not in _DOMAIN_OPS):
            out.append((n.op_type, n.name))
        elif n.op_type in CONTROL_OPS and (why := structural_refusal(n, consts, opset)):
            out.append((why, n.name))
        elif n.op_type in CONTROL_OPS:
            out += nested_unsupported(model, n, values, types, unsupported_ops)
        elif n.op_type == SEQ_MAP:
            out += [u for m in _sequence_map_bodies(model, n, values, types)[0] for u in unsupported_ops(m)]
        elif dynamic:
            out.append((f"{n.op_type} (run-time {dynamic[0]!r})", n.name))
    return out


def _sequence_map_bodies(model: onnx.ModelProto, n: onnx.NodeProto, consts: dict[str, np.ndarray],
                         types: dict[str, onnx.TypeProto]) -> tuple[list[onnx.ModelProto], list[str]]:
    """A SequenceMap's body as standalone models (inputs: one element of each input) and its outer operands.

    Where the mapped sequences are pinned graph inputs, one model per element with that element's static
    shape (so shape plumbing in the body folds); else one model shared by every element.
    """
    from bb_edge.convert.torch_control import sub_model

    body = next(a.g for a in n.attribute if a.name == "body")
    pinned = sequence_inputs(model, strict=False)
    seqs = [pinned.get(x) for x in n.input]
    length = next((len(p) for p in seqs if p is not None), None)
    if length is None or any(p is not None and len(p) != length for p in seqs):
        m, shared = sub_model(model, body, list(body.input), consts, types, n)
        return [m], shared
    out: list[onnx.ModelProto] = []
    operands: list[str] = []
    for i in range(length):
        ins = []
        for vi, p in zip(body.input, seqs):
            if p is not None:
                vi = helper.make_tensor_value_info(vi.name, helper.np_dtype_to_tensor_dtype(p[i][0]), p[i][1])
            ins.append(vi)
        m, operands = sub_model(model, body, ins, consts, types, n)
        out.append(m)
    return out, operands


class ProgramIO:
    """A converted program's boundary: which graph inputs it takes and how its outputs map back.

    Inputs of a static zero-size shape are constants (not taken); unsigned 16/32/64-bit values cross as the
    wider signed type (:func:`~bb_edge.convert.torch_exact.to_program`); outputs of a static zero-size shape
    are not returned by the program (ExecuTorch keeps no zero-size tensors) and are rebuilt here. A sequence
    input of N elements (pinned, :func:`~bb_edge.convert.torch_seq.pin_sequences`) crosses as N tensors; a
    sequence output as its length then its elements, and comes back here as a list.
    """

    def __init__(self, model: onnx.ModelProto, strict: bool = True) -> None:
        """``strict``: refuse sequence inputs not pinned (a subgraph, not strict, takes them as lists)."""
        inits = {t.name for t in model.graph.initializer}
        try:
            inferred = onnx.shape_inference.infer_shapes(model)
        except Exception:  # noqa: BLE001 - declared shapes then
            inferred = model
        shapes = {vi.name: _static_shape(vi) for vi in list(inferred.graph.value_info) + list(inferred.graph.output)}
        #: graph input names the program takes, in order
        self.inputs = [vi.name for vi in model.graph.input
                       if vi.name not in inits and 0 not in (_static_shape(vi) or [1])]
        #: pinned sequence inputs: name -> [(dtype, shape) of each element]
        self.sequences = sequence_inputs(model, strict)
        #: graph outputs that are sequences (returned as length, elements)
        self.sequence_outputs = {vi.name for vi in model.graph.output if is_sequence(vi)}
        #: graph outputs that are optionals (returned as a presence flag, then the value when present)
        self.optional_outputs = {vi.name for vi in model.graph.output if optional_inner(vi) is not None}
        self._optional_seq = {vi.name for vi in model.graph.output
                              if (t := optional_inner(vi)) is not None and t.HasField("sequence_type")}
        #: every graph output: (name, ONNX dtype, its static shape when zero-size else None)
        self.outputs: list[tuple[str, np.dtype[Any], list[int] | None]] = []
        for vi in model.graph.output:
            shp = _static_shape(vi) or shapes.get(vi.name)
            dt = elem_dtype(vi)
            self.outputs.append((vi.name, dt, shp if shp is not None and 0 in shp else None))
        #: outputs the program returns with their data-dependent dim first: {name: the graph's axis of it}
        self.moved = _leading_outputs(model)

    @property
    def program_outputs(self) -> list[str]:
        """The outputs the program returns, in order."""
        return [n for n, _, empty in self.outputs if empty is None]

    def feed(self, values: dict[str, Any]) -> list[np.ndarray]:
        """The program's arguments from graph input values by name."""
        from bb_edge.convert.torch_exact import to_program

        out: list[np.ndarray] = []
        for n in self.inputs:
            if n not in self.sequences:
                out.append(to_program(np.asarray(values[n])))
                continue
            got = [np.asarray(e) for e in values[n]]
            pinned = self.sequences[n]
            if [(e.dtype, list(e.shape)) for e in got] != [(d, s) for d, s in pinned]:
                raise UnsupportedOpError(
                    f"sequence input {n!r} has elements {[list(e.shape) for e in got]}, the program was built for "
                    f"{[s for _, s in pinned]}; rebuild it for these lengths and shapes")
            out += [to_program(e) for e in got]
        return out

    def results(self, got: list[Any]) -> dict[str, Any]:
        """Graph outputs by name from the program's results (a sequence output as a list of arrays)."""
        from bb_edge.convert.torch_exact import from_program

        def arr(v: Any) -> np.ndarray:
            return np.asarray(v.detach().numpy() if hasattr(v, "detach") else v)

        it = iter(got)
        out: dict[str, Any] = {}
        for n, dt, empty in self.outputs:
            if n in self.optional_outputs:
                if not int(arr(next(it)).reshape(-1)[0]):
                    out[n] = None
                elif n in self._optional_seq:
                    out[n] = [from_program(arr(next(it)), dt) for _ in range(int(arr(next(it)).reshape(-1)[0]))]
                else:
                    out[n] = from_program(arr(next(it)), dt)
            elif n in self.sequence_outputs:
                out[n] = [from_program(arr(next(it)), dt) for _ in range(int(arr(next(it)).reshape(-1)[0]))]
            elif empty is not None:
                out[n] = np.zeros(empty, dt)
            else:
                out[n] = from_program(arr(next(it)), dt)
                if n in self.moved:
                    out[n] = np.ascontiguousarray(np.moveaxis(out[n], 0, self.moved[n]))
        return out


def _leading_outputs(model: onnx.ModelProto) -> dict[str, int]:
    """Graph outputs an op makes with a data-dependent dim first (see
    :func:`~bb_edge.convert.torch_dynamic.leading_axes`): {name: the graph's axis of that dim}."""
    made = {n.output[i]: ax for n in model.graph.node for i, ax in leading_axes(n.op_type, _attrs(n)).items()}
    return {o.name: made[o.name] for o in model.graph.output if o.name in made}


def _elem_types(model: onnx.ModelProto) -> dict[str, int]:
    """ONNX element type of every value shape inference names (inputs, initializers, intermediates, outputs)."""
    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except Exception:  # noqa: BLE001 - declared types only
        inferred = model
    g = inferred.graph
    out = {t.name: t.data_type for t in g.initializer}
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        if vi.type.HasField("tensor_type"):
            out[vi.name] = vi.type.tensor_type.elem_type
    return out


class OnnxModule(torch.nn.Module):
    """Interprets one ONNX graph with torch ops; ``forward`` takes the graph inputs in order."""

    def __init__(self, model: onnx.ModelProto, subgraph: bool = False) -> None:
        """``subgraph``: the model is an If branch or a loop body (see :mod:`bb_edge.convert.torch_control`)."""
        from bb_edge.convert.torch_exact import to_program

        super().__init__()
        io = ProgramIO(model, strict=not subgraph)
        self.subgraph = subgraph
        model = simplify(model)
        bad = unsupported_ops(model)
        if bad:
            ops = sorted({o for o, _ in bad})
            raise UnsupportedOpError(
                f"the ExecuTorch converter lacks op(s) {', '.join(ops)} (first at node {bad[0][1]!r}); "
                f"supported: {', '.join(sorted(SUPPORTED_OPS))}. Place these ops on a node with an ONNX Runtime "
                f"target (e.g. --target NODE=linux-vm-arm64) or replace them in the model")
        g = model.graph
        self.opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 13)
        self.input_names = [i.name for i in g.input if i.name not in {t.name for t in g.initializer}]
        self.output_names = io.program_outputs
        self.moved = io.moved
        #: element types of unsigned 16/32/64-bit values (carried widened, see torch_exact)
        self._unsigned = {k: v for k, v in _elem_types(model).items() if v in _WIDE_TORCH}
        self._consts: dict[str, np.ndarray] = {t.name: numpy_helper.to_array(t) for t in g.initializer}
        for n in g.node:
            if n.op_type == "Constant":
                self._consts[n.output[0]] = _constant(n)
        self._slots: dict[str, str] = {}
        self._empty: dict[str, np.ndarray] = {}
        self.weights = torch.nn.ParameterList()
        used = {x for n in g.node for i, x in enumerate(n.input)
                if x in self._consts and i not in _STATIC_INPUTS.get(n.op_type, set())}
        if subgraph:  # a constant output of an If branch or a loop body is a weight: an operand of torch.cond
            used |= {o for o in self.output_names if o in self._consts}
        for name in sorted(used):
            arr = to_program(np.asarray(self._consts[name]))
            if arr.size == 0:  # no zero-size tensors in a program: built where used (dead unless read)
                self._empty[name] = arr
                continue
            self._slots[name] = str(len(self.weights))
            t = torch.from_numpy(np.ascontiguousarray(arr).reshape(np.shape(arr)).copy())
            self.weights.append(torch.nn.Parameter(t, requires_grad=False))
        self._nodes = [(n.op_type, list(n.input), list(n.output), _attrs(n)) for n in g.node if n.op_type != "Constant"]
        self._names = [n.name for n in g.node if n.op_type != "Constant"]
        #: If (run-time condition), Loop and Scan nodes: submodules over their subgraphs, by node index
        self.control = torch.nn.ModuleDict()
        types = value_types(model) if any(n.op_type in CONTROL_OPS for n in g.node) else {}
        #: sequence inputs: name -> element count (``forward`` takes their elements flat)
        self._seq_lens = {k: len(v) for k, v in io.sequences.items()}
        self._optional_outputs = io.optional_outputs
        #: SequenceMap nodes: (body output count, outer operand names), by node index
        self._maps: dict[int, tuple[int, list[str]]] = {}
        if any(n.op_type == SEQ_MAP for n in g.node) and not types:
            types = value_types(model)
        for k, n in enumerate(x for x in g.node if x.op_type != "Constant"):
            if n.op_type in CONTROL_OPS:
                self.control[f"n{k}"] = control_module(model, n, self._consts, types,
                                                              lambda m: OnnxModule(m, subgraph=True))
            elif n.op_type == SEQ_MAP:
                bodies, operands = _sequence_map_bodies(model, n, constant_values(g), types)
                self.control[f"n{k}"] = torch.nn.ModuleList([OnnxModule(b, subgraph=True) for b in bodies])
                self._maps[k] = (len(bodies[0].graph.output), operands)
        #: the op ``forward`` is translating (op type, node name): what a failed export names
        self.current: tuple[str, str] | None = None

    def _run(self, op: str, ins: list[str], args: list[Any], attrs: dict[str, Any], n_out: int) -> list[Any]:
        from bb_edge.convert.torch_exact import WIDE, unsigned_op

        kinds = [self._unsigned.get(x) for x in ins]
        if op == "BitCast":  # unsigned as the same-width signed type, then widened again (masked by forward)
            narrow = {4: torch.int16, 12: torch.int32, 13: torch.int64}
            if kinds and kinds[0] in narrow:
                args = [args[0].to(narrow[kinds[0]]), *args[1:]]
            to = int(attrs["to"])
            if to in narrow:
                return [_SIMPLE[op](args, {**attrs, "to": {4: 5, 12: 6, 13: 7}[to]})[0].to(_WIDE_TORCH[to])]
        if op == "BitShift" and kinds and kinds[0] in WIDE:
            attrs = {**attrs, "_bits": WIDE[kinds[0]][1], "_unsigned": True}
        if 13 in kinds:
            res = unsigned_op(op, args, attrs, lambda x, a: self._run(op, [], x, a, n_out))
            if res is not None:
                return res
        if op == "MaxPool" and n_out > 1:
            return max_pool_with_indices(args, attrs)
        if op == "Softmax":
            return _softmax(args, attrs, self.opset)
        if op == "Split":
            return _split(args, attrs, n_out)
        if op == "Shape":
            return shape(args, attrs)
        return _SIMPLE[op](args, attrs)

    def forward(self, *inputs: Tensor) -> tuple[Tensor, ...]:
        """Run the graph; returns the graph outputs in order."""
        from bb_edge.convert.torch_exact import mask_unsigned, to_program

        env: dict[str, Any] = {}
        flat = iter(inputs)
        for name in self.input_names:
            n_seq = self._seq_lens.get(name)  # a subgraph's caller passes its sequences as lists
            env[name] = next(flat) if n_seq is None or self.subgraph else [next(flat) for _ in range(n_seq)]
        lead: dict[str, Tensor] = {}  # outputs as the program returns them (ProgramIO.moved)
        for k, ((op, ins, outs, attrs), node_name) in enumerate(zip(self._nodes, self._names, strict=True)):
            self.current = (op, node_name)
            static = _STATIC_INPUTS.get(op, set())
            args: list[Any] = []
            for i, name in enumerate(ins):
                if not name:
                    args.append(None)
                elif name in env:
                    args.append(env[name])
                elif i in static:  # a numpy value: torch.export must not trace it (data-dependent guards)
                    args.append(np.asarray(self._consts[name]))
                elif name in self._empty:
                    args.append(torch.from_numpy(self._empty[name].copy()))
                else:
                    args.append(self.weights[int(self._slots[name])])
            if op in CONTROL_OPS:
                ctl: Any = self.control[f"n{k}"]
                res = ctl.run(args[0], env) if op == "If" else ctl.run(args, env)
            elif k in self._maps:
                n_out, operands = self._maps[k]
                res = run_sequence_map(self.control[f"n{k}"], n_out, args, [env[x] for x in operands])
            else:
                res = self._run(op, ins, args, attrs, len(outs))
            for i, ax in leading_axes(op, attrs).items():  # the op made its data-dependent dim first
                if outs[i] in self.moved:
                    lead[outs[i]] = res[i]
                res = [*res[:i], torch.movedim(res[i], 0, ax), *res[i + 1:]]
            for name, val in zip(outs, res):
                if name in self._unsigned and isinstance(val, Tensor):
                    val = mask_unsigned(val, self._unsigned[name])
                env[name] = val
        self.current = None
        if not self.output_names:  # every output zero-size (rebuilt by ProgramIO): a program still returns one
            return (torch.zeros(1),)
        env.update(lead)
        outs = [env[o] if o in env else self.weights[int(self._slots[o])] if o in self._slots
                else torch.from_numpy(to_program(np.array(self._consts[o]))) for o in self.output_names]
        if self.subgraph:  # a body's or branch's sequences stay lists (its caller unrolls or flattens them)
            return tuple(outs)
        return tuple(t for o, v in zip(self.output_names, outs, strict=True) for t in (
            flatten_optional(v) if o in self._optional_outputs else flatten_output(v) if isinstance(v, list) else [v]))


def to_torch(model: onnx.ModelProto) -> OnnxModule:
    """Convert a standard-ONNX compute model (no bb.wire ops) to a torch module in eval mode."""
    return OnnxModule(model).eval()
