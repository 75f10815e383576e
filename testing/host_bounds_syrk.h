/*
 * host_bounds_syrk.h -- testing_?host_bounds's A D^2 A^T cases: syrk_diag /
 * sfrk_diag on arrays of exactly LAPACK's extent.
 * Part of testing_host_bounds.c, which includes it once.
 */
#ifndef GCHOL_TESTING_HOST_BOUNDS_SYRK_H
#define GCHOL_TESTING_HOST_BOUNDS_SYRK_H

/* ---------------------------------------------------------------------------
 * syrk_diag / sfrk_diag: C := alpha A D^2 A^T + beta C, A m x n (lda),
 * d n, C m x m (ldc) or RFP. rfp_transr = 0 for full storage.
 * ------------------------------------------------------------------------- */

/* d_k = +-(0.5 .. 2) */
static void put_weights(arr_t *d, int64_t n, uint64_t seed)
{
    for (int64_t k = 0; k < n; k++) {
        const double u = testing_hash_uniform(seed, k, 0);
        d->orig[k] = (FLOAT)((u < 0 ? -1 : 1) * (0.5 + 1.5 * fabs(u)));
    }
}

/* Max over the uplo triangle of |C - Cref| / ((|alpha| G + |beta| |C0|) eps
 * sqrt(n)), Cref = alpha A D^2 A^T + beta C0 and G = |A D| |A D|^T in
 * double; C and C0 full m x m (ldc). */
static double syrk_ratio(char uplo, int64_t m, int64_t n, double alpha, const FLOAT *A,
                         int64_t lda, const FLOAT *d, double beta, const FLOAT *C0,
                         const FLOAT *C, int64_t ldc)
{
    double *B = malloc((size_t)max64(1, m * n) * sizeof(double));
    double *P = calloc((size_t)max64(1, m * m), sizeof(double));
    double *G = calloc((size_t)max64(1, m * m), sizeof(double));
    double worst = -1;
    if (!B || !P || !G) goto out;
    for (int64_t k = 0; k < n; k++)
        for (int64_t i = 0; i < m; i++) B[i + k * m] = (double)A[i + k * lda] * (double)d[k];
    cblas_dsyrk(CblasColMajor, uplo == 'L' ? CblasLower : CblasUpper, CblasNoTrans, (int)m,
                (int)n, 1.0, B, (int)m, 0.0, P, (int)m);
    for (int64_t k = 0; k < m * n; k++) B[k] = fabs(B[k]);
    cblas_dsyrk(CblasColMajor, uplo == 'L' ? CblasLower : CblasUpper, CblasNoTrans, (int)m,
                (int)n, 1.0, B, (int)m, 0.0, G, (int)m);
    worst = 0;
    for (int64_t j = 0; j < m; j++)
        for (int64_t i = uplo == 'L' ? j : 0; i <= (uplo == 'L' ? m - 1 : j); i++) {
            const double c0 = beta != 0 ? (double)C0[i + j * ldc] : 0;
            const double ref = alpha * P[i + j * m] + beta * c0;
            const double bound = (fabs(alpha) * G[i + j * m] + fabs(beta) * fabs(c0)) *
                                 testing_eps(PREC) * sqrt((double)max64(1, n));
            const double e = fabs((double)C[i + j * ldc] - ref);
            if (e != e) { worst = NAN; goto out; }
            worst = fmax(worst, bound > 0 ? e / bound : (e > 0 ? INFINITY : 0));
        }
out:
    free(B);
    free(P);
    free(G);
    return worst;
}

