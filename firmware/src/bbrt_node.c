/* A fleet node on a serial link: frames in, envelopes decoded in place, Recv
 * edges joined per request_id, program run in the arena, Send edges framed out. */
/* Why one file: the node loop's request slots, dedup windows and link callbacks are one piece of static
 * state (bbrt_node_t). Receive, assemble, run and send touch it all; the link and the program loader are
 * separate files. */
#include "bbrt.h"
#include "bbrt_internal.h"
#include "bbrt_link.h"

#define ALIGN8(n) (((n) + 7u) & ~7u)

/* staged bytes of one request: 8-aligned Recv payloads (0 with <= 1 Recv edge) */
static uint32_t request_bytes(const bbrt_program_t *prog, uint32_t *off) {
    uint32_t i, total = 0u, n_recv = 0u;
    for (i = 0; i < prog->n_edges; i++) {
        bbrt_edge_t e;
        bbrt_tensor_t t;
        bbrt_program_edge(prog, i, &e);
        if (off) off[i] = total;
        if (e.dir != BBRT_EDGE_RECV) continue;
        bbrt_program_tensor(prog, e.tensor, &t);
        total += ALIGN8(t.nbytes); /* payload <= BBRT_MAX_PAYLOAD, <= 32 edges: no overflow */
        n_recv++;
    }
    return n_recv > 1u ? total : 0u;
}

uint32_t bbrt_node_arena_size(const bbrt_program_t *prog, uint32_t slots) {
    uint32_t per = request_bytes(prog, 0);
    return ALIGN8(prog->arena_size) + (per ? slots * per : 0u);
}

/* Bind a loaded program to the node: Recv mask, request slots in the arena beyond the program's own
 * bytes. Also used by an over-the-air switch (bbrt_node_ota.c) at an idle point. */
void bbrt_node_set_program(bbrt_node_t *node, const bbrt_program_t *prog, uint8_t *arena, size_t arena_size) {
    uint32_t i, per;
    size_t base, spare;
    node->prog = *prog;
    node->need_mask = 0u;
    node->n_slots = 1u;
    node->slot_bytes = 0u;
    node->slot_base = 0;
    bbrt_memset(node->slots, 0, sizeof(node->slots));
    for (i = 0; i < node->prog.n_edges; i++) {
        bbrt_edge_t e;
        bbrt_program_edge(&node->prog, i, &e);
        if (e.dir == BBRT_EDGE_RECV) node->need_mask |= (1u << i);
    }
    per = request_bytes(&node->prog, node->recv_off);
    base = ALIGN8((size_t)node->prog.arena_size);
    spare = arena_size > base ? arena_size - base : 0u;
    if (per > 0u && spare >= per) {
        size_t n = spare / per;
        node->n_slots = n < BBRT_REQUEST_SLOTS ? (uint32_t)n : BBRT_REQUEST_SLOTS;
        node->slot_bytes = per;
        node->slot_base = arena + base;
    }
}

bbrt_status_t bbrt_node_init(bbrt_node_t *node, const uint8_t *program, size_t program_len,
                             uint8_t *arena, size_t arena_size, uint8_t *rxbuf, size_t rxcap,
                             bbrt_put_fn put, void *put_ctx) {
    bbrt_status_t st;
    bbrt_program_t prog;
    bbrt_memset(node, 0, sizeof(*node));
    node->put = put;
    node->put_ctx = put_ctx;
    node->n_slots = 1u;
    bbrt_deframer_init(&node->rx, rxbuf, rxcap);
    st = bbrt_program_load(&prog, program, program_len, arena, arena_size);
    if (st != BBRT_OK) return st;
    bbrt_node_set_program(node, &prog, arena, arena_size);
    return BBRT_OK;
}

/* ------------------------------------------------------------ seq window */
static const bbrt_seqwin_t *seqwin_find(const bbrt_seqwin_t *w, size_t n, uint32_t sender) {
    size_t i;
    for (i = 0; i < n; i++)
        if (w[i].used && w[i].sender == sender) return &w[i];
    return 0;
}

