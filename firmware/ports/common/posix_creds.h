/* The password of a node in the broker's credentials.json, shared by the MQTT ports
 * (ports/posix-mqtt main.c and learn_main.c). No heap: the caller's buffers only. */
#ifndef BBRT_POSIX_CREDS_H
#define BBRT_POSIX_CREDS_H

#include <stddef.h>
#include <string.h>

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

#endif /* BBRT_POSIX_CREDS_H */
