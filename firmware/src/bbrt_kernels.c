/* Kernels, float32 and int8, NCHW like ONNX. Each is a separate function so the
 * linker drops the ones the generated op resolver does not reference
 * (-ffunction-sections -Wl,--gc-sections). The loader has run bbrt_op_check on
 * every op: kernels rely on consistent shapes. */
/* Why one file: the kernels share the requantization, saturation and geometry helpers (static, so the
 * compiler inlines them into the inner loops). Each kernel is its own function, so the linker keeps only
 * the ones the resolver references. */
#include "bbrt.h"
#include "bbrt_internal.h"
#include "bbrt_kernels.h"

/* ------------------------------------------------------------------- math */
/* bbrt_expf is in bbrt_base.c (the training kernels use it too) */
float bbrt_tanhf(float x) {
    float e;
    if (x > 9.0f) return 1.0f;
    if (x < -9.0f) return -1.0f;
    if (x > -0.01f && x < 0.01f) return x - x * x * x / 3.0f;
    e = bbrt_expf(2.0f * x);
    return (e - 1.0f) / (e + 1.0f);
}

/* round half to even, clamped to +-2^30, NaN -> 0; on the IEEE bits, integer only: a soft-float
 * core (Cortex-M0/M3, LX106) would otherwise spend ~10 library calls per element here */
int32_t bbrt_roundf_even(float x) {
    union { uint32_t u; float f; } v;
    uint32_t e, m, r, sh, rem, half;
    v.f = x;
    e = (v.u >> 23) & 0xFFu;
    if (e == 0xFFu && (v.u & 0x7FFFFFu)) return 0; /* NaN */
    if (e < 126u) return 0;                         /* |x| < 0.5, zero and subnormals */
    if (e >= 157u) return (v.u >> 31) ? -1073741824 : 1073741824; /* |x| >= 2^30, infinities */
    m = (v.u & 0x7FFFFFu) | 0x800000u;              /* |x| = m * 2^(e - 150) */
    if (e >= 150u) {
        r = m << (e - 150u);
    } else {
        sh = 150u - e; /* 1..24 */
        r = m >> sh;
        rem = m & ((1u << sh) - 1u);
        half = 1u << (sh - 1u);
        if (rem > half || (rem == half && (r & 1u))) r++;
    }
    return (v.u >> 31) ? -(int32_t)r : (int32_t)r;
}

static int32_t mbqm(int32_t x, int32_t m, int32_t shift) {
    int32_t total;
    int64_t p, r;
    if (shift > 30) shift = 30;
    if (shift < -31) shift = -31;
    total = 31 - shift; /* 1..62 */
    p = (int64_t)x * (int64_t)m;
    r = (p + ((int64_t)1 << (total - 1))) >> total;
    /* +-(2^30 - 1): a sum of two results plus a zero point never overflows */
    if (r > 1073741823) r = 1073741823;
    if (r < -1073741823) r = -1073741823;
    return (int32_t)r;
}

/* TFLite's two-rounding MultiplyByQuantizedMultiplier (ADD_I8's requantization; defined with it below) */
static int32_t add_rq(int32_t x, int32_t m, int32_t shift);

static int8_t sat8(int32_t v, int32_t lo, int32_t hi) {
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return (int8_t)v;
}

static int8_t quant8(float x, float scale, int32_t zp) {
    return sat8(bbrt_roundf_even(x / scale) + zp, -128, 127);
}

static float fclamp(float v, float lo, float hi) {
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return v;
}

#if defined(__GNUC__) || defined(__clang__)
#define BBRT_RESTRICT __restrict__
#else
#define BBRT_RESTRICT restrict
#endif

/* keeps hot inner loops in their own function: no register spills from the caller */
#if defined(__GNUC__) || defined(__clang__)
#define BBRT_NOINLINE __attribute__((noinline))
#else
#define BBRT_NOINLINE
#endif

#define TN(i) bbrt_program_tensor(pr, op->in[i], &t[i])
#define TOUT bbrt_program_tensor(pr, op->out[0], &y)

/* ------------------------------------------------------------------- conv */
/* Row-wise direct convolution: for one output channel and one output row, a
 * chunk of int32/float accumulators (on the stack) collects every valid tap
 * (ic, ky, kx) in the same order as the reference loop, so results are
 * bit-identical. Padding never reaches the inner loop: for each kx the range of
 * output columns whose input column is inside the image is computed once per
 * op, for each ky the row is checked once. The inner loop is a plain
 * pointer walk (unit stride when stride_w == 1) the compiler can vectorize. */
#ifndef BBRT_CONV_CHUNK
#define BBRT_CONV_CHUNK 64u /* accumulators per row chunk (stack: 4 bytes each) */
#endif
#define BBRT_CONV_KX_CACHE 16u /* kernel columns whose ranges are precomputed */

typedef struct {
    uint32_t N, C, H, W, M, KH, KW, OH, OW, G, Cg, Mg;
    uint32_t sC, sH, sW; /* input element strides: NCHW (H*W, W, 1) or, p[15] = 1 (int8), NHWC (1, W*C, C) */
    int32_t sh, sw, pt, pl, dh, dw;
    int32_t xlo[BBRT_CONV_KX_CACHE], xhi[BBRT_CONV_KX_CACHE];
} conv_geo_t;

/* output columns [lo, hi) whose tap kx reads an input column inside [0, W) */
static void conv_kx_range(const conv_geo_t *g, int32_t kx, int32_t *lo, int32_t *hi) {
    int32_t a = g->pl - kx * g->dw, b = (int32_t)g->W - 1 + a;
    int32_t l = a > 0 ? (a + g->sw - 1) / g->sw : 0, h = b < 0 ? 0 : b / g->sw + 1;
    if (h > (int32_t)g->OW) h = (int32_t)g->OW;
    *lo = l;
    *hi = h > l ? h : l;
}

static void conv_geo(const bbrt_tensor_t *x, const bbrt_tensor_t *w, const bbrt_tensor_t *y, const bbrt_op_t *op,
                     conv_geo_t *g) {
    uint32_t k;
    g->N = x->dims[0]; g->C = x->dims[1]; g->H = x->dims[2]; g->W = x->dims[3];
    g->sC = g->H * g->W; g->sH = g->W; g->sW = 1u;
    if (op->p[15] == 1) { /* NHWC input (a model's NHWC graph input read in place, no transpose) */
        g->H = x->dims[1]; g->W = x->dims[2]; g->C = x->dims[3];
        g->sC = 1u; g->sH = g->W * g->C; g->sW = g->C;
    }
    g->M = w->dims[0]; g->KH = w->dims[2]; g->KW = w->dims[3];
    g->OH = y->dims[2]; g->OW = y->dims[3];
    g->G = (uint32_t)op->p[8]; g->Cg = g->C / g->G; g->Mg = g->M / g->G;
    g->sh = op->p[0]; g->sw = op->p[1]; g->pt = op->p[2]; g->pl = op->p[3]; g->dh = op->p[6]; g->dw = op->p[7];
    for (k = 0; k < BBRT_CONV_KX_CACHE && k < g->KW; k++) conv_kx_range(g, (int32_t)k, &g->xlo[k], &g->xhi[k]);
}

/* the [lo, hi) of tap kx clipped to the chunk [c0, c1); 0 when empty */
static int conv_cols(const conv_geo_t *g, uint32_t kx, int32_t c0, int32_t c1, int32_t *lo, int32_t *hi) {
    int32_t l, h;
    if (kx < BBRT_CONV_KX_CACHE) {
        l = g->xlo[kx];
        h = g->xhi[kx];
    } else {
        conv_kx_range(g, (int32_t)kx, &l, &h);
    }
    if (l < c0) l = c0;
    if (h > c1) h = c1;
    *lo = l;
    *hi = h;
    return h > l;
}

bbrt_status_t bbrt_k_conv_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[3], y;
    conv_geo_t g;
    const float *x, *w, *b = 0;
    float *o;
    float acc[BBRT_CONV_CHUNK];
    uint32_t n, gi, oc, oy, ic, ky, kx, KK;
    float lo = bbrt_i2f(op->p[9]), hi = bbrt_i2f(op->p[10]);
    TN(0); TN(1); TOUT;
    if (op->n_in > 2u) { TN(2); b = (const float *)(const void *)t[2].data; }
    x = (const float *)(const void *)t[0].data;
    w = (const float *)(const void *)t[1].data;
    o = (float *)(void *)y.data;
    conv_geo(&t[0], &t[1], &y, op, &g);
    KK = g.KH * g.KW;
    for (n = 0; n < g.N; n++)
        for (gi = 0; gi < g.G; gi++)
            for (oc = gi * g.Mg; oc < (gi + 1u) * g.Mg; oc++) {
                const float *wk = w + (size_t)oc * g.Cg * KK;
                const float *xg = x + ((size_t)n * g.C + gi * g.Cg) * g.H * g.W;
                float bias = b ? b[oc] : 0.0f;
                float *orow = o + ((size_t)n * g.M + oc) * g.OH * g.OW;
                for (oy = 0; oy < g.OH; oy++, orow += g.OW) {
                    int32_t iy0 = (int32_t)oy * g.sh - g.pt, c0;
                    for (c0 = 0; c0 < (int32_t)g.OW; c0 += (int32_t)BBRT_CONV_CHUNK) {
                        int32_t c1 = c0 + (int32_t)BBRT_CONV_CHUNK, j;
                        if (c1 > (int32_t)g.OW) c1 = (int32_t)g.OW;
                        for (j = 0; j < c1 - c0; j++) acc[j] = bias;
                        for (ic = 0; ic < g.Cg; ic++) {
                            const float *xp = xg + (size_t)ic * g.H * g.W;
                            const float *wp = wk + (size_t)ic * KK;
                            for (ky = 0; ky < g.KH; ky++) {
                                int32_t iy = iy0 + (int32_t)ky * g.dh;
                                const float *xrow;
                                if (iy < 0 || iy >= (int32_t)g.H) continue;
                                xrow = xp + (size_t)iy * g.W;
                                for (kx = 0; kx < g.KW; kx++) {
                                    int32_t cl, ch, k, cnt;
                                    float wv = wp[ky * g.KW + kx];
                                    float *ap;
                                    const float *xs;
                                    if (!conv_cols(&g, kx, c0, c1, &cl, &ch)) continue;
                                    ap = acc + (cl - c0);
                                    xs = xrow + (cl * g.sw - g.pl + (int32_t)kx * g.dw);
                                    cnt = ch - cl;
                                    if (g.sw == 1) {
                                        for (k = 0; k < cnt; k++) ap[k] += xs[k] * wv;
                                    } else {
                                        for (k = 0; k < cnt; k++, xs += g.sw) ap[k] += *xs * wv;
                                    }
                                }
                            }
                        }
                        for (j = 0; j < c1 - c0; j++) orow[c0 + j] = fclamp(acc[j], lo, hi);
                    }
                }
            }
    return BBRT_OK;
}

/* acc[k] += (x[k * sw] - zx) * wv for k in [0, n): one tap over a column range */
static void conv_tap_i8(int32_t *BBRT_RESTRICT ap, const int8_t *BBRT_RESTRICT xs, int32_t n, int32_t sw, int32_t zx,
                        int32_t wv) {
    int32_t k;
    if (sw == 1) {
        for (k = 0; k < n; k++) ap[k] += ((int32_t)xs[k] - zx) * wv;
    } else {
        for (k = 0; k < n; k++, xs += sw) ap[k] += ((int32_t)*xs - zx) * wv;
    }
}

#if defined(BBRT_KERNELS_DSP)
#include "dsp/bbrt_simd.h" /* dsp_sxtb16, dsp_smlad, mm_usada8, dsp_read4 */
#endif /* BBRT_KERNELS_DSP */

/* Helium (MVE: Cortex-M55/M85) inner loops for the portable kernels' FC, im2col conv, depthwise and ADD
 * (mve/); BBRT_NO_MVE keeps the scalar loops on an MVE build */
#if defined(__ARM_FEATURE_MVE) && !defined(BBRT_KERNELS_DSP) && !defined(BBRT_NO_MVE)
#define BBRT_KERNELS_MVE 1
#include "mve/bbrt_mve.h"
#endif

/* acc[k] += sum_kx (x[k + kx] - zx) * w[kx], kx < 3: a 3-wide kernel row, stride 1 */
#if defined(BBRT_KERNELS_DSP)
#include "dsp/bbrt_conv_row_dsp.h" /* conv_row3_i8 */
#else
BBRT_NOINLINE static void conv_row3_i8(int32_t *BBRT_RESTRICT ap, int32_t n, const int8_t *BBRT_RESTRICT xs,
                         const int8_t *BBRT_RESTRICT wr, int32_t zx) {
    int32_t k, w0 = wr[0], w1 = wr[1], w2 = wr[2], zs = zx * (w0 + w1 + w2);
    for (k = 0; k < n; k++) ap[k] += (int32_t)xs[k] * w0 + (int32_t)xs[k + 1] * w1 + (int32_t)xs[k + 2] * w2 - zs;
}
#endif

/* int8 conv state shared by CONV_I8 and CONV_POOL_I8 */
typedef struct {
    conv_geo_t g;
    const int8_t *x, *w;
    const int32_t *b, *rq;
    int32_t zx, zy, amin, amax, L, R;
} conv_i8_t;

static void conv_i8_setup(const bbrt_program_t *pr, const bbrt_op_t *op, const bbrt_tensor_t *y, conv_i8_t *c,
                          uint32_t oh, uint32_t ow) {
    bbrt_tensor_t t[4];
    uint32_t kx;
    TN(0); TN(1); TN(2); TN(3);
    c->x = (const int8_t *)t[0].data;
    c->w = (const int8_t *)t[1].data;
    c->b = (const int32_t *)(const void *)t[2].data;
    c->rq = (const int32_t *)(const void *)t[3].data;
    c->zx = t[0].zero_point;
    c->zy = y->zero_point;
    c->amin = op->p[9];
    c->amax = op->p[10];
    conv_geo(&t[0], &t[1], y, op, &c->g);
    c->g.OH = oh; /* the conv's own output (CONV_POOL_I8's y is the pooled one) */
    c->g.OW = ow;
    for (kx = 0; kx < BBRT_CONV_KX_CACHE && kx < c->g.KW; kx++)
        conv_kx_range(&c->g, (int32_t)kx, &c->g.xlo[kx], &c->g.xhi[kx]);
    /* interior columns [L, R): every kx reads inside the image */
    c->L = 0;
    c->R = 0x7fffffff;
    for (kx = 0; kx < c->g.KW; kx++) {
        int32_t l, h;
        conv_kx_range(&c->g, (int32_t)kx, &l, &h);
        if (l > c->L) c->L = l;
        if (h < c->R) c->R = h;
    }
    if (c->R < c->L) c->R = c->L;
}

/* acc[0 .. c1-c0) = bias + the conv of output row oy, columns [c0, c1), channel oc of image n */
static void conv_i8_row(const conv_i8_t *c, uint32_t n, uint32_t oc, uint32_t oy, int32_t c0, int32_t c1,
                        int32_t *acc) {
    const conv_geo_t *g = &c->g;
    uint32_t gi = oc / g->Mg, KK = g->KH * g->KW, ic, ky, kx;
    const int8_t *wk = c->w + (size_t)oc * g->Cg * KK;
    const int8_t *xg = c->x + (size_t)n * g->C * g->H * g->W + (size_t)gi * g->Cg * g->sC;
    int32_t sW = (int32_t)g->sW;
    int32_t iy0 = (int32_t)oy * g->sh - g->pt, j, il, ir, zx = c->zx, bias = c->b[oc];
    il = c->L > c0 ? c->L : c0;
    ir = c->R < c1 ? c->R : c1;
    if (ir < il) il = ir = c0;
    for (j = 0; j < c1 - c0; j++) acc[j] = bias;
    for (ic = 0; ic < g->Cg; ic++) {
        const int8_t *xp = xg + (size_t)ic * g->sC;
        const int8_t *wp = wk + (size_t)ic * KK;
        for (ky = 0; ky < g->KH; ky++) {
            int32_t iy = iy0 + (int32_t)ky * g->dh, k;
            const int8_t *xrow, *wr = wp + ky * g->KW;
            if (iy < 0 || iy >= (int32_t)g->H) continue;
            xrow = xp + (size_t)iy * g->sH;
            /* border columns (padding): one checked pixel at a time */
            for (k = c0; k < c1; k++) {
                int32_t a = 0, ix;
                if (k == il) k = ir; /* skip the interior */
                if (k >= c1) break;
                ix = k * g->sw - g->pl;
                for (kx = 0; kx < g->KW; kx++, ix += g->dw)
                    if (ix >= 0 && ix < (int32_t)g->W) a += ((int32_t)xrow[ix * sW] - zx) * wr[kx];
                acc[k - c0] += a;
            }
            /* interior columns: the whole kernel row, accumulated in a register */
            if (sW != 1) { /* NHWC input: strided columns */
                for (k = il; k < ir; k++) {
                    const int8_t *xs = xrow + (k * g->sw - g->pl) * sW;
                    int32_t a = 0;
                    for (kx = 0; kx < g->KW; kx++, xs += g->dw * sW) a += ((int32_t)*xs - zx) * wr[kx];
                    acc[k - c0] += a;
                }
            } else if (g->KW == 3u && g->dw == 1 && g->sw == 1) {
                conv_row3_i8(acc + (il - c0), ir - il, xrow + (il - g->pl), wr, zx);
            } else if (g->KW == 1u) {
                conv_tap_i8(acc + (il - c0), xrow + (il * g->sw - g->pl), ir - il, g->sw, zx, wr[0]);
            } else {
                for (k = il; k < ir; k++) {
                    const int8_t *xs = xrow + (k * g->sw - g->pl);
                    int32_t a = 0;
                    for (kx = 0; kx < g->KW; kx++, xs += g->dw) a += ((int32_t)*xs - zx) * wr[kx];
                    acc[k - c0] += a;
                }
            }
        }
    }
}