bbrt_status_t bbrt_seqwin_check(const bbrt_seqwin_t *w, size_t n, uint32_t sender, uint64_t seq) {
    uint32_t epoch = (uint32_t)(seq >> 32), k = (uint32_t)seq, i, oldest = 0xFFFFFFFFu;
    const bbrt_seqwin_t *s = seqwin_find(w, n, sender);
    int any = 0;
    if (!s) return BBRT_OK;
    for (i = 0; i < BBRT_SEQ_EPOCHS; i++) {
        const bbrt_epochwin_t *e = &s->w[i];
        if (!e->used) continue;
        any = 1;
        if (e->epoch < oldest) oldest = e->epoch;
        if (e->epoch != epoch) continue;
        if (k == e->top) return BBRT_E_DUPLICATE;
        if (k > e->top) return BBRT_OK;
        if (e->top - k > BBRT_SEQ_WINDOW) return BBRT_E_DUPLICATE; /* below the window: treated as seen */
        return ((e->mask >> (e->top - k - 1u)) & 1u) ? BBRT_E_DUPLICATE : BBRT_OK;
    }
    return any && epoch < oldest ? BBRT_E_STALE_EPOCH : BBRT_OK;
}

void bbrt_seqwin_commit(bbrt_seqwin_t *w, size_t n, uint32_t sender, uint64_t seq, uint32_t *clock) {
    uint32_t epoch = (uint32_t)(seq >> 32), k = (uint32_t)seq, i;
    bbrt_seqwin_t *s = (bbrt_seqwin_t *)(uintptr_t)seqwin_find(w, n, sender);
    bbrt_epochwin_t *e = 0;
    if (!s) { /* a free entry, else the least recently used sender gives way */
        size_t j, pick = 0;
        for (j = 0; j < n; j++) {
            if (!w[j].used) { pick = j; break; }
            if (w[j].age < w[pick].age) pick = j;
        }
        s = &w[pick];
        bbrt_memset(s, 0, sizeof(*s));
        s->used = 1u;
        s->sender = sender;
    }
    s->age = ++*clock;
    for (i = 0; i < BBRT_SEQ_EPOCHS && !e; i++)
        if (s->w[i].used && s->w[i].epoch == epoch) e = &s->w[i];
    if (!e) { /* a new epoch (docs/wire.md): a jump above the newest regular epoch takes the one
               * probation window (used == 2); else a free window, else the smallest epoch is forgotten */
        uint32_t newest = 0u;
        int any_regular = 0;
        uint8_t kind = 1u;
        for (i = 0; i < BBRT_SEQ_EPOCHS; i++)
            if (s->w[i].used == 1u) {
                if (!any_regular || s->w[i].epoch > newest) newest = s->w[i].epoch;
                any_regular = 1;
            }
        if (any_regular && newest < 0xFFFFFFFFu && epoch > newest + 1u) {
            kind = 2u;
            for (i = 0; i < BBRT_SEQ_EPOCHS && !e; i++)
                if (s->w[i].used == 2u) e = &s->w[i]; /* replaces the probation epoch kept */
        }
        for (i = 0; i < BBRT_SEQ_EPOCHS && !e; i++)
            if (!s->w[i].used) e = &s->w[i];
        if (!e) {
            e = &s->w[0];
            for (i = 1; i < BBRT_SEQ_EPOCHS; i++)
                if (s->w[i].epoch < e->epoch) e = &s->w[i];
        }
        e->used = kind;
        e->epoch = epoch;
        e->top = k;
        e->mask = 0u;
        return;
    }
    if (k > e->top) { /* slide up: the old top becomes bit d - 1 */
        uint32_t d = k - e->top;
        if (d > BBRT_SEQ_WINDOW) e->mask = 0u;
        else if (d == BBRT_SEQ_WINDOW) e->mask = (uint64_t)1u << (BBRT_SEQ_WINDOW - 1u);
        else e->mask = (e->mask << d) | ((uint64_t)1u << (d - 1u));
        e->top = k;
    } else if (k < e->top && e->top - k <= BBRT_SEQ_WINDOW) {
        e->mask |= (uint64_t)1u << (e->top - k - 1u);
    }
}

/* ------------------------------------------------------------ link glue */
static void link_emit(void *ctx, const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
    bbrt_node_t *node = (bbrt_node_t *)ctx;
    bbrt_fw_begin(&node->tx, node->put, node->put_ctx);
    bbrt_fw_write(&node->tx, a, na);
    if (nb) bbrt_fw_write(&node->tx, b, nb);
    bbrt_fw_end(&node->tx);
}

