"""Pair, the two-node module whose node m joins a tensor from node s with a graph input of its own: the
engine, admission and rule-vector tests compile it."""

from __future__ import annotations

from bb_edge.ir import Module, on, ops


class Pair(Module):
    """Node m joins a tensor from node s with a graph input of its own: a two-input node."""

    inputs = {"x": ((1, 4), "float32"), "y": ((1, 4), "float32")}

    def forward(self, x, y):  # type: ignore[no-untyped-def, override]
        with on("s"):
            h = ops.relu(x)
        with on("m"):
            return ops.tanh(ops.add(h, y))
