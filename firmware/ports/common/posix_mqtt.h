/* What the two libmosquitto mains of the posix ports share - posix-mqtt/main.c (the inference node) and
 * posix-mqtt/learn_main.c (the FedAvg client): the broker options of their command lines, topic segments
 * (adapters/mqtt_topics.safe_segment), the clock, the signals that stop them, the session (persistent,
 * client id = node name, the retained last will "down" on the presence topic), the members of a clustered
 * broker (--host H1:P1,H2:P2,...: a lost or unavailable member hands over to the next, same session), the
 * jittered, capped reconnect back-off (pm_backoff), the fleet's connect pacing (--connect-spread), the clean
 * leave and the exit codes. Static functions: included once, by the
 * main that uses them. */
#ifndef BBRT_POSIX_MQTT_H
#define BBRT_POSIX_MQTT_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stdint.h>

#include <mosquitto.h>

#include "posix_epoch.h"

/* names and topic segments: node, deployment, prefix (bytes, with the NUL) */
#define NAME_MAX_LEN 64u

/* a clustered broker's members (bb-edge broker --kind rabbitmq --members N) */
#define PM_MAX_MEMBERS 8u
#define PM_HOST_MAX 256u

typedef struct {
    char host[PM_HOST_MAX];
    int port;
} pm_member_t;

/* the broker options both mains take (callers set their own defaults before pm_take_option); members and
 * member are filled by pm_opts_ok from host and port */
typedef struct {
    const char *host, *prefix, *deployment, *name, *user, *password_file, *creds, *epoch_file;
    int port, keepalive;
    double connect_timeout;
    /* --backoff-max S: the reconnect back-off's cap (0: the main's own); --connect-spread S: the first
     * connection waits a random 0..S s (a fleet started at once reaches the broker spread over S) */
    double backoff_max, connect_spread;
    pm_member_t members[PM_MAX_MEMBERS];
    unsigned n_members, member;
} pm_opts_t;

static volatile sig_atomic_t stop_signal;
/* the session's state, kept by the callbacks: running (0 after "stop" on the control topic), connected,
 * refused_rc (the broker's CONNACK refusal, -1 while none) */
static int running = 1, connected, refused_rc = -1;
/* how many members --host named (pm_opts_ok): with several, a member that answers "server unavailable" (a
 * RabbitMQ member without its cluster's majority) is passed over, not the end of the session */
static unsigned pm_n_members = 1u;
/* connection attempts that moved to another member (printed with the exit counters as handovers=) */
static unsigned pm_handovers;
/* when the broker last accepted us (now_s), -1 before: a connection counts as stable PM_STABLE_S after it */
static double pm_connected_at = -1.0;
/* the jitter's generator (xorshift32), seeded per client by pm_seed: never 0 */
static uint32_t pm_rng = 2463534242u;

/* the back-off's floor, seconds, and how long a connection must stay up before a loss restarts from it.
 * Why: RabbitMQ's MQTT plugin registers every CONNECT's client id in one cluster-wide Raft log (5 s timeout,
 * then it registers again); a registration applied late closes the newer connection of the same id
 * ("duplicate id"). A client that reconnects at the floor after each such kick adds one more registration
 * every time, and at 1,000 clients the log never catches up; one whose short-lived connections keep
 * doubling its back-off gives it room. */
#define PM_BACKOFF_MIN 0.05
#define PM_STABLE_S 5.0
static void on_signal(int sig) {
    (void)sig;
    stop_signal = 1;
}

/* SIGTERM and SIGINT end the main loop (a clean leave: "down", then disconnect) */
static void pm_catch_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
}

/* a topic segment as adapters/mqtt_topics.safe_segment makes it: "/+#", NUL and blanks become "_" */
static void safe_segment(char *dst, size_t cap, const char *src) {
    size_t i = 0;
    for (; src[i] && i + 1u < cap; i++) dst[i] = strchr("/+#\t\n\v\f\r ", src[i]) ? '_' : src[i];
    if (i == 0u && cap > 1u) dst[i++] = '_';
    dst[i] = 0;
}

