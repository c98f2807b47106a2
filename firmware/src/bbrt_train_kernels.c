/* Float kernels of training-step programs (opcodes 27-35, docs/bbrt.md "Training") and their
 * shape/param checks. The loader runs a check on every op before anything runs, so a kernel may
 * assume its tensors are consistent and in bounds. No libm: exp/log are bbrt's own. */
/* Why one file: the training opcodes share the broadcast walker and the float helpers here (static, so
 * inlined), and each kernel sits next to its check. Every kernel is still its own function, so the
 * linker drops those the resolver does not reference. */
#include "bbrt.h"
#include "bbrt_internal.h"
#include "bbrt_kernels.h"
#include "bbrt_train_kernels.h"

#define FAIL_SHAPE return BBRT_E_PROG_SHAPE
#define FAIL_PARAM return BBRT_E_PROG_PARAM

static void T(const bbrt_program_t *p, uint16_t i, bbrt_tensor_t *t) { bbrt_program_tensor(p, i, t); }
static float *F(const bbrt_tensor_t *t) { return (float *)(void *)t->data; }
static int is_f(const bbrt_tensor_t *t) { return t->dtype == BBRT_DT_FLOAT; }

/* ln(x) for finite x > 0 (0 -> -huge, NaN/negative -> NaN): x = m 2^e with m in [sqrt(1/2), sqrt(2)),
 * ln m = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172: five odd terms are below float rounding */
static float bbrt_logf(float x) {
    union { uint32_t u; float f; } v;
    int32_t e;
    float m, s, s2;
    if (!(x > 0.0f)) return x == 0.0f ? -3.4028235e38f : (x - x) / (x - x);
    if (x > 3.4028235e38f) return x;
    v.f = x;
    if ((v.u >> 23) == 0u) { /* subnormal: scale by 2^23 first */
        v.f = x * 8388608.0f;
        e = (int32_t)(v.u >> 23) - 127 - 23;
    } else {
        e = (int32_t)(v.u >> 23) - 127;
    }
    v.u = (v.u & 0x7FFFFFu) | 0x3F800000u; /* m in [1, 2) */
    m = v.f;
    if (m > 1.41421356f) {
        m *= 0.5f;
        e += 1;
    }
    s = (m - 1.0f) / (m + 1.0f);
    s2 = s * s;
    return 2.0f * s * (1.0f + s2 * (0.333333333f + s2 * (0.2f + s2 * (0.142857143f + s2 * 0.111111111f)))) +
           (float)e * 0.693147182f;
}

/* ------------------------------------------------------------------ broadcasting
 * numpy rules: input dims right-aligned against the output's, each equal or 1. */
static int bcast_ok(const bbrt_tensor_t *x, const bbrt_tensor_t *y) {
    uint32_t k, off;
    if (x->rank > y->rank) return 0;
    off = (uint32_t)(y->rank - x->rank);
    for (k = 0; k < x->rank; k++)
        if (x->dims[k] != 1u && x->dims[k] != y->dims[off + k]) return 0;
    return 1;
}

/* element strides of x aligned to y's rank, 0 on broadcast dims */
static void bcast_strides(const bbrt_tensor_t *x, const bbrt_tensor_t *y, uint32_t *st) {
    uint32_t k, s = 1u, off = (uint32_t)(y->rank - x->rank);
    for (k = y->rank; k-- > 0u;) {
        if (k < off || x->dims[k - off] == 1u) {
            st[k] = 0u;
        } else {
            st[k] = s;
            s *= x->dims[k - off];
        }
    }
}

/* walk y's elements in order, keeping each input's element offset (an odometer) */
typedef struct {
    uint32_t rank, idx[BBRT_MAX_RANK], dims[BBRT_MAX_RANK], st[3][BBRT_MAX_RANK], off[3];
} bwalk_t;

