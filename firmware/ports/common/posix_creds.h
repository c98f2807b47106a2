/* The password of a node in the broker's credentials.json, shared by the MQTT ports
 * (ports/posix-mqtt main.c and learn_main.c). No heap: the caller's buffers only. */
#ifndef BBRT_POSIX_CREDS_H
#define BBRT_POSIX_CREDS_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posix_io.h"

/* the password of `name` in a credentials.json ({"name": "password", ...}, as `bb-edge broker`
 * writes it): a flat object of plain strings; escapes are refused rather than half-decoded */
static inline int creds_lookup(const char *text, const char *name, char *out, size_t cap) {
    const char *p = text;
    size_t nl = strlen(name);
    while ((p = strchr(p, '"')) != NULL) {
        const char *k = p + 1, *ke = strchr(k, '"'), *v, *ve;
        if (ke == NULL) return -1;
        p = ke + 1;
        if ((size_t)(ke - k) != nl || strncmp(k, name, nl) != 0) {
            /* skip this key's value too, so a password equal to a node name is never read as a key */
            v = p;
            while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r') v++;
            if (*v == ':') {
                v++;
                while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r') v++;
                if (*v == '"') {
                    ve = strchr(v + 1, '"');
                    if (ve == NULL) return -1;
                    p = ve + 1;
                }
            }
            continue;
        }
        v = p;
        while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r') v++;
        if (*v != ':') continue;
        v++;
        while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r') v++;
        if (*v != '"') return -1;
        v++;
        ve = strchr(v, '"');
        if (ve == NULL || (size_t)(ve - v) >= cap || memchr(v, '\\', (size_t)(ve - v)) != NULL) return -1;
        memcpy(out, v, (size_t)(ve - v));
        out[ve - v] = 0;
        return 0;
    }
    return -1;
}

/* The node's MQTT password from the first source given: a file holding it, the broker's
 * credentials.json (the entry of `name`, read into the caller's `text`), or $BBRT_MQTT_PASSWORD.
 * 1: `password` holds it; 0: no source was given; -1: a source failed (said on stderr, `prog: ...`). */
static inline int creds_password(const char *prog, const char *password_file, const char *creds, const char *name,
                                 char *password, size_t cap, char *text, size_t text_cap) {
    size_t len = 0;
    if (password_file != NULL) {
        if (posix_read_file(password_file, password, cap - 1u, &len) != 0) {
            perror(password_file);
            return -1;
        }
        password[len] = 0;
        password[strcspn(password, "\r\n")] = 0;
        return 1;
    }
    if (creds != NULL) {
        if (posix_read_file(creds, text, text_cap - 1u, &len) != 0) {
            perror(creds);
            return -1;
        }
        text[len] = 0;
        if (creds_lookup(text, name, password, cap) != 0) {
            fprintf(stderr, "%s: %s has no password for %s\n", prog, creds, name);
            return -1;
        }
        return 1;
    }
    if (getenv("BBRT_MQTT_PASSWORD") != NULL) {
        snprintf(password, cap, "%s", getenv("BBRT_MQTT_PASSWORD"));
        return 1;
    }
    return 0;
}

#endif /* BBRT_POSIX_CREDS_H */
