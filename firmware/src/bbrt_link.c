/* The link layer of docs/wire.md in C99: handshake, epochs, ARQ with RFC 6298
 * timers and Karn's rule, fragmentation/reassembly, heartbeats. No heap, no clock:
 * time comes in as now_ms; every u32 time comparison is wrap-safe. */
#include "bbrt_link.h"
#include "bbrt.h"
#include "bbrt_internal.h"

#define ELAPSED(now, t) ((uint32_t)((now) - (t)))

static const char *const EVENT_NAMES[BBRT_LEV__COUNT] = {
    "None", "LinkUp", "VersionMismatch", "EpochRegressed", "PeerRestarted", "BadHello", "BadLinkFrame",
    "AckUnknown", "FragmentRejected", "ReassemblyTimeout", "GaveUp", "PeerDown", "PeerUp", "NotReady",
    "Duplicate", "BareEnvelope"};

const char *bbrt_link_event_name(bbrt_link_event_t ev) {
    return (unsigned)ev < BBRT_LEV__COUNT ? EVENT_NAMES[ev] : "?";
}

void bbrt_link_default_config(bbrt_link_config_t *cfg) {
    cfg->rto_initial = 1000u;
    cfg->rto_min = 200u;
    cfg->rto_max = 8000u;
    cfg->max_retries = 12u;
    cfg->hb_interval = 1000u;
    cfg->dead_after = 3500u;
    cfg->reassembly_timeout = 10000u;
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
static void raise_ev(bbrt_link_t *l, bbrt_link_event_t ev, uint32_t arg) {
    l->stats.events[ev]++;
    if (l->event) l->event(l->ctx, ev, arg);
}

static void emit(bbrt_link_t *l, const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint32_t now) {
    l->stats.frames_out++;
    l->last_tx = now;
    l->emit(l->ctx, a, na, b, nb);
}

static void send_hello(bbrt_link_t *l, int reply, uint32_t now) {
    uint8_t body[BBRT_HELLO_MAX_BODY];
    size_t n = bbrt_link_hello_body(&l->local, reply, body, sizeof(body));
    if (n) emit(l, body, n, 0, 0u, now);
    if (!reply) l->hello_at = now;
}

static void send_ack(bbrt_link_t *l, uint32_t now) {
    uint8_t body[12];
    wr_header(body, BBRT_LINK_ACK, 0u, l->rx_cum);
    bbrt_wr_u32(body + 8, l->rx_mask);
    l->stats.acks_out++;
    emit(l, body, sizeof(body), 0, 0u, now);
}

static uint32_t clamp_rto(const bbrt_link_t *l, uint32_t rto) {
    if (rto < l->cfg.rto_min) rto = l->cfg.rto_min;
    if (rto > l->cfg.rto_max) rto = l->cfg.rto_max;
    return rto;
}

static uint32_t window(const bbrt_link_t *l) {
    uint32_t w = l->local.window;
    if (l->have_peer && l->peer.window < w) w = l->peer.window;
    return w;
}

static uint32_t frame_cap(const bbrt_link_t *l) {
    uint32_t cap = BBRT_LINK_MTU;
    if (l->have_peer && l->peer.max_frame < cap) cap = l->peer.max_frame;
    return cap;
}

static void rasm_clear(bbrt_link_t *l) {
    l->rasm_msg = 0u;
    l->rasm_total = 0u;
    l->rasm_have = 0u;
    l->rasm_n = 0u;
}

void bbrt_link_init(bbrt_link_t *l, const bbrt_hello_t *local, const bbrt_link_config_t *cfg, uint8_t *rasm,
                    size_t rasm_cap, bbrt_link_emit_fn emit_fn, bbrt_link_deliver_fn deliver,
                    bbrt_link_event_fn event, void *ctx) {
    bbrt_memset(l, 0, sizeof(*l));
    l->local = *local;
    if (l->local.max_frame > BBRT_LINK_MTU) l->local.max_frame = BBRT_LINK_MTU;
    if (l->local.window > BBRT_LINK_WINDOW || l->local.window == 0u) l->local.window = BBRT_LINK_WINDOW;
    if (cfg) l->cfg = *cfg;
    else bbrt_link_default_config(&l->cfg);
    l->emit = emit_fn;
    l->deliver = deliver;
    l->event = event;
    l->ctx = ctx;
    l->rasm = rasm;
    l->rasm_cap = rasm_cap > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)rasm_cap;
    l->next_lseq = 1u;
    l->next_msg_id = 1u;
    l->rto = clamp_rto(l, l->cfg.rto_initial);
}

