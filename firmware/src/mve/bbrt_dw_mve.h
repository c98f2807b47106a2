/* Helium form of the stride-1 depthwise conv: included by bbrt_kernels.c before conv_dw_i8 (MVE builds, see
 * bbrt_mve.h), which tries mve_conv_dw first.
 *
 * NCHW keeps a channel's plane contiguous, and MLPerf Tiny's planes are small (KWS 25 x 5, VWW down to 3 x 3),
 * so per-row loops spend their time in setup. Here a channel's padded plane (the band: rows of rs = OW + KW - 1
 * bytes, the padding holding the input zero point) is one flat array, and output k = oy rs + ox reads band
 * bytes k + ky rs + kx: one run of 4-lane int32 multiply-accumulates over the whole plane, written over the
 * band as it goes, the KW - 1 columns past each row's end computed and dropped when the rows are copied out.
 * Up to 16 taps whose offsets fit a byte (every MLPerf Tiny depthwise at stride 1) run one byte gather and
 * one VMLADAV per output (mve_dw_gat); the others 4-lane multiply-accumulates per tap (mve_dw_flat33/_flat).
 *
 * acc = (b - zx sum(w)) + sum(band w): the portable integer (as conv_dw_i8). Requantization as mve_rq4 (the
 * identity in bbrt_conv_mve.h) with the channel's constants as scalars; a conv with a channel mve_rq_ok1
 * refuses, or whose band does not fit, is left to conv_dw_i8 (returns 0). */
#ifndef BBRT_DW_MVE_H
#define BBRT_DW_MVE_H

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("O2") /* as bbrt_mve.h */
#endif

#define BBRT_MVE_DW_BAND 3072u /* padded plane bytes (stack) */
#define BBRT_MVE_DW_TAPS 32u   /* kernel taps */
#ifndef BBRT_MVE_DW_ROWW
#define BBRT_MVE_DW_ROWW 16u /* gathered outputs rows this wide or wider run row by row at stride 1 too (vww: 16 of 8, 16, 32) */
#endif

typedef struct {
    int32_t base, m, L, R, zy, lo, hi;
} mve_dwq_t;

/* The 9 taps of one 4-lane pass and its requantization: LD(ptr) is the pass's load (unpredicated in the
 * full passes, zeroing in the tail). The outputs are written over band bytes k .. k + 3 once read: later
 * passes read only bytes past k + 3, so the band becomes the flat outputs. Register budget (GCC 12, -O2):
 * 3 row pointers, 9 weights and the multiplier in r0-r12, 7 of the 8 Q registers; the VQSHL amount (a
 * shift >= 0, rare) is a second function so the common one keeps that budget. */
#define MVE_DW33(LD, SHL)                                                                                 \
    a = vmlaq_n_s32(vbase, LD(r0), w0);                                                                    \
    a = vmlaq_n_s32(a, LD(r0 + 1), w1);                                                                    \
    a = vmlaq_n_s32(a, LD(r0 + 2), w2);                                                                    \
    a = vmlaq_n_s32(a, LD(r1), w3);                                                                        \
    a = vmlaq_n_s32(a, LD(r1 + 1), w4);                                                                    \
    a = vmlaq_n_s32(a, LD(r1 + 2), w5);                                                                    \
    a = vmlaq_n_s32(a, LD(r2), w6);                                                                        \
    a = vmlaq_n_s32(a, LD(r2 + 1), w7);                                                                    \
    a = vmlaq_n_s32(a, LD(r2 + 2), w8);                                                                    \
    a = vminq_s32(vmaxq_s32(vaddq_s32(vrshlq_s32(vqdmulhq_n_s32(SHL(a), m), vR), vzy), vlo), vhi)
#define MVE_LDF(ptr) vldrbq_s32(ptr)
#define MVE_LDT(ptr) vldrbq_z_s32((ptr), p)
#define MVE_SHL0(a) (a)
#define MVE_SHLL(a) vqshlq_r_s32((a), q->L)

