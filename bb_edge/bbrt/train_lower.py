"""Lower an ONNX training step (:func:`bb_edge.training.build_training_step`) to a .bbrt training program.

The step (forward, backward, optimizer update) becomes one float32 .bbrt program with a fixed
batch size that ``bbrt_train_step`` (firmware/include/bbrt_train.h) runs on the device:

* shapes are made static (the batch dim becomes ``batch``) and constant subgraphs (``Shape``,
  ``Cast`` of a shape, ...) are folded at build time;
* every remaining ONNX op maps to one bbrt kernel (:data:`TRAIN_KERNELS`); an op without one
  raises :class:`~bb_edge.errors.UnsupportedOpError` naming it;
* a ``Transpose`` of a bias-less ``Gemm`` becomes the swapped Gemm (``(AB)^T = B^T A^T``), so a
  weight gradient is written in the weight's own layout without a temporary;
* the parameters and the optimizer state are persistent arena tensors: the op computing
  ``next/<p>`` writes straight into ``<p>`` when nothing reads the old ``<p>`` after it (else a
  COPY at the end writes it back), and the planner gives them bytes of their own
  (:func:`bb_edge.bbrt.planner.assign_training`); batch, activations and gradients are planned by
  lifetime;
* tensor 0 is the manifest ``bbrt_train_load`` reads (the layout is in bbrt_train.h).

:func:`training_footprint` and :func:`check_training_fit` report and enforce the arena against a
target's RAM (a :class:`~bb_edge.bbrt.errors.FitError` says by how many bytes it is over).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import helper, numpy_helper

from bb_edge.bbrt import planner
from bb_edge.bbrt.errors import FitError
from bb_edge.bbrt.format import (
    DT_FLOAT,
    DT_INT32,
    DT_UINT8,
    STORE_ARENA,
    STORE_CONST,
    Op,
    OpRecord,
    Program,
    Tensor,
    align,
)
from bb_edge.errors import ModelError, UnsupportedOpError
from bb_edge.targets import TargetProfile
from bb_edge.training.optim import SGD
from bb_edge.training.program import SoftmaxCrossEntropy, TrainingProgram

MAGIC = 0x52544242  # "BBTR", BBRT_TRAIN_MAGIC
VERSION = 1
MAX_PARAMS = 16  # BBRT_TRAIN_MAX_PARAMS
MAX_STATE = 16  # BBRT_TRAIN_MAX_STATE

#: ONNX op -> bbrt kernel of the training lowering (views: Identity etc. become no op at all)
TRAIN_KERNELS: dict[str, Op] = {
    "Gemm": Op.GEMM_F32, "MatMul": Op.GEMM_F32,
    "Add": Op.BINARY_F32, "Sub": Op.BINARY_F32, "Mul": Op.BINARY_F32, "Div": Op.BINARY_F32,
    "Neg": Op.UNARY_F32, "Exp": Op.UNARY_F32,
    "Relu": Op.RELU_F32, "Sigmoid": Op.SIGMOID_F32, "Tanh": Op.TANH_F32,
    "LogSoftmax": Op.LOGSOFTMAX_F32, "OneHot": Op.ONEHOT_F32,
    "ReduceSum": Op.REDUCE_F32, "ReduceMean": Op.REDUCE_F32,
    "Transpose": Op.TRANSPOSE_F32, "Greater": Op.GREATER_F32, "Where": Op.WHERE_F32,
}
VIEWS = {"Identity", "Reshape", "Flatten", "Squeeze", "Unsqueeze"}
_BINARY = {"Add": 0, "Sub": 1, "Mul": 2, "Div": 3}
_UNARY = {"Neg": 0, "Exp": 1}
#: elementwise kernels whose output may be one of their same-shape inputs (in-place update)
_ELEMENTWISE = {Op.BINARY_F32, Op.UNARY_F32, Op.WHERE_F32, Op.RELU_F32, Op.SIGMOID_F32, Op.TANH_F32}


def f32_bits(x: float) -> int:
    """The int32 bit pattern of a float32 (op params carry floats this way)."""
    return int(np.array([x], np.float32).view(np.int32)[0])


@dataclass
class TrainLowered:
    """A lowered training step: the program, its bytes and the facts a caller needs."""

    program: Program
    blob: bytes
    batch: int
    params: tuple[str, ...]
    state: tuple[str, ...]
    param_count: int
    index: dict[str, int] = field(default_factory=dict)  # ONNX name -> tensor index
    ops_used: set[Op] = field(default_factory=set)

    @property
    def arena_bytes(self) -> int:
        """Arena the step needs (weights, optimizer state, gradients, activations, batch)."""
        return self.program.arena_size

    @property
    def lower_bound(self) -> int:
        """The largest total of tensors alive at one op: no plan of these tensors can use less."""
        return self.program.arena_lower_bound

    def breakdown(self) -> dict[str, int]:
        """Bytes by role: parameters, optimizer state (persistent) and the planned rest."""
        t = self.program.tensors
        par = sum(align(t[self.index[p]].nbytes) for p in self.params)
        st = sum(align(t[self.index["opt/" + s]].nbytes) for s in self.state)
        return {"params": par, "optimizer_state": st, "planned": self.arena_bytes - par - st,
                "arena": self.arena_bytes, "lower_bound": self.lower_bound}


def _static_model(tp: TrainingProgram, batch: int) -> onnx.ModelProto:
    """The step with every symbolic dim of the graph inputs set to ``batch``, shapes inferred."""
    model = copy.deepcopy(tp.model)
    for vi in list(model.graph.input) + list(model.graph.output):
        for d in vi.type.tensor_type.shape.dim:
            if d.HasField("dim_param"):
                d.ClearField("dim_param")
                d.dim_value = batch
    for vi in model.graph.input:
        if vi.name in {s.name for s in tp.data_inputs} or vi.name == "labels":
            dims = vi.type.tensor_type.shape.dim
            if len(dims) and dims[0].dim_value != batch:
                raise ModelError(f"input {vi.name!r} has a fixed batch of {dims[0].dim_value}, not {batch}")
    del model.graph.value_info[:]
    try:
        return onnx.shape_inference.infer_shapes(model, strict_mode=True, data_prop=True)
    except Exception as exc:  # noqa: BLE001 - onnx raises several types; all mean the same here
        raise ModelError(f"shape inference of the training step failed: {exc}") from exc


def _shapes(model: onnx.ModelProto) -> dict[str, tuple[int, ...]]:
    out: dict[str, tuple[int, ...]] = {}
    for vi in list(model.graph.input) + list(model.graph.value_info) + list(model.graph.output):
        tt = vi.type.tensor_type
        if tt.HasField("shape") and all(d.HasField("dim_value") for d in tt.shape.dim):
            out[vi.name] = tuple(int(d.dim_value) for d in tt.shape.dim)
    return out


def _fold(node: onnx.NodeProto, consts: dict[str, np.ndarray], shapes: dict[str, tuple[int, ...]]) -> bool:
    """Evaluate a node whose inputs are all known at build time; True if folded into ``consts``."""
    if node.op_type == "Constant":
        consts[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
        return True
    if node.op_type == "Shape" and node.input[0] in shapes:
        a = {x.name: helper.get_attribute_value(x) for x in node.attribute}
        shp = np.asarray(shapes[node.input[0]], np.int64)
        consts[node.output[0]] = shp[a.get("start", 0):a.get("end", len(shp))]
        return True
    if not all((not i) or i in consts for i in node.input):
        return False
    from onnx.reference import ReferenceEvaluator

    ins = [helper.make_tensor_value_info(i, helper.np_dtype_to_tensor_dtype(consts[i].dtype), consts[i].shape)
           for i in node.input if i]
    outs = [helper.make_empty_tensor_value_info(o) for o in node.output]
    g = helper.make_graph([node], "fold", ins, outs)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    res = ReferenceEvaluator(m).run(None, {i: consts[i] for i in node.input if i})
    for o, r in zip(node.output, res, strict=True):
        consts[o] = np.asarray(r)
    return True


def _fuse_transposed_gemms(nodes: list[onnx.NodeProto]) -> list[onnx.NodeProto]:
    """Transpose(Gemm(A, B)) with no C, used only there -> Gemm(B, A, transA=!transB, transB=!transA)."""
    users: dict[str, int] = {}
    for n in nodes:
        for i in n.input:
            users[i] = users.get(i, 0) + 1
    by_out = {n.output[0]: n for n in nodes if n.output}
    drop: set[int] = set()
    out: list[onnx.NodeProto] = []
    for n in nodes:
        a = {x.name: helper.get_attribute_value(x) for x in n.attribute}
        g = by_out.get(n.input[0]) if n.op_type == "Transpose" and n.input else None
        if (g is not None and g.op_type == "Gemm" and len(g.input) == 2 and users.get(g.output[0]) == 1
                and list(a.get("perm", [1, 0])) == [1, 0]):
            ga = {x.name: helper.get_attribute_value(x) for x in g.attribute}
            fused = helper.make_node("Gemm", [g.input[1], g.input[0]], [n.output[0]], name=g.name + "/T",
                                     alpha=float(ga.get("alpha", 1.0)), transA=1 - int(ga.get("transB", 0)),
                                     transB=1 - int(ga.get("transA", 0)))
            drop.add(id(g))
            out.append(fused)
            continue
        out.append(n)
    # the fused Gemm takes the Transpose's place: its inputs are ready there (the Gemm's were)
    return [n for n in out if id(n) not in drop]


def lower_training_step(tp: TrainingProgram, batch: int, node_id: int = 0) -> TrainLowered:
    """Lower a training step (float32, index labels, SGD) to a .bbrt training program of batch ``batch``.

    Raises :class:`UnsupportedOpError` naming an op without a bbrt training kernel, and
    :class:`ModelError` for a step this runtime cannot drive (no SGD, no index-label loss, ...).
    """
    if batch < 1:
        raise ModelError(f"batch must be >= 1, got {batch}")
    if not isinstance(tp.loss, SoftmaxCrossEntropy) or tp.loss.labels != "index":
        raise ModelError("bbrt training programs need SoftmaxCrossEntropy(labels='index')")
    if not isinstance(tp.optimizer, SGD) or tp.optimizer.nesterov:
        raise ModelError("bbrt training programs support SGD (optionally with momentum), not "
                         f"{type(tp.optimizer).__name__}{' (nesterov)' if isinstance(tp.optimizer, SGD) else ''}")
    if tp.proximal_mu or tp.input_grads or len(tp.data_inputs) != 1:
        raise ModelError("bbrt training programs take one data input and no FedProx/input gradients")
    if any(s.dtype != "float32" for s in tp.params):
        raise ModelError("bbrt training programs are float32")
    if len(tp.params) > MAX_PARAMS or len(tp.state) > MAX_STATE:
        raise ModelError(f"at most {MAX_PARAMS} parameters and {MAX_STATE} optimizer state tensors")
    model = _static_model(tp, batch)
    shapes = _shapes(model)
    g = model.graph
    consts: dict[str, np.ndarray] = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    x_name = tp.data_inputs[0].name
    params = tuple(s.name for s in tp.params)
    state = tuple(s.name for s in tp.state)  # "opt/m/<p>"

    nodes: list[onnx.NodeProto] = []
    for n in g.node:
        if not _fold(n, consts, shapes):
            nodes.append(n)
    for n in nodes:  # every op that is left must have a kernel: refuse before building anything
        if n.op_type not in TRAIN_KERNELS and n.op_type not in VIEWS:
            raise UnsupportedOpError(
                f"{n.op_type} ({n.name!r}) has no bbrt training kernel; the C training step supports "
                f"{', '.join(sorted(set(TRAIN_KERNELS) | VIEWS))}")
    nodes = _fuse_transposed_gemms(nodes)

    tensors: list[Tensor] = [Tensor("manifest", DT_INT32, (1,), STORE_CONST, data=np.zeros(1, np.int32))]
    index: dict[str, int] = {}
    alias: dict[str, str] = {}  # view output -> source name

    def src(name: str) -> str:
        while name in alias:
            name = alias[name]
        return name

    def tensor(name: str, dtype: int = DT_FLOAT) -> int:
        name = src(name)
        if name in index:
            return index[name]
        if name in consts:
            arr = consts[name]
            if arr.dtype.kind == "f":
                t = Tensor(name, DT_FLOAT, tuple(arr.shape), STORE_CONST, data=arr.astype(np.float32))
            else:
                raise ModelError(f"constant {name!r} of dtype {arr.dtype} feeds a float kernel")
        else:
            if name not in shapes:
                raise ModelError(f"no static shape for {name!r} in the training step")
            t = Tensor(name, dtype, shapes[name], STORE_ARENA, scale=1.0 if dtype == DT_UINT8 else 0.0)
        index[name] = len(tensors)
        tensors.append(t)
        return index[name]

    ops: list[OpRecord] = []
    for n in nodes:
        a = {x.name: helper.get_attribute_value(x) for x in n.attribute}
        if n.op_type in VIEWS:
            alias[n.output[0]] = n.input[0]
            continue
        code = TRAIN_KERNELS[n.op_type]
        ins: list[int]
        prm: list[int] = []
        out_dtype = DT_FLOAT
        if n.op_type in ("Gemm", "MatMul"):
            if len(shapes.get(n.input[0], ())) != 2 or len(shapes.get(n.input[1], ())) != 2:
                raise UnsupportedOpError(f"{n.op_type} ({n.name!r}): only 2-D operands have a bbrt training kernel")
            ins = [tensor(i) for i in n.input if i]
            prm = [int(a.get("transA", 0)), int(a.get("transB", 0)), f32_bits(float(a.get("alpha", 1.0))),
                   f32_bits(float(a.get("beta", 1.0)))]
        elif n.op_type in _BINARY:
            ins = [tensor(i) for i in n.input]
            prm = [_BINARY[n.op_type]]
        elif n.op_type in _UNARY:
            ins = [tensor(n.input[0])]
            prm = [_UNARY[n.op_type]]
        elif n.op_type == "LogSoftmax":
            r = len(shapes[n.input[0]])
            if int(a.get("axis", -1)) not in (-1, r - 1):
                raise UnsupportedOpError(f"LogSoftmax ({n.name!r}): only the last axis has a bbrt kernel")
            ins = [tensor(n.input[0])]
        elif n.op_type == "OneHot":
            if src(n.input[0]) != "labels" or n.input[1] not in consts or n.input[2] not in consts:
                raise UnsupportedOpError(f"OneHot ({n.name!r}): only of the labels, constant depth/values")
            if int(a.get("axis", -1)) not in (-1, 1):
                raise UnsupportedOpError(f"OneHot ({n.name!r}): only the last axis")
            vals = consts[n.input[2]].astype(np.float32).reshape(-1)
            ins = [tensor("labels", DT_INT32)]
            prm = [int(consts[n.input[1]]), f32_bits(float(vals[0])), f32_bits(float(vals[1]))]
        elif n.op_type in ("ReduceSum", "ReduceMean"):
            shp = shapes[n.input[0]]
            if len(n.input) > 1 and n.input[1]:
                axes = [int(v) for v in consts[n.input[1]].reshape(-1)]
            else:
                axes = [int(v) for v in a.get("axes", [])]
            if not axes:
                if int(a.get("noop_with_empty_axes", 0)):
                    alias[n.output[0]] = n.input[0]
                    continue
                axes = list(range(len(shp)))
            axes = sorted(ax % max(len(shp), 1) for ax in axes)
            if axes != list(range(axes[0], axes[-1] + 1)):
                raise UnsupportedOpError(f"{n.op_type} ({n.name!r}): only contiguous axes")
            outer = int(np.prod(shp[:axes[0]], dtype=np.int64))
            red = int(np.prod(shp[axes[0]:axes[-1] + 1], dtype=np.int64))
            inner = int(np.prod(shp[axes[-1] + 1:], dtype=np.int64))
            ins = [tensor(n.input[0])]
            prm = [outer, red, inner, 1 if n.op_type == "ReduceMean" else 0]
        elif n.op_type == "Transpose":
            if len(shapes[n.input[0]]) != 2:
                raise UnsupportedOpError(f"Transpose ({n.name!r}): only 2-D")
            ins = [tensor(n.input[0])]
        elif n.op_type == "Greater":
            ins = [tensor(i) for i in n.input]
            out_dtype = DT_UINT8
        elif n.op_type == "Where":
            ins = [tensor(n.input[0], DT_UINT8), tensor(n.input[1]), tensor(n.input[2])]
        else:  # Relu, Sigmoid, Tanh
            ins = [tensor(n.input[0])]
        for i, name in zip(ins, n.input, strict=False):
            if tensors[i].storage == STORE_ARENA and tensors[i].dtype == DT_FLOAT and name in consts:
                raise ModelError(f"{name!r} is a constant and an arena tensor")  # pragma: no cover - invariant
        ops.append(OpRecord(code, ins, [tensor(n.output[0], out_dtype)], prm, name=n.name or n.op_type))

    x_t, lab_t = tensor(x_name), tensor("labels", DT_INT32)
    loss_t, logits_t = tensor("loss"), tensor(tp.output)

    # persistent tensors; next/<p> onto <p> in place where the old value is dead, else a COPY at the end
    persistent_names = list(params) + list(state)
    for name in persistent_names:
        if name not in index:
            raise ModelError(f"parameter {name!r} is never read by the step")
    for name in persistent_names:
        p_idx = index[name]
        s_name = src("next/" + name)
        if s_name not in index:
            raise ModelError(f"the step computes no next/{name}")
        s_idx = index[s_name]
        prod = next(k for k, op in enumerate(ops) if s_idx in op.outputs)
        last_read = max((k for k, op in enumerate(ops) if p_idx in op.inputs), default=-1)
        pop = ops[prod]
        in_place_ok = (last_read < prod or (last_read == prod and pop.opcode in _ELEMENTWISE))
        used_elsewhere = s_idx in (x_t, lab_t, loss_t, logits_t) or s_name in persistent_names
        if in_place_ok and not used_elsewhere and tensors[s_idx].shape == tensors[p_idx].shape:
            for op in ops:
                op.inputs = [p_idx if i == s_idx else i for i in op.inputs]
                op.outputs = [p_idx if i == s_idx else i for i in op.outputs]
            index[s_name] = p_idx
        else:
            ops.append(OpRecord(Op.COPY, [s_idx], [p_idx], [], name="writeback/" + name))

    # initial values as constants, then the manifest (tensor 0)
    init_idx = []
    for name in params:
        init_idx.append(len(tensors))
        tensors.append(Tensor("init/" + name, DT_FLOAT, tuple(tp.initial_params[name].shape), STORE_CONST,
                              data=np.asarray(tp.initial_params[name], np.float32)))
    man = [MAGIC, VERSION, x_t, lab_t, loss_t, logits_t, batch, len(params), len(state)]
    for name, ci in zip(params, init_idx, strict=True):
        man += [index[name], ci]
    man += [index[s] for s in state]
    tensors[0] = Tensor("manifest", DT_INT32, (len(man),), STORE_CONST, data=np.asarray(man, np.uint32).view(np.int32))

    # drop tensors no op touches (folded leftovers) would shift indices: none are created unused
    prog = Program(node_id, tensors, ops, [])
    persistent = {index[n] for n in persistent_names}
    planner.assign_training(prog, persistent, {x_t, lab_t}, {loss_t, logits_t})
    blob = prog.to_bytes()
    return TrainLowered(prog, blob, batch, params, tuple(s[len("opt/"):] for s in state),
                        tp.layout.size, index, {op.opcode for op in ops})


def training_need(lowered: TrainLowered, profile: TargetProfile) -> int:
    """RAM the training step needs on ``profile``: its arena plus the profile's reserved RAM
    (what the port, its stack and its buffers keep for themselves)."""
    return lowered.arena_bytes + int(profile.get("reserved_ram_bytes", 0))


def training_footprint(lowered: TrainLowered, profiles: list[TargetProfile]) -> list[dict[str, object]]:
    """Per target: the step's arena, its RAM need, the target's RAM, whether it fits and by how many
    bytes it is over (0 when it fits; targets without a RAM size always fit)."""
    rows: list[dict[str, object]] = []
    for p in profiles:
        need = training_need(lowered, p)
        over = max(0, need - p.ram_bytes) if p.ram_bytes else 0
        rows.append({"target": p.name, "arena": lowered.arena_bytes, "need": need, "ram": p.ram_bytes,
                     "fits": over == 0, "over": over})
    return rows


def check_training_fit(lowered: TrainLowered, node: str, profile: TargetProfile) -> None:
    """Raise :class:`FitError` (need, have, ``over`` in bytes) if the step does not fit ``profile``'s RAM."""
    need = training_need(lowered, profile)
    if profile.ram_bytes and need > profile.ram_bytes:
        raise FitError(node, profile.name, "ram (training step)", need, profile.ram_bytes)


