/*
 * bench_syrk_diag_check.h -- bench_syrk_diag's checks of each result: the
 * largest difference from cuBLAS's on the device, and single precision's
 * against C formed in double. Part of bench_syrk_diag.c, which includes it
 * once.
 */
#ifndef GCHOL_BENCH_SYRK_DIAG_CHECK_H
#define GCHOL_BENCH_SYRK_DIAG_CHECK_H

#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------------------
 * Checks
 * ------------------------------------------------------------------------- */
/* max |x_i| of a device vector of count entries (Idamax_64), NaN-aware via nrm2. */
static double device_max_abs(cublasHandle_t h, char prec, int64_t count, const void *dx)
{
    int64_t index = 0;
    bench_scalar_t value, norm;
    if (prec == 'd') {
        BENCH_CUBLAS(cublasIdamax_64(h, count, dx, 1, &index));
        BENCH_CUBLAS(cublasDnrm2_64(h, count, dx, 1, &norm.d));
    } else {
        BENCH_CUBLAS(cublasIsamax_64(h, count, dx, 1, &index));
        BENCH_CUBLAS(cublasSnrm2_64(h, count, dx, 1, &norm.s));
    }
    if (index < 1) return 0.0;                          /* count == 0 */
    const size_t es = testing_elsize(prec);
    BENCH_CUDA(cudaMemcpy(&value, (const char *) dx + (size_t) (index - 1) * es, es,
                          cudaMemcpyDeviceToHost));
    if (!isfinite(bench_scalar_value(prec, norm))) return INFINITY;
    return fabs(bench_scalar_value(prec, value));
}

/* max|C - R| / max|R| over m x m buffers (lddc) whose other triangle and padding
 * are 0 in both; transc: compare C^T (an upper triangle) with R. dS: scratch. */
static double compare_lower(cublasHandle_t h, char prec, int64_t m, const void *dC, int transc,
                            const void *dR, int64_t lddc, void *dS)
{
    bench_scalar_t one = bench_scalar(prec, 1.0), minus_one = bench_scalar(prec, -1.0);
    BENCH_BLAS(prec, geam_64, h, transc ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, m, m,
         (void *) &one, dC, lddc, (void *) &minus_one, dR, lddc, dS, lddc);
    double diff = device_max_abs(h, prec, lddc * m, dS);
    double ref  = device_max_abs(h, prec, lddc * m, dR);
    if (!isfinite(diff) || !isfinite(ref)) return INFINITY;
    return ref > 0 ? diff / ref : diff;
}

/*
 * Single precision against the truth: C64 = (A D)(A D)^T formed in double
 * (cuBLAS dgmm + dsyrk from the float inputs, whose products are exact in
 * double), then max|C - C64| / max|C64| over the lower triangle for each
 * float result in results[] (m x m, lddc; transposed[i]: stored as an upper
 * triangle). errs[i] = INFINITY where a result is missing (NULL). Returns 0,
 * or -1 where device memory is short (then nothing is measured).
 */
static int compare_double_truth(cublasHandle_t h, int64_t m, int64_t n, const float *hA,
                                const float *hd, int64_t lddc, const float *const *results,
                                const int *transposed, int count, double *errs)
{
    const size_t need = (size_t) m * n * 16 + (size_t) m * m * 8 + (size_t) n * 8;
    size_t free_bytes, total_bytes;
    BENCH_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (need + (256u << 20) > free_bytes) return -1;
    double *hA64 = bench_malloc((size_t) m * n * sizeof(double));
    double *hd64 = bench_malloc((size_t) n * sizeof(double));
    for (int64_t i = 0; i < m * n; ++i) hA64[i] = hA[i];
    for (int64_t k = 0; k < n; ++k) hd64[k] = hd[k];
    double *dA64, *dB64, *dC64, *dd64;
    BENCH_CUDA(cudaMalloc((void **) &dA64, (size_t) m * n * sizeof(double)));
    BENCH_CUDA(cudaMalloc((void **) &dB64, (size_t) m * n * sizeof(double)));
    BENCH_CUDA(cudaMalloc((void **) &dC64, (size_t) m * m * sizeof(double)));
    BENCH_CUDA(cudaMalloc((void **) &dd64, (size_t) n * sizeof(double)));
    BENCH_CUDA(cudaMemcpy(dA64, hA64, (size_t) m * n * sizeof(double), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(dd64, hd64, (size_t) n * sizeof(double), cudaMemcpyHostToDevice));
    const double one = 1.0, zero = 0.0;
    BENCH_CUBLAS(cublasDdgmm_64(h, CUBLAS_SIDE_RIGHT, m, n, dA64, m, dd64, 1, dB64, m));
    BENCH_CUBLAS(cublasDsyrk_64(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, m, n, &one, dB64, m,
                                &zero, dC64, m));
    double *hC64 = hA64; /* m*m <= m*n is not guaranteed: reallocate when needed */
    if (m > n) hC64 = realloc(hA64, (size_t) m * m * sizeof(double));
    if (hC64 == NULL) { fprintf(stderr, "out of host memory\n"); exit(EXIT_FAILURE); }
    BENCH_CUDA(cudaMemcpy(hC64, dC64, (size_t) m * m * sizeof(double), cudaMemcpyDeviceToHost));
    float *hC = bench_malloc((size_t) lddc * m * sizeof(float));
    double ref = 0.0;
    for (int64_t j = 0; j < m; ++j)
        for (int64_t i = j; i < m; ++i) ref = fmax(ref, fabs(hC64[i + j * m]));
    for (int r = 0; r < count; ++r) {
        errs[r] = INFINITY;
        if (results[r] == NULL) continue;
        BENCH_CUDA(cudaMemcpy(hC, results[r], (size_t) lddc * m * sizeof(float),
                              cudaMemcpyDeviceToHost));
        double diff = 0.0;
        for (int64_t j = 0; j < m; ++j)
            for (int64_t i = j; i < m; ++i) {
                const double c = transposed[r] ? hC[j + i * lddc] : hC[i + j * lddc];
                const double e = fabs(c - hC64[i + j * m]);
                diff = e > diff || isnan(e) ? e : diff;
            }
        errs[r] = ref > 0 ? diff / ref : diff;
    }
    free(hC);
    free(hC64);
    free(hd64);
    BENCH_CUDA(cudaFree(dA64));
    BENCH_CUDA(cudaFree(dB64));
    BENCH_CUDA(cudaFree(dC64));
    BENCH_CUDA(cudaFree(dd64));
    return 0;
}

#endif
