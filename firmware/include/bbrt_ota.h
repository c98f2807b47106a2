/* Over-the-air program updates for C nodes (docs/wire.md "Program updates", protocol 24).
 *
 * No heap: the caller owns the staging slot (the inactive A/B program buffer, 8-byte aligned) and
 * the per-node HMAC-SHA-256 key provisioned at build time. bbrt_ota_message() takes one OTA
 * message (the envelope's edge = type, its payload) and writes at most one reply (READY, NACK or
 * SWITCHED) into the caller's buffer; a COMMIT is applied by bbrt_ota_poll() at an idle point. */
#ifndef BBRT_OTA_H
#define BBRT_OTA_H
#include <stddef.h>
#include <stdint.h>
#include "bbrt.h"

/* ---- SHA-256 and HMAC-SHA-256 (FIPS 180-4, RFC 2104) ---- */
typedef struct {
    uint32_t h[8];
    uint64_t len;      /* bytes hashed so far */
    uint8_t buf[64];
    uint32_t fill;
} bbrt_sha256_t;

void bbrt_sha256_init(bbrt_sha256_t *s);
void bbrt_sha256_update(bbrt_sha256_t *s, const uint8_t *data, size_t n);
void bbrt_sha256_final(bbrt_sha256_t *s, uint8_t out[32]);
void bbrt_sha256(const uint8_t *data, size_t n, uint8_t out[32]);
/* keys longer than 64 bytes are hashed first, as RFC 2104 says */
void bbrt_hmac_sha256(const uint8_t *key, size_t key_len, const uint8_t *msg, size_t n, uint8_t out[32]);
/* constant-time comparison: 1 when equal */
int bbrt_ct_equal(const uint8_t *a, const uint8_t *b, size_t n);

/* ---- the update protocol ---- */
enum { BBRT_OTA_PROTO = 24 };
enum { BBRT_OTA_OFFER = 1, BBRT_OTA_DATA = 2, BBRT_OTA_COMMIT = 3, BBRT_OTA_ABORT = 4,
       BBRT_OTA_READY = 5, BBRT_OTA_NACK = 6, BBRT_OTA_SWITCHED = 7, BBRT_OTA_OFFER2 = 8,
       BBRT_OTA_RESUME = 15 /* u32 update id, u32 offset: the bytes of the offered image the slot holds */ };
/* NACK codes: the same numbers as bb_edge/engine/ota.py */
enum { BBRT_OTA_BAD_MESSAGE = 1, BBRT_OTA_BUSY = 2, BBRT_OTA_TOO_LARGE = 3, BBRT_OTA_TRUNCATED = 4,
       BBRT_OTA_CORRUPT = 5, BBRT_OTA_BAD_SIGNATURE = 6, BBRT_OTA_INVALID_PROGRAM = 7,
       BBRT_OTA_CONTRACT_MISMATCH = 8, BBRT_OTA_WRONG_TARGET = 9, BBRT_OTA_UNKNOWN_UPDATE = 10,
       BBRT_OTA_ROLLED_BACK = 11, BBRT_OTA_NO_KEY = 13, BBRT_OTA_ABORTED = 16, BBRT_OTA_STALE_VERSION = 17,
       BBRT_OTA_WRONG_DEPLOYMENT = 18 };
enum { BBRT_OTA_TARGET_BBRT = 2, BBRT_OTA_SIG_HMAC = 2 };
/* the deployers a node takes updates from: the host (id 0) and bb-edge deploy (_deploy, its own id) */
#define BBRT_OTA_DEPLOY_ID 0xFFFFFFFEu
enum { BBRT_OTA_IDLE = 0, BBRT_OTA_RECEIVING = 1, BBRT_OTA_STAGED = 2, BBRT_OTA_COMMITTING = 3 };
#define BBRT_OTA_REPLY_MAX 64u /* a reply never needs more (NACK reasons are not sent by C nodes) */
#define BBRT_OTA_NAME_MAX 51u
#define BBRT_OTA_DEPLOYMENT_MAX 63u /* bb_edge/names.py: names are 1..63 characters */

typedef struct {
    /* given by the caller (bbrt_ota_init) */
    uint8_t *slot;            /* the inactive program slot, 8-byte aligned */
    size_t slot_cap;
    uint8_t *arena;           /* the node's arena (the staged program is checked against it) */
    size_t arena_size;
    const uint8_t *key;       /* per-node HMAC-SHA-256 key; NULL: every OFFER is refused (NO_KEY) */
    size_t key_len;
    char node[BBRT_OTA_NAME_MAX + 1];
    char deployment[BBRT_OTA_DEPLOYMENT_MAX + 1]; /* the name a signed manifest must carry ("" by default) */
    uint64_t accepted;        /* anti-rollback: the highest version this node switched to (0: none) */
    uint64_t version;         /* the version of the update being staged */
    uint32_t running_update;  /* the update id the node last switched to (a repeated OFFER of it is no news) */
    uint32_t has_running;
    /* state */
    uint32_t state, update_id, size, received, refused_update;
    uint8_t sha[32], sig[32];
    bbrt_sha256_t hash;       /* streamed over the chunks as they arrive */
    bbrt_program_t staged;
    uint32_t refusals, switches;
    uint16_t last_code;
    uint16_t refused_code;    /* the code that ended refused_update: a COMMIT or ABORT of it is answered with it */
    /* resumable transfer: the slot holds the first `held` bytes of the image (held_size bytes, SHA-256
     * held_sha) from a transfer interrupted before this boot (bbrt_node_ota_persist loads them); an OFFER2
     * of those bytes resumes there. Every OFFER2 that starts or resumes a transfer is answered RESUME. */
    uint32_t held, held_size;
    uint8_t held_sha[32];
    uint32_t resumes;         /* transfers resumed at a non-zero offset */
} bbrt_ota_t;

