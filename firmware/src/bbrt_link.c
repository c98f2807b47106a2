/* The link layer of docs/wire.md in C99: handshake, epochs, ARQ with RFC 6298
 * timers and Karn's rule, fragmentation/reassembly, heartbeats. No heap, no clock:
 * time comes in as now_ms; every u32 time comparison is wrap-safe. */
/* Why one file: one state machine (bbrt_link_t) whose handlers share static helpers. It mirrors
 * bb_edge/wire/link.py and bbnode/link.py, and the same vectors pin all three. */
#include "bbrt_link.h"
#include "bbrt.h"
#include "bbrt_internal.h"

#define ELAPSED(now, t) ((uint32_t)((now) - (t)))

static const char *const EVENT_NAMES[BBRT_LEV__COUNT] = {
    "None", "LinkUp", "VersionMismatch", "EpochRegressed", "PeerRestarted", "BadHello", "BadLinkFrame",
    "AckUnknown", "FragmentRejected", "ReassemblyTimeout", "GaveUp", "PeerDown", "PeerUp",
    "HeartbeatReceived", "Duplicate", "BareEnvelope"};

const char *bbrt_link_event_name(bbrt_link_event_t ev) {
    return (unsigned)ev < BBRT_LEV__COUNT ? EVENT_NAMES[ev] : "?";
}

/* the defaults of LinkConfig in bb_edge/wire/link.py, in ms */
void bbrt_link_default_config(bbrt_link_config_t *cfg) {
    cfg->rto_initial = 200u;
    cfg->rto_min = 20u;
    cfg->rto_max = 2000u;
    cfg->granularity = 1u;
    cfg->max_retries = 100u;
    cfg->hb_interval = 500u;
    cfg->dead_after = 2000u;
    cfg->reassembly_timeout = 30000u;
    cfg->grow_after = BBRT_LINK_GROW_AFTER;
}

/* ------------------------------------------------------------ hello record */
static int utf8_valid(const uint8_t *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t k, extra;
        uint32_t cp;
        if (c < 0x80u) { i++; continue; }
        if ((c & 0xE0u) == 0xC0u) { extra = 1; cp = c & 0x1Fu; }
        else if ((c & 0xF0u) == 0xE0u) { extra = 2; cp = c & 0x0Fu; }
        else if ((c & 0xF8u) == 0xF0u) { extra = 3; cp = c & 0x07u; }
        else return 0;
        if (n - i <= extra) return 0;
        for (k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xC0u) != 0x80u) return 0;
            cp = (cp << 6) | (s[i + k] & 0x3Fu);
        }
        /* overlong forms, surrogates and values past U+10FFFF are not UTF-8 */
        if ((extra == 1 && cp < 0x80u) || (extra == 2 && cp < 0x800u) || (extra == 3 && cp < 0x10000u) ||
            cp > 0x10FFFFu || (cp >= 0xD800u && cp <= 0xDFFFu))
            return 0;
        i += extra + 1u;
    }
    return 1;
}

/* the same rules, in the same order, as bb_edge/wire/hello.py decode() */
bbrt_hello_status_t bbrt_hello_decode(const uint8_t *p, size_t n, bbrt_hello_t *out) {
    bbrt_hello_t h;
    uint32_t total;
    if (n < BBRT_HELLO_RECORD) return BBRT_HELLO_TRUNCATED;
    h.min_version = p[0];
    h.max_version = p[1];
    h.caps = bbrt_rd_u16(p + 2);
    h.boot_epoch = bbrt_rd_u32(p + 4);
    h.node_id = bbrt_rd_u32(p + 8);
    h.max_frame = bbrt_rd_u32(p + 12);
    h.window = bbrt_rd_u16(p + 16);
    h.name_len = bbrt_rd_u16(p + 18);
    if (h.min_version < 1u || h.max_version < h.min_version) return BBRT_HELLO_BAD_VERSION;
    if (h.caps & (uint16_t)~(BBRT_CAP_ARQ | BBRT_CAP_FRAG)) return BBRT_HELLO_BAD_FIELD;
    if (h.boot_epoch < 1u) return BBRT_HELLO_BAD_FIELD;
    if (h.max_frame < 64u) return BBRT_HELLO_BAD_FIELD;
    if (h.window < 1u || h.window > 32u) return BBRT_HELLO_BAD_FIELD;
    if (h.name_len > BBRT_HELLO_MAX_NAME) return BBRT_HELLO_BAD_FIELD;
    total = BBRT_HELLO_RECORD + h.name_len;
    if (n < total) return BBRT_HELLO_TRUNCATED;
    if (n > total) return BBRT_HELLO_BAD_LENGTH;
    if (!utf8_valid(p + BBRT_HELLO_RECORD, h.name_len)) return BBRT_HELLO_BAD_FIELD;
    bbrt_memcpy(h.program_hash, p + 20, 32u);
    bbrt_memset(h.name, 0, sizeof(h.name));
    bbrt_memcpy(h.name, p + BBRT_HELLO_RECORD, h.name_len);
    *out = h;
    return BBRT_HELLO_OK;
}

bbrt_hello_status_t bbrt_hello_encode(const bbrt_hello_t *h, uint8_t *out, size_t cap, size_t *written) {
    bbrt_hello_status_t st;
    bbrt_hello_t check;
    size_t total;
    if (h->name_len > BBRT_HELLO_MAX_NAME) return BBRT_HELLO_BAD_FIELD;
    total = BBRT_HELLO_RECORD + (size_t)h->name_len;
    if (cap < total) return BBRT_HELLO_TRUNCATED;
    out[0] = h->min_version;
    out[1] = h->max_version;
    bbrt_wr_u16(out + 2, h->caps);
    bbrt_wr_u32(out + 4, h->boot_epoch);
    bbrt_wr_u32(out + 8, h->node_id);
    bbrt_wr_u32(out + 12, h->max_frame);
    bbrt_wr_u16(out + 16, h->window);
    bbrt_wr_u16(out + 18, h->name_len);
    bbrt_memcpy(out + 20, h->program_hash, 32u);
    bbrt_memcpy(out + BBRT_HELLO_RECORD, h->name, h->name_len);
    st = bbrt_hello_decode(out, total, &check); /* one set of rules for both directions */
    if (st != BBRT_HELLO_OK) return st;
    *written = total;
    return BBRT_HELLO_OK;
}

