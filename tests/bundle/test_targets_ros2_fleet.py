"""The ros2 bundle as one stage of a mixed fleet on a real ROS 2 graph and a real Mosquitto.

The camera model is split so that the ROS node ``robot`` runs the first convolution and the classifier
head and the ``remote`` stage (a linux-vm bundle, its standby ``remote_b`` next to it) runs the middle
over MQTT: camera frames come in on a ROS topic, the cut tensors go robot -> remote -> robot as
envelopes, and the output goes back onto a ROS topic with the frame's header. A separate rclpy process
publishes seeded sensor_msgs/Image frames and reads /diagnostics. Outputs are compared with one ONNX
Runtime session on the whole model. Then the remote stage is killed: /diagnostics reports its link
down and the failover to the standby, and frames are answered again through the standby.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from bb_edge.adapters.fleet.mqtt_fleet import stop_process
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.bundle.build import build_all
from bb_edge.compiler import compile_model, load_deployment
from tests.support.camera_model import REMOTE_OPS, camera_model
from tests.support.ros2 import Peer, colcon_build, domain_for, installed_node, oracle_input, ros_env
from tests.support.ros2_peer import frame_pixels
from tests.support.transport_helpers import LineCollector

TARGETS = {"robot": "ros2-kilted", "remote": "linux-vm-x86_64", "remote_b": "linux-vm-x86_64"}


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    comp = tmp_path_factory.mktemp("split")
    dep, _ = compile_model(camera_model(seed=5), place={**{op: "remote" for op in REMOTE_OPS}, "*": "robot"},
                           out_dir=comp)
    dep.add_standby("remote", "remote_b")
    dep.save(comp)
    out = tmp_path_factory.mktemp("dist")
    build_all(comp, [f"{n}={t}" for n, t in TARGETS.items()], out)
    return comp, out


def test_build_calibrates_a_split_whose_data_comes_back(dist: tuple[Path, Path]) -> None:
    """robot -> remote -> robot: no node runs whole first; the calibration tensors come from the merged ops."""
    from bb_edge.quant.calib import fleet_tensors

    comp, _ = dist
    x = np.random.default_rng(2).standard_normal((1, 3, 224, 224)).astype(np.float32)
    (t,) = fleet_tensors(load_deployment(comp), [{"image": x}])
    sess = ort.InferenceSession(camera_model(seed=5).SerializeToString(), providers=["CPUExecutionProvider"])
    np.testing.assert_allclose(t["probs"], sess.run(None, {"image": x})[0], rtol=1e-5, atol=1e-7)
    assert {e.tensor for e in load_deployment(comp).edges} <= set(t)


def test_ros_node_is_one_stage_of_an_mqtt_fleet(dist: tuple[Path, Path], tmp_path: Path) -> None:
    comp, out = dist
    dep = load_deployment(comp)
    assert {e.src for e in dep.edges} == {"robot", "remote"} and [o.node for o in dep.outputs] == ["robot"]
    pkg = json.loads((out / "robot" / "manifest.json").read_text())["ros_package"]
    env = ros_env(domain_for(23))
    install = colcon_build([out / "robot"], tmp_path / "ws", env)
    files = write_broker_files(tmp_path / "broker", dep)
    broker = Broker(files).start()
    env_fleet = {**env, "BB_TRANSPORT": files.url()}
    remotes = {n: subprocess.Popen([str(out / n / "run.sh"), "--quiet"], cwd=out / n, env=env_fleet,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
               for n in ("remote", "remote_b")}
    logs = {n: LineCollector(p) for n, p in remotes.items()}
    node = installed_node(install, pkg, env_fleet, "--ros-args", "-p", "deadline_s:=2.0", "-p",
                          "diagnostics_period:=0.5")
    logs["robot"] = LineCollector(node)
    peer = Peer(env, tmp_path / "peer.log")
    name = f"bb_edge: {pkg}"
    tin, tout = "/bb/camera/image", "/bb/camera/probs"
    sess = ort.InferenceSession(camera_model(seed=5).SerializeToString(), providers=["CPUExecutionProvider"])

    def frames(seeds: list[int], stamp0: int, expect: bool = True) -> list[dict[str, object]]:
        return [{"seed": s, "encoding": "rgb8", "height": 224, "width": 224, "stamp": stamp0 + i,
                 "frame_id": f"cam{s}", "expect": expect} for i, s in enumerate(seeds)]

    def check(fs: list[dict[str, object]], npz: Path, res: dict[str, object]) -> None:
        got = np.load(npz)
        for f, info in zip(fs, res["frames"], strict=True):  # type: ignore[call-overload]
            assert info["got"] and info["frame_id"] == f["frame_id"], ([ln for lg in logs.values()
                                                                         for ln in lg.lines[-8:]], info)
            pix = frame_pixels(int(f["seed"]), "rgb8", 224, 224)  # type: ignore[call-overload]
            (ref,) = sess.run(None, {"image": oracle_input("rgb8", pix)})
            np.testing.assert_allclose(got[f"out_{f['stamp']}"].reshape(ref.shape), ref, rtol=1e-4, atol=1e-6)

    try:
        assert peer.ask(op="wait", **{"in": tin, "out": tout}, timeout=60)["ok"], (logs["robot"].lines,
                                                                                  peer.stderr())
        up = peer.ask(op="diag", name=name, has={"link": "remote=up"}, timeout=30)
        assert up is not None and up["level"] == 0 and up["values"]["transport"].startswith("mqtt://"), \
            (up, logs["robot"].lines[-10:])
        # 1. camera frames in on ROS, robot -> remote -> robot over MQTT, outputs out on ROS
        fs = frames([1, 2, 3], 1_000)
        check(fs, tmp_path / "a.npz", peer.ask(op="frames", **{"in": tin, "out": tout}, frames=fs,
                                               npz=str(tmp_path / "a.npz"), timeout=30))
        ok = peer.ask(op="diag", name=name, until={"requests_completed": "3"}, timeout=10)
        assert ok is not None and json.loads(ok["values"]["rtt_ms"]).keys() <= {"remote"}
        # 2. the remote stage dies: /diagnostics says so; the standby takes its stage over
        os.killpg(remotes["remote"].pid, signal.SIGKILL)
        remotes["remote"].wait(10)
        down = peer.ask(op="diag", name=name, level_at_least=1, timeout=30)
        assert down is not None, logs["robot"].lines[-10:]
        v = down["values"]
        assert "remote=down" in v["link"] or "remote -> remote_b" in v["failover"], down
        moved = peer.ask(op="diag", name=name, has={"failover": "remote -> remote_b"}, timeout=30)
        assert moved is not None and moved["level"] == 1 and "failed over" in moved["message"], \
            logs["robot"].lines[-10:]
        fs = frames([4, 5], 2_000)
        check(fs, tmp_path / "b.npz", peer.ask(op="frames", **{"in": tin, "out": tout}, frames=fs,
                                               npz=str(tmp_path / "b.npz"), timeout=30))
        # 3. the standby dies too: frames get no answer, the request times out and /diagnostics says ERROR
        os.killpg(remotes["remote_b"].pid, signal.SIGKILL)
        remotes["remote_b"].wait(10)
        res = peer.ask(op="frames", **{"in": tin, "out": tout}, frames=frames([6], 3_000, expect=False),
                       refuse_wait=2.0)
        assert res["frames"] == [{"stamp": 3_000, "got": False}]
        err = peer.ask(op="diag", name=name, level_at_least=2, timeout=30)
        assert err is not None and err["message"].startswith("link down"), logs["robot"].lines[-10:]
        t0 = time.monotonic()
        failed = peer.ask(op="diag", name=name, until={"requests_failed": "1"}, timeout=20)
        assert failed is not None and "RequestTimedOut" in failed["values"]["requests_failed_by_reason"], \
            (time.monotonic() - t0, logs["robot"].lines[-10:])
        assert node.poll() is None, logs["robot"].lines
    finally:
        peer.close()
        code = stop_process(node)
        for p in remotes.values():
            stop_process(p)
        broker.stop()
    assert code in (0, 3), logs["robot"].lines[-10:]  # 3: envelopes to the dead stages stayed unconfirmed
    assert any(ln.startswith("shutdown") for ln in logs["robot"].lines), logs["robot"].lines[-5:]
