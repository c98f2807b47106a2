"""The host loop: the I/O driver that owns one sans-IO Engine.

A :class:`HostLoop` feeds inbound bytes from a :class:`Transport` into its
engine, calls ``poll`` with the current time, ships every outbound envelope,
runs timers and dispatches engine events. On SIGINT/SIGTERM (or
:meth:`HostLoop.request_stop`) it shuts down in order:

1. the transport stops accepting inbound envelopes (MQTT withholds the
   PUBACK, so the broker redelivers them to the next incarnation of the node);
2. a final ``poll`` runs everything already received and ships the results;
3. the transport waits (bounded) for every outbound envelope to be confirmed;
4. a :class:`ShutdownReport` says how many were confirmed and how many were
   not: in-flight envelopes are flushed or reported, never silently lost.

:class:`HostEndpoint` is the other end of a deployment: the *host* (node id
0, ``_host``) that sends graph inputs and collects graph outputs over any
transport.
"""

from __future__ import annotations

import signal
import struct
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from bb_edge.compiler.manifest import HOST_ID, Deployment
from bb_edge.engine import Engine, events
from bb_edge.errors import BBError, WireError
from bb_edge.wire import envelope as wire

DeliverFn = Callable[[str, bytes], None]
PeerFn = Callable[[str, bool, str], None]


class Transport(Protocol):
    """What a host loop needs from a link (MQTT client, serial port ...)."""

    def open(self, deliver: DeliverFn, on_peer: PeerFn | None = None,
             on_control: Callable[[bytes], None] | None = None) -> None:
        """Start I/O; call ``deliver(peer, envelope)`` for each inbound envelope (any thread)."""
        ...

    def send(self, peer: str, receiver: int, data: bytes) -> None:
        """Ship one encoded envelope to ``peer`` (node id ``receiver``); must not block for long."""
        ...

    def stop_inbound(self) -> None:
        """Stop handing inbound envelopes to ``deliver`` (they stay with the link/broker)."""
        ...

    def flush(self, timeout: float) -> int:
        """Wait up to ``timeout`` s until every sent envelope is confirmed; return how many are not."""
        ...

    def close(self) -> None:
        """Release every resource (after :meth:`flush`)."""
        ...


def seed_sequence(engine: Engine, base: int | None = None) -> int:
    """Start ``engine``'s outbound sequence numbers at a wall-clock base (ns since the epoch).

    Peers keep ``(sender, seq)`` in their duplicate filter, so a restarted
    node that counted from 1 again would have its first envelopes dropped as
    duplicates. A nanosecond clock base is larger than any sequence number an
    earlier incarnation of the node could have reached.
    """
    base = time.time_ns() if base is None else base
    engine.start_sequence_at(base)
    return base


@dataclass
class ShutdownReport:
    """What happened to in-flight work when a loop stopped."""

    node: str
    envelopes_sent: int
    unconfirmed: int
    open_requests: int
    pending_ingress: int

    @property
    def clean(self) -> bool:
        """True when every sent envelope was confirmed and nothing was left unprocessed."""
        return self.unconfirmed == 0 and self.pending_ingress == 0

    def __str__(self) -> str:
        return (f"{self.node}: sent {self.envelopes_sent} envelope(s), {self.unconfirmed} unconfirmed, "
                f"{self.open_requests} open request(s), {self.pending_ingress} unprocessed inbound")


@dataclass
class _Timer:
    interval: float
    fn: Callable[[float], None]
    due: float


