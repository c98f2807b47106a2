"""Small bb_edge.ir modules placed on named nodes, for the engine, admission, rule-vector and pipeline tests:
Pair (node m joins a tensor from node s with a graph input of its own) and Mlp (three linear layers on
nodes s, m and e)."""

from __future__ import annotations

from bb_edge.ir import Linear, Module, on, ops


class Pair(Module):
    """Node m joins a tensor from node s with a graph input of its own: a two-input node."""

    inputs = {"x": ((1, 4), "float32"), "y": ((1, 4), "float32")}

    def forward(self, x, y):  # type: ignore[no-untyped-def, override]
        with on("s"):
            h = ops.relu(x)
        with on("m"):
            return ops.tanh(ops.add(h, y))


class Mlp(Module):
    """Three seeded linear layers, one per node s -> m -> e: relu, tanh, softmax."""

    inputs = {"x": ((1, 8), "float32")}

    def __init__(self) -> None:
        self.a, self.b, self.c = Linear(8, 16, seed=1), Linear(16, 16, seed=2), Linear(16, 4, seed=3)

    def forward(self, x):  # type: ignore[no-untyped-def, override]
        with on("s"):
            h = ops.relu(self.a(x))
        with on("m"):
            h = ops.tanh(self.b(h))
        with on("e"):
            return ops.softmax(self.c(h))
