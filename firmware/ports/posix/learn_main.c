/* posix port of the training client (bbrt_learn.h "learn node") on a serial device / pty:
 *   bbrt-learn IMAGE --serial PATH --epoch-file PATH [--state-file PATH]
 * The boot epoch file is bumped before the first HELLO (posix_epoch.h); the round record is kept
 * in --state-file (written to PATH.tmp, fsynced, renamed: a kill mid-write keeps the old record).
 * Static buffers: no heap. Exits when the line closes. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "bbrt.h"
#include "bbrt_learn.h"
#include "bbrt_link.h"
#include "bbrt_train.h"
#include "posix_epoch.h"
#include "posix_io.h"

#ifndef BBRT_HOST_IMAGE_MAX
#define BBRT_HOST_IMAGE_MAX (4u << 20)
#endif
#ifndef BBRT_HOST_ARENA
#define BBRT_HOST_ARENA (1u << 20)
#endif
#define LEARN_WORK (4u << 20)
#define MAX_PARAMS (BBRT_MAX_PAYLOAD / 4u)

static uint64_t image[BBRT_HOST_IMAGE_MAX / 8u];
static uint64_t arena[BBRT_HOST_ARENA / 8u];
static uint64_t work[LEARN_WORK / 8u];
static uint64_t rasm[(BBRT_MAX_ENVELOPE + 7u) / 8u];
static uint64_t txbuf[(2u * BBRT_MAX_ENVELOPE + 7u) / 8u];
static uint64_t saved[(sizeof(bbrt_learn_record_t) + 4u * MAX_PARAMS + 7u) / 8u];
static bbrt_train_t train;
static bbrt_link_t link_state;
static bbrt_learn_node_t node;
static int fd = -1;
static const char *epoch_path, *state_path;
static char tmp_path[4096];

static uint32_t now_ms(void *ctx) {
    struct timespec ts;
    (void)ctx;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

static size_t read_wait(void *ctx, uint8_t *buf, size_t cap, uint32_t wait_ms) {
    struct pollfd pfd;
    ssize_t r;
    (void)ctx;
    pfd.fd = fd;
    pfd.events = POLLIN;
    pfd.revents = 0;
    if (poll(&pfd, 1, (int)wait_ms) <= 0) return 0u;
    r = read(fd, buf, cap);
    return r > 0 ? (size_t)r : 0u;
}

static void put(void *ctx, const uint8_t *p, size_t n) {
    (void)ctx;
    while (n > 0u) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (w <= 0) return;
        p += (size_t)w;
        n -= (size_t)w;
    }
}

static uint32_t next_epoch(void *ctx) {
    (void)ctx;
    return epoch_path ? bump_epoch(epoch_path) : 0u;
}

static int save_record(void *ctx, const bbrt_learn_record_t *rec, const float *model, uint32_t n) {
    (void)ctx;
    return state_path ? posix_replace_file(tmp_path, state_path, rec, sizeof(*rec), model, (size_t)n * 4u) : 0;
}

int main(int argc, char **argv) {
    const char *serial = NULL;
    size_t len, have = 0;
    uint32_t epoch;
    int i;
    bbrt_learn_port_t port;
    bbrt_status_t st;
    static uint8_t buf[65536];
    if (argc < 2) {
        fprintf(stderr, "usage: %s IMAGE --serial PATH --epoch-file PATH [--state-file PATH]\n", argv[0]);
        return 2;
    }
    for (i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--serial") == 0) serial = argv[i + 1];
        else if (strcmp(argv[i], "--epoch-file") == 0) epoch_path = argv[i + 1];
        else if (strcmp(argv[i], "--state-file") == 0) state_path = argv[i + 1];
    }
    if (!serial || !epoch_path) {
        fprintf(stderr, "bbrt-learn: --serial and --epoch-file are required\n");
        return 2;
    }
    if (state_path && (size_t)snprintf(tmp_path, sizeof(tmp_path), "%s.tmp", state_path) >= sizeof(tmp_path)) {
        fprintf(stderr, "bbrt-learn: state file path too long\n");
        return 2;
    }
    if (posix_read_file(argv[1], image, sizeof(image), &len) != 0 || len == 0u) {
        fprintf(stderr, "bbrt-learn: cannot read %s\n", argv[1]);
        return 2;
    }
    fd = open(serial, O_RDWR | O_NOCTTY);
    if (fd < 0) {
        perror(serial);
        return 2;
    }
    {
        struct termios tio;
        if (tcgetattr(fd, &tio) == 0) {
            cfmakeraw(&tio);
            tcsetattr(fd, TCSANOW, &tio);
        }
    }
    epoch = bump_epoch(epoch_path);
    if (epoch == 0u) {
        fprintf(stderr, "bbrt-learn: cannot update the boot epoch in %s: %s\n", epoch_path, strerror(errno));
        return 2;
    }
    if (state_path && posix_read_file(state_path, saved, sizeof(saved), &have) != 0) have = 0; /* none yet */
    port.put = put;
    port.read = read_wait;
    port.now = now_ms;
    port.save = save_record;
    port.next_epoch = next_epoch;
    port.ctx = NULL;
    st = bbrt_learn_node_init(&node, (const uint8_t *)image, len, &train, (uint8_t *)arena, sizeof(arena),
                              &link_state, (uint8_t *)txbuf, sizeof(txbuf), (uint8_t *)rasm, sizeof(rasm),
                              (uint8_t *)work, sizeof(work), epoch, &port, have ? (const uint8_t *)saved : NULL,
                              have);
    if (st != BBRT_OK) {
        fprintf(stderr, "bbrt-learn: refused: %s (%d)\n", bbrt_status_name(st), (int)st);
        return 3;
    }
    for (;;) {
        struct pollfd pfd;
        ssize_t r;
        uint32_t wait = bbrt_link_next_deadline(&link_state, now_ms(NULL));
        pfd.fd = fd;
        pfd.events = POLLIN;
        pfd.revents = 0;
        if (wait > 50u) wait = 50u; /* the client's own timers (JOIN, heartbeat) are polled too */
        if (poll(&pfd, 1, (int)wait) <= 0) {
            bbrt_learn_node_poll(&node);
            continue;
        }
        r = read(fd, buf, sizeof(buf));
        if (r <= 0) {
            if (r < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            break;
        }
        bbrt_learn_node_feed(&node, buf, (size_t)r);
        bbrt_learn_node_poll(&node);
    }
    fprintf(stderr, "bbrt-learn: models=%u rounds=%u updates=%u joins=%u heartbeats=%u refused=%u pings=%u "
                    "tx_dropped=%u epoch=%u\n",
            (unsigned)node.client.stats.models_taken, (unsigned)node.client.stats.rounds_trained,
            (unsigned)node.client.stats.updates_sent, (unsigned)node.client.stats.joins,
            (unsigned)node.client.stats.heartbeats,
            (unsigned)(node.client.stats.refused[1] + node.client.stats.refused[2] + node.client.stats.refused[3] +
                       node.client.stats.refused[4] + node.client.stats.refused[5] + node.client.stats.refused[6] +
                       node.client.stats.refused[7] + node.client.stats.refused[8]),
            (unsigned)node.pings, (unsigned)node.tx_dropped, (unsigned)epoch);
    return 0;
}
