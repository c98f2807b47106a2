/* .bbrt program loader: validate everything before anything runs (docs/bbrt.md). Uses the base layer
 * (bbrt_base.c) and reaches the per-op checks and kernels only through the resolver's tables
 * (bbrt_op_checks, bbrt_op_kernels), never by name: bbrt_check.c and bbrt_kernels.c sit above it. */
#include "bbrt.h"
#include "bbrt_internal.h"

#define T_REC(prog, i) ((prog)->blob + (prog)->tensors_off + (uint32_t)(i) * BBRT_TENSOR_RECORD)
#define O_REC(prog, i) ((prog)->blob + (prog)->ops_off + (uint32_t)(i) * BBRT_OP_RECORD)
#define E_REC(prog, i) ((prog)->blob + (prog)->edges_off + (uint32_t)(i) * BBRT_EDGE_RECORD)

void bbrt_program_tensor(const bbrt_program_t *prog, uint32_t i, bbrt_tensor_t *t) {
    const uint8_t *r = T_REC(prog, i);
    uint32_t k, off;
    t->dtype = r[0];
    t->rank = r[1];
    t->storage = r[2];
    t->count = 1u;
    for (k = 0; k < BBRT_MAX_RANK; k++) {
        t->dims[k] = bbrt_rd_u32(r + 4u + 4u * k);
        if (k < t->rank) t->count *= t->dims[k];
    }
    off = bbrt_rd_u32(r + 36);
    t->nbytes = bbrt_rd_u32(r + 40);
    t->scale = bbrt_rd_f32(r + 44);
    t->zero_point = (int32_t)bbrt_rd_u32(r + 48);
    if (t->storage == BBRT_STORE_CONST)
        t->data = (uint8_t *)(uintptr_t)(prog->blob + prog->consts_off + off);
    else
        t->data = prog->arena + off;
}

void bbrt_program_op(const bbrt_program_t *prog, uint32_t i, bbrt_op_t *op) {
    const uint8_t *r = O_REC(prog, i);
    uint32_t k;
    op->opcode = bbrt_rd_u16(r);
    op->n_in = r[2];
    op->n_out = r[3];
    for (k = 0; k < BBRT_MAX_OP_IN; k++) op->in[k] = bbrt_rd_u16(r + 4u + 2u * k);
    for (k = 0; k < BBRT_MAX_OP_OUT; k++) op->out[k] = bbrt_rd_u16(r + 20u + 2u * k);
    for (k = 0; k < BBRT_OP_PARAMS; k++) op->p[k] = (int32_t)bbrt_rd_u32(r + 32u + 4u * k);
}

void bbrt_program_edge(const bbrt_program_t *prog, uint32_t i, bbrt_edge_t *e) {
    const uint8_t *r = E_REC(prog, i);
    e->edge_id = bbrt_rd_u32(r);
    e->peer = bbrt_rd_u32(r + 4);
    e->dir = r[8];
    e->elem_type = r[9];
    e->tensor = bbrt_rd_u16(r + 10);
}

static int table_ok(uint32_t off, uint32_t n, uint32_t rec, uint32_t size) {
    uint64_t end = (uint64_t)off + (uint64_t)n * rec;
    return off >= BBRT_PROG_HEADER_SIZE && (off & 7u) == 0u && end <= size;
}