void bbrt_link_start(bbrt_link_t *l, uint32_t now_ms) {
    l->started = 1u;
    l->last_rx = now_ms;
    send_hello(l, 0, now_ms);
}

/* ------------------------------------------------------------------ HELLO */
static void new_session(bbrt_link_t *l, uint32_t now) {
    uint32_t i, n = 0, order[BBRT_LINK_WINDOW];
    /* receive state goes; unacked outbound frames are renumbered from 1 in their original order */
    l->rx_cum = 0u;
    l->rx_mask = 0u;
    rasm_clear(l);
    for (i = 0; i < BBRT_LINK_WINDOW; i++)
        if (l->slots[i].used) order[n++] = i;
    for (i = 1; i < n; i++) { /* insertion sort by old lseq (n <= 32) */
        uint32_t k = order[i], j = i;
        while (j > 0 && l->slots[order[j - 1]].lseq > l->slots[k].lseq) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    for (i = 0; i < n; i++) {
        bbrt_link_slot_t *s = &l->slots[order[i]];
        s->lseq = i + 1u;
        bbrt_wr_u32(s->body + 4, s->lseq);
        s->tx_count = 0u; /* sent again below; a fresh frame for Karn's rule in the new session */
    }
    l->next_lseq = n + 1u;
    for (i = 0; i < n; i++) {
        bbrt_link_slot_t *s = &l->slots[order[i]];
        if (s->len > l->peer.max_frame) { /* the new peer takes smaller frames: give it up */
            s->used = 0u;
            raise_ev(l, BBRT_LEV_GAVE_UP, s->lseq);
            continue;
        }
        s->tx_count = 1u;
        s->sent_at = now;
        l->stats.data_out++;
        emit(l, s->body, s->len, 0, 0u, now);
    }
}

static void on_hello(bbrt_link_t *l, const uint8_t *body, size_t n, uint32_t now) {
    bbrt_hello_t h;
    bbrt_hello_status_t st;
    uint32_t v;
    int reply;
    if (body[3] & (uint8_t)~BBRT_LINK_FLAG_REPLY || bbrt_rd_u32(body + 4) != 0u) {
        raise_ev(l, BBRT_LEV_BAD_HELLO, BBRT_HELLO_BAD_FIELD);
        return;
    }
    st = bbrt_hello_decode(body + BBRT_LINK_HEADER, n - BBRT_LINK_HEADER, &h);
    if (st != BBRT_HELLO_OK) {
        raise_ev(l, BBRT_LEV_BAD_HELLO, (uint32_t)st);
        return;
    }
    reply = (body[3] & BBRT_LINK_FLAG_REPLY) != 0u;
    if (l->have_peer && h.boot_epoch < l->peer.boot_epoch) {
        raise_ev(l, BBRT_LEV_EPOCH_REGRESSED, h.boot_epoch);
        return;
    }
    if (!reply) send_hello(l, 1, now); /* every HELLO without REPLY is answered, even on a mismatch */
    if (l->have_peer && h.boot_epoch == l->peer.boot_epoch) return; /* a repeat */
    {
        int restarted = l->have_peer;
        l->peer = h;
        l->have_peer = 1u;
        v = h.max_version < l->local.max_version ? h.max_version : l->local.max_version;
        if (v < h.min_version || v < l->local.min_version) {
            l->state = BBRT_LINK_S_MISMATCH;
            l->version = 0u;
            raise_ev(l, BBRT_LEV_VERSION_MISMATCH, h.max_version);
            return;
        }
        l->version = v;
        l->state = BBRT_LINK_S_UP;
        if (restarted) raise_ev(l, BBRT_LEV_PEER_RESTARTED, h.boot_epoch);
        new_session(l, now);
        raise_ev(l, BBRT_LEV_LINK_UP, v);
    }
}

/* ------------------------------------------------------------------- ACK */
static void on_ack(bbrt_link_t *l, const uint8_t *body, size_t n, uint32_t now) {
    uint32_t cum, mask, last, i;
    if (n != 12u || body[3] != 0u) {
        raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, 3u);
        return;
    }
    if (l->state != BBRT_LINK_S_UP) return;
    cum = bbrt_rd_u32(body + 4);
    mask = bbrt_rd_u32(body + 8);
    last = l->next_lseq - 1u; /* highest lseq sent in this session */
    /* an ACK that covers a frame never sent changes nothing */
    if (cum > last) {
        raise_ev(l, BBRT_LEV_ACK_UNKNOWN, cum);
        return;
    }
    if (mask) {
        uint32_t room = last - cum; /* frames above cum that exist */
        if (room < 32u && (mask >> room) != 0u) {
            raise_ev(l, BBRT_LEV_ACK_UNKNOWN, cum);
            return;
        }
    }
    l->stats.acks_in++;
    for (i = 0; i < BBRT_LINK_WINDOW; i++) {
        bbrt_link_slot_t *s = &l->slots[i];
        uint32_t d;
        int acked;
        if (!s->used) continue;
        d = s->lseq - cum - 1u;
        acked = s->lseq <= cum || (s->lseq > cum && d < 32u && ((mask >> d) & 1u));
        if (!acked) continue;
        if (s->tx_count == 1u) { /* Karn: a retransmitted frame gives no RTT sample */
            uint32_t r = ELAPSED(now, s->sent_at);
            if (!l->have_rtt) {
                l->srtt8 = r * 8u;
                l->rttvar4 = r * 2u; /* rttvar = r/2 */
                l->have_rtt = 1u;
            } else {
                uint32_t srtt = l->srtt8 / 8u;
                uint32_t err = r > srtt ? r - srtt : srtt - r;
                /* rttvar = 3/4 rttvar + 1/4 |srtt - r| ; srtt = 7/8 srtt + 1/8 r */
                l->rttvar4 = l->rttvar4 - l->rttvar4 / 4u + err;
                l->srtt8 = l->srtt8 - l->srtt8 / 8u + r;
            }
            {
                uint32_t var = l->rttvar4; /* 4 * rttvar */
                l->rto = clamp_rto(l, l->srtt8 / 8u + (var > 1u ? var : 1u));
            }
            l->stats.rtt_samples++;
        }
        s->used = 0u;
    }
}

