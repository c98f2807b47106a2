"""Lowering of the data-movement, activation and recurrent ops (docs/bbrt.md, opcodes 37-44).

Transpose -> TRANSPOSE (any dtype, rank <= 6). Gather with run-time indices (an int32/int64 graph input or
edge, kept in its ONNX dtype) -> GATHER, whose kernel checks every index before it reads. Pad (constant),
Resize (nearest) and Gather with constant indices -> GATHER_AXES: one int32 index table per output axis,
computed here (-1 = the pad value), so every coordinate rule lives in Python and the C kernel only copies.
Elu/LeakyRelu -> ELU_F32/LEAKYRELU_F32 (int8: a LUT_I8 table, built in lower.py), PRelu -> PRELU_F32, LSTM/GRU
-> LSTM_F32/GRU_F32. In an int8 program the data-movement ops stay int8 (their output keeps the input's scale
and zero point), PRelu, LSTM and GRU run in float32 with QUANTIZE/DEQUANTIZE around them. Anything else is an
:class:`UnsupportedNode`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx

from bb_edge.bbrt.errors import UnsupportedNode
from bb_edge.bbrt.format import DT_FLOAT, DT_INT8, DT_INT32, STORE_ARENA, Op, Tensor
from bb_edge.deployment.int8 import quantize

MOVE_MAX_RANK = 6  # firmware/src/bbrt_kernels.h BBRT_MOVE_MAX_RANK
#: ops a float32 program runs as existing kernels (:func:`decompose`)
DECOMPOSED = frozenset({"BatchNormalization", "HardSigmoid", "Div"})
EXTRA_OPS = frozenset({"Transpose", "Pad", "Resize", "Gather", "PRelu", "LSTM", "GRU"})
#: Resize coordinate modes the nearest tables implement, each checked against ONNX Runtime
#: (tf_crop_and_resize needs an roi and an extrapolation value, tf_half_pixel_for_centers has no ORT kernel: refused)
RESIZE_COORD = ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric")
RESIZE_NEAREST = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


def f32_bits(x: float) -> int:
    """The int32 bit pattern of a float32."""
    return int(np.array([x], np.float32).view(np.int32)[0])


def _s(v: object) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)


@dataclass
class Ctx:
    """What the op lowerings need of lower()'s builder state."""

    B: Any  # lower._Builder
    L: Any  # lower.Lowered
    init: dict[str, np.ndarray]
    shape_of: Callable[[str], tuple[int, ...]]
    get_f: Callable[[str], int]
    get_q: Callable[[str], int]
    new_act: Callable[..., int]
    fidx: dict[str, int]
    wanted: Callable[[str], bool]  # an output some op or edge reads
    opset: int
    iidx: dict[str, int]  # integer (index) tensors by ONNX name


def gather_table(tables: list[np.ndarray]) -> np.ndarray:
    """The GATHER_AXES constant: the per-axis tables one after another (int32)."""
    return np.concatenate([np.asarray(t, np.int64).reshape(-1) for t in tables]).astype(np.int32)


def pad_tables(xshape: tuple[int, ...], pads: list[int]) -> list[np.ndarray]:
    """Per-axis tables of a constant Pad: -1 (the pad value) before and after the input's indices."""
    r = len(xshape)
    return [np.concatenate([np.full(pads[k], -1), np.arange(xshape[k]), np.full(pads[k + r], -1)])
            for k in range(r)]