class HostLoop:
    """Drive one engine over one transport (see the module docstring)."""

    def __init__(
        self,
        engine: Engine,
        transport: Transport,
        clock: Callable[[], float] = time.monotonic,
        idle: float = 0.05,
        on_events: Callable[[list[events.Event]], None] | None = None,
        flush_timeout: float = 10.0,
    ) -> None:
        self.engine = engine
        self.transport = transport
        self.clock = clock
        self.idle = idle
        self.on_events = on_events
        self.flush_timeout = flush_timeout
        self.sent = 0
        self.report: ShutdownReport | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._timers: list[_Timer] = []
        self._opened = False

    # ------------------------------------------------------------ inbound

    def _deliver(self, peer: str, data: bytes) -> None:
        self.engine.deliver(peer, data)
        self._wake.set()

    def _peer(self, name: str, up: bool, reason: str) -> None:
        self.engine.push_event(events.PeerUp(name) if up else events.PeerDown(name, reason))
        self._wake.set()

    def _control(self, payload: bytes) -> None:
        if payload.strip() == b"stop":
            self.request_stop()

    # ----------------------------------------------------------- control

    def open(self) -> None:
        """Open the transport (idempotent)."""
        if not self._opened:
            self.transport.open(self._deliver, self._peer, self._control)
            self._opened = True

    def submit(self, request_id: int, inputs: dict[str, np.ndarray]) -> None:
        """Submit graph inputs this node owns (thread-safe)."""
        self.engine.submit(request_id, inputs)
        self._wake.set()

    def call_every(self, interval: float, fn: Callable[[float], None]) -> None:
        """Run ``fn(now)`` on the loop thread every ``interval`` seconds."""
        self._timers.append(_Timer(interval, fn, self.clock() + interval))
        self._wake.set()

    def request_stop(self) -> None:
        """Ask :meth:`run` to shut down cleanly (thread- and signal-safe)."""
        self._stop.set()
        self._wake.set()

    @property
    def stopping(self) -> bool:
        """True once a stop was requested."""
        return self._stop.is_set()

    def install_signal_handlers(self) -> None:
        """Turn SIGINT and SIGTERM into :meth:`request_stop` (main thread only)."""
        def handler(signum: int, frame: Any) -> None:
            self.request_stop()

        signal.signal(signal.SIGINT, handler)
        signal.signal(signal.SIGTERM, handler)

    # --------------------------------------------------------------- loop

    def step(self) -> int:
        """Run due timers, poll the engine once, ship its output; return envelopes shipped."""
        now = self.clock()
        for t in self._timers:
            if now >= t.due:
                t.due = now + t.interval
                t.fn(now)
        out = self.engine.poll(now)
        out += self.engine.flush_outbound()
        for o in out:
            self.transport.send(o.peer, o.receiver, o.data)
        self.sent += len(out)
        evs = self.engine.drain_events()
        if evs and self.on_events is not None:
            self.on_events(evs)
        return len(out)

    def _timeout(self) -> float:
        if not self._timers:
            return self.idle
        return max(0.0, min(self.idle, min(t.due for t in self._timers) - self.clock()))

    def run(self) -> ShutdownReport:
        """Loop until a stop is requested, then shut down cleanly and return the report."""
        self.open()
        while not self._stop.is_set():
            self._wake.wait(self._timeout())
            self._wake.clear()
            self.step()
        return self.shutdown()

    def shutdown(self) -> ShutdownReport:
        """Stop inbound, run what was received, flush outbound, close (see the module docstring)."""
        if self.report is not None:
            return self.report
        self.transport.stop_inbound()
        while self.step() or self.engine.pending_ingress:
            pass
        unconfirmed = self.transport.flush(self.flush_timeout)
        self.transport.close()
        self.report = ShutdownReport(self.engine.node, self.sent, unconfirmed, self.engine.open_requests,
                                     self.engine.pending_ingress)
        return self.report

    def start_thread(self) -> threading.Thread:
        """Run the loop in a daemon thread (for in-process fleets); stop with :meth:`request_stop`."""
        self.open()
        th = threading.Thread(target=self.run, name=f"hostloop-{self.engine.node}", daemon=True)
        th.start()
        return th


# ---------------------------------------------------------------- host end


def envelope_ids(data: bytes) -> tuple[int, int, int]:
    """``(sender, receiver, seq)`` read straight from an envelope header (no validation)."""
    if len(data) < wire.HEADER_SIZE:
        raise WireError("TRUNCATED", f"{len(data)} bytes is shorter than an envelope header")
    sender, receiver, seq = struct.unpack_from("<IIQ", data, 8)
    return sender, receiver, seq


class DedupFilter:
    """Bounded memory of seen ``(sender, seq)`` pairs."""

    def __init__(self, size: int = 1 << 16) -> None:
        self.size = size
        self._seen: OrderedDict[tuple[int, int], None] = OrderedDict()
        self._lock = threading.Lock()

    def first_time(self, sender: int, seq: int) -> bool:
        """True the first time a pair is seen, False for a repeat."""
        key = (sender, seq)
        with self._lock:
            if key in self._seen:
                return False
            self._seen[key] = None
            if len(self._seen) > self.size:
                self._seen.popitem(last=False)
            return True


@dataclass
class HostStats:
    """Counters of a host endpoint."""

    inputs_sent: int = 0
    outputs: int = 0
    duplicates: int = 0
    rejected: int = 0
    unexpected: int = 0
    peer_events: list[tuple[str, bool, str]] = field(default_factory=list)


