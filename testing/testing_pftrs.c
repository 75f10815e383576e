/*
 * testing_pftrs.c -- tests and times gchol_?pftrs_gpu and gchol_?pftrs (host
 * arrays): A X = B with A's Cholesky factor in RFP storage, in all four
 * (transr, uplo) variants, against LAPACKE_?pftrs (OpenBLAS).
 * Precision-generic: -DGCHOL_PREC_D gives testing_dpftrs, -DGCHOL_PREC_S
 * testing_spftrs.
 *
 * Table mode (MAGMA style; the default, n = 1024..8192):
 *   testing_dpftrs [-n LIST] [--nrhs K] [--transr N|T] [--uplo L|U] [--niter K]
 *   n, nrhs, GPU seconds and GFLOP/s (2 n^2 nrhs), LAPACKE_?pftrs seconds and
 *   GFLOP/s, the backward error ratio, ok / FAILED.
 * Suite mode (make test): testing_dpftrs --suite   (--quick: fewer sizes)
 *
 * Matrices: A = B B^T / n + MU I (testing_generate_gram_spd), factored by
 * LAPACKE_?pftrf or by gchol's pftrf; random right-hand sides. Checks: the
 * backward error max_j ||b_j - A x_j||_inf / (||A||_inf ||x_j||_inf n eps)
 * < 30; the padding rows of B (NaN) and the factor with its guard elements
 * untouched; ret and info 0; the distance to LAPACKE_?pftrs's X, for the
 * record. Also the quick returns (n = 0, nrhs = 0), the argument checks and,
 * without a GPU, the host form's GCHOL_ERR_NO_DEVICE (these run on any
 * machine).
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
#define GUARD       TESTING_GUARD
#define MU          0.25                /* shift of the Gram matrices */
#define LEN(a)      TESTING_LEN(a)

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static gchol_queue_t g_queue;

static const char *const tr_list = testing_rfp_transr, *const up_list = testing_rfp_uplo;

/* The SPD matrix of order n (both triangles, lda = n), kept while the cases
 * of one n run. The caller must not free it. */
static const FLOAT *gram(int64_t n)
{
    return testing_gram_cached(PREC, n, MU, 0x6A7Aull + (uint64_t)n);
}

/* Random right-hand sides (n x nrhs, ldb; padding rows NaN). */
static void make_rhs(int64_t n, int64_t nrhs, FLOAT *B, int64_t ldb)
{
    testing_generate_rhs(PREC, n, nrhs, B, ldb, 0xB0B0ull + (uint64_t)n);
}

/* ===========================================================================
 * The solves.
 * ========================================================================= */
typedef struct {
    char    transr, uplo;
    int64_t n, nrhs, pad;
    int     gpu_factor;  /* 1: factor by gchol pftrf, 0: by LAPACKE (uploaded) */
    int     host;        /* 1: gchol_?pftrs on host arrays (LAPACKE factor)      */
} scase_t;

static void print_scase(const scase_t *c, testing_result_t res)
{
    printf("  %-7s pftrs      %c%c n=%-5lld nrhs=%-3lld lddb=%-5lld factor=%-7s",
           testing_result_name(res), c->transr, c->uplo, (long long)c->n, (long long)c->nrhs,
           (long long)max64(1, c->n + c->pad),
           c->host ? "host" : c->gpu_factor ? "gchol" : "lapacke");
}

