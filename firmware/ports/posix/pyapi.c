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

void bbrtpy_node_stats(uint32_t *out10) { bbrt_memcpy(out10, &py_node.stats, sizeof(py_node.stats)); }

static bbrt_program_t py_prog;
int bbrtpy_load(const uint8_t *blob, size_t n, uint8_t *arena, size_t arena_n) {
    return (int)bbrt_program_load(&py_prog, blob, n, arena, arena_n);
}
int bbrtpy_run(void) { return (int)bbrt_program_run(&py_prog); }
unsigned bbrtpy_max_payload(void) { return BBRT_MAX_PAYLOAD; }
