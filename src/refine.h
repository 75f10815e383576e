/*
 * refine.h -- the host steps that the mixed-precision refinements share
 * (refine.c; used by dsposv.c, dswls.c and dxposv.c). Not installed.
 */
#ifndef GCHOL_REFINE_H
#define GCHOL_REFINE_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "gchol.h"

/* One part of a workspace: where its address goes, and its size. */
typedef struct {
    void **ptr;
    size_t bytes;
    /* optional: an ld x cols array of elsize-byte entries whose rows
     * rows .. ld-1 are padding, zeroed at allocation (cuBLAS's single-
     * precision triangular solves read whole 32-row tiles, padding rows
     * included) */
    int64_t rows, ld, cols;
    size_t elsize;
} gchol_part_t;

/* One stream-ordered allocation carved into 256-byte aligned parts (*ptr
 * NULL for a part of 0 bytes), the parts' padding rows zeroed; *base NULL
 * on failure. */
cudaError_t gchol_alloc_parts(void **base, const gchol_part_t *parts, int count, gchol_queue_t q);
/* Frees base (if any) on s, folding an error into st; returns st. */
int64_t gchol_free_parts(void *base, int64_t st, cudaStream_t s);
/* After a failed allocation: *iter = -1 and 0 when it was out of memory (the
 * caller falls back), else the library error. */
int64_t gchol_refine_alloc_failed(cudaError_t e, int64_t *iter);
/* Copies dnorms[first, first + count) to h and the flag to *hflag, then
 * waits for s. */
int64_t gchol_fetch_norms(const double *dnorms, const int *dflag, int64_t first, int64_t count,
                          double *h, int *hflag, cudaStream_t s);
/* The double-precision fallback of the refinements: X := B,
 * A := chol(A) (gchol_dpotrf_gpu), X := A^{-1} X; synchronous. Returns 0,
 * k > 0 (A not positive definite at k, X = B) or a library error. */
int64_t gchol_refine_fallback_double(char uplo, int64_t n, int64_t nrhs, double *dA, int64_t ldda,
                                     const double *dB, int64_t lddb, double *dX, int64_t lddx,
                                     gchol_queue_t q);
/* The host forms of the refinements: A's uplo triangle and B go up to the
 * library-owned queue's buffer (leading dimension n), job(q, dA, dB, dX,
 * ctx, &download) runs there, and X comes down when the job leaves
 * download set. Returns gchol_host_call's status. */
typedef int64_t (*gchol_refine_host_job_t)(gchol_queue_t q, const double *dA, const double *dB,
                                           double *dX, void *ctx, int *download);
int64_t gchol_refine_host_call(char uplo, int64_t n, int64_t nrhs, const double *A, int64_t lda,
                               const double *B, int64_t ldb, double *X, int64_t ldx,
                               gchol_refine_host_job_t job, void *ctx);
/* The double fallback on host arrays, through the host interface: A :=
 * chol(A) (gchol_dpotrf), X := B, X := A^{-1} X (gchol_dpotrs); X is not
 * written when the factorization fails. Returns 0, k > 0 or an error. */
int64_t gchol_refine_fallback_host(char uplo, int64_t n, int64_t nrhs, double *A, int64_t lda,
                                   const double *B, int64_t ldb, double *X, int64_t ldx);
/* 1 if h[0, count) holds NaN or Inf. */
int gchol_any_non_finite(const double *h, int64_t count);

#endif
