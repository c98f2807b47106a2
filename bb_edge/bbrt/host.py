"""Run a lowered program in-process through the C runtime (host build, ctypes)."""

from __future__ import annotations

import numpy as np

from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.format import NP_OF, RECV, Program
from bb_edge.bbrt.native import STATUS_NAMES, load_host_library


def aligned(nbytes: int, align: int = 8) -> np.ndarray:
    """A zeroed uint8 buffer whose data pointer is aligned."""
    raw = np.zeros(nbytes + align, np.uint8)
    off = (-raw.ctypes.data) % align
    return raw[off:off + nbytes]


class HostProgram:
    """A .bbrt program loaded by the C loader into a caller-owned arena."""

    def __init__(self, blob: bytes, program: Program, arena_size: int | None = None) -> None:
        # the loader refuses an edge over BBRT_MAX_PAYLOAD: a library built for this program's largest edge
        largest = max((program.tensors[e.tensor].nbytes for e in program.edges), default=0)
        self.lib = load_host_library(max_payload=max(65536, 1 << (largest - 1).bit_length()))
        self.program = program
        self.blob = aligned(len(blob))
        self.blob[:] = np.frombuffer(blob, np.uint8)
        self.arena = aligned(max(8, arena_size if arena_size is not None else program.arena_size))
        st = self.lib.bbrtpy_load(self.blob.ctypes.data, len(blob), self.arena.ctypes.data, len(self.arena))
        if st != 0:
            raise BbrtError(f"the C loader refused the program: {STATUS_NAMES.get(st, st)}")

    def view(self, index: int) -> np.ndarray:
        """The arena bytes of tensor ``index`` as a numpy array (a view)."""
        t = self.program.tensors[index]
        dt = NP_OF[t.dtype]
        return self.arena[t.offset:t.offset + t.nbytes].view(dt).reshape(t.shape)

    def run(self, inputs: dict[int, np.ndarray]) -> None:
        """Write inputs (by tensor index) into the arena and run every op."""
        for idx, arr in inputs.items():
            v = self.view(idx)
            v[...] = np.asarray(arr, v.dtype).reshape(v.shape)
        st = self.lib.bbrtpy_run()
        if st != 0:
            raise BbrtError(f"run failed: {STATUS_NAMES.get(st, st)}")

    def recv_tensors(self) -> list[int]:
        """Tensor indices of the Recv edges, in edge order."""
        return [e.tensor for e in self.program.edges if e.direction == RECV]