static void bwalk_init(bwalk_t *w, const bbrt_tensor_t *y, const bbrt_tensor_t *const *in, uint32_t n) {
    uint32_t k, i;
    w->rank = y->rank;
    for (k = 0; k < y->rank; k++) {
        w->idx[k] = 0u;
        w->dims[k] = y->dims[k];
    }
    for (i = 0; i < 3u; i++) {
        w->off[i] = 0u;
        for (k = 0; k < BBRT_MAX_RANK; k++) w->st[i][k] = 0u;
        if (i < n) bcast_strides(in[i], y, w->st[i]);
    }
}

static void bwalk_next(bwalk_t *w) {
    uint32_t k = w->rank, i;
    while (k-- > 0u) {
        w->idx[k]++;
        for (i = 0; i < 3u; i++) w->off[i] += w->st[i][k];
        if (w->idx[k] < w->dims[k]) return;
        for (i = 0; i < 3u; i++) w->off[i] -= w->st[i][k] * w->dims[k];
        w->idx[k] = 0u;
    }
}

/* ------------------------------------------------------------------ GEMM_F32
 * Y[M,N] = alpha * op(A) op(B) + beta * C; p0 transA, p1 transB, p2 alpha bits, p3 beta bits.
 * C (optional third input) broadcasts to [M,N] (numpy rules). */
static void gemm_dims(const bbrt_tensor_t *a, const bbrt_tensor_t *b, int32_t ta, int32_t tb, uint32_t *m,
                      uint32_t *k, uint32_t *k2, uint32_t *n) {
    *m = ta ? a->dims[1] : a->dims[0];
    *k = ta ? a->dims[0] : a->dims[1];
    *k2 = tb ? b->dims[1] : b->dims[0];
    *n = tb ? b->dims[0] : b->dims[1];
}

bbrt_status_t bbrt_c_gemm_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t a, b, c, y;
    uint32_t m, k, k2, n;
    if (op->n_in != 2u && op->n_in != 3u) FAIL_SHAPE;
    if ((op->p[0] != 0 && op->p[0] != 1) || (op->p[1] != 0 && op->p[1] != 1)) FAIL_PARAM;
    T(pr, op->in[0], &a);
    T(pr, op->in[1], &b);
    T(pr, op->out[0], &y);
    if (!is_f(&a) || !is_f(&b) || !is_f(&y) || a.rank != 2u || b.rank != 2u || y.rank != 2u) FAIL_SHAPE;
    gemm_dims(&a, &b, op->p[0], op->p[1], &m, &k, &k2, &n);
    if (k != k2 || y.dims[0] != m || y.dims[1] != n) FAIL_SHAPE;
    if (op->n_in == 3u) {
        T(pr, op->in[2], &c);
        if (!is_f(&c) || !bcast_ok(&c, &y)) FAIL_SHAPE;
        if (c.data == y.data) FAIL_SHAPE; /* C is read while Y is written */
    }
    if (a.data == y.data || b.data == y.data) FAIL_SHAPE;
    return BBRT_OK;
}

