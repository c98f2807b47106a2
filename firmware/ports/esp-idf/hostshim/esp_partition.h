/* Host stand-in for ESP-IDF's esp_partition.h: the "bblearn" partition is a file read at start. */
#ifndef SHIM_ESP_PARTITION_H
#define SHIM_ESP_PARTITION_H
#include <stddef.h>
#include <stdint.h>
#include "esp_err.h"
typedef enum { ESP_PARTITION_TYPE_APP = 0, ESP_PARTITION_TYPE_DATA = 1 } esp_partition_type_t;
typedef int esp_partition_subtype_t;
typedef enum { ESP_PARTITION_MMAP_DATA = 0, ESP_PARTITION_MMAP_INST = 1 } esp_partition_mmap_memory_t;
typedef uint32_t esp_partition_mmap_handle_t;
typedef struct {
    esp_partition_type_t type;
    esp_partition_subtype_t subtype;
    uint32_t address, size;
    char label[17];
} esp_partition_t;
const esp_partition_t *esp_partition_find_first(esp_partition_type_t type, esp_partition_subtype_t subtype,
                                                const char *label);
esp_err_t esp_partition_mmap(const esp_partition_t *p, size_t offset, size_t size, esp_partition_mmap_memory_t memory,
                             const void **out_ptr, esp_partition_mmap_handle_t *out_handle);
#endif
