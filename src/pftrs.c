/*
 * pftrs.c -- gchol_?pftrs_gpu: solves A X = B with the RFP Cholesky factor
 * from pftrf (LAPACK ?pftrs). Precision-generic (see prec.h).
 *
 * With L the lower factor (L = U^T for uplo = 'U') split as in rfp_index.h:
 *   L Y = B:    Y1 = L11^{-1} B1,  B2 -= L21 Y1,   Y2 = L22^{-1} B2;
 *   L^T X = Y:  X2 = L22^{-T} Y2,  Y1 -= L21^T X2, X1 = L11^{-T} Y1;
 * four triangular solves (trsm_rec.c) and two gemm, with flags that follow
 * how each block of the RFP array is stored.
 */
#include "prec.h"

#include "args.h"
#include "blas_ext.h"
#include "host_io.h"
#include "queue.h"
#include "status.h"

#include "../kernels/rfp_index.h"

static const FLOAT one = 1, minus_one = -1;

/* op for "L_block" (want_trans = 0) or "L_block^T" (1), given that the array
 * holds the block transposed (stored_trans = 1) or as is. */
static cublasOperation_t op_of(int want_trans, int stored_trans)
{
    return want_trans != stored_trans ? CUBLAS_OP_T : CUBLAS_OP_N;
}