bbrt_status_t bbrt_k_gemm_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t a, b, c, y;
    uint32_t m, k, k2, n, i, j, q, sam, sak, sbk, sbn;
    const float *A, *B;
    float *Y, alpha = bbrt_i2f(op->p[2]), beta = bbrt_i2f(op->p[3]);
    T(pr, op->in[0], &a);
    T(pr, op->in[1], &b);
    T(pr, op->out[0], &y);
    gemm_dims(&a, &b, op->p[0], op->p[1], &m, &k, &k2, &n);
    A = F(&a);
    B = F(&b);
    Y = F(&y);
    /* element strides of op(A)[i][q] and op(B)[q][j] */
    sam = op->p[0] ? 1u : a.dims[1];
    sak = op->p[0] ? a.dims[1] : 1u;
    sbk = op->p[1] ? 1u : b.dims[1];
    sbn = op->p[1] ? b.dims[1] : 1u;
    (void)k2;
    if (sbn == 1u) {
        /* B rows contiguous in j: accumulate rows of Y (the inner loop streams B and Y) */
        for (i = 0; i < m; i++) {
            float *yr = Y + i * n;
            for (j = 0; j < n; j++) yr[j] = 0.0f;
            for (q = 0; q < k; q++) {
                float av = A[i * sam + q * sak];
                const float *br = B + q * sbk;
                if (av == 0.0f) continue; /* exact: adds +-0 at most */
                for (j = 0; j < n; j++) yr[j] += av * br[j];
            }
        }
    } else if (sak == 1u && sbk == 1u) {
        /* both operands contiguous along k (Y = A B^T, the forward pass): four independent partial
         * sums keep four multiply-adds in flight (the order differs from one running sum by float
         * rounding only, as in any BLAS) */
        for (i = 0; i < m; i++)
            for (j = 0; j < n; j++) {
                const float *ar = A + i * sam, *bc = B + j * sbn;
                float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
                for (q = 0; q + 4u <= k; q += 4u) {
                    s0 += ar[q] * bc[q];
                    s1 += ar[q + 1u] * bc[q + 1u];
                    s2 += ar[q + 2u] * bc[q + 2u];
                    s3 += ar[q + 3u] * bc[q + 3u];
                }
                for (; q < k; q++) s0 += ar[q] * bc[q];
                Y[i * n + j] = (s0 + s1) + (s2 + s3);
            }
    } else {
        for (i = 0; i < m; i++)
            for (j = 0; j < n; j++) {
                float acc = 0.0f;
                const float *ar = A + i * sam, *bc = B + j * sbn;
                for (q = 0; q < k; q++) acc += ar[q * sak] * bc[q * sbk];
                Y[i * n + j] = acc;
            }
    }
    if (alpha != 1.0f)
        for (i = 0; i < m * n; i++) Y[i] *= alpha;
    if (op->n_in == 3u && beta != 0.0f) {
        bwalk_t w;
        const bbrt_tensor_t *in[1];
        const float *C;
        T(pr, op->in[2], &c);
        C = F(&c);
        if (c.count == m * n) { /* the common layouts without the odometer */
            for (i = 0; i < m * n; i++) Y[i] += beta * C[i];
        } else if (c.count == n && (c.rank < 2u || c.dims[c.rank - 1u] == n)) {
            for (i = 0; i < m; i++)
                for (j = 0; j < n; j++) Y[i * n + j] += beta * C[j];
        } else {
            in[0] = &c;
            bwalk_init(&w, &y, in, 1u);
            for (i = 0; i < m * n; i++, bwalk_next(&w)) Y[i] += beta * C[w.off[0]];
        }
    }
    return BBRT_OK;
}

/* ------------------------------------------------------------------ BINARY_F32
 * p0: 0 add, 1 sub, 2 mul, 3 div; numpy broadcasting; Y may be A or B (elementwise in place). */
bbrt_status_t bbrt_c_binary_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t a, b, y;
    uint32_t k;
    if (op->n_in != 2u) FAIL_SHAPE;
    if (op->p[0] < 0 || op->p[0] > 3) FAIL_PARAM;
    T(pr, op->in[0], &a);
    T(pr, op->in[1], &b);
    T(pr, op->out[0], &y);
    if (!is_f(&a) || !is_f(&b) || !is_f(&y)) FAIL_SHAPE;
    if (!bcast_ok(&a, &y) || !bcast_ok(&b, &y)) FAIL_SHAPE;
    /* every output dim comes from an input (no stretching of both to a larger y) */
    for (k = 0; k < y.rank; k++) {
        uint32_t oa = (uint32_t)(y.rank - a.rank), ob = (uint32_t)(y.rank - b.rank);
        uint32_t da = k >= oa ? a.dims[k - oa] : 1u, db = k >= ob ? b.dims[k - ob] : 1u;
        if (y.dims[k] != da && y.dims[k] != db) FAIL_SHAPE;
    }
    /* in place only where an input has y's own layout */
    if ((a.data == y.data && a.count != y.count) || (b.data == y.data && b.count != y.count)) FAIL_SHAPE;
    return BBRT_OK;
}

