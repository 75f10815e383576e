/*
 * potrf_batched_cublas.c -- gchol_?potrf_batched_cublas
 * (potrf_batched_cublas.h): the fixed-order batched Cholesky by block
 * columns on cuBLAS's batched products, for orders where one thread block
 * per matrix (kernels/potrf_batched.cu) leaves the GPU waiting on its
 * barriers. Left-looking; for block column k of width kb ('L'; 'U' is its
 * transpose), on every matrix at once:
 *
 *   S := -A_k:k+kb,0:k A_k:k+kb,0:k^T      the diagonal block's sums, kb x kb
 *                                          per matrix in the workspace
 *   A_k+kb:n,k -= A_k+kb:n,0:k A_k:k+kb,0:k^T
 *                                          the rows below, in place
 *   A_k:n,k := panel(A_k:n,k, S)           the diagonal block (plus S)
 *                                          factored, the rows below solved
 *                                          by it, the info of the matrices
 *                                          that fail set (gchol_kernels.h)
 *
 * Each product is one gemmStridedBatched on the strided form, else
 * gemmBatched. The rows below lie in A's triangle, so their product writes
 * A; the diagonal block's would write A's other triangle, so its sums go
 * to the workspace, where the panel step adds them. With fused (for
 * batches that do not fill the GPU, where each launch's latency is the
 * bound), one product writes the whole panel's sums, rows k..n-1, to the
 * workspace and the panel step is one launch: two launches a block column
 * instead of four. A
 * matrix's info is its first failed block's (k + that block's column); the
 * panel steps past it leave the matrix alone (the two-launch form's
 * products still write its triangle, whose content LAPACK leaves
 * unspecified past a failure).
 *
 * With a tail, the last block columns, a trailing matrix of order m = n -
 * k0 <= tail (k0 a multiple of nb), go in three launches instead of two or
 * four each: its triangle copied to the workspace, W := A22 - A21 A21^T
 * there by one product, and W factored into A22 by the live tiles kernel
 * (kernels/potrf_batched_live.cu), a block a matrix with every live tile
 * in shared memory. The block columns are latency-bound on small batches,
 * the live kernel's order 256 in 0.06 ms for 100 matrices.
 * Precision-generic (prec.h).
 */
#include "prec.h"

#include "potrf_batched_cublas.h"
#include "../kernels/potrf_batched_live.h"
#include "queue.h"
#include "status.h"
#include "test_hooks.h"

/* The workspace's bytes at most: larger batches go by chunks. */
static const int64_t kWorkBytes = (int64_t)1 << 30;

/* An operand of every matrix: at + b * stride (the strided form), or the
 * array ptr (at NULL). */
typedef struct {
    FLOAT *at;
    int64_t ld, stride;
    FLOAT *const *ptr;
} operand_t;

/* The workspace's elements a matrix: the diagonal block's sums, or, for
 * the panel step in one launch, a whole panel's (n rows of
 * GCHOL_BATCHED_PANEL_MAX). */
static int64_t work_per(int64_t n, int fused)
{
    return fused ? n * GCHOL_BATCHED_PANEL_MAX : GCHOL_BATCHED_PANEL_WORK;
}

/* C := -op(A) op(B) + beta C on every matrix (beta 0: C not read): one
 * strided product where all three are strided (cuBLAS's fastest batched
 * form), else by the arrays. */
static int64_t gemm_all(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                        int64_t n, int64_t k, operand_t a, operand_t b, FLOAT beta, operand_t c,
                        int64_t count)
{
    int64_t st = GCHOL_SUCCESS;
    const FLOAT minus_one = -1;
    if (a.at && b.at && c.at)
        GCHOL_BLAS(BLAS_GEMM_STRIDED(h, ta, tb, m, n, k, &minus_one, a.at, a.ld, a.stride, b.at,
                                     b.ld, b.stride, &beta, c.at, c.ld, c.stride, count));
    else
        GCHOL_BLAS(BLAS_GEMM_BATCHED(h, ta, tb, m, n, k, &minus_one,
                                     (const FLOAT *const *)a.ptr, a.ld,
                                     (const FLOAT *const *)b.ptr, b.ld, &beta, c.ptr, c.ld,
                                     count));
done:
    return st;
}

/* W's leading dimension for a trailing matrix of order m: a multiple of 4
 * elements, so that W's columns are 16-byte aligned for the live kernel's
 * copies (and W's stride, ldw m, is a multiple of 4 too). */
static int64_t trailing_ld(int64_t m) { return (m + 3) / 4 * 4; }

/* The trailing matrix from A(k0, k0), order m = n - k0, on count matrices
 * (as factor_chunk's): its triangle to W (leading dimension
 * trailing_ld(m)), W -= A21 A21^T, and W factored into A22 by the live
 * tiles kernel.
 * *launched = 0 where that kernel does not fit the device: then W holds
 * the update and A is as it was. */
