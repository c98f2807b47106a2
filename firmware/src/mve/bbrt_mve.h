/* Helium (M-profile Vector Extension, Cortex-M55/M85) inner loops of the int8 kernels. Included once, by
 * bbrt_kernels.c, when the compiler targets MVE (__ARM_FEATURE_MVE, e.g. -mcpu=cortex-m55) and the DSP
 * kernels are not selected; the kernels call these where the portable build runs its scalar loops.
 *
 * Every function returns the portable loop's integers bit for bit: the sums are int32 additions of the same
 * products (exact in any order), and the requantizations are the portable ones rewritten with exact
 * identities (below). Tails run with lane predication (VCTP), so no load reads past the data.
 *
 * mbqm(x, m, shift) = floor((x * m + 2^(t-1)) / 2^t), t = 31 - shift. For t = 32 + s, s >= 1 (shift <= -2):
 * with x * m = H * 2^32 + L (0 <= L < 2^32), x * m + 2^(t-1) = (H + 2^(s-1)) * 2^32 + L, so the result is
 * (H + 2^(s-1)) >> s: VMULH (H) then VRSHL by -s (a rounding right shift adds exactly 2^(s-1)). |H| < 2^30,
 * so the result never reaches mbqm's +-(2^30 - 1) clamp. Shifts >= -1 are mve_rq4's second form. */
#ifndef BBRT_MVE_H
#define BBRT_MVE_H

/* The vector loops at -O2 whatever the build's OPT: GCC's -Os keeps the row pointers of mve_dot4_i8 on the
 * stack and recomputes them each pass (29 instructions per 64 MACs instead of 10 with post-increment loads
 * and a low-overhead loop, measured on the KWS build). Only these functions; popped at the end. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("O2")
#endif

#include <arm_mve.h>

/* Full vectors run unpredicated (a VPST before each predicated instruction would double the loop); the
 * tail of n % lanes elements runs once with zeroing loads (VCTP), so nothing past the data is read. */

/* sum_k x[k] * w[k] for k < K: 16 products per VMLADAVA */
static int32_t mve_dot_i8(const int8_t *x, const int8_t *w, uint32_t K) {
    int32_t s = 0;
    uint32_t i;
    for (i = K >> 4; i; i--, x += 16, w += 16) s = vmladavaq_s8(s, vld1q_s8(x), vld1q_s8(w));
    if (K & 15u) {
        mve_pred16_t p = vctp8q(K & 15u);
        s = vmladavaq_s8(s, vldrbq_z_s8(x, p), vldrbq_z_s8(w, p)); /* zeroed lanes add 0 */
    }
    return s;
}

/* sum_k w[k] for k < K */
static int32_t mve_sum_i8(const int8_t *w, uint32_t K) {
    int32_t s = 0;
    uint32_t i;
    for (i = K >> 4; i; i--, w += 16) s = vaddvaq_s8(s, vld1q_s8(w));
    if (K & 15u) s = vaddvaq_s8(s, vldrbq_z_s8(w, vctp8q(K & 15u)));
    return s;
}

/* cp[k] = xp[k * sC] for k < n (a 1x1 conv's patch: one pixel across channels), 8 bytes per byte gather
 * (16-bit offsets: 7 * sC must fit); 0 when sC is too large (the caller's loop runs) */
static int mve_gather_col(int8_t *cp, const int8_t *xp, uint32_t sC, uint32_t n) {
    uint16x8_t offs;
    uint32_t i;
    if (sC > 65535u / 7u) return 0;
    offs = vmulq_n_u16(vidupq_n_u16(0u, 1), (uint16_t)sC);
    for (i = n >> 3; i; i--, cp += 8, xp += 8u * sC) vstrbq_s16(cp, vldrbq_gather_offset_s16(xp, offs));
    if (n & 7u) {
        mve_pred16_t p = vctp16q(n & 7u);
        vstrbq_p_s16(cp, vldrbq_gather_offset_z_s16(xp, offs, p), p);
    }
    return 1;
}

