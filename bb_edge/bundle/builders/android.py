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

from bb_edge.bundle import BuildError, BuildRequest, BuildResult
from bb_edge.bundle.artifacts import TEMPLATES, figures, prepare_node, render, write_manifest, write_ort, write_text
from bb_edge.convert.pte import export_pte


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


def build(request: BuildRequest) -> BuildResult:
    """Build an android bundle (see module docstring)."""
    nb = prepare_node(request)
    out = request.out_dir
    prof = request.profile
    arts: dict[str, Path] = {}
    pte = out / "model.pte"
    pte.write_bytes(export_pte(nb.compute if nb.precision == "int8" else nb.q_compute,
                               int8=nb.precision == "int8", samples=nb.samples))
    arts["pte"] = pte
    arts["ort"], arts["ort_config"] = write_ort(nb.q_compute, out / "model.ort")
    mod = write_gradle_module(out, nb.node, nb.deployment.name, prof.get("android_abi", "arm64-v8a"),
                              int(prof.get("min_sdk", 26)))
    arts["gradle_module"] = mod / "build.gradle"
    arts["manifest"] = write_manifest(request, nb, arts, pte_inputs=[i.name for i in nb.compute.graph.input],
                                      pte_outputs=[o.name for o in nb.compute.graph.output])
    assets = mod / "src/main/assets"
    assets.mkdir(parents=True)
    for k in ("pte", "ort", "manifest"):
        shutil.copy(arts[k], assets / arts[k].name)
    return BuildResult(nb.node, prof.name, out, arts, figures(nb, arts))
