"""The host loop: the I/O driver that owns one sans-IO Engine.

A :class:`HostLoop` takes inbound bytes from a :class:`Transport` through a
queue (transports call ``deliver`` on their own threads; one thread at a time
steps the engine: the loop thread, or with ``inline`` (``bb-edge node`` over
MQTT) the transport thread that received the envelope), calls ``poll`` with the current time, ships every
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
transport. Its state machine is :class:`bb_edge.engine.host_session.HostSession`,
which admits outputs with the engine's own checks; this module adds threads,
the transport and deadlines.

Why one file: HostLoop (a node's end) and HostEndpoint (the host's end) are the two I/O drivers of
the exactly-once retry protocol (``retry``/``done`` control messages, sequence seeding and boot
epochs); the protocol's state (RetransmitBuffer, node state codec, HostSession) lives in the engine.
"""

from __future__ import annotations

import logging
import os
import signal
import struct
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bb_edge.adapters.transports.types import (
    AckFn,
    DeliverFn,
    EventFn,
    Impostor,
    PeerFn,
    SessionReset,
    ShutdownReport,
    Transport,
)
from bb_edge.deployment.manifest import Deployment
from bb_edge.engine import Engine, events
from bb_edge.engine.events import Event, OutputRefused, RequestFailed
from bb_edge.engine.host_session import HostSession, HostStats
from bb_edge.engine.node_state import (
    MAX_EPOCH,
    EpochError,
    NodeState,
    StateFileError,
    check_epoch,
    decode_node_state,
    encode_node_state,
    engine_digest,
)
from bb_edge.engine.retransmit import RetransmitBuffer, control_from, parse_control
from bb_edge.errors import BBError, WireError
from bb_edge.wire import envelope as wire

