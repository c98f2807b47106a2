/* Helium form of the im2col conv (conv_im2col_i8): included by bbrt_kernels.c after im2col_patch (MVE
 * builds, see bbrt_mve.h), which calls mve_conv_im2col instead of its portable loops.
 *
 * Per block of up to BBRT_IM2COL_OC output channels the per-channel constants are computed once: the bias
 * with the input zero point folded in, and the requantization as three vectors (multiplier, a left shift
 * and a rounding right shift; mve_rq_split). Output pixels go 4 at a time: their patches are gathered
 * (16-bit offsets from a per-conv table; at the image's edge predicated, the zero point elsewhere) into one
 * interleaved buffer, then every 2 channels are one pass of 8 VMLADAVs per 16 patch bytes (mve_conv_quad),
 * requantized per channel as a vector and stored as 4 contiguous bytes (NCHW). The last OHW % 4 pixels run
 * one at a time, 4 channels per pass, stored with one byte scatter (channels OHW bytes apart).
 *
 * The requantization, for mbqm(x, m, sh) (sh clamped to [-31, 30], t = 31 - sh) and m >= 0:
 *   r = VRSHL(VQDMULH(VQSHL(x, L), m), R), L = max(sh + 1, 0), R = min(sh, -1).
 * sh <= -1 (L = 0, R = sh): VQDMULH = floor(x m / 2^31) (it saturates only for m = -2^31), and a rounding
 * right shift by -sh of a floor is floor((x m + 2^(30 - sh)) / 2^(31 - sh)) = mbqm (nested floors of
 * power-of-two divisions compose). sh >= 0 (L = sh + 1, R = -1): with x' = x 2^(sh+1) exact, the same
 * identity gives (x' m + 2^31) >> 32 = (x m + 2^(30 - sh)) >> (31 - sh) = mbqm. When VQSHL saturates,
 * |x 2^(sh+1)| >= 2^31 - 1, so |mbqm| >= m / 4 - 1 and the vector result (about m / 2) have the same sign
 * and both reach +-127 after + zy for m >= 2^9 (mve_rq_ok1): the int8 bytes agree. |r| <= 2^30, so + zy
 * never overflows and mbqm's +-(2^30 - 1) clamp never shows through the int8 clamp. Blocks with a
 * channel mve_rq_ok1 refuses (m < 0, or 0 < m < 2^9 with sh >= 0) run the scalar mbqm. */
#ifndef BBRT_CONV_MVE_H
#define BBRT_CONV_MVE_H

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("O2") /* as bbrt_mve.h */
#endif

/* per-channel constants of one block: bias (zero point folded), multiplier, VQSHL and VRSHL amounts */
typedef struct {
    int32_t base[BBRT_IM2COL_OC], m[BBRT_IM2COL_OC], L[BBRT_IM2COL_OC], R[BBRT_IM2COL_OC];
    uint8_t ok[BBRT_IM2COL_OC / 4u]; /* every channel of the 4-block passes mve_rq_ok1 */
    uint8_t okc[BBRT_IM2COL_OC];     /* the channel passes mve_rq_ok1 */
    uint8_t all;                     /* every channel of the block does */
} mve_blk_t;

