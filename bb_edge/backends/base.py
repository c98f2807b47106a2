"""The Backend role: turn a standard-ONNX segment into something that computes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from bb_edge.errors import BBError
from bb_edge.wire.envelope import Envelope

if TYPE_CHECKING:  # onnx (with ml_dtypes, ~0.6 s) only where a model is prepared: not in every node process
    import onnx


@runtime_checkable
class PreparedSegment(Protocol):
    """A segment ready to run: one backend call per request."""

    def run(self, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Compute the segment's outputs from its inputs."""
        ...


@runtime_checkable
class Backend(Protocol):
    """Compute role: prepares segments once at install, runs them per request."""

    name: str

    def prepare(self, model: onnx.ModelProto, key: str) -> PreparedSegment:
        """Build the session for one segment (called at install, not per request)."""
        ...

    def materialize_from_wire(self, env: Envelope) -> np.ndarray:
        """The envelope's payload as this backend's input tensor."""
        ...


class UnknownBackendError(BBError):
    """The backend name is not one bb-edge knows."""


def get_backend(name: str, **options: object) -> Backend:
    """A backend by name: ``ort`` (ONNX Runtime, default) or ``reference`` (onnx.reference)."""
    if name in ("ort", "onnxruntime"):
        from bb_edge.backends.ort import OrtBackend

        return OrtBackend(**options)  # type: ignore[arg-type]
    if name in ("reference", "ref"):
        from bb_edge.backends.reference import ReferenceBackend

        return ReferenceBackend()
    if name in ("executorch", "et"):
        try:
            from bb_edge.backends.executorch import ExecuTorchBackend  # type: ignore[import-not-found]
        except ImportError as exc:
            raise UnknownBackendError(
                f"the executorch backend needs `pip install bb-edge[executorch]` ({exc})"
            ) from exc
        return ExecuTorchBackend(**options)  # type: ignore[no-any-return]
    raise UnknownBackendError(f"unknown backend {name!r}; choose ort or reference")

