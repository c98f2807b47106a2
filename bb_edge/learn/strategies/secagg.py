"""FedAvg with secure aggregation over the wire (pairwise masks, Shamir-shared secrets, dropouts).

The server learns only the weighted sum of the surviving clients' updates:
each client masks its fixed-point update with pairwise masks that cancel in
the sum (:class:`~bb_edge.learn.codecs.SecAggClient`), and Shamir-shares its
round secret among the round's participants so that the masks of clients
that drop out after masking can be removed with the survivors' shares
(Bonawitz et al., CCS 2017, without double masking: see "Limits").

One round, as envelopes (protocol ids of FedAvg; ``request_id`` = round;
every payload is one UINT8 envelope with a 4-byte tag, little-endian)::

    server -> cohort    MODEL      the global model (float32, never masked)
    client -> server    SA_KEY     SAK1 | DH public key (256 bytes, big-endian)      then it trains
    server -> U1        SA_ROSTER  SAR1 | u32 n | n x (u32 id | key)                 U1: who sent a key
    client -> server    SA_SHARES  SAS1 | u32 n | n x (u32 holder | share box)       one box per holder in U1
    server -> each y    SA_SHARES  SAF1 | f64 weight | u32 n | n x (u32 owner | box)  U2: who shared
    client -> server    UPDATE     SAG1 masked weight*delta, masks over U2
    server -> U3        SA_UNMASK  SAU1 | u32 n | n x u32 dropped id                 only if U3 != U2
    client -> server    SA_REVEAL  SAV1 | u32 n | n x (u32 owner | 66-byte share)

A *share box* is the 66-byte Shamir share XORed with a keystream and followed
by a 16-byte HMAC tag, both keyed by the owner's and holder's DH shared secret
of the round: the server, which routes the boxes, cannot read them. The
server tells each client its aggregation *weight* (its admitted sample count
over the sum of U2's), the client masks ``weight * delta`` and the server
divides the unmasked sum by the survivors' total weight: the sample-weighted
mean of the survivors' updates, as the plain :class:`~bb_edge.learn.
aggregators.Mean` computes it (up to the fixed point, ``frac_bits``).

Every phase waits for all of its members or ``round_timeout``; a phase with
fewer than ``max(threshold, min_clients)`` members aborts the round
(:class:`~bb_edge.learn.events.RoundAborted`). Every message is validated
before it changes state; a malformed or out-of-phase one is an
:class:`~bb_edge.learn.events.UpdateRejected` (``bad_share`` for boxes and
shares that fail their checks, ``stale_round``, ``unknown_peer``,
``duplicate``).

Limits: without double masking a server that lies about who dropped can
unmask one client; the server cannot check an individual update's norm
(there is none to see). ``withhold`` (a list of client names) is fault
injection for tests and simulations: those clients send their shares and
then never their masked update, the dropout the protocol recovers from.

Why one file: the message codecs, the share sealing and the two handlers are one protocol. A change to
a message's layout touches its pack/unpack pair and both ends, which a reader checks here at once.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import struct
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from bb_edge.engine.context import Context
from bb_edge.learn import events as lev
from bb_edge.learn.codecs import DH_PRIME, FIELD_PRIME, CodecError, SecAggClient, secagg_unmask_sum
from bb_edge.learn.roles import ConfigError, LearnError
from bb_edge.learn.strategies.base import ModelState, Msg, read_vector
from bb_edge.learn.strategies.fedavg import FedAvgClient, FedAvgServer
from bb_edge.learn.validation import RejectReason
from bb_edge.wire.envelope import Envelope

__all__ = ["SecAggServer", "SecAggFedClient", "SecAggFormatError", "KEY_BYTES", "SHARE_BYTES", "BOX_BYTES",
           "pack_key", "unpack_key", "pack_roster", "unpack_roster", "pack_boxes", "unpack_boxes",
           "pack_forward", "unpack_forward", "pack_ids", "unpack_ids", "pack_reveals", "unpack_reveals",
           "seal_share", "open_share", "SECAGG_AGGREGATORS"]

KEY_BYTES = 256  # a 2048-bit group element
SHARE_BYTES = 66  # a Shamir share in GF(2^521 - 1)
TAG_BYTES = 16
BOX_BYTES = SHARE_BYTES + TAG_BYTES
MAX_MEMBERS = 4096  # bounds every count a peer sends before anything is allocated
# the aggregators that make sense on the one (unmasked, already averaged) vector secure aggregation yields
SECAGG_AGGREGATORS = ("mean", "fedavgm", "fedadam", "fedyogi")


class SecAggFormatError(CodecError):
    """A secure-aggregation message is malformed (wrong tag, length, count, id or value range)."""


# ---------------------------------------------------------------------------
# message formats (pure functions; every unpack validates before returning)
# ---------------------------------------------------------------------------


def _head(data: bytes, tag: bytes, fixed: int) -> memoryview:
    mv = memoryview(data)
    if len(mv) < 4 + fixed or bytes(mv[:4]) != tag:
        raise SecAggFormatError(f"not a {tag.decode()} message (or truncated)")
    return mv


def _count(mv: memoryview, at: int, each: int, tag: str) -> int:
    (n,) = struct.unpack_from("<I", mv, at)
    if n > MAX_MEMBERS or len(mv) != at + 4 + n * each:
        raise SecAggFormatError(f"{tag}: {n} entries do not match the {len(mv)}-byte length")
    return int(n)


def _key_int(raw: bytes) -> int:
    k = int.from_bytes(raw, "big")
    if not 2 <= k <= DH_PRIME - 2:  # 0, 1 and p-1 would make every shared secret trivial
        raise SecAggFormatError("public key out of the group's range")
    return k


def pack_key(key: int) -> bytes:
    """``SAK1`` + the public key."""
    return b"SAK1" + int(key).to_bytes(KEY_BYTES, "big")


def unpack_key(data: bytes) -> int:
    """The public key of a ``SAK1`` message."""
    mv = _head(data, b"SAK1", KEY_BYTES)
    if len(mv) != 4 + KEY_BYTES:
        raise SecAggFormatError("SAK1 has the wrong length")
    return _key_int(bytes(mv[4:]))


def _ids_unique(ids: list[int], what: str) -> None:
    if len(set(ids)) != len(ids) or any(i < 1 for i in ids):
        raise SecAggFormatError(f"{what}: node ids must be unique and >= 1")


def pack_roster(keys: dict[int, int]) -> bytes:
    """``SAR1`` + the round's participants and their keys (ascending ids)."""
    out = [b"SAR1", struct.pack("<I", len(keys))]
    for i in sorted(keys):
        out += [struct.pack("<I", i), int(keys[i]).to_bytes(KEY_BYTES, "big")]
    return b"".join(out)


