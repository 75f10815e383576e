/*
 * lapack_shim.c -- LAPACK's Fortran symbols for the Cholesky routines
 * (?potrf_, ?potrs_, ?posv_, ?pftrf_, ?pftrs_, and dsposv_), built into
 * lib/libgchol_lapack.so only. Each packs its arguments, checks them as
 * LAPACK does, and hands the call to gchol_lapack_dispatch (lapack_route.c),
 * which runs it on the GPU through gchol's host-memory form (reached through
 * the engine's table, lapack_engine.h) or on the CPU LAPACK behind the shim.
 * Precision-generic (see prec.h).
 *
 * Compiled four times: per precision, and per integer width. The LP64 build
 * defines LAPACK's dpotrf_ & co. with int arguments; the ILP64 build
 * (-DGCHOL_SHIM_ILP64) defines the 64-bit-integer symbols of reference
 * LAPACK's ILP64 interface, dpotrf_64_ & co. (int64_t arguments), which an
 * ILP64 program calls (LAPACKE built with -DLAPACK_ILP64 and the 64_ symbol
 * suffix, Julia, NumPy's 64-bit builds). An ILP64 call's CPU path takes the
 * CPU LAPACK's own dpotrf_64_ if it has one; otherwise its LP64 dpotrf_,
 * with the integers narrowed, when every integer argument fits in an int;
 * otherwise the call has no CPU path and runs on the GPU (see dispatch).
 *
 * The trailing size_t arguments are gfortran's hidden string lengths: never
 * read (C callers may leave them out), and passed as 1 to the CPU LAPACK.
 */
#include "lapack_shim.h"

#include "../kernels/rfp_index.h"
#include "../src/prec.h"

#include <stdatomic.h>

#if defined(GCHOL_PREC_D)
#define PREC_NAME(name) d##name
#define PREC_STR        "d"
#define UP_NAME(name)   "D" name
#define ENGINE(name)    d_##name
#else
#define PREC_NAME(name) s##name
#define PREC_STR        "s"
#define UP_NAME(name)   "S" name
#define ENGINE(name)    s_##name
#endif

#define CAT_(a, b) a##b
#define CAT(a, b)  CAT_(a, b)
#if defined(GCHOL_SHIM_ILP64)
typedef int64_t lapack_int_t;
#define F77(name) CAT(PREC_NAME(name), _64_) /* dpotrf_64_ */
#define F77_WIDE_SUFFIX "_64_"
#else
typedef int lapack_int_t;
#define F77(name) CAT(PREC_NAME(name), _)    /* dpotrf_ */
#define F77_WIDE_SUFFIX "_"
#endif
/* The CPU LAPACK's routine of this build's integer width, and its LP64 one */
#define CPU_NAME(name)   PREC_STR #name F77_WIDE_SUFFIX
#define CPU32_NAME(name) PREC_STR #name "_"

/* The CPU routines of one call, all of one width: *cpu_wide[i] (this build's
 * integers), or, in the ILP64 build, when not all of those exist, the LP64
 * *cpu_lp64[i] with the integers narrowed (*narrow = 1) when `fits` (every
 * integer argument fits in an int). 0 if there are none. (A CPU LAPACK may
 * come from several libraries, symbol by symbol: posv's three routines must
 * not mix widths.) */
