/*
 * syrk_diag.c -- C := alpha*A*D^2*A^T + beta*C, in full storage
 * (gchol_?syrk_diag_gpu) and in RFP storage (gchol_?sfrk_diag_gpu), both on
 * gchol's triangular-grid kernel (kernels/syrk_diag.cu). Precision-generic
 * (see prec.h).
 */
#include "internal.h"
#include "prec.h"

#include "../kernels/gchol_kernels.h"

/* Enqueues the product of C's first ncols columns (of its lower view)
 * through `map`; arguments already checked. */
static int64_t syrk_diag_run(int64_t m, int64_t ncols, int64_t n, FLOAT alpha, const FLOAT *dA,
                             int64_t ldda, const FLOAT *dd, FLOAT beta, FLOAT *dC,
                             const gchol_outmap_t *map, int tf32, gchol_queue_t queue)
{
    /* BLAS quick return: nothing to add and C unchanged. */
    if (m == 0 || ((alpha == 0 || n == 0) && beta == 1)) return GCHOL_SUCCESS;
    /* alpha = 0: A and d are not referenced; the kernel scales C by beta. */
    if (alpha == 0) n = 0;

    int prev = 0;
    int64_t st = gchol_queue_enter(queue, &prev);
    if (st != GCHOL_SUCCESS) return st;
    int splits = 1;
    size_t work_bytes = 0;
    FLOAT *dwork = NULL;
    GCHOL_CUDA(gchol_syrk_diag_plan(m, n, sizeof(FLOAT), NULL, &splits, &work_bytes));
    /* Stream-ordered: the pool reuses the memory from one call to the next. */
    if (work_bytes) GCHOL_CUDA(gchol_malloc_async((void **)&dwork, work_bytes, queue->stream));
    GCHOL_CUDA(SYRK_DIAG_LAUNCH(m, ncols, n, alpha, dA, ldda, dd, beta, dC, map, splits, dwork,
                                tf32, queue->stream));
done:
    if (dwork) {
        cudaError_t e = cudaFreeAsync(dwork, queue->stream);
        if (st == GCHOL_SUCCESS) st = gchol_from_cuda(e);
    }
    gchol_queue_leave(prev);
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_?syrk_diag_gpu: C := alpha*A*diag(d)^2*A^T + beta*C, full storage.
 *   uplo (1) 'L'/'U': the triangle of C read and written
 *   m (2) >= 0, n (3) >= 0: A is m x n, C is m x m
 *   alpha (4), dA (5) device, ldda (6) >= max(1,m)
 *   dd (7) device, the n diagonal entries of D (not D^2), or NULL for D = I
 *   beta (8): 0 means C is not read
 *   dC (9) device, lddc (10) >= max(1,m), queue (11)
 * Asynchronous; returns 0, -i, or a library error (<= -100).
 * -------------------------------------------------------------------------- */
int64_t PFX(syrk_diag_gpu)(char uplo, int64_t m, int64_t n, FLOAT alpha, const FLOAT *dA,
                           int64_t ldda, const FLOAT *dd, FLOAT beta, FLOAT *dC, int64_t lddc,
                           gchol_queue_t queue)
{
    const int64_t st = gchol_check_syrk_diag_args(0, 'N', uplo, m, n, alpha != 0, dA, ldda, dC,
                                                  lddc);
    if (st) return st;
    if (queue == NULL) return -11;
    return PFX(syrk_diag_full)(uplo, m, n, alpha, dA, ldda, dd, beta, dC, lddc, 0, queue);
}

/* Internal (wls.c, dswls.c): syrk_diag_gpu without the argument checks;
 * tf32 = 1 (single only) multiplies with one TF32 product instead of three. */
int64_t PFX(syrk_diag_full)(char uplo, int64_t m, int64_t n, FLOAT alpha, const FLOAT *dA,
                            int64_t ldda, const FLOAT *dd, FLOAT beta, FLOAT *dC, int64_t lddc,
                            int tf32, gchol_queue_t queue)
{
    return PFX(syrk_diag_cols)(uplo, m, m, n, alpha, dA, ldda, dd, beta, dC, lddc, tf32, queue);
}

/* Internal (host_stream.c): syrk_diag_full on C's first ncols columns of
 * its lower view, every row (for 'U': its first ncols rows). */
int64_t PFX(syrk_diag_cols)(char uplo, int64_t m, int64_t ncols, int64_t n, FLOAT alpha,
                            const FLOAT *dA, int64_t ldda, const FLOAT *dd, FLOAT beta, FLOAT *dC,
                            int64_t lddc, int tf32, gchol_queue_t queue)
{
    const gchol_outmap_t map = { .rfp = 0, .upper = gchol_uplo_is_upper(uplo), .transposed = 0,
                                 .ldc = lddc };
    return syrk_diag_run(m, ncols, n, alpha, dA, ldda, dd, beta, dC, &map, tf32, queue);
}

/* -----------------------------------------------------------------------------
 * gchol_?sfrk_diag_gpu: the same into RFP storage (LAPACK ?sfrk, trans = 'N',
 * with A*D in place of A).
 *   transr (1) 'N'/'T', uplo (2), m (3), n (4), alpha (5), dA (6),
 *   ldda (7) >= max(1,m), dd (8) or NULL, beta (9), dC (10) device RFP array
 *   of m(m+1)/2 elements, queue (11).
 * -------------------------------------------------------------------------- */
int64_t PFX(sfrk_diag_gpu)(char transr, char uplo, int64_t m, int64_t n, FLOAT alpha,
                           const FLOAT *dA, int64_t ldda, const FLOAT *dd, FLOAT beta, FLOAT *dC,
                           gchol_queue_t queue)
{
    const int64_t st = gchol_check_syrk_diag_args(1, transr, uplo, m, n, alpha != 0, dA, ldda, dC,
                                                  0);
    if (st) return st;
    if (queue == NULL) return -11;
    const gchol_outmap_t map = { .rfp = 1, .upper = gchol_uplo_is_upper(uplo),
                                 .transposed = gchol_transr_is_trans(transr), .ldc = 0 };
    return syrk_diag_run(m, m, n, alpha, dA, ldda, dd, beta, dC, &map, 0, queue);
}
