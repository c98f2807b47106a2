/* The boot epoch of the QEMU ports, in a host file reached through semihosting.
 *
 * Why semihosting: QEMU's emulated flash of mps2-an385 and virt is RAM that is
 * lost when QEMU exits, so a "flash region the port bumps" would need the
 * launcher to save it back after every run (and a killed QEMU never does).
 * Semihosting file I/O lets the firmware itself read, increment and write the
 * epoch before it says HELLO, exactly as a board increments a counter in its
 * own flash/NVS, and a SIGKILLed QEMU keeps the new value. The file name is
 * the second word of the semihosting command line (the launcher passes
 * `-semihosting-config enable=on,target=native,arg=bbrt,arg=FILE`). */
#include "port.h"

#define SYS_OPEN 0x01u
#define SYS_CLOSE 0x02u
#define SYS_WRITE 0x05u
#define SYS_READ 0x06u
#define SYS_FLEN 0x0Cu
#define SYS_REMOVE 0x0Eu
#define SYS_RENAME 0x0Fu
#define SYS_GET_CMDLINE 0x15u
#define SYS_SEEK 0x0Au
#define MODE_RPLUS_B 3u /* "r+b": the flash file exists */
#define MODE_WPLUS_B 7u /* "w+b": a first boot creates it */
#define MODE_R 0u
#define MODE_W 4u

static char cmdline[256];

static uint32_t text_len(const char *s) {
    uint32_t n = 0;
    while (s[n]) n++;
    return n;
}

/* word `k` (0-based) of the command line, NUL-terminated in place (the line is read once) */
static const char *cmdline_word(unsigned k) {
    static int read_once;
    uint32_t args[2];
    char *p = cmdline;
    unsigned w;
    if (!read_once) {
        args[0] = (uint32_t)(uintptr_t)cmdline;
        args[1] = sizeof(cmdline) - 1u;
        if (port_semihost(SYS_GET_CMDLINE, args) != 0) return 0;
        cmdline[sizeof(cmdline) - 1u] = 0;
        for (p = cmdline; *p; p++)
            if (*p == ' ') *p = 0; /* words become strings; the buffer ends with a NUL */
        read_once = 1;
    }
    p = cmdline;
    for (w = 0; w < k; w++) {
        while (*p) p++;
        if (p >= cmdline + sizeof(cmdline) - 1u) return 0;
        p++;
    }
    return *p ? p : 0;
}

/* the epoch file name: the second word of the command line */
static const char *epoch_path(void) { return cmdline_word(1u); }

const char *port_cmdline_word(unsigned k) { return cmdline_word(k); }

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

/* 0 when all n bytes were written (the host returns the bytes NOT written) */
static int32_t sh_write(int32_t h, const void *p, uint32_t n) {
    uint32_t args[3];
    args[0] = (uint32_t)h;
    args[1] = (uint32_t)(uintptr_t)p;
    args[2] = n;
    return port_semihost(SYS_WRITE, args);
}

/* the bytes NOT read (the host's answer) of up to n bytes into p */
static uint32_t sh_read(int32_t h, void *p, uint32_t n) {
    uint32_t args[3];
    args[0] = (uint32_t)h;
    args[1] = (uint32_t)(uintptr_t)p;
    args[2] = n;
    return (uint32_t)port_semihost(SYS_READ, args);
}

size_t port_file_read(const char *path, void *buf, size_t cap) {
    uint32_t args[1];
    int32_t h, len;
    if (path == 0 || !path[0]) return 0u;
    h = sh_open(path, MODE_R);
    if (h < 0) return 0u;
    args[0] = (uint32_t)h;
    len = port_semihost(SYS_FLEN, args);
    if (len <= 0 || (uint32_t)len > cap || sh_read(h, buf, (uint32_t)len) != 0u) len = 0;
    sh_close(h);
    return (size_t)len;
}

