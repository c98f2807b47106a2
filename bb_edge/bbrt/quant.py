"""Int8 quantization for bbrt: calibration ranges and fixed-point multipliers.

The affine arithmetic itself (quantize, dequantize, affine_params) is the edge contract's, shared with
the run time: :mod:`bb_edge.deployment.int8`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, shape_inference


def quantize_multiplier(real: float) -> tuple[int, int]:
    """(m, shift) with real ~= m * 2**(shift - 31), m in [2**30, 2**31) (TFLite's QuantizeMultiplier: std::round,
    halves away from zero)."""
    if real <= 0.0 or not math.isfinite(real):
        return 0, 0
    frac, exp = math.frexp(real)
    m = int(math.floor(frac * (1 << 31) + 0.5))  # frac > 0: std::round, not Python's half to even
    if m == 1 << 31:
        m //= 2
        exp += 1
    if exp < -31:
        return 0, 0
    return m, exp



def svdf_multipliers(attrs: dict[str, float]) -> tuple[tuple[int, int], tuple[int, int]]:
    """TFLite's two SVDF multipliers from the translator's ``Svdf`` scales: ``s_x * s_wf / s_state`` and
    ``s_state * s_wt / s_y``, each product in float32 as TFLite forms it, then :func:`quantize_multiplier`."""
    f32 = np.float32
    ss = f32(attrs["state_scale"])
    return (quantize_multiplier(float(f32(f32(attrs["x_scale"]) * f32(attrs["wf_scale"])) / ss)),
            quantize_multiplier(float(f32(ss * f32(attrs["wt_scale"])) / f32(attrs["y_scale"]))))

def per_channel_weights(w: np.ndarray, axis: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric per-channel int8 weights: (int8 weights, float32 scales along axis)."""
    w = np.asarray(w, np.float32)
    moved = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
    amax = np.abs(moved).max(axis=1) if moved.size else np.zeros(w.shape[axis], np.float32)
    scales = np.where(amax > 0, amax / 127.0, 1.0).astype(np.float32)
    shape = [1] * w.ndim
    shape[axis] = -1
    q = np.clip(np.rint(w / scales.reshape(shape)), -127, 127).astype(np.int8)
    return q, scales


def intermediate_values(model: onnx.ModelProto,
                        samples: Iterable[dict[str, np.ndarray]]) -> list[dict[str, np.ndarray]]:
    """Run a standard ONNX model with ORT, returning every float tensor (inputs, node outputs) per sample, and the
    int32/int64 ones (run-time indices and their reshapes: their shapes)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    try:
        inferred = shape_inference.infer_shapes(m)
    except Exception:  # noqa: BLE001 - shape inference is best effort here
        inferred = m
    known = {v.name: v for v in list(inferred.graph.value_info) + list(inferred.graph.output)}
    outs = {o.name for o in m.graph.output}
    for node in m.graph.node:
        for name in node.output:
            if name and name not in outs:
                vi = known.get(name)
                if vi is not None and vi.type.tensor_type.elem_type not in (onnx.TensorProto.FLOAT,
                                                                           onnx.TensorProto.INT64,
                                                                           onnx.TensorProto.INT32):
                    continue
                m.graph.output.append(vi if vi is not None else helper.make_tensor_value_info(
                    name, onnx.TensorProto.FLOAT, None))
                outs.add(name)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.log_severity_level = 3
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    result = []
    for feed in samples:
        vals = sess.run(names, feed)
        d = {k: np.asarray(v) for k, v in feed.items()}
        d.update({n: np.asarray(v) for n, v in zip(names, vals, strict=True)})
        result.append(d)
    return result
