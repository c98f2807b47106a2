"""One stateful session step in one flat function: the common case of a decoder stage, general rules kept.

A stage of a split language model does the same thing for every token: an envelope from the stage before
arrives, it is the next step of a live session, the stage runs its one segment on it and the session's state,
keeps the new state and sends one envelope on. Through the general path (:mod:`bb_edge.engine.engine`) that
step walks ~30 small methods, and on a node ONNX Runtime's run has just evicted the caches, so each of them
costs cache misses: measured by bench/engine_step_cpu.py, ~330 us of CPU a step cold against ~50 us warm.

:func:`fast_step` does the same step in one function. It first checks, without changing anything, that the
step is the plain case (below); if any condition fails it returns False and the engine takes its general
path, which then sees the envelope as if this function had never run. Otherwise it makes the general path's
changes in the general path's order: the same checks (decode, receiver, producer, contract, duplicate window,
session step, budgets), counters, events, session store, outbound envelopes (docs/wire.md, "Sessions").
Where the step stops being plain after it began (a state the next step cannot take, a session the commit
ended, a backend error) it hands over to the engine's own methods for the rest.
tests/engine/test_fast_step.py runs step sequences through both paths and compares everything they produce.

The plain case: an encoded dataflow envelope carrying the session flag, addressed to this node, on a
received edge of an installed stateful one-segment program, from the edge's producer (not a standby), fresh
in the duplicate window, the next step of a live idle session, with no other open request on the node (so no
step waits, none is evicted, nothing else is dirty), and a node without program router, compute commands,
in-process payloads, standbys, replay or canary mirror.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bb_edge.deployment.clients import reply_to
from bb_edge.engine import events as ev
from bb_edge.engine.admission import contract_problem
from bb_edge.engine.dedup import FRESH
from bb_edge.engine.edgequant import INT8, dequantize_edge, quantize_edge, to_wire
from bb_edge.engine.sessions import Session, SessionKey, SessionStore, next_state
from bb_edge.errors import WireError
from bb_edge.wire import envelope as wire

if TYPE_CHECKING:
    from bb_edge.engine.engine import InstalledProgram

_KIND_DATA = wire.KIND_DATA
_PROTO_DATAFLOW = wire.PROTO_DATAFLOW
_FLAG_SESSION = wire.FLAG_SESSION
_OWNER_SHIFT = 56  # deployment/clients.py: request id bits 56..63 name the owner slot
_REQUEST: Any = None  # the engine's request type, looked up once (the engine imports this module)


def has_fast_path(prog: InstalledProgram) -> bool:
    """Whether steps of ``prog`` may take the fast path: one segment reading only its state and one received
    tensor (a decoder stage); a step of anything else (graph inputs from the host, several segments) may wait
    for more than one envelope."""
    if not prog.state or len(prog.segments) != 1 or len(prog.recv) != 1:
        return False
    (port,) = prog.recv.values()
    return set(prog.segments[0].inputs) <= set(prog.state) | {port.tensor}


class FastStep:
    """The engine's fast path of a plain session step, as a base class of :class:`~bb_edge.engine.engine.Engine`.

    A base class rather than a function of the engine: the step reads and writes the engine's own state (its
    open requests, budgets, duplicate window, session store), which nothing outside the engine touches.
    """

    if TYPE_CHECKING:  # the engine's attributes this step uses (engine.py sets them)
        _requests: dict[tuple[str, int], Any]
        _dirty: dict[tuple[str, int], None]
        program_router: Any
        inline_compute: bool
        local_payloads: bool
        standby: dict[str, list[str]]
        _rebuilding: dict[SessionKey, int]
        _rebuilt: set[SessionKey]
        mirror: Any
        rebuild: str
        limits: Any
        node_id: int
        _version_refused: set[int]
        _edge_table: dict[int, tuple[str, str]]
        programs: dict[str, InstalledProgram]
        peers: dict[str, int]
        _dedup: Any
        _completed_set: set[tuple[str, int]]
        sessions: SessionStore
        _owner_held: Any
        _owner_open: Any
        _held: int
        now: float
        counters: dict[str, int]
        deadline_s: float
        hop_budget_s: float
        _next_deadline: float
        backend: Any
        routes: dict[str, str]
        outputs_to_host: bool
        io_quant: dict[str, tuple[float, int]]

        def _emit(self, event: ev.Event) -> None: ...
        def _accepted(self, env: wire.Envelope) -> None: ...
        def _fail(self, key: tuple[str, int], req: Any, segment: str, exc: BaseException) -> None: ...
        def _flush_request(self, key: tuple[str, int], prog: InstalledProgram, req: Any) -> None: ...
        def _session_ended(self, live: Session, reason: str) -> None: ...
        def _queue_outbound(self, peer: str, env: wire.Envelope) -> None: ...
        def _close(self, key: tuple[str, int], finished: bool = True) -> Any: ...

    def _fast_step(self, peer: str, payload: bytes) -> bool:
        """Apply one plain session step (module docstring); False, having changed nothing, when it is not one."""
        if (self._requests or self._dirty or self.program_router is not None or not self.inline_compute
                or self.local_payloads or self.standby or self._rebuilding or self._rebuilt or self.mirror is not None
                or self.rebuild == "replay"):
            return False
        limits = self.limits
        try:
            env = wire.decode(payload, max_payload=limits.max_payload)
            wire.check_shape(env, limits.max_payload)
        except WireError:
            return False  # the general path decodes it again and reports why
        if (env.receiver != self.node_id or env.kind != _KIND_DATA or env.protocol != _PROTO_DATAFLOW
                or not env.flags & _FLAG_SESSION):
            return False
        sender = env.sender
        if sender in self._version_refused:
            return False
        entry = self._edge_table.get(env.edge)
        if entry is None or entry[1] != "recv":
            return False
        prog_name = entry[0]
        prog = self.programs[prog_name]
        if not prog.fast:
            return False
        port = prog.recv[env.edge]
        if sender != self.peers.get(port.peer):
            return False
        quant = port.quant
        if contract_problem(env, INT8 if quant is not None else port.elem_type, port.shape, quant) is not None:
            return False
        seq = env.seq
        if self._dedup.check(sender, seq) != FRESH:
            return False
        rid = env.request_id
        key = (prog_name, rid)
        if key in self._completed_set:
            return False
        owner = (rid >> _OWNER_SHIFT) & 0xFF
        skey = (owner, env.session)
        sessions = self.sessions
        live = sessions.get(skey)
        step = env.step
        if live is None or live.busy or live.next_step != step:
            return False
        size = len(payload)
        owner_held = self._owner_held
        if ((owner and owner_held.get(owner, 0) + size > limits.client_bytes)
                or self._held + size > limits.ingress_budget):
            return False
        if (owner and self._owner_open.get(owner, 0) >= limits.client_requests) or limits.max_open_requests < 1:
            return False

        # ---- from here the step is applied: the general path's changes, in its order (engine._on_data on)
        now = self.now
        c = self.counters
        c["envelopes_in"] = c.get("envelopes_in", 0) + 1
        c["bytes_in"] = c.get("bytes_in", 0) + size
        global _REQUEST
        if _REQUEST is None:
            from bb_edge.engine.engine import _Request

            _REQUEST = _Request
        req = self._requests[key] = _REQUEST(created=now, touched=now)
        self._owner_open[owner] = self._owner_open.get(owner, 0) + 1
        emit = self._emit
        emit(ev.RequestOpened(rid, prog_name))
        due = now + min(self.deadline_s, self.hop_budget_s)
        if due < self._next_deadline:
            self._next_deadline = due
        req.session, req.step = skey, step
        self._accepted(env)  # the duplicate window moves; a sender's first envelope is its PeerUp
        req.touched = now
        value = self.backend.materialize_from_wire(env)
        values = req.values
        values[port.tensor] = value if quant is None else dequantize_edge(value, quant)
        req.held += size
        self._held += size
        owner_held[owner] = owner_held.get(owner, 0) + size

        # ---- engine._run_frontier and _inject: the session's state in, the segment run
        state = sessions.take(skey, rid, now)
        get = state.get
        for name, output, spec in prog.state_io:
            v = get(output)
            values[name] = spec.initial() if v is None else v
        req.injected = True
        seg = prog.segments[0]
        try:
            outs = prog.prepared[0].run({x: values[x] for x in seg.inputs})
        except Exception as exc:  # backend errors become events, as on the general path
            self._fail(key, req, seg.key, exc)
            return True
        c["segments_run"] = c.get("segments_run", 0) + 1
        emit(ev.SegmentComputed(rid, seg.key))
        values.update(outs)
        req.done.add(0)

        # ---- engine._flush_request and _commit_state: the state kept first, then the sends
        checked = next_state(prog.state.values(), values, prog.state_checks)
        if isinstance(checked, str):  # the session ends: the general path's own code, from the commit on
            self._flush_request(key, prog, req)
            return True
        req.committed = True
        new, nbytes = checked
        req.injected = False
        for s, why in sessions.commit(skey, new, now, nbytes):
            self._session_ended(s, why)
        live = sessions.get(skey)
        if live is not None:
            live.last_outputs = [values[p.tensor] for p in prog.sends] + [values[n] for n in prog.outputs]
        self._dirty[key] = None  # engine._wake: the session's requests not holding its state (only this one is open)
        peers = self.peers
        routes = self.routes
        sid = skey[1]
        queue = self._queue_outbound
        for p in prog.sends:
            if p.tensor in values:
                target = routes.get(p.peer, p.peer)
                v = values[p.tensor]
                if p.quant is not None:
                    v = quantize_edge(v, p.quant)
                out = wire.Envelope.for_array(v, sender=self.node_id, receiver=peers[target], seq=0, request_id=rid,
                                              edge=p.edge_id, quant=p.quant)
                out.in_session(sid, step)
                queue(target, out)
                req.sent.add(p.edge_id)
        for name in prog.outputs:
            if name in values:
                v = values[name]
                emit(ev.OutputReady(rid, name, v))
                req.emitted.add(name)
                if self.outputs_to_host and name in prog.output_edges:
                    arr, q = to_wire(v, self.io_quant.get(name))
                    dest, dest_id = reply_to(rid)
                    out = wire.Envelope.for_array(arr, sender=self.node_id, receiver=dest_id, seq=0, quant=q,
                                                  request_id=rid, edge=prog.output_edges[name])
                    out.in_session(sid, step)
                    queue(dest, out)
        if len(req.sent) == len(prog.sends) and len(req.emitted) == len(prog.outputs):
            self._close(key)
            c["requests_completed"] = c.get("requests_completed", 0) + 1
            emit(ev.RequestCompleted(rid))
        return True
