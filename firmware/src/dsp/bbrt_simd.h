/* SXTB16, SMLAD, USADA8 and unaligned loads: inline assembly on a DSP core, C elsewhere (host tests).
 * Part of bbrt_kernels.c's Cortex-M DSP build (BBRT_KERNELS_DSP, docs/bbrt.md): the SIMD variants live in
 * firmware/src/dsp/ apart from the portable kernels, as TFLite Micro keeps kernels/cmsis_nn/ apart. Included
 * once, by bbrt_kernels.c, at the place its definitions belong (what it uses is defined above it there);
 * not a header of its own: it defines static functions. */
#ifndef BBRT_KERNELS_DSP
#error "dsp/bbrt_simd.h is part of the BBRT_KERNELS_DSP build of bbrt_kernels.c"
#endif

#if defined(__ARM_FEATURE_DSP)
static inline uint32_t dsp_sxtb16(uint32_t v) {
    uint32_t r;
    __asm__("sxtb16 %0, %1" : "=r"(r) : "r"(v));
    return r;
}
static inline uint32_t dsp_sxtb16_ror8(uint32_t v) {
    uint32_t r;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
    return r;
}
static inline int32_t dsp_smlad(uint32_t a, uint32_t b, int32_t acc) {
    int32_t r;
    __asm__("smlad %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
    return r;
}
/* v clamped to [-128, 127] */
static inline int32_t dsp_ssat8(int32_t v) {
    int32_t r;
    __asm__("ssat %0, #8, %1" : "=r"(r) : "r"(v));
    return r;
}
/* (a * b + 2^31) >> 32: the rounded high word of the product */
static inline int32_t dsp_smmulr(int32_t a, int32_t b) {
    int32_t r;
    __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
/* (a * b >> 32) + c: the high word of the product plus c (SMMLA; c joins above the low word, so exact) */
static inline int32_t dsp_smmla(int32_t a, int32_t b, int32_t c) {
    int32_t r;
    __asm__("smmla %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
/* 2 bytes at any address, little-endian (LDRH) */
static inline uint32_t mm_read2(const int8_t *p) {
    uint16_t v;
    __builtin_memcpy(&v, p, 2);
    return v;
}
/* acc + the sum of the 4 unsigned bytes of v (USADA8 against 0) */
static inline uint32_t mm_usada8(uint32_t v, uint32_t acc) {
    uint32_t r;
    __asm__("usada8 %0, %1, %2, %3" : "=r"(r) : "r"(v), "r"(0u), "r"(acc));
    return r;
}
/* 4 bytes at any address (Cortex-M4/M7 LDR takes unaligned addresses) */
static inline uint32_t dsp_read4(const int8_t *p) {
    uint32_t v;
    __builtin_memcpy(&v, p, 4);
    return v;
}
#else
static uint32_t dsp_sxtb16(uint32_t v) {
    return (uint32_t)(uint16_t)(int16_t)(int8_t)(uint8_t)v | ((uint32_t)(uint16_t)(int16_t)(int8_t)(uint8_t)(v >> 16) << 16);
}
static uint32_t dsp_sxtb16_ror8(uint32_t v) { return dsp_sxtb16((v >> 8) | (v << 24)); }
static int32_t dsp_smlad(uint32_t a, uint32_t b, int32_t acc) {
    int32_t lo = (int32_t)(int16_t)(uint16_t)a * (int32_t)(int16_t)(uint16_t)b;
    int32_t hi = (int32_t)(int16_t)(uint16_t)(a >> 16) * (int32_t)(int16_t)(uint16_t)(b >> 16);
    return (int32_t)((uint32_t)acc + (uint32_t)lo + (uint32_t)hi);
}
static int32_t dsp_ssat8(int32_t v) { return v < -128 ? -128 : (v > 127 ? 127 : v); }
static int32_t dsp_smmulr(int32_t a, int32_t b) { return (int32_t)(((int64_t)a * b + ((int64_t)1 << 31)) >> 32); }
static int32_t dsp_smmla(int32_t a, int32_t b, int32_t c) {
    return (int32_t)(uint32_t)((uint64_t)(((int64_t)a * b) >> 32) + (uint32_t)c);
}
static uint32_t mm_read2(const int8_t *p) { return (uint32_t)(uint8_t)p[0] | (uint32_t)(uint8_t)p[1] << 8; }
static uint32_t mm_usada8(uint32_t v, uint32_t acc) {
    return acc + (v & 0xFFu) + ((v >> 8) & 0xFFu) + ((v >> 16) & 0xFFu) + (v >> 24);
}
static uint32_t dsp_read4(const int8_t *p) {
    const uint8_t *u = (const uint8_t *)p;
    return (uint32_t)u[0] | ((uint32_t)u[1] << 8) | ((uint32_t)u[2] << 16) | ((uint32_t)u[3] << 24);
}
#endif
