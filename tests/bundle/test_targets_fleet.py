"""jetson + linux-vm bundles of a real model (onnx's squeezenet), each launched from its own
bundle directory in its own process, join a fleet over a real Mosquitto and match float."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import onnx
import pytest

from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.bundle.build import build_all
from bb_edge.compiler import compile_model, load_deployment
from tests.support.fleet import stop_fleet
from tests.support.models import light, monolithic
from tests.support.transport_helpers import LineCollector, wait_until


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    comp = tmp_path_factory.mktemp("sq2")
    compile_model(str(light("squeezenet")), nodes=2, out_dir=comp)
    out = tmp_path_factory.mktemp("dist")
    build_all(comp, ["n0=jetson-orin-nano", "n1=linux-vm-x86_64"], out)
    return comp, out


def test_bundles_are_complete(dist: tuple[Path, Path]) -> None:
    _, out = dist
    for node, extra in (("n0", ["jetson_node.py", "model.fp16.onnx", "model.int8.onnx", "trt_cache"]),
                        ("n1", ["model.fp32.onnx"])):
        b = out / node
        for f in ["manifest.json", "program/deployment.json", f"program/{node}.onnx", "run.sh", "node.env",
                  f"bb-edge-{node}.service", "requirements.txt", "lib/bb_edge/cli.py", *extra]:
            assert (b / f).exists(), f"{node}: {f}"
        assert os.access(b / "run.sh", os.X_OK)
        assert "onnxruntime==" in (b / "requirements.txt").read_text()
        assert "pytest" not in (b / "requirements.txt").read_text()
        assert "ExecStart=" in (b / f"bb-edge-{node}.service").read_text()
    m = json.loads((out / "n0" / "manifest.json").read_text())
    assert m["precision"] == "fp16" and m["execution_providers"][0] == "TensorrtExecutionProvider"
    assert m["variants"]["int8"]["size_ratio"] < 0.35
    assert not [p for p in out.iterdir() if p.name.startswith(".")], "partial build dirs left behind"


def test_fleet_from_bundles_matches_float(dist: tuple[Path, Path], tmp_path: Path) -> None:
    comp, out = dist
    dep = load_deployment(comp)
    files = write_broker_files(tmp_path / "broker", dep)
    broker = Broker(files).start()
    procs: list[subprocess.Popen[bytes]] = []
    host = None
    try:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env.update(BB_TRANSPORT=files.url(), OMP_NUM_THREADS="1")
        for node in ("n0", "n1"):
            procs.append(subprocess.Popen([str(out / node / "run.sh"), *(["--quiet"] if node == "n0" else [])],
                                          cwd=out / node, env=env, stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, start_new_session=True))
        logs = [LineCollector(p) for p in procs]
        host = host_endpoint(dep, files.url())
        wait_until(lambda: {"n0", "n1"} <= host.up or any(p.poll() is not None for p in procs), 60, "nodes up")
        assert all(p.poll() is None for p in procs), [lg.lines for lg in logs]
        rng = np.random.default_rng(3)
        reqs = [{"data_0": rng.standard_normal((1, 3, 224, 224)).astype(np.float32)} for _ in range(3)]
        got = host.run(reqs, timeout=60)
        model = onnx.load(str(light("squeezenet")))
        for r, g in zip(reqs, got):
            ref = monolithic(model, r)
            for k, v in ref.items():
                np.testing.assert_allclose(g[k], v, atol=1e-2 * float(np.abs(v).max()) + 1e-6)
        fallback = [ln for ln in logs[0].lines if "falling back" in ln]
        assert len(fallback) == 1 and "CPUExecutionProvider" in fallback[0], logs[0].lines[:5]
    finally:
        stop_fleet(broker, host=host, procs=procs)
