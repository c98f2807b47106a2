/* ESP-IDF port of the FedAvg training client (bbrt_learn.h "learn node"), generated into the project of
 * `bb-edge build LEARN_DIR --target NODE=esp32` (bb_edge/bundle/learning/espidf.py):
 *   - the learning image (shard, settings, .bbrt training step) is memory-mapped from the "bblearn" data
 *     partition (subtype 0x41): a new shard or step is flashed without rebuilding the app;
 *   - the boot epoch (u32 "epoch") and the round record (blob "round": bbrt_learn_record_t + model floats)
 *     live in the NVS partition "bbstate" (its own partition, sized for the record by the generator).
 *     NVS writes a blob's new version before it erases the old one, so a power cut in the middle of a
 *     save leaves the previous record whole (the role FILE.tmp + rename plays on the other ports);
 *   - the serial link (COBS + CRC-32 frames, docs/wire.md) runs on a UART; a bridge (bb_edge/adapters/learn/mcu_fleet.py)
 *     relays its envelopes to the fleet's broker unopened.
 * Built for ESP-IDF's linux target the same file runs on the host: ESP-IDF emulates flash (esp_partition) and
 * NVS; port_linux/port_linux.c puts the UART on a tty (docs/targets.md "ESP32 on ESP-IDF").
 * Static memory only: arena, work area and link buffers are sized at build time (bbrt_learn_config.h). */
#include <stdint.h>
#include <string.h>
#include "esp_err.h"
#include "esp_log.h"
#include "esp_partition.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "driver/uart.h"
#include "nvs.h"
#include "nvs_flash.h"
#include "bbrt.h"
#include "bbrt_learn.h"
#include "bbrt_link.h"
#include "bbrt_train.h"
#include "bbrt_learn_config.h"
#if CONFIG_IDF_TARGET_LINUX
#include "port_linux.h"
#endif

#define LEARN_MAX_PARAMS (BBRT_MAX_PAYLOAD / 4u)

static const char *TAG = "bbrt-learn";
static uint64_t arena[(BBRT_ARENA_SIZE + 7u) / 8u];
static uint64_t work[(BBRT_LEARN_WORK + 7u) / 8u];
static uint64_t rasm[(BBRT_MAX_ENVELOPE + 7u) / 8u];
/* transmit ring: one largest envelope plus room for control envelopes and heartbeats */
static uint64_t txbuf[(BBRT_MAX_ENVELOPE + 1024u + 7u) / 8u];
static uint64_t saved[(sizeof(bbrt_learn_record_t) + 4u * LEARN_MAX_PARAMS + 7u) / 8u];
static bbrt_train_t train;
static bbrt_link_t link_state;
static bbrt_learn_node_t node;
static nvs_handle_t store;
static uint8_t store_open;

#define BBRT_LINK_UART BBRT_UART_NUM
#include "uart_link.h" /* put, now_ms, read_wait: the link on the UART (shared with main.c) */

/* the round record: one NVS blob (rec + model) written in a single set_blob + commit */
static int save_record(void *ctx, const bbrt_learn_record_t *rec, const float *model, uint32_t n) {
    size_t len = sizeof(*rec) + (size_t)n * 4u;
    (void)ctx;
    if (!store_open) return 1;
    if (n > LEARN_MAX_PARAMS || len > sizeof(saved)) return 1;
    /* one contiguous blob: the record's header and its model are stored (and replaced) together */
    memcpy(saved, rec, sizeof(*rec));
    memcpy((uint8_t *)saved + sizeof(*rec), model, (size_t)n * 4u);
    if (nvs_set_blob(store, "round", saved, len) != ESP_OK) return 1;
    return nvs_commit(store) != ESP_OK;
}

/* the boot epoch in NVS: read, +1, stored and committed before the first HELLO (0 on failure) */
static uint32_t bump_epoch(void) {
    uint32_t e = 0;
    if (!store_open) return 0u;
    if (nvs_get_u32(store, "epoch", &e) != ESP_OK) e = 0u; /* a fresh partition starts at epoch 1 */
    e += 1u;
    if (e == 0u) e = 1u;
    if (nvs_set_u32(store, "epoch", e) != ESP_OK || nvs_commit(store) != ESP_OK) return 0u;
    return e;
}

static uint32_t next_epoch(void *ctx) {
    (void)ctx;
    return bump_epoch();
}

