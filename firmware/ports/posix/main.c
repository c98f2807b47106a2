/* posix port: a bbrt node on stdin/stdout or a serial device/pty.
 *   bbrt-host PROGRAM.bbrt [--serial PATH] [--hello NAME] [--epoch-file PATH] [--name NAME]
 *             [--link RTO0,RTOMIN,RTOMAX,RETRIES,HB,DEAD,REASM]   (link timers in ms) [--ota-key FILE]
 *             [--deployment NAME] [--ota-state FILE]
 * --ota-key FILE: the node's HMAC-SHA-256 update key (hex, 16..64 bytes, provisioned at build time):
 * the node then takes signed program updates (docs/wire.md "Program updates"; A/B slots below) whose
 * signed manifest names deployment NAME (default "") and a version above the highest it accepted.
 * --ota-state FILE: updates survive restarts and power cuts: the boot record and the two program slots
 * live in FILE (posix_flash.h); at start the node runs the program the newest valid record names when its
 * SHA-256 checks, else PROGRAM.bbrt, and the highest accepted version is kept (anti-rollback); a transfer
 * cut by a restart is kept too (its progress record) and resumed by the next offer of the same image.
 * With --epoch-file the node speaks the link layer (docs/wire.md): the file holds
 * the boot epoch in decimal; the port increments it and writes it back (fsync)
 * before the first HELLO, so every start is a new epoch. Without it the node
 * speaks bare v1 envelopes. Static program buffer and arena: no heap. Exits on
 * end of input. */
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
#include "bbrt_link.h"
#include "bbrt_ota.h"
#include "posix_epoch.h"
#include "posix_flash.h"
#include "posix_io.h"

#ifndef BBRT_HOST_PROGRAM_MAX
#define BBRT_HOST_PROGRAM_MAX (4u << 20)
#endif
#ifndef BBRT_HOST_ARENA
#define BBRT_HOST_ARENA (8u << 20)
#endif

static uint64_t program[BBRT_HOST_PROGRAM_MAX / 8u];
static uint64_t program_b[BBRT_HOST_PROGRAM_MAX / 8u]; /* the inactive slot: updates are staged here */
static bbrt_node_ota_t ota;
static uint64_t arena[BBRT_HOST_ARENA / 8u];
static uint64_t rxbuf[(BBRT_RX_BUFFER_SIZE + 7u) / 8u];
static bbrt_node_t node;
static int out_fd = 1;
static bbrt_link_t link_state;
static uint64_t rasm[(BBRT_MAX_ENVELOPE + 7u) / 8u];
/* transmit ring: two largest envelopes (one waits for its ACKs while the next is queued) */
static uint64_t txbuf[(2u * BBRT_MAX_ENVELOPE + 7u) / 8u];

