"""Lower one node of a compiled deployment: peer ids, host edge ids, fleet-wide calibration.

Calibration samples and the float fleet run come from :mod:`bb_edge.quant.calib`.
"""

from __future__ import annotations

import numpy as np
import onnx

from bb_edge.bbrt.errors import BbrtError
from bb_edge.bbrt.lower import Lowered, lower
from bb_edge.bbrt.lower_qdq import is_qdq
from bb_edge.deployment.manifest import HOST_NAME, Deployment
from bb_edge.deployment.ports import compute_model
from bb_edge.quant.calib import fleet_tensors


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
               float_ops: set[str] | None = None, fuse_pool: bool = False,
               values: list[dict[str, np.ndarray]] | None = None, int8_sends: set[str] | None = None) -> Lowered:
    """Lower ``node`` of a deployment, calibrating on the float fleet's values at its inputs.

    Int8 edges and int8 graph inputs/outputs (``quant`` in deployment.json) keep their parameters;
    ``fuse_pool`` and ``int8_sends`` as in :func:`bb_edge.bbrt.lower.lower` (C-runtime builds).
    ``values``: the float fleet's tensors over ``samples`` when the caller has them already
    (:func:`bb_edge.quant.calib.fleet_tensors`), so the fleet runs once per build.
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
        if values is None:
            values = fleet_tensors(dep, samples, programs)
        calib = [{n: v[n] for n in names if n in v} for v in values]
        _check_static(cm, calib, node)
    io_quant = {s.name: (float(s.quant["scale"]), int(s.quant["zero_point"]))
                for s in list(dep.inputs) + list(dep.outputs) if s.node == node and s.quant is not None}
    L = lower(program, node_id=spec.id, node_ids=ids, io_edges=io_edges, precision=precision, calib=calib,
              float_ops=float_ops, io_quant=io_quant, fuse_pool=fuse_pool, int8_sends=int8_sends,
              state=dep.state_pairs(node))
    L.synthetic_calibration = L.synthetic_calibration or synthetic
    return L
