/* Over-the-air program updates for C nodes: the node end of docs/wire.md "Program updates".
 *
 * Validation first: an OFFER2 is checked whole (size, target, signature kind, the slot's capacity, the
 * deployment name, the version against the highest accepted: anti-rollback) before any state changes; DATA must continue exactly where the slot ends; when the slot is full the
 * SHA-256 (streamed as chunks arrive), the HMAC-SHA-256 over the signed manifest (deployment, node,
 * target, size, version, update id, image hash; bb_edge/engine/ota.py signed_manifest) with this node's key,
 * bbrt's own loader (bbrt_program_load: CRC, bounds, opcodes, shapes) and the contract (the same
 * edges, peers, directions and dtypes as the running program) are checked before READY. The running
 * program is never touched until a COMMIT meets an idle point. The end of the file is the power-safe
 * boot record (two slots, sequence number, CRC-32) the ports keep in flash or a state file. */
#include "bbrt_ota.h"

#include "bbrt_internal.h"

#define OFFER_HEADER 44u
#define OFFER2_HEADER 53u /* OFFER_HEADER + u64 version + u8 deployment name length */
#define DATA_HEADER 8u
#define SIGNED_PREFIX "bb-edge/ota/2"
#define SIGNED_PREFIX_LEN 14u /* including its NUL */

