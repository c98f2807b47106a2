/* posix-mqtt port of the C FedAvg client (include/bbrt_learn.h) on an MQTT broker, with libmosquitto:
 *
 *   bbrt-learn-mqtt IMAGE --name NODE --deployment DEP [--server NAME] [--host H[:P][,H:P...]] [--port P]
 *                   [--prefix bb]
 *                   [--user U] [--password-file F | --creds credentials.json] [--keepalive S]
 *                   [--epoch-file F] [--state-file F] [--start-file F] [--progress F]
 *                   [--connect-timeout S] [--backoff-max S] [--connect-spread S]
 *                   [--drop RATE --drop-seed S] [--lose-update ROUND]
 *
 * IMAGE is the learning image of bb_edge/bundle/learning/mcu.py (shard, settings, .bbrt training step).
 * The client speaks what a Python FedAvgClient speaks, on the topics of bb_edge/wire/topics.py:
 *   {prefix}/{dep}/in/{NODE}/{server}   MODEL / MODEL_FULL from the server (QoS 1; the only inbox read)
 *   {prefix}/{dep}/in/{server}/{NODE}   JOIN, UPDATE, HEARTBEAT to the server (QoS 1)
 *   {prefix}/{dep}/presence/{NODE}      retained "up" / "down" (the last will)
 *   {prefix}/{dep}/ctl                  "stop" ends the client
 * One bare envelope per message (no link layer: MQTT is the reliable hop). It reads no broadcast topic:
 * a training client talks to its server only, so other clients' HELLOs never reach it.
 * The credentials and session are those of ports/posix-mqtt/main.c (client id = user = NODE, persistent
 * session, password from --password-file, --creds or $BBRT_MQTT_PASSWORD; --host H1:P1,H2:P2 names the members
 * of a clustered broker, a lost connection hands over to the next one with the same session).
 *
 * --start-file F: the fleet's common start (bb_edge/adapters/learn/fleet.py): no JOIN before F exists.
 * --state-file F: the round record (written to F.tmp, fsynced, renamed), given back at the next start.
 * --progress F: one JSON line at exit ({"kind": "final", ...}: bytes sent, the client's counters).
 * --drop RATE: fault injection for benches: the client leaves a round's MODEL unanswered when
 *   hash(seed, node id, round) / 2^32 < RATE (a client that drops out of that round; it stays connected).
 * --backoff-max S: the reconnect back-off's cap (default 2; jittered, doubling while connections last under 5 s).
 * --connect-spread S: the first connection waits a random 0..S s (a large fleet started at once: RabbitMQ
 *   registers every client id in one Raft log, docs/transports.md).
 * --lose-update ROUND: fault injection for tests: the first UPDATE of round ROUND is never published (as if a
 *   broker lost it); the one the client sends when the server asks again goes out.
 *
 * Once connected it prints "node NODE (id N) ..." (what LearningFleet.wait_up waits for).
 * The client, its image, arena and buffers are static: the runtime never allocates; libmosquitto does.
 * Exit codes: 0 stopped (ctl "stop", SIGTERM/SIGINT), 2 bad arguments or files, 3 image refused,
 * 4 the broker refused the credentials, 5 no connection within --connect-timeout. */
/* Why one file: a port's main is the glue between the unchanged client (src/bbrt_learn.c) and one library
 * (libmosquitto): its callbacks, the trainer hooks, the round record and the command line share the client's
 * static state. File, key and credentials helpers are shared with the other ports (ports/common). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <mosquitto.h>

#include "bbrt.h"
#include "bbrt_learn.h"
#include "bbrt_train.h"
#include "posix_creds.h"
#include "posix_epoch.h"
#include "posix_io.h"
#include "posix_mqtt.h"

#ifndef BBRT_HOST_IMAGE_MAX
#define BBRT_HOST_IMAGE_MAX (16u << 20)
#endif
#ifndef BBRT_HOST_ARENA
#define BBRT_HOST_ARENA (1u << 20)
#endif
#define MAX_PARAMS (BBRT_MAX_PAYLOAD / 4u)
#define MAX_SAMPLES 65535u
#define MAX_BATCH_FLOATS (1u << 18)
#define TOPIC_MAX 320u
#define SECRET_MAX 256u

static uint64_t image[BBRT_HOST_IMAGE_MAX / 8u];
static uint64_t arena[BBRT_HOST_ARENA / 8u];
static float model[MAX_PARAMS], round_model[MAX_PARAMS];
static uint16_t order[MAX_SAMPLES];
static float xb[MAX_BATCH_FLOATS];
static int32_t yb[MAX_SAMPLES];
static uint64_t rxbuf[(BBRT_MAX_ENVELOPE + 7u) / 8u];
static uint8_t txbuf[BBRT_MAX_ENVELOPE];
static uint64_t saved[(sizeof(bbrt_learn_record_t) + 4u * MAX_PARAMS + 7u) / 8u];
static bbrt_train_t train;
static bbrt_learn_image_t img;
static bbrt_learn_t client;
static struct mosquitto *mosq;

static char me[NAME_MAX_LEN], server[NAME_MAX_LEN];
static char t_inbox[TOPIC_MAX], t_from_server[TOPIC_MAX], t_to_server[TOPIC_MAX], t_presence[TOPIC_MAX],
    t_ctl[TOPIC_MAX];
static const char *state_path;
static char tmp_path[4096];
static double drop_rate;
static uint32_t drop_seed;
static long lose_round = -1; /* --lose-update: the round whose first UPDATE is not published (-1: none) */

