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
/* The shim's ILP64 symbols (reference LAPACK's 64_ suffix, int64_t). */
#define ILP64_DECL(P, F)                                                                        \
    void P##potrf_64_(const char *, const int64_t *, F *, const int64_t *, int64_t *, size_t);  \
    void P##potrs_64_(const char *, const int64_t *, const int64_t *, const F *,                \
                      const int64_t *, F *, const int64_t *, int64_t *, size_t);                \
    void P##posv_64_(const char *, const int64_t *, const int64_t *, F *, const int64_t *, F *, \
                     const int64_t *, int64_t *, size_t);                                       \
    void P##pftrf_64_(const char *, const char *, const int64_t *, F *, int64_t *, size_t,      \
                      size_t);                                                                  \
    void P##pftrs_64_(const char *, const char *, const int64_t *, const int64_t *, const F *,  \
                      F *, const int64_t *, int64_t *, size_t, size_t);
ILP64_DECL(d, double)
ILP64_DECL(s, float)
void dsposv_64_(const char *, const int64_t *, const int64_t *, double *, const int64_t *,
                const double *, const int64_t *, double *, const int64_t *, double *, float *,
                int64_t *, int64_t *, size_t);

/* --ilp64: every call_* below goes through the ILP64 symbols (int64_t
 * copies of the arguments, info narrowed back for the checks). */
static int ilp64;
#define W(v) (&(int64_t){ (v) })
/* An ILP64 info or iter as an int: INT_MIN (which no check accepts) when
 * its upper half does not match, as when only 32 bits of it were written
 * over the poison -777777. */
static int narrow(int64_t v) { return v == (int)v ? (int)v : INT_MIN; }

static void call_potrf(char prec, char uplo, int n, void *a, int lda, int *info)
{
    if (ilp64) {
        int64_t i = -777777;
        if (prec == 'd') dpotrf_64_(&uplo, W(n), a, W(lda), &i, 1);
        else spotrf_64_(&uplo, W(n), a, W(lda), &i, 1);
        *info = narrow(i);
    } else if (prec == 'd') LAPACK_dpotrf(&uplo, &n, a, &lda, info);
    else LAPACK_spotrf(&uplo, &n, a, &lda, info);
}
static void call_potrs(char prec, char uplo, int n, int nrhs, const void *a, int lda, void *b,
                       int ldb, int *info)
{
    if (ilp64) {
        int64_t i = -777777;
        if (prec == 'd') dpotrs_64_(&uplo, W(n), W(nrhs), a, W(lda), b, W(ldb), &i, 1);
        else spotrs_64_(&uplo, W(n), W(nrhs), a, W(lda), b, W(ldb), &i, 1);
        *info = narrow(i);
    } else if (prec == 'd') LAPACK_dpotrs(&uplo, &n, &nrhs, a, &lda, b, &ldb, info);
    else LAPACK_spotrs(&uplo, &n, &nrhs, a, &lda, b, &ldb, info);
}
static void call_posv(char prec, char uplo, int n, int nrhs, void *a, int lda, void *b, int ldb,
                      int *info)
{
    if (ilp64) {
        int64_t i = -777777;
        if (prec == 'd') dposv_64_(&uplo, W(n), W(nrhs), a, W(lda), b, W(ldb), &i, 1);
        else sposv_64_(&uplo, W(n), W(nrhs), a, W(lda), b, W(ldb), &i, 1);
        *info = narrow(i);
    } else if (prec == 'd') LAPACK_dposv(&uplo, &n, &nrhs, a, &lda, b, &ldb, info);
    else LAPACK_sposv(&uplo, &n, &nrhs, a, &lda, b, &ldb, info);
}
static void call_pftrf(char prec, char transr, char uplo, int n, void *a, int *info)
{
    if (ilp64) {
        int64_t i = -777777;
        if (prec == 'd') dpftrf_64_(&transr, &uplo, W(n), a, &i, 1, 1);
        else spftrf_64_(&transr, &uplo, W(n), a, &i, 1, 1);
        *info = narrow(i);
    } else if (prec == 'd') LAPACK_dpftrf(&transr, &uplo, &n, a, info);
    else LAPACK_spftrf(&transr, &uplo, &n, a, info);
}
static void call_pftrs(char prec, char transr, char uplo, int n, int nrhs, const void *a,
                       void *b, int ldb, int *info)
{
    if (ilp64) {
        int64_t i = -777777;
        if (prec == 'd') dpftrs_64_(&transr, &uplo, W(n), W(nrhs), a, b, W(ldb), &i, 1, 1);
        else spftrs_64_(&transr, &uplo, W(n), W(nrhs), a, b, W(ldb), &i, 1, 1);
        *info = narrow(i);
    } else if (prec == 'd') LAPACK_dpftrs(&transr, &uplo, &n, &nrhs, a, b, &ldb, info);
    else LAPACK_spftrs(&transr, &uplo, &n, &nrhs, a, b, &ldb, info);
}
static void call_dsposv(char uplo, int n, int nrhs, double *a, int lda, const double *b, int ldb,
                        double *x, int ldx, double *work, float *swork, int *iter, int *info)
{
    if (ilp64) {
        int64_t it = -777777, i = -777777;
        dsposv_64_(&uplo, W(n), W(nrhs), a, W(lda), b, W(ldb), x, W(ldx), work, swork, &it, &i, 1);
        *iter = narrow(it);
        *info = narrow(i);
    } else {
        LAPACK_dsposv(&uplo, &n, &nrhs, a, &lda, b, &ldb, x, &ldx, work, swork, iter, info);
    }
}

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

