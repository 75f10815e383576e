/*
 * cpu64_lapack.c -- a stand-in for an ILP64 CPU LAPACK (the 64_ symbols of
 * reference LAPACK's ILP64 interface: dpotrf_64_ & co.), so that
 * testing_lapack_shim --cpu64 can check on any machine that the shim's ILP64
 * symbols take such a library's routines when it has them, and not the
 * narrowed LP64 ones. Loaded by the shim through GCHOL_LAPACK_CPU_LIB.
 *
 * Each routine counts its call (cpu64_lapack_calls) and runs OpenBLAS's LP64
 * routine with the integers narrowed. A leading dimension above INT_MAX is
 * passed as INT_MAX: the tester's only such call has n = 1, for which both
 * address the same single element. Other integers must fit (the tester
 * sends no others here).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

_Atomic long cpu64_lapack_calls;

/* OpenBLAS's LP64 routine `name`. */
static void *lp64(const char *name)
{
    static void *lib;
    if (!lib) lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    void *f = lib ? dlsym(lib, name) : NULL;
    if (!f) {
        fprintf(stderr, "cpu64_lapack: no OpenBLAS %s\n", name);
        abort();
    }
    return f;
}

#define N(p)  (&(int){ (int)*(p) })                                /* a count      */
#define LD(p) (&(int){ *(p) > INT_MAX ? INT_MAX : (int)*(p) })     /* a dimension  */
typedef int64_t i64;

#define ROUTINES(P, F)                                                                         \
    void P##potrf_64_(const char *u, const i64 *n, F *a, const i64 *lda, i64 *info, size_t l)  \
    {                                                                                           \
        typedef void fn(const char *, const int *, F *, const int *, int *, size_t);           \
        int i = 0;                                                                              \
        ++cpu64_lapack_calls;                                                                   \
        ((fn *)lp64(#P "potrf_"))(u, N(n), a, LD(lda), &i, l);                                 \
        *info = i;                                                                              \
    }                                                                                           \
    void P##potrs_64_(const char *u, const i64 *n, const i64 *nrhs, const F *a, const i64 *lda, \
                      F *b, const i64 *ldb, i64 *info, size_t l)                                \
    {                                                                                           \
        typedef void fn(const char *, const int *, const int *, const F *, const int *, F *,   \
                        const int *, int *, size_t);                                            \
        int i = 0;                                                                              \
        ++cpu64_lapack_calls;                                                                   \
        ((fn *)lp64(#P "potrs_"))(u, N(n), N(nrhs), a, LD(lda), b, LD(ldb), &i, l);            \
        *info = i;                                                                              \
    }                                                                                           \
    void P##posv_64_(const char *u, const i64 *n, const i64 *nrhs, F *a, const i64 *lda, F *b, \
                     const i64 *ldb, i64 *info, size_t l)                                       \
    {                                                                                           \
        typedef void fn(const char *, const int *, const int *, F *, const int *, F *,         \
                        const int *, int *, size_t);                                            \
        int i = 0;                                                                              \
        ++cpu64_lapack_calls;                                                                   \
        ((fn *)lp64(#P "posv_"))(u, N(n), N(nrhs), a, LD(lda), b, LD(ldb), &i, l);             \
        *info = i;                                                                              \
    }                                                                                           \
    void P##pftrf_64_(const char *t, const char *u, const i64 *n, F *a, i64 *info, size_t l1,  \
                      size_t l2)                                                                \
    {                                                                                           \
        typedef void fn(const char *, const char *, const int *, F *, int *, size_t, size_t);  \
        int i = 0;                                                                              \
        ++cpu64_lapack_calls;                                                                   \
        ((fn *)lp64(#P "pftrf_"))(t, u, N(n), a, &i, l1, l2);                                  \
        *info = i;                                                                              \
    }                                                                                           \
    void P##pftrs_64_(const char *t, const char *u, const i64 *n, const i64 *nrhs, const F *a, \
                      F *b, const i64 *ldb, i64 *info, size_t l1, size_t l2)                    \
    {                                                                                           \
        typedef void fn(const char *, const char *, const int *, const int *, const F *, F *,  \
                        const int *, int *, size_t, size_t);                                    \
        int i = 0;                                                                              \
        ++cpu64_lapack_calls;                                                                   \
        ((fn *)lp64(#P "pftrs_"))(t, u, N(n), N(nrhs), a, b, LD(ldb), &i, l1, l2);             \
        *info = i;                                                                              \
    }

ROUTINES(d, double)
ROUTINES(s, float)

void dsposv_64_(const char *u, const i64 *n, const i64 *nrhs, double *a, const i64 *lda,
                const double *b, const i64 *ldb, double *x, const i64 *ldx, double *work,
                float *swork, i64 *iter, i64 *info, size_t l)
{
    typedef void fn(const char *, const int *, const int *, double *, const int *, const double *,
                    const int *, double *, const int *, double *, float *, int *, int *, size_t);
    int it = 0, i = 0;
    ++cpu64_lapack_calls;
    ((fn *)lp64("dsposv_"))(u, N(n), N(nrhs), a, LD(lda), b, LD(ldb), x, LD(ldx), work, swork, &it,
                            &i, l);
    *iter = it;
    *info = i;
}
