/*
 * lapack_shim.c -- LAPACK's Fortran symbols for the Cholesky routines
 * (?potrf_, ?potrs_, ?posv_, ?pftrf_, ?pftrs_, and dsposv_), built into
 * lib/libgchol_lapack.so only. Each packs its arguments, checks them as
 * LAPACK does, and hands the call to gchol_lapack_dispatch (lapack_route.c),
 * which runs it on the GPU through gchol's host-memory form (reached through
 * the engine's table, lapack_engine.h) or on the CPU LAPACK behind the shim.
 * Precision-generic (see prec.h).
 *
 * The trailing size_t arguments are gfortran's hidden string lengths: never
 * read (C callers may leave them out), and passed as 1 to the CPU LAPACK.
 */
#include "lapack_shim.h"
#include "prec.h"
#include "../kernels/rfp_index.h"

#include <stdatomic.h>

#if defined(GCHOL_PREC_D)
#define F77(name)      d##name##_
#define F77_NAME(name) "d" #name "_"
#define UP_NAME(name)  "D" name
#define ENGINE(name)   d_##name
#else
#define F77(name)      s##name##_
#define F77_NAME(name) "s" #name "_"
#define UP_NAME(name)  "S" name
#define ENGINE(name)   s_##name
#endif

/* LAPACK's lsame for one letter: case-insensitive. */
static int lsame(const char *c, char upper) { return (*c & ~0x20) == upper; }
static int uplo_bad(const char *uplo) { return !lsame(uplo, 'U') && !lsame(uplo, 'L'); }
/* Real RFP takes 'N' or 'T' (complex: 'N' or 'C'). */
static int transr_bad(const char *t) { return !lsame(t, 'N') && !lsame(t, 'T'); }
static int max1(int n) { return n > 1 ? n : 1; }

/* OpenBLAS's potrf, and the LAPACK routines built on it, do not stop at a NaN
 * pivot (their test is ajj <= 0): they return info = 0 with NaN in the
 * factor, where LAPACK's reference stops at the NaN's column. A NaN pivot
 * makes every later one NaN, so the first NaN on the factor's diagonal is
 * that column: the shim's CPU path reports it, as the GPU path does. */
static int first_nan_pivot(int n, const FLOAT *a, int64_t lda)
{
    for (int j = 0; j < n; ++j)
        if (a[j + j * lda] != a[j + j * lda]) return j + 1;
    return 0;
}
static int first_nan_pivot_rfp(const char *transr, const char *uplo, int n, const FLOAT *a)
{
    const int t = lsame(transr, 'T'), u = lsame(uplo, 'U');
    for (int j = 0; j < n; ++j) {
        const FLOAT v = a[gchol_rfp_offset(t, u, n, j, j)];
        if (v != v) return j + 1;
    }
    return 0;
}

/* ---- ?potrf: uplo (1), n (2), a (3), lda (4), info (5) ------------------- */
typedef void potrf_fn(const char *, const int *, FLOAT *, const int *, int *, size_t);
static void *_Atomic cpu_potrf;
typedef struct { const char *uplo; const int *n; FLOAT *a; const int *lda; int *info; } potrf_args;

static int64_t potrf_gpu(const gchol_lapack_engine_t *e, void *p)
{
    potrf_args *x = p;
    int64_t info = 0;
    return e->ENGINE(potrf)(*x->uplo, *x->n, x->a, *x->lda, &info);
}
static void potrf_cpu(void *p)
{
    potrf_args *x = p;
    ((potrf_fn *)atomic_load(&cpu_potrf))(x->uplo, x->n, x->a, x->lda, x->info, 1);
    if (*x->info == 0 && *x->n > 0 && *x->lda >= *x->n)
        *x->info = first_nan_pivot(*x->n, x->a, *x->lda);
}

