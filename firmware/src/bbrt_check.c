/* Per-op shape, dtype and parameter checks: the loader runs these on every op,
 * so a kernel may assume its tensors are consistent and in bounds. */
/* Why one file: the checks share the window, accumulator, broadcast and dtype helpers (static), and each
 * check is its own function, so a build links only the checks its generated resolver references. */
#include "bbrt.h"
#include "bbrt_internal.h"
#include "bbrt_kernels.h"

#define FAIL_SHAPE return BBRT_E_PROG_SHAPE
#define FAIL_PARAM return BBRT_E_PROG_PARAM

static void T(const bbrt_program_t *p, uint16_t i, bbrt_tensor_t *t) { bbrt_program_tensor(p, i, t); }

static int is_q(const bbrt_tensor_t *t) { return t->dtype == BBRT_DT_INT8; }
static int is_f(const bbrt_tensor_t *t) { return t->dtype == BBRT_DT_FLOAT; }

/* Output length of a window op, or -1. Sums and products in 64 bits (no overflow for u32 dims and
 * 16-bit params), the division in 32 bits: an input dim is <= 2^28 (count limit) so the numerator
 * fits, and a Cortex-M3 divides that in hardware instead of calling __aeabi_ldivmod. */
static int64_t out_dim(uint32_t in, int32_t pa, int32_t pb, uint32_t k, int32_t s, int32_t d) {
    uint64_t total = (uint64_t)in + (uint32_t)pa + (uint32_t)pb;
    uint64_t span = (uint64_t)(uint32_t)d * (k - 1u) + 1u;
    if (k < 1u || s < 1 || pa < 0 || pb < 0 || d < 1 || total < span || total - span > 0xFFFFFFFFu) return -1;
    return (int64_t)((uint32_t)(total - span) / (uint32_t)s) + 1;
}

/* equal float32 bit patterns (validated scales: finite and > 0, so bits equal <=> values equal) */
static int same_f32(float a, float b) {
    union { float f; uint32_t u; } x, y;
    x.f = a;
    y.f = b;
    return x.u == y.u;
}

static bbrt_status_t check_window(const int32_t *p, int dil) {
    int i;
    for (i = 0; i < 2; i++)
        if (p[i] < 1 || p[i] > 65535) FAIL_PARAM; /* strides */
    for (i = 2; i < 6; i++)
        if (p[i] < 0 || p[i] > 65535) FAIL_PARAM; /* pads */
    if (dil && (p[6] < 1 || p[6] > 65535 || p[7] < 1 || p[7] > 65535)) FAIL_PARAM;
    return BBRT_OK;
}

/* int8 accumulators stay in int32: reduction length <= 2^15, |bias| <= 2^30 */
static bbrt_status_t check_acc(const bbrt_tensor_t *b, uint64_t k) {
    uint32_t i;
    if (k > 32768u) FAIL_SHAPE;
    for (i = 0; i < b->count; i++) {
        int32_t v = ((const int32_t *)(const void *)b->data)[i];
        if (v > 1073741824 || v < -1073741824) FAIL_PARAM;
    }
    return BBRT_OK;
}

