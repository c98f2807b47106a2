"""The host loop: the I/O driver that owns one sans-IO Engine.

A :class:`HostLoop` takes inbound bytes from a :class:`Transport` through a
queue (transports call ``deliver`` on their own threads; only the loop thread
touches the engine), calls ``poll`` with the current time, ships every
outbound envelope, confirms inbound messages to the link once the engine has
applied them, runs timers and dispatches engine events. On SIGINT/SIGTERM (or
:meth:`HostLoop.request_stop`) it shuts down in order:

1. the transport stops accepting inbound envelopes (MQTT withholds the
   PUBACK, so the broker redelivers them to the next incarnation of the node);
2. final polls run everything already received and ship the results;
3. the transport waits (bounded) for every outbound envelope to be confirmed;
4. a :class:`ShutdownReport` says how many were confirmed and how many were
   not: in-flight envelopes are flushed or reported, never silently lost.

Exactly-once end to end (docs/transports.md): every loop keeps the data
envelopes it sent per request (bounded, :class:`RetransmitBuffer`); when the
host's deadline for a request passes it sends ``retry <ids>`` on the fleet
control topic and every node resends what it kept for those requests with the
*same* ``(sender, seq)``, so a receiver that already applied one drops it as a
duplicate and one that lost it (a wiped broker queue, a killed process)
applies it now.

:class:`HostEndpoint` is the other end of a deployment: the *host* (node id
0, ``_host``) that sends graph inputs and collects graph outputs over any
transport, accepting an output only from its declared producer with its
declared dtype and shape.

Why one file: HostLoop (a node's end) and HostEndpoint (the host's end) are the two sides of the
exactly-once retry protocol: ``retry`` control messages, the RetransmitBuffer and sequence seeding.
The node state file helpers (save/load/restore_node_state) could move to a module of their own; they
stay because they persist exactly the HostLoop's engine and RetransmitBuffer.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import struct
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.adapters.transport_types import (
    AckFn,
    DedupFilter,
    DeliverFn,
    EventFn,
    Impostor,
    OutputContract,
    OutputRefused,
    PeerFn,
    RequestFailed,
    SessionReset,
    ShutdownReport,
    Transport,
    envelope_ids,
    envelope_request,
    output_contracts,
    output_problem,
    output_value,
)
from bb_edge.compiler.manifest import HOST_ID, HOST_NAME, Deployment
from bb_edge.engine import Engine, events
from bb_edge.engine.edgequant import quant_of, to_wire
from bb_edge.errors import BBError, WireError
from bb_edge.wire import envelope as wire

__all__ = [
    "AckFn", "DedupFilter", "DeliverFn", "EventFn", "HostEndpoint", "HostLoop", "HostStats", "Impostor",
    "PeerWatch",
    "OutputContract", "OutputRefused", "PeerFn", "RequestFailed", "RetransmitBuffer", "RunIncomplete",
    "SessionReset", "ShutdownReport", "Transport", "boot_epoch", "envelope_ids", "envelope_request",
    "NodeState", "StateFileError", "load_node_state", "parse_control", "restore_node_state", "save_node_state",
    "seed_sequence", "sequence_base", "transport_for",
]

log = logging.getLogger("bb_edge.hostloop")

CTRL_PONG = 3  # core control code of a PONG (docs/wire.md)
CTRL_ERROR = 5  # core control code of an error result (docs/wire.md)


# ------------------------------------------------------------ boot epochs


def boot_epoch(state_file: str | Path | None = None, now: float | None = None) -> int:
    """A boot epoch for this incarnation: seconds since 1970, strictly above the last one recorded.

    With ``state_file`` the previous epoch is read and the new one (at least
    previous + 1, so two boots in one second still differ) written back
    atomically before it is used. Without it the epoch is the wall clock in
    seconds (monotone across restarts as long as the clock is).
    """
    t = int(time.time() if now is None else now)
    if state_file is None:
        return t
    p = Path(state_file)
    last = 0
    try:
        last = int(p.read_text().strip() or 0)
    except (OSError, ValueError):
        last = 0  # a missing or unreadable file starts from the clock
    epoch = max(t, last + 1)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + ".tmp")
    with open(tmp, "w") as f:
        f.write(f"{epoch}\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, p)
    return epoch


def seed_sequence(engine: Engine, base: int | None = None, epoch: int | None = None,
                  state_file: str | Path | None = None) -> int:
    """Number ``engine``'s outbound envelopes ``(epoch << 32) | n``; return the first base used.

    ``base`` (old API) starts the counter at that raw value. Otherwise the
    epoch is ``epoch`` or :func:`boot_epoch` (``state_file``). Without a
    state file ``n`` starts at the microsecond within the boot second, so a
    node restarted within the same second still counts upward from anything
    its earlier incarnation can have sent (peers' duplicate windows).
    """
    if base is not None:
        engine.start_sequence_at(base)
        return base
    value = sequence_base(epoch, state_file)
    set_epoch = getattr(engine, "set_boot_epoch", None)
    if callable(set_epoch):
        set_epoch(value >> 32)
    engine.start_sequence_at(value)
    return value


def sequence_base(epoch: int | None = None, state_file: str | Path | None = None) -> int:
    """``(epoch << 32) | n0``: the first sequence number of an incarnation (see :func:`seed_sequence`)."""
    if epoch is None:
        epoch = boot_epoch(state_file)
        n0 = 0 if state_file is not None else int(time.time() * 1e6) % 1_000_000
    else:
        n0 = 0
    epoch &= 0x7FFFFFFF  # seq < 2**63 (the engine's bound); fits until 2038 for clock epochs
    return (epoch << 32) | n0


# ------------------------------------------------------------- retransmit


class RetransmitBuffer:
    """Data envelopes sent per request, kept for an end-to-end ``retry`` (bounded, oldest dropped first)."""

    def __init__(self, max_requests: int = 4096, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.max_requests = max_requests
        self.max_bytes = max_bytes
        self.bytes = 0
        self.dropped = 0
        self._by_request: OrderedDict[int, list[tuple[str, int, bytes]]] = OrderedDict()

    def keep(self, request_id: int, peer: str, receiver: int, data: bytes) -> None:
        """Remember one envelope of ``request_id``."""
        self._by_request.setdefault(request_id, []).append((peer, receiver, data))
        self.bytes += len(data)
        while self._by_request and (len(self._by_request) > self.max_requests or self.bytes > self.max_bytes):
            _, old = self._by_request.popitem(last=False)
            self.bytes -= sum(len(d) for _, _, d in old)
            self.dropped += 1

    def get(self, request_id: int) -> list[tuple[str, int, bytes]]:
        """What was kept for ``request_id`` (possibly nothing)."""
        return list(self._by_request.get(request_id, ()))

    def forget(self, request_id: int) -> None:
        """Drop what was kept for ``request_id`` (it completed end to end)."""
        old = self._by_request.pop(request_id, None)
        if old:
            self.bytes -= sum(len(d) for _, _, d in old)

    def __len__(self) -> int:
        return len(self._by_request)


def parse_control(payload: bytes) -> tuple[str, list[int]] | None:
    """``(verb, request ids)`` of a fleet control message (``stop``, ``retry 7 9``, ``done 7``); None if bad."""
    try:
        parts = payload.decode("ascii").split()
    except UnicodeDecodeError:
        return None
    if not parts or parts[0] not in ("stop", "retry", "done") or len(parts) > 4097:
        return None
    try:
        ids = [int(x) for x in parts[1:]]
    except ValueError:
        return None
    if any(not 0 <= i < 2**64 for i in ids):
        return None
    return parts[0], ids


# ------------------------------------------------------------- node state

NODE_STATE_MAGIC = b"BBNODE1\n"


class StateFileError(BBError):
    """A node state file (``bb-edge node --state``) is unreadable, truncated or of another node."""


@dataclass
class NodeState:
    """What ``bb-edge node --state FILE`` keeps across restarts.

    ``engine`` is :meth:`Engine.snapshot` (sequence, boot epoch, duplicate
    windows, open requests, component state); ``retransmit`` what the node
    keeps to resend per request. ``clean`` is True when the file was written
    at the end of an orderly shutdown (after the final flush), so its
    sequence number is the last one the node sent; a periodic snapshot is not
    clean, envelopes may have left after it.
    """

    node: str
    clean: bool
    engine: bytes
    retransmit: list[tuple[int, str, int, bytes]] = field(default_factory=list)
    saved_at: float = 0.0


def save_node_state(path: str | Path, engine: Engine, retransmit: RetransmitBuffer | None = None,
                    clean: bool = False) -> int:
    """Write ``engine``'s state (and ``retransmit``) to ``path`` atomically (temp + fsync + rename); bytes."""
    kept: list[tuple[int, str, int, bytes]] = []
    if retransmit is not None:
        for rid, entries in retransmit._by_request.items():
            kept.extend((rid, peer, receiver, data) for peer, receiver, data in entries)
    snap = engine.snapshot()
    head = json.dumps({"node": engine.node, "clean": clean, "saved_at": time.time(),
                       "engine": len(snap),
                       "retransmit": [[rid, peer, receiver, len(data)] for rid, peer, receiver, data in kept]},
                      sort_keys=True).encode()
    blob = b"".join([NODE_STATE_MAGIC, struct.pack("<I", len(head)), head, snap] + [d for *_, d in kept])
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(blob)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, p)  # a crash mid-write leaves the previous state file intact
    return len(blob)


