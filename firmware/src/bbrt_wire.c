/* Envelope v1 codec and COBS + CRC-32 framing (docs/wire.md). No allocation. Uses the base layer
 * (bbrt_base.c: bbrt_memcpy, bbrt_memset, bbrt_crc32_update, bbrt_dtype_size) and nothing else. */
#include "bbrt.h"
#include "bbrt_internal.h"

/* a quantization scale is finite and > 0: on its IEEE bits, +0 is 0 and sign, inf and NaN
 * patterns are >= 0x7F800000 (no float compare, so int8 nodes link no soft-float helper) */
static int scale_ok(uint32_t bits) { return bits != 0u && bits < 0x7F800000u; }

uint32_t bbrt_env_data_offset(uint32_t rank) { return 64u + 8u * ((rank + 1u) / 2u); }

bbrt_status_t bbrt_env_route(const uint8_t *b, size_t len, uint32_t *sender, uint32_t *receiver) {
    if (b == 0 || len < 16u) return BBRT_E_TRUNCATED; /* sender at 8, receiver at 12 (docs/wire.md) */
    if (sender != 0) *sender = bbrt_rd_u32(b + 8);
    if (receiver != 0) *receiver = bbrt_rd_u32(b + 12);
    return BBRT_OK;
}

void bbrt_env_control(bbrt_envelope_t *e, uint16_t protocol, uint32_t code, uint32_t receiver,
                      const uint8_t *payload, uint32_t len) {
    bbrt_memset(e, 0, sizeof(*e));
    e->kind = BBRT_KIND_CONTROL;
    e->protocol = protocol;
    e->receiver = receiver;
    e->edge = code;
    e->dtype = BBRT_DT_UINT8;
    e->rank = 1u;
    e->dims[0] = len;
    e->payload_len = len;
    e->data = payload;
}

/* The envelope of `len` bytes of which the first `avail` are in b (avail == len: all of it). Every
 * rule of docs/wire.md is checked on the header alone (the payload's bytes are never read), so a
 * streaming receiver validates the header before any payload byte lands (bbrt_env_decode_header). */
static bbrt_status_t decode(const uint8_t *b, size_t avail, size_t len, size_t max_payload, bbrt_envelope_t *e) {
    uint32_t i, plen, off, isz;
    uint64_t expected;
    uint16_t res0;
    uint32_t res1;
    if (b == 0 || e == 0 || len < 64u || avail < 64u || avail > len) return BBRT_E_TRUNCATED;
    if (b[0] != 0xBBu || b[1] != 0xE1u) return BBRT_E_BAD_MAGIC;
    if (b[2] != 1u) return BBRT_E_BAD_VERSION;
    if (b[3] > 1u) return BBRT_E_BAD_KIND;
    e->kind = b[3];
    e->flags = bbrt_rd_u16(b + 4);
    res0 = bbrt_rd_u16(b + 46);
    res1 = bbrt_rd_u32(b + 60);
    if ((e->flags & ~0x7u) != 0u || res0 != 0u || res1 != 0u) return BBRT_E_BAD_FIELD;
    e->dtype = b[44];
    e->rank = b[45];
    isz = bbrt_dtype_size(e->dtype);
    if (isz == 0u) return BBRT_E_BAD_DTYPE;
    if (e->rank > BBRT_MAX_RANK) return BBRT_E_BAD_RANK;
    if ((e->flags & BBRT_FLAG_QUANT) && e->dtype != BBRT_DT_INT8 && e->dtype != BBRT_DT_UINT8)
        return BBRT_E_BAD_FIELD;
    if (e->flags & BBRT_FLAG_QUANT) {
        if (!scale_ok(bbrt_rd_u32(b + 48))) return BBRT_E_BAD_FIELD; /* NaN, <= 0, inf */
    } else if (bbrt_rd_u32(b + 48) != 0u || bbrt_rd_u32(b + 52) != 0u) {
        return BBRT_E_BAD_FIELD;
    }
    plen = bbrt_rd_u32(b + 56);
    if ((size_t)plen > max_payload) return BBRT_E_TOO_LARGE;
    off = bbrt_env_data_offset(e->rank);
    if (len < (size_t)off + (size_t)plen) return BBRT_E_TRUNCATED;
    if (len > (size_t)off + (size_t)plen) return BBRT_E_BAD_LENGTH;
    if (avail < (size_t)off) return BBRT_E_TRUNCATED; /* dims not here yet: the header is not complete */
    if ((e->rank & 1u) && bbrt_rd_u32(b + 64u + 4u * e->rank) != 0u) return BBRT_E_BAD_FIELD; /* padding */
    expected = isz;
    for (i = 0; i < e->rank; i++) {
        uint32_t d = bbrt_rd_u32(b + 64u + 4u * i);
        e->dims[i] = d;
        if (d != 0u && expected > (uint64_t)0xFFFFFFFFu / d) { /* exceeds any u32 payload */
            expected = (uint64_t)0x100000000ull;
            continue;
        }
        expected *= d;
    }
    /* a zero dim after an overflow still makes the product 0 */
    for (i = 0; i < e->rank; i++)
        if (e->dims[i] == 0u) expected = 0u;
    if (expected != (uint64_t)plen) return BBRT_E_BAD_LENGTH;
    for (i = e->rank; i < BBRT_MAX_RANK; i++) e->dims[i] = 0u;
    e->protocol = bbrt_rd_u16(b + 6);
    e->sender = bbrt_rd_u32(b + 8);
    e->receiver = bbrt_rd_u32(b + 12);
    e->seq = bbrt_rd_u64(b + 16);
    e->request_id = bbrt_rd_u64(b + 24);
    e->response_to = bbrt_rd_u64(b + 32);
    e->edge = bbrt_rd_u32(b + 40);
    e->scale = bbrt_rd_f32(b + 48);
    e->zero_point = (int32_t)bbrt_rd_u32(b + 52);
    e->payload_len = plen;
    e->data = b + off;
    return BBRT_OK;
}