static void case_syrk(char transr, char uplo, int64_t m, int64_t n, int64_t lda, int64_t ldc,
                      double beta, int small_blocks, int pinned)
{
    char label[200], detail[200] = "";
    if (transr)
        snprintf(label, sizeof label,
                 "%csfrk_diag transr=%c uplo=%c m=%lld n=%lld lda=%lld beta=%g%s%s", PREC,
                 transr, uplo, (long long)m, (long long)n, (long long)lda, beta,
                 small_blocks ? ", small blocks" : "", pinned ? ", pinned" : "");
    else
        snprintf(label, sizeof label,
                 "%csyrk_diag uplo=%c m=%lld n=%lld lda=%lld ldc=%lld beta=%g%s%s", PREC, uplo,
                 (long long)m, (long long)n, (long long)lda, (long long)ldc, beta,
                 small_blocks ? ", small blocks" : "", pinned ? ", pinned" : "");
    testing_guard_label("%s", label);
    if (!testing_have_gpu()) { skip_case(label); return; }
    arr_t A, d, C, F;
    memset(&F, 0, sizeof F);
    const double alpha = 1.5;
    int ok = 0, reg_a = 0, reg_c = 0;
    if (arr_new(&A, m, n, lda) != 0 || arr_new(&d, n, 1, n) != 0 ||
        (transr ? arr_new_rfp(&C, m) : arr_new(&C, m, m, ldc)) != 0 ||
        arr_new(&F, m, m, m) != 0) {
        snprintf(detail, sizeof detail, "out of host memory");
        goto done;
    }
    put_random(&A, m, n, 600 + (uint64_t)m);
    put_weights(&d, n, 700 + (uint64_t)n);
    if (beta != 0) { /* C0: random symmetric in the triangle */
        for (int64_t j = 0; j < m; j++)
            for (int64_t i = 0; i < m; i++)
                F.orig[i + j * m] = (FLOAT)testing_hash_uniform(800, i > j ? i : j, i > j ? j : i);
        if (transr)
            LAPACKE(trttf)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)m, F.orig, (lapack_int)m,
                           C.orig);
        else
            for (int64_t j = 0; j < m; j++)
                for (int64_t i = uplo == 'L' ? j : 0; i <= (uplo == 'L' ? m - 1 : j); i++)
                    C.orig[i + j * ldc] = F.orig[i + j * m];
    } else { /* beta = 0: C is not read, NaN must not get through */
        if (transr) testing_fill_nan(PREC, C.ext, C.orig);
        else
            for (int64_t j = 0; j < m; j++)
                testing_fill_nan(PREC, uplo == 'L' ? m - j : j + 1,
                                 &C.orig[(uplo == 'L' ? j : 0) + j * ldc]);
    }
    arr_put(&A);
    arr_put(&d);
    arr_put(&C);
    if (pinned) {
        reg_a = cudaHostRegister(A.g, (size_t)A.ext * ES, cudaHostRegisterDefault) == cudaSuccess;
        reg_c = cudaHostRegister(C.g, (size_t)C.ext * ES, cudaHostRegisterDefault) == cudaSuccess;
        (void)cudaGetLastError();
    }
    if (small_blocks) { /* and C back in parts (full storage) whatever m */
        const gchol_test_hooks_t hooks = { .host_chunk_bytes = 65536, .host_parts_from_m = 1 };
        gchol_test_hooks_set(&hooks);
    }
    const int64_t ret = transr
        ? GCHOL(sfrk_diag)(transr, uplo, m, n, (FLOAT)alpha, A.g, lda, d.g, (FLOAT)beta, C.g)
        : GCHOL(syrk_diag)(uplo, m, n, (FLOAT)alpha, A.g, lda, d.g, (FLOAT)beta, C.g, ldc);
    gchol_test_hooks_set(NULL);
    if (reg_a) cudaHostUnregister(A.g);
    if (reg_c) cudaHostUnregister(C.g);
    arr_get(&A);
    arr_get(&d);
    arr_get(&C);
    const FLOAT *Cout = C.out, *C0 = C.orig;
    int64_t ldco = ldc, changed = 0;
    if (transr) { /* both RFP arrays to full m x m: F.out the result, F.orig C0 */
        LAPACKE(tfttr)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)m, C.out, F.out, (lapack_int)m);
        Cout = F.out;
        C0 = F.orig;
        ldco = m;
    } else {
        changed = changed_outside(&C, uplo, m);
    }
    changed += memcmp(A.out, A.orig, (size_t)A.ext * ES) != 0;
    changed += memcmp(d.out, d.orig, (size_t)d.ext * ES) != 0;
    const double ratio = syrk_ratio(uplo, m, n, alpha, A.orig, lda, d.orig, beta, C0, Cout, ldco);
    ok = ret == 0 && ratio == ratio && ratio >= 0 && ratio < TESTING_TOL && changed == 0 &&
         arr_slack_ok(&A) && arr_slack_ok(&d) && arr_slack_ok(&C) && (!pinned || (reg_a && reg_c));
    snprintf(detail, sizeof detail, "ret %lld error ratio %.2e, %lld changed outside",
             (long long)ret, ratio, (long long)changed);
done:
    expect_case(ok, label, detail);
    arr_free(&A);
    arr_free(&d);
    arr_free(&C);
    arr_free(&F);
}

#endif