/* ---- arrays of LAPACK's extent against guard pages ----------------------- */
/* count elements of src into a new guarded array (testing_guard.h) */
static void *guarded_copy(const void *src, size_t count, size_t es, int where)
{
    void *g = testing_guard_alloc(count * es, where);
    if (!g) { fprintf(stderr, "guard pages: mmap failed\n"); exit(2); }
    memcpy(g, src, count * es);
    return g;
}

/* Every routine of the shim on arrays of exactly LAPACK's extent (no padding
 * after the last column; n(n+1)/2 for RFP; dsposv's work n x nrhs and swork
 * n(n+nrhs)), each ending against, then starting after, an inaccessible page:
 * a read or write outside stops the tester (its handler reports the case). */
static void bounds_cases(char prec, int mode, int want_path)
{
    const size_t es = testing_elsize(prec);
    const int n = mode == GCHOL_LAPACK_CPU ? 37 : 300, lda = n + 3, ldb = n + 1, nrhs = 3;
    const size_t ext_a = (size_t)lda * (n - 1) + n, ext_b = (size_t)ldb * (nrhs - 1) + n;
    const size_t nt = (size_t)n * (n + 1) / 2;
    testing_guard_trap();
    for (int where = TESTING_GUARD_TAIL; where <= TESTING_GUARD_HEAD; ++where) {
        const char uplo = where == TESTING_GUARD_TAIL ? 'L' : 'U';
        const char *at = where == TESTING_GUARD_TAIL ? "end" : "start";
        void *a = spd_poisoned(prec, uplo, n, lda, 9000 + n), *a0 = dup_array(a, (size_t)lda * n * es);
        void *b = rhs_poisoned(prec, n, nrhs, ldb, 9100), *b0 = dup_array(b, (size_t)ldb * nrhs * es);
        int info = -777;
        gchol_lapack_route(mode, -1, -1);
        /* potrf, then potrs with its factor */
        testing_guard_label("%cpotrf_ bounds %c n=%d mode %s", prec, uplo, n, mode_name(mode));
        void *ga = guarded_copy(a, ext_a, es, where);
        call_potrf(prec, uplo, n, ga, lda, &info);
        int path = gchol_lapack_last_path();
        memcpy(a, ga, ext_a * es);
        const double r = testing_residual_cpu(prec, uplo, n, a0, lda, a, lda);
        testing_expect(info == 0 && path == want_path && r < TESTING_TOL && testing_guard_slack_ok(ga),
                       "%cpotrf_ %c n=%d lda=%d mode %-4s, array %s against a guard page: path %s "
                       "info %d resid %.2e", prec, uplo, n, lda, mode_name(mode), at,
                       path_name(path), info, r);
        testing_guard_label("%cpotrs_ bounds %c n=%d mode %s", prec, uplo, n, mode_name(mode));
        void *gb = guarded_copy(b, ext_b, es, where);
        info = -777;
        call_potrs(prec, uplo, n, nrhs, ga, lda, gb, ldb, &info);
        path = gchol_lapack_last_path();
        memcpy(b, gb, ext_b * es);
        double q = solve_ratio(prec, uplo, n, nrhs, a0, lda, b0, ldb, b, ldb);
        testing_expect(info == 0 && path == want_path && q < TESTING_TOL && testing_guard_slack_ok(ga) &&
                       testing_guard_slack_ok(gb),
                       "%cpotrs_ %c n=%d nrhs=%d mode %-4s, arrays %s against guard pages: path %s "
                       "info %d ratio %.2e", prec, uplo, n, nrhs, mode_name(mode), at,
                       path_name(path), info, q);
        testing_guard_free(ga);
        testing_guard_free(gb);
        /* posv */
        testing_guard_label("%cposv_ bounds %c n=%d mode %s", prec, uplo, n, mode_name(mode));
        ga = guarded_copy(a0, ext_a, es, where);
        gb = guarded_copy(b0, ext_b, es, where);
        info = -777;
        call_posv(prec, uplo, n, nrhs, ga, lda, gb, ldb, &info);
        path = gchol_lapack_last_path();
        memcpy(b, gb, ext_b * es);
        q = solve_ratio(prec, uplo, n, nrhs, a0, lda, b0, ldb, b, ldb);
        testing_expect(info == 0 && path == want_path && q < TESTING_TOL && testing_guard_slack_ok(ga) &&
                       testing_guard_slack_ok(gb),
                       "%cposv_  %c n=%d nrhs=%d mode %-4s, arrays %s against guard pages: path %s "
                       "info %d ratio %.2e", prec, uplo, n, nrhs, mode_name(mode), at,
                       path_name(path), info, q);
        testing_guard_free(ga);
        testing_guard_free(gb);
        /* pftrf, then pftrs with its factor */
        const char transr = where == TESTING_GUARD_TAIL ? 'N' : 'T';
        void *arf = xmalloc(nt * es), *l = dup_array(a0, (size_t)lda * n * es);
        if (prec == 'd') LAPACKE_dtrttf(LAPACK_COL_MAJOR, transr, uplo, n, a0, lda, arf);
        else LAPACKE_strttf(LAPACK_COL_MAJOR, transr, uplo, n, a0, lda, arf);
        testing_guard_label("%cpftrf_ bounds %c%c n=%d mode %s", prec, transr, uplo, n, mode_name(mode));
        ga = guarded_copy(arf, nt, es, where);
        info = -777;
        call_pftrf(prec, transr, uplo, n, ga, &info);
        path = gchol_lapack_last_path();
        if (prec == 'd') LAPACKE_dtfttr(LAPACK_COL_MAJOR, transr, uplo, n, ga, l, lda);
        else LAPACKE_stfttr(LAPACK_COL_MAJOR, transr, uplo, n, ga, l, lda);
        const double rr = testing_residual_cpu(prec, uplo, n, a0, lda, l, lda);
        testing_expect(info == 0 && path == want_path && rr < TESTING_TOL && testing_guard_slack_ok(ga),
                       "%cpftrf_ %c%c n=%d mode %-4s, array %s against a guard page: path %s info "
                       "%d resid %.2e", prec, transr, uplo, n, mode_name(mode), at, path_name(path),
                       info, rr);
        testing_guard_label("%cpftrs_ bounds %c%c n=%d mode %s", prec, transr, uplo, n, mode_name(mode));
        gb = guarded_copy(b0, ext_b, es, where);
        info = -777;
        call_pftrs(prec, transr, uplo, n, nrhs, ga, gb, ldb, &info);
        path = gchol_lapack_last_path();
        memcpy(b, gb, ext_b * es);
        q = solve_ratio(prec, uplo, n, nrhs, a0, lda, b0, ldb, b, ldb);
        testing_expect(info == 0 && path == want_path && q < TESTING_TOL && testing_guard_slack_ok(ga) &&
                       testing_guard_slack_ok(gb),
                       "%cpftrs_ %c%c n=%d nrhs=%d mode %-4s, arrays %s against guard pages: path %s "
                       "info %d ratio %.2e", prec, transr, uplo, n, nrhs, mode_name(mode), at,
                       path_name(path), info, q);
        testing_guard_free(ga);
        testing_guard_free(gb);
        free(arf);
        free(l);
        if (prec == 'd') { /* dsposv: a, b, x and both workspaces */
            testing_guard_label("dsposv_ bounds %c n=%d mode %s", uplo, n, mode_name(mode));
            const int ldx = n + 2;
            const size_t ext_x = (size_t)ldx * (nrhs - 1) + n;
            double *x = xmalloc((size_t)ldx * nrhs * 8);
            testing_fill_nan('d', (int64_t)ldx * nrhs, x);
            ga = guarded_copy(a0, ext_a, es, where);
            gb = guarded_copy(b0, ext_b, es, where);
            double *gx = guarded_copy(x, ext_x, 8, where);
            double *work = testing_guard_alloc((size_t)n * nrhs * 8, where);
            float *swork = testing_guard_alloc((size_t)n * (n + nrhs) * 4, where);
            int iter = -777;
            info = -777;
            call_dsposv(uplo, n, nrhs, ga, lda, gb, ldb, gx, ldx, work, swork, &iter, &info);
            path = gchol_lapack_last_path();
            memcpy(x, gx, ext_x * 8);
            q = solve_ratio('d', uplo, n, nrhs, a0, lda, b0, ldb, x, ldx);
            testing_expect(info == 0 && iter > 0 && path == want_path && q < TESTING_TOL &&
                           testing_guard_slack_ok(ga) && testing_guard_slack_ok(gb) &&
                           testing_guard_slack_ok(gx) && testing_guard_slack_ok(work) &&
                           testing_guard_slack_ok(swork),
                           "dsposv_ %c n=%d nrhs=%d mode %-4s, a, b, x, work, swork %s against "
                           "guard pages: path %s info %d iter %d ratio %.2e", uplo, n, nrhs,
                           mode_name(mode), at, path_name(path), info, iter, q);
            testing_guard_free(ga);
            testing_guard_free(gb);
            testing_guard_free(gx);
            testing_guard_free(work);
            testing_guard_free(swork);
            free(x);
        }
        free(a); free(a0); free(b); free(b0);
    }
}

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

