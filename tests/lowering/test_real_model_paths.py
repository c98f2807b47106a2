"""Issue 26: int8 and fp16 paths on graphs shaped like exported models (integer inputs, Squeeze outputs).

Oracles: one ONNX Runtime session over the whole float model, and the quantized artifacts' own
accuracy figures against it. Each model is a real architecture in miniature built with onnx.helper
(a GPT block with int64 tokens and a causal mask, a bidirectional GRU tagger over int64 ids).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from bb_edge.adapters.devices.measure import NOT_MEASURED, measure_bundle
from bb_edge.adapters.devices.serial_devices import HostDevice
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.bundle.build import build_all
from bb_edge.bundle.report import report_markdown
from bb_edge.compiler.compile import compile_model
from bb_edge.compiler.load import load_model
from bb_edge.deployment.manifest import load_deployment
from bb_edge.quant import PrecisionError, quantize_compute
from bb_edge.quant.quantize import fp16_block_list
from tests.support.zoo_models import ZOO_MODELS, embed_mlp


def _c(name: str, arr: object) -> onnx.TensorProto:
    return nh.from_array(np.asarray(arr), name)


def squeeze_tail(seed: int = 0) -> onnx.ModelProto:
    """x -> Gemm -> Relu -> Unsqueeze -> Mul | cut | Squeeze -> y: the consumer's output is a Squeeze of its Recv."""
    rng = np.random.default_rng(seed)
    g = h.make_graph([
        h.make_node("Gemm", ["x", "W", "B"], ["h"], name="fc", transB=1),
        h.make_node("Relu", ["h"], ["r"], name="act"),
        h.make_node("Unsqueeze", ["r", "ax"], ["u"], name="unsq"),
        h.make_node("Mul", ["u", "s"], ["m"], name="mul"),
        h.make_node("Squeeze", ["m", "ax"], ["y"], name="sq"),
    ], "squeeze_tail", [h.make_tensor_value_info("x", T.FLOAT, [1, 8])],
        [h.make_tensor_value_info("y", T.FLOAT, [1, 16])],
        [_c("W", rng.standard_normal((16, 8)).astype(np.float32)), _c("B", np.zeros(16, np.float32)),
         _c("ax", np.array([1], np.int64)), _c("s", np.array(2.0, np.float32))])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


def _ort(model: onnx.ModelProto, feed: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feed), strict=True))


@pytest.mark.parametrize("name", sorted(ZOO_MODELS))
@pytest.mark.parametrize("target", ["linux-vm-x86_64", "jetson-orin-nano"])
def test_integer_input_models_build_int8_and_fp16(name: str, target: str, tmp_path: Path) -> None:
    """int8 calibration keeps int64 inputs; fp16 (jetson) is valid and close; the report has a row per node."""
    make, pins = ZOO_MODELS[name]
    src = tmp_path / f"{name}.onnx"
    onnx.save(make(), src)
    compile_model(load_model(src, pins), nodes=2, out_dir=tmp_path / "c")
    opts: dict[str, object] = {"precision": "int8"} if target.startswith("linux") else {}
    results = build_all(tmp_path / "c", [target], tmp_path / "dist", options=opts)
    assert len(results) == 2
    for r in results:
        acc = r.figures.get("variants") or {r.figures["precision"]: r.figures["accuracy"]}
        for prec, a in acc.items():
            if prec == "fp16":
                assert a["rel_max_error"] < 0.01, (name, r.node, a)
        for key, path in r.artifacts.items():
            if path.suffix == ".onnx" and key != "program":
                onnx.checker.check_model(onnx.load(str(path)), full_check=True)
        lat = measure_bundle(r.artifacts, repeats=2)
        assert lat and all(isinstance(v, float) or v.startswith(NOT_MEASURED) for v in lat.values())
        r.figures["latency_ms"] = lat
    md = report_markdown(results)
    assert all(f"| {n} |" in md for n in ("n0", "n1"))


def test_fp16_keeps_float_casts_float32() -> None:
    """A Cast to float inside the graph stays float32; the converted model is valid and close to float."""
    rng = np.random.default_rng(3)
    g = h.make_graph([
        h.make_node("Shape", ["x"], ["sh"], name="shape"),
        h.make_node("Cast", ["sh"], ["shf"], name="cast_to_float", to=T.FLOAT),
        h.make_node("ReduceProd", ["shf"], ["n"], name="count", keepdims=0),
        h.make_node("Sqrt", ["n"], ["rn"], name="sqrt"),
        h.make_node("MatMul", ["x", "W"], ["y0"], name="mm"),
        h.make_node("Div", ["y0", "rn"], ["y"], name="div"),
    ], "casts", [h.make_tensor_value_info("x", T.FLOAT, ["b", 4])], [h.make_tensor_value_info("y", T.FLOAT, None)],
        [_c("W", rng.standard_normal((4, 3)).astype(np.float32))])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    assert {"cast_to_float"} <= fp16_block_list(m)
    q = quantize_compute(m, "fp16")
    onnx.checker.check_model(q, full_check=True)
    x = {"x": rng.standard_normal((2, 4)).astype(np.float32)}
    np.testing.assert_allclose(_ort(q, x)["y"], _ort(m, x)["y"], rtol=5e-3, atol=5e-3)
    assert next(n for n in q.graph.node if n.name == "cast_to_float").attribute[0].i == T.FLOAT


