/*
 * potrf.h -- the factorization's entry points inside the library: the
 * driver with the host interface's transfers interleaved, the driver on the
 * blocks of an RFP array (potrf.c), and the host-memory factorization's
 * pieces that posv and wls reuse (potrf_host.c). Not installed.
 */
#ifndef GCHOL_POTRF_H
#define GCHOL_POTRF_H

#include "gchol.h"
#include "../kernels/rfp_index.h"

#include <cuda_runtime_api.h>

/* The host interface's transfers, interleaved with a factorization of the
 * device matrix by the driver (potrf_left.c, potrf_host.c). The driver
 * calls need(ctx, c) before it enqueues anything that touches view columns
 * below c: they must then be on the device, in the order of both streams.
 * The left-looking driver with lookahead calls it step by step, and
 * final(ctx, c, s) once columns below c are finished at the point just
 * enqueued on stream s; every other path calls need(ctx, n) first. */
typedef struct {
    void   *ctx;
    int64_t (*need)(void *ctx, int64_t col_end);
    int64_t (*final)(void *ctx, int64_t col_end, cudaStream_t s);
} gchol_host_io_t;

/* gchol_?potrf_expert_gpu with the host interface's transfers: synchronous,
 * returns 0, k > 0 or a gchol_status_t (arguments already checked). */
int64_t gchol_dpotrf_io(char uplo, int64_t n, double *dA, int64_t ldda,
                        const gchol_options_t *opts, const gchol_host_io_t *io,
                        gchol_queue_t queue);
int64_t gchol_spotrf_io(char uplo, int64_t n, float *dA, int64_t ldda,
                        const gchol_options_t *opts, const gchol_host_io_t *io,
                        gchol_queue_t queue);

/* The left-looking driver on the blocks of an RFP array: factors columns
 * c0..n-1 of its lower view, those before being final; synchronous; 0,
 * k > 0 or a library error. */
int64_t gchol_dpotrf_blocks(const gchol_rfp_blocks_t *b, int64_t n, double *dA, int64_t c0,
                            const gchol_options_t *opts, gchol_queue_t queue);
int64_t gchol_spotrf_blocks(const gchol_rfp_blocks_t *b, int64_t n, float *dA, int64_t c0,
                            const gchol_options_t *opts, gchol_queue_t queue);

/* The host-memory potrf on a queue the caller has entered, leaving the
 * factor on the device (potrf_host.c; used by posv_host.c). */
int64_t gchol_dpotrf_host_on_queue(char uplo, int64_t n, double *A, int64_t lda, size_t extra,
                                   const gchol_options_t *opts, gchol_queue_t queue, double **dA,
                                   int64_t *ldda, void **dextra);
int64_t gchol_spotrf_host_on_queue(char uplo, int64_t n, float *A, int64_t lda, size_t extra,
                                   const gchol_options_t *opts, gchol_queue_t queue, float **dA,
                                   int64_t *ldda, void **dextra);

/* potrf of a device matrix with its triangle copied back into a host array
 * as its columns become final (potrf_host.c; used by wls.c). */
int64_t gchol_dpotrf_device_to_host(char uplo, int64_t n, double *dA, int64_t ldda, double *A,
                                    int64_t lda, gchol_queue_t queue);
int64_t gchol_spotrf_device_to_host(char uplo, int64_t n, float *dA, int64_t ldda, float *A,
                                    int64_t lda, gchol_queue_t queue);
/* Whether ?potrf_device_to_host copies the triangle back beside the
 * factorization (1) or after it (0). */
int gchol_dpotrf_device_to_host_overlaps(char uplo, int64_t n);
int gchol_spotrf_device_to_host_overlaps(char uplo, int64_t n);

#endif