/* band[k] = the requantized base + sum of the 3 x 3 taps at band[k + ky rs + kx], k < F (in place) */
#define MVE_DW_FLAT33(NAME, SHL)                                                                          \
    BBRT_NOINLINE static void NAME(int8_t *band, uint32_t F, uint32_t rs, const int32_t *w, const mve_dwq_t *q) { \
        const int32x4_t vbase = vdupq_n_s32(q->base), vR = vdupq_n_s32(q->R), vzy = vdupq_n_s32(q->zy);       \
        const int32x4_t vlo = vdupq_n_s32(q->lo), vhi = vdupq_n_s32(q->hi);                                   \
        const int32_t m = q->m, w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5], w6 = w[6];  \
        const int32_t w7 = w[7], w8 = w[8];                                                                   \
        const int8_t *r1 = band + rs, *r2 = r1 + rs;                                                          \
        int8_t *r0 = band;                                                                                    \
        int32x4_t a;                                                                                          \
        uint32_t i;                                                                                           \
        for (i = F >> 2; i; i--) {                                                                            \
            MVE_DW33(MVE_LDF, SHL);                                                                           \
            vstrbq_s32(r0, a);                                                                                \
            r0 += 4;                                                                                          \
            r1 += 4;                                                                                          \
            r2 += 4;                                                                                          \
        }                                                                                                     \
        if (F & 3u) {                                                                                         \
            mve_pred16_t p = vctp32q(F & 3u);                                                                 \
            MVE_DW33(MVE_LDT, SHL);                                                                           \
            vstrbq_p_s32(r0, a, p);                                                                           \
        }                                                                                                     \
    }
MVE_DW_FLAT33(mve_dw_flat33, MVE_SHL0)
MVE_DW_FLAT33(mve_dw_flat33s, MVE_SHLL)

/* mve_dw_flat33 for any taps (offsets off[t], weights w[t], t < T), from src to dst (dst <= src: in place) */
#define MVE_DWT(LD)                                                                                       \
    a = vbase;                                                                                             \
    for (t = 0; t < T; t++) a = vmlaq_n_s32(a, LD(src + off[t]), w[t]);                                   \
    a = vrshlq_n_s32(vqdmulhq_n_s32(vqshlq_r_s32(a, L), m), R);                                           \
    a = vminq_s32(vmaxq_s32(vaddq_n_s32(a, zy), lov), hiv)
BBRT_NOINLINE static void mve_dw_flat(int8_t *dst, const int8_t *src, uint32_t F, const uint32_t *off, const int32_t *w,
                                      uint32_t T, const mve_dwq_t *q) {
    const int32x4_t lov = vdupq_n_s32(q->lo), hiv = vdupq_n_s32(q->hi), vbase = vdupq_n_s32(q->base);
    const int32_t m = q->m, L = q->L, R = q->R, zy = q->zy;
    int32x4_t a;
    uint32_t i, t;
    for (i = F >> 2; i; i--, src += 4, dst += 4) {
        MVE_DWT(MVE_LDF);
        vstrbq_s32(dst, a);
    }
    if (F & 3u) {
        mve_pred16_t p = vctp32q(F & 3u);
        MVE_DWT(MVE_LDT);
        vstrbq_p_s32(dst, a, p);
    }
}

#define BBRT_MVE_DW_CHUNK 64u /* sums held between the gathers and the requantization (stack) */

/* acc[j] = sum_t p[j s + off[t]] w[t] for j < m: the T <= 16 taps of an output are one byte gather and one
 * VMLADAV against the channel's weights (lanes past T gather p[j s + i s] and meet weight 0), 4 outputs per
 * step from one pointer (offset vectors off + 0, s, 2 s, 3 s: o[0..3]); hand-written, 12 instructions per 4
 * outputs with their stores (GCC 12 stored one word at a time), where 4-lane multiply-accumulates take a
 * load and a VMLA per tap */
