"""ros2 bundles as full fleet members: light_squeezenet split in 3 nodes, n0 and n2 ros2 bundles (Cyclone DDS,
no rclpy), n1 a linux-vm bundle, over a real Mosquitto. A DDS publisher participant feeds the graph input on
n0's input topic (sensor_msgs/Image); the cut tensors travel n0 -> n1 -> n2 over MQTT as envelopes; n2
publishes the graph output on its DDS topic (received by a subscriber participant) and sends it to the host.
The host endpoint's path (input over MQTT to the ros2 node) is checked too. Outputs match the float model."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import onnx
import pytest

from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint, stop_process
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.bundle.build import build_all
from bb_edge.compiler import compile_model, load_deployment
from tests.support.models import light, monolithic
from tests.support.transport_helpers import LineCollector, wait_until

TARGETS = {"n0": "ros2-humble", "n1": "linux-vm-x86_64", "n2": "ros2-humble"}


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    comp = tmp_path_factory.mktemp("sq3")
    compile_model(str(light("squeezenet")), nodes=3, out_dir=comp)
    out = tmp_path_factory.mktemp("dist")
    build_all(comp, [f"{n}={t}" for n, t in TARGETS.items()], out)
    return comp, out


def bundle_msgs(bundle: Path, pkg: str) -> ModuleType:
    """The bundle's DDS message types module."""
    spec = importlib.util.spec_from_file_location(f"{pkg}_msgs", bundle / pkg / "msgs.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_ros2_bundles_map_graph_ports_only(dist: tuple[Path, Path]) -> None:
    comp, out = dist
    dep = load_deployment(comp)
    m0 = json.loads((out / "n0" / "manifest.json").read_text())
    m2 = json.loads((out / "n2" / "manifest.json").read_text())
    assert [t["name"] for t in m0["topics"]["inputs"]] == [i.name for i in dep.inputs]
    assert m0["topics"]["inputs"][0]["msg"] == "sensor_msgs/Image" and m0["topics"]["outputs"] == []
    assert m2["topics"]["inputs"] == []
    assert [t["name"] for t in m2["topics"]["outputs"]] == [o.name for o in dep.outputs]
    assert m0["fleet_transport"].startswith("mqtt://")
    for b in (out / "n0", out / "n2"):
        assert "transport:" in (b / "config" / "params.yaml").read_text()
        assert (b / "lib" / "bb_edge" / "adapters" / "fleet" / "hostloop.py").is_file()


def _launch(out: Path, node: str, env: dict[str, str], domain: int) -> subprocess.Popen[bytes]:
    b = out / node
    if TARGETS[node].startswith("ros2"):
        man = json.loads((b / "manifest.json").read_text())
        params = b / "config" / "params.yaml"
        params.write_text(params.read_text().replace("domain_id: 0", f"domain_id: {domain}"))
        cmd = [sys.executable, "-m", f"{man['ros_package']}.node", "--dds"]
    else:
        cmd = [str(b / "run.sh"), "--quiet"]
    return subprocess.Popen(cmd, cwd=b, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)


def test_ros_topics_in_and_out_across_an_mqtt_fleet(dist: tuple[Path, Path], tmp_path: Path) -> None:
    from cyclonedds.core import Policy, Qos
    from cyclonedds.domain import DomainParticipant
    from cyclonedds.pub import DataWriter
    from cyclonedds.sub import DataReader
    from cyclonedds.topic import Topic

    t_start = time.monotonic()
    comp, out = dist
    dep = load_deployment(comp)
    files = write_broker_files(tmp_path / "broker", dep)
    broker = Broker(files).start()
    domain = 17 + (os.getpid() + 50) % 100  # apart from parallel runs and tests/bundle/test_targets_ros2.py
    procs: list[subprocess.Popen[bytes]] = []
    logs: list[LineCollector] = []
    host = None
    try:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env.update(BB_TRANSPORT=files.url(), OMP_NUM_THREADS="1")
        for node in TARGETS:
            procs.append(_launch(out, node, env, domain))
            logs.append(LineCollector(procs[-1]))
        host = host_endpoint(dep, files.url())
        wait_until(lambda: set(TARGETS) <= host.up or any(p.poll() is not None for p in procs), 40, "nodes up")
        assert all(p.poll() is None for p in procs), [lg.lines for lg in logs]
        t_up = time.monotonic() - t_start

        m0 = json.loads((out / "n0" / "manifest.json").read_text())
        m2 = json.loads((out / "n2" / "manifest.json").read_text())
        msgs = bundle_msgs(out / "n0", m0["ros_package"])
        tin, tout = m0["topics"]["inputs"][0], m2["topics"]["outputs"][0]
        dp = DomainParticipant(domain)
        qos = Qos(Policy.Reliability.Reliable(0), Policy.History.KeepLast(10))
        writer = DataWriter(dp, Topic(dp, "rt/" + tin["topic"].lstrip("/"), msgs.Image), qos=qos)
        reader = DataReader(dp, Topic(dp, "rt/" + tout["topic"].lstrip("/"), msgs.Float32MultiArray), qos=qos)
        model = onnx.load(str(light("squeezenet")))
        rng = np.random.default_rng(11)

        # 1. DDS in (n0's Image topic) -> MQTT n0 -> n1 -> n2 -> DDS out (n2's Float32MultiArray topic)
        x = rng.standard_normal((1, 3, 224, 224)).astype(np.float32)
        img = msgs.Image(height=224, width=224, encoding="32FC3", step=224 * 3 * 4,
                         data=x[0].transpose(1, 2, 0).tobytes())
        ref = monolithic(model, {tin["name"]: x})[tout["name"]]
        wait_until(lambda: writer.get_publication_matched_status().current_count >= 1
                   and reader.get_subscription_matched_status().current_count >= 1, 20, "DDS discovery")
        t0 = time.monotonic()
        writer.write(img)  # reliable and matched: one message, one request
        got: Any = None
        while got is None and time.monotonic() - t0 < 30:
            assert all(p.poll() is None for p in procs), [lg.lines for lg in logs]
            time.sleep(0.01)
            for m in reader.take(N=10):
                got = m
        assert got is not None, [lg.lines[-10:] for lg in logs]
        t_dds = time.monotonic() - t0
        val = np.array(got.data, np.float32).reshape(ref.shape)
        err_dds = float(np.abs(val - ref).max())
        assert err_dds <= 1e-2 * float(np.abs(ref).max()) + 1e-6
        assert [d.size for d in got.layout.dim] == list(ref.shape)

        # 2. host endpoint over MQTT: input envelope to the ros2 node n0, output back from the ros2 node n2,
        #    which also publishes it on its DDS topic
        reqs = [{tin["name"]: rng.standard_normal((1, 3, 224, 224)).astype(np.float32)} for _ in range(2)]
        t1 = time.monotonic()
        outs = host.run(reqs, timeout=30)
        t_mqtt = (time.monotonic() - t1) / len(reqs)
        seen: list[np.ndarray] = []

        def dds_outputs() -> bool:
            seen.extend(np.array(m.data, np.float32) for m in reader.take(N=10))
            return len(seen) >= len(reqs)

        wait_until(dds_outputs, 10, "DDS outputs of the host's requests")
        err_host = 0.0
        for r, o, d in zip(reqs, outs, seen):
            want = monolithic(model, r)[tout["name"]]
            err_host = max(err_host, float(np.abs(o[tout["name"]] - want).max()))
            assert err_host <= 1e-2 * float(np.abs(want).max()) + 1e-6
            np.testing.assert_array_equal(d.reshape(want.shape), o[tout["name"]])
        print(f"\nros2 fleet: up {t_up:.1f}s, DDS->DDS {t_dds * 1e3:.0f} ms (max err {err_dds:.2e}), "
              f"host->host {t_mqtt * 1e3:.0f} ms/request (max err {err_host:.2e})")
    finally:
        if host is not None:
            host.close()
        codes = [stop_process(p) for p in procs]
        broker.stop()
    assert codes == [0, 0, 0], [lg.lines[-10:] for lg in logs]
    for lg, node in zip(logs, TARGETS):
        if TARGETS[node].startswith("ros2"):
            assert any(ln.startswith("ros2-dds: node") for ln in lg.lines), lg.lines[:5]
            assert any(ln.startswith("shutdown") and "0 unconfirmed" in ln for ln in lg.lines), lg.lines[-5:]
    assert time.monotonic() - t_start < 60
