"""Cut a decoder ONNX by decoder layers into stage programs, each keeping its own layers' KV as state.

Stage k of N runs layers [a, b): it takes the residual stream after layer a-1 (stage 0: ``input_ids``), the
``attention_mask`` (each stage derives GroupQueryAttention's lengths from it, so nothing else crosses) and
its layers' ``past_key_values.*``; it returns the residual stream after layer b-1 (the last stage:
``logits``) and its layers' ``present.*``. The stages hold the unsplit graph's own nodes, so chaining them
computes what the whole graph does (tests/llm check the tokens are identical).

The cut points are the layer outputs :mod:`bb_edge.llm.onnx_build` lists in the model's metadata; an ONNX
decoder from another exporter passes them as ``boundaries``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import onnx
from onnx import TensorProto, helper

from bb_edge.errors import PlacementError
from bb_edge.llm.onnx_build import decoder_meta


@dataclass(frozen=True)
class Stage:
    """One stage program: its model, the layers it runs and the names it hands on."""

    index: int
    layers: range
    model: onnx.ModelProto
    takes: str  # input_ids or the previous stage's hidden-state tensor
    gives: str  # logits or this stage's hidden-state tensor
    state: tuple[tuple[str, str], ...]  # (present output, past input) pairs kept on the node

    def kv_bytes(self, context: int, n_kv_heads: int, head_dim: int, itemsize: int = 4) -> int:
        """Bytes of this stage's KV cache holding ``context`` tokens (batch 1)."""
        return len(self.layers) * 2 * n_kv_heads * context * head_dim * itemsize


def even_ranges(n_layers: int, n_stages: int) -> list[range]:
    """``n_stages`` contiguous layer ranges, sizes differing by at most one (earlier stages larger)."""
    if not 1 <= n_stages <= n_layers:
        raise PlacementError(f"cannot split {n_layers} decoder layers into {n_stages} stages")
    base, extra = divmod(n_layers, n_stages)
    out, start = [], 0
    for k in range(n_stages):
        size = base + (1 if k < extra else 0)
        out.append(range(start, start + size))
        start += size
    return out


def _extract(model: onnx.ModelProto, inputs: Sequence[onnx.ValueInfoProto], outputs: Sequence[str],
             out_infos: dict[str, onnx.ValueInfoProto], name: str) -> onnx.ModelProto:
    """The sub-graph computing ``outputs`` from ``inputs`` (and initializers), nodes in the original order."""
    g = model.graph
    producer = {o: n for n in g.node for o in n.output}
    inits = {t.name: t for t in g.initializer}
    stop = {i.name for i in inputs}
    needed_nodes: set[int] = set()
    needed_inits: set[str] = set()
    todo = list(outputs)
    seen: set[str] = set()
    while todo:
        t = todo.pop()
        if t in seen or t in stop or t == "":
            continue
        seen.add(t)
        if t in inits:
            needed_inits.add(t)
            continue
        node = producer.get(t)
        if node is None:
            raise PlacementError(f"stage {name}: tensor {t!r} is neither computed nor an input of the stage")
        needed_nodes.add(id(node))
        todo.extend(node.input)
    nodes = [n for n in g.node if id(n) in needed_nodes]
    graph = helper.make_graph(nodes, name, list(inputs), [out_infos[o] for o in outputs],
                              [t for t in g.initializer if t.name in needed_inits])
    m = helper.make_model(graph, opset_imports=list(model.opset_import), producer_name="bb-edge")
    m.ir_version = model.ir_version
    return m


def split_decoder(model: onnx.ModelProto, n_stages: int, *, layer_ranges: Sequence[range] | None = None,
                  boundaries: Sequence[str] | None = None, hidden: int | None = None) -> list[Stage]:
    """Cut ``model`` into ``n_stages`` stages by decoder layers (even split unless ``layer_ranges``)."""
    if boundaries is None or hidden is None:
        meta = decoder_meta(model)
        boundaries = boundaries or meta["layer_outputs"]
        hidden = hidden or int(meta["config"]["hidden"])
    n_layers = len(boundaries)
    ranges = list(layer_ranges) if layer_ranges is not None else even_ranges(n_layers, n_stages)
    if len(ranges) != n_stages or [i for r in ranges for i in r] != list(range(n_layers)):
        raise PlacementError(f"layer ranges {ranges} do not cover layers 0..{n_layers - 1} once, in order")
    g = model.graph
    ins = {i.name: i for i in g.input}
    outs = {o.name: o for o in g.output}
    for b in boundaries:
        outs[b] = helper.make_tensor_value_info(b, TensorProto.FLOAT, ["batch_size", "sequence_length", hidden])
    stages = []
    for k, r in enumerate(ranges):
        takes = "input_ids" if k == 0 else boundaries[r.start - 1]
        gives = "logits" if k == n_stages - 1 else boundaries[r.stop - 1]
        first_in = ins["input_ids"] if k == 0 else outs[takes]
        state = tuple((f"present.{i}.{kv}", f"past_key_values.{i}.{kv}") for i in r for kv in ("key", "value"))
        inputs = [first_in, ins["attention_mask"]] + [ins[p] for _, p in state]
        sub = _extract(model, inputs, [gives] + [p for p, _ in state], outs, f"stage{k}")
        helper.set_model_props(sub, {**{p.key: p.value for p in model.metadata_props},
                                     "bb_edge.llm.stage": f"{k}/{n_stages}:{r.start}-{r.stop}"})
        stages.append(Stage(k, r, sub, takes, gives, state))
    return stages
