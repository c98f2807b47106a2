"""Int8 edges of float tensors: each Python end quantizes or dequantizes at its side of the wire.

An edge (or graph input/output) whose deployment contract carries ``quant``
(planned and written by the build, ``bb_edge.quant.edges``) travels as int8 with fixed affine
parameters ``(scale, zero_point)``; the C runtime keeps the int8 bytes as they are (no
QUANTIZE/DEQUANTIZE, no float buffer), so the Python side converts. This module is the run time's
part only: the arithmetic is the contract's (:mod:`bb_edge.deployment.int8`).
"""

from __future__ import annotations

import numpy as np

from bb_edge.deployment.int8 import Quant, dequantize, quant_of, quantize
from bb_edge.wire import envelope as wire

__all__ = ["INT8", "dequantize_edge", "quant_of", "quant_problem", "quantize_edge", "to_wire"]

INT8 = 3  # ONNX TensorProto.INT8, the wire dtype of a quantized edge


def quantize_edge(value: np.ndarray, quant: Quant) -> np.ndarray:
    """``value`` as the edge's int8 payload."""
    return quantize(value, *quant)


def dequantize_edge(q: np.ndarray, quant: Quant) -> np.ndarray:
    """The float32 tensor an int8 payload stands for."""
    return dequantize(q, *quant)


def quant_problem(env: wire.Envelope, quant: tuple[float, int]) -> tuple[str, str] | None:
    """(expected, got) when an envelope on a quantized edge is not int8 with the edge's parameters, else None.

    The parameters are part of the contract: a payload quantized with others would be read as
    wrong numbers, so it is refused (checked before anything else uses it).
    """
    scale, zp = quant
    want = f"int8 scale {np.float32(scale)!r} zero_point {zp}"
    got = f"dtype {env.dtype} scale {np.float32(env.scale)!r} zero_point {env.zero_point}"
    if env.dtype != INT8 or not env.is_quantized:
        return want, got + ("" if env.is_quantized else " (no QUANT flag)")
    if np.float32(env.scale) != np.float32(scale) or env.zero_point != zp:
        return want, got
    return None


def to_wire(value: np.ndarray, quant: tuple[float, int] | None) -> tuple[np.ndarray, tuple[float, int] | None]:
    """``(payload array, quant for Envelope.for_array)`` of a float value sent on an edge with ``quant``."""
    if quant is None:
        return np.asarray(value), None
    return quantize_edge(value, quant), quant
