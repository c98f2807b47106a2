/*
 * bbrt: the bb-edge no-heap C runtime.
 *
 * C99, no malloc/free, no global constructors. Every buffer is given by the
 * caller or has a compile-time size. See docs/bbrt.md (program format, node
 * protocol) and docs/wire.md (envelope v1, COBS + CRC-32 framing).
 *
 * Why one file: it is the runtime's one public contract (envelope, program, node structs whose sizes a port
 * allocates statically); learning, training, link and OTA have their own headers.
 */
#ifndef BBRT_H
#define BBRT_H

#include <stddef.h>
#include <stdint.h>

#include "bbrt_base.h" /* bbrt_memcpy, bbrt_memset, bbrt_crc32_update, bbrt_dtype_size */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ limits */
#ifndef BBRT_MAX_PAYLOAD
#define BBRT_MAX_PAYLOAD 4096u /* wire payload bytes (docs/wire.md) */
#endif
#define BBRT_HEADER_SIZE 64u
#define BBRT_MAX_RANK 8u
#define BBRT_MAX_ENVELOPE (96u + BBRT_MAX_PAYLOAD)
/* decoded frame = envelope + crc32 (a node without the link layer: whole envelopes in one frame) */
#define BBRT_RX_BUFFER_SIZE (BBRT_MAX_ENVELOPE + 4u)
/* The largest non-tensor message payload a node takes (PING, a HELLO record of 52 + a name of up to
 * 64 bytes). The peer fragments only above the node's max_frame, so such a message always arrives
 * whole in one frame of BBRT_RX_FRAME_SIZE and needs no staging. */
#ifndef BBRT_CTL_PAYLOAD
#define BBRT_CTL_PAYLOAD 128u
#endif
#define BBRT_CTL_ENVELOPE (96u + BBRT_CTL_PAYLOAD)
/* A streaming node's receive buffer: one link frame (8-byte link header + the largest control
 * envelope) + crc32. Tensors arrive in fragments of it, written straight into the arena. */
#define BBRT_RX_FRAME_SIZE (8u + BBRT_CTL_ENVELOPE + 4u)

/* ------------------------------------------------------------ error codes */
typedef enum {
    BBRT_OK = 0,
    /* envelope (docs/wire.md validation order) */
    BBRT_E_TRUNCATED = 1,
    BBRT_E_BAD_MAGIC = 2,
    BBRT_E_BAD_VERSION = 3,
    BBRT_E_BAD_KIND = 4,
    BBRT_E_BAD_FIELD = 5,
    BBRT_E_BAD_DTYPE = 6,
    BBRT_E_BAD_RANK = 7,
    BBRT_E_TOO_LARGE = 8,
    BBRT_E_BAD_LENGTH = 9,
    /* framing */
    BBRT_E_BAD_FRAME = 10,
    BBRT_E_BAD_CRC = 11,
    BBRT_E_NO_SPACE = 12, /* output buffer too small */
    /* program loader */
    BBRT_E_PROG_MAGIC = 20,
    BBRT_E_PROG_VERSION = 21,
    BBRT_E_PROG_TRUNCATED = 22,
    BBRT_E_PROG_CRC = 23,
    BBRT_E_PROG_ALIGN = 24,
    BBRT_E_PROG_BOUNDS = 25,  /* a table, constant or tensor lies outside its region */
    BBRT_E_PROG_OPCODE = 26,  /* unknown opcode */
    BBRT_E_PROG_UNSUPPORTED = 27, /* opcode not linked into this firmware */
    BBRT_E_PROG_TENSOR = 28,  /* bad tensor record (dtype, rank, size) */
    BBRT_E_PROG_SHAPE = 29,   /* shapes/dtypes of an op inconsistent */
    BBRT_E_PROG_PARAM = 30,   /* bad op parameter */
    BBRT_E_PROG_EDGE = 31,    /* bad edge record */
    BBRT_E_ARENA_SMALL = 32,  /* caller's arena is smaller than the program needs */
    BBRT_E_NOT_LITTLE_ENDIAN = 33,
    /* node */
    BBRT_E_UNKNOWN_EDGE = 40,
    BBRT_E_EDGE_MISMATCH = 41, /* dtype/shape of an envelope differs from the edge contract */
    BBRT_E_WRONG_RECEIVER = 42,
    BBRT_E_DUPLICATE = 43,     /* (sender, seq) already applied */
    BBRT_E_STALE_EPOCH = 44,   /* seq from a boot epoch older than the one kept for the sender */
    BBRT_E_UNAUTHORISED = 45,  /* edge not produced by this sender / graph input not from the host */
    BBRT_E_SESSION = 46,       /* a session step refused (not open, out of order, no session for a stateful
                                * program); the owner got an error envelope, nothing changed */
    /* run */
    BBRT_E_RUN_INDEX = 50      /* a run-time index (GATHER) outside its axis: nothing was read or written */
} bbrt_status_t;

