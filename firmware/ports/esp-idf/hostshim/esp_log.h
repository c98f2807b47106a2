/* Host stand-in for ESP-IDF's esp_log.h. */
#ifndef SHIM_ESP_LOG_H
#define SHIM_ESP_LOG_H
#include <stdio.h>
#define ESP_LOGE(tag, ...) (fprintf(stderr, "E %s: ", tag), fprintf(stderr, __VA_ARGS__), fputc('\n', stderr))
#define ESP_LOGW(tag, ...) (fprintf(stderr, "W %s: ", tag), fprintf(stderr, __VA_ARGS__), fputc('\n', stderr))
#endif
