/*
 * dsposv_badargs.h -- testing_dsposv's argument checks, the host form without a
 * GPU, and dsposv's kernels (kernels/mixed_prec.cu) alone.
 * Part of testing_dsposv.c, which includes it once.
 */
#ifndef GCHOL_TESTING_DSPOSV_BADARGS_H
#define GCHOL_TESTING_DSPOSV_BADARGS_H

/* ===========================================================================
 * Argument checks, the host form without a GPU, the kernels.
 * ========================================================================= */
static int64_t dsposv_w(const testing_args_t *a)
{
    return gchol_dsposv_gpu(a->uplo, a->n, a->nrhs, (double *)a->A, a->ld, (const double *)a->C,
                            a->ldc, (double *)a->X, a->ldx, a->iter, a->info, a->q);
}
static int64_t dsposv_x_w(const testing_args_t *a)
{
    return gchol_dsposv_expert_gpu(a->uplo, a->n, a->nrhs, (double *)a->A, a->ld,
                                   (const double *)a->C, a->ldc, (double *)a->X, a->ldx, a->iter,
                                   a->info, a->opts, a->q);
}
static int64_t dsposv_host_w(const testing_args_t *a)
{
    return gchol_dsposv(a->uplo, a->n, a->nrhs, (double *)a->A, a->ld, (const double *)a->C,
                        a->ldc, (double *)a->X, a->ldx, a->iter, a->info);
}

static const testing_entry_t arg_entries[] = {
    { "gchol_dsposv_gpu", dsposv_w, 0, 1, 0,
      { R_UPLO, R_N, R_NRHS, R_A, R_LD, R_C, R_LDC, R_X, R_LDX, R_ITER, R_INFO, R_QUEUE } },
    { "gchol_dsposv_expert_gpu", dsposv_x_w, 0, 1, 0,
      { R_UPLO, R_N, R_NRHS, R_A, R_LD, R_C, R_LDC, R_X, R_LDX, R_ITER, R_INFO, R_OPTS,
        R_QUEUE } },
    { "gchol_dsposv", dsposv_host_w, 1, 1, 0,
      { R_UPLO, R_N, R_NRHS, R_A, R_LD, R_C, R_LDC, R_X, R_LDX, R_ITER, R_INFO } },
};

/* Without a GPU the host form reports GCHOL_ERR_NO_DEVICE, iter 0, and
 * leaves every array alone. */
static void run_host_no_device(void)
{
    enum { LD = 24 };
    double A[LD * LD], B[LD * 2], X[LD * 2], sA[LD * LD], sB[LD * 2], sX[LD * 2];
    if (testing_have_gpu())
        return; /* with a GPU it would solve: the suite covers that */
    printf("-- the host form without a GPU --\n");
    /* n = 8 goes to the double fallback at once (iter -1), n = 20 refines */
    const int64_t sizes[] = { 8, 20 };
    for (int k = 0; k < LEN(sizes); k++) {
        const int64_t n = sizes[k], want_iter = n < 17 ? -1 : 0;
        int64_t info = INFO_POISON, iter = INFO_POISON, ret;
        testing_fill_nan('d', LD * LD, A);
        testing_generate_spd('d', 'L', n, A, LD, 3);
        testing_fill_nan('d', LD * 2, B);
        testing_fill_nan('d', LD * 2, X);
        for (int i = 0; i < n; i++) B[i] = 1.0 + i;
        memcpy(sA, A, sizeof(A)); memcpy(sB, B, sizeof(B)); memcpy(sX, X, sizeof(X));
        ret = gchol_dsposv('L', n, 2, A, LD, B, LD, X, LD, &iter, &info);
        testing_expect(ret == GCHOL_ERR_NO_DEVICE && info == ret && iter == want_iter &&
                           !memcmp(A, sA, sizeof(A)) && !memcmp(B, sB, sizeof(B)) &&
                           !memcmp(X, sX, sizeof(X)),
                       "gchol_dsposv without GPU, n = %lld: ret %lld info %lld iter %lld, arrays untouched",
                       (long long)n, (long long)ret, (long long)info, (long long)iter);
    }
}

/* dsposv's kernels (kernels/mixed_prec.cu) against the CPU: the infinity
 * norm from one stored triangle against LAPACKE_dlansy('I') with the other
 * triangle huge (it must not be read), n across several tiles; the
 * triangle conversion's overflow flag ignores the other triangle and sees
 * its own; column maxima. */
