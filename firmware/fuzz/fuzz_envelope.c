/* libFuzzer harness: envelope decoder, deframer and the node loop fed arbitrary serial bytes,
 * bare (v1) and with the link layer attached (frames go through bbrt_link.c first). */
#include <string.h>
#include "bbrt.h"
#include "bbrt_link.h"

static uint64_t program[(1u << 16) / 8u];
static size_t program_len;
static uint64_t arena[(1u << 16) / 8u];
static uint64_t rx[(BBRT_RX_BUFFER_SIZE + 7u) / 8u];
static bbrt_node_t node;
static size_t out_bytes;
static uint64_t arena2[(1u << 16) / 8u];
static uint64_t rx2[(BBRT_RX_BUFFER_SIZE + 7u) / 8u];
static uint64_t tx2[(2u * BBRT_MAX_ENVELOPE + 7u) / 8u];
static uint64_t rasm2[(BBRT_MAX_ENVELOPE + 7u) / 8u];
static bbrt_node_t lnode;
static bbrt_link_t lnk;
static uint32_t clock_ms;

static uint32_t now_ms(void *ctx) {
    (void)ctx;
    return clock_ms;
}

static void put(void *ctx, const uint8_t *p, size_t n) {
    (void)ctx;
    (void)p;
    out_bytes += n;
}

/* a tiny valid program (Relu float on edge 1 -> edge 2) built on first use */
static void make_program(void) {
    uint8_t *b = (uint8_t *)program;
    uint32_t crc;
    static const uint8_t zero4[4] = {0, 0, 0, 0};
    memset(b, 0, 64 + 2 * 56 + 96 + 2 * 16);
    b[0] = 'B'; b[1] = 'B'; b[2] = 'R'; b[3] = 'T'; b[4] = 1;
    program_len = 64 + 2 * 56 + 96 + 2 * 16; /* 304 */
    b[8] = (uint8_t)program_len; b[9] = (uint8_t)(program_len >> 8);
    b[16] = 7;              /* node id */
    b[20] = 2; b[22] = 1; b[24] = 2;
    b[28] = 64;             /* arena */
    b[32] = 64;             /* tensors */
    b[36] = 176;            /* ops (64 + 112) */
    b[40] = 16; b[41] = 1;  /* edges at 272 */
    b[44] = 48; b[45] = 1;  /* consts at 304, size 0 */
    {   /* tensor 0: float [4] at 0; tensor 1: float [4] at 16 */
        uint8_t *t = b + 64;
        t[0] = 1; t[1] = 1; t[4] = 4; t[40] = 16;
        t += 56;
        t[0] = 1; t[1] = 1; t[4] = 4; t[36] = 16; t[40] = 16;
    }
    {   uint8_t *o = b + 176;
        o[0] = 15; o[2] = 1; o[3] = 1; o[4] = 0; o[20] = 1;
    }
    {   uint8_t *e = b + 272;
        e[0] = 1; e[8] = 0; e[9] = 1; e[10] = 0;
        e += 16;
        e[0] = 2; e[8] = 1; e[9] = 1; e[10] = 1;
    }
    crc = bbrt_crc32_update(0u, b, 12u);
    crc = bbrt_crc32_update(crc, zero4, 4u);
    crc = bbrt_crc32_update(crc, b + 16, (uint32_t)program_len - 16u);
    b[12] = (uint8_t)crc; b[13] = (uint8_t)(crc >> 8); b[14] = (uint8_t)(crc >> 16); b[15] = (uint8_t)(crc >> 24);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    bbrt_envelope_t env;
    static uint8_t buf[BBRT_MAX_ENVELOPE + 8u];
    static uint8_t enc[BBRT_MAX_ENVELOPE + 8u];
    size_t n = 0;
    if (program_len == 0u) {
        make_program();
        if (bbrt_node_init(&node, (const uint8_t *)program, program_len, (uint8_t *)arena, sizeof(arena),
                           (uint8_t *)rx, BBRT_RX_BUFFER_SIZE, put, 0) != BBRT_OK)
            __builtin_trap();
    }
    /* a fresh linked node per input (its link state would otherwise make inputs depend on history) */
    if (bbrt_node_init(&lnode, (const uint8_t *)program, program_len, (uint8_t *)arena2, sizeof(arena2),
                       (uint8_t *)rx2, BBRT_RX_BUFFER_SIZE, put, 0) != BBRT_OK ||
        bbrt_node_link_attach(&lnode, &lnk, (uint8_t *)tx2, sizeof(tx2), (uint8_t *)rasm2, sizeof(rasm2), 1u, "f",
                              now_ms, 0, 0) != BBRT_OK)
        __builtin_trap();
    /* 1. the decoder on the raw bytes, and re-encoding what it accepts must round-trip */
    if (size <= sizeof(buf)) {
        memcpy(buf, data, size);
        if (bbrt_env_decode(buf, size, BBRT_MAX_PAYLOAD, &env) == BBRT_OK) {
            if (bbrt_env_encode(&env, enc, sizeof(enc), &n) != BBRT_OK || n != size) __builtin_trap();
            /* an accepted envelope re-encodes to the identical bytes */
            if (memcmp(enc, buf, size) != 0) __builtin_trap();
        }
    }
    /* 2. the node fed the bytes as a serial stream, then a flush delimiter */
    bbrt_node_feed(&node, data, size);
    {
        uint8_t z = 0;
        bbrt_node_feed(&node, &z, 1u);
    }
    /* 3. the same bytes to a node speaking the link layer, in two halves with its timers between */
    clock_ms += 5000u;
    bbrt_node_feed(&lnode, data, size / 2u);
    bbrt_node_poll(&lnode);
    clock_ms += 700u;
    bbrt_node_feed(&lnode, data + size / 2u, size - size / 2u);
    bbrt_node_poll(&lnode);
    return 0;
}
