"""Over-the-air program updates: the sans-IO protocol, both ends (docs/wire.md, "Program updates").

One protocol id (:data:`PROTO_OTA`), the message type in the envelope's
``edge`` field, kind CONTROL (docs/wire.md "Program updates"):

- the deployer (the host, id 0, or ``_deploy``) sends OFFER/OFFER2/OFFER_DELTA, DATA, COMMIT, ABORT, and to
  ONNX nodes PREPARE and SWITCH_AT (the epoch-consistent switch) and SHADOW (a staged rollout's canary);
- a node answers READY, NACK, SWITCHED, RESUME (ONNX and C nodes), and (ONNX nodes) HELD and CANARY.

:class:`OtaNode` is a protocol handler registered on a node's engine. It
stages an offered program chunk by chunk, verifies size, SHA-256, the
signature and the node's own loader (a :class:`ProgramLoader`), and only
then answers READY. A COMMIT makes it switch at the engine's next idle
point (no open request), run the loader's health check on the new program
and announce the new program hash in a HELLO; a failed health check puts
the old program back. Every refusal is an :class:`OtaRefused` event plus a
NACK to the deployer, and the node keeps serving its current program.

:class:`OtaDeployer` is the other end, also sans-IO: it stages every node,
commits only when all of them answered READY and sends ABORT to every node
on the first refusal or timeout. Adapters move its bytes
(bb_edge/adapters/ops/ota_deploy.py); slot storage is injected (:class:`SlotStore`,
bb_edge/adapters/ops/ota_store.py keeps slots in files).

Why one file: OtaNode and OtaDeployer are the two ends of one protocol. They share its message codec, the
signed-message layout and the NACK codes, and a test drives both against each other; the epoch switch,
the canary, the revert point and resume are states of those two machines, not separate components. The
delta format (ota_delta.py) is its own file: bytes in, bytes out, no protocol state. The C
(firmware/src/bbrt_ota.c) and MicroPython (bbnode/ota.py) node ends mirror this file.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import onnx

from bb_edge.deployment.manifest import DEPLOY_ID, DEPLOY_NAME, HOST_ID, HOST_NAME
from bb_edge.deployment.ports import wire_ports
from bb_edge.engine import events as ev
from bb_edge.engine.context import Context
from bb_edge.errors import BBError
from bb_edge.wire import envelope as wire

if TYPE_CHECKING:
    from bb_edge.engine.engine import Engine

PROTO_OTA = 24
OFFER, DATA, COMMIT, ABORT, READY, NACK, SWITCHED = 1, 2, 3, 4, 5, 6, 7
OFFER2 = 8  # a versioned OFFER: the signed manifest also covers deployment, version and update id
# the epoch switch (ONNX nodes; docs/wire.md "Epoch-consistent switch"): PREPARE installs the update next to
# the running program and holds requests newer than the node has seen (HELD reports those marks); SWITCH_AT
# names the first request id per owner that the update serves, on every node alike
PREPARE, HELD, SWITCH_AT = 9, 10, 11
# a staged rollout's canary: SHADOW installs the update next to the running program and runs it on a copy of
# every request the node serves (outputs compared, never sent); CANARY reports what it saw
SHADOW, CANARY = 13, 14
# resumable transfer: a node answers an OFFER2/OFFER_DELTA with RESUME (u32 update id, u32 offset): the bytes of
# the offered image (or delta) it already holds, from an earlier offer of the same bytes; DATA start there
RESUME = 15
# the epoch switch's end and its undoing: FINISH (u32 update id) lets the nodes drop the previous program; REVERT
# (update id + the switch point) makes every node hold what it has not seen and answer HELD; REVERT_AT (update id,
# switch point, revert point) sends every request from the revert point on back to the previous program
FINISH, REVERT, REVERT_AT = 16, 17, 18
OFFER_DELTA = 12  # an OFFER2 whose DATA carry a per-tensor delta against the running program (ota_delta.py)
MESSAGE_NAMES = {OFFER: "OFFER", DATA: "DATA", COMMIT: "COMMIT", ABORT: "ABORT", READY: "READY",
                 NACK: "NACK", SWITCHED: "SWITCHED", OFFER2: "OFFER2", PREPARE: "PREPARE", HELD: "HELD",
                 SWITCH_AT: "SWITCH_AT", OFFER_DELTA: "OFFER_DELTA", SHADOW: "SHADOW", CANARY: "CANARY",
                 RESUME: "RESUME", FINISH: "FINISH", REVERT: "REVERT", REVERT_AT: "REVERT_AT"}

TARGET_ONNX, TARGET_BBRT, TARGET_MPY = 1, 2, 3
TARGET_NAMES = {TARGET_ONNX: "onnx", TARGET_BBRT: "bbrt", TARGET_MPY: "micropython"}
SIG_ED25519, SIG_HMAC_SHA256 = 1, 2

_OFFER = struct.Struct("<IIBBH32s")  # update id, size, target, signature kind, signature length, sha256
_OFFER2 = struct.Struct("<IIBBH32sQB")  # ... then u64 version, u8 deployment name length (name, signature follow)
_U32 = struct.Struct("<I")
_DATA = struct.Struct("<II")  # update id, offset
_NACK = struct.Struct("<IH")  # update id, code
_DELTA = struct.Struct("<I32s")  # OFFER_DELTA prefix: delta size, base program hash (then an OFFER2)
_CANARY = struct.Struct("<IIIIfff")  # update id, requests, non-finite, errors, max drift, p95 old ms, p95 new ms
_MARK = struct.Struct("<BQ")  # request owner slot, request id (HELD: highest seen; SWITCH_AT: first on the update)
MAX_MARKS = 256
DATA_HEADER = _DATA.size
MAX_SIGNATURE = 256
MAX_REASON = 200
DEFAULT_MAX_PROGRAM = 64 << 20
DEFAULT_STAGE_TIMEOUT_S = 60.0

# NACK codes (stable: they are on the wire)
BAD_MESSAGE = 1  # malformed OFFER/DATA/COMMIT
BUSY = 2  # a second update while one is in progress
TOO_LARGE = 3  # declared size above the node's limit
TRUNCATED = 4  # a gap in the chunks, more bytes than declared, or staging timed out
CORRUPT = 5  # SHA-256 of the staged bytes differs from the OFFER's
BAD_SIGNATURE = 6
INVALID_PROGRAM = 7  # the node's loader refused it
CONTRACT_MISMATCH = 8  # edges, dtypes or shapes differ from the deployment's
WRONG_TARGET = 9  # e.g. a .bbrt offered to a Linux node
UNKNOWN_UPDATE = 10  # DATA/COMMIT for an update this node is not staging
ROLLED_BACK = 11  # switched, failed its health check, old program back
NOT_AUTHORISED = 12  # OTA messages are accepted from the deployer (host) only
NO_KEY = 13  # no verification key provisioned on this node
UNKNOWN_NODE = 14  # deployer side: the node is not in the deployment
TIMEOUT = 15  # deployer side: no answer in time
ABORTED = 16  # deployer side: another node refused, every node keeps its program; node side: ABORT's answer
STALE_VERSION = 17  # anti-rollback: the offered version is not above the highest this node accepted
WRONG_DEPLOYMENT = 18  # the signed manifest names another deployment
BAD_DELTA_BASE = 19  # a delta against a program this node does not run, or one that does not apply
DELTA_MISMATCH = 20  # the image rebuilt from a delta is not the one the signed manifest names
CANARY_FAILED = 21  # deployer side: a canary's telemetry crossed an operator threshold
CODE_NAMES = {BAD_MESSAGE: "bad_message", BUSY: "busy", TOO_LARGE: "too_large", TRUNCATED: "truncated",
              CORRUPT: "corrupt", BAD_SIGNATURE: "bad_signature", INVALID_PROGRAM: "invalid_program",
              CONTRACT_MISMATCH: "contract_mismatch", WRONG_TARGET: "wrong_target",
              UNKNOWN_UPDATE: "unknown_update", ROLLED_BACK: "rolled_back", NOT_AUTHORISED: "not_authorised",
              NO_KEY: "no_key", UNKNOWN_NODE: "unknown_node", TIMEOUT: "timeout", ABORTED: "aborted",
              STALE_VERSION: "stale_version", WRONG_DEPLOYMENT: "wrong_deployment",
              BAD_DELTA_BASE: "bad_delta_base", DELTA_MISMATCH: "delta_mismatch", CANARY_FAILED: "canary_failed"}


RUNNING = 0  # OtaNode.finished: the update runs (a switch passed its health check)

# refusals that end an update: its chunks still in flight are then dropped without a NACK each
_ENDS_AN_UPDATE = frozenset({TOO_LARGE, TRUNCATED, CORRUPT, BAD_SIGNATURE, INVALID_PROGRAM, CONTRACT_MISMATCH,
                             WRONG_TARGET, NO_KEY, STALE_VERSION, WRONG_DEPLOYMENT, BAD_DELTA_BASE,
                             DELTA_MISMATCH})


class OtaError(BBError):
    """An update was refused; ``code`` is one of the NACK codes (``CODE_NAMES``)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"{CODE_NAMES.get(code, code)}: {reason}")
        self.code = code
        self.reason = reason


