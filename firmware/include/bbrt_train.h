/*
 * bbrt_train: one training step (forward, backward, optimizer update) of a .bbrt training
 * program, on the no-heap C runtime. C99, no malloc; every buffer belongs to the caller.
 *
 * WHAT A TRAINING PROGRAM IS
 *   An ordinary .bbrt v1 program (docs/bbrt.md) lowered by bb_edge/bbrt/train_lower.py from
 *   the ONNX training step of bb_edge.learn.autodiff.build_training_step (SoftmaxCrossEntropy
 *   with index labels, SGD with optional momentum), float32, with a fixed batch size B.
 *   Its ops are the float kernels of bbrt_train_kernels.c (GEMM with transposes, broadcasting
 *   binary ops, LogSoftmax, OneHot, reductions, Greater/Where for the Relu gradient, ...).
 *   Tensor 0 is the training manifest: an INT32 constant
 *       [magic "BBTR", version 1, x, labels, loss, logits, B, n_params, n_state,
 *        n_params x (param tensor, initial-value constant tensor), n_state x (state tensor)]
 *   naming the arena tensors of the batch (x: float [B, features], labels: int32 [B]), the
 *   loss (float scalar), the logits (float [B, classes]), the parameters (float, persistent)
 *   and the optimizer state (float, persistent: SGD momentum buffers, same shapes as params).
 *
 * ARENA CONTRACT
 *   The caller owns one 8-byte-aligned arena of at least the program's arena size
 *   (bbrt_train_arena_size(), also `bb-edge inspect`). The planner put everything there:
 *   parameters and optimizer state at fixed offsets that no other tensor shares (they persist
 *   between steps and are updated IN PLACE: the step's next/<p> is written back to <p>),
 *   and the batch, activations, gradients, loss and logits, which are planned like any
 *   intermediate (their bytes are reused within a step). Do not write the arena yourself
 *   between steps; use the functions below. The program blob must stay valid, unchanged and
 *   8-byte aligned while `t` is used (constants are read from it).
 *
 * USAGE
 *   static uint64_t arena[ARENA_BYTES / 8];
 *   bbrt_train_t t;
 *   float loss;
 *   if (bbrt_train_load(&t, blob, blob_len, (uint8_t *)arena, sizeof arena) != BBRT_OK) ...;
 *   bbrt_train_set_params(&t, global_model, t.param_count);    (optional: FedAvg global model)
 *   for (each batch of exactly t.batch samples)                 (drop or pad a partial last batch)
 *       bbrt_train_step(&t, x, labels, t.batch, &loss);         (x: B*features floats, row-major)
 *   bbrt_train_get_params(&t, update, t.param_count);           (the local model to send)
 *
 *   The flat parameter vector is the parameters in manifest order, each row-major: the order
 *   of bb_edge.learn.autodiff.ParamLayout (TrainingProgram.layout), the vector FedAvg sends.
 *   bbrt_train_load sets the parameters to the program's initial values and zeroes the
 *   optimizer state; bbrt_train_set_params replaces the parameters and leaves the state alone
 *   (call bbrt_train_reset_state as well to start a round with fresh momentum).
 *
 * VALIDATION
 *   bbrt_train_load validates the whole program (bbrt_program_load: every table, tensor,
 *   shape and parameter) and the manifest before anything runs. bbrt_train_step checks n and
 *   every label (0 <= label < classes) BEFORE it touches the arena: a refused batch leaves the
 *   model as it was. bbrt_train_set_params refuses a wrong length or a non-finite value and
 *   then keeps the previous parameters.
 */
#ifndef BBRT_TRAIN_H
#define BBRT_TRAIN_H

#include "bbrt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BBRT_TRAIN_MAGIC 0x52544242u /* "BBTR" little-endian */
#define BBRT_TRAIN_VERSION 1u
#ifndef BBRT_TRAIN_MAX_PARAMS
#define BBRT_TRAIN_MAX_PARAMS 16u
#endif
#ifndef BBRT_TRAIN_MAX_STATE
#define BBRT_TRAIN_MAX_STATE 16u
#endif

/* status codes of the training API (beyond bbrt_status_t's, same type) */
#define BBRT_E_TRAIN_MANIFEST ((bbrt_status_t)50) /* tensor 0 is not a valid training manifest */
#define BBRT_E_TRAIN_BATCH ((bbrt_status_t)51)    /* n differs from the program's batch size */
#define BBRT_E_TRAIN_LABEL ((bbrt_status_t)52)    /* a label outside [0, classes) */
#define BBRT_E_TRAIN_SIZE ((bbrt_status_t)53)     /* parameter vector length differs */
#define BBRT_E_TRAIN_VALUE ((bbrt_status_t)54)    /* a non-finite parameter value */

typedef struct {
    bbrt_program_t prog;  /* the loaded program (arena bound) */
    uint32_t batch;       /* B: samples per step */
    uint32_t features;    /* floats per sample of x */
    uint32_t classes;     /* logits per sample */
    uint32_t n_params, n_state;
    uint32_t param_count; /* floats of the flat parameter vector */
    uint16_t x, labels, loss, logits;                /* tensor indices */
    uint16_t param[BBRT_TRAIN_MAX_PARAMS];           /* arena tensors, persistent */
    uint16_t param_init[BBRT_TRAIN_MAX_PARAMS];      /* constant tensors: initial values */
    uint16_t state[BBRT_TRAIN_MAX_STATE];            /* arena tensors, persistent */
    uint32_t steps;       /* steps run since load */
} bbrt_train_t;

/* Arena bytes the program at blob needs (its header's arena size), 0 if blob is not a program
 * header. Does not validate the program: bbrt_train_load does. */
uint32_t bbrt_train_arena_size(const uint8_t *blob, size_t size);

/* Validate and bind a training program; set the initial parameters, zero the optimizer state. */
bbrt_status_t bbrt_train_load(bbrt_train_t *t, const uint8_t *blob, size_t size, uint8_t *arena,
                              size_t arena_size);

/* One training step on n (== t->batch) samples: x is n*features floats, labels n class indices.
 * Updates the parameters and optimizer state in place; *loss (if loss != NULL) gets the
 * batch's mean cross-entropy before the update. */
bbrt_status_t bbrt_train_step(bbrt_train_t *t, const float *x, const int32_t *labels, uint32_t n,
                              float *loss);

/* The logits of the last step's batch (before its update): t->batch x t->classes floats. */
const float *bbrt_train_logits(const bbrt_train_t *t);

/* Copy the flat parameter vector out (n == t->param_count). */
bbrt_status_t bbrt_train_get_params(const bbrt_train_t *t, float *out, size_t n);
/* Replace the parameters (n == t->param_count, every value finite, else nothing changes). */
bbrt_status_t bbrt_train_set_params(bbrt_train_t *t, const float *in, size_t n);
/* Zero the optimizer state (momentum buffers). */
void bbrt_train_reset_state(bbrt_train_t *t);

#ifdef __cplusplus
}
#endif
#endif /* BBRT_TRAIN_H */
