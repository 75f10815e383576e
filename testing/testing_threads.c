/*
 * testing_threads.c -- gchol from many host threads at once, both precisions.
 *   testing_threads [--suite | --quick] [--seconds S] [--threads K] [--seed X]
 * For S seconds (10; --quick 2), side by side: K threads (8) each on its own
 * queue, remade every 32 calls (potrf_gpu, potrs_gpu, dsposv_gpu, pftrf_gpu +
 * pftrs_gpu, syrk_diag_gpu / sfrk_diag_gpu, wls_gpu / wls_rfp_gpu, dswls_gpu,
 * and potrf_expert: host arrays on the caller's queue); K threads on the
 * library-owned queue (potrf, potrs, posv, dsposv, pftrf + pftrs, syrk_diag /
 * sfrk_diag, wls / wls_rfp, dswls); one thread calling gchol_finalize every
 * 20..120 ms. Each thread takes the routines in turn, precision and triangle
 * at random, on fresh random inputs (SPD of order 32..600, padding NaN).
 * Checks, in double with OpenBLAS / LAPACKE: return value and info 0;
 * LAPACK's factor residual and the solve's backward error < 30; syrk_diag
 * componentwise against (|alpha| |A D| |A D|^T + |beta C|) (n + 2) eps < 30;
 * wls by the normal equations' backward residual (testing_wls's); iter in
 * 0..30, or -31 (the double fallback, counted); dsposv's A unchanged, or after
 * the fallback its factor; the other triangle untouched (potrf, syrk_diag).
 * RFP arrays go through LAPACKE_?trttf / ?tfttr. Without a GPU those cases
 * are skipped; 2K threads then call every host form beside gchol_finalize,
 * each call to return GCHOL_ERR_NO_DEVICE with its arrays untouched.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include <cblas.h>
#include <lapacke.h>

#include "gchol.h"
#include "util.h"

enum { NMAX = 600, PADMAX = 3, LDMAX = NMAX + PADMAX, RHSMAX = 8, MAXTHREADS = 64 };
enum { OP_POTRF, OP_POTRS, OP_POSV, OP_DSPOSV, OP_RFP, OP_SYRK, OP_WLS, OP_DSWLS, OP_COUNT };
enum { G_QUEUE, G_HOST, G_FIN, G_COUNT };
enum { REQUEUE_EVERY = 32, MAX_PRINTED = 20 };

static const char *const op_name[2][OP_COUNT] = {
    { "potrf_gpu", "potrs_gpu", "potrf_expert", "dsposv_gpu", "pftrf+pftrs_gpu",
      "syrk/sfrk_diag_gpu", "wls/wls_rfp_gpu", "dswls_gpu" },
    { "potrf", "potrs", "posv", "dsposv", "pftrf+pftrs", "syrk/sfrk_diag", "wls/wls_rfp",
      "dswls" }
};
static const char *const group_name[G_COUNT] = { "queue", "host", "finalize" };

/* Both precisions from one call site: arrays pass as void *. */
#define G(p, name, ...)  ((p) == 'd' ? gchol_d##name(__VA_ARGS__) : gchol_s##name(__VA_ARGS__))
#define LK(p, name, ...) ((p) == 'd' ? LAPACKE_d##name(__VA_ARGS__) : LAPACKE_s##name(__VA_ARGS__))

static atomic_int g_stop;
static pthread_mutex_t g_print = PTHREAD_MUTEX_INITIALIZER;
static int g_printed;

typedef struct {
    int           group, id;
    testing_rng_t rng;
    gchol_queue_t q;                   /* queue group: its own queue             */
    void         *M[4], *V[3], *d;     /* host: matrices, right-hand sides, d    */
    void         *dM[2], *dV[2], *dd;  /* queue group: device copies             */
    int64_t       calls[2], fails, op_calls[OP_COUNT], ncalls, fallbacks;
    char          desc[128], why[128];
} worker_t;

static int64_t rnd(worker_t *w, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(testing_rng_next(&w->rng) % (uint64_t)(hi - lo + 1));
}

static int fail(worker_t *w, const char *fmt, double v)
{
    snprintf(w->why, sizeof w->why, fmt, v);
    return 1;
}

static void report(worker_t *w)
{
    w->fails++;
    pthread_mutex_lock(&g_print);
    if (g_printed++ < MAX_PRINTED)
        printf("  FAILED  %s thread %d: %s: %s\n", w->group ? "host" : "queue", w->id, w->desc, w->why);
    pthread_mutex_unlock(&g_print);
}

/* ---- inputs ---------------------------------------------------------------- */

/* Symmetric (both triangles), diagonally dominant: SPD. Padding rows NaN. */
static void gen_spd(worker_t *w, char p, int64_t n, void *A, int64_t lda)
{
    testing_fill_nan(p, lda * n, A);
    for (int64_t j = 0; j < n; j++) {
        for (int64_t i = 0; i < j; i++) {
            const double v = testing_rng_uniform(&w->rng);
            testing_set(p, A, lda, i, j, v);
            testing_set(p, A, lda, j, i, v);
        }
        testing_set(p, A, lda, j, j, (double)n + testing_rng_uniform(&w->rng));
    }
}

