"""Steps every bundle builder shares: quantize, check, size, write artifacts and manifest.

:func:`prepare_node` loads one node's program, applies the precision (the
``--precision`` override or the profile's), checks the quantized program
against the float program on calibration data, enforces ``--max-accuracy-drop``
and the target's memory limit. The ``write_*`` helpers put artifacts into a
bundle directory; :func:`write_manifest` records them in ``manifest.json``.
"""

from __future__ import annotations

import importlib.metadata
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from bb_edge.bundle import BuildError, BuildRequest
from bb_edge.deployment.manifest import Deployment, load_deployment
from bb_edge.deployment.ports import compute_model
from bb_edge.errors import UnsupportedOpError
from bb_edge.quant import AccuracyReport, PrecisionError, check_accuracy, enforce_max_drop, quantize_program
from bb_edge.quant.calib import fleet_tensors, load_calibration, node_samples, random_calibration

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
# ops ONNX Runtime's default CPU build runs outside the default domain
ORT_DOMAINS = ("", "ai.onnx", "ai.onnx.ml", "com.microsoft")
# per-runtime resident overhead added to weights + activations for the memory check
RUNTIME_OVERHEAD = {"onnxruntime": 48 << 20, "executorch": 8 << 20}
# the distribution whose declared requirements a bundle's requirements.txt pins
DISTRIBUTION = "bb-edge"


class NodeMemoryError(BuildError):
    """A node's program does not fit its target's RAM."""


#: the largest accuracy drop (:attr:`bb_edge.quant.AccuracyReport.drop`: top-1 disagreement for
#: classifier outputs, else max error relative to the float output's magnitude) a precision may show
#: before a build-report row is flagged and the precision is refused as a node's default (docs/targets.md)
TOLERANCE: dict[str, float] = {"fp32": 1e-4, "fp16": 0.02, "int8": 0.15, "int8-dynamic": 0.15}


class AccuracyError(BuildError):
    """A target's default precision loses more accuracy on a node than that precision's tolerance allows."""

    def __init__(self, node: str, target: str, acc: AccuracyReport, tolerance: float) -> None:
        super().__init__(
            f"node {node!r}: {acc.drop_name} = {acc.drop:.3g} at {acc.precision} (the default precision of "
            f"target {target!r}) exceeds the {acc.precision} tolerance {tolerance:g}; "
            f"give representative --calib data, choose a wider precision (--precision fp16 or fp32), "
            f"or keep {acc.precision} explicitly (--precision {acc.precision} or --accept-inaccurate)")
        self.node, self.target, self.precision = node, target, acc.precision
        self.value, self.tolerance = acc.drop, tolerance


def over_tolerance(precision: str, drop: float | None) -> float | None:
    """The tolerance ``drop`` exceeds at ``precision``, or None when it is within (or unmeasured)."""
    tol = TOLERANCE.get(precision)
    return tol if tol is not None and drop is not None and drop > tol else None


@dataclass
class NodeBuild:
    """One node's programs at the chosen precision, with calibration samples and figures."""

    deployment: Deployment
    node: str
    precision: str
    program: onnx.ModelProto  # float program (with bb.wire ports)
    compute: onnx.ModelProto  # float compute model
    q_program: onnx.ModelProto  # program at ``precision`` (float I/O)
    q_compute: onnx.ModelProto
    samples: list[dict[str, np.ndarray]]
    calibration: str  # "FILE" or "random"
    accuracy: AccuracyReport | None
    memory_bytes: int
    figures: dict[str, Any] = field(default_factory=dict)


def check_ops(compute: onnx.ModelProto, node: str, profile_name: str, runtime: str) -> None:
    """UnsupportedOpError when an op's domain is not one the target's runtime provides."""
    bad = [(n.op_type, n.domain, n.name) for n in compute.graph.node if n.domain not in ORT_DOMAINS]
    if bad and runtime in ("onnxruntime", "executorch"):
        op, dom, name = bad[0]
        raise UnsupportedOpError(
            f"node {node!r}: op {dom}.{op} (at {name!r}) is not available in {runtime} for target "
            f"{profile_name!r}; place it on another node (bb-edge compile --place) or replace it in the model")


def samples_for(req: BuildRequest, dep: Deployment, count: int = 16) -> tuple[list[dict[str, np.ndarray]], str]:
    """Float-fleet tensors for calibration/validation: from --calib or seeded random inputs."""
    if req.calib is not None:
        return fleet_tensors(dep, load_calibration(dep, req.calib, limit=count)), str(req.calib)
    return fleet_tensors(dep, random_calibration(dep, count=count)), "random"