static void link_deliver(void *ctx, const uint8_t *env, size_t len) {
    (void)bbrt_node_handle((bbrt_node_t *)ctx, env, len);
}

static void link_event(void *ctx, bbrt_link_event_t ev, uint32_t a, uint32_t b) {
    bbrt_node_t *node = (bbrt_node_t *)ctx;
    (void)a;
    (void)b;
    if (ev == BBRT_LEV_BARE_ENVELOPE) node->bare_peer = 1u;
    if (ev == BBRT_LEV_LINK_UP) node->bare_peer = 0u;
}

static uint32_t link_frag(void *ctx, uint32_t op, uint32_t off, uint32_t total, const uint8_t *chunk,
                          uint32_t len);

static uint32_t node_now(bbrt_node_t *node) { return node->now ? node->now(node->io_ctx) : 0u; }

/* one received byte: deframed, then through the link (or straight to the node without one) */
static void push_byte(bbrt_node_t *node, uint8_t byte) {
    const uint8_t *env = 0;
    size_t len = 0;
    uint32_t bad_before = node->rx.stats.bad_crc + node->rx.stats.bad_cobs + node->rx.stats.too_long +
                          node->rx.stats.too_short;
    if (bbrt_deframer_push(&node->rx, byte, &env, &len)) {
        node->stats.frames_ok++;
        if (node->link) bbrt_link_receive(node->link, env, len, node_now(node));
        else (void)bbrt_node_handle(node, env, len);
    } else if (byte == 0u) {
        uint32_t bad_after = node->rx.stats.bad_crc + node->rx.stats.bad_cobs + node->rx.stats.too_long +
                             node->rx.stats.too_short;
        node->stats.bad_frames += bad_after - bad_before;
    }
}

/* Wait until the transmit buffer has room for n bytes: the link keeps taking ACKs and HELLOs
 * but holds DATA (not acked, so the peer sends it again later). Bytes already given to
 * bbrt_node_feed are consumed first, so the stream stays in order. Returns 1 when there is room. */
static int wait_for_room(bbrt_node_t *node, size_t need) {
    bbrt_link_t *l = node->link;
    uint32_t start = node_now(node);
    uint8_t buf[64];
    if (!node->read || !node->now) return 0;
    l->hold = 1u;
    while (!bbrt_link_can_send(l, need) && l->up && (uint32_t)(node_now(node) - start) < 60000u) {
        if (node->feed_i < node->feed_n) {
            push_byte(node, node->feed_p[node->feed_i++]);
        } else {
            uint32_t wait = bbrt_link_next_deadline(l, node_now(node));
            size_t n = node->read(node->io_ctx, buf, sizeof(buf), wait > 50u ? 50u : wait), i;
            for (i = 0; i < n && i < sizeof(buf); i++) push_byte(node, buf[i]);
        }
        bbrt_link_poll(l, node_now(node));
    }
    l->hold = 0u;
    return bbrt_link_can_send(l, need);
}

static void link_send(bbrt_node_t *node, const uint8_t *hdr, size_t n, const uint8_t *payload, size_t plen) {
    bbrt_link_t *l = node->link;
    bbrt_link_status_t st = bbrt_link_send(l, hdr, n, payload, plen, node_now(node));
    if (st == BBRT_LINK_E_BUSY && wait_for_room(node, n + plen))
        st = bbrt_link_send(l, hdr, n, payload, plen, node_now(node));
    if (st != BBRT_LINK_OK) node->stats.tx_dropped++;
}

