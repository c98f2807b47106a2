"""Load and normalise an input model: check, fold constants, infer shapes.

Every later pass assumes what this module guarantees: the graph passes
onnx.checker, every node has a unique name, initializers are not listed as
graph inputs, constant-only subgraphs are folded into initializers, and every
tensor has an inferred type.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper, shape_inference
from onnx.reference import ReferenceEvaluator

from bb_edge.compiler.freeze import InputValues, freeze_inputs
from bb_edge.deployment.ports import node_reads
from bb_edge.errors import InputShapeError, ModelError, UnsupportedOpError
from bb_edge.ir.rewrite import inline_static_ifs

#: Ops bb-edge never places on a node (they map over sequences, which no edge
#: contract can describe); everything else with a standard schema is accepted.
UNSUPPORTED_OPS = frozenset({"SequenceMap"})

#: Control-flow ops: each is placed whole on one node; the tensors its
#: subgraphs read from the enclosing graph reach that node like inputs
#: (see :func:`bb_edge.deployment.ports.node_reads`).
CONTROL_FLOW_OPS = frozenset({"If", "Loop", "Scan"})

#: ``{graph input name: pinned shape}`` as given by ``compile --input-shape``.
InputShapes = dict[str, list[int]]

MIN_IR_VERSION = 7


def load_model(source: str | Path | onnx.ModelProto, input_shapes: InputShapes | None = None,
               input_values: InputValues | None = None) -> onnx.ModelProto:
    """Read a model from a path (or copy a proto) and normalise it; raise typed errors.

    ``input_shapes`` pins graph-input dims (``--input-shape``) before shape
    inference, so that costs and edge contracts use real sizes; ``input_values``
    freezes graph inputs as constants (``--input-value``), so what they decide folds.
    """
    if isinstance(source, onnx.ModelProto):
        model = onnx.ModelProto()
        model.CopyFrom(source)
    else:
        path = Path(source)
        if not path.is_file():
            raise ModelError(f"{path}: no such model file")
        try:
            model = onnx.load(str(path))
        except Exception as exc:  # protobuf raises DecodeError and friends
            raise ModelError(f"{path} is not a readable ONNX model: {exc}") from exc
    return normalise(model, input_shapes, input_values)


def parse_input_shape(spec: str) -> tuple[str, list[int]]:
    """``NAME=1,3,640,640`` -> ``("NAME", [1, 3, 640, 640])``; ModelError saying the form otherwise."""
    name, sep, dims = spec.rpartition("=")
    try:
        shape = [int(d) for d in dims.split(",")] if dims.strip() else []
    except ValueError:
        shape = []
        sep = ""
    if not sep or not name or any(d < 1 for d in shape):
        raise InputShapeError(f"--input-shape {spec!r}: expected NAME=D1,D2,... with positive integer dims "
                         f"(e.g. x=1,3,640,640)")
    return name, shape


def pin_input_shapes(model: onnx.ModelProto, input_shapes: InputShapes) -> None:
    """Overwrite graph-input dims with ``input_shapes``; ModelError if a name, rank or fixed dim disagrees."""
    inputs = {i.name: i for i in model.graph.input}
    inits = {i.name for i in model.graph.initializer}
    problems: list[str] = []
    for name, shape in input_shapes.items():
        vi = inputs.get(name)
        if vi is None or name in inits:
            known = [n for n in inputs if n not in inits]
            problems.append(f"no graph input {name!r} (inputs: {', '.join(known)})")
            continue
        dims = vi.type.tensor_type.shape.dim
        if vi.type.tensor_type.HasField("shape") and len(dims) != len(shape):
            problems.append(f"{name} has rank {len(dims)}, --input-shape gives {len(shape)} dims")
            continue
        clashes = [f"{name} dim {i} is fixed at {d.dim_value}, --input-shape gives {shape[i]}"
                   for i, d in enumerate(dims) if d.dim_value > 0 and d.dim_value != shape[i]]
        if clashes:
            problems.extend(clashes)
            continue
        shape_proto = vi.type.tensor_type.shape
        del shape_proto.dim[:]
        for d_val in shape:
            shape_proto.dim.add().dim_value = d_val
    if problems:
        raise InputShapeError("--input-shape: " + "; ".join(problems))
    # inferred types from the export may carry the old symbolic dims: infer them afresh
    del model.graph.value_info[:]


def dynamic_inputs(model: onnx.ModelProto) -> dict[str, list[int]]:
    """Graph inputs with a symbolic dim (-1), whose costs are therefore estimates (a symbolic dim counts as 1)."""
    types = tensor_types(model)
    inits = {i.name for i in model.graph.initializer}
    return {i.name: list(types[i.name][1]) for i in model.graph.input
            if i.name not in inits and any(d < 0 for d in types[i.name][1])}


def check_ops(model: onnx.ModelProto) -> None:
    """Raise UnsupportedOpError for any op without a standard schema or on the deny list."""
    opsets = {o.domain or "": o.version for o in model.opset_import}
    for node in _all_nodes(model.graph):
        domain = node.domain or ""
        if domain.startswith("bb."):
            continue
        if domain not in ("", "ai.onnx"):
            raise UnsupportedOpError(
                f"node {node.name!r} uses {domain}::{node.op_type}; bb-edge runs only standard ONNX "
                f"ops. Export the model without custom/contrib ops (e.g. disable graph optimisations "
                f"that fuse into {domain} ops)."
            )
        version = opsets.get(domain, opsets.get("ai.onnx", 0))
        if not onnx.defs.has(node.op_type, domain) or (
            version and _schema_missing(node.op_type, version)
        ):
            raise UnsupportedOpError(
                f"node {node.name!r} uses unknown op {node.op_type!r} (opset {version}); check the "
                f"op name or convert the model to a standard opset with onnx.version_converter."
            )
        if node.op_type in UNSUPPORTED_OPS:
            raise UnsupportedOpError(
                f"node {node.name!r} is a {node.op_type}; sequence ops cannot be partitioned. "
                f"Rewrite it as a Loop or unroll it before compiling."
            )


def _all_nodes(graph: onnx.GraphProto) -> list[onnx.NodeProto]:
    """Every node of ``graph`` and, recursively, of its control-flow subgraphs."""
    out: list[onnx.NodeProto] = []
    for node in graph.node:
        out.append(node)
        for a in node.attribute:
            subs = [a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs)
            for sub in subs:
                out.extend(_all_nodes(sub))
    return out


def _schema_missing(op: str, version: int) -> bool:
    try:
        onnx.defs.get_schema(op, version, "")
    except onnx.defs.SchemaError:
        return True
    return False


def normalise(model: onnx.ModelProto, input_shapes: InputShapes | None = None,
              input_values: InputValues | None = None) -> onnx.ModelProto:
    """Apply the guarantees listed in the module docstring to ``model`` (in place)."""
    try:
        onnx.checker.check_model(model)
    except onnx.checker.ValidationError as exc:
        raise ModelError(f"the model fails onnx.checker: {exc}") from exc
    check_ops(model)
    g = model.graph
    if model.ir_version < MIN_IR_VERSION:
        model.ir_version = MIN_IR_VERSION
    init_names = {i.name for i in g.initializer}
    real_inputs = [i for i in g.input if i.name not in init_names]
    del g.input[:]
    g.input.extend(real_inputs)
    _name_nodes(g)
    if input_shapes:
        pin_input_shapes(model, input_shapes)
    if input_values:
        freeze_inputs(model, input_values)
    fold_constants(model)
    while inline_constant_ifs(model):
        fold_constants(model)
    if is_qdq(model):
        sink_constant_dequantize(model)
    model.CopyFrom(_infer(model))
    for _ in range(MAX_SIMPLIFY_ROUNDS):  # each round can make more shapes static, or an If's condition
        if not fold_static_shapes(model) + inline_constant_ifs(model):
            break
        fold_constants(model)
        while inline_constant_ifs(model):  # an inlined branch's Constants fold before inference
            fold_constants(model)
        model.CopyFrom(_infer(model))
    if _type_loop_carries(model):
        model.CopyFrom(_infer(model))
    _check_types(model)
    return model


class ShapeInferenceWarning(UserWarning):
    """ONNX's strict shape inference refused the model; bb-edge went on with non-strict inference."""


