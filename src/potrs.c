/*
 * potrs.c -- gchol_?potrs_gpu and gchol_?potrs: solve A X = B with the
 * Cholesky factor from ?potrf (LAPACK ?potrs). Precision-generic (see
 * prec.h).
 *
 * A = L L^T: L Y = B, then L^T X = Y; A = U^T U: U^T Y = B, then U X = Y.
 * Both solves are the recursive, gemm-rich trsm (trsm_rec.c), which outruns
 * cuBLAS trsm (1.5x with 16 right-hand sides at n = 32768); one right-hand
 * side goes to cuBLAS trsv instead, faster there, memory-bound either way.
 */
#include "prec.h"

#include "args.h"
#include "blas_ext.h"
#include "host_io.h"
#include "queue.h"
#include "status.h"

static int64_t potrs_run(int upper, int64_t n, int64_t nrhs, const FLOAT *dA, int64_t ldda,
                         FLOAT *dB, int64_t lddb, gchol_queue_t queue)
{
    const cublasFillMode_t fill = upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    const cublasOperation_t first = upper ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t second = upper ? CUBLAS_OP_N : CUBLAS_OP_T;
    const cublasSideMode_t L = CUBLAS_SIDE_LEFT;
    int64_t st = GCHOL_SUCCESS;
    int prev = 0;
    if ((st = gchol_queue_enter(queue, &prev)) != GCHOL_SUCCESS) return st;
    if (nrhs == 1) {
        GCHOL_BLAS(BLAS_TRSV(queue->blas, fill, first, CUBLAS_DIAG_NON_UNIT, n, dA, ldda, dB, 1));
        GCHOL_BLAS(BLAS_TRSV(queue->blas, fill, second, CUBLAS_DIAG_NON_UNIT, n, dA, ldda, dB, 1));
        goto done;
    }
    GCHOL_TRY(PFX(trsm_rec)(queue->blas, L, fill, first, n, nrhs, dA, ldda, dB, lddb));
    GCHOL_TRY(PFX(trsm_rec)(queue->blas, L, fill, second, n, nrhs, dA, ldda, dB, lddb));
done:
    gchol_queue_leave(prev);
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_dpotrs_gpu, gchol_spotrs_gpu: X := A^{-1} B with A = L L^T or U^T U factored by potrf.
 *   uplo (1) 'L'/'U': the triangle that holds the factor, n (2) >= 0,
 *   nrhs (3) >= 0, dA (4) device factor, ldda (5) >= max(1,n),
 *   dB (6) device n x nrhs, overwritten by X, lddb (7) >= max(1,n),
 *   info (8) receives the return value, queue (9).
 * Asynchronous (ordered on the queue's stream): returns 0, -i or a library
 * error (<= -100). The other triangle of dA is not read.
 * -------------------------------------------------------------------------- */
int64_t PFX(potrs_gpu)(char uplo, int64_t n, int64_t nrhs, const FLOAT *dA, int64_t ldda,
                       FLOAT *dB, int64_t lddb, int64_t *info, gchol_queue_t queue)
{
    int64_t st = gchol_check_solve_args(uplo, n, nrhs, dA, ldda, dB, lddb);
    if (st == 0 && info == NULL) st = -8;
    if (st == 0 && queue == NULL) st = -9;
    if (st == 0 && n > 0 && nrhs > 0)
        st = potrs_run(gchol_uplo_is_upper(uplo), n, nrhs, dA, ldda, dB, lddb, queue);
    if (info) *info = st;
    return st;
}

/* The host form's device job: the factor at the buffer's start, B at boff
 * bytes, both with leading dimension n. */
typedef struct {
    char    uplo;
    int64_t n, nrhs;
    size_t  boff;
} host_potrs_t;

static int64_t host_potrs_job(gchol_queue_t q, char *dbase, void *ctx, int *download)
{
    const host_potrs_t *c = (const host_potrs_t *)ctx;
    int64_t sinfo = 0;
    (void)download;
    return PFX(potrs_gpu)(c->uplo, c->n, c->nrhs, (const FLOAT *)dbase, c->n,
                          (FLOAT *)(dbase + c->boff), c->n, &sinfo, q);
}

/* -----------------------------------------------------------------------------
 * gchol_dpotrs, gchol_spotrs: the same with A and B in host memory, on the library-owned
 * queue. Only A's uplo triangle goes up (with whole 256-wide diagonal
 * blocks). Only the n x nrhs block of B is written back; A, the padding rows
 * of A and B, and the other triangle are never written. Synchronous.
 *   uplo (1), n (2), nrhs (3), A (4) host factor, lda (5) >= max(1,n),
 *   B (6) host, ldb (7) >= max(1,n), info (8).
 * -------------------------------------------------------------------------- */
int64_t PFX(potrs)(char uplo, int64_t n, int64_t nrhs, const FLOAT *A, int64_t lda, FLOAT *B,
                   int64_t ldb, int64_t *info)
{
    int64_t st = gchol_check_solve_args(uplo, n, nrhs, A, lda, B, ldb);
    if (st == 0 && info == NULL) st = -8;
    if (st != 0 || n == 0 || nrhs == 0) {
        if (info) *info = st;
        return st;
    }
    /* B starts 32 elements aligned behind the n x n factor (ld n) */
    const size_t w = sizeof(FLOAT), boff = (size_t)(n * n + 31) / 32 * 32 * w;
    host_potrs_t job = { uplo, n, nrhs, boff };
    const gchol_host_array_t arrays[] = {
        /* the factor's triangle only: potrs_gpu never reads the other one */
        { .up = A, .ld = (size_t)lda * w, .width = (size_t)n * w, .offset = 0, .cols = n,
          .tri = uplo, .elsize = w },
        { .up = B, .down = B, .ld = (size_t)ldb * w, .width = (size_t)n * w, .offset = boff,
          .cols = nrhs },
    };
    st = gchol_host_call(arrays, 2, boff + (size_t)(n * nrhs) * w, host_potrs_job, &job);
    *info = st;
    return st;
}