/* 1 when the 4 channels (rq: multiplier, shift pairs) take mve_rq4: m >= 0, and for shift >= 0 (the
 * saturating left shift below) m == 0 or m >= 2^9 */
static int mve_rq_ok1(int32_t m, int32_t shift) {
    return m >= 0 && (shift < 0 || m == 0 || m >= 512);
}
static int mve_rq_ok4(const int32_t *rq) {
    return mve_rq_ok1(rq[0], rq[1]) && mve_rq_ok1(rq[2], rq[3]) && mve_rq_ok1(rq[4], rq[5]) &&
           mve_rq_ok1(rq[6], rq[7]);
}

/* the VQSHL / VRSHL amounts of one channel (mve_rq4; the identity: mve/bbrt_conv_mve.h) */
static void mve_rq_split(int32_t shift, int32_t *L, int32_t *R) {
    int32_t sh = shift > 30 ? 30 : (shift < -31 ? -31 : shift);
    *L = sh + 1 > 0 ? sh + 1 : 0;
    *R = sh < -1 ? sh : -1;
}

/* clamp(mbqm(acc[i], m_i, shift_i) + zy, lo, hi) for 4 channels (ms = vld2q_s32(rq): val[0] the multipliers,
 * val[1] the shifts; mve_rq_ok4(rq)), every shift: VQSHL, VQDMULH, VRSHL (the identity and its bounds:
 * mve/bbrt_conv_mve.h) */
static int32x4_t mve_rq4(int32x4_t acc, int32x4x2_t ms, int32_t zy, int32_t lo, int32_t hi) {
    int32x4_t sh = vminq_s32(vmaxq_s32(ms.val[1], vdupq_n_s32(-31)), vdupq_n_s32(30));
    int32x4_t l = vmaxq_s32(vaddq_n_s32(sh, 1), vdupq_n_s32(0)), r = vminq_s32(sh, vdupq_n_s32(-1));
    int32x4_t v = vaddq_n_s32(vrshlq_s32(vqdmulhq_s32(vqshlq_s32(acc, l), ms.val[0]), r), zy);
    return vminq_s32(vmaxq_s32(v, vdupq_n_s32(lo)), vdupq_n_s32(hi));
}

/* the int32 vector (a0, a1, a2, a3) */
static inline int32x4_t mve_vec4(int32_t a0, int32_t a1, int32_t a2, int32_t a3) {
    return vsetq_lane_s32(a3, vsetq_lane_s32(a2, vsetq_lane_s32(a1, vdupq_n_s32(a0), 1), 2), 3);
}

/* s[4 q + r] = sum_k x[k] w[(4 q + r) K + k] for r < 4, q < nq: 4 weight rows per pass against one x vector
 * (4 accumulators: VMLADAVA writes even registers only, so 4 leave the loop counter and the pointers in
 * registers; a function of its own so the pass holds nothing else) */
BBRT_NOINLINE static void mve_fc_acc(int32_t *s, const int8_t *x, const int8_t *w, uint32_t K, uint32_t nq) {
    const mve_pred16_t pt = vctp8q(K & 15u);
    uint32_t q, i;
    for (q = 0; q < nq; q++, s += 4, w += 4u * K) {
        const int8_t *xp = x, *w0 = w, *w1 = w + K, *w2 = w1 + K, *w3 = w2 + K;
        int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (i = K >> 4; i; i--) {
            int8x16_t xv = vld1q_s8(xp);
            a0 = vmladavaq_s8(a0, xv, vld1q_s8(w0));
            a1 = vmladavaq_s8(a1, xv, vld1q_s8(w1));
            a2 = vmladavaq_s8(a2, xv, vld1q_s8(w2));
            a3 = vmladavaq_s8(a3, xv, vld1q_s8(w3));
            xp += 16;
            w0 += 16;
            w1 += 16;
            w2 += 16;
            w3 += 16;
        }
        if (K & 15u) { /* zeroing loads: nothing past the rows is read, zero lanes add 0 */
            int8x16_t xv = vldrbq_z_s8(xp, pt);
            a0 = vmladavaq_s8(a0, xv, vldrbq_z_s8(w0, pt));
            a1 = vmladavaq_s8(a1, xv, vldrbq_z_s8(w1, pt));
            a2 = vmladavaq_s8(a2, xv, vldrbq_z_s8(w2, pt));
            a3 = vmladavaq_s8(a3, xv, vldrbq_z_s8(w3, pt));
        }
        vst1q_s32(s, mve_vec4(a0, a1, a2, a3));
    }
}

