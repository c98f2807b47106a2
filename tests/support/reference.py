"""ONNX Runtime references for a lowered program.

:func:`qdq_model` rewrites the node's compute model into a QDQ model that uses
exactly the lowering's quantization (activation scale/zero point, per-channel
int8 weights, int32 biases): ORT's int8 result for the same quantization, used
by the kernel tests (within 1 LSB) and the instruction-count benchmark.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper, version_converter

from bb_edge.bbrt.lower import Lowered
from bb_edge.deployment.int8 import quantize


def qdq_model(L: Lowered) -> tuple[onnx.ModelProto, dict[str, str]]:
    """(QDQ model, ONNX tensor name -> name of its int8 output in that model)."""
    assert L.compute is not None
    cm = onnx.ModelProto()
    cm.CopyFrom(L.compute)
    opset = next((o.version for o in cm.opset_import if o.domain in ("", "ai.onnx")), 13)
    if opset < 13:
        cm = version_converter.convert_version(cm, 13)
    g = cm.graph
    init = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = list(g.initializer)
    dq_of: dict[str, str] = {}
    q_out: dict[str, str] = {}

    def scalars(name: str, scale: float, zp: int) -> tuple[str, str]:
        s, z = f"{name}__s", f"{name}__z"
        inits.append(numpy_helper.from_array(np.array(scale, np.float32), s))
        inits.append(numpy_helper.from_array(np.array(zp, np.int8), z))
        return s, z

    def add_qdq(name: str) -> None:
        if name in L.fused or name not in L.qparams or name in dq_of:
            return
        sc, zp = L.qparams[name]
        s, z = scalars(name, sc, zp)
        if name in init:
            inits.append(numpy_helper.from_array(quantize(init[name], sc, zp), f"{name}__q"))
        else:
            nodes.append(helper.make_node("QuantizeLinear", [name, s, z], [f"{name}__q"]))
        nodes.append(helper.make_node("DequantizeLinear", [f"{name}__q", s, z], [f"{name}__dq"]))
        dq_of[name] = f"{name}__dq"
        q_out[name] = f"{name}__q"

    for inp in g.input:
        add_qdq(inp.name)
    for node in g.node:
        new = onnx.NodeProto()
        new.CopyFrom(node)
        w = L.weights.get(node.name)
        if node.name not in L.float_nodes:
            for i, name in enumerate(node.input):
                if w is not None and i >= 1:
                    continue
                if name in init and name in L.qparams:
                    add_qdq(name)
                if name in dq_of:
                    new.input[i] = dq_of[name]
        else:
            for i, name in enumerate(node.input):
                if name in dq_of:
                    new.input[i] = dq_of[name]
        if w is not None:
            sx = L.qparams[node.input[0]][0]
            wq, ws, bq = w["w"], w["w_scale"], w["b"]
            wname, bname = f"{node.name}__wq", f"{node.name}__bq"
            axis = 0
            if node.op_type == "MatMul":
                wq, axis = np.ascontiguousarray(wq.T), 1
            inits += [numpy_helper.from_array(wq, wname), numpy_helper.from_array(ws, wname + "_s"),
                      numpy_helper.from_array(np.zeros(ws.shape, np.int8), wname + "_z"),
                      numpy_helper.from_array(bq, bname),
                      numpy_helper.from_array((np.float32(sx) * ws).astype(np.float32), bname + "_s"),
                      numpy_helper.from_array(np.zeros(ws.shape, np.int32), bname + "_z")]
            nodes.append(helper.make_node("DequantizeLinear", [wname, wname + "_s", wname + "_z"], [wname + "_dq"],
                                          axis=axis))
            nodes.append(helper.make_node("DequantizeLinear", [bname, bname + "_s", bname + "_z"], [bname + "_dq"],
                                          axis=0))
            if node.op_type == "Conv":
                del new.input[1:]
                new.input.extend([wname + "_dq", bname + "_dq"])
            elif node.op_type == "Gemm":
                new = helper.make_node("Gemm", [new.input[0], wname + "_dq", bname + "_dq"], list(node.output),
                                       name=node.name, transB=1)
            else:  # MatMul with constant B: no bias
                del new.input[1:]
                new.input.append(wname + "_dq")
        nodes.append(new)
        for o in node.output:
            add_qdq(o)
    del g.node[:]
    g.node.extend(nodes)
    del g.initializer[:]
    g.initializer.extend(inits)
    del g.output[:]
    for name, qn in q_out.items():
        if name not in init:
            g.output.append(helper.make_tensor_value_info(qn, TensorProto.INT8, None))
    del g.value_info[:]
    return cm, q_out
