/*
 * pftrf_pipeline.h -- testing_?pftrf's pipeline all on the GPU (trttf, pftrf,
 * pftrs, tfttr), the quick returns, argument checks and host forms without a
 * GPU.
 * Part of testing_pftrf.c, which includes it once.
 */
#ifndef GCHOL_TESTING_PFTRF_PIPELINE_H
#define GCHOL_TESTING_PFTRF_PIPELINE_H

/* ===========================================================================
 * 2. All on the GPU: full matrix -> trttf -> pftrf -> pftrs, and tfttr of the
 * factor back into a poisoned full array.
 * ========================================================================= */
static testing_result_t run_pipeline(char transr, char uplo, int64_t n)
{
    if (!testing_case_in_part())
        return TESTING_SKIPPED;
    char why[256] = "";
    const int64_t lda = n + 3, nrhs = 2, nt = testing_rfp_size(n);
    int64_t st[4] = { INFO_POISON, INFO_POISON, INFO_POISON, INFO_POISON }, info = 0;
    double resid = NAN, berr = NAN;
    const FLOAT *G = testing_have_gpu() ? gram(n) : NULL;
    FLOAT *A = malloc((size_t)(lda * n) * ES), *L0 = malloc((size_t)(lda * n) * ES);
    FLOAT *L = malloc((size_t)(lda * n) * ES), *B0 = malloc((size_t)(lda * nrhs) * ES);
    FLOAT *X = malloc((size_t)(lda * nrhs) * ES);
    FLOAT *dA = NULL, *dR = NULL, *dL = NULL, *dB = NULL;
    testing_result_t res;

    if (!testing_have_gpu()) {
        printf("  %-7s pipeline   %c%c n=%lld (no GPU)\n", testing_result_name(TESTING_SKIPPED),
               transr, uplo, (long long)n);
        free(A); free(L0); free(L); free(B0); free(X);
        return testing_record(TESTING_SKIPPED);
    }
    if (!G || !A || !L0 || !L || !B0 || !X) {
        FAIL("out of host memory");
        goto done;
    }
    /* A: the uplo triangle of the Gram matrix, NaN elsewhere (padding too) */
    testing_fill_nan(PREC, lda * n, A);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = uplo == 'L' ? j : 0; i < (uplo == 'L' ? n : j + 1); i++)
            A[i + j * lda] = G[i + j * n];
    testing_fill_value(PREC, lda * n, L0, SENTINEL);
    testing_generate_rhs(PREC, n, nrhs, B0, lda, 0x919Eull);
    if (TESTING_CUDA(cudaMalloc((void **)&dA, (size_t)(lda * n) * ES)) ||
        TESTING_CUDA(cudaMalloc((void **)&dR, (size_t)nt * ES)) ||
        TESTING_CUDA(cudaMalloc((void **)&dL, (size_t)(lda * n) * ES)) ||
        TESTING_CUDA(cudaMalloc((void **)&dB, (size_t)(lda * nrhs) * ES)) ||
        TESTING_CUDA(cudaMemcpy(dA, A, (size_t)(lda * n) * ES, cudaMemcpyHostToDevice)) ||
        TESTING_CUDA(cudaMemcpy(dL, L0, (size_t)(lda * n) * ES, cudaMemcpyHostToDevice)) ||
        TESTING_CUDA(cudaMemcpy(dB, B0, (size_t)(lda * nrhs) * ES, cudaMemcpyHostToDevice))) {
        FAIL("CUDA error in the harness");
        goto done;
    }
    st[0] = GCHOL(trttf_gpu)(transr, uplo, n, dA, lda, dR, &info, g_queue);
    st[1] = GCHOL(pftrf_gpu)(transr, uplo, n, dR, &info, g_queue);
    st[2] = GCHOL(pftrs_gpu)(transr, uplo, n, nrhs, dR, dB, lda, &info, g_queue);
    st[3] = GCHOL(tfttr_gpu)(transr, uplo, n, dR, dL, lda, &info, g_queue);
    if (st[0] || st[1] || st[2] || st[3])
        FAIL("a call returned non-zero");
    if (gchol_queue_sync(g_queue) != 0 || download(L, dL, lda * n) || download(X, dB, lda * nrhs)) {
        FAIL("sync / download failed");
        goto done;
    }
    if (testing_count_untouched_violations(PREC, uplo, n, L, L0, lda))
        FAIL("tfttr touched the other triangle or padding");
    if (testing_residual(PREC, uplo, n, A, lda, L, lda, NULL, 0, &resid) || !(resid < TESTING_TOL))
        FAIL("residual too large");
    berr = testing_solve_berr(PREC, 'G', n, nrhs, G, n, B0, lda, X, lda);
    if (!(berr >= 0 && berr < TESTING_TOL))
        FAIL("backward error too large");