# ------------------------------------------------------------------ events


@dataclass(frozen=True)
class OtaStaged(ev.Event):
    """A node verified an offered program (hash, signature, loader) and answered READY."""

    update_id: int
    sha256: bytes
    size: int


@dataclass(frozen=True)
class OtaRefused(ev.Event):
    """An update message was refused (a NACK went to the deployer); the current program stays."""

    peer: str
    update_id: int
    code: int
    reason: str

    @property
    def code_name(self) -> str:
        """The NACK code's name."""
        return CODE_NAMES.get(self.code, str(self.code))


@dataclass(frozen=True)
class OtaSwitched(ev.Event):
    """The node switched to the staged program at an idle point and passed its health check."""

    update_id: int
    old_hash: bytes
    new_hash: bytes


@dataclass(frozen=True)
class OtaRolledBack(ev.Event):
    """The switched program failed its health check; the old one runs again."""

    update_id: int
    reason: str


@dataclass(frozen=True)
class CanaryStats:
    """What a canary saw in shadow: requests mirrored, outputs not finite, update errors, the largest output
    drift (max |new - old| / max |old| over each output), and p95 latency of each program (ms)."""

    update_id: int
    requests: int = 0
    nonfinite: int = 0
    errors: int = 0
    max_drift: float = 0.0
    p95_old_ms: float = 0.0
    p95_new_ms: float = 0.0

    def encode(self) -> bytes:
        """A CANARY payload."""
        return _CANARY.pack(self.update_id, self.requests, self.nonfinite, self.errors, self.max_drift,
                            self.p95_old_ms, self.p95_new_ms)

    @classmethod
    def decode(cls, buf: bytes) -> CanaryStats:
        """Parse a CANARY payload; OtaError(BAD_MESSAGE) when malformed."""
        if len(buf) != _CANARY.size:
            raise OtaError(BAD_MESSAGE, f"CANARY of {len(buf)} bytes")
        return cls(*_CANARY.unpack(buf))


