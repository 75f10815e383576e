/*
 * refine_host.h -- the refinement engine's operations on host arrays (CBLAS)
 * with the low-precision factor emulated, and the test problems: shared by
 * testing_refine_engine.c and testing_refine_block.c.
 */
#ifndef GCHOL_TESTING_REFINE_HOST_H
#define GCHOL_TESTING_REFINE_HOST_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "gchol.h"
#include "refine_engine.h"
#include "util.h"

#define LEN(a) TESTING_LEN(a)

/* ---------------------------------------------------------------------------
 * The ops on host memory.
 * ------------------------------------------------------------------------- */
enum { OP_RESIDUAL, OP_PRECOND, OP_MATVEC, OP_ORTHO, OP_SCAL_COPY, OP_AXPY, OP_GEMV, OP_COUNT };
static const char *const op_name[OP_COUNT] __attribute__((unused)) = { "residual", "precond", "matvec", "orthonormalize",
                                               "scal_copy", "axpy", "gemv_update" };

typedef struct {
    int64_t       n;
    const double *A;        /* n x n, both triangles, ld n */
    const double *L;        /* the emulated factor, lower, ld n */
    int           bits;     /* significand bits of the factor */
    int           round_io; /* M^{-1} rounds its input and output too */
    int64_t       calls[OP_COUNT];
    int           fail_op;  /* -1: none */
    int64_t       fail_at;  /* fail the fail_at-th call (1-based) of fail_op */
    int64_t       after_fail; /* op calls made after the failure */
    int64_t       nan_at;   /* precond call that returns a NaN; 0: none */
    char         *fake;     /* vectors the engine sees: an inaccessible range */
    char         *real;     /* ... standing for this memory, when not NULL   */
    size_t        span;
} host_ops_t;

/* The memory behind a vector the engine passed, as a device's ops would map
 * a device pointer: the engine itself must never touch it. */
static inline double *dev(const host_ops_t *c, const double *p)
{
    const uintptr_t q = (uintptr_t)p, f = (uintptr_t)c->fake;
    if (c->fake && q >= f && q - f < c->span) return (double *)(c->real + (q - f));
    return (double *)p;
}

/* v rounded to nearest (even) with `bits` significand bits. */
static inline double round_bits(double v, int bits)
{
    if (v == 0 || !isfinite(v)) return v;
    int e;
    const double f = frexp(v, &e);
    return ldexp(nearbyint(ldexp(f, bits)), e - bits);
}

/* Counts a call; nonzero: this call fails with that status. */
static inline int64_t enter(host_ops_t *c, int op)
{
    if (c->fail_op >= 0 && c->calls[c->fail_op] >= c->fail_at) ++c->after_fail;
    ++c->calls[op];
    return op == c->fail_op && c->calls[op] == c->fail_at ? GCHOL_ERR_CUBLAS : 0;
}

/* An op's start: its context c, the call counted, an injected failure. */
#define OP_ENTER(op)                                                    \
    host_ops_t *c = ctx;                                                \
    do { const int64_t st_ = enter(c, (op)); if (st_) return st_; } while (0)

/* max |v_i|, NaN if any is NaN. */
static inline double absmax(int64_t n, const double *v)
{
    double m = 0;
    for (int64_t i = 0; i < n; ++i) {
        const double a = fabs(v[i]);
        if (isnan(a)) return a;
        if (a > m) m = a;
    }
    return m;
}

static inline int64_t op_residual(void *ctx, const double *b, const double *x, double *r, double *nh)
{
    OP_ENTER(OP_RESIDUAL);
    b = dev(c, b); x = dev(c, x); r = dev(c, r);
    memcpy(r, b, (size_t)c->n * sizeof(double));
    cblas_dsymv(CblasColMajor, CblasLower, (blasint)c->n, -1, c->A, (blasint)c->n, x, 1, 1, r, 1);
    nh[0] = absmax(c->n, r);
    nh[1] = absmax(c->n, x);
    nh[2] = isnan(nh[0]) ? NAN : cblas_dnrm2((blasint)c->n, r, 1);
    return 0;
}

static inline int64_t op_precond(void *ctx, const double *v, double *z)
{
    OP_ENTER(OP_PRECOND);
    v = dev(c, v); z = dev(c, z);
    for (int64_t i = 0; i < c->n; ++i) z[i] = c->round_io ? round_bits(v[i], c->bits) : v[i];
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, (blasint)c->n, c->L,
                (blasint)c->n, z, 1);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, (blasint)c->n, c->L,
                (blasint)c->n, z, 1);
    if (c->round_io)
        for (int64_t i = 0; i < c->n; ++i) z[i] = round_bits(z[i], c->bits);
    if (c->calls[OP_PRECOND] == c->nan_at) z[c->n / 2] = NAN;
    return 0;
}