static bbrt_status_t check_conv(const bbrt_program_t *pr, const bbrt_op_t *op, int q, int pool) {
    bbrt_tensor_t x, w, b, y, rq;
    int32_t g = op->p[8];
    int64_t oh, ow;
    const int w16 = q && !pool && op->p[12] == 1; /* CONV_I8 p[12] = 1: widened weights */
    if (q ? op->n_in != 4u : (op->n_in != 2u && op->n_in != 3u)) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->in[1], &w);
    T(pr, op->out[0], &y);
    if (w16) { /* weights widened for the DSP kernels (bb_edge/bbrt/widen.py), checked below */
        if (w.dtype != BBRT_DT_INT16) FAIL_SHAPE;
        w.dtype = BBRT_DT_INT8; /* checked as the int8 weights it holds */
    }
    if (check_window(op->p, 1) != BBRT_OK) FAIL_PARAM;
    if (x.rank != 4u || w.rank != 4u || y.rank != 4u) FAIL_SHAPE;
    if (q ? !(is_q(&x) && is_q(&w) && is_q(&y)) : !(is_f(&x) && is_f(&w) && is_f(&y))) FAIL_SHAPE;
    /* p[15] = 1: an int8 NHWC input (dims N, H, W, C), read in place; checked below as NCHW */
    if (op->p[15] < 0 || op->p[15] > 1 || (op->p[15] && !q)) FAIL_PARAM;
    if (op->p[15]) {
        uint32_t c = x.dims[3];
        x.dims[3] = x.dims[2];
        x.dims[2] = x.dims[1];
        x.dims[1] = c;
    }
    if (w.storage != BBRT_STORE_CONST) FAIL_SHAPE;
    if (g < 1 || x.dims[1] % (uint32_t)g != 0u || w.dims[0] % (uint32_t)g != 0u) FAIL_PARAM;
    if (w.dims[1] * (uint32_t)g != x.dims[1] || w.dims[0] != y.dims[1] || x.dims[0] != y.dims[0])
        FAIL_SHAPE;
    if (w.dims[2] < 1u || w.dims[3] < 1u) FAIL_SHAPE;
    oh = out_dim(x.dims[2], op->p[2], op->p[4], w.dims[2], op->p[0], op->p[6]);
    ow = out_dim(x.dims[3], op->p[3], op->p[5], w.dims[3], op->p[1], op->p[7]);
    if (oh < 1 || ow < 1) FAIL_SHAPE;
    if (pool) { /* CONV_POOL_I8: y is the max pool (window p[11] x p[12], stride p[13] x p[14]) of the conv */
        int i;
        for (i = 11; i < 15; i++)
            if (op->p[i] < 1 || op->p[i] > 65535) FAIL_PARAM;
        if (ow > (int64_t)BBRT_CONV_POOL_MAX_W || oh < op->p[11] || ow < op->p[12]) FAIL_SHAPE;
        /* 32-bit division (no __aeabi_ldivmod): oh <= 2^32 and the window >= 1, so the difference fits */
        oh = (int64_t)((uint32_t)(oh - op->p[11]) / (uint32_t)op->p[13]) + 1;
        ow = (int64_t)((uint32_t)(ow - op->p[12]) / (uint32_t)op->p[14]) + 1;
    }
    else if (q) { /* CONV_I8 p11 = 1: TFLite's two-rounding requantization (TRANSPOSE_CONV); p12..p14 unused */
        if (op->p[11] < 0 || op->p[11] > 1 || (op->p[12] != 0 && !w16) || op->p[13] != 0 || op->p[14] != 0)
            FAIL_PARAM;
    }
    if ((uint64_t)oh != y.dims[2] || (uint64_t)ow != y.dims[3]) FAIL_SHAPE;
    if (op->n_in >= 3u) {
        T(pr, op->in[2], &b);
        if (b.rank != 1u || b.dims[0] != w.dims[0]) FAIL_SHAPE;
        if (q ? b.dtype != BBRT_DT_INT32 : !is_f(&b)) FAIL_SHAPE;
    }
    if (q) {
        T(pr, op->in[3], &rq);
        if (rq.dtype != BBRT_DT_INT32 || rq.count != 2u * w.dims[0] || rq.storage != BBRT_STORE_CONST)
            FAIL_SHAPE;
        if (w.zero_point != 0 || op->p[9] < -128 || op->p[10] > 127 || op->p[9] > op->p[10]) FAIL_PARAM;
        if (b.storage != BBRT_STORE_CONST) FAIL_SHAPE;
        if (pool) { /* max-then-requantize = requantize-then-max needs non-negative multipliers */
            uint32_t i;
            for (i = 0; i < w.dims[0]; i++)
                if (((const int32_t *)(const void *)rq.data)[2u * i] < 0) FAIL_PARAM;
        }
        if (w16) { /* the DSP build's widened im2col path takes it whole (conv_im2col_w16) */
#if BBRT_WIDENED
            const int32_t *r = (const int32_t *)(const void *)rq.data;
            uint32_t i;
            if (g != 1 || op->p[11] != 0 || w.dims[0] % 2u != 0u ||
                bbrt_conv_w16_chunk(w.dims[1], w.dims[2] * w.dims[3], w.dims[0]) == 0u || oh * ow < 2 ||
                ((uintptr_t)w.data & 3u) != 0u)
                FAIL_PARAM;
            for (i = 0; i < w.dims[0]; i++) /* mm_rq8f's shifts (or a zero multiplier) on every channel */
                if (r[2u * i] != 0 && (r[2u * i + 1u] > -2 || r[2u * i + 1u] < -31)) FAIL_PARAM;
#else
            FAIL_PARAM;
#endif
        }
        return check_acc(&b, (uint64_t)w.dims[1] * w.dims[2] * w.dims[3]);
    }
    return BBRT_OK;
}

static bbrt_status_t check_fc(const bbrt_program_t *pr, const bbrt_op_t *op, int q) {
    bbrt_tensor_t x, w, b, y, rq;
    uint32_t k, n, rows;
    if (q ? op->n_in != 4u : (op->n_in != 2u && op->n_in != 3u)) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->in[1], &w);
    T(pr, op->out[0], &y);
    if (q && op->p[3] == 1) { /* weights widened for the DSP kernels (bb_edge/bbrt/widen.py): that build only */
#if BBRT_WIDENED
        if (w.dtype != BBRT_DT_INT16 || w.rank != 2u || w.dims[1] % 4u != 0u || w.dims[1] > BBRT_FC_WIDE_MAX ||
            ((uintptr_t)w.data & 3u) != 0u || (op->p[2] != 1 && x.zero_point != 0))
            FAIL_PARAM;
        w.dtype = BBRT_DT_INT8; /* checked as the int8 weights it holds */
#else
        FAIL_PARAM;
#endif
    } else if (q && op->p[3] != 0)
        FAIL_PARAM;
    if (q ? !(is_q(&x) && is_q(&w) && is_q(&y)) : !(is_f(&x) && is_f(&w) && is_f(&y))) FAIL_SHAPE;
    if (w.rank != 2u || x.rank < 1u || y.rank < 1u || w.storage != BBRT_STORE_CONST) FAIL_SHAPE;
    n = w.dims[0];
    k = w.dims[1];
    if (k == 0u || n == 0u || x.dims[x.rank - 1u] != k || y.dims[y.rank - 1u] != n) FAIL_SHAPE;
    rows = x.count / k;
    if ((uint64_t)rows * n != y.count) FAIL_SHAPE;
    if (op->n_in >= 3u) {
        T(pr, op->in[2], &b);
        if (b.count != n || (q ? b.dtype != BBRT_DT_INT32 : !is_f(&b))) FAIL_SHAPE;
    }
    if (q) {
        T(pr, op->in[3], &rq);
        if (rq.dtype != BBRT_DT_INT32 || rq.count != 2u * n || rq.storage != BBRT_STORE_CONST) FAIL_SHAPE;
        if (w.zero_point != 0 || op->p[0] < -128 || op->p[1] > 127 || op->p[0] > op->p[1]) FAIL_PARAM;
        if (op->p[2] != 0 && op->p[2] != 1) FAIL_PARAM; /* 1: -zx * sum(w) folded into the bias */
        if (b.storage != BBRT_STORE_CONST) FAIL_SHAPE;
        return check_acc(&b, k);
    }
    return BBRT_OK;
}

