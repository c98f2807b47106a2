/* A FedAvg training client on a serial line: image, bbrt_train step, link layer, round record.
 * See include/bbrt_learn.h ("learn node"). No heap: every buffer is the caller's. */
#include "bbrt_learn.h"
#include "bbrt_link.h"
#include "bbrt_train.h"

static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* [off, off + len) inside [header, size), 8-aligned */
static int in_bounds(uint32_t off, uint64_t len, size_t size) {
    return off >= BBRT_LEARN_IMAGE_HEADER && (off & 7u) == 0u && (uint64_t)off + len <= (uint64_t)size;
}

bbrt_status_t bbrt_learn_image_parse(const uint8_t *b, size_t size, bbrt_learn_image_t *o) {
    uint32_t total, x_off, y_off, i;
    if (!b || size < BBRT_LEARN_IMAGE_HEADER) return BBRT_E_TRUNCATED;
    if (((uintptr_t)b & 7u) != 0u) return BBRT_E_PROG_ALIGN;
    if (rd32(b) != BBRT_LEARN_IMAGE_MAGIC) return BBRT_E_BAD_MAGIC;
    if (rd32(b + 4) != BBRT_LEARN_IMAGE_VERSION) return BBRT_E_BAD_VERSION;
    total = rd32(b + 8);
    if (total > size || total < BBRT_LEARN_IMAGE_HEADER) return BBRT_E_BAD_LENGTH;
    bbrt_memset(o, 0, sizeof(*o));
    o->node_id = rd32(b + 12);
    o->server_id = rd32(b + 16);
    o->n_samples = rd32(b + 20);
    o->features = rd32(b + 24);
    o->epochs = rd32(b + 28);
    o->steps = rd32(b + 32);
    o->batch_size = rd32(b + 36);
    o->seed = rd32(b + 40);
    o->heartbeat_ms = rd32(b + 44);
    x_off = rd32(b + 48);
    y_off = rd32(b + 52);
    o->prog_size = rd32(b + 60);
    if (o->n_samples == 0u || o->n_samples > 65535u || o->features == 0u || o->features > 65535u ||
        o->batch_size == 0u || o->batch_size > o->n_samples || (o->epochs == 0u && o->steps == 0u) ||
        o->node_id == o->server_id || o->node_id == BBRT_BROADCAST || o->heartbeat_ms == 0u)
        return BBRT_E_BAD_FIELD;
    if (!in_bounds(x_off, (uint64_t)o->n_samples * o->features * 4u, total) ||
        !in_bounds(y_off, (uint64_t)o->n_samples * 4u, total) || !in_bounds(rd32(b + 56), o->prog_size, total) ||
        o->prog_size == 0u)
        return BBRT_E_BAD_LENGTH;
    o->x = (const float *)(const void *)(b + x_off);
    o->y = (const int32_t *)(const void *)(b + y_off);
    o->prog = b + rd32(b + 56);
    for (i = 0; i < 16u && b[64 + i]; i++) o->name[i] = (char)b[64 + i];
    o->name[i] = 0;
    return BBRT_OK;
}

/* ------------------------------------------------------------- trainer */
static bbrt_learn_node_t *node_of(void *ctx) { return (bbrt_learn_node_t *)ctx; }

static int tr_begin(void *ctx, const float *params, uint32_t n) {
    bbrt_train_t *t = (bbrt_train_t *)node_of(ctx)->train;
    bbrt_status_t st = bbrt_train_set_params(t, params, n);
    bbrt_train_reset_state(t); /* every round starts with fresh momentum, as FedAvgClient does */
    return (int)st;
}

static int tr_step(void *ctx, const uint16_t *idx, uint32_t count) {
    bbrt_learn_node_t *nd = node_of(ctx);
    bbrt_train_t *t = (bbrt_train_t *)nd->train;
    uint32_t i, f = nd->img.features;
    for (i = 0; i < count; i++) { /* gather the batch rows from the shard in flash */
        if (idx[i] >= nd->img.n_samples) return (int)BBRT_E_BAD_FIELD;
        bbrt_memcpy(nd->xb + (size_t)i * f, nd->img.x + (size_t)idx[i] * f, (size_t)f * 4u);
        nd->yb[i] = nd->img.y[idx[i]];
    }
    return (int)bbrt_train_step(t, nd->xb, nd->yb, count, 0);
}

static int tr_end(void *ctx, float *params, uint32_t n) {
    return (int)bbrt_train_get_params((const bbrt_train_t *)node_of(ctx)->train, params, n);
}

static void push_byte(bbrt_learn_node_t *n, uint8_t byte);