static int64_t factor_trailing(int upper, int64_t n, int64_t k0, FLOAT *dA,
                               FLOAT *const *dA_array, int64_t ldda, int64_t stride,
                               int64_t *dinfo, int64_t count, FLOAT *W, int64_t wstride,
                               FLOAT **ptr, gchol_queue_t q, int *launched)
{
    int64_t st = GCHOL_SUCCESS;
    const cudaStream_t s = q->stream;
    const int64_t m = n - k0, ldw = trailing_ld(m);
    const cublasOperation_t N = CUBLAS_OP_N, T = CUBLAS_OP_T;
    FLOAT **Wp = ptr, **Pk = ptr + count, **P22 = ptr + 2 * count;
    /* the lower view's block row k0, (k0, 0) ('U': A(0, k0)), and A22 */
    const int64_t off[2] = { upper ? k0 * ldda : k0, k0 + k0 * ldda };
    *launched = 0;
    if (dA_array)
        GCHOL_CUDA((cudaError_t)BATCHED_PTRS_LAUNCH(count, NULL, dA_array, 0, off, 2, Pk, s));
    GCHOL_CUDA((cudaError_t)BATCHED_TRAILING_COPY_LAUNCH(count, m, upper, dA, dA_array, stride,
                                                         ldda, k0, W, ldw, wstride, s));
    const operand_t ok = { dA ? dA + off[0] : NULL, ldda, stride, Pk },
                    ow = { W, ldw, wstride, Wp };
    const FLOAT one = 1;
    GCHOL_TRY(gemm_all(q->blas, upper ? T : N, upper ? N : T, m, m, k0, ok, ok, one, ow, count));
    int done = 0;
    GCHOL_CUDA((cudaError_t)POTRF_BATCHED_LIVE_TRAILING_LAUNCH(
        m, dA ? dA + off[1] : NULL, dA_array ? P22 : NULL, ldda, stride, upper, W, ldw, wstride,
        k0, dinfo, count, &done, s));
    *launched = done;
done:
    return st;
}

/* The steps on count matrices (dA + b * stride, or dA_array[b]) with the
 * workspace's W (count * wstride elements; wstride >= work_per(...) and,
 * with a trailing matrix from k0 > 0, >= trailing_ld(n - k0) (n - k0) and
 * a multiple of 4) and, for the pointer form, 4 count pointers. */
static int64_t factor_chunk(int upper, int64_t n, int64_t nb, int fused, int64_t k0, FLOAT *dA,
                            FLOAT *const *dA_array, int64_t ldda, int64_t stride, int64_t *dinfo,
                            int64_t count, FLOAT *W, int64_t wstride, FLOAT **ptr,
                            gchol_queue_t q)
{
    int64_t st = GCHOL_SUCCESS;
    const cudaStream_t s = q->stream;
    const cublasHandle_t h = q->blas;
    const cublasOperation_t N = CUBLAS_OP_N, T = CUBLAS_OP_T;
    /* S(r, c) of the lower view at W + r + c ldw ('U': + c + r ldw): the
     * diagonal block's sums (ldw GCHOL_BATCHED_PANEL_MAX), or, fused, the
     * whole panel's ('L': n rows) */
    const int64_t ldw = fused && !upper ? n : GCHOL_BATCHED_PANEL_MAX;
    /* the arrays: each matrix's W, then a step's operands (below) */
    FLOAT **Wp = ptr, **Pk = ptr + count, **Pb = ptr + 2 * count, **Pc = ptr + 3 * count;
    if (dA_array) {
        const int64_t w0 = 0;
        GCHOL_CUDA((cudaError_t)BATCHED_PTRS_LAUNCH(count, W, NULL, wstride, &w0, 1, Wp, s));
    }
    GCHOL_CUDA(cudaMemsetAsync(dinfo, 0, (size_t)count * sizeof(int64_t), s));
    for (int64_t k = 0; k < n; k += nb) {
        if (k0 > 0 && k == k0) {
            int launched = 0;
            GCHOL_TRY(factor_trailing(upper, n, k0, dA, dA_array, ldda, stride, dinfo, count, W,
                                      wstride, ptr, q, &launched));
            if (launched) break; /* else the block columns go on, over W */
        }
        const int64_t kb = n - k < nb ? n - k : nb, rows = n - k, below = rows - kb;
        if (k > 0) {
            /* the lower view's block row k, (k, 0) ('U': A(0, k)); the rows
             * below, (k + kb, 0); the panel's rows below, (k + kb, k) */
            const int64_t off[3] = { upper ? k * ldda : k, upper ? (k + kb) * ldda : k + kb,
                                     upper ? k + (k + kb) * ldda : k + kb + k * ldda };
            const int noff = fused || below == 0 ? 1 : 3;
            if (dA_array)
                GCHOL_CUDA((cudaError_t)BATCHED_PTRS_LAUNCH(count, NULL, dA_array, 0, off, noff,
                                                            Pk, s));
            const operand_t ok = { dA ? dA + off[0] : NULL, ldda, stride, Pk },
                            ob = { dA ? dA + off[1] : NULL, ldda, stride, Pb },
                            oc = { dA ? dA + off[2] : NULL, ldda, stride, Pc },
                            ow = { W, ldw, wstride, Wp };
            /* the sums of the whole panel, rows k..n-1 (fused), or of its
             * diagonal block: wrows x kb in the lower view */
            const int64_t wrows = fused ? rows : kb;
            GCHOL_TRY(gemm_all(h, upper ? T : N, upper ? N : T, upper ? kb : wrows,
                               upper ? wrows : kb, k, ok, ok, 0, ow, count));
            if (!fused && below > 0 && upper)
                GCHOL_TRY(gemm_all(h, T, N, kb, below, k, ok, ob, 1, oc, count));
            else if (!fused && below > 0)
                GCHOL_TRY(gemm_all(h, N, T, below, kb, k, ob, ok, 1, oc, count));
        }
        GCHOL_CUDA((cudaError_t)BATCHED_PANEL_LAUNCH(count, kb, rows, upper, dA, dA_array, stride,
                                                     ldda, k, k > 0 ? W : NULL, ldw, wstride,
                                                     fused, dinfo, s));
    }
done:
    return st;
}

