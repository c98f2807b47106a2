"""The ROS 2 environment of the tests: the venv .ci/pip-preinstall.sh prepares, colcon builds, a peer process,
and the documented image-to-tensor conversion written independently (the oracle of the ROS node's input).

ROS 2 (Kilted) comes as wheels (the ``ros`` extra of pyproject.toml). They are installed into their own
venv (``$BB_EDGE_ROS_VENV``, default ``~/.cache/bb-edge/venvs/ros2-kilted``, made with
``--system-site-packages`` so numpy, onnx, onnxruntime and paho-mqtt are the shared interpreter's) rather
than into the test interpreter: the wheels pin setuptools<80 and re-exec every Python process of their
environment to set LD_LIBRARY_PATH. The ROS processes of a test (the colcon build, the bb-edge node, the
peer) run with that venv's Python; pytest itself never imports rclpy.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(os.environ.get("BB_EDGE_ROS_VENV", Path.home() / ".cache" / "bb-edge" / "venvs" / "ros2-kilted"))
PYTHON = VENV / "bin" / "python"


def ros_env(domain: int, **extra: str) -> dict[str, str]:
    """The environment of a ROS process: its own domain, Fast DDS, this host only, no test PYTHONPATH."""
    if not PYTHON.is_file():
        raise AssertionError(f"no ROS 2 venv at {VENV}: run bash .ci/pip-preinstall.sh (it makes it)")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "AMENT_PREFIX_PATH", "COLCON_PREFIX_PATH",
                                                            "_ROS_WHEELS_BOOTSTRAP_COMPLETE")}
    env.update(ROS_DOMAIN_ID=str(domain), RMW_IMPLEMENTATION="rmw_fastrtps_cpp",
               ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST", OMP_NUM_THREADS="1", PYTHONUNBUFFERED="1",
               PATH=f"{VENV / 'bin'}:{env.get('PATH', '')}", **extra)
    return env


def domain_for(offset: int) -> int:
    """A ROS domain id apart from parallel test runs (0..101 are valid with Fast DDS's default ports)."""
    return 1 + (os.getpid() * 7 + offset) % 100


def colcon_build(packages: list[Path], ws: Path, env: dict[str, str]) -> Path:
    """``colcon build`` of ``packages`` (symlinked into ``ws/src``); the install space."""
    src = ws / "src"
    src.mkdir(parents=True, exist_ok=True)
    for p in packages:
        link = src / p.name
        if not link.exists():
            link.symlink_to(p.resolve(), target_is_directory=True)
    r = subprocess.run([str(VENV / "bin" / "colcon"), "build", "--event-handlers", "console_direct-",
                        "--executor", "sequential"],
                       cwd=ws, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    return ws / "install"


def installed_node(install: Path, package: str, env: dict[str, str], *args: str) -> subprocess.Popen[bytes]:
    """The node's console script from the install space, started as a user would: ``source setup.sh`` first."""
    cmd = f". {install / 'setup.sh'} && exec {install / package / 'lib' / package / (package + '_node')} " + \
        " ".join(args)
    return subprocess.Popen(["bash", "-c", cmd], cwd=install.parent, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)


class Peer:
    """The peer process (tests/support/ros2_peer.py): one JSON command per line."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.log = log
        with open(log, "w") as err:
            self.proc = subprocess.Popen([str(PYTHON), str(ROOT / "tests" / "support" / "ros2_peer.py")], env=env,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                         text=True, start_new_session=True)

    def ask(self, **cmd: Any) -> Any:
        """Send one command; its answer."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, f"peer exited ({self.proc.poll()}): {self.stderr()}"
        return json.loads(line)

    def stderr(self) -> str:
        """The end of what the peer wrote to stderr."""
        return self.log.read_text()[-3000:]

    def close(self) -> None:
        """Quit (kill after 10 s)."""
        try:
            self.ask(op="quit")
        except (AssertionError, BrokenPipeError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


def oracle_input(encoding: str, pix: np.ndarray, scale: float = 1 / 255) -> np.ndarray:
    """The documented conversion, written independently: RGB order, pixel*scale, HWC -> NCHW float32."""
    x = pix.astype(np.float64)
    if encoding == "bgr8":
        x = x[:, :, [2, 1, 0]]
    if encoding in ("rgb8", "bgr8", "mono8"):
        x = x * scale
    return np.moveaxis(x, 2, 0)[np.newaxis].astype(np.float32)