def unpack_roster(data: bytes) -> dict[int, int]:
    """Participant id -> public key of a ``SAR1`` message."""
    raw = _unpack_entries(_head(data, b"SAR1", 4), 4, KEY_BYTES, "SAR1")
    return {i: _key_int(b) for i, b in raw.items()}


def pack_boxes(boxes: dict[int, bytes], tag: bytes = b"SAS1") -> bytes:
    """``SAS1`` + (holder id, share box) entries."""
    out = [tag, struct.pack("<I", len(boxes))]
    for i in sorted(boxes):
        if len(boxes[i]) != BOX_BYTES:
            raise SecAggFormatError(f"a share box is {BOX_BYTES} bytes")
        out += [struct.pack("<I", i), boxes[i]]
    return b"".join(out)


def _unpack_entries(mv: memoryview, at: int, each: int, tag: str) -> dict[int, bytes]:
    n = _count(mv, at, 4 + each, tag)
    ids: list[int] = []
    out: dict[int, bytes] = {}
    for k in range(n):
        p = at + 4 + k * (4 + each)
        (i,) = struct.unpack_from("<I", mv, p)
        ids.append(int(i))
        out[int(i)] = bytes(mv[p + 4:p + 4 + each])
    _ids_unique(ids, tag)
    return out


def unpack_boxes(data: bytes) -> dict[int, bytes]:
    """Holder id -> share box of a ``SAS1`` message."""
    return _unpack_entries(_head(data, b"SAS1", 4), 4, BOX_BYTES, "SAS1")


