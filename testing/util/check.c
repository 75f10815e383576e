/*
 * check.c -- LAPACK residual ratios and reference results of the testing
 * library (util.h), all computed in double: the Cholesky residual on the CPU
 * (OpenBLAS) or the GPU (cuBLAS), reference factors and info values, and the
 * backward error of a solve.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cublas_v2.h>
#include <cblas.h>
#include <lapacke.h>

#include "util.h"

/* Rows of column j inside the referenced triangle: [*lo, *hi). */
static void triangle_rows(char uplo, int64_t n, int64_t j, int64_t *lo, int64_t *hi)
{
    if (uplo == 'L' || uplo == 'l') {
        *lo = j;
        *hi = n;
    } else {
        *lo = 0;
        *hi = j + 1;
    }
}


/* Converts the referenced triangle of columns j0..j0+jb-1 of the n x n
 * matrix (precision prec) into W (double). A and W both point at column j0.
 * Other entries of W are not written. */
static void triangle_to_double(char prec, char uplo, int64_t n, int64_t j0,
                               int64_t jb, const void *A, int64_t lda,
                               double *W, int64_t ldw)
{
    for (int64_t j = j0; j < j0 + jb; j++) {
        int64_t lo, hi;
        double *w = W + (j - j0) * ldw;
        triangle_rows(uplo, n, j, &lo, &hi);
        if (prec == 's') {
            const float *a = (const float *)A + (j - j0) * lda;
            for (int64_t i = lo; i < hi; i++)
                w[i] = (double)a[i];
        } else {
            const double *a = (const double *)A + (j - j0) * lda;
            for (int64_t i = lo; i < hi; i++)
                w[i] = a[i];
        }
    }
}

/* Adds |W| of columns j0..j0+jb-1 (a triangle of a symmetric matrix, W's
 * column 0 is column j0) to the symmetric column sums; flags NaN. */
static void sym_colsum_add(char uplo, int64_t n, int64_t j0, int64_t jb,
                           const double *W, int64_t ldw, double *colsum,
                           int *has_nan)
{
    for (int64_t j = j0; j < j0 + jb; j++) {
        int64_t lo, hi;
        const double *w = W + (j - j0) * ldw;
        triangle_rows(uplo, n, j, &lo, &hi);
        for (int64_t i = lo; i < hi; i++) {
            double v = fabs(w[i]);
            if (isnan(v))
                *has_nan = 1;
            colsum[j] += v;
            if (i != j)
                colsum[i] += v;
        }
    }
}

/* max of the column sums, NaN when flagged. */
static double colsum_max(int64_t n, const double *colsum, int has_nan)
{
    double m = 0;
    if (has_nan)
        return NAN;
    for (int64_t j = 0; j < n; j++)
        m = colsum[j] > m ? colsum[j] : m;
    return m;
}

/* ||A||_1 of a symmetric matrix stored as a host triangle. */
static double sym_norm1_host(char prec, char uplo, int64_t n, const void *A,
                             int64_t lda, double *colsum, double *work_col)
{
    int has_nan = 0;
    memset(colsum, 0, (size_t)n * sizeof(double));
    for (int64_t j = 0; j < n; j++) {
        const char *col = (const char *)A + (size_t)(j * lda) * testing_elsize(prec);
        triangle_to_double(prec, uplo, n, j, 1, col, lda, work_col, n);
        sym_colsum_add(uplo, n, j, 1, work_col, n, colsum, &has_nan);
    }
    return colsum_max(n, colsum, has_nan);
}

/* Scales ||R||_1 into the LAPACK residual. */
static double scaled_residual(char prec, int64_t n, double normR, double normA)
{
    if (isnan(normR) || isnan(normA))
        return NAN;
    return normR / ((double)n * (normA > 0 ? normA : 1.0) * testing_eps(prec));
}

double testing_residual_cpu(char prec, char uplo, int64_t n,
                            const void *A, int64_t lda,
                            const void *L, int64_t ldl)
{
    double *W, *Ld, *colsum, normA, normR, resid;
    int has_nan = 0, lower = (uplo == 'L' || uplo == 'l');
    if (n <= 0)
        return 0;
    W = calloc((size_t)(n * n), sizeof(double));
    Ld = calloc((size_t)(n * n), sizeof(double));
    colsum = calloc((size_t)n, sizeof(double));
    if (!W || !Ld || !colsum) {
        free(W); free(Ld); free(colsum);
        return -1;
    }
    normA = sym_norm1_host(prec, uplo, n, A, lda, colsum, W);
    memset(W, 0, (size_t)n * sizeof(double));
    triangle_to_double(prec, uplo, n, 0, n, A, lda, W, n);
    triangle_to_double(prec, uplo, n, 0, n, L, ldl, Ld, n);
    /* W = A - L*L^T ('L') or A - U^T*U ('U'), referenced triangle only. */
    cblas_dsyrk(CblasColMajor, lower ? CblasLower : CblasUpper,
                lower ? CblasNoTrans : CblasTrans, (blasint)n, (blasint)n,
                -1.0, Ld, (blasint)n, 1.0, W, (blasint)n);
    memset(colsum, 0, (size_t)n * sizeof(double));
    sym_colsum_add(uplo, n, 0, n, W, n, colsum, &has_nan);
    normR = colsum_max(n, colsum, has_nan);
    resid = scaled_residual(prec, n, normR, normA);
    free(W); free(Ld); free(colsum);
    return resid;
}