def classifier_outputs(nb_dep: Deployment) -> set[str]:
    """Graph outputs of the deployment whose top-1 agreement is meaningful (rank 2, >= 2 classes)."""
    return {o.name for o in nb_dep.outputs if len(o.shape) == 2 and o.shape[1] >= 2}


def prepare_node(req: BuildRequest, precision: str | None = None) -> NodeBuild:
    """Quantize and check one node program for ``req.profile`` (see module docstring)."""
    dep = load_deployment(req.deployment_dir)
    prof = req.profile
    prec = precision or str(req.options.get("precision") or prof.precision)
    # a precision the user named (or --accept-inaccurate) is kept even when over tolerance: it is only flagged
    explicit = bool(precision or req.options.get("precision") or req.options.get("accept_inaccurate"))
    allowed = list(prof.get("precisions", [prof.precision]))
    if prec not in allowed:
        raise PrecisionError(f"target {prof.name!r} does not support precision {prec!r} for node {req.node!r}; "
                             f"choose one of {', '.join(allowed)} (--precision)")
    program = dep.program(req.node)
    compute = compute_model(program)
    check_ops(compute, req.node, prof.name, prof.runtime)
    tensors, source = samples_for(req, dep)
    samples = node_samples(compute, tensors)
    q_program, q_compute = quantize_program(program, prec, samples)
    acc: AccuracyReport | None = None
    if prec != "fp32":
        acc = check_accuracy(compute, q_compute, samples, prec, classifier_outputs(nb_dep=dep))
        limit = req.options.get("max_accuracy_drop")
        enforce_max_drop(req.node, acc, float(limit) if limit is not None else None)
        tol = over_tolerance(prec, acc.drop)
        if tol is not None and not explicit:
            raise AccuracyError(req.node, prof.name, acc, tol)
    spec = dep.node(req.node)
    mem = q_compute.ByteSize() + int(spec.peak_activation_bytes or 0) + RUNTIME_OVERHEAD.get(prof.runtime, 0)
    if prof.ram_bytes and mem > prof.ram_bytes:
        raise NodeMemoryError(
            f"node {req.node!r} needs about {mem / 2**20:.1f} MiB at {prec} (weights {q_compute.ByteSize()} B, "
            f"peak activations {spec.peak_activation_bytes} B, runtime {RUNTIME_OVERHEAD.get(prof.runtime, 0)} B) "
            f"but target {prof.name!r} has {prof.ram_bytes / 2**20:.1f} MiB; quantize (--precision int8), "
            f"split the model over more nodes (bb-edge compile --nodes N), or pick a bigger target")
    return NodeBuild(dep, req.node, prec, program, compute, q_program, q_compute, samples, source, acc, mem)


def write_program_dir(nb: NodeBuild, out: Path, program: onnx.ModelProto | None = None) -> Path:
    """``out/program/``: deployment.json plus this node's (quantized) program; ``bb-edge node`` runs it."""
    d = out / "program"
    d.mkdir(parents=True, exist_ok=True)
    spec = nb.deployment.node(nb.node)
    onnx.save(program or nb.q_program, str(d / spec.program))
    (d / "deployment.json").write_text(json.dumps(nb.deployment.to_json(), indent=1) + "\n")
    return d


def write_onnx(model: onnx.ModelProto, path: Path) -> Path:
    """Save a standard-ONNX compute artifact."""
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return path


def write_ort(compute: onnx.ModelProto, path: Path) -> tuple[Path, Path]:
    """An ORT-format model (for ORT mobile/minimal builds) and its required-operators config."""
    import onnxruntime as ort
    from onnxruntime.tools.ort_format_model.utils import create_config_from_models

    path.parent.mkdir(parents=True, exist_ok=True)
    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    so.optimized_model_filepath = str(path)
    so.add_session_config_entry("session.save_model_format", "ORT")
    ort.InferenceSession(compute.SerializeToString(), so, providers=["CPUExecutionProvider"])
    config = path.with_suffix(".required_operators.config")
    create_config_from_models([path], config, enable_type_reduction=False)
    return path, config


def copy_runtime(out: Path) -> Path:
    """Vendor the bb_edge package (adapters included) into ``out/lib`` so the bundle runs without installing it.

    The C firmware sources and target profiles stay behind: a Linux-class bundle never builds firmware.
    """
    src = Path(__file__).resolve().parent.parent
    lib = out / "lib"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "templates", "_firmware", "target_profiles")
    shutil.copytree(src, lib / "bb_edge", ignore=ignore, symlinks=False)
    return lib


