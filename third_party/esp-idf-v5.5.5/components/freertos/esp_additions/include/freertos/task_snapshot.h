/*
 * SPDX-FileCopyrightText: 2015-2023 Espressif Systems (Shanghai) CO LTD
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#pragma once

#warning freertos/task_snapshot.h header is no longer used, and will be removed in future versions.
#include "esp_private/freertos_debug.h"
