/*
 * testing_lapack_shim.c -- tests of lib/libgchol_lapack.so, the LAPACK shim.
 *
 * Linked with the shim ahead of LAPACKE and OpenBLAS, so that every call of
 * dpotrf_ & co. below, direct (lapack.h's macros, as a C program writes
 * them) or through LAPACKE, reaches the shim. Checks, in both precisions:
 *  - mode 'cpu' is OpenBLAS bit for bit (its symbols looked up directly);
 *  - potrf, potrs, posv, pftrf, pftrs and dsposv on each path: the LAPACK
 *    residual ratios, info = k on a non-SPD or NaN minor as the CPU gives it,
 *    the other triangle and the padding rows untouched, B untouched when
 *    posv stops at info > 0, where the call ran (gchol_lapack_last_path);
 *  - illegal arguments: the CPU LAPACK's info = -i, in every position;
 *  - the automatic routing by n and nrhs; LAPACKE's calls reach the shim;
 *  - concurrent calls from four threads;
 *  - every routine on arrays of exactly LAPACK's extent against guard pages
 *    (testing/util/guard.h), on the CPU and the GPU path;
 *  - device memory taken: the call is redone on the CPU, nothing is lost.
 * Without a GPU the calls that ask for the GPU must come back from the CPU
 * ('F') with the same results: those cases are host tests of the fallback.
 * With a GPU, run_tests.sh also runs `--fallback` with CUDA_VISIBLE_DEVICES
 * empty, which runs only those cases.
 *
 * --ilp64 makes every call through the ILP64 symbols (dpotrf_64_ & co.),
 * narrowed by the shim to the LP64 CPU LAPACK, and adds calls whose integers
 * do not fit in an int; --cpu64 does the same with
 * GCHOL_LAPACK_CPU_LIB=build/testing/cpu64_lapack.so, an ILP64 CPU LAPACK whose
 * calls are counted.
 *
 *   testing_lapack_shim [--suite] [--quick] [--fallback] [--ilp64 | --cpu64]
 */
#define _GNU_SOURCE /* dlopen(RTLD_NOLOAD) */
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <cuda_runtime_api.h>
#include <lapacke.h>

#include "gchol_lapack.h"
#include "guard.h"
#include "opts.h"
#include "util.h"

static int have_gpu, quick, fallback_only;

/* Where a call that asks for the GPU must have run. */
static int gpu_path(void) { return have_gpu ? GCHOL_LAPACK_RAN_GPU : GCHOL_LAPACK_RAN_FALLBACK; }
static const char *mode_name(int mode)
{
    return mode == GCHOL_LAPACK_CPU ? "cpu" : mode == GCHOL_LAPACK_GPU ? "gpu" : "auto";
}
static const char *path_name(int p)
{
    return p == GCHOL_LAPACK_RAN_GPU ? "G" : p == GCHOL_LAPACK_RAN_CPU ? "C"
         : p == GCHOL_LAPACK_RAN_FALLBACK ? "F" : p == GCHOL_LAPACK_RAN_FAILED ? "E" : "-";
}

/* ---- the routines, per precision (void * arrays) ------------------------ */
#include "lapack_shim_calls.h"

/* ---- helpers ------------------------------------------------------------- */
static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) { fprintf(stderr, "out of host memory\n"); exit(2); }
    return p;
}

/* lda x n, everything NaN, then the SPD triangle (the other one stays NaN). */
static void *spd_poisoned(char prec, char uplo, int n, int lda, uint64_t seed)
{
    void *a = xmalloc((size_t)lda * (size_t)(n ? n : 1) * testing_elsize(prec));
    testing_fill_nan(prec, (int64_t)lda * n, a);
    testing_generate_spd(prec, uplo, n, a, lda, seed);
    return a;
}

static void *dup_array(const void *a, size_t bytes)
{
    void *c = xmalloc(bytes);
    memcpy(c, a, bytes);
    return c;
}