# ----------------------------------------------------------- signatures


def signed_message(node: str, target: int, size: int, sha256: bytes) -> bytes:
    """What a deployer signs for one node: bound to the node name, so an image cannot be replayed elsewhere."""
    return b"bb-edge/ota/1\0" + node.encode("utf-8") + b"\0" + struct.pack("<BI", target, size) + sha256


def signed_manifest(deployment: str, node: str, target: int, size: int, version: int, update_id: int,
                    sha256: bytes) -> bytes:
    """What a deployer signs in an OFFER2 (anti-rollback): deployment, node, target, size, version, update id
    and image hash, so a captured update cannot be replayed to another deployment or node, with another
    update id, or once the node accepted a newer version."""
    return (b"bb-edge/ota/2\0" + deployment.encode("utf-8") + b"\0" + node.encode("utf-8") + b"\0"
            + struct.pack("<BIQI", target, size, version, update_id) + sha256)


Verifier = Callable[[bytes, bytes], bool]
Signer = Callable[[bytes], bytes]


def ed25519_verifier(public_key: bytes) -> Verifier:
    """A verifier for raw 32-byte Ed25519 public keys (the ``cryptography`` package)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    key = Ed25519PublicKey.from_public_bytes(public_key)

    def verify(message: bytes, signature: bytes) -> bool:
        try:
            key.verify(signature, message)
        except (InvalidSignature, ValueError):
            return False
        return True

    return verify


def ed25519_signer(private_key: bytes) -> Signer:
    """A signer for a raw 32-byte Ed25519 private key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.from_private_bytes(private_key)
    return key.sign


def hmac_verifier(key: bytes) -> Verifier:
    """HMAC-SHA-256 with a per-node key (C and MicroPython nodes); constant-time compare."""
    def verify(message: bytes, signature: bytes) -> bool:
        return hmac.compare_digest(hmac.new(key, message, hashlib.sha256).digest(), signature)

    return verify


def hmac_signer(key: bytes) -> Signer:
    """The HMAC-SHA-256 counterpart of :func:`hmac_verifier`."""
    return lambda message: hmac.new(key, message, hashlib.sha256).digest()


# ------------------------------------------------------------ messages


