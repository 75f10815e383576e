/*
 * syrk_diag_host.c -- the host-memory forms of A*D^2*A^T: gchol_?syrk_diag
 * (full storage) and gchol_?sfrk_diag (RFP), with A streamed through the GPU
 * in blocks of columns (host_stream.c), so that A may be larger than the
 * device memory. Precision-generic (see prec.h).
 */
#include "prec.h"

#include "args.h"
#include "host_io.h"
#include "host_stream.h"
#include "status.h"

/* After the last block: C's stored part back (C is an input too when
 * beta != 0), where host_stream has not (full storage: it has, in parts
 * beside the last block's product). */
static int64_t download_c(gchol_queue_t q, const PFX(stream_job_t) *j, FLOAT *dC, FLOAT *dR,
                          gchol_stage_t *stage_c, void *ctx)
{
    (void)dR, (void)ctx;
    if (j->c_back) return GCHOL_SUCCESS;
    if (j->beta != 0) gchol_host_inout_written = 1;
    return PFX(host_stream_copy_c)(q, j, dC, stage_c, cudaMemcpyDeviceToHost);
}

static int64_t stream_product(int rfp, char transr, char uplo, int64_t m,
                              int64_t n, FLOAT alpha, const FLOAT *A, int64_t lda, const FLOAT *d,
                              FLOAT beta, FLOAT *C, int64_t ldc)
{
    /* BLAS quick return: nothing to add and C unchanged. */
    if (m == 0 || ((alpha == 0 || n == 0) && beta == 1)) return GCHOL_SUCCESS;
    const PFX(stream_job_t) job = { .rfp = rfp, .transr = transr, .uplo = uplo, .m = m, .n = n,
                                    .alpha = alpha, .beta = beta, .A = A, .lda = lda, .d = d,
                                    .C = C, .ldc = ldc, .c_back = !rfp };
    return PFX(host_stream)(&job, download_c, NULL);
}

/* -----------------------------------------------------------------------------
 * gchol_dsyrk_diag, gchol_ssyrk_diag: C := alpha*A*diag(d)^2*A^T + beta*C, host memory, full
 * storage. The arguments of gchol_?syrk_diag_gpu with host arrays and no
 * queue: uplo (1), m (2), n (3), alpha (4), A (5) host, lda (6) >= max(1,m),
 * d (7) host, n entries or NULL, beta (8), C (9) host, ldc (10) >= max(1,m).
 * Synchronous (the library-owned queue); only the uplo triangle of C is read
 * (beta != 0) and written. Returns 0, -i, or a library error (<= -100).
 * -------------------------------------------------------------------------- */
int64_t PFX(syrk_diag)(char uplo, int64_t m, int64_t n, FLOAT alpha, const FLOAT *A, int64_t lda,
                       const FLOAT *d, FLOAT beta, FLOAT *C, int64_t ldc)
{
    const int64_t st = gchol_check_syrk_diag_args(0, 'N', uplo, m, n, alpha != 0, A, lda, C, ldc);
    if (st) return st;
    return stream_product(0, 'N', uplo, m, n, alpha, A, lda, d, beta, C, ldc);
}

/* -----------------------------------------------------------------------------
 * gchol_dsfrk_diag, gchol_ssfrk_diag: the same into RFP storage, host memory: transr (1),
 * uplo (2), m (3), n (4), alpha (5), A (6) host, lda (7) >= max(1,m), d (8)
 * or NULL, beta (9), C (10) host RFP array of m(m+1)/2 elements.
 * -------------------------------------------------------------------------- */
int64_t PFX(sfrk_diag)(char transr, char uplo, int64_t m, int64_t n, FLOAT alpha, const FLOAT *A,
                       int64_t lda, const FLOAT *d, FLOAT beta, FLOAT *C)
{
    const int64_t st = gchol_check_syrk_diag_args(1, transr, uplo, m, n, alpha != 0, A, lda, C, 0);
    if (st) return st;
    return stream_product(1, transr, uplo, m, n, alpha, A, lda, d, beta, C, 0);
}