static void mve_dw_gat_run(int32_t *acc, const int8_t *p, uint32_t m, uint32_t s, const uint8x16_t *o, int8x16_t wv) {
    if (m >> 2) {
        register int32_t a0 __asm__("r0"), a1 __asm__("r2"), a2 __asm__("r4"), a3 __asm__("r6");
        register const int8_t *pp __asm__("r1") = p;
        register int32_t *pa __asm__("r3") = acc;
        register uint32_t st __asm__("r5") = 4u * s;
        register uint32_t cnt __asm__("lr") = m >> 2;
        __asm__ volatile("1:\n\t"
                         "vldrb.u8 q0, [%[pp], %q[o0]]\n\t"
                         "vldrb.u8 q1, [%[pp], %q[o1]]\n\t"
                         "vmladav.s8 %[a0], q0, %q[wv]\n\t"
                         "vmladav.s8 %[a1], q1, %q[wv]\n\t"
                         "vldrb.u8 q0, [%[pp], %q[o2]]\n\t"
                         "vldrb.u8 q1, [%[pp], %q[o3]]\n\t"
                         "vmladav.s8 %[a2], q0, %q[wv]\n\t"
                         "adds %[pp], %[pp], %[st]\n\t"
                         "vmladav.s8 %[a3], q1, %q[wv]\n\t"
                         "strd %[a0], %[a1], [%[pa]], #8\n\t"
                         "strd %[a2], %[a3], [%[pa]], #8\n\t"
                         "le lr, 1b\n\t"
                         : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [pp] "+r"(pp), [pa] "+r"(pa),
                           [cnt] "+r"(cnt)
                         : [o0] "w"(o[0]), [o1] "w"(o[1]), [o2] "w"(o[2]), [o3] "w"(o[3]), [wv] "w"(wv), [st] "r"(st)
                         : "q0", "q1", "memory", "cc");
        p = pp;
        acc = pa;
    }
    for (m &= 3u; m; m--, p += s, acc++) *acc = vmladavq_s8(vldrbq_gather_offset_s8(p, o[0]), wv);
}

/* dst[j] = the requantized base + acc[j] for j < n (as mve_dw_flat) */
static void mve_dw_gat_rq(int8_t *dst, const int32_t *acc, uint32_t n, const mve_dwq_t *q) {
    const int32x4_t lov = vdupq_n_s32(q->lo), hiv = vdupq_n_s32(q->hi);
    const int32_t m = q->m, L = q->L, R = q->R, zy = q->zy, base = q->base;
    int32x4_t v;
    uint32_t i;
    for (i = n >> 2; i; i--, acc += 4, dst += 4) {
        v = vrshlq_n_s32(vqdmulhq_n_s32(vqshlq_r_s32(vaddq_n_s32(vld1q_s32(acc), base), L), m), R);
        vstrbq_s32(dst, vminq_s32(vmaxq_s32(vaddq_n_s32(v, zy), lov), hiv));
    }
    if (n & 3u) { /* lanes past n: stale sums, not stored */
        v = vrshlq_n_s32(vqdmulhq_n_s32(vqshlq_r_s32(vaddq_n_s32(vld1q_s32(acc), base), L), m), R);
        vstrbq_p_s32(dst, vminq_s32(vmaxq_s32(vaddq_n_s32(v, zy), lov), hiv), vctp32q(n & 3u));
    }
}

#define BBRT_MVE_DW_CHUNK 64u /* sums held between the gathers and the requantization (stack) */

/* nr rows of n outputs, row r's output j reading src[r rstep + j s + off[t]] (stride 1: one flat row), as
 * dot products (mve_dw_gat_run) into chunks of sums requantized into dst (outputs in order, rows
 * contiguous). dst == src (stride 1, one row) in place: a chunk is written after its last read, later chunks
 * read only past it. */