/* convs as a matrix product (im2col): per output pixel (a pair of them in the DSP build) and group, the
 * input patch (Cg x KH x KW, in the weights' order, padding filled with the input zero point) is gathered
 * once, then every output channel is one dot product (2 pixels x 2 channels with SMLAD in the DSP build). */
/* each with its patch buffer in a frame of its own (not inlined: CONV_I8 holds one of them at a time) */
BBRT_NOINLINE static void conv_im2col_i8(const conv_i8_t *c, int8_t *o);
#if defined(BBRT_KERNELS_DSP)
BBRT_NOINLINE static void conv_im2col_w16(conv_i8_t *c, int8_t *o);
#endif
/* depthwise convs (one input and one output channel per group): per channel, strips of output rows whose
 * input rows are copied into a band padded with the input zero point, so the taps run without bounds checks */
#ifndef BBRT_DW_BAND
#define BBRT_DW_BAND 1024u /* band bytes (stack) */
#endif
BBRT_NOINLINE static int conv_dw_i8(const conv_i8_t *c, int8_t *o);

bbrt_status_t bbrt_k_conv_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t y;
    conv_i8_t c;
    int8_t *o;
    int32_t acc[BBRT_CONV_CHUNK];
    uint32_t n, oc, oy;
    int two;
    TOUT;
    conv_i8_setup(pr, op, &y, &c, y.dims[2], y.dims[3]);
    o = (int8_t *)y.data;
    two = op->p[11] == 1; /* TFLite's reference TRANSPOSE_CONV requantization: the row loop, add_rq */
    if (!two && c.g.G > 1u && c.g.Cg == 1u && c.g.Mg == 1u && conv_dw_i8(&c, o)) return BBRT_OK;
    /* other depthwise convs stay on the row loop: a 9-byte patch per dot product costs more to gather
     * than it saves */
#if defined(BBRT_KERNELS_DSP)
    if (BBRT_WIDENED && op->p[12] == 1) { /* widened weights (bb_edge/bbrt/widen.py; the loader checked what the path needs) */
        conv_im2col_w16(&c, o);
        return BBRT_OK;
    }
#endif
    if (!two && !(c.g.G > 1u && c.g.Cg == 1u) && (uint64_t)c.g.Cg * c.g.KH * c.g.KW <= BBRT_IM2COL_MAX) {
        conv_im2col_i8(&c, o);
        return BBRT_OK;
    }
    for (n = 0; n < c.g.N; n++)
        for (oc = 0; oc < c.g.M; oc++) {
            int32_t mult = c.rq[2u * oc], shift = c.rq[2u * oc + 1u];
            int8_t *orow = o + ((size_t)n * c.g.M + oc) * c.g.OH * c.g.OW;
            for (oy = 0; oy < c.g.OH; oy++, orow += c.g.OW) {
                int32_t c0;
                for (c0 = 0; c0 < (int32_t)c.g.OW; c0 += (int32_t)BBRT_CONV_CHUNK) {
                    int32_t c1 = c0 + (int32_t)BBRT_CONV_CHUNK, j;
                    if (c1 > (int32_t)c.g.OW) c1 = (int32_t)c.g.OW;
                    conv_i8_row(&c, n, oc, oy, c0, c1, acc);
                    for (j = 0; j < c1 - c0; j++)
                        orow[c0 + j] = sat8((two ? add_rq(acc[j], mult, shift) : mbqm(acc[j], mult, shift)) + c.zy,
                                            c.amin, c.amax);
                }
            }
        }
    return BBRT_OK;
}

/* CONV_POOL_I8: CONV_I8 then a max pool (window p[11] x p[12], stride p[13] x p[14], no padding)
 * that never holds the conv's full output: per pooled row, the elementwise max of the accumulators
 * of its conv rows, then of each column window, requantized once. Requantization and the
 * activation clamp are monotonic (multipliers >= 0, checked), so max-then-requantize is
 * requantize-then-max bit for bit: the same bytes as CONV_I8 + MAXPOOL_I8. */
static uint32_t conv_out(uint32_t in, int32_t pa, int32_t pb, uint32_t k, int32_t s, int32_t d) {
    return (in + (uint32_t)pa + (uint32_t)pb - ((uint32_t)d * (k - 1u) + 1u)) / (uint32_t)s + 1u;
}

bbrt_status_t bbrt_k_conv_pool_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[2], y;
    conv_i8_t c;
    int8_t *o;
    int32_t acc[BBRT_CONV_POOL_MAX_W], mx[BBRT_CONV_POOL_MAX_W];
    uint32_t n, oc, py, px, r, j, k, PH, PW;
    uint32_t pkh = (uint32_t)op->p[11], pkw = (uint32_t)op->p[12], psh = (uint32_t)op->p[13], psw = (uint32_t)op->p[14];
    TN(0); TN(1); TOUT;
    conv_i8_setup(pr, op, &y, &c, conv_out(t[0].dims[2], op->p[2], op->p[4], t[1].dims[2], op->p[0], op->p[6]),
                  conv_out(t[0].dims[3], op->p[3], op->p[5], t[1].dims[3], op->p[1], op->p[7]));
    o = (int8_t *)y.data;
    PH = y.dims[2];
    PW = y.dims[3];
    for (n = 0; n < c.g.N; n++)
        for (oc = 0; oc < c.g.M; oc++) {
            int32_t mult = c.rq[2u * oc], shift = c.rq[2u * oc + 1u];
            int8_t *orow = o + ((size_t)n * c.g.M + oc) * PH * PW;
            for (py = 0; py < PH; py++, orow += PW) {
                for (r = 0; r < pkh; r++) {
                    conv_i8_row(&c, n, oc, py * psh + r, 0, (int32_t)c.g.OW, acc);
                    for (j = 0; j < c.g.OW; j++)
                        if (r == 0u || acc[j] > mx[j]) mx[j] = acc[j];
                }
                for (px = 0; px < PW; px++) {
                    const int32_t *win = mx + px * psw;
                    int32_t m = win[0];
                    for (k = 1; k < pkw; k++)
                        if (win[k] > m) m = win[k];
                    orow[px] = sat8(mbqm(m, mult, shift) + c.zy, c.amin, c.amax);
                }
            }
        }
    return BBRT_OK;
}

/* --------------------------------------------------------------------- fc */
bbrt_status_t bbrt_k_fc_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[3], y;
    const float *x, *w, *b = 0;
    float *o;
    uint32_t rows, K, Nn, r, n, k;
    float lo = bbrt_i2f(op->p[0]), hi = bbrt_i2f(op->p[1]);
    TN(0); TN(1); TOUT;
    if (op->n_in > 2u) { TN(2); b = (const float *)(const void *)t[2].data; }
    x = (const float *)(const void *)t[0].data;
    w = (const float *)(const void *)t[1].data;
    o = (float *)(void *)y.data;
    Nn = t[1].dims[0];
    K = t[1].dims[1];
    rows = t[0].count / K;
    for (r = 0; r < rows; r++)
        for (n = 0; n < Nn; n++) {
            float acc = b ? b[n] : 0.0f;
            const float *xr = x + (size_t)r * K, *wr = w + (size_t)n * K;
            for (k = 0; k < K; k++) acc += xr[k] * wr[k];
            o[(size_t)r * Nn + n] = fclamp(acc, lo, hi);
        }
    return BBRT_OK;
}

/* Dot products of int8 rows: the FC inner loop. The zero point of x is not in the loop: the
 * lowering folds -zx * sum(w) into the bias (FC_I8 param 2 = 1), or the kernel adds it once per
 * output, so the loop is one multiply-accumulate per element and nothing spills.
 *
 * BBRT_KERNELS_DSP selects the CMSIS-NN-style path for Cortex-M4/M7 (targets with the DSP
 * extension): 4 int8 pairs per step, unpacked with SXTB16 and accumulated with SMLAD (two 16x16
 * multiplies and one add per instruction), two output rows sharing each unpacked x word. Off an
 * ARM DSP core the same code runs with C versions of the three instructions (host tests compare
 * it with the portable loop, bit for bit: integer sums in any order are exact). */
#if defined(BBRT_KERNELS_DSP)
#include "dsp/bbrt_dot_dsp.h" /* dot2_i8, mm_dot4_i8, mm_dot2x2w_i8, ... */
#elif defined(BBRT_KERNELS_MVE)
#define dot_i8 mve_dot_i8 /* Helium: 16 products per VMLADAV (mve/bbrt_mve.h) */
#else
/* portable: 8 products per step (loads and multiply-accumulates only; -Os does not unroll) */
BBRT_NOINLINE static int32_t dot_i8(const int8_t *BBRT_RESTRICT x, const int8_t *BBRT_RESTRICT w, uint32_t K) {
    int32_t s = 0;
    const int8_t *end8 = x + (K & ~7u), *end = x + K;
    while (x != end8) {
        s += (int32_t)x[0] * w[0];
        s += (int32_t)x[1] * w[1];
        s += (int32_t)x[2] * w[2];
        s += (int32_t)x[3] * w[3];
        s += (int32_t)x[4] * w[4];
        s += (int32_t)x[5] * w[5];
        s += (int32_t)x[6] * w[6];
        s += (int32_t)x[7] * w[7];
        x += 8;
        w += 8;
    }
    while (x != end) s += (int32_t)*x++ * *w++;
    return s;
}
#endif

/* Depthwise helpers (dw_; the SIMD wrappers are the dsp_ ones above). A channel's plane is run one output row at a time: the input rows it reads
 * sit in a ring of R = (KH - 1) * dh + 1 band rows, each input row copied once (padded with the input
 * zero point, whose term is folded into the base), so the taps run without bounds checks; the row's
 * accumulators (int32, stack) are then requantized in one pass. */
#define BBRT_DW_MAXW 64u /* output columns per row (int32 accumulators on the stack) */
#define BBRT_DW_WORDS 48u /* packed weight pairs per channel (DSP build) */

#if defined(BBRT_KERNELS_DSP)
#include "dsp/bbrt_dw_sat_dsp.h" /* dw_ssat8, dw_pack */
#endif /* BBRT_KERNELS_DSP */

/* mbqm's integer with one SMLAL and a shift, for shifts in [-31, -1] (31 - shift >= 32) and m >= 0:
 * floor((x * m + 2^(total-1)) / 2^total) as (hi word of x * m + rnd) >> (total - 32). Not clamped to
 * +-(2^30 - 1) as mbqm is: |result| < 2^30 + 2^29, so after + zero point and an int8 saturation the
 * bytes are mbqm's. */
typedef struct {
    int64_t rnd;
    int32_t m, shift, s, fast;
} dw_rq_t;

static void dw_rq_init(dw_rq_t *q, int32_t m, int32_t shift) {
    int32_t sc = shift > 30 ? 30 : (shift < -31 ? -31 : shift);
    q->m = m;
    q->shift = shift;
    q->fast = m >= 0 && sc <= -1;
    q->s = q->fast ? -1 - sc : 0;                       /* total - 32 */
    q->rnd = q->fast ? (int64_t)1 << (30 - sc) : 0;     /* 2^(total - 1) */
}

static inline int32_t dw_rq(int32_t x, int32_t m, int64_t rnd, int32_t s) {
    return (int32_t)(((int64_t)x * m + rnd) >> 32) >> s;
}

/* o[j * os] = sat8(mbqm(acc[j]) + zy) for j < n, with dw_rq (q->fast) */
BBRT_NOINLINE static void dw_requant(int8_t *o, uint32_t os, const int32_t *acc, uint32_t n, const dw_rq_t *q,
                                     int32_t zy, int32_t lo, int32_t hi) {
    const int32_t m = q->m, s = q->s;
    const int64_t rnd = q->rnd;
    uint32_t j;
#if defined(BBRT_KERNELS_MVE)
    mve_dw_requant(o, os, acc, n, m, s, zy, lo, hi);
    return;
#endif
    if (lo == -128 && hi == 127) {
#if defined(BBRT_KERNELS_DSP)
        if (os == 1u) {
            for (j = 0; j < n; j++) o[j] = (int8_t)dw_ssat8(dw_rq(acc[j], m, rnd, s) + zy);
            return;
        }
#endif
        for (j = 0; j < n; j++, o += os) {
#if defined(BBRT_KERNELS_DSP)
            *o = (int8_t)dw_ssat8(dw_rq(acc[j], m, rnd, s) + zy);
#else
            int32_t v = dw_rq(acc[j], m, rnd, s) + zy;
            *o = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
#endif
        }
        return;
    }
    for (j = 0; j < n; j++, o += os) {
        int32_t v = dw_rq(acc[j], m, rnd, s) + zy;
        v = v < lo ? lo : v;
        *o = (int8_t)(v > hi ? hi : v);
    }
}

/* the image columns of one band row: n input columns (stride sW) to row (byte j of a band row is input
 * column j - pl; the padding columns and the slack keep the zero point the band was filled with) */
static void dw_copy(int8_t *row, const int8_t *xr, uint32_t sW, uint32_t n) {
    uint32_t k;
    if (sW == 1u) {
#if defined(__ARM_FEATURE_UNALIGNED) /* word loads and stores at any address (Cortex-M3/M4/M7) */
        const int8_t *s = xr, *e = xr + (n & ~3u);
        int8_t *d = row;
        for (; s != e; s += 4, d += 4) __builtin_memcpy(d, s, 4); /* pointer steps: 4 instructions a word */
        k = n & ~3u;
#else
        k = 0;
#endif
        for (; k < n; k++) row[k] = xr[k];
    } else {
        for (k = 0; k < n; k++) row[k] = xr[(size_t)k * sW];
    }
}

/* 3x3, stride 1, dilation 1: acc[ox] = base + the 9 taps of rows r0, r0 + rs, r0 + 2 rs at columns
 * ox .. ox + 2, for ox < n */
#if defined(BBRT_KERNELS_DSP)
#include "dsp/bbrt_dw_dsp.h" /* dw_3x3s1, dw_3x3sn, dw_pack_row, ... */
#elif defined(BBRT_KERNELS_MVE)
#define dw_3x3s1(acc, n, r0, rs, w, base) mve_dw_3x3(acc, n, r0, rs, 1u, w, base)
#define dw_3x3sn mve_dw_3x3
#else
static inline void dw_3x3s1(int32_t *BBRT_RESTRICT acc, uint32_t n, const int8_t *r0, uint32_t rs, const int8_t *w,
                            int32_t base) {
    const int32_t w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5], w6 = w[6], w7 = w[7], w8 = w[8];
    const int8_t *r1 = r0 + rs, *r2 = r1 + rs;
    uint32_t ox;
    for (ox = 0; ox < n; ox++, r0++, r1++, r2++)
        acc[ox] = base + r0[0] * w0 + r0[1] * w1 + r0[2] * w2 + r1[0] * w3 + r1[1] * w4 + r1[2] * w5 + r2[0] * w6 +
                  r2[1] * w7 + r2[2] * w8;
}

/* 3x3, stride sw > 1, dilation 1: acc[ox] = base + the 9 taps at columns ox * sw .. ox * sw + 2 */
static inline void dw_3x3sn(int32_t *BBRT_RESTRICT acc, uint32_t n, const int8_t *r0, uint32_t rs, uint32_t sw,
                            const int8_t *w, int32_t base) {
    const int32_t w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5], w6 = w[6], w7 = w[7], w8 = w[8];
    const int8_t *r1 = r0 + rs, *r2 = r1 + rs;
    uint32_t ox;
    for (ox = 0; ox < n; ox++, r0 += sw, r1 += sw, r2 += sw)
        acc[ox] = base + r0[0] * w0 + r0[1] * w1 + r0[2] * w2 + r1[0] * w3 + r1[1] * w4 + r1[2] * w5 + r2[0] * w6 +
                  r2[1] * w7 + r2[2] * w8;
}
#endif

/* any stride and dilation: acc[ox] += sum_k r[ox * sw + k * dw] w[k] */
static void dw_row(int32_t *BBRT_RESTRICT acc, uint32_t n, const int8_t *r, uint32_t sw, uint32_t dw,
                   const int8_t *BBRT_RESTRICT w, uint32_t K) {
    uint32_t ox, k;
#if defined(BBRT_KERNELS_MVE)
    mve_dw_row(acc, n, r, sw, dw, w, K);
    return;
#endif
    for (ox = 0; ox < n; ox++, r += sw) {
        int32_t s0 = 0;
        for (k = 0; k < K; k++) s0 += (int32_t)r[k * dw] * w[k];
        acc[ox] += s0;
    }
}

/* A plane whose output rows are short (fewer than BBRT_DW_TR_W columns and fewer than its rows, e.g. KWS's
 * 25x5 maps, or an H x 1 map) runs transposed: the same conv with the axes swapped (kernel, strides,
 * padding, dilation; input gathered down the columns, output written with a column stride), so each
 * band row gives many outputs and the per-row costs are paid W times instead of H times. */
#define BBRT_DW_TR_W 9u
#define BBRT_DW_TAPS 64u /* kernel taps transposed on the stack */
typedef struct {
    uint32_t H, W, KH, KW, OH, OW, sh, sw, dh, dw, sH, sW;
    uint32_t ors, ocs; /* output strides of a row and a column */
    int32_t pt, pl;
    int tr;
} dw_geo_t;

/* one channel's strip: the output rows whose input rows are in the band (band row k = input row
 * oy0 * sh - pt + k), computed and requantized row by row */
typedef struct {
    const dw_geo_t *g;
    const int8_t *w;
    const uint32_t *pw; /* packed weights (DSP build), 0: the plain loop */
    uint32_t rs, G;
    int32_t base, zy, lo, hi;
    dw_rq_t q;
#if defined(BBRT_KERNELS_DSP)
    dw_fold_t f;
    int fold; /* 3x3 taps with the requantization folded in (dw_3x3s1_fold) */
#endif
} dw_job_t;