/* ---- illegal arguments: the CPU LAPACK's info = -i ----------------------- */
static void bad_args(char prec)
{
    const size_t es = testing_elsize(prec);
    void *a = xmalloc(64 * 64 * es), *b = xmalloc(64 * 4 * es);
    testing_generate_spd(prec, 'L', 8, a, 8, 5);
    struct { const char *what; int want; } r[24];
    int got[24], m = 0;
    for (int mode = GCHOL_LAPACK_AUTO; mode <= GCHOL_LAPACK_CPU; ++mode) {
        gchol_lapack_route(mode, 0, 0);
        m = 0;
        int info;
#define BAD(call, name, w) do { info = 0; call; got[m] = info; r[m].what = name; r[m].want = w; ++m; } while (0)
        BAD(call_potrf(prec, 'X', 8, a, 8, &info), "potrf uplo", -1);
        BAD(call_potrf(prec, 'L', -1, a, 8, &info), "potrf n", -2);
        BAD(call_potrf(prec, 'L', 8, a, 7, &info), "potrf lda", -4);
        BAD(call_potrs(prec, 'x', 8, 1, a, 8, b, 8, &info), "potrs uplo", -1);
        BAD(call_potrs(prec, 'L', -2, 1, a, 8, b, 8, &info), "potrs n", -2);
        BAD(call_potrs(prec, 'L', 8, -1, a, 8, b, 8, &info), "potrs nrhs", -3);
        BAD(call_potrs(prec, 'L', 8, 1, a, 7, b, 8, &info), "potrs lda", -5);
        BAD(call_potrs(prec, 'L', 8, 1, a, 8, b, 7, &info), "potrs ldb", -7);
        BAD(call_posv(prec, 'Z', 8, 1, a, 8, b, 8, &info), "posv uplo", -1);
        BAD(call_posv(prec, 'U', -1, 1, a, 8, b, 8, &info), "posv n", -2);
        BAD(call_posv(prec, 'U', 8, -1, a, 8, b, 8, &info), "posv nrhs", -3);
        BAD(call_posv(prec, 'U', 8, 1, a, 5, b, 8, &info), "posv lda", -5);
        BAD(call_posv(prec, 'U', 8, 1, a, 8, b, 0, &info), "posv ldb", -7);
        BAD(call_pftrf(prec, 'C', 'L', 8, a, &info), "pftrf transr 'C' (real)", -1);
        BAD(call_pftrf(prec, 'N', 'Q', 8, a, &info), "pftrf uplo", -2);
        BAD(call_pftrf(prec, 'T', 'L', -3, a, &info), "pftrf n", -3);
        BAD(call_pftrs(prec, 'N', 'L', 8, -1, a, b, 8, &info), "pftrs nrhs", -4);
        BAD(call_pftrs(prec, 'N', 'L', 8, 1, a, b, 7, &info), "pftrs ldb", -7);
#undef BAD
        int ok = gchol_lapack_last_path() == GCHOL_LAPACK_RAN_CPU;
        for (int i = 0; i < m; ++i) ok &= got[i] == r[i].want;
        testing_expect(ok, "%c: %d illegal-argument calls in mode %s give LAPACK's info = -i", prec,
                       m, mode_name(mode));
        if (!ok)
            for (int i = 0; i < m; ++i)
                if (got[i] != r[i].want) printf("      %s: info %d, want %d\n", r[i].what, got[i], r[i].want);
    }
    if (prec == 'd') {
        const struct { char uplo; int n, nrhs, lda, ldb, ldx, want; } c[] = {
            { 'X', 8, 1, 8, 8, 8, -1 }, { 'L', -1, 1, 8, 8, 8, -2 }, { 'L', 8, -1, 8, 8, 8, -3 },
            { 'L', 8, 1, 7, 8, 8, -5 }, { 'L', 8, 1, 8, 7, 8, -7 }, { 'L', 8, 1, 8, 8, 4, -9 } };
        double x[64], work[64];
        float swork[128];
        int ok = 1;
        gchol_lapack_route(GCHOL_LAPACK_GPU, 0, 0);
        for (int i = 0; i < 6; ++i) {
            int iter = 77, info = 0;
            call_dsposv(c[i].uplo, c[i].n, c[i].nrhs, a, c[i].lda, b, c[i].ldb, x, c[i].ldx, work,
                        swork, &iter, &info);
            ok &= info == c[i].want && iter == 0;
            if (info != c[i].want || iter != 0)
                printf("      dsposv case %d: info %d (want %d) iter %d (want 0)\n", i, info,
                       c[i].want, iter);
        }
        testing_expect(ok, "dsposv: 6 illegal-argument calls in mode gpu give info = -i, iter 0");
    }
    free(a); free(b);
}

