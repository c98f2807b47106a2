/* Internal helpers of bbrt: little-endian loads/stores that never assume alignment, the resolver's check
 * table and the libm-free math. */
#ifndef BBRT_INTERNAL_H
#define BBRT_INTERNAL_H
#include "bbrt.h"

static inline uint16_t bbrt_rd_u16(const uint8_t *p) {
    return (uint16_t)((uint16_t)p[0] | ((uint16_t)p[1] << 8));
}
static inline uint32_t bbrt_rd_u32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t bbrt_rd_u64(const uint8_t *p) {
    return (uint64_t)bbrt_rd_u32(p) | ((uint64_t)bbrt_rd_u32(p + 4) << 32);
}
static inline float bbrt_rd_f32(const uint8_t *p) {
    union { uint32_t u; float f; } v;
    v.u = bbrt_rd_u32(p);
    return v.f;
}
static inline void bbrt_wr_u16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void bbrt_wr_u32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline void bbrt_wr_u64(uint8_t *p, uint64_t v) {
    bbrt_wr_u32(p, (uint32_t)v);
    bbrt_wr_u32(p + 4, (uint32_t)(v >> 32));
}
static inline void bbrt_wr_f32(uint8_t *p, float f) {
    union { uint32_t u; float f; } v;
    v.f = f;
    bbrt_wr_u32(p, v.u);
}
/* a float's IEEE bits: int8-only code compares scales this way and links no soft-float helper */
static inline uint32_t bbrt_f32_bits(float f) {
    union { uint32_t u; float f; } v;
    v.f = f;
    return v.u;
}
static inline float bbrt_i2f(int32_t bits) {
    union { int32_t i; float f; } v;
    v.i = bits;
    return v.f;
}

/* The op resolver's table of per-op checks (generated next to bbrt_op_kernels, bbrt.h; the checks
 * are in bbrt_check.c); bbrt_op_check (bbrt_program.c) dispatches through it. */
extern const bbrt_check_fn bbrt_op_checks[BBRT_OP__COUNT];

/* math without libm: bbrt_expf in bbrt_base.c (shared by the inference and training kernels),
 * the others in bbrt_kernels.c */
float bbrt_expf(float x);
float bbrt_tanhf(float x);
int32_t bbrt_roundf_even(float x);

#endif
