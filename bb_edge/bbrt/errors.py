"""Typed errors of the bbrt toolchain."""

from __future__ import annotations

from bb_edge import errors
from bb_edge.errors import BBError


class BbrtError(BBError):
    """A node program cannot be lowered, built or run on bbrt."""

    fix = 'see docs/bbrt.md for what the C runtime supports'


class FitError(BbrtError, errors.FitError):
    """A node does not fit its target's RAM or flash at build time (see :class:`bb_edge.errors.FitError`)."""


class NativeBuildError(BbrtError):
    """A firmware build (make, a compiler) failed."""


class UnsupportedNode(BbrtError):
    """An ONNX node whose op or attributes the C runtime has no kernel for (``node``, ``op``: where and what)."""

    fix = "keep this node on a host node (`--backend ort`), or export the model without the attribute"

    def __init__(self, node: str, op: str, why: str) -> None:
        self.node, self.op = node, op
        super().__init__(f"node {node!r} ({op}): {why}; bbrt refuses it at build time")


class DynamicStateError(BbrtError):
    """A state tensor with a dynamic dim: a C-runtime session slot holds a fixed number of bytes (``tensor``)."""

    fix = "pin the state input's shape (compile --input-shape NAME=...), or build this node for ONNX Runtime"

    def __init__(self, tensor: str, dims: list[object]) -> None:
        self.tensor = tensor
        super().__init__(f"state tensor {tensor!r} has dynamic dims {dims}; a C-runtime session slot keeps fixed-size "
                         f"state only")