/* a whole decimal number in [lo, hi], else -1 (atoi would read "abc" as 0) */
static long parse_num(const char *text, long lo, long hi) {
    char *end;
    long v;
    errno = 0;
    v = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != 0 || v < lo || v > hi) return -1;
    return v;
}

/* a whole real number in [lo, hi] into *out: 0, else -1 */
static int parse_real(const char *text, double lo, double hi, double *out) {
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end != 0 || !(v >= lo && v <= hi)) return -1;
    *out = v;
    return 0;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_s(double s) {
    struct timespec ts;
    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    nanosleep(&ts, NULL);
}

/* argv[*i] with its value argv[*i + 1]: 1 when it is a broker option (taken, *i on its value), 0 when it
 * is not one, -1 when its value is bad (the caller prints its usage) */
static int pm_take_option(pm_opts_t *o, char **argv, int *i) {
    const char *a = argv[*i], *v = argv[*i + 1];
    if (strcmp(a, "--host") == 0) o->host = v;
    else if (strcmp(a, "--port") == 0) o->port = (int)parse_num(v, 1, 65535);
    else if (strcmp(a, "--prefix") == 0) o->prefix = v;
    else if (strcmp(a, "--deployment") == 0) o->deployment = v;
    else if (strcmp(a, "--name") == 0) o->name = v;
    else if (strcmp(a, "--user") == 0) o->user = v;
    else if (strcmp(a, "--password-file") == 0) o->password_file = v;
    else if (strcmp(a, "--creds") == 0) o->creds = v;
    else if (strcmp(a, "--keepalive") == 0) o->keepalive = (int)parse_num(v, 0, 65535);
    else if (strcmp(a, "--epoch-file") == 0) o->epoch_file = v;
    else if (strcmp(a, "--connect-timeout") == 0) {
        if (parse_real(v, 0.0, 1e6, &o->connect_timeout) != 0) return -1;
    } else if (strcmp(a, "--backoff-max") == 0) {
        if (parse_real(v, PM_BACKOFF_MIN, 3600.0, &o->backoff_max) != 0) return -1;
    } else if (strcmp(a, "--connect-spread") == 0) {
        if (parse_real(v, 0.0, 3600.0, &o->connect_spread) != 0) return -1;
    } else return 0;
    *i += 1;
    return 1;
}

/* --host as the members of a broker: "H[:P],H[:P],..." (the host list of the Python transport's
 * mqtt://H1:P1,H2:P2 URLs; a member without ":P" takes --port, "[V6]:P" writes an IPv6 literal): 0, else -1
 * (an empty member, a bad port, a host too long, more than PM_MAX_MEMBERS) */
static int pm_parse_members(pm_opts_t *o) {
    const char *s = o->host;
    o->n_members = 0u;
    o->member = 0u;
    for (;;) {
        const char *end = strchr(s, ',');
        size_t n = end != NULL ? (size_t)(end - s) : strlen(s);
        char item[PM_HOST_MAX + 8u], *host = item, *colon;
        long port = o->port;
        if (n == 0u || n >= sizeof(item) || o->n_members >= PM_MAX_MEMBERS) return -1;
        memcpy(item, s, n);
        item[n] = 0;
        if (item[0] == '[') { /* [V6] or [V6]:P */
            char *close = strchr(item, ']');
            if (close == NULL) return -1;
            *close = 0;
            host = item + 1;
            if (close[1] == ':') port = parse_num(close + 2, 1, 65535);
            else if (close[1] != 0) return -1;
        } else if ((colon = strchr(item, ':')) != NULL && strchr(colon + 1, ':') == NULL) {
            *colon = 0; /* H:P (a bare IPv6 literal has several colons and no port) */
            port = parse_num(colon + 1, 1, 65535);
        }
        if (port < 1 || host[0] == 0 || strlen(host) >= PM_HOST_MAX) return -1;
        memcpy(o->members[o->n_members].host, host, strlen(host) + 1u);
        o->members[o->n_members].port = (int)port;
        o->n_members++;
        if (end == NULL) return 0;
        s = end + 1;
    }
}