bbrt_status_t bbrt_node_link_attach(bbrt_node_t *node, bbrt_link_t *link, uint8_t *txbuf, size_t txcap,
                                    uint8_t *rasm, size_t rasm_cap, uint32_t boot_epoch, const char *name,
                                    bbrt_now_fn now, bbrt_read_fn read, void *io_ctx) {
    bbrt_hello_t h;
    uint32_t len = 0;
    if (boot_epoch < 1u) return BBRT_E_BAD_FIELD;
    bbrt_memset(&h, 0, sizeof(h));
    h.min_version = BBRT_LINK_VERSION_MIN;
    h.max_version = BBRT_LINK_VERSION_MAX;
    h.caps = BBRT_CAP_ARQ | BBRT_CAP_FRAG;
    h.boot_epoch = boot_epoch;
    h.node_id = node->prog.node_id;
    /* what the receive buffer holds (frame body + CRC): a larger envelope comes fragmented, and its
     * payload streams into the arena (link_frag), so the buffer need not hold the largest edge */
    h.max_frame = node->rx.cap >= 4u && node->rx.cap - 4u < BBRT_LINK_MTU ? (uint32_t)(node->rx.cap - 4u)
                                                                         : BBRT_LINK_MTU;
    if (h.max_frame < BBRT_HELLO_MAX_BODY) h.max_frame = BBRT_HELLO_MAX_BODY;
    h.window = BBRT_LINK_WINDOW;
    while (name && name[len] && len < BBRT_HELLO_MAX_NAME) {
        h.name[len] = (uint8_t)name[len];
        len++;
    }
    h.name_len = (uint16_t)len;
    node->boot_epoch = boot_epoch;
    node->seq = 0u;
    node->link = link;
    node->now = now;
    node->read = read;
    node->io_ctx = io_ctx;
    node->ctl = rasm;
    node->ctl_cap = rasm_cap > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)rasm_cap;
    node->in.mode = 0u;
    bbrt_link_init(link, &h, 0, txbuf, txcap, 0, 0u, link_emit, link_deliver, link_event, node);
    bbrt_link_stream(link, link_frag);
    bbrt_link_start(link, node_now(node));
    return BBRT_OK;
}

void bbrt_node_epoch_source(bbrt_node_t *node, uint32_t (*next_epoch)(void *ctx)) {
    if (node->link) node->link->next_epoch = next_epoch;
}

void bbrt_node_poll(bbrt_node_t *node) {
    if (node->link) bbrt_link_poll(node->link, node_now(node));
}

uint32_t bbrt_client_slot(uint32_t wire_id) {
    return wire_id > BBRT_CLIENT_ID_BASE && wire_id <= BBRT_CLIENT_ID_BASE + BBRT_MAX_CLIENTS
               ? wire_id - BBRT_CLIENT_ID_BASE
               : 0u;
}

uint32_t bbrt_reply_to(uint64_t request_id) {
    uint32_t slot = (uint32_t)(request_id >> 56) & 0xFFu;
    return slot == 0u ? 0u : BBRT_CLIENT_ID_BASE + slot;
}

int bbrt_may_submit(uint32_t sender, uint64_t request_id) {
    uint32_t slot;
    if (sender == 0u) return 1;
    slot = bbrt_client_slot(sender);
    return slot != 0u && slot == ((uint32_t)(request_id >> 56) & 0xFFu);
}

static void send_env(bbrt_node_t *node, bbrt_envelope_t *env, const uint8_t *payload) {
    uint8_t hdr[96];
    size_t n = 0;
    node->seq = (node->seq + 1u) & 0xFFFFFFFFu;
    env->seq = ((uint64_t)node->boot_epoch << 32) | node->seq;
    env->sender = node->prog.node_id;
    if (bbrt_env_encode_header(env, hdr, sizeof(hdr), &n) != BBRT_OK) return;
    if (node->link && !(node->bare_peer && !node->link->up)) {
        link_send(node, hdr, n, payload, env->payload_len);
        return;
    }
    if (node->unframed) {
        node->put(node->put_ctx, hdr, n);
        if (env->payload_len) node->put(node->put_ctx, payload, env->payload_len);
        node->put(node->put_ctx, 0, 0u);
        return;
    }
    bbrt_fw_begin(&node->tx, node->put, node->put_ctx);
    bbrt_fw_write(&node->tx, hdr, n);
    if (env->payload_len) bbrt_fw_write(&node->tx, payload, env->payload_len);
    bbrt_fw_end(&node->tx);
}

void bbrt_node_send(bbrt_node_t *node, bbrt_envelope_t *env, const uint8_t *payload) { send_env(node, env, payload); }

static void send_control(bbrt_node_t *node, uint32_t code, uint32_t receiver, uint64_t response_to,
                         uint64_t request_id, const char *text) {
    bbrt_envelope_t env;
    uint32_t len = 0;
    while (text && text[len] && len < 200u) len++;
    bbrt_env_control(&env, BBRT_PROTO_CONTROL, code, receiver, (const uint8_t *)text, len);
    env.request_id = request_id;
    if (code == BBRT_CTRL_PONG) {
        env.flags = BBRT_FLAG_RESPONSE;
        env.response_to = response_to;
    }
    if (code == BBRT_CTRL_ERROR) env.flags = BBRT_FLAG_ERROR;
    send_env(node, &env, (const uint8_t *)text);
}

