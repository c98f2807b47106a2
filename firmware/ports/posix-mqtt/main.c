/* posix-mqtt port: the bbrt node loop (src/bbrt_node.c, unchanged) on an MQTT broker, with libmosquitto.
 *
 *   bbrt-mqtt PROGRAM.bbrt --name NODE --deployment DEP [--host H[:P][,H:P...]] [--port P] [--prefix bb]
 *             [--user U] [--password-file F | --creds credentials.json] [--ca CA.pem [--insecure]]
 *             [--keepalive S] [--epoch-file F] [--peer ID=NAME]... [--connect-timeout S] [--ota-key F]
 *             [--status-interval S] [--program-version V] [--backoff-max S] [--connect-spread S]
 *
 * --ota-key F: the node's HMAC-SHA-256 update key (hex, 16..64 bytes), written into the bundle at build
 * time; with it the node accepts signed program updates (docs/wire.md "Program updates"), without it
 * every OFFER is refused (NO_KEY).
 *
 * Topic layout of bb_edge/wire/topics.py (docs/transports.md):
 *   {prefix}/{dep}/in/{dst}/{src}   one envelope per message, QoS 1 (reads in/{NODE}/+)
 *   {prefix}/{dep}/bcast/{src}      broadcast envelopes (the HELLO)
 *   {prefix}/{dep}/presence/{name}  retained "up" / "down" (the last will)
 *   {prefix}/{dep}/ctl              fleet control: "stop" ends the node
 *   {prefix}/{dep}/status/{name}    retained JSON status record every --status-interval s (default 2, 0: none),
 *                                   the fields of bb_edge/adapters/ops/telemetry.py, so `bb-edge status` shows the node:
 *                                   program (--deployment), program_version (--program-version, baked into run.sh
 *                                   from deployment.json), program_hash, epoch, requests, drops, plus errors (run
 *                                   errors) and uptime_s
 * Clients (bb_edge/deployment/clients.py): "_client<k>" is wire id 0xFFFF0000+k; its inputs are taken for the
 * requests it owns, and their outputs go to in/_client<k>/{me} (src/bbrt_node.c bbrt_reply_to), not to _host.
 * Behaviour of firmware/micropython/bbnode/mqtt.py and bb_edge/adapters/transports/mqtt.py: persistent session
 * (clean_session=false, client id = user = node name), QoS 1 both ways, retained last will "down",
 * subscribe before announcing "up", reconnect with capped back-off. --host may name the members of a
 * clustered broker (H1:P1,H2:P2,H3:P3, as the transport URL mqtt://H1:P1,H2:P2,H3:P3): a lost connection
 * hands over to the next member with the same session (ports/common/posix_mqtt.h pm_connect). The password comes from
 * --password-file, --creds (the broker's credentials.json, entry NODE) or $BBRT_MQTT_PASSWORD.
 *
 * The node, its program, arena and receive buffer are static: the runtime never allocates.
 * libmosquitto itself does allocate (its packets and queued messages): this binary links it.
 *
 * Exit codes: 0 stopped ("stop" on the control topic or SIGTERM/SIGINT), 2 bad arguments or
 * files, 3 program refused, 4 the broker refused the credentials, 5 no connection within
 * --connect-timeout. */