def resize_table(n_in: int, n_out: int, scale: float, coord: str, nearest: str) -> np.ndarray:
    """Input index of every output index along one axis, as ONNX Runtime's nearest Resize computes it
    (coordinates in float32, then the nearest rule, clamped to the input)."""
    o = np.arange(n_out, dtype=np.float32)
    sc = np.float32(scale)
    half = np.float32(0.5)
    if coord == "half_pixel":
        xo = (o + half) / sc - half
    elif coord == "pytorch_half_pixel":
        xo = (o + half) / sc - half if n_out > 1 else np.zeros(n_out, np.float32)
    elif coord == "align_corners":
        xo = np.zeros(n_out, np.float32) if n_out == 1 else o * np.float32(n_in - 1) / np.float32(n_out - 1)
    else:  # asymmetric
        xo = o / sc
    x = xo.astype(np.float64)  # exact: the rounding below sees the float32 values
    if nearest == "floor":
        idx = np.floor(x)
    elif nearest == "ceil":
        idx = np.ceil(x)
    else:
        away = np.sign(x) * np.floor(np.abs(x) + 0.5)  # std::round
        if nearest == "round_prefer_floor":
            away = np.where(x == np.trunc(x) + 0.5, np.floor(x), away)
        idx = away
    return np.clip(idx, 0, n_in - 1).astype(np.int64)


def _move_input(c: Ctx, node: onnx.NodeProto, use_q: bool) -> tuple[int, int]:
    """The input of a data-movement op (int8 when it is int8 already) and the output dtype."""
    src = node.input[0]
    if use_q and src not in c.fidx and (src not in c.init or node.op_type == "Gather"):
        return c.get_q(src), DT_INT8  # (a Gather's constant table is stored int8: a quarter of the bytes)
    return c.get_f(src), DT_FLOAT


def _move_output(c: Ctx, node: onnx.NodeProto, dt: int, shape: tuple[int, ...]) -> tuple[int, int | None]:
    """The op's output tensor (its ONNX shape, or a same-rank staging tensor plus a COPY to it)."""
    out, src = node.output[0], node.input[0]
    qpar = c.L.qparams[src] if dt == DT_INT8 else None
    if qpar is not None:
        c.L.qparams[out] = qpar
    if tuple(c.shape_of(out)) == tuple(shape):
        return c.new_act(out, dt, qpar), None
    s, z = qpar if qpar is not None else (0.0, 0)
    stage = c.B.add(Tensor(f"{out}__axes", dt, tuple(shape), STORE_ARENA, scale=s, zero_point=z))
    return stage, c.new_act(out, dt, qpar)


def _gather_axes(c: Ctx, node: onnx.NodeProto, use_q: bool, tables: list[np.ndarray], fill: float = 0.0) -> None:
    x, dt = _move_input(c, node, use_q)
    shape = tuple(len(t) for t in tables)
    if len(shape) > MOVE_MAX_RANK:
        raise UnsupportedNode(node.name, node.op_type, f"rank {len(shape)} > {MOVE_MAX_RANK}")
    y, final = _move_output(c, node, dt, shape)
    if dt == DT_INT8:
        s, z = c.L.qparams[node.input[0]]
        p0 = int(quantize(np.array([fill], np.float32), s, z)[0])
    else:
        p0 = f32_bits(fill)
    tab = c.B.const(f"{node.name}__axes", gather_table(tables), DT_INT32)
    c.B.op(Op.GATHER_AXES, [x, tab], [y], [p0], node.name)
    if final is not None:
        c.B.op(Op.COPY, [y], [final], [], f"{node.name}__view")


def _const(c: Ctx, node: onnx.NodeProto, i: int, what: str) -> np.ndarray | None:
    """Input ``i`` as a constant, None when absent; a runtime tensor is refused."""
    if len(node.input) <= i or not node.input[i]:
        return None
    if node.input[i] not in c.init:
        raise UnsupportedNode(node.name, node.op_type, f"{what} must be a constant")
    return np.asarray(c.init[node.input[i]])


def lower_transpose(c: Ctx, node: onnx.NodeProto, a: dict[str, Any], use_q: bool) -> None:
    """Transpose -> TRANSPOSE (any dtype, rank <= 6)."""
    xs = c.shape_of(node.input[0])
    r = len(xs)
    perm = [int(p) for p in a.get("perm", list(range(r))[::-1])]
    if not 1 <= r <= MOVE_MAX_RANK or sorted(perm) != list(range(r)):
        raise UnsupportedNode(node.name, "Transpose", f"rank {r} (1..{MOVE_MAX_RANK}) with perm {perm}")
    x, dt = _move_input(c, node, use_q)
    y, final = _move_output(c, node, dt, tuple(xs[p] for p in perm))
    c.B.op(Op.TRANSPOSE, [x], [y], perm, node.name)
    if final is not None:
        c.B.op(Op.COPY, [y], [final], [], f"{node.name}__view")


