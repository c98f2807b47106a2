/* What an MCU port provides to mcu_main.c. */
#ifndef BBRT_PORT_H
#define BBRT_PORT_H
#include <stddef.h>
#include <stdint.h>

void port_init(void);
/* blocking read of one byte from the serial link */
uint8_t port_getc(void);
/* non-blocking read: 1 and the byte in *c when one is waiting, else 0 */
int port_trygetc(uint8_t *c);
void port_write(const uint8_t *p, size_t n);
/* where the .bbrt program lives (a flash region / data partition) and its size limit */
const uint8_t *port_program(void);
size_t port_program_max(void);
/* a free-running millisecond clock (wraps at 2^32) */
uint32_t port_now_ms(void);
/* the boot epoch from non-volatile storage, incremented and stored back by this call (>= 1);
 * 0 when the storage cannot be read or written */
uint32_t port_boot_epoch(void);

/* ARM/RISC-V semihosting (QEMU -semihosting-config enable=on,target=native): the QEMU ports keep
 * their boot epoch in a host file through it (semihost.c). op and the argument block per the
 * semihosting specification; returns the host's result. */
int32_t port_semihost(uint32_t op, void *arg);
uint32_t port_semihost_epoch(void);
/* the OTA flash area in a host file (semihost.c; the third command-line word): 0 or -1 */
int port_flash_open(void);
int port_flash_read(uint32_t off, uint8_t *buf, uint32_t n);
int port_flash_write(uint32_t off, const uint8_t *buf, uint32_t n);
/* word k (0-based) of the semihosting command line, 0 when absent (semihost.c) */
const char *port_cmdline_word(unsigned k);
/* the host file at path read into buf: its length, 0 when it is missing, empty or larger than cap */
size_t port_file_read(const char *path, void *buf, size_t cap);
/* head then body written to tmp, then renamed over path (a cut mid-write keeps the old file): 0 when done */
int port_file_replace(const char *tmp, const char *path, const void *head, uint32_t nhead, const void *body,
                      uint32_t nbody);

#endif
