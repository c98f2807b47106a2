/* Thin API for Python tests (ctypes): a node whose output goes to a caller buffer. */
#include "bbrt.h"

static bbrt_node_t py_node;
static uint8_t *py_out;
static size_t py_cap, py_len;
static int py_overflow;
static uint64_t py_rx[(BBRT_RX_BUFFER_SIZE + 7u) / 8u];

static void py_put(void *ctx, const uint8_t *p, size_t n) {
    (void)ctx;
    if (py_overflow || py_cap - py_len < n) {
        py_overflow = 1;
        return;
    }
    bbrt_memcpy(py_out + py_len, p, n);
    py_len += n;
}

int bbrtpy_node_init(const uint8_t *prog, size_t n, uint8_t *arena, size_t arena_n) {
    return (int)bbrt_node_init(&py_node, prog, n, arena, arena_n, (uint8_t *)py_rx, BBRT_RX_BUFFER_SIZE,
                               py_put, 0);
}

/* feed bytes; output frames are written to out; returns bytes written or -1 on overflow */
long bbrtpy_node_feed(const uint8_t *p, size_t n, uint8_t *out, size_t cap) {
    py_out = out;
    py_cap = cap;
    py_len = 0;
    py_overflow = 0;
    bbrt_node_feed(&py_node, p, n);
    return py_overflow ? -1L : (long)py_len;
}

/* the first 10 node counters (the layout before the link layer) */
void bbrtpy_node_stats(uint32_t *out10) { bbrt_memcpy(out10, &py_node.stats, 10u * sizeof(uint32_t)); }
/* every counter of bbrt_node_stats_t, in order (14) */
void bbrtpy_node_stats_all(uint32_t *out14) { bbrt_memcpy(out14, &py_node.stats, sizeof(py_node.stats)); }

static bbrt_program_t py_prog;
int bbrtpy_load(const uint8_t *blob, size_t n, uint8_t *arena, size_t arena_n) {
    return (int)bbrt_program_load(&py_prog, blob, n, arena, arena_n);
}
int bbrtpy_run(void) { return (int)bbrt_program_run(&py_prog); }
unsigned bbrtpy_max_payload(void) { return BBRT_MAX_PAYLOAD; }

/* ------------------------------------------------------------------ link harness (ctypes, tests)
 * One link object; everything it emits is appended to a caller buffer as records
 *   u8 kind, u32 len, bytes      kind 1: frame body, 2: delivered envelope, 3: event (u32 code, u32 arg)
 * so a test replays scripted sessions and compares frames and events with the golden vectors. */
#include "bbrt_link.h"

static bbrt_link_t py_link;
static uint64_t py_rasm[(1u << 17) / 8u];
static uint64_t py_txbuf[(1u << 17) / 8u];
static uint8_t *py_lout;
static size_t py_lcap, py_llen;
static int py_loverflow;

static void py_rec(uint8_t kind, const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
    size_t n = na + nb;
    if (py_loverflow || py_lcap - py_llen < 5u + n) {
        py_loverflow = 1;
        return;
    }
    py_lout[py_llen] = kind;
    py_lout[py_llen + 1] = (uint8_t)n;
    py_lout[py_llen + 2] = (uint8_t)(n >> 8);
    py_lout[py_llen + 3] = (uint8_t)(n >> 16);
    py_lout[py_llen + 4] = (uint8_t)(n >> 24);
    if (na) bbrt_memcpy(py_lout + py_llen + 5, a, na);
    if (nb) bbrt_memcpy(py_lout + py_llen + 5 + na, b, nb);
    py_llen += 5u + n;
}
static void py_lemit(void *ctx, const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
    (void)ctx;
    py_rec(1u, a, na, b, nb);
}
static void py_ldeliver(void *ctx, const uint8_t *env, size_t len) {
    (void)ctx;
    py_rec(2u, env, len, 0, 0u);
}
static void py_levent(void *ctx, bbrt_link_event_t ev, uint32_t a, uint32_t b) {
    uint8_t r[12];
    (void)ctx;
    r[0] = (uint8_t)ev; r[1] = 0; r[2] = 0; r[3] = 0;
    r[4] = (uint8_t)a; r[5] = (uint8_t)(a >> 8); r[6] = (uint8_t)(a >> 16); r[7] = (uint8_t)(a >> 24);
    r[8] = (uint8_t)b; r[9] = (uint8_t)(b >> 8); r[10] = (uint8_t)(b >> 16); r[11] = (uint8_t)(b >> 24);
    py_rec(3u, r, 12u, 0, 0u);
}