static void wr_header(uint8_t *p, uint8_t type, uint8_t flags, uint32_t lseq) {
    p[0] = 0xBBu;
    p[1] = 0xA1u;
    p[2] = type;
    p[3] = flags;
    bbrt_wr_u32(p + 4, lseq);
}

size_t bbrt_link_hello_body(const bbrt_hello_t *h, int reply, uint8_t *out, size_t cap) {
    size_t n = 0;
    if (cap < BBRT_LINK_HEADER) return 0;
    wr_header(out, BBRT_LINK_HELLO, reply ? (uint8_t)BBRT_LINK_FLAG_REPLY : 0u, 0u);
    if (bbrt_hello_encode(h, out + BBRT_LINK_HEADER, cap - BBRT_LINK_HEADER, &n) != BBRT_HELLO_OK) return 0;
    return BBRT_LINK_HEADER + n;
}

/* ------------------------------------------------------------------ helpers */
static void raise_ev(bbrt_link_t *l, bbrt_link_event_t ev, uint32_t a, uint32_t b) {
    l->stats.events[ev]++;
    if (l->event) l->event(l->ctx, ev, a, b);
}

static void emit_raw(bbrt_link_t *l, const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
    l->stats.frames_out++;
    l->emit(l->ctx, a, na, b, nb);
}

/* An ACK that is due goes out before any other frame (as link.py's take_frames puts it first). */
static void flush_ack(bbrt_link_t *l) {
    uint8_t body[12];
    if (!l->ack_due) return;
    l->ack_due = 0u;
    wr_header(body, BBRT_LINK_ACK, 0u, l->cum);
    bbrt_wr_u32(body + 8, l->mask);
    l->stats.acks_out++;
    emit_raw(l, body, sizeof(body), 0, 0u);
}

static void emit(bbrt_link_t *l, const uint8_t *a, size_t na, uint32_t now) {
    flush_ack(l);
    l->last_sent = now;
    emit_raw(l, a, na, 0, 0u);
}

static uint32_t clamp(uint32_t v, uint32_t lo, uint32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

static uint32_t computed_rto(const bbrt_link_t *l) {
    uint32_t var;
    if (!l->have_rtt) return l->cfg.rto_initial;
    var = l->rttvar4 > l->cfg.granularity ? l->rttvar4 : l->cfg.granularity;
    return clamp((l->srtt8 + 4u) / 8u + var, l->cfg.rto_min, l->cfg.rto_max);
}

static void send_hello(bbrt_link_t *l, int reply, uint32_t now) {
    uint8_t body[BBRT_HELLO_MAX_BODY];
    size_t n = bbrt_link_hello_body(&l->local, reply, body, sizeof(body));
    if (n) emit(l, body, n, now);
    if (!reply) l->hello_due = now + l->rto;
}

static uint32_t window(const bbrt_link_t *l) {
    uint32_t w = l->local.window;
    if (l->have_peer && l->peer.window < w) w = l->peer.window;
    return w;
}

/* largest DATA frame body to send: the peer's max_frame, under our own MTU */
static uint32_t frame_cap(const bbrt_link_t *l) {
    uint32_t cap = BBRT_LINK_MTU;
    if (l->have_peer && l->peer.max_frame < cap) cap = l->peer.max_frame;
    return cap;
}

/* The adaptive DATA frame size (docs/wire.md "Frame size", link.py _frame_limit): under the cap. */
static uint32_t frame_limit(const bbrt_link_t *l) {
    uint32_t cap = frame_cap(l);
    return (!l->cfg.grow_after || l->fsize > cap) ? cap : l->fsize;
}

uint32_t bbrt_link_frame_size(const bbrt_link_t *l) { return l->have_peer ? frame_limit(l) : 0u; }

static void resize(bbrt_link_t *l, uint32_t size) {
    uint32_t cur = frame_limit(l);
    if (size != cur) {
        if (size < cur) l->stats.shrinks++;
        else l->stats.grows++;
        l->fsize = size;
        l->fgen++;
    }
    l->clean = 0u;
}

/* a DATA frame is sent again: halve the size, once per size generation (a burst is one loss) */
static void lost_frame(bbrt_link_t *l, const bbrt_link_slot_t *s) {
    l->clean = 0u;
    if (l->cfg.grow_after && l->have_peer && s->gen == l->fgen) {
        uint32_t cap = frame_cap(l), floor = cap < BBRT_LINK_FRAME_FLOOR ? cap : BBRT_LINK_FRAME_FLOOR;
        uint32_t half = frame_limit(l) / 2u;
        resize(l, half > floor ? half : floor);
    }
}

/* a frame cut at the size of the moment and more than half of it (a small one says nothing) */
static int full_size(const bbrt_link_t *l, const bbrt_link_slot_t *s) {
    uint32_t body = BBRT_LINK_HEADER + (s->frag ? BBRT_LINK_FRAG_HEADER : 0u) + s->len;
    return l->cfg.grow_after && s->gen == l->fgen && 2u * body > frame_limit(l);
}

/* n full-size frames acked at their first try: after grow_after in a row, double the size */
static void clean_frames(bbrt_link_t *l, uint32_t n) {
    l->clean += n;
    if (l->clean >= l->cfg.grow_after) {
        uint32_t cap = frame_cap(l), twice = 2u * frame_limit(l);
        resize(l, twice < cap ? twice : cap);
    }
}

/* a streamed message that will not complete: its owner hears so (its input is never marked ready) */
static void rasm_abort(bbrt_link_t *l, bbrt_link_rasm_t *r) {
    if (l->frag && r->used && !r->discard) (void)l->frag(l->ctx, BBRT_LFRAG_ABORT, 0u, r->total, 0, 0u);
    r->used = 0u;
}

static void rasm_clear(bbrt_link_t *l) {
    uint32_t i;
    for (i = 0; i < BBRT_LINK_RASM_MSGS; i++) rasm_abort(l, &l->rx[i]);
    bbrt_memset(l->rx, 0, sizeof(l->rx));
}

/* a streamed message is open: nothing else may land until it completes or is dropped */
static int stream_open(const bbrt_link_t *l) {
    uint32_t i;
    if (!l->frag) return 0;
    for (i = 0; i < BBRT_LINK_RASM_MSGS; i++)
        if (l->rx[i].used) return 1;
    return 0;
}

void bbrt_link_stream(bbrt_link_t *l, bbrt_link_frag_fn frag) { l->frag = frag; }

static int time_reached(uint32_t now, uint32_t t) { return (int32_t)(now - t) >= 0; }

void bbrt_link_init(bbrt_link_t *l, const bbrt_hello_t *local, const bbrt_link_config_t *cfg, uint8_t *txbuf,
                    size_t txcap, uint8_t *rasm, size_t rasm_cap, bbrt_link_emit_fn emit_fn,
                    bbrt_link_deliver_fn deliver, bbrt_link_event_fn event, void *ctx) {
    bbrt_memset(l, 0, sizeof(*l));
    l->local = *local;
    if (l->local.max_frame > BBRT_LINK_MTU) l->local.max_frame = BBRT_LINK_MTU;
    if (l->local.window > BBRT_LINK_WINDOW || l->local.window == 0u) l->local.window = BBRT_LINK_WINDOW;
    if (cfg) l->cfg = *cfg;
    else bbrt_link_default_config(&l->cfg);
    if (l->cfg.rto_max < l->cfg.rto_min) l->cfg.rto_max = l->cfg.rto_min;
    l->emit = emit_fn;
    l->deliver = deliver;
    l->event = event;
    l->ctx = ctx;
    l->txbuf = txbuf;
    l->txcap = txcap > 0xFFFFFF00u ? 0xFFFFFF00u : (uint32_t)txcap;
    l->rasm = rasm;
    l->rasm_cap = rasm_cap > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)rasm_cap;
    l->next_lseq = 1u;
    l->next_order = 1u;
    l->next_msg_id = 1u;
    l->rto = l->cfg.rto_initial;
    l->fsize = BBRT_LINK_START_FRAME;
}

