/*
 * testing_dsposv.c -- tests and times gchol's mixed-precision solver
 * gchol_dsposv_gpu, gchol_dsposv_expert_gpu and gchol_dsposv (host arrays):
 * the Cholesky factor in single precision, refined in double, against
 * LAPACKE_dsposv (OpenBLAS); and the kernels behind it (kernels/mixed_prec.cu).
 *
 * Table mode (MAGMA style; the default, n = 1024..8192):
 *   testing_dsposv [-n LIST] [--nrhs K] [--uplo L|U] [--niter K]
 *   n, nrhs, iter, dsposv seconds, gchol dpotrf + dpotrs seconds, their
 *   ratio, LAPACKE_dsposv seconds, the backward error, ok / FAILED.
 * Suite mode (make test): testing_dsposv --suite   (--quick: fewer cases)
 *
 * Checks, as LAPACK's ddrvac: RESID = max_j ||b_j - A x_j||_inf /
 * (||A||_inf ||x_j||_inf eps) < sqrt(n) when iter >= 0, with b - A x formed
 * on the CPU (OpenBLAS's dsymm, as LAPACK's testers form it) and as the
 * library forms it (cuBLAS); < 30 otherwise; iter in the
 * range each matrix calls for (0..30 when well conditioned, -1 for n <= 16,
 * -31 when the residual stalls at its rounding level, < 0 when cond(A)
 * is beyond single precision, -2 on overflow, -3 when A is not positive
 * definite); info as LAPACKE_dsposv (reference semantics for NaN, which
 * OpenBLAS's potrf does not flag); A byte for byte unchanged when iter >= 0,
 * else its referenced triangle a factor with ||A - L L^T|| / (n ||A|| eps) <
 * 30 and the rest untouched; B untouched; X's padding rows untouched. Every
 * array starts NaN-poisoned outside what the call reads. Also the quick
 * returns, the argument checks and, without a GPU, the host form's
 * GCHOL_ERR_NO_DEVICE (these run on any machine).
 *
 * Every mode ends with "SUMMARY passed=P failed=F skipped=S".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cblas.h>
#include <lapacke.h>

#include "gchol.h"
#include "argcheck.h"
#include "util.h"
#include "../kernels/gchol_kernels.h"

#define INFO_POISON TESTING_INFO_POISON
#define MU          0.25
#define LEN(a)      TESTING_LEN(a)

static gchol_queue_t g_queue;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static void *upload(char prec, const void *h, int64_t count)
{
    return testing_upload(h, (size_t)max64(count, 1) * testing_elsize(prec));
}

static int download(char prec, void *h, const void *d, int64_t count)
{
    return testing_download(h, d, (size_t)max64(count, 1) * testing_elsize(prec));
}

/* max_j ||r_j||_inf / (normA ||x_j||_inf) for R and X n x nrhs (ld n); NaN
 * if any entry or normA is NaN. */
static double column_ratio(int64_t n, int64_t nrhs, const double *R, const double *X, double normA)
{
    double worst = isnan(normA) ? NAN : 0;
    for (int64_t j = 0; j < nrhs && !isnan(worst); j++) {
        double rn = 0, xn = 0;
        for (int64_t i = 0; i < n; i++) {
            const double r = fabs(R[i + j * n]), x = fabs(X[i + j * n]);
            if (isnan(r) || isnan(x)) return NAN;
            rn = r > rn ? r : rn;
            xn = x > xn ? x : xn;
        }
        const double q = rn / ((normA > 0 ? normA : 1) * (xn > 0 ? xn : 1));
        if (q > worst) worst = q;
    }
    return worst;
}

/* max_j ||b_j - A x_j||_inf / (||A||_inf ||x_j||_inf), A symmetric from its
 * uplo triangle, in double; NaN if any entry is NaN. */
static double backward_ratio(char prec, char uplo, int64_t n, int64_t nrhs, const void *A,
                             int64_t lda, const void *B, int64_t ldb, const void *X, int64_t ldx)
{
    return testing_solve_ratio(prec, uplo, n, nrhs, A, lda, B, ldb, X, ldx);
}

