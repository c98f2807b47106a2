"""A whole deployment over serial lines: one pty pair per node, star-wired to a hub.

``bb-edge run DIR --transport serial://pty[?options] [--processes]`` lands in
:func:`run_deployment`. This process owns the hub end (the pty master) of one
pseudo-terminal per node and routes frames between them
(:class:`bb_edge.adapters.transports.serial_link.SerialHub`); it is also the host endpoint (id
0). Each node opens the other end, a real tty at ``/dev/pts/N``, through
pyserial, as a thread here or, with ``processes=True``, as ``bb-edge node DIR
--node NAME --transport serial:///dev/pts/N`` in its own OS process.

Options: ``baud`` (default 921600; ptys ignore it), ``rate`` (bytes/s the
retransmission timeout assumes, default 100 MB/s for ptys), ``rto``, and for fault injection on every line
(both directions when the nodes are threads, hub to node with processes)
``corrupt`` (per-byte rate), ``corrupt_frames`` (per-frame rate), ``noise``
(burst rate per frame), ``corrupt_every`` / ``noise_every`` (every N-th
frame, deterministic), ``drop`` (per-byte loss rate) and ``seed``; ``mtu``
caps the link frames every end sends (small frames for noisy lines). Liveness: ``hb`` (heartbeat interval, s,
default 0.25; 0 disables) and ``miss`` (heartbeats missed before a node is
down, default 4) apply to the hub's links and the nodes' (docs/transports.md).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

import numpy as np

from bb_edge.adapters.fleet.hostloop import HostEndpoint, HostLoop, ShutdownReport, seed_sequence
from bb_edge.adapters.fleet.mqtt_fleet import spawn_node, stop_process
from bb_edge.adapters.transports.serial_link import (
    DEFAULT_SERIAL_MTU,
    FaultyPort,
    FdPort,
    Port,
    PtyPair,
    SerialHub,
    SerialLink,
    SerialSpec,
    SerialTransport,
)
from bb_edge.deployment.manifest import Deployment
from bb_edge.engine import Engine, events
from bb_edge.errors import BBError


@dataclass
class PtyFleetOptions:
    """Options of a pty-wired fleet (parsed from ``serial://pty?...``)."""

    baud: int = 921_600
    rate: float = 100e6
    rto: float = 0.2
    hb: float = 0.25
    miss: int = 4
    corrupt: float = 0.0
    corrupt_frames: float = 0.0
    noise: float = 0.0
    corrupt_every: int = 0
    noise_every: int = 0
    drop: float = 0.0
    mtu: int = DEFAULT_SERIAL_MTU  # 0: frames up to the peer's max_frame (clean lines only)
    seed: int = 0

    @property
    def faulty(self) -> bool:
        """True when any fault injection is configured."""
        return bool(self.corrupt or self.corrupt_frames or self.noise or self.corrupt_every or self.noise_every
                    or self.drop)

    def wrap(self, port: Port, seed: int) -> FaultyPort:
        """``port`` behind the configured fault injection."""
        return FaultyPort(port, self.corrupt, self.corrupt_frames, self.noise, self.seed + seed,
                          self.corrupt_every, self.noise_every, self.drop)

    @classmethod
    def parse(cls, url: str) -> PtyFleetOptions:
        """Options from ``serial://pty?baud=..&rto=..&corrupt=..&corrupt_frames=..&noise=..&seed=..``."""
        base, _, query = url.partition("?")
        if base not in ("serial://pty", "serial:pty", "serial://"):
            raise BBError(f"{url!r}: a whole-fleet serial run needs serial://pty (one pty pair per node)")
        o = cls()
        for k, v in parse_qsl(query):
            if k not in o.__dataclass_fields__:
                raise BBError(f"unknown option {k!r} in {url!r}")
            setattr(o, k, type(getattr(o, k))(v))
        return o


@dataclass
class PtyFleet:
    """Hub (this process) + one pty pair per node + node loops (threads) or processes."""

    dep: Deployment
    options: PtyFleetOptions = field(default_factory=PtyFleetOptions)
    backend: Any = "ort"
    on_events: Callable[[str, list[events.Event]], None] | None = None
    ptys: dict[str, PtyPair] = field(default_factory=dict)
    faulty: dict[str, FaultyPort] = field(default_factory=dict)
    hub_links: dict[str, SerialLink] = field(default_factory=dict)
    loops: dict[str, HostLoop] = field(default_factory=dict)
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    events: dict[str, list[events.Event]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        o = self.options
        for i, name in enumerate(self.dep.node_names):
            pty = self.ptys[name] = PtyPair.open()
            port: Port = FdPort(pty.master)
            if o.faulty:
                port = self.faulty[f"hub-{name}"] = o.wrap(port, 2 * i)
            self.hub_links[name] = SerialLink(port, o.baud, o.rto, name=f"hub-{name}", rate=o.rate,
                                              heartbeat=o.hb, miss=o.miss, node_id=0, node_name="hub",
                                              mtu=o.mtu)
        self.hub = SerialHub(self.hub_links, self.dep.ids())

    def node_url(self, name: str) -> str:
        """The ``serial:`` URL node ``name`` opens."""
        o = self.options
        return (f"serial://{self.ptys[name].slave_path}?baud={o.baud}&rto={o.rto}&rate={o.rate}"
                f"&hb={o.hb}&miss={o.miss}&mtu={o.mtu}")

    def start_threads(self) -> None:
        """Run every node as a host loop thread in this process."""
        for name in self.dep.node_names:
            eng = Engine.for_node(self.dep, name, backend=self.backend, outputs_to_host=True)
            seed_sequence(eng)
            self.events[name] = []

            def sink(evs: list[events.Event], name: str = name) -> None:
                self.events[name].extend(evs)
                if self.on_events is not None:
                    self.on_events(name, evs)

            spec = SerialSpec.parse(self.node_url(name))
            port = spec.open_port()
            if self.options.faulty:
                port = self.faulty[name] = self.options.wrap(port, 2 * self.dep.node_names.index(name) + 1)
            tr = SerialTransport(SerialLink(port, spec.baud, spec.rto, spec.retries, spec.arq, name, spec.rate,
                                            heartbeat=spec.hb, miss=spec.miss, node_id=self.dep.ids()[name],
                                            node_name=name, mtu=spec.mtu), self.dep.ids(), name)
            loop = self.loops[name] = HostLoop(eng, tr, on_events=sink)
            eng.hello()
            loop.start_thread()

    def start_processes(self, stdout: int | None = subprocess.DEVNULL) -> None:
        """Run every node as ``bb-edge node`` in its own process (``stdout``: e.g. ``subprocess.PIPE``)."""
        for name in self.dep.node_names:
            self.start_process(name, stdout)

    def start_process(self, name: str, stdout: int | None = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
        """Start (or restart, on the same pty) node ``name`` as a ``bb-edge node`` process."""
        if self.dep.directory is None:
            raise BBError("--processes needs a deployment loaded from a directory")
        old = self.procs.get(name)
        if old is not None and old.poll() is None:
            raise BBError(f"node {name!r} is still running (pid {old.pid})")
        proc = self.procs[name] = spawn_node(self.dep.directory, name, self.node_url(name), self.backend,
                                             stdout=stdout)
        return proc

    def kill_process(self, name: str, timeout: float = 10.0) -> int:
        """SIGKILL node ``name``'s process by pid (a crash: nothing is flushed); return its exit status."""
        proc = self.procs[name]
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        return int(proc.wait(timeout))

    def host(self) -> HostEndpoint:
        """The host endpoint on the hub, opened."""
        h = HostEndpoint(self.dep, self.hub)
        h.open()
        return h

    def wait_up(self, host: HostEndpoint, timeout: float = 60.0) -> None:
        """Wait for every node's HELLO (fail early if a node process died)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                host.wait_for_peers(self.dep.node_names, 0.5)
                return
            except BBError:
                dead = [n for n, p in self.procs.items() if p.poll() is not None]
                if dead or time.monotonic() > deadline:
                    missing = sorted(set(self.dep.node_names) - host.up)
                    raise BBError(f"serial nodes did not come up: {missing}"
                                  + (f"; exited: {dead}" if dead else "")) from None

    def stop(self) -> dict[str, ShutdownReport]:
        """Stop nodes (loops or processes), then the hub, then close the ptys."""
        reports = {}
        for loop in self.loops.values():
            loop.request_stop()
        for name, loop in self.loops.items():
            for _ in range(200):
                if loop.report is not None:
                    break
                time.sleep(0.05)
            if loop.report is not None:
                reports[name] = loop.report
        for p in self.procs.values():
            stop_process(p)
        self.hub.close()
        for pty in self.ptys.values():
            pty.close()
        return reports

    def frames_dropped(self) -> dict[str, int]:
        """Frames dropped by every decoder: ``hub-<node>`` (hub side) and ``<node>`` (thread nodes)."""
        out = {f"hub-{n}": link.frames_dropped for n, link in self.hub_links.items()}
        for n, loop in self.loops.items():
            tr = loop.transport
            if isinstance(tr, SerialTransport):
                out[n] = tr.link.frames_dropped
        return out


def run_deployment(dep: Deployment, requests: list[dict[str, np.ndarray]], url: str,
                   backend: str = "ort", processes: bool = False, window: int = 4,
                   timeout: float = 120.0, session: int | None = None) -> list[dict[str, np.ndarray]]:
    """Run every request over a pty-wired serial fleet; graph outputs per request (``session``: as the steps
    of the host's session ``session``)."""
    fleet = PtyFleet(dep, PtyFleetOptions.parse(url), backend)
    host = fleet.host()
    try:
        fleet.start_processes() if processes else fleet.start_threads()
        fleet.wait_up(host)
        return host.run(requests, window=window, timeout=timeout, session=session)
    finally:
        fleet.stop()
