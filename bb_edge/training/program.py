"""What a training program is: loss specs, tensor specs, the flat parameter layout, the program.

See :mod:`bb_edge.training` for the program interface.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import numpy as np

from bb_edge.errors import ModelError
from bb_edge.training.optim import OptimizerSpec, init_state

if TYPE_CHECKING:  # onnx (with ml_dtypes, ~0.6 s) loads where a model is built or read: not in a learning client
    import onnx

OPSET = 17
Shape = tuple[int | None, ...]



@dataclass(frozen=True)
class SoftmaxCrossEntropy:
    """Mean softmax cross-entropy over the batch; output must be logits ``(N, K)``.

    ``labels="index"``: ``labels`` input is int64 ``(N,)``; ``"onehot"``: it
    has the logits' shape and float dtype (soft labels allowed).
    """

    labels: Literal["index", "onehot"] = "index"


@dataclass(frozen=True)
class MSE:
    """Mean squared error over all elements; ``labels`` has the output's shape."""


LossSpec = SoftmaxCrossEntropy | MSE


@dataclass(frozen=True)
class TensorSpec:
    """Name, shape (``None`` for a symbolic dim) and numpy dtype name of a tensor."""

    name: str
    shape: Shape
    dtype: str = "float32"

    @property
    def size(self) -> int:
        """Number of elements (symbolic dims count as 1)."""
        n = 1
        for d in self.shape:
            n *= d if d is not None else 1
        return n


class ParamLayout:
    """Fixed order of named parameters packed into one float32 vector.

    The vector is what travels over the wire as one envelope; every node of a
    federation must use the same layout (same names, shapes, order).
    """

    def __init__(self, specs: Sequence[TensorSpec]) -> None:
        self.specs: tuple[TensorSpec, ...] = tuple(specs)
        self.offsets: dict[str, tuple[int, int]] = {}
        off = 0
        for s in self.specs:
            if any(d is None for d in s.shape):
                raise ModelError(f"parameter {s.name!r} has a symbolic shape {s.shape}")
            self.offsets[s.name] = (off, off + s.size)
            off += s.size
        self.size: int = off

    @property
    def names(self) -> tuple[str, ...]:
        """Parameter names in layout order."""
        return tuple(s.name for s in self.specs)

    def flatten(self, params: Mapping[str, np.ndarray]) -> np.ndarray:
        """Pack a name -> array dict into one float32 vector (layout order)."""
        out = np.empty(self.size, dtype=np.float32)
        for s in self.specs:
            a, b = self.offsets[s.name]
            arr = np.asarray(params[s.name])
            if arr.shape != s.shape:
                raise ValueError(f"parameter {s.name!r} has shape {arr.shape}, layout says {s.shape}")
            out[a:b] = arr.reshape(-1)
        return out

    def unflatten(self, vec: np.ndarray) -> dict[str, np.ndarray]:
        """Split a vector back into a name -> array dict (copies, each spec's dtype)."""
        vec = np.asarray(vec)
        if vec.shape != (self.size,):
            raise ValueError(f"vector has shape {vec.shape}, layout needs ({self.size},)")
        out: dict[str, np.ndarray] = {}
        for s in self.specs:
            a, b = self.offsets[s.name]
            out[s.name] = vec[a:b].astype(s.dtype).reshape(tuple(int(d or 1) for d in s.shape))
        return out


@dataclass(frozen=True)
class TrainingProgram:
    """A built training-step program and the names/shapes needed to drive it."""

    model: onnx.ModelProto
    params: tuple[TensorSpec, ...]
    data_inputs: tuple[TensorSpec, ...]
    output: str
    labels: TensorSpec | None
    grad_input: TensorSpec | None
    state: tuple[TensorSpec, ...]
    loss: LossSpec | None
    optimizer: OptimizerSpec | None
    proximal_mu: float
    input_grads: tuple[str, ...]
    initial_params: dict[str, np.ndarray] = field(repr=False)

    @property
    def layout(self) -> ParamLayout:
        """The parameter layout (flatten/unflatten to one float32 vector)."""
        return ParamLayout(self.params)

    @property
    def param_outputs(self) -> tuple[str, ...]:
        """Output names carrying updated parameters (or gradients without optimizer)."""
        prefix = "next/" if self.optimizer is not None else "grad/"
        return tuple(prefix + p.name for p in self.params)

    @property
    def state_outputs(self) -> tuple[str, ...]:
        """Output names of the updated optimizer state, aligned with ``state``."""
        return tuple("next/" + s.name for s in self.state)

    def initial_state(self) -> dict[str, np.ndarray]:
        """Zero optimizer state, keyed like :func:`bb_edge.training.optim.init_state`."""
        if self.optimizer is None:
            return {}
        st = init_state(self.optimizer, self.initial_params)
        if "step" in st:
            st["step"] = st["step"].astype(self.params[0].dtype)
        return st
