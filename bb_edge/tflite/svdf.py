"""TFLite's int8 SVDF (as in TFLM's keyword models) as one ONNX node the int8 lowering runs as SVDF_I8.

ONNX has no SVDF, so the translator writes a node of its own domain (:data:`DOMAIN`, op ``Svdf``) on int8
tensors: input X [B, I] (an int8 value of the graph), weights_feature [F, I] int8, weights_time [F, M] int16,
bias [U] int32 (zeros when the file has none) as initializers, the scales as attributes, one int8 output
[B, U]. TFLite's activation state (input 4, an int16 variable tensor [B, F*M]) is not an ONNX value: the
lowering gives the op an int16 state input and a next-state output as a STATE pair, which the node keeps
in its session slot between steps (zeros at a session's first step, as TFLite's variable tensor starts).

TFLite's integer kernel (reference_ops::EvalIntegerSVDF) needs a RELU fused activation, int8 X and output,
per-tensor parameters and symmetric weights and state (zero point 0); anything else is a typed refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import onnx
from onnx import TensorProto, helper

from bb_edge.compiler.state import STATE_META  # the model's own state pairs, read by bb-edge compile
from bb_edge.tflite.errors import TfliteFormatError, TfliteUnsupportedError

if TYPE_CHECKING:
    from bb_edge.tflite.reader import TflOp, TflTensor
    from bb_edge.tflite.to_onnx import _Builder

#: the ONNX domain of the translator's own ops
DOMAIN = "bb.tflite"  # bb_edge/compiler/load.py takes "bb." domains as the kit's own
#: input index of TFLite SVDF's activation state
STATE_INPUT = 4
ACT_RELU = 1


def _const(op: TflOp, t: TflTensor, dtype: str, rank: int) -> np.ndarray:
    if t.data is None or t.dtype != dtype or len(t.shape) != rank:
        raise TfliteUnsupportedError(op.op, op.index, f"{t.name!r} must be a constant {dtype} tensor of rank {rank} "
                                     f"(got {t.dtype} {list(t.shape)}{'' if t.data is not None else ', not constant'})")
    return np.asarray(t.data)


def _sym(b: _Builder, op: TflOp, t: TflTensor) -> float:
    """The one scale of a symmetric per-tensor tensor (zero point 0, as TFLite's integer SVDF assumes)."""
    if t.quant is None or not t.quant.per_tensor:
        raise TfliteUnsupportedError(op.op, op.index, f"{t.name!r} needs one scale (per-tensor parameters)")
    if int(t.quant.zero_point[0]) != 0:
        raise TfliteUnsupportedError(op.op, op.index, f"{t.name!r} has zero point {int(t.quant.zero_point[0])}: "
                                     f"TFLite's integer SVDF takes symmetric weights and state")
    return float(t.quant.scale[0])


def _svdf(b: _Builder, op: TflOp) -> None:
    o = op.options
    if len(op.inputs) != 5 or min(op.inputs[:3]) < 0 or op.inputs[STATE_INPUT] < 0:
        raise TfliteFormatError(f"operator {op.index} ({op.op}): {len(op.inputs)} inputs (5: input, weights_feature, "
                                f"weights_time, bias, activation state)")
    if o.get("asymmetric_quantize_inputs"):
        raise TfliteUnsupportedError(op.op, op.index, "hybrid quantization (float inputs)")
    xt, ft, tt = (b.g.tensors[i] for i in op.inputs[:3])
    st, yt = b.g.tensors[op.inputs[STATE_INPUT]], b.g.tensors[op.outputs[0]]
    b.int8(xt, op)
    b.int8(yt, op)
    if len(xt.shape) != 2 or xt.data is not None:
        raise TfliteUnsupportedError(op.op, op.index, f"input {xt.name!r} {list(xt.shape)}: an activation [B, I]")
    wf = _const(op, ft, "INT8", 2)
    wt = _const(op, tt, "INT16", 2)
    rank = int(o.get("rank", 0))
    n_f, n_m = wf.shape[0], wt.shape[1]
    if rank < 1 or n_f % rank or wt.shape[0] != n_f or wf.shape[1] != xt.shape[1]:
        raise TfliteUnsupportedError(op.op, op.index, f"rank {rank}, weights_feature {list(wf.shape)}, weights_time "
                                     f"{list(wt.shape)} for input {list(xt.shape)}")
    n_u = n_f // rank
    if int(o.get("fused_activation_function", 0)) != ACT_RELU:
        raise TfliteUnsupportedError(op.op, op.index, "TFLite's integer SVDF takes a fused RELU only")
    if st.data is not None or st.dtype != "INT16" or tuple(st.shape) != (xt.shape[0], n_f * n_m):
        raise TfliteUnsupportedError(op.op, op.index, f"activation state {st.name!r} must be an int16 variable "
                                     f"[{xt.shape[0]}, {n_f * n_m}] (got {st.dtype} {list(st.shape)})")
    if tuple(yt.shape) != (xt.shape[0], n_u):
        raise TfliteFormatError(f"operator {op.index} ({op.op}): output {list(yt.shape)}, expected "
                                f"{[xt.shape[0], n_u]}")
    if op.inputs[3] >= 0:
        bias = _const(op, b.g.tensors[op.inputs[3]], "INT32", 1)
        if bias.shape[0] != n_u:
            raise TfliteUnsupportedError(op.op, op.index, f"bias of {bias.shape[0]} values for {n_u} units")
    else:
        bias = np.zeros(n_u, np.int32)
    sx, zx = b.qparams(xt, op)
    sy, zy = b.qparams(yt, op)
    base = b.names[op.outputs[0]]
    ins = [b.value[op.inputs[0]], b.init(f"{base}_wf", wf.astype(np.int8)), b.init(f"{base}_wt", wt.astype(np.int16)),
           b.init(f"{base}_bias", bias.astype(np.int32))]
    out = b.fresh(f"{base}_svdf")
    b.nodes.append(helper.make_node("Svdf", ins, [out], name=b.fresh(f"{base}_Svdf"), domain=DOMAIN, rank=rank,
                                    x_scale=sx, x_zero_point=zx, wf_scale=_sym(b, op, ft), wt_scale=_sym(b, op, tt),
                                    state_scale=_sym(b, op, st), y_scale=sy, y_zero_point=zy,
                                    state=b.names[op.inputs[STATE_INPUT]]))
    b.value_info.append(helper.make_tensor_value_info(out, TensorProto.INT8, [xt.shape[0], n_u]))
    b.value[op.outputs[0]] = out


SVDF_HANDLERS = {"SVDF": _svdf}


def is_svdf(n: onnx.NodeProto) -> bool:
    """Whether ``n`` is the translator's ``Svdf`` (domain :data:`DOMAIN`)."""
    return n.op_type == "Svdf" and n.domain == DOMAIN


def expose_state(model: onnx.ModelProto) -> onnx.ModelProto:
    """Each ``Svdf``'s activation state as a session state pair of the model, as a KV cache is one.

    The node gains a fifth input (the int16 state, a graph input named after TFLite's variable tensor) and a
    second output (the next state, a graph output ``<state>_next``); :data:`STATE_META` lists the pairs, so
    ``bb-edge compile`` declares them without ``--state`` and every engine (the Python ones through
    :mod:`bb_edge.backends.tflite_ops`, bbrt through :func:`internal_state`) keeps the state per session.
    """
    g = model.graph
    taken = {v.name for v in (*g.input, *g.output, *g.value_info)} | {i.name for i in g.initializer}
    taken |= {o for n in g.node for o in n.output}
    pairs: list[str] = []
    for n in g.node:
        if not is_svdf(n) or len(n.input) != 4:
            continue
        a = {x.name: helper.get_attribute_value(x) for x in n.attribute}
        base = a["state"].decode() if isinstance(a.get("state"), bytes) else f"{n.output[0]}_state"
        s_in = base
        while s_in in taken:
            s_in += "_"
        s_out = f"{s_in}_next"
        while s_out in taken:
            s_out += "_"
        taken |= {s_in, s_out}
        wt = next(i for i in g.initializer if i.name == n.input[2])
        y_info = next(v for v in g.value_info if v.name == n.output[0])  # [B, U], written by _svdf
        batch = y_info.type.tensor_type.shape.dim[0].dim_value
        shape = [batch, int(wt.dims[0]) * int(wt.dims[1])]
        n.input.append(s_in)
        n.output.append(s_out)
        g.input.append(helper.make_tensor_value_info(s_in, TensorProto.INT16, shape))
        g.output.append(helper.make_tensor_value_info(s_out, TensorProto.INT16, shape))
        pairs.append(f"{s_out}={s_in}")
    if pairs:
        onnx.helper.set_model_props(model, {**{p.key: p.value for p in model.metadata_props},
                                            STATE_META: ",".join(pairs)})
    return model


def internal_state(model: onnx.ModelProto, state: list[tuple[str, str]]) -> tuple[onnx.ModelProto,
                                                                                  list[tuple[str, str]]]:
    """bbrt's view of a program whose ``Svdf`` state is a graph input/output pair (:func:`expose_state`).

    SVDF_I8 keeps its int16 state as a STATE pair of its own (the node's session slot), so the pair leaves the
    graph's interface: the node is back to four inputs and one output, and ``state`` loses the pair. A
    program without such a node is returned as it is.
    """
    g = model.graph
    ins, outs = {v.name for v in g.input}, {v.name for v in g.output}

    def exposed(n: onnx.NodeProto) -> bool:  # an Svdf with its state as a graph input/output pair
        return is_svdf(n) and len(n.input) == 5 and n.input[4] in ins and len(n.output) == 2 and n.output[1] in outs

    if not any(exposed(n) for n in g.node):
        return model, state
    m = onnx.ModelProto()
    m.CopyFrom(model)
    drop_in: set[str] = set()
    drop_out: set[str] = set()
    for n in m.graph.node:
        if exposed(n):
            drop_in.add(n.input[4])
            drop_out.add(n.output[1])
            del n.input[4]
            del n.output[1]
    kept_in = [v for v in m.graph.input if v.name not in drop_in]
    kept_out = [v for v in m.graph.output if v.name not in drop_out]
    del m.graph.input[:]
    m.graph.input.extend(kept_in)
    del m.graph.output[:]
    m.graph.output.extend(kept_out)
    return m, [(o, i) for o, i in state if i not in drop_in]