static bbrt_status_t check_tensor(const bbrt_program_t *prog, uint32_t i) {
    const uint8_t *r = T_REC(prog, i);
    uint32_t k, isz, off, nbytes;
    uint64_t count = 1u;
    uint8_t dtype = r[0], rank = r[1], storage = r[2];
    uint32_t scale;
    int32_t zp;
    if (dtype != BBRT_DT_FLOAT && dtype != BBRT_DT_INT8 && dtype != BBRT_DT_UINT8 &&
        dtype != BBRT_DT_INT32 && dtype != BBRT_DT_INT64 && /* INT64: run-time indices (GATHER), copies */
        dtype != BBRT_DT_INT16) /* INT16: symmetric quantized data (SVDF_I8's time weights and state) */
        return BBRT_E_PROG_TENSOR;
    if (rank > BBRT_MAX_RANK || storage > BBRT_STORE_CONST || r[3] != 0u) return BBRT_E_PROG_TENSOR;
    isz = bbrt_dtype_size(dtype);
    for (k = 0; k < rank; k++) {
        count *= bbrt_rd_u32(r + 4u + 4u * k);
        if (count > 0x10000000ull) return BBRT_E_PROG_TENSOR; /* 2^28 elements */
    }
    for (k = rank; k < BBRT_MAX_RANK; k++)
        if (bbrt_rd_u32(r + 4u + 4u * k) != 0u) return BBRT_E_PROG_TENSOR;
    off = bbrt_rd_u32(r + 36);
    nbytes = bbrt_rd_u32(r + 40);
    if ((uint64_t)nbytes != count * isz) return BBRT_E_PROG_TENSOR;
    if ((off & 7u) != 0u) return BBRT_E_PROG_ALIGN;
    if (storage == BBRT_STORE_CONST) {
        if ((uint64_t)off + nbytes > prog->consts_size) return BBRT_E_PROG_BOUNDS;
    } else {
        if ((uint64_t)off + nbytes > prog->arena_size) return BBRT_E_PROG_BOUNDS;
    }
    /* scale finite, > 0 and <= 3.0e38f, tested on its IEEE bits: a positive float orders as its
     * bit pattern, sign/NaN/inf patterns are above 0x7F61B1E6 (3.0e38f), +0 is 0. No float
     * compare: an int8-only program links no soft-float helper for it. */
    scale = bbrt_rd_u32(r + 44);
    zp = (int32_t)bbrt_rd_u32(r + 48);
    if (dtype == BBRT_DT_INT8) {
        if (scale == 0u || scale > 0x7F61B1E6u || zp < -128 || zp > 127) return BBRT_E_PROG_TENSOR;
    } else if (dtype == BBRT_DT_UINT8) {
        if (scale == 0u || scale > 0x7F61B1E6u || zp < 0 || zp > 255) return BBRT_E_PROG_TENSOR;
    } else if (dtype == BBRT_DT_INT16) {
        if (scale == 0u || scale > 0x7F61B1E6u || zp != 0) return BBRT_E_PROG_TENSOR;
    } else if (dtype == BBRT_DT_INT64) {
        if (scale != 0u || zp != 0) return BBRT_E_PROG_TENSOR; /* indices are not quantized */
    }
    if (bbrt_rd_u32(r + 52) != 0u) return BBRT_E_PROG_TENSOR;
    return BBRT_OK;
}

static bbrt_status_t check_edge(const bbrt_program_t *prog, uint32_t i) {
    bbrt_edge_t e, o;
    bbrt_tensor_t t;
    uint32_t j;
    bbrt_program_edge(prog, i, &e);
    if (e.dir > BBRT_EDGE_STATE || e.tensor >= prog->n_tensors) return BBRT_E_PROG_EDGE;
    if (bbrt_rd_u32(E_REC(prog, i) + 12) != 0u) return BBRT_E_PROG_EDGE;
    bbrt_program_tensor(prog, e.tensor, &t);
    if (e.dir == BBRT_EDGE_STATE) { /* a state pair: two distinct arena tensors of one dtype, shape and size */
        bbrt_tensor_t u;
        uint32_t k;
        if (e.edge_id != 0u || e.peer >= prog->n_tensors || e.peer == e.tensor) return BBRT_E_PROG_EDGE;
        bbrt_program_tensor(prog, e.peer, &u);
        if (t.storage != BBRT_STORE_ARENA || u.storage != BBRT_STORE_ARENA || t.dtype != e.elem_type ||
            u.dtype != t.dtype || u.rank != t.rank || u.nbytes != t.nbytes || t.nbytes > 0x7FFFFFF8u)
            return BBRT_E_PROG_EDGE;
        for (k = 0; k < t.rank; k++)
            if (u.dims[k] != t.dims[k]) return BBRT_E_PROG_EDGE;
        for (j = 0; j < i; j++) { /* each state input once */
            bbrt_program_edge(prog, j, &o);
            if (o.dir == BBRT_EDGE_STATE && o.tensor == e.tensor) return BBRT_E_PROG_EDGE;
        }
        return BBRT_OK;
    }
    if (t.dtype != e.elem_type) return BBRT_E_PROG_EDGE;
    if (t.nbytes > BBRT_MAX_PAYLOAD) return BBRT_E_PROG_EDGE;
    if (e.dir == BBRT_EDGE_RECV) {
        if (t.storage != BBRT_STORE_ARENA) return BBRT_E_PROG_EDGE;
        for (j = 0; j < i; j++) {
            bbrt_program_edge(prog, j, &o);
            if (o.dir == BBRT_EDGE_RECV && o.edge_id == e.edge_id) return BBRT_E_PROG_EDGE;
        }
    }
    return BBRT_OK;
}

