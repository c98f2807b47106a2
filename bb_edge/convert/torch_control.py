"""ONNX control flow (If, Loop, Scan) for the ONNX->torch converter, as submodules of the interpreter.

- **If** whose condition is only known at run time: ``torch.cond`` (a higher-order op that
  ``torch.export`` keeps and the ExecuTorch 1.5 runtime executes), so only the taken branch runs.
  Each branch becomes its own interpreter module over a model whose inputs are the values it reads
  from the enclosing scope, so conversion-time folding (static Shape, nested constant Ifs) happens
  inside branches too. Both branches must give outputs of the same dtypes and static shapes (a
  static ExecuTorch program has one output shape); otherwise :class:`UnsupportedOpError` names the If
  (pin the input that decides it, e.g. ``--input-shape``, and the If folds away).
- **Loop** with a trip count known at conversion time: unrolled. A condition computed at run time
  is kept exact by masking (iterations after the condition turns false leave the carried values
  unchanged); with scan outputs their length would depend on data, so that is refused.
- **Scan**: unrolled over the static length of the scan axis (the opset-8 form per batch element).

A Loop without a constant trip count, an opset-8 Scan with ``sequence_lens`` and sequence-typed values are refused
with :class:`UnsupportedOpError` naming the node.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import torch
from onnx import helper, numpy_helper
from torch._higher_order_ops.cond import cond_op

from bb_edge.errors import UnsupportedOpError

Tensor = torch.Tensor
#: builds an interpreter module over a model (``bb_edge.convert.onnx_torch.OnnxModule``)
MakeModule = Callable[[onnx.ModelProto], Any]
#: the most iterations a Loop is unrolled to (each copy is exported)
MAX_UNROLL = 1024
#: the most iterations given a body each (when the body reads the iteration number as a constant)
MAX_SPECIALISED = 64
CONTROL_OPS = frozenset({"If", "Loop", "Scan"})


def subgraphs(node: onnx.NodeProto) -> list[onnx.GraphProto]:
    """The graph attributes of a node (If branches, Loop/Scan bodies)."""
    return [a.g for a in node.attribute if a.type == onnx.AttributeProto.GRAPH]


def _graph(node: onnx.NodeProto, name: str) -> onnx.GraphProto:
    return next(a.g for a in node.attribute if a.name == name)


def free_names(g: onnx.GraphProto) -> list[str]:
    """Names a graph (or any graph nested in it) reads from an enclosing scope, in first-use order."""
    defined = {i.name for i in g.input} | {t.name for t in g.initializer}
    out: list[str] = []
    for n in g.node:
        reads = list(n.input) + [x for sg in subgraphs(n) for x in free_names(sg)]
        for x in reads:
            if x and x not in defined and x not in out:
                out.append(x)
        defined |= {o for o in n.output if o}
    return out


def nested_unsupported(outer: onnx.ModelProto, node: onnx.NodeProto, consts: dict[str, np.ndarray],
                       types: dict[str, onnx.TypeProto],
                       check: Callable[[onnx.ModelProto], list[tuple[str, str]]]) -> list[tuple[str, str]]:
    """(op, node name) of what the converter lacks inside a control node's subgraphs, each checked as a
    standalone model by ``check`` (so shape plumbing that folds there is not counted)."""
    try:
        models = subgraph_models(outer, node, consts, types)
    except UnsupportedOpError as exc:
        return [(f"{node.op_type} ({str(exc).split(': ', 1)[-1][:60]})", node.name)]
    names = ["then_branch", "else_branch"] if node.op_type == "If" else ["body"]
    out: list[tuple[str, str]] = []
    for part, (m, _) in zip(names, models, strict=True):
        bad = check(m)
        if bad and node.op_type == "Loop" and int(np.asarray(consts[node.input[0]]).reshape(-1)[0]) <= MAX_SPECIALISED:
            bad = check(_fix_input(m, 0, np.zeros(_static_shape(m.graph.input[0].type) or [], np.int64)))
        if bad:  # one entry naming the control node, its subgraph and what it lacks there
            ops = ", ".join(sorted({o.split(" (")[0] for o, _ in bad}))
            why = f"{part} lacks {ops} at these input shapes, first at {bad[0][1]!r}"
            out.append((f"{node.op_type} ({why})", node.name))
    return out


def loop_reads_condition(node: onnx.NodeProto) -> bool:
    """A Loop whose input condition decides its output shapes (scan outputs or carried sequences, and a condition
    input)."""
    body = _graph(node, "body")
    seq_state = any(not b.type.HasField("tensor_type") for b in body.input[2:])  # a sequence's length too
    return len(node.input) > 1 and bool(node.input[1]) and (
        len(body.output) - 1 - len(node.input[2:]) > 0 or seq_state)


def structural_refusal(node: onnx.NodeProto, consts: set[str], opset: int) -> str | None:
    """Why a control node cannot become a static program (None when it can)."""
    if node.op_type == "Loop" and (not node.input or not node.input[0] or node.input[0] not in consts):
        return "Loop (trip count not known at conversion time)"
    if node.op_type == "Loop" and loop_reads_condition(node) and node.input[1] not in consts:
        return "Loop (condition known only at run time, with scan outputs: their length would depend on data)"
    if node.op_type == "Scan" and opset < 9 and node.input and node.input[0]:
        return "Scan (opset-8 sequence_lens: per-batch lengths)"
    return None


def value_types(model: onnx.ModelProto) -> dict[str, onnx.TypeProto]:
    """Every value's inferred type (graph inputs, intermediates, outputs, initializers)."""
    try:
        inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
    except Exception:  # noqa: BLE001 - declared types are the fallback
        inferred = model
    g = inferred.graph
    out = {vi.name: vi.type for vi in list(g.input) + list(g.value_info) + list(g.output)}
    for t in g.initializer:
        out[t.name] = helper.make_tensor_type_proto(t.data_type, list(t.dims))
    return out