BBRT_NOINLINE static void dw_strip(const dw_job_t *jb, int8_t *o, uint32_t nrows, const int8_t *band) {
    const dw_geo_t *g = jb->g;
    const uint32_t OW = g->OW, rs = jb->rs, step = g->sh * rs, KH = g->KH, KW = g->KW;
    const int k33 = KH == 3u && KW == 3u && g->dw == 1u && g->dh == 1u;
    uint32_t r, ky, j;
    int32_t acc[BBRT_DW_MAXW + 3u];
#if defined(BBRT_KERNELS_DSP)
    if (k33 && jb->fold && g->sw <= 3u) { /* strides to 3: dw_3x3sn_fold's pair reads stay in the row's slack */
        if (g->sw == 1u)
            dw_3x3s1_fold(o, g->ors, g->ocs, nrows, band, rs, step, OW, jb->pw, jb->base, &jb->f);
        else
            dw_3x3sn_fold(o, g->ors, g->ocs, nrows, band, rs, step, g->sw, OW, jb->pw, jb->base, &jb->f);
        return;
    }
#endif
#if defined(BBRT_KERNELS_MVE)
    if (k33 && jb->q.fast) { /* taps, requantization and stores in one pass (mve/bbrt_mve.h) */
        mve_dw_strip33(o, g->ors, g->ocs, nrows, band, rs, step, g->sw, OW, jb->w, jb->base, jb->q.m, jb->q.s, jb->zy,
                       jb->lo, jb->hi);
        return;
    }
#endif
    for (r = 0; r < nrows; r++, band += step, o += g->ors) {
        if (k33) {
#if defined(BBRT_KERNELS_DSP)
            if (g->sw == 1u)
                dw_3x3s1(acc, OW, band, rs, jb->pw, jb->base);
            else
                dw_3x3sn(acc, OW, band, rs, g->sw, jb->pw, jb->base);
#else
            if (g->sw == 1u)
                dw_3x3s1(acc, OW, band, rs, jb->w, jb->base);
            else
                dw_3x3sn(acc, OW, band, rs, g->sw, jb->w, jb->base);
#endif
        } else {
#if defined(BBRT_KERNELS_DSP)
            if (jb->G && g->dw == 1u) { /* the first kernel row sets the accumulators to base + its taps */
                for (ky = 0; ky < KH; ky++) {
                    const int8_t *rp = band + ky * g->dh * rs;
                    if (g->sw == 1u)
                        dw_row_s1(acc, OW, rp, jb->pw + 3u * jb->G * ky, jb->G, jb->base, ky == 0u);
                    else
                        dw_row_sn(acc, OW, rp, g->sw, jb->pw + 3u * jb->G * ky, jb->G, jb->base, ky == 0u);
                }
            } else
#endif
            {
                for (j = 0; j < OW; j++) acc[j] = jb->base;
                for (ky = 0; ky < KH; ky++)
                    dw_row(acc, OW, band + ky * g->dh * rs, g->sw, g->dw, jb->w + ky * KW, KW);
            }
        }
        if (jb->q.fast) {
            dw_requant(o, g->ocs, acc, OW, &jb->q, jb->zy, jb->lo, jb->hi);
        } else {
            for (j = 0; j < OW; j++) o[j * g->ocs] = sat8(mbqm(acc[j], jb->q.m, jb->q.shift) + jb->zy, jb->lo, jb->hi);
        }
    }
}

#if defined(BBRT_KERNELS_MVE)
#include "mve/bbrt_dw_mve.h" /* mve_conv_dw */
#endif

#if defined(BBRT_KERNELS_DSP)
/* one output per channel whose window is its whole NCHW plane (the streaming model's 15x1 kernel over its 15x1
 * map): a dot product of contiguous bytes, b - zx sum(w) + x . w, no band (whose per-channel setup costs ~40
 * instructions per MAC here); 0 (nothing written) for any other conv. A function of its own: conv_dw_i8's
 * registers stay as they were. */
BBRT_NOINLINE static int dw_whole_plane(const conv_i8_t *c, int8_t *o) {
    const conv_geo_t *g0 = &c->g;
    const uint32_t K = g0->KH * g0->KW;
    uint32_t n, ch;
    if (!(g0->OH == 1u && g0->OW == 1u && g0->KH == g0->H && g0->KW == g0->W && g0->pt == 0 && g0->pl == 0 &&
          g0->dh == 1 && g0->dw == 1 && g0->sW == 1u && g0->sH == g0->W))
        return 0;
    for (n = 0; n < g0->N; n++)
        for (ch = 0; ch < g0->M; ch++) {
            const int8_t *w = c->w + (size_t)ch * K;
            const int32_t acc = c->b[ch] - c->zx * mm_sum_i8(w, K) +
                                dot_i8(c->x + (size_t)n * g0->C * g0->H * g0->W + (size_t)ch * g0->sC, w, K);
            dw_rq_t q;
            dw_rq_init(&q, c->rq[2u * ch], c->rq[2u * ch + 1u]);
            o[(size_t)n * g0->M + ch] =
                sat8((q.fast ? dw_rq(acc, q.m, q.rnd, q.s) : mbqm(acc, q.m, q.shift)) + c->zy, c->amin, c->amax);
        }
    return 1;
}
#endif

/* acc = (b - zx * sum(w)) + sum(band * w), padding = zx: the row loop's integer (as im2col below).
 * Per channel, strips of output rows whose input rows fit the band (the whole plane when it fits).
 * Returns 0 (nothing written) when not even one output row fits. */
BBRT_NOINLINE static int conv_dw_i8(const conv_i8_t *c, int8_t *o) {
#if defined(BBRT_KERNELS_MVE)
    if (mve_conv_dw(c, o)) return 1; /* stride 1, and 2 up to 16 taps (mve/bbrt_dw_mve.h) */
#endif
    const conv_geo_t *g0 = &c->g;
    dw_geo_t g;
    dw_job_t jb;
#if defined(BBRT_KERNELS_DSP)
    if (dw_whole_plane(c, o)) return 1;
#endif
    uint32_t R, span, rs, n, ch, oy, j, nmax, cols;
    uint32_t bandw[(BBRT_DW_BAND + 3u) / 4u];
    int8_t *band = (int8_t *)bandw, wt[BBRT_DW_TAPS], zx8 = (int8_t)c->zx;
#if defined(BBRT_KERNELS_DSP)
    uint32_t pw[BBRT_DW_WORDS], ky;
#endif
    g.H = g0->H; g.W = g0->W; g.KH = g0->KH; g.KW = g0->KW; g.OH = g0->OH; g.OW = g0->OW;
    g.sh = (uint32_t)g0->sh; g.sw = (uint32_t)g0->sw; g.dh = (uint32_t)g0->dh; g.dw = (uint32_t)g0->dw;
    g.sH = g0->sH; g.sW = g0->sW; g.pt = g0->pt; g.pl = g0->pl;
    g.ors = g0->OW; g.ocs = 1u; g.tr = 0;
    if ((g0->OW < g0->OH || (g0->OW == g0->OH && g0->W < g0->H)) && g0->OW < BBRT_DW_TR_W &&
        g0->KH * g0->KW <= BBRT_DW_TAPS) { /* transposed */
        g.W = g0->H; g.H = g0->W; g.KW = g0->KH; g.KH = g0->KW; g.OW = g0->OH; g.OH = g0->OW;
        g.sw = (uint32_t)g0->sh; g.sh = (uint32_t)g0->sw; g.dw = (uint32_t)g0->dh; g.dh = (uint32_t)g0->dw;
        g.sW = g0->sH; g.sH = g0->sW; g.pl = g0->pt; g.pt = g0->pl;
        g.ors = 1u; g.ocs = g0->OW; g.tr = 1;
    }
    R = (g.KH - 1u) * g.dh + 1u;
    span = (g.OW - 1u) * g.sw + (g.KW - 1u) * g.dw + 1u; /* columns from -pl */
    rs = span + 4u;                                       /* + slack: the 4-byte reads past the last tap */
    if ((uint64_t)rs * R > BBRT_DW_BAND || g.OW > BBRT_DW_MAXW) return 0;
    nmax = (BBRT_DW_BAND / rs - R) / g.sh + 1u; /* output rows per strip */
    /* image columns per band row; every other byte holds the zero point from here on */
    cols = (uint32_t)g.pl >= rs ? 0u : (g.W < rs - (uint32_t)g.pl ? g.W : rs - (uint32_t)g.pl);
    for (j = 0; j < (BBRT_DW_BAND + 3u) / 4u; j++) /* the zero point, a word at a time */
        bandw[j] = 0x01010101u * (uint8_t)zx8;
    jb.g = &g;
    jb.rs = rs;
    jb.pw = 0;
    jb.G = 0;
    jb.zy = c->zy;
    jb.lo = c->amin;
    jb.hi = c->amax;
#if defined(BBRT_KERNELS_DSP)
    jb.pw = pw;
    jb.G = (g.KW + 4u) / 4u; /* groups of 4 taps, + 1 tap for the stride-1 pair */
    if ((uint64_t)3u * jb.G * g.KH > BBRT_DW_WORDS) jb.G = 0; /* too many taps: the plain loop */
#endif
    for (n = 0; n < g0->N; n++)
        for (ch = 0; ch < g0->M; ch++) {
            const int8_t *xp = c->x + (size_t)n * g0->C * g0->H * g0->W + (size_t)ch * g0->sC;
            int8_t *oc = o + ((size_t)n * g0->M + ch) * g.OH * g.OW;
            jb.w = c->w + (size_t)ch * g.KH * g.KW;
            if (g.tr && g.KH > 1u && g.KW > 1u) { /* tap (ky, kx) of the swapped kernel is the model's (kx, ky) */
                uint32_t a, b;
                for (a = 0; a < g.KH; a++)
                    for (b = 0; b < g.KW; b++) wt[a * g.KW + b] = jb.w[b * g.KH + a];
                jb.w = wt;
            }
            jb.base = c->b[ch];
#if defined(BBRT_KERNELS_DSP)
            jb.base -= c->zx * mm_sum_i8(jb.w, g.KH * g.KW);
#else
            for (j = 0; j < g.KH * g.KW; j++) jb.base -= c->zx * jb.w[j];
#endif
            dw_rq_init(&jb.q, c->rq[2u * ch], c->rq[2u * ch + 1u]);
#if defined(BBRT_KERNELS_DSP)
            { /* the fold's constants (dw_fold_t): no clamp, m >= 0, t in [1, 22]; a zero multiplier gives zy */
                const int32_t m = c->rq[2u * ch], sh = c->rq[2u * ch + 1u];
                jb.fold = jb.lo == -128 && jb.hi == 127 && m >= 0 && ((sh <= -2 && sh >= -23) || m == 0);
                jb.f.m = m;
                jb.f.t = m == 0 ? 1 : -sh - 1;
                jb.f.c = (2 * jb.zy + 1) * (1 << (jb.f.t - 1)); /* 2 zy + 1 may be negative: no left shift of it */
            }
            if (jb.G && g.KW == 3u) /* (w0, w2), (w1, 0), (0, w1) per row: dw_pack_row's words, built directly */
                for (ky = 0; ky < g.KH; ky++) {
                    const int8_t *wr = jb.w + 3u * ky;
                    pw[3u * ky] = dw_pack(wr[0], wr[2]);
                    pw[3u * ky + 1u] = dw_pack(wr[1], 0);
                    pw[3u * ky + 2u] = dw_pack(0, wr[1]);
                }
            else if (jb.G)
                for (ky = 0; ky < g.KH; ky++) dw_pack_row(pw + 3u * jb.G * ky, jb.w + ky * g.KW, g.KW, jb.G);
#endif
            for (oy = 0; oy < g.OH; oy += nmax) {
                uint32_t nr = g.OH - oy < nmax ? g.OH - oy : nmax, rows = (nr - 1u) * g.sh + R, k;
                int32_t iy0 = (int32_t)(oy * g.sh) - g.pt;
                for (k = 0; k < rows; k++) {
                    int32_t iy = iy0 + (int32_t)k;
                    if (iy < 0 || iy >= (int32_t)g.H) { /* a padding row: no pointer into it */
                        if (nmax < g.OH) /* one strip per plane: its padding rows kept the zero point */
                            for (j = 0; j < rs; j++) band[k * rs + j] = zx8;
                    } else
                        dw_copy(band + k * rs + g.pl, xp + (size_t)iy * g.sH, g.sW, cols);
                }
                dw_strip(&jb, oc + (size_t)oy * g.ors, nr, band);
            }
        }
    return 1;
}

/* the patch of output pixel (oy, ox) of one group, in the weights' order (ic, ky, kx), padding = zx */
static void im2col_patch(const conv_i8_t *c, const int8_t *BBRT_RESTRICT xg, uint32_t oy, uint32_t ox,
                         int8_t *BBRT_RESTRICT cp) {
    const conv_geo_t *g = &c->g;
    const uint32_t Cg = g->Cg, KH = g->KH, KW = g->KW, sC = g->sC, sH = g->sH, sW = g->sW, H = g->H, W = g->W;
    const int32_t iy0 = (int32_t)oy * g->sh - g->pt, ix0 = (int32_t)ox * g->sw - g->pl, dh = g->dh, dw = g->dw;
    const int8_t zx8 = (int8_t)c->zx;
    uint32_t ic, ky, kx;
    if (KH * KW == 1u && iy0 >= 0 && iy0 < (int32_t)H && ix0 >= 0 && ix0 < (int32_t)W) {
        const int8_t *xp = xg + (size_t)iy0 * sH + (size_t)ix0 * sW;
#if defined(BBRT_KERNELS_MVE)
        if (mve_gather_col(cp, xp, sC, Cg)) return; /* byte gathers (mve/bbrt_mve.h) */
#endif
        for (ic = 0; ic < Cg; ic++) cp[ic] = xp[(size_t)ic * sC]; /* 1x1: a column */
        return;
    }
    /* the taps inside the image: kernel rows [kyl, kyh) and columns [kxl, kxh) (contiguous: the offsets grow
     * with the tap), found once per patch; the rest is padding */
    uint32_t kyl = 0, kyh = KH, kxl = 0, kxh = KW;
    while (kyl < KH && iy0 + (int32_t)kyl * dh < 0) kyl++;
    while (kyh > kyl && iy0 + (int32_t)(kyh - 1u) * dh >= (int32_t)H) kyh--;
    while (kxl < KW && ix0 + (int32_t)kxl * dw < 0) kxl++;
    while (kxh > kxl && ix0 + (int32_t)(kxh - 1u) * dw >= (int32_t)W) kxh--;
    const uint32_t step = (uint32_t)dw * sW, nx = kxh - kxl;
    const size_t rs = (size_t)dh * sH;
    if (kyl == kyh || nx == 0u) { /* the whole window in the padding */
        for (ic = 0; ic < Cg * KH * KW; ic++) cp[ic] = zx8;
        return;
    }
    /* the first tap inside: row iy0 + kyl dh, column ix0 + kxl dw (no pointer outside the image) */
    const int8_t *x0 = xg + (size_t)(iy0 + (int32_t)kyl * dh) * sH + (size_t)(ix0 + (int32_t)kxl * dw) * sW;
    if (kyl == 0u && kyh == KH && nx == KW && step == 1u && KW == 3u) { /* the whole 3-wide window inside */
        for (ic = 0; ic < Cg; ic++, x0 += sC) {
            const int8_t *r = x0;
            for (ky = 0; ky < KH; ky++, r += rs, cp += 3) {
                cp[0] = r[0];
                cp[1] = r[1];
                cp[2] = r[2];
            }
        }
        return;
    }
    for (ic = 0; ic < Cg; ic++, x0 += sC) {
        const int8_t *r = x0;
        for (ky = 0; ky < KH; ky++) {
            if (ky < kyl || ky >= kyh) { /* a padding row */
                for (kx = 0; kx < KW; kx++) *cp++ = zx8;
                continue;
            }
            for (kx = 0; kx < kxl; kx++) *cp++ = zx8;
            if (step == 1u)
                for (kx = 0; kx < nx; kx++) *cp++ = r[kx];
            else
                for (kx = 0; kx < nx; kx++) *cp++ = r[(size_t)kx * step];
            for (kx = kxh; kx < KW; kx++) *cp++ = zx8;
            if (ky + 1u < kyh) r += rs; /* no pointer past the image */
        }
    }
}

#if defined(BBRT_KERNELS_MVE)
#include "mve/bbrt_conv_mve.h" /* mve_conv_im2col */
#endif

#if defined(BBRT_KERNELS_DSP)
#define BBRT_IM2COL_KK 16u /* kernels of up to this many taps (KH x KW) widen interior pairs directly */
#define BBRT_IM2COL_TAIL 128u /* bytes (stack): the last channel pair's rows with slack, patches up to 62 */
/* output pixels p and p + 1 in one output row, both windows inside the image: 1, and *ia = the offset of
 * pixel p's window corner in the group's input */
static int conv_pair_inside(const conv_geo_t *g, uint32_t p, uint32_t *ia) {
    const uint32_t oy = p / g->OW, ox = p % g->OW;
    const int32_t iy0 = (int32_t)oy * g->sh - g->pt, ix0 = (int32_t)ox * g->sw - g->pl;
    if (ox + 1u >= g->OW || iy0 < 0 || ix0 < 0 || iy0 + (int32_t)(g->KH - 1u) * g->dh >= (int32_t)g->H ||
        ix0 + g->sw + (int32_t)(g->KW - 1u) * g->dw >= (int32_t)g->W)
        return 0;
    *ia = (uint32_t)iy0 * g->sH + (uint32_t)ix0 * g->sW;
    return 1;
}

/* a 1x1 conv, stride 1, no padding, NCHW, P % 4 == 0: output pixel p reads input pixel p, pixels adjacent */
static int conv_dense(const conv_geo_t *g) {
    return g->KH * g->KW == 1u && g->Cg % 4u == 0u && g->sW == 1u && g->sh == 1 && g->sw == 1 && g->pt == 0 &&
           g->pl == 0 && g->OH == g->H && g->OW == g->W;
}

