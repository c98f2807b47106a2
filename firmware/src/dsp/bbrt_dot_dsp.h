/* The int8 dot products of FC and im2col convs with SXTB16/SMLAD (dot2_i8, the blocked mm_* kernels).
 * Part of bbrt_kernels.c's Cortex-M DSP build (BBRT_KERNELS_DSP, docs/bbrt.md): the SIMD variants live in
 * firmware/src/dsp/ apart from the portable kernels, as TFLite Micro keeps kernels/cmsis_nn/ apart. Included
 * once, by bbrt_kernels.c, at the place its definitions belong (what it uses is defined above it there);
 * not a header of its own: it defines static functions. */
#ifndef BBRT_KERNELS_DSP
#error "dsp/bbrt_dot_dsp.h is part of the BBRT_KERNELS_DSP build of bbrt_kernels.c"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define MM_INLINE __attribute__((always_inline)) inline
#else
#define MM_INLINE inline
#endif

/* a[0] += x . w0, a[1] += x . w1 over K elements */
BBRT_NOINLINE static void dot2_i8(int32_t *a, const int8_t *BBRT_RESTRICT x, const int8_t *BBRT_RESTRICT w0,
                                  const int8_t *BBRT_RESTRICT w1, uint32_t K) {
    int32_t s0 = a[0], s1 = a[1];
    uint32_t k = 0;
    for (; k + 4u <= K; k += 4u) {
        uint32_t xv = dsp_read4(x + k), v0 = dsp_read4(w0 + k), v1 = dsp_read4(w1 + k);
        uint32_t xe = dsp_sxtb16(xv), xo = dsp_sxtb16_ror8(xv);
        s0 = dsp_smlad(xe, dsp_sxtb16(v0), s0);
        s0 = dsp_smlad(xo, dsp_sxtb16_ror8(v0), s0);
        s1 = dsp_smlad(xe, dsp_sxtb16(v1), s1);
        s1 = dsp_smlad(xo, dsp_sxtb16_ror8(v1), s1);
    }
    for (; k < K; k++) {
        s0 += (int32_t)x[k] * w0[k];
        s1 += (int32_t)x[k] * w1[k];
    }
    a[0] = s0;
    a[1] = s1;
}

static int32_t dot_i8(const int8_t *BBRT_RESTRICT x, const int8_t *BBRT_RESTRICT w, uint32_t K) {
    int32_t s = 0;
    uint32_t k = 0;
    for (; k + 4u <= K; k += 4u) {
        uint32_t xv = dsp_read4(x + k), v = dsp_read4(w + k);
        s = dsp_smlad(dsp_sxtb16(xv), dsp_sxtb16(v), s);
        s = dsp_smlad(dsp_sxtb16_ror8(xv), dsp_sxtb16_ror8(v), s);
    }
    for (; k < K; k++) s += (int32_t)x[k] * w[k];
    return s;
}

/* Blocked kernels of the DSP build (mm_*): each unpacked x word feeds the SMLADs of several weight
 * rows, and in convs each unpacked weight word those of two pixels (CMSIS-NN's 2 x 2 block, on
 * int8 columns: SXTB16 / SXTB16 ROR 8 split both operands into the same (0, 2) (1, 3) pairs, so
 * neither the weights nor the patch need reordering). The loops count down, so a step costs two
 * instructions of overhead at -Os. */

#if defined(__ARM_FEATURE_DSP)
/* one group of 4 elements of mm_dot2x2_i8 */
#define MM_DOT2X2_GROUP \
    "ldr %[t1], [%[w], %[K]]\n\t" \
    "ldr %[t0], [%[w]], #4\n\t" \
    "sxtb16 %[t3], %[t1]\n\t" \
    "sxtb16 %[t1], %[t1], ror #8\n\t" \
    "sxtb16 %[t2], %[t0]\n\t" \
    "sxtb16 %[t0], %[t0], ror #8\n\t" \
    "ldr %[t5], [%[x], %[K]]\n\t" \
    "sxtb16 %[t4], %[t5]\n\t" \
    "sxtb16 %[t5], %[t5], ror #8\n\t" \
    "smlad %[s10], %[t4], %[t2], %[s10]\n\t" \
    "smlad %[s11], %[t4], %[t3], %[s11]\n\t" \
    "smlad %[s10], %[t5], %[t0], %[s10]\n\t" \
    "smlad %[s11], %[t5], %[t1], %[s11]\n\t" \
    "ldr %[t5], [%[x]], #4\n\t" \
    "sxtb16 %[t4], %[t5]\n\t" \
    "sxtb16 %[t5], %[t5], ror #8\n\t" \
    "smlad %[s00], %[t4], %[t2], %[s00]\n\t" \
    "smlad %[s01], %[t4], %[t3], %[s01]\n\t" \
    "smlad %[s00], %[t5], %[t0], %[s00]\n\t" \
    "smlad %[s01], %[t5], %[t1], %[s01]\n\t"
#define MM_DOT2X2_OPERANDS(cnt) \
    : [s00] "+r"(s00), [s10] "+r"(s10), [s01] "+r"(s01), [s11] "+r"(s11), [x] "+r"(x), [w] "+r"(w), \
      [n] "+r"(cnt), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), \
      [t5] "=&r"(t5) \
    : [K] "r"(K) \
    : "cc", "memory"
#endif

/* s[0] += x0 . w0, s[1] += x1 . w0, s[2] += x0 . w1, s[3] += x1 . w1 over K elements, where
 * x1 = x0 + K and w1 = w0 + K: 2 pixels x 2 output channels, 16 MACs per 4 loads and 8 SMLAD */
BBRT_NOINLINE static void mm_dot2x2_i8(int32_t *s, const int8_t *BBRT_RESTRICT x, const int8_t *BBRT_RESTRICT w,
                                       uint32_t K) {
    int32_t s00 = s[0], s10 = s[1], s01 = s[2], s11 = s[3];
    uint32_t n = K >> 2;
#if defined(__ARM_FEATURE_DSP)
    /* 20 instructions per group of 16 MACs, two groups per step, then the odd one: at -Os the C
     * version needs 14 registers and spills 5 of them in the loop */
    uint32_t t0, t1, t2, t3, t4, t5, m = n >> 1;
    if (m) __asm__("1:\n\t" MM_DOT2X2_GROUP MM_DOT2X2_GROUP "subs %[n], %[n], #1\n\t"
                   "bne 1b" MM_DOT2X2_OPERANDS(m));
    if (n & 1u) __asm__(MM_DOT2X2_GROUP MM_DOT2X2_OPERANDS(n));
#else
    while (n--) {
        uint32_t a = dsp_read4(x), b = dsp_read4(x + K), v = dsp_read4(w);
        uint32_t ae = dsp_sxtb16(a), ao = dsp_sxtb16_ror8(a), be = dsp_sxtb16(b), bo = dsp_sxtb16_ror8(b);
        uint32_t ve = dsp_sxtb16(v), vo = dsp_sxtb16_ror8(v);
        s00 = dsp_smlad(ae, ve, s00);
        s00 = dsp_smlad(ao, vo, s00);
        s10 = dsp_smlad(be, ve, s10);
        s10 = dsp_smlad(bo, vo, s10);
        v = dsp_read4(w + K);
        ve = dsp_sxtb16(v);
        vo = dsp_sxtb16_ror8(v);
        s01 = dsp_smlad(ae, ve, s01);
        s01 = dsp_smlad(ao, vo, s01);
        s11 = dsp_smlad(be, ve, s11);
        s11 = dsp_smlad(bo, vo, s11);
        x += 4;
        w += 4;
    }
#endif
    for (n = K & 3u; n; n--, x++, w++) {
        int32_t a = x[0], b = x[K], v0 = w[0], v1 = w[K];
        s00 += a * v0;
        s10 += b * v0;
        s01 += a * v1;
        s11 += b * v1;
    }
    s[0] = s00;
    s[1] = s10;
    s[2] = s01;
    s[3] = s11;
}