def lower_pad(c: Ctx, node: onnx.NodeProto, a: dict[str, Any], use_q: bool) -> None:
    """Pad (constant mode, pads >= 0) -> GATHER_AXES with -1 entries for the pad value."""
    mode = _s(a.get("mode", "constant"))
    if mode != "constant":
        raise UnsupportedNode(node.name, "Pad", f"mode {mode!r} (only 'constant')")
    xs = c.shape_of(node.input[0])
    r = len(xs)
    if c.opset < 11:
        pads, value = [int(p) for p in a.get("pads", [])], float(a.get("value", 0.0))
    else:
        pv = _const(c, node, 1, "pads")
        pads = [int(p) for p in (pv if pv is not None else [])]
        cv = _const(c, node, 2, "constant_value")
        value = float(cv.reshape(-1)[0]) if cv is not None and cv.size else 0.0
        av = _const(c, node, 3, "axes")
        if av is not None:  # opset 18: pads for the listed axes only
            full = [0] * (2 * r)
            ax = [int(v) % r for v in av.reshape(-1)]
            for j, k in enumerate(ax):
                full[k], full[k + r] = pads[j], pads[j + len(ax)]
            pads = full
    if len(pads) != 2 * r:
        raise UnsupportedNode(node.name, "Pad", f"{len(pads)} pads for rank {r}")
    if any(p < 0 for p in pads):
        raise UnsupportedNode(node.name, "Pad", f"negative pads {pads} (cropping)")
    _gather_axes(c, node, use_q, pad_tables(xs, pads), value)


def lower_resize(c: Ctx, node: onnx.NodeProto, a: dict[str, Any], use_q: bool) -> None:
    """Resize (mode nearest) -> GATHER_AXES with ONNX Runtime's nearest input index per output index."""
    mode = _s(a.get("mode", "nearest"))
    coord = _s(a.get("coordinate_transformation_mode", "asymmetric" if c.opset < 11 else "half_pixel"))
    nearest = _s(a.get("nearest_mode", "round_prefer_floor"))
    if mode != "nearest":
        raise UnsupportedNode(node.name, "Resize", f"mode {mode!r} (only 'nearest')")
    if coord not in RESIZE_COORD:
        raise UnsupportedNode(node.name, "Resize", f"coordinate_transformation_mode {coord!r} "
                                                   f"(supported: {', '.join(RESIZE_COORD)})")
    if nearest not in RESIZE_NEAREST:
        raise UnsupportedNode(node.name, "Resize", f"nearest_mode {nearest!r}")
    if int(a.get("antialias", 0)) or "axes" in a or _s(a.get("keep_aspect_ratio_policy", "stretch")) != "stretch":
        raise UnsupportedNode(node.name, "Resize", "antialias, axes and keep_aspect_ratio_policy are not supported")
    xs, ys = c.shape_of(node.input[0]), c.shape_of(node.output[0])
    sv = _const(c, node, 1 if c.opset < 11 else 2, "scales")
    if sv is not None and sv.size:
        scales = [float(v) for v in sv.astype(np.float32).reshape(-1)]
    else:
        scales = [float(np.float32(o) / np.float32(i)) for i, o in zip(xs, ys, strict=True)]
    if len(scales) != len(xs) or len(ys) != len(xs):
        raise UnsupportedNode(node.name, "Resize", f"{len(scales)} scales for rank {len(xs)}")
    tables = [np.arange(i) if i == o and s == 1.0 else resize_table(i, o, s, coord, nearest)
              for i, o, s in zip(xs, ys, scales, strict=True)]
    _gather_axes(c, node, use_q, tables)


