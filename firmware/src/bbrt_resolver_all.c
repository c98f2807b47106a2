/* Op resolver with every kernel (host tests, fuzzing). MCU builds generate their own
 * with only the kernels their program uses (bb_edge/bbrt/resolver.py). */
#include "bbrt_kernels.h"

const bbrt_kernel_fn bbrt_op_kernels[BBRT_OP__COUNT] = {
    [BBRT_OP_CONV_F32] = bbrt_k_conv_f32,
    [BBRT_OP_CONV_I8] = bbrt_k_conv_i8,
    [BBRT_OP_FC_F32] = bbrt_k_fc_f32,
    [BBRT_OP_FC_I8] = bbrt_k_fc_i8,
    [BBRT_OP_MAXPOOL_F32] = bbrt_k_maxpool_f32,
    [BBRT_OP_MAXPOOL_I8] = bbrt_k_maxpool_i8,
    [BBRT_OP_AVGPOOL_F32] = bbrt_k_avgpool_f32,
    [BBRT_OP_AVGPOOL_I8] = bbrt_k_avgpool_i8,
    [BBRT_OP_GAP_F32] = bbrt_k_gap_f32,
    [BBRT_OP_GAP_I8] = bbrt_k_gap_i8,
    [BBRT_OP_ADD_F32] = bbrt_k_add_f32,
    [BBRT_OP_ADD_I8] = bbrt_k_add_i8,
    [BBRT_OP_MUL_F32] = bbrt_k_mul_f32,
    [BBRT_OP_MUL_I8] = bbrt_k_mul_i8,
    [BBRT_OP_RELU_F32] = bbrt_k_relu_f32,
    [BBRT_OP_CLIP_F32] = bbrt_k_clip_f32,
    [BBRT_OP_SIGMOID_F32] = bbrt_k_sigmoid_f32,
    [BBRT_OP_TANH_F32] = bbrt_k_tanh_f32,
    [BBRT_OP_LUT_I8] = bbrt_k_lut_i8,
    [BBRT_OP_SOFTMAX_F32] = bbrt_k_softmax_f32,
    [BBRT_OP_SOFTMAX_I8] = bbrt_k_softmax_i8,
    [BBRT_OP_COPY] = bbrt_k_copy,
    [BBRT_OP_CONCAT] = bbrt_k_concat,
    [BBRT_OP_QUANTIZE] = bbrt_k_quantize,
    [BBRT_OP_DEQUANTIZE] = bbrt_k_dequantize,
    [BBRT_OP_MATMUL_F32] = bbrt_k_matmul_f32,
};