void F77(potrf)(const char *uplo, const int *n, FLOAT *a, const int *lda, int *info,
                size_t uplo_len)
{
    (void)uplo_len;
    potrf_args x = { uplo, n, a, lda, info };
    const int bad = uplo_bad(uplo) ? 1 : *n < 0 ? 2 : *lda < max1(*n) ? 4 : 0;
    const shim_call_t c = { UP_NAME("POTRF"), bad, *n, -1, potrf_gpu,
                            gchol_lapack_cpu_symbol(&cpu_potrf, F77_NAME(potrf)) ? potrf_cpu : NULL,
                            &x, info };
    gchol_lapack_dispatch(&c);
}

/* ---- ?potrs: uplo (1), n (2), nrhs (3), a (4), lda (5), b (6), ldb (7),
 *      info (8) --------------------------------------------------------------- */
typedef void potrs_fn(const char *, const int *, const int *, const FLOAT *, const int *, FLOAT *,
                      const int *, int *, size_t);
static void *_Atomic cpu_potrs;
typedef struct {
    const char *uplo; const int *n, *nrhs; const FLOAT *a; const int *lda; FLOAT *b;
    const int *ldb; int *info;
} potrs_args;

static int64_t potrs_gpu(const gchol_lapack_engine_t *e, void *p)
{
    potrs_args *x = p;
    int64_t info = 0;
    return e->ENGINE(potrs)(*x->uplo, *x->n, *x->nrhs, x->a, *x->lda, x->b, *x->ldb, &info);
}
static void potrs_cpu(void *p)
{
    potrs_args *x = p;
    ((potrs_fn *)atomic_load(&cpu_potrs))(x->uplo, x->n, x->nrhs, x->a, x->lda, x->b, x->ldb,
                                          x->info, 1);
}
/* The argument check shared by potrs and posv (same order, same numbers). */
static int solve_bad_arg(const char *uplo, const int *n, const int *nrhs, const int *lda,
                         const int *ldb)
{
    return uplo_bad(uplo) ? 1 : *n < 0 ? 2 : *nrhs < 0 ? 3 : *lda < max1(*n) ? 5
         : *ldb < max1(*n) ? 7 : 0;
}

void F77(potrs)(const char *uplo, const int *n, const int *nrhs, const FLOAT *a, const int *lda,
                FLOAT *b, const int *ldb, int *info, size_t uplo_len)
{
    (void)uplo_len;
    potrs_args x = { uplo, n, nrhs, a, lda, b, ldb, info };
    const shim_call_t c = { UP_NAME("POTRS"), solve_bad_arg(uplo, n, nrhs, lda, ldb), *n, *nrhs,
                            potrs_gpu,
                            gchol_lapack_cpu_symbol(&cpu_potrs, F77_NAME(potrs)) ? potrs_cpu : NULL,
                            &x, info };
    gchol_lapack_dispatch(&c);
}

/* ---- ?posv: the arguments of potrs, a written ---------------------------------
 * gchol_?posv on the GPU: one trip, the factor stays on the device for the
 * solve. The factorization decides the routing (min_n). */
typedef void posv_fn(const char *, const int *, const int *, FLOAT *, const int *, FLOAT *,
                     const int *, int *, size_t);
static void *_Atomic cpu_posv;

static int64_t posv_gpu(const gchol_lapack_engine_t *e, void *p)
{
    potrs_args *x = p;
    int64_t info = 0;
    return e->ENGINE(posv)(*x->uplo, *x->n, *x->nrhs, (FLOAT *)x->a, *x->lda, x->b, *x->ldb,
                           &info);
}

/* LAPACK's own ?posv for an illegal argument (its xerbla names ?POSV);
 * otherwise what ?posv does, potrf then potrs, with potrf's NaN check. */
static void posv_cpu(void *p)
{
    potrs_args *x = p;
    if (solve_bad_arg(x->uplo, x->n, x->nrhs, x->lda, x->ldb)) {
        ((posv_fn *)atomic_load(&cpu_posv))(x->uplo, x->n, x->nrhs, (FLOAT *)x->a, x->lda, x->b,
                                            x->ldb, x->info, 1);
        return;
    }
    potrf_args f = { x->uplo, x->n, (FLOAT *)x->a, x->lda, x->info };
    potrf_cpu(&f);
    if (*x->info == 0) potrs_cpu(x);
}

