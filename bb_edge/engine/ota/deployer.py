"""The deployer end of the OTA protocol (sans-IO): :class:`OtaDeployer` updates a fleet atomically.

It stages every node, commits only when all of them answered READY and sends ABORT to every node on the
first refusal or timeout; ONNX nodes switch at one request boundary (the epoch switch) and a staged
rollout runs canaries in shadow first (:class:`CanaryLimits`). Adapters move its bytes
(bb_edge/adapters/ops/ota_deploy.py); ``bb-edge deploy`` drives it.

Why one file: staging, the canary stages, the epoch switch, the commit and the revert are states of one
machine over the same fields (ready, held, boundary, failures); :class:`CanaryLimits` is its canary judgment.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import struct
from collections.abc import Callable
from dataclasses import dataclass

from bb_edge.deployment.manifest import DEPLOY_NAME, HOST_ID, HOST_NAME
from bb_edge.engine.ota.messages import (
    ABORT,
    ABORTED,
    BAD_MESSAGE,
    CANARY,
    CANARY_FAILED,
    COMMIT,
    DATA,
    FINISH,
    HELD,
    NACK,
    OFFER,
    OFFER2,
    OFFER_DELTA,
    PREPARE,
    PROTO_OTA,
    READY,
    RESUME,
    REVERT,
    REVERT_AT,
    SHADOW,
    SIG_ED25519,
    SWITCH_AT,
    SWITCHED,
    TARGET_BBRT,
    TARGET_ONNX,
    TIMEOUT,
    U32,
    UNKNOWN_NODE,
    CanaryStats,
    Offer,
    OtaError,
    decode_marks,
    decode_nack,
    encode_data,
    encode_marks,
    encode_revert_at,
    read_u32_hash,
    signed_manifest,
    signed_message,
)
from bb_edge.engine.ota.signers import Signer
from bb_edge.wire import envelope as wire


@dataclass
class NodeUpdate:
    """One node's part of a deployment update: its new program image, target kind and signer."""

    node: str
    image: bytes
    target: int
    signer: Signer
    sig_kind: int = SIG_ED25519
    chunk: int = 16 << 10  # DATA payload bytes (<= the node's max payload minus the DATA header)
    previous: bytes | None = None  # the image it runs now (kept for reports; a revert is an ABORT, not a re-send)
    versioned: bool | None = None  # OFFER2 (signed manifest with version) unless False (the old OFFER, refused)
    delta: bytes | None = None  # ONNX nodes: a per-tensor delta that rebuilds ``image`` from ``base`` (OFFER_DELTA)
    base: bytes = b""  # the hash of the program ``delta`` applies to


@dataclass
class Outgoing:
    """One envelope the deployer wants sent: to ``peer`` (node name), id ``receiver``."""

    peer: str
    receiver: int
    data: bytes


DEFAULT_RETRY_S = 1.0


