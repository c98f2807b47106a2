"""ros2 bundle over DDS without rclpy: a publisher participant feeds the bundle's node (a one-node deployment,
no fleet link), a subscriber participant receives its outputs; package.xml is a valid format 3 manifest.
The fleet case (MQTT edges between bundles) is tests/bundle/test_targets_ros2_fleet.py."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from bb_edge.bundle.build import build_all
from bb_edge.compiler import compile_model, load_deployment
from bb_edge.deployment.ports import compute_model
from tests.lowering.test_targets_quant import digits_model
from tests.support.transport_helpers import LineCollector


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("ros")
    m, _, _, _ = digits_model()
    compile_model(m, nodes=1, out_dir=d / "comp")
    node = load_deployment(d / "comp").nodes[0].name
    build_all(d / "comp", [f"{node}=ros2-humble"], d / "dist", options={"transport": "none"})
    return d / "comp", d / "dist" / node


def test_package_xml_format3_and_layout(bundle: tuple[Path, Path]) -> None:
    from catkin_pkg.package import parse_package_string

    _, b = bundle
    man = json.loads((b / "manifest.json").read_text())
    pkg = man["ros_package"]
    p = parse_package_string((b / "package.xml").read_text())
    p.validate()
    assert p.package_format == 3 and p.name == pkg
    assert p.get_build_type() == "ament_python"
    assert {d.name for d in p.exec_depends} >= {"rclpy", "std_msgs"}
    for f in ["setup.py", "setup.cfg", f"resource/{pkg}", f"{pkg}/node.py", f"launch/{pkg}.launch.py",
              "config/params.yaml"]:
        assert (b / f).exists(), f
    assert man["topics"]["inputs"][0]["msg"] == "std_msgs/Float32MultiArray"
    assert [t["name"] for t in man["topics"]["inputs"]] == ["x"]
    assert [t["name"] for t in man["topics"]["outputs"]] == ["probs"]
    params = (b / "config" / "params.yaml").read_text()
    assert 'transport: "none"' in params and f'node: "{man["node"]}"' in params


def test_dds_publisher_to_bundle_node_to_subscriber(bundle: tuple[Path, Path]) -> None:
    from cyclonedds.core import Policy, Qos
    from cyclonedds.domain import DomainParticipant
    from cyclonedds.pub import DataWriter
    from cyclonedds.sub import DataReader
    from cyclonedds.topic import Topic

    comp, b = bundle
    man = json.loads((b / "manifest.json").read_text())
    pkg = man["ros_package"]
    spec = importlib.util.spec_from_file_location("bundle_msgs", b / pkg / "msgs.py")
    assert spec and spec.loader
    msgs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(msgs)
    assert msgs.Float32MultiArray.__idl_typename__ == "std_msgs::msg::dds_::Float32MultiArray_"
    domain = 17 + os.getpid() % 100  # keep parallel runs apart
    params = b / "config" / "params.yaml"
    params.write_text(params.read_text().replace("domain_id: 0", f"domain_id: {domain}"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.Popen([sys.executable, "-m", f"{pkg}.node", "--dds"], cwd=b, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    log = LineCollector(proc)
    try:
        dp = DomainParticipant(domain)
        qos = Qos(Policy.Reliability.Reliable(0), Policy.History.KeepLast(10))
        tin, tout = man["topics"]["inputs"][0], man["topics"]["outputs"][0]
        assert tin["topic"].startswith("/bb/")
        writer = DataWriter(dp, Topic(dp, "rt/" + tin["topic"].lstrip("/"), msgs.Float32MultiArray), qos=qos)
        reader = DataReader(dp, Topic(dp, "rt/" + tout["topic"].lstrip("/"), msgs.Float32MultiArray), qos=qos)
        x = np.abs(np.random.default_rng(1).standard_normal((1, 64))).astype(np.float32)
        msg = msgs.Float32MultiArray(layout=msgs.MultiArrayLayout(dim=[msgs.MultiArrayDimension("d0", 1, 64),
                                                                       msgs.MultiArrayDimension("d1", 64, 64)]),
                                     data=x.ravel().tolist())
        got = None
        deadline = time.monotonic() + 60
        while got is None and time.monotonic() < deadline:
            assert proc.poll() is None, log.lines
            writer.write(msg)
            time.sleep(0.3)
            for m in reader.take(N=10):
                got = m
        assert got is not None, log.lines
        sess = ort.InferenceSession(compute_model(load_deployment(comp).program(man["node"])).SerializeToString(),
                                    providers=["CPUExecutionProvider"])
        (ref,) = sess.run(None, {tin["name"]: x})
        np.testing.assert_allclose(np.array(got.data, np.float32).reshape(ref.shape), ref, atol=1e-6)
        assert [d.size for d in got.layout.dim] == list(ref.shape)
        assert any("ros2-dds" in ln for ln in log.lines)
    finally:
        os.kill(proc.pid, 15)
        assert proc.wait(10) == 0, log.lines
    assert any("shutdown" in ln and "0 unconfirmed" in ln for ln in log.lines), log.lines
