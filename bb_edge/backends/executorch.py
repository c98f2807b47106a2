"""ExecuTorch backend: run segments as .pte programs through ``executorch.runtime``.

A segment is either given as a ready ``.pte`` (``ExecuTorchBackend(programs={key: path})``,
as in an android bundle) or converted from its ONNX compute model on prepare
(:func:`bb_edge.convert.pte.export_pte`). Needs ``pip install bb-edge[executorch]``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import onnx

from bb_edge.wire.envelope import Envelope

if TYPE_CHECKING:
    from bb_edge.convert.onnx_torch import ProgramIO


class PteSegment:
    """One loaded ExecuTorch method computing one segment."""

    def __init__(self, pte: bytes, input_names: list[str], output_names: list[str],
                 io: ProgramIO | None = None) -> None:
        """``io`` (from the segment's ONNX model): the program's boundary when it differs from the graph's
        (zero-size values, unsigned types); without it inputs and outputs pass as they are."""
        import torch
        from executorch.runtime import Runtime

        self._torch = torch
        self.program = Runtime.get().load_program(pte)
        self.method = self.program.load_method("forward")
        self.input_names = input_names
        self.output_names = output_names
        self.io = io

    @classmethod
    def from_file(cls, path: str | Path, input_names: list[str], output_names: list[str]) -> PteSegment:
        """Load a .pte file whose forward takes ``input_names`` in order."""
        return cls(Path(path).read_bytes(), input_names, output_names)

    def _tensor(self, a: Any) -> Any:
        """A contiguous torch tensor of ``a``. A zero-size value (a session's empty KV cache at its first step)
        is made by torch: numpy gives it strides ExecuTorch refuses (0 where torch puts the row length)."""
        arr = np.asarray(a)
        if arr.size == 0:
            return self._torch.from_numpy(np.zeros(1, arr.dtype)).reshape(-1)[:0].reshape(arr.shape).contiguous()
        # reshape: ascontiguousarray alone turns a 0-d input into shape [1]
        return self._torch.from_numpy(np.ascontiguousarray(arr).reshape(arr.shape))

    def run(self, inputs: dict[str, Any]) -> dict[str, Any]:
        """Execute the method; outputs by name as numpy arrays (a sequence as a list of them, see ProgramIO)."""
        if self.io is not None:
            outs_io: Any = self.method.execute([self._tensor(a) for a in self.io.feed(inputs)])
            return self.io.results(list(outs_io))
        args = [self._tensor(inputs[n]) for n in self.input_names]
        outs: Any = self.method.execute(args)
        return {n: np.asarray(o.detach().numpy() if hasattr(o, "detach") else o)
                for n, o in zip(self.output_names, outs)}


class ExecuTorchBackend:
    """Backend running every segment as an XNNPACK-lowered ExecuTorch program."""

    name = "executorch"

    def __init__(self, programs: Any = None) -> None:
        """``programs``: optional ``{segment key: .pte path}`` to load instead of converting."""
        self.programs = {k: Path(v) for k, v in (programs or {}).items()}

    def prepare(self, model: onnx.ModelProto, key: str) -> PteSegment:
        """A PteSegment for ``model``: the given .pte for ``key`` or a fresh export."""
        from bb_edge.convert.pte import export_pte

        inits = {t.name for t in model.graph.initializer}
        ins = [i.name for i in model.graph.input if i.name not in inits]
        outs = [o.name for o in model.graph.output]
        from bb_edge.convert.onnx_torch import ProgramIO

        io = ProgramIO(model)
        if key in self.programs:
            return PteSegment(self.programs[key].read_bytes(), ins, outs, io)
        return PteSegment(export_pte(model), ins, outs, io)

    def materialize_from_wire(self, env: Envelope) -> np.ndarray:
        """A writable copy of the payload (torch.from_numpy needs writable memory)."""
        return np.array(env.array())
