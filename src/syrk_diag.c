/*
 * syrk_diag.c -- C := alpha*A*D^2*A^T + beta*C, in full storage
 * (gchol_?syrk_diag_gpu) and in RFP storage (gchol_?sfrk_diag_gpu).
 * Precision-generic (see prec.h).
 *
 * Two paths. gchol's triangular-grid kernel (kernels/syrk_diag.cu) forms
 * A*D^2*A^T in one pass, splitting a long n across more thread blocks when
 * C has few tiles: it wins where m is small against n (1.5x cuBLAS at
 * 1024 x 65536 in double), and it is the only path into RFP storage, onto
 * part of C's columns, and with TF32 products. In double, at large m,
 * cuBLAS's own dsyrk tiles run faster: there full storage goes through
 * the cuBLAS composition, W = A*D in column chunks (cublas?dgmm) and
 * C += alpha*W*W^T (cublas?syrk). Where, the tuning table says
 * (syrk_diag_cublas_from_m, _below_m).
 */
#include "prec.h"

#include "args.h"
#include "queue.h"
#include "status.h"
#include "syrk_diag.h"
#include "tune/tune.h"

#include "../kernels/gchol_kernels.h"

/* Whether full-storage C of order m from A with n columns takes the cuBLAS
 * composition. */
static int cublas_wanted(const gchol_prec_tune_t *p, int64_t m, int64_t n)
{
    return n > 0 && m >= p->syrk_diag_cublas_from_m && m < p->syrk_diag_cublas_below_m;
}

/* C := alpha*A*D^2*A^T + beta*C on C's uplo triangle by cuBLAS: syrk on A
 * itself when D = I, else on W = A_c*D_c for column chunks A_c of A, beta
 * on the first chunk only. The chunks take at most the table's scratch
 * bytes (at least min_kc columns), allocated on the stream; *done = 0,
 * nothing enqueued, when that memory cannot be had (the kernel runs then).
 * The queue is entered; n > 0. */
static int64_t syrk_diag_cublas(cublasFillMode_t fill, int64_t m, int64_t n, FLOAT alpha,
                                const FLOAT *dA, int64_t ldda, const FLOAT *dd, FLOAT beta,
                                FLOAT *dC, int64_t lddc, gchol_queue_t q, int *done)
{
    int64_t st = GCHOL_SUCCESS;
    FLOAT *W = NULL;
    *done = 0;
    if (dd == NULL) {
        *done = 1;
        return gchol_from_cublas(
            BLAS_SYRK(q->blas, fill, CUBLAS_OP_N, m, n, &alpha, dA, ldda, &beta, dC, lddc));
    }
    const gchol_tune_t *t = q->tune;
    int64_t kc = (int64_t)(t->syrk_diag_cublas_scratch_bytes / ((size_t)m * sizeof(FLOAT)));
    if (kc < t->syrk_diag_cublas_min_kc) kc = t->syrk_diag_cublas_min_kc;
    if (kc > n) kc = n;
    if (kc < 1) kc = 1;
    size_t bytes = 0;
    if (__builtin_mul_overflow((size_t)m, (size_t)kc, &bytes) ||
        __builtin_mul_overflow(bytes, sizeof(FLOAT), &bytes) ||
        gchol_queue_malloc(q, (void **)&W, bytes) != cudaSuccess)
        return GCHOL_SUCCESS;
    *done = 1;
    for (int64_t j0 = 0; j0 < n; j0 += kc) {
        const int64_t k = n - j0 < kc ? n - j0 : kc;
        const FLOAT beta_c = j0 == 0 ? beta : (FLOAT)1;
        GCHOL_BLAS(BLAS_DGMM(q->blas, CUBLAS_SIDE_RIGHT, m, k, dA + j0 * ldda, ldda, dd + j0, 1,
                             W, m));
        GCHOL_BLAS(BLAS_SYRK(q->blas, fill, CUBLAS_OP_N, m, k, &alpha, W, m, &beta_c, dC, lddc));
    }
done:
    {
        const cudaError_t e = cudaFreeAsync(W, q->stream);
        if (st == GCHOL_SUCCESS) st = gchol_from_cuda(e);
    }
    return st;
}

/* Enqueues the product of C's first ncols columns (of its lower view)
 * through `map`; arguments already checked. Full storage of every column
 * (ncols = m, map->rfp = 0) without TF32 may take the cuBLAS composition. */
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
    if (!map->rfp && ncols == m && !tf32 && cublas_wanted(GCHOL_PTUNE(queue), m, n)) {
        int done = 0;
        const cublasFillMode_t fill = map->upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
        st = syrk_diag_cublas(fill, m, n, alpha, dA, ldda, dd, beta, dC, map->ldc, queue, &done);
        if (done || st != GCHOL_SUCCESS) {
            gchol_queue_leave(prev);
            return st;
        }
    }
    int splits = 1;
    size_t work_bytes = 0;
    FLOAT *dwork = NULL;
    GCHOL_CUDA(gchol_syrk_diag_plan(m, n, sizeof(FLOAT), &queue->tune->kernel, &splits,
                                    &work_bytes));
    /* Stream-ordered: the pool reuses the memory from one call to the next. */
    if (work_bytes) GCHOL_CUDA(gchol_queue_malloc(queue, (void **)&dwork, work_bytes));
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
/* gchol_dsyrk_diag_gpu, gchol_ssyrk_diag_gpu */
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

/* gchol_dsyrk_diag_full, gchol_ssyrk_diag_full (wls.c, dswls.c,
 * host_stream.c): syrk_diag_gpu without the argument checks; tf32 = 1
 * (single only) multiplies with one TF32 product instead of three. */
int64_t PFX(syrk_diag_full)(char uplo, int64_t m, int64_t n, FLOAT alpha, const FLOAT *dA,
                            int64_t ldda, const FLOAT *dd, FLOAT beta, FLOAT *dC, int64_t lddc,
                            int tf32, gchol_queue_t queue)
{
    return PFX(syrk_diag_cols)(uplo, m, m, n, alpha, dA, ldda, dd, beta, dC, lddc, tf32, queue);
}

/* gchol_dsyrk_diag_cols, gchol_ssyrk_diag_cols (host_stream.c):
 * syrk_diag_full on C's first ncols columns of its lower view, every row
 * (for 'U': its first ncols rows). */
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
/* gchol_dsfrk_diag_gpu, gchol_ssfrk_diag_gpu */
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