/* sum of K int8: the bytes biased to unsigned (XOR 0x80) and summed 4 at a time by USADA8, the bias
 * (128 per byte) taken off at the end */
static int32_t mm_sum_i8(const int8_t *w, uint32_t K) {
    uint32_t u = 0, n;
    int32_t s = 0;
    for (n = K >> 4; n; n--, w += 16) { /* 16 bytes per step: 14 instructions */
        u = mm_usada8(dsp_read4(w) ^ 0x80808080u, u);
        u = mm_usada8(dsp_read4(w + 4) ^ 0x80808080u, u);
        u = mm_usada8(dsp_read4(w + 8) ^ 0x80808080u, u);
        u = mm_usada8(dsp_read4(w + 12) ^ 0x80808080u, u);
    }
    for (n = (K >> 2) & 3u; n; n--, w += 4) u = mm_usada8(dsp_read4(w) ^ 0x80808080u, u);
    for (n = K & 3u; n; n--) s += *w++;
    return s + (int32_t)(u - 128u * (K & ~3u));
}

/* Two pixels' patches widened once to 16-bit pairs, then reused by every output channel: per 4
 * elements e the words SXTB16(a_e), SXTB16 ROR 8(a_e), SXTB16(b_e), SXTB16 ROR 8(b_e) of pixels a, b
 * (a last group of K % 4 elements padded with zeros). lane 0 writes pixel a's words, lane 2 pixel b's. */
static void mm_widen_i8(uint32_t *BBRT_RESTRICT wd, const int8_t *BBRT_RESTRICT col, uint32_t K, uint32_t lane) {
    uint32_t g, v, j;
    wd += lane;
    for (g = K >> 2; g; g--, col += 4, wd += 4) {
        v = dsp_read4(col);
        wd[0] = dsp_sxtb16(v);
        wd[1] = dsp_sxtb16_ror8(v);
    }
    if (K & 3u) {
        for (v = 0, j = 0; j < (K & 3u); j++) v |= (uint32_t)(uint8_t)col[j] << (8u * j);
        wd[0] = dsp_sxtb16(v);
        wd[1] = dsp_sxtb16_ror8(v);
    }
}

/* mm_widen_i8 of two adjacent pixels a, b = a + 1 of a 1x1 conv straight from the input (channel
 * stride sC, K % 4 == 0): one halfword holds (a, b) of a channel, two of them channels (k, k + 2),
 * whose SXTB16 is (a_k, a_k+2) and SXTB16 ROR 8 (b_k, b_k+2); no patch is gathered */
BBRT_NOINLINE static void mm_widen1x1_i8(uint32_t *BBRT_RESTRICT wd, const int8_t *BBRT_RESTRICT x, uint32_t sC,
                                         uint32_t K) { /* a function of its own: inlined, its loop spilled */
    uint32_t g;
    for (g = K >> 2; g; g--, x += 4u * sC, wd += 4) {
        uint32_t v02 = mm_read2(x) | mm_read2(x + 2u * sC) << 16, v13 = mm_read2(x + sC) | mm_read2(x + 3u * sC) << 16;
        wd[0] = dsp_sxtb16(v02);
        wd[1] = dsp_sxtb16(v13);
        wd[2] = dsp_sxtb16_ror8(v02);
        wd[3] = dsp_sxtb16_ror8(v13);
    }
}

/* mm_widen_i8 of an interior pixel pair straight from the input, no patch gathered: tap t of pixel a
 * at a + off[t], of pixel b = a + d at a + off[t] + d. off holds the taps of 4 input channels (KK
 * groups of 4); the next 4 channels repeat them s4C bytes further. Writes the G full groups (the
 * last P % 4 taps are mm_widen2_tail_i8's). With d == 1 (stride 1, NCHW) one halfword load reads a
 * tap of both pixels: (a_t, b_t), so SXTB16 of (a_t0 b_t0 a_t2 b_t2) is (a_t0, a_t2) and ROR 8 (b_t0, b_t2). */
BBRT_NOINLINE static void mm_widen2_i8(uint32_t *BBRT_RESTRICT wd, const int8_t *a, const uint32_t *BBRT_RESTRICT off,
                                       uint32_t KK, uint32_t s4C, uint32_t G, uint32_t d) {
    const int8_t *b = a + d;
    while (G) {
        const uint32_t *o = off;
        uint32_t n = G < KK ? G : KK;
        G -= n;
        if (d == 1u) {
            for (; n; n--, o += 4, wd += 4) {
                uint32_t v02 = mm_read2(a + o[0]) | mm_read2(a + o[2]) << 16;
                uint32_t v13 = mm_read2(a + o[1]) | mm_read2(a + o[3]) << 16;
                wd[0] = dsp_sxtb16(v02);
                wd[1] = dsp_sxtb16(v13);
                wd[2] = dsp_sxtb16_ror8(v02);
                wd[3] = dsp_sxtb16_ror8(v13);
            }
        } else {
            for (; n; n--, o += 4, wd += 4) {
                wd[0] = dsp_sxtb16((uint32_t)(uint8_t)a[o[0]] | (uint32_t)(uint8_t)a[o[2]] << 16);
                wd[1] = dsp_sxtb16((uint32_t)(uint8_t)a[o[1]] | (uint32_t)(uint8_t)a[o[3]] << 16);
                wd[2] = dsp_sxtb16((uint32_t)(uint8_t)b[o[0]] | (uint32_t)(uint8_t)b[o[2]] << 16);
                wd[3] = dsp_sxtb16((uint32_t)(uint8_t)b[o[1]] | (uint32_t)(uint8_t)b[o[3]] << 16);
            }
        }
        a += s4C;
        b += s4C;
    }
}