bbrt_status_t bbrt_env_decode(const uint8_t *b, size_t len, size_t max_payload, bbrt_envelope_t *e) {
    return decode(b, len, len, max_payload, e);
}

bbrt_status_t bbrt_env_decode_header(const uint8_t *b, size_t avail, size_t len, size_t max_payload,
                                     bbrt_envelope_t *e) {
    return decode(b, avail, len, max_payload, e);
}

bbrt_status_t bbrt_env_encode_header(const bbrt_envelope_t *e, uint8_t *o, size_t cap,
                                     size_t *written) {
    uint32_t i, off, isz;
    uint64_t expected;
    int quant;
    if (e == 0 || o == 0) return BBRT_E_NO_SPACE;
    if (e->kind > 1u) return BBRT_E_BAD_KIND;
    if ((e->flags & ~0x7u) != 0u) return BBRT_E_BAD_FIELD;
    isz = bbrt_dtype_size(e->dtype);
    if (isz == 0u) return BBRT_E_BAD_DTYPE;
    if (e->rank > BBRT_MAX_RANK) return BBRT_E_BAD_RANK;
    quant = (e->flags & BBRT_FLAG_QUANT) != 0u;
    if (quant && e->dtype != BBRT_DT_INT8 && e->dtype != BBRT_DT_UINT8) return BBRT_E_BAD_FIELD;
    if (quant && !scale_ok(bbrt_f32_bits(e->scale))) return BBRT_E_BAD_FIELD;
    expected = isz;
    for (i = 0; i < e->rank; i++) {
        if (expected > 0xFFFFFFFFull) break;
        expected *= e->dims[i];
    }
    for (i = 0; i < e->rank; i++)
        if (e->dims[i] == 0u) expected = 0u; /* a zero dim wins over an overflow, as in the decoder */
    if (expected != (uint64_t)e->payload_len) return BBRT_E_BAD_LENGTH;
    off = bbrt_env_data_offset(e->rank);
    if (cap < off) return BBRT_E_NO_SPACE;
    bbrt_memset(o, 0, off);
    o[0] = 0xBBu;
    o[1] = 0xE1u;
    o[2] = 1u;
    o[3] = e->kind;
    bbrt_wr_u16(o + 4, e->flags);
    bbrt_wr_u16(o + 6, e->protocol);
    bbrt_wr_u32(o + 8, e->sender);
    bbrt_wr_u32(o + 12, e->receiver);
    bbrt_wr_u64(o + 16, e->seq);
    bbrt_wr_u64(o + 24, e->request_id);
    bbrt_wr_u64(o + 32, e->response_to);
    bbrt_wr_u32(o + 40, e->edge);
    o[44] = e->dtype;
    o[45] = e->rank;
    bbrt_wr_u32(o + 48, quant ? bbrt_f32_bits(e->scale) : 0u); /* bits: no float compare or move */
    bbrt_wr_u32(o + 52, quant ? (uint32_t)e->zero_point : 0u);
    bbrt_wr_u32(o + 56, e->payload_len);
    for (i = 0; i < e->rank; i++) bbrt_wr_u32(o + 64u + 4u * i, e->dims[i]);
    *written = off;
    return BBRT_OK;
}

