"""The host's end of a deployment (node id 0, ``_host``) as a sans-IO state machine; a client's too.

A :class:`HostSession` turns graph inputs into envelopes for their owners and admits graph outputs
through the same checks every node's engine makes (:mod:`bb_edge.engine.admission`): decode with size
limits, the receiver, the producer (or its standby after a failover), the edge contract with its int8
parameters, then the duplicate window (:class:`~bb_edge.engine.dedup.SeqFilter`), which moves only once
an output was accepted. A refusal is a typed event (:class:`~bb_edge.engine.events.OutputRefused`,
:class:`~bb_edge.engine.events.EnvelopeRejected`, :class:`~bb_edge.engine.events.DuplicateDropped`,
:class:`~bb_edge.engine.events.StaleEpoch`); the state after a hostile envelope equals the state without it.

A client (``client=k``: endpoint ``_client<k>``, :mod:`bb_edge.deployment.clients`) runs the same
session under its own identity: it sends with its own wire id, its request ids carry its slot, and it
admits only envelopes addressed to it, so several clients and the host share one fleet.

It owns no thread, socket or clock: every method takes bytes (and returns the envelopes to send as
``(peer, receiver, bytes)``); :class:`bb_edge.adapters.fleet.hostloop.HostEndpoint` drives it over a
transport and keeps the locks and the deadlines.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from bb_edge.deployment.clients import client_id, client_name, may_submit, owned_request_id
from bb_edge.deployment.manifest import HOST_ID, HOST_NAME, Deployment
from bb_edge.engine import events
from bb_edge.engine.admission import contract_problem, producer_ok, stale_event
from bb_edge.engine.dedup import SeqFilter
from bb_edge.engine.edgequant import INT8, dequantize_edge, quant_of, to_wire
from bb_edge.engine.replay import ReplayLog, encode_replay, replay_problem
from bb_edge.errors import BBError, WireError
from bb_edge.wire import envelope as wire

CTRL_ERROR = 5  # core control code of an error result (docs/wire.md)
CTRL_SESSION_CLOSE = 6  # the owner ends a session (docs/wire.md "Sessions")
CTRL_STATE_REPLAY = 8  # a session's inputs replayed to a first stage's standby (bb_edge/engine/replay.py)
#: the owner's bound on one session's kept inputs (token ids: 8 bytes a token; the context bounds them first)
OWNER_REPLAY_BYTES = 16 * 1024 * 1024

Send = tuple[str, int, bytes]
"""One envelope to ship: ``(peer name, receiver id, encoded envelope)``."""


@dataclass
class HostStats:
    """Counters of a host session."""

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


@dataclass(frozen=True)
class OutputContract:
    """What the host accepts on one output edge: its producer, dtype (ONNX elem type) and shape."""

    name: str
    producer: str
    producer_id: int
    elem_type: int
    shape: tuple[int, ...]
    #: an output carried as int8 (deployment.json ``quant``): its parameters; the host dequantizes
    quant: tuple[float, int] | None = None


def output_contracts(dep: Deployment) -> dict[int, OutputContract]:
    """Output edge id -> contract, from the deployment (an int8-carried output expects elem type 3)."""
    ids = dep.ids()
    return {o.edge_id: OutputContract(o.name, o.node, ids[o.node], o.elem_type if quant_of(o) is None else INT8,
                                      tuple(o.shape), quant_of(o))
            for o in dep.outputs}


def output_value(env: wire.Envelope, spec: OutputContract) -> np.ndarray:
    """The output's float value: a copy of the payload, dequantized when the output is carried as int8."""
    arr = np.array(env.array())
    return arr if spec.quant is None else dequantize_edge(arr, spec.quant)


def output_problem(env: wire.Envelope, spec: OutputContract, names: dict[int, str],
                   standby_ids: Iterable[int | None] = (), max_payload: int = wire.DEFAULT_MAX_PAYLOAD) -> str | None:
    """Why the host must refuse ``env`` on ``spec``'s edge (producer, dtype, shape, int8 parameters, size), or None.

    The checks are the engine's (:mod:`bb_edge.engine.admission`); the reason starts with ``forged`` or
    ``contract``.
    """
    if not producer_ok(env.sender, spec.producer_id, standby_ids):
        return (f"forged: output {spec.name!r} is produced by {spec.producer!r}, "
                f"not {names.get(env.sender, f'id {env.sender}')!r}")
    bad = contract_problem(env, spec.elem_type, spec.shape, spec.quant)
    if bad is not None:
        return f"contract: output {spec.name!r} has {bad[1]}, expected {bad[0]}"
    try:  # dynamic dims: bound what they imply before numpy sees them
        wire.check_shape(env, max_payload)
    except WireError:
        return f"contract: output {spec.name!r} has shape {list(env.dims)}, too large"
    return None