def _infer(model: onnx.ModelProto) -> onnx.ModelProto:
    """ONNX shape inference, strict first; non-strict with a ShapeInferenceWarning where strict refuses.

    Exporters sometimes declare an output with the wrong rank (an RNN's state, say); ONNX Runtime runs
    such models and ``onnx.checker`` passes them, so the disagreement is reported and not fatal. Whether
    the model can still be placed is decided later (every crossing tensor needs a type).
    """
    try:
        return shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
    except Exception as strict_exc:  # noqa: BLE001 - onnx raises InferenceError and others here
        first = str(strict_exc).strip().splitlines()[0] if str(strict_exc).strip() else type(strict_exc).__name__
        redeclared = _infer_without_declared_shapes(model)
        if redeclared is not None:  # only the exporter's declarations were wrong: the ops' own types win
            inferred, changed = redeclared
            warnings.warn(ShapeInferenceWarning(
                f"the model declares shapes its ops do not produce ({first}); bb-edge uses the inferred ones"
                + (f" for {', '.join(changed)}" if changed else "")), stacklevel=3)
            return inferred
        try:
            inferred = shape_inference.infer_shapes(model, check_type=False, strict_mode=False, data_prop=True)
        except Exception as exc:  # noqa: BLE001
            raise ModelError(f"ONNX shape inference failed: {exc}; check the model's declared input and output "
                             f"types, or pin dynamic inputs with --input-shape") from exc
        warnings.warn(ShapeInferenceWarning(
            f"strict ONNX shape inference disagrees with the model ({first}); continuing with non-strict "
            f"inference, which keeps the model's declared types where they differ"), stacklevel=3)
        return inferred


