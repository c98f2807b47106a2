/* FedAvg client of the no-heap C runtime: see include/bbrt_learn.h. Sans-IO, no heap. */
#include "bbrt_learn.h"

/* bbrt_learn_t.joined */
#define JOIN_SENT 1u
#define JOIN_ANSWERED 2u

static const char *const refusal_names[BBRT_LREF__COUNT] = {
    "NONE", "WRONG_SENDER", "WRONG_DTYPE", "WRONG_SHAPE", "STALE_ROUND", "NOT_FINITE", "DUPLICATE",
    "TRAIN_FAILED", "UNKNOWN_MSG"};
static const char *const event_names[BBRT_LEARN_EV__COUNT] = {
    "None", "Joined", "ModelTaken", "LocalTrainingDone", "UpdateSent", "RoundResumed", "ModelRefused"};

const char *bbrt_learn_refusal_name(bbrt_learn_refusal_t r) {
    return (unsigned)r < BBRT_LREF__COUNT ? refusal_names[r] : "?";
}

const char *bbrt_learn_event_name(bbrt_learn_event_t e) {
    return (unsigned)e < BBRT_LEARN_EV__COUNT ? event_names[e] : "?";
}

/* ------------------------------------------------------------ batch order */
static uint32_t mix(uint32_t h, uint32_t v) {
    h ^= v;
    h *= 0x9E3779B1u;
    h ^= h >> 16;
    return h;
}

void bbrt_learn_batch_order(uint16_t *order, uint32_t n, uint32_t seed, uint32_t node_id, uint32_t round,
                            uint32_t pass) {
    uint32_t x = mix(mix(mix(mix(0x6A09E667u, seed), node_id), round), pass), i;
    if (x == 0u) x = 1u; /* xorshift32 never leaves 0 */
    for (i = 0; i < n; i++) order[i] = (uint16_t)i;
    for (i = n; i > 1u; i--) {
        uint32_t j;
        uint16_t t;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        j = x % i;
        t = order[i - 1u];
        order[i - 1u] = order[j];
        order[j] = t;
    }
}

/* ----------------------------------------------------------------- record */
uint32_t bbrt_learn_record_crc(const bbrt_learn_record_t *rec, const float *model, uint32_t n) {
    uint32_t crc = bbrt_crc32_update(0u, (const uint8_t *)rec, offsetof(bbrt_learn_record_t, crc));
    return bbrt_crc32_update(crc, (const uint8_t *)model, (size_t)n * 4u);
}

static void save(bbrt_learn_t *c, const float *model) {
    bbrt_learn_record_t rec;
    if (!c->save) return;
    bbrt_memset(&rec, 0, sizeof(rec));
    rec.magic = BBRT_LEARN_RECORD_MAGIC;
    rec.version = BBRT_LEARN_RECORD_VERSION;
    rec.node_id = c->cfg.node_id;
    rec.n_params = c->cfg.n_params;
    rec.answered_round = c->answered_round;
    rec.model_round = c->model_round;
    rec.pending_round = c->pending_round;
    rec.crc = bbrt_learn_record_crc(&rec, model, c->cfg.n_params);
    if (c->save(c->io, &rec, model, c->cfg.n_params) != 0) c->stats.saves_failed++;
}

bbrt_status_t bbrt_learn_init(bbrt_learn_t *c, const bbrt_learn_config_t *cfg, const bbrt_learn_trainer_t *tr,
                              float *model, float *work, uint16_t *order, uint32_t boot_epoch,
                              bbrt_learn_send_fn send, bbrt_learn_event_fn event, bbrt_learn_save_fn save_fn,
                              void *io) {
    if (!cfg || !tr || !tr->begin || !tr->step || !tr->end || !model || !work || !order || !send)
        return BBRT_E_BAD_FIELD;
    if (cfg->n_params == 0u || cfg->n_params > (BBRT_MAX_PAYLOAD / 4u) || cfg->n_samples == 0u ||
        cfg->n_samples > 65535u || cfg->batch_size == 0u || cfg->batch_size > cfg->n_samples ||
        (cfg->epochs == 0u && cfg->steps == 0u) || cfg->node_id == cfg->server_id)
        return BBRT_E_BAD_FIELD;
    bbrt_memset(c, 0, sizeof(*c));
    c->cfg = *cfg;
    c->trainer = *tr;
    c->model = model;
    c->work = work;
    c->order = order;
    c->boot_epoch = boot_epoch ? boot_epoch : 1u;
    c->send = send;
    c->event = event;
    c->save = save_fn;
    c->io = io;
    return BBRT_OK;
}