void bbrt_link_start(bbrt_link_t *l, uint32_t now_ms) {
    l->started = 1u;
    l->last_heard = l->last_sent = now_ms;
    send_hello(l, 0, now_ms);
    flush_ack(l);
}

/* --------------------------------------------------------------- outbound */
/* Put one DATA frame out. Its timer is the RTO; for a loss-detected resend (fast) 2 SRTT (at least
 * rto_min, doubling with each fast resend of it in a row, as link.py and the MicroPython link) if shorter:
 * the line is alive, a noisy one loses the resend too and the window waits on it, but a loaded peer must
 * not be flooded either. */
static void transmit(bbrt_link_t *l, bbrt_link_slot_t *s, uint32_t now, int retransmit, int fast) {
    const bbrt_link_msg_t *m = &l->msgs[s->msg];
    uint8_t hdr[BBRT_LINK_HEADER + BBRT_LINK_FRAG_HEADER];
    size_t nh = BBRT_LINK_HEADER;
    uint32_t rto = l->rto;
    s->tries++;
    s->fast = (uint8_t)(fast != 0);
    s->fast_n = fast ? (uint8_t)(s->fast_n < 255u ? s->fast_n + 1u : 255u) : 0u;
    s->tx = ++l->tx;
    s->sent_at = now;
    if (fast && l->have_rtt) {
        uint32_t two_srtt = (l->srtt8 + 2u) / 4u;
        uint32_t shift = s->fast_n - 1u < 16u ? s->fast_n - 1u : 16u;
        if (two_srtt < l->cfg.rto_min) two_srtt = l->cfg.rto_min;
        /* doubled per fast resend in a row; a value past rto (or past 32 bits) is just rto */
        if (two_srtt <= (rto >> shift)) rto = two_srtt << shift;
    }
    s->deadline = now + rto;
    if (retransmit) {
        l->stats.retransmits++;
        lost_frame(l, s);
    }
    l->stats.data_out++;
    wr_header(hdr, BBRT_LINK_DATA, s->frag ? (uint8_t)BBRT_LINK_FLAG_FRAG : 0u, s->lseq);
    if (s->frag) {
        bbrt_wr_u32(hdr + 8, m->msg_id);
        bbrt_wr_u32(hdr + 12, s->off);
        bbrt_wr_u32(hdr + 16, m->len);
        nh += BBRT_LINK_FRAG_HEADER;
    }
    flush_ack(l);
    l->last_sent = now;
    emit_raw(l, hdr, nh, l->txbuf + m->off + s->off, s->len);
}

/* the lowest lseq in flight, else next_lseq */
static uint32_t low_unacked(const bbrt_link_t *l) {
    uint32_t i, low = l->next_lseq;
    for (i = 0; i < BBRT_LINK_WINDOW; i++)
        if (l->slots[i].used && l->slots[i].lseq < low) low = l->slots[i].lseq;
    return low;
}

/* the oldest envelope with bytes not yet cut into frames (BBRT_LINK_MAX_MSGS: none) */
static uint32_t next_to_cut(const bbrt_link_t *l) {
    uint32_t i, best = BBRT_LINK_MAX_MSGS;
    for (i = 0; i < BBRT_LINK_MAX_MSGS; i++) {
        const bbrt_link_msg_t *m = &l->msgs[i];
        if (!m->used || m->done || (m->frames && m->cut >= m->len)) continue;
        if (best == BBRT_LINK_MAX_MSGS || m->order < l->msgs[best].order) best = i;
    }
    return best;
}

static void give_up_msg(bbrt_link_t *l, uint32_t i, uint32_t code);

/* Cut and send frames while the window (lseq span above the oldest frame in flight) allows. */
static void pump(bbrt_link_t *l, uint32_t now) {
    if (!l->up) return;
    for (;;) {
        uint32_t mi = next_to_cut(l), k, cap = frame_limit(l), fc = frame_cap(l);
        bbrt_link_msg_t *m;
        bbrt_link_slot_t *s = 0;
        if (mi == BBRT_LINK_MAX_MSGS) return;
        if (l->next_lseq > low_unacked(l) + window(l) - 1u) return;
        for (k = 0; k < BBRT_LINK_WINDOW && !s; k++)
            if (!l->slots[k].used) s = &l->slots[k];
        if (!s) return;
        m = &l->msgs[mi];
        /* an envelope's first frame holds its whole header (link.py FIRST_FRAME) */
        if (m->frames == 0u && cap < (fc < BBRT_LINK_FIRST_FRAME ? fc : BBRT_LINK_FIRST_FRAME))
            cap = fc < BBRT_LINK_FIRST_FRAME ? fc : BBRT_LINK_FIRST_FRAME;
        if (m->frames == 0u) { /* first frame: whole, or the start of a fragmented message */
            if (BBRT_LINK_HEADER + m->len > cap) {
                if (!((l->peer.caps & BBRT_CAP_FRAG) && (l->local.caps & BBRT_CAP_FRAG))) {
                    give_up_msg(l, mi, 2u);
                    continue;
                }
                m->msg_id = l->next_msg_id;
                l->next_msg_id = l->next_msg_id == 0xFFFFFFFFu ? 1u : l->next_msg_id + 1u;
            } else {
                m->msg_id = 0u;
            }
        }
        bbrt_memset(s, 0, sizeof(*s));
        s->used = 1u;
        s->msg = mi;
        s->frag = m->msg_id != 0u;
        s->gen = l->fgen;
        s->off = m->cut;
        if (s->frag) {
            uint32_t chunk = cap - (BBRT_LINK_HEADER + BBRT_LINK_FRAG_HEADER);
            s->len = m->len - m->cut < chunk ? m->len - m->cut : chunk;
        } else {
            s->len = m->len;
        }
        m->cut += s->len;
        m->frames++;
        s->lseq = l->next_lseq++;
        transmit(l, s, now, 0, 0);
    }
}

