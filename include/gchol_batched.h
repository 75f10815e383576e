/*
 * gchol_batched.h -- batched Cholesky of gchol: many matrices of one order
 * in one call, on the device, with one info per matrix and no host
 * synchronization (a matrix that is not positive definite does not stop
 * the others).
 *
 * Conventions as in gchol.h (which this header includes): column-major,
 * 64-bit sizes, uplo 'L'/'U', return value 0, -i for bad argument i
 * (checked before any GPU work; nothing is touched), or a library error
 * <= -100.
 */
#ifndef GCHOL_BATCHED_H
#define GCHOL_BATCHED_H

#include "gchol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * gchol_?potrf_batched_gpu: the Cholesky factor of each of batch SPD
 * matrices of order n, matrix b at dA_array[b] (a device array of device
 * pointers).
 *   uplo (1) 'L'/'U': the triangle of each matrix that holds A and receives
 *       L (A = L L^T) or U (A = U^T U); the other triangle and the padding
 *       rows are neither read nor written;
 *   n (2) >= 0; dA_array (3) device array of batch device pointers (not
 *   NULL when n > 0 and batch > 0); ldda (4) >= max(1, n);
 *   dinfo (5) device array of batch int64_t: dinfo[b] receives matrix b's
 *       LAPACK info (0, or k > 0 when its leading minor of order k is not
 *       positive definite: a pivot <= 0 or NaN; its columns 1..k-1 then hold
 *       the factor's, A(k, k) the failed pivot, the rest of its triangle is
 *       unspecified); not NULL when batch > 0;
 *   batch (6) >= 0; queue (7).
 * Asynchronous on the queue's stream, as cuBLAS: returns 0, -i or a library
 * error; dinfo is written by the stream. n = 0 sets every dinfo[b] to 0.
 * ------------------------------------------------------------------------- */
int64_t gchol_dpotrf_batched_gpu(char uplo, int64_t n, double *const *dA_array, int64_t ldda,
                                 int64_t *dinfo, int64_t batch, gchol_queue_t queue);
int64_t gchol_spotrf_batched_gpu(char uplo, int64_t n, float *const *dA_array, int64_t ldda,
                                 int64_t *dinfo, int64_t batch, gchol_queue_t queue);

/* gchol_?potrf_strided_batched_gpu: the same with matrix b at dA + b * strideA.
 *   uplo (1), n (2), dA (3) (not NULL when n > 0 and batch > 0), ldda (4)
 *   >= max(1, n), strideA (5) >= ldda * n when batch > 1 (the matrices do not
 *   overlap), dinfo (6), batch (7) >= 0, queue (8). */
int64_t gchol_dpotrf_strided_batched_gpu(char uplo, int64_t n, double *dA, int64_t ldda,
                                         int64_t strideA, int64_t *dinfo, int64_t batch,
                                         gchol_queue_t queue);
int64_t gchol_spotrf_strided_batched_gpu(char uplo, int64_t n, float *dA, int64_t ldda,
                                         int64_t strideA, int64_t *dinfo, int64_t batch,
                                         gchol_queue_t queue);

/* gchol_?potrf_strided_batched: the strided form on host arrays (pinned or
 * pageable), on the library-owned queue, synchronous; info (6) is a host
 * array of batch int64_t. Everything from the first matrix to the end of
 * the last goes up and comes back: outside the uplo triangles (padding,
 * the other triangles, the gaps) the values are the ones passed. Returns
 * 0, -i (arguments 1-7 as the device form's less the queue) or a library
 * error (GCHOL_ERR_NO_DEVICE without a GPU, nothing then written). */
int64_t gchol_dpotrf_strided_batched(char uplo, int64_t n, double *A, int64_t lda, int64_t strideA,
                                     int64_t *info, int64_t batch);
int64_t gchol_spotrf_strided_batched(char uplo, int64_t n, float *A, int64_t lda, int64_t strideA,
                                     int64_t *info, int64_t batch);

/* gchol_?potrf_vbatched_gpu: each matrix its own order and leading
 * dimension: matrix b of order dn[b] at dA_array[b] with leading dimension
 * dldda[b] (device arrays).
 *   uplo (1); dn (2), dA_array (3), dldda (4) device arrays of batch (not
 *   NULL when batch > 0); max_n (5) >= 0, at least every dn[b] (the
 *   kernel's form is chosen by it); dinfo (6); batch (7) >= 0; queue (8).
 * A matrix whose own arguments are bad is not touched and gets dinfo[b] =
 * -1 (dn[b] < 0 or > max_n) or -2 (dldda[b] < max(1, dn[b])); dn[b] = 0
 * gives 0. The others as gchol_?potrf_batched_gpu. */
