/* The UART of an ESP-IDF app built for ESP-IDF's linux target (idf.py --preview set-target linux).
 *
 * Everything else the app calls is ESP-IDF's own linux-target code: FreeRTOS (POSIX port), esp_partition
 * (flash emulated in a file, esp_partition_mmap included), nvs_flash, log. ESP-IDF has no UART for the
 * linux target (its driver/uart.h needs a chip's UART), so this file implements the calls main.c makes,
 * declared with ESP-IDF's names in driver/uart.h next to it, on a tty: $BBRT_UART, a pty the host holds,
 * the way a board's UART sits on a USB serial adapter. port_linux_init also names the flash image ESP-IDF
 * maps ($BBRT_FLASH). Not exercised: the UART's FIFOs, interrupts and baud rate. Static memory only. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "driver/uart.h"
#include "esp_private/partition_linux.h"
#include "port_linux.h"

static int uart_fd = -1;

int port_linux_init(void) {
    const char *flash = getenv("BBRT_FLASH"), *tty = getenv("BBRT_UART");
    esp_partition_file_mmap_ctrl_t *ctl = esp_partition_get_file_mmap_ctrl_input();
    if (flash == NULL || tty == NULL || strlen(flash) >= sizeof(ctl->flash_file_name)) return -1;
    /* an existing image: ESP-IDF maps it whole and keeps it (NVS and program writes survive a restart) */
    strcpy(ctl->flash_file_name, flash);
    ctl->remove_dump = false;
    uart_fd = open(tty, O_RDWR | O_NOCTTY);
    return uart_fd >= 0 ? 0 : -1;
}

esp_err_t uart_driver_install(uart_port_t uart_num, int rx_buffer_size, int tx_buffer_size, int queue_size,
                              QueueHandle_t *uart_queue, int intr_alloc_flags) {
    (void)uart_num, (void)rx_buffer_size, (void)tx_buffer_size, (void)queue_size, (void)uart_queue;
    (void)intr_alloc_flags;
    return uart_fd >= 0 ? ESP_OK : ESP_FAIL;
}

esp_err_t uart_param_config(uart_port_t uart_num, const uart_config_t *uart_config) {
    struct termios tio;
    (void)uart_num, (void)uart_config;
    if (tcgetattr(uart_fd, &tio) == 0) { /* raw bytes, as the UART moves them */
        cfmakeraw(&tio);
        (void)tcsetattr(uart_fd, TCSANOW, &tio);
    }
    return ESP_OK;
}

esp_err_t uart_get_buffered_data_len(uart_port_t uart_num, size_t *size) {
    int n = 0;
    (void)uart_num;
    if (ioctl(uart_fd, FIONREAD, &n) != 0) n = 0;
    *size = n > 0 ? (size_t)n : 0u;
    return ESP_OK;
}

/* up to length bytes within ticks_to_wait (ms: the app runs FreeRTOS at 1000 Hz); the host closing the
 * line ends the program, as unplugging ends a board's session */
int uart_read_bytes(uart_port_t uart_num, void *buf, uint32_t length, TickType_t ticks_to_wait) {
    struct pollfd pfd;
    ssize_t r;
    int ready;
    (void)uart_num;
    pfd.fd = uart_fd;
    pfd.events = POLLIN;
    pfd.revents = 0;
    ready = poll(&pfd, 1, (int)(ticks_to_wait * portTICK_PERIOD_MS));
    if (ready < 0 && errno == EINTR) return 0; /* the FreeRTOS tick signal: the caller asks again */
    if (ready <= 0) return 0;
    r = read(uart_fd, buf, length);
    if (r < 0 && (errno == EINTR || errno == EAGAIN)) return 0;
    if (r <= 0) exit(0);
    return (int)r;
}

int uart_write_bytes(uart_port_t uart_num, const void *src, size_t size) {
    const uint8_t *p = (const uint8_t *)src;
    size_t left = size;
    (void)uart_num;
    while (left > 0u) {
        ssize_t w = write(uart_fd, p, left);
        if (w < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (w <= 0) return -1;
        p += w;
        left -= (size_t)w;
    }
    return (int)size;
}
