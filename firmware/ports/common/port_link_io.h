/* The link layer's I/O callbacks over the port's byte console (port.h), shared by the MCU node
 * (mcu_main.c) and the MCU training client (learn_mcu_main.c): one copy, so both wait on the
 * UART alike. Included once by the port main file; static, so each build keeps its own. */
#ifndef BBRT_PORT_LINK_IO_H
#define BBRT_PORT_LINK_IO_H

#include <stddef.h>
#include <stdint.h>

#include "port.h"

/* the link's clock: the port's millisecond counter */
static uint32_t now_ms(void *ctx) {
    (void)ctx;
    return port_now_ms();
}

/* up to cap bytes: returns as soon as one byte came and the line went quiet, or after wait_ms with none */
static size_t read_wait(void *ctx, uint8_t *buf, size_t cap, uint32_t wait_ms) {
    uint32_t t0 = port_now_ms();
    size_t n = 0;
    (void)ctx;
    while (n < cap) {
        uint8_t c;
        if (port_trygetc(&c)) {
            buf[n++] = c;
            continue;
        }
        if (n > 0u || (uint32_t)(port_now_ms() - t0) >= wait_ms) break;
    }
    return n;
}

/* the link's frame writer: all n bytes to the console */
static void put(void *ctx, const uint8_t *p, size_t n) {
    (void)ctx;
    port_write(p, n);
}

#endif
