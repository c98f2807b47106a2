"""float32 arithmetic in small ints: the allocation-free path of MicroPython training (bbnode/train_int.py).

On ports with boxed floats (``MICROPY_OBJ_REPR_A``: the ESP32 and the WebAssembly VM) every float result
is a 16-byte heap object; a small int is not (31-bit signed on a 32-bit port: ``|n| < 2**30``). This
module keeps a float32 value in ONE small int and computes with ints only, every intermediate below
``2**30`` in magnitude, so no operation allocates.

Encoding (sign-magnitude, 31 bits)::

    x == 0                       ->  0
    x == +-(1 + m / 2**23) * 2**(e7 - 64),  1 <= e7 <= 127, 0 <= m < 2**23
                                 ->  +-((e7 << 23) | m)

i.e. float32's 23-bit mantissa with a 7-bit exponent: magnitudes in ``[2**-63, 2**64)``. A smaller result
flushes to zero (float32 keeps 2**-126 and subnormals); a larger one, infinity or NaN raises
:class:`F32Overflow` (``code == "OVERFLOW"``). Signed zero is not kept (``-0.0`` is ``0``). Why this
encoding: the magnitude ``(e7 << 23) | m`` grows with the value and the sign is the int's own, so the
int order IS the float order: compare encodings with ``<``, ``==``, ``max`` directly, and negate with
``-x``; the 7-bit exponent is what fits next to the 23-bit mantissa in 30 bits, and 2**+-63 is far
outside anything a training step of a small classifier produces (a trainer reports the overflow).

Operations (each returns one int; none allocates): :func:`add`, :func:`sub`, :func:`mul` and
:func:`div` round to nearest, ties to even, and equal numpy float32 bit for bit whenever the inputs and
the float32 result are in range (the 24x24-bit mantissa product is split into 12-bit limbs so no partial
product reaches 2**30); :func:`exp` (range reduction by ``k ln 2`` from a table, then a degree-9 Taylor
polynomial in Q28 fixed point) is within 1 ulp of float32 ``exp``; :func:`log` (``e ln 2`` plus an atanh
series) within 2 ulp + 2**-26 absolute, for the loss only. Conversions: :func:`from_bytes` /
:func:`into_bytes` (float32 little-endian, ints only), :func:`from_float` / :func:`to_float` (allocate:
for loading and reporting, not for a step).

Why one file: ~550 lines on purpose: MicroPython imports each module into the device's heap as a whole and
the operations share private helpers (normalize-and-round, the exp table); split, the device would hold
several module objects and the inlined :func:`dot` could not reach the helpers without attribute lookups.
"""
import struct

MANT = 0x7FFFFF  # the 23 stored mantissa bits
HIDDEN = 0x800000  # the implicit leading 1 of a normal float32
ONE = 64 << 23  # 1.0
_Q = 1 << 28  # 1.0 in the Q28 fixed point of exp and log


class F32Overflow(ValueError):
    """A value at or beyond 2**64 in magnitude, infinity, NaN or a division by zero (``code`` OVERFLOW)."""

    code = "OVERFLOW"


def _overflow(what):
    raise F32Overflow(what)


def add(a, b):
    """a + b, rounded to nearest even (numpy float32's ``a + b`` for in-range values)."""
    if a == 0:
        return b
    if b == 0:
        return a
    # A: the larger magnitude, its sign is the result's
    if a < 0:
        A = -a
        neg = True
    else:
        A = a
        neg = False
    B = -b if b < 0 else b
    diff = (a < 0) != (b < 0)
    if B > A:
        t = A
        A = B
        B = t
        neg = b < 0
    e = A >> 23
    d = e - (B >> 23)
    # 24-bit mantissas with 5 extra low bits (guard + 4) below them: at most 2**29, the sum below 2**30
    ma = ((A & MANT) | HIDDEN) << 5
    mb = ((B & MANT) | HIDDEN) << 5
    if d:
        if d > 28:
            mb = 1  # only the sticky bit survives
        elif mb & ((1 << d) - 1):
            mb = (mb >> d) | 1  # sticky: something nonzero was shifted out
        else:
            mb >>= d
    if diff:
        s = ma - mb
        if s == 0:
            return 0
        while s < 0x10000000:  # cancellation: exact when d <= 1, one shift at most otherwise
            s <<= 1
            e -= 1
    else:
        s = ma + mb
        if s >= 0x20000000:
            s = (s >> 1) | (s & 1)
            e += 1
    sig = s >> 5
    rem = s & 31
    if rem > 16 or (rem == 16 and sig & 1):
        sig += 1
        if sig == 0x1000000:
            sig = HIDDEN
            e += 1
    if e < 1:
        return 0
    if e > 127:
        _overflow("add")
    r = (e << 23) | (sig & MANT)
    return -r if neg else r


