/*
 * testing_trttf.c -- tests and times gchol_?trttf_gpu: the uplo triangle of
 * a full-storage matrix into an RFP array, against LAPACKE_?trttf (OpenBLAS),
 * bit for bit. Precision-generic: -DGCHOL_PREC_D gives testing_dtrttf,
 * -DGCHOL_PREC_S testing_strttf.
 *
 * Table mode (MAGMA style; the default, n = 1024..8192):
 *   testing_dtrttf [-n LIST] [--transr N|T] [--uplo L|U] [--niter K]
 *   n, GPU seconds and GB/s (the triangle read and the RFP array written),
 *   LAPACKE seconds, elements that differ from LAPACKE's array, ok / FAILED.
 * Suite mode (make test): testing_dtrttf --suite   (--quick: fewer sizes)
 *   n = 0..40 and sizes around 128 and 1000 in the four (transr, uplo)
 *   variants, lda > n and = n, the other triangle NaN (must not be read) or
 *   values; the RFP array between guard elements that must stay as they
 *   are; the input untouched; the n = 0 quick return; the argument checks
 *   (these run, and pass, without a GPU).
 *
 * Every mode ends with "SUMMARY passed=P failed=F skipped=S".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include <lapacke.h>

#include "gchol.h"
#include "argcheck.h"
#include "opts.h"
#include "testing_prec.h"
#include "util.h"

#define INFO_POISON TESTING_INFO_POISON
#define GUARD       TESTING_GUARD
#define LEN(a)      TESTING_LEN(a)

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static gchol_queue_t g_queue;

static const char tr_list[4] = { 'N', 'N', 'T', 'T' };
static const char up_list[4] = { 'L', 'U', 'L', 'U' };

static void print_conv(testing_result_t res, char transr, char uplo, int64_t n, int64_t lda)
{
    printf("  %-7s %-6s %c%c n=%-5lld lda=%-5lld", testing_result_name(res), "trttf", transr,
           uplo, (long long)n, (long long)lda);
}

/* The full array A (lda x n; padding NaN; the other triangle NaN when
 * nan_other, else values) of order n. */
static void make_full(char uplo, int64_t n, FLOAT *A, int64_t lda, int nan_other)
{
    testing_fill_nan(PREC, lda * max64(1, n), A);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            int in = uplo == 'L' ? i >= j : i <= j;
            if (in || !nan_other)
                A[i + j * lda] = (FLOAT)testing_hash_uniform(0xC0FFEEull + (uint64_t)n, i, j);
        }
}

/* trttf: full (lda, other triangle NaN when nan_other, padding NaN) -> RFP. */
static testing_result_t run_trttf(char transr, char uplo, int64_t n, int64_t pad, int nan_other)
{
    char why[256] = "";
    int64_t lda = max64(1, n + pad), nt = testing_rfp_size(n), ret = INFO_POISON,
            info = INFO_POISON, bad = 0, guards = 0;
    const size_t abytes = (size_t)(lda * max64(1, n)) * ES;
    FLOAT *A = malloc(abytes), *A2 = malloc(abytes), *ref = malloc((size_t)max64(1, nt) * ES);
    FLOAT *R0 = testing_guarded_new(PREC, NULL, nt), *R = testing_guarded_new(PREC, NULL, nt);
    FLOAT *dA = NULL, *dR = NULL;
    testing_result_t res;

    if (!testing_have_gpu()) {
        print_conv(TESTING_SKIPPED, transr, uplo, n, lda);
        printf(" (no GPU)\n");
        free(A); free(A2); free(ref); free(R0); free(R);
        return testing_record(TESTING_SKIPPED);
    }
    if (!A || !A2 || !ref || !R0 || !R) {
        testing_fail_reason(why, sizeof why, "out of host memory");
        goto done;
    }
    make_full(uplo, n, A, lda, nan_other);
    LAPACKE_set_nancheck(0);
    if (n > 0 && LAPACKE(trttf)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, A,
                                (lapack_int)lda, ref) != 0) {
        testing_fail_reason(why, sizeof why, "LAPACKE trttf failed");
        goto done;
    }
    if (!(dA = testing_upload(A, abytes)) ||
        !(dR = testing_upload(R0, (size_t)(nt + 2 * GUARD) * ES))) {
        testing_fail_reason(why, sizeof why, "CUDA error in the harness");
        goto done;
    }
    ret = GCHOL(trttf_gpu)(transr, uplo, n, dA, lda, dR + GUARD, &info, g_queue);
    if (ret != 0 || info != 0)
        testing_fail_reason(why, sizeof why, "ret / info not 0");
    if (gchol_queue_sync(g_queue) != 0 ||
        testing_download(R, dR, (size_t)(nt + 2 * GUARD) * ES) ||
        testing_download(A2, dA, abytes)) {
        testing_fail_reason(why, sizeof why, "sync / download failed");
        goto done;
    }
    bad = testing_count_diff(PREC, nt, R + GUARD, ref);
    guards = testing_guard_violations(PREC, R, R0, nt);
    if (bad)
        testing_fail_reason(why, sizeof why, "RFP differs from LAPACKE");
    if (guards)
        testing_fail_reason(why, sizeof why, "guard elements modified");
    if (testing_count_diff(PREC, lda * max64(1, n), A, A2))
        testing_fail_reason(why, sizeof why, "input A modified");