void bbrt_node_hello(bbrt_node_t *node, const char *name) {
    if (node->ota_hooks && node->ota_hooks->hello) { /* a hello record with the running program's hash */
        node->ota_hooks->hello(node, BBRT_BROADCAST, 0u);
        return;
    }
    send_control(node, BBRT_CTRL_HELLO, BBRT_BROADCAST, 0u, 0u, name);
}

static void send_outputs(bbrt_node_t *node, uint64_t request_id) {
    uint32_t i, k;
    for (i = 0; i < node->prog.n_edges; i++) {
        bbrt_edge_t e;
        bbrt_tensor_t t;
        bbrt_envelope_t env;
        bbrt_program_edge(&node->prog, i, &e);
        if (e.dir != BBRT_EDGE_SEND) continue;
        bbrt_program_tensor(&node->prog, e.tensor, &t);
        bbrt_memset(&env, 0, sizeof(env));
        env.kind = BBRT_KIND_DATA;
        env.protocol = BBRT_PROTO_DATAFLOW;
        env.receiver = e.peer == 0u ? bbrt_reply_to(request_id) : e.peer; /* a graph output: to its owner */
        env.request_id = request_id;
        env.edge = e.edge_id;
        env.dtype = t.dtype;
        env.rank = t.rank;
        for (k = 0; k < t.rank; k++) env.dims[k] = t.dims[k];
        env.payload_len = t.nbytes;
        if (t.dtype == BBRT_DT_INT8 || t.dtype == BBRT_DT_UINT8) {
            env.flags = BBRT_FLAG_QUANT;
            env.scale = t.scale;
            env.zero_point = t.zero_point;
        }
        send_env(node, &env, t.data);
    }
}

/* the slot of request_id: its own, else a free one, else the oldest (evicted) */
static bbrt_request_slot_t *find_slot(bbrt_node_t *node, uint64_t request_id, uint32_t *index) {
    uint32_t s, pick = BBRT_REQUEST_SLOTS;
    for (s = 0; s < node->n_slots; s++)
        if (node->slots[s].used && node->slots[s].request_id == request_id) {
            *index = s;
            return &node->slots[s];
        }
    for (s = 0; s < node->n_slots && pick == BBRT_REQUEST_SLOTS; s++)
        if (!node->slots[s].used) pick = s;
    if (pick == BBRT_REQUEST_SLOTS) { /* all busy: the oldest incomplete request goes */
        pick = 0u;
        for (s = 1; s < node->n_slots; s++)
            if (node->slots[s].age < node->slots[pick].age) pick = s;
        node->stats.evicted++;
    }
    node->slots[pick].used = 1u;
    node->slots[pick].request_id = request_id;
    node->slots[pick].have_mask = 0u;
    node->slots[pick].age = ++node->age;
    *index = pick;
    return &node->slots[pick];
}

static bbrt_status_t run_request(bbrt_node_t *node, bbrt_request_slot_t *slot, uint32_t index) {
    uint64_t request_id = slot->request_id;
    bbrt_status_t st;
    if (node->slot_bytes) { /* staged inputs into the program's arena */
        const uint8_t *src = node->slot_base + (size_t)index * node->slot_bytes;
        uint32_t i;
        for (i = 0; i < node->prog.n_edges; i++) {
            bbrt_edge_t e;
            bbrt_tensor_t t;
            if (!(node->need_mask & (1u << i))) continue;
            bbrt_program_edge(&node->prog, i, &e);
            bbrt_program_tensor(&node->prog, e.tensor, &t);
            if (t.nbytes) bbrt_memcpy(t.data, src + node->recv_off[i], t.nbytes);
        }
    }
    slot->used = 0u;
    slot->have_mask = 0u;
    st = bbrt_program_run(&node->prog);
    if (st != BBRT_OK) {
        node->stats.run_errors++;
        send_control(node, BBRT_CTRL_ERROR, bbrt_reply_to(request_id), 0u, request_id, bbrt_status_name(st));
        return st;
    }
    node->stats.inferences++;
    send_outputs(node, request_id);
    return BBRT_OK;
}

