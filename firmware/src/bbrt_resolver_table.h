/* The op resolver's tables from a generated list: a program's bbrt_resolver.c (bb_edge/bbrt/resolver.py)
 * defines BBRT_RESOLVER_OPS(X) - X(OP, kernel) for each op the program uses - BBRT_RESOLVER_COUNT and
 * BBRT_RESOLVER_TRAIN, then includes this file, so only the kernels it names get linked.
 * (bbrt_resolver_all.c is the table with every kernel, for host tests and fuzzing.) */
#ifndef BBRT_RESOLVER_TABLE_H
#define BBRT_RESOLVER_TABLE_H

#include "bbrt_kernels.h"
#if BBRT_RESOLVER_TRAIN /* training-step kernels (bbrt_train_kernels.c): only the training builds link them */
#include "bbrt_train_kernels.h"
#endif

#define BBRT_RESOLVER_KERNEL(OP, name) [BBRT_OP_##OP] = bbrt_k_##name,
#define BBRT_RESOLVER_CHECK(OP, name) [BBRT_OP_##OP] = bbrt_c_##name,

#if BBRT_RESOLVER_COUNT == 0
const bbrt_kernel_fn bbrt_op_kernels[BBRT_OP__COUNT] = {0};
const bbrt_check_fn bbrt_op_checks[BBRT_OP__COUNT] = {0};
#else
const bbrt_kernel_fn bbrt_op_kernels[BBRT_OP__COUNT] = {BBRT_RESOLVER_OPS(BBRT_RESOLVER_KERNEL)};
const bbrt_check_fn bbrt_op_checks[BBRT_OP__COUNT] = {BBRT_RESOLVER_OPS(BBRT_RESOLVER_CHECK)};
#endif

#endif
