/*
 * lapack_shim_args.h -- testing_lapack_shim's argument cases: illegal
 * arguments (the CPU LAPACK's info = -i, nothing touched), quick returns and
 * lower-case letters.
 * Part of testing_lapack_shim.c, which includes it once.
 */
#ifndef GCHOL_TESTING_LAPACK_SHIM_ARGS_H
#define GCHOL_TESTING_LAPACK_SHIM_ARGS_H

/* ---- illegal arguments: the CPU LAPACK's info = -i ----------------------- */
static void bad_args(char prec)
{
    const size_t es = testing_elsize(prec);
    void *a = xmalloc(64 * 64 * es), *b = xmalloc(64 * 4 * es);
    testing_generate_spd(prec, 'L', 8, a, 8, 5);
    struct { const char *what; int want; } r[24];
    int got[24], m = 0;
    for (int mode = GCHOL_LAPACK_AUTO; mode <= GCHOL_LAPACK_CPU; ++mode) {
        gchol_lapack_route(mode, 0, 0);
        m = 0;
        int info;
#define BAD(call, name, w) do { info = 0; call; got[m] = info; r[m].what = name; r[m].want = w; ++m; } while (0)
        BAD(call_potrf(prec, 'X', 8, a, 8, &info), "potrf uplo", -1);
        BAD(call_potrf(prec, 'L', -1, a, 8, &info), "potrf n", -2);
        BAD(call_potrf(prec, 'L', 8, a, 7, &info), "potrf lda", -4);
        BAD(call_potrs(prec, 'x', 8, 1, a, 8, b, 8, &info), "potrs uplo", -1);
        BAD(call_potrs(prec, 'L', -2, 1, a, 8, b, 8, &info), "potrs n", -2);
        BAD(call_potrs(prec, 'L', 8, -1, a, 8, b, 8, &info), "potrs nrhs", -3);
        BAD(call_potrs(prec, 'L', 8, 1, a, 7, b, 8, &info), "potrs lda", -5);
        BAD(call_potrs(prec, 'L', 8, 1, a, 8, b, 7, &info), "potrs ldb", -7);
        BAD(call_posv(prec, 'Z', 8, 1, a, 8, b, 8, &info), "posv uplo", -1);
        BAD(call_posv(prec, 'U', -1, 1, a, 8, b, 8, &info), "posv n", -2);
        BAD(call_posv(prec, 'U', 8, -1, a, 8, b, 8, &info), "posv nrhs", -3);
        BAD(call_posv(prec, 'U', 8, 1, a, 5, b, 8, &info), "posv lda", -5);
        BAD(call_posv(prec, 'U', 8, 1, a, 8, b, 0, &info), "posv ldb", -7);
        BAD(call_pftrf(prec, 'C', 'L', 8, a, &info), "pftrf transr 'C' (real)", -1);
        BAD(call_pftrf(prec, 'N', 'Q', 8, a, &info), "pftrf uplo", -2);
        BAD(call_pftrf(prec, 'T', 'L', -3, a, &info), "pftrf n", -3);
        BAD(call_pftrs(prec, 'N', 'L', 8, -1, a, b, 8, &info), "pftrs nrhs", -4);
        BAD(call_pftrs(prec, 'N', 'L', 8, 1, a, b, 7, &info), "pftrs ldb", -7);
#undef BAD
        int ok = gchol_lapack_last_path() == GCHOL_LAPACK_RAN_CPU;
        for (int i = 0; i < m; ++i) ok &= got[i] == r[i].want;
        testing_expect(ok, "%c: %d illegal-argument calls in mode %s give LAPACK's info = -i", prec,
                       m, mode_name(mode));
        if (!ok)
            for (int i = 0; i < m; ++i)
                if (got[i] != r[i].want) printf("      %s: info %d, want %d\n", r[i].what, got[i], r[i].want);
    }
    if (prec == 'd') {
        const struct { char uplo; int n, nrhs, lda, ldb, ldx, want; } c[] = {
            { 'X', 8, 1, 8, 8, 8, -1 }, { 'L', -1, 1, 8, 8, 8, -2 }, { 'L', 8, -1, 8, 8, 8, -3 },
            { 'L', 8, 1, 7, 8, 8, -5 }, { 'L', 8, 1, 8, 7, 8, -7 }, { 'L', 8, 1, 8, 8, 4, -9 } };
        double x[64], work[64];
        float swork[128];
        int ok = 1;
        gchol_lapack_route(GCHOL_LAPACK_GPU, 0, 0);
        for (int i = 0; i < 6; ++i) {
            int iter = 77, info = 0;
            call_dsposv(c[i].uplo, c[i].n, c[i].nrhs, a, c[i].lda, b, c[i].ldb, x, c[i].ldx, work,
                        swork, &iter, &info);
            ok &= info == c[i].want && iter == 0;
            if (info != c[i].want || iter != 0)
                printf("      dsposv case %d: info %d (want %d) iter %d (want 0)\n", i, info,
                       c[i].want, iter);
        }
        testing_expect(ok, "dsposv: 6 illegal-argument calls in mode gpu give info = -i, iter 0");
    }
    free(a); free(b);
}