/* between steps: ACKs, HELLOs and timers go on (DATA is held, so not acked), heartbeats go out */
static void tr_idle(void *ctx) {
    bbrt_learn_node_t *n = node_of(ctx);
    uint8_t buf[64];
    size_t got, i;
    do {
        got = n->port.read(n->port.ctx, buf, sizeof(buf), 0u);
        for (i = 0; i < got && i < sizeof(buf); i++) push_byte(n, buf[i]);
    } while (got == sizeof(buf));
    bbrt_link_poll(n->link, n->port.now(n->port.ctx));
    if (n->link->up) bbrt_learn_heartbeat(&n->client, n->port.now(n->port.ctx));
}

/* ---------------------------------------------------------------- link */
static void link_emit(void *ctx, const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
    bbrt_learn_node_t *n = (bbrt_learn_node_t *)ctx;
    bbrt_fw_begin(&n->tx, n->port.put, n->port.ctx);
    bbrt_fw_write(&n->tx, a, na);
    if (nb) bbrt_fw_write(&n->tx, b, nb);
    bbrt_fw_end(&n->tx);
}

static void link_deliver(void *ctx, const uint8_t *env, size_t len) {
    bbrt_learn_node_t *n = (bbrt_learn_node_t *)ctx;
    /* handled from the main loop, not inside the link: training takes seconds. While one waits,
     * the link holds further DATA (not acked: the peer sends it again) */
    if (n->pending_len || len > BBRT_MAX_ENVELOPE) {
        n->tx_dropped++;
        return;
    }
    bbrt_memcpy(n->pending, env, len);
    n->pending_len = (uint32_t)len;
    n->link->hold = 1u;
}

static void link_event(void *ctx, bbrt_link_event_t ev, uint32_t a, uint32_t b) {
    (void)ctx;
    (void)ev;
    (void)a;
    (void)b;
}

static void push_byte(bbrt_learn_node_t *n, uint8_t byte) {
    const uint8_t *env = 0;
    size_t len = 0;
    if (bbrt_deframer_push(&n->rx, byte, &env, &len)) bbrt_link_receive(n->link, env, len, n->port.now(n->port.ctx));
}

/* one envelope to the link; waits (link serviced, DATA held) while the transmit buffer is full */
static void link_send(bbrt_learn_node_t *n, const uint8_t *hdr, size_t hn, const uint8_t *payload, size_t pn) {
    bbrt_link_t *l = n->link;
    uint32_t start = n->port.now(n->port.ctx);
    uint8_t hold = l->hold;
    bbrt_link_status_t st = bbrt_link_send(l, hdr, hn, payload, pn, start);
    l->hold = 1u;
    while (st == BBRT_LINK_E_BUSY && l->up && (uint32_t)(n->port.now(n->port.ctx) - start) < 60000u) {
        uint8_t buf[64];
        uint32_t wait = bbrt_link_next_deadline(l, n->port.now(n->port.ctx));
        size_t got = n->port.read(n->port.ctx, buf, sizeof(buf), wait > 20u ? 20u : wait), i;
        for (i = 0; i < got && i < sizeof(buf); i++) push_byte(n, buf[i]);
        bbrt_link_poll(l, n->port.now(n->port.ctx));
        st = bbrt_link_send(l, hdr, hn, payload, pn, n->port.now(n->port.ctx));
    }
    l->hold = hold;
    if (st != BBRT_LINK_OK) n->tx_dropped++;
}

static void send_env(void *io, bbrt_envelope_t *env, const uint8_t *payload) {
    bbrt_learn_node_t *n = (bbrt_learn_node_t *)io;
    uint8_t hdr[96];
    size_t hn = 0;
    if (bbrt_env_encode_header(env, hdr, sizeof(hdr), &hn) != BBRT_OK) {
        n->tx_dropped++;
        return;
    }
    link_send(n, hdr, hn, payload, env->payload_len);
}

static void send_control(bbrt_learn_node_t *n, uint32_t code, uint32_t receiver, uint64_t response_to,
                         const char *text) {
    bbrt_envelope_t env;
    uint32_t len = 0;
    while (text && text[len] && len < 120u) len++;
    n->seq = (n->seq + 1u) & 0xFFFFFFFFu;
    bbrt_env_control(&env, BBRT_PROTO_CONTROL, code, receiver, (const uint8_t *)text, len);
    env.sender = n->img.node_id;
    /* control envelopes use their own sequence space (high bit of n set) apart from the client's */
    env.seq = ((uint64_t)n->client.boot_epoch << 32) | 0x80000000u | n->seq;
    if (code == BBRT_CTRL_PONG) {
        env.flags = BBRT_FLAG_RESPONSE;
        env.response_to = response_to;
    }
    if (code == BBRT_CTRL_ERROR) env.flags = BBRT_FLAG_ERROR;
    send_env(n, &env, (const uint8_t *)text);
}