@dataclass(frozen=True)
class Offer:
    """A decoded OFFER."""

    update_id: int
    size: int
    target: int
    sig_kind: int
    sha256: bytes
    signature: bytes
    version: int | None = None  # set: an OFFER2 (versioned, anti-rollback)
    deployment: str = ""
    delta_size: int = 0  # > 0: an OFFER_DELTA, whose DATA carry this many bytes of delta
    base: bytes = b""  # OFFER_DELTA: the hash of the program the delta applies to

    @property
    def transfer_size(self) -> int:
        """Bytes the DATA chunks carry: the delta's, or the full image's."""
        return self.delta_size or self.size

    def encode(self) -> bytes:
        """Wire bytes (docs/wire.md, "Program updates"): an OFFER, or an OFFER2 when ``version`` is set."""
        if self.delta_size:
            return _DELTA.pack(self.delta_size, self.base) + Offer(
                self.update_id, self.size, self.target, self.sig_kind, self.sha256, self.signature, self.version,
                self.deployment).encode()
        if self.version is not None:
            name = self.deployment.encode("utf-8")
            return _OFFER2.pack(self.update_id, self.size, self.target, self.sig_kind, len(self.signature),
                                self.sha256, self.version, len(name)) + name + self.signature
        return _OFFER.pack(self.update_id, self.size, self.target, self.sig_kind, len(self.signature),
                           self.sha256) + self.signature

    @classmethod
    def decode2(cls, buf: bytes) -> Offer:
        """Parse and bound-check an OFFER2; OtaError(BAD_MESSAGE) when malformed."""
        if len(buf) < _OFFER2.size:
            raise OtaError(BAD_MESSAGE, f"OFFER2 of {len(buf)} bytes, header needs {_OFFER2.size}")
        uid, size, target, sig_kind, sig_len, digest, version, name_len = _OFFER2.unpack_from(buf)
        if sig_len > MAX_SIGNATURE or len(buf) != _OFFER2.size + name_len + sig_len:
            raise OtaError(BAD_MESSAGE, f"OFFER2 lengths ({name_len}, {sig_len}) do not match its {len(buf)} bytes")
        if size == 0:
            raise OtaError(BAD_MESSAGE, "OFFER2 of an empty program")
        try:
            name = bytes(buf[_OFFER2.size:_OFFER2.size + name_len]).decode("utf-8")
        except UnicodeDecodeError:
            raise OtaError(BAD_MESSAGE, "OFFER2 deployment name is not UTF-8") from None
        return cls(uid, size, target, sig_kind, bytes(digest), bytes(buf[_OFFER2.size + name_len:]), version, name)

    @classmethod
    def decode_delta(cls, buf: bytes) -> Offer:
        """Parse an OFFER_DELTA (its prefix, then an OFFER2); OtaError(BAD_MESSAGE) when malformed."""
        if len(buf) < _DELTA.size:
            raise OtaError(BAD_MESSAGE, f"OFFER_DELTA of {len(buf)} bytes")
        size, base = _DELTA.unpack_from(buf)
        if size == 0:
            raise OtaError(BAD_MESSAGE, "OFFER_DELTA of an empty delta")
        o = cls.decode2(bytes(buf[_DELTA.size:]))
        return cls(o.update_id, o.size, o.target, o.sig_kind, o.sha256, o.signature, o.version, o.deployment,
                   size, bytes(base))

    @classmethod
    def decode(cls, buf: bytes) -> Offer:
        """Parse and bound-check an OFFER; OtaError(BAD_MESSAGE) when malformed."""
        if len(buf) < _OFFER.size:
            raise OtaError(BAD_MESSAGE, f"OFFER of {len(buf)} bytes, header needs {_OFFER.size}")
        uid, size, target, sig_kind, sig_len, digest = _OFFER.unpack_from(buf)
        if sig_len > MAX_SIGNATURE or len(buf) != _OFFER.size + sig_len:
            raise OtaError(BAD_MESSAGE, f"OFFER signature length {sig_len} does not match its {len(buf)} bytes")
        if size == 0:
            raise OtaError(BAD_MESSAGE, "OFFER of an empty program")
        return cls(uid, size, target, sig_kind, bytes(digest), bytes(buf[_OFFER.size:]))


def encode_data(update_id: int, offset: int, chunk: bytes) -> bytes:
    """A DATA payload."""
    return _DATA.pack(update_id, offset) + chunk


def encode_nack(update_id: int, code: int, reason: str) -> bytes:
    """A NACK payload (reason clipped to MAX_REASON bytes of UTF-8)."""
    return _NACK.pack(update_id, code) + reason.encode("utf-8")[:MAX_REASON]


def decode_nack(buf: bytes) -> tuple[int, int, str]:
    """``(update_id, code, reason)`` of a NACK; OtaError(BAD_MESSAGE) when malformed."""
    if len(buf) < _NACK.size or len(buf) > _NACK.size + MAX_REASON:
        raise OtaError(BAD_MESSAGE, f"NACK of {len(buf)} bytes")
    uid, code = _NACK.unpack_from(buf)
    return uid, code, bytes(buf[_NACK.size:]).decode("utf-8", "replace")