def bbrt_profiles() -> list[TargetProfile]:
    """Every target profile whose runtime is bbrt (the targets a training step could be built for)."""
    from bb_edge.targets import list_targets, load_target

    return [p for p in (load_target(n) for n in list_targets()) if p.runtime == "bbrt"]


def training_report(model: onnx.ModelProto, batch: int, momentum: float = 0.9,
                    target: str | None = None) -> tuple[TrainLowered, list[dict[str, object]]]:
    """Lower ``model``'s training step (SoftmaxCrossEntropy with index labels, SGD) at ``batch`` and
    report its footprint on every bbrt target; with ``target``, raise :class:`FitError` if it does not fit
    there (``bb-edge inspect MODEL.onnx --train-batch N [--train-target T]``)."""
    from bb_edge.targets import load_target
    from bb_edge.training import build_training_step

    tp = build_training_step(model, loss=SoftmaxCrossEntropy(labels="index"), optimizer=SGD(lr=0.1, momentum=momentum))
    lowered = lower_training_step(tp, batch)
    profiles = bbrt_profiles()
    if target is not None:
        prof = load_target(target)
        if prof.name not in {p.name for p in profiles}:
            profiles.append(prof)
        check_training_fit(lowered, "training step", prof)
    return lowered, training_footprint(lowered, profiles)
