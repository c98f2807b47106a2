"""Calibration data, the one home of the build's calibration: read --calib .npz files (or draw seeded
random samples), run the float fleet over them, and pick every node's input samples.

Both quantizers read it: onnxruntime's QDQ (:mod:`bb_edge.quant.quantize`) and the bbrt lowering
(:mod:`bb_edge.bbrt.lower_node`, the int8-edge plan :mod:`bb_edge.quant.edges`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort

from bb_edge.deployment.manifest import Deployment
from bb_edge.deployment.ports import compute_model
from bb_edge.errors import BuildError, CalibrationShapeError

Sample = dict[str, np.ndarray]

#: ONNX Runtime's input type names -> numpy dtypes (the float run feeds each input its own dtype)
_ORT_NP: dict[str, type] = {
    "tensor(float)": np.float32, "tensor(float16)": np.float16, "tensor(double)": np.float64,
    "tensor(int64)": np.int64, "tensor(int32)": np.int32, "tensor(int16)": np.int16, "tensor(int8)": np.int8,
    "tensor(uint8)": np.uint8, "tensor(uint16)": np.uint16, "tensor(bool)": np.bool_,
}


def _fits(arr_shape: tuple[int, ...], contract: list[int]) -> bool:
    return len(arr_shape) == len(contract) and all(c < 0 or a == c for a, c in zip(arr_shape, contract))


def load_calibration(dep: Deployment, path: str | Path, limit: int | None = 64, static: bool = False) -> list[Sample]:
    """Samples of the deployment's graph inputs from an .npz keyed by input name.

    Each array is either one sample of the input's contract shape or a stack
    ``[N, *shape]``; when the contract's leading (batch) dimension is 1, a
    stack ``[N, *shape[1:]]`` is also accepted. At most ``limit`` samples are used (all with None).
    ``static``: symbolic dims count as 1 (a bbrt program fixes them there), so an array whose leading
    dim is the stack splits into samples of that shape.
    """
    data = np.load(str(path))
    missing = [i.name for i in dep.inputs if i.name not in data.files]
    if missing:
        raise CalibrationShapeError(
            f"{path} lacks calibration arrays for inputs {missing} (it has {data.files}); "
            f"save them with np.savez(path, {', '.join(f'{m}=...' for m in missing)})")
    per_input: dict[str, list[np.ndarray]] = {}
    for i in dep.inputs:
        arr = np.asarray(data[i.name])
        shape = [d if d > 0 else 1 for d in i.shape] if static else list(i.shape)
        if _fits(arr.shape, shape):
            rows = [arr]
        elif arr.ndim == len(shape) + 1 and _fits(arr.shape[1:], shape):
            rows = [arr[r] for r in range(arr.shape[0])]
        elif shape and shape[0] in (1, -1) and _fits(arr.shape[1:], shape[1:]) and arr.ndim == len(shape):
            rows = [arr[r:r + 1] for r in range(arr.shape[0])]
        else:
            raise CalibrationShapeError(
                f"calibration array {i.name!r} in {path} has shape {list(arr.shape)}, but the input contract "
                f"is {shape}; save one sample of shape {shape} or a stack [N, {', '.join(map(str, shape))}]")
        per_input[i.name] = [np.ascontiguousarray(r, dtype=i.dtype).reshape(np.shape(r)) for r in rows[:limit]]
    n = min(len(v) for v in per_input.values())
    if n == 0:
        raise CalibrationShapeError(f"{path} holds no samples")
    return [{k: v[r] for k, v in per_input.items()} for r in range(n)]


def random_calibration(dep: Deployment, count: int = 8, seed: int = 0) -> list[Sample]:
    """Seeded samples of the graph inputs (when no --calib is given): standard normal floats, 0/1 integers."""
    rng = np.random.default_rng(seed)
    out: list[Sample] = []
    for _ in range(count):
        row: Sample = {}
        for i in dep.inputs:
            dims = [d if d > 0 else 1 for d in i.shape]
            dt = np.dtype(i.dtype)
            # integer inputs are ids, lengths or masks: 0/1 is valid for each, a normal draw is not
            row[i.name] = (rng.standard_normal(dims).astype(dt) if np.issubdtype(dt, np.floating)
                           else rng.integers(0, 2, dims).astype(dt))
        out.append(row)
    return out


def quantized_already(program: onnx.ModelProto) -> bool:
    """True when a node program carries its own quantization (QDQ, or a .tflite's annotated int8 graph) and
    takes and gives no float tensor: nothing of it needs calibrating, and its ops may be ones ONNX Runtime has
    no kernel for (the TFLite translator's ``bb.tflite::Svdf``), so the float fleet is not run for it."""
    from bb_edge.bbrt.lower_qdq import is_qdq  # the bbrt lowering imports this module

    cm = compute_model(program)
    return is_qdq(cm) and all(v.type.tensor_type.elem_type not in _FLOAT_TYPES
                              for v in list(cm.graph.input) + list(cm.graph.output))


#: ONNX float element types (FLOAT, FLOAT16, DOUBLE, BFLOAT16)
_FLOAT_TYPES = frozenset({1, 10, 11, 16})


def _session(model: onnx.ModelProto) -> ort.InferenceSession:
    so = ort.SessionOptions()
    so.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])


