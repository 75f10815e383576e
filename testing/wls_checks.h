/*
 * wls_checks.h -- testing_wls's checks of an answer: the normal equations'
 * backward residual and the distance to the references.
 * Part of testing_wls.c, which includes it once.
 */
#ifndef GCHOL_TESTING_WLS_CHECKS_H
#define GCHOL_TESTING_WLS_CHECKS_H

/* ===========================================================================
 * Checks of an answer Y (double, m x nrhs, ld ldy), columns col0..nrhs-1.
 * ========================================================================= */

/* max_j ||A D^2 (b_j - A^T y_j)||_inf / (||A D^2||_inf ||b_j||_inf +
 * ||C||_inf ||y_j||_inf) / (eps max(m, n)); NaN if any entry is NaN. */
static double backward_ratio(const problem_t *p, const double *Y, int64_t ldy, int64_t col0,
                             double eps)
{
    const int64_t m = p->m, n = p->n, nrhs = p->nrhs - col0, ldt = max64(1, n);
    if (nrhs <= 0 || m == 0) return 0;
    const double *B = p->B + col0 * p->ldb;
    Y += col0 * ldy;
    double *T = xmalloc((size_t)(ldt * nrhs) * sizeof(double));
    double *R = xmalloc((size_t)(m * nrhs) * sizeof(double));
    for (int64_t j = 0; j < nrhs; j++)
        memcpy(T + j * ldt, B + j * p->ldb, (size_t)n * sizeof(double));
    if (n > 0) {
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (blasint)n, (blasint)nrhs,
                    (blasint)m, -1.0, p->A, (blasint)p->lda, Y, (blasint)ldy, 1.0, T,
                    (blasint)ldt);
        if (p->d)
            for (int64_t j = 0; j < nrhs; j++)
                for (int64_t i = 0; i < n; i++) T[i + j * ldt] *= p->d[i] * p->d[i];
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (blasint)m, (blasint)nrhs,
                    (blasint)n, 1.0, p->A, (blasint)p->lda, T, (blasint)ldt, 0.0, R, (blasint)m);
    } else {
        memset(R, 0, (size_t)(m * nrhs) * sizeof(double));
    }
    double worst = 0;
    for (int64_t j = 0; j < nrhs && !isnan(worst); j++) {
        double rn = 0, yn = 0, bn = 0;
        for (int64_t i = 0; i < m; i++) {
            rn = fmax(rn, fabs(R[i + j * m]));
            yn = fmax(yn, fabs(Y[i + j * ldy]));
            if (isnan(R[i + j * m]) || isnan(Y[i + j * ldy])) rn = NAN;
        }
        for (int64_t i = 0; i < n; i++) bn = fmax(bn, fabs(B[i + j * p->ldb]));
        if (isnan(rn)) { worst = NAN; break; }
        const double den = p->normAD2 * bn + p->normC * yn;
        const double q = rn == 0 ? 0 : rn / (den > 0 ? den : 1.0);
        worst = fmax(worst, q);
    }
    free(T);
    free(R);
    return worst / (eps * (double)max64(1, max64(m, n)));
}

/* max |Y - R| / max |R| over columns col0.., Y ld ldy, R ld m; NaN on NaN. */
static double rel_diff(int64_t m, int64_t nrhs, int64_t col0, const double *Y, int64_t ldy,
                       const double *R)
{
    double dmax = 0, rmax = 0;
    if (!R) return NAN;
    for (int64_t j = col0; j < nrhs; j++)
        for (int64_t i = 0; i < m; i++) {
            const double diff = fabs(Y[i + j * ldy] - R[i + j * m]);
            if (isnan(diff)) return NAN;
            dmax = fmax(dmax, diff);
            rmax = fmax(rmax, fabs(R[i + j * m]));
        }
    return dmax / (rmax > 0 ? rmax : 1.0);
}

static double fwd_tol(char prec, double kappa)
{
    const double floor_tol = prec == 's' ? FWD_TOL_SINGLE : FWD_TOL_DOUBLE;
    const double est = 30.0 * kappa * testing_eps(prec);
    return isnan(est) || est < floor_tol ? floor_tol : est;
}

#endif