bbrt_status_t bbrt_learn_restore(bbrt_learn_t *c, const bbrt_learn_record_t *rec, const float *model) {
    uint32_t n = c->cfg.n_params;
    if (!rec || !model || rec->magic != BBRT_LEARN_RECORD_MAGIC || rec->version != BBRT_LEARN_RECORD_VERSION ||
        rec->node_id != c->cfg.node_id || rec->n_params != n || bbrt_learn_record_crc(rec, model, n) != rec->crc ||
        (rec->pending_round != 0u && rec->pending_round < rec->answered_round))
        return BBRT_E_BAD_FIELD;
    c->answered_round = rec->answered_round;
    c->model_round = rec->model_round;
    c->pending_round = rec->pending_round;
    if (c->pending_round) { /* the stored model is that round's global model: train it again */
        bbrt_memcpy(c->work, model, (size_t)n * 4u);
        c->resume_due = 1u;
    } else {
        bbrt_memcpy(c->model, model, (size_t)n * 4u);
    }
    return BBRT_OK;
}

/* ------------------------------------------------------------------ sends */
static void emit(bbrt_learn_t *c, bbrt_learn_event_t ev, uint32_t a, uint32_t b) {
    if (c->event) c->event(c->io, ev, a, b);
}

static void send(bbrt_learn_t *c, uint32_t msg, uint32_t dtype, uint32_t count, uint64_t round,
                 const uint8_t *payload, uint32_t nbytes, uint32_t now) {
    bbrt_envelope_t env;
    bbrt_memset(&env, 0, sizeof(env));
    c->seq = (c->seq + 1u) & 0xFFFFFFFFu;
    env.kind = BBRT_KIND_DATA;
    env.protocol = BBRT_PROTO_FEDAVG_SERVER;
    env.sender = c->cfg.node_id;
    env.receiver = c->cfg.server_id;
    env.seq = ((uint64_t)c->boot_epoch << 32) | c->seq;
    env.request_id = round;
    env.edge = msg;
    env.dtype = (uint8_t)dtype;
    env.rank = 1u;
    env.dims[0] = count;
    env.payload_len = nbytes;
    c->send(c->io, &env, payload);
    c->last_sent = now;
}

/* ---------------------------------------------------------------- training */
static void train_round(bbrt_learn_t *c, uint32_t round, uint32_t now) {
    const bbrt_learn_config_t *k = &c->cfg;
    /* full batches only: the training step has a fixed batch size (bbrt_train.h), so a pass drops
     * its partial last batch (the next pass's order brings those samples back) */
    uint32_t per_pass = k->n_samples / k->batch_size;
    uint32_t total = k->steps ? k->steps : k->epochs * per_pass, s, pass = 0, at = k->n_samples, i;
    int st = c->trainer.begin(c->trainer.ctx, c->work, k->n_params);
    for (s = 0; st == 0 && s < total; s++) {
        if (at + k->batch_size > k->n_samples) { /* a new pass: a new order (local_train draws one per pass) */
            bbrt_learn_batch_order(c->order, k->n_samples, k->seed, k->node_id, round, pass++);
            at = 0;
        }
        st = c->trainer.step(c->trainer.ctx, c->order + at, k->batch_size);
        at += k->batch_size;
        if (c->trainer.idle) c->trainer.idle(c->trainer.ctx);
    }
    if (st == 0) st = c->trainer.end(c->trainer.ctx, c->model, k->n_params);
    c->pending_round = 0u;
    if (st != 0) {
        /* the model is not touched before end() succeeds; the round is left unanswered */
        c->stats.refused[BBRT_LREF_TRAIN_FAILED]++;
        save(c, c->model);
        emit(c, BBRT_LEARN_EV_REFUSED, BBRT_LREF_TRAIN_FAILED, (uint32_t)st);
        return;
    }
    c->stats.rounds_trained++;
    emit(c, BBRT_LEARN_EV_TRAINED, round, total);
    for (i = 0; i < k->n_params; i++) c->work[i] = c->model[i] - c->work[i]; /* the update */
    send(c, BBRT_LMSG_UPDATE, BBRT_DT_FLOAT, k->n_params, round, (const uint8_t *)c->work, k->n_params * 4u, now);
    c->stats.updates_sent++;
    c->answered_round = round;
    c->model_round = round;
    save(c, c->model);
    emit(c, BBRT_LEARN_EV_UPDATE_SENT, round, 0u);
}

/* --------------------------------------------------------------- inbound */
static int all_finite(const uint8_t *p, uint32_t n) {
    uint32_t i;
    for (i = 0; i < n; i++) { /* exponent bits all ones: NaN or infinity (little-endian float32) */
        const uint8_t *f = p + 4u * i;
        if ((f[3] & 0x7Fu) == 0x7Fu && (f[2] & 0x80u)) return 0;
    }
    return 1;
}

static bbrt_learn_refusal_t refuse(bbrt_learn_t *c, bbrt_learn_refusal_t r, uint64_t round) {
    c->stats.refused[r]++;
    emit(c, BBRT_LEARN_EV_REFUSED, (uint32_t)r, (uint32_t)round);
    return r;
}

