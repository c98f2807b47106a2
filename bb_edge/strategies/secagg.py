"""FedAvg with secure aggregation over the wire (Bonawitz et al., CCS 2017: double masking, dropouts, bad shares).

The server learns only the weighted sum of the surviving clients' updates.
Each client holds two X25519 key pairs: ``c`` to encrypt the shares it sends
its peers (AES-256-GCM, keyed per ordered pair, round and the owner's ``s_pk``
of the round; drawn once and kept across rounds with its agreements, since
nothing ever reveals it) and ``s``, fresh every round, to agree a pairwise
mask seed with every peer. Its fixed-point update
carries a *self mask* (from a fresh seed ``b``) and the *pairwise masks*,
which cancel in the sum. It Shamir-shares both ``b`` and its ``s`` secret
among the round's participants. After the masked updates are in, every
survivor reveals, per member of the round, exactly one kind of secret: a share
of ``b`` for a member the server says survived, a share of ``s`` (or, when it
never held a valid share, the pairwise seed itself) for one it says dropped.
A server that lies about who dropped therefore never holds both kinds for one
client, and cannot unmask it (double masking).

Why one file: the message codecs, the share sealing and the two handlers are one protocol. A change to
a message's layout touches its pack/unpack pair and both ends, which a reader checks here at once.

One round, as envelopes (protocol ids of FedAvg; ``request_id`` = round;
every payload is one UINT8 envelope with a 4-byte tag, little-endian)::

    server -> cohort    MODEL      the global model (float32, never masked)
    client -> server    SA_KEY     SAK2 | c_pk (32) | s_pk (32)                       then it trains
    server -> all       SA_ROSTER  SAR2 | u32 n | n x (u32 id | c_pk | s_pk)          U1: who sent keys
    client -> server    SA_SHARES  SAS2 | u32 n | n x (u32 holder | box)              one box per other member of U1
    server -> each y    SA_SHARES  SAF2 | f64 weight | u32 n | n x (u32 owner | box)  U2 but y: who shared
    client -> server    UPDATE     SAG2 | u32 node | u32 size | u32 nbad | nbad x u32 | size x u32 (masked)
    server -> all       SA_UNMASK  SAU2 | u32 ns | ns x u32 survivor | u32 nd | nd x u32 dropped
    client -> server    SA_REVEAL  SAV2 | u32 n | n x (u32 owner | u8 kind | 32 bytes)

A *share box* (80 bytes) is AES-256-GCM over the owner's two 32-byte Shamir
shares (of ``b`` and of ``s``, in GF(2^255 - 19)), keyed by SHA-256 of the
``c`` key agreement, owner, holder and round: the server, which routes the
boxes, can neither read nor forge them. A box that fails to open at its holder
is attributed to its owner: the holder reports the owner in its masked update
(``nbad``) and emits :class:`~bb_edge.strategies.events.UpdateRejected`
(``bad_share``, sender = the owner); the server moves every reported owner to
the dropped set, names it in its own ``bad_share`` refusal, and the round
completes with the others (a survivor reveals the pairwise seed it shares with
an owner whose box it could not open). Reveal kinds: 0 a ``b`` share of a
survivor, 1 an ``s`` share of a dropped client, 2 the pairwise seed with a
dropped client.

The server tells each client its aggregation *weight* (its admitted sample
count over the sum of U2's), the client masks ``weight * delta`` and the
server divides the unmasked sum by the survivors' total weight: the
sample-weighted mean of the survivors' updates, as the plain
:class:`~bb_edge.learn.aggregators.Mean` computes it (up to the fixed point,
``frac_bits``).

Every phase waits for all of its members or ``round_timeout``; a phase with
fewer than ``max(threshold, min_clients)`` members aborts the round
(:class:`~bb_edge.strategies.events.RoundAborted`). Every message is validated
before it changes state; a malformed or out-of-phase one is an
:class:`~bb_edge.strategies.events.UpdateRejected` (``bad_share`` for keys,
boxes and reveals that fail their checks, ``stale_round``, ``unknown_peer``,
``duplicate``).

Limits: semi-honest to a malicious server in the sense of Bonawitz et al.'s
unauthenticated variant: there is no signature round (a server that forges a
client's keys in the roster is not detected); a garbage ``b`` share revealed
by a survivor corrupts the sum (no commitment to ``b``), so the round yields
a wrong model rather than a leak. The server cannot check an individual
update's norm (there is none to see). ``withhold`` and ``garble`` (lists of
client names) are fault injection for tests and simulations: a withholding
client shares and never sends its masked update; a garbling client seals
random bytes instead of its share boxes for the others and
otherwise runs the round (it sends a masked update the server must leave out).
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from bb_edge.engine.context import Context
from bb_edge.learn.codecs import CodecError, from_fixed, to_fixed
from bb_edge.learn.roles import ConfigError
from bb_edge.learn.validation import RejectReason
from bb_edge.strategies import events as lev
from bb_edge.strategies.base import ModelState, Msg, read_vector
from bb_edge.strategies.fedavg import FedAvgClient, FedAvgServer
from bb_edge.wire.envelope import Envelope

__all__ = ["SecAggServer", "SecAggFedClient", "SecAggFormatError", "KEY_BYTES", "SHARE_BYTES", "BOX_BYTES",
           "SHARE_PRIME", "pack_key", "unpack_key", "pack_roster", "unpack_roster", "pack_boxes", "unpack_boxes",
           "pack_forward", "unpack_forward", "pack_unmask", "unpack_unmask", "pack_reveals", "unpack_reveals",
           "pack_masked", "unpack_masked", "seal_shares", "open_shares", "shamir_split", "shamir_combine",
           "SECAGG_AGGREGATORS", "LOW_ORDER", "REVEAL_B", "REVEAL_S", "REVEAL_PAIR"]

KEY_BYTES = 64  # c_pk | s_pk, two X25519 public keys
SHARE_BYTES = 32  # a Shamir share in GF(2^255 - 19)
TAG_BYTES = 16
BOX_BYTES = 2 * SHARE_BYTES + TAG_BYTES
SHARE_PRIME = 2**255 - 19
MAX_MEMBERS = 4096  # bounds every count a peer sends before anything is allocated
REVEAL_B, REVEAL_S, REVEAL_PAIR = 0, 1, 2
# the aggregators that make sense on the one (unmasked, already averaged) vector secure aggregation yields
SECAGG_AGGREGATORS = ("mean", "fedavgm", "fedadam", "fedyogi")
_NONCE = bytes(12)  # every box key is used once (fresh keys per round, one key per ordered pair)
# the u-coordinates of X25519's small-order points (libsodium's blocklist, reduced mod p): an agreement with
# any of them is all zeros (tests/learn/test_learn_secagg_mqtt.py checks each against the library)
LOW_ORDER = frozenset({0, 1, SHARE_PRIME - 1,
                       325606250916557431795983626356110631294008115727848805560023387167927233504,
                       39382357235489614581723060781553021112529911719440698176882885853963445705823})


class SecAggFormatError(CodecError):
    """A secure-aggregation message is malformed (wrong tag, length, count, id or value range)."""


# ---------------------------------------------------------------------------
# arithmetic: Shamir shares in GF(2^255 - 19), masks from AES-CTR
# ---------------------------------------------------------------------------


def shamir_split(secret: int, xs: Sequence[int], t: int) -> dict[int, int]:
    """Shares ``x -> f(x)`` of a random degree t-1 polynomial with f(0) = secret (fresh OS entropy)."""
    if not 1 <= t <= len(xs):
        raise ConfigError(f"Shamir threshold {t} must be in 1..{len(xs)}")
    coeffs = [secret % SHARE_PRIME] + [int.from_bytes(os.urandom(40), "little") % SHARE_PRIME for _ in range(t - 1)]
    out = {}
    for x in xs:
        acc = 0
        for c in reversed(coeffs):
            acc = (acc * x + c) % SHARE_PRIME
        out[x] = acc
    return out


def shamir_combine(shares: Mapping[int, int]) -> int:
    """Lagrange interpolation at 0 of ``x -> share``."""
    total = 0
    for xi, yi in shares.items():
        num, den = 1, 1
        for xj in shares:
            if xj != xi:
                num = num * -xj % SHARE_PRIME
                den = den * (xi - xj) % SHARE_PRIME
        total = (total + yi * num * pow(den, -1, SHARE_PRIME)) % SHARE_PRIME
    return total


# looked up once: the library's module attributes go through a deprecation hook on every access
_AES, _CTR, _IV = algorithms.AES, modes.CTR, bytes(16)


@functools.lru_cache(maxsize=8)
def _zeros(nbytes: int) -> bytes:
    """``nbytes`` zero bytes (the plaintext whose encryption is the keystream), made once per model size."""
    return bytes(nbytes)


def _prg(key: bytes, n: int) -> np.ndarray:
    """``n`` uint32 of AES-256-CTR keystream under ``key`` (one call into the library, no per-element Python)."""
    enc = Cipher(_AES(key), _CTR(_IV)).encryptor()
    return np.frombuffer(enc.update(_zeros(4 * n)), dtype="<u4").astype(np.uint32)


def _self_mask(b: int, rnd: int, n: int) -> np.ndarray:
    return _prg(hashlib.sha256(b"bb-sa2-self" + b.to_bytes(32, "little") + struct.pack("<q", rnd)).digest(), n)


def _pair_mask(seed: bytes, me: int, other: int, rnd: int, n: int) -> np.ndarray:
    """The mask ``me`` adds for the pair (me, other): +PRG for the lower id, -PRG for the higher."""
    lo, hi = min(me, other), max(me, other)
    m = _prg(hashlib.sha256(b"bb-sa2-pair" + seed + struct.pack("<qII", rnd, lo, hi)).digest(), n)
    return m if me < other else (np.uint32(0) - m).astype(np.uint32)


@functools.lru_cache(maxsize=1024)
def _priv(secret: int) -> X25519PrivateKey:
    """The key object of a round secret (cached: building one costs as much as an agreement)."""
    return X25519PrivateKey.from_private_bytes(int(secret).to_bytes(32, "little"))


def _pub(secret: int) -> bytes:
    return _priv(secret).public_key().public_bytes_raw()


def _agree(secret: int, public: bytes) -> bytes:
    return _agree_all(secret, [public])[0]


@functools.lru_cache(maxsize=4096)
def _public(raw: bytes) -> X25519PublicKey:
    """The key object of 32 public key bytes (cached: a peer's long-lived ``c`` key comes every round)."""
    return X25519PublicKey.from_public_bytes(raw)


def _agree_all(secret: int, publics: Sequence[bytes]) -> list[bytes]:
    """The X25519 agreements of one secret with each public key; a low-order key is a format error."""
    priv = _priv(secret)
    try:
        return [priv.exchange(_public(bytes(p))) for p in publics]
    except ValueError as exc:
        raise SecAggFormatError("a public key is a low-order point") from exc


def _fresh_secret() -> int:
    return int.from_bytes(os.urandom(40), "little") % SHARE_PRIME


# ---------------------------------------------------------------------------
# message formats (pure functions; every unpack validates before returning)
# ---------------------------------------------------------------------------


def _head(data: bytes, tag: bytes, fixed: int) -> memoryview:
    mv = memoryview(data)
    if len(mv) < 4 + fixed or bytes(mv[:4]) != tag:
        raise SecAggFormatError(f"not a {tag.decode()} message (or truncated)")
    return mv


def _count(mv: memoryview, at: int, each: int, tag: str, exact: bool = True) -> int:
    if len(mv) < at + 4:
        raise SecAggFormatError(f"{tag} is truncated")
    (n,) = struct.unpack_from("<I", mv, at)
    end = at + 4 + n * each
    if n > MAX_MEMBERS or (len(mv) != end if exact else len(mv) < end):
        raise SecAggFormatError(f"{tag}: {n} entries do not match the {len(mv)}-byte length")
    return int(n)


def _ids_unique(ids: Sequence[int], what: str) -> None:
    if len(set(ids)) != len(ids) or any(i < 1 for i in ids):
        raise SecAggFormatError(f"{what}: node ids must be unique and >= 1")


def _check_key(raw: bytes) -> bytes:
    """Two X25519 public keys whose agreements are not trivial (low-order points are refused)."""
    if len(raw) != KEY_BYTES:
        raise SecAggFormatError(f"a key entry is {KEY_BYTES} bytes")
    for k in (raw[:32], raw[32:]):
        # RFC 7748 ignores bit 255 and reduces mod p; every small-order u (curve and twist) is listed
        if (int.from_bytes(k, "little") & ((1 << 255) - 1)) % SHARE_PRIME in LOW_ORDER:
            raise SecAggFormatError("a public key is a low-order point")
    return bytes(raw)


def pack_key(keys: bytes) -> bytes:
    """``SAK2`` + c_pk + s_pk."""
    return b"SAK2" + bytes(keys)


def unpack_key(data: bytes) -> bytes:
    """The 64 key bytes of a ``SAK2`` message."""
    mv = _head(data, b"SAK2", KEY_BYTES)
    if len(mv) != 4 + KEY_BYTES:
        raise SecAggFormatError("SAK2 has the wrong length")
    return _check_key(bytes(mv[4:]))


def _unpack_entries(mv: memoryview, at: int, each: int, tag: str) -> dict[int, bytes]:
    n = _count(mv, at, 4 + each, tag)
    raw = bytes(mv[at + 4:])
    ids = np.frombuffer(raw, dtype=np.dtype([("id", "<u4"), ("v", f"V{each}")]), count=n)["id"].tolist()
    _ids_unique(ids, tag)
    stride = 4 + each
    return {i: raw[k * stride + 4:(k + 1) * stride] for k, i in enumerate(ids)}


def _pack_entries(tag: bytes, entries: Mapping[int, bytes], each: int) -> bytes:
    out = [tag, struct.pack("<I", len(entries))]
    for i in sorted(entries):
        if len(entries[i]) != each:
            raise SecAggFormatError(f"an entry of {tag.decode() or 'SAF2'} is {each} bytes")
        out += [struct.pack("<I", i), entries[i]]
    return b"".join(out)


def pack_roster(keys: Mapping[int, bytes]) -> bytes:
    """``SAR2`` + the round's participants and their keys (ascending ids)."""
    return _pack_entries(b"SAR2", keys, KEY_BYTES)


def unpack_roster(data: bytes) -> dict[int, bytes]:
    """Participant id -> 64 key bytes of a ``SAR2`` message (a low-order key fails at its agreement)."""
    return _unpack_entries(_head(data, b"SAR2", 4), 4, KEY_BYTES, "SAR2")


def pack_boxes(boxes: Mapping[int, bytes], tag: bytes = b"SAS2") -> bytes:
    """``SAS2`` + (holder id, share box) entries."""
    return _pack_entries(tag, boxes, BOX_BYTES)


def unpack_boxes(data: bytes) -> dict[int, bytes]:
    """Holder id -> share box of a ``SAS2`` message."""
    return _unpack_entries(_head(data, b"SAS2", 4), 4, BOX_BYTES, "SAS2")


def pack_forward(weight: float, boxes: Mapping[int, bytes]) -> bytes:
    """``SAF2`` + the holder's weight + (owner id, share box) entries."""
    return b"SAF2" + struct.pack("<d", weight) + pack_boxes(boxes, b"")


def unpack_forward(data: bytes) -> tuple[float, dict[int, bytes]]:
    """(weight, owner id -> share box) of a ``SAF2`` message; the weight must be in (0, 1]."""
    mv = _head(data, b"SAF2", 12)
    (w,) = struct.unpack_from("<d", mv, 4)
    if not (math.isfinite(w) and 0.0 < w <= 1.0):
        raise SecAggFormatError(f"SAF2 weight {w} is not in (0, 1]")
    return float(w), _unpack_entries(mv, 12, BOX_BYTES, "SAF2")


def _ids_at(mv: memoryview, at: int, tag: str, exact: bool) -> tuple[list[int], int]:
    n = _count(mv, at, 4, tag, exact)
    ids = [int(v) for v in struct.unpack_from(f"<{n}I", mv, at + 4)]
    _ids_unique(ids, tag)
    return ids, at + 4 + 4 * n


def pack_unmask(survivors: Sequence[int], dropped: Sequence[int]) -> bytes:
    """``SAU2`` + the survivors + the dropped."""
    return (b"SAU2" + struct.pack("<I", len(survivors)) + b"".join(struct.pack("<I", i) for i in sorted(survivors))
            + struct.pack("<I", len(dropped)) + b"".join(struct.pack("<I", i) for i in sorted(dropped)))


def unpack_unmask(data: bytes) -> tuple[list[int], list[int]]:
    """(survivors, dropped) of a ``SAU2`` message: disjoint id lists."""
    mv = _head(data, b"SAU2", 8)
    surv, at = _ids_at(mv, 4, "SAU2", exact=False)
    dropped, _ = _ids_at(mv, at, "SAU2", exact=True)
    if set(surv) & set(dropped):
        raise SecAggFormatError("SAU2 names a node both survived and dropped")
    return surv, dropped


def pack_reveals(reveals: Mapping[int, tuple[int, bytes]]) -> bytes:
    """``SAV2`` + (owner id, kind, 32 bytes) entries."""
    out = [b"SAV2", struct.pack("<I", len(reveals))]
    for i in sorted(reveals):
        kind, val = reveals[i]
        out += [struct.pack("<IB", i, kind), val]
    return b"".join(out)


def unpack_reveals(data: bytes) -> dict[int, tuple[int, bytes]]:
    """Owner id -> (kind, 32 bytes) of a ``SAV2`` message; shares must be field elements."""
    raw = _unpack_entries(_head(data, b"SAV2", 4), 4, 1 + SHARE_BYTES, "SAV2")
    out = {i: (b[0], b[1:]) for i, b in raw.items()}
    for kind, val in out.values():
        if kind not in (REVEAL_B, REVEAL_S, REVEAL_PAIR):
            raise SecAggFormatError(f"SAV2: unknown reveal kind {kind}")
        if kind != REVEAL_PAIR and int.from_bytes(val, "little") >= SHARE_PRIME:
            raise SecAggFormatError("SAV2: a share is not below the field prime")
    return out


def pack_masked(node: int, bad: Sequence[int], values: np.ndarray) -> bytes:
    """``SAG2`` + node + size + the owners whose boxes failed + the masked uint32 values."""
    return (b"SAG2" + struct.pack("<III", node, values.size, len(bad))
            + b"".join(struct.pack("<I", i) for i in sorted(bad)) + values.astype("<u4").tobytes())


def unpack_masked(data: bytes) -> tuple[int, list[int], np.ndarray]:
    """(node, bad owners, masked values) of a ``SAG2`` message."""
    mv = _head(data, b"SAG2", 12)
    node, size = struct.unpack_from("<II", mv, 4)
    bad, at = _ids_at(mv, 12, "SAG2", exact=False)
    if len(mv) != at + 4 * size:
        raise SecAggFormatError(f"SAG2 of {size} values has the wrong length")
    return int(node), bad, np.frombuffer(mv[at:], dtype="<u4").astype(np.uint32)


def _box_key(c_shared: bytes, owner: int, holder: int, rnd: int, salt: bytes = b"") -> bytes:
    return hashlib.sha256(b"bb-sa2-box" + c_shared + struct.pack("<IIq", owner, holder, rnd) + salt).digest()


def _aad(owner: int, holder: int, rnd: int) -> bytes:
    return b"SAB2" + struct.pack("<IIq", owner, holder, rnd)


def seal_shares(b_share: int, s_share: int, c_shared: bytes, owner: int, holder: int, rnd: int,
                salt: bytes = b"") -> bytes:
    """The share box of ``owner``'s two shares for ``holder`` (AES-256-GCM, 80 bytes).

    ``salt``: the owner's ``s_pk`` of the round (fresh every round), so a box key is never used twice even
    when the ``c`` key is kept across rounds and a round number comes again."""
    plain = int(b_share).to_bytes(SHARE_BYTES, "little") + int(s_share).to_bytes(SHARE_BYTES, "little")
    return AESGCM(_box_key(c_shared, owner, holder, rnd, salt)).encrypt(_NONCE, plain, _aad(owner, holder, rnd))


def open_shares(box: bytes, c_shared: bytes, owner: int, holder: int, rnd: int,
                salt: bytes = b"") -> tuple[int, int]:
    """Inverse of :func:`seal_shares`; :class:`SecAggFormatError` if the box does not verify."""
    if len(box) != BOX_BYTES:
        raise SecAggFormatError("a share box has the wrong length")
    try:
        plain = AESGCM(_box_key(c_shared, owner, holder, rnd, salt)).decrypt(_NONCE, box, _aad(owner, holder, rnd))
    except InvalidTag as exc:
        raise SecAggFormatError(f"share box of node {owner} for node {holder} does not verify") from exc
    b, s = int.from_bytes(plain[:SHARE_BYTES], "little"), int.from_bytes(plain[SHARE_BYTES:], "little")
    if b >= SHARE_PRIME or s >= SHARE_PRIME:
        raise SecAggFormatError("a share is not below the field prime")
    return b, s


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
    keys: dict[int, bytes] = field(default_factory=dict, init=False)  # U1 after the roster: c_pk | s_pk
    holders: list[int] = field(default_factory=list, init=False)  # U1, sorted (Shamir x = position + 1)
    boxes: dict[int, dict[int, bytes]] = field(default_factory=dict, init=False)  # owner -> holder -> box
    weights: dict[int, float] = field(default_factory=dict, init=False)  # U2 -> weight
    masked: dict[int, bytes] = field(default_factory=dict, init=False)  # U3 -> SAG2 bytes
    bad: dict[int, list[int]] = field(default_factory=dict, init=False)  # owner -> holders that could not open
    survivors: list[int] = field(default_factory=list, init=False)
    dropped: list[int] = field(default_factory=list, init=False)
    reveals: dict[int, dict[int, tuple[int, bytes]]] = field(default_factory=dict, init=False)  # holder -> ...
    recovered: int = field(default=0, init=False)
    bad_dropped: int = field(default=0, init=False)

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
                want = [h for h in self.holders if h != sender]
                if sorted(boxes) != want:
                    raise SecAggFormatError(f"shares for {sorted(boxes)}, the round's other holders are {want}")
            except SecAggFormatError as exc:
                self._reject(ctx, sender, rnd, RejectReason.BAD_SHARE, str(exc))
                return
            self.boxes[sender] = boxes
            if len(self.boxes) == len(self.holders):
                self._forward(ctx)
        else:  # SA_REVEAL
            data = self._check(env, ctx, "unmask", set(self.survivors))
            if data is None:
                return
            if sender in self.reveals:
                self._reject(ctx, sender, rnd, RejectReason.DUPLICATE, "second reveal in this round")
                return
            try:
                got = self._valid_reveals(unpack_reveals(data))
            except SecAggFormatError as exc:
                self._reject(ctx, sender, rnd, RejectReason.BAD_SHARE, str(exc))
                return
            self.reveals[sender] = got
            if len(self.reveals) == len(self.survivors):
                self._finish(ctx)

    def _valid_reveals(self, got: dict[int, tuple[int, bytes]]) -> dict[int, tuple[int, bytes]]:
        """A survivor reveals one secret per dropped member and at most one per survivor, of the right kind."""
        surv, dropped = set(self.survivors), set(self.dropped)
        if not dropped <= set(got) or not set(got) <= surv | dropped:
            raise SecAggFormatError(f"reveals for {sorted(got)}: every dropped {sorted(dropped)} and only "
                                    f"survivors {sorted(surv)}")
        for owner, (kind, _) in got.items():
            if (kind == REVEAL_B) != (owner in surv):
                raise SecAggFormatError(f"reveal of kind {kind} for node {owner} does not fit its status")
        return got

    def _on_update(self, env: Envelope, ctx: Context) -> None:
        """A masked update (``SAG2``) of a member of U2 in the masked phase."""
        data = self._check(env, ctx, "masked", set(self.weights))
        if data is None:
            return
        sender, rnd = env.sender, env.request_id
        if sender in self.masked:
            self._reject(ctx, sender, rnd, RejectReason.DUPLICATE, "second update in this round")
            return
        try:
            node, bad, _ = unpack_masked(data)
            if node != sender or len(_) != self.size:
                raise SecAggFormatError(f"a masked update is SAG2 | node {sender} | {self.size} x u32")
            if not set(bad) <= set(self.weights) - {sender}:
                raise SecAggFormatError(f"bad-share owners {bad} are not other members of the round")
        except SecAggFormatError as exc:
            self._reject(ctx, sender, rnd, RejectReason.WRONG_SHAPE, str(exc))
            return
        self.masked[sender] = bytes(data)
        for o in bad:
            self.bad.setdefault(o, []).append(sender)
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
        self.masked, self.bad, self.survivors, self.dropped = {}, {}, [], []
        self.reveals, self.received = {}, {}

    def _start(self, ctx: Context) -> None:
        self._reset()
        super()._start(ctx)  # opens the round and sends MODEL (plain: the global model is not secret)
        if self.open:
            self._enter(ctx, "keys")

    def _names(self, ctx: Context) -> dict[int, str]:
        names = {v: k for k, v in ctx.peers.items()}
        names[ctx.node_id] = ctx.node
        return names

    def _send(self, ctx: Context, to: Sequence[int], payload: bytes | Mapping[int, bytes], edge: Msg) -> None:
        names = self._names(ctx)
        for c in to:
            body = payload if isinstance(payload, bytes) else payload[c]
            ctx.send_bytes(names[c], body, protocol=self.client_protocol, edge=int(edge), request_id=self.round)

    def _broadcast(self, ctx: Context, payload: bytes, edge: Msg) -> None:
        """One envelope for every client (the roster, the unmask request: the same bytes for each member);
        a client the message does not name ignores it."""
        ctx.send_bytes("*", payload, protocol=self.client_protocol, edge=int(edge), request_id=self.round)

    def _roster(self, ctx: Context) -> None:
        if len(self.keys) < self._need():
            self._abort(ctx, len(self.keys), f"{len(self.keys)} keys, secure aggregation needs {self._need()}")
            return
        self.holders = sorted(self.keys)
        self._broadcast(ctx, pack_roster(self.keys), Msg.SA_ROSTER)
        self._enter(ctx, "shares")

    def _forward(self, ctx: Context) -> None:
        u2 = sorted(self.boxes)
        if len(u2) < self._need():
            self._abort(ctx, len(u2), f"{len(u2)} clients shared their secret, secure aggregation needs "
                                      f"{self._need()}")
            return
        total = float(sum(self.clients[c] for c in u2))
        self.weights = {c: self.clients[c] / total for c in u2}
        self._send(ctx, u2, {y: pack_forward(self.weights[y], {x: self.boxes[x][y] for x in u2 if x != y}) for y in u2},
                   Msg.SA_SHARES)
        self.boxes = {x: {} for x in u2}  # routed: the server keeps who shared, not the boxes
        self._enter(ctx, "masked")

    def _finish(self, ctx: Context) -> None:
        """End of the masked phase (all in, or the deadline): ask for reveals; end of the unmask phase: sum."""
        if self.phase == "masked":
            if len(self.masked) < self._need():
                self._abort(ctx, len(self.masked), f"deadline passed with {len(self.masked)} of "
                                                   f"{len(self.weights)} masked updates")
                return
            for owner in sorted(self.bad):  # attributed: a box that did not open at its holder is its owner's
                self.bad_dropped += 1
                self._reject(ctx, owner, self.round, RejectReason.BAD_SHARE,
                             f"share boxes of node {owner} did not open at nodes {sorted(self.bad[owner])}: "
                             f"dropped from round {self.round}")
            self.dropped = sorted((set(self.weights) - set(self.masked)) | set(self.bad))
            self.survivors = sorted(set(self.masked) - set(self.bad))
            if len(self.survivors) < self._need():
                self._abort(ctx, len(self.survivors), f"{len(self.survivors)} survivors after dropping "
                                                      f"{self.dropped}, secure aggregation needs {self._need()}")
                return
            self._broadcast(ctx, pack_unmask(self.survivors, self.dropped), Msg.SA_UNMASK)
            self._enter(ctx, "unmask")
            return
        if len(self.reveals) < self.threshold:
            self._abort(ctx, len(self.reveals), f"{len(self.reveals)} survivors revealed, the threshold is "
                                                f"{self.threshold}")
            return
        try:
            total = self._unmask()
        except SecAggFormatError as exc:
            self._abort(ctx, len(self.survivors), f"unmasking failed: {exc}")
            return
        mean = from_fixed(total, self.frac_bits).astype(np.float64) / float(
            sum(self.weights[c] for c in self.survivors))
        gone = len(self.dropped)
        if gone:
            self.recovered += gone
            ctx.emit(lev.SecAggRecovered(self.strategy, self.round, gone, len(self.survivors)))
        model: ModelState = ctx.binding("model")
        assert model.vector is not None
        agg = ctx.binding("aggregator")
        step = np.asarray(agg.aggregate([mean.astype(np.float32)], [1.0]), dtype=np.float32)
        self.open, self.phase = False, ""
        accepted = len(self.survivors)
        if not np.isfinite(step).all():
            self.aborted += 1
            ctx.emit(lev.RoundAborted(self.strategy, self.round, accepted, self._need(), "aggregate is not finite"))
            self._reset()
            return
        model.set(model.vector + step, self.round)
        self.completed += 1
        ctx.emit(lev.RoundCompleted(self.strategy, self.round, accepted, len(self.cohort),
                                    accepted < len(self.cohort)))
        self._reset()

    def _unmask(self) -> np.ndarray:
        """The survivors' masked sum minus their self masks and their pairwise masks with the dropped."""
        xs = {h: i + 1 for i, h in enumerate(self.holders)}
        total = np.zeros(self.size, dtype=np.uint32)
        for s in self.survivors:
            total += unpack_masked(self.masked[s])[2]
        for s in self.survivors:
            shares = {xs[h]: int.from_bytes(v, "little") for h, got in self.reveals.items()
                      for o, (k, v) in got.items() if o == s and k == REVEAL_B}
            if len(shares) < self.threshold:
                raise SecAggFormatError(f"{len(shares)} shares of node {s}'s self mask, need {self.threshold}")
            total -= _self_mask(shamir_combine(shares), self.round, self.size)
        for d in self.dropped:
            shares = {xs[h]: int.from_bytes(v, "little") for h, got in self.reveals.items()
                      for o, (k, v) in got.items() if o == d and k == REVEAL_S}
            secret: int | None = None
            if len(shares) >= self.threshold:
                secret = shamir_combine(shares)
                if _pub(secret) != self.keys[d][32:]:
                    secret = None  # inconsistent shares: fall back on the survivors' own pairwise seeds
            for s in self.survivors:
                got = self.reveals.get(s, {}).get(d)
                if got is not None and got[0] == REVEAL_PAIR:
                    seed = got[1]
                elif secret is not None:
                    seed = _agree(secret, self.keys[s][32:])
                else:
                    raise SecAggFormatError(f"no way to remove the masks between nodes {s} and {d}")
                total -= _pair_mask(seed, s, d, self.round, self.size)
        return total

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
    garble: bool = False  # fault injection: seal random bytes instead of share boxes (a bad client)
    sa_round: int = field(default=0, init=False)
    # the c (share box) secret is drawn once and kept across rounds, with its agreements (c_cache); s and b
    # are fresh every round (an s secret may be revealed for a dropped client, b for a survivor)
    c_secret: int = field(default=0, init=False)
    c_cache: dict[int, tuple[bytes, bytes]] = field(default_factory=dict, init=False)  # id -> (c_pk, agreement)
    s_secret: int = field(default=0, init=False)
    b_secret: int = field(default=0, init=False)
    delta: np.ndarray | None = field(default=None, init=False)
    roster: dict[int, bytes] = field(default_factory=dict, init=False)  # id -> c_pk | s_pk
    c_shared: dict[int, bytes] = field(default_factory=dict, init=False)  # id -> c agreement (the box keys)
    s_shared: dict[int, bytes] = field(default_factory=dict, init=False)  # id -> s agreement (pairwise seeds)
    my_keys: bytes = field(default=b"", init=False)  # c_pk | s_pk of this round
    own: tuple[int, int] = field(default=(0, 0), init=False)  # this node's shares of its own b and s
    held: dict[int, tuple[int, int]] = field(default_factory=dict, init=False)  # owner -> (b share, s share)
    members: list[int] = field(default_factory=list, init=False)  # U2 as forwarded (the masks' set)
    sent_update: bool = field(default=False, init=False)
    revealed: bool = field(default=False, init=False)

    def _refuse(self, ctx: Context, rnd: int, detail: str, sender: int | None = None) -> None:
        who = ctx.peers.get(self.server, 0) if sender is None else sender
        ctx.emit(lev.UpdateRejected(self.strategy, who, rnd, RejectReason.BAD_SHARE.value, detail))

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
        if env.edge != Msg.SA_SHARES and (rnd != self.sa_round or self.delta is None):
            return  # a broadcast roster or unmask request of a round this node does not take part in
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
        # fresh s and b secrets each round: masks never repeat, and nothing in the deployment derives them
        self.sa_round = rnd
        if not self.c_secret:
            self.c_secret = _fresh_secret()
        self.s_secret, self.b_secret = _fresh_secret(), _fresh_secret()
        self.roster, self.c_shared, self.s_shared, self.held, self.members, self.delta = {}, {}, {}, {}, [], None
        self.my_keys = _pub(self.c_secret) + _pub(self.s_secret)
        self.sent_update = self.revealed = False
        ctx.send_bytes(self.server, pack_key(self.my_keys), protocol=self.server_protocol,
                       edge=int(Msg.SA_KEY), request_id=rnd)
        start = vec.reshape(-1).astype(np.float32)
        x, y = ctx.binding("data").arrays()
        trained = self._train_local(ctx, start, x, y, rnd, ctx.binding("model"))
        self.delta = (trained - start).astype(np.float32)
        self.last_sent = ctx.now

    def _on_roster(self, data: bytes, ctx: Context) -> None:
        roster = unpack_roster(data)
        if ctx.node_id not in roster and not self.roster:
            return  # a broadcast roster of a round this node is not part of (its key came too late)
        if roster.get(ctx.node_id) != self.my_keys:
            raise SecAggFormatError("the roster does not carry this node's keys")
        if len(roster) < self.threshold:
            raise SecAggFormatError(f"a roster of {len(roster)} is below the threshold {self.threshold}")
        if self.roster:
            raise SecAggFormatError("second roster in this round")
        holders = sorted(roster)
        xs = [i + 1 for i in range(len(holders))]
        b_sh = shamir_split(self.b_secret, xs, self.threshold)
        s_sh = shamir_split(self.s_secret, xs, self.threshold)
        me = ctx.node_id
        others = [h for h in holders if h != me]
        new = [h for h in others if self.c_cache.get(h, (b"", b""))[0] != roster[h][:32]]
        agreed = dict(zip(new, _agree_all(self.c_secret, [roster[h][:32] for h in new]), strict=True))
        c_shared = {h: agreed[h] if h in agreed else self.c_cache[h][1] for h in others}
        s_shared = dict(zip(others, _agree_all(self.s_secret, [roster[h][32:] for h in others]), strict=True))
        x_of = dict(zip(holders, xs, strict=True))
        salt = self.my_keys[32:]
        boxes = {h: seal_shares(b_sh[x_of[h]], s_sh[x_of[h]], c_shared[h], me, h, self.sa_round, salt)
                 for h in others}
        if self.garble:  # fault injection: boxes no holder can open (this client goes on as usual)
            boxes = {h: os.urandom(BOX_BYTES) for h in others}
        self.own = (b_sh[x_of[me]], s_sh[x_of[me]])  # this node's own shares never leave it
        self.roster, self.c_shared, self.s_shared = roster, c_shared, s_shared
        self.c_cache.update({h: (roster[h][:32], agreed[h]) for h in new})
        ctx.send_bytes(self.server, pack_boxes(boxes), protocol=self.server_protocol, edge=int(Msg.SA_SHARES),
                       request_id=self.sa_round)
        self.last_sent = ctx.now

    def _on_forward(self, data: bytes, ctx: Context) -> None:
        weight, boxes = unpack_forward(data)
        if not self.roster or self.members or self.sent_update:
            raise SecAggFormatError("shares forwarded out of order")
        me = ctx.node_id
        if me in boxes or not set(boxes) <= set(self.roster):
            raise SecAggFormatError("forwarded shares name nodes outside the roster (or this node)")
        held: dict[int, tuple[int, int]] = {me: self.own}
        bad: list[int] = []
        for o, box in boxes.items():
            try:
                held[o] = open_shares(box, self.c_shared[o], o, me, self.sa_round, self.roster[o][32:])
            except SecAggFormatError:
                bad.append(o)
        if len(held) < self.threshold:  # the round cannot complete: a forged forward, not bad owners
            raise SecAggFormatError(f"{len(bad)} of {len(boxes)} forwarded share boxes do not open, fewer than "
                                    f"the threshold {self.threshold} would remain")
        assert self.delta is not None
        vec = self.delta.astype(np.float64) * weight
        limit = 2.0 ** (31 - self.frac_bits) / (len(boxes) + 1)
        if not np.isfinite(vec).all() or float(np.abs(vec).max(initial=0.0)) >= limit:
            raise SecAggFormatError(f"the weighted update leaves the fixed-point range (|v| < {limit:g}); "
                                    "lower secagg.frac_bits")
        for o in bad:  # attributed to the owner (the box is authenticated per ordered pair and round)
            self._refuse(ctx, self.sa_round, f"share box of node {o} does not open: node {o} is dropped", sender=o)
        self.held, self.members = held, sorted(set(boxes) | {me})
        if self.withhold:  # fault injection: this client drops out between sharing and masking
            ctx.emit(lev.SecAggWithheld(self.strategy, self.sa_round))
            return
        fx = to_fixed(vec, self.frac_bits) + _self_mask(self.b_secret, self.sa_round, vec.size)
        for o in self.members:
            if o != me:
                fx += _pair_mask(self.s_shared[o], me, o, self.sa_round, vec.size)
        ctx.send_bytes(self.server, pack_masked(me, bad, fx), protocol=self.server_protocol, edge=int(Msg.UPDATE),
                       request_id=self.sa_round)
        self.sent_update = True
        self.last_sent = ctx.now

    def _on_unmask(self, data: bytes, ctx: Context) -> None:
        survivors, dropped = unpack_unmask(data)
        me = ctx.node_id
        if me in dropped or (me not in survivors and not self.sent_update):
            return  # a broadcast unmask request for the others: this node is out of the sum
        if not self.sent_update or self.revealed or me not in survivors:
            raise SecAggFormatError("an unmask request out of order, or one that does not name this node a survivor")
        if not set(survivors) | set(dropped) <= set(self.members):
            raise SecAggFormatError("an unmask request names nodes outside the round's members")
        out: dict[int, tuple[int, bytes]] = {}
        for s in survivors:  # a self-mask share only for a survivor, never with anything of the s-key
            if s in self.held:
                out[s] = (REVEAL_B, self.held[s][0].to_bytes(SHARE_BYTES, "little"))
        for d in dropped:
            if d in self.held:
                out[d] = (REVEAL_S, self.held[d][1].to_bytes(SHARE_BYTES, "little"))
            else:  # its box did not open here: the pairwise seed, which only ever unmasks pairs with d
                out[d] = (REVEAL_PAIR, self.s_shared[d])
        self.revealed = True
        ctx.send_bytes(self.server, pack_reveals(out), protocol=self.server_protocol, edge=int(Msg.SA_REVEAL),
                       request_id=self.sa_round)
        self.last_sent = ctx.now


def check_secagg_config(spec: Any, clients: int, aggregator: Any) -> dict[str, Any]:
    """The validated ``secagg`` object of a learning config: ``threshold``, ``frac_bits``, ``withhold``, ``garble``."""
    if spec is True:
        spec = {}
    if not isinstance(spec, dict):
        raise ConfigError(f"'secagg' must be an object (threshold, frac_bits, withhold, garble), got {spec!r}")
    unknown = set(spec) - {"threshold", "frac_bits", "withhold", "garble"}
    if unknown:
        raise ConfigError(f"unknown secagg settings {sorted(unknown)}; use threshold, frac_bits, withhold, garble")
    t = spec.get("threshold", clients // 2 + 1)
    fb = spec.get("frac_bits", 24)
    if isinstance(t, bool) or not isinstance(t, int) or not 2 <= t <= clients:
        raise ConfigError(f"secagg.threshold must be an integer in 2..{clients} (the clients), got {t!r}")
    if isinstance(fb, bool) or not isinstance(fb, int) or not 8 <= fb <= 28:
        raise ConfigError(f"secagg.frac_bits must be an integer in 8..28, got {fb!r}")
    faults: dict[str, list[str]] = {}
    for key in ("withhold", "garble"):
        names = spec.get(key, [])
        if not isinstance(names, list) or not all(isinstance(w, str) for w in names):
            raise ConfigError(f"secagg.{key} must be a list of client names")
        faults[key] = list(names)
    agg_type = aggregator.get("type") if isinstance(aggregator, dict) else aggregator
    if agg_type not in SECAGG_AGGREGATORS:
        raise ConfigError(f"secure aggregation yields one summed vector: the aggregator must be one of "
                          f"{SECAGG_AGGREGATORS}, not {agg_type!r}")
    return {"threshold": t, "frac_bits": fb, **faults}
