"""uint8 QDQ models (ONNX Runtime's quantize_static, QUInt8 activations) lower exactly to bbrt int8 (issue 29).

A uint8 value v with zero point z is the int8 value v - 128 with zero point z - 128
(bb_edge/bbrt/qdq_uint8.py). The oracle is ONNX Runtime on the QDQ model itself: the C runtime's
outputs must equal its outputs on every input (bit-exact; ONNX Runtime requantizes in float, TFLite-style
fixed point could differ by 1 LSB in a tie, none occurs on these inputs), on the host build for a float-I/O
model (the host quantizes/dequantizes at the wire with the model's boundary QuantizeLinear /
DequantizeLinear parameters) and for a uint8-I/O model (device edges int8, v - 128), and through
``bb-edge compile`` + ``bb-edge build`` on QEMU Cortex-M4 over serial. Per-axis activation scales are a
typed UnsupportedQuantPattern naming the node and the op.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

from bb_edge.adapters.devices.serial_devices import QemuDevice
from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.bbrt.format import RECV, SEND
from bb_edge.bbrt.host import HostProgram
from bb_edge.bbrt.lower import Lowered, lower
from bb_edge.bbrt.lower_qdq import UnsupportedQuantPattern
from bb_edge.bbrt.qdq_uint8 import from_device, to_device
from bb_edge.bundle.build import build_all
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.manifest import load_deployment
from bb_edge.engine.edgequant import dequantize_edge, quantize_edge

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
SHAPE = (1, 3, 8, 8)


class _Calib(CalibrationDataReader):
    def __init__(self, rng: np.random.Generator) -> None:
        self.it = iter([{"x": rng.normal(0, 1, SHAPE).astype(np.float32)} for _ in range(16)])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self.it, None)


@pytest.fixture(scope="module")
def qdq(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A conv + ReLU + flatten + fully connected float model, quantized static with uint8 activations."""
    d = tmp_path_factory.mktemp("u8")
    rng = np.random.default_rng(0)
    w1 = rng.normal(0, 0.3, (4, 3, 3, 3)).astype(np.float32)
    w2 = rng.normal(0, 0.1, (10, 256)).astype(np.float32)
    g = helper.make_graph([
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Flatten", ["r1"], ["f"], name="flat"),
        helper.make_node("Gemm", ["f", "w2", "b2"], ["y"], name="fc", transB=1),
    ], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(SHAPE))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(rng.normal(0, .1, 4).astype(np.float32), "b1"),
         numpy_helper.from_array(w2, "w2"), numpy_helper.from_array(rng.normal(0, .1, 10).astype(np.float32), "b2")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, str(d / "f.onnx"))
    quantize_static(str(d / "f.onnx"), str(d / "q.onnx"), _Calib(rng), quant_format=QuantFormat.QDQ,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True)
    return d / "q.onnx"


def _inputs(n: int, seed: int = 5) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, 1.5, (n, *SHAPE)).astype(np.float32)


def _host(L: Lowered, xs: list[np.ndarray]) -> list[np.ndarray]:
    hp = HostProgram(L.blob, L.program)
    rin = next(e.tensor for e in L.program.edges if e.direction == RECV)
    sout = next(e.tensor for e in L.program.edges if e.direction == SEND)
    outs = []
    for x in xs:
        hp.run({rin: x})
        outs.append(hp.view(sout).copy())
    return outs


def test_uint8_activations_lower_to_int8_equal_to_ort(qdq: Path) -> None:
    m = onnx.load(str(qdq))
    zps = {i.name: int(numpy_helper.to_array(i)) for i in m.graph.initializer if i.data_type == TensorProto.UINT8
           and not i.dims}
    assert zps["x_zero_point"] != 0  # really uint8 with a zero point (ORT picks it from the range)
    L = lower(m)
    assert L.wire_quant["x"][1] == zps["x_zero_point"] - 128 and L.wire_quant["y"][1] == zps["y_zero_point"] - 128
    sess = ort.InferenceSession(str(qdq), providers=["CPUExecutionProvider"])
    xs = _inputs(200)
    want = np.stack([sess.run(None, {"x": x})[0] for x in xs])
    got = _host(L, [quantize_edge(x, L.wire_quant["x"]) for x in xs])
    out = np.stack([dequantize_edge(q, L.wire_quant["y"]) for q in got]).reshape(want.shape)
    np.testing.assert_array_equal(out, want)  # the same real values: the same uint8 codes, shifted


