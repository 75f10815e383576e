/*
 * wls_suite.h -- testing_wls's suite: the correctness cases, the FP16 and
 * BF16 forms, the degenerate sizes and the failures with dswls's fallbacks.
 * Part of testing_wls.c, which includes it once.
 */
#ifndef GCHOL_TESTING_WLS_SUITE_H
#define GCHOL_TESTING_WLS_SUITE_H

/* ===========================================================================
 * The suite.
 * ========================================================================= */
typedef struct { int64_t m, n; } shape_t;

static void run_suite(int quick)
{
    const double t0 = testing_wtime();
    printf("testing_wls --suite%s  (%s)\n", quick ? " --quick" : "",
           testing_have_gpu() ? "GPU present" : "no GPU");
    LAPACKE_set_nancheck(0);
    if (testing_case_in_part()) run_arg_checks();

    printf("\n-- correctness against CPU references (double) --\n");
    print_table_header();
    static const shape_t full_shapes[] = {
        { 1, 1 }, { 1, 7 }, { 5, 5 }, { 17, 40 }, { 64, 64 }, { 100, 1000 }, { 257, 3000 },
        { 1000, 1000 }, { 1024, 20000 }, { 2500, 8000 }, { 4100, 4100 },
    };
    static const shape_t quick_shapes[] = {
        { 1, 1 }, { 1, 7 }, { 5, 5 }, { 17, 40 }, { 64, 64 }, { 96, 600 },
    };
    static const int64_t nrhs_cycle[] = { 1, 3, 16 };
    const shape_t *shapes = quick ? quick_shapes : full_shapes;
    const int nshapes = quick ? LEN(quick_shapes) : LEN(full_shapes);
    for (int i = 0; i < nshapes; i++) {
        const int64_t m = shapes[i].m, n = shapes[i].n, nrhs = nrhs_cycle[i % 3];
        /* padding: some leading dimensions exact (memcheck sees overruns),
         * some with extra rows (checked untouched) */
        const pads_t pads = { i % 2 ? 3 : 0, i % 3 ? 1 : 0, i % 2 ? 0 : 3, i % 3 == 1 ? 0 : 2 };
        run_problem(m, n, nrhs, K_WELL, V_ALL, &pads);
        if (i % 2 == 0)
            run_problem(m, n, i % 3 ? 2 : 1, K_NOD,
                        quick ? VB(V_DWLS_L) | VB(V_DSWLS_X) | VB(V_DHOST_L)
                              : VB(V_DWLS_L) | VB(V_SWLS_U) | VB(V_DSWLS_X) | VB(V_DSWLS_TF32) |
                                V_HOST,
                        &pads);
        if (n >= 4 * m && m > 1) /* log-spread weights: cond(C) up to ~1e4 */
            run_problem(m, n, 3, K_SPREAD, VB(V_DWLS_U) | VB(V_SWLS_L) | VB(V_DSWLS), &pads);
    }
    if (!quick) {
        const pads_t p0 = { 0, 0, 0, 0 };
        printf("\n-- dswls with TF32 products at m = 3000, n = 30000 --\n");
        print_table_header();
        run_problem(3000, 30000, 2, K_WELL,
                    VB(V_DWLS_L) | VB(V_DSWLS) | VB(V_DSWLS_TF32) | V_LOWP, &p0);
    }
    printf("\n-- dswls with FP16 and BF16 products (n >= 8 m: they converge) --\n");
    print_table_header();
    {
        const pads_t pl = { 1, 0, 0, 2 };
        run_problem(40, 400, 3, K_WELL, VB(V_DSWLS) | V_LOWP, &pl);
        run_problem(256, 4096, 16, K_WELL, V_LOWP, &pl);
        run_problem(300, 2700, 1, K_NOD, V_LOWP, &pl);
        if (!quick) run_problem(1000, 12000, 2, K_WELL, V_LOWP, &pl);
        run_problem(200, 1000, 2, K_SPREAD, V_LOWP, &pl); /* cond(C) ~1e4: may fall back */
        run_problem(1, 8, 1, K_WELL, V_LOWP, &pl);
        run_problem(5, 60, 2, K_WELL, V_LOWP, &pl);
        run_problem(17, 160, 1, K_WELL, V_LOWP, &pl);
        /* several block columns of 16: without the lookahead, with it, with
         * its chain at high priority; then the updates split in halves */
        for (int la = 1; la <= 4; la++) {
            const gchol_test_hooks_t hooks = { .lowp_nb = 16, .lowp_lookahead = la < 4 ? la : 3,
                                               .lowp_update_leaf = la < 4 ? 0 : 40 };
            gchol_test_hooks_set(&hooks);
            run_problem(100, 1200, 2, K_WELL, V_LOWP, &pl);
            gchol_test_hooks_set(NULL);
        }
    }

    printf("\n-- degenerate sizes: nrhs = 0 (wls still factors C), n = 0 < m (info 1) --\n");
    print_table_header();
    {
        const pads_t pads = { 1, 2, 3, 1 };
        run_problem(5, 30, 0, K_WELL, VB(V_DWLS_L) | VB(V_SWLS_U) | VB(V_DSWLS) |
                                      VB(V_DSWLS_TF32), &pads);
        run_problem(37, 200, 0, K_WELL, VB(V_DWLS_U) | VB(V_SWLS_L), &pads);
        run_problem(5, 0, 2, K_ZERO_N, VB(V_DWLS_L) | VB(V_SWLS_U) | VB(V_DSWLS) |
                                       VB(V_DSWLS_TF32) | V_RFP | V_HOST, &pads);
        run_problem(36, 150, 0, K_WELL, V_RFP | V_HOST, &pads);
    }

    printf("\n-- failures and dswls's fallbacks --\n");
    print_table_header();
    {
        const pads_t pa = { 2, 1, 1, 3 }, pb = { 0, 0, 0, 0 };
        const unsigned fb = VB(V_DWLS_L) | VB(V_DWLS_U) | VB(V_DSWLS) | VB(V_DSWLS_TF32) | V_LOWP;
        run_problem(quick ? 64 : 100, quick ? 400 : 1000, 2, K_ILL, fb, &pa);
        if (!quick) run_problem(300, 2000, 1, K_ILL, VB(V_DWLS_L) | VB(V_DSWLS), &pb);
        run_problem(17, 40, 2, K_BIG_A, VB(V_DWLS_L) | VB(V_DSWLS) | VB(V_DSWLS_TF32) | V_LOWP, &pa);
        if (!quick) run_problem(100, 1000, 1, K_BIG_A, VB(V_DWLS_L) | VB(V_DWLS_U) | VB(V_DSWLS), &pb);
        run_problem(quick ? 48 : 100, quick ? 300 : 1000, 3, K_BIG_D,
                    VB(V_DWLS_L) | VB(V_DSWLS) | VB(V_DSWLS_TF32), &pa);
        run_problem(60, 500, 2, K_HUGE_D, VB(V_DWLS_L) | VB(V_DSWLS_X), &pb);
        run_problem(20, 10, 2, K_RANKDEF, V_ALL, &pa);
        run_problem(quick ? 40 : 150, quick ? 30 : 100, 1, K_RANKDEF,
                    VB(V_DWLS_L) | VB(V_SWLS_U) | VB(V_DSWLS), &pb);
        run_problem(50, 300, 2, K_NAN_A, VB(V_DWLS_L) | VB(V_DWLS_U) | VB(V_SWLS_U) |
                                         VB(V_DSWLS) | VB(V_DSWLS_TF32) | V_RFP, &pa);
        run_problem(51, 301, 1, K_NAN_A, V_RFP | V_HOST, &pb);
        if (!quick) run_problem(300, 1200, 1, K_NAN_A, VB(V_DWLS_L) | VB(V_DSWLS), &pb);
        run_problem(64, 640, 3, K_NAN_B, VB(V_DWLS_L) | VB(V_SWLS_L) | VB(V_DSWLS) | V_HOST, &pa);
        run_problem(50, 300, 2, K_NAN_A, V_LOWP, &pb);
        run_problem(5, 0, 2, K_ZERO_N, V_LOWP, &pb);
    }
    printf("suite time %.1f s\n", testing_wtime() - t0);
}

#endif