/* Why one file: a port's main is the glue between the unchanged node loop and one library (libmosquitto):
 * its callbacks, the status record and the command line share the node's static state. The file and
 * hex key helpers are shared with ports/posix (ports/common/posix_io.h); the credentials parser is shared
 * with ports/posix-mqtt/learn_main.c (ports/common/posix_creds.h). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mosquitto.h>

#include "bbrt.h"
#include "bbrt_ota.h"
#include "posix_epoch.h"
#include "posix_io.h"
#include "posix_creds.h"
#include "posix_mqtt.h"

#ifndef BBRT_HOST_PROGRAM_MAX
#define BBRT_HOST_PROGRAM_MAX (4u << 20)
#endif
#ifndef BBRT_HOST_ARENA
#define BBRT_HOST_ARENA (8u << 20)
#endif
#define MAX_PEERS 64u
#define TOPIC_MAX 320u
#define SECRET_MAX 256u

static uint64_t program[BBRT_HOST_PROGRAM_MAX / 8u];
/* the inactive program slot (A/B): over-the-air updates are staged here, never over the running one */
static uint64_t program_b[BBRT_HOST_PROGRAM_MAX / 8u];
static bbrt_node_ota_t ota;
static uint8_t ota_key[64];
static size_t ota_key_len;
static uint64_t arena[BBRT_HOST_ARENA / 8u];
static uint64_t rxbuf[(BBRT_RX_BUFFER_SIZE + 7u) / 8u];
/* one outgoing envelope, assembled from the node's put() chunks (unframed mode) */
static uint8_t txbuf[BBRT_MAX_ENVELOPE];
static size_t txlen;
static int tx_overflow;
static bbrt_node_t node;

static struct {
    uint32_t id;
    char name[NAME_MAX_LEN];
} peers[MAX_PEERS];
static unsigned n_peers;

static char me[NAME_MAX_LEN];
static char base[2u * NAME_MAX_LEN + 8u]; /* {prefix}/{deployment} */
static char t_inbox[TOPIC_MAX];           /* {base}/in/{me}/+ */
static char t_inbox_prefix[TOPIC_MAX];    /* {base}/in/{me}/ */
static char t_presence[TOPIC_MAX];        /* {base}/presence/{me} */
static char t_ctl[TOPIC_MAX];
static char t_bcast_me[TOPIC_MAX];
static char t_bcast_all[TOPIC_MAX];
static char t_bcast_prefix[TOPIC_MAX];
static char t_status[TOPIC_MAX];
static double last_compute_ms = -1.0; /* the last request's compute time (-1: none yet) */
static char program_name[2u * NAME_MAX_LEN];    /* the deployment's name (--deployment) */
static char program_version[2u * NAME_MAX_LEN]; /* its program_version (--program-version; "": none) */
static double started;                          /* monotonic seconds at start (the record's uptime_s) */

static int hello_sent;

static struct {
    unsigned connects, reconnects, session_resumed, session_resets, sent, received, spoofed, foreign,
        publish_errors, oversize;
} st;


static char client_names[BBRT_MAX_CLIENTS + 1u][16];

static const char *peer_name(uint32_t id) {
    unsigned i;
    uint32_t slot = bbrt_client_slot(id);
    for (i = 0; i < n_peers; i++)
        if (peers[i].id == id) return peers[i].name;
    if (slot != 0u) { /* a client's inbox: where the outputs of the requests it owns go */
        if (client_names[slot][0] == 0) snprintf(client_names[slot], sizeof(client_names[slot]), "_client%u", slot & 0xFFu);
        return client_names[slot];
    }
    return id == 0u ? "_host" : id == 0xFFFFFFFEu ? "_deploy" : NULL; /* the host; bb-edge deploy */
}

/* the slot of a client endpoint name, "_client<k>" with k in 1..255 written without leading zeros; else 0 */
static uint32_t client_slot_of(const char *name) {
    const char *d = name + 7;
    unsigned long k = 0;
    if (strncmp(name, "_client", 7) != 0 || *d < '1' || *d > '9') return 0u;
    for (; *d; d++) {
        if (*d < '0' || *d > '9' || k > BBRT_MAX_CLIENTS) return 0u;
        k = k * 10u + (unsigned long)(*d - '0');
    }
    return k <= BBRT_MAX_CLIENTS ? (uint32_t)k : 0u;
}

