/*
 * testing_posv.c -- tests and times gchol_?posv: A X = B on host arrays in
 * one trip through the GPU (factor, solve, the factor and X back), against
 * LAPACKE_?posv (OpenBLAS). Precision-generic: -DGCHOL_PREC_D gives
 * testing_dposv, -DGCHOL_PREC_S testing_sposv.
 *
 * Table mode (MAGMA style; the default, n = 1024..8192):
 *   testing_dposv [-n LIST] [--nrhs K] [--uplo L|U] [--niter K]
 *   n, nrhs, seconds and GFLOP/s of gchol_?posv (transfers included) and of
 *   LAPACKE_?posv, the factor's residual, the solution's backward error,
 *   ok / FAILED.
 * Suite mode (make test): testing_dposv --suite   (--quick: fewer sizes)
 *
 * Checks: the factor's residual ||A - L L^T||_1 / (n ||A||_1 eps) < 30, the
 * solution's backward error max_j ||b_j - A x_j||_inf / (||A||_inf
 * ||x_j||_inf n eps) < 30, A's other triangle and every padding row (NaN)
 * untouched; with A(k,k) < 0: info = k and B not written (as LAPACK's
 * ?posv); nrhs = 0 still factors A. Also the argument checks and, without a
 * GPU, GCHOL_ERR_NO_DEVICE with the arrays untouched (these run on any
 * machine).
 *
 * Every mode ends with "SUMMARY passed=P failed=F skipped=S".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include "gchol.h"
#include "argcheck.h"
#include "flops.h"
#include "testing_prec.h"
#include "util.h"

#define INFO_POISON TESTING_INFO_POISON
#define LEN(a)      TESTING_LEN(a)

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* A (lda x n): the SPD matrix in its uplo triangle, NaN elsewhere; B0
 * (ldb x nrhs): random, padding rows NaN. */
static void make_problem(char uplo, int64_t n, int64_t nrhs, FLOAT *A, int64_t lda, FLOAT *B,
                         int64_t ldb)
{
    testing_fill_nan(PREC, lda * n, A);
    testing_generate_spd(PREC, uplo, n, A, lda, 23 + (uint64_t)n); /* other triangle NaN */
    testing_generate_rhs(PREC, n, nrhs, B, ldb, 131 + (uint64_t)n);
}

/* gchol_?posv (host arrays, one trip): the factor's residual, the solution's
 * backward error, A's other triangle and every padding row untouched; with
 * k_bad > 0 the diagonal entry k_bad is made negative: info = k_bad and B
 * not written (as LAPACK's ?posv). */
static testing_result_t run_posv(char uplo, int64_t n, int64_t nrhs, int64_t pad, int64_t k_bad)
{
    const int64_t lda = max64(1, n + pad), ldb = max64(1, n + pad + 2);
    char why[160] = "";
    double ratio = NAN, resid = NAN;
    testing_result_t res = TESTING_FAILED;
    printf("  ");
    if (!testing_have_gpu()) {
        printf("%-7s %cposv      %c n=%-5lld nrhs=%-4lld (no GPU)\n", "skipped", PREC, uplo,
               (long long)n, (long long)nrhs);
        return testing_record(TESTING_SKIPPED);
    }
    FLOAT *A0 = testing_malloc((size_t)(lda * n) * ES), *A = testing_malloc((size_t)(lda * n) * ES);
    FLOAT *B0 = testing_malloc((size_t)(ldb * nrhs) * ES);
    FLOAT *B = testing_malloc((size_t)(ldb * nrhs) * ES);
    int64_t info = INFO_POISON;
    make_problem(uplo, n, nrhs, A0, lda, B0, ldb);
    if (k_bad > 0) A0[(k_bad - 1) * (lda + 1)] = (FLOAT)-1.0;
    memcpy(A, A0, (size_t)(lda * n) * ES);
    memcpy(B, B0, (size_t)(ldb * nrhs) * ES);
    const int64_t ret = GCHOL(posv)(uplo, n, nrhs, A, lda, B, ldb, &info);
    const int64_t abad = testing_count_untouched_violations(PREC, uplo, n, A, A0, lda);
    int64_t bbad = 0;
    if (k_bad > 0) {
        bbad = testing_count_diff(PREC, ldb * nrhs, B, B0);
    } else {
        bbad = testing_count_padding_diff(PREC, n, nrhs, B, B0, ldb);
        ratio = testing_solve_ratio(PREC, uplo, n, nrhs, A0, lda, B0, ldb, B, ldb) /
                ((double)max64(n, 1) * testing_eps(PREC));
        resid = testing_residual_cpu(PREC, uplo, n, A0, lda, A, lda);
    }
    if (ret != info || info != (k_bad > 0 ? k_bad : 0))
        snprintf(why, sizeof why, "ret %lld info %lld", (long long)ret, (long long)info);
    else if (abad) snprintf(why, sizeof why, "A written outside its triangle (%lld)", (long long)abad);
    else if (bbad) snprintf(why, sizeof why, "B written where it must not (%lld)", (long long)bbad);
    else if (k_bad == 0 && !(ratio >= 0 && ratio < TESTING_TOL && resid < TESTING_TOL))
        snprintf(why, sizeof why, "residual");
    else res = TESTING_PASSED;
    printf("%-7s %cposv      %c n=%-5lld nrhs=%-4lld lda=%-5lld ldb=%-5lld k_bad=%-4lld berr %.2e "
           "resid %.2e %s\n", testing_result_name(res), PREC, uplo, (long long)n, (long long)nrhs,
           (long long)lda, (long long)ldb, (long long)k_bad, ratio, resid, why);
    free(A0); free(A); free(B0); free(B);
    return testing_record(res);
}

