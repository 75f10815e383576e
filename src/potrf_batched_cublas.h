/*
 * potrf_batched_cublas.h -- the fixed-order batched Cholesky by block
 * columns on cuBLAS's batched products (potrf_batched_cublas.c). Not
 * installed.
 */
#ifndef GCHOL_POTRF_BATCHED_CUBLAS_H
#define GCHOL_POTRF_BATCHED_CUBLAS_H

#include "gchol.h"

#include "../kernels/gchol_kernels.h"

/* The batch of potrf_batched.c's run (matrix b at dA + b * stride, or at
 * dA_array[b]; order n, leading dimension ldda; upper 0 'L', 1 'U') by
 * block columns of nb (1 <= nb < n; at most GCHOL_BATCHED_PANEL_MAX, wider
 * ones run at that width); fused != 0: each block column in two launches
 * (one product, one panel step) instead of four, for small batches;
 * tail > 0 (at most GCHOL_BATCHED_LIVE_MAX_N): the last block columns, from
 * the first k0 where n - k0 <= tail, as one trailing matrix on the live
 * tiles kernel (0: none). dinfo[b] receives each matrix's info. Returns 0
 * or a library error; *no_room is set, and nothing done, when the
 * workspace (a matrix GCHOL_BATCHED_PANEL_WORK elements, fused n
 * GCHOL_BATCHED_PANEL_MAX, with a tail at least (n - k0)^2 (its leading
 * dimension rounded up to 4), and four pointers for the pointer form;
 * stream-ordered) cannot be had: the caller then runs the kernels, which
 * need none. */
int64_t gchol_dpotrf_batched_cublas(int upper, int64_t n, int64_t nb, int fused, int64_t tail,
                                    double *dA, double *const *dA_array, int64_t ldda,
                                    int64_t stride, int64_t *dinfo, int64_t batch,
                                    gchol_queue_t q, int *no_room);
int64_t gchol_spotrf_batched_cublas(int upper, int64_t n, int64_t nb, int fused, int64_t tail,
                                    float *dA, float *const *dA_array, int64_t ldda,
                                    int64_t stride, int64_t *dinfo, int64_t batch,
                                    gchol_queue_t q, int *no_room);

#endif
