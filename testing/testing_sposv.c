/*
 * testing_sposv.c -- tests and times gchol's solves: gchol_?potrs_gpu and
 * gchol_?potrs (both precisions), and the mixed-precision solver
 * gchol_dsposv_gpu / gchol_dsposv, against LAPACKE (OpenBLAS). Built as
 * testing_dsposv.
 *
 * Table mode (MAGMA style; the default, n = 1024..8192):
 *   testing_dsposv [-n LIST] [--nrhs K] [--uplo L|U] [--niter K]
 *   n, nrhs, iter, dsposv seconds, gchol dpotrf + dpotrs seconds, their
 *   ratio, LAPACKE_dsposv seconds, the backward error, ok / FAILED.
 * Suite mode (make test): testing_dsposv --suite   (--quick: fewer cases)
 *
 * Checks:
 * - potrs: backward error max_j ||b_j - A x_j||_inf / (||A||_inf ||x_j||_inf
 *   n eps) < 30 (eps of the precision); the factor and the padding rows of B
 *   untouched.
 * - dsposv, as LAPACK's ddrvac: RESID = max_j ||b_j - A x_j||_inf /
 *   (||A||_inf ||x_j||_inf eps) < sqrt(n) when iter >= 0, with b - A x formed
 *   as the library forms it (cuBLAS on the GPU, as ddrvac's solver and check
 *   share dsymm), and < 2 sqrt(n) with b - A x formed on the CPU (their
 *   rounding differs by about the bound itself); < 30 otherwise;
 *   iter in the range each matrix calls for (0..30 when well conditioned, < 0
 *   when cond(A) is beyond single precision, -2 on overflow, -3 when A is not
 *   positive definite); info as LAPACKE_dsposv (reference semantics for NaN,
 *   which OpenBLAS's potrf does not flag); A byte for byte unchanged when
 *   iter >= 0, else its referenced triangle a factor with ||A - L L^T|| /
 *   (n ||A|| eps) < 30 and the rest untouched; B untouched; X's padding rows
 *   untouched. Every array starts NaN-poisoned outside what the call reads.
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
#include "testing_common.h"

#define INFO_POISON ((int64_t)-987654321)
#define MU          0.25
#define LEN(a)      ((int)(sizeof(a) / sizeof((a)[0])))

static gchol_queue_t g_queue;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static void *xmalloc(size_t bytes) { return malloc(bytes > 0 ? bytes : 1); }

static void *upload(char prec, const void *h, int64_t count)
{
    void *d = NULL;
    const size_t bytes = (size_t)max64(count, 1) * testing_elsize(prec);
    if (TESTING_CUDA(cudaMalloc(&d, bytes))) return NULL;
    if (TESTING_CUDA(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice))) {
        cudaFree(d);
        return NULL;
    }
    return d;
}

static int download(char prec, void *h, const void *d, int64_t count)
{
    return TESTING_CUDA(cudaMemcpy(h, d, (size_t)max64(count, 1) * testing_elsize(prec),
                                   cudaMemcpyDeviceToHost));
}

/* ||A||_inf of the symmetric matrix whose `uplo` triangle A holds. */
static double sym_norm_inf(char prec, char uplo, int64_t n, const void *A, int64_t lda)
{
    double worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double s = 0;
        for (int64_t j = 0; j < n; j++) {
            const int lower_ij = i >= j;
            const int64_t r = (uplo == 'L') == lower_ij ? i : j, c = r == i ? j : i;
            s += fabs(testing_get(prec, A, lda, r, c));
        }
        if (isnan(s)) return NAN;
        worst = s > worst ? s : worst;
    }
    return worst;
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
    double *Ad = xmalloc((size_t)(n * n) * sizeof(double));
    double *Xd = xmalloc((size_t)(n * nrhs) * sizeof(double));
    double *Rd = xmalloc((size_t)(n * nrhs) * sizeof(double));
    const double normA = sym_norm_inf(prec, uplo, n, A, lda);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            const int64_t r = (uplo == 'L') == (i >= j) ? i : j, c = r == i ? j : i;
            Ad[i + j * n] = testing_get(prec, A, lda, r, c);
        }
    testing_to_double(prec, n, nrhs, X, ldx, Xd, n);
    testing_to_double(prec, n, nrhs, B, ldb, Rd, n);
    cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, (blasint)n, (blasint)nrhs, -1.0, Ad,
                (blasint)n, Xd, (blasint)n, 1.0, Rd, (blasint)n);
    const double worst = column_ratio(n, nrhs, Rd, Xd, normA);
    free(Ad); free(Xd); free(Rd);
    return worst;
}

