/* Over-the-air program updates for C nodes: the node end of docs/wire.md "Program updates".
 *
 * Validation first: an OFFER is checked whole (size, target, signature kind, the slot's capacity)
 * before any state changes; DATA must continue exactly where the slot ends; when the slot is full the
 * SHA-256 (streamed as chunks arrive), the HMAC-SHA-256 over the signed message with this node's key,
 * bbrt's own loader (bbrt_program_load: CRC, bounds, opcodes, shapes) and the contract (the same
 * edges, peers, directions and dtypes as the running program) are checked before READY. The running
 * program is never touched until a COMMIT meets an idle point. */
#include "bbrt_ota.h"

#include "bbrt_internal.h"

#define OFFER_HEADER 44u
#define DATA_HEADER 8u
#define SIGNED_PREFIX "bb-edge/ota/1"
#define SIGNED_PREFIX_LEN 14u /* including its NUL */

static size_t name_len(const char *s) {
    size_t n = 0;
    while (s[n] != '\0' && n <= BBRT_OTA_NAME_MAX) n++;
    return n;
}

int bbrt_ota_init(bbrt_ota_t *o, const char *node, uint8_t *slot, size_t slot_cap, uint8_t *arena,
                  size_t arena_size, const uint8_t *key, size_t key_len) {
    size_t n, i;
    if (o == 0 || node == 0 || slot == 0 || ((uintptr_t)slot & 7u) != 0u) return -1;
    n = name_len(node);
    if (n == 0u || n > BBRT_OTA_NAME_MAX) return -1;
    bbrt_memset(o, 0, sizeof(*o));
    for (i = 0; i < n; i++) o->node[i] = node[i];
    o->node[n] = '\0';
    o->slot = slot;
    o->slot_cap = slot_cap;
    o->arena = arena;
    o->arena_size = arena_size;
    o->key = key;
    o->key_len = key_len;
    o->refused_update = 0xFFFFFFFFu;
    return 0;
}

static uint16_t reply_u32_hash(uint32_t uid, const uint8_t h[32], uint8_t *reply, size_t cap, size_t *len,
                               uint16_t type) {
    unsigned i;
    if (cap < 36u) return 0u;
    bbrt_wr_u32(reply, uid);
    for (i = 0; i < 32u; i++) reply[4u + i] = h[i];
    *len = 36u;
    return type;
}

static uint16_t nack(bbrt_ota_t *o, uint32_t uid, uint16_t code, int ends_update, uint8_t *reply, size_t cap,
                     size_t *len) {
    o->refusals++;
    o->last_code = code;
    if (ends_update) {
        o->state = BBRT_OTA_IDLE;
        o->refused_update = uid;
    }
    if (cap < 6u) return 0u;
    bbrt_wr_u32(reply, uid);
    bbrt_wr_u16(reply + 4, code);
    *len = 6u;
    return BBRT_OTA_NACK;
}

/* The same edges (id, peer, direction, dtype) in the same order as the running program. */
static int same_contract(const bbrt_program_t *a, const bbrt_program_t *b) {
    uint32_t i;
    if (a->n_edges != b->n_edges || a->node_id != b->node_id) return 0;
    for (i = 0; i < a->n_edges; i++) {
        bbrt_edge_t x, y;
        bbrt_tensor_t tx, ty;
        uint32_t k;
        bbrt_program_edge(a, i, &x);
        bbrt_program_edge(b, i, &y);
        if (x.edge_id != y.edge_id || x.peer != y.peer || x.dir != y.dir || x.elem_type != y.elem_type)
            return 0;
        bbrt_program_tensor(a, x.tensor, &tx);
        bbrt_program_tensor(b, y.tensor, &ty);
        if (tx.rank != ty.rank) return 0;
        for (k = 0; k < tx.rank; k++)
            if (tx.dims[k] != ty.dims[k]) return 0;
    }
    return 1;
}

static uint16_t verify(bbrt_ota_t *o, const bbrt_program_t *active, uint8_t *reply, size_t cap, size_t *len) {
    uint8_t digest[32], mac[32];
    uint8_t msg[SIGNED_PREFIX_LEN + BBRT_OTA_NAME_MAX + 1u + 5u + 32u];
    size_t n = 0, i, nl = name_len(o->node);
    bbrt_sha256_final(&o->hash, digest);
    if (!bbrt_ct_equal(digest, o->sha, 32u))
        return nack(o, o->update_id, BBRT_OTA_CORRUPT, 1, reply, cap, len);
    for (i = 0; i < SIGNED_PREFIX_LEN; i++) msg[n++] = (uint8_t)SIGNED_PREFIX[i]; /* copies the NUL too */
    for (i = 0; i < nl; i++) msg[n++] = (uint8_t)o->node[i];
    msg[n++] = 0u;
    msg[n++] = (uint8_t)BBRT_OTA_TARGET_BBRT;
    bbrt_wr_u32(msg + n, o->size);
    n += 4u;
    for (i = 0; i < 32u; i++) msg[n++] = o->sha[i];
    bbrt_hmac_sha256(o->key, o->key_len, msg, n, mac);
    if (!bbrt_ct_equal(mac, o->sig, 32u))
        return nack(o, o->update_id, BBRT_OTA_BAD_SIGNATURE, 1, reply, cap, len);
    if (bbrt_program_load(&o->staged, o->slot, o->size, o->arena, o->arena_size) != BBRT_OK)
        return nack(o, o->update_id, BBRT_OTA_INVALID_PROGRAM, 1, reply, cap, len);
    if (active != 0 && !same_contract(active, &o->staged))
        return nack(o, o->update_id, BBRT_OTA_CONTRACT_MISMATCH, 1, reply, cap, len);
    o->state = BBRT_OTA_STAGED;
    return reply_u32_hash(o->update_id, o->sha, reply, cap, len, BBRT_OTA_READY);
}

