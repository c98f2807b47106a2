"""Executor of .bbrt v1 programs (bb_edge/bbrt/format.py) with the C runtime's exact arithmetic.

Loading allocates everything: one int8 arena and one float32 arena (``array``), both
indexed by the planner's byte offsets (the planner's non-overlap holds per arena),
constants copied into typed arrays, and per-op integer tables computed from the
program's quantization: a 256-entry threshold table per distinct output-channel
scale (bytes over an affine base when that is exact, ``thr_channels``) replaces
the 64-bit fixed-point requantization (``out >= q`` iff ``acc >= thr[q]``, exact
because the C requantization is monotone in the accumulator), lookup tables
replace the float math of AVGPOOL_I8/GAP_I8/CONCAT/QUANTIZE/DEQUANTIZE. The int8
inference loop then runs on small ints only and allocates nothing.

The float32 kernels reproduce the C kernels' float32 rounding (every result is
stored through an ``array('f')`` cell), so on a double-precision port they are
bit-identical to C too; MicroPython boxes floats on most ports, so those
kernels (and SOFTMAX_I8 without TFLite's exp table) allocate transient float
objects; SOFTMAX_I8 with the table computes in float32 encoded in small ints
(bbnode/f32int.py) and allocates nothing.

Why one file: the loader builds every kernel's tables from one pass over the program, and on the device
a module per kernel would cost import RAM. It mirrors the C kernels op for op.
"""
import array
import struct
import sys

try:
    import uctypes
except ImportError:  # CPython (host-side debugging)
    uctypes = None

MPY = sys.implementation.name == "micropython"
MINV = -(1 << 30)
MAXV = (1 << 30) - 1
DT_FLOAT, DT_UINT8, DT_INT8, DT_INT16, DT_INT32, DT_INT64 = 1, 2, 3, 5, 6, 7
STORE_CONST = 1
RECV, SEND = 0, 1
# INT64 constants are kept as bytes ("B": no 64-bit array on every port); their kernels read the bytes
_TC = {DT_FLOAT: "f", DT_INT8: "b", DT_UINT8: "B", DT_INT16: "h", DT_INT32: "i", DT_INT64: "B"}
_SZ = {DT_FLOAT: 4, DT_INT8: 1, DT_UINT8: 1, DT_INT16: 2, DT_INT32: 4, DT_INT64: 8}
_HEADER = "<IHHIIIHHHHIIIIIIIII"
_F = array.array("f", [0.0])


class ProgramError(ValueError):
    """The program cannot be loaded (bad header, CRC, unsupported opcode or dtype)."""


def typed(tc, raw):
    """A typed array holding a copy of the bytes ``raw``."""
    if MPY:
        return array.array(tc, raw if isinstance(raw, (bytes, bytearray)) else bytes(raw))
    a = array.array(tc)
    a.frombytes(bytes(raw))
    return a


def zeros(tc, n):
    """A zeroed typed array of ``n`` elements."""
    return typed(tc, bytes(n * (1 if tc in "bB" else (2 if tc in "hH" else 4))))


def byte_view(arr, nbytes):
    """A writable bytes view aliasing the memory of the array ``arr``."""
    if uctypes is not None:
        return uctypes.bytearray_at(uctypes.addressof(arr), nbytes)
    return memoryview(arr).cast("B")


