"""Which edges of a deployment go int8, and with which parameters (``bb-edge build``).

An edge goes int8 when one of its ends is built now as an int8 bbrt node (C runtime or
MicroPython) and neither end is built now as a float32 bbrt node: the bbrt end holds int8
activations anyway, and a Python engine end (ORT or any other backend) quantizes or
dequantizes at its side (:mod:`bb_edge.engine.edgequant`). A graph input/output goes int8
when its node is built now as an int8 bbrt node (the host converts). Edges with no end built
now are left as they are, so nodes can be built in separate runs. ``float_edges``
(``--float-edges``) turns every edge touching a node built now back to float32.

Parameters: the producer decides (an edge whose other end is not built now keeps the ones that end
was built with). A tensor sent by an int8 bbrt node gets the parameters
that node's lowering gives it (e.g. a MaxPool output keeps its input's), everything else
the asymmetric parameters of its range over the calibration samples run through the float
fleet, which is also what a lowering computes for it, so both ends agree bit for bit.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.bbrt.lower import lower
from bb_edge.bbrt.lower_node import float_fleet_values
from bb_edge.bbrt.lower_qdq import is_qdq
from bb_edge.bbrt.quant import affine_params, ranges
from bb_edge.compiler.int8_edges import Quant, apply_int8_edges, float_program
from bb_edge.deployment.manifest import HOST_NAME, Deployment
from bb_edge.deployment.ports import compute_model

INT8_NODE, FLOAT_NODE, OTHER_NODE = "int8", "float", "other"


def plan_int8_edges(dep: Deployment, kinds: dict[str, str], samples: list[dict[str, np.ndarray]], *,
                    float_edges: bool = False,
                    float_ops: set[str] | None = None) -> tuple[dict[int, Quant | None], dict[str, Quant | None]]:
    """``(edges, io)`` for :func:`bb_edge.compiler.int8_edges.apply_int8_edges`.

    ``kinds`` maps the nodes built now to :data:`INT8_NODE` (an int8 bbrt program),
    :data:`FLOAT_NODE` (a float32 bbrt program) or :data:`OTHER_NODE` (a Python engine node).
    """
    edges: dict[int, Quant | None] = {}
    io: dict[str, Quant | None] = {}
    want: list[str] = []
    # an int8 edge whose other end is not built now keeps its parameters: that end was built with them
    keep: dict[str, Quant] = {}
    for e in dep.edges:
        ends = {kinds.get(e.src), kinds.get(e.dst)} - {None}
        if not ends:
            continue  # neither end built now: as it is
        if float_edges or FLOAT_NODE in ends:
            edges[e.id] = None
            continue
        if INT8_NODE not in ends:
            continue  # only Python ends built now: as it is
        if e.quant is None and e.elem_type != 1:
            continue  # not a float32 tensor: stays as it is
        edges[e.id] = (0.0, 0)
        want.append(e.tensor)
        if e.quant is not None and None in (kinds.get(e.src), kinds.get(e.dst)):
            keep[e.tensor] = (float(e.quant["scale"]), int(e.quant["zero_point"]))
    for s in list(dep.inputs) + list(dep.outputs):
        k = kinds.get(s.node)
        if k is None:
            continue
        if k == INT8_NODE and not float_edges and s.elem_type == 1:
            io[s.name] = (0.0, 0)
            want.append(s.name)
        else:
            io[s.name] = None
    if not want:
        return edges, io
    values = float_fleet_values(dep, samples)
    rng = ranges(values)
    chosen: dict[str, Quant | None] = {t: keep.get(t) or affine_params(*rng.get(t, (-1.0, 1.0))) for t in want}
    # int8 bbrt producers decide their outputs' parameters; upstream nodes first, so a tensor a
    # producer passes through (Reshape, MaxPool) keeps the parameters its own producer chose
    for node in _node_order(dep):
        if kinds.get(node) != INT8_NODE:
            continue
        if is_qdq(dep.program(node)):  # a QDQ model states its graph boundary's parameters (lower_qdq)
            own = lower(dep.program(node)).wire_quant
            for s in list(dep.inputs) + list(dep.outputs):
                if s.node == node and s.name in chosen:
                    chosen[s.name] = own.get(s.name)
            continue
        sent = [e.tensor for e in dep.edges if e.src == node and e.tensor in chosen] + \
               [o.name for o in dep.outputs if o.node == node and o.name in chosen]
        if not sent:
            continue
        program = float_program(dep.program(node))  # the parameters of an earlier build do not count
        cm = compute_model(program)
        names = [i.name for i in cm.graph.input]
        calib = [{n: v[n] for n in names if n in v} for v in values]
        received = {e.tensor for e in dep.edges if e.dst == node} | {i.name for i in dep.inputs if i.node == node}
        # kept outputs are pinned too: a producer that cannot quantize them so says BbrtError (rebuild both ends)
        L = lower(program, precision="int8", calib=calib, float_ops=float_ops,
                  pins={t: q for t, q in chosen.items() if q is not None and (t in received or t in keep)})
        for t in sent:
            # a tensor the lowering keeps float32 (e.g. a Squeeze of a float received tensor) stays float on the
            # wire too: the contract follows what the program holds
            chosen[t] = L.qparams.get(t)
    for e in dep.edges:
        if e.id in edges and edges[e.id] is not None:
            edges[e.id] = chosen[e.tensor]
    for name in list(io):
        if io[name] is not None:
            io[name] = chosen[name]
    return edges, io


def _node_order(dep: Deployment) -> list[str]:
    """Nodes with every producer before its consumers (manifest order where a cycle leaves a choice)."""
    names = dep.node_names
    preds = {n: {e.src for e in dep.edges if e.dst == n and e.src != HOST_NAME} for n in names}
    out: list[str] = []
    while len(out) < len(names):
        ready = [n for n in names if n not in out and preds[n] <= set(out)]
        out.append(ready[0] if ready else next(n for n in names if n not in out))
    return out


#: builders whose nodes run the Python engine, which (de)quantizes int8 edges at its side
PYTHON_ENGINE_BUILDERS = frozenset({"jetson", "linux", "ros2"})
BBRT_BUILDERS = frozenset({"mcu-bbrt", "micropython"})


def node_kind(builder: str, precision: str) -> str:
    """:data:`INT8_NODE`, :data:`FLOAT_NODE` or :data:`OTHER_NODE` for a target's builder and precision.

    A runtime not known to convert int8 edges (e.g. the Android module) counts as float32.
    """
    if builder in BBRT_BUILDERS:
        return INT8_NODE if precision == "int8" else FLOAT_NODE
    return OTHER_NODE if builder in PYTHON_ENGINE_BUILDERS else FLOAT_NODE


def choose_for_build(source: Path, built: Path, profiles: dict[str, Any], calib: Path | None,
                     options: dict[str, Any]) -> Path:
    """``bb-edge build``'s step: the int8 edges of the nodes it builds (``profiles``: node -> TargetProfile).

    Returns the deployment directory the builders read. ``source`` (the compile directory) is never
    written: when the plan changes the contract, the changed deployment goes to ``built`` (inside the
    build output). A ``built`` copy of the same ``source`` from an earlier build is the starting point,
    so nodes built into one output in separate runs keep each other's edges.
    """
    from bb_edge.bbrt.lower_node import load_calibration
    from bb_edge.deployment.manifest import load_deployment

    base = built if same_source(source, built) else source
    dep = load_deployment(base)
    kinds = {n: node_kind(str(p.builder), str(options.get("precision") or p.precision or "int8"))
             for n, p in profiles.items()}
    if INT8_NODE not in kinds.values() and not options.get("float_edges") and \
            not any(e.quant is not None for e in dep.edges) and not any(
                s.quant is not None for s in list(dep.inputs) + list(dep.outputs)):
        return base  # nothing int8 now or before: no calibration run, no rewrite
    samples, _ = load_calibration(calib, dep)
    edges, io = plan_int8_edges(dep, kinds, samples, float_edges=bool(options.get("float_edges")),
                                float_ops=set(options.get("float_ops") or ()))
    if not _changes(dep, edges, io):
        return base
    if base != built:
        copy_deployment(source, built)
    apply_int8_edges(built, edges, io)
    return built


def _changes(dep: Deployment, edges: dict[int, Quant | None], io: dict[str, Quant | None]) -> bool:
    """True when applying the plan would change the deployment's contract."""
    def same(cur: dict[str, Any] | None, q: Quant | None) -> bool:
        if cur is None or q is None:
            return cur is None and q is None
        return np.float32(cur["scale"]) == np.float32(q[0]) and int(cur["zero_point"]) == int(q[1])

    by_id = {e.id: e for e in dep.edges}
    specs = {s.name: s for s in list(dep.inputs) + list(dep.outputs)}
    return any(eid not in by_id or not same(by_id[eid].quant, q) for eid, q in edges.items()) or \
        any(name not in specs or not same(specs[name].quant, q) for name, q in io.items())