/* ------------------------------------------------------------------ DATA */
static int rx_seen(const bbrt_link_t *l, uint32_t lseq) {
    uint32_t d;
    if (lseq <= l->rx_cum) return 1;
    d = lseq - l->rx_cum - 1u;
    return d < 32u && ((l->rx_mask >> d) & 1u);
}

static void rx_mark(bbrt_link_t *l, uint32_t lseq) {
    uint32_t d = lseq - l->rx_cum - 1u;
    l->rx_mask |= (1u << d);
    while (l->rx_mask & 1u) { /* slide the cumulative ack over every contiguous frame */
        l->rx_cum++;
        l->rx_mask >>= 1;
    }
}

/* Validate one fragment completely; returns 0 (accepted: copied) or a bbrt_frag_reason_t. */
static uint32_t frag_accept(bbrt_link_t *l, uint32_t msg, uint32_t off, uint32_t total, const uint8_t *chunk,
                            uint32_t len, uint32_t now, int *complete) {
    uint32_t i;
    int same = 0;
    *complete = 0;
    if (len == 0u || total <= len || off >= total || len > total - off) return BBRT_FRAG_OUT_OF_RANGE;
    if (total > l->rasm_cap) return BBRT_FRAG_BUDGET;
    if (l->rasm_n && msg != l->rasm_msg) return BBRT_FRAG_BUSY; /* one message at a time: not acked, retried */
    if (l->rasm_n) {
        if (total != l->rasm_total) return BBRT_FRAG_TOTAL_CHANGED;
        for (i = 0; i < l->rasm_n; i++) {
            const bbrt_link_chunk_t *c = &l->chunks[i];
            if (c->off == off && c->len == len) same = 1;
            else if (off < c->off + c->len && c->off < off + len) return BBRT_FRAG_OVERLAP;
        }
        if (!same && l->rasm_n >= BBRT_LINK_MAX_CHUNKS) return BBRT_FRAG_TOO_MANY;
    }
    if (!l->rasm_n) {
        l->rasm_msg = msg;
        l->rasm_total = total;
        l->rasm_have = 0u;
        l->rasm_started = now;
    }
    if (!same) {
        bbrt_memcpy(l->rasm + off, chunk, len);
        l->chunks[l->rasm_n].off = off;
        l->chunks[l->rasm_n].len = len;
        l->rasm_n++;
        l->rasm_have += len;
    }
    *complete = l->rasm_have == l->rasm_total;
    return 0u;
}