static bbrt_status_t check_pool(const bbrt_program_t *pr, const bbrt_op_t *op, int q, int avg) {
    bbrt_tensor_t x, y;
    int64_t oh, ow;
    int32_t p[8];
    if (op->n_in != 1u) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    if (x.rank != 4u || y.rank != 4u || x.dims[0] != y.dims[0] || x.dims[1] != y.dims[1]) FAIL_SHAPE;
    if (q ? !(is_q(&x) && is_q(&y)) : !(is_f(&x) && is_f(&y))) FAIL_SHAPE;
    if (op->p[0] < 1 || op->p[1] < 1 || op->p[0] > 65535 || op->p[1] > 65535) FAIL_PARAM;
    p[0] = op->p[2]; p[1] = op->p[3]; p[2] = op->p[4]; p[3] = op->p[5];
    p[4] = op->p[6]; p[5] = op->p[7];
    if (check_window(p, 0) != BBRT_OK) FAIL_PARAM;
    /* every window must hold at least one real element */
    if (op->p[4] >= op->p[0] || op->p[6] >= op->p[0] || op->p[5] >= op->p[1] || op->p[7] >= op->p[1])
        FAIL_PARAM;
    oh = out_dim(x.dims[2], op->p[4], op->p[6], op->p[0], op->p[2], 1);
    ow = out_dim(x.dims[3], op->p[5], op->p[7], op->p[1], op->p[3], 1);
    if (oh < 1 || ow < 1 || (uint64_t)oh != y.dims[2] || (uint64_t)ow != y.dims[3]) FAIL_SHAPE;
    if (q && !avg && (!same_f32(x.scale, y.scale) || x.zero_point != y.zero_point)) FAIL_PARAM;
    if (avg && (op->p[8] < 0 || op->p[8] > 1)) FAIL_PARAM;
    /* p[9] = 1: TFLite's integer average (rounded half away from zero), input and output share parameters */
    if (avg && (op->p[9] < 0 || op->p[9] > 1 || (op->p[9] && !q))) FAIL_PARAM;
    if (avg && op->p[9] && (!same_f32(x.scale, y.scale) || x.zero_point != y.zero_point)) FAIL_PARAM;
    if ((uint64_t)op->p[0] * (uint64_t)op->p[1] > (1u << 23)) FAIL_PARAM; /* int8 window sums fit */
    return BBRT_OK;
}

static bbrt_status_t check_gap(const bbrt_program_t *pr, const bbrt_op_t *op, int q) {
    bbrt_tensor_t x, y;
    if (op->n_in != 1u) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    if (q ? !(is_q(&x) && is_q(&y)) : !(is_f(&x) && is_f(&y))) FAIL_SHAPE;
    if (x.rank < 3u || x.dims[2] == 0u) FAIL_SHAPE;
    if ((uint64_t)x.dims[0] * x.dims[1] != y.count || y.count == 0u || x.count / y.count == 0u)
        FAIL_SHAPE;
    if (x.count / y.count > (1u << 23)) FAIL_SHAPE;
    if (q && (op->p[0] < 0 || op->p[0] > 1 || (op->p[0] == 1 && (op->p[1] < 0 || op->p[2] > 30 || op->p[2] < -31))))
        FAIL_PARAM;
    return BBRT_OK;
}

static bbrt_status_t check_binary(const bbrt_program_t *pr, const bbrt_op_t *op, int q) {
    bbrt_tensor_t a, b, y;
    uint32_t i, k;
    if (op->n_in != 2u) FAIL_SHAPE;
    T(pr, op->in[0], &a);
    T(pr, op->in[1], &b);
    T(pr, op->out[0], &y);
    if (q ? !(is_q(&a) && is_q(&b) && is_q(&y)) : !(is_f(&a) && is_f(&b) && is_f(&y))) FAIL_SHAPE;
    if (a.rank > y.rank || b.rank > y.rank) FAIL_SHAPE;
    for (i = 0; i < y.rank; i++) {
        uint32_t d = y.dims[i], da = 1u, db = 1u;
        k = y.rank - a.rank;
        if (i >= k) da = a.dims[i - k];
        k = y.rank - b.rank;
        if (i >= k) db = b.dims[i - k];
        if ((da != d && da != 1u) || (db != d && db != 1u)) FAIL_SHAPE;
        if ((da == 1u && db == 1u) && d != 1u) FAIL_SHAPE;
    }
    if (q && (op->opcode == BBRT_OP_ADD_I8 || op->opcode == BBRT_OP_MUL_I8)) { /* their activation range */
        int lo = (op->opcode == BBRT_OP_ADD_I8) ? 7 : 2;
        if (op->p[lo] < -128 || op->p[lo + 1] > 127 || op->p[lo] > op->p[lo + 1]) FAIL_PARAM;
        if (op->opcode == BBRT_OP_ADD_I8 && (op->p[0] < 0 || op->p[0] > 20 || op->p[9] < 0 || op->p[9] > 1)) FAIL_PARAM;
        if (op->opcode == BBRT_OP_MUL_I8 && (op->p[4] < 0 || op->p[4] > 1)) FAIL_PARAM;
    }
    return BBRT_OK;
}

static bbrt_status_t check_unary(const bbrt_program_t *pr, const bbrt_op_t *op, uint8_t din,
                                 uint8_t dout, uint32_t n_in) {
    bbrt_tensor_t x, y;
    if (op->n_in != n_in) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    if (x.dtype != din || y.dtype != dout || x.count != y.count) FAIL_SHAPE;
    return BBRT_OK;
}