/* Clear receive state and what is in flight; every envelope not fully acknowledged is cut and
 * sent again from lseq 1, in order, message ids from 1 (link.py re-queues whole envelopes so). */
static void new_session(bbrt_link_t *l) {
    uint32_t i;
    l->cum = 0u;
    l->mask = 0u;
    l->ack_due = 0u;
    rasm_clear(l);
    l->next_lseq = 1u;
    l->next_msg_id = 1u;
    bbrt_memset(l->slots, 0, sizeof(l->slots));
    for (i = 0; i < BBRT_LINK_MAX_MSGS; i++) {
        bbrt_link_msg_t *m = &l->msgs[i];
        if (!m->used || m->done) continue;
        m->cut = 0u;
        m->frames = 0u;
        m->acked = 0u;
        m->msg_id = 0u;
    }
}

/* the transmit buffer is a ring in queue order: release done envelopes from its head */
static void release_done(bbrt_link_t *l) {
    for (;;) {
        uint32_t i, head = BBRT_LINK_MAX_MSGS;
        for (i = 0; i < BBRT_LINK_MAX_MSGS; i++)
            if (l->msgs[i].used && (head == BBRT_LINK_MAX_MSGS || l->msgs[i].order < l->msgs[head].order)) head = i;
        if (head == BBRT_LINK_MAX_MSGS || !l->msgs[head].done) return;
        l->msgs[head].used = 0u;
    }
}

/* Drop envelope i and its frames in flight (GaveUp once for it). */
static void give_up_msg(bbrt_link_t *l, uint32_t i, uint32_t code) {
    uint32_t k;
    for (k = 0; k < BBRT_LINK_WINDOW; k++)
        if (l->slots[k].used && l->slots[k].msg == i) l->slots[k].used = 0u;
    l->msgs[i].done = 1u;
    release_done(l);
    raise_ev(l, BBRT_LEV_GAVE_UP, l->msgs[i].order, code);
}

/* A frame ran out of retries: give up every queued envelope and start over with the next epoch,
 * so the peer clears its receive state too (link.py _abandon). */
static void abandon(bbrt_link_t *l, uint32_t now) {
    for (;;) {
        uint32_t i, first = BBRT_LINK_MAX_MSGS;
        for (i = 0; i < BBRT_LINK_MAX_MSGS; i++)
            if (l->msgs[i].used && !l->msgs[i].done &&
                (first == BBRT_LINK_MAX_MSGS || l->msgs[i].order < l->msgs[first].order))
                first = i;
        if (first == BBRT_LINK_MAX_MSGS) break;
        give_up_msg(l, first, 1u);
    }
    bbrt_memset(l->msgs, 0, sizeof(l->msgs));
    new_session(l);
    if (l->fsize > BBRT_LINK_START_FRAME) l->fsize = BBRT_LINK_START_FRAME; /* frames cut too big may be why */
    l->fgen++;
    {
        uint32_t next = l->local.boot_epoch + 1u ? l->local.boot_epoch + 1u : 1u;
        uint32_t stored = l->next_epoch ? l->next_epoch(l->ctx) : 0u;
        l->local.boot_epoch = stored > next ? stored : next;
    }
    l->have_peer = 0u;
    l->up = 0u;
    l->version = 0u;
    l->mismatch = 0u;
    l->rto = computed_rto(l);
    send_hello(l, 0, now);
}

/* ------------------------------------------------------------------ liveness */
static void heard(bbrt_link_t *l, uint32_t now, int monitor) {
    uint32_t i;
    l->last_heard = now;
    if (monitor) l->monitored = 1u;
    if (l->peer_down) {
        l->peer_down = 0u;
        raise_ev(l, BBRT_LEV_PEER_UP, 0u, 0u);
        for (i = 0; i < BBRT_LINK_WINDOW; i++) /* resend at once what it missed */
            if (l->slots[i].used) l->slots[i].deadline = now;
        l->rto = computed_rto(l);
    }
}

/* ------------------------------------------------------------------ HELLO */
static int on_hello(bbrt_link_t *l, const uint8_t *body, size_t n, uint32_t now) {
    bbrt_hello_t h;
    bbrt_hello_status_t st;
    uint32_t v;
    int reply, had = l->have_peer;
    uint32_t old_epoch = l->peer.boot_epoch;
    if (body[3] & (uint8_t)~BBRT_LINK_FLAG_REPLY || bbrt_rd_u32(body + 4) != 0u) {
        raise_ev(l, BBRT_LEV_BAD_HELLO, BBRT_HELLO_BAD_FIELD, 0u);
        return 0;
    }
    st = bbrt_hello_decode(body + BBRT_LINK_HEADER, n - BBRT_LINK_HEADER, &h);
    if (st != BBRT_HELLO_OK) {
        raise_ev(l, BBRT_LEV_BAD_HELLO, (uint32_t)st, 0u);
        return 0;
    }
    reply = (body[3] & BBRT_LINK_FLAG_REPLY) != 0u;
    if (had && h.node_id == l->peer.node_id && h.boot_epoch < l->peer.boot_epoch) {
        raise_ev(l, BBRT_LEV_EPOCH_REGRESSED, l->peer.boot_epoch, h.boot_epoch);
        return 0;
    }
    heard(l, now, 1);
    if (!reply) send_hello(l, 1, now); /* every HELLO without REPLY is answered, even on a mismatch */
    if (had && h.node_id == l->peer.node_id && h.boot_epoch == l->peer.boot_epoch) return 1; /* a repeat */
    l->peer = h;
    l->have_peer = 1u;
    if (had) raise_ev(l, BBRT_LEV_PEER_RESTARTED, old_epoch, h.boot_epoch);
    new_session(l);
    v = h.max_version < l->local.max_version ? h.max_version : l->local.max_version;
    if (v < h.min_version || v < l->local.min_version) {
        l->up = 0u;
        l->version = 0u;
        l->mismatch = 1u;
        raise_ev(l, BBRT_LEV_VERSION_MISMATCH, h.min_version, h.max_version);
        return 1;
    }
    l->version = v;
    l->up = 1u;
    l->mismatch = 0u;
    raise_ev(l, BBRT_LEV_LINK_UP, v, h.boot_epoch);
    return 1;
}