static void on_data(bbrt_link_t *l, const uint8_t *body, size_t n, uint32_t now) {
    uint32_t lseq = bbrt_rd_u32(body + 4);
    uint8_t flags = body[3];
    int frag = (flags & BBRT_LINK_FLAG_FRAG) != 0u;
    if ((flags & (uint8_t)~BBRT_LINK_FLAG_FRAG) || lseq == 0u || (frag && n <= BBRT_LINK_HEADER + BBRT_LINK_FRAG_HEADER) ||
        (!frag && n <= BBRT_LINK_HEADER)) {
        raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, 2u);
        return;
    }
    if (n > BBRT_LINK_MTU || (l->have_peer && n > l->local.max_frame)) {
        raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, 3u);
        return;
    }
    if (l->state != BBRT_LINK_S_UP) {
        raise_ev(l, BBRT_LEV_NOT_READY, lseq);
        if (l->state == BBRT_LINK_S_HELLO) send_hello(l, 0, now);
        return;
    }
    if (l->hold) return; /* not acked: the sender retransmits when we can take it */
    l->stats.data_in++;
    if (rx_seen(l, lseq)) {
        l->stats.duplicates++;
        raise_ev(l, BBRT_LEV_DUPLICATE, lseq);
        send_ack(l, now);
        return;
    }
    if (lseq - l->rx_cum - 1u >= 32u) { /* beyond what the mask can acknowledge */
        raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, 4u);
        return;
    }
    if (!frag) {
        rx_mark(l, lseq);
        l->stats.delivered++;
        if (l->deliver) l->deliver(l->ctx, body + BBRT_LINK_HEADER, n - BBRT_LINK_HEADER);
    } else {
        uint32_t msg = bbrt_rd_u32(body + 8), off = bbrt_rd_u32(body + 12), total = bbrt_rd_u32(body + 16);
        int complete = 0;
        uint32_t why = frag_accept(l, msg, off, total, body + 20, (uint32_t)(n - 20u), now, &complete);
        if (why) {
            raise_ev(l, BBRT_LEV_FRAGMENT_REJECTED, why);
            return;
        }
        rx_mark(l, lseq);
        if (complete) {
            uint32_t len = l->rasm_total;
            rasm_clear(l);
            l->stats.delivered++;
            if (l->deliver) l->deliver(l->ctx, l->rasm, len);
        }
    }
    send_ack(l, now); /* after the envelope was handed up (and applied) */
}