/* the offsets of the taps of 4 input channels from a pixel's window corner (mm_widen2_i8's off) */
static void conv_tap_offsets(const conv_geo_t *g, uint32_t *off) {
    const uint32_t KK = g->KH * g->KW;
    uint32_t t;
    for (t = 0; t < 4u * KK; t++) {
        const uint32_t r = t % KK;
        off[t] = t / KK * g->sC + r / g->KW * (uint32_t)g->dh * g->sH + r % g->KW * (uint32_t)g->dw * g->sW;
    }
}

/* output pixels p and p + 1 of a group (input xg) widened into buf (mm_widen_i8's layout): straight from the
 * input when the conv is dense or the pair interior (direct: off from conv_tap_offsets), else through the
 * staging patch */
static void conv_widen_pair(const conv_i8_t *c, const int8_t *xg, uint32_t p, uint32_t *buf, int8_t *stage,
                            const uint32_t *off, int dense, int direct) {
    const conv_geo_t *g = &c->g;
    const uint32_t KK = g->KH * g->KW, P = g->Cg * KK, OW = g->OW, s4C = 4u * g->sC;
    uint32_t ia;
    if (dense) {
        mm_widen1x1_i8(buf, xg + p, g->sC, P);
    } else if (direct && conv_pair_inside(g, p, &ia)) {
        const int8_t *a = xg + ia;
        const uint32_t d = (uint32_t)g->sw * g->sW;
        mm_widen2_i8(buf, a, off, KK, s4C, P >> 2, d);
        if (P & 3u) mm_widen2_tail_i8(buf + 4u * (P >> 2), a, off, KK, s4C, P, d);
    } else {
        im2col_patch(c, xg, p / OW, p % OW, stage);
        mm_widen_i8(buf, stage, P, 0u);
        im2col_patch(c, xg, (p + 1u) / OW, (p + 1u) % OW, stage);
        mm_widen_i8(buf, stage, P, 2u);
    }
}

/* conv_im2col_i8 on widened weights (CONV_I8 p[12] = 1, bb_edge/bbrt/widen.py: per channel pair and group of 4
 * elements the pairs of channel oc, then oc + 1; the bias holds -zx * sum(w)). The loader checked: one group, M
 * even, a reduction chunk (bbrt_conv_w16_chunk), at least 2 output pixels, every channel with mm_rq8f
 * constants. Every pixel pair against every channel pair (mm_pairs2x2ww_i8); with an odd pixel count the
 * last pixel pairs with the one before it, which is computed twice (the same bytes written again). A patch
 * too long to widen whole (ResNet-8's 64 x 3 x 3) runs in chunks of cc input channels: each chunk is the conv
 * of those channels (c->g.Cg set to cc while its pair is widened), its sums added up in the buffer's tail
 * (mm_pairs2x2ww_acc_i8) and requantized after the last (mm_pairs_out). */
BBRT_NOINLINE static void conv_w16_chunks(conv_i8_t *c, const int8_t *xg, uint32_t q, uint32_t *buf,
                                          const uint32_t *off, int dense, int direct, const mm_blk_t *blk,
                                          const uint32_t *w, int8_t *o, uint32_t npair, uint32_t cc) {
    const uint32_t Cg = c->g.Cg, KK = c->g.KH * c->g.KW, Pc = cc * KK;
    int32_t *acc = (int32_t *)(void *)(buf + Pc + Pc / 4u); /* after the pair (Pc words) and its staging patch */
    uint32_t c0;
    for (c0 = 0; c0 < Cg; c0 += cc) {
        c->g.Cg = cc; /* the conv of input channels c0 .. c0 + cc - 1 */
        conv_widen_pair(c, xg + (size_t)c0 * c->g.sC, q, buf, (int8_t *)(buf + Pc), off, dense, direct);
        c->g.Cg = Cg;
        mm_pairs2x2ww_acc_i8(blk, buf, w + (size_t)c0 * KK, acc, npair, Pc, Cg * KK, c0 == 0u);
    }
    mm_pairs_out(blk, acc, o, npair);
}

BBRT_NOINLINE static void conv_im2col_w16(conv_i8_t *c, int8_t *o) {
    const conv_geo_t *g = &c->g;
    const uint32_t KK = g->KH * g->KW, P = g->Cg * KK, OHW = g->OH * g->OW, M = g->M, Cg = g->Cg;
    const uint32_t cc = bbrt_conv_w16_chunk(Cg, KK, M);
    const uint32_t *w16 = (const uint32_t *)(const void *)c->w;
    const int dense = conv_dense(g), direct = !dense && KK <= BBRT_IM2COL_KK;
    uint32_t buf[BBRT_IM2COL_MAX / 4u]; /* the widened pair (P words), then a staging patch */
    uint32_t off[4u * BBRT_IM2COL_KK];
    int32_t base[BBRT_IM2COL_OC], qm[BBRT_IM2COL_OC];
    int8_t qt[BBRT_IM2COL_OC];
    uint32_t n, oc0, oc, p;
    mm_blk_t blk;
    blk.base = base;
    blk.qm = qm;
    blk.qt = qt;
    blk.zy = c->zy;
    blk.lo = c->amin;
    blk.hi = c->amax;
    blk.OHW = OHW;
    blk.P = P;
    if (direct) conv_tap_offsets(g, off);
    for (oc0 = 0; oc0 < M; oc0 += BBRT_IM2COL_OC) {
        const uint32_t oc1 = oc0 + BBRT_IM2COL_OC < M ? oc0 + BBRT_IM2COL_OC : M;
        blk.fold = 1;
        for (oc = oc0; oc < oc1; oc++) {
            const uint32_t i = oc - oc0;
            base[i] = c->b[oc]; /* -zx * sum(w) folded in by the lowering */
            qm[i] = c->rq[2u * oc];
            qt[i] = qm[i] == 0 ? 1 : (int8_t)(-c->rq[2u * oc + 1u] - 1); /* 1..30 (checked) */
            if (qt[i] > 22) blk.fold = 0;
        }
        for (n = 0; n < g->N; n++) {
            const int8_t *xg = c->x + (size_t)n * g->C * g->H * g->W;
            int8_t *on = o + (size_t)n * M * OHW + (size_t)oc0 * OHW;
            for (p = 0; p < OHW; p += 2u) {
                const uint32_t q = p + 1u < OHW ? p : OHW - 2u;
                if (cc == Cg) {
                    conv_widen_pair(c, xg, q, buf, (int8_t *)(buf + P), off, dense, direct);
                    mm_pairs2x2ww_i8(&blk, buf, w16 + (size_t)(oc0 / 2u) * P, on + q, (oc1 - oc0) / 2u);
                } else {
                    conv_w16_chunks(c, xg, q, buf, off, dense, direct, &blk, w16 + (size_t)(oc0 / 2u) * P, on + q,
                                    (oc1 - oc0) / 2u, cc);
                }
            }
        }
    }
}
#endif

/* acc = (b - zx * sum(w)) + sum(patch * w), padding = zx: the same integer as the row loop's
 * b + sum over the taps inside the image of (x - zx) * w. The DSP build gathers two pixels' patches
 * and runs 2 pixels x 2 channels per dot product: widened to 16-bit pairs once (mm_dot2x2w_i8) when
 * 5 patches (rounded up to 4 elements) fit BBRT_IM2COL_MAX, else on the int8 patches
 * (mm_dot2x2_i8) when 2 fit; requantized by mm_rq8f with per-channel constants when every channel
 * of the block allows it. The portable build: one pixel and one channel (dot_i8), mbqm. */
BBRT_NOINLINE static void conv_im2col_i8(const conv_i8_t *c, int8_t *o) {
    const conv_geo_t *g = &c->g;
    const uint32_t KK = g->KH * g->KW, P = g->Cg * KK, OHW = g->OH * g->OW, OW = g->OW;
    const int32_t *rq = c->rq;
    const int32_t zy = c->zy, amin = c->amin, amax = c->amax;
    uint32_t n, gi, oc0, oc, p, np;
    uint32_t buf[BBRT_IM2COL_MAX / 4u]; /* the patches (int8), or the widened pair + a staging patch */
    int8_t *col = (int8_t *)buf;
    int32_t base[BBRT_IM2COL_OC];
#if defined(BBRT_KERNELS_MVE)
    mve_conv_im2col(c, o); /* mve/bbrt_conv_mve.h */
    return;
#endif
#if defined(BBRT_KERNELS_DSP)
    const uint32_t P4 = (P + 3u) & ~3u; /* words of a widened pair */
    const int wide = 5u * P4 <= BBRT_IM2COL_MAX, pairs = 2u * P <= BBRT_IM2COL_MAX;
    /* channel pairs (oc, oc + 1) with oc + over <= M may read 3 bytes past row oc + 1: rows follow it */
    const uint32_t over = 2u + (3u + P - 1u) / P, M = g->M;
    /* a 1x1 conv, stride 1, no padding, NCHW: output pixel p reads input pixel p, pixels are adjacent */
    const int dense = wide && conv_dense(g);
    int8_t *stage = (int8_t *)(buf + P4);
    /* interior pixel pairs widened straight from the input (mm_widen2_i8): the offsets of the taps of 4
     * input channels from a pixel's window corner; pixel b = a + 1 is d bytes after a */
    uint32_t off[4u * BBRT_IM2COL_KK];
    const int direct = wide && !dense && KK <= BBRT_IM2COL_KK;
    int32_t qm[BBRT_IM2COL_OC];
    int8_t qt[BBRT_IM2COL_OC];
    uint32_t wtail[BBRT_IM2COL_TAIL / 4u], tail_oc; /* the last channel pair's rows with slack */
    int fast; /* every channel of the block has its mm_rq8f constants in qm, qt */
    mm_blk_t blk;
    blk.base = base;
    blk.qm = qm;
    blk.qt = qt;
    blk.zy = zy;
    blk.lo = amin;
    blk.hi = amax;
    blk.OHW = OHW;
    blk.P = P;
    if (direct) conv_tap_offsets(g, off);
#endif
    for (gi = 0; gi < g->G; gi++)
        for (oc0 = gi * g->Mg; oc0 < (gi + 1u) * g->Mg; oc0 += BBRT_IM2COL_OC) {
            uint32_t oc1 = oc0 + BBRT_IM2COL_OC < (gi + 1u) * g->Mg ? oc0 + BBRT_IM2COL_OC : (gi + 1u) * g->Mg;
#if defined(BBRT_KERNELS_DSP)
            fast = 1;
            blk.fold = 1;
            /* the first channel pair whose rows the 2x2 dot may not over-read: its two rows copied once per block
             * into wtail with 3 zero bytes after them (they meet the widened pair's zero padding), so it runs
             * through mm_dot2x2w_i8 as the others do */
            tail_oc = 0xffffffffu;
            if (wide && (P & 3u) && 2u * P + 4u <= sizeof wtail) {
                uint32_t t = oc0, j;
                while (t + 1u < oc1 && t + over <= M) t += 2u;
                if (t + 1u < oc1) {
                    int8_t *wb = (int8_t *)wtail;
                    for (j = 0; j < 2u * P; j++) wb[j] = c->w[(size_t)t * P + j];
                    for (; j < 2u * P + 4u; j++) wb[j] = 0;
                    tail_oc = t;
                }
            }
#endif
            for (oc = oc0; oc < oc1; oc++) {
                const int8_t *wr = c->w + (size_t)oc * P;
#if defined(BBRT_KERNELS_DSP)
                base[oc - oc0] = c->b[oc] - c->zx * mm_sum_i8(wr, P);
                qm[oc - oc0] = rq[2u * oc];
                qt[oc - oc0] = (int8_t)(-rq[2u * oc + 1u] - 1); /* 1..30 when fast */
                if (rq[2u * oc] == 0) qt[oc - oc0] = 1; /* a zero multiplier: 0 with any shift */
                else if (rq[2u * oc + 1u] > -2 || rq[2u * oc + 1u] < -31) fast = 0;
                if (qt[oc - oc0] > 22) blk.fold = 0;
#else
                int32_t sw = 0;
                uint32_t k;
                for (k = 0; k < P; k++) sw += wr[k];
                base[oc - oc0] = c->b[oc] - c->zx * sw;
#endif
            }
            for (n = 0; n < g->N; n++) {
                const int8_t *xg = c->x + (size_t)n * g->C * g->H * g->W + (size_t)gi * g->Cg * g->sC;
                int8_t *on = o + (size_t)n * g->M * OHW;
                for (p = 0; p < OHW; p += np) {
                    int8_t *op = on + p;
                    np = 1u;
#if defined(BBRT_KERNELS_DSP)
                    if (p + 1u < OHW && pairs) np = 2u;
                    if (np == 2u && wide) {
                        conv_widen_pair(c, xg, p, buf, stage, off, dense, direct);
                    } else {
                        im2col_patch(c, xg, p / OW, p % OW, col);
                        if (np == 2u) im2col_patch(c, xg, (p + 1u) / OW, (p + 1u) % OW, col + P);
                    }
                    oc = oc0;
                    if (fast && np == 2u && wide) { /* the block's channel pairs in one call */
                        uint32_t npair = (oc1 - oc0) / 2u;
                        while (npair && (P & 3u) && oc0 + 2u * (npair - 1u) + over > M) npair--;
                        mm_pairs2x2w_i8(&blk, buf, c->w + (size_t)oc0 * P, op + (size_t)oc0 * OHW, npair);
                        oc = oc0 + 2u * npair;
                    }
                    for (; oc < oc1; oc++) {
                        const uint32_t i = oc - oc0;
                        const int8_t *wr = c->w + (size_t)oc * P;
                        int8_t *oq = op + (size_t)oc * OHW;
                        int32_t s[4];
                        s[0] = s[1] = base[i];
                        if (np == 2u && oc + 1u < oc1) { /* 2 pixels x 2 channels */
                            s[2] = s[3] = base[i + 1u];
                            if (wide && ((P & 3u) == 0u || oc + over <= M)) {
                                mm_dot2x2w_i8(s, buf, wr, P);
                            } else if (wide && oc == tail_oc) { /* the last rows, copied with slack: one call */
                                mm_dot2x2w_i8(s, buf, (const int8_t *)wtail, P);
                            } else if (wide) { /* the weights' last rows: no over-read */
                                mm_dot1x2w_i8(s, buf, wr, P);
                                mm_dot1x2w_i8(s + 2, buf, wr + P, P);
                            } else
                                mm_dot2x2_i8(s, col, wr, P);
                            oq[0] = mm_rqb(fast, s[0], qm[i], qt[i], rq + 2u * oc, zy, amin, amax);
                            oq[1] = mm_rqb(fast, s[1], qm[i], qt[i], rq + 2u * oc, zy, amin, amax);
                            oc++;
                            oq += OHW;
                            oq[0] = mm_rqb(fast, s[2], qm[i + 1u], qt[i + 1u], rq + 2u * oc, zy, amin, amax);
                            oq[1] = mm_rqb(fast, s[3], qm[i + 1u], qt[i + 1u], rq + 2u * oc, zy, amin, amax);
                        } else if (np == 2u) { /* the last channel: its row against both patches */
                            if (wide)
                                mm_dot1x2w_i8(s, buf, wr, P);
                            else
                                dot2_i8(s, wr, col, col + P, P);
                            oq[0] = mm_rqb(fast, s[0], qm[i], qt[i], rq + 2u * oc, zy, amin, amax);
                            oq[1] = mm_rqb(fast, s[1], qm[i], qt[i], rq + 2u * oc, zy, amin, amax);
                        } else if (oc + 3u < oc1) { /* one pixel: four channels' rows against it */
                            s[1] = base[i + 1u];
                            s[2] = base[i + 2u];
                            s[3] = base[i + 3u];
                            mm_dot4_i8(s, col, wr, P);
                            oq[0] = mm_rqb(fast, s[0], qm[i], qt[i], rq + 2u * oc, zy, amin, amax);
                            oq[OHW] = mm_rqb(fast, s[1], qm[i + 1u], qt[i + 1u], rq + 2u * oc + 2u, zy, amin, amax);
                            oq[2u * OHW] = mm_rqb(fast, s[2], qm[i + 2u], qt[i + 2u], rq + 2u * oc + 4u, zy, amin,
                                                  amax);
                            oq[3u * OHW] = mm_rqb(fast, s[3], qm[i + 3u], qt[i + 3u], rq + 2u * oc + 6u, zy, amin,
                                                  amax);
                            oc += 3u;
                        } else if (oc + 1u < oc1) { /* the last pixel: two channels' rows against it */
                            s[1] = base[i + 1u];
                            dot2_i8(s, col, wr, wr + P, P);
                            oq[0] = mm_rqb(fast, s[0], qm[i], qt[i], rq + 2u * oc, zy, amin, amax);
                            oc++;
                            oq[OHW] = mm_rqb(fast, s[1], qm[i + 1u], qt[i + 1u], rq + 2u * oc, zy, amin, amax);
                        } else {
                            oq[0] = mm_rqb(fast, s[0] + dot_i8(col, wr, P), qm[i], qt[i], rq + 2u * oc, zy, amin,
                                           amax);
                        }
                    }
#else
                    im2col_patch(c, xg, p / OW, p % OW, col);
                    for (oc = oc0; oc < oc1; oc++) {
                        int32_t a = base[oc - oc0] + dot_i8(col, c->w + (size_t)oc * P, P);
                        op[(size_t)oc * OHW] = sat8(mbqm(a, rq[2u * oc], rq[2u * oc + 1u]) + zy, amin, amax);
                    }
#endif
                }
            }
        }
}

bbrt_status_t bbrt_k_fc_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[4], y;
    const int8_t *x, *w;
    const int32_t *b, *rq;
    int8_t *o;
    uint32_t rows, K, Nn, r, n;
    int32_t zx, zy, lo = op->p[0], hi = op->p[1], folded = op->p[2];
