"""A real anonymous Mosquitto on a free loopback port for the learning-fleet tests: start, stop by pid, and the
per-test ``mqtt_url`` fixture (test modules load it with ``pytest_plugins = ["tests.support.broker"]``)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bb_edge.adapters.ops.broker import free_port, mosquitto_binary


def start_broker(directory: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A real Mosquitto (anonymous, loopback, a free port) and its URL; the caller stops it by pid."""
    port = free_port()
    directory.mkdir(parents=True, exist_ok=True)
    conf = directory / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
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
