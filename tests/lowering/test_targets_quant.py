"""int8 static QDQ on a digits classifier trained here; typed errors for bad builds."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto

from bb_edge.bundle.artifacts import NodeMemoryError
from bb_edge.bundle.build import build_all
from bb_edge.compiler import compile_model
from bb_edge.errors import BuildError, UnsupportedOpError
from bb_edge.quant import AccuracyDropError, CalibrationShapeError
from bb_edge.targets import UnknownTargetError
from tests.support.digits import digits_model

ROOT_PROFILES = Path(__file__).resolve().parents[2] / "bb_edge" / "target_profiles"


@pytest.fixture(scope="module")
def digits(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    d = tmp_path_factory.mktemp("digits")
    m, calib, Xte, yte = digits_model()
    onnx.save(m, str(d / "mlp.onnx"))
    compile_model(str(d / "mlp.onnx"), nodes=1, out_dir=d / "one")
    compile_model(str(d / "mlp.onnx"), cuts=["h0"], out_dir=d / "two")
    np.savez(d / "calib.npz", x=calib)
    return {"dir": d, "model": m, "Xte": Xte, "yte": yte}


def accuracy(model: onnx.ModelProto, X: np.ndarray, y: np.ndarray) -> float:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    pred = [int(sess.run(None, {"x": X[i:i + 1]})[0].argmax()) for i in range(len(X))]
    return float(np.mean(np.array(pred) == y))


def test_int8_static_digits_top1_within_one_point_and_small(digits: dict, tmp_path: Path) -> None:
    d: Path = digits["dir"]  # type: ignore[assignment]
    res = build_all(d / "one", ["linux-vm-x86_64"], tmp_path / "dist", calib=d / "calib.npz",
                    options={"precision": "int8", "max_accuracy_drop": 0.05})
    b = res[0].out_dir
    q = onnx.load(str(b / "model.int8.onnx"))
    assert any(n.op_type == "QuantizeLinear" for n in q.graph.node)
    assert q.graph.input[0].type.tensor_type.elem_type == TensorProto.FLOAT  # float I/O on the wire
    f_acc = accuracy(digits["model"], digits["Xte"], digits["yte"])  # type: ignore[arg-type]
    q_acc = accuracy(q, digits["Xte"], digits["yte"])  # type: ignore[arg-type]
    ratio = (b / "model.int8.onnx").stat().st_size / digits["model"].ByteSize()  # type: ignore[attr-defined]
    print(f"digits float top-1 {f_acc:.4f} int8 {q_acc:.4f} size ratio {ratio:.3f}")
    assert f_acc > 0.9
    assert q_acc >= f_acc - 0.01
    assert ratio <= 0.3
    man = json.loads((b / "manifest.json").read_text())
    assert man["accuracy"]["top1_agreement"] >= 0.95 and man["precision"] == "int8"
    assert man["calibration"].endswith("calib.npz")


def test_fp16_and_dynamic_variants_keep_float_io(digits: dict, tmp_path: Path) -> None:
    d: Path = digits["dir"]  # type: ignore[assignment]
    for prec in ("fp16", "int8-dynamic"):
        res = build_all(d / "two", ["linux-vm-arm64"], tmp_path / prec, calib=d / "calib.npz",
                        options={"precision": prec})
        for r in res:
            m = onnx.load(str(r.out_dir / f"model.{prec}.onnx"))
            assert all(v.type.tensor_type.elem_type == TensorProto.FLOAT for v in [*m.graph.input, *m.graph.output])
            assert r.figures["accuracy"]["rel_max_error"] < 0.05


def test_max_accuracy_drop_names_node_and_figure(digits: dict, tmp_path: Path) -> None:
    d: Path = digits["dir"]  # type: ignore[assignment]
    with pytest.raises(AccuracyDropError) as ei:
        build_all(d / "two", ["linux-vm-x86_64"], tmp_path / "dist", calib=d / "calib.npz",
                  options={"precision": "int8", "max_accuracy_drop": 0.0})
    assert "node 'n0'" in str(ei.value) and "relative max error" in str(ei.value)
    assert not (tmp_path / "dist" / "n0").exists()
    assert not [p for p in (tmp_path / "dist").iterdir() if p.name.startswith(".")]


def test_bad_inputs_give_typed_errors_with_fixes(digits: dict, tmp_path: Path) -> None:
    d: Path = digits["dir"]  # type: ignore[assignment]
    np.savez(tmp_path / "bad.npz", x=np.zeros((5, 63), np.float32))
    with pytest.raises(CalibrationShapeError, match=r"\[1, 64\]"):
        build_all(d / "one", ["linux-vm-x86_64"], tmp_path / "a", calib=tmp_path / "bad.npz",
                  options={"precision": "int8"})
    with pytest.raises(UnknownTargetError, match="jetson-orin-nano"):
        build_all(d / "one", ["jetson-orin-nan"], tmp_path / "b")
    prof_dir = tmp_path / "profiles"
    prof_dir.mkdir()
    tiny = json.loads((ROOT_PROFILES / "linux-vm-arm64.json").read_text())
    tiny.update(name="tiny-vm", ram_bytes=1 << 20)
    (prof_dir / "tiny-vm.json").write_text(json.dumps(tiny))
    import os
    os.environ["BB_EDGE_TARGETS"] = str(prof_dir)
    try:
        with pytest.raises(NodeMemoryError, match="split the model"):
            build_all(d / "one", ["tiny-vm"], tmp_path / "c")
    finally:
        del os.environ["BB_EDGE_TARGETS"]
    assert not (tmp_path / "c" / "n0").exists()
    # an op the target's backend lacks: Bernoulli runs on ONNX Runtime but not in the ExecuTorch converter
    # (shape-preserving, so the graph stays valid); the refusal names it and the per-node way out
    m = onnx.load(str(d / "mlp.onnx"))
    m.graph.node[1].op_type = "Bernoulli"
    compile_model(m, nodes=1, out_dir=tmp_path / "erf")
    with pytest.raises(UnsupportedOpError, match=r"cannot lower op\(s\) Bernoulli.*--node-backend n0=ort"):
        build_all(tmp_path / "erf", ["android-arm64"], tmp_path / "e")
    assert not (tmp_path / "e" / "n0").exists()
    assert issubclass(CalibrationShapeError, BuildError)


def test_cli_build_writes_report_and_lists_targets(digits: dict, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from bb_edge.cli import main

    d: Path = digits["dir"]  # type: ignore[assignment]
    from bb_edge.targets import list_targets, load_target

    assert main(["targets"]) == 0
    assert "target profiles" in capsys.readouterr().out
    for t in ("linux-vm-x86_64", "linux-vm-arm64", "jetson-orin-nano", "jetson-agx-orin", "ros2-humble",
              "ros2-jazzy", "android-arm64", "esp32"):
        p = load_target(t)
        assert t in list_targets() and p.summary and p.get("execution_providers") is not None or p.runtime == "bbrt"
        assert p.ram_bytes > 0 and p.get("packaging") and p.get("transport")
    assert main(["build", str(d / "two"), "--target", "n0=jetson-agx-orin", "--target", "n1=linux-vm-x86_64",
                 "--calib", str(d / "calib.npz"), "--transport", "mqtt://broker.lan:1883",
                 "-o", str(tmp_path / "dist")]) == 0
    md = (tmp_path / "dist" / "build-report.md").read_text()
    assert "| n0 | jetson-agx-orin | int8 | `onnx.int8` |" in md and "| n1 | linux-vm-x86_64 |" in md
    assert (tmp_path / "dist" / "build-report.png").stat().st_size > 1000
    assert "BB_TRANSPORT=mqtt://broker.lan:1883" in (tmp_path / "dist" / "n1" / "node.env").read_text()
