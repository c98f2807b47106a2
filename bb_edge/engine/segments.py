"""Split a node program's standard ops into segments: one backend call each.

A segment is the set of ops that depend on exactly the same set of *sources*
(graph inputs and Recv tensors). All of a segment's sources arrive before it
can run, and everything it needs from other segments comes from segments
with a subset of its sources, so running segments as their sources complete
never deadlocks, even when data flows A -> B -> A between nodes. A plain
pipeline stage is one segment. An op "depends on" everything it reads,
including what an If/Loop/Scan's subgraphs read from the program's scope.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # onnx (with ml_dtypes, ~0.6 s) loads where a model is built or read: not in a learning client
    import onnx

from bb_edge.deployment.onnx_proto import make_graph, make_model, pb
from bb_edge.deployment.ports import WIRE_DOMAIN, node_reads, value_info, wire_ports


@dataclass
class Segment:
    """Ops that run as one backend call."""

    index: int
    key: str
    sources: frozenset[str]
    inputs: list[str]
    outputs: list[str]
    model: onnx.ModelProto


def split_segments(program: onnx.ModelProto, held: frozenset[str] = frozenset()) -> list[Segment]:
    """Segments of ``program`` in an order where every segment's inputs come earlier.

    ``held`` names graph inputs the node already holds when a request opens (a session's state tensors,
    :mod:`bb_edge.engine.sessions`): they are not sources of their own but stand for all the program's other
    sources, so a decoder stage whose every layer reads its own KV cache stays one segment instead of one
    per layer. (The price: what reads state waits for every source of the request.)
    """
    g = program.graph
    ports = wire_ports(program)
    inits = {i.name for i in g.initializer}
    sources = {i.name for i in g.input} | {p.tensor for p in ports if p.op == "Recv"}
    real = frozenset(sources - held)
    deps: dict[str, frozenset[str]] = {s: real if s in held else frozenset([s]) for s in sources}
    ops = [n for n in g.node if n.domain != WIRE_DOMAIN]
    groups: dict[frozenset[str], list[onnx.NodeProto]] = {}
    order: list[frozenset[str]] = []
    for op in ops:
        d: frozenset[str] = frozenset().union(
            *(deps.get(x, frozenset()) for x in node_reads(op) if x and x not in inits))
        for o in op.output:
            deps[o] = d
        if d not in groups:
            groups[d] = []
            order.append(d)
        groups[d].append(op)
    # ops that read only initializers (a float16 weight cast to float32) run in every segment that needs
    # them: as a segment of their own they would have no sources and outputs typed by nothing
    consts = groups.pop(frozenset(), [])
    if consts:
        order.remove(frozenset())
        for key, grp in groups.items():
            need = {x for op in grp for x in node_reads(op)}
            pre: list[onnx.NodeProto] = []
            for op in reversed(consts):
                if any(o in need for o in op.output):
                    pre.insert(0, op)
                    need |= set(node_reads(op))
            groups[key] = pre + grp
    const_outs = {o for op in consts for o in op.output}
    # order groups so that a group runs after every group it consumes from
    first_seen = {k: i for i, k in enumerate(order)}
    order.sort(key=lambda s: (len(s), first_seen[s]))
    needed_outside: set[str] = {o.name for o in g.output} | {p.tensor for p in ports if p.op == "Send"}
    types = _types(program)
    declared = {v.name: v for v in list(g.input) + list(g.value_info) + list(g.output)}
    produced_in = {o: k for k, grp in groups.items() for op in grp for o in op.output}
    segments: list[Segment] = []
    for idx, key in enumerate(order):
        grp = groups[key]
        produced = {o for op in grp for o in op.output if o}
        consumed = [x for op in grp for x in node_reads(op) if x and x not in inits]
        inputs = list(dict.fromkeys(x for x in consumed if x not in produced))
        consumers_elsewhere = {x for k, other in groups.items() if k != key
                               for op in other for x in node_reads(op)} - const_outs
        outputs = [o for op in grp for o in op.output
                   if o and (o in needed_outside or o in consumers_elsewhere)]
        if not outputs:
            continue  # dead ops: nothing outside the group needs them
        for x in inputs:
            if x in produced_in and order.index(produced_in[x]) > idx:
                raise AssertionError("segment order violates a dependency")  # cannot happen: subset rule
        used_inits = [i for i in g.initializer if i.name in {x for op in grp for x in node_reads(op)}]
        graph = make_graph(
            [_copy(op) for op in grp], f"{g.name}.seg{idx}",
            [_typed(x, declared, types) for x in inputs],
            [_typed(o, declared, types) for o in outputs],
            initializer=used_inits,
        )
        model = make_model(
            graph, opset_imports=[o for o in program.opset_import if o.domain != WIRE_DOMAIN],
            ir_version=program.ir_version,
        )
        segments.append(Segment(len(segments), f"seg{len(segments)}", key, inputs, outputs, model))
    return segments


def _typed(name: str, declared: dict[str, onnx.ValueInfoProto],
           types: dict[str, tuple[int, tuple[int, ...]]]) -> onnx.ValueInfoProto:
    """The program's own declaration of ``name`` (it may leave the rank open), else one from its contract."""
    if name in declared:
        vi = pb().ValueInfoProto()
        vi.CopyFrom(declared[name])
        return vi
    return value_info(name, *types[name])


def _copy(op: onnx.NodeProto) -> onnx.NodeProto:
    c = pb().NodeProto()
    c.CopyFrom(op)
    return c


def _types(program: onnx.ModelProto) -> dict[str, tuple[int, tuple[int, ...]]]:
    g = program.graph
    out: dict[str, tuple[int, tuple[int, ...]]] = {}
    for v in list(g.input) + list(g.value_info) + list(g.output):
        tt = v.type.tensor_type
        out[v.name] = (tt.elem_type, tuple(d.dim_value if d.HasField("dim_value") else -1
                                           for d in tt.shape.dim))
    for p in wire_ports(program):
        out.setdefault(p.tensor, (p.compute_elem_type, p.shape))
    return out