/* m x n of uniform(-1, 1) * scale, plus `diag` on the diagonal; padding NaN. */
static void gen_rand(worker_t *w, char p, int64_t m, int64_t n, void *A, int64_t lda,
                     double scale, double diag)
{
    testing_fill_nan(p, lda * n, A);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            testing_set(p, A, lda, i, j, testing_rng_uniform(&w->rng) * scale + (i == j ? diag : 0));
}

/* d in [0.5, 2]. */
static void gen_d(worker_t *w, char p, int64_t n, void *d)
{
    for (int64_t k = 0; k < n; k++) testing_set(p, d, 1, k, 0, pow(2.0, testing_rng_uniform(&w->rng)));
}

/* ---- checks, in double ------------------------------------------------------ */

static double *dbl(char p, int64_t m, int64_t n, const void *A, int64_t lda)
{
    double *D = malloc((size_t)(m > 0 ? m : 1) * (size_t)(n > 0 ? n : 1) * sizeof(double));
    if (D) testing_to_double(p, m, n, A, lda, D, m);
    return D;
}

/* max over C's uplo triangle of |C - Cref| / (|alpha| |W| |W|^T + |beta C0|), W = A D,
 * over (n + 2) eps; NaN on NaN, -1 when out of memory. */
static double syrk_ratio(char p, char uplo, int64_t m, int64_t n, double alpha, const void *A,
                         int64_t lda, const void *d, double beta, const void *C0, const void *C,
                         int64_t ldc)
{
    double *W = dbl(p, m, n, A, lda), *Wa = dbl(p, m, n, A, lda);
    double *R = dbl(p, m, m, C0, ldc), *Bd = dbl(p, m, m, C0, ldc), worst = 0;
    if (!W || !Wa || !R || !Bd) worst = -1;
    for (int64_t j = 0; j < n && worst == 0; j++)
        for (int64_t i = 0; i < m; i++) {
            W[i + j * m] *= testing_get(p, d, 1, j, 0);
            Wa[i + j * m] = fabs(W[i + j * m]);
        }
    const CBLAS_UPLO cu = uplo == 'L' ? CblasLower : CblasUpper;
    if (worst == 0) {
        for (int64_t i = 0; i < m * m; i++) Bd[i] = fabs(beta * Bd[i]);
        cblas_dsyrk(CblasColMajor, cu, CblasNoTrans, (blasint)m, (blasint)n, alpha, W, (blasint)m,
                    beta, R, (blasint)m);
        cblas_dsyrk(CblasColMajor, cu, CblasNoTrans, (blasint)m, (blasint)n, fabs(alpha), Wa,
                    (blasint)m, 1.0, Bd, (blasint)m);
    }
    for (int64_t j = 0; j < m && worst >= 0 && !isnan(worst); j++)
        for (int64_t i = uplo == 'L' ? j : 0; i < (uplo == 'L' ? m : j + 1); i++) {
            const double e = fabs(testing_get(p, C, ldc, i, j) - R[i + j * m]) / Bd[i + j * m];
            worst = isnan(e) ? NAN : fmax(worst, e);
        }
    free(W); free(Wa); free(R); free(Bd);
    return worst < 0 || isnan(worst) ? worst : worst / ((double)(n + 2) * testing_eps(p));
}

/* The normal equations' backward residual (testing_wls's): max_j
 * ||A D^2 (b_j - A^T y_j)||_inf / (||A D^2||_inf ||b_j||_inf + ||C||_inf ||y_j||_inf)
 * / (eps max(m, n)), C = A D^2 A^T. NaN on NaN, -1 when out of memory. */
static double wls_ratio(char p, int64_t m, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                        const void *d, const void *B, int64_t ldb, const void *Y, int64_t ldy)
{
    double *Ad = dbl(p, m, n, A, lda), *W = dbl(p, m, n, A, lda), *T = dbl(p, n, nrhs, B, ldb);
    double *Yd = dbl(p, m, nrhs, Y, ldy), *C = malloc((size_t)(m * m) * sizeof(double));
    double *R = malloc((size_t)(m * nrhs) * sizeof(double)), normAD2 = 0, normC = 0, worst = 0;
    if (!Ad || !W || !T || !Yd || !C || !R) {
        worst = -1;
        goto out;
    }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) W[i + j * m] *= testing_get(p, d, 1, j, 0);
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (blasint)m, (blasint)n, 1.0, W,
                (blasint)m, 0.0, C, (blasint)m);
    for (int64_t i = 0; i < m; i++) {
        double sa = 0, sc = 0;
        for (int64_t j = 0; j < n; j++) sa += fabs(W[i + j * m] * testing_get(p, d, 1, j, 0));
        for (int64_t j = 0; j < m; j++) sc += fabs(i >= j ? C[i + j * m] : C[j + i * m]);
        normAD2 = fmax(normAD2, sa);
        normC = fmax(normC, sc);
    }
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (blasint)n, (blasint)nrhs, (blasint)m,
                -1.0, Ad, (blasint)m, Yd, (blasint)m, 1.0, T, (blasint)n);
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < n; i++) T[i + j * n] *= pow(testing_get(p, d, 1, i, 0), 2);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (blasint)m, (blasint)nrhs, (blasint)n,
                1.0, Ad, (blasint)m, T, (blasint)n, 0.0, R, (blasint)m);
    for (int64_t j = 0; j < nrhs && !isnan(worst); j++) {
        double rn = 0, yn = 0, bn = 0;
        int bad = 0;
        for (int64_t i = 0; i < m; i++) {
            rn = fmax(rn, fabs(R[i + j * m]));
            yn = fmax(yn, fabs(Yd[i + j * m]));
            bad |= isnan(R[i + j * m]) || isnan(Yd[i + j * m]);
        }
        for (int64_t i = 0; i < n; i++) bn = fmax(bn, fabs(testing_get(p, B, ldb, i, j)));
        const double q = rn / (normAD2 * bn + normC * yn);
        worst = bad || isnan(q) ? NAN : fmax(worst, q);
    }
    if (!isnan(worst)) worst /= testing_eps(p) * (double)(m > n ? m : n);
