/* The boot epoch file shared by the POSIX ports (ports/posix, ports/posix-mqtt): one definition so
 * both nodes start a new link epoch the same way. Include once from a port's main.c, after
 * defining _DEFAULT_SOURCE (ftruncate, fsync). No heap. */
#ifndef BBRT_POSIX_EPOCH_H
#define BBRT_POSIX_EPOCH_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

/* The boot epoch: read the decimal value in `path` (missing or empty = 0), add 1, write it back
 * and fsync before it is used, so every start is a new epoch. Returns 0 (no epoch) on any
 * failure: the caller must not speak the link layer with a stale epoch. */
static uint32_t bump_epoch(const char *path) {
    char text[32];
    unsigned long e = 0;
    ssize_t r;
    int len;
    int fd = open(path, O_RDWR | O_CREAT, 0644);
    if (fd < 0) return 0u;
    r = read(fd, text, sizeof(text) - 1u);
    if (r > 0) {
        text[r] = 0;
        e = strtoul(text, NULL, 10);
    }
    if (e >= 0xFFFFFFFEul) e = 0; /* wrapped: start again (a peer sees EpochRegressed once) */
    e += 1u;
    len = snprintf(text, sizeof(text), "%lu\n", e);
    if (lseek(fd, 0, SEEK_SET) != 0 || ftruncate(fd, 0) != 0 || write(fd, text, (size_t)len) != len ||
        fsync(fd) != 0) {
        close(fd);
        return 0u;
    }
    close(fd);
    return (uint32_t)e;
}

#endif
