"""Calibration data: read --calib .npz files and derive every node's input samples."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort

from bb_edge.deployment.manifest import Deployment
from bb_edge.deployment.ports import compute_model
from bb_edge.errors import BuildError, CalibrationShapeError

Sample = dict[str, np.ndarray]


def _fits(arr_shape: tuple[int, ...], contract: list[int]) -> bool:
    return len(arr_shape) == len(contract) and all(c < 0 or a == c for a, c in zip(arr_shape, contract))


def load_calibration(dep: Deployment, path: str | Path, limit: int = 64) -> list[Sample]:
    """Samples of the deployment's graph inputs from an .npz keyed by input name.

    Each array is either one sample of the input's contract shape or a stack
    ``[N, *shape]``; when the contract's leading (batch) dimension is 1, a
    stack ``[N, *shape[1:]]`` is also accepted. At most ``limit`` samples are used.
    """
    data = np.load(str(path))
    missing = [i.name for i in dep.inputs if i.name not in data.files]
    if missing:
        raise CalibrationShapeError(
            f"{path} lacks calibration arrays for inputs {missing} (it has {data.files}); "
            f"save them with np.savez(path, {', '.join(f'{m}=...' for m in missing)})")
    per_input: dict[str, list[np.ndarray]] = {}
    for i in dep.inputs:
        arr = np.asarray(data[i.name])
        shape = list(i.shape)
        if _fits(arr.shape, shape):
            rows = [arr]
        elif arr.ndim == len(shape) + 1 and _fits(arr.shape[1:], shape):
            rows = [arr[r] for r in range(arr.shape[0])]
        elif shape and shape[0] in (1, -1) and _fits(arr.shape[1:], shape[1:]) and arr.ndim == len(shape):
            rows = [arr[r:r + 1] for r in range(arr.shape[0])]
        else:
            raise CalibrationShapeError(
                f"calibration array {i.name!r} in {path} has shape {list(arr.shape)}, but the input contract "
                f"is {shape}; save one sample of shape {shape} or a stack [N, {', '.join(map(str, shape))}]")
        per_input[i.name] = [np.ascontiguousarray(r, dtype=i.dtype).reshape(np.shape(r)) for r in rows[:limit]]
    n = min(len(v) for v in per_input.values())
    if n == 0:
        raise CalibrationShapeError(f"{path} holds no samples")
    return [{k: v[r] for k, v in per_input.items()} for r in range(n)]


def random_calibration(dep: Deployment, count: int = 8, seed: int = 0) -> list[Sample]:
    """Seeded samples of the graph inputs (when no --calib is given): standard normal floats, 0/1 integers."""
    rng = np.random.default_rng(seed)
    out: list[Sample] = []
    for _ in range(count):
        row: Sample = {}
        for i in dep.inputs:
            dims = [d if d > 0 else 1 for d in i.shape]
            dt = np.dtype(i.dtype)
            # integer inputs are ids, lengths or masks: 0/1 is valid for each, a normal draw is not
            row[i.name] = (rng.standard_normal(dims).astype(dt) if np.issubdtype(dt, np.floating)
                           else rng.integers(0, 2, dims).astype(dt))
        out.append(row)
    return out


def _session(model: onnx.ModelProto) -> ort.InferenceSession:
    so = ort.SessionOptions()
    so.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])


def fleet_tensors(dep: Deployment, samples: list[Sample],
                  programs: dict[str, onnx.ModelProto] | None = None) -> list[Sample]:
    """Every named tensor the float fleet sees (graph inputs, edges, outputs), per sample.

    Runs each node's compute model with ONNX Runtime in dependency order; the
    result feeds calibration and accuracy checks of any node.
    """
    computes = {n: compute_model(dep.program(n, programs)) for n in dep.node_names}
    sessions = {n: _session(m) for n, m in computes.items()}
    out: list[Sample] = []
    for s in samples:
        known: Sample = dict(s)
        pending = list(dep.node_names)
        while pending:
            progressed = False
            for n in list(pending):
                sess = sessions[n]
                names = [i.name for i in sess.get_inputs()]
                if all(x in known for x in names):
                    outs = [o.name for o in sess.get_outputs()]
                    known.update(zip(outs, sess.run(outs, {x: known[x] for x in names})))
                    pending.remove(n)
                    progressed = True
            if not progressed:
                raise BuildError(f"cannot order nodes {pending} for calibration: inputs never produced")
        out.append(known)
    return out


def node_samples(compute: onnx.ModelProto, tensors: list[Sample]) -> list[Sample]:
    """The inputs of one node's compute model, picked from :func:`fleet_tensors` output."""
    names = [i.name for i in compute.graph.input if i.name not in {x.name for x in compute.graph.initializer}]
    return [{n: t[n] for n in names} for t in tensors]
