/*
 * syrk_rec.c -- C := beta C + alpha op(A) op(A)^T on one triangle,
 * recursively: the off-diagonal half is one gemm, the two diagonal halves
 * recurse, down to kLeaf where cuBLAS syrk runs. cuBLAS dsyrk with large
 * n and k runs below dgemm speed; this is close to it. Precision-generic
 * (see prec.h); internal to the library. cublas?syrk semantics.
 */
#include "prec.h"

#include "blas_ext.h"
#include "status.h"

enum { kLeaf = 1024 };

/* gchol_dsyrk_rec, gchol_ssyrk_rec */
int64_t PFX(syrk_rec)(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans,
                      int64_t n, int64_t k, FLOAT alpha, const FLOAT *A, int64_t lda, FLOAT beta,
                      FLOAT *C, int64_t ldc)
{
    int64_t st = GCHOL_SUCCESS;
    if (n <= kLeaf) {
        if (n > 0) GCHOL_BLAS(BLAS_SYRK(h, uplo, trans, n, k, &alpha, A, lda, &beta, C, ldc));
        return GCHOL_SUCCESS;
    }
    const int64_t n1 = n / 2 / 64 * 64, n2 = n - n1;
    const int tr = trans != CUBLAS_OP_N;
    /* A1 holds the first n1 rows of op(A), A2 the rest */
    const FLOAT *A1 = A, *A2 = tr ? A + n1 * lda : A + n1;
    GCHOL_TRY(PFX(syrk_rec)(h, uplo, trans, n1, k, alpha, A1, lda, beta, C, ldc));
    if (uplo == CUBLAS_FILL_MODE_LOWER) /* C21 = op(A)2 op(A)1^T */
        GCHOL_BLAS(BLAS_GEMM(h, trans, tr ? CUBLAS_OP_N : CUBLAS_OP_T, n2, n1, k, &alpha, A2, lda,
                             A1, lda, &beta, C + n1, ldc));
    else                                /* C12 = op(A)1 op(A)2^T */
        GCHOL_BLAS(BLAS_GEMM(h, trans, tr ? CUBLAS_OP_N : CUBLAS_OP_T, n1, n2, k, &alpha, A1, lda,
                             A2, lda, &beta, C + n1 * ldc, ldc));
    GCHOL_TRY(PFX(syrk_rec)(h, uplo, trans, n2, k, alpha, A2, lda, beta, C + n1 + n1 * ldc, ldc));
done:
    return st;
}