def sub(a, b):
    """a - b, rounded to nearest even."""
    return add(a, -b)


def mul(a, b):
    """a * b, rounded to nearest even; the 48-bit mantissa product is built from 12-bit limbs."""
    if a == 0 or b == 0:
        return 0
    neg = False
    if a < 0:
        a = -a
        neg = True
    if b < 0:
        b = -b
        neg = not neg
    e = (a >> 23) + (b >> 23) - 64
    ma = (a & MANT) | HIDDEN
    mb = (b & MANT) | HIDDEN
    ah = ma >> 12
    al = ma & 0xFFF
    bh = mb >> 12
    bl = mb & 0xFFF
    mid = ah * bl + al * bh  # < 2**25
    lo = al * bl + ((mid & 0xFFF) << 12)  # < 2**25
    hi = ah * bh + (mid >> 12) + (lo >> 24)  # the product >> 24: in [2**22, 2**24)
    lo &= 0xFFFFFF
    if hi >= HIDDEN:  # product in [2**47, 2**48): 24 bits in hi, 24 below
        e += 1
        sig = hi
        rem = lo
        half = 0x800000
    else:
        sig = (hi << 1) | (lo >> 23)
        rem = lo & MANT
        half = 0x400000
    if rem > half or (rem == half and sig & 1):
        sig += 1
        if sig == 0x1000000:
            sig = HIDDEN
            e += 1
    if e < 1:
        return 0
    if e > 127:
        _overflow("mul")
    r = (e << 23) | (sig & MANT)
    return -r if neg else r


def div(a, b):
    """a / b, rounded to nearest even (restoring division: 24 bits, a guard bit and the remainder)."""
    if b == 0:
        _overflow("division by zero")
    if a == 0:
        return 0
    neg = False
    if a < 0:
        a = -a
        neg = True
    if b < 0:
        b = -b
        neg = not neg
    e = (a >> 23) - (b >> 23) + 64
    r = (a & MANT) | HIDDEN
    mb = (b & MANT) | HIDDEN
    if r < mb:
        r <<= 1
        e -= 1
    q = 0
    for _i in range(25):  # r < 2 mb < 2**25 throughout
        q <<= 1
        if r >= mb:
            r -= mb
            q |= 1
        r <<= 1
    sig = q >> 1
    if q & 1 and (r or sig & 1):
        sig += 1
        if sig == 0x1000000:
            sig = HIDDEN
            e += 1
    if e < 1:
        return 0
    if e > 127:
        _overflow("div")
    r = (e << 23) | (sig & MANT)
    return -r if neg else r


def dot(s, A, ia, sa, B, ib, sb, n):
    """``s + A[ia] B[ib] + A[ia + sa] B[ib + sb] + ...`` over ``n`` terms, each product and each partial sum
    rounded like :func:`mul` and :func:`add` (the same bits as that loop of calls): the training step's
    inner loop, with both operations inlined (two calls fewer per term)."""
    for _t in range(n):
        a = A[ia]
        b = B[ib]
        ia += sa
        ib += sb
        if a == 0 or b == 0:
            continue
        # p = a * b: mul() inlined
        neg = False
        if a < 0:
            a = -a
            neg = True
        if b < 0:
            b = -b
            neg = not neg
        e = (a >> 23) + (b >> 23) - 64
        ma = (a & MANT) | HIDDEN
        mb = (b & MANT) | HIDDEN
        ah = ma >> 12
        al = ma & 0xFFF
        bh = mb >> 12
        bl = mb & 0xFFF
        mid = ah * bl + al * bh
        lo = al * bl + ((mid & 0xFFF) << 12)
        hi = ah * bh + (mid >> 12) + (lo >> 24)
        lo &= 0xFFFFFF
        if hi >= HIDDEN:
            e += 1
            sig = hi
            rem = lo
            half = 0x800000
        else:
            sig = (hi << 1) | (lo >> 23)
            rem = lo & MANT
            half = 0x400000
        if rem > half or (rem == half and sig & 1):
            sig += 1
            if sig == 0x1000000:
                sig = HIDDEN
                e += 1
        if e < 1:
            continue
        if e > 127:
            _overflow("mul")
        # s = s + p: add() inlined, p as (neg, e, sig) without encoding it
        if s == 0:
            s = (e << 23) | (sig & MANT)
            if neg:
                s = -s
            continue
        S = -s if s < 0 else s
        diff = (s < 0) != neg
        P = (e << 23) | (sig & MANT)
        if P > S:
            t = S
            S = P
            P = t
        else:
            neg = s < 0
        e = S >> 23
        d = e - (P >> 23)
        ma = ((S & MANT) | HIDDEN) << 5
        mb = ((P & MANT) | HIDDEN) << 5
        if d:
            if d > 28:
                mb = 1
            elif mb & ((1 << d) - 1):
                mb = (mb >> d) | 1
            else:
                mb >>= d
        if diff:
            r = ma - mb
            if r == 0:
                s = 0
                continue
            while r < 0x10000000:
                r <<= 1
                e -= 1
        else:
            r = ma + mb
            if r >= 0x20000000:
                r = (r >> 1) | (r & 1)
                e += 1
        sig = r >> 5
        rem = r & 31
        if rem > 16 or (rem == 16 and sig & 1):
            sig += 1
            if sig == 0x1000000:
                sig = HIDDEN
                e += 1
        if e < 1:
            s = 0
            continue
        if e > 127:
            _overflow("add")
        s = (e << 23) | (sig & MANT)
        if neg:
            s = -s
    return s


