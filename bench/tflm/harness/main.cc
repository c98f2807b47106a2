// TFLM baseline harness (bench/bench_mlperf_tiny.py): the same protocol as bbrt's instruction counter
// (firmware/ports/qemu-cortex-m4/bench_main.c). Inputs at INPUTS_ADDR ("BBIN", u32 n, n inputs of the
// model's input size) are run once each and the output printed in hex ("out " + bytes); then BENCH_RUNS
// timed runs of the last input (SysTick ticks at CPU_HZ, printed as "hz"; instructions = ticks * 1e9 / hz
// under -icount shift=0). The addresses are the board's (bench/tflm/baseline.py's CORES).
// The interpreter and resolver live in static storage so .bss counts them, as bbrt's program struct.
#include <stdint.h>
#include <string.h>
#include <new>

#include "tensorflow/lite/micro/micro_interpreter.h"
#include "tensorflow/lite/micro/micro_mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

#include "model_data.h"  // generated: g_model[], g_model_len (in the .model section)
#include "resolver.h"    // generated: BENCH_N_OPS and add_ops()

#ifndef ARENA_SIZE
#define ARENA_SIZE (1024 * 1024)
#endif
#ifndef INPUTS_ADDR
#define INPUTS_ADDR 0x00300000u
#endif
#ifndef PROBE_ADDR
#define PROBE_ADDR 0x002FFF00u
#endif
#ifndef CPU_HZ
#define CPU_HZ 25000000u
#endif
#ifndef BENCH_RUNS
#define BENCH_RUNS 4u
#endif

extern "C" {
void bench_say(const char *s);
}

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

static void say_u32(const char *label, uint32_t v) {
    char buf[16];
    int i = 15;
    buf[i] = 0;
    do { buf[--i] = (char)('0' + v % 10u); v /= 10u; } while (v && i > 0);
    bench_say(label);
    bench_say(buf + i);
    bench_say("\n");
}

alignas(16) static uint8_t arena[ARENA_SIZE];
alignas(8) static uint8_t resolver_mem[sizeof(tflite::MicroMutableOpResolver<BENCH_N_OPS>)];
alignas(8) static uint8_t interp_mem[sizeof(tflite::MicroInterpreter)];

static uint32_t u32_at(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

int main(void) {
    // optional arena probe at PROBE_ADDR: "ARNA", u32 arena bytes to hand the interpreter (<= ARENA_SIZE);
    // the bench searches the smallest arena AllocateTensors accepts, then builds with exactly that size
    const uint8_t *probe = (const uint8_t *)PROBE_ADDR;
    uint32_t limit = ARENA_SIZE;
    int load_only = 0;
    if (probe[0] == 'A' && probe[1] == 'R' && probe[2] == 'N' && probe[3] == 'A' && u32_at(probe + 4) <= ARENA_SIZE) {
        limit = u32_at(probe + 4);
        load_only = 1;
    }
    const tflite::Model *model = tflite::GetModel(g_model);
    auto *resolver = new (resolver_mem) tflite::MicroMutableOpResolver<BENCH_N_OPS>();
    add_ops(*resolver);
    auto *interp = new (interp_mem) tflite::MicroInterpreter(model, *resolver, arena, limit);
    TfLiteStatus st = interp->AllocateTensors();
    say_u32("load ", (uint32_t)st);
    if (st != kTfLiteOk || load_only) return 1;
    say_u32("arena_used ", (uint32_t)interp->arena_used_bytes());
    TfLiteTensor *in = interp->input(0);
    TfLiteTensor *out = interp->output(0);
    const uint8_t *src = (const uint8_t *)INPUTS_ADDR;
    uint32_t n = u32_at(src + 4);
    if (src[0] == 'B' && src[1] == 'B' && src[2] == 'I' && src[3] == 'N' && n <= 64u) {
        for (uint32_t i = 0; i < n; i++) {
            memcpy(in->data.raw, src + 8u + i * in->bytes, in->bytes);
            say_u32("run ", (uint32_t)interp->Invoke());
            char hex[2 * 32 + 1];
            bench_say("out ");
            for (uint32_t k = 0; k < out->bytes; k++) {
                uint8_t b = (uint8_t)out->data.raw[k];
                hex[2u * (k % 32u)] = "0123456789abcdef"[b >> 4];
                hex[2u * (k % 32u) + 1u] = "0123456789abcdef"[b & 15u];
                if (k % 32u == 31u || k + 1u == out->bytes) {
                    hex[2u * (k % 32u) + 2u] = 0;
                    bench_say(hex);
                }
            }
            bench_say("\n");
        }
    }
    (void)interp->Invoke();
    SYST_RVR = 0x00FFFFFFu;
    SYST_CVR = 0u;
    SYST_CSR = 0x5u;
    uint32_t total = 0u;
    for (uint32_t i = 0; i < BENCH_RUNS; i++) {
        SYST_CVR = 0u;
        uint32_t t0 = SYST_CVR;
        (void)interp->Invoke();
        uint32_t t1 = SYST_CVR;
        total += (t0 - t1) & 0x00FFFFFFu;
    }
    say_u32("runs ", BENCH_RUNS);
    say_u32("ticks ", total);
    say_u32("hz ", CPU_HZ);
    return 0;
}