static testing_result_t run_scase(const scase_t *c)
{
    char why[256] = "";
    int64_t n = c->n, nrhs = c->nrhs, nt = testing_rfp_size(n), ldb = max64(1, n + c->pad);
    int64_t bsize = ldb * max64(1, nrhs), ret = INFO_POISON, info = INFO_POISON, finfo = 0;
    int64_t padbad = 0;
    double berr = NAN, xdiff = NAN;
    const FLOAT *A = NULL;
    FLOAT *F = NULL, *F2 = NULL, *B0 = NULL, *B = NULL, *Xref = NULL, *dF = NULL, *dB = NULL;
    testing_result_t res;

    if (!testing_have_gpu()) {
        print_scase(c, TESTING_SKIPPED);
        printf(" (no GPU)\n");
        return testing_record(TESTING_SKIPPED);
    }
    A = gram(n);
    F = testing_guarded_new(PREC, NULL, nt);
    F2 = testing_guarded_new(PREC, NULL, nt);
    B0 = malloc((size_t)bsize * ES);
    B = malloc((size_t)bsize * ES);
    Xref = malloc((size_t)bsize * ES);
    if (!A || !F || !F2 || !B0 || !B || !Xref) {
        testing_fail_reason(why, sizeof why, "out of host memory");
        goto done;
    }
    LAPACKE_set_nancheck(0);
    LAPACKE(trttf)(LAPACK_COL_MAJOR, c->transr, c->uplo, (lapack_int)n, A, (lapack_int)n,
                   F + GUARD);
    make_rhs(n, nrhs, B0, ldb);
    memcpy(Xref, B0, (size_t)bsize * ES);
    if (!c->gpu_factor &&
        LAPACKE(pftrf)(LAPACK_COL_MAJOR, c->transr, c->uplo, (lapack_int)n, F + GUARD) != 0) {
        testing_fail_reason(why, sizeof why, "LAPACKE pftrf failed");
        goto done;
    }
    if (c->host) {
        /* host arrays: B in place, the factor must stay as it is */
        memcpy(B, B0, (size_t)bsize * ES);
        memcpy(F2, F, (size_t)(nt + 2 * GUARD) * ES);
        ret = GCHOL(pftrs)(c->transr, c->uplo, n, nrhs, F + GUARD, B, ldb, &info);
        if (ret != 0 || info != 0)
            testing_fail_reason(why, sizeof why, "ret / info not 0");
        goto check;
    }
    if (!(dF = testing_upload(F, (size_t)(nt + 2 * GUARD) * ES)) ||
        !(dB = testing_upload(B0, (size_t)bsize * ES))) {
        testing_fail_reason(why, sizeof why, "CUDA error in the harness");
        goto done;
    }
    if (c->gpu_factor) {
        if (GCHOL(pftrf_gpu)(c->transr, c->uplo, n, dF + GUARD, &finfo, g_queue) != 0 ||
            testing_download(F, dF, (size_t)(nt + 2 * GUARD) * ES)) {
            testing_fail_reason(why, sizeof why, "gchol pftrf failed");
            goto done;
        }
    }
    ret = GCHOL(pftrs_gpu)(c->transr, c->uplo, n, nrhs, dF + GUARD, dB, ldb, &info, g_queue);
    if (ret != 0 || info != 0)
        testing_fail_reason(why, sizeof why, "ret / info not 0");
    if (gchol_queue_sync(g_queue) != 0 || testing_download(B, dB, (size_t)bsize * ES) ||
        testing_download(F2, dF, (size_t)(nt + 2 * GUARD) * ES)) {
        testing_fail_reason(why, sizeof why, "sync / download failed");
        goto done;
    }
check:
    padbad = testing_count_padding_diff(PREC, n, nrhs, B, B0, ldb);
    if (padbad)
        testing_fail_reason(why, sizeof why, "padding rows of B modified");
    if (testing_count_diff(PREC, nt + 2 * GUARD, F, F2))
        testing_fail_reason(why, sizeof why, "factor (or its guards) modified");
    berr = testing_solve_berr(PREC, 'G', n, nrhs, A, n, B0, ldb, B, ldb);
    if (!(berr >= 0 && berr < TESTING_TOL))
        testing_fail_reason(why, sizeof why,
                            berr == -1 ? "out of host memory" : "backward error too large");
    /* for the record: distance to LAPACKE_?pftrs with the same factor */
    if (LAPACKE(pftrs)(LAPACK_COL_MAJOR, c->transr, c->uplo, (lapack_int)n, (lapack_int)nrhs,
                       F + GUARD, Xref, (lapack_int)ldb) == 0) {
        double md = 0, mr = 0;
        for (int64_t j = 0; j < nrhs; j++)
            for (int64_t i = 0; i < n; i++) {
                double x = (double)Xref[i + j * ldb];
                md = fmax(md, fabs((double)B[i + j * ldb] - x));
                mr = fmax(mr, fabs(x));
            }
        xdiff = md / (mr > 0 ? mr : 1);
    }
done:
    res = testing_record(why[0] ? TESTING_FAILED : TESTING_PASSED);
    print_scase(c, res);
    printf(" ret=%lld info=%lld berr=%.2e |X-Xlapack|=%.2e%s%s\n", (long long)ret,
           (long long)info, berr, xdiff, why[0] ? " -- " : "", why);
    fflush(stdout);
    cudaFree(dF);
    cudaFree(dB);
    free(F); free(F2); free(B0); free(B); free(Xref);
    return res;
}