class HostSession:
    """The host (id 0): graph inputs out, graph outputs in, with the engine's admission (module docstring)."""

    def __init__(self, deployment: Deployment, seq_base: int, *, window: int = 1 << 16,
                 max_payload: int = wire.DEFAULT_MAX_PAYLOAD, max_events: int = 10_000, client: int = 0) -> None:
        self.dep = deployment
        self.ids = deployment.ids()
        self.names = {v: k for k, v in self.ids.items()}
        #: 0: the host (``_host``, id 0); k: client slot k (``_client<k>``, bb_edge.deployment.clients), whose
        #: request ids must carry k in their top byte (:meth:`request_id`) so the nodes answer to it
        self.client = client
        self.name, self.own_id = (HOST_NAME, HOST_ID) if client == 0 else (client_name(client), client_id(client))
        self.max_payload = max_payload
        self._seq = seq_base  # the host numbers its envelopes like a node: (boot epoch << 32) | n
        self._outs = output_contracts(deployment)
        self._standby_ids = {st: [self.ids.get(n) for n in nodes] for st, nodes in deployment.standby.items()}
        self._want = {o.name for o in deployment.outputs}
        self._results: dict[int, dict[str, np.ndarray]] = {}
        self._failed: dict[int, str] = {}
        self._kept: dict[int, list[Send]] = {}
        # rebuild by replay: the owner keeps each session's inputs to a first stage with a standby
        self._replay = ReplayLog(OWNER_REPLAY_BYTES) if deployment.extra.get("rebuild") == "replay" else None
        # a wide window: a node's retried output keeps its first seq, however many envelopes came since
        self._dedup = SeqFilter(window=window, max_senders=max(4096, 2 * len(self.ids)))
        self.events: deque[events.Event] = deque(maxlen=max_events)
        self.up: set[str] = set()
        self.stats = HostStats()

    # ------------------------------------------------------------ state

    @property
    def seq(self) -> int:
        """The last sequence number the host used."""
        return self._seq

    def next_seq(self) -> int:
        """A sequence number in the host's series for an envelope made outside the session (an OTA push)."""
        self._seq += 1
        return self._seq

    def record(self, event: events.Event) -> None:
        """Keep an event seen outside the session (a transport's typed refusal)."""
        self.events.append(event)

    def done(self, request_id: int) -> bool:
        """True when every graph output of ``request_id`` arrived."""
        return self._want <= set(self._results.get(request_id, {}))

    def missing(self, request_id: int) -> list[str]:
        """The graph outputs of ``request_id`` that did not arrive yet."""
        return sorted(self._want - set(self._results.get(request_id, {})))

    def failure(self, request_id: int) -> str | None:
        """The reason a node gave for failing ``request_id`` (ERROR envelope), if any."""
        return self._failed.get(request_id)

    def take(self, request_id: int) -> dict[str, np.ndarray]:
        """The outputs of ``request_id`` (whatever arrived); the request is forgotten."""
        self._kept.pop(request_id, None)
        self._failed.pop(request_id, None)
        return self._results.pop(request_id, {})

    def open_requests(self) -> list[int]:
        """Requests submitted and not taken, in submission order."""
        return list(self._kept)

    # ------------------------------------------------------------- egress

    def request_id(self, n: int) -> int:
        """Request id ``n`` of this endpoint (the host's ids are ``n``; a client's carry its slot)."""
        return n if self.client == 0 else owned_request_id(self.client, n)

    def submit(self, request_id: int, inputs: dict[str, np.ndarray],
               session: tuple[int, int] | None = None) -> list[Send]:
        """The envelopes carrying every graph input of one request to its owner (kept for :meth:`resend`).

        ``session`` = ``(session id, step)`` makes the request that step of this endpoint's session
        (docs/wire.md "Sessions"): stateful stages keep the session's state between steps.
        """
        if session is not None and not (0 < session[0] < 2**64 and 0 <= session[1] < 2**32):
            raise BBError(f"session {session[0]} step {session[1]}: the id is 1..2**64-1, the step 0..2**32-1")
        if not may_submit(self.own_id, request_id):
            raise BBError(f"request id {request_id} is not one {self.name} owns; make it with request_id()")
        envs: list[Send] = []
        seq = self._seq
        for spec in self.dep.inputs:
            if spec.name not in inputs:
                raise BBError(f"missing graph input {spec.name!r}")
            seq += 1
            arr, quant = to_wire(np.asarray(inputs[spec.name], dtype=spec.dtype), quant_of(spec))  # int8 wire?
            env = wire.Envelope.for_array(arr, sender=self.own_id, quant=quant, receiver=self.ids[spec.node], seq=seq,
                                          request_id=request_id, edge=spec.edge_id)
            if session is not None:
                env.in_session(*session)
                if self._replay is not None and self.dep.standby.get(spec.node):
                    self._replay.record(spec.node, (self.client, session[0]), session[1], request_id, spec.edge_id,
                                        arr)
            envs.append((spec.node, self.ids[spec.node], wire.encode(env)))
        self._seq = seq  # only once every input encoded: a refused request uses no sequence numbers
        envs = [self.routed(*e) for e in envs]
        self._results.setdefault(request_id, {})
        self._failed.pop(request_id, None)
        self._kept[request_id] = envs
        self.stats.inputs_sent += len(envs)
        return envs

    def close_session(self, session: int) -> list[Send]:
        """The envelopes that end session ``session`` of this endpoint at every stage (the input nodes pass it on)."""
        if not 0 < session < 2**64:
            raise BBError(f"session id {session} is not in 1..2**64-1")
        out: list[Send] = []
        if self._replay is not None:
            self._replay.forget((self.client, session))
        for node in dict.fromkeys(spec.node for spec in self.dep.inputs):
            self._seq += 1
            env = wire.Envelope.for_bytes(b"", sender=self.own_id, receiver=self.ids[node], seq=self._seq,
                                          edge=CTRL_SESSION_CLOSE, request_id=self.request_id(0))
            out.append(self.routed(node, self.ids[node], wire.encode(env.in_session(session, 0))))
        return out

    def resend(self, request_ids: list[int]) -> list[Send]:
        """The kept inputs of ``request_ids`` again (same seq), each routed to a live standby if need be."""
        out = [self.routed(*e) for rid in request_ids for e in self._kept.get(rid, ())]
        self.stats.inputs_resent += len(out)
        return out

    def routed(self, peer: str, receiver: int, data: bytes) -> Send:
        """An input envelope for a stage that is down re-addressed to a live standby of it (same seq)."""
        stage = next((st for st, nodes in self.dep.standby.items() if peer in nodes), peer)
        nodes = self.dep.standby.get(stage)
        if not nodes:
            return peer, receiver, data
        target = self._serving(stage)
        if target == peer:
            return peer, receiver, data
        env = wire.decode(data)
        env.receiver = self.ids[target]
        return target, env.receiver, wire.encode(env, max_payload=max(len(env.data), 1))

    def peer_changed(self, name: str, up: bool, reason: str) -> list[Send]:
        """Liveness news about ``name``; the inputs to resend now when a stage owning graph inputs went down."""
        was_down = name not in self.up and any(n == name and not u for n, u, _ in self.stats.peer_events)
        self.stats.peer_events.append((name, up, reason))
        (self.up.add if up else self.up.discard)(name)
        if name not in self.dep.standby or not any(i.node == name for i in self.dep.inputs):
            return []
        if up:  # the stage is back and takes its steps again: under replay it rebuilds what it missed
            return self._replays(name, name) if was_down else []
        target = self._serving(name)
        if target == name:  # no standby is up: nothing to rebuild on yet (the next retry finds one)
            return []
        # its standby gets the inputs of every open request now (same seq), not only at the next retry
        pending = [rid for rid in self._kept if not self.done(rid)]
        return self._replays(name, target) + [routed for rid in pending for e in self._kept.get(rid, ())
                                      if (routed := self.routed(*e))[0] != e[0]]

    def _replays(self, stage: str, target: str) -> list[Send]:
        """Rebuild by replay: per session, its inputs to ``stage`` but the newest step to ``target`` (the node
        that serves it now), then the newest step again (bb_edge/engine/replay.py); a session that cannot be
        replayed fails its newest step here with the reason (SessionEnded), never a wrong token."""
        if self._replay is None:
            return []
        specs = [i for i in self.dep.inputs if i.node == stage]
        out: list[Send] = []
        for skey, kept in self._replay.sessions(stage):
            why = kept.lost or replay_problem(kept.steps, {i.edge_id for i in specs})
            if why is not None:
                if kept.last_request in self._results:  # the step in flight fails with the reason
                    self._failed[kept.last_request] = (f"SessionEnded: session {skey[1]} at {self.name}: "
                                                       f"{target} cannot rebuild it after {stage} went down: {why}")
                self.events.append(events.SessionEnded(skey[0], skey[1], 0, f"cannot be replayed: {why}"))
                out += self.close_session(skey[1])  # the later stages free its caches
                continue
            step, rid, values = kept.steps[-1]
            if step > 0:
                self._seq += 1
                env = wire.Envelope.for_bytes(encode_replay(kept.steps[:-1], self.own_id), sender=self.own_id,
                                              receiver=self.ids[target], seq=self._seq, edge=CTRL_STATE_REPLAY,
                                              request_id=kept.steps[-2][1])
                out.append((target, self.ids[target], wire.encode(env.in_session(skey[1], step))))
            for spec in specs:  # the newest step again, after the replay on the same link
                self._seq += 1
                env = wire.Envelope.for_array(values[spec.edge_id], sender=self.own_id, receiver=self.ids[target],
                                              seq=self._seq, request_id=rid, edge=spec.edge_id, quant=quant_of(spec))
                out.append((target, self.ids[target], wire.encode(env.in_session(skey[1], step))))
        return out

    def _serving(self, stage: str) -> str:
        """The node that serves ``stage`` now: the stage, or its first live standby once it is down."""
        down = {name for name, up, _ in self.stats.peer_events if not up} - self.up
        return stage if stage not in down else next((n for n in self.dep.standby.get(stage, ()) if n in self.up), stage)

    # ------------------------------------------------------------ ingress

    def receive(self, peer: str, data: bytes | bytearray | memoryview) -> None:
        """Admit one envelope from ``peer`` (the engine's checks, in its order); refusals become events."""
        try:
            env = wire.decode(data, max_payload=self.max_payload)
        except WireError as exc:
            self.stats.rejected += 1
            self.events.append(events.EnvelopeRejected(peer, exc.code, str(exc)))
            return
        if env.receiver == wire.BROADCAST:
            self.stats.unexpected += 1  # a node's HELLO to everyone: nothing for the host to do
            return
        if env.receiver != self.own_id:
            self._refuse(peer, env, f"receiver {env.receiver} is not {'the host' if self.client == 0 else self.name}")
            return
        sender_name = self.names.get(env.sender)
        if sender_name is None or sender_name == HOST_NAME:
            self._refuse(peer, env, f"unknown sender id {env.sender}")
            return
        if not self._fresh(peer, env):
            return
        if env.flags & wire.FLAG_ERROR or (env.kind == wire.KIND_CONTROL and env.edge == CTRL_ERROR):
            self._on_error(sender_name, env)
            return
        spec = self._outs.get(env.edge)
        if env.kind != wire.KIND_DATA or env.protocol != wire.PROTO_DATAFLOW or spec is None:
            self.stats.unexpected += 1
            return
        problem = output_problem(env, spec, self.names, self._standby_ids.get(spec.producer, ()), self.max_payload)
        if problem is not None:
            self._refuse(peer, env, problem)
            return
        try:
            value = output_value(env, spec)
        except (ValueError, TypeError, WireError) as exc:
            self._refuse(peer, env, f"contract: {exc}")
            return
        self._dedup.record(env.sender, env.seq)  # only now, after every check passed
        slot = self._results.get(env.request_id)
        if slot is None:
            self.stats.unexpected += 1  # an output of an earlier run, or of a finished request
            return
        if spec.name in slot:
            self.stats.duplicates += 1  # recomputed after a retry: the first one stands
            return
        slot[spec.name] = value
        self.stats.outputs += 1

    def _fresh(self, peer: str, env: wire.Envelope) -> bool:
        event = stale_event(self._dedup, peer, env)
        if event is None:
            return True
        if isinstance(event, events.DuplicateDropped):
            self.stats.duplicates += 1
        else:
            self.stats.rejected += 1
        self.events.append(event)
        return False

    def _refuse(self, peer: str, env: wire.Envelope, reason: str) -> None:
        self.stats.refused += 1
        self.events.append(events.OutputRefused(peer, env.sender, env.edge, env.request_id, reason))

    def _on_error(self, node: str, env: wire.Envelope) -> None:
        text = bytes(env.payload_bytes()[:1024]).decode("utf-8", errors="replace").strip()
        kind, _, detail = text.partition(":")
        reason = (f"{kind.strip()} at {node} for request {env.request_id}"
                  + (f": {detail.strip()}" if detail.strip() else "")) if kind.strip() else \
            f"error at {node} for request {env.request_id}"
        self._dedup.record(env.sender, env.seq)
        self.stats.errors += 1
        self.events.append(events.RequestFailed(node, env.request_id, reason))
        if env.request_id in self._results and env.request_id not in self._failed:
            self._failed[env.request_id] = reason