out:
    free(Ad); free(W); free(T); free(Yd); free(C); free(R);
    return worst;
}

/* ---- the routines ------------------------------------------------------------ */

/* Counts one library call of precision p. */
#define CALL(w, p, expr) ((w)->calls[(p) == 's']++, (w)->ncalls++, (expr))

static int up(worker_t *w, void *dst, const void *src, size_t bytes)
{
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, gchol_queue_stream(w->q)) !=
           cudaSuccess;
}

static int down(worker_t *w, void *dst, const void *src, size_t bytes)
{
    cudaStream_t s = gchol_queue_stream(w->q);
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s) != cudaSuccess ||
           cudaStreamSynchronize(s) != cudaSuccess;
}

static int check_factor(worker_t *w, char p, char uplo, int64_t n, const void *A0, const void *F,
                        int64_t lda)
{
    const double r = testing_residual_cpu(p, uplo, n, A0, lda, F, lda);
    return r >= 0 && r < TESTING_TOL ? 0 : fail(w, "factor residual %.2e", r);
}

static int check_solve(worker_t *w, char p, char uplo, int64_t n, int64_t nrhs, const void *A0,
                       int64_t lda, const void *B0, const void *X, int64_t ldb)
{
    const double r = testing_solve_berr(p, uplo, n, nrhs, A0, lda, B0, ldb, X, ldb);
    return r >= 0 && r < TESTING_TOL ? 0 : fail(w, "backward error %.2e", r);
}

/* dsposv's / dswls's iter on well-conditioned input: 0..30 corrections, or
 * -31 (no convergence, or a residual at its rounding level: the double
 * fallback answers, and is counted). */
static int iter_ok(worker_t *w, int64_t iter)
{
    w->fallbacks += iter == -31;
    return (iter >= 0 && iter <= 30) || iter == -31;
}

/* A failed copy fails the call; so does a return value or info other than 0. */
#define XFER(cond) do { if (cond) return fail(w, "CUDA copy failed", 0); } while (0)
#define WANT0(ret, info, what)                                                              \
    do {                                                                                    \
        if ((ret) != 0 || (info) != 0)                                                      \
            return fail(w, what " returned %.0f", (double)((ret) != 0 ? (ret) : (info)));    \
    } while (0)

/* potrf (host), potrf_gpu, potrf_expert (host arrays, own queue); potrs and
 * posv after it; dsposv. */