/* 0 on success, -1 when the slot is misaligned or the node name does not fit. */
int bbrt_ota_init(bbrt_ota_t *o, const char *node, uint8_t *slot, size_t slot_cap, uint8_t *arena,
                  size_t arena_size, const uint8_t *key, size_t key_len);
/* The deployment name signed manifests must carry and the highest version accepted so far (read from
 * the node's persistent record at boot). 0 on success, -1 when the name does not fit. */
int bbrt_ota_set_manifest(bbrt_ota_t *o, const char *deployment, uint64_t accepted);
/* One OTA message from the deployer (OFFER2 only: an unversioned OFFER is refused BAD_SIGNATURE). `active` is the running program (the contract reference).
 * Returns the reply's type (READY/NACK/RESUME) with its payload in `reply` (`*reply_len` bytes), or 0.
 * An OFFER2 that passes every check is answered RESUME(update id, offset): 0 for a new transfer; the bytes
 * already received when it offers the same image (size and SHA-256) as the transfer in progress (a
 * restarted deployer: its new update id, version and signature replace the old ones) or as the one
 * `held` from before a reboot. DATA then continues at that offset (DATA at offset 0 starts over). The
 * whole image's SHA-256 and signature are checked at the end as for any transfer. */
uint16_t bbrt_ota_message(bbrt_ota_t *o, const bbrt_program_t *active, uint16_t type, const uint8_t *p,
                          size_t n, uint8_t *reply, size_t reply_cap, size_t *reply_len);
/* Called by the node loop; `idle` = no request is in progress. When a COMMIT is pending and the
 * node is idle, checks the staged program once more, copies its descriptor into `*active`
 * (the caller then swaps its A/B slot buffers: the slot now holds the running program) and
 * returns SWITCHED with the new program's SHA-256 in `reply`; else 0. */
uint16_t bbrt_ota_poll(bbrt_ota_t *o, int idle, bbrt_program_t *active, uint8_t *reply, size_t reply_cap,
                       size_t *reply_len);
/* sizeof(bbrt_ota_t), for bindings that allocate it (tests use ctypes) */
size_t bbrt_ota_sizeof(void);

/* ---- the power-safe boot record (docs/transports.md "Power cuts") ----
 * A flash area (an MCU flash region, a posix state file) reached through the caller's read/write:
 * two 64-byte records at 0 and 64, then two program slots at BBRT_OTA_FLASH_SLOT0 and
 * BBRT_OTA_FLASH_SLOT0 + slot_cap (rounded up to 4 KiB). A record names the program to boot (loc: 0 the
 * factory program, 1 or 2 a flash slot), its length and SHA-256, and the highest accepted version; a
 * sequence number and a CRC-32 make the newest valid record win. A record is only ever written into
 * the slot of the older one, so a cut mid-write leaves the newer intact record; an image is written
 * before any record names it, and at boot its SHA-256 is checked against the record before it runs. */
#define BBRT_OTA_RECORD_SIZE 64u
#define BBRT_OTA_FLASH_SLOT0 4096u
#define BBRT_OTA_RECORD_MAGIC 0x524F4242u /* "BBOR" */
/* The transfer-progress record (64 bytes at BBRT_OTA_PROGRESS_OFF, after the two boot records): the flash
 * slot a transfer is written to, its image size and SHA-256 and how many bytes of it (a multiple of
 * BBRT_OTA_RESUME_STEP) are durable there. Only an OFFER2 of the same image resumes from it; no boot
 * record names a slot being staged, so a partial image never runs. */
