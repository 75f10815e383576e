/*
 * trsm_rec.c -- triangular solve with many right-hand sides, recursively:
 * the triangle is halved and the off-diagonal half becomes one gemm, down to
 * blocks of kLeaf columns where cuBLAS trsm runs. cuBLAS dtrsm runs well
 * below dgemm speed at the large square shapes of pftrf; this runs at close
 * to gemm speed. Precision-generic (see prec.h); internal to the library.
 *
 * Same semantics as cublas?trsm with alpha = 1 and a non-unit diagonal:
 *   side L: op(A) X = B (A is k x k, B is k x nb),
 *   side R: X op(A) = B (A is k x k, B is nb x k); X overwrites B.
 */
#include "prec.h"

#include "blas_ext.h"
#include "status.h"

#include "../kernels/gchol_kernels.h"

static const FLOAT one = 1, minus_one = -1;

/* The leaf on gchol's tile trsm kernel (kernels/trsm_rlt.cu: X L^{-T} = B
 * by rows) where that form fits: X op(A) = B with op(A) upper is it with
 * L = op(A)^T, and op(A) X = B with op(A) lower is its transpose, B read as
 * B^T. Only with enough right-hand sides (the kernel's rows) to fill the
 * GPU, where cuBLAS dtrsm with side left is slow (~4 TFLOP/s on a 512-row
 * leaf). */
enum { kKernelLeafMinRhs = 1024 };

/* Only with lda == ldb, the form the kernel leaf is tested and measured in
 * (pftrf's blocks of one array); a B with another leading dimension, as
 * pftrs's usually is, stays on cuBLAS. */
static int kernel_leaf_fits(cublasSideMode_t side, cublasFillMode_t uplo,
                            cublasOperation_t trans, int64_t nb, int64_t lda, int64_t ldb)
{
    const int op_lower = (uplo == CUBLAS_FILL_MODE_UPPER) == (trans != CUBLAS_OP_N);
    return nb >= kKernelLeafMinRhs && lda == ldb && (side == CUBLAS_SIDE_LEFT) == op_lower;
}

/* gchol_dtrsm_rec_leaf, gchol_strsm_rec_leaf: trsm_rec with the leaf size
 * given (k <= leaf: one leaf solve, on the kernel or cuBLAS trsm). */
