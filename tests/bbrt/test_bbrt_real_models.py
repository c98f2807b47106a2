"""A recurrent tagger's C-runtime node through the CLI (`bb-edge compile`, `bb-edge build --target n1=host`).

The GRU tagger of test_real_model_paths.py (int64 ids -> embedding -> bidirectional GRU -> Transpose ->
Reshape -> MatMul), pinned to 6 steps and cut after the embedding: n1 (GRU, Transpose, Reshape, MatMul)
is built for the host C runtime in float32 and in int8 (the GRU float32 between QUANTIZE/DEQUANTIZE),
run as a real bbrt-host process behind an in-process n0, and compared with one ORT session of the model.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from bb_edge.adapters.devices.serial_devices import HostDevice
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.bbrt.format import Op, parse
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower_node import lower_node
from bb_edge.cli import main as cli
from bb_edge.compiler import compile_model
from bb_edge.deployment.manifest import load_deployment
from bb_edge.deployment.ports import compute_model
from bb_edge.quant import check_accuracy, quantize_program
from bb_edge.quant.calib import fleet_tensors
from tests.support.production_models import load_case
from tests.support.zoo_models import gru_tagger


@pytest.mark.parametrize("precision", ["fp32", "int8"])
def test_gru_tagger_c_node_built_by_the_cli_matches_ort(precision: str, tmp_path: Path) -> None:
    model = gru_tagger()
    onnx.save(model, tmp_path / "tagger.onnx")
    c, dist = tmp_path / "c", tmp_path / "dist"
    assert cli(["compile", str(tmp_path / "tagger.onnx"), "--cut", "emb", "--input-shape", "ids=6,1",
                "-o", str(c)]) == 0
    rng = np.random.default_rng(11)
    ids = rng.integers(0, 50, (24, 6, 1)).astype(np.int64)
    np.savez(tmp_path / "calib.npz", ids=ids)
    assert cli(["build", str(c), "--target", "n1=host", "--precision", precision, "--calib",
                str(tmp_path / "calib.npz"), "-o", str(dist)]) == 0
    info = json.loads((dist / "n1" / "bbrt-build.json").read_text())
    prog = parse((dist / "n1" / "program.bbrt").read_bytes())
    codes = {op.opcode for op in prog.ops}
    assert {Op.GRU_F32, Op.TRANSPOSE} <= codes, info
    dep_dir = dist / "_deployment" if (dist / "_deployment").is_dir() else c
    dep = load_deployment(dep_dir)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    dev = HostDevice(dist / "n1" / "bbrt-host", dist / "n1" / "program.bbrt", dep.ids()["n1"]).start()
    try:
        fleet = InProcFleet(dep, external={"n1": dev})
        worst = 0.0
        for row in ids[:4]:
            got, ref = fleet.infer({"ids": row})["tags"], sess.run(["tags"], {"ids": row})[0]
            assert got.shape == ref.shape
            worst = max(worst, float(np.abs(got - ref).max()) / float(np.abs(ref).max()))
        assert not dev.errors
    finally:
        dev.stop()
    # float32: the C kernels' rounding only; int8: the int8 edge, the int8 MatMul and its input's rounding
    print(f"gru-tagger n1 on bbrt-host, {precision}: worst relative error vs ORT {worst:.1e}")
    assert worst <= (1e-5 if precision == "fp32" else 0.03), worst


def test_a_micropython_build_of_the_gru_node_is_refused_at_build_time(tmp_path: Path) -> None:
    """The MicroPython executor has no GRU kernel: `build` names it (not the TRANSPOSE, which bbnode runs), the
    device never sees it."""
    onnx.save(gru_tagger(), tmp_path / "tagger.onnx")
    c = tmp_path / "c"
    assert cli(["compile", str(tmp_path / "tagger.onnx"), "--cut", "emb", "--input-shape", "ids=6,1",
                "-o", str(c)]) == 0
    from bb_edge.bundle.build import build_all
    from bb_edge.errors import BuildError

    with pytest.raises(BuildError, match=r"bigru:0 \(GRU_F32\)") as e:
        build_all(c, ["n1=esp32-micropython"], tmp_path / "dist", options={"precision": "fp32"})
    assert "TRANSPOSE" not in str(e.value)


@pytest.mark.parametrize("name", ["ocr-cls", "ocr-rec"])
def test_paddleocr_first_node_runs_float32_on_the_c_runtime(name: str) -> None:
    """PaddleOCR's classifier and recognizer (pinned wheel), split in two: the first node (Conv, BatchNormalization,
    hard-swish as Add/Clip/Mul/Div, HardSigmoid, GlobalAveragePool) lowers float32 and matches the float fleet."""
    model, x = load_case(name)
    dep, programs = compile_model(model, nodes=2)
    values = fleet_tensors(dep, [x], programs)[0]
    L = lower_node(dep, "n0", precision="fp32", samples=[x], programs=programs)
    cm = compute_model(programs["n0"])
    assert any(n.op_type == "BatchNormalization" for n in cm.graph.node)
    h = HostProgram(L.blob, L.program)
    h.run({L.float_index[i.name]: values[i.name] for i in cm.graph.input})
    for o in cm.graph.output:
        got, ref = h.view(L.float_index[o.name]).reshape(values[o.name].shape), values[o.name]
        rel = float(np.abs(got - ref).max() / np.abs(ref).max())
        print(f"{name} n0 ({len(cm.graph.node)} ONNX ops) fp32 on bbrt: {rel:.1e} relative to ORT")
        assert rel <= 1e-5, rel
    # int8: every BatchNormalization folded into its Conv, hard-swish's Div and HardSigmoid as tables; the error
    # is int8's on this network (MobileNet-style blocks): no worse than ONNX Runtime's own static int8 of the node
    Lq = lower_node(dep, "n0", precision="int8", samples=[x], programs=programs)
    assert not {Op.MUL_F32, Op.ADD_F32} & Lq.ops_used  # no standalone BatchNormalization left
    hq = HostProgram(Lq.blob, Lq.program)
    hq.run({Lq.float_index[i.name]: values[i.name] for i in cm.graph.input})
    sample = [{i.name: values[i.name] for i in cm.graph.input}]
    ort_int8 = check_accuracy(cm, quantize_program(programs["n0"], "int8", sample)[1], sample, "int8",
                              set()).rel_max_error
    for o in cm.graph.output:
        got, ref = hq.view(Lq.float_index[o.name]).reshape(values[o.name].shape), values[o.name]
        rel = float(np.abs(got - ref).max() / np.abs(ref).max())
        print(f"{name} n0 int8 on bbrt: {rel:.1e} relative to ORT float (ORT's static int8: {ort_int8:.1e})")
        assert rel <= 1.25 * ort_int8, (rel, ort_int8)