static inline int64_t op_matvec(void *ctx, const double *z, double *w)
{
    OP_ENTER(OP_MATVEC);
    z = dev(c, z); w = dev(c, w);
    cblas_dsymv(CblasColMajor, CblasLower, (blasint)c->n, 1, c->A, (blasint)c->n, z, 1, 0, w, 1);
    return 0;
}

/* CGS2: h = V^T w, w -= V h, twice; then the norm and the scaling. */
static inline int64_t op_ortho(void *ctx, const double *V, int64_t ldv, int64_t k, double *w,
                        double *h)
{
    OP_ENTER(OP_ORTHO);
    V = dev(c, V); w = dev(c, w);
    double t[GCHOL_REFINE_DEFAULT_M + 1];
    const blasint n = (blasint)c->n, kc = (blasint)(k + 1);
    if (k + 1 > LEN(t)) return GCHOL_ERR_INVALID_VALUE;
    for (int64_t i = 0; i <= k; ++i) h[i] = 0;
    for (int pass = 0; pass < 2; ++pass) {
        cblas_dgemv(CblasColMajor, CblasTrans, n, kc, 1, V, (blasint)ldv, w, 1, 0, t, 1);
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, kc, -1, V, (blasint)ldv, t, 1, 1, w, 1);
        for (int64_t i = 0; i <= k; ++i) h[i] += t[i];
    }
    h[k + 1] = cblas_dnrm2(n, w, 1);
    if (h[k + 1] != 0) cblas_dscal(n, 1 / h[k + 1], w, 1);
    return 0;
}

static inline int64_t op_scal_copy(void *ctx, double alpha, const double *x, double *y)
{
    OP_ENTER(OP_SCAL_COPY);
    x = dev(c, x); y = dev(c, y);
    for (int64_t i = 0; i < c->n; ++i) y[i] = alpha * x[i];
    return 0;
}

static inline int64_t op_axpy(void *ctx, double alpha, const double *x, double *y)
{
    OP_ENTER(OP_AXPY);
    x = dev(c, x); y = dev(c, y);
    cblas_daxpy((blasint)c->n, alpha, x, 1, y, 1);
    return 0;
}

static inline int64_t op_gemv(void *ctx, const double *Z, int64_t ldz, int64_t k, const double *y,
                       double *x)
{
    OP_ENTER(OP_GEMV);
    Z = dev(c, Z); x = dev(c, x);
    cblas_dgemv(CblasColMajor, CblasNoTrans, (blasint)c->n, (blasint)(k + 1), 1, Z, (blasint)ldz,
                y, 1, 1, x, 1);
    return 0;
}

static inline gchol_refine_ops_t make_ops(host_ops_t *c)
{
    const gchol_refine_ops_t o = { c, c->n, op_residual, op_precond, op_matvec, op_ortho,
                                   op_scal_copy, op_axpy, op_gemv };
    return o;
}

/* ---------------------------------------------------------------------------
 * A problem: A, its emulated factor, b, and the workspace.
 * ------------------------------------------------------------------------- */
typedef struct { const char *name; int bits; } factor_t;
static const factor_t __attribute__((unused)) kFp16 = { "fp16", 11 }, kBf16 = { "bf16", 8 }, kTf32 = { "tf32", 11 },
                      kFp32 = { "fp32", 24 };

enum { EMUL_L, EMUL_AL, EMUL_IO };
static const char *const emul_name[] __attribute__((unused)) = { "L", "A+L", "L+io" };

/* geo: testing_generate_cond_spd (eigenvalues 1 .. 1/kappa geometric, under
 * three reflections); lowr: testing_generate_lowrank_spd, rank n/2, mu =
 * 2/kappa (dense eigenvectors, half the eigenvalues mu). */
enum { FAM_GEO, FAM_LOWRANK };
static const char *const fam_name[] __attribute__((unused)) = { "geo", "lowr" };

typedef struct {
    int64_t n, nrhs;
    double *A, *L, *B, *X;
    double *r, *z, *V, *Z, *host;
    double  anrm, kappa_s; /* kappa_s: cond_2(D^-1/2 A D^-1/2), D = diag(A) */
    host_ops_t c;
    gchol_refine_work_t w;
} problem_t;