const char *bbrt_status_name(bbrt_status_t s);

/* ------------------------------------------------------------ wire dtypes */
enum {
    BBRT_DT_FLOAT = 1, BBRT_DT_UINT8 = 2, BBRT_DT_INT8 = 3, BBRT_DT_UINT16 = 4,
    BBRT_DT_INT16 = 5, BBRT_DT_INT32 = 6, BBRT_DT_INT64 = 7, BBRT_DT_BOOL = 9,
    BBRT_DT_FLOAT16 = 10, BBRT_DT_DOUBLE = 11, BBRT_DT_UINT32 = 12, BBRT_DT_UINT64 = 13
};
/* bytes per element: bbrt_dtype_size (bbrt_base.h) */

/* --------------------------------------------------------------- envelope */
#define BBRT_FLAG_QUANT 0x1u
#define BBRT_FLAG_RESPONSE 0x2u
#define BBRT_FLAG_ERROR 0x4u
/* a step of a session (docs/wire.md "Sessions"): response_to is the session id (non-zero), step the step;
 * never with RESPONSE */
#define BBRT_FLAG_SESSION 0x8u
#define BBRT_KNOWN_FLAGS 0xFu
#define BBRT_KIND_DATA 0u
#define BBRT_KIND_CONTROL 1u
#define BBRT_PROTO_DATAFLOW 0u
#define BBRT_PROTO_CONTROL 1u
#define BBRT_CTRL_HELLO 1u
#define BBRT_CTRL_PING 2u
#define BBRT_CTRL_PONG 3u
#define BBRT_CTRL_BYE 4u
#define BBRT_CTRL_ERROR 5u
#define BBRT_CTRL_SESSION_CLOSE 6u /* the owner ends a session (FLAG_SESSION names it; docs/wire.md) */
#define BBRT_BROADCAST 0xFFFFFFFFu
/* Clients (bb_edge/deployment/clients.py): client slot k (1..255) is endpoint "_client<k>" with wire id
 * BBRT_CLIENT_ID_BASE + k; a request id's top byte (bits 56..63) names the slot that owns it (0: the
 * host). Graph inputs are taken from the host or from the client that owns the request; graph outputs
 * and error results go to that owner (bbrt_reply_to). */
#define BBRT_CLIENT_ID_BASE 0xFFFF0000u
#define BBRT_MAX_CLIENTS 255u
/* the wire id graph outputs and error results of request_id go to: 0 (the host) or its client's */
uint32_t bbrt_reply_to(uint64_t request_id);
/* 1 when sender may send graph inputs of request_id: the host, or the client slot that owns it */
int bbrt_may_submit(uint32_t sender, uint64_t request_id);
/* the client slot (1..255) of a wire id, 0 when it is not a client's */
uint32_t bbrt_client_slot(uint32_t wire_id);

typedef struct {
    uint8_t kind;
    uint8_t dtype;
    uint8_t rank;
    uint16_t flags;
    uint16_t protocol;
    uint32_t sender;
    uint32_t receiver;
    uint64_t seq;
    uint64_t request_id;
    uint64_t response_to;
    uint32_t edge;
    float scale;
    int32_t zero_point;
    uint32_t payload_len;
    uint32_t dims[BBRT_MAX_RANK];
    const uint8_t *data; /* points into the decoded buffer (in place) */
    uint32_t step;       /* the step of a session envelope (BBRT_FLAG_SESSION, offset 60), else 0 */
} bbrt_envelope_t;