/* ------------------------------------------------------------------- ACK */
static int bit_length(uint32_t m) {
    int n = 0;
    while (m) {
        n++;
        m >>= 1;
    }
    return n;
}

static int on_ack(bbrt_link_t *l, uint32_t cum, uint32_t mask, uint32_t now) {
    uint32_t highest = l->up ? l->next_lseq - 1u : 0u, i, newest_tx = 0u;
    bbrt_link_slot_t *sample = 0;
    uint32_t sample_sent = 0u, clean = 0u, gen = l->fgen;
    int any = 0;
    /* an ACK that claims a frame never sent in this session changes nothing */
    if ((uint64_t)cum + (uint64_t)bit_length(mask) > (uint64_t)highest) {
        raise_ev(l, BBRT_LEV_ACK_UNKNOWN, cum, mask);
        return 0;
    }
    heard(l, now, 1);
    l->stats.acks_in++;
    for (i = 0; i < BBRT_LINK_WINDOW; i++) {
        bbrt_link_slot_t *s = &l->slots[i];
        bbrt_link_msg_t *m;
        uint32_t d;
        if (!s->used) continue;
        d = s->lseq - cum - 1u;
        if (!(s->lseq <= cum || (d < 32u && ((mask >> d) & 1u)))) continue;
        any = 1;
        /* what was delivered after what: a frame sent before the latest transmission of a frame acked
         * now was lost or refused (a line does not reorder); a resent frame says so only if the ACK came
         * at least SRTT/2 after its resend (sooner, it answers an earlier transmission), as link.py */
        if (s->tx > newest_tx &&
            (s->tries == 1u || (l->have_rtt && (uint64_t)(now - s->sent_at) * 16u >= (uint64_t)l->srtt8)))
            newest_tx = s->tx;
        /* Karn's rule: only a frame sent once gives an RTT sample; the newest such frame gives it */
        if (s->tries == 1u && (!sample || s->lseq > sample->lseq)) {
            sample = s;
            sample_sent = s->sent_at;
        }
        if (s->tries == 1u && full_size(l, s)) clean++;
        s->used = 0u;
        m = &l->msgs[s->msg];
        m->acked++;
        if (m->cut >= m->len && m->acked == m->frames) m->done = 1u;
    }
    if (!any) return 1;
    release_done(l);
    if (sample) {
        uint32_t r = now - sample_sent;
        l->stats.rtt_samples++;
        if (!l->have_rtt) {
            l->srtt8 = r * 8u;
            l->rttvar4 = r * 2u;
            l->have_rtt = 1u;
        } else {
            uint32_t srtt = (l->srtt8 + 4u) / 8u;
            uint32_t err = r > srtt ? r - srtt : srtt - r;
            l->rttvar4 = l->rttvar4 - l->rttvar4 / 4u + err;   /* rttvar = 3/4 rttvar + 1/4 |srtt - r| */
            l->srtt8 = l->srtt8 - l->srtt8 / 8u + r;           /* srtt = 7/8 srtt + 1/8 r */
        }
        l->rto = computed_rto(l);
    }
    /* RFC 6298 5.3: an ACK of new data restarts the timer of what is still in flight (as link.py: per-frame
     * timers fired for the back of every window on a slow line) */
    for (i = 0; i < BBRT_LINK_WINDOW; i++) {
        bbrt_link_slot_t *s = &l->slots[i];
        if (s->used && !s->fast && !time_reached(s->deadline, now + l->rto)) s->deadline = now + l->rto;
    }
    /* a frame sent before one now acknowledged and still in flight was lost: resend it now, in lseq order */
    for (;;) {
        bbrt_link_slot_t *next = 0;
        for (i = 0; i < BBRT_LINK_WINDOW; i++) {
            bbrt_link_slot_t *s = &l->slots[i];
            if (s->used && s->tx < newest_tx && (!next || s->lseq < next->lseq)) next = s;
        }
        if (!next) break;
        transmit(l, next, now, 1, 1); /* its tx becomes the newest: not picked again */
    }
    /* counted after the losses this ACK shows (they may shrink the size) */
    if (clean && gen == l->fgen) clean_frames(l, clean);
    return 1;
}

/* ------------------------------------------------------------------ DATA */
/* a free region of `total` bytes in the reassembly buffer (first fit), or 0xFFFFFFFF */
static uint32_t rasm_place(const bbrt_link_t *l, uint32_t total) {
    uint32_t at = 0u;
    for (;;) {
        uint32_t i, clash_end = 0u;
        int clash = 0;
        if (total > l->rasm_cap || at > l->rasm_cap - total) return 0xFFFFFFFFu;
        for (i = 0; i < BBRT_LINK_RASM_MSGS; i++) {
            const bbrt_link_rasm_t *r = &l->rx[i];
            if (r->used && at < r->base + r->total && r->base < at + total) {
                clash = 1;
                if (r->base + r->total > clash_end) clash_end = r->base + r->total;
            }
        }
        if (!clash) return at;
        at = clash_end;
    }
}

/* Validate one fragment completely (link.py _on_fragment, same order); 0 when accepted
 * (copied; *done set to the message when it is complete), else a bbrt_frag_code_t. */
