"""Typed errors of the bbrt toolchain."""

from __future__ import annotations

from bb_edge.errors import BBError


class BbrtError(BBError):
    """A node program cannot be lowered, built or run on bbrt."""

    fix = 'see docs/bbrt.md for what the C runtime supports'


class FitError(BbrtError):
    """A node does not fit its target's RAM or flash.

    ``resource`` is ``"ram"`` or ``"flash"``; ``need`` and ``have`` are bytes and
    ``over`` = need - have.
    """

    def __init__(self, node: str, target: str, resource: str, need: int, have: int) -> None:
        self.node, self.target, self.resource = node, target, resource
        self.need, self.have, self.over = need, have, need - have
        super().__init__(
            f"node {node!r} needs {need} bytes of {resource} but target {target!r} has {have}: "
            f"over by {need - have} bytes ({(need - have) / 1024:.1f} KiB). Split the node further "
            f"(`bb-edge compile --nodes N` with more nodes, or a cut earlier), use int8, or pick a bigger target."
        )


class NativeBuildError(BbrtError):
    """A firmware build (make, a compiler) failed."""


class UnsupportedNode(BbrtError):
    """An ONNX node whose op or attributes the C runtime has no kernel for (``node``, ``op``: where and what)."""

    fix = "keep this node on a host node (`--backend ort`), or export the model without the attribute"

    def __init__(self, node: str, op: str, why: str) -> None:
        self.node, self.op = node, op
        super().__init__(f"node {node!r} ({op}): {why}; bbrt refuses it at build time")