def _infer_without_declared_shapes(model: onnx.ModelProto) -> tuple[onnx.ModelProto, list[str]] | None:
    """Strict inference with the declared intermediate and output shapes dropped; None if it still fails.

    Returns the inferred model and the graph outputs whose declared shape differs from the inferred one.
    """
    bare = onnx.ModelProto()
    bare.CopyFrom(model)
    del bare.graph.value_info[:]
    declared = {}
    for o in bare.graph.output:
        tt = o.type.tensor_type
        declared[o.name] = [d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim]
        if o.type.HasField("tensor_type"):
            tt.ClearField("shape")
    try:
        inferred = shape_inference.infer_shapes(bare, check_type=True, strict_mode=True, data_prop=True)
    except Exception:  # noqa: BLE001 - the caller falls back to non-strict inference
        return None
    changed = []
    for o in inferred.graph.output:
        tt = o.type.tensor_type
        got = [d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim]
        if not tt.HasField("shape"):  # inference could not tell: keep what the model declared
            orig = next(x for x in model.graph.output if x.name == o.name)
            o.CopyFrom(orig)
        elif got != declared[o.name]:
            changed.append(f"{o.name} (declared {declared[o.name]}, produces {got})")
    return inferred, changed


#: rounds of (static Shape -> constant, constant folding, shape inference) after loading
MAX_SIMPLIFY_ROUNDS = 8


def fold_static_shapes(model: onnx.ModelProto) -> int:
    """Replace Shape and Size ops whose input shape is fully known by initializers; the count replaced.

    After ``--input-shape`` pins the graph inputs (or for a static model), shape inference knows every
    dim, so the Shape -> Gather -> Concat plumbing exporters emit computes constants. Replacing each
    Shape by its value lets :func:`fold_constants` remove the rest: the values are the inferred dims
    themselves, so outputs stay bit-exact.
    """
    g = model.graph
    static: dict[str, list[int]] = {}
    for v in list(g.input) + list(g.value_info) + list(g.output):
        tt = v.type.tensor_type
        if v.type.HasField("tensor_type") and tt.HasField("shape") and all(
                d.HasField("dim_value") for d in tt.shape.dim):
            static[v.name] = [int(d.dim_value) for d in tt.shape.dim]
    for i in g.initializer:
        static[i.name] = [int(d) for d in i.dims]
    keep: list[onnx.NodeProto] = []
    replaced = 0
    for node in g.node:
        src = node.input[0] if node.input else ""
        if node.domain in ("", "ai.onnx") and node.op_type in ("Shape", "Size") and src in static:
            dims = static[src]
            if node.op_type == "Size":
                value = np.array(int(np.prod(dims, dtype=np.int64)), np.int64)
            else:
                a = {x.name: x.i for x in node.attribute}
                start, end = a.get("start", 0), a.get("end", len(dims))
                value = np.array(dims[start:end], np.int64)  # ONNX clamps start/end as Python slices do
            g.initializer.append(numpy_helper.from_array(value, node.output[0]))
            replaced += 1
        else:
            keep.append(node)
    if replaced:
        del g.node[:]
        g.node.extend(keep)
    return replaced