/* o[j * OHW] for the nb 4-channel blocks of one patch (weights w: 4 nb rows of P bytes) */
BBRT_NOINLINE static void mve_conv_px(const mve_blk_t *bk, const int8_t *col, const int8_t *w, uint32_t P, uint32_t nb,
                                      const int32_t *rq, int8_t *op, uint32_t OHW, int32_t zy, int32_t lo,
                                      int32_t hi) {
    const uint32x4_t oo = vmulq_n_u32(vidupq_n_u32(0u, 1), OHW);
    const mve_pred16_t pt = vctp8q(P & 15u);
    const int32x4_t lov = vdupq_n_s32(lo), hiv = vdupq_n_s32(hi);
    uint32_t b, i;
    for (b = 0; b < nb; b++, w += 4u * P, op += 4u * OHW, rq += 8) {
        const int8_t *x = col, *w0 = w, *w1 = w + P, *w2 = w1 + P, *w3 = w2 + P;
        const uint32_t j = 4u * b;
        int32_t a0 = bk->base[j], a1 = bk->base[j + 1u], a2 = bk->base[j + 2u], a3 = bk->base[j + 3u];
        for (i = P >> 4; i; i--) {
            int8x16_t xv = vld1q_s8(x);
            a0 = vmladavaq_s8(a0, xv, vld1q_s8(w0));
            a1 = vmladavaq_s8(a1, xv, vld1q_s8(w1));
            a2 = vmladavaq_s8(a2, xv, vld1q_s8(w2));
            a3 = vmladavaq_s8(a3, xv, vld1q_s8(w3));
            x += 16;
            w0 += 16;
            w1 += 16;
            w2 += 16;
            w3 += 16;
        }
        if (P & 15u) { /* zeroing loads: nothing past the rows is read, zero lanes add 0 */
            int8x16_t xv = vldrbq_z_s8(x, pt);
            a0 = vmladavaq_s8(a0, xv, vldrbq_z_s8(w0, pt));
            a1 = vmladavaq_s8(a1, xv, vldrbq_z_s8(w1, pt));
            a2 = vmladavaq_s8(a2, xv, vldrbq_z_s8(w2, pt));
            a3 = vmladavaq_s8(a3, xv, vldrbq_z_s8(w3, pt));
        }
        if (bk->ok[b]) {
            int32x4_t v = vdupq_n_s32(a0);
            v = vsetq_lane_s32(a1, v, 1);
            v = vsetq_lane_s32(a2, v, 2);
            v = vsetq_lane_s32(a3, v, 3);
            v = vrshlq_s32(vqdmulhq_s32(vqshlq_s32(v, vld1q_s32(bk->L + j)), vld1q_s32(bk->m + j)),
                           vld1q_s32(bk->R + j));
            v = vminq_s32(vmaxq_s32(vaddq_n_s32(v, zy), lov), hiv);
            vstrbq_scatter_offset_s32(op, oo, v);
        } else {
            op[0] = sat8(mbqm(a0, rq[0], rq[1]) + zy, lo, hi);
            op[OHW] = sat8(mbqm(a1, rq[2], rq[3]) + zy, lo, hi);
            op[2u * OHW] = sat8(mbqm(a2, rq[4], rq[5]) + zy, lo, hi);
            op[3u * OHW] = sat8(mbqm(a3, rq[6], rq[7]) + zy, lo, hi);
        }
    }
}

/* acc[8 q .. 8 q + 3] = base[2 q] + the dot products of 4 adjacent pixels' patches (col: interleaved 16 bytes
 * at a time, bytes 16 k .. 16 k + 15 of patch i at 64 k + 16 i) with weight row 2 q, acc[8 q + 4 ..] the same
 * for row 2 q + 1, q < npairs (dup: the second row is the first again, its sums dropped by the caller; base
 * is read at 2 q + 1 then too). The pair's 16-byte step is hand-written: 6 loads, 8 VMLADAVAs, an add and the
 * loop (16 instructions per 128 products). VMLADAVA writes even registers only, so the 8 accumulators take
 * r0 .. r12 and lr, and the loop counts in r9 with SUBS/BNE (GCC's own loop kept 7 in registers and moved
 * or spilled the 8th every step: 21 instructions). The tail (P % 16) loads the weights predicated (zero
 * lanes: the patch bytes past P, any bytes, multiply 0). */