BBRT_NOINLINE static void mve_dw_gat(int8_t *dst, const int8_t *src, uint32_t nr, uint32_t n, uint32_t rstep,
                                     uint32_t s, const uint8_t *off16, const int8_t *w16, const mve_dwq_t *q) {
    uint8x16_t o[4];
    const int8x16_t wv = vld1q_s8(w16);
    int32_t acc[BBRT_MVE_DW_CHUNK];
    uint32_t r, fill = 0;
    o[0] = vld1q_u8(off16);
    o[1] = vaddq_n_u8(o[0], (uint8_t)s);
    o[2] = vaddq_n_u8(o[0], (uint8_t)(2u * s));
    o[3] = vaddq_n_u8(o[0], (uint8_t)(3u * s));
    for (r = 0; r < nr; r++, src += rstep) {
        const int8_t *p = src;
        uint32_t left = n;
        while (left) {
            const uint32_t m = left < BBRT_MVE_DW_CHUNK - fill ? left : BBRT_MVE_DW_CHUNK - fill;
            mve_dw_gat_run(acc + fill, p, m, s, o, wv);
            p += m * s;
            left -= m;
            fill += m;
            if (fill == BBRT_MVE_DW_CHUNK) {
                mve_dw_gat_rq(dst, acc, fill, q);
                dst += fill;
                fill = 0;
            }
        }
    }
    if (fill) mve_dw_gat_rq(dst, acc, fill, q);
}

/* d[i] = s[i] for i < n, 16 bytes per predicated pass */
static void mve_copy(int8_t *d, const int8_t *s, uint32_t n) {
    uint32_t i;
    for (i = 0; i < n; i += 16u, d += 16, s += 16) {
        mve_pred16_t p = vctp8q(n - i);
        vstrbq_p_s8(d, vldrbq_z_s8(s, p), p);
    }
}

/* rows r < nr of n bytes from s + r ss to d + r ds (rows of at most 16 bytes: one predicated pass each) */
static void mve_copy_rows(int8_t *d, uint32_t ds, const int8_t *s, uint32_t ss, uint32_t n, uint32_t nr) {
    uint32_t r;
    if (n <= 16u) {
        const mve_pred16_t p = vctp8q(n);
        for (r = 0; r < nr; r++, d += ds, s += ss) vstrbq_p_s8(d, vldrbq_z_s8(s, p), p);
    } else {
        for (r = 0; r < nr; r++, d += ds, s += ss) mve_copy(d, s, n);
    }
}

/* the depthwise conv (G = C = M groups, one channel each), dilation 1, NCHW input: 1 when done. Stride 1:
 * any taps (the flat plane, copied out when its rows are padded); stride 2, and stride 1 with mve_dw_gat's
 * taps and output rows of BBRT_MVE_DW_ROWW or more: row by row over the band straight into the output, whose
 * padding then stays in the band from one channel to the next (filled once; short rows pay more per row than
 * the flat plane's copy-out). */