static uint32_t frag_accept(bbrt_link_t *l, uint32_t lseq, uint32_t msg, uint32_t off, uint32_t total,
                            const uint8_t *chunk, uint32_t len, uint32_t now, bbrt_link_rasm_t **done) {
    uint32_t i, k, end = off + len, in_use = 0u;
    bbrt_link_rasm_t *r = 0;
    *done = 0;
    if (msg == 0u) return BBRT_FRAG_BAD_FIELD;
    if ((uint64_t)off + len > total || total <= len) return BBRT_FRAG_OUT_OF_RANGE;
    for (i = 0; i < BBRT_LINK_RASM_MSGS; i++) {
        if (!l->rx[i].used) continue;
        in_use += l->rx[i].total;
        if (l->rx[i].msg_id == msg) r = &l->rx[i];
    }
    if (!r && l->frag) { /* streaming: the header fragment opens it, the owner validates the header */
        uint32_t take;
        if (lseq != l->cum + 1u) return BBRT_FRAG_ORDER;
        if (in_use) return BBRT_FRAG_BUDGET; /* one streamed message at a time */
        if (off != 0u) {
            /* every earlier lseq arrived, so its head did and was dropped (its reassembly timed out on a slow
             * line): refusing the rest would pin the window until the sender gives the session up. Take the
             * rest, acknowledged, into a discarding record (the part before `off` counted as held); the
             * message is never handed up, as the timed-out one was not */
            r = &l->rx[0];
            bbrt_memset(r, 0, sizeof(*r));
            r->used = 1u;
            r->discard = 1u;
            r->msg_id = msg;
            r->total = total;
            r->first_at = now;
            r->have = off + len;
            r->n = 1u;
            r->iv[0].off = 0u;
            r->iv[0].len = off + len;
            if (r->have == r->total) *done = r;
            return 0u;
        }
        take = l->frag(l->ctx, BBRT_LFRAG_BEGIN, 0u, total, chunk, len);
        if (take != BBRT_LFRAG_TAKE && take != BBRT_LFRAG_DISCARD) return take;
        r = &l->rx[0];
        bbrt_memset(r, 0, sizeof(*r));
        r->used = 1u;
        r->discard = (uint8_t)(take == BBRT_LFRAG_DISCARD);
        r->msg_id = msg;
        r->total = total;
        r->first_at = now;
        r->have = len;
        r->n = 1u;
        r->iv[0].off = 0u;
        r->iv[0].len = len;
        if (r->have == r->total) *done = r; /* cannot happen: total > len (checked above) */
        return 0u;
    }
    if (!r) {
        uint32_t base;
        bbrt_link_rasm_t *slot = 0;
        if (total > l->rasm_cap - in_use) return BBRT_FRAG_BUDGET;
        /* messages start in lseq order: a message held while an earlier one is refused would wait
         * forever for fragments the window cannot reach (the refused frame pins the window) */
        if (lseq != l->cum + 1u) return BBRT_FRAG_ORDER;
        for (i = 0; i < BBRT_LINK_RASM_MSGS && !slot; i++)
            if (!l->rx[i].used) slot = &l->rx[i];
        base = rasm_place(l, total);
        if (!slot || base == 0xFFFFFFFFu) return BBRT_FRAG_BUDGET; /* fits the budget, not this buffer now */
        bbrt_memset(slot, 0, sizeof(*slot));
        r = slot;
        r->msg_id = msg;
        r->total = total;
        r->first_at = now;
        r->base = base;
    } else {
        if (total != r->total) return BBRT_FRAG_LENGTH_MISMATCH;
        for (i = 0; i < r->n; i++) {
            if (r->iv[i].off == off && r->iv[i].len == len) return 0u; /* the same chunk again: nothing new */
            if (off < r->iv[i].off + r->iv[i].len && r->iv[i].off < end) return BBRT_FRAG_OVERLAP;
        }
    }
    /* insert [off, end) in order, merging with adjacent ranges */
    for (i = 0; i < r->n && r->iv[i].off < off; i++) {}
    {
        int left = i > 0 && r->iv[i - 1].off + r->iv[i - 1].len == off;
        int right = i < r->n && r->iv[i].off == end;
        if (!left && !right && r->n >= BBRT_LINK_MAX_CHUNKS) {
            if (r->n == 0u) r->used = 0u;
            return BBRT_FRAG_BUDGET; /* too scattered to track now: not acked, sent again */
        }
        r->used = 1u;
        if (!l->frag) bbrt_memcpy(l->rasm + r->base + off, chunk, len);
        else if (!r->discard) (void)l->frag(l->ctx, BBRT_LFRAG_PIECE, off, total, chunk, len);
        r->have += len;
        if (left && right) {
            r->iv[i - 1].len += len + r->iv[i].len;
            for (k = i; k + 1 < r->n; k++) r->iv[k] = r->iv[k + 1];
            r->n--;
        } else if (left) {
            r->iv[i - 1].len += len;
        } else if (right) {
            r->iv[i].off = off;
            r->iv[i].len += len;
        } else {
            for (k = r->n; k > i; k--) r->iv[k] = r->iv[k - 1];
            r->iv[i].off = off;
            r->iv[i].len = len;
            r->n++;
        }
    }
    if (r->have == r->total) *done = r;
    return 0u;
}

static int on_data(bbrt_link_t *l, const uint8_t *body, size_t n, uint32_t now) {
    uint32_t lseq = bbrt_rd_u32(body + 4);
    int frag = (body[3] & BBRT_LINK_FLAG_FRAG) != 0u;
    if (!l->up) {
        raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, l->mismatch ? BBRT_LF_VERSION : BBRT_LF_NO_SESSION, 0u);
        if (!l->mismatch) send_hello(l, 0, now);
        return 0;
    }
    if (l->hold) return 0; /* not acked: the sender sends it again when we can take it */
    l->stats.data_in++;
    if (lseq <= l->cum || (lseq - l->cum <= 32u && ((l->mask >> (lseq - l->cum - 1u)) & 1u))) {
        heard(l, now, 1);
        l->stats.duplicates++;
        raise_ev(l, BBRT_LEV_DUPLICATE, lseq, 0u);
        l->ack_due = 1u;
        return 1;
    }
    if (lseq - l->cum > l->local.window) {
        raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, BBRT_LF_OUT_OF_WINDOW, lseq);
        return 0;
    }
    /* record lseq (set its bit, slide cum over the received prefix) and send the ACK at once, before the
     * envelope is handed up: a handler that computes for seconds (an MCU running a model) would otherwise
     * hold the ACK that long and the sender resend the frame meanwhile (as link.py and the MicroPython
     * port do; the frames out keep their order: the ACK still precedes whatever the handling sends) */
    if (!frag && stream_open(l)) return 0; /* not acked: sent again once the open message is done */
    if (!frag) {
        l->mask |= 1u << (lseq - l->cum - 1u);
        while (l->mask & 1u) {
            l->mask >>= 1;
            l->cum++;
        }
        l->ack_due = 1u;
        flush_ack(l);
        l->stats.delivered++;
        if (l->deliver) l->deliver(l->ctx, body + BBRT_LINK_HEADER, n - BBRT_LINK_HEADER);
    } else {
        uint32_t msg = bbrt_rd_u32(body + 8), off = bbrt_rd_u32(body + 12), total = bbrt_rd_u32(body + 16);
        bbrt_link_rasm_t *done = 0;
        uint32_t why = frag_accept(l, lseq, msg, off, total, body + 20, (uint32_t)(n - 20u), now, &done);
        if (why) {
            raise_ev(l, BBRT_LEV_FRAGMENT_REJECTED, msg, why);
            return 0;
        }
        l->mask |= 1u << (lseq - l->cum - 1u);
        while (l->mask & 1u) {
            l->mask >>= 1;
            l->cum++;
        }
        l->ack_due = 1u;
        if (done) {
            flush_ack(l);
            /* freed before it is handed up: the envelope stays intact in the buffer until the next
             * fragment is accepted, which cannot happen during the (synchronous) delivery */
            done->used = 0u;
            l->stats.delivered++;
            if (l->frag) { /* the fragment set is complete: only now may the owner use the message */
                if (!done->discard) (void)l->frag(l->ctx, BBRT_LFRAG_DONE, 0u, done->total, 0, 0u);
            } else if (l->deliver) {
                l->deliver(l->ctx, l->rasm + done->base, done->total);
            }
        }
    }
    heard(l, now, 1);
    return 1;
}

