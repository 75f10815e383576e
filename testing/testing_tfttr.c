/*
 * testing_tfttr.c -- tests and times gchol_?tfttr_gpu: an RFP array into the
 * uplo triangle of a full-storage matrix, against LAPACKE_?tfttr (OpenBLAS),
 * bit for bit. Precision-generic: -DGCHOL_PREC_D gives testing_dtfttr,
 * -DGCHOL_PREC_S testing_stfttr.
 *
 * Table mode (MAGMA style; the default, n = 1024..8192):
 *   testing_dtfttr [-n LIST] [--transr N|T] [--uplo L|U] [--niter K]
 *   n, GPU seconds and GB/s (the RFP array read and the triangle written),
 *   LAPACKE seconds, elements that differ from LAPACKE's array, ok / FAILED.
 * Suite mode (make test): testing_dtfttr --suite   (--quick: fewer sizes)
 *   n = 0..40 and sizes around 128 and 1000 in the four (transr, uplo)
 *   variants, lda > n and = n; the other triangle and the padding rows of
 *   the full array poisoned (NaN or a finite sentinel) and checked
 *   untouched; the input RFP array and its guard elements untouched; the
 *   n = 0 quick return; the argument checks (these run, and pass, without a
 *   GPU).
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
    printf("  %-7s %-6s %c%c n=%-5lld lda=%-5lld", testing_result_name(res), "tfttr", transr,
           uplo, (long long)n, (long long)lda);
}

/* Elements of the uplo triangle of A and R (n x n, lda) whose bytes differ. */
static int64_t triangle_diff(char uplo, int64_t n, const FLOAT *A, const FLOAT *R, int64_t lda)
{
    int64_t bad = 0;
    for (int64_t j = 0; j < n; j++) {
        int64_t lo = uplo == 'L' ? j : 0, hi = uplo == 'L' ? n : j + 1;
        bad += testing_count_diff(PREC, hi - lo, A + lo + j * lda, R + lo + j * lda);
    }
    return bad;
}

/* The RFP array's values of order n (nt elements). */
static void make_rfp(int64_t n, FLOAT *R)
{
    for (int64_t p = 0; p < testing_rfp_size(n); p++)
        R[p] = (FLOAT)testing_hash_uniform(0xF00Dull + (uint64_t)n, p, 7);
}

/* tfttr: RFP -> full (lda), the other triangle and padding poisoned. */
static testing_result_t run_tfttr(char transr, char uplo, int64_t n, int64_t pad, int sentinel)
{
    char why[256] = "";
    int64_t lda = max64(1, n + pad), nt = testing_rfp_size(n), ret = INFO_POISON,
            info = INFO_POISON, bad = 0, outside = 0;
    int64_t asize = lda * max64(1, n);
    FLOAT *R0 = testing_guarded_new(PREC, NULL, nt), *R = testing_guarded_new(PREC, NULL, nt);
    FLOAT *B0 = malloc((size_t)asize * ES), *B = malloc((size_t)asize * ES),
          *ref = malloc((size_t)asize * ES);
    FLOAT *dB = NULL, *dR = NULL;
    testing_result_t res;

    if (!testing_have_gpu()) {
        print_conv(TESTING_SKIPPED, transr, uplo, n, lda);
        printf(" (no GPU)\n");
        free(R0); free(R); free(B0); free(B); free(ref);
        return testing_record(TESTING_SKIPPED);
    }
    if (!R0 || !R || !B0 || !B || !ref) {
        testing_fail_reason(why, sizeof why, "out of host memory");
        goto done;
    }
    make_rfp(n, R0 + GUARD);
    testing_fill_value(PREC, asize, B0, sentinel ? TESTING_SENTINEL : NAN);
    memcpy(ref, B0, (size_t)asize * ES);
    LAPACKE_set_nancheck(0);
    if (n > 0 && LAPACKE(tfttr)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, R0 + GUARD, ref,
                                (lapack_int)lda) != 0) {
        testing_fail_reason(why, sizeof why, "LAPACKE tfttr failed");
        goto done;
    }
    if (!(dB = testing_upload(B0, (size_t)asize * ES)) ||
        !(dR = testing_upload(R0, (size_t)(nt + 2 * GUARD) * ES))) {
        testing_fail_reason(why, sizeof why, "CUDA error in the harness");
        goto done;
    }
    ret = GCHOL(tfttr_gpu)(transr, uplo, n, dR + GUARD, dB, lda, &info, g_queue);
    if (ret != 0 || info != 0)
        testing_fail_reason(why, sizeof why, "ret / info not 0");
    if (gchol_queue_sync(g_queue) != 0 || testing_download(B, dB, (size_t)asize * ES) ||
        testing_download(R, dR, (size_t)(nt + 2 * GUARD) * ES)) {
        testing_fail_reason(why, sizeof why, "sync / download failed");
        goto done;
    }
    bad = triangle_diff(uplo, n, B, ref, lda);
    outside = testing_count_untouched_violations(PREC, uplo, n, B, B0, lda);
    if (bad)
        testing_fail_reason(why, sizeof why, "triangle differs from LAPACKE");
    if (outside)
        testing_fail_reason(why, sizeof why, "other triangle or padding modified");
    if (testing_count_diff(PREC, nt + 2 * GUARD, R, R0))
        testing_fail_reason(why, sizeof why, "input RFP array modified");