__all__ = [
    "AckFn", "DeliverFn", "EventFn", "HostEndpoint", "HostLoop", "HostStats", "Impostor", "PeerWatch",
    "OutputRefused", "PeerFn", "RequestFailed", "RetransmitBuffer", "RunIncomplete",
    "SessionReset", "ShutdownReport", "Transport", "boot_epoch",
    "NodeState", "StateFileError", "EpochError", "load_node_state", "parse_control", "restore_node_state",
    "save_node_state",
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
    seconds (monotone across restarts as long as the clock is). Epochs are
    unsigned 32-bit and never wrap: a recorded epoch outside 1..2**32-1 (a
    hand-edited file), an unreadable file, or a next epoch past 2**32-1 is an
    :class:`EpochError` before anything is written.
    """
    t = int(time.time() if now is None else now)
    if state_file is None:
        return check_epoch(t, "the clock (seconds since 1970)")
    p = Path(state_file)
    last = 0
    if p.exists():
        try:
            text = p.read_text().strip()
            last = int(text) if text else 0
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            raise EpochError(f"--epoch-file {p}: cannot read a boot epoch ({exc})") from None
        if last:
            check_epoch(last, f"--epoch-file {p}")
    if last >= MAX_EPOCH:
        raise EpochError(f"--epoch-file {p}: the last boot epoch is {last}, the highest; epochs never wrap")
    epoch = check_epoch(max(t, last + 1), f"--epoch-file {p}")
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
    """``(epoch << 32) | n0``: the first sequence number of an incarnation (see :func:`seed_sequence`).

    The epoch is used as it is, never masked: one outside 1..2**32-1 is an :class:`EpochError`.
    """
    if epoch is None:
        epoch = boot_epoch(state_file)
        n0 = 0 if state_file is not None else int(time.time() * 1e6) % 1_000_000
    else:
        n0 = 0
    return (check_epoch(epoch, "boot epoch") << 32) | n0


# ------------------------------------------------------------- retransmit


# ------------------------------------------------------------- node state

def save_node_state(path: str | Path, engine: Engine, retransmit: RetransmitBuffer | None = None,
                    clean: bool = False, deployment: str = "") -> int:
    """Write ``engine``'s state (and ``retransmit``) to ``path`` atomically (temp + fsync + rename); bytes.

    ``deployment`` is the deployment's name; with the node ids it is recorded as the file's deployment
    digest, which :func:`restore_node_state` compares.
    """
    blob = encode_node_state(engine, retransmit, clean=clean, saved_at=time.time(), deployment=deployment)
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
    return decode_node_state(data, str(path))


def restore_node_state(state: NodeState, engine: Engine, retransmit: RetransmitBuffer | None = None,
                       now: float | None = None, epoch_file: str | Path | None = None,
                       deployment: str = "") -> int:
    """Load ``state`` into a freshly built ``engine`` (and ``retransmit``); return the boot epoch to run in.

    After a clean shutdown the node continues in the same epoch, one above
    the last sequence number it sent, so peers see neither a duplicate nor a
    gap. After a periodic snapshot (the node was killed) envelopes may have
    left after the snapshot, so the node moves to a new epoch above the
    restored one (a new, empty duplicate window at every peer). Request times
    are moved onto this process's clock (``now``): the downtime does not
    count against their deadlines. A state of another node or another deployment (``deployment``'s name
    and node ids, :func:`engine_digest`) is a :class:`StateFileError`; a node whose epochs are used up
    (2**32-1) is an :class:`EpochError`: it never reuses an epoch.
    """
    if state.node != engine.node:
        raise StateFileError(f"state file is of node {state.node!r}, not {engine.node!r}")
    if state.deployment != engine_digest(engine, deployment):
        raise StateFileError(f"state file is of another deployment (digest {state.deployment[:12]!r}, this one "
                             f"{engine_digest(engine, deployment)[:12]!r}, deployment {deployment!r})")
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
        if engine.boot_epoch >= MAX_EPOCH:
            raise EpochError(f"the restored boot epoch is {engine.boot_epoch}, the highest: after an unclean stop "
                             f"the node needs a new one, and epochs never wrap")
        epoch = max(boot_epoch(epoch_file), engine.boot_epoch + 1)
        engine.set_boot_epoch(check_epoch(epoch, "boot epoch"))
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
        inline: bool = False,
    ) -> None:
        self.engine = engine
        self.transport = transport
        self.clock = clock
        self.idle = idle
        self.on_events = on_events
        self.flush_timeout = flush_timeout
        self.retransmit = retransmit if retransmit is not None else RetransmitBuffer()
        self._unacked: list[AckFn] = []  # drained envelopes a poll left in the engine's ingress (step())
        self.sent = 0
        self.resent = 0
        self.failover_resent = 0
        self.acked = 0
        self.report: ShutdownReport | None = None
        # everything from transport threads comes through here; whoever holds _step_lock drains it
        self._inbox: deque[tuple[Any, ...]] = deque()
        # the engine's owner for one step: the loop thread, or (inline) the transport thread that received an
        # envelope. Why inline: handing each envelope to the loop thread costs two thread wake-ups per hop
        # (transport -> loop, loop -> the transport's writer); on 2 loaded cores they were most of a hop.
        self._step_lock = threading.Lock()
        # (only for a transport that allows it, ``deliver_inline``; `bb-edge node` asks for it, in-process fleets
        # keep every engine event on their loop threads)
        self.inline = inline and bool(getattr(transport, "deliver_inline", False))
        self.inline_steps = 0
        self._running = False
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._timers: list[_Timer] = []
        self._opened = False

    # ------------------------------------------------------------ inbound

    def _deliver(self, peer: str, data: bytes, ack: AckFn | None = None) -> None:
        self._inbox.append(("env", peer, bytes(data), ack))
        # inline: run the step here, on the transport's thread, unless the loop thread is stepping (then it
        # takes this envelope in order with the rest of the inbox), before run() (nothing applies what arrives
        # before the loop runs) or once a stop began (shutdown drains it)
        if self._running and self.inline and not self._stop.is_set() and self._step_lock.acquire(blocking=False):
            try:
                self._step(timers=False)
                self.inline_steps += 1
            finally:
                self._step_lock.release()
            if not self.engine.pending_ingress:
                return
            # the step left part of its batch for the next poll (a standby resuming replayed sessions one
            # by one): the loop thread takes it now, not at its next timer
        self._wake.set()

    def _peer(self, name: str, up: bool, reason: str) -> None:
        self._inbox.append(("event", events.PeerUp(name) if up else events.PeerDown(name, reason)))
        self._wake.set()

    def _transport_event(self, event: events.Event) -> None:
        self._inbox.append(("event", event))
        self._wake.set()

    def _control(self, payload: bytes, writer: str = "") -> None:
        parsed = control_from(payload, writer)
        if parsed is None:
            return  # garbage, or a writer that may not ask this, changes nothing
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
    def stepping(self) -> bool:
        """True while a step runs (on the loop thread or, inline, on a transport thread)."""
        return self._step_lock.locked()

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
        for rid, entries in self.retransmit.items():
            moved = []
            for peer, receiver, data in entries:
                if self.engine.stage_of(peer) == stage and peer != via:
                    peer, receiver, data = self._routed(peer, receiver, data)
                    self.transport.send(peer, receiver, data)
                    self.resent += 1
                    self.failover_resent += 1
                moved.append((peer, receiver, data))
            self.retransmit.replace(rid, moved)

    def step(self) -> int:
        """Run due timers, apply inbound, poll the engine once, ship its output; return envelopes shipped."""
        with self._step_lock:
            return self._step(timers=True)

    def _step(self, timers: bool) -> int:
        now = self.clock()
        if timers:
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
        # what it produced is handed to the transport, so a crash before this line loses nothing; a poll
        # that left part of its batch for the next one (a replayed session resumed first) is confirmed
        # once a poll has applied all of it
        self._unacked.extend(acks)
        if not self.engine.pending_ingress:
            acks, self._unacked = self._unacked, []
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
        self._running = True
        self._wake.set()  # a step at once: what arrived before the loop ran is applied now
        while not self._stop.is_set():
            if not self._inbox and not self.engine.pending_ingress:  # a poll may leave work for the next
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

    fix = 'check that every node is running and reachable (docs/transports.md)'

    def __init__(self, outputs: list[dict[str, np.ndarray] | None], missing: dict[int, str]) -> None:
        self.outputs = outputs
        self.missing = missing
        shown = "; ".join(f"request {i}: {why}" for i, why in list(missing.items())[:3])
        more = f"; and {len(missing) - 3} more" if len(missing) > 3 else ""
        super().__init__(f"{len(missing)} of {len(outputs)} request(s) did not finish: {shown}{more}")


class HostEndpoint:
    """The host (id 0) over a transport: a :class:`~bb_edge.engine.host_session.HostSession` behind a lock.

    The session admits every envelope and holds every request; this class adds the transport, the lock
    the transport's threads and the caller share, and the deadlines (which need a clock).
    """

    def __init__(self, deployment: Deployment, transport: Transport, seq_base: int | None = None,
                 epoch: int | None = None, client: int = 0) -> None:
        self.dep = deployment
        self.transport = transport
        self.session = HostSession(deployment, sequence_base(epoch) if seq_base is None else seq_base,
                                   client=client)
        self.ids = self.session.ids
        self.names = self.session.names
        self._cond = threading.Condition()
        self._logged: set[tuple[str, int, str]] = set()
        self.failover_resent = 0
        self._when_done: dict[int, Callable[[], None]] = {}  # request id -> its continuation (when_done)

    @property
    def events(self) -> deque[events.Event]:
        """Every event the session and the transport reported (bounded)."""
        return self.session.events

    @property
    def stats(self) -> HostStats:
        """The session's counters."""
        return self.session.stats

    @property
    def up(self) -> set[str]:
        """Nodes the transport reported up."""
        return self.session.up

    def open(self) -> None:
        """Open the transport."""
        sink = getattr(self.transport, "set_event_sink", None)
        if callable(sink):
            sink(self._event)
        self.transport.open(self._on_envelope, self._on_peer)

    def next_seq(self) -> int:
        """A sequence number in the host's series (an OTA deployer sharing the host's identity uses it)."""
        with self._cond:
            return self.session.next_seq()

    def _event(self, e: Event) -> None:
        with self._cond:
            self.session.record(e)

    def _on_peer(self, name: str, up: bool, reason: str) -> None:
        with self._cond:
            resend = self.session.peer_changed(name, up, reason)
            # sent under the lock: a step submitted once the route changed goes out after these (a replay
            # must reach the standby before the session's next step; measured: without it, 1 of 4 kills of
            # a first stage under --rebuild replay had the next step refused as "never opened here")
            for peer, receiver, data in resend:  # a stage owning graph inputs went down: its standby takes them
                self.transport.send(peer, receiver, data)
            self._cond.notify_all()
        self.failover_resent += len(resend)

    def _on_envelope(self, peer: str, data: bytes, ack: AckFn | None = None) -> None:
        try:
            with self._cond:
                refused = self.stats.refused
                self.session.receive(peer, bytes(data))
                if self.stats.refused > refused:
                    self._log_refusal(self.events[-1])
                ready = [self._when_done.pop(rid) for rid in [r for r in self._when_done if self._settled(r)]]
                self._cond.notify_all()
            for fn in ready:  # outside the lock, before the ack: the next step leaves first
                fn()
        except Exception as exc:  # never let a peer's bytes kill the transport thread (and its ack)
            self.stats.rejected += 1
            log.exception("host: unexpected %s handling an envelope from %s", type(exc).__name__, peer)
        finally:
            if ack is not None:
                ack()  # a poison message is acknowledged and dropped, never redelivered forever

    def _log_refusal(self, e: Event) -> None:
        """Log a refused output once per sender and kind of refusal (the events keep every one)."""
        if not isinstance(e, OutputRefused):
            return
        key = (e.peer, e.sender if e.sender in self.names else -1, e.reason.split(" ", 1)[0])  # bounded
        if key not in self._logged:
            self._logged.add(key)
            log.warning("host refused an envelope from %s (sender id %d) on edge %d: %s "
                        "(logged once per sender)", e.peer, e.sender, e.edge, e.reason)

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

    def submit(self, request_id: int, inputs: dict[str, np.ndarray],
               session: tuple[int, int] | None = None) -> None:
        """Send every graph input of one request to the node that owns it (kept for :meth:`retry`).

        ``session`` = ``(session id, step)``: the request is that step of one of this endpoint's sessions.
        """
        with self._cond:
            envs = self.session.submit(request_id, inputs, session)
        for peer, receiver, data in envs:
            self.transport.send(peer, receiver, data)

    def close_session(self, session: int) -> None:
        """End one of this endpoint's sessions at every stage (their state is freed at once)."""
        with self._cond:
            envs = self.session.close_session(session)
        for peer, receiver, data in envs:
            self.transport.send(peer, receiver, data)

    def retry(self, request_ids: list[int]) -> None:
        """Ask every node to resend what it kept for ``request_ids`` and resend the inputs (same seq)."""
        if not request_ids:
            return
        self.stats.retries += len(request_ids)
        self._control("retry", request_ids)
        with self._cond:
            envs = self.session.resend(request_ids)
        for peer, receiver, data in envs:
            self.transport.send(peer, receiver, data)

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
            return self.session.done(request_id)

    def failure(self, request_id: int) -> str | None:
        """The reason a node gave for failing ``request_id`` (ERROR envelope), if any."""
        with self._cond:
            return self.session.failure(request_id)

    def _settled(self, request_id: int) -> bool:
        """Whether every output of ``request_id`` arrived or it failed (the caller holds ``_cond``)."""
        return self.session.done(request_id) or self.session.failure(request_id) is not None

    def when_done(self, request_id: int, fn: Callable[[], None]) -> None:
        """Call ``fn()`` once every output of ``request_id`` arrived or it failed: on the transport's thread
        that received the last of them, or here at once if that already happened.

        Why: a generation's next step is one token away from the answer; built and sent on the thread that
        received the answer (the network thread, where the MQTT transport writes it at once) it skips two
        thread wake-ups per token (answer -> the caller's thread -> the network thread). ``fn`` must not
        block; whatever it raises is its own to report.
        """
        with self._cond:
            if not self._settled(request_id):
                self._when_done[request_id] = fn
                return
        fn()

    def wait_any(self, request_ids: list[int], timeout: float) -> int | None:
        """The first of ``request_ids`` (in their order) whose outputs all arrived or that failed, waiting up
        to ``timeout`` s for one; None if none did by then."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for rid in request_ids:
                    if self._settled(rid):
                        return rid
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)

    def wait(self, request_id: int, timeout: float) -> dict[str, np.ndarray]:
        """Block until every graph output of ``request_id`` arrived; BBError on failure or after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self.session.done(request_id):
                if (why := self.session.failure(request_id)) is not None:
                    raise BBError(why)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BBError(f"request {request_id}: outputs {self.session.missing(request_id)} "
                                  f"did not arrive within {timeout}s")
                self._cond.wait(left)
            return self.session.take(request_id)

    def run(self, requests: list[dict[str, np.ndarray]], window: int = 4, timeout: float = 120.0,
            request_base: int | None = None, retry_after: float = 5.0,
            max_retry_interval: float = 30.0, session: int | None = None) -> list[dict[str, np.ndarray]]:
        """Run requests (at most ``window`` in flight); outputs in request order.

        A request without all its outputs ``retry_after`` s after it was sent
        is retried (the interval doubles up to ``max_retry_interval``); one
        that a node reports failed (ERROR envelope) or that is still missing
        after ``timeout`` s is given up. If any is given up,
        :class:`RunIncomplete` carries every output that did arrive and the
        reason per missing request. Request ids start at a clock-derived base
        so long-running nodes never mistake a new run's requests for
        completed ones of an earlier run. ``session``: request k is step k of
        this endpoint's session ``session`` (docs/wire.md "Sessions").
        """
        base = self.session.request_id(time.time_ns() // 1000) if request_base is None else request_base
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
                self.submit(base + nxt, requests[nxt], (session, nxt) if session is not None else None)
                inflight[nxt] = [now, now + retry_after, retry_after]
                nxt += 1
            due: list[int] = []
            with self._cond:
                for i, (first, next_retry, interval) in list(inflight.items()):
                    rid = base + i
                    if self.session.done(rid):
                        outputs[i] = self.session.take(rid)
                        completed.append(rid)
                    elif (why := self.session.failure(rid)) is not None:
                        missing[i] = why
                        self.session.take(rid)
                    elif now - first > timeout:
                        missing[i] = (f"outputs {self.session.missing(rid)} did not arrive within {timeout}s "
                                      f"(request id {rid})")
                        self.session.take(rid)
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
        from bb_edge.adapters.transports.mqtt import MqttConfig, MqttTransport

        return MqttTransport(MqttConfig.from_url(url), deployment.name, node, deployment.ids())
    if scheme == "serial":
        from bb_edge.adapters.transports.serial_link import SerialTransport

        return SerialTransport.from_url(url, deployment.ids(), node)
    raise BBError(f"unknown transport {url!r}; use mqtt://HOST:PORT, mqtts://HOST:PORT or serial:PORT")
