/* Posix harness of the training step (tests/firmware/test_bbrt_train.py, bench/bench_bbrt_train.py):
 *   bbrt-train PROGRAM.bbrt BATCHES.bin OUT.bin
 * BATCHES.bin: u32 "BBTD", u32 steps, u32 batch, u32 features, steps*batch*features float32 x,
 * steps*batch int32 labels. Runs the steps in order through bbrt_train_step and writes OUT.bin:
 * steps float32 losses, then the flat parameter vector. Arena and files are static buffers. */
#include <stdio.h>

#include "bbrt_train.h"

#ifndef BBRT_HOST_ARENA
#define BBRT_HOST_ARENA (1u << 20)
#endif
#define MAX_PROGRAM (1u << 22)
#define MAX_DATA (1u << 24)
#define MAX_PARAMS (1u << 20)

static uint64_t arena[BBRT_HOST_ARENA / 8u];
static uint64_t prog_buf[MAX_PROGRAM / 8u];
static uint64_t data_buf[MAX_DATA / 8u];
static float params[MAX_PARAMS];
static float losses[65536];
static bbrt_train_t tr;

static size_t slurp(const char *path, void *buf, size_t cap) {
    FILE *f = fopen(path, "rb");
    size_t n;
    if (!f) return 0;
    n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

int main(int argc, char **argv) {
    size_t np, nd;
    const uint32_t *h = (const uint32_t *)(const void *)data_buf;
    uint32_t steps, batch, feat, s;
    const float *x;
    const int32_t *lab;
    bbrt_status_t st;
    FILE *out;
    if (argc != 4) {
        fprintf(stderr, "usage: bbrt-train PROGRAM BATCHES OUT\n");
        return 2;
    }
    np = slurp(argv[1], prog_buf, sizeof(prog_buf));
    nd = slurp(argv[2], data_buf, sizeof(data_buf));
    st = bbrt_train_load(&tr, (const uint8_t *)prog_buf, np, (uint8_t *)arena, sizeof(arena));
    if (st != BBRT_OK) {
        fprintf(stderr, "load: %d\n", (int)st);
        return 3;
    }
    if (nd < 16u || h[0] != 0x44544242u) {
        fprintf(stderr, "bad batches file\n");
        return 4;
    }
    steps = h[1];
    batch = h[2];
    feat = h[3];
    if (feat != tr.features || steps > 65536u || tr.param_count > MAX_PARAMS ||
        16u + (uint64_t)steps * batch * (feat + 1u) * 4u > nd) {
        fprintf(stderr, "batches do not match the program\n");
        return 4;
    }
    x = (const float *)(const void *)(h + 4);
    lab = (const int32_t *)(const void *)(x + (size_t)steps * batch * feat);
    for (s = 0; s < steps; s++) {
        st = bbrt_train_step(&tr, x + (size_t)s * batch * feat, lab + (size_t)s * batch, batch, &losses[s]);
        if (st != BBRT_OK) {
            fprintf(stderr, "step %u: %d\n", s, (int)st);
            return 5;
        }
    }
    (void)bbrt_train_get_params(&tr, params, tr.param_count);
    out = fopen(argv[3], "wb");
    if (!out) return 6;
    fwrite(losses, 4, steps, out);
    fwrite(params, 4, tr.param_count, out);
    fclose(out);
    return 0;
}