/* Uploads the referenced triangle of columns [j0, j0+jb) of a host matrix of
 * precision prec (A points at column j0) as double, other triangle zero, into
 * dW (ld n). */
static int upload_triangle_block(char prec, char uplo, int64_t n, int64_t j0,
                                 int64_t jb, const void *A, int64_t lda,
                                 double *stage, double *dW)
{
    memset(stage, 0, (size_t)(n * jb) * sizeof(double));
    triangle_to_double(prec, uplo, n, j0, jb, A, lda, stage, n);
    return TESTING_CUDA(cudaMemcpy(dW + j0 * n, stage, (size_t)(n * jb) * sizeof(double),
                                   cudaMemcpyHostToDevice)) ? -1 : 0;
}

int testing_residual_gpu(char prec, char uplo, int64_t n,
                         const void *A, int64_t lda,
                         const void *dL, int64_t lddl, double *resid)
{
    const int64_t nb = 256;
    size_t es = testing_elsize(prec);
    int lower = (uplo == 'L' || uplo == 'l'), has_nan = 0, rc = -1;
    double *dW = NULL, *dLd = NULL, *stage = NULL, *colsum = NULL;
    void *lstage = NULL;
    cublasHandle_t handle = NULL;
    double minus_one = -1.0, one = 1.0, normA, normR;

    *resid = 0;
    if (n <= 0)
        return 0;
    stage = malloc((size_t)(n * nb) * sizeof(double));
    lstage = malloc((size_t)(n * nb) * es);
    colsum = calloc((size_t)n, sizeof(double));
    if (!stage || !lstage || !colsum)
        goto cleanup;
    if (TESTING_CUDA(cudaMalloc((void **)&dW, (size_t)(n * n) * sizeof(double))) ||
        TESTING_CUDA(cudaMalloc((void **)&dLd, (size_t)(n * n) * sizeof(double))) ||
        TESTING_CUBLAS(cublasCreate(&handle)))
        goto cleanup;

    /* dW = A and dLd = L (other triangles zero), column block by block. */
    for (int64_t j0 = 0; j0 < n; j0 += nb) {
        int64_t jb = n - j0 < nb ? n - j0 : nb;
        if (upload_triangle_block(prec, uplo, n, j0, jb,
                                  (const char *)A + (size_t)(j0 * lda) * es, lda, stage, dW))
            goto cleanup;
        if (testing_copy_d2h(es, n, jb, (const char *)dL + (size_t)(j0 * lddl) * es,
                             lddl, lstage, n))
            goto cleanup;
        if (upload_triangle_block(prec, uplo, n, j0, jb, lstage, n, stage, dLd))
            goto cleanup;
    }
    if (TESTING_CUBLAS(cublasDsyrk_64(handle, lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
                                      lower ? CUBLAS_OP_N : CUBLAS_OP_T, n, n, &minus_one,
                                      dLd, n, &one, dW, n)) ||
        TESTING_CUDA(cudaDeviceSynchronize()))
        goto cleanup;

    /* ||A - L L^T||_1 from the downloaded triangle of dW. */
    for (int64_t j0 = 0; j0 < n; j0 += nb) {
        int64_t jb = n - j0 < nb ? n - j0 : nb;
        if (TESTING_CUDA(cudaMemcpy(stage, dW + j0 * n, (size_t)(n * jb) * sizeof(double),
                                    cudaMemcpyDeviceToHost)))
            goto cleanup;
        sym_colsum_add(uplo, n, j0, jb, stage, n, colsum, &has_nan);
    }
    normR = colsum_max(n, colsum, has_nan);
    normA = sym_norm1_host(prec, uplo, n, A, lda, colsum, stage);
    *resid = scaled_residual(prec, n, normR, normA);
    rc = 0;
cleanup:
    if (handle)
        cublasDestroy(handle);
    cudaFree(dW);
    cudaFree(dLd);
    free(stage);
    free(lstage);
    free(colsum);
    return rc;
}