/* ---- quick returns and lower-case letters ---------------------------------- */
static void quick_and_case(char prec)
{
    const size_t es = testing_elsize(prec);
    void *a = xmalloc(16 * 16 * es), *b = xmalloc(16 * 4 * es), *a2, *b2;
    testing_fill_nan(prec, 16 * 16, a);
    testing_fill_nan(prec, 16 * 4, b);
    a2 = dup_array(a, 16 * 16 * es);
    b2 = dup_array(b, 16 * 4 * es);
    int ok = 1;
    for (int mode = GCHOL_LAPACK_AUTO; mode <= GCHOL_LAPACK_CPU; ++mode) {
        int info = -7;
        gchol_lapack_route(mode, 0, 0);
        call_potrs(prec, 'L', 0, 3, a, 1, b, 1, &info); ok &= info == 0;
        info = -7; call_potrs(prec, 'U', 16, 0, a, 16, b, 16, &info); ok &= info == 0;
        info = -7; call_posv(prec, 'L', 0, 2, a, 1, b, 1, &info); ok &= info == 0;
        info = -7; call_pftrs(prec, 'T', 'U', 16, 0, a, b, 16, &info); ok &= info == 0;
        info = -7; call_pftrf(prec, 'N', 'L', 0, a, &info); ok &= info == 0;
        if (prec == 'd') {
            int n0 = 0, one = 1, iter = 5;
            info = -7;
            call_dsposv('L', n0, one, a, one, b, one, b, one, b, (float *)b, &iter, &info);
            ok &= info == 0 && iter == 0;
        }
    }
    const int64_t d = testing_count_diff(prec, 16 * 16, a, a2) + testing_count_diff(prec, 16 * 4, b, b2);
    testing_expect(ok && d == 0, "%c: n = 0 / nrhs = 0 quick returns in every mode: info 0, "
                   "nothing written (%lld changed)", prec, (long long)d);
    free(a); free(b); free(a2); free(b2);

    /* lower-case uplo / transr on valid calls: the same bytes as upper case */
    const int n = 300, lda = n + 1;
    for (int mode = GCHOL_LAPACK_GPU; mode <= GCHOL_LAPACK_CPU; ++mode) {
        void *x = spd_poisoned(prec, 'U', n, lda, 99), *y = dup_array(x, (size_t)lda * n * es);
        int ix = -1, iy = -1;
        gchol_lapack_route(mode, -1, -1);
        call_potrf(prec, 'u', n, x, lda, &ix);
        const int px = gchol_lapack_last_path();
        call_potrf(prec, 'U', n, y, lda, &iy);
        const int64_t diff = testing_count_diff(prec, (int64_t)lda * n, x, y);
        testing_expect(ix == 0 && iy == 0 && diff == 0 &&
                       px == (mode == GCHOL_LAPACK_CPU ? GCHOL_LAPACK_RAN_CPU : gpu_path()),
                       "%cpotrf_ 'u' = 'U' bit for bit, mode %s path %s (%lld differ)", prec,
                       mode_name(mode), path_name(px), (long long)diff);
        free(x); free(y);
    }
}

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