/* backward_ratio's quantity with the residual R = B - A X formed as
 * gchol_dsposv forms it to decide convergence: on the GPU, cublasDsymv for
 * one right-hand side, cublasDsymm for more (src/dsposv.c, residual()), so
 * that it holds the library's own bits. This is what LAPACK's ddrvac tests
 * against sqrt(n): there the solver and the check form R with the same
 * dsymm. A residual recomputed elsewhere (the CPU's dsymm) differs by
 * rounding of the size of that bound itself: a converged residual sits at
 * the level of the rounding of b - A x. NaN on a CUDA or cuBLAS failure. */
static cublasHandle_t g_ratio_handle; /* library_ratio's, created once, destroyed by main */

static double library_ratio(char uplo, int64_t n, int64_t nrhs, const double *A, int64_t lda,
                            const double *B, int64_t ldb, const double *X, int64_t ldx)
{
    cublasHandle_t handle = g_ratio_handle;
    double *dA = NULL, *dX = NULL, *dR = NULL, *R = testing_malloc((size_t)(n * nrhs) * 8);
    double *Xp = testing_malloc((size_t)(n * nrhs) * 8), worst = NAN;
    const double minus_one = -1, one = 1, normA = testing_norm_inf('d', uplo, n, A, lda);
    const cublasFillMode_t fill = uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    for (int64_t j = 0; j < nrhs; j++) {
        memcpy(R + j * n, B + j * ldb, (size_t)n * 8);
        memcpy(Xp + j * n, X + j * ldx, (size_t)n * 8);
    }
    if (!handle && TESTING_CUBLAS(cublasCreate(&g_ratio_handle))) goto out;
    handle = g_ratio_handle;
    if (!(dA = upload('d', A, lda * n)) || !(dX = upload('d', Xp, n * nrhs)) ||
        !(dR = upload('d', R, n * nrhs)))
        goto out;
    if (nrhs == 1 ? TESTING_CUBLAS(cublasDsymv_64(handle, fill, n, &minus_one, dA, lda, dX, 1, &one, dR, 1))
                  : TESTING_CUBLAS(cublasDsymm_64(handle, CUBLAS_SIDE_LEFT, fill, n, nrhs, &minus_one,
                                                  dA, lda, dX, n, &one, dR, n)))
        goto out;
    if (download('d', R, dR, n * nrhs)) goto out;
    worst = column_ratio(n, nrhs, R, Xp, normA);
out:
    if (dA) cudaFree(dA);
    if (dX) cudaFree(dX);
    if (dR) cudaFree(dR);
    free(R); free(Xp);
    return worst;
}

/* ||A0 - L L^T||_1 / (n ||A0||_1 eps) from the factor in F's uplo triangle
 * (double). */
static double factor_residual(char uplo, int64_t n, const double *A0, const double *F, int64_t lda)
{
    double *L = calloc((size_t)(n * n), sizeof(double));
    double *R = testing_malloc((size_t)(n * n) * sizeof(double));
    double num = 0, den = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) /* L(i,j) */
            L[i + j * n] = uplo == 'L' ? F[i + j * lda] : F[j + i * lda];
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            const int64_t r = (uplo == 'L') == (i >= j) ? i : j, c = r == i ? j : i;
            R[i + j * n] = A0[r + c * lda];
        }
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (blasint)n, (blasint)n, -1.0, L,
                (blasint)n, 1.0, R, (blasint)n);
    for (int64_t j = 0; j < n; j++) { /* 1-norms of the symmetric lower parts */
        double s = 0, a = 0;
        for (int64_t i = 0; i < n; i++) {
            const int64_t r = i >= j ? i : j, c = i >= j ? j : i;
            s += fabs(R[r + c * n]);
            const int64_t ar = (uplo == 'L') == (i >= j) ? i : j, ac = ar == i ? j : i;
            a += fabs(A0[ar + ac * lda]);
        }
        num = s > num ? s : num;
        den = a > den ? a : den;
    }
    free(L); free(R);
    return num / ((double)n * (den > 0 ? den : 1) * testing_eps('d'));
}