void bbrt_learn_node_report(bbrt_learn_node_t *n, const char *text) {
    if (n->link->up) send_control(n, BBRT_CTRL_ERROR, 0u, 0u, text);
}

/* ------------------------------------------------------------- events */
static char *put_text(char *p, char *end, const char *s) {
    while (*s && p < end) *p++ = *s++;
    return p;
}

static char *put_uint(char *p, char *end, uint32_t v) {
    char rev[10];
    uint32_t k = 0;
    do { rev[k++] = (char)('0' + v % 10u); v /= 10u; } while (v && k < sizeof(rev));
    while (k && p < end) *p++ = rev[--k];
    return p;
}

static void on_event(void *io, bbrt_learn_event_t ev, uint32_t a, uint32_t b) {
    bbrt_learn_node_t *n = (bbrt_learn_node_t *)io;
    char text[96], *p = text, *end = text + sizeof(text) - 1;
    /* refusals, taken models and resumed rounds are reported off the device (the event's name, reason) */
    if (ev != BBRT_LEARN_EV_REFUSED && ev != BBRT_LEARN_EV_RESUMED && ev != BBRT_LEARN_EV_MODEL_TAKEN) return;
    p = put_text(p, end, bbrt_learn_event_name(ev));
    if (ev == BBRT_LEARN_EV_REFUSED) {
        p = put_text(p, end, " ");
        p = put_text(p, end, bbrt_learn_refusal_name((bbrt_learn_refusal_t)a));
        p = put_text(p, end, (bbrt_learn_refusal_t)a == BBRT_LREF_TRAIN_FAILED ? " status=" : " round=");
        p = put_uint(p, end, b);
    } else {
        p = put_text(p, end, " round=");
        p = put_uint(p, end, a);
    }
    *p = 0;
    bbrt_learn_node_report(n, text);
}

static int save_record(void *io, const bbrt_learn_record_t *rec, const float *model, uint32_t count) {
    bbrt_learn_node_t *n = (bbrt_learn_node_t *)io;
    return n->port.save ? n->port.save(n->port.ctx, rec, model, count) : 0;
}

/* ---------------------------------------------------------------- init */
static size_t up8(size_t v) { return (v + 7u) & ~(size_t)7u; }

/* the deframer holds one link frame body and its CRC: a peer sends bodies up to our max_frame
 * (BBRT_LINK_MTU), whatever the envelope size (larger envelopes come fragmented) */
#define RX_BYTES (BBRT_LINK_MTU + 4u)

size_t bbrt_learn_node_work_size(const bbrt_learn_image_t *img, uint32_t n_params) {
    if (!img || n_params == 0u) return 0u;
    return 2u * up8((size_t)n_params * 4u) + up8((size_t)img->n_samples * 2u) +
           up8((size_t)img->batch_size * img->features * 4u) + up8((size_t)img->batch_size * 4u) +
           up8(BBRT_MAX_ENVELOPE) + up8(RX_BYTES);
}