static bbrt_status_t check_softmax(const bbrt_program_t *pr, const bbrt_op_t *op, int q) {
    bbrt_tensor_t x, y;
    uint32_t i;
    uint8_t dt = q ? BBRT_DT_INT8 : BBRT_DT_FLOAT;
    /* int8 may carry a table (TFLite's float exp table, 256 float32): then TFLite's arithmetic */
    uint32_t n_in = (q && op->n_in == 2u) ? 2u : 1u;
    if (check_unary(pr, op, dt, dt, n_in) != BBRT_OK) FAIL_SHAPE;
    if (n_in == 2u) {
        T(pr, op->in[1], &x);
        if (x.dtype != BBRT_DT_FLOAT || x.count != 256u) FAIL_SHAPE;
    }
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    if (x.rank < 1u || x.rank != y.rank || x.dims[x.rank - 1u] == 0u) FAIL_SHAPE;
    for (i = 0; i < x.rank; i++)
        if (x.dims[i] != y.dims[i]) FAIL_SHAPE;
    return BBRT_OK;
}

static bbrt_status_t check_concat(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    uint32_t i, k, axis = (uint32_t)op->p[0];
    uint64_t sum = 0;
    T(pr, op->out[0], &y);
    if (op->p[0] < 0 || axis >= y.rank) FAIL_PARAM;
    for (i = 0; i < op->n_in; i++) {
        T(pr, op->in[i], &x);
        if (x.dtype != y.dtype || x.rank != y.rank) FAIL_SHAPE;
        if (!(is_q(&y) || is_f(&y))) FAIL_SHAPE;
        for (k = 0; k < y.rank; k++)
            if (k != axis && x.dims[k] != y.dims[k]) FAIL_SHAPE;
        sum += x.dims[axis];
    }
    if (sum != y.dims[axis]) FAIL_SHAPE;
    return BBRT_OK;
}

static bbrt_status_t check_matmul(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t a, b, y;
    uint32_t m, k, n, ba, bb;
    if (op->n_in != 2u) FAIL_SHAPE;
    T(pr, op->in[0], &a);
    T(pr, op->in[1], &b);
    T(pr, op->out[0], &y);
    if (!(is_f(&a) && is_f(&b) && is_f(&y))) FAIL_SHAPE;
    if (a.rank < 2u || b.rank < 2u || y.rank < 2u) FAIL_SHAPE;
    m = a.dims[a.rank - 2u];
    k = a.dims[a.rank - 1u];
    n = b.dims[b.rank - 1u];
    if (b.dims[b.rank - 2u] != k || y.dims[y.rank - 2u] != m || y.dims[y.rank - 1u] != n) FAIL_SHAPE;
    if (m == 0u || k == 0u || n == 0u) FAIL_SHAPE;
    ba = a.count / (m * k);
    bb = b.count / (k * n);
    if (bb != 1u && bb != ba) FAIL_SHAPE;
    if ((uint64_t)ba * m * n != y.count) FAIL_SHAPE;
    return BBRT_OK;
}

/* One check per opcode: the op resolver (bbrt_op_checks, generated with the kernel table by
 * bb_edge/bbrt/resolver.py) references only the checks of the ops a program uses, so
 * -Wl,--gc-sections drops every other check and the helpers only they call. */
bbrt_status_t bbrt_c_conv_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_conv(pr, op, 0, 0);
}

bbrt_status_t bbrt_c_conv_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_conv(pr, op, 1, 0);
}

bbrt_status_t bbrt_c_conv_pool_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_conv(pr, op, 1, 1);
}

bbrt_status_t bbrt_c_fc_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_fc(pr, op, 0);
}

bbrt_status_t bbrt_c_fc_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_fc(pr, op, 1);
}

bbrt_status_t bbrt_c_maxpool_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_pool(pr, op, 0, 0);
}

bbrt_status_t bbrt_c_maxpool_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_pool(pr, op, 1, 0);
}

bbrt_status_t bbrt_c_avgpool_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_pool(pr, op, 0, 1);
}

bbrt_status_t bbrt_c_avgpool_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_pool(pr, op, 1, 1);
}

bbrt_status_t bbrt_c_gap_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_gap(pr, op, 0);
}

bbrt_status_t bbrt_c_gap_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_gap(pr, op, 1);
}

bbrt_status_t bbrt_c_add_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_binary(pr, op, 0);
}

bbrt_status_t bbrt_c_add_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_binary(pr, op, 1);
}

bbrt_status_t bbrt_c_mul_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_binary(pr, op, 0);
}

bbrt_status_t bbrt_c_mul_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_binary(pr, op, 1);
}

bbrt_status_t bbrt_c_relu_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_unary(pr, op, BBRT_DT_FLOAT, BBRT_DT_FLOAT, 1u);
}

bbrt_status_t bbrt_c_clip_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_unary(pr, op, BBRT_DT_FLOAT, BBRT_DT_FLOAT, 1u);
}

bbrt_status_t bbrt_c_sigmoid_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_unary(pr, op, BBRT_DT_FLOAT, BBRT_DT_FLOAT, 1u);
}

bbrt_status_t bbrt_c_tanh_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_unary(pr, op, BBRT_DT_FLOAT, BBRT_DT_FLOAT, 1u);
}

bbrt_status_t bbrt_c_lut_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x;
    if (check_unary(pr, op, BBRT_DT_INT8, BBRT_DT_INT8, 2u) != BBRT_OK) FAIL_SHAPE;
    T(pr, op->in[1], &x);
    if (x.dtype != BBRT_DT_INT8 || x.count != 256u) FAIL_SHAPE;
    return BBRT_OK;
}

bbrt_status_t bbrt_c_softmax_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_softmax(pr, op, 0);
}

bbrt_status_t bbrt_c_softmax_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_softmax(pr, op, 1);
}

bbrt_status_t bbrt_c_copy(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    if (op->n_in != 1u) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    if (x.dtype != y.dtype || x.nbytes != y.nbytes) FAIL_SHAPE;
    return BBRT_OK;
}

