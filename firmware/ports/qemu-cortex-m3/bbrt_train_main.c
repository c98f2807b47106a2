/* QEMU mps2-an385 (Cortex-M3) harness of the training step (tests/firmware/test_bbrt_train.py,
 * bench/bench_bbrt_train.py). The .bbrt training program is loaded at 0x00100000 and a batches
 * blob (the posix harness's BATCHES.bin format) at 0x00200000, both by QEMU's loader device.
 * Runs every step through bbrt_train_step, printing through semihosting the SysTick ticks of
 * each step (under -icount shift=0: instructions = ticks * 40), the loss bits, and at the end
 * the parameter vector as hex words; then exits. */
#include "bbrt_train.h"

#ifndef BBRT_ARENA_SIZE
#define BBRT_ARENA_SIZE 65536u
#endif
#define PROG_ADDR 0x00100000u
#define DATA_ADDR 0x00200000u
#define DATA_MAX 0x00100000u

#include "cm_harness.h"

static uint64_t arena[(BBRT_ARENA_SIZE + 7u) / 8u];
static bbrt_train_t tr;

#include "bench_say.h"

/* "<tag> XXXXXXXX\n" for a 32-bit word */
static void say_hex(const char *tag, uint32_t v) {
    static const char hexd[] = "0123456789abcdef";
    char line[32];
    uint32_t n = 0, k;
    while (tag[n] && n < 20u) {
        line[n] = tag[n];
        n++;
    }
    line[n++] = ' ';
    for (k = 0; k < 8u; k++) line[n++] = hexd[(v >> (28u - 4u * k)) & 0xFu];
    line[n++] = '\n';
    line[n] = 0;
    say(line);
}

static uint32_t rd(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

int main(void) {
    const uint8_t *blob = (const uint8_t *)PROG_ADDR;
    const uint8_t *data = (const uint8_t *)DATA_ADDR;
    uint32_t size = (uint32_t)bbrt_blob_size(blob, DATA_ADDR - PROG_ADDR), steps, batch, feat, s, i;
    bbrt_status_t st;
    st = bbrt_train_load(&tr, blob, size, (uint8_t *)arena, sizeof(arena));
    say_u32("load ", (uint32_t)st);
    steps = rd(data + 4);
    batch = rd(data + 8);
    feat = rd(data + 12);
    if (st == BBRT_OK && rd(data) == 0x44544242u && feat == tr.features && batch == tr.batch &&
        steps <= 4096u && 16u + (uint64_t)steps * batch * (feat + 1u) * 4u <= DATA_MAX) {
        const float *x = (const float *)(const void *)(data + 16);
        const int32_t *lab = (const int32_t *)(const void *)(x + steps * batch * feat);
        SYST_RVR = 0x00FFFFFFu;
        SYST_CVR = 0u;
        SYST_CSR = 0x5u; /* processor clock, no interrupt, enable */
        for (s = 0; s < steps; s++) {
            union { float f; uint32_t u; } loss;
            uint32_t t0 = SYST_CVR, t1;
            st = bbrt_train_step(&tr, x + s * batch * feat, lab + s * batch, batch, &loss.f);
            t1 = SYST_CVR;
            if (st != BBRT_OK) {
                say_u32("step_error ", (uint32_t)st);
                break;
            }
            say_u32("ticks ", (t0 - t1) & 0x00FFFFFFu); /* counts down; a step is far below one wrap */
            say_hex("loss", loss.u);
        }
        say_u32("params ", tr.param_count);
        for (i = 0; i < tr.n_params; i++) {
            bbrt_tensor_t p;
            uint32_t k;
            bbrt_program_tensor(&tr.prog, tr.param[i], &p);
            for (k = 0; k < p.count; k++) {
                union { float f; uint32_t u; } v;
                v.f = ((const float *)(const void *)p.data)[k];
                say_hex("p", v.u);
            }
        }
    } else {
        say("bad batches\n");
    }
    say("done\n");
    (void)semihost(0x18u, (void *)(uintptr_t)0x20026u); /* SYS_EXIT, ADP_Stopped_ApplicationExit */
    return 0;
}
