/* Host stand-in for ESP-IDF's driver/uart.h: the UART is a pty (--serial PATH). */
#ifndef SHIM_UART_H
#define SHIM_UART_H
#include <stddef.h>
#include <stdint.h>
#include "esp_err.h"
#include "freertos/FreeRTOS.h"
typedef int uart_port_t;
typedef enum { UART_DATA_8_BITS = 3 } uart_word_length_t;
typedef enum { UART_PARITY_DISABLE = 0 } uart_parity_t;
typedef enum { UART_STOP_BITS_1 = 1 } uart_stop_bits_t;
typedef enum { UART_HW_FLOWCTRL_DISABLE = 0 } uart_hw_flowcontrol_t;
typedef struct {
    int baud_rate;
    uart_word_length_t data_bits;
    uart_parity_t parity;
    uart_stop_bits_t stop_bits;
    uart_hw_flowcontrol_t flow_ctrl;
} uart_config_t;
esp_err_t uart_driver_install(uart_port_t port, int rx, int tx, int qsize, void *queue, int flags);
esp_err_t uart_param_config(uart_port_t port, const uart_config_t *cfg);
int uart_read_bytes(uart_port_t port, void *buf, uint32_t len, TickType_t wait);
int uart_write_bytes(uart_port_t port, const void *src, size_t size);
#endif
