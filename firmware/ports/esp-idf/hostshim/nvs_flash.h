/* Host stand-in for ESP-IDF's nvs_flash.h. */
#ifndef SHIM_NVS_FLASH_H
#define SHIM_NVS_FLASH_H
#include "esp_err.h"
esp_err_t nvs_flash_init_partition(const char *label);
esp_err_t nvs_flash_erase_partition(const char *label);
#endif