static struct {
    unsigned long long bytes_out, update_bytes;
    unsigned connects, sent, received, spoofed, foreign, bad_envelopes, not_for_me, dropped_rounds,
        publish_errors, lost_updates;
} st;

static uint32_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

/* ------------------------------------------------------------- trainer (bbrt_train.h's step) */
static int tr_begin(void *ctx, const float *params, uint32_t n) {
    bbrt_status_t s = bbrt_train_set_params(&train, params, n);
    (void)ctx;
    bbrt_train_reset_state(&train); /* fresh momentum every round, as FedAvgClient does */
    return (int)s;
}

static int tr_step(void *ctx, const uint16_t *idx, uint32_t count) {
    uint32_t i, f = img.features;
    (void)ctx;
    for (i = 0; i < count; i++) {
        if (idx[i] >= img.n_samples) return (int)BBRT_E_BAD_FIELD;
        memcpy(xb + (size_t)i * f, img.x + (size_t)idx[i] * f, (size_t)f * 4u);
        yb[i] = img.y[idx[i]];
    }
    return (int)bbrt_train_step(&train, xb, yb, count, 0);
}

static int tr_end(void *ctx, float *params, uint32_t n) {
    (void)ctx;
    return (int)bbrt_train_get_params(&train, params, n);
}

/* ------------------------------------------------------------- client callbacks */
static void send_env(void *io, bbrt_envelope_t *env, const uint8_t *payload) {
    size_t hn = 0;
    int rc;
    (void)io;
    if (bbrt_env_encode_header(env, txbuf, sizeof(txbuf), &hn) != BBRT_OK ||
        env->payload_len > sizeof(txbuf) - hn) {
        st.publish_errors++;
        return;
    }
    if (env->payload_len) memcpy(txbuf + hn, payload, env->payload_len);
    if (env->edge == BBRT_LMSG_UPDATE && lose_round >= 0 && env->request_id == (uint64_t)lose_round &&
        st.lost_updates == 0u) {
        st.lost_updates++; /* --lose-update: this one never reaches the broker */
        return;
    }
    /* QoS 1: libmosquitto keeps the message until its PUBACK and resends it after a reconnect */
    rc = mosquitto_publish(mosq, NULL, t_to_server, (int)(hn + env->payload_len), txbuf, 1, false);
    if (rc != MOSQ_ERR_SUCCESS && rc != MOSQ_ERR_NO_CONN) {
        st.publish_errors++;
        return;
    }
    st.sent++;
    st.bytes_out += hn + env->payload_len;
    if (env->edge == BBRT_LMSG_UPDATE) st.update_bytes += env->payload_len;
}

static void on_event(void *io, bbrt_learn_event_t ev, uint32_t a, uint32_t b) {
    (void)io;
    if (ev == BBRT_LEARN_EV_REFUSED)
        fprintf(stderr, "bbrt-learn-mqtt: %s: refused %s (%u)\n", me, bbrt_learn_refusal_name((bbrt_learn_refusal_t)a),
                (unsigned)b);
    else if (ev == BBRT_LEARN_EV_RESUMED)
        fprintf(stderr, "bbrt-learn-mqtt: %s: RoundResumed round=%u\n", me, (unsigned)a);
}

static int save_record(void *io, const bbrt_learn_record_t *rec, const float *m, uint32_t n) {
    (void)io;
    return state_path ? posix_replace_file(tmp_path, state_path, rec, sizeof(*rec), m, (size_t)n * 4u) : 0;
}

