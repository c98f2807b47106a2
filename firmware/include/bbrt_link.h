/*
 * bbrt link layer: the sans-IO link state machine of docs/wire.md ("Link layer").
 *
 * Frame bodies and `now_ms` go in; frame bodies (through emit), delivered
 * envelopes (through deliver) and typed events (through event) come out. No
 * heap, no clock, no I/O. Outbound envelopes wait in a caller-owned transmit
 * buffer (a ring, up to BBRT_LINK_MAX_MSGS envelopes) until every frame of
 * them is acknowledged; frames are cut from it when the window allows and
 * re-cut for a retransmission, so the window (BBRT_LINK_WINDOW frames) costs
 * a few words per frame whatever the frame size. Reassembly uses a second
 * caller-owned buffer whose size is the reassembly byte budget. Every input is
 * validated before it changes any state: a frame that breaks a rule raises
 * one event and changes nothing else.
 */
#ifndef BBRT_LINK_H
#define BBRT_LINK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BBRT_LINK_WINDOW
#define BBRT_LINK_WINDOW 16u /* unacknowledged DATA frames in flight, each way (1..32) */
#endif
#ifndef BBRT_LINK_MTU
#define BBRT_LINK_MTU 4096u /* largest link frame body sent or accepted (>= 64) */
#endif
#ifndef BBRT_LINK_MAX_MSGS
#define BBRT_LINK_MAX_MSGS 8u /* envelopes queued or unacknowledged at once */
#endif
#ifndef BBRT_LINK_RASM_MSGS
#define BBRT_LINK_RASM_MSGS 4u /* fragmented messages reassembled at once */
#endif
#ifndef BBRT_LINK_MAX_CHUNKS
#define BBRT_LINK_MAX_CHUNKS 16u /* separate received ranges per message (adjacent chunks merge) */
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
#define BBRT_LINK_START_FRAME 256u /* adaptive frame size: where a link starts (link.py START_FRAME) */
#define BBRT_LINK_FRAME_FLOOR 64u  /* ... and never below (link.py FRAME_FLOOR) ... */
#define BBRT_LINK_FIRST_FRAME 128u /* ... but an envelope's first frame (its header) is this (FIRST_FRAME) */
#define BBRT_LINK_GROW_AFTER 8u    /* default grow_after (link.py GROW_AFTER) */
#define BBRT_LINK_VERSION_MIN 1u
#define BBRT_LINK_VERSION_MAX 1u

enum { BBRT_LINK_HELLO = 1, BBRT_LINK_DATA = 2, BBRT_LINK_ACK = 3, BBRT_LINK_HEARTBEAT = 4 };
#define BBRT_LINK_FLAG_REPLY 0x1u /* HELLO */
#define BBRT_LINK_FLAG_FRAG 0x1u  /* DATA */
#define BBRT_CAP_ARQ 0x1u
#define BBRT_CAP_FRAG 0x2u

/* Typed events, named as the classes of bb_edge/wire/link.py (bbrt_link_event_name).
 * The event callback gets two arguments a, b: */