/* the last group of mm_widen2_i8 when P % 4 != 0: its P % 4 taps, zeros after them (wd: that group) */
static void mm_widen2_tail_i8(uint32_t *wd, const int8_t *a, const uint32_t *off, uint32_t KK, uint32_t s4C,
                              uint32_t P, uint32_t d) {
    uint32_t va = 0, vb = 0, j, t;
    for (j = 0, t = P & ~3u; t < P; j++, t++) {
        const int8_t *q = a + off[t % (4u * KK)] + t / (4u * KK) * s4C;
        va |= (uint32_t)(uint8_t)q[0] << (8u * j);
        vb |= (uint32_t)(uint8_t)q[d] << (8u * j);
    }
    wd[0] = dsp_sxtb16(va);
    wd[1] = dsp_sxtb16_ror8(va);
    wd[2] = dsp_sxtb16(vb);
    wd[3] = dsp_sxtb16_ror8(vb);
}

/* s[0] += a . w0, s[1] += b . w0 over the last K % 4 elements of a widened pair: x is the pair's last
 * group, w0 the row's tail */
static void mm_tail2w_i8(int32_t *s, const uint32_t *x, const int8_t *w0, uint32_t K) {
    const int32_t a[3] = {(int16_t)(uint16_t)x[0], (int16_t)(uint16_t)x[1], (int16_t)(uint16_t)(x[0] >> 16)};
    const int32_t b[3] = {(int16_t)(uint16_t)x[2], (int16_t)(uint16_t)x[3], (int16_t)(uint16_t)(x[2] >> 16)};
    uint32_t j;
    for (j = 0; j < (K & 3u); j++) {
        s[0] += a[j] * w0[j];
        s[1] += b[j] * w0[j];
    }
}

#if defined(__ARM_FEATURE_DSP)
/* one group of 4 elements of mm_dot2x2w_i8: the pair's 4 words by LDRD, each weight word unpacked once */
#define MM_DOT2X2W_GROUP                                                                                      \
    "ldrd %[be], %[bo], [%[x], #8]\n\t"                                                                       \
    "ldrd %[ae], %[ao], [%[x]], #16\n\t"                                                                      \
    "ldr %[t0], [%[w]], #4\n\t"                                                                               \
    "sxtb16 %[t1], %[t0]\n\t"                                                                                 \
    "sxtb16 %[t0], %[t0], ror #8\n\t"                                                                         \
    "smlad %[s00], %[ae], %[t1], %[s00]\n\t"                                                                  \
    "smlad %[s10], %[be], %[t1], %[s10]\n\t"                                                                  \
    "smlad %[s00], %[ao], %[t0], %[s00]\n\t"                                                                  \
    "smlad %[s10], %[bo], %[t0], %[s10]\n\t"                                                                  \
    "ldr %[t0], [%[w1]], #4\n\t"                                                                              \
    "sxtb16 %[t1], %[t0]\n\t"                                                                                 \
    "sxtb16 %[t0], %[t0], ror #8\n\t"                                                                         \
    "smlad %[s01], %[ae], %[t1], %[s01]\n\t"                                                                  \
    "smlad %[s11], %[be], %[t1], %[s11]\n\t"                                                                  \
    "smlad %[s01], %[ao], %[t0], %[s01]\n\t"                                                                  \
    "smlad %[s11], %[bo], %[t0], %[s11]\n\t"
#define MM_DOT2X2W_OPERANDS(cnt)                                                                              \
    : [s00] "+r"(s00), [s10] "+r"(s10), [s01] "+r"(s01), [s11] "+r"(s11), [x] "+r"(x), [w] "+r"(w),             \
      [w1] "+r"(w1), [n] "+r"(cnt), [ae] "=&r"(ae), [ao] "=&r"(ao), [be] "=&r"(be), [bo] "=&r"(bo),             \
      [t0] "=&r"(t0), [t1] "=&r"(t1)                                                                          \
    :                                                                                                         \
    : "cc", "memory"
#endif

/* mm_dot2x2_i8 on a widened pair of patches (mm_widen_i8): s[0] += a . w0, s[1] += b . w0,
 * s[2] += a . w1, s[3] += b . w1, w1 = w0 + K. A last partial group runs in the loop (its padding x = 0),
 * so the rows are read up to 3 bytes past w1's end: the caller has rows after w1 (else mm_dot1x2w_i8).
 * Only the weights are unpacked in the loop: 18 instructions per 16 MACs on the Cortex-M4 (CMSIS-NN's
 * s8 x s16 kernel, whose weights it reorders; SXTB16 pairs both operands the same way, so ours are not) */
static MM_INLINE void mm_dot2x2w_core(int32_t *s, const uint32_t *BBRT_RESTRICT x, const int8_t *BBRT_RESTRICT w,
                                       uint32_t K) {
    int32_t s00 = s[0], s10 = s[1], s01 = s[2], s11 = s[3];
    uint32_t n = (K + 3u) >> 2;
#if defined(__ARM_FEATURE_DSP)
    const int8_t *w1 = w + K;
    uint32_t ae, ao, be, bo, t0, t1, m = n >> 1;
    /* two groups per step (17 instructions per group), then the odd one */
    if (m) __asm__("1:\n\t" MM_DOT2X2W_GROUP MM_DOT2X2W_GROUP "subs %[n], %[n], #1\n\t"
                   "bne 1b" MM_DOT2X2W_OPERANDS(m));
    if (n & 1u) __asm__(MM_DOT2X2W_GROUP MM_DOT2X2W_OPERANDS(n));
#else
    for (; n; n--, x += 4, w += 4) {
        uint32_t v = dsp_read4(w), ve = dsp_sxtb16(v), vo = dsp_sxtb16_ror8(v);
        s00 = dsp_smlad(x[1], vo, dsp_smlad(x[0], ve, s00));
        s10 = dsp_smlad(x[3], vo, dsp_smlad(x[2], ve, s10));
        v = dsp_read4(w + K);
        ve = dsp_sxtb16(v);
        vo = dsp_sxtb16_ror8(v);
        s01 = dsp_smlad(x[1], vo, dsp_smlad(x[0], ve, s01));
        s11 = dsp_smlad(x[3], vo, dsp_smlad(x[2], ve, s11));
    }
#endif
    s[0] = s00;
    s[1] = s10;
    s[2] = s01;
    s[3] = s11;
}
BBRT_NOINLINE static void mm_dot2x2w_i8(int32_t *s, const uint32_t *BBRT_RESTRICT x, const int8_t *BBRT_RESTRICT w,
                                        uint32_t K) {
    mm_dot2x2w_core(s, x, w, K);
}

/* s[0] += a . w, s[1] += b . w on a widened pair (the last of an odd number of channels) */
static void mm_dot1x2w_i8(int32_t *s, const uint32_t *BBRT_RESTRICT x, const int8_t *BBRT_RESTRICT w, uint32_t K) {
    int32_t sa = s[0], sb = s[1];
    uint32_t n;
    for (n = K >> 2; n; n--, x += 4, w += 4) {
        uint32_t v = dsp_read4(w), ve = dsp_sxtb16(v), vo = dsp_sxtb16_ror8(v);
        sa = dsp_smlad(x[1], vo, dsp_smlad(x[0], ve, sa));
        sb = dsp_smlad(x[3], vo, dsp_smlad(x[2], ve, sb));
    }
    s[0] = sa;
    s[1] = sb;
    if (K & 3u) mm_tail2w_i8(s, x, w, K);
}

