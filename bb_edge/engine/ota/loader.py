"""Program loaders: how a node checks an offered image and swaps it in (:class:`ProgramLoader`).

:class:`OnnxLoader` is the Linux node's: onnx.checker, the wire contract, every segment prepared and run
once. It changes the engine only through the engine's public program methods (swap, restore, variants).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from bb_edge.deployment.ports import wire_ports
from bb_edge.engine.ota.messages import (
    CONTRACT_MISMATCH,
    INVALID_PROGRAM,
    MAX_REASON,
    ROLLED_BACK,
    TARGET_ONNX,
    OtaError,
)

if TYPE_CHECKING:  # onnx loads when an update is offered: a serving node does not pay ~15 MB for it before
    import onnx

    from bb_edge.engine.engine import Engine, ProgramSwap

class ProgramLoader(Protocol):
    """The node's own loader: validate staged bytes, switch to them, check the result, switch back."""

    target: int

    def validate(self, data: bytes) -> Any:
        """A staged program object, or OtaError(INVALID_PROGRAM / CONTRACT_MISMATCH)."""
        ...

    def switch(self, staged: Any) -> Any:
        """Make ``staged`` the running program; returns a token that :meth:`restore` puts back."""
        ...

    def health(self, staged: Any) -> None:
        """Raise (anything) if the now-running program is not healthy."""
        ...

    def restore(self, token: Any) -> None:
        """Put back the program :meth:`switch` replaced."""
        ...


def _contract(model: onnx.ModelProto) -> tuple[Any, ...]:
    """Everything peers and the host rely on: wire ports and graph inputs/outputs with dtypes and shapes."""
    def typed(vis: Any) -> list[tuple[str, int, tuple[int, ...]]]:
        out = []
        for vi in vis:
            tt = vi.type.tensor_type
            out.append((vi.name, tt.elem_type, tuple(d.dim_value if d.HasField("dim_value") else -1
                                                     for d in tt.shape.dim)))
        return out

    ports = sorted((p.op, p.edge_id, p.peer, p.elem_type, p.shape) for p in wire_ports(model))
    return tuple(ports), tuple(typed(model.graph.input)), tuple(typed(model.graph.output))


def contract_problem(old: onnx.ModelProto, new: onnx.ModelProto) -> str | None:
    """Why ``new`` cannot replace ``old`` on the wire (edges, dtypes, shapes), or None."""
    a, b = _contract(old), _contract(new)
    for what, x, y in zip(("wire ports", "graph inputs", "graph outputs"), a, b):
        if x != y:
            return f"{what} differ: {list(y)} instead of {list(x)}"
    return None


class OnnxLoader:
    """The Linux node's loader: onnx.checker, the contract check, every segment prepared and run once.

    It switches the engine's installed program ``program`` (named after the
    node by :meth:`Engine.for_node`) with the same input and output edges.
    """

    target = TARGET_ONNX

    def __init__(self, engine: Engine, program: str | None = None) -> None:
        self.engine = engine
        self.program = program or engine.node

    def validate(self, data: bytes) -> onnx.ModelProto:
        """Parse, check and prepare ``data``; the running program is untouched."""
        try:
            import onnx

            model = onnx.load_from_string(data)
            onnx.checker.check_model(model)
        except Exception as exc:  # protobuf and checker errors alike: the image is refused, never raised
            reason = f"not a valid ONNX program: {type(exc).__name__}: {exc}"
            raise OtaError(INVALID_PROGRAM, reason[:MAX_REASON]) from None
        problem = contract_problem(self.engine.programs[self.program].model, model)
        if problem is not None:
            raise OtaError(CONTRACT_MISMATCH, problem[:MAX_REASON])
        try:  # the backend must accept every segment (ORT session creation) before READY
            from bb_edge.engine.engine import runnable_model
            from bb_edge.engine.segments import split_segments

            for seg in split_segments(model):  # as install does: a translated .tflite's own ops expanded
                self.engine.backend.prepare(runnable_model(seg.model), f"{self.program}.ota.{seg.key}")
        except Exception as exc:
            reason = f"the backend refused it: {type(exc).__name__}: {exc}"
            raise OtaError(INVALID_PROGRAM, reason[:MAX_REASON]) from None
        return model

    def switch(self, staged: onnx.ModelProto) -> ProgramSwap:
        """Swap the installed program (the engine is idle: no open request refers to it)."""
        return self.engine.swap_program(self.program, staged)

    def install_variant(self, staged: onnx.ModelProto, name: str) -> None:
        """Install ``staged`` next to the running program, bound to no edge (the epoch switch routes to it)."""
        self.engine.install_variant(self.program, name, staged)

    def drop_variant(self, name: str) -> None:
        """Forget a variant :meth:`install_variant` made (no open request may refer to it)."""
        self.engine.uninstall(name)

    def health(self, staged: onnx.ModelProto, program: str | None = None) -> None:
        """Run every segment of ``program`` (default: the running one) once on zeros of its input shapes."""
        import numpy as np

        from bb_edge.wire.dtypes import CODE_TO_NUMPY

        prog = self.engine.programs[program or self.program]
        for seg, prepared in zip(prog.segments, prog.prepared):
            feeds = {}
            for vi in seg.model.graph.input:
                tt = vi.type.tensor_type
                dims = [d.dim_value if d.HasField("dim_value") and d.dim_value > 0 else 1 for d in tt.shape.dim]
                feeds[vi.name] = np.zeros(dims, dtype=CODE_TO_NUMPY[tt.elem_type])
            out = prepared.run(feeds)
            # the contract's shapes: new weights can make an output wider than declared (a delta changes
            # values, never the declared shapes), which the host and peers would then refuse at run time
            declared = {vi.name: [d.dim_value if d.HasField("dim_value") and d.dim_value > 0 else None
                                  for d in vi.type.tensor_type.shape.dim] for vi in seg.model.graph.output
                        if vi.type.tensor_type.HasField("shape")}
            for name, value in out.items():
                shape = list(np.shape(value))
                want = declared.get(name)
                if want is not None and (len(want) != len(shape)
                                         or any(w is not None and w != g for w, g in zip(want, shape))):
                    raise OtaError(ROLLED_BACK, f"segment {seg.key} output {name} has shape {shape}, the "
                                                f"contract declares {['?' if w is None else w for w in want]}")
                if np.issubdtype(np.asarray(value).dtype, np.floating) and not np.all(np.isfinite(value)):
                    raise OtaError(ROLLED_BACK, f"segment {seg.key} output {name} is not finite")

    def restore(self, token: ProgramSwap) -> None:
        """Reinstall the program :meth:`switch` replaced."""
        self.engine.restore_program(token)