/* the node id a topic's {src} names (-1: not a deployment member) */
static long peer_id(const char *name) {
    unsigned i;
    for (i = 0; i < n_peers; i++)
        if (strcmp(peers[i].name, name) == 0) return (long)peers[i].id;
    if (strcmp(name, "_deploy") == 0) return (long)0xFFFFFFFEUL; /* bb-edge deploy (OTA only) */
    if (client_slot_of(name) != 0u) return (long)(BBRT_CLIENT_ID_BASE + client_slot_of(name)); /* a client */
    return strcmp(name, "_host") == 0 ? 0 : -1;
}

static struct mosquitto *mosq;

/* the node's output: chunks of one envelope, then put(0, 0); published to the receiver's inbox */
static void put(void *ctx, const uint8_t *p, size_t n) {
    char topic[TOPIC_MAX];
    const char *dst;
    uint32_t receiver;
    int rc;
    (void)ctx;
    if (p != NULL) {
        if (n > sizeof(txbuf) - txlen) tx_overflow = 1;
        else {
            memcpy(txbuf + txlen, p, n);
            txlen += n;
        }
        return;
    }
    if (tx_overflow || bbrt_env_route(txbuf, txlen, NULL, &receiver) != BBRT_OK) {
        st.oversize++;
        txlen = 0;
        tx_overflow = 0;
        return;
    }
    if (receiver == BBRT_BROADCAST) {
        snprintf(topic, sizeof(topic), "%s", t_bcast_me);
    } else {
        dst = peer_name(receiver);
        if (dst == NULL) { /* no name for that id: nowhere to publish (counted, never guessed) */
            st.publish_errors++;
            txlen = 0;
            return;
        }
        snprintf(topic, sizeof(topic), "%s/in/%s/%s", base, dst, me);
    }
    /* QoS 1: libmosquitto keeps the message until its PUBACK and resends it after a reconnect */
    rc = mosquitto_publish(mosq, NULL, topic, (int)txlen, txbuf, 1, false);
    if (rc == MOSQ_ERR_SUCCESS || rc == MOSQ_ERR_NO_CONN) st.sent++;
    else st.publish_errors++;
    txlen = 0;
}

static void on_connect(struct mosquitto *m, void *ud, int rc, int flags, const mosquitto_property *props) {
    (void)ud;
    (void)props;
    if (pm_refused("bbrt-mqtt", me, rc)) return;
    st.connects++;
    if (st.connects > 1u) {
        st.reconnects++;
        if (flags & 1) st.session_resumed++;
        else {
            st.session_resets++;
            fprintf(stderr, "bbrt-mqtt: %s: the broker had no session on reconnect: messages queued for "
                            "this node were discarded\n", me);
        }
    }
    connected = 1;
    /* subscribe before announcing: peers start sending on "up", and the broker queues only for
     * subscriptions that exist (the first session of a node has none) */
    mosquitto_subscribe(m, NULL, t_inbox, 1);
    mosquitto_subscribe(m, NULL, t_bcast_all, 1);
    mosquitto_subscribe(m, NULL, t_ctl, 1);
    mosquitto_publish(m, NULL, t_presence, 2, "up", 1, true);
    if (!hello_sent) {
        hello_sent = 1;
        bbrt_node_hello(&node, me);
    }
}