static uint32_t now_ms(void *ctx) {
    struct timespec ts;
    (void)ctx;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

static void flush_out(void);
static int in_fd_g = 0;
static const char *epoch_path;

/* a given-up link session starts over with the next stored epoch */
static uint32_t next_epoch(void *ctx) {
    (void)ctx;
    return epoch_path ? bump_epoch(epoch_path) : 0u;
}
static size_t read_wait(void *ctx, uint8_t *buf, size_t cap, uint32_t wait_ms) {
    struct pollfd pfd;
    ssize_t r;
    (void)ctx;
    flush_out();
    pfd.fd = in_fd_g;
    pfd.events = POLLIN;
    pfd.revents = 0;
    if (poll(&pfd, 1, (int)wait_ms) <= 0) return 0u;
    r = read(in_fd_g, buf, cap);
    return r > 0 ? (size_t)r : 0u;
}

/* output is gathered and written in large pieces (a frame arrives from the writer in 255-byte
 * COBS blocks; one syscall each would dominate a pty); flushed before every wait for input */
static uint8_t outbuf[65536];
static size_t out_len;

static void write_all(const uint8_t *p, size_t n) {
    while (n > 0u) {
        ssize_t w = write(out_fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += (size_t)w;
        n -= (size_t)w;
    }
}

static void flush_out(void) {
    write_all(outbuf, out_len);
    out_len = 0;
}

static void put(void *ctx, const uint8_t *p, size_t n) {
    (void)ctx;
    if (n > sizeof(outbuf) - out_len) flush_out();
    if (n > sizeof(outbuf)) {
        write_all(p, n);
        return;
    }
    memcpy(outbuf + out_len, p, n);
    out_len += n;
}

int main(int argc, char **argv) {
    int in_fd = 0, i;
    size_t len = 0;
    const char *serial = NULL, *hello = NULL, *epoch_file = NULL, *name = "bbrt", *timers = NULL, *key_file = NULL;
    const char *deployment = "", *state_file = NULL;
    static int state_fd = -1;
    static bbrt_ota_flash_t flash;
    bbrt_ota_record_t booted;
    static uint8_t key[64];
    size_t key_len = 0;
    uint32_t epoch = 0;
    static uint8_t buf[65536]; /* large reads: a pty hands over what the writer queued in one call */
    bbrt_status_t st;
    if (argc < 2) {
        fprintf(stderr, "usage: %s PROGRAM.bbrt [--serial PATH] [--hello NAME]\n", argv[0]);
        return 2;
    }
    for (i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--serial") == 0) serial = argv[i + 1];
        else if (strcmp(argv[i], "--hello") == 0) hello = argv[i + 1];
        else if (strcmp(argv[i], "--epoch-file") == 0) epoch_file = argv[i + 1];
        else if (strcmp(argv[i], "--name") == 0) name = argv[i + 1];
        else if (strcmp(argv[i], "--link") == 0) timers = argv[i + 1];
        else if (strcmp(argv[i], "--ota-key") == 0) key_file = argv[i + 1];
        else if (strcmp(argv[i], "--deployment") == 0) deployment = argv[i + 1];
        else if (strcmp(argv[i], "--ota-state") == 0) state_file = argv[i + 1];
    }
    memset(&booted, 0, sizeof(booted));
    if (state_file != NULL) {
        if (posix_flash_open(state_file, &state_fd, &flash, (uint32_t)sizeof(program)) != 0) {
            perror(state_file);
            return 2;
        }
        if (bbrt_ota_boot(&flash, (uint8_t *)program, sizeof(program), &booted) == 0) {
            len = booted.len; /* the updated program, its SHA-256 checked against its record */
            fprintf(stderr, "bbrt-ota: boot slot=%u version=%llu\n", (unsigned)booted.loc,
                    (unsigned long long)booted.version);
        }
    }
    if (booted.loc == 0u && posix_read_file(argv[1], program, sizeof(program), &len) != 0) {
        perror(argv[1]);
        return 2;
    }
    if (state_file != NULL && booted.loc == 0u)
        fprintf(stderr, "bbrt-ota: boot slot=0 version=%llu\n", (unsigned long long)booted.version);
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
    in_fd_g = in_fd;
    if (key_file != NULL) {
        if (posix_read_hex_key(key_file, key, sizeof(key), &key_len) != 0) {
            fprintf(stderr, "bbrt: %s: not an update key (hex, 16..64 bytes)\n", key_file);
            return 2;
        }
        if (bbrt_node_ota_attach(&node, &ota, hello ? hello : name, (uint8_t *)program, (uint8_t *)program_b,
                                 sizeof(program), len, (uint8_t *)arena, sizeof(arena), key, key_len) != 0 ||
            bbrt_node_ota_persist(&ota, state_file ? &flash : NULL, &booted, deployment) != 0) {
            fprintf(stderr, "bbrt: cannot attach the update handler\n");
            return 2;
        }
    }
    if (epoch_file) {
        epoch = bump_epoch(epoch_file);
        if (epoch == 0u) {
            fprintf(stderr, "bbrt: cannot update the boot epoch in %s: %s\n", epoch_file, strerror(errno));
            return 2;
        }
        bbrt_node_link_attach(&node, &link_state, (uint8_t *)txbuf, sizeof(txbuf), (uint8_t *)rasm,
                              sizeof(rasm), epoch, name, now_ms, read_wait,
                              NULL);
        epoch_path = epoch_file;
        bbrt_node_epoch_source(&node, next_epoch);
        if (timers) { /* the link's timers for this line (a noisy pty wants a small rto_max) */
            unsigned long v[7];
            if (sscanf(timers, "%lu,%lu,%lu,%lu,%lu,%lu,%lu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) != 7 ||
                v[1] > v[2] || v[3] == 0u) {
                fprintf(stderr, "bbrt: --link wants RTO0,RTOMIN,RTOMAX,RETRIES,HB,DEAD,REASM (ms), got %s\n", timers);
                return 2;
            }
            link_state.cfg.rto_initial = (uint32_t)v[0];
            link_state.cfg.rto_min = (uint32_t)v[1];
            link_state.cfg.rto_max = (uint32_t)v[2];
            link_state.cfg.max_retries = (uint32_t)v[3];
            link_state.cfg.hb_interval = (uint32_t)v[4];
            link_state.cfg.dead_after = (uint32_t)v[5];
            link_state.cfg.reassembly_timeout = (uint32_t)v[6];
            link_state.rto = link_state.cfg.rto_initial;
        }
    }
    if (hello) bbrt_node_hello(&node, hello);
    for (;;) {
        ssize_t r;
        if (node.link) {
            struct pollfd pfd;
            uint32_t wait = bbrt_link_next_deadline(node.link, now_ms(NULL));
            pfd.fd = in_fd;
            pfd.events = POLLIN;
            pfd.revents = 0;
            flush_out();
            if (poll(&pfd, 1, wait > 1000u ? 1000 : (int)wait) <= 0) {
                bbrt_node_poll(&node);
                continue;
            }
        }
        flush_out();
        r = read(in_fd, buf, sizeof(buf));
        if (r <= 0) {
            if (r < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            break;
        }
        bbrt_node_feed(&node, buf, (size_t)r);
        bbrt_node_poll(&node);
    }
    flush_out();
    fprintf(stderr,
            "bbrt: frames_ok=%u bad_frames=%u bad_envelopes=%u unknown_edge=%u edge_mismatch=%u "
            "inferences=%u run_errors=%u pings=%u evicted=%u slots=%u\n",
            (unsigned)node.stats.frames_ok, (unsigned)node.stats.bad_frames,
            (unsigned)node.stats.bad_envelopes, (unsigned)node.stats.unknown_edge,
            (unsigned)node.stats.edge_mismatch, (unsigned)node.stats.inferences,
            (unsigned)node.stats.run_errors, (unsigned)node.stats.pings,
            (unsigned)node.stats.evicted, (unsigned)node.n_slots);
    fprintf(stderr, "bbrt: sessions=%u session_refused=%u session_evicted=%u session_closed=%u\n",
            (unsigned)node.n_sessions, (unsigned)node.stats.session_refused, (unsigned)node.stats.session_evicted,
            (unsigned)node.stats.session_closed);
    fprintf(stderr, "bbrt: duplicates=%u stale_epoch=%u unauthorised=%u tx_dropped=%u epoch=%u\n",
            (unsigned)node.stats.duplicates, (unsigned)node.stats.stale_epoch, (unsigned)node.stats.unauthorised,
            (unsigned)node.stats.tx_dropped, (unsigned)epoch);
    if (node.ota)
        fprintf(stderr, "bbrt-ota: ota_switches=%u ota_refusals=%u ota_rollbacks=%u\n", (unsigned)ota.ota.switches,
                (unsigned)ota.ota.refusals, (unsigned)ota.rollbacks);
    if (node.link) {
        unsigned k;
        fprintf(stderr, "bbrt-link: frames_in=%u frames_out=%u data_in=%u data_out=%u retransmits=%u "
                        "delivered=%u rtt_samples=%u srtt_ms=%u rto_ms=%u frame_size=%u shrinks=%u grows=%u",
                (unsigned)link_state.stats.frames_in, (unsigned)link_state.stats.frames_out,
                (unsigned)link_state.stats.data_in, (unsigned)link_state.stats.data_out,
                (unsigned)link_state.stats.retransmits, (unsigned)link_state.stats.delivered,
                (unsigned)link_state.stats.rtt_samples, (unsigned)(link_state.srtt8 / 8u),
                (unsigned)link_state.rto, (unsigned)bbrt_link_frame_size(&link_state),
                (unsigned)link_state.stats.shrinks, (unsigned)link_state.stats.grows);
        for (k = 1; k < BBRT_LEV__COUNT; k++)
            fprintf(stderr, " %s=%u", bbrt_link_event_name((bbrt_link_event_t)k),
                    (unsigned)link_state.stats.events[k]);
        fprintf(stderr, "\n");
    }
    return 0;
}