/* s[j] += x . w_j for the 4 rows w_j = w + j K: the FC's matrix-vector block, each unpacked x word
 * shared by 4 rows */
BBRT_NOINLINE static void mm_dot4_i8(int32_t *s, const int8_t *BBRT_RESTRICT x, const int8_t *BBRT_RESTRICT w,
                                     uint32_t K) {
    int32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    const int8_t *w2 = w + 2u * K;
    uint32_t n = K >> 2;
#if defined(__ARM_FEATURE_DSP)
    /* 25 instructions per 16 MACs (29 for the C loop at -Os) */
    if (n) {
        uint32_t xe, xo, t0, t1;
        __asm__("1:\n\t"
                "ldr %[xo], [%[x]], #4\n\t"
                "sxtb16 %[xe], %[xo]\n\t"
                "sxtb16 %[xo], %[xo], ror #8\n\t"
                "ldr %[t0], [%[w], %[K]]\n\t"
                "sxtb16 %[t1], %[t0]\n\t"
                "sxtb16 %[t0], %[t0], ror #8\n\t"
                "smlad %[s1], %[xe], %[t1], %[s1]\n\t"
                "smlad %[s1], %[xo], %[t0], %[s1]\n\t"
                "ldr %[t0], [%[w]], #4\n\t"
                "sxtb16 %[t1], %[t0]\n\t"
                "sxtb16 %[t0], %[t0], ror #8\n\t"
                "smlad %[s0], %[xe], %[t1], %[s0]\n\t"
                "smlad %[s0], %[xo], %[t0], %[s0]\n\t"
                "ldr %[t0], [%[w2], %[K]]\n\t"
                "sxtb16 %[t1], %[t0]\n\t"
                "sxtb16 %[t0], %[t0], ror #8\n\t"
                "smlad %[s3], %[xe], %[t1], %[s3]\n\t"
                "smlad %[s3], %[xo], %[t0], %[s3]\n\t"
                "ldr %[t0], [%[w2]], #4\n\t"
                "sxtb16 %[t1], %[t0]\n\t"
                "sxtb16 %[t0], %[t0], ror #8\n\t"
                "smlad %[s2], %[xe], %[t1], %[s2]\n\t"
                "smlad %[s2], %[xo], %[t0], %[s2]\n\t"
                "subs %[n], %[n], #1\n\t"
                "bne 1b"
                : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [x] "+r"(x), [w] "+r"(w),
                  [w2] "+r"(w2), [n] "+r"(n), [xe] "=&r"(xe), [xo] "=&r"(xo), [t0] "=&r"(t0), [t1] "=&r"(t1)
                : [K] "r"(K)
                : "cc", "memory");
    }
#else
    while (n--) {
        uint32_t a = dsp_read4(x), xe = dsp_sxtb16(a), xo = dsp_sxtb16_ror8(a), v;
        v = dsp_read4(w);
        s0 = dsp_smlad(xe, dsp_sxtb16(v), s0);
        s0 = dsp_smlad(xo, dsp_sxtb16_ror8(v), s0);
        v = dsp_read4(w + K);
        s1 = dsp_smlad(xe, dsp_sxtb16(v), s1);
        s1 = dsp_smlad(xo, dsp_sxtb16_ror8(v), s1);
        v = dsp_read4(w2);
        s2 = dsp_smlad(xe, dsp_sxtb16(v), s2);
        s2 = dsp_smlad(xo, dsp_sxtb16_ror8(v), s2);
        v = dsp_read4(w2 + K);
        s3 = dsp_smlad(xe, dsp_sxtb16(v), s3);
        s3 = dsp_smlad(xo, dsp_sxtb16_ror8(v), s3);
        x += 4;
        w += 4;
        w2 += 4;
    }
#endif
    for (n = K & 3u; n; n--, x++, w++, w2++) {
        int32_t a = x[0];
        s0 += a * w[0];
        s1 += a * w[K];
        s2 += a * w2[0];
        s3 += a * w2[K];
    }
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
}

/* the FC's x widened once per row: per 4 elements the words SXTB16(x), SXTB16 ROR 8(x) (K % 4 elements
 * left over are not widened: mm_dot4w_i8 takes them from x) */
static void mm_widen1_i8(uint32_t *BBRT_RESTRICT wd, const int8_t *BBRT_RESTRICT x, uint32_t K) {
    uint32_t g;
    for (g = K >> 2; g; g--, x += 4, wd += 2) {
        uint32_t v = dsp_read4(x);
        wd[0] = dsp_sxtb16(v);
        wd[1] = dsp_sxtb16_ror8(v);
    }
}

#if defined(__ARM_FEATURE_DSP)
/* one group of 4 elements of mm_dot4w_i8: the widened x pair by LDRD, each row's word unpacked once */
#define MM_DOT4W_GROUP                                                                                        \
    "ldrd %[xe], %[xo], [%[x]], #8\n\t"                                                                       \
    "ldr %[t0], [%[w], %[K]]\n\t"                                                                             \
    "sxtb16 %[t1], %[t0]\n\t"                                                                                 \
    "sxtb16 %[t0], %[t0], ror #8\n\t"                                                                         \
    "smlad %[s1], %[xe], %[t1], %[s1]\n\t"                                                                    \
    "smlad %[s1], %[xo], %[t0], %[s1]\n\t"                                                                    \
    "ldr %[t0], [%[w]], #4\n\t"                                                                               \
    "sxtb16 %[t1], %[t0]\n\t"                                                                                 \
    "sxtb16 %[t0], %[t0], ror #8\n\t"                                                                         \
    "smlad %[s0], %[xe], %[t1], %[s0]\n\t"                                                                    \
    "smlad %[s0], %[xo], %[t0], %[s0]\n\t"                                                                    \
    "ldr %[t0], [%[w2], %[K]]\n\t"                                                                            \
    "sxtb16 %[t1], %[t0]\n\t"                                                                                 \
    "sxtb16 %[t0], %[t0], ror #8\n\t"                                                                         \
    "smlad %[s3], %[xe], %[t1], %[s3]\n\t"                                                                    \
    "smlad %[s3], %[xo], %[t0], %[s3]\n\t"                                                                    \
    "ldr %[t0], [%[w2]], #4\n\t"                                                                              \
    "sxtb16 %[t1], %[t0]\n\t"                                                                                 \
    "sxtb16 %[t0], %[t0], ror #8\n\t"                                                                         \
    "smlad %[s2], %[xe], %[t1], %[s2]\n\t"                                                                    \
    "smlad %[s2], %[xo], %[t0], %[s2]\n\t"
#define MM_DOT4W_OPERANDS                                                                                     \
    : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [x] "+r"(xw), [w] "+r"(w), [w2] "+r"(w2),     \
      [n] "+r"(n), [xe] "=&r"(xe), [xo] "=&r"(xo), [t0] "=&r"(t0), [t1] "=&r"(t1)                               \
    : [K] "r"(K)                                                                                              \
    : "cc", "memory"