done:
    res = testing_record(why[0] ? TESTING_FAILED : TESTING_PASSED);
    printf("  %-7s pipeline   %c%c n=%-5lld lda=%-5lld trttf->pftrf->pftrs->tfttr "
           "ret=%lld,%lld,%lld,%lld resid=%.2e berr=%.2e%s%s\n", testing_result_name(res),
           transr, uplo, (long long)n, (long long)lda, (long long)st[0], (long long)st[1],
           (long long)st[2], (long long)st[3], resid, berr, why[0] ? " -- " : "", why);
    fflush(stdout);
    cudaFree(dA); cudaFree(dR); cudaFree(dL); cudaFree(dB);
    free(A); free(L0); free(L); free(B0); free(X);
    return res;
}

/* ===========================================================================
 * 3. Quick returns (n = 0) on the real queue, argument checks, and the host
 * form without a GPU.
 * ========================================================================= */
static void run_quick_returns(void)
{
    int64_t info, ret;
    if (!testing_case_in_part()) return;
    if (!testing_gpu_section("quick returns", 2))
        return;
    info = INFO_POISON;
    ret = GCHOL(pftrf_gpu)('N', 'L', 0, NULL, &info, g_queue);
    testing_expect(ret == 0 && info == 0, "pftrf_gpu n=0: ret %lld info %lld", (long long)ret,
                   (long long)info);
    info = INFO_POISON;
    ret = GCHOL(pftrf)('T', 'U', 0, NULL, &info);
    testing_expect(ret == 0 && info == 0, "pftrf (host) n=0: ret %lld info %lld", (long long)ret,
                   (long long)info);
}

static int64_t pftrf_gpu_w(const testing_args_t *a)
{
    return GCHOL(pftrf_gpu)(a->transr, a->uplo, a->n, (FLOAT *)a->A, a->info, a->q);
}
static int64_t pftrf_x_w(const testing_args_t *a)
{
    return GCHOL(pftrf_expert_gpu)(a->transr, a->uplo, a->n, (FLOAT *)a->A, a->info, a->opts,
                                   a->q);
}
static int64_t pftrf_host_w(const testing_args_t *a)
{
    return GCHOL(pftrf)(a->transr, a->uplo, a->n, (FLOAT *)a->A, a->info);
}

static const testing_entry_t arg_entries[] = {
    { GCHOL_NAME("pftrf_gpu"), pftrf_gpu_w, 0, 1, 0,
      { R_TRANSR, R_UPLO, R_N, R_A, R_INFO, R_QUEUE } },
    { GCHOL_NAME("pftrf_expert_gpu"), pftrf_x_w, 0, 1, 0,
      { R_TRANSR, R_UPLO, R_N, R_A, R_INFO, R_OPTS, R_QUEUE } },
    { GCHOL_NAME("pftrf"), pftrf_host_w, 1, 1, 0,
      { R_TRANSR, R_UPLO, R_N, R_A, R_INFO } },
};

/* Without a GPU the host RFP Cholesky reports GCHOL_ERR_NO_DEVICE and leaves
 * the array (and what lies around it) alone. */
static void run_host_no_device(void)
{
    FLOAT R[TESTING_RFP_SMALL_LEN], saved[TESTING_RFP_SMALL_LEN];
    int64_t info = INFO_POISON, ret;
    const char transr = PREC == 'd' ? 'N' : 'T', uplo = PREC == 'd' ? 'L' : 'U';
    if (!testing_no_gpu_section("host RFP Cholesky without a GPU"))
        return;
    testing_rfp_small_spd(PREC, transr, uplo, R, saved);
    ret = GCHOL(pftrf)(transr, uplo, TESTING_RFP_SMALL_N, R + TESTING_RFP_SMALL_GUARD, &info);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && info == ret && !memcmp(R, saved, sizeof(R)),
                   GCHOL_NAME("pftrf") " without GPU: ret %lld info %lld, array untouched",
                   (long long)ret, (long long)info);
}

#endif