static void run_solves(int quick)
{
    static const int64_t ns_full[] = { 1, 5, 129, 1001 }, ns_quick[] = { 5, 129 };
    static const int64_t nrhs_list[] = { 1, 3, 17 };
    const int64_t *ns = quick ? ns_quick : ns_full;
    int nn = quick ? LEN(ns_quick) : LEN(ns_full), rot = 0;
    printf("\n-- pftrs_gpu: 4 variants, nrhs 1, 3, 17, lddb > n (NaN padding) --\n");
    for (int i = 0; i < nn; i++)
        for (int r = 0; r < LEN(nrhs_list); r++)
            for (int v = 0; v < 4; v++, rot++) {
                scase_t c = { tr_list[v], up_list[v], ns[i], nrhs_list[r], rot % 2 ? 7 : 1,
                              rot % 2, 0 };
                run_scase(&c);
            }
    /* many right-hand sides: the recursive trsm's leaves run gchol's tile
     * trsm kernel from 1024 right-hand sides where B's leading dimension is
     * the factor's (trsm_rec.c): lddb = n is transr 'N''s ld for odd n. */
    printf("\n-- pftrs_gpu: 4 variants, n odd, nrhs 1100, lddb = n ('N') and n + 3 ('T') --\n");
    for (int v = 0; v < 4; v++) {
        scase_t c = { tr_list[v], up_list[v], quick ? 129 : 1001, 1100, tr_list[v] == 'N' ? 0 : 3,
                      v % 2, 0 };
        run_scase(&c);
    }
    printf("\n-- pftrs on host arrays (library queue), LAPACKE factor --\n");
    for (int i = 0; i < nn; i++)
        for (int v = 0; v < 4; v++) {
            scase_t c = { tr_list[v], up_list[v], ns[i], 3, 5, 0, 1 };
            run_scase(&c);
        }
}

/* ===========================================================================
 * Quick returns, argument checks, the host form without a GPU.
 * ========================================================================= */
static void run_quick_returns(void)
{
    int64_t info, ret;
    FLOAT hb[3 * 7], hb0[3 * 7], *db = NULL;
    if (!testing_gpu_section("quick returns", 2))
        return;
    info = INFO_POISON;
    ret = GCHOL(pftrs_gpu)('N', 'L', 0, 3, NULL, NULL, 1, &info, g_queue);
    testing_expect(ret == 0 && info == 0 && gchol_queue_sync(g_queue) == 0,
                   "pftrs_gpu n=0 nrhs=3: ret %lld info %lld", (long long)ret, (long long)info);
    /* nrhs = 0 with n = 5: B (7 x 3 here) must stay as it is */
    testing_fill_nan(PREC, 21, hb0);
    for (int i = 0; i < 21; i += 2)
        hb0[i] = (FLOAT)i;
    info = INFO_POISON;
    ret = INFO_POISON;
    if ((db = testing_upload(hb0, sizeof(hb0))) != NULL) {
        FLOAT *dfac = NULL;
        if (!TESTING_CUDA(cudaMalloc((void **)&dfac, 15 * ES)) &&
            !TESTING_CUDA(cudaMemset(dfac, 0, 15 * ES))) {
            ret = GCHOL(pftrs_gpu)('T', 'U', 5, 0, dfac, db, 7, &info, g_queue);
            if (gchol_queue_sync(g_queue) != 0 || testing_download(hb, db, sizeof(hb)))
                ret = INFO_POISON;
        }
        cudaFree(dfac);
    }
    testing_expect(ret == 0 && info == 0 && !memcmp(hb, hb0, sizeof(hb)),
                   "pftrs_gpu n=5 nrhs=0: ret %lld info %lld, B untouched", (long long)ret,
                   (long long)info);
    cudaFree(db);
}

static int64_t pftrs_w(const testing_args_t *a)
{
    return GCHOL(pftrs_gpu)(a->transr, a->uplo, a->n, a->nrhs, (const FLOAT *)a->A,
                            (FLOAT *)a->C, a->ld, a->info, a->q);
}
static int64_t pftrs_host_w(const testing_args_t *a)
{
    return GCHOL(pftrs)(a->transr, a->uplo, a->n, a->nrhs, (const FLOAT *)a->A, (FLOAT *)a->C,
                        a->ld, a->info);
}

static const testing_entry_t arg_entries[] = {
    { GCHOL_NAME("pftrs_gpu"), pftrs_w, 0, 1, 0,
      { R_TRANSR, R_UPLO, R_N, R_NRHS, R_A, R_C, R_LD, R_INFO, R_QUEUE } },
    { GCHOL_NAME("pftrs"), pftrs_host_w, 1, 1, 0,
      { R_TRANSR, R_UPLO, R_N, R_NRHS, R_A, R_C, R_LD, R_INFO } },
};

/* Without a GPU the host solve reports GCHOL_ERR_NO_DEVICE and leaves the
 * factor, the right-hand sides and what lies around them alone. */