bbrt_status_t bbrt_c_concat(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_concat(pr, op);
}

bbrt_status_t bbrt_c_quantize(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_unary(pr, op, BBRT_DT_FLOAT, BBRT_DT_INT8, 1u);
}

bbrt_status_t bbrt_c_dequantize(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_unary(pr, op, BBRT_DT_INT8, BBRT_DT_FLOAT, 1u);
}

bbrt_status_t bbrt_c_matmul_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_matmul(pr, op);
}

/* ------------------------------------------------------- data movement, activations, recurrent layers */
/* a data-moving op keeps the bytes: same dtype and, for int8, the same scale (bits) and zero point */
static int same_type(const bbrt_tensor_t *x, const bbrt_tensor_t *y) {
    if (x->dtype != y->dtype || bbrt_dtype_size(x->dtype) == 0u) return 0;
    return !is_q(x) || (same_f32(x->scale, y->scale) && x->zero_point == y->zero_point);
}

/* [a, a + an) and [b, b + bn) share a byte */
static int overlaps(const bbrt_tensor_t *a, const bbrt_tensor_t *b) {
    return a->nbytes && b->nbytes && a->data < b->data + b->nbytes && b->data < a->data + a->nbytes;
}

/* TRANSPOSE: y.dims[k] = x.dims[p[k]], p a permutation of 0..rank-1 (rank <= 6) */
bbrt_status_t bbrt_c_transpose(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    uint32_t k, seen = 0u;
    if (op->n_in != 1u) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    if (!same_type(&x, &y) || x.rank != y.rank || x.rank < 1u || x.rank > BBRT_MOVE_MAX_RANK) FAIL_SHAPE;
    for (k = 0; k < x.rank; k++) {
        if (op->p[k] < 0 || (uint32_t)op->p[k] >= x.rank || (seen >> op->p[k]) & 1u) FAIL_PARAM;
        seen |= 1u << op->p[k];
        if (y.dims[k] != x.dims[op->p[k]]) FAIL_SHAPE;
    }
    for (k = x.rank; k < BBRT_OP_PARAMS; k++)
        if (op->p[k] != 0) FAIL_PARAM;
    if (overlaps(&x, &y)) FAIL_SHAPE;
    return BBRT_OK;
}

/* GATHER_AXES: y[i0..ir] = x[t0[i0], .., tr[ir]], the tables t_k (y.dims[k] int32 entries each, one
 * constant after another) in [-1, x.dims[k]); -1 writes the fill value p0 (float bits, or an int8) */
bbrt_status_t bbrt_c_gather_axes(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, t, y;
    uint32_t k, i, n = 0u;
    const int32_t *tab;
    if (op->n_in != 2u) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->in[1], &t);
    T(pr, op->out[0], &y);
    if (!same_type(&x, &y) || x.rank != y.rank || x.rank < 1u || x.rank > BBRT_MOVE_MAX_RANK) FAIL_SHAPE;
    if (bbrt_dtype_size(y.dtype) > 4u) FAIL_SHAPE; /* the fill value p0 is 4 bytes */
    if (t.dtype != BBRT_DT_INT32 || t.storage != BBRT_STORE_CONST) FAIL_SHAPE;
    for (k = 0; k < y.rank; k++) n += y.dims[k]; /* each dim < 2^28: no overflow for 6 of them */
    if (t.count != n) FAIL_SHAPE;
    tab = (const int32_t *)(const void *)t.data;
    for (k = 0, n = 0u; k < y.rank; k++)
        for (i = 0; i < y.dims[k]; i++, n++)
            if (tab[n] < -1 || (tab[n] >= 0 && (uint32_t)tab[n] >= x.dims[k])) FAIL_PARAM;
    if (is_q(&y) ? (op->p[0] < -128 || op->p[0] > 127) : (y.dtype != BBRT_DT_FLOAT && op->p[0] != 0)) FAIL_PARAM;
    for (k = 1; k < BBRT_OP_PARAMS; k++)
        if (op->p[k] != 0) FAIL_PARAM;
    if (overlaps(&x, &y)) FAIL_SHAPE;
    return BBRT_OK;
}

/* ELU / LEAKYRELU: p0 = alpha (float bits, finite) */
static bbrt_status_t check_alpha_unary(const bbrt_program_t *pr, const bbrt_op_t *op) {
    uint32_t e = ((uint32_t)op->p[0] >> 23) & 0xFFu;
    if (check_unary(pr, op, BBRT_DT_FLOAT, BBRT_DT_FLOAT, 1u) != BBRT_OK) FAIL_SHAPE;
    if (e == 0xFFu) FAIL_PARAM;
    return BBRT_OK;
}

bbrt_status_t bbrt_c_elu_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_alpha_unary(pr, op);
}

bbrt_status_t bbrt_c_leakyrelu_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_alpha_unary(pr, op);
}

/* PRELU: X, slope broadcast to X (numpy rules); Y has X's shape */
bbrt_status_t bbrt_c_prelu_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    uint32_t k;
    if (check_binary(pr, op, 0) != BBRT_OK) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    if (x.rank != y.rank) FAIL_SHAPE;
    for (k = 0; k < x.rank; k++)
        if (x.dims[k] != y.dims[k]) FAIL_SHAPE;
    return BBRT_OK;
}

/* LSTM (G = 4 gates) / GRU (G = 3): X [T,B,I], W [D,G*H,I], R [D,G*H,H], bias [D,2*G*H], H0 [D,B,H],
 * (LSTM) C0 [D,B,H], scratch (arena, >= 6H floats, shared with nothing else of the op); p0 direction
 * (0 forward, 1 reverse, 2 both: D = 2), p1 output (0 Y [T,D,B,H], 1 Y_h [D,B,H], 2 Y_c [D,B,H], LSTM),
 * p2 (GRU) linear_before_reset 0/1. All float32. */