/* ldb x nrhs: random columns, NaN padding rows. */
static void *rhs_poisoned(char prec, int n, int nrhs, int ldb, uint64_t seed)
{
    void *b = xmalloc((size_t)ldb * (size_t)(nrhs ? nrhs : 1) * testing_elsize(prec));
    testing_fill_nan(prec, (int64_t)ldb * nrhs, b);
    for (int j = 0; j < nrhs; ++j)
        for (int i = 0; i < n; ++i) testing_set(prec, b, ldb, i, j, testing_hash_uniform(seed, i, j));
    return b;
}

/* max over columns of ||b - A x||_inf / (||A||_inf ||x||_inf n eps), A the
 * symmetric matrix of uplo's triangle of a (double arithmetic). */
static double solve_ratio(char prec, char uplo, int n, int nrhs, const void *a, int lda,
                          const void *b, int ldb, const void *x, int ldx)
{
    if (n == 0 || nrhs == 0) return 0;
    double *A = xmalloc((size_t)n * n * sizeof(double)), *X = xmalloc((size_t)n * nrhs * 8),
           *R = xmalloc((size_t)n * nrhs * 8);
    const int lower = uplo == 'L' || uplo == 'l';
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const int ref = lower ? i >= j : i <= j;
            A[i + (size_t)j * n] = ref ? testing_get(prec, a, lda, i, j) : testing_get(prec, a, lda, j, i);
        }
    testing_to_double(prec, n, nrhs, x, ldx, X, n);
    testing_to_double(prec, n, nrhs, b, ldb, R, n);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, nrhs, n, -1.0, A, n, X, n, 1.0, R, n);
    double anorm = 0, worst = 0;
    for (int i = 0; i < n; ++i) {
        double s = 0;
        for (int j = 0; j < n; ++j) s += fabs(A[i + (size_t)j * n]);
        anorm = s > anorm ? s : anorm;
    }
    for (int j = 0; j < nrhs; ++j) {
        double rn = 0, xn = 0;
        for (int i = 0; i < n; ++i) {
            const double r = fabs(R[i + (size_t)j * n]), xv = fabs(X[i + (size_t)j * n]);
            rn = (r > rn || r != r) ? r : rn;
            xn = xv > xn ? xv : xn;
        }
        const double q = rn / (anorm * xn * n * testing_eps(prec));
        worst = (q > worst || q != q) ? q : worst;
    }
    free(A); free(X); free(R);
    return worst;
}

/* Padding rows n..ld of an ld x cols array, bytes equal to saved's. */
static int padding_kept(char prec, int n, int cols, const void *a, const void *saved, int ld)
{
    const size_t es = testing_elsize(prec);
    for (int j = 0; j < cols; ++j)
        if (memcmp((const char *)a + ((size_t)j * ld + n) * es,
                   (const char *)saved + ((size_t)j * ld + n) * es, (size_t)(ld - n) * es))
            return 0;
    return 1;
}

/* The OpenBLAS routine `name`, looked up in the library itself (not through
 * the shim), or NULL. */
static void *openblas_symbol(const char *name)
{
    static void *lib;
    const char *sonames[] = { "libopenblas.so.0", "libopenblas.so", "liblapack.so.3" };
    for (int i = 0; !lib && i < 3; ++i) lib = dlopen(sonames[i], RTLD_LAZY | RTLD_NOLOAD);
    return lib ? dlsym(lib, name) : NULL;
}

/* ---- potrf --------------------------------------------------------------- */
/* One factorization through the shim in `mode`; expects the path, info = 0,
 * the residual, the other triangle and padding untouched. */