SOURCE_STAMP = "source.json"


def _digest(directory: Path) -> str:
    """sha256 over a compile directory's deployment.json and the programs it names (what a build reads)."""
    h = hashlib.sha256()
    manifest = directory / "deployment.json"
    raw = manifest.read_bytes()
    h.update(raw)
    try:
        programs = sorted({str(n["program"]) for n in json.loads(raw).get("nodes", []) if "program" in n})
    except (ValueError, TypeError, AttributeError):
        programs = []
    for rel in programs:
        path = directory / rel
        h.update(rel.encode() + b"\0" + (path.read_bytes() if path.is_file() else b""))
    return h.hexdigest()


def same_source(source: Path, built: Path) -> bool:
    """True when ``built`` holds a deployment rewritten from ``source`` as it is now."""
    try:
        stamp = json.loads((built / SOURCE_STAMP).read_text())
    except (OSError, ValueError):
        return False
    return isinstance(stamp, dict) and stamp.get("digest") == _digest(source)


def copy_deployment(source: Path, built: Path) -> None:
    """A fresh copy of the compile directory ``source`` at ``built``, stamped with the source's digest."""
    src, dst = source.resolve(), built.resolve()

    def skip(directory: str, names: list[str]) -> set[str]:  # an output nested in the source is not copied
        return {n for n in names if dst.is_relative_to((Path(directory) / n).resolve())
                or (Path(directory) / n).resolve() == dst.parent}

    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst, ignore=skip)
    (dst / SOURCE_STAMP).write_text(json.dumps({"source": str(src), "digest": _digest(src)}) + "\n")
