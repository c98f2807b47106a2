/* A fleet node on a serial link: frames in, envelopes decoded in place, Recv
 * edges joined per request_id, program run in the arena, Send edges framed out. */
#include "bbrt.h"
#include "bbrt_internal.h"

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

bbrt_status_t bbrt_node_init(bbrt_node_t *node, const uint8_t *program, size_t program_len,
                             uint8_t *arena, size_t arena_size, uint8_t *rxbuf, size_t rxcap,
                             bbrt_put_fn put, void *put_ctx) {
    bbrt_status_t st;
    uint32_t i, per;
    size_t base, spare;
    bbrt_memset(node, 0, sizeof(*node));
    node->put = put;
    node->put_ctx = put_ctx;
    node->n_slots = 1u;
    bbrt_deframer_init(&node->rx, rxbuf, rxcap);
    st = bbrt_program_load(&node->prog, program, program_len, arena, arena_size);
    if (st != BBRT_OK) return st;
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
    return BBRT_OK;
}

static void send_env(bbrt_node_t *node, bbrt_envelope_t *env, const uint8_t *payload) {
    uint8_t hdr[96];
    size_t n = 0;
    env->seq = ++node->seq;
    env->sender = node->prog.node_id;
    if (bbrt_env_encode_header(env, hdr, sizeof(hdr), &n) != BBRT_OK) return;
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

static void send_control(bbrt_node_t *node, uint32_t code, uint32_t receiver, uint64_t response_to,
                         uint64_t request_id, const char *text) {
    bbrt_envelope_t env;
    uint32_t len = 0;
    bbrt_memset(&env, 0, sizeof(env));
    while (text && text[len] && len < 200u) len++;
    env.kind = BBRT_KIND_CONTROL;
    env.protocol = BBRT_PROTO_CONTROL;
    env.receiver = receiver;
    env.edge = code;
    env.dtype = BBRT_DT_UINT8;
    env.rank = 1;
    env.dims[0] = len;
    env.payload_len = len;
    env.request_id = request_id;
    if (code == BBRT_CTRL_PONG) {
        env.flags = BBRT_FLAG_RESPONSE;
        env.response_to = response_to;
    }
    if (code == BBRT_CTRL_ERROR) env.flags = BBRT_FLAG_ERROR;
    send_env(node, &env, (const uint8_t *)text);
}

void bbrt_node_hello(bbrt_node_t *node, const char *name) {
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
        env.receiver = e.peer;
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
        send_control(node, BBRT_CTRL_ERROR, 0u, 0u, request_id, bbrt_status_name(st));
        return st;
    }
    node->stats.inferences++;
    send_outputs(node, request_id);
    return BBRT_OK;
}

static bbrt_status_t accept_data(bbrt_node_t *node, const bbrt_envelope_t *env) {
    uint32_t i;
    for (i = 0; i < node->prog.n_edges; i++) {
        bbrt_edge_t e;
        bbrt_tensor_t t;
        bbrt_request_slot_t *slot;
        uint32_t si;
        uint8_t *dst;
        bbrt_program_edge(&node->prog, i, &e);
        if (e.dir != BBRT_EDGE_RECV || e.edge_id != env->edge) continue;
        bbrt_program_tensor(&node->prog, e.tensor, &t);
        if (env->dtype != t.dtype || env->payload_len != t.nbytes) {
            node->stats.edge_mismatch++;
            return BBRT_E_EDGE_MISMATCH;
        }
        if ((env->flags & BBRT_FLAG_QUANT) && t.dtype == BBRT_DT_INT8 &&
            (env->scale != t.scale || env->zero_point != t.zero_point) &&
            (!(env->scale > 0.0f) || env->scale > 3.0e38f)) {
            node->stats.edge_mismatch++;
            return BBRT_E_EDGE_MISMATCH;
        }
        slot = find_slot(node, env->request_id, &si);
        dst = node->slot_bytes ? node->slot_base + (size_t)si * node->slot_bytes + node->recv_off[i] : t.data;
        if ((env->flags & BBRT_FLAG_QUANT) && t.dtype == BBRT_DT_INT8 &&
            (env->scale != t.scale || env->zero_point != t.zero_point)) {
            /* requantize to the program's parameters */
            uint32_t j;
            float s = env->scale / t.scale;
            for (j = 0; j < t.count; j++) {
                int32_t q = bbrt_roundf_even((float)((int32_t)(int8_t)env->data[j] - env->zero_point) * s) +
                            t.zero_point;
                ((int8_t *)dst)[j] = (int8_t)(q < -128 ? -128 : (q > 127 ? 127 : q));
            }
        } else if (t.nbytes) {
            bbrt_memcpy(dst, env->data, t.nbytes);
        }
        slot->have_mask |= (1u << i);
        if ((slot->have_mask & node->need_mask) == node->need_mask) return run_request(node, slot, si);
        return BBRT_OK;
    }
    node->stats.unknown_edge++;
    return BBRT_E_UNKNOWN_EDGE;
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
    if (env.kind == BBRT_KIND_CONTROL) {
        if (env.protocol == BBRT_PROTO_CONTROL && env.edge == BBRT_CTRL_PING) {
            node->stats.pings++;
            send_control(node, BBRT_CTRL_PONG, env.sender, env.seq, env.request_id, 0);
        }
        return BBRT_OK;
    }
    if (env.protocol != BBRT_PROTO_DATAFLOW) return BBRT_OK; /* other protocols: ignored */
    return accept_data(node, &env);
}

void bbrt_node_feed(bbrt_node_t *node, const uint8_t *p, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        const uint8_t *env = 0;
        size_t len = 0;
        uint32_t bad_before = node->rx.stats.bad_crc + node->rx.stats.bad_cobs + node->rx.stats.too_long +
                              node->rx.stats.too_short;
        if (bbrt_deframer_push(&node->rx, p[i], &env, &len)) {
            node->stats.frames_ok++;
            (void)bbrt_node_handle(node, env, len);
        } else if (p[i] == 0u) {
            uint32_t bad_after = node->rx.stats.bad_crc + node->rx.stats.bad_cobs + node->rx.stats.too_long +
                                 node->rx.stats.too_short;
            node->stats.bad_frames += bad_after - bad_before;
        }
    }
}
