/* posix port: a bbrt node on stdin/stdout or a serial device/pty.
 *   bbrt-host PROGRAM.bbrt [--serial PATH] [--hello NAME]
 * Static program buffer and arena: no heap. Exits on end of input. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "bbrt.h"

#ifndef BBRT_HOST_PROGRAM_MAX
#define BBRT_HOST_PROGRAM_MAX (4u << 20)
#endif
#ifndef BBRT_HOST_ARENA
#define BBRT_HOST_ARENA (8u << 20)
#endif

static uint64_t program[BBRT_HOST_PROGRAM_MAX / 8u];
static uint64_t arena[BBRT_HOST_ARENA / 8u];
static uint64_t rxbuf[(BBRT_RX_BUFFER_SIZE + 7u) / 8u];
static bbrt_node_t node;
static int out_fd = 1;

static void put(void *ctx, const uint8_t *p, size_t n) {
    (void)ctx;
    while (n > 0u) {
        ssize_t w = write(out_fd, p, n);
        if (w <= 0) return;
        p += (size_t)w;
        n -= (size_t)w;
    }
}

int main(int argc, char **argv) {
    int fd, in_fd = 0, i;
    size_t len = 0;
    const char *serial = NULL, *hello = NULL;
    uint8_t buf[512];
    bbrt_status_t st;
    if (argc < 2) {
        fprintf(stderr, "usage: %s PROGRAM.bbrt [--serial PATH] [--hello NAME]\n", argv[0]);
        return 2;
    }
    for (i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--serial") == 0) serial = argv[i + 1];
        else if (strcmp(argv[i], "--hello") == 0) hello = argv[i + 1];
    }
    fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        perror(argv[1]);
        return 2;
    }
    for (;;) {
        ssize_t r = read(fd, (uint8_t *)program + len, sizeof(program) - len);
        if (r <= 0) break;
        len += (size_t)r;
    }
    close(fd);
    if (serial) {
        struct termios tio;
        in_fd = open(serial, O_RDWR | O_NOCTTY);
        if (in_fd < 0) {
            perror(serial);
            return 2;
        }
        if (tcgetattr(in_fd, &tio) == 0) {
            cfmakeraw(&tio);
            tcsetattr(in_fd, TCSANOW, &tio);
        }
        out_fd = in_fd;
    }
    st = bbrt_node_init(&node, (const uint8_t *)program, len, (uint8_t *)arena, sizeof(arena),
                        (uint8_t *)rxbuf, BBRT_RX_BUFFER_SIZE, put, NULL);
    if (st != BBRT_OK) {
        fprintf(stderr, "bbrt: program refused: %s (%d)\n", bbrt_status_name(st), (int)st);
        return 3;
    }
    if (hello) bbrt_node_hello(&node, hello);
    for (;;) {
        ssize_t r = read(in_fd, buf, sizeof(buf));
        if (r <= 0) break;
        bbrt_node_feed(&node, buf, (size_t)r);
    }
    fprintf(stderr,
            "bbrt: frames_ok=%u bad_frames=%u bad_envelopes=%u unknown_edge=%u edge_mismatch=%u "
            "inferences=%u run_errors=%u pings=%u evicted=%u slots=%u\n",
            (unsigned)node.stats.frames_ok, (unsigned)node.stats.bad_frames,
            (unsigned)node.stats.bad_envelopes, (unsigned)node.stats.unknown_edge,
            (unsigned)node.stats.edge_mismatch, (unsigned)node.stats.inferences,
            (unsigned)node.stats.run_errors, (unsigned)node.stats.pings,
            (unsigned)node.stats.evicted, (unsigned)node.n_slots);
    return 0;
}
