"""Builder ``jetson``: the linux bundle plus fp16/int8 artifacts and a TensorRT > CUDA > CPU launcher.

On top of :mod:`bb_edge.bundle.builders.linux`: ``model.fp32.onnx``, ``model.fp16.onnx``
and ``model.int8.onnx`` (each checked against float, figures in the manifest),
``trt_cache/`` for TensorRT engines, and a launcher (``jetson_node.py``) that
asks ONNX Runtime for the profile's providers in order and, where CUDA or
TensorRT is absent, falls back to CPU and says so once.
"""

from __future__ import annotations

from pathlib import Path

from bb_edge.bundle import BuildRequest, BuildResult
from bb_edge.bundle.artifacts import (
    classifier_outputs,
    figures,
    prepare_node,
    render,
    write_manifest,
    write_onnx,
    write_program_dir,
    write_text,
)
from bb_edge.bundle.builders.linux import write_readme, write_service_files
from bb_edge.quant import check_accuracy, quantize_compute


def build(request: BuildRequest) -> BuildResult:
    """Build a jetson bundle (see module docstring)."""
    nb = prepare_node(request)
    out = request.out_dir
    prof = request.profile
    arts: dict[str, Path] = {"program": write_program_dir(nb, out) / nb.deployment.node(nb.node).program}
    variants: dict[str, dict[str, object]] = {}
    for prec in ["fp32", *prof.get("extra_precisions", ["fp16", "int8"])]:
        q = nb.q_compute if prec == nb.precision else quantize_compute(nb.compute, prec, nb.samples)
        arts[f"onnx.{prec}"] = write_onnx(q, out / f"model.{prec}.onnx")
        if prec != "fp32":
            acc = check_accuracy(nb.compute, q, nb.samples, prec, classifier_outputs(nb.deployment))
            variants[prec] = acc.to_json()
    if f"onnx.{nb.precision}" not in arts:
        arts[f"onnx.{nb.precision}"] = write_onnx(nb.q_compute, out / f"model.{nb.precision}.onnx")
    (out / "trt_cache").mkdir()
    write_text(out / "trt_cache" / "README", "TensorRT engine cache (filled on the first run on a Jetson)\n")
    providers = prof.get("execution_providers", ["CPUExecutionProvider"])
    arts["jetson_launcher"] = write_text(out / "jetson_node.py", render(
        "jetson_node.py.tmpl", NODE=nb.node, DEPLOYMENT=nb.deployment.name, PROVIDERS=" > ".join(providers)))
    arts.update(write_service_files(request, nb, '"$HERE/jetson_node.py"'))
    with (out / "node.env").open("a") as f:
        f.write("ORT_TENSORRT_ENGINE_CACHE_ENABLE=1\nORT_TENSORRT_CACHE_PATH=trt_cache\n"
                f"ORT_TENSORRT_FP16_ENABLE={1 if nb.precision == 'fp16' else 0}\n"
                f"ORT_TENSORRT_MAX_WORKSPACE_SIZE={prof.get('trt_workspace_bytes', 1 << 30)}\n")
    arts["manifest"] = write_manifest(request, nb, arts, variants=variants, trt_cache="trt_cache")
    arts["readme"] = write_readme(request, nb, arts)
    figs = figures(nb, arts)
    figs["variants"] = variants
    return BuildResult(nb.node, prof.name, out, arts, figs)