static int cpu_routines(int count, void *_Atomic *const cpu_wide[],
                        void *_Atomic *const cpu_lp64[], const char *const wide_name[],
                        const char *const lp64_name[], int fits, int *narrow)
{
    int found = 1;
    *narrow = 0;
#if defined(GCHOL_SHIM_ILP64)
    for (int i = 0; i < count; ++i)
        found = found && gchol_lapack_cpu_symbol_quiet(cpu_wide[i], wide_name[i]) != NULL;
    if (found || !fits) return found;
    *narrow = 1;
    found = 1;
    for (int i = 0; i < count; ++i)
        found = found && gchol_lapack_cpu_symbol(cpu_lp64[i], lp64_name[i]) != NULL;
#else
    (void)cpu_lp64, (void)lp64_name, (void)fits;
    for (int i = 0; i < count; ++i)
        found = found && gchol_lapack_cpu_symbol(cpu_wide[i], wide_name[i]) != NULL;
#endif
    return found;
}
/* CPU_FOUND(potrf, fits, x): the lookup above for one routine, into x.narrow */
#define CPU_FOUND(name, fits, x)                                                               \
    cpu_routines(1, (void *_Atomic *const[]){ &cpu_##name },                                   \
                 (void *_Atomic *const[]){ &cpu32_##name }, (const char *const[]){ CPU_NAME(name) }, \
                 (const char *const[]){ CPU32_NAME(name) }, (fits), &(x).narrow)

/* The caller's info, for the dispatcher (shim_call_t's info / info64). */
#if defined(GCHOL_SHIM_ILP64)
#define SHIM_INFO(p) NULL, (p)
#else
#define SHIM_INFO(p) (p), NULL
#endif

/* An int copy of *p, for the LP64 routine (a narrowed call: it fits). */
#define I32(p) (&(int){ (int)*(p) })
/* Whether v fits in an int (always, in the LP64 build). */
static int fits_int(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* LAPACK's lsame for one letter: case-insensitive. */
static int lsame(const char *c, char upper) { return (*c & ~0x20) == upper; }
static int uplo_bad(const char *uplo) { return !lsame(uplo, 'U') && !lsame(uplo, 'L'); }
/* Real RFP takes 'N' or 'T' (complex: 'N' or 'C'). */
static int transr_bad(const char *t) { return !lsame(t, 'N') && !lsame(t, 'T'); }
static lapack_int_t max1(lapack_int_t n) { return n > 1 ? n : 1; }

/* OpenBLAS's potrf, and the LAPACK routines built on it, do not stop at a NaN
 * pivot (their test is ajj <= 0): they return info = 0 with NaN in the
 * factor, where LAPACK's reference stops at the NaN's column. A NaN pivot
 * makes every later one NaN, so the first NaN on the factor's diagonal is
 * that column: the shim's CPU path reports it, as the GPU path does. */
static lapack_int_t first_nan_pivot(int64_t n, const FLOAT *a, int64_t lda)
{
    for (int64_t j = 0; j < n; ++j)
        if (a[j + j * lda] != a[j + j * lda]) return j + 1;
    return 0;
}
static lapack_int_t first_nan_pivot_rfp(const char *transr, const char *uplo, int64_t n,
                                        const FLOAT *a)
{
    const int t = lsame(transr, 'T'), u = lsame(uplo, 'U');
    for (int64_t j = 0; j < n; ++j) {
        const FLOAT v = a[gchol_rfp_offset(t, u, n, j, j)];
        if (v != v) return j + 1;
    }
    return 0;
}

/* Each routine below: its CPU routine's type for integers I (FN(I)), the
 * slots of its CPU routines (cpu_X this build's width, cpu32_X the LP64 one
 * for a narrowed ILP64 call; unused in the LP64 build), its arguments as the
 * caller passed them, and the runners for the GPU (the engine's host form)
 * and the CPU. */

/* ---- ?potrf: uplo (1), n (2), a (3), lda (4), info (5) ------------------- */
#define POTRF_FN(fn, I) void fn(const char *, const I *, FLOAT *, const I *, I *, size_t)
typedef POTRF_FN(potrf_fn, lapack_int_t);
typedef POTRF_FN(potrf32_fn, int);
static void *_Atomic cpu_potrf, *_Atomic cpu32_potrf;
typedef struct {
    const char *uplo; const lapack_int_t *n; FLOAT *a; const lapack_int_t *lda;
    lapack_int_t *info; int narrow;
} potrf_args;

static int64_t potrf_gpu(const gchol_lapack_engine_t *e, void *p)
{
    potrf_args *x = p;
    int64_t info = 0;
    return e->ENGINE(potrf)(*x->uplo, *x->n, x->a, *x->lda, &info);
}
static void potrf_cpu(void *p)
{
    potrf_args *x = p;
    if (x->narrow) {
        int info = 0;
        ((potrf32_fn *)atomic_load(&cpu32_potrf))(x->uplo, I32(x->n), x->a, I32(x->lda), &info, 1);
        *x->info = info;
    } else {
        ((potrf_fn *)atomic_load(&cpu_potrf))(x->uplo, x->n, x->a, x->lda, x->info, 1);
    }
    if (*x->info == 0 && *x->n > 0 && *x->lda >= *x->n)
        *x->info = first_nan_pivot(*x->n, x->a, *x->lda);
}

/* dpotrf_, spotrf_, dpotrf_64_, spotrf_64_ */
void F77(potrf)(const char *uplo, const lapack_int_t *n, FLOAT *a, const lapack_int_t *lda,
                lapack_int_t *info, size_t uplo_len)
{
    (void)uplo_len;
    potrf_args x = { uplo, n, a, lda, info, 0 };
    const int bad = uplo_bad(uplo) ? 1 : *n < 0 ? 2 : *lda < max1(*n) ? 4 : 0;
    const int cpu = CPU_FOUND(potrf, fits_int(*n) && fits_int(*lda), x);
    const shim_call_t c = { UP_NAME("POTRF"), bad, *n, -1, potrf_gpu, cpu ? potrf_cpu : NULL,
                            &x, SHIM_INFO(info) };
    gchol_lapack_dispatch(&c);
}

/* ---- ?potrs: uplo (1), n (2), nrhs (3), a (4), lda (5), b (6), ldb (7),
 *      info (8) --------------------------------------------------------------- */
#define POTRS_FN(fn, I) \
    void fn(const char *, const I *, const I *, const FLOAT *, const I *, FLOAT *, const I *, I *, size_t)
typedef POTRS_FN(potrs_fn, lapack_int_t);
typedef POTRS_FN(potrs32_fn, int);
static void *_Atomic cpu_potrs, *_Atomic cpu32_potrs;
typedef struct {
    const char *uplo; const lapack_int_t *n, *nrhs; const FLOAT *a; const lapack_int_t *lda;
    FLOAT *b; const lapack_int_t *ldb; lapack_int_t *info; int narrow;
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
    if (x->narrow) {
        int info = 0;
        ((potrs32_fn *)atomic_load(&cpu32_potrs))(x->uplo, I32(x->n), I32(x->nrhs), x->a,
                                                  I32(x->lda), x->b, I32(x->ldb), &info, 1);
        *x->info = info;
    } else {
        ((potrs_fn *)atomic_load(&cpu_potrs))(x->uplo, x->n, x->nrhs, x->a, x->lda, x->b, x->ldb,
                                              x->info, 1);
    }
}
/* The argument check shared by potrs and posv (same order, same numbers). */
static int solve_bad_arg(const char *uplo, const lapack_int_t *n, const lapack_int_t *nrhs,
                         const lapack_int_t *lda, const lapack_int_t *ldb)
{
    return uplo_bad(uplo) ? 1 : *n < 0 ? 2 : *nrhs < 0 ? 3 : *lda < max1(*n) ? 5
         : *ldb < max1(*n) ? 7 : 0;
}
static int solve_fits(const potrs_args *x)
{
    return fits_int(*x->n) && fits_int(*x->nrhs) && fits_int(*x->lda) && fits_int(*x->ldb);
}

/* dpotrs_, spotrs_, dpotrs_64_, spotrs_64_ */
void F77(potrs)(const char *uplo, const lapack_int_t *n, const lapack_int_t *nrhs, const FLOAT *a,
                const lapack_int_t *lda, FLOAT *b, const lapack_int_t *ldb, lapack_int_t *info,
                size_t uplo_len)
{
    (void)uplo_len;
    potrs_args x = { uplo, n, nrhs, a, lda, b, ldb, info, 0 };
    const int cpu = CPU_FOUND(potrs, solve_fits(&x), x);
    const shim_call_t c = { UP_NAME("POTRS"), solve_bad_arg(uplo, n, nrhs, lda, ldb), *n, *nrhs,
                            potrs_gpu, cpu ? potrs_cpu : NULL, &x, SHIM_INFO(info) };
    gchol_lapack_dispatch(&c);
}

/* ---- ?posv: the arguments of potrs, a written ---------------------------------
 * gchol_?posv on the GPU: one trip, the factor stays on the device for the
 * solve. The factorization decides the routing (min_n). */
#define POSV_FN(fn, I) \
    void fn(const char *, const I *, const I *, FLOAT *, const I *, FLOAT *, const I *, I *, size_t)
typedef POSV_FN(posv_fn, lapack_int_t);
typedef POSV_FN(posv32_fn, int);
static void *_Atomic cpu_posv, *_Atomic cpu32_posv;

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
        if (x->narrow) {
            int info = 0;
            ((posv32_fn *)atomic_load(&cpu32_posv))(x->uplo, I32(x->n), I32(x->nrhs),
                                                    (FLOAT *)x->a, I32(x->lda), x->b, I32(x->ldb),
                                                    &info, 1);
            *x->info = info;
        } else {
            ((posv_fn *)atomic_load(&cpu_posv))(x->uplo, x->n, x->nrhs, (FLOAT *)x->a, x->lda,
                                                x->b, x->ldb, x->info, 1);
        }
        return;
    }
    potrf_args f = { x->uplo, x->n, (FLOAT *)x->a, x->lda, x->info, x->narrow };
    potrf_cpu(&f);
    if (*x->info == 0) potrs_cpu(x);
}

/* dposv_, sposv_, dposv_64_, sposv_64_ */
void F77(posv)(const char *uplo, const lapack_int_t *n, const lapack_int_t *nrhs, FLOAT *a,
               const lapack_int_t *lda, FLOAT *b, const lapack_int_t *ldb, lapack_int_t *info,
               size_t uplo_len)
{
    (void)uplo_len;
    potrs_args x = { uplo, n, nrhs, a, lda, b, ldb, info, 0 };
    /* the three at one width: posv for illegal arguments, else potrf, potrs */
    const int cpu = cpu_routines(
        3, (void *_Atomic *const[]){ &cpu_posv, &cpu_potrf, &cpu_potrs },
        (void *_Atomic *const[]){ &cpu32_posv, &cpu32_potrf, &cpu32_potrs },
        (const char *const[]){ CPU_NAME(posv), CPU_NAME(potrf), CPU_NAME(potrs) },
        (const char *const[]){ CPU32_NAME(posv), CPU32_NAME(potrf), CPU32_NAME(potrs) },
        solve_fits(&x), &x.narrow);
    const shim_call_t c = { UP_NAME("POSV"), solve_bad_arg(uplo, n, nrhs, lda, ldb), *n, -1,
                            posv_gpu, cpu ? posv_cpu : NULL, &x, SHIM_INFO(info) };
    gchol_lapack_dispatch(&c);
}

/* ---- ?pftrf: transr (1), uplo (2), n (3), a (4) RFP, info (5) ------------ */
#define PFTRF_FN(fn, I) void fn(const char *, const char *, const I *, FLOAT *, I *, size_t, size_t)
typedef PFTRF_FN(pftrf_fn, lapack_int_t);
typedef PFTRF_FN(pftrf32_fn, int);
static void *_Atomic cpu_pftrf, *_Atomic cpu32_pftrf;
typedef struct {
    const char *transr, *uplo; const lapack_int_t *n; FLOAT *a; lapack_int_t *info; int narrow;
} pftrf_args;

static int64_t pftrf_gpu(const gchol_lapack_engine_t *e, void *p)
{
    pftrf_args *x = p;
    int64_t info = 0;
    return e->ENGINE(pftrf)(*x->transr, *x->uplo, *x->n, x->a, &info);
}
static void pftrf_cpu(void *p)
{
    pftrf_args *x = p;
    if (x->narrow) {
        int info = 0;
        ((pftrf32_fn *)atomic_load(&cpu32_pftrf))(x->transr, x->uplo, I32(x->n), x->a, &info, 1, 1);
        *x->info = info;
    } else {
        ((pftrf_fn *)atomic_load(&cpu_pftrf))(x->transr, x->uplo, x->n, x->a, x->info, 1, 1);
    }
    if (*x->info == 0 && *x->n > 0 && !transr_bad(x->transr) && !uplo_bad(x->uplo))
        *x->info = first_nan_pivot_rfp(x->transr, x->uplo, *x->n, x->a);
}

/* dpftrf_, spftrf_, dpftrf_64_, spftrf_64_ */
void F77(pftrf)(const char *transr, const char *uplo, const lapack_int_t *n, FLOAT *a,
                lapack_int_t *info, size_t transr_len, size_t uplo_len)
{
    (void)transr_len, (void)uplo_len;
    pftrf_args x = { transr, uplo, n, a, info, 0 };
    const int bad = transr_bad(transr) ? 1 : uplo_bad(uplo) ? 2 : *n < 0 ? 3 : 0;
    const int cpu = CPU_FOUND(pftrf, fits_int(*n), x);
    const shim_call_t c = { UP_NAME("PFTRF"), bad, *n, -1, pftrf_gpu, cpu ? pftrf_cpu : NULL,
                            &x, SHIM_INFO(info) };
    gchol_lapack_dispatch(&c);
}

/* ---- ?pftrs: transr (1), uplo (2), n (3), nrhs (4), a (5), b (6), ldb (7),
 *      info (8) --------------------------------------------------------------- */
#define PFTRS_FN(fn, I)                                                                          \
    void fn(const char *, const char *, const I *, const I *, const FLOAT *, FLOAT *, const I *, \
         I *, size_t, size_t)
typedef PFTRS_FN(pftrs_fn, lapack_int_t);
typedef PFTRS_FN(pftrs32_fn, int);
static void *_Atomic cpu_pftrs, *_Atomic cpu32_pftrs;
typedef struct {
    const char *transr, *uplo; const lapack_int_t *n, *nrhs; const FLOAT *a; FLOAT *b;
    const lapack_int_t *ldb; lapack_int_t *info; int narrow;
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
    if (x->narrow) {
        int info = 0;
        ((pftrs32_fn *)atomic_load(&cpu32_pftrs))(x->transr, x->uplo, I32(x->n), I32(x->nrhs),
                                                  x->a, x->b, I32(x->ldb), &info, 1, 1);
        *x->info = info;
    } else {
        ((pftrs_fn *)atomic_load(&cpu_pftrs))(x->transr, x->uplo, x->n, x->nrhs, x->a, x->b,
                                              x->ldb, x->info, 1, 1);
    }
}

/* dpftrs_, spftrs_, dpftrs_64_, spftrs_64_ */
void F77(pftrs)(const char *transr, const char *uplo, const lapack_int_t *n,
                const lapack_int_t *nrhs, const FLOAT *a, FLOAT *b, const lapack_int_t *ldb,
                lapack_int_t *info, size_t transr_len, size_t uplo_len)
{
    (void)transr_len, (void)uplo_len;
    pftrs_args x = { transr, uplo, n, nrhs, a, b, ldb, info, 0 };
    const int bad = transr_bad(transr) ? 1 : uplo_bad(uplo) ? 2 : *n < 0 ? 3 : *nrhs < 0 ? 4
                  : *ldb < max1(*n) ? 7 : 0;
    const int cpu = CPU_FOUND(pftrs, fits_int(*n) && fits_int(*nrhs) && fits_int(*ldb), x);
    const shim_call_t c = { UP_NAME("PFTRS"), bad, *n, *nrhs, pftrs_gpu, cpu ? pftrs_cpu : NULL,
                            &x, SHIM_INFO(info) };
    gchol_lapack_dispatch(&c);
}

#if defined(GCHOL_PREC_D)
/* ---- dsposv: uplo (1), n (2), nrhs (3), a (4), lda (5), b (6), ldb (7),
 *      x (8), ldx (9), work (10), swork (11), iter (12), info (13) ----------
 * gchol_dsposv (host form) on the GPU: same iter codes, a and x as LAPACK
 * leaves them; work and swork are the CPU routine's alone. */
#define DSPOSV_FN(fn, I)                                                                           \
    void fn(const char *, const I *, const I *, double *, const I *, const double *, const I *,   \
         double *, const I *, double *, float *, I *, I *, size_t)
typedef DSPOSV_FN(dsposv_fn, lapack_int_t);
typedef DSPOSV_FN(dsposv32_fn, int);
static void *_Atomic cpu_sposv, *_Atomic cpu32_sposv; /* dsposv (CPU_FOUND's d prefix) */
typedef struct {
    const char *uplo; const lapack_int_t *n, *nrhs; double *a; const lapack_int_t *lda;
    const double *b; const lapack_int_t *ldb; double *x; const lapack_int_t *ldx; double *work;
    float *swork; lapack_int_t *iter, *info; int narrow;
} dsposv_args;

static int64_t dsposv_gpu(const gchol_lapack_engine_t *e, void *p)
{
    dsposv_args *x = p;
    int64_t iter = 0, info = 0;
    int64_t st = e->dsposv(*x->uplo, *x->n, *x->nrhs, x->a, *x->lda, x->b, *x->ldb, x->x,
                           *x->ldx, &iter, &info);
    *x->iter = (lapack_int_t)iter;
    return st;
}
static void dsposv_cpu(void *p)
{
    dsposv_args *x = p;
    if (x->narrow) {
        int iter = 0, info = 0;
        ((dsposv32_fn *)atomic_load(&cpu32_sposv))(x->uplo, I32(x->n), I32(x->nrhs), x->a,
                                                   I32(x->lda), x->b, I32(x->ldb), x->x,
                                                   I32(x->ldx), x->work, x->swork, &iter, &info, 1);
        *x->iter = iter;
        *x->info = info;
    } else {
        ((dsposv_fn *)atomic_load(&cpu_sposv))(x->uplo, x->n, x->nrhs, x->a, x->lda, x->b, x->ldb,
                                               x->x, x->ldx, x->work, x->swork, x->iter, x->info, 1);
    }
    /* after a fallback (iter < 0) a holds dpotrf's factor */
    if (*x->info == 0 && *x->iter < 0 && *x->n > 0 && *x->lda >= *x->n)
        *x->info = first_nan_pivot(*x->n, x->a, *x->lda);
}

/* dsposv_, dsposv_64_ (double build only) */
void F77(sposv)(const char *uplo, const lapack_int_t *n, const lapack_int_t *nrhs, double *a,
                const lapack_int_t *lda, const double *b, const lapack_int_t *ldb, double *x,
                const lapack_int_t *ldx, double *work, float *swork, lapack_int_t *iter,
                lapack_int_t *info, size_t uplo_len)
{
    (void)uplo_len;
    *iter = 0; /* as LAPACK's dsposv, before anything else */
    dsposv_args args = { uplo, n, nrhs, a, lda, b, ldb, x, ldx, work, swork, iter, info, 0 };
    const int bad = uplo_bad(uplo) ? 1 : *n < 0 ? 2 : *nrhs < 0 ? 3 : *lda < max1(*n) ? 5
                  : *ldb < max1(*n) ? 7 : *ldx < max1(*n) ? 9 : 0;
    const int fits = fits_int(*n) && fits_int(*nrhs) && fits_int(*lda) && fits_int(*ldb) &&
                     fits_int(*ldx);
    const int cpu = CPU_FOUND(sposv, fits, args);
    /* n decides; nrhs = 0 (LAPACK still factors a) stays on the CPU */
    const shim_call_t c = { "DSPOSV", bad, *n, *nrhs == 0 ? 0 : -1, dsposv_gpu,
                            cpu ? dsposv_cpu : NULL, &args, SHIM_INFO(info) };
    gchol_lapack_dispatch(&c);
}
#endif
