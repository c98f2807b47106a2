"""The sans-IO node engine.

One Engine per node. It is driven entirely from outside:

- :meth:`Engine.deliver` (any thread) hands it bytes from a peer; the only
  thread-safe entry points are those that append to the ingress queue
  (``deliver``, ``submit``, ``push_event``, ``complete``);
- :meth:`Engine.poll` (the host loop's thread) drains the ingress queue, runs
  every ready segment to a fixed point and returns outbound envelopes;
- time enters only as ``poll(now)``.

Nothing here opens a socket, starts a thread or reads a clock. Every problem
with what came off the wire becomes a typed event, never an exception.
"""

from __future__ import annotations

import itertools
import json
import struct
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx

from bb_edge.backends.base import Backend, PreparedSegment, get_backend
from bb_edge.compiler.manifest import HOST_NAME, Deployment
from bb_edge.compiler.program import WirePort, wire_ports
from bb_edge.engine import events as ev
from bb_edge.engine.context import Context
from bb_edge.engine.segments import Segment, split_segments
from bb_edge.errors import BBError, WireError
from bb_edge.roles import Component, ProtocolHandler
from bb_edge.wire import envelope as wire
from bb_edge.wire.dtypes import CODE_TO_NUMPY
from bb_edge.wire.framing import StreamDecoder, length_prefix

CTRL_HELLO, CTRL_PING, CTRL_PONG, CTRL_BYE, CTRL_ERROR = 1, 2, 3, 4, 5
SNAPSHOT_MAGIC = b"BBSNAP1\n"


class EngineError(BBError):
    """Misuse of the engine API by the host program (never raised for wire input)."""


@dataclass
class Limits:
    """Per-node caps; exceeding one drops the envelope with a typed event."""

    max_envelope: int = wire.DEFAULT_MAX_PAYLOAD + 96
    max_payload: int = wire.DEFAULT_MAX_PAYLOAD
    per_source_bytes: int = 256 * 1024 * 1024
    ingress_budget: int = 512 * 1024 * 1024
    max_open_requests: int = 4096
    dedup_window: int = 1 << 16
    max_events: int = 100_000
    completed_memory: int = 8192


@dataclass
class Outbound:
    """An encoded envelope for the host loop to ship to ``peer``."""

    peer: str
    receiver: int
    data: bytes
    kind: int
    protocol: int
    edge: int
    request_id: int
    seq: int


@dataclass
class ComputeCommand:
    """A segment to run elsewhere (``inline_compute=False``); finish with ``complete``."""

    cmd_id: int
    program: str
    segment: str
    request_id: int
    inputs: dict[str, np.ndarray]


@dataclass
class _Program:
    name: str
    model: onnx.ModelProto
    segments: list[Segment]
    prepared: list[PreparedSegment]
    recv: dict[int, WirePort]
    sends: list[WirePort]
    local_inputs: list[str]
    input_edges: dict[int, str]  # host edge id -> graph input name
    outputs: list[str]
    output_edges: dict[str, int]  # graph output -> host edge id
    input_types: dict[str, tuple[int, tuple[int, ...]]]


@dataclass
class _Request:
    values: dict[str, np.ndarray] = field(default_factory=dict)
    done: set[int] = field(default_factory=set)
    running: set[int] = field(default_factory=set)
    sent: set[int] = field(default_factory=set)
    emitted: set[str] = field(default_factory=set)
    failed: bool = False


