/* One training step of a .bbrt training program (include/bbrt_train.h): manifest validation,
 * batch validation before anything is written, in-place parameter/state updates by the
 * program itself (the lowering wrote next/<p> onto <p>'s arena bytes). No heap. */
#include "bbrt_train.h"
#include "bbrt_internal.h"

static float *fdata(const bbrt_tensor_t *t) { return (float *)(void *)t->data; }

uint32_t bbrt_train_arena_size(const uint8_t *blob, size_t size) {
    if (blob == 0 || size < BBRT_PROG_HEADER_SIZE || bbrt_rd_u32(blob) != BBRT_PROG_MAGIC) return 0u;
    return bbrt_rd_u32(blob + 28);
}

/* a tensor index from the manifest: in range, and of the wanted dtype and storage */
static int manifest_tensor(const bbrt_program_t *p, int32_t idx, uint8_t dtype, uint8_t storage,
                           bbrt_tensor_t *t) {
    if (idx < 1 || (uint32_t)idx >= p->n_tensors) return 0;
    bbrt_program_tensor(p, (uint32_t)idx, t);
    return t->dtype == dtype && t->storage == storage;
}

/* two arena tensors share no byte */
static int disjoint(const bbrt_tensor_t *a, const bbrt_tensor_t *b) {
    return a->data + a->nbytes <= b->data || b->data + b->nbytes <= a->data;
}

static bbrt_status_t read_manifest(bbrt_train_t *t) {
    const bbrt_program_t *p = &t->prog;
    bbrt_tensor_t m, x, lab, loss, lg, a, b;
    const int32_t *w;
    uint32_t i, j, need, total = 0u, np, ns;
    if (p->n_tensors < 2u) return BBRT_E_TRAIN_MANIFEST;
    bbrt_program_tensor(p, 0u, &m);
    if (m.dtype != BBRT_DT_INT32 || m.storage != BBRT_STORE_CONST || m.rank != 1u || m.count < 9u)
        return BBRT_E_TRAIN_MANIFEST;
    w = (const int32_t *)(const void *)m.data;
    if ((uint32_t)w[0] != BBRT_TRAIN_MAGIC || (uint32_t)w[1] != BBRT_TRAIN_VERSION) return BBRT_E_TRAIN_MANIFEST;
    if (w[7] < 1 || (uint32_t)w[7] > BBRT_TRAIN_MAX_PARAMS || w[8] < 0 || (uint32_t)w[8] > BBRT_TRAIN_MAX_STATE)
        return BBRT_E_TRAIN_MANIFEST;
    np = (uint32_t)w[7];
    ns = (uint32_t)w[8];
    need = 9u + 2u * np + ns;
    if (m.count != need) return BBRT_E_TRAIN_MANIFEST;
    if (w[6] < 1) return BBRT_E_TRAIN_MANIFEST;
    t->batch = (uint32_t)w[6];
    if (!manifest_tensor(p, w[2], BBRT_DT_FLOAT, BBRT_STORE_ARENA, &x) || x.rank < 1u || x.dims[0] != t->batch)
        return BBRT_E_TRAIN_MANIFEST;
    if (!manifest_tensor(p, w[3], BBRT_DT_INT32, BBRT_STORE_ARENA, &lab) || lab.count != t->batch)
        return BBRT_E_TRAIN_MANIFEST;
    if (!manifest_tensor(p, w[4], BBRT_DT_FLOAT, BBRT_STORE_ARENA, &loss) || loss.count != 1u)
        return BBRT_E_TRAIN_MANIFEST;
    if (!manifest_tensor(p, w[5], BBRT_DT_FLOAT, BBRT_STORE_ARENA, &lg) || lg.rank != 2u || lg.dims[0] != t->batch)
        return BBRT_E_TRAIN_MANIFEST;
    t->x = (uint16_t)w[2];
    t->labels = (uint16_t)w[3];
    t->loss = (uint16_t)w[4];
    t->logits = (uint16_t)w[5];
    t->features = x.count / t->batch;
    t->classes = lg.dims[1];
    t->n_params = np;
    t->n_state = ns;
    for (i = 0; i < np; i++) {
        int32_t pi = w[9u + 2u * i], ci = w[10u + 2u * i];
        uint32_t k;
        if (!manifest_tensor(p, pi, BBRT_DT_FLOAT, BBRT_STORE_ARENA, &a) ||
            !manifest_tensor(p, ci, BBRT_DT_FLOAT, BBRT_STORE_CONST, &b) || a.rank != b.rank)
            return BBRT_E_TRAIN_MANIFEST;
        for (k = 0; k < a.rank; k++)
            if (a.dims[k] != b.dims[k]) return BBRT_E_TRAIN_MANIFEST;
        t->param[i] = (uint16_t)pi;
        t->param_init[i] = (uint16_t)ci;
        total += a.count;
    }
    for (i = 0; i < ns; i++) {
        int32_t si = w[9u + 2u * np + i];
        if (!manifest_tensor(p, si, BBRT_DT_FLOAT, BBRT_STORE_ARENA, &a)) return BBRT_E_TRAIN_MANIFEST;
        t->state[i] = (uint16_t)si;
    }
    /* persistent regions never overlap each other or the batch (a step would corrupt the model) */
    for (i = 0; i < np + ns; i++) {
        bbrt_program_tensor(p, i < np ? t->param[i] : t->state[i - np], &a);
        if (!disjoint(&a, &x) || !disjoint(&a, &lab)) return BBRT_E_TRAIN_MANIFEST;
        for (j = i + 1u; j < np + ns; j++) {
            bbrt_program_tensor(p, j < np ? t->param[j] : t->state[j - np], &b);
            if (!disjoint(&a, &b)) return BBRT_E_TRAIN_MANIFEST;
        }
    }
    t->param_count = total;
    return BBRT_OK;
}