static void run_host_no_device(void)
{
    enum { N = TESTING_RFP_SMALL_N, G = TESTING_RFP_SMALL_GUARD };
    FLOAT R[TESTING_RFP_SMALL_LEN], saved[TESTING_RFP_SMALL_LEN], B[2 * N], savedB[2 * N];
    int64_t info = INFO_POISON, ret;
    if (!testing_no_gpu_section("the host solve without a GPU"))
        return;
    testing_rfp_small_spd(PREC, 'N', 'L', R, saved);
    testing_fill_nan(PREC, 2 * N, B);
    for (int i = 0; i < N; i++)
        B[i] = (FLOAT)(1.0 + i);
    memcpy(savedB, B, sizeof(B));
    ret = GCHOL(pftrs)('N', 'L', N, 1, R + G, B, 2 * N, &info);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && info == ret && !memcmp(B, savedB, sizeof(B)) &&
                       !memcmp(R, saved, sizeof(R)),
                   GCHOL_NAME("pftrs") " without GPU: ret %lld info %lld, arrays untouched",
                   (long long)ret, (long long)info);
}

static void run_suite(int quick)
{
    run_host_no_device();
    run_quick_returns();
    run_solves(quick);
}

/* ===========================================================================
 * Table mode.
 * ========================================================================= */
static void table_row(char transr, char uplo, int64_t n, int64_t nrhs, int niter)
{
    const int64_t nt = testing_rfp_size(n), ldb = max64(1, n);
    const size_t fbytes = (size_t)max64(1, nt) * ES, bbytes = (size_t)(ldb * nrhs) * ES;
    const FLOAT *A = gram(n);
    FLOAT *F = malloc(fbytes), *B0 = malloc(bbytes), *B = malloc(bbytes);
    FLOAT *dF = NULL, *dB = NULL;
    double *times = calloc((size_t)niter, sizeof(double)), tg = 0, tc = -1, berr = NAN;
    int64_t info = INFO_POISON;
    int ok = A && F && B0 && B && times;
    if (ok) {
        LAPACKE_set_nancheck(0);
        LAPACKE(trttf)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, A, (lapack_int)n, F);
        ok = LAPACKE(pftrf)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, F) == 0;
        make_rhs(n, nrhs, B0, ldb);
    }
    ok = ok && (dF = testing_upload(F, fbytes)) != NULL && (dB = testing_upload(B0, bbytes)) != NULL;
    for (int it = -1; it < niter && ok; it++) {
        ok = !TESTING_CUDA(cudaMemcpy(dB, B0, bbytes, cudaMemcpyHostToDevice));
        double t = testing_wtime();
        ok = ok && GCHOL(pftrs_gpu)(transr, uplo, n, nrhs, dF, dB, ldb, &info, g_queue) == 0 &&
             info == 0 && gchol_queue_sync(g_queue) == 0;
        if (it >= 0)
            times[it] = testing_wtime() - t;
    }
    tg = ok ? testing_median(times, niter) : 0;
    if (ok && testing_download(B, dB, bbytes) == 0) {
        berr = testing_solve_berr(PREC, 'G', n, nrhs, A, n, B0, ldb, B, ldb);
        memcpy(B, B0, bbytes);
        tc = testing_wtime();
        LAPACKE(pftrs)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, (lapack_int)nrhs, F, B,
                       (lapack_int)ldb);
        tc = testing_wtime() - tc;
    }
    testing_solve_table_row(n, nrhs, tg, tc, berr, ok);
    cudaFree(dF);
    cudaFree(dB);
    free(F); free(B0); free(B); free(times);
}

static void run_table(const testing_cmdline_t *cmd)
{
    if (!testing_table_can_run(g_queue))
        return;
    printf("%s precision, gchol_%cpftrs_gpu, transr %c, uplo %c, nrhs %lld, niter %d (median)\n",
           PREC_NAME, PREC, cmd->transr, cmd->uplo, (long long)cmd->nrhs, cmd->niter);
    testing_solve_table_head(PREC, "pftrs", MU);
    for (int64_t i = 0; i < cmd->ns.count; i++)
        table_row(cmd->transr, cmd->uplo, cmd->ns.v[i], cmd->nrhs, cmd->niter);
}

int main(int argc, char **argv)
{
    const testing_tester_t t = { PREC, "pftrs", TESTING_CMD_NRHS | TESTING_CMD_TRANSR, &g_queue,
                                 arg_entries, LEN(arg_entries), run_suite, run_table };
    return testing_tester_main(argc, argv, &t);
}