def _orderable(computes: dict[str, onnx.ModelProto]) -> bool:
    """True when the nodes can run one after another, each whole (no A -> B -> A data path)."""
    known: set[str] = set()
    produced = {o.name for m in computes.values() for o in m.graph.output}
    pending = dict(computes)
    known = {i.name for m in computes.values() for i in m.graph.input} - produced
    while pending:
        ready = [n for n, m in pending.items() if all(i.name in known for i in m.graph.input)]
        if not ready:
            return False
        for n in ready:
            known.update(o.name for o in pending.pop(n).graph.output)
    return True


def _merged(computes: list[onnx.ModelProto]) -> onnx.ModelProto:
    """One model of every node's compute ops (topologically sorted), producing every edge and output."""
    nodes = [n for m in computes for n in m.graph.node]
    inits: dict[str, onnx.TensorProto] = {}
    for m in computes:
        for t in m.graph.initializer:
            inits.setdefault(t.name, t)
    made = {o for n in nodes for o in n.output}
    inputs: dict[str, onnx.ValueInfoProto] = {}
    outputs: dict[str, onnx.ValueInfoProto] = {}
    for m in computes:
        for v in m.graph.input:
            if v.name not in made and v.name not in inits:
                inputs.setdefault(v.name, v)
        for v in m.graph.output:
            outputs.setdefault(v.name, v)
    ready = set(inputs) | set(inits) | {""}
    order: list[onnx.NodeProto] = []
    rest = list(nodes)
    while rest:
        now = [n for n in rest if all(i in ready for i in n.input)]
        if not now:
            raise BuildError("cannot order the fleet's ops for calibration: a tensor is never produced")
        for n in now:
            order.append(n)
            ready.update(n.output)
        rest = [n for n in rest if n not in now]
    graph = onnx.helper.make_graph(order, "fleet", list(inputs.values()), list(outputs.values()),
                                   list(inits.values()))
    return onnx.helper.make_model(graph, opset_imports=list(computes[0].opset_import),
                                  ir_version=computes[0].ir_version)


def fleet_tensors(dep: Deployment, samples: list[Sample],
                  programs: dict[str, onnx.ModelProto] | None = None) -> list[Sample]:
    """Every named tensor the float fleet sees (graph inputs, edges, outputs), per sample.

    Runs each node's compute model with ONNX Runtime in dependency order; the
    result feeds calibration and accuracy checks of any node.
    """
    computes = {n: compute_model(dep.program(n, programs)) for n in dep.node_names}
    sessions = {n: _session(m) for n, m in computes.items()}
    # each graph input as the node reading it takes it (integer ids stay integers)
    wanted = {i.name: _ORT_NP.get(i.type, np.float32) for sess in sessions.values() for i in sess.get_inputs()}
    samples = [{k: np.asarray(v, wanted.get(k, np.asarray(v).dtype)) for k, v in s.items()} for s in samples]
    if not _orderable(computes):  # data goes A -> B -> A: no node runs whole before another; run them merged
        standbys = {n for nodes in dep.standby.values() for n in nodes}
        merged = _session(_merged([m for n, m in computes.items() if n not in standbys]))
        names = [i.name for i in merged.get_inputs()]
        outs = [o.name for o in merged.get_outputs()]
        return [{**s, **dict(zip(outs, merged.run(outs, {x: s[x] for x in names})))} for s in samples]
    out: list[Sample] = []
    for s in samples:
        known: Sample = dict(s)
        pending = list(dep.node_names)
        while pending:
            progressed = False
            for n in list(pending):
                sess = sessions[n]
                names = [i.name for i in sess.get_inputs()]
                if all(x in known for x in names):
                    outs = [o.name for o in sess.get_outputs()]
                    known.update(zip(outs, sess.run(outs, {x: known[x] for x in names})))
                    pending.remove(n)
                    progressed = True
            if not progressed:
                raise BuildError(f"cannot order nodes {pending} for calibration: inputs never produced")
        out.append(known)
    return out


def node_samples(compute: onnx.ModelProto, tensors: list[Sample]) -> list[Sample]:
    """The inputs of one node's compute model, picked from :func:`fleet_tensors` output."""
    names = [i.name for i in compute.graph.input if i.name not in {x.name for x in compute.graph.initializer}]
    return [{n: t[n] for n in names} for t in tensors]


def ranges(values: list[dict[str, np.ndarray]]) -> dict[str, tuple[float, float]]:
    """Min/max of every float32 tensor over all samples (the calibration ranges)."""
    out: dict[str, tuple[float, float]] = {}
    for d in values:
        for k, v in d.items():
            if v.dtype != np.float32 or v.size == 0:
                continue
            lo, hi = float(v.min()), float(v.max())
            if k in out:
                lo, hi = min(lo, out[k][0]), max(hi, out[k][1])
            out[k] = (lo, hi)
    return out
