/* Over-the-air updates in a bbrt node: bbrt_ota.c's state machine wired into bbrt_node.c.
 *
 * Validation first: an OTA envelope must be CONTROL, come from the deployer (the host, id 0) and be
 * fresh in the host's sequence window before bbrt_ota_message() sees it; only then does the window
 * move. The running program lives in one caller-owned slot and is never written: updates are staged
 * in the other slot (A/B). A COMMIT is applied at an idle point (no request half-assembled): the
 * staged program is bound to the node, run once on zero inputs as its health check (status OK and
 * finite float outputs), and on success the slots swap roles, SWITCHED goes to the host and a HELLO
 * announces the new program hash. A failed health check puts the old program back (ROLLED_BACK).
 * An ABORT of the update it last switched to puts the previous program back (its slot is intact until
 * the next OFFER) and is answered NACK aborted; a repeated COMMIT of it answers SWITCHED again.
 *
 * Persistence (bbrt_node_ota_persist, docs/transports.md "Power cuts"): a verified image is written to
 * the flash slot that does not hold the running program before READY, and the boot record naming it
 * with the new accepted version is written before SWITCHED; a cut anywhere before that record is
 * complete boots the old program, a cut after it the new one. */
#include "bbrt_internal.h"
#include "bbrt_link.h"
#include "bbrt_ota.h"

static int is_finite_f32(const uint8_t *p) {
    uint32_t bits = bbrt_rd_u32(p);
    return (bits & 0x7F800000u) != 0x7F800000u; /* exponent all ones: Inf or NaN */
}

static void send_ota(bbrt_node_t *node, uint16_t type, const uint8_t *payload, size_t n) {
    bbrt_envelope_t env;
    /* to the host or bb-edge deploy */
    bbrt_env_control(&env, BBRT_OTA_PROTO, type, ((const bbrt_node_ota_t *)node->ota)->reply_to, payload,
                     (uint32_t)n);
    bbrt_node_send(node, &env, payload);
}

/* The first health check: every Recv input zeroed, one run, every float Send output finite. */
static int healthy(const bbrt_program_t *prog) {
    uint32_t i, k;
    for (i = 0; i < prog->n_edges; i++) {
        bbrt_edge_t e;
        bbrt_tensor_t t;
        bbrt_program_edge(prog, i, &e);
        if (e.dir != BBRT_EDGE_RECV) continue;
        bbrt_program_tensor(prog, e.tensor, &t);
        if (t.nbytes) bbrt_memset(t.data, 0, t.nbytes);
    }
    if (bbrt_program_run(prog) != BBRT_OK) return 0;
    for (i = 0; i < prog->n_edges; i++) {
        bbrt_edge_t e;
        bbrt_tensor_t t;
        bbrt_program_edge(prog, i, &e);
        if (e.dir != BBRT_EDGE_SEND) continue;
        bbrt_program_tensor(prog, e.tensor, &t);
        if (t.dtype != BBRT_DT_FLOAT) continue;
        for (k = 0; k < t.count; k++)
            if (!is_finite_f32(t.data + 4u * k)) return 0;
    }
    return 1;
}

static void ota_hello(bbrt_node_t *node, uint32_t receiver, uint64_t response_to) {
    bbrt_node_ota_t *o = (bbrt_node_ota_t *)node->ota;
    bbrt_hello_t h;
    bbrt_envelope_t env;
    uint8_t rec[BBRT_HELLO_RECORD + BBRT_HELLO_MAX_NAME];
    size_t len = 0, i;
    bbrt_memset(&h, 0, sizeof(h));
    h.min_version = BBRT_LINK_VERSION_MIN;
    h.max_version = BBRT_LINK_VERSION_MAX;
    h.boot_epoch = node->boot_epoch ? node->boot_epoch : 1u;
    h.node_id = node->prog.node_id;
    h.max_frame = BBRT_MAX_ENVELOPE;
    h.window = 1u;
    for (i = 0; o->name[i] != '\0' && i < BBRT_HELLO_MAX_NAME; i++) h.name[i] = (uint8_t)o->name[i];
    h.name_len = (uint16_t)i;
    for (i = 0; i < 32u; i++) h.program_hash[i] = o->hash[i];
    if (bbrt_hello_encode(&h, rec, sizeof(rec), &len) != BBRT_HELLO_OK) return;
    bbrt_env_control(&env, BBRT_PROTO_CONTROL, BBRT_CTRL_HELLO, receiver, rec, (uint32_t)len);
    if (receiver != BBRT_BROADCAST) {
        env.flags = BBRT_FLAG_RESPONSE;
        env.response_to = response_to;
    }
    bbrt_node_send(node, &env, rec);
}