#if defined(BBRT_KERNELS_DSP)
    uint32_t xw[BBRT_FC_WIDE_MAX / 2u]; /* x widened (mm_widen1_i8) */
    int wide;
#endif
    TN(0); TN(1); TN(2); TN(3); TOUT;
    x = (const int8_t *)t[0].data;
    w = (const int8_t *)t[1].data;
    b = (const int32_t *)(const void *)t[2].data;
    rq = (const int32_t *)(const void *)t[3].data;
    o = (int8_t *)y.data;
    zx = t[0].zero_point;
    zy = y.zero_point;
    Nn = t[1].dims[0];
    K = t[1].dims[1];
    rows = t[0].count / K;
#if defined(BBRT_KERNELS_DSP)
    wide = K >= 8u && K <= BBRT_FC_WIDE_MAX;
#endif
    for (r = 0; r < rows; r++, x += K) {
#if defined(BBRT_KERNELS_DSP)
        if (BBRT_WIDENED && op->p[3] == 1) { /* widened weights (checked: K % 4 == 0, K <= BBRT_FC_WIDE_MAX, folded or zx 0) */
            mm_widen1_i8(xw, x, K);
            mm_fc_row16(o, xw, (const uint32_t *)(const void *)w, b, rq, K, Nn, zy, lo, hi);
            o += Nn;
            continue;
        }
#endif
#if defined(BBRT_KERNELS_MVE)
        mve_fc_row(x, w, b, rq, Nn, K, zx, folded, zy, lo, hi, o); /* 4 rows per pass (mve/bbrt_mve.h) */
        o += Nn;
        continue;
#elif defined(BBRT_KERNELS_DSP)
        if (folded || zx == 0) {
            if (wide) mm_widen1_i8(xw, x, K); /* once per row, for every block of 4 output rows */
            mm_fc_row(o, x, wide ? xw : NULL, w, b, rq, K, Nn, zy, lo, hi);
            o += Nn;
            continue;
        }
#endif
        for (n = 0; n < Nn; n++) {
            const int8_t *wr = w + (size_t)n * K;
            int32_t acc[4];
            uint32_t j, m = 1u;
            acc[0] = b[n];
#if defined(BBRT_KERNELS_DSP)
            if (n + 3u < Nn) { /* 4 rows sharing each unpacked x word */
                m = 4u;
                acc[1] = b[n + 1u];
                acc[2] = b[n + 2u];
                acc[3] = b[n + 3u];
                mm_dot4_i8(acc, x, wr, K);
            } else if (n + 1u < Nn) {
                m = 2u;
                acc[1] = b[n + 1u];
                dot2_i8(acc, x, wr, wr + K, K);
            } else {
                acc[0] += dot_i8(x, wr, K);
            }
#else
            acc[0] += dot_i8(x, wr, K);
#endif
            for (j = 0; j < m; j++, wr += K) {
                int32_t a = acc[j];
                if (!folded && zx != 0) { /* a program from before the folding: subtract zx * sum(w) here */
                    uint32_t k;
                    int32_t sw = 0;
                    for (k = 0; k < K; k++) sw += wr[k];
                    a -= zx * sw;
                }
#if defined(BBRT_KERNELS_DSP)
                *o++ = mm_rq8(a, rq[2u * (n + j)], rq[2u * (n + j) + 1u], zy, lo, hi);
#else
                *o++ = sat8(mbqm(a, rq[2u * (n + j)], rq[2u * (n + j) + 1u]) + zy, lo, hi);
#endif
            }
            n += m - 1u;
        }
    }
    return BBRT_OK;
}

/* ------------------------------------------------------------------ pools */
typedef struct {
    uint32_t NC, H, W, OH, OW, KH, KW;
    int32_t sh, sw, pt, pl;
} pool_geo_t;

static void pool_geo(const bbrt_tensor_t *x, const bbrt_tensor_t *y, const bbrt_op_t *op, pool_geo_t *g) {
    g->NC = x->dims[0] * x->dims[1];
    g->H = x->dims[2]; g->W = x->dims[3];
    g->OH = y->dims[2]; g->OW = y->dims[3];
    g->KH = (uint32_t)op->p[0]; g->KW = (uint32_t)op->p[1];
    g->sh = op->p[2]; g->sw = op->p[3]; g->pt = op->p[4]; g->pl = op->p[5];
}

/* window [y0,y1) x [x0,x1) clipped to the input */
static void pool_win(const pool_geo_t *g, uint32_t oy, uint32_t ox, int32_t *y0, int32_t *y1, int32_t *x0,
                     int32_t *x1) {
    *y0 = (int32_t)oy * g->sh - g->pt;
    *x0 = (int32_t)ox * g->sw - g->pl;
    *y1 = *y0 + (int32_t)g->KH;
    *x1 = *x0 + (int32_t)g->KW;
}

#define CLIPWIN                                  \
    if (y0 < 0) y0 = 0;                          \
    if (x0 < 0) x0 = 0;                          \
    if (y1 > (int32_t)g.H) y1 = (int32_t)g.H;    \
    if (x1 > (int32_t)g.W) x1 = (int32_t)g.W;

bbrt_status_t bbrt_k_maxpool_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[1], y;
    pool_geo_t g;
    uint32_t c, oy, ox;
    TN(0); TOUT;
    pool_geo(&t[0], &y, op, &g);
    for (c = 0; c < g.NC; c++)
        for (oy = 0; oy < g.OH; oy++)
            for (ox = 0; ox < g.OW; ox++) {
                int32_t y0, y1, x0, x1, iy, ix;
                const float *xp = (const float *)(const void *)t[0].data + (size_t)c * g.H * g.W;
                float m = -3.4028235e38f;
                pool_win(&g, oy, ox, &y0, &y1, &x0, &x1);
                CLIPWIN
                for (iy = y0; iy < y1; iy++)
                    for (ix = x0; ix < x1; ix++)
                        if (xp[iy * (int32_t)g.W + ix] > m) m = xp[iy * (int32_t)g.W + ix];
                ((float *)(void *)y.data)[((size_t)c * g.OH + oy) * g.OW + ox] = m;
            }
    return BBRT_OK;
}

bbrt_status_t bbrt_k_maxpool_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[1], y;
    pool_geo_t g;
    uint32_t c, oy, ox;
    TN(0); TOUT;
    pool_geo(&t[0], &y, op, &g);
    for (c = 0; c < g.NC; c++)
        for (oy = 0; oy < g.OH; oy++)
            for (ox = 0; ox < g.OW; ox++) {
                int32_t y0, y1, x0, x1, iy, ix;
                const int8_t *xp = (const int8_t *)t[0].data + (size_t)c * g.H * g.W;
                int8_t m = -128;
                pool_win(&g, oy, ox, &y0, &y1, &x0, &x1);
                CLIPWIN
                for (iy = y0; iy < y1; iy++)
                    for (ix = x0; ix < x1; ix++)
                        if (xp[iy * (int32_t)g.W + ix] > m) m = xp[iy * (int32_t)g.W + ix];
                ((int8_t *)y.data)[((size_t)c * g.OH + oy) * g.OW + ox] = m;
            }
    return BBRT_OK;
}

bbrt_status_t bbrt_k_avgpool_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[1], y;
    pool_geo_t g;
    uint32_t c, oy, ox;
    TN(0); TOUT;
    pool_geo(&t[0], &y, op, &g);
    for (c = 0; c < g.NC; c++)
        for (oy = 0; oy < g.OH; oy++)
            for (ox = 0; ox < g.OW; ox++) {
                int32_t y0, y1, x0, x1, iy, ix, cnt;
                const float *xp = (const float *)(const void *)t[0].data + (size_t)c * g.H * g.W;
                float s = 0.0f;
                pool_win(&g, oy, ox, &y0, &y1, &x0, &x1);
                cnt = (y1 - y0) * (x1 - x0);
                {
                    /* count_include_pad counts the padded window, clipped to input+pads */
                    int32_t py1 = y1 > (int32_t)g.H + op->p[6] ? (int32_t)g.H + op->p[6] : y1;
                    int32_t px1 = x1 > (int32_t)g.W + op->p[7] ? (int32_t)g.W + op->p[7] : x1;
                    cnt = (py1 - y0) * (px1 - x0);
                }
                CLIPWIN
                if (!op->p[8]) cnt = (y1 - y0) * (x1 - x0);
                for (iy = y0; iy < y1; iy++)
                    for (ix = x0; ix < x1; ix++) s += xp[iy * (int32_t)g.W + ix];
                ((float *)(void *)y.data)[((size_t)c * g.OH + oy) * g.OW + ox] = s / (float)cnt;
            }
    return BBRT_OK;
}

/* sum of n int8 values (4 per step with SXTB16/SMLAD in the DSP build) */
static int32_t pool_sum_i8(const int8_t *x, uint32_t n) {
    int32_t s = 0;
    uint32_t k = 0;
#if defined(BBRT_KERNELS_DSP)
    for (; k + 4u <= n; k += 4u) {
        uint32_t v = dsp_read4(x + k);
        s = dsp_smlad(dsp_sxtb16(v), 0x00010001u, s);
        s = dsp_smlad(dsp_sxtb16_ror8(v), 0x00010001u, s);
    }
#elif defined(BBRT_KERNELS_MVE)
    return mve_sum_i8(x, n); /* 16 bytes per VADDVA (mve/bbrt_mve.h) */
#endif
    for (; k < n; k++) s += x[k];
    return s;
}

bbrt_status_t bbrt_k_avgpool_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[1], y;
    pool_geo_t g;
    uint32_t c, oy, ox;
    float sx, sy;
    int32_t zx, zy;
    const int tfl = op->p[9] != 0, incl = op->p[8] != 0;
    const int32_t eh = op->p[6], ew = op->p[7];
    int8_t *o;
    TN(0); TOUT;
    pool_geo(&t[0], &y, op, &g);
    sx = t[0].scale; zx = t[0].zero_point; sy = y.scale; zy = y.zero_point;
    o = (int8_t *)y.data;
    for (c = 0; c < g.NC; c++) {
        const int8_t *xp = (const int8_t *)t[0].data + (size_t)c * g.H * g.W;
        for (oy = 0; oy < g.OH; oy++)
            for (ox = 0; ox < g.OW; ox++, o++) {
                int32_t y0, y1, x0, x1, iy, cnt, q = 0, cin;
                pool_win(&g, oy, ox, &y0, &y1, &x0, &x1);
                {
                    int32_t py1 = y1 > (int32_t)g.H + eh ? (int32_t)g.H + eh : y1;
                    int32_t px1 = x1 > (int32_t)g.W + ew ? (int32_t)g.W + ew : x1;
                    cnt = (py1 - y0) * (px1 - x0);
                }
                CLIPWIN
                cin = (y1 - y0) * (x1 - x0);
                if (!incl) cnt = cin;
                if (x1 > x0 && x1 - x0 == (int32_t)g.W) /* whole rows: one run (a global pool) */
                    q = pool_sum_i8(xp + y0 * (int32_t)g.W, (uint32_t)((y1 - y0) * (int32_t)g.W));
                else if (x1 > x0)
                    for (iy = y0; iy < y1; iy++) q += pool_sum_i8(xp + iy * (int32_t)g.W + x0, (uint32_t)(x1 - x0));
                if (tfl) { /* TFLite: same parameters in and out, sum of q / count, half away from 0 */
                    q = q > 0 ? (q + cnt / 2) / cnt : (q - cnt / 2) / cnt;
                    *o = sat8(q, -128, 127);
                    continue;
                }
                /* sum(x - zx) over the clipped window; padded positions hold real 0, i.e. contribute nothing */
                *o = quant8((float)(q - cin * zx) * sx / (float)cnt, sy, zy);
            }
    }
    return BBRT_OK;
}

bbrt_status_t bbrt_k_gap_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[1], y;
    uint32_t c, i, hw;
    TN(0); TOUT;
    hw = t[0].count / y.count;
    for (c = 0; c < y.count; c++) {
        const float *xp = (const float *)(const void *)t[0].data + (size_t)c * hw;
        float s = 0.0f;
        for (i = 0; i < hw; i++) s += xp[i];
        ((float *)(void *)y.data)[c] = s / (float)hw;
    }
    return BBRT_OK;
}

static int32_t add_rq(int32_t x, int32_t m, int32_t shift);

bbrt_status_t bbrt_k_gap_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[1], y;
    uint32_t c, i, hw;
    TN(0); TOUT;
    hw = t[0].count / y.count;
    for (c = 0; c < y.count; c++) {
        const int8_t *xp = (const int8_t *)t[0].data + (size_t)c * hw;
        int32_t s = 0;
        for (i = 0; i < hw; i++) s += (int32_t)xp[i] - t[0].zero_point;
        if (op->p[0] == 1) /* TFLite's int8 MEAN: one multiplier with 1/hw folded in (QuantizedMeanOrSum) */
            ((int8_t *)y.data)[c] = sat8(add_rq(s, op->p[1], op->p[2]) + y.zero_point, -128, 127);
        else
            ((int8_t *)y.data)[c] = quant8((float)s * t[0].scale / (float)hw, y.scale, y.zero_point);
    }
    return BBRT_OK;
}

/* ------------------------------------------------------------ elementwise */
/* numpy broadcasting: walk the output, keep input offsets via strides */
typedef struct {
    uint32_t rank, dims[BBRT_MAX_RANK], sa[BBRT_MAX_RANK], sb[BBRT_MAX_RANK];
} bcast_t;

static void bstrides(const bbrt_tensor_t *t, const bbrt_tensor_t *y, uint32_t *st) {
    uint32_t i, s = 1u, off = y->rank - t->rank;
    for (i = y->rank; i-- > 0u;) {
        if (i < off) { st[i] = 0u; continue; }
        st[i] = (t->dims[i - off] == 1u) ? 0u : s;
        s *= t->dims[i - off];
    }
}

typedef void (*bin_fn)(const bbrt_op_t *op, const bbrt_tensor_t *a, const bbrt_tensor_t *b,
                       bbrt_tensor_t *y, uint32_t ia, uint32_t ib, uint32_t iy, uint32_t n, uint32_t sa,
                       uint32_t sb);

static void bin_walk(const bbrt_op_t *op, const bbrt_tensor_t *a, const bbrt_tensor_t *b, bbrt_tensor_t *y,
                     bin_fn fn) {
    bcast_t c;
    uint32_t idx[BBRT_MAX_RANK] = {0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u};
    uint32_t r = y->rank, inner, outer, o, ia = 0u, ib = 0u, k;
    if (y->count == 0u) return;
    if (r == 0u) {
        fn(op, a, b, y, 0u, 0u, 0u, 1u, 0u, 0u);
        return;
    }
    c.rank = r;
    bstrides(a, y, c.sa);
    bstrides(b, y, c.sb);
    inner = y->dims[r - 1u];
    outer = y->count / inner;
    for (o = 0; o < outer; o++) {
        fn(op, a, b, y, ia, ib, o * inner, inner, c.sa[r - 1u], c.sb[r - 1u]);
        /* advance the odometer over dims [0, r-1) */
        for (k = r - 1u; k-- > 0u;) {
            idx[k]++;
            ia += c.sa[k];
            ib += c.sb[k];
            if (idx[k] < y->dims[k]) break;
            ia -= c.sa[k] * idx[k];
            ib -= c.sb[k] * idx[k];
            idx[k] = 0u;
        }
    }
}

static void add_f32_run(const bbrt_op_t *op, const bbrt_tensor_t *a, const bbrt_tensor_t *b, bbrt_tensor_t *y,
                        uint32_t ia, uint32_t ib, uint32_t iy, uint32_t n, uint32_t sa, uint32_t sb) {
    const float *pa = (const float *)(const void *)a->data + ia, *pb = (const float *)(const void *)b->data + ib;
    float *py = (float *)(void *)y->data + iy;
    float lo = bbrt_i2f(op->p[0]), hi = bbrt_i2f(op->p[1]);
    uint32_t i;
    for (i = 0; i < n; i++) py[i] = fclamp(pa[i * sa] + pb[i * sb], lo, hi);
}

static void mul_f32_run(const bbrt_op_t *op, const bbrt_tensor_t *a, const bbrt_tensor_t *b, bbrt_tensor_t *y,
                        uint32_t ia, uint32_t ib, uint32_t iy, uint32_t n, uint32_t sa, uint32_t sb) {
    const float *pa = (const float *)(const void *)a->data + ia, *pb = (const float *)(const void *)b->data + ib;
    float *py = (float *)(void *)y->data + iy;
    float lo = bbrt_i2f(op->p[0]), hi = bbrt_i2f(op->p[1]);
    uint32_t i;
    for (i = 0; i < n; i++) py[i] = fclamp(pa[i * sa] * pb[i * sb], lo, hi);
}

/* ADD_I8's three requantizations are TFLite's MultiplyByQuantizedMultiplierSmallerThanOneExp (its int8
 * ADD, reference kernels, TFLM and CMSIS-NN alike): a rounding doubling high multiply
 * h = floor((x * m + 2^30) / 2^31) (gemmlowp's SaturatingRoundingDoublingHighMul, whose nudge makes it
 * round half up for either sign), then RoundingDivideByPOT(h, e), e = -shift: half away from zero, i.e.
 * (h + 2^(e-1) - [h < 0]) >> e. Two roundings, not mbqm's one: they differ by one on some elements
 * (a negative half, or a first rounding that crosses the second's half). A positive shift multiplies x
 * by 2^shift first (TFLite's MultiplyByQuantizedMultiplier). */