static void potrf_case(char prec, char uplo, int n, int mode, int want_path)
{
    const int lda = n + 5;
    const size_t bytes = (size_t)lda * (size_t)(n ? n : 1) * testing_elsize(prec);
    void *a = spd_poisoned(prec, uplo, n, lda, 1000 + n), *saved = dup_array(a, bytes);
    int info = -777;
    gchol_lapack_route(mode, -1, -1);
    const double t0 = testing_wtime();
    call_potrf(prec, uplo, n, a, lda, &info);
    const double t = testing_wtime() - t0;
    const int path = gchol_lapack_last_path();
    const double r = n ? testing_residual_cpu(prec, uplo, n, saved, lda, a, lda) : 0;
    const int64_t bad = testing_count_untouched_violations(prec, uplo, n, a, saved, lda);
    testing_expect(info == 0 && path == want_path && r < TESTING_TOL && bad == 0,
                   "%cpotrf_ %c n=%-5d mode %-4s path %s (want %s) info %d resid %.2e "
                   "untouched-violations %lld  %.4f s", prec, uplo, n, mode_name(mode),
                   path_name(path), path_name(want_path), info, r, (long long)bad, t);
    free(a); free(saved);
}

/* Mode 'cpu' against OpenBLAS called directly: the same bytes. */
static void potrf_passthrough(char prec, char uplo, int n)
{
    typedef void potrf_fn(const char *, const int *, void *, const int *, int *, size_t);
    potrf_fn *direct = (potrf_fn *)openblas_symbol(prec == 'd' ? "dpotrf_" : "spotrf_");
    if (!direct) {
        testing_record(TESTING_SKIPPED);
        printf("  skipped %cpotrf_ pass-through: OpenBLAS not found by soname\n", prec);
        return;
    }
    const int lda = n + 3;
    const size_t bytes = (size_t)lda * n * testing_elsize(prec);
    void *a = spd_poisoned(prec, uplo, n, lda, 77 + n), *b = dup_array(a, bytes);
    int ia = -1, ib = -1;
    gchol_lapack_route(GCHOL_LAPACK_CPU, -1, -1);
    call_potrf(prec, uplo, n, a, lda, &ia);
    direct(&uplo, &n, b, &lda, &ib, 1);
    const int64_t diff = testing_count_diff(prec, (int64_t)lda * n, a, b);
    testing_expect(ia == ib && diff == 0 && gchol_lapack_last_path() == GCHOL_LAPACK_RAN_CPU,
                   "%cpotrf_ %c n=%d mode cpu = OpenBLAS bit for bit (info %d / %d, %lld differ)",
                   prec, uplo, n, ia, ib, (long long)diff);
    free(a); free(b);
}

/* A non-SPD (v = -1) or NaN minor at order k: info = k on each path, as the
 * CPU gives it. */
static void potrf_info_case(char prec, char uplo, int n, int k, double v, int mode, int want_path)
{
    const int lda = n + 2;
    const size_t bytes = (size_t)lda * n * testing_elsize(prec);
    void *a = spd_poisoned(prec, uplo, n, lda, 500 + k);
    testing_set(prec, a, lda, k - 1, k - 1, v);
    void *ref = dup_array(a, bytes), *saved = dup_array(a, bytes);
    int info = -777, info_cpu = -777;
    gchol_lapack_route(GCHOL_LAPACK_CPU, -1, -1);
    call_potrf(prec, uplo, n, ref, lda, &info_cpu);
    gchol_lapack_route(mode, -1, -1);
    call_potrf(prec, uplo, n, a, lda, &info);
    const int path = gchol_lapack_last_path();
    const int64_t bad = testing_count_untouched_violations(prec, uplo, n, a, saved, lda);
    testing_expect(info == k && info_cpu == k && path == want_path && bad == 0,
                   "%cpotrf_ %c n=%d a(%d,%d)=%g mode %s path %s: info %d (cpu %d, want %d), "
                   "untouched-violations %lld", prec, uplo, n, k, k, v, mode_name(mode),
                   path_name(path), info, info_cpu, k, (long long)bad);
    free(a); free(ref); free(saved);
}