#endif

/* mm_dot4_i8 on x widened by mm_widen1_i8 (xw; x for the last K % 4 elements): no x unpacking in the
 * loop, two groups per step, 21 instructions per 16 MACs on the Cortex-M4 (25 for mm_dot4_i8) */
BBRT_NOINLINE static void mm_dot4w_i8(int32_t *s, const uint32_t *BBRT_RESTRICT xw, const int8_t *BBRT_RESTRICT x,
                                      const int8_t *BBRT_RESTRICT w, uint32_t K) {
    int32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    const int8_t *w2 = w + 2u * K;
    uint32_t n = K >> 3, k;
#if defined(__ARM_FEATURE_DSP)
    uint32_t xe, xo, t0, t1;
    if (n) __asm__("1:\n\t" MM_DOT4W_GROUP MM_DOT4W_GROUP "subs %[n], %[n], #1\n\t"
                   "bne 1b" MM_DOT4W_OPERANDS);
    if (K & 4u) __asm__(MM_DOT4W_GROUP MM_DOT4W_OPERANDS);
#else
    for (n = K >> 2; n; n--, xw += 2, w += 4, w2 += 4) {
        uint32_t v = dsp_read4(w);
        s0 = dsp_smlad(xw[1], dsp_sxtb16_ror8(v), dsp_smlad(xw[0], dsp_sxtb16(v), s0));
        v = dsp_read4(w + K);
        s1 = dsp_smlad(xw[1], dsp_sxtb16_ror8(v), dsp_smlad(xw[0], dsp_sxtb16(v), s1));
        v = dsp_read4(w2);
        s2 = dsp_smlad(xw[1], dsp_sxtb16_ror8(v), dsp_smlad(xw[0], dsp_sxtb16(v), s2));
        v = dsp_read4(w2 + K);
        s3 = dsp_smlad(xw[1], dsp_sxtb16_ror8(v), dsp_smlad(xw[0], dsp_sxtb16(v), s3));
    }
#endif
    for (k = K & ~3u; k < K; k++, w++, w2++) {
        int32_t a = x[k];
        s0 += a * w[0];
        s1 += a * w[K];
        s2 += a * w2[0];
        s3 += a * w2[K];
    }
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
}

#if defined(__ARM_FEATURE_DSP)
/* one group of 4 elements of mm_dot4ww_i8: the widened x pair and each row's widened pair by LDRD */
#define MM_DOT4WW_GROUP                                                                                       \
    "ldrd %[xe], %[xo], [%[x]], #8\n\t"                                                                       \
    "ldrd %[t0], %[t1], [%[w]], #8\n\t"                                                                       \
    "smlad %[s0], %[xe], %[t0], %[s0]\n\t"                                                                    \
    "smlad %[s0], %[xo], %[t1], %[s0]\n\t"                                                                    \
    "ldrd %[t0], %[t1], [%[w]], #8\n\t"                                                                       \
    "smlad %[s1], %[xe], %[t0], %[s1]\n\t"                                                                    \
    "smlad %[s1], %[xo], %[t1], %[s1]\n\t"                                                                    \
    "ldrd %[t0], %[t1], [%[w]], #8\n\t"                                                                       \
    "smlad %[s2], %[xe], %[t0], %[s2]\n\t"                                                                    \
    "smlad %[s2], %[xo], %[t1], %[s2]\n\t"                                                                    \
    "ldrd %[t0], %[t1], [%[w]], #8\n\t"                                                                       \
    "smlad %[s3], %[xe], %[t0], %[s3]\n\t"                                                                    \
    "smlad %[s3], %[xo], %[t1], %[s3]\n\t"
#define MM_DOT4WW_OPERANDS(cnt)                                                                               \
    : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [x] "+r"(xw), [w] "+r"(w), [n] "+r"(cnt),     \
      [xe] "=&r"(xe), [xo] "=&r"(xo), [t0] "=&r"(t0), [t1] "=&r"(t1)                                          \
    :                                                                                                         \
    : "cc", "memory"
#endif

/* s[j] += x . w_j for a block of 4 rows of widened weights (bb_edge/bbrt/widen.py: per group of 4
 * elements each row's pairs in turn) against x widened by mm_widen1_i8, K % 4 == 0: no unpacking at all,
 * 13 instructions per 16 MACs on the Cortex-M4 (21 for mm_dot4w_i8 on int8 weights) */
BBRT_NOINLINE static void mm_dot4ww_i8(int32_t *s, const uint32_t *BBRT_RESTRICT xw, const uint32_t *BBRT_RESTRICT w,
                                       uint32_t K) {
    int32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    uint32_t n = K >> 3;
#if defined(__ARM_FEATURE_DSP)
    uint32_t xe, xo, t0, t1;
    if (n) __asm__("1:\n\t" MM_DOT4WW_GROUP MM_DOT4WW_GROUP "subs %[n], %[n], #1\n\t"
                   "bne 1b" MM_DOT4WW_OPERANDS(n));
    if (K & 4u) __asm__(MM_DOT4WW_GROUP MM_DOT4WW_OPERANDS(n));
#else
    for (n = K >> 2; n; n--, xw += 2, w += 8) {
        s0 = dsp_smlad(xw[1], w[1], dsp_smlad(xw[0], w[0], s0));
        s1 = dsp_smlad(xw[1], w[3], dsp_smlad(xw[0], w[2], s1));
        s2 = dsp_smlad(xw[1], w[5], dsp_smlad(xw[0], w[4], s2));
        s3 = dsp_smlad(xw[1], w[7], dsp_smlad(xw[0], w[6], s3));
    }
#endif
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
}

/* x . w for one row of widened weights (the last Nn % 4 rows of a widened FC), K % 4 == 0 */
static int32_t mm_dot1ww_i8(const uint32_t *BBRT_RESTRICT xw, const uint32_t *BBRT_RESTRICT w, uint32_t K) {
    int32_t s = 0;
    uint32_t n;
    for (n = K >> 2; n; n--, xw += 2, w += 2) s = dsp_smlad(xw[1], w[1], dsp_smlad(xw[0], w[0], s));
    return s;
}

/* sat8(mbqm(acc, m, shift) + zy, lo, hi) for a right shift by 33 or more, shift in [-31, -2] (every
 * conv/FC of the models but zero-multiplier channels: real multipliers < 0.25), in 32 bits with
 * t = -shift - 1: (p + 2^(t+31)) >> (t+32) = ((p >> 32) + 2^(t-1)) >> t exactly (the low word only
 * adds a fraction below 1 to an integer numerator), and |result| < 2^30 needs no clamp */
static MM_INLINE int8_t mm_rq8f(int32_t acc, int32_t m, int32_t t, int32_t zy, int32_t lo, int32_t hi) {
    int32_t h = (int32_t)(((int64_t)acc * m) >> 32);
    return sat8(((h + (1 << (t - 1))) >> t) + zy, lo, hi);
}