class HostEndpoint:
    """The host (id 0): sends graph inputs to their owners, collects graph outputs."""

    def __init__(self, deployment: Deployment, transport: Transport, seq_base: int | None = None) -> None:
        self.dep = deployment
        self.transport = transport
        self.ids = deployment.ids()
        self._seq = time.time_ns() if seq_base is None else seq_base
        self._out_names = {o.edge_id: o.name for o in deployment.outputs}
        self._want = {o.name for o in deployment.outputs}
        self._results: dict[int, dict[str, np.ndarray]] = {}
        self._cond = threading.Condition()
        self._dedup = DedupFilter()
        self.up: set[str] = set()
        self.stats = HostStats()

    def open(self) -> None:
        """Open the transport."""
        self.transport.open(self._on_envelope, self._on_peer)

    def _on_peer(self, name: str, up: bool, reason: str) -> None:
        with self._cond:
            self.stats.peer_events.append((name, up, reason))
            (self.up.add if up else self.up.discard)(name)
            self._cond.notify_all()

    def _on_envelope(self, peer: str, data: bytes) -> None:
        try:
            env = wire.decode(data)
        except WireError:
            self.stats.rejected += 1
            return
        if not self._dedup.first_time(env.sender, env.seq):
            self.stats.duplicates += 1
            return
        name = self._out_names.get(env.edge)
        if env.kind != wire.KIND_DATA or name is None or env.receiver != HOST_ID:
            self.stats.unexpected += 1
            return
        value = np.array(env.array())
        with self._cond:
            slot = self._results.get(env.request_id)
            if slot is None:
                self.stats.unexpected += 1  # an output of an earlier run
                return
            slot[name] = value
            self.stats.outputs += 1
            self._cond.notify_all()

    def wait_for_peers(self, names: list[str], timeout: float) -> None:
        """Block until every node in ``names`` announced itself up; BBError after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not set(names) <= self.up:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BBError(f"nodes {sorted(set(names) - self.up)} did not come up within {timeout}s")
                self._cond.wait(left)

    def submit(self, request_id: int, inputs: dict[str, np.ndarray]) -> None:
        """Send every graph input of one request to the node that owns it."""
        with self._cond:
            self._results.setdefault(request_id, {})
        for spec in self.dep.inputs:
            if spec.name not in inputs:
                raise BBError(f"missing graph input {spec.name!r}")
            self._seq += 1
            env = wire.Envelope.for_array(np.asarray(inputs[spec.name], dtype=spec.dtype), sender=HOST_ID,
                                          receiver=self.ids[spec.node], seq=self._seq,
                                          request_id=request_id, edge=spec.edge_id)
            self.transport.send(spec.node, self.ids[spec.node], wire.encode(env))
            self.stats.inputs_sent += 1

    def done(self, request_id: int) -> bool:
        """True when every graph output of ``request_id`` arrived."""
        with self._cond:
            return self._want <= set(self._results.get(request_id, {}))

    def wait(self, request_id: int, timeout: float) -> dict[str, np.ndarray]:
        """Block until every graph output of ``request_id`` arrived; BBError after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._want <= set(self._results.get(request_id, {})):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BBError(f"request {request_id}: outputs "
                                  f"{sorted(self._want - set(self._results.get(request_id, {})))} "
                                  f"did not arrive within {timeout}s")
                self._cond.wait(left)
            return self._results.pop(request_id)

    def run(self, requests: list[dict[str, np.ndarray]], window: int = 4, timeout: float = 120.0,
            request_base: int | None = None) -> list[dict[str, np.ndarray]]:
        """Run requests (at most ``window`` in flight); outputs in request order.

        Request ids start at a clock-derived base so long-running nodes never
        mistake a new run's requests for completed ones of an earlier run.
        """
        base = (time.time_ns() // 1000) if request_base is None else request_base
        out: list[dict[str, np.ndarray]] = []
        nxt = 0
        while len(out) < len(requests):
            while nxt < len(requests) and nxt - len(out) < window:
                self.submit(base + nxt, requests[nxt])
                nxt += 1
            out.append(self.wait(base + len(out), timeout))
        return out

    def close(self, timeout: float = 10.0) -> int:
        """Flush and close the transport; return envelopes left unconfirmed."""
        self.transport.stop_inbound()
        left = self.transport.flush(timeout)
        self.transport.close()
        return left





def transport_for(url: str, deployment: Deployment, node: str) -> Transport:
    """The transport of ``node`` for a URL: ``mqtt://``, ``mqtts://`` or ``serial:...``."""
    scheme = url.split(":", 1)[0]
    if scheme in ("mqtt", "mqtts"):
        from bb_edge.adapters.mqtt import MqttConfig, MqttTransport

        return MqttTransport(MqttConfig.from_url(url), deployment.name, node, deployment.ids())
    if scheme == "serial":
        from bb_edge.adapters.serial_link import SerialTransport

        return SerialTransport.from_url(url, deployment.ids(), node)
    raise BBError(f"unknown transport {url!r}; use mqtt://HOST:PORT, mqtts://HOST:PORT or serial:PORT")
