"""The TFLite translator's ``Svdf`` for the Python backends: standard ONNX integer ops, bit-exact with TFLite.

ONNX Runtime, onnx's reference evaluator and ExecuTorch have no SVDF, so before a backend prepares a
segment the engine replaces every ``bb.tflite::Svdf`` whose state is a graph input/output pair
(:func:`bb_edge.tflite.svdf.expose_state`) by :func:`expand_svdf`'s int64 graph of TFLite's
``reference_ops::EvalIntegerSVDF``: the feature dot, MultiplyByQuantizedMultiplier (saturating rounding
doubling high multiply, then rounding divide by a power of two: two roundings, ties away from zero),
int16 saturation into the newest state column, the state shift, the int16 time dot, the rank reduction
and bias with int32 wrap-around, the output requantization and the int8 clamp. Every division is of a
multiple of its power of two (floor division spelled as ``(v - Mod(v, 2^k)) / 2^k``), exact in any
backend; the multipliers are those of the bbrt lowering (:func:`bb_edge.bbrt.quant.svdf_multipliers`
of TFLite's float32 scale products).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from bb_edge.bbrt.quant import svdf_multipliers
from bb_edge.tflite.svdf import DOMAIN, is_svdf

I64 = TensorProto.INT64


class _G:
    """Nodes and constants of one expansion, named under ``prefix``."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.k = 0

    def name(self, what: str) -> str:
        self.k += 1
        return f"{self.prefix}__{what}{self.k}"

    def c(self, value: int | list[int] | np.ndarray, what: str = "c") -> str:
        n = self.name(what)
        self.inits.append(numpy_helper.from_array(np.asarray(value, np.int64), n))
        return n

    def op(self, op: str, ins: list[str], what: str = "", out: str | None = None, **attrs: Any) -> str:
        o = out or self.name(what or op.lower())
        self.nodes.append(helper.make_node(op, ins, [o], name=self.name(op), **attrs))
        return o

    def floor_div(self, v: str, k: int) -> tuple[str, str]:
        """(floor(v / 2^k), v mod 2^k): the division is of an exact multiple, so it is exact everywhere."""
        p = self.c(1 << k)
        r = self.op("Mod", [v, p])
        return self.op("Div", [self.op("Sub", [v, r]), p]), r

    def wrap32(self, v: str) -> str:
        """v as C's int32 arithmetic leaves it (two's complement wrap-around)."""
        return self.op("Sub", [self.op("Mod", [self.op("Add", [v, self.c(1 << 31)]), self.c(1 << 32)]),
                               self.c(1 << 31)])

    def bool_i64(self, b: str) -> str:
        return self.op("Cast", [b], to=I64)

    def mbqm(self, x: str, m: int, shift: int) -> str:
        """TFLite's MultiplyByQuantizedMultiplier(x, m, shift) of int32 values held in int64."""
        if shift > 0:
            x = self.wrap32(self.op("Mul", [x, self.c(1 << shift)]))
        ab = self.op("Mul", [x, self.c(m)])  # |x| < 2^31, m < 2^31: fits int64
        neg = self.bool_i64(self.op("Less", [ab, self.c(0)]))
        nudge = self.op("Sub", [self.c(1 << 30), self.op("Mul", [neg, self.c((1 << 31) - 1)])])  # 1 - 2^30 if < 0
        t = self.op("Add", [ab, nudge])
        fl, r = self.floor_div(t, 31)
        t_neg = self.op("Less", [t, self.c(0)])
        inexact = self.op("Not", [self.op("Equal", [r, self.c(0)])])
        q = self.op("Add", [fl, self.bool_i64(self.op("And", [t_neg, inexact]))])  # C's division truncates
        e = max(-shift, 0)
        if e == 0:
            return q
        fl, rem = self.floor_div(q, e)  # RoundingDivideByPOT: rem is q & mask
        thr = self.op("Add", [self.c(((1 << e) - 1) >> 1), self.bool_i64(self.op("Less", [q, self.c(0)]))])
        return self.op("Add", [fl, self.bool_i64(self.op("Greater", [rem, thr]))])

    def clamp(self, v: str, lo: int, hi: int) -> str:
        return self.op("Min", [self.op("Max", [v, self.c(lo)]), self.c(hi)])