static int op_chol(worker_t *w, int op, char p)
{
    const int host = w->group == G_HOST, expert = !host && op == OP_POSV;
    const size_t es = testing_elsize(p);
    const int64_t n = rnd(w, 32, NMAX), lda = n + rnd(w, 0, PADMAX), ldb = n + rnd(w, 0, PADMAX);
    const int64_t nrhs = rnd(w, 1, RHSMAX);
    const char uplo = rnd(w, 0, 1) ? 'U' : 'L';
    void *A0 = w->M[0], *F = w->M[1], *B0 = w->V[0], *B = w->V[1];
    const size_t abytes = (size_t)(lda * n) * es, bbytes = (size_t)(ldb * nrhs) * es;
    int64_t info = TESTING_INFO_POISON, sinfo = TESTING_INFO_POISON, iter = -99, ret, sret;
    snprintf(w->desc, sizeof w->desc, "%c%s %c n=%lld nrhs=%lld lda=%lld ldb=%lld", p,
             op_name[host][op] + (op == OP_DSPOSV) /* 'd' + "sposv" */, uplo, (long long)n, (long long)nrhs,
             (long long)lda, (long long)ldb);
    gen_spd(w, p, n, A0, lda);
    memcpy(F, A0, abytes);
    gen_rand(w, p, n, nrhs, B0, ldb, 1.0, 0.0);
    memcpy(B, B0, bbytes);
    if (op == OP_DSPOSV) {
        testing_fill_nan(p, ldb * nrhs, B);
        if (host) {
            ret = CALL(w, p, gchol_dsposv(uplo, n, nrhs, F, lda, B0, ldb, B, ldb, &iter, &info));
        } else {
            XFER(up(w, w->dM[0], F, abytes) || up(w, w->dV[0], B0, bbytes));
            ret = CALL(w, p, gchol_dsposv_gpu(uplo, n, nrhs, w->dM[0], lda, w->dV[0], ldb, w->dV[1],
                                              ldb, &iter, &info, w->q));
            XFER(down(w, B, w->dV[1], bbytes) || down(w, F, w->dM[0], abytes));
        }
        WANT0(ret, info, "dsposv");
        if (!iter_ok(w, iter)) return fail(w, "iter %.0f", (double)iter);
        if (iter >= 0 ? testing_count_diff(p, lda * n, F, A0) != 0
                      : testing_count_untouched_violations(p, uplo, n, F, A0, lda) != 0)
            return fail(w, "A written (iter %.0f)", (double)iter);
        return (iter < 0 && check_factor(w, p, uplo, n, A0, F, lda)) ||
               check_solve(w, p, uplo, n, nrhs, A0, lda, B0, B, ldb);
    }
    if (host && op == OP_POSV) {
        ret = CALL(w, p, G(p, posv, uplo, n, nrhs, F, lda, B, ldb, &info));
        WANT0(ret, info, "posv");
        return check_factor(w, p, uplo, n, A0, F, lda) ||
               check_solve(w, p, uplo, n, nrhs, A0, lda, B0, B, ldb);
    }
    if (host || expert) {
        ret = expert ? CALL(w, p, G(p, potrf_expert, uplo, n, F, lda, &info, NULL, w->q))
                     : CALL(w, p, G(p, potrf, uplo, n, F, lda, &info));
        WANT0(ret, info, "potrf");
        sret = op == OP_POTRS ? CALL(w, p, G(p, potrs, uplo, n, nrhs, F, lda, B, ldb, &sinfo)) : 0;
    } else {
        XFER(up(w, w->dM[0], F, abytes) || up(w, w->dV[0], B, bbytes));
        ret = CALL(w, p, G(p, potrf_gpu, uplo, n, w->dM[0], lda, &info, w->q));
        WANT0(ret, info, "potrf_gpu");
        sret = op == OP_POTRS ? CALL(w, p, G(p, potrs_gpu, uplo, n, nrhs, w->dM[0], lda, w->dV[0],
                                             ldb, &sinfo, w->q)) : 0;
        XFER(down(w, F, w->dM[0], abytes) || down(w, B, w->dV[0], bbytes));
    }
    if (op != OP_POTRS) {
        const int64_t bad = testing_count_untouched_violations(p, uplo, n, F, A0, lda);
        if (bad) return fail(w, "other triangle or padding written (%.0f)", (double)bad);
        return check_factor(w, p, uplo, n, A0, F, lda);
    }
    WANT0(sret, sinfo, "potrs");
    return check_solve(w, p, uplo, n, nrhs, A0, lda, B0, B, ldb);
}

/* pftrf then pftrs on an RFP copy of A. */
static int op_rfp(worker_t *w, char p)
{
    const int host = w->group == G_HOST;
    const size_t es = testing_elsize(p);
    const int64_t n = rnd(w, 32, NMAX), lda = n + rnd(w, 0, PADMAX), ldb = n + rnd(w, 0, PADMAX);
    const int64_t nrhs = rnd(w, 1, RHSMAX);
    const char uplo = rnd(w, 0, 1) ? 'U' : 'L', transr = rnd(w, 0, 1) ? 'T' : 'N';
    void *A0 = w->M[0], *R = w->M[1], *F = w->M[2], *B0 = w->V[0], *B = w->V[1];
    const size_t rbytes = (size_t)testing_rfp_size(n) * es, bbytes = (size_t)(ldb * nrhs) * es;
    int64_t info = TESTING_INFO_POISON, sinfo = TESTING_INFO_POISON, ret, sret;
    snprintf(w->desc, sizeof w->desc, "%cpftrf+pftrs%s %c%c n=%lld nrhs=%lld ldb=%lld", p,
             host ? "" : "_gpu", transr, uplo, (long long)n, (long long)nrhs, (long long)ldb);
    gen_spd(w, p, n, A0, lda);
    if (LK(p, trttf, LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, A0, (lapack_int)lda, R))
        return fail(w, "LAPACKE trttf", 0);
    gen_rand(w, p, n, nrhs, B0, ldb, 1.0, 0.0);
    memcpy(B, B0, bbytes);
    if (host) {
        ret = CALL(w, p, G(p, pftrf, transr, uplo, n, R, &info));
        WANT0(ret, info, "pftrf");
        sret = CALL(w, p, G(p, pftrs, transr, uplo, n, nrhs, R, B, ldb, &sinfo));
    } else {
        XFER(up(w, w->dM[0], R, rbytes) || up(w, w->dV[0], B, bbytes));
        ret = CALL(w, p, G(p, pftrf_gpu, transr, uplo, n, w->dM[0], &info, w->q));
        WANT0(ret, info, "pftrf_gpu");
        sret = CALL(w, p, G(p, pftrs_gpu, transr, uplo, n, nrhs, w->dM[0], w->dV[0], ldb, &sinfo, w->q));
        XFER(down(w, R, w->dM[0], rbytes) || down(w, B, w->dV[0], bbytes));
    }
    WANT0(sret, sinfo, "pftrs");
    if (LK(p, tfttr, LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, R, F, (lapack_int)lda))
        return fail(w, "LAPACKE tfttr", 0);
    return check_factor(w, p, uplo, n, A0, F, lda) ||
           check_solve(w, p, uplo, n, nrhs, A0, lda, B0, B, ldb);
}