/* the round-drop draw of --drop: a 32-bit mix of (seed, node id, round) */
static int drops_round(uint32_t round) {
    uint32_t h = 0x9E3779B9u ^ drop_seed, v[2], i;
    v[0] = img.node_id;
    v[1] = round;
    for (i = 0; i < 2u; i++) {
        h ^= v[i];
        h *= 0x85EBCA6Bu;
        h ^= h >> 13;
        h *= 0xC2B2AE35u;
        h ^= h >> 16;
    }
    return drop_rate > 0.0 && (double)h / 4294967296.0 < drop_rate;
}

/* ------------------------------------------------------------- MQTT callbacks */
static void on_connect(struct mosquitto *m, void *ud, int rc, int flags, const mosquitto_property *props) {
    (void)ud;
    (void)flags;
    (void)props;
    if (pm_refused("bbrt-learn-mqtt", me, rc)) return;
    st.connects++;
    connected = 1;
    mosquitto_subscribe(m, NULL, t_inbox, 1); /* before "up": the server answers a JOIN at once */
    mosquitto_subscribe(m, NULL, t_ctl, 1);
    mosquitto_publish(m, NULL, t_presence, 2, "up", 1, true);
}

static void on_message(struct mosquitto *m, void *ud, const struct mosquitto_message *msg) {
    bbrt_envelope_t env;
    size_t len = msg->payloadlen > 0 ? (size_t)msg->payloadlen : 0u;
    uint32_t sender = 0;
    (void)m;
    (void)ud;
    if (strcmp(msg->topic, t_ctl) == 0) {
        if (msg->payloadlen == 4 && memcmp(msg->payload, "stop", 4) == 0) running = 0;
        return;
    }
    if (strcmp(msg->topic, t_from_server) != 0) { /* only the server writes to this client */
        st.foreign++;
        return;
    }
    /* validation first: the header's sender must be the server the topic names, the envelope must fit */
    if (bbrt_env_route((const uint8_t *)msg->payload, len, &sender, NULL) != BBRT_OK || sender != img.server_id) {
        st.spoofed++;
        return;
    }
    if (len > sizeof(rxbuf)) {
        st.bad_envelopes++;
        return;
    }
    memcpy(rxbuf, msg->payload, len); /* decoded in place: needs the aligned static buffer */
    if (bbrt_env_decode((const uint8_t *)rxbuf, len, BBRT_MAX_PAYLOAD, &env) != BBRT_OK) {
        st.bad_envelopes++;
        return;
    }
    if (env.receiver != img.node_id) {
        st.not_for_me++;
        return;
    }
    st.received++;
    if (env.protocol == BBRT_PROTO_FEDAVG_CLIENT && env.edge == BBRT_LMSG_MODEL && drops_round((uint32_t)env.request_id)) {
        st.dropped_rounds++;
        return;
    }
    (void)bbrt_learn_handle(&client, &env, now_ms());
}

static int usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s IMAGE --name NODE --deployment DEP [--server NAME] [--host H[:P][,H:P...]] [--port P]\n"
            "       [--prefix bb]\n"
            "       [--user U] [--password-file F | --creds credentials.json] [--keepalive S]\n"
            "       [--epoch-file F] [--state-file F] [--start-file F] [--progress F]\n"
            "       [--connect-timeout S] [--backoff-max S] [--connect-spread S]\n"
            "       [--drop RATE --drop-seed S] [--lose-update ROUND]\n",
            argv0);
    return 2;
}

static void write_progress(const char *path) {
    FILE *f;
    struct timespec wall;
    unsigned refused = 0, i;
    if (path == NULL) return;
    for (i = 1; i < BBRT_LREF__COUNT; i++) refused += client.stats.refused[i];
    clock_gettime(CLOCK_REALTIME, &wall);
    f = fopen(path, "a");
    if (f == NULL) return;
    fprintf(f,
            "{\"kind\": \"final\", \"node\": \"%s\", \"wall\": %.3f, \"bytes_out\": %llu, \"update_bytes\": %llu, "
            "\"events\": {\"UpdateSent\": %u, \"ModelTaken\": %u, \"JoinSent\": %u, \"HeartbeatSent\": %u, "
            "\"ModelRefused\": %u, \"RoundDropped\": %u, \"UpdateLost\": %u}, \"envelopes_in\": %u, \"spoofed\": %u, "
            "\"foreign\": %u, \"bad_envelopes\": %u, \"publish_errors\": %u, \"model_round\": %u, \"model\": null}\n",
            me, (double)wall.tv_sec + (double)wall.tv_nsec * 1e-9, st.bytes_out, st.update_bytes,
            (unsigned)client.stats.updates_sent, (unsigned)client.stats.models_taken, (unsigned)client.stats.joins,
            (unsigned)client.stats.heartbeats, refused, st.dropped_rounds, st.lost_updates, st.received, st.spoofed,
            st.foreign,
            st.bad_envelopes, st.publish_errors, (unsigned)client.model_round);
    fclose(f);
}

