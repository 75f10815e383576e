/*
 * potrf_batched.h -- the batched potrf's kernel choice and launch
 * (potrf_batched.c), which gchol_?posv_batched_gpu factors by as
 * gchol_?potrf_batched_gpu does. Not installed.
 */
#ifndef GCHOL_POTRF_BATCHED_H
#define GCHOL_POTRF_BATCHED_H

#include "gchol.h"

/* The batch (matrix b at dA + b * stride, or at dA_array[b]; order n,
 * leading dimension ldda; upper 0 'L', 1 'U'; arguments already checked)
 * factored on the queue's stream by the kernel the tuning picks for its
 * order and size; dinfo[b] receives each matrix's info (n = 0: zeroes).
 * Returns 0 or a library error. */
int64_t gchol_dpotrf_batched_run(int upper, int64_t n, double *dA, double *const *dA_array,
                                 int64_t ldda, int64_t stride, int64_t *dinfo, int64_t batch,
                                 gchol_queue_t queue);
int64_t gchol_spotrf_batched_run(int upper, int64_t n, float *dA, float *const *dA_array,
                                 int64_t ldda, int64_t stride, int64_t *dinfo, int64_t batch,
                                 gchol_queue_t queue);

#endif
