"""Step building: loss and optimizer emission and :func:`build_training_step`, plus forward helpers.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from bb_edge.errors import ModelError, UnsupportedOpError
from bb_edge.training.optim import SGD, Adam, OptimizerSpec, Yogi, state_slots, uses_step
from bb_edge.training.program import (
    OPSET,
    LossSpec,
    Shape,
    SoftmaxCrossEntropy,
    TensorSpec,
    TrainingProgram,
)
from bb_edge.training.vjp import (
    _HANDLERS,
    _NP_OF,
    SUPPORTED_OPS,
    _Builder,
    _diff_inputs,
    _dims,
    _prepare,
)


def _emit_loss(
    b: _Builder, loss: LossSpec, out: str, labels: str
) -> tuple[str, str]:
    """Emit the loss value and the gradient of the loss w.r.t. ``out``."""
    so = b.shape(out)
    if isinstance(loss, SoftmaxCrossEntropy):
        if len(so) != 2 or so[1] is None:
            raise ModelError(f"softmax cross-entropy needs logits (N, K) with static K; {out!r} is {so}")
        logp = b.op("LogSoftmax", [out], axis=1)
        if loss.labels == "index":
            depth = b.const(np.asarray(int(so[1]), np.int64), "depth")
            t = b.op("OneHot", [labels, depth, b.const(np.asarray([0, 1], b.np_dtype))], axis=-1)
            rowsum = None
        else:
            t = labels
            rowsum = b.op("ReduceSum", [t, b.ints([1])], keepdims=1)
        nll = b.op("Neg", [b.op("ReduceSum", [b.op("Mul", [t, logp]), b.ints([1])], keepdims=0)])
        value = b.op("ReduceMean", [nll], keepdims=0)
        n = b.op("Cast", [b.op("Shape", [out], start=0, end=1)], to=b.elem)
        p = b.op("Exp", [logp])
        if rowsum is not None:
            p = b.op("Mul", [p, rowsum])
        grad = b.op("Div", [b.op("Sub", [p, t]), n])
        return value, grad
    diff = b.op("Sub", [out, labels])
    value = b.op("ReduceMean", [b.op("Mul", [diff, diff])], keepdims=0)
    numel = b.op("Cast", [b.op("Size", [out])], to=b.elem)
    grad = b.op("Mul", [diff, b.op("Div", [b.scalar(2.0), numel])])
    return value, grad


def _emit_update(
    b: _Builder, opt: OptimizerSpec, params: Sequence[str], grads: Mapping[str, str]
) -> tuple[dict[str, str], dict[str, str]]:
    """Emit the optimizer update; returns (param -> new value, state key -> new value)."""
    new_p: dict[str, str] = {}
    new_s: dict[str, str] = {}
    lr = b.scalar(opt.lr)

    def wd(p: str) -> str:
        g = grads[p]
        if opt.weight_decay:
            g = b.op("Add", [g, b.op("Mul", [p, b.scalar(opt.weight_decay)])])
        return g

    if isinstance(opt, SGD):
        for p in params:
            g = wd(p)
            if opt.momentum > 0:
                mu = b.scalar(opt.momentum)
                v = b.op("Add", [b.op("Mul", [mu, "opt/m/" + p]), g])
                new_s["m/" + p] = v
                d = b.op("Add", [g, b.op("Mul", [mu, v])]) if opt.nesterov else v
            else:
                d = g
            new_p[p] = b.op("Sub", [p, b.op("Mul", [lr, d])])
        return new_p, new_s
    assert isinstance(opt, Adam | Yogi)
    t = b.op("Add", ["opt/step", b.scalar(1.0)])
    new_s["step"] = t
    bc1 = b.op("Sub", [b.scalar(1.0), b.op("Pow", [b.scalar(opt.beta1), t])])
    bc2 = b.op("Sub", [b.scalar(1.0), b.op("Pow", [b.scalar(opt.beta2), t])])
    b1, b2 = b.scalar(opt.beta1), b.scalar(opt.beta2)
    c1, c2 = b.scalar(1 - opt.beta1), b.scalar(1 - opt.beta2)
    eps = b.scalar(opt.eps)
    for p in params:
        g = wd(p)
        m = b.op("Add", [b.op("Mul", [b1, "opt/m/" + p]), b.op("Mul", [c1, g])])
        g2 = b.op("Mul", [g, g])
        v0 = "opt/v/" + p
        if isinstance(opt, Yogi):
            sgn = b.op("Sign", [b.op("Sub", [v0, g2])])
            v = b.op("Sub", [v0, b.op("Mul", [c2, b.op("Mul", [g2, sgn])])])
        else:
            v = b.op("Add", [b.op("Mul", [b2, v0]), b.op("Mul", [c2, g2])])
        step = b.op("Div", [b.op("Div", [m, bc1]), b.op("Add", [b.op("Sqrt", [b.op("Div", [v, bc2])]), eps])])
        new_p[p] = b.op("Sub", [p, b.op("Mul", [lr, step])])
        new_s["m/" + p] = m
        new_s["v/" + p] = v
    return new_p, new_s


def _vi(name: str, elem: int, shape: Shape, sym: str = "N") -> onnx.ValueInfoProto:
    dims: list[int | str] = [d if d is not None else sym for d in shape]
    return helper.make_tensor_value_info(name, elem, dims)


def build_training_step(
    forward: onnx.ModelProto,
    output: str | None = None,
    loss: LossSpec | None = None,
    optimizer: OptimizerSpec | None = None,
    *,
    params: Sequence[str] | None = None,
    input_grads: Sequence[str] = (),
    proximal_mu: float = 0.0,
    batch_dim: str | None = "N",
) -> TrainingProgram:
    """Build a training-step program from a forward model (see the module docstring).

    ``output`` defaults to the forward model's first output. ``params`` are
    the trainable initializers (default: every floating-point initializer that
    the output depends on). ``batch_dim`` makes dim 0 of the data inputs
    symbolic so any batch size runs (``None`` keeps the recorded shapes).
    Without a loss the program takes ``grad/<output>``; without an optimizer
    it returns ``grad/<p>`` instead of ``next/<p>``.
    """
    model, inits = _prepare(forward, batch_dim)
    g = model.graph
    output = output or g.output[0].name
    producers = {o: n for n in g.node for o in n.output}
    if output not in producers and output not in {i.name for i in g.input}:
        raise ModelError(f"output {output!r} is not produced by the forward graph")
    float_inits = [n for n, t in inits.items() if t.data_type in _NP_OF]
    if params is None:
        cand = float_inits
    else:
        for p in params:
            if p not in float_inits:
                raise ModelError(f"parameter {p!r} is not a floating-point initializer")
        cand = list(params)
    data_names = [i.name for i in g.input]
    for x in input_grads:
        if x not in data_names:
            raise ModelError(f"input_grads: {x!r} is not a graph input")

    # tensors on which the output depends (backward reachability)
    relevant: set[str] = {output}
    for node in reversed(g.node):
        if any(o in relevant for o in node.output):
            relevant.update(i for i in node.input if i)
    # forward: tensors that depend on a trainable leaf
    leaves = {p for p in cand if p in relevant} | set(input_grads)
    requires: set[str] = set(leaves)
    for node in g.node:
        if any(i in requires for i in _diff_inputs(node)):
            requires.update(node.output)
    if params is not None:
        missing = [p for p in cand if p not in relevant]
        if missing:
            raise ModelError(f"parameters {missing} do not affect output {output!r}")
    train = [p for p in cand if p in relevant]
    if not train and not input_grads:
        raise ModelError("nothing to differentiate: no trainable parameter reaches the output")

    elem = inits[train[0]].data_type if train else TensorProto.FLOAT
    b = _Builder(model, elem)
    b.needs = requires & relevant

    fwd_nodes = [copy.deepcopy(n) for n in g.node]
    for n in fwd_nodes:
        if n.op_type == "MaxPool" and n.output[0] in b.needs and len(n.output) == 1:
            n.output.append(b.fresh("maxpool_idx"))
        if n.op_type == "Dropout" and len(n.input) > 2 and n.input[2]:
            raise UnsupportedOpError(f"Dropout {n.name!r}: training_mode input is not supported")

    inputs: list[onnx.ValueInfoProto] = list(g.input)
    labels_spec: TensorSpec | None = None
    grad_in: TensorSpec | None = None
    so = b.shape(output)
    out_elem = b.types.get(output, elem)
    loss_value: str | None = None
    if loss is not None:
        if isinstance(loss, SoftmaxCrossEntropy) and loss.labels == "index":
            labels_spec = TensorSpec("labels", so[:1], "int64")
            inputs.append(_vi("labels", TensorProto.INT64, so[:1]))
        else:
            labels_spec = TensorSpec("labels", so, _NP_OF[out_elem])
            inputs.append(_vi("labels", out_elem, so))
        loss_value, seed = _emit_loss(b, loss, output, "labels")
    else:
        grad_in = TensorSpec("grad/" + output, so, _NP_OF[out_elem])
        inputs.append(_vi(grad_in.name, out_elem, so))
        seed = grad_in.name
    b.add_grad(output, seed)

    for node in reversed(fwd_nodes):
        outs = [o for o in node.output if o in b.needs]
        if not outs or not any(i in b.needs for i in _diff_inputs(node)):
            continue
        if node.op_type not in _HANDLERS:
            raise UnsupportedOpError(
                f"{node.op_type} ({node.name!r}) has no gradient; supported: {sorted(SUPPORTED_OPS)}")
        gy = b.grad(node.output[0])
        if gy is None:
            continue
        _HANDLERS[node.op_type](b, node, gy)

    grads: dict[str, str] = {}
    for p in train:
        gp = b.grad(p)
        if gp is None:  # pragma: no cover - reachability guarantees a gradient
            raise ModelError(f"no gradient reached parameter {p!r}")
        if proximal_mu > 0:
            gp = b.op("Add", [gp, b.op("Mul", [b.scalar(proximal_mu), b.op("Sub", [p, "global/" + p])])])
        grads[p] = gp

    param_specs = tuple(
        TensorSpec(p, tuple(int(d) for d in inits[p].dims), _NP_OF[inits[p].data_type]) for p in train
    )
    for s in param_specs:
        inputs.append(_vi(s.name, inits[s.name].data_type, s.shape))
    if proximal_mu > 0:
        for s in param_specs:
            inputs.append(_vi("global/" + s.name, inits[s.name].data_type, s.shape))

    outputs: list[onnx.ValueInfoProto] = []
    renames: list[onnx.NodeProto] = []

    def emit_out(src: str, name: str, el: int, shape: Shape) -> None:
        renames.append(helper.make_node("Identity", [src], [name], name="out/" + name))
        outputs.append(_vi(name, el, shape))

    if loss_value is not None:
        emit_out(loss_value, "loss", elem, ())
    outputs.append(_vi(output, out_elem, so))
    state_specs: list[TensorSpec] = []
    if optimizer is not None:
        new_p, new_s = _emit_update(b, optimizer, train, grads)
        for s in param_specs:
            emit_out(new_p[s.name], "next/" + s.name, inits[s.name].data_type, s.shape)
        for slot in state_slots(optimizer):
            for s in param_specs:
                key = f"{slot}/{s.name}"
                state_specs.append(TensorSpec("opt/" + key, s.shape, s.dtype))
        if uses_step(optimizer):
            state_specs.append(TensorSpec("opt/step", (), _NP_OF[elem]))
        for st in state_specs:
            inputs.append(_vi(st.name, elem, st.shape))
            emit_out(new_s[st.name[len("opt/"):]], "next/" + st.name, elem, st.shape)
    else:
        for s in param_specs:
            emit_out(grads[s.name], "grad/" + s.name, inits[s.name].data_type, s.shape)
    for x in input_grads:
        gx = b.grad(x)
        if gx is None:
            raise ModelError(f"no gradient reached input {x!r}")
        emit_out(gx, "grad/" + x, b.types.get(x, elem), b.shape(x))

    frozen = [t for n, t in inits.items() if n not in set(train)]
    graph = helper.make_graph(
        fwd_nodes + b.nodes + renames, (g.name or "forward") + ".train_step", inputs, outputs,
        initializer=frozen + b.consts,
    )
    prog = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="bb_edge.training",
    )
    prog.ir_version = max(8, min(int(forward.ir_version or 8), 10))
    try:
        onnx.checker.check_model(prog)
    except onnx.checker.ValidationError as exc:  # pragma: no cover - a bug in this module
        raise ModelError(f"generated training program fails onnx.checker: {exc}") from exc
    data_specs = tuple(
        TensorSpec(i.name, _dims(i.type) or (), _NP_OF.get(i.type.tensor_type.elem_type, "float32"))
        for i in g.input
    )
    return TrainingProgram(
        model=prog, params=param_specs, data_inputs=data_specs, output=output, labels=labels_spec,
        grad_input=grad_in, state=tuple(state_specs), loss=loss, optimizer=optimizer,
        proximal_mu=float(proximal_mu), input_grads=tuple(input_grads),
        initial_params={p: numpy_helper.to_array(inits[p]).copy() for p in train},
    )


def parameterized_forward(
    forward: onnx.ModelProto, params: Sequence[str] | None = None, batch_dim: str | None = "N"
) -> tuple[onnx.ModelProto, tuple[TensorSpec, ...]]:
    """The forward model with the given initializers turned into graph inputs.

    One session of the result evaluates any parameter vector (the global
    model of a round, a peer's model) without rebuilding the model.
    """
    model, inits = _prepare(forward, batch_dim)
    names = list(params) if params is not None else [n for n, t in inits.items() if t.data_type in _NP_OF]
    specs = tuple(TensorSpec(n, tuple(int(d) for d in inits[n].dims), _NP_OF[inits[n].data_type])
                  for n in names)
    g = model.graph
    keep = [t for n, t in inits.items() if n not in set(names)]
    del g.initializer[:]
    g.initializer.extend(keep)
    for s in specs:
        g.input.append(_vi(s.name, inits[s.name].data_type, s.shape))
    del g.value_info[:]
    model.ir_version = max(8, min(int(forward.ir_version or 8), 10))
    onnx.checker.check_model(model)
    return model, specs


def with_params(forward: onnx.ModelProto, params: Mapping[str, np.ndarray]) -> onnx.ModelProto:
    """A copy of ``forward`` whose initializers are replaced by ``params``."""
    model = copy.deepcopy(forward)
    for t in model.graph.initializer:
        if t.name in params:
            arr = np.asarray(params[t.name]).astype(_NP_OF.get(t.data_type, "float32"))
            t.CopyFrom(numpy_helper.from_array(arr.reshape(tuple(t.dims)), t.name))
    return model
