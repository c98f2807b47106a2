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

#define SYS_OPEN 0x01u
#define SYS_CLOSE 0x02u
#define SYS_WRITE 0x05u
#define SYS_READ 0x06u
#define SYS_FLEN 0x0Cu
#define SYS_REMOVE 0x0Eu
#define SYS_RENAME 0x0Fu
#define SYS_GET_CMDLINE 0x15u
#define MODE_RB 1u
#define MODE_WB 5u

static char cmdline[256];
static char epoch_path[200], state_path[200], tmp_path[205];

static uint32_t text_len(const char *s) {
    uint32_t n = 0;
    while (s[n]) n++;
    return n;
}

/* word k (0-based) of the semihosting command line into out ("" if absent). The boot epoch file
 * is word 1 and the round record word 2; each ends at a space (semihost.c's epoch_path() takes
 * the rest of the line, which would swallow word 2: this port keeps its own epoch). */
static void cmdline_word(uint32_t k, char *out, uint32_t cap) {
    const char *p = cmdline;
    uint32_t i = 0;
    while (k--) {
        while (*p && *p != ' ') p++;
        while (*p == ' ') p++;
    }
    while (p[i] && p[i] != ' ' && i + 1u < cap) {
        out[i] = p[i];
        i++;
    }
    out[i] = 0;
}

static void find_paths(void) {
    uint32_t args[2], n;
    args[0] = (uint32_t)(uintptr_t)cmdline;
    args[1] = sizeof(cmdline) - 1u;
    if (port_semihost(SYS_GET_CMDLINE, args) != 0) return;
    cmdline[sizeof(cmdline) - 1u] = 0;
    cmdline_word(1u, epoch_path, sizeof(epoch_path));
    cmdline_word(2u, state_path, sizeof(state_path));
    n = text_len(state_path);
    bbrt_memcpy(tmp_path, state_path, n);
    bbrt_memcpy(tmp_path + n, ".tmp", 5u);
}

static int32_t sh_open(const char *path, uint32_t mode) {
    uint32_t args[3];
    args[0] = (uint32_t)(uintptr_t)path;
    args[1] = mode;
    args[2] = text_len(path);
    return port_semihost(SYS_OPEN, args);
}

static void sh_close(int32_t h) {
    uint32_t args[1];
    args[0] = (uint32_t)h;
    (void)port_semihost(SYS_CLOSE, args);
}

/* 0 when all n bytes were written */
static int32_t sh_write(int32_t h, const void *p, uint32_t n) {
    uint32_t args[3];
    args[0] = (uint32_t)h;
    args[1] = (uint32_t)(uintptr_t)p;
    args[2] = n;
    return port_semihost(SYS_WRITE, args);
}

static size_t load_record(void) {
    uint32_t args[3];
    int32_t h, len;
    if (!state_path[0]) return 0u;
    h = sh_open(state_path, MODE_RB);
    if (h < 0) return 0u;
    args[0] = (uint32_t)h;
    len = port_semihost(SYS_FLEN, args);
    if (len <= 0 || (uint32_t)len > sizeof(saved)) {
        sh_close(h);
        return 0u;
    }
    args[0] = (uint32_t)h;
    args[1] = (uint32_t)(uintptr_t)saved;
    args[2] = (uint32_t)len;
    if (port_semihost(SYS_READ, args) != 0) len = 0; /* returns bytes NOT read */
    sh_close(h);
    return (size_t)len;
}

static int save_record(void *ctx, const bbrt_learn_record_t *rec, const float *model, uint32_t n) {
    uint32_t args[4];
    int32_t h;
    int bad;
    (void)ctx;
    if (!state_path[0]) return 0;
    h = sh_open(tmp_path, MODE_WB);
    if (h < 0) return 1;
    bad = sh_write(h, rec, sizeof(*rec)) != 0 || sh_write(h, model, n * 4u) != 0;
    sh_close(h);
    if (bad) return 1;
    args[0] = (uint32_t)(uintptr_t)state_path; /* rename over an existing file: remove it first */
    args[1] = text_len(state_path);
    (void)port_semihost(SYS_REMOVE, args);
    args[0] = (uint32_t)(uintptr_t)tmp_path;
    args[1] = text_len(tmp_path);
    args[2] = (uint32_t)(uintptr_t)state_path;
    args[3] = text_len(state_path);
    return port_semihost(SYS_RENAME, args) != 0;
}

/* the boot epoch in its file: read, +1, write back before the first HELLO (0 on failure) */
static uint32_t bump_epoch(void) {
    char text[16];
    uint32_t args[3], e = 0, i, n = 0;
    int32_t h;
    if (!epoch_path[0]) return 0u;
    h = sh_open(epoch_path, MODE_RB);
    if (h >= 0) {
        args[0] = (uint32_t)h;
        args[1] = (uint32_t)(uintptr_t)text;
        args[2] = sizeof(text) - 1u;
        n = sizeof(text) - 1u - (uint32_t)port_semihost(SYS_READ, args); /* returns bytes NOT read */
        if (n > sizeof(text) - 1u) n = 0u;
        for (i = 0; i < n && text[i] >= '0' && text[i] <= '9' && e < 400000000u; i++)
            e = e * 10u + (uint32_t)(text[i] - '0');
        sh_close(h);
    }
    e += 1u; /* a missing file starts at epoch 1 */
    {
        char rev[12];
        uint32_t v = e, k = 0;
        n = 0;
        do { rev[k++] = (char)('0' + v % 10u); v /= 10u; } while (v && k < sizeof(rev));
        while (k) text[n++] = rev[--k];
        text[n++] = '\n';
    }
    h = sh_open(epoch_path, MODE_WB);
    if (h < 0) return 0u;
    if (sh_write(h, text, n) != 0) e = 0u;
    sh_close(h);
    return e;
}

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
