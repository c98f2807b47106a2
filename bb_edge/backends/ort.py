"""ONNX Runtime backend: one InferenceSession per segment, built at install."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import onnxruntime as ort

from bb_edge.deployment.manifest import weights_dir
from bb_edge.wire.envelope import Envelope

if TYPE_CHECKING:  # ORT takes the model's bytes: onnx (~0.6 s with ml_dtypes) is not loaded to run one
    import onnx


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
    #: takes programs whose weights stay in their external data file (ONNX Runtime maps the file)
    external_weights = True

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
        wdir = weights_dir(model)
        if wdir is not None:  # external weights: ONNX Runtime maps their file rather than copying them in
            so.add_session_config_entry("session.model_external_initializers_file_folder_path", wdir)
        sess = ort.InferenceSession(model.SerializeToString(), so, providers=self.providers)
        # the Python wrapper keeps the serialised model for as long as the session lives (its own comment:
        # "TODO: This is bad as we're holding the memory indefinitely"), a second copy of every weight the
        # session already holds; it reads it again only to rebuild a session on a fallback provider list
        if len(self.providers) == 1 and getattr(sess, "_model_bytes", None) is not None:
            sess.disable_fallback()  # one provider: nothing to fall back to, so nothing needs the bytes again
            sess._model_bytes = None
        if wdir is not None:
            release_clean_pages(wdir)
        return OrtSegment(sess)

    def materialize_from_wire(self, env: Envelope) -> np.ndarray:
        """Zero-copy view of the payload (ORT copies into its own buffers as needed)."""
        return env.array()


def release_clean_pages(folder: str) -> int:
    """Give back the resident pages of ``folder``'s weight files that ONNX Runtime mapped and never wrote; bytes.

    Why: ONNX Runtime maps each external initializer and repacks most of them into its own buffers at load;
    the mapped pages it read stay resident although the session reads few of them again (measured on the last
    of 3 SmolLM2 nodes: 8.7 MB, mostly the head's and layers' scales). A mapping with no dirty page holds only
    the file's bytes, so ``MADV_DONTNEED`` is exact: a later read faults the same bytes in again from the file.
    A mapping with any written page is left alone. Linux only (elsewhere: 0, nothing done).
    """
    import ctypes
    import os

    try:
        with open("/proc/self/smaps") as f:
            smaps = f.read().splitlines()
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return 0
    root = os.path.realpath(folder) + os.sep
    ranges: list[list[int]] = []  # [start, end, resident KB, dirty KB] of each weight-file mapping
    cur: list[int] | None = None
    for line in smaps:
        head = line.split(None, 5)
        if "-" in head[0] and not head[0].endswith(":"):
            path = head[5] if len(head) > 5 else ""
            a, b = (int(x, 16) for x in head[0].split("-"))
            cur = [a, b, 0, 0] if path.startswith(root) and path.endswith(".data") else None
            if cur is not None:
                ranges.append(cur)
        elif cur is not None and head[0] in ("Rss:", "Private_Dirty:", "Anonymous:"):
            kb = int(head[1])
            if head[0] == "Rss:":
                cur[2] = kb
            else:
                cur[3] += kb
    freed = 0
    madv_dontneed = 4
    for a, b, rss, dirty in ranges:
        if rss and not dirty and libc.madvise(ctypes.c_void_p(a), ctypes.c_size_t(b - a), madv_dontneed) == 0:
            freed += rss * 1024
    return freed


class WideningOrtSegment(OrtSegment):
    """A segment with a narrow session (few threads) and a wide one (all cores), chosen per run.

    A pipeline stage that runs while other stages compute uses the narrow session,
    so the stages share the cores; one that runs alone (a pipeline filling or
    draining) uses the wide one instead of leaving cores idle. ``wide_ok`` is the
    caller's answer to "is nothing else computing now?". Both sessions compute the
    same graph with the same kernels, so outputs do not depend on the choice.
    """

    def __init__(self, narrow: ort.InferenceSession, wide: ort.InferenceSession,
                 wide_ok: Callable[[], bool]) -> None:
        super().__init__(narrow)
        self.wide = wide
        self.wide_ok = wide_ok

    def run(self, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Run on the wide session when ``wide_ok()`` says nothing else computes, else the narrow one."""
        session = self.wide if self.wide_ok() else self.session
        return dict(zip(self.output_names, session.run(self.output_names, inputs)))


class WideningOrtBackend(OrtBackend):
    """ORT backend for one stage of a concurrent pipeline: ``narrow`` threads per run, or ``wide``
    when ``wide_ok()`` is true (see :class:`WideningOrtSegment`). Holds two sessions per segment."""

    def __init__(self, narrow: int, wide: int, wide_ok: Callable[[], bool],
                 providers: list[str] | None = None) -> None:
        super().__init__(providers=providers, intra_op_threads=narrow)
        self.wide_threads = wide
        self.wide_ok = wide_ok

    def prepare(self, model: onnx.ModelProto, key: str) -> OrtSegment:
        """Build the narrow and the wide session for ``model``."""
        narrow = super().prepare(model, key).session
        if self.wide_threads <= self.intra_op_threads:
            return OrtSegment(narrow)
        wide = OrtBackend(self.providers, self.wide_threads, self.optimization, self.spin).prepare(model, key)
        return WideningOrtSegment(narrow, wide.session, self.wide_ok)