/* o[j] = clamp(mbqm(s[j] + b[j], rq[2 j], rq[2 j + 1]) + zy, lo, hi) for j < n (n % 4 == 0) by mve_rq4: in one
 * call-free loop when every multiplier is >= 2^9 (every real one: TFLite's are >= 2^30 or 0; a call in the
 * loop would cost the Q registers of its constants), else block by block, the scalar mbqm on a block
 * mve_rq_ok4 refuses */
BBRT_NOINLINE static void mve_rq_run(int8_t *o, const int32_t *s, const int32_t *b, const int32_t *rq, uint32_t n,
                                     int32_t zy, int32_t lo, int32_t hi) {
    int32_t mn = INT32_MAX;
    uint32_t i, j;
    for (i = 0; i < n; i += 4u) mn = vminvq_s32(mn, vld2q_s32(rq + 2u * i).val[0]);
    if (mn >= 512) {
        for (i = n >> 2; i; i--, o += 4, s += 4, b += 4, rq += 8)
            vstrbq_s32(o, mve_rq4(vaddq_s32(vld1q_s32(s), vld1q_s32(b)), vld2q_s32(rq), zy, lo, hi));
        return;
    }
    for (i = n >> 2; i; i--, o += 4, s += 4, b += 4, rq += 8) {
        if (mve_rq_ok4(rq)) {
            vstrbq_s32(o, mve_rq4(vaddq_s32(vld1q_s32(s), vld1q_s32(b)), vld2q_s32(rq), zy, lo, hi));
        } else {
            for (j = 0; j < 4u; j++) o[j] = sat8(mbqm(s[j] + b[j], rq[2u * j], rq[2u * j + 1u]) + zy, lo, hi);
        }
    }
}

#define BBRT_MVE_FC_CHUNK 64u /* accumulators held between the dot products and the requantization (stack) */

/* One input row of the fully connected layer: o[n] for n < Nn, bias b, weights w (Nn x K). Chunks of up to
 * 64 outputs: the dot products (mve_fc_acc), then the requantization of the chunk (mve_rq_run), each loop
 * with few live values (one loop doing both kept ~100 instructions of spills per 4 outputs, GCC 12).
 * `folded` = 0 with zx != 0: an old program, the zero point term subtracted per output (as the portable loop). */
static void mve_fc_row(const int8_t *x, const int8_t *w, const int32_t *b, const int32_t *rq, uint32_t Nn, uint32_t K,
                       int32_t zx, int32_t folded, int32_t zy, int32_t lo, int32_t hi, int8_t *o) {
    int32_t s[BBRT_MVE_FC_CHUNK];
    uint32_t n = 0, j;
    while (n + 4u <= Nn) {
        const uint32_t c = Nn - n >= BBRT_MVE_FC_CHUNK ? BBRT_MVE_FC_CHUNK : (Nn - n) & ~3u;
        mve_fc_acc(s, x, w + (size_t)n * K, K, c >> 2);
        if (!folded && zx != 0)
            for (j = 0; j < c; j++) s[j] -= zx * mve_sum_i8(w + (size_t)(n + j) * K, K);
        mve_rq_run(o + n, s, b + n, rq + 2u * n, c, zy, lo, hi);
        n += c;
    }
    for (; n < Nn; n++) {
        int32_t a = b[n] + mve_dot_i8(x, w + (size_t)n * K, K);
        if (!folded && zx != 0) a -= zx * mve_sum_i8(w + (size_t)n * K, K);
        o[n] = sat8(mbqm(a, rq[2u * n], rq[2u * n + 1u]) + zy, lo, hi);
    }
}