void F77(posv)(const char *uplo, const int *n, const int *nrhs, FLOAT *a, const int *lda, FLOAT *b,
               const int *ldb, int *info, size_t uplo_len)
{
    (void)uplo_len;
    potrs_args x = { uplo, n, nrhs, a, lda, b, ldb, info };
    const int cpu_found = gchol_lapack_cpu_symbol(&cpu_posv, F77_NAME(posv)) &&
                          gchol_lapack_cpu_symbol(&cpu_potrf, F77_NAME(potrf)) &&
                          gchol_lapack_cpu_symbol(&cpu_potrs, F77_NAME(potrs));
    const shim_call_t c = { UP_NAME("POSV"), solve_bad_arg(uplo, n, nrhs, lda, ldb), *n, -1,
                            posv_gpu, cpu_found ? posv_cpu : NULL, &x, info };
    gchol_lapack_dispatch(&c);
}

/* ---- ?pftrf: transr (1), uplo (2), n (3), a (4) RFP, info (5) ------------ */
typedef void pftrf_fn(const char *, const char *, const int *, FLOAT *, int *, size_t, size_t);
static void *_Atomic cpu_pftrf;
typedef struct { const char *transr, *uplo; const int *n; FLOAT *a; int *info; } pftrf_args;

static int64_t pftrf_gpu(const gchol_lapack_engine_t *e, void *p)
{
    pftrf_args *x = p;
    int64_t info = 0;
    return e->ENGINE(pftrf)(*x->transr, *x->uplo, *x->n, x->a, &info);
}
static void pftrf_cpu(void *p)
{
    pftrf_args *x = p;
    ((pftrf_fn *)atomic_load(&cpu_pftrf))(x->transr, x->uplo, x->n, x->a, x->info, 1, 1);
    if (*x->info == 0 && *x->n > 0 && !transr_bad(x->transr) && !uplo_bad(x->uplo))
        *x->info = first_nan_pivot_rfp(x->transr, x->uplo, *x->n, x->a);
}

void F77(pftrf)(const char *transr, const char *uplo, const int *n, FLOAT *a, int *info,
                size_t transr_len, size_t uplo_len)
{
    (void)transr_len, (void)uplo_len;
    pftrf_args x = { transr, uplo, n, a, info };
    const int bad = transr_bad(transr) ? 1 : uplo_bad(uplo) ? 2 : *n < 0 ? 3 : 0;
    const shim_call_t c = { UP_NAME("PFTRF"), bad, *n, -1, pftrf_gpu,
                            gchol_lapack_cpu_symbol(&cpu_pftrf, F77_NAME(pftrf)) ? pftrf_cpu : NULL,
                            &x, info };
    gchol_lapack_dispatch(&c);
}

/* ---- ?pftrs: transr (1), uplo (2), n (3), nrhs (4), a (5), b (6), ldb (7),
 *      info (8) --------------------------------------------------------------- */
typedef void pftrs_fn(const char *, const char *, const int *, const int *, const FLOAT *, FLOAT *,
                      const int *, int *, size_t, size_t);
static void *_Atomic cpu_pftrs;
typedef struct {
    const char *transr, *uplo; const int *n, *nrhs; const FLOAT *a; FLOAT *b; const int *ldb;
    int *info;
} pftrs_args;

static int64_t pftrs_gpu(const gchol_lapack_engine_t *e, void *p)
{
    pftrs_args *x = p;
    int64_t info = 0;
    return e->ENGINE(pftrs)(*x->transr, *x->uplo, *x->n, *x->nrhs, x->a, x->b, *x->ldb, &info);
}
static void pftrs_cpu(void *p)
{
    pftrs_args *x = p;
    ((pftrs_fn *)atomic_load(&cpu_pftrs))(x->transr, x->uplo, x->n, x->nrhs, x->a, x->b, x->ldb,
                                          x->info, 1, 1);
}