/* The engine's checks on a data envelope, in its order (docs/wire.md): the edge is one of this
 * node's Recv edges, it comes from the edge's producer (peer 0: a graph input, from the host or the
 * client that owns the request), its dtype, rank, dims and bytes are the contract's. Changes nothing but a counter. */
static bbrt_status_t check_data(bbrt_node_t *node, const bbrt_envelope_t *env, uint32_t *index) {
    uint32_t i, k;
    for (i = 0; i < node->prog.n_edges; i++) {
        bbrt_edge_t e;
        bbrt_tensor_t t;
        bbrt_program_edge(&node->prog, i, &e);
        if (e.dir != BBRT_EDGE_RECV || e.edge_id != env->edge) continue;
        bbrt_program_tensor(&node->prog, e.tensor, &t);
        /* a graph input (peer 0) from the host or the client owning the request; else only the producer */
        if (e.peer == 0u ? !bbrt_may_submit(env->sender, env->request_id) : env->sender != e.peer) {
            node->stats.unauthorised++;
            return BBRT_E_UNAUTHORISED;
        }
        if (env->dtype != t.dtype || env->payload_len != t.nbytes || env->rank != t.rank) {
            node->stats.edge_mismatch++;
            return BBRT_E_EDGE_MISMATCH;
        }
        for (k = 0; k < t.rank; k++)
            if (env->dims[k] != t.dims[k]) {
                node->stats.edge_mismatch++;
                return BBRT_E_EDGE_MISMATCH;
            }
        /* an int8 edge's scale and zero point are contract: both ends quantize with the same ones
         * (deployment.json "quant"), so a payload is copied as it is and never requantized (no
         * soft-float in an int8 node); other parameters would be read as wrong numbers. Compared
         * on the scale's bits: no float compare. */
        if ((env->flags & BBRT_FLAG_QUANT) && t.dtype == BBRT_DT_INT8 &&
            (bbrt_f32_bits(env->scale) != bbrt_f32_bits(t.scale) || env->zero_point != t.zero_point)) {
            node->stats.edge_mismatch++;
            return BBRT_E_EDGE_MISMATCH;
        }
        *index = i;
        return BBRT_OK;
    }
    node->stats.unknown_edge++;
    return BBRT_E_UNKNOWN_EDGE;
}

/* Stage a checked envelope on Recv edge i; run the request when it is complete. */
static bbrt_status_t apply_data(bbrt_node_t *node, const bbrt_envelope_t *env, uint32_t i) {
    bbrt_edge_t e;
    bbrt_tensor_t t;
    bbrt_request_slot_t *slot;
    uint32_t si;
    uint8_t *dst;
    bbrt_program_edge(&node->prog, i, &e);
    bbrt_program_tensor(&node->prog, e.tensor, &t);
    slot = find_slot(node, env->request_id, &si);
    /* straight into the tensor's arena bytes (or its request slot): check_data proved the payload
     * is exactly the contract's dtype, dims, bytes and quantization */
    dst = node->slot_bytes ? node->slot_base + (size_t)si * node->slot_bytes + node->recv_off[i] : t.data;
    if (t.nbytes) bbrt_memcpy(dst, env->data, t.nbytes);
    slot->have_mask |= (1u << i);
    if ((slot->have_mask & node->need_mask) == node->need_mask) return run_request(node, slot, si);
    return BBRT_OK;
}

/* the arena bytes of Recv edge i's tensor */
static uint8_t *prog_tensor_data(bbrt_node_t *node, uint32_t i) {
    bbrt_edge_t e;
    bbrt_tensor_t t;
    bbrt_program_edge(&node->prog, i, &e);
    bbrt_program_tensor(&node->prog, e.tensor, &t);
    return t.data;
}

static bbrt_status_t fresh(bbrt_node_t *node, const bbrt_envelope_t *env) {
    bbrt_status_t st = bbrt_seqwin_check(node->senders, BBRT_SEQ_SENDERS, env->sender, env->seq);
    if (st == BBRT_E_DUPLICATE) node->stats.duplicates++;
    if (st == BBRT_E_STALE_EPOCH) node->stats.stale_epoch++;
    return st;
}

