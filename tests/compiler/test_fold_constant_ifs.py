"""Issue 26, fold after pinning: an If whose condition pinning makes constant is inlined by compile.

Oracle: one ONNX Runtime session over the model as exported (dynamic dims, no bb-edge folding). The
production case is Silero VAD v6 (pinned wheel), whose batch-size checks are Ifs on Shape values: compiled
from the command line as a user would, no If is left, every segment's inputs have declared static shapes,
and the split is bit-exact through ORT and within float32 tolerance through onnx.reference (ExecuTorch on
the split: BB_EDGE_LONG=1, the export takes minutes).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.bundle.artifacts import TOLERANCE
from bb_edge.compiler import load_model
from bb_edge.deployment.manifest import load_deployment
from bb_edge.errors import InputValueError
from tests.support.production_models import fetch_wheel_models

LONG = os.environ.get("BB_EDGE_LONG") == "1"


def _ort(model: onnx.ModelProto, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
    so = ort.SessionOptions()
    so.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feed)


def _batch_checked() -> onnx.ModelProto:
    """``y = x + 1`` if x's batch is 1 else ``x * 2``; the taken branch holds an If on ``flag`` (decided at
    run time) whose branches read a value the outer branch computes (renamed when inlined)."""
    inner_then = h.make_graph([h.make_node("Mul", ["t", "t"], ["u"])], "inner_then", [],
                              [h.make_tensor_value_info("u", T.FLOAT, ["N", 4])])
    inner_else = h.make_graph([h.make_node("Neg", ["t"], ["u2"])], "inner_else", [],
                              [h.make_tensor_value_info("u2", T.FLOAT, ["N", 4])])
    then = h.make_graph(
        [h.make_node("Add", ["x", "one"], ["t"]),
         h.make_node("If", ["flag"], ["v"], then_branch=inner_then, else_branch=inner_else, name="inner")],
        "then", [], [h.make_tensor_value_info("v", T.FLOAT, ["N", 4])])
    other = h.make_graph([h.make_node("Mul", ["x", "two"], ["w"])], "else", [],
                         [h.make_tensor_value_info("w", T.FLOAT, ["N", 4])])
    g = h.make_graph(
        [h.make_node("Shape", ["x"], ["s"]),
         h.make_node("Gather", ["s", "zero"], ["b"], axis=0),
         h.make_node("Equal", ["b", "one_i"], ["c"]),
         h.make_node("If", ["c"], ["y0"], then_branch=then, else_branch=other, name="batch_check"),
         h.make_node("Relu", ["y0"], ["y"])],
        "batch_checked",
        [h.make_tensor_value_info("x", T.FLOAT, ["N", 4]), h.make_tensor_value_info("flag", T.BOOL, [])],
        [h.make_tensor_value_info("y", T.FLOAT, ["N", 4])],
        [nh.from_array(np.array(0, np.int64), "zero"), nh.from_array(np.array(1, np.int64), "one_i"),
         nh.from_array(np.array(1.0, np.float32), "one"), nh.from_array(np.array(2.0, np.float32), "two")])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


def test_constant_condition_if_is_inlined_after_pinning_bit_exact() -> None:
    src = _batch_checked()
    loaded = load_model(src, {"x": [1, 4]})
    ifs = [n for n in loaded.graph.node if n.op_type == "If"]
    assert [n.name for n in ifs] == ["batch_check/inner"]  # the outer check folded; the run-time If stays
    assert not {"Shape", "Gather", "Equal"} & {n.op_type for n in loaded.graph.node}
    x = np.array([[-1.5, 0.25, 3.0, -0.5]], np.float32)
    for flag in (True, False):
        feed = {"x": x, "flag": np.array(flag)}
        (want,), (got,) = _ort(src, feed), _ort(loaded, feed)
        assert got.shape == want.shape and got.tobytes() == want.tobytes(), flag
    # unpinned, the batch is not known and the If stays
    assert "batch_check" in {n.name for n in load_model(src).graph.node}


def test_cli_compile_of_silero_vad_folds_its_batch_checks(tmp_path: Path) -> None:
    path = fetch_wheel_models("silero-vad", "6.2.3") / "silero_vad_16k_op15.onnx"
    out = tmp_path / "build"
    r = subprocess.run([sys.executable, "-m", "bb_edge.cli", "compile", str(path), "--nodes", "2",
                        "--input-shape", "input=1,512", "--input-shape", "state=2,1,128", "-o", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    dep = load_deployment(out)
    programs = {s.name: onnx.load(str(out / s.program)) for s in dep.nodes}
    assert len(programs) == 2
    for name, p in programs.items():
        assert "If" not in {n.op_type for n in p.graph.node}, name  # was 3 Ifs before folding them
        assert "Constant" not in {n.op_type for n in p.graph.node}, name  # the branches' Constants folded too
        for vi in p.graph.input:  # every segment input (graph input or received edge) has a static shape
            tt = vi.type.tensor_type
            assert tt.HasField("shape") and all(d.HasField("dim_value") for d in tt.shape.dim), (name, vi.name)
    rng = np.random.default_rng(0)
    x = {"input": (0.1 * rng.standard_normal((1, 512))).astype(np.float32),
         "state": (0.1 * rng.standard_normal((2, 1, 128))).astype(np.float32), "sr": np.array(16000, np.int64)}
    raw = onnx.load(str(path))
    ref = dict(zip([o.name for o in raw.graph.output], _ort(raw, x), strict=True))
    backends = ["ort", "reference"] + (["executorch"] if LONG else [])
    for backend in backends:
        got = InProcFleet(dep, programs, backend=backend).infer(x)
        for k, v in ref.items():
            assert got[k].shape == v.shape, (backend, k)
            if backend == "ort":
                assert got[k].tobytes() == v.tobytes(), (backend, k)  # bit for bit
            else:
                err = float(np.abs(got[k].astype(np.float64) - v).max() / max(float(np.abs(v).max()), 1e-30))
                assert err <= TOLERANCE["fp32"], (backend, k, err)


@pytest.mark.parametrize("file", ["silero_vad_op18_ifless.onnx", "silero_vad.onnx"])
def test_input_value_freezes_silero_sample_rate_so_its_run_time_if_folds(tmp_path: Path, file: str) -> None:
    """silero_vad_op18_ifless is one If on ``sr == 16000`` holding the whole model, silero_vad.onnx's If on sr
    holds an 8 kHz branch that fails at 512 samples (ExecuTorch refuses it): with sr frozen both split."""
    path = fetch_wheel_models("silero-vad", "6.2.3") / file
    out = tmp_path / "build"
    r = subprocess.run([sys.executable, "-m", "bb_edge.cli", "compile", str(path), "--nodes", "2",
                        "--input-shape", "input=1,512", "--input-shape", "state=2,1,128",
                        "--input-value", "sr=16000", "-o", str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    dep = load_deployment(out)
    programs = {s.name: onnx.load(str(out / s.program)) for s in dep.nodes}
    assert all(len(p.graph.node) > 5 and "If" not in {n.op_type for n in p.graph.node} for p in programs.values())
    assert {i.name for i in dep.inputs} == {"input", "state"}  # sr is no longer fed
    rng = np.random.default_rng(1)
    x = {"input": (0.1 * rng.standard_normal((1, 512))).astype(np.float32),
         "state": (0.1 * rng.standard_normal((2, 1, 128))).astype(np.float32)}
    raw = onnx.load(str(path))
    ref = _ort(raw, {**x, "sr": np.array(16000, np.int64)})
    got = InProcFleet(dep, programs).infer(x)
    for o, v in zip([o.name for o in raw.graph.output], ref, strict=True):
        assert got[o].shape == v.shape and got[o].tobytes() == v.tobytes(), o  # bit for bit
    if LONG:  # the same split as ExecuTorch programs
        got = InProcFleet(dep, programs, backend="executorch").infer(x)
        for o, v in zip([o.name for o in raw.graph.output], ref, strict=True):
            err = float(np.abs(got[o].astype(np.float64) - v).max() / max(float(np.abs(v).max()), 1e-30))
            assert err <= TOLERANCE["fp32"], (o, err)


def test_input_value_errors_are_typed() -> None:
    src = _batch_checked()
    bad = {"nope": (["1"], "no graph input 'nope'"), "flag": (["maybe"], "not a boolean"),
           "x": (["1.0"], r"x has no static shape")}
    for name, (texts, msg) in bad.items():
        with pytest.raises(InputValueError, match=msg):
            load_model(src, input_values={name: texts})
    with pytest.raises(InputValueError, match=r"shape \[1, 4\] \(4 elements\), --input-value gives 1"):
        load_model(src, {"x": [1, 4]}, {"x": ["1.0"]})
    # frozen flag: the run-time If folds too, and the value is the one ORT computes with flag fed
    frozen = load_model(src, {"x": [1, 4]}, {"flag": ["false"]})
    assert "If" not in {n.op_type for n in frozen.graph.node}
    x = np.array([[-1.5, 0.25, 3.0, -0.5]], np.float32)
    (want,), (got,) = _ort(src, {"x": x, "flag": np.array(False)}), _ort(frozen, {"x": x})
    assert got.tobytes() == want.tobytes()


def test_cli_input_value_error_is_one_line_with_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    onnx.save(_batch_checked(), str(path))
    r = subprocess.run([sys.executable, "-m", "bb_edge.cli", "compile", str(path), "--nodes", "1",
                        "--input-value", "rate=3", "-o", str(tmp_path / "out")], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "InputValueError" in r.stderr and "no graph input 'rate' (inputs: x, flag)" in r.stderr, r.stderr
    assert "e.g. --input-value sr=16000" in r.stderr  # the fix