def inline_constant_ifs(model: onnx.ModelProto) -> int:
    """Replace, in place, every top-level If whose condition is a constant by its taken branch; the count.

    After pinning, a model's input checks (Silero VAD's batch-size Ifs) read folded values; inlined, their
    branches fold like the rest of the graph and placement never cuts after an If whose output rank
    ONNX inference cannot tell. Values are unchanged (see :func:`bb_edge.ir.rewrite.inline_static_ifs`).
    """
    before = sum(n.op_type == "If" for n in model.graph.node)
    inlined = inline_static_ifs(model)
    if inlined is model:
        return 0
    model.CopyFrom(inlined)
    _name_nodes(model.graph)
    return max(before - sum(n.op_type == "If" for n in model.graph.node), 1)


def _type_loop_carries(model: onnx.ModelProto) -> bool:
    """Type Loop-carried outputs that ONNX inference leaves without a rank; True if any was typed.

    ONNX does not assume a loop-carried value keeps its shape across
    iterations. When the body declares that value with one fully static
    shape on both its input and its output, every iteration keeps it, so the
    Loop's output has that shape too (and may then cross nodes).
    """
    g = model.graph
    typed = {v.name for v in list(g.value_info) + list(g.output) if v.type.tensor_type.HasField("shape")}
    changed = False
    for node in g.node:
        if node.op_type != "Loop":
            continue
        body = next((a.g for a in node.attribute if a.name == "body"), None)
        if body is None:
            continue
        for k, out in enumerate(list(node.output)[: max(len(node.input) - 2, 0)]):
            if not out or out in typed or 2 + k >= len(body.input) or 1 + k >= len(body.output):
                continue
            b_in, b_out = body.input[2 + k].type.tensor_type, body.output[1 + k].type.tensor_type
            dims_in = [d.dim_value if d.HasField("dim_value") else -1 for d in b_in.shape.dim]
            dims_out = [d.dim_value if d.HasField("dim_value") else -1 for d in b_out.shape.dim]
            if (b_out.HasField("shape") and b_in.HasField("shape") and dims_in == dims_out
                    and all(d >= 0 for d in dims_out) and b_out.elem_type == b_in.elem_type):
                vi = next((v for v in g.value_info if v.name == out), None) or g.value_info.add()
                vi.CopyFrom(helper.make_tensor_value_info(out, b_out.elem_type, dims_out))
                changed = True
    return changed


def _name_nodes(g: onnx.GraphProto) -> None:
    seen: set[str] = set()
    for i, node in enumerate(g.node):
        name = node.name or f"{node.op_type}_{i}"
        while name in seen:
            name = f"{name}_{i}"
        node.name = name
        seen.add(name)


QDQ_OPS = frozenset({"QuantizeLinear", "DequantizeLinear"})


def is_qdq(model: onnx.ModelProto) -> bool:
    """True for a pre-quantized model (QuantizeLinear/DequantizeLinear in its graph)."""
    return any(n.op_type in QDQ_OPS for n in model.graph.node)


def sink_constant_dequantize(model: onnx.ModelProto) -> int:
    """Move every DequantizeLinear of a constant right before its first reader (in place).

    Converters emit a QDQ model's weight DequantizeLinear ops all at the top of the graph; left there,
    placement would give them to the first node and ship float weights over the wire. Next to its
    reader, a weight's DequantizeLinear stays in the reader's node with its int8 initializer. Returns
    the number of ops moved.
    """
    g = model.graph
    inits = {i.name for i in g.initializer}
    sink = [n for n in g.node if n.op_type == "DequantizeLinear" and all(x in inits for x in n.input if x)]
    if not sink:
        return 0
    moved = {id(n) for n in sink}
    by_out = {n.output[0]: n for n in sink}
    order: list[onnx.NodeProto] = []
    placed: set[int] = set()
    for n in g.node:
        if id(n) in moved:
            continue
        for x in node_reads(n):
            d = by_out.get(x)
            if d is not None and id(d) not in placed:
                order.append(d)
                placed.add(id(d))
        order.append(n)
    order += [n for n in sink if id(n) not in placed]  # read by no op (a graph output): kept
    new = [onnx.NodeProto() for _ in order]
    for dst, src in zip(new, order, strict=True):
        dst.CopyFrom(src)
    del g.node[:]
    g.node.extend(new)
    return len(sink)


