"""Serial framing: COBS(envelope || crc32_le(envelope)) || 0x00 (docs/wire.md)."""
try:
    from binascii import crc32 as _crc32
except ImportError:  # a port without binascii.crc32: table-driven fallback
    _crc32 = None

_TABLE = None


def crc32(data, crc=0):
    """IEEE 802.3 CRC-32 (zlib's crc32) of ``data``, continuing from ``crc``."""
    global _TABLE
    if _crc32 is not None:
        return _crc32(data, crc) & 0xFFFFFFFF
    if _TABLE is None:
        _TABLE = []
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            _TABLE.append(c)
    c = crc ^ 0xFFFFFFFF
    for b in data:
        c = _TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def max_frame(max_envelope):
    """Largest encoded frame for envelopes up to ``max_envelope`` bytes."""
    n = max_envelope + 4
    return n + (n + 253) // 254 + 1


def cobs_encode_into(src, n, out, pos):
    """COBS-encode ``src[:n]`` into ``out`` at ``pos``; return the new position (no delimiter)."""
    code_pos = pos
    pos += 1
    code = 1
    for i in range(n):
        b = src[i]
        if b == 0:
            out[code_pos] = code
            code_pos = pos
            pos += 1
            code = 1
        else:
            out[pos] = b
            pos += 1
            code += 1
            if code == 0xFF:
                out[code_pos] = code
                code_pos = pos
                pos += 1
                code = 1
    out[code_pos] = code
    return pos


def cobs_fast_into(src, n, out, pos):
    """COBS-encode ``src[:n]`` (a bytearray) into ``out`` at ``pos`` like :func:`cobs_encode_into`, copying
    zero-free runs with slice stores (found with ``find``) instead of byte by byte; return the new position."""
    mv = memoryview(src)
    i = 0
    while True:
        z = src.find(b"\x00", i, n)
        end = n if z < 0 else z
        while end - i >= 254:
            out[pos] = 0xFF
            out[pos + 1:pos + 255] = mv[i:i + 254]
            pos += 255
            i += 254
        k = end - i
        out[pos] = k + 1
        if k:
            out[pos + 1:pos + 1 + k] = mv[i:end]
        pos += k + 1
        if z < 0:
            return pos
        i = z + 1


def frame_into(buf, n, out):
    """Frame ``buf[:n]`` into ``out``: the CRC is written to ``buf[n:n + 4]`` (the caller leaves room), then
    COBS(body || crc) || 0x00; return the frame length."""
    c = crc32(memoryview(buf)[:n])
    buf[n] = c & 0xFF
    buf[n + 1] = (c >> 8) & 0xFF
    buf[n + 2] = (c >> 16) & 0xFF
    buf[n + 3] = (c >> 24) & 0xFF
    pos = cobs_fast_into(buf, n + 4, out, 0)
    out[pos] = 0
    return pos + 1


def encode(envelope, leading_zero=False):
    """One frame (bytes) for an envelope."""
    n = len(envelope)
    body = bytearray(n + 4)
    body[:n] = envelope
    c = crc32(envelope)
    body[n] = c & 0xFF
    body[n + 1] = (c >> 8) & 0xFF
    body[n + 2] = (c >> 16) & 0xFF
    body[n + 3] = (c >> 24) & 0xFF
    out = bytearray(max_frame(n) + 1)
    pos = 0
    if leading_zero:
        out[0] = 0
        pos = 1
    pos = cobs_encode_into(body, n + 4, out, pos)
    out[pos] = 0
    return bytes(out[:pos + 1])


class Deframer:
    """Accumulates serial bytes into preallocated buffers; ``push`` returns an envelope length when one is complete.

    The envelope is then ``self.env[:length]`` (valid until the next push). Bad frames are counted and dropped.
    """

    def __init__(self, max_envelope):
        self.cap = max_frame(max_envelope)
        self.raw = bytearray(self.cap)
        self.env = bytearray(max_envelope + 4)
        self.n = 0
        self.overflow = False
        self.frames_ok = 0
        self.bad_crc = 0
        self.bad_cobs = 0
        self.too_long = 0
        self.too_short = 0

    def push(self, b):
        """Feed one byte; return the decoded envelope length (>= 0) or -1."""
        if b != 0:
            if self.n < self.cap:
                self.raw[self.n] = b
                self.n += 1
            else:
                self.overflow = True
            return -1
        return self._close()  # the delimiter: decode and check what was gathered, as feed() does

    def feed(self, data, cb):
        """Feed a chunk of bytes; call ``cb(memoryview)`` with each good frame body (valid during the call).

        Zero-free runs are stored with slice copies and decoded block by block, so the cost is per frame and
        per 254-byte block rather than per byte.
        """
        n = len(data)
        i = 0
        mv = memoryview(data)
        while i < n:
            z = data.find(b"\x00", i)
            end = n if z < 0 else z
            k = end - i
            if k:
                if self.overflow or self.n + k > self.cap:
                    self.overflow = True
                else:
                    self.raw[self.n:self.n + k] = mv[i:end]
                    self.n += k
            if z < 0:
                return
            i = z + 1
            m = self._close()
            if m >= 0:
                cb(memoryview(self.env)[:m])

    def _close(self):
        """End the gathered frame (a zero byte arrived): its envelope length in ``env``, or -1 (counted)."""
        n = self.n
        self.n = 0
        if self.overflow:
            self.overflow = False
            self.too_long += 1
            return -1
        if n == 0:
            return -1
        raw = self.raw
        env = self.env
        rmv = memoryview(raw)
        cap = len(env)
        i = 0
        o = 0
        while i < n:  # raw holds no zero byte (zeros delimit frames), so blocks copy as slices
            code = raw[i]
            i += 1
            k = code - 1
            if i + k > n or o + k > cap:
                self.bad_cobs += 1
                return -1
            if k:
                env[o:o + k] = rmv[i:i + k]
                o += k
                i += k
            if code < 0xFF and i < n:
                if o >= cap:
                    self.bad_cobs += 1
                    return -1
                env[o] = 0
                o += 1
        if o < 5:
            self.too_short += 1
            return -1
        got = env[o - 4] | env[o - 3] << 8 | env[o - 2] << 16 | env[o - 1] << 24
        if crc32(memoryview(env)[:o - 4]) != got:
            self.bad_crc += 1
            return -1
        self.frames_ok += 1
        return o - 4