#define BBRT_OTA_PROGRESS_OFF 128u
#define BBRT_OTA_PROGRESS_MAGIC 0x504F4242u /* "BBOP" */
#define BBRT_OTA_RESUME_STEP 4096u
typedef struct {
    int (*read)(void *ctx, uint32_t off, uint8_t *buf, uint32_t n);        /* 0 on success */
    int (*write)(void *ctx, uint32_t off, const uint8_t *buf, uint32_t n); /* 0 when durable */
    void *ctx;
    uint32_t slot_cap; /* bytes per flash program slot */
    uint32_t page;     /* bytes per image write call (a flash page); 0: 256 */
} bbrt_ota_flash_t;
typedef struct {
    uint32_t seq;
    uint64_t version; /* the highest version accepted */
    uint32_t loc;     /* 0: the factory program; 1, 2: flash slot 0, 1 */
    uint32_t len;
    uint8_t sha[32];
} bbrt_ota_record_t;
/* Encode/decode one record (decode: 0 when magic, CRC and fields are valid). */
void bbrt_ota_record_encode(const bbrt_ota_record_t *r, uint8_t out[BBRT_OTA_RECORD_SIZE]);
int bbrt_ota_record_decode(const uint8_t in[BBRT_OTA_RECORD_SIZE], uint32_t slot_cap, bbrt_ota_record_t *r);
/* Offset of flash location loc (1 or 2) in the area. */
uint32_t bbrt_ota_flash_offset(const bbrt_ota_flash_t *f, uint32_t loc);
/* Write r with the next sequence number into the older record slot (r->seq is set). 0 on success. */
int bbrt_ota_record_write(const bbrt_ota_flash_t *f, bbrt_ota_record_t *r);
/* Boot: the newest valid record whose image reads back with its SHA-256 into ram (cap bytes) wins,
 * else the other one; neither: *r is the factory program (loc 0, len 0) and 1 is returned, else 0.
 * r->version is the highest version of any valid record either way (a version never goes down). */
int bbrt_ota_boot(const bbrt_ota_flash_t *f, uint8_t *ram, size_t cap, bbrt_ota_record_t *r);

/* ---- the update protocol in a bbrt node (bbrt_node_ota.c) ----
 * The node (bbrt_node.c) reaches this through its ota_hooks (bbrt.h), so a build without
 * bbrt_node_ota.c still links and simply ignores protocol 24. A/B: the node runs the program in
 * one caller-owned slot; an update is staged in the other; a switch at an idle point swaps them. */
typedef struct bbrt_node_ota_s {
    struct bbrt_node_ota_hooks_s hooks;
    bbrt_ota_t ota;
    uint8_t *slot[2];     /* A/B program slots, 8-byte aligned, slot_cap bytes each */
    size_t slot_cap;
    uint32_t active;      /* index of the slot holding the running program */
    uint32_t program_len; /* bytes of the running program */
    uint8_t hash[32];     /* SHA-256 of the running program: announced in HELLO */
    uint32_t rollbacks, not_host;
    char name[BBRT_OTA_NAME_MAX + 1];
    /* the last switch, revertible by an ABORT of its update id until another update is staged
     * (docs/wire.md "Atomic fleet update"): the previous program is still in the other slot */
    uint32_t switched_uid, prev_len, reverts;
    uint8_t prev_hash[32];
    uint8_t revertible, revert_pending;
    uint32_t reply_to;    /* the deployer that spoke last (0 or BBRT_OTA_DEPLOY_ID): replies go there */
    /* persistence (bbrt_node_ota_persist): NULL keeps everything in RAM */
    const bbrt_ota_flash_t *flash;
    uint32_t loc[2];      /* flash location (record loc) of each RAM slot's program */
    uint32_t seq;         /* sequence number of the newest record */
    uint32_t flash_errors;
    /* the transfer being written to flash as it arrives (resumable across a reboot): its size and
     * SHA-256 (0: none) and the bytes of it durable in the staging flash slot */
    uint32_t stage_size, durable;
    uint8_t stage_sha[32];
} bbrt_node_ota_t;

/* Wire OTA into an initialised node. The node runs the program_len bytes at slot_a (it was
 * bbrt_node_init'ed from there); slot_b takes updates. arena/arena_size are the node's arena (a
 * staged program is validated against it), key/key_len the per-node HMAC-SHA-256 key provisioned
 * at build time (NULL: every OFFER is refused with NO_KEY). 0 on success, -1 on bad arguments. */
int bbrt_node_ota_attach(bbrt_node_t *node, bbrt_node_ota_t *o, const char *name, uint8_t *slot_a,
                         uint8_t *slot_b, size_t slot_cap, size_t program_len, uint8_t *arena, size_t arena_size,
                         const uint8_t *key, size_t key_len);
/* Make the node's updates survive power cuts: chunks are written to the staging flash slot as they arrive
 * (every BBRT_OTA_RESUME_STEP bytes, then the progress record), a transfer interrupted by a reboot is
 * loaded back here and resumed by an OFFER2 of the same image; a verified image is whole in flash before READY and a
 * record naming it (with the new accepted version) before SWITCHED; an ABORT after the switch writes a
 * record naming the previous program again. `booted` is what bbrt_ota_boot chose (the program the node
 * was attached with), `deployment` the deployment name signed manifests must carry. 0 or -1. */
int bbrt_node_ota_persist(bbrt_node_ota_t *o, const bbrt_ota_flash_t *f, const bbrt_ota_record_t *booted,
                          const char *deployment);
/* Switch to a committed update if the node is idle (no request half-assembled); ports call it
 * between requests (the node also calls it after each envelope). */
void bbrt_node_ota_poll(bbrt_node_t *node);

#endif
