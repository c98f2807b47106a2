"""A `bb-edge node` killed with SIGKILL and restarted is back within the reconnect back-off the operator set.

Issue 24, item 7: a restarted node took ~23 s to connect on a loaded machine. Here: a running fleet (two
`bb-edge node` processes, a client of the fleet, real Mosquitto with passwords and persistence), node n1 is
killed with SIGKILL while the broker is also down (the worst case: the restarted node must retry), restarted
with ``--reconnect-backoff 0.05,MAX``, and the broker comes back only after the back-off has grown to MAX.
Asserted: n1 connects within MAX (+ one connect's slack) of the broker's return, and the client's outputs
resume, equal to ONNX Runtime on the whole model. The measured gaps are printed (`-s`).
"""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from bb_edge.adapters.fleet.client import Client
from bb_edge.adapters.ops.broker import Broker, free_port, write_broker_files
from bb_edge.deployment.manifest import load_deployment
from tests.support.tiny import tiny_deployment

SLACK = 1.5  # seconds for one TCP connect + CONNACK + SUBSCRIBE on a loaded 2-core machine


class Node:
    """A `bb-edge node` process whose stdout lines are timestamped as they arrive."""

    def __init__(self, dep: Path, name: str, url: str, backoff: str | None) -> None:
        env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
        extra = ["--reconnect-backoff", backoff] if backoff else []
        self.proc = subprocess.Popen([sys.executable, "-m", "bb_edge.cli", "node", str(dep), "--node", name,
                                      "--transport", url, "--quiet", *extra], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True)
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        self.log: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.log.append(line)
            self.lines.put((time.monotonic(), line))

    def wait_for(self, text: str, timeout: float = 90.0) -> float:
        """The time the first line containing ``text`` arrived."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                t, line = self.lines.get(timeout=0.2)
            except queue.Empty:
                assert self.proc.poll() is None, "".join(self.log)
                continue
            if text in line:
                return t
        raise AssertionError(f"no {text!r} in {timeout}s:\n{''.join(self.log)}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, sig)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(20)


def connect_client_id(data: bytes) -> str | None:
    """The client id of an MQTT 3.1.1 CONNECT packet (None if ``data`` is not one)."""
    if not data or data[0] >> 4 != 1:
        return None
    i, shift = 1, 0
    while i < len(data) and data[i] & 0x80:  # remaining length (varint)
        i, shift = i + 1, shift + 7
    i += 1
    name_len = int.from_bytes(data[i:i + 2], "big")
    i += 2 + name_len + 1 + 1 + 2  # protocol name, level, flags, keepalive
    n = int.from_bytes(data[i:i + 2], "big")
    return data[i + 2:i + 2 + n].decode(errors="replace")


class Attempts:
    """A TCP listener on ``port`` that reads each CONNECT, hangs up, and notes when ``client`` tried."""

    def __init__(self, port: int, client: str) -> None:
        self.client = client
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(16)
        self.sock.settimeout(0.1)
        self.times: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            t = time.monotonic()
            conn.settimeout(1.0)
            try:
                data = conn.recv(512)
            except OSError:
                data = b""
            conn.close()
            if connect_client_id(data) == self.client:  # the others of the fleet retry too, at their own pace
                self.times.append(t)

    def close(self) -> list[float]:
        """Stop listening; the gaps between attempts, in seconds."""
        self._stop.set()
        self._thread.join()
        self.sock.close()
        return [b - a for a, b in zip(self.times, self.times[1:])]


@pytest.fixture(scope="module")
def dep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_deployment(tmp_path_factory.mktemp("tiny"))


@pytest.mark.parametrize("max_backoff", [0.5])
def test_killed_node_is_back_within_its_backoff(dep: Path, tmp_path: Path, max_backoff: float) -> None:
    port = free_port()
    files = write_broker_files(tmp_path / "broker", load_deployment(dep), port=port, persistence=True)
    url = f"mqtt://127.0.0.1:{port}?creds={files.credentials}"
    want_sess = ort.InferenceSession(str(dep.parent / "tiny.onnx"), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(0)
    broker = Broker(files).start()
    nodes: list[Node] = []
    client: Client | None = None
    try:
        nodes = [Node(dep, "n0", url, None), Node(dep, "n1", url, f"0.05,{max_backoff}")]
        for n in nodes:
            n.wait_for(f"node {n.proc.args[6]} (id")
        client = Client(dep, url, client=1)
        client.wait_for_nodes(30)

        def check(timeout: float) -> None:
            x = rng.standard_normal((1, 8)).astype(np.float32)
            got = client.request({"x": x}, timeout=timeout, retry_after=0.5)["y"]
            np.testing.assert_allclose(got, want_sess.run(None, {"x": x})[0], rtol=1e-5, atol=1e-5)

        check(30)
        nodes[1].stop(signal.SIGKILL)  # the node dies hard, and its broker with it
        broker.stop()
        # meanwhile the port is held by a listener that accepts and hangs up: each accept is one attempt
        attempts = Attempts(port, "n1")
        nodes[1] = Node(dep, "n1", url, f"0.05,{max_backoff}")
        nodes[1].wait_for("connecting to")  # up and retrying
        time.sleep(max(4.0, 8 * max_backoff))  # back-off at its cap (the default reaches 1.6 s)
        gaps = attempts.close()
        back = time.monotonic()
        broker.start()
        connected = nodes[1].wait_for("node n1 (id") - back
        t0 = time.monotonic()
        check(30)  # the client's outputs resume, correct
        resumed = time.monotonic() - t0
        print(f"\nbroker back -> n1 connected {connected:.2f} s (back-off max {max_backoff} s); "
              f"first request after it {resumed:.2f} s")
        print(f"attempts {len(gaps) + 1}, gaps {[round(g, 2) for g in gaps]}")
        # doubling from MIN, capped at MAX: the setting is the one in force (the default would reach 2 s); each
        # wait is jittered to a random half to whole of itself (mqtt.py), so the capped ones lie in MAX/2..MAX
        assert len(gaps) >= 5 and gaps[0] < 0.5, gaps
        assert max(gaps) <= max_backoff + 0.5, gaps
        assert np.median(gaps[-3:]) >= 0.45 * max_backoff, gaps
        assert connected <= max_backoff + SLACK, connected
    finally:
        if client is not None:
            client.close()
        for n in nodes:
            n.stop()
        broker.stop()


def test_backoff_setting_is_parsed_strictly(dep: Path) -> None:
    from bb_edge.adapters.transports.mqtt import MqttConfig, MqttError

    cfg = MqttConfig.from_url("mqtt://127.0.0.1:1883?reconnect=0.1,3")
    assert (cfg.reconnect_min, cfg.reconnect_max) == (0.1, 3.0)
    assert (MqttConfig.from_url("mqtt://h").reconnect_min, MqttConfig.from_url("mqtt://h").reconnect_max) == (0.05, 2.0)
    for bad in ("3,1", "0,1", "x", "1,99999", "-1,2"):
        with pytest.raises(MqttError, match="MIN"):
            MqttConfig.from_url(f"mqtt://h?reconnect={bad}")
    r = subprocess.run([sys.executable, "-m", "bb_edge.cli", "node", str(dep), "--node", "n0", "--transport",
                        "mqtt://127.0.0.1:1", "--reconnect-backoff", "2,1"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.startswith("error: UsageError: ") and "MIN <= MAX" in r.stderr, r.stderr


def test_backoff_doubles_after_short_lived_connections() -> None:
    """Issue 35's connect storm: a connection closed within STABLE_S of its CONNACK (RabbitMQ's duplicate-id
    kick) doubles the next wait (jittered: a random half to whole of it, never under MIN) up to MAX; one that
    held restarts from MIN. Hand case over paho's own reconnect minimum."""
    from bb_edge.adapters.transports.mqtt import STABLE_S, MqttConfig, MqttTransport

    tr = MqttTransport(MqttConfig.from_url("mqtt://127.0.0.1:1?reconnect=0.1,1"), "dep", "n0", {"n0": 1})
    try:
        waits = []
        for _ in range(6):
            tr._up_at = time.monotonic()  # kicked right after its CONNACK
            tr._on_disconnect(tr.client, None, None, None, None)
            waits.append((tr._backoff, tr.client._reconnect_min_delay))
        assert [b for b, _ in waits] == [0.2, 0.4, 0.8, 1.0, 1.0, 1.0]
        assert all(max(0.1, b / 2) <= w <= b for b, w in waits), waits
        tr._up_at = time.monotonic() - STABLE_S - 1  # a connection that held
        tr._on_disconnect(tr.client, None, None, None, None)
        assert (tr._backoff, tr.client._reconnect_min_delay) == (0.1, 0.1)
    finally:
        tr.close()