/* ---- routing ---------------------------------------------------------------- */
static void routing(void)
{
    int mode;
    int64_t min_n, min_n_solve;
    gchol_lapack_route(GCHOL_LAPACK_AUTO, 300, 400);
    gchol_lapack_get_route(&mode, &min_n, &min_n_solve);
    testing_expect(mode == GCHOL_LAPACK_AUTO && min_n == 300 && min_n_solve == 400,
                   "gchol_lapack_route / get_route: auto, min_n 300, min_n_solve 400 (got %d %lld "
                   "%lld)", mode, (long long)min_n, (long long)min_n_solve);
    potrf_case('d', 'L', 299, GCHOL_LAPACK_AUTO, GCHOL_LAPACK_RAN_CPU);
    potrf_case('d', 'L', 300, GCHOL_LAPACK_AUTO, gpu_path());
    potrf_case('s', 'U', 0, GCHOL_LAPACK_GPU, GCHOL_LAPACK_RAN_CPU); /* n = 0: quick return */
    solve_case('d', 'L', 399, 64, GCHOL_LAPACK_AUTO, GCHOL_LAPACK_RAN_CPU, 0);
    solve_case('d', 'L', 400, 1, GCHOL_LAPACK_AUTO, gpu_path(), 0);
    solve_case('s', 'L', 299, 40, GCHOL_LAPACK_AUTO, GCHOL_LAPACK_RAN_CPU, 1);
    solve_case('s', 'U', 350, 40, GCHOL_LAPACK_AUTO, gpu_path(), 1); /* factor on the GPU, solve on the CPU */

    /* LAPACKE calls dpotrf_: it reaches the shim */
    const int n = 320;
    double *a = spd_poisoned('d', 'U', n, n, 42), *a0 = dup_array(a, (size_t)n * n * 8);
    gchol_lapack_route(GCHOL_LAPACK_GPU, -1, -1);
    const lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', n, a, n);
    const int path = gchol_lapack_last_path();
    const double r = testing_residual_cpu('d', 'U', n, a0, n, a, n);
    testing_expect(info == 0 && path == gpu_path() && r < TESTING_TOL,
                   "LAPACKE_dpotrf reaches the shim: path %s (want %s), resid %.2e",
                   path_name(path), path_name(gpu_path()), r);
    free(a); free(a0);
}

