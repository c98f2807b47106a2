/*
 * SPDX-FileCopyrightText: 2010-2022 Espressif Systems (Shanghai) CO LTD
 *
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Compatibility header file.
 */
#pragma once

#include "heap_memory_layout.h"
#include "esp_memory_utils.h"
