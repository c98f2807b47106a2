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
