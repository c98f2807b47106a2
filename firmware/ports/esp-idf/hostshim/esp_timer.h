/* Host stand-in for ESP-IDF's esp_timer.h: microseconds since boot. */
#ifndef SHIM_ESP_TIMER_H
#define SHIM_ESP_TIMER_H
#include <stdint.h>
int64_t esp_timer_get_time(void);
#endif
