"""The sans-IO node engine.

One Engine per node. It is driven entirely from outside:

- :meth:`Engine.deliver`, :meth:`Engine.submit`, :meth:`Engine.push_event`
  and :meth:`Engine.complete` may be called from any thread: each only
  appends one item to the ingress deque (an atomic operation in CPython), so
  the engine needs no lock;
- :meth:`Engine.poll` (the loop thread) drains the ingress deque and does
  everything else there: byte accounting and budgets, validation, event
  emission, running every ready segment, deadlines; it returns outbound
  envelopes;
- time enters only as ``poll(now)``.

Nothing here opens a socket, starts a thread or reads a clock. Every problem
with what came off the wire becomes a typed event, never an exception, and
an envelope changes state only after it passed every check: decode,
receiver, authorisation (the edge's producer; graph inputs only from the
host), contract, freshness (the per-sender, per-epoch duplicate window of
:mod:`bb_edge.engine.dedup`) and byte budgets.

Why one file: the Engine is one state machine. Validation, budgets, dedup, request assembly, segment
runs and deadlines all read and write the same per-request and per-sender state in one ``poll``; split
across modules they would share private fields. The pieces that stand alone already live beside it
(events.py, dedup.py, segments.py, edgequant.py, context.py).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import struct
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from bb_edge.backends.base import Backend, PreparedSegment, get_backend
from bb_edge.deployment.clients import client_name, may_submit, reply_to, request_owner, slot_of_id
from bb_edge.deployment.manifest import (
    HOST_ID,
    HOST_NAME,
    Deployment,
    has_external_weights,
    set_weights_dir,
    weights_dir,
    with_weights,
)
from bb_edge.deployment.ports import WirePort, wire_ports
from bb_edge.engine import events as ev
from bb_edge.engine.admission import contract_problem, decode_checked, producer_ok, stale_event
from bb_edge.engine.context import Context
from bb_edge.engine.dedup import SeqFilter
from bb_edge.engine.edgequant import INT8, dequantize_edge, quant_of, quantize_edge, to_wire
from bb_edge.engine.fast_step import FastStep, has_fast_path
from bb_edge.engine.local import check_local, local_size
from bb_edge.engine.replay import ReplayLog, decode_replay, encode_replay, replay_problem
from bb_edge.engine.replication import apply_delta, decode_delta, encode_delta
from bb_edge.engine.segments import Segment, split_segments
from bb_edge.engine.sessions import (
    Session,
    SessionKey,
    SessionLimits,
    SessionStore,
    StateSpec,
    next_state,
    state_checks,
)
from bb_edge.errors import BBError, WireError
from bb_edge.roles import ProtocolHandler, Snapshottable
from bb_edge.wire import envelope as wire
from bb_edge.wire import hello as hello_record
from bb_edge.wire.dtypes import CODE_TO_NUMPY
from bb_edge.wire.framing import StreamDecoder, length_prefix

if TYPE_CHECKING:  # onnx (with ml_dtypes, ~0.6 s) loads where a model is built or read: not in a learning client
    import onnx

CTRL_HELLO, CTRL_PING, CTRL_PONG, CTRL_BYE, CTRL_ERROR = 1, 2, 3, 4, 5
CTRL_SESSION_CLOSE = 6  # the owner ends a session at every stage (docs/wire.md "Sessions")
CTRL_STATE_DELTA = 7  # a stateful stage's committed step, for the other members of its stage group
CTRL_STATE_REPLAY = 8  # a session's inputs to a stage, replayed to its standby at failover (engine/replay.py)
#: how a stateful stage's standby rebuilds its sessions (deployment.json ``rebuild``)
REBUILD_WAYS = ("replicate", "replay")
#: how far ahead of a session's next step a step may arrive and wait (steps sent without waiting for outputs)
SESSION_AHEAD = 64
SNAPSHOT_MAGIC = b"BBSNAP1\n"
DEFAULT_DEADLINE_S = 30.0


class EngineError(BBError):
    """Misuse of the engine API by the host program (never raised for wire input)."""


@dataclass
class Limits:
    """Per-node caps; exceeding one drops the envelope (or evicts a request) with a typed event.

    ``ingress_budget`` bounds, in bytes, both what one poll admits from the
    ingress queue and the wire payload held by open requests; past it the
    oldest open request is evicted. ``dedup_window`` is the bitmap width of
    each per-epoch duplicate window, ``dedup_epochs`` how many recent epochs
    are kept per sender.
    """

    max_envelope: int = wire.DEFAULT_MAX_PAYLOAD + 96
    max_payload: int = wire.DEFAULT_MAX_PAYLOAD
    per_source_bytes: int = 256 * 1024 * 1024
    ingress_budget: int = 512 * 1024 * 1024
    max_open_requests: int = 4096
    #: per request client (owner slot 1..255, docs/wire.md "Clients"): open requests and held bytes one client
    #: may have at a node; past them its own oldest goes, and when the node is full the largest owner's oldest
    #: goes, so one client flooding cannot evict the host's (or another client's) requests
    client_requests: int = 1024
    client_bytes: int = 128 * 1024 * 1024
    dedup_window: int = 1 << 16
    dedup_epochs: int = 4
    max_senders: int = 4096
    max_events: int = 100_000
    completed_memory: int = 8192
    #: session state (docs/wire.md "Sessions"): bytes for all sessions, bytes per session, sessions, idle s
    state_budget: int = 256 * 1024 * 1024
    session_bytes: int = 64 * 1024 * 1024
    max_sessions: int = 64
    session_idle_s: int = 600
    #: rebuild by replay: bytes of one session's inputs kept for a stage with a standby (engine/replay.py)
    replay_bytes: int = 64 * 1024 * 1024

    def sessions(self) -> SessionLimits:
        """The bounds of the node's session store."""
        return SessionLimits(self.state_budget, self.session_bytes, self.max_sessions, float(self.session_idle_s))

    @classmethod
    def from_manifest(cls, values: dict[str, Any]) -> Limits:
        """Limits from a deployment.json ``limits`` object (unknown keys are left to schema validation).

        A ``max_payload`` without ``max_envelope`` also sets the envelope cap
        (payload + the largest header), so one number states the limit.
        """
        known = {f for f in cls.__dataclass_fields__}
        picked = {k: int(v) for k, v in values.items() if k in known and isinstance(v, int)
                  and not isinstance(v, bool) and v > 0}
        if "max_payload" in picked and "max_envelope" not in picked:
            picked["max_envelope"] = picked["max_payload"] + wire.data_offset(wire.MAX_RANK)
        return cls(**picked)


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
    # set instead of ``data`` (which is then empty) for a data envelope of an engine with
    # ``local_payloads``: the envelope object, its payload a read-only view of the tensor
    envelope: wire.Envelope | None = None

    @property
    def size(self) -> int:
        """Bytes on the wire: ``len(data)``, or what ``envelope`` would encode to."""
        return local_size(self.envelope) if self.envelope is not None else len(self.data)


@dataclass
class ComputeCommand:
    """A segment to run elsewhere (``inline_compute=False``); finish with ``complete``."""

    cmd_id: int
    program: str
    segment: str
    request_id: int
    inputs: dict[str, np.ndarray]


@dataclass
class InstalledProgram:
    """A program installed on an engine: its segments, each prepared once, and its wire ports and edges."""

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
    #: state input name -> its pair (engine/sessions.py); empty for a stateless program
    state: dict[str, StateSpec] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # a session step's plan, computed once: which inputs are state (and the outputs that feed them) and the
        # state checks of sessions.next_state as plain tuples, so a step walks tuples instead of rebuilding them
        self.state_io: tuple[tuple[str, str, StateSpec], ...] = tuple(
            (name, spec.output, spec) for name, spec in self.state.items())
        self.state_checks = state_checks(self.state.values())
        self.fast = has_fast_path(self)  # its steps may take engine/fast_step.py


@dataclass(frozen=True)
class ProgramSwap:
    """What :meth:`Engine.swap_program` replaced: hand it to :meth:`Engine.restore_program` to put it back."""

    name: str
    previous: InstalledProgram
    previous_hash: bytes


@dataclass(slots=True)  # one per request per node: slots make it cheaper to build and to read
class _Request:
    values: dict[str, np.ndarray] = field(default_factory=dict)
    done: set[int] = field(default_factory=set)
    running: set[int] = field(default_factory=set)
    sent: set[int] = field(default_factory=set)
    emitted: set[str] = field(default_factory=set)
    failed: bool = False
    created: float = 0.0  # poll clock when the request opened on this node
    touched: float = 0.0  # last time one of its inputs arrived (per-hop budget)
    held: int = 0  # wire/input payload bytes it holds (counts against the ingress budget)
    session: SessionKey | None = None  # (owner, session id) of a session step
    step: int = 0
    injected: bool = False  # the session's state is in ``values`` (the store marks the session busy)
    committed: bool = False  # its new state is in the session store (and replicated): its sends may go
    replay: bool = False  # a replay prefill (engine/replay.py): rebuilds the session's state, sends nothing