/* ===========================================================================
 * dsposv.
 * ========================================================================= */
typedef enum { K_DD, K_GRAM, K_ILL, K_BIG_A, K_BIG_B, K_NEG, K_NAN, K_BIG_OTHER, K_NAN_B,
               K_COND2, K_COND2E7 } kind_t;
static const char *kind_name[] = { "diagdom", "gram", "ill", "big_A", "big_B", "neg", "nan",
                                   "bigother", "nan_B", "cond2", "cond2e7" };

typedef struct {
    char    uplo;
    int64_t n, nrhs, pad;
    kind_t  kind;
    int     host;
    int     tf32;   /* gchol_dsposv_expert_gpu with products = TF32 */
} pcase_t;

/* The column of the defect (neg, nan): in the middle. */
static int64_t defect_col(int64_t n) { return n / 2; }

/* A = W W^T / r + 1e-9 I with W n x r, r = n / 2 (uniform(-1,1)): half the
 * eigenvalues are 1e-9, the rest of order 1, so cond(A) ~ 1e9: SPD in double,
 * beyond single precision (its rounding of A moves the small eigenvalues by
 * ~1e-8). Both triangles. */
static int generate_ill(int64_t n, double *A, int64_t lda, uint64_t seed)
{
    const int64_t r = max64(1, n / 2);
    double *W = testing_malloc((size_t)(n * r) * sizeof(double));
    if (!W) return -1;
    for (int64_t l = 0; l < r; l++)
        for (int64_t i = 0; i < n; i++) W[i + l * n] = testing_hash_uniform(seed, i, l);
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (blasint)n, (blasint)r, 1.0 / (double)r, W,
                (blasint)n, 0.0, A, (blasint)lda);
    for (int64_t j = 0; j < n; j++) {
        A[j + j * lda] += 1e-9;
        for (int64_t i = 0; i < j; i++) A[i + j * lda] = A[j + i * lda];
    }
    free(W);
    return 0;
}

/* A (lda x n, NaN outside what dsposv reads) and B0 (ldb x nrhs). */
static int make_problem(const pcase_t *c, double *A, int64_t lda, double *B0, int64_t ldb)
{
    const int64_t n = c->n;
    testing_fill_nan('d', lda * n, A);
    if (c->kind == K_COND2E7) {
        /* LAPACK's type 6 (cond sqrt(0.1/eps)): half the spectrum at 1e-7 */
        if (testing_generate_lowrank_spd('d', c->uplo, n, A, lda, max64(1, n / 2), 1e-7,
                                         11 + (uint64_t)n))
            return -1;
    } else if (c->kind == K_GRAM || c->kind == K_ILL || c->kind == K_COND2) {
        /* cond2: LAPACK's type 2, cond(A) about 2 (mu 4/3) */
        if (c->kind == K_ILL ? generate_ill(n, A, lda, 5 + (uint64_t)n)
                             : testing_generate_gram_spd('d', n, A, lda, c->kind == K_COND2 ? 4.0 / 3 : MU,
                                                         5 + (uint64_t)n))
            return -1;
        /* keep only the referenced triangle: the other must not be read */
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++)
                if ((c->uplo == 'L') ? i < j : i > j) A[i + j * lda] = NAN;
    } else {
        testing_generate_spd('d', c->uplo, n, A, lda, 7 + (uint64_t)n);
    }
    if (c->kind == K_BIG_A)
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++)
                if (!isnan(A[i + j * lda])) A[i + j * lda] *= 1e39;
    if (c->kind == K_BIG_OTHER) /* beyond FLT_MAX where dsposv must not look */
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++)
                if ((c->uplo == 'L') ? i < j : i > j) A[i + j * lda] = (i + j) % 2 ? 1e39 : -1e39;
    const int64_t k = defect_col(n);
    if (c->kind == K_NEG) A[k + k * lda] = -1.0;
    if (c->kind == K_NAN) A[k + k * lda] = NAN;
    testing_fill_nan('d', ldb * c->nrhs, B0);
    for (int64_t j = 0; j < c->nrhs; j++)
        for (int64_t i = 0; i < n; i++)
            B0[i + j * ldb] = testing_hash_uniform(31 + (uint64_t)n, i, j) * (c->kind == K_BIG_B ? 1e39 : 1.0);
    if (c->kind == K_NAN_B) B0[n / 2] = NAN; /* column 0 */
    return 0;
}