static int mve_conv_dw(const conv_i8_t *c, int8_t *o) {
    const conv_geo_t *g = &c->g;
    const uint32_t KH = g->KH, KW = g->KW, T = KH * KW, OH = g->OH, OW = g->OW, W = g->W, H = g->H;
    const uint32_t s = (uint32_t)g->sw, rs = (OW - 1u) * s + KW, HP = (OH - 1u) * s + KH;
    uint32_t bandw[BBRT_MVE_DW_BAND / 4u], off[BBRT_MVE_DW_TAPS];
    int8_t *band = (int8_t *)bandw;
    int32_t wt[BBRT_MVE_DW_TAPS];
    const int8x16_t zx16 = vdupq_n_s8((int8_t)c->zx);
    uint32_t n, ch, t, cols, ny;
    /* mve_dw_gat: up to 16 taps, the 4 steps' offsets within 8 bits (the geometry is checked below) */
    const int gat = T <= 16u && (uint64_t)(KH - 1u) * rs + KW - 1u + 3u * s <= 255u;
    const int k33 = !gat && T == 9u && KW == 3u; /* mve_dw_flat33: in place, so never on the input itself */
    const int direct = !k33 && g->pt == 0 && g->pl == 0 && rs == W && HP <= H;
    const int rows = s != 1u || (gat && OW >= BBRT_MVE_DW_ROWW); /* row by row into the output, padding kept */
    uint8_t o16[16];
    int8_t w16[16];
    mve_dwq_t q;
    if (g->sh != g->sw || (s != 1u && !(s == 2u && gat)) || g->dh != 1 || g->dw != 1 || g->sW != 1u ||
        g->sH != W || T > BBRT_MVE_DW_TAPS || (uint64_t)HP * rs > BBRT_MVE_DW_BAND || (uint32_t)g->pt >= HP ||
        g->pt < 0 || g->pl < 0 || (uint32_t)g->pl >= rs)
        return 0;
    for (ch = 0; ch < g->M; ch++)
        if (!mve_rq_ok1(c->rq[2u * ch], c->rq[2u * ch + 1u])) return 0;
    cols = W < rs - (uint32_t)g->pl ? W : rs - (uint32_t)g->pl;
    ny = H < HP - (uint32_t)g->pt ? H : HP - (uint32_t)g->pt; /* input rows inside the band */
    for (t = 0; t < T; t++) off[t] = t / KW * rs + t % KW;
    for (t = 0; t < 16u; t++) {
        o16[t] = (uint8_t)(gat && t < T ? off[t] : 0u);
        w16[t] = 0;
    }
    q.zy = c->zy;
    q.lo = c->amin;
    q.hi = c->amax;
    if (rows && !direct) /* the padding, once (the 16-byte steps stay inside the band: its size is a multiple) */
        for (t = 0; t < HP * rs; t += 16u) vst1q_s8(band + t, zx16);
    for (n = 0; n < g->N; n++)
        for (ch = 0; ch < g->M; ch++) {
            const int8_t *xp = c->x + (size_t)n * g->C * H * W + (size_t)ch * g->sC, *wc = c->w + (size_t)ch * T;
            int8_t *oc = o + ((size_t)n * g->M + ch) * OH * OW;
            const uint32_t F = (OH - 1u) * rs + OW; /* flat outputs */
            const int8_t *src = direct ? xp : band; /* no padding, rows as wide as the image's: the plane */
            if (!direct) {
                if (!rows)
                    for (t = 0; t < HP * rs; t += 16u) vst1q_s8(band + t, zx16); /* padding (band size: 16 k) */
                mve_copy_rows(band + (uint32_t)g->pt * rs + (uint32_t)g->pl, rs, xp, W, cols, ny); /* image rows */
            }
            if (gat) { /* the taps as one zero-padded vector (read with T lanes), their sum by VADDV */
                const int8x16_t wv = vldrbq_z_s8(wc, vctp8q(T));
                vst1q_s8(w16, wv);
                q.base = c->b[ch] - c->zx * vaddvq_s8(wv);
            } else {
                q.base = c->b[ch];
                for (t = 0; t < T; t++) {
                    wt[t] = wc[t];
                    q.base -= c->zx * wc[t];
                }
            }
            q.m = c->rq[2u * ch];
            mve_rq_split(c->rq[2u * ch + 1u], &q.L, &q.R);
            if (rows) {
                mve_dw_gat(oc, src, OH, OW, s * rs, s, o16, w16, &q);
                continue;
            }
            if (gat) {
                mve_dw_gat(rs == OW ? oc : band, src, 1u, F, 0u, 1u, o16, w16, &q); /* KW = 1: flat = the rows */
            } else if (k33) {
                if (q.L == 0)
                    mve_dw_flat33(band, F, rs, wt, &q);
                else
                    mve_dw_flat33s(band, F, rs, wt, &q);
            } else {
                mve_dw_flat(rs == OW ? oc : band, src, F, off, wt, T, &q); /* KW = 1: the flat outputs are the rows */
            }
            if (rs != OW) mve_copy_rows(oc, OW, band, rs, OW, OH);
        }
    return 1;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

#endif /* BBRT_DW_MVE_H */
