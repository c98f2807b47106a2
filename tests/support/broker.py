"""Real Mosquitto for the tests: an anonymous one on a free loopback port for the learning fleets (start, stop
by pid, and the per-test ``mqtt_url`` fixture, loaded with ``pytest_plugins = ["tests.support.broker"]``), and
``MqttUser``, a paho client logged in as one user that records what it receives."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bb_edge.adapters.ops.broker import free_port, mosquitto_binary


def start_broker(directory: Path, extra: str = "") -> tuple[subprocess.Popen[bytes], str]:
    """A real Mosquitto (anonymous, loopback, a free port; ``extra``: more mosquitto.conf lines) and its URL;
    the caller stops it by pid."""
    port = free_port()
    directory.mkdir(parents=True, exist_ok=True)
    conf = directory / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n{extra}")
    proc = subprocess.Popen([mosquitto_binary(), "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, f"mqtt://127.0.0.1:{port}"
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                proc.wait(10)
                raise RuntimeError("mosquitto did not start") from None
            time.sleep(0.05)


def stop_broker(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the broker by pid and reap it."""
    os.kill(proc.pid, signal.SIGTERM)
    proc.wait(10)


@pytest.fixture
def mqtt_url(tmp_path: Path) -> Iterator[str]:
    """A real Mosquitto on a free port for one test, stopped by pid afterwards."""
    proc, url = start_broker(tmp_path / "broker")
    try:
        yield url
    finally:
        stop_broker(proc)


class MqttUser:
    """A paho client logged in as ``user`` that records what it receives on its subscriptions."""

    def __init__(self, port: int, user: str, password: str, subs: tuple[str, ...] = (), clean: bool = True) -> None:
        import paho.mqtt.client as paho
        from paho.mqtt.enums import CallbackAPIVersion

        self.got: list[tuple[str, bytes]] = []
        self.rc: object = None
        self.ready = threading.Event()
        self.subs = subs
        c = paho.Client(CallbackAPIVersion.VERSION2, client_id=user, clean_session=clean, protocol=paho.MQTTv311)
        c.username_pw_set(user, password)
        c.on_connect = self._on_connect
        c.on_subscribe = lambda *a: self.ready.set()
        c.on_message = lambda cl, u, m: self.got.append((m.topic, bytes(m.payload)))
        self.c = c
        c.connect("127.0.0.1", port, keepalive=5)
        c.loop_start()
        assert self.ready.wait(10), f"{user} did not connect/subscribe (rc {self.rc})"

    def _on_connect(self, cl: object, u: object, flags: object, rc: object, props: object) -> None:
        self.rc = rc
        if getattr(rc, "is_failure", False):
            self.ready.set()
            return
        if self.subs:
            self.c.subscribe([(t, 1) for t in self.subs])
        else:
            self.ready.set()

    def publish(self, topic: str, payload: bytes) -> None:
        """QoS-1 publish, waiting for the PUBACK (a denied publish is acknowledged too, MQTT 3.1.1)."""
        self.c.publish(topic, payload, qos=1).wait_for_publish(10)

    def topics(self) -> list[str]:
        """The topics of everything received so far."""
        return [t for t, _ in self.got]

    def close(self) -> None:
        """Disconnect and stop the network thread."""
        self.c.disconnect()
        self.c.loop_stop()
