/*
 * host_stream.h -- the engine of the streamed host-memory forms
 * (host_stream.c): A (m x n, host) goes through the GPU in blocks of
 * columns, and each block adds A_b D_b^2 A_b^T into C on the device and,
 * with right-hand sides, A_b D_b^2 B_b into R. Used by syrk_diag_host.c and
 * wls.c. Include after prec.h (precision-generic). Not installed.
 */
#ifndef GCHOL_HOST_STREAM_H
#define GCHOL_HOST_STREAM_H

#include "gchol.h"
#include "host_stage.h"

#include <cuda_runtime_api.h>

typedef struct {
    int            rfp;        /* C's storage: 0 full (ld m on the device), 1 RFP */
    char           transr, uplo; /* transr: RFP only */
    int64_t        m, n;
    FLOAT          alpha, beta; /* C := alpha A D^2 A^T + beta C                 */
    const FLOAT   *A;          /* host, lda x n                                 */
    int64_t        lda;
    const FLOAT   *d;          /* host, n entries, or NULL (D = I)              */
    FLOAT         *C;          /* host; read when beta != 0, and its diagonal
                                  blocks in full storage (see host_stream.c) */
    int64_t        ldc;        /* full storage                                  */
    int            post_c_back; /* 1: post copies C's triangle back itself,
                                   writing nothing else of C (full storage,
                                   beta = 0: no diagonal blocks go up first) */
    int            c_back;     /* 1: host_stream copies C's triangle back
                                  itself before post (full storage), in parts
                                  beside the last block's product for large m */
    int64_t        nrhs;       /* > 0: R := A D^2 B (m x nrhs, ld m on the device) */
    const FLOAT   *B;          /* host, ldb x nrhs                              */
    int64_t        ldb;
} PFX(stream_job_t);

/* What runs after the last block, on the device results: dC (C, ld m or
 * RFP), dR (R, ld m; NULL without right-hand sides); stage_c is the stager
 * for the host C (NULL if pinned). Returns a gchol status or info. */
typedef int64_t (*PFX(stream_post_t))(gchol_queue_t q, const PFX(stream_job_t) *job, FLOAT *dC,
                                      FLOAT *dR, gchol_stage_t *stage_c, void *ctx);

/* gchol_dhost_stream, gchol_shost_stream: runs the job on the library-owned
 * queue, then post(ctx); synchronous.
 * Arguments checked; m > 0. Returns post's value, or a library error. */
int64_t PFX(host_stream)(const PFX(stream_job_t) *job, PFX(stream_post_t) post, void *ctx);

/* gchol_dhost_stream_copy_c, gchol_shost_stream_copy_c: copies C's stored
 * part (triangle or RFP array) between job->C and the device's dC (ld m),
 * either way (kind). */
int64_t PFX(host_stream_copy_c)(gchol_queue_t q, const PFX(stream_job_t) *job, FLOAT *dC,
                                gchol_stage_t *stage_c, enum cudaMemcpyKind kind);

#endif