BBRT_NOINLINE static void mve_quad_acc(int32_t *acc, const int8_t *col, const int8_t *w, uint32_t P, uint32_t npairs,
                                       const int32_t *base, uint32_t dup) {
    const uint32_t nf = P >> 4, pt = vctp8q(P & 15u), dv = dup ? 0u : P;
    uint32_t j;
    for (j = npairs; j; j--, w += 2u * P, acc += 8, base += 2) {
        register int32_t a0 __asm__("r0") = base[0], a1 __asm__("r2") = a0, a2 __asm__("r4") = a0, a3 __asm__("r6") = a0;
        register int32_t b0 __asm__("r8") = base[1], b1 __asm__("r10") = b0, b2 __asm__("r12") = b0, b3 __asm__("lr") = b0;
        register const int8_t *px __asm__("r1") = col, *pu __asm__("r3") = w, *pv __asm__("r5") = w + dv;
        register uint32_t cnt __asm__("r9") = nf;
        if (cnt)
            __asm__ volatile("1:\n\t"
                             "vldrb.8 q0, [%[pu]], #16\n\t"
                             "vldrb.8 q1, [%[pv]], #16\n\t"
                             "vldrb.8 q2, [%[px]]\n\t"
                             "vldrb.8 q3, [%[px], #16]\n\t"
                             "vmladava.s8 %[a0], q2, q0\n\t"
                             "vmladava.s8 %[b0], q2, q1\n\t"
                             "vldrb.8 q2, [%[px], #32]\n\t"
                             "vmladava.s8 %[a1], q3, q0\n\t"
                             "vmladava.s8 %[b1], q3, q1\n\t"
                             "vldrb.8 q3, [%[px], #48]\n\t"
                             "vmladava.s8 %[a2], q2, q0\n\t"
                             "vmladava.s8 %[b2], q2, q1\n\t"
                             "adds %[px], #64\n\t"
                             "vmladava.s8 %[a3], q3, q0\n\t"
                             "vmladava.s8 %[b3], q3, q1\n\t"
                             "subs %[cnt], #1\n\t"
                             "bne 1b\n\t"
                             : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [b0] "+r"(b0), [b1] "+r"(b1),
                               [b2] "+r"(b2), [b3] "+r"(b3), [px] "+r"(px), [pu] "+r"(pu), [pv] "+r"(pv), [cnt] "+r"(cnt)
                             :
                             : "q0", "q1", "q2", "q3", "memory", "cc");
        if (P & 15u) {
            register uint32_t pr __asm__("r9") = pt;
            __asm__ volatile("vmsr p0, %[pr]\n\t"
                             "vpstt\n\t"
                             "vldrbt.8 q0, [%[pu]]\n\t"
                             "vldrbt.8 q1, [%[pv]]\n\t"
                             "vldrb.8 q2, [%[px]]\n\t"
                             "vldrb.8 q3, [%[px], #16]\n\t"
                             "vmladava.s8 %[a0], q2, q0\n\t"
                             "vmladava.s8 %[b0], q2, q1\n\t"
                             "vldrb.8 q2, [%[px], #32]\n\t"
                             "vmladava.s8 %[a1], q3, q0\n\t"
                             "vmladava.s8 %[b1], q3, q1\n\t"
                             "vldrb.8 q3, [%[px], #48]\n\t"
                             "vmladava.s8 %[a2], q2, q0\n\t"
                             "vmladava.s8 %[b2], q2, q1\n\t"
                             "vmladava.s8 %[a3], q3, q0\n\t"
                             "vmladava.s8 %[b3], q3, q1\n\t"
                             : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [b0] "+r"(b0), [b1] "+r"(b1),
                               [b2] "+r"(b2), [b3] "+r"(b3)
                             : [px] "r"(px), [pu] "r"(pu), [pv] "r"(pv), [pr] "r"(pr)
                             : "q0", "q1", "q2", "q3", "memory");
        }
        {
            register int32_t *ap __asm__("r9") = acc;
            __asm__ volatile("strd %[a0], %[a1], [%[ap]]\n\t"
                             "strd %[a2], %[a3], [%[ap], #8]\n\t"
                             "strd %[b0], %[b1], [%[ap], #16]\n\t"
                             "strd %[b2], %[b3], [%[ap], #24]\n\t"
                             :
                             : [a0] "r"(a0), [a1] "r"(a1), [a2] "r"(a2), [a3] "r"(a3), [b0] "r"(b0), [b1] "r"(b1),
                               [b2] "r"(b2), [b3] "r"(b3), [ap] "r"(ap)
                             : "memory");
        }
    }
}

/* o[j OHW .. j OHW + 3] = the requantized acc[4 j .. 4 j + 3] (4 adjacent pixels of channel j), j < noc; every
 * channel by VQSHL/VQDMULH/VRSHL with its scalars when the block allows it (bk->all), else channel by channel */
