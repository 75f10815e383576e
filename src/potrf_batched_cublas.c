/*
 * potrf_batched_cublas.c -- gchol_?potrf_batched_cublas
 * (potrf_batched_cublas.h): the fixed-order batched Cholesky by block
 * columns on cuBLAS's batched products, for orders where one thread block
 * per matrix (kernels/potrf_batched.cu) leaves the GPU waiting on its
 * barriers. Left-looking; for block column k of width kb ('L'; 'U' is its
 * transpose), on every matrix at once:
 *
 *   W := A_kk - A_k,0:k A_k,0:k^T      W a square per matrix in the
 *                                      workspace (gemmStridedBatched on
 *                                      the strided form, else gemmBatched)
 *   A_k+,k -= A_k+,0:k A_k,0:k^T       the block column below, in place
 *   W := chol(W)                       the batched kernels, order kb
 *   A_kk := W's triangle               and the block's info merged
 *   A_k+,k := A_k+,k W^-T              trsmBatched
 *
 * The diagonal block goes through W because the products write whole
 * squares: A's other triangle is never written. A matrix's info is its
 * first failed block's (k + that block's info); its later columns are what
 * the steps leave, as after any failed pivot. Precision-generic (prec.h).
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

/* C -= op(A) op(B) on every matrix: one strided product where all three
 * are strided (cuBLAS's fastest batched form), else by the arrays. */
static int64_t gemm_all(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                        int64_t n, int64_t k, operand_t a, operand_t b, operand_t c, int64_t count)
{
    int64_t st = GCHOL_SUCCESS;
    const FLOAT one = 1, minus_one = -1;
    if (a.at && b.at && c.at)
        GCHOL_BLAS(BLAS_GEMM_STRIDED(h, ta, tb, m, n, k, &minus_one, a.at, a.ld, a.stride, b.at,
                                     b.ld, b.stride, &one, c.at, c.ld, c.stride, count));
    else
        GCHOL_BLAS(BLAS_GEMM_BATCHED(h, ta, tb, m, n, k, &minus_one,
                                     (const FLOAT *const *)a.ptr, a.ld,
                                     (const FLOAT *const *)b.ptr, b.ld, &one, c.ptr, c.ld,
                                     count));
done:
    return st;
}

/* The steps on count matrices (dA + b * stride, or dA_array[b]) with the
 * workspace's W (count squares of nb), winfo and 5 count pointers. */