/* ---- threads --------------------------------------------------------------- */
typedef struct { int n, ok, path; double resid; } thread_job_t;
static void *thread_main(void *p)
{
    thread_job_t *j = p;
    double *a = spd_poisoned('d', 'L', j->n, j->n, 100 + j->n);
    double *a0 = dup_array(a, (size_t)j->n * j->n * 8);
    int info = -1;
    for (int rep = 0; rep < 3; ++rep) { /* each from a fresh copy */
        memcpy(a, a0, (size_t)j->n * j->n * 8);
        call_potrf('d', 'L', j->n, a, j->n, &info);
    }
    j->path = gchol_lapack_last_path();
    j->resid = testing_residual_cpu('d', 'L', j->n, a0, j->n, a, j->n);
    j->ok = info == 0;
    free(a); free(a0);
    return NULL;
}
static void threads(void)
{
    enum { T = 4 };
    pthread_t th[T];
    thread_job_t job[T];
    gchol_lapack_route(GCHOL_LAPACK_GPU, -1, -1);
    for (int t = 0; t < T; ++t) {
        job[t] = (thread_job_t){ .n = 700 + 111 * t };
        pthread_create(&th[t], NULL, thread_main, &job[t]);
    }
    int ok = 1;
    for (int t = 0; t < T; ++t) {
        pthread_join(th[t], NULL);
        ok &= job[t].ok && job[t].path == gpu_path() && job[t].resid < TESTING_TOL;
    }
    testing_expect(ok, "4 threads x 3 dpotrf_ at once, mode gpu: paths %s %s %s %s, resid %.1e "
                   "%.1e %.1e %.1e", path_name(job[0].path), path_name(job[1].path),
                   path_name(job[2].path), path_name(job[3].path), job[0].resid, job[1].resid,
                   job[2].resid, job[3].resid);
}

