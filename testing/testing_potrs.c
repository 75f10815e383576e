/*
 * testing_potrs.c -- tests and times gchol_?potrs_gpu and gchol_?potrs (host
 * arrays): A X = B with A's Cholesky factor in full storage, against
 * LAPACKE_?potrs (OpenBLAS). Precision-generic: -DGCHOL_PREC_D gives
 * testing_dpotrs, -DGCHOL_PREC_S testing_spotrs.
 *
 * Table mode (MAGMA style; the default, n = 1024..8192):
 *   testing_dpotrs [-n LIST] [--nrhs K] [--uplo L|U] [--niter K]
 *   n, nrhs, GPU seconds and GFLOP/s (2 n^2 nrhs), LAPACKE_?potrs seconds and
 *   GFLOP/s, the backward error ratio, ok / FAILED.
 * Suite mode (make test): testing_dpotrs --suite   (--quick: fewer sizes)
 *
 * Matrices: A = B B^T / n + MU I (testing_generate_gram_spd), factored by
 * gchol_?potrf_gpu; random right-hand sides, B's padding rows NaN. Checks:
 * the backward error max_j ||b_j - A x_j||_inf / (||A||_inf ||x_j||_inf n
 * eps) < 30 (eps of the precision); the factor (with its padding) and the
 * padding rows of B untouched; info 0. Also the n = 0 quick return, the
 * argument checks and, without a GPU, the host form's GCHOL_ERR_NO_DEVICE
 * (these run on any machine).
 *
 * Every mode ends with "SUMMARY passed=P failed=F skipped=S".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include <lapacke.h>

#include "gchol.h"
#include "argcheck.h"
#include "testing_prec.h"
#include "util.h"

#define INFO_POISON TESTING_INFO_POISON
#define MU          0.25
#define LEN(a)      TESTING_LEN(a)

static gchol_queue_t g_queue;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Random right-hand sides n x nrhs (ldb), padding rows NaN. */
static void make_rhs(int64_t n, int64_t nrhs, FLOAT *B, int64_t ldb)
{
    testing_generate_rhs(PREC, n, nrhs, B, ldb, 97 + (uint64_t)n);
}

/* ===========================================================================
 * The solves.
 * ========================================================================= */
