"""TFLite's int8 arithmetic for the ops whose kernels bbrt runs as a table or a multiplier (the lowering's side).

Each function computes, in Python integers (or float32 where TFLite computes in float), what the TFLite
interpreter's kernel computes, so that the C runtime only looks a value up or applies one multiplier:

- LOGISTIC and TANH: TFLite's int8 kernels (default and reference resolvers alike) fill a 256-entry table in
  float32 (``PopulateLookupTable``: ``round(f(s_x * (v - z_x)) / s_y) + z_y``, clamped), ``f`` from libm.
- HARD_SWISH: the reference kernel's int16 fixed point (``reference_ops::HardSwish``), value by value.
- LEAKY_RELU: the reference kernel (``QuantizeLeakyRelu``): two MultiplyByQuantizedMultiplier, one per sign.
- MEAN: ``QuantizedMeanOrSum``'s multiplier with the 1/n folded in (``mean_multiplier``).
- PRELU: the two multipliers of its Prepare, from float32 scale ratios (``prelu_multipliers``).
- RESIZE_BILINEAR: ``ResizeBilinearInteger``'s 10-bit source rows and columns (``bilinear_table``).

Every unary op is a function of one int8 value, so a 256-byte table (LUT_I8) holds it exactly.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from bb_edge.bbrt.lower_qdq_move import mbqm_tflite, rdpot, srdhm
from bb_edge.bbrt.quant import quantize_multiplier

_LIBM: Any = None


def _libm_f(name: str) -> Callable[[float], float]:
    global _LIBM  # noqa: PLW0603 - loaded once
    if _LIBM is None:
        _LIBM = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    fn = getattr(_LIBM, name)
    fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return fn  # type: ignore[no-any-return]


def _f32(v: float) -> float:
    return float(np.float32(v))


def float_table(fn: str, sx: float, zx: int, sy: float, zy: int) -> np.ndarray:
    """TFLite's ``PopulateLookupTable`` for ``fn`` ("logistic" or "tanh"), float32 throughout."""
    expf, tanhf = _libm_f("expf"), _libm_f("tanhf")
    inv = _f32(1.0 / _f32(sy))
    out = []
    for v in range(-128, 128):
        d = _f32(_f32(sx) * float(v - zx))
        t = _f32(1.0 / _f32(1.0 + expf(-d))) if fn == "logistic" else tanhf(d)
        r = _f32(t * inv)
        q = int(math.copysign(math.floor(abs(r) + 0.5), r)) + zy  # std::round: halves away from zero
        out.append(min(127, max(-128, q)))
    return np.array(out, np.int8)


def _sat16(v: int) -> int:
    return max(-32768, min(32767, v))


def _srdhm16(a: int, b: int) -> int:
    """gemmlowp's SaturatingRoundingDoublingHighMul on int16."""
    if a == b == -32768:
        return 32767
    ab = a * b
    nudge = (1 << 14) if ab >= 0 else 1 - (1 << 14)
    s = ab + nudge
    return abs(s) >> 15 if s >= 0 else -(abs(s) >> 15)  # C's division truncates toward zero


def _down16(m: int) -> int:
    """TFLite's DownScaleInt32ToInt16Multiplier."""
    return 32767 if m >= 2**31 - 1 - (1 << 15) else (m + (1 << 15)) >> 16


def hard_swish_table(sx: float, zx: int, sy: float, zy: int) -> np.ndarray:
    """``reference_ops::HardSwish`` (int16 fixed point) for every int8 input value."""
    hires = _f32(_f32(1.0 / 128.0) * _f32(sx))
    om, oe = quantize_multiplier(float(_f32(hires / _f32(sy))))
    rm, re_ = quantize_multiplier(float(_f32(hires / _f32(3.0 / 32768.0))))
    if oe > 0:  # TFLite's Prepare refuses it too (TF_LITE_ENSURE(output_multiplier_exponent <= 0))
        raise ValueError(f"input scale {sx} over 128x the output scale {sy}")
    om16, rm16 = _down16(om), _down16(rm)
    out = []
    for v in range(-128, 128):
        x = _sat16(v - zx)  # int16 arithmetic as the kernel's (|v - zx| <= 255)
        hi = (x * 128 + 32768) % 65536 - 32768  # int16_t(x * (1 << 7)): |x| <= 255 fits
        pre_out = _srdhm16(hi, om16)
        r = hi
        if re_ > 0:
            r = _sat16(r * (1 << (re_ - 1)))
        r = _srdhm16(r, rm16)
        if re_ > 0:
            r = _sat16(r * 2)
        if re_ < 0:
            r = rdpot(r, -re_)
        r = (r + (1 << 15)) >> 1
        ab = r * pre_out  # SaturatingDoublingHighMul: truncating division
        p = 32767 if r == pre_out == -32768 else (abs(ab) >> 15) * (1 if ab >= 0 else -1)
        p = (p + 32768) % 65536 - 32768
        o = rdpot(p, -oe) + zy
        out.append(min(127, max(-128, o)))
    return np.array(out, np.int8)