uint16_t bbrt_ota_message(bbrt_ota_t *o, const bbrt_program_t *active, uint16_t type, const uint8_t *p,
                          size_t n, uint8_t *reply, size_t cap, size_t *len) {
    uint32_t uid = n >= 4u ? bbrt_rd_u32(p) : 0u;
    *len = 0u;
    if (type == BBRT_OTA_OFFER) {
        uint32_t size;
        uint16_t sig_len;
        unsigned i;
        if (n < OFFER_HEADER) return nack(o, uid, BBRT_OTA_BAD_MESSAGE, 0, reply, cap, len);
        size = bbrt_rd_u32(p + 4);
        sig_len = bbrt_rd_u16(p + 10);
        if (n != OFFER_HEADER + (size_t)sig_len || size == 0u)
            return nack(o, uid, BBRT_OTA_BAD_MESSAGE, 0, reply, cap, len);
        if (o->state != BBRT_OTA_IDLE) {
            if (uid == o->update_id) return 0u; /* the same OFFER again */
            return nack(o, uid, BBRT_OTA_BUSY, 0, reply, cap, len);
        }
        if (o->key == 0 || o->key_len == 0u) return nack(o, uid, BBRT_OTA_NO_KEY, 1, reply, cap, len);
        if (p[8] != BBRT_OTA_TARGET_BBRT) return nack(o, uid, BBRT_OTA_WRONG_TARGET, 1, reply, cap, len);
        if (p[9] != BBRT_OTA_SIG_HMAC || sig_len != 32u)
            return nack(o, uid, BBRT_OTA_BAD_SIGNATURE, 1, reply, cap, len);
        if ((size_t)size > o->slot_cap) return nack(o, uid, BBRT_OTA_TOO_LARGE, 1, reply, cap, len);
        /* every check passed: only now does the state change */
        o->update_id = uid;
        o->size = size;
        o->received = 0u;
        for (i = 0; i < 32u; i++) o->sha[i] = p[12u + i];
        for (i = 0; i < 32u; i++) o->sig[i] = p[OFFER_HEADER + i];
        bbrt_sha256_init(&o->hash);
        o->state = BBRT_OTA_RECEIVING;
        return 0u;
    }
    if (type == BBRT_OTA_DATA) {
        uint32_t off;
        size_t chunk, i;
        if (n < DATA_HEADER) return nack(o, uid, BBRT_OTA_BAD_MESSAGE, 0, reply, cap, len);
        off = bbrt_rd_u32(p + 4);
        chunk = n - DATA_HEADER;
        if (o->state == BBRT_OTA_IDLE || uid != o->update_id) {
            if (uid == o->refused_update) return 0u; /* chunks of a refused update still in flight */
            return nack(o, uid, BBRT_OTA_UNKNOWN_UPDATE, 0, reply, cap, len);
        }
        if (o->state != BBRT_OTA_RECEIVING) return 0u; /* a late duplicate after READY */
        if (off != o->received || chunk > (size_t)(o->size - o->received))
            return nack(o, uid, BBRT_OTA_TRUNCATED, 1, reply, cap, len);
        for (i = 0; i < chunk; i++) o->slot[off + i] = p[DATA_HEADER + i];
        bbrt_sha256_update(&o->hash, p + DATA_HEADER, chunk);
        o->received += (uint32_t)chunk;
        if (o->received == o->size) return verify(o, active, reply, cap, len);
        return 0u;
    }
    if (type == BBRT_OTA_COMMIT) {
        if (n != 4u) return nack(o, uid, BBRT_OTA_BAD_MESSAGE, 0, reply, cap, len);
        if (o->state != BBRT_OTA_STAGED || uid != o->update_id)
            return nack(o, uid, BBRT_OTA_UNKNOWN_UPDATE, 0, reply, cap, len);
        o->state = BBRT_OTA_COMMITTING;
        return 0u;
    }
    if (type == BBRT_OTA_ABORT) {
        if (n != 4u) return nack(o, uid, BBRT_OTA_BAD_MESSAGE, 0, reply, cap, len);
        if (o->state != BBRT_OTA_IDLE && uid == o->update_id) o->state = BBRT_OTA_IDLE;
        return 0u;
    }
    return nack(o, uid, BBRT_OTA_BAD_MESSAGE, 0, reply, cap, len);
}

uint16_t bbrt_ota_poll(bbrt_ota_t *o, int idle, bbrt_program_t *active, uint8_t *reply, size_t cap,
                       size_t *len) {
    *len = 0u;
    if (o->state != BBRT_OTA_COMMITTING || !idle || active == 0) return 0u;
    /* the slot is the caller's memory: check it once more right before it becomes the program */
    if (bbrt_program_load(&o->staged, o->slot, o->size, o->arena, o->arena_size) != BBRT_OK)
        return nack(o, o->update_id, BBRT_OTA_ROLLED_BACK, 1, reply, cap, len);
    *active = o->staged;
    o->state = BBRT_OTA_IDLE;
    o->switches++;
    return reply_u32_hash(o->update_id, o->sha, reply, cap, len, BBRT_OTA_SWITCHED);
}

size_t bbrt_ota_sizeof(void) { return sizeof(bbrt_ota_t); }