BBRT_NOINLINE static void mve_quad_rq(int8_t *o, const int32_t *acc, const mve_blk_t *bk, const int32_t *rq,
                                      uint32_t noc, uint32_t OHW, int32_t zy, int32_t lo, int32_t hi) {
    const int32x4_t lov = vdupq_n_s32(lo), hiv = vdupq_n_s32(hi);
    uint32_t j, k;
    if (bk->all) {
        for (j = 0; j < noc; j++, acc += 4, o += OHW) {
            int32x4_t v = vrshlq_n_s32(vqdmulhq_n_s32(vqshlq_r_s32(vld1q_s32(acc), bk->L[j]), bk->m[j]), bk->R[j]);
            vstrbq_s32(o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, zy), lov), hiv));
        }
        return;
    }
    for (j = 0; j < noc; j++, acc += 4, o += OHW) {
        if (bk->okc[j]) {
            int32x4_t v = vrshlq_n_s32(vqdmulhq_n_s32(vqshlq_r_s32(vld1q_s32(acc), bk->L[j]), bk->m[j]), bk->R[j]);
            vstrbq_s32(o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, zy), lov), hiv));
        } else {
            for (k = 0; k < 4u; k++) o[k] = sat8(mbqm(acc[k], rq[2u * j], rq[2u * j + 1u]) + zy, lo, hi);
        }
    }
}

/* 4 adjacent output pixels at once: mve_quad_acc into acc (scratch: 4 noc words), then mve_quad_rq. o: the
 * first channel's 4 outputs, channel j at j OHW. */
static void mve_conv_quad(const mve_blk_t *bk, const int8_t *col, const int8_t *w, uint32_t P, uint32_t noc,
                          const int32_t *rq, int8_t *o, uint32_t OHW, int32_t zy, int32_t lo, int32_t hi,
                          int32_t *acc) {
    mve_quad_acc(acc, col, w, P, noc >> 1, bk->base, 0); /* pairs as (a0..a3, b0..b3): channel-major already */
    if (noc & 1u) /* the last channel twice (its second sums dropped) */
        mve_quad_acc(acc + 4u * (noc - 1u), col, w + (size_t)(noc - 1u) * P, P, 1u, bk->base + noc - 1u, 1u);
    mve_quad_rq(o, acc, bk, rq, noc, OHW, zy, lo, hi);
}

#define BBRT_MVE_TAPS 768u /* patches of up to this many bytes take gathered patches (stack: 2 bytes each) */
#define BBRT_MVE_COL4 2560u /* bytes of 4 interleaved patches (stack): patches up to 640 bytes run 4 pixels at once */

/* cp[t] = xp[off[t]] for t < P: a patch whose window is inside the image, 8 bytes per byte gather */
static void mve_patch_gather(int8_t *cp, const int8_t *xp, const uint16_t *off, uint32_t P) {
    uint32_t i;
    for (i = P >> 3; i; i--, cp += 8, off += 8) vstrbq_s16(cp, vldrbq_gather_offset_s16(xp, vld1q_u16(off)));
    if (P & 7u) {
        mve_pred16_t p = vctp16q(P & 7u);
        vstrbq_p_s16(cp, vldrbq_gather_offset_z_s16(xp, vldrhq_z_u16(off, p), p), p);
    }
}

/* mve_patch_gather into an interleaved slot (cp + 64 k: bytes 16 k .. 16 k + 15, see mve_conv_quad) */
static void mve_patch_gather4(int8_t *cp, const int8_t *xp, const uint16_t *off, uint32_t P) {
    uint32_t i, r = P & 15u;
    for (i = P >> 4; i; i--, cp += 64, off += 16) {
        vstrbq_s16(cp, vldrbq_gather_offset_s16(xp, vld1q_u16(off)));
        vstrbq_s16(cp + 8, vldrbq_gather_offset_s16(xp, vld1q_u16(off + 8)));
    }
    if (r) {
        mve_pred16_t p = vctp16q(r);
        vstrbq_p_s16(cp, vldrbq_gather_offset_z_s16(xp, vldrhq_z_u16(off, p), p), p);
        if (r > 8u) {
            p = vctp16q(r - 8u);
            vstrbq_p_s16(cp + 8, vldrbq_gather_offset_z_s16(xp, vldrhq_z_u16(off + 8, p), p), p);
        }
    }
}

/* mve_patch_gather4 for a window that crosses the image's edge: element t (offset off[t], kernel row and
 * column offsets ky[t], kx[t]) is read where iy0 + ky[t] and ix0 + kx[t] are inside the image and is the
 * zero point zx elsewhere. Lanes outside are predicated off (nothing read); the offsets from the image's
 * start wrap modulo 2^16 on those lanes only (mve_patch_offsets bounds the others). */