/* data offset of an envelope of this rank: 64 + 8*ceil(rank/2) */
uint32_t bbrt_env_data_offset(uint32_t rank);
/* Decode in place; validation exactly as docs/wire.md, in the same order. */
bbrt_status_t bbrt_env_decode(const uint8_t *buf, size_t len, size_t max_payload,
                              bbrt_envelope_t *out);
/* Validate an envelope of `len` bytes from its first `avail` bytes (at least its data offset:
 * BBRT_E_TRUNCATED before that), the same rules and order as bbrt_env_decode; out->data points
 * at the payload's start in buf, of which avail - data offset bytes are there (streaming receive). */
bbrt_status_t bbrt_env_decode_header(const uint8_t *buf, size_t avail, size_t len, size_t max_payload,
                                     bbrt_envelope_t *out);
/* Write header + dims + padding (data_offset bytes); checks the header rules. */
bbrt_status_t bbrt_env_encode_header(const bbrt_envelope_t *env, uint8_t *out, size_t cap,
                                     size_t *written);
/* Encode a full envelope (header, dims, env->data payload). */
bbrt_status_t bbrt_env_encode(const bbrt_envelope_t *env, uint8_t *out, size_t cap,
                              size_t *written);
/* The routing fields of an envelope's fixed header (docs/wire.md: sender, receiver), read from its
 * first len bytes without validating the rest: what a packet transport needs before it decodes
 * (publish to the receiver's topic, check the sender against the topic). BBRT_E_TRUNCATED when len
 * cannot hold them; nothing else is checked (bbrt_env_decode validates); either out pointer may be 0. */
bbrt_status_t bbrt_env_route(const uint8_t *buf, size_t len, uint32_t *sender, uint32_t *receiver);
/* A control envelope (kind CONTROL, rank-1 UINT8 payload of len bytes at payload) of protocol with
 * message code to receiver; every other field 0 (the caller sets flags, response_to, request_id). */
void bbrt_env_control(bbrt_envelope_t *env, uint16_t protocol, uint32_t code, uint32_t receiver,
                      const uint8_t *payload, uint32_t len);

/* ---------------------------------------------------------------- framing */
/* CRC-32 of the frames: bbrt_crc32_update (bbrt_base.h) */

/* COBS(envelope || crc32_le) || 0x00 into out. */
bbrt_status_t bbrt_frame_encode(const uint8_t *env, size_t len, uint8_t *out, size_t cap,
                                size_t *written);

/* Streaming frame writer: feed envelope bytes in pieces, output goes to put().
 * Needs no buffer for the envelope, only its 255-byte COBS block. */
typedef void (*bbrt_put_fn)(void *ctx, const uint8_t *p, size_t n);
typedef struct {
    bbrt_put_fn put;
    void *ctx;
    uint32_t crc;
    uint32_t n;          /* bytes in block[1..] */
    uint8_t block[256];
} bbrt_frame_writer_t;
void bbrt_fw_begin(bbrt_frame_writer_t *w, bbrt_put_fn put, void *ctx);
void bbrt_fw_write(bbrt_frame_writer_t *w, const uint8_t *p, size_t n);
void bbrt_fw_end(bbrt_frame_writer_t *w);

/* Incremental COBS + CRC deframer decoding into a caller buffer. */
typedef struct {
    uint32_t frames_ok, bad_crc, bad_cobs, too_long, too_short, bytes_in;
} bbrt_frame_stats_t;
typedef struct {
    uint8_t *buf;
    size_t cap;
    size_t len;
    uint32_t left;       /* bytes left in the current COBS block */
    uint8_t pending_zero;
    uint8_t started;
    uint8_t overflow;
    uint8_t bad;
    bbrt_frame_stats_t stats;
} bbrt_deframer_t;
void bbrt_deframer_init(bbrt_deframer_t *d, uint8_t *buf, size_t cap);
/* Push one byte. Returns 1 and sets env and env_len (inside d->buf, CRC stripped)
 * when the byte completes a valid frame, else 0. */