/* sat8(mbqm(acc, m, shift) + zy, lo, hi): mm_rq8f when the shift allows it */
static int8_t mm_rq8(int32_t acc, int32_t m, int32_t shift, int32_t zy, int32_t lo, int32_t hi) {
    if (shift <= -2 && shift >= -31) return mm_rq8f(acc, m, -shift - 1, zy, lo, hi);
    return sat8(mbqm(acc, m, shift) + zy, lo, hi);
}

/* mm_rq8 with its shift test inline (the FC's per-output requantization) */
static MM_INLINE int8_t mm_rq8i(int32_t acc, int32_t m, int32_t shift, int32_t zy, int32_t lo, int32_t hi) {
    if ((uint32_t)(shift + 31) <= 29u) return mm_rq8f(acc, m, -shift - 1, zy, lo, hi); /* -31 <= shift <= -2 */
    return sat8(mbqm(acc, m, shift) + zy, lo, hi);
}

/* mm_rq8i without an activation clamp (lo -128, hi 127): SSAT */
static MM_INLINE int8_t mm_rq8s(int32_t acc, int32_t m, int32_t shift, int32_t zy) {
    if ((uint32_t)(shift + 31) <= 29u) {
        const int32_t t = -shift - 1;
        return (int8_t)dsp_ssat8((((int32_t)(((int64_t)acc * m) >> 32) + (1 << (t - 1))) >> t) + zy);
    }
    return sat8(mbqm(acc, m, shift) + zy, -128, 127);
}

/* one row of an FC whose input zero point is folded into the bias: o[n] = rq(b[n] + x . w_n) for the
 * Nn rows of w, blocks of 4 rows against x (widened in xw when xw is not NULL), requantized inline: the
 * loop in a function of its own keeps its values in registers (about 15 instructions per output) */
BBRT_NOINLINE static void mm_fc_row(int8_t *o, const int8_t *x, const uint32_t *xw, const int8_t *w,
                                    const int32_t *b, const int32_t *rq, uint32_t K, uint32_t Nn, int32_t zy,
                                    int32_t lo, int32_t hi) {
    const int full = lo == -128 && hi == 127;
    uint32_t n, j;
    int32_t s[4];
    for (n = 0; n + 4u <= Nn; n += 4u, w += 4u * K, b += 4, rq += 8) {
        s[0] = b[0];
        s[1] = b[1];
        s[2] = b[2];
        s[3] = b[3];
        if (xw)
            mm_dot4w_i8(s, xw, x, w, K);
        else
            mm_dot4_i8(s, x, w, K);
        if (full)
            for (j = 0; j < 4u; j++) *o++ = mm_rq8s(s[j], rq[2u * j], rq[2u * j + 1u], zy);
        else
            for (j = 0; j < 4u; j++) *o++ = mm_rq8i(s[j], rq[2u * j], rq[2u * j + 1u], zy, lo, hi);
    }
    if (n + 2u <= Nn) {
        s[0] = b[0];
        s[1] = b[1];
        dot2_i8(s, x, w, w + K, K);
        *o++ = mm_rq8i(s[0], rq[0], rq[1], zy, lo, hi);
        *o++ = mm_rq8i(s[1], rq[2], rq[3], zy, lo, hi);
        n += 2u;
        w += 2u * K;
        b += 2;
        rq += 4;
    }
    if (n < Nn) *o = mm_rq8i(b[0] + dot_i8(x, w, K), rq[0], rq[1], zy, lo, hi);
}

/* mm_fc_row on widened weights (FC_I8 p[3] = 1, bb_edge/bbrt/widen.py) and x widened in xw, K % 4 == 0 */
BBRT_NOINLINE static void mm_fc_row16(int8_t *o, const uint32_t *xw, const uint32_t *w, const int32_t *b,
                                      const int32_t *rq, uint32_t K, uint32_t Nn, int32_t zy, int32_t lo, int32_t hi) {
    const int full = lo == -128 && hi == 127;
    uint32_t n, j;
    int32_t s[4];
    for (n = 0; n + 4u <= Nn; n += 4u, w += 2u * K, b += 4, rq += 8) {
        s[0] = b[0];
        s[1] = b[1];
        s[2] = b[2];
        s[3] = b[3];
        mm_dot4ww_i8(s, xw, w, K);
        if (full)
            for (j = 0; j < 4u; j++) *o++ = mm_rq8s(s[j], rq[2u * j], rq[2u * j + 1u], zy);
        else
            for (j = 0; j < 4u; j++) *o++ = mm_rq8i(s[j], rq[2u * j], rq[2u * j + 1u], zy, lo, hi);
    }
    for (; n < Nn; n++, w += K / 2u, b++, rq += 2) *o++ = mm_rq8i(b[0] + mm_dot1ww_i8(xw, w, K), rq[0], rq[1], zy, lo, hi);
}

/* mm_rq8f inline with the channel's precomputed (m, t) when the block is fast, else mm_rq8 on rq */
static MM_INLINE int8_t mm_rqb(int fast, int32_t acc, int32_t m, int32_t t, const int32_t *rq, int32_t zy,
                               int32_t lo, int32_t hi) {
    return fast ? mm_rq8f(acc, m, t, zy, lo, hi) : mm_rq8(acc, rq[0], rq[1], zy, lo, hi);
}

/* one block's per-channel constants, for mm_pairs2x2w_i8 */
typedef struct {
    const int32_t *base, *qm;
    const int8_t *qt;
    int32_t zy, lo, hi;
    uint32_t OHW, P;
    int fold; /* every channel's t <= 22: zy folds into SMMLA's addend (mm_pairs_fold) */
} mm_blk_t;

/* the channel pairs of mm_pairs2x2w_i8 without an activation clamp when every channel's t <= 22 (k->fold):
 * ((h + 2^(t-1)) >> t) + zy, h the high word of acc * m, is (h + c) >> t with c = (2 zy + 1) 2^(t-1) (zy 2^t
 * is a multiple of 2^t), and h + c = SMMLA(acc, m, c), exact as |h| < 2^30 and |c| < 2^30. The dot product is
 * inlined: its sums stay in registers. */
static MM_INLINE void mm_pairs_fold(const mm_blk_t *k, const uint32_t *x, const int8_t *w, int8_t *o,
                                    uint32_t npair) {
    const int32_t *base = k->base, *qm = k->qm;
    const int8_t *qt = k->qt;
    const int32_t z1 = 2 * k->zy + 1;
    const uint32_t OHW = k->OHW, P = k->P;
    uint32_t i;
    for (i = 0; i < 2u * npair; i += 2u, w += 2u * P, o += 2u * OHW) {
        int32_t s[4], m, t, c;
        s[0] = s[1] = base[i];
        s[2] = s[3] = base[i + 1u];
        mm_dot2x2w_core(s, x, w, P);
        m = qm[i];
        t = qt[i];
        c = z1 * (1 << (t - 1)); /* z1 may be negative: no left shift of it */
        o[0] = (int8_t)dsp_ssat8(dsp_smmla(s[0], m, c) >> t);
        o[1] = (int8_t)dsp_ssat8(dsp_smmla(s[1], m, c) >> t);
        m = qm[i + 1u];
        t = qt[i + 1u];
        c = z1 * (1 << (t - 1)); /* z1 may be negative: no left shift of it */
        o[OHW] = (int8_t)dsp_ssat8(dsp_smmla(s[2], m, c) >> t);
        o[OHW + 1u] = (int8_t)dsp_ssat8(dsp_smmla(s[3], m, c) >> t);
    }
}

