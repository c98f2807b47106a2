/* conv_row3_i8 with SXTB16/SMLAD: two outputs per 4 input bytes.
 * Part of bbrt_kernels.c's Cortex-M DSP build (BBRT_KERNELS_DSP, docs/bbrt.md): the SIMD variants live in
 * firmware/src/dsp/ apart from the portable kernels, as TFLite Micro keeps kernels/cmsis_nn/ apart. Included
 * once, by bbrt_kernels.c, at the place its definitions belong (what it uses is defined above it there);
 * not a header of its own: it defines static functions. */
#ifndef BBRT_KERNELS_DSP
#error "dsp/bbrt_conv_row_dsp.h is part of the BBRT_KERNELS_DSP build of bbrt_kernels.c"
#endif

/* two outputs per 4 input bytes: SXTB16 splits x[k..k+3] into (x0, x2) and (x1, x3); SMLAD with
 * (w0, w2) gives x0 w0 + x2 w2 and x1 w0 + x3 w2, the middle taps x1 w1 and x2 w1 are single
 * 16x16 products. Reads x[k .. n+1], as the portable loop. */
BBRT_NOINLINE static void conv_row3_i8(int32_t *BBRT_RESTRICT ap, int32_t n, const int8_t *BBRT_RESTRICT xs,
                         const int8_t *BBRT_RESTRICT wr, int32_t zx) {
    int32_t k, w0 = wr[0], w1 = wr[1], w2 = wr[2], zs = zx * (w0 + w1 + w2);
    uint32_t w02 = (uint32_t)(uint16_t)(int16_t)w0 | ((uint32_t)(uint16_t)(int16_t)w2 << 16);
    for (k = 0; k + 2 <= n; k += 2) {
        uint32_t xv = dsp_read4(xs + k), xe = dsp_sxtb16(xv), xo = dsp_sxtb16_ror8(xv);
        int32_t a0 = dsp_smlad(xe, w02, ap[k] - zs) + (int32_t)(int16_t)(uint16_t)xo * w1;
        int32_t a1 = dsp_smlad(xo, w02, ap[k + 1] - zs) + (int32_t)(int16_t)(uint16_t)(xe >> 16) * w1;
        ap[k] = a0;
        ap[k + 1] = a1;
    }
    if (k < n) ap[k] += (int32_t)xs[k] * w0 + (int32_t)xs[k + 1] * w1 + (int32_t)xs[k + 2] * w2 - zs;
}
