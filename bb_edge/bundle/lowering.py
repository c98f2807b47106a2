"""One build's lowerings: calibration loaded once, the float fleet run once, each bbrt node lowered once.

``bb-edge build`` makes one :class:`BuildLowering` (:mod:`bb_edge.bundle.build`). It plans the int8 edges
of the nodes built now (:func:`bb_edge.quant.edges.plan_int8_edges`), which lowers every int8 node in its
final form, writes the rewritten deployment into the build output when the contract changes, and hands
each builder the lowering of its node (:meth:`BuildLowering.lower`). A lowering is handed over only when
the node's program, contract and options are exactly those it was made with; otherwise (a node in a
cycle whose peer changed a parameter later in the plan) the node is lowered again.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from bb_edge.bbrt.lower import Lowered
from bb_edge.bbrt.lower_node import lower_node
from bb_edge.bbrt.lower_qdq import is_qdq
from bb_edge.deployment.int8 import Quant
from bb_edge.deployment.manifest import Deployment, load_deployment
from bb_edge.quant.calib import fleet_tensors, load_calibration, quantized_already, random_calibration
from bb_edge.quant.edges import (
    INT8_NODE,
    apply_int8_edges,
    changes,
    float_program,
    node_kind,
    plan_int8_edges,
    set_edge,
    set_io,
    stamp_program,
)

#: builders whose lowering fuses Conv + MaxPool (CONV_POOL_I8: the C runtime has the kernel, MicroPython not)
FUSE_POOL_BUILDERS = frozenset({"mcu-bbrt"})


def lowering_options(builder: str, options: dict[str, Any]) -> tuple[bool, frozenset[str]]:
    """``(fuse_pool, float_ops)`` a builder lowers its node with."""
    fuse = options.get("fuse_pool")
    return (builder in FUSE_POOL_BUILDERS if fuse is None else bool(fuse),
            frozenset(options.get("float_ops") or ()))


@dataclass
class _Made:
    """A lowering the plan made, with what it was made from (compared before it is handed over)."""

    lowered: Lowered
    key: tuple[Any, ...]


def _key(dep: Deployment, node: str, program: onnx.ModelProto, precision: str, fuse_pool: bool,
         float_ops: frozenset[str]) -> tuple[Any, ...]:
    """Everything :func:`bb_edge.bbrt.lower_node.lower_node` reads besides the calibration values."""
    io = sorted((s.name, s.edge_id, None if s.quant is None else (float(np.float32(s.quant["scale"])),
                                                                  int(s.quant["zero_point"])))
                for s in list(dep.inputs) + list(dep.outputs) if s.node == node)
    return (node, hashlib.sha256(program.SerializeToString(deterministic=True)).hexdigest(),
            tuple(sorted(dep.ids().items())), tuple(io), precision, fuse_pool, tuple(sorted(float_ops)))


class BuildLowering:
    """The lowerings of one build (see the module docstring); ``calib`` the --calib file or None (random)."""

    def __init__(self, calib: Path | None, options: dict[str, Any] | None = None) -> None:
        self.calib = calib
        self.options = dict(options or {})
        self._samples: list[dict[str, np.ndarray]] | None = None
        self._values: dict[str, list[dict[str, np.ndarray]]] = {}
        self._made: dict[str, _Made] = {}
        self.count = 0  # lowerings made (the build's figure: one per bbrt node)

    def samples(self, dep: Deployment) -> list[dict[str, np.ndarray]]:
        """The calibration samples of the graph inputs (read once; the rewrite keeps the inputs' shapes)."""
        if self._samples is None:
            self._samples = (load_calibration(dep, self.calib, limit=None, static=True) if self.calib is not None
                             else random_calibration(dep))
        return self._samples

    def values(self, dep: Deployment) -> list[dict[str, np.ndarray]]:
        """The float fleet's tensors over the samples, run once per fleet of compute models."""
        key = hashlib.sha256(b"".join(float_program(dep.program(n)).SerializeToString(deterministic=True)
                                      for n in dep.node_names)).hexdigest()
        if key not in self._values:  # every node quantized already (a .tflite): no float fleet to run
            self._values[key] = [] if all(quantized_already(dep.program(n)) for n in dep.node_names) else \
                fleet_tensors(dep, self.samples(dep))
        return self._values[key]

    def _lower(self, dep: Deployment, node: str, program: onnx.ModelProto, precision: str, fuse_pool: bool,
               float_ops: frozenset[str], int8_sends: set[str] | None = None) -> Lowered:
        self.count += 1
        return lower_node(dep, node, precision=precision, samples=self.samples(dep), values=self.values(dep),
                          programs={node: program}, float_ops=set(float_ops), fuse_pool=fuse_pool,
                          int8_sends=int8_sends)

    def choose(self, source: Path, built: Path, profiles: dict[str, Any]) -> Path:
        """``bb-edge build``'s step: the int8 edges of the nodes it builds (``profiles``: node -> TargetProfile).

        Returns the deployment directory the builders read. ``source`` (the compile directory) is never
        written: when the plan changes the contract, the changed deployment goes to ``built`` (inside the
        build output). A ``built`` copy of the same ``source`` from an earlier build is the starting point,
        so nodes built into one output in separate runs keep each other's edges.
        """
        base = built if same_source(source, built) else source
        dep = load_deployment(base)
        precision = self.options.get("precision")
        kinds = {n: node_kind(str(p.builder), str(precision or p.precision or "int8")) for n, p in profiles.items()}
        if INT8_NODE not in kinds.values() and not self.options.get("float_edges") and \
                not any(e.quant is not None for e in dep.edges) and not any(
                    s.quant is not None for s in list(dep.inputs) + list(dep.outputs)):
            return base  # nothing int8 now or before: no calibration run, no rewrite
        made: dict[str, _Made] = {}

        def lower_int8(node: str, at: Deployment, program: onnx.ModelProto,
                       free: set[str]) -> tuple[bool, dict[str, Quant]]:
            fuse_pool, float_ops = lowering_options(str(profiles[node].builder), self.options)
            qdq = is_qdq(program)
            specs = [s for s in list(at.inputs) + list(at.outputs) if s.node == node]
            planned = {s.name for s in specs if s.quant is not None}
            if qdq:  # its graph boundary's parameters are its own: the plan's range guesses are not asked of it
                for s in specs:
                    set_io(s, None)
            L = self._lower(at, node, program, "int8", fuse_pool, float_ops, None if qdq else free)
            params = dict(L.wire_quant if qdq else L.qparams)
            # the contract this lowering stands for: its free sends as it quantized them (a QDQ model: its
            # int8 graph inputs/outputs with its own parameters)
            by_id = {e.id: e for e in at.edges}
            for e in at.edges:
                if e.src == node and e.tensor in free and not qdq:
                    set_edge(e, params.get(e.tensor))
            for s in specs:
                if (s.name in free and not qdq) or (qdq and s.name in planned):
                    set_io(s, params.get(s.name))
            program = float_program(program)
            stamp_program(program, by_id)
            made[node] = _Made(L, _key(at, node, program, "int8", fuse_pool, float_ops))
            return qdq, params

        edges, io = plan_int8_edges(dep, kinds, self.values(dep), lower_int8,
                                    float_edges=bool(self.options.get("float_edges")))
        if changes(dep, edges, io):
            if base != built:
                copy_deployment(source, built)
            apply_int8_edges(built, edges, io)
            base = built
        self._made.update(made)
        return base

    def lower(self, dep: Deployment, node: str, precision: str, fuse_pool: bool,
              float_ops: frozenset[str]) -> Lowered:
        """``node`` of ``dep`` lowered: the plan's lowering when it was made from exactly this, else a new one."""
        program = dep.program(node)
        made = self._made.pop(node, None)
        if made is not None and made.key == _key(dep, node, program, precision, fuse_pool, float_ops):
            return made.lowered
        return self._lower(dep, node, program, precision, fuse_pool, float_ops)


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