bbrt_status_t bbrt_env_encode(const bbrt_envelope_t *e, uint8_t *o, size_t cap, size_t *written) {
    size_t off = 0;
    bbrt_status_t st = bbrt_env_encode_header(e, o, cap, &off);
    if (st != BBRT_OK) return st;
    if (cap - off < e->payload_len) return BBRT_E_NO_SPACE;
    if (e->payload_len) bbrt_memcpy(o + off, e->data, e->payload_len);
    *written = off + e->payload_len;
    return BBRT_OK;
}

/* ------------------------------------------------------------------- COBS */
void bbrt_fw_begin(bbrt_frame_writer_t *w, bbrt_put_fn put, void *ctx) {
    w->put = put;
    w->ctx = ctx;
    w->crc = 0u;
    w->n = 0u;
}

static void fw_flush_block(bbrt_frame_writer_t *w) {
    w->block[0] = (uint8_t)(w->n + 1u);
    w->put(w->ctx, w->block, w->n + 1u);
    w->n = 0u;
}

static void fw_byte(bbrt_frame_writer_t *w, uint8_t b) {
    if (b == 0u) {
        fw_flush_block(w);
        return;
    }
    w->block[1u + w->n] = b;
    w->n++;
    if (w->n == 254u) { /* 0xFF block: no implied zero */
        w->block[0] = 0xFFu;
        w->put(w->ctx, w->block, 255u);
        w->n = 0u;
    }
}

void bbrt_fw_write(bbrt_frame_writer_t *w, const uint8_t *p, size_t n) {
    size_t i;
    w->crc = bbrt_crc32_update(w->crc, p, n);
    for (i = 0; i < n; i++) fw_byte(w, p[i]);
}

void bbrt_fw_end(bbrt_frame_writer_t *w) {
    uint8_t c[4];
    uint8_t z = 0u;
    int i;
    bbrt_wr_u32(c, w->crc);
    for (i = 0; i < 4; i++) fw_byte(w, c[i]);
    fw_flush_block(w);
    w->put(w->ctx, &z, 1u);
}

typedef struct {
    uint8_t *out;
    size_t cap, len;
    int overflow;
} buf_sink_t;

static void buf_put(void *ctx, const uint8_t *p, size_t n) {
    buf_sink_t *s = (buf_sink_t *)ctx;
    if (s->overflow || s->cap - s->len < n) {
        s->overflow = 1;
        return;
    }
    bbrt_memcpy(s->out + s->len, p, n);
    s->len += n;
}

bbrt_status_t bbrt_frame_encode(const uint8_t *env, size_t len, uint8_t *out, size_t cap,
                                size_t *written) {
    bbrt_frame_writer_t w;
    buf_sink_t s;
    s.out = out;
    s.cap = cap;
    s.len = 0;
    s.overflow = 0;
    bbrt_fw_begin(&w, buf_put, &s);
    bbrt_fw_write(&w, env, len);
    bbrt_fw_end(&w);
    if (s.overflow) return BBRT_E_NO_SPACE;
    *written = s.len;
    return BBRT_OK;
}

void bbrt_deframer_init(bbrt_deframer_t *d, uint8_t *buf, size_t cap) {
    bbrt_memset(d, 0, sizeof(*d));
    d->buf = buf;
    d->cap = cap;
}

static void deframer_reset(bbrt_deframer_t *d) {
    d->len = 0;
    d->left = 0;
    d->pending_zero = 0;
    d->started = 0;
    d->overflow = 0;
    d->bad = 0;
}

static void deframer_out(bbrt_deframer_t *d, uint8_t b) {
    if (d->len >= d->cap) {
        d->overflow = 1;
        return;
    }
    d->buf[d->len++] = b;
}