done:
    res = testing_record(why[0] ? TESTING_FAILED : TESTING_PASSED);
    print_conv(res, transr, uplo, n, lda);
    printf(" other=%-3s ret=%lld info=%lld differ=%lld guards=%lld%s%s\n",
           nan_other ? "nan" : "val", (long long)ret, (long long)info, (long long)bad,
           (long long)guards, why[0] ? " -- " : "", why);
    cudaFree(dA);
    cudaFree(dR);
    free(A); free(A2); free(ref); free(R0); free(R);
    return res;
}

/* n = 0..nmax and the larger sizes, every variant; the padding and the
 * other triangle's contents rotate. */
static void run_conversions(int quick)
{
    static const int64_t big_full[] = { 127, 128, 129, 1000, 1001 }, big_quick[] = { 128, 129 };
    const int64_t *big = quick ? big_quick : big_full;
    int nbig = quick ? LEN(big_quick) : LEN(big_full), rot = 0;
    int64_t nmax = quick ? 12 : 40;
    printf("\n-- trttf against LAPACKE (exact): n = 0..%lld and", (long long)nmax);
    for (int i = 0; i < nbig; i++)
        printf(" %lld", (long long)big[i]);
    printf(", 4 variants --\n");
    for (int64_t k = 0; k <= nmax + nbig; k++) {
        int64_t n = k <= nmax ? k : big[k - nmax - 1];
        for (int v = 0; v < 4; v++, rot++)
            run_trttf(tr_list[v], up_list[v], n, rot % 3 == 0 ? 0 : 3, rot % 2);
    }
}

/* ---------------------------------------------------------------------------
 * Argument checks and the n = 0 quick return.
 * ------------------------------------------------------------------------- */
static int64_t trttf_w(const testing_args_t *a)
{
    return GCHOL(trttf_gpu)(a->transr, a->uplo, a->n, (const FLOAT *)a->A, a->ld, (FLOAT *)a->C,
                            a->info, a->q);
}

static const testing_entry_t arg_entries[] = {
    { GCHOL_NAME("trttf_gpu"), trttf_w, 0, 1, 0,
      { R_TRANSR, R_UPLO, R_N, R_A, R_LD, R_C, R_INFO, R_QUEUE } },
};

static void run_quick_return(void)
{
    printf("\n-- quick return --\n");
    if (!testing_have_gpu()) {
        testing_skip("quick return (no GPU)");
        return;
    }
    int64_t info = INFO_POISON;
    const int64_t ret = GCHOL(trttf_gpu)('T', 'L', 0, NULL, 1, NULL, &info, g_queue);
    testing_expect(ret == 0 && info == 0, "trttf_gpu n=0: ret %lld info %lld", (long long)ret,
                   (long long)info);
}

static void run_suite(int quick)
{
    double t0 = testing_wtime();
    printf("testing_%ctrttf --suite%s  (%s precision, %s)\n", PREC, quick ? " --quick" : "",
           PREC_NAME, testing_have_gpu() ? "GPU present" : "no GPU");
    testing_check_arguments(arg_entries, LEN(arg_entries), g_queue);
    run_quick_return();
    run_conversions(quick);
    printf("suite time %.1f s\n", testing_wtime() - t0);
}

/* ---------------------------------------------------------------------------
 * Table mode.
 * ------------------------------------------------------------------------- */
