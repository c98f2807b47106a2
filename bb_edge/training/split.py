"""Split learning's programs: cut a forward model at a tensor, and build the three training programs.

:func:`split_forward` cuts a forward model at a tensor into a client half
(data -> cut) and a server half (cut -> logits); :class:`SplitPrograms`
builds the three programs the targets run on the engine (client forward,
client step taking ``grad/<cut>``, server step returning ``grad/<cut>``).
The run wing's :mod:`bb_edge.strategies.split` drives them over the wire.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import helper

from bb_edge.training.optim import OptimizerSpec
from bb_edge.training.program import LossSpec, ParamLayout, TrainingProgram
from bb_edge.training.step import build_training_step, parameterized_forward

__all__ = ["split_forward", "SplitPrograms"]


def split_forward(model: onnx.ModelProto, cut: str) -> tuple[onnx.ModelProto, onnx.ModelProto]:
    """Cut ``model`` at tensor ``cut``: (client half: inputs -> cut, server half: cut -> outputs)."""
    inferred = onnx.shape_inference.infer_shapes(model)
    g = inferred.graph
    vis = {v.name: v for v in list(g.value_info) + list(g.output) + list(g.input)}
    if cut not in vis:
        raise ValueError(f"cut tensor {cut!r} is not in the graph (or has no inferred type)")
    producers = {o: n for n in g.node for o in n.output}
    needed: set[str] = set()
    stack = [cut]
    while stack:
        t = stack.pop()
        n = producers.get(t)
        if n is None or n.name in needed:
            continue
        needed.add(n.name)
        stack.extend(n.input)
    inits = {t.name: t for t in g.initializer}

    def half(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto],
             outputs: list[onnx.ValueInfoProto], name: str) -> onnx.ModelProto:
        used = {i for n in nodes for i in n.input}
        graph = helper.make_graph(nodes, name, inputs, outputs,
                                  initializer=[inits[k] for k in inits if k in used])
        m = helper.make_model(graph, opset_imports=list(model.opset_import))
        m.ir_version = model.ir_version
        return m

    client_nodes = [n for n in g.node if n.name in needed]
    server_nodes = [n for n in g.node if n.name not in needed]
    client = half(client_nodes, [i for i in g.input if i.name not in inits], [vis[cut]], "client")
    server = half(server_nodes, [vis[cut]], list(g.output), "server")
    return client, server


@dataclass
class SplitPrograms:
    """The programs of one split: client forward, client step, server step, and the joined layout."""

    forward: onnx.ModelProto
    cut: str
    loss: LossSpec
    optimizer: OptimizerSpec
    client_fwd: onnx.ModelProto = field(init=False, repr=False)
    client: TrainingProgram = field(init=False, repr=False)
    server: TrainingProgram = field(init=False, repr=False)

    def __post_init__(self) -> None:
        c, s = split_forward(self.forward, self.cut)
        self.client_fwd, _ = parameterized_forward(c)
        self.client = build_training_step(c, self.cut, None, self.optimizer)
        self.server = build_training_step(s, None, self.loss, self.optimizer, input_grads=(self.cut,))

    def compute(self) -> dict[str, onnx.ModelProto]:
        """Key -> model to prepare once and attach to every engine."""
        return {"split.fwd": self.client_fwd, "split.client": self.client.model, "split.server": self.server.model}

    def joined(self, client_vec: np.ndarray, server_vec: np.ndarray) -> dict[str, np.ndarray]:
        """Whole-model parameters from the two halves' vectors."""
        return {**self.client.layout.unflatten(client_vec), **self.server.layout.unflatten(server_vec)}

    @property
    def client_layout(self) -> ParamLayout:
        """Layout of the client half's vector."""
        return self.client.layout