int bbrt_deframer_push(bbrt_deframer_t *d, uint8_t byte, const uint8_t **env, size_t *env_len);
/* Decode one complete frame (without or with its trailing 0x00) into out. */
bbrt_status_t bbrt_frame_decode(const uint8_t *frame, size_t len, uint8_t *out, size_t cap,
                                size_t *env_len);

/* ---------------------------------------------------------------- program */
#define BBRT_PROG_MAGIC 0x54524242u /* "BBRT" little-endian */
#define BBRT_PROG_VERSION 1u
#define BBRT_PROG_HEADER_SIZE 64u
#define BBRT_TENSOR_RECORD 56u
#define BBRT_OP_RECORD 96u
#define BBRT_EDGE_RECORD 16u
#define BBRT_MAX_OP_IN 8u
#define BBRT_MAX_OP_OUT 2u
#define BBRT_OP_PARAMS 16u
#define BBRT_MAX_EDGES 32u

enum { BBRT_STORE_ARENA = 0, BBRT_STORE_CONST = 1 };
/* BBRT_EDGE_STATE: a state pair (docs/bbrt.md "Session slots"): tensor = the state input, peer = the index of
 * the state output tensor whose value at step t is the input at step t+1; edge_id 0; kept in the node's
 * session slots, never on the wire */
enum { BBRT_EDGE_RECV = 0, BBRT_EDGE_SEND = 1, BBRT_EDGE_STATE = 2 };

typedef enum {
    BBRT_OP_CONV_F32 = 1, BBRT_OP_CONV_I8 = 2,
    BBRT_OP_FC_F32 = 3, BBRT_OP_FC_I8 = 4,
    BBRT_OP_MAXPOOL_F32 = 5, BBRT_OP_MAXPOOL_I8 = 6,
    BBRT_OP_AVGPOOL_F32 = 7, BBRT_OP_AVGPOOL_I8 = 8,
    BBRT_OP_GAP_F32 = 9, BBRT_OP_GAP_I8 = 10,
    BBRT_OP_ADD_F32 = 11, BBRT_OP_ADD_I8 = 12,
    BBRT_OP_MUL_F32 = 13, BBRT_OP_MUL_I8 = 14,
    BBRT_OP_RELU_F32 = 15, BBRT_OP_CLIP_F32 = 16,
    BBRT_OP_SIGMOID_F32 = 17, BBRT_OP_TANH_F32 = 18,
    BBRT_OP_LUT_I8 = 19,
    BBRT_OP_SOFTMAX_F32 = 20, BBRT_OP_SOFTMAX_I8 = 21,
    BBRT_OP_COPY = 22, BBRT_OP_CONCAT = 23,
    BBRT_OP_QUANTIZE = 24, BBRT_OP_DEQUANTIZE = 25,
    BBRT_OP_MATMUL_F32 = 26,
    /* training-step float kernels (bbrt_train_kernels.c, include/bbrt_train.h) */
    BBRT_OP_GEMM_F32 = 27, BBRT_OP_BINARY_F32 = 28, BBRT_OP_UNARY_F32 = 29,
    BBRT_OP_LOGSOFTMAX_F32 = 30, BBRT_OP_ONEHOT_F32 = 31, BBRT_OP_REDUCE_F32 = 32,
    BBRT_OP_TRANSPOSE_F32 = 33, BBRT_OP_GREATER_F32 = 34, BBRT_OP_WHERE_F32 = 35,
    BBRT_OP_CONV_POOL_I8 = 36, /* CONV_I8 + MAXPOOL without the conv output (bb_edge/bbrt/lower.py fuse_pool) */
    /* data movement (any dtype), more activations, recurrent layers (docs/bbrt.md) */
    BBRT_OP_TRANSPOSE = 37, BBRT_OP_GATHER_AXES = 38,
    BBRT_OP_ELU_F32 = 39, BBRT_OP_LEAKYRELU_F32 = 40, BBRT_OP_PRELU_F32 = 41,
    BBRT_OP_LSTM_F32 = 42, BBRT_OP_GRU_F32 = 43,
    BBRT_OP_GATHER = 44, /* Gather with run-time int32/int64 indices (an int64 edge stays int64) */
    /* int8 kernels of TFLite builtins (bb_edge/tflite): MAXIMUM/MINIMUM, PRELU, RESIZE_BILINEAR, BATCH_MATMUL */
    BBRT_OP_MAXMIN_I8 = 45, BBRT_OP_PRELU_I8 = 46, BBRT_OP_RESIZE_BILINEAR_I8 = 47,
    BBRT_OP_BATCH_MATMUL_I8 = 48, /* int8 A [..., M, K] x B [..., K, N], batch dims broadcast (BATCH_MATMUL) */
    BBRT_OP_SVDF_I8 = 49, /* TFLite's int8 SVDF: int16 activation state in, its next value out (a STATE pair) */
    BBRT_OP_LSTM_I8 = 50, /* TFLite's integer UNIDIRECTIONAL_SEQUENCE_LSTM (8x8->16); its second output: scratch */
    BBRT_OP__COUNT = 51
} bbrt_opcode_t;