static int32_t add_rq(int32_t x, int32_t m, int32_t shift) {
    int64_t v = (int64_t)x, h;
    int32_t e = shift < 0 ? (shift < -31 ? 31 : -shift) : 0;
    if (shift > 0) v *= (int64_t)1 << (shift > 30 ? 30 : shift);
    if (v > 2147483647) v = 2147483647; /* TFLite multiplies in int32 */
    if (v < -2147483647 - 1) v = -2147483647 - 1;
    h = (v * (int64_t)m + ((int64_t)1 << 30)) >> 31;
    if (h > 2147483647) h = 2147483647;
    if (e == 0) return (int32_t)h;
    return (int32_t)((h + ((int64_t)1 << (e - 1)) - (h < 0)) >> e);
}

/* The fast form (add_rq_t.fast: m >= 0, shift in [-31, 0], |x| < 2^30): the high multiply as one SMLAL
 * of 2x, hi word ((2x * m + 2^31) >> 32 = h), then (h + r2 + (h >> 31 & nm)) >> e with r2 = 2^(e-1) and
 * nm = -1 when e > 0 (r2 = nm = 0 when e = 0). An input's x = d * 2^ls (|d| <= 255, ls <= 20) fits. */
#define BBRT_ADD_CHUNK 64u /* elements per pass of the same-shape loop (int32 each, stack) */
typedef struct {
    int32_t m, shift, e, r2, nm, fast;
} add_rq_t;
typedef struct {
    add_rq_t qa, qb, qy;
    int32_t ls, za, zb, zy, lo, hi, fast;
} add_i8_t;

static void add_rq_init(add_rq_t *q, int32_t m, int32_t shift) {
    q->m = m;
    q->shift = shift;
    q->fast = m >= 0 && shift <= 0 && shift >= -31;
    q->e = q->fast ? -shift : 0;
    q->r2 = q->e > 0 ? (int32_t)(1u << (q->e - 1)) : 0;
    q->nm = q->e > 0 ? -1 : 0;
}

/* the fast form of add_rq(x2 / 2, m, shift), x2 = 2x, with the zero point folded into kc: kc = 2^31 - 2z * f * m */
static inline int32_t add_rq_fast(int32_t x2, int32_t m, int64_t kc, int32_t e, int32_t r2, int32_t nm) {
    int32_t h = (int32_t)(((int64_t)x2 * m + kc) >> 32);
    return (h + r2 + ((h >> 31) & nm)) >> e;
}

static void add_i8_init(const bbrt_op_t *op, const bbrt_tensor_t *a, const bbrt_tensor_t *b, const bbrt_tensor_t *y,
                        add_i8_t *k) {
    add_rq_init(&k->qa, op->p[1], op->p[2]);
    add_rq_init(&k->qb, op->p[3], op->p[4]);
    add_rq_init(&k->qy, op->p[5], op->p[6]);
    k->ls = op->p[0];
    k->za = a->zero_point;
    k->zb = b->zero_point;
    k->zy = y->zero_point;
    k->lo = op->p[7];
    k->hi = op->p[8];
    /* |d| <= 255: d * 2^(ls + 1) < 2^29; each term |t| <= |d| * 2^ls < 2^28, 2 * (the sum) < 2^30 fits */
    k->fast = k->qa.fast && k->qb.fast && k->qy.fast && k->ls <= 20 && k->za >= -128 && k->za <= 127 &&
              k->zb >= -128 && k->zb <= 127;
}

#if defined(BBRT_KERNELS_MVE)
#include "mve/bbrt_add_mve.h" /* mve_add_i8 */
#endif

/* t[i] (+)= add_rq_fast(x[i] * f, ...) for i < n: one input's term, its zero point in kc */
BBRT_NOINLINE static void add_term(int32_t *BBRT_RESTRICT t, const int8_t *x, uint32_t n, int32_t f,
                                   const add_rq_t *q, int64_t kc, int acc) {
    const int32_t m = q->m, e = q->e, r2 = q->r2, nm = q->nm;
    uint32_t i;
    if (acc)
        for (i = 0; i < n; i++) t[i] += add_rq_fast((int32_t)x[i] * f, m, kc, e, r2, nm);
    else
        for (i = 0; i < n; i++) t[i] = add_rq_fast((int32_t)x[i] * f, m, kc, e, r2, nm);
}

/* An input's term add_rq_fast(x * f, ...) depends on its int8 x alone: on long same-shape runs both
 * terms come from 256-entry tables (the same integers, computed once per run), leaving the output's
 * requantization per element. */
#define BBRT_ADD_LUT_MIN 1024u /* elements from which the tables (2 KiB of stack) pay for themselves */
BBRT_NOINLINE static void add_i8_lut(const add_i8_t *k, const int8_t *pa, const int8_t *pb, int8_t *py, uint32_t n,
                                     int64_t ca, int64_t cb) {
    const add_rq_t *qa = &k->qa, *qb = &k->qb, *qy = &k->qy;
    const int32_t f = 1 << (k->ls + 1), zy = k->zy, lo = k->lo, hi = k->hi;
    const int32_t m = qy->m, e = qy->e, r2 = qy->r2, nm = qy->nm;
    const int64_t rnd = (int64_t)1 << 31;
    int32_t ta[256], tb[256], x; /* 2 * the term of x + 128 */
    const int32_t *tac = ta + 128, *tbc = tb + 128;
    const int8_t *end = pa + n;
    for (x = -128; x < 128; x++) {
        ta[x + 128] = 2 * add_rq_fast(x * f, qa->m, ca, qa->e, qa->r2, qa->nm);
        tb[x + 128] = 2 * add_rq_fast(x * f, qb->m, cb, qb->e, qb->r2, qb->nm);
    }
    /* element i of a and b is read before y[i] is written (in place) */
#if defined(BBRT_KERNELS_DSP)
    if (lo == -128 && hi == 127 && e > 0) { /* SMMULR is the hi word with + 2^31; SSAT the clamp */
        for (; pa != end; pa++, pb++, py++) {
            const int32_t h = dsp_smmulr(tac[*pa] + tbc[*pb], m);
            *py = (int8_t)dw_ssat8(((h + r2 + (h >> 31)) >> e) + zy);
        }
        return;
    }
#endif
    for (; pa != end; pa++, pb++, py++) {
        int32_t v = add_rq_fast(tac[*pa] + tbc[*pb], m, rnd, e, r2, nm) + zy;
        *py = (int8_t)(v < lo ? lo : (v > hi ? hi : v));
    }
}

/* y[i] = a[i * sa] + b[i * sb] for i < n; y may be a or b (element i is read before it is written) */
static void add_i8_fast(const add_i8_t *k, const int8_t *pa, const int8_t *pb, int8_t *py, uint32_t n, uint32_t sa,
                        uint32_t sb) {
    const add_rq_t *qa = &k->qa, *qb = &k->qb, *qy = &k->qy;
    const int32_t f = 1 << (k->ls + 1), zy = k->zy, lo = k->lo, hi = k->hi;
    const int64_t rnd = (int64_t)1 << 31;
    /* (x - z) * f * m + 2^31 = x * f * m + (2^31 - z * f * m): the zero points in the rounding constants */
    const int64_t ca = rnd - (int64_t)(k->za * f) * qa->m, cb = rnd - (int64_t)(k->zb * f) * qb->m;
    uint32_t i;
    if (sb == 0u) { /* b broadcast along the run (a per-channel operand): its term once */
        const int32_t tb = add_rq_fast((int32_t)pb[0] * f, qb->m, cb, qb->e, qb->r2, qb->nm);
        for (i = 0; i < n; i++, pa += sa) {
            int32_t v = add_rq_fast(2 * (add_rq_fast((int32_t)*pa * f, qa->m, ca, qa->e, qa->r2, qa->nm) + tb),
                                    qy->m, rnd, qy->e, qy->r2, qy->nm) + zy;
            py[i] = (int8_t)(v < lo ? lo : (v > hi ? hi : v));
        }
        return;
    }
#if defined(BBRT_KERNELS_MVE)
    if (sa == 1u && sb == 1u && n >= BBRT_ADD_LUT_MIN) { /* same shape, long: tables, 4 lanes (mve/bbrt_add_mve.h) */
        mve_add_lut(k, pa, pb, py, n, ca, cb);
        return;
    }
    if (sa == 1u && sb == 1u) { /* same shape: 4 lanes per pass (mve/bbrt_add_mve.h) */
        mve_add_i8(qa, qb, qy, k->za, k->zb, f, zy, lo, hi, pa, pb, py, n);
        return;
    }
#endif
    if (sa == 1u && sb == 1u && n >= BBRT_ADD_LUT_MIN) { /* same shape, long: each input's term from a table */
        add_i8_lut(k, pa, pb, py, n, ca, cb);
        return;
    }
    if (sa == 1u && sb == 1u) { /* same shape: three passes over chunks, each with few live values */
        int32_t t[BBRT_ADD_CHUNK];
        uint32_t i0, c;
        for (i0 = 0; i0 < n; i0 += c, pa += c, pb += c, py += c) {
            c = n - i0 < BBRT_ADD_CHUNK ? n - i0 : BBRT_ADD_CHUNK;
            add_term(t, pa, c, f, qa, ca, 0);
            add_term(t, pb, c, f, qb, cb, 1);
            /* the chunk's inputs are all read: its outputs may now overwrite them (in place) */
            for (i = 0; i < c; i++) {
                int32_t v = add_rq_fast(2 * t[i], qy->m, rnd, qy->e, qy->r2, qy->nm) + zy;
                py[i] = (int8_t)(v < lo ? lo : (v > hi ? hi : v));
            }
        }
        return;
    }
    for (i = 0; i < n; i++, pa += sa, pb += sb) {
        int32_t s = add_rq_fast((int32_t)*pa * f, qa->m, ca, qa->e, qa->r2, qa->nm) +
                    add_rq_fast((int32_t)*pb * f, qb->m, cb, qb->e, qb->r2, qb->nm);
        int32_t v = add_rq_fast(2 * s, qy->m, rnd, qy->e, qy->r2, qy->nm) + zy;
        py[i] = (int8_t)(v < lo ? lo : (v > hi ? hi : v));
    }
}

static void add_i8_run(const bbrt_op_t *op, const bbrt_tensor_t *a, const bbrt_tensor_t *b, bbrt_tensor_t *y,
                       uint32_t ia, uint32_t ib, uint32_t iy, uint32_t n, uint32_t sa, uint32_t sb) {
    const int8_t *pa = (const int8_t *)a->data + ia, *pb = (const int8_t *)b->data + ib;
    int8_t *py = (int8_t *)y->data + iy;
    uint32_t i;
    add_i8_t k;
    add_i8_init(op, a, b, y, &k);
    if (k.fast && op->p[9] == 0) {
        if (sa == 0u && sb != 0u) { /* a + b = b + a: the same integers, operands swapped */
            add_i8_t s = k;
            s.qa = k.qb; s.qb = k.qa; s.za = k.zb; s.zb = k.za;
            add_i8_fast(&s, pb, pa, py, n, sb, sa);
        } else {
            add_i8_fast(&k, pa, pb, py, n, sa, sb);
        }
        return;
    }
    for (i = 0; i < n; i++) {
        int32_t va = ((int32_t)pa[i * sa] - k.za) * (1 << k.ls);
        int32_t vb = ((int32_t)pb[i * sb] - k.zb) * (1 << k.ls);
        int64_t rb = add_rq(vb, k.qb.m, k.qb.shift);
        /* p9 = 1: TFLite's int8 SUB (ADD's arithmetic, the second term subtracted) */
        int64_t s = (int64_t)add_rq(va, k.qa.m, k.qa.shift) + (op->p[9] == 1 ? -rb : rb);
        s = s > 2147483647 ? 2147483647 : (s < -2147483647 - 1 ? -2147483647 - 1 : s);
        py[i] = sat8(add_rq((int32_t)s, k.qy.m, k.qy.shift) + k.zy, k.lo, k.hi);
    }
}

static void mul_i8_run(const bbrt_op_t *op, const bbrt_tensor_t *a, const bbrt_tensor_t *b, bbrt_tensor_t *y,
                       uint32_t ia, uint32_t ib, uint32_t iy, uint32_t n, uint32_t sa, uint32_t sb) {
    const int8_t *pa = (const int8_t *)a->data + ia, *pb = (const int8_t *)b->data + ib;
    int8_t *py = (int8_t *)y->data + iy;
    uint32_t i;
    for (i = 0; i < n; i++) {
        int32_t p = ((int32_t)pa[i * sa] - a->zero_point) * ((int32_t)pb[i * sb] - b->zero_point);
        /* p4 = 1: TFLite's reference MUL (MultiplyByQuantizedMultiplier with two roundings, add_rq) */
        int32_t r = op->p[4] == 1 ? add_rq(p, op->p[0], op->p[1]) : mbqm(p, op->p[0], op->p[1]);
        py[i] = sat8(r + y->zero_point, op->p[2], op->p[3]);
    }
}

#define BINARY_KERNEL(name, fn)                                                   \
    bbrt_status_t name(const bbrt_program_t *pr, const bbrt_op_t *op) {           \
        bbrt_tensor_t t[2], y;                                                    \
        TN(0); TN(1); TOUT;                                                       \
        bin_walk(op, &t[0], &t[1], &y, fn);                                       \
        return BBRT_OK;                                                           \
    }
BINARY_KERNEL(bbrt_k_add_f32, add_f32_run)
BINARY_KERNEL(bbrt_k_mul_f32, mul_f32_run)
BINARY_KERNEL(bbrt_k_mul_i8, mul_i8_run)

/* ADD_I8: operands of the output's shape run as one flat loop (no index walk) */
bbrt_status_t bbrt_k_add_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[2], y;
    TN(0); TN(1); TOUT;
    if (t[0].count == y.count && t[1].count == y.count && y.count > 0u)
        add_i8_run(op, &t[0], &t[1], &y, 0u, 0u, 0u, y.count, 1u, 1u);
    else
        bin_walk(op, &t[0], &t[1], &y, add_i8_run);
    return BBRT_OK;
}

#define UNARY_F32(name, expr)                                                     \
    bbrt_status_t name(const bbrt_program_t *pr, const bbrt_op_t *op) {           \
        bbrt_tensor_t t[1], y;                                                    \
        uint32_t i;                                                               \
        const float *x;                                                           \
        float *o;                                                                 \
        TN(0); TOUT;                                                              \
        x = (const float *)(const void *)t[0].data;                               \
        o = (float *)(void *)y.data;                                              \
        for (i = 0; i < y.count; i++) {                                           \
            float v = x[i];                                                       \
            o[i] = (expr);                                                        \
        }                                                                         \
        return BBRT_OK;                                                           \
    }
UNARY_F32(bbrt_k_relu_f32, v > 0.0f ? v : 0.0f)
UNARY_F32(bbrt_k_clip_f32, fclamp(v, bbrt_i2f(op->p[0]), bbrt_i2f(op->p[1])))
UNARY_F32(bbrt_k_sigmoid_f32, 1.0f / (1.0f + bbrt_expf(-v)))
UNARY_F32(bbrt_k_tanh_f32, bbrt_tanhf(v))

bbrt_status_t bbrt_k_lut_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[2], y;
    uint32_t i;
    const int8_t *x, *lut;
    TN(0); TN(1); TOUT;
    x = (const int8_t *)t[0].data;
    lut = (const int8_t *)t[1].data;
    for (i = 0; i < y.count; i++) ((int8_t *)y.data)[i] = lut[(int32_t)x[i] + 128];
    return BBRT_OK;
}

bbrt_status_t bbrt_k_softmax_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[1], y;
    uint32_t r, i, n, rows;
    TN(0); TOUT;
    n = t[0].dims[t[0].rank - 1u];
    rows = t[0].count / n;
    for (r = 0; r < rows; r++) {
        const float *x = (const float *)(const void *)t[0].data + (size_t)r * n;
        float *o = (float *)(void *)y.data + (size_t)r * n;
        float m = x[0], s = 0.0f;
        for (i = 1; i < n; i++)
            if (x[i] > m) m = x[i];
        for (i = 0; i < n; i++) {
            o[i] = bbrt_expf(x[i] - m);
            s += o[i];
        }
        for (i = 0; i < n; i++) o[i] /= s;
    }
    return BBRT_OK;
}

bbrt_status_t bbrt_k_softmax_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[2], y;
    uint32_t r, i, n, rows;
    TN(0); TOUT;
    if (op->n_in == 2u) TN(1);
    n = t[0].dims[t[0].rank - 1u];
    rows = t[0].count / n;
    for (r = 0; r < rows; r++) {
        const int8_t *x = (const int8_t *)t[0].data + (size_t)r * n;
        int8_t *o = (int8_t *)y.data + (size_t)r * n;
        int8_t m = x[0];
        float s = 0.0f;
        for (i = 1; i < n; i++)
            if (x[i] > m) m = x[i];
        if (op->n_in == 2u) { /* TFLite: table[255 - d] = expf(-scale_x * d), sum, scale by 1 / (sum * scale_y) */
            const float *tab = (const float *)(const void *)t[1].data + 255 - m, *tb;
            float inv;
            for (i = 0; i < n; i++) s += tab[x[i]];
            inv = 1.0f / (s * y.scale);
            for (i = 0; i < n; i++) {
                tb = tab + x[i];
                o[i] = sat8(bbrt_roundf_even(*tb * inv) + y.zero_point, -128, 127);
            }
            continue;
        }
        for (i = 0; i < n; i++) s += bbrt_expf((float)((int32_t)x[i] - m) * t[0].scale);
        for (i = 0; i < n; i++)
            o[i] = quant8(bbrt_expf((float)((int32_t)x[i] - m) * t[0].scale) / s, y.scale, y.zero_point);
    }
    return BBRT_OK;
}

/* -------------------------------------------------------- data movement */
bbrt_status_t bbrt_k_copy(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[1], y;
    TN(0); TOUT;
    if (y.data != t[0].data) bbrt_memcpy(y.data, t[0].data, y.nbytes);
    return BBRT_OK;
}