def _uint8_io(qdq: Path, d: Path) -> Path:
    """The same QDQ model with uint8 graph input and output (the float boundary Q/DQ cut away)."""
    m = onnx.load(str(qdq))
    g = m.graph
    qx = next(n for n in g.node if n.op_type == "QuantizeLinear" and n.input[0] == "x")
    dqy = next(n for n in g.node if n.op_type == "DequantizeLinear" and n.output[0] == "y")
    g.node.remove(qx)
    g.node.remove(dqy)
    del g.input[:], g.output[:]
    g.input.append(helper.make_tensor_value_info(qx.output[0], TensorProto.UINT8, list(SHAPE)))
    g.output.append(helper.make_tensor_value_info(dqy.input[0], TensorProto.UINT8, [1, 10]))
    onnx.save(m, str(d / "q_u8io.onnx"))
    return d / "q_u8io.onnx"


def test_uint8_graph_io_is_an_int8_edge_shifted_by_128(qdq: Path, tmp_path: Path) -> None:
    path = _uint8_io(qdq, tmp_path)
    m = onnx.load(str(path))
    L = lower(m)
    assert L.uint8_io == {m.graph.input[0].name, m.graph.output[0].name} and not L.wire_quant
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    xs = np.random.default_rng(7).integers(0, 256, (100, *SHAPE), dtype=np.uint8)
    want = np.stack([sess.run(None, {m.graph.input[0].name: x})[0] for x in xs])
    got = np.stack([from_device(q) for q in _host(L, [to_device(x) for x in xs])]).reshape(want.shape)
    assert len(np.unique(want)) > 20  # not a saturated output
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("core", ["cortex-m4", "cortex-m55"])  # M55: the Helium build on mps3-an547
def test_compile_build_and_qemu_cortex_m_over_serial_equal_ort(qdq: Path, tmp_path: Path, core: str) -> None:
    compile_model(qdq, nodes=1, out_dir=tmp_path / "dep")
    build_all(tmp_path / "dep", [f"n0=qemu-{core}"], tmp_path / "dist")
    dep = load_deployment(tmp_path / "dist" / "_deployment")
    assert dep.inputs[0].quant is not None and dep.outputs[0].quant is not None  # int8 on the wire
    sess = ort.InferenceSession(str(qdq), providers=["CPUExecutionProvider"])
    xs = _inputs(3, seed=11)
    n0 = tmp_path / "dist" / "n0"
    with QemuDevice(core, n0 / "bbrt.elf", n0 / "program.bbrt", dep.ids()["n0"],
                    epoch_file=tmp_path / "n0.epoch") as dev:
        fleet = InProcFleet(dep, external={"n0": dev})
        outs = [np.asarray(fleet.infer({"x": x})["y"]) for x in xs]
        assert not dev.errors
    np.testing.assert_array_equal(np.stack(outs).reshape(3, -1), np.stack([sess.run(None, {"x": x})[0]
                                                                            for x in xs]).reshape(3, -1))


def _per_axis(m: onnx.ModelProto, q: onnx.NodeProto, channels: int) -> None:
    """Make QuantizeLinear ``q`` (and the DequantizeLinear reading it) per-axis over ``channels``."""
    init = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    s, z = init[q.input[1]], init[q.input[2]]
    m.graph.initializer.extend([numpy_helper.from_array(np.full(channels, s, np.float32), "pa_scale"),
                                numpy_helper.from_array(np.full(channels, z, z.dtype), "pa_zp")])
    for n in m.graph.node:
        if n is q or (n.op_type == "DequantizeLinear" and n.input[0] == q.output[0]):
            n.input[1], n.input[2] = "pa_scale", "pa_zp"
            n.attribute.append(helper.make_attribute("axis", 1))


@pytest.mark.parametrize("tensor", ["r1", "x"])
def test_per_axis_activation_scales_are_unsupported_quant_pattern(qdq: Path, tensor: str) -> None:
    m = onnx.load(str(qdq))
    q = next(n for n in m.graph.node if n.op_type == "QuantizeLinear" and n.input[0] == tensor)
    _per_axis(m, q, 4 if tensor == "r1" else 3)
    with pytest.raises(UnsupportedQuantPattern) as e:
        lower(m)
    assert e.value.node == q.name and e.value.op == "QuantizeLinear"
    assert "per axis" in str(e.value) or "per-axis" in str(e.value)