static int dims_are(const bbrt_tensor_t *t, uint32_t rank, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    uint32_t want[4];
    uint32_t k;
    want[0] = a; want[1] = b; want[2] = c; want[3] = d;
    if (t->rank != rank || !is_f(t)) return 0;
    for (k = 0; k < rank; k++)
        if (t->dims[k] != want[k]) return 0;
    return 1;
}

static bbrt_status_t check_rnn(const bbrt_program_t *pr, const bbrt_op_t *op, uint32_t g) {
    bbrt_tensor_t x, w, r, b, h0, c0, s, y;
    uint32_t T_, B, I, H, D, k, lstm = g == 4u;
    if (op->n_in != (lstm ? 7u : 6u)) FAIL_SHAPE;
    if (op->p[0] < 0 || op->p[0] > 2 || op->p[1] < 0 || op->p[1] > (lstm ? 2 : 1)) FAIL_PARAM;
    if (op->p[2] < 0 || op->p[2] > (lstm ? 0 : 1)) FAIL_PARAM;
    for (k = 3; k < BBRT_OP_PARAMS; k++)
        if (op->p[k] != 0) FAIL_PARAM;
    T(pr, op->in[0], &x);
    T(pr, op->in[1], &w);
    T(pr, op->in[2], &r);
    T(pr, op->in[3], &b);
    T(pr, op->in[4], &h0);
    T(pr, op->in[lstm ? 6u : 5u], &s);
    T(pr, op->out[0], &y);
    if (!is_f(&x) || x.rank != 3u || w.rank != 3u) FAIL_SHAPE;
    T_ = x.dims[0];
    B = x.dims[1];
    I = x.dims[2];
    D = op->p[0] == 2 ? 2u : 1u;
    if (w.dims[1] % g != 0u) FAIL_SHAPE;
    H = w.dims[1] / g;
    if (T_ < 1u || B < 1u || I < 1u || H < 1u || H > 65536u) FAIL_SHAPE;
    if (!dims_are(&w, 3u, D, g * H, I, 0u) || !dims_are(&r, 3u, D, g * H, H, 0u) ||
        !dims_are(&b, 2u, D, 2u * g * H, 0u, 0u) || !dims_are(&h0, 3u, D, B, H, 0u))
        FAIL_SHAPE;
    if (lstm) {
        T(pr, op->in[5], &c0);
        if (!dims_are(&c0, 3u, D, B, H, 0u)) FAIL_SHAPE;
    }
    if (op->p[1] == 0 ? !dims_are(&y, 4u, T_, D, B, H) : !dims_are(&y, 3u, D, B, H, 0u)) FAIL_SHAPE;
    /* the scratch is written: an arena tensor of at least 6H floats, apart from every other operand */
    if (!is_f(&s) || s.storage != BBRT_STORE_ARENA || s.count < 6u * H) FAIL_SHAPE;
    if (overlaps(&s, &x) || overlaps(&s, &h0) || overlaps(&s, &y) || overlaps(&x, &y) || overlaps(&h0, &y))
        FAIL_SHAPE;
    if (lstm && (overlaps(&s, &c0) || overlaps(&c0, &y))) FAIL_SHAPE;
    return BBRT_OK;
}

bbrt_status_t bbrt_c_lstm_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_rnn(pr, op, 4u);
}

bbrt_status_t bbrt_c_gru_f32(const bbrt_program_t *pr, const bbrt_op_t *op) {
    return check_rnn(pr, op, 3u);
}

/* GATHER: X (any dtype), indices (INT32 or INT64, any storage, rank r), Y = X with axis p0 replaced by the
 * indices' dims (rank X.rank - 1 + r <= 8). The index values are checked by the kernel, before it reads. */
bbrt_status_t bbrt_c_gather(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, ind, y;
    uint32_t axis, k;
    if (op->n_in != 2u) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->in[1], &ind);
    T(pr, op->out[0], &y);
    if (op->p[0] < 0 || (uint32_t)op->p[0] >= x.rank) FAIL_PARAM;
    for (k = 1; k < BBRT_OP_PARAMS; k++)
        if (op->p[k] != 0) FAIL_PARAM;
    axis = (uint32_t)op->p[0];
    if (!same_type(&x, &y) || (ind.dtype != BBRT_DT_INT32 && ind.dtype != BBRT_DT_INT64)) FAIL_SHAPE;
    if ((uint32_t)y.rank != (uint32_t)x.rank - 1u + ind.rank) FAIL_SHAPE;
    for (k = 0; k < axis; k++)
        if (y.dims[k] != x.dims[k]) FAIL_SHAPE;
    for (k = 0; k < ind.rank; k++)
        if (y.dims[axis + k] != ind.dims[k]) FAIL_SHAPE;
    for (k = axis + 1u; k < x.rank; k++)
        if (y.dims[k - 1u + ind.rank] != x.dims[k]) FAIL_SHAPE;
    if (overlaps(&x, &y) || overlaps(&ind, &y)) FAIL_SHAPE;
    return BBRT_OK;
}

/* ------------------------------------------------------- int8 kernels of TFLite builtins */
static bbrt_status_t zero_params(const bbrt_op_t *op, uint32_t from) {
    uint32_t k;
    for (k = from; k < BBRT_OP_PARAMS; k++)
        if (op->p[k] != 0) FAIL_PARAM;
    return BBRT_OK;
}

/* a multiplier and shift as TFLite's QuantizeMultiplier gives them: m in [0, 2^31), shift in [-31, 30] */
static int rq_ok(int32_t m, int32_t shift) { return m >= 0 && shift >= -31 && shift <= 30; }