/* channel pairs 0 .. npair-1 of a block (weights from w) against a widened pixel pair, every channel
 * with mm_rq8f constants: the outputs of channel i at o + i OHW, o + i OHW + 1. The block loop in a
 * function of its own keeps its few values in registers across the dot products. */
BBRT_NOINLINE static void mm_pairs2x2w_i8(const mm_blk_t *k, const uint32_t *x, const int8_t *w, int8_t *o,
                                          uint32_t npair) {
    const int32_t *base = k->base, *qm = k->qm;
    const int8_t *qt = k->qt;
    const int32_t zy = k->zy, lo = k->lo, hi = k->hi;
    const uint32_t OHW = k->OHW, P = k->P;
    uint32_t i;
    if (lo == -128 && hi == 127 && k->fold) { /* no activation clamp (the models' convs), small shifts */
        mm_pairs_fold(k, x, w, o, npair);
        return;
    }
    if (lo == -128 && hi == 127) { /* no activation clamp: SSAT, a channel's rounding once */
        for (i = 0; i < 2u * npair; i += 2u, w += 2u * P, o += 2u * OHW) {
            int32_t s[4], m, t, r;
            s[0] = s[1] = base[i];
            s[2] = s[3] = base[i + 1u];
            mm_dot2x2w_core(s, x, w, P); /* inlined: the sums stay in registers */
            m = qm[i];
            t = qt[i];
            r = 1 << (t - 1);
            /* the high word of acc * m plus r is SMMLA(acc, m, r) (exact: r joins above the low word) */
            o[0] = (int8_t)dsp_ssat8((dsp_smmla(s[0], m, r) >> t) + zy);
            o[1] = (int8_t)dsp_ssat8((dsp_smmla(s[1], m, r) >> t) + zy);
            m = qm[i + 1u];
            t = qt[i + 1u];
            r = 1 << (t - 1);
            o[OHW] = (int8_t)dsp_ssat8((dsp_smmla(s[2], m, r) >> t) + zy);
            o[OHW + 1u] = (int8_t)dsp_ssat8((dsp_smmla(s[3], m, r) >> t) + zy);
        }
        return;
    }
    for (i = 0; i < 2u * npair; i += 2u, w += 2u * P, o += 2u * OHW) {
        int32_t s[4];
        s[0] = s[1] = base[i];
        s[2] = s[3] = base[i + 1u];
        mm_dot2x2w_i8(s, x, w, P);
        o[0] = mm_rq8f(s[0], qm[i], qt[i], zy, lo, hi);
        o[1] = mm_rq8f(s[1], qm[i], qt[i], zy, lo, hi);
        o[OHW] = mm_rq8f(s[2], qm[i + 1u], qt[i + 1u], zy, lo, hi);
        o[OHW + 1u] = mm_rq8f(s[3], qm[i + 1u], qt[i + 1u], zy, lo, hi);
    }
}

#if defined(__ARM_FEATURE_DSP)
/* one group of 4 elements of mm_dot2x2ww_core: the widened pixel pair and the channel pair's widened
 * weights, all by LDRD: 4 loads and 8 SMLAD per 16 MACs */
#define MM_DOT2X2WW_GROUP                                                                                     \
    "ldrd %[ae], %[ao], [%[x]], #8\n\t"                                                                       \
    "ldrd %[be], %[bo], [%[x]], #8\n\t"                                                                       \
    "ldrd %[t0], %[t1], [%[w]], #8\n\t"                                                                       \
    "smlad %[s00], %[ae], %[t0], %[s00]\n\t"                                                                  \
    "smlad %[s10], %[be], %[t0], %[s10]\n\t"                                                                  \
    "smlad %[s00], %[ao], %[t1], %[s00]\n\t"                                                                  \
    "smlad %[s10], %[bo], %[t1], %[s10]\n\t"                                                                  \
    "ldrd %[t0], %[t1], [%[w]], #8\n\t"                                                                       \
    "smlad %[s01], %[ae], %[t0], %[s01]\n\t"                                                                  \
    "smlad %[s11], %[be], %[t0], %[s11]\n\t"                                                                  \
    "smlad %[s01], %[ao], %[t1], %[s01]\n\t"                                                                  \
    "smlad %[s11], %[bo], %[t1], %[s11]\n\t"
#define MM_DOT2X2WW_OPERANDS(cnt)                                                                             \
    : [s00] "+r"(s00), [s10] "+r"(s10), [s01] "+r"(s01), [s11] "+r"(s11), [x] "+r"(x), [w] "+r"(w),             \
      [n] "+r"(cnt), [ae] "=&r"(ae), [ao] "=&r"(ao), [be] "=&r"(be), [bo] "=&r"(bo), [t0] "=&r"(t0),           \
      [t1] "=&r"(t1)                                                                                          \
    :                                                                                                         \
    : "cc", "memory"
#endif

/* mm_dot2x2w_core on a channel pair's widened weights (CONV_I8 p[12] = 1, bb_edge/bbrt/widen.py: per group of
 * 4 elements channel oc's pairs, then oc + 1's), K % 4 == 0: s[0] += a . w0, s[1] += b . w0, s[2] += a . w1,
 * s[3] += b . w1, 12 instructions per 16 MACs on the Cortex-M4 (17 on int8 weights) */
static MM_INLINE void mm_dot2x2ww_core(int32_t *s, const uint32_t *BBRT_RESTRICT x, const uint32_t *BBRT_RESTRICT w,
                                       uint32_t K) {
    int32_t s00 = s[0], s10 = s[1], s01 = s[2], s11 = s[3];
    uint32_t n = K >> 2;
#if defined(__ARM_FEATURE_DSP)
    uint32_t ae, ao, be, bo, t0, t1, m = n >> 1;
    if (m) __asm__("1:\n\t" MM_DOT2X2WW_GROUP MM_DOT2X2WW_GROUP "subs %[n], %[n], #1\n\t"
                   "bne 1b" MM_DOT2X2WW_OPERANDS(m));
    if (n & 1u) __asm__(MM_DOT2X2WW_GROUP MM_DOT2X2WW_OPERANDS(n));
#else
    for (; n; n--, x += 4, w += 4) {
        s00 = dsp_smlad(x[1], w[1], dsp_smlad(x[0], w[0], s00));
        s10 = dsp_smlad(x[3], w[1], dsp_smlad(x[2], w[0], s10));
        s01 = dsp_smlad(x[1], w[3], dsp_smlad(x[0], w[2], s01));
        s11 = dsp_smlad(x[3], w[3], dsp_smlad(x[2], w[2], s11));
    }
#endif
    s[0] = s00;
    s[1] = s10;
    s[2] = s01;
    s[3] = s11;
}

