/* NS16550A UART driver for QEMU virt. */
#include <stdint.h>
#include <stddef.h>
#include "port.h"

#define UART0 0x10000000u
#define REG(o) (*(volatile uint8_t *)(UART0 + (o)))
extern const uint8_t __program_start[], __program_size[];

void port_init(void) {
    REG(1) = 0x00u; /* no interrupts */
    REG(2) = 0x07u; /* enable and reset FIFOs */
    REG(3) = 0x03u; /* 8N1 */
}

int port_trygetc(uint8_t *c) {
    if ((REG(5) & 0x01u) == 0u) return 0;
    *c = REG(0);
    return 1;
}

/* CLINT mtime of QEMU virt: 10 MHz */
#define MTIME_LO (*(volatile uint32_t *)0x0200BFF8u)
#define MTIME_HI (*(volatile uint32_t *)0x0200BFFCu)
uint32_t port_now_ms(void) {
    uint32_t hi, lo;
    do {
        hi = MTIME_HI;
        lo = MTIME_LO;
    } while (hi != MTIME_HI);
    return (uint32_t)((((uint64_t)hi << 32) | lo) / 10000u);
}

uint32_t port_boot_epoch(void) { return port_semihost_epoch(); }

uint8_t port_getc(void) {
    while ((REG(5) & 0x01u) == 0u) {}
    return REG(0);
}

void port_write(const uint8_t *p, size_t n) {
    while (n--) {
        while ((REG(5) & 0x20u) == 0u) {}
        REG(0) = *p++;
    }
}

const uint8_t *port_program(void) { return __program_start; }
size_t port_program_max(void) { return (size_t)(uintptr_t)__program_size; }