typedef struct {
    uint8_t dtype;
    uint8_t rank;
    uint8_t storage;
    uint32_t dims[BBRT_MAX_RANK];
    uint32_t count; /* elements */
    uint32_t nbytes;
    float scale;
    int32_t zero_point;
    uint8_t *data; /* arena or constant memory (constants are never written) */
} bbrt_tensor_t;

typedef struct {
    uint16_t opcode;
    uint8_t n_in, n_out;
    uint16_t in[BBRT_MAX_OP_IN];
    uint16_t out[BBRT_MAX_OP_OUT];
    int32_t p[BBRT_OP_PARAMS];
} bbrt_op_t;

typedef struct {
    uint32_t edge_id;
    uint32_t peer;
    uint8_t dir;
    uint8_t elem_type;
    uint16_t tensor;
} bbrt_edge_t;

typedef struct {
    const uint8_t *blob;
    uint32_t size;
    uint32_t node_id;
    uint32_t n_tensors, n_ops, n_edges;
    uint32_t arena_size;
    uint32_t tensors_off, ops_off, edges_off, consts_off, consts_size;
    uint8_t *arena;
} bbrt_program_t;

typedef struct bbrt_ctx bbrt_ctx_t;
typedef bbrt_status_t (*bbrt_kernel_fn)(const bbrt_program_t *prog, const bbrt_op_t *op);
typedef bbrt_status_t (*bbrt_check_fn)(const bbrt_program_t *prog, const bbrt_op_t *op);

/* The op resolver: generated per program (only used kernels are linked). */
extern const bbrt_kernel_fn bbrt_op_kernels[BBRT_OP__COUNT];

/* The total size a .bbrt program or learning image declares in its header (docs/bbrt.md: u32 at 8),
 * at most cap (the flash or partition that holds it); 0 when cap cannot hold the field. What a port
 * passes as the size to bbrt_program_load / bbrt_learn_image_parse, which validate the rest. */
size_t bbrt_blob_size(const uint8_t *blob, size_t cap);
/* Validate a program completely and bind it to the caller's arena.
 * blob must be 8-byte aligned and stay valid while the program is used. */
bbrt_status_t bbrt_program_load(bbrt_program_t *prog, const uint8_t *blob, size_t size,
                                uint8_t *arena, size_t arena_size);
/* Tensor i of a loaded program (i < n_tensors). */
void bbrt_program_tensor(const bbrt_program_t *prog, uint32_t i, bbrt_tensor_t *t);
void bbrt_program_op(const bbrt_program_t *prog, uint32_t i, bbrt_op_t *op);
void bbrt_program_edge(const bbrt_program_t *prog, uint32_t i, bbrt_edge_t *e);
/* Run every op once (inputs already in the arena). */
bbrt_status_t bbrt_program_run(const bbrt_program_t *prog);
/* Shape/param check of one op through the resolver's bbrt_op_checks (bbrt_program.c; the checks are in
 * bbrt_check.c), used by the loader. */
