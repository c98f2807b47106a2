"""Lower a per-node ONNX program (with bb.wire Send/Recv) to a .bbrt program.

Steps: strip the wire ops (:func:`bb_edge.deployment.ports.compute_model`),
run calibration samples through ONNX Runtime to learn every tensor's shape and
range, map ONNX ops to bbrt opcodes (fusing Relu/Clip into the op before),
quantize (int8: per-channel symmetric weights, per-tensor asymmetric
activations; float32 kept for ops named in ``float_ops`` or without an int8
kernel), then plan the arena. See docs/bbrt.md.

Why one file: the ONNX-to-opcode mapping, fusion and quantization are decided op by op in one pass over
the graph, with one builder's state (tensor table, ranges, constants). The arena planner, the format and
the training lowering are separate modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
from onnx import numpy_helper

from bb_edge.bbrt import planner
from bb_edge.bbrt.errors import BbrtError, DynamicStateError, UnsupportedNode
from bb_edge.bbrt.format import (
    DT_FLOAT,
    DT_INT8,
    DT_INT32,
    INDEX_DTYPES,
    RECV,
    SEND,
    STATE,
    STORE_ARENA,
    STORE_CONST,
    EdgeRecord,
    Op,
    OpRecord,
    Program,
    Tensor,
)
from bb_edge.bbrt.lower_ops import DECOMPOSED, EXTRA_OPS, Ctx, decompose, fold_batchnorm, lower_extra
from bb_edge.bbrt.lower_qdq import is_qdq, lower_qdq
from bb_edge.bbrt.quant import intermediate_values, per_channel_weights, quantize_multiplier
from bb_edge.deployment.int8 import affine_params, dequantize, quantize
from bb_edge.deployment.ports import compute_model, wire_ports
from bb_edge.quant.calib import ranges
from bb_edge.tflite.svdf import internal_state

CONV_POOL_MAX_W = 64  # firmware/src/bbrt_kernels.h BBRT_CONV_POOL_MAX_W: the conv output's widest row
NEG_INF_BITS = int(np.array([-np.inf], np.float32).view(np.int32)[0])
POS_INF_BITS = int(np.array([np.inf], np.float32).view(np.int32)[0])

COPY_OPS = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Dropout"}
UNARY_ACT = {"Relu", "Clip", "Sigmoid", "Tanh", "Elu", "LeakyRelu"}


def f32_bits(x: float) -> int:
    """The int32 bit pattern of a float32 (op params carry floats this way)."""
    return int(np.array([x], np.float32).view(np.int32)[0])


@dataclass
class Lowered:
    """The result of lowering one node program."""

    program: Program
    blob: bytes
    precision: str
    qparams: dict[str, tuple[float, int]] = field(default_factory=dict)  # int8 activations by ONNX name
    weights: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)  # per ONNX node name
    fused: set[str] = field(default_factory=set)  # ONNX tensors folded away (pre-activation outputs)
    float_nodes: set[str] = field(default_factory=set)  # ONNX nodes kept float32 in an int8 program
    index: dict[str, int] = field(default_factory=dict)  # ONNX name -> tensor index (int8 version if any)
    float_index: dict[str, int] = field(default_factory=dict)  # ONNX name -> float tensor index if any
    compute: onnx.ModelProto | None = None
    ops_used: set[Op] = field(default_factory=set)
    patch: dict[str, int] = field(default_factory=dict)  # set by bb_edge.bbrt.patch.patch_lowered
    synthetic_calibration: bool = False
    #: activation lower bound of the node's ONNX graph before lowering (planner.model_lower_bound)
    model_lower_bound: int = 0
    #: QDQ models: graph inputs the device takes transposed (ONNX name -> perm), see lower_qdq
    input_perm: dict[str, list[int]] = field(default_factory=dict)
    #: QDQ models: float graph inputs/outputs whose device edge is int8 with these (scale, zero point), the
    #: host quantizing/dequantizing at its side (a QuantizeLinear/DequantizeLinear at the graph's boundary)
    wire_quant: dict[str, tuple[float, int]] = field(default_factory=dict)
    #: QDQ models: graph inputs/outputs the model types uint8; the device edge is int8, v - 128 (qdq_uint8)
    uint8_io: set[str] = field(default_factory=set)


def _attrs(node: onnx.NodeProto) -> dict[str, object]:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _opset(model: onnx.ModelProto) -> int:
    for o in model.opset_import:
        if o.domain in ("", "ai.onnx"):
            return int(o.version)
    return 13


def random_samples(model: onnx.ModelProto, n: int = 8, seed: int = 0) -> list[dict[str, np.ndarray]]:
    """Synthetic calibration inputs (standard normal) for a standard ONNX model."""
    rng = np.random.default_rng(seed)
    init = {i.name for i in model.graph.initializer}
    out = []
    for _ in range(n):
        feed = {}
        for inp in model.graph.input:
            if inp.name in init:
                continue
            dims = [d.dim_value if d.dim_value > 0 else 1 for d in inp.type.tensor_type.shape.dim]
            if inp.type.tensor_type.elem_type in (onnx.TensorProto.INT64, onnx.TensorProto.INT32):
                feed[inp.name] = rng.integers(0, 2, dims)  # valid ids of any table (0/1)
            else:
                feed[inp.name] = rng.standard_normal(dims).astype(np.float32)
        out.append(feed)
    return out


def _check_state(cm: onnx.ModelProto, state: list[tuple[str, str]]) -> None:
    """BbrtError unless every state pair is a float32 graph input and output of one fixed shape."""
    ins = {i.name: i for i in cm.graph.input}
    outs = {o.name: o for o in cm.graph.output}
    for out_name, in_name in state:
        if in_name not in ins or out_name not in outs:
            raise BbrtError(f"state pair {out_name}={in_name}: {in_name!r} must be a graph input and {out_name!r} a "
                            f"graph output of the node's program")
        for name, vi in ((in_name, ins[in_name]), (out_name, outs[out_name])):
            dims = list(vi.type.tensor_type.shape.dim)
            if any(d.dim_value <= 0 for d in dims):
                raise DynamicStateError(name, [d.dim_value if d.dim_value > 0 else (d.dim_param or "?") for d in dims])
            if vi.type.tensor_type.elem_type != onnx.TensorProto.FLOAT:
                raise BbrtError(f"state tensor {name!r} is not float32; C-runtime session state is float32")
        a = [d.dim_value for d in ins[in_name].type.tensor_type.shape.dim]
        b = [d.dim_value for d in outs[out_name].type.tensor_type.shape.dim]
        if a != b:
            raise BbrtError(f"state pair {out_name}={in_name}: shapes {b} and {a} differ")


class _Builder:
    def __init__(self, lowered: Lowered) -> None:
        self.L = lowered
        self.tensors: list[Tensor] = []
        self.ops: list[OpRecord] = []
        # (state input, next state, name) of int8 ops that keep state (SVDF_I8): STATE edges of the program
        self.state_pairs: list[tuple[int, int, str]] = []

    def add(self, t: Tensor) -> int:
        self.tensors.append(t)
        return len(self.tensors) - 1

    def const(self, name: str, arr: np.ndarray, dtype: int, scale: float = 0.0, zp: int = 0) -> int:
        return self.add(Tensor(name, dtype, tuple(int(d) for d in arr.shape), STORE_CONST, scale=scale,
                               zero_point=zp, data=arr))

    def op(self, code: Op, ins: list[int], outs: list[int], params: list[int] | None = None, name: str = "") -> None:
        self.ops.append(OpRecord(code, ins, outs, list(params or []), name))
        self.L.ops_used.add(code)



def _quantized_weights(w: np.ndarray, bias: np.ndarray | None, sx: float,
                       sy: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """int8 per-output-channel weights, their scales, int32 bias and requant multipliers.

    Shared by Conv and FC: ``sx``/``sy`` are the input/output activation scales.
    """
    wq, ws = per_channel_weights(w, 0)
    b = np.zeros(w.shape[0], np.float32) if bias is None else bias
    # a channel whose weights are tiny next to its bias (a BatchNormalization folded in with a near-zero
    # scale): widen its weight step until the int32 bias fits the loader's accumulator limit |bias| <= 2^30
    need = (np.abs(b.astype(np.float64)) / (float(np.float32(sx)) * 2.0**29)).astype(np.float32)
    if np.any(need > ws):
        ws = np.maximum(ws, need).astype(np.float32)
        wq = np.clip(np.rint(w / ws.reshape([-1] + [1] * (w.ndim - 1))), -127, 127).astype(np.int8)
    bq = np.clip(np.rint(b / (np.float32(sx) * ws)), -2**31, 2**31 - 1).astype(np.int32)
    rq = np.array([quantize_multiplier(float(np.float32(sx) * s / np.float32(sy))) for s in ws],
                  np.int32).reshape(-1)
    return wq, ws, bq, rq

def lower(
    program: onnx.ModelProto,
    *,
    node_id: int = 1,
    node_ids: dict[str, int] | None = None,
    io_edges: dict[str, int] | None = None,
    precision: str = "int8",
    calib: list[dict[str, np.ndarray]] | None = None,
    float_ops: set[str] | None = None,
    io_quant: dict[str, tuple[float, int]] | None = None,
    pins: dict[str, tuple[float, int]] | None = None,
    fuse_pool: bool = False,
    int8_sends: set[str] | None = None,
    state: list[tuple[str, str]] | None = None,
) -> Lowered:
    """Lower a node program to bbrt.

    ``node_ids`` maps peer node names to ids (the host is 0); ``io_edges`` maps
    this node's graph inputs/outputs to their edge ids from deployment.json
    (by default numbered 1000+). ``calib`` are sample feeds keyed by the inputs
    of the compute model (Recv tensors and graph inputs); without them,
    standard normal samples are used.

    Int8 edges: a Recv/Send port with ``scale``/``zero_point`` (an int8 edge of a float tensor,
    :mod:`bb_edge.quant.edges`) and the graph inputs/outputs named in ``io_quant`` are
    int8 edges of the program, their tensors quantized with exactly those parameters: no
    QUANTIZE/DEQUANTIZE, no float buffer. ``pins`` fixes the parameters of further tensors
    (a producer's kept edges). ``int8_sends`` names Send tensors and graph outputs whose edge the build
    has not fixed yet: each goes int8 with the parameters this lowering gives it when the program holds
    it int8, else float32 (:mod:`bb_edge.quant.edges` reads them from ``qparams`` and writes the
    contract; the same program as lowering the rewritten deployment, so a build lowers each node once).
    BbrtError when a pinned tensor ends up with other parameters (e.g. a MaxPool output,
    which keeps its input's).

    ``fuse_pool``: an int8 Conv (with its Relu/Clip) whose only consumer is a MaxPool without
    padding lowers to one CONV_POOL_I8, which never holds the conv's output (the C runtime's
    kernel; the MicroPython executor has none, so its builds leave this off). Same bytes as
    CONV_I8 + MAXPOOL_I8; the arena can then go below the ONNX graph's bound.

    ``state``: ``(output, input)`` pairs (deployment.json ``state``): the graph input is the session's state,
    the graph output its next value; neither is an edge. They become STATE records the C node keeps in its
    session slots (docs/bbrt.md "Session slots"); a dynamic dim is :class:`DynamicStateError`.
    """
    if precision not in ("int8", "fp32"):
        raise BbrtError(f"bbrt supports precision int8 or fp32, not {precision!r}")
    node_ids = dict(node_ids or {})
    float_ops = set(float_ops or ())
    ports = wire_ports(program)
    cm = compute_model(program)
    # a TFLite SVDF's int16 state pair is SVDF_I8's own STATE record (bb_edge/tflite/svdf.py internal_state)
    cm, state = internal_state(cm, list(state or ()))
    _check_state(cm, state)
    state_in = {i for _o, i in state}
    state_out = {o for o, _i in state}
    # symbolic dims -> 1 (batch)
    for vi in list(cm.graph.input) + list(cm.graph.output):
        for d in vi.type.tensor_type.shape.dim:
            if not d.dim_value:
                d.dim_value = 1
    if is_qdq(cm):  # a pre-quantized model: its own scales and zero points, TFLite's integer arithmetic
        if precision != "int8" or float_ops or pins:
            raise BbrtError("a QDQ model lowers as it is quantized: int8, no float_ops, no other edge "
                            "parameters than its own")
        Lq = Lowered(program=Program(node_id, [], [], []), blob=b"", precision="int8", compute=cm)
        Lq = lower_qdq(program, cm, Lq, _Builder(Lq), node_ids=node_ids, io_edges=dict(io_edges or {}),
                       ports=ports)
        own = {k: (float(np.float32(s)), z) for k, (s, z) in Lq.wire_quant.items()}
        other = {k: q for k, q in (io_quant or {}).items() if (float(np.float32(q[0])), q[1]) != own.get(k)}
        if other:  # the deployment's int8 graph inputs/outputs must be the model's own QDQ boundary
            raise BbrtError(f"a QDQ model lowers as it is quantized: graph inputs/outputs {sorted(other)} carry "
                            f"other int8 parameters ({other}) than the model's own ({own})")
        return Lq
    init = {i.name: numpy_helper.to_array(i) for i in cm.graph.initializer}
    for node in cm.graph.node:
        if node.op_type == "Constant":
            init[node.output[0]] = numpy_helper.to_array(_attrs(node)["value"])  # type: ignore[arg-type]
    if precision == "fp32":  # BatchNormalization, Div by a constant, HardSigmoid -> Mul/Add/Clip (lower_ops);
        decompose(cm, init)  # in int8 each would requantize once more: refused there (measured 0.17 on ocr-cls)
    else:  # int8: BatchNormalization folded into the Conv/Gemm before it, else a float32 scale and shift
        float_ops |= fold_batchnorm(cm, init)
    L = Lowered(program=Program(node_id, [], [], []), blob=b"", precision=precision, compute=cm)
    synthetic = calib is None
    samples = calib if calib is not None else random_samples(cm)
    L.synthetic_calibration = synthetic
    graph_inputs = [i.name for i in cm.graph.input if i.name not in init]
    in_dt = {i.name: onnx.helper.tensor_dtype_to_np_dtype(i.type.tensor_type.elem_type or 1) for i in cm.graph.input}
    samples = [{k: np.asarray(v, in_dt[k]) for k, v in s.items() if k in graph_inputs} for s in samples]  # ints stay
    values = intermediate_values(cm, samples)
    shapes = {k: tuple(int(d) for d in v.shape) for k, v in values[0].items()}
    rng_ = ranges(values)
    q8 = precision == "int8"
    io_quant = dict(io_quant or {})
    pinned: dict[str, tuple[float, int]] = {p.tensor: p.quant for p in ports if p.quant is not None}
    pinned.update(io_quant)
    pinned.update(pins or {})
    if pinned and not q8:
        raise BbrtError(f"int8 edges ({', '.join(sorted(pinned))}) need an int8 program, not {precision}; "
                        f"build with --float-edges")
    # the edge's parameters are the contract both ends share: seeded before any op asks for them
    L.qparams.update({k: (float(v[0]), int(v[1])) for k, v in pinned.items()})
    B = _Builder(L)
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for node in cm.graph.node:
        for i in node.input:
            consumers.setdefault(i, []).append(node)
    send_tensors = {p.tensor for p in ports if p.op == "Send"} | {o.name for o in cm.graph.output}

    fidx: dict[str, int] = {}  # float tensors
    qidx: dict[str, int] = {}  # int8 tensors
    iidx: dict[str, int] = {}  # integer (index) tensors: int32/int64 as the ONNX graph has them
    current: list[onnx.NodeProto] = []  # the node being lowered (for refusals that name it)

    def not_integer(name: str) -> None:
        """UnsupportedNode when an op other than Gather (indices) or a reshape reads an integer tensor."""
        if name in iidx:
            n = current[-1] if current else None
            raise UnsupportedNode(n.name if n is not None else name, n.op_type if n is not None else "?",
                                  f"reads the integer tensor {name!r}; bbrt programs use integer tensors only as "
                                  f"Gather indices (and their Reshape/Squeeze/Unsqueeze)")

    def qp(name: str) -> tuple[float, int]:
        if name not in L.qparams:
            lo, hi = rng_.get(name, (-1.0, 1.0))
            L.qparams[name] = affine_params(lo, hi)
        return L.qparams[name]

    def shape_of(name: str) -> tuple[int, ...]:
        if name in shapes:
            return shapes[name]
        if name in init:
            return tuple(int(d) for d in init[name].shape)
        raise BbrtError(f"no shape known for tensor {name!r}")

    def new_act(name: str, dtype: int, qpar: tuple[float, int] | None = None) -> int:
        s, z = qpar if qpar is not None else (qp(name) if dtype == DT_INT8 else (0.0, 0))
        idx = B.add(Tensor(name, dtype, shape_of(name), STORE_ARENA, scale=s, zero_point=z))
        (qidx if dtype == DT_INT8 else iidx if dtype in INDEX_DTYPES else fidx)[name] = idx
        return idx

    def get_f(name: str) -> int:
        """Float version of a tensor (dequantizing or making a constant if needed)."""
        not_integer(name)
        if name in fidx:
            return fidx[name]
        if name in init:
            fidx[name] = B.const(name, np.asarray(init[name], np.float32), DT_FLOAT)
            return fidx[name]
        if name in qidx:
            f = B.add(Tensor(name + "__f", DT_FLOAT, shape_of(name)))
            B.op(Op.DEQUANTIZE, [qidx[name]], [f], name=name + "__dq")
            fidx[name] = f
            return f
        raise BbrtError(f"tensor {name!r} is used before it is produced")

    def get_q(name: str) -> int:
        """Int8 version of a tensor (quantizing or making a constant if needed)."""
        not_integer(name)
        if name in qidx:
            return qidx[name]
        if name in init:
            s, z = qp(name) if name in L.qparams else affine_params(float(init[name].min()), float(init[name].max()))
            L.qparams[name] = (s, z)
            qidx[name] = B.const(name, quantize(init[name], s, z), DT_INT8, s, z)
            return qidx[name]
        if name in fidx:
            s, z = qp(name)
            q = B.add(Tensor(name + "__q", DT_INT8, shape_of(name), scale=s, zero_point=z))
            B.op(Op.QUANTIZE, [fidx[name]], [q], name=name + "__q")
            qidx[name] = q
            return q
        raise BbrtError(f"tensor {name!r} is used before it is produced")

    # Recv tensors and graph inputs: arena tensors written by the node loop
    live_in: set[int] = set()
    recv_edges: list[EdgeRecord] = []
    onnx_et = {i.name: int(i.type.tensor_type.elem_type) for i in list(cm.graph.input) + list(cm.graph.output)}
    recv_ports = {p.tensor: p for p in ports if p.op == "Recv"}
    io_edges = dict(io_edges or {})
    next_edge = 1000
    for name in graph_inputs:
        p = recv_ports.get(name)
        if name in state_in:  # the session's state: written by the node from its session slot, not an edge
            live_in.add(new_act(name, DT_FLOAT))
            continue
        if p is not None:
            et, edge, peer, peer_name = p.elem_type, p.edge_id, node_ids.get(p.peer, 0), p.peer
        else:
            if name not in io_edges:
                io_edges[name] = next_edge
                next_edge += 1
            et, edge, peer, peer_name = DT_INT8 if name in io_quant else DT_FLOAT, io_edges[name], 0, "host"
            if onnx_et.get(name) in INDEX_DTYPES:  # token ids: the edge keeps the graph's integer dtype
                et = onnx_et[name]
        if et in INDEX_DTYPES and onnx_et.get(name) == et:
            idx = new_act(name, et)
        elif et == DT_FLOAT:
            idx = new_act(name, DT_FLOAT)
        elif et == DT_INT8 and q8:
            idx = new_act(name, DT_INT8)
        else:
            raise BbrtError(f"edge {edge} ({name}) has elem_type {et}; bbrt {precision} nodes take float32 "
                            f"edges{' or int8' if q8 else ''}")
        live_in.add(idx)
        recv_edges.append(EdgeRecord(edge, peer, RECV, et, idx, peer_name))

    def fusable_act(out: str) -> onnx.NodeProto | None:
        cons = consumers.get(out, [])
        if len(cons) == 1 and out not in send_tensors and cons[0].op_type in ("Relu", "Clip") \
                and cons[0].name not in float_ops:
            return cons[0]
        return None

    def fusable_pool(t: str) -> onnx.NodeProto | None:
        """The MaxPool CONV_POOL_I8 can take over after the conv output ``t``, else None."""
        cons = consumers.get(t, [])
        if not fuse_pool or len(cons) != 1 or t in send_tensors or cons[0].op_type != "MaxPool" \
                or cons[0].name in float_ops:
            return None
        pa: dict[str, Any] = _attrs(cons[0])
        k = list(pa.get("kernel_shape", []))
        if len(k) != 2 or int(pa.get("ceil_mode", 0)) or any(int(v) for v in pa.get("pads", [0] * 4)) \
                or any(int(v) != 1 for v in pa.get("dilations", [1, 1])) \
                or pa.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET", b"VALID", "VALID") \
                or shape_of(t)[3] > CONV_POOL_MAX_W:
            return None
        return cons[0]

    def clip_bounds(node: onnx.NodeProto) -> tuple[float, float]:
        if node.op_type == "Relu":
            return 0.0, float("inf")
        a = _attrs(node)
        lo, hi = float(a.get("min", -np.inf)), float(a.get("max", np.inf))  # type: ignore[arg-type]
        if len(node.input) > 1 and node.input[1]:
            lo = float(init[node.input[1]])
        if len(node.input) > 2 and node.input[2]:
            hi = float(init[node.input[2]])
        return lo, hi

    skip: set[str] = set()
    opset = _opset(cm)
    ctx = Ctx(B, L, init, shape_of, get_f, get_q, new_act, fidx,
              lambda n: bool(consumers.get(n)) or n in send_tensors, opset, iidx)
    for node in cm.graph.node:
        if node.name in skip or node.op_type == "Constant":
            continue
        t = node.op_type
        a = _attrs(node)
        out = node.output[0]
        current[:] = [node]
        use_q = q8 and node.name not in float_ops
        act = fusable_act(out) if t in ("Conv", "Gemm", "MatMul", "Add") else None
        final = out
        lo_f, hi_f = -np.inf, np.inf
        if act is not None:
            skip.add(act.name)
            L.fused.add(out)
            final = act.output[0]
            lo_f, hi_f = clip_bounds(act)

        def qclamp(name: str, lo_f: float = lo_f, hi_f: float = hi_f) -> tuple[int, int]:
            s, z = qp(name)
            lo = -128 if not np.isfinite(lo_f) else max(-128, int(quantize(np.array([lo_f]), s, z)[0]))
            hi = 127 if not np.isfinite(hi_f) else min(127, int(quantize(np.array([hi_f]), s, z)[0]))
            return lo, hi

        if t == "Conv":
            w = np.asarray(init.get(node.input[1]), np.float32) if node.input[1] in init else None
            if w is None or w.ndim != 4:
                raise BbrtError(f"Conv {node.name!r}: only 2-D convolution with constant weights is supported")
            bias = np.asarray(init[node.input[2]], np.float32) if len(node.input) > 2 and node.input[2] else None
            xs = shape_of(node.input[0])
            kh, kw = w.shape[2], w.shape[3]
            strides = list(a.get("strides", [1, 1]))  # type: ignore[call-overload]
            dil = list(a.get("dilations", [1, 1]))  # type: ignore[call-overload]
            pads = list(a.get("pads", [0, 0, 0, 0]))  # type: ignore[call-overload]
            auto = a.get("auto_pad", b"NOTSET")
            auto = auto.decode() if isinstance(auto, bytes) else str(auto)
            if auto in ("SAME_UPPER", "SAME_LOWER"):
                pads = [0, 0, 0, 0]
                for i, (n_in, k, s, d) in enumerate(zip(xs[2:], (kh, kw), strides, dil, strict=True)):
                    o = -(-n_in // s)
                    total = max(0, (o - 1) * s + (k - 1) * d + 1 - n_in)
                    small, big = total // 2, total - total // 2
                    pads[i], pads[i + 2] = (small, big) if auto == "SAME_UPPER" else (big, small)
            geo = [strides[0], strides[1], pads[0], pads[1], pads[2], pads[3], dil[0], dil[1], int(a.get("group", 1))]  # type: ignore[call-overload]
            if use_q:
                x = get_q(node.input[0])
                sx = L.qparams[node.input[0]][0]
                wq, ws, bq, rq = _quantized_weights(w, bias, sx, qp(final)[0])
                L.weights[node.name] = {"w": wq, "w_scale": ws, "b": bq, "axis": np.array(0)}
                lo, hi = qclamp(final)
                ins = [x, B.const(node.input[1], wq, DT_INT8, 1.0, 0), B.const(f"{node.name}__bias", bq, DT_INT32),
                       B.const(f"{node.name}__rq", rq, DT_INT32)]
                pool = fusable_pool(final)
                if pool is None:
                    B.op(Op.CONV_I8, ins, [new_act(final, DT_INT8)], geo + [lo, hi], node.name)
                else:  # the pool keeps the conv output's parameters, as MAXPOOL_I8 would
                    skip.add(pool.name)
                    pa = _attrs(pool)
                    k = [int(v) for v in pa["kernel_shape"]]  # type: ignore[attr-defined]
                    st = [int(v) for v in pa.get("strides", [1, 1])]  # type: ignore[attr-defined]
                    L.qparams[pool.output[0]] = L.qparams[final]
                    B.op(Op.CONV_POOL_I8, ins, [new_act(pool.output[0], DT_INT8)], geo + [lo, hi] + k + st,
                         f"{node.name}+{pool.name}")
            else:
                x = get_f(node.input[0])
                ins = [x, B.const(node.input[1], w, DT_FLOAT)]
                if bias is not None:
                    ins.append(B.const(node.input[2], bias, DT_FLOAT))
                y = new_act(final, DT_FLOAT)
                B.op(Op.CONV_F32, ins, [y], geo + [f32_bits(lo_f), f32_bits(hi_f)], node.name)
        elif t in ("Gemm", "MatMul") and node.input[1] in init:
            wsrc = np.asarray(init[node.input[1]], np.float32)
            bias = None
            if t == "Gemm":
                if int(a.get("transA", 0)):  # type: ignore[call-overload]
                    raise BbrtError(f"Gemm {node.name!r}: transA=1 is not supported")
                wmat = (wsrc if int(a.get("transB", 0)) else wsrc.T) * np.float32(a.get("alpha", 1.0))  # type: ignore[call-overload,arg-type,operator]
                if len(node.input) > 2 and node.input[2]:
                    c = np.asarray(init[node.input[2]], np.float32) * np.float32(a.get("beta", 1.0))  # type: ignore[call-overload,arg-type,operator]
                    if c.size not in (1, wmat.shape[0]):
                        raise BbrtError(f"Gemm {node.name!r}: bias C must broadcast along N")
                    bias = np.broadcast_to(c.reshape(-1), (wmat.shape[0],)).astype(np.float32)
            else:
                if wsrc.ndim != 2:
                    raise BbrtError(f"MatMul {node.name!r}: constant B must be 2-D")
                wmat = wsrc.T
            wmat = np.ascontiguousarray(wmat, np.float32)
            if use_q:
                x = get_q(node.input[0])
                sx = L.qparams[node.input[0]][0]
                wq, ws, bq, rq = _quantized_weights(wmat, bias, sx, qp(final)[0])
                L.weights[node.name] = {"w": wq, "w_scale": ws, "b": bq, "axis": np.array(0)}
                y = new_act(final, DT_INT8)
                lo, hi = qclamp(final)
                # fold the input zero point into the bias: acc = (b - zx sum w) + sum x w, so the kernel's
                # inner loop is a bare multiply-accumulate (param 2 = 1); kept within the checker's
                # accumulator limit |bias| <= 2^30, else the kernel subtracts it at run time
                zx = L.qparams[node.input[0]][1]
                bf = bq.astype(np.int64) - int(zx) * wq.astype(np.int64).sum(axis=1)
                fold = bool(np.abs(bf).max(initial=0) <= 2**30)
                B.op(Op.FC_I8, [x, B.const(f"{node.name}__w", wq, DT_INT8, 1.0, 0),
                                B.const(f"{node.name}__bias", bf.astype(np.int32) if fold else bq, DT_INT32),
                                B.const(f"{node.name}__rq", rq, DT_INT32)], [y], [lo, hi, int(fold)], node.name)
            else:
                ins = [get_f(node.input[0]), B.const(f"{node.name}__w", wmat, DT_FLOAT)]
                if bias is not None:
                    ins.append(B.const(f"{node.name}__bias", bias, DT_FLOAT))
                y = new_act(final, DT_FLOAT)
                B.op(Op.FC_F32, ins, [y], [f32_bits(lo_f), f32_bits(hi_f)], node.name)
        elif t in ("MaxPool", "AveragePool"):
            if int(a.get("ceil_mode", 0)) or any(d != 1 for d in a.get("dilations", [1, 1])):  # type: ignore[call-overload,attr-defined]
                raise BbrtError(f"{t} {node.name!r}: ceil_mode and dilations are not supported")
            k = list(a["kernel_shape"])  # type: ignore[call-overload]
            s = list(a.get("strides", [1, 1]))  # type: ignore[call-overload]
            pads = list(a.get("pads", [0, 0, 0, 0]))  # type: ignore[call-overload]
            params = [k[0], k[1], s[0], s[1], pads[0], pads[1], pads[2], pads[3]]
            if t == "AveragePool":
                params.append(int(a.get("count_include_pad", 0)))  # type: ignore[call-overload]
            if use_q:
                x = get_q(node.input[0])
                if t == "MaxPool":
                    L.qparams[out] = L.qparams[node.input[0]]
                y = new_act(out, DT_INT8)
                B.op(Op.MAXPOOL_I8 if t == "MaxPool" else Op.AVGPOOL_I8, [x], [y], params, node.name)
            else:
                y = new_act(out, DT_FLOAT)
                B.op(Op.MAXPOOL_F32 if t == "MaxPool" else Op.AVGPOOL_F32, [get_f(node.input[0])], [y], params,
                     node.name)
        elif t == "GlobalAveragePool":
            if use_q:
                x = get_q(node.input[0])
                B.op(Op.GAP_I8, [x], [new_act(out, DT_INT8)], [], node.name)
            else:
                B.op(Op.GAP_F32, [get_f(node.input[0])], [new_act(out, DT_FLOAT)], [], node.name)
        elif t in ("Add", "Mul"):
            if use_q:
                xa, xb = get_q(node.input[0]), get_q(node.input[1])
                sa, sb = L.qparams[node.input[0]][0], L.qparams[node.input[1]][0]
                sy, zy = qp(final)
                lo, hi = qclamp(final)
                y = new_act(final, DT_INT8)
                if t == "Add":
                    ls = 20
                    twice = 2.0 * max(sa, sb)
                    ma, sha = quantize_multiplier(sa / twice)
                    mb, shb = quantize_multiplier(sb / twice)
                    mo, sho = quantize_multiplier(twice / ((1 << ls) * sy))
                    B.op(Op.ADD_I8, [xa, xb], [y], [ls, ma, sha, mb, shb, mo, sho, lo, hi], node.name)
                else:
                    m, sh = quantize_multiplier(float(np.float32(sa) * np.float32(sb) / np.float32(sy)))
                    B.op(Op.MUL_I8, [xa, xb], [y], [m, sh, lo, hi], node.name)
            else:
                y = new_act(final, DT_FLOAT)
                B.op(Op.ADD_F32 if t == "Add" else Op.MUL_F32, [get_f(node.input[0]), get_f(node.input[1])], [y],
                     [f32_bits(lo_f), f32_bits(hi_f)], node.name)
        elif t in UNARY_ACT:
            if use_q:
                x = get_q(node.input[0])
                sx, zx = L.qparams[node.input[0]]
                sy, zy = qp(out)
                real = dequantize(np.arange(-128, 128, dtype=np.int32).astype(np.int8), sx, zx)
                if t == "Relu":
                    f = np.maximum(real, 0)
                elif t == "Clip":
                    lo_c, hi_c = clip_bounds(node)
                    f = np.clip(real, lo_c, hi_c)
                elif t == "Sigmoid":
                    f = (1.0 / (1.0 + np.exp(-real.astype(np.float32)))).astype(np.float32)
                elif t == "Elu":
                    al = np.float32(a.get("alpha", 1.0))  # type: ignore[arg-type]
                    f = np.where(real > 0, real, al * (np.exp(real.astype(np.float32)) - 1)).astype(np.float32)
                elif t == "LeakyRelu":
                    al = np.float32(a.get("alpha", 0.01))  # type: ignore[arg-type]
                    f = np.where(real >= 0, real, al * real).astype(np.float32)
                else:
                    f = np.tanh(real.astype(np.float32)).astype(np.float32)
                lut = quantize(f, sy, zy)
                B.op(Op.LUT_I8, [x, B.const(f"{node.name}__lut", lut, DT_INT8, 1.0, 0)], [new_act(out, DT_INT8)],
                     [], node.name)
            else:
                x = get_f(node.input[0])
                y = new_act(out, DT_FLOAT)
                if t == "Relu":
                    B.op(Op.RELU_F32, [x], [y], [], node.name)
                elif t == "Clip":
                    lo_c, hi_c = clip_bounds(node)
                    B.op(Op.CLIP_F32, [x], [y], [f32_bits(lo_c), f32_bits(hi_c)], node.name)
                elif t in ("Elu", "LeakyRelu"):
                    alpha = float(a.get("alpha", 1.0 if t == "Elu" else 0.01))  # type: ignore[arg-type]
                    B.op(Op.ELU_F32 if t == "Elu" else Op.LEAKYRELU_F32, [x], [y], [f32_bits(alpha)], node.name)
                else:
                    B.op(Op.SIGMOID_F32 if t == "Sigmoid" else Op.TANH_F32, [x], [y], [], node.name)
        elif t == "Softmax":
            xshape = shape_of(node.input[0])
            rank = len(xshape)
            axis = int(a.get("axis", -1 if opset >= 13 else 1)) % rank  # type: ignore[call-overload]
            # the kernels normalise rows of the last dim. Opset < 13 normalises the input flattened to 2-D at
            # `axis` (rows of prod(dims[axis:])); opset >= 13 normalises `axis` alone, the same rows when every
            # dim after it is 1 (squeezenet's [1, 1000, 1, 1] at axis 1). Other axes would need a transpose.
            if axis != rank - 1 and opset >= 13 and any(d != 1 for d in xshape[axis + 1:]):
                raise BbrtError(f"Softmax {node.name!r}: only the last axis (or one followed by 1-dims) "
                                f"is supported")
            code, dt = (Op.SOFTMAX_I8, DT_INT8) if use_q else (Op.SOFTMAX_F32, DT_FLOAT)
            x = get_q(node.input[0]) if use_q else get_f(node.input[0])
            if axis == rank - 1:
                B.op(code, [x], [new_act(out, dt)], [], node.name)
            else:  # as rows: COPY into a 2-D view, SOFTMAX, COPY back (existing ops: same in every runtime)
                rows = (int(np.prod(xshape[:axis], dtype=np.int64)), int(np.prod(xshape[axis:], dtype=np.int64)))
                sm_xs, sm_xz = B.tensors[x].scale, B.tensors[x].zero_point
                sm_ys, sm_yz = qp(out) if use_q else (0.0, 0)
                x2 = B.add(Tensor(f"{out}__rows_in", dt, rows, STORE_ARENA, scale=sm_xs, zero_point=sm_xz))
                y2 = B.add(Tensor(f"{out}__rows", dt, rows, STORE_ARENA, scale=sm_ys, zero_point=sm_yz))
                B.op(Op.COPY, [x], [x2], [], f"{node.name}__rows_in")
                B.op(code, [x2], [y2], [], node.name)
                B.op(Op.COPY, [y2], [new_act(out, dt)], [], f"{node.name}__rows_out")
        elif t in COPY_OPS:
            src = node.input[0]
            if src in iidx:  # a reshape of indices stays an integer tensor
                x = iidx[src]
                y = new_act(out, B.tensors[x].dtype)
            elif use_q and src not in fidx:
                x = get_q(src)
                y = new_act(out, DT_INT8, L.qparams[src])
                L.qparams[out] = L.qparams[src]
            else:
                x = get_f(src)
                y = new_act(out, DT_FLOAT)
            B.op(Op.COPY, [x], [y], [], node.name)
        elif t == "Concat":
            rank = len(shape_of(out))
            axis = int(a["axis"]) % rank  # type: ignore[call-overload]
            if len(node.input) > 8:
                raise BbrtError(f"Concat {node.name!r}: at most 8 inputs")
            if use_q:
                ins = [get_q(i) for i in node.input]
                B.op(Op.CONCAT, ins, [new_act(out, DT_INT8)], [axis], node.name)
            else:
                B.op(Op.CONCAT, [get_f(i) for i in node.input], [new_act(out, DT_FLOAT)], [axis], node.name)
        elif t == "MatMul":
            L.float_nodes.add(node.name)
            B.op(Op.MATMUL_F32, [get_f(node.input[0]), get_f(node.input[1])], [new_act(out, DT_FLOAT)], [],
                 node.name)
        elif t in EXTRA_OPS:
            lower_extra(ctx, node, a, use_q)
        elif use_q and (t == "HardSigmoid" or (t == "Div" and node.input[1] in init
                                               and np.asarray(init[node.input[1]]).size == 1)):
            # int8: an elementwise function of one int8 input is one 256-entry table (one rounding), not the
            # Mul/Add/Clip a float32 program runs (each of which would requantize)
            x = get_q(node.input[0])
            sx, zx = L.qparams[node.input[0]]
            sy, zy = qp(out)
            real = dequantize(np.arange(-128, 128, dtype=np.int32).astype(np.int8), sx, zx).astype(np.float32)
            if t == "Div":
                f = (real / np.asarray(init[node.input[1]], np.float32).reshape(())).astype(np.float32)
            else:
                al, be = np.float32(a.get("alpha", 0.2)), np.float32(a.get("beta", 0.5))  # type: ignore[arg-type]
                f = np.clip(al * real + be, 0, 1).astype(np.float32)
            B.op(Op.LUT_I8, [x, B.const(f"{node.name}__lut", quantize(f, sy, zy), DT_INT8, 1.0, 0)],
                 [new_act(out, DT_INT8)], [], node.name)
        elif q8 and t in DECOMPOSED:
            raise UnsupportedNode(node.name or out, t, "no int8 bbrt kernel (float32 programs run it as Mul/Add/Clip: "
                                  "build this node with --precision fp32)")
        else:
            raise UnsupportedNode(node.name or out, t, "no bbrt kernel; supported: Conv, Gemm, MatMul, MaxPool, "
                                  "AveragePool, GlobalAveragePool, Add, Mul, Relu, Clip, Sigmoid, Tanh, Elu, "
                                  "LeakyRelu, PRelu, Softmax, Reshape/Flatten/Squeeze/Unsqueeze, Concat, Transpose, "
                                  "Pad, Resize, Gather, LSTM, GRU; in float32 BatchNormalization, HardSigmoid, "
                                  "Div by a constant")
        if q8 and not use_q:
            L.float_nodes.add(node.name)

    # Send ports and graph outputs
    send_edges: list[EdgeRecord] = []
    live_out: set[int] = set()
    send_ports = [p for p in ports if p.op == "Send"]
    outs = [(p.tensor, p.elem_type, p.edge_id, node_ids.get(p.peer, 0), p.peer) for p in send_ports]
    for o in cm.graph.output:
        if o.name in state_out:
            continue
        if o.name not in {p.tensor for p in send_ports}:
            if o.name not in io_edges:
                io_edges[o.name] = next_edge
                next_edge += 1
            outs.append((o.name, DT_INT8 if o.name in io_quant else DT_FLOAT, io_edges[o.name], 0, "host"))
            if onnx_et.get(o.name) in INDEX_DTYPES:
                outs[-1] = (o.name, onnx_et[o.name], *outs[-1][2:])
    free = set(int8_sends or ()) if q8 else set()
    for name, et, edge, peer, peer_name in outs:
        if name in free:  # as the rewritten contract will say: int8 where the program holds the tensor int8
            et = DT_INT8 if name in L.qparams else DT_FLOAT
        if name in graph_inputs and name not in fidx and name not in qidx and name not in iidx:
            continue
        if et in INDEX_DTYPES and name in iidx and B.tensors[iidx[name]].dtype == et:
            idx = iidx[name]
        elif et == DT_FLOAT:
            idx = get_f(name)
        elif et == DT_INT8 and q8:
            idx = get_q(name)
        else:
            raise BbrtError(f"edge {edge} ({name}) has elem_type {et}; not supported by bbrt {precision}")
        live_out.add(idx)
        send_edges.append(EdgeRecord(edge, peer, SEND, et, idx, peer_name))

    for name, q in pinned.items():
        if name in L.qparams and L.qparams[name] != (float(q[0]), int(q[1])):
            raise BbrtError(f"tensor {name!r}: its int8 edge has scale {q[0]}, zero point {q[1]}, but the program "
                            f"quantizes it with {L.qparams[name]}; rebuild both ends of the edge together")
    state_edges: list[EdgeRecord] = []
    for out_name, in_name in state:  # the node copies the output back into the session slot after a step
        o_idx = get_f(out_name)
        live_out.add(o_idx)
        state_edges.append(EdgeRecord(0, o_idx, STATE, DT_FLOAT, fidx[in_name], out_name))
    prog = Program(node_id, B.tensors, B.ops, recv_edges + send_edges + state_edges)
    planner.assign(prog, live_in, live_out)
    # the true bound: every activation of an int8 model at 1 byte (edges too, as an int8 runtime would
    # hold them), float32 only for outputs of ops kept float; no QUANTIZE/DEQUANTIZE copies, views free
    float_only = {o for n in cm.graph.node if n.name in L.float_nodes for o in n.output}
    L.model_lower_bound = planner.model_lower_bound(
        cm, shapes, lambda n: 1 if q8 and n not in float_only else 4, L.fused)
    L.program = prog
    L.index = {**fidx, **qidx, **iidx}
    L.float_index = dict(fidx)
    try:
        L.blob = prog.to_bytes()
    except ValueError as exc:  # more than 32 edges, 65535 tensors/ops or rank 8: the format's limits
        raise BbrtError(f"the node's program exceeds the bbrt format: {exc}; split the model over more "
                        f"nodes (compile --nodes) or build this node for a target with ONNX Runtime") from exc
    return L
