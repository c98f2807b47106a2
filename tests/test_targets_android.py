"""android bundle: .pte runs under executorch.runtime and matches ONNX Runtime; .ort loads; the JNI binding
compiles with the host JDK's headers and gcc and a Java test on the host JVM gets the golden bytes back."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from bb_edge.commands.build import build_all
from bb_edge.compiler import compile_model, load_deployment
from bb_edge.compiler.program import compute_model
from tests.test_targets_quant import digits_model

VECTORS = Path(__file__).parent / "vectors"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("android")
    m, calib, _, _ = digits_model()
    compile_model(m, cuts=["h0"], out_dir=d / "comp")
    np.savez(d / "calib.npz", x=calib)
    build_all(d / "comp", ["n1=android-arm64"], d / "dist", calib=d / "calib.npz")
    return d / "comp", d / "dist" / "n1"


def test_pte_runs_under_executorch_runtime_and_matches_ort(bundle: tuple[Path, Path]) -> None:
    comp, b = bundle
    import torch
    from executorch.runtime import Runtime

    man = json.loads((b / "manifest.json").read_text())
    method = Runtime.get().load_program(str(b / "model.pte")).load_method("forward")
    compute = compute_model(load_deployment(comp).program("n1"))
    sess = ort.InferenceSession(compute.SerializeToString(), providers=["CPUExecutionProvider"])
    ort_mobile = ort.InferenceSession(str(b / "model.ort"), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(0)
    for _ in range(5):
        x = np.abs(rng.standard_normal((1, 384))).astype(np.float32)
        (ref,) = sess.run(None, {man["pte_inputs"][0]: x})
        (got,) = method.execute([torch.from_numpy(x)])
        np.testing.assert_allclose(got.numpy(), ref, atol=1e-5, rtol=1e-4)
        (mob,) = ort_mobile.run(None, {"h0": x})
        np.testing.assert_allclose(mob, ref, atol=1e-6, rtol=1e-5)
    cfg = (b / "model.required_operators.config").read_text()
    assert "Gemm" in cfg and "Softmax" in cfg
    assert (b / "bbedge-android/src/main/assets/model.pte").is_file()


def test_gradle_module_skeleton(bundle: tuple[Path, Path]) -> None:
    _, b = bundle
    mod = b / "bbedge-android"
    gradle = (mod / "build.gradle").read_text()
    assert "com.android.library" in gradle and "executorch-android" in gradle and "arm64-v8a" in gradle
    assert "add_library(bbedge SHARED" in (mod / "src/main/cpp/CMakeLists.txt").read_text()


def test_jni_binding_compiles_and_java_test_passes(bundle: tuple[Path, Path], tmp_path: Path) -> None:
    _, b = bundle
    mod = b / "bbedge-android"
    javac = Path(shutil.which("javac") or "javac").resolve()
    jdk = javac.parent.parent
    cpp = mod / "src/main/cpp"
    lib = tmp_path / "libbbedge.so"
    subprocess.run(["gcc", "-std=c11", "-O2", "-shared", "-fPIC", "-Wall", "-Werror", f"-I{jdk}/include",
                    f"-I{jdk}/include/linux", f"-I{cpp}/bbrt", str(cpp / "bbedge_jni.c"),
                    *map(str, sorted((cpp / "bbrt").glob("*.c"))), "-o", str(lib), "-lm"], check=True)
    classes = tmp_path / "classes"
    srcs = [*(mod / "src/main/java/org/bbedge").glob("*.java"), *(mod / "src/test/java/org/bbedge").glob("*.java")]
    subprocess.run([str(javac), "-d", str(classes), *map(str, srcs)], check=True)
    java = javac.parent / "java"
    r = subprocess.run([str(java), f"-Djava.library.path={tmp_path}", "-cp", str(classes), "org.bbedge.BbWireTest",
                        str(VECTORS)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    n = len(list(VECTORS.glob("*.bin")))
    assert f"OK {n} vectors" in r.stdout and "BAD_CRC" in r.stdout