bbrt_status_t bbrt_op_check(const bbrt_program_t *prog, const bbrt_op_t *op);

/* ------------------------------------------------------------------- node */
typedef struct {
    uint32_t frames_ok, bad_frames, bad_envelopes, unknown_edge, edge_mismatch,
        not_for_me, inferences, run_errors, pings, evicted;
    /* validation-first seq window and edge authorisation (docs/bbrt.md) */
    uint32_t duplicates, stale_epoch, unauthorised;
    /* link layer (docs/wire.md): envelopes a full window or a down link kept from leaving */
    uint32_t tx_dropped;
    /* session slots (docs/bbrt.md "Session slots"): steps refused, sessions ended by LRU eviction, closed */
    uint32_t session_refused, session_evicted, session_closed;
} bbrt_node_stats_t;

/* Per-sender duplicate filter (docs/wire.md "Sequence numbers and boot epochs", the rules of
 * tests/vectors/engine_rules.json): up to BBRT_SEQ_EPOCHS windows per sender, one per boot
 * epoch, each the highest n applied (top) and a bitmap of the BBRT_SEQ_WINDOW numbers below
 * it. Only an applied envelope moves a window (validation first). */
#ifndef BBRT_SEQ_SENDERS
#define BBRT_SEQ_SENDERS 8u
#endif
#ifndef BBRT_SEQ_EPOCHS
#define BBRT_SEQ_EPOCHS 4u
#endif
#define BBRT_SEQ_WINDOW 64u
typedef struct {
    uint32_t epoch, top;
    uint64_t mask; /* bit i: n = top - i - 1 applied */
    uint8_t used; /* 0 free, 1 regular, 2 probation (opened by an epoch jump, docs/wire.md) */
} bbrt_epochwin_t;
typedef struct {
    uint32_t sender;
    uint32_t age; /* least recently used sender gives way when the table is full */
    uint8_t used;
    bbrt_epochwin_t w[BBRT_SEQ_EPOCHS];
} bbrt_seqwin_t;
/* BBRT_OK (fresh), BBRT_E_DUPLICATE or BBRT_E_STALE_EPOCH; changes nothing. */
bbrt_status_t bbrt_seqwin_check(const bbrt_seqwin_t *w, size_t n, uint32_t sender, uint64_t seq);
/* Record (sender, seq) as applied (after bbrt_seqwin_check said BBRT_OK). */
void bbrt_seqwin_commit(bbrt_seqwin_t *w, size_t n, uint32_t sender, uint64_t seq, uint32_t *clock);

/* port I/O a node with a link layer needs: a millisecond clock and a read that waits at most wait_ms */
typedef uint32_t (*bbrt_now_fn)(void *ctx);
typedef size_t (*bbrt_read_fn)(void *ctx, uint8_t *buf, size_t cap, uint32_t wait_ms);
struct bbrt_link_s;
struct bbrt_node_ota_hooks_s;

/* Requests assembled at once (several request_ids in flight). Each slot stages
 * the Recv payloads of one request in the caller's arena, after the program's
 * own arena bytes: see bbrt_node_arena_size(). */
#ifndef BBRT_REQUEST_SLOTS
#define BBRT_REQUEST_SLOTS 4u
#endif

typedef struct {
    uint64_t request_id;
    uint64_t session;   /* the session its envelopes name (0: none) */
    uint32_t step;      /* and the step */
    uint32_t have_mask; /* bit i: recv edge i arrived */
    uint32_t age;       /* order of arrival of the request's first edge (oldest = smallest) */
    uint8_t used;
} bbrt_request_slot_t;

/* Session slots (docs/bbrt.md "Session slots"): a stateful program (BBRT_EDGE_STATE pairs) keeps each
 * session's state tensors in one of a fixed number of slots in the caller's arena, after the request
 * slots, planned at build time (bbrt_node_arena_size). A slot is (owner, session id): the owner is the
 * client slot in the request ids' top byte (0: the host), so no other identity continues or closes it. */