def test_fp16_that_cannot_be_made_valid_names_the_op() -> None:
    """A model ORT cannot load at all: PrecisionError naming the op, never a bare ORT error."""
    g = h.make_graph([h.make_node("Bad", ["x"], ["y"], name="strange", domain="my.domain")], "bad",
                     [h.make_tensor_value_info("x", T.FLOAT, [2])], [h.make_tensor_value_info("y", T.FLOAT, [2])])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("my.domain", 1)])
    with pytest.raises(PrecisionError, match=r"Bad \('strange'\)"):
        quantize_compute(m, "fp16")


def test_int8_host_node_whose_output_is_a_squeeze_of_a_received_tensor(tmp_path: Path) -> None:
    """The C-runtime node's graph output is a Squeeze of its Recv: it builds, and the fleet matches float."""
    model = squeeze_tail()
    compile_model(model, cuts=["m"], out_dir=tmp_path / "c")
    rng = np.random.default_rng(5)
    calib = rng.standard_normal((16, 8)).astype(np.float32)
    np.savez(tmp_path / "calib.npz", x=calib)
    results = build_all(tmp_path / "c", ["n1=host", "n0=linux-vm-x86_64"], tmp_path / "dist",
                        calib=tmp_path / "calib.npz")
    dep_dir = next(r.deployment_dir or tmp_path / "c" for r in results if r.node == "n1")
    dep = load_deployment(dep_dir)
    dist = tmp_path / "dist"
    (edge,) = dep.edges
    assert edge.quant is not None  # the edge into the C node is int8; its output y stays float32
    step = float(edge.quant["scale"])  # rounding on the int8 edge: at most half a step
    dev = HostDevice(dist / "n1" / "bbrt-host", dist / "n1" / "program.bbrt", dep.ids()["n1"]).start()
    try:
        fleet = InProcFleet(dep, external={"n1": dev})
        for row in calib[:3]:  # inside the calibrated range: the error is rounding only, no saturation
            x = {"x": row[None]}
            got, ref = fleet.infer(x)["y"], _ort(model, x)["y"]
            assert got.shape == ref.shape and float(np.abs(got - ref).max()) <= step, (got, ref)
        assert not dev.errors
    finally:
        dev.stop()


def test_int8_c_node_calibrates_behind_an_int64_input(tmp_path: Path) -> None:
    """The fleet's float calibration run feeds the int64 ids as int64; the C node's output matches float."""
    model = embed_mlp()
    compile_model(model, cuts=["e2"], out_dir=tmp_path / "c")
    rng = np.random.default_rng(6)
    ids = rng.integers(0, 20, (16, 1, 4)).astype(np.int64)
    np.savez(tmp_path / "calib.npz", ids=ids)
    results = build_all(tmp_path / "c", ["n1=host", "n0=linux-vm-x86_64"], tmp_path / "dist",
                        calib=tmp_path / "calib.npz")
    dep = load_deployment(next(r.deployment_dir or tmp_path / "c" for r in results if r.node == "n1"))
    (out,) = dep.outputs
    assert out.quant is not None
    dist = tmp_path / "dist"
    dev = HostDevice(dist / "n1" / "bbrt-host", dist / "n1" / "program.bbrt", dep.ids()["n1"]).start()
    try:
        fleet = InProcFleet(dep, external={"n1": dev})
        for row in ids[:3]:
            got, ref = fleet.infer({"ids": row})["y"], _ort(model, {"ids": row})["y"]
            assert float(np.abs(got - ref).max()) <= 0.1 * float(np.abs(ref).max()) + 2 * out.quant["scale"]
        assert not dev.errors
    finally:
        dev.stop()


def test_int8_c_node_that_takes_the_int64_ids_itself_runs_on_bbrt_host(tmp_path: Path) -> None:
    """`build --target n0=host`: the C-runtime node takes the int64 ids itself (GATHER on its int8 table; the
    edge from the host stays int64 on the wire) and the fleet matches ORT within int8 tolerance."""
    from bb_edge.cli import main as cli

    model = embed_mlp()
    onnx.save(model, tmp_path / "embed.onnx")
    c, dist = tmp_path / "c", tmp_path / "dist"
    assert cli(["compile", str(tmp_path / "embed.onnx"), "--cut", "e2", "-o", str(c)]) == 0
    assert cli(["build", str(c), "--target", "n0=host", "-o", str(dist)]) == 0
    dep = load_deployment(dist / "_deployment" if (dist / "_deployment").is_dir() else c)
    assert next(i for i in dep.inputs if i.name == "ids").dtype == "int64"
    from bb_edge.bbrt.format import DT_INT64, RECV, Op, parse

    prog = parse((dist / "n0" / "program.bbrt").read_bytes())
    assert Op.GATHER in {op.opcode for op in prog.ops}
    assert [e.elem_type for e in prog.edges if e.direction == RECV] == [DT_INT64]
    dev = HostDevice(dist / "n0" / "bbrt-host", dist / "n0" / "program.bbrt", dep.ids()["n0"]).start()
    try:
        fleet = InProcFleet(dep, external={"n0": dev})
        worst = 0.0
        for row in np.random.default_rng(8).integers(-20, 20, (4, 1, 4)).astype(np.int64):
            got, ref = fleet.infer({"ids": row})["y"], _ort(model, {"ids": row})["y"]
            worst = max(worst, float(np.abs(got - ref).max() / np.abs(ref).max()))
        assert not dev.errors
    finally:
        dev.stop()
    print(f"embed_mlp, n0 (int64 ids -> GATHER) on bbrt-host: relative error vs ORT {worst:.1e}")
    assert worst <= 0.05, worst
