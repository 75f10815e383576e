/*
 * potrf_lowp.h -- the low-precision Cholesky factorization of the
 * mixed-precision solve (potrf_lowp.c). Not installed.
 */
#ifndef GCHOL_POTRF_LOWP_H
#define GCHOL_POTRF_LOWP_H

#include "gchol.h"

/* How gchol_spotrf_lowp runs: block columns of nb (at most n: a larger nb
 * runs as n); when inv is not NULL, inv (ld that nb) receives L_kk^-1 of
 * every block column k in its columns k .. k + kb - 1 (the
 * preconditioner's solves multiply by them, refine_ops_gpu.c), and with
 * panel_inverse the panels go through them: 1 by TF32 products, 2 by
 * single's, 3 by FP16 / BF16 ones. */
typedef struct {
    int64_t nb;
    float  *inv;
    int     panel_inverse;
    int     lookahead; /* 0 none; 1 the bulk of each update on a second
                          stream while the next diagonal block and panel
                          are factored; 2 the same with the diagonal blocks
                          and panels on the high-priority panel stream;
                          3 as 1 with the bulk two panels at a time (the
                          gemms' inner dimension 2 nb) */
    int64_t update_leaf; /* 0: each trailing update one gemm per block
                            column; L > 0: its triangle split in halves
                            on block columns' edges, each off-diagonal
                            half one gemm, down to squares of at most L
                            (or one block column), each by its block
                            columns */
} gchol_lowp_plan_t;

/* The current device's table (tune.h) for order n: the block size, whether
 * the inverses are kept (*keep_inverse: the caller gives inv room for
 * nb x n floats), whether the panels go through them, the lookahead and
 * the trailing update's form. */
void gchol_lowp_plan_for(int64_t n, int64_t *nb, int *keep_inverse, int *panel_inverse,
                         int *lookahead, int64_t *update_leaf);

/* The lower factor of the n x n single-precision S (lower triangle, lds;
 * a unit diagonal expected, see potrf_lowp.c) with the trailing updates on
 * FP16 (bf16 = 0) or BF16 (bf16 = 1) operands and FP32 sums, on the queue's
 * stream, with one host synchronization, at the end (the frees stay
 * ordered on the stream). After a failed pivot the rest is factored
 * anyway, from what the failed block left.
 * *info: 0, or k > 0 for the first pivot (1-based) that is not positive
 * (it stays in S(k, k));
 * returns 0 or a library error. S's strictly upper triangle is overwritten
 * in the diagonal blocks. */
int64_t gchol_spotrf_lowp(int64_t n, float *dS, int64_t lds, int bf16,
                          const gchol_lowp_plan_t *plan, int64_t *info, gchol_queue_t q);

#endif