static testing_result_t run_sposv(const pcase_t *c)
{
    const int64_t n = c->n, nrhs = c->nrhs, lda = max64(1, n + c->pad);
    const int64_t ldb = max64(1, n + c->pad + 2), ldx = max64(1, n + c->pad + 1);
    char why[200] = "", lib[40] = "";
    double resid = NAN, lresid = NAN, fres = NAN;
    int64_t iter = INFO_POISON, info = INFO_POISON, ret = INFO_POISON;
    lapack_int ref_iter = 0, ref_info = 0;
    testing_result_t res = TESTING_FAILED;
    if (!testing_case_in_part())
        return TESTING_SKIPPED;
    if (!testing_have_gpu()) {
        printf("  %-7s dsposv%s %c n=%-5lld nrhs=%-3lld %-7s (no GPU)\n", "skipped",
               c->host ? "    " : c->tf32 ? "_tf32" : "_gpu", c->uplo, (long long)n, (long long)nrhs, kind_name[c->kind]);
        return testing_record(TESTING_SKIPPED);
    }
    double *A0 = testing_malloc((size_t)(lda * n) * 8), *A = testing_malloc((size_t)(lda * n) * 8);
    double *B0 = testing_malloc((size_t)(ldb * nrhs) * 8);
    double *B = testing_malloc((size_t)(ldb * nrhs) * 8);
    double *X = testing_malloc((size_t)(ldx * nrhs) * 8);
    double *X0 = testing_malloc((size_t)(ldx * nrhs) * 8);
    double *dA = NULL, *dB = NULL, *dX = NULL;
    if (make_problem(c, A0, lda, B0, ldb)) { snprintf(why, sizeof why, "out of memory"); goto out; }
    memcpy(A, A0, (size_t)(lda * n) * 8);
    memcpy(B, B0, (size_t)(ldb * nrhs) * 8);
    testing_fill_nan('d', ldx * nrhs, X0);
    memcpy(X, X0, (size_t)(ldx * nrhs) * 8);

    if (c->host) {
        ret = gchol_dsposv(c->uplo, n, nrhs, A, lda, B, ldb, X, ldx, &iter, &info);
    } else {
        if (!(dA = upload('d', A, lda * n)) || !(dB = upload('d', B, ldb * nrhs)) ||
            !(dX = upload('d', X, ldx * nrhs)))
            goto out;
        gchol_options_t o;
        gchol_options_default(&o);
        o.products = GCHOL_PRODUCTS_TF32;
        ret = c->tf32 ? gchol_dsposv_expert_gpu(c->uplo, n, nrhs, dA, lda, dB, ldb, dX, ldx, &iter,
                                                &info, &o, g_queue)
                      : gchol_dsposv_gpu(c->uplo, n, nrhs, dA, lda, dB, ldb, dX, ldx, &iter, &info,
                                         g_queue);
        if (download('d', A, dA, lda * n) || download('d', B, dB, ldb * nrhs) ||
            download('d', X, dX, ldx * nrhs))
            goto out;
    }

    /* LAPACK's answer on the same input */
    {
        double *Ar = testing_malloc((size_t)(lda * n) * 8);
        double *Br = testing_malloc((size_t)(ldb * nrhs) * 8);
        double *Xr = testing_malloc((size_t)(ldx * nrhs) * 8);
        memcpy(Ar, A0, (size_t)(lda * n) * 8);
        memcpy(Br, B0, (size_t)(ldb * nrhs) * 8);
        ref_info = LAPACKE_dsposv(LAPACK_COL_MAJOR, c->uplo, (lapack_int)n, (lapack_int)nrhs, Ar,
                                  (lapack_int)lda, Br, (lapack_int)ldb, Xr, (lapack_int)ldx, &ref_iter);
        free(Ar); free(Br); free(Xr);
    }

    const int64_t k = defect_col(n);
    const int64_t want_info = c->kind == K_NEG || c->kind == K_NAN ? k + 1 : 0;
    int64_t bad_b = testing_count_diff('d', ldb * nrhs, B, B0), bad_xpad = 0, bad_a = 0;
    for (int64_t j = 0; j < nrhs; j++)
        bad_xpad += testing_count_diff('d', ldx - n, X + j * ldx + n, X0 + j * ldx + n);
    if (iter >= 0)
        bad_a = testing_count_diff('d', lda * n, A, A0);
    else
        bad_a = testing_count_untouched_violations('d', c->uplo, n, A, A0, lda);
    int64_t x_nan = 0; /* K_NAN_B: the NaN must reach X's column 0 */
    for (int64_t i = 0; i < n && c->kind == K_NAN_B; i++) x_nan += isnan(X[i]);
    if (want_info == 0 && info == 0 && c->kind != K_NAN_B) {
        resid = backward_ratio('d', c->uplo, n, nrhs, A0, lda, B0, ldb, X, ldx) / testing_eps('d');
        if (iter >= 0)
            lresid = library_ratio(c->uplo, n, nrhs, A0, lda, B0, ldb, X, ldx) / testing_eps('d');
        if (iter < 0 && n <= 1200) fres = factor_residual(c->uplo, n, A0, A, lda);
    }
    /* refined (iter >= 0): LAPACK's bound sqrt(n) on the CPU's residual, as
     * LAPACK's testers form it, and on the library's own */
    const double limit = iter >= 0 ? sqrt((double)n) : TESTING_TOL;
    /* below 144 a residual may stall at its rounding level before the bound */
    const int may_stall = n < 144 && iter == -31;
    int iter_ok;
    switch (c->kind) {
    case K_DD: case K_GRAM: case K_COND2: /* refinement converges */
        iter_ok = n <= 16 ? iter == -1 : (iter >= 0 && iter <= 30) || may_stall; break;
    case K_COND2E7: /* near single precision's limit: any outcome, the residual decides */
        iter_ok = n <= 16 ? iter == -1 : (iter >= 0 && iter <= 30) || iter == -31 || iter == -3; break;
    case K_ILL:   iter_ok = iter == -3 || iter == -31; break;
    case K_BIG_A: case K_BIG_B: iter_ok = iter == -2; break;
    case K_BIG_OTHER: iter_ok = iter >= 0 && iter <= 30; break;
    case K_NAN_B: iter_ok = iter == -1; break; /* gchol's deviation: stop at once */
    default:      iter_ok = iter == -3; break;
    }
    if (ret != info) snprintf(why, sizeof why, "return %lld != info %lld", (long long)ret, (long long)info);
    else if (info != want_info) snprintf(why, sizeof why, "info %lld, want %lld", (long long)info, (long long)want_info);
    else if (c->kind != K_NAN && info != ref_info) snprintf(why, sizeof why, "info %lld, LAPACK %d", (long long)info, (int)ref_info);
    else if (!iter_ok) snprintf(why, sizeof why, "iter %lld", (long long)iter);
    else if (bad_b) snprintf(why, sizeof why, "B written (%lld)", (long long)bad_b);
    else if (bad_xpad) snprintf(why, sizeof why, "X padding written (%lld)", (long long)bad_xpad);
    else if (bad_a) snprintf(why, sizeof why, "A %s (%lld)", iter >= 0 ? "changed" : "outside the factor written", (long long)bad_a);
    else if (c->kind == K_NAN_B && x_nan == 0) snprintf(why, sizeof why, "NaN in B did not reach X");
    else if (want_info == 0 && c->kind != K_NAN_B && iter >= 0 && !(lresid < sqrt((double)n)))
        snprintf(why, sizeof why, "library's RESID %.2e >= %.2f", lresid, sqrt((double)n));
    else if (want_info == 0 && c->kind != K_NAN_B && !(resid < limit)) snprintf(why, sizeof why, "RESID %.2e >= %.2f", resid, limit);
    else if (!isnan(fres) && !(fres < TESTING_TOL)) snprintf(why, sizeof why, "factor residual %.2e", fres);
    else res = TESTING_PASSED;
out:
    if (!isnan(lresid)) snprintf(lib, sizeof lib, " (library's %.2e)", lresid);
    printf("  %-7s dsposv%s %c n=%-5lld nrhs=%-3lld %-7s iter %3lld (LAPACK %3d) info %lld RESID %.2e%s%s %s\n",
           testing_result_name(res), c->host ? "    " : c->tf32 ? "_tf32" : "_gpu", c->uplo, (long long)n, (long long)nrhs,
           kind_name[c->kind], (long long)iter, (int)ref_iter, (long long)info, resid, lib,
           isnan(fres) ? "" : " factor", why);
    if (dA) cudaFree(dA);
    if (dB) cudaFree(dB);
    if (dX) cudaFree(dX);
    free(A0); free(A); free(B0); free(B); free(X); free(X0);
    return testing_record(res);
}