/* ------------------------------------------------------------------ receive */
/* structure checks of one frame body (link.py parse_frame, same order); 0 or the event raised */
static int check_frame(bbrt_link_t *l, const uint8_t *b, size_t n) {
    uint32_t limit = l->local.max_frame > BBRT_HELLO_MAX_BODY ? l->local.max_frame : BBRT_HELLO_MAX_BODY;
    uint8_t type, flags;
    uint32_t lseq;
    if (n < BBRT_LINK_HEADER) return raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, BBRT_LF_TRUNCATED, 0u), 1;
    if (b[0] != 0xBBu || b[1] != 0xA1u) return raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, BBRT_LF_BAD_MAGIC, 0u), 1;
    type = b[2];
    flags = b[3];
    lseq = bbrt_rd_u32(b + 4);
    if (type == BBRT_LINK_HELLO) return 0; /* on_hello checks it */
    if (type != BBRT_LINK_DATA && type != BBRT_LINK_ACK && type != BBRT_LINK_HEARTBEAT)
        return raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, BBRT_LF_BAD_TYPE, type), 1;
    if (type != BBRT_LINK_ACK && n > limit) return raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, BBRT_LF_TOO_LARGE, 0u), 1;
    if (type == BBRT_LINK_DATA) {
        if (flags & (uint8_t)~BBRT_LINK_FLAG_FRAG || lseq == 0u)
            return raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, BBRT_LF_BAD_FIELD, 0u), 1;
        if ((!(flags & BBRT_LINK_FLAG_FRAG) && n == BBRT_LINK_HEADER) ||
            ((flags & BBRT_LINK_FLAG_FRAG) && n <= BBRT_LINK_HEADER + BBRT_LINK_FRAG_HEADER))
            return raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, BBRT_LF_BAD_LENGTH, 0u), 1;
        return 0;
    }
    if (flags) return raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, BBRT_LF_BAD_FIELD, 0u), 1;
    if (type == BBRT_LINK_ACK) {
        if (n != 12u) return raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, BBRT_LF_BAD_LENGTH, 0u), 1;
        return 0;
    }
    if (lseq != 0u) return raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, BBRT_LF_BAD_FIELD, 0u), 1;
    if ((n - BBRT_LINK_HEADER) % 5u) return raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, BBRT_LF_BAD_LENGTH, 0u), 1;
    {
        size_t k;
        for (k = BBRT_LINK_HEADER; k < n; k += 5u)
            if (b[k + 4] > 1u) return raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, BBRT_LF_BAD_FIELD, 0u), 1;
    }
    return 0;
}

void bbrt_link_receive(bbrt_link_t *l, const uint8_t *body, size_t n, uint32_t now_ms) {
    int ok = 0;
    l->stats.frames_in++;
    if (n >= 2u && body[0] == 0xBBu && body[1] == 0xE1u) { /* bare v1 envelope: handed up, never acked */
        if (l->mismatch) {
            raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, BBRT_LF_VERSION, 0u);
            return;
        }
        if (l->hold) return;
        heard(l, now_ms, 0);
        raise_ev(l, BBRT_LEV_BARE_ENVELOPE, 0u, 0u);
        if (l->deliver) l->deliver(l->ctx, body, n);
        flush_ack(l);
        return;
    }
    if (check_frame(l, body, n)) return;
    switch (body[2]) {
    case BBRT_LINK_HELLO:
        ok = on_hello(l, body, n, now_ms);
        break;
    case BBRT_LINK_DATA:
        ok = on_data(l, body, n, now_ms);
        break;
    case BBRT_LINK_ACK:
        ok = on_ack(l, bbrt_rd_u32(body + 4), bbrt_rd_u32(body + 8), now_ms);
        break;
    default: /* HEARTBEAT */
        heard(l, now_ms, 1);
        raise_ev(l, BBRT_LEV_HEARTBEAT, (uint32_t)((n - BBRT_LINK_HEADER) / 5u), 0u);
        ok = 1;
        break;
    }
    if (ok) pump(l, now_ms);
    flush_ack(l);
}

/* ------------------------------------------------------------------ send */
uint32_t bbrt_link_unacked(const bbrt_link_t *l) {
    uint32_t i, n = 0;
    for (i = 0; i < BBRT_LINK_MAX_MSGS; i++) n += l->msgs[i].used && !l->msgs[i].done;
    return n;
}