int testing_residual(char prec, char uplo, int64_t n,
                     const void *A, int64_t lda,
                     const void *L, int64_t ldl,
                     const void *dL, int64_t lddl, double *resid)
{
    size_t es = testing_elsize(prec);
    int use_gpu = n > TESTING_GPU_RESIDUAL_MIN_N && testing_have_gpu();
    int rc = -1;
    void *tmp = NULL;

    if (use_gpu && dL)
        return testing_residual_gpu(prec, uplo, n, A, lda, dL, lddl, resid);
    if (!use_gpu && L) {
        *resid = testing_residual_cpu(prec, uplo, n, A, lda, L, ldl);
        return *resid == -1 ? -1 : 0;
    }
    if (use_gpu) { /* only a host factor: upload it */
        if (TESTING_CUDA(cudaMalloc(&tmp, (size_t)(ldl * n) * es)))
            return -1;
        if (!testing_copy_h2d(es, n, n, L, ldl, tmp, ldl))
            rc = testing_residual_gpu(prec, uplo, n, A, lda, tmp, ldl, resid);
        cudaFree(tmp);
        return rc;
    }
    if (!dL || !(tmp = malloc((size_t)(lddl * n) * es))) /* download it */
        return -1;
    if (!testing_copy_d2h(es, n, n, dL, lddl, tmp, lddl)) {
        *resid = testing_residual_cpu(prec, uplo, n, A, lda, tmp, lddl);
        rc = *resid == -1 ? -1 : 0;
    }
    free(tmp);
    return rc;
}

int64_t testing_reference_factor(char prec, char uplo, int64_t n, int64_t ncols,
                                 const void *A, int64_t lda,
                                 double *R, int64_t ldr)
{
    int lower = (uplo == 'L' || uplo == 'l');
    int64_t info = 0;
    for (int64_t j = 0; j < n; j++)
        memset(R + j * ldr, 0, (size_t)n * sizeof(double));
    triangle_to_double(prec, uplo, n, 0, n, A, lda, R, ldr);
    if (ncols <= 0)
        return 0;
    LAPACKE_set_nancheck(0);
    info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, lower ? 'L' : 'U', (lapack_int)ncols,
                          R, (lapack_int)ldr);
    if (info != 0 || ncols >= n)
        return info;
    if (lower) /* L21 = A21 * L11^{-T} */
        cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit,
                    (blasint)(n - ncols), (blasint)ncols, 1.0, R, (blasint)ldr,
                    R + ncols, (blasint)ldr);
    else       /* U12 = U11^{-T} * A12 */
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit,
                    (blasint)ncols, (blasint)(n - ncols), 1.0, R, (blasint)ldr,
                    R + ncols * ldr, (blasint)ldr);
    return 0;
}

double testing_factor_diff(char prec, char uplo, int64_t n, int64_t ncols,
                           const void *L, int64_t ldl,
                           const double *R, int64_t ldr)
{
    double maxdiff = 0, maxref = 0;
    for (int64_t j = 0; j < ncols; j++) {
        int64_t lo, hi;
        triangle_rows(uplo, n, j, &lo, &hi);
        for (int64_t i = lo; i < hi; i++) {
            double l = testing_get(prec, L, ldl, i, j), r = R[i + j * ldr];
            double d = fabs(l - r);
            if (isnan(d))
                return NAN;
            maxdiff = d > maxdiff ? d : maxdiff;
            maxref = fabs(r) > maxref ? fabs(r) : maxref;
        }
    }
    return maxdiff / (maxref > 0 ? maxref : 1.0);
}

int64_t testing_lapacke_info(char prec, char uplo, int64_t n,
                             const void *A, int64_t lda)
{
    size_t bytes = (size_t)(lda * (n > 0 ? n : 1)) * testing_elsize(prec);
    void *C = malloc(bytes);
    int64_t info;
    if (!C)
        return -1;
    memcpy(C, A, bytes);
    LAPACKE_set_nancheck(0);
    info = prec == 's'
         ? LAPACKE_spotrf(LAPACK_COL_MAJOR, uplo, (lapack_int)n, C, (lapack_int)lda)
         : LAPACKE_dpotrf(LAPACK_COL_MAJOR, uplo, (lapack_int)n, C, (lapack_int)lda);
    free(C);
    return info;
}

/* Unblocked upper Cholesky (netlib dpotf2) of U (ld n, holding A's upper
 * triangle); returns the first j (1-based) with pivot <= 0 or NaN. */