/* backward_ratio's quantity with the residual R = B - A X formed as
 * gchol_dsposv forms it to decide convergence: on the GPU, cublasDsymv for
 * one right-hand side, cublasDsymm for more (src/sposv.c, residual()), so
 * that it holds the library's own bits. This is what LAPACK's ddrvac tests
 * against sqrt(n): there the solver and the check form R with the same
 * dsymm. A residual recomputed elsewhere (the CPU's dsymm) differs by
 * rounding of the size of that bound itself: a converged residual sits at
 * the level of the rounding of b - A x. NaN on a CUDA or cuBLAS failure. */
static double library_ratio(char uplo, int64_t n, int64_t nrhs, const double *A, int64_t lda,
                            const double *B, int64_t ldb, const double *X, int64_t ldx)
{
    static cublasHandle_t handle;
    double *dA = NULL, *dX = NULL, *dR = NULL, *R = xmalloc((size_t)(n * nrhs) * 8);
    double *Xp = xmalloc((size_t)(n * nrhs) * 8), worst = NAN;
    const double minus_one = -1, one = 1, normA = sym_norm_inf('d', uplo, n, A, lda);
    const cublasFillMode_t fill = uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    for (int64_t j = 0; j < nrhs; j++) {
        memcpy(R + j * n, B + j * ldb, (size_t)n * 8);
        memcpy(Xp + j * n, X + j * ldx, (size_t)n * 8);
    }
    if (!handle && TESTING_CUBLAS(cublasCreate(&handle))) goto out;
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
    double *L = calloc((size_t)(n * n), sizeof(double)), *R = xmalloc((size_t)(n * n) * sizeof(double));
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
 * potrs, both precisions.
 * ========================================================================= */
static int64_t potrf_gpu(char prec, char uplo, int64_t n, void *dA, int64_t lda, int64_t *info)
{
    return prec == 'd' ? gchol_dpotrf_gpu(uplo, n, dA, lda, info, g_queue)
                       : gchol_spotrf_gpu(uplo, n, dA, lda, info, g_queue);
}

static testing_result_t run_potrs(char prec, char uplo, int64_t n, int64_t nrhs, int64_t pad,
                                  int host)
{
    const int64_t lda = max64(1, n + pad), ldb = max64(1, n + pad + 1);
    const size_t es = testing_elsize(prec);
    char why[160] = "";
    double ratio = NAN;
    testing_result_t res = TESTING_FAILED;
    printf("  ");
    if (!testing_have_gpu()) {
        printf("%-7s %cpotrs%s %c n=%-5lld nrhs=%-4lld (no GPU)\n", "skipped", prec,
               host ? "    " : "_gpu", uplo, (long long)n, (long long)nrhs);
        return testing_record(TESTING_SKIPPED);
    }
    void *A = xmalloc((size_t)(lda * n) * es), *F = xmalloc((size_t)(lda * n) * es);
    void *B0 = xmalloc((size_t)(ldb * nrhs) * es), *B = xmalloc((size_t)(ldb * nrhs) * es);
    void *dF = NULL, *dB = NULL;
    int64_t info = INFO_POISON, finfo = INFO_POISON;
    testing_fill_nan(prec, lda * n, A);
    if (testing_generate_gram_spd(prec, n, A, lda, MU, 11 + (uint64_t)n)) { snprintf(why, sizeof why, "out of memory"); goto out; }
    memcpy(F, A, (size_t)(lda * n) * es);
    testing_fill_nan(prec, ldb * nrhs, B0);
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < n; i++)
            testing_set(prec, B0, ldb, i, j, testing_hash_uniform(97 + (uint64_t)n, i, j));
    memcpy(B, B0, (size_t)(ldb * nrhs) * es);
    if (!(dF = upload(prec, F, lda * n))) goto out;
    if (potrf_gpu(prec, uplo, n, dF, lda, &finfo) != 0 || finfo != 0) {
        snprintf(why, sizeof why, "potrf info %lld", (long long)finfo);
        goto out;
    }
    if (download(prec, F, dF, lda * n)) goto out;
    void *Fsaved = xmalloc((size_t)(lda * n) * es);
    memcpy(Fsaved, F, (size_t)(lda * n) * es);
    if (host) {
        info = prec == 'd' ? gchol_dpotrs(uplo, n, nrhs, F, lda, B, ldb, &info)
                           : gchol_spotrs(uplo, n, nrhs, F, lda, B, ldb, &info);
    } else {
        if (!(dB = upload(prec, B, ldb * nrhs))) { free(Fsaved); goto out; }
        info = prec == 'd' ? gchol_dpotrs_gpu(uplo, n, nrhs, dF, lda, dB, ldb, &info, g_queue)
                           : gchol_spotrs_gpu(uplo, n, nrhs, dF, lda, dB, ldb, &info, g_queue);
        if (TESTING_CUDA(cudaDeviceSynchronize()) || download(prec, B, dB, ldb * nrhs) ||
            download(prec, F, dF, lda * n)) { free(Fsaved); goto out; }
    }
    const int64_t fchanged = testing_count_diff(prec, lda * n, F, Fsaved);
    free(Fsaved);
    int64_t padbad = 0;
    for (int64_t j = 0; j < nrhs; j++)
        padbad += testing_count_diff(prec, ldb - n, (const char *)B + (size_t)(j * ldb + n) * es,
                                     (const char *)B0 + (size_t)(j * ldb + n) * es);
    ratio = backward_ratio(prec, uplo, n, nrhs, A, lda, B0, ldb, B, ldb) /
            ((double)max64(n, 1) * testing_eps(prec));
    if (info != 0) snprintf(why, sizeof why, "info %lld", (long long)info);
    else if (fchanged) snprintf(why, sizeof why, "factor written (%lld)", (long long)fchanged);
    else if (padbad) snprintf(why, sizeof why, "B padding written (%lld)", (long long)padbad);
    else if (!(ratio < TESTING_TOL)) snprintf(why, sizeof why, "backward error");
    else res = TESTING_PASSED;
out:
    printf("%-7s %cpotrs%s %c n=%-5lld nrhs=%-4lld lda=%-5lld ldb=%-5lld berr %.2e %s\n",
           testing_result_name(res), prec, host ? "    " : "_gpu", uplo, (long long)n,
           (long long)nrhs, (long long)lda, (long long)ldb, ratio, why);
    if (dF) cudaFree(dF);
    if (dB) cudaFree(dB);
    free(A); free(F); free(B0); free(B);
    return testing_record(res);
}