def _static_shape(t: onnx.TypeProto | None) -> list[int] | None:
    if t is None or not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    d = t.tensor_type.shape.dim
    return [x.dim_value for x in d] if all(x.HasField("dim_value") for x in d) else None


def _vi(name: str, t: onnx.TypeProto | None, fallback: onnx.TypeProto | None, node: onnx.NodeProto
        ) -> onnx.ValueInfoProto:
    """A value info for a subgraph input: the best-known tensor type (inferred over declared)."""
    best = t if _static_shape(t) is not None else fallback if _static_shape(fallback) is not None else t or fallback
    if best is not None and best.HasField("sequence_type"):  # carried as a list of tensors (static length)
        return helper.make_value_info(name, best)
    if best is None or not best.HasField("tensor_type") or not best.tensor_type.elem_type:
        kind = best.WhichOneof("value") if best is not None else "untyped"
        raise UnsupportedOpError(f"{node.op_type} node {node.name!r}: value {name!r} is {kind}, not a typed tensor; "
                                 "the ExecuTorch converter takes tensor control flow only")
    vi = onnx.ValueInfoProto()
    vi.name = name
    vi.type.CopyFrom(best)
    return vi


def sub_model(outer: onnx.ModelProto, g: onnx.GraphProto, inputs: list[onnx.ValueInfoProto],
              consts: dict[str, np.ndarray], types: dict[str, onnx.TypeProto], node: onnx.NodeProto
              ) -> tuple[onnx.ModelProto, list[str]]:
    """A standalone model of subgraph ``g``: inputs ``inputs`` then the enclosing-scope values it reads
    (constants become its initializers). Returns the model and the enclosing-scope operand names."""
    own = {i.name for i in inputs}
    operands = [x for x in free_names(g) if x not in own and x not in consts]
    inits = list(g.initializer) + [numpy_helper.from_array(np.asarray(consts[x]), x)
                                   for x in free_names(g) if x not in own and x in consts]
    # outputs keep their element type only: shapes declared inside a subgraph can be stale after pinning
    outs = [helper.make_tensor_value_info(o.name, o.type.tensor_type.elem_type, None) if o.type.HasField("tensor_type")
            else o for o in g.output]
    graph = helper.make_graph(list(g.node), f"{node.name or node.op_type}/{g.name}",
                              list(inputs) + [_vi(x, types.get(x), None, node) for x in operands], outs, inits)
    m = helper.make_model(graph, opset_imports=list(outer.opset_import), ir_version=outer.ir_version)
    m.metadata_props.extend(outer.metadata_props)  # pinned sequence operands stay pinned (torch_seq)
    return m, operands


