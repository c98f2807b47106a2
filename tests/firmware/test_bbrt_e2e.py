"""A real model split across Python, QEMU Cortex-M3 and QEMU RV32 nodes over serial ptys.

n0 (Python) -> n1 (QEMU mps2-an385, Cortex-M3) -> n2 (QEMU virt, rv32imc) -> n3 (Python).
The device nodes run the built firmware ELFs; the rest of the fleet is
``bb_edge.adapters.transports.inproc.InProcFleet``. The build makes every edge that touches a device int8
(the Python ends quantize/dequantize; the devices' programs hold no QUANTIZE/DEQUANTIZE). The
end-to-end output must stay within the int8 tolerance of the float reference.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from bb_edge.adapters.transports.inproc import InProcFleet
from bb_edge.adapters.devices.serial_devices import QemuDevice
from tests.support.examples import sample_inputs, small_cnn
from bb_edge.bbrt.format import Op, parse
from bb_edge.bundle.build import build_all
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.manifest import load_deployment

INT8_TOL = 0.05  # max abs error on the class probabilities


@pytest.fixture(scope="module")
def fleet_dirs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("dep")
    dist = tmp_path_factory.mktemp("dist")
    compile_model(small_cnn(), cuts=["p1", "r3", "g"], node_names=["n0", "n1", "n2", "n3"], out_dir=d)
    calib = sample_inputs(16, seed=7)
    np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in calib]))
    (res,) = build_all(d, ["n1=qemu-cortex-m3", "n2=qemu-rv32"], dist, calib=d / "calib.npz")[:1]
    return res.deployment_dir or d, dist  # the deployment with the int8 edges the build chose


def test_split_over_qemu_cortex_m3_and_rv32(fleet_dirs: tuple[Path, Path]) -> None:
    d, dist = fleet_dirs
    dep = load_deployment(d)
    ids = dep.ids()
    # int8 edges end to end: Python -> M3 -> RV32 -> Python, one set of parameters per edge
    assert [(e.src, e.dst, e.dtype) for e in dep.edges] == [("n0", "n1", "int8"), ("n1", "n2", "int8"),
                                                            ("n2", "n3", "int8")]
    for node in ("n1", "n2"):
        prog = parse((dist / node / "program.bbrt").read_bytes())
        assert not {Op.QUANTIZE, Op.DEQUANTIZE} & {op.opcode for op in prog.ops}
        assert all(prog.tensors[e.tensor].dtype == 3 for e in prog.edges)
    ref_sess = ort.InferenceSession(small_cnn().SerializeToString(), providers=["CPUExecutionProvider"])
    with QemuDevice("cortex-m3", dist / "n1" / "bbrt.elf", dist / "n1" / "program.bbrt", ids["n1"]) as m3, \
            QemuDevice("rv32", dist / "n2" / "bbrt.elf", dist / "n2" / "program.bbrt", ids["n2"]) as rv:
        fleet = InProcFleet(dep, external={"n1": m3, "n2": rv})
        worst = 0.0
        agree = 0
        samples = sample_inputs(4, seed=99)
        for s in samples:
            out = fleet.infer(s)["prob"]
            ref = ref_sess.run(None, s)[0]
            worst = max(worst, float(np.abs(out - ref).max()))
            agree += int(out.argmax() == ref.argmax())
        assert not m3.errors and not rv.errors
        assert m3.bytes_in > 0 and rv.bytes_in > 0
    assert worst <= INT8_TOL, f"end-to-end error {worst:.4f} exceeds the int8 tolerance {INT8_TOL}"
    assert agree >= len(samples) - 1


def test_device_nodes_own_the_graph_input_and_output(tmp_path: Path) -> None:
    """Sensor-style split: the device reads the graph input from the host and the last device
    sends the graph output to the host; only the middle runs in Python."""
    from bb_edge.adapters.devices.serial_devices import HostDevice

    d, dist = tmp_path / "dep", tmp_path / "dist"
    compile_model(small_cnn(), cuts=["p1", "g"], node_names=["sensor", "mid", "head"], out_dir=d)
    calib = sample_inputs(16, seed=7)
    np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in calib]))
    res = build_all(d, ["sensor=host", "head=host"], dist, calib=d / "calib.npz")
    dep = load_deployment(res[0].deployment_dir or d)
    ids = dep.ids()
    assert {i.node for i in dep.inputs} == {"sensor"} and {o.node for o in dep.outputs} == {"head"}
    ref_sess = ort.InferenceSession(small_cnn().SerializeToString(), providers=["CPUExecutionProvider"])
    with HostDevice(dist / "sensor" / "bbrt-host", dist / "sensor" / "program.bbrt", ids["sensor"]).start() as s, \
            HostDevice(dist / "head" / "bbrt-host", dist / "head" / "program.bbrt", ids["head"]).start() as h:
        fleet = InProcFleet(dep, external={"sensor": s, "head": h})
        for sample in sample_inputs(3, seed=5):
            out = fleet.infer(sample)["prob"]
            assert np.abs(out - ref_sess.run(None, sample)[0]).max() <= INT8_TOL
        assert not s.errors and not h.errors