bbrt_status_t bbrt_node_handle(bbrt_node_t *node, const uint8_t *buf, size_t len) {
    bbrt_envelope_t env;
    bbrt_status_t st = bbrt_env_decode(buf, len, BBRT_MAX_PAYLOAD, &env);
    if (st != BBRT_OK) {
        node->stats.bad_envelopes++;
        return st;
    }
    if (env.receiver != node->prog.node_id && env.receiver != BBRT_BROADCAST) {
        node->stats.not_for_me++;
        return BBRT_E_WRONG_RECEIVER;
    }
    /* validation first: the window moves only for an envelope that passed every check and was applied */
    if (env.protocol == 24u /* BBRT_OTA_PROTO */ && node->ota_hooks && node->ota_hooks->on_envelope)
        return node->ota_hooks->on_envelope(node, &env); /* program updates (bbrt_node_ota.c) */
    if (env.kind == BBRT_KIND_CONTROL) {
        if (env.protocol == BBRT_PROTO_CONTROL && env.edge == BBRT_CTRL_PING) {
            st = fresh(node, &env);
            if (st != BBRT_OK) return st;
            node->stats.pings++;
            bbrt_seqwin_commit(node->senders, BBRT_SEQ_SENDERS, env.sender, env.seq, &node->seq_clock);
            send_control(node, BBRT_CTRL_PONG, env.sender, env.seq, env.request_id, 0);
        }
        /* a node that speaks hello records answers a peer's HELLO (not an answer) with its own, so a
         * host that joins later learns its epoch and program hash */
        if (env.protocol == BBRT_PROTO_CONTROL && env.edge == BBRT_CTRL_HELLO &&
            !(env.flags & BBRT_FLAG_RESPONSE) && node->ota_hooks && node->ota_hooks->hello)
            node->ota_hooks->hello(node, env.sender, env.seq);
        return BBRT_OK;
    }
    if (env.protocol != BBRT_PROTO_DATAFLOW) return BBRT_OK; /* other protocols: ignored */
    {
        uint32_t index = 0;
        st = check_data(node, &env, &index);
        if (st != BBRT_OK) return st;
        st = fresh(node, &env);
        if (st != BBRT_OK) return st;
        bbrt_seqwin_commit(node->senders, BBRT_SEQ_SENDERS, env.sender, env.seq, &node->seq_clock);
        /* a run error still consumed the envelope (answered with ERROR): a copy is a duplicate */
        st = apply_data(node, &env, index);
        /* a committed update waits for an idle point: this envelope may have completed a request */
        if (node->ota_hooks && node->ota_hooks->on_idle) node->ota_hooks->on_idle(node);
        return st;
    }
}

/* ------------------------------------------------------------ streaming receive */
enum { IN_NONE = 0, IN_DATA = 1, IN_STAGE = 2 };

/* envelope bytes [off, off + len) of the open message: its payload part goes to its arena bytes */
static void stream_piece(bbrt_node_t *node, uint32_t off, const uint8_t *chunk, uint32_t len) {
    if (node->in.mode == IN_DATA) {
        uint32_t lo = node->in.data_off, hi = node->in.data_off + node->in.payload_len;
        uint32_t a = off > lo ? off : lo, b = off + len < hi ? off + len : hi;
        /* the link proved off + len <= total = data_off + payload_len; clipped again all the same */
        if (b > a) bbrt_memcpy(node->in.dst + (a - lo), chunk + (a - off), b - a);
    } else if (node->in.mode == IN_STAGE && off <= node->ctl_cap && len <= node->ctl_cap - off) {
        bbrt_memcpy(node->ctl + off, chunk, len);
    }
}

/* The header fragment of a message of `total` bytes: validated as bbrt_node_handle would (envelope
 * rules, receiver, then for a data envelope the edge contract, sender and freshness), all before
 * any payload byte is written. A refused envelope is counted and its fragments dropped (acked). */