/* MAXMIN_I8: A, B int8 (numpy broadcasting), Y; all three one scale and zero point (raw bytes compared);
 * p0 = 0 maximum, 1 minimum */
bbrt_status_t bbrt_c_maxmin_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t a, b, y;
    if (check_binary(pr, op, 1) != BBRT_OK) FAIL_SHAPE;
    T(pr, op->in[0], &a);
    T(pr, op->in[1], &b);
    T(pr, op->out[0], &y);
    if (!same_type(&a, &y) || !same_type(&b, &y)) FAIL_SHAPE;
    if (op->p[0] < 0 || op->p[0] > 1) FAIL_PARAM;
    return zero_params(op, 1u);
}

/* PRELU_I8: X, alpha (int8, broadcast to X), Y of X's shape; p0, p1 the identity multiplier and shift,
 * p2, p3 the alpha product's */
bbrt_status_t bbrt_c_prelu_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, y;
    uint32_t k;
    if (check_binary(pr, op, 1) != BBRT_OK) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->out[0], &y);
    if (x.rank != y.rank) FAIL_SHAPE;
    for (k = 0; k < x.rank; k++)
        if (x.dims[k] != y.dims[k]) FAIL_SHAPE;
    if (!rq_ok(op->p[0], op->p[1]) || !rq_ok(op->p[2], op->p[3])) FAIL_PARAM;
    return zero_params(op, 4u);
}

/* RESIZE_BILINEAR_I8: X [N,C,H,W] int8, table const int32 [4 * (OH + OW)], Y [N,C,OH,OW] with X's scale and
 * zero point; rows (y0, y1, wy0, wy1) with y0, y1 < H, columns (x0, x1, wx0, wx1) with x0, x1 < W, every
 * weight in [-4096, 4096] (the kernel's sums stay in int64 far from overflow); no params */
bbrt_status_t bbrt_c_resize_bilinear_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, t, y;
    const int32_t *tab;
    uint32_t i, n;
    if (op->n_in != 2u) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->in[1], &t);
    T(pr, op->out[0], &y);
    if (!is_q(&x) || !same_type(&x, &y) || x.rank != 4u || y.rank != 4u) FAIL_SHAPE;
    if (x.dims[0] != y.dims[0] || x.dims[1] != y.dims[1] || x.count == 0u) FAIL_SHAPE;
    if (t.dtype != BBRT_DT_INT32 || t.storage != BBRT_STORE_CONST) FAIL_SHAPE;
    n = y.dims[2] + y.dims[3]; /* each < 2^28 */
    if (t.count != 4u * n) FAIL_SHAPE;
    tab = (const int32_t *)(const void *)t.data;
    for (i = 0; i < n; i++) {
        const int32_t *e = tab + 4u * i;
        uint32_t lim = i < y.dims[2] ? x.dims[2] : x.dims[3];
        if (e[0] < 0 || e[1] < 0 || (uint32_t)e[0] >= lim || (uint32_t)e[1] >= lim) FAIL_PARAM;
        if (e[2] < -4096 || e[2] > 4096 || e[3] < -4096 || e[3] > 4096) FAIL_PARAM;
    }
    if (overlaps(&x, &y)) FAIL_SHAPE;
    return zero_params(op, 0u);
}

/* BATCH_MATMUL_I8: A [..., M, K], B [..., K, N], Y [..., M, N] int8 of one rank (2..8), each batch dim of A and
 * B 1 or Y's; K <= 32768 (int32 sums); p0, p1 the multiplier of s_a s_b / s_y, p2, p3 the output range */
bbrt_status_t bbrt_c_batch_matmul_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t a, b, y;
    uint32_t r, k;
    if (op->n_in != 2u) FAIL_SHAPE;
    T(pr, op->in[0], &a);
    T(pr, op->in[1], &b);
    T(pr, op->out[0], &y);
    if (!is_q(&a) || !is_q(&b) || !is_q(&y)) FAIL_SHAPE;
    r = y.rank;
    if (r < 2u || a.rank != r || b.rank != r) FAIL_SHAPE;
    if (a.dims[r - 2u] != y.dims[r - 2u] || b.dims[r - 1u] != y.dims[r - 1u] || a.dims[r - 1u] != b.dims[r - 2u])
        FAIL_SHAPE;
    if (a.dims[r - 1u] > 32768u) FAIL_SHAPE;
    for (k = 0; k + 2u < r; k++)
        if ((a.dims[k] != y.dims[k] && a.dims[k] != 1u) || (b.dims[k] != y.dims[k] && b.dims[k] != 1u))
            FAIL_SHAPE;
    if (overlaps(&a, &y) || overlaps(&b, &y)) FAIL_SHAPE;
    if (!rq_ok(op->p[0], op->p[1]) || op->p[2] < -128 || op->p[3] > 127 || op->p[2] > op->p[3]) FAIL_PARAM;
    return zero_params(op, 4u);
}

/* SVDF_I8: X [B, I] int8, Wf [F, I] int8 constant, Wt [F, M] int16 constant, bias [U] int32 constant
 * (U = F / rank), S_in [B, F*M] int16 (arena); Y [B, U] int8 and S_out (S_in's shape, another arena tensor,
 * overlapping nothing the step reads). p0, p1 the multiplier of s_x s_wf / s_state, p2, p3 of
 * s_state s_wt / s_y, p4 the rank. The state is symmetric (zero point 0, as TFLite assumes); I <= 32768
 * keeps the feature dot in int32. */
