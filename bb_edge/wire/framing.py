"""Framing for the envelope: length prefix (streams) and COBS + CRC-32 (serial).

Both decoders are incremental and sans-IO: feed them whatever bytes arrived
and they return the complete envelopes found so far, counting what they drop.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

from bb_edge.errors import WireError

DEFAULT_MAX_ENVELOPE = 64 * 1024 * 1024 + 96


def cobs_encode(data: bytes | bytearray | memoryview) -> bytes:
    """COBS-encode ``data``: the result contains no zero byte.

    Works segment by segment (split at zeros) so the per-byte work happens in C.
    """
    out = bytearray()
    for seg in bytes(data).split(b"\x00"):
        while len(seg) >= 254:
            out.append(0xFF)
            out += seg[:254]
            seg = seg[254:]
        out.append(len(seg) + 1)
        out += seg
    return bytes(out)


def cobs_decode(data: bytes | bytearray | memoryview) -> bytes:
    """Decode one COBS block (without its 0x00 delimiter); raise WireError if malformed."""
    buf = bytes(data)
    if 0 in buf:
        raise WireError("BAD_FRAME", "zero byte inside a COBS block")
    out = bytearray()
    i = 0
    n = len(buf)
    while i < n:
        code = buf[i]
        end = i + code
        if end > n:
            raise WireError("BAD_FRAME", "COBS block runs past the end of the frame")
        out += buf[i + 1 : end]
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def frame(envelope: bytes) -> bytes:
    """Serial-frame one envelope: COBS(envelope || crc32_le) || 0x00."""
    crc = zlib.crc32(envelope) & 0xFFFFFFFF
    return cobs_encode(envelope + struct.pack("<I", crc)) + b"\x00"


def length_prefix(envelope: bytes) -> bytes:
    """Stream-frame one envelope: u32 little-endian length, then the envelope."""
    return struct.pack("<I", len(envelope)) + envelope


@dataclass
class FrameStats:
    """Counters of a serial frame decoder."""

    frames_ok: int = 0
    bad_crc: int = 0
    bad_cobs: int = 0
    too_long: int = 0
    too_short: int = 0
    bytes_in: int = 0


class FrameDecoder:
    """Incremental COBS + CRC-32 deframer with resynchronisation.

    Garbage, cut frames and corrupt frames are counted in :attr:`stats` and
    dropped; decoding resumes at the next 0x00 delimiter.
    """

    def __init__(self, max_envelope: int = DEFAULT_MAX_ENVELOPE) -> None:
        self.max_frame = max_envelope + 4 + (max_envelope + 4) // 254 + 2
        self._buf = bytearray()
        self._overflow = False
        self.stats = FrameStats()

    def feed(self, data: bytes | bytearray | memoryview) -> list[bytes]:
        """Consume bytes; return the envelopes of every complete, valid frame."""
        out: list[bytes] = []
        self.stats.bytes_in += len(data)
        view = bytes(data)
        start = 0
        while True:
            idx = view.find(b"\x00", start) - start if start < len(view) else -1
            if idx < 0:
                rest = view[start:]
                if not self._overflow:
                    self._buf += rest
                    if len(self._buf) > self.max_frame:
                        self._buf.clear()
                        self._overflow = True
                break
            chunk = view[start : start + idx]
            start += idx + 1
            if self._overflow:
                self._overflow = False
                self.stats.too_long += 1
                continue
            self._buf += chunk
            body = bytes(self._buf)
            self._buf.clear()
            if not body:
                continue  # idle delimiter / flush byte
            if len(body) > self.max_frame:
                self.stats.too_long += 1
                continue
            try:
                raw = cobs_decode(body)
            except WireError:
                self.stats.bad_cobs += 1
                continue
            if len(raw) < 5:
                self.stats.too_short += 1
                continue
            env, crc = raw[:-4], struct.unpack("<I", raw[-4:])[0]
            if zlib.crc32(env) & 0xFFFFFFFF != crc:
                self.stats.bad_crc += 1
                continue
            self.stats.frames_ok += 1
            out.append(env)
        return out

    @property
    def dropped(self) -> int:
        """Frames dropped for any reason."""
        s = self.stats
        return s.bad_crc + s.bad_cobs + s.too_long + s.too_short


class StreamDecoder:
    """Incremental u32-length-prefix deframer for stream transports."""

    def __init__(self, max_envelope: int = DEFAULT_MAX_ENVELOPE) -> None:
        self.max_envelope = max_envelope
        self._buf = bytearray()

    def feed(self, data: bytes | bytearray | memoryview) -> list[bytes]:
        """Consume bytes; return complete envelopes. Raise WireError on an oversized length."""
        self._buf += data
        out: list[bytes] = []
        while len(self._buf) >= 4:
            (n,) = struct.unpack_from("<I", self._buf, 0)
            if n > self.max_envelope:
                self._buf.clear()
                raise WireError("TOO_LARGE", f"length prefix {n} exceeds maximum {self.max_envelope}")
            if len(self._buf) < 4 + n:
                break
            out.append(bytes(self._buf[4 : 4 + n]))
            del self._buf[: 4 + n]
        return out