static void on_message(struct mosquitto *m, void *ud, const struct mosquitto_message *msg) {
    const char *src;
    long want;
    uint32_t sender = 0;
    (void)m;
    (void)ud;
    if (strcmp(msg->topic, t_ctl) == 0) {
        if (msg->payloadlen == 4 && memcmp(msg->payload, "stop", 4) == 0) running = 0;
        return;
    }
    if (strncmp(msg->topic, t_inbox_prefix, strlen(t_inbox_prefix)) == 0)
        src = msg->topic + strlen(t_inbox_prefix);
    else if (strncmp(msg->topic, t_bcast_prefix, strlen(t_bcast_prefix)) == 0)
        src = msg->topic + strlen(t_bcast_prefix);
    else {
        st.foreign++;
        return;
    }
    if (strcmp(src, me) == 0) return; /* our own broadcast */
    /* validation first: the header's sender must be the node the topic names (the broker's ACL pins
     * who may write that topic), and the envelope must fit the aligned receive buffer */
    want = peer_id(src);
    if (want < 0 || msg->payloadlen < 0 ||
        bbrt_env_route((const uint8_t *)msg->payload, (size_t)msg->payloadlen, &sender, NULL) != BBRT_OK ||
        sender != (uint32_t)want) {
        st.spoofed++;
        return;
    }
    if ((size_t)msg->payloadlen > sizeof(rxbuf)) {
        st.oversize++;
        return;
    }
    st.received++;
    /* envelopes are decoded in place and need 8-byte alignment: copy into the static buffer */
    memcpy(rxbuf, msg->payload, (size_t)msg->payloadlen);
    {
        uint32_t before = node.stats.inferences;
        double t = now_s();
        (void)bbrt_node_handle(&node, (const uint8_t *)rxbuf, (size_t)msg->payloadlen);
        if (node.stats.inferences != before) last_compute_ms = (now_s() - t) * 1e3;
    }
}

/* The status record of bb_edge/adapters/ops/telemetry.py (the fields `bb-edge status` reads; bb_edge/adapters/ops/status_view.py
 * refuses a record whose types differ). Drops: every envelope the node refused. */
static void publish_status(uint32_t epoch) {
    char rec[1400], hash[65], compute[32], pversion[2u * NAME_MAX_LEN + 2u];
    unsigned i;
    unsigned drops = node.stats.bad_envelopes + node.stats.unknown_edge + node.stats.edge_mismatch +
                     node.stats.duplicates + node.stats.stale_epoch + node.stats.unauthorised + st.spoofed +
                     st.oversize;
    int n;
    struct timespec wall;
    for (i = 0; i < 32u; i++) snprintf(hash + 2u * i, 3, "%02x", ota.hash[i]);
    if (program_version[0]) snprintf(pversion, sizeof(pversion), "\"%s\"", program_version);
    else snprintf(pversion, sizeof(pversion), "null");
    if (last_compute_ms < 0.0) snprintf(compute, sizeof(compute), "null");
    else snprintf(compute, sizeof(compute), "%.3f", last_compute_ms);
    clock_gettime(CLOCK_REALTIME, &wall);
    n = snprintf(rec, sizeof(rec),
                 "{\"v\": 1, \"node\": \"%s\", \"up\": true, \"version\": \"bbrt-c\", \"program\": \"%s\", "
                 "\"program_version\": %s, \"program_hash\": \"%s\", \"uptime_s\": %.1f, \"errors\": %u, "
                 "\"epoch\": %u, \"hop_ms\": null, \"compute_ms\": %s, \"rtt_ms\": {}, \"drops\": %u, "
                 "\"drops_by_reason\": {\"bad_envelope\": %u, \"unknown_edge\": %u, \"edge_mismatch\": %u, "
                 "\"duplicate\": %u, \"stale_epoch\": %u, \"unauthorised\": %u, \"spoofed\": %u, "
                 "\"oversize\": %u}, \"requests\": %u, \"envelopes_in\": %u, \"envelopes_out\": %u, "
                 "\"open_requests\": 0, \"ota_switches\": %u, \"ota_refusals\": %u, \"ota_rollbacks\": %u, "
                 "\"time\": %.3f}",
                 me, program_name, pversion, hash, now_s() - started, (unsigned)node.stats.run_errors,
                 (unsigned)epoch, compute, drops, (unsigned)node.stats.bad_envelopes,
                 (unsigned)node.stats.unknown_edge, (unsigned)node.stats.edge_mismatch,
                 (unsigned)node.stats.duplicates, (unsigned)node.stats.stale_epoch,
                 (unsigned)node.stats.unauthorised, st.spoofed, st.oversize, (unsigned)node.stats.inferences,
                 st.received, st.sent, (unsigned)ota.ota.switches, (unsigned)ota.ota.refusals,
                 (unsigned)ota.rollbacks, (double)wall.tv_sec + (double)wall.tv_nsec * 1e-9);
    if (n <= 0 || (size_t)n >= sizeof(rec)) return;
    mosquitto_publish(mosq, NULL, t_status, n, rec, 1, true);
}

