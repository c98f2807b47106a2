/*
 * SPDX-FileCopyrightText: 2015-2024 Espressif Systems (Shanghai) CO LTD
 *
 * SPDX-License-Identifier: Apache-2.0
 */

#pragma once
#warning "esp_log_internal.h is deprecated, please migrate to esp_log_buffer.h"
#include "esp_log_buffer.h"