void bbrt_link_receive(bbrt_link_t *l, const uint8_t *body, size_t n, uint32_t now_ms) {
    uint8_t type;
    if (n >= 2u && body[0] == 0xBBu && body[1] == 0xE1u) { /* bare v1 envelope: handed up, never acked */
        raise_ev(l, BBRT_LEV_BARE_ENVELOPE, 0u);
        if (l->deliver && !l->hold) l->deliver(l->ctx, body, n);
        return;
    }
    if (n < BBRT_LINK_HEADER || body[0] != 0xBBu || body[1] != 0xA1u) {
        raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, 1u);
        return;
    }
    type = body[2];
    switch (type) {
    case BBRT_LINK_HELLO:
        on_hello(l, body, n, now_ms);
        break;
    case BBRT_LINK_DATA:
        on_data(l, body, n, now_ms);
        break;
    case BBRT_LINK_ACK:
        on_ack(l, body, n, now_ms);
        break;
    case BBRT_LINK_HEARTBEAT:
        if (body[3] != 0u || bbrt_rd_u32(body + 4) != 0u || (n - BBRT_LINK_HEADER) % 5u != 0u) {
            raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, 2u);
            return;
        }
        break;
    default:
        raise_ev(l, BBRT_LEV_BAD_LINK_FRAME, 1u);
        return;
    }
    /* a frame that passed its checks shows the peer is alive (a refused one returned above,
     * except HELLO/ACK refusals, which still come from a live peer) */
    l->stats.frames_in++;
    l->last_rx = now_ms;
    if (!l->peer_up && l->have_peer) {
        l->peer_up = 1u;
        raise_ev(l, BBRT_LEV_PEER_UP, l->peer.node_id);
    }
}

/* ------------------------------------------------------------------ send */
uint32_t bbrt_link_free_slots(const bbrt_link_t *l) {
    uint32_t i, n = 0, used = 0;
    for (i = 0; i < BBRT_LINK_WINDOW; i++) used += l->slots[i].used;
    n = window(l);
    return used >= n ? 0u : n - used;
}

uint32_t bbrt_link_slots_needed(const bbrt_link_t *l, size_t n) {
    uint32_t cap = frame_cap(l), chunk;
    if (l->state != BBRT_LINK_S_UP) return 0u;
    if (n + BBRT_LINK_HEADER <= cap) return 1u;
    chunk = cap - (BBRT_LINK_HEADER + BBRT_LINK_FRAG_HEADER);
    return (uint32_t)((n + chunk - 1u) / chunk);
}

static bbrt_link_slot_t *free_slot(bbrt_link_t *l) {
    uint32_t i;
    for (i = 0; i < BBRT_LINK_WINDOW; i++)
        if (!l->slots[i].used) return &l->slots[i];
    return 0;
}

/* copy bytes [off, off+len) of the two-piece envelope a|b into dst */
static void gather(uint8_t *dst, const uint8_t *a, size_t na, const uint8_t *b, size_t off, size_t len) {
    if (off < na) {
        size_t k = na - off < len ? na - off : len;
        bbrt_memcpy(dst, a + off, k);
        dst += k;
        len -= k;
        off = na;
    }
    if (len) bbrt_memcpy(dst, b + (off - na), len);
}

bbrt_link_status_t bbrt_link_send(bbrt_link_t *l, const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                                  uint32_t now_ms) {
    size_t total = na + nb, off = 0;
    uint32_t need, cap, chunk, msg = 0;
    if (l->state != BBRT_LINK_S_UP) return BBRT_LINK_E_DOWN;
    if (total == 0u || total > 0xFFFFFFFFu - 64u) return BBRT_LINK_E_TOO_LARGE;
    need = bbrt_link_slots_needed(l, total);
    if (need > window(l)) return BBRT_LINK_E_TOO_LARGE; /* could never fit the window at once */
    if (need > bbrt_link_free_slots(l)) return BBRT_LINK_E_BUSY;
    cap = frame_cap(l);
    chunk = cap - (BBRT_LINK_HEADER + BBRT_LINK_FRAG_HEADER);
    if (need > 1u) msg = l->next_msg_id++;
    while (off < total || (need == 1u && off == 0u)) {
        bbrt_link_slot_t *s = free_slot(l);
        size_t len;
        if (!s) return BBRT_LINK_E_BUSY; /* unreachable: checked above */
        s->used = 1u;
        s->lseq = l->next_lseq++;
        if (need == 1u) {
            wr_header(s->body, BBRT_LINK_DATA, 0u, s->lseq);
            gather(s->body + BBRT_LINK_HEADER, a, na, b, 0u, total);
            s->len = (uint32_t)(BBRT_LINK_HEADER + total);
            off = total;
        } else {
            len = total - off < chunk ? total - off : chunk;
            wr_header(s->body, BBRT_LINK_DATA, BBRT_LINK_FLAG_FRAG, s->lseq);
            bbrt_wr_u32(s->body + 8, msg);
            bbrt_wr_u32(s->body + 12, (uint32_t)off);
            bbrt_wr_u32(s->body + 16, (uint32_t)total);
            gather(s->body + 20, a, na, b, off, len);
            s->len = (uint32_t)(20u + len);
            off += len;
        }
        s->tx_count = 1u;
        s->sent_at = now_ms;
        l->stats.data_out++;
        emit(l, s->body, s->len, 0, 0u, now_ms);
        if (need == 1u) break;
    }
    return BBRT_LINK_OK;
}

