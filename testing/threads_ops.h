/*
 * threads_ops.h -- what each worker of testing_threads.c calls: fresh
 * random inputs, the calls of one routine family (device forms on the
 * worker's queue, host forms on the library-owned one) and the checks of
 * their answers against LAPACK. testing_threads.c includes it once, after
 * its worker_t and fail().
 */
#ifndef GCHOL_TESTING_THREADS_OPS_H
#define GCHOL_TESTING_THREADS_OPS_H

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

/* dsposv's / dxposv's / dswls's iter on well-conditioned input: 0..30
 * corrections, or -31 (no convergence, or a residual at its rounding level:
 * the double fallback answers, and is counted). */
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
 * posv after it; dsposv, dxposv. */
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
             op_name[host][op] + (op == OP_DSPOSV || op == OP_DXPOSV) /* 'd' + "sposv" */, uplo,
             (long long)n, (long long)nrhs,
             (long long)lda, (long long)ldb);
    gen_spd(w, p, n, A0, lda);
    memcpy(F, A0, abytes);
    gen_rand(w, p, n, nrhs, B0, ldb, 1.0, 0.0);
    memcpy(B, B0, bbytes);
    if (op == OP_DSPOSV || op == OP_DXPOSV) {
        gchol_xposv_result_t xres;
        testing_fill_nan(p, ldb * nrhs, B);
        if (host) {
            ret = op == OP_DSPOSV
                ? CALL(w, p, gchol_dsposv(uplo, n, nrhs, F, lda, B0, ldb, B, ldb, &iter, &info))
                : CALL(w, p, gchol_dxposv(uplo, n, nrhs, F, lda, B0, ldb, B, ldb, NULL, &xres,
                                          &info));
        } else {
            XFER(up(w, w->dM[0], F, abytes) || up(w, w->dV[0], B0, bbytes));
            ret = op == OP_DSPOSV
                ? CALL(w, p, gchol_dsposv_gpu(uplo, n, nrhs, w->dM[0], lda, w->dV[0], ldb,
                                              w->dV[1], ldb, &iter, &info, w->q))
                : CALL(w, p, gchol_dxposv_gpu(uplo, n, nrhs, w->dM[0], lda, w->dV[0], ldb,
                                              w->dV[1], ldb, NULL, &xres, &info, w->q));
            XFER(down(w, B, w->dV[1], bbytes) || down(w, F, w->dM[0], abytes));
        }
        if (op == OP_DXPOSV) iter = xres.iter;
        WANT0(ret, info, op == OP_DSPOSV ? "dsposv" : "dxposv");
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

#endif