static size_t name_len(const char *s) {
    size_t n = 0;
    while (s[n] != '\0' && n <= BBRT_OTA_DEPLOYMENT_MAX) n++;
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

int bbrt_ota_set_manifest(bbrt_ota_t *o, const char *deployment, uint64_t accepted) {
    size_t n, i;
    if (o == 0 || deployment == 0) return -1;
    n = name_len(deployment);
    if (n > BBRT_OTA_DEPLOYMENT_MAX) return -1;
    for (i = 0; i < n; i++) o->deployment[i] = deployment[i];
    o->deployment[n] = '\0';
    o->accepted = accepted;
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

static int same_bytes32(const uint8_t *a, const uint8_t *b) {
    unsigned i;
    for (i = 0; i < 32u; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

static uint16_t reply_resume(uint32_t uid, uint32_t offset, uint8_t *reply, size_t cap, size_t *len) {
    if (cap < 8u) return 0u;
    bbrt_wr_u32(reply, uid);
    bbrt_wr_u32(reply + 4, offset);
    *len = 8u;
    return BBRT_OTA_RESUME;
}

static uint16_t nack(bbrt_ota_t *o, uint32_t uid, uint16_t code, int ends_update, uint8_t *reply, size_t cap,
                     size_t *len) {
    o->refusals++;
    o->last_code = code;
    if (ends_update) {
        o->state = BBRT_OTA_IDLE;
        o->refused_update = uid;
        o->refused_code = code;
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
    uint8_t msg[SIGNED_PREFIX_LEN + BBRT_OTA_DEPLOYMENT_MAX + BBRT_OTA_NAME_MAX + 2u + 17u + 32u];
    size_t n = 0, i, nl = name_len(o->node), dl = name_len(o->deployment);
    bbrt_sha256_final(&o->hash, digest);
    if (!bbrt_ct_equal(digest, o->sha, 32u))
        return nack(o, o->update_id, BBRT_OTA_CORRUPT, 1, reply, cap, len);
    /* the signed manifest: prefix, deployment NUL node NUL, u8 target, u32 size, u64 version, u32 update id */
    for (i = 0; i < SIGNED_PREFIX_LEN; i++) msg[n++] = (uint8_t)SIGNED_PREFIX[i]; /* copies the NUL too */
    for (i = 0; i < dl; i++) msg[n++] = (uint8_t)o->deployment[i];
    msg[n++] = 0u;
    for (i = 0; i < nl; i++) msg[n++] = (uint8_t)o->node[i];
    msg[n++] = 0u;
    msg[n++] = (uint8_t)BBRT_OTA_TARGET_BBRT;
    bbrt_wr_u32(msg + n, o->size);
    n += 4u;
    bbrt_wr_u64(msg + n, o->version);
    n += 8u;
    bbrt_wr_u32(msg + n, o->update_id);
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
    if (type == BBRT_OTA_OFFER) { /* unversioned: its signature covers no version (anti-rollback) */
        if (n < OFFER_HEADER || n != OFFER_HEADER + (size_t)bbrt_rd_u16(p + 10))
            return nack(o, uid, BBRT_OTA_BAD_MESSAGE, 0, reply, cap, len);
        return nack(o, uid, BBRT_OTA_BAD_SIGNATURE, o->state == BBRT_OTA_IDLE, reply, cap, len);
    }
    if (type == BBRT_OTA_OFFER2) {
        uint32_t size, from = 0u;
        uint16_t sig_len;
        uint64_t version;
        size_t dn, i, own;
        int same_name, stale, adopt = 0, ends;
        if (n < OFFER2_HEADER) return nack(o, uid, BBRT_OTA_BAD_MESSAGE, 0, reply, cap, len);
        size = bbrt_rd_u32(p + 4);
        sig_len = bbrt_rd_u16(p + 10);
        version = bbrt_rd_u64(p + OFFER_HEADER);
        dn = p[OFFER_HEADER + 8u];
        if (sig_len > 256u || n != OFFER2_HEADER + dn + (size_t)sig_len || size == 0u)
            return nack(o, uid, BBRT_OTA_BAD_MESSAGE, 0, reply, cap, len);
        stale = version <= o->accepted;
        if (o->has_running && uid == o->running_update && o->state == BBRT_OTA_IDLE)
            return 0u; /* a late or repeated OFFER of what runs: nothing new */
        if (o->state != BBRT_OTA_IDLE) {
            int same_bytes = o->state == BBRT_OTA_RECEIVING && size == o->size && same_bytes32(p + 12u, o->sha);
            if (same_bytes && uid == o->update_id) /* the same OFFER again: where the transfer stands */
                return reply_resume(uid, o->received, reply, cap, len);
            if (uid == o->update_id) return 0u; /* the same OFFER again */
            if (!same_bytes) return nack(o, uid, BBRT_OTA_BUSY, 0, reply, cap, len);
            adopt = 1; /* a restarted deployer offers the same image: checked below, then resumed */
        }
        ends = !adopt; /* a refused new offer leaves the transfer in progress as it is */
        if (o->key == 0 || o->key_len == 0u) return nack(o, uid, BBRT_OTA_NO_KEY, ends, reply, cap, len);
        if (p[8] != BBRT_OTA_TARGET_BBRT) return nack(o, uid, BBRT_OTA_WRONG_TARGET, ends, reply, cap, len);
        if (p[9] != BBRT_OTA_SIG_HMAC || sig_len != 32u)
            return nack(o, uid, BBRT_OTA_BAD_SIGNATURE, ends, reply, cap, len);
        if ((size_t)size > o->slot_cap) return nack(o, uid, BBRT_OTA_TOO_LARGE, ends, reply, cap, len);
        own = name_len(o->deployment);
        same_name = dn == own;
        for (i = 0; same_name && i < dn; i++)
            if (p[OFFER2_HEADER + i] != (uint8_t)o->deployment[i]) same_name = 0;
        if (!same_name) return nack(o, uid, BBRT_OTA_WRONG_DEPLOYMENT, ends, reply, cap, len);
        if (stale) return nack(o, uid, BBRT_OTA_STALE_VERSION, ends, reply, cap, len);
        /* every check passed: only now does the state change */
        if (adopt) {
            from = o->received; /* the hash streamed so far covers exactly these bytes */
        } else if (o->held != 0u && o->held < size && size == o->held_size && same_bytes32(p + 12u, o->held_sha)) {
            from = o->held; /* loaded from flash at boot: hashed again here, checked whole at the end */
            bbrt_sha256_init(&o->hash);
            bbrt_sha256_update(&o->hash, o->slot, from);
        } else {
            bbrt_sha256_init(&o->hash);
        }
        o->held = 0u; /* from here on the slot's bytes belong to this transfer */
        if (from != 0u) o->resumes++;
        o->update_id = uid;
        o->size = size;
        o->version = version;
        o->received = from;
        for (i = 0; i < 32u; i++) o->sha[i] = p[12u + i];
        for (i = 0; i < 32u; i++) o->sig[i] = p[OFFER2_HEADER + dn + i];
        o->state = BBRT_OTA_RECEIVING;
        return reply_resume(uid, from, reply, cap, len);
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
        if (off == 0u && o->received != 0u) { /* a deployer that did not resume: the transfer starts over */
            o->received = 0u;
            bbrt_sha256_init(&o->hash);
        }
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
        if ((o->state == BBRT_OTA_IDLE || uid != o->update_id) && uid == o->refused_update && o->refused_code)
            return nack(o, uid, o->refused_code, 0, reply, cap, len); /* it ended: its code again */
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
    /* the caller may still refuse it (health check): it raises `accepted` only once the switch holds */
    return reply_u32_hash(o->update_id, o->sha, reply, cap, len, BBRT_OTA_SWITCHED);
}

size_t bbrt_ota_sizeof(void) { return sizeof(bbrt_ota_t); }

/* ---- the power-safe boot record ---- */

static uint32_t record_crc(const uint8_t *p) {
    return bbrt_crc32_update(0u, p, BBRT_OTA_RECORD_SIZE - 4u);
}

void bbrt_ota_record_encode(const bbrt_ota_record_t *r, uint8_t out[BBRT_OTA_RECORD_SIZE]) {
    unsigned i;
    bbrt_memset(out, 0, BBRT_OTA_RECORD_SIZE);
    bbrt_wr_u32(out, BBRT_OTA_RECORD_MAGIC);
    bbrt_wr_u32(out + 4, r->seq);
    bbrt_wr_u64(out + 8, r->version);
    bbrt_wr_u32(out + 16, r->loc);
    bbrt_wr_u32(out + 20, r->len);
    for (i = 0; i < 32u; i++) out[24u + i] = r->sha[i];
    bbrt_wr_u32(out + BBRT_OTA_RECORD_SIZE - 4u, record_crc(out));
}

int bbrt_ota_record_decode(const uint8_t in[BBRT_OTA_RECORD_SIZE], uint32_t slot_cap, bbrt_ota_record_t *r) {
    unsigned i;
    if (bbrt_rd_u32(in) != BBRT_OTA_RECORD_MAGIC || bbrt_rd_u32(in + BBRT_OTA_RECORD_SIZE - 4u) != record_crc(in))
        return -1;
    r->seq = bbrt_rd_u32(in + 4);
    r->version = bbrt_rd_u64(in + 8);
    r->loc = bbrt_rd_u32(in + 16);
    r->len = bbrt_rd_u32(in + 20);
    for (i = 0; i < 32u; i++) r->sha[i] = in[24u + i];
    if (r->loc > 2u || (r->loc != 0u && (r->len == 0u || r->len > slot_cap))) return -1;
    return 0;
}

uint32_t bbrt_ota_flash_offset(const bbrt_ota_flash_t *f, uint32_t loc) {
    uint32_t stride = (f->slot_cap + 4095u) & ~4095u;
    return BBRT_OTA_FLASH_SLOT0 + (loc == 2u ? stride : 0u);
}

/* both records: valid[i] set when record i decodes */
static void read_records(const bbrt_ota_flash_t *f, bbrt_ota_record_t rec[2], int valid[2]) {
    uint8_t buf[BBRT_OTA_RECORD_SIZE];
    unsigned i;
    for (i = 0; i < 2u; i++)
        valid[i] = f->read(f->ctx, i * BBRT_OTA_RECORD_SIZE, buf, BBRT_OTA_RECORD_SIZE) == 0 &&
                   bbrt_ota_record_decode(buf, f->slot_cap, &rec[i]) == 0;
}

/* the index of the newer of two records (sequence numbers compared modulo 2^32) */
static unsigned newer(const bbrt_ota_record_t rec[2], const int valid[2]) {
    if (!valid[0]) return 1u;
    if (!valid[1]) return 0u;
    return (int32_t)(rec[1].seq - rec[0].seq) > 0 ? 1u : 0u;
}

int bbrt_ota_record_write(const bbrt_ota_flash_t *f, bbrt_ota_record_t *r) {
    bbrt_ota_record_t rec[2];
    int valid[2];
    unsigned top, dst;
    uint8_t buf[BBRT_OTA_RECORD_SIZE];
    if (f == 0 || r == 0) return -1;
    read_records(f, rec, valid);
    if (!valid[0] && !valid[1]) {
        r->seq = 1u;
        dst = 0u;
    } else {
        top = newer(rec, valid);
        r->seq = rec[top].seq + 1u;
        dst = top ^ 1u; /* the older (or torn) record's slot: the newest stays intact if this write is cut */
    }
    bbrt_ota_record_encode(r, buf);
    return f->write(f->ctx, dst * BBRT_OTA_RECORD_SIZE, buf, BBRT_OTA_RECORD_SIZE) == 0 ? 0 : -1;
}

static int image_ok(const bbrt_ota_flash_t *f, const bbrt_ota_record_t *r, uint8_t *ram, size_t cap) {
    uint8_t digest[32];
    if (r->loc == 0u || (size_t)r->len > cap) return 0;
    if (f->read(f->ctx, bbrt_ota_flash_offset(f, r->loc), ram, r->len) != 0) return 0;
    bbrt_sha256(ram, r->len, digest);
    return bbrt_ct_equal(digest, r->sha, 32u);
}

int bbrt_ota_boot(const bbrt_ota_flash_t *f, uint8_t *ram, size_t cap, bbrt_ota_record_t *r) {
    bbrt_ota_record_t rec[2];
    int valid[2];
    unsigned top, k;
    uint64_t version = 0u;
    bbrt_memset(r, 0, sizeof(*r));
    if (f == 0 || ram == 0) return 1;
    read_records(f, rec, valid);
    for (k = 0; k < 2u; k++)
        if (valid[k] && rec[k].version > version) version = rec[k].version;
    top = newer(rec, valid);
    for (k = 0; k < 2u; k++) {
        unsigned i = k == 0u ? top : top ^ 1u;
        if (!valid[i]) continue;
        if (rec[i].loc == 0u || image_ok(f, &rec[i], ram, cap)) {
            *r = rec[i];
            r->version = version;
            return rec[i].loc == 0u ? 1 : 0;
        }
    }
    r->seq = valid[top] ? rec[top].seq : 0u;
    r->version = version;
    return 1;
}
