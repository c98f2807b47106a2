"""Latency of built artifacts on this host (reads clocks, so it lives in adapters/).

Called by ``bb-edge build`` for the build report: each ``.onnx``/``.ort`` artifact
runs on ONNX Runtime CPU, each ``.pte`` through executorch.runtime, on inputs of the
artifact's input shapes (zeros for floats, ones for integers: a valid id, length or
count). An artifact with a symbolic input dim, or one that does not run on such
inputs, is reported as a string starting with :data:`NOT_MEASURED` instead of a number.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

#: how a latency that could not be measured starts in the figures and the build report
NOT_MEASURED = "not measured"
#: a latency in milliseconds, or why there is none ("not measured: ...")
Latency = float | str


def _median_ms(fn: object, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(times))


class NotMeasured(Exception):
    """An artifact's latency cannot be measured on this host (symbolic input dim, run failure)."""


def _feed(name: str, shape: object, dtype: type) -> np.ndarray:
    dims = list(shape) if isinstance(shape, (list, tuple)) else []
    if any(not isinstance(d, int) or d < 0 for d in dims):
        raise NotMeasured(f"input {name!r} has a symbolic dim {dims}; pin it with compile --input-shape")
    return np.zeros(dims, dtype) if np.issubdtype(dtype, np.floating) else np.ones(dims, dtype)


def onnx_latency_ms(path: Path, repeats: int = 20, threads: int = 1) -> float:
    """Median milliseconds per run of an ONNX/ORT-format model on ONNX Runtime CPU; NotMeasured if it cannot."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.log_severity_level = 4
    sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
    feeds = {}
    for i in sess.get_inputs():
        dt = {"tensor(float)": np.float32, "tensor(float16)": np.float16, "tensor(uint8)": np.uint8,
              "tensor(int8)": np.int8, "tensor(int32)": np.int32, "tensor(int64)": np.int64,
              "tensor(bool)": np.bool_, "tensor(double)": np.float64}.get(i.type, np.float32)
        feeds[i.name] = _feed(i.name, i.shape, dt)
    try:
        sess.run(None, feeds)
    except Exception as exc:  # noqa: BLE001 - placeholder inputs may not be valid for this model
        raise NotMeasured(f"does not run on placeholder inputs ({str(exc).splitlines()[0][:120]})") from exc
    return _median_ms(lambda: sess.run(None, feeds), repeats)


def pte_latency_ms(path: Path, shapes: list[list[int]], repeats: int = 20) -> float:
    """Median milliseconds per run of a .pte's forward through executorch.runtime."""
    import torch
    from executorch.runtime import Runtime

    if any(d < 0 for s in shapes for d in s):
        raise NotMeasured(f"an input has a symbolic dim ({shapes}); pin it with compile --input-shape")
    method = Runtime.get().load_program(str(path)).load_method("forward")
    args = [torch.zeros(list(s)) for s in shapes]
    method.execute(args)
    return _median_ms(lambda: method.execute(args), repeats)


def measure_bundle(artifacts: dict[str, Path], pte_shapes: list[list[int]] | None = None,
                   repeats: int = 20) -> dict[str, Latency]:
    """Latency (ms) per model artifact of one bundle, keyed like ``artifacts``; "not measured: why" if none."""
    out: dict[str, Latency] = {}
    for key, p in artifacts.items():
        try:
            if p.suffix in (".onnx", ".ort") and key != "program":
                out[key] = onnx_latency_ms(p, repeats)
            elif p.suffix == ".pte" and pte_shapes is not None:
                out[key] = pte_latency_ms(p, pte_shapes, repeats)
        except NotMeasured as exc:
            out[key] = f"{NOT_MEASURED}: {exc}"
    return out