def subgraph_models(outer: onnx.ModelProto, node: onnx.NodeProto, consts: dict[str, np.ndarray],
                    types: dict[str, onnx.TypeProto]) -> list[tuple[onnx.ModelProto, list[str]]]:
    """Each subgraph of a control node as a standalone model (see :func:`sub_model`) with its operands."""
    if node.op_type == "If":
        return [sub_model(outer, _graph(node, b), [], consts, types, node) for b in ("then_branch", "else_branch")]
    body = _graph(node, "body")
    if node.op_type == "Loop":
        ins = [_vi(body.input[0].name, None, body.input[0].type, node),
               _vi(body.input[1].name, None, body.input[1].type, node)]
        ins += [_vi(b.name, types.get(x), b.type, node) for b, x in zip(body.input[2:], node.input[2:], strict=True)]
        return [sub_model(outer, body, ins, consts, types, node)]
    a = {x.name: helper.get_attribute_value(x) for x in node.attribute if x.type != onnx.AttributeProto.GRAPH}
    if _opset(outer) < 9:  # the body sees one batch element: its declared types
        return [sub_model(outer, body, [_vi(b.name, None, b.type, node) for b in body.input], consts, types, node)]
    k = int(a["num_scan_inputs"])
    n_state = len(node.input) - k
    in_axes = [int(v) for v in a.get("scan_input_axes", [0] * k)]
    ins = [_vi(b.name, types.get(x), b.type, node)
           for b, x in zip(body.input[:n_state], node.input[:n_state], strict=True)]
    for j, (b, x) in enumerate(zip(body.input[n_state:], node.input[n_state:], strict=True)):
        shp = _static_shape(types.get(x))
        t = types.get(x)
        if shp is not None and t is not None:
            ax = in_axes[j] % len(shp)
            t = helper.make_tensor_type_proto(t.tensor_type.elem_type, shp[:ax] + shp[ax + 1:])
        ins.append(_vi(b.name, t, b.type, node))
    return [sub_model(outer, body, ins, consts, types, node)]


def _opset(m: onnx.ModelProto) -> int:
    return next((o.version for o in m.opset_import if o.domain in ("", "ai.onnx")), 13)


def _fix_input(m: onnx.ModelProto, i: int, value: np.ndarray) -> onnx.ModelProto:
    """``m`` with its ``i``-th input turned into an initializer holding ``value``."""
    out = onnx.ModelProto()
    out.CopyFrom(m)
    vi = out.graph.input[i]
    out.graph.initializer.append(numpy_helper.from_array(value.astype(
        helper.tensor_dtype_to_np_dtype(vi.type.tensor_type.elem_type)), vi.name))
    del out.graph.input[i]
    return out


