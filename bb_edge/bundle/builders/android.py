"""Builder ``android``: .pte (ExecuTorch, XNNPACK) and .ort (ORT mobile) artifacts plus a Gradle module.

Bundle layout::

    manifest.json
    model.pte                         ExecuTorch program (PT2E int8 when the precision is int8)
    model.ort, model.required_operators.config   ORT mobile model and its minimal-build op config
    bbedge-android/                   Gradle library module an app includes
      build.gradle
      src/main/AndroidManifest.xml
      src/main/java/org/bbedge/{BbWire,BbNode}.java      JNI binding
      src/main/cpp/{CMakeLists.txt,bbedge_jni.c,bbrt/}     C runtime (envelope, framing, node loop)
      src/main/assets/{model.pte,model.ort,manifest.json}
      src/test/java/org/bbedge/BbWireTest.java             host-JVM test over golden vectors
      src/test/java/org/bbedge/BbNodeTest.java             host-JVM test of the node loop (.bbrt program)
"""

from __future__ import annotations

import importlib.metadata
import shutil
from pathlib import Path
from typing import Any

import onnx

from bb_edge.bundle import BuildError, BuildRequest, BuildResult
from bb_edge.bundle.artifacts import TEMPLATES, figures, prepare_node, render, write_manifest, write_ort, write_text
from bb_edge.convert.pte import PteExportError, export_pte
from bb_edge.errors import UnsupportedOpError


def _version(pkg: str, default: str) -> str:
    try:
        return importlib.metadata.version(pkg).split("+")[0]
    except importlib.metadata.PackageNotFoundError:
        return default


def write_gradle_module(out: Path, node: str, deployment: str, abi: str, min_sdk: int) -> Path:
    """The Gradle module skeleton with the JNI binding and the bbrt C sources."""
    from bb_edge.bbrt.native import firmware_dir

    fw = firmware_dir()
    if not (fw / "include" / "bbrt.h").is_file():
        raise BuildError(f"bbrt C sources not found at {fw}; set BB_EDGE_FIRMWARE to the firmware/ directory")
    mod = out / "bbedge-android"
    values = {"NODE": node, "DEPLOYMENT": deployment, "ABI": abi, "MIN_SDK": min_sdk,
              "EXECUTORCH_VERSION": _version("executorch", "1.0.0"), "ORT_VERSION": _version("onnxruntime", "1.20.0")}
    write_text(mod / "build.gradle", render("android_build.gradle", **values))
    write_text(mod / "src/main/AndroidManifest.xml", render("android_AndroidManifest.xml", **values))
    java = mod / "src/main/java/org/bbedge"
    java.mkdir(parents=True)
    for f in ("BbWire.java", "BbNode.java"):
        shutil.copy(TEMPLATES / f, java / f)
    (mod / "src/test/java/org/bbedge").mkdir(parents=True)
    for f in ("BbWireTest.java", "BbNodeTest.java"):
        shutil.copy(TEMPLATES / f, mod / "src/test/java/org/bbedge" / f)
    cpp = mod / "src/main/cpp"
    (cpp / "bbrt").mkdir(parents=True)
    shutil.copy(TEMPLATES / "bbedge_jni.c", cpp / "bbedge_jni.c")
    shutil.copy(TEMPLATES / "android_CMakeLists.txt", cpp / "CMakeLists.txt")
    for hdr in sorted((fw / "include").glob("*.h")):  # bbrt.h and the headers it pulls in (bbrt_link.h)
        shutil.copy(hdr, cpp / "bbrt" / hdr.name)
    for src in sorted((fw / "src").iterdir()):
        if src.suffix in (".c", ".h"):
            shutil.copy(src, cpp / "bbrt" / src.name)
    return mod


class NodeNotLowerableError(UnsupportedOpError):
    """A node's ops cannot be lowered to ExecuTorch; build it with ONNX Runtime mobile instead."""

    fix = "build that node with ONNX Runtime mobile: bb-edge build ... --node-backend NODE=ort"


def node_backend(request: BuildRequest) -> str:
    """The backend this node's bundle computes with: ``--node-backend NODE=B`` or the profile's."""
    chosen = dict(request.options.get("node_backend") or {}).get(request.node)
    return str(chosen or request.profile.get("backend", "executorch"))


def _pte(request: BuildRequest, compute: onnx.ModelProto, int8: bool, samples: Any) -> bytes:
    """The .pte bytes, or a typed error naming every op that cannot be lowered and the per-node fix."""
    from bb_edge.convert.onnx_torch import unsupported_ops

    node = request.node
    hint = (f"build node {node} with ONNX Runtime mobile instead: --node-backend {node}=ort "
            f"(its bundle then has model.ort only), or place those ops on another node")
    bad = unsupported_ops(compute)
    if bad:
        ops = sorted({op for op, _ in bad})
        where = ", ".join(f"{op} at {name!r}" for op, name in bad[:8]) + (" ..." if len(bad) > 8 else "")
        raise NodeNotLowerableError(f"node {node}: ExecuTorch cannot lower op(s) {', '.join(ops)} ({where}); {hint}")
    try:
        return export_pte(compute, int8=int8, samples=samples)
    except (UnsupportedOpError, PteExportError) as exc:
        raise NodeNotLowerableError(f"node {node}: {exc}; {hint}") from exc


def build(request: BuildRequest) -> BuildResult:
    """Build an android bundle (see module docstring)."""
    nb = prepare_node(request)
    out = request.out_dir
    prof = request.profile
    arts: dict[str, Path] = {}
    backend = node_backend(request)
    if backend not in ("executorch", "ort"):
        raise BuildError(f"--node-backend {request.node}={backend}: android bundles compute with executorch or ort")
    if backend == "executorch":
        pte = out / "model.pte"
        pte.write_bytes(_pte(request, nb.compute if nb.precision == "int8" else nb.q_compute,
                             nb.precision == "int8", nb.samples))
        arts["pte"] = pte
    arts["ort"], arts["ort_config"] = write_ort(nb.q_compute, out / "model.ort")
    mod = write_gradle_module(out, nb.node, nb.deployment.name, prof.get("android_abi", "arm64-v8a"),
                              int(prof.get("min_sdk", 26)))
    arts["gradle_module"] = mod / "build.gradle"
    arts["manifest"] = write_manifest(request, nb, arts, pte_inputs=[i.name for i in nb.compute.graph.input],
                                      pte_outputs=[o.name for o in nb.compute.graph.output], backend=backend)
    assets = mod / "src/main/assets"
    assets.mkdir(parents=True)
    for k in [k for k in ("pte", "ort", "manifest") if k in arts]:
        shutil.copy(arts[k], assets / arts[k].name)
    return BuildResult(nb.node, prof.name, out, arts, figures(nb, arts))
