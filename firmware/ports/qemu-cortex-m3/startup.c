/* Cortex-M3 startup and CMSDK APB UART0 driver for QEMU mps2-an385. */
#include <stdint.h>
#include <stddef.h>
#include "port.h"

extern uint32_t __data_load, __data_start, __data_end, __bss_start, __bss_end, __stack_top;
extern const uint8_t __program_start[], __program_size[];
int main(void);
void reset_handler(void);
static void hang(void) { for (;;) {} }

typedef void (*handler_t)(void);
__attribute__((section(".vectors"), used)) static const struct {
    const uint32_t *sp;
    handler_t fn[15];
} vectors = {&__stack_top,
             {reset_handler, hang, hang, hang, hang, hang, 0, 0, 0, 0, hang, hang, 0, hang, hang}};

void reset_handler(void) {
    uint32_t *s = &__data_load, *d = &__data_start;
    while (d < &__data_end) *d++ = *s++;
    for (d = &__bss_start; d < &__bss_end; d++) *d = 0u;
    (void)main();
    hang();
}

#define UART0 0x40004000u
#define UART_DATA (*(volatile uint32_t *)(UART0 + 0x00u))
#define UART_STATE (*(volatile uint32_t *)(UART0 + 0x04u))
#define UART_CTRL (*(volatile uint32_t *)(UART0 + 0x08u))
#define UART_BAUDDIV (*(volatile uint32_t *)(UART0 + 0x10u))

void port_init(void) {
    UART_BAUDDIV = 16u;
    UART_CTRL = 0x3u; /* TX and RX enable */
}

uint8_t port_getc(void) {
    while ((UART_STATE & 0x2u) == 0u) {}
    return (uint8_t)UART_DATA;
}

void port_write(const uint8_t *p, size_t n) {
    while (n--) {
        while (UART_STATE & 0x1u) {}
        UART_DATA = *p++;
    }
}

const uint8_t *port_program(void) { return __program_start; }
size_t port_program_max(void) { return (size_t)(uintptr_t)__program_size; }