static float binop(int32_t kind, float u, float v) {
    switch (kind) {
    case 0: return u + v;
    case 1: return u - v;
    case 2: return u * v;
    default: return u / v;
    }
}

bbrt_status_t bbrt_k_binary_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t a, b, y;
    uint32_t i, n;
    const float *A, *B;
    float *Y;
    int32_t kind = op->p[0];
    T(pr, op->in[0], &a);
    T(pr, op->in[1], &b);
    T(pr, op->out[0], &y);
    A = F(&a);
    B = F(&b);
    Y = F(&y);
    n = y.count;
    if (a.count == n && b.count == n) {
        switch (kind) { /* the common cases without a call per element */
        case 0: for (i = 0; i < n; i++) Y[i] = A[i] + B[i]; break;
        case 1: for (i = 0; i < n; i++) Y[i] = A[i] - B[i]; break;
        case 2: for (i = 0; i < n; i++) Y[i] = A[i] * B[i]; break;
        default: for (i = 0; i < n; i++) Y[i] = A[i] / B[i]; break;
        }
    } else if (a.count == 1u && b.count == n) {
        float s = A[0];
        if (kind == 2) for (i = 0; i < n; i++) Y[i] = s * B[i];
        else for (i = 0; i < n; i++) Y[i] = binop(kind, s, B[i]);
    } else if (b.count == 1u && a.count == n) {
        float s = B[0];
        if (kind == 2) for (i = 0; i < n; i++) Y[i] = A[i] * s;
        else for (i = 0; i < n; i++) Y[i] = binop(kind, A[i], s);
    } else {
        bwalk_t w;
        const bbrt_tensor_t *in[2];
        in[0] = &a;
        in[1] = &b;
        bwalk_init(&w, &y, in, 2u);
        for (i = 0; i < n; i++, bwalk_next(&w)) Y[i] = binop(kind, A[w.off[0]], B[w.off[1]]);
    }
    return BBRT_OK;
}

/* ------------------------------------------------------------------ UNARY_F32: p0 0 neg, 1 exp */
bbrt_status_t bbrt_c_unary_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    if (op->n_in != 1u) FAIL_SHAPE;
    if (op->p[0] != 0 && op->p[0] != 1) FAIL_PARAM;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    if (!is_f(&x) || !is_f(&y) || x.count != y.count) FAIL_SHAPE;
    return BBRT_OK;
}

bbrt_status_t bbrt_k_unary_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    uint32_t i;
    const float *X;
    float *Y;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    X = F(&x);
    Y = F(&y);
    if (op->p[0] == 0)
        for (i = 0; i < y.count; i++) Y[i] = -X[i];
    else
        for (i = 0; i < y.count; i++) Y[i] = bbrt_expf(X[i]);
    return BBRT_OK;
}

/* ------------------------------------------------------------------ LOGSOFTMAX_F32 over the last axis */
bbrt_status_t bbrt_c_logsoftmax_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    uint32_t k;
    if (op->n_in != 1u) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    if (!is_f(&x) || !is_f(&y) || x.rank < 1u || x.rank != y.rank) FAIL_SHAPE;
    for (k = 0; k < x.rank; k++)
        if (x.dims[k] != y.dims[k]) FAIL_SHAPE;
    if (x.dims[x.rank - 1u] == 0u) FAIL_SHAPE;
    return BBRT_OK;
}

bbrt_status_t bbrt_k_logsoftmax_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    uint32_t r, j, cols, rows;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    cols = x.dims[x.rank - 1u];
    rows = x.count / cols;
    for (r = 0; r < rows; r++) {
        const float *xr = F(&x) + r * cols;
        float *yr = F(&y) + r * cols;
        float mx = xr[0], s = 0.0f, ls;
        for (j = 1; j < cols; j++)
            if (xr[j] > mx) mx = xr[j];
        for (j = 0; j < cols; j++) s += bbrt_expf(xr[j] - mx);
        ls = bbrt_logf(s);
        for (j = 0; j < cols; j++) yr[j] = xr[j] - mx - ls;
    }
    return BBRT_OK;
}