def pack_forward(weight: float, boxes: dict[int, bytes]) -> bytes:
    """``SAF1`` + the holder's weight + (owner id, share box) entries."""
    return b"SAF1" + struct.pack("<d", weight) + pack_boxes(boxes, b"")


def unpack_forward(data: bytes) -> tuple[float, dict[int, bytes]]:
    """(weight, owner id -> share box) of a ``SAF1`` message; the weight must be in (0, 1]."""
    mv = _head(data, b"SAF1", 12)
    (w,) = struct.unpack_from("<d", mv, 4)
    if not (math.isfinite(w) and 0.0 < w <= 1.0):
        raise SecAggFormatError(f"SAF1 weight {w} is not in (0, 1]")
    return float(w), _unpack_entries(mv, 12, BOX_BYTES, "SAF1")


def pack_ids(ids: list[int]) -> bytes:
    """``SAU1`` + the dropped ids."""
    return b"SAU1" + struct.pack("<I", len(ids)) + b"".join(struct.pack("<I", i) for i in sorted(ids))


def unpack_ids(data: bytes) -> list[int]:
    """The dropped ids of a ``SAU1`` message."""
    mv = _head(data, b"SAU1", 4)
    n = _count(mv, 4, 4, "SAU1")
    ids = [int(v) for v in struct.unpack_from(f"<{n}I", mv, 8)]
    _ids_unique(ids, "SAU1")
    return ids


def pack_reveals(shares: dict[int, int]) -> bytes:
    """``SAV1`` + (owner id, plain share) entries."""
    out = [b"SAV1", struct.pack("<I", len(shares))]
    for i in sorted(shares):
        out += [struct.pack("<I", i), int(shares[i]).to_bytes(SHARE_BYTES, "little")]
    return b"".join(out)


def unpack_reveals(data: bytes) -> dict[int, int]:
    """Owner id -> share of a ``SAV1`` message; every share must be a field element."""
    raw = _unpack_entries(_head(data, b"SAV1", 4), 4, SHARE_BYTES, "SAV1")
    out = {i: int.from_bytes(b, "little") for i, b in raw.items()}
    if any(s >= FIELD_PRIME for s in out.values()):
        raise SecAggFormatError("SAV1: a share is not below the field prime")
    return out


def _box_keys(shared: int, owner: int, holder: int, rnd: int) -> tuple[bytes, bytes]:
    base = hashlib.sha256(shared.to_bytes(KEY_BYTES, "big") + b"bb-secagg-box"
                          + struct.pack("<IIq", owner, holder, rnd)).digest()
    stream = b"".join(hashlib.sha256(base + bytes([k])).digest() for k in range(3))[:SHARE_BYTES]
    return stream, hashlib.sha256(base + b"mac").digest()


def seal_share(share: int, shared: int, owner: int, holder: int, rnd: int) -> bytes:
    """The share box of ``owner``'s share for ``holder`` (keystream XOR + HMAC-SHA256/128)."""
    stream, mac_key = _box_keys(shared, owner, holder, rnd)
    ct = bytes(a ^ b for a, b in zip(int(share).to_bytes(SHARE_BYTES, "little"), stream, strict=True))
    return ct + hmac.new(mac_key, ct, hashlib.sha256).digest()[:TAG_BYTES]


def open_share(box: bytes, shared: int, owner: int, holder: int, rnd: int) -> int:
    """Inverse of :func:`seal_share`; :class:`SecAggFormatError` if the tag does not verify."""
    if len(box) != BOX_BYTES:
        raise SecAggFormatError("a share box has the wrong length")
    stream, mac_key = _box_keys(shared, owner, holder, rnd)
    ct, tag = box[:SHARE_BYTES], box[SHARE_BYTES:]
    if not hmac.compare_digest(hmac.new(mac_key, ct, hashlib.sha256).digest()[:TAG_BYTES], tag):
        raise SecAggFormatError(f"share box of node {owner} for node {holder} does not verify")
    share = int.from_bytes(bytes(a ^ b for a, b in zip(ct, stream, strict=True)), "little")
    if share >= FIELD_PRIME:
        raise SecAggFormatError("a share is not below the field prime")
    return share