def lower_gather(c: Ctx, node: onnx.NodeProto, a: dict[str, Any], use_q: bool) -> None:
    """Gather with constant indices -> GATHER_AXES (the indices are the gathered axis' table); with run-time
    indices (an int32/int64 graph input or edge) -> GATHER, which checks every index before it reads."""
    data, ind = node.input[0], node.input[1]
    xs = c.shape_of(data)
    axis = int(a.get("axis", 0)) % len(xs)
    if ind not in c.init:
        if ind not in c.iidx:
            raise UnsupportedNode(node.name, "Gather", f"indices {ind!r} are computed in the graph; run-time "
                                                       f"indices must be an int32/int64 graph input or edge")
        if data in c.iidx:
            raise UnsupportedNode(node.name, "Gather", "gathering from an integer tensor is not supported")
        x, dt = _move_input(c, node, use_q)
        qpar = c.L.qparams[data] if dt == DT_INT8 else None
        if qpar is not None:
            c.L.qparams[node.output[0]] = qpar
        c.B.op(Op.GATHER, [x, c.iidx[ind]], [c.new_act(node.output[0], dt, qpar)], [axis], node.name)
        return
    idx = np.asarray(c.init[ind], np.int64).reshape(-1)
    idx = np.where(idx < 0, idx + xs[axis], idx)
    if idx.size and (idx.min() < 0 or idx.max() >= xs[axis]):
        raise UnsupportedNode(node.name, "Gather", f"index out of range for axis {axis} of size {xs[axis]}")
    if data in c.init:  # both constant: the result is a constant
        c.init[node.output[0]] = np.take(c.init[data], c.init[ind], axis=axis)
        return
    tables = [np.arange(d) for d in xs]
    tables[axis] = idx
    _gather_axes(c, node, use_q, tables)


def lower_prelu(c: Ctx, node: onnx.NodeProto) -> None:
    """PRelu -> PRELU_F32 (slope broadcast to X; float32 in an int8 program too)."""
    xs, ss = c.shape_of(node.input[0]), c.shape_of(node.input[1])
    if len(ss) > len(xs) or any(s not in (1, x) for s, x in zip(ss[::-1], xs[::-1], strict=False)):
        raise UnsupportedNode(node.name, "PRelu", f"slope {list(ss)} does not broadcast to {list(xs)}")
    c.B.op(Op.PRELU_F32, [c.get_f(node.input[0]), c.get_f(node.input[1])], [c.new_act(node.output[0], DT_FLOAT)],
           [], node.name)
    c.L.float_nodes.add(node.name)