static void test_mixed_kernels(int gpu)
{
    static const int64_t ns[] = { 1, 5, 1000, 2500 };
    if (!testing_case_in_part()) return;
    if (!gpu) {
        printf("  skipped dsposv kernels: dlansy_inf, d2s, dcol_absmax (no GPU)\n");
        testing_record(TESTING_SKIPPED);
        return;
    }
    for (size_t t = 0; t < sizeof(ns) / sizeof(ns[0]); t++)
        for (int upper = 0; upper < 2; upper++) {
            const int64_t n = ns[t], lda = n + 3;
            const size_t bytes = (size_t)(lda * n) * sizeof(double);
            double *A = malloc(bytes), *dA = NULL, *dwork = NULL, *dnorm = NULL, got = -1;
            float *dS = NULL;
            int *dflag = NULL, flag_tri = -1, flag_full = -1;
            double maxref[3] = { 0, 0, 0 }, maxgot[3] = { -1, -1, -1 };
            int ok = A != NULL;
            for (int64_t j = 0; ok && j < n; j++)
                for (int64_t i = 0; i < lda; i++) {
                    const int referenced = i < n && (upper ? i <= j : i >= j);
                    A[i + j * lda] = referenced ? testing_hash_uniform(77, i, j) * (i == j ? 3.0 : 1.0)
                                                : (i < n ? 1e39 : NAN);
                }
            ok = ok && !TESTING_CUDA(cudaMalloc((void **)&dA, bytes)) &&
                 !TESTING_CUDA(cudaMalloc((void **)&dwork, gchol_lansy_inf_work(n) * sizeof(double))) &&
                 !TESTING_CUDA(cudaMalloc((void **)&dnorm, 4 * sizeof(double))) &&
                 !TESTING_CUDA(cudaMalloc((void **)&dS, (size_t)(lda * n) * sizeof(float))) &&
                 !TESTING_CUDA(cudaMalloc((void **)&dflag, sizeof(int))) &&
                 !TESTING_CUDA(cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice)) &&
                 !TESTING_CUDA(gchol_dlansy_inf_launch(n, dA, lda, upper, dwork, dnorm, 0)) &&
                 !TESTING_CUDA(cudaMemcpy(&got, dnorm, sizeof(double), cudaMemcpyDeviceToHost)) &&
                 !TESTING_CUDA(cudaMemset(dflag, 0, sizeof(int))) &&
                 !TESTING_CUDA(gchol_d2s_launch(n, n, dA, lda, dS, lda, upper ? 2 : 1, dflag, 0)) &&
                 !TESTING_CUDA(cudaMemcpy(&flag_tri, dflag, sizeof(int), cudaMemcpyDeviceToHost)) &&
                 !TESTING_CUDA(cudaMemset(dflag, 0, sizeof(int))) &&
                 !TESTING_CUDA(gchol_d2s_launch(n, n, dA, lda, dS, lda, 0, dflag, 0)) &&
                 !TESTING_CUDA(cudaMemcpy(&flag_full, dflag, sizeof(int), cudaMemcpyDeviceToHost)) &&
                 !TESTING_CUDA(gchol_dcol_absmax_launch(n, n < 3 ? n : 3, dA, lda, dnorm, 0)) &&
                 !TESTING_CUDA(cudaMemcpy(maxgot, dnorm, (size_t)(n < 3 ? n : 3) * sizeof(double), cudaMemcpyDeviceToHost));
            const double ref = ok ? LAPACKE_dlansy(LAPACK_COL_MAJOR, 'I', upper ? 'U' : 'L', n, A, lda) : 0;
            for (int64_t j = 0; j < n && j < 3; j++)
                for (int64_t i = 0; i < n; i++)
                    maxref[j] = fabs(A[i + j * lda]) > maxref[j] ? fabs(A[i + j * lda]) : maxref[j];
            const int col_ok = maxgot[0] == maxref[0] && (n < 2 || maxgot[1] == maxref[1]) &&
                               (n < 3 || maxgot[2] == maxref[2]);
            /* n = 1: the matrix has no other triangle, so the full conversion sees no 1e39 */
            testing_expect(ok && fabs(got - ref) <= 1e-14 * ref && flag_tri == 0 &&
                               flag_full == (n > 1) && col_ok,
                           "dsposv kernels %c n=%-4lld: dlansy_inf %.15g (LAPACKE %.15g), d2s flag "
                           "triangle %d / all %d, column maxima %s", upper ? 'U' : 'L', (long long)n,
                           got, ref, flag_tri, flag_full, col_ok ? "equal" : "DIFFER");
            cudaFree(dA); cudaFree(dwork); cudaFree(dnorm); cudaFree(dS); cudaFree(dflag);
            free(A);
        }
}