/* C := alpha A D^2 A^T + beta C, full storage or RFP. */
static int op_syrk(worker_t *w, char p)
{
    static const double alphas[] = { 0.5, 0.75, 1.0, 1.5 }, betas[] = { 0.25, 0.5, 1.0, -0.5 };
    const int host = w->group == G_HOST, rfp = (int)rnd(w, 0, 1);
    const size_t es = testing_elsize(p);
    const int64_t m = rnd(w, 32, NMAX), n = rnd(w, 1, NMAX);
    const int64_t lda = m + rnd(w, 0, PADMAX), ldc = m + rnd(w, 0, PADMAX);
    const char uplo = rnd(w, 0, 1) ? 'U' : 'L', transr = rnd(w, 0, 1) ? 'T' : 'N';
    const double alpha = alphas[rnd(w, 0, 3)], beta = betas[rnd(w, 0, 3)];
    void *A = w->M[0], *C0 = w->M[1], *C = w->M[2], *R = w->M[3];
    const size_t abytes = (size_t)(lda * n) * es, cbytes = (size_t)(ldc * m) * es;
    const size_t rbytes = (size_t)testing_rfp_size(m) * es;
    int64_t ret;
    snprintf(w->desc, sizeof w->desc, "%c%s_diag%s %c%c m=%lld n=%lld lda=%lld ldc=%lld", p,
             rfp ? "sfrk" : "syrk", host ? "" : "_gpu", rfp ? transr : ' ', uplo, (long long)m,
             (long long)n, (long long)lda, (long long)ldc);
    gen_rand(w, p, m, n, A, lda, 1.0, 0.0);
    gen_d(w, p, n, w->d);
    gen_spd(w, p, m, C0, ldc); /* any symmetric C would do */
    memcpy(C, C0, cbytes);
    if (rfp && LK(p, trttf, LAPACK_COL_MAJOR, transr, uplo, (lapack_int)m, C0, (lapack_int)ldc, R))
        return fail(w, "LAPACKE trttf", 0);
    void *out = rfp ? R : C;
    const size_t obytes = rfp ? rbytes : cbytes;
    if (host) {
        ret = rfp ? CALL(w, p, G(p, sfrk_diag, transr, uplo, m, n, alpha, A, lda, w->d, beta, R))
                  : CALL(w, p, G(p, syrk_diag, uplo, m, n, alpha, A, lda, w->d, beta, C, ldc));
    } else {
        XFER(up(w, w->dM[0], A, abytes) || up(w, w->dd, w->d, (size_t)n * es) ||
             up(w, w->dM[1], out, obytes));
        ret = rfp ? CALL(w, p, G(p, sfrk_diag_gpu, transr, uplo, m, n, alpha, w->dM[0], lda, w->dd,
                                 beta, w->dM[1], w->q))
                  : CALL(w, p, G(p, syrk_diag_gpu, uplo, m, n, alpha, w->dM[0], lda, w->dd, beta,
                                 w->dM[1], ldc, w->q));
        XFER(down(w, out, w->dM[1], obytes));
    }
    WANT0(ret, 0, "syrk_diag");
    if (rfp && LK(p, tfttr, LAPACK_COL_MAJOR, transr, uplo, (lapack_int)m, R, C, (lapack_int)ldc))
        return fail(w, "LAPACKE tfttr", 0);
    const int64_t bad = testing_count_untouched_violations(p, uplo, m, C, C0, ldc);
    if (bad) return fail(w, "other triangle or padding written (%.0f)", (double)bad);
    const double r = syrk_ratio(p, uplo, m, n, alpha, A, lda, w->d, beta, C0, C, ldc);
    return r >= 0 && r < TESTING_TOL ? 0 : fail(w, "error ratio %.2e", r);
}