static int64_t factor_chunk(int upper, int64_t n, int64_t nb, FLOAT *dA, FLOAT *const *dA_array,
                            int64_t ldda, int64_t stride, int64_t *dinfo, int64_t count,
                            FLOAT *W, int64_t *winfo, FLOAT **ptr,
                            const gchol_kernel_tune_t *kt, gchol_queue_t q)
{
    int64_t st = GCHOL_SUCCESS;
    const cudaStream_t s = q->stream;
    const cublasHandle_t h = q->blas;
    const FLOAT one = 1;
    /* the arrays: W's squares; then, each step, the diagonal block, the
     * block row (column for 'U') left of it, the rows below it, and the
     * block column below it */
    FLOAT **Wp = ptr, **D = ptr + count, **P0 = ptr + 2 * count, **P1 = ptr + 3 * count,
          **P2 = ptr + 4 * count;
    const int64_t w0 = 0;
    GCHOL_CUDA((cudaError_t)BATCHED_PTRS_LAUNCH(count, W, NULL, nb * nb, &w0, 1, Wp, s));
    GCHOL_CUDA(cudaMemsetAsync(dinfo, 0, (size_t)count * sizeof(int64_t), s));
    const cublasOperation_t ta = upper ? CUBLAS_OP_T : CUBLAS_OP_N,
                            tb = upper ? CUBLAS_OP_N : CUBLAS_OP_T;
    for (int64_t k = 0; k < n; k += nb) {
        const int64_t kb = n - k < nb ? n - k : nb, m = n - k - kb;
        const int64_t off[4] = { k + k * ldda, upper ? k * ldda : k,
                                 upper ? (k + kb) * ldda : k + kb,
                                 upper ? k + (k + kb) * ldda : (k + kb) + k * ldda };
        GCHOL_CUDA((cudaError_t)BATCHED_PTRS_LAUNCH(count, dA, dA_array, stride, off, 4, D, s));
        GCHOL_CUDA((cudaError_t)BATCHED_DIAG_GET_LAUNCH(count, kb, upper, D, ldda, W, nb, nb * nb,
                                                        s));
        if (k > 0) {
            const operand_t o0 = { dA ? dA + off[1] : NULL, ldda, stride, P0 },
                            o1 = { dA ? dA + off[2] : NULL, ldda, stride, P1 },
                            o2 = { dA ? dA + off[3] : NULL, ldda, stride, P2 },
                            ow = { W, nb, nb * nb, Wp };
            GCHOL_TRY(gemm_all(h, ta, tb, kb, kb, k, o0, o0, ow, count));
            if (m > 0 && upper)
                GCHOL_TRY(gemm_all(h, CUBLAS_OP_T, CUBLAS_OP_N, kb, m, k, o0, o1, o2, count));
            if (m > 0 && !upper)
                GCHOL_TRY(gemm_all(h, CUBLAS_OP_N, CUBLAS_OP_T, m, kb, k, o1, o0, o2, count));
        }
        GCHOL_CUDA((cudaError_t)POTRF_BATCHED_LAUNCH(kb, W, NULL, NULL, nb, NULL, nb * nb, upper,
                                                     winfo, count, kt, s));
        GCHOL_CUDA((cudaError_t)BATCHED_DIAG_PUT_LAUNCH(count, kb, upper, W, nb, nb * nb, D, ldda,
                                                        winfo, dinfo, k, s));
        if (m > 0)
            GCHOL_BLAS(BLAS_TRSM_BATCHED(h, upper ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,
                                         upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER,
                                         CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, upper ? kb : m,
                                         upper ? m : kb, &one, (const FLOAT *const *)Wp, nb, P2,
                                         ldda, count));
    }
done:
    return st;
}

int64_t PFX(potrf_batched_cublas)(int upper, int64_t n, int64_t nb, FLOAT *dA,
                                  FLOAT *const *dA_array, int64_t ldda, int64_t stride,
                                  int64_t *dinfo, int64_t batch, const gchol_kernel_tune_t *kt,
                                  gchol_queue_t q, int *no_room)
{
    int64_t st = GCHOL_SUCCESS;
    const cudaStream_t s = q->stream;
    FLOAT *W = NULL, **ptr = NULL;
    int64_t *winfo = NULL;
    *no_room = 0;
    if (nb > n) nb = n;
    if (nb < 1) nb = 1;
    /* the workspace before any work: without it the caller's kernels run */
    const int64_t per = nb * nb * (int64_t)sizeof(FLOAT) + 8 + 5 * (int64_t)sizeof(FLOAT *);
    const int64_t cap = gchol_test_hooks()->batched_cublas_work_bytes > 0
                            ? gchol_test_hooks()->batched_cublas_work_bytes : kWorkBytes;
    const int64_t fit = cap / per > 0 ? cap / per : 1,
                  chunk = batch < fit ? batch : fit;
    cudaError_t e = gchol_queue_malloc(q, (void **)&W, (size_t)(chunk * nb * nb) * sizeof(FLOAT));
    if (e == cudaSuccess) e = gchol_queue_malloc(q, (void **)&winfo, (size_t)chunk * 8);
    if (e == cudaSuccess)
        e = gchol_queue_malloc(q, (void **)&ptr, (size_t)(5 * chunk) * sizeof(FLOAT *));
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
                               W, winfo, ptr, kt, q));
    }
done: {
        void *bufs[3] = { W, winfo, ptr };
        for (int i = 0; i < 3; ++i)
            if (bufs[i]) {
                const cudaError_t ef = cudaFreeAsync(bufs[i], s);
                if (ef != cudaSuccess && st == GCHOL_SUCCESS) st = gchol_from_cuda(ef);
            }
    }
    return st;
}