def leaky_relu_table(alpha: float, sx: float, zx: int, sy: float, zy: int) -> np.ndarray:
    """``QuantizeLeakyRelu``: identity and alpha multipliers from float32 scale ratios (TFLite's Prepare)."""
    ma, sa = quantize_multiplier(abs(float(_f32(_f32(_f32(sx) * _f32(alpha)) / _f32(sy)))))
    mi, si = quantize_multiplier(float(_f32(_f32(sx) / _f32(sy))))
    out = []
    for v in range(-128, 128):
        x = v - zx
        if x >= 0:
            o = zy + mbqm_tflite(x, mi, si)
        else:
            a = mbqm_tflite(x, ma, sa)
            o = zy + (-a if alpha < 0 else a)
        out.append(min(127, max(-128, o)))
    return np.array(out, np.int8)


def mean_multiplier(sx: float, sy: float, n: int) -> tuple[int, int]:
    """``QuantizedMeanOrSum``'s (multiplier, shift) of a mean over ``n`` values: QuantizeMultiplier(s_x / s_y)
    with 1/n folded in (``(m << k) / n``, shift - k, k = min(floor(log2 n), 32, 31 + shift))."""
    m, sh = quantize_multiplier(float(sx) / float(sy))
    k = min(n.bit_length() - 1, 32, 31 + sh)
    return int(((m << k) // n) if k >= 0 else m), sh - k


def mean_ref(x_minus_z_sum: int, m: int, sh: int, zy: int) -> int:
    """One output of the int8 mean (the oracle of the C kernel's arithmetic, for tests)."""
    return min(127, max(-128, mbqm_tflite(x_minus_z_sum, m, sh) + zy))


def prelu_multipliers(sx: float, sa: float, sy: float) -> tuple[int, int, int, int]:
    """TFLite's PRELU Prepare: QuantizeMultiplier of s_x / s_y and of s_x * s_alpha / s_y, each ratio computed
    in float32 (the interpreter's ``input->params.scale * alpha->params.scale / output->params.scale``)."""
    m1, s1 = quantize_multiplier(float(_f32(_f32(sx) / _f32(sy))))
    m2, s2 = quantize_multiplier(float(_f32(_f32(_f32(sx) * _f32(sa)) / _f32(sy))))
    return m1, s1, m2, s2


def _bilinear_axis(n_in: int, n_out: int, align: bool, half: bool) -> list[tuple[int, int, int, int]]:
    """(lower, upper, lower weight, upper weight) per output index, weights in 1/1024 (TFLite's
    ``ComputeInterpolationValuesInteger`` with its ``scale_10``; C's truncating division)."""
    def cdiv(a: int, b: int) -> int:
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b > 0) else -q

    scale = cdiv((1 << 10) * n_in + n_out // 2, n_out)
    if align and n_out > 1:
        scale = cdiv((1 << 10) * (n_in - 1) + (n_out - 1) // 2, n_out - 1)
    rows = []
    for v in range(n_out):
        sv = v * scale + scale // 2 - (1 << 9) if half else v * scale
        lo = max(cdiv(sv, 1 << 10), 0)
        hi = min(cdiv(sv + (1 << 10) - 1, 1 << 10), n_in - 1)
        if not (0 <= lo < n_in and 0 <= hi < n_in):  # TFLite would read outside the input here
            raise ValueError(f"output index {v} maps to input rows {lo}, {hi} of {n_in}")
        d = sv - (1 << 10) * lo
        rows.append((lo, hi, (1 << 10) - d, d))
    return rows


def bilinear_table(h: int, w: int, oh: int, ow: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    """RESIZE_BILINEAR_I8's int32 table: (y0, y1, wy0, wy1) per output row, then (x0, x1, wx0, wx1) per column."""
    if min(h, w, oh, ow) < 1:
        raise ValueError("empty input or output")
    if align_corners and half_pixel:
        raise ValueError("align_corners and half_pixel_centers together (TFLite refuses it)")
    t = _bilinear_axis(h, oh, align_corners, half_pixel) + _bilinear_axis(w, ow, align_corners, half_pixel)
    return np.array(t, np.int32).reshape(-1)


__all__ = ["bilinear_table", "prelu_multipliers",
           "float_table", "hard_swish_table", "leaky_relu_table", "mean_multiplier", "mean_ref", "srdhm"]
