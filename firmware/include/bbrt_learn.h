/*
 * bbrt_learn: a FedAvg client for the no-heap C runtime (docs/learning.md, "MCU clients").
 *
 * Sans-IO, like the link layer: decoded envelopes and `now_ms` go in; envelopes to send (through
 * send), typed events (through event) and state records to keep (through save) come out. The
 * client speaks the learning message format of bb_edge/learn/strategies/base.py, as the Python
 * FedAvgClient does:
 *
 *   server -> client  protocol 17  MODEL (edge 2, request_id = round), MODEL_FULL (edge 6)
 *                                  float32 [n_params]
 *   client -> server  protocol 16  JOIN (edge 1, int64 [samples]), UPDATE (edge 3, request_id = round,
 *                                  float32 [n_params] = trained - global), HEARTBEAT (edge 4, empty)
 *
 * Every envelope is validated before it changes anything (sender, protocol, dtype, rank, element
 * count, round, finite values, duplicate seq): a refusal is one BBRT_LEARN_EV_REFUSED event with a
 * bbrt_learn_refusal_t and the model stays as it was. A MODEL of round r is trained on at once:
 * E passes (or `steps` mini-batches) over the shard in a seeded order (bbrt_learn_batch_order),
 * through the port's trainer (begin / step / end; the training step itself is bbrt_train.h's).
 * Batches are full: the training step has a fixed batch size, so each pass uses the first
 * floor(n / B) * B samples of its order (the next pass's order brings the others back).
 *
 * Round state: the client calls save() with a bbrt_learn_record_t and the model floats when it
 * takes a round's model (before training) and when it has sent that round's update; a port with
 * non-volatile storage keeps the latest record and gives it back to bbrt_learn_restore() at boot.
 * A client that rebooted after taking round r's model and before answering trains round r again
 * from the stored model (the same order, so the same update) and sends it; it JOINs again at
 * every boot (the server answers with MODEL_FULL). Until the server answered (a MODEL or MODEL_FULL),
 * each heartbeat is the JOIN again: a lost JOIN (a broker queue that dropped it) is re-sent. A MODEL of
 * the round last answered is the server asking again for an UPDATE that did not arrive: the client trains
 * that round again (the same model, the same order: the same update) and re-sends it; older rounds are stale.
 *
 * No heap: the model, the round's global model and the order buffer are the caller's.
 */
#ifndef BBRT_LEARN_H
#define BBRT_LEARN_H

#include <stddef.h>
#include <stdint.h>

#include "bbrt.h"
#include "bbrt_link.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BBRT_PROTO_FEDAVG_SERVER 16u
#define BBRT_PROTO_FEDAVG_CLIENT 17u
enum {
    BBRT_LMSG_JOIN = 1, BBRT_LMSG_MODEL = 2, BBRT_LMSG_UPDATE = 3, BBRT_LMSG_HEARTBEAT = 4,
    BBRT_LMSG_FETCH = 5, BBRT_LMSG_MODEL_FULL = 6
};

/* Why an envelope was refused (the device keeps its model). */
typedef enum {
    BBRT_LREF_NONE = 0,
    BBRT_LREF_WRONG_SENDER = 1,  /* not from the server */
    BBRT_LREF_WRONG_DTYPE = 2,   /* not float32 of rank 1 */
    BBRT_LREF_WRONG_SHAPE = 3,   /* element count or payload length differs from n_params */
    BBRT_LREF_STALE_ROUND = 4,   /* a MODEL for a round this client already took or answered */
    BBRT_LREF_NOT_FINITE = 5,    /* NaN or infinity in the model */
    BBRT_LREF_DUPLICATE = 6,     /* (sender, seq) already applied, or from an older boot epoch */
    BBRT_LREF_TRAIN_FAILED = 7,  /* the trainer refused (its status in the event's b) */
    BBRT_LREF_UNKNOWN_MSG = 8,   /* protocol 17 but not MODEL / MODEL_FULL */
    BBRT_LREF__COUNT = 9
} bbrt_learn_refusal_t;

