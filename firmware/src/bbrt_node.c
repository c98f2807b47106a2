/* A fleet node on a serial link: frames in, envelopes decoded in place, Recv
 * edges joined per request_id, program run in the arena, Send edges framed out. */
#include "bbrt.h"
#include "bbrt_internal.h"

bbrt_status_t bbrt_node_init(bbrt_node_t *node, const uint8_t *program, size_t program_len,
                             uint8_t *arena, size_t arena_size, uint8_t *rxbuf, size_t rxcap,
                             bbrt_put_fn put, void *put_ctx) {
    bbrt_status_t st;
    uint32_t i;
    bbrt_memset(node, 0, sizeof(*node));
    node->put = put;
    node->put_ctx = put_ctx;
    bbrt_deframer_init(&node->rx, rxbuf, rxcap);
    st = bbrt_program_load(&node->prog, program, program_len, arena, arena_size);
    if (st != BBRT_OK) return st;
    for (i = 0; i < node->prog.n_edges; i++) {
        bbrt_edge_t e;
        bbrt_program_edge(&node->prog, i, &e);
        if (e.dir == BBRT_EDGE_RECV) node->need_mask |= (1u << i);
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

static bbrt_status_t accept_data(bbrt_node_t *node, const bbrt_envelope_t *env) {
    uint32_t i;
    for (i = 0; i < node->prog.n_edges; i++) {
        bbrt_edge_t e;
        bbrt_tensor_t t;
        bbrt_program_edge(&node->prog, i, &e);
        if (e.dir != BBRT_EDGE_RECV || e.edge_id != env->edge) continue;
        bbrt_program_tensor(&node->prog, e.tensor, &t);
        if (env->dtype != t.dtype || env->payload_len != t.nbytes) {
            node->stats.edge_mismatch++;
            return BBRT_E_EDGE_MISMATCH;
        }
        if (node->pending && node->pending_req != env->request_id) {
            node->stats.evicted++; /* a newer request replaces an incomplete one */
            node->have_mask = 0u;
        }
        node->pending = 1u;
        node->pending_req = env->request_id;
        if ((env->flags & BBRT_FLAG_QUANT) && t.dtype == BBRT_DT_INT8 &&
            (env->scale != t.scale || env->zero_point != t.zero_point)) {
            /* requantize to the program's parameters */
            uint32_t j;
            float s;
            if (!(env->scale > 0.0f) || env->scale > 3.0e38f) {
                node->stats.edge_mismatch++;
                return BBRT_E_EDGE_MISMATCH;
            }
            s = env->scale / t.scale;
            for (j = 0; j < t.count; j++) {
                int32_t q = bbrt_roundf_even((float)((int32_t)(int8_t)env->data[j] - env->zero_point) * s) +
                            t.zero_point;
                ((int8_t *)t.data)[j] = (int8_t)(q < -128 ? -128 : (q > 127 ? 127 : q));
            }
        } else if (t.nbytes) {
            bbrt_memcpy(t.data, env->data, t.nbytes);
        }
        node->have_mask |= (1u << i);
        if ((node->have_mask & node->need_mask) == node->need_mask) {
            bbrt_status_t st = bbrt_program_run(&node->prog);
            node->pending = 0u;
            node->have_mask = 0u;
            if (st != BBRT_OK) {
                node->stats.run_errors++;
                send_control(node, BBRT_CTRL_ERROR, 0u, 0u, env->request_id, bbrt_status_name(st));
                return st;
            }
            node->stats.inferences++;
            send_outputs(node, env->request_id);
        }
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