done:
    res = testing_record(why[0] ? TESTING_FAILED : TESTING_PASSED);
    print_conv(res, transr, uplo, n, lda);
    printf(" poison=%-4s ret=%lld info=%lld differ=%lld outside=%lld%s%s\n",
           sentinel ? "sent" : "nan", (long long)ret, (long long)info, (long long)bad,
           (long long)outside, why[0] ? " -- " : "", why);
    cudaFree(dB);
    cudaFree(dR);
    free(R0); free(R); free(B0); free(B); free(ref);
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
    printf("\n-- tfttr against LAPACKE (exact): n = 0..%lld and", (long long)nmax);
    for (int i = 0; i < nbig; i++)
        printf(" %lld", (long long)big[i]);
    printf(", 4 variants --\n");
    for (int64_t k = 0; k <= nmax + nbig; k++) {
        int64_t n = k <= nmax ? k : big[k - nmax - 1];
        for (int v = 0; v < 4; v++, rot++)
            run_tfttr(tr_list[v], up_list[v], n, rot % 3 == 1 ? 0 : 2, rot % 2);
    }
}

/* ---------------------------------------------------------------------------
 * Argument checks and the n = 0 quick return.
 * ------------------------------------------------------------------------- */
static int64_t tfttr_w(const testing_args_t *a)
{
    return GCHOL(tfttr_gpu)(a->transr, a->uplo, a->n, (const FLOAT *)a->A, (FLOAT *)a->C, a->ld,
                            a->info, a->q);
}

static const testing_entry_t arg_entries[] = {
    { GCHOL_NAME("tfttr_gpu"), tfttr_w, 0, 1, 0,
      { R_TRANSR, R_UPLO, R_N, R_A, R_C, R_LD, R_INFO, R_QUEUE } },
};

static void run_quick_return(void)
{
    printf("\n-- quick return --\n");
    if (!testing_have_gpu()) {
        testing_skip("quick return (no GPU)");
        return;
    }
    int64_t info = INFO_POISON;
    const int64_t ret = GCHOL(tfttr_gpu)('N', 'U', 0, NULL, NULL, 1, &info, g_queue);
    testing_expect(ret == 0 && info == 0, "tfttr_gpu n=0: ret %lld info %lld", (long long)ret,
                   (long long)info);
}

static void run_suite(int quick)
{
    double t0 = testing_wtime();
    printf("testing_%ctfttr --suite%s  (%s precision, %s)\n", PREC, quick ? " --quick" : "",
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
    FLOAT *B = malloc(abytes), *R = malloc(rbytes), *ref = malloc(abytes);
    FLOAT *dB = NULL, *dR = NULL;
    double *times = calloc((size_t)niter, sizeof(double)), tg = 0, tc = -1;
    int64_t info = INFO_POISON, bad = -1;
    int ok = B && R && ref && times;
    if (ok) {
        make_rfp(n, R);
        testing_fill_nan(PREC, lda * n, ref);
        ok = (dR = testing_upload(R, rbytes)) != NULL &&
             (dB = testing_upload(ref, abytes)) != NULL;
    }
    for (int it = -1; it < niter && ok; it++) {
        double t = testing_wtime();
        ok = GCHOL(tfttr_gpu)(transr, uplo, n, dR, dB, lda, &info, g_queue) == 0 && info == 0 &&
             gchol_queue_sync(g_queue) == 0;
        if (it >= 0)
            times[it] = testing_wtime() - t;
    }
    tg = ok ? testing_median(times, niter) : 0;
    if (ok) {
        LAPACKE_set_nancheck(0);
        tc = testing_wtime();
        LAPACKE(tfttr)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, R, ref, (lapack_int)lda);
        tc = testing_wtime() - tc;
        ok = testing_download(B, dB, abytes) == 0;
        bad = ok ? triangle_diff(uplo, n, B, ref, lda) : -1;
        ok = ok && bad == 0;
    }
    testing_record(ok ? TESTING_PASSED : TESTING_FAILED);
    const double gb = 2.0 * (double)nt * (double)ES / 1e9; /* RFP read, triangle written */
    printf("%7lld %10.5f %9.1f %10.5f %9.1f %8lld  %s\n", (long long)n, tg, tg > 0 ? gb / tg : 0.0,
           tc, tc > 0 ? gb / tc : 0.0, (long long)bad, ok ? "ok" : "FAILED");
    fflush(stdout);
    cudaFree(dB);
    cudaFree(dR);
    free(B); free(R); free(ref); free(times);
}

static void run_table(const testing_list_t *ns, char transr, char uplo, int niter)
{
    if (!testing_table_can_run(g_queue))
        return;
    printf("%s precision, gchol_%ctfttr_gpu, transr %c, uplo %c, niter %d (median)\n",
           PREC_NAME, PREC, transr, uplo, niter);
    printf("CPU reference: LAPACKE_%ctfttr; GB/s of the RFP array read and the triangle "
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
