"""The ros2 bundle on a "fresh device": a venv holding only the ROS 2 wheels (a copy of the venv
.ci/pip-preinstall.sh makes, cut off from this interpreter's site-packages, plus the two packages those
wheels import that came from there: PyYAML and catkin_pkg), then the bundle's own ``requirements.txt``,
then what docs/targets.md says: ``colcon build``, ``. install/setup.sh``, the node's console script, with
``BB_TRANSPORT`` naming a real Mosquitto with generated credentials.

The node is the ROS end of a split MLP (robot: fc1 -> remote: relu -> robot: fc2; the remote stage is a
``bb-edge node`` process): a separate rclpy process publishes Float32MultiArray inputs and reads the output
topic; every output equals one ONNX Runtime session on the whole model. The node's status record (what
``bb-edge status`` shows) carries the program's name, ``program_version`` and hash.
"""

from __future__ import annotations

import importlib.metadata as md
import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort

from bb_edge.adapters.fleet.mqtt_fleet import spawn_node, stop_process
from bb_edge.adapters.ops.broker import Broker, write_broker_files
from bb_edge.bundle.build import build_all
from bb_edge.compiler import compile_model, load_deployment
from tests.support.models import mlp
from tests.support.ros2 import VENV, Peer, domain_for, ros_env
from tests.support.transport_helpers import LineCollector, RawClient, wait_until

VERSION = "2026.11-r3"
SEEDS = [1, 2, 3, 4]


def _device_venv(dst: Path) -> Path:
    """A venv with only the ROS 2 wheels: the prepared one copied, without the system site-packages."""
    assert (VENV / "bin" / "colcon").is_file(), f"no ROS 2 venv at {VENV}: run bash .ci/pip-preinstall.sh"
    shutil.copytree(VENV, dst, symlinks=True)
    cfg = dst / "pyvenv.cfg"
    cfg.write_text(cfg.read_text().replace("include-system-site-packages = true",
                                           "include-system-site-packages = false"))
    return dst


def test_ros2_bundle_runs_on_a_fresh_device(tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    model = mlp(rng)
    onnx.save(model, str(tmp_path / "mlp.onnx"))
    comp, dist = tmp_path / "comp", tmp_path / "dist"
    compile_model(str(tmp_path / "mlp.onnx"), place={"act": "remote", "*": "robot"}, out_dir=comp)
    manifest = json.loads((comp / "deployment.json").read_text())
    manifest["program_version"] = VERSION
    (comp / "deployment.json").write_text(json.dumps(manifest, indent=1))
    dep = load_deployment(comp)
    build_all(comp, ["robot=ros2-kilted"], dist)
    bundle = json.loads((dist / "robot" / "manifest.json").read_text())
    pkg = bundle["ros_package"]
    topics = {t["name"]: t["topic"] for t in bundle["topics"]["inputs"] + bundle["topics"]["outputs"]}

    # the device: the bundle alone in a colcon workspace, a venv with the ROS 2 wheels and nothing else
    ws = tmp_path / "device" / "ws"
    shutil.copytree(dist / "robot", ws / "src" / "robot")
    venv = _device_venv(tmp_path / "device" / "venv")
    py = str(venv / "bin" / "python")
    env = ros_env(domain_for(53))
    env.update(PATH=f"{venv / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}", VIRTUAL_ENV=str(venv))
    probe = subprocess.run([py, "-c", "import numpy"], env=env, capture_output=True, text=True, timeout=120)
    assert probe.returncode != 0, "the device venv sees this interpreter's numpy: not a fresh venv"
    ros_deps = [f"pyyaml=={md.version('pyyaml')}", f"catkin-pkg=={md.version('catkin-pkg')}"]
    pip = subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                          "-r", str(ws / "src" / "robot" / "requirements.txt"), *ros_deps],
                         env=env, capture_output=True, text=True, timeout=600)
    assert pip.returncode == 0, pip.stderr[-3000:]
    colcon = subprocess.run([py, "-c", "import sys; from colcon_core.command import main; sys.exit(main())",
                             "build", "--event-handlers", "console_direct-", "--executor", "sequential"],
                            cwd=ws, env=env, capture_output=True, text=True, timeout=600)
    assert colcon.returncode == 0, colcon.stdout[-3000:] + colcon.stderr[-3000:]

    files = write_broker_files(tmp_path / "broker", dep)
    url = files.url()
    broker = Broker(files).start()
    remote = node = peer = raw = None
    records: dict[str, dict] = {}
    presence: dict[str, bytes] = {}

    def on_message(c: object, u: object, m: object) -> None:
        kind, name = m.topic.split("/")[-2:]  # type: ignore[attr-defined]
        if kind == "status":
            records[name] = json.loads(m.payload)  # type: ignore[attr-defined]
        else:
            presence[name] = bytes(m.payload)  # type: ignore[attr-defined]

    try:
        pw = json.loads(Path(files.credentials).read_text())  # type: ignore[arg-type]
        raw = RawClient(files.host, files.port, "_status", pw["_status"], client_id="_status")
        raw.c.on_message = on_message
        raw.c.subscribe([(f"bb/{dep.name}/status/+", 1), (f"bb/{dep.name}/presence/+", 1)])
        remote = spawn_node(comp, "remote", url, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        install = ws / "install"
        node = subprocess.Popen(["bash", "-c", f". {install / 'setup.sh'} && exec "
                                 f"{install / pkg / 'lib' / pkg / (pkg + '_node')} --ros-args -p qos_inputs:=reliable"],
                                cwd=ws, env={**env, "BB_TRANSPORT": url}, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        log = LineCollector(node)
        # both ends on the broker before the first frame (a frame sent earlier has nowhere to go)
        wait_until(lambda: presence.get("robot") == b"up" and presence.get("remote") == b"up"
                   or node.poll() is not None, 120, "robot and remote up")
        assert node.poll() is None, log.lines
        peer = Peer(ros_env(domain_for(53)), tmp_path / "peer.log")
        res = peer.ask(op="arrays", **{"in": topics["x"]}, n=32, seeds=SEEDS, npz=str(tmp_path / "o.npz"),
                       out={topics["y"]: "image"})
        assert len(res["got"]) == len(SEEDS), (res, log.lines[-20:], peer.stderr())
        got = np.load(tmp_path / "o.npz")
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        for i, seed in enumerate(SEEDS):
            x = np.random.default_rng(seed).standard_normal(32).astype(np.float32).reshape(1, 32)
            (want,) = sess.run(None, {"x": x})
            np.testing.assert_allclose(got[f"{i}_{topics['y'].replace('/', '_')}"].reshape(1, 32), want,
                                       rtol=1e-4, atol=1e-5)
        assert all("ModuleNotFoundError" not in ln for ln in log.lines), log.lines
        wait_until(lambda: records.get("robot", {}).get("requests") == len(SEEDS), 20, "robot's status record")
        r = records["robot"]
        assert r["program"] == dep.name and r["program_version"] == VERSION, r
        assert len(r["program_hash"]) == 64 and r["epoch"] > 0 and r["version"], r
    finally:
        if raw is not None:
            raw.close()
        if peer is not None:
            peer.close()
        for p in (node, remote):
            if p is not None:
                stop_process(p)
        broker.stop()
        shutil.rmtree(venv, ignore_errors=True)  # ~200 MB: not kept with pytest's last temp directories