bbrt_status_t bbrt_c_svdf_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, wf, wt, b, si, y, so;
    uint32_t F, M, R;
    if (op->n_in != 5u || op->n_out != 2u) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->in[1], &wf);
    T(pr, op->in[2], &wt);
    T(pr, op->in[3], &b);
    T(pr, op->in[4], &si);
    T(pr, op->out[0], &y);
    T(pr, op->out[1], &so);
    if (!is_q(&x) || !is_q(&wf) || !is_q(&y) || wt.dtype != BBRT_DT_INT16 || b.dtype != BBRT_DT_INT32 ||
        si.dtype != BBRT_DT_INT16 || so.dtype != BBRT_DT_INT16)
        FAIL_SHAPE;
    if (x.rank != 2u || wf.rank != 2u || wt.rank != 2u || b.rank != 1u || si.rank != 2u || so.rank != 2u ||
        y.rank != 2u)
        FAIL_SHAPE;
    if (wf.storage != BBRT_STORE_CONST || wt.storage != BBRT_STORE_CONST || b.storage != BBRT_STORE_CONST ||
        si.storage != BBRT_STORE_ARENA || so.storage != BBRT_STORE_ARENA)
        FAIL_SHAPE;
    if (op->p[4] < 1) FAIL_PARAM;
    F = wf.dims[0];
    M = wt.dims[1];
    R = (uint32_t)op->p[4];
    if (F == 0u || M == 0u || F % R != 0u || wt.dims[0] != F || wf.dims[1] != x.dims[1] || x.dims[1] > 32768u)
        FAIL_SHAPE;
    if (b.dims[0] != F / R || y.dims[0] != x.dims[0] || y.dims[1] != F / R) FAIL_SHAPE;
    if ((uint64_t)F * M > 0xFFFFFFFFu || si.dims[0] != x.dims[0] || si.dims[1] != F * M) FAIL_SHAPE;
    if (so.dims[0] != si.dims[0] || so.dims[1] != si.dims[1]) FAIL_SHAPE;
    if (overlaps(&so, &si) || overlaps(&so, &x) || overlaps(&y, &x) || overlaps(&y, &si) || overlaps(&y, &so))
        FAIL_SHAPE;
    if (si.zero_point != 0 || so.zero_point != 0 || wt.zero_point != 0 || wf.zero_point != 0) FAIL_PARAM;
    if (!rq_ok(op->p[0], op->p[1]) || !rq_ok(op->p[2], op->p[3])) FAIL_PARAM;
    return zero_params(op, 5u);
}

/* LSTM_I8 (bbrt_kernels.c): X [T, B, I] or [B, T, I] int8, Wx [4, C, I] and Wh [4, C, C] int8 constants,
 * bias [2, 4, C] and Q [23] int32 constants; Y int8 (X's dims, C last), S int16 arena scratch of at least
 * 5 B C + ceil(B C / 2) values. X, Y and S share no byte. Q's multipliers are TFLite's QuantizeMultiplier
 * pairs, the hidden zero point and the output state's are int8, the cell scale is 2^-15..2^-9 (TFLite's
 * integer tanh of the cell state takes 0..6 integer bits), the clip fits int16, time-major is 0 or 1. */
bbrt_status_t bbrt_c_lstm_i8(const bbrt_program_t *pr, const bbrt_op_t *op) {
    bbrt_tensor_t x, wx, wh, b, qt, y, s;
    const int32_t *q;
    uint32_t B, C, k;
    if (op->n_in != 5u || op->n_out != 2u) FAIL_SHAPE;
    T(pr, op->in[0], &x);
    T(pr, op->in[1], &wx);
    T(pr, op->in[2], &wh);
    T(pr, op->in[3], &b);
    T(pr, op->in[4], &qt);
    T(pr, op->out[0], &y);
    T(pr, op->out[1], &s);
    if (!is_q(&x) || !is_q(&wx) || !is_q(&wh) || !is_q(&y) || b.dtype != BBRT_DT_INT32 ||
        qt.dtype != BBRT_DT_INT32 || s.dtype != BBRT_DT_INT16)
        FAIL_SHAPE;
    if (x.rank != 3u || wx.rank != 3u || wh.rank != 3u || b.rank != 3u || qt.rank != 1u || y.rank != 3u)
        FAIL_SHAPE;
    if (wx.storage != BBRT_STORE_CONST || wh.storage != BBRT_STORE_CONST || b.storage != BBRT_STORE_CONST ||
        qt.storage != BBRT_STORE_CONST || s.storage != BBRT_STORE_ARENA)
        FAIL_SHAPE;
    if (qt.dims[0] != 23u) FAIL_SHAPE;
    q = (const int32_t *)(const void *)qt.data;
    C = wx.dims[1];
    if (C == 0u || wx.dims[0] != 4u || wx.dims[2] != x.dims[2] || x.dims[2] > 65536u || C > 65536u) FAIL_SHAPE;
    if (wh.dims[0] != 4u || wh.dims[1] != C || wh.dims[2] != C) FAIL_SHAPE;
    if (b.dims[0] != 2u || b.dims[1] != 4u || b.dims[2] != C) FAIL_SHAPE;
    if (y.dims[0] != x.dims[0] || y.dims[1] != x.dims[1] || y.dims[2] != C) FAIL_SHAPE;
    if (q[21] != 0 && q[21] != 1) FAIL_PARAM;
    B = q[21] ? x.dims[1] : x.dims[0];
    if ((uint64_t)B * C * 5u + ((uint64_t)B * C + 1u) / 2u > s.count) FAIL_SHAPE;
    if (overlaps(&y, &x) || overlaps(&s, &x) || overlaps(&s, &y)) FAIL_SHAPE;
    for (k = 0; k < 9u; k++)
        if (!rq_ok(q[2u * k], q[2u * k + 1u])) FAIL_PARAM;
    if (q[18] < -128 || q[18] > 127 || q[22] < -128 || q[22] > 127) FAIL_PARAM;
    if (q[19] < -15 || q[19] > -9 || q[20] < 0 || q[20] > 32767) FAIL_PARAM;
    return zero_params(op, 0u);
}
