/* Instruction counter for the Xtensa LX106 build (QEMU `-M sim -cpu lx106 -icount shift=0`).
 *
 * Loads the .bbrt program from the port's program region, fills its Recv tensors with a fixed
 * pseudo-random pattern, runs bbrt_program_run RUNS times and prints the CCOUNT cycles spent on
 * the console (-serial stdio). Under -icount, CCOUNT follows the virtual clock, not the
 * instructions, so the harness also times a loop of a known instruction count
 * (2 instructions x CAL_ITERS) and the host converts: instructions = cycles * 2 * CAL_ITERS /
 * calibration cycles (bench/bench_bbrt.py). */
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
    uint32_t size = (uint32_t)blob[8] | ((uint32_t)blob[9] << 8) | ((uint32_t)blob[10] << 16) |
                    ((uint32_t)blob[11] << 24);
    uint32_t i, t0, t1, seed = 12345u, n = CAL_ITERS;
    bbrt_status_t st;
    if (size > port_program_max()) size = (uint32_t)port_program_max();
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
    t0 = ccount();
    for (i = 0; i < RUNS; i++) (void)bbrt_program_run(&prog);
    t1 = ccount();
    say_u32("runs ", RUNS);
    say_u32("cycles ", t1 - t0);
    return 0;
}
