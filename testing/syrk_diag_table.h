/*
 * syrk_diag_table.h -- testing_?syrk_diag's table mode.
 * Part of testing_syrk_diag.c, which includes it once.
 */
#ifndef GCHOL_TESTING_SYRK_DIAG_TABLE_H
#define GCHOL_TESTING_SYRK_DIAG_TABLE_H

/* ---------------------------------------------------------------------------
 * Table mode.
 * ------------------------------------------------------------------------- */
typedef struct {
    int64_t *ms, nm, *ns, nn;
    case_t   base;
    int      niter;
} table_opts_t;

/* Times the CPU path in native precision: B = A*D (FLOAT), then ?syrk or
 * ?sfrk (OpenBLAS / LAPACKE) into a copy of C0. Seconds, or -1. */
static double time_cpu(const case_t *c, const FLOAT *A, const FLOAT *d, const FLOAT *C0)
{
    int64_t m = c->m, n = c->n, lda = case_lda(c), ldb = max64(1, m);
    FLOAT *B = malloc((size_t)(ldb * max64(1, n)) * ES), *C = malloc((size_t)case_csize(c) * ES);
    double t = -1;
    if (B && C) {
        memcpy(C, C0, (size_t)case_csize(c) * ES);
        LAPACKE_set_nancheck(0);
        t = testing_wtime();
        for (int64_t j = 0; j < n; j++) {
            FLOAT s = c->dmode == D_NONE ? (FLOAT)1 : d[j];
            for (int64_t i = 0; i < m; i++)
                B[i + j * ldb] = A[i + j * lda] * s;
        }
        if (c->rfp)
            LAPACKE(sfrk)(LAPACK_COL_MAJOR, c->transr, c->uplo, 'N', (lapack_int)m, (lapack_int)n,
                          (FLOAT)c->alpha, B, (lapack_int)ldb, (FLOAT)c->beta, C + GUARD);
        else
            CBLAS(syrk)(CblasColMajor, c->uplo == 'L' ? CblasLower : CblasUpper, CblasNoTrans,
                        (blasint)m, (blasint)n, (FLOAT)c->alpha, B, (blasint)ldb, (FLOAT)c->beta,
                        C, (blasint)case_ldc(c));
        t = testing_wtime() - t;
    }
    free(B);
    free(C);
    return t;
}

/* One row: warmup, niter timed runs (median), then a checked run on a fresh C. */
static void table_row(const table_opts_t *t, int64_t m, int64_t n)
{
    case_t c = t->base;
    int64_t csize, abytes;
    FLOAT *A = NULL, *d = NULL, *C0 = NULL, *C = NULL;
    double *times = calloc((size_t)t->niter, sizeof(double)), tg = 0, tc = -1;
    dev_t v = { NULL, NULL, NULL };
    ratio_t r = { 0, 0, 0 };
    int ok = 1;
    int64_t outside = 0;

    c.m = m;
    c.n = n;
    c.seed = 0x7AB1Eull + (uint64_t)(m * 131 + n);
    csize = case_csize(&c);
    abytes = case_lda(&c) * max64(1, n);
    A = malloc((size_t)abytes * ES);
    d = malloc((size_t)max64(1, n) * ES);
    C0 = malloc((size_t)csize * ES);
    C = malloc((size_t)csize * ES);
    if (!times || !A || !d || !C0 || !C) {
        ok = 0;
        goto done;
    }
    make_inputs(&c, A, d);
    make_c(&c, C0);
    if (dev_upload(&c, A, d, C0, &v)) {
        ok = 0;
        goto done;
    }
    for (int it = -1; it < t->niter && ok; it++) {
        double t0 = testing_wtime();
        ok = call_case(&c, &v) == 0 && gchol_queue_sync(g_queue) == 0;
        if (it >= 0)
            times[it] = testing_wtime() - t0;
    }
    tg = testing_median(times, t->niter);
    /* checked run on the original C0 */
    if (ok && (TESTING_CUDA(cudaMemcpy(v.dC, C0, (size_t)csize * ES, cudaMemcpyHostToDevice)) ||
               call_case(&c, &v) != 0 || gchol_queue_sync(g_queue) != 0 ||
               TESTING_CUDA(cudaMemcpy(C, v.dC, (size_t)csize * ES, cudaMemcpyDeviceToHost))))
        ok = 0;
    if (ok) {
        outside = outside_violations(&c, C, C0);
        ok = outside == 0 && error_ratio(&c, A, d, C0, C, &r) == 0 && !r.nan &&
             r.ratio < TESTING_TOL;
    }
    tc = time_cpu(&c, A, d, C0);
done:
    testing_record(ok ? TESTING_PASSED : TESTING_FAILED);
    {
        double fl = (double)m * (double)(m + 1) * (double)n / 1e9;
        printf("%7lld %8lld %10.5f %9.1f %10.5f %9.1f %10.2e  %s\n", (long long)m, (long long)n,
               tg, tg > 0 ? fl / tg : 0.0, tc, tc > 0 ? fl / tc : 0.0, r.nan ? NAN : r.ratio,
               ok ? "ok" : "FAILED");
        fflush(stdout);
    }
    dev_free(&v);
    free(times); free(A); free(d); free(C0); free(C);
}

static void run_table(const table_opts_t *t)
{
    if (!testing_table_can_run(g_queue)) return;
    printf("%s precision, %s, uplo %c, D %s, alpha %g, beta %g, niter %d (median)\n",
           PREC_NAME, t->base.rfp ? (t->base.transr == 'N' ? "RFP transr N (sfrk_diag)"
                                                           : "RFP transr T (sfrk_diag)")
                                  : "full storage (syrk_diag)",
           t->base.uplo, dmode_name[t->base.dmode], t->base.alpha, t->base.beta, t->niter);
    printf("CPU: A*D then %s (OpenBLAS core %s); flops m(m+1)n\n",
           t->base.rfp ? "LAPACKE_?sfrk" : "cblas_?syrk", openblas_get_corename());
    printf("%7s %8s %10s %9s %10s %9s %10s  %s\n", "m", "n", "GPU s", "GPU GF/s", "CPU s",
           "CPU GF/s", "ratio", "check");
    for (int64_t i = 0; i < t->nm; i++)
        for (int64_t j = 0; j < t->nn; j++)
            table_row(t, t->ms[i], t->ns[j]);
}

#endif