static int add_peer(const char *spec) {
    const char *eq = strchr(spec, '=');
    char *end;
    unsigned long id;
    unsigned i;
    if (eq == NULL || eq == spec || eq[1] == 0 || strlen(eq + 1) >= NAME_MAX_LEN) return -1;
    id = strtoul(spec, &end, 10);
    if (end != eq || id > 0xFFFFFFFEul) return -1;
    /* a later --peer for the same id wins (run.sh bakes the build's table in; "$@" comes after it) */
    for (i = 0; i < n_peers && peers[i].id != (uint32_t)id; i++) {
    }
    if (i == n_peers) {
        if (n_peers >= MAX_PEERS) return -1;
        n_peers++;
    }
    peers[i].id = (uint32_t)id;
    safe_segment(peers[i].name, sizeof(peers[i].name), eq + 1);
    return 0;
}

/* src as a JSON string body: '"', '\\' and control characters become '_' (names and versions need no escapes) */
static void json_safe(char *dst, size_t cap, const char *src) {
    size_t i = 0;
    for (; src[i] && i + 1u < cap; i++)
        dst[i] = (src[i] == '"' || src[i] == '\\' || (unsigned char)src[i] < 0x20u) ? '_' : src[i];
    dst[i] = 0;
}

static int usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s PROGRAM.bbrt --name NODE --deployment DEP [--host H[:P][,H:P...]] [--port P] [--prefix bb]\n"
            "       [--user U] [--password-file F | --creds credentials.json] [--ca CA.pem [--insecure]]\n"
            "       [--keepalive S] [--epoch-file F] [--peer ID=NAME]... [--connect-timeout S] [--ota-key F]\n"
            "       [--backoff-max S] [--connect-spread S]\n"
            "       [--status-interval S] [--program-version V]\n",
            argv0);
    return 2;
}