int64_t PFX(trsm_rec_leaf)(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                           cublasOperation_t trans, int64_t k, int64_t nb, const FLOAT *A,
                           int64_t lda, FLOAT *B, int64_t ldb, int64_t leaf)
{
    int64_t st = GCHOL_SUCCESS;
    if (k <= leaf || nb == 0) {
        if (k > 0 && nb > 0 && k <= GCHOL_TRSM_MAX_K &&
            kernel_leaf_fits(side, uplo, trans, nb, lda, ldb)) {
            cudaStream_t stream;
            GCHOL_BLAS(cublasGetStream(h, &stream));
            return gchol_from_cuda((cudaError_t)TRSM_LEAF_LAUNCH(
                nb, k, A, lda, uplo == CUBLAS_FILL_MODE_UPPER, B, ldb, side == CUBLAS_SIDE_LEFT,
                stream));
        }
        if (k > 0 && nb > 0)
            GCHOL_BLAS(BLAS_TRSM(h, side, uplo, trans, CUBLAS_DIAG_NON_UNIT,
                                 side == CUBLAS_SIDE_LEFT ? k : nb,
                                 side == CUBLAS_SIDE_LEFT ? nb : k, &one, A, lda, B, ldb));
        return GCHOL_SUCCESS;
    }
    const int64_t k1 = k / 2 / 64 * 64 > 0 ? k / 2 / 64 * 64 : k / 2, k2 = k - k1;
    const FLOAT *A11 = A, *A22 = A + k1 + k1 * lda;
    const int upper = uplo == CUBLAS_FILL_MODE_UPPER, tr = trans != CUBLAS_OP_N;
    /* The stored off-diagonal block: A21 (k2 x k1) or A12 (k1 x k2). op(A)'s
     * lower block op(A)21 is A21 (L, N) or A12^T (U, T); its upper block
     * op(A)12 is A12 (U, N) or A21^T (L, T). */
    const FLOAT *Aoff = upper ? A + k1 * lda : A + k1;
    const int op_lower = upper == tr; /* op(A) is lower triangular */
    if (side == CUBLAS_SIDE_LEFT) {
        /* rows of B: B1 = first k1, B2 = last k2 */
        FLOAT *B1 = B, *B2 = B + k1;
        if (op_lower) { /* forward: X1, then B2 -= op(A)21 X1, then X2 */
            GCHOL_TRY(PFX(trsm_rec_leaf)(h, side, uplo, trans, k1, nb, A11, lda, B1, ldb, leaf));
            GCHOL_BLAS(BLAS_GEMM(h, trans, CUBLAS_OP_N, k2, nb, k1, &minus_one, Aoff, lda, B1, ldb,
                                 &one, B2, ldb));
            GCHOL_TRY(PFX(trsm_rec_leaf)(h, side, uplo, trans, k2, nb, A22, lda, B2, ldb, leaf));
        } else {        /* backward: X2, then B1 -= op(A)12 X2, then X1 */
            GCHOL_TRY(PFX(trsm_rec_leaf)(h, side, uplo, trans, k2, nb, A22, lda, B2, ldb, leaf));
            GCHOL_BLAS(BLAS_GEMM(h, trans, CUBLAS_OP_N, k1, nb, k2, &minus_one, Aoff, lda, B2, ldb,
                                 &one, B1, ldb));
            GCHOL_TRY(PFX(trsm_rec_leaf)(h, side, uplo, trans, k1, nb, A11, lda, B1, ldb, leaf));
        }
    } else {
        /* columns of B: B1 = first k1, B2 = last k2 */
        FLOAT *B1 = B, *B2 = B + k1 * ldb;
        if (op_lower) { /* X op(A) = B: X2 first, then B1 -= X2 op(A)21, then X1 */
            GCHOL_TRY(PFX(trsm_rec_leaf)(h, side, uplo, trans, k2, nb, A22, lda, B2, ldb, leaf));
            GCHOL_BLAS(BLAS_GEMM(h, CUBLAS_OP_N, trans, nb, k1, k2, &minus_one, B2, ldb, Aoff, lda,
                                 &one, B1, ldb));
            GCHOL_TRY(PFX(trsm_rec_leaf)(h, side, uplo, trans, k1, nb, A11, lda, B1, ldb, leaf));
        } else {        /* X1 first, then B2 -= X1 op(A)12, then X2 */
            GCHOL_TRY(PFX(trsm_rec_leaf)(h, side, uplo, trans, k1, nb, A11, lda, B1, ldb, leaf));
            GCHOL_BLAS(BLAS_GEMM(h, CUBLAS_OP_N, trans, nb, k2, k1, &minus_one, B1, ldb, Aoff, lda,
                                 &one, B2, ldb));
            GCHOL_TRY(PFX(trsm_rec_leaf)(h, side, uplo, trans, k2, nb, A22, lda, B2, ldb, leaf));
        }
    }
done:
    return st;
}

/* gchol_dtrsm_rec, gchol_strsm_rec: leaves of the kernel's largest size
 * where it runs, else of 512. */
int64_t PFX(trsm_rec)(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                      cublasOperation_t trans, int64_t k, int64_t nb, const FLOAT *A, int64_t lda,
                      FLOAT *B, int64_t ldb)
{
    const int64_t leaf = kernel_leaf_fits(side, uplo, trans, nb, lda, ldb) ? GCHOL_TRSM_MAX_K : 512;
    return PFX(trsm_rec_leaf)(h, side, uplo, trans, k, nb, A, lda, B, ldb, leaf);
}
