"""The runtime: backend sessions, :class:`Trainer` (steps on a session) and :class:`ForwardRunner`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np

from bb_edge.training.program import ParamLayout, TrainingProgram

if TYPE_CHECKING:  # onnx (with ml_dtypes, ~0.6 s) loads where a model is built: not in a learning client
    import onnx


class Session(Protocol):
    """What a backend session must offer (``InferenceSession`` and ``ReferenceEvaluator`` both do)."""

    def run(self, output_names: Any, feeds: Any, /) -> Any:
        """Run the model; return the outputs in the order of ``output_names``."""
        ...


def make_session(model: onnx.ModelProto, backend: Literal["ort", "reference"] = "ort") -> Session:
    """Open a session on ONNX Runtime (CPU) or the ONNX reference evaluator."""
    if backend == "ort":
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        sess: Session = ort.InferenceSession(
            model.SerializeToString(), sess_options=opts, providers=["CPUExecutionProvider"])
        return sess
    if backend == "reference":
        from onnx.reference import ReferenceEvaluator

        ref: Session = ReferenceEvaluator(model)
        return ref
    raise ValueError(f"unknown backend {backend!r}; use 'ort' or 'reference'")


class Trainer:
    """Runs training steps of a :class:`TrainingProgram` on a backend session.

    Holds the current parameters and optimizer state; ``vector()`` /
    ``load_vector()`` move the parameters to and from the wire layout.
    """

    def __init__(
        self,
        program: TrainingProgram,
        session: Session | None = None,
        params: Mapping[str, np.ndarray] | None = None,
    ) -> None:
        if program.loss is None or program.optimizer is None:
            raise ValueError("Trainer needs a program built with a loss and an optimizer")
        self.program = program
        self.session = session if session is not None else make_session(program.model)
        self.layout = program.layout
        self.params: dict[str, np.ndarray] = {
            k: np.array(v) for k, v in (params or program.initial_params).items()}
        self.state: dict[str, np.ndarray] = program.initial_state()
        self.global_params: dict[str, np.ndarray] | None = None
        self.steps = 0
        self._outs = ["loss", *program.param_outputs, *program.state_outputs]

    def reset_state(self) -> None:
        """Zero the optimizer state (e.g. at the start of a federated round)."""
        self.state = self.program.initial_state()

    def vector(self) -> np.ndarray:
        """Current parameters as one float32 vector."""
        return self.layout.flatten(self.params)

    def load_vector(self, vec: np.ndarray) -> None:
        """Replace the parameters from a float32 vector (wire layout)."""
        self.params = self.layout.unflatten(vec)

    def set_global(self, vec: np.ndarray) -> None:
        """Set the anchor of the FedProx proximal term (programs with ``proximal_mu > 0``)."""
        self.global_params = self.layout.unflatten(vec)

    def feeds(self, x: np.ndarray | Mapping[str, np.ndarray], labels: np.ndarray) -> dict[str, np.ndarray]:
        """The input dict of one step for batch ``x`` (array or name -> array) and ``labels``."""
        prog = self.program
        feeds: dict[str, np.ndarray] = {}
        if isinstance(x, Mapping):
            feeds.update(x)
        else:
            feeds[prog.data_inputs[0].name] = np.asarray(x, dtype=prog.data_inputs[0].dtype)
        assert prog.labels is not None
        feeds["labels"] = np.asarray(labels, dtype=prog.labels.dtype)
        feeds.update(self.params)
        if prog.proximal_mu > 0:
            anchor = self.global_params if self.global_params is not None else self.params
            feeds.update({"global/" + k: v for k, v in anchor.items()})
        feeds.update({"opt/" + k: v for k, v in self.state.items()})
        return feeds

    def step(self, x: np.ndarray | Mapping[str, np.ndarray], labels: np.ndarray) -> float:
        """Run one step on a batch; updates parameters and state, returns the loss."""
        res = self.session.run(self._outs, self.feeds(x, labels))
        n = len(self.program.params)
        self.params = {s.name: np.asarray(r) for s, r in zip(self.program.params, res[1:1 + n], strict=True)}
        self.state = {s.name[len("opt/"):]: np.asarray(r)
                      for s, r in zip(self.program.state, res[1 + n:], strict=True)}
        self.steps += 1
        return float(res[0])

    def epoch(
        self, x: np.ndarray, y: np.ndarray, batch_size: int, rng: np.random.Generator
    ) -> float:
        """One pass over ``(x, y)`` in shuffled mini-batches; returns the mean loss."""
        order = rng.permutation(len(x))
        losses = [self.step(x[order[i:i + batch_size]], y[order[i:i + batch_size]])
                  for i in range(0, len(x), batch_size)]
        return float(np.mean(losses)) if losses else float("nan")


class ForwardRunner:
    """Evaluates a forward model for any parameter dict or vector (one session)."""

    def __init__(
        self,
        forward: onnx.ModelProto,
        params: Iterable[str] | None = None,
        backend: Literal["ort", "reference"] = "ort",
        output: str | None = None,
    ) -> None:
        from bb_edge.training.step import parameterized_forward

        self.model, self.specs = parameterized_forward(forward, list(params) if params is not None else None)
        self.layout = ParamLayout(self.specs)
        self.session = make_session(self.model, backend)
        self.output = output or self.model.graph.output[0].name
        self.input = next(i.name for i in self.model.graph.input if i.name not in self.layout.offsets)

    def __call__(self, x: np.ndarray, params: Mapping[str, np.ndarray] | np.ndarray) -> np.ndarray:
        """Forward output for batch ``x`` under ``params`` (dict or flat vector)."""
        p = self.layout.unflatten(params) if isinstance(params, np.ndarray) else dict(params)
        return np.asarray(self.session.run([self.output], {self.input: x, **p})[0])

    def accuracy(self, x: np.ndarray, y: np.ndarray, params: Mapping[str, np.ndarray] | np.ndarray) -> float:
        """Top-1 accuracy of the logits against integer labels ``y``."""
        return float(np.mean(np.argmax(self(x, params), axis=1) == y))