int main(int argc, char **argv) {
    pm_opts_t o = {"127.0.0.1", "bb", NULL, NULL, NULL, NULL, NULL, NULL, 1883, 10, 30.0, 0.0, 0.0, {{{0}, 0}}, 0u, 0u};
    const char *ca = NULL, *ota_key_file = NULL;
    const char *program_version_arg = "";
    double status_interval = 2.0, last_status = 0.0;
    static char password[SECRET_MAX];
    static char text[65536];
    static char dep_seg[NAME_MAX_LEN];
    int insecure = 0, have_password = 0, said_why = 0, i, rc;
    double backoff = 0.05, t0;
    uint32_t epoch = 0;
    size_t len = 0;
    bbrt_status_t bst;

    if (argc < 2) return usage(argv[0]);
    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--insecure") == 0) {
            insecure = 1;
            continue;
        }
        if (i + 1 >= argc) return usage(argv[0]);
        rc = pm_take_option(&o, argv, &i);
        if (rc < 0) return usage(argv[0]);
        if (rc > 0) continue;
        if (strcmp(a, "--ca") == 0) ca = argv[++i];
        else if (strcmp(a, "--ota-key") == 0) ota_key_file = argv[++i];
        else if (strcmp(a, "--program-version") == 0) program_version_arg = argv[++i];
        else if (strcmp(a, "--status-interval") == 0) {
            char *end;
            status_interval = strtod(argv[++i], &end);
            if (end == argv[i] || *end != 0 || !(status_interval >= 0.0)) return usage(argv[0]);
        }
        else if (strcmp(a, "--peer") == 0) {
            if (add_peer(argv[++i]) != 0) {
                fprintf(stderr, "bbrt-mqtt: bad --peer %s (want ID=NAME, at most %u)\n", argv[i], MAX_PEERS);
                return 2;
            }
        } else return usage(argv[0]);
    }
    if (!pm_opts_ok(&o)) return usage(argv[0]);
    if (strlen(program_version_arg) >= sizeof(program_version)) return usage(argv[0]);
    safe_segment(me, sizeof(me), o.name);
    safe_segment(dep_seg, sizeof(dep_seg), o.deployment);
    /* shown in the status record as JSON strings: safe_segment leaves no quote or control character to escape */
    json_safe(program_name, sizeof(program_name), o.deployment);
    json_safe(program_version, sizeof(program_version), program_version_arg);
    started = now_s();
    snprintf(base, sizeof(base), "%s/%s", o.prefix, dep_seg);
    snprintf(t_inbox, sizeof(t_inbox), "%s/in/%s/+", base, me);
    snprintf(t_inbox_prefix, sizeof(t_inbox_prefix), "%s/in/%s/", base, me);
    snprintf(t_presence, sizeof(t_presence), "%s/presence/%s", base, me);
    snprintf(t_ctl, sizeof(t_ctl), "%s/ctl/_host", base); /* only the host may stop a node (its own ctl topic, ACL) */
    snprintf(t_bcast_me, sizeof(t_bcast_me), "%s/bcast/%s", base, me);
    snprintf(t_bcast_all, sizeof(t_bcast_all), "%s/bcast/+", base);
    snprintf(t_bcast_prefix, sizeof(t_bcast_prefix), "%s/bcast/", base);
    snprintf(t_status, sizeof(t_status), "%s/status/%s", base, me);

    /* the password: a file holding it, the broker's credentials.json, or the environment */
    have_password = creds_password("bbrt-mqtt", o.password_file, o.creds, o.name, password, sizeof(password), text,
                                   sizeof(text));
    if (have_password < 0) return 2;
    if (have_password && o.user == NULL) o.user = me;

    if (posix_read_file(argv[1], program, sizeof(program), &len) != 0) {
        perror(argv[1]);
        return 2;
    }
    bst = bbrt_node_init(&node, (const uint8_t *)program, len, (uint8_t *)arena, sizeof(arena),
                         (uint8_t *)rxbuf, BBRT_RX_BUFFER_SIZE, put, NULL);
    if (bst != BBRT_OK) {
        fprintf(stderr, "bbrt-mqtt: program refused: %s (%d)\n", bbrt_status_name(bst), (int)bst);
        return 3;
    }
    node.unframed = 1u; /* MQTT carries one bare envelope per message */
    if (ota_key_file != NULL && posix_read_hex_key(ota_key_file, ota_key, sizeof(ota_key), &ota_key_len) != 0) {
        fprintf(stderr, "bbrt-mqtt: %s: not an update key (hex, 16..64 bytes)\n", ota_key_file);
        return 2;
    }
    if (bbrt_node_ota_attach(&node, &ota, me, (uint8_t *)program, (uint8_t *)program_b, sizeof(program), len,
                             (uint8_t *)arena, sizeof(arena), ota_key_len ? ota_key : NULL, ota_key_len) != 0 ||
        bbrt_node_ota_persist(&ota, NULL, NULL, o.deployment) != 0) { /* manifests must name this deployment */
        fprintf(stderr, "bbrt-mqtt: cannot attach the update handler\n");
        return 2;
    }
    /* a boot epoch per start (docs/wire.md): a restarted node's seq never repeats an earlier one */
    epoch = pm_boot_epoch("bbrt-mqtt", o.epoch_file);
    if (epoch == 0u) return 2;
    node.boot_epoch = epoch;

    pm_catch_signals();
    /* persistent session under the node's name, its last will "down" (ports/common/posix_mqtt.h) */
    mosq = pm_session("bbrt-mqtt", me, o.user, have_password ? password : NULL, t_presence);
    if (mosq == NULL) return 2;
    if (ca != NULL) {
        rc = mosquitto_tls_set(mosq, ca, NULL, NULL, NULL, NULL);
        if (rc == MOSQ_ERR_SUCCESS && insecure) rc = mosquitto_tls_insecure_set(mosq, true);
        if (rc != MOSQ_ERR_SUCCESS) {
            fprintf(stderr, "bbrt-mqtt: TLS setup with %s failed: %s\n", ca, mosquitto_strerror(rc));
            return 2;
        }
    }
    mosquitto_connect_v5_callback_set(mosq, on_connect);
    mosquitto_disconnect_callback_set(mosq, on_disconnect);
    mosquitto_message_callback_set(mosq, on_message);
    mosquitto_max_inflight_messages_set(mosq, 100);

    pm_seed(me);
    pm_spread(&o);
    t0 = now_s();
    rc = pm_connect(mosq, &o, 1);
    while (running && !stop_signal) {
        if (rc == MOSQ_ERR_SUCCESS) rc = mosquitto_loop(mosq, 200, 1);
        if (refused_rc >= 0) break;
        if (rc == MOSQ_ERR_SUCCESS) {
            if (connected && status_interval > 0.0 && now_s() - last_status >= status_interval) {
                last_status = now_s(); /* a stale record is worse than none: only while connected */
                publish_status(epoch);
            }
            pm_backoff_settle(&backoff);
            if (!connected && st.connects == 0u && now_s() - t0 > o.connect_timeout) break;
            continue;
        }
        /* connection lost or not made: reconnect with capped exponential back-off */
        if (connected || (st.connects == 0u && !said_why)) {
            said_why = 1;
            fprintf(stderr, "bbrt-mqtt: %s: %s:%d: %s; retrying\n", me, pm_member(&o)->host, pm_member(&o)->port,
                    rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
        }
        connected = 0;
        if (st.connects == 0u && now_s() - t0 > o.connect_timeout) break;
        pm_backoff(&backoff, o.backoff_max > 0.0 ? o.backoff_max : 2.0);
        rc = pm_connect(mosq, &o, 0);
    }
    if (connected) pm_leave(mosq, t_presence, 50);
    fprintf(stderr,
            "bbrt-mqtt: connects=%u reconnects=%u session_resumed=%u session_resets=%u sent=%u received=%u "
            "spoofed=%u foreign=%u publish_errors=%u oversize=%u epoch=%u handovers=%u\n",
            st.connects, st.reconnects, st.session_resumed, st.session_resets, st.sent, st.received, st.spoofed,
            st.foreign, st.publish_errors, st.oversize, (unsigned)epoch, pm_handovers);
    fprintf(stderr,
            "bbrt: frames_ok=%u bad_frames=%u bad_envelopes=%u unknown_edge=%u edge_mismatch=%u "
            "inferences=%u run_errors=%u pings=%u evicted=%u duplicates=%u stale_epoch=%u unauthorised=%u "
            "ota_switches=%u ota_refusals=%u ota_rollbacks=%u\n",
            (unsigned)node.stats.frames_ok, (unsigned)node.stats.bad_frames, (unsigned)node.stats.bad_envelopes,
            (unsigned)node.stats.unknown_edge, (unsigned)node.stats.edge_mismatch, (unsigned)node.stats.inferences,
            (unsigned)node.stats.run_errors, (unsigned)node.stats.pings, (unsigned)node.stats.evicted,
            (unsigned)node.stats.duplicates, (unsigned)node.stats.stale_epoch, (unsigned)node.stats.unauthorised,
            (unsigned)ota.ota.switches, (unsigned)ota.ota.refusals, (unsigned)ota.rollbacks);
    return pm_finish("bbrt-mqtt", mosq, me, &o, st.connects);
}
