/*
 * potrf_batched_live.h -- the launch of the live tiles kernel
 * (potrf_batched_live.cu), for src/potrf_batched.c.
 */
#ifndef GCHOL_POTRF_BATCHED_LIVE_H
#define GCHOL_POTRF_BATCHED_LIVE_H

#include <cuda_runtime.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Batched Cholesky as gchol_?potrf_batched_launch (gchol_kernels.h), on the
 * live tiles kernel: a block per matrix, left-looking by tile columns of 32
 * with only the tiles a later step reads in shared memory, for orders up
 * to GCHOL_BATCHED_LIVE_MAX_N.
 * *launched = 1 once launched; 0 (and cudaSuccess) where n is out of its
 * range or its shared memory does not fit the device: then nothing ran.
 */
#define GCHOL_BATCHED_LIVE_MAX_N 256
int gchol_dpotrf_batched_live_launch(int64_t n, double *dA, double *const *dA_array,
                                     const int64_t *dn, int64_t ldda, const int64_t *dldda,
                                     int64_t stride, int upper, int64_t *dinfo, int64_t count,
                                     int *launched, cudaStream_t stream);
int gchol_spotrf_batched_live_launch(int64_t n, float *dA, float *const *dA_array,
                                     const int64_t *dn, int64_t ldda, const int64_t *dldda,
                                     int64_t stride, int upper, int64_t *dinfo, int64_t count,
                                     int *launched, cudaStream_t stream);

/*
 * The trailing matrix of a larger order on the same kernel
 * (potrf_batched_cublas.c): matrix b's n x n trailing matrix is at dA + b *
 * stride, or at dA_array[b] (leading dimension ldda), and its updated copy
 * (the same view, upper 0 'L', 1 'U') at W + b * wstride with leading
 * dimension ldw (>= n; ldw and wstride multiples of 4, W 16-byte aligned,
 * else cudaErrorInvalidValue). The factor of the copy goes to A's
 * triangle; a matrix whose dinfo[b] is not 0 is left alone, and at a
 * failure at the trailing matrix's column f, dinfo[b] := k0 + f (the other
 * dinfo stay).
 * *launched as above.
 */
int gchol_dpotrf_batched_live_trailing_launch(int64_t n, double *dA, double *const *dA_array,
                                              int64_t ldda, int64_t stride, int upper,
                                              const double *W, int64_t ldw, int64_t wstride,
                                              int64_t k0, int64_t *dinfo, int64_t count,
                                              int *launched, cudaStream_t stream);
int gchol_spotrf_batched_live_trailing_launch(int64_t n, float *dA, float *const *dA_array,
                                              int64_t ldda, int64_t stride, int upper,
                                              const float *W, int64_t ldw, int64_t wstride,
                                              int64_t k0, int64_t *dinfo, int64_t count,
                                              int *launched, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