typedef enum {
    BBRT_LEV_NONE = 0,
    BBRT_LEV_LINK_UP = 1,            /* a: version, b: peer boot epoch */
    BBRT_LEV_VERSION_MISMATCH = 2,   /* a: peer min_version, b: peer max_version */
    BBRT_LEV_EPOCH_REGRESSED = 3,    /* a: known epoch, b: the lower one received */
    BBRT_LEV_PEER_RESTARTED = 4,     /* a: old epoch, b: new epoch */
    BBRT_LEV_BAD_HELLO = 5,          /* a: bbrt_hello_status_t */
    BBRT_LEV_BAD_LINK_FRAME = 6,     /* a: bbrt_lf_code_t */
    BBRT_LEV_ACK_UNKNOWN = 7,        /* a: cum, b: mask */
    BBRT_LEV_FRAGMENT_REJECTED = 8,  /* a: msg_id, b: bbrt_frag_code_t */
    BBRT_LEV_REASSEMBLY_TIMEOUT = 9, /* a: msg_id, b: bytes received */
    BBRT_LEV_GAVE_UP = 10,           /* a: first lseq of the envelope, b: 1 RETRIES, 2 TOO_LARGE */
    BBRT_LEV_PEER_DOWN = 11,
    BBRT_LEV_PEER_UP = 12,
    BBRT_LEV_HEARTBEAT = 13,         /* HeartbeatReceived; a: presence records */
    BBRT_LEV_DUPLICATE = 14,         /* C only: DATA already received (acked again, not handed up) */
    BBRT_LEV_BARE_ENVELOPE = 15,     /* C only: a frame without the link layer (v1 peer), handed up */
    BBRT_LEV__COUNT = 16
} bbrt_link_event_t;

/* BadLinkFrame codes (the `code` strings of link.py) */
typedef enum {
    BBRT_LF_TRUNCATED = 1, BBRT_LF_BAD_MAGIC = 2, BBRT_LF_BAD_TYPE = 3, BBRT_LF_TOO_LARGE = 4,
    BBRT_LF_BAD_FIELD = 5, BBRT_LF_BAD_LENGTH = 6, BBRT_LF_NO_SESSION = 7, BBRT_LF_VERSION = 8,
    BBRT_LF_OUT_OF_WINDOW = 9
} bbrt_lf_code_t;

/* FragmentRejected codes. This port reassembles one message at a time in the caller's buffer:
 * a fragment of another message while one is held is refused as BUDGET (not acked, sent again). */
typedef enum {
    BBRT_FRAG_OUT_OF_RANGE = 1, BBRT_FRAG_LENGTH_MISMATCH = 2, BBRT_FRAG_OVERLAP = 3, BBRT_FRAG_BUDGET = 4,
    BBRT_FRAG_BAD_FIELD = 5, BBRT_FRAG_ORDER = 6 /* a new message not at lseq = cum + 1 */
} bbrt_frag_code_t;

typedef enum {
    BBRT_HELLO_OK = 0, BBRT_HELLO_TRUNCATED = 1, BBRT_HELLO_BAD_VERSION = 2, BBRT_HELLO_BAD_FIELD = 3,
    BBRT_HELLO_BAD_LENGTH = 4
} bbrt_hello_status_t;