/* Y = argmin || D (A^T Y - B) ||: wls, wls_rfp, dswls. */
static int op_wls(worker_t *w, int op, char p)
{
    const int host = w->group == G_HOST, rfp = op == OP_WLS && rnd(w, 0, 1);
    const size_t es = testing_elsize(p);
    const int64_t m = rnd(w, 32, NMAX / 3), n = rnd(w, m, 3 * m), nrhs = rnd(w, 1, 4);
    const int64_t lda = m + rnd(w, 0, PADMAX), ldb = n + rnd(w, 0, PADMAX);
    const int64_t ldy = m + rnd(w, 0, PADMAX);
    const char uplo = rnd(w, 0, 1) ? 'U' : 'L', transr = rnd(w, 0, 1) ? 'T' : 'N';
    void *A = w->M[0], *C = w->M[1], *B = w->V[0], *Y = w->V[1];
    const size_t abytes = (size_t)(lda * n) * es, bbytes = (size_t)(ldb * nrhs) * es;
    const size_t ybytes = (size_t)(ldy * nrhs) * es;
    int64_t info = TESTING_INFO_POISON, iter = 0, ret;
    snprintf(w->desc, sizeof w->desc, "%c%s%s %c%c m=%lld n=%lld nrhs=%lld", p,
             op == OP_DSWLS ? "swls" : rfp ? "wls_rfp" : "wls", host ? "" : "_gpu",
             rfp ? transr : ' ', uplo, (long long)m, (long long)n, (long long)nrhs);
    /* 3 [I 0] + uniform / sqrt(n): well-conditioned (testing_wls's) */
    gen_rand(w, p, m, n, A, lda, 1.0 / sqrt((double)n), 3.0);
    gen_d(w, p, n, w->d);
    gen_rand(w, p, n, nrhs, B, ldb, 1.0, 0.0);
    testing_fill_nan(p, ldy * nrhs, Y);
    if (host) {
        ret = op == OP_DSWLS
            ? CALL(w, p, gchol_dswls(m, n, nrhs, A, lda, w->d, B, ldb, Y, ldy, &iter, &info))
            : rfp ? CALL(w, p, G(p, wls_rfp, transr, uplo, m, n, nrhs, A, lda, w->d, B, ldb, C, Y,
                                 ldy, &info))
                  : CALL(w, p, G(p, wls, uplo, m, n, nrhs, A, lda, w->d, B, ldb, C, m, Y, ldy,
                                 &info));
    } else {
        XFER(up(w, w->dM[0], A, abytes) || up(w, w->dd, w->d, (size_t)n * es) ||
             up(w, w->dV[0], B, bbytes) || up(w, w->dV[1], Y, ybytes));
        ret = op == OP_DSWLS
            ? CALL(w, p, gchol_dswls_gpu(m, n, nrhs, w->dM[0], lda, w->dd, w->dV[0], ldb, w->dV[1],
                                         ldy, &iter, &info, w->q))
            : rfp ? CALL(w, p, G(p, wls_rfp_gpu, transr, uplo, m, n, nrhs, w->dM[0], lda, w->dd,
                                 w->dV[0], ldb, w->dM[1], w->dV[1], ldy, &info, w->q))
                  : CALL(w, p, G(p, wls_gpu, uplo, m, n, nrhs, w->dM[0], lda, w->dd, w->dV[0], ldb,
                                 w->dM[1], m, w->dV[1], ldy, &info, w->q));
        XFER(down(w, Y, w->dV[1], ybytes));
    }
    WANT0(ret, info, "wls");
    if (!iter_ok(w, iter)) return fail(w, "iter %.0f", (double)iter);
    const double r = wls_ratio(p, m, n, nrhs, A, lda, w->d, B, ldb, Y, ldy);
    return r >= 0 && r < TESTING_TOL ? 0 : fail(w, "backward residual %.2e", r);
}

/* ---- the threads --------------------------------------------------------------- */

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    const int host = w->group == G_HOST;
    int op = (int)rnd(w, 0, OP_COUNT - 1); /* the routines in turn, from a random one */
    while (!atomic_load(&g_stop)) {
        const char p = op == OP_DSPOSV || op == OP_DSWLS ? 'd' : rnd(w, 0, 1) ? 's' : 'd';
        w->desc[0] = w->why[0] = 0;
        const int bad = op == OP_RFP ? op_rfp(w, p) : op == OP_SYRK ? op_syrk(w, p)
                      : op == OP_WLS || op == OP_DSWLS ? op_wls(w, op, p) : op_chol(w, op, p);
        w->op_calls[op]++;
        if (bad) report(w);
        op = (op + 1) % OP_COUNT;
        if (!host && w->ncalls >= REQUEUE_EVERY) { /* queues made and freed beside the others */
            w->ncalls = 0;
            gchol_queue_destroy(w->q);
            w->q = NULL;
            if (gchol_queue_create(-1, &w->q) != 0) {
                snprintf(w->desc, sizeof w->desc, "gchol_queue_create");
                fail(w, "failed", 0);
                report(w);
                break;
            }
        }
    }
    return NULL;
}

static void sleep_ms(double ms)
{
    struct timespec ts = { (time_t)(ms / 1000), (long)(fmod(ms, 1000.0) * 1e6) };
    while (nanosleep(&ts, &ts) != 0) {}
}

static void *finalizer_main(void *arg)
{
    worker_t *w = arg;
    while (!atomic_load(&g_stop)) {
        sleep_ms((double)rnd(w, 20, 120));
        gchol_finalize();
        w->ncalls++;
    }
    return NULL;
}