def _fresh(outs: tuple[Tensor, ...], ins: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
    """torch.cond branches may not return their inputs: copy those."""
    return tuple(o.clone() if any(o is i for i in ins) else o for o in outs)


class IfModule(torch.nn.Module):
    """An ONNX If with a run-time condition: ``torch.cond`` over the two branch interpreters."""

    def __init__(self, outer: onnx.ModelProto, node: onnx.NodeProto, consts: dict[str, np.ndarray],
                 types: dict[str, onnx.TypeProto], make: MakeModule) -> None:
        super().__init__()
        self.node_name = node.name
        mods, names = [], []
        for m, ops in subgraph_models(outer, node, consts, types):
            out_t = value_types(m)
            names.append(ops)
            mods.append((make(m), [(out_t.get(o.name) or o.type) for o in m.graph.output]))
        (then_mod, then_t), (else_mod, else_t) = mods
        for k, (a, b) in enumerate(zip(then_t, else_t, strict=True)):
            sa, sb = _static_shape(a), _static_shape(b)
            if a.tensor_type.elem_type != b.tensor_type.elem_type or (sa is not None and sb is not None and sa != sb):
                raise UnsupportedOpError(
                    f"If node {node.name!r}: its branches give output {k} as {sa} and {sb} (types "
                    f"{a.tensor_type.elem_type}, {b.tensor_type.elem_type}); a static ExecuTorch program has one "
                    "output shape: pin the input that decides the condition (--input-shape) or run this node "
                    "with --backend ort")
        self.then_mod, self.else_mod = then_mod, else_mod
        self.operands = list(dict.fromkeys(names[0] + names[1]))
        self._then_idx = [self.operands.index(x) for x in names[0]]
        self._else_idx = [self.operands.index(x) for x in names[1]]

    def run(self, cond: Tensor, env: dict[str, Any]) -> list[Any]:
        """The outputs of the branch ``cond`` selects (a sequence as a list); operands come from ``env``."""
        # every tensor a branch reads is an operand (its weights too): the higher-order op is called directly,
        # so nothing lifts captured tensors for it
        then_p = dict(self.then_mod.named_parameters())
        else_p = dict(self.else_mod.named_parameters())
        n, nt = len(self.operands), len(then_p)
        ops = tuple(env[x] for x in self.operands) + tuple(then_p.values()) + tuple(else_p.values())

        if any(isinstance(v, list) for v in ops):
            raise UnsupportedOpError(f"If node {self.node_name!r}: a branch reads a sequence; run this node with "
                                     "--backend ort")
        # a branch's sequence outputs cross torch.cond as their elements: each branch records its structure
        shapes: dict[str, list[int | None]] = {}

        def flat(tag: str, out: tuple[Any, ...]) -> tuple[Tensor, ...]:
            shapes[tag] = [len(v) if isinstance(v, list) else None for v in out]
            return tuple(t for v in out for t in (v if isinstance(v, list) else [v]))

        def then_fn(*xs: Tensor) -> tuple[Tensor, ...]:
            w = dict(zip(then_p, xs[n:n + nt]))
            out = torch.func.functional_call(self.then_mod, w, tuple(xs[i] for i in self._then_idx))
            return _fresh(flat("then", tuple(out)), xs)

        def else_fn(*xs: Tensor) -> tuple[Tensor, ...]:
            w = dict(zip(else_p, xs[n + nt:]))
            out = torch.func.functional_call(self.else_mod, w, tuple(xs[i] for i in self._else_idx))
            return _fresh(flat("else", tuple(out)), xs)
        c = torch.as_tensor(cond).reshape(()).to(torch.bool)
        # the higher-order op itself, not torch.cond's wrapper: the wrapper traces branches with dynamo, which
        # cannot read the numpy constants the interpreter passes (shapes, axes); torch.export traces it all the same
        got = iter(cond_op(c, then_fn, else_fn, ops))
        struct = list(shapes.values())
        if any(s != struct[0] for s in struct):
            raise UnsupportedOpError(f"If node {self.node_name!r}: its branches give sequences of different "
                                     f"lengths {struct}; run this node with --backend ort")
        return [[next(got) for _ in range(k)] if k is not None else next(got) for k in struct[0]]


class LoopModule(torch.nn.Module):
    """An ONNX Loop with a constant trip count, unrolled (run-time conditions by masking)."""

    def __init__(self, outer: onnx.ModelProto, node: onnx.NodeProto, consts: dict[str, np.ndarray],
                 types: dict[str, onnx.TypeProto], make: MakeModule) -> None:
        super().__init__()
        self.node_name = node.name
        self.trips = int(np.asarray(consts[node.input[0]]).reshape(-1)[0])
        if self.trips > MAX_UNROLL:
            raise UnsupportedOpError(f"Loop node {node.name!r}: {self.trips} iterations is more than the converter "
                                     f"unrolls ({MAX_UNROLL}); run this node with --backend ort")
        body = _graph(node, "body")
        carried = list(node.input[2:])
        self.n_carried = len(carried)
        self.n_scan = len(body.output) - 1 - self.n_carried
        cond_in = node.input[1] if len(node.input) > 1 else ""
        self.cond_const: bool | None = (bool(np.asarray(consts[cond_in]).reshape(-1)[0]) if cond_in in consts
                                        else None if cond_in else True)
        (m, self.operands), = subgraph_models(outer, node, consts, types)
        try:
            self.body = make(m)
            self.bodies = torch.nn.ModuleList()
        except UnsupportedOpError:  # the body reads the iteration number as a constant (a Slice start): one
            if self.trips > MAX_SPECIALISED:  # body per iteration, each with its number folded in
                raise
            self.bodies = torch.nn.ModuleList(make(_fix_input(m, 0, np.array(k, np.int64).reshape(
                _static_shape(m.graph.input[0].type) or []))) for k in range(self.trips))
        self._iter_shape = _static_shape(m.graph.input[0].type) or []
        self._cond_shape = _static_shape(m.graph.input[1].type) or []
        out0 = body.output[0].name
        ids = {n.output[0]: n.input[0] for n in body.node if n.op_type == "Identity"}
        while out0 in ids:  # the condition passed through unchanged
            out0 = ids[out0]
        body_consts = getattr(self.bodies[0] if len(self.bodies) else self.body, "_consts", {})
        self.body_cond_const: bool | None = (bool(np.asarray(body_consts[out0]).reshape(-1)[0]) if out0 in body_consts
                                             else True if out0 == body.input[1].name else None)
        if self.n_scan and (self.cond_const is None or self.body_cond_const is None):
            raise UnsupportedOpError(f"Loop node {node.name!r}: a condition computed at run time with scan outputs "
                                     "gives outputs of data-dependent length; run this node with --backend ort")

    def run(self, args: list[Any], env: dict[str, Any]) -> list[Tensor]:
        """Unrolled iterations; the final carried values then the stacked scan outputs."""
        ops = [env[x] for x in self.operands]
        vals = list(args[2:])
        alive = (torch.ones(self._cond_shape, dtype=torch.bool) if self.cond_const is not False
                 else torch.zeros(self._cond_shape, dtype=torch.bool))
        if self.cond_const is None:
            alive = torch.as_tensor(args[1]).to(torch.bool).reshape(self._cond_shape)
        scans: list[list[Tensor]] = [[] for _ in range(self.n_scan)]
        trips = self.trips if self.cond_const is not False else 0
        exact = self.cond_const is not None and self.body_cond_const is True  # every iteration runs
        for k in range(trips):
            outs = (self.bodies[k](alive, *vals, *ops) if len(self.bodies) else
                    self.body(torch.full(self._iter_shape, k, dtype=torch.int64), alive, *vals, *ops))
            new = list(outs[1:1 + self.n_carried])
            if exact:
                vals = new
            else:
                vals = [torch.where(alive.reshape(()), n, v) for n, v in zip(new, vals, strict=True)]
                alive = torch.logical_and(alive, torch.as_tensor(outs[0]).to(torch.bool).reshape(self._cond_shape))
            for j, s in enumerate(outs[1 + self.n_carried:]):
                scans[j].append(s)
        if self.n_scan and not trips:
            raise UnsupportedOpError(f"Loop node {self.node_name!r}: zero iterations leave its scan outputs "
                                     "without a shape; run this node with --backend ort")
        return vals + [torch.stack(s, 0) for s in scans]


class ScanModule(torch.nn.Module):
    """An ONNX Scan, unrolled over the static scan length (opset 8: per batch element)."""

    def __init__(self, outer: onnx.ModelProto, node: onnx.NodeProto, consts: dict[str, np.ndarray],
                 types: dict[str, onnx.TypeProto], make: MakeModule) -> None:
        super().__init__()
        self.node_name = node.name
        a = {x.name: helper.get_attribute_value(x) for x in node.attribute if x.type != onnx.AttributeProto.GRAPH}
        body = _graph(node, "body")
        #: opset 8: a leading sequence_lens input, batch axis 0 on every input and output, scan axis 1
        self.batched = _opset(outer) < 9
        self.k = int(a["num_scan_inputs"])
        self.n_state = len(node.input) - self.k - (1 if self.batched else 0)
        self.n_scan_out = len(body.output) - self.n_state
        self.in_axes = [int(v) for v in a.get("scan_input_axes", [0] * self.k)]
        self.in_dirs = [int(v) for v in a.get("directions" if self.batched else "scan_input_directions",
                                              [0] * self.k)]
        self.out_axes = [int(v) for v in a.get("scan_output_axes", [0] * self.n_scan_out)]
        self.out_dirs = [int(v) for v in a.get("scan_output_directions", [0] * self.n_scan_out)]
        (m, self.operands), = subgraph_models(outer, node, consts, types)
        self.body = make(m)

    def run(self, args: list[Any], env: dict[str, Any]) -> list[Tensor]:
        """Unrolled steps; the final states then the scan outputs."""
        ops = [env[x] for x in self.operands]
        if not self.batched:
            return self._scan(list(args[:self.n_state]), list(args[self.n_state:]), ops)
        per = [self._scan([s[b] for s in args[1:1 + self.n_state]], [x[b] for x in args[1 + self.n_state:]], ops)
               for b in range(int(args[1].shape[0]))]  # the opset-8 batch: one scan per element
        return [torch.stack([p[j] for p in per], 0) for j in range(len(per[0]))]

    def _scan(self, states: list[Tensor], xs: list[Tensor], ops: list[Tensor]) -> list[Tensor]:
        axes = [ax % x.dim() for ax, x in zip(self.in_axes, xs, strict=True)]
        lengths = {int(x.shape[ax]) for x, ax in zip(xs, axes, strict=True)}
        if len(lengths) != 1:
            raise UnsupportedOpError(f"Scan node {self.node_name!r}: scan inputs of lengths {sorted(lengths)}")
        n = lengths.pop()
        scans: list[list[Tensor]] = [[] for _ in range(self.n_scan_out)]
        for t in range(n):
            sl = [x.select(ax, n - 1 - t if d else t) for x, ax, d in zip(xs, axes, self.in_dirs, strict=True)]
            outs = self.body(*states, *sl, *ops)
            states = list(outs[:self.n_state])
            for j, s in enumerate(outs[self.n_state:]):
                scans[j].append(s)
        res = []
        for j, s in enumerate(scans):
            if not s:
                raise UnsupportedOpError(f"Scan node {self.node_name!r}: a zero-length scan has no output shape")
            seq = s[::-1] if self.out_dirs[j] else s
            res.append(torch.stack(seq, self.out_axes[j] % (s[0].dim() + 1)))
        return states + res


def control_module(outer: onnx.ModelProto, node: onnx.NodeProto, consts: dict[str, np.ndarray],
                   types: dict[str, onnx.TypeProto], make: MakeModule) -> IfModule | LoopModule | ScanModule:
    """The submodule running one If/Loop/Scan node (``make`` builds the subgraph interpreters)."""
    if node.op_type == "If":
        return IfModule(outer, node, consts, types, make)
    if node.op_type == "Loop":
        return LoopModule(outer, node, consts, types, make)
    return ScanModule(outer, node, consts, types, make)