static int node_idle(const bbrt_node_t *node) {
    uint32_t s;
    for (s = 0; s < BBRT_REQUEST_SLOTS; s++)
        if (node->slots[s].used && node->slots[s].have_mask != 0u) return 0;
    return 1;
}

static void send_nack(bbrt_node_t *node, uint32_t uid, uint16_t code) {
    uint8_t nack[6];
    bbrt_wr_u32(nack, uid);
    bbrt_wr_u16(nack + 4, code);
    send_ota(node, BBRT_OTA_NACK, nack, sizeof(nack));
}

/* Write the boot record naming RAM slot `slot` (its program: len bytes, hash sha) with the accepted version. */
static int persist_slot(bbrt_node_ota_t *o, uint32_t slot, uint32_t len, const uint8_t sha[32], uint64_t version) {
    bbrt_ota_record_t r;
    if (o->flash == 0) return 0;
    bbrt_memset(&r, 0, sizeof(r));
    r.version = version;
    r.loc = o->loc[slot];
    r.len = o->loc[slot] ? len : 0u;
    bbrt_memcpy(r.sha, sha, 32u);
    if (bbrt_ota_record_write(o->flash, &r) != 0) {
        o->flash_errors++;
        return -1;
    }
    o->seq = r.seq;
    return 0;
}

/* The flash slot an update is staged in: the one that does not hold the running program. */
static uint32_t stage_loc(const bbrt_node_ota_t *o) { return o->loc[o->active] == 1u ? 2u : 1u; }

/* Write `n` bytes of the RAM staging slot from `off` into the staging flash slot, a flash page at a time. */
static int write_image(bbrt_node_ota_t *o, uint32_t off, uint32_t end) {
    uint32_t base = bbrt_ota_flash_offset(o->flash, stage_loc(o)), page = o->flash->page ? o->flash->page : 256u;
    const uint8_t *img = o->slot[o->active ^ 1u];
    while (off < end) {
        uint32_t n = end - off > page ? page : end - off;
        if (o->flash->write(o->flash->ctx, base + off, img + off, n) != 0) {
            o->flash_errors++;
            return -1;
        }
        off += n;
    }
    return 0;
}

/* The progress record (bbrt_ota.h): size 0 clears it (no transfer to resume). */
static int write_progress(bbrt_node_ota_t *o, uint32_t size, uint32_t durable, const uint8_t sha[32]) {
    uint8_t b[BBRT_OTA_RECORD_SIZE];
    bbrt_memset(b, 0, sizeof(b));
    if (size != 0u) {
        bbrt_wr_u32(b, BBRT_OTA_PROGRESS_MAGIC);
        bbrt_wr_u32(b + 4, stage_loc(o));
        bbrt_wr_u32(b + 8, size);
        bbrt_wr_u32(b + 12, durable);
        bbrt_memcpy(b + 16, sha, 32u);
    }
    bbrt_wr_u32(b + BBRT_OTA_RECORD_SIZE - 4u, bbrt_crc32_update(0u, b, BBRT_OTA_RECORD_SIZE - 4u));
    if (o->flash->write(o->flash->ctx, BBRT_OTA_PROGRESS_OFF, b, sizeof(b)) != 0) {
        o->flash_errors++;
        return -1;
    }
    return 0;
}

/* The transfer the ota state machine receives is the one tracked in flash (same size and image hash). */
static int tracked(const bbrt_node_ota_t *o) {
    return o->stage_size != 0u && o->stage_size == o->ota.size && bbrt_ct_equal(o->stage_sha, o->ota.sha, 32u);
}

/* An OFFER2 started or resumed a transfer: a new image claims the staging flash slot (progress 0). */
static void stage_begin(bbrt_node_ota_t *o) {
    if (o->flash == 0 || tracked(o)) return; /* the same image: what is durable stays durable */
    o->loc[o->active ^ 1u] = 0u; /* until the image is whole, the slot holds nothing a record may name */
    o->stage_size = o->ota.size;
    bbrt_memcpy(o->stage_sha, o->ota.sha, 32u);
    o->durable = 0u;
    if (write_progress(o, o->stage_size, 0u, o->stage_sha) != 0) o->stage_size = 0u;
}