def encode_marks(update_id: int, marks: dict[int, int]) -> bytes:
    """A HELD or SWITCH_AT payload: update id, count, then (owner slot, request id) per slot."""
    return (_U32.pack(update_id) + bytes([len(marks)])
            + b"".join(_MARK.pack(slot, rid) for slot, rid in sorted(marks.items())))


def decode_marks(buf: bytes, what: str) -> tuple[int, dict[int, int]]:
    """``(update_id, {slot: request id})`` of a HELD or SWITCH_AT; OtaError(BAD_MESSAGE) when malformed."""
    if len(buf) < _U32.size + 1 or len(buf) != _U32.size + 1 + buf[_U32.size] * _MARK.size:
        raise OtaError(BAD_MESSAGE, f"{what} of {len(buf)} bytes")
    uid = int(_U32.unpack_from(buf)[0])
    marks: dict[int, int] = {}
    for k in range(buf[_U32.size]):
        slot, rid = _MARK.unpack_from(buf, _U32.size + 1 + k * _MARK.size)
        if slot in marks:
            raise OtaError(BAD_MESSAGE, f"{what} names owner slot {slot} twice")
        marks[slot] = rid
    return uid, marks


def encode_revert_at(update_id: int, switch: dict[int, int], revert: dict[int, int]) -> bytes:
    """A REVERT_AT payload: the switch point's marks, then the revert point's (count and marks, no update id)."""
    return encode_marks(update_id, switch) + encode_marks(0, revert)[_U32.size:]


def decode_revert_at(buf: bytes) -> tuple[int, dict[int, int], dict[int, int]]:
    """``(update_id, switch point, revert point)``; OtaError(BAD_MESSAGE) when malformed."""
    if len(buf) < _U32.size + 1:
        raise OtaError(BAD_MESSAGE, f"REVERT_AT of {len(buf)} bytes")
    cut = _U32.size + 1 + buf[_U32.size] * _MARK.size
    uid, switch = decode_marks(buf[:cut], "REVERT_AT")
    _, revert = decode_marks(bytes(4) + buf[cut:], "REVERT_AT")
    return uid, switch, revert


def _u32(buf: bytes, what: str) -> int:
    if len(buf) != _U32.size:
        raise OtaError(BAD_MESSAGE, f"{what} of {len(buf)} bytes, expected {_U32.size}")
    return int(_U32.unpack(buf)[0])


def _u32_hash(buf: bytes, what: str) -> tuple[int, bytes]:
    if len(buf) != _U32.size + 32:
        raise OtaError(BAD_MESSAGE, f"{what} of {len(buf)} bytes, expected {_U32.size + 32}")
    return int(_U32.unpack_from(buf)[0]), bytes(buf[_U32.size:])


# ------------------------------------------------------- node-side pieces


class SlotStore(Protocol):
    """A/B program slots: ``stage`` writes the inactive slot, ``activate`` flips the active pointer."""

    def stage(self, data: bytes) -> None:
        """Write ``data`` to the inactive slot (the active one is never touched)."""
        ...

    def activate(self) -> None:
        """Make the staged slot the active one (atomically)."""
        ...

    def discard(self) -> None:
        """Forget the staged slot (after an abort or a rollback)."""
        ...

    def revert(self) -> None:
        """Point the active pointer back where the last :meth:`activate` found it (an ABORT after a switch)."""
        ...

    def accepted_version(self) -> int:
        """The highest program version this node ever switched to (0: none); survives restarts."""
        ...

    def accept_version(self, version: int) -> None:
        """Record ``version`` as accepted (durably, before the switch is announced)."""
        ...


class MemorySlots:
    """A :class:`SlotStore` in memory (tests, nodes without storage)."""

    def __init__(self) -> None:
        self.slots: list[bytes | None] = [None, None]
        self.active = 0
        self.staged: int | None = None
        self.previous: int | None = None

    def stage(self, data: bytes) -> None:
        """Keep ``data`` in the inactive slot."""
        self.staged = 1 - self.active
        self.slots[self.staged] = bytes(data)
        self.previous = None  # the other slot is overwritten: nothing to go back to

    def activate(self) -> None:
        """Flip to the staged slot."""
        if self.staged is not None:
            self.previous, self.active, self.staged = self.active, self.staged, None

    def revert(self) -> None:
        """Flip back to the slot the last activate left."""
        if self.previous is not None:
            self.active, self.previous = self.previous, None

    def accepted_version(self) -> int:
        """The highest version accepted (kept in memory)."""
        return getattr(self, "version", 0)

    def accept_version(self, version: int) -> None:
        """Raise the accepted version."""
        self.version = max(self.accepted_version(), version)

    def discard(self) -> None:
        """Drop the staged slot."""
        if self.staged is not None:
            self.slots[self.staged] = None
            self.staged = None


