/*
 * syrk_diag_ref.h -- testing_?syrk_diag's inputs of a case (A, d and the
 * initial C, poisoned where nothing may be written), its reference in
 * double and the componentwise error ratio.
 * Part of testing_syrk_diag.c, which includes it once.
 */
#ifndef GCHOL_TESTING_SYRK_DIAG_REF_H
#define GCHOL_TESTING_SYRK_DIAG_REF_H

/* ---------------------------------------------------------------------------
 * Inputs.
 * ------------------------------------------------------------------------- */

/* Column exponent of D_EXTREME: even columns at +-EXT_EXP, odd ones random. */
static int ext_exponent(uint64_t seed, int64_t k)
{
    double u = testing_hash_uniform(seed ^ 0xE7E7ull, k, 1);
    if (k % 2 == 0)
        return u >= 0 ? EXT_EXP : -EXT_EXP;
    return (int)lround(u * EXT_EXP);
}

/* A (lda x n; padding rows NaN) and d (n) of a case. */
static void make_inputs(const case_t *c, FLOAT *A, FLOAT *d)
{
    int64_t m = c->m, n = c->n, lda = case_lda(c);
    testing_fill_nan(PREC, lda * max64(1, n), A);
    testing_fill_nan(PREC, max64(1, n), d);
    if (c->nan_a)
        return;
    for (int64_t j = 0; j < n; j++) {
        int e = c->dmode == D_EXTREME ? ext_exponent(c->seed, j) : 0;
        double v = testing_hash_uniform(c->seed + 1, j, 0);
        double dv = copysign(0.5 + 1.5 * fabs(v), v);
        for (int64_t i = 0; i < m; i++)
            A[i + j * lda] = (FLOAT)ldexp(testing_hash_uniform(c->seed, i, j), e);
        if (c->dmode == D_ZEROS && j % 3 == 1)
            dv = 0;
        d[j] = (FLOAT)ldexp(dv, -e);
    }
}

/* Initial C: the referenced triangle (or the RFP body) random, NaN when
 * beta = 0; the other triangle, padding rows and guards poisoned. */
static void make_c(const case_t *c, FLOAT *C)
{
    int64_t m = c->m, ldc = case_ldc(c);
    double poison = c->poison ? SENTINEL : NAN;
    testing_fill_value(PREC, case_csize(c), C, poison);
    if (c->rfp) {
        FLOAT *body = C + GUARD;
        for (int64_t p = 0; p < testing_rfp_size(m); p++)
            body[p] = c->beta == 0 ? (FLOAT)NAN : (FLOAT)testing_hash_uniform(c->seed + 2, p, 0);
        return;
    }
    for (int64_t j = 0; j < m; j++) {
        int64_t lo = c->uplo == 'L' ? j : 0, hi = c->uplo == 'L' ? m : j + 1;
        for (int64_t i = lo; i < hi; i++)
            C[i + j * ldc] = c->beta == 0 ? (FLOAT)NAN
                                          : (FLOAT)testing_hash_uniform(c->seed + 2, i, j);
    }
}

/* ---------------------------------------------------------------------------
 * Reference and error ratio (double).
 * ------------------------------------------------------------------------- */
typedef struct {
    double ratio, maxerr;
    int    nan;
} ratio_t;

/* Adds one element: result c, reference cref, bound den (already scaled). */
static void ratio_add(ratio_t *r, double c, double cref, double den)
{
    double err = fabs(c - cref), q;
    if (isnan(c) || isnan(err)) {
        r->nan = 1;
        return;
    }
    q = err == 0 ? 0 : den > 0 ? err / den : INFINITY;
    r->ratio = q > r->ratio ? q : r->ratio;
    r->maxerr = err > r->maxerr ? err : r->maxerr;
}

/* The error ratio of result C (host copy of the whole array) against the
 * double reference computed from A, d and the initial C0. Returns -1 when
 * out of memory. */
static int error_ratio(const case_t *c, const FLOAT *A, const FLOAT *d, const FLOAT *C0,
                       const FLOAT *C, ratio_t *r)
{
    const int64_t m = c->m, n = c->n, lda = case_lda(c), ldc = case_ldc(c);
    const int64_t ldb = max64(1, m), nt = testing_rfp_size(m);
    const int lower = c->uplo == 'L';
    const double scale = testing_eps(PREC) * (n > 1 ? sqrt((double)n) : 1.0);
    const double aa = fabs(c->alpha), ab = fabs(c->beta);
    int64_t cnt = c->rfp ? max64(1, nt) : max64(1, m * m);
    double *B = calloc((size_t)(ldb * max64(1, n)), sizeof(double));
    double *W = calloc((size_t)cnt, sizeof(double));
    double *G = calloc((size_t)cnt, sizeof(double));

    r->ratio = r->maxerr = 0;
    r->nan = 0;
    if (!B || !W || !G) {
        free(B); free(W); free(G);
        return -1;
    }
    /* B = A*D (exact for float inputs); left zero when A is not to be read. */
    if (!c->nan_a)
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++)
                B[i + j * ldb] = (double)A[i + j * lda] *
                                 (c->dmode == D_NONE ? 1.0 : (double)d[j]);
    LAPACKE_set_nancheck(0);
    if (c->rfp) {
        const FLOAT *C0b = C0 + GUARD, *Cb = C + GUARD;
        if (c->beta != 0)
            for (int64_t p = 0; p < nt; p++)
                W[p] = (double)C0b[p];
        if (m > 0) {
            LAPACKE_dsfrk(LAPACK_COL_MAJOR, c->transr, c->uplo, 'N', (lapack_int)m,
                          (lapack_int)n, c->alpha, B, (lapack_int)ldb, c->beta, W);
            for (int64_t p = 0; p < ldb * n; p++)
                B[p] = fabs(B[p]);
            LAPACKE_dsfrk(LAPACK_COL_MAJOR, c->transr, c->uplo, 'N', (lapack_int)m,
                          (lapack_int)n, 1.0, B, (lapack_int)ldb, 0.0, G);
        }
        for (int64_t p = 0; p < nt; p++) {
            double den = aa * G[p] + (c->beta != 0 ? ab * fabs((double)C0b[p]) : 0);
            ratio_add(r, (double)Cb[p], W[p], den * scale);
        }
    } else {
        if (m > 0 && n > 0 && c->alpha != 0) {
            cblas_dsyrk(CblasColMajor, lower ? CblasLower : CblasUpper, CblasNoTrans,
                        (blasint)m, (blasint)n, c->alpha, B, (blasint)ldb, 0.0, W, (blasint)m);
            for (int64_t p = 0; p < ldb * n; p++)
                B[p] = fabs(B[p]);
            cblas_dsyrk(CblasColMajor, lower ? CblasLower : CblasUpper, CblasNoTrans,
                        (blasint)m, (blasint)n, 1.0, B, (blasint)ldb, 0.0, G, (blasint)m);
        }
        for (int64_t j = 0; j < m; j++) {
            int64_t lo = lower ? j : 0, hi = lower ? m : j + 1;
            for (int64_t i = lo; i < hi; i++) {
                double c0 = c->beta != 0 ? (double)C0[i + j * ldc] : 0;
                double cref = W[i + j * m] + c->beta * c0;
                double den = aa * G[i + j * m] + ab * fabs(c0);
                ratio_add(r, (double)C[i + j * ldc], cref, den * scale);
            }
        }
    }
    free(B);
    free(W);
    free(G);
    return 0;
}

#endif