def _round_client(node: int, secret_seed: int, frac_bits: int) -> SecAggClient:
    return SecAggClient(node=node, seed=secret_seed, frac_bits=frac_bits)


# ---------------------------------------------------------------------------
# server
# ---------------------------------------------------------------------------


@dataclass
class SecAggServer(FedAvgServer):
    """FedAvg server whose rounds run the secure-aggregation phases (see the module docstring)."""

    type_id: ClassVar[str] = "learn.handler.fedavg_secagg_server"

    threshold: int = 2
    frac_bits: int = 24
    phase: str = field(default="", init=False)  # keys | shares | masked | unmask ("" between rounds)
    phase_deadline: float = field(default=0.0, init=False)
    keys: dict[int, int] = field(default_factory=dict, init=False)  # U1 after the roster
    holders: list[int] = field(default_factory=list, init=False)  # U1, sorted (Shamir x = position + 1)
    boxes: dict[int, dict[int, bytes]] = field(default_factory=dict, init=False)  # owner -> holder -> box
    weights: dict[int, float] = field(default_factory=dict, init=False)  # U2 -> weight
    masked: dict[int, bytes] = field(default_factory=dict, init=False)  # U3 -> SAG1 bytes
    dropped: list[int] = field(default_factory=list, init=False)
    reveals: dict[int, dict[int, int]] = field(default_factory=dict, init=False)  # holder -> owner -> share
    recovered: int = field(default=0, init=False)

    def on_envelope(self, env: Envelope, peer: str, ctx: Context) -> None:
        """The secure-aggregation messages; JOIN and HEARTBEAT as FedAvg."""
        if env.edge in (Msg.SA_KEY, Msg.SA_SHARES, Msg.SA_REVEAL):
            self._on_secagg(env, ctx)
            return
        super().on_envelope(env, peer, ctx)

    def _check(self, env: Envelope, ctx: Context, phase: str, members: Any) -> bytes | None:
        """The payload of a phase message if its round, phase, sender and dtype fit; else a typed refusal."""
        sender, rnd = env.sender, env.request_id
        refused = self._refusal(ctx, sender)  # a blocked or leech-only client takes no part (sharing modes)
        if refused is not None:
            self._reject(ctx, sender, rnd, refused, f"node {sender} may not contribute ({refused.value})")
            return None
        if not self.open or rnd != self.round or self.phase != phase:
            self._reject(ctx, sender, rnd, RejectReason.STALE_ROUND,
                         f"{Msg(env.edge).name} for round {rnd} ({phase} phase); server is at round {self.round} "
                         f"({self.phase or 'closed'})")
            return None
        if sender not in members:
            self._reject(ctx, sender, rnd, RejectReason.UNKNOWN_PEER,
                         f"node {sender} is not a member of round {rnd}'s {phase} phase")
            return None
        if env.dtype != 2 or len(env.dims) != 1:
            self._reject(ctx, sender, rnd, RejectReason.WRONG_DTYPE, "secure-aggregation messages are UINT8 bytes")
            return None
        return env.payload_bytes()

    def _on_secagg(self, env: Envelope, ctx: Context) -> None:
        sender, rnd = env.sender, env.request_id
        if env.edge == Msg.SA_KEY:
            data = self._check(env, ctx, "keys", self.cohort)
            if data is None:
                return
            if sender in self.keys:
                self._reject(ctx, sender, rnd, RejectReason.DUPLICATE, "second key in this round")
                return
            try:
                key = unpack_key(data)
            except SecAggFormatError as exc:
                self._reject(ctx, sender, rnd, RejectReason.BAD_SHARE, str(exc))
                return
            self.keys[sender] = key
            if set(self.keys) >= self.cohort:
                self._roster(ctx)
        elif env.edge == Msg.SA_SHARES:
            data = self._check(env, ctx, "shares", set(self.holders))
            if data is None:
                return
            if sender in self.boxes:
                self._reject(ctx, sender, rnd, RejectReason.DUPLICATE, "second set of shares in this round")
                return
            try:
                boxes = unpack_boxes(data)
                if sorted(boxes) != self.holders:
                    raise SecAggFormatError(f"shares for {sorted(boxes)}, the round's holders are {self.holders}")
            except SecAggFormatError as exc:
                self._reject(ctx, sender, rnd, RejectReason.BAD_SHARE, str(exc))
                return
            self.boxes[sender] = boxes
            if len(self.boxes) == len(self.holders):
                self._forward(ctx)
        else:  # SA_REVEAL
            data = self._check(env, ctx, "unmask", set(self.masked))
            if data is None:
                return
            if sender in self.reveals:
                self._reject(ctx, sender, rnd, RejectReason.DUPLICATE, "second reveal in this round")
                return
            try:
                shares = unpack_reveals(data)
                if sorted(shares) != self.dropped:
                    raise SecAggFormatError(f"reveals for {sorted(shares)}, the dropped are {self.dropped}")
            except SecAggFormatError as exc:
                self._reject(ctx, sender, rnd, RejectReason.BAD_SHARE, str(exc))
                return
            self.reveals[sender] = shares
            if len(self.reveals) == len(self.masked):
                self._finish(ctx)

    def _on_update(self, env: Envelope, ctx: Context) -> None:
        """A masked update (``SAG1``) of a member of U2 in the masked phase."""
        data = self._check(env, ctx, "masked", set(self.weights))
        if data is None:
            return
        sender, rnd = env.sender, env.request_id
        if sender in self.masked:
            self._reject(ctx, sender, rnd, RejectReason.DUPLICATE, "second update in this round")
            return
        mv = memoryview(data)
        ok = len(mv) == 12 + 4 * self.size and bytes(mv[:4]) == b"SAG1"
        if not ok or struct.unpack_from("<II", mv, 4) != (sender, self.size):
            self._reject(ctx, sender, rnd, RejectReason.WRONG_SHAPE,
                         f"a masked update is SAG1 | node {sender} | {self.size} x u32")
            return
        self.masked[sender] = bytes(data)
        if len(self.masked) == len(self.weights):
            self._finish(ctx)

    # ---------------------------------------------------------------- phases

    def _need(self) -> int:
        return max(self.threshold, self.min_clients)

    def _enter(self, ctx: Context, phase: str) -> None:
        # every phase has its own round_timeout; the base tick ends it at ``deadline`` through _close
        self.phase, self.phase_deadline = phase, ctx.now + self.round_timeout
        self.deadline = self.phase_deadline

    def _abort(self, ctx: Context, got: int, why: str) -> None:
        self.open, self.phase = False, ""
        self.aborted += 1
        ctx.emit(lev.RoundAborted(self.strategy, self.round, got, self._need(), why))
        self._reset()

    def _reset(self) -> None:
        self.keys, self.holders, self.boxes, self.weights = {}, [], {}, {}
        self.masked, self.dropped, self.reveals, self.received = {}, [], {}, {}

    def _start(self, ctx: Context) -> None:
        self._reset()
        super()._start(ctx)  # opens the round and sends MODEL (plain: the global model is not secret)
        if self.open:
            self._enter(ctx, "keys")

    def _names(self, ctx: Context) -> dict[int, str]:
        names = {v: k for k, v in ctx.peers.items()}
        names[ctx.node_id] = ctx.node
        return names

    def _roster(self, ctx: Context) -> None:
        if len(self.keys) < self._need():
            self._abort(ctx, len(self.keys), f"{len(self.keys)} keys, secure aggregation needs {self._need()}")
            return
        self.holders = sorted(self.keys)
        payload = pack_roster(self.keys)
        names = self._names(ctx)
        for c in self.holders:
            ctx.send_bytes(names[c], payload, protocol=self.client_protocol, edge=int(Msg.SA_ROSTER),
                           request_id=self.round)
        self._enter(ctx, "shares")

    def _forward(self, ctx: Context) -> None:
        u2 = sorted(self.boxes)
        if len(u2) < self._need():
            self._abort(ctx, len(u2), f"{len(u2)} clients shared their secret, secure aggregation needs "
                                      f"{self._need()}")
            return
        total = float(sum(self.clients[c] for c in u2))
        self.weights = {c: self.clients[c] / total for c in u2}
        names = self._names(ctx)
        for y in u2:
            payload = pack_forward(self.weights[y], {x: self.boxes[x][y] for x in u2})
            ctx.send_bytes(names[y], payload, protocol=self.client_protocol, edge=int(Msg.SA_SHARES),
                           request_id=self.round)
        self.boxes = {x: {} for x in u2}  # routed: the server keeps who shared, not the boxes
        self._enter(ctx, "masked")

    def _finish(self, ctx: Context) -> None:
        """End of the masked phase (all in, or the deadline) or of the unmask phase."""
        if self.phase == "masked":
            if len(self.masked) < self._need():
                self._abort(ctx, len(self.masked), f"deadline passed with {len(self.masked)} of "
                                                   f"{len(self.weights)} masked updates")
                return
            self.dropped = sorted(set(self.weights) - set(self.masked))
            if self.dropped:  # ask the survivors for the dropped clients' shares
                payload = pack_ids(self.dropped)
                names = self._names(ctx)
                for s in sorted(self.masked):
                    ctx.send_bytes(names[s], payload, protocol=self.client_protocol, edge=int(Msg.SA_UNMASK),
                                   request_id=self.round)
                self._enter(ctx, "unmask")
                return
        elif len(self.reveals) < self.threshold:
            self._abort(ctx, len(self.reveals), f"{len(self.reveals)} survivors revealed shares, the threshold "
                                                f"is {self.threshold}")
            return
        shares = {d: {h: got[d] for h, got in self.reveals.items()} for d in self.dropped}
        try:
            total = secagg_unmask_sum(self.masked, {c: self.keys[c] for c in self.weights}, shares, self.holders,
                                      self.frac_bits)
        except LearnError as exc:
            self._abort(ctx, len(self.masked), f"unmasking failed: {exc}")
            return
        mean = total / float(sum(self.weights[c] for c in self.masked))
        if self.dropped:
            self.recovered += len(self.dropped)
            ctx.emit(lev.SecAggRecovered(self.strategy, self.round, len(self.dropped), len(self.masked)))
        model: ModelState = ctx.binding("model")
        assert model.vector is not None
        agg = ctx.binding("aggregator")
        step = np.asarray(agg.aggregate([mean.astype(np.float32)], [1.0]), dtype=np.float32)
        self.open, self.phase = False, ""
        if not np.isfinite(step).all():
            self.aborted += 1
            ctx.emit(lev.RoundAborted(self.strategy, self.round, len(self.masked), self._need(),
                                      "aggregate is not finite"))
            self._reset()
            return
        model.set(model.vector + step, self.round)
        ctx.emit(lev.RoundCompleted(self.strategy, self.round, len(self.masked), len(self.cohort),
                                    len(self.masked) < len(self.cohort)))
        self._reset()

    def _close(self, ctx: Context) -> None:
        """The base tick calls this at ``deadline``, the current phase's deadline: end the phase."""
        if self.phase == "keys":
            self._roster(ctx)
        elif self.phase == "shares":
            self._forward(ctx)
        elif self.phase in ("masked", "unmask"):
            self._finish(ctx)


