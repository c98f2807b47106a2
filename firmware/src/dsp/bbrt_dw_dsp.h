/* The depthwise taps with SXTB16/SMLAD: 3x3 stride 1 and n, packed weight rows.
 * Part of bbrt_kernels.c's Cortex-M DSP build (BBRT_KERNELS_DSP, docs/bbrt.md): the SIMD variants live in
 * firmware/src/dsp/ apart from the portable kernels, as TFLite Micro keeps kernels/cmsis_nn/ apart. Included
 * once, by bbrt_kernels.c, at the place its definitions belong (what it uses is defined above it there);
 * not a header of its own: it defines static functions. */
#ifndef BBRT_KERNELS_DSP
#error "dsp/bbrt_dw_dsp.h is part of the BBRT_KERNELS_DSP build of bbrt_kernels.c"
#endif

/* two outputs per step: SXTB16 splits x[ox .. ox+3] into xe = (x0, x2) and xo = (x1, x3); per row,
 * out[ox] += xe.(w0, w2) + xo.(w1, 0) and out[ox+1] += xe.(0, w1) + xo.(w0, w2) (pw: per row those
 * three words). Up to three outputs past n come from the band's slack and are not stored. */
/* one kernel row k of two pairs (outputs ox, ox + 1 from r[0..3], ox + 2, ox + 3 from r[2..5]) */
#define DW_3X3_ROW(r, k)                                                                                       \
    do {                                                                                                       \
        const uint32_t wa = pw[3u * (k)], wb = pw[3u * (k) + 1u], wc = pw[3u * (k) + 2u];                      \
        uint32_t v = dsp_read4(r), e = dsp_sxtb16(v), d = dsp_sxtb16_ror8(v);                                      \
        s0 = dsp_smlad(e, wa, s0); s0 = dsp_smlad(d, wb, s0); s1 = dsp_smlad(e, wc, s1); s1 = dsp_smlad(d, wa, s1); \
        v = dsp_read4((r) + 2); e = dsp_sxtb16(v); d = dsp_sxtb16_ror8(v);                                        \
        s2 = dsp_smlad(e, wa, s2); s2 = dsp_smlad(d, wb, s2); s3 = dsp_smlad(e, wc, s3); s3 = dsp_smlad(d, wa, s3); \
    } while (0)
static inline void dw_3x3s1(int32_t *BBRT_RESTRICT acc, uint32_t n, const int8_t *r0, uint32_t rs,
                            const uint32_t *BBRT_RESTRICT pw, int32_t base) {
    uint32_t ox;
    for (ox = 0; ox < n; ox += 4u) { /* four outputs per step: each weight word loaded once for two pairs */
        const int8_t *r = r0 + ox;
        int32_t s0 = base, s1 = base, s2 = base, s3 = base;
        DW_3X3_ROW(r, 0u);
        DW_3X3_ROW(r + rs, 1u);
        DW_3X3_ROW(r + 2u * rs, 2u);
        acc[ox] = s0;
        acc[ox + 1u] = s1; /* acc has room for three past n */
        acc[ox + 2u] = s2;
        acc[ox + 3u] = s3;
    }
}
#undef DW_3X3_ROW
/* 3x3, stride sw > 1, dilation 1: acc[ox] = base + the 9 taps at columns ox * sw .. ox * sw + 2 */
/* one output per step: per row, x[0 .. 3] as xe = (x0, x2), xo = (x1, x3) against (w0, w2), (w1, 0) */
static inline void dw_3x3sn(int32_t *BBRT_RESTRICT acc, uint32_t n, const int8_t *r, uint32_t rs, uint32_t sw,
                            const uint32_t *BBRT_RESTRICT pw, int32_t base) {
    const uint32_t e0 = pw[0], d0 = pw[1], e1 = pw[3], d1 = pw[4], e2 = pw[6], d2 = pw[7];
    uint32_t ox;
    for (ox = 0; ox < n; ox++, r += sw) {
        uint32_t v0 = dsp_read4(r), v1 = dsp_read4(r + rs), v2 = dsp_read4(r + 2u * rs);
        int32_t s0 = dsp_smlad(dsp_sxtb16(v0), e0, base);
        s0 = dsp_smlad(dsp_sxtb16_ror8(v0), d0, s0);
        s0 = dsp_smlad(dsp_sxtb16(v1), e1, s0);
        s0 = dsp_smlad(dsp_sxtb16_ror8(v1), d1, s0);
        s0 = dsp_smlad(dsp_sxtb16(v2), e2, s0);
        acc[ox] = dsp_smlad(dsp_sxtb16_ror8(v2), d2, s0);
    }
}

