"""The hello record of docs/wire.md ("HELLO (type 1): the hello record").

The same bytes are the body of a link-layer HELLO frame after its 8-byte link
header and the payload of the control envelope ``HELLO`` (code 1). Layout,
little-endian, offsets relative to the start of the record:

====== ==== ================ =========================================
offset size field            rule
====== ==== ================ =========================================
0      1    ``min_version``  >= 1
1      1    ``max_version``  >= ``min_version``
2      2    ``caps``         bit 0 ARQ, bit 1 FRAG; other bits 0
4      4    ``boot_epoch``   >= 1
8      4    ``node_id``      sender's node id
12     4    ``max_frame``    >= 64
16     2    ``window``       1..32
18     2    ``name_len``     0..64
20     32   ``program_hash`` SHA-256 of the program (zeros: none)
52     n    ``name``         UTF-8, ``name_len`` bytes
====== ==== ================ =========================================

:func:`decode` applies every rule and raises :class:`~bb_edge.errors.WireError`
with a code on the first one broken, so a caller turns it into a ``BadHello``
event without touching any state.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from bb_edge.errors import WireError

CAP_ARQ = 1 << 0
CAP_FRAG = 1 << 1
KNOWN_CAPS = CAP_ARQ | CAP_FRAG
RECORD_SIZE = 52  # fixed part; the name follows
MAX_NAME = 64
MIN_FRAME = 64
MAX_WINDOW = 32
HASH_SIZE = 32
# the envelope/link version range this implementation speaks
OWN_MIN_VERSION = 1
OWN_MAX_VERSION = 1

_RECORD = struct.Struct("<BBHIIIHH32s")
assert _RECORD.size == RECORD_SIZE


@dataclass(frozen=True)
class HelloRecord:
    """One peer's hello: version range, boot epoch, identity and capabilities."""

    min_version: int
    max_version: int
    caps: int
    boot_epoch: int
    node_id: int
    max_frame: int
    window: int
    name: str = ""
    program_hash: bytes = b"\x00" * HASH_SIZE

    def encode(self) -> bytes:
        """The record's bytes; WireError if a field breaks a rule (the same rules decode checks)."""
        name = self.name.encode("utf-8")
        if len(name) > MAX_NAME:
            raise WireError("BAD_FIELD", f"name is {len(name)} bytes; at most {MAX_NAME}")
        if len(self.program_hash) != HASH_SIZE:
            raise WireError("BAD_FIELD", f"program_hash is {len(self.program_hash)} bytes, not {HASH_SIZE}")
        for value, what, hi in ((self.min_version, "min_version", 0xFF), (self.max_version, "max_version", 0xFF),
                                (self.caps, "caps", 0xFFFF), (self.boot_epoch, "boot_epoch", 0xFFFFFFFF),
                                (self.node_id, "node_id", 0xFFFFFFFF), (self.max_frame, "max_frame", 0xFFFFFFFF),
                                (self.window, "window", 0xFFFF)):
            if not 0 <= value <= hi:
                raise WireError("BAD_FIELD", f"{what}={value} out of range")
        raw = _RECORD.pack(self.min_version, self.max_version, self.caps, self.boot_epoch, self.node_id,
                           self.max_frame, self.window, len(name), bytes(self.program_hash)) + name
        decode(raw)  # one set of rules for both directions
        return raw

    def version_with(self, other: HelloRecord) -> int | None:
        """The version both ends speak (the highest common one), or None when the ranges do not meet."""
        return negotiate(self.min_version, self.max_version, other.min_version, other.max_version)


def negotiate(min_a: int, max_a: int, min_b: int, max_b: int) -> int | None:
    """``v = min(max_a, max_b)`` if ``v >= max(min_a, min_b)``, else None (docs/wire.md, Version)."""
    v = min(max_a, max_b)
    return v if v >= max(min_a, min_b) else None


def decode(buf: bytes | bytearray | memoryview) -> HelloRecord:
    """Decode and validate one hello record (exactly ``52 + name_len`` bytes)."""
    mv = memoryview(buf).cast("B")
    if len(mv) < RECORD_SIZE:
        raise WireError("TRUNCATED", f"hello record is {len(mv)} bytes, shorter than {RECORD_SIZE}")
    (min_v, max_v, caps, epoch, node_id, max_frame, window, name_len,
     program_hash) = _RECORD.unpack_from(mv, 0)
    if min_v < 1 or max_v < min_v:
        raise WireError("BAD_VERSION", f"version range {min_v}..{max_v} is empty or starts below 1")
    if caps & ~KNOWN_CAPS:
        raise WireError("BAD_FIELD", f"unknown capability bits 0x{caps & ~KNOWN_CAPS:04x}")
    if epoch < 1:
        raise WireError("BAD_FIELD", "boot_epoch must be >= 1")
    if max_frame < MIN_FRAME:
        raise WireError("BAD_FIELD", f"max_frame {max_frame} is below {MIN_FRAME}")
    if not 1 <= window <= MAX_WINDOW:
        raise WireError("BAD_FIELD", f"window {window} is not in 1..{MAX_WINDOW}")
    if name_len > MAX_NAME:
        raise WireError("BAD_FIELD", f"name_len {name_len} exceeds {MAX_NAME}")
    total = RECORD_SIZE + name_len
    if len(mv) < total:
        raise WireError("TRUNCATED", f"hello record is {len(mv)} bytes but declares {total}")
    if len(mv) > total:
        raise WireError("BAD_LENGTH", f"{len(mv) - total} trailing bytes after the hello record")
    try:
        name = bytes(mv[RECORD_SIZE:total]).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WireError("BAD_FIELD", f"node name is not UTF-8: {exc}") from None
    return HelloRecord(min_version=min_v, max_version=max_v, caps=caps, boot_epoch=epoch, node_id=node_id,
                       max_frame=max_frame, window=window, name=name, program_hash=bytes(program_hash))