def lower_rnn(c: Ctx, node: onnx.NodeProto, a: dict[str, Any]) -> None:
    """LSTM/GRU (float32, layout 0, default activations) -> LSTM_F32/GRU_F32, one op per output used."""
    t = node.op_type
    lstm = t == "LSTM"
    g = 4 if lstm else 3
    direction = _s(a.get("direction", "forward"))
    if direction not in ("forward", "reverse", "bidirectional"):
        raise UnsupportedNode(node.name, t, f"direction {direction!r}")
    d = 2 if direction == "bidirectional" else 1
    default = (["Sigmoid", "Tanh", "Tanh"] if lstm else ["Sigmoid", "Tanh"]) * d
    acts = [_s(v) for v in a.get("activations", default)]
    if [v.lower() for v in acts] != [v.lower() for v in default]:
        raise UnsupportedNode(node.name, t, f"activations {acts} (only the defaults {default})")
    for bad in ("clip", "activation_alpha", "activation_beta"):
        if bad in a:
            raise UnsupportedNode(node.name, t, f"attribute {bad!r} is not supported")
    if int(a.get("layout", 0)) or int(a.get("input_forget", 0)):
        raise UnsupportedNode(node.name, t, "layout=1 and input_forget=1 are not supported")
    if lstm and len(node.input) > 7 and node.input[7]:
        raise UnsupportedNode(node.name, t, "peepholes (input P) are not supported")
    xs = c.shape_of(node.input[0])
    if len(xs) != 3:
        raise UnsupportedNode(node.name, t, f"input rank {len(xs)} (3: [seq, batch, input])")
    steps, batch, _ = xs
    w = _const(c, node, 1, "W")
    r = _const(c, node, 2, "R")
    assert w is not None and r is not None  # required inputs
    hidden = int(w.shape[1]) // g
    bias = _const(c, node, 3, "B")
    if bias is None:
        bias = np.zeros((d, 2 * g * hidden), np.float32)
    sl = _const(c, node, 4, "sequence_lens")
    if sl is not None and np.any(sl != steps):
        raise UnsupportedNode(node.name, t, "sequence_lens other than the full length")
    state = []
    for i, what in ((5, "initial_h"), (6, "initial_c"))[:2 if lstm else 1]:
        name = node.input[i] if len(node.input) > i else ""
        if not name:
            state.append(c.B.const(f"{node.name}__{what}", np.zeros((d, batch, hidden), np.float32), DT_FLOAT))
        else:
            state.append(c.get_f(name))
    ins = [c.get_f(node.input[0]),
           c.B.const(f"{node.name}__W", np.ascontiguousarray(w, np.float32), DT_FLOAT),
           c.B.const(f"{node.name}__R", np.ascontiguousarray(r, np.float32), DT_FLOAT),
           c.B.const(f"{node.name}__B", np.ascontiguousarray(bias, np.float32), DT_FLOAT), *state]
    scratch = c.B.add(Tensor(f"{node.name}__scratch", DT_FLOAT, (6 * hidden,), STORE_ARENA))
    code = Op.LSTM_F32 if lstm else Op.GRU_F32
    lbr = 0 if lstm else int(a.get("linear_before_reset", 0))
    dcode = {"forward": 0, "reverse": 1, "bidirectional": 2}[direction]
    for k, out in enumerate(node.output):
        if out and c.wanted(out):  # Y, Y_h, Y_c: each used output is its own run (recomputed)
            c.B.op(code, [*ins, scratch], [c.new_act(out, DT_FLOAT)], [dcode, k, lbr], f"{node.name}:{k}")
    c.L.float_nodes.add(node.name)


def lower_extra(c: Ctx, node: onnx.NodeProto, a: dict[str, Any], use_q: bool) -> None:
    """Lower one node of :data:`EXTRA_OPS`."""
    t = node.op_type
    if t == "Transpose":
        lower_transpose(c, node, a, use_q)
    elif t == "Pad":
        lower_pad(c, node, a, use_q)
    elif t == "Resize":
        lower_resize(c, node, a, use_q)
    elif t == "Gather":
        lower_gather(c, node, a, use_q)
    elif t == "PRelu":
        lower_prelu(c, node)
    else:
        lower_rnn(c, node, a)