/* Depthwise rows, 4 output columns per pass (int32 lanes, one VMLA per tap). Columns ox * sw + k * dw of
 * row r: a contiguous load at stride 1, a byte gather (offsets 0, sw, 2 sw, 3 sw) otherwise. LD4 is the
 * full-vector load, LD4Z the tail's (lanes past n zeroed, not read). */
#define MVE_LD4(r) (sw == 1u ? vldrbq_s32(r) : vldrbq_gather_offset_s32((r), offs))
#define MVE_LD4Z(r) (sw == 1u ? vldrbq_z_s32((r), p) : vldrbq_gather_offset_z_s32((r), offs, p))
#define MVE_DW9(LD)                                                                                               \
    a = vdupq_n_s32(base);                                                                                        \
    a = vmlaq_n_s32(a, LD(r0), w0);                                                                               \
    a = vmlaq_n_s32(a, LD(r0 + 1), w1);                                                                           \
    a = vmlaq_n_s32(a, LD(r0 + 2), w2);                                                                           \
    a = vmlaq_n_s32(a, LD(r0 + rs), w3);                                                                          \
    a = vmlaq_n_s32(a, LD(r0 + rs + 1), w4);                                                                      \
    a = vmlaq_n_s32(a, LD(r0 + rs + 2), w5);                                                                      \
    a = vmlaq_n_s32(a, LD(r0 + 2u * rs), w6);                                                                     \
    a = vmlaq_n_s32(a, LD(r0 + 2u * rs + 1), w7);                                                                 \
    a = vmlaq_n_s32(a, LD(r0 + 2u * rs + 2), w8)

/* acc[ox] = base + the 9 taps of rows r0, r0 + rs, r0 + 2 rs at columns ox * sw .. ox * sw + 2, ox < n */
static void mve_dw_3x3(int32_t *acc, uint32_t n, const int8_t *r0, uint32_t rs, uint32_t sw, const int8_t *w,
                       int32_t base) {
    const uint32x4_t offs = vmulq_n_u32(vidupq_n_u32(0u, 1), sw);
    const int32_t w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5], w6 = w[6], w7 = w[7], w8 = w[8];
    int32x4_t a;
    uint32_t i;
    for (i = n >> 2; i; i--, acc += 4, r0 += 4u * sw) {
        MVE_DW9(MVE_LD4);
        vst1q_s32(acc, a);
    }
    if (n & 3u) {
        mve_pred16_t p = vctp32q(n & 3u);
        MVE_DW9(MVE_LD4Z);
        vstrwq_p_s32(acc, a, p);
    }
}

/* acc[ox] += sum_k r[ox * sw + k * dw] w[k] for ox < n, k < K (any kernel row) */
static void mve_dw_row(int32_t *acc, uint32_t n, const int8_t *r, uint32_t sw, uint32_t dw, const int8_t *w,
                       uint32_t K) {
    const uint32x4_t offs = vmulq_n_u32(vidupq_n_u32(0u, 1), sw);
    uint32_t i, t;
    for (i = n >> 2; i; i--, acc += 4, r += 4u * sw) {
        int32x4_t a = vld1q_s32(acc);
        for (t = 0; t < K; t++) a = vmlaq_n_s32(a, MVE_LD4(r + t * dw), w[t]);
        vst1q_s32(acc, a);
    }
    if (n & 3u) {
        mve_pred16_t p = vctp32q(n & 3u);
        int32x4_t a = vldrwq_z_s32(acc, p);
        for (t = 0; t < K; t++) a = vmlaq_n_s32(a, MVE_LD4Z(r + t * dw), w[t]);
        vstrwq_p_s32(acc, a, p);
    }
}

