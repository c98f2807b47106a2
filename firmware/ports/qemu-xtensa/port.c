/* Xtensa LX106 port for QEMU `-M sim -cpu lx106`: the serial link is the simulator console.
 *
 * Why the console and not a UART: the sim machine has no UART model; QEMU connects the
 * simulator console (file descriptors 0/1 of the Xtensa ISS semihosting calls) to `-serial`,
 * so `-serial pty` gives the same pty link as the UART ports. Reads poll with SYS_select_one
 * (zero timeout) so the node loop never blocks. The clock is the core's CCOUNT register;
 * the boot epoch lives in a host file (the second semihosting argument), read, incremented
 * and written back through the same calls. */
#include <stdint.h>
#include <stddef.h>
#include "port.h"

#define SYS_READ 3
#define SYS_WRITE 4
#define SYS_OPEN 5
#define SYS_CLOSE 6
#define SYS_SELECT_ONE 29
#define SYS_ARGC 1000
#define SYS_ARGV_SZ 1001
#define SYS_ARGV 1002
#define SELECT_READ 1
#define O_RDONLY_ 0
#define O_WRONLY_CREAT_TRUNC 0x241 /* QEMU passes the flags to the host open(): Linux O_WRONLY | O_CREAT | O_TRUNC */
/* CCOUNT ticks per millisecond: QEMU's lx106 core clock (40 MHz) */
#ifndef XTENSA_CCOUNT_PER_MS
#define XTENSA_CCOUNT_PER_MS 40000u
#endif

extern const uint8_t __program_start[], __program_size[];

/* one Xtensa ISS semihosting call: a2 = call, a3..a5 = arguments; returns a2 */
static int32_t simcall(int32_t nr, int32_t a, int32_t b, int32_t c) {
    register int32_t a2 __asm__("a2") = nr;
    register int32_t a3 __asm__("a3") = a;
    register int32_t a4 __asm__("a4") = b;
    register int32_t a5 __asm__("a5") = c;
    __asm__ __volatile__("simcall" : "+r"(a2), "+r"(a3) : "r"(a4), "r"(a5) : "memory");
    return a2;
}

void port_init(void) {}

int port_trygetc(uint8_t *c) {
    /* timeval {0, 0}: poll */
    static int32_t tv[2];
    if (simcall(SYS_SELECT_ONE, 0, SELECT_READ, (int32_t)(uintptr_t)tv) <= 0) return 0;
    return simcall(SYS_READ, 0, (int32_t)(uintptr_t)c, 1) == 1;
}

uint8_t port_getc(void) {
    uint8_t c = 0;
    while (!port_trygetc(&c)) {}
    return c;
}

void port_write(const uint8_t *p, size_t n) {
    while (n > 0u) {
        int32_t w = simcall(SYS_WRITE, 1, (int32_t)(uintptr_t)p, (int32_t)n);
        if (w <= 0) return; /* console gone: drop, as a UART with no listener does */
        p += (uint32_t)w;
        n -= (size_t)w;
    }
}

/* CCOUNT wraps every ~107 s at 40 MHz: extend it in software (the node loop polls far more often) */
uint32_t port_now_ms(void) {
    static uint32_t last, ms, rem;
    uint32_t now;
    __asm__ __volatile__("rsr.ccount %0" : "=a"(now));
    rem += now - last;
    last = now;
    ms += rem / XTENSA_CCOUNT_PER_MS;
    rem %= XTENSA_CCOUNT_PER_MS;
    return ms;
}

const uint8_t *port_program(void) { return __program_start; }
size_t port_program_max(void) { return (size_t)(uintptr_t)__program_size; }

/* the ARM/RISC-V semihosting entry of port.h is not used on Xtensa (different call set) */
int32_t port_semihost(uint32_t op, void *arg) {
    (void)op;
    (void)arg;
    return -1;
}

/* argv[1] of `-semihosting-config ...,arg=bbrt,arg=FILE`: the epoch file */
static uint32_t argv[64]; /* words: QEMU writes the argv[] pointers, then the strings */
static const char *epoch_path(void) {
    char *argbuf = (char *)argv;
    int32_t argc = simcall(SYS_ARGC, 0, 0, 0);
    int32_t sz = simcall(SYS_ARGV_SZ, 0, 0, 0);
    uint32_t off;
    if (argc < 2 || sz <= 0 || (uint32_t)sz > sizeof(argv) - 1u) return 0;
    (void)simcall(SYS_ARGV, (int32_t)(uintptr_t)argbuf, 0, 0);
    argbuf[sizeof(argv) - 1u] = 0;
    /* argv[] holds guest addresses of the strings, which QEMU placed inside argbuf */
    off = argv[1] - (uint32_t)(uintptr_t)argbuf;
    if (off >= (uint32_t)sz) return 0;
    return argbuf + off;
}

uint32_t port_semihost_epoch(void) {
    const char *path = epoch_path();
    char text[16];
    int32_t h, n, i;
    uint32_t e = 0, k = 0;
    if (!path) return 0u;
    h = simcall(SYS_OPEN, (int32_t)(uintptr_t)path, O_RDONLY_, 0);
    if (h >= 0) {
        n = simcall(SYS_READ, h, (int32_t)(uintptr_t)text, (int32_t)sizeof(text) - 1);
        for (i = 0; i < n && text[i] >= '0' && text[i] <= '9' && e < 400000000u; i++)
            e = e * 10u + (uint32_t)(text[i] - '0');
        (void)simcall(SYS_CLOSE, h, 0, 0);
    }
    e += 1u; /* a missing or unreadable file starts at epoch 1 */
    {
        char rev[12];
        uint32_t v = e, m = 0;
        do { rev[m++] = (char)('0' + v % 10u); v /= 10u; } while (v && m < sizeof(rev));
        while (m) text[k++] = rev[--m];
        text[k++] = '\n';
    }
    h = simcall(SYS_OPEN, (int32_t)(uintptr_t)path, O_WRONLY_CREAT_TRUNC, 0644);
    if (h < 0) return 0u;
    if (simcall(SYS_WRITE, h, (int32_t)(uintptr_t)text, (int32_t)k) != (int32_t)k) e = 0u;
    (void)simcall(SYS_CLOSE, h, 0, 0);
    return e;
}

uint32_t port_boot_epoch(void) { return port_semihost_epoch(); }