void F77(pftrs)(const char *transr, const char *uplo, const int *n, const int *nrhs,
                const FLOAT *a, FLOAT *b, const int *ldb, int *info, size_t transr_len,
                size_t uplo_len)
{
    (void)transr_len, (void)uplo_len;
    pftrs_args x = { transr, uplo, n, nrhs, a, b, ldb, info };
    const int bad = transr_bad(transr) ? 1 : uplo_bad(uplo) ? 2 : *n < 0 ? 3 : *nrhs < 0 ? 4
                  : *ldb < max1(*n) ? 7 : 0;
    const shim_call_t c = { UP_NAME("PFTRS"), bad, *n, *nrhs, pftrs_gpu,
                            gchol_lapack_cpu_symbol(&cpu_pftrs, F77_NAME(pftrs)) ? pftrs_cpu : NULL,
                            &x, info };
    gchol_lapack_dispatch(&c);
}

#if defined(GCHOL_PREC_D)
/* ---- dsposv: uplo (1), n (2), nrhs (3), a (4), lda (5), b (6), ldb (7),
 *      x (8), ldx (9), work (10), swork (11), iter (12), info (13) ----------
 * gchol_dsposv (host form) on the GPU: same iter codes, a and x as LAPACK
 * leaves them; work and swork are the CPU routine's alone. */
typedef void dsposv_fn(const char *, const int *, const int *, double *, const int *,
                       const double *, const int *, double *, const int *, double *, float *,
                       int *, int *, size_t);
static void *_Atomic cpu_dsposv;
typedef struct {
    const char *uplo; const int *n, *nrhs; double *a; const int *lda; const double *b;
    const int *ldb; double *x; const int *ldx; double *work; float *swork; int *iter, *info;
} dsposv_args;

static int64_t dsposv_gpu(const gchol_lapack_engine_t *e, void *p)
{
    dsposv_args *x = p;
    int64_t iter = 0, info = 0;
    int64_t st = e->dsposv(*x->uplo, *x->n, *x->nrhs, x->a, *x->lda, x->b, *x->ldb, x->x,
                           *x->ldx, &iter, &info);
    *x->iter = (int)iter;
    return st;
}
static void dsposv_cpu(void *p)
{
    dsposv_args *x = p;
    ((dsposv_fn *)atomic_load(&cpu_dsposv))(x->uplo, x->n, x->nrhs, x->a, x->lda, x->b, x->ldb,
                                            x->x, x->ldx, x->work, x->swork, x->iter, x->info, 1);
    /* after a fallback (iter < 0) a holds dpotrf's factor */
    if (*x->info == 0 && *x->iter < 0 && *x->n > 0 && *x->lda >= *x->n)
        *x->info = first_nan_pivot(*x->n, x->a, *x->lda);
}

void dsposv_(const char *uplo, const int *n, const int *nrhs, double *a, const int *lda,
             const double *b, const int *ldb, double *x, const int *ldx, double *work,
             float *swork, int *iter, int *info, size_t uplo_len)
{
    (void)uplo_len;
    *iter = 0; /* as LAPACK's dsposv, before anything else */
    dsposv_args args = { uplo, n, nrhs, a, lda, b, ldb, x, ldx, work, swork, iter, info };
    const int bad = uplo_bad(uplo) ? 1 : *n < 0 ? 2 : *nrhs < 0 ? 3 : *lda < max1(*n) ? 5
                  : *ldb < max1(*n) ? 7 : *ldx < max1(*n) ? 9 : 0;
    /* n decides; nrhs = 0 (LAPACK still factors a) stays on the CPU */
    const shim_call_t c = { "DSPOSV", bad, *n, *nrhs == 0 ? 0 : -1, dsposv_gpu,
                            gchol_lapack_cpu_symbol(&cpu_dsposv, "dsposv_") ? dsposv_cpu : NULL,
                            &args, info };
    gchol_lapack_dispatch(&c);
}
#endif