int bbrt_deframer_push(bbrt_deframer_t *d, uint8_t byte, const uint8_t **env, size_t *env_len) {
    d->stats.bytes_in++;
    if (byte != 0u) {
        if (d->overflow || d->bad) return 0;
        d->started = 1;
        if (d->left == 0u) { /* a code byte */
            if (d->pending_zero) deframer_out(d, 0u);
            d->left = (uint32_t)byte - 1u;
            d->pending_zero = (byte != 0xFFu);
        } else {
            deframer_out(d, byte);
            d->left--;
        }
        return 0;
    }
    /* delimiter */
    if (!d->started) { /* idle delimiter / flush byte */
        deframer_reset(d);
        return 0;
    }
    if (d->overflow) {
        d->stats.too_long++;
        deframer_reset(d);
        return 0;
    }
    if (d->left != 0u) {
        d->stats.bad_cobs++;
        deframer_reset(d);
        return 0;
    }
    if (d->len < 5u) {
        d->stats.too_short++;
        deframer_reset(d);
        return 0;
    }
    {
        size_t n = d->len - 4u;
        uint32_t crc = bbrt_rd_u32(d->buf + n);
        deframer_reset(d);
        if (bbrt_crc32_update(0u, d->buf, n) != crc) {
            d->stats.bad_crc++;
            return 0;
        }
        d->stats.frames_ok++;
        *env = d->buf;
        *env_len = n;
        return 1;
    }
}

bbrt_status_t bbrt_frame_decode(const uint8_t *frame, size_t len, uint8_t *out, size_t cap,
                                size_t *env_len) {
    bbrt_deframer_t d;
    const uint8_t *env = 0;
    size_t i, n = 0;
    if (len > 0u && frame[len - 1u] == 0u) len--;
    bbrt_deframer_init(&d, out, cap);
    for (i = 0; i < len; i++) {
        if (frame[i] == 0u) return BBRT_E_BAD_FRAME;
        (void)bbrt_deframer_push(&d, frame[i], &env, &n);
    }
    if (!bbrt_deframer_push(&d, 0u, &env, &n)) {
        if (d.stats.bad_crc) return BBRT_E_BAD_CRC;
        if (d.stats.too_long) return BBRT_E_NO_SPACE;
        return BBRT_E_BAD_FRAME;
    }
    *env_len = n;
    return BBRT_OK;
}

const char *bbrt_status_name(bbrt_status_t s) {
    switch (s) {
    case BBRT_OK: return "OK";
    case BBRT_E_TRUNCATED: return "TRUNCATED";
    case BBRT_E_BAD_MAGIC: return "BAD_MAGIC";
    case BBRT_E_BAD_VERSION: return "BAD_VERSION";
    case BBRT_E_BAD_KIND: return "BAD_KIND";
    case BBRT_E_BAD_FIELD: return "BAD_FIELD";
    case BBRT_E_BAD_DTYPE: return "BAD_DTYPE";
    case BBRT_E_BAD_RANK: return "BAD_RANK";
    case BBRT_E_TOO_LARGE: return "TOO_LARGE";
    case BBRT_E_BAD_LENGTH: return "BAD_LENGTH";
    case BBRT_E_BAD_FRAME: return "BAD_FRAME";
    case BBRT_E_BAD_CRC: return "BAD_CRC";
    case BBRT_E_NO_SPACE: return "NO_SPACE";
    case BBRT_E_PROG_MAGIC: return "PROG_MAGIC";
    case BBRT_E_PROG_VERSION: return "PROG_VERSION";
    case BBRT_E_PROG_TRUNCATED: return "PROG_TRUNCATED";
    case BBRT_E_PROG_CRC: return "PROG_CRC";
    case BBRT_E_PROG_ALIGN: return "PROG_ALIGN";
    case BBRT_E_PROG_BOUNDS: return "PROG_BOUNDS";
    case BBRT_E_PROG_OPCODE: return "PROG_OPCODE";
    case BBRT_E_PROG_UNSUPPORTED: return "PROG_UNSUPPORTED";
    case BBRT_E_PROG_TENSOR: return "PROG_TENSOR";
    case BBRT_E_PROG_SHAPE: return "PROG_SHAPE";
    case BBRT_E_PROG_PARAM: return "PROG_PARAM";
    case BBRT_E_PROG_EDGE: return "PROG_EDGE";
    case BBRT_E_ARENA_SMALL: return "ARENA_SMALL";
    case BBRT_E_NOT_LITTLE_ENDIAN: return "NOT_LITTLE_ENDIAN";
    case BBRT_E_UNKNOWN_EDGE: return "UNKNOWN_EDGE";
    case BBRT_E_EDGE_MISMATCH: return "EDGE_MISMATCH";
    case BBRT_E_WRONG_RECEIVER: return "WRONG_RECEIVER";
    case BBRT_E_DUPLICATE: return "DUPLICATE";
    case BBRT_E_STALE_EPOCH: return "STALE_EPOCH";
    case BBRT_E_UNAUTHORISED: return "UNAUTHORISED";
    case BBRT_E_RUN_INDEX: return "RUN_INDEX";
    default: return "UNKNOWN";
    }
}