/* the stored record's length (0: none, or larger than this build's buffer: a fresh start) */
static size_t load_record(void) {
    size_t len = 0;
    if (!store_open) return 0u;
    if (nvs_get_blob(store, "round", NULL, &len) != ESP_OK || len == 0u || len > sizeof(saved)) return 0u;
    if (nvs_get_blob(store, "round", saved, &len) != ESP_OK) return 0u;
    return len;
}

static void open_store(void) {
    esp_err_t err = nvs_flash_init_partition(BBRT_STATE_PARTITION);
    if (err == ESP_ERR_NVS_NO_FREE_PAGES || err == ESP_ERR_NVS_NEW_VERSION_FOUND) {
        /* a partition from another layout: erase it (the client starts fresh and JOINs) */
        if (nvs_flash_erase_partition(BBRT_STATE_PARTITION) == ESP_OK) err = nvs_flash_init_partition(BBRT_STATE_PARTITION);
    }
    if (err != ESP_OK) {
        ESP_LOGE(TAG, "no round-state NVS partition %s (%d): rounds are not kept across a reboot", BBRT_STATE_PARTITION,
                 (int)err);
        return;
    }
    store_open = nvs_open_from_partition(BBRT_STATE_PARTITION, "bblearn", NVS_READWRITE, &store) == ESP_OK;
}

void app_main(void) {
    const esp_partition_t *part;
    const void *map = NULL;
    esp_partition_mmap_handle_t handle;
    const uint8_t *img;
    size_t size, have;
    uint32_t epoch;
    bbrt_learn_port_t port;
    bbrt_status_t st;
    static uint8_t buf[256];
#if CONFIG_IDF_TARGET_LINUX
    if (port_linux_init() != 0) {
        ESP_LOGE(TAG, "linux target: set BBRT_FLASH (the flash image) and BBRT_UART (a tty)");
        return;
    }
#endif
    part = esp_partition_find_first(ESP_PARTITION_TYPE_DATA, (esp_partition_subtype_t)BBRT_LEARN_PARTITION_SUBTYPE, "bblearn");
    if (part == NULL || esp_partition_mmap(part, 0, part->size, ESP_PARTITION_MMAP_DATA, &map, &handle) != ESP_OK) {
        ESP_LOGE(TAG, "no bblearn data partition: flash learn.bin to it (README.md)");
        return;
    }
    img = (const uint8_t *)map;
    size = bbrt_blob_size(img, part->size); /* bbrt_learn_image_parse refuses a truncated image */
    ESP_ERROR_CHECK(uart_driver_install(BBRT_UART_NUM, 4096, 4096, 0, NULL, 0));
    {
        uart_config_t cfg = {.baud_rate = BBRT_UART_BAUD, .data_bits = UART_DATA_8_BITS,
                             .parity = UART_PARITY_DISABLE, .stop_bits = UART_STOP_BITS_1,
                             .flow_ctrl = UART_HW_FLOWCTRL_DISABLE};
        ESP_ERROR_CHECK(uart_param_config(BBRT_UART_NUM, &cfg));
    }
    open_store();
    have = load_record();
    epoch = bump_epoch();
    port.put = put;
    port.read = read_wait;
    port.now = now_ms;
    port.save = save_record;
    port.next_epoch = next_epoch;
    port.ctx = NULL;
    st = bbrt_learn_node_init(&node, img, size, &train, (uint8_t *)arena, sizeof(arena), &link_state,
                              (uint8_t *)txbuf, sizeof(txbuf), (uint8_t *)rasm, sizeof(rasm), (uint8_t *)work,
                              sizeof(work), epoch ? epoch : 1u, &port, have ? (const uint8_t *)saved : NULL, have);
    if (st != BBRT_OK) {
        ESP_LOGE(TAG, "learning image refused: %s", bbrt_status_name(st));
        return;
    }
    for (;;) {
        /* bounded wait: the client's own timers (JOIN, heartbeat, link retransmits) are polled too */
        uint32_t wait = bbrt_link_next_deadline(&link_state, now_ms(NULL));
        size_t n;
        if (wait > 50u) wait = 50u;
        n = read_wait(NULL, buf, sizeof(buf), wait);
        if (n > 0u) bbrt_learn_node_feed(&node, buf, n);
        bbrt_learn_node_poll(&node);
    }
}