def runtime_requirements(dist: str = DISTRIBUTION) -> list[tuple[str, str]]:
    """``(name, marker)`` of every requirement ``dist`` declares outside its extras, from its installed metadata."""
    try:
        declared = importlib.metadata.requires(dist) or []
    except importlib.metadata.PackageNotFoundError as e:
        raise BuildError(f"{dist} is not installed, so its requirements are unknown and a bundle could ship "
                         f"without them; install it (pip install bb-edge, or pip install . in a checkout)") from e
    out: list[tuple[str, str]] = []
    for req in declared:
        spec, _, marker = req.partition(";")
        if "extra" in marker:
            continue  # optional extras (test, quant, ...) are not what a node imports
        m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec)
        if m:
            out.append((m.group(1), marker.strip()))
    return out


def pinned_requirements(extra: tuple[str, ...] = ()) -> str:
    """requirements.txt: bb-edge's own declared requirements (plus ``extra``), pinned to the installed versions.

    Generated from the installed metadata of bb-edge, not a hand list, so a dependency bb-edge declares
    can never be missing from a bundle. A package not installed on the build host is a BuildError.
    """
    lines = [f"# generated by `bb-edge build` from {DISTRIBUTION} {importlib.metadata.version(DISTRIBUTION)}'s "
             "declared requirements, pinned to the build host's versions"]
    for name, marker in (*runtime_requirements(), *((p, "") for p in extra)):
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError as e:
            raise BuildError(f"{name} (a requirement of the bundle) is not installed on the build host, so it "
                             f"cannot be pinned; pip install {name}") from e
        lines.append(f"{name}=={version}" + (f"; {marker}" if marker else ""))
    return "\n".join(lines) + "\n"


def render(template: str, **values: object) -> str:
    """A template from bb_edge/templates with ``@KEY@`` placeholders filled."""
    text = (TEMPLATES / template).read_text()
    for k, v in values.items():
        text = text.replace(f"@{k}@", str(v))
    return text


def write_text(path: Path, text: str, executable: bool = False) -> Path:
    """Write a bundle file (creating directories), optionally chmod +x."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if executable:
        path.chmod(0o755)
    return path


def io_contract(nb: NodeBuild) -> dict[str, list[dict[str, Any]]]:
    """The node's compute inputs/outputs (name, dtype, shape) for manifests and message mapping."""
    def vi(v: onnx.ValueInfoProto) -> dict[str, Any]:
        tt = v.type.tensor_type
        return {"name": v.name, "dtype": str(onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type)),
                "shape": [d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim]}
    inits = {t.name for t in nb.compute.graph.initializer}
    return {"inputs": [vi(v) for v in nb.compute.graph.input if v.name not in inits],
            "outputs": [vi(v) for v in nb.compute.graph.output]}


def write_manifest(req: BuildRequest, nb: NodeBuild, artifacts: dict[str, Path], **extra: Any) -> Path:
    """``manifest.json``: node, target, precision, artifacts with sizes, accuracy, I/O, extras."""
    out = req.out_dir
    prof = req.profile
    data: dict[str, Any] = {
        "format": "bb-edge/bundle", "version": 1,
        "deployment": nb.deployment.name, "node": nb.node, "node_id": nb.deployment.node(nb.node).id,
        "target": prof.name, "builder": prof.builder, "runtime": prof.runtime, "arch": prof.arch,
        "precision": nb.precision, "calibration": nb.calibration,
        "execution_providers": prof.get("execution_providers", ["CPUExecutionProvider"]),
        "transport": str(req.options.get("transport") or default_transport(prof.get("transport", "mqtt"))),
        "memory_bytes": nb.memory_bytes, "ram_bytes": prof.ram_bytes,
        "artifacts": {k: {"path": str(p.relative_to(out)) if p.is_relative_to(out) else str(p),
                          "bytes": p.stat().st_size if p.is_file() else None}
                      for k, p in artifacts.items()},
        "accuracy": nb.accuracy.to_json() if nb.accuracy else None,
        **io_contract(nb), **extra,
    }
    path = out / "manifest.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def default_transport(kind: str) -> str:
    """The transport URL a bundle's env file starts with, by profile ``transport`` kind."""
    return {"mqtt": "mqtt://localhost:1883", "dds": "dds://0", "serial": "serial:///dev/ttyUSB0"}.get(kind, kind)


def figures(nb: NodeBuild, artifacts: dict[str, Path]) -> dict[str, Any]:
    """Figures for the build report (sizes, precision, accuracy, memory)."""
    return {
        "precision": nb.precision,
        "calibration": nb.calibration,
        "float_bytes": nb.compute.ByteSize(),
        "sizes": {k: p.stat().st_size for k, p in artifacts.items() if p.is_file()},
        "accuracy": nb.accuracy.to_json() if nb.accuracy else None,
        "memory_bytes": nb.memory_bytes,
    }
