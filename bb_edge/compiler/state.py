"""State pairs of a stateful model: ``bb-edge compile --state OUTPUT=INPUT`` (docs/wire.md "Sessions").

A pair names a tensor the model produces at step t (an RNN's ``hn``, a streaming window) and the graph input
it feeds at step t+1 (``h0``). The compiler keeps both on one node, the node that runs the ops between them:
the input is never a host graph input and the output never a host graph output; deployment.json lists the
pair under ``state`` and the engine keeps the tensor per session on that node, never on the wire.

Byte counts: a state whose input has dynamic dims (a KV cache's past length) grows with the steps; it counts
``bytes_per_step`` (the static dims' bytes) times the context (``--context N``), the others their bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import onnx

from bb_edge.compiler.cost import elem_size
from bb_edge.compiler.load import tensor_types
from bb_edge.deployment.ports import node_reads
from bb_edge.errors import FitError, ModelError, PlacementError

#: a profile without ``state_budget_bytes`` gives session state 1/RAM_SHARE of its ``ram_bytes``
RAM_SHARE = 4


class StatePairError(ModelError):
    """A ``--state OUTPUT=INPUT`` names no tensor/graph input, or the output cannot feed the input."""

    fix = ("give OUTPUT=INPUT with OUTPUT a tensor the model computes and INPUT a graph input of the same dtype "
           "and static dims (`bb-edge inspect MODEL.onnx --tensors` lists them)")


class StateSplitError(PlacementError):
    """A state pair's output and input would live on different nodes."""

    fix = "place the ops between a state input and its output on one node (--cut elsewhere, --place, or --nodes)"


@dataclass(frozen=True)
class StatePair:
    """One validated state pair: ``output`` at step t feeds graph input ``input`` at step t+1."""

    output: str
    input: str
    elem_type: int
    shape: tuple[int, ...]  # the input's dims, -1 for a dynamic one

    @property
    def grows(self) -> bool:
        """True when a dim is dynamic: the state grows with the steps (counted at the context length)."""
        return any(d < 0 for d in self.shape)

    @property
    def bytes_per_step(self) -> int:
        """Bytes the state adds per step (its static dims), 0 for a fixed-size state."""
        return self._static() if self.grows else 0

    def nbytes(self, context: int) -> int:
        """Bytes of one session's state after ``context`` steps."""
        return self._static() * (context if self.grows else 1)

    def _static(self) -> int:
        n = 1
        for d in self.shape:
            n *= d if d >= 0 else 1
        return n * elem_size(self.elem_type)


#: model metadata key of the state pairs a model declares itself (a .tflite SVDF's: bb_edge/tflite/svdf.py)
STATE_META = "bb.state"


