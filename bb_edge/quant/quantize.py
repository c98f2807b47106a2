"""fp16 / int8 static QDQ / int8 dynamic quantization of a node's compute model."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnx
from onnx import helper

from bb_edge.deployment.ports import WIRE_DOMAIN, WIRE_VERSION, compute_model, node_reads, wire_ports
from bb_edge.errors import BuildError

PRECISIONS = ("fp32", "fp16", "int8", "int8-dynamic")
Sample = dict[str, np.ndarray]


class QuantizationError(BuildError):
    """A node program could not be quantized to the requested precision."""


class AccuracyDropError(BuildError):
    """A quantized node's error against its float program exceeds --max-accuracy-drop."""

    def __init__(self, node: str, precision: str, figure: str, value: float, limit: float) -> None:
        super().__init__(
            f"node {node!r} at {precision}: {figure} = {value:.4g} exceeds --max-accuracy-drop {limit:g}; "
            f"use a wider precision (--precision fp16 or fp32), give representative --calib data, "
            f"or raise --max-accuracy-drop")
        self.node = node
        self.precision = precision
        self.figure = figure
        self.value = value
        self.limit = limit


class _Reader:
    """onnxruntime.quantization CalibrationDataReader over in-memory samples."""

    def __init__(self, samples: list[Sample]) -> None:
        self._it: Iterator[Sample] = iter(samples)

    def get_next(self) -> Sample | None:
        """The next calibration sample, or None when exhausted."""
        return next(self._it, None)

    def rewind(self) -> None:
        """Not supported (one pass suffices for MinMax calibration)."""


class PrecisionError(QuantizationError):
    """A node cannot be built at the requested precision (the message names the op or the allowed ones)."""


#: ops that always stay float32 in fp16 conversion: onnxruntime's own list plus shape-valued ops
FP16_ALWAYS_FLOAT = frozenset({"Range", "EyeLike", "RandomNormal", "RandomUniform", "RandomNormalLike",
                               "RandomUniformLike", "Multinomial", "Bernoulli"})
#: how many ops the validation loop moves back to float32 before it gives up
FP16_MAX_RETRIES = 16
_FLOATS = (onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE)


def fp16_block_list(model: onnx.ModelProto) -> set[str]:
    """Names of the nodes that must stay float32, derived from the model.

    Casts to float (their declared target type is part of the graph's meaning), ConstantOfShape with a
    float value (its attribute fixes the output type), and the ops in :data:`FP16_ALWAYS_FLOAT`.
    """
    out: set[str] = set()
    for n in model.graph.node:
        attrs = {a.name: a for a in n.attribute}
        if n.op_type in FP16_ALWAYS_FLOAT:
            out.add(n.name)
        elif n.op_type == "Cast" and "to" in attrs and attrs["to"].i in _FLOATS:
            out.add(n.name)
        elif n.op_type == "ConstantOfShape" and ("value" not in attrs or attrs["value"].t.data_type in _FLOATS):
            out.add(n.name)
    return out


def toposort(graph: onnx.GraphProto, outer: frozenset[str] = frozenset()) -> None:
    """Order ``graph``'s nodes (and its subgraphs') so that every input is produced before it is read.

    The float16 converter appends the Casts it inserts at the end of the node list; onnx.checker wants order.
    """
    known = set(outer) | {i.name for i in graph.input} | {i.name for i in graph.initializer} | {""}
    produced = {o for n in graph.node for o in n.output}
    known |= {x for n in graph.node for x in node_reads(n) if x not in produced}  # from enclosing scopes
    pending = list(graph.node)
    ordered: list[onnx.NodeProto] = []
    while pending:
        rest = []
        for n in pending:
            if all(x in known for x in node_reads(n)):  # a subgraph's outer-scope reads count too
                ordered.append(n)
                known.update(n.output)
            else:
                rest.append(n)
        if len(rest) == len(pending):  # inputs from nowhere (or outer scope): keep the rest as they were
            ordered.extend(rest)
            break
        pending = rest
    for n in ordered:
        for a in n.attribute:
            for sub in ([a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs)):
                toposort(sub, frozenset(known))
    del graph.node[:]
    graph.node.extend(ordered)