class Engine:
    """The sans-IO state machine of one node (see the module docstring)."""

    def __init__(
        self,
        node: str,
        node_id: int,
        peers: dict[str, int] | None = None,
        backend: Backend | str = "ort",
        limits: Limits | None = None,
        inline_compute: bool = True,
        outputs_to_host: bool = False,
    ) -> None:
        self.node = node
        self.node_id = node_id
        self.peers: dict[str, int] = dict(peers or {})
        self.peers.setdefault(node, node_id)
        self.peers.setdefault(HOST_NAME, 0)
        self._names_by_id = {v: k for k, v in self.peers.items()}
        self.backend = get_backend(backend) if isinstance(backend, str) else backend
        self.limits = limits or Limits()
        self.inline_compute = inline_compute
        self.outputs_to_host = outputs_to_host
        self.programs: dict[str, _Program] = {}
        self.bindings: dict[str, Any] = {}
        self.protocols: dict[int, ProtocolHandler] = {}
        self._edge_table: dict[int, tuple[str, str]] = {}  # edge -> (program, "recv"|"input")
        self._compute_keys: dict[str, PreparedSegment] = {}
        self._ingress: deque[tuple[Any, ...]] = deque()
        self._lock = threading.Lock()  # guards the byte accounting shared with deliver()
        self._queued_by_peer: dict[str, int] = {}
        self._queued_total = 0
        self._events: deque[ev.Event] = deque()
        self._events_dropped = 0
        self._subscribers: list[tuple[type, Callable[[ev.Event], None]]] = []
        self._requests: dict[tuple[str, int], _Request] = {}
        self._completed: deque[tuple[str, int]] = deque()
        self._completed_set: set[tuple[str, int]] = set()
        self._dirty: dict[tuple[str, int], None] = {}
        self._outbound: list[Outbound] = []
        self._commands: list[ComputeCommand] = []
        self._inflight: dict[int, tuple[str, int, int]] = {}
        self._cmd_ids = itertools.count(1)
        self._seq = 0
        self._dedup: dict[int, tuple[int, set[int]]] = {}
        self._seen_peers: set[str] = set()
        self.now = 0.0
        self.counters: dict[str, int] = {
            "envelopes_in": 0, "envelopes_out": 0, "bytes_in": 0, "bytes_out": 0,
            "dropped": 0, "duplicates": 0, "segments_run": 0, "requests_completed": 0,
        }

    # ------------------------------------------------------------------ setup

    @classmethod
    def for_node(
        cls,
        deployment: Deployment,
        node: str,
        programs: dict[str, onnx.ModelProto] | None = None,
        backend: Backend | str = "ort",
        **kwargs: Any,
    ) -> Engine:
        """An engine for ``node`` of a deployment with its program installed."""
        spec = deployment.node(node)
        eng = cls(node, spec.id, deployment.ids(), backend=backend, **kwargs)
        eng.install(deployment.program(node, programs), name=node,
                    input_edges={i.edge_id: i.name for i in deployment.inputs if i.node == node},
                    output_edges={o.name: o.edge_id for o in deployment.outputs if o.node == node})
        return eng

    def install(
        self,
        program: onnx.ModelProto,
        name: str | None = None,
        input_edges: dict[int, str] | None = None,
        output_edges: dict[str, int] | None = None,
    ) -> None:
        """Install a per-node program: split it into segments and prepare each once."""
        name = name or program.graph.name or f"program{len(self.programs)}"
        if name in self.programs:
            raise EngineError(f"a program named {name!r} is already installed")
        ports = wire_ports(program)
        segments = split_segments(program)
        prepared = [self.backend.prepare(s.model, f"{name}.{s.key}") for s in segments]
        recv = {p.edge_id: p for p in ports if p.op == "Recv"}
        for e in list(recv) + list((input_edges or {}).keys()):
            if e in self._edge_table:
                raise EngineError(f"edge {e} of program {name!r} is already bound to {self._edge_table[e][0]!r}")
        g = program.graph
        input_types = {}
        for vi in g.input:
            tt = vi.type.tensor_type
            input_types[vi.name] = (tt.elem_type, tuple(d.dim_value if d.HasField("dim_value") else -1
                                                        for d in tt.shape.dim))
        prog = _Program(
            name=name, model=program, segments=segments, prepared=prepared, recv=recv,
            sends=[p for p in ports if p.op == "Send"], local_inputs=[i.name for i in g.input],
            input_edges=dict(input_edges or {}), outputs=[o.name for o in g.output],
            output_edges=dict(output_edges or {}), input_types=input_types,
        )
        self.programs[name] = prog
        for e in recv:
            self._edge_table[e] = (name, "recv")
        for e in prog.input_edges:
            self._edge_table[e] = (name, "input")
        self._emit(ev.ProgramInstalled(name, len(segments)))

    def start_sequence_at(self, base: int) -> None:
        """Number outbound envelopes from above ``base`` (never backwards).

        Peers drop ``(sender, seq)`` pairs they have seen, so a restarted node
        must not count from 1 again; its host loop passes a base no earlier
        incarnation can have reached (e.g. a wall-clock reading in ns).
        """
        if not 0 <= base < 2**63:
            raise EngineError(f"sequence base {base} out of range")
        self._seq = max(self._seq, base)

    def bind(self, name: str, component: Any) -> None:
        """Bind a named component (shared by every program and protocol on this node)."""
        self.bindings[name] = component

    def register_protocol(self, handler: ProtocolHandler) -> None:
        """Route envelopes of ``handler.protocol_id`` to ``handler``."""
        if handler.protocol_id in (wire.PROTO_DATAFLOW, wire.PROTO_CONTROL):
            raise EngineError("protocol ids 0 and 1 are reserved for dataflow and core control")
        self.protocols[handler.protocol_id] = handler

    def prepare_compute(self, key: str, model: onnx.ModelProto) -> None:
        """Prepare a standard ONNX model that protocol components run via ``ctx.compute``."""
        self._compute_keys[key] = self.backend.prepare(model, key)

    def attach_compute(self, key: str, prepared: PreparedSegment) -> None:
        """Share an already prepared model (e.g. one session for many simulated nodes)."""
        self._compute_keys[key] = prepared

    # ------------------------------------------------------ thread-safe entry

    def deliver(self, peer: str, data: bytes | bytearray | memoryview) -> None:
        """Hand the engine one envelope received from ``peer`` (thread-safe).

        Mutable buffers are copied here so the caller may reuse them; caps are
        enforced before anything is queued.
        """
        size = len(data)
        if size > self.limits.max_envelope:
            self._emit(ev.EnvelopeTooLarge(peer, size, self.limits.max_envelope))
            self._count("dropped")
            return
        with self._lock:
            queued = self._queued_by_peer.get(peer, 0)
            if queued + size > self.limits.per_source_bytes:
                drop: ev.Event | None = ev.SourceCapExceeded(peer, queued, self.limits.per_source_bytes)
            elif self._queued_total + size > self.limits.ingress_budget:
                drop = ev.IngressBudgetExceeded(peer, size, self.limits.ingress_budget)
            else:
                drop = None
                self._queued_by_peer[peer] = queued + size
                self._queued_total += size
        if drop is not None:
            self._emit(drop)
            self._count("dropped")
            return
        payload = data if isinstance(data, bytes) else bytes(data)
        self._ingress.append(("env", peer, payload))

    def submit(self, request_id: int, inputs: dict[str, np.ndarray], program: str | None = None) -> None:
        """Provide graph inputs this node owns for one request (thread-safe; arrays are copied)."""
        for name in inputs:
            if self._program_for_input(program, name) is None:
                raise EngineError(f"node {self.node!r} owns no graph input {name!r}")
        self._ingress.append(("input", program, request_id, {k: np.array(v) for k, v in inputs.items()}))

    def push_event(self, event: ev.Event) -> None:
        """Inject an external event (e.g. PeerDown from an adapter's liveness check)."""
        self._ingress.append(("event", event))

    def complete(self, cmd_id: int, result: dict[str, np.ndarray] | BaseException) -> None:
        """Finish a ComputeCommand with its outputs, or an exception if it failed (thread-safe)."""
        self._ingress.append(("complete", cmd_id, result))

    # ------------------------------------------------------------------- poll

    def poll(self, now: float) -> list[Outbound]:
        """Drain ingress, run ready work to a fixed point, return outbound envelopes."""
        self.now = now
        while self._ingress:
            item = self._ingress.popleft()
            tag = item[0]
            if tag == "env":
                _, peer, payload = item
                with self._lock:
                    self._queued_by_peer[peer] = self._queued_by_peer.get(peer, 0) - len(payload)
                    self._queued_total -= len(payload)
                self._on_envelope(peer, payload)
            elif tag == "input":
                self._on_input(item[1], item[2], item[3])
            elif tag == "event":
                self._emit(item[1])
                for h in list(self.protocols.values()):
                    on_event = getattr(h, "on_event", None)
                    if on_event is not None:
                        self._guard(h.protocol_id, on_event, item[1], Context(self, now))
            elif tag == "complete":
                self._on_complete(item[1], item[2])
            self._run_frontier()
        self._run_frontier()
        for h in list(self.protocols.values()):
            self._guard(h.protocol_id, h.on_tick, now, Context(self, now))
        out, self._outbound = self._outbound, []
        return out

    def take_commands(self) -> list[ComputeCommand]:
        """Compute commands issued since the last call (only with ``inline_compute=False``)."""
        cmds, self._commands = self._commands, []
        return cmds

    def run_command(self, cmd: ComputeCommand) -> dict[str, np.ndarray]:
        """Run a ComputeCommand on this engine's backend (a worker may call this, then ``complete``)."""
        prog = self.programs[cmd.program]
        seg = next(s for s in prog.segments if s.key == cmd.segment)
        return prog.prepared[seg.index].run(cmd.inputs)

    # ----------------------------------------------------------------- events

    def drain_events(self) -> list[ev.Event]:
        """Every event since the last drain, in order."""
        out = []
        while self._events:
            out.append(self._events.popleft())
        return out

    def subscribe(self, callback: Callable[[ev.Event], None], kind: type = ev.Event) -> None:
        """Call ``callback`` synchronously for every event of type ``kind``."""
        self._subscribers.append((kind, callback))

    def _emit(self, event: ev.Event) -> None:
        if len(self._events) >= self.limits.max_events:
            self._events.popleft()
            self._events_dropped += 1
        self._events.append(event)
        for kind, cb in self._subscribers:
            if isinstance(event, kind):
                cb(event)

    def _count(self, key: str, n: int = 1) -> None:
        self.counters[key] = self.counters.get(key, 0) + n

    # --------------------------------------------------------------- ingress

    def _on_envelope(self, peer: str, payload: bytes) -> None:
        self._count("envelopes_in")
        self._count("bytes_in", len(payload))
        try:
            env = wire.decode(payload, max_payload=self.limits.max_payload)
        except WireError as exc:
            self._emit(ev.EnvelopeRejected(peer, exc.code, str(exc)))
            self._count("dropped")
            return
        if env.receiver not in (self.node_id, wire.BROADCAST):
            self._emit(ev.Misaddressed(peer, f"receiver {env.receiver} is not this node ({self.node_id})"))
            self._count("dropped")
            return
        if self._is_duplicate(env.sender, env.seq):
            self._emit(ev.DuplicateDropped(peer, env.sender, env.seq))
            self._count("duplicates")
            return
        sender_name = self._names_by_id.get(env.sender)
        if sender_name is not None and sender_name not in self._seen_peers and sender_name != self.node:
            self._seen_peers.add(sender_name)
            self._emit(ev.PeerUp(sender_name))
        if env.kind == wire.KIND_CONTROL and env.protocol == wire.PROTO_CONTROL:
            self._on_control(peer, env)
        elif env.protocol == wire.PROTO_DATAFLOW and env.kind == wire.KIND_DATA:
            self._on_data(peer, env)
        elif env.protocol in self.protocols:
            h = self.protocols[env.protocol]
            self._guard(h.protocol_id, h.on_envelope, env, peer, Context(self, self.now))
        else:
            self._emit(ev.UnknownEdge(peer, env.edge, env.protocol))
            self._count("dropped")

    def _is_duplicate(self, sender: int, seq: int) -> bool:
        high, seen = self._dedup.get(sender, (0, set()))
        window = self.limits.dedup_window
        if seq in seen or (high > window and seq <= high - window):
            return True
        seen.add(seq)
        if seq > high:
            high = seq
            if len(seen) > 2 * window:
                seen = {s for s in seen if s > high - window}
        self._dedup[sender] = (high, seen)
        return False

    def _on_control(self, peer: str, env: wire.Envelope) -> None:
        payload = env.payload_bytes()
        self._emit(ev.ControlReceived(peer, env.edge, payload))
        if env.edge == CTRL_PING:
            sender = self._names_by_id.get(env.sender)
            if sender is not None:
                reply = wire.Envelope.for_bytes(b"", sender=self.node_id, receiver=env.sender, seq=0,
                                                edge=CTRL_PONG, flags=wire.FLAG_RESPONSE,
                                                response_to=env.seq)
                self._queue_outbound(sender, reply)
        elif env.edge == CTRL_BYE:
            name = self._names_by_id.get(env.sender, peer)
            self._seen_peers.discard(name)
            self._emit(ev.PeerDown(name, "bye"))

    def _on_data(self, peer: str, env: wire.Envelope) -> None:
        entry = self._edge_table.get(env.edge)
        if entry is None:
            self._emit(ev.UnknownEdge(peer, env.edge))
            self._count("dropped")
            return
        prog_name, role = entry
        prog = self.programs[prog_name]
        if role == "recv":
            port = prog.recv[env.edge]
            expected_sender = self.peers.get(port.peer)
            if expected_sender is not None and env.sender != expected_sender:
                self._emit(ev.Misaddressed(peer, f"edge {env.edge} comes from {port.peer!r}, "
                                                 f"not node id {env.sender}"))
                self._count("dropped")
                return
            tensor, contract = port.tensor, (port.elem_type, port.shape)
        else:
            tensor = prog.input_edges[env.edge]
            contract = prog.input_types[tensor]
        problem = _contract_problem(env, contract)
        if problem:
            self._emit(ev.ContractViolation(peer, env.edge, problem[0], problem[1]))
            self._count("dropped")
            return
        key = (prog_name, env.request_id)
        if key in self._completed_set:
            self._emit(ev.StaleEnvelope(peer, env.request_id))
            return
        req = self._request(key)
        if req is None:
            return
        req.values[tensor] = self.backend.materialize_from_wire(env)
        self._dirty[key] = None

    def _on_input(self, program: str | None, request_id: int, inputs: dict[str, np.ndarray]) -> None:
        for name, value in inputs.items():
            prog = self._program_for_input(program, name)
            if prog is None:
                continue  # checked in submit(); a snapshot from another build may not match
            key = (prog.name, request_id)
            req = self._request(key)
            if req is None:
                return
            req.values[name] = value
            self._dirty[key] = None

    def _program_for_input(self, program: str | None, name: str) -> _Program | None:
        if program is not None:
            p = self.programs.get(program)
            return p if p and name in p.local_inputs else None
        return next((p for p in self.programs.values() if name in p.local_inputs), None)

    def _request(self, key: tuple[str, int]) -> _Request | None:
        req = self._requests.get(key)
        if req is None:
            if len(self._requests) >= self.limits.max_open_requests:
                old_key = next(iter(self._requests))
                old = self._requests.pop(old_key)
                self._dirty.pop(old_key, None)
                missing = tuple(sorted(self._missing_inputs(old_key[0], old)))
                self._emit(ev.RequestEvicted(old_key[1], missing))
                self._remember_completed(old_key)
            req = self._requests[key] = _Request()
        return req

    def _missing_inputs(self, prog_name: str, req: _Request) -> set[str]:
        prog = self.programs[prog_name]
        needed = {p.tensor for p in prog.recv.values()} | set(prog.local_inputs)
        return needed - set(req.values)

    # --------------------------------------------------------------- compute

    def _run_frontier(self) -> None:
        while self._dirty:
            key = next(iter(self._dirty))
            del self._dirty[key]
            req = self._requests.get(key)
            if req is None or req.failed:
                continue
            prog = self.programs[key[0]]
            progressed = True
            while progressed:
                progressed = False
                for seg in prog.segments:
                    if seg.index in req.done or seg.index in req.running:
                        continue
                    if all(x in req.values for x in seg.inputs):
                        inputs = {x: req.values[x] for x in seg.inputs}
                        if self.inline_compute:
                            try:
                                outs = prog.prepared[seg.index].run(inputs)
                            except Exception as exc:  # backend errors become events
                                self._fail(key, req, seg.key, exc)
                                break
                            self._count("segments_run")
                            req.values.update(outs)
                            req.done.add(seg.index)
                            progressed = True
                        else:
                            cmd = ComputeCommand(next(self._cmd_ids), prog.name, seg.key, key[1], inputs)
                            req.running.add(seg.index)
                            self._inflight[cmd.cmd_id] = (prog.name, key[1], seg.index)
                            self._commands.append(cmd)
            if not req.failed:
                self._flush_request(key, prog, req)

    def _on_complete(self, cmd_id: int, result: dict[str, np.ndarray] | BaseException) -> None:
        entry = self._inflight.pop(cmd_id, None)
        if entry is None:
            return
        prog_name, rid, seg_index = entry
        key = (prog_name, rid)
        req = self._requests.get(key)
        if req is None:
            return
        req.running.discard(seg_index)
        seg = self.programs[prog_name].segments[seg_index]
        if isinstance(result, BaseException):
            self._fail(key, req, seg.key, result)
            return
        self._count("segments_run")
        req.values.update(result)
        req.done.add(seg_index)
        self._dirty[key] = None

    def _fail(self, key: tuple[str, int], req: _Request, segment: str, exc: BaseException) -> None:
        req.failed = True
        self._emit(ev.ComputeFailed(key[1], segment, f"{type(exc).__name__}: {exc}"))
        self._requests.pop(key, None)
        self._remember_completed(key)

    def _compute(self, key: str, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return self._compute_keys[key].run(inputs)

    def _flush_request(self, key: tuple[str, int], prog: _Program, req: _Request) -> None:
        for port in prog.sends:
            if port.edge_id not in req.sent and port.tensor in req.values:
                env = wire.Envelope.for_array(req.values[port.tensor], sender=self.node_id,
                                              receiver=self.peers[port.peer], seq=0,
                                              request_id=key[1], edge=port.edge_id)
                self._queue_outbound(port.peer, env)
                req.sent.add(port.edge_id)
        for name in prog.outputs:
            if name not in req.emitted and name in req.values:
                value = req.values[name]
                self._emit(ev.OutputReady(key[1], name, value))
                req.emitted.add(name)
                if self.outputs_to_host and name in prog.output_edges:
                    env = wire.Envelope.for_array(value, sender=self.node_id, receiver=0, seq=0,
                                                  request_id=key[1], edge=prog.output_edges[name])
                    self._queue_outbound(HOST_NAME, env)
        if (len(req.done) == len(prog.segments) and len(req.sent) == len(prog.sends)
                and len(req.emitted) == len(prog.outputs)):
            del self._requests[key]
            self._remember_completed(key)
            self._count("requests_completed")
            self._emit(ev.RequestCompleted(key[1]))

    def _remember_completed(self, key: tuple[str, int]) -> None:
        self._completed.append(key)
        self._completed_set.add(key)
        while len(self._completed) > self.limits.completed_memory:
            self._completed_set.discard(self._completed.popleft())

    def _queue_outbound(self, peer: str, env: wire.Envelope) -> None:
        self._seq += 1
        env.seq = self._seq
        env.sender = self.node_id
        data = wire.encode(env, max_payload=max(self.limits.max_payload, len(env.data)))
        self._count("envelopes_out")
        self._count("bytes_out", len(data))
        self._outbound.append(Outbound(peer, env.receiver, data, env.kind, env.protocol, env.edge,
                                       env.request_id, env.seq))

    def _guard(self, protocol: int, fn: Callable[..., Any], *args: Any) -> None:
        try:
            fn(*args)
        except Exception as exc:  # a faulty component must not take the node down
            self._emit(ev.HandlerFailed(protocol, f"{type(exc).__name__}: {exc}"))

    # ------------------------------------------------------------ control API

    def hello(self, peer: str = "*") -> None:
        """Queue a HELLO (this node's name) to ``peer`` or everyone."""
        rid = wire.BROADCAST if peer == "*" else self.peers[peer]
        self._queue_outbound(peer, wire.Envelope.for_bytes(self.node.encode(), sender=self.node_id,
                                                           receiver=rid, seq=0, edge=CTRL_HELLO))

    def ping(self, peer: str) -> None:
        """Queue a PING to ``peer``; its PONG arrives as a ControlReceived event."""
        self._queue_outbound(peer, wire.Envelope.for_bytes(b"", sender=self.node_id,
                                                           receiver=self.peers[peer], seq=0, edge=CTRL_PING))

    def flush_outbound(self) -> list[Outbound]:
        """Outbound envelopes queued outside a poll (hello/ping) without running anything."""
        out, self._outbound = self._outbound, []
        return out

    @property
    def open_requests(self) -> int:
        """Requests with work still pending on this node."""
        return len(self._requests)

    @property
    def pending_ingress(self) -> int:
        """Items queued by deliver/submit not yet seen by poll."""
        return len(self._ingress)

    # --------------------------------------------------------------- snapshot

    def snapshot(self) -> bytes:
        """Serialize all state (requests, dedup, seq, undrained ingress, components) to bytes.

        Programs are not included: restore into an engine built the same way
        (``Engine.for_node``) with :meth:`restore`.
        """
        tensors: list[np.ndarray] = []

        def put(a: np.ndarray) -> int:
            tensors.append(np.ascontiguousarray(a))
            return len(tensors) - 1

        requests = []
        for (prog, rid), req in self._requests.items():
            requests.append({
                "program": prog, "request_id": rid,
                "values": {k: put(v) for k, v in req.values.items()},
                "done": sorted(req.done | req.running), "sent": sorted(req.sent),
                "emitted": sorted(req.emitted),
            })
        ingress: list[Any] = []
        for item in self._ingress:
            if item[0] == "env":
                ingress.append(["env", item[1], put(np.frombuffer(item[2], dtype=np.uint8))])
            elif item[0] == "input":
                ingress.append(["input", item[1], item[2], {k: put(v) for k, v in item[3].items()}])
        components = {}
        for name, comp in self.bindings.items():
            if isinstance(comp, Component):
                components[name] = [comp.type_id, put(np.frombuffer(comp.snapshot(), dtype=np.uint8))]
        meta = {
            "node": self.node, "node_id": self.node_id, "seq": self._seq,
            "programs": sorted(self.programs),
            "dedup": {str(s): [h, sorted(seen)] for s, (h, seen) in self._dedup.items()},
            "requests": requests, "completed": [list(k) for k in self._completed],
            "ingress": ingress, "components": components, "counters": self.counters,
            "seen_peers": sorted(self._seen_peers), "now": self.now,
        }
        blob = json.dumps(meta, sort_keys=True).encode()
        parts = [SNAPSHOT_MAGIC, struct.pack("<I", len(blob)), blob]
        for i, t in enumerate(tensors):
            parts.append(length_prefix(wire.encode(
                wire.Envelope.for_array(t, sender=self.node_id, receiver=self.node_id, seq=i + 1),
                max_payload=max(t.nbytes, 1))))
        return b"".join(parts)

    def restore(self, data: bytes) -> None:
        """Replace this engine's state with a snapshot taken from an identically built engine."""
        if not data.startswith(SNAPSHOT_MAGIC):
            raise EngineError("not a bb-edge engine snapshot")
        off = len(SNAPSHOT_MAGIC)
        (n,) = struct.unpack_from("<I", data, off)
        meta = json.loads(data[off + 4: off + 4 + n])
        if meta["node"] != self.node or sorted(self.programs) != meta["programs"]:
            raise EngineError(f"snapshot is of node {meta['node']!r} with programs {meta['programs']}; "
                              f"this engine is {self.node!r} with {sorted(self.programs)}")
        tensors = [np.array(wire.decode(raw, max_payload=len(raw)).array())
                   for raw in StreamDecoder(max_envelope=len(data)).feed(data[off + 4 + n:])]
        self._seq = meta["seq"]
        self._dedup = {int(s): (h, set(seen)) for s, (h, seen) in meta["dedup"].items()}
        self._requests = {}
        self._dirty = {}
        self._inflight = {}
        self._commands = []
        for r in meta["requests"]:
            req = _Request(values={k: tensors[i] for k, i in r["values"].items()},
                           done=set(r["done"]), sent=set(r["sent"]), emitted=set(r["emitted"]))
            key = (r["program"], r["request_id"])
            self._requests[key] = req
            prog = self.programs[key[0]]
            # segments that were running elsewhere when the snapshot was taken run again
            req.done = {i for i in req.done if all(o in req.values for o in prog.segments[i].outputs)}
            self._dirty[key] = None
        self._completed = deque(tuple(k) for k in meta["completed"])  # type: ignore[misc]
        self._completed_set = set(self._completed)
        self._ingress = deque()
        self._queued_by_peer = {}
        self._queued_total = 0
        for item in meta["ingress"]:
            if item[0] == "env":
                self.deliver(item[1], tensors[item[2]].tobytes())
            else:
                self._ingress.append(("input", item[1], item[2], {k: tensors[i] for k, i in item[3].items()}))
        for name, (type_id, idx) in meta["components"].items():
            comp = self.bindings.get(name)
            if comp is None or getattr(comp, "type_id", None) != type_id:
                raise EngineError(f"snapshot binds {name!r} as {type_id}; bind the same component first")
            comp.restore(tensors[idx].tobytes())
        self.counters = dict(meta["counters"])
        self._seen_peers = set(meta["seen_peers"])
        self.now = meta["now"]


def _contract_problem(env: wire.Envelope, contract: tuple[int, tuple[int, ...]]) -> tuple[str, str] | None:
    elem_type, shape = contract
    got_dtype = CODE_TO_NUMPY.get(env.dtype)
    want = f"elem_type {elem_type} shape {list(shape)}"
    got = f"elem_type {env.dtype} shape {list(env.dims)}"
    if env.dtype != elem_type or got_dtype is None:
        return want, got
    if len(env.dims) != len(shape):
        return want, got
    for d, s in zip(env.dims, shape):
        if s >= 0 and d != s:
            return want, got
    return None
