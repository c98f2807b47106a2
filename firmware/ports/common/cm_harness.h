/* Bare-metal pieces of the QEMU Cortex-M instruction-count harnesses (qemu-cortex-m4/bench_main.c
 * for mps2-an385/an386, qemu-cortex-m3/bbrt_train_main.c): SysTick registers, the boot (cm_boot.h),
 * the semihosting call and say().
 * One copy for both, so the two harnesses boot and print alike. Included once, by the harness's
 * main file, which defines main(); the link script (qemu-cortex-m3/link.ld) gives the symbols. */
#ifndef BBRT_CM_HARNESS_H
#define BBRT_CM_HARNESS_H

#include <stdint.h>

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

#include "cm_boot.h"

static int32_t semihost(uint32_t op, void *arg) {
    register uint32_t r0 __asm__("r0") = op;
    register void *r1 __asm__("r1") = arg;
    __asm__ __volatile__("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return (int32_t)r0;
}

static void say(const char *s) { (void)semihost(0x04u, (void *)(uintptr_t)s); }

#endif
