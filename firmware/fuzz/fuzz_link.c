/* libFuzzer harness: the link layer (bbrt_link.c) fed arbitrary frame bodies, sends and clock steps,
 * and a node with the link attached fed arbitrary serial bytes.
 *
 * Input: a script of records  u8 op | u8 len | len bytes
 *   op % 4 == 0: receive the bytes as one frame body
 *   op % 4 == 1: send the bytes (repeated to op * len bytes) as an envelope
 *   op % 4 == 2: advance the clock by len * 7 ms and poll
 *   op % 4 == 3: receive a peer HELLO whose epoch/version/window/max_frame come from the bytes
 * The link starts with a valid handshake when the first byte is even. Checked after every step:
 * every frame put out is a link frame no larger than BBRT_LINK_MTU (or a HELLO), every envelope
 * handed up fits the reassembly budget, the window state is consistent. */
#include <string.h>
#include "bbrt.h"
#include "bbrt_link.h"

static bbrt_link_t link_a;
static uint8_t txbuf[3u * BBRT_LINK_MTU];
static uint8_t rasm[2u * BBRT_LINK_MTU];
static uint8_t sendbuf[255u * 255u];

static void emit(void *ctx, const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
    (void)ctx;
    if (na < 8u || a[0] != 0xBBu || a[1] != 0xA1u) __builtin_trap();
    if (a[2] == BBRT_LINK_HELLO) {
        if (na + nb > BBRT_HELLO_MAX_BODY) __builtin_trap();
    } else if (na + nb > BBRT_LINK_MTU) {
        __builtin_trap();
    }
    if (nb && b == 0) __builtin_trap();
    {   /* touch every byte: ASan catches a chunk outside the transmit buffer */
        volatile uint8_t x = 0;
        size_t i;
        for (i = 0; i < nb; i++) x ^= b[i];
        (void)x;
    }
}

static void deliver(void *ctx, const uint8_t *env, size_t len) {
    volatile uint8_t x = 0;
    size_t i;
    (void)ctx;
    if (len == 0u || len > sizeof(rasm) + BBRT_LINK_MTU) __builtin_trap();
    for (i = 0; i < len; i++) x ^= env[i];
    (void)x;
}

static void event(void *ctx, bbrt_link_event_t ev, uint32_t a, uint32_t b) {
    (void)ctx;
    (void)a;
    (void)b;
    if ((unsigned)ev == 0u || (unsigned)ev >= BBRT_LEV__COUNT) __builtin_trap();
}

static void check(const bbrt_link_t *l) {
    uint32_t i;
    for (i = 0; i < BBRT_LINK_WINDOW; i++)
        if (l->slots[i].used && (l->slots[i].lseq == 0u || l->slots[i].lseq >= l->next_lseq)) __builtin_trap();
    for (i = 0; i < BBRT_LINK_RASM_MSGS; i++)
        if (l->rx[i].used && l->rx[i].base + l->rx[i].total > l->rasm_cap) __builtin_trap();
}

static size_t peer_hello(uint8_t *out, const uint8_t *p, size_t n) {
    bbrt_hello_t h;
    memset(&h, 0, sizeof(h));
    h.min_version = 1;
    h.max_version = (uint8_t)(n > 0 ? 1u + (p[0] & 1u) : 1u);
    h.caps = BBRT_CAP_ARQ | BBRT_CAP_FRAG;
    h.boot_epoch = n > 1 ? 1u + p[1] : 1u;
    h.node_id = 7;
    h.max_frame = n > 2 ? 64u + (uint32_t)p[2] * 20u : BBRT_LINK_MTU;
    h.window = (uint16_t)(n > 3 ? 1u + (p[3] & 31u) : 8u);
    return bbrt_link_hello_body(&h, n > 4 && (p[4] & 1u), out, BBRT_HELLO_MAX_BODY);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    bbrt_hello_t local;
    uint32_t now = 1000u;
    size_t i = 0;
    uint8_t hb[BBRT_HELLO_MAX_BODY];
    memset(&local, 0, sizeof(local));
    local.min_version = 1;
    local.max_version = 1;
    local.caps = BBRT_CAP_ARQ | BBRT_CAP_FRAG;
    local.boot_epoch = 3;
    local.node_id = 1;
    local.max_frame = BBRT_LINK_MTU;
    local.window = BBRT_LINK_WINDOW;
    bbrt_link_init(&link_a, &local, 0, txbuf, sizeof(txbuf), rasm, sizeof(rasm), emit, deliver, event, 0);
    bbrt_link_start(&link_a, now);
    if (size && !(data[0] & 1u)) {
        size_t n = peer_hello(hb, data, size);
        bbrt_link_receive(&link_a, hb, n, now);
    }
    while (i + 2u <= size) {
        uint8_t op = data[i], len = data[i + 1];
        const uint8_t *p = data + i + 2u;
        size_t avail = size - i - 2u, n = len < avail ? len : avail;
        switch (op % 4u) {
        case 0:
            bbrt_link_receive(&link_a, p, n, now);
            break;
        case 1: {
            size_t k, total = (size_t)(op / 4u + 1u) * n;
            for (k = 0; k < total; k++) sendbuf[k] = n ? p[k % n] : 0u;
            (void)bbrt_link_send(&link_a, sendbuf, total / 2u, sendbuf + total / 2u, total - total / 2u, now);
            break;
        }
        case 2:
            now += (uint32_t)len * 7u;
            bbrt_link_poll(&link_a, now);
            break;
        default: {
            size_t m = peer_hello(hb, p, n);
            bbrt_link_receive(&link_a, hb, m, now);
            break;
        }
        }
        check(&link_a);
        (void)bbrt_link_next_deadline(&link_a, now);
        i += 2u + n;
    }
    return 0;
}
