/* The posix ports' "flash": the OTA boot record and program slots (bbrt_ota.h) in one state file.
 *
 * Reads past the end of the file read as erased flash (0xFF: no valid record, no image). Every write
 * is pwrite + fdatasync before it returns, so what bbrt_ota_record_write reports written survives a
 * kill -9 or a power cut; a cut between two writes leaves the older record intact (the record format
 * and boot choice are in bbrt_ota.c). */
#ifndef BBRT_POSIX_FLASH_H
#define BBRT_POSIX_FLASH_H
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "bbrt_ota.h"

static inline int posix_flash_read(void *ctx, uint32_t off, uint8_t *buf, uint32_t n) {
    int fd = *(const int *)ctx;
    uint32_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, buf + got, n - got, (off_t)off + (off_t)got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) break; /* past the end: erased */
        got += (uint32_t)r;
    }
    if (got < n) memset(buf + got, 0xFF, n - got);
    return 0;
}

static inline int posix_flash_write(void *ctx, uint32_t off, const uint8_t *buf, uint32_t n) {
    int fd = *(const int *)ctx;
    uint32_t put = 0;
    while (put < n) {
        ssize_t r = pwrite(fd, buf + put, n - put, (off_t)off + (off_t)put);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        put += (uint32_t)r;
    }
    return fdatasync(fd) == 0 ? 0 : -1;
}

/* Open (or create) the state file; the flash description points at *fd. 0 or -1 (errno set). */
static inline int posix_flash_open(const char *path, int *fd, bbrt_ota_flash_t *f, uint32_t slot_cap) {
    *fd = open(path, O_RDWR | O_CREAT, 0600);
    if (*fd < 0) return -1;
    f->read = posix_flash_read;
    f->write = posix_flash_write;
    f->ctx = fd;
    f->slot_cap = slot_cap;
    f->page = 1u << 20; /* one pwrite + fdatasync per MiB: a killed process never leaves half a pwrite */
    return 0;
}
#endif
