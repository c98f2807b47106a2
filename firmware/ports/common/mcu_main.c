/* Main loop shared by the MCU ports: load the program from its flash region,
 * take a new boot epoch from non-volatile storage, then serve the serial link
 * with the link layer (docs/wire.md) forever. Static memory only. */
#include "bbrt.h"
#include "bbrt_link.h"
#include "port.h"

#ifndef BBRT_ARENA_SIZE
#define BBRT_ARENA_SIZE 65536u
#endif

static uint64_t arena[(BBRT_ARENA_SIZE + 7u) / 8u];
static uint64_t rxbuf[(BBRT_RX_BUFFER_SIZE + 7u) / 8u];
static bbrt_node_t node;
static bbrt_link_t link_state;
/* reassembly: one whole envelope of this node's largest payload */
static uint64_t rasm[(BBRT_MAX_ENVELOPE + 7u) / 8u];
/* transmit ring: one largest envelope (RAM is tight on an MCU: the next output waits for the ACKs) */
static uint64_t txbuf[(BBRT_MAX_ENVELOPE + 7u) / 8u];

static uint32_t next_epoch(void *ctx) {
    (void)ctx;
    return port_boot_epoch();
}

static uint32_t now_ms(void *ctx) {
    (void)ctx;
    return port_now_ms();
}

static size_t read_wait(void *ctx, uint8_t *buf, size_t cap, uint32_t wait_ms) {
    uint32_t t0 = port_now_ms();
    size_t n = 0;
    (void)ctx;
    while (n < cap) {
        uint8_t c;
        if (port_trygetc(&c)) {
            buf[n++] = c;
            continue;
        }
        if (n > 0u || (uint32_t)(port_now_ms() - t0) >= wait_ms) break;
    }
    return n;
}

static void put(void *ctx, const uint8_t *p, size_t n) {
    (void)ctx;
    port_write(p, n);
}

static void report_error(bbrt_status_t st) {
    /* a node without a valid program still answers with one ERROR envelope per frame */
    static uint8_t env[160];
    static uint8_t fr[200];
    bbrt_envelope_t e;
    size_t n = 0, m = 0;
    const char *msg = bbrt_status_name(st);
    uint32_t len = 0;
    while (msg[len]) len++;
    bbrt_memset(&e, 0, sizeof(e));
    e.kind = BBRT_KIND_CONTROL;
    e.protocol = BBRT_PROTO_CONTROL;
    e.flags = BBRT_FLAG_ERROR;
    e.edge = BBRT_CTRL_ERROR;
    e.dtype = BBRT_DT_UINT8;
    e.rank = 1;
    e.dims[0] = len;
    e.payload_len = len;
    e.data = (const uint8_t *)msg;
    if (bbrt_env_encode(&e, env, sizeof(env), &n) == BBRT_OK &&
        bbrt_frame_encode(env, n, fr, sizeof(fr), &m) == BBRT_OK)
        port_write(fr, m);
}

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
    st = bbrt_node_init(&node, prog, size, (uint8_t *)arena, sizeof(arena), (uint8_t *)rxbuf,
                        BBRT_RX_BUFFER_SIZE, put, 0);
    if (st != BBRT_OK) {
        report_error(st);
        for (;;) {
            if (port_getc() == 0u) report_error(st);
        }
    }
    {
        /* no storage for the epoch: 1 (peers then see EpochRegressed or a repeat, never a silent reuse) */
        uint32_t epoch = port_boot_epoch();
        (void)bbrt_node_link_attach(&node, &link_state, (uint8_t *)txbuf, sizeof(txbuf), (uint8_t *)rasm,
                              sizeof(rasm), epoch ? epoch : 1u, "bbrt",
                                    now_ms, read_wait, 0);
        bbrt_node_epoch_source(&node, next_epoch);
    }
    for (;;) {
        uint8_t c;
        if (port_trygetc(&c)) bbrt_node_feed(&node, &c, 1u);
        else bbrt_node_poll(&node);
    }
    return 0;
}
