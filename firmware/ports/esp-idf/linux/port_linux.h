/* What a board has and ESP-IDF's linux target does not: the UART and the flash chip (port_linux.c). */
#ifndef BBRT_PORT_LINUX_H
#define BBRT_PORT_LINUX_H

/* Point ESP-IDF's emulated flash at $BBRT_FLASH (a whole flash image: partition table at 0x8000, NVS,
 * the program partition, as `bb-edge flash` writes a board) and open the tty $BBRT_UART as UART 0.
 * Call first in app_main; returns 0 when both are there. */
int port_linux_init(void);

#endif
