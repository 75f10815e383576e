/*
 * refine.h -- the host steps that the mixed-precision refinements share
 * (refine.c; used by dsposv.c and dswls.c). Not installed.
 */
#ifndef GCHOL_REFINE_H
#define GCHOL_REFINE_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

/* One part of a workspace: where its address goes, and its size. */
typedef struct {
    void **ptr;
    size_t bytes;
} gchol_part_t;

/* One stream-ordered allocation carved into 256-byte aligned parts (*ptr
 * NULL for a part of 0 bytes; *base NULL on failure). */
cudaError_t gchol_alloc_parts(void **base, const gchol_part_t *parts, int count, cudaStream_t s);
/* Frees base (if any) on s, folding an error into st; returns st. */
int64_t gchol_free_parts(void *base, int64_t st, cudaStream_t s);
/* After a failed allocation: *iter = -1 and 0 when it was out of memory (the
 * caller falls back), else the library error. */
int64_t gchol_refine_alloc_failed(cudaError_t e, int64_t *iter);
/* Copies dnorms[first, first + count) to h and the flag to *hflag, then
 * waits for s. */
int64_t gchol_fetch_norms(const double *dnorms, const int *dflag, int64_t first, int64_t count,
                          double *h, int *hflag, cudaStream_t s);
/* 1 if h[0, count) holds NaN or Inf. */
int gchol_any_non_finite(const double *h, int64_t count);

#endif