/* n = 0 / nrhs = 0 quick returns: info 0, iter 0, nothing touched. */
static void run_quick_returns(void)
{
    int64_t iter = INFO_POISON, info = INFO_POISON;
    double a = 1, b = 2, x = 3;
    if (!testing_case_in_part()) return;
    if (!testing_have_gpu()) {
        printf("  %-7s quick returns (no GPU)\n", "skipped");
        testing_record(TESTING_SKIPPED);
        return;
    }
    gchol_dsposv_gpu('L', 0, 1, NULL, 1, NULL, 1, NULL, 1, &iter, &info, g_queue);
    testing_expect(iter == 0 && info == 0, "dsposv_gpu n = 0: iter %lld info %lld", (long long)iter, (long long)info);
    iter = info = INFO_POISON;
    gchol_dsposv('U', 1, 0, &a, 1, &b, 1, &x, 1, &iter, &info);
    testing_expect(iter == 0 && info == 0 && a == 1 && b == 2 && x == 3,
                   "dsposv nrhs = 0: iter %lld info %lld, nothing written", (long long)iter, (long long)info);
}

static void run_suite(int quick)
{
    run_host_no_device();
    run_quick_returns();
    printf("\n-- dsposv's kernels (kernels/mixed_prec.cu) --\n");
    test_mixed_kernels(testing_have_gpu());

    printf("\n-- dsposv --\n");
    const int64_t sn[] = { 1, 2, 3, 17, 100, 512, 1000, 2049, 4100 };
    for (int u = 0; u < 2; u++) {
        const char uplo = u ? 'U' : 'L';
        for (int i = 0; i < LEN(sn); i++) {
            if (quick && sn[i] > 512) continue;
            pcase_t c = { uplo, sn[i], i % 3 == 0 ? 1 : (i % 3 == 1 ? 3 : 16), i % 2 ? 5 : 0, K_DD, 0, 0 };
            run_sposv(&c);
            c.kind = K_GRAM; run_sposv(&c);
            if (i % 3 == 2) { c.host = 1; run_sposv(&c); c.host = 0; }
        }
        const int64_t dn[] = { 100, 700 };
        for (int i = 0; i < LEN(dn); i++) {
            if (quick && dn[i] > 100) continue;
            for (int k = K_ILL; k <= K_NAN_B; k++) {
                pcase_t c = { uplo, dn[i], 2, 3, (kind_t)k, 0, 0 };
                run_sposv(&c);
            }
            pcase_t h = { uplo, dn[i], 2, 1, K_ILL, 1, 0 };
            run_sposv(&h); /* the host form's fallback */
            h.kind = K_NEG; run_sposv(&h);
        }
    }
    /* LAPACK's xlintstds shapes: small n, up to 15 right-hand sides, its
     * types 2 (cond 2) and 6 (cond sqrt(0.1/eps)) */
    printf("\n-- dsposv at small n, several right-hand sides --\n");
    const int64_t tn[] = { 2, 3, 5, 13, 17, 24, 45, 91, 132 }, tr[] = { 1, 2, 15 };
    for (int u = 0; u < 2; u++)
        for (int i = 0; i < LEN(tn); i++)
            for (int r = 0; r < LEN(tr); r++)
                for (int k = K_COND2; k <= K_COND2E7; k++) {
                    if (quick && (tr[r] != 15 || i % 2)) continue;
                    pcase_t c = { u ? 'U' : 'L', tn[i], tr[r], i % 2, (kind_t)k, r == 1, 0 };
                    run_sposv(&c);
                }
    if (!quick) { /* the blocked driver in single (above the tiled switch), accurate and TF32
                     products */
        printf("\n-- dsposv at n = 9000: the blocked single-precision driver --\n");
        const pcase_t big[] = {
            { 'L', 9000, 2, 3, K_DD, 0, 0 },   { 'L', 9000, 2, 3, K_DD, 0, 1 },
            { 'U', 9000, 3, 0, K_GRAM, 0, 1 }, { 'L', 9000, 1, 0, K_ILL, 0, 1 },
        };
        for (int i = 0; i < LEN(big); i++) run_sposv(&big[i]);
    }
}

#endif