/* ---- potrs and posv ------------------------------------------------------ */
static void solve_case(char prec, char uplo, int n, int nrhs, int mode, int want_path, int posv)
{
    const int lda = n + 4, ldb = n + 3;
    const size_t es = testing_elsize(prec);
    void *a = spd_poisoned(prec, uplo, n, lda, 3000 + n);
    void *orig = dup_array(a, (size_t)lda * n * es);
    void *b = rhs_poisoned(prec, n, nrhs, ldb, 4000 + nrhs), *b0 = dup_array(b, (size_t)ldb * nrhs * es);
    int info = -777;
    if (!posv) { /* the factor first, on the CPU */
        gchol_lapack_route(GCHOL_LAPACK_CPU, -1, -1);
        call_potrf(prec, uplo, n, a, lda, &info);
    }
    void *a_in = dup_array(a, (size_t)lda * n * es);
    gchol_lapack_route(mode, -1, -1);
    info = -777;
    if (posv) call_posv(prec, uplo, n, nrhs, a, lda, b, ldb, &info);
    else call_potrs(prec, uplo, n, nrhs, a, lda, b, ldb, &info);
    const int path = gchol_lapack_last_path();
    const double r = solve_ratio(prec, uplo, n, nrhs, orig, lda, b0, ldb, b, ldb);
    const int pad = padding_kept(prec, n, nrhs, b, b0, ldb);
    /* potrs leaves a alone; posv leaves the other triangle and padding */
    const int64_t bad = posv ? testing_count_untouched_violations(prec, uplo, n, a, a_in, lda)
                             : testing_count_diff(prec, (int64_t)lda * n, a, a_in);
    testing_expect(info == 0 && path == want_path && r < TESTING_TOL && pad && bad == 0,
                   "%c%s_ %c n=%-5d nrhs=%-3d mode %-4s path %s (want %s) info %d ratio %.2e "
                   "b padding %s, a %lld changed where it must not", prec, posv ? "posv " : "potrs",
                   uplo, n, nrhs, mode_name(mode), path_name(path), path_name(want_path), info, r,
                   pad ? "kept" : "WRITTEN", (long long)bad);
    free(a); free(orig); free(b); free(b0); free(a_in);
}

/* posv on a non-SPD matrix: info = k and b untouched (no solve), as LAPACK. */
static void posv_info_case(char prec, char uplo, int n, int k, double v, int mode, int want_path)
{
    const int lda = n, ldb = n + 1, nrhs = 2;
    const size_t es = testing_elsize(prec);
    void *a = spd_poisoned(prec, uplo, n, lda, 9000 + k);
    testing_set(prec, a, lda, k - 1, k - 1, v);
    void *b = rhs_poisoned(prec, n, nrhs, ldb, 9100), *b0 = dup_array(b, (size_t)ldb * nrhs * es);
    int info = -777;
    gchol_lapack_route(mode, -1, -1);
    call_posv(prec, uplo, n, nrhs, a, lda, b, ldb, &info);
    const int path = gchol_lapack_last_path();
    const int64_t bdiff = testing_count_diff(prec, (int64_t)ldb * nrhs, b, b0);
    testing_expect(info == k && path == want_path && bdiff == 0,
                   "%cposv_ %c n=%d a(%d,%d)=%g mode %s path %s: info %d (want %d), b %lld changed",
                   prec, uplo, n, k, k, v, mode_name(mode), path_name(path), info, k,
                   (long long)bdiff);
    free(a); free(b); free(b0);
}