@dataclass(frozen=True)
class CanaryLimits:
    """The operator's thresholds for a staged rollout (``bb-edge deploy --stages``): each stage's canaries run
    the update in shadow for ``window_s``; past any limit the rollout aborts and every node keeps its program."""

    window_s: float = 10.0
    max_drift: float = 0.05  # relative: max |new - old| / max |old| over every output of a canary
    max_nonfinite: int = 0  # mirrored requests whose update output had a NaN or an inf
    max_error_rate: float = 0.0  # update errors / mirrored requests
    max_latency_ratio: float = 3.0  # p95 of the update / p95 of the running program
    min_requests: int = 1  # mirrored requests a stage needs before it can pass

    def __post_init__(self) -> None:
        # every comparison against nan is false, so a nan limit would pass any figure: finite and >= 0 only
        # (the window must also be above 0: a rollout that never ends leaves every node busy)
        for name in ("window_s", "max_drift", "max_nonfinite", "max_error_rate", "max_latency_ratio", "min_requests"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0 \
                    or (name == "window_s" and v == 0):
                raise OtaError(BAD_MESSAGE, f"canary limit {name} = {v!r}: give a finite number "
                                            f"{'above' if name == 'window_s' else 'at or above'} 0")

    def problem(self, s: CanaryStats) -> str | None:
        """Why these figures fail the stage, or None."""
        if s.requests < self.min_requests:
            return f"{s.requests} mirrored requests in the window, at least {self.min_requests} needed"
        if s.nonfinite > self.max_nonfinite:
            return f"{s.nonfinite} outputs not finite (limit {self.max_nonfinite})"
        if s.requests and s.errors / s.requests > self.max_error_rate:
            return f"error rate {s.errors}/{s.requests} above {self.max_error_rate}"
        if s.max_drift > self.max_drift:
            return f"output drift {s.max_drift:.4g} above {self.max_drift:.4g}"
        if s.p95_old_ms > 0 and s.p95_new_ms / s.p95_old_ms > self.max_latency_ratio:
            return (f"latency p95 {s.p95_new_ms:.2f} ms vs {s.p95_old_ms:.2f} ms, ratio above "
                    f"{self.max_latency_ratio}")
        return None


class OtaDeployer:
    """The deployer end (sans-IO): OFFER + DATA to every node, COMMIT only after every READY.

    Feed it envelopes from nodes with :meth:`on_envelope`, drive it with
    :meth:`poll` (returns what to send); ``state`` ends ``"done"`` or
    ``"failed"``. ``next_seq`` numbers the envelopes (the host's sequence).

    The outcome is decided by this object's state alone (docs/wire.md, "Atomic fleet update"):

    - ``staging``: no COMMIT has left, so no node can switch. A NACK or the
      deadline fails the update; ABORT goes to every node (best effort).
    - ``preparing``: ONNX nodes (``epoch_nodes``) got PREPARE: each installs
      the update next to its program, health-checks it and holds requests
      newer than it has seen, answering HELD with those marks. A NACK or the
      deadline goes to ``reverting`` (no node switched: ABORT releases them).
      All HELD: one switch point per request owner (``boundary``, docs/wire.md
      "Epoch-consistent switch") goes out in SWITCH_AT, COMMIT to the others.
    - ``committing``: SWITCH_AT or COMMIT went to every node, so every node may switch
      (``committed``). COMMIT is re-sent every ``retry_s`` to nodes that have
      not answered; a node answers SWITCHED (runs the update) or a NACK
      (never will run it). All SWITCHED: ``done``.
    - ``reverting``: a NACK or the deadline after COMMIT. ABORT is re-sent
      every ``retry_s`` to every node not known to be off the update until it
      answers a NACK (an ABORT makes a switched node put its previous program
      back, and a node that has not switched yet refuse the COMMIT later). A
      late SWITCHED changes nothing: the ABORT retries revert that node too.
      Ends ``failed``; ``reverted`` lists the nodes that answered, ``unreverted``
      those that did not answer within ``timeout_s`` (they may still run the
      update: the caller names them).
    """

    def __init__(self, ids: dict[str, int], updates: list[NodeUpdate], next_seq: Callable[[], int],
                 update_id: int, timeout_s: float = 60.0, commit_gate: Callable[[], bool] | None = None,
                 retry_s: float = DEFAULT_RETRY_S, sender: int = HOST_ID, version: int | None = None,
                 deployment: str = "", stages: list[list[str]] | None = None,
                 canary: CanaryLimits | None = None, resume: bool = False,
                 verify: Callable[[str], CanaryStats | None] | None = None) -> None:
        self.ids = ids
        # the deployer's own figures for a canary (recomputed on requests it runs itself, both programs): a
        # canary's figures are its own word, so a stage passes only when these pass the same limits too
        self.verify = verify
        # the program version every node of this update is offered (ONNX nodes: OFFER2, anti-rollback)
        self.version = version if version is not None else self.update_id_of(update_id)
        self.deployment = deployment
        self.sender = sender  # HOST_ID (through the host's transport) or DEPLOY_ID (bb-edge deploy)
        self.names = {v: k for k, v in ids.items()}
        self.next_seq = next_seq
        self.update_id = update_id & 0xFFFFFFFF
        self.timeout_s = timeout_s
        self.retry_s = retry_s
        self.commit_gate = commit_gate or (lambda: True)
        self.updates = {u.node: u for u in updates}
        self.state = "new"
        self.ready: set[str] = set()
        self.committed: set[str] = set()  # COMMIT left for them: each may run the update
        self.switched: dict[str, bytes] = {}  # said SWITCHED (while committing)
        self.off: set[str] = set()  # said (NACK) that they do not run the update and never will
        self.failures: dict[str, tuple[int, str]] = {}
        self.reverted: list[str] = []  # switched (or may have), then answered an ABORT
        # ONNX nodes switch by epoch (PREPARE, HELD marks, one SWITCH_AT point for all); the others at COMMIT
        self.epoch_nodes = {u.node for u in updates if u.target == TARGET_ONNX and u.versioned is not False}
        self.held: dict[str, dict[int, int]] = {}  # node -> its HELD marks (owner slot -> highest request id)
        self.boundary: dict[int, int] = {}  # the SWITCH_AT point sent to every epoch node
        self.prepared: set[str] = set()  # PREPARE left for them: each may hold requests until ABORT/SWITCH_AT
        # a staged rollout: every stage but the last runs its nodes (cumulative) as canaries in shadow
        self.stages = [list(st) for st in (stages or [])][:-1]
        self.canary = canary or CanaryLimits()
        self.stage = -1
        self.canaries: set[str] = set()
        self.canary_stats: dict[str, CanaryStats] = {}
        self.stage_log: list[str] = []  # one line per stage judged
        self._window_end = 0.0
        self.resume = resume  # ONNX nodes: OFFER first, DATA from the offset their RESUME names
        self.switch_sent = False  # SWITCH_AT left: a revert must be one request boundary for every node too
        self.revert_marks: dict[str, dict[int, int]] = {}  # node -> its HELD answer to REVERT
        self.revert_point: dict[int, int] | None = None  # the REVERT_AT point sent
        self._revert_marks_by = 0.0
        self.awaiting: set[str] = set()  # nodes offered, DATA not streamed until their RESUME
        # C nodes (OFFER2) answer RESUME too; one that does not within retry_s (older firmware) gets every chunk
        self.resume_c = {u.node for u in updates if u.target == TARGET_BBRT and u.versioned is not False}
        self.resumed: dict[str, int] = {}  # node -> offset its RESUME named (bytes it already held)
        self.streamed: dict[str, int] = {}  # node -> DATA payload bytes sent
        self.unreverted: list[str] = []  # may run the update: no answer to ABORT in time
        self._out: list[Outgoing] = []
        self._deadline = 0.0
        self._resend = 0.0
        for st in self.stages:
            for n in st:
                if n not in self.epoch_nodes:
                    raise OtaError(UNKNOWN_NODE, f"canary {n!r} is not an ONNX node of this update")
        for u in updates:
            if u.node not in ids or u.node in (HOST_NAME, DEPLOY_NAME):
                self.failures[u.node] = (UNKNOWN_NODE, f"{u.node!r} is not a node of the deployment")
            if not 0 < u.chunk <= 1 << 24:
                raise OtaError(BAD_MESSAGE, f"chunk size {u.chunk} for {u.node}")

    def _send(self, node: str, edge: int, payload: bytes) -> None:
        env = wire.Envelope.for_bytes(payload, sender=self.sender, receiver=self.ids[node], seq=self.next_seq(),
                                      kind=wire.KIND_CONTROL, protocol=PROTO_OTA, edge=edge)
        self._out.append(Outgoing(node, self.ids[node], wire.encode(env, max_payload=max(len(payload), 1))))

    @staticmethod
    def update_id_of(update_id: int) -> int:
        """The default version: the update id (a caller with a clock passes a higher, monotonic one)."""
        return update_id & 0xFFFFFFFF

    def offer_for(self, u: NodeUpdate) -> Offer:
        """The signed OFFER2 (versioned manifest) for one node; the unversioned OFFER only when asked for
        (``versioned=False``: every node end refuses it, bad_signature)."""
        digest = hashlib.sha256(u.image).digest()
        if u.versioned is not False:
            sig = u.signer(signed_manifest(self.deployment, u.node, u.target, len(u.image), self.version,
                                           self.update_id, digest))
            return Offer(self.update_id, len(u.image), u.target, u.sig_kind, digest, sig, self.version,
                         self.deployment, len(u.delta) if u.delta else 0, u.base if u.delta else b"")
        sig = u.signer(signed_message(u.node, u.target, len(u.image), digest))
        return Offer(self.update_id, len(u.image), u.target, u.sig_kind, digest, sig)

    def start(self, now: float) -> list[Outgoing]:
        """OFFER and every DATA chunk to every node (nothing if a node is unknown: refused up front)."""
        if self.failures:
            self.state = "failed"
            return []
        self.state = "staging"
        self._deadline = now + self.timeout_s
        for u in self.updates.values():
            offer = self.offer_for(u)
            self._send(u.node, self._offer_kind(offer), offer.encode())
            if self.resume and (u.node in self.epoch_nodes or u.node in self.resume_c):
                self.awaiting.add(u.node)  # its RESUME says where to start
            else:
                self._stream(u.node, 0)
        self._resend = now + self.retry_s
        return self.take()

    @staticmethod
    def _offer_kind(offer: Offer) -> int:
        return OFFER if offer.version is None else OFFER_DELTA if offer.delta_size else OFFER2

    def _stream(self, node: str, start: int) -> None:
        """DATA from ``start`` to the end of the node's image (or delta)."""
        u = self.updates[node]
        body = u.delta if u.delta else u.image
        if not 0 <= start <= len(body):
            start = 0
        for off in range(start, len(body), u.chunk):
            chunk = body[off:off + u.chunk]
            self.streamed[node] = self.streamed.get(node, 0) + len(chunk)
            self._send(node, DATA, encode_data(self.update_id, off, chunk))

    def _revert_epoch(self, now: float, pending: list[str]) -> None:
        """Undo a switch at one request boundary: REVERT until every epoch node held (HELD) or is off, then
        REVERT_AT (the switch point and the revert point, max of their marks + 1) until each answers NACK."""
        if not self._revert_marks_by:
            self._revert_marks_by = now + self.timeout_s / 2  # who has not answered by then stays unreverted
        waiting = [n for n in pending if n in self.epoch_nodes and n not in self.revert_marks]
        if self.revert_point is None and (not waiting or now > self._revert_marks_by):
            point: dict[int, int] = {}
            for marks in self.revert_marks.values():
                for slot, rid in marks.items():
                    point[slot] = max(point.get(slot, 0), rid + 1)
            self.revert_point = point
            self._resend = now
        if now < self._resend:
            return
        self._resend = now + self.retry_s
        for node in pending:
            if node not in self.epoch_nodes:
                self._send(node, ABORT, U32.pack(self.update_id))
            elif self.revert_point is not None and node in self.revert_marks:
                self._send(node, REVERT_AT, encode_revert_at(self.update_id, self.boundary, self.revert_point))
            elif self.revert_point is None:
                self._send(node, REVERT, encode_marks(self.update_id, self.boundary))

    def _next_stage(self, now: float) -> None:
        """The next stage's canaries (cumulative) start their shadow runs; its window starts now."""
        self.stage += 1
        self.canaries |= set(self.stages[self.stage])
        self.prepared |= self.canaries  # each may hold a shadow program until ABORT or PREPARE
        self.canary_stats = {}
        self._window_end = now + self.canary.window_s
        self._deadline = now + self.canary.window_s + self.timeout_s
        self._resend = now + self.retry_s
        for node in sorted(self.canaries):
            self._send(node, SHADOW, U32.pack(self.update_id))

    def _prepare_all(self, now: float) -> None:
        """PREPARE to every epoch node: from here on they may hold requests."""
        self.state = "preparing"
        self._deadline = now + self.timeout_s
        self._resend = now + self.retry_s
        self.prepared = set(self.epoch_nodes)
        for node in sorted(self.epoch_nodes):
            self._send(node, PREPARE, U32.pack(self.update_id))

    def _commit(self, now: float) -> None:
        """Every epoch node holds: one switch point for all of them, COMMIT to the others."""
        for marks in self.held.values():
            for slot, rid in marks.items():
                self.boundary[slot] = max(self.boundary.get(slot, 0), rid + 1)
        self.state = "committing"
        self._deadline = now + self.timeout_s
        self._resend = now + self.retry_s
        self.switch_sent = bool(self.epoch_nodes)
        self.committed = set(self.updates)  # from here on every node may switch
        for node in sorted(self.updates):
            self._send_commit(node)

    def _send_commit(self, node: str) -> None:
        if node in self.epoch_nodes:
            self._send(node, SWITCH_AT, encode_marks(self.update_id, self.boundary))
        else:
            self._send(node, COMMIT, U32.pack(self.update_id))

    def take(self) -> list[Outgoing]:
        """Envelopes queued so far."""
        out, self._out = self._out, []
        return out

    def on_envelope(self, env: wire.Envelope) -> None:
        """An OTA reply from a node (anything else, from a node not being updated, or malformed, is ignored)."""
        node = self.names.get(env.sender)
        if env.protocol != PROTO_OTA or node not in self.updates:
            return
        try:
            payload = bytes(env.payload_bytes())
            if env.edge == NACK:
                uid, code, reason = decode_nack(payload)
                if uid != self.update_id:
                    return
                self.off.add(node)
                self.switched.pop(node, None)
                if self.state in ("staging", "canary", "preparing", "committing") and node not in self.failures:
                    self.failures[node] = (code, reason)
            elif env.edge == READY:
                uid, digest = read_u32_hash(payload, "READY")
                if uid == self.update_id and digest == hashlib.sha256(self.updates[node].image).digest():
                    self.ready.add(node)
            elif env.edge == RESUME:
                if len(payload) != 8:
                    raise OtaError(BAD_MESSAGE, f"RESUME of {len(payload)} bytes")
                uid, offset = struct.unpack("<II", payload)
                if uid == self.update_id and self.state == "staging" and node in self.awaiting:
                    self.awaiting.discard(node)
                    self.resumed[node] = offset
                    self._stream(node, offset)
            elif env.edge == CANARY:
                stats = CanaryStats.decode(payload)
                if stats.update_id == self.update_id and node in self.canaries:
                    self.canary_stats[node] = stats
            elif env.edge == HELD:
                uid, marks = decode_marks(payload, "HELD")
                if uid == self.update_id and self.state == "preparing" and node in self.epoch_nodes:
                    self.held[node] = marks
                elif uid == self.update_id and self.state == "reverting" and self.switch_sent \
                        and node in self.epoch_nodes and node not in self.off:
                    self.revert_marks.setdefault(node, marks)
            elif env.edge == SWITCHED:
                uid, digest = read_u32_hash(payload, "SWITCHED")
                if uid == self.update_id and self.state == "committing" and node not in self.off:
                    self.switched[node] = digest
        except OtaError:
            return

    def abort(self, now: float) -> list[Outgoing]:
        """The operator gives up: before COMMIT every node is sent ABORT; after it, the update is reverted."""
        if self.state in ("staging", "canary", "preparing", "committing"):
            for n in self.updates:
                self.failures.setdefault(n, (ABORTED, "aborted by the operator"))
        return self.poll(now)

    def poll(self, now: float) -> list[Outgoing]:
        """Advance the state machine (see the class docstring); what to send."""
        if self.state == "staging":
            if not self.failures and now > self._deadline:
                for n in sorted(set(self.updates) - self.ready):
                    self.failures[n] = (TIMEOUT, f"no READY in {self.timeout_s}s")
            if self.failures:
                for node in self.updates:  # nothing was committed: no node can switch
                    self._send(node, ABORT, U32.pack(self.update_id))
                self.state = "failed"
            elif self.awaiting and now >= self._resend:  # an OFFER or its RESUME may be lost: offer again
                self._resend = now + self.retry_s
                for node in sorted(self.awaiting):
                    if node in self.resume_c:  # no RESUME in time (a C node that does not resume): every chunk
                        self.awaiting.discard(node)
                        self._stream(node, 0)
                        continue
                    self._send(node, self._offer_kind(self.offer_for(self.updates[node])),
                                self.offer_for(self.updates[node]).encode())
            elif self.ready == set(self.updates) and self.commit_gate():
                if self.stages:
                    self.state = "canary"
                    self._next_stage(now)
                else:
                    self._prepare_all(now)
        if self.state == "canary":
            if not self.failures and now >= self._window_end:
                for n in sorted(self.stages[self.stage]):
                    why = self.canary.problem(self.canary_stats.get(n, CanaryStats(self.update_id)))
                    own = self.verify(n) if why is None and self.verify is not None else None
                    if own is not None:
                        # the same limits (latency is the node's alone to measure: own figures carry none)
                        check = dataclasses.replace(self.canary, min_requests=min(1, own.requests))
                        if (mine := check.problem(own)) is not None:
                            why = f"the deployer's own run of {own.requests} requests disagrees with {n}'s " \
                                  f"figures: {mine}"
                    if why is not None:
                        self.failures[n] = (CANARY_FAILED, why)
                s = self.canary_stats
                self.stage_log.append(f"stage {self.stage + 1} ({', '.join(sorted(self.canaries))}): "
                                      + ("; ".join(f"{n}: {s[n].requests} mirrored, drift {s[n].max_drift:.3g}, "
                                                   f"non-finite {s[n].nonfinite}, errors {s[n].errors}, p95 "
                                                   f"{s[n].p95_new_ms:.2f}/{s[n].p95_old_ms:.2f} ms"
                                                   for n in sorted(self.canaries) if n in s) or "no figures")
                                      + (" -- aborted" if self.failures else " -- passed"))
                if not self.failures:
                    if self.stage + 1 < len(self.stages):
                        self._next_stage(now)
                    else:
                        self._prepare_all(now)
            if self.state == "canary" and self.failures:  # nothing switched: ABORT drops the canaries' shadows
                self.state = "reverting"
                self._deadline = now + self.timeout_s
                self._resend = now
            elif self.state == "canary" and now >= self._resend:
                self._resend = now + self.retry_s
                for node in sorted(self.canaries - self.off):
                    self._send(node, SHADOW, U32.pack(self.update_id))
                for node in sorted(set(self.updates) - self.canaries - self.off):
                    # the nodes waiting with a verified stage: the same OFFER again (they answer READY) keeps
                    # their idle timeout from dropping it during a window longer than the stage timeout
                    offer = self.offer_for(self.updates[node])
                    self._send(node, self._offer_kind(offer), offer.encode())
        if self.state == "preparing":
            if not self.failures and now > self._deadline:
                for n in sorted(self.epoch_nodes - set(self.held)):
                    self.failures[n] = (TIMEOUT, f"no HELD in {self.timeout_s}s")
            if self.failures:  # no SWITCH_AT left: no node switched; ABORT releases what they hold
                self.state = "reverting"
                self._deadline = now + self.timeout_s
                self._resend = now
            elif set(self.held) == self.epoch_nodes:
                self._commit(now)
            elif now >= self._resend:
                self._resend = now + self.retry_s
                for node in sorted(self.epoch_nodes - set(self.held) - self.off):
                    self._send(node, PREPARE, U32.pack(self.update_id))
        elif self.state == "committing":
            if not self.failures and now > self._deadline:
                for n in sorted(set(self.updates) - set(self.switched)):
                    self.failures[n] = (TIMEOUT, f"no SWITCHED in {self.timeout_s}s")
            if self.failures:
                self.state = "reverting"
                self._deadline = now + self.timeout_s
                self._resend = now  # ABORT goes out below, at once
            elif set(self.switched) == set(self.updates):
                self.state = "done"
                for node in sorted(self.epoch_nodes):  # the nodes may drop the previous program (best effort)
                    self._send(node, FINISH, U32.pack(self.update_id))
            elif now >= self._resend:  # a COMMIT or its answer may be lost: ask again (idempotent)
                self._resend = now + self.retry_s
                for node in sorted(set(self.updates) - set(self.switched) - self.off):
                    self._send_commit(node)
        if self.state == "reverting":
            pending = sorted(set(self.updates) - self.off)  # staged, prepared, canaries or committed alike
            if not pending or now > self._deadline:
                self.reverted = sorted(n for n in self.off & self.committed if n not in self.failures)
                self.unreverted = pending
                self.state = "failed"
            elif self.switch_sent:
                self._revert_epoch(now, pending)
            elif now >= self._resend:
                self._resend = now + self.retry_s
                for node in pending:
                    self._send(node, ABORT, U32.pack(self.update_id))
        return self.take()

