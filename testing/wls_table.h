/*
 * wls_table.h -- testing_wls's table mode.
 * Part of testing_wls.c, which includes it once.
 */
#ifndef GCHOL_TESTING_WLS_TABLE_H
#define GCHOL_TESTING_WLS_TABLE_H

/* ===========================================================================
 * Table mode.
 * ========================================================================= */
enum { T_DWLS, T_SWLS, T_DSWLS, T_TF32, T_COUNT };

static void table_row(int64_t m, int64_t n, int64_t nrhs, kind_t kind, int niter)
{
    problem_t p;
    memset(&p, 0, sizeof p);
    p.m = m; p.n = n; p.nrhs = nrhs; p.kind = kind;
    p.lda = max64(1, m);
    p.ldb = max64(1, n);
    generate(&p, 0x7ab1e000ull + 31ull * (uint64_t)m + (uint64_t)n, 1);
    double times[T_COUNT][16], med[T_COUNT], resid[T_COUNT];
    int64_t info[T_COUNT], iter[T_COUNT] = { 0, 0, 0, 0 };
    testing_result_t res = TESTING_FAILED;
    void *dA = NULL, *dd = NULL, *dB = NULL, *sA = NULL, *sd = NULL, *sB = NULL;
    double *dC = NULL, *dY = NULL;
    float *sC = NULL, *sY = NULL;
    const int64_t ldy = max64(1, m);
    double *Y = xmalloc((size_t)(ldy * nrhs) * sizeof(double));
    float *Ys = xmalloc((size_t)(ldy * nrhs) * sizeof(float));
    double *Ysd = xmalloc((size_t)(ldy * nrhs) * sizeof(double));
    gchol_options_t o;
    gchol_options_default(&o);
    o.products = GCHOL_PRODUCTS_TF32;
    for (int t = 0; t < T_COUNT; t++) { med[t] = resid[t] = NAN; info[t] = INFO_POISON; }
    if (niter > 16) niter = 16;

    if (!(dA = dev_upload(p.A, (size_t)(p.lda * n) * 8)) ||
        (p.d && !(dd = dev_upload(p.d, (size_t)n * 8))) ||
        !(dB = dev_upload(p.B, (size_t)(p.ldb * nrhs) * 8)) ||
        !(sA = dev_upload(p.As, (size_t)(p.lda * n) * 4)) ||
        (p.ds && !(sd = dev_upload(p.ds, (size_t)n * 4))) ||
        !(sB = dev_upload(p.Bs, (size_t)(p.ldb * nrhs) * 4)) ||
        TESTING_CUDA(cudaMalloc((void **)&dC, (size_t)(m * m) * 8)) ||
        TESTING_CUDA(cudaMalloc((void **)&dY, (size_t)(ldy * nrhs) * 8)) ||
        TESTING_CUDA(cudaMalloc((void **)&sC, (size_t)(m * m) * 4)) ||
        TESTING_CUDA(cudaMalloc((void **)&sY, (size_t)(ldy * nrhs) * 4)))
        goto out;
    for (int t = 0; t < T_COUNT; t++) {
        for (int r = -1; r < niter; r++) { /* r = -1: warm-up */
            if (TESTING_CUDA(cudaDeviceSynchronize())) goto out;
            const double t0 = testing_wtime();
            switch (t) {
            case T_DWLS:
                gchol_dwls_gpu('L', m, n, nrhs, dA, p.lda, dd, dB, p.ldb, dC, m, dY, ldy,
                               &info[t], g_queue);
                break;
            case T_SWLS:
                gchol_swls_gpu('L', m, n, nrhs, sA, p.lda, sd, sB, p.ldb, sC, m, sY, ldy,
                               &info[t], g_queue);
                break;
            case T_DSWLS:
                gchol_dswls_gpu(m, n, nrhs, dA, p.lda, dd, dB, p.ldb, dY, ldy, &iter[t],
                                &info[t], g_queue);
                break;
            default:
                gchol_dswls_expert_gpu(m, n, nrhs, dA, p.lda, dd, dB, p.ldb, dY, ldy, &iter[t],
                                       &info[t], &o, g_queue);
                break;
            }
            if (r >= 0) times[t][r] = 1e3 * (testing_wtime() - t0);
        }
        med[t] = testing_median(times[t], niter);
        if (TESTING_CUDA(cudaDeviceSynchronize())) goto out;
        if (info[t] != 0) continue;
        if (!p.have_ref && compute_references(&p, 0)) goto out;
        if (t == T_SWLS) {
            if (dev_download(Ys, sY, (size_t)(ldy * nrhs) * 4)) goto out;
            testing_to_double('s', m, nrhs, Ys, ldy, Ysd, ldy);
            resid[t] = backward_ratio(&p, Ysd, ldy, 0, testing_eps('s'));
        } else {
            if (dev_download(Y, dY, (size_t)(ldy * nrhs) * 8)) goto out;
            resid[t] = backward_ratio(&p, Y, ldy, 0, testing_eps('d'));
        }
    }
    res = TESTING_PASSED;
    for (int t = 0; t < T_COUNT; t++)
        if (info[t] != 0 || !(resid[t] < TESTING_TOL)) res = TESTING_FAILED;
out:
    printf("%6lld %7lld %4lld %10.3f %10.3f %10.3f %4lld %10.3f %4lld %6.2f %9.2e %9.2e %9.2e %9.2e  %s\n",
           (long long)m, (long long)n, (long long)nrhs, med[T_DWLS], med[T_SWLS], med[T_DSWLS],
           (long long)iter[T_DSWLS], med[T_TF32], (long long)iter[T_TF32],
           med[T_DWLS] / med[T_TF32], resid[T_DWLS], resid[T_SWLS], resid[T_DSWLS], resid[T_TF32],
           testing_result_name(res));
    if (res != TESTING_PASSED)
        printf("        -> info dwls %lld swls %lld dswls %lld tf32 %lld\n", (long long)info[T_DWLS],
               (long long)info[T_SWLS], (long long)info[T_DSWLS], (long long)info[T_TF32]);
    fflush(stdout);
    testing_record(res);
    cudaFree(dA); cudaFree(dd); cudaFree(dB); cudaFree(sA); cudaFree(sd); cudaFree(sB);
    cudaFree(dC); cudaFree(dY); cudaFree(sC); cudaFree(sY);
    free(Y); free(Ys); free(Ysd);
    problem_free(&p);
}

