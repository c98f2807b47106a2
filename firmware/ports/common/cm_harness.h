/* Bare-metal pieces of the QEMU Cortex-M instruction-count harnesses (qemu-cortex-m4/bench_main.c
 * for mps2-an385/an386, qemu-cortex-m3/bbrt_train_main.c): SysTick registers, the vector table,
 * the reset handler (copy .data, zero .bss, run main, hang), the semihosting call and say().
 * One copy for both, so the two harnesses boot and print alike. Included once, by the harness's
 * main file, which defines main(); the link script (qemu-cortex-m3/link.ld) gives the symbols. */
#ifndef BBRT_CM_HARNESS_H
#define BBRT_CM_HARNESS_H

#include <stdint.h>

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

extern uint32_t __data_load, __data_start, __data_end, __bss_start, __bss_end, __stack_top;
int main(void);
void reset_handler(void);
static void hang(void) { for (;;) {} }

typedef void (*handler_t)(void);
__attribute__((section(".vectors"), used)) static const struct {
    const uint32_t *sp;
    handler_t fn[15];
} vectors = {&__stack_top, {reset_handler, hang, hang, hang, hang, hang, 0, 0, 0, 0, hang, hang, 0, hang, hang}};

static int32_t semihost(uint32_t op, void *arg) {
    register uint32_t r0 __asm__("r0") = op;
    register void *r1 __asm__("r1") = arg;
    __asm__ __volatile__("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return (int32_t)r0;
}

static void say(const char *s) { (void)semihost(0x04u, (void *)(uintptr_t)s); }

void reset_handler(void) {
    uint32_t *s = &__data_load, *d = &__data_start;
    while (d < &__data_end) *d++ = *s++;
    for (d = &__bss_start; d < &__bss_end; d++) *d = 0u;
    (void)main();
    hang();
}

#endif