static void table_row(char transr, char uplo, int64_t n, int niter)
{
    const int64_t nt = testing_rfp_size(n), lda = max64(1, n);
    const size_t abytes = (size_t)(lda * n) * ES, rbytes = (size_t)max64(1, nt) * ES;
    FLOAT *A = malloc(abytes), *R = malloc(rbytes), *ref = malloc(rbytes);
    FLOAT *dA = NULL, *dR = NULL;
    double *times = calloc((size_t)niter, sizeof(double)), tg = 0, tc = -1;
    int64_t info = INFO_POISON, bad = -1;
    int ok = A && R && ref && times;
    if (ok) {
        make_full(uplo, n, A, lda, 1);
        ok = (dA = testing_upload(A, abytes)) != NULL &&
             !TESTING_CUDA(cudaMalloc((void **)&dR, rbytes));
    }
    for (int it = -1; it < niter && ok; it++) {
        double t = testing_wtime();
        ok = GCHOL(trttf_gpu)(transr, uplo, n, dA, lda, dR, &info, g_queue) == 0 && info == 0 &&
             gchol_queue_sync(g_queue) == 0;
        if (it >= 0)
            times[it] = testing_wtime() - t;
    }
    tg = ok ? testing_median(times, niter) : 0;
    if (ok) {
        LAPACKE_set_nancheck(0);
        tc = testing_wtime();
        LAPACKE(trttf)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, A, (lapack_int)lda, ref);
        tc = testing_wtime() - tc;
        ok = testing_download(R, dR, (size_t)nt * ES) == 0;
        bad = ok ? testing_count_diff(PREC, nt, R, ref) : -1;
        ok = ok && bad == 0;
    }
    testing_record(ok ? TESTING_PASSED : TESTING_FAILED);
    const double gb = 2.0 * (double)nt * (double)ES / 1e9; /* triangle read, RFP written */
    printf("%7lld %10.5f %9.1f %10.5f %9.1f %8lld  %s\n", (long long)n, tg, tg > 0 ? gb / tg : 0.0,
           tc, tc > 0 ? gb / tc : 0.0, (long long)bad, ok ? "ok" : "FAILED");
    fflush(stdout);
    cudaFree(dA);
    cudaFree(dR);
    free(A); free(R); free(ref); free(times);
}

static void run_table(const testing_list_t *ns, char transr, char uplo, int niter)
{
    if (!testing_table_can_run(g_queue))
        return;
    printf("%s precision, gchol_%ctrttf_gpu, transr %c, uplo %c, niter %d (median)\n",
           PREC_NAME, PREC, transr, uplo, niter);
    printf("CPU reference: LAPACKE_%ctrttf; GB/s of the triangle read and the RFP array "
           "written\n", PREC);
    printf("%7s %10s %9s %10s %9s %8s  %s\n", "n", "GPU s", "GPU GB/s", "CPU s", "CPU GB/s",
           "differ", "check");
    for (int64_t i = 0; i < ns->count; i++)
        table_row(transr, uplo, ns->v[i], niter);
}

int main(int argc, char **argv)
{
    testing_list_t ns = { NULL, 0 };
    int suite = 0, quick = 0, niter = 3;
    char transr = 'N', uplo = 'L';
    const opt_t opts[] = {
        OPT("--suite", OPT_FLAG, &suite, NULL, "the test suite (make test)"),
        OPT("--quick", OPT_FLAG, &quick, NULL, "the suite with fewer cases (the sanitizers)"),
        OPT("-n", OPT_LIST, &ns, "LIST", "table: orders (default 1024,2048,4096,8192)",
            .def = "1024,2048,4096,8192"),
        OPT("--transr", OPT_CHAR, &transr, "N|T", "table: RFP variant (default N)",
            .choices = "NT"),
        OPT("--uplo", OPT_CHAR, &uplo, "L|U", "table: triangle (default L)", .choices = "LU"),
        OPT("--niter", OPT_INT, &niter, "K", "table: timed runs, median reported (default 3)",
            OPT_MIN(1)),
        OPT_END
    };
    const opts_program_t prog = { "[--suite [--quick] | table options]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    g_queue = testing_queue_or_null();
    if (suite || quick)
        run_suite(quick);
    else
        run_table(&ns, transr, uplo, niter);
    if (g_queue)
        gchol_queue_destroy(g_queue);
    if (testing_have_gpu())
        gchol_finalize();
    opts_free_list(&ns);
    return testing_summary();
}