#include "dsposv_badargs.h"

/* ===========================================================================
 * Table mode.
 * ========================================================================= */
static void table_row(char uplo, int64_t n, int64_t nrhs, int niter)
{
    const int64_t lda = n;
    double *A0 = testing_malloc((size_t)(n * n) * 8), *B0 = testing_malloc((size_t)(n * nrhs) * 8);
    double *X = testing_malloc((size_t)(n * nrhs) * 8);
    double *dA = NULL, *dA0 = NULL, *dB = NULL, *dX = NULL;
    double t_mixed[16], t_double[16], t_cpu = NAN, resid = NAN;
    int64_t iter = INFO_POISON, info = INFO_POISON, finfo = 0;
    testing_result_t res = TESTING_FAILED;
    if (niter > 16) niter = 16;
    if (testing_generate_gram_spd('d', n, A0, lda, MU, 3 + (uint64_t)n)) goto out;
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < n; i++) B0[i + j * n] = testing_hash_uniform(41, i, j);
    if (!(dA0 = upload('d', A0, n * n)) || !(dB = upload('d', B0, n * nrhs)) ||
        !(dX = upload('d', B0, n * nrhs)) || !(dA = upload('d', A0, n * n)))
        goto out;
    for (int r = -1; r < niter; r++) { /* r = -1: warm-up */
        double t;
        if (TESTING_CUDA(cudaMemcpy(dA, dA0, (size_t)(n * n) * 8, cudaMemcpyDeviceToDevice)) ||
            TESTING_CUDA(cudaDeviceSynchronize()))
            goto out;
        t = testing_wtime();
        gchol_dsposv_gpu(uplo, n, nrhs, dA, lda, dB, n, dX, n, &iter, &info, g_queue);
        if (r >= 0) t_mixed[r] = testing_wtime() - t;
        if (TESTING_CUDA(cudaMemcpy(dA, dA0, (size_t)(n * n) * 8, cudaMemcpyDeviceToDevice)) ||
            TESTING_CUDA(cudaMemcpy(X, dB, 8, cudaMemcpyDeviceToHost)) ||
            TESTING_CUDA(cudaMemcpy2D(dX, 8 * (size_t)n, dB, 8 * (size_t)n, 8 * (size_t)n, (size_t)nrhs, cudaMemcpyDeviceToDevice)) ||
            TESTING_CUDA(cudaDeviceSynchronize()))
            goto out;
        t = testing_wtime();
        gchol_dpotrf_gpu(uplo, n, dA, lda, &finfo, g_queue);
        gchol_dpotrs_gpu(uplo, n, nrhs, dA, lda, dX, n, &finfo, g_queue);
        if (TESTING_CUDA(cudaDeviceSynchronize())) goto out;
        if (r >= 0) t_double[r] = testing_wtime() - t;
    }
    /* the last dsposv's X, for the check */
    if (TESTING_CUDA(cudaMemcpy(dA, dA0, (size_t)(n * n) * 8, cudaMemcpyDeviceToDevice))) goto out;
    gchol_dsposv_gpu(uplo, n, nrhs, dA, lda, dB, n, dX, n, &iter, &info, g_queue);
    if (download('d', X, dX, n * nrhs)) goto out;
    resid = backward_ratio('d', uplo, n, nrhs, A0, lda, B0, n, X, n) / testing_eps('d');
    if (n <= 8192) {
        double *Ar = testing_malloc((size_t)(n * n) * 8);
        double *Xr = testing_malloc((size_t)(n * nrhs) * 8);
        lapack_int it = 0;
        memcpy(Ar, A0, (size_t)(n * n) * 8);
        const double t = testing_wtime();
        LAPACKE_dsposv(LAPACK_COL_MAJOR, uplo, (lapack_int)n, (lapack_int)nrhs, Ar, (lapack_int)n,
                       B0, (lapack_int)n, Xr, (lapack_int)n, &it);
        t_cpu = testing_wtime() - t;
        free(Ar); free(Xr);
    }
    /* as in the suite: sqrt(n) on the library's residual, 2 sqrt(n) on the CPU's */
    const int refined_ok = iter >= 0 && resid < 2 * sqrt((double)n) &&
        library_ratio(uplo, n, nrhs, A0, lda, B0, n, X, n) / testing_eps('d') < sqrt((double)n);
    res = info == 0 && (iter >= 0 ? refined_ok : resid < TESTING_TOL) ? TESTING_PASSED : TESTING_FAILED;