/* mm_pairs2x2ww_i8's channel pairs without an activation clamp when some channel's t > 22 (no mm_pairs_fold):
 * SSAT, zy added after the shift. A function of its own: the folded loop keeps its registers. */
BBRT_NOINLINE static void mm_pairs2x2ww_ssat_i8(const mm_blk_t *k, const uint32_t *x, const uint32_t *w, int8_t *o,
                                                uint32_t npair) {
    const int32_t *base = k->base, *qm = k->qm;
    const int8_t *qt = k->qt;
    const int32_t zy = k->zy;
    const uint32_t OHW = k->OHW, P = k->P;
    uint32_t i;
    for (i = 0; i < 2u * npair; i += 2u, w += P, o += 2u * OHW) {
        int32_t s[4], m, t, r;
        s[0] = s[1] = base[i];
        s[2] = s[3] = base[i + 1u];
        mm_dot2x2ww_core(s, x, w, P);
        m = qm[i];
        t = qt[i];
        r = 1 << (t - 1);
        /* the high word of acc * m plus r is SMMLA(acc, m, r) (exact: r joins above the low word) */
        o[0] = (int8_t)dsp_ssat8((dsp_smmla(s[0], m, r) >> t) + zy);
        o[1] = (int8_t)dsp_ssat8((dsp_smmla(s[1], m, r) >> t) + zy);
        m = qm[i + 1u];
        t = qt[i + 1u];
        r = 1 << (t - 1);
        o[OHW] = (int8_t)dsp_ssat8((dsp_smmla(s[2], m, r) >> t) + zy);
        o[OHW + 1u] = (int8_t)dsp_ssat8((dsp_smmla(s[3], m, r) >> t) + zy);
    }
}

/* mm_pairs2x2w_i8 on widened weights (w: the block's first channel pair, 2 P halfwords per channel pair),
 * P % 4 == 0, every channel with mm_rq8f constants */
BBRT_NOINLINE static void mm_pairs2x2ww_i8(const mm_blk_t *k, const uint32_t *x, const uint32_t *w, int8_t *o,
                                           uint32_t npair) {
    const int32_t *base = k->base, *qm = k->qm;
    const int8_t *qt = k->qt;
    const int32_t zy = k->zy, lo = k->lo, hi = k->hi, z1 = 2 * zy + 1;
    const uint32_t OHW = k->OHW, P = k->P;
    uint32_t i;
    if (lo == -128 && hi == 127 && k->fold) { /* as mm_pairs_fold */
        for (i = 0; i < 2u * npair; i += 2u, w += P, o += 2u * OHW) {
            int32_t s[4], m, t, c;
            s[0] = s[1] = base[i];
            s[2] = s[3] = base[i + 1u];
            mm_dot2x2ww_core(s, x, w, P);
            m = qm[i];
            t = qt[i];
            c = z1 * (1 << (t - 1)); /* z1 may be negative: no left shift of it */
            o[0] = (int8_t)dsp_ssat8(dsp_smmla(s[0], m, c) >> t);
            o[1] = (int8_t)dsp_ssat8(dsp_smmla(s[1], m, c) >> t);
            m = qm[i + 1u];
            t = qt[i + 1u];
            c = z1 * (1 << (t - 1));
            o[OHW] = (int8_t)dsp_ssat8(dsp_smmla(s[2], m, c) >> t);
            o[OHW + 1u] = (int8_t)dsp_ssat8(dsp_smmla(s[3], m, c) >> t);
        }
        return;
    }
    if (lo == -128 && hi == 127) {
        mm_pairs2x2ww_ssat_i8(k, x, w, o, npair);
        return;
    }
    for (i = 0; i < 2u * npair; i += 2u, w += P, o += 2u * OHW) {
        int32_t s[4];
        s[0] = s[1] = base[i];
        s[2] = s[3] = base[i + 1u];
        mm_dot2x2ww_core(s, x, w, P);
        o[0] = mm_rq8f(s[0], qm[i], qt[i], zy, lo, hi);
        o[1] = mm_rq8f(s[1], qm[i], qt[i], zy, lo, hi);
        o[OHW] = mm_rq8f(s[2], qm[i + 1u], qt[i + 1u], zy, lo, hi);
        o[OHW + 1u] = mm_rq8f(s[3], qm[i + 1u], qt[i + 1u], zy, lo, hi);
    }
}

/* one reduction chunk of mm_pairs2x2ww_i8 (conv_im2col_w16's split patches): the chunk's Pc elements of each
 * channel pair (its widened weights wstride words after the previous pair's) against the widened pixel pair,
 * added to acc (4 sums per channel pair, as mm_dot2x2ww_core's s), which the first chunk starts at the bases */
BBRT_NOINLINE static void mm_pairs2x2ww_acc_i8(const mm_blk_t *k, const uint32_t *x, const uint32_t *w, int32_t *acc,
                                               uint32_t npair, uint32_t Pc, uint32_t wstride, int first) {
    const int32_t *base = k->base;
    uint32_t i;
    for (i = 0; i < npair; i++, w += wstride, acc += 4) {
        int32_t s[4];
        if (first) {
            s[0] = s[1] = base[2u * i];
            s[2] = s[3] = base[2u * i + 1u];
        } else {
            s[0] = acc[0];
            s[1] = acc[1];
            s[2] = acc[2];
            s[3] = acc[3];
        }
        mm_dot2x2ww_core(s, x, w, Pc);
        acc[0] = s[0];
        acc[1] = s[1];
        acc[2] = s[2];
        acc[3] = s[3];
    }
}

/* the sums of mm_pairs2x2ww_acc_i8 requantized (mm_rq8f): channel pair i's at o + 2 i OHW (+ 1), + OHW (+ 1) */
BBRT_NOINLINE static void mm_pairs_out(const mm_blk_t *k, const int32_t *acc, int8_t *o, uint32_t npair) {
    const uint32_t OHW = k->OHW;
    uint32_t i;
    for (i = 0; i < 2u * npair; i += 2u, acc += 4, o += 2u * OHW) {
        o[0] = mm_rq8f(acc[0], k->qm[i], k->qt[i], k->zy, k->lo, k->hi);
        o[1] = mm_rq8f(acc[1], k->qm[i], k->qt[i], k->zy, k->lo, k->hi);
        o[OHW] = mm_rq8f(acc[2], k->qm[i + 1u], k->qt[i + 1u], k->zy, k->lo, k->hi);
        o[OHW + 1u] = mm_rq8f(acc[3], k->qm[i + 1u], k->qt[i + 1u], k->zy, k->lo, k->hi);
    }
}
