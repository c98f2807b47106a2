"""An android node whose ops ExecuTorch cannot lower: ``build`` names the ops before any conversion and
points at ``--node-backend NODE=ort``; with it the bundle computes with ONNX Runtime mobile (issue 26)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h

from bb_edge.compiler import compile_model, load_deployment
from bb_edge.deployment.ports import compute_model


def _lp_pool_model() -> onnx.ModelProto:
    """x -> Relu -> h0 -> GlobalLpPool -> y: the second node holds GlobalLpPool, an op the torch converter lacks."""
    g = h.make_graph([h.make_node("Relu", ["x"], ["h0"], name="relu"),
                      h.make_node("GlobalLpPool", ["h0"], ["y"], name="lpp", p=2)],
                     "lpp", [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 3])],
                     [h.make_tensor_value_info("y", T.FLOAT, [2, 3, 1])])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True, timeout=600)


def test_unlowerable_node_names_ops_and_node_backend_ort_builds(tmp_path: Path) -> None:
    compile_model(_lp_pool_model(), cuts=["h0"], out_dir=tmp_path / "comp")
    dist = tmp_path / "dist"
    bad = _cli("build", str(tmp_path / "comp"), "--target", "n1=android-arm64", "-o", str(dist), "--no-report")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    line = bad.stderr.strip().splitlines()[-1]
    assert "NodeNotLowerableError" in line and "GlobalLpPool at 'lpp'" in line and "--node-backend n1=ort" in line, line
    assert "Traceback" not in bad.stderr

    unknown = _cli("build", str(tmp_path / "comp"), "--target", "n1=android-arm64", "--node-backend", "n7=ort",
                   "-o", str(dist), "--no-report")
    assert unknown.returncode == 1 and "no node 'n7' is built" in unknown.stderr, unknown.stderr
    usage = _cli("build", str(tmp_path / "comp"), "--target", "n1=android-arm64", "--node-backend", "n1=tflite",
                 "-o", str(dist), "--no-report")
    assert usage.returncode == 2, usage.stderr

    ok = _cli("build", str(tmp_path / "comp"), "--target", "n1=android-arm64", "--node-backend", "n1=ort",
              "-o", str(dist), "--no-report")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    b = dist / "n1"
    man = json.loads((b / "manifest.json").read_text())
    assert man["backend"] == "ort" and "pte" not in man["artifacts"] and not (b / "model.pte").exists()
    assert (b / "bbedge-android/src/main/assets/model.ort").is_file()
    compute = compute_model(load_deployment(tmp_path / "comp").program("n1"))
    x = np.abs(np.random.default_rng(26).standard_normal((2, 3, 3))).astype(np.float32)
    (ref,) = ort.InferenceSession(compute.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"h0": x})
    (got,) = ort.InferenceSession(str(b / "model.ort"), providers=["CPUExecutionProvider"]).run(None, {"h0": x})
    np.testing.assert_allclose(got, ref, rtol=1e-6)
    np.testing.assert_allclose(ref, np.sqrt((x * x).sum(-1, keepdims=True)), rtol=1e-5)  # a hand case