/* Chunks arrived: every whole BBRT_OTA_RESUME_STEP received is written to flash, then the progress record. */
static void stage_steps(bbrt_node_ota_t *o) {
    uint32_t before = o->durable;
    if (o->flash == 0 || !tracked(o)) return;
    while (o->ota.received >= o->durable + BBRT_OTA_RESUME_STEP) {
        if (write_image(o, o->durable, o->durable + BBRT_OTA_RESUME_STEP) != 0) {
            o->stage_size = 0u; /* no resume; the image is still written whole before READY */
            return;
        }
        o->durable += BBRT_OTA_RESUME_STEP;
    }
    if (o->durable != before && write_progress(o, o->stage_size, o->durable, o->stage_sha) != 0) o->stage_size = 0u;
}

/* The transfer ended (READY, refused or aborted): nothing to resume any more. */
static void stage_end(bbrt_node_ota_t *o) {
    if (o->flash == 0 || o->stage_size == 0u) return;
    o->stage_size = 0u;
    o->durable = 0u;
    (void)write_progress(o, 0u, 0u, o->stage_sha);
}

/* A verified image (RAM staging slot) into the flash slot that does not hold the running program (the
 * bytes already durable there from this transfer are not written again). */
static int persist_image(bbrt_node_ota_t *o) {
    uint32_t dst = stage_loc(o), from = tracked(o) && o->durable <= o->ota.size ? o->durable : 0u;
    if (o->flash == 0) return 0;
    o->loc[o->active ^ 1u] = 0u; /* until the image is whole, the slot holds nothing a record may name */
    if (write_image(o, from, o->ota.size) != 0) return -1;
    o->loc[o->active ^ 1u] = dst;
    return 0;
}

/* Put the previous program back (an ABORT of the running update, at an idle point). */
static void revert(bbrt_node_t *node, bbrt_node_ota_t *o) {
    bbrt_program_t prev;
    uint32_t back = o->active ^ 1u;
    if (bbrt_program_load(&prev, o->slot[back], o->prev_len, o->ota.arena, o->ota.arena_size) != BBRT_OK)
        return; /* cannot happen: the slot is untouched since it ran; the update keeps running */
    bbrt_node_set_program(node, &prev, o->ota.arena, o->ota.arena_size);
    o->active = back;
    o->ota.slot = o->slot[back ^ 1u];
    o->program_len = o->prev_len;
    bbrt_memcpy(o->hash, o->prev_hash, 32u);
    /* boot the previous program too; the accepted version stays (a version never goes down). A failed
     * write is counted: the node runs the previous program now and would boot the update after a cut. */
    (void)persist_slot(o, back, o->prev_len, o->prev_hash, o->ota.accepted);
    o->ota.has_running = 0u;
    o->revertible = 0u;
    o->revert_pending = 0u;
    o->reverts++;
    o->ota.refused_update = o->switched_uid; /* its chunks, if any still come, are dropped */
    o->ota.refused_code = BBRT_OTA_ABORTED;
    send_nack(node, o->switched_uid, BBRT_OTA_ABORTED);
    ota_hello(node, BBRT_BROADCAST, 0u);
}

void bbrt_node_ota_poll(bbrt_node_t *node) {
    bbrt_node_ota_t *o = (bbrt_node_ota_t *)node->ota;
    bbrt_program_t next, old;
    uint8_t reply[BBRT_OTA_REPLY_MAX];
    size_t n = 0;
    uint16_t type;
    if (o != 0 && o->revert_pending && node_idle(node)) revert(node, o);
    if (o == 0 || o->ota.state != BBRT_OTA_COMMITTING) return;
    type = bbrt_ota_poll(&o->ota, node_idle(node), &next, reply, sizeof(reply), &n);
    if (type == BBRT_OTA_NACK) { /* the staged bytes no longer load: the old program keeps running */
        o->rollbacks++;
        send_ota(node, type, reply, n);
        return;
    }
    if (type != BBRT_OTA_SWITCHED) return;
    old = node->prog;
    bbrt_node_set_program(node, &next, o->ota.arena, o->ota.arena_size);
    if (!healthy(&node->prog) ||
        persist_slot(o, o->active ^ 1u, o->ota.size, o->ota.sha,
                     o->ota.version > o->ota.accepted ? o->ota.version : o->ota.accepted) != 0) {
        uint8_t nack[6];
        bbrt_node_set_program(node, &old, o->ota.arena, o->ota.arena_size);
        o->rollbacks++;
        o->ota.refusals++;
        o->ota.last_code = BBRT_OTA_ROLLED_BACK;
        o->ota.refused_update = bbrt_rd_u32(reply);
        o->ota.refused_code = BBRT_OTA_ROLLED_BACK;
        o->ota.switches--;
        bbrt_wr_u32(nack, bbrt_rd_u32(reply));
        bbrt_wr_u16(nack + 4, BBRT_OTA_ROLLED_BACK);
        send_ota(node, BBRT_OTA_NACK, nack, sizeof(nack));
        return;
    }
    /* the staged slot now runs (its record is durable); the old one takes the next update (and stays
     * revertible until then); a replay of this update or of anything older is now stale */
    if (o->ota.version > o->ota.accepted) o->ota.accepted = o->ota.version;
    o->ota.running_update = bbrt_rd_u32(reply);
    o->ota.has_running = 1u;
    o->prev_len = o->program_len;
    bbrt_memcpy(o->prev_hash, o->hash, 32u);
    o->switched_uid = bbrt_rd_u32(reply);
    o->revertible = 1u;
    o->active ^= 1u;
    o->ota.slot = o->slot[o->active ^ 1u];
    o->program_len = o->ota.size;
    bbrt_memcpy(o->hash, o->ota.sha, 32u);
    send_ota(node, type, reply, n);
    ota_hello(node, BBRT_BROADCAST, 0u); /* peers and the host see the new program hash */
}