/* the packed weights of one kernel row of K taps, groups of 4 taps: e[g] = (w[4g], w[4g+2]),
 * d[g] = (w[4g+1], w[4g+3]) and, for the next output of a stride-1 row (its taps one column to the
 * right), f[g] = (w[4g-1], w[4g+1]); taps outside [0, K) are 0. Layout per group: e, d, f. */
static void dw_pack_row(uint32_t *pw, const int8_t *w, uint32_t K, uint32_t G) {
    uint32_t t[BBRT_DW_WORDS / 3u + 2u]; /* as bytes: byte 2 + k = w[k], 0 around */
    int8_t *tb = (int8_t *)t;
    uint32_t g, k;
    for (k = 0; k < G + 2u; k++) t[k] = 0;
    for (k = 0; k < K; k++) tb[2u + k] = w[k];
    for (g = 0; g < G; g++) {
        const uint32_t v = dsp_read4(tb + 4u * g + 2u); /* w[4g .. 4g + 3] */
        pw[3u * g] = dsp_sxtb16(v);
        pw[3u * g + 1u] = dsp_sxtb16_ror8(v);
        pw[3u * g + 2u] = dsp_sxtb16(dsp_read4(tb + 4u * g + 1u)); /* (w[4g - 1], w[4g + 1]) */
    }
}

/* stride 1: acc[ox] = (first ? base : acc[ox]) + sum_k r[ox + k] w[k]. Four outputs per step on the
 * (e, d) words of each group: with v = r[ox + 4g ..], SXTB16 of r[ox + 4g + 2 ..] gives (x2, x4), (x3, x5),
 * so each output's taps pair up with the same two weight words and every x word is unpacked once for
 * 8 SMLADs; the remaining outputs two per step (e, d, f). Reads r[0 .. n + 4G - 1]: the caller's G
 * covers the taps (the band row's slack holds the bytes past them, which meet zero weights) */
