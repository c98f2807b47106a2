"""Reference backend on onnx.reference.ReferenceEvaluator (slow, exact, no native deps)."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import version_converter
from onnx.reference import ReferenceEvaluator

from bb_edge.errors import UnsupportedOpError
from bb_edge.wire.envelope import Envelope

MIN_REFERENCE_OPSET = 13


class ReferenceSegment:
    """One ReferenceEvaluator computing one segment."""

    def __init__(self, model: onnx.ModelProto) -> None:
        opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
        if opset < MIN_REFERENCE_OPSET:
            # the evaluator implements some ops (e.g. Softmax's 2-D coercion before opset 13)
            # only with their newest semantics; converting keeps the model's meaning
            model = version_converter.convert_version(model, MIN_REFERENCE_OPSET)
        self.evaluator = ReferenceEvaluator(model)
        self.output_names = [o.name for o in model.graph.output]

    def run(self, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Evaluate; outputs by name. UnsupportedOpError naming the op where onnx.reference fails on one."""
        try:
            values = self.evaluator.run(None, inputs)
        except Exception as exc:
            node = failing_node(exc)
            if node is None:
                raise
            raise UnsupportedOpError(
                f"onnx.reference cannot evaluate op {node.op_type} ({node.name!r}): {type(exc).__name__}: "
                f"{str(exc).splitlines()[0] if str(exc) else ''}; run this node with --backend ort") from exc
        return {n: np.asarray(v) for n, v in zip(self.output_names, values)}


def failing_node(exc: BaseException) -> onnx.NodeProto | None:
    """The ONNX node whose reference kernel raised ``exc`` (the innermost OpRun frame), if any."""
    from onnx.reference.op_run import OpRun

    found = None
    tb = exc.__traceback__
    while tb is not None:
        obj = tb.tb_frame.f_locals.get("self")
        if isinstance(obj, OpRun) and getattr(obj, "onnx_node", None) is not None:
            found = obj.onnx_node
        tb = tb.tb_next
    return found


class ReferenceBackend:
    """Backend on onnx's own reference evaluator."""

    name = "reference"

    def prepare(self, model: onnx.ModelProto, key: str) -> ReferenceSegment:
        """Build an evaluator for ``model``."""
        return ReferenceSegment(model)

    def materialize_from_wire(self, env: Envelope) -> np.ndarray:
        """A writable copy of the payload (the evaluator may write in place)."""
        return np.array(env.array())