def fmax(a, b):
    """The larger of two encoded values (the int order is the float order)."""
    return a if a >= b else b


def pack(v, sh):
    """The float32 nearest ``v * 2**sh`` (``v`` an int, ``|v| < 2**30``), ties to even."""
    if v == 0:
        return 0
    neg = v < 0
    if neg:
        v = -v
    if v >= 0x1000000:
        k = 1
        while (v >> k) >= 0x1000000:
            k += 1
        rem = v & ((1 << k) - 1)
        half = 1 << (k - 1)
        sig = v >> k
        sh += k
        if rem > half or (rem == half and sig & 1):
            sig += 1
            if sig == 0x1000000:
                sig = HIDDEN
                sh += 1
    else:
        while v < HIDDEN:
            v <<= 1
            sh -= 1
        sig = v
    e = sh + 23 + 64
    if e < 1:
        return 0
    if e > 127:
        _overflow("pack")
    r = (e << 23) | (sig & MANT)
    return -r if neg else r


def from_int(n):
    """The float32 nearest the int ``n`` (``|n| < 2**30``)."""
    return pack(n, 0)


# ------------------------------------------------------------------ bytes and floats
def from_bits(lo, hi):
    """The encoding of the float32 whose bits are ``hi << 16 | lo`` (two 16-bit halves: no big int).

    Zero, subnormals and magnitudes below 2**-63 give 0; 2**64 and beyond, infinity and NaN raise
    :class:`F32Overflow`."""
    ex = (hi >> 7) & 0xFF
    if ex == 255:
        _overflow("infinity or NaN")
    e = ex - 63
    if ex == 0 or e < 1:
        return 0
    if e > 127:
        _overflow("beyond 2**64")
    r = (e << 23) | ((hi & 0x7F) << 16) | lo
    return -r if hi & 0x8000 else r


def from_bytes(buf, off):
    """The encoding of the little-endian float32 at ``buf[off:off + 4]``."""
    return from_bits(buf[off] | (buf[off + 1] << 8), buf[off + 2] | (buf[off + 3] << 8))


def into_bytes(buf, off, x):
    """Write ``x`` as a little-endian float32 at ``buf[off:off + 4]`` (a bytearray or any writable
    buffer of bytes)."""
    lo, hi = 0, 0
    if x:
        s = 0
        if x < 0:
            x = -x
            s = 0x8000
        lo = x & 0xFFFF
        hi = s | (((x >> 23) + 63) << 7) | ((x >> 16) & 0x7F)
    buf[off] = lo & 0xFF
    buf[off + 1] = lo >> 8
    buf[off + 2] = hi & 0xFF
    buf[off + 3] = hi >> 8


def into_f32(arr, i, x):
    """Store ``x`` in cell ``i`` of an ``array('f')`` without making a float object."""
    lo, hi = 0, 0
    if x:
        s = 0
        if x < 0:
            x = -x
            s = 0x8000
        lo = x & 0xFFFF
        hi = s | (((x >> 23) + 63) << 7) | ((x >> 16) & 0x7F)
    struct.pack_into("<HH", arr, 4 * i, lo, hi)


def from_float(v):
    """The encoding of ``v`` rounded to float32 (allocates: for loading, not for a step)."""
    b = struct.pack("<f", v)
    return from_bytes(b, 0)


def to_float(x):
    """The float32 value of ``x`` as a Python float (allocates: for reporting and tests)."""
    b = bytearray(4)
    into_bytes(b, 0, x)
    return struct.unpack("<f", b)[0]


# --------------------------------------------------------------- exp and log, Q28
def _mulq(a, b):
    """``a * b / 2**28`` for Q28 values with ``|a|, |b| < 1.5 * 2**28`` and one of them below 2**28
    (14-bit limbs; truncated, within 2 units)."""
    neg = False
    if a < 0:
        a = -a
        neg = True
    if b < 0:
        b = -b
        neg = not neg
    a1 = a >> 14
    a0 = a & 0x3FFF
    b1 = b >> 14
    b0 = b & 0x3FFF
    v = a1 * b1 + ((a1 * b0 + a0 * b1 + ((a0 * b0) >> 14)) >> 14)
    return -v if neg else v