int port_file_replace(const char *tmp, const char *path, const void *head, uint32_t nhead, const void *body,
                      uint32_t nbody) {
    uint32_t args[4];
    int32_t h = sh_open(tmp, MODE_W);
    int bad;
    if (h < 0) return 1;
    bad = sh_write(h, head, nhead) != 0 || sh_write(h, body, nbody) != 0;
    sh_close(h);
    if (bad) return 1;
    args[0] = (uint32_t)(uintptr_t)path; /* semihosting's rename does not replace: remove the old file first */
    args[1] = text_len(path);
    (void)port_semihost(SYS_REMOVE, args);
    args[0] = (uint32_t)(uintptr_t)tmp;
    args[1] = text_len(tmp);
    args[2] = (uint32_t)(uintptr_t)path;
    args[3] = text_len(path);
    return port_semihost(SYS_RENAME, args) != 0;
}

/* The OTA flash area (bbrt_ota.h boot record and program slots) in the host file named by the third
 * word of the command line: QEMU's emulated flash is lost when it exits, this file is not, and a
 * SIGKILLed QEMU leaves in it exactly the writes that completed. A record (64 bytes) goes in 8-byte
 * program units (a Cortex-M flash double word), so a cut can tear it; an image goes a 256-byte page
 * per call (a semihosting call costs milliseconds under QEMU), so a cut can land between pages. */
static int32_t flash_handle = -1;

int port_flash_open(void) {
    const char *path = cmdline_word(2u);
    uint32_t args[3];
    if (!path) return -1;
    args[0] = (uint32_t)(uintptr_t)path;
    args[1] = MODE_RPLUS_B;
    args[2] = text_len(path);
    flash_handle = port_semihost(SYS_OPEN, args);
    if (flash_handle < 0) {
        args[1] = MODE_WPLUS_B;
        flash_handle = port_semihost(SYS_OPEN, args);
    }
    return flash_handle < 0 ? -1 : 0;
}

static int flash_seek(uint32_t off) {
    uint32_t args[2];
    args[0] = (uint32_t)flash_handle;
    args[1] = off;
    return port_semihost(SYS_SEEK, args) == 0 ? 0 : -1;
}

int port_flash_read(uint32_t off, uint8_t *buf, uint32_t n) {
    uint32_t args[3], missing, i;
    if (flash_handle < 0 || flash_seek(off) != 0) return -1;
    args[0] = (uint32_t)flash_handle;
    args[1] = (uint32_t)(uintptr_t)buf;
    args[2] = n;
    missing = (uint32_t)port_semihost(SYS_READ, args); /* bytes NOT read: past the end reads as erased */
    if (missing > n) return -1;
    for (i = n - missing; i < n; i++) buf[i] = 0xFFu;
    return 0;
}

int port_flash_write(uint32_t off, const uint8_t *buf, uint32_t n) {
    uint32_t args[3], done = 0, unit = n <= 64u ? 8u : 256u;
    if (flash_handle < 0 || flash_seek(off) != 0) return -1;
    while (done < n) {
        uint32_t k = n - done > unit ? unit : n - done;
        args[0] = (uint32_t)flash_handle;
        args[1] = (uint32_t)(uintptr_t)(buf + done);
        args[2] = k;
        if (port_semihost(SYS_WRITE, args) != 0) return -1;
        done += k;
    }
    return 0;
}

uint32_t port_semihost_epoch(void) {
    const char *path = epoch_path();
    uint32_t e = 0;
    int32_t h;
    char text[16];
    uint32_t i, n;
    if (!path) return 0u;
    h = sh_open(path, MODE_R);
    if (h >= 0) {
        n = sizeof(text) - 1u - sh_read(h, text, sizeof(text) - 1u);
        if (n > sizeof(text) - 1u) n = 0u;
        for (i = 0; i < n && text[i] >= '0' && text[i] <= '9' && e < 400000000u; i++)
            e = e * 10u + (uint32_t)(text[i] - '0');
        sh_close(h);
    }
    e += 1u; /* a missing or unreadable file starts at epoch 1 */
    n = 0;
    {   /* decimal, newline */
        char rev[12];
        uint32_t v = e, k = 0;
        do { rev[k++] = (char)('0' + v % 10u); v /= 10u; } while (v && k < sizeof(rev));
        while (k) text[n++] = rev[--k];
        text[n++] = '\n';
    }
    h = sh_open(path, MODE_W);
    if (h < 0) return 0u;
    if (sh_write(h, text, n) != 0) e = 0u;
    sh_close(h);
    return e;
}