def decompose(model: onnx.ModelProto, init: dict[str, np.ndarray]) -> int:
    """Rewrite, in place, ops a float32 program runs as existing kernels; returns how many were rewritten.

    BatchNormalization (inference, constant parameters) -> Mul and Add by per-channel constants
    (``s = scale / sqrt(var + eps)``, ``b - mean * s``); Div by a constant -> Mul by its float32 reciprocal;
    HardSigmoid -> Mul, Add, Clip(0, 1). ``init`` (name -> constant) gains the new constants.
    """
    from onnx import helper, numpy_helper

    g = model.graph
    nodes: list[onnx.NodeProto] = []
    done = 0
    try:
        vis = onnx.shape_inference.infer_shapes(model).graph
        ranks = {v.name: len(v.type.tensor_type.shape.dim) for v in list(vis.value_info) + list(vis.input)
                 if v.type.tensor_type.HasField("shape")}
    except Exception:  # noqa: BLE001 - no ranks: BatchNormalization stays (and is refused by name)
        ranks = {}

    def const(name: str, arr: np.ndarray) -> str:
        g.initializer.append(numpy_helper.from_array(arr, name))
        init[name] = arr
        return name

    for n in g.node:
        a = {x.name: helper.get_attribute_value(x) for x in n.attribute}
        nm = n.name or n.output[0]
        if n.op_type == "BatchNormalization" and len(n.output) == 1 and not int(a.get("training_mode", 0)) \
                and all(i in init for i in n.input[1:5]) and ranks.get(n.input[0], 0) >= 2:
            sc, b, mean, var = (np.asarray(init[i], np.float32) for i in n.input[1:5])
            s = (sc / np.sqrt(var + np.float32(a.get("epsilon", 1e-5)))).astype(np.float32)
            shift = (b - mean * s).astype(np.float32)
            shape = [s.size] + [1] * (ranks[n.input[0]] - 2)
            ms, ab = const(f"{nm}__bn_scale", s.reshape(shape)), const(f"{nm}__bn_shift", shift.reshape(shape))
            nodes += [helper.make_node("Mul", [n.input[0], ms], [f"{nm}__bn_mul"], name=f"{nm}:mul"),
                      helper.make_node("Add", [f"{nm}__bn_mul", ab], [n.output[0]], name=f"{nm}:add")]
        elif n.op_type == "Div" and n.input[1] in init and np.asarray(init[n.input[1]]).dtype == np.float32:
            r = const(f"{nm}__reciprocal", (np.float32(1.0) / np.asarray(init[n.input[1]], np.float32)))
            nodes.append(helper.make_node("Mul", [n.input[0], r], [n.output[0]], name=nm))
        elif n.op_type == "HardSigmoid":
            al = const(f"{nm}__alpha", np.array(a.get("alpha", 0.2), np.float32))
            be = const(f"{nm}__beta", np.array(a.get("beta", 0.5), np.float32))
            lo, hi = const(f"{nm}__lo", np.array(0.0, np.float32)), const(f"{nm}__hi", np.array(1.0, np.float32))
            nodes += [helper.make_node("Mul", [n.input[0], al], [f"{nm}__hs_mul"], name=f"{nm}:mul"),
                      helper.make_node("Add", [f"{nm}__hs_mul", be], [f"{nm}__hs_add"], name=f"{nm}:add"),
                      helper.make_node("Clip", [f"{nm}__hs_add", lo, hi], [n.output[0]], name=f"{nm}:clip")]
        else:
            nodes.append(n)
            continue
        done += 1
    if done:
        del g.node[:]
        g.node.extend(nodes)
    return done


