"""The OTA protocol's messages: ids, NACK codes, payload layouts, the signed manifest (docs/wire.md).

One protocol id (:data:`PROTO_OTA`), the message type in the envelope's ``edge`` field, kind CONTROL:

- the deployer (the host, id 0, or ``_deploy``) sends OFFER/OFFER2/OFFER_DELTA, DATA, COMMIT, ABORT, and to
  ONNX nodes PREPARE and SWITCH_AT (the epoch-consistent switch) and SHADOW (a staged rollout's canary);
- a node answers READY, NACK, SWITCHED, RESUME (ONNX and C nodes), and (ONNX nodes) HELD and CANARY.

Bytes in, values out, nothing else: every decoder bound-checks and raises :class:`OtaError` with
BAD_MESSAGE. The same layouts live in the C node end, firmware/include/bbrt_ota.h and
firmware/src/bbrt_ota.c, and in the MicroPython node end, firmware/micropython/bbnode/ota.py; the golden
vectors (tests/vectors/ota_offer2.py) hold all three to the same bytes.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from bb_edge.errors import BBError

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
OFFER_DELTA = 12  # an OFFER2 whose DATA carry a per-tensor delta against the running program (delta.py)
MESSAGE_NAMES = {OFFER: "OFFER", DATA: "DATA", COMMIT: "COMMIT", ABORT: "ABORT", READY: "READY",
                 NACK: "NACK", SWITCHED: "SWITCHED", OFFER2: "OFFER2", PREPARE: "PREPARE", HELD: "HELD",
                 SWITCH_AT: "SWITCH_AT", OFFER_DELTA: "OFFER_DELTA", SHADOW: "SHADOW", CANARY: "CANARY",
                 RESUME: "RESUME", FINISH: "FINISH", REVERT: "REVERT", REVERT_AT: "REVERT_AT"}

TARGET_ONNX, TARGET_BBRT, TARGET_MPY = 1, 2, 3
TARGET_NAMES = {TARGET_ONNX: "onnx", TARGET_BBRT: "bbrt", TARGET_MPY: "micropython"}
SIG_ED25519, SIG_HMAC_SHA256 = 1, 2

_OFFER = struct.Struct("<IIBBH32s")  # update id, size, target, signature kind, signature length, sha256
_OFFER2 = struct.Struct("<IIBBH32sQB")  # ... then u64 version, u8 deployment name length (name, signature follow)
U32 = struct.Struct("<I")  # an update id, the first field of every message
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


class OtaError(BBError):
    """An update was refused; ``code`` is one of the NACK codes (``CODE_NAMES``)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"{CODE_NAMES.get(code, code)}: {reason}")
        self.code = code
        self.reason = reason


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


def decode_data(buf: bytes) -> tuple[int, int, bytes]:
    """``(update_id, offset, chunk)`` of a DATA; OtaError(BAD_MESSAGE) when shorter than its header."""
    if len(buf) < _DATA.size:
        raise OtaError(BAD_MESSAGE, f"DATA of {len(buf)} bytes")
    uid, offset = _DATA.unpack_from(buf)
    return uid, offset, buf[_DATA.size:]


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
    return (U32.pack(update_id) + bytes([len(marks)])
            + b"".join(_MARK.pack(slot, rid) for slot, rid in sorted(marks.items())))


def decode_marks(buf: bytes, what: str) -> tuple[int, dict[int, int]]:
    """``(update_id, {slot: request id})`` of a HELD or SWITCH_AT; OtaError(BAD_MESSAGE) when malformed."""
    if len(buf) < U32.size + 1 or len(buf) != U32.size + 1 + buf[U32.size] * _MARK.size:
        raise OtaError(BAD_MESSAGE, f"{what} of {len(buf)} bytes")
    uid = int(U32.unpack_from(buf)[0])
    marks: dict[int, int] = {}
    for k in range(buf[U32.size]):
        slot, rid = _MARK.unpack_from(buf, U32.size + 1 + k * _MARK.size)
        if slot in marks:
            raise OtaError(BAD_MESSAGE, f"{what} names owner slot {slot} twice")
        marks[slot] = rid
    return uid, marks


def encode_revert_at(update_id: int, switch: dict[int, int], revert: dict[int, int]) -> bytes:
    """A REVERT_AT payload: the switch point's marks, then the revert point's (count and marks, no update id)."""
    return encode_marks(update_id, switch) + encode_marks(0, revert)[U32.size:]


def decode_revert_at(buf: bytes) -> tuple[int, dict[int, int], dict[int, int]]:
    """``(update_id, switch point, revert point)``; OtaError(BAD_MESSAGE) when malformed."""
    if len(buf) < U32.size + 1:
        raise OtaError(BAD_MESSAGE, f"REVERT_AT of {len(buf)} bytes")
    cut = U32.size + 1 + buf[U32.size] * _MARK.size
    uid, switch = decode_marks(buf[:cut], "REVERT_AT")
    _, revert = decode_marks(bytes(4) + buf[cut:], "REVERT_AT")
    return uid, switch, revert


def read_u32(buf: bytes, what: str) -> int:
    """The update id that is a COMMIT, ABORT, PREPARE, SHADOW or FINISH; OtaError(BAD_MESSAGE) otherwise."""
    if len(buf) != U32.size:
        raise OtaError(BAD_MESSAGE, f"{what} of {len(buf)} bytes, expected {U32.size}")
    return int(U32.unpack(buf)[0])


def read_u32_hash(buf: bytes, what: str) -> tuple[int, bytes]:
    """``(update_id, sha256)`` of a READY or SWITCHED; OtaError(BAD_MESSAGE) otherwise."""
    if len(buf) != U32.size + 32:
        raise OtaError(BAD_MESSAGE, f"{what} of {len(buf)} bytes, expected {U32.size + 32}")
    return int(U32.unpack_from(buf)[0]), bytes(buf[U32.size:])