/* ---- RFP: pftrf then pftrs ----------------------------------------------- */
static void rfp_case(char prec, char transr, char uplo, int n, int nrhs, int k_bad, double v,
                     int mode, int want_path)
{
    const size_t es = testing_elsize(prec);
    const int lda = n, ldb = n + 2;
    void *full = spd_poisoned(prec, uplo, n, lda, 6000 + n);
    if (k_bad) testing_set(prec, full, lda, k_bad - 1, k_bad - 1, v);
    const size_t nt = (size_t)n * (n + 1) / 2;
    void *arf = xmalloc(nt * es), *arf_cpu = xmalloc(nt * es);
    if (prec == 'd') LAPACKE_dtrttf(LAPACK_COL_MAJOR, transr, uplo, n, full, lda, arf);
    else LAPACKE_strttf(LAPACK_COL_MAJOR, transr, uplo, n, full, lda, arf);
    memcpy(arf_cpu, arf, nt * es);
    int info = -777, info_cpu = -777;
    gchol_lapack_route(GCHOL_LAPACK_CPU, -1, -1);
    call_pftrf(prec, transr, uplo, n, arf_cpu, &info_cpu);
    gchol_lapack_route(mode, -1, -1);
    call_pftrf(prec, transr, uplo, n, arf, &info);
    int path = gchol_lapack_last_path();
    if (k_bad) {
        testing_expect(info == k_bad && info_cpu == k_bad && path == want_path,
                       "%cpftrf_ %c%c n=%d a(%d,%d)=%g mode %s path %s: info %d (cpu %d)", prec,
                       transr, uplo, n, k_bad, k_bad, v, mode_name(mode), path_name(path), info,
                       info_cpu);
    } else {
        void *l = spd_poisoned(prec, uplo, n, lda, 1); /* the factor back in full storage */
        if (prec == 'd') LAPACKE_dtfttr(LAPACK_COL_MAJOR, transr, uplo, n, arf, l, lda);
        else LAPACKE_stfttr(LAPACK_COL_MAJOR, transr, uplo, n, arf, l, lda);
        const double r = testing_residual_cpu(prec, uplo, n, full, lda, l, lda);
        testing_expect(info == 0 && path == want_path && r < TESTING_TOL,
                       "%cpftrf_ %c%c n=%-5d mode %-4s path %s (want %s) info %d resid %.2e", prec,
                       transr, uplo, n, mode_name(mode), path_name(path), path_name(want_path),
                       info, r);
        void *b = rhs_poisoned(prec, n, nrhs, ldb, 7000), *b0 = dup_array(b, (size_t)ldb * nrhs * es);
        info = -777;
        call_pftrs(prec, transr, uplo, n, nrhs, arf, b, ldb, &info);
        path = gchol_lapack_last_path();
        const double q = solve_ratio(prec, uplo, n, nrhs, full, lda, b0, ldb, b, ldb);
        const int pad = padding_kept(prec, n, nrhs, b, b0, ldb);
        testing_expect(info == 0 && path == want_path && q < TESTING_TOL && pad,
                       "%cpftrs_ %c%c n=%-5d nrhs=%-3d mode %-4s path %s info %d ratio %.2e b "
                       "padding %s", prec, transr, uplo, n, nrhs, mode_name(mode), path_name(path),
                       info, q, pad ? "kept" : "WRITTEN");
        free(l); free(b); free(b0);
    }
    free(full); free(arf); free(arf_cpu);
}

#include "lapack_shim_bounds.h"

/* ---- dsposv -------------------------------------------------------------- */
static void dsposv_case(char uplo, int n, int nrhs, int mode, int want_path)
{
    const int lda = n + 1, ldb = n + 2, ldx = n + 3;
    double *a = spd_poisoned('d', uplo, n, lda, 8000 + n);
    double *a0 = dup_array(a, (size_t)lda * n * 8);
    double *b = rhs_poisoned('d', n, nrhs, ldb, 8100), *b0 = dup_array(b, (size_t)ldb * nrhs * 8);
    double *x = xmalloc((size_t)ldx * nrhs * 8), *work = xmalloc((size_t)n * nrhs * 8);
    float *swork = xmalloc((size_t)n * (n + nrhs) * 4);
    testing_fill_nan('d', (int64_t)ldx * nrhs, x);
    double *x0 = dup_array(x, (size_t)ldx * nrhs * 8);
    int iter = -777, info = -777;
    gchol_lapack_route(mode, -1, -1);
    call_dsposv(uplo, n, nrhs, a, lda, b, ldb, x, ldx, work, swork, &iter, &info);
    const int path = gchol_lapack_last_path();
    const double r = solve_ratio('d', uplo, n, nrhs, a0, lda, b0, ldb, x, ldx);
    const int64_t bdiff = testing_count_diff('d', (int64_t)ldb * nrhs, b, b0);
    const int64_t adiff = iter > 0 ? testing_count_diff('d', (int64_t)lda * n, a, a0) : 0;
    const int pad = padding_kept('d', n, nrhs, x, x0, ldx);
    testing_expect(info == 0 && iter > 0 && path == want_path && r < TESTING_TOL && !bdiff &&
                   !adiff && pad,
                   "dsposv_ %c n=%-5d nrhs=%-2d mode %-4s path %s (want %s) info %d iter %d ratio "
                   "%.2e, b %lld and a %lld changed, x padding %s", uplo, n, nrhs, mode_name(mode),
                   path_name(path), path_name(want_path), info, iter, r, (long long)bdiff,
                   (long long)adiff, pad ? "kept" : "WRITTEN");
    free(a); free(a0); free(b); free(b0); free(x); free(x0); free(work); free(swork);
}

