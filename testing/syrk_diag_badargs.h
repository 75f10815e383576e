/*
 * syrk_diag_badargs.h -- testing_?syrk_diag's argument checks, quick returns and
 * the host forms without a GPU.
 * Part of testing_syrk_diag.c, which includes it once.
 */
#ifndef GCHOL_TESTING_SYRK_DIAG_BADARGS_H
#define GCHOL_TESTING_SYRK_DIAG_BADARGS_H

/* ---------------------------------------------------------------------------
 * Argument checks, quick returns and the host forms without a GPU: these
 * never reach the device, so they run (and pass) on any machine.
 * ------------------------------------------------------------------------- */
static int64_t syrk_w(const testing_args_t *a)
{
    return GCHOL(syrk_diag_gpu)(a->uplo, a->m, a->n, (FLOAT)1.5, (const FLOAT *)a->A, a->ld,
                                (const FLOAT *)a->d, (FLOAT)0.5, (FLOAT *)a->C, a->ldc, a->q);
}
static int64_t sfrk_w(const testing_args_t *a)
{
    return GCHOL(sfrk_diag_gpu)(a->transr, a->uplo, a->m, a->n, (FLOAT)1.5, (const FLOAT *)a->A,
                                a->ld, (const FLOAT *)a->d, (FLOAT)0.5, (FLOAT *)a->C, a->q);
}
static int64_t syrk_host_w(const testing_args_t *a)
{
    return GCHOL(syrk_diag)(a->uplo, a->m, a->n, (FLOAT)1.5, (const FLOAT *)a->A, a->ld,
                            (const FLOAT *)a->d, (FLOAT)0.5, (FLOAT *)a->C, a->ldc);
}
static int64_t sfrk_host_w(const testing_args_t *a)
{
    return GCHOL(sfrk_diag)(a->transr, a->uplo, a->m, a->n, (FLOAT)1.5, (const FLOAT *)a->A,
                            a->ld, (const FLOAT *)a->d, (FLOAT)0.5, (FLOAT *)a->C);
}

static const testing_entry_t arg_entries[] = {
    { GCHOL_NAME("syrk_diag_gpu"), syrk_w, 0, 0, 0,
      { R_UPLO, R_M, R_N, R_ALPHA, R_A, R_LD, R_D, R_BETA, R_C, R_LDC, R_QUEUE } },
    { GCHOL_NAME("sfrk_diag_gpu"), sfrk_w, 0, 0, 0,
      { R_TRANSR, R_UPLO, R_M, R_N, R_ALPHA, R_A, R_LD, R_D, R_BETA, R_C, R_QUEUE } },
    { GCHOL_NAME("syrk_diag"), syrk_host_w, 1, 0, 0,
      { R_UPLO, R_M, R_N, R_ALPHA, R_A, R_LD, R_D, R_BETA, R_C, R_LDC } },
    { GCHOL_NAME("sfrk_diag"), sfrk_host_w, 1, 0, 0,
      { R_TRANSR, R_UPLO, R_M, R_N, R_ALPHA, R_A, R_LD, R_D, R_BETA, R_C } },
};

/* Without a GPU the host forms report GCHOL_ERR_NO_DEVICE and leave C alone. */
static void run_host_no_device(void)
{
    FLOAT A[64], saved[64];
    int64_t ret;
    if (!testing_no_gpu_section("host forms without a GPU"))
        return;
    testing_generate_spd(PREC, 'A', 8, A, 8, 1);
    memcpy(saved, A, sizeof(A));
    ret = GCHOL(syrk_diag)('L', 8, 8, (FLOAT)1, saved, 8, NULL, (FLOAT)0.5, A, 8);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && !memcmp(A, saved, sizeof(A)),
                   GCHOL_NAME("syrk_diag") " without GPU: ret %lld", (long long)ret);
    ret = GCHOL(sfrk_diag)('T', 'U', 8, 8, (FLOAT)1, saved, 8, saved, (FLOAT)0, A);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && !memcmp(A, saved, sizeof(A)),
                   GCHOL_NAME("sfrk_diag") " without GPU: ret %lld", (long long)ret);
}

/* The split plan of the long dimension (gchol_syrk_diag_splits) on 132 SMs,
 * 128 x 128 tiles, one resident block per SM: split where the triangle has
 * too few tiles for a wave, never to trim a large triangle's ragged last
 * wave (16384^2 and 8192 x 32768 stay whole), and chunks of at least 1024
 * columns. The cases of this precision's element size. */
static void run_split_plan(void)
{
    typedef struct { int64_t m, n; int es, want; } plan_case_t;
    static const plan_case_t cases[] = {
        { 1024, 65536, 8, 11 }, { 4096, 65536, 8, 1 }, { 8192, 32768, 8, 1 },
        { 16384, 16384, 8, 1 }, { 1024, 65536, 4, 11 }, { 8192, 32768, 4, 1 },
        { 16384, 16384, 4, 1 }, { 16, 100000, 8, 16 }, { 100, 5000, 8, 4 },
        { 64, 2047, 8, 1 },      /* chunks of >= 1024 columns: no split below 2048 */
        { 64, 2048, 8, 2 },
    };
    printf("\n-- syrk_diag split plan (132 SMs) --\n");
    for (int i = 0; i < LEN(cases); i++) {
        const plan_case_t *c = &cases[i];
        if ((size_t)c->es != ES)
            continue;
        const int64_t nt = (c->m + 127) / 128, tiles = nt * (nt + 1) / 2;
        const int got = gchol_syrk_diag_splits(tiles, 132, c->n, ES);
        testing_expect(got == c->want, "gchol_syrk_diag_splits  %s m=%lld n=%lld: %d splits "
                       "(expected %d)", PREC_NAME, (long long)c->m, (long long)c->n, got,
                       c->want);
    }
    if (PREC == 'd')
        testing_expect(gchol_syrk_diag_splits(0, 132, 1000, 8) == 1 &&
                           gchol_syrk_diag_splits(10, 132, 0, 8) == 1,
                       "gchol_syrk_diag_splits  no tiles or n = 0: 1");
}

static void run_suite(int quick)
{
    case_list_t l = { NULL, 0, 0 };
    double t0 = testing_wtime();
    printf("testing_%csyrk_diag --suite%s  (%s precision, %s)\n", PREC, quick ? " --quick" : "",
           PREC_NAME, testing_have_gpu() ? "GPU present" : "no GPU");
    printf("ratio = max |C - Cref| / ((|alpha| |AD||AD|^T + |beta| |C0|) eps sqrt(n)), "
           "pass < %g\n", TESTING_TOL);
    testing_check_arguments(arg_entries, LEN(arg_entries), g_queue);
    run_host_no_device();
    run_split_plan();
    build_suite(&l, quick);
    printf("\n-- syrk_diag (full) and sfrk_diag (RFP): %lld cases --\n", (long long)l.count);
    for (int64_t i = 0; i < l.count; i++)
        run_case(&l.v[i]);
    printf("suite time %.1f s\n", testing_wtime() - t0);
    free(l.v);
}

#endif