static int worker_init(worker_t *w, int group, int id, uint64_t seed)
{
    const size_t mat = (size_t)LDMAX * NMAX * sizeof(double), rhs = (size_t)LDMAX * RHSMAX * sizeof(double);
    memset(w, 0, sizeof *w);
    w->group = group;
    w->id = id;
    testing_rng_seed(&w->rng, seed * 1000003u + (uint64_t)(group * MAXTHREADS + id));
    if (group == G_FIN) return 0;
    int ok = (w->d = malloc(NMAX * sizeof(double))) != NULL;
    for (int k = 0; k < 4; k++) ok = ok && (w->M[k] = malloc(mat)) != NULL;
    for (int k = 0; k < 3; k++) ok = ok && (w->V[k] = malloc(rhs)) != NULL;
    if (!ok || group == G_HOST) return !ok;
    ok = gchol_queue_create(-1, &w->q) == 0 && cudaMalloc(&w->dd, NMAX * sizeof(double)) == 0;
    for (int k = 0; k < 2; k++)
        ok = ok && cudaMalloc(&w->dM[k], mat) == 0 && cudaMalloc(&w->dV[k], rhs) == 0;
    return !ok;
}

static void worker_free(worker_t *w)
{
    for (int k = 0; k < 4; k++) free(w->M[k]);
    for (int k = 0; k < 3; k++) free(w->V[k]);
    for (int k = 0; k < 2; k++) cudaFree(w->dM[k]), cudaFree(w->dV[k]);
    free(w->d);
    cudaFree(w->dd);
    gchol_queue_destroy(w->q);
}

/* The groups side by side for `seconds`, then the table and the cases. */
static void run_threads(int nthreads, double seconds, uint64_t seed)
{
    static worker_t ws[G_COUNT][MAXTHREADS];
    pthread_t th[G_COUNT][MAXTHREADS];
    int started[G_COUNT][MAXTHREADS] = { { 0 } }, count[G_COUNT] = { nthreads, nthreads, 1 };
    int setup_failed[G_COUNT] = { 0 };
    const double t0 = testing_wtime();
    printf("\n-- %d threads on their own queues, %d on the library-owned queue, gchol_finalize "
           "beside them: %.1f s --\n", nthreads, nthreads, seconds);
    atomic_store(&g_stop, 0);
    for (int g = 0; g < G_COUNT; g++)
        for (int i = 0; i < count[g]; i++) {
            if (worker_init(&ws[g][i], g, i, seed)) {
                printf("  FAILED  %s thread %d: out of memory or no queue\n", group_name[g], i);
                setup_failed[g]++;
                continue;
            }
            started[g][i] = pthread_create(&th[g][i], NULL, g == G_FIN ? finalizer_main : worker_main,
                                           &ws[g][i]) == 0;
            setup_failed[g] += !started[g][i];
        }
    sleep_ms(seconds * 1000);
    atomic_store(&g_stop, 1);
    for (int g = 0; g < G_COUNT; g++)
        for (int i = 0; i < count[g]; i++)
            if (started[g][i]) pthread_join(th[g][i], NULL);
    printf("\n%-9s %7s %8s %8s %8s %8s  %s\n", "group", "threads", "calls", "d calls", "s calls",
           "failures", "check");
    for (int g = 0; g < G_COUNT; g++) {
        int64_t calls[2] = { 0, 0 }, fails = setup_failed[g], ops[OP_COUNT] = { 0 }, fb = 0;
        char ds[2][24] = { "-", "-" };
        int all_ops = 1;
        for (int i = 0; i < count[g]; i++) {
            worker_t *w = &ws[g][i];
            calls[0] += g == G_FIN ? w->ncalls : w->calls[0]; /* finalize: gchol_finalize calls */
            calls[1] += w->calls[1];
            fails += w->fails;
            fb += w->fallbacks;
            for (int k = 0; k < OP_COUNT; k++) ops[k] += w->op_calls[k];
            worker_free(w);
        }
        for (int k = 0; k < OP_COUNT && g != G_FIN; k++) all_ops = all_ops && ops[k] > 0;
        for (int k = 0; k < 2 && g != G_FIN; k++) snprintf(ds[k], sizeof ds[k], "%lld", (long long)calls[k]);
        const int ok = fails == 0 && calls[0] + calls[1] > 0 && all_ops;
        printf("%-9s %7d %8lld %8s %8s %8lld  %s\n", group_name[g], count[g],
               (long long)(calls[0] + calls[1]), ds[0], ds[1], (long long)fails, ok ? "ok" : "FAILED");
        for (int k = 0; k < OP_COUNT && g != G_FIN; k++)
            printf("%s%s %lld%s", k ? "" : "          ", op_name[g][k], (long long)ops[k],
                   k + 1 < OP_COUNT ? ", " : "");
        if (g != G_FIN) printf("; iter -31 (double fallback) %lld\n", (long long)fb);
        testing_expect(ok, "%s: %d threads, %lld library calls, %lld failures%s", group_name[g],
                       count[g], (long long)(calls[0] + calls[1]), (long long)fails,
                       all_ops ? "" : ", a routine never ran");
    }
    printf("threads time %.1f s\n", testing_wtime() - t0);
}

/* ---- without a GPU: the library mutex's path ------------------------------------- */

static atomic_llong g_nogpu_bad, g_nogpu_calls;

