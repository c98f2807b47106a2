/*
 * SPDX-FileCopyrightText: 2023 Espressif Systems (Shanghai) CO LTD
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#pragma once
#if __APPLE__
#include_next <machine/endian.h>
#else
#include <endian.h>
#endif
