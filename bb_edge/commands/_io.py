"""Shared helpers of the CLI commands: .npz inputs/outputs, batching."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bb_edge.compiler.manifest import Deployment
from bb_edge.errors import BBError


def load_requests(dep: Deployment, path: str | Path | None, count: int = 1,
                  seed: int = 0) -> list[dict[str, np.ndarray]]:
    """Requests from an .npz keyed by graph input name, or random inputs if no file.

    An array whose leading dimension is one more than the contract's rank is
    read as a stack of requests (``name`` of shape ``[R, *shape]``).
    """
    if path is None:
        rng = np.random.default_rng(seed)
        return [{i.name: rng.standard_normal([d if d > 0 else 1 for d in i.shape]).astype(i.dtype)
                 for i in dep.inputs} for _ in range(count)]
    data = np.load(str(path))
    missing = [i.name for i in dep.inputs if i.name not in data.files]
    if missing:
        raise BBError(f"{path} lacks inputs {missing}; it has {data.files}")
    stacked = {i.name: data[i.name].ndim == len(i.shape) + 1 for i in dep.inputs}
    if all(stacked.values()):
        n = min(int(data[i.name].shape[0]) for i in dep.inputs)
        return [{i.name: np.ascontiguousarray(data[i.name][r]) for i in dep.inputs} for r in range(n)]
    return [{i.name: np.ascontiguousarray(data[i.name]) for i in dep.inputs}]


def save_outputs(path: str | Path, outputs: list[dict[str, np.ndarray]]) -> None:
    """Write outputs under their ONNX names (stacked on axis 0 if several requests)."""
    if not outputs:
        raise BBError("no outputs to write")
    if len(outputs) == 1:
        np.savez(str(path), **outputs[0])  # type: ignore[arg-type]
    else:
        np.savez(str(path), **{k: np.stack([o[k] for o in outputs]) for k in outputs[0]})  # type: ignore[arg-type]