/* where an envelope of n bytes would go in the transmit ring (0xFFFFFFFF: no room now) */
static uint32_t tx_place(const bbrt_link_t *l, uint32_t n, uint32_t *entry) {
    uint32_t i, head = BBRT_LINK_MAX_MSGS, tail = BBRT_LINK_MAX_MSGS, free_entry = BBRT_LINK_MAX_MSGS;
    uint32_t head_off, tail_end;
    for (i = 0; i < BBRT_LINK_MAX_MSGS; i++) {
        const bbrt_link_msg_t *m = &l->msgs[i];
        if (!m->used) {
            if (free_entry == BBRT_LINK_MAX_MSGS) free_entry = i;
            continue;
        }
        if (head == BBRT_LINK_MAX_MSGS || m->order < l->msgs[head].order) head = i;
        if (tail == BBRT_LINK_MAX_MSGS || m->order > l->msgs[tail].order) tail = i;
    }
    *entry = free_entry;
    if (free_entry == BBRT_LINK_MAX_MSGS || n > l->txcap) return 0xFFFFFFFFu;
    if (head == BBRT_LINK_MAX_MSGS) return 0u;
    head_off = l->msgs[head].off;
    tail_end = l->msgs[tail].off + l->msgs[tail].len;
    if (tail_end > head_off || (tail_end == head_off && tail == head)) { /* not wrapped: [head, tail_end) in use */
        if (l->txcap - tail_end >= n) return tail_end;
        if (head_off >= n) return 0u;
        return 0xFFFFFFFFu;
    }
    return head_off - tail_end >= n ? tail_end : 0xFFFFFFFFu; /* wrapped: the gap between */
}

int bbrt_link_can_send(const bbrt_link_t *l, size_t n) {
    uint32_t entry;
    if (!l->up || n == 0u || n > l->txcap) return 0;
    return tx_place(l, (uint32_t)n, &entry) != 0xFFFFFFFFu;
}

bbrt_link_status_t bbrt_link_send(bbrt_link_t *l, const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                                  uint32_t now_ms) {
    size_t total = na + nb;
    uint32_t off, entry;
    bbrt_link_msg_t *m;
    if (!l->up) return BBRT_LINK_E_DOWN;
    if (total == 0u || total > l->txcap) return BBRT_LINK_E_TOO_LARGE;
    off = tx_place(l, (uint32_t)total, &entry);
    if (off == 0xFFFFFFFFu) return BBRT_LINK_E_BUSY;
    m = &l->msgs[entry];
    bbrt_memset(m, 0, sizeof(*m));
    m->used = 1u;
    m->off = off;
    m->len = (uint32_t)total;
    m->order = l->next_order++;
    if (na) bbrt_memcpy(l->txbuf + off, a, na);
    if (nb) bbrt_memcpy(l->txbuf + off + na, b, nb);
    pump(l, now_ms);
    flush_ack(l);
    return BBRT_LINK_OK;
}

/* ------------------------------------------------------------------ timers */
void bbrt_link_poll(bbrt_link_t *l, uint32_t now_ms) {
    uint32_t i;
    if (!l->started) return;
    if (!l->have_peer && time_reached(now_ms, l->hello_due)) send_hello(l, 0, now_ms);
    if (l->cfg.dead_after && l->monitored && !l->peer_down && now_ms - l->last_heard >= l->cfg.dead_after) {
        l->peer_down = 1u;
        raise_ev(l, BBRT_LEV_PEER_DOWN, 0u, 0u);
    }
    for (i = 0; i < BBRT_LINK_RASM_MSGS; i++) {
        bbrt_link_rasm_t *r = &l->rx[i];
        if (r->used && now_ms - r->first_at >= l->cfg.reassembly_timeout) {
            rasm_abort(l, r);
            raise_ev(l, BBRT_LEV_REASSEMBLY_TIMEOUT, r->msg_id, r->have);
        }
    }
    if (!l->peer_down) {
        int expired = 0;
        for (i = 0; i < BBRT_LINK_WINDOW; i++)
            if (l->slots[i].used && time_reached(now_ms, l->slots[i].deadline)) expired = 1;
        if (expired) {
            uint32_t tx_before = l->tx;
            const bbrt_link_slot_t *oldest = 0;
            for (i = 0; i < BBRT_LINK_WINDOW; i++) {
                const bbrt_link_slot_t *s = &l->slots[i];
                if (!s->used) continue;
                if (time_reached(now_ms, s->deadline) && s->tries >= l->cfg.max_retries) {
                    abandon(l, now_ms);
                    flush_ack(l);
                    return;
                }
                if (!oldest || s->lseq < oldest->lseq) oldest = s;
            }
            /* back off when the oldest frame's timer expires (RFC 6298 5.5: one timer, for the earliest
             * frame); later frames expiring in its shadow, and loss-detected resends, do not compound it */
            if (oldest && time_reached(now_ms, oldest->deadline) && !oldest->fast)
                l->rto = l->rto > l->cfg.rto_max / 2u ? l->cfg.rto_max : l->rto * 2u;
            for (;;) { /* expired frames in lseq order, each once */
                bbrt_link_slot_t *next = 0;
                for (i = 0; i < BBRT_LINK_WINDOW; i++) {
                    bbrt_link_slot_t *s = &l->slots[i];
                    if (s->used && time_reached(now_ms, s->deadline) && s->tx <= tx_before &&
                        (!next || s->lseq < next->lseq))
                        next = s;
                }
                if (!next) break;
                transmit(l, next, now_ms, 1, next->fast); /* its tx is now newer than tx_before */
            }
        }
    }
    pump(l, now_ms);
    if (l->cfg.hb_interval && now_ms - l->last_sent >= l->cfg.hb_interval) {
        uint8_t hb[BBRT_LINK_HEADER];
        wr_header(hb, BBRT_LINK_HEARTBEAT, 0u, 0u);
        l->stats.heartbeats_out++;
        emit(l, hb, sizeof(hb), now_ms);
    }
    flush_ack(l);
}

uint32_t bbrt_link_next_deadline(const bbrt_link_t *l, uint32_t now_ms) {
    uint32_t best = 0xFFFFFFFFu, i;
#define AT(t)                                                           \
    do {                                                                \
        uint32_t left_ = time_reached(now_ms, (t)) ? 0u : (t) - now_ms; \
        if (left_ < best) best = left_;                                 \
    } while (0)
    if (!l->started) return best;
    if (!l->have_peer) AT(l->hello_due);
    if (l->cfg.hb_interval) AT(l->last_sent + l->cfg.hb_interval);
    if (l->cfg.dead_after && l->monitored && !l->peer_down) AT(l->last_heard + l->cfg.dead_after);
    if (!l->peer_down)
        for (i = 0; i < BBRT_LINK_WINDOW; i++)
            if (l->slots[i].used) AT(l->slots[i].deadline);
    for (i = 0; i < BBRT_LINK_RASM_MSGS; i++)
        if (l->rx[i].used) AT(l->rx[i].first_at + l->cfg.reassembly_timeout);
#undef AT
    return best;
}
