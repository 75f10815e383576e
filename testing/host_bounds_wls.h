/*
 * host_bounds_wls.h -- testing_?host_bounds's least-squares cases: the
 * reference, wls / wls_rfp and dswls on arrays of exactly LAPACK's extent.
 * Part of testing_host_bounds.c, which includes it once.
 */
#ifndef GCHOL_TESTING_HOST_BOUNDS_WLS_H
#define GCHOL_TESTING_HOST_BOUNDS_WLS_H

/* ---------------------------------------------------------------------------
 * The least squares' reference: Y_ref = (W W^T)^{-1} W (D B) with W = A D, in
 * double (LAPACKE_dposv); returns max |Y - Y_ref| / max |Y_ref| (NaN if Y
 * holds NaN), or -1 when out of memory or the reference fails. d NULL: D = I.
 * Cref, unless NULL, receives W W^T's lower triangle rounded (m x m, ld m).
 * ------------------------------------------------------------------------- */
static double wls_error(int64_t m, int64_t n, int64_t nrhs, const FLOAT *A, int64_t lda,
                        const FLOAT *d, const FLOAT *B, int64_t ldb, const FLOAT *Y, int64_t ldy,
                        FLOAT *Cref)
{
    double *S = calloc((size_t)(m * m), sizeof(double)), *R = calloc((size_t)(m * nrhs), sizeof(double));
    double *W = malloc((size_t)max64(1, m * n) * sizeof(double)), err = -1;
    if (!S || !R || !W) goto out;
    for (int64_t k = 0; k < n; k++)
        for (int64_t i = 0; i < m; i++)
            W[i + k * m] = (double)A[i + k * lda] * (d ? (double)d[k] : 1.0);
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)m, (int)n, 1.0, W, (int)m, 0.0, S, (int)m);
    if (Cref)
        for (int64_t j = 0; j < m; j++)
            for (int64_t i = j; i < m; i++) Cref[i + j * m] = Cref[j + i * m] = (FLOAT)S[i + j * m];
    for (int64_t c = 0; c < nrhs; c++)
        for (int64_t k = 0; k < n; k++) {
            const double t = (d ? (double)d[k] : 1.0) * (double)B[k + c * ldb];
            for (int64_t i = 0; i < m; i++) R[i + c * m] += W[i + k * m] * t;
        }
    if (LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', (lapack_int)m, (lapack_int)nrhs, S, (lapack_int)m, R,
                      (lapack_int)m) != 0)
        goto out;
    double num = 0, den = 0;
    for (int64_t c = 0; c < nrhs; c++)
        for (int64_t i = 0; i < m; i++) {
            const double y = (double)Y[i + c * ldy];
            num = y != y ? NAN : fmax(num, fabs(y - R[i + c * m]));
            den = fmax(den, fabs(R[i + c * m]));
            if (num != num) goto nan;
        }
    err = den > 0 ? num / den : num;
    goto out;
nan:
    err = NAN;
out:
    free(S);
    free(R);
    free(W);
    return err;
}

/* ---------------------------------------------------------------------------
 * wls / wls_rfp: (A D^2 A^T) Y = A D^2 B; A m x n (lda), d n, B n x nrhs
 * (ldb), C m x m (ldc) or RFP, Y m x nrhs (ldy).
 * ------------------------------------------------------------------------- */
static void case_wls(char transr, char uplo, int64_t m, int64_t n, int64_t nrhs, int64_t lda,
                     int64_t ldb, int64_t ldc, int64_t ldy, int small_blocks)
{
    char label[200], detail[200] = "";
    snprintf(label, sizeof label,
             "%cwls%s transr=%c uplo=%c m=%lld n=%lld nrhs=%lld lda=%lld ldb=%lld ldc=%lld "
             "ldy=%lld%s", PREC, transr ? "_rfp" : "", transr ? transr : '-', uplo, (long long)m,
             (long long)n, (long long)nrhs, (long long)lda, (long long)ldb, (long long)ldc,
             (long long)ldy, small_blocks ? ", small blocks" : "");
    testing_guard_label("%s", label);
    if (!testing_have_gpu()) { skip_case(label); return; }
    arr_t A, d, B, C, Y;
    int ok = 0;
    if (arr_new(&A, m, n, lda) != 0 || arr_new(&d, n, 1, n) != 0 ||
        arr_new(&B, n, nrhs, ldb) != 0 ||
        (transr ? arr_new_rfp(&C, m) : arr_new(&C, m, m, ldc)) != 0 ||
        arr_new(&Y, m, nrhs, ldy) != 0) {
        snprintf(detail, sizeof detail, "out of host memory");
        goto done;
    }
    put_random(&A, m, n, 900 + (uint64_t)m);
    put_weights(&d, n, 1000 + (uint64_t)n);
    put_random(&B, n, nrhs, 1100 + (uint64_t)n);
    arr_put(&A);
    arr_put(&d);
    arr_put(&B);
    arr_put(&C);
    arr_put(&Y);
    if (small_blocks) {
        const gchol_test_hooks_t hooks = { .host_chunk_bytes = 65536 };
        gchol_test_hooks_set(&hooks);
    }
    int64_t info = -1;
    const int64_t ret = transr
        ? GCHOL(wls_rfp)(transr, uplo, m, n, nrhs, A.g, lda, d.g, B.g, ldb, C.g, Y.g, ldy, &info)
        : GCHOL(wls)(uplo, m, n, nrhs, A.g, lda, d.g, B.g, ldb, C.g, ldc, Y.g, ldy, &info);
    gchol_test_hooks_set(NULL);
    arr_get(&A);
    arr_get(&d);
    arr_get(&B);
    arr_get(&C);
    arr_get(&Y);
    /* Y against the reference, and C's factor: its residual against W W^T */
    FLOAT *Cref = malloc((size_t)(m * m) * ES), *Lf = malloc((size_t)(m * m) * ES);
    const double err = Cref && Lf ? wls_error(m, n, nrhs, A.orig, lda, d.orig, B.orig, ldb, Y.out,
                                              ldy, Cref) : -1;
    double fres = -1;
    if (Cref && Lf) {
        if (transr)
            LAPACKE(tfttr)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)m, C.out, Lf, (lapack_int)m);
        fres = testing_residual_cpu(PREC, uplo, m, Cref, m, transr ? Lf : C.out, transr ? m : ldc);
    }
    free(Cref);
    free(Lf);
    /* cond(A D^2 A^T) stays below ~600 for these shapes (n >= 2m, d in
     * 0.5..2; ~150 for n = 4m): the normal equations lose about cond * eps */
    const double tol = 1e4 * testing_eps(PREC);
    const int64_t changed = (transr ? 0 : changed_outside(&C, uplo, m)) +
                            changed_outside(&Y, 'G', m) +
                            (memcmp(A.out, A.orig, (size_t)A.ext * ES) != 0) +
                            (memcmp(d.out, d.orig, (size_t)d.ext * ES) != 0) +
                            (memcmp(B.out, B.orig, (size_t)B.ext * ES) != 0);
    ok = ret == 0 && info == 0 && err == err && err >= 0 && err < tol && fres == fres &&
         fres >= 0 && fres < TESTING_TOL && changed == 0 && arr_slack_ok(&A) && arr_slack_ok(&d) &&
         arr_slack_ok(&B) && arr_slack_ok(&C) && arr_slack_ok(&Y);
    snprintf(detail, sizeof detail, "ret %lld info %lld relative error %.2e (tol %.1e), C's factor "
             "residual %.2e, %lld changed outside", (long long)ret, (long long)info, err, tol, fres,
             (long long)changed);