static int64_t pftrs_run(int transposed, int upper, int64_t n, int64_t nrhs, const FLOAT *dA,
                         FLOAT *dB, int64_t lddb, gchol_queue_t queue)
{
    const gchol_rfp_blocks_t b = gchol_rfp_blocks(transposed, upper, n);
    const FLOAT *L11 = dA + b.off11, *L21 = dA + b.off21, *L22 = dA + b.off22;
    FLOAT *B1 = dB, *B2 = dB + b.n1;
    const cublasFillMode_t f11 = b.t11 ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    const cublasFillMode_t f22 = b.t22 ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    const cublasSideMode_t L = CUBLAS_SIDE_LEFT;
    cublasHandle_t h = queue->blas;
    int64_t st = GCHOL_SUCCESS;
    int prev = 0;
    if ((st = gchol_queue_enter(queue, &prev)) != GCHOL_SUCCESS) return st;

    /* forward: L Y = B */
    if (b.n1 > 0)
        GCHOL_TRY(PFX(trsm_rec)(h, L, f11, op_of(0, b.t11), b.n1, nrhs, L11, b.ld, B1, lddb));
    if (b.n1 > 0 && b.n2 > 0)
        GCHOL_BLAS(BLAS_GEMM(h, op_of(0, b.t21), CUBLAS_OP_N, b.n2, nrhs, b.n1, &minus_one, L21,
                             b.ld, B1, lddb, &one, B2, lddb));
    if (b.n2 > 0) {
        GCHOL_TRY(PFX(trsm_rec)(h, L, f22, op_of(0, b.t22), b.n2, nrhs, L22, b.ld, B2, lddb));
        /* backward: L^T X = Y */
        GCHOL_TRY(PFX(trsm_rec)(h, L, f22, op_of(1, b.t22), b.n2, nrhs, L22, b.ld, B2, lddb));
    }
    if (b.n1 > 0 && b.n2 > 0)
        GCHOL_BLAS(BLAS_GEMM(h, op_of(1, b.t21), CUBLAS_OP_N, b.n1, nrhs, b.n2, &minus_one, L21,
                             b.ld, B2, lddb, &one, B1, lddb));
    if (b.n1 > 0)
        GCHOL_TRY(PFX(trsm_rec)(h, L, f11, op_of(1, b.t11), b.n1, nrhs, L11, b.ld, B1, lddb));
done:
    gchol_queue_leave(prev);
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_dpftrs_gpu, gchol_spftrs_gpu: X := A^{-1} B with A = L L^T or U^T U factored by pftrf.
 *   transr (1) 'N'/'T', uplo (2) 'L'/'U', n (3) >= 0, nrhs (4) >= 0,
 *   dA (5) device RFP factor, dB (6) device n x nrhs, overwritten by X,
 *   lddb (7) >= max(1,n), info (8) receives the return value, queue (9).
 * Asynchronous: returns 0, -i or a library error (<= -100).
 * -------------------------------------------------------------------------- */
int64_t PFX(pftrs_gpu)(char transr, char uplo, int64_t n, int64_t nrhs, const FLOAT *dA,
                       FLOAT *dB, int64_t lddb, int64_t *info, gchol_queue_t queue)
{
    int64_t st = 0;
    if (!gchol_transr_valid(transr)) st = -1;
    else if (!gchol_uplo_valid(uplo)) st = -2;
    else if (n < 0) st = -3;
    else if (nrhs < 0) st = -4;
    else if (n > 0 && dA == NULL) st = -5;
    else if (n > 0 && nrhs > 0 && dB == NULL) st = -6;
    else if (lddb < (n > 1 ? n : 1)) st = -7;
    else if (info == NULL) st = -8;
    else if (queue == NULL) st = -9;
    if (st == 0 && n > 0 && nrhs > 0)
        st = pftrs_run(gchol_transr_is_trans(transr), gchol_uplo_is_upper(uplo), n, nrhs, dA, dB,
                       lddb, queue);
    if (info) *info = st;
    return st;
}

/* The host form's device job: the RFP factor at the buffer's start, B at
 * boff bytes with leading dimension n. */
typedef struct {
    char    transr, uplo;
    int64_t n, nrhs;
    size_t  boff;
} host_pftrs_t;

static int64_t host_pftrs_job(gchol_queue_t q, char *dbase, void *ctx, int *download)
{
    const host_pftrs_t *c = (const host_pftrs_t *)ctx;
    int64_t sinfo = 0;
    (void)download;
    return PFX(pftrs_gpu)(c->transr, c->uplo, c->n, c->nrhs, (const FLOAT *)dbase,
                          (FLOAT *)(dbase + c->boff), c->n, &sinfo, q);
}

/* -----------------------------------------------------------------------------
 * gchol_dpftrs, gchol_spftrs: the same with the factor A and B in host memory, on the
 * library-owned queue (like gchol_?potrf). Only the n x nrhs block of B comes
 * back; its padding rows are never written. Synchronous.
 *   transr (1), uplo (2), n (3), nrhs (4), A (5) host RFP factor,
 *   B (6) host, ldb (7) >= max(1,n), info (8).
 * -------------------------------------------------------------------------- */
int64_t PFX(pftrs)(char transr, char uplo, int64_t n, int64_t nrhs, const FLOAT *A, FLOAT *B,
                   int64_t ldb, int64_t *info)
{
    int64_t st = 0;
    if (!gchol_transr_valid(transr)) st = -1;
    else if (!gchol_uplo_valid(uplo)) st = -2;
    else if (n < 0) st = -3;
    else if (nrhs < 0) st = -4;
    else if (n > 0 && A == NULL) st = -5;
    else if (n > 0 && nrhs > 0 && B == NULL) st = -6;
    else if (ldb < (n > 1 ? n : 1)) st = -7;
    else if (info == NULL) st = -8;
    if (st != 0 || n == 0 || nrhs == 0) {
        if (info) *info = st;
        return st;
    }
    /* B starts 32 elements aligned behind the factor */
    const int64_t nt = n * (n + 1) / 2;
    const size_t w = sizeof(FLOAT), boff = (size_t)(nt + 31) / 32 * 32 * w;
    host_pftrs_t job = { transr, uplo, n, nrhs, boff };
    const gchol_host_array_t arrays[] = {
        { .up = A, .ld = (size_t)nt * w, .width = (size_t)nt * w, .offset = 0, .cols = 1 },
        { .up = B, .down = B, .ld = (size_t)ldb * w, .width = (size_t)n * w, .offset = boff,
          .cols = nrhs },
    };
    st = gchol_host_call(arrays, 2, boff + (size_t)(n * nrhs) * w, host_pftrs_job, &job);
    *info = st;
    return st;
}