def declared_pairs(model: onnx.ModelProto, given: Sequence[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    """``given`` (``--state``) plus the pairs the model's :data:`STATE_META` metadata names (``OUT=IN,...``),
    each once: a translated model's own state needs no ``--state``."""
    out = list(given)
    for p in model.metadata_props:
        if p.key == STATE_META:
            for item in filter(None, p.value.split(",")):
                o, _, i = item.partition("=")
                if (o, i) not in out:
                    out.append((o, i))
    return out


def check_pairs(model: onnx.ModelProto, pairs: Sequence[tuple[str, str]]) -> list[StatePair]:
    """Validate ``(output, input)`` pairs against a normalised model; StatePairError names the first problem."""
    g = model.graph
    types = tensor_types(model)
    graph_inputs = [i.name for i in g.input]
    produced = {o for n in g.node for o in n.output if o}
    out: list[StatePair] = []
    seen_in: set[str] = set()
    seen_out: set[str] = set()
    for o, i in pairs:
        if i not in graph_inputs:
            raise StatePairError(f"--state {o}={i}: {i!r} is not a graph input; inputs: {', '.join(graph_inputs)}")
        if o not in produced:
            what = "a graph input, not an op's output" if o in graph_inputs else "not a tensor the model computes"
            raise StatePairError(f"--state {o}={i}: {o!r} is {what}")
        if i in seen_in or o in seen_out:
            raise StatePairError(f"--state {o}={i}: {i if i in seen_in else o!r} is in two state pairs")
        seen_in.add(i)
        seen_out.add(o)
        (iet, ishape), (oet, oshape) = types[i], types.get(o, (0, ()))
        if oet not in (0, iet):
            raise StatePairError(f"--state {o}={i}: {o!r} is {_dtype(oet)} but {i!r} takes {_dtype(iet)}")
        if o in types and len(oshape) != len(ishape):
            raise StatePairError(f"--state {o}={i}: {o!r} has rank {len(oshape)} {_dims(oshape)} but {i!r} takes "
                                 f"rank {len(ishape)} {_dims(ishape)}")
        bad = [k for k, (a, b) in enumerate(zip(oshape, ishape)) if a >= 0 and b >= 0 and a != b]
        if bad:
            raise StatePairError(f"--state {o}={i}: {o!r} has shape {_dims(oshape)} but {i!r} takes "
                                 f"{_dims(ishape)} (dim {bad[0]} differs)")
        out.append(StatePair(o, i, iet, tuple(ishape)))
    return out


def spans(model: onnx.ModelProto, pairs: Sequence[StatePair]) -> list[tuple[int, int]]:
    """Per pair, the first and last op index (in graph order) that automatic placement must keep on one node:
    every reader of the input and the producer of the output."""
    g = model.graph
    out: list[tuple[int, int]] = []
    for p in pairs:
        idx = [k for k, n in enumerate(g.node) if p.input in node_reads(n) or p.output in n.output]
        out.append((min(idx), max(idx)))
    return out


def homes(model: onnx.ModelProto, placement: dict[str, str], pairs: Sequence[StatePair]) -> dict[str, str]:
    """State input -> the node that keeps the pair; StateSplitError when its ops sit on several nodes."""
    g = model.graph
    out: dict[str, str] = {}
    for p in pairs:
        producer = next(placement[n.name] for n in g.node if p.output in n.output)
        readers = {placement[n.name]: n.name for n in g.node if p.input in node_reads(n)}
        others = {node: op for node, op in readers.items() if node != producer}
        if others:
            node, op = next(iter(others.items()))
            raise StateSplitError(f"state {p.output}={p.input} is split across nodes: {p.output!r} is computed on "
                                  f"{producer!r} but {p.input!r} is read by {op!r} on {node!r}; a state stays on "
                                  f"the node that runs the ops between them")
        out[p.input] = producer
    return out


def state_budget(profile: object) -> int | None:
    """A profile's per-node state budget: ``state_budget_bytes``, else a quarter of ``ram_bytes`` (None: none)."""
    get = getattr(profile, "get", None)
    explicit = get("state_budget_bytes") if callable(get) else None
    if isinstance(explicit, int) and explicit > 0:
        return explicit
    ram = int(getattr(profile, "ram_bytes", 0) or 0)
    return ram // RAM_SHARE if ram else None


def check_fit(node: str, target: str, state_bytes: int, budget: int | None, weights: int, ram: int,
              context: int) -> None:
    """FitError when one session's state passes the node's state budget, or weights + state its RAM."""
    if budget is not None and state_bytes > budget:
        raise FitError(node, target, "state", state_bytes, budget,
                       what=f"node {node!r} keeps {state_bytes} bytes of state per session at context {context} "
                            f"but its state budget (limits.state_budget) is {budget} bytes",
                       advice="Give a shorter --context, a larger --state-budget, or a target with more RAM")
    if ram and weights + state_bytes > ram:
        raise FitError(node, target, "ram", weights + state_bytes, ram,
                       what=f"node {node!r} needs {weights} bytes of weights + {state_bytes} bytes of state at "
                            f"context {context} = {weights + state_bytes} bytes but target {target!r} has {ram} "
                            f"bytes of RAM",
                       advice="Split it over more nodes (--nodes), give a shorter --context or a bigger target")


def _dtype(elem_type: int) -> str:
    try:
        return str(np.dtype(onnx.helper.tensor_dtype_to_np_dtype(elem_type)))
    except (KeyError, TypeError, ValueError):
        return f"elem_type {elem_type}"


def _dims(shape: Sequence[int]) -> str:
    return "[" + ", ".join(str(d) if d >= 0 else "?" for d in shape) + "]"