out:;
    const double tm = res != TESTING_FAILED || iter != INFO_POISON ? testing_median(t_mixed, niter) : NAN;
    const double td = res != TESTING_FAILED || iter != INFO_POISON ? testing_median(t_double, niter) : NAN;
    printf("%7lld %5lld %5lld %11.5f %11.5f %7.2f %10.4f %10.2e  %s\n", (long long)n, (long long)nrhs,
           (long long)iter, tm, td, td / tm, t_cpu, resid, res == TESTING_PASSED ? "ok" : "FAILED");
    testing_record(res);
    if (dA) cudaFree(dA);
    if (dA0) cudaFree(dA0);
    if (dB) cudaFree(dB);
    if (dX) cudaFree(dX);
    free(A0); free(B0); free(X);
}

static void run_table(const testing_cmdline_t *cmd)
{
    if (!testing_table_can_run(g_queue)) return;
    printf("gchol_dsposv_gpu against gchol dpotrf + dpotrs (double), uplo %c, niter %d (median);\n"
           "CPU: LAPACKE_dsposv, OpenBLAS core %s; matrix B B^T/n + %.2f I\n",
           cmd->uplo, cmd->niter, openblas_get_corename(), MU);
    printf("%7s %5s %5s %11s %11s %7s %10s %10s  %s\n", "n", "nrhs", "iter", "dsposv s",
           "dposv s", "ratio", "CPU s", "RESID", "check");
    for (int64_t i = 0; i < cmd->ns.count; i++)
        table_row(cmd->uplo, cmd->ns.v[i], cmd->nrhs, cmd->niter);
}

int main(int argc, char **argv)
{
    const testing_tester_t t = { 0, "dsposv", TESTING_CMD_NRHS, &g_queue, arg_entries,
                                 LEN(arg_entries), run_suite, run_table };
    LAPACKE_set_nancheck(0); /* inputs are NaN outside what is read */
    const int rc = testing_tester_main(argc, argv, &t);
    if (g_ratio_handle) cublasDestroy(g_ratio_handle);
    return rc;
}