/* dsposv with a NaN on the diagonal at k: info = k on each path. */
static void dsposv_nan_case(char uplo, int n, int k, int mode, int want_path)
{
    const int nrhs = 2;
    double *a = spd_poisoned('d', uplo, n, n, 8200 + k);
    testing_set('d', a, n, k - 1, k - 1, NAN);
    double *b = rhs_poisoned('d', n, nrhs, n, 8300), *x = xmalloc((size_t)n * nrhs * 8);
    double *work = xmalloc((size_t)n * nrhs * 8);
    float *swork = xmalloc((size_t)n * (n + nrhs) * 4);
    int iter = -777, info = -777;
    gchol_lapack_route(mode, -1, -1);
    call_dsposv(uplo, n, nrhs, a, n, b, n, x, n, work, swork, &iter, &info);
    const int path = gchol_lapack_last_path();
    testing_expect(info == k && iter < 0 && path == want_path,
                   "dsposv_ %c n=%d a(%d,%d)=nan mode %s path %s: info %d (want %d) iter %d", uplo,
                   n, k, k, mode_name(mode), path_name(path), info, k, iter);
    free(a); free(b); free(x); free(work); free(swork);
}

#include "lapack_shim_args.h"

/* OpenBLAS's dsposv calls spotrs_ and spotrf_ through the shim's symbols. A
 * CPU call's inner calls must stay on the CPU: with min_n_solve = 1 they
 * would otherwise go to the GPU. The result must be OpenBLAS's, bit for bit. */
static void nested_calls(void)
{
    typedef void dsposv_fn(const char *, const int *, const int *, double *, const int *,
                           const double *, const int *, double *, const int *, double *, float *,
                           int *, int *, size_t);
    dsposv_fn *direct = (dsposv_fn *)openblas_symbol("dsposv_");
    if (!direct) {
        testing_record(TESTING_SKIPPED);
        printf("  skipped nested calls: OpenBLAS's dsposv_ not found by soname\n");
        return;
    }
    int n = 500, nrhs = 2, iter1 = -1, iter2 = -1, info1 = -1, info2 = -1;
    double *a1 = spd_poisoned('d', 'L', n, n, 4242), *a2 = dup_array(a1, (size_t)n * n * 8);
    double *b = rhs_poisoned('d', n, nrhs, n, 4343);
    double *x1 = xmalloc((size_t)n * nrhs * 8), *x2 = xmalloc((size_t)n * nrhs * 8);
    double *work = xmalloc((size_t)n * nrhs * 8);
    float *swork = xmalloc((size_t)n * (n + nrhs) * 4);
    gchol_lapack_route(GCHOL_LAPACK_AUTO, 100000, 1);
    call_dsposv('L', n, nrhs, a1, n, b, n, x1, n, work, swork, &iter1, &info1);
    const int path = gchol_lapack_last_path();
    /* the reference's own inner calls reach the shim too (not from inside a
     * shim call): mode cpu keeps them on the CPU */
    gchol_lapack_route(GCHOL_LAPACK_CPU, -1, -1);
    direct("L", &n, &nrhs, a2, &n, b, &n, x2, &n, work, swork, &iter2, &info2, 1);
    const int64_t diff = testing_count_diff('d', (int64_t)n * nrhs, x1, x2);
    testing_expect(info1 == 0 && info2 == 0 && iter1 == iter2 && diff == 0 &&
                   path == GCHOL_LAPACK_RAN_CPU,
                   "dsposv_ on the CPU (min_n 100000, min_n_solve 1): its inner spotrs_ stay on "
                   "the CPU, x = OpenBLAS's bit for bit (%lld differ, iter %d / %d, path %s)",
                   (long long)diff, iter1, iter2, path_name(path));
    gchol_lapack_route(GCHOL_LAPACK_AUTO, 128, 2048); /* the defaults */
    free(a1); free(a2); free(b); free(x1); free(x2); free(work); free(swork);
}

