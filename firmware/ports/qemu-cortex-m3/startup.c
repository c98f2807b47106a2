/* Cortex-M3 startup and CMSDK APB UART0 driver for QEMU mps2-an385. */
#include <stdint.h>
#include <stddef.h>
#include "port.h"

extern const uint8_t __program_start[], __program_size[];
void systick_handler(void);
static volatile uint32_t ticks_ms;
void systick_handler(void) { ticks_ms++; }

#define CM_SYSTICK_HANDLER systick_handler
#include "cm_boot.h"

#ifndef CM_UART0
#define CM_UART0 0x40004000u /* mps2-an385 UART0 (the M55 port includes this file with its own) */
#endif
#define UART0 CM_UART0
#define UART_DATA (*(volatile uint32_t *)(UART0 + 0x00u))
#define UART_STATE (*(volatile uint32_t *)(UART0 + 0x04u))
#define UART_CTRL (*(volatile uint32_t *)(UART0 + 0x08u))
#define UART_BAUDDIV (*(volatile uint32_t *)(UART0 + 0x10u))

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#ifndef CM_CPU_HZ
#define CM_CPU_HZ 25000000u /* mps2-an385 system clock */
#endif
#define CPU_HZ CM_CPU_HZ

void port_init(void) {
    UART_BAUDDIV = 16u;
    UART_CTRL = 0x3u; /* TX and RX enable */
    SYST_RVR = CPU_HZ / 1000u - 1u; /* 1 ms */
    SYST_CVR = 0u;
    SYST_CSR = 0x7u; /* processor clock, interrupt, enable */
}

uint32_t port_now_ms(void) { return ticks_ms; }

int port_trygetc(uint8_t *c) {
    if ((UART_STATE & 0x2u) == 0u) return 0;
    *c = (uint8_t)UART_DATA;
    return 1;
}

int32_t port_semihost(uint32_t op, void *arg) {
    register uint32_t r0 __asm__("r0") = op;
    register void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return (int32_t)r0;
}

uint32_t port_boot_epoch(void) { return port_semihost_epoch(); }

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