bbrt_status_t bbrt_k_concat(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    uint32_t axis = (uint32_t)op->p[0], k, i, outer = 1u, inner = 1u, isz, off = 0u, o;
    TOUT;
    isz = bbrt_dtype_size(y.dtype);
    for (k = 0; k < axis; k++) outer *= y.dims[k];
    for (k = axis + 1u; k < y.rank; k++) inner *= y.dims[k];
    for (i = 0; i < op->n_in; i++) {
        uint32_t chunk;
        int same;
        bbrt_program_tensor(pr, op->in[i], &x);
        chunk = x.dims[axis] * inner;
        same = (y.dtype != BBRT_DT_INT8) || (x.scale == y.scale && x.zero_point == y.zero_point);
        for (o = 0; o < outer; o++) {
            const uint8_t *src = x.data + (size_t)o * chunk * isz;
            uint8_t *dst = y.data + ((size_t)o * y.dims[axis] * inner + off) * isz;
            if (same) {
                bbrt_memcpy(dst, src, (size_t)chunk * isz);
            } else {
                uint32_t j;
                for (j = 0; j < chunk; j++)
                    ((int8_t *)dst)[j] =
                        quant8((float)((int32_t)((const int8_t *)src)[j] - x.zero_point) * x.scale, y.scale,
                               y.zero_point);
            }
        }
        off += chunk;
    }
    return BBRT_OK;
}

bbrt_status_t bbrt_k_quantize(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[1], y;
    uint32_t i;
    TN(0); TOUT;
    for (i = 0; i < y.count; i++)
        ((int8_t *)y.data)[i] = quant8(((const float *)(const void *)t[0].data)[i], y.scale, y.zero_point);
    return BBRT_OK;
}

bbrt_status_t bbrt_k_dequantize(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[1], y;
    uint32_t i;
    TN(0); TOUT;
    for (i = 0; i < y.count; i++)
        ((float *)(void *)y.data)[i] =
            (float)((int32_t)((const int8_t *)t[0].data)[i] - t[0].zero_point) * t[0].scale;
    return BBRT_OK;
}

bbrt_status_t bbrt_k_matmul_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[2], y;
    uint32_t m, k, n, ba, bb, bi, i, j, l;
    TN(0); TN(1); TOUT;
    m = t[0].dims[t[0].rank - 2u];
    k = t[0].dims[t[0].rank - 1u];
    n = t[1].dims[t[1].rank - 1u];
    ba = t[0].count / (m * k);
    bb = t[1].count / (k * n);
    for (bi = 0; bi < ba; bi++) {
        const float *A = (const float *)(const void *)t[0].data + (size_t)bi * m * k;
        const float *B = (const float *)(const void *)t[1].data + (size_t)(bb == 1u ? 0u : bi) * k * n;
        float *Y = (float *)(void *)y.data + (size_t)bi * m * n;
        for (i = 0; i < m; i++)
            for (j = 0; j < n; j++) {
                float acc = 0.0f;
                for (l = 0; l < k; l++) acc += A[i * k + l] * B[l * n + j];
                Y[i * n + j] = acc;
            }
    }
    return BBRT_OK;
}

/* ------------------------------------------------------- data movement (any dtype: 1, 2 or 4 bytes) */
static void move_elem(uint8_t *dst, const uint8_t *src, uint32_t size) {
    uint32_t i;
    for (i = 0; i < size; i++) dst[i] = src[i];
}

/* TRANSPOSE: walk the output in order; the input offset follows an odometer over the output's dims,
 * stepping by the input stride of the axis each output axis reads */
bbrt_status_t bbrt_k_transpose(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[1], y;
    uint32_t xs[BBRT_MOVE_MAX_RANK], st[BBRT_MOVE_MAX_RANK], idx[BBRT_MOVE_MAX_RANK];
    uint32_t r, k, o, ix = 0u, size;
    TN(0); TOUT;
    r = y.rank;
    size = bbrt_dtype_size(y.dtype);
    xs[r - 1u] = 1u;
    for (k = r - 1u; k-- > 0u;) xs[k] = xs[k + 1u] * t[0].dims[k + 1u];
    for (k = 0; k < r; k++) {
        st[k] = xs[op->p[k]];
        idx[k] = 0u;
    }
    for (o = 0; o < y.count; o++) {
        move_elem(y.data + (size_t)o * size, t[0].data + (size_t)ix * size, size);
        for (k = r; k-- > 0u;) {
            idx[k]++;
            ix += st[k];
            if (idx[k] < y.dims[k]) break;
            ix -= st[k] * idx[k];
            idx[k] = 0u;
        }
    }
    return BBRT_OK;
}

/* GATHER_AXES: Pad (constant), Resize (nearest) and Gather with constant indices, as one index table
 * per axis (checked by the loader: every entry in [-1, x.dims[k])) */
bbrt_status_t bbrt_k_gather_axes(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[2], y;
    uint32_t xs[BBRT_MOVE_MAX_RANK], idx[BBRT_MOVE_MAX_RANK];
    const int32_t *tab[BBRT_MOVE_MAX_RANK];
    uint32_t r, k, o, size;
    uint8_t fill[4];
    TN(0); TN(1); TOUT;
    r = y.rank;
    size = bbrt_dtype_size(y.dtype);
    bbrt_wr_u32(fill, (uint32_t)op->p[0]); /* float bits, or the int8 value in the first byte */
    xs[r - 1u] = 1u;
    for (k = r - 1u; k-- > 0u;) xs[k] = xs[k + 1u] * t[0].dims[k + 1u];
    tab[0] = (const int32_t *)(const void *)t[1].data;
    for (k = 1; k < r; k++) tab[k] = tab[k - 1u] + y.dims[k - 1u];
    for (k = 0; k < r; k++) idx[k] = 0u;
    for (o = 0; o < y.count; o++) {
        uint32_t ix = 0u;
        int pad = 0;
        for (k = 0; k < r; k++) {
            int32_t v = tab[k][idx[k]];
            if (v < 0) pad = 1;
            else ix += (uint32_t)v * xs[k];
        }
        move_elem(y.data + (size_t)o * size, pad ? fill : t[0].data + (size_t)ix * size, size);
        for (k = r; k-- > 0u;) {
            if (++idx[k] < y.dims[k]) break;
            idx[k] = 0u;
        }
    }
    return BBRT_OK;
}

/* ------------------------------------------------------- more activations (float32) */
UNARY_F32(bbrt_k_elu_f32, v > 0.0f ? v : bbrt_i2f(op->p[0]) * (bbrt_expf(v) - 1.0f))
UNARY_F32(bbrt_k_leakyrelu_f32, v >= 0.0f ? v : bbrt_i2f(op->p[0]) * v)

static void prelu_f32_run(const bbrt_op_t *op, const bbrt_tensor_t *a, const bbrt_tensor_t *b, bbrt_tensor_t *y,
                          uint32_t ia, uint32_t ib, uint32_t iy, uint32_t n, uint32_t sa, uint32_t sb) {
    const float *pa = (const float *)(const void *)a->data + ia, *pb = (const float *)(const void *)b->data + ib;
    float *py = (float *)(void *)y->data + iy;
    uint32_t i;
    (void)op;
    for (i = 0; i < n; i++) {
        float v = pa[i * sa];
        py[i] = v < 0.0f ? v * pb[i * sb] : v;
    }
}
BINARY_KERNEL(bbrt_k_prelu_f32, prelu_f32_run)

/* ------------------------------------------------------- LSTM / GRU (float32, ONNX gate order) */
static float sigmoidf_(float v) { return 1.0f / (1.0f + bbrt_expf(-v)); }

/* out[j] = bias[j] + sum_k m[j][k] * v[k] for j < rows (m row-major [rows, n]) */
static void matvec_add(float *out, const float *m, const float *v, const float *bias, uint32_t rows, uint32_t n) {
    uint32_t j, k;
    for (j = 0; j < rows; j++) {
        const float *row = m + (size_t)j * n;
        float acc = 0.0f;
        for (k = 0; k < n; k++) acc += row[k] * v[k];
        out[j] = acc + bias[j];
    }
}

typedef struct {
    bbrt_tensor_t x, w, r, b, h0, c0, s, y;
    uint32_t T, B, I, H, D, G;
} rnn_t;

static void rnn_tensors(const bbrt_program_t *pr, const bbrt_op_t *op, rnn_t *n, uint32_t g) {
    bbrt_program_tensor(pr, op->in[0], &n->x);
    bbrt_program_tensor(pr, op->in[1], &n->w);
    bbrt_program_tensor(pr, op->in[2], &n->r);
    bbrt_program_tensor(pr, op->in[3], &n->b);
    bbrt_program_tensor(pr, op->in[4], &n->h0);
    if (g == 4u) bbrt_program_tensor(pr, op->in[5], &n->c0);
    bbrt_program_tensor(pr, op->in[g == 4u ? 6u : 5u], &n->s);
    bbrt_program_tensor(pr, op->out[0], &n->y);
    n->T = n->x.dims[0];
    n->B = n->x.dims[1];
    n->I = n->x.dims[2];
    n->G = g;
    n->H = n->w.dims[1] / g;
    n->D = n->w.dims[0];
}

/* one direction d of one batch row b; writes Y rows (mode 0) or the final state (modes 1, 2) */
static void rnn_run(const bbrt_op_t *op, const rnn_t *n, uint32_t d, uint32_t bi) {
    uint32_t H = n->H, G = n->G, I = n->I, j, step;
    int reverse = op->p[0] == 1 || (op->p[0] == 2 && d == 1u);
    const float *W = (const float *)(const void *)n->w.data + (size_t)d * G * H * I;
    const float *R = (const float *)(const void *)n->r.data + (size_t)d * G * H * H;
    const float *Wb = (const float *)(const void *)n->b.data + (size_t)d * 2u * G * H;
    const float *Rb = Wb + G * H;
    float *h = (float *)(void *)n->s.data, *c = h + H, *g = c + H; /* g: 4H floats */
    const float *h0 = (const float *)(const void *)n->h0.data + ((size_t)d * n->B + bi) * H;
    for (j = 0; j < H; j++) h[j] = h0[j];
    if (G == 4u) {
        const float *c0 = (const float *)(const void *)n->c0.data + ((size_t)d * n->B + bi) * H;
        for (j = 0; j < H; j++) c[j] = c0[j];
    }
    for (step = 0; step < n->T; step++) {
        uint32_t t = reverse ? n->T - 1u - step : step;
        const float *xt = (const float *)(const void *)n->x.data + ((size_t)t * n->B + bi) * I;
        if (G == 4u) { /* gates i, o, f, c */
            matvec_add(g, W, xt, Wb, 4u * H, I);
            for (j = 0; j < 4u * H; j++) g[j] += Rb[j];
            for (j = 0; j < 4u * H; j++) {
                const float *row = R + (size_t)j * H;
                float acc = 0.0f;
                uint32_t k;
                for (k = 0; k < H; k++) acc += row[k] * h[k];
                g[j] += acc;
            }
            for (j = 0; j < H; j++) {
                float ig = sigmoidf_(g[j]), og = sigmoidf_(g[H + j]), fg = sigmoidf_(g[2u * H + j]);
                float cc = bbrt_tanhf(g[3u * H + j]);
                c[j] = fg * c[j] + ig * cc;
                h[j] = og * bbrt_tanhf(c[j]);
            }
        } else { /* gates z, r, h; g: [0, 3H) W x + Wb, [3H, 4H) R_h h + Rb_h (linear_before_reset) */
            matvec_add(g, W, xt, Wb, 3u * H, I);
            for (j = 0; j < 2u * H; j++) {
                const float *row = R + (size_t)j * H;
                float acc = 0.0f;
                uint32_t k;
                for (k = 0; k < H; k++) acc += row[k] * h[k];
                g[j] = sigmoidf_(g[j] + acc + Rb[j]);
            }
            if (op->p[2]) {
                matvec_add(g + 3u * H, R + (size_t)2u * H * H, h, Rb + 2u * H, H, H);
                for (j = 0; j < H; j++) g[2u * H + j] = bbrt_tanhf(g[2u * H + j] + g[H + j] * g[3u * H + j]);
            } else {
                for (j = 0; j < H; j++) c[j] = g[H + j] * h[j]; /* r . h (c is free in a GRU) */
                matvec_add(g + 3u * H, R + (size_t)2u * H * H, c, Rb + 2u * H, H, H);
                for (j = 0; j < H; j++) g[2u * H + j] = bbrt_tanhf(g[2u * H + j] + g[3u * H + j]);
            }
            for (j = 0; j < H; j++) h[j] = (1.0f - g[j]) * g[2u * H + j] + g[j] * h[j];
        }
        if (op->p[1] == 0) {
            float *yt = (float *)(void *)n->y.data + (((size_t)t * n->D + d) * n->B + bi) * H;
            for (j = 0; j < H; j++) yt[j] = h[j];
        }
    }
    if (op->p[1] != 0) {
        float *yo = (float *)(void *)n->y.data + ((size_t)d * n->B + bi) * H;
        const float *src = op->p[1] == 1 ? h : c;
        for (j = 0; j < H; j++) yo[j] = src[j];
    }
}

static bbrt_status_t rnn_kernel(const bbrt_program_t *pr, const bbrt_op_t *op, uint32_t g) {
    rnn_t n;
    uint32_t d, b;
    rnn_tensors(pr, op, &n, g);
    for (d = 0; d < n.D; d++)
        for (b = 0; b < n.B; b++) rnn_run(op, &n, d, b);
    return BBRT_OK;
}

bbrt_status_t bbrt_k_lstm_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return rnn_kernel(pr, op, 4u);
}

bbrt_status_t bbrt_k_gru_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return rnn_kernel(pr, op, 3u);
}

/* ------------------------------------------------------- Gather with run-time indices */
/* Index j of an INT32 or INT64 index tensor, as int64 (both little-endian, 8-aligned by the loader) */
static int64_t gather_index(const bbrt_tensor_t *ind, uint32_t j) {
    if (ind->dtype == BBRT_DT_INT64) return ((const int64_t *)(const void *)ind->data)[j];
    return (int64_t)((const int32_t *)(const void *)ind->data)[j];
}

/* GATHER: y = take(x, indices, axis p0) (ONNX Gather). The indices arrive at run time (a graph input, an
 * edge): every one is checked first (negative ones count from the end), so an out-of-range index returns
 * BBRT_E_RUN_INDEX before anything is read or written. Shapes and dtypes: bbrt_c_gather. */
bbrt_status_t bbrt_k_gather(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[2], y;
    uint32_t axis = (uint32_t)op->p[0], k, j, o, outer = 1u, n, inner;
    TN(0); TN(1); TOUT;
    n = t[0].dims[axis];
    inner = bbrt_dtype_size(t[0].dtype);
    for (k = 0; k < axis; k++) outer *= t[0].dims[k];
    for (k = axis + 1u; k < t[0].rank; k++) inner *= t[0].dims[k];
    for (j = 0; j < t[1].count; j++) {
        int64_t v = gather_index(&t[1], j);
        if (v < 0) v += (int64_t)n;
        if (v < 0 || v >= (int64_t)n) return BBRT_E_RUN_INDEX;
    }
    for (o = 0; o < outer; o++)
        for (j = 0; j < t[1].count; j++) {
            int64_t v = gather_index(&t[1], j);
            uint32_t row = (uint32_t)(v < 0 ? v + (int64_t)n : v);
            bbrt_memcpy(y.data + ((size_t)o * t[1].count + j) * inner,
                        t[0].data + ((size_t)o * n + row) * inner, inner);
        }
    return BBRT_OK;
}

/* ------------------------------------------------------- int8 kernels of TFLite builtins */
/* MAXIMUM / MINIMUM (p0 = 0 / 1): TFLite's int8 kernels compare the raw bytes (A, B and Y share one scale
 * and zero point, bbrt_c_maxmin_i8), with numpy broadcasting */
static void maxmin_i8_run(const bbrt_op_t *op, const bbrt_tensor_t *a, const bbrt_tensor_t *b, bbrt_tensor_t *y,
                          uint32_t ia, uint32_t ib, uint32_t iy, uint32_t n, uint32_t sa, uint32_t sb) {
    const int8_t *pa = (const int8_t *)a->data + ia, *pb = (const int8_t *)b->data + ib;
    int8_t *py = (int8_t *)y->data + iy;
    uint32_t i;
    if (op->p[0] == 0) {
        for (i = 0; i < n; i++) py[i] = pa[i * sa] > pb[i * sb] ? pa[i * sa] : pb[i * sb];
    } else {
        for (i = 0; i < n; i++) py[i] = pa[i * sa] < pb[i * sb] ? pa[i * sa] : pb[i * sb];
    }
}
BINARY_KERNEL(bbrt_k_maxmin_i8, maxmin_i8_run)

/* PRELU_I8: TFLite's int8 PRELU (reference_ops::BroadcastPrelu4DSlow): d = x - zx; d >= 0:
 * MultiplyByQuantizedMultiplier(d, p0, p1), else MultiplyByQuantizedMultiplier(d * (alpha - za), p2, p3)
 * (both two roundings, add_rq); + zy, saturated. Alpha broadcasts to X (a per-channel slope). */
static void prelu_i8_run(const bbrt_op_t *op, const bbrt_tensor_t *a, const bbrt_tensor_t *b, bbrt_tensor_t *y,
                         uint32_t ia, uint32_t ib, uint32_t iy, uint32_t n, uint32_t sa, uint32_t sb) {
    const int8_t *pa = (const int8_t *)a->data + ia, *pb = (const int8_t *)b->data + ib;
    int8_t *py = (int8_t *)y->data + iy;
    uint32_t i;
    for (i = 0; i < n; i++) {
        int32_t d = (int32_t)pa[i * sa] - a->zero_point, r;
        if (d >= 0)
            r = add_rq(d, op->p[0], op->p[1]);
        else
            r = add_rq(d * ((int32_t)pb[i * sb] - b->zero_point), op->p[2], op->p[3]); /* |d * alpha| <= 2^16 */
        py[i] = sat8(r + y->zero_point, -128, 127);
    }
}
BINARY_KERNEL(bbrt_k_prelu_i8, prelu_i8_run)