static void *nogpu_main(void *arg)
{
    enum { N = 8, LD = 9, NCALLS = 11 };
    worker_t *w = arg;
    double buf[5][LD * N], s[4][LD * N]; /* A, B, C, Y, d; saved A, B, C, Y */
    void *A = buf[0], *B = buf[1], *C = buf[2], *Y = buf[3], *d = buf[4];
    for (int it = 0; it < 40 * NCALLS; it++) {
        const char p = (it / NCALLS) % 2 ? 's' : 'd';
        const char uplo = it % 2 ? 'U' : 'L';
        int64_t info = TESTING_INFO_POISON, iter = 0, ret;
        gen_spd(w, p, N, A, LD);
        gen_rand(w, p, N, 2, B, LD, 1.0, 0.0);
        gen_rand(w, p, N, N, C, LD, 1.0, 0.0);
        gen_rand(w, p, N, 2, Y, LD, 1.0, 0.0);
        gen_d(w, p, N, d);
        memcpy(s, buf, sizeof s);
        switch (it % NCALLS) {
        case 0: ret = G(p, potrf, uplo, N, A, LD, &info); break;
        case 1: ret = G(p, potrs, uplo, N, 2, A, LD, B, LD, &info); break;
        case 2: ret = G(p, posv, uplo, N, 2, A, LD, B, LD, &info); break;
        case 3: ret = gchol_dsposv(uplo, N, 2, A, LD, B, LD, Y, LD, &iter, &info); break;
        case 4: ret = G(p, pftrf, 'N', uplo, N, A, &info); break;
        case 5: ret = G(p, pftrs, 'T', uplo, N, 2, A, B, LD, &info); break;
        case 6: ret = info = G(p, syrk_diag, uplo, N, N, 1.0, A, LD, d, 0.5, C, LD); break;
        case 7: ret = info = G(p, sfrk_diag, 'N', uplo, N, N, 1.0, A, LD, d, 0.5, C); break;
        case 8: ret = G(p, wls, uplo, N, N, 2, A, LD, d, B, LD, C, LD, Y, LD, &info); break;
        case 9: ret = G(p, wls_rfp, 'T', uplo, N, N, 2, A, LD, d, B, LD, C, Y, LD, &info); break;
        default: ret = gchol_dswls(N, N, 2, A, LD, d, B, LD, Y, LD, &iter, &info); break;
        }
        if (ret != GCHOL_ERR_NO_DEVICE || info != ret || memcmp(s, buf, sizeof s))
            atomic_fetch_add(&g_nogpu_bad, 1);
        atomic_fetch_add(&g_nogpu_calls, 1);
        if (it % NCALLS == 0) gchol_finalize();
    }
    return NULL;
}

static void run_no_gpu(int nthreads, uint64_t seed)
{
    static worker_t ws[2 * MAXTHREADS];
    pthread_t th[2 * MAXTHREADS];
    int started = 0;
    if (!testing_no_gpu_section("host forms from many threads without a GPU"))
        return;
    for (int i = 0; i < 2 * nthreads; i++) {
        worker_init(&ws[i], G_FIN, i, seed); /* the rng only */
        if (pthread_create(&th[i], NULL, nogpu_main, &ws[i]) != 0) break;
        started++;
    }
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    testing_expect(started == 2 * nthreads && atomic_load(&g_nogpu_bad) == 0,
                   "%d threads, %lld host calls beside gchol_finalize: each GCHOL_ERR_NO_DEVICE, "
                   "arrays untouched (%lld not)", started, (long long)atomic_load(&g_nogpu_calls),
                   (long long)atomic_load(&g_nogpu_bad));
}

int main(int argc, char **argv)
{
    int suite = 0, quick = 0, nthreads = 8;
    double seconds = -1;
    uint64_t seed = 1;
    const opt_t opts[] = {
        OPT("--suite", OPT_FLAG, &suite, NULL, "the test suite (make test): 10 s"),
        OPT("--quick", OPT_FLAG, &quick, NULL, "the suite in about 2 s"),
        OPT("--seconds", OPT_DOUBLE, &seconds, "S", "how long the threads run (default 10)",
            OPT_MIN(0)),
        OPT("--threads", OPT_INT, &nthreads, "K", "threads per group (default 8, at most 64)",
            OPT_MIN(1)),
        OPT("--seed", OPT_UINT64, &seed, "X", "random seed (default 1)"),
        OPT_END
    };
    const opts_program_t prog = { "[--suite | --quick] [--seconds S] [--threads K] [--seed X]",
                                  NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    if (nthreads > MAXTHREADS) opts_fail(argv[0], opts, &prog, "--threads: at most %d", MAXTHREADS);
    if (seconds < 0) seconds = quick ? 2.0 : 10.0;
    openblas_set_num_threads(1); /* the checks run on many threads already */
    LAPACKE_set_nancheck(0);     /* padding rows hold NaN */
    printf("testing_threads%s%s  (both precisions, %s)\n", suite ? " --suite" : "",
           quick ? " --quick" : "", testing_have_gpu() ? "GPU present" : "no GPU");
    if (testing_have_gpu()) {
        run_threads(nthreads, seconds, seed);
        gchol_finalize();
    } else {
        for (int g = 0; g < G_COUNT; g++)
            testing_skip("%s group: %d threads, %.1f s (no GPU)", group_name[g],
                         g == G_FIN ? 1 : nthreads, seconds);
        run_no_gpu(nthreads, seed);
    }
    return testing_summary();
}
