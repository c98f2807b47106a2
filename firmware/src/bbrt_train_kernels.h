/* Kernels and checks of the training-step opcodes (bbrt_train_kernels.c). Resolvers that link a
 * training program's ops include this next to bbrt_kernels.h. */
#ifndef BBRT_TRAIN_KERNELS_H
#define BBRT_TRAIN_KERNELS_H
#include "bbrt.h"

bbrt_status_t bbrt_k_gemm_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_binary_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_unary_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_logsoftmax_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_onehot_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_reduce_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_transpose_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_greater_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_k_where_f32(const bbrt_program_t *pr, const bbrt_op_t *op);

bbrt_status_t bbrt_c_gemm_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_binary_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_unary_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_logsoftmax_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_onehot_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_reduce_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_transpose_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_greater_f32(const bbrt_program_t *pr, const bbrt_op_t *op);
bbrt_status_t bbrt_c_where_f32(const bbrt_program_t *pr, const bbrt_op_t *op);

#endif