class Engine(FastStep):
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
        boot_epoch: int | None = None,
        deadline_s: float = DEFAULT_DEADLINE_S,
        hop_budget_s: float | None = None,
        local_payloads: bool = False,
    ) -> None:
        if not (math.isfinite(deadline_s) and deadline_s > 0):
            raise EngineError(f"deadline_s must be a positive number of seconds, not {deadline_s}")
        if hop_budget_s is not None and not (math.isfinite(hop_budget_s) and hop_budget_s > 0):
            raise EngineError(f"hop_budget_s must be a positive number of seconds, not {hop_budget_s}")
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
        # dataflow tensors leave as Envelope objects sharing the tensor's memory (an in-process
        # adapter delivers them with deliver_local); every other envelope is encoded as usual
        self.local_payloads = local_payloads
        #: a plain session step takes engine/fast_step.py (same checks, events and state; a test turns it off)
        self.fast_steps = True
        self.programs: dict[str, InstalledProgram] = {}
        self.bindings: dict[str, Any] = {}
        # stage failover: stage -> standby nodes (deployment.json ``standby``) and the live route table,
        # changed only by PeerDown/PeerUp events an adapter pushes (its failure detector owns the clock)
        self.standby: dict[str, list[str]] = {}
        # how a standby rebuilds a stateful stage's sessions: "replicate" (state deltas from the primary) or
        # "replay" (this node keeps the session inputs it sends such a stage and replays them at failover)
        self.rebuild = "replicate"
        self.replay_log = ReplayLog(self.limits.replay_bytes)
        self._rebuilding: dict[SessionKey, int] = {}  # sessions replayed here -> the step they will be at
        # sessions whose replay completed and whose next step has not sent yet; _resumed: one such step sent
        # during this poll (poll then returns its output before it runs the next session's replay)
        self._rebuilt: set[SessionKey] = set()
        self._resumed = False
        # graph inputs/outputs the host carries as int8 (deployment.json ``quant``): name -> (scale, zero point)
        self.io_quant: dict[str, tuple[float, int]] = {}
        self.routes: dict[str, str] = {}
        self._down: set[str] = set()
        self._up: set[str] = set()
        self.protocols: dict[int, ProtocolHandler] = {}
        self._edge_table: dict[int, tuple[str, str]] = {}  # edge -> (program, "recv"|"input")
        # an update's epoch switch (engine/ota/node.py): maps (bound program, request id) to the installed program
        # that serves the request, or None to hold its envelopes until release_held()
        self.program_router: Callable[[str, int], str | None] | None = None
        # a canary (engine/ota/node.py): called with (program, every value of the request) when a request completes
        self.mirror: Callable[[str, dict[str, np.ndarray]], None] | None = None
        self.unbound: set[str] = set()  # programs installed with bind=False (an update's variant): not snapshotted
        self._held_data: list[tuple[Any, ...]] = []  # ("data", peer, env, size) or ("input", program, rid, inputs)
        self._compute_keys: dict[str, PreparedSegment] = {}
        # the only structure other threads touch: deque.append/popleft are atomic in CPython
        self._ingress: deque[tuple[Any, ...]] = deque()
        self._held = 0  # payload bytes held by open requests
        self._owner_open: Counter[int] = Counter()  # owner slot -> open requests (per-client budgets)
        self._owner_held: Counter[int] = Counter()  # owner slot -> payload bytes its open requests hold
        self._events: deque[ev.Event] = deque()
        self._events_dropped = 0
        self._subscribers: list[tuple[type, Callable[[ev.Event], None]]] = []
        self._requests: dict[tuple[str, int], _Request] = {}
        self.sessions = SessionStore(self.limits.sessions())
        self._ended: dict[SessionKey, str] = {}  # recently ended sessions -> why (bounded): a later step's refusal
        self._completed: deque[tuple[str, int]] = deque()
        self._completed_set: set[tuple[str, int]] = set()
        self._dirty: dict[tuple[str, int], None] = {}
        self._outbound: list[Outbound] = []
        self._commands: list[ComputeCommand] = []
        self._inflight: dict[int, tuple[str, int, int]] = {}
        self._cmd_ids = itertools.count(1)
        self._seq = 0
        self.boot_epoch = 0
        if boot_epoch is not None:
            self.set_boot_epoch(boot_epoch)
        self.deadline_s = float(deadline_s)
        self.hop_budget_s = float(hop_budget_s) if hop_budget_s is not None else self.deadline_s
        self._next_deadline = math.inf
        self._dedup = SeqFilter(self.limits.dedup_window, self.limits.dedup_epochs, self.limits.max_senders)
        self._peer_epochs: dict[int, int] = {}  # sender id -> boot epoch from its latest HELLO
        self._version_refused: set[int] = set()  # senders whose HELLO had no common version
        self.peer_hellos: dict[str, hello_record.HelloRecord] = {}
        # the wire versions this node speaks, announced in HELLO (a test may narrow them)
        self.versions = (hello_record.OWN_MIN_VERSION, hello_record.OWN_MAX_VERSION)
        self.program_hash = b"\x00" * hello_record.HASH_SIZE
        self._refusals_logged: set[int] = set()  # senders already reported once (telemetry)
        self._seen_peers: set[str] = set()
        self.now = 0.0
        self.counters: dict[str, int] = {
            "envelopes_in": 0, "envelopes_out": 0, "bytes_in": 0, "bytes_out": 0,
            "dropped": 0, "duplicates": 0, "segments_run": 0, "requests_completed": 0,
            "unauthorised": 0, "stale_epoch": 0, "timed_out": 0, "evicted": 0,
        }

    # ------------------------------------------------------------------ setup

    @classmethod
    def for_node(
        cls,
        deployment: Deployment,
        node: str,
        programs: dict[str, onnx.ModelProto] | None = None,
        backend: Backend | str = "ort",
        limits: Limits | None = None,
        deadline_s: float | None = None,
        hop_budget_s: float | None = None,
        **kwargs: Any,
    ) -> Engine:
        """An engine for ``node`` of a deployment with its program installed.

        ``limits`` and the request deadline come from deployment.json
        (``limits``, ``deadline_s``, ``hop_budget_s``) unless given here,
        which overrides them for this run.
        """
        spec = deployment.node(node)
        if limits is None:
            limits = Limits.from_manifest(deployment.limits_for(node))
        if deadline_s is None:
            deadline_s = deployment.deadline_s or DEFAULT_DEADLINE_S
        if hop_budget_s is None:
            hop_budget_s = deployment.hop_budget_s
        eng = cls(node, spec.id, deployment.ids(), backend=backend, limits=limits, deadline_s=deadline_s,
                  hop_budget_s=hop_budget_s, **kwargs)
        eng.standby = deployment.standby
        eng.rebuild = str(deployment.extra.get("rebuild", "replicate"))
        eng.io_quant = {s.name: q for s in list(deployment.inputs) + list(deployment.outputs)
                        if (q := quant_of(s)) is not None}
        stage = deployment.stage_of(node)  # a standby takes its stage's graph inputs and outputs
        # weights in a side file stay there when the backend maps them (ONNX Runtime): the node then holds
        # one copy of them, the backend's, instead of the program's, each segment's and the session's
        recorded = deployment.extra.get("program_sha256", {}).get(node)
        lean = getattr(eng.backend, "external_weights", False) and recorded is not None
        program = deployment.program(node, programs, weights=not lean)
        eng.install(program, name=node,
                    input_edges={i.edge_id: i.name for i in deployment.inputs if i.node == stage},
                    output_edges={o.name: o.edge_id for o in deployment.outputs if o.node == stage},
                    state=deployment.state_pairs(stage))
        # the digest of the program whole (what an OTA deployer computes from the same file): recorded at compile
        # time for a program whose weights were left in their file, so that they are not read in to hash them
        eng.program_hash = bytes.fromhex(recorded) if has_external_weights(program) else program_digest(program)
        return eng

    def install(
        self,
        program: onnx.ModelProto,
        name: str | None = None,
        input_edges: dict[int, str] | None = None,
        output_edges: dict[str, int] | None = None,
        bind: bool = True,
        state: list[tuple[str, str]] | None = None,
    ) -> None:
        """Install a per-node program: split it into segments and prepare each once.

        ``bind=False`` installs a variant that owns no edge: only :attr:`program_router` sends requests to it.
        ``state`` pairs ``(output, input)``: the program's state tensors, kept per session on this node.
        """
        name = name or program.graph.name or f"program{len(self.programs)}"
        if name in self.programs:
            raise EngineError(f"a program named {name!r} is already installed")
        ports = wire_ports(program)
        specs = state_specs(program, state or [])
        segments = split_segments(program, frozenset(specs))
        wdir = weights_dir(program)
        for s in segments:
            if wdir is not None and has_external_weights(s.model):
                if getattr(self.backend, "external_weights", False):
                    set_weights_dir(s.model, wdir)  # the backend reads (maps) them from there
                else:
                    from onnx.external_data_helper import load_external_data_for_model

                    load_external_data_for_model(s.model, wdir)
        prepared = [self.backend.prepare(runnable_model(s.model), f"{name}.{s.key}") for s in segments]
        recv = {p.edge_id: p for p in ports if p.op == "Recv"}
        for e in list(recv) + list((input_edges or {}).keys()) if bind else []:
            if e in self._edge_table:
                raise EngineError(f"edge {e} of program {name!r} is already bound to {self._edge_table[e][0]!r}")
        g = program.graph
        input_types = {}
        for vi in g.input:
            tt = vi.type.tensor_type
            input_types[vi.name] = (tt.elem_type, tuple(d.dim_value if d.HasField("dim_value") else -1
                                                        for d in tt.shape.dim))
        prog = InstalledProgram(
            name=name, model=program, segments=segments, prepared=prepared, recv=recv,
            sends=[p for p in ports if p.op == "Send"], local_inputs=[i.name for i in g.input if i.name not in specs],
            input_edges=dict(input_edges or {}),
            outputs=[o.name for o in g.output if o.name not in {sp.output for sp in specs.values()}],
            output_edges=dict(output_edges or {}), input_types=input_types, state=specs,
        )
        self.programs[name] = prog
        if not bind:
            self.unbound.add(name)
        for e in recv if bind else ():
            self._edge_table[e] = (name, "recv")
        for e in prog.input_edges if bind else ():
            self._edge_table[e] = (name, "input")
        self._emit(ev.ProgramInstalled(name, len(segments)))

    # ------------------------------------------------- program updates (OTA)

    def swap_program(self, name: str, model: onnx.ModelProto) -> ProgramSwap:
        """Replace the installed program ``name`` with ``model`` on the same input and output edges.

        The caller makes sure no open request refers to ``name`` (an idle point). The new program's hash
        becomes :attr:`program_hash` (what HELLO announces). If ``model`` cannot be installed, the old
        program stays and the error is raised.
        """
        old = self.programs[name]
        self._unbind(name)
        try:
            self.install(model, name=name, input_edges=old.input_edges, output_edges=old.output_edges,
                         state=_pairs(old))
        except Exception:
            self._rebind(old)
            raise
        swap = ProgramSwap(name, old, self.program_hash)
        self.program_hash = program_digest(model)
        if old.state:  # a session's state was computed by the old program: its owner is told, never a mix
            for live in list(self.sessions):
                self._close_session(live.key, "the program was updated")
        return swap

    def restore_program(self, swap: ProgramSwap) -> None:
        """Put back what :meth:`swap_program` replaced, and its hash."""
        if swap.name in self.programs:
            self._unbind(swap.name)
        self._rebind(swap.previous)
        self.program_hash = swap.previous_hash

    def install_variant(self, of: str, name: str, model: onnx.ModelProto) -> None:
        """Install ``model`` as ``name`` next to program ``of``, with its edges but bound to none.

        Only :attr:`program_router` sends requests to a variant (an update's epoch switch or canary);
        it is not part of a snapshot.
        """
        cur = self.programs[of]
        self.install(model, name=name, input_edges=cur.input_edges, output_edges=cur.output_edges, bind=False,
                     state=_pairs(cur))

    def uninstall(self, name: str) -> None:
        """Forget program ``name`` and free its edges (no open request may refer to it); absent: nothing."""
        if name in self.programs:
            self._unbind(name)
        self.unbound.discard(name)

    def program_model(self, name: str) -> onnx.ModelProto:
        """Installed program ``name`` whole, its weights included (read from their file if it left them there)."""
        return with_weights(self.programs[name].model)

    def set_program_hash(self, digest: bytes) -> None:
        """Announce ``digest`` (SHA-256 of the serving program) in the next HELLOs."""
        if len(digest) != hello_record.HASH_SIZE:
            raise EngineError(f"a program hash has {hello_record.HASH_SIZE} bytes, not {len(digest)}")
        self.program_hash = bytes(digest)

    def open_requests_for(self, program: str) -> int:
        """Open requests on this node that program ``program`` serves."""
        return sum(1 for key in self._requests if key[0] == program)

    def evaluate(self, program: str, values: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Run every segment of ``program`` on ``values`` now, outside any request; every value computed.

        ``values`` must hold the program's graph inputs and received tensors. Nothing is sent, counted
        or emitted: a canary compares an update's outputs with the running program's this way.
        """
        prog = self.programs[program]
        vals = {k: values[k] for k in set(prog.local_inputs) | {p.tensor for p in prog.recv.values()}}
        done: set[int] = set()
        while len(done) < len(prog.segments):
            ready = [s for s in prog.segments if s.index not in done and all(x in vals for x in s.inputs)]
            if not ready:
                raise EngineError(f"a segment of {program!r} never gets its inputs")
            for seg in ready:
                vals.update(prog.prepared[seg.index].run({x: vals[x] for x in seg.inputs}))
                done.add(seg.index)
        return vals

    @property
    def edge_bindings(self) -> dict[int, tuple[str, str]]:
        """Which installed program takes each edge: edge id -> (program, ``"recv"`` or ``"input"``) (a copy)."""
        return dict(self._edge_table)

    def _unbind(self, name: str) -> None:
        prog = self.programs.pop(name)
        for e in list(prog.recv) + list(prog.input_edges):
            if self._edge_table.get(e, (None,))[0] == name:
                del self._edge_table[e]

    def _rebind(self, prog: InstalledProgram) -> None:
        self.programs[prog.name] = prog
        for e in prog.recv:
            self._edge_table[e] = (prog.name, "recv")
        for e in prog.input_edges:
            self._edge_table[e] = (prog.name, "input")

    # ------------------------------------------------ what protocols may do

    def queue_outbound(self, peer: str, env: wire.Envelope) -> None:
        """Queue an envelope a protocol built for ``peer``: sequence number, sender and counts are set here."""
        self._queue_outbound(peer, env)

    def emit(self, event: ev.Event) -> None:
        """Publish ``event`` on the engine's bus (subscribers, then :meth:`drain_events`)."""
        self._emit(event)

    def compute(self, key: str, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Run a model prepared with :meth:`prepare_compute` or :meth:`attach_compute` synchronously."""
        return self._compute(key, inputs)

    def compute_model(self, key: str) -> PreparedSegment:
        """The prepared model under ``key`` (to share it with :meth:`attach_compute` on another engine)."""
        return self._compute_keys[key]

    def start_sequence_at(self, base: int) -> None:
        """Number outbound envelopes from above ``base`` (never backwards).

        Peers drop ``(sender, seq)`` pairs they have seen, so a restarted node
        must not count from 1 again; its host loop passes a base no earlier
        incarnation can have reached (e.g. a wall-clock reading in ns).
        """
        if not 0 <= base < 2**64:  # (epoch << 32) | n with an unsigned 32-bit epoch
            raise EngineError(f"sequence base {base} out of range")
        self._seq = max(self._seq, base)
        # a clock reading in ns is (epoch << 32) | n with a time-derived epoch: announce it in HELLO
        self.boot_epoch = max(self.boot_epoch, self._seq >> 32)

    def set_boot_epoch(self, epoch: int) -> None:
        """Number outbound envelopes ``(epoch << 32) | n``, ``n`` from 1 (docs/wire.md).

        The epoch goes up at every boot (a persisted counter, or a clock
        reading in seconds); it is announced in :meth:`hello`. Never moves the
        sequence backwards.
        """
        if not 1 <= epoch <= 0xFFFFFFFF:
            raise EngineError(f"boot epoch {epoch} is not in 1..2**32-1")
        self.boot_epoch = max(self.boot_epoch, epoch)
        self._seq = max(self._seq, self.boot_epoch << 32)

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
        """Hand the engine one envelope received from ``peer`` (any thread).

        Only appends to the ingress deque; every check, count and event
        happens in :meth:`poll`. Mutable buffers are copied here so the caller
        may reuse them; an envelope above ``max_envelope`` is not kept at all,
        only its size (poll reports it).
        """
        size = len(data)
        if size > self.limits.max_envelope:
            self._ingress.append(("too_large", peer, size))
            return
        self._ingress.append(("env", peer, data if isinstance(data, bytes) else bytes(data)))

    def deliver_local(self, peer: str, env: wire.Envelope) -> None:
        """Hand the engine one envelope object from an engine in this process (any thread; zero-copy).

        The in-process counterpart of :meth:`deliver` (:mod:`bb_edge.engine.local`):
        no bytes are encoded or decoded, and the payload stays the sender's
        memory, which neither end writes to again. The header fields are
        copied here, so the sender cannot change them after the fact; poll
        checks the object with the rules of decode, then as any envelope.
        """
        if not isinstance(env, wire.Envelope):
            self._ingress.append(("local", peer, env))  # poll refuses it with a typed event
            return
        data = env.data.toreadonly() if isinstance(env.data, memoryview) else env.data
        copy = wire.Envelope(env.sender, env.receiver, env.seq, env.request_id, env.edge, env.kind, env.protocol,
                             env.flags, env.response_to, env.dtype, env.dims, env.scale, env.zero_point, data,
                             env.step)
        size = _local_charge(copy)
        if size > self.limits.max_envelope:
            self._ingress.append(("too_large", peer, size))
            return
        self._ingress.append(("local", peer, copy))

    def submit(self, request_id: int, inputs: dict[str, np.ndarray], program: str | None = None,
               copy: bool = True, session: tuple[int, int] | None = None) -> None:
        """Provide graph inputs this node owns for one request (thread-safe).

        Arrays are copied, so the caller may reuse them at once; with
        ``copy=False`` the engine keeps a read-only view instead, and the
        caller must leave the arrays alone until the request is done.
        ``session`` = ``(session id, step)`` makes the request a step of a session its request id's owner holds.
        """
        for name in inputs:
            if self._program_for_input(program, name) is None:
                raise EngineError(f"node {self.node!r} owns no graph input {name!r}")
        if session is not None and not (0 < session[0] < 2**64 and 0 <= session[1] < 2**32):
            raise EngineError(f"session {session[0]} step {session[1]}: the id is 1..2**64-1, the step 0..2**32-1")
        self._ingress.append(("input", program, request_id,
                              {k: np.array(v) if copy else _readonly(v) for k, v in inputs.items()}, session))

    def close_session(self, session: int, owner: int = 0) -> None:
        """End session ``session`` of owner slot ``owner`` here and at every later stage (thread-safe)."""
        self._ingress.append(("close", owner, session))

    def push_event(self, event: ev.Event) -> None:
        """Inject an external event (e.g. PeerDown from an adapter's liveness check)."""
        self._ingress.append(("event", event))

    def complete(self, cmd_id: int, result: dict[str, np.ndarray] | BaseException) -> None:
        """Finish a ComputeCommand with its outputs, or an exception if it failed (thread-safe)."""
        self._ingress.append(("complete", cmd_id, result))

    # ------------------------------------------------------------------- poll

    def poll(self, now: float) -> list[Outbound]:
        """Drain ingress, run ready work to a fixed point, expire late requests, return outbound envelopes.

        What is queued when the poll starts is admitted as one batch: a peer
        with more than ``per_source_bytes`` queued, or a batch above
        ``ingress_budget``, has the excess dropped with an event.
        """
        self.now = now
        batch = [self._ingress.popleft() for _ in range(len(self._ingress))]
        self._resumed = False
        admitted = self._admit(batch)
        for i, item in enumerate(admitted):
            if self._resumed:
                # a session was rebuilt by replay and its step's output is out: return it now, before
                # the next session's replay runs, so each session resumes as soon as its own state is
                # complete (the rest of the batch is the next poll's, in the same order)
                self._ingress.extendleft(reversed(admitted[i:]))
                self._count("replay_yields")
                break
            tag = item[0]
            if tag == "env":
                self._on_envelope_guarded(item[1], item[2])
            elif tag == "local":
                self._on_local_guarded(item[1], item[2])
            elif tag == "input":
                self._on_input(item[1], item[2], item[3], item[4] if len(item) > 4 else None)
            elif tag == "close":
                self._close_session((item[1], item[2]), "closed by its owner", forward=True)
            elif tag == "event":
                self._emit(item[1])
                self._on_peer_event(item[1])
                for h in list(self.protocols.values()):
                    on_event = getattr(h, "on_event", None)
                    if on_event is not None:
                        self._guard(h.protocol_id, on_event, item[1], Context(self, now))
            elif tag == "complete":
                self._on_complete(item[1], item[2])
            self._run_frontier()
        self._run_frontier()
        self._expire(now)
        if self.sessions.next_due() <= now:
            for s, why in self.sessions.expire(now):
                self._session_ended(s, why)
        for h in list(self.protocols.values()):
            self._guard(h.protocol_id, h.on_tick, now, Context(self, now))
        out, self._outbound = self._outbound, []
        return out

    def _admit(self, batch: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        queued: dict[str, int] = {}
        total = 0
        admitted = []
        for item in batch:
            if item[0] == "too_large":
                self._emit(ev.EnvelopeTooLarge(item[1], item[2], self.limits.max_envelope))
                self._count("dropped")
                continue
            if item[0] in ("env", "local"):
                peer = item[1]
                size = len(item[2]) if item[0] == "env" else _local_charge(item[2])
                q = queued.get(peer, 0)
                if q + size > self.limits.per_source_bytes:
                    self._emit(ev.SourceCapExceeded(peer, q, self.limits.per_source_bytes))
                    self._count("dropped")
                    continue
                if total + size > self.limits.ingress_budget:
                    self._emit(ev.IngressBudgetExceeded(peer, size, self.limits.ingress_budget))
                    self._count("dropped")
                    continue
                queued[peer] = q + size
                total += size
            admitted.append(item)
        return admitted

    # ---------------------------------------------------------------- routes

    def stage_of(self, name: str) -> str:
        """The stage node ``name`` stands by for, or ``name`` itself."""
        return next((stage for stage, nodes in self.standby.items() if name in nodes), name)

    def route(self, peer: str) -> str:
        """Where envelopes for stage ``peer`` go now: the stage, or the standby that replaced it."""
        return self.routes.get(peer, peer)

    def _on_peer_event(self, event: ev.Event) -> None:
        """Update liveness from an adapter's PeerDown/PeerUp and re-route stages (RouteChanged)."""
        if isinstance(event, ev.PeerDown):
            self._down.add(event.peer)
            self._up.discard(event.peer)
            reason = f"{event.peer} down ({event.reason})" if event.reason else f"{event.peer} down"
        elif isinstance(event, ev.PeerUp):
            self._down.discard(event.peer)
            self._up.add(event.peer)
            reason = f"{event.peer} up"
            self._catch_up(event.peer)
        else:
            return
        for stage, nodes in self.standby.items():
            if stage == self.node or self.node in nodes:
                continue
            if stage not in self._down:
                want = stage  # the stage is back (or never left): fail back
            else:
                live = [n for n in nodes if n not in self._down]
                want = next((n for n in live if n in self._up), live[0] if live else stage)
            if want != self.route(stage):
                if want == stage:
                    self.routes.pop(stage, None)
                else:
                    self.routes[stage] = want
                self._emit(ev.RouteChanged(stage, want, reason))
                if self.rebuild == "replay":  # to a standby, or back to the stage: it rebuilds what it lacks
                    self._replay_to(stage, want)

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

    def _count2(self, key: str, key2: str, n2: int) -> None:
        """``key`` += 1 and ``key2`` += ``n2`` in one call (an envelope in or out and its bytes: every step)."""
        c = self.counters
        c[key] = c.get(key, 0) + 1
        c[key2] = c.get(key2, 0) + n2

    # --------------------------------------------------------------- ingress

    def _on_envelope_guarded(self, peer: str, payload: bytes) -> None:
        """Wire input never raises out of poll; an engine bug shows up as EnvelopeRejected ``INTERNAL``."""
        try:
            if not (self.fast_steps and self._fast_step(peer, payload)):  # a plain session step, or the rules
                self._on_envelope(peer, payload)
        except Exception as exc:  # the tests assert this never happens; a deployed node must keep serving
            self._emit(ev.EnvelopeRejected(peer, "INTERNAL", f"{type(exc).__name__}: {exc}"))
            self._count("dropped")

    def _on_local_guarded(self, peer: str, env: wire.Envelope) -> None:
        """An in-process envelope object: the checks decode makes on bytes, then the common path."""
        try:
            size = _local_charge(env)
            self._count("envelopes_in")
            self._count("bytes_in", size)
            try:
                check_local(env, self.limits.max_payload)
                wire.check_shape(env, self.limits.max_payload)
            except WireError as exc:
                self._emit(ev.EnvelopeRejected(peer, exc.code, str(exc)))
                self._count("dropped")
                return
            self._on_decoded(peer, env, size)
        except Exception as exc:  # as for encoded envelopes: never out of poll
            self._emit(ev.EnvelopeRejected(peer, "INTERNAL", f"{type(exc).__name__}: {exc}"))
            self._count("dropped")

    def _on_envelope(self, peer: str, payload: bytes) -> None:
        self._count2("envelopes_in", "bytes_in", len(payload))
        try:
            env = decode_checked(payload, self.limits.max_payload)
        except WireError as exc:
            self._emit(ev.EnvelopeRejected(peer, exc.code, str(exc)))
            self._count("dropped")
            return
        self._on_decoded(peer, env, len(payload))

    def _on_decoded(self, peer: str, env: wire.Envelope, size: int) -> None:
        """Everything after decode, shared by encoded envelopes and in-process objects."""
        if env.receiver not in (self.node_id, wire.BROADCAST):
            self._emit(ev.Misaddressed(peer, f"receiver {env.receiver} is not this node ({self.node_id})"))
            self._count("dropped")
            return
        is_control = env.kind == wire.KIND_CONTROL and env.protocol == wire.PROTO_CONTROL
        if env.sender in self._version_refused and not (is_control and env.edge == CTRL_HELLO):
            # a HELLO still goes through: the peer may have been upgraded
            self._refuse(peer, env, "no common wire version (see its HELLO)")
            return
        if is_control:
            self._on_control(peer, env)
        elif env.protocol == wire.PROTO_DATAFLOW and env.kind == wire.KIND_DATA:
            self._on_data(peer, env, size)
        elif env.protocol in self.protocols:
            if not self._fresh(peer, env):
                return
            h = self.protocols[env.protocol]
            if self._guard(h.protocol_id, h.on_envelope, env, peer, Context(self, self.now)):
                self._accepted(env)
        else:
            self._emit(ev.UnknownEdge(peer, env.edge, env.protocol))
            self._count("dropped")

    def _refuse(self, peer: str, env: wire.Envelope, reason: str) -> None:
        """An authorisation refusal: a typed event, counted, flagged ``first`` once per sender."""
        first = env.sender not in self._refusals_logged
        if first and len(self._refusals_logged) < self.limits.max_senders:
            self._refusals_logged.add(env.sender)
        self._emit(ev.Unauthorised(peer, env.sender, env.edge, reason, first))
        self._count("unauthorised")
        self._count("dropped")

    def _fresh(self, peer: str, env: wire.Envelope) -> bool:
        """The duplicate/epoch check (read only); False after emitting why the envelope is dropped."""
        event = stale_event(self._dedup, peer, env)
        if event is None:
            return True
        self._emit(event)
        if isinstance(event, ev.DuplicateDropped):
            self._count("duplicates")
        else:
            self._count("stale_epoch")
            self._count("dropped")
        return False

    def _accepted(self, env: wire.Envelope) -> None:
        """The envelope passed every check and was applied: only now does the window move."""
        self._dedup.record(env.sender, env.seq)
        name = self._names_by_id.get(env.sender)
        if name is not None and name not in self._seen_peers and name != self.node:
            self._seen_peers.add(name)
            self._emit(ev.PeerUp(name))

    def _on_control(self, peer: str, env: wire.Envelope) -> None:
        sender = self._names_by_id.get(env.sender)
        if sender is None and env.edge == CTRL_HELLO and env.receiver == wire.BROADCAST:
            # another member's announcement to everyone (a learning client hears every other client's HELLO on
            # a shared broker, but knows only its server): not for this node, changes nothing, not a refusal
            self._count("foreign_hellos")
            return
        if sender is None and env.edge in (CTRL_SESSION_CLOSE, CTRL_STATE_REPLAY) \
                and (slot := slot_of_id(env.sender)) is not None:
            sender = client_name(slot)  # a client ends (or replays) its own session (deployment ids name no clients)
        if sender is None:
            self._refuse(peer, env, f"control message from node id {env.sender}, which is not in the deployment")
            return
        if env.edge == CTRL_HELLO:
            self._on_hello(peer, sender, env)
            return
        if not self._fresh(peer, env):
            return
        if env.edge == CTRL_SESSION_CLOSE:
            self._on_session_close(peer, sender, env)
            return
        if env.edge == CTRL_STATE_DELTA:
            self._on_state_delta(peer, sender, env)
            return
        if env.edge == CTRL_STATE_REPLAY:
            self._on_state_replay(peer, sender, env)
            return
        self._accepted(env)
        payload = env.payload_bytes()
        self._emit(ev.ControlReceived(peer, env.edge, payload))
        if env.edge == CTRL_PING:
            reply = wire.Envelope.for_bytes(b"", sender=self.node_id, receiver=env.sender, seq=0,
                                            edge=CTRL_PONG, flags=wire.FLAG_RESPONSE, response_to=env.seq)
            self._queue_outbound(sender, reply)
        elif env.edge == CTRL_BYE:
            self._seen_peers.discard(sender)
            self._emit(ev.PeerDown(sender, "bye"))

    def _on_hello(self, peer: str, sender: str, env: wire.Envelope) -> None:
        payload = env.payload_bytes()
        rec: hello_record.HelloRecord | None = None
        if _legacy_name(payload):
            pass  # the v1 form: just the node name (older C and MicroPython nodes); no epoch, version 1
        else:
            try:
                rec = hello_record.decode(payload)
            except WireError as exc:
                self._emit(ev.BadHello(peer, exc.code, str(exc)))
                self._count("dropped")
                return
            if rec.node_id != env.sender:
                self._emit(ev.BadHello(peer, "BAD_FIELD", f"record names node id {rec.node_id}, "
                                                          f"the envelope sender is {env.sender}"))
                self._count("dropped")
                return
            known = self._peer_epochs.get(env.sender)
            if known is not None and rec.boot_epoch < known:
                self._emit(ev.EpochRegressed(peer, env.sender, known, rec.boot_epoch))
                self._count("dropped")
                return
        if not self._fresh(peer, env):
            return
        answer = not env.flags & wire.FLAG_RESPONSE
        self._accepted(env)
        if rec is not None:
            self.peer_hellos[sender] = rec
            if rec.version_with(self._own_hello()) is None:
                self._version_refused.add(env.sender)
                self._emit(ev.VersionMismatch(peer, env.sender, self.versions,
                                              (rec.min_version, rec.max_version)))
            else:
                self._version_refused.discard(env.sender)
            known = self._peer_epochs.get(env.sender)
            if known is None or rec.boot_epoch > known:
                self._peer_epochs[env.sender] = rec.boot_epoch
                self._dedup.start_epoch(env.sender, rec.boot_epoch)  # a reboot: a new, empty window
        self._emit(ev.ControlReceived(peer, env.edge, payload))
        if answer:  # a HELLO is answered (flag RESPONSE) so the sender learns our epoch and versions
            self.hello(sender, response_to=env.seq)

    def _on_data(self, peer: str, env: wire.Envelope, size: int) -> None:
        entry = self._edge_table.get(env.edge)
        if entry is None:
            self._emit(ev.UnknownEdge(peer, env.edge))
            self._count("dropped")
            return
        prog_name, role = entry
        if self.program_router is not None:
            routed = self.program_router(prog_name, env.request_id)
            if routed is None:  # an update's switch point is not known yet: kept until release_held()
                if len(self._held_data) >= self.limits.max_open_requests:  # bounded like open requests
                    self._emit(ev.IngressBudgetExceeded(peer, size, self.limits.max_open_requests))
                    self._count("dropped")
                    return
                self._held_data.append(("data", peer, env, size))
                return
            prog_name = routed
        prog = self.programs[prog_name]
        if role == "recv":
            port = prog.recv[env.edge]
            producer = self.peers.get(port.peer)
            if env.sender != producer and not producer_ok(
                    env.sender, producer, (self.peers.get(n) for n in self.standby.get(port.peer, ()))):
                self._refuse(peer, env, f"edge {env.edge} is produced by {port.peer!r} "
                                        f"(id {self.peers.get(port.peer)}), not by node id {env.sender}")
                return
            tensor, contract = port.tensor, (port.elem_type, port.shape)
        else:
            if not may_submit(env.sender, env.request_id):  # the host, or the client the request id names
                self._refuse(peer, env, f"edge {env.edge} is a graph input: only the host (id {HOST_ID}) or the "
                                        f"client that owns request {env.request_id} sends it")
                return
            tensor = prog.input_edges[env.edge]
            contract = prog.input_types[tensor]
        quant = port.quant if role == "recv" else self.io_quant.get(tensor)
        if quant is not None:  # carried as int8: the sender quantized it
            contract = (INT8, contract[1])
        problem = contract_problem(env, contract[0], contract[1], quant)  # int8: scale and zero point too
        if problem:
            self._emit(ev.ContractViolation(peer, env.edge, problem[0], problem[1]))
            self._count("dropped")
            if role == "input":  # the host's own input is wrong: tell it, naming the request
                self._report(env.request_id, f"ContractViolation: input {tensor!r} of request {env.request_id} "
                                             f"at {self.node}: expected {problem[0]}, got {problem[1]}")
            return
        if not self._fresh(peer, env):
            return
        key = (prog_name, env.request_id)
        if key in self._completed_set:
            self._emit(ev.StaleEnvelope(peer, env.request_id))
            return
        marker = (env.session, env.step) if env.flags & wire.FLAG_SESSION else None
        if not self._session_ok(peer, prog, key, marker):
            self._count("dropped")
            return
        if not self._make_room(size, key):
            self._emit(ev.IngressBudgetExceeded(peer, size, self.limits.ingress_budget))
            self._count("dropped")
            return
        req = self._request(key)
        self._join_session(prog, key, req, marker)
        self._accepted(env)
        req.touched = self.now
        if tensor in req.values:
            return  # a resend with a new seq: the first copy stands
        value = self.backend.materialize_from_wire(env)
        # an int8 edge of a float tensor: this end dequantizes (the C end keeps the int8 bytes)
        req.values[tensor] = value if quant is None else dequantize_edge(value, quant)
        req.held += size  # a zero-copy view keeps the whole envelope alive
        self._held += size
        held, owner = self._owner_held, request_owner(key[1])
        held[owner] = held.get(owner, 0) + size  # dict.get: Counter's missing-key path is Python code
        self._dirty[key] = None

    def release_held(self) -> None:
        """Route again the data envelopes :attr:`program_router` held (those still held stay)."""
        held, self._held_data = self._held_data, []
        for kind, *args in held:
            if kind == "data":
                self._on_data(*args)
            else:
                self._on_input(*args)  # (program, request id, inputs, session)

    def _make_room(self, size: int, keep: tuple[str, int]) -> bool:
        """Evict open requests until ``size`` more bytes fit: a client's own oldest past its budget, then the
        largest owner's oldest past the node's ingress budget (one client cannot starve the others)."""
        owner = request_owner(keep[1])
        if owner:
            while self._owner_held.get(owner, 0) + size > self.limits.client_bytes:
                victim = self._oldest_of(owner, keep)
                if victim is None:
                    return False
                self._evict(victim, "client byte budget")
        budget = self.limits.ingress_budget
        while self._held + size > budget:
            largest = max(self._owner_held, key=self._owner_held.__getitem__) if self._owner_held else 0
            victim = self._oldest_of(largest, keep) or next((k for k in self._requests if k != keep), None)
            if victim is None:
                return False
            self._evict(victim, "ingress byte budget")
        return True

    def _oldest_of(self, owner: int, keep: tuple[str, int] | None = None) -> tuple[str, int] | None:
        """The oldest open request of ``owner`` (not ``keep``), or None."""
        return next((k for k in self._requests if k != keep and request_owner(k[1]) == owner), None)

    def _on_input(self, program: str | None, request_id: int, inputs: dict[str, np.ndarray],
                  session: tuple[int, int] | None = None) -> None:
        for name, value in inputs.items():
            prog = self._program_for_input(program, name)
            if prog is None:
                continue  # checked in submit(); a snapshot from another build may not match
            if self.program_router is not None:
                routed = self.program_router(prog.name, request_id)
                if routed is None:  # held until the update's switch point is known
                    self._held_data.append(("input", program, request_id, {name: value}, session))
                    continue
                prog = self.programs[routed]
            key = (prog.name, request_id)
            if key in self._completed_set or not self._session_ok(HOST_NAME, prog, key, session):
                return
            if not self._make_room(value.nbytes, key):
                return
            req = self._request(key)
            self._join_session(prog, key, req, session)
            req.touched = self.now
            if name in req.values:
                continue
            req.values[name] = value
            req.held += value.nbytes
            self._held += value.nbytes
            self._owner_held[request_owner(key[1])] += value.nbytes
            self._dirty[key] = None

    def _program_for_input(self, program: str | None, name: str) -> InstalledProgram | None:
        if program is not None:
            p = self.programs.get(program)
            return p if p and name in p.local_inputs else None
        return next((p for p in self.programs.values() if name in p.local_inputs), None)

    def _request(self, key: tuple[str, int]) -> _Request:
        req = self._requests.get(key)
        if req is None:
            owner = request_owner(key[1])
            while owner and self._owner_open.get(owner, 0) >= self.limits.client_requests:
                self._evict(self._oldest_of(owner) or next(iter(self._requests)), "client open request budget")
            while len(self._requests) >= self.limits.max_open_requests:
                largest = max(self._owner_open, key=self._owner_open.__getitem__)
                self._evict(self._oldest_of(largest) or next(iter(self._requests)), "open request limit")
            req = self._requests[key] = _Request(created=self.now, touched=self.now)
            self._owner_open[owner] = self._owner_open.get(owner, 0) + 1
            self._emit(ev.RequestOpened(key[1], key[0]))
            self._next_deadline = min(self._next_deadline, self.now + min(self.deadline_s, self.hop_budget_s))
        return req

    def _close(self, key: tuple[str, int], finished: bool = True) -> _Request | None:
        """Forget an open request and release its bytes.

        A finished one (completed or failed) is remembered, so late envelopes
        for it are StaleEnvelope. One dropped unfinished (evicted, timed out)
        is not: the host's retry of that request opens it afresh.
        """
        req = self._requests.pop(key, None)
        self._dirty.pop(key, None)
        if req is not None:
            self._held -= req.held
            owner = request_owner(key[1])
            self._owner_held[owner] -= req.held
            self._owner_open[owner] -= 1
            if not self._owner_open[owner]:  # dict.pop, not Counter's Python-level __delitem__
                self._owner_open.pop(owner, None)
                self._owner_held.pop(owner, None)
            if req.injected and req.session is not None:  # a step that took the state did not finish
                self.sessions.release(req.session)
                self._wake(req.session)
        if finished:
            self._remember_completed(key)
        return req

    def _evict(self, key: tuple[str, int], reason: str) -> None:
        req = self._requests[key]
        missing = tuple(sorted(self._missing_inputs(key[0], req)))
        self._close(key, finished=False)
        self._count("evicted")
        self._emit(ev.RequestEvicted(key[1], missing, reason))
        self._report(key[1], f"RequestEvicted: request {key[1]} at {self.node} ({reason}); "
                             f"missing {', '.join(missing) or 'nothing'}")

    def _expire(self, now: float) -> None:
        """Drop every request past its deadline or per-hop budget (RequestTimedOut + an error to the host)."""
        if now < self._next_deadline:
            return
        nxt = math.inf
        for key, req in list(self._requests.items()):
            due = min(req.created + self.deadline_s, req.touched + self.hop_budget_s)
            if due > now:
                nxt = min(nxt, due)
                continue
            waiting = self._waiting_for(key[0], req)
            self._close(key, finished=False)
            self._count("timed_out")
            self._emit(ev.RequestTimedOut(key[1], self.node, waiting))
            self._report(key[1], f"RequestTimedOut: request {key[1]} at {self.node} "
                                 f"waiting for {', '.join(waiting) or 'nothing'}")
        self._next_deadline = nxt

    def _waiting_for(self, prog_name: str, req: _Request) -> tuple[str, ...]:
        prog = self.programs[prog_name]
        out = [f"{p.tensor} from {p.peer}" for p in prog.recv.values() if p.tensor not in req.values]
        out += [f"{n} (graph input)" for n in prog.local_inputs if n not in req.values]
        out += [f"segment {prog.segments[i].key} computing" for i in sorted(req.running)]
        return tuple(out)

    def _report(self, request_id: int, text: str) -> None:
        """Send the host an error result for ``request_id`` (docs/wire.md, "Error results")."""
        if self.node_id == HOST_ID:
            return
        dest, dest_id = reply_to(request_id)  # the host, or the client that owns the request
        env = wire.Envelope.for_bytes(text.encode("utf-8", "replace"), sender=self.node_id, receiver=dest_id,
                                      seq=0, edge=CTRL_ERROR, request_id=request_id, flags=wire.FLAG_ERROR)
        self._queue_outbound(dest, env)

    def _missing_inputs(self, prog_name: str, req: _Request) -> set[str]:
        prog = self.programs[prog_name]
        needed = {p.tensor for p in prog.recv.values()} | set(prog.local_inputs)
        return needed - set(req.values)

    # -------------------------------------------------------------- sessions

    def _session_ok(self, peer: str, prog: InstalledProgram, key: tuple[str, int],
                    marker: tuple[int, int] | None) -> bool:
        """Whether a request's envelope may join it as ``marker`` = (session, step); a typed event if not.

        Read only, except that a step 0 opens its session (after every other check passed).
        """
        req = self._requests.get(key)
        owner = request_owner(key[1])
        if req is not None and (req.session, req.step) != ((owner, marker[0]) if marker else None,
                                                         marker[1] if marker else 0):
            return self._session_refused(peer, owner, marker, "the request's envelopes name different sessions "
                                                              "or steps", key[1])
        if marker is None:
            if prog.state:
                return self._session_refused(peer, owner, None, f"program {prog.name!r} keeps state: "
                                                                f"its requests must be steps of a session", key[1])
            return True
        if req is not None or not prog.state:
            return True
        skey = (owner, marker[0])
        live = self.sessions.get(skey)
        step = marker[1]
        if live is None:
            if step != 0:
                why = self._ended.get(skey, "it was never opened here")
                return self._session_refused(peer, owner, marker, f"session is not open ({why})", key[1])
            opened, ended = self.sessions.open(skey, self.now, key[1])
            for s, why in ended:
                self._session_ended(s, why)
            if opened is None:
                return self._session_refused(peer, owner, marker, f"node holds {self.limits.max_sessions} sessions, "
                                                                  f"every one mid-step", key[1])
            self._ended.pop(skey, None)
            self._emit(ev.SessionOpened(owner, marker[0]))
            return True
        if step == live.next_step - 1 and not live.busy and live.last_outputs and live.last_request == key[1]:
            self._reemit(prog, key, live)  # a retry of the step just done (or done by the primary before it died)
            return False
        # when a standby (looked up only for a step ahead of the session's next)
        stage = self._stage_served() if step > live.next_step else None
        if step > live.next_step and stage is not None and stage in self._down and self.rebuild != "replay":
            return self._session_refused(peer, owner, marker, f"the replica here holds steps up to {live.next_step - 1}"
                                                              f" and {stage} is down: step {step} cannot be served "
                                                              f"from complete state", key[1])
        if step < live.next_step or (step == live.next_step and live.busy):
            return self._session_refused(peer, owner, marker, f"step {step} is done or running "
                                                              f"(next step {live.next_step})", key[1])
        if step > live.next_step + SESSION_AHEAD and self._rebuilding.get(skey) != step:
            return self._session_refused(peer, owner, marker, f"step {step} is more than {SESSION_AHEAD} ahead of "
                                                              f"the next step {live.next_step}", key[1])
        return True

    def _session_refused(self, peer: str, owner: int, marker: tuple[int, int] | None, reason: str,
                         request_id: int = 0) -> bool:
        sid, step = marker if marker else (0, 0)
        self._emit(ev.SessionRefused(peer, owner, sid, step, reason))
        self._count("session_refused")
        if request_id:  # the owner learns at once why its step will never answer
            self._report(request_id, f"SessionRefused: request {request_id} (session {sid} step {step}) at "
                                     f"{self.node}: {reason}")
        return False

    def _join_session(self, prog: InstalledProgram, key: tuple[str, int], req: _Request,
                      marker: tuple[int, int] | None) -> None:
        if marker is not None and req.session is None:
            req.session, req.step = (request_owner(key[1]), marker[0]), marker[1]

    def _inject(self, key: tuple[str, int], req: _Request) -> bool:
        """Put the session's state into the request when it is the session's next step; False: it waits."""
        if req.session is None:
            return False
        live = self.sessions.get(req.session)
        if live is None:  # ended while this step waited: refused, so its owner reads why (docs/wire.md "Sessions")
            why = self._ended.get(req.session, "closed")
            req.failed = True
            self._close(key)
            self._session_refused(HOST_NAME, req.session[0], (req.session[1], req.step),
                                  f"session is not open ({why})", key[1])
            return False
        if live.busy or live.next_step != req.step:
            return False
        prog = self.programs[key[0]]
        state = self.sessions.take(req.session, key[1], self.now)
        values = req.values
        get = state.get
        for name, output, spec in prog.state_io:
            value = get(output)  # the zeros only at the first step (20 states a step for a decoder)
            values[name] = spec.initial() if value is None else value
        req.injected = True
        return True

    def _commit_state(self, prog: InstalledProgram, req: _Request) -> None:
        assert req.session is not None
        values = req.values
        checked = next_state(prog.state.values(), values, prog.state_checks)
        if isinstance(checked, str):  # never carry a state the next step cannot take: the session ends
            req.injected = False
            self._close_session(req.session, f"bad state: {checked}")
            return
        new, size = checked
        req.injected = False
        for s, why in self.sessions.commit(req.session, new, self.now, size):
            self._session_ended(s, why)
        live = self.sessions.get(req.session)
        if live is None or live.next_step >= self._rebuilding.get(req.session, 0):
            if self._rebuilding.pop(req.session, None) is not None:
                self._rebuilt.add(req.session)
        if live is not None and req.replay:  # a replay's outputs are every replayed row: never re-sent
            live.last_outputs = []
        elif live is not None:
            outputs = self._step_outputs(prog, values)
            live.last_outputs = outputs
            if self.standby and self.rebuild != "replay":  # else there is no stage group to send a delta to
                old = {spec.input: values[spec.input] for spec in prog.state.values()}
                self._replicate(prog, live, old, outputs, req.step)
        self._wake(req.session)

    def _wake(self, skey: SessionKey) -> None:
        """Requests of session ``skey`` waiting for their step run again."""
        for key, r in self._requests.items():
            if r.session == skey and not r.injected:
                self._dirty[key] = None

    def _close_session(self, skey: SessionKey, reason: str, forward: bool = False) -> None:
        self.replay_log.forget(skey)
        live = self.sessions.close(skey)
        if live is not None:
            self._session_ended(live, reason)
        if forward:  # every later stage keeps its own part of the session: pass the close on, once
            dests = {self.route(p.peer) for prog in self.programs.values() for p in prog.sends}
            for dest in sorted(dests):
                env = wire.Envelope.for_bytes(b"", sender=self.node_id, receiver=self.peers[dest], seq=0,
                                              edge=CTRL_SESSION_CLOSE,
                                              request_id=live.last_request if live else skey[0] << 56)
                self._queue_outbound(dest, env.in_session(skey[1], 0))

    def _session_ended(self, live: Session, reason: str) -> None:
        self.replay_log.forget(live.key)
        self._rebuilding.pop(live.key, None)
        self._ended[live.key] = reason
        self._rebuilt.discard(live.key)
        while len(self._ended) > 4 * self.limits.max_sessions:
            del self._ended[next(iter(self._ended))]
        self._emit(ev.SessionEnded(live.owner, live.session, live.next_step, reason))
        if not reason.startswith("closed by"):  # the owner is told why its session is gone
            self._report(live.last_request, f"SessionEnded: session {live.session} at {self.node}: {reason}")
        for key, r in list(self._requests.items()):  # steps waiting for it can never run
            if r.session == live.key and not r.injected:
                self._dirty[key] = None

    # ----------------------------------------------------------- replication

    def stage_group(self) -> list[str]:
        """The other members of this node's stage group: its stage and that stage's standbys, but itself."""
        stage = self._stage_served() or self.node
        return [n for n in [stage, *self.standby.get(stage, [])] if n != self.node and n in self.peers]

    def _stage_served(self) -> str | None:
        """The stage this node stands by for; None when it is a stage itself."""
        return next((st for st, nodes in self.standby.items() if self.node in nodes), None)

    def _stateful_program(self) -> InstalledProgram | None:
        return next((p for name, p in self.programs.items() if p.state and name not in self.unbound), None)

    @staticmethod
    def _specs(prog: InstalledProgram) -> list[StateSpec]:
        return [prog.state[k] for k in sorted(prog.state)]

    @staticmethod
    def _step_outputs(prog: InstalledProgram, values: dict[str, np.ndarray]) -> list[np.ndarray]:
        return [values[p.tensor] for p in prog.sends] + [values[n] for n in prog.outputs]

    def _replicate(self, prog: InstalledProgram, live: Session, old: dict[str, np.ndarray],
                   outputs: list[np.ndarray], step: int, to: list[str] | None = None, full: bool = False) -> None:
        """Send the step's state delta (a full copy with ``full``) to the other members of the stage group."""
        members = self.stage_group() if to is None else to
        if not members or self.rebuild == "replay":  # replay: the standby rebuilds from upstream's inputs
            return
        payload = encode_delta(self._specs(prog), old, live.state, outputs, self.node_id, full=full)
        for member in members:
            env = wire.Envelope.for_bytes(payload, sender=self.node_id, receiver=self.peers[member], seq=0,
                                          edge=CTRL_STATE_DELTA, request_id=live.last_request)
            self._queue_outbound(member, env.in_session(live.session, step))
            self._count("state_deltas_out")
            self._count("state_delta_bytes_out", len(payload))

    def _catch_up(self, member: str) -> None:
        """A member of the stage group came (back) up: a full copy of every idle session, one message each."""
        prog = self._stateful_program()
        if prog is None or member not in self.stage_group():
            return
        for live in self.sessions:
            if not live.busy and live.next_step > 0:
                self._replicate(prog, live, {}, live.last_outputs, live.next_step - 1, to=[member], full=True)

    def _on_state_delta(self, peer: str, sender: str, env: wire.Envelope) -> None:
        """A CTRL_STATE_DELTA from another member of the stage group: applied whole or not at all."""
        owner = request_owner(env.request_id)
        prog = self._stateful_program()

        def refuse(reason: str) -> None:
            self._emit(ev.StateDeltaRefused(peer, owner, env.session, env.step, reason))
            self._count("state_deltas_refused")

        if prog is None or not env.flags & wire.FLAG_SESSION:
            refuse("this node keeps no session state" if prog is None else "a state delta without a session")
            return
        if sender not in self.stage_group():
            refuse(f"{sender!r} is not a member of this node's stage group {self.stage_group()}")
            return
        n_out = len(prog.sends) + len(prog.outputs)
        delta = decode_delta(env.payload_bytes(), self._specs(prog), n_out, self.limits.max_payload)
        if isinstance(delta, str):
            refuse(delta)
            return
        skey = (owner, env.session)
        live = self.sessions.get(skey)
        if live is not None and live.busy:
            refuse(f"session {env.session} is mid-step on this node")
            return
        expected = live.next_step if live is not None else 0
        if delta.full:
            if live is not None and env.step + 1 < live.next_step:
                refuse(f"a copy of step {env.step} is older than this node's step {live.next_step - 1}")
                return
        elif env.step != expected:
            refuse(f"{'replayed' if env.step < expected else 'skipping'} delta: step {env.step}, "
                   f"this node's next step is {expected}")
            return
        new = apply_delta(self._specs(prog), live.state if live is not None and not delta.full else {}, delta)
        if isinstance(new, str):
            refuse(new)
            return
        self._accepted(env)
        kept, ended = self.sessions.replace(skey, new, env.step + 1, self.now, env.request_id)
        for s, why in ended:
            self._session_ended(s, why)
        if kept is None:
            refuse(f"the replica does not fit this node's state budget ({self.limits.state_budget} bytes)")
            return
        self._ended.pop(skey, None)
        kept.last_outputs = [delta.outputs[j] for j in range(n_out)] if len(delta.outputs) == n_out else []
        self._count("state_deltas_in")
        self._wake(skey)

    # ----------------------------------------------------------------- replay

    def _replay_to(self, stage: str, via: str) -> None:
        """``stage`` is down and ``via`` serves it now: replay each session's kept inputs to ``via`` (one
        CTRL_STATE_REPLAY of every step but the newest), then send the newest step again; a session that
        cannot be replayed ends here, with a typed event to its owner (engine/replay.py)."""
        ports = [p for prog in self.programs.values() for p in prog.sends if p.peer == stage]
        if not ports:
            return
        edges = {p.edge_id for p in ports}
        for skey, kept in self.replay_log.sessions(stage):
            why = kept.lost or replay_problem(kept.steps, edges)
            if why is not None:
                self._unreplayable(skey, stage, via, why, kept.last_request)
                continue
            step, rid, values = kept.steps[-1]
            if step > 0:
                payload = encode_replay(kept.steps[:-1], self.node_id)
                env = wire.Envelope.for_bytes(payload, sender=self.node_id, receiver=self.peers[via], seq=0,
                                              edge=CTRL_STATE_REPLAY, request_id=kept.steps[-2][1])
                self._queue_outbound(via, env.in_session(skey[1], step))
                self._count("replays_out")
                self._count("replay_bytes_out", len(payload))
            for p in ports:  # the newest step again: the standby runs it as the primary would have
                data = wire.Envelope.for_array(values[p.edge_id], sender=self.node_id, receiver=self.peers[via],
                                               seq=0, request_id=rid, edge=p.edge_id, quant=p.quant)
                self._queue_outbound(via, data.in_session(skey[1], step))

    def _unreplayable(self, skey: SessionKey, stage: str, via: str, why: str, last_request: int) -> None:
        """End session ``skey`` (here and downstream) because ``via`` cannot rebuild it; tell its owner."""
        reason = f"{via} cannot rebuild it after {stage} went down: {why}"
        self._count("replays_impossible")
        live = self.sessions.get(skey) is not None
        self._close_session(skey, reason, forward=True)  # when live here: SessionEnded, reported to the owner
        if live:
            return
        self._emit(ev.SessionEnded(skey[0], skey[1], 0, reason))
        if last_request:
            self._report(last_request, f"SessionEnded: session {skey[1]} at {self.node}: {reason}")

    def _on_state_replay(self, peer: str, sender: str, env: wire.Envelope) -> None:
        """A CTRL_STATE_REPLAY from the node upstream of this stage: rebuild the session in one prefill."""
        owner = request_owner(env.request_id)
        prog = self._stateful_program()

        def refuse(reason: str) -> None:
            self._emit(ev.StateReplayRefused(peer, owner, env.session, env.step, reason))
            self._count("replays_refused")

        if prog is None or not env.flags & wire.FLAG_SESSION:
            refuse("this node keeps no session state" if prog is None else "a replay without a session")
            return
        upstream = {p.peer for p in prog.recv.values()}
        upstream |= {n for st in list(upstream) for n in self.standby.get(st, ())}
        # a first stage's inputs are the owner's graph inputs: the owner replays them (the host, or the client
        # its request id names); any later stage's come from the stage before it (or that stage's standby)
        contracts: dict[int, tuple[str, int, tuple[int, ...], Any]] = (
            {e: (p.tensor, p.elem_type, p.shape, p.quant) for e, p in prog.recv.items()} if prog.recv else
            {e: (n, *prog.input_types[n], self.io_quant.get(n)) for e, n in prog.input_edges.items()})
        if not (sender in upstream if prog.recv else may_submit(env.sender, env.request_id)):
            refuse(f"{sender!r} does not send this stage its inputs")
            return
        steps = decode_replay(env.payload_bytes(), set(contracts), self.limits.max_payload)
        if isinstance(steps, str):
            refuse(steps)
            return
        chunks: list[tuple[int, dict[str, np.ndarray]]] = []
        for step, rid, tensors in steps:
            values: dict[str, np.ndarray] = {}
            for edge, arr in tensors.items():
                name, elem_type, shape, quant = contracts[edge]
                want = INT8 if quant is not None else elem_type
                if (arr.dtype != CODE_TO_NUMPY[want] or arr.ndim != len(shape)
                        or any(d >= 0 and d != v for d, v in zip(shape, arr.shape))):
                    refuse(f"step {step} edge {edge}: {arr.dtype} {list(arr.shape)} is not its contract {list(shape)}")
                    return
                values[name] = arr if quant is None else dequantize_edge(arr, quant)
            if request_owner(rid) != owner or (prog.name, rid) in self._requests:
                refuse(f"step {step}: request {rid} is another owner's, or open here")
                return
            chunks.append((rid, values))
        skey, n = (owner, env.session), len(steps)
        live = self.sessions.get(skey)
        if env.step != n or (live is not None and (live.busy or live.next_step >= n)):
            refuse(f"a replay of steps 0..{n - 1} (envelope step {env.step}): the session here is at step "
                   f"{live.next_step if live else 0}{' and busy' if live and live.busy else ''}")
            return
        kept, ended = self.sessions.replace(skey, {}, 0, self.now, env.request_id)
        for s, why in ended:
            self._session_ended(s, why)
        if kept is None:
            refuse(f"no room for the session: the node holds {self.limits.max_sessions} sessions, every one mid-step")
            return
        self._accepted(env)
        self._ended.pop(skey, None)
        if live is None:
            self._emit(ev.SessionOpened(owner, env.session))
        for step, (rid, values) in enumerate(chunks):  # each step as the primary ran it: the same state, bit for bit
            key = (prog.name, rid)
            self._completed_set.discard(key)  # a stage the route comes back to ran these steps once already
            req = self._request(key)
            req.session, req.step, req.replay, req.values = skey, step, True, values
            self._dirty[key] = None
        self._rebuilding[skey] = n
        self._count("replays_in")

    def _reemit(self, prog: InstalledProgram, key: tuple[str, int], live: Session) -> None:
        """Answer a retry of the session's last step with what that step sent (the same values)."""
        outputs = dict(zip([p.tensor for p in prog.sends] + list(prog.outputs), live.last_outputs))
        req = _Request(values=outputs, session=live.key, step=live.next_step - 1, committed=True,
                       done=set(range(len(prog.segments))))
        self._flush_request(key, prog, req)
        self._count("steps_reemitted")

    def _on_session_close(self, peer: str, sender: str, env: wire.Envelope) -> None:
        """A CTRL_SESSION_CLOSE: from the session's owner (its request id's slot) or an earlier stage."""
        if not env.flags & wire.FLAG_SESSION:
            self._refuse(peer, env, "session close without a session id")
            return
        upstream = {p.peer for prog in self.programs.values() for p in prog.recv.values()}
        upstream |= {n for st in list(upstream) for n in self.standby.get(st, ())}
        if not (may_submit(env.sender, env.request_id) or sender in upstream):
            self._refuse(peer, env, f"only the owner of session {env.session} or an earlier stage closes it")
            return
        self._accepted(env)
        self._close_session((request_owner(env.request_id), env.session), "closed by its owner", forward=True)

    # --------------------------------------------------------------- compute

    def _run_frontier(self) -> None:
        while self._dirty:
            key = next(iter(self._dirty))
            del self._dirty[key]
            req = self._requests.get(key)
            if req is None or req.failed:
                continue
            prog = self.programs[key[0]]
            if prog.state and not req.injected and not self._inject(key, req):
                continue  # an earlier step of its session is still running here
            progressed = True
            while progressed:
                progressed = False
                for seg in prog.segments:
                    if seg.index in req.done or seg.index in req.running:
                        continue
                    values = req.values
                    try:  # the segment runs once every input is in (one pass: the inputs it takes)
                        inputs = {x: values[x] for x in seg.inputs}
                    except KeyError:
                        inputs = None
                    if inputs is not None:
                        if self.inline_compute:
                            try:
                                outs = prog.prepared[seg.index].run(inputs)
                            except Exception as exc:  # backend errors become events
                                self._fail(key, req, seg.key, exc)
                                break
                            self._count("segments_run")
                            self._emit(ev.SegmentComputed(key[1], seg.key))
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
        self._emit(ev.SegmentComputed(rid, seg.key))
        req.values.update(result)
        req.done.add(seg_index)
        self._dirty[key] = None

    def _fail(self, key: tuple[str, int], req: _Request, segment: str, exc: BaseException) -> None:
        req.failed = True
        error = f"{type(exc).__name__}: {exc}"
        self._emit(ev.ComputeFailed(key[1], segment, error))
        self._close(key)
        if req.replay and req.session is not None:  # never serve the session from a state not rebuilt
            self._rebuilding.pop(req.session, None)
            self._close_session(req.session, f"its replay failed: {error}")
        self._report(key[1], f"ComputeFailed: request {key[1]} at {self.node}, segment {segment}: {error}")

    def _compute(self, key: str, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return self._compute_keys[key].run(inputs)

    def _flush_request(self, key: tuple[str, int], prog: InstalledProgram, req: _Request) -> None:
        if prog.state and req.session is not None and not req.committed:
            # the state (and its deltas to the standbys) first, then the outputs: a standby that takes over
            # never lags behind what the next stage or the owner has seen
            if len(req.done) < len(prog.segments):
                return
            req.committed = True
            self._commit_state(prog, req)
        if req.replay:  # the state is rebuilt; the replayed steps' outputs went on long ago
            if self.rebuild == "replay" and req.session is not None:  # but they are this node's log too
                for port in prog.sends:
                    if self.standby.get(port.peer) and port.tensor in req.values:
                        value = req.values[port.tensor]
                        value = value if port.quant is None else quantize_edge(value, port.quant)
                        self.replay_log.record(port.peer, req.session, req.step, key[1], port.edge_id, value)
            self._close(key)
            self._count("replays_done")
            return
        for port in prog.sends:
            if port.edge_id not in req.sent and port.tensor in req.values:
                target = self.route(port.peer)  # the stage, or its standby after a failover
                value = req.values[port.tensor]
                if port.quant is not None:  # an int8 edge: this end quantizes
                    value = quantize_edge(value, port.quant)
                env = wire.Envelope.for_array(value, sender=self.node_id,
                                              receiver=self.peers[target], seq=0,
                                              request_id=key[1], edge=port.edge_id, quant=port.quant)
                if req.session is not None:  # a session step stays one: the next stage keeps its state too
                    env.in_session(req.session[1], req.step)
                    if self.rebuild == "replay" and self.standby.get(port.peer):
                        self.replay_log.record(port.peer, req.session, req.step, key[1], port.edge_id, value)
                self._queue_outbound(target, env)
                req.sent.add(port.edge_id)
        for name in prog.outputs:
            if name not in req.emitted and name in req.values:
                value = req.values[name]
                self._emit(ev.OutputReady(key[1], name, value))
                req.emitted.add(name)
                if self.outputs_to_host and name in prog.output_edges:
                    arr, quant = to_wire(value, self.io_quant.get(name))  # int8 on the wire: quantized here
                    dest, dest_id = reply_to(key[1])  # the host, or the client that owns the request
                    env = wire.Envelope.for_array(arr, sender=self.node_id, receiver=dest_id, seq=0, quant=quant,
                                                  request_id=key[1], edge=prog.output_edges[name])
                    if req.session is not None:
                        env.in_session(req.session[1], req.step)
                    self._queue_outbound(dest, env)
        if req.session in self._rebuilt and (req.sent or req.emitted):  # its first step since the replay
            self._rebuilt.discard(req.session)
            self._resumed = True
        if (len(req.done) == len(prog.segments) and len(req.sent) == len(prog.sends)
                and len(req.emitted) == len(prog.outputs)):
            if self.mirror is not None:
                self.mirror(prog.name, req.values)
            self._close(key)
            self._count("requests_completed")
            self._emit(ev.RequestCompleted(key[1]))

    def _remember_completed(self, key: tuple[str, int]) -> None:
        self._completed.append(key)
        self._completed_set.add(key)
        while len(self._completed) > self.limits.completed_memory:
            self._completed_set.discard(self._completed.popleft())

    def _queue_outbound(self, peer: str, env: wire.Envelope) -> None:
        if env.receiver in self._version_refused and not (env.kind == wire.KIND_CONTROL and env.edge == CTRL_HELLO):
            self._count("refused_out")  # no common version: only HELLOs go to that peer
            return
        self._seq += 1
        env.seq = self._seq
        env.sender = self.node_id
        if (self.local_payloads and env.kind == wire.KIND_DATA and env.protocol == wire.PROTO_DATAFLOW
                and peer != HOST_NAME and slot_of_id(env.receiver) is None):
            if isinstance(env.data, memoryview):
                env.data = env.data.toreadonly()  # the receiver gets a view it cannot write through
            check_local(env, max(self.limits.max_payload, len(env.data)))  # what encode would refuse
            self._count("envelopes_out")
            self._count("bytes_out", local_size(env))
            self._outbound.append(Outbound(peer, env.receiver, b"", env.kind, env.protocol, env.edge,
                                           env.request_id, env.seq, envelope=env))
            return
        data = wire.encode(env, max_payload=max(self.limits.max_payload, len(env.data)))
        self._count2("envelopes_out", "bytes_out", len(data))
        self._outbound.append(Outbound(peer, env.receiver, data, env.kind, env.protocol, env.edge,
                                       env.request_id, env.seq))

    def _guard(self, protocol: int, fn: Callable[..., Any], *args: Any) -> bool:
        try:
            fn(*args)
        except Exception as exc:  # a faulty component must not take the node down
            self._emit(ev.HandlerFailed(protocol, f"{type(exc).__name__}: {exc}"))
            return False
        return True

    # ------------------------------------------------------------ control API

    def hello(self, peer: str = "*", response_to: int = 0) -> None:
        """Queue a HELLO carrying this node's hello record (docs/wire.md) to ``peer`` or everyone.

        The record announces the wire versions spoken, the boot epoch, the
        node id and name and the program hash. An engine never seeded
        (:meth:`set_boot_epoch`, :meth:`start_sequence_at`) announces epoch 1
        and moves its sequence into it, so what it sends next is in the epoch
        its peers expect. ``response_to`` marks an answer to a peer's HELLO.
        """
        rec = self._own_hello()
        self.boot_epoch = rec.boot_epoch
        self._seq = max(self._seq, rec.boot_epoch << 32)
        rid = wire.BROADCAST if peer == "*" else self.peers[peer]
        self._queue_outbound(peer, wire.Envelope.for_bytes(
            rec.encode(), sender=self.node_id, receiver=rid, seq=0, edge=CTRL_HELLO,
            flags=wire.FLAG_RESPONSE if response_to else 0, response_to=response_to))

    def _own_hello(self) -> hello_record.HelloRecord:
        name = self.node.encode("utf-8")[:hello_record.MAX_NAME].decode("utf-8", "ignore")
        return hello_record.HelloRecord(
            min_version=self.versions[0], max_version=self.versions[1], caps=0,
            boot_epoch=min(0xFFFFFFFF, max(1, self.boot_epoch, self._seq >> 32)), node_id=self.node_id,
            max_frame=min(0xFFFFFFFF, max(hello_record.MIN_FRAME, self.limits.max_envelope)), window=1,
            name=name, program_hash=self.program_hash)

    def ping(self, peer: str) -> None:
        """Queue a PING to ``peer``; its PONG arrives as a ControlReceived event."""
        self._queue_outbound(peer, wire.Envelope.for_bytes(b"", sender=self.node_id,
                                                           receiver=self.peers[peer], seq=0, edge=CTRL_PING))

    def flush_outbound(self) -> list[Outbound]:
        """Outbound envelopes queued outside a poll (hello/ping) without running anything."""
        out, self._outbound = self._outbound, []
        return out

    @property
    def seq(self) -> int:
        """The last sequence number this engine used (``(boot_epoch << 32) | n``)."""
        return self._seq

    @property
    def open_requests(self) -> int:
        """Requests with work still pending on this node."""
        return len(self._requests)

    @property
    def held_bytes(self) -> int:
        """Payload bytes held by open requests (bounded by ``limits.ingress_budget``)."""
        return self._held

    @property
    def pending_ingress(self) -> int:
        """Items queued by deliver/submit not yet seen by poll."""
        return len(self._ingress)

    # --------------------------------------------------------------- snapshot

    def snapshot(self, telemetry: bool = True) -> bytes:
        """Serialize all state (requests, dedup, seq, epochs, undrained ingress, components) to bytes.

        Programs are not included: restore into an engine built the same way
        (``Engine.for_node``) with :meth:`restore`. ``telemetry=False`` leaves
        out counters and the refusal log, which describe what happened rather
        than what the node will do; two runs that differ only in refused input
        give identical snapshots then.
        """
        tensors: list[np.ndarray] = []

        def put(a: np.ndarray) -> int:
            tensors.append(np.ascontiguousarray(a).reshape(np.shape(a)))  # a 0-d tensor keeps rank 0
            return len(tensors) - 1

        requests = []
        for (prog, rid), req in self._requests.items():
            if prog in self.unbound:  # an update's variant is not rebuilt by a restart: its requests are retried
                continue
            requests.append({
                "program": prog, "request_id": rid,
                "values": {k: put(v) for k, v in req.values.items()},
                "done": sorted(req.done | req.running), "sent": sorted(req.sent),
                "emitted": sorted(req.emitted), "created": req.created, "touched": req.touched,
                "held": req.held, "session": list(req.session) if req.session else None, "step": req.step,
            })
        sessions = [{"owner": x.owner, "session": x.session, "next_step": x.next_step, "last_used": x.last_used,
                     "last_request": x.last_request, "state": {k: put(v) for k, v in x.state.items()},
                     "last_outputs": [put(v) for v in x.last_outputs]}
                    for x in self.sessions]
        ingress: list[Any] = []
        for item in list(self._ingress):  # one C-level copy: adapter threads may append meanwhile
            if item[0] == "env":
                ingress.append(["env", item[1], put(np.frombuffer(item[2], dtype=np.uint8))])
            elif item[0] == "local":
                try:  # kept as the bytes it stands for; one poll would refuse what cannot encode
                    raw = wire.encode(item[2], max_payload=max(self.limits.max_payload, len(item[2].data)))
                except (WireError, AttributeError, TypeError, ValueError, struct.error):
                    continue
                ingress.append(["env", item[1], put(np.frombuffer(raw, dtype=np.uint8))])
            elif item[0] == "input":
                ingress.append(["input", item[1], item[2], {k: put(v) for k, v in item[3].items()},
                                list(item[4]) if len(item) > 4 and item[4] else None])
            elif item[0] == "close":
                ingress.append(list(item))
            elif item[0] == "too_large":
                ingress.append(["too_large", item[1], item[2]])
        components = {}
        for name, comp in self.bindings.items():
            if isinstance(comp, Snapshottable):
                components[name] = [comp.type_id, put(np.frombuffer(comp.snapshot(), dtype=np.uint8))]
        meta: dict[str, Any] = {
            "node": self.node, "node_id": self.node_id, "seq": self._seq, "boot_epoch": self.boot_epoch,
            "programs": sorted(set(self.programs) - self.unbound), "dedup": self._dedup.to_json(),
            "peer_epochs": {str(k): v for k, v in self._peer_epochs.items()},
            "version_refused": sorted(self._version_refused),
            "requests": requests, "completed": [list(k) for k in self._completed if k[0] not in self.unbound],
            "ingress": ingress, "components": components, "sessions": sessions,
            "ended_sessions": [[k[0], k[1], why] for k, why in self._ended.items()],
            "seen_peers": sorted(self._seen_peers), "now": self.now,
            # the inputs kept for a replay (rebuild by replay): a restarted node can still replay them
            "replay_log": self.replay_log.snapshot(put),
        }
        if telemetry:
            meta["counters"] = self.counters
            meta["refusals_logged"] = sorted(self._refusals_logged)
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
        # checked before anything changes: a refused replay log leaves this engine as it was
        replay_log = ReplayLog.from_snapshot(self.limits.replay_bytes, meta.get("replay_log", []), tensors,
                                             set(self.peers) - {self.node})
        self._seq = meta["seq"]
        self.boot_epoch = meta.get("boot_epoch", self._seq >> 32)
        self._dedup = SeqFilter(self.limits.dedup_window, self.limits.dedup_epochs, self.limits.max_senders)
        for sender, state in meta["dedup"].items():
            if isinstance(state, list):  # an older snapshot: [high-water mark, seen seqs]
                for seq in state[1]:
                    self._dedup.record(int(sender), seq)
            else:
                self._dedup.load_json({sender: state})
        self._peer_epochs = {int(k): v for k, v in meta.get("peer_epochs", {}).items()}
        self._version_refused = set(meta.get("version_refused", []))
        self._requests = {}
        self._held = 0
        self._owner_open, self._owner_held = Counter(), Counter()
        self._dirty = {}
        self._inflight = {}
        self._commands = []
        for r in meta["requests"]:
            req = _Request(values={k: tensors[i] for k, i in r["values"].items()},
                           done=set(r["done"]), sent=set(r["sent"]), emitted=set(r["emitted"]),
                           created=r.get("created", meta["now"]), touched=r.get("touched", meta["now"]),
                           held=r.get("held", 0),
                           session=tuple(r["session"]) if r.get("session") else None,  # type: ignore[arg-type]
                           step=r.get("step", 0))
            self._held += req.held
            key = (r["program"], r["request_id"])
            self._requests[key] = req
            self._owner_open[request_owner(key[1])] += 1
            self._owner_held[request_owner(key[1])] += req.held
            prog = self.programs[key[0]]
            if prog.state:  # a step in flight runs again from the session's committed state
                for name in prog.state:
                    req.values.pop(name, None)
                req.done, req.sent, req.emitted = set(), set(), set()
                req.values = {k: v for k, v in req.values.items()
                              if k in prog.local_inputs or any(p.tensor == k for p in prog.recv.values())}
            # segments that were running elsewhere when the snapshot was taken run again
            req.done = {i for i in req.done if all(o in req.values for o in prog.segments[i].outputs)}
            self._dirty[key] = None
        self._completed = deque(tuple(k) for k in meta["completed"])  # type: ignore[misc]
        self._completed_set = set(self._completed)
        self._next_deadline = -math.inf  # the first poll recomputes it
        self._ingress = deque()
        for item in meta["ingress"]:
            if item[0] == "env":
                self.deliver(item[1], tensors[item[2]].tobytes())
            elif item[0] == "too_large":
                self._ingress.append(("too_large", item[1], item[2]))
            elif item[0] == "close":
                self._ingress.append(("close", item[1], item[2]))
            else:
                marker = tuple(item[4]) if len(item) > 4 and item[4] else None
                self._ingress.append(("input", item[1], item[2], {k: tensors[i] for k, i in item[3].items()},
                                      marker))
        self.sessions.restore([Session(x["owner"], x["session"], x["next_step"],
                                       {k: tensors[i] for k, i in x["state"].items()},
                                       sum(int(tensors[i].nbytes) for i in x["state"].values()), x["last_used"],
                                       x["last_request"], 0, [tensors[i] for i in x.get("last_outputs", [])])
                               for x in meta.get("sessions", [])])
        self._ended = {(o, sid): why for o, sid, why in meta.get("ended_sessions", [])}
        for name, (type_id, idx) in meta["components"].items():
            comp = self.bindings.get(name)
            if comp is None or getattr(comp, "type_id", None) != type_id:
                raise EngineError(f"snapshot binds {name!r} as {type_id}; bind the same component first")
            comp.restore(tensors[idx].tobytes())
        if "counters" in meta:
            self.counters = dict(meta["counters"])
            self._refusals_logged = set(meta.get("refusals_logged", []))
        self._seen_peers = set(meta["seen_peers"])
        self.now = meta["now"]
        self.replay_log = replay_log

    def shift_clock(self, delta: float) -> None:
        """Move every poll-clock time by ``delta`` s (a restored snapshot taken on another clock).

        Request creation and last-input times shift with the clock, so each
        open request keeps the deadline budget it had left when the snapshot
        was taken.
        """
        if not math.isfinite(delta):
            raise EngineError(f"clock shift must be finite, not {delta}")
        self.now += delta
        for req in self._requests.values():
            req.created += delta
            req.touched += delta
        self.sessions.shift(delta)
        self._next_deadline = -math.inf  # the next poll recomputes it


def _pairs(prog: InstalledProgram) -> list[tuple[str, str]]:
    """The ``(output, input)`` state pairs ``prog`` was installed with."""
    return [(spec.output, spec.input) for spec in prog.state.values()]


def runnable_model(model: onnx.ModelProto) -> onnx.ModelProto:
    """``model`` with the TFLite translator's own ops (``bb.tflite``, which no backend has) as standard ONNX ops."""
    if not any(n.domain == "bb.tflite" for n in model.graph.node):
        return model
    from bb_edge.backends.tflite_ops import expand_svdf  # exact integer SVDF (only a translated .tflite needs it)

    return expand_svdf(model)


def state_specs(program: onnx.ModelProto, pairs: list[tuple[str, str]]) -> dict[str, StateSpec]:
    """State input name -> :class:`StateSpec` for ``(output, input)`` pairs of ``program``; EngineError if one
    names no graph output/input of the program or their dtypes differ."""
    g = program.graph
    ins = {v.name: v for v in g.input}
    outs = {v.name: v for v in g.output}
    specs: dict[str, StateSpec] = {}
    for out, inp in pairs:
        if out not in outs or inp not in ins:
            raise EngineError(f"state {out}={inp}: program {g.name!r} has no graph output {out!r} or input {inp!r}")
        tt = ins[inp].type.tensor_type
        if outs[out].type.tensor_type.elem_type not in (0, tt.elem_type):
            raise EngineError(f"state {out}={inp}: the output's dtype differs from the input's")
        shape = tuple(d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim)
        specs[inp] = StateSpec(inp, out, tt.elem_type, shape)
    return specs


def program_digest(model: onnx.ModelProto) -> bytes:
    """SHA-256 of a program's deterministic serialisation (the hash HELLO announces)."""
    return hashlib.sha256(model.SerializeToString(deterministic=True)).digest()


def _readonly(value: np.ndarray) -> np.ndarray:
    """A read-only view of ``value`` (no copy): the engine and its backends must not write to it."""
    view = np.asarray(value).view()
    view.flags.writeable = False
    return view


def _local_charge(env: Any) -> int:
    """Bytes an in-process envelope counts against budgets before it is checked (0 if it has no form)."""
    try:
        return local_size(env)
    except Exception:  # not an Envelope, or dims without a length: check_local refuses it next
        return 0


def _legacy_name(payload: bytes) -> bool:
    """A bare printable UTF-8 node name, shorter than a hello record: the HELLO payload before records."""
    if not 0 < len(payload) < hello_record.RECORD_SIZE:
        return False
    try:
        return payload.decode("utf-8").isprintable()
    except UnicodeDecodeError:
        return False

