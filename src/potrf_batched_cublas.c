/*
 * potrf_batched_cublas.c -- gchol_?potrf_batched_cublas
 * (potrf_batched_cublas.h): the fixed-order batched Cholesky by block
 * columns on cuBLAS's batched products, for orders where one thread block
 * per matrix (kernels/potrf_batched.cu) leaves the GPU waiting on its
 * barriers. Left-looking; for block column k of width kb ('L'; 'U' is its
 * transpose), on every matrix at once:
 *
 *   W := -A_k:n,0:k A_k:k+kb,0:k^T    the panel's sums, a block of n x nb
 *                                     per matrix in the workspace (one
 *                                     gemmStridedBatched on the strided
 *                                     form, else gemmBatched)
 *   A_k:n,k := panel(A_k:n,k + W)     one launch: the diagonal block
 *                                     factored, the rows below solved by
 *                                     it, the info of the matrices that
 *                                     fail set (gchol_kernels.h)
 *
 * The sums go to the workspace because a product writes whole blocks: A's
 * other triangle is never written. A matrix's info is its first failed
 * block's (k + that block's column); the steps past it leave the matrix
 * alone. Precision-generic (prec.h).
 */
#include "prec.h"

#include "potrf_batched_cublas.h"
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

/* C := -op(A) op(B) on every matrix (C not read): one strided product
 * where all three are strided (cuBLAS's fastest batched form), else by the
 * arrays. */
static int64_t gemm_all(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                        int64_t n, int64_t k, operand_t a, operand_t b, operand_t c, int64_t count)
{
    int64_t st = GCHOL_SUCCESS;
    const FLOAT zero = 0, minus_one = -1;
    if (a.at && b.at && c.at)
        GCHOL_BLAS(BLAS_GEMM_STRIDED(h, ta, tb, m, n, k, &minus_one, a.at, a.ld, a.stride, b.at,
                                     b.ld, b.stride, &zero, c.at, c.ld, c.stride, count));
    else
        GCHOL_BLAS(BLAS_GEMM_BATCHED(h, ta, tb, m, n, k, &minus_one,
                                     (const FLOAT *const *)a.ptr, a.ld,
                                     (const FLOAT *const *)b.ptr, b.ld, &zero, c.ptr, c.ld,
                                     count));
done:
    return st;
}

/* The steps on count matrices (dA + b * stride, or dA_array[b]) with the
 * workspace's W (count blocks of n x nb), G (the panel step's, count
 * GCHOL_BATCHED_PANEL_WORK elements) and, for the pointer form, 2 count
 * pointers. */
static int64_t factor_chunk(int upper, int64_t n, int64_t nb, FLOAT *dA, FLOAT *const *dA_array,
                            int64_t ldda, int64_t stride, int64_t *dinfo, int64_t count,
                            FLOAT *W, FLOAT *G, FLOAT **ptr, gchol_queue_t q)
{
    int64_t st = GCHOL_SUCCESS;
    const cudaStream_t s = q->stream;
    const cublasHandle_t h = q->blas;
    /* W_b's sums of the panel's (r, c): 'L' W(r, c), n rows; 'U' W(c, r),
     * the transposed product's nb rows */
    const int64_t ldw = upper ? nb : n, wstride = n * nb;
    /* the arrays: W's blocks, then each step's panel row block, A(k, 0)
     * ('L') or A(0, k) ('U'), both operands of the product */
    FLOAT **Wp = ptr, **P = ptr + count;
    if (dA_array) {
        const int64_t w0 = 0;
        GCHOL_CUDA((cudaError_t)BATCHED_PTRS_LAUNCH(count, W, NULL, wstride, &w0, 1, Wp, s));
    }
    GCHOL_CUDA(cudaMemsetAsync(dinfo, 0, (size_t)count * sizeof(int64_t), s));
    for (int64_t k = 0; k < n; k += nb) {
        const int64_t kb = n - k < nb ? n - k : nb, rows = n - k;
        if (k > 0) {
            const int64_t off = upper ? k * ldda : k;
            if (dA_array)
                GCHOL_CUDA((cudaError_t)BATCHED_PTRS_LAUNCH(count, NULL, dA_array, 0, &off, 1, P,
                                                            s));
            const operand_t oa = { dA ? dA + off : NULL, ldda, stride, P },
                            ow = { W, ldw, wstride, Wp };
            if (upper)
                GCHOL_TRY(gemm_all(h, CUBLAS_OP_T, CUBLAS_OP_N, kb, rows, k, oa, oa, ow, count));
            else
                GCHOL_TRY(gemm_all(h, CUBLAS_OP_N, CUBLAS_OP_T, rows, kb, k, oa, oa, ow, count));
        }
        GCHOL_CUDA((cudaError_t)BATCHED_PANEL_LAUNCH(count, kb, rows, upper, dA, dA_array, stride,
                                                     ldda, k, k > 0 ? W : NULL, ldw, wstride,
                                                     G, dinfo, s));
    }
done:
    return st;
}