done:
    expect_case(ok, label, detail);
    arr_free(&A);
    arr_free(&d);
    arr_free(&B);
    arr_free(&C);
    arr_free(&Y);
}

/* ---------------------------------------------------------------------------
 * dswls (double only): A, d, B up whole, Y down.
 * ------------------------------------------------------------------------- */
#if defined(GCHOL_PREC_D)
static void case_dswls(int64_t m, int64_t n, int64_t nrhs, int64_t lda, int64_t ldb, int64_t ldy,
                       int with_d)
{
    char label[200], detail[200] = "";
    snprintf(label, sizeof label, "dswls m=%lld n=%lld nrhs=%lld lda=%lld ldb=%lld ldy=%lld%s",
             (long long)m, (long long)n, (long long)nrhs, (long long)lda, (long long)ldb,
             (long long)ldy, with_d ? "" : ", d = NULL");
    testing_guard_label("%s", label);
    if (!testing_have_gpu()) { skip_case(label); return; }
    arr_t A, d, B, Y;
    memset(&d, 0, sizeof d);
    int ok = 0;
    if (arr_new(&A, m, n, lda) != 0 || (with_d && arr_new(&d, n, 1, n) != 0) ||
        arr_new(&B, n, nrhs, ldb) != 0 || arr_new(&Y, m, nrhs, ldy) != 0) {
        snprintf(detail, sizeof detail, "out of host memory");
        goto done;
    }
    put_random(&A, m, n, 1200 + (uint64_t)m);
    if (with_d) put_weights(&d, n, 1300 + (uint64_t)n);
    put_random(&B, n, nrhs, 1400 + (uint64_t)n);
    arr_put(&A);
    if (with_d) arr_put(&d);
    arr_put(&B);
    arr_put(&Y);
    int64_t info = -1, iter = -99;
    const int64_t ret = gchol_dswls(m, n, nrhs, A.g, lda, with_d ? d.g : NULL, B.g, ldb, Y.g, ldy,
                                    &iter, &info);
    arr_get(&A);
    if (with_d) arr_get(&d);
    arr_get(&B);
    arr_get(&Y);
    const double err = wls_error(m, n, nrhs, A.orig, lda, with_d ? d.orig : NULL, B.orig, ldb,
                                 Y.out, ldy, NULL);
    const double tol = 1e4 * testing_eps('d');
    const int64_t changed = changed_outside(&Y, 'G', m) +
                            (memcmp(A.out, A.orig, (size_t)A.ext * ES) != 0) +
                            (with_d && memcmp(d.out, d.orig, (size_t)d.ext * ES) != 0) +
                            (memcmp(B.out, B.orig, (size_t)B.ext * ES) != 0);
    /* -31: LAPACK's stopping test can refuse even the rounded solution at order 1 (its
     * residual is up to 2 eps |C| |x|), and the double solve answers; err checks it */
    ok = ret == 0 && info == 0 && (iter >= 0 || iter == -31) && err == err && err >= 0 && err < tol && changed == 0 &&
         arr_slack_ok(&A) && (!with_d || arr_slack_ok(&d)) && arr_slack_ok(&B) && arr_slack_ok(&Y);
    snprintf(detail, sizeof detail, "ret %lld info %lld iter %lld relative error %.2e (tol %.1e), "
             "%lld changed outside", (long long)ret, (long long)info, (long long)iter, err, tol,
             (long long)changed);
done:
    expect_case(ok, label, detail);
    arr_free(&A);
    arr_free(&d);
    arr_free(&B);
    arr_free(&Y);
}
#endif

#endif