typedef enum {
    BBRT_LEARN_EV_JOINED = 1,        /* a: samples claimed */
    BBRT_LEARN_EV_MODEL_TAKEN = 2,   /* a: round (MODEL_FULL: the server's round) */
    BBRT_LEARN_EV_TRAINED = 3,       /* a: round, b: steps run */
    BBRT_LEARN_EV_UPDATE_SENT = 4,   /* a: round */
    BBRT_LEARN_EV_RESUMED = 5,       /* a: round taken before a reboot and trained again now */
    BBRT_LEARN_EV_REFUSED = 6,       /* a: bbrt_learn_refusal_t, b: round (request_id) or trainer status */
    BBRT_LEARN_EV__COUNT = 7
} bbrt_learn_event_t;

const char *bbrt_learn_refusal_name(bbrt_learn_refusal_t r);
const char *bbrt_learn_event_name(bbrt_learn_event_t e);

/* The port's training step (bbrt_train.h): begin loads the round's global model as the
 * parameters and zeroes the optimizer state, step runs one SGD step on shard samples idx[0..count),
 * end copies the trained parameters out. Each returns 0 on success. */
typedef struct {
    int (*begin)(void *ctx, const float *params, uint32_t n);
    int (*step)(void *ctx, const uint16_t *idx, uint32_t count);
    int (*end)(void *ctx, float *params, uint32_t n);
    /* optional: called between steps (the port keeps its link alive: ACKs, heartbeats) */
    void (*idle)(void *ctx);
    void *ctx;
} bbrt_learn_trainer_t;

/* The record kept in non-volatile storage, followed by n_params floats (the model: the round's
 * global model while pending_round != 0, else the model after the last answered round). */
#define BBRT_LEARN_RECORD_MAGIC 0x4E4C4242u /* "BBLN" */
#define BBRT_LEARN_RECORD_VERSION 1u
typedef struct {
    uint32_t magic, version, node_id, n_params;
    uint32_t answered_round; /* last round whose update was sent */
    uint32_t model_round;    /* round of the stored model */
    uint32_t pending_round;  /* a round's model taken but not answered yet (0: none) */
    uint32_t crc;            /* CRC-32 of the fields above and the model floats */
} bbrt_learn_record_t;

typedef struct {
    uint32_t node_id, server_id;
    uint32_t n_params;
    uint32_t n_samples;      /* shard size (the JOIN's sample count) */
    uint32_t epochs;         /* passes over the shard per round (steps == 0) */
    uint32_t steps;          /* > 0: this many mini-batches per round instead of epochs */
    uint32_t batch_size;
    uint32_t seed;
    uint32_t heartbeat_ms;   /* HEARTBEAT to the server this long after the last envelope sent */
} bbrt_learn_config_t;

/* an envelope to send: header fields in env (seq/sender filled by the client), payload separate */
typedef void (*bbrt_learn_send_fn)(void *io, bbrt_envelope_t *env, const uint8_t *payload);
typedef void (*bbrt_learn_event_fn)(void *io, bbrt_learn_event_t ev, uint32_t a, uint32_t b);
/* keep rec + model (n floats) in non-volatile storage; 0 on success */
typedef int (*bbrt_learn_save_fn)(void *io, const bbrt_learn_record_t *rec, const float *model, uint32_t n);

typedef struct {
    uint32_t envelopes_in, models_taken, rounds_trained, updates_sent, joins, heartbeats, saves_failed;
    uint32_t refused[BBRT_LREF__COUNT];
} bbrt_learn_stats_t;