BBRT_NOINLINE static void dw_row_s1(int32_t *BBRT_RESTRICT acc, uint32_t n, const int8_t *r,
                                    const uint32_t *BBRT_RESTRICT pw, uint32_t G, int32_t base, int first) {
    uint32_t ox, g;
    const uint32_t G4 = G - 1u + (pw[3u * (G - 1u)] | pw[3u * (G - 1u) + 1u] ? 1u : 0u); /* groups with taps */
    for (ox = 0; ox + 4u <= n; ox += 4u) {
        int32_t s0 = first ? base : acc[ox], s1 = first ? base : acc[ox + 1u], s2 = first ? base : acc[ox + 2u],
                s3 = first ? base : acc[ox + 3u];
        const int8_t *rp = r + ox;
        const uint32_t *p = pw;
        uint32_t v = dsp_read4(rp), e0 = dsp_sxtb16(v), d0 = dsp_sxtb16_ror8(v);
#if defined(__ARM_FEATURE_DSP)
        /* 17 instructions per group (the C loop spills at -Os) */
        uint32_t we, wd, e1, d1;
        g = G4;
        if (g) /* 0 when a channel's weights are all zero */
            __asm__("1:\n\t"
                "ldrd %[we], %[wd], [%[p]], #12\n\t"
                "ldr %[e1], [%[rp], #2]\n\t"
                "sxtb16 %[d1], %[e1], ror #8\n\t"
                "sxtb16 %[e1], %[e1]\n\t"
                "smlad %[s0], %[e0], %[we], %[s0]\n\t"
                "smlad %[s0], %[d0], %[wd], %[s0]\n\t"
                "smlad %[s1], %[d0], %[we], %[s1]\n\t"
                "smlad %[s1], %[e1], %[wd], %[s1]\n\t"
                "smlad %[s2], %[e1], %[we], %[s2]\n\t"
                "smlad %[s2], %[d1], %[wd], %[s2]\n\t"
                "ldr %[e0], [%[rp], #4]!\n\t"
                "sxtb16 %[d0], %[e0], ror #8\n\t"
                "sxtb16 %[e0], %[e0]\n\t"
                "smlad %[s3], %[d1], %[we], %[s3]\n\t"
                "smlad %[s3], %[e0], %[wd], %[s3]\n\t"
                "subs %[g], %[g], #1\n\t"
                "bne 1b"
                : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [e0] "+r"(e0), [d0] "+r"(d0),
                  [rp] "+r"(rp), [p] "+r"(p), [g] "+r"(g), [we] "=&r"(we), [wd] "=&r"(wd), [e1] "=&r"(e1),
                  [d1] "=&r"(d1)
                :
                : "cc", "memory");
#else
        for (g = 0; g < G4; g++, rp += 4, p += 3) {
            const uint32_t we = p[0], wd = p[1];
            uint32_t e1, d1;
            v = dsp_read4(rp + 2);
            e1 = dsp_sxtb16(v);
            d1 = dsp_sxtb16_ror8(v);
            s0 = dsp_smlad(d0, wd, dsp_smlad(e0, we, s0));
            s1 = dsp_smlad(e1, wd, dsp_smlad(d0, we, s1));
            s2 = dsp_smlad(d1, wd, dsp_smlad(e1, we, s2));
            v = dsp_read4(rp + 4);
            e0 = dsp_sxtb16(v);
            d0 = dsp_sxtb16_ror8(v);
            s3 = dsp_smlad(e0, wd, dsp_smlad(d1, we, s3));
        }
#endif
        acc[ox] = s0;
        acc[ox + 1u] = s1;
        acc[ox + 2u] = s2;
        acc[ox + 3u] = s3;
    }
    for (; ox + 2u <= n; ox += 2u) {
        int32_t s0 = first ? base : acc[ox], s1 = first ? base : acc[ox + 1u];
        const int8_t *rp = r + ox;
        const uint32_t *p = pw;
        for (g = 0; g < G; g++, rp += 4, p += 3) {
            uint32_t v = dsp_read4(rp), e = dsp_sxtb16(v), d = dsp_sxtb16_ror8(v);
            s0 = dsp_smlad(e, p[0], s0);
            s0 = dsp_smlad(d, p[1], s0);
            s1 = dsp_smlad(e, p[2], s1);
            s1 = dsp_smlad(d, p[0], s1);
        }
        acc[ox] = s0;
        acc[ox + 1u] = s1;
    }
    if (ox < n) {
        int32_t s0 = first ? base : acc[ox];
        const int8_t *rp = r + ox;
        for (g = 0; g < G; g++, rp += 4) {
            uint32_t v = dsp_read4(rp);
            s0 = dsp_smlad(dsp_sxtb16(v), pw[3u * g], s0);
            s0 = dsp_smlad(dsp_sxtb16_ror8(v), pw[3u * g + 1u], s0);
        }
        acc[ox] = s0;
    }
}

/* any stride: acc[ox] = (first ? base : acc[ox]) + sum_k r[ox * sw + k] w[k], one output per step; reads up
 * to r[(n-1) sw + 4G - 1] */
