/*
 * gemm_lt.c -- C := alpha op(A) op(B) + beta C through cublasLt, on the
 * first algorithm of its heuristic list whose tile is 128 x 128.
 * Precision-generic (see prec.h).
 *
 * Why: on large matrices cuBLAS's dgemm runs many of the left-looking
 * driver's bulk updates (tall, 1024 wide, long inner size) on cublasLt's
 * 64 x 64 tiles, well below its peak; the 128 x 128 tiles run them up to a
 * fifth faster. On smaller matrices they lose, so the driver
 * (potrf_view.c) asks for them only from the size that the tuning module
 * gives (src/tune/).
 */
#include "prec.h"

#include "blas_ext.h"
#include "status.h"

#include <cublasLt.h>
#include <stdint.h>
#include <string.h>

/* The alignment every column of a matrix at p with leading dimension ld
 * keeps, up to the 256 bytes cublasLt assumes when not told. */
static uint32_t column_alignment(const void *p, int64_t ld)
{
    const uintptr_t bits = (uintptr_t)p | (uintptr_t)ld * sizeof(FLOAT);
    uint32_t a = 256;
    while (a > 1 && bits % a) a /= 2;
    return a;
}

/*
 * gchol_dgemm_lt_wide, gchol_sgemm_lt_wide: arguments as cublas?gemm's
 * (column-major, op applied to A and B), on stream s with the queue's
 * cublasLt handle lt. *done is set to 1 when the product was enqueued, 0 when
 * cublasLt offered no 128 x 128 algorithm for the shape (nothing enqueued:
 * the caller runs its own gemm). Returns a gchol status. No workspace: only
 * algorithms that need none are asked for.
 */
int64_t PFX(gemm_lt_wide)(cublasLtHandle_t lt, cudaStream_t s, cublasOperation_t ta,
                          cublasOperation_t tb, int64_t m, int64_t n, int64_t k, FLOAT alpha,
                          const FLOAT *A, int64_t lda, const FLOAT *B, int64_t ldb, FLOAT beta,
                          FLOAT *C, int64_t ldc, int *done)
{
    enum { kCandidates = 16 };
    cublasLtMatmulDesc_t op = NULL;
    cublasLtMatrixLayout_t la = NULL, lb = NULL, lc = NULL;
    cublasLtMatmulPreference_t pref = NULL;
    cublasLtMatmulHeuristicResult_t res[kCandidates];
    const size_t no_workspace = 0;
    const uint32_t align_a = column_alignment(A, lda), align_b = column_alignment(B, ldb),
                   align_c = column_alignment(C, ldc);
    int found = 0, pick = -1;
    cublasStatus_t r = CUBLAS_STATUS_SUCCESS;
    *done = 0;
    memset(res, 0, sizeof(res));
#define LT_TRY(call) do { if ((r = (call)) != CUBLAS_STATUS_SUCCESS) goto out; } while (0)
    LT_TRY(cublasLtMatmulDescCreate(&op, LT_COMPUTE, LT_DATA));
    LT_TRY(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta)));
    LT_TRY(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb)));
    LT_TRY(cublasLtMatrixLayoutCreate(&la, LT_DATA, ta == CUBLAS_OP_N ? m : k,
                                      ta == CUBLAS_OP_N ? k : m, lda));
    LT_TRY(cublasLtMatrixLayoutCreate(&lb, LT_DATA, tb == CUBLAS_OP_N ? k : n,
                                      tb == CUBLAS_OP_N ? n : k, ldb));
    LT_TRY(cublasLtMatrixLayoutCreate(&lc, LT_DATA, m, n, ldc));
    LT_TRY(cublasLtMatmulPreferenceCreate(&pref));
    LT_TRY(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                &no_workspace, sizeof(no_workspace)));
    /* the heuristic otherwise assumes 256-byte aligned operands and may
     * offer an algorithm that then fails on these */
    LT_TRY(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
                                                &align_a, sizeof(align_a)));
    LT_TRY(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                                                &align_b, sizeof(align_b)));
    LT_TRY(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
                                                &align_c, sizeof(align_c)));
    LT_TRY(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES,
                                                &align_c, sizeof(align_c)));
    r = cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, kCandidates, res, &found);
    if (r == CUBLAS_STATUS_NOT_SUPPORTED) { /* nothing for this shape: the caller's gemm */
        r = CUBLAS_STATUS_SUCCESS;
        found = 0;
    }
    if (r != CUBLAS_STATUS_SUCCESS) goto out;
    for (int i = 0; i < found && pick < 0; ++i) {
        int tile = 0;
        size_t got = 0;
        if (res[i].state == CUBLAS_STATUS_SUCCESS &&
            cublasLtMatmulAlgoConfigGetAttribute(&res[i].algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile,
                                                 sizeof(tile), &got) == CUBLAS_STATUS_SUCCESS &&
            tile == CUBLASLT_MATMUL_TILE_128x128)
            pick = i;
    }
    if (pick >= 0) {
        LT_TRY(cublasLtMatmul(lt, op, &alpha, A, la, B, lb, &beta, C, lc, C, lc, &res[pick].algo,
                              NULL, 0, s));
        *done = 1;
    }
#undef LT_TRY
out:
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    if (lc) cublasLtMatrixLayoutDestroy(lc);
    if (lb) cublasLtMatrixLayoutDestroy(lb);
    if (la) cublasLtMatrixLayoutDestroy(la);
    if (op) cublasLtMatmulDescDestroy(op);
    return gchol_from_cublas(r);
}