/* ------------------------------------------------------------------ ONEHOT_F32
 * int32 indices [B] -> float [B, depth]; p0 depth, p1 off bits, p2 on bits. An index outside
 * [0, depth) gives a row of `off` (bbrt_train_step refuses such labels before running). */
bbrt_status_t bbrt_c_onehot_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    if (op->n_in != 1u) FAIL_SHAPE;
    if (op->p[0] < 1) FAIL_PARAM;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    if (x.dtype != BBRT_DT_INT32 || !is_f(&y) || y.rank != 2u || y.dims[1] != (uint32_t)op->p[0] ||
        x.count != y.dims[0])
        FAIL_SHAPE;
    return BBRT_OK;
}

bbrt_status_t bbrt_k_onehot_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    uint32_t i, j, depth = (uint32_t)op->p[0];
    float off = bbrt_i2f(op->p[1]), on = bbrt_i2f(op->p[2]);
    const int32_t *X;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    X = (const int32_t *)(const void *)x.data;
    for (i = 0; i < x.count; i++) {
        float *yr = F(&y) + i * depth;
        for (j = 0; j < depth; j++) yr[j] = off;
        if (X[i] >= 0 && (uint32_t)X[i] < depth) yr[X[i]] = on;
    }
    return BBRT_OK;
}

/* ------------------------------------------------------------------ REDUCE_F32
 * X viewed as [outer, red, inner] -> Y [outer, inner]; p0 outer, p1 red, p2 inner, p3 1: mean */
bbrt_status_t bbrt_c_reduce_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    uint64_t o = (uint32_t)op->p[0], r = (uint32_t)op->p[1], in = (uint32_t)op->p[2];
    if (op->n_in != 1u) FAIL_SHAPE;
    if (op->p[0] < 1 || op->p[1] < 1 || op->p[2] < 1 || (op->p[3] != 0 && op->p[3] != 1)) FAIL_PARAM;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    if (!is_f(&x) || !is_f(&y) || (uint64_t)x.count != o * r * in || (uint64_t)y.count != o * in) FAIL_SHAPE;
    if (x.data == y.data) FAIL_SHAPE;
    return BBRT_OK;
}

bbrt_status_t bbrt_k_reduce_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    uint32_t o, r, j, outer = (uint32_t)op->p[0], red = (uint32_t)op->p[1], inner = (uint32_t)op->p[2];
    const float *X;
    float *Y;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    X = F(&x);
    Y = F(&y);
    for (o = 0; o < outer; o++) {
        float *yr = Y + o * inner;
        for (j = 0; j < inner; j++) yr[j] = 0.0f;
        for (r = 0; r < red; r++) {
            const float *xr = X + (o * red + r) * inner;
            for (j = 0; j < inner; j++) yr[j] += xr[j];
        }
        if (op->p[3])
            for (j = 0; j < inner; j++) yr[j] /= (float)red;
    }
    return BBRT_OK;
}

/* ------------------------------------------------------------------ TRANSPOSE_F32 (2-D) */
bbrt_status_t bbrt_c_transpose_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    if (op->n_in != 1u) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    if (!is_f(&x) || !is_f(&y) || x.rank != 2u || y.rank != 2u || x.dims[0] != y.dims[1] ||
        x.dims[1] != y.dims[0] || x.data == y.data)
        FAIL_SHAPE;
    return BBRT_OK;
}

bbrt_status_t bbrt_k_transpose_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    uint32_t i, j, R, C;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    R = x.dims[0];
    C = x.dims[1];
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) F(&y)[j * R + i] = F(&x)[i * C + j];
    return BBRT_OK;
}

