/* Host stand-in for ESP-IDF's esp_err.h (tests only: the generated app compiled and run on Linux). */
#ifndef SHIM_ESP_ERR_H
#define SHIM_ESP_ERR_H
#include <stdio.h>
#include <stdlib.h>
typedef int esp_err_t;
#define ESP_OK 0
#define ESP_FAIL -1
#define ESP_ERR_NOT_FOUND 0x105
#define ESP_ERR_INVALID_SIZE 0x104
#define ESP_ERR_NVS_NOT_FOUND 0x1102
#define ESP_ERR_NVS_NO_FREE_PAGES 0x110d
#define ESP_ERR_NVS_NEW_VERSION_FOUND 0x1110
#define ESP_ERROR_CHECK(x) do { esp_err_t e_ = (x); if (e_ != ESP_OK) { fprintf(stderr, "ESP_ERROR_CHECK %d\n", e_); abort(); } } while (0)
#endif
