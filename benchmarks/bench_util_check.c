/*
 * bench_util_check.c -- checks of a factor on the GPU (bench_util.h): the cheap
 * three-product check, and LAPACK's residual ratio formed with cuBLAS.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cublasFillMode_t fill_mode(char uplo)
{
    return (uplo == 'L' || uplo == 'l') ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
}

static int is_lower(char uplo) { return uplo == 'L' || uplo == 'l'; }

/* ===========================================================================
 * Checks of a factor
 * ========================================================================= */

/* ||A x - F F^T x|| / (n eps ||A x||) with three matrix-vector products. */
double bench_factor_check(cublasHandle_t handle, char prec, char uplo, int64_t n,
                          const void *dA0, const void *dF, int64_t ldda)
{
    if (n <= 0) return 0.0;
    const size_t es = testing_elsize(prec);
    const cublasFillMode_t fill = fill_mode(uplo);
    const int lower = is_lower(uplo);
    void *A = (void *) dA0, *F = (void *) dF;
    testing_rng_t rng;
    testing_rng_seed(&rng, 7);
    void *hx = bench_malloc(n * es);
    for (int64_t i = 0; i < n; ++i) {
        double v = testing_rng_uniform(&rng);
        if (prec == 'd') ((double *) hx)[i] = v; else ((float *) hx)[i] = (float) v;
    }
    void *dx = bench_device_malloc(n * es), *dy = bench_device_malloc(n * es);
    BENCH_CUDA(cudaMemcpy(dx, hx, n * es, cudaMemcpyHostToDevice));
    free(hx);

    bench_scalar_t one = bench_scalar(prec, 1.0), zero = bench_scalar(prec, 0.0);
    bench_scalar_t minus_one = bench_scalar(prec, -1.0), norm_ax, norm_diff;
    /* y = A x from the uplo triangle of the pristine matrix */
    BENCH_BLAS(prec, symv_64, handle, fill, n, (void *) &one, A, ldda, dx, 1,
               (void *) &zero, dy, 1);
    /* x := F F^T x (lower) or F^T F x (upper), innermost product first */
    BENCH_BLAS(prec, trmv_64, handle, fill, lower ? CUBLAS_OP_T : CUBLAS_OP_N,
               CUBLAS_DIAG_NON_UNIT, n, F, ldda, dx, 1);
    BENCH_BLAS(prec, trmv_64, handle, fill, lower ? CUBLAS_OP_N : CUBLAS_OP_T,
               CUBLAS_DIAG_NON_UNIT, n, F, ldda, dx, 1);
    BENCH_BLAS(prec, nrm2_64, handle, n, dy, 1, (void *) &norm_ax);
    BENCH_BLAS(prec, axpy_64, handle, n, (void *) &minus_one, dy, 1, dx, 1);
    BENCH_BLAS(prec, nrm2_64, handle, n, dx, 1, (void *) &norm_diff);
    BENCH_CUDA(cudaFree(dx));
    BENCH_CUDA(cudaFree(dy));

    double denom = n * testing_eps(prec) * bench_scalar_value(prec, norm_ax);
    double diff = bench_scalar_value(prec, norm_diff);
    return isfinite(diff) && denom > 0 ? diff / denom : INFINITY;
}

/* Column sums of |A| for the symmetric matrix in the uplo triangle, host side. */
double bench_lansy_one(char prec, char uplo, int64_t n, const void *dA, int64_t ldda)
{
    if (n <= 0) return 0.0;
    const size_t es = testing_elsize(prec);
    const int lower = is_lower(uplo);
    int64_t nb = ((int64_t) 64 << 20) / ((int64_t) es * n);       /* ~64 MB per block */
    nb = nb < 1 ? 1 : (nb > n ? n : nb);
    double *colsum = calloc(n, sizeof(double));
    void   *block  = bench_malloc((size_t) n * nb * es);
    if (colsum == NULL) { fprintf(stderr, "out of host memory\n"); exit(EXIT_FAILURE); }

    for (int64_t j0 = 0; j0 < n; j0 += nb) {
        int64_t jb = n - j0 < nb ? n - j0 : nb;
        BENCH_CUDA(cudaMemcpy2D(block, n * es, (const char *) dA + (size_t) j0 * ldda * es,
                                ldda * es, n * es, jb, cudaMemcpyDeviceToHost));
        for (int64_t jj = 0; jj < jb; ++jj) {
            const int64_t j = j0 + jj;
            const int64_t ibeg = lower ? j : 0, iend = lower ? n : j + 1;
            double sum = 0.0;
            for (int64_t i = ibeg; i < iend; ++i) {
                double a = fabs(prec == 'd' ? ((double *) block)[i + jj * n]
                                            : (double) ((float *) block)[i + jj * n]);
                sum += a;
                if (i != j) colsum[i] += a;             /* a_ji by symmetry */
            }
            colsum[j] += sum;
        }
    }
    double norm = 0.0;
    for (int64_t j = 0; j < n; ++j)
        if (!(colsum[j] <= norm)) norm = colsum[j];    /* propagates NaN */
    free(block);
    free(colsum);
    return norm;
}

