/*
 * potrf_table.h -- testing_?potrf's table mode (MAGMA style) and the
 * large case.
 * Part of testing_potrf.c, which includes it once (its types, the running
 * of one case and the precision macros come first).
 */
#ifndef GCHOL_TESTING_POTRF_TABLE_H
#define GCHOL_TESTING_POTRF_TABLE_H

/* ---------------------------------------------------------------------------
 * Table mode.
 * ------------------------------------------------------------------------- */
typedef struct {
    int64_t *sizes, nsizes;
    case_t   base;     /* uplo, iface, variant, lookahead, nb, recnb, pad */
    int      niter, check, warmup;
} table_opts_t;

/* Times LAPACKE_?potrf (OpenBLAS, native precision) on a copy of A; R
 * (n x n, double) receives its factor. Returns the seconds, -1 on failure. */
static double time_lapacke(const case_t *c, const FLOAT *A, double *R, int64_t *info)
{
    int64_t lda = case_lda(c);
    FLOAT *C = malloc(case_bytes(c));
    double t;
    if (!C || !R) {
        free(C);
        return -1;
    }
    memcpy(C, A, case_bytes(c));
    LAPACKE_set_nancheck(0);
    t = testing_wtime();
    *info = LAPACKE_POTRF(LAPACK_COL_MAJOR, c->uplo, (lapack_int)c->n, C, (lapack_int)lda);
    t = testing_wtime() - t;
    testing_reference_factor(PREC, c->uplo, c->n, 0, C, lda, R, c->n); /* copy only */
    free(C);
    return t;
}

/* One row of the table: factor with niter timed runs (median), check. */
static void table_row(const table_opts_t *t, int64_t n)
{
    case_t c = t->base;
    FLOAT *A, *W = NULL, *dA = NULL;
    double *times, resid = 0, diff = 0, tref = 0, tg = 0;
    run_t r = { 0, 0, 0 };
    int ok = 1, dev = is_device_iface(c.iface);
    int64_t ref_info = 0;

    c.n = n;
    A = make_matrix(&c);
    times = calloc((size_t)t->niter, sizeof(double));
    W = malloc(case_bytes(&c));
    if (!A || !times || !W || (dev && TESTING_CUDA(cudaMalloc((void **)&dA, case_bytes(&c))))) {
        printf("%7lld  allocation failed\n", (long long)n);
        ok = 0;
        goto done;
    }
    for (int it = -t->warmup; it < t->niter && ok; it++) {
        ok = factor_once(&c, A, dA, W, &r) == 0 && r.info == 0 &&
             (c.iface == IF_ASYNC || r.ret == r.info);
        if (it >= 0)
            times[it] = r.seconds;
    }
    tg = times ? testing_median(times, t->niter) : 0;
    if (ok && testing_residual(PREC, c.uplo, n, A, case_lda(&c), dev ? NULL : W, case_lda(&c),
                               dA, case_lda(&c), &resid))
        ok = 0;
    ok = ok && resid < TESTING_TOL;
    if (ok && t->check) {
        double *R = malloc((size_t)(n * n) * sizeof(double));
        if (dev && testing_copy_d2h(ES, case_lda(&c), n, dA, case_lda(&c), W, case_lda(&c)))
            ok = 0;
        tref = time_lapacke(&c, A, R, &ref_info);
        diff = tref >= 0 && ref_info == 0
             ? testing_factor_diff(PREC, c.uplo, n, n, W, case_lda(&c), R, n) : NAN;
        ok = ok && diff < 10 * factor_tol(n); /* two rounded factors */
        free(R);
    }
done:
    testing_record(ok ? TESTING_PASSED : TESTING_FAILED);
    {
        double fl = testing_flops_potrf(n) / 1e12;
        printf("%7lld %7lld %10.4f %9.2f", (long long)n, (long long)case_lda(&c), tg,
               tg > 0 ? fl / tg : 0.0);
        if (t->check)
            printf(" %10.4f %9.2f %9.2e", tref, tref > 0 ? fl / tref : 0.0, diff);
        printf(" %9.2e %6lld  %s\n", resid, (long long)r.info, ok ? "ok" : "FAILED");
        fflush(stdout);
    }
    free(A);
    free(W);
    free(times);
    cudaFree(dA);
}

static void run_table(const table_opts_t *t)
{
    gchol_options_t o = case_options(&t->base);
    if (!testing_table_can_run(g_queue)) return;
    gchol_options_resolve(&o, PREC, t->nsizes ? t->sizes[t->nsizes - 1] : 0);
    printf("%s precision, uplo %c, interface %s, niter %d (median), lda pad %lld\n",
           PREC_NAME, t->base.uplo, iface_name[t->base.iface], t->niter,
           (long long)t->base.pad);
    printf("options (resolved for the largest n): variant %d nb %lld recnb %lld lookahead %d "
           "upper %d\n", o.variant, (long long)o.nb, (long long)o.recnb, o.lookahead, o.upper);
    if (t->check)
        printf("CPU reference: LAPACKE_%cpotrf, OpenBLAS core %s\n", PREC,
               openblas_get_corename());
    printf("%7s %7s %10s %9s", "n", "lda", "GPU s", "GPU TF/s");
    if (t->check)
        printf(" %10s %9s %9s", "CPU s", "CPU TF/s", "|L-Lref|");
    printf(" %9s %6s  %s\n", "residual", "info", "check");
    for (int64_t i = 0; i < t->nsizes; i++)
        table_row(t, t->sizes[i]);
}

/* --large: one lower double factorization with n > 46341 (n*n > 2^31),
 * residual on the GPU. */
static void run_large(table_opts_t *t)
{
    static int64_t n_large = LARGE_N;
    if (PREC != 'd') {
        printf("  skipped --large is double only\n");
        testing_record(TESTING_SKIPPED);
        return;
    }
    t->sizes = &n_large;
    t->nsizes = 1;
    t->base.uplo = 'L';
    t->niter = 1;
    t->warmup = 0;
    t->check = 0;
    run_table(t);
    t->sizes = NULL;
}

/* ---------------------------------------------------------------------------
 * Command line.
 * ------------------------------------------------------------------------- */

#endif
