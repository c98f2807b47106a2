/* File reading and hex key parsing shared by the POSIX ports (ports/posix main.c and learn_main.c,
 * ports/posix-mqtt main.c): one definition instead of a copy per port. Include from a port's main.c
 * after defining _DEFAULT_SOURCE. The caller's buffers only: no heap. */
#ifndef BBRT_POSIX_IO_H
#define BBRT_POSIX_IO_H

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* the largest update key a port takes (bytes once decoded) */
#define POSIX_KEY_MAX 64u

/* Write all n bytes of p to f (retrying short writes and EINTR): 0, or 1 when a write fails. */
static inline int posix_write_all(int f, const void *p, size_t n) {
    const uint8_t *b = (const uint8_t *)p;
    while (n > 0u) {
        ssize_t w = write(f, b, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return 1;
        b += (size_t)w;
        n -= (size_t)w;
    }
    return 0;
}

/* Replace `path` by a then b, atomically: written to `tmp`, synced, then renamed over `path`, so a
 * crash leaves the old file or the new one, never a mix. 0 on success, 1 when any step fails. */
static inline int posix_replace_file(const char *tmp, const char *path, const void *a, size_t na, const void *b,
                                     size_t nb) {
    int f = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644), bad;
    if (f < 0) return 1;
    bad = posix_write_all(f, a, na) || posix_write_all(f, b, nb) || fsync(f) != 0;
    close(f);
    return bad || rename(tmp, path) != 0;
}

/* Read `path` into dst[0..cap): stops at end of file or after cap bytes (a longer file is cut; the
 * caller validates what it read). *len is the number of bytes read. 0 on success, -1 when the file
 * cannot be opened or a read fails, with errno saying why (perror works). */
static inline int posix_read_file(const char *path, void *dst, size_t cap, size_t *len) {
    uint8_t *d = (uint8_t *)dst;
    int fd, err = 0;
    if (path == NULL || dst == NULL || len == NULL) {
        errno = EINVAL;
        return -1;
    }
    *len = 0;
    fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    while (*len < cap) {
        ssize_t r = read(fd, d + *len, cap - *len);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) err = errno;
        if (r <= 0) break;
        *len += (size_t)r;
    }
    close(fd);
    if (err != 0) {
        errno = err;
        return -1;
    }
    return 0;
}

/* the value of one hex digit, -1 for any other character */
static inline int posix_hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* An update key file: hex digits, whitespace around them ignored, 16..cap bytes once decoded (cap at
 * most POSIX_KEY_MAX). 0 with key[0..*key_len) on success; -1 on an unreadable file or anything
 * else in it (key may then be partly written, *key_len is untouched). */
static inline int posix_read_hex_key(const char *path, uint8_t *key, size_t cap, size_t *key_len) {
    char text[2u * POSIX_KEY_MAX + 8u];
    size_t len = 0, i = 0, n = 0;
    if (key == NULL || key_len == NULL || cap > POSIX_KEY_MAX) return -1;
    if (posix_read_file(path, text, sizeof(text) - 1u, &len) != 0) return -1;
    while (len > 0u && strchr(" \t\r\n", text[len - 1u]) != NULL) len--;
    while (i < len && strchr(" \t\r\n", text[i]) != NULL) i++;
    if ((len - i) % 2u != 0u || (len - i) / 2u < 16u || (len - i) / 2u > cap) return -1;
    for (; i < len; i += 2u) {
        int hi = posix_hexval(text[i]), lo = posix_hexval(text[i + 1u]);
        if (hi < 0 || lo < 0) return -1;
        key[n++] = (uint8_t)(hi * 16 + lo);
    }
    *key_len = n;
    return 0;
}

#endif
