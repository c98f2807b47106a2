/* Main loop of the MCU training client (QEMU Cortex-M3 / RV32 ports): the learning image from the
 * flash region, a new boot epoch, the round record in a host file through semihosting, then the
 * serial link forever (bbrt_learn.h "learn node"). Static memory only, no heap.
 *
 * Why semihosting for the round record: QEMU's emulated flash of mps2-an385 and virt is RAM, lost
 * when QEMU exits, so the record goes where the boot epoch goes (semihost.c): a host file the
 * firmware itself writes, here as FILE.tmp then renamed over FILE, so a power cut (SIGKILL) in the
 * middle of a write leaves the previous record whole. The file is the third word of the
 * semihosting command line (`-semihosting-config enable=on,target=native,arg=bbrt,arg=EPOCH,arg=STATE`). */
#include "bbrt.h"
#include "bbrt_learn.h"
#include "bbrt_link.h"
#include "bbrt_train.h"
#include "port.h"

#ifndef BBRT_ARENA_SIZE
#define BBRT_ARENA_SIZE 65536u
#endif
#ifndef BBRT_LEARN_WORK
#define BBRT_LEARN_WORK 262144u
#endif
#ifndef BBRT_LEARN_MAX_PARAMS
#define BBRT_LEARN_MAX_PARAMS (BBRT_MAX_PAYLOAD / 4u)
#endif

static uint64_t arena[(BBRT_ARENA_SIZE + 7u) / 8u];
static uint64_t work[(BBRT_LEARN_WORK + 7u) / 8u];
static uint64_t rasm[(BBRT_MAX_ENVELOPE + 7u) / 8u];
/* transmit ring: one largest envelope plus room for control envelopes and heartbeats */
static uint64_t txbuf[(BBRT_MAX_ENVELOPE + 1024u + 7u) / 8u];
static uint64_t saved[(sizeof(bbrt_learn_record_t) + 4u * BBRT_LEARN_MAX_PARAMS + 7u) / 8u];
static bbrt_train_t train;
static bbrt_link_t link_state;
static bbrt_learn_node_t node;

static char tmp_path[205];
static const char *state_path;

/* the round record's file: the third word of the semihosting command line (none: rounds are not kept) */
static void find_paths(void) {
    uint32_t n = 0;
    state_path = port_cmdline_word(2u);
    if (state_path == 0) return;
    while (state_path[n]) n++;
    if (n + 5u > sizeof(tmp_path)) {
        state_path = 0;
        return;
    }
    bbrt_memcpy(tmp_path, state_path, n);
    bbrt_memcpy(tmp_path + n, ".tmp", 5u);
}

static size_t load_record(void) { return state_path ? port_file_read(state_path, saved, sizeof(saved)) : 0u; }

static int save_record(void *ctx, const bbrt_learn_record_t *rec, const float *model, uint32_t n) {
    (void)ctx;
    if (state_path == 0) return 0;
    return port_file_replace(tmp_path, state_path, rec, sizeof(*rec), model, n * 4u);
}

/* the boot epoch in its host file (the second command-line word; semihost.c), +1 before the first HELLO */
static uint32_t bump_epoch(void) { return port_semihost_epoch(); }

#include "port_link_io.h" /* now_ms, read_wait, put: the link over the port console */

static uint32_t next_epoch(void *ctx) {
    (void)ctx;
    return bump_epoch();
}

#include "error_frame.h" /* refuse_forever: a client that cannot start says why at each frame end */

int main(void) {
    const uint8_t *img;
    size_t size, max, have;
    uint32_t epoch;
    bbrt_learn_port_t port;
    bbrt_status_t st;
    port_init();
    img = port_program();
    max = port_program_max();
    size = bbrt_blob_size(img, max); /* bounded by the region; bbrt_learn_image_parse validates the rest */
    find_paths();
    have = load_record();
    epoch = bump_epoch();
    port.put = put;
    port.read = read_wait;
    port.now = now_ms;
    port.save = save_record;
    port.next_epoch = next_epoch;
    port.ctx = 0;
    st = bbrt_learn_node_init(&node, img, size, &train, (uint8_t *)arena, sizeof(arena), &link_state,
                              (uint8_t *)txbuf, sizeof(txbuf), (uint8_t *)rasm, sizeof(rasm), (uint8_t *)work,
                              sizeof(work), epoch ? epoch : 1u, &port, have ? (const uint8_t *)saved : 0, have);
    if (st != BBRT_OK) refuse_forever(st);
    for (;;) {
        uint8_t c;
        if (port_trygetc(&c)) bbrt_learn_node_feed(&node, &c, 1u);
        else bbrt_learn_node_poll(&node);
    }
    return 0;
}
