"""The int8 affine arithmetic of a quantized edge, shared by the build (lowering, edge planning) and the run
(the Python engine's side of an int8 edge).

An int8 edge of a float tensor carries ``(scale, zero_point)`` in its contract (deployment.json ``quant``,
the ``bb.wire`` op's ``scale``/``zero_point``). The rounding is the C runtime's and ONNX
QuantizeLinear's: float32 division, round half to even, saturate to [-128, 127].
"""

from __future__ import annotations

import numpy as np

#: ``(scale, zero_point)`` of an int8 tensor
Quant = tuple[float, int]


def quantize(x: np.ndarray, scale: float, zp: int) -> np.ndarray:
    """Float -> int8 like ONNX QuantizeLinear (round half to even, saturate)."""
    q = np.rint(np.asarray(x, np.float32) / np.float32(scale)) + np.float32(zp)
    return np.clip(q, -128, 127).astype(np.int8)


def dequantize(q: np.ndarray, scale: float, zp: int) -> np.ndarray:
    """Int8 -> float like ONNX DequantizeLinear."""
    return ((np.asarray(q).astype(np.int32) - int(zp)).astype(np.float32) * np.float32(scale)).astype(np.float32)


def affine_params(lo: float, hi: float) -> Quant:
    """Asymmetric int8 ``(scale, zero_point)`` for a real range; the range always includes 0."""
    lo, hi = min(float(lo), 0.0), max(float(hi), 0.0)
    if hi - lo < 1e-8:
        hi = lo + 1e-8
    scale = (hi - lo) / 255.0
    zp = int(round(-128 - lo / scale))
    return float(np.float32(scale)), int(min(127, max(-128, zp)))


def quant_of(spec: object) -> Quant | None:
    """``(scale, zero_point)`` from a manifest entry's ``quant`` dict (IOSpec, EdgeSpec), else None."""
    q = getattr(spec, "quant", None)
    if not isinstance(q, dict):
        return None
    return float(q["scale"]), int(q["zero_point"])