#ifndef BBRT_SESSION_SLOTS
#define BBRT_SESSION_SLOTS 4u
#endif
typedef struct {
    uint64_t session;      /* the session id (non-zero) */
    uint64_t last_request; /* the request id of its last step: where the owner hears that the session ended */
    uint32_t next_step;    /* the only step it takes next */
    uint32_t age;          /* least recently used session gives way when every slot is taken */
    uint8_t owner;         /* client slot of its request ids (0: the host) */
    uint8_t used;
} bbrt_session_slot_t;

typedef struct {
    bbrt_program_t prog;
    bbrt_deframer_t rx;
    bbrt_frame_writer_t tx;
    bbrt_put_fn put;
    void *put_ctx;
    uint64_t seq;
    uint32_t need_mask;
    uint32_t slot_bytes;  /* staged bytes of one request (0: inputs go straight to the arena) */
    uint32_t n_slots;     /* usable slots: 1..BBRT_REQUEST_SLOTS */
    uint32_t age;
    uint8_t *slot_base;   /* staging area inside the caller's arena (slot_bytes != 0) */
    uint32_t recv_off[BBRT_MAX_EDGES]; /* offset of recv edge i inside a slot */
    bbrt_request_slot_t slots[BBRT_REQUEST_SLOTS];
    /* session slots: state_bytes per slot (0: a stateless program), n_sessions usable, in the arena at session_base */
    uint32_t state_bytes;
    uint32_t n_sessions;
    uint32_t session_age;
    uint8_t *session_base;
    bbrt_session_slot_t sessions[BBRT_SESSION_SLOTS];
    uint8_t unframed; /* 1: put() gets bare envelopes, ending with put(0, 0) (packet transports) */
    bbrt_node_stats_t stats;
    uint32_t boot_epoch;  /* outbound seq = (boot_epoch << 32) | n */
    bbrt_seqwin_t senders[BBRT_SEQ_SENDERS];
    uint32_t seq_clock;
    /* link layer (NULL: bare v1 envelopes, the behaviour before the link layer) */
    struct bbrt_link_s *link;
    bbrt_now_fn now;
    bbrt_read_fn read;
    void *io_ctx;
    uint8_t bare_peer;     /* the peer sent bare envelopes: answer it bare while no link is up */
    const uint8_t *feed_p; /* bytes being fed: a send that waits for window space drains them first */
    size_t feed_n, feed_i;
    /* over-the-air updates (bbrt_ota.h, bbrt_node_ota.c); NULL: protocol 24 is ignored */
    const struct bbrt_node_ota_hooks_s *ota_hooks;
    void *ota;
    /* streaming receive (docs/bbrt.md "Receive path"): the one fragmented message arriving now.
     * A data envelope's payload goes straight to its arena slot; other messages (control, OTA
     * chunks) are staged in ctl (the buffer bbrt_node_link_attach got as rasm). */
    uint8_t *ctl;
    uint32_t ctl_cap;
    struct {
        uint8_t mode;                 /* 0 none, 1 payload into the arena, 2 staged in ctl */
        uint32_t edge, slot, data_off, payload_len, sender;
        uint64_t seq, request_id;     /* of its validated header: the seq window moves when it completes */
        uint64_t session;             /* its session and step (FLAG_SESSION; session 0: none) */
        uint32_t step;
        uint8_t *dst;                 /* the edge's bytes in the arena (tensor or request slot) */
    } in;
} bbrt_node_t;

/* What the node calls for over-the-air updates (set by bbrt_node_ota_attach): through pointers, so a
 * build without bbrt_node_ota.c links and ignores protocol 24. */