static testing_result_t run_potrs(char uplo, int64_t n, int64_t nrhs, int64_t pad, int host)
{
    const int64_t lda = max64(1, n + pad), ldb = max64(1, n + pad + 1);
    char why[160] = "";
    double ratio = NAN;
    testing_result_t res = TESTING_FAILED;
    printf("  ");
    if (!testing_have_gpu()) {
        printf("%-7s %cpotrs%s %c n=%-5lld nrhs=%-4lld (no GPU)\n", "skipped", PREC,
               host ? "    " : "_gpu", uplo, (long long)n, (long long)nrhs);
        return testing_record(TESTING_SKIPPED);
    }
    FLOAT *A = testing_malloc((size_t)(lda * n) * ES), *F = testing_malloc((size_t)(lda * n) * ES);
    FLOAT *B0 = testing_malloc((size_t)(ldb * nrhs) * ES);
    FLOAT *B = testing_malloc((size_t)(ldb * nrhs) * ES);
    FLOAT *Fsaved = testing_malloc((size_t)(lda * n) * ES), *dF = NULL, *dB = NULL;
    int64_t info = INFO_POISON, finfo = INFO_POISON;
    testing_fill_nan(PREC, lda * n, A);
    if (testing_generate_gram_spd(PREC, n, A, lda, MU, 11 + (uint64_t)n)) {
        snprintf(why, sizeof why, "out of memory");
        goto out;
    }
    memcpy(F, A, (size_t)(lda * n) * ES);
    make_rhs(n, nrhs, B0, ldb);
    memcpy(B, B0, (size_t)(ldb * nrhs) * ES);
    if (!(dF = testing_upload(F, (size_t)(lda * n) * ES)))
        goto out;
    if (GCHOL(potrf_gpu)(uplo, n, dF, lda, &finfo, g_queue) != 0 || finfo != 0) {
        snprintf(why, sizeof why, "potrf info %lld", (long long)finfo);
        goto out;
    }
    if (testing_download(F, dF, (size_t)(lda * n) * ES))
        goto out;
    memcpy(Fsaved, F, (size_t)(lda * n) * ES);
    if (host) {
        info = GCHOL(potrs)(uplo, n, nrhs, F, lda, B, ldb, &info);
    } else {
        if (!(dB = testing_upload(B, (size_t)(ldb * nrhs) * ES)))
            goto out;
        info = GCHOL(potrs_gpu)(uplo, n, nrhs, dF, lda, dB, ldb, &info, g_queue);
        if (TESTING_CUDA(cudaDeviceSynchronize()) ||
            testing_download(B, dB, (size_t)(ldb * nrhs) * ES) ||
            testing_download(F, dF, (size_t)(lda * n) * ES))
            goto out;
    }
    const int64_t fchanged = testing_count_diff(PREC, lda * n, F, Fsaved);
    const int64_t padbad = testing_count_padding_diff(PREC, n, nrhs, B, B0, ldb);
    ratio = testing_solve_berr(PREC, uplo, n, nrhs, A, lda, B0, ldb, B, ldb);
    if (info != 0) snprintf(why, sizeof why, "info %lld", (long long)info);
    else if (fchanged) snprintf(why, sizeof why, "factor written (%lld)", (long long)fchanged);
    else if (padbad) snprintf(why, sizeof why, "B padding written (%lld)", (long long)padbad);
    else if (!(ratio < TESTING_TOL)) snprintf(why, sizeof why, "backward error");
    else res = TESTING_PASSED;
out:
    printf("%-7s %cpotrs%s %c n=%-5lld nrhs=%-4lld lda=%-5lld ldb=%-5lld berr %.2e %s\n",
           testing_result_name(res), PREC, host ? "    " : "_gpu", uplo, (long long)n,
           (long long)nrhs, (long long)lda, (long long)ldb, ratio, why);
    if (dF) cudaFree(dF);
    if (dB) cudaFree(dB);
    free(A); free(F); free(B0); free(B); free(Fsaved);
    return testing_record(res);
}

/* ===========================================================================
 * Quick return, argument checks, the host form without a GPU.
 * ========================================================================= */
static void run_quick_return(void)
{
    int64_t info = INFO_POISON;
    if (!testing_have_gpu()) {
        testing_skip("quick return (no GPU)");
        return;
    }
    GCHOL(potrs_gpu)('L', 0, 3, NULL, 1, NULL, 1, &info, g_queue);
    testing_expect(info == 0, "%cpotrs_gpu n = 0: info %lld", PREC, (long long)info);
}

static int64_t potrs_w(const testing_args_t *a)
{
    return GCHOL(potrs_gpu)(a->uplo, a->n, a->nrhs, (const FLOAT *)a->A, a->ld, (FLOAT *)a->C,
                            a->ldc, a->info, a->q);
}
static int64_t potrs_host_w(const testing_args_t *a)
{
    return GCHOL(potrs)(a->uplo, a->n, a->nrhs, (const FLOAT *)a->A, a->ld, (FLOAT *)a->C, a->ldc,
                        a->info);
}

static const testing_entry_t arg_entries[] = {
    { GCHOL_NAME("potrs_gpu"), potrs_w, 0, 1, 0,
      { R_UPLO, R_N, R_NRHS, R_A, R_LD, R_C, R_LDC, R_INFO, R_QUEUE } },
    { GCHOL_NAME("potrs"), potrs_host_w, 1, 1, 0,
      { R_UPLO, R_N, R_NRHS, R_A, R_LD, R_C, R_LDC, R_INFO } },
};

