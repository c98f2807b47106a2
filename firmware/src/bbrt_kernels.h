/* Kernel entry points (one per opcode). Generated resolvers reference a subset. */
#ifndef BBRT_KERNELS_H
#define BBRT_KERNELS_H
#include "bbrt.h"
#include "bbrt_internal.h"

bbrt_status_t bbrt_k_conv_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_conv_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
/* CONV_I8 + max pool in one pass; the conv output is at most this wide (a row of accumulators on the stack) */
#define BBRT_CONV_POOL_MAX_W 64u
/* patch bytes (stack): one patch; DSP build: two, or five (a widened pair and a staging patch; a widened-weight
 * CONV_I8, p[12] = 1, is refused above it) */
#ifndef BBRT_IM2COL_MAX
#define BBRT_IM2COL_MAX 1536u
#endif
/* the DSP build's widened-weight paths (CONV_I8 p[12] = 1, FC_I8 p[3] = 1; bb_edge/bbrt/widen.py): 1, unless
 * BBRT_NO_WIDENED leaves them out of a DSP build whose program has no widened op (bb_edge/bbrt/firmware.py passes
 * it for the int8 program): the loader then refuses such ops and their kernels are dead code, so the linker
 * drops them (~KBs of flash for the nodes that fell back to int8 because the widened program did not fit) */
#if defined(BBRT_KERNELS_DSP) && !defined(BBRT_NO_WIDENED)
#define BBRT_WIDENED 1
#else
#define BBRT_WIDENED 0
#endif
/* output channels whose zero-point terms (and, split, whose sums) the im2col blocks hold at once */
#define BBRT_IM2COL_OC 64u
/* DSP build: input channels per reduction chunk of a widened-weight CONV_I8 (p[12] = 1, bb_edge/bbrt/widen.py
 * w16_chunk), its patch P = Cg KK, M output channels: Cg when a widened pixel pair and a staging patch fit
 * BBRT_IM2COL_MAX whole (5 P bytes, P % 4 == 0); else the largest divisor cc of Cg whose chunk (cc KK % 4 == 0)
 * fits with the block's sums (5 cc KK + 8 min(M, BBRT_IM2COL_OC) bytes: no more stack than a whole pair);
 * 0: none, the loader refuses the op */
static inline uint32_t bbrt_conv_w16_chunk(uint32_t Cg, uint32_t KK, uint32_t M) {
    const uint64_t oc = M < BBRT_IM2COL_OC ? M : BBRT_IM2COL_OC;
    uint32_t cc;
    if ((uint64_t)Cg * KK % 4u == 0u && 5u * (uint64_t)Cg * KK <= BBRT_IM2COL_MAX) return Cg;
    for (cc = Cg / 2u < BBRT_IM2COL_MAX / 5u ? Cg / 2u : BBRT_IM2COL_MAX / 5u; cc >= 1u; cc--)
        if (Cg % cc == 0u && (uint64_t)cc * KK % 4u == 0u && 5u * (uint64_t)cc * KK + 8u * oc <= BBRT_IM2COL_MAX)
            return cc;
    return 0u;
}
/* DSP build: the longest FC row whose x is widened once (stack: 2 bytes each); a widened-weight FC_I8
 * (p[3] = 1, bb_edge/bbrt/widen.py FC_WIDE_MAX) is refused above it */
#ifndef BBRT_FC_WIDE_MAX
#define BBRT_FC_WIDE_MAX 768u
#endif
bbrt_status_t bbrt_k_conv_pool_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_fc_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_fc_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_maxpool_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_maxpool_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_avgpool_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_avgpool_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_gap_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_gap_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_add_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_add_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_mul_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_mul_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_relu_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_clip_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_sigmoid_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_tanh_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_lut_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_softmax_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_softmax_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_copy(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_concat(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_quantize(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_dequantize(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_matmul_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_transpose(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_gather_axes(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_elu_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_leakyrelu_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_prelu_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_lstm_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_gru_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_gather(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_maxmin_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_prelu_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_resize_bilinear_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_batch_matmul_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_svdf_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_lstm_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
/* the largest rank TRANSPOSE and GATHER_AXES take */
#define BBRT_MOVE_MAX_RANK 6u


/* Shape/dtype/param checks (bbrt_check.c), one per opcode, and the resolver's table of them
 * (generated next to bbrt_op_kernels: only the used ops' checks are linked). */
bbrt_status_t bbrt_c_conv_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_conv_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_conv_pool_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_fc_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_fc_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_maxpool_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_maxpool_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_avgpool_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_avgpool_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_gap_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_gap_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_add_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_add_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_mul_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_mul_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_relu_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_clip_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_sigmoid_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_tanh_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_lut_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_softmax_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_softmax_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_copy(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_concat(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_quantize(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_dequantize(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_matmul_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_transpose(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_gather_axes(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_elu_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_leakyrelu_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_prelu_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_lstm_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_gru_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_gather(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_maxmin_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_prelu_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_resize_bilinear_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_batch_matmul_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_svdf_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_lstm_i8(const bbrt_program_t *pr, const bbrt_op_t *op);
/* bbrt_op_checks, the resolver's table of these, is declared in bbrt_internal.h (the loader reads it) */

#endif
