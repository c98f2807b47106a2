"""Request slots: a device node with two Recv edges from different peers keeps a window of requests in flight.

n0 (Python) -> n1 (Python) -> n2 (device); n2 receives ``r3`` straight from n0 (the residual) and
``c4`` from n1, so with ``window=4`` the edges of several requests interleave on n2. With one
slot the node evicted (and the fleet stalled); with BBRT_REQUEST_SLOTS (4) every request completes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from bb_edge.adapters.devices.serial_devices import HostDevice, QemuDevice
from bb_edge.adapters.transports.inproc import InProcFleet
from tests.support.examples import sample_inputs, small_cnn
from bb_edge.bbrt.format import REQUEST_SLOTS, parse
from bb_edge.bbrt.report import memory_report
from bb_edge.bundle.build import build_all
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.manifest import load_deployment

INT8_TOL = 0.05


@pytest.fixture(scope="module")
def dep_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("slots")
    compile_model(small_cnn(), cuts=["r3", "c4"], node_names=["n0", "n1", "n2"], out_dir=d)
    calib = sample_inputs(16, seed=7)
    np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in calib]))
    return d


def _run_window(d: Path, device: HostDevice | QemuDevice) -> None:
    dep = load_deployment(d)
    ref = ort.InferenceSession(small_cnn().SerializeToString(), providers=["CPUExecutionProvider"])
    samples = sample_inputs(8, seed=11)
    fleet = InProcFleet(dep, external={"n2": device})
    outs = fleet.run(samples, window=4, real_timeout=30.0)
    assert len(outs) == len(samples)
    for s, o in zip(samples, outs):
        assert np.abs(o["prob"] - ref.run(None, s)[0]).max() <= INT8_TOL
    assert not device.errors


def test_window_of_4_through_host_device(dep_dir: Path, tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    (res,) = build_all(dep_dir, ["n2=host"], dist, calib=dep_dir / "calib.npz")
    prog = parse((dist / "n2" / "program.bbrt").read_bytes())
    assert sum(1 for e in prog.edges if e.direction == 0) == 2  # r3 from n0, c4 from n1
    r = memory_report(dist / "n2")
    assert r["request_slots"] == REQUEST_SLOTS and r["slot_bytes"] == REQUEST_SLOTS * prog.request_bytes() > 0
    assert r["node_arena_bytes"] == prog.node_arena_bytes() >= r["arena_bytes"] + r["slot_bytes"]
    ids = load_deployment(dep_dir).ids()
    dev = HostDevice(dist / "n2" / "bbrt-host", dist / "n2" / "program.bbrt", ids["n2"]).start()
    try:
        _run_window(res.deployment_dir or dep_dir, dev)
    finally:
        stats = dev.stop()
    assert f"slots={REQUEST_SLOTS}" in stats, stats
    assert "evicted=0" in stats and "inferences=8" in stats, stats


def test_window_of_4_through_qemu_cortex_m3(dep_dir: Path, tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    (res,) = build_all(dep_dir, ["n2=qemu-cortex-m3"], dist, calib=dep_dir / "calib.npz")
    ids = load_deployment(dep_dir).ids()
    with QemuDevice("cortex-m3", dist / "n2" / "bbrt.elf", dist / "n2" / "program.bbrt", ids["n2"]) as dev:
        _run_window(res.deployment_dir or dep_dir, dev)  # an evicted request never completes: run() would stall
