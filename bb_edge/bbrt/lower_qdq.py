"""Lower a pre-quantized (QDQ) ONNX program to bbrt, keeping the model's own quantization.

Why one file: every group is a branch of one closure over the graph's maps, the int8 tensors and the builder.

A QDQ model (tf2onnx's conversion of an int8 ``.tflite``, or any QuantizeLinear/DequantizeLinear
graph) already says every tensor's scale and zero point. This lowering keeps them: each
``DequantizeLinear -> float op(s) -> QuantizeLinear`` group becomes one int8 kernel whose
requantization follows TFLite's integer arithmetic (multiplier and shift from the scales in double
precision, TFLite's ``QuantizeMultiplier``; ``MultiplyByQuantizedMultiplier`` with single rounding,
which is the C runtime's ``mbqm``), so the C runtime's outputs equal TFLite's bit for bit.

Groups it knows (the five MLPerf Tiny models use only these):

- Conv (per-channel or per-tensor int8 weights, int32 bias) [+ Relu/Clip] -> CONV_I8
- MatMul of two activations, QLinearMatMul -> BATCH_MATMUL_I8 (:mod:`bb_edge.bbrt.lower_qdq_arith`)
- ConvTranspose (group 1) -> GATHER_AXES (the stride-1 conv's input) + CONV_I8 p11 = 1 (TFLite's two-rounding
  TRANSPOSE_CONV requantization)
- MatMul [+ Add of an int32 bias] [+ Relu/Clip], Gemm (alpha = beta = 1, no transA) -> FC_I8
- Add of two int8 activations [+ Relu/Clip] -> ADD_I8 (TFLite's left shift 20 and multipliers)
- AveragePool with equal input/output parameters -> AVGPOOL_I8 in TFLite's integer mode (p9 = 1)
- Softmax on the last axis -> SOFTMAX_I8 with TFLite's float exp table (a constant input)
- Mul, Sub, ReduceMean, Sigmoid, Tanh, HardSwish, LeakyRelu, Max, Min, PRelu, Resize (linear) -> MUL_I8, ADD_I8,
  GAP_I8, LUT_I8, MAXMIN_I8, PRELU_I8, RESIZE_BILINEAR_I8
  (:mod:`bb_edge.bbrt.lower_qdq_arith`, TFLite's reference arithmetic)
- Reshape/Flatten/Squeeze/Unsqueeze of an int8 tensor, or between a DequantizeLinear and a QuantizeLinear
  with the same parameters (ONNX Runtime's quantizer) -> COPY (an alias, no bytes moved)
- Transpose, Concat, Pad, Slice, Gather, Split, MaxPool of int8 tensors, or between a DequantizeLinear and a
  QuantizeLinear with the same parameters -> TRANSPOSE, CONCAT, GATHER_AXES, MAXPOOL_I8
  (:mod:`bb_edge.bbrt.lower_qdq_move`); ``DQ -> [Relu|Clip] -> Q`` of an int8 tensor -> LUT_I8 (TFLite's
  Requantize and clamp)
- Transpose NHWC -> NCHW of a graph input read by convs only: dropped, the convs read the NHWC input in
  place (CONV_I8 p15 = 1); any other Transpose of a graph input: the device takes the transposed layout
  (``input_perm``, the host transposes)

uint8 quantization (ONNX Runtime's default activations, zero point 128) lowers as int8 exactly
(:mod:`bb_edge.bbrt.qdq_uint8`: ``v - 128`` with zero point ``z - 128``). A float graph input read only
by QuantizeLinear (per-tensor) is an int8 edge with that QuantizeLinear's parameters, and a float graph
output written by a DequantizeLinear of an int8 tensor is that int8 tensor's edge: ``Lowered.wire_quant``
names them, and the host quantizes/dequantizes at its side of the wire (:mod:`bb_edge.engine.edgequant`,
the rounding of ONNX QuantizeLinear), as an int8 edge of a float model.

Anything else between a DequantizeLinear and the next QuantizeLinear is an
:class:`UnsupportedQuantPattern` naming the node and the op: never a silent float fallback.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from typing import Any

import numpy as np
import onnx
from onnx import numpy_helper, shape_inference

from bb_edge.bbrt import planner
from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.format import (
    DT_FLOAT,
    DT_INT8,
    DT_INT16,
    DT_INT32,
    RECV,
    SEND,
    STATE,
    STORE_ARENA,
    EdgeRecord,
    Op,
    Program,
    Tensor,
)
from bb_edge.bbrt.lower_qdq_arith import ARITH_OPS, batch_matmul, lower_arith, lower_qlinear_matmul, lower_svdf
from bb_edge.bbrt.lower_qdq_lstm import lower_lstm
from bb_edge.bbrt.lower_qdq_move import (
    MOVE_OPS,
    MoveCtx,
    data_inputs,
    gathered,
    lower_move,
    requant_table,
    tconv_tables,
)
from bb_edge.bbrt.qdq_uint8 import int8_from_uint8
from bb_edge.bbrt.quant import quantize_multiplier
from bb_edge.tflite.svdf import DOMAIN as SVDF_DOMAIN

QDQ_OPS = {"QuantizeLinear", "DequantizeLinear"}
VIEW_OPS = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity"}
#: float ops a QuantizeLinear ends a group of (lowered when that QuantizeLinear is met)
GROUP_OPS = {"Conv", "ConvTranspose", "MatMul", "Gemm", "Add", "Relu", "Clip", "AveragePool", "Softmax"} | ARITH_OPS


class UnsupportedQuantPattern(BbrtError):
    """A QDQ pattern the int8 lowering cannot keep exact (``node``, ``op``: where and what)."""

    fix = "keep the model's float op out of the int8 part (a float node), or quantize it in the model"

    def __init__(self, node: str, op: str, why: str) -> None:
        self.node, self.op = node, op
        super().__init__(f"node {node!r} ({op}): {why}; bbrt lowers a QDQ model in int8 only, never with "
                         f"a float fallback on the device")


def is_qdq(model: onnx.ModelProto) -> bool:
    """True when the model carries its own quantization (QuantizeLinear/DequantizeLinear nodes, or ONNX's
    quantization_annotation on an int8 graph of data-movement ops only)."""
    return any(n.op_type in QDQ_OPS for n in model.graph.node) or len(model.graph.quantization_annotation) > 0


def annotated_params(model: onnx.ModelProto, init: dict[str, np.ndarray]) -> dict[str, tuple[float, int]]:
    """(scale, zero point) of each tensor named in the graph's quantization_annotation (constant scalars)."""
    out = {}
    for a in model.graph.quantization_annotation:
        kv = {e.key: e.value for e in a.quant_parameter_tensor_names}
        s, z = init.get(kv.get("SCALE_TENSOR", "")), init.get(kv.get("ZERO_POINT_TENSOR", ""))
        if s is not None and z is not None and s.size == 1 and z.size == 1:
            out[a.tensor_name] = (float(s.reshape(-1)[0]), int(z.reshape(-1)[0]))
    return out


