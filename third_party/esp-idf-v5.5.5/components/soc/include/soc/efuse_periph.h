/*
 * SPDX-FileCopyrightText: 2019-2022 Espressif Systems (Shanghai) CO LTD
 *
 * SPDX-License-Identifier: Apache-2.0
 */

#pragma once
#include "soc/efuse_reg.h"
#include "soc/efuse_struct.h"
#include "hal/misc.h"
