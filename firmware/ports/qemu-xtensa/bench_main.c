/* Instruction counter for the Xtensa LX106 build (QEMU `-M sim -cpu lx106 -icount shift=0`).
 *
 * Loads the .bbrt program from the port's program region, fills its Recv tensors with a fixed
 * pseudo-random pattern, runs bbrt_program_run RUNS times and prints the CCOUNT cycles spent on
 * the console (-serial stdio). Under -icount, CCOUNT follows the virtual clock, not the
 * instructions, so the harness also times a loop of a known instruction count
 * (2 instructions x CAL_ITERS) and the host converts: instructions = cycles * 2 * CAL_ITERS /
 * calibration cycles (bench/bench_bbrt.py).
 *
 * Inputs mode (tests/firmware/test_mlperf_tiny.py): when the program region holds "BBIN", u32 n and
 * n inputs of the first Recv tensor's size at offset 192 KiB (0x3FF70000; the program then below it),
 * each is run once and the first Send tensor printed in hex ("out " + bytes). */
#include "bbrt.h"
#include "port.h"

#ifndef BBRT_ARENA_SIZE
#define BBRT_ARENA_SIZE 65536u
#endif
#define RUNS 4u
#define CAL_ITERS 1000000u

static uint64_t arena[(BBRT_ARENA_SIZE + 7u) / 8u];
static bbrt_program_t prog;

static uint32_t ccount(void) {
    uint32_t c;
    __asm__ __volatile__("rsr.ccount %0" : "=a"(c));
    return c;
}

static void say(const char *s) {
    size_t n = 0;
    while (s[n]) n++;
    port_write((const uint8_t *)s, n);
}

#include "bench_say.h"

int main(void) {
    const uint8_t *blob = port_program();
    uint32_t size = (uint32_t)bbrt_blob_size(blob, port_program_max());
    uint32_t i, t0, t1, seed = 12345u, n = CAL_ITERS;
    bbrt_status_t st;
    t0 = ccount();
    __asm__ __volatile__("1: addi %0, %0, -1\n bnez %0, 1b" : "+a"(n));
    t1 = ccount();
    say_u32("cal_insns ", 2u * CAL_ITERS);
    say_u32("cal_cycles ", t1 - t0);
    st = bbrt_program_load(&prog, blob, size, (uint8_t *)arena, sizeof(arena));
    say_u32("load ", (uint32_t)st);
    if (st != BBRT_OK) return 1;
    for (i = 0; i < prog.n_edges; i++) {
        bbrt_edge_t e;
        bbrt_tensor_t t;
        uint32_t k;
        bbrt_program_edge(&prog, i, &e);
        if (e.dir != BBRT_EDGE_RECV) continue;
        bbrt_program_tensor(&prog, e.tensor, &t);
        for (k = 0; k < t.nbytes; k++) {
            seed = seed * 1103515245u + 12345u;
            t.data[k] = (uint8_t)(seed >> 24);
        }
        if (t.dtype == BBRT_DT_FLOAT) /* small finite floats */
            for (k = 3; k < t.nbytes; k += 4) t.data[k] = (uint8_t)(0x3eu | (t.data[k] & 0x80u));
    }
    {
        const uint8_t *in = (const uint8_t *)0x3FF70000u;
        uint32_t cnt = (uint32_t)in[4] | ((uint32_t)in[5] << 8) | ((uint32_t)in[6] << 16) | ((uint32_t)in[7] << 24);
        bbrt_edge_t e;
        bbrt_tensor_t tin, tout;
        int have_in = 0, have_out = 0;
        for (i = 0; i < prog.n_edges; i++) {
            bbrt_program_edge(&prog, i, &e);
            if (e.dir == BBRT_EDGE_RECV && !have_in) { bbrt_program_tensor(&prog, e.tensor, &tin); have_in = 1; }
            if (e.dir != BBRT_EDGE_RECV && !have_out) { bbrt_program_tensor(&prog, e.tensor, &tout); have_out = 1; }
        }
        if (size <= 0x30000u && in[0] == 'B' && in[1] == 'B' && in[2] == 'I' && in[3] == 'N' && have_in &&
            have_out && tin.nbytes && cnt <= (0x10000u - 8u) / tin.nbytes) {
            for (i = 0; i < cnt; i++) {
                uint32_t k;
                char hex[3];
                for (k = 0; k < tin.nbytes; k++) tin.data[k] = in[8u + i * tin.nbytes + k];
                say_u32("run ", (uint32_t)bbrt_program_run(&prog));
                say("out ");
                for (k = 0; k < tout.nbytes; k++) {
                    hex[0] = "0123456789abcdef"[tout.data[k] >> 4];
                    hex[1] = "0123456789abcdef"[tout.data[k] & 15u];
                    hex[2] = 0;
                    say(hex);
                }
                say("\n");
            }
        }
    }
    t0 = ccount();
    for (i = 0; i < RUNS; i++) (void)bbrt_program_run(&prog);
    t1 = ccount();
    say_u32("runs ", RUNS);
    say_u32("cycles ", t1 - t0);
    return 0;
}
