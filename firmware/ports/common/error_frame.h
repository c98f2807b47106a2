/* What a device that cannot start does (no valid program, no valid training image): it sends a bare
 * CONTROL ERROR envelope naming the status, and again at every frame end it receives, so the host
 * reads why instead of waiting for a HELLO. Shared by mcu_main.c and learn_mcu_main.c; included
 * once, by the file that calls it, after port.h. */
#ifndef BBRT_ERROR_FRAME_H
#define BBRT_ERROR_FRAME_H

#include "bbrt.h"
#include "port.h"

/* Encode the frame into fr (cap bytes); returns its length, or 0 if it does not fit. */
static size_t error_frame(bbrt_status_t st, uint8_t *fr, size_t cap) {
    static uint8_t env[160];
    bbrt_envelope_t e;
    size_t n = 0, m = 0;
    const char *msg = bbrt_status_name(st);
    uint32_t len = 0;
    while (msg[len]) len++;
    bbrt_env_control(&e, BBRT_PROTO_CONTROL, BBRT_CTRL_ERROR, 0u, (const uint8_t *)msg, len);
    e.flags = BBRT_FLAG_ERROR;
    if (bbrt_env_encode(&e, env, sizeof(env), &n) != BBRT_OK || bbrt_frame_encode(env, n, fr, cap, &m) != BBRT_OK)
        return 0u;
    return m;
}

/* Never returns: the device stays silent but for its refusal until it is reflashed or rebooted. */
static void refuse_forever(bbrt_status_t st) {
    static uint8_t fr[200];
    size_t m = error_frame(st, fr, sizeof(fr));
    if (m > 0u) port_write(fr, m);
    for (;;) {
        if (port_getc() == 0u && m > 0u) port_write(fr, m);
    }
}

#endif