void bbrtpy_link_out(uint8_t *out, size_t cap) {
    py_lout = out;
    py_lcap = cap;
    py_llen = 0;
    py_loverflow = 0;
}
long bbrtpy_link_out_len(void) { return py_loverflow ? -1L : (long)py_llen; }

/* local hello from its record bytes; cfg: rto_initial, rto_min, rto_max, granularity, max_retries,
 * hb_interval, dead_after, reassembly_timeout (ms), grow_after; rasm_cap: reassembly budget (<= 128 KiB) */
int bbrtpy_link_init(const uint8_t *record, size_t n, const uint32_t *cfg, size_t rasm_cap) {
    bbrt_hello_t h;
    bbrt_link_config_t c;
    int st = (int)bbrt_hello_decode(record, n, &h);
    if (st != 0) return st;
    if (rasm_cap > sizeof(py_rasm)) return 100;
    c.rto_initial = cfg[0]; c.rto_min = cfg[1]; c.rto_max = cfg[2]; c.granularity = cfg[3];
    c.max_retries = cfg[4]; c.hb_interval = cfg[5]; c.dead_after = cfg[6]; c.reassembly_timeout = cfg[7];
    c.grow_after = cfg[8];
    bbrt_link_init(&py_link, &h, &c, (uint8_t *)py_txbuf, sizeof(py_txbuf), (uint8_t *)py_rasm, rasm_cap, py_lemit,
                   py_ldeliver, py_levent, 0);
    return 0;
}
void bbrtpy_link_start(uint32_t now) { bbrt_link_start(&py_link, now); }
void bbrtpy_link_receive(const uint8_t *body, size_t n, uint32_t now) { bbrt_link_receive(&py_link, body, n, now); }
int bbrtpy_link_send(const uint8_t *env, size_t n, uint32_t now) {
    return (int)bbrt_link_send(&py_link, env, n, 0, 0u, now);
}
void bbrtpy_link_poll(uint32_t now) { bbrt_link_poll(&py_link, now); }
uint32_t bbrtpy_link_frame_size(void) { return bbrt_link_frame_size(&py_link); }
uint32_t bbrtpy_link_next_deadline(uint32_t now) { return bbrt_link_next_deadline(&py_link, now); }
/* state: [up, version, rx_cum, rx_mask, next_lseq, rto, srtt_ms, unacked envelopes, peer epoch, rtt_samples] */
void bbrtpy_link_state(uint32_t *out10) {
    out10[0] = py_link.up; out10[1] = py_link.version; out10[2] = py_link.cum; out10[3] = py_link.mask;
    out10[4] = py_link.next_lseq; out10[5] = py_link.rto; out10[6] = py_link.srtt8 / 8u;
    out10[7] = bbrt_link_unacked(&py_link); out10[8] = py_link.have_peer ? py_link.peer.boot_epoch : 0u;
    out10[9] = py_link.stats.rtt_samples;
}
/* decode a hello record and encode it again: status, and the re-encoded bytes in out */
int bbrtpy_hello_roundtrip(const uint8_t *p, size_t n, uint8_t *out, size_t cap, size_t *written) {
    bbrt_hello_t h;
    int st = (int)bbrt_hello_decode(p, n, &h);
    if (st != 0) return st;
    return (int)bbrt_hello_encode(&h, out, cap, written);
}
/* the C seq window alone: check then (if new) commit, as the node does after applying */
static bbrt_seqwin_t py_win[BBRT_SEQ_SENDERS];
static uint32_t py_win_clock;
void bbrtpy_seqwin_reset(void) { bbrt_memset(py_win, 0, sizeof(py_win)); py_win_clock = 0; }
int bbrtpy_seqwin_check(uint32_t sender, uint64_t seq) {
    return (int)bbrt_seqwin_check(py_win, BBRT_SEQ_SENDERS, sender, seq);
}
void bbrtpy_seqwin_commit(uint32_t sender, uint64_t seq) {
    bbrt_seqwin_commit(py_win, BBRT_SEQ_SENDERS, sender, seq, &py_win_clock);
}
/* one envelope straight into the node (no framing): its verdict as a bbrt_status_t */
int bbrtpy_node_handle(const uint8_t *env, size_t n, uint8_t *out, size_t cap) {
    py_out = out;
    py_cap = cap;
    py_len = 0;
    py_overflow = 0;
    return (int)bbrt_node_handle(&py_node, env, n);
}
/* the link's stored-epoch source for the next link session after a give-up (0: none) */
static uint32_t py_epoch_value;
static uint32_t py_next_epoch(void *ctx) {
    (void)ctx;
    return py_epoch_value;
}
void bbrtpy_link_epoch_source(uint32_t value) {
    py_epoch_value = value;
    py_link.next_epoch = value ? py_next_epoch : 0;
}