/* ---- quick returns and lower-case letters ---------------------------------- */
static void quick_and_case(char prec)
{
    const size_t es = testing_elsize(prec);
    void *a = xmalloc(16 * 16 * es), *b = xmalloc(16 * 4 * es), *a2, *b2;
    testing_fill_nan(prec, 16 * 16, a);
    testing_fill_nan(prec, 16 * 4, b);
    a2 = dup_array(a, 16 * 16 * es);
    b2 = dup_array(b, 16 * 4 * es);
    int ok = 1;
    for (int mode = GCHOL_LAPACK_AUTO; mode <= GCHOL_LAPACK_CPU; ++mode) {
        int info = -7;
        gchol_lapack_route(mode, 0, 0);
        call_potrs(prec, 'L', 0, 3, a, 1, b, 1, &info); ok &= info == 0;
        info = -7; call_potrs(prec, 'U', 16, 0, a, 16, b, 16, &info); ok &= info == 0;
        info = -7; call_posv(prec, 'L', 0, 2, a, 1, b, 1, &info); ok &= info == 0;
        info = -7; call_pftrs(prec, 'T', 'U', 16, 0, a, b, 16, &info); ok &= info == 0;
        info = -7; call_pftrf(prec, 'N', 'L', 0, a, &info); ok &= info == 0;
        if (prec == 'd') {
            int n0 = 0, one = 1, iter = 5;
            info = -7;
            call_dsposv('L', n0, one, a, one, b, one, b, one, b, (float *)b, &iter, &info);
            ok &= info == 0 && iter == 0;
        }
    }
    const int64_t d = testing_count_diff(prec, 16 * 16, a, a2) + testing_count_diff(prec, 16 * 4, b, b2);
    testing_expect(ok && d == 0, "%c: n = 0 / nrhs = 0 quick returns in every mode: info 0, "
                   "nothing written (%lld changed)", prec, (long long)d);
    free(a); free(b); free(a2); free(b2);

    /* lower-case uplo / transr on valid calls: the same bytes as upper case */
    const int n = 300, lda = n + 1;
    for (int mode = GCHOL_LAPACK_GPU; mode <= GCHOL_LAPACK_CPU; ++mode) {
        void *x = spd_poisoned(prec, 'U', n, lda, 99), *y = dup_array(x, (size_t)lda * n * es);
        int ix = -1, iy = -1;
        gchol_lapack_route(mode, -1, -1);
        call_potrf(prec, 'u', n, x, lda, &ix);
        const int px = gchol_lapack_last_path();
        call_potrf(prec, 'U', n, y, lda, &iy);
        const int64_t diff = testing_count_diff(prec, (int64_t)lda * n, x, y);
        testing_expect(ix == 0 && iy == 0 && diff == 0 &&
                       px == (mode == GCHOL_LAPACK_CPU ? GCHOL_LAPACK_RAN_CPU : gpu_path()),
                       "%cpotrf_ 'u' = 'U' bit for bit, mode %s path %s (%lld differ)", prec,
                       mode_name(mode), path_name(px), (long long)diff);
        free(x); free(y);
    }
}

#endif