/* ||A - L L^T||_1 / (n ||A||_1 eps): W := tri(F) by trmm on an identity,
 * R := A - W W^T (lower) or A - W^T W (upper) by syrk, then both 1-norms. */
double bench_potrf_residual(cublasHandle_t handle, char prec, char uplo, int64_t n,
                            const void *dA0, const void *dF, int64_t ldda)
{
    if (n <= 0) return 0.0;
    const size_t es = testing_elsize(prec), bytes = (size_t) ldda * n * es;
    const cublasFillMode_t fill = fill_mode(uplo);
    cudaStream_t stream;
    BENCH_CUBLAS(cublasGetStream(handle, &stream));
    void *dW = bench_device_malloc(bytes), *dR = bench_device_malloc(bytes);

    /* W := I (ones copied onto the diagonal with a pitch of ldda + 1) */
    bench_scalar_t one = bench_scalar(prec, 1.0), minus_one = bench_scalar(prec, -1.0);
    char *ones = bench_malloc(n * es);
    for (int64_t i = 0; i < n; ++i) memcpy(ones + i * es, &one, es);
    BENCH_CUDA(cudaMemsetAsync(dW, 0, bytes, stream));
    BENCH_CUDA(cudaMemcpy2DAsync(dW, (ldda + 1) * es, ones, es, es, n,
                                 cudaMemcpyHostToDevice, stream));
    BENCH_CUDA(cudaStreamSynchronize(stream));
    free(ones);
    /* W := tri(F) * I, in place (cuBLAS trmm with C == B) */
    BENCH_BLAS(prec, trmm_64, handle, CUBLAS_SIDE_LEFT, fill, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
               n, n, (void *) &one, (void *) dF, ldda, dW, ldda, dW, ldda);
    /* R := A - W W^T (lower) or A - W^T W (upper), in the uplo triangle */
    bench_device_copy(prec, n, n, dA0, ldda, dR, ldda, stream);
    BENCH_BLAS(prec, syrk_64, handle, fill, is_lower(uplo) ? CUBLAS_OP_N : CUBLAS_OP_T,
               n, n, (void *) &minus_one, dW, ldda, (void *) &one, dR, ldda);
    BENCH_CUDA(cudaStreamSynchronize(stream));

    double norm_r = bench_lansy_one(prec, uplo, n, dR, ldda);
    double norm_a = bench_lansy_one(prec, uplo, n, dA0, ldda);
    BENCH_CUDA(cudaFree(dW));
    BENCH_CUDA(cudaFree(dR));
    double denom = n * norm_a * testing_eps(prec);
    return isfinite(norm_r) && denom > 0 ? norm_r / denom : INFINITY;
}


/* ===========================================================================
 * Checks of a solve
 * ========================================================================= */
double bench_solve_berr(cublasHandle_t handle, char uplo, int64_t n, int64_t nrhs,
                        const double *dA0, int64_t ld, const double *dB, const double *dX,
                        double normA)
{
    double *dR = bench_device_malloc((size_t)(ld * nrhs) * 8), worst = 0;
    const double one = 1, minus_one = -1;
    double *h = bench_malloc((size_t)n * 8);
    BENCH_CUDA(cudaMemcpy(dR, dB, (size_t)(ld * nrhs) * 8, cudaMemcpyDeviceToDevice));
    BENCH_CUBLAS(cublasDsymm_64(handle, CUBLAS_SIDE_LEFT, fill_mode(uplo), n, nrhs, &minus_one,
                                dA0, ld, dX, ld, &one, dR, ld));
    BENCH_CUDA(cudaDeviceSynchronize());
    for (int64_t j = 0; j < nrhs; j++) {
        double rn = 0, xn = 0;
        BENCH_CUDA(cudaMemcpy(h, dR + j * ld, (size_t)n * 8, cudaMemcpyDeviceToHost));
        for (int64_t i = 0; i < n; i++) rn = isnan(h[i]) || fabs(h[i]) > rn ? fabs(h[i]) : rn;
        BENCH_CUDA(cudaMemcpy(h, dX + j * ld, (size_t)n * 8, cudaMemcpyDeviceToHost));
        for (int64_t i = 0; i < n; i++) xn = isnan(h[i]) || fabs(h[i]) > xn ? fabs(h[i]) : xn;
        const double q = rn / (normA * (xn > 0 ? xn : 1) * testing_eps('d'));
        if (isnan(q) || q > worst) worst = q;
    }
    free(h);
    BENCH_CUDA(cudaFree(dR));
    return worst;
}