def _fp16_problem(model: onnx.ModelProto) -> str | None:
    """None if ``model`` passes onnx.checker (full) and loads in ONNX Runtime; else the first error."""
    import onnxruntime as ort

    try:
        onnx.checker.check_model(model, full_check=True)
        so = ort.SessionOptions()
        so.log_severity_level = 3
        ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - any failure is reported and acted on below
        return f"{type(exc).__name__}: {exc}"
    return None


def _blamed_node(model: onnx.ModelProto, problem: str, blocked: set[str]) -> onnx.NodeProto | None:
    """The node an ORT/checker message names (by node name or by one of its outputs), if not yet blocked."""
    names = set(re.findall(r"\(([^()]+)\)", problem)) | set(re.findall(r"'([^']+)'", problem))
    free = [n for n in model.graph.node if n.name not in blocked]
    for n in free:
        if n.name in names or any(o in names for o in n.output if o):
            return n
    for n in free:  # no node or tensor named: an op type the message names ("my.domain:Op(-1)", "Optype (Op)")
        if re.search(rf"(?<![\w.]){re.escape(n.op_type)}(?:\(|\))", problem):
            return n
    return None


def _fp16(model: onnx.ModelProto) -> onnx.ModelProto:
    """fp16 with onnxruntime's own converter (I/O types kept); validated before it is returned.

    Ops in :func:`fp16_block_list` stay float32; an op that still makes the result invalid (onnx.checker
    or ONNX Runtime refuses it) is moved back to float32 and the conversion retried. PrecisionError names
    the op when no valid model results.
    """
    from onnxruntime.transformers import float16

    blocked = fp16_block_list(model)
    ops = list(float16.DEFAULT_OP_BLOCK_LIST)
    problem = ""
    for _ in range(FP16_MAX_RETRIES):
        copy = onnx.ModelProto()
        copy.CopyFrom(model)  # the converter edits its argument in place
        try:
            out: onnx.ModelProto = float16.convert_float_to_float16(
                copy, keep_io_types=True, disable_shape_infer=False, op_block_list=ops,
                node_block_list=sorted(blocked))
        except Exception as exc:  # noqa: BLE001 - the converter's own failures are reported with the op below
            problem = f"{type(exc).__name__}: {exc}"
        else:
            toposort(out.graph)
            found = _fp16_problem(out)
            if found is None:
                return out
            problem = found
        bad = _blamed_node(model, problem, blocked)
        if bad is None:
            break
        blocked.add(bad.name)
    bad = _blamed_node(model, problem, set())
    where = f"op {bad.op_type} ({bad.name!r})" if bad is not None else "the model"
    raise PrecisionError(f"fp16: {where} cannot be converted to a valid fp16 model ({problem.splitlines()[0]}); "
                         f"build this node at --precision fp32 or int8")


def _opset(model: onnx.ModelProto) -> int:
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)


def _at_least_opset(model: onnx.ModelProto, version: int) -> onnx.ModelProto:
    """The model converted to ``version`` if it is older (unchanged if conversion fails)."""
    if _opset(model) >= version:
        return model
    from onnx import version_converter

    try:
        conv = version_converter.convert_version(model, version)
        onnx.checker.check_model(conv)
        return conv
    except Exception:
        return model


def _int8_static(model: onnx.ModelProto, samples: list[Sample], tmp: Path) -> onnx.ModelProto:
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    if not samples:
        raise QuantizationError("int8 static quantization needs calibration data: pass --calib FILE.npz")
    src, pre, dst = tmp / "f.onnx", tmp / "pre.onnx", tmp / "q.onnx"
    model = _at_least_opset(model, 13)
    per_channel = _opset(model) >= 13
    onnx.save(model, str(src))
    try:
        quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
    except Exception:  # pre-processing is an optimisation; quantize the plain model if it fails
        pre = src
    quantize_static(str(pre), str(dst), _Reader(samples), quant_format=QuantFormat.QDQ,
                    activation_type=QuantType.QInt8, weight_type=QuantType.QInt8, per_channel=per_channel,
                    calibrate_method=CalibrationMethod.MinMax,
                    extra_options={"ActivationSymmetric": False, "WeightSymmetric": True})
    return onnx.load(str(dst))