def _ln2_table():
    """``k ln 2`` for k in -64..64 as (floor, fraction in Q28) arrays (built once, at import)."""
    from array import array
    ln2_q56 = 0xB17217F7D1CF79  # ln 2 * 2**56 (a 64-bit int on ports without arbitrary precision)
    ki = array("i", [0] * 129)
    kf = array("i", [0] * 129)
    for k in range(-64, 65):
        v = k * ln2_q56
        i = v >> 56
        f = ((v - (i << 56)) + (1 << 27)) >> 28
        if f == _Q:
            f = 0
            i += 1
        ki[k + 64] = i
        kf[k + 64] = f
    return ki, kf


_KI, _KF = _ln2_table()
_EXP_LO = -((69 << 23) | (0x300000))  # -44.0: exp below 2**-63 flushes to zero
_EXP_HI = (69 << 23) | 0x340000  # 45.0: exp at or beyond 2**64 overflows
_SQRT2_Q28 = 379625062  # sqrt(2) * 2**28


def exp(x):
    """e**x within 1 ulp of float32 ``exp`` (0 below e**-44; :class:`F32Overflow` at 2**64 and beyond)."""
    if x == 0:
        return ONE
    if x <= _EXP_LO:
        return 0
    if x >= _EXP_HI:
        _overflow("exp")
    neg = x < 0
    X = -x if neg else x
    e = (X >> 23) - 64
    m = (X & MANT) | HIDDEN
    # x = xi + xf / 2**28 with xi = floor(x), 0 <= xf < 2**28 (exact: |x| < 64 keeps x's bits above 2**-28)
    if e >= 0:
        sh = 23 - e
        xi = m >> sh
        xf = (m & ((1 << sh) - 1)) << (5 + e)
    else:
        xi = 0
        xf = m << (5 + e) if e >= -5 else m >> (-5 - e)
    if neg:
        if xf:
            xi = -xi - 1
            xf = _Q - xf
        else:
            xi = -xi
    # k = round(x / ln 2) from x in Q14 times 739 / 2**9 (1 / ln 2 within 5e-4: |r| stays below 0.38)
    k = ((xi << 14) + (xf >> 14)) * 739 + (1 << 22) >> 23
    # r = x - k ln 2 in Q28 (|r| < 0.4)
    r = ((xi - _KI[k + 64]) << 28) + (xf - _KF[k + 64])
    # e**r = 1 + r (1 + r/2 (1 + r/3 (... (1 + r/9)))): Taylor to degree 9, error below 2**-30
    p = _Q
    i = 9
    while i:
        p = _Q + _mulq(r, p) // i
        i -= 1
    if p >= _Q:  # e**r in [1, 1.5): 29 bits, keep 24
        sig = p >> 5
        rem = p & 31
        half = 16
        k += 64
    else:  # [0.68, 1): 28 bits
        sig = p >> 4
        rem = p & 15
        half = 8
        k += 63
    if rem > half or (rem == half and sig & 1):
        sig += 1
        if sig == 0x1000000:
            sig = HIDDEN
            k += 1
    if k < 1:
        return 0
    if k > 127:
        _overflow("exp")
    return (k << 23) | (sig & MANT)


def log(x):
    """ln x for x > 0 (within 2 ulp + 2**-26 absolute; :class:`F32Overflow` for x <= 0)."""
    if x <= 0:
        _overflow("log of a value <= 0")
    e = (x >> 23) - 64
    f = ((x & MANT) | HIDDEN) << 5  # the mantissa in Q28, [1, 2)
    if f > _SQRT2_Q28:
        f >>= 1
        e += 1
    # ln f = 2 atanh(t), t = (f - 1) / (f + 1), |t| <= 0.1716; both in Q24 (exact: f's low 4 bits are 0)
    num = (f - _Q) >> 4
    den = (f + _Q) >> 4
    neg = num < 0
    r = -num if neg else num
    t = 0
    for _i in range(28):  # t = num / den in Q28, bit by bit; r < den < 2**25.3
        r <<= 1
        t <<= 1
        if r >= den:
            r -= den
            t |= 1
    if neg:
        t = -t
    t2 = _mulq(t, t)
    s = _Q // 9
    s = _Q // 7 + _mulq(t2, s)
    s = _Q // 5 + _mulq(t2, s)
    s = _Q // 3 + _mulq(t2, s)
    s = _Q + _mulq(t2, s)
    lf = 2 * _mulq(t, s)  # ln f in Q28, |lf| < 0.35 * 2**28
    if e == 0:
        return pack(lf, -28)
    # e ln 2 + ln f = ki + (kf + lf) / 2**28
    v = _KF[e + 64] + lf
    return add(from_int(_KI[e + 64] + (v >> 28)), pack(v & (_Q - 1), -28))
