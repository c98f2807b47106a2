/* Main loop shared by the MCU ports: load the program from its flash region,
 * take a new boot epoch from non-volatile storage, then serve the serial link
 * with the link layer (docs/wire.md) forever. Static memory only.
 *
 * Over-the-air updates (bbrt_ota.h) when built with BBRT_OTA_KEY_HEX (the node's HMAC-SHA-256 key,
 * provisioned at build time), BBRT_OTA_NODE (its deployment name) and BBRT_OTA_SLOT_SIZE: the flash
 * program is copied into RAM slot A at boot and updates are staged in slot B (A/B, both in RAM). */
#include "bbrt.h"
#include "bbrt_link.h"
#include "port.h"
#ifdef BBRT_OTA_KEY_HEX
#include "bbrt_ota.h"
#ifndef BBRT_OTA_SLOT_SIZE
#define BBRT_OTA_SLOT_SIZE 65536u
#endif
#ifndef BBRT_OTA_NODE
#define BBRT_OTA_NODE "bbrt"
#endif
static uint64_t ota_slots[2][(BBRT_OTA_SLOT_SIZE + 7u) / 8u];
static bbrt_node_ota_t ota;
static uint8_t ota_key[64];

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* the build-time key: hex, 16..64 bytes, else 0 (every OFFER is then refused NO_KEY) */
static size_t ota_key_len(void) {
    static const char hex[] = BBRT_OTA_KEY_HEX;
    size_t i, n = sizeof(hex) - 1u;
    if (n % 2u != 0u || n / 2u < 16u || n / 2u > sizeof(ota_key)) return 0u;
    for (i = 0; i < n; i += 2u) {
        int hi = hexval(hex[i]), lo = hexval(hex[i + 1u]);
        if (hi < 0 || lo < 0) return 0u;
        ota_key[i / 2u] = (uint8_t)(hi * 16 + lo);
    }
    return n / 2u;
}
#endif

#ifndef BBRT_ARENA_SIZE
#define BBRT_ARENA_SIZE 65536u
#endif

static uint64_t arena[(BBRT_ARENA_SIZE + 7u) / 8u];
/* one link frame: a larger envelope comes fragmented and its payload is written straight into the
 * arena as each fragment arrives (streaming receive), so no buffer holds the largest edge */
static uint64_t rxbuf[(BBRT_RX_FRAME_SIZE + 7u) / 8u];
static bbrt_node_t node;
static bbrt_link_t link_state;
/* staging for a fragmented non-tensor message: an OTA chunk (up to the largest payload) when this
 * build takes updates; without, none (a control message arrives whole in one frame of rxbuf) */
#ifdef BBRT_OTA_KEY_HEX
static uint64_t rasm[(BBRT_MAX_ENVELOPE + 7u) / 8u];
#define NODE_CTL ((uint8_t *)rasm)
#define NODE_CTL_BYTES sizeof(rasm)
#else
#define NODE_CTL ((uint8_t *)0)
#define NODE_CTL_BYTES 0u
#endif
/* transmit ring: one largest envelope (RAM is tight on an MCU: the next output waits for the ACKs) */
static uint64_t txbuf[(BBRT_MAX_ENVELOPE + 7u) / 8u];

static uint32_t next_epoch(void *ctx) {
    (void)ctx;
    return port_boot_epoch();
}

#include "port_link_io.h" /* now_ms, read_wait, put: the link over the port console */

#include "error_frame.h" /* refuse_forever: a node without a valid program answers each frame with ERROR */

int main(void) {
    const uint8_t *prog;
    size_t size, max;
    bbrt_status_t st;
    port_init();
    prog = port_program();
    max = port_program_max();
    /* total_size from the header, bounded by the region; the loader validates the rest */
    size = (size_t)prog[8] | ((size_t)prog[9] << 8) | ((size_t)prog[10] << 16) | ((size_t)prog[11] << 24);
    if (size > max) size = max;
#ifdef BBRT_OTA_KEY_HEX
    if (size <= BBRT_OTA_SLOT_SIZE) { /* run from RAM slot A: the slots swap roles at every update */
        bbrt_memcpy(ota_slots[0], prog, size);
        prog = (const uint8_t *)ota_slots[0];
    }
#endif
    st = bbrt_node_init(&node, prog, size, (uint8_t *)arena, sizeof(arena), (uint8_t *)rxbuf,
                        BBRT_RX_FRAME_SIZE, put, 0);
    if (st != BBRT_OK) refuse_forever(st);
    {
        /* no storage for the epoch: 1 (peers then see EpochRegressed or a repeat, never a silent reuse) */
        uint32_t epoch = port_boot_epoch();
        (void)bbrt_node_link_attach(&node, &link_state, (uint8_t *)txbuf, sizeof(txbuf), NODE_CTL,
                                    NODE_CTL_BYTES, epoch ? epoch : 1u, "bbrt",
                                    now_ms, read_wait, 0);
        bbrt_node_epoch_source(&node, next_epoch);
    }
#ifdef BBRT_OTA_KEY_HEX
    {
        size_t klen = ota_key_len();
        /* refused (-1) when the program did not fit slot A: the node then serves without updates */
        (void)bbrt_node_ota_attach(&node, &ota, BBRT_OTA_NODE, (uint8_t *)ota_slots[0], (uint8_t *)ota_slots[1],
                                   sizeof(ota_slots[0]), size, (uint8_t *)arena, sizeof(arena),
                                   klen ? ota_key : 0, klen);
    }
#endif
    for (;;) {
        uint8_t c;
        if (port_trygetc(&c)) bbrt_node_feed(&node, &c, 1u);
        else bbrt_node_poll(&node);
    }
    return 0;
}