def load_node_state(path: str | Path) -> NodeState:
    """Read a state file written by :func:`save_node_state`; :class:`StateFileError` if it is not one."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise StateFileError(f"cannot read node state {path}: {exc}") from exc
    if not data.startswith(NODE_STATE_MAGIC) or len(data) < len(NODE_STATE_MAGIC) + 4:
        raise StateFileError(f"{path} is not a bb-edge node state file")
    off = len(NODE_STATE_MAGIC)
    (n,) = struct.unpack_from("<I", data, off)
    try:
        head = json.loads(data[off + 4: off + 4 + n])
        node, clean, size = str(head["node"]), bool(head["clean"]), int(head["engine"])
        entries = [(int(r), str(p), int(rc), int(ln)) for r, p, rc, ln in head["retransmit"]]
        saved_at = float(head.get("saved_at", 0.0))
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise StateFileError(f"{path}: corrupt node state header: {exc}") from exc
    pos = off + 4 + n
    if size < 0 or any(ln < 0 for *_, ln in entries) or \
            pos + size + sum(ln for *_, ln in entries) != len(data):
        raise StateFileError(f"{path}: truncated or padded node state ({len(data)} bytes)")
    engine_blob = data[pos: pos + size]
    pos += size
    kept = []
    for rid, peer, receiver, ln in entries:
        kept.append((rid, peer, receiver, data[pos: pos + ln]))
        pos += ln
    return NodeState(node, clean, engine_blob, kept, saved_at)


def restore_node_state(state: NodeState, engine: Engine, retransmit: RetransmitBuffer | None = None,
                       now: float | None = None, epoch_file: str | Path | None = None) -> int:
    """Load ``state`` into a freshly built ``engine`` (and ``retransmit``); return the boot epoch to run in.

    After a clean shutdown the node continues in the same epoch, one above
    the last sequence number it sent, so peers see neither a duplicate nor a
    gap. After a periodic snapshot (the node was killed) envelopes may have
    left after the snapshot, so the node moves to a new epoch above the
    restored one (a new, empty duplicate window at every peer). Request times
    are moved onto this process's clock (``now``): the downtime does not
    count against their deadlines.
    """
    if state.node != engine.node:
        raise StateFileError(f"state file is of node {state.node!r}, not {engine.node!r}")
    try:
        engine.restore(state.engine)
    except (BBError, ValueError, KeyError, TypeError, struct.error) as exc:
        raise StateFileError(f"cannot restore node state: {type(exc).__name__}: {exc}") from exc
    if now is not None:
        engine.shift_clock(now - engine.now)
    if retransmit is not None:
        for rid, peer, receiver, data in state.retransmit:
            retransmit.keep(rid, peer, receiver, data)
    if not state.clean:
        epoch = max(boot_epoch(epoch_file), engine.boot_epoch + 1)
        engine.set_boot_epoch(min(epoch, 0x7FFFFFFF))
    elif epoch_file is not None:
        boot_epoch(epoch_file)  # keep the epoch file above every epoch used so far
    return engine.boot_epoch


# --------------------------------------------------------------- host loop


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
        retransmit: RetransmitBuffer | None = None,
    ) -> None:
        self.engine = engine
        self.transport = transport
        self.clock = clock
        self.idle = idle
        self.on_events = on_events
        self.flush_timeout = flush_timeout
        self.retransmit = retransmit if retransmit is not None else RetransmitBuffer()
        self.sent = 0
        self.resent = 0
        self.failover_resent = 0
        self.acked = 0
        self.report: ShutdownReport | None = None
        # everything from transport threads comes through here; only the loop thread drains it
        self._inbox: deque[tuple[Any, ...]] = deque()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._timers: list[_Timer] = []
        self._opened = False

    # ------------------------------------------------------------ inbound

    def _deliver(self, peer: str, data: bytes, ack: AckFn | None = None) -> None:
        self._inbox.append(("env", peer, bytes(data), ack))
        self._wake.set()

    def _peer(self, name: str, up: bool, reason: str) -> None:
        self._inbox.append(("event", events.PeerUp(name) if up else events.PeerDown(name, reason)))
        self._wake.set()

    def _transport_event(self, event: events.Event) -> None:
        self._inbox.append(("event", event))
        self._wake.set()

    def _control(self, payload: bytes) -> None:
        parsed = parse_control(payload)
        if parsed is None:
            return  # garbage on the control topic changes nothing
        if parsed[0] == "stop":
            self.request_stop()
            return
        self._inbox.append(("ctl", parsed[0], parsed[1]))
        self._wake.set()

    # ----------------------------------------------------------- control

    def open(self) -> None:
        """Open the transport (idempotent)."""
        if not self._opened:
            sink = getattr(self.transport, "set_event_sink", None)
            if callable(sink):
                sink(self._transport_event)
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

    def _drain_inbox(self) -> list[AckFn]:
        acks: list[AckFn] = []
        while self._inbox:
            item = self._inbox.popleft()
            if item[0] == "env":
                _, peer, data, ack = item
                self.engine.deliver(peer, data)
                if ack is not None:
                    acks.append(ack)
            elif item[0] == "event":
                self.engine.push_event(item[1])
            elif item[0] == "ctl":
                self._on_ctl(item[1], item[2])
        return acks

    def _on_ctl(self, verb: str, ids: list[int]) -> None:
        for rid in ids:
            if verb == "done":
                self.retransmit.forget(rid)
                continue
            for peer, receiver, data in self.retransmit.get(rid):
                # the same bytes (same seq): a receiver that applied it drops it as a duplicate
                peer, receiver, data = self._routed(peer, receiver, data)
                self.transport.send(peer, receiver, data)
                self.resent += 1

    def _routed(self, peer: str, receiver: int, data: bytes) -> tuple[str, int, bytes]:
        """A kept envelope re-addressed to where its stage's traffic goes now (a standby after a failover).

        Only the receiver changes; the sequence number stays, so a node that
        already applied it drops the copy as a duplicate.
        """
        route = getattr(self.engine, "route", None)
        if not callable(route):
            return peer, receiver, data
        stage = self.engine.stage_of(peer)
        target = route(stage)
        if target == peer:
            return peer, receiver, data
        try:
            env = wire.decode(data)
        except WireError:
            return peer, receiver, data  # our own bytes: cannot happen; send as kept
        env.receiver = self.engine.peers[target]
        return target, env.receiver, wire.encode(env, max_payload=max(len(env.data), 1))

    def _failover(self, stage: str, via: str) -> None:
        """Resend every kept envelope for ``stage`` (or a standby no longer used) to ``via``: in-flight
        requests continue from this, the last completed hop."""
        for rid, entries in list(self.retransmit._by_request.items()):
            moved = []
            for peer, receiver, data in entries:
                if self.engine.stage_of(peer) == stage and peer != via:
                    peer, receiver, data = self._routed(peer, receiver, data)
                    self.transport.send(peer, receiver, data)
                    self.resent += 1
                    self.failover_resent += 1
                moved.append((peer, receiver, data))
            self.retransmit._by_request[rid] = moved

    def step(self) -> int:
        """Run due timers, apply inbound, poll the engine once, ship its output; return envelopes shipped."""
        now = self.clock()
        for t in self._timers:
            if now >= t.due:
                t.due = now + t.interval
                t.fn(now)
        acks = self._drain_inbox()
        out = self.engine.poll(now)
        out += self.engine.flush_outbound()
        for o in out:
            self.transport.send(o.peer, o.receiver, o.data)
            if o.kind == wire.KIND_DATA and o.protocol == wire.PROTO_DATAFLOW and o.request_id:
                self.retransmit.keep(o.request_id, o.peer, o.receiver, o.data)
        self.sent += len(out)
        evs = self.engine.drain_events()
        for e in evs:
            if isinstance(e, events.RouteChanged):
                self._failover(e.stage, e.via)
        # confirm to the link only now: poll applied (or refused) every envelope drained above, and
        # what it produced is handed to the transport, so a crash before this line loses nothing
        for ack in acks:
            ack()
        self.acked += len(acks)
        if evs and self.on_events is not None:
            self.on_events(evs)
        return len(out) + len(acks)

    def _timeout(self) -> float:
        if not self._timers:
            return self.idle
        return max(0.0, min(self.idle, min(t.due for t in self._timers) - self.clock()))

    def run(self) -> ShutdownReport:
        """Loop until a stop is requested, then shut down cleanly and return the report."""
        self.open()
        while not self._stop.is_set():
            if not self._inbox:
                self._wake.wait(self._timeout())
            self._wake.clear()
            self.step()
        return self.shutdown()

    def shutdown(self) -> ShutdownReport:
        """Stop inbound, run what was received, flush outbound, close (see the module docstring)."""
        if self.report is not None:
            return self.report
        self.transport.stop_inbound()
        while self.step() or self.engine.pending_ingress or self._inbox:
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


# ------------------------------------------------------------ peer watch


class PeerWatch:
    """The failure detector of stage failover: phi-accrual over PONGs from the stages a node sends to.

    Every ``interval`` seconds it PINGs each watched peer (on the loop
    thread, through the engine); each PONG is a heartbeat of a
    :class:`~bb_edge.learn.liveness.PhiAccrualDetector`. When phi reaches
    ``threshold`` the peer is declared down with a ``PeerDown`` event pushed
    into the engine (which re-routes the stage to a standby); the next PONG
    declares it up again. This catches a node that stops answering with its
    connection still open (hung, stopped, partitioned), which the broker's
    last will only reports after 1.5 keepalives. The clock is the loop's; the
    engine only sees the events.
    """

    def __init__(self, loop: HostLoop, peers: list[str], interval: float = 0.5, threshold: float = 8.0,
                 min_std: float = 0.1, acceptable_pause: float = 0.25) -> None:
        from bb_edge.learn.liveness import PhiAccrualDetector

        self.loop = loop
        self.interval = interval
        self.detectors = {p: PhiAccrualDetector(threshold=threshold, min_std=min_std,
                                                acceptable_pause=acceptable_pause, first_interval=interval)
                          for p in peers}
        self.down: set[str] = set()
        self.declared: list[tuple[str, bool, float]] = []  # (peer, up, phi) as declared, for reports
        loop.engine.subscribe(self._on_event, events.ControlReceived)
        loop.call_every(interval, self._tick)

    @classmethod
    def for_engine(cls, loop: HostLoop, **kw: Any) -> PeerWatch | None:
        """A watch over the stages with standbys that ``loop``'s node sends to; None if there are none."""
        eng = loop.engine
        standby = getattr(eng, "standby", {})
        sends = {p.peer for prog in eng.programs.values() for p in prog.sends}
        peers = sorted(st for st in standby if st in sends)
        return cls(loop, peers, **kw) if peers else None

    def _on_event(self, e: events.Event) -> None:
        if not (isinstance(e, events.ControlReceived) and e.code == CTRL_PONG and e.peer in self.detectors):
            return
        det = self.detectors[e.peer]
        det.heartbeat(max(self.loop.clock(), det.last or 0.0))
        if e.peer in self.down:
            self.down.discard(e.peer)
            self.declared.append((e.peer, True, 0.0))
            self.loop.engine.push_event(events.PeerUp(e.peer))

    def _tick(self, now: float) -> None:
        for peer, det in self.detectors.items():
            self.loop.engine.ping(peer)
            phi = det.phi(now)
            if det.last is not None and phi >= det.threshold and peer not in self.down:
                self.down.add(peer)
                self.declared.append((peer, False, phi))
                self.loop.engine.push_event(events.PeerDown(peer, f"phi-accrual {min(phi, 99.0):.1f}"))