typedef enum {
    BBRT_LINK_OK = 0, BBRT_LINK_E_BUSY = 1, BBRT_LINK_E_DOWN = 2, BBRT_LINK_E_TOO_LARGE = 3
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

/* Timers in ms (0 disables hb_interval / dead_after), as LinkConfig of link.py. */
typedef struct {
    uint32_t rto_initial, rto_min, rto_max, granularity;
    uint32_t max_retries; /* transmissions of one frame before the session is given up */
    uint32_t hb_interval, dead_after;
    uint32_t reassembly_timeout;
    /* adaptive DATA frame size (docs/wire.md "Frame size"): doubled after this many clean full-size
     * frames in a row, halved on a resend; 0: always the cap (the peer's max_frame, under BBRT_LINK_MTU) */
    uint32_t grow_after;
} bbrt_link_config_t;
void bbrt_link_default_config(bbrt_link_config_t *cfg);

/* A frame body in two pieces (header, payload): the caller frames it (COBS + CRC). */
typedef void (*bbrt_link_emit_fn)(void *ctx, const uint8_t *a, size_t na, const uint8_t *b, size_t nb);
typedef void (*bbrt_link_deliver_fn)(void *ctx, const uint8_t *env, size_t len);
typedef void (*bbrt_link_event_fn)(void *ctx, bbrt_link_event_t ev, uint32_t a, uint32_t b);
/* Streaming receive (bbrt_link_stream): the fragments of a message go to the owner as they are
 * accepted (each one CRC-checked, in range, not overlapping), not into the reassembly buffer.
 * op BEGIN: the fragment at offset 0 (the envelope's header: the owner validates it and says where
 * the payload goes); PIECE: a later fragment at `off`; DONE: every byte arrived (total bytes);
 * ABORT: the message will not complete (reassembly timeout, new session). BEGIN returns
 * BBRT_LFRAG_TAKE, BBRT_LFRAG_DISCARD (acked, later fragments dropped: the owner refused the
 * envelope and counted why) or a bbrt_frag_code_t (refused, not acked: sent again later);
 * other ops return BBRT_LFRAG_TAKE. One message streams at a time: while one is open, a
 * fragment of another is refused BUDGET and a whole DATA frame is not accepted (not acked),
 * so nothing lands where the open message is being written. */
enum { BBRT_LFRAG_BEGIN = 1, BBRT_LFRAG_PIECE = 2, BBRT_LFRAG_DONE = 3, BBRT_LFRAG_ABORT = 4 };
#define BBRT_LFRAG_TAKE 0u
#define BBRT_LFRAG_DISCARD 0x100u
typedef uint32_t (*bbrt_link_frag_fn)(void *ctx, uint32_t op, uint32_t off, uint32_t total, const uint8_t *chunk,
                                      uint32_t len);

/* One outbound envelope in the transmit buffer. */
typedef struct {
    uint32_t off, len;  /* where it lies in the transmit buffer */
    uint32_t order;     /* queue order */
    uint32_t msg_id;    /* FRAG message id in this session (0: sent whole) */
    uint32_t cut;       /* bytes already cut into frames in this session */
    uint32_t frames, acked;
    uint8_t used, done;
} bbrt_link_msg_t;

/* One DATA frame in flight: a piece of a queued envelope (re-cut to retransmit). */
typedef struct {
    uint32_t lseq, msg, off, len, sent_at, deadline, tries, tx;
    uint8_t used, frag;
    uint8_t fast; /* resent because later frames got through: its timer is 2 SRTT, no RTO back-off */
    uint8_t fast_n; /* fast resends of it in a row: each doubles that timer, up to the RTO (as link.py) */
    uint32_t gen;   /* frame-size generation it was cut in: a loss halves the size once per generation */
} bbrt_link_slot_t;

typedef struct {
    uint32_t off, len;
} bbrt_link_chunk_t;

/* One fragmented message being reassembled in its region of the reassembly buffer. */
typedef struct {
    uint32_t msg_id, total, have, first_at, base, n;
    uint8_t used;
    uint8_t discard; /* streaming: the owner refused its header; fragments acked and dropped */
    bbrt_link_chunk_t iv[BBRT_LINK_MAX_CHUNKS]; /* received byte ranges, sorted, merged when adjacent */
} bbrt_link_rasm_t;

typedef struct {
    uint32_t frames_in, frames_out, data_in, data_out, retransmits, acks_in, acks_out, delivered,
        duplicates, rtt_samples, heartbeats_out, shrinks, grows;
    uint32_t events[BBRT_LEV__COUNT];
} bbrt_link_stats_t;


typedef struct bbrt_link_s {
    bbrt_hello_t local, peer;
    bbrt_link_config_t cfg;
    bbrt_link_emit_fn emit;
    bbrt_link_deliver_fn deliver;
    bbrt_link_event_fn event;
    void *ctx;
    /* optional: the next boot epoch from non-volatile storage, called when a session is given up
     * (the link says HELLO with a greater epoch; storing it keeps the next boot greater still) */
    uint32_t (*next_epoch)(void *ctx);
    uint8_t have_peer; /* a valid peer HELLO was accepted */
    uint8_t up;        /* a link session: DATA flows */
    uint8_t mismatch;  /* versions do not meet: DATA refused both ways */
    uint8_t hold;      /* 1: DATA is neither accepted nor acked (the owner is busy sending) */
    uint8_t started, peer_down, monitored, ack_due;
    uint32_t version;
    /* outbound */
    uint32_t next_lseq, next_order, next_msg_id, tx;
    uint32_t srtt8, rttvar4, rto; /* RFC 6298 in ms: srtt x8, rttvar x4 */
    uint32_t fsize, fgen, clean;  /* adaptive frame size, its generation, clean full-size frames in a row */
    uint8_t have_rtt;
    uint32_t last_sent, last_heard, hello_due;
    uint8_t *txbuf;
    uint32_t txcap;
    bbrt_link_msg_t msgs[BBRT_LINK_MAX_MSGS];
    bbrt_link_slot_t slots[BBRT_LINK_WINDOW];
    /* inbound */
    uint32_t cum, mask;
    uint8_t *rasm;
    uint32_t rasm_cap;
    bbrt_link_rasm_t rx[BBRT_LINK_RASM_MSGS];
    bbrt_link_frag_fn frag; /* streaming receive (bbrt_link_stream); NULL: reassembly buffer */
    bbrt_link_stats_t stats;
} bbrt_link_t;

/* local->max_frame is capped at BBRT_LINK_MTU and local->window at BBRT_LINK_WINDOW.
 * txbuf/txcap: the transmit buffer (the largest envelope sent must fit; twice that lets one
 * envelope be queued while another waits for its ACKs). rasm/rasm_cap: the reassembly buffer;
 * its size is the reassembly byte budget. */
void bbrt_link_init(bbrt_link_t *l, const bbrt_hello_t *local, const bbrt_link_config_t *cfg, uint8_t *txbuf,
                    size_t txcap, uint8_t *rasm, size_t rasm_cap, bbrt_link_emit_fn emit,
                    bbrt_link_deliver_fn deliver, bbrt_link_event_fn event, void *ctx);
/* Receive fragmented messages through frag (see bbrt_link_frag_fn) instead of the reassembly
 * buffer, which is then not used (init may pass 0, 0). Call after bbrt_link_init. */
void bbrt_link_stream(bbrt_link_t *l, bbrt_link_frag_fn frag);
/* Send the first HELLO. */
void bbrt_link_start(bbrt_link_t *l, uint32_t now_ms);
/* One received frame body (CRC already checked and stripped). */
void bbrt_link_receive(bbrt_link_t *l, const uint8_t *body, size_t n, uint32_t now_ms);
/* Queue one envelope given in two pieces (copied into the transmit buffer; fragmented above
 * the peer's max_frame); its frames go out as the window allows. BBRT_LINK_E_BUSY: no room in
 * the transmit buffer now (receive ACKs / poll, then retry); BBRT_LINK_E_DOWN: no link
 * session; BBRT_LINK_E_TOO_LARGE: larger than the transmit buffer. */
bbrt_link_status_t bbrt_link_send(bbrt_link_t *l, const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                                  uint32_t now_ms);
/* 1 when bbrt_link_send of n bytes would not be BUSY now. */
int bbrt_link_can_send(const bbrt_link_t *l, size_t n);
/* Envelopes queued or not fully acknowledged. */
uint32_t bbrt_link_unacked(const bbrt_link_t *l);
/* Timers: retransmission, HELLO repeat, heartbeat, peer-down, reassembly timeout. */
void bbrt_link_poll(bbrt_link_t *l, uint32_t now_ms);
/* Milliseconds until the next timer is due (0: now). */
uint32_t bbrt_link_next_deadline(const bbrt_link_t *l, uint32_t now_ms);
/* The DATA frame size new frames are cut at now (0: no peer yet). */
uint32_t bbrt_link_frame_size(const bbrt_link_t *l);
/* Encode the link HELLO frame body (8-byte header + record) into out. */
size_t bbrt_link_hello_body(const bbrt_hello_t *h, int reply, uint8_t *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* BBRT_LINK_H */