static inline void problem_free(problem_t *p)
{
    free(p->A); free(p->L); free(p->B); free(p->X);
    free(p->r); free(p->z); free(p->V); free(p->Z); free(p->host);
}

/* Column j of B: uniform(-1, 1) from the problem's seed. */
static inline void rhs(problem_t *p, int64_t j, uint64_t seed)
{
    for (int64_t i = 0; i < p->n; ++i) p->B[i + j * p->n] = testing_hash_uniform(seed + 1, i, j);
}

/* cond_2 of A scaled to a unit diagonal (Cholesky's errors are invariant
 * under that scaling, so this, not kappa, decides the factor's quality);
 * Inf when not positive definite to working precision, -1 out of memory. */
static inline double scaled_cond(int64_t n, const double *A)
{
    double *S = malloc((size_t)(n * n) * 8), *w = malloc((size_t)n * 8), k = -1;
    if (S && w) {
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = j; i < n; ++i)
                S[i + j * n] = A[i + j * n] / sqrt(A[i + i * n] * A[j + j * n]);
        if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)n, S, (lapack_int)n, w) == 0)
            k = w[0] > 0 ? w[n - 1] / w[0] : INFINITY;
    }
    free(S); free(w);
    return k;
}

/* 0; 1 when the factorization of (rounded) A fails; -1 out of memory. */
static inline int problem_make(problem_t *p, int fam, int64_t n, int64_t nrhs, double kappa,
                        factor_t f, int emul, uint64_t seed)
{
    const int64_t m = GCHOL_REFINE_DEFAULT_M;
    const size_t nn = (size_t)(n * n), hl = gchol_refine_host_len(m);
    memset(p, 0, sizeof *p);
    p->n = n;
    p->nrhs = nrhs;
    p->A = calloc(nn, 8); p->L = malloc(nn * 8);
    p->B = malloc((size_t)(n * nrhs) * 8); p->X = malloc((size_t)(n * nrhs) * 8);
    p->r = malloc((size_t)n * 8); p->z = malloc((size_t)n * 8);
    p->V = malloc((size_t)(n * (m + 1)) * 8); p->Z = malloc((size_t)(n * m) * 8);
    p->host = malloc(hl * 8);
    if (!p->A || !p->L || !p->B || !p->X || !p->r || !p->z || !p->V || !p->Z || !p->host ||
        (fam == FAM_GEO
             ? testing_generate_cond_spd('d', n, p->A, n, kappa, seed)
             : testing_generate_lowrank_spd('d', 'L', n, p->A, n, n / 2, 2 / kappa, seed)) ||
        (p->kappa_s = scaled_cond(n, p->A)) < 0)
        return -1;
    for (int64_t j = 0; j < nrhs; ++j) rhs(p, j, seed);
    p->anrm = testing_norm_inf('d', 'L', n, p->A, n);
    for (size_t i = 0; i < nn; ++i)
        p->L[i] = emul == EMUL_AL ? round_bits(p->A[i], f.bits) : p->A[i];
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)n, p->L, (lapack_int)n) != 0) return 1;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
            p->L[i + j * n] = i < j ? 0 : round_bits(p->L[i + j * n], f.bits);
    p->c = (host_ops_t){ .n = n, .A = p->A, .L = p->L, .bits = f.bits,
                         .round_io = emul == EMUL_IO, .fail_op = -1 };
    p->w = (gchol_refine_work_t){ p->r, p->z, p->V, n, p->Z, n, m, p->host, hl };
    return 0;
}

static const char *mn_of(int method)
{
    return method == GCHOL_REFINE_IR ? "IR" : method == GCHOL_REFINE_GMRES ? "GMRES" : "AUTO";
}

/* The engine on column j of B into column j of X. */
static inline int64_t solve_col(problem_t *p, const gchol_refine_opts_t *o, int64_t j,
                         gchol_refine_result_t *res)
{
    const gchol_refine_ops_t ops = make_ops(&p->c);
    const double *b = p->B + j * p->n;
    memset(p->c.calls, 0, sizeof p->c.calls);
    p->c.after_fail = 0;
    return gchol_refine_solve(&ops, o, &p->w, b, p->X + j * p->n, p->anrm, absmax(p->n, b), res);
}

/* ddrvac's backward error of column j, formed without the ops. */
static inline double col_berr(const problem_t *p, int64_t j)
{
    return testing_solve_ratio('d', 'L', p->n, 1, p->A, p->n, p->B + j * p->n, p->n,
                               p->X + j * p->n, p->n) / (DBL_EPSILON / 2);
}

#endif
