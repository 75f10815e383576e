/*
 * potrf_lowp.h -- the low-precision Cholesky factorization of the
 * mixed-precision solve (potrf_lowp.c). Not installed.
 */
#ifndef GCHOL_POTRF_LOWP_H
#define GCHOL_POTRF_LOWP_H

#include "gchol.h"

/* The lower factor of the n x n single-precision S (lower triangle, lds;
 * a unit diagonal expected, see potrf_lowp.c) with the trailing updates on
 * FP16 (bf16 = 0) or BF16 (bf16 = 1) operands and FP32 sums, block size nb
 * (0: 256 up to n = 4096, else 1024). Synchronous. *info: 0, or k > 0 for the first pivot (1-based)
 * that is not positive; returns 0 or a library error. S's strictly upper
 * triangle is overwritten in the diagonal blocks. */
int64_t gchol_spotrf_lowp(int64_t n, float *dS, int64_t lds, int bf16, int64_t nb,
                          int64_t *info, gchol_queue_t q);

#endif