static int64_t potf2_upper_info(int64_t n, double *U)
{
    for (int64_t j = 0; j < n; j++) {
        double *uj = U + j * n;
        double ajj = uj[j] - cblas_ddot((blasint)j, uj, 1, uj, 1);
        if (ajj <= 0 || isnan(ajj))
            return j + 1;
        ajj = sqrt(ajj);
        uj[j] = ajj;
        if (j + 1 < n) {
            cblas_dgemv(CblasColMajor, CblasTrans, (blasint)j, (blasint)(n - j - 1),
                        -1.0, U + (j + 1) * n, (blasint)n, uj, 1,
                        1.0, U + j + (j + 1) * n, (blasint)n);
            cblas_dscal((blasint)(n - j - 1), 1.0 / ajj, U + j + (j + 1) * n, (blasint)n);
        }
    }
    return 0;
}

int64_t testing_reference_info(char prec, char uplo, int64_t n,
                               const void *A, int64_t lda)
{
    double *U = calloc((size_t)(n > 0 ? n * n : 1), sizeof(double));
    int64_t info;
    if (!U)
        return -1;
    /* U = A's upper triangle (the transpose of the lower one for 'L'). */
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i <= j; i++)
            U[i + j * n] = (uplo == 'L' || uplo == 'l') ? testing_get(prec, A, lda, j, i)
                                                        : testing_get(prec, A, lda, i, j);
    info = potf2_upper_info(n, U);
    free(U);
    return info;
}


/* ===========================================================================
 * Solves.
 * ========================================================================= */

/* A(i, j) of the n x n matrix as testing_norm_inf reads it. */
static double sym_get(char prec, char uplo, const void *A, int64_t lda, int64_t i, int64_t j)
{
    if (uplo == 'L' || uplo == 'U') {
        const int64_t r = (uplo == 'L') == (i >= j) ? i : j, c = r == i ? j : i;
        return testing_get(prec, A, lda, r, c);
    }
    return testing_get(prec, A, lda, i, j);
}

double testing_norm_inf(char prec, char uplo, int64_t n, const void *A, int64_t lda)
{
    double worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double s = 0;
        for (int64_t j = 0; j < n; j++)
            s += fabs(sym_get(prec, uplo, A, lda, i, j));
        if (isnan(s))
            return NAN;
        worst = s > worst ? s : worst;
    }
    return worst;
}

double testing_solve_ratio(char prec, char uplo, int64_t n, int64_t nrhs, const void *A,
                           int64_t lda, const void *B, int64_t ldb, const void *X, int64_t ldx)
{
    const size_t nn = (size_t)(n > 0 ? n : 1);
    const size_t nr = (size_t)(n > 0 && nrhs > 0 ? n * nrhs : 1);
    double *Ad = malloc(nn * nn * sizeof(double)), *Xd = malloc(nr * sizeof(double));
    double *Rd = malloc(nr * sizeof(double)), worst = 0;
    if (!Ad || !Xd || !Rd) {
        free(Ad); free(Xd); free(Rd);
        return -1;
    }
    const double normA = testing_norm_inf(prec, uplo, n, A, lda);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            Ad[i + j * n] = sym_get(prec, uplo, A, lda, i, j);
    testing_to_double(prec, n, nrhs, X, ldx, Xd, n);
    testing_to_double(prec, n, nrhs, B, ldb, Rd, n);
    if (n > 0 && nrhs > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (blasint)n, (blasint)nrhs,
                    (blasint)n, -1.0, Ad, (blasint)n, Xd, (blasint)n, 1.0, Rd, (blasint)n);
    if (isnan(normA))
        worst = NAN;
    for (int64_t j = 0; j < nrhs && !isnan(worst); j++) {
        double rn = 0, xn = 0;
        for (int64_t i = 0; i < n; i++) {
            const double r = fabs(Rd[i + j * n]), x = fabs(Xd[i + j * n]);
            if (isnan(r) || isnan(x)) {
                worst = NAN;
                break;
            }
            rn = r > rn ? r : rn;
            xn = x > xn ? x : xn;
        }
        const double q = rn / ((normA > 0 ? normA : 1) * (xn > 0 ? xn : 1));
        if (!isnan(worst) && q > worst)
            worst = q;
    }
    free(Ad); free(Xd); free(Rd);
    return worst;
}

double testing_solve_berr(char prec, char uplo, int64_t n, int64_t nrhs, const void *A,
                          int64_t lda, const void *B, int64_t ldb, const void *X, int64_t ldx)
{
    const double r = testing_solve_ratio(prec, uplo, n, nrhs, A, lda, B, ldb, X, ldx);
    return r < 0 ? r : r / ((double)(n > 1 ? n : 1) * testing_eps(prec));
}
