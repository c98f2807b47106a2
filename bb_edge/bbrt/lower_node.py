"""Lower one node of a compiled deployment: peer ids, host edge ids, fleet-wide calibration."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort

from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.lower import Lowered, lower
from bb_edge.bbrt.lower_qdq import is_qdq
from bb_edge.deployment.manifest import HOST_NAME, Deployment
from bb_edge.deployment.ports import compute_model

#: ONNX Runtime's input type names -> numpy dtypes (the calibration run feeds each input its own dtype)
_ORT_NP: dict[str, type] = {
    "tensor(float)": np.float32, "tensor(float16)": np.float16, "tensor(double)": np.float64,
    "tensor(int64)": np.int64, "tensor(int32)": np.int32, "tensor(int16)": np.int16, "tensor(int8)": np.int8,
    "tensor(uint8)": np.uint8, "tensor(uint16)": np.uint16, "tensor(bool)": np.bool_,
}


def random_input(shape: list[int], dtype: np.dtype, rng: np.random.Generator) -> np.ndarray:
    """One seeded random calibration array: standard normal for floats, 0/1 for integers (valid ids, masks)."""
    dims = [d if d > 0 else 1 for d in shape]
    if np.issubdtype(dtype, np.floating):
        return rng.standard_normal(dims).astype(dtype)
    return rng.integers(0, 2, dims).astype(dtype)


def float_fleet_values(dep: Deployment, samples: list[dict[str, np.ndarray]],
                       programs: dict[str, onnx.ModelProto] | None = None) -> list[dict[str, np.ndarray]]:
    """Run every node's compute model in float (ORT) in dependency order; all tensors per sample."""
    models = {n.name: compute_model(dep.program(n.name, programs)) for n in dep.nodes}
    sessions = {}
    for name, m in models.items():
        so = ort.SessionOptions()
        so.log_severity_level = 3
        sessions[name] = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    out = []
    wanted = {i.name: _ORT_NP.get(i.type, np.float32) for sess in sessions.values() for i in sess.get_inputs()}
    for s in samples:
        # integer graph inputs (token ids, sample rates) keep their dtype: the float run feeds what the model takes
        vals = {k: np.asarray(v, wanted.get(k, np.asarray(v).dtype)) for k, v in s.items()}
        todo = list(sessions)
        while todo:
            progressed = False
            for name in list(todo):
                sess = sessions[name]
                need = [i.name for i in sess.get_inputs()]
                if all(n in vals for n in need):
                    res = sess.run(None, {n: vals[n] for n in need})
                    vals.update({o.name: r for o, r in zip(sess.get_outputs(), res, strict=True)})
                    todo.remove(name)
                    progressed = True
            if not progressed:
                raise BbrtError(f"cannot order nodes {todo} for the float calibration run")
        out.append(vals)
    return out


def load_calibration(path: Path | None, dep: Deployment, n_random: int = 8,
                     seed: int = 0) -> tuple[list[dict[str, np.ndarray]], bool]:
    """Calibration samples of the graph inputs: from an .npz (a leading sample axis allowed) or random."""
    if path is not None:
        data = np.load(path)
        samples: list[dict[str, np.ndarray]] = []
        for spec in dep.inputs:
            if spec.name not in data:
                raise BbrtError(f"calibration file {path} has no array {spec.name!r}")
            arr = np.asarray(data[spec.name], spec.dtype)  # integer inputs stay integers
            shape = [d if d > 0 else 1 for d in spec.shape]
            per = int(np.prod(shape))
            if arr.ndim == len(shape) + 1:
                rows = list(arr)
            elif arr.size > per and arr.size % per == 0:  # samples concatenated along the batch axis
                rows = list(arr.reshape(-1, *shape))
            else:
                rows = [arr]
            for i, r in enumerate(rows):
                if len(samples) <= i:
                    samples.append({})
                if r.size != per:  # reshape would raise a bare ValueError naming neither input nor file
                    raise BbrtError(
                        f"calibration array {spec.name!r} in {path} has shape {list(arr.shape)}, which does not "
                        f"split into samples of input {spec.name!r}'s shape {shape}; save one sample of that "
                        f"shape or a stack [N, {', '.join(map(str, shape))}]")
                samples[i][spec.name] = r.reshape(shape)
        return samples, False
    rng = np.random.default_rng(seed)
    return [{s.name: random_input(list(s.shape), np.dtype(s.dtype), rng) for s in dep.inputs}
            for _ in range(n_random)], True


def _check_static(cm: onnx.ModelProto, calib: list[dict[str, np.ndarray]], node: str) -> None:
    """BbrtError naming the input when a symbolic dim (which the C runtime fixes at 1) is not 1 in the data."""
    for i in cm.graph.input:
        dims = i.type.tensor_type.shape.dim
        for sample in calib[:1]:
            if i.name not in sample:
                continue
            got = list(np.shape(sample[i.name]))
            if len(got) == len(dims) and any(d.dim_value <= 0 and g != 1 for d, g in zip(dims, got)):
                want = [d.dim_value if d.dim_value > 0 else "?" for d in dims]
                raise BbrtError(
                    f"node {node!r}: input {i.name!r} has symbolic dims {want}, which a C-runtime program fixes at 1, "
                    f"but the data has shape {got}; pin them with compile --input-shape NAME={','.join(map(str, got))} "
                    f"on the graph input they come from, or build this node for a target with ONNX Runtime")


def lower_node(dep: Deployment, node: str, *, precision: str = "int8",
               samples: list[dict[str, np.ndarray]] | None = None,
               programs: dict[str, onnx.ModelProto] | None = None,
               float_ops: set[str] | None = None, fuse_pool: bool = False) -> Lowered:
    """Lower ``node`` of a deployment, calibrating on the float fleet's values at its inputs.

    Int8 edges and int8 graph inputs/outputs (``quant`` in deployment.json) keep their parameters;
    ``fuse_pool`` as in :func:`bb_edge.bbrt.lower.lower` (C-runtime builds).
    """
    ids = dep.ids()
    ids[HOST_NAME] = 0
    spec = dep.node(node)
    io_edges = {i.name: i.edge_id for i in dep.inputs if i.node == node}
    io_edges.update({o.name: o.edge_id for o in dep.outputs if o.node == node})
    program = dep.program(node, programs)
    calib = None
    synthetic = samples is None
    if samples is not None and not is_qdq(program):  # a QDQ model brings its own parameters: no calibration
        cm = compute_model(program)
        names = [i.name for i in cm.graph.input]
        values = float_fleet_values(dep, samples, programs)
        calib = [{n: v[n] for n in names if n in v} for v in values]
        _check_static(cm, calib, node)
    io_quant = {s.name: (float(s.quant["scale"]), int(s.quant["zero_point"]))
                for s in list(dep.inputs) + list(dep.outputs) if s.node == node and s.quant is not None}
    L = lower(program, node_id=spec.id, node_ids=ids, io_edges=io_edges, precision=precision, calib=calib,
              float_ops=float_ops, io_quant=io_quant, fuse_pool=fuse_pool)
    L.synthetic_calibration = L.synthetic_calibration or synthetic
    return L