bbrt_status_t bbrt_learn_node_init(bbrt_learn_node_t *n, const uint8_t *image, size_t image_size,
                                   void *train_storage, uint8_t *arena, size_t arena_size, bbrt_link_t *link,
                                   uint8_t *txbuf, size_t txcap, uint8_t *rasm, size_t rasm_cap, uint8_t *work,
                                   size_t work_size, uint32_t boot_epoch, const bbrt_learn_port_t *port,
                                   const uint8_t *saved, size_t saved_len) {
    bbrt_train_t *t = (bbrt_train_t *)train_storage;
    bbrt_learn_config_t cfg;
    bbrt_learn_trainer_t tr;
    bbrt_hello_t h;
    bbrt_status_t st;
    size_t need, at = 0;
    float *model, *round_model;
    uint16_t *order;
    uint32_t len = 0;
    if (!n || !train_storage || !link || !work || !port || !port->put || !port->read || !port->now)
        return BBRT_E_BAD_FIELD;
    bbrt_memset(n, 0, sizeof(*n));
    st = bbrt_learn_image_parse(image, image_size, &n->img);
    if (st != BBRT_OK) return st;
    st = bbrt_train_load(t, n->img.prog, n->img.prog_size, arena, arena_size);
    if (st != BBRT_OK) return st;
    /* the program's shapes must be the image's: a mismatch is refused before anything runs */
    if (t->batch != n->img.batch_size || t->features != n->img.features) return BBRT_E_PROG_SHAPE;
    need = bbrt_learn_node_work_size(&n->img, t->param_count);
    if (need == 0u || need > work_size || ((uintptr_t)work & 7u) != 0u) return BBRT_E_ARENA_SMALL;
    model = (float *)(void *)(work + at);
    at += up8((size_t)t->param_count * 4u);
    round_model = (float *)(void *)(work + at);
    at += up8((size_t)t->param_count * 4u);
    order = (uint16_t *)(void *)(work + at);
    at += up8((size_t)n->img.n_samples * 2u);
    n->xb = (float *)(void *)(work + at);
    at += up8((size_t)n->img.batch_size * n->img.features * 4u);
    n->yb = (int32_t *)(void *)(work + at);
    at += up8((size_t)n->img.batch_size * 4u);
    n->pending = work + at;
    at += up8(BBRT_MAX_ENVELOPE);
    bbrt_deframer_init(&n->rx, work + at, RX_BYTES);
    n->train = t;
    n->port = *port;
    n->link = link;
    st = (bbrt_status_t)bbrt_train_get_params(t, model, t->param_count); /* the program's initial model */
    if (st != BBRT_OK) return st;
    bbrt_memset(&cfg, 0, sizeof(cfg));
    cfg.node_id = n->img.node_id;
    cfg.server_id = n->img.server_id;
    cfg.n_params = t->param_count;
    cfg.n_samples = n->img.n_samples;
    cfg.epochs = n->img.epochs;
    cfg.steps = n->img.steps;
    cfg.batch_size = n->img.batch_size;
    cfg.seed = n->img.seed;
    cfg.heartbeat_ms = n->img.heartbeat_ms;
    tr.begin = tr_begin;
    tr.step = tr_step;
    tr.end = tr_end;
    tr.idle = tr_idle;
    tr.ctx = n;
    st = bbrt_learn_init(&n->client, &cfg, &tr, model, round_model, order, boot_epoch, send_env, on_event,
                         save_record, n);
    if (st != BBRT_OK) return st;
    if (saved && saved_len == sizeof(bbrt_learn_record_t) + (size_t)t->param_count * 4u &&
        ((uintptr_t)saved & 3u) == 0u) /* a record that does not check out is ignored: a fresh start */
        (void)bbrt_learn_restore(&n->client, (const bbrt_learn_record_t *)(const void *)saved,
                                 (const float *)(const void *)(saved + sizeof(bbrt_learn_record_t)));
    bbrt_memset(&h, 0, sizeof(h));
    h.min_version = BBRT_LINK_VERSION_MIN;
    h.max_version = BBRT_LINK_VERSION_MAX;
    h.caps = BBRT_CAP_ARQ | BBRT_CAP_FRAG;
    h.boot_epoch = n->client.boot_epoch;
    h.node_id = n->img.node_id;
    h.max_frame = BBRT_LINK_MTU;
    h.window = BBRT_LINK_WINDOW;
    while (n->img.name[len] && len < 16u) {
        h.name[len] = (uint8_t)n->img.name[len];
        len++;
    }
    h.name_len = (uint16_t)len;
    bbrt_link_init(link, &h, 0, txbuf, txcap, rasm, rasm_cap, link_emit, link_deliver, link_event, n);
    link->next_epoch = port->next_epoch;
    bbrt_link_start(link, port->now(port->ctx));
    return BBRT_OK;
}

/* ------------------------------------------------------------- inbound */
static void handle_pending(bbrt_learn_node_t *n) {
    bbrt_envelope_t env;
    uint32_t len = n->pending_len;
    if (!len) return;
    if (bbrt_env_decode(n->pending, len, BBRT_MAX_PAYLOAD, &env) != BBRT_OK) {
        n->bad_envelopes++;
    } else if (env.receiver != n->img.node_id && env.receiver != BBRT_BROADCAST) {
        n->not_for_me++;
    } else if (env.kind == BBRT_KIND_CONTROL && env.protocol == BBRT_PROTO_CONTROL) {
        if (env.edge == BBRT_CTRL_PING &&
            bbrt_seqwin_check(n->ping_senders, 2u, env.sender, env.seq) == BBRT_OK) {
            bbrt_seqwin_commit(n->ping_senders, 2u, env.sender, env.seq, &n->ping_clock);
            n->pings++;
            send_control(n, BBRT_CTRL_PONG, env.sender, env.seq, 0);
        }
    } else {
        (void)bbrt_learn_handle(&n->client, &env, n->port.now(n->port.ctx));
    }
    n->pending_len = 0u;
    n->link->hold = 0u;
}

void bbrt_learn_node_feed(bbrt_learn_node_t *n, const uint8_t *p, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        push_byte(n, p[i]);
        if (n->pending_len) handle_pending(n);
    }
}

void bbrt_learn_node_poll(bbrt_learn_node_t *n) {
    uint32_t now = n->port.now(n->port.ctx);
    bbrt_link_poll(n->link, now);
    if (n->pending_len) handle_pending(n);
    bbrt_learn_tick(&n->client, n->port.now(n->port.ctx), n->link->up);
}