size_t bbrt_blob_size(const uint8_t *blob, size_t cap) {
    size_t total;
    if (blob == 0 || cap < 12u) return 0u;
    total = (size_t)bbrt_rd_u32(blob + 8);
    return total < cap ? total : cap;
}

bbrt_status_t bbrt_program_load(bbrt_program_t *prog, const uint8_t *b, size_t size,
                                uint8_t *arena, size_t arena_size) {
    uint32_t i, total, crc, n;
    bbrt_status_t st;
    union { uint32_t u; uint8_t c[4]; } endian;
    endian.u = 1u;
    if (endian.c[0] != 1u) return BBRT_E_NOT_LITTLE_ENDIAN;
    if (prog == 0 || b == 0) return BBRT_E_PROG_TRUNCATED;
    bbrt_memset(prog, 0, sizeof(*prog));
    if (size < BBRT_PROG_HEADER_SIZE) return BBRT_E_PROG_TRUNCATED;
    if (((uintptr_t)b & 7u) != 0u || ((uintptr_t)arena & 7u) != 0u) return BBRT_E_PROG_ALIGN;
    if (bbrt_rd_u32(b) != BBRT_PROG_MAGIC) return BBRT_E_PROG_MAGIC;
    if (bbrt_rd_u16(b + 4) != BBRT_PROG_VERSION) return BBRT_E_PROG_VERSION;
    if (bbrt_rd_u16(b + 6) != 0u) return BBRT_E_PROG_VERSION; /* no flags defined in v1 */
    total = bbrt_rd_u32(b + 8);
    if (total < BBRT_PROG_HEADER_SIZE || (size_t)total > size) return BBRT_E_PROG_TRUNCATED;
    /* CRC over the whole program with the crc field taken as zero */
    {
        static const uint8_t zero4[4] = {0u, 0u, 0u, 0u};
        crc = bbrt_crc32_update(0u, b, 12u);
        crc = bbrt_crc32_update(crc, zero4, 4u);
        crc = bbrt_crc32_update(crc, b + 16, total - 16u);
        if (crc != bbrt_rd_u32(b + 12)) return BBRT_E_PROG_CRC;
    }
    prog->blob = b;
    prog->size = total;
    prog->node_id = bbrt_rd_u32(b + 16);
    prog->n_tensors = bbrt_rd_u16(b + 20);
    prog->n_ops = bbrt_rd_u16(b + 22);
    prog->n_edges = bbrt_rd_u16(b + 24);
    prog->arena_size = bbrt_rd_u32(b + 28);
    prog->tensors_off = bbrt_rd_u32(b + 32);
    prog->ops_off = bbrt_rd_u32(b + 36);
    prog->edges_off = bbrt_rd_u32(b + 40);
    prog->consts_off = bbrt_rd_u32(b + 44);
    prog->consts_size = bbrt_rd_u32(b + 48);
    prog->arena = arena;
    if (bbrt_rd_u16(b + 26) != 0u) return BBRT_E_PROG_VERSION;
    if (!table_ok(prog->tensors_off, prog->n_tensors, BBRT_TENSOR_RECORD, total) ||
        !table_ok(prog->ops_off, prog->n_ops, BBRT_OP_RECORD, total) ||
        !table_ok(prog->edges_off, prog->n_edges, BBRT_EDGE_RECORD, total) ||
        !table_ok(prog->consts_off, prog->consts_size, 1u, total))
        return BBRT_E_PROG_BOUNDS;
    if (prog->n_edges > BBRT_MAX_EDGES) return BBRT_E_PROG_EDGE;
    if ((size_t)prog->arena_size > arena_size || (prog->arena_size > 0u && arena == 0))
        return BBRT_E_ARENA_SMALL;
    for (i = 0; i < prog->n_tensors; i++) {
        st = check_tensor(prog, i);
        if (st != BBRT_OK) return st;
    }
    for (i = 0; i < prog->n_edges; i++) {
        st = check_edge(prog, i);
        if (st != BBRT_OK) return st;
    }
    n = prog->n_ops;
    for (i = 0; i < n; i++) {
        bbrt_op_t op;
        uint32_t k;
        const uint8_t *r = O_REC(prog, i);
        bbrt_program_op(prog, i, &op);
        if (op.opcode == 0u || op.opcode >= BBRT_OP__COUNT) return BBRT_E_PROG_OPCODE;
        if (bbrt_op_kernels[op.opcode] == 0) return BBRT_E_PROG_UNSUPPORTED;
        /* one output, but SVDF_I8's second: the next state of its STATE pair; LSTM_I8's: its scratch */
        if (op.n_in < 1u || op.n_in > BBRT_MAX_OP_IN ||
            op.n_out != (op.opcode == BBRT_OP_SVDF_I8 || op.opcode == BBRT_OP_LSTM_I8 ? 2u : 1u))
            return BBRT_E_PROG_SHAPE;
        if (bbrt_rd_u32(r + 24) != 0u || bbrt_rd_u32(r + 28) != 0u) return BBRT_E_PROG_PARAM;
        for (k = 0; k < op.n_in; k++)
            if (op.in[k] >= prog->n_tensors) return BBRT_E_PROG_BOUNDS;
        for (k = 0; k < op.n_out; k++) {
            bbrt_tensor_t t;
            if (op.out[k] >= prog->n_tensors) return BBRT_E_PROG_BOUNDS;
            bbrt_program_tensor(prog, op.out[k], &t);
            if (t.storage != BBRT_STORE_ARENA) return BBRT_E_PROG_SHAPE; /* never write constants */
        }
        st = bbrt_op_check(prog, &op);
        if (st != BBRT_OK) return st;
    }
    return BBRT_OK;
}

/* The check of one op, through the resolver's table: the checks (bbrt_check.c) read the program with
 * bbrt_program_tensor, so this file calls none of them by name and the layers stay a DAG. */
bbrt_status_t bbrt_op_check(const bbrt_program_t *pr, const bbrt_op_t *op) {
    /* no check linked: the op is not in this build's resolver (the loader reports it first) */
    if (op->opcode >= BBRT_OP__COUNT || bbrt_op_checks[op->opcode] == 0) return BBRT_E_PROG_OPCODE;
    return bbrt_op_checks[op->opcode](pr, op);
}

bbrt_status_t bbrt_program_run(const bbrt_program_t *prog) {
    uint32_t i;
    for (i = 0; i < prog->n_ops; i++) {
        bbrt_op_t op;
        bbrt_status_t st;
        bbrt_program_op(prog, i, &op);
        st = bbrt_op_kernels[op.opcode](prog, &op);
        if (st != BBRT_OK) return st;
    }
    return BBRT_OK;
}