/* after the command line: 1 when name and deployment are given, every name fits a topic segment and --host
 * is a list of members */
static int pm_opts_ok(pm_opts_t *o) {
    if (o->keepalive > 0 && o->keepalive < 5) o->keepalive = 5; /* libmosquitto 2.0 refuses less (0: off) */
    return o->name != NULL && o->deployment != NULL && o->port > 0 && o->keepalive >= 0 &&
           strlen(o->name) < NAME_MAX_LEN && strlen(o->deployment) < NAME_MAX_LEN &&
           strlen(o->prefix) < NAME_MAX_LEN && pm_parse_members(o) == 0 && (pm_n_members = o->n_members) > 0u;
}

/* seed the jitter from the client's name (unique in a fleet) and the clock (a restarted client differs) */
static void pm_seed(const char *name) {
    struct timespec ts;
    uint32_t h = 2166136261u; /* FNV-1a */
    size_t i;
    for (i = 0; name[i]; i++) h = (h ^ (uint8_t)name[i]) * 16777619u;
    clock_gettime(CLOCK_REALTIME, &ts);
    h ^= (uint32_t)ts.tv_nsec ^ ((uint32_t)ts.tv_sec << 7);
    pm_rng = h != 0u ? h : 2463534242u;
}

/* a uniform number in [0, 1) */
static double pm_uniform(void) {
    pm_rng ^= pm_rng << 13;
    pm_rng ^= pm_rng >> 17;
    pm_rng ^= pm_rng << 5;
    return (double)pm_rng / 4294967296.0;
}

/* the member this client is (or will next be) connected to */
static const pm_member_t *pm_member(const pm_opts_t *o) {
    return &o->members[o->member];
}

/* Connect to the current member (the first attempt), or after a lost or failed connection: with one member
 * reconnect to it, with several hand over to the next one. The same handle keeps the client id, the
 * persistent session and the QoS 1 messages not yet acknowledged (libmosquitto resends them on the new
 * connection); a member that restarts later is reached again in turn. */
static int pm_connect(struct mosquitto *m, pm_opts_t *o, int first) {
    const pm_member_t *at;
    if (first || o->n_members > 1u) {
        if (!first) {
            o->member = (o->member + 1u) % o->n_members;
            pm_handovers++;
        }
        at = pm_member(o);
        return mosquitto_connect(m, at->host, at->port, o->keepalive);
    }
    return mosquitto_reconnect(m);
}

/* The session: clean_session off under a stable client id (the node name; the generated broker also forces
 * client id = user name), MQTT 3.1.1, no Nagle (one envelope per packet, answered at once), the user's
 * password, and the last will: the broker publishes retained "down" when this node vanishes. NULL (said on
 * stderr) when libmosquitto cannot make it; the caller sets TLS and its callbacks, then connects. */
static struct mosquitto *pm_session(const char *tool, const char *me, const char *user, const char *password,
                                    const char *t_presence) {
    struct mosquitto *m;
    mosquitto_lib_init();
    m = mosquitto_new(me, false, NULL);
    if (m == NULL) {
        fprintf(stderr, "%s: mosquitto_new failed: %s\n", tool, strerror(errno));
        return NULL;
    }
    mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
    mosquitto_int_option(m, MOSQ_OPT_TCP_NODELAY, 1);
    if (user != NULL && mosquitto_username_pw_set(m, user, password) != 0) {
        fprintf(stderr, "%s: the user name or password cannot be used\n", tool);
        mosquitto_destroy(m);
        return NULL;
    }
    mosquitto_will_set(m, t_presence, 4, "down", 1, true);
    return m;
}

/* the on_connect callback's first step: 1 when the broker refused the connection (said on stderr, kept in
 * refused_rc: the main loop stops, unless one member of several is unavailable: the loop tries the next),
 * else 0 */