def _attrs(node: onnx.NodeProto) -> dict[str, Any]:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


_LIBM: Any = None


def expf(x: np.ndarray) -> np.ndarray:
    """float32 ``expf`` of the C library, element by element: the values TFLite's softmax table holds."""
    global _LIBM  # noqa: PLW0603 - loaded once
    if _LIBM is None:
        _LIBM = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        _LIBM.expf.restype = ctypes.c_float
        _LIBM.expf.argtypes = [ctypes.c_float]
    return np.array([_LIBM.expf(float(v)) for v in np.asarray(x, np.float32)], np.float32)


def softmax_table(scale_x: float, beta: float = 1.0) -> np.ndarray:
    """TFLite's ``PopulateSoftmaxLookupTable``: table[255 - d] = expf(-scale_x * beta * d), float32."""
    s = np.float32(-np.float32(scale_x) * np.float32(beta))
    d = np.arange(256, dtype=np.float32)
    return expf((s * d).astype(np.float32))[::-1].copy()


def act_bounds(node: onnx.NodeProto | None, init: dict[str, np.ndarray], sy: float, zy: int) -> tuple[int, int]:
    """TFLite's fused activation range in int8: zero point + round-half-away(bound / scale), saturated."""
    lo, hi = -math.inf, math.inf
    if node is not None:
        if node.op_type == "Relu":
            lo = 0.0
        else:
            a = _attrs(node)
            lo, hi = float(a.get("min", -math.inf)), float(a.get("max", math.inf))
            if len(node.input) > 1 and node.input[1]:
                lo = float(init[node.input[1]])
            if len(node.input) > 2 and node.input[2]:
                hi = float(init[node.input[2]])

    def q(v: float) -> float:
        r = v / float(np.float32(sy))
        return zy + math.copysign(math.floor(abs(r) + 0.5), r)

    qlo = -128 if lo == -math.inf else int(max(-128, q(lo)))
    qhi = 127 if hi == math.inf else int(min(127, q(hi)))
    return qlo, qhi


def mbqm(x: int, m: int, shift: int) -> int:
    """The C runtime's (and TFLite's single-rounding) ``MultiplyByQuantizedMultiplier``, clamped as in C."""
    shift = min(30, max(-31, shift))
    total = 31 - shift
    r = (x * m + (1 << (total - 1))) >> total
    return max(-(2**30 - 1), min(2**30 - 1, r))


