/*
 * bbrt link layer: the sans-IO link state machine of docs/wire.md ("Link layer").
 *
 * Frame bodies and `now_ms` go in; frame bodies (through emit), delivered
 * envelopes (through deliver) and typed events (through event) come out. No
 * heap, no clock, no I/O: outbound frames waiting for their ACK live in a
 * window of BBRT_LINK_WINDOW slots of BBRT_LINK_MTU bytes inside the link
 * object; reassembly uses a caller-owned buffer whose size is the reassembly
 * byte budget. Every input is validated before it changes any state: a frame
 * that breaks a rule raises one event and changes nothing else.
 */
#ifndef BBRT_LINK_H
#define BBRT_LINK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BBRT_LINK_WINDOW
#define BBRT_LINK_WINDOW 4u /* unacknowledged DATA frames this end keeps (1..32) */
#endif
#ifndef BBRT_LINK_MTU
#define BBRT_LINK_MTU 4096u /* largest link frame body sent or accepted (>= 64) */
#endif
#ifndef BBRT_LINK_MAX_CHUNKS
#define BBRT_LINK_MAX_CHUNKS 64u /* distinct fragments held for one message */
#endif
#if BBRT_LINK_WINDOW < 1u || BBRT_LINK_WINDOW > 32u
#error "BBRT_LINK_WINDOW must be 1..32"
#endif
#if BBRT_LINK_MTU < 64u
#error "BBRT_LINK_MTU must be >= 64"
#endif

#define BBRT_LINK_HEADER 8u
#define BBRT_LINK_FRAG_HEADER 12u
#define BBRT_HELLO_RECORD 52u
#define BBRT_HELLO_MAX_NAME 64u
#define BBRT_HELLO_MAX_BODY (BBRT_LINK_HEADER + BBRT_HELLO_RECORD + BBRT_HELLO_MAX_NAME)
#define BBRT_LINK_VERSION_MIN 1u
#define BBRT_LINK_VERSION_MAX 1u

enum { BBRT_LINK_HELLO = 1, BBRT_LINK_DATA = 2, BBRT_LINK_ACK = 3, BBRT_LINK_HEARTBEAT = 4 };
#define BBRT_LINK_FLAG_REPLY 0x1u /* HELLO */
#define BBRT_LINK_FLAG_FRAG 0x1u  /* DATA */
#define BBRT_CAP_ARQ 0x1u
#define BBRT_CAP_FRAG 0x2u

/* Typed events. The names (bbrt_link_event_name) are those of bb_edge/wire/link.py. */
typedef enum {
    BBRT_LEV_NONE = 0,
    BBRT_LEV_LINK_UP = 1,            /* arg: negotiated version */
    BBRT_LEV_VERSION_MISMATCH = 2,   /* arg: peer max_version */
    BBRT_LEV_EPOCH_REGRESSED = 3,    /* arg: the regressed epoch */
    BBRT_LEV_PEER_RESTARTED = 4,     /* arg: the new epoch */
    BBRT_LEV_BAD_HELLO = 5,          /* arg: bbrt_hello_status_t */
    BBRT_LEV_BAD_LINK_FRAME = 6,     /* arg: 1 magic/type, 2 flags, 3 length, 4 lseq */
    BBRT_LEV_ACK_UNKNOWN = 7,        /* arg: cumulative ack */
    BBRT_LEV_FRAGMENT_REJECTED = 8,  /* arg: bbrt_frag_reason_t */
    BBRT_LEV_REASSEMBLY_TIMEOUT = 9, /* arg: msg_id */
    BBRT_LEV_GAVE_UP = 10,           /* arg: lseq */
    BBRT_LEV_PEER_DOWN = 11,
    BBRT_LEV_PEER_UP = 12,
    BBRT_LEV_NOT_READY = 13,         /* DATA before the handshake (answered with HELLO) */
    BBRT_LEV_DUPLICATE = 14,         /* DATA already received (acked again, not delivered) */
    BBRT_LEV_BARE_ENVELOPE = 15,     /* a frame without the link layer (v1 peer) */
    BBRT_LEV__COUNT = 16
} bbrt_link_event_t;

typedef enum {
    BBRT_FRAG_OUT_OF_RANGE = 1, BBRT_FRAG_TOTAL_CHANGED = 2, BBRT_FRAG_OVERLAP = 3, BBRT_FRAG_BUDGET = 4,
    BBRT_FRAG_BUSY = 5, BBRT_FRAG_TOO_MANY = 6
} bbrt_frag_reason_t;

typedef enum {
    BBRT_HELLO_OK = 0, BBRT_HELLO_TRUNCATED = 1, BBRT_HELLO_BAD_VERSION = 2, BBRT_HELLO_BAD_FIELD = 3,
    BBRT_HELLO_BAD_LENGTH = 4
} bbrt_hello_status_t;

typedef enum {
    BBRT_LINK_OK = 0, BBRT_LINK_E_BUSY = 1, BBRT_LINK_E_DOWN = 2, BBRT_LINK_E_TOO_LARGE = 3,
    BBRT_LINK_E_NO_SPACE = 4
} bbrt_link_status_t;

/* The hello record (docs/wire.md "HELLO (type 1): the hello record"). */
typedef struct {
    uint8_t min_version, max_version;
    uint16_t caps;
    uint32_t boot_epoch, node_id, max_frame;
    uint16_t window, name_len;
    uint8_t program_hash[32];
    uint8_t name[BBRT_HELLO_MAX_NAME];
} bbrt_hello_t;