def fold_constants(model: onnx.ModelProto) -> int:
    """Evaluate ops whose inputs are all constants and store their outputs as initializers.

    Models often build weights with ConstantOfShape/Constant ops; folding them
    makes parameter bytes visible to placement and keeps every node program
    self-contained. Returns the number of ops folded.
    """
    g = model.graph
    consts: dict[str, np.ndarray] = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    graph_inputs = {i.name for i in g.input}
    folded: list[onnx.NodeProto] = []
    keep: list[onnx.NodeProto] = []
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 13)
    for node in g.node:
        ins = [x for x in node.input if x]
        # a QDQ pair stays as it is: a DequantizeLinear of an int8 weight is the weight (int8 on the device)
        if (node.domain in ("", "ai.onnx") and all(x in consts for x in ins) and node.op_type not in QDQ_OPS
                and not any(x in graph_inputs for x in ins) and node.op_type not in UNSUPPORTED_OPS
                and node.op_type not in CONTROL_FLOW_OPS
                and node.op_type not in ("RandomNormal", "RandomUniform", "RandomNormalLike",
                                         "RandomUniformLike", "Multinomial")):
            sub = helper.make_graph(
                [node], "fold",
                [helper.make_tensor_value_info(x, helper.np_dtype_to_tensor_dtype(consts[x].dtype),
                                               consts[x].shape) for x in dict.fromkeys(ins)],
                [helper.make_tensor_value_info(o, onnx.TensorProto.UNDEFINED, None)
                 for o in node.output if o],
            )
            m = helper.make_model(sub, opset_imports=[helper.make_opsetid("", opset)])
            try:
                outs = ReferenceEvaluator(m).run(None, {x: consts[x] for x in dict.fromkeys(ins)})
            except Exception:
                keep.append(node)
                continue
            for name, value in zip([o for o in node.output if o], outs):
                consts[name] = np.asarray(value)
            folded.append(node)
        else:
            keep.append(node)
    if not folded:
        return 0
    # subgraphs of kept control-flow ops may read folded values from the outer scope
    used = {x for n in keep for x in node_reads(n)} | {o.name for o in g.output}
    new_inits = [numpy_helper.from_array(consts[name], name) for name in consts if name in used]
    del g.node[:]
    g.node.extend(keep)
    del g.initializer[:]
    g.initializer.extend(new_inits)
    vi = [v for v in g.value_info if v.name not in consts]
    del g.value_info[:]
    g.value_info.extend(vi)
    return len(folded)


def _check_types(model: onnx.ModelProto) -> None:
    g = model.graph
    typed = {v.name for v in list(g.value_info) + list(g.input) + list(g.output)}
    typed |= {i.name for i in g.initializer}
    for node in g.node:
        for o in node.output:
            if o and o not in typed:
                raise ModelError(
                    f"shape inference gave no type for {o!r} (output of {node.name!r}); "
                    f"give the graph inputs concrete types or run onnx.shape_inference first"
                )


def unknown_rank(model: onnx.ModelProto) -> set[str]:
    """Tensors whose rank shape inference could not tell (e.g. an If whose branches differ in rank).

    :func:`tensor_types` reports them with shape ``()``; they can stay inside a
    node but cannot cross one, since an edge contract states the rank.
    """
    g = model.graph
    return {v.name for v in list(g.input) + list(g.value_info) + list(g.output)
            if v.type.HasField("tensor_type") and not v.type.tensor_type.HasField("shape")}


def tensor_types(model: onnx.ModelProto) -> dict[str, tuple[int, tuple[int, ...]]]:
    """Every tensor's (elem_type, shape) after normalisation; symbolic dims are -1."""
    g = model.graph
    out: dict[str, tuple[int, tuple[int, ...]]] = {}
    for v in list(g.input) + list(g.value_info) + list(g.output):
        tt = v.type.tensor_type
        dims = tuple(d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim)
        out[v.name] = (tt.elem_type, dims)
    for i in g.initializer:
        out[i.name] = (i.data_type, tuple(int(d) for d in i.dims))
    return out