bbrt_status_t bbrt_train_load(bbrt_train_t *t, const uint8_t *blob, size_t size, uint8_t *arena,
                              size_t arena_size) {
    bbrt_status_t st;
    uint32_t i;
    if (t == 0) return BBRT_E_PROG_TRUNCATED;
    bbrt_memset(t, 0, sizeof(*t));
    st = bbrt_program_load(&t->prog, blob, size, arena, arena_size);
    if (st != BBRT_OK) return st;
    st = read_manifest(t);
    if (st != BBRT_OK) {
        bbrt_memset(t, 0, sizeof(*t));
        return st;
    }
    for (i = 0; i < t->n_params; i++) {
        bbrt_tensor_t a, c;
        bbrt_program_tensor(&t->prog, t->param[i], &a);
        bbrt_program_tensor(&t->prog, t->param_init[i], &c);
        bbrt_memcpy(a.data, c.data, a.nbytes);
    }
    bbrt_train_reset_state(t);
    return BBRT_OK;
}

void bbrt_train_reset_state(bbrt_train_t *t) {
    uint32_t i;
    for (i = 0; i < t->n_state; i++) {
        bbrt_tensor_t s;
        bbrt_program_tensor(&t->prog, t->state[i], &s);
        bbrt_memset(s.data, 0, s.nbytes);
    }
}

bbrt_status_t bbrt_train_step(bbrt_train_t *t, const float *x, const int32_t *labels, uint32_t n, float *loss) {
    bbrt_tensor_t tx, tl, tloss;
    uint32_t i;
    bbrt_status_t st;
    if (t == 0 || t->param_count == 0u || x == 0 || labels == 0) return BBRT_E_TRAIN_BATCH;
    if (n != t->batch) return BBRT_E_TRAIN_BATCH;
    for (i = 0; i < n; i++) /* every label first: a refused batch writes nothing */
        if (labels[i] < 0 || (uint32_t)labels[i] >= t->classes) return BBRT_E_TRAIN_LABEL;
    bbrt_program_tensor(&t->prog, t->x, &tx);
    bbrt_program_tensor(&t->prog, t->labels, &tl);
    bbrt_memcpy(tx.data, x, tx.nbytes);
    bbrt_memcpy(tl.data, labels, tl.nbytes);
    st = bbrt_program_run(&t->prog);
    if (st != BBRT_OK) return st;
    t->steps++;
    if (loss != 0) {
        bbrt_program_tensor(&t->prog, t->loss, &tloss);
        *loss = fdata(&tloss)[0];
    }
    return BBRT_OK;
}

const float *bbrt_train_logits(const bbrt_train_t *t) {
    bbrt_tensor_t lg;
    bbrt_program_tensor(&t->prog, t->logits, &lg);
    return fdata(&lg);
}

bbrt_status_t bbrt_train_get_params(const bbrt_train_t *t, float *out, size_t n) {
    uint32_t i, off = 0u;
    if (t == 0 || out == 0 || n != t->param_count) return BBRT_E_TRAIN_SIZE;
    for (i = 0; i < t->n_params; i++) {
        bbrt_tensor_t a;
        bbrt_program_tensor(&t->prog, t->param[i], &a);
        bbrt_memcpy(out + off, a.data, a.nbytes);
        off += a.count;
    }
    return BBRT_OK;
}

bbrt_status_t bbrt_train_set_params(bbrt_train_t *t, const float *in, size_t n) {
    uint32_t i, off = 0u;
    if (t == 0 || in == 0 || n != t->param_count) return BBRT_E_TRAIN_SIZE;
    for (i = 0; i < n; i++) { /* exponent all ones: inf or NaN; checked on the bits (no float compare) */
        union { float f; uint32_t u; } v;
        v.f = in[i];
        if ((v.u & 0x7F800000u) == 0x7F800000u) return BBRT_E_TRAIN_VALUE;
    }
    for (i = 0; i < t->n_params; i++) {
        bbrt_tensor_t a;
        bbrt_program_tensor(&t->prog, t->param[i], &a);
        bbrt_memcpy(a.data, in + off, a.nbytes);
        off += a.count;
    }
    return BBRT_OK;
}
