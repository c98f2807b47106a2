/* Decimal output for the instruction-count harnesses (ports/qemu-cortex-m4/bench_main.c,
 * ports/qemu-xtensa/bench_main.c): one definition of say_u32 for both. The includer defines
 * `static void say(const char *s)` (its own console: semihosting or the port's UART) first. */
#ifndef BBRT_BENCH_SAY_H
#define BBRT_BENCH_SAY_H

#include <stdint.h>

static void say(const char *s);

/* `label` then `v` in decimal and a newline; a fixed 16-byte buffer holds any uint32_t (10 digits) */
static void say_u32(const char *label, uint32_t v) {
    char buf[16];
    int i = 15;
    buf[i] = 0;
    do { buf[--i] = (char)('0' + v % 10u); v /= 10u; } while (v && i > 0);
    say(label);
    say(buf + i);
    say("\n");
}

#endif
