/* Host stand-in for FreeRTOS task.h. */
#ifndef SHIM_TASK_H
#define SHIM_TASK_H
#include "freertos/FreeRTOS.h"
void vTaskDelay(TickType_t ticks);
#endif