/* gchol_?posv (host arrays, one trip): the factor's residual, the solution's
 * backward error, A's other triangle and every padding row untouched; with
 * k_bad > 0 the diagonal entry k_bad is made negative: info = k_bad and B
 * not written (as LAPACK's ?posv). */
static testing_result_t run_posv(char prec, char uplo, int64_t n, int64_t nrhs, int64_t pad,
                                 int64_t k_bad)
{
    const int64_t lda = max64(1, n + pad), ldb = max64(1, n + pad + 2);
    const size_t es = testing_elsize(prec);
    char why[160] = "";
    double ratio = NAN, resid = NAN;
    testing_result_t res = TESTING_FAILED;
    printf("  ");
    if (!testing_have_gpu()) {
        printf("%-7s %cposv      %c n=%-5lld nrhs=%-4lld (no GPU)\n", "skipped", prec, uplo,
               (long long)n, (long long)nrhs);
        return testing_record(TESTING_SKIPPED);
    }
    void *A0 = xmalloc((size_t)(lda * n) * es), *A = xmalloc((size_t)(lda * n) * es);
    void *B0 = xmalloc((size_t)(ldb * nrhs) * es), *B = xmalloc((size_t)(ldb * nrhs) * es);
    int64_t info = INFO_POISON;
    testing_fill_nan(prec, lda * n, A0);
    testing_generate_spd(prec, uplo, n, A0, lda, 23 + (uint64_t)n); /* other triangle NaN */
    if (k_bad > 0) testing_set(prec, A0, lda, k_bad - 1, k_bad - 1, -1.0);
    memcpy(A, A0, (size_t)(lda * n) * es);
    testing_fill_nan(prec, ldb * nrhs, B0);
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < n; i++)
            testing_set(prec, B0, ldb, i, j, testing_hash_uniform(131 + (uint64_t)n, i, j));
    memcpy(B, B0, (size_t)(ldb * nrhs) * es);
    const int64_t ret = prec == 'd' ? gchol_dposv(uplo, n, nrhs, A, lda, B, ldb, &info)
                                    : gchol_sposv(uplo, n, nrhs, A, lda, B, ldb, &info);
    const int64_t abad = testing_count_untouched_violations(prec, uplo, n, A, A0, lda);
    int64_t bbad = 0;
    if (k_bad > 0) {
        bbad = testing_count_diff(prec, ldb * nrhs, B, B0);
    } else {
        for (int64_t j = 0; j < nrhs; j++)
            bbad += testing_count_diff(prec, ldb - n, (const char *)B + (size_t)(j * ldb + n) * es,
                                       (const char *)B0 + (size_t)(j * ldb + n) * es);
        ratio = backward_ratio(prec, uplo, n, nrhs, A0, lda, B0, ldb, B, ldb) /
                ((double)max64(n, 1) * testing_eps(prec));
        resid = testing_residual_cpu(prec, uplo, n, A0, lda, A, lda);
    }
    if (ret != info || info != (k_bad > 0 ? k_bad : 0))
        snprintf(why, sizeof why, "ret %lld info %lld", (long long)ret, (long long)info);
    else if (abad) snprintf(why, sizeof why, "A written outside its triangle (%lld)", (long long)abad);
    else if (bbad) snprintf(why, sizeof why, "B written where it must not (%lld)", (long long)bbad);
    else if (k_bad == 0 && !(ratio < TESTING_TOL && resid < TESTING_TOL))
        snprintf(why, sizeof why, "residual");
    else res = TESTING_PASSED;
    printf("%-7s %cposv      %c n=%-5lld nrhs=%-4lld lda=%-5lld ldb=%-5lld k_bad=%-4lld berr %.2e "
           "resid %.2e %s\n", testing_result_name(res), prec, uplo, (long long)n, (long long)nrhs,
           (long long)lda, (long long)ldb, (long long)k_bad, ratio, resid, why);
    free(A0); free(A); free(B0); free(B);
    return testing_record(res);
}