# ---------------------------------------------------------------------------
# client
# ---------------------------------------------------------------------------


@dataclass
class SecAggFedClient(FedAvgClient):
    """FedAvg client that answers a round with the secure-aggregation phases (see the module docstring)."""

    type_id: ClassVar[str] = "learn.handler.fedavg_secagg_client"

    threshold: int = 2
    frac_bits: int = 24
    withhold: bool = False  # fault injection: share, then never send the masked update (a dropout)
    sa_round: int = field(default=0, init=False)
    sa_seed: int = field(default=0, init=False)  # this round's secret seed (fresh entropy every round)
    sa_key: int = field(default=0, init=False)  # this round's public key
    shared: dict[int, int] = field(default_factory=dict, init=False)  # roster id -> DH shared secret (once)
    delta: np.ndarray | None = field(default=None, init=False)
    roster: dict[int, int] = field(default_factory=dict, init=False)
    held: dict[int, int] = field(default_factory=dict, init=False)  # owner -> the share this node holds
    sent_update: bool = field(default=False, init=False)

    def _me(self, ctx: Context) -> SecAggClient:
        return _round_client(ctx.node_id, self.sa_seed, self.frac_bits)

    def _refuse(self, ctx: Context, rnd: int, detail: str) -> None:
        ctx.emit(lev.UpdateRejected(self.strategy, ctx.peers.get(self.server, 0), rnd,
                                    RejectReason.BAD_SHARE.value, detail))

    def on_envelope(self, env: Envelope, peer: str, ctx: Context) -> None:
        """MODEL (key, then train), SA_ROSTER (share), SA_SHARES (mask and send), SA_UNMASK (reveal)."""
        if peer != self.server:
            return
        if env.edge == Msg.MODEL:
            self._on_model(env, ctx)
            return
        if env.edge not in (Msg.SA_ROSTER, Msg.SA_SHARES, Msg.SA_UNMASK):
            super().on_envelope(env, peer, ctx)  # MODEL_FULL
            return
        rnd = env.request_id
        if rnd != self.sa_round or self.delta is None or env.dtype != 2 or len(env.dims) != 1:
            self._refuse(ctx, rnd, f"{Msg(env.edge).name} for round {rnd} does not fit (at round {self.sa_round})")
            return
        try:
            if env.edge == Msg.SA_ROSTER:
                self._on_roster(env.payload_bytes(), ctx)
            elif env.edge == Msg.SA_SHARES:
                self._on_forward(env.payload_bytes(), ctx)
            else:
                self._on_unmask(env.payload_bytes(), ctx)
        except SecAggFormatError as exc:  # nothing was changed: every check runs before any assignment
            self._refuse(ctx, rnd, str(exc))

    def _on_model(self, env: Envelope, ctx: Context) -> None:
        vec, _ = read_vector(env)
        if vec is None or vec.size != self.program.layout.size or not np.isfinite(vec).all():
            return
        rnd = env.request_id
        # a fresh secret each round: masks never repeat, and nothing in the deployment derives them
        self.sa_round, self.sa_seed = rnd, int.from_bytes(os.urandom(7), "little")
        self.sa_key = self._me(ctx).public_key()
        self.roster, self.shared, self.held, self.delta, self.sent_update = {}, {}, {}, None, False
        ctx.send_bytes(self.server, pack_key(self.sa_key), protocol=self.server_protocol,
                       edge=int(Msg.SA_KEY), request_id=rnd)
        start = vec.reshape(-1).astype(np.float32)
        x, y = ctx.binding("data").arrays()
        trained = self._train_local(ctx, start, x, y, rnd, ctx.binding("model"))
        self.delta = (trained - start).astype(np.float32)
        self.last_sent = ctx.now

    def _on_roster(self, data: bytes, ctx: Context) -> None:
        roster = unpack_roster(data)
        me = self._me(ctx)
        if roster.get(ctx.node_id) != self.sa_key:
            raise SecAggFormatError("the roster does not carry this node's key")
        if len(roster) < self.threshold:
            raise SecAggFormatError(f"a roster of {len(roster)} is below the threshold {self.threshold}")
        if self.roster:
            raise SecAggFormatError("second roster in this round")
        holders = sorted(roster)
        shares = me.share_secret(holders, self.threshold)
        secret = me._secret()
        shared = {h: pow(roster[h], secret, DH_PRIME) for h in holders}  # the round's only exponentiations
        boxes = {h: seal_share(shares[h], shared[h], ctx.node_id, h, self.sa_round) for h in holders}
        self.roster, self.shared = roster, shared
        ctx.send_bytes(self.server, pack_boxes(boxes), protocol=self.server_protocol, edge=int(Msg.SA_SHARES),
                       request_id=self.sa_round)
        self.last_sent = ctx.now

    def _on_forward(self, data: bytes, ctx: Context) -> None:
        weight, boxes = unpack_forward(data)
        if not self.roster or self.held or self.sent_update:
            raise SecAggFormatError("shares forwarded out of order")
        if ctx.node_id not in boxes or not set(boxes) <= set(self.roster):
            raise SecAggFormatError("forwarded shares name nodes outside the roster (or not this node)")
        held = {o: open_share(b, self.shared[o], o, ctx.node_id, self.sa_round) for o, b in boxes.items()}
        assert self.delta is not None
        vec = self.delta.astype(np.float64) * weight
        limit = 2.0 ** (31 - self.frac_bits) / len(boxes)
        if not np.isfinite(vec).all() or float(np.abs(vec).max(initial=0.0)) >= limit:
            raise SecAggFormatError(f"the weighted update leaves the fixed-point range (|v| < {limit:g}); "
                                    "lower secagg.frac_bits")
        self.held = held
        if self.withhold:  # fault injection: this client drops out between sharing and masking
            ctx.emit(lev.SecAggWithheld(self.strategy, self.sa_round))
            return
        payload = self._me(ctx).masked(vec, {o: self.shared[o] for o in boxes})  # masks over U2 only
        ctx.send_bytes(self.server, payload, protocol=self.server_protocol, edge=int(Msg.UPDATE),
                       request_id=self.sa_round)
        self.sent_update = True
        self.last_sent = ctx.now

    def _on_unmask(self, data: bytes, ctx: Context) -> None:
        dropped = unpack_ids(data)
        if not self.sent_update or ctx.node_id in dropped or not set(dropped) <= set(self.held):
            raise SecAggFormatError("unmask request names this node, or nodes whose shares it does not hold")
        ctx.send_bytes(self.server, pack_reveals({d: self.held[d] for d in dropped}), protocol=self.server_protocol,
                       edge=int(Msg.SA_REVEAL), request_id=self.sa_round)
        self.last_sent = ctx.now


