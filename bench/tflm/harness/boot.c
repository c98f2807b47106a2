/* Boot of the TFLM baseline app: vector table, .data/.bss set-up, C++ constructors, main, exit through
 * semihosting; SysTick and semihosting output for the harness (as firmware/ports/common/cm_harness.h). */
#include <stdint.h>

extern uint32_t __data_load, __data_start, __data_end, __bss_start, __bss_end, __stack_top;
extern void (*__init_array_start[])(void), (*__init_array_end[])(void);
int main(void);
void reset_handler(void);
static void hang(void) { for (;;) {} }

typedef void (*handler_t)(void);
__attribute__((section(".vectors"), used)) static const struct {
    const uint32_t *sp;
    handler_t fn[15];
} vectors = {&__stack_top, {reset_handler, hang, hang, hang, hang, hang, 0, 0, 0, 0, hang, hang, 0, hang, hang}};

int32_t bench_semihost(uint32_t op, void *arg) {
    register uint32_t r0 __asm__("r0") = op;
    register void *r1 __asm__("r1") = arg;
    __asm__ __volatile__("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return (int32_t)r0;
}

void bench_say(const char *s) { (void)bench_semihost(0x04u, (void *)(uintptr_t)s); }

void bench_exit(void) { (void)bench_semihost(0x18u, (void *)(uintptr_t)0x20026u); }

void reset_handler(void) {
    uint32_t *s = &__data_load, *d = &__data_start;
    void (**f)(void);
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
    /* hard-float/MVE builds (Cortex-M55): CP10/CP11 full access before any FP or vector instruction */
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
    while (d < &__data_end) *d++ = *s++;
    for (d = &__bss_start; d < &__bss_end; d++) *d = 0u;
    for (f = __init_array_start; f < __init_array_end; f++) (*f)();
    (void)main();
    bench_exit();
    hang();
}

/* newlib's nosys stubs cover the rest; TFLM allocates nothing from the heap (checked: no _sbrk call) */
