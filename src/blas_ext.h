/*
 * blas_ext.h -- gchol's BLAS-like helpers on cuBLAS handles: the recursive,
 * gemm-rich triangular solve (trsm_rec.c) and symmetric update
 * (syrk_rec.c), and gemm on cublasLt's 128 x 128 tiles (gemm_lt.c). Not
 * installed.
 */
#ifndef GCHOL_BLAS_EXT_H
#define GCHOL_BLAS_EXT_H

#include <stdint.h>

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

/* Recursive triangular solve: cublas?trsm semantics, alpha = 1, non-unit
 * diagonal; side L: op(A) X = B (A k x k, B k x nb), side R: X op(A) = B
 * (B nb x k); X overwrites B. Returns a gchol status. */
int64_t gchol_dtrsm_rec(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                        cublasOperation_t trans, int64_t k, int64_t nb, const double *A,
                        int64_t lda, double *B, int64_t ldb);
int64_t gchol_strsm_rec(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                        cublasOperation_t trans, int64_t k, int64_t nb, const float *A,
                        int64_t lda, float *B, int64_t ldb);
/* The same with the leaf size given (k <= leaf: one leaf solve). */
int64_t gchol_dtrsm_rec_leaf(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                             cublasOperation_t trans, int64_t k, int64_t nb, const double *A,
                             int64_t lda, double *B, int64_t ldb, int64_t leaf);
int64_t gchol_strsm_rec_leaf(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                             cublasOperation_t trans, int64_t k, int64_t nb, const float *A,
                             int64_t lda, float *B, int64_t ldb, int64_t leaf);

/* Recursive symmetric rank-k update: cublas?syrk semantics. */
int64_t gchol_dsyrk_rec(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans,
                        int64_t n, int64_t k, double alpha, const double *A, int64_t lda,
                        double beta, double *C, int64_t ldc);
int64_t gchol_ssyrk_rec(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans,
                        int64_t n, int64_t k, float alpha, const float *A, int64_t lda,
                        float beta, float *C, int64_t ldc);

/* gemm on cublasLt's first 128 x 128 tile algorithm: cublas?gemm semantics
 * on stream s; *done = 0 (nothing enqueued) when none is offered. */
int64_t gchol_dgemm_lt_wide(cublasLtHandle_t lt, cudaStream_t s, cublasOperation_t ta,
                            cublasOperation_t tb, int64_t m, int64_t n, int64_t k, double alpha,
                            const double *A, int64_t lda, const double *B, int64_t ldb,
                            double beta, double *C, int64_t ldc, int *done);
int64_t gchol_sgemm_lt_wide(cublasLtHandle_t lt, cudaStream_t s, cublasOperation_t ta,
                            cublasOperation_t tb, int64_t m, int64_t n, int64_t k, float alpha,
                            const float *A, int64_t lda, const float *B, int64_t ldb, float beta,
                            float *C, int64_t ldc, int *done);

#endif