static void run_suite(int quick)
{
    /* without a GPU the host solve reports GCHOL_ERR_NO_DEVICE and leaves A
     * and B alone */
    testing_check_solve_no_device(PREC, &arg_entries[1], "the host solve without a GPU");
    run_quick_return();
    printf("\n-- potrs: both triangles, device and host arrays --\n");
    const int64_t pn[] = { 1, 2, 3, 31, 64, 65, 200, 513, 1100, 3000 };
    for (int u = 0; u < 2; u++)
        for (int i = 0; i < LEN(pn); i++) {
            if (quick && pn[i] > 513) continue;
            const char uplo = u ? 'U' : 'L';
            run_potrs(uplo, pn[i], i % 3 == 0 ? 1 : 7, i % 2 ? 3 : 0, 0);
            if (i % 4 == 1) run_potrs(uplo, pn[i], 2, 1, 1);
        }
    if (!quick) /* many right-hand sides: the recursive trsm's kernel leaves */
        run_potrs(PREC == 'd' ? 'L' : 'U', 1100, 1100, 0, 0);
}

/* ===========================================================================
 * Table mode.
 * ========================================================================= */
static void table_row(char uplo, int64_t n, int64_t nrhs, int niter)
{
    const int64_t lda = max64(1, n), ldb = max64(1, n);
    const size_t abytes = (size_t)(lda * n) * ES, bbytes = (size_t)(ldb * nrhs) * ES;
    FLOAT *A = testing_malloc(abytes), *F = testing_malloc(abytes);
    FLOAT *B0 = testing_malloc(bbytes), *B = testing_malloc(bbytes);
    FLOAT *dF = NULL, *dB = NULL;
    double *times = calloc((size_t)niter, sizeof(double)), tg = 0, tc = -1, berr = NAN;
    int64_t info = INFO_POISON;
    int ok = times && testing_generate_gram_spd(PREC, n, A, lda, MU, 11 + (uint64_t)n) == 0;
    if (ok) {
        make_rhs(n, nrhs, B0, ldb);
        ok = (dF = testing_upload(A, abytes)) != NULL && (dB = testing_upload(B0, bbytes)) != NULL &&
             GCHOL(potrf_gpu)(uplo, n, dF, lda, &info, g_queue) == 0 && info == 0 &&
             testing_download(F, dF, abytes) == 0;
    }
    for (int it = -1; it < niter && ok; it++) {
        ok = !TESTING_CUDA(cudaMemcpy(dB, B0, bbytes, cudaMemcpyHostToDevice));
        double t = testing_wtime();
        ok = ok && GCHOL(potrs_gpu)(uplo, n, nrhs, dF, lda, dB, ldb, &info, g_queue) == 0 &&
             info == 0 && gchol_queue_sync(g_queue) == 0;
        if (it >= 0)
            times[it] = testing_wtime() - t;
    }
    tg = ok ? testing_median(times, niter) : 0;
    if (ok && testing_download(B, dB, bbytes) == 0) {
        berr = testing_solve_berr(PREC, uplo, n, nrhs, A, lda, B0, ldb, B, ldb);
        memcpy(B, B0, bbytes);
        LAPACKE_set_nancheck(0);
        tc = testing_wtime();
        LAPACKE(potrs)(LAPACK_COL_MAJOR, uplo, (lapack_int)n, (lapack_int)nrhs, F,
                       (lapack_int)lda, B, (lapack_int)ldb);
        tc = testing_wtime() - tc;
    }
    testing_solve_table_row(n, nrhs, tg, tc, berr, ok);
    cudaFree(dF);
    cudaFree(dB);
    free(A); free(F); free(B0); free(B); free(times);
}

static void run_table(const testing_cmdline_t *cmd)
{
    if (!testing_table_can_run(g_queue))
        return;
    printf("%s precision, gchol_%cpotrs_gpu, uplo %c, nrhs %lld, niter %d (median)\n", PREC_NAME,
           PREC, cmd->uplo, (long long)cmd->nrhs, cmd->niter);
    testing_solve_table_head(PREC, "potrs", MU);
    for (int64_t i = 0; i < cmd->ns.count; i++)
        table_row(cmd->uplo, cmd->ns.v[i], cmd->nrhs, cmd->niter);
}

int main(int argc, char **argv)
{
    const testing_tester_t t = { PREC, "potrs", TESTING_CMD_NRHS, &g_queue, arg_entries,
                                 LEN(arg_entries), run_suite, run_table };
    LAPACKE_set_nancheck(0); /* inputs are NaN outside what is read */
    return testing_tester_main(argc, argv, &t);
}
