/*
 * lapack_shim_misc.h -- testing_lapack_shim's routing, threads, ILP64 integers
 * beyond an int, and the out-of-memory case.
 * Part of testing_lapack_shim.c, which includes it once.
 */
#ifndef GCHOL_TESTING_LAPACK_SHIM_MISC_H
#define GCHOL_TESTING_LAPACK_SHIM_MISC_H

/* ---- routing ---------------------------------------------------------------- */
static void routing(void)
{
    int mode;
    int64_t min_n, min_n_solve;
    gchol_lapack_route(GCHOL_LAPACK_AUTO, 300, 400);
    gchol_lapack_get_route(&mode, &min_n, &min_n_solve);
    testing_expect(mode == GCHOL_LAPACK_AUTO && min_n == 300 && min_n_solve == 400,
                   "gchol_lapack_route / get_route: auto, min_n 300, min_n_solve 400 (got %d %lld "
                   "%lld)", mode, (long long)min_n, (long long)min_n_solve);
    potrf_case('d', 'L', 299, GCHOL_LAPACK_AUTO, GCHOL_LAPACK_RAN_CPU);
    potrf_case('d', 'L', 300, GCHOL_LAPACK_AUTO, gpu_path());
    potrf_case('s', 'U', 0, GCHOL_LAPACK_GPU, GCHOL_LAPACK_RAN_CPU); /* n = 0: quick return */
    solve_case('d', 'L', 399, 64, GCHOL_LAPACK_AUTO, GCHOL_LAPACK_RAN_CPU, 0);
    solve_case('d', 'L', 400, 1, GCHOL_LAPACK_AUTO, gpu_path(), 0);
    solve_case('s', 'L', 299, 40, GCHOL_LAPACK_AUTO, GCHOL_LAPACK_RAN_CPU, 1);
    solve_case('s', 'U', 350, 40, GCHOL_LAPACK_AUTO, gpu_path(), 1); /* factor on the GPU, solve on the CPU */

    /* LAPACKE calls dpotrf_: it reaches the shim */
    const int n = 320;
    double *a = spd_poisoned('d', 'U', n, n, 42), *a0 = dup_array(a, (size_t)n * n * 8);
    gchol_lapack_route(GCHOL_LAPACK_GPU, -1, -1);
    const lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', n, a, n);
    const int path = gchol_lapack_last_path();
    const double r = testing_residual_cpu('d', 'U', n, a0, n, a, n);
    testing_expect(info == 0 && path == gpu_path() && r < TESTING_TOL,
                   "LAPACKE_dpotrf reaches the shim: path %s (want %s), resid %.2e",
                   path_name(path), path_name(gpu_path()), r);
    free(a); free(a0);
}

/* ---- threads --------------------------------------------------------------- */
typedef struct { int n, ok, path; double resid; } thread_job_t;
static void *thread_main(void *p)
{
    thread_job_t *j = p;
    double *a = spd_poisoned('d', 'L', j->n, j->n, 100 + j->n);
    double *a0 = dup_array(a, (size_t)j->n * j->n * 8);
    int info = -1;
    for (int rep = 0; rep < 3; ++rep) { /* each from a fresh copy */
        memcpy(a, a0, (size_t)j->n * j->n * 8);
        call_potrf('d', 'L', j->n, a, j->n, &info);
    }
    j->path = gchol_lapack_last_path();
    j->resid = testing_residual_cpu('d', 'L', j->n, a0, j->n, a, j->n);
    j->ok = info == 0;
    free(a); free(a0);
    return NULL;
}
static void threads(void)
{
    enum { T = 4 };
    pthread_t th[T];
    thread_job_t job[T];
    gchol_lapack_route(GCHOL_LAPACK_GPU, -1, -1);
    for (int t = 0; t < T; ++t) {
        job[t] = (thread_job_t){ .n = 700 + 111 * t };
        pthread_create(&th[t], NULL, thread_main, &job[t]);
    }
    int ok = 1;
    for (int t = 0; t < T; ++t) {
        pthread_join(th[t], NULL);
        ok &= job[t].ok && job[t].path == gpu_path() && job[t].resid < TESTING_TOL;
    }
    testing_expect(ok, "4 threads x 3 dpotrf_ at once, mode gpu: paths %s %s %s %s, resid %.1e "
                   "%.1e %.1e %.1e", path_name(job[0].path), path_name(job[1].path),
                   path_name(job[2].path), path_name(job[3].path), job[0].resid, job[1].resid,
                   job[2].resid, job[3].resid);
}