/* Decode and validate one hello record (exactly 52 + name_len bytes). */
bbrt_hello_status_t bbrt_hello_decode(const uint8_t *p, size_t n, bbrt_hello_t *out);
/* Encode a hello record into out (52 + name_len bytes); BBRT_HELLO_BAD_* if h breaks a rule. */
bbrt_hello_status_t bbrt_hello_encode(const bbrt_hello_t *h, uint8_t *out, size_t cap, size_t *written);
const char *bbrt_link_event_name(bbrt_link_event_t ev);

typedef struct {
    uint32_t rto_initial, rto_min, rto_max; /* ms */
    uint32_t max_retries;                   /* transmissions before GaveUp */
    uint32_t hb_interval, dead_after;       /* ms */
    uint32_t reassembly_timeout;            /* ms */
} bbrt_link_config_t;
void bbrt_link_default_config(bbrt_link_config_t *cfg);

/* A frame body in two pieces (header, payload): the caller frames it (COBS + CRC). */
typedef void (*bbrt_link_emit_fn)(void *ctx, const uint8_t *a, size_t na, const uint8_t *b, size_t nb);
typedef void (*bbrt_link_deliver_fn)(void *ctx, const uint8_t *env, size_t len);
typedef void (*bbrt_link_event_fn)(void *ctx, bbrt_link_event_t ev, uint32_t arg);

typedef struct {
    uint32_t lseq, len, sent_at, tx_count;
    uint8_t used;
    uint8_t body[BBRT_LINK_MTU];
} bbrt_link_slot_t;

typedef struct {
    uint32_t off, len;
} bbrt_link_chunk_t;

typedef struct {
    uint32_t frames_in, frames_out, data_in, data_out, retransmits, acks_in, acks_out, delivered,
        duplicates, rtt_samples;
    uint32_t events[BBRT_LEV__COUNT];
} bbrt_link_stats_t;

enum { BBRT_LINK_S_HELLO = 0, BBRT_LINK_S_UP = 1, BBRT_LINK_S_MISMATCH = 2 };

typedef struct bbrt_link_s {
    bbrt_hello_t local, peer;
    bbrt_link_config_t cfg;
    bbrt_link_emit_fn emit;
    bbrt_link_deliver_fn deliver;
    bbrt_link_event_fn event;
    void *ctx;
    uint8_t state;     /* BBRT_LINK_S_* */
    uint8_t have_peer; /* a valid peer HELLO was seen */
    uint8_t peer_up;   /* heartbeat view */
    uint8_t hold;      /* 1: DATA is neither accepted nor acked (the owner is busy sending) */
    uint8_t started;
    uint32_t version;
    /* outbound */
    uint32_t next_lseq, next_msg_id;
    uint32_t srtt8, rttvar4, rto; /* RFC 6298 in ms, srtt x8 and rttvar x4 (Jacobson) */
    uint8_t have_rtt;
    uint32_t last_tx, last_rx, hello_at;
    bbrt_link_slot_t slots[BBRT_LINK_WINDOW];
    /* inbound */
    uint32_t rx_cum, rx_mask;
    uint8_t *rasm;
    uint32_t rasm_cap;
    uint32_t rasm_msg, rasm_total, rasm_have, rasm_started, rasm_n;
    bbrt_link_chunk_t chunks[BBRT_LINK_MAX_CHUNKS];
    bbrt_link_stats_t stats;
} bbrt_link_t;

/* local->max_frame is capped at BBRT_LINK_MTU and local->window at BBRT_LINK_WINDOW.
 * rasm/rasm_cap: the reassembly buffer; its size is the reassembly byte budget. */
void bbrt_link_init(bbrt_link_t *l, const bbrt_hello_t *local, const bbrt_link_config_t *cfg, uint8_t *rasm,
                    size_t rasm_cap, bbrt_link_emit_fn emit, bbrt_link_deliver_fn deliver,
                    bbrt_link_event_fn event, void *ctx);
/* Send the first HELLO. */
void bbrt_link_start(bbrt_link_t *l, uint32_t now_ms);
/* One received frame body (CRC already checked and stripped). */
void bbrt_link_receive(bbrt_link_t *l, const uint8_t *body, size_t n, uint32_t now_ms);
/* Queue and transmit one envelope given in two pieces (fragmented above the peer's max_frame).
 * BBRT_LINK_E_BUSY: not enough free window slots now (poll/receive ACKs, then retry);
 * BBRT_LINK_E_DOWN: no handshake yet or versions do not meet. */
bbrt_link_status_t bbrt_link_send(bbrt_link_t *l, const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                                  uint32_t now_ms);
/* Window slots an envelope of n bytes needs now (0 if the link is not up). */
uint32_t bbrt_link_slots_needed(const bbrt_link_t *l, size_t n);
uint32_t bbrt_link_free_slots(const bbrt_link_t *l);
/* Timers: retransmission, HELLO repeat, heartbeat, peer-down, reassembly timeout. */
void bbrt_link_poll(bbrt_link_t *l, uint32_t now_ms);
/* Milliseconds until the next timer is due (0: now). */
uint32_t bbrt_link_next_deadline(const bbrt_link_t *l, uint32_t now_ms);
/* Encode the link HELLO frame body (8-byte header + record) into out. */
size_t bbrt_link_hello_body(const bbrt_hello_t *h, int reply, uint8_t *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* BBRT_LINK_H */