def fit_bias(bq: np.ndarray, w: np.ndarray, rq: np.ndarray, zy: int, lo: int, hi: int,
             where: tuple[str, str]) -> np.ndarray:
    """Biases beyond the runtime's accumulator limit (|b| <= 2^30) where that keeps the output exact.

    TFLite converters give a channel whose weights are all zero a huge bias (its output is a constant);
    such a channel's bias is replaced by +-2^30 when that gives the same saturated constant.
    """
    out = bq.astype(np.int64).copy()
    for c in np.nonzero(np.abs(out) > 2**30)[0]:
        m, sh = int(rq[2 * c]), int(rq[2 * c + 1])
        want = min(hi, max(lo, mbqm(int(out[c]), m, sh) + zy))
        cand = int(np.sign(out[c])) * 2**30
        if np.any(w[c] != 0) or min(hi, max(lo, mbqm(cand, m, sh) + zy)) != want:
            raise UnsupportedQuantPattern(where[0], where[1], f"channel {c}: bias {int(out[c])} is beyond the "
                                          f"int32 accumulator limit 2^30 and its weights are not all zero")
        out[c] = cand
    return out.astype(np.int32)


def lower_qdq(program: onnx.ModelProto, cm: onnx.ModelProto, lowered: Any, builder: Any, *,
              node_ids: dict[str, int], io_edges: dict[str, int], ports: list[Any]) -> Any:
    """Fill ``lowered`` (a :class:`bb_edge.bbrt.lower.Lowered`) from the QDQ compute model ``cm``."""
    L, B = lowered, builder
    del program
    cm, L.uint8_io = int8_from_uint8(cm)
    init = {i.name: numpy_helper.to_array(i) for i in cm.graph.initializer}
    for node in cm.graph.node:
        if node.op_type == "Constant":
            init[node.output[0]] = numpy_helper.to_array(_attrs(node)["value"])
    m = onnx.ModelProto()
    m.CopyFrom(cm)
    try:
        inferred = shape_inference.infer_shapes(m)
    except Exception as e:  # noqa: BLE001 - reported as a lowering error
        raise BbrtError(f"shape inference failed on the QDQ model: {e}") from e
    shapes: dict[str, tuple[int, ...]] = {}
    for vi in list(inferred.graph.input) + list(inferred.graph.value_info) + list(inferred.graph.output):
        dims = vi.type.tensor_type.shape.dim
        shapes[vi.name] = tuple(int(d.dim_value) if d.dim_value > 0 else 1 for d in dims)
    prod = {o: n for n in cm.graph.node for o in n.output}
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for n in cm.graph.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    graph_inputs = [i.name for i in cm.graph.input if i.name not in init]
    elem = {vi.name: vi.type.tensor_type.elem_type for vi in list(cm.graph.input) + list(cm.graph.output)}

    qidx: dict[str, int] = {}  # int8 activations by ONNX name
    deq: dict[str, str] = {}  # float name -> the int8 activation it dequantizes
    cq: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, int]] = {}  # float const -> (q, scale, zp, axis)
    used: set[str] = set()  # nodes taken by a group
    nhwc: set[str] = set()  # int8 graph inputs kept NHWC (their Transpose to NCHW is folded into the convs)

    def qparams(node: onnx.NodeProto) -> tuple[np.ndarray, np.ndarray, int]:
        s = np.asarray(init[node.input[1]], np.float32)
        if len(node.input) > 2 and node.input[2]:
            z = np.asarray(init[node.input[2]])
        else:
            z = np.zeros(s.shape, np.uint8 if node.op_type == "QuantizeLinear" else np.int8)
        return s, z, int(_attrs(node).get("axis", 1))

    annotated = annotated_params(cm, init)

    def act_params(name: str, where: onnx.NodeProto) -> tuple[float, int]:
        """(scale, zero point) of an int8 activation, read from the DequantizeLinear that consumes it."""
        if name in annotated:
            return annotated[name]
        for c in consumers.get(name, []):
            if c.op_type == "DequantizeLinear":
                s, z, _ = qparams(c)
                return float(s.reshape(-1)[0]), int(z.reshape(-1)[0])
            if c.op_type in VIEW_OPS or c.op_type in MOVE_OPS:
                return act_params(c.output[0], c)
        raise UnsupportedQuantPattern(where.name, where.op_type, f"no DequantizeLinear reads {name!r}")

    def shape_of(name: str) -> tuple[int, ...]:
        if name not in shapes:
            raise BbrtError(f"no shape known for tensor {name!r}")
        return shapes[name]

    def new_q(name: str, s: float, z: int, shape: tuple[int, ...] | None = None) -> int:
        idx = B.add(Tensor(name, DT_INT8, shape or shape_of(name), STORE_ARENA, scale=float(np.float32(s)),
                           zero_point=int(z)))
        qidx[name] = idx
        L.qparams[name] = (float(np.float32(s)), int(z))
        return idx

    def src(name: str, node: onnx.NodeProto) -> str:
        """The int8 activation behind a float input of ``node`` (it must be a DequantizeLinear output)."""
        if name not in deq:
            p = prod.get(name)
            raise UnsupportedQuantPattern(node.name, node.op_type, f"input {name!r} comes from "
                                          f"{p.op_type if p is not None else 'a float graph input'}, "
                                          f"not from a DequantizeLinear")
        return deq[name]

    def operand(name: str, node: onnx.NodeProto) -> tuple[int, float, int]:
        """An int8 activation's tensor, or a constant int8 tensor (per-tensor) as a program constant."""
        if name in deq:
            s, z = L.qparams[deq[name]]
            return qidx[deq[name]], s, z
        if name in cq and cq[name][0].dtype == np.int8 and cq[name][1].size == 1:
            q, s_a, z_a, _ = cq[name]
            s, z = float(np.float32(s_a.reshape(-1)[0])), int(z_a.reshape(-1)[0])
            return B.const(f"{node.name}__{name}", np.ascontiguousarray(q), DT_INT8, s, z), s, z
        raise UnsupportedQuantPattern(node.name, node.op_type, f"input {name!r} is neither an int8 activation "
                                      f"nor a per-tensor int8 constant")

    def const(name: str, node: onnx.NodeProto) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        if name not in cq:
            raise UnsupportedQuantPattern(node.name, node.op_type, f"{name!r} is not a quantized constant")
        return cq[name]

    # graph inputs (and Recv edges): int8 tensors with the parameters their DequantizeLinear states
    recv_ports = {p.tensor: p for p in ports if p.op == "Recv"}
    live_in: set[int] = set()
    recv_edges: list[EdgeRecord] = []
    next_edge = 1000
    L.input_perm = {}
    def recv(name: str, idx: int) -> None:
        nonlocal next_edge
        p = recv_ports.get(name)
        if p is not None:
            edge, peer, peer_name = p.edge_id, node_ids.get(p.peer, 0), p.peer
        else:
            if name not in io_edges:
                io_edges[name] = next_edge
                next_edge += 1
            edge, peer, peer_name = io_edges[name], 0, "host"
        live_in.add(idx)
        recv_edges.append(EdgeRecord(edge, peer, RECV, DT_INT8, idx, peer_name))

    for name in graph_inputs:
        qs = consumers.get(name, [])
        if elem.get(name) == onnx.TensorProto.FLOAT and qs and all(q.op_type == "QuantizeLinear" for q in qs):
            # quantized at the wire: the device's edge is the int8 tensor (the host quantizes, edgequant)
            params = {(float(np.float32(a.reshape(-1)[0])), int(b.reshape(-1)[0]), a.size) for a, b, _ in
                      (qparams(q) for q in qs)}
            if len(params) != 1 or next(iter(params))[2] != 1:
                raise UnsupportedQuantPattern(qs[0].name, qs[0].op_type, f"graph input {name!r} is quantized "
                                              "per axis or with several parameters (one per-tensor pair only)")
            s, z, _ = next(iter(params))
            idx = new_q(name, s, z)
            for q in qs:
                used.add(q.name)
                qidx[q.output[0]] = idx
                L.qparams[q.output[0]] = (s, z)
            L.wire_quant[name] = (s, z)
            recv(name, idx)
            continue
        if elem.get(name) != onnx.TensorProto.INT8:
            raise UnsupportedQuantPattern(name, "input", f"graph input {name!r} of a QDQ program must be int8 "
                                          f"(elem_type {elem.get(name)})")
        s, z = act_params(name, consumers[name][0])
        shape = shape_of(name)
        cons = consumers.get(name, [])
        tname = name
        if len(cons) == 1 and cons[0].op_type == "Transpose":
            perm = [int(v) for v in _attrs(cons[0])["perm"]]
            used.add(cons[0].name)
            tname = cons[0].output[0]
            readers = [r for d in consumers.get(tname, []) for r in consumers.get(d.output[0], [])]
            if perm == [0, 3, 1, 2] and all(d.op_type == "DequantizeLinear" for d in consumers.get(tname, [])) \
                    and readers and all(r.op_type == "Conv" and r.input[0] in {d.output[0] for d in
                                                                               consumers[tname]} for r in readers):
                nhwc.add(tname)  # NHWC to NCHW before convs only: the convs read the NHWC input in place
            else:  # the device takes the transposed layout (the host transposes)
                L.input_perm[name] = perm
                shape = shape_of(tname)
        idx = new_q(tname, s, z, shape)
        if tname != name:
            qidx[name] = idx
        recv(name, idx)

    mctx = MoveCtx(B, L, init, shape_of, qidx, new_q,
                   lambda n, why: UnsupportedQuantPattern(n.name, n.op_type, why))

    def conv_geo(p: onnx.NodeProto, kh: int, kw: int) -> list[int]:
        a = _attrs(p)
        auto = a.get("auto_pad", b"NOTSET")
        auto = auto.decode() if isinstance(auto, bytes) else str(auto)
        if auto not in ("NOTSET", "VALID"):
            raise UnsupportedQuantPattern(p.name, p.op_type, f"auto_pad {auto} (the converter writes pads)")
        st = [int(v) for v in a.get("strides", [1, 1])]
        pads = [int(v) for v in a.get("pads", [0, 0, 0, 0])]
        dil = [int(v) for v in a.get("dilations", [1, 1])]
        return [st[0], st[1], pads[0], pads[1], pads[2], pads[3], dil[0], dil[1], int(a.get("group", 1))]

    def weights(p: onnx.NodeProto, name: str, n_out: int, axis_out: int) -> tuple[np.ndarray, np.ndarray]:
        wq, ws, wz, axis = const(name, p)
        if wq.dtype != np.int8 or np.any(wz != 0):
            raise UnsupportedQuantPattern(p.name, p.op_type, f"weights {name!r} are {wq.dtype} with zero points "
                                          f"{np.unique(wz)[:4]}: bbrt takes symmetric int8 weights")
        ws = ws.reshape(-1)
        if ws.size not in (1, n_out) or (ws.size > 1 and axis % wq.ndim != axis_out):
            raise UnsupportedQuantPattern(p.name, p.op_type, f"weight scales of shape {ws.shape} along axis "
                                          f"{axis}: per-tensor or per-output-channel only")
        return wq, np.broadcast_to(ws, (n_out,)).astype(np.float32)

    def bias(p: onnx.NodeProto, name: str | None, n_out: int) -> np.ndarray:
        if not name:
            return np.zeros(n_out, np.int32)
        bq, _bs, bz, _ = const(name, p)
        if bq.dtype != np.int32 or np.any(bz != 0) or bq.size != n_out:
            raise UnsupportedQuantPattern(p.name, p.op_type, f"bias {name!r} must be int32, zero point 0, "
                                          f"{n_out} values")
        return bq.reshape(-1).astype(np.int32)

    def requant(sx: float, ws: np.ndarray, sy: float) -> np.ndarray:
        """TFLite: multiplier of (double) s_x * (double) s_w / (double) s_y, per output channel."""
        return np.array([quantize_multiplier(float(sx) * float(w) / float(sy)) for w in ws], np.int32).reshape(-1)

    def single_use(p: onnx.NodeProto) -> None:
        if len(consumers.get(p.output[0], [])) != 1 or p.output[0] in {o.name for o in cm.graph.output}:
            raise UnsupportedQuantPattern(p.name, p.op_type, "its float output is read by more than the "
                                          "QuantizeLinear of its group")

    def _group(qn: onnx.NodeProto) -> None:
        sy_a, zy_a, _ = qparams(qn)
        if sy_a.size != 1:
            raise UnsupportedQuantPattern(qn.name, qn.op_type, "per-axis activation quantization")
        if zy_a.dtype != np.int8:
            raise UnsupportedQuantPattern(qn.name, qn.op_type, f"{zy_a.dtype} activations (bbrt keeps int8)")
        sy, zy = float(sy_a.reshape(-1)[0]), int(zy_a.reshape(-1)[0])
        out = qn.output[0]
        p = prod.get(qn.input[0])
        if p is None:
            raise UnsupportedQuantPattern(qn.name, qn.op_type, "quantizes a float graph input")
        act = None
        if p.op_type in ("Relu", "Clip"):
            act = p
            single_use(p)
            used.add(p.name)
            p = prod.get(p.input[0])
            if p is None:
                raise UnsupportedQuantPattern(act.name, act.op_type, "activation of a float graph input")
        lo, hi = act_bounds(act, init, sy, zy)
        t = p.op_type
        if t == "DequantizeLinear":  # int8 -> int8: TFLite's Requantize [and clamp] as a 256-byte table
            x = src(p.output[0], p)
            s_in, z_in = L.qparams[x]
            tab = requant_table(s_in, z_in, sy, zy, lo, hi, f32_ratio=act is not None)  # TFLite's ReluX
            B.op(Op.LUT_I8, [qidx[x], B.const(f"{qn.name}__lut", tab, DT_INT8, 1.0, 0)], [new_q(out, sy, zy)], [],
                 qn.name)
            return
        single_use(p)
        used.add(p.name)
        if t in MOVE_OPS and t != "Split":  # DQ -> data movement -> Q with the same parameters
            movers = [src(i, p) for i in data_inputs(p)]
            if act is not None or any(L.qparams[v] != (float(np.float32(sy)), zy) for v in movers):
                raise UnsupportedQuantPattern(p.name, t, "an int8 data-movement op keeps its input's parameters; "
                                              "this one requantizes or fuses an activation")
            lower_move(mctx, p, movers, [out])
            return
        if t == "Conv":
            x = src(p.input[0], p)
            sx = L.qparams[x][0]
            n_out = int(const(p.input[1], p)[0].shape[0])
            wq, ws = weights(p, p.input[1], n_out, 0)
            bq = bias(p, p.input[2] if len(p.input) > 2 else None, n_out)
            rq = requant(sx, ws, sy)
            bq = fit_bias(bq, wq.reshape(n_out, -1), rq, zy, lo, hi, (p.name, t))
            L.weights[p.name] = {"w": wq, "w_scale": ws, "b": bq, "axis": np.array(0)}
            ins = [qidx[x], B.const(p.input[1], wq, DT_INT8, 1.0, 0), B.const(f"{p.name}__bias", bq, DT_INT32),
                   B.const(f"{p.name}__rq", rq, DT_INT32)]
            layout = [0, 0, 0, 0, 1] if x in nhwc else []  # p15 = 1: the input is NHWC
            B.op(Op.CONV_I8, ins, [new_q(out, sy, zy)], conv_geo(p, wq.shape[2], wq.shape[3]) + [lo, hi] + layout,
                 p.name)
            return
        if t == "ConvTranspose":  # the input gathered into a stride-1 conv's (zero-point filled), flipped kernel
            x = src(p.input[0], p)
            sx, zx = L.qparams[x]
            a = _attrs(p)
            n_out = int(const(p.input[1], p)[0].shape[1])
            if int(a.get("group", 1)) != 1 or any(int(v) != 1 for v in a.get("dilations", [1, 1])) \
                    or "output_shape" in a or a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
                raise UnsupportedQuantPattern(p.name, t, "group 1, dilation 1 and explicit pads only")
            wq, ws = weights(p, p.input[1], n_out, 1)
            w = np.ascontiguousarray(wq.transpose(1, 0, 2, 3)[:, :, ::-1, ::-1])  # [O, I, KH, KW], flipped
            bq = bias(p, p.input[2] if len(p.input) > 2 else None, n_out)
            rq = requant(sx, ws, sy)
            bq = fit_bias(bq, w.reshape(n_out, -1), rq, zy, lo, hi, (p.name, t))
            L.weights[p.name] = {"w": w, "w_scale": ws, "b": bq, "axis": np.array(0)}
            st = [int(v) for v in a.get("strides", [1, 1])]
            pads = [int(v) for v in a.get("pads", [0, 0, 0, 0])]
            ys = shape_of(out)
            xg = gathered(mctx, p, x, tconv_tables(shape_of(p.input[0]), (w.shape[2], w.shape[3]), (st[0], st[1]),
                                                   (pads[0], pads[1]), (ys[2], ys[3])), zx)
            ins = [xg, B.const(f"{p.name}__w", w, DT_INT8, 1.0, 0), B.const(f"{p.name}__bias", bq, DT_INT32),
                   B.const(f"{p.name}__rq", rq, DT_INT32)]
            # p11 = 1: TFLite's reference TRANSPOSE_CONV requantizes with two roundings
            B.op(Op.CONV_I8, ins, [new_q(out, sy, zy)], [1, 1, 0, 0, 0, 0, 1, 1, 1, lo, hi, 1], p.name)
            return
        if t == "Add" and all(i in deq or (i in cq and cq[i][0].dtype == np.int8) for i in p.input[:2]):
            (ia, sa, _), (ib, sb, _) = operand(p.input[0], p), operand(p.input[1], p)  # an int8 constant too
            ls = 20
            twice = 2.0 * max(sa, sb)
            ma, sha = quantize_multiplier(sa / twice)
            mb, shb = quantize_multiplier(sb / twice)
            mo, sho = quantize_multiplier(twice / ((1 << ls) * sy))
            B.op(Op.ADD_I8, [ia, ib], [new_q(out, sy, zy)], [ls, ma, sha, mb, shb, mo, sho, lo, hi], p.name)
            return
        if t in VIEW_OPS and act is None and p.input[0] in deq:  # DQ -> Flatten -> Q, the same parameters
            x = src(p.input[0], p)
            if L.qparams[x] != (float(np.float32(sy)), zy):
                raise UnsupportedQuantPattern(p.name, t, "a reshape that requantizes (its QuantizeLinear's "
                                              "parameters differ from its input's)")
            B.op(Op.COPY, [qidx[x]], [new_q(out, sy, zy)], [], p.name)
            return
        bname = None
        if t == "Gemm":
            a = _attrs(p)
            if int(a.get("transA", 0)) or float(a.get("alpha", 1.0)) != 1.0 or float(a.get("beta", 1.0)) != 1.0:
                raise UnsupportedQuantPattern(p.name, t, "a Gemm with transA, or alpha or beta other than 1")
            bname = p.input[2] if len(p.input) > 2 and p.input[2] else None
        if t == "Add":
            mm_in = [i for i in p.input if i not in cq]
            b_in = [i for i in p.input if i in cq]
            mm = prod.get(mm_in[0]) if len(mm_in) == 1 and len(b_in) == 1 else None
            if mm is None or mm.op_type != "MatMul":
                raise UnsupportedQuantPattern(p.name, t, "an Add of an activation and a constant that is not "
                                              "a MatMul's int32 bias")
            single_use(mm)
            used.add(mm.name)
            bname, p, t = b_in[0], mm, "MatMul"
        if t == "MatMul" and p.input[1] in deq:  # two activations: TFLite's BATCH_MATMUL arithmetic
            try:
                batch_matmul(mctx, p.name, operand(p.input[0], p), operand(p.input[1], p), out, (sy, zy, lo, hi))
            except BbrtError as e:
                raise UnsupportedQuantPattern(p.name, t, str(e)) from e
            return
        if t in ("MatMul", "Gemm"):
            x = src(p.input[0], p)
            sx, zx = L.qparams[x]
            wq_kn, _ws0, _z, _a = const(p.input[1], p)
            if wq_kn.ndim != 2:
                raise UnsupportedQuantPattern(p.name, t, f"{t} weights must be 2-D")
            trans = t == "Gemm" and int(_attrs(p).get("transB", 0)) == 1  # weights already [N, K]
            n_out = int(wq_kn.shape[0] if trans else wq_kn.shape[1])
            wq, ws = weights(p, p.input[1], n_out, 0 if trans else 1)
            w = np.ascontiguousarray(wq if trans else wq.T)
            rq = requant(sx, ws, sy)
            bq = fit_bias(bias(p, bname, n_out), w, rq, zy, lo, hi, (p.name, t))
            L.weights[p.name] = {"w": w, "w_scale": ws, "b": bq, "axis": np.array(0)}
            bf = bq.astype(np.int64) - int(zx) * w.astype(np.int64).sum(axis=1)
            fold = bool(np.abs(bf).max(initial=0) <= 2**30)
            B.op(Op.FC_I8, [qidx[x], B.const(f"{p.name}__w", w, DT_INT8, 1.0, 0),
                            B.const(f"{p.name}__bias", bf.astype(np.int32) if fold else bq, DT_INT32),
                            B.const(f"{p.name}__rq", rq, DT_INT32)],
                 [new_q(out, sy, zy)], [lo, hi, int(fold)], p.name)
            return
        if t == "AveragePool":
            x = src(p.input[0], p)
            a = _attrs(p)
            if act is not None or L.qparams[x] != L.qparams.get(out, (float(np.float32(sy)), zy)) \
                    or (float(np.float32(sy)), zy) != L.qparams[x]:
                raise UnsupportedQuantPattern(p.name, t, "an int8 average pool keeps its input's parameters "
                                              "(TFLite's kernel); this one requantizes or fuses an activation")
            if int(a.get("ceil_mode", 0)) or any(int(d) != 1 for d in a.get("dilations", [1, 1])):
                raise UnsupportedQuantPattern(p.name, t, "ceil_mode and dilations are not supported")
            k = [int(v) for v in a["kernel_shape"]]
            st = [int(v) for v in a.get("strides", [1, 1])]
            pads = [int(v) for v in a.get("pads", [0, 0, 0, 0])]
            B.op(Op.AVGPOOL_I8, [qidx[x]], [new_q(out, sy, zy)],
                 [k[0], k[1], st[0], st[1], *pads, int(a.get("count_include_pad", 0)), 1], p.name)
            return
        if t == "Softmax":
            x = src(p.input[0], p)
            xs = shape_of(p.input[0])
            axis = int(_attrs(p).get("axis", -1)) % len(xs)
            if act is not None or axis != len(xs) - 1:
                raise UnsupportedQuantPattern(p.name, t, "int8 softmax on the last axis only")
            tab = B.const(f"{p.name}__exp", softmax_table(L.qparams[x][0]), DT_FLOAT)
            B.op(Op.SOFTMAX_I8, [qidx[x], tab], [new_q(out, sy, zy)], [], p.name)
            return
        if t in ARITH_OPS:  # Mul, Sub, ReduceMean, Sigmoid, Tanh, HardSwish, LeakyRelu (lower_qdq_arith)
            lower_arith(mctx, p, act, out, (sy, zy, lo, hi), operand)
            return
        raise UnsupportedQuantPattern(p.name, t, "no int8 kernel for this op between DequantizeLinear and "
                                      "QuantizeLinear")

    for node in cm.graph.node:
        t = node.op_type
        if node.name in used or t == "Constant":
            continue
        if t == "DequantizeLinear":
            ds, dz, daxis = qparams(node)
            x = node.input[0]
            if x in init:
                cq[node.output[0]] = (np.asarray(init[x]), ds, dz, daxis)
            elif x in qidx:
                have = L.qparams[x]
                if ds.size != 1 or (float(ds.reshape(-1)[0]), int(dz.reshape(-1)[0])) != have:
                    raise UnsupportedQuantPattern(node.name, t, f"dequantizes {x!r} with other parameters than "
                                                  f"it was quantized with {have}")
                deq[node.output[0]] = x
            else:
                raise UnsupportedQuantPattern(node.name, t, f"input {x!r} is not an int8 tensor of the program")
            continue
        if t in MOVE_OPS and all(i in qidx for i in data_inputs(node)):  # int8 in, int8 out
            lower_move(mctx, node, data_inputs(node), list(node.output))
            used.add(node.name)
            continue
        if t in VIEW_OPS and node.input[0] in qidx:
            x = node.input[0]
            s, z = L.qparams[x]
            B.op(Op.COPY, [qidx[x]], [new_q(node.output[0], s, z)], [], node.name)
            used.add(node.name)
            continue
        if t == "QuantizeLinear":
            _group(node)
            continue
        if t == "Svdf" and node.domain == SVDF_DOMAIN:  # the TFLite translator's SVDF (its state: STATE pair)
            lower_svdf(mctx, node)
            used.add(node.name)
            continue
        if t == "Lstm" and node.domain == SVDF_DOMAIN:  # the TFLite translator's integer LSTM
            lower_lstm(mctx, node)
            used.add(node.name)
            continue
        if t == "QLinearMatMul":  # int8 in and out (the TFLite translator's BATCH_MATMUL)
            lower_qlinear_matmul(mctx, node)
            used.add(node.name)
            continue
        if t in GROUP_OPS or t in VIEW_OPS or t in MOVE_OPS:
            continue  # taken by the QuantizeLinear that ends its group (checked below)
        raise UnsupportedQuantPattern(node.name, t, "no int8 kernel for this op in a QDQ model")

    for node in cm.graph.node:
        if node.op_type in GROUP_OPS | VIEW_OPS | MOVE_OPS and node.name not in used:
            raise UnsupportedQuantPattern(node.name, node.op_type, "its float output is not quantized by a "
                                          "QuantizeLinear (a float op between DequantizeLinear and "
                                          "QuantizeLinear with no int8 kernel)")

    # graph outputs (and Send edges)
    send_ports = [p for p in ports if p.op == "Send"]
    outs = [(p.tensor, p.edge_id, node_ids.get(p.peer, 0), p.peer) for p in send_ports]
    for o in cm.graph.output:
        if o.name not in {p.tensor for p in send_ports}:
            if o.name not in io_edges:
                io_edges[o.name] = next_edge
                next_edge += 1
            outs.append((o.name, io_edges[o.name], 0, "host"))
    send_edges: list[EdgeRecord] = []
    live_out: set[int] = set()
    for name, edge, peer, peer_name in outs:
        if name not in qidx and name in deq:  # a float output dequantized from an int8 tensor: dequantized at
            qidx[name] = qidx[deq[name]]  # the host (the device sends the int8 tensor)
            L.wire_quant[name] = L.qparams[deq[name]]
        if name not in qidx:
            raise UnsupportedQuantPattern(name, "output", f"graph output {name!r} is not an int8 tensor")
        live_out.add(qidx[name])
        send_edges.append(EdgeRecord(edge, peer, SEND, DT_INT8, qidx[name], peer_name))
    state_edges = []
    for s_in, s_out, sname in B.state_pairs:  # the node keeps these in its session slots between steps
        live_in.add(s_in)
        live_out.add(s_out)
        state_edges.append(EdgeRecord(0, s_out, STATE, DT_INT16, s_in, sname))
    prog = Program(L.program.node_id, B.tensors, B.ops, recv_edges + send_edges + state_edges)
    planner.assign(prog, live_in, live_out)
    # the ONNX graph's own bound would count a DQ -> op -> Q group's int8 input as dead at its
    # DequantizeLinear; the program's bound (int8 tensors alive at each kernel) is the true one here
    L.model_lower_bound = prog.arena_lower_bound
    L.program = prog
    L.index = dict(qidx)
    L.blob = prog.to_bytes()
    return L
