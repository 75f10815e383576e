/*
 * potrf_host.c -- the LAPACK-like host-memory interface: gchol_?potrf and
 * gchol_?potrf_expert. Precision-generic (see prec.h).
 *
 * Only the referenced triangle goes up, block column by block column (with
 * the whole diagonal block): the device routines never read the other one,
 * and from pageable memory the transfers, not the factorization, set the
 * time (measured on the H100, double, n = 16384: 412 ms with the whole
 * square going up, 271 with the triangle). The factorization runs on the
 * GPU, and only the referenced triangle comes back: block column by block
 * column, the rectangle outside the diagonal block goes straight into A, the
 * diagonal block through pinned staging from which only its referenced
 * triangle is copied. The other triangle and the padding rows of A are never
 * written.
 */
#include "internal.h"
#include "prec.h"

#include <string.h>

/* Block columns of the copy back; also the staging size (kCopyNb^2). */
enum { kCopyNb = 256 };

/* Copies the referenced triangle of A, whole diagonal blocks included, to the
 * n x n device matrix dA; dA's other triangle is left as it was. */
static int64_t upload_triangle(gchol_queue_t q, int upper, int64_t n, const FLOAT *A,
                               int64_t lda, FLOAT *dA, int64_t ldda)
{
    const size_t w = sizeof(FLOAT);
    for (int64_t j = 0; j < n; j += kCopyNb) {
        const int64_t jb = n - j < kCopyNb ? n - j : kCopyNb;
        /* rows j.. (L) or ..j+jb (U) of block column j */
        const int64_t r0 = upper ? 0 : j, rows = upper ? j + jb : n - j;
        cudaError_t e = cudaMemcpy2DAsync(dA + r0 + j * ldda, ldda * w, A + r0 + j * lda, lda * w,
                                          rows * w, jb, cudaMemcpyHostToDevice, q->stream);
        if (e != cudaSuccess) return gchol_from_cuda(e);
    }
    return GCHOL_SUCCESS;
}

/* Copies the referenced triangle of the n x n device matrix dA back to A. */
static int64_t download_triangle(gchol_queue_t q, int upper, int64_t n, const FLOAT *dA,
                                 int64_t ldda, FLOAT *A, int64_t lda)
{
    int64_t st = gchol_queue_reserve_host(q, (size_t)kCopyNb * kCopyNb * sizeof(FLOAT));
    if (st != GCHOL_SUCCESS) return st;
    FLOAT *stage = q->hstage;
    const size_t w = sizeof(FLOAT);
    for (int64_t j = 0; j < n; j += kCopyNb) {
        const int64_t jb = n - j < kCopyNb ? n - j : kCopyNb;
        /* off-diagonal rectangle: below the block (L) or above it (U) */
        const int64_t r0 = upper ? 0 : j + jb, rows = upper ? j : n - j - jb;
        if (rows > 0) {
            cudaError_t e = cudaMemcpy2DAsync(A + r0 + j * lda, lda * w, dA + r0 + j * ldda,
                                              ldda * w, rows * w, jb, cudaMemcpyDeviceToHost,
                                              q->stream);
            if (e != cudaSuccess) return gchol_from_cuda(e);
        }
        cudaError_t e = cudaMemcpy2DAsync(stage, jb * w, dA + j + j * ldda, ldda * w, jb * w, jb,
                                          cudaMemcpyDeviceToHost, q->stream);
        if (e == cudaSuccess) e = cudaStreamSynchronize(q->stream);
        if (e != cudaSuccess) return gchol_from_cuda(e);
        for (int64_t c = 0; c < jb; ++c) {
            const int64_t lo = upper ? 0 : c, len = upper ? c + 1 : jb - c;
            memcpy(A + (j + lo) + (j + c) * lda, stage + lo + c * jb, (size_t)len * w);
        }
    }
    return GCHOL_SUCCESS;
}

/* Arguments 1..5, common to both host forms, in LAPACK order: 0 or -i. */
static int64_t check_host_args(char uplo, int64_t n, const FLOAT *A, int64_t lda,
                               const int64_t *info)
{
    if (!gchol_uplo_valid(uplo)) return -1;
    if (n < 0) return -2;
    if (n > 0 && A == NULL) return -3;
    if (lda < (n > 1 ? n : 1)) return -4;
    if (info == NULL) return -5;
    return 0;
}

/* -----------------------------------------------------------------------------
 * gchol_?potrf_expert: Cholesky of a host matrix on the GPU.
 *   uplo (1), n (2), A (3) host array lda x n, lda (4) >= max(1,n),
 *   info (5), opts (6) NULL for defaults (trace allowed), queue (7).
 * Returns (and stores in *info) 0, -i, k > 0 or a gchol_status_t. When
 * info = k > 0, A holds the partial factor as LAPACK leaves it.
 * -------------------------------------------------------------------------- */
int64_t PFX(potrf_expert)(char uplo, int64_t n, FLOAT *A, int64_t lda, int64_t *info,
                          const gchol_options_t *opts, gchol_queue_t queue)
{
    int64_t st = check_host_args(uplo, n, A, lda, info);
    if (st == 0 && !gchol_options_valid(opts)) st = -6;
    if (st == 0 && queue == NULL) st = -7;
    if (st != 0 || n == 0) {
        if (st == 0 && opts && opts->trace) opts->trace->count = 0;
        if (info) *info = st;
        return st;
    }
    int prev = 0;
    if ((st = gchol_queue_enter(queue, &prev)) != GCHOL_SUCCESS) goto out;

    /* ldda rounded to 32 elements keeps every column aligned for cuBLAS. */
    const int64_t ldda = (n + 31) / 32 * 32;
    const size_t w = sizeof(FLOAT);
    if ((st = gchol_queue_reserve_device(queue, (size_t)ldda * (size_t)n * w)) != GCHOL_SUCCESS)
        goto leave;
    FLOAT *dA = queue->dwork;
    const int upper = gchol_uplo_is_upper(uplo);
    if ((st = upload_triangle(queue, upper, n, A, lda, dA, ldda)) != GCHOL_SUCCESS) goto leave;
    int64_t finfo = 0;
    st = PFX(potrf_expert_gpu)(uplo, n, dA, ldda, &finfo, opts, queue);
    if (st >= 0) {
        int64_t st_copy = download_triangle(queue, upper, n, dA, ldda, A, lda);
        if (st_copy != GCHOL_SUCCESS) st = st_copy;
    }
leave:
    gchol_queue_leave(prev);
out:
    *info = st;
    return st;
}

/* gchol_?potrf: LAPACK's ?potrf on the GPU, on the library-owned queue.
 *   uplo (1), n (2), A (3), lda (4), info (5). */
int64_t PFX(potrf)(char uplo, int64_t n, FLOAT *A, int64_t lda, int64_t *info)
{
    int64_t st = check_host_args(uplo, n, A, lda, info);
    if (st != 0 || n == 0) {
        if (info) *info = st;
        return st;
    }
    gchol_queue_t q = NULL;
    st = gchol_default_queue_acquire(&q);
    if (st == GCHOL_SUCCESS) st = PFX(potrf_expert)(uplo, n, A, lda, info, NULL, q);
    gchol_default_queue_release();
    *info = st;
    return st;
}