# ---------------------------------------------------------------- host end


class RunIncomplete(BBError):
    """Some requests of a run did not finish; ``outputs[i]`` is None for those, ``missing`` names why."""

    def __init__(self, outputs: list[dict[str, np.ndarray] | None], missing: dict[int, str]) -> None:
        self.outputs = outputs
        self.missing = missing
        shown = "; ".join(f"request {i}: {why}" for i, why in list(missing.items())[:3])
        more = f"; and {len(missing) - 3} more" if len(missing) > 3 else ""
        super().__init__(f"{len(missing)} of {len(outputs)} request(s) did not finish: {shown}{more}")


@dataclass
class HostStats:
    """Counters of a host endpoint."""

    inputs_sent: int = 0
    inputs_resent: int = 0
    retries: int = 0
    outputs: int = 0
    duplicates: int = 0
    rejected: int = 0
    refused: int = 0
    unexpected: int = 0
    errors: int = 0
    peer_events: list[tuple[str, bool, str]] = field(default_factory=list)


class HostEndpoint:
    """The host (id 0): sends graph inputs to their owners, collects graph outputs (see the module docstring)."""

    def __init__(self, deployment: Deployment, transport: Transport, seq_base: int | None = None,
                 epoch: int | None = None) -> None:
        self.dep = deployment
        self.transport = transport
        self.ids = deployment.ids()
        self.names = {v: k for k, v in self.ids.items()}
        # the host numbers its envelopes like a node: (boot epoch << 32) | n
        self._seq = sequence_base(epoch) if seq_base is None else seq_base
        self._outs: dict[int, OutputContract] = output_contracts(deployment)
        self._want = {o.name for o in deployment.outputs}
        self._results: dict[int, dict[str, np.ndarray]] = {}
        self._failed: dict[int, str] = {}
        self._kept: dict[int, list[tuple[str, int, bytes]]] = {}
        self._cond = threading.Condition()
        self._dedup = DedupFilter()
        self._logged: set[tuple[str, int, str]] = set()
        self.events: deque[events.Event] = deque(maxlen=10_000)
        self.up: set[str] = set()
        self.stats = HostStats()
        self.failover_resent = 0

    def open(self) -> None:
        """Open the transport."""
        sink = getattr(self.transport, "set_event_sink", None)
        if callable(sink):
            sink(self._event)
        self.transport.open(self._on_envelope, self._on_peer)

    def _event(self, e: events.Event) -> None:
        with self._cond:
            self.events.append(e)

    def _refuse(self, peer: str, env: wire.Envelope, reason: str) -> None:
        """Count, record and log (once per sender and kind of refusal) a refused output envelope."""
        self.stats.refused += 1
        self._event(OutputRefused(peer, env.sender, env.edge, env.request_id, reason))
        key = (peer, env.sender if env.sender in self.names else -1, reason.split(" ", 1)[0])  # bounded
        if key not in self._logged:
            self._logged.add(key)
            log.warning("host refused an envelope from %s (sender id %d) on edge %d: %s "
                        "(logged once per sender)", peer, env.sender, env.edge, reason)

    def _on_peer(self, name: str, up: bool, reason: str) -> None:
        with self._cond:
            self.stats.peer_events.append((name, up, reason))
            (self.up.add if up else self.up.discard)(name)
            self._cond.notify_all()
            pending = [rid for rid in self._kept if not self._want <= set(self._results.get(rid, {}))]
        if not up and name in self.dep.standby and any(i.node == name for i in self.dep.inputs):
            # a stage that owns graph inputs went down: its standby gets the inputs of every open request
            # now (same seq), not only at the next retry
            self.failover_resent += self._resend_inputs(pending)

    def _resend_inputs(self, request_ids: list[int]) -> int:
        sent = 0
        for rid in request_ids:
            with self._cond:
                envs = list(self._kept.get(rid, ()))
            for peer, receiver, data in envs:
                routed = self._routed(peer, receiver, data)
                if routed[0] != peer:
                    self.transport.send(*routed)
                    sent += 1
        return sent

    def _on_envelope(self, peer: str, data: bytes, ack: AckFn | None = None) -> None:
        try:
            self._handle(peer, bytes(data))
        except Exception as exc:  # never let a peer's bytes kill the transport thread (and its ack)
            self.stats.rejected += 1
            log.exception("host: unexpected %s handling an envelope from %s", type(exc).__name__, peer)
        finally:
            if ack is not None:
                ack()  # a poison message is acknowledged and dropped, never redelivered forever

    def _handle(self, peer: str, data: bytes) -> None:
        try:
            env = wire.decode(data)
        except WireError as exc:
            self.stats.rejected += 1
            self._event(events.EnvelopeRejected(peer, exc.code, str(exc)))
            return
        if self._dedup.seen(env.sender, env.seq):
            self.stats.duplicates += 1
            return
        if env.receiver == wire.BROADCAST:
            self.stats.unexpected += 1  # a node's HELLO to everyone: nothing for the host to do
            return
        if env.receiver != HOST_ID:
            self._refuse(peer, env, f"receiver {env.receiver} is not the host")
            return
        sender_name = self.names.get(env.sender)
        if sender_name is None or sender_name == HOST_NAME:
            self._refuse(peer, env, f"unknown sender id {env.sender}")
            return
        if env.flags & wire.FLAG_ERROR or (env.kind == wire.KIND_CONTROL and env.edge == CTRL_ERROR):
            self._on_error(sender_name, env)
            return
        spec = self._outs.get(env.edge)
        if env.kind != wire.KIND_DATA or env.protocol != wire.PROTO_DATAFLOW or spec is None:
            self.stats.unexpected += 1
            return
        if env.sender != spec.producer_id and self.names.get(env.sender) in self.dep.standby.get(spec.producer, ()):
            # the producer's standby took over (stage failover): the same contract, its own id
            spec = replace(spec, producer=self.names[env.sender], producer_id=env.sender)
        problem = output_problem(env, spec, self.names)
        if problem is not None:
            self._refuse(peer, env, problem)
            return
        try:
            value = output_value(env, spec)
        except (ValueError, TypeError, WireError) as exc:
            self._refuse(peer, env, f"contract: {exc}")
            return
        with self._cond:
            self._dedup.first_time(env.sender, env.seq)  # only now, after every check passed
            slot = self._results.get(env.request_id)
            if slot is None:
                self.stats.unexpected += 1  # an output of an earlier run, or of a finished request
                return
            if spec.name in slot:
                self.stats.duplicates += 1  # recomputed after a retry: the first one stands
                return
            slot[spec.name] = value
            self.stats.outputs += 1
            self._cond.notify_all()

    def _on_error(self, node: str, env: wire.Envelope) -> None:
        text = bytes(env.payload_bytes()[:1024]).decode("utf-8", errors="replace").strip()
        kind, _, detail = text.partition(":")
        reason = (f"{kind.strip()} at {node} for request {env.request_id}"
                  + (f": {detail.strip()}" if detail.strip() else "")) if kind.strip() else \
            f"error at {node} for request {env.request_id}"
        with self._cond:
            self._dedup.first_time(env.sender, env.seq)
            self.stats.errors += 1
            self.events.append(RequestFailed(node, env.request_id, reason))
            if env.request_id in self._results and env.request_id not in self._failed:
                self._failed[env.request_id] = reason
                self._cond.notify_all()

    # -------------------------------------------------------------- requests

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
        """Send every graph input of one request to the node that owns it (kept for :meth:`retry`)."""
        envs: list[tuple[str, int, bytes]] = []
        for spec in self.dep.inputs:
            if spec.name not in inputs:
                raise BBError(f"missing graph input {spec.name!r}")
            self._seq += 1
            arr, quant = to_wire(np.asarray(inputs[spec.name], dtype=spec.dtype), quant_of(spec))  # int8 on the wire?
            env = wire.Envelope.for_array(arr, sender=HOST_ID, quant=quant,
                                          receiver=self.ids[spec.node], seq=self._seq,
                                          request_id=request_id, edge=spec.edge_id)
            envs.append((spec.node, self.ids[spec.node], wire.encode(env)))
        envs = [self._routed(*e) for e in envs]
        with self._cond:
            self._results.setdefault(request_id, {})
            self._failed.pop(request_id, None)
            self._kept[request_id] = envs
        for peer, receiver, data in envs:
            self.transport.send(peer, receiver, data)
            self.stats.inputs_sent += 1

    def retry(self, request_ids: list[int]) -> None:
        """Ask every node to resend what it kept for ``request_ids`` and resend the inputs (same seq)."""
        if not request_ids:
            return
        self.stats.retries += len(request_ids)
        self._control("retry", request_ids)
        for rid in request_ids:
            with self._cond:
                envs = list(self._kept.get(rid, ()))
            for peer, receiver, data in envs:
                peer, receiver, data = self._routed(peer, receiver, data)
                self.transport.send(peer, receiver, data)
                self.stats.inputs_resent += 1

    def _routed(self, peer: str, receiver: int, data: bytes) -> tuple[str, int, bytes]:
        """An input envelope for a stage that is down re-addressed to a live standby of it (same seq)."""
        stage = next((st for st, nodes in self.dep.standby.items() if peer in nodes), peer)
        nodes = self.dep.standby.get(stage)
        if not nodes:
            return peer, receiver, data
        with self._cond:
            down = {name for name, up, _ in self.stats.peer_events if not up} - self.up
        target = stage if stage not in down else next((n for n in nodes if n in self.up), stage)
        if target == peer:
            return peer, receiver, data
        env = wire.decode(data)
        env.receiver = self.ids[target]
        return target, env.receiver, wire.encode(env, max_payload=max(len(env.data), 1))

    def _control(self, verb: str, request_ids: list[int]) -> None:
        control = getattr(self.transport, "control", None)
        if callable(control):
            for i in range(0, len(request_ids), 256):
                control((verb + " " + " ".join(str(r) for r in request_ids[i:i + 256])).encode())

    def finished(self, request_ids: list[int]) -> None:
        """Tell the nodes (``done <ids>``) they may forget what they kept to resend for these requests."""
        if request_ids:
            self._control("done", request_ids)

    def done(self, request_id: int) -> bool:
        """True when every graph output of ``request_id`` arrived."""
        with self._cond:
            return self._want <= set(self._results.get(request_id, {}))

    def failure(self, request_id: int) -> str | None:
        """The reason a node gave for failing ``request_id`` (ERROR envelope), if any."""
        with self._cond:
            return self._failed.get(request_id)

    def _take(self, request_id: int) -> dict[str, np.ndarray]:
        self._kept.pop(request_id, None)
        self._failed.pop(request_id, None)
        return self._results.pop(request_id)

    def wait(self, request_id: int, timeout: float) -> dict[str, np.ndarray]:
        """Block until every graph output of ``request_id`` arrived; BBError on failure or after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._want <= set(self._results.get(request_id, {})):
                if request_id in self._failed:
                    raise BBError(self._failed[request_id])
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BBError(f"request {request_id}: outputs "
                                  f"{sorted(self._want - set(self._results.get(request_id, {})))} "
                                  f"did not arrive within {timeout}s")
                self._cond.wait(left)
            return self._take(request_id)

    def run(self, requests: list[dict[str, np.ndarray]], window: int = 4, timeout: float = 120.0,
            request_base: int | None = None, retry_after: float = 5.0,
            max_retry_interval: float = 30.0) -> list[dict[str, np.ndarray]]:
        """Run requests (at most ``window`` in flight); outputs in request order.

        A request without all its outputs ``retry_after`` s after it was sent
        is retried (the interval doubles up to ``max_retry_interval``); one
        that a node reports failed (ERROR envelope) or that is still missing
        after ``timeout`` s is given up. If any is given up,
        :class:`RunIncomplete` carries every output that did arrive and the
        reason per missing request. Request ids start at a clock-derived base
        so long-running nodes never mistake a new run's requests for
        completed ones of an earlier run.
        """
        base = (time.time_ns() // 1000) if request_base is None else request_base
        outputs: list[dict[str, np.ndarray] | None] = [None] * len(requests)
        missing: dict[int, str] = {}
        inflight: dict[int, list[float]] = {}  # index -> [first sent, next retry, interval]
        nxt = 0
        finished = 0
        completed: list[int] = []  # request ids to announce as done (batched)
        last_done = time.monotonic()
        while finished < len(requests):
            now = time.monotonic()
            while nxt < len(requests) and len(inflight) < window:
                self.submit(base + nxt, requests[nxt])
                inflight[nxt] = [now, now + retry_after, retry_after]
                nxt += 1
            due: list[int] = []
            with self._cond:
                for i, (first, next_retry, interval) in list(inflight.items()):
                    rid = base + i
                    if self._want <= set(self._results.get(rid, {})):
                        outputs[i] = self._take(rid)
                        completed.append(rid)
                    elif rid in self._failed:
                        missing[i] = self._failed[rid]
                        self._take(rid)
                    elif now - first > timeout:
                        got = set(self._results.get(rid, {}))
                        missing[i] = (f"outputs {sorted(self._want - got)} did not arrive within {timeout}s "
                                      f"(request id {rid})")
                        self._take(rid)
                    else:
                        if now >= next_retry:
                            due.append(rid)
                            inflight[i][2] = min(interval * 2, max_retry_interval)
                            inflight[i][1] = now + inflight[i][2]
                        continue
                    del inflight[i]
                    finished += 1
                if finished < len(requests) and not due and (nxt >= len(requests) or len(inflight) >= window):
                    wake = min((v[1] for v in inflight.values()), default=now + 0.5)
                    self._cond.wait(max(0.0, min(wake - now, 0.5)))
            self.retry(due)
            # announce completions soon, not only in large batches: the nodes' resend buffers (and what a
            # stage failover resends to a standby) then hold only requests still in flight
            if len(completed) >= 64 or (completed and time.monotonic() - last_done >= 0.2):
                self.finished(completed)
                completed = []
                last_done = time.monotonic()
        self.finished(completed)
        if missing:
            raise RunIncomplete(outputs, dict(sorted(missing.items())))
        return [o for o in outputs if o is not None]

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