/* o[j * os] = clamp(dw_rq(acc[j]) + zy, lo, hi) for j < n (os > 1: a transposed plane, byte scatters), the
 * fast form (m >= 0, total = 32 + s, s >= 0): s = 0 is VRMULH ((x * m + 2^31) >> 32), s >= 1 the VMULH +
 * VRSHL identity above */
#define MVE_DWRQ(a) \
    vminq_s32(vmaxq_s32(vaddq_n_s32(s == 0 ? vrmulhq_s32(a, mv) : vrshlq_s32(vmulhq_s32(a, mv), neg), zy), lov), hiv)
static void mve_dw_requant(int8_t *o, uint32_t os, const int32_t *acc, uint32_t n, int32_t m, int32_t s, int32_t zy,
                           int32_t lo, int32_t hi) {
    const int32x4_t mv = vdupq_n_s32(m), neg = vdupq_n_s32(-s), lov = vdupq_n_s32(lo), hiv = vdupq_n_s32(hi);
    const uint32x4_t offs = vmulq_n_u32(vidupq_n_u32(0u, 1), os);
    uint32_t i;
    if (os == 1u) {
        for (i = n >> 2; i; i--, acc += 4, o += 4) vstrbq_s32(o, MVE_DWRQ(vld1q_s32(acc)));
    } else {
        for (i = n >> 2; i; i--, acc += 4, o += 4u * os) vstrbq_scatter_offset_s32(o, offs, MVE_DWRQ(vld1q_s32(acc)));
    }
    if (n & 3u) {
        mve_pred16_t p = vctp32q(n & 3u);
        vstrbq_scatter_offset_p_s32(o, offs, MVE_DWRQ(vldrwq_z_s32(acc, p)), p);
    }
}

/* A depthwise strip, 3x3 taps, the fast requantization (m >= 0, s >= 0 as mve_dw_requant), in one pass:
 * output row r (band rows r * step / rs ..., columns ox * sw ...) is computed 4 columns at a time, requantized
 * and stored (o + r * ors + ox * ocs; ocs > 1 by byte scatters) without a row of accumulators in between, so
 * a small plane pays its setup once per strip instead of twice per row. */
static void mve_dw_strip33(int8_t *o, uint32_t ors, uint32_t ocs, uint32_t nrows, const int8_t *band, uint32_t rs,
                           uint32_t step, uint32_t sw, uint32_t OW, const int8_t *w, int32_t base, int32_t m,
                           int32_t s, int32_t zy, int32_t lo, int32_t hi) {
    const uint32x4_t offs = vmulq_n_u32(vidupq_n_u32(0u, 1), sw), oo = vmulq_n_u32(vidupq_n_u32(0u, 1), ocs);
    const int32x4_t mv = vdupq_n_s32(m), neg = vdupq_n_s32(-s), lov = vdupq_n_s32(lo), hiv = vdupq_n_s32(hi);
    const int32_t w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5], w6 = w[6], w7 = w[7], w8 = w[8];
    uint32_t r, i;
    for (r = 0; r < nrows; r++, band += step, o += ors) {
        const int8_t *r0 = band;
        int8_t *q = o;
        int32x4_t a;
        for (i = OW >> 2; i; i--, r0 += 4u * sw, q += 4u * ocs) {
            MVE_DW9(MVE_LD4);
            if (ocs == 1u)
                vstrbq_s32(q, MVE_DWRQ(a));
            else
                vstrbq_scatter_offset_s32(q, oo, MVE_DWRQ(a));
        }
        if (OW & 3u) {
            mve_pred16_t p = vctp32q(OW & 3u);
            MVE_DW9(MVE_LD4Z);
            vstrbq_scatter_offset_p_s32(q, oo, MVE_DWRQ(a), p);
        }
    }
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

#endif /* BBRT_MVE_H */