static void mve_patch_edge4(int8_t *cp, const int8_t *xg, const uint16_t *off, const uint8_t *ky, const uint8_t *kx,
                            uint32_t P, int32_t iy0, int32_t ix0, uint32_t H, uint32_t W, uint32_t corner, int8_t zx) {
    const uint16x8_t hv = vdupq_n_u16((uint16_t)H), wv = vdupq_n_u16((uint16_t)W);
    const int16x8_t zv = vdupq_n_s16(zx);
    uint32_t t;
    for (t = 0; t < P; t += 8u, off += 8, ky += 8, kx += 8) {
        mve_pred16_t p = vctp16q(P - t);
        uint16x8_t iy = vaddq_n_u16(vldrbq_z_u16(ky, p), (uint16_t)iy0), ix = vaddq_n_u16(vldrbq_z_u16(kx, p), (uint16_t)ix0);
        mve_pred16_t in = vcmphiq_m_u16(wv, ix, vcmphiq_m_u16(hv, iy, p)); /* unsigned: negative rows wrap high */
        int16x8_t v = vldrbq_gather_offset_z_s16(xg, vaddq_n_u16(vldrhq_z_u16(off, p), (uint16_t)corner), in);
        vstrbq_p_s16(cp + (t >> 4) * 64u + (t & 15u), vpselq_s16(v, zv, in), p);
    }
}

/* off[t] = the offset of patch element t (ic, ky, kx) from the window's corner; 0 when the patch is longer
 * than BBRT_MVE_TAPS or an offset does not fit 16 bits (im2col_patch then) */
static int mve_patch_offsets(const conv_geo_t *g, uint16_t *off, uint8_t *ky, uint8_t *kx) {
    const uint32_t KK = g->KH * g->KW, P = g->Cg * KK;
    uint32_t t;
    /* every in-image element's offset from the image's start fits 16 bits, rows and columns fit int16 */
    if (P > BBRT_MVE_TAPS || (g->KH - 1u) * (uint32_t)g->dh > 255u || (g->KW - 1u) * (uint32_t)g->dw > 255u ||
        g->H > 32767u || g->W > 32767u ||
        (uint64_t)(g->Cg - 1u) * g->sC + (uint64_t)(g->H - 1u) * g->sH + (uint64_t)(g->W - 1u) * g->sW > 65535u)
        return 0;
    for (t = 0; t < P; t++) {
        const uint32_t r = t % KK;
        ky[t] = (uint8_t)(r / g->KW * (uint32_t)g->dh);
        kx[t] = (uint8_t)(r % g->KW * (uint32_t)g->dw);
        off[t] = (uint16_t)(t / KK * g->sC + ky[t] * g->sH + kx[t] * g->sW);
    }
    return 1;
}