class ProgramLoader(Protocol):
    """The node's own loader: validate staged bytes, switch to them, check the result, switch back."""

    target: int

    def validate(self, data: bytes) -> Any:
        """A staged program object, or OtaError(INVALID_PROGRAM / CONTRACT_MISMATCH)."""
        ...

    def switch(self, staged: Any) -> Any:
        """Make ``staged`` the running program; returns a token that :meth:`restore` puts back."""
        ...

    def health(self, staged: Any) -> None:
        """Raise (anything) if the now-running program is not healthy."""
        ...

    def restore(self, token: Any) -> None:
        """Put back the program :meth:`switch` replaced."""
        ...


def _contract(model: onnx.ModelProto) -> tuple[Any, ...]:
    """Everything peers and the host rely on: wire ports and graph inputs/outputs with dtypes and shapes."""
    def typed(vis: Any) -> list[tuple[str, int, tuple[int, ...]]]:
        out = []
        for vi in vis:
            tt = vi.type.tensor_type
            out.append((vi.name, tt.elem_type, tuple(d.dim_value if d.HasField("dim_value") else -1
                                                     for d in tt.shape.dim)))
        return out

    ports = sorted((p.op, p.edge_id, p.peer, p.elem_type, p.shape) for p in wire_ports(model))
    return tuple(ports), tuple(typed(model.graph.input)), tuple(typed(model.graph.output))


def contract_problem(old: onnx.ModelProto, new: onnx.ModelProto) -> str | None:
    """Why ``new`` cannot replace ``old`` on the wire (edges, dtypes, shapes), or None."""
    a, b = _contract(old), _contract(new)
    for what, x, y in zip(("wire ports", "graph inputs", "graph outputs"), a, b):
        if x != y:
            return f"{what} differ: {list(y)} instead of {list(x)}"
    return None


class OnnxLoader:
    """The Linux node's loader: onnx.checker, the contract check, every segment prepared and run once.

    It switches the engine's installed program ``program`` (named after the
    node by :meth:`Engine.for_node`) with the same input and output edges.
    """

    target = TARGET_ONNX

    def __init__(self, engine: Engine, program: str | None = None) -> None:
        self.engine = engine
        self.program = program or engine.node

    def validate(self, data: bytes) -> onnx.ModelProto:
        """Parse, check and prepare ``data``; the running program is untouched."""
        try:
            model = onnx.load_from_string(data)
            onnx.checker.check_model(model)
        except Exception as exc:  # protobuf and checker errors alike: the image is refused, never raised
            reason = f"not a valid ONNX program: {type(exc).__name__}: {exc}"
            raise OtaError(INVALID_PROGRAM, reason[:MAX_REASON]) from None
        problem = contract_problem(self.engine.programs[self.program].model, model)
        if problem is not None:
            raise OtaError(CONTRACT_MISMATCH, problem[:MAX_REASON])
        try:  # the backend must accept every segment (ORT session creation) before READY
            from bb_edge.engine.segments import split_segments

            for seg in split_segments(model):
                self.engine.backend.prepare(seg.model, f"{self.program}.ota.{seg.key}")
        except Exception as exc:
            reason = f"the backend refused it: {type(exc).__name__}: {exc}"
            raise OtaError(INVALID_PROGRAM, reason[:MAX_REASON]) from None
        return model

    def switch(self, staged: onnx.ModelProto) -> Any:
        """Swap the installed program (the engine is idle: no open request refers to it)."""
        eng = self.engine
        old = eng.programs.pop(self.program)
        for e in list(old.recv) + list(old.input_edges):
            eng._edge_table.pop(e, None)
        try:
            eng.install(staged, name=self.program, input_edges=old.input_edges, output_edges=old.output_edges)
        except Exception:
            self._put_back(old)
            raise
        token = (old, eng.program_hash)
        eng.program_hash = hashlib.sha256(staged.SerializeToString(deterministic=True)).digest()
        return token

    def install_variant(self, staged: onnx.ModelProto, name: str) -> None:
        """Install ``staged`` next to the running program, bound to no edge (the epoch switch routes to it)."""
        cur = self.engine.programs[self.program]
        self.engine.install(staged, name=name, input_edges=cur.input_edges, output_edges=cur.output_edges,
                            bind=False)

    def drop_variant(self, name: str) -> None:
        """Forget a variant :meth:`install_variant` made (no open request may refer to it)."""
        self.engine.programs.pop(name, None)
        self.engine.unbound.discard(name)

    def health(self, staged: onnx.ModelProto, program: str | None = None) -> None:
        """Run every segment of ``program`` (default: the running one) once on zeros of its input shapes."""
        import numpy as np

        from bb_edge.wire.dtypes import CODE_TO_NUMPY

        prog = self.engine.programs[program or self.program]
        for seg, prepared in zip(prog.segments, prog.prepared):
            feeds = {}
            for vi in seg.model.graph.input:
                tt = vi.type.tensor_type
                dims = [d.dim_value if d.HasField("dim_value") and d.dim_value > 0 else 1 for d in tt.shape.dim]
                feeds[vi.name] = np.zeros(dims, dtype=CODE_TO_NUMPY[tt.elem_type])
            out = prepared.run(feeds)
            for name, value in out.items():
                if np.issubdtype(np.asarray(value).dtype, np.floating) and not np.all(np.isfinite(value)):
                    raise OtaError(ROLLED_BACK, f"segment {seg.key} output {name} is not finite")

    def restore(self, token: Any) -> None:
        """Reinstall the program :meth:`switch` replaced."""
        old, old_hash = token
        eng = self.engine
        cur = eng.programs.pop(self.program, None)
        if cur is not None:
            for e in list(cur.recv) + list(cur.input_edges):
                eng._edge_table.pop(e, None)
        self._put_back(old)
        eng.program_hash = old_hash

    def _put_back(self, old: Any) -> None:
        eng = self.engine
        eng.programs[self.program] = old
        for e in old.recv:
            eng._edge_table[e] = (self.program, "recv")
        for e in old.input_edges:
            eng._edge_table[e] = (self.program, "input")