/* ---- ILP64: integers beyond an int ------------------------------------------ */
/* cpu64: run with GCHOL_LAPACK_CPU_LIB = build/testing/cpu64_lapack.so, an ILP64
 * CPU LAPACK (its calls are counted). */
static int cpu64;
static long cpu64_calls(void)
{
    const char *lib = getenv("GCHOL_LAPACK_CPU_LIB");
    void *h = lib ? dlopen(lib, RTLD_LAZY | RTLD_NOLOAD) : NULL;
    long *calls = h ? (long *)dlsym(h, "cpu64_lapack_calls") : NULL;
    return calls ? *calls : -1;
}

/* Calls of the 64_ symbols whose integers do not fit in an int, so that
 * they cannot be narrowed to the LP64 CPU routines:
 *  - illegal arguments: LAPACK's info = -i (the shim's own xerbla line
 *    when no ILP64 CPU LAPACK is there), nothing written, in every mode;
 *  - lda = ldb = 2^32 + 1 with n = 1 (one element each): on the GPU, or on
 *    the ILP64 CPU LAPACK when there is one (--cpu64), or, with neither,
 *    info = GCHOL_ERR_NO_DEVICE and nothing written. */
static void ilp64_wide(void)
{
    const int64_t big = (int64_t)INT32_MAX + 1, huge = (int64_t)1 << 40;
    double a[8], b[8], x[8], work[8], a0[8], b0[8];
    float swork[8];
    for (int i = 0; i < 8; ++i) a[i] = b[i] = x[i] = a0[i] = b0[i] = NAN;
    if (!cpu64) { /* (the stand-in narrows what it gets) */
        for (int mode = GCHOL_LAPACK_AUTO; mode <= GCHOL_LAPACK_CPU; ++mode) {
            gchol_lapack_route(mode, 0, 0);
            int64_t info[6], iter = -777777; /* 0 must reach all 64 bits */
            dpotrf_64_("L", &big, a, W(1), &info[0], 1);
            spotrf_64_("U", W(-huge), (float *)a, W(1), &info[1], 1);
            spotrs_64_("U", W(8), W(-huge), (float *)a, W(8), (float *)b, W(8), &info[2], 1);
            dposv_64_("L", W(big + 8), W(1), a, W(big + 7), b, W(big + 8), &info[3], 1);
            dpftrs_64_("N", "L", W(8), W(-huge), a, b, W(8), &info[4], 1, 1);
            dsposv_64_("L", W(big), W(1), a, W(big), b, W(big), x, W(big - 1), work, swork, &iter,
                       &info[5], 1);
            const int64_t want[6] = { -4, -2, -3, -5, -4, -9 };
            int ok = gchol_lapack_last_path() == GCHOL_LAPACK_RAN_CPU && iter == 0;
            for (int i = 0; i < 6; ++i) ok &= info[i] == want[i];
            const int64_t d = testing_count_diff('d', 8, a, a0) + testing_count_diff('d', 8, b, b0);
            testing_expect(ok && d == 0, "ILP64: 6 illegal arguments beyond an int, mode %s: info "
                           "%lld %lld %lld %lld %lld %lld (want -4 -2 -3 -5 -4 -9), iter %lld, "
                           "%lld entries written", mode_name(mode), (long long)info[0],
                           (long long)info[1], (long long)info[2], (long long)info[3],
                           (long long)info[4], (long long)info[5], (long long)iter, (long long)d);
        }
    }
    const int64_t ld = ((int64_t)1 << 32) + 1;
    for (int mode = GCHOL_LAPACK_GPU; mode <= GCHOL_LAPACK_CPU; ++mode) {
        /* the CPU mode has a CPU path only with an ILP64 CPU LAPACK */
        const int want_path = cpu64 && mode == GCHOL_LAPACK_CPU ? GCHOL_LAPACK_RAN_CPU
                            : have_gpu ? GCHOL_LAPACK_RAN_GPU
                            : cpu64 ? GCHOL_LAPACK_RAN_FALLBACK : GCHOL_LAPACK_RAN_FAILED;
        const int runs = want_path != GCHOL_LAPACK_RAN_FAILED;
        const int on_cpu = want_path == GCHOL_LAPACK_RAN_CPU || want_path == GCHOL_LAPACK_RAN_FALLBACK;
        const long calls0 = cpu64_calls();
        gchol_lapack_route(mode, 0, 0);
        for (int i = 0; i < 8; ++i) a[i] = b[i] = NAN;
        a[0] = 6.25;
        b[0] = 5.0;
        int64_t info1 = -777, info2 = -777;
        dposv_64_("L", W(1), W(1), a, &ld, b, &ld, &info1, 1);
        const int path1 = gchol_lapack_last_path();
        dpotrf_64_("U", W(1), a + 1, &ld, &info2, 1); /* a NaN pivot: info 1 */
        const int path2 = gchol_lapack_last_path();
        const long calls = cpu64_calls() - calls0;
        int ok = path1 == want_path && path2 == want_path;
        if (runs) ok &= info1 == 0 && a[0] == 2.5 && fabs(b[0] - 0.8) < 1e-15 && info2 == 1;
        else ok &= info1 == GCHOL_ERR_NO_DEVICE && a[0] == 6.25 && b[0] == 5.0 &&
                   info2 == GCHOL_ERR_NO_DEVICE;
        if (cpu64) ok &= calls == (on_cpu ? 3 : 0); /* posv's potrf and potrs, potrf */
        for (int i = 1; i < 8; ++i) ok &= (i < 2 || a[i] != a[i]) && b[i] != b[i];
        testing_expect(ok, "ILP64: dposv_64_ / dpotrf_64_ n = 1, lda = ldb = 2^32 + 1, mode %s: "
                       "path %s %s (want %s), info %lld %lld, a %g b %g, ILP64 CPU calls %ld",
                       mode_name(mode), path_name(path1), path_name(path2), path_name(want_path),
                       (long long)info1, (long long)info2, a[0], b[0], calls);
    }
    if (cpu64) {
        /* an ordinary ILP64 call in mode cpu takes the ILP64 CPU routine */
        const long calls0 = cpu64_calls();
        potrf_case('s', 'L', 200, GCHOL_LAPACK_CPU, GCHOL_LAPACK_RAN_CPU);
        testing_expect(cpu64_calls() - calls0 == 1, "ILP64: spotrf_64_ n = 200, mode cpu: the ILP64 "
                       "CPU routine ran (%ld calls)", cpu64_calls() - calls0);
    }
    gchol_lapack_route(GCHOL_LAPACK_AUTO, 128, 2048); /* the defaults */
}

