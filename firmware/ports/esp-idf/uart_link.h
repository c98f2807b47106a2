/* The serial link's I/O on an ESP-IDF UART, shared by the inference node (main.c) and the training client
 * (learn_main.c): put, the FreeRTOS-tick clock and a bounded read, as bbrt_link.h's port functions want them.
 * The including file defines BBRT_LINK_UART (the UART port number) first. Static functions: included once
 * (both are copied into the generated project's main/ beside this file). */
#ifndef BBRT_ESP_UART_LINK_H
#define BBRT_ESP_UART_LINK_H

#include <stddef.h>
#include <stdint.h>
#include "driver/uart.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"

#ifndef BBRT_LINK_UART
#error "define BBRT_LINK_UART (the UART port) before including uart_link.h"
#endif

static void put(void *ctx, const uint8_t *p, size_t n) {
    (void)ctx;
    (void)uart_write_bytes(BBRT_LINK_UART, (const char *)p, n);
}

/* the link's clock: FreeRTOS ticks (sdkconfig.defaults sets 1000 Hz) */
static uint32_t now_ms(void *ctx) {
    (void)ctx;
    return (uint32_t)(xTaskGetTickCount() * portTICK_PERIOD_MS);
}

/* up to cap bytes: the first within wait_ms, then whatever the UART already holds (uart_read_bytes
 * alone would wait for all cap bytes) */
static size_t read_wait(void *ctx, uint8_t *buf, size_t cap, uint32_t wait_ms) {
    size_t avail = 0;
    int n;
    (void)ctx;
    if (cap == 0u || uart_read_bytes(BBRT_LINK_UART, buf, 1u, pdMS_TO_TICKS(wait_ms)) <= 0) return 0u;
    if (uart_get_buffered_data_len(BBRT_LINK_UART, &avail) != ESP_OK || avail == 0u) return 1u;
    if (avail > cap - 1u) avail = cap - 1u;
    n = uart_read_bytes(BBRT_LINK_UART, buf + 1, (uint32_t)avail, 0);
    return 1u + (n > 0 ? (size_t)n : 0u);
}

#endif