/* RESIZE_BILINEAR_I8: TFLite's ResizeBilinearInteger on NCHW. The lowering computes TFLite's 10-bit source
 * coordinates (align_corners, half_pixel_centers) into a table: per output row (y0, y1, wy0, wy1), then per
 * output column (x0, x1, wx0, wx1), weights in 1/1024; y = (sum x * wy * wx + sign * 2^19) / 2^20 (C's
 * division: rounded half away from zero), as the reference kernel rounds. Entries checked by the loader. */
bbrt_status_t bbrt_k_resize_bilinear_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[2], y;
    const int32_t *rows, *cols;
    uint32_t nc, plane, H, W, OH, OW, k, oy, ox;
    TN(0); TN(1); TOUT;
    H = t[0].dims[2];
    W = t[0].dims[3];
    OH = y.dims[2];
    OW = y.dims[3];
    nc = y.dims[0] * y.dims[1];
    plane = H * W;
    rows = (const int32_t *)(const void *)t[1].data;
    cols = rows + 4u * OH;
    (void)op;
    for (k = 0; k < nc; k++) {
        const int8_t *xp = (const int8_t *)t[0].data + (size_t)k * plane;
        int8_t *yp = (int8_t *)y.data + (size_t)k * OH * OW;
        for (oy = 0; oy < OH; oy++) {
            const int32_t *ry = rows + 4u * oy;
            const int8_t *r0 = xp + (uint32_t)ry[0] * W, *r1 = xp + (uint32_t)ry[1] * W;
            for (ox = 0; ox < OW; ox++) {
                const int32_t *cx = cols + 4u * ox;
                int64_t top = (int64_t)r0[cx[0]] * cx[2] + (int64_t)r0[cx[1]] * cx[3];
                int64_t bot = (int64_t)r1[cx[0]] * cx[2] + (int64_t)r1[cx[1]] * cx[3];
                int64_t v = top * ry[2] + bot * ry[3];
                v = (v + (v > 0 ? ((int64_t)1 << 19) : -((int64_t)1 << 19))) / ((int64_t)1 << 20);
                yp[oy * OW + ox] = sat8((int32_t)v, -128, 127);
            }
        }
    }
    return BBRT_OK;
}

/* BATCH_MATMUL_I8: TFLite's int8 BATCH_MATMUL (reference_ops::BatchMatMul): per batch, Y[i][j] =
 * sat8(MultiplyByQuantizedMultiplier(sum_k (A[i][k] - za)(B[k][j] - zb), p0, p1) + zy) clamped to [p2, p3],
 * two roundings (add_rq). A, B and Y have one rank; the batch dims broadcast (a 1 repeats). The loader
 * bounds K by 32768, so the int32 sum of products |255 * 255| cannot overflow. */
bbrt_status_t bbrt_k_batch_matmul_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[2], y;
    uint32_t r, M, K, N, k, nb = 1u, bi, i, j, q;
    uint32_t idx[BBRT_MAX_RANK], sa[BBRT_MAX_RANK], sb[BBRT_MAX_RANK], oa = 0u, ob = 0u, stA = 1u, stB = 1u;
    TN(0); TN(1); TOUT;
    r = y.rank;
    M = y.dims[r - 2u];
    N = y.dims[r - 1u];
    K = t[0].dims[r - 1u];
    /* batch strides, in matrices: 0 where an operand's batch dim is 1 (broadcast) */
    for (k = r - 2u; k-- > 0u;) {
        sa[k] = t[0].dims[k] == 1u ? 0u : stA;
        sb[k] = t[1].dims[k] == 1u ? 0u : stB;
        stA *= t[0].dims[k];
        stB *= t[1].dims[k];
        idx[k] = 0u;
        nb *= y.dims[k];
    }
    for (bi = 0; bi < nb; bi++) {
        const int8_t *a = (const int8_t *)t[0].data + (size_t)oa * M * K;
        const int8_t *b = (const int8_t *)t[1].data + (size_t)ob * K * N;
        int8_t *o = (int8_t *)y.data + (size_t)bi * M * N;
        for (i = 0; i < M; i++)
            for (j = 0; j < N; j++) {
                int32_t acc = 0;
                for (q = 0; q < K; q++)
                    acc += ((int32_t)a[i * K + q] - t[0].zero_point) * ((int32_t)b[q * N + j] - t[1].zero_point);
                o[i * N + j] = sat8(add_rq(acc, op->p[0], op->p[1]) + y.zero_point, op->p[2], op->p[3]);
            }
        for (k = r - 2u; k-- > 0u;) { /* the odometer over the batch dims */
            idx[k]++;
            oa += sa[k];
            ob += sb[k];
            if (idx[k] < y.dims[k]) break;
            oa -= sa[k] * idx[k];
            ob -= sb[k] * idx[k];
            idx[k] = 0u;
        }
    }
    return BBRT_OK;
}

/* SVDF_I8: TFLite's int8 SVDF (reference_ops::EvalIntegerSVDF) for one step. X [B, I] int8, Wf [F, I] int8,
 * Wt [F, M] int16, bias [U] int32 (U = F / rank), S_in [B, F*M] int16 the previous state; outputs Y [B, U]
 * int8 and S_out (S_in's shape), the state this step leaves (the node keeps it as a STATE pair). Per filter
 * f, S_out's row is S_in's shifted left by one with the newest column sat16(MBQM(sum_i Wf[f][i] (X[i] - zx),
 * p0, p1)) last (TFLite shifts after the step and writes the column first: the same rows at the time dot).
 * Y[u] = sat8(MBQM(bias[u] + sum over u's rank filters of Wt[f] . S_out[f], p2, p3) + zy): TFLite's integer
 * kernel clamps to int8 only (its fused RELU lives in the output parameters). The time sums wrap as
 * TFLite's int32 sums do (unsigned arithmetic here: defined in C). */
bbrt_status_t bbrt_k_svdf_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[5], y, so;
    uint32_t B, I, F, M, U, R, b, f, i, k, u;
    TN(0); TN(1); TN(2); TN(3); TN(4); TOUT;
    bbrt_program_tensor(pr, op->out[1], &so);
    B = t[0].dims[0];
    I = t[0].dims[1];
    F = t[1].dims[0];
    M = t[2].dims[1];
    R = (uint32_t)op->p[4];
    U = F / R;
    for (b = 0; b < B; b++) {
        const int8_t *x = (const int8_t *)t[0].data + (size_t)b * I;
        const int16_t *s0 = (const int16_t *)(const void *)t[4].data + (size_t)b * F * M;
        int16_t *s1 = (int16_t *)(void *)so.data + (size_t)b * F * M;
        for (f = 0; f < F; f++) {
            const int8_t *w = (const int8_t *)t[1].data + (size_t)f * I;
            int32_t dot = 0, v;
            for (k = 0; k + 1u < M; k++) s1[f * M + k] = s0[f * M + k + 1u];
            for (i = 0; i < I; i++) dot += (int32_t)w[i] * ((int32_t)x[i] - t[0].zero_point);
            v = add_rq(dot, op->p[0], op->p[1]);
            s1[f * M + M - 1u] = (int16_t)(v < -32768 ? -32768 : (v > 32767 ? 32767 : v));
        }
        for (u = 0; u < U; u++) {
            uint32_t acc = (uint32_t)((const int32_t *)(const void *)t[3].data)[u];
            for (f = u * R; f < (u + 1u) * R; f++) {
                const int16_t *wt = (const int16_t *)(const void *)t[2].data + (size_t)f * M;
                for (k = 0; k < M; k++) acc += (uint32_t)((int32_t)wt[k] * (int32_t)s1[f * M + k]);
            }
            ((int8_t *)y.data)[b * U + u] = sat8(add_rq((int32_t)acc, op->p[2], op->p[3]) + y.zero_point, -128, 127);
        }
    }
    return BBRT_OK;
}

/* ------------------------------------------------ LSTM_I8: TFLite's integer LSTM (8x8->16) */
/* gemmlowp's int16 fixed-point arithmetic, as TFLite's integer LSTM runs it (PortableApplySigmoid and
 * PortableApplyTanh on FixedPoint<int16_t, N>): the same operations in the same order, int16 wrap-around
 * where gemmlowp's int16 adds and negations wrap, so every raw value equals TFLite's. */
static int32_t fx_w16(int32_t v) { /* int16 wrap-around (gemmlowp's non-saturating int16 add/sub/neg) */
    uint32_t u = (uint32_t)v & 0xFFFFu;
    return u & 0x8000u ? (int32_t)u - 65536 : (int32_t)u;
}

static int32_t fx_mul(int32_t a, int32_t b) { /* SaturatingRoundingDoublingHighMul, int16 */
    int32_t ab = a * b, q;
    if (a == -32768 && b == -32768) return 32767;
    q = ab >= 0 ? (ab + 16384) / 32768 : (ab + 1 - 16384) / 32768; /* C division truncates, as gemmlowp's */
    return fx_w16(q);
}

static int32_t fx_rdiv(int32_t x, int32_t e) { /* RoundingDivideByPOT (int16 or int32 values), e in [0, 31] */
    int32_t mask = (int32_t)(((uint32_t)1 << e) - 1u), rem = x & mask, th = (mask >> 1) + (x < 0);
    return (x >> e) + (rem > th);
}

static int32_t fx_pot(int32_t x, int32_t e) { /* SaturatingRoundingMultiplyByPOT<e>, int16 */
    int32_t th;
    if (e == 0) return x;
    if (e < 0) return fx_rdiv(x, -e);
    th = (1 << (15 - e)) - 1;
    return x > th ? 32767 : (x < -th ? -32768 : x * (1 << e));
}

/* exp(a) for a in [-1/4, 0), Q0.15 */
static int32_t fx_exp_quarter(int32_t a) {
    const int32_t k = 28918, third = 10923; /* exp(-1/8), 1/3 */
    int32_t x = fx_w16(a + 4096), x2 = fx_mul(x, x), x3 = fx_mul(x2, x), x4 = fx_mul(x2, x2), s;
    s = fx_pot(fx_w16(fx_mul(fx_w16(fx_pot(x4, -2) + x3), third) + x2), -1);
    s = k + fx_mul(k, fx_w16(x + s));
    return s > 32767 ? 32767 : (s < -32768 ? -32768 : s);
}

/* exp(a) for a <= 0 in Q(ib).(15 - ib), Q0.15 out (gemmlowp's exp_on_negative_values) */
static int32_t fx_exp_neg(int32_t a, int32_t ib) {
    static const int32_t mult[7] = {25520, 19875, 12055, 4435, 600, 11, 0}; /* exp(-2^e), e = -2..4 */
    int32_t fb = 15 - ib, quarter = 1 << (fb - 2), amq = fx_w16((a & (quarter - 1)) - quarter), rem, e, r;
    r = fx_exp_quarter(fx_pot(amq, ib));
    rem = fx_w16(amq - a);
    for (e = -2; e <= 4; e++)
        if (ib > e && (rem & (1 << (fb + e)))) r = fx_mul(r, mult[e + 2]);
    if (ib > 5 && a < fx_rdiv(-(1 << (36 - ib)), 16)) r = 0;
    return a == 0 ? 32767 : r;
}

/* Newton-Raphson 1 / (1 + a) for a in (0, 1): Q2.13 (gemmlowp's two reciprocal helpers share it) */
static int32_t fx_recip(int32_t a) {
    int32_t s = a + 32767, hd = (s + (s >= 0 ? 1 : -1)) / 2, x, i;
    x = fx_w16(23130 + fx_mul(hd, -15420)); /* 48/17 - 32/17 d */
    for (i = 0; i < 3; i++) x = fx_w16(x + fx_pot(fx_mul(x, fx_w16(8192 - fx_mul(hd, x))), 2));
    return x;
}

static int16_t fx_sigmoid(int32_t a) { /* gemmlowp::logistic, Q3.12 in, Q0.15 out */
    int32_t abs_a = a > 0 ? a : fx_w16(-a), r;
    if (a == 0) return 16384;
    r = fx_pot(fx_recip(fx_exp_neg(fx_w16(-abs_a), 3)), 1);
    return (int16_t)(a > 0 ? r : fx_w16(32767 - r));
}

static int16_t fx_tanh(int32_t a, int32_t ib) { /* gemmlowp::tanh, Q(ib).(15 - ib) in, Q0.15 out */
    int32_t n = a < 0 ? a : fx_w16(-a), t;
    if (a == 0) return 0;
    t = fx_pot(fx_w16(fx_recip(fx_exp_neg(n, ib + 1)) - 8192), 2);
    return (int16_t)(a < 0 ? fx_w16(-t) : t);
}

static int16_t sat16(int32_t v) { return (int16_t)(v < -32768 ? -32768 : (v > 32767 ? 32767 : v)); }

/* LSTM_I8: TFLite's UNIDIRECTIONAL_SEQUENCE_LSTM, integer 8x8->16 (lstm_eval's EvalInteger8x8_16 without
 * CIFG, peephole, projection or layer norm). X [T, B, I] (Q[21] = 1, time-major) or [B, T, I] int8; Wx
 * [4, C, I] and Wh [4, C, C] int8 (gates input, forget, cell, output); bias [2, 4, C] int32, the effective
 * biases (gate bias - z_x row sums, - z_h row sums: TFLite's precomputed zero-point terms); Q int32: the
 * gates' multipliers (Q[2g], Q[2g+1] input side, Q[8+2g], Q[9+2g] recurrent side), the hidden multiplier
 * Q[16], Q[17], hidden zero point Q[18], log2 of the cell scale Q[19], quantized cell clip Q[20] (0 none),
 * Q[21] time-major, Q[22] the output state's zero point (TFLite resets an int8 variable to it). Outputs Y
 * (X's layout, C last) and S, int16 scratch: the cell state, the four gates, then the int8 hidden state.
 * Per step: gate = act(sat16(MBQM(Wh h + bh) + sat16(MBQM(Wx x + bx)))) with act sigmoid on Q3.12 (tanh for
 * the cell gate); c = sat16(rdiv(f c, 15) + rdiv(i g, 30 + log2 s_c)), clipped; h = sat8(MBQM(o tanh(c)) +
 * z_hidden), tanh on Q(15 + log2 s_c). Sums wrap as TFLite's int32 sums (unsigned arithmetic here). */
bbrt_status_t bbrt_k_lstm_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t t[5], y, s;
    const int32_t *q, *bias;
    const int8_t *wx, *wh;
    int16_t *cell, *gate;
    int8_t *h;
    uint32_t T_, B, I, C, tt, b, g, r, k, tm;
    int32_t cl, clip;
    TN(0); TN(1); TN(2); TN(3); TN(4); TOUT;
    bbrt_program_tensor(pr, op->out[1], &s);
    q = (const int32_t *)(const void *)t[4].data;
    bias = (const int32_t *)(const void *)t[3].data;
    wx = (const int8_t *)t[1].data;
    wh = (const int8_t *)t[2].data;
    tm = (uint32_t)q[21];
    T_ = tm ? t[0].dims[0] : t[0].dims[1];
    B = tm ? t[0].dims[1] : t[0].dims[0];
    I = t[0].dims[2];
    C = t[1].dims[1];
    cl = q[19];
    clip = q[20];
    cell = (int16_t *)(void *)s.data;
    gate = cell + (size_t)B * C;
    h = (int8_t *)(void *)(gate + (size_t)4u * B * C);
    for (k = 0; k < B * C; k++) {
        cell[k] = 0;
        h[k] = (int8_t)q[22];
    }
    for (tt = 0; tt < T_; tt++) {
        for (b = 0; b < B; b++) {
            const int8_t *x = (const int8_t *)t[0].data + (size_t)(tm ? tt * B + b : b * T_ + tt) * I;
            int8_t *yo = (int8_t *)y.data + (size_t)(tm ? tt * B + b : b * T_ + tt) * C;
            for (g = 0; g < 4u; g++) {
                int16_t *gg = gate + ((size_t)g * B + b) * C;
                for (r = 0; r < C; r++) {
                    const int8_t *wxr = wx + ((size_t)g * C + r) * I, *whr = wh + ((size_t)g * C + r) * C;
                    uint32_t ax = (uint32_t)bias[g * C + r], ah = (uint32_t)bias[(4u + g) * C + r];
                    int32_t v;
                    for (k = 0; k < I; k++) ax += (uint32_t)((int32_t)x[k] * (int32_t)wxr[k]);
                    for (k = 0; k < C; k++) ah += (uint32_t)((int32_t)h[b * C + k] * (int32_t)whr[k]);
                    v = sat16(add_rq((int32_t)ax, q[2u * g], q[2u * g + 1u]));
                    v = sat16(add_rq((int32_t)ah, q[8u + 2u * g], q[9u + 2u * g]) + v);
                    gg[r] = g == 2u ? fx_tanh(v, 3) : fx_sigmoid(v);
                }
            }
            for (r = 0; r < C; r++) {
                const int16_t *gi = gate + (size_t)b * C, *gf = gi + (size_t)B * C, *gc = gf + (size_t)B * C,
                              *go = gc + (size_t)B * C;
                int32_t c = fx_w16(fx_rdiv((int32_t)gf[r] * cell[b * C + r], 15)), v;
                c = sat16(c + fx_w16(fx_rdiv((int32_t)gi[r] * gc[r], 30 + cl)));
                if (clip > 0) c = c > clip ? clip : (c < -clip ? -clip : c);
                cell[b * C + r] = (int16_t)c;
                v = add_rq((int32_t)go[r] * fx_tanh(c, 15 + cl), q[16], q[17]) + q[18];
                h[b * C + r] = sat8(v, -128, 127);
            }
            for (r = 0; r < C; r++) yo[r] = h[b * C + r];
        }
    }
    return BBRT_OK;
}