/* ---- ILP64: integers beyond an int ------------------------------------------ */
/* cpu64: run with GCHOL_LAPACK_CPU_LIB = build/testing/cpu64_lapack.so, an ILP64
 * CPU LAPACK (its calls are counted). */
static int cpu64;
static long cpu64_calls(void)
{
    const char *lib = getenv("GCHOL_LAPACK_CPU_LIB");
    void *h = lib ? dlopen(lib, RTLD_LAZY | RTLD_NOLOAD) : NULL;
    long *calls = h ? (long *)dlsym(h, "cpu64_lapack_calls") : NULL;
    return calls ? *calls : -1;
}

/* Calls of the 64_ symbols whose integers do not fit in an int, so that
 * they cannot be narrowed to the LP64 CPU routines:
 *  - illegal arguments: LAPACK's info = -i (the shim's own xerbla line
 *    when no ILP64 CPU LAPACK is there), nothing written, in every mode;
 *  - lda = ldb = 2^32 + 1 with n = 1 (one element each): on the GPU, or on
 *    the ILP64 CPU LAPACK when there is one (--cpu64), or, with neither,
 *    info = GCHOL_ERR_NO_DEVICE and nothing written. */
static void ilp64_wide(void)
{
    const int64_t big = (int64_t)INT32_MAX + 1, huge = (int64_t)1 << 40;
    double a[8], b[8], x[8], work[8], a0[8], b0[8];
    float swork[8];
    for (int i = 0; i < 8; ++i) a[i] = b[i] = x[i] = a0[i] = b0[i] = NAN;
    if (!cpu64) { /* (the stand-in narrows what it gets) */
        for (int mode = GCHOL_LAPACK_AUTO; mode <= GCHOL_LAPACK_CPU; ++mode) {
            gchol_lapack_route(mode, 0, 0);
            int64_t info[6], iter = -777777; /* 0 must reach all 64 bits */
            dpotrf_64_("L", &big, a, W(1), &info[0], 1);
            spotrf_64_("U", W(-huge), (float *)a, W(1), &info[1], 1);
            spotrs_64_("U", W(8), W(-huge), (float *)a, W(8), (float *)b, W(8), &info[2], 1);
            dposv_64_("L", W(big + 8), W(1), a, W(big + 7), b, W(big + 8), &info[3], 1);
            dpftrs_64_("N", "L", W(8), W(-huge), a, b, W(8), &info[4], 1, 1);
            dsposv_64_("L", W(big), W(1), a, W(big), b, W(big), x, W(big - 1), work, swork, &iter,
                       &info[5], 1);
            const int64_t want[6] = { -4, -2, -3, -5, -4, -9 };
            int ok = gchol_lapack_last_path() == GCHOL_LAPACK_RAN_CPU && iter == 0;
            for (int i = 0; i < 6; ++i) ok &= info[i] == want[i];
            const int64_t d = testing_count_diff('d', 8, a, a0) + testing_count_diff('d', 8, b, b0);
            testing_expect(ok && d == 0, "ILP64: 6 illegal arguments beyond an int, mode %s: info "
                           "%lld %lld %lld %lld %lld %lld (want -4 -2 -3 -5 -4 -9), iter %lld, "
                           "%lld entries written", mode_name(mode), (long long)info[0],
                           (long long)info[1], (long long)info[2], (long long)info[3],
                           (long long)info[4], (long long)info[5], (long long)iter, (long long)d);
        }
    }
    const int64_t ld = ((int64_t)1 << 32) + 1;
    for (int mode = GCHOL_LAPACK_GPU; mode <= GCHOL_LAPACK_CPU; ++mode) {
        /* the CPU mode has a CPU path only with an ILP64 CPU LAPACK */
        const int want_path = cpu64 && mode == GCHOL_LAPACK_CPU ? GCHOL_LAPACK_RAN_CPU
                            : have_gpu ? GCHOL_LAPACK_RAN_GPU
                            : cpu64 ? GCHOL_LAPACK_RAN_FALLBACK : GCHOL_LAPACK_RAN_FAILED;
        const int runs = want_path != GCHOL_LAPACK_RAN_FAILED;
        const int on_cpu = want_path == GCHOL_LAPACK_RAN_CPU || want_path == GCHOL_LAPACK_RAN_FALLBACK;
        const long calls0 = cpu64_calls();
        gchol_lapack_route(mode, 0, 0);
        for (int i = 0; i < 8; ++i) a[i] = b[i] = NAN;
        a[0] = 6.25;
        b[0] = 5.0;
        int64_t info1 = -777, info2 = -777;
        dposv_64_("L", W(1), W(1), a, &ld, b, &ld, &info1, 1);
        const int path1 = gchol_lapack_last_path();
        dpotrf_64_("U", W(1), a + 1, &ld, &info2, 1); /* a NaN pivot: info 1 */
        const int path2 = gchol_lapack_last_path();
        const long calls = cpu64_calls() - calls0;
        int ok = path1 == want_path && path2 == want_path;
        if (runs) ok &= info1 == 0 && a[0] == 2.5 && fabs(b[0] - 0.8) < 1e-15 && info2 == 1;
        else ok &= info1 == GCHOL_ERR_NO_DEVICE && a[0] == 6.25 && b[0] == 5.0 &&
                   info2 == GCHOL_ERR_NO_DEVICE;
        if (cpu64) ok &= calls == (on_cpu ? 3 : 0); /* posv's potrf and potrs, potrf */
        for (int i = 1; i < 8; ++i) ok &= (i < 2 || a[i] != a[i]) && b[i] != b[i];
        testing_expect(ok, "ILP64: dposv_64_ / dpotrf_64_ n = 1, lda = ldb = 2^32 + 1, mode %s: "
                       "path %s %s (want %s), info %lld %lld, a %g b %g, ILP64 CPU calls %ld",
                       mode_name(mode), path_name(path1), path_name(path2), path_name(want_path),
                       (long long)info1, (long long)info2, a[0], b[0], calls);
    }
    if (cpu64) {
        /* an ordinary ILP64 call in mode cpu takes the ILP64 CPU routine */
        const long calls0 = cpu64_calls();
        potrf_case('s', 'L', 200, GCHOL_LAPACK_CPU, GCHOL_LAPACK_RAN_CPU);
        testing_expect(cpu64_calls() - calls0 == 1, "ILP64: spotrf_64_ n = 200, mode cpu: the ILP64 "
                       "CPU routine ran (%ld calls)", cpu64_calls() - calls0);
    }
    gchol_lapack_route(GCHOL_LAPACK_AUTO, 128, 2048); /* the defaults */
}

