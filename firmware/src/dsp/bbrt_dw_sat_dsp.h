/* SSAT and halfword packing of the depthwise kernels.
 * Part of bbrt_kernels.c's Cortex-M DSP build (BBRT_KERNELS_DSP, docs/bbrt.md): the SIMD variants live in
 * firmware/src/dsp/ apart from the portable kernels, as TFLite Micro keeps kernels/cmsis_nn/ apart. Included
 * once, by bbrt_kernels.c, at the place its definitions belong (what it uses is defined above it there);
 * not a header of its own: it defines static functions. */
#ifndef BBRT_KERNELS_DSP
#error "dsp/bbrt_dw_sat_dsp.h is part of the BBRT_KERNELS_DSP build of bbrt_kernels.c"
#endif

#if defined(__ARM_FEATURE_DSP)
static inline int32_t dw_ssat8(int32_t v) {
    int32_t r;
    __asm__("ssat %0, #8, %1" : "=r"(r) : "r"(v));
    return r;
}
#else
static inline int32_t dw_ssat8(int32_t v) { return v < -128 ? -128 : (v > 127 ? 127 : v); }
#endif
/* (lo, hi) as two signed halfwords, the SMLAD operand layout */
static inline uint32_t dw_pack(int32_t lo, int32_t hi) {
    return (uint32_t)(uint16_t)(int16_t)lo | ((uint32_t)(uint16_t)(int16_t)hi << 16);
}