/* ===========================================================================
 * dsposv.
 * ========================================================================= */
typedef enum { K_DD, K_GRAM, K_ILL, K_BIG_A, K_BIG_B, K_NEG, K_NAN, K_BIG_OTHER, K_NAN_B } kind_t;
static const char *kind_name[] = { "diagdom", "gram", "ill", "big_A", "big_B", "neg", "nan",
                                   "bigother", "nan_B" };

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
    double *W = xmalloc((size_t)(n * r) * sizeof(double));
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
    if (c->kind == K_GRAM || c->kind == K_ILL) {
        if (c->kind == K_GRAM ? testing_generate_gram_spd('d', n, A, lda, MU, 5 + (uint64_t)n)
                              : generate_ill(n, A, lda, 5 + (uint64_t)n))
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
    if (!testing_have_gpu()) {
        printf("  %-7s dsposv%s %c n=%-5lld nrhs=%-3lld %-7s (no GPU)\n", "skipped",
               c->host ? "    " : c->tf32 ? "_tf32" : "_gpu", c->uplo, (long long)n, (long long)nrhs, kind_name[c->kind]);
        return testing_record(TESTING_SKIPPED);
    }
    double *A0 = xmalloc((size_t)(lda * n) * 8), *A = xmalloc((size_t)(lda * n) * 8);
    double *B0 = xmalloc((size_t)(ldb * nrhs) * 8), *B = xmalloc((size_t)(ldb * nrhs) * 8);
    double *X = xmalloc((size_t)(ldx * nrhs) * 8), *X0 = xmalloc((size_t)(ldx * nrhs) * 8);
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
        double *Ar = xmalloc((size_t)(lda * n) * 8), *Br = xmalloc((size_t)(ldb * nrhs) * 8);
        double *Xr = xmalloc((size_t)(ldx * nrhs) * 8);
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
    /* refined (iter >= 0): LAPACK's bound sqrt(n) on the library's own
     * residual, and twice that on the CPU's (library_ratio says why) */
    const double limit = iter >= 0 ? 2 * sqrt((double)n) : TESTING_TOL;
    int iter_ok;
    switch (c->kind) {
    case K_DD: case K_GRAM: /* refinement converges, or gives up as LAPACK does (n = 1: the
                               test |r| <= |x| ||A|| eps sqrt(n) can sit at rounding level) */
        iter_ok = (iter >= 0 && iter <= 30) || (iter == -31 && ref_iter == -31); break;
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

/* n = 0 / nrhs = 0 quick returns: info 0, iter 0, nothing touched. */
static void run_quick_returns(void)
{
    int64_t iter = INFO_POISON, info = INFO_POISON;
    double a = 1, b = 2, x = 3;
    if (!testing_have_gpu()) {
        printf("  %-7s quick returns (no GPU)\n", "skipped");
        testing_record(TESTING_SKIPPED);
        return;
    }
    gchol_dsposv_gpu('L', 0, 1, NULL, 1, NULL, 1, NULL, 1, &iter, &info, g_queue);
    testing_expect(iter == 0 && info == 0, "dsposv_gpu n = 0: iter %lld info %lld", (long long)iter, (long long)info);
    iter = info = INFO_POISON;
    gchol_dsposv('U', 1, 0, &a, 1, &b, 1, &x, 1, &iter, &info);
    testing_expect(iter == 0 && info == 0 && a == 1 && b == 2 && x == 3,
                   "dsposv nrhs = 0: iter %lld info %lld, nothing written", (long long)iter, (long long)info);
    info = INFO_POISON;
    gchol_spotrs_gpu('L', 0, 3, NULL, 1, NULL, 1, &info, g_queue);
    testing_expect(info == 0, "spotrs_gpu n = 0: info %lld", (long long)info);
}

static void run_suite(int quick)
{
    const double t0 = testing_wtime();
    printf("testing_dsposv --suite%s  (%s)\n", quick ? " --quick" : "",
           testing_have_gpu() ? "GPU present" : "no GPU");
    run_quick_returns();

    printf("\n-- potrs: both precisions, both triangles, device and host arrays --\n");
    const int64_t pn[] = { 1, 2, 3, 31, 64, 65, 200, 513, 1100, 3000 };
    for (int p = 0; p < 2; p++)
        for (int u = 0; u < 2; u++)
            for (int i = 0; i < LEN(pn); i++) {
                if (quick && pn[i] > 513) continue;
                const char prec = p ? 's' : 'd', uplo = u ? 'U' : 'L';
                run_potrs(prec, uplo, pn[i], i % 3 == 0 ? 1 : 7, i % 2 ? 3 : 0, 0);
                if (i % 4 == 1) run_potrs(prec, uplo, pn[i], 2, 1, 1);
            }
    printf("\n-- posv (host arrays, one trip): both precisions, both triangles --\n");
    const int64_t vn[] = { 1, 2, 33, 200, 1000, 4700, 6500 };
    for (int p = 0; p < 2; p++)
        for (int u = 0; u < 2; u++) {
            const char prec = p ? 's' : 'd', uplo = u ? 'U' : 'L';
            for (int i = 0; i < LEN(vn); i++) {
                if (quick && vn[i] > 1000) continue;
                run_posv(prec, uplo, vn[i], i % 2 ? 5 : 1, i % 3, 0);
            }
            run_posv(prec, uplo, 300, 0, 1, 0);   /* nrhs = 0: A is still factored */
            run_posv(prec, uplo, 300, 2, 0, 1);   /* info = k: B untouched */
            run_posv(prec, uplo, 700, 3, 2, 517);
        }
    if (!quick) { /* many right-hand sides: the recursive trsm's kernel leaves */
        run_potrs('d', 'L', 1100, 1100, 0, 0);
        run_potrs('s', 'U', 1100, 1100, 0, 0);
    }

    printf("\n-- dsposv --\n");
    const int64_t sn[] = { 1, 2, 3, 17, 100, 512, 1000, 2049, 4100 };
    for (int u = 0; u < 2; u++) {
        const char uplo = u ? 'U' : 'L';
        for (int i = 0; i < LEN(sn); i++) {
            if (quick && sn[i] > 512) continue;
            pcase_t c = { uplo, sn[i], i % 3 == 0 ? 1 : (i % 3 == 1 ? 3 : 16), i % 2 ? 5 : 0, K_DD, 0, 0 };
            run_sposv(&c);
            c.kind = K_GRAM; run_sposv(&c);
            if (i % 3 == 2) { c.host = 1; run_sposv(&c); c.host = 0; }
        }
        const int64_t dn[] = { 100, 700 };
        for (int i = 0; i < LEN(dn); i++) {
            if (quick && dn[i] > 100) continue;
            for (int k = K_ILL; k <= K_NAN_B; k++) {
                pcase_t c = { uplo, dn[i], 2, 3, (kind_t)k, 0, 0 };
                run_sposv(&c);
            }
            pcase_t h = { uplo, dn[i], 2, 1, K_ILL, 1, 0 };
            run_sposv(&h); /* the host form's fallback */
            h.kind = K_NEG; run_sposv(&h);
        }
    }
    if (!quick) { /* the blocked driver in single (n >= 8448), accurate and TF32 products */
        printf("\n-- dsposv at n = 9000: the blocked single-precision driver --\n");
        const pcase_t big[] = {
            { 'L', 9000, 2, 3, K_DD, 0, 0 },   { 'L', 9000, 2, 3, K_DD, 0, 1 },
            { 'U', 9000, 3, 0, K_GRAM, 0, 1 }, { 'L', 9000, 1, 0, K_ILL, 0, 1 },
        };
        for (int i = 0; i < LEN(big); i++) run_sposv(&big[i]);
    }
    printf("suite time %.1f s\n", testing_wtime() - t0);
}

/* ===========================================================================
 * Table mode.
 * ========================================================================= */
static void table_row(char uplo, int64_t n, int64_t nrhs, int niter)
{
    const int64_t lda = n;
    double *A0 = xmalloc((size_t)(n * n) * 8), *B0 = xmalloc((size_t)(n * nrhs) * 8);
    double *X = xmalloc((size_t)(n * nrhs) * 8), *dA = NULL, *dA0 = NULL, *dB = NULL, *dX = NULL;
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
        double *Ar = xmalloc((size_t)(n * n) * 8), *Xr = xmalloc((size_t)(n * nrhs) * 8);
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

static void run_table(const int64_t *ns, int64_t count, char uplo, int64_t nrhs, int niter)
{
    if (!testing_table_can_run(g_queue)) return;
    printf("gchol_dsposv_gpu against gchol dpotrf + dpotrs (double), uplo %c, niter %d (median);\n"
           "CPU: LAPACKE_dsposv, OpenBLAS core %s; matrix B B^T/n + %.2f I\n",
           uplo, niter, openblas_get_corename(), MU);
    printf("%7s %5s %5s %11s %11s %7s %10s %10s  %s\n", "n", "nrhs", "iter", "dsposv s",
           "dposv s", "ratio", "CPU s", "RESID", "check");
    for (int64_t i = 0; i < count; i++)
        table_row(uplo, ns[i], nrhs, niter);
}

static void usage(const char *prog)
{
    printf("usage: %s [--suite [--quick] | table options]\n"
           "table options: -n LIST|START:STOP:STEP  --nrhs K  --uplo L|U  --niter K\n"
           "  (default: -n 1024,2048,4096,8192 --nrhs 1 --uplo L --niter 3)\n", prog);
}

int main(int argc, char **argv)
{
    int64_t *ns = NULL, count = 0, nrhs = 1;
    int suite = 0, quick = 0, niter = 3;
    char uplo = 'L';
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "--suite")) { suite = 1; continue; }
        if (!strcmp(a, "--quick")) { quick = 1; continue; }
        if (!v)
            bad = 1;
        else if (!strcmp(a, "-n")) {
            free(ns);
            bad = testing_parse_sizes(v, &ns, &count) != 0;
        } else if (!strcmp(a, "--uplo") && (v[0] == 'L' || v[0] == 'U') && !v[1])
            uplo = v[0];
        else if (!strcmp(a, "--nrhs") && atoll(v) > 0)
            nrhs = atoll(v);
        else if (!strcmp(a, "--niter") && atoi(v) > 0)
            niter = atoi(v);
        else
            bad = 1;
        if (bad) {
            usage(argv[0]);
            free(ns);
            return 2;
        }
        i++;
    }
    if (!ns && testing_parse_sizes("1024,2048,4096,8192", &ns, &count)) return 2;
    LAPACKE_set_nancheck(0); /* inputs are NaN outside what is read */
    g_queue = testing_queue_or_null();
    if (suite || quick)
        run_suite(quick);
    else
        run_table(ns, count, uplo, nrhs, niter);
    if (g_queue) gchol_queue_destroy(g_queue);
    if (testing_have_gpu()) gchol_finalize();
    free(ns);
    return testing_summary();
}