static void ota_idle(bbrt_node_t *node) { bbrt_node_ota_poll(node); }

static bbrt_status_t ota_envelope(bbrt_node_t *node, const bbrt_envelope_t *env) {
    bbrt_node_ota_t *o = (bbrt_node_ota_t *)node->ota;
    uint8_t reply[BBRT_OTA_REPLY_MAX];
    size_t n = 0;
    uint16_t type;
    uint32_t was;
    bbrt_status_t st;
    if (env->kind != BBRT_KIND_CONTROL || (env->sender != 0u && env->sender != BBRT_OTA_DEPLOY_ID)) {
        /* only a deployer (the host, or bb-edge deploy) may update */
        o->not_host++;
        node->stats.unauthorised++;
        return BBRT_E_UNAUTHORISED;
    }
    st = bbrt_seqwin_check(node->senders, BBRT_SEQ_SENDERS, env->sender, env->seq);
    if (st == BBRT_E_DUPLICATE) node->stats.duplicates++;
    if (st == BBRT_E_STALE_EPOCH) node->stats.stale_epoch++;
    if (st != BBRT_OK) return st;
    bbrt_seqwin_commit(node->senders, BBRT_SEQ_SENDERS, env->sender, env->seq, &node->seq_clock);
    o->reply_to = env->sender;
    if ((env->edge == BBRT_OTA_COMMIT || env->edge == BBRT_OTA_ABORT) && env->payload_len == 4u && o->revertible &&
        bbrt_rd_u32(env->data) == o->switched_uid) {
        if (env->edge == BBRT_OTA_ABORT) {
            o->revert_pending = 1u; /* answered once the previous program runs again */
            bbrt_node_ota_poll(node);
        } else if (!o->revert_pending) { /* a repeated COMMIT: its SWITCHED may have been lost */
            uint8_t sw[36];
            bbrt_wr_u32(sw, o->switched_uid);
            bbrt_memcpy(sw + 4, o->hash, 32u);
            send_ota(node, BBRT_OTA_SWITCHED, sw, sizeof(sw));
        }
        return BBRT_OK;
    }
    /* the message type is the envelope's u32 edge: one above 0xFFFF must not alias a known type */
    was = o->ota.state;
    type = bbrt_ota_message(&o->ota, &node->prog, env->edge > 0xFFFFu ? 0u : (uint16_t)env->edge, env->data,
                            env->payload_len, reply, sizeof(reply), &n);
    if (type == BBRT_OTA_RESUME) stage_begin(o);
    if (o->ota.state == BBRT_OTA_RECEIVING) stage_steps(o);
    if (type == BBRT_OTA_READY && persist_image(o) != 0) { /* verified, but it cannot be kept across a cut */
        o->ota.state = BBRT_OTA_IDLE;
        o->ota.refused_update = o->ota.update_id;
        o->ota.refusals++;
        o->ota.last_code = BBRT_OTA_TRUNCATED;
        o->ota.refused_code = BBRT_OTA_TRUNCATED;
        bbrt_wr_u32(reply, o->ota.update_id);
        bbrt_wr_u16(reply + 4, BBRT_OTA_TRUNCATED);
        type = BBRT_OTA_NACK;
        n = 6u;
    }
    if (was == BBRT_OTA_RECEIVING && o->ota.state != BBRT_OTA_RECEIVING) stage_end(o);
    if (type != 0u) send_ota(node, type, reply, n);
    if (o->ota.state != BBRT_OTA_IDLE) o->revertible = 0u; /* staging overwrites the previous program's slot */
    if (env->edge == BBRT_OTA_ABORT && env->payload_len == 4u && type == 0u) /* the answer: not running it */
        send_nack(node, bbrt_rd_u32(env->data),
                  bbrt_rd_u32(env->data) == o->ota.refused_update && o->ota.refused_code ? o->ota.refused_code
                                                                                       : BBRT_OTA_ABORTED);
    bbrt_node_ota_poll(node); /* a COMMIT switches at once when the node is idle */
    return BBRT_OK;
}