/* conv_im2col_i8 with the Helium channel loop (the same integers, see above) */
static void mve_conv_im2col(const conv_i8_t *c, int8_t *o) {
    const conv_geo_t *g = &c->g;
    const uint32_t P = g->Cg * g->KH * g->KW, OHW = g->OH * g->OW, OW = g->OW;
    const int32_t *rq = c->rq;
    uint32_t buf[BBRT_IM2COL_MAX / 4u];
    int8_t *col = (int8_t *)buf;
    uint16_t off[BBRT_MVE_TAPS];
    uint8_t ky[BBRT_MVE_TAPS], kx[BBRT_MVE_TAPS];
    const int gather = mve_patch_offsets(g, off, ky, kx);
    uint32_t buf4[BBRT_MVE_COL4 / 4u];
    int8_t *col4 = (int8_t *)buf4;
    const int quad = 4u * ((P + 15u) & ~15u) <= BBRT_MVE_COL4;
    mve_blk_t bk;
    uint32_t n, gi, oc0, oc, p;
    for (gi = 0; gi < g->G; gi++)
        for (oc0 = gi * g->Mg; oc0 < (gi + 1u) * g->Mg; oc0 += BBRT_IM2COL_OC) {
            const uint32_t oc1 = oc0 + BBRT_IM2COL_OC < (gi + 1u) * g->Mg ? oc0 + BBRT_IM2COL_OC : (gi + 1u) * g->Mg;
            const uint32_t nb = (oc1 - oc0) / 4u;
            for (oc = oc0; oc < oc1; oc++) {
                const uint32_t i = oc - oc0;
                bk.base[i] = c->b[oc] - c->zx * mve_sum_i8(c->w + (size_t)oc * P, P);
                bk.m[i] = rq[2u * oc];
                mve_rq_split(rq[2u * oc + 1u], &bk.L[i], &bk.R[i]);
                bk.okc[i] = (uint8_t)mve_rq_ok1(rq[2u * oc], rq[2u * oc + 1u]);
            }
            for (oc = 0; oc < nb; oc++) bk.ok[oc] = (uint8_t)mve_rq_ok4(rq + 2u * (oc0 + 4u * oc));
            bk.all = 1;
            for (oc = 0; oc < oc1 - oc0; oc++) bk.all &= bk.okc[oc];
            for (n = 0; n < g->N; n++) {
                const int8_t *xg = c->x + (size_t)n * g->C * g->H * g->W + (size_t)gi * g->Cg * g->sC;
                int8_t *on = o + (size_t)n * g->M * OHW;
                p = 0;
                if (quad)
                    for (; p + 4u <= OHW; p += 4u) {
                        uint32_t i, k;
                        for (i = 0; i < 4u; i++) {
                            const uint32_t oy = (p + i) / OW, ox = (p + i) % OW;
                            const int32_t iy0 = (int32_t)oy * g->sh - g->pt, ix0 = (int32_t)ox * g->sw - g->pl;
                            int8_t *slot = col4 + 16u * i;
                            if (gather && iy0 >= 0 && ix0 >= 0 && iy0 + (int32_t)(g->KH - 1u) * g->dh < (int32_t)g->H &&
                                ix0 + (int32_t)(g->KW - 1u) * g->dw < (int32_t)g->W) {
                                mve_patch_gather4(slot, xg + (size_t)iy0 * g->sH + (size_t)ix0 * g->sW, off, P);
                            } else if (gather) {
                                mve_patch_edge4(slot, xg, off, ky, kx, P, iy0, ix0, g->H, g->W,
                                                (uint32_t)(iy0 * (int32_t)g->sH + ix0 * (int32_t)g->sW), (int8_t)c->zx);
                            } else {
                                im2col_patch(c, xg, oy, ox, col);
                                for (k = 0; k < P; k += 16u) vst1q_s8(slot + 4u * k, vld1q_s8(col + k));
                            }
                        }
                        mve_conv_quad(&bk, col4, c->w + (size_t)oc0 * P, P, oc1 - oc0, rq + 2u * oc0,
                                      on + p + (size_t)oc0 * OHW, OHW, c->zy, c->amin, c->amax, (int32_t *)buf);
                    }
                for (; p < OHW; p++) {
                    int8_t *op = on + p;
                    const uint32_t oy = p / OW, ox = p % OW;
                    const int32_t iy0 = (int32_t)oy * g->sh - g->pt, ix0 = (int32_t)ox * g->sw - g->pl;
                    if (gather && iy0 >= 0 && ix0 >= 0 && iy0 + (int32_t)(g->KH - 1u) * g->dh < (int32_t)g->H &&
                        ix0 + (int32_t)(g->KW - 1u) * g->dw < (int32_t)g->W)
                        mve_patch_gather(col, xg + (size_t)iy0 * g->sH + (size_t)ix0 * g->sW, off, P);
                    else
                        im2col_patch(c, xg, oy, ox, col);
                    mve_conv_px(&bk, col, c->w + (size_t)oc0 * P, P, nb, rq + 2u * oc0, op + (size_t)oc0 * OHW, OHW,
                                c->zy, c->amin, c->amax);
                    for (oc = oc0 + 4u * nb; oc < oc1; oc++) {
                        int32_t a = bk.base[oc - oc0] + mve_dot_i8(col, c->w + (size_t)oc * P, P);
                        op[(size_t)oc * OHW] = sat8(mbqm(a, rq[2u * oc], rq[2u * oc + 1u]) + c->zy, c->amin, c->amax);
                    }
                }
            }
        }
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

#endif /* BBRT_CONV_MVE_H */
