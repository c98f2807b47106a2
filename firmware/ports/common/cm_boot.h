/* The Cortex-M boot shared by every QEMU mps2 image (the M3 node, the M3 training harness, the M4
 * bench): the vector table and the reset handler (copy .data, zero .bss, run main, hang). The link
 * script (qemu-cortex-m3/link.ld) gives the symbols. Included once, by the file that defines main()
 * or the port; define CM_SYSTICK_HANDLER first to take the SysTick interrupt. */
#ifndef BBRT_CM_BOOT_H
#define BBRT_CM_BOOT_H

#include <stdint.h>

extern uint32_t __data_load, __data_start, __data_end, __bss_start, __bss_end, __stack_top;
int main(void);
void reset_handler(void);
static void hang(void) { for (;;) {} }

#ifndef CM_SYSTICK_HANDLER
#define CM_SYSTICK_HANDLER hang
#endif

typedef void (*handler_t)(void);
__attribute__((section(".vectors"), used)) static const struct {
    const uint32_t *sp;
    handler_t fn[15];
} vectors = {&__stack_top,
             {reset_handler, hang, hang, hang, hang, hang, 0, 0, 0, 0, hang, hang, 0, hang, CM_SYSTICK_HANDLER}};

void reset_handler(void) {
    uint32_t *s = &__data_load, *d = &__data_start;
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
    /* FPU/MVE builds (Cortex-M55): CP10/CP11 full access before any FP or vector instruction */
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
    while (d < &__data_end) *d++ = *s++;
    for (d = &__bss_start; d < &__bss_end; d++) *d = 0u;
    (void)main();
    hang();
}

#endif
