"""android bundle: .pte runs under executorch.runtime and matches ONNX Runtime; .ort loads; the JNI binding
compiles with the host JDK's headers and gcc and a Java test on the host JVM gets the golden bytes back (envelopes
and the link layer's frame bodies); the node
loop (BbNode) runs a real .bbrt program on the host JVM and sends the same bytes as the C posix build."""

from __future__ import annotations

import ctypes
import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from bb_edge.bbrt.host import aligned
from bb_edge.bbrt.lower_node import lower_node
from bb_edge.bbrt.native import load_host_library
from bb_edge.bundle.build import build_all
from bb_edge.compiler import compile_model, load_deployment
from bb_edge.deployment.ports import compute_model
from bb_edge.quant.calib import load_calibration
from bb_edge.wire import envelope as wire
from bb_edge.wire.framing import FrameDecoder, frame
from tests.support.digits import digits_model

VECTORS = Path(__file__).resolve().parents[1] / "vectors"


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


@pytest.fixture(scope="module")
def jvm(bundle: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """The JNI library (gcc + the JDK's headers) and the compiled Java classes: (java, libdir, classes)."""
    _, b = bundle
    mod = b / "bbedge-android"
    tmp = tmp_path_factory.mktemp("jvm")
    javac = Path(shutil.which("javac") or "javac").resolve()
    jdk = javac.parent.parent
    cpp = mod / "src/main/cpp"
    lib = tmp / "libbbedge.so"
    subprocess.run(["gcc", "-std=c11", "-O2", "-shared", "-fPIC", "-Wall", "-Werror", f"-I{jdk}/include",
                    f"-I{jdk}/include/linux", f"-I{cpp}/bbrt", str(cpp / "bbedge_jni.c"),
                    *map(str, sorted((cpp / "bbrt").glob("*.c"))), "-o", str(lib), "-lm"], check=True)
    classes = tmp / "classes"
    srcs = [*(mod / "src/main/java/org/bbedge").glob("*.java"), *(mod / "src/test/java/org/bbedge").glob("*.java")]
    subprocess.run([str(javac), "-d", str(classes), *map(str, srcs)], check=True)
    return javac.parent / "java", tmp, classes


def test_jni_binding_compiles_and_java_test_passes(jvm: tuple[Path, Path, Path]) -> None:
    java, libdir, classes = jvm
    r = subprocess.run([str(java), f"-Djava.library.path={libdir}", "-cp", str(classes), "org.bbedge.BbWireTest",
                        str(VECTORS)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    n = len(list(VECTORS.glob("*.bin")))
    assert f"OK {n} vectors" in r.stdout and "BAD_CRC" in r.stdout
    # the link layer's frame bodies (tests/vectors/link) get the same serial framing, byte for byte
    links = len(list((VECTORS / "link").glob("*.bin")))
    assert links >= 12 and f"OK {links} link frames" in r.stdout, r.stdout
    assert "corrupt link frame rejected" in r.stdout


def c_node_output(blob: bytes, arena_size: int, stream: bytes, chunk: int = 37) -> bytes:
    """The bytes the C runtime's posix build (pylib, bbrt_node_feed) sends for ``stream`` fed in chunks."""
    lib = load_host_library()
    buf = aligned(len(blob))
    buf[:] = np.frombuffer(blob, np.uint8)
    arena = aligned(max(8, arena_size))
    assert lib.bbrtpy_node_init(buf.ctypes.data, len(blob), arena.ctypes.data, len(arena)) == 0
    out = ctypes.create_string_buffer(1 << 20)
    got = b""
    for i in range(0, len(stream), chunk):
        part = stream[i:i + chunk]
        n = lib.bbrtpy_node_feed(part, len(part), out, len(out))
        assert n >= 0
        got += out.raw[:n]
    return got


def test_java_node_loop_matches_c_posix_build(bundle: tuple[Path, Path], jvm: tuple[Path, Path, Path],
                                              tmp_path: Path) -> None:
    """A real .bbrt program (node n1 lowered to int8) runs through BbNode on the host JVM: its output bytes equal
    the C posix build's for the same stream; PING -> PONG; a corrupt frame is counted and ignored."""
    comp, b = bundle
    java, libdir, classes = jvm
    dep = load_deployment(comp)
    samples = load_calibration(dep, comp.parent / "calib.npz", limit=None, static=True)
    assert samples  # the file's samples
    low = lower_node(dep, "n1", samples=samples)
    prog = tmp_path / "n1.bbrt"
    prog.write_bytes(low.blob)
    ids = dep.ids()
    edge = next(e for e in dep.edges if e.dst == "n1")
    rng = np.random.default_rng(4)
    xs = [np.abs(rng.standard_normal((1, 384))).astype(np.float32) for _ in range(3)]
    ping = wire.Envelope.for_bytes(b"", sender=ids["n0"], receiver=ids["n1"], seq=41, edge=2)  # CTRL_PING
    corrupt = bytearray(frame(wire.encode(wire.Envelope.for_array(xs[0], sender=ids["n0"], receiver=ids["n1"],
                                                                  seq=42, request_id=99, edge=edge.id))))
    corrupt[100] = corrupt[100] % 250 + 1  # a payload byte: CRC mismatch, the frame boundary stays
    stream = frame(wire.encode(ping)) + bytes(corrupt) + b"".join(
        frame(wire.encode(wire.Envelope.for_array(x, sender=ids["n0"], receiver=ids["n1"], seq=50 + i,
                                                  request_id=1000 + i, edge=edge.id)))
        for i, x in enumerate(xs))
    (tmp_path / "stream.bin").write_bytes(stream)
    out = tmp_path / "java.out"
    r = subprocess.run([str(java), f"-Djava.library.path={libdir}", "-cp", str(classes), "org.bbedge.BbNodeTest",
                        str(prog), str(max(8, low.program.arena_size)), str(tmp_path / "stream.bin"), str(out),
                        "41", str(ids["n0"]), str(len(xs))], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"NODE OK data={len(xs)} pongs=1 bad_frames=1 inferences={len(xs)}" in r.stdout, r.stdout
    got = out.read_bytes()
    assert got == c_node_output(low.blob, low.program.arena_size, stream)
    # the data envelopes carry the node's graph output to the host, close to the float program
    envs = [wire.decode(e) for e in FrameDecoder().feed(got)]
    data = [e for e in envs if e.kind == wire.KIND_DATA]
    assert [e.request_id for e in data] == [1000, 1001, 1002] and all(e.receiver == 0 for e in data)
    sess = ort.InferenceSession(compute_model(dep.program("n1")).SerializeToString(),
                                providers=["CPUExecutionProvider"])
    for x, e in zip(xs, data):
        (ref,) = sess.run(None, {"h0": x})
        val = e.array().astype(np.float32)
        if e.is_quantized:
            val = (e.array().astype(np.float32) - e.zero_point) * e.scale
        np.testing.assert_allclose(val.reshape(ref.shape), ref, atol=0.05)
