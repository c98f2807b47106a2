"""Quantization of per-node programs and accuracy checks against the float program.

A node program is quantized as its :func:`~bb_edge.deployment.ports.compute_model`
(Recv tensors as inputs, Send tensors as outputs) and then wrapped back into a
program with the original ``bb.wire`` ports, so the quantized node still
exchanges float32 on the wire (fp16 keeps I/O types, int8 QDQ and dynamic
quantization keep float inputs and outputs).

Precisions: ``fp32`` (unchanged), ``fp16`` (onnxruntime's own float16 converter, I/O
types kept, validated; ops that must stay float32 kept), ``int8``
(static QDQ with calibration data, onnxruntime.quantization), ``int8-dynamic``
(dynamic weight quantization of MatMul/Gemm/Conv).
"""

from bb_edge.quant.accuracy import AccuracyReport, check_accuracy, enforce_max_drop
from bb_edge.quant.calib import CalibrationShapeError, fleet_tensors, load_calibration, node_samples
from bb_edge.quant.quantize import (
    PRECISIONS,
    AccuracyDropError,
    PrecisionError,
    QuantizationError,
    quantize_compute,
    quantize_program,
    rewrap_program,
)

__all__ = [
    "PRECISIONS",
    "AccuracyDropError",
    "AccuracyReport",
    "PrecisionError",
    "CalibrationShapeError",
    "QuantizationError",
    "check_accuracy",
    "enforce_max_drop",
    "fleet_tensors",
    "load_calibration",
    "node_samples",
    "quantize_compute",
    "quantize_program",
    "rewrap_program",
]