def u16_view(arr, nbytes):
    """A uint16 view aliasing the memory of the array ``arr`` (float bit patterns as two halves)."""
    if uctypes is not None:
        return uctypes.struct(uctypes.addressof(arr),
                              {"h": (uctypes.ARRAY | 0, uctypes.UINT16 | (nbytes // 2))}, uctypes.LITTLE_ENDIAN).h
    return memoryview(arr).cast("B").cast("H")


def f32(x):
    """``x`` rounded to float32."""
    _F[0] = x
    return _F[0]


def bits_f32(b):
    """The float32 with bit pattern ``b`` (an int32/uint32)."""
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def f32_bits(x):
    """The uint32 bit pattern of float32 ``x``."""
    return struct.unpack("<I", struct.pack("<f", x))[0]


def roundeven(x):
    """bbrt_roundf_even: round half to even of a float32, NaN -> 0, clamped to +-2**30."""
    if x != x:
        return 0
    if x > 1073741824.0:
        return 1073741824
    if x < -1073741824.0:
        return -1073741824
    r = int(x)
    f = x - r
    if f > 0.5:
        r += 1
    elif f < -0.5:
        r -= 1
    elif f == 0.5:
        r += r & 1
    elif f == -0.5:
        r -= r & 1
    return r


def sat(v, lo, hi):
    """Clamp an int."""
    return lo if v < lo else (hi if v > hi else v)


def quant8(x, scale, zp):
    """C quant8: saturate(roundeven(float32(x / scale)) + zp) to int8."""
    return sat(roundeven(f32(x / scale)) + zp, -128, 127)


def mbqm(x, m, shift):
    """C mbqm: rounding (x * m) >> (31 - shift) with int64 intermediates, clamped to +-(2**30 - 1)."""
    total = 31 - shift
    total = 1 if total < 1 else (62 if total > 62 else total)
    r = (x * m + (1 << (total - 1))) >> total
    return sat(r, -1073741823, 1073741823)


def thr_affine(out, base, m, shift, zy, lo, hi):
    """Thresholds of acc -> sat(mbqm(acc, m, shift) + zy, lo, hi) into out[base:base+256]."""
    total = 31 - shift
    total = 1 if total < 1 else (62 if total > 62 else total)
    for k in range(256):
        q = k - 128
        if k == 0 or q <= lo:
            t = MINV
        elif q > hi:
            t = MAXV
        else:
            R = q - zy
            if R <= -1073741823:
                t = MINV
            elif R > 1073741823:
                t = MAXV
            elif m == 0:
                t = MINV if R <= 0 else MAXV
            else:
                num = (R << total) - (1 << (total - 1))
                t = -((-num) // m)
        out[base + k] = sat(t, MINV, MAXV)


def thr_bisect(out, base, fn, smin, smax):
    """Thresholds of a monotone int -> int8 function on [smin, smax] into out[base:base+256]."""
    for k in range(256):
        q = k - 128
        if k == 0 or fn(smin) >= q:
            out[base + k] = MINV
            continue
        if fn(smax) < q:
            out[base + k] = MAXV
            continue
        a, b = smin, smax  # fn(a) < q <= fn(b)
        while b - a > 1:
            mid = (a + b) // 2
            if fn(mid) >= q:
                b = mid
            else:
                a = mid
        out[base + k] = sat(b, MINV, MAXV)


def thr_channels(rq, n, zy, lo, hi, fill=thr_affine):
    """Threshold tables of ``n`` output channels with requantization pairs ``rq`` (m, shift per channel).

    Returns (tables, tbase, b0, step): output code k (q = k - 128) of channel c, with j = tbase[c] >> 8
    its table, has the threshold ``b0[j] + k * step[j] + tables[tbase[c] + k]`` for lo < q <= hi
    (q <= lo: always reached, q > hi: never). Channels with equal (m, shift) share one table (a
    per-tensor scale: one per layer). Compact form: consecutive thresholds of an affine requantization
    differ by floor(d) or ceil(d), so a layer's tables hold ``thr[k] - b0 - k * step`` in bytes (256 B
    per table, built one table at a time); a layer whose thresholds do not fit that form with every sum
    a small int keeps full int32 tables (b0 = step = 0, 1 KiB per table)."""
    klo, khi = lo + 128, hi + 128
    slot = {}
    for c in range(n):
        k = (rq[2 * c], rq[2 * c + 1])
        if k not in slot:
            slot[k] = len(slot)
    b0 = zeros("i", len(slot))
    st = zeros("i", len(slot))
    tables = zeros("B", 256 * len(slot))
    tmp = zeros("i", 256)  # one table at a time: loading never holds the full int32 form of a compact layer
    lim = 1 << 29
    for (m, sh), j in slot.items():
        fill(tmp, 0, m, sh, zy, lo, hi)
        t = tmp[klo + 1:khi + 1]
        if len(t) == 0 or min(t) <= MINV + 256 or max(t) >= MAXV:
            tables = None
            break
        d = min(t[i + 1] - t[i] for i in range(len(t) - 1)) if len(t) > 1 else 0
        b = min(t[i] - (klo + 1 + i) * d for i in range(len(t)))
        if abs(b) > lim or 255 * abs(d) > lim or max(t[i] - b - (klo + 1 + i) * d for i in range(len(t))) > 255:
            tables = None
            break
        b0[j] = b
        st[j] = d
        for k in range(klo + 1, khi + 1):
            tables[(j << 8) + k] = tmp[k] - b - k * d
    if tables is None:  # full int32 tables: b0 = step = 0
        tables = zeros("i", 256 * len(slot))
        for (m, sh), j in slot.items():
            fill(tables, j << 8, m, sh, zy, lo, hi)
            b0[j] = 0
            st[j] = 0
    tbase = zeros("i", n)
    for c in range(n):
        tbase[c] = slot[(rq[2 * c], rq[2 * c + 1])] << 8
    return tables, tbase, b0, st


class Tensor:
    """A tensor record plus where its elements live: ``buf[base:base+count]``."""

    def __init__(self, dtype, dims, storage, offset, nbytes, scale, zp):
        self.dtype = dtype
        self.dims = dims
        self.rank = len(dims)
        c = 1
        for d in dims:
            c *= d
        self.count = c
        self.storage = storage
        self.offset = offset
        self.nbytes = nbytes
        self.scale = scale
        self.zp = zp
        self.buf = None
        self.base = 0
        self.bytes = None  # byte view of the memory holding buf
        self.byte_base = 0


class Edge:
    """A Send/Recv port of the program."""

    def __init__(self, edge_id, peer, direction, elem_type, tensor):
        self.edge_id = edge_id
        self.peer = peer
        self.direction = direction
        self.elem_type = elem_type
        self.tensor = tensor


class Op:
    """A parsed op record."""

    def __init__(self, opcode, ins, outs, p):
        self.opcode = opcode
        self.ins = ins
        self.outs = outs
        self.p = p


class Program:
    """A loaded program: tensors, prepared kernels; ``run()`` executes every op in order."""

    def __init__(self, blob, check_crc=True):
        if len(blob) < 64:
            raise ProgramError("PROG_TRUNCATED")
        (magic, version, _fl, total, crc, node_id, nt, no, ne, _r, arena, t_off, o_off, e_off, c_off, _c_size,
         _lower, _r1, _r2) = struct.unpack_from(_HEADER, blob, 0)
        if magic != 0x54524242:
            raise ProgramError("PROG_MAGIC")
        if version != 1:
            raise ProgramError("PROG_VERSION")
        if total != len(blob):
            raise ProgramError("PROG_TRUNCATED")
        if check_crc:
            from bbnode.framing import crc32
            c = crc32(memoryview(blob)[:12])
            c = crc32(b"\0\0\0\0", c)
            c = crc32(memoryview(blob)[16:], c)
            if c != crc:
                raise ProgramError("PROG_CRC")
        self.node_id = node_id
        self.arena_size = arena
        self.arena_b = zeros("b", arena + 8)
        nf = 0
        tensors = []
        for i in range(nt):
            f = struct.unpack_from("<BBBB8IIIfiI", blob, t_off + i * 56)
            dtype, rank, storage = f[0], f[1], f[2]
            if dtype not in _TC:
                raise ProgramError("PROG_TENSOR")
            t = Tensor(dtype, tuple(f[4:4 + rank]), storage, f[12], f[13], f[14], f[15])
            if storage != STORE_CONST and dtype == DT_FLOAT:
                nf = max(nf, (t.offset + t.nbytes + 3) // 4)
            tensors.append(t)
        self.arena_f = zeros("f", nf + 2)
        self.arena_fb = byte_view(self.arena_f, 4 * (nf + 2))
        self.arena_fh = u16_view(self.arena_f, 4 * (nf + 2))
        self.arena_bb = byte_view(self.arena_b, arena + 8)
        for t in tensors:
            if t.storage == STORE_CONST:
                t.buf = typed(_TC[t.dtype], memoryview(blob)[c_off + t.offset:c_off + t.offset + t.nbytes])
                t.base = 0
                t.bytes = byte_view(t.buf, t.nbytes) if t.nbytes else bytearray(0)
                t.byte_base = 0
            elif t.dtype == DT_FLOAT:
                t.buf, t.base, t.bytes, t.byte_base = self.arena_f, t.offset // 4, self.arena_fb, t.offset
            elif t.dtype == DT_INT8:
                t.buf, t.base, t.bytes, t.byte_base = self.arena_b, t.offset, self.arena_bb, t.offset
            elif t.dtype in (DT_INT16, DT_INT32, DT_INT64):  # bytes only (GATHER's run-time indices, COPY)
                t.buf, t.base, t.bytes, t.byte_base = None, 0, self.arena_bb, t.offset
            else:
                raise ProgramError("PROG_TENSOR")
        self.tensors = tensors
        self.edges = []
        for i in range(ne):
            f = struct.unpack_from("<IIBBHI", blob, e_off + i * 16)
            self.edges.append(Edge(f[0], f[1], f[2], f[3], f[4]))
        self.kernels = []
        for i in range(no):
            f = struct.unpack_from("<HBB8H2HII16i", blob, o_off + i * 96)
            op = Op(f[0], f[3:3 + f[1]], f[11:11 + f[2]], f[15:31])
            cls = KERNELS.get(op.opcode)
            if cls is None and op.opcode in EXT_OPCODES:
                import bbnode.kernels_ext  # noqa: F401 - registers its kernels into KERNELS
                cls = KERNELS.get(op.opcode)
            if cls is None:
                raise ProgramError("PROG_UNSUPPORTED")
            self.kernels.append(cls(self, op))
        self._runs = tuple(k.run for k in self.kernels)

    def run(self):
        """Execute every op (allocation-free for int8 kernels)."""
        for r in self._runs:
            r()

    def tensor(self, i):
        """Tensor ``i``."""
        return self.tensors[i]

    def write_bytes(self, i, data):
        """Copy raw little-endian bytes into tensor ``i``."""
        t = self.tensors[i]
        t.bytes[t.byte_base:t.byte_base + t.nbytes] = data

    def read_bytes(self, i):
        """A copy of tensor ``i``'s raw bytes."""
        t = self.tensors[i]
        return bytes(t.bytes[t.byte_base:t.byte_base + t.nbytes])


# --------------------------------------------------------------- kernels
class K:
    """Kernel base: resolves input/output tensors."""

    def __init__(self, pr, op):
        self.p = op.p
        self.ti = [pr.tensors[i] for i in op.ins]
        self.ty = pr.tensors[op.outs[0]]
        self.prepare(pr, op)

    def prepare(self, pr, op):
        """Precompute tables."""


class ConvI8(K):
    """CONV_I8: int32 accumulation, per-channel thresholds for the requantization."""

    def prepare(self, pr, op):
        x, w, b, rq = self.ti[0], self.ti[1], self.ti[2], self.ti[3]
        y = self.ty
        p = self.p
        if p[15] not in (0, 1) or p[11] not in (0, 1) or p[12] or p[13] or p[14]:
            raise ProgramError("PROG_PARAM")
        fill = thr_affine
        if p[11]:  # TFLite's two-rounding requantization (TRANSPOSE_CONV): same accumulators, other thresholds
            from bbnode.kernels_ext import thr_two as fill
        N, C, H, W = x.dims
        if p[15]:  # an NHWC input (a model's NHWC graph input) read in place, as the C kernel's p15 = 1
            N, H, W, C = x.dims
            self.run = self.run_nhwc
        elif w.dims[2] == 1 and w.dims[3] == 1 and p[0] == 1 and p[1] == 1 and not any(p[2:6]) and p[8] == 1:
            # pointwise (1x1, stride 1, no padding, one group): every tap is inside, so the input zero point
            # folds into the bias (b - zx * sum(w), exact on ints) and each output is a bare dot product
            M, Cin = w.dims[0], w.dims[1]
            fb = zeros("i", M)
            ok = True
            for oc in range(M):
                sw_ = 0
                for ic in range(Cin):
                    sw_ += w.buf[oc * Cin + ic]
                v = b.buf[oc] - x.zp * sw_
                if v <= MINV or v >= MAXV:
                    ok = False
                    break
                fb[oc] = v
            if ok:
                self.fb = fb
                self.run = self.run_pointwise
        M, _cg, KH, KW = w.dims
        G = p[8]
        self.geo = (N, C, H, W, M, KH, KW, y.dims[2], y.dims[3], G, C // G, M // G, p[0], p[1], p[2], p[3], p[6],
                    p[7])
        self.thr, self.tbase, self.tb0, self.tstep = thr_channels(rq.buf, M, y.zp, p[9], p[10], fill)
        self.kr = (p[9] + 128, p[10] + 128)

    def run(self):
        """Execute."""
        xt = self.ti[0]
        x = xt.buf
        xb = xt.base
        zx = xt.zp
        w = self.ti[1].buf
        b = self.ti[2].buf
        o = self.ty.buf
        ob = self.ty.base
        thr = self.thr
        tbase = self.tbase
        tb0 = self.tb0
        tstep = self.tstep
        klo, khi = self.kr
        N, C, H, W, M, KH, KW, OH, OW, G, Cg, Mg, sh, sw, pt, pl, dh, dw = self.geo
        HW = H * W
        KK = KH * KW
        for n in range(N):
            for g in range(G):
                for oc in range(g * Mg, (g + 1) * Mg):
                    wk = oc * Cg * KK
                    tb = tbase[oc]
                    b0 = tb0[tb >> 8]
                    d0 = tstep[tb >> 8]
                    bias = b[oc]
                    xg = xb + (n * C + g * Cg) * HW
                    orow = ob + (n * M + oc) * OH * OW
                    for oy in range(OH):
                        iy0 = oy * sh - pt
                        for ox in range(OW):
                            acc = bias
                            ix0 = ox * sw - pl
                            for ic in range(Cg):
                                xp = xg + ic * HW
                                wp = wk + ic * KK
                                for ky in range(KH):
                                    iy = iy0 + ky * dh
                                    if iy < 0 or iy >= H:
                                        continue
                                    xr = xp + iy * W
                                    wr = wp + ky * KW
                                    for kx in range(KW):
                                        ix = ix0 + kx * dw
                                        if 0 <= ix < W:
                                            acc += (x[xr + ix] - zx) * w[wr + kx]
                            lo = klo
                            hi = khi
                            while lo < hi:
                                mid = (lo + hi + 1) >> 1
                                if b0 + mid * d0 + thr[tb + mid] <= acc:
                                    lo = mid
                                else:
                                    hi = mid - 1
                            o[orow + oy * OW + ox] = lo - 128


    def run_pointwise(self):
        """Execute a pointwise conv: per output channel and position, folded bias + sum x * w."""
        xt = self.ti[0]
        x = xt.buf
        xb = xt.base
        w = self.ti[1].buf
        fb = self.fb
        o = self.ty.buf
        ob = self.ty.base
        thr = self.thr
        tbase = self.tbase
        tb0 = self.tb0
        tstep = self.tstep
        klo, khi = self.kr
        geo = self.geo
        N = geo[0]  # one name at a time: unpacking more than 3 values builds a tuple (an allocation)
        C = geo[1]
        HW = geo[2] * geo[3]
        M = geo[4]
        for n in range(N):
            xn = xb + n * C * HW
            for oc in range(M):
                wk = oc * C
                tb = tbase[oc]
                b0 = tb0[tb >> 8]
                d0 = tstep[tb >> 8]
                bias = fb[oc]
                orow = ob + (n * M + oc) * HW
                for q in range(HW):
                    acc = bias
                    xp = xn + q
                    for ic in range(C):
                        acc += x[xp + ic * HW] * w[wk + ic]
                    lo = klo
                    hi = khi
                    while lo < hi:
                        mid = (lo + hi + 1) >> 1
                        if b0 + mid * d0 + thr[tb + mid] <= acc:
                            lo = mid
                        else:
                            hi = mid - 1
                    o[orow + q] = lo - 128

    def run_nhwc(self):
        """Execute on an NHWC input (element (n, c, y, x) at ((n * H + y) * W + x) * C + c)."""
        xt = self.ti[0]
        x = xt.buf
        xb = xt.base
        zx = xt.zp
        w = self.ti[1].buf
        b = self.ti[2].buf
        o = self.ty.buf
        ob = self.ty.base
        thr = self.thr
        tbase = self.tbase
        tb0 = self.tb0
        tstep = self.tstep
        klo, khi = self.kr
        N, C, H, W, M, KH, KW, OH, OW, G, Cg, Mg, sh, sw, pt, pl, dh, dw = self.geo
        WC = W * C
        KK = KH * KW
        for n in range(N):
            for g in range(G):
                for oc in range(g * Mg, (g + 1) * Mg):
                    wk = oc * Cg * KK
                    tb = tbase[oc]
                    b0 = tb0[tb >> 8]
                    d0 = tstep[tb >> 8]
                    bias = b[oc]
                    xg = xb + n * H * WC + g * Cg
                    orow = ob + (n * M + oc) * OH * OW
                    for oy in range(OH):
                        iy0 = oy * sh - pt
                        for ox in range(OW):
                            acc = bias
                            ix0 = ox * sw - pl
                            for ic in range(Cg):
                                xp = xg + ic
                                wp = wk + ic * KK
                                for ky in range(KH):
                                    iy = iy0 + ky * dh
                                    if iy < 0 or iy >= H:
                                        continue
                                    xr = xp + iy * WC
                                    wr = wp + ky * KW
                                    for kx in range(KW):
                                        ix = ix0 + kx * dw
                                        if 0 <= ix < W:
                                            acc += (x[xr + ix * C] - zx) * w[wr + kx]
                            lo = klo
                            hi = khi
                            while lo < hi:
                                mid = (lo + hi + 1) >> 1
                                if b0 + mid * d0 + thr[tb + mid] <= acc:
                                    lo = mid
                                else:
                                    hi = mid - 1
                            o[orow + oy * OW + ox] = lo - 128


class FcI8(K):
    """FC_I8: ``acc = bias + sum x*w``; param 2 = 1 means the lowering folded ``-zx * sum(w)`` into the
    bias, else (a program from before the folding) the input zero point is subtracted here, as C does."""

    def prepare(self, pr, op):
        x, w, rq, y = self.ti[0], self.ti[1], self.ti[3], self.ty
        Nn, Kk = w.dims[0], w.dims[1]
        self.geo = (x.count // Kk, Kk, Nn)
        # folded programs: the bias already holds -zx * sum(w), subtracting zx again would count it twice
        self.zx = 0 if self.p[2] else x.zp
        self.thr, self.tbase, self.tb0, self.tstep = thr_channels(rq.buf, Nn, y.zp, self.p[0], self.p[1])
        self.kr = (self.p[0] + 128, self.p[1] + 128)

    def run(self):
        """Execute."""
        xt, yt = self.ti[0], self.ty
        x = xt.buf
        xb = xt.base
        zx = self.zx
        w = self.ti[1].buf
        b = self.ti[2].buf
        o = yt.buf
        ob = yt.base
        thr = self.thr
        tbase = self.tbase
        tb0 = self.tb0
        tstep = self.tstep
        klo, khi = self.kr
        rows, Kk, Nn = self.geo
        for r in range(rows):
            xr = xb + r * Kk
            for n in range(Nn):
                acc = b[n]
                wr = n * Kk
                if zx == 0:  # folded (or a zero input zero point): a bare multiply-accumulate
                    for k in range(Kk):
                        acc += x[xr + k] * w[wr + k]
                else:  # unfolded: sum (x - zx) * w == sum x*w - zx * sum w, exact on ints
                    for k in range(Kk):
                        acc += (x[xr + k] - zx) * w[wr + k]
                tb = tbase[n]
                b0 = tb0[tb >> 8]
                d0 = tstep[tb >> 8]
                # requantize by binary search in the output-code thresholds; inlined on purpose
                # (a call per output element costs more than the search itself in MicroPython)
                lo = klo
                hi = khi
                while lo < hi:
                    mid = (lo + hi + 1) >> 1
                    if b0 + mid * d0 + thr[tb + mid] <= acc:
                        lo = mid
                    else:
                        hi = mid - 1
                o[ob + r * Nn + n] = lo - 128


class Pool(K):
    """Pool geometry shared by the pools."""

    def prepare(self, pr, op):
        x, y, p = self.ti[0], self.ty, self.p
        self.geo = (x.dims[0] * x.dims[1], x.dims[2], x.dims[3], y.dims[2], y.dims[3], p[0], p[1], p[2], p[3], p[4],
                    p[5], p[6], p[7], p[8])
        self.prep2(pr)

    def prep2(self, pr):
        """More tables."""


class MaxPoolI8(Pool):
    """MAXPOOL_I8 (MaxPoolF32 shares the loop; only the starting minimum differs)."""

    LOWEST = -128

    def run(self):
        """Execute."""
        x = self.ti[0].buf
        xb = self.ti[0].base
        o = self.ty.buf
        ob = self.ty.base
        lowest = self.LOWEST
        NC, H, W, OH, OW, KH, KW, sh, sw, pt, pl, _pb, _pr, _inc = self.geo
        for c in range(NC):
            xp = xb + c * H * W
            for oy in range(OH):
                y0 = oy * sh - pt
                y1 = y0 + KH
                if y0 < 0:
                    y0 = 0
                if y1 > H:
                    y1 = H
                for ox in range(OW):
                    x0 = ox * sw - pl
                    x1 = x0 + KW
                    if x0 < 0:
                        x0 = 0
                    if x1 > W:
                        x1 = W
                    m = lowest
                    for iy in range(y0, y1):
                        r = xp + iy * W
                        for ix in range(x0, x1):
                            v = x[r + ix]
                            if v > m:
                                m = v
                    o[ob + (c * OH + oy) * OW + ox] = m


class MaxPoolF32(MaxPoolI8):
    """MAXPOOL_F32."""

    LOWEST = -3.4028234663852886e38


def _avg_counts(geo):
    """Per output position (oy, ox) -> (y0, y1, x0, x1, cnt) exactly as the C kernel."""
    _NC, H, W, OH, OW, KH, KW, sh, sw, pt, pl, pb, pr, inc = geo
    res = []
    for oy in range(OH):
        for ox in range(OW):
            y0 = oy * sh - pt
            x0 = ox * sw - pl
            y1 = y0 + KH
            x1 = x0 + KW
            py1 = H + pb if y1 > H + pb else y1
            px1 = W + pr if x1 > W + pr else x1
            cnt = (py1 - y0) * (px1 - x0)
            y0 = max(y0, 0)
            x0 = max(x0, 0)
            y1 = min(y1, H)
            x1 = min(x1, W)
            if not inc:
                cnt = (y1 - y0) * (x1 - x0)
            res.append((y0, y1, x0, x1, cnt))
    return res


class AvgPoolI8(Pool):
    """AVGPOOL_I8: thresholds per window count replace quant8(s * sx / cnt); param 9 = 1 is TFLite's
    integer average (input and output share parameters): the sum of the codes over the count, rounded half
    away from zero (C's truncating division), saturated."""

    def prep2(self, pr):
        x, y = self.ti[0], self.ty
        tfl = self.p[9] == 1
        self.zs = 0 if tfl else x.zp  # what the window sum subtracts from each code
        wins = _avg_counts(self.geo)
        slot = {}  # window count -> its threshold table's base
        for wv in wins:
            if wv[4] > 0 and wv[4] not in slot:
                slot[wv[4]] = len(slot) << 8
        self.win = zeros("i", 5 * len(wins))
        for i, wv in enumerate(wins):
            for j in range(4):
                self.win[5 * i + j] = wv[j]
            self.win[5 * i + 4] = slot.get(wv[4], 0)
        self.thr = zeros("i", 256 * max(1, len(slot)))
        sx, sy, zy = x.scale, y.scale, y.zp
        for cnt, base in slot.items():
            fc = float(cnt)

            def fn(s, fc=fc):
                return quant8(f32(f32(f32(float(s)) * sx) / fc), sy, zy)

            def fn_tfl(q, cnt=cnt):
                r = (q + cnt // 2) // cnt if q > 0 else -((cnt // 2 - q) // cnt)
                return sat(r, -128, 127)

            if tfl:
                thr_bisect(self.thr, base, fn_tfl, -128 * cnt, 127 * cnt)
            else:
                thr_bisect(self.thr, base, fn, -255 * cnt, 255 * cnt)

    def run(self):
        """Execute."""
        x = self.ti[0].buf
        xb = self.ti[0].base
        zx = self.zs
        o = self.ty.buf
        ob = self.ty.base
        win = self.win
        thr = self.thr
        geo = self.geo
        NC = geo[0]  # one name at a time: unpacking more than 3 values builds a tuple (an allocation)
        HW = geo[1] * geo[2]
        W = geo[2]
        P = geo[3] * geo[4]
        for c in range(NC):
            xp = xb + c * HW
            for i in range(P):
                j = 5 * i
                s = 0
                for iy in range(win[j], win[j + 1]):
                    r = xp + iy * W
                    for ix in range(win[j + 2], win[j + 3]):
                        s += x[r + ix] - zx
                tb = win[j + 4]
                lo = 0
                hi = 255
                while lo < hi:
                    mid = (lo + hi + 1) >> 1
                    if thr[tb + mid] <= s:
                        lo = mid
                    else:
                        hi = mid - 1
                o[ob + c * P + i] = lo - 128


class AvgPoolF32(Pool):
    """AVGPOOL_F32."""

    def prep2(self, pr):
        self.wins = _avg_counts(self.geo)

    def run(self):
        """Execute."""
        x = self.ti[0].buf
        xb = self.ti[0].base
        o = self.ty.buf
        ob = self.ty.base
        NC, H, W, OH, OW = self.geo[0], self.geo[1], self.geo[2], self.geo[3], self.geo[4]
        P = OH * OW
        for c in range(NC):
            xp = xb + c * H * W
            i = 0
            for y0, y1, x0, x1, cnt in self.wins:
                k = ob + c * P + i
                o[k] = 0.0
                for iy in range(y0, y1):
                    r = xp + iy * W
                    for ix in range(x0, x1):
                        o[k] = o[k] + x[r + ix]
                o[k] = o[k] / cnt
                i += 1


class GapI8(K):
    """GAP_I8: one threshold table replaces quant8(s * sx / hw)."""

    def prepare(self, pr, op):
        x, y = self.ti[0], self.ty
        hw = x.count // y.count
        self.hw = hw
        self.thr = zeros("i", 256)
        sx, sy, zy, fh = x.scale, y.scale, y.zp, float(hw)

        def fn(s):
            return quant8(f32(f32(f32(float(s)) * sx) / fh), sy, zy)

        thr_bisect(self.thr, 0, fn, -255 * hw, 255 * hw)

    def run(self):
        """Execute."""
        x = self.ti[0].buf
        xb = self.ti[0].base
        zx = self.ti[0].zp
        o = self.ty.buf
        ob = self.ty.base
        thr = self.thr
        hw = self.hw
        for c in range(self.ty.count):
            s = 0
            xp = xb + c * hw
            for i in range(hw):
                s += x[xp + i] - zx
            lo = 0
            hi = 255
            while lo < hi:
                mid = (lo + hi + 1) >> 1
                if thr[mid] <= s:
                    lo = mid
                else:
                    hi = mid - 1
            o[ob + c] = lo - 128


class GapF32(K):
    """GAP_F32."""

    def run(self):
        """Execute."""
        x = self.ti[0].buf
        xb = self.ti[0].base
        o = self.ty.buf
        ob = self.ty.base
        n = self.ty.count
        hw = self.ti[0].count // n
        for c in range(n):
            o[ob + c] = 0.0
            xp = xb + c * hw
            for i in range(hw):
                o[ob + c] = o[ob + c] + x[xp + i]
            o[ob + c] = o[ob + c] / hw


class Binary(K):
    """Elementwise binary op with numpy broadcasting (the C odometer walk)."""

    def prepare(self, pr, op):
        a, b, y = self.ti[0], self.ti[1], self.ty
        r = y.rank
        self.r = r
        self.sa = zeros("i", max(r, 1))
        self.sb = zeros("i", max(r, 1))
        self.dims = zeros("i", max(r, 1))
        self.idx = zeros("i", max(r, 1))
        for i in range(r):
            self.dims[i] = y.dims[i]
        for t, st in ((a, self.sa), (b, self.sb)):
            s = 1
            off = r - t.rank
            for i in range(r - 1, -1, -1):
                if i < off:
                    st[i] = 0
                    continue
                st[i] = 0 if t.dims[i - off] == 1 else s
                s *= t.dims[i - off]
        self.inner = y.dims[r - 1] if r else 1
        self.outer = (y.count // self.inner) if self.inner else 0
        self.prep2(pr)

    def prep2(self, pr):
        """More tables."""

    def run(self):
        """Execute."""
        r = self.r
        if self.ty.count == 0:
            return
        if r == 0:
            self.row(0, 0, 0, 1, 0, 0)
            return
        sa = self.sa
        sb = self.sb
        dims = self.dims
        idx = self.idx
        inner = self.inner
        la = sa[r - 1]
        lb = sb[r - 1]
        for k in range(r):
            idx[k] = 0
        ia = 0
        ib = 0
        for o in range(self.outer):
            self.row(ia, ib, o * inner, inner, la, lb)
            k = r - 1
            while k > 0:
                k -= 1
                idx[k] += 1
                ia += sa[k]
                ib += sb[k]
                if idx[k] < dims[k]:
                    break
                ia -= sa[k] * idx[k]
                ib -= sb[k] * idx[k]
                idx[k] = 0


class AddI8(Binary):
    """ADD_I8: per-input 256-entry rescale tables, thresholds for the output requantization."""

    def prep2(self, pr):
        a, b, y, p = self.ti[0], self.ti[1], self.ty, self.p
        self.ta = zeros("i", 256)
        self.tb = zeros("i", 256)
        for q in range(-128, 128):
            self.ta[q + 128] = mbqm((q - a.zp) * (1 << p[0]), p[1], p[2])
            self.tb[q + 128] = mbqm((q - b.zp) * (1 << p[0]), p[3], p[4])
        self.thr = zeros("i", 256)
        thr_affine(self.thr, 0, p[5], p[6], y.zp, p[7], p[8])

    def row(self, ia, ib, iy, n, sa, sb):
        """One run of n outputs."""
        a = self.ti[0].buf
        ab = self.ti[0].base + ia
        b = self.ti[1].buf
        bb = self.ti[1].base + ib
        o = self.ty.buf
        ob = self.ty.base + iy
        ta = self.ta
        tb = self.tb
        thr = self.thr
        for i in range(n):
            s = ta[a[ab + i * sa] + 128] + tb[b[bb + i * sb] + 128]
            lo = 0
            hi = 255
            while lo < hi:
                mid = (lo + hi + 1) >> 1
                if thr[mid] <= s:
                    lo = mid
                else:
                    hi = mid - 1
            o[ob + i] = lo - 128


class MulI8(Binary):
    """MUL_I8."""

    def prep2(self, pr):
        p = self.p
        self.thr = zeros("i", 256)
        thr_affine(self.thr, 0, p[0], p[1], self.ty.zp, p[2], p[3])

    def row(self, ia, ib, iy, n, sa, sb):
        """One run of n outputs."""
        a = self.ti[0].buf
        ab = self.ti[0].base + ia
        za = self.ti[0].zp
        b = self.ti[1].buf
        bb = self.ti[1].base + ib
        zb = self.ti[1].zp
        o = self.ty.buf
        ob = self.ty.base + iy
        thr = self.thr
        for i in range(n):
            s = (a[ab + i * sa] - za) * (b[bb + i * sb] - zb)
            lo = 0
            hi = 255
            while lo < hi:
                mid = (lo + hi + 1) >> 1
                if thr[mid] <= s:
                    lo = mid
                else:
                    hi = mid - 1
            o[ob + i] = lo - 128


class AddF32(Binary):
    """ADD_F32 (MUL_F32 with mul=True)."""

    mul = False

    def prep2(self, pr):
        self.lo = bits_f32(self.p[0])
        self.hi = bits_f32(self.p[1])

    def row(self, ia, ib, iy, n, sa, sb):
        """One run of n outputs."""
        a = self.ti[0].buf
        ab = self.ti[0].base + ia
        b = self.ti[1].buf
        bb = self.ti[1].base + ib
        o = self.ty.buf
        ob = self.ty.base + iy
        lo = self.lo
        hi = self.hi
        mul = self.mul
        for i in range(n):
            o[ob + i] = a[ab + i * sa] * b[bb + i * sb] if mul else a[ab + i * sa] + b[bb + i * sb]
            v = o[ob + i]
            if v < lo:
                o[ob + i] = lo
            elif v > hi:
                o[ob + i] = hi


class MulF32(AddF32):
    """MUL_F32."""

    mul = True


class Unary(K):
    """RELU/CLIP/SIGMOID/TANH float32."""

    def prepare(self, pr, op):
        self.code = op.opcode
        self.lo = bits_f32(self.p[0])
        self.hi = bits_f32(self.p[1])

    def run(self):
        """Execute."""
        x = self.ti[0].buf
        xb = self.ti[0].base
        o = self.ty.buf
        ob = self.ty.base
        code = self.code
        lo = self.lo
        hi = self.hi
        for i in range(self.ty.count):
            v = x[xb + i]
            if code == 15:
                o[ob + i] = v if v > 0.0 else 0.0
            elif code == 16:
                o[ob + i] = lo if v < lo else (hi if v > hi else v)
            elif code == 17:
                o[ob + i] = expf(-v) + 1.0
                o[ob + i] = 1.0 / o[ob + i]
            else:
                o[ob + i] = tanhf(v)


_E = array.array("f", [0.0, 0.0])
_C = array.array("f", [1.44269504, 0.693145752, 1.42860677e-6, 0.000198412701, 0.00138888892, 0.00833333377,
                       0.0416666679, 0.166666672, 0.5, 1.17549435e-38, 3.4028235e38, 88.72, -103.0, -0.01, 0.01])


def expf(x):
    """bbrt_expf with float32 rounding after every operation."""
    c = _C
    e = _E
    e[0] = x
    x = e[0]
    if x > c[11]:
        return c[10]
    if x < c[12]:
        return 0.0
    e[0] = x * c[0]
    k = e[0]
    e[0] = k - 0.5 if k < 0.0 else k + 0.5
    ki = int(e[0])
    e[0] = ki * c[1]
    e[1] = x - e[0]
    e[0] = ki * c[2]
    e[0] = e[1] - e[0]
    r = e[0]
    e[1] = c[3]
    for j in (4, 5, 6, 7, 8):
        e[1] = r * e[1]
        e[1] = c[j] + e[1]
    e[1] = r * e[1]
    e[1] = 1.0 + e[1]
    e[1] = r * e[1]
    e[1] = 1.0 + e[1]
    p = e[1]
    if ki < -126:
        e[0] = p * bits_f32((ki + 126 + 127) << 23)
        e[0] = e[0] * c[9]
        return e[0]
    e[0] = p * bits_f32((ki + 127) << 23)
    return e[0]


def tanhf(x):
    """bbrt_tanhf with float32 rounding."""
    e = _E
    if x > 9.0:
        return 1.0
    if x < -9.0:
        return -1.0
    if _C[13] < x < _C[14]:
        e[0] = x * x
        e[0] = e[0] * x
        e[0] = e[0] / 3.0
        e[0] = x - e[0]
        return e[0]
    e[0] = 2.0 * x
    v = expf(e[0])
    e[0] = v - 1.0
    e[1] = v + 1.0
    e[0] = e[0] / e[1]
    return e[0]


class LutI8(K):
    """LUT_I8."""

    def run(self):
        """Execute."""
        x = self.ti[0].buf
        xb = self.ti[0].base
        lut = self.ti[1].buf
        o = self.ty.buf
        ob = self.ty.base
        for i in range(self.ty.count):
            o[ob + i] = lut[x[xb + i] + 128]


class SoftmaxF32(K):
    """SOFTMAX_F32."""

    def prepare(self, pr, op):
        self.acc = zeros("f", 2)

    def run(self):
        """Execute."""
        x = self.ti[0].buf
        xb = self.ti[0].base
        o = self.ty.buf
        ob = self.ty.base
        e = self.acc
        n = self.ti[0].dims[-1]
        for r in range(self.ti[0].count // n):
            xr = xb + r * n
            orow = ob + r * n
            m = x[xr]
            for i in range(1, n):
                if x[xr + i] > m:
                    m = x[xr + i]
            e[1] = 0.0
            for i in range(n):
                e[0] = x[xr + i] - m
                o[orow + i] = expf(e[0])
                e[1] = e[1] + o[orow + i]
            s = e[1]
            for i in range(n):
                o[orow + i] = o[orow + i] / s


class SoftmaxI8(K):
    """SOFTMAX_I8 (float math as in C: allocates transient floats on boxed-float ports)."""

    def prepare(self, pr, op):
        t = self.ti[0]
        if len(self.ti) == 2:  # TFLite's float exp table (a program input): the int-only kernel below
            from bbnode import f32int
            tab = self.ti[1]
            if tab.dtype != DT_FLOAT or tab.count != 256:
                raise ProgramError("PROG_SHAPE")
            self.tab = zeros("i", 256)  # the table's float32 values as f32int encodings
            for i in range(256):
                self.tab[i] = f32int.from_bytes(tab.bytes, tab.byte_base + 4 * i)
            self.sy = f32int.from_float(self.ty.scale)
            self.f = (f32int.add, f32int.mul, f32int.div)
            self.run = self.run_table
            return
        self.ex = zeros("f", 256)  # expf((x - m) * scale) for x - m in [-255, 0]
        for d in range(-255, 1):
            self.ex[d + 255] = expf(f32(float(d) * t.scale))

    def run_table(self):
        """TFLite's arithmetic, as the C kernel with a table: ``s = sum tab[255 + x - m]`` (float32, in
        order), ``inv = 1 / (s * scale_y)``, ``y = roundeven(tab[255 + x - m] * inv) + zy``, in float32
        encoded in small ints (bbnode/f32int.py): bit-exact and allocation-free."""
        add, mul, div = self.f
        x = self.ti[0].buf
        xb = self.ti[0].base
        o = self.ty.buf
        ob = self.ty.base
        zy = self.ty.zp
        tab = self.tab
        n = self.ti[0].dims[-1]
        for r in range(self.ti[0].count // n):
            xr = xb + r * n
            m = x[xr]
            for i in range(1, n):
                if x[xr + i] > m:
                    m = x[xr + i]
            b = 255 - m
            s = 0
            for i in range(n):
                s = add(s, tab[b + x[xr + i]])
            inv = div(_ONE, mul(s, self.sy))
            for i in range(n):
                o[ob + r * n + i] = sat(roundeven_f32i(mul(tab[b + x[xr + i]], inv)) + zy, -128, 127)

    def run(self):
        """Execute."""
        x = self.ti[0].buf
        xb = self.ti[0].base
        o = self.ty.buf
        ob = self.ty.base
        sy = self.ty.scale
        zy = self.ty.zp
        ex = self.ex
        e = _E
        n = self.ti[0].dims[-1]
        for r in range(self.ti[0].count // n):
            xr = xb + r * n
            m = x[xr]
            for i in range(1, n):
                if x[xr + i] > m:
                    m = x[xr + i]
            e[1] = 0.0
            for i in range(n):
                e[1] = e[1] + ex[x[xr + i] - m + 255]
            s = e[1]
            for i in range(n):
                e[0] = ex[x[xr + i] - m + 255] / s
                e[0] = e[0] / sy
                o[ob + r * n + i] = sat(roundeven(e[0]) + zy, -128, 127)


_ONE = 64 << 23  # 1.0 in bbnode/f32int.py's encoding


def roundeven_f32i(v):
    """bbrt_roundf_even of a float32 in bbnode/f32int.py's encoding: round half to even, clamped to
    +-2**30; ints only."""
    if v == 0:
        return 0
    a = -v if v < 0 else v
    mant = (a & 0x7FFFFF) | 0x800000
    sh = (a >> 23) - 87  # value = mant * 2**sh
    if sh >= 7:
        r = 1 << 30
    elif sh >= 0:
        r = mant << sh
    elif sh < -24:
        r = 0
    else:
        k = -sh
        r = mant >> k
        rem = mant & ((1 << k) - 1)
        half = 1 << (k - 1)
        if rem > half or (rem == half and r & 1):
            r += 1
    return -r if v < 0 else r


class Copy(K):
    """COPY: a byte copy through preallocated views (skipped when in place)."""

    def prepare(self, pr, op):
        x, y = self.ti[0], self.ty
        self.same = x.bytes is y.bytes and x.byte_base == y.byte_base
        self.src = memoryview(x.bytes)[x.byte_base:x.byte_base + y.nbytes]
        self.dst = y.bytes
        self.a = y.byte_base
        self.b = y.byte_base + y.nbytes

    def run(self):
        """Execute."""
        if not self.same:
            self.dst[self.a:self.b] = self.src


class Concat(K):
    """CONCAT: byte copies, or a 256-entry requantization table per int8 input whose scale differs."""

    def prepare(self, pr, op):
        y = self.ty
        axis = self.p[0]
        isz = _SZ[y.dtype]
        outer = 1
        inner = 1
        for k in range(axis):
            outer *= y.dims[k]
        for k in range(axis + 1, y.rank):
            inner *= y.dims[k]
        self.parts = []
        off = 0
        for x in self.ti:
            chunk = x.dims[axis] * inner
            same = y.dtype != DT_INT8 or (x.scale == y.scale and x.zp == y.zp)
            lut = None
            if not same:
                lut = zeros("b", 256)
                for q in range(-128, 128):
                    lut[q + 128] = quant8(f32(float(q - x.zp) * x.scale), y.scale, y.zp)
            for o in range(outer):
                src = memoryview(x.bytes)[x.byte_base + o * chunk * isz:x.byte_base + (o + 1) * chunk * isz]
                dst = y.byte_base + (o * y.dims[axis] * inner + off) * isz
                self.parts.append((src, dst, dst + chunk * isz, lut, x.buf, x.base + o * chunk,
                                   y.base + o * y.dims[axis] * inner + off, chunk))
            off += chunk
        self.parts = tuple(self.parts)

    def run(self):
        """Execute."""
        yb = self.ty.bytes
        yv = self.ty.buf
        for src, a, b, lut, xv, xo, yo, n in self.parts:
            if lut is None:
                yb[a:b] = src
            else:
                for j in range(n):
                    yv[yo + j] = lut[xv[xo + j] + 128]


def _halves(pr, t):
    """The uint16 view holding float tensor ``t`` (index 2 * (t.base + i) is element i's low half)."""
    return pr.arena_fh if t.buf is pr.arena_f else u16_view(t.buf, 4 * len(t.buf))


class Quantize(K):
    """QUANTIZE float32 -> int8 on the float's bit pattern (two uint16 halves, no float objects)."""

    def prepare(self, pr, op):
        y = self.ty
        sy, zy = y.scale, y.zp
        self.zy = sat(zy, -128, 127)
        self._h = _halves(pr, self.ti[0])

        def fn(key):
            bits = key if key >= 0 else (0x80000000 | (-1 - key))
            return quant8(bits_f32(bits), sy, zy)

        thr = [0] * 256
        lo_key, hi_key = -1 - 0x7F800000, 0x7F800000
        for k in range(256):
            q = k - 128
            if k == 0 or fn(lo_key) >= q:
                thr[k] = lo_key
            elif fn(hi_key) < q:
                thr[k] = hi_key + 1
            else:
                a, b = lo_key, hi_key
                while b - a > 1:
                    mid = (a + b) // 2
                    if fn(mid) >= q:
                        b = mid
                    else:
                        a = mid
                thr[k] = b
        # a key K = K1 * 65536 + K2 with 0 <= K2 < 65536 (K1, K2 small ints)
        self.t1 = zeros("i", 256)
        self.t2 = zeros("i", 256)
        for k in range(256):
            self.t1[k] = thr[k] >> 16
            self.t2[k] = thr[k] & 0xFFFF

    def run(self):
        """Execute."""
        h = self._h
        hb = 2 * self.ti[0].base
        o = self.ty.buf
        ob = self.ty.base
        t1 = self.t1
        t2 = self.t2
        zy = self.zy
        for i in range(self.ty.count):
            lo16 = h[hb + 2 * i]
            hi16 = h[hb + 2 * i + 1]
            if hi16 & 0x8000:
                m = hi16 & 0x7FFF
                if m > 0x7F80 or (m == 0x7F80 and lo16):
                    o[ob + i] = zy
                    continue
                k1 = -1 - m
                k2 = 0xFFFF - lo16
            else:
                if hi16 > 0x7F80 or (hi16 == 0x7F80 and lo16):
                    o[ob + i] = zy
                    continue
                k1 = hi16
                k2 = lo16
            lo = 0
            hi = 255
            while lo < hi:
                mid = (lo + hi + 1) >> 1
                a1 = t1[mid]
                if a1 < k1 or (a1 == k1 and t2[mid] <= k2):
                    lo = mid
                else:
                    hi = mid - 1
            o[ob + i] = lo - 128


class Dequantize(K):
    """DEQUANTIZE int8 -> float32 through a table of float32 bit patterns (no float objects)."""

    def prepare(self, pr, op):
        x = self.ti[0]
        self._h = _halves(pr, self.ty)
        self.lo = zeros("i", 256)
        self.hi = zeros("i", 256)
        for q in range(-128, 128):
            b = f32_bits(f32(float(q - x.zp) * x.scale))
            self.lo[q + 128] = b & 0xFFFF
            self.hi[q + 128] = b >> 16

    def run(self):
        """Execute."""
        x = self.ti[0].buf
        xb = self.ti[0].base
        h = self._h
        hb = 2 * self.ty.base
        lo = self.lo
        hi = self.hi
        for i in range(self.ty.count):
            q = x[xb + i] + 128
            h[hb + 2 * i] = lo[q]
            h[hb + 2 * i + 1] = hi[q]


class ConvF32(K):
    """CONV_F32 with float32 accumulation."""

    def prepare(self, pr, op):
        x, w, y, p = self.ti[0], self.ti[1], self.ty, self.p
        N, C, H, W = x.dims
        M, _cg, KH, KW = w.dims
        G = p[8]
        self.geo = (N, C, H, W, M, KH, KW, y.dims[2], y.dims[3], G, C // G, M // G, p[0], p[1], p[2], p[3], p[6],
                    p[7])
        self.lo = bits_f32(p[9])
        self.hi = bits_f32(p[10])

    def run(self):
        """Execute."""
        x = self.ti[0].buf
        xb = self.ti[0].base
        w = self.ti[1].buf
        b = self.ti[2].buf if len(self.ti) > 2 else None
        o = self.ty.buf
        ob = self.ty.base
        e = _E
        lo = self.lo
        hi = self.hi
        N, C, H, W, M, KH, KW, OH, OW, G, Cg, Mg, sh, sw, pt, pl, dh, dw = self.geo
        HW = H * W
        KK = KH * KW
        for n in range(N):
            for g in range(G):
                for oc in range(g * Mg, (g + 1) * Mg):
                    wk = oc * Cg * KK
                    xg = xb + (n * C + g * Cg) * HW
                    orow = ob + (n * M + oc) * OH * OW
                    for oy in range(OH):
                        iy0 = oy * sh - pt
                        for ox in range(OW):
                            e[0] = b[oc] if b is not None else 0.0
                            ix0 = ox * sw - pl
                            for ic in range(Cg):
                                xp = xg + ic * HW
                                wp = wk + ic * KK
                                for ky in range(KH):
                                    iy = iy0 + ky * dh
                                    if iy < 0 or iy >= H:
                                        continue
                                    xr = xp + iy * W
                                    wr = wp + ky * KW
                                    for kx in range(KW):
                                        ix = ix0 + kx * dw
                                        if 0 <= ix < W:
                                            e[1] = x[xr + ix] * w[wr + kx]
                                            e[0] = e[0] + e[1]
                            v = e[0]
                            o[orow + oy * OW + ox] = lo if v < lo else (hi if v > hi else v)


class FcF32(K):
    """FC_F32."""

    def prepare(self, pr, op):
        self.lo = bits_f32(self.p[0])
        self.hi = bits_f32(self.p[1])

    def run(self):
        """Execute."""
        x = self.ti[0].buf
        xb = self.ti[0].base
        w = self.ti[1].buf
        b = self.ti[2].buf if len(self.ti) > 2 else None
        o = self.ty.buf
        ob = self.ty.base
        e = _E
        Nn, Kk = self.ti[1].dims[0], self.ti[1].dims[1]
        for r in range(self.ti[0].count // Kk):
            for n in range(Nn):
                e[0] = b[n] if b is not None else 0.0
                for k in range(Kk):
                    e[1] = x[xb + r * Kk + k] * w[n * Kk + k]
                    e[0] = e[0] + e[1]
                v = e[0]
                o[ob + r * Nn + n] = self.lo if v < self.lo else (self.hi if v > self.hi else v)


class MatMulF32(K):
    """MATMUL_F32 (batched, B broadcast when it has one matrix)."""

    def run(self):
        """Execute."""
        A = self.ti[0]
        B = self.ti[1]
        Y = self.ty
        m, k = A.dims[-2], A.dims[-1]
        n = B.dims[-1]
        ba = A.count // (m * k)
        bb = B.count // (k * n)
        e = _E
        for bi in range(ba):
            a0 = A.base + bi * m * k
            b0 = B.base + (0 if bb == 1 else bi) * k * n
            y0 = Y.base + bi * m * n
            for i in range(m):
                for j in range(n):
                    e[0] = 0.0
                    for ll in range(k):
                        e[1] = A.buf[a0 + i * k + ll] * B.buf[b0 + ll * n + j]
                        e[0] = e[0] + e[1]
                    Y.buf[y0 + i * n + j] = e[0]


class GatherAxes(K):
    """GATHER_AXES: Y[i0..ir] = X[t0[i0], .., tr[ir]] (-1: the fill value p0), as runs of byte copies built
    at load (consecutive indices along the last axis merge into one run: a row slice is one copy a row)."""

    def prepare(self, pr, op):
        x, tab, y = self.ti[0], self.ti[1], self.ty
        r = y.rank
        if len(self.ti) != 2 or x.rank != r or x.dtype != y.dtype or r < 1 or tab.dtype != DT_INT32:
            raise ProgramError("PROG_SHAPE")
        isz = _SZ[y.dtype]
        tabs = []
        at = 0
        for k in range(r):
            t = [tab.buf[tab.base + at + j] for j in range(y.dims[k])]
            for v in t:
                if v < -1 or v >= x.dims[k]:
                    raise ProgramError("PROG_PARAM")
            tabs.append(t)
            at += y.dims[k]
        if at != tab.count:
            raise ProgramError("PROG_SHAPE")
        fill = struct.pack("<i", self.p[0])[:isz]
        stride = [1] * r
        for k in range(r - 2, -1, -1):
            stride[k] = stride[k + 1] * x.dims[k + 1]
        last = tabs[r - 1]
        runs = []
        idx = [0] * (r - 1)
        rows = y.count // y.dims[r - 1] if y.dims[r - 1] else 0
        for row in range(rows):
            base = 0
            for k in range(r - 1):
                v = tabs[k][idx[k]]
                base = -1 if base < 0 or v < 0 else base + v * stride[k]
            dst = y.byte_base + row * y.dims[r - 1] * isz
            j = 0
            while j < len(last):
                src = -1 if base < 0 or last[j] < 0 else base + last[j]
                n = 1
                while j + n < len(last):
                    nxt = -1 if base < 0 or last[j + n] < 0 else base + last[j + n]
                    if not ((src < 0 and nxt < 0) or (src >= 0 and nxt == src + n)):
                        break
                    n += 1
                a, b = dst + j * isz, dst + (j + n) * isz
                if src < 0:
                    runs.append((a, b, bytes(fill * n)))
                else:
                    runs.append((a, b, memoryview(x.bytes)[x.byte_base + src * isz:x.byte_base + (src + n) * isz]))
                j += n
            for k in range(r - 2, -1, -1):
                idx[k] += 1
                if idx[k] < y.dims[k]:
                    break
                idx[k] = 0
        self.runs = tuple(runs)

    def run(self):
        """Execute."""
        yb = self.ty.bytes
        for a, b, src in self.runs:
            yb[a:b] = src


KERNELS = {1: ConvF32, 2: ConvI8, 3: FcF32, 4: FcI8, 5: MaxPoolF32, 6: MaxPoolI8, 7: AvgPoolF32, 8: AvgPoolI8,
           9: GapF32, 10: GapI8, 11: AddF32, 12: AddI8, 13: MulF32, 14: MulI8, 15: Unary, 16: Unary, 17: Unary,
           18: Unary, 19: LutI8, 20: SoftmaxF32, 21: SoftmaxI8, 22: Copy, 23: Concat, 24: Quantize,
           25: Dequantize, 26: MatMulF32, 38: GatherAxes}
# opcodes of bbnode/kernels_ext.py (imported by the loader the first time a program uses one)
EXT_OPCODES = (37, 44, 45, 46, 47, 48)