BBRT_NOINLINE static void dw_row_sn(int32_t *BBRT_RESTRICT acc, uint32_t n, const int8_t *r, uint32_t sw,
                                    const uint32_t *BBRT_RESTRICT pw, uint32_t G, int32_t base, int first) {
    uint32_t ox, g;
    for (ox = 0; ox < n; ox++, r += sw) {
        int32_t s0 = first ? base : acc[ox];
        const int8_t *rp = r;
        const uint32_t *p = pw;
        for (g = 0; g < G; g++, rp += 4, p += 3) {
            uint32_t v = dsp_read4(rp);
            s0 = dsp_smlad(dsp_sxtb16(v), p[0], s0);
            s0 = dsp_smlad(dsp_sxtb16_ror8(v), p[1], s0);
        }
        acc[ox] = s0;
    }
}

/* 3x3 taps with the requantization folded in (the conv's fold, as mm_pairs_fold): for a channel without an
 * activation clamp whose multiplier m >= 0 has t = -shift - 1 in [1, 22], sat8(mbqm(acc) + zy) is
 * SSAT8(SMMLA(acc, m, c) >> t) with c = (2 zy + 1) 2^(t-1), exact as |acc m / 2^32| < 2^30 and |c| < 2^30.
 * The accumulators never leave registers: no int32 row is stored and read back by a second pass. */
typedef struct {
    int32_t m, t, c;
} dw_fold_t;
/* one quad of dw_3x3s1: s[0..3] += the 9 taps of outputs ox .. ox + 3 from rows r, r + rs, r + 2 rs (packed
 * weights pw as dw_3x3s1's): 16 instructions per kernel row (at -O2 the C macro spills the unpacked words) */
#if defined(__ARM_FEATURE_DSP)
#define DW_Q_ROW(ld0, ld2, wo)                                                                                 \
    "ldrd %[wa], %[wb], [%[pw], #" wo "]\n\t"                                                                 \
    "ldr %[wc], [%[pw], #" wo "+8]\n\t"                                                                      \
    ld0 "sxtb16 %[d], %[e], ror #8\n\t"                                                                      \
    "sxtb16 %[e], %[e]\n\t"                                                                                  \
    "smlad %[s0], %[e], %[wa], %[s0]\n\t"                                                                    \
    "smlad %[s0], %[d], %[wb], %[s0]\n\t"                                                                    \
    "smlad %[s1], %[e], %[wc], %[s1]\n\t"                                                                    \
    "smlad %[s1], %[d], %[wa], %[s1]\n\t"                                                                    \
    ld2 "sxtb16 %[d], %[e], ror #8\n\t"                                                                      \
    "sxtb16 %[e], %[e]\n\t"                                                                                  \
    "smlad %[s2], %[e], %[wa], %[s2]\n\t"                                                                    \
    "smlad %[s2], %[d], %[wb], %[s2]\n\t"                                                                    \
    "smlad %[s3], %[e], %[wc], %[s3]\n\t"                                                                    \
    "smlad %[s3], %[d], %[wa], %[s3]\n\t"
#endif
static inline void dw_quad33(int32_t *s0p, int32_t *s1p, int32_t *s2p, int32_t *s3p, const int8_t *r, uint32_t rs,
                             const uint32_t *BBRT_RESTRICT pw) {
    int32_t s0 = *s0p, s1 = *s1p, s2 = *s2p, s3 = *s3p;
#if defined(__ARM_FEATURE_DSP)
    uint32_t e, d, wa, wb, wc;
    __asm__(DW_Q_ROW("ldr %[e], [%[r]]\n\t", "ldr %[e], [%[r], #2]\n\t", "0")
            "add %[r], %[r], %[rs]\n\t"
            DW_Q_ROW("ldr %[e], [%[r]]\n\t", "ldr %[e], [%[r], #2]\n\t", "12")
            "add %[r], %[r], %[rs]\n\t"
            DW_Q_ROW("ldr %[e], [%[r]]\n\t", "ldr %[e], [%[r], #2]\n\t", "24")
            : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [r] "+r"(r), [e] "=&r"(e), [d] "=&r"(d),
              [wa] "=&r"(wa), [wb] "=&r"(wb), [wc] "=&r"(wc)
            : [rs] "r"(rs), [pw] "r"(pw)
            : "memory");
#else
    uint32_t k;
    for (k = 0; k < 3u; k++, r += rs, pw += 3) {
        const uint32_t wa = pw[0], wb = pw[1], wc = pw[2];
        uint32_t v = dsp_read4(r), e = dsp_sxtb16(v), d = dsp_sxtb16_ror8(v);
        s0 = dsp_smlad(d, wb, dsp_smlad(e, wa, s0));
        s1 = dsp_smlad(d, wa, dsp_smlad(e, wc, s1));
        v = dsp_read4(r + 2);
        e = dsp_sxtb16(v);
        d = dsp_sxtb16_ror8(v);
        s2 = dsp_smlad(d, wb, dsp_smlad(e, wa, s2));
        s3 = dsp_smlad(d, wa, dsp_smlad(e, wc, s3));
    }
#endif
    *s0p = s0;
    *s1p = s1;
    *s2p = s2;
    *s3p = s3;
}

