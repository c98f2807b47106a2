"""Learning bundles: a linux-vm and a jetson client bundle, each launched from its directory, train with the server.

The oracle is the same deployment under ``bb-edge run --processes``
(``run_learning_fleet``) on a fresh broker: FedAvg is deterministic when every
client answers every round (seeded local training, aggregation in node order),
so the bundled run's final server model must equal the reference one.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.adapters.learn.fleet import LearningFleet, run_learning_fleet
from bb_edge.deployment.manifest import load_deployment
from bb_edge.training.setup import write_learning_deployment
from tests.support.broker import start_broker, stop_broker

LEARNING: dict[str, Any] = {"strategy": "fedavg", "clients": 4, "rounds": 5, "seed": 11,
                            "data": {"source": "digits", "partition": {"type": "partition.dirichlet", "alpha": 0.5}}}


def _build(d: Path, dist: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "bb_edge.cli", "build", str(d), "--target", "c0=linux-vm-x86_64",
                          "--target", "c1=jetson-orin-nano", "-o", str(dist), "--no-report"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr


def test_bundle_layout_and_refusals(tmp_path: Path) -> None:
    """The bundle carries the learning program and the vendored runtime; a non-node is a typed error."""
    d = tmp_path / "dep"
    write_learning_deployment(d, LEARNING)
    dist = tmp_path / "dist"
    _build(d, dist)
    for node, target in (("c0", "linux-vm-x86_64"), ("c1", "jetson-orin-nano")):
        man = json.loads((dist / node / "manifest.json").read_text())
        assert (man["node"], man["target"], man["strategy"], man["role"]) == (node, target, "fedavg", "client")
        assert json.loads((dist / node / "program" / "deployment.json").read_text())["learning"]["rounds"] == 5
        assert (dist / node / "program" / "model.onnx").read_bytes() == (d / "model.onnx").read_bytes()
        assert (dist / node / "lib" / "bb_edge" / "adapters" / "learn" / "node.py").is_file()
        assert os.access(dist / node / "run.sh", os.X_OK)
    ros = subprocess.run([sys.executable, "-m", "bb_edge.cli", "build", str(d), "--target", "server=ros2-humble",
                          "-o", str(tmp_path / "d3"), "--no-report"], capture_output=True, text=True, timeout=300)
    assert ros.returncode == 0, ros.stdout + ros.stderr
    man = json.loads((tmp_path / "d3" / "server" / "manifest.json").read_text())
    assert (man["builder"], man["role"]) == ("ros2", "server")
    mcu = subprocess.run([sys.executable, "-m", "bb_edge.cli", "build", str(d), "--target", "server=qemu-cortex-m3",
                          "-o", str(tmp_path / "d4"), "--no-report"], capture_output=True, text=True, timeout=120)
    assert mcu.returncode != 0 and "FedAvg server" in mcu.stdout + mcu.stderr
    assert "Traceback" not in mcu.stdout + mcu.stderr
    bad = subprocess.run([sys.executable, "-m", "bb_edge.cli", "build", str(d), "--target", "c9=linux-vm-x86_64",
                          "-o", str(tmp_path / "d2"), "--no-report"], capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "no node 'c9'" in bad.stdout + bad.stderr
    assert "Traceback" not in bad.stdout + bad.stderr


def _launch_bundle(bundle: Path, url: str, log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the bundle's own lib/, nothing else
    env.update({"BB_TRANSPORT": url, "PYTHON": sys.executable, "OMP_NUM_THREADS": "1"})
    return subprocess.Popen(["./run.sh", "--quiet", "--status-interval", "0"], cwd=bundle, env=env,
                            stdout=open(log, "wb"), stderr=subprocess.STDOUT, start_new_session=True)


def test_bundles_train_with_the_server(tmp_path: Path) -> None:
    """linux-vm + jetson bundles (from their directories) + server + 2 clients: the --processes model exactly."""
    d = tmp_path / "dep"
    write_learning_deployment(d, LEARNING)
    dist = tmp_path / "dist"
    _build(d, dist)
    dep = load_deployment(d)

    broker, url = start_broker(tmp_path / "b1")
    try:
        ref = run_learning_fleet(dep, url, workdir=tmp_path / "ref")
    finally:
        stop_broker(broker)
    assert len(ref.records) == LEARNING["rounds"]

    broker, url = start_broker(tmp_path / "b2")  # a fresh broker: no session of the reference run
    fleet = LearningFleet(dep, url, {"start_after": 120.0}, tmp_path / "work")
    bundles: list[subprocess.Popen[bytes]] = []
    try:
        fleet.spawn("server")
        fleet.wait_up(["server"], 120)
        for n in ("c2", "c3"):
            fleet.spawn(n)
        for n in ("c0", "c1"):
            bundles.append(_launch_bundle(dist / n, url, tmp_path / f"{n}.bundle.log"))
        fleet.wait_up(["c2", "c3"], 120)
        deadline = time.monotonic() + 120
        for n in ("c0", "c1"):
            while f"node {n} (id " not in (tmp_path / f"{n}.bundle.log").read_text(errors="replace"):
                assert all(b.poll() is None for b in bundles), (tmp_path / f"{n}.bundle.log").read_text()
                assert time.monotonic() < deadline, f"bundle {n} did not connect"
                time.sleep(0.1)
        fleet.go()
        deadline = time.monotonic() + 120
        while not any(r["kind"] == "round" and r["finished"] for r in fleet.records("server")):
            assert time.monotonic() < deadline, "the bundled fleet did not finish"
            time.sleep(0.1)
    finally:
        fleet.stop_all()
        for b in bundles:
            if b.poll() is None:
                os.kill(b.pid, signal.SIGTERM)
            b.wait(20)
        stop_broker(broker)
    final = [r for r in fleet.records("server") if r["kind"] == "final"][-1]
    model = np.asarray(final["model"], dtype=np.float32)
    np.testing.assert_array_equal(model, ref.final_models["server"])
    for n in ("c0", "c1"):  # the bundles did train: every round's LocalTrainingDone is in their output
        log = (tmp_path / f"{n}.bundle.log").read_text()
        assert "restored" not in log
        assert log.count("event LocalTrainingDone") == LEARNING["rounds"], log[-2000:]
