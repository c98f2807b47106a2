/* Host stand-ins for the ESP-IDF calls of ../learn_main.c, so the generated app runs on Linux in tests:
 *   app IMAGE --serial PTY [--epoch-file IGNORED] --state-file DIR
 * IMAGE is the "bblearn" partition's content, PTY the UART, DIR the "bbstate" NVS partition (one file
 * per namespace.key). What this does NOT exercise: the real NVS page format and wear levelling, flash
 * mmap alignment, the UART driver's FIFOs and FreeRTOS scheduling. The line closing ends the process. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "driver/uart.h"
#include "esp_partition.h"
#include "esp_timer.h"
#include "freertos/task.h"
#include "nvs.h"
#include "nvs_flash.h"

#define SHIM_IMAGE_MAX (4u << 20)
static uint64_t image[SHIM_IMAGE_MAX / 8u];
static esp_partition_t learn_part;
static int uart_fd = -1;
static const char *nvs_dir;
static char nvs_ns[16];

void app_main(void);

int64_t esp_timer_get_time(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void vTaskDelay(TickType_t ticks) { usleep((useconds_t)ticks * 1000u); }

const esp_partition_t *esp_partition_find_first(esp_partition_type_t type, esp_partition_subtype_t subtype,
                                                const char *label) {
    if (type != learn_part.type || subtype != learn_part.subtype || strcmp(label, learn_part.label) != 0) return NULL;
    return &learn_part;
}

esp_err_t esp_partition_mmap(const esp_partition_t *p, size_t offset, size_t size, esp_partition_mmap_memory_t memory,
                             const void **out_ptr, esp_partition_mmap_handle_t *out_handle) {
    (void)memory;
    if (p != &learn_part || offset + size > p->size) return ESP_FAIL;
    *out_ptr = (const uint8_t *)image + offset;
    *out_handle = 1u;
    return ESP_OK;
}

esp_err_t uart_driver_install(uart_port_t port, int rx, int tx, int qsize, void *queue, int flags) {
    (void)port, (void)rx, (void)tx, (void)qsize, (void)queue, (void)flags;
    return uart_fd >= 0 ? ESP_OK : ESP_FAIL;
}

esp_err_t uart_param_config(uart_port_t port, const uart_config_t *cfg) {
    struct termios tio;
    (void)port, (void)cfg;
    if (tcgetattr(uart_fd, &tio) == 0) {
        cfmakeraw(&tio);
        tcsetattr(uart_fd, TCSANOW, &tio);
    }
    return ESP_OK;
}

int uart_read_bytes(uart_port_t port, void *buf, uint32_t len, TickType_t wait) {
    struct pollfd pfd;
    ssize_t r;
    (void)port;
    pfd.fd = uart_fd;
    pfd.events = POLLIN;
    pfd.revents = 0;
    if (poll(&pfd, 1, (int)wait) <= 0) return 0;
    r = read(uart_fd, buf, len);
    if (r < 0 && (errno == EINTR || errno == EAGAIN)) return 0;
    if (r <= 0) exit(0); /* the host closed the line: the test is over */
    return (int)r;
}

int uart_write_bytes(uart_port_t port, const void *src, size_t size) {
    const uint8_t *p = (const uint8_t *)src;
    size_t left = size;
    (void)port;
    while (left > 0u) {
        ssize_t w = write(uart_fd, p, left);
        if (w < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (w <= 0) return -1;
        p += w;
        left -= (size_t)w;
    }
    return (int)size;
}

esp_err_t nvs_flash_init_partition(const char *label) {
    return nvs_dir != NULL && strcmp(label, "bbstate") == 0 ? ESP_OK : ESP_ERR_NOT_FOUND;
}

esp_err_t nvs_flash_erase_partition(const char *label) {
    (void)label;
    return ESP_FAIL;
}

esp_err_t nvs_open_from_partition(const char *part, const char *ns, nvs_open_mode_t mode, nvs_handle_t *out) {
    (void)mode;
    if (nvs_dir == NULL || strcmp(part, "bbstate") != 0 || strlen(ns) >= sizeof(nvs_ns)) return ESP_FAIL;
    strcpy(nvs_ns, ns);
    *out = 1u;
    return ESP_OK;
}

static void key_path(char *out, size_t cap, const char *key, const char *suffix) {
    snprintf(out, cap, "%s/%s.%s%s", nvs_dir, nvs_ns, key, suffix);
}

esp_err_t nvs_get_blob(nvs_handle_t h, const char *key, void *out, size_t *len) {
    char path[4200];
    FILE *f;
    long size;
    (void)h;
    key_path(path, sizeof(path), key, "");
    f = fopen(path, "rb");
    if (f == NULL) return ESP_ERR_NVS_NOT_FOUND;
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (out == NULL) {
        *len = (size_t)size;
    } else if ((size_t)size > *len || fread(out, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        return ESP_ERR_INVALID_SIZE;
    } else {
        *len = (size_t)size;
    }
    fclose(f);
    return ESP_OK;
}

esp_err_t nvs_set_blob(nvs_handle_t h, const char *key, const void *value, size_t len) {
    char path[4200], tmp[4210];
    int fd, bad;
    (void)h;
    key_path(path, sizeof(path), key, "");
    key_path(tmp, sizeof(tmp), key, ".tmp");
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return ESP_FAIL;
    bad = write(fd, value, len) != (ssize_t)len || fsync(fd) != 0;
    close(fd);
    return bad || rename(tmp, path) != 0 ? ESP_FAIL : ESP_OK;
}

esp_err_t nvs_get_u32(nvs_handle_t h, const char *key, uint32_t *out) {
    size_t len = 4u;
    uint32_t v;
    esp_err_t e = nvs_get_blob(h, key, &v, &len);
    if (e != ESP_OK) return e;
    if (len != 4u) return ESP_ERR_INVALID_SIZE;
    *out = v;
    return ESP_OK;
}

esp_err_t nvs_set_u32(nvs_handle_t h, const char *key, uint32_t value) { return nvs_set_blob(h, key, &value, 4u); }

esp_err_t nvs_commit(nvs_handle_t h) {
    (void)h;
    return ESP_OK;
}

int main(int argc, char **argv) {
    const char *serial = NULL;
    FILE *f;
    size_t n;
    int i;
    if (argc < 2) return 2;
    for (i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--serial") == 0) serial = argv[i + 1];
        else if (strcmp(argv[i], "--state-file") == 0) nvs_dir = argv[i + 1];
    }
    f = fopen(argv[1], "rb");
    if (f == NULL || serial == NULL) return 2;
    n = fread(image, 1, sizeof(image), f);
    fclose(f);
    learn_part.type = ESP_PARTITION_TYPE_DATA;
    learn_part.subtype = SHIM_LEARN_SUBTYPE;
    learn_part.size = (uint32_t)n;
    strcpy(learn_part.label, "bblearn");
    if (nvs_dir != NULL) (void)mkdir(nvs_dir, 0755); /* a blank partition */
    uart_fd = open(serial, O_RDWR | O_NOCTTY);
    if (uart_fd < 0) return 2;
    app_main();
    return 1; /* app_main returned: the image was refused (logged on stderr) */
}