/* ------------------------------------------------------------------ timers */
void bbrt_link_poll(bbrt_link_t *l, uint32_t now_ms) {
    uint32_t i;
    int expired = 0;
    if (!l->started) return;
    if (l->state == BBRT_LINK_S_HELLO && ELAPSED(now_ms, l->hello_at) >= l->rto) {
        send_hello(l, 0, now_ms);
        l->rto = clamp_rto(l, l->rto * 2u); /* back off the HELLO repeat as well */
    }
    if (l->state == BBRT_LINK_S_UP) {
        for (i = 0; i < BBRT_LINK_WINDOW; i++) {
            bbrt_link_slot_t *s = &l->slots[i];
            if (!s->used || ELAPSED(now_ms, s->sent_at) < l->rto) continue;
            if (s->tx_count >= l->cfg.max_retries) {
                s->used = 0u;
                raise_ev(l, BBRT_LEV_GAVE_UP, s->lseq);
                continue;
            }
            s->tx_count++;
            s->sent_at = now_ms;
            l->stats.retransmits++;
            emit(l, s->body, s->len, 0, 0u, now_ms);
            expired = 1;
        }
        if (expired) l->rto = clamp_rto(l, l->rto > l->cfg.rto_max / 2u ? l->cfg.rto_max : l->rto * 2u);
        if (ELAPSED(now_ms, l->last_tx) >= l->cfg.hb_interval) {
            uint8_t hb[BBRT_LINK_HEADER];
            wr_header(hb, BBRT_LINK_HEARTBEAT, 0u, 0u);
            emit(l, hb, sizeof(hb), 0, 0u, now_ms);
        }
    }
    if (l->peer_up && ELAPSED(now_ms, l->last_rx) >= l->cfg.dead_after) {
        l->peer_up = 0u;
        raise_ev(l, BBRT_LEV_PEER_DOWN, l->peer.node_id);
    }
    if (l->rasm_n && ELAPSED(now_ms, l->rasm_started) >= l->cfg.reassembly_timeout) {
        uint32_t msg = l->rasm_msg;
        rasm_clear(l);
        raise_ev(l, BBRT_LEV_REASSEMBLY_TIMEOUT, msg);
    }
}

uint32_t bbrt_link_next_deadline(const bbrt_link_t *l, uint32_t now_ms) {
    uint32_t best = 0xFFFFFFFFu, i;
#define CONSIDER(t0, span)                                              \
    do {                                                                \
        uint32_t e_ = ELAPSED(now_ms, (t0));                            \
        uint32_t left_ = e_ >= (span) ? 0u : (span) - e_;               \
        if (left_ < best) best = left_;                                 \
    } while (0)
    if (!l->started) return best;
    if (l->state == BBRT_LINK_S_HELLO) CONSIDER(l->hello_at, l->rto);
    if (l->state == BBRT_LINK_S_UP) {
        for (i = 0; i < BBRT_LINK_WINDOW; i++)
            if (l->slots[i].used) CONSIDER(l->slots[i].sent_at, l->rto);
        CONSIDER(l->last_tx, l->cfg.hb_interval);
    }
    if (l->peer_up) CONSIDER(l->last_rx, l->cfg.dead_after);
    if (l->rasm_n) CONSIDER(l->rasm_started, l->cfg.reassembly_timeout);
#undef CONSIDER
    return best;
}