/* ---- device memory taken: redone on the CPU -------------------------------- */
/* Takes all but 64 MB of the device's memory: run it with no other GPU
 * process (make test runs the testers one after another). */
static void out_of_memory(void)
{
    if (!have_gpu) {
        testing_record(TESTING_SKIPPED);
        printf("  skipped device memory exhausted (no GPU)\n");
        return;
    }
    size_t free_b = 0, total_b = 0;
    void *hog = NULL;
    cudaFree(0);
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess ||
        free_b < (128u << 20) || cudaMalloc(&hog, free_b - (64u << 20)) != cudaSuccess) {
        cudaGetLastError();
        testing_expect(0, "device memory exhausted: could not take the device's memory");
        return;
    }
    /* 7000^2 doubles (392 MB) fit neither in the 64 MB left nor with the
     * queue's earlier buffer (at most 201 MB, n = 5000) freed */
    potrf_case('d', 'L', 7000, GCHOL_LAPACK_GPU, GCHOL_LAPACK_RAN_FALLBACK);
    solve_case('d', 'U', 7000, 8, GCHOL_LAPACK_GPU, GCHOL_LAPACK_RAN_FALLBACK, 1);
    cudaFree(hog);
    potrf_case('d', 'L', 7000, GCHOL_LAPACK_GPU, GCHOL_LAPACK_RAN_GPU); /* and back on the GPU */
}

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