bbrt_learn_refusal_t bbrt_learn_handle(bbrt_learn_t *c, const bbrt_envelope_t *env, uint32_t now_ms) {
    const bbrt_learn_config_t *k = &c->cfg;
    uint64_t round = env->request_id;
    bbrt_status_t fresh;
    c->stats.envelopes_in++;
    if (env->protocol != BBRT_PROTO_FEDAVG_CLIENT) return BBRT_LREF_NONE; /* not for this role */
    /* validation first: nothing below changes state until every check passed */
    if (env->sender != k->server_id) return refuse(c, BBRT_LREF_WRONG_SENDER, round);
    if (env->edge != BBRT_LMSG_MODEL && env->edge != BBRT_LMSG_MODEL_FULL)
        return refuse(c, BBRT_LREF_UNKNOWN_MSG, round);
    if (env->dtype != BBRT_DT_FLOAT || env->rank != 1u) return refuse(c, BBRT_LREF_WRONG_DTYPE, round);
    if (env->dims[0] != k->n_params || env->payload_len != k->n_params * 4u)
        return refuse(c, BBRT_LREF_WRONG_SHAPE, round);
    /* a MODEL of the round last answered is the server asking again (the UPDATE did not arrive): trained again
     * below from the same model in the same seeded order, so the same UPDATE is re-sent; an older round is stale */
    if (round > 0xFFFFFFFFu || (env->edge == BBRT_LMSG_MODEL &&
                                (round == 0u || round < c->answered_round || round == c->pending_round)) ||
        (env->edge == BBRT_LMSG_MODEL_FULL && round < c->model_round))
        return refuse(c, BBRT_LREF_STALE_ROUND, round);
    if (!all_finite(env->data, k->n_params)) return refuse(c, BBRT_LREF_NOT_FINITE, round);
    fresh = bbrt_seqwin_check(c->senders, 2u, env->sender, env->seq);
    if (fresh != BBRT_OK) return refuse(c, BBRT_LREF_DUPLICATE, round);
    bbrt_seqwin_commit(c->senders, 2u, env->sender, env->seq, &c->seq_clock);
    if (c->joined) c->joined = JOIN_ANSWERED; /* the server knows this client: no more JOINs this boot */
    if (env->edge == BBRT_LMSG_MODEL_FULL) {
        if (c->pending_round) return BBRT_LREF_NONE; /* mid-round: the round's own model wins */
        bbrt_memcpy(c->model, env->data, (size_t)k->n_params * 4u);
        c->model_round = (uint32_t)round;
        c->stats.models_taken++;
        save(c, c->model); /* saved first: an event reports state that survives a reboot */
        emit(c, BBRT_LEARN_EV_MODEL_TAKEN, (uint32_t)round, 0u);
        return BBRT_LREF_NONE;
    }
    /* MODEL of a new round: keep it (reboot-safe) before training on it; it supersedes a round
     * restored at boot and not trained again yet (the server has moved on) */
    c->resume_due = 0u;
    bbrt_memcpy(c->work, env->data, (size_t)k->n_params * 4u);
    c->pending_round = (uint32_t)round;
    c->stats.models_taken++;
    save(c, c->work);
    emit(c, BBRT_LEARN_EV_MODEL_TAKEN, (uint32_t)round, 0u);
    train_round(c, (uint32_t)round, now_ms);
    return BBRT_LREF_NONE;
}

/* JOIN: the sample count as int64 LE. joined: 0 none sent yet, JOIN_SENT unanswered, JOIN_ANSWERED */
static void send_join(bbrt_learn_t *c, uint32_t now_ms) {
    uint8_t samples[8];
    uint32_t i, v = c->cfg.n_samples;
    for (i = 0; i < 8u; i++) samples[i] = (uint8_t)(i < 4u ? (v >> (8u * i)) & 0xFFu : 0u);
    send(c, BBRT_LMSG_JOIN, BBRT_DT_INT64, 1u, 0u, samples, 8u, now_ms);
    c->stats.joins++;
}

void bbrt_learn_tick(bbrt_learn_t *c, uint32_t now_ms, int up) {
    if (!up) return;
    if (!c->joined) {
        send_join(c, now_ms);
        c->joined = JOIN_SENT;
        emit(c, BBRT_LEARN_EV_JOINED, c->cfg.n_samples, 0u);
    }
    if (c->resume_due && c->pending_round) {
        c->resume_due = 0u;
        emit(c, BBRT_LEARN_EV_RESUMED, c->pending_round, 0u);
        train_round(c, c->pending_round, now_ms);
        return;
    }
    bbrt_learn_heartbeat(c, now_ms);
}

void bbrt_learn_heartbeat(bbrt_learn_t *c, uint32_t now_ms) {
    if (!c->joined || (uint32_t)(now_ms - c->last_sent) < c->cfg.heartbeat_ms) return;
    /* until the server answered (a MODEL or MODEL_FULL), the heartbeat is the JOIN again: a JOIN lost on the
     * way (a broker queue past its bound drops its oldest message, issue 35) would leave this client out of
     * every round while it still looked alive; the server answers a repeated JOIN and counts it once */
    if (c->joined == JOIN_SENT) {
        send_join(c, now_ms);
        return;
    }
    send(c, BBRT_LMSG_HEARTBEAT, BBRT_DT_UINT8, 0u, 0u, 0, 0u, now_ms);
    c->stats.heartbeats++;
}
