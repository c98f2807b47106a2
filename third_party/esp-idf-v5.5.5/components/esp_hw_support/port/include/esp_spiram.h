/*
 * SPDX-FileCopyrightText: 2022 Espressif Systems (Shanghai) CO LTD
 *
 * SPDX-License-Identifier: Apache-2.0
 */

#pragma once

#include "esp_psram.h"
#warning "esp_spiram.h is deprecated, please migrate to esp_psram.h"