# ----------------------------------------------------------------- node


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
        uid = _U32.unpack_from(payload)[0] if len(payload) >= 4 else 0
        deployer = {HOST_ID: HOST_NAME, DEPLOY_ID: DEPLOY_NAME}.get(env.sender)
        if deployer is None or deployer not in self.engine.peers:
            self._refuse(ctx, peer, uid, NOT_AUTHORISED, f"OTA messages come from the deployer, not id {env.sender}",
                         reply=False)
            return
        peer = deployer  # replies go to the endpoint that sent it
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
                self._commit(_u32(payload, "COMMIT"), peer, ctx)
            elif env.edge == ABORT:
                self._abort(_u32(payload, "ABORT"), peer, ctx)
            elif env.edge == PREPARE:
                self._prepare(_u32(payload, "PREPARE"), peer, ctx)
            elif env.edge == SHADOW:
                self._shadow(_u32(payload, "SHADOW"), peer, ctx)
            elif env.edge == FINISH:
                e = self.epoch
                if e is not None and e.st.offer.update_id == _u32(payload, "FINISH") and e.boundary is not None:
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
        self._send(ctx, st.peer, RESUME, _U32.pack(uid) + _U32.pack(st.offer.transfer_size if st.ready
                                                                      else len(st.buf)))
        if st.ready:
            self._send(ctx, st.peer, READY, _U32.pack(uid) + st.offer.sha256)

    def _data(self, payload: bytes, peer: str, ctx: Context) -> None:
        if len(payload) < _DATA.size:
            raise OtaError(BAD_MESSAGE, f"DATA of {len(payload)} bytes")
        uid, offset = _DATA.unpack_from(payload)
        st = self.current
        if st is None or st.offer.update_id != uid:
            if uid in self.finished:
                return  # chunks of an update already ended: its one NACK (or SWITCHED) said it
            raise OtaError(UNKNOWN_UPDATE, f"no update {uid} is being staged")
        if st.ready:
            return  # a late duplicate of a chunk already verified
        chunk = payload[_DATA.size:]
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
            if st.offer.delta_size:
                data = self._rebuild(st.offer, data)
            if hashlib.sha256(data).digest() != st.offer.sha256:
                if st.offer.delta_size:
                    raise OtaError(DELTA_MISMATCH, "the image rebuilt from the delta is not the signed one")
                raise OtaError(CORRUPT, "SHA-256 of the received image differs from the offer's")
            assert st.offer.version is not None  # checked at OFFER
            msg = signed_manifest(self.deployment, self.engine.node, st.offer.target, st.offer.size,
                                  st.offer.version, st.offer.update_id, st.offer.sha256)
            assert self.verifier is not None  # checked at OFFER
            if not self.verifier(msg, st.offer.signature):
                raise OtaError(BAD_SIGNATURE, "the signature does not verify with this node's key")
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
        ctx.send_bytes(st.peer, _U32.pack(st.offer.update_id) + st.offer.sha256, protocol=PROTO_OTA,
                       edge=READY, kind=wire.KIND_CONTROL)

    def _rebuild(self, offer: Offer, delta: bytes) -> bytes:
        """The full image a delta makes of the running program (BAD_DELTA_BASE when it is another one)."""
        from bb_edge.engine.ota.delta import DeltaError, apply_delta, base_hash

        base = self.engine.programs[self.loader.program].model  # type: ignore[attr-defined]
        if base_hash(base) != offer.base:
            raise OtaError(BAD_DELTA_BASE, f"the delta applies to {offer.base.hex()[:16]}, this node runs "
                                           f"{base_hash(base).hex()[:16]}")
        try:
            return apply_delta(base, delta, self.max_program)
        except DeltaError as exc:
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
        old, new = self.engine.programs[program], self.engine.programs[e.variant]

        def run(prog: Any) -> tuple[dict[str, Any], float]:
            vals = {k: values[k] for k in set(prog.local_inputs) | {p.tensor for p in prog.recv.values()}}
            t0 = clock()
            done: set[int] = set()
            while len(done) < len(prog.segments):
                ready = [s for s in prog.segments if s.index not in done and all(x in vals for x in s.inputs)]
                if not ready:
                    raise OtaError(INVALID_PROGRAM, "a segment's inputs never became available")
                for seg in ready:
                    vals.update(prog.prepared[seg.index].run({x: vals[x] for x in seg.inputs}))
                    done.add(seg.index)
            return vals, clock() - t0

        e.mirrored += 1
        try:
            got, dt_new = run(new)
            _, dt_old = run(old)
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
        low = [s for s, m in e.marks.items() if boundary.get(s, 0) <= m]
        if low:  # requests at or past the switch point already ran the previous program here
            raise OtaError(BAD_MESSAGE, f"switch point at or below request ids this node served (slots {low})")
        assert e.st.offer.version is not None
        self.store.accept_version(e.st.offer.version)  # durable before SWITCHED: a replay of it is now stale
        self.store.activate()
        e.boundary, e.since, e.old_hash = dict(boundary), ctx.now, self.engine.program_hash
        self.engine.program_hash = hashlib.sha256(e.st.staged.SerializeToString(deterministic=True)).digest()
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
                self.engine.program_hash = e.old_hash
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
            self.engine.program_hash = e.old_hash
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
        idle = not any(k[0] == e.variant for k in self.engine._requests)
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
            self.revertible = (e.st.offer.update_id, (token[0], e.old_hash), e.st.peer)

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
        ctx.send_bytes(peer, _U32.pack(uid) + self.engine.program_hash, protocol=PROTO_OTA,
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


# ------------------------------------------------------------- deployer


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

    def problem(self, s: CanaryStats) -> str | None:
        """Why these figures fail the stage, or None."""
        if s.requests < self.min_requests:
            return f"{s.requests} mirrored requests in the window, at least {self.min_requests} needed"
        if s.nonfinite > self.max_nonfinite:
            return f"{s.nonfinite} outputs not finite (limit {self.max_nonfinite})"
        if s.errors / s.requests > self.max_error_rate:
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
                 canary: CanaryLimits | None = None, resume: bool = False) -> None:
        self.ids = ids
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
                self._send(node, ABORT, _U32.pack(self.update_id))
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
            self._send(node, SHADOW, _U32.pack(self.update_id))

    def _prepare_all(self, now: float) -> None:
        """PREPARE to every epoch node: from here on they may hold requests."""
        self.state = "preparing"
        self._deadline = now + self.timeout_s
        self._resend = now + self.retry_s
        self.prepared = set(self.epoch_nodes)
        for node in sorted(self.epoch_nodes):
            self._send(node, PREPARE, _U32.pack(self.update_id))

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
            self._send(node, COMMIT, _U32.pack(self.update_id))

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
                uid, digest = _u32_hash(payload, "READY")
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
                uid, digest = _u32_hash(payload, "SWITCHED")
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
                    self._send(node, ABORT, _U32.pack(self.update_id))
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
                    self._send(node, SHADOW, _U32.pack(self.update_id))
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
                    self._send(node, PREPARE, _U32.pack(self.update_id))
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
                    self._send(node, FINISH, _U32.pack(self.update_id))
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
                    self._send(node, ABORT, _U32.pack(self.update_id))
        return self.take()
