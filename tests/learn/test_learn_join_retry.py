"""Issue 35 for the Python FedAvg client: a JOIN the broker drops is sent again until the server answers.

A real Mosquitto with small per-client bounds (``max_inflight_messages 2``, ``max_queued_messages 40``:
room for a round's UPDATEs; past the bound it drops what it would queue for a client, after acknowledging
it to its publisher), a FedAvg fleet of ``bb-edge node`` processes, and the server stopped (SIGSTOP) once
it is subscribed and connected until a few seconds after the fleet's start. While it is stopped the test
fills the server's queue with other traffic (presence records of a node outside the deployment, which the
server ignores), so each client's first JOIN finds the queue full and is dropped, as a JOIN behind other
clients' messages is on a server that fell behind. Oracle: the server's own log: every client joined exactly once
(one PeerJoined each: the retries of one boot count once) and round 1 accepted the whole cohort. Without
the retry (the JOIN sent once) no client joins and no round starts: the run ends in FleetRunError at 30 s
(measured: 0 of 6 joined; with it 6 of 6, about 10 s).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bb_edge.adapters.learn.fleet import run_learning_fleet
from bb_edge.deployment.manifest import load_deployment
from bb_edge.training.setup import write_learning_deployment
from bb_edge.wire.topics import Topics
from tests.support.broker import start_broker, stop_broker
from tests.support.processes import node_pid

CLIENTS = 6
INFLIGHT, QUEUE = 2, 40  # per client: room for a round's UPDATEs and heartbeats, far less than the filler
STALL = 3.0  # seconds the server reads nothing: each client's JOIN retried ~6 times meanwhile (heartbeat 0.5 s)


class _Filler:
    """A paho client that watches the server's presence and publishes filler messages to ``topic``."""

    def __init__(self, url: str, topic: str, server_presence: str) -> None:
        import paho.mqtt.client as paho
        from paho.mqtt.enums import CallbackAPIVersion

        self.topic = topic
        self.server_up = threading.Event()
        self.c = paho.Client(CallbackAPIVersion.VERSION2, client_id="filler", protocol=paho.MQTTv311)
        self.c.on_message = lambda cl, u, m: m.payload == b"up" and self.server_up.set()
        self.c.connect("127.0.0.1", int(url.rsplit(":", 1)[1]), keepalive=30)
        self.c.subscribe(server_presence, 1)
        self.c.loop_start()

    def fill(self, n: int) -> None:
        """``n`` presence records of the filler node, each acknowledged (PUBACK) before the next."""
        for _ in range(n):
            self.c.publish(self.topic, b"up", qos=1).wait_for_publish(10)

    def close(self) -> None:
        """Disconnect and stop the network thread."""
        self.c.disconnect()
        self.c.loop_stop()


@pytest.fixture
def small_queue_url(tmp_path: Path) -> Iterator[str]:
    """A real Mosquitto (anonymous, loopback) holding INFLIGHT messages in flight and QUEUE queued per client."""
    proc, url = start_broker(tmp_path, f"max_inflight_messages {INFLIGHT}\nmax_queued_messages {QUEUE}\n")
    try:
        yield url
    finally:
        stop_broker(proc)


def test_python_clients_join_through_a_dropping_broker(tmp_path: Path, small_queue_url: str) -> None:
    """Every client joins once and round 1 has them all, though the broker dropped JOINs (see the docstring)."""
    learning = {"strategy": "fedavg", "clients": CLIENTS, "rounds": 1, "seed": 5, "heartbeat": 0.5,
                "round_timeout": 20.0, "data": {"source": "digits", "partition": {"type": "partition.iid"}}}
    d = tmp_path / "dep"
    write_learning_deployment(d, learning)
    work = tmp_path / "work"
    stalled: list[int] = []

    def stall() -> None:  # the server reads nothing from before the clients start until STALL s after the origin
        deadline = time.monotonic() + 60
        if not filler.server_up.wait(60):  # the server's own presence: published after it subscribed
            return
        log = work / "server.log"  # and its "node server (id 1)" line, which the runner waits for
        while time.monotonic() < deadline and not (log.exists() and "node server (id" in log.read_text()):
            time.sleep(0.005)
        pid = node_pid(d, "server")
        if pid is None:
            return
        os.kill(pid, signal.SIGSTOP)
        stalled.append(time.monotonic())
        try:
            filler.fill(2 * (QUEUE + INFLIGHT))  # the server's queue is full before any client sends its JOIN
            while not (work / "start").exists() and time.monotonic() < deadline:
                time.sleep(0.005)
            time.sleep(0.5 + STALL)  # the nodes start on the origin, 0.5 s after the start file
        finally:
            os.kill(pid, signal.SIGCONT)
            stalled.append(time.monotonic())

    topics = Topics(load_deployment(d).name)
    filler = _Filler(small_queue_url, topics.presence("filler"), topics.presence("server"))
    th = threading.Thread(target=stall, daemon=True)
    th.start()
    try:
        # start_after = connect_timeout: a round waiting for lost JOINs starts at 15 s with fewer clients
        res = run_learning_fleet(load_deployment(d), small_queue_url, workdir=work, connect_timeout=15, timeout=30)
    finally:
        th.join(30)
        filler.close()
    assert len(stalled) == 2, "the server was never stopped"
    print(f"server stopped {stalled[1] - stalled[0]:.1f} s")
    log = (work / "server.log").read_text(errors="replace").splitlines()
    joined = [ln.split(" peer=")[1].split()[0] for ln in log if ln.startswith("event PeerJoined ")]
    done = [ln for ln in log if ln.startswith("event RoundCompleted ")]
    assert len(joined) == len(set(joined)) == CLIENTS, joined
    assert done and f"accepted={CLIENTS} cohort={CLIENTS}" in done[0], done
    assert res.counts.get("RoundCompleted") == 1, res.counts