int64_t gchol_dpotrf_vbatched_gpu(char uplo, const int64_t *dn, double *const *dA_array,
                                  const int64_t *dldda, int64_t max_n, int64_t *dinfo,
                                  int64_t batch, gchol_queue_t queue);
int64_t gchol_spotrf_vbatched_gpu(char uplo, const int64_t *dn, float *const *dA_array,
                                  const int64_t *dldda, int64_t max_n, int64_t *dinfo,
                                  int64_t batch, gchol_queue_t queue);

/* ---------------------------------------------------------------------------
 * gchol_?potrs_batched_gpu: X := A^{-1} B for batch systems of order n with
 * A's Cholesky factor from ?potrf_batched in the uplo triangle of
 * dA_array[b]; B (n x nrhs, any nrhs) at dB_array[b] is overwritten by X.
 *   uplo (1), n (2) >= 0, nrhs (3) >= 0, dA_array (4), ldda (5) >= max(1, n),
 *   dB_array (6), lddb (7) >= max(1, n), batch (8) >= 0, queue (9).
 * The strided form: uplo (1), n (2), nrhs (3), dA (4), ldda (5), strideA (6)
 * >= ldda n when batch > 1, dB (7), lddb (8), strideB (9) >= lddb nrhs when
 * batch > 1, batch (10), queue (11). Asynchronous; returns 0, -i or a
 * library error. The arrays are not NULL when the sizes need them.
 * ------------------------------------------------------------------------- */
int64_t gchol_dpotrs_batched_gpu(char uplo, int64_t n, int64_t nrhs, const double *const *dA_array,
                                 int64_t ldda, double *const *dB_array, int64_t lddb, int64_t batch,
                                 gchol_queue_t queue);
int64_t gchol_spotrs_batched_gpu(char uplo, int64_t n, int64_t nrhs, const float *const *dA_array,
                                 int64_t ldda, float *const *dB_array, int64_t lddb, int64_t batch,
                                 gchol_queue_t queue);
int64_t gchol_dpotrs_strided_batched_gpu(char uplo, int64_t n, int64_t nrhs, const double *dA,
                                         int64_t ldda, int64_t strideA, double *dB, int64_t lddb,
                                         int64_t strideB, int64_t batch, gchol_queue_t queue);
int64_t gchol_spotrs_strided_batched_gpu(char uplo, int64_t n, int64_t nrhs, const float *dA,
                                         int64_t ldda, int64_t strideA, float *dB, int64_t lddb,
                                         int64_t strideB, int64_t batch, gchol_queue_t queue);

/* gchol_?posv_batched_gpu: A X = B for each system: potrf_batched, then
 * potrs_batched where dinfo[b] = 0 (a system whose factorization failed
 * keeps its B, as LAPACK's ?posv).
 *   uplo (1), n (2), nrhs (3), dA_array (4) receives the factors, ldda (5),
 *   dB_array (6) receives X, lddb (7), dinfo (8), batch (9), queue (10).
 * The strided form: uplo (1), n (2), nrhs (3), dA (4), ldda (5), strideA
 * (6), dB (7), lddb (8), strideB (9), dinfo (10), batch (11), queue (12). */
int64_t gchol_dposv_batched_gpu(char uplo, int64_t n, int64_t nrhs, double *const *dA_array,
                                int64_t ldda, double *const *dB_array, int64_t lddb,
                                int64_t *dinfo, int64_t batch, gchol_queue_t queue);
int64_t gchol_sposv_batched_gpu(char uplo, int64_t n, int64_t nrhs, float *const *dA_array,
                                int64_t ldda, float *const *dB_array, int64_t lddb, int64_t *dinfo,
                                int64_t batch, gchol_queue_t queue);
int64_t gchol_dposv_strided_batched_gpu(char uplo, int64_t n, int64_t nrhs, double *dA,
                                        int64_t ldda, int64_t strideA, double *dB, int64_t lddb,
                                        int64_t strideB, int64_t *dinfo, int64_t batch,
                                        gchol_queue_t queue);
int64_t gchol_sposv_strided_batched_gpu(char uplo, int64_t n, int64_t nrhs, float *dA,
                                        int64_t ldda, int64_t strideA, float *dB, int64_t lddb,
                                        int64_t strideB, int64_t *dinfo, int64_t batch,
                                        gchol_queue_t queue);

#ifdef __cplusplus
}
#endif
#endif /* GCHOL_BATCHED_H */
