"""fp16 / int8 static QDQ / int8 dynamic quantization of a node's compute model."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnx
from onnx import helper

from bb_edge.deployment.ports import WIRE_DOMAIN, WIRE_VERSION, compute_model, wire_ports
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


def _fp16(model: onnx.ModelProto) -> onnx.ModelProto:
    try:
        from onnxconverter_common import float16
    except ImportError as exc:
        raise QuantizationError("fp16 needs onnxconverter-common: pip install bb-edge[quant]") from exc
    copy = onnx.ModelProto()
    copy.CopyFrom(model)  # the converter edits its argument in place
    out: onnx.ModelProto = float16.convert_float_to_float16(copy, keep_io_types=True, disable_shape_infer=False)
    return out


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
