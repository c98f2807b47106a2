/* Main loop shared by the MCU ports: load the program from its flash region,
 * take a new boot epoch from non-volatile storage, then serve the serial link
 * with the link layer (docs/wire.md) forever. Static memory only.
 *
 * Over-the-air updates (bbrt_ota.h) when built with BBRT_OTA_KEY_HEX (the node's HMAC-SHA-256 key,
 * provisioned at build time), BBRT_OTA_NODE (its node name), BBRT_OTA_DEPLOYMENT (the deployment name
 * signed manifests must carry) and BBRT_OTA_SLOT_SIZE: the program runs from RAM slot A and updates are
 * staged in slot B (A/B, both in RAM). When the port has a flash area for updates (the QEMU ports: a
 * host file through semihosting), the boot record there picks the program (an updated one whose SHA-256
 * checks, else the factory program of the flash region) and keeps the highest accepted version; updates
 * are written to it before READY and SWITCHED (bbrt_node_ota_persist), so they survive power cuts. */
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
#ifndef BBRT_OTA_DEPLOYMENT
#define BBRT_OTA_DEPLOYMENT ""
#endif
static uint64_t ota_slots[2][(BBRT_OTA_SLOT_SIZE + 7u) / 8u];
static bbrt_node_ota_t ota;
static uint8_t ota_key[64];
static bbrt_ota_flash_t ota_flash;
static bbrt_ota_record_t ota_booted;
static int ota_flash_ok; /* the port has a flash area for updates */

static int flash_read(void *ctx, uint32_t off, uint8_t *buf, uint32_t n) {
    (void)ctx;
    return port_flash_read(off, buf, n);
}

static int flash_write(void *ctx, uint32_t off, const uint8_t *buf, uint32_t n) {
    (void)ctx;
    return port_flash_write(off, buf, n);
}

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
/* transmit ring: one largest envelope sent (RAM is tight on an MCU: the next output waits for the ACKs).
 * BBRT_TX_PAYLOAD (the build's largest Send edge, at least a control message's text) may be below
 * BBRT_MAX_PAYLOAD, which also bounds what is received; an OTA build sends update records: the full size */
#if !defined(BBRT_TX_PAYLOAD) || defined(BBRT_OTA_KEY_HEX)
#undef BBRT_TX_PAYLOAD
#define BBRT_TX_PAYLOAD BBRT_MAX_PAYLOAD
#endif
static uint64_t txbuf[(96u + BBRT_TX_PAYLOAD + 7u) / 8u];

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
    size = bbrt_blob_size(prog, max);
#ifdef BBRT_OTA_KEY_HEX
    ota_flash.read = flash_read;
    ota_flash.write = flash_write;
    ota_flash.slot_cap = BBRT_OTA_SLOT_SIZE;
    ota_flash.page = 256u;
    ota_flash_ok = port_flash_open() == 0;
    if (ota_flash_ok &&
        bbrt_ota_boot(&ota_flash, (uint8_t *)ota_slots[0], sizeof(ota_slots[0]), &ota_booted) == 0) {
        prog = (const uint8_t *)ota_slots[0]; /* an update, its SHA-256 checked against its record */
        size = ota_booted.len;
    } else if (size <= BBRT_OTA_SLOT_SIZE) { /* run from RAM slot A: the slots swap roles at every update */
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
        if (bbrt_node_ota_attach(&node, &ota, BBRT_OTA_NODE, (uint8_t *)ota_slots[0], (uint8_t *)ota_slots[1],
                                 sizeof(ota_slots[0]), size, (uint8_t *)arena, sizeof(arena),
                                 klen ? ota_key : 0, klen) == 0)
            (void)bbrt_node_ota_persist(&ota, ota_flash_ok ? &ota_flash : 0, &ota_booted, BBRT_OTA_DEPLOYMENT);
    }
#endif
    for (;;) {
        uint8_t c;
        if (port_trygetc(&c)) bbrt_node_feed(&node, &c, 1u);
        else bbrt_node_poll(&node);
    }
    return 0;
}
