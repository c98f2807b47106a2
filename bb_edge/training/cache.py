"""A built training program on disk, so a learning node process runs it without building it (nor loading onnx).

Building a training program (:func:`bb_edge.training.step.build_training_step`) needs onnx, whose import
alone cost each FedAvg client process of a 20-client fleet about 0.6 CPU seconds and 16 MB (it loads
ml_dtypes; issue 40). The fleet driver (``bb-edge run --processes``, ``bb_edge/adapters/learn/fleet.py``)
has built the program already: it writes it once with :func:`save_program` and starts every node with
``--program-cache FILE``; a node loads it with :func:`load_program`. ONNX Runtime gets the same bytes and
the node the same specs and initial parameters, so results are bit-identical to a node that built its own.

The file names what it was built from (:func:`program_key`: the forward model's bytes, the loss, the
optimizer and this bb-edge's version). A file built from anything else, or one that cannot be read, is not
used: the node builds its own program, as it does without the option.

Format: one ``.npz`` without pickles: ``header`` (JSON: the key and every spec), ``model`` (the ONNX
bytes) and ``param:<name>`` (the initial parameters).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

import bb_edge
from bb_edge.training.optim import SGD, Adam, Yogi
from bb_edge.training.program import MSE, SoftmaxCrossEntropy, TensorSpec, TrainingProgram

if TYPE_CHECKING:
    import onnx

__all__ = ["SerializedModel", "load_program", "program_key", "save_program"]

FORMAT = "bb-edge/training-program-cache"
_LOSSES: dict[str, type] = {"SoftmaxCrossEntropy": SoftmaxCrossEntropy, "MSE": MSE}
_OPTIMIZERS: dict[str, type] = {"SGD": SGD, "Adam": Adam, "Yogi": Yogi}


class SerializedModel:
    """An ONNX model kept as its serialized bytes, standing in for a ``ModelProto`` where only
    ``SerializeToString()`` is used (ONNX Runtime sessions, program digests); any other use is an
    AttributeError, never a silently different model."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    def SerializeToString(self, deterministic: bool = False) -> bytes:  # noqa: N802 - the ModelProto method
        """The model's bytes (as ``ModelProto.SerializeToString``)."""
        return self.data


def _spec(s: TensorSpec | None) -> Any:
    return None if s is None else [s.name, list(s.shape), s.dtype]


def _unspec(v: Any) -> TensorSpec | None:
    return None if v is None else TensorSpec(str(v[0]), tuple(None if d is None else int(d) for d in v[1]), str(v[2]))


def _component(obj: Any) -> Any:
    return None if obj is None else [type(obj).__name__, dataclasses.asdict(obj)]


def program_key(model_bytes: bytes, loss: Any, optimizer: Any) -> str:
    """What a training program is built from, as one digest (the forward model's bytes, loss, optimizer)."""
    h = hashlib.sha256(model_bytes)
    h.update(json.dumps([bb_edge.__version__, _component(loss), _component(optimizer)], sort_keys=True).encode())
    return h.hexdigest()


def save_program(path: str | Path, program: TrainingProgram, key: str) -> Path:
    """Write ``program`` (built from what ``key`` names) to ``path`` (atomically: a reader sees all or nothing)."""
    p = Path(path)
    header = {"format": FORMAT, "key": key, "params": [_spec(s) for s in program.params],
              "data_inputs": [_spec(s) for s in program.data_inputs], "output": program.output,
              "labels": _spec(program.labels), "grad_input": _spec(program.grad_input),
              "state": [_spec(s) for s in program.state], "loss": _component(program.loss),
              "optimizer": _component(program.optimizer), "proximal_mu": program.proximal_mu,
              "input_grads": list(program.input_grads), "initial_params": list(program.initial_params)}
    arrays: dict[str, Any] = {f"param:{k}": np.asarray(v) for k, v in program.initial_params.items()}
    tmp = p.with_name(p.name + ".tmp.npz")
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    arrays["model"] = np.frombuffer(program.model.SerializeToString(), np.uint8)
    np.savez(tmp, **arrays)
    os.replace(tmp, p)
    return p


def load_program(path: str | Path, key: str) -> TrainingProgram | None:
    """The program saved at ``path`` if it was built from what ``key`` names; ``None`` otherwise (build it)."""
    try:
        with np.load(path, allow_pickle=False) as z:
            header = json.loads(z["header"].tobytes())
            if header.get("format") != FORMAT or header.get("key") != key:
                return None
            loss, opt = header["loss"], header["optimizer"]
            return TrainingProgram(
                model=cast("onnx.ModelProto", SerializedModel(z["model"].tobytes())),
                params=tuple(cast(TensorSpec, _unspec(s)) for s in header["params"]),
                data_inputs=tuple(cast(TensorSpec, _unspec(s)) for s in header["data_inputs"]),
                output=str(header["output"]), labels=_unspec(header["labels"]),
                grad_input=_unspec(header["grad_input"]),
                state=tuple(cast(TensorSpec, _unspec(s)) for s in header["state"]),
                loss=None if loss is None else _LOSSES[loss[0]](**loss[1]),
                optimizer=None if opt is None else _OPTIMIZERS[opt[0]](**opt[1]),
                proximal_mu=float(header["proximal_mu"]), input_grads=tuple(header["input_grads"]),
                initial_params={k: z[f"param:{k}"] for k in header["initial_params"]})
    except (OSError, ValueError, KeyError, TypeError, IndexError, zipfile.BadZipFile):
        return None  # unreadable or from another version: the caller builds the program