static int pm_refused(const char *tool, const char *me, int rc) {
    if (rc == 0) {
        pm_connected_at = now_s();
        return 0;
    }
    if (rc == 3 && pm_n_members > 1u) { /* CONNACK 3: server unavailable */
        fprintf(stderr, "%s: %s: a member is unavailable (%s); trying the next\n", tool, me,
                mosquitto_connack_string(rc));
        return 1;
    }
    refused_rc = rc;
    fprintf(stderr, "%s: %s: the broker refused the connection: %s (%d)\n", tool, me, mosquitto_connack_string(rc), rc);
    return 1;
}

/* the disconnect callback: the main loop reconnects */
static void on_disconnect(struct mosquitto *m, void *ud, int rc) {
    (void)m;
    (void)ud;
    (void)rc;
    connected = 0;
}

/* a boot epoch per start (docs/wire.md: a restarted node's seq never repeats an earlier one): the number in
 * epoch_file + 1 (posix_epoch.h), or without one the wall clock's seconds (grows across restarts unless the
 * clock goes back); 0 (said on stderr) when the file cannot be updated */
static uint32_t pm_boot_epoch(const char *tool, const char *epoch_file) {
    uint32_t epoch;
    if (epoch_file == NULL) return (uint32_t)time(NULL);
    epoch = bump_epoch(epoch_file);
    if (epoch == 0u) fprintf(stderr, "%s: cannot update the boot epoch in %s: %s\n", tool, epoch_file, strerror(errno));
    return epoch;
}

/* sleep the back-off with jitter (a random half to whole of it: clients that lost their member together do not
 * come back together), then double it up to cap (reconnects after a lost or refused connection) */
static void pm_backoff(double *backoff, double cap) {
    sleep_s(*backoff * (0.5 + 0.5 * pm_uniform()));
    *backoff = *backoff * 2.0 > cap ? cap : *backoff * 2.0;
}

/* the back-off for the next loss: the floor once the connection has been up PM_STABLE_S, else unchanged (a
 * connection the broker closes within seconds, e.g. a duplicate-id kick, keeps doubling it) */
static void pm_backoff_settle(double *backoff) {
    if (connected && pm_connected_at >= 0.0 && now_s() - pm_connected_at >= PM_STABLE_S) *backoff = PM_BACKOFF_MIN;
}

/* the first connection's pacing (--connect-spread S): wait a random 0..S s, unless stopped */
static void pm_spread(const pm_opts_t *o) {
    double until = now_s() + o->connect_spread * pm_uniform();
    while (!stop_signal && now_s() < until) sleep_s(0.05);
}

/* a clean stop: announce "down" (the will is only for a vanished node), let it go out, disconnect */
static void pm_leave(struct mosquitto *m, const char *t_presence, int loop_ms) {
    int i;
    mosquitto_publish(m, NULL, t_presence, 4, "down", 1, true);
    for (i = 0; i < 10; i++) mosquitto_loop(m, loop_ms, 1);
    mosquitto_disconnect(m);
    mosquitto_loop(m, loop_ms, 1);
}

/* the session's end: the exit code - 4 the broker refused us, 5 no connection within the timeout (and not
 * stopped), else 0 */
static int pm_finish(const char *tool, struct mosquitto *m, const char *me, const pm_opts_t *o, unsigned connects) {
    unsigned i;
    mosquitto_destroy(m);
    mosquitto_lib_cleanup();
    if (refused_rc >= 0) return 4;
    if (connects == 0u && !stop_signal && running) {
        fprintf(stderr, "%s: %s: no connection to ", tool, me);
        for (i = 0; i < o->n_members; i++)
            fprintf(stderr, "%s%s:%d", i ? "," : "", o->members[i].host, o->members[i].port);
        fprintf(stderr, " within %.0f s\n", o->connect_timeout);
        return 5;
    }
    return 0;
}

#endif