/* ---- device memory taken: redone on the CPU -------------------------------- */
/* Takes all but 64 MB of the device's memory: run it with no other GPU
 * process (make test runs the testers one after another). */
static void out_of_memory(void)
{
    if (!have_gpu) {
        testing_record(TESTING_SKIPPED);
        printf("  skipped device memory exhausted (no GPU)\n");
        return;
    }
    size_t free_b = 0, total_b = 0;
    void *hog = NULL;
    cudaFree(0);
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess ||
        free_b < (128u << 20) || cudaMalloc(&hog, free_b - (64u << 20)) != cudaSuccess) {
        cudaGetLastError();
        testing_expect(0, "device memory exhausted: could not take the device's memory");
        return;
    }
    /* 7000^2 doubles (392 MB) fit neither in the 64 MB left nor with the
     * queue's earlier buffer (at most 201 MB, n = 5000) freed */
    potrf_case('d', 'L', 7000, GCHOL_LAPACK_GPU, GCHOL_LAPACK_RAN_FALLBACK);
    solve_case('d', 'U', 7000, 8, GCHOL_LAPACK_GPU, GCHOL_LAPACK_RAN_FALLBACK, 1);
    cudaFree(hog);
    potrf_case('d', 'L', 7000, GCHOL_LAPACK_GPU, GCHOL_LAPACK_RAN_GPU); /* and back on the GPU */
}

#endif
