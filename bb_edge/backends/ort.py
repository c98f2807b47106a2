"""ONNX Runtime backend: one InferenceSession per segment, built at install."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort

from bb_edge.wire.envelope import Envelope


class OrtSegment:
    """One ONNX Runtime session computing one segment."""

    def __init__(self, session: ort.InferenceSession) -> None:
        self.session = session
        self.output_names = [o.name for o in session.get_outputs()]

    def run(self, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Run the session; outputs by name."""
        values = self.session.run(self.output_names, inputs)
        return dict(zip(self.output_names, values))


class OrtBackend:
    """Default backend on onnxruntime's CPU (or a preferred provider list)."""

    name = "ort"

    def __init__(self, providers: list[str] | None = None, intra_op_threads: int = 0,
                 optimization: str = "all") -> None:
        self.providers = [p for p in (providers or ["CPUExecutionProvider"])
                          if p in ort.get_available_providers()] or ["CPUExecutionProvider"]
        self.intra_op_threads = intra_op_threads
        self.optimization = optimization

    def prepare(self, model: onnx.ModelProto, key: str) -> OrtSegment:
        """Build an InferenceSession for ``model``."""
        so = ort.SessionOptions()
        so.intra_op_num_threads = self.intra_op_threads
        so.graph_optimization_level = {
            "none": ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
            "basic": ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
            "all": ort.GraphOptimizationLevel.ORT_ENABLE_ALL,
        }[self.optimization]
        so.log_severity_level = 3
        sess = ort.InferenceSession(model.SerializeToString(), so, providers=self.providers)
        return OrtSegment(sess)

    def materialize_from_wire(self, env: Envelope) -> np.ndarray:
        """Zero-copy view of the payload (ORT copies into its own buffers as needed)."""
        return env.array()