#include "lapack_shim_misc.h"

int main(int argc, char **argv)
{
    int suite = 0, cpu64_flag = 0;
    const opt_t opts[] = {
        OPT("--suite", OPT_FLAG, &suite, NULL, "the test suite (the default; make test)"),
        OPT("--quick", OPT_FLAG, &quick, NULL, "fewer and smaller cases (the sanitizers)"),
        OPT("--fallback", OPT_FLAG, &fallback_only, NULL, "only the cases of the CPU fallback "
            "(run with the GPU hidden)"),
        OPT("--ilp64", OPT_FLAG, &ilp64, NULL, "every call through the ILP64 symbols over the "
            "LP64 CPU LAPACK"),
        OPT("--cpu64", OPT_FLAG, &cpu64_flag, NULL, "the same over an ILP64 CPU LAPACK\n"
            "(GCHOL_LAPACK_CPU_LIB=build/testing/cpu64_lapack.so)"),
        OPT_END
    };
    const opts_program_t prog = { "[--suite] [--quick] [--fallback] [--ilp64 | --cpu64]", NULL,
                                  2 };
    opts_parse(argc, argv, opts, &prog);
    (void)suite;
    if (cpu64_flag) ilp64 = cpu64 = 1;
    have_gpu = testing_have_gpu();
    LAPACKE_set_nancheck(0); /* trttf must copy the NaN cases as they are */
    printf("testing_lapack_shim: %s%s%s\n", have_gpu ? "GPU found" : "no GPU: the calls that ask "
           "for the GPU must be redone on the CPU (path F)", fallback_only ? ", --fallback" : "",
           cpu64 ? ", --cpu64: the ILP64 symbols over an ILP64 CPU LAPACK"
           : ilp64 ? ", --ilp64: the ILP64 symbols (dpotrf_64_ & co.) over the LP64 CPU LAPACK" : "");
    if (cpu64 && cpu64_calls() < 0) {
        /* the shim has not opened it yet: it must be the named library */
        const char *lib = getenv("GCHOL_LAPACK_CPU_LIB");
        if (!lib || !dlopen(lib, RTLD_NOW) || cpu64_calls() < 0) {
            fprintf(stderr, "--cpu64 needs GCHOL_LAPACK_CPU_LIB=build/testing/cpu64_lapack.so\n");
            return 2;
        }
    }
    const char precs[2] = { 'd', 's' };
    const int big[2] = { 5000, 6500 }; /* the host interface's overlapped path */

    for (int p = 0; p < 2; ++p) {
        const char prec = precs[p];
        const int sizes[] = { 1, 2, 31, 200, 777, 1024, 2500 };
        for (int u = 0; u < 2; ++u) {
            const char uplo = "LU"[u];
            if (!fallback_only) potrf_passthrough(prec, uplo, 300 + 17 * u);
            for (int i = 0; i < (int)(sizeof sizes / sizeof *sizes); ++i) {
                if (quick && sizes[i] > 1024) continue;
                if (!fallback_only) potrf_case(prec, uplo, sizes[i], GCHOL_LAPACK_CPU, GCHOL_LAPACK_RAN_CPU);
                potrf_case(prec, uplo, sizes[i], GCHOL_LAPACK_GPU, gpu_path());
            }
            if (!quick && !fallback_only) potrf_case(prec, uplo, big[p], GCHOL_LAPACK_GPU, gpu_path());
            const int ks[] = { 1, 2, 64, 257, 600 };
            for (int i = 0; i < 5; ++i) {
                potrf_info_case(prec, uplo, 600, ks[i], -1.0, GCHOL_LAPACK_GPU, gpu_path());
                if (!fallback_only) potrf_info_case(prec, uplo, 600, ks[i], NAN, GCHOL_LAPACK_GPU, gpu_path());
            }
            if (!quick) potrf_info_case(prec, uplo, 3000, 2049, -1.0, GCHOL_LAPACK_GPU, gpu_path());
            const int nrhs[] = { 1, 3, 70 };
            for (int i = 0; i < 3; ++i) {
                solve_case(prec, uplo, 513, nrhs[i], GCHOL_LAPACK_GPU, gpu_path(), 0);
                solve_case(prec, uplo, 513, nrhs[i], GCHOL_LAPACK_GPU, gpu_path(), 1);
                if (!fallback_only) solve_case(prec, uplo, 513, nrhs[i], GCHOL_LAPACK_CPU, GCHOL_LAPACK_RAN_CPU, 1);
            }
            if (!quick) solve_case(prec, uplo, 2000, 100, GCHOL_LAPACK_AUTO, gpu_path(), 1);
            posv_info_case(prec, uplo, 400, 123, -1.0, GCHOL_LAPACK_GPU, gpu_path());
            posv_info_case(prec, uplo, 400, 77, NAN, GCHOL_LAPACK_GPU, gpu_path());
            if (!fallback_only) posv_info_case(prec, uplo, 400, 78, NAN, GCHOL_LAPACK_CPU, GCHOL_LAPACK_RAN_CPU);
            for (int t = 0; t < 2; ++t) {
                const char transr = "NT"[t];
                rfp_case(prec, transr, uplo, 301 + t, 5, 0, 0, GCHOL_LAPACK_GPU, gpu_path());
                rfp_case(prec, transr, uplo, 600, 2, 0, 0, GCHOL_LAPACK_GPU, gpu_path());
                rfp_case(prec, transr, uplo, 600, 2, 311, -1.0, GCHOL_LAPACK_GPU, gpu_path());
                rfp_case(prec, transr, uplo, 599, 2, 400, NAN, GCHOL_LAPACK_GPU, gpu_path());
                if (!quick && !fallback_only) rfp_case(prec, transr, uplo, 2048, 3, 0, 0, GCHOL_LAPACK_GPU, gpu_path());
            }
        }
        if (!fallback_only) bad_args(prec);
        quick_and_case(prec);
        if (!fallback_only) bounds_cases(prec, GCHOL_LAPACK_CPU, GCHOL_LAPACK_RAN_CPU);
        bounds_cases(prec, GCHOL_LAPACK_GPU, gpu_path());
    }
    dsposv_case('L', 500, 1, GCHOL_LAPACK_GPU, gpu_path());
    dsposv_case('U', 777, 4, GCHOL_LAPACK_GPU, gpu_path());
    if (!fallback_only) dsposv_case('L', 500, 2, GCHOL_LAPACK_CPU, GCHOL_LAPACK_RAN_CPU);
    dsposv_nan_case('U', 300, 77, GCHOL_LAPACK_GPU, gpu_path());
    if (!fallback_only) dsposv_nan_case('L', 300, 211, GCHOL_LAPACK_CPU, GCHOL_LAPACK_RAN_CPU);
    if (!fallback_only && !cpu64) routing();
    if (!fallback_only && !cpu64) nested_calls();
    threads();
    if (!fallback_only) ilp64_wide();
    if (!fallback_only && !ilp64) out_of_memory();
    return testing_summary();
}
