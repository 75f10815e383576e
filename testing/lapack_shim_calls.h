/*
 * lapack_shim_calls.h -- testing_lapack_shim's calls of the shim's routines
 * through either set of symbols: LP64 (int) or ILP64 (the 64_ suffix,
 * int64_t), chosen at run time.
 * Part of testing_lapack_shim.c, which includes it once.
 */
#ifndef GCHOL_TESTING_LAPACK_SHIM_CALLS_H
#define GCHOL_TESTING_LAPACK_SHIM_CALLS_H

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

#endif
