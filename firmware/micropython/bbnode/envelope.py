"""Envelope v1 codec (docs/wire.md), the same validation order as the C and Python decoders."""
import struct

MAGIC0 = 0xBB
MAGIC1 = 0xE1
QUANT = 1
RESPONSE = 2
ERROR = 4
SESSION = 8  # a step of a session: response_to is the session id, step (offset 60) the step
KIND_DATA = 0
KIND_CONTROL = 1
BROADCAST = 0xFFFFFFFF
ITEMSIZE = {1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 8, 9: 1, 10: 2, 11: 8, 12: 4, 13: 8}
_HDR = "<BBBBHHIIQQQIBBHfiII"  # 64 bytes


class EnvelopeError(ValueError):
    """A refused envelope; ``code`` is the docs/wire.md error name (TRUNCATED, BAD_MAGIC, ...)."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


class Envelope:
    """One decoded envelope; ``payload`` is a memoryview into the decoded buffer (no copy)."""

    def __init__(self, kind=0, flags=0, protocol=0, sender=0, receiver=0, seq=0, request_id=0,
                 response_to=0, edge=0, dtype=2, dims=(), scale=0.0, zero_point=0, payload=b"", step=0):
        self.kind = kind
        self.flags = flags
        self.protocol = protocol
        self.sender = sender
        self.receiver = receiver
        self.seq = seq
        self.request_id = request_id
        self.response_to = response_to
        self.edge = edge
        self.dtype = dtype
        self.dims = dims
        self.scale = scale
        self.zero_point = zero_point
        self.payload = payload
        self.step = step


def data_offset(rank):
    """Offset of the tensor data: 64 + 8 * ceil(rank / 2)."""
    return 64 + 8 * ((rank + 1) // 2)


def decode(buf, max_payload=65536):
    """Decode and validate ``buf`` (bytes-like); raise EnvelopeError(code) on the first failed rule."""
    n = len(buf)
    if n < 64:
        raise EnvelopeError("TRUNCATED")
    if buf[0] != MAGIC0 or buf[1] != MAGIC1:
        raise EnvelopeError("BAD_MAGIC")
    if buf[2] != 1:
        raise EnvelopeError("BAD_VERSION")
    (_m0, _m1, _v, kind, flags, protocol, sender, receiver, seq, request_id, response_to, edge, dtype, rank,
     res0, scale, zp, plen, res1) = struct.unpack_from(_HDR, buf, 0)
    if kind > 1:
        raise EnvelopeError("BAD_KIND")
    if flags & 0xFFF0 or res0 or (res1 and not flags & SESSION):
        raise EnvelopeError("BAD_FIELD")
    if flags & SESSION and (flags & RESPONSE or not response_to):
        raise EnvelopeError("BAD_FIELD")
    if dtype not in ITEMSIZE:
        raise EnvelopeError("BAD_DTYPE")
    if rank > 8:
        raise EnvelopeError("BAD_RANK")
    doff = data_offset(rank)
    if flags & QUANT:
        if dtype != 2 and dtype != 3:
            raise EnvelopeError("BAD_FIELD")
        bits = buf[48] | buf[49] << 8 | buf[50] << 16 | (buf[51] & 0x7F) << 24
        if buf[51] & 0x80 or bits == 0 or bits >= 0x7F800000:  # negative, zero, inf or NaN
            raise EnvelopeError("BAD_FIELD")
    else:
        for i in range(48, 56):
            if buf[i]:
                raise EnvelopeError("BAD_FIELD")
    if rank & 1 and n >= doff:
        for i in range(doff - 4, doff):
            if buf[i]:
                raise EnvelopeError("BAD_FIELD")
    if plen > max_payload:
        raise EnvelopeError("TOO_LARGE")
    if n < doff + plen:
        raise EnvelopeError("TRUNCATED")
    if n > doff + plen:
        raise EnvelopeError("BAD_LENGTH")
    dims = struct.unpack_from("<%dI" % rank, buf, 64) if rank else ()
    count = 1
    for d in dims:
        count *= d
    if count * ITEMSIZE[dtype] != plen:
        raise EnvelopeError("BAD_LENGTH")
    mv = memoryview(buf)
    return Envelope(kind, flags, protocol, sender, receiver, seq, request_id, response_to, edge, dtype, dims,
                    scale if flags & QUANT else 0.0, zp, mv[doff:doff + plen], res1)


def header_into(out, env, plen):
    """Write the header + dims of ``env`` (payload length ``plen``) into ``out``; return the data offset."""
    rank = len(env.dims)
    struct.pack_into(_HDR, out, 0, MAGIC0, MAGIC1, 1, env.kind, env.flags, env.protocol, env.sender,
                     env.receiver, env.seq, env.request_id, env.response_to, env.edge, env.dtype, rank, 0,
                     env.scale if env.flags & QUANT else 0.0, env.zero_point if env.flags & QUANT else 0, plen,
                     env.step if env.flags & SESSION else 0)
    doff = data_offset(rank)
    for i in range(rank):
        struct.pack_into("<I", out, 64 + 4 * i, env.dims[i])
    for i in range(64 + 4 * rank, doff):
        out[i] = 0
    return doff


def encode(env):
    """The envelope's bytes (header, dims, padding, payload)."""
    plen = len(env.payload)
    doff = data_offset(len(env.dims))
    out = bytearray(doff + plen)
    header_into(out, env, plen)
    out[doff:] = env.payload
    return bytes(out)