int bbrt_node_ota_attach(bbrt_node_t *node, bbrt_node_ota_t *o, const char *name, uint8_t *slot_a,
                         uint8_t *slot_b, size_t slot_cap, size_t program_len, uint8_t *arena, size_t arena_size,
                         const uint8_t *key, size_t key_len) {
    size_t i;
    if (node == 0 || o == 0 || name == 0 || slot_a == 0 || slot_b == 0 || program_len == 0u ||
        program_len > slot_cap || node->prog.blob != slot_a)
        return -1;
    bbrt_memset(o, 0, sizeof(*o));
    if (bbrt_ota_init(&o->ota, name, slot_b, slot_cap, arena, arena_size, key, key_len) != 0) return -1;
    for (i = 0; i < BBRT_OTA_NAME_MAX && name[i] != '\0'; i++) o->name[i] = name[i];
    o->slot[0] = slot_a;
    o->slot[1] = slot_b;
    o->slot_cap = slot_cap;
    o->active = 0u;
    o->program_len = (uint32_t)program_len;
    bbrt_sha256(slot_a, program_len, o->hash);
    o->loc[0] = o->loc[1] = 0u;
    o->hooks.on_envelope = ota_envelope;
    o->hooks.on_idle = ota_idle;
    o->hooks.hello = ota_hello;
    node->ota = o;
    node->ota_hooks = &o->hooks;
    return 0;
}

/* At boot: a transfer interrupted before it (the progress record) is read back from the staging flash slot
 * into the RAM staging slot; an OFFER2 of the same image resumes there (bbrt_ota.c hashes it again). */
static void load_partial(bbrt_node_ota_t *o) {
    uint8_t b[BBRT_OTA_RECORD_SIZE];
    uint32_t size, durable;
    if (o->flash->read(o->flash->ctx, BBRT_OTA_PROGRESS_OFF, b, sizeof(b)) != 0) return;
    if (bbrt_rd_u32(b) != BBRT_OTA_PROGRESS_MAGIC ||
        bbrt_rd_u32(b + BBRT_OTA_RECORD_SIZE - 4u) != bbrt_crc32_update(0u, b, BBRT_OTA_RECORD_SIZE - 4u))
        return;
    size = bbrt_rd_u32(b + 8);
    durable = bbrt_rd_u32(b + 12);
    /* validated before use: its slot is the staging one, the sizes fit the slot, whole steps only */
    if (bbrt_rd_u32(b + 4) != stage_loc(o) || size == 0u || (size_t)size > o->slot_cap || durable > size ||
        durable % BBRT_OTA_RESUME_STEP != 0u)
        return;
    if (durable == size) durable -= BBRT_OTA_RESUME_STEP; /* at least one chunk is still to come */
    o->stage_size = size;
    bbrt_memcpy(o->stage_sha, b + 16, 32u);
    o->durable = durable;
    if (durable == 0u) return;
    if (o->flash->read(o->flash->ctx, bbrt_ota_flash_offset(o->flash, stage_loc(o)), o->slot[o->active ^ 1u],
                       durable) != 0) {
        o->durable = 0u;
        return;
    }
    o->ota.held = durable;
    o->ota.held_size = size;
    bbrt_memcpy(o->ota.held_sha, o->stage_sha, 32u);
}

int bbrt_node_ota_persist(bbrt_node_ota_t *o, const bbrt_ota_flash_t *f, const bbrt_ota_record_t *booted,
                          const char *deployment) {
    if (o == 0 || deployment == 0) return -1;
    if (bbrt_ota_set_manifest(&o->ota, deployment, booted ? booted->version : 0u) != 0) return -1;
    if (f == 0) return 0;
    if (f->read == 0 || f->write == 0 || f->slot_cap < o->slot_cap) return -1;
    o->flash = f;
    o->loc[o->active] = booted ? booted->loc : 0u;
    o->loc[o->active ^ 1u] = 0u;
    o->seq = booted ? booted->seq : 0u;
    load_partial(o);
    return 0;
}