def fold_batchnorm(model: onnx.ModelProto, init: dict[str, np.ndarray]) -> set[str]:
    """int8: fold each inference BatchNormalization into the Conv or Gemm before it, in place; returns the
    names of the nodes a standalone one becomes (a Mul and an Add, to run float32 between DEQUANTIZE and
    QUANTIZE as PRelu does: an int8 Mul/Add pair would requantize twice).

    Folding: ``s = scale / sqrt(var + eps)``, ``W' = W * s`` along the output channels, ``b' = b * s + beta -
    mean * s``; the producer must have constant weights and feed only the BatchNormalization, which must not
    be a graph output. ``init`` (name -> constant) gains the new constants.
    """
    from onnx import helper, numpy_helper

    g = model.graph
    outputs = {o.name for o in g.output}
    producer = {o: n for n in g.node for o in n.output}
    readers: dict[str, int] = {}
    for n in g.node:
        for i in n.input:
            readers[i] = readers.get(i, 0) + 1
    try:
        vis = onnx.shape_inference.infer_shapes(model).graph
        ranks = {v.name: len(v.type.tensor_type.shape.dim) for v in [*vis.value_info, *vis.input, *vis.output]
                 if v.type.tensor_type.HasField("shape")}
    except Exception:  # noqa: BLE001 - no ranks: only folds (which need none) happen, the rest stays refused
        ranks = {}

    def const(name: str, arr: np.ndarray) -> str:
        g.initializer.append(numpy_helper.from_array(arr, name))
        init[name] = arr
        return name

    drop: set[int] = set()
    replace: dict[int, list[onnx.NodeProto]] = {}
    float_nodes: set[str] = set()
    for k, n in enumerate(g.node):
        a = {x.name: helper.get_attribute_value(x) for x in n.attribute}
        if n.op_type != "BatchNormalization" or len(n.output) != 1 or int(a.get("training_mode", 0)) \
                or not all(i in init for i in n.input[1:5]):
            continue
        sc, b, mean, var = (np.asarray(init[i], np.float32) for i in n.input[1:5])
        s = (sc / np.sqrt(var + np.float32(a.get("epsilon", 1e-5)))).astype(np.float32)
        shift = (b - mean * s).astype(np.float32)
        nm = n.name or n.output[0]
        x = n.input[0]
        p = producer.get(x)
        pa = {v.name: helper.get_attribute_value(v) for v in p.attribute} if p is not None else {}
        alone = readers.get(x, 0) == 1 and x not in outputs
        if p is not None and alone and p.op_type == "Conv" and p.input[1] in init \
                and np.asarray(init[p.input[1]]).ndim == 4 and init[p.input[1]].shape[0] == s.size \
                and (len(p.input) < 3 or not p.input[2] or p.input[2] in init):
            w = np.asarray(init[p.input[1]], np.float32) * s.reshape(-1, 1, 1, 1)
            bias = np.asarray(init[p.input[2]], np.float32) if len(p.input) > 2 and p.input[2] else \
                np.zeros(s.size, np.float32)
            ins = [p.input[0], const(f"{nm}__folded_w", w.astype(np.float32)),
                   const(f"{nm}__folded_b", (bias * s + shift).astype(np.float32))]
        elif p is not None and alone and p.op_type == "Gemm" and p.input[1] in init \
                and not int(pa.get("transA", 0)) and ranks.get(x) == 2 \
                and (len(p.input) < 3 or not p.input[2] or p.input[2] in init):
            wsrc = np.asarray(init[p.input[1]], np.float32)
            tb = int(pa.get("transB", 0))
            if wsrc.ndim != 2 or wsrc.shape[0 if tb else 1] != s.size:
                continue
            w = wsrc * (s.reshape(-1, 1) if tb else s.reshape(1, -1))
            c = np.asarray(init[p.input[2]], np.float32) if len(p.input) > 2 and p.input[2] else np.zeros(1)
            if c.size not in (1, s.size):
                continue
            c = np.asarray(np.broadcast_to(c.reshape(-1), (s.size,)), np.float32) * float(pa.get("beta", 1.0))
            ins = [p.input[0], const(f"{nm}__folded_w", w.astype(np.float32)),
                   const(f"{nm}__folded_b", (c * s + shift).astype(np.float32))]
        elif ranks.get(x, 0) >= 2:  # standalone: a per-channel scale and shift, float32
            shape = [s.size] + [1] * (ranks[x] - 2)
            ms, ab = const(f"{nm}__bn_scale", s.reshape(shape)), const(f"{nm}__bn_shift", shift.reshape(shape))
            replace[k] = [helper.make_node("Mul", [x, ms], [f"{nm}__bn_mul"], name=f"{nm}:mul"),
                          helper.make_node("Add", [f"{nm}__bn_mul", ab], [n.output[0]], name=f"{nm}:add")]
            float_nodes |= {f"{nm}:mul", f"{nm}:add"}
            continue
        else:
            continue
        del p.input[:]
        p.input.extend(ins)
        if p.op_type == "Gemm":
            for attr in p.attribute:
                if attr.name == "beta":
                    attr.f = 1.0
        p.output[0] = n.output[0]
        drop.add(k)
    if drop or replace:
        nodes = []
        for k, n in enumerate(g.node):
            if k in drop:
                continue
            nodes.extend(replace.get(k, [n]))
        del g.node[:]
        g.node.extend(nodes)
    return float_nodes
