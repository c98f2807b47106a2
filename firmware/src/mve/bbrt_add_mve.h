/* Helium form of ADD_I8's same-shape loop (add_i8_fast, both operands contiguous): 4 elements per pass.
 * Included by bbrt_kernels.c after add_rq_t (MVE builds, see bbrt_mve.h). The scalar fast form computes
 * h = (x * f * m + 2^31 - z * f * m) >> 32 with one SMLAL; that is ((x - z) * f * m + 2^31) >> 32, VRMULH of
 * (x - z) * f (|.| < 2^29) and m, exactly. The rounding (h + r2 + (h >> 31 & nm)) >> e is then lane for lane
 * the scalar expression (VSHL by -e: an arithmetic right shift). */
#ifndef BBRT_ADD_MVE_H
#define BBRT_ADD_MVE_H

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("O2") /* as bbrt_mve.h */
#endif

static inline int32x4_t mve_add_round(int32x4_t h, const add_rq_t *q) {
    int32x4_t t = vaddq_s32(vaddq_n_s32(h, q->r2), vandq_s32(vshrq_n_s32(h, 31), vdupq_n_s32(q->nm)));
    return vshlq_s32(t, vdupq_n_s32(-q->e));
}

/* the 4 lanes' outputs of int8 operands xa, xb (full or tail vectors, see bbrt_mve.h) */
#define MVE_ADD4(xa, xb)                                                                                          \
    vminq_s32(vmaxq_s32(vaddq_n_s32(mve_add_round(vrmulhq_s32(vmulq_n_s32(vaddq_s32(                               \
                                        mve_add_round(vrmulhq_s32(vmulq_n_s32(vsubq_n_s32(xa, za), f), ma), qa),   \
                                        mve_add_round(vrmulhq_s32(vmulq_n_s32(vsubq_n_s32(xb, zb), f), mb), qb)),  \
                                                                             2), my), qy), zy), lov), hiv)

/* py[i] = ADD(pa[i], pb[i]) for i < n; py may be pa or pb (each lane is read before it is written) */
static void mve_add_i8(const add_rq_t *qa, const add_rq_t *qb, const add_rq_t *qy, int32_t za, int32_t zb, int32_t f,
                       int32_t zy, int32_t lo, int32_t hi, const int8_t *pa, const int8_t *pb, int8_t *py,
                       uint32_t n) {
    const int32x4_t ma = vdupq_n_s32(qa->m), mb = vdupq_n_s32(qb->m), my = vdupq_n_s32(qy->m);
    const int32x4_t lov = vdupq_n_s32(lo), hiv = vdupq_n_s32(hi);
    uint32_t i;
    for (i = n >> 2; i; i--, pa += 4, pb += 4, py += 4) vstrbq_s32(py, MVE_ADD4(vldrbq_s32(pa), vldrbq_s32(pb)));
    if (n & 3u) {
        mve_pred16_t p = vctp32q(n & 3u);
        vstrbq_p_s32(py, MVE_ADD4(vldrbq_z_s32(pa, p), vldrbq_z_s32(pb, p)), p);
    }
}

/* mve_add_i8 for long same-shape runs (n >= BBRT_ADD_LUT_MIN, as add_i8_lut): each input's term from a
 * 256-entry table of the scalar integers (add_rq_fast, computed once), fetched 4 lanes at a time by word
 * gathers indexed by the int8 input itself (a negative index wraps the 32-bit address below the table's
 * centre, as C's tac[x]); then the output's requantization lane by lane: VRMULH is (s m + 2^31) >> 32 and
 * (h + r2 + (h >> 31 & nm)) >> e is h >> 31 added (nm = -1, e > 0) or nothing (e = 0), then VSHL by -e.
 * About 4 instructions per element where mve_add_i8 takes 17 (its constants do not fit the Q registers). */
BBRT_NOINLINE static void mve_add_lut(const add_i8_t *k, const int8_t *pa, const int8_t *pb, int8_t *py, uint32_t n,
                                      int64_t ca, int64_t cb) {
    const add_rq_t *qa = &k->qa, *qb = &k->qb, *qy = &k->qy;
    const int32_t f = 1 << (k->ls + 1), zy = k->zy, e = qy->e, r2 = qy->r2;
    const int32x4_t mv = vdupq_n_s32(qy->m), lov = vdupq_n_s32(k->lo), hiv = vdupq_n_s32(k->hi);
    int32_t ta[256], tb[256], x; /* 2 * the term of x + 128 */
    const int32_t *tac = ta + 128, *tbc = tb + 128;
    uint32_t i;
    int32x4_t h;
    for (x = -128; x < 128; x++) {
        ta[x + 128] = 2 * add_rq_fast(x * f, qa->m, ca, qa->e, qa->r2, qa->nm);
        tb[x + 128] = 2 * add_rq_fast(x * f, qb->m, cb, qb->e, qb->r2, qb->nm);
    }
#define MVE_ADD_LUT(LD, p)                                                                                      \
    h = vrmulhq_s32(vaddq_s32(vldrwq_gather_shifted_offset_s32(tac, vreinterpretq_u32_s32(LD(pa, p))),            \
                              vldrwq_gather_shifted_offset_s32(tbc, vreinterpretq_u32_s32(LD(pb, p)))),           \
                    mv);                                                                                        \
    if (e > 0) h = vshlq_r_s32(vaddq_s32(vaddq_n_s32(h, r2), vshrq_n_s32(h, 31)), -e);                          \
    h = vminq_s32(vmaxq_s32(vaddq_n_s32(h, zy), lov), hiv)
#define MVE_LDB(ptr, p) vldrbq_s32(ptr)
#define MVE_LDBZ(ptr, p) vldrbq_z_s32((ptr), (p))
    /* element i of a and b is read before y[i] is written (in place) */
    for (i = n >> 2; i; i--, pa += 4, pb += 4, py += 4) {
        MVE_ADD_LUT(MVE_LDB, 0);
        vstrbq_s32(py, h);
    }
    if (n & 3u) { /* zeroed lanes index the tables' centre: read, never stored */
        const mve_pred16_t p = vctp32q(n & 3u);
        MVE_ADD_LUT(MVE_LDBZ, p);
        vstrbq_p_s32(py, h, p);
    }
#undef MVE_ADD_LUT
#undef MVE_LDB
#undef MVE_LDBZ
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

#endif /* BBRT_ADD_MVE_H */