def check_secagg_config(spec: Any, clients: int, aggregator: Any) -> dict[str, Any]:
    """The validated ``secagg`` object of a learning config: ``threshold``, ``frac_bits``, ``withhold``."""
    if spec is True:
        spec = {}
    if not isinstance(spec, dict):
        raise ConfigError(f"'secagg' must be an object (threshold, frac_bits, withhold), got {spec!r}")
    unknown = set(spec) - {"threshold", "frac_bits", "withhold"}
    if unknown:
        raise ConfigError(f"unknown secagg settings {sorted(unknown)}; use threshold, frac_bits, withhold")
    t = spec.get("threshold", clients // 2 + 1)
    fb = spec.get("frac_bits", 24)
    if isinstance(t, bool) or not isinstance(t, int) or not 2 <= t <= clients:
        raise ConfigError(f"secagg.threshold must be an integer in 2..{clients} (the clients), got {t!r}")
    if isinstance(fb, bool) or not isinstance(fb, int) or not 8 <= fb <= 28:
        raise ConfigError(f"secagg.frac_bits must be an integer in 8..28, got {fb!r}")
    withhold = spec.get("withhold", [])
    if not isinstance(withhold, list) or not all(isinstance(w, str) for w in withhold):
        raise ConfigError("secagg.withhold must be a list of client names")
    agg_type = aggregator.get("type") if isinstance(aggregator, dict) else aggregator
    if agg_type not in SECAGG_AGGREGATORS:
        raise ConfigError(f"secure aggregation yields one summed vector: the aggregator must be one of "
                          f"{SECAGG_AGGREGATORS}, not {agg_type!r}")
    return {"threshold": t, "frac_bits": fb, "withhold": list(withhold)}