typedef struct {
    bbrt_learn_config_t cfg;
    bbrt_learn_trainer_t trainer;
    bbrt_learn_send_fn send;
    bbrt_learn_event_fn event;
    bbrt_learn_save_fn save;
    void *io;
    float *model;   /* n_params: the current model */
    float *work;    /* n_params: the round's global model while training, then the update */
    uint16_t *order; /* n_samples: one pass's sample order */
    uint32_t boot_epoch, seq;
    uint32_t answered_round, model_round, pending_round;
    uint8_t joined, resume_due; /* joined: 0 no JOIN yet, 1 JOIN unanswered, 2 answered by the server */
    uint32_t last_sent;
    bbrt_seqwin_t senders[2];
    uint32_t seq_clock;
    bbrt_learn_stats_t stats;
} bbrt_learn_t;

/* BBRT_E_BAD_FIELD if a size is 0, batch_size > n_samples... or a buffer is missing.
 * model must hold the initial model (n_params floats). */
bbrt_status_t bbrt_learn_init(bbrt_learn_t *c, const bbrt_learn_config_t *cfg, const bbrt_learn_trainer_t *tr,
                              float *model, float *work, uint16_t *order, uint32_t boot_epoch,
                              bbrt_learn_send_fn send, bbrt_learn_event_fn event, bbrt_learn_save_fn save,
                              void *io);
/* Take a stored record (and its model floats) at boot; refused (BBRT_E_BAD_FIELD, nothing changed)
 * if its magic, version, node, size or CRC do not match. A pending round is trained at the next tick. */
bbrt_status_t bbrt_learn_restore(bbrt_learn_t *c, const bbrt_learn_record_t *rec, const float *model);
/* One decoded envelope addressed to this node (the port answers PING itself). */
bbrt_learn_refusal_t bbrt_learn_handle(bbrt_learn_t *c, const bbrt_envelope_t *env, uint32_t now_ms);
/* JOIN (once per boot when the link is up: up != 0; repeated as the heartbeat until answered), a resumed
 * round, heartbeats. */
void bbrt_learn_tick(bbrt_learn_t *c, uint32_t now_ms, int up);
/* Only the heartbeat of bbrt_learn_tick (safe while a round trains: the trainer's idle hook). */
void bbrt_learn_heartbeat(bbrt_learn_t *c, uint32_t now_ms);

/* The sample order of one pass: a Fisher-Yates shuffle of 0..n-1 driven by xorshift32 seeded
 * from (seed, node_id, round, pass) (bb_edge/adapters/learn/mcu_fleet.py reproduces it for the reference). */
void bbrt_learn_batch_order(uint16_t *order, uint32_t n, uint32_t seed, uint32_t node_id, uint32_t round,
                            uint32_t pass);
/* CRC-32 of a record's fields (crc excluded) and the model floats. */
uint32_t bbrt_learn_record_crc(const bbrt_learn_record_t *rec, const float *model, uint32_t n);

/* ====================================================================== learn node
 * A training client on a serial line: the learning image (shard, settings, training program)
 * from flash, bbrt_train.h's step as the trainer, the link layer (docs/wire.md) with its
 * fragmentation, PING/PONG, and the round record in the port's non-volatile storage. The ports
 * (ports/posix/learn_main.c, ports/common/learn_mcu_main.c) give it bytes, a clock and storage.
 *
 * Learning image (written by bb_edge/bundle/learning/mcu.py; little-endian, sections 8-aligned):
 *   0 magic "BBLI"  4 version 1  8 total_size  12 node_id  16 server_id  20 n_samples
 *   24 features  28 epochs  32 steps  36 batch_size  40 seed  44 heartbeat_ms
 *   48 x_off (float32 [n_samples, features])  52 y_off (int32 [n_samples])
 *   56 prog_off (the .bbrt training program)  60 prog_size  64 name[16] (HELLO name, NUL-padded)
 *   80 reserved (0) up to the 96-byte header */
#define BBRT_LEARN_IMAGE_MAGIC 0x494C4242u /* "BBLI" */
#define BBRT_LEARN_IMAGE_VERSION 1u
#define BBRT_LEARN_IMAGE_HEADER 96u

