"""Per-node programs: read their bb.wire Send/Recv ops and strip them for a backend.

A per-node program (see docs/architecture.md) is an ONNX model whose cross-node
edges are ``bb.wire.Send`` / ``bb.wire.Recv`` ops. Backends and quantizers
cannot load custom-domain ops, so :func:`compute_model` turns a program into a
standard ONNX model: every Recv output becomes a graph input and every Send
input becomes a graph output.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bb_edge.deployment.onnx_proto import get_attribute_value, make_tensor_value_info

if TYPE_CHECKING:  # onnx (with ml_dtypes, ~0.6 s) loads where a model is built or read: not in a learning client
    import onnx

WIRE_DOMAIN = "bb.wire"
WIRE_VERSION = 1
FLOAT = 1  # onnx.TensorProto.FLOAT
_GRAPH, _GRAPHS = 5, 10  # onnx.AttributeProto.GRAPH, GRAPHS


@dataclass(frozen=True)
class WirePort:
    """One end of a cross-node edge inside a node program."""

    op: str  # "Send" or "Recv"
    edge_id: int
    peer: str
    tensor: str
    elem_type: int  # the wire contract: what the envelope carries
    shape: tuple[int, ...]  # -1 marks a symbolic dimension
    scale: float | None = None  # an int8 edge of a float tensor: the envelope's affine parameters
    zero_point: int = 0

    @property
    def quant(self) -> tuple[float, int] | None:
        """``(scale, zero_point)`` of an int8 edge carrying a float tensor, else None."""
        return None if self.scale is None else (self.scale, self.zero_point)

    @property
    def compute_elem_type(self) -> int:
        """The tensor's type inside the node's compute model (float32 for a quantized edge)."""
        return FLOAT if self.scale is not None else self.elem_type


def _attr(node: onnx.NodeProto, name: str) -> object:
    for a in node.attribute:
        if a.name == name:
            return get_attribute_value(a)
    raise KeyError(f"{node.op_type} {node.name!r} has no attribute {name!r}")


def _opt_attr(node: onnx.NodeProto, name: str) -> object:
    for a in node.attribute:
        if a.name == name:
            return get_attribute_value(a)
    return None


def wire_ports(model: onnx.ModelProto) -> list[WirePort]:
    """All Send and Recv ports of a per-node program, in graph order."""
    ports: list[WirePort] = []
    for node in model.graph.node:
        if node.domain != WIRE_DOMAIN:
            continue
        peer = _attr(node, "peer")
        scale = _opt_attr(node, "scale")  # set on int8 edges of float tensors (bb_edge.quant.edges)
        zp = _opt_attr(node, "zero_point")
        ports.append(
            WirePort(
                op=node.op_type,
                edge_id=int(_attr(node, "edge_id")),  # type: ignore[call-overload]
                peer=peer.decode() if isinstance(peer, bytes) else str(peer),
                tensor=node.input[0] if node.op_type == "Send" else node.output[0],
                elem_type=int(_attr(node, "elem_type")),  # type: ignore[call-overload]
                shape=tuple(int(d) for d in _attr(node, "shape")),  # type: ignore[attr-defined]
                scale=None if scale is None else float(scale),  # type: ignore[arg-type]
                zero_point=0 if zp is None else int(zp),  # type: ignore[call-overload]
            )
        )
    return ports


def outer_reads(graph: onnx.GraphProto) -> list[str]:
    """Names a (sub)graph reads from enclosing scopes: used but not defined inside it, in first-use order.

    A control-flow op's branches and bodies may use any tensor of the graph
    around them without listing it as an input; these are those names,
    including what nested subgraphs read through this one.
    """
    defined = {i.name for i in graph.input} | {i.name for i in graph.initializer}
    defined |= {i.values.name for i in graph.sparse_initializer}
    reads: list[str] = []
    for node in graph.node:
        for x in node_reads(node):
            if x and x not in defined:
                reads.append(x)
        defined.update(o for o in node.output if o)
    defined_in_outputs = {o.name for o in graph.output} - defined  # outputs may pass an outer name through
    return list(dict.fromkeys(reads + sorted(defined_in_outputs)))


def node_reads(node: onnx.NodeProto) -> list[str]:
    """Every tensor an op reads: its inputs, then what its subgraphs read from the enclosing graph.

    Placement, partitioning and segmenting use this instead of ``node.input``
    so that an If/Loop/Scan gets the outer-scope tensors its subgraphs use
    (as graph inputs, initializers or Recv ports of its node).
    """
    names = [x for x in node.input if x]
    for a in node.attribute:
        if a.type == _GRAPH:
            names.extend(outer_reads(a.g))
        elif a.type == _GRAPHS:
            for sub in a.graphs:
                names.extend(outer_reads(sub))
    return list(dict.fromkeys(names))


def value_info(name: str, elem_type: int, shape: tuple[int, ...]) -> onnx.ValueInfoProto:
    """A ValueInfoProto for a contract shape, -1 dims becoming symbolic."""
    dims: list[int | str] = [d if d >= 0 else f"{name}_d{i}" for i, d in enumerate(shape)]
    return make_tensor_value_info(name, elem_type, dims)


def compute_model(model: onnx.ModelProto) -> onnx.ModelProto:
    """A standard-ONNX copy of a node program: Recv outputs -> inputs, Send inputs -> outputs."""
    import onnx

    out = onnx.ModelProto()
    out.CopyFrom(model)
    g = out.graph
    ports = wire_ports(model)
    keep = [n for n in g.node if n.domain != WIRE_DOMAIN]
    del g.node[:]
    g.node.extend(keep)
    existing_inputs = {i.name for i in g.input}
    existing_outputs = {o.name for o in g.output}
    for p in ports:
        if p.op == "Recv" and p.tensor not in existing_inputs:
            g.input.append(value_info(p.tensor, p.compute_elem_type, p.shape))
            existing_inputs.add(p.tensor)
        elif p.op == "Send" and p.tensor not in existing_outputs:
            if p.tensor in existing_inputs:
                continue  # a pass-through input: the host already holds it
            g.output.append(value_info(p.tensor, p.compute_elem_type, p.shape))
            existing_outputs.add(p.tensor)
    vi = [v for v in g.value_info if v.name not in existing_inputs | existing_outputs]
    del g.value_info[:]
    g.value_info.extend(vi)
    imports = [o for o in out.opset_import if o.domain != WIRE_DOMAIN]
    del out.opset_import[:]
    out.opset_import.extend(imports)
    return out