int main(int argc, char **argv) {
    pm_opts_t o = {"127.0.0.1", "bb", NULL, NULL, NULL, NULL, NULL, NULL, 1883, 30, 60.0, 0.0, 0.0, {{{0}, 0}}, 0u, 0u};
    const char *start_file = NULL, *progress = NULL;
    const char *server_name = "server";
    static char password[SECRET_MAX];
    static char text[65536];
    static char dep_seg[NAME_MAX_LEN], base[2u * NAME_MAX_LEN + 8u];
    int have_password = 0, said_up = 0, started = 0, i, rc;
    double backoff = 0.05, t0, last_start_check = -1.0;
    uint32_t epoch;
    size_t len = 0, have = 0;
    bbrt_learn_config_t cfg;
    bbrt_learn_trainer_t tr;
    bbrt_status_t bst;

    if (argc < 2) return usage(argv[0]);
    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        long v;
        if (i + 1 >= argc) return usage(argv[0]);
        rc = pm_take_option(&o, argv, &i);
        if (rc < 0) return usage(argv[0]);
        if (rc > 0) continue;
        if (strcmp(a, "--server") == 0) server_name = argv[++i];
        else if (strcmp(a, "--state-file") == 0) state_path = argv[++i];
        else if (strcmp(a, "--start-file") == 0) start_file = argv[++i];
        else if (strcmp(a, "--progress") == 0) progress = argv[++i];
        else if (strcmp(a, "--drop") == 0) {
            if (parse_real(argv[++i], 0.0, 1.0, &drop_rate) != 0) return usage(argv[0]);
        } else if (strcmp(a, "--drop-seed") == 0) {
            v = parse_num(argv[++i], 0, 0x7FFFFFFFL);
            if (v < 0) return usage(argv[0]);
            drop_seed = (uint32_t)v;
        } else if (strcmp(a, "--lose-update") == 0) {
            lose_round = parse_num(argv[++i], 1, 0x7FFFFFFFL);
            if (lose_round < 0) return usage(argv[0]);
        } else return usage(argv[0]);
    }
    if (!pm_opts_ok(&o) || strlen(server_name) >= NAME_MAX_LEN)
        return usage(argv[0]);
    if (state_path && (size_t)snprintf(tmp_path, sizeof(tmp_path), "%s.tmp", state_path) >= sizeof(tmp_path)) {
        fprintf(stderr, "bbrt-learn-mqtt: state file path too long\n");
        return 2;
    }
    safe_segment(me, sizeof(me), o.name);
    safe_segment(server, sizeof(server), server_name);
    safe_segment(dep_seg, sizeof(dep_seg), o.deployment);
    snprintf(base, sizeof(base), "%s/%s", o.prefix, dep_seg);
    snprintf(t_inbox, sizeof(t_inbox), "%s/in/%s/+", base, me);
    snprintf(t_from_server, sizeof(t_from_server), "%s/in/%s/%s", base, me, server);
    snprintf(t_to_server, sizeof(t_to_server), "%s/in/%s/%s", base, server, me);
    snprintf(t_presence, sizeof(t_presence), "%s/presence/%s", base, me);
    snprintf(t_ctl, sizeof(t_ctl), "%s/ctl/_host", base); /* only the host may stop a node (its own ctl topic, ACL) */

    have_password = creds_password("bbrt-learn-mqtt", o.password_file, o.creds, o.name, password, sizeof(password), text,
                                   sizeof(text));
    if (have_password < 0) return 2;
    if (have_password && o.user == NULL) o.user = me;

    /* the image, its training program, the shapes: all validated before anything runs */
    if (posix_read_file(argv[1], image, sizeof(image), &len) != 0 || len == 0u) {
        fprintf(stderr, "bbrt-learn-mqtt: cannot read %s\n", argv[1]);
        return 2;
    }
    bst = bbrt_learn_image_parse((const uint8_t *)image, len, &img);
    if (bst == BBRT_OK) bst = bbrt_train_load(&train, img.prog, img.prog_size, (uint8_t *)arena, sizeof(arena));
    if (bst == BBRT_OK && (train.batch != img.batch_size || train.features != img.features)) bst = BBRT_E_PROG_SHAPE;
    if (bst == BBRT_OK && (train.param_count == 0u || train.param_count > MAX_PARAMS || img.n_samples > MAX_SAMPLES ||
                           (uint64_t)img.batch_size * img.features > MAX_BATCH_FLOATS))
        bst = BBRT_E_ARENA_SMALL;
    if (bst == BBRT_OK) bst = (bbrt_status_t)bbrt_train_get_params(&train, model, train.param_count);
    if (bst != BBRT_OK) {
        fprintf(stderr, "bbrt-learn-mqtt: image refused: %s (%d)\n", bbrt_status_name(bst), (int)bst);
        return 3;
    }
    epoch = pm_boot_epoch("bbrt-learn-mqtt", o.epoch_file);
    if (epoch == 0u) return 2;
    memset(&cfg, 0, sizeof(cfg));
    cfg.node_id = img.node_id;
    cfg.server_id = img.server_id;
    cfg.n_params = train.param_count;
    cfg.n_samples = img.n_samples;
    cfg.epochs = img.epochs;
    cfg.steps = img.steps;
    cfg.batch_size = img.batch_size;
    cfg.seed = img.seed;
    cfg.heartbeat_ms = img.heartbeat_ms;
    memset(&tr, 0, sizeof(tr));
    tr.begin = tr_begin;
    tr.step = tr_step;
    tr.end = tr_end;
    bst = bbrt_learn_init(&client, &cfg, &tr, model, round_model, order, epoch, send_env, on_event, save_record, NULL);
    if (bst != BBRT_OK) {
        fprintf(stderr, "bbrt-learn-mqtt: client refused: %s (%d)\n", bbrt_status_name(bst), (int)bst);
        return 3;
    }
    if (state_path && posix_read_file(state_path, saved, sizeof(saved), &have) == 0 &&
        have == sizeof(bbrt_learn_record_t) + (size_t)train.param_count * 4u) /* a bad record: a fresh start */
        (void)bbrt_learn_restore(&client, (const bbrt_learn_record_t *)(const void *)saved,
                                 (const float *)(const void *)((const uint8_t *)saved + sizeof(bbrt_learn_record_t)));

    pm_catch_signals();
    mosq = pm_session("bbrt-learn-mqtt", me, o.user, have_password ? password : NULL, t_presence);
    if (mosq == NULL) return 2;
    mosquitto_connect_v5_callback_set(mosq, on_connect);
    mosquitto_disconnect_callback_set(mosq, on_disconnect);
    mosquitto_message_callback_set(mosq, on_message);

    pm_seed(me);
    pm_spread(&o);
    t0 = now_s();
    rc = pm_connect(mosq, &o, 1);
    while (running && !stop_signal) {
        if (rc == MOSQ_ERR_SUCCESS) rc = mosquitto_loop(mosq, 50, 1);
        if (refused_rc >= 0) break;
        if (rc == MOSQ_ERR_SUCCESS) {
            if (connected && !said_up) {
                said_up = 1;
                printf("node %s (id %u) of '%s' on %s:%d (bbrt-learn-mqtt, %u parameters, %u samples)\n", me,
                       (unsigned)img.node_id, o.deployment, pm_member(&o)->host, pm_member(&o)->port,
                       (unsigned)train.param_count,
                       (unsigned)img.n_samples);
                fflush(stdout);
            }
            if (!started && (start_file == NULL || now_s() - last_start_check >= 0.1)) {
                struct stat sb;
                last_start_check = now_s();
                started = start_file == NULL || stat(start_file, &sb) == 0;
            }
            bbrt_learn_tick(&client, now_ms(), connected && started);
            pm_backoff_settle(&backoff);
            if (!connected && st.connects == 0u && now_s() - t0 > o.connect_timeout) break;
            continue;
        }
        if (st.connects == 0u && now_s() - t0 > o.connect_timeout) break;
        connected = 0;
        pm_backoff(&backoff, o.backoff_max > 0.0 ? o.backoff_max : 2.0);
        rc = pm_connect(mosq, &o, 0);
    }
    if (connected) pm_leave(mosq, t_presence, 20);
    write_progress(progress);
    fprintf(stderr, "bbrt-learn-mqtt: %s: models=%u rounds=%u updates=%u joins=%u heartbeats=%u dropped=%u "
                    "sent=%u received=%u spoofed=%u foreign=%u bad=%u epoch=%u connects=%u handovers=%u\n",
            me, (unsigned)client.stats.models_taken, (unsigned)client.stats.rounds_trained,
            (unsigned)client.stats.updates_sent, (unsigned)client.stats.joins, (unsigned)client.stats.heartbeats,
            st.dropped_rounds, st.sent, st.received, st.spoofed, st.foreign, st.bad_envelopes, (unsigned)epoch,
            st.connects, pm_handovers);
    return pm_finish("bbrt-learn-mqtt", mosq, me, &o, st.connects);
}