typedef struct {
    uint32_t node_id, server_id, n_samples, features, epochs, steps, batch_size, seed, heartbeat_ms;
    const float *x;      /* n_samples x features */
    const int32_t *y;    /* n_samples */
    const uint8_t *prog; /* the training program (8-aligned) */
    uint32_t prog_size;
    char name[17];
} bbrt_learn_image_t;

/* Validate an image header and its bounds (BBRT_E_BAD_MAGIC/VERSION/LENGTH/FIELD); the program is
 * validated by bbrt_train_load, every label by bbrt_train_step. */
bbrt_status_t bbrt_learn_image_parse(const uint8_t *blob, size_t size, bbrt_learn_image_t *out);

/* what a port gives the learn node */
typedef struct {
    void (*put)(void *ctx, const uint8_t *p, size_t n);            /* bytes to the serial line */
    size_t (*read)(void *ctx, uint8_t *buf, size_t cap, uint32_t wait_ms); /* bounded read */
    uint32_t (*now)(void *ctx);                                   /* milliseconds, wrapping */
    bbrt_learn_save_fn save;                                      /* round record (may be NULL) */
    uint32_t (*next_epoch)(void *ctx);                            /* the link starts over (may be NULL) */
    void *ctx;
} bbrt_learn_port_t;

typedef struct {
    bbrt_learn_t client;
    bbrt_learn_image_t img;
    bbrt_learn_port_t port;
    bbrt_link_t *link;
    bbrt_deframer_t rx;
    bbrt_frame_writer_t tx;
    void *train;           /* bbrt_train_t (bbrt_train.h), in the caller's storage */
    float *xb;             /* one batch: batch_size x features */
    int32_t *yb;
    uint8_t *pending;      /* one delivered envelope waiting to be handled (BBRT_MAX_ENVELOPE bytes) */
    uint32_t pending_len;
    uint32_t seq;
    uint8_t busy;          /* handling an envelope: the link holds further DATA (not acked) */
    bbrt_seqwin_t ping_senders[2];
    uint32_t ping_clock;
    uint32_t pings, bad_envelopes, not_for_me, tx_dropped;
} bbrt_learn_node_t;

/* Bytes of work area bbrt_learn_node_init carves for an image: model, round model, order, batch,
 * pending envelope, receive buffer (0 if the image is unusable). */
size_t bbrt_learn_node_work_size(const bbrt_learn_image_t *img, uint32_t n_params);

/* Bind everything: image (validated), the training program loaded into arena (bbrt_train_t in
 * train_storage, sizeof(bbrt_train_t) bytes), the link on txbuf/rasm, work area carved into
 * buffers. Then restore `saved` (a record + floats from storage, may be NULL / refused quietly),
 * and say HELLO. */
bbrt_status_t bbrt_learn_node_init(bbrt_learn_node_t *n, const uint8_t *image, size_t image_size,
                                   void *train_storage, uint8_t *arena, size_t arena_size, bbrt_link_t *link,
                                   uint8_t *txbuf, size_t txcap, uint8_t *rasm, size_t rasm_cap, uint8_t *work,
                                   size_t work_size, uint32_t boot_epoch, const bbrt_learn_port_t *port,
                                   const uint8_t *saved, size_t saved_len);
/* Feed received bytes (frames are deframed, go through the link; envelopes are handled). */
void bbrt_learn_node_feed(bbrt_learn_node_t *n, const uint8_t *p, size_t len);
/* Timers (link, JOIN, heartbeat, a resumed round): call when idle. */
void bbrt_learn_node_poll(bbrt_learn_node_t *n);
/* Report an event of the client as a CTRL_ERROR envelope text to the host ("ModelRefused WRONG_SHAPE
 * round=3"), so refusals are visible off the device. */
void bbrt_learn_node_report(bbrt_learn_node_t *n, const char *text);

#ifdef __cplusplus
}
#endif
#endif /* BBRT_LEARN_H */
