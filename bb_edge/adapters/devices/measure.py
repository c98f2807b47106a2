"""Latency of built artifacts on this host (reads clocks, so it lives in adapters/).

Called by ``bb-edge build`` for the build report: each ``.onnx``/``.ort`` artifact
runs on ONNX Runtime CPU, each ``.pte`` through executorch.runtime, on zero
inputs of the artifact's input shapes.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np


def _median_ms(fn: object, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(times))


def onnx_latency_ms(path: Path, repeats: int = 20, threads: int = 1) -> float:
    """Median milliseconds per run of an ONNX/ORT-format model on ONNX Runtime CPU."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.log_severity_level = 3
    sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
    feeds = {}
    for i in sess.get_inputs():
        dt = {"tensor(float)": np.float32, "tensor(float16)": np.float16, "tensor(uint8)": np.uint8,
              "tensor(int64)": np.int64}.get(i.type, np.float32)
        feeds[i.name] = np.zeros([d if isinstance(d, int) and d > 0 else 1 for d in i.shape], dt)
    sess.run(None, feeds)
    return _median_ms(lambda: sess.run(None, feeds), repeats)


def pte_latency_ms(path: Path, shapes: list[list[int]], repeats: int = 20) -> float:
    """Median milliseconds per run of a .pte's forward through executorch.runtime."""
    import torch
    from executorch.runtime import Runtime

    method = Runtime.get().load_program(str(path)).load_method("forward")
    args = [torch.zeros([d if d > 0 else 1 for d in s]) for s in shapes]
    method.execute(args)
    return _median_ms(lambda: method.execute(args), repeats)


def measure_bundle(artifacts: dict[str, Path], pte_shapes: list[list[int]] | None = None,
                   repeats: int = 20) -> dict[str, float]:
    """Latency (ms) per model artifact of one bundle, keyed like ``artifacts``."""
    out: dict[str, float] = {}
    for key, p in artifacts.items():
        if p.suffix in (".onnx", ".ort") and key != "program":
            out[key] = onnx_latency_ms(p, repeats)
        elif p.suffix == ".pte" and pte_shapes is not None:
            out[key] = pte_latency_ms(p, pte_shapes, repeats)
    return out
