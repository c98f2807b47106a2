"""ros2 bundle as a real ROS 2 package: colcon builds it, the node starts from the install space as an rclpy
lifecycle node, a separate rclpy process publishes seeded sensor_msgs/Image frames and receives the outputs
(header carried through) and /diagnostics. Outputs are compared with one ONNX Runtime session on the source
model, fed by an independent numpy conversion of the same frames. The mixed fleet (one stage of a split over
MQTT) is tests/bundle/test_targets_ros2_fleet.py."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from bb_edge.adapters.fleet.ros2_convert import (
    FrameRejected,
    Port,
    array_to_tensor,
    image_to_tensor,
    points_to_tensor,
    tensor_to_image,
)
from bb_edge.bundle.build import build_all
from bb_edge.compiler import compile_model
from tests.support.camera_model import camera_model, vector_model
from tests.support.ros2 import PYTHON, Peer, colcon_build, domain_for, installed_node, oracle_input, ros_env
from tests.support.ros2_peer import cloud_points, frame_pixels
from tests.support.transport_helpers import LineCollector

NODE = "robot"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, onnx.ModelProto]:
    d = tmp_path_factory.mktemp("ros")
    model = camera_model(seed=3)
    compile_model(model, nodes=1, node_names=[NODE], out_dir=d / "comp")
    build_all(d / "comp", [f"{NODE}=ros2-kilted"], d / "dist", options={"transport": "none"})
    return d / "dist" / NODE, d / "ws", model


def test_image_conversions_match_an_independent_oracle() -> None:
    rng = np.random.default_rng(0)
    rgb = Port("x", "float32", [1, 3, 4, 5], "/t", "sensor_msgs/Image", "NCHW")
    pix = rng.integers(0, 256, (4, 5, 3), dtype=np.uint8)
    padded = np.zeros((4, 5 * 3 + 7), np.uint8)  # rows with padding: step > width * 3
    padded[:, :15] = pix.reshape(4, 15)
    got = image_to_tensor(rgb, "rgb8", 4, 5, 22, 0, padded.tobytes())
    np.testing.assert_allclose(got, oracle_input("rgb8", pix), rtol=1e-6)
    got = image_to_tensor(rgb, "bgr8", 4, 5, 15, 0, pix.tobytes())
    np.testing.assert_allclose(got, oracle_input("bgr8", pix), rtol=1e-6)
    mono = Port("m", "float32", [1, 1, 4, 5], "/t", "sensor_msgs/Image", "NCHW")
    gray = rng.integers(0, 256, (4, 5, 1), dtype=np.uint8)
    np.testing.assert_allclose(image_to_tensor(mono, "mono8", 4, 5, 5, 0, gray.tobytes()),
                               oracle_input("mono8", gray), rtol=1e-6)
    depth = rng.standard_normal((4, 5, 1)).astype(np.float32)
    np.testing.assert_array_equal(image_to_tensor(mono, "32FC1", 4, 5, 20, 0, depth.tobytes()),
                                  oracle_input("32FC1", depth))
    np.testing.assert_array_equal(image_to_tensor(mono, "32FC1", 4, 5, 20, 1, depth.astype(">f4").tobytes()),
                                  oracle_input("32FC1", depth))
    nhwc_u8 = Port("u", "uint8", [1, 4, 5, 3], "/t", "sensor_msgs/Image", "NHWC")
    np.testing.assert_array_equal(image_to_tensor(nhwc_u8, "bgr8", 4, 5, 15, 0, pix.tobytes()),
                                  pix[None, :, :, ::-1])
    # bad frames: one typed refusal each, with its reason
    for port, args, reason in [
        (rgb, ("mono8", 4, 5, 5, 0, gray.tobytes()), "channels"),
        (rgb, ("rgb8", 5, 4, 12, 0, pix.tobytes()), "size"),
        (rgb, ("yuv422", 4, 5, 10, 0, pix.tobytes()), "encoding"),
        (rgb, ("rgb8", 4, 5, 15, 0, pix.tobytes()[:-1]), "truncated"),
        (nhwc_u8, ("32FC3", 4, 5, 60, 0, b"\0" * 240), "dtype"),
    ]:
        with pytest.raises(FrameRejected) as ei:
            image_to_tensor(port, *args)
        assert ei.value.reason == reason, ei.value
    flat = Port("v", "float32", [1, 6], "/t", "std_msgs/Float32MultiArray")
    np.testing.assert_array_equal(array_to_tensor(flat, flat.msg, [1, 6], np.arange(6, dtype=np.float32)),
                                  np.arange(6, dtype=np.float32).reshape(1, 6))
    with pytest.raises(FrameRejected):
        array_to_tensor(flat, flat.msg, [], np.arange(5, dtype=np.float32))
    with pytest.raises(FrameRejected):
        array_to_tensor(flat, "std_msgs/UInt8MultiArray", [], np.arange(6, dtype=np.uint8))
    # PointCloud2: x, y, z wherever the fields put them, other fields skipped, float64 and big-endian too
    pts = rng.standard_normal((6, 3))
    cloud = Port("p", "float32", [1, 6, 3], "/t", "sensor_msgs/PointCloud2")
    rec = np.zeros(6, dtype=[("i", "<f4"), ("z", "<f4"), ("x", "<f4"), ("y", "<f4"), ("pad", "V4")])
    rec["x"], rec["y"], rec["z"] = pts[:, 0], pts[:, 1], pts[:, 2]
    fields = [("i", 0, 7, 1), ("z", 4, 7, 1), ("x", 8, 7, 1), ("y", 12, 7, 1)]
    np.testing.assert_array_equal(points_to_tensor(cloud, fields, 20, 6, 0, rec.tobytes()),
                                  pts.astype(np.float32)[None])
    big = pts.astype(">f8")
    np.testing.assert_array_equal(points_to_tensor(cloud, [("x", 0, 8, 1), ("y", 8, 8, 1), ("z", 16, 8, 1)], 24, 6, 1,
                                                   big.tobytes()), pts.astype(np.float32)[None])
    for args, reason in [((fields, 20, 5, 0, rec.tobytes()), "size"),
                         ((fields[:3], 20, 6, 0, rec.tobytes()), "encoding"),
                         ((fields, 20, 6, 0, rec.tobytes()[:-1]), "truncated"),
                         (([("x", 0, 2, 1), ("y", 4, 7, 1), ("z", 8, 7, 1)], 12, 6, 0, b"\0" * 72), "dtype")]:
        with pytest.raises(FrameRejected) as ei:
            points_to_tensor(cloud, *args)
        assert ei.value.reason == reason, ei.value
    enc, h, w, step, data = tensor_to_image(np.arange(20, dtype=np.float32).reshape(1, 2, 10)) or ("", 0, 0, 0, b"")
    assert (enc, h, w, step) == ("32FC1", 2, 10, 40) and np.frombuffer(data, "<f4")[7] == 7


def test_package_declares_its_dependencies_and_carries_the_runtime(built: tuple[Path, Path, onnx.ModelProto]) -> None:
    from catkin_pkg.package import parse_package_string

    b, _, _ = built
    man = json.loads((b / "manifest.json").read_text())
    p = parse_package_string((b / "package.xml").read_text())
    p.validate()
    assert p.package_format == 3 and p.name == man["ros_package"] and p.get_build_type() == "ament_python"
    assert {d.name for d in p.exec_depends} >= {"rclpy", "std_msgs", "sensor_msgs", "diagnostic_msgs",
                                                "lifecycle_msgs", "launch_ros", "python3-numpy", "python3-paho-mqtt"}
    reqs = (b / "requirements.txt").read_text()
    for pip_only in ("onnx==", "onnxruntime==", "cobs"):  # no rosdep key: pip, as package.xml says
        assert pip_only in reqs and pip_only.rstrip("=") in (b / "package.xml").read_text()
    assert (b / "lib" / "bb_edge" / "adapters" / "fleet" / "ros2_node.py").is_file()
    assert man["topics"]["inputs"][0]["msg"] == "sensor_msgs/Image" and man["topics"]["inputs"][0]["layout"] == "NCHW"
    assert not (b / man["ros_package"] / "msgs.py").exists()  # no Cyclone DDS path any more


def test_without_ros_the_node_says_what_to_install(built: tuple[Path, Path, onnx.ModelProto]) -> None:
    b, _, _ = built
    pkg = json.loads((b / "manifest.json").read_text())["ros_package"]
    r = subprocess.run([sys.executable, str(b / pkg / "node.py")], capture_output=True, text=True, timeout=120,
                       env={"PATH": "/usr/bin:/bin"})
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: RosMissingError:") and "pip install ros-rclpy" in lines[0]


def test_colcon_built_node_serves_images_on_a_ros_graph(built: tuple[Path, Path, onnx.ModelProto],
                                                        tmp_path: Path) -> None:
    b, ws, model = built
    pkg = json.loads((b / "manifest.json").read_text())["ros_package"]
    env = ros_env(domain_for(11))
    install = colcon_build([b], ws, env)
    assert (install / pkg / "share" / pkg / "program" / "deployment.json").is_file()
    node = installed_node(install, pkg, env, "--ros-args", "-p", "diagnostics_period:=0.5")
    log = LineCollector(node)
    peer = Peer(env, tmp_path / "peer.log")
    try:
        tin, tout = "/bb/camera/image", "/bb/camera/probs"
        assert peer.ask(op="wait", **{"in": tin, "out": tout}, timeout=60)["ok"], (log.lines, peer.stderr())
        frames = [
            {"seed": 1, "encoding": "rgb8", "height": 224, "width": 224, "stamp": 1_700_000_000_000_000_001,
             "frame_id": "cam_left"},
            {"seed": 2, "encoding": "bgr8", "height": 224, "width": 224, "stamp": 1_700_000_000_500_000_000,
             "frame_id": "cam_right"},
            {"seed": 3, "encoding": "mono8", "height": 224, "width": 224, "stamp": 11, "expect": False},
            {"seed": 4, "encoding": "rgb8", "height": 200, "width": 224, "stamp": 12, "expect": False},
            {"seed": 5, "encoding": "32FC1", "height": 224, "width": 224, "stamp": 13, "expect": False},
            {"seed": 6, "encoding": "rgb8", "height": 224, "width": 224, "stamp": 1_700_000_001_000_000_000,
             "frame_id": "cam_left"},
        ]
        res = peer.ask(op="frames", **{"in": tin, "out": tout}, frames=frames, npz=str(tmp_path / "out.npz"),
                       timeout=30, refuse_wait=0.5)
        by_stamp = {f["stamp"]: f for f in res["frames"]}
        got = np.load(tmp_path / "out.npz")
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        for f in frames:
            info = by_stamp[f["stamp"]]
            assert info["got"] == f.get("expect", True), (info, log.lines[-10:])
            if not info["got"]:
                continue
            assert info["frame_id"] == f["frame_id"] and info["encoding"] == "32FC1"  # header carried through
            pix = frame_pixels(f["seed"], f["encoding"], f["height"], f["width"])
            (ref,) = sess.run(None, {"image": oracle_input(f["encoding"], pix)})
            np.testing.assert_allclose(got[f"out_{f['stamp']}"].reshape(ref.shape), ref, rtol=1e-4, atol=1e-6)
        diag = peer.ask(op="diag", name=f"bb_edge: {pkg}", until={"frames_bad": "3"}, timeout=10)
        assert diag is not None, (log.lines[-10:], peer.stderr())
        v = diag["values"]
        program = (b / "program" / "robot.onnx").read_bytes()
        want_hash = hashlib.sha256(onnx.load_from_string(program).SerializeToString(deterministic=True)).hexdigest()
        assert v["state"] == "active" and diag["hardware_id"] == NODE and v["program_hash"] == want_hash
        assert json.loads(v["frames_bad_by_reason"]) == {"channels": 2, "size": 1}
        assert v["frames_in"] == "6" and v["requests_completed"] == "3" and v["outputs_published"] == "3"
        assert float(v["latency_ms"]) > 0 and float(v["compute_ms"]) > 0
        # lifecycle state and parameters through the standard services
        assert peer.ask(op="lifecycle", node=pkg) == {"state": "active"}
        got_p = peer.ask(op="param", node=pkg, get=["qos_inputs", "inputs.image.conversion", "inputs.image.scale"])
        assert got_p["get"]["qos_inputs"] == "sensor_data" and got_p["get"]["inputs.image.scale"] == 1 / 255
        assert got_p["get"]["inputs.image.conversion"].startswith("rgb8|bgr8 224x224 -> RGB NCHW float32")
        setp = peer.ask(op="param", node=pkg, set={"inputs.image.scale": 2 / 255, "inputs.image.channel_order": "xyz"})
        assert [r["successful"] for r in setp["set"]] == [True, False], setp
        assert not peer.ask(op="param", node=pkg, set={"deadline_s": 1.0})["set"][0]["successful"]  # read-only
        f = {"seed": 7, "encoding": "rgb8", "height": 224, "width": 224, "stamp": 1_700_000_002_000_000_000,
             "frame_id": "cam_left"}
        res = peer.ask(op="frames", **{"in": tin, "out": tout}, frames=[f], npz=str(tmp_path / "scaled.npz"),
                       timeout=30)
        assert res["frames"][0]["got"], log.lines[-10:]
        (ref,) = sess.run(None, {"image": oracle_input("rgb8", frame_pixels(7, "rgb8", 224, 224), scale=2 / 255)})
        np.testing.assert_allclose(np.load(tmp_path / "scaled.npz")[f"out_{f['stamp']}"].reshape(ref.shape), ref,
                                   rtol=1e-4, atol=1e-6)
        assert node.poll() is None, log.lines
    finally:
        peer.close()
        node.terminate()
        code = node.wait(30)
    assert code == 0, log.lines[-10:]
    assert any(ln.startswith("shutdown") and "0 unconfirmed" in ln for ln in log.lines), log.lines[-5:]


def test_raw_tensors_in_and_out_from_the_bundle_directory(tmp_path: Path) -> None:
    """Float32MultiArray and PointCloud2 in (one request per pair); a float output as a 32FC1 image and an
    int64 output as Float32MultiArray; the node started from the bundle directory (its vendored lib/)."""
    model = vector_model(seed=4)
    compile_model(model, nodes=1, node_names=["arm"], out_dir=tmp_path / "comp")
    build_all(tmp_path / "comp", ["arm=ros2-kilted"], tmp_path / "dist", options={"transport": "none"})
    b = tmp_path / "dist" / "arm"
    man = json.loads((b / "manifest.json").read_text())
    topics = {t["name"]: t for t in man["topics"]["inputs"] + man["topics"]["outputs"]}
    assert topics["x"]["msg"] == "std_msgs/Float32MultiArray" and topics["scores"]["msg"] == "sensor_msgs/Image"
    assert topics["label"]["msg"] == "std_msgs/Float32MultiArray"  # int64 has no image encoding
    assert topics["pts"]["msg"] == "sensor_msgs/PointCloud2"
    env = ros_env(domain_for(37))
    node = subprocess.Popen([str(PYTHON), str(b / man["ros_package"] / "node.py"), "--ros-args", "-p",
                             "qos_inputs:=reliable"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    log = LineCollector(node)
    peer = Peer(env, tmp_path / "peer.log")
    try:
        res = peer.ask(op="arrays", **{"in": topics["x"]["topic"]}, n=16, seeds=[1, 2, 3],
                       points_in=topics["pts"]["topic"], points=32,
                       npz=str(tmp_path / "o.npz"),
                       out={topics["scores"]["topic"]: "image", topics["label"]["topic"]: "f32"})
        assert len(res["got"]) == 6, (res, log.lines[-10:], peer.stderr())
        got = np.load(tmp_path / "o.npz")
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        for i, seed in enumerate([1, 2, 3]):
            x = np.random.default_rng(seed).standard_normal(16).astype(np.float32).reshape(1, 16)
            scores, label = sess.run(None, {"x": x, "pts": cloud_points(seed, 32)[None]})
            np.testing.assert_allclose(got[f"{i}_{topics['scores']['topic'].replace('/', '_')}"].reshape(1, 4),
                                       scores, rtol=1e-5)
            lab = got[f"{i}_{topics['label']['topic'].replace('/', '_')}"]
            assert lab.tolist() == label.astype(np.float32).tolist()
    finally:
        peer.close()
        node.terminate()
        code = node.wait(30)
    assert code == 0, log.lines[-10:]