/* ===========================================================================
 * Argument checks, the host form without a GPU.
 * ========================================================================= */
static int64_t posv_w(const testing_args_t *a)
{
    return GCHOL(posv)(a->uplo, a->n, a->nrhs, (FLOAT *)a->A, a->ld, (FLOAT *)a->C, a->ldc,
                       a->info);
}

/* posv factors A also when nrhs = 0, as LAPACK's does: no quick return */
static const testing_entry_t arg_entries[] = {
    { GCHOL_NAME("posv"), posv_w, 1, 1, 1,
      { R_UPLO, R_N, R_NRHS, R_A, R_LD, R_C, R_LDC, R_INFO } },
};

static void run_suite(int quick)
{
    /* without a GPU the solve reports GCHOL_ERR_NO_DEVICE and leaves A and B
     * alone */
    testing_check_solve_no_device(PREC, &arg_entries[0], "posv without a GPU");
    printf("\n-- posv (host arrays, one trip): both triangles --\n");
    const int64_t vn[] = { 1, 2, 33, 200, 1000, 4700, 6500 };
    for (int u = 0; u < 2; u++) {
        const char uplo = u ? 'U' : 'L';
        for (int i = 0; i < LEN(vn); i++) {
            if (quick && vn[i] > 1000) continue;
            run_posv(uplo, vn[i], i % 2 ? 5 : 1, i % 3, 0);
        }
        run_posv(uplo, 300, 0, 1, 0);   /* nrhs = 0: A is still factored */
        run_posv(uplo, 300, 2, 0, 1);   /* info = k: B untouched */
        run_posv(uplo, 700, 3, 2, 517);
    }
}

/* ===========================================================================
 * Table mode.
 * ========================================================================= */
static void table_row(char uplo, int64_t n, int64_t nrhs, int niter)
{
    const int64_t lda = max64(1, n), ldb = max64(1, n);
    const size_t abytes = (size_t)(lda * n) * ES, bbytes = (size_t)(ldb * nrhs) * ES;
    FLOAT *A0 = testing_malloc(abytes), *A = testing_malloc(abytes);
    FLOAT *B0 = testing_malloc(bbytes), *B = testing_malloc(bbytes);
    double *times = calloc((size_t)niter, sizeof(double)), tg = 0, tc = -1, berr = NAN,
           resid = NAN;
    int64_t info = INFO_POISON;
    int ok = times != NULL;
    if (ok)
        make_problem(uplo, n, nrhs, A0, lda, B0, ldb);
    for (int it = -1; it < niter && ok; it++) {
        memcpy(A, A0, abytes);
        memcpy(B, B0, bbytes);
        double t = testing_wtime();
        ok = GCHOL(posv)(uplo, n, nrhs, A, lda, B, ldb, &info) == 0 && info == 0;
        if (it >= 0)
            times[it] = testing_wtime() - t;
    }
    tg = ok ? testing_median(times, niter) : 0;
    if (ok) {
        berr = testing_solve_ratio(PREC, uplo, n, nrhs, A0, lda, B0, ldb, B, ldb) /
               ((double)max64(n, 1) * testing_eps(PREC));
        resid = testing_residual_cpu(PREC, uplo, n, A0, lda, A, lda);
        memcpy(A, A0, abytes);
        memcpy(B, B0, bbytes);
        LAPACKE_set_nancheck(0);
        tc = testing_wtime();
        LAPACKE(posv)(LAPACK_COL_MAJOR, uplo, (lapack_int)n, (lapack_int)nrhs, A, (lapack_int)lda,
                      B, (lapack_int)ldb);
        tc = testing_wtime() - tc;
    }
    ok = ok && berr >= 0 && berr < TESTING_TOL && resid >= 0 && resid < TESTING_TOL;
    testing_record(ok ? TESTING_PASSED : TESTING_FAILED);
    const double gf = testing_flops_posv(n, nrhs) / 1e9;
    printf("%7lld %5lld %10.5f %9.1f %10.5f %9.1f %10.2e %10.2e  %s\n", (long long)n,
           (long long)nrhs, tg, tg > 0 ? gf / tg : 0.0, tc, tc > 0 ? gf / tc : 0.0, resid, berr,
           ok ? "ok" : "FAILED");
    fflush(stdout);
    free(A0); free(A); free(B0); free(B); free(times);
}

static void run_table(const testing_cmdline_t *cmd)
{
    const int64_t nrhs = cmd->nrhs;
    const char uplo = cmd->uplo;
    if (!testing_have_gpu()) { /* the host form needs no queue of ours */
        printf("no GPU: table skipped\n");
        testing_record(TESTING_SKIPPED);
        return;
    }
    printf("%s precision, gchol_%cposv (host arrays, transfers included), uplo %c, nrhs %lld, "
           "niter %d (median)\n", PREC_NAME, PREC, uplo, (long long)nrhs, cmd->niter);
    printf("CPU reference: LAPACKE_%cposv; flops n^3/3 + n^2/2 + n/6 + 2 n^2 nrhs\n", PREC);
    printf("%7s %5s %10s %9s %10s %9s %10s %10s  %s\n", "n", "nrhs", "gchol s", "GF/s", "CPU s",
           "CPU GF/s", "residual", "berr", "check");
    for (int64_t i = 0; i < cmd->ns.count; i++)
        table_row(uplo, cmd->ns.v[i], nrhs, cmd->niter);
}

int main(int argc, char **argv)
{
    /* the host form makes its own queue: none of ours */
    const testing_tester_t t = { PREC, "posv", TESTING_CMD_NRHS, NULL, arg_entries,
                                 LEN(arg_entries), run_suite, run_table };
    LAPACKE_set_nancheck(0); /* inputs are NaN outside what is read */
    return testing_tester_main(argc, argv, &t);
}