/* ------------------------------------------------------------------ GREATER_F32: u8 0/1 = A > B */
bbrt_status_t bbrt_c_greater_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t a, b, y;
    if (op->n_in != 2u) FAIL_SHAPE;
    T(pr, op->in[0], &a);
    T(pr, op->in[1], &b);
    T(pr, op->out[0], &y);
    if (!is_f(&a) || !is_f(&b) || y.dtype != BBRT_DT_UINT8 || a.count != y.count || !bcast_ok(&a, &y) ||
        !bcast_ok(&b, &y))
        FAIL_SHAPE;
    return BBRT_OK;
}

bbrt_status_t bbrt_k_greater_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t a, b, y;
    uint32_t i;
    bwalk_t w;
    const bbrt_tensor_t *in[2];
    T(pr, op->in[0], &a);
    T(pr, op->in[1], &b);
    T(pr, op->out[0], &y);
    if (b.count == 1u) { /* x > constant (the Relu gradient's mask) */
        float t = F(&b)[0];
        for (i = 0; i < y.count; i++) y.data[i] = (uint8_t)(F(&a)[i] > t);
        return BBRT_OK;
    }
    in[0] = &a;
    in[1] = &b;
    bwalk_init(&w, &y, in, 2u);
    for (i = 0; i < y.count; i++, bwalk_next(&w)) y.data[i] = (uint8_t)(F(&a)[w.off[0]] > F(&b)[w.off[1]]);
    return BBRT_OK;
}

/* ------------------------------------------------------------------ WHERE_F32: Y = cond ? A : B */
bbrt_status_t bbrt_c_where_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t c, a, b, y;
    uint32_t k;
    if (op->n_in != 3u) FAIL_SHAPE;
    T(pr, op->in[0], &c);
    T(pr, op->in[1], &a);
    T(pr, op->in[2], &b);
    T(pr, op->out[0], &y);
    if (c.dtype != BBRT_DT_UINT8 || !is_f(&a) || !is_f(&b) || !is_f(&y)) FAIL_SHAPE;
    if (!bcast_ok(&c, &y) || !bcast_ok(&a, &y) || !bcast_ok(&b, &y)) FAIL_SHAPE;
    for (k = 0; k < y.rank; k++) {
        uint32_t oc = (uint32_t)(y.rank - c.rank), oa = (uint32_t)(y.rank - a.rank), ob = (uint32_t)(y.rank - b.rank);
        uint32_t dc = k >= oc ? c.dims[k - oc] : 1u, da = k >= oa ? a.dims[k - oa] : 1u;
        uint32_t db = k >= ob ? b.dims[k - ob] : 1u;
        if (y.dims[k] != dc && y.dims[k] != da && y.dims[k] != db) FAIL_SHAPE;
    }
    if ((a.data == y.data && a.count != y.count) || (b.data == y.data && b.count != y.count)) FAIL_SHAPE;
    return BBRT_OK;
}

bbrt_status_t bbrt_k_where_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t c, a, b, y;
    uint32_t i;
    bwalk_t w;
    const bbrt_tensor_t *in[3];
    T(pr, op->in[0], &c);
    T(pr, op->in[1], &a);
    T(pr, op->in[2], &b);
    T(pr, op->out[0], &y);
    if ((c.count == y.count || c.count == 1u) && (a.count == y.count || a.count == 1u) &&
        (b.count == y.count || b.count == 1u)) { /* full or scalar operands: stride 1 or 0 */
        uint32_t sc = c.count == 1u ? 0u : 1u, sa = a.count == 1u ? 0u : 1u, sb = b.count == 1u ? 0u : 1u;
        for (i = 0; i < y.count; i++) F(&y)[i] = c.data[i * sc] ? F(&a)[i * sa] : F(&b)[i * sb];
        return BBRT_OK;
    }
    in[0] = &c;
    in[1] = &a;
    in[2] = &b;
    bwalk_init(&w, &y, in, 3u);
    for (i = 0; i < y.count; i++, bwalk_next(&w))
        F(&y)[i] = c.data[w.off[0]] ? F(&a)[w.off[1]] : F(&b)[w.off[2]];
    return BBRT_OK;
}
