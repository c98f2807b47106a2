"""The node end of the OTA protocol: :class:`OtaNode`, a protocol handler on a node's engine.

It stages an offered program chunk by chunk, verifies size, SHA-256, the signature and the node's own
loader (a :class:`~bb_edge.engine.ota.loader.ProgramLoader`), and only then answers READY. A COMMIT makes
it switch at the engine's next idle point (no open request), run the loader's health check on the new
program and announce the new program hash in a HELLO; a failed health check puts the old program back.
ONNX nodes switch by epoch instead (PREPARE, HELD, SWITCH_AT: one request boundary for the whole fleet)
and run a staged rollout's canary in shadow (SHADOW, CANARY). Every refusal is an
:class:`~bb_edge.engine.ota.events.OtaRefused` event plus a NACK to the deployer, and the node keeps
serving its current program.

It acts through its :class:`~bb_edge.engine.context.Context` and the engine's public methods only
(``swap_program``, ``install_variant``, ``set_program_hash``, ``evaluate``, ``release_held``, ``hello``),
as the protocol-handler contract (:class:`bb_edge.roles.ProtocolHandler`) asks. The C node end
(firmware/src/bbrt_ota.c, bbrt_node_ota.c) and the MicroPython one (firmware/micropython/bbnode/ota.py)
mirror this state machine.

Why one file: the staging, the switch, the epoch switch, the canary, the revert and resume are states of
one machine that read and write the same fields (the current stage, the epoch, the finished ids, the
revert point); split across modules they would share private state.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bb_edge.deployment.manifest import DEPLOY_ID, DEPLOY_NAME, HOST_ID, HOST_NAME
from bb_edge.engine.context import Context
from bb_edge.engine.engine import program_digest
from bb_edge.engine.ota.events import OtaRefused, OtaRolledBack, OtaStaged, OtaSwitched
from bb_edge.engine.ota.loader import OnnxLoader, ProgramLoader
from bb_edge.engine.ota.messages import (
    ABORT,
    ABORTED,
    BAD_DELTA_BASE,
    BAD_MESSAGE,
    BAD_SIGNATURE,
    BUSY,
    CANARY,
    CODE_NAMES,
    COMMIT,
    CONTRACT_MISMATCH,
    CORRUPT,
    DATA,
    DEFAULT_MAX_PROGRAM,
    DEFAULT_STAGE_TIMEOUT_S,
    DELTA_MISMATCH,
    FINISH,
    HELD,
    INVALID_PROGRAM,
    MAX_REASON,
    NACK,
    NO_KEY,
    NOT_AUTHORISED,
    OFFER,
    OFFER2,
    OFFER_DELTA,
    PREPARE,
    PROTO_OTA,
    READY,
    RESUME,
    REVERT,
    REVERT_AT,
    ROLLED_BACK,
    SHADOW,
    SIG_ED25519,
    STALE_VERSION,
    SWITCH_AT,
    SWITCHED,
    TARGET_NAMES,
    TOO_LARGE,
    TRUNCATED,
    U32,
    UNKNOWN_UPDATE,
    WRONG_DEPLOYMENT,
    WRONG_TARGET,
    CanaryStats,
    Offer,
    OtaError,
    decode_data,
    decode_marks,
    decode_revert_at,
    encode_marks,
    encode_nack,
    read_u32,
    signed_manifest,
)
from bb_edge.engine.ota.signers import Verifier
from bb_edge.engine.ota.slots import MemorySlots, SlotStore
from bb_edge.wire import envelope as wire

if TYPE_CHECKING:
    from bb_edge.engine.engine import Engine

RUNNING = 0  # OtaNode.finished: the update runs (a switch passed its health check)

# refusals that end an update: its chunks still in flight are then dropped without a NACK each
_ENDS_AN_UPDATE = frozenset({TOO_LARGE, TRUNCATED, CORRUPT, BAD_SIGNATURE, INVALID_PROGRAM, CONTRACT_MISMATCH,
                             WRONG_TARGET, NO_KEY, STALE_VERSION, WRONG_DEPLOYMENT, BAD_DELTA_BASE,
                             DELTA_MISMATCH})


@dataclass
class _Staging:
    offer: Offer
    peer: str  # the deployer endpoint that offered it (HOST_NAME or DEPLOY_NAME): replies go there
    started: float
    buf: bytearray = field(default_factory=bytearray)
    staged: Any = None
    ready: bool = False
    commit: bool = False
    restored: bool = False  # reloaded after a restart: its stage timeout starts at the first tick
    touched: float = 0.0  # the deployer's last message about it: a verified stage idle this long is dropped


@dataclass
class _Epoch:
    """An epoch switch in progress on a node: the update installed as ``variant`` next to the running program."""

    st: _Staging
    variant: str
    since: float
    marks: dict[int, int]  # owner slot -> highest request id seen at PREPARE (newer ones are held)
    boundary: dict[int, int] | None = None  # SWITCH_AT: owner slot -> first request id the update serves
    old_hash: bytes = b""
    reverted: bool = False  # an ABORT after SWITCH_AT: every request goes back to the running program
    shadow: bool = False  # a canary: the update runs on copies of requests only (SHADOW), nothing is held
    finish: bool = False  # FINISH came: the previous program goes at the next idle point after the grace window
    revert_marks: dict[int, int] | None = None  # REVERT: highest request ids seen then (newer ones are held)
    revert_at: dict[int, int] | None = None  # REVERT_AT: from here on, the previous program again
    drift: float = 0.0
    nonfinite: int = 0
    errors: int = 0
    mirrored: int = 0
    lat_old: list[float] = field(default_factory=list)
    lat_new: list[float] = field(default_factory=list)

    def stats(self) -> CanaryStats:
        """The canary's figures so far."""
        def p95(xs: list[float]) -> float:
            return sorted(xs)[min(len(xs) - 1, int(0.95 * len(xs)))] * 1e3 if xs else 0.0

        return CanaryStats(self.st.offer.update_id, self.mirrored, self.nonfinite, self.errors, self.drift,
                           p95(self.lat_old), p95(self.lat_new))