static void run_table(const int64_t *ms, int64_t mcount, const int64_t *ns, int64_t ncount,
                      int64_t nrhs, kind_t kind, int niter)
{
    if (!testing_table_can_run(g_queue)) return;
    const int64_t rows = max64(mcount, ncount);
    printf("gchol weighted least squares, d %s, niter %d (median GPU ms); uplo L, lda = m;\n"
           "resid: ||A D^2 (b - A^T y)|| / (||A D^2|| ||b|| + ||C|| ||y||) / (eps max(m,n)),"
           " < %.0f; x: dwls / dswls_tf32 time\n",
           kind == K_NOD ? "= NULL" : kind == K_SPREAD ? "in 1e-3..1e3" : "in [0.5, 2]", niter,
           TESTING_TOL);
    printf("%6s %7s %4s %10s %10s %10s %4s %10s %4s %6s %9s %9s %9s %9s  %s\n", "m", "n", "nrhs",
           "dwls", "swls", "dswls", "iter", "tf32", "iter", "x", "r_dwls", "r_swls", "r_dswls",
           "r_tf32", "check");
    for (int64_t i = 0; i < rows; i++)
        table_row(ms[mcount == 1 ? 0 : i], ns[ncount == 1 ? 0 : i], nrhs, kind, niter);
}

#endif
