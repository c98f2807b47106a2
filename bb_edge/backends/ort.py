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
                 optimization: str = "all", spin: bool = False) -> None:
        self.providers = [p for p in (providers or ["CPUExecutionProvider"])
                          if p in ort.get_available_providers()] or ["CPUExecutionProvider"]
        self.intra_op_threads = intra_op_threads
        self.optimization = optimization
        self.spin = spin

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
        # a node holds one session per segment and a process may hold several nodes: idle
        # thread pools that spin-wait steal the cores the next session needs (measured: a
        # 3-node split ran at 0.5x a single session with spinning, 0.97x without)
        so.add_session_config_entry("session.intra_op.allow_spinning", "1" if self.spin else "0")
        sess = ort.InferenceSession(model.SerializeToString(), so, providers=self.providers)
        return OrtSegment(sess)

    def materialize_from_wire(self, env: Envelope) -> np.ndarray:
        """Zero-copy view of the payload (ORT copies into its own buffers as needed)."""
        return env.array()