int64_t PFX(potrf_batched_cublas)(int upper, int64_t n, int64_t nb, FLOAT *dA,
                                  FLOAT *const *dA_array, int64_t ldda, int64_t stride,
                                  int64_t *dinfo, int64_t batch, gchol_queue_t q, int *no_room)
{
    int64_t st = GCHOL_SUCCESS;
    const cudaStream_t s = q->stream;
    FLOAT *W = NULL, *G = NULL, **ptr = NULL;
    *no_room = 0;
    if (nb > GCHOL_BATCHED_PANEL_MAX) nb = GCHOL_BATCHED_PANEL_MAX;
    if (nb > n) nb = n;
    if (nb < 1) nb = 1;
    /* the workspace before any work: without it the caller's kernels run */
    const int64_t per = (n * nb + GCHOL_BATCHED_PANEL_WORK) * (int64_t)sizeof(FLOAT) +
                        (dA_array ? 2 * (int64_t)sizeof(FLOAT *) : 0);
    const int64_t cap = gchol_test_hooks()->batched_cublas_work_bytes > 0
                            ? gchol_test_hooks()->batched_cublas_work_bytes : kWorkBytes;
    const int64_t fit = cap / per > 0 ? cap / per : 1,
                  chunk = batch < fit ? batch : fit;
    cudaError_t e = gchol_queue_malloc(q, (void **)&W, (size_t)(chunk * n * nb) * sizeof(FLOAT));
    if (e == cudaSuccess)
        e = gchol_queue_malloc(q, (void **)&G,
                               (size_t)(chunk * GCHOL_BATCHED_PANEL_WORK) * sizeof(FLOAT));
    if (e == cudaSuccess && dA_array)
        e = gchol_queue_malloc(q, (void **)&ptr, (size_t)(2 * chunk) * sizeof(FLOAT *));
    if (e != cudaSuccess) {
        /* no room, or no stream-ordered allocator: the kernels need neither */
        if (e == cudaErrorMemoryAllocation || e == cudaErrorNotSupported) *no_room = 1;
        else st = gchol_from_cuda(e);
        goto done;
    }
    for (int64_t b0 = 0; b0 < batch; b0 += chunk) {
        const int64_t count = batch - b0 < chunk ? batch - b0 : chunk;
        GCHOL_TRY(factor_chunk(upper, n, nb, dA_array ? NULL : dA + b0 * stride,
                               dA_array ? dA_array + b0 : NULL, ldda, stride, dinfo + b0, count,
                               W, G, ptr, q));
    }
done: {
        void *bufs[3] = { W, G, ptr };
        for (int i = 0; i < 3; ++i)
            if (bufs[i]) {
                const cudaError_t ef = cudaFreeAsync(bufs[i], s);
                if (ef != cudaSuccess && st == GCHOL_SUCCESS) st = gchol_from_cuda(ef);
            }
    }
    return st;
}
