/* What an MCU port provides to mcu_main.c. */
#ifndef BBRT_PORT_H
#define BBRT_PORT_H
#include <stddef.h>
#include <stdint.h>

void port_init(void);
/* blocking read of one byte from the serial link */
uint8_t port_getc(void);
void port_write(const uint8_t *p, size_t n);
/* where the .bbrt program lives (a flash region / data partition) and its size limit */
const uint8_t *port_program(void);
size_t port_program_max(void);

#endif
