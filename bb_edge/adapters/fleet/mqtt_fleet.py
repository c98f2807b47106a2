"""A whole deployment over an MQTT broker: node threads in this process, or one process per node.

``bb-edge run DIR --transport mqtt://HOST:PORT[?creds=FILE] [--processes]``
lands in :func:`run_deployment`. This process is the host endpoint (id 0): it
publishes graph inputs to the owning nodes' inboxes on the input edge ids and
collects the graph outputs that the nodes (``outputs_to_host=True``) publish
to ``_host``. With ``processes=True`` each node is ``bb-edge node DIR --node
NAME --transport URL`` in its own OS process, stopped with SIGTERM at the end.

The host retries a request whose outputs are late (``retry`` on the control
topic, every node resends what it kept with the same sequence numbers), gives
a request up when a node reports it failed (ERROR envelope) or after
``timeout``, and then raises :class:`~bb_edge.adapters.fleet.hostloop.RunIncomplete`
carrying every output that did arrive (docs/transports.md).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

import bb_edge
from bb_edge.adapters.fleet.hostloop import HostEndpoint, HostLoop, ShutdownReport, seed_sequence
from bb_edge.adapters.transports.mqtt import MqttConfig, MqttTransport
from bb_edge.deployment.manifest import HOST_NAME, Deployment
from bb_edge.engine import Engine, events
from bb_edge.errors import BBError


class MqttFleet:
    """Every node of a deployment as an engine + MQTT client + host loop thread in this process."""

    def __init__(self, dep: Deployment, url: str, backend: Any = "ort",
                 on_events: Callable[[str, list[events.Event]], None] | None = None,
                 nodes: list[str] | None = None) -> None:
        self.dep = dep
        self.url = url
        self.cfg = MqttConfig.from_url(url)
        self.loops: dict[str, HostLoop] = {}
        self.threads: dict[str, threading.Thread] = {}
        self.events: dict[str, list[events.Event]] = {}
        self._on_events = on_events
        self.backend = backend
        for name in nodes or dep.node_names:
            self.add_node(name)

    def add_node(self, name: str) -> HostLoop:
        """Build (not start) the engine, transport and loop of ``name``."""
        eng = Engine.for_node(self.dep, name, backend=self.backend, outputs_to_host=True)
        seed_sequence(eng)
        tr = MqttTransport(self.cfg, self.dep.name, name, self.dep.ids())
        self.events[name] = []

        def sink(evs: list[events.Event], name: str = name) -> None:
            self.events[name].extend(evs)
            if self._on_events is not None:
                self._on_events(name, evs)

        loop = HostLoop(eng, tr, on_events=sink)
        self.loops[name] = loop
        return loop

    def start(self, timeout: float = 20.0) -> None:
        """Start every loop thread and wait until every client is connected."""
        for name, loop in self.loops.items():
            if name not in self.threads:
                self.threads[name] = loop.start_thread()
        for loop in self.loops.values():
            tr = loop.transport
            assert isinstance(tr, MqttTransport)
            tr.wait_connected(timeout)

    def stop_node(self, name: str, timeout: float = 20.0) -> ShutdownReport:
        """Stop one node cleanly and return its shutdown report."""
        loop = self.loops.pop(name)
        loop.request_stop()
        th = self.threads.pop(name, None)
        if th is not None:
            th.join(timeout)
        return loop.report or loop.shutdown()

    def stop(self, timeout: float = 20.0) -> dict[str, ShutdownReport]:
        """Stop every node; reports by node."""
        return {n: self.stop_node(n, timeout) for n in list(self.loops)}

    def transport(self, name: str) -> MqttTransport:
        """The MQTT transport of node ``name``."""
        tr = self.loops[name].transport
        assert isinstance(tr, MqttTransport)
        return tr


def host_endpoint(dep: Deployment, url: str) -> HostEndpoint:
    """A host endpoint (``_host``) on the broker of ``url``, opened and connected."""
    tr = MqttTransport(MqttConfig.from_url(url), dep.name, HOST_NAME, dep.ids())
    host = HostEndpoint(dep, tr)
    host.open()
    tr.wait_connected(20.0)
    return host


def node_command(directory: str | Path, node: str, url: str, backend: str = "ort",
                 extra: list[str] | None = None) -> list[str]:
    """argv that runs one node in its own process (``bb-edge node``)."""
    return [sys.executable, "-m", "bb_edge.cli", "node", str(directory), "--node", node, "--transport", url,
            "--backend", backend, *(extra or [])]


def spawn_node(directory: str | Path, node: str, url: str, backend: str = "ort",
               extra: list[str] | None = None, **popen: Any) -> subprocess.Popen[bytes]:
    """Start ``bb-edge node`` for ``node`` as a child process (its own session)."""
    env = dict(os.environ)
    root = str(Path(bb_edge.__file__).resolve().parent.parent)  # where bb_edge imports from
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("OMP_NUM_THREADS", "1")
    return subprocess.Popen(node_command(directory, node, url, backend, extra), env=env,
                            start_new_session=True, stdin=subprocess.DEVNULL, **popen)


def stop_process(proc: subprocess.Popen[bytes], timeout: float = 20.0) -> int:
    """SIGTERM a node process by pid (clean shutdown), SIGKILL if it does not exit in time."""
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout)
    return int(proc.returncode)


@contextlib.contextmanager
def running_fleet(dep: Deployment, url: str, backend: str = "ort", processes: bool = False,
                  up_timeout: float = 120.0, node_args: list[str] | None = None) -> Iterator[HostEndpoint]:
    """The host endpoint of ``dep``'s fleet started on the broker at ``url`` (node threads here, or one
    ``bb-edge node`` process per node, with ``node_args``), every node up; nodes stopped (by pid) and the
    host closed on exit."""
    host = host_endpoint(dep, url)
    fleet: MqttFleet | None = None
    procs: list[subprocess.Popen[bytes]] = []
    try:
        if processes:
            if dep.directory is None:
                raise BBError("--processes needs a deployment loaded from a directory")
            # their output goes nowhere: --quiet spares each node formatting every request's events for it
            procs = [spawn_node(dep.directory, n, url, backend, ["--quiet", *(node_args or [])],
                                stdout=subprocess.DEVNULL) for n in dep.node_names]
        else:
            fleet = MqttFleet(dep, url, backend=backend)
            fleet.start()
        deadline = time.monotonic() + up_timeout
        while True:
            try:
                host.wait_for_peers(dep.node_names, 0.5)
                break
            except BBError:
                dead = [p for p in procs if p.poll() is not None]
                if dead or time.monotonic() > deadline:
                    raise BBError(f"nodes did not come up: {sorted(set(dep.node_names) - host.up)}"
                                  + (f"; {len(dead)} node process(es) exited" if dead else "")) from None
        yield host
    finally:
        if fleet is not None:
            fleet.stop()
        for p in procs:
            stop_process(p)
        host.close()


def run_deployment(dep: Deployment, requests: list[dict[str, np.ndarray]], url: str,
                   backend: str = "ort", processes: bool = False, window: int = 4,
                   timeout: float = 120.0, retry_after: float = 5.0,
                   session: int | None = None) -> list[dict[str, np.ndarray]]:
    """Run every request through the fleet over the broker at ``url``; graph outputs per request.

    ``session``: the requests are the steps of the host's session ``session``, closed at the end.

    Raises :class:`~bb_edge.adapters.fleet.hostloop.RunIncomplete` (with the outputs
    that arrived) when a request fails at a node or misses ``timeout``.
    """
    with running_fleet(dep, url, backend, processes, up_timeout=timeout) as host:
        try:
            return host.run(requests, window=window, timeout=timeout, retry_after=retry_after, session=session)
        finally:
            if session is not None:
                host.close_session(session)  # its state is freed on every stage at once