static uint32_t stream_begin(bbrt_node_t *node, uint32_t total, const uint8_t *chunk, uint32_t len) {
    bbrt_envelope_t env;
    bbrt_request_slot_t *slot;
    uint32_t index = 0u, si = 0u;
    bbrt_status_t st = bbrt_env_decode_header(chunk, len, total, BBRT_MAX_PAYLOAD, &env);
    node->in.mode = IN_NONE;
    if (st != BBRT_OK) { /* also a header split over two fragments: no sender of ours does that */
        node->stats.bad_envelopes++;
        return BBRT_LFRAG_DISCARD;
    }
    if (env.receiver != node->prog.node_id && env.receiver != BBRT_BROADCAST) {
        node->stats.not_for_me++;
        return BBRT_LFRAG_DISCARD;
    }
    if (env.kind == BBRT_KIND_CONTROL || env.protocol != BBRT_PROTO_DATAFLOW) {
        /* control and OTA messages are staged whole and handled when complete (bbrt_node_handle) */
        if (!node->ctl || total > node->ctl_cap) {
            node->stats.bad_envelopes++;
            return BBRT_LFRAG_DISCARD;
        }
        node->in.mode = IN_STAGE;
        stream_piece(node, 0u, chunk, len);
        return BBRT_LFRAG_TAKE;
    }
    if (check_data(node, &env, &index) != BBRT_OK || fresh(node, &env) != BBRT_OK) return BBRT_LFRAG_DISCARD;
    slot = find_slot(node, env.request_id, &si);
    /* a second copy of an edge replaces the first: not ready until this one completes, so a request
     * never runs on a half-written input */
    slot->have_mask &= ~(1u << index);
    node->in.payload_len = env.payload_len;
    node->in.sender = env.sender;
    node->in.seq = env.seq;
    node->in.request_id = env.request_id;
    node->in.edge = index;
    node->in.slot = si;
    node->in.data_off = bbrt_env_data_offset(env.rank);
    node->in.dst = node->slot_bytes ? node->slot_base + (size_t)si * node->slot_bytes + node->recv_off[index]
                                    : prog_tensor_data(node, index);
    node->in.mode = IN_DATA;
    stream_piece(node, 0u, chunk, len);
    return BBRT_LFRAG_TAKE;
}

/* every fragment arrived (each CRC-checked by the framing): the input is ready, the request may run */
static void stream_done(bbrt_node_t *node, uint32_t total) {
    uint8_t mode = node->in.mode;
    node->in.mode = IN_NONE;
    if (mode == IN_STAGE) {
        (void)bbrt_node_handle(node, node->ctl, total);
    } else if (mode == IN_DATA) {
        bbrt_request_slot_t *slot = &node->slots[node->in.slot];
        bbrt_envelope_t env;
        bbrt_memset(&env, 0, sizeof(env));
        env.sender = node->in.sender;
        env.seq = node->in.seq;
        /* the slot may have been given to another request meanwhile (a bare envelope): then dropped */
        if (!slot->used || slot->request_id != node->in.request_id) {
            node->stats.evicted++;
            return;
        }
        if (fresh(node, &env) != BBRT_OK) return;
        bbrt_seqwin_commit(node->senders, BBRT_SEQ_SENDERS, env.sender, env.seq, &node->seq_clock);
        slot->have_mask |= (1u << node->in.edge);
        if ((slot->have_mask & node->need_mask) == node->need_mask) (void)run_request(node, slot, node->in.slot);
        if (node->ota_hooks && node->ota_hooks->on_idle) node->ota_hooks->on_idle(node);
    }
}

static uint32_t link_frag(void *ctx, uint32_t op, uint32_t off, uint32_t total, const uint8_t *chunk,
                          uint32_t len) {
    bbrt_node_t *node = (bbrt_node_t *)ctx;
    if (op == BBRT_LFRAG_BEGIN) return stream_begin(node, total, chunk, len);
    if (op == BBRT_LFRAG_PIECE) stream_piece(node, off, chunk, len);
    else if (op == BBRT_LFRAG_DONE) stream_done(node, total);
    else node->in.mode = IN_NONE; /* ABORT: the input was never marked ready; its bytes are overwritten
                                   * by the next envelope on that edge */
    return BBRT_LFRAG_TAKE;
}

void bbrt_node_feed(bbrt_node_t *node, const uint8_t *p, size_t n) {
    /* the cursor lives in the node: a send waiting for window space consumes these bytes first */
    node->feed_p = p;
    node->feed_n = n;
    node->feed_i = 0u;
    while (node->feed_i < node->feed_n) push_byte(node, node->feed_p[node->feed_i++]);
    node->feed_p = 0;
    node->feed_n = node->feed_i = 0u;
}