class OtaNode:
    """The node end of the update protocol (a :class:`~bb_edge.roles.ProtocolHandler`).

    ``verifier`` checks signatures (:func:`ed25519_verifier` or
    :func:`hmac_verifier`); without one every OFFER is refused (NO_KEY).
    ``max_program`` bounds the declared size before a byte is buffered.

    Every update id it has finished is remembered (``finished``: RUNNING or the
    code that ended it), so late or repeated messages for it cannot start it
    again: a repeated COMMIT of what runs answers SWITCHED again, of what was
    refused or aborted answers its NACK again. An ABORT of the update it last
    switched to puts the previous program back at the next idle point
    (``revertible`` until another update is staged) and is answered with NACK
    ``aborted`` ("I do not run it and never will"), as is an ABORT of anything
    else. A node that hears nothing after COMMIT keeps what it switched to.
    """

    protocol_id = PROTO_OTA
    REMEMBER = 64  # finished update ids kept

    def __init__(self, engine: Engine, loader: ProgramLoader, verifier: Verifier | None,
                 sig_kind: int = SIG_ED25519, store: SlotStore | None = None,
                 max_program: int = DEFAULT_MAX_PROGRAM, stage_timeout_s: float = DEFAULT_STAGE_TIMEOUT_S,
                 deployment: str = "", clock: Callable[[], float] | None = None) -> None:
        self.engine = engine
        self.clock = clock  # times the canary's mirrored runs (None: latency is not measured)
        self.deployment = deployment  # the name a signed manifest must carry
        self.loader = loader
        self.verifier = verifier
        self.sig_kind = sig_kind
        self.store: SlotStore = store if store is not None else MemorySlots()
        self.max_program = max_program
        self.stage_timeout_s = stage_timeout_s
        self._current: _Staging | None = None
        self.switched: list[int] = []  # update ids switched to, oldest first
        self.finished: dict[int, int] = {}  # update id -> RUNNING or the code that ended it
        self.revertible: tuple[int, Any, str] | None = None  # (update id, restore token, peer) of the last switch
        self.revert_pending: int | None = None  # an ABORT of the running update, applied at an idle point
        self.epoch: _Epoch | None = None  # an epoch switch (PREPARE .. finalized at an idle point)
        self.max_rid: dict[int, int] = {}  # owner slot -> highest request id this node has seen
        # after SWITCH_AT, requests below the boundary keep the previous program for this long (their
        # intermediates may still be on the way); then, at an idle point, the update becomes the bound program
        self.grace_s = min(float(getattr(engine, "hop_budget_s", 2.0)), 2.0)
        if isinstance(loader, OnnxLoader):
            engine.program_router = self._route
            engine.mirror = self._mirror
            self._restore_partial()

    @property
    def current(self) -> _Staging | None:
        """The update being staged (None: none)."""
        return self._current

    @current.setter
    def current(self, st: _Staging | None) -> None:
        self._current = st
        if st is None and hasattr(self.store, "clear_partial"):  # a transfer kept across restarts ended
            self.store.clear_partial()

    def _keep_partial(self, st: _Staging) -> None:
        """Keep the transfer's offer and bytes in the store (FileSlots), so a restarted node resumes it."""
        if hasattr(self.store, "begin_partial") and st.offer.version is not None:
            kind = OFFER_DELTA if st.offer.delta_size else OFFER2
            self.store.begin_partial(bytes([kind]) + st.offer.encode(), bytes(st.buf))

    def _restore_partial(self) -> None:
        """After a restart: the transfer the store kept becomes the current stage (checked again on RESUME)."""
        got = self.store.load_partial() if hasattr(self.store, "load_partial") else None
        if not got:
            return
        header, data = got
        try:
            if not header or header[0] not in (OFFER2, OFFER_DELTA):
                raise OtaError(BAD_MESSAGE, "unknown kept offer")
            offer = (Offer.decode_delta if header[0] == OFFER_DELTA else Offer.decode2)(header[1:])
            if offer.version is None or offer.version <= self.store.accepted_version() \
                    or len(data) >= offer.transfer_size:
                raise OtaError(STALE_VERSION, "kept transfer is stale")
        except OtaError:
            self.current = None  # clears what the store kept
            return
        peer = DEPLOY_NAME if DEPLOY_NAME in self.engine.peers else HOST_NAME
        self._current = _Staging(offer, peer, 0.0, bytearray(data), restored=True)

    # the handler interface -------------------------------------------------

    def on_envelope(self, env: wire.Envelope, peer: str, ctx: Context) -> None:
        """Validate one OTA message completely, then apply it; refusals are events + NACKs."""
        payload = bytes(env.payload_bytes())
        uid = U32.unpack_from(payload)[0] if len(payload) >= 4 else 0
        deployer = {HOST_ID: HOST_NAME, DEPLOY_ID: DEPLOY_NAME}.get(env.sender)
        if deployer is None or deployer not in self.engine.peers:
            self._refuse(ctx, peer, uid, NOT_AUTHORISED, f"OTA messages come from the deployer, not id {env.sender}",
                         reply=False)
            return
        peer = deployer  # replies go to the endpoint that sent it
        if self._current is not None and self._current.offer.update_id == uid:
            self._current.touched = ctx.now  # the deployer still drives this update
        try:
            if env.edge == OFFER2:
                self._offer(Offer.decode2(payload), peer, ctx)
            elif env.edge == OFFER_DELTA:
                if not isinstance(self.loader, OnnxLoader):
                    raise OtaError(WRONG_TARGET, "this node takes full images only")
                self._offer(Offer.decode_delta(payload), peer, ctx)
            elif env.edge == OFFER:
                Offer.decode(payload)
                raise OtaError(BAD_SIGNATURE, "an unversioned OFFER: this node takes only OFFER2, whose signed "
                                              "manifest carries deployment, version and update id")
            elif env.edge == DATA:
                self._data(payload, peer, ctx)
            elif env.edge == COMMIT:
                self._commit(read_u32(payload, "COMMIT"), peer, ctx)
            elif env.edge == ABORT:
                self._abort(read_u32(payload, "ABORT"), peer, ctx)
            elif env.edge == PREPARE:
                self._prepare(read_u32(payload, "PREPARE"), peer, ctx)
            elif env.edge == SHADOW:
                self._shadow(read_u32(payload, "SHADOW"), peer, ctx)
            elif env.edge == FINISH:
                e = self.epoch
                if e is not None and e.st.offer.update_id == read_u32(payload, "FINISH") and e.boundary is not None:
                    e.finish = True
            elif env.edge == REVERT:
                self._revert_hold(*decode_marks(payload, "REVERT"), peer, ctx)
            elif env.edge == REVERT_AT:
                self._revert_at(*decode_revert_at(payload), peer, ctx)
            elif env.edge == SWITCH_AT:
                self._switch_at(*decode_marks(payload, "SWITCH_AT"), peer, ctx)
            else:
                raise OtaError(BAD_MESSAGE, f"message type {env.edge} is not for a node")
        except OtaError as exc:
            self._refuse(ctx, peer, uid, exc.code, exc.reason)

    def on_tick(self, now: float, ctx: Context) -> None:
        """Stage timeouts, and the switch (or the revert) itself once the engine is idle."""
        if self.revert_pending is not None and self.engine.open_requests == 0:
            self._revert(ctx)
        if self.epoch is not None:
            self._epoch_tick(now, ctx)
        st = self.current
        if st is None:
            return
        if st.restored:
            st.restored, st.started = False, now
        if st.ready and not st.commit and now - max(st.touched, st.started) > self.stage_timeout_s:
            # verified, then the deployer went silent (it died after READY): free the node for later updates
            self.current = None
            self.store.discard()
            self._finish(st.offer.update_id, ABORTED)  # a late COMMIT of it is refused
            self._nack(ctx, st.peer, st.offer.update_id, ABORTED,
                       f"no word from the deployer {self.stage_timeout_s:.0f}s after READY: dropped")
            ctx.emit(OtaRefused(st.peer, st.offer.update_id, ABORTED, "idle verified stage dropped"))
            return
        if not st.ready and now - st.started > self.stage_timeout_s:
            self.current = None
            self.store.discard()
            self._refuse(ctx, st.peer, st.offer.update_id, TRUNCATED,
                         f"staging timed out with {len(st.buf)} of {st.offer.size} bytes")
            return
        if st.commit and self.engine.open_requests == 0:
            self._switch(st, ctx)

    # messages ---------------------------------------------------------------

    def _finish(self, uid: int, code: int) -> None:
        self.finished[uid] = code
        while len(self.finished) > self.REMEMBER:
            del self.finished[next(iter(self.finished))]

    def _offer(self, offer: Offer, peer: str, ctx: Context) -> None:
        floor = self.store.accepted_version()
        stale = offer.version is None or offer.version <= floor
        if offer.update_id in self.finished:
            runs = self.finished[offer.update_id] == RUNNING and self.switched[-1:] == [offer.update_id]
            if runs or not stale:
                return  # a late or repeated OFFER of an update already ended (or of what runs): nothing new
            # a replay of an older update: refused below (stale_version), typed
        adopt = None
        if self.current is not None:
            cur = self.current
            if cur.offer == offer:  # the same OFFER again (the deployer retried): where its bytes stand
                self._resume(ctx, cur)
                return
            o = cur.offer
            if cur.ready or (o.sha256, o.size, o.target, o.delta_size, o.base) != (
                    offer.sha256, offer.size, offer.target, offer.delta_size, offer.base):
                raise OtaError(BUSY, f"update {cur.offer.update_id} is in progress")
            adopt = cur  # a new offer of the same bytes (a deployer that restarted): resume the transfer
        if self.epoch is not None:
            self._epoch_tick(ctx.now + self.grace_s, ctx)  # a switched one is finished now if the node is idle
            if self.epoch is not None:
                raise OtaError(BUSY, f"update {self.epoch.st.offer.update_id} is still switching")
        if self.verifier is None:
            raise OtaError(NO_KEY, "no update key is provisioned on this node")
        if offer.target != self.loader.target:
            raise OtaError(WRONG_TARGET, f"this node loads {TARGET_NAMES.get(self.loader.target)} programs, "
                                         f"not {TARGET_NAMES.get(offer.target, offer.target)}")
        if offer.sig_kind != self.sig_kind:
            raise OtaError(BAD_SIGNATURE, f"signature kind {offer.sig_kind}, this node verifies {self.sig_kind}")
        if offer.size > self.max_program or offer.delta_size > self.max_program:
            raise OtaError(TOO_LARGE, f"{offer.size} bytes, this node takes at most {self.max_program}")
        if offer.deployment != self.deployment:
            raise OtaError(WRONG_DEPLOYMENT, f"the update is for deployment {offer.deployment!r}, "
                                             f"this node runs {self.deployment!r}")
        if stale:
            raise OtaError(STALE_VERSION, f"version {offer.version} is not above {floor}, the highest this node "
                                          f"accepted; roll back with a new manifest of a higher version")
        if adopt is not None:  # every check above passed for the new offer; the bytes are checked at the end
            adopt.offer, adopt.peer, adopt.started = offer, peer, ctx.now
            self._keep_partial(adopt)
            self._resume(ctx, adopt)
            return
        self.current = _Staging(offer, peer, ctx.now)
        self._keep_partial(self.current)
        if offer.version is not None:
            self._resume(ctx, self.current)

    def _resume(self, ctx: Context, st: _Staging) -> None:
        """RESUME: how many bytes of the offer this node holds; a verified stage repeats its READY too."""
        uid = st.offer.update_id
        self._send(ctx, st.peer, RESUME, U32.pack(uid) + U32.pack(st.offer.transfer_size if st.ready
                                                                      else len(st.buf)))
        if st.ready:
            self._send(ctx, st.peer, READY, U32.pack(uid) + st.offer.sha256)

    def _data(self, payload: bytes, peer: str, ctx: Context) -> None:
        uid, offset, chunk = decode_data(payload)
        st = self.current
        if st is None or st.offer.update_id != uid:
            if uid in self.finished:
                return  # chunks of an update already ended: its one NACK (or SWITCHED) said it
            raise OtaError(UNKNOWN_UPDATE, f"no update {uid} is being staged")
        if st.ready:
            return  # a late duplicate of a chunk already verified
        if offset < len(st.buf) and offset + len(chunk) <= len(st.buf) \
                and st.buf[offset:offset + len(chunk)] == chunk:
            return  # a duplicate of a chunk already taken
        if offset != len(st.buf) or offset + len(chunk) > st.offer.transfer_size:
            self.current = None  # a gap or an overrun: the image cannot be what was offered
            raise OtaError(TRUNCATED, f"chunk at {offset}+{len(chunk)}, expected offset {len(st.buf)} "
                                      f"of {st.offer.transfer_size}")
        st.buf += chunk
        if hasattr(self.store, "append_partial") and st.offer.version is not None:
            self.store.append_partial(chunk)
        if len(st.buf) == st.offer.transfer_size:
            self._verify(st, ctx)

    def _verify(self, st: _Staging, ctx: Context) -> None:
        data = bytes(st.buf)
        try:
            # the signed manifest (size and SHA-256 of the full image) is checked first: an unsigned delta is
            # refused before one byte of it is decompressed, and a signed one unpacks to at most its size
            assert st.offer.version is not None  # checked at OFFER
            msg = signed_manifest(self.deployment, self.engine.node, st.offer.target, st.offer.size,
                                  st.offer.version, st.offer.update_id, st.offer.sha256)
            assert self.verifier is not None  # checked at OFFER
            if not self.verifier(msg, st.offer.signature):
                raise OtaError(BAD_SIGNATURE, "the signature does not verify with this node's key")
            if st.offer.delta_size:
                data = self._rebuild(st.offer, data)
            if hashlib.sha256(data).digest() != st.offer.sha256:
                if st.offer.delta_size:
                    raise OtaError(DELTA_MISMATCH, "the image rebuilt from the delta is not the signed one")
                raise OtaError(CORRUPT, "SHA-256 of the received image differs from the offer's")
            staged = self.loader.validate(data)
        except OtaError:
            self.current = None
            raise
        self.revertible = None  # staging overwrites the slot the previous program was in
        self.store.stage(data)
        if hasattr(self.store, "clear_partial"):  # the image is in its slot: nothing left to resume
            self.store.clear_partial()
        st.staged, st.ready, st.buf = staged, True, bytearray()
        ctx.emit(OtaStaged(st.offer.update_id, st.offer.sha256, st.offer.size))
        ctx.send_bytes(st.peer, U32.pack(st.offer.update_id) + st.offer.sha256, protocol=PROTO_OTA,
                       edge=READY, kind=wire.KIND_CONTROL)

    def _rebuild(self, offer: Offer, delta: bytes) -> bytes:
        """The full image a delta makes of the running program (BAD_DELTA_BASE when it is another one)."""
        from bb_edge.engine.ota import delta as deltas

        base = self.engine.program_model(self.loader.program)  # type: ignore[attr-defined]
        if deltas.base_hash(base) != offer.base:
            raise OtaError(BAD_DELTA_BASE, f"the delta applies to {offer.base.hex()[:16]}, this node runs "
                                           f"{deltas.base_hash(base).hex()[:16]}")
        try:
            return deltas.apply_delta(base, delta, self.max_program, total=offer.size)
        except deltas.DeltaError as exc:
            raise OtaError(BAD_DELTA_BASE, f"the delta does not apply: {exc}"[:MAX_REASON]) from None

    def _commit(self, uid: int, peer: str, ctx: Context) -> None:
        st = self.current
        if st is None or st.offer.update_id != uid:
            code = self.finished.get(uid)
            if code == RUNNING:
                if self.revertible is not None and self.revertible[0] == uid and self.revert_pending is None:
                    self._send_switched(peer, uid, ctx)  # a repeated COMMIT: its SWITCHED may have been lost
                return
            if code is not None:
                raise OtaError(code, f"update {uid} already ended; this node does not run it")
            raise OtaError(UNKNOWN_UPDATE, f"no update {uid} is staged")
        if not st.ready:
            raise OtaError(UNKNOWN_UPDATE, f"update {uid} is not verified yet")
        st.commit = True
        if self.engine.open_requests == 0:
            self._switch(st, ctx)

    # the epoch switch -------------------------------------------------------

    def _route(self, program: str, request_id: int) -> str | None:
        """The engine's program router: which installed program serves ``request_id`` (None: hold it)."""
        from bb_edge.deployment.clients import request_owner

        slot = request_owner(request_id)
        if request_id > self.max_rid.get(slot, -1):
            self.max_rid[slot] = request_id
        e = self.epoch
        if e is None or program != getattr(self.loader, "program", None) or e.reverted or e.shadow:
            return program
        if e.revert_at is not None:  # undone: [switch point, revert point) keeps the update, the rest does not
            if request_id >= e.revert_at.get(slot, 0) or e.boundary is None:
                return program
            return e.variant if request_id >= e.boundary.get(slot, 0) else program
        if e.revert_marks is not None and request_id > e.revert_marks.get(slot, -1):
            return None  # the revert point is not known yet
        if e.boundary is None:  # prepared: what this node has not seen yet waits for the switch point
            return program if request_id <= e.marks.get(slot, -1) else None
        return e.variant if request_id >= e.boundary.get(slot, 0) else program

    def _mirror(self, program: str, values: dict[str, Any]) -> None:
        """A canary: run the update on a copy of a request the running program just served; compare."""
        import numpy as np

        e = self.epoch
        if e is None or not e.shadow or program != getattr(self.loader, "program", None):
            return
        clock = self.clock or (lambda: 0.0)
        old = self.engine.programs[program]

        def run(name: str) -> tuple[dict[str, Any], float]:
            t0 = clock()
            vals = self.engine.evaluate(name, values)
            return vals, clock() - t0

        e.mirrored += 1
        try:
            got, dt_new = run(e.variant)
            _, dt_old = run(program)
        except Exception:  # the update failed on a real request: counted, the node serves the old program
            e.errors += 1
            return
        e.lat_new, e.lat_old = (e.lat_new + [dt_new])[-1000:], (e.lat_old + [dt_old])[-1000:]
        for name in [p.tensor for p in old.sends] + list(old.outputs):
            a, b = np.asarray(values.get(name)), np.asarray(got.get(name))
            if a.dtype == object or b.dtype == object or a.shape != b.shape:
                e.errors += 1
                continue
            if np.issubdtype(b.dtype, np.floating) and not np.all(np.isfinite(b)):
                e.nonfinite += 1
                continue
            scale = float(np.max(np.abs(a))) if a.size else 0.0
            diff = float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)))) if a.size else 0.0
            e.drift = max(e.drift, diff / scale if scale > 0 else diff)

    def _shadow(self, uid: int, peer: str, ctx: Context) -> None:
        e = self.epoch
        if e is not None and e.st.offer.update_id == uid:
            if e.shadow:
                e.since = ctx.now  # the deployer still watches: the canary's silence timeout starts again
                self._send(ctx, peer, CANARY, e.stats().encode())
            return
        if not self._install(uid, ctx, shadow=True):
            return
        assert self.epoch is not None
        self._send(ctx, peer, CANARY, self.epoch.stats().encode())

    def _install(self, uid: int, ctx: Context, shadow: bool) -> bool:
        """Install the staged update ``uid`` next to the running program and health-check it (an epoch)."""
        st = self.current
        if st is None or st.offer.update_id != uid or not st.ready:
            code = self.finished.get(uid)
            if code is not None and code != RUNNING:
                raise OtaError(code, f"update {uid} already ended; this node does not run it")
            if code == RUNNING:
                return False
            raise OtaError(UNKNOWN_UPDATE, f"no verified update {uid} is staged")
        loader: Any = self.loader
        variant = f"{loader.program}@ota{uid}"
        try:
            loader.install_variant(st.staged, variant)
            loader.health(st.staged, variant)
        except Exception as exc:
            loader.drop_variant(variant)
            self.current = None
            self.store.discard()
            reason = f"health check failed: {exc}"
            ctx.emit(OtaRolledBack(uid, reason))
            self._refuse(ctx, st.peer, uid, ROLLED_BACK, reason[:MAX_REASON])
            return False
        self.current = None
        self.epoch = _Epoch(st, variant, ctx.now, {} if shadow else dict(self.max_rid), shadow=shadow)
        return True

    def _prepare(self, uid: int, peer: str, ctx: Context) -> None:
        e = self.epoch
        if e is not None and e.st.offer.update_id == uid:
            if e.shadow:  # the canary joins the switch: from now on it holds newer requests
                e.shadow, e.marks, e.since = False, dict(self.max_rid), ctx.now
            if e.boundary is None:
                self._send(ctx, peer, HELD, encode_marks(uid, e.marks))  # a repeated PREPARE
            elif not e.reverted:
                self._send_switched(peer, uid, ctx)
            return
        if not self._install(uid, ctx, shadow=False):
            return
        assert self.epoch is not None
        self._send(ctx, peer, HELD, encode_marks(uid, self.epoch.marks))

    def _switch_at(self, uid: int, boundary: dict[int, int], peer: str, ctx: Context) -> None:
        e = self.epoch
        if e is None or e.st.offer.update_id != uid:
            if self.finished.get(uid) == RUNNING:
                self._send_switched(peer, uid, ctx)
                return
            code = self.finished.get(uid)
            raise OtaError(code if code is not None else UNKNOWN_UPDATE, f"update {uid} is not prepared here")
        if e.boundary is not None:
            if not e.reverted:
                self._send_switched(peer, uid, ctx)
            return
        if e.shadow:  # a canary switches only after PREPARE (it then holds like every node): never alone
            raise OtaError(BAD_MESSAGE, f"update {uid} runs in shadow here; SWITCH_AT needs PREPARE first")
        low = [s for s, m in e.marks.items() if boundary.get(s, 0) <= m]
        if low:  # requests at or past the switch point already ran the previous program here
            raise OtaError(BAD_MESSAGE, f"switch point at or below request ids this node served (slots {low})")
        assert e.st.offer.version is not None
        self.store.accept_version(e.st.offer.version)  # durable before SWITCHED: a replay of it is now stale
        self.store.activate()
        e.boundary, e.since, e.old_hash = dict(boundary), ctx.now, self.engine.program_hash
        self.engine.set_program_hash(program_digest(e.st.staged))
        self.switched.append(uid)
        del self.switched[:-8]
        self._finish(uid, RUNNING)
        self.revertible = None
        self.engine.release_held()
        ctx.emit(OtaSwitched(uid, e.old_hash, self.engine.program_hash))
        self._send_switched(peer, uid, ctx)
        self.engine.hello()

    def _revert_hold(self, uid: int, switch: dict[int, int], peer: str, ctx: Context) -> None:
        """REVERT: hold what this node has not seen, report it (HELD); a node without the update answers NACK."""
        e = self.epoch
        if e is None or e.st.offer.update_id != uid or e.reverted or e.shadow:
            self._abort(uid, peer, ctx)
            return
        if e.revert_at is not None:
            self._nack(ctx, peer, uid, ABORTED, "aborted: the previous program runs")
            return
        if e.revert_marks is None:
            e.revert_marks, e.since = dict(self.max_rid), ctx.now
        self._send(ctx, peer, HELD, encode_marks(uid, e.revert_marks))

    def _revert_at(self, uid: int, switch: dict[int, int], revert: dict[int, int], peer: str,
                   ctx: Context) -> None:
        """REVERT_AT: requests from the revert point on run the previous program, on every node alike."""
        e = self.epoch
        if e is None or e.st.offer.update_id != uid or e.revert_marks is None:
            self._abort(uid, peer, ctx)
            return
        if e.revert_at is None:
            switched = e.boundary is not None
            if not switched:
                e.boundary = dict(switch)
            e.revert_at, e.since = dict(revert), ctx.now
            if switched:
                self.store.revert()
                self.engine.set_program_hash(e.old_hash)
            else:
                self.store.discard()
            self._finish(uid, ABORTED)
            self.engine.release_held()
            ctx.emit(OtaRolledBack(uid, "reverted by the deployer at a request boundary"))
            self.engine.hello()
        self._nack(ctx, peer, uid, ABORTED, "aborted: the previous program runs")

    def _epoch_abort(self, e: _Epoch, peer: str, ctx: Context) -> None:
        uid = e.st.offer.update_id
        if e.boundary is None:  # prepared, never switched: every held request runs the previous program
            self.epoch = None
            self.loader.drop_variant(e.variant)  # type: ignore[attr-defined]
            self.store.discard()
            self._finish(uid, ABORTED)
            self.engine.release_held()
        elif not e.reverted:  # switched: back to the previous program; the variant goes at an idle point
            e.reverted = True
            self.store.revert()
            self.engine.set_program_hash(e.old_hash)
            self._finish(uid, ABORTED)
            ctx.emit(OtaRolledBack(uid, "aborted by the deployer after the switch"))
            self.engine.hello()
        self._nack(ctx, peer, uid, ABORTED, "aborted: the previous program runs")

    def _epoch_tick(self, now: float, ctx: Context) -> None:
        e = self.epoch
        assert e is not None
        if e.boundary is None:
            if now - e.since <= self.stage_timeout_s:
                return
            # the deployer went silent before SWITCH_AT: keep the previous program
            self._epoch_abort(e, e.st.peer, ctx)
            return
        idle = self.engine.open_requests_for(e.variant) == 0
        if e.revert_marks is not None and e.revert_at is None:
            if now - e.since > self.stage_timeout_s:  # the deployer went silent mid-revert: its own marks
                if e.boundary is None:
                    self._epoch_abort(e, e.st.peer, ctx)
                else:
                    self._revert_at(e.st.offer.update_id, e.boundary,
                                    {s: m + 1 for s, m in e.revert_marks.items()}, e.st.peer, ctx)
            return
        if (e.reverted or e.revert_at is not None) and idle and now - e.since >= self.grace_s:
            self.epoch = None
            self.loader.drop_variant(e.variant)  # type: ignore[attr-defined]
        elif (e.boundary is not None and not e.reverted and e.revert_at is None
              and now - e.since >= (self.grace_s if e.finish else 2 * self.stage_timeout_s)
              and self.engine.open_requests == 0):
            # every request below the switch point is done: the update becomes the bound program
            self.epoch = None
            self.loader.drop_variant(e.variant)  # type: ignore[attr-defined]
            token = self.loader.switch(e.st.staged)
            self.revertible = (e.st.offer.update_id, dataclasses.replace(token, previous_hash=e.old_hash), e.st.peer)

    def _send(self, ctx: Context, peer: str, edge: int, payload: bytes) -> None:
        ctx.send_bytes(peer, payload, protocol=PROTO_OTA, edge=edge, kind=wire.KIND_CONTROL)

    def _abort(self, uid: int, peer: str, ctx: Context) -> None:
        if self.epoch is not None and self.epoch.st.offer.update_id == uid:
            self._epoch_abort(self.epoch, peer, ctx)
            return
        st = self.current
        if st is not None and st.offer.update_id == uid:
            self.current = None
            self.store.discard()
        if self.finished.get(uid) == RUNNING and self.revertible is not None and self.revertible[0] == uid:
            self.revertible = (uid, self.revertible[1], peer)
            self.revert_pending = uid  # put the previous program back at the next idle point, then answer
            if self.engine.open_requests == 0:
                self._revert(ctx)
            return
        if self.revert_pending == uid:
            return  # answered once the revert is done
        if uid not in self.finished:
            self._finish(uid, ABORTED)  # a COMMIT arriving after this ABORT is refused
        code = self.finished[uid]  # the answer is the code that ended it (it may repeat a lost NACK)
        self._nack(ctx, peer, uid, code, f"{CODE_NAMES.get(code, code)}: this node does not run update {uid}")

    def _revert(self, ctx: Context) -> None:
        uid, self.revert_pending = self.revert_pending, None
        assert uid is not None and self.revertible is not None and self.revertible[0] == uid
        _, token, peer = self.revertible
        self.revertible = None
        self.loader.restore(token)
        self.store.revert()
        self._finish(uid, ABORTED)
        ctx.emit(OtaRolledBack(uid, "aborted by the deployer after the switch"))
        self._nack(ctx, peer, uid, ABORTED, "aborted: the previous program runs again")
        self.engine.hello()

    def _switch(self, st: _Staging, ctx: Context) -> None:
        self.current = None
        old_hash = self.engine.program_hash
        uid = st.offer.update_id
        try:
            token = self.loader.switch(st.staged)
        except Exception as exc:
            self.store.discard()
            self._refuse(ctx, st.peer, uid, ROLLED_BACK, f"switch failed: {type(exc).__name__}: {exc}")
            return
        try:
            self.loader.health(st.staged)
        except Exception as exc:
            self.loader.restore(token)
            self.store.discard()
            reason = f"health check failed: {exc}"
            ctx.emit(OtaRolledBack(uid, reason))
            self._refuse(ctx, st.peer, uid, ROLLED_BACK, reason)
            return
        assert st.offer.version is not None
        self.store.accept_version(st.offer.version)  # durable before SWITCHED: a replay of it is now stale
        self.store.activate()
        self.switched.append(uid)
        del self.switched[:-8]
        self._finish(uid, RUNNING)
        self.revertible = (uid, token, st.peer)
        ctx.emit(OtaSwitched(uid, old_hash, self.engine.program_hash))
        self._send_switched(st.peer, uid, ctx)
        self.engine.hello()  # peers and the host see the new program hash

    def _send_switched(self, peer: str, uid: int, ctx: Context) -> None:
        ctx.send_bytes(peer, U32.pack(uid) + self.engine.program_hash, protocol=PROTO_OTA,
                       edge=SWITCHED, kind=wire.KIND_CONTROL)

    def _nack(self, ctx: Context, peer: str, uid: int, code: int, reason: str) -> None:
        ctx.send_bytes(peer, encode_nack(uid, code, reason), protocol=PROTO_OTA, edge=NACK,
                       kind=wire.KIND_CONTROL)

    def _refuse(self, ctx: Context, peer: str, uid: int, code: int, reason: str, reply: bool = True) -> None:
        if reply and (code in _ENDS_AN_UPDATE or code == ROLLED_BACK):
            self._finish(uid, code)
        ctx.emit(OtaRefused(peer, uid, code, reason))
        if reply:
            self._nack(ctx, peer, uid, code, reason)
