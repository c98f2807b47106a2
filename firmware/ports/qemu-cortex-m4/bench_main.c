/* Instruction counter for QEMU mps2-an385 (Cortex-M3) and mps2-an386 (Cortex-M4) builds.
 *
 * Loads the .bbrt program from the flash region (0x00100000, as the node port), fills its Recv
 * tensors with a fixed pseudo-random pattern, runs bbrt_program_run RUNS times and prints the
 * SysTick ticks spent, through semihosting, then exits. Under `qemu-system-arm -icount shift=0`
 * one instruction is one nanosecond of virtual time and SysTick counts the 25 MHz CPU clock of
 * both boards, so instructions = ticks * 40 (bench/bench_bbrt.py does the arithmetic).
 *
 * Inputs mode (tests/firmware/test_mlperf_tiny.py, bench/bench_mlperf_tiny.py): when the region at
 * 0x00300000 starts with "BBIN", u32 n, then n inputs of the first Recv tensor's size, each is run once
 * and the first Send tensor printed in hex ("out " + bytes); the timing then runs on the last input. */
#include "bbrt.h"

#ifndef BBRT_ARENA_SIZE
#define BBRT_ARENA_SIZE 65536u
#endif
#ifndef BENCH_RUNS
#define BENCH_RUNS 4u
#endif
/* the board's regions (the M55 build, mps3-an547, gives its own): program, inputs, SysTick clock */
#ifndef BENCH_PROGRAM_ADDR
#define BENCH_PROGRAM_ADDR 0x00100000u
#endif
#ifndef BENCH_INPUTS_ADDR
#define BENCH_INPUTS_ADDR 0x00300000u
#endif
#ifndef BENCH_CPU_HZ
#define BENCH_CPU_HZ 25000000u
#endif

#include "cm_harness.h"

static uint64_t arena[(BBRT_ARENA_SIZE + 7u) / 8u];
static bbrt_program_t prog;

#include "bench_say.h"

int main(void) {
    const uint8_t *blob = (const uint8_t *)BENCH_PROGRAM_ADDR;
    uint32_t size = (uint32_t)bbrt_blob_size(blob, 1u << 20);
    uint32_t i, t0, t1, seed = 12345u;
    bbrt_status_t st;
    st = bbrt_program_load(&prog, blob, size, (uint8_t *)arena, sizeof(arena));
    say_u32("load ", (uint32_t)st);
    if (st == BBRT_OK) {
        bbrt_edge_t e;
        bbrt_tensor_t t;
        for (i = 0; i < prog.n_edges; i++) {
            uint32_t k;
            bbrt_program_edge(&prog, i, &e);
            if (e.dir != BBRT_EDGE_RECV) continue;
            bbrt_program_tensor(&prog, e.tensor, &t);
            for (k = 0; k < t.nbytes; k++) {
                seed = seed * 1103515245u + 12345u;
                t.data[k] = (uint8_t)(seed >> 24);
            }
            if (t.dtype == BBRT_DT_FLOAT) /* small finite floats: exponent byte of each word cleared to 0x3f */
                for (k = 3; k < t.nbytes; k += 4) t.data[k] = (uint8_t)(0x3eu | (t.data[k] & 0x80u));
        }
        {
            const uint8_t *in = (const uint8_t *)BENCH_INPUTS_ADDR;
            uint32_t n = (uint32_t)in[4] | ((uint32_t)in[5] << 8) | ((uint32_t)in[6] << 16) |
                         ((uint32_t)in[7] << 24);
            bbrt_tensor_t tin, tout;
            int have_in = 0, have_out = 0;
            for (i = 0; i < prog.n_edges; i++) {
                bbrt_program_edge(&prog, i, &e);
                if (e.dir == BBRT_EDGE_RECV && !have_in) { bbrt_program_tensor(&prog, e.tensor, &tin); have_in = 1; }
                if (e.dir != BBRT_EDGE_RECV && !have_out) { bbrt_program_tensor(&prog, e.tensor, &tout); have_out = 1; }
            }
            if (in[0] == 'B' && in[1] == 'B' && in[2] == 'I' && in[3] == 'N' && have_in && have_out &&
                n <= (0x00100000u - 8u) / (tin.nbytes ? tin.nbytes : 1u)) {
                for (i = 0; i < n; i++) {
                    uint32_t k;
                    char hex[2 * 32 + 1];
                    for (k = 0; k < tin.nbytes; k++) tin.data[k] = in[8u + i * tin.nbytes + k];
                    say_u32("run ", (uint32_t)bbrt_program_run(&prog));
                    say("out ");
                    for (k = 0; k < tout.nbytes; k++) {
                        hex[2u * (k % 32u)] = "0123456789abcdef"[tout.data[k] >> 4];
                        hex[2u * (k % 32u) + 1u] = "0123456789abcdef"[tout.data[k] & 15u];
                        if (k % 32u == 31u || k + 1u == tout.nbytes) {
                            hex[2u * (k % 32u) + 2u] = 0;
                            say(hex);
                        }
                    }
                    say("\n");
                }
            }
        }
        (void)bbrt_program_run(&prog); /* warm: nothing to warm on an MCU, but the first run is not special */
        SYST_RVR = 0x00FFFFFFu;
        SYST_CVR = 0u;
        SYST_CSR = 0x5u; /* processor clock, no interrupt, enable */
        {
            uint32_t total = 0u; /* each run timed alone: the 24-bit SysTick wraps after 2^24 ticks (671 M instructions) */
            for (i = 0; i < BENCH_RUNS; i++) {
                SYST_CVR = 0u;
                t0 = SYST_CVR;
                (void)bbrt_program_run(&prog);
                t1 = SYST_CVR;
                total += (t0 - t1) & 0x00FFFFFFu;
            }
            say_u32("hz ", BENCH_CPU_HZ);
            say_u32("runs ", BENCH_RUNS);
            say_u32("ticks ", total);
        }
        /* per op: the same kernels called one by one (opcode, ticks over BENCH_RUNS) */
        for (i = 0; i < prog.n_ops; i++) {
            bbrt_op_t op;
            uint32_t r;
            bbrt_program_op(&prog, i, &op);
            t0 = SYST_CVR;
            for (r = 0; r < BENCH_RUNS; r++) (void)bbrt_op_kernels[op.opcode](&prog, &op);
            t1 = SYST_CVR;
            say_u32("op ", op.opcode);
            say_u32("opticks ", (t0 - t1) & 0x00FFFFFFu);
        }
    }
    (void)semihost(0x18u, (void *)(uintptr_t)0x20026u); /* SYS_EXIT, ADP_Stopped_ApplicationExit (AArch32: by value) */
    return 0;
}