/* one pair of dw_3x3s1 (outputs ox, ox + 1): the first half of each kernel row of dw_quad33 */
static inline void dw_pair33(int32_t *s0p, int32_t *s1p, const int8_t *r, uint32_t rs, const uint32_t *BBRT_RESTRICT pw) {
    int32_t s0 = *s0p, s1 = *s1p;
    uint32_t k;
    for (k = 0; k < 3u; k++, r += rs, pw += 3) {
        const uint32_t wa = pw[0], v = dsp_read4(r), e = dsp_sxtb16(v), d = dsp_sxtb16_ror8(v);
        s0 = dsp_smlad(d, pw[1], dsp_smlad(e, wa, s0));
        s1 = dsp_smlad(d, wa, dsp_smlad(e, pw[2], s1));
    }
    *s0p = s0;
    *s1p = s1;
}

/* stride 1: nrows output rows of OW outputs (row stride ors, column stride ocs) from the band rows
 * (stride rs, step between output rows `step`), four outputs per step as dw_3x3s1 (the last step stores
 * only those inside the row; its reads stay in the band row's slack) */
BBRT_NOINLINE static void dw_3x3s1_fold(int8_t *o, uint32_t ors, uint32_t ocs, uint32_t nrows, const int8_t *band,
                                        uint32_t rs, uint32_t step, uint32_t OW, const uint32_t *BBRT_RESTRICT pw,
                                        int32_t base, const dw_fold_t *f) {
    const int32_t m = f->m, t = f->t, c = f->c;
    uint32_t r;
    for (r = 0; r < nrows; r++, band += step, o += ors) {
        const int8_t *rp = band;
        int8_t *op = o;
        uint32_t left = OW;
        while (left) {
            int32_t s0 = base, s1 = base, s2 = base, s3 = base;
            if (left <= 2u) { /* the row's last one or two outputs: a pair */
                dw_pair33(&s0, &s1, rp, rs, pw);
                op[0] = (int8_t)dw_ssat8(dsp_smmla(s0, m, c) >> t);
                if (left == 2u) op[ocs] = (int8_t)dw_ssat8(dsp_smmla(s1, m, c) >> t);
                break;
            }
            dw_quad33(&s0, &s1, &s2, &s3, rp, rs, pw);
            rp += 4;
            op[0] = (int8_t)dw_ssat8(dsp_smmla(s0, m, c) >> t);
            if (left >= 4u) {
                op[ocs] = (int8_t)dw_ssat8(dsp_smmla(s1, m, c) >> t);
                op[2u * ocs] = (int8_t)dw_ssat8(dsp_smmla(s2, m, c) >> t);
                op[3u * ocs] = (int8_t)dw_ssat8(dsp_smmla(s3, m, c) >> t);
                op += 4u * ocs;
                left -= 4u;
                continue;
            }
            if (left > 1u) op[ocs] = (int8_t)dw_ssat8(dsp_smmla(s1, m, c) >> t);
            if (left > 2u) op[2u * ocs] = (int8_t)dw_ssat8(dsp_smmla(s2, m, c) >> t);
            left = 0;
        }
    }
}

