"""Partition a placed model into one program per node plus the deployment manifest."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import helper

from bb_edge.compiler.cost import op_costs, tensor_bytes
from bb_edge.compiler.load import tensor_types, unknown_rank
from bb_edge.compiler.placement import Placement, check_no_cross_node_cycle
from bb_edge.compiler.state import StatePair, homes
from bb_edge.deployment.manifest import Deployment, EdgeSpec, IOSpec, NodeSpec
from bb_edge.deployment.ports import WIRE_DOMAIN, WIRE_VERSION, node_reads, value_info
from bb_edge.errors import PlacementError


def _dtype_name(elem_type: int) -> str:
    try:
        return str(np.dtype(helper.tensor_dtype_to_np_dtype(elem_type)))
    except (KeyError, TypeError, ValueError):
        return f"elem_type_{elem_type}"


def partition(
    model: onnx.ModelProto,
    placement: Placement,
    name: str = "deployment",
    node_order: list[str] | None = None,
    allow_cycles: bool = True,
    state: list[StatePair] | None = None,
) -> tuple[Deployment, dict[str, onnx.ModelProto]]:
    """Split ``model`` by ``placement`` into per-node programs and a Deployment.

    Every tensor produced on one node and consumed on another becomes an edge
    with a Send on the producer and a Recv on the consumer, both stamped with
    the edge's (elem_type, shape) contract. With ``allow_cycles=False`` a
    placement whose data flows around a cycle of nodes is refused. ``state``
    pairs (bb_edge.compiler.state) stay on the node that computes them: their
    input and output are that node's program's graph input and output but no
    host input or output; deployment.json lists them under ``state``.
    """
    g = model.graph
    missing = [n.name for n in g.node if n.name not in placement]
    if missing:
        raise PlacementError(f"placement is missing {len(missing)} ops, e.g. {missing[:3]}")
    if not allow_cycles:
        check_no_cross_node_cycle(model, placement)
    types = tensor_types(model)
    inits = {i.name: i for i in g.initializer}
    seen_nodes = list(dict.fromkeys(placement[n.name] for n in g.node))
    nodes = list(node_order) if node_order else seen_nodes
    extra = [n for n in seen_nodes if n not in nodes]
    if extra:
        raise PlacementError(f"placement uses nodes {extra} that are not in the node list {nodes}")
    for n in nodes:
        if not n or n.startswith("_") or "/" in n or "+" in n or "#" in n:
            raise PlacementError(f"node name {n!r} is not allowed (no leading '_', '/', '+', '#')")

    # who produces each tensor, and which node owns each graph input
    producer: dict[str, str] = {}
    for node in g.node:
        for o in node.output:
            if o:
                producer[o] = placement[node.name]
    input_names = [i.name for i in g.input]
    for node in g.node:
        for x in node_reads(node):
            if x in input_names and x not in producer:
                producer[x] = placement[node.name]
    pairs = list(state or [])
    home = homes(model, placement, pairs)  # StateSplitError when a pair's ops sit on several nodes
    producer.update(home)
    state_outs = {p.output for p in pairs}
    for i in input_names:
        if i not in producer:
            producer[i] = nodes[0]  # unused input: owned by the first node
    for o in g.output:
        if o.name not in producer:
            raise PlacementError(
                f"graph output {o.name!r} is not produced by any op (constant outputs are unsupported)")

    # edges: (tensor, src, dst), in first-use order
    edge_keys: list[tuple[str, str, str]] = []
    for node in g.node:
        dst = placement[node.name]
        for x in node_reads(node):
            if not x or x in inits:
                continue
            src = producer.get(x)
            if src is None:
                raise PlacementError(f"tensor {x!r} used by {node.name!r} has no producer")
            if src != dst and (x, src, dst) not in edge_keys:
                edge_keys.append((x, src, dst))
    open_rank = unknown_rank(model)
    bad = [f"{t} ({s} -> {d})" for t, s, d in edge_keys if t in open_rank]
    if bad:
        raise PlacementError(
            f"tensors of unknown rank would cross nodes: {', '.join(bad[:3])}; an edge contract needs a rank. "
            f"Place their producer and consumers on one node, or pin input dims with --input-shape")
    ids = {n: i + 1 for i, n in enumerate(nodes)}
    edges = [
        EdgeSpec(id=i + 1, tensor=t, src=s, dst=d, elem_type=types[t][0], dtype=_dtype_name(types[t][0]),
                 shape=list(types[t][1]), bytes_per_inference=tensor_bytes(*types[t]))
        for i, (t, s, d) in enumerate(edge_keys)
    ]
    next_id = len(edges) + 1
    inputs: list[IOSpec] = []
    for vi in g.input:
        if vi.name in home:  # a state input is fed by the node itself, never by the host
            continue
        et, shp = types[vi.name]
        inputs.append(IOSpec(vi.name, et, _dtype_name(et), list(shp), producer[vi.name], next_id))
        next_id += 1
    outputs: list[IOSpec] = []
    for vo in g.output:
        if vo.name in state_outs:  # kept on its node for the next step, never sent to the host
            continue
        et, shp = types[vo.name]
        outputs.append(IOSpec(vo.name, et, _dtype_name(et), list(shp), producer[vo.name], next_id))
        next_id += 1

    costs = {c.name: c for c in op_costs(model)}
    programs: dict[str, onnx.ModelProto] = {}
    specs: list[NodeSpec] = []
    for n in nodes:
        owned = {i.name for i in inputs if i.node == n} | {i for i, h in home.items() if h == n}
        kept = [p.output for p in pairs if home[p.input] == n]
        prog = _program(model, placement, n, edges, types, name, owned, kept)
        programs[n] = prog
        my_ops = [op for op in g.node if placement[op.name] == n]
        used_inits = {x for op in my_ops for x in node_reads(op) if x in inits}
        specs.append(NodeSpec(
            name=n, id=ids[n], program=f"{n}.onnx", ops=len(my_ops),
            param_bytes=sum(tensor_bytes(*types[x]) for x in used_inits),
            flops=float(sum(costs[op.name].flops for op in my_ops)),
            peak_activation_bytes=_peak_activation(my_ops, types, set(inits)),
            inputs=[i.name for i in inputs if i.node == n],
            outputs=[o.name for o in outputs if o.node == n],
        ))
    dep = Deployment(name=name, nodes=specs, edges=edges, inputs=inputs, outputs=outputs,
                     bindings={n: {} for n in nodes})
    if pairs:
        dep.extra["state"] = {n: [{"output": p.output, "input": p.input} for p in pairs if home[p.input] == n]
                              for n in nodes if n in home.values()}
    return dep, programs


def _program(
    model: onnx.ModelProto, placement: Placement, node: str, edges: list[EdgeSpec],
    types: dict[str, tuple[int, tuple[int, ...]]], dep_name: str, owned_inputs: set[str],
    state_outputs: list[str] | None = None,
) -> onnx.ModelProto:
    g = model.graph
    my_ops = [op for op in g.node if placement[op.name] == node]
    used = {x for op in my_ops for x in node_reads(op) if x}
    produced = {o for op in my_ops for o in op.output if o}
    recvs = [e for e in edges if e.dst == node]
    sends = [e for e in edges if e.src == node]
    wire_nodes_in = [_wire_op("Recv", [], [e.tensor], e, e.src) for e in recvs]
    wire_nodes_out = [_wire_op("Send", [e.tensor], [], e, e.dst) for e in sends]
    recv_names = {e.tensor for e in recvs}
    # every graph input this node owns stays part of its interface, even if unused here
    graph_inputs = [vi for vi in g.input if vi.name in owned_inputs and vi.name not in recv_names]
    graph_outputs = [vo for vo in g.output if vo.name in produced]
    declared = {vo.name for vo in graph_outputs}
    # a state output the source model computes but does not output: this program outputs it for the engine
    graph_outputs += [value_info(t, *types[t]) for t in state_outputs or [] if t not in declared and t in types]
    # a pre-quantized model's parameters of tensors this program holds (a .tflite's int8 input read by no
    # QuantizeLinear: bb_edge.bbrt.lower_qdq.is_qdq), with the scale/zero-point initializers they name
    held = {vi.name for vi in graph_inputs} | produced | recv_names
    annotations = [a for a in g.quantization_annotation if a.tensor_name in held]
    used |= {e.value for a in annotations for e in a.quant_parameter_tensor_names}
    inits = [i for i in g.initializer if i.name in used]
    # tensors made here keep the source model's inferred type (which may leave the rank open); Recv
    # outputs take the edge contract
    source_vi = {v.name: v for v in g.value_info}
    vinfo = [source_vi[t] if t in source_vi and t not in recv_names else value_info(t, *types[t])
             for t in sorted((produced | recv_names) - {o.name for o in graph_outputs}) if t in types]
    graph = helper.make_graph(
        wire_nodes_in + [_copy(op) for op in my_ops] + wire_nodes_out,
        f"{dep_name}.{node}", list(graph_inputs), list(graph_outputs), initializer=inits, value_info=vinfo,
    )
    graph.quantization_annotation.extend(annotations)
    imports = [o for o in model.opset_import if o.domain != WIRE_DOMAIN]
    prog = helper.make_model(graph, opset_imports=[*imports, helper.make_opsetid(WIRE_DOMAIN, WIRE_VERSION)],
                             ir_version=model.ir_version, producer_name="bb-edge")
    for k, v in (("bb.node", node), ("bb.deployment", dep_name)):
        p = prog.metadata_props.add()
        p.key, p.value = k, v
    onnx.checker.check_model(prog)
    return prog


def _wire_op(op: str, inputs: list[str], outputs: list[str], e: EdgeSpec, peer: str) -> onnx.NodeProto:
    """A bb.wire Send/Recv stamped with the edge contract (``shape`` typed explicitly: scalars have none)."""
    node = helper.make_node(op, inputs, outputs, name=f"{op.lower()}_{e.id}", domain=WIRE_DOMAIN,
                            edge_id=e.id, peer=peer, elem_type=e.elem_type)
    node.attribute.append(helper.make_attribute("shape", list(e.shape), attr_type=onnx.AttributeProto.INTS))
    return node


def _copy(op: onnx.NodeProto) -> onnx.NodeProto:
    c = onnx.NodeProto()
    c.CopyFrom(op)
    return c


def _peak_activation(ops: list[onnx.NodeProto], types: dict[str, tuple[int, tuple[int, ...]]],
                     inits: set[str]) -> int:
    """Largest total of activation bytes alive at once when running ``ops`` in order."""
    last: dict[str, int] = {}
    for i, op in enumerate(ops):
        for x in node_reads(op):
            if x and x not in inits:
                last[x] = i
    alive: dict[str, int] = {}
    peak = 0
    for i, op in enumerate(ops):
        for x in node_reads(op):
            if x and x not in inits and x not in alive and x in types:
                alive[x] = tensor_bytes(*types[x])
        for o in op.output:
            if o in types:
                alive[o] = tensor_bytes(*types[o])
        peak = max(peak, sum(alive.values()))
        for x in list(alive):
            if last.get(x, -1) <= i:
                del alive[x]
    return peak