int64_t PFX(potrf_batched_cublas)(int upper, int64_t n, int64_t nb, int fused, int64_t tail,
                                  FLOAT *dA, FLOAT *const *dA_array, int64_t ldda,
                                  int64_t stride, int64_t *dinfo, int64_t batch, gchol_queue_t q,
                                  int *no_room)
{
    int64_t st = GCHOL_SUCCESS;
    const cudaStream_t s = q->stream;
    FLOAT *W = NULL, **ptr = NULL;
    *no_room = 0;
    if (nb > GCHOL_BATCHED_PANEL_MAX) nb = GCHOL_BATCHED_PANEL_MAX;
    if (nb > n) nb = n;
    if (nb < 1) nb = 1;
    /* the trailing matrix's first column: the first block column's start
     * where at most tail columns are left (0: none) */
    if (tail > GCHOL_BATCHED_LIVE_MAX_N) tail = GCHOL_BATCHED_LIVE_MAX_N;
    const int64_t k0 = tail > 0 && n > tail ? (n - tail + nb - 1) / nb * nb : 0;
    const int64_t tail_k0 = k0 < n ? k0 : 0;
    const int64_t m = n - tail_k0;
    const int64_t wtail = tail_k0 > 0 ? trailing_ld(m) * m : 0,
                  wstride = wtail > work_per(n, fused) ? wtail : work_per(n, fused);
    /* the workspace before any work: without it the caller's kernels run */
    const int64_t per = wstride * (int64_t)sizeof(FLOAT) +
                        (dA_array ? 4 * (int64_t)sizeof(FLOAT *) : 0);
    const int64_t cap = gchol_test_hooks()->batched_cublas_work_bytes > 0
                            ? gchol_test_hooks()->batched_cublas_work_bytes : kWorkBytes;
    const int64_t fit = cap / per > 0 ? cap / per : 1,
                  chunk = batch < fit ? batch : fit;
    cudaError_t e = gchol_queue_malloc(q, (void **)&W, (size_t)(chunk * wstride) * sizeof(FLOAT));
    if (e == cudaSuccess && dA_array)
        e = gchol_queue_malloc(q, (void **)&ptr, (size_t)(4 * chunk) * sizeof(FLOAT *));
    if (e != cudaSuccess) {
        /* no room, or no stream-ordered allocator: the kernels need neither */
        if (e == cudaErrorMemoryAllocation || e == cudaErrorNotSupported) *no_room = 1;
        else st = gchol_from_cuda(e);
        goto done;
    }
    for (int64_t b0 = 0; b0 < batch; b0 += chunk) {
        const int64_t count = batch - b0 < chunk ? batch - b0 : chunk;
        GCHOL_TRY(factor_chunk(upper, n, nb, fused, tail_k0, dA_array ? NULL : dA + b0 * stride,
                               dA_array ? dA_array + b0 : NULL, ldda, stride, dinfo + b0, count,
                               W, wstride, ptr, q));
    }
done: {
        void *bufs[2] = { W, ptr };
        for (int i = 0; i < 2; ++i)
            if (bufs[i]) {
                const cudaError_t ef = cudaFreeAsync(bufs[i], s);
                if (ef != cudaSuccess && st == GCHOL_SUCCESS) st = gchol_from_cuda(ef);
            }
    }
    return st;
}