/* stride sw > 1: two outputs per step (each kernel row's weight pair loaded once for both), then the odd
 * one, requantized in place as dw_3x3s1_fold */
#if defined(__ARM_FEATURE_DSP)
#define DW_SN_ROW(ld, wo)                                                                                      \
    "ldrd %[wa], %[wb], [%[pw], #" wo "]\n\t"                                                                 \
    ld "sxtb16 %[d], %[e], ror #8\n\t"                                                                       \
    "sxtb16 %[e], %[e]\n\t"                                                                                  \
    "smlad %[s0], %[e], %[wa], %[s0]\n\t"                                                                    \
    "smlad %[s0], %[d], %[wb], %[s0]\n\t"                                                                    \
    "ldr %[e], [%[q], %[sw]]\n\t"                                                                            \
    "sxtb16 %[d], %[e], ror #8\n\t"                                                                          \
    "sxtb16 %[e], %[e]\n\t"                                                                                  \
    "smlad %[s1], %[e], %[wa], %[s1]\n\t"                                                                    \
    "smlad %[s1], %[d], %[wb], %[s1]\n\t"
#endif
BBRT_NOINLINE static void dw_3x3sn_fold(int8_t *o, uint32_t ors, uint32_t ocs, uint32_t nrows, const int8_t *band,
                                        uint32_t rs, uint32_t step, uint32_t sw, uint32_t OW,
                                        const uint32_t *BBRT_RESTRICT pw, int32_t base, const dw_fold_t *f) {
    const int32_t m = f->m, t = f->t, c = f->c;
    uint32_t r, ox;
    for (r = 0; r < nrows; r++, band += step, o += ors) {
        const int8_t *rp = band;
        int8_t *op = o;
        for (ox = 0; ox < OW; ox += 2u, rp += 2u * sw) {
            int32_t s0 = base, s1 = base;
#if defined(__ARM_FEATURE_DSP)
            uint32_t e, d, wa, wb;
            const int8_t *q = rp;
            /* the second output of an odd last pair reads up to byte OW sw + 3 of the row: inside its slack
             * (rs = (OW - 1) sw + 7) for sw <= 3, the only strides dw_strip gives this function */
            __asm__(DW_SN_ROW("ldr %[e], [%[q]]\n\t", "0")
                    "add %[q], %[q], %[rs]\n\t"
                    DW_SN_ROW("ldr %[e], [%[q]]\n\t", "12")
                    "add %[q], %[q], %[rs]\n\t"
                    DW_SN_ROW("ldr %[e], [%[q]]\n\t", "24")
                    : [s0] "+r"(s0), [s1] "+r"(s1), [q] "+r"(q), [e] "=&r"(e), [d] "=&r"(d), [wa] "=&r"(wa),
                      [wb] "=&r"(wb)
                    : [rs] "r"(rs), [pw] "r"(pw), [sw] "r"(sw)
                    : "memory");
#else
            uint32_t k;
            for (k = 0; k < 3u; k++) {
                const uint32_t v = dsp_read4(rp + k * rs), u = dsp_read4(rp + k * rs + sw);
                s0 = dsp_smlad(dsp_sxtb16_ror8(v), pw[3u * k + 1u], dsp_smlad(dsp_sxtb16(v), pw[3u * k], s0));
                s1 = dsp_smlad(dsp_sxtb16_ror8(u), pw[3u * k + 1u], dsp_smlad(dsp_sxtb16(u), pw[3u * k], s1));
            }
#endif
            op[0] = (int8_t)dw_ssat8(dsp_smmla(s0, m, c) >> t);
            if (ox + 1u < OW) {
                op[ocs] = (int8_t)dw_ssat8(dsp_smmla(s1, m, c) >> t);
                op += 2u * ocs;
            }
        }
    }
}