def _int8_dynamic(model: onnx.ModelProto, tmp: Path) -> onnx.ModelProto:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    src, dst = tmp / "f.onnx", tmp / "q.onnx"
    model = _at_least_opset(model, 13)
    onnx.save(model, str(src))
    quantize_dynamic(str(src), str(dst), weight_type=QuantType.QInt8)
    return onnx.load(str(dst))


def strip_dropout(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy with inference-time no-op Dropout nodes replaced by Identity (mask outputs dropped).

    Old-opset Dropout masks do not survive opset conversion, and quantizers gain nothing from them.
    """
    out = onnx.ModelProto()
    out.CopyFrom(model)
    nodes = []
    for n in out.graph.node:
        if n.op_type == "Dropout" and n.domain in ("", "ai.onnx"):
            nodes.append(helper.make_node("Identity", [n.input[0]], [n.output[0]], name=n.name))
        else:
            nodes.append(n)
    del out.graph.node[:]
    out.graph.node.extend(nodes)
    return out


def quantize_compute(compute: onnx.ModelProto, precision: str, samples: list[Sample] | None = None) -> onnx.ModelProto:
    """A quantized copy of a standard-ONNX compute model; inputs and outputs stay float32."""
    if precision not in PRECISIONS:
        raise QuantizationError(f"unknown precision {precision!r}; choose one of {', '.join(PRECISIONS)}")
    if precision == "fp32":
        return compute
    compute = strip_dropout(compute)
    with tempfile.TemporaryDirectory(prefix="bb-quant-") as d:
        try:
            if precision == "fp16":
                q = _fp16(compute)
            elif precision == "int8":
                q = _int8_static(compute, list(samples or []), Path(d))
            else:
                q = _int8_dynamic(compute, Path(d))
        except QuantizationError:
            raise
        except Exception as exc:
            raise QuantizationError(
                f"{precision} quantization failed: {type(exc).__name__}: {exc}; try --precision fp32 or fp16"
            ) from exc
    del q.metadata_props[:]
    q.metadata_props.extend(compute.metadata_props)
    return q


def rewrap_program(program: onnx.ModelProto, compute: onnx.ModelProto) -> onnx.ModelProto:
    """Put ``program``'s bb.wire Send/Recv ports back around a (quantized) compute model."""
    ports = wire_ports(program)
    recv_nodes = [n for n in program.graph.node if n.domain == WIRE_DOMAIN and n.op_type == "Recv"]
    send_nodes = [n for n in program.graph.node if n.domain == WIRE_DOMAIN and n.op_type == "Send"]
    prog_inputs = {i.name for i in program.graph.input}
    prog_outputs = {o.name for o in program.graph.output}
    recv_t = {p.tensor for p in ports if p.op == "Recv"}
    send_t = {p.tensor for p in ports if p.op == "Send"}
    out = onnx.ModelProto()
    out.CopyFrom(compute)
    g = out.graph
    ins = [i for i in g.input if not (i.name in recv_t and i.name not in prog_inputs)]
    outs = [o for o in g.output if not (o.name in send_t and o.name not in prog_outputs)]
    del g.input[:]
    g.input.extend(ins)
    del g.output[:]
    g.output.extend(outs)
    nodes = list(g.node)
    del g.node[:]
    g.node.extend(recv_nodes + nodes + send_nodes)
    have_vi = {v.name for v in g.value_info}
    g.value_info.extend(v for v in program.graph.value_info if v.name in recv_t and v.name not in have_vi)
    if not any(o.domain == WIRE_DOMAIN for o in out.opset_import):
        out.opset_import.append(helper.make_opsetid(WIRE_DOMAIN, WIRE_VERSION))
    del out.metadata_props[:]
    out.metadata_props.extend(program.metadata_props)
    return out


def quantize_program(program: onnx.ModelProto, precision: str,
                     samples: list[Sample] | None = None) -> tuple[onnx.ModelProto, onnx.ModelProto]:
    """(quantized program with wire ports, quantized compute model) for one node program."""
    q = quantize_compute(compute_model(program), precision, samples)
    return rewrap_program(program, q), q
