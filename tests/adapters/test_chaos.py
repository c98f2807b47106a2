"""Chaos: a 3-node MQTT fleet of real processes under random SIGKILL/SIGSTOP, a broker restart, garbage
publishes and impostor envelopes. Every request completes exactly once with the in-process outputs.

Bounded for CI: ``BB_CHAOS_SECONDS`` (default 25) seconds of chaos, ``BB_CHAOS_SEED`` (default 1) for
the schedule. For a long soak: ``BB_CHAOS_SECONDS=600 pytest tests/adapters/test_chaos.py -s``.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import threading
import time
from pathlib import Path

import numpy as np

from bb_edge.adapters.fleet.mqtt_fleet import host_endpoint, spawn_node, stop_process
from bb_edge.adapters.ops.broker import Broker, BrokerFiles
from bb_edge.adapters.transports.mqtt import MqttTransport
from bb_edge.deployment.manifest import Deployment
from bb_edge.wire import Envelope, encode
from tests.support.transport_helpers import assert_same_outputs

pytest_plugins = ["tests.support.transport_fixtures"]

SECONDS = float(os.environ.get("BB_CHAOS_SECONDS", "25"))
SEED = int(os.environ.get("BB_CHAOS_SEED", "1"))
BATCH = 12


class Chaos:
    """The chaos monkey: one thread doing seeded random harm to the fleet until :meth:`stop`."""

    def __init__(self, dep: Deployment, directory: Path, url: str, broker: Broker,
                 procs: dict[str, subprocess.Popen[bytes]], tr: MqttTransport) -> None:
        self.dep, self.dir, self.url, self.broker, self.procs, self.tr = dep, directory, url, broker, procs, tr
        self.rng = random.Random(SEED)
        self.log: list[str] = []
        self.stopped: set[str] = set()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.broker_restarted = False
        self.th = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        """Start harming."""
        self.th.start()

    def stop(self) -> None:
        """Stop harming; every node resumed (SIGCONT) and running."""
        self._stop.set()
        self.th.join(60)
        with self._lock:
            for name in list(self.stopped):
                os.kill(self.procs[name].pid, signal.SIGCONT)
            self.stopped.clear()

    def _sleep(self, a: float, b: float) -> None:
        self._stop.wait(self.rng.uniform(a, b))

    def _run(self) -> None:
        end = time.monotonic() + SECONDS
        restart_at = time.monotonic() + SECONDS * self.rng.uniform(0.2, 0.6)
        ids = self.dep.ids()
        (inp,) = self.dep.inputs
        while not self._stop.is_set() and time.monotonic() < end:
            if not self.broker_restarted and time.monotonic() >= restart_at:
                self.log.append("broker restart")
                self.broker.stop()  # SIGTERM by pid: sessions and queues are saved
                self._sleep(0.2, 1.0)
                self.broker.start()
                self.broker_restarted = True
                continue
            action = self.rng.choice(["kill", "stop", "garbage", "impostor"])
            if not any(x.startswith("SIGKILL") for x in self.log):
                action = "kill"  # every schedule has at least one SIGKILL
            victim = self.rng.choice(self.dep.node_names)
            if action == "kill":
                self.log.append(f"SIGKILL {victim}")
                p = self.procs[victim]
                os.kill(p.pid, signal.SIGKILL)
                p.wait(10)
                self._sleep(0.1, 1.0)
                self.procs[victim] = spawn_node(self.dir, victim, self.url, stdout=subprocess.DEVNULL)
            elif action == "stop":
                self.log.append(f"SIGSTOP {victim}")
                with self._lock:
                    os.kill(self.procs[victim].pid, signal.SIGSTOP)
                    self.stopped.add(victim)
                self._sleep(0.3, 2.0)
                with self._lock:
                    os.kill(self.procs[victim].pid, signal.SIGCONT)
                    self.stopped.discard(victim)
            elif action == "garbage":
                self.log.append("garbage")
                # random bytes into the input owner's inbox, and on the fleet control topic
                self.tr.send(inp.node, ids[inp.node], self.rng.randbytes(self.rng.randint(1, 300)))
                self.tr.control(self.rng.randbytes(self.rng.randint(1, 40)))
                self.tr.control(b"retry not-a-number")
            else:
                self.log.append("impostor")
                # the host's client publishes, claiming in the header to be another node
                other = self.rng.choice([n for n in self.dep.node_names if n != inp.node])
                fake = Envelope.for_array(np.zeros(inp.shape, inp.dtype), sender=ids[other], receiver=ids[inp.node],
                                          seq=self.rng.getrandbits(63), request_id=1, edge=inp.edge_id)
                self.tr.send(inp.node, ids[inp.node], encode(fake))
            self._sleep(0.3, 1.2)


def test_chaos_every_request_exactly_once(squeeze_dir: Path, squeeze_dep: Deployment, broker: Broker,
                                          broker_files: BrokerFiles, squeeze_requests: list,
                                          squeeze_reference: list) -> None:
    """Requests stream in batches while the chaos monkey runs; all complete, exactly once, bit-identical."""
    url = broker_files.url()
    procs = {n: spawn_node(squeeze_dir, n, url, stdout=subprocess.DEVNULL) for n in squeeze_dep.node_names}
    host = host_endpoint(squeeze_dep, url)
    assert isinstance(host.transport, MqttTransport)
    chaos = Chaos(squeeze_dep, squeeze_dir, url, broker, procs, host.transport)
    got: list[dict[str, np.ndarray]] = []
    want: list[dict[str, np.ndarray]] = []
    t0 = time.monotonic()
    try:
        host.wait_for_peers(squeeze_dep.node_names, 60)
        chaos.start()
        k = 0
        while chaos.th.is_alive() or len(got) < 2 * BATCH:
            reqs = [squeeze_requests[(k + i) % len(squeeze_requests)] for i in range(BATCH)]
            want += [squeeze_reference[(k + i) % len(squeeze_reference)] for i in range(BATCH)]
            k += BATCH
            got += host.run(reqs, window=6, timeout=SECONDS + 120, retry_after=3.0)
    finally:
        chaos.stop()
        try:  # a node respawned just now has no SIGTERM handler until it is up: wait for that first
            host.wait_for_peers(squeeze_dep.node_names, 60)
        finally:
            codes = {n: stop_process(p) for n, p in procs.items()}
        host.close()
    took = time.monotonic() - t0
    print(f"chaos seed {SEED}, {took:.1f}s: {len(got)} requests, {host.stats.retries} retries, "
          f"{host.stats.duplicates} duplicate outputs dropped, {host.stats.refused} refused; "
          f"actions: {chaos.log}; refusals: {sorted({e.reason for e in host.events if hasattr(e, 'reason')})}")
    assert chaos.broker_restarted and any(a.startswith("SIGKILL") for a in chaos.log), chaos.log
    assert_same_outputs(got, want)
    assert host.stats.outputs == len(want), host.stats  # every output accepted exactly once
    assert set(codes.values()) <= {0, 3}, codes