struct bbrt_node_ota_hooks_s {
    bbrt_status_t (*on_envelope)(bbrt_node_t *node, const bbrt_envelope_t *env);
    void (*on_idle)(bbrt_node_t *node); /* between requests: a committed update may switch */
    /* a HELLO record carrying the running program's hash: to everyone (BBRT_BROADCAST, response_to 0)
     * or as the answer to a peer's HELLO */
    void (*hello)(bbrt_node_t *node, uint32_t receiver, uint64_t response_to);
};
/* Bind a loaded program to the node (request slots, Recv mask); an update switches with it at an idle point. */
void bbrt_node_set_program(bbrt_node_t *node, const bbrt_program_t *prog, uint8_t *arena, size_t arena_size);
/* Send one envelope (header fields set by the caller; seq and sender are the node's). */
void bbrt_node_send(bbrt_node_t *node, bbrt_envelope_t *env, const uint8_t *payload);

/* Arena bytes a node needs for a loaded program with `slots` request slots:
 * the program's arena (8-aligned) plus slots x the 8-aligned Recv payloads, or
 * just the program's arena when it has at most one Recv edge (a request is
 * then complete with its first envelope and never waits); a stateful program adds
 * BBRT_SESSION_SLOTS x its state bytes (bbrt_node_state_bytes). */
uint32_t bbrt_node_arena_size(const bbrt_program_t *prog, uint32_t slots);
/* Bytes of one session slot: the 8-aligned state inputs of the program's BBRT_EDGE_STATE pairs (0: stateless). */
uint32_t bbrt_node_state_bytes(const bbrt_program_t *prog);

/* rxbuf must hold BBRT_RX_BUFFER_SIZE bytes (or the caller's own maximum).
 * The node uses as many request slots (<= BBRT_REQUEST_SLOTS) as the arena
 * beyond the program's own bytes can stage; with none it assembles one request
 * at a time directly in the program's arena (a newer request evicts it). */
bbrt_status_t bbrt_node_init(bbrt_node_t *node, const uint8_t *program, size_t program_len,
                             uint8_t *arena, size_t arena_size, uint8_t *rxbuf, size_t rxcap,
                             bbrt_put_fn put, void *put_ctx);
/* Feed bytes from the serial link; complete frames are handled immediately. */
void bbrt_node_feed(bbrt_node_t *node, const uint8_t *p, size_t n);
/* Handle one decoded envelope (used by feed; also for packet transports). */
bbrt_status_t bbrt_node_handle(bbrt_node_t *node, const uint8_t *env, size_t len);
/* Send a HELLO control envelope with the given name. */
void bbrt_node_hello(bbrt_node_t *node, const char *name);
/* Speak the link layer (docs/wire.md) on the node's serial line: link is caller storage,
 * txbuf/txcap the transmit buffer (at least one largest envelope; two let one wait for its ACKs
 * while the next is queued). Fragmented messages are received streaming: a data envelope's
 * payload is written straight into its arena slot, fragment by fragment, and only a fragmented
 * non-tensor message (an OTA chunk) is staged, in rasm/rasm_cap (BBRT_MAX_ENVELOPE for OTA chunks
 * of the node's largest payload; 0, 0 without updates: a control message then arrives whole). The node announces as its
 * max_frame what its receive buffer (rxcap of bbrt_node_init, minus the CRC) holds, at most
 * BBRT_LINK_MTU. boot_epoch >= 1 from the port's non-volatile storage. Sends the first HELLO.
 * now/read are the port's clock and a bounded read, used while an envelope waits for transmit room. */
bbrt_status_t bbrt_node_link_attach(bbrt_node_t *node, struct bbrt_link_s *link, uint8_t *txbuf, size_t txcap,
                                    uint8_t *rasm, size_t rasm_cap, uint32_t boot_epoch, const char *name,
                                    bbrt_now_fn now, bbrt_read_fn read, void *io_ctx);
/* Run the link timers (retransmission, HELLO repeat, heartbeat); call when idle. */
void bbrt_node_poll(bbrt_node_t *node);
/* The port's epoch counter (read, +1, store; 0 on failure), used when the link gives a session
 * up and starts over with a greater epoch, so the next boot's epoch is greater again. */
void bbrt_node_epoch_source(bbrt_node_t *node, uint32_t (*next_epoch)(void *ctx));

#ifdef __cplusplus
}
#endif
#endif /* BBRT_H */