def _attrs(node: onnx.NodeProto) -> dict[str, Any]:
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _svdf_nodes(node: onnx.NodeProto, inits: dict[str, np.ndarray]) -> tuple[list[onnx.NodeProto],
                                                                             list[onnx.TensorProto]]:
    a = _attrs(node)
    x, wf_n, wt_n, b_n, s_in = node.input
    y, s_out = node.output
    wf, wt, bias = inits[wf_n].astype(np.int64), inits[wt_n].astype(np.int64), inits[b_n].astype(np.int64)
    n_f, n_m = wt.shape
    rank = int(a["rank"])
    m1, m2 = svdf_multipliers(a)  # the bbrt lowering's (bb_edge/bbrt/lower_qdq_arith.lower_svdf)
    g = _G(node.name or y)
    xi = g.op("Sub", [g.op("Cast", [x], to=I64), g.c(int(a["x_zero_point"]))])
    dot = g.op("MatMul", [xi, g.c(np.ascontiguousarray(wf.T), "wf")])  # [B, F]
    col = g.clamp(g.mbqm(dot, *m1), -32768, 32767)
    s3 = g.op("Reshape", [g.op("Cast", [s_in], to=I64), g.c([0, n_f, n_m])])  # [B, F, M]
    kept = g.op("Slice", [s3, g.c([1]), g.c([n_m]), g.c([2])])  # TFLite shifts the state left by one
    new3 = g.op("Concat", [kept, g.op("Unsqueeze", [col, g.c([2])])], axis=2)
    t = g.op("ReduceSum", [g.op("Mul", [new3, g.c(wt, "wt")]), g.c([2])], keepdims=0)  # [B, F]
    r = g.op("ReduceSum", [g.op("Reshape", [t, g.c([0, n_f // rank, rank])]), g.c([2])], keepdims=0)
    acc = g.wrap32(g.op("Add", [r, g.c(bias, "bias")]))
    out = g.op("Add", [g.mbqm(acc, *m2), g.c(int(a["y_zero_point"]))])
    g.op("Cast", [g.clamp(out, -128, 127)], out=y, to=TensorProto.INT8)
    g.op("Cast", [g.op("Reshape", [new3, g.c([0, n_f * n_m])])], out=s_out, to=TensorProto.INT16)
    return g.nodes, g.inits


def has_svdf(model: onnx.ModelProto) -> bool:
    """Whether ``model`` holds a translator ``Svdf`` node."""
    return any(is_svdf(n) for n in model.graph.node)


def expand_svdf(model: onnx.ModelProto) -> onnx.ModelProto:
    """``model`` with every state-pair ``Svdf`` replaced by its exact integer ONNX graph (a copy; the model
    itself when it has none). An ``Svdf`` whose state is not a graph input (bbrt's internal form) is left."""
    if not has_svdf(model):
        return model
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    nodes: list[onnx.NodeProto] = []
    replaced: set[str] = set()
    for n in g.node:
        if is_svdf(n) and len(n.input) == 5 and len(n.output) == 2:
            ns, cs = _svdf_nodes(n, inits)
            nodes.extend(ns)
            g.initializer.extend(cs)
            replaced |= set(n.input[1:4])
        else:
            nodes.append(n)
    del g.node[:]
    g.node.extend(nodes)
    read = {i for n in g.node for i in n.input}
    kept_inits = [i for i in g.initializer if i.name not in replaced or i.name in read]  # int64 copies replace them
    del g.initializer[:]
    g.initializer.extend(kept_inits)
    if not any(n.domain == DOMAIN for n in g.node):
        kept = [o for o in m.opset_import if o.domain != DOMAIN]
        del m.opset_import[:]
        m.opset_import.extend(kept)
    return m
