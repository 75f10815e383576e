/*
 * lapack_shim_bounds.h -- testing_lapack_shim's cases on arrays of exactly
 * LAPACK's extent against guard pages.
 * Part of testing_lapack_shim.c, which includes it once.
 */
#ifndef GCHOL_TESTING_LAPACK_SHIM_BOUNDS_H
#define GCHOL_TESTING_LAPACK_SHIM_BOUNDS_H

/* ---- arrays of LAPACK's extent against guard pages ----------------------- */
/* count elements of src into a new guarded array (testing_guard.h) */
static void *guarded_copy(const void *src, size_t count, size_t es, int where)
{
    void *g = testing_guard_alloc(count * es, where);
    if (!g) { fprintf(stderr, "guard pages: mmap failed\n"); exit(2); }
    memcpy(g, src, count * es);
    return g;
}

/* Every routine of the shim on arrays of exactly LAPACK's extent (no padding
 * after the last column; n(n+1)/2 for RFP; dsposv's work n x nrhs and swork
 * n(n+nrhs)), each ending against, then starting after, an inaccessible page:
 * a read or write outside stops the tester (its handler reports the case). */
static void bounds_cases(char prec, int mode, int want_path)
{
    const size_t es = testing_elsize(prec);
    const int n = mode == GCHOL_LAPACK_CPU ? 37 : 300, lda = n + 3, ldb = n + 1, nrhs = 3;
    const size_t ext_a = (size_t)lda * (n - 1) + n, ext_b = (size_t)ldb * (nrhs - 1) + n;
    const size_t nt = (size_t)n * (n + 1) / 2;
    testing_guard_trap();
    for (int where = TESTING_GUARD_TAIL; where <= TESTING_GUARD_HEAD; ++where) {
        const char uplo = where == TESTING_GUARD_TAIL ? 'L' : 'U';
        const char *at = where == TESTING_GUARD_TAIL ? "end" : "start";
        void *a = spd_poisoned(prec, uplo, n, lda, 9000 + n), *a0 = dup_array(a, (size_t)lda * n * es);
        void *b = rhs_poisoned(prec, n, nrhs, ldb, 9100), *b0 = dup_array(b, (size_t)ldb * nrhs * es);
        int info = -777;
        gchol_lapack_route(mode, -1, -1);
        /* potrf, then potrs with its factor */
        testing_guard_label("%cpotrf_ bounds %c n=%d mode %s", prec, uplo, n, mode_name(mode));
        void *ga = guarded_copy(a, ext_a, es, where);
        call_potrf(prec, uplo, n, ga, lda, &info);
        int path = gchol_lapack_last_path();
        memcpy(a, ga, ext_a * es);
        const double r = testing_residual_cpu(prec, uplo, n, a0, lda, a, lda);
        testing_expect(info == 0 && path == want_path && r < TESTING_TOL && testing_guard_slack_ok(ga),
                       "%cpotrf_ %c n=%d lda=%d mode %-4s, array %s against a guard page: path %s "
                       "info %d resid %.2e", prec, uplo, n, lda, mode_name(mode), at,
                       path_name(path), info, r);
        testing_guard_label("%cpotrs_ bounds %c n=%d mode %s", prec, uplo, n, mode_name(mode));
        void *gb = guarded_copy(b, ext_b, es, where);
        info = -777;
        call_potrs(prec, uplo, n, nrhs, ga, lda, gb, ldb, &info);
        path = gchol_lapack_last_path();
        memcpy(b, gb, ext_b * es);
        double q = solve_ratio(prec, uplo, n, nrhs, a0, lda, b0, ldb, b, ldb);
        testing_expect(info == 0 && path == want_path && q < TESTING_TOL && testing_guard_slack_ok(ga) &&
                       testing_guard_slack_ok(gb),
                       "%cpotrs_ %c n=%d nrhs=%d mode %-4s, arrays %s against guard pages: path %s "
                       "info %d ratio %.2e", prec, uplo, n, nrhs, mode_name(mode), at,
                       path_name(path), info, q);
        testing_guard_free(ga);
        testing_guard_free(gb);
        /* posv */
        testing_guard_label("%cposv_ bounds %c n=%d mode %s", prec, uplo, n, mode_name(mode));
        ga = guarded_copy(a0, ext_a, es, where);
        gb = guarded_copy(b0, ext_b, es, where);
        info = -777;
        call_posv(prec, uplo, n, nrhs, ga, lda, gb, ldb, &info);
        path = gchol_lapack_last_path();
        memcpy(b, gb, ext_b * es);
        q = solve_ratio(prec, uplo, n, nrhs, a0, lda, b0, ldb, b, ldb);
        testing_expect(info == 0 && path == want_path && q < TESTING_TOL && testing_guard_slack_ok(ga) &&
                       testing_guard_slack_ok(gb),
                       "%cposv_  %c n=%d nrhs=%d mode %-4s, arrays %s against guard pages: path %s "
                       "info %d ratio %.2e", prec, uplo, n, nrhs, mode_name(mode), at,
                       path_name(path), info, q);
        testing_guard_free(ga);
        testing_guard_free(gb);
        /* pftrf, then pftrs with its factor */
        const char transr = where == TESTING_GUARD_TAIL ? 'N' : 'T';
        void *arf = xmalloc(nt * es), *l = dup_array(a0, (size_t)lda * n * es);
        if (prec == 'd') LAPACKE_dtrttf(LAPACK_COL_MAJOR, transr, uplo, n, a0, lda, arf);
        else LAPACKE_strttf(LAPACK_COL_MAJOR, transr, uplo, n, a0, lda, arf);
        testing_guard_label("%cpftrf_ bounds %c%c n=%d mode %s", prec, transr, uplo, n, mode_name(mode));
        ga = guarded_copy(arf, nt, es, where);
        info = -777;
        call_pftrf(prec, transr, uplo, n, ga, &info);
        path = gchol_lapack_last_path();
        if (prec == 'd') LAPACKE_dtfttr(LAPACK_COL_MAJOR, transr, uplo, n, ga, l, lda);
        else LAPACKE_stfttr(LAPACK_COL_MAJOR, transr, uplo, n, ga, l, lda);
        const double rr = testing_residual_cpu(prec, uplo, n, a0, lda, l, lda);
        testing_expect(info == 0 && path == want_path && rr < TESTING_TOL && testing_guard_slack_ok(ga),
                       "%cpftrf_ %c%c n=%d mode %-4s, array %s against a guard page: path %s info "
                       "%d resid %.2e", prec, transr, uplo, n, mode_name(mode), at, path_name(path),
                       info, rr);
        testing_guard_label("%cpftrs_ bounds %c%c n=%d mode %s", prec, transr, uplo, n, mode_name(mode));
        gb = guarded_copy(b0, ext_b, es, where);
        info = -777;
        call_pftrs(prec, transr, uplo, n, nrhs, ga, gb, ldb, &info);
        path = gchol_lapack_last_path();
        memcpy(b, gb, ext_b * es);
        q = solve_ratio(prec, uplo, n, nrhs, a0, lda, b0, ldb, b, ldb);
        testing_expect(info == 0 && path == want_path && q < TESTING_TOL && testing_guard_slack_ok(ga) &&
                       testing_guard_slack_ok(gb),
                       "%cpftrs_ %c%c n=%d nrhs=%d mode %-4s, arrays %s against guard pages: path %s "
                       "info %d ratio %.2e", prec, transr, uplo, n, nrhs, mode_name(mode), at,
                       path_name(path), info, q);
        testing_guard_free(ga);
        testing_guard_free(gb);
        free(arf);
        free(l);
        if (prec == 'd') { /* dsposv: a, b, x and both workspaces */
            testing_guard_label("dsposv_ bounds %c n=%d mode %s", uplo, n, mode_name(mode));
            const int ldx = n + 2;
            const size_t ext_x = (size_t)ldx * (nrhs - 1) + n;
            double *x = xmalloc((size_t)ldx * nrhs * 8);
            testing_fill_nan('d', (int64_t)ldx * nrhs, x);
            ga = guarded_copy(a0, ext_a, es, where);
            gb = guarded_copy(b0, ext_b, es, where);
            double *gx = guarded_copy(x, ext_x, 8, where);
            double *work = testing_guard_alloc((size_t)n * nrhs * 8, where);
            float *swork = testing_guard_alloc((size_t)n * (n + nrhs) * 4, where);
            int iter = -777;
            info = -777;
            call_dsposv(uplo, n, nrhs, ga, lda, gb, ldb, gx, ldx, work, swork, &iter, &info);
            path = gchol_lapack_last_path();
            memcpy(x, gx, ext_x * 8);
            q = solve_ratio('d', uplo, n, nrhs, a0, lda, b0, ldb, x, ldx);
            testing_expect(info == 0 && iter > 0 && path == want_path && q < TESTING_TOL &&
                           testing_guard_slack_ok(ga) && testing_guard_slack_ok(gb) &&
                           testing_guard_slack_ok(gx) && testing_guard_slack_ok(work) &&
                           testing_guard_slack_ok(swork),
                           "dsposv_ %c n=%d nrhs=%d mode %-4s, a, b, x, work, swork %s against "
                           "guard pages: path %s info %d iter %d ratio %.2e", uplo, n, nrhs,
                           mode_name(mode), at, path_name(path), info, iter, q);
            testing_guard_free(ga);
            testing_guard_free(gb);
            testing_guard_free(gx);
            testing_guard_free(work);
            testing_guard_free(swork);
            free(x);
        }
        free(a); free(a0); free(b); free(b0);
    }
}

#endif
