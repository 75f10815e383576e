/*
 * rfp_check.c -- RFP (rectangular full packed) storage in the testers
 * (util.h): the four (transr, uplo) variants, the small RFP array of the
 * host forms' checks without a GPU, and the whole of the conversion testers
 * testing_?trttf and testing_?tfttr, which differ only in the direction.
 *
 * The conversion testers check gchol_?trttf_gpu (the uplo triangle of a
 * full-storage matrix into an RFP array) and gchol_?tfttr_gpu (back) against
 * LAPACKE_?trttf / ?tfttr, bit for bit: n = 0..40 and sizes around 128 and
 * 1000 in the four variants, lda > n and = n; trttf with the other triangle
 * NaN (it must not be read) or values, the RFP array between guard elements
 * that must stay as they are, the input untouched; tfttr with the other
 * triangle and the padding rows poisoned (NaN or a finite sentinel) and
 * checked untouched, the input RFP array and its guard elements untouched.
 * Also the n = 0 quick return. The table times both against LAPACKE.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include <lapacke.h>

#include "util.h"

const char testing_rfp_transr[4] = { 'N', 'N', 'T', 'T' };
const char testing_rfp_uplo[4] = { 'L', 'U', 'L', 'U' };

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

void testing_rfp_small_spd(char prec, char transr, char uplo, void *R, void *saved)
{
    enum { N = TESTING_RFP_SMALL_N, G = TESTING_RFP_SMALL_GUARD };
    union { double d[N * N]; float s[N * N]; } A; /* only the uplo triangle is read */
    testing_generate_spd(prec, uplo, N, prec == 's' ? (void *)A.s : (void *)A.d, N, 9);
    testing_fill_nan(prec, TESTING_RFP_SMALL_LEN, R);
    LAPACKE_set_nancheck(0);
    if (prec == 's')
        LAPACKE_strttf(LAPACK_COL_MAJOR, transr, uplo, N, A.s, N, (float *)R + G);
    else
        LAPACKE_dtrttf(LAPACK_COL_MAJOR, transr, uplo, N, A.d, N, (double *)R + G);
    memcpy(saved, R, TESTING_RFP_SMALL_LEN * testing_elsize(prec));
}

/* ===========================================================================
 * The conversion testers.
 * ========================================================================= */
#define INFO_POISON TESTING_INFO_POISON
#define GUARD       TESTING_GUARD

/* The tester's precision, direction and queue (one tester a process). */
static char               g_prec;
static testing_rfp_conv_t g_conv;
static gchol_queue_t      g_queue;

static const char *conv_name(void) { return g_conv == TESTING_TRTTF ? "trttf" : "tfttr"; }

/* Element k of an array of the tester's precision. */
static void *elem(const void *p, int64_t k)
{
    return (void *)((const char *)p + (size_t)k * testing_elsize(g_prec));
}

/* gchol_?trttf_gpu (src full, lda -> dst RFP) or gchol_?tfttr_gpu (src RFP
 * -> dst full, lda) on the tester's queue. */
static int64_t conv_gpu(char transr, char uplo, int64_t n, const void *src, void *dst,
                        int64_t lda, int64_t *info)
{
    if (g_conv == TESTING_TRTTF)
        return g_prec == 's' ? gchol_strttf_gpu(transr, uplo, n, src, lda, dst, info, g_queue)
                             : gchol_dtrttf_gpu(transr, uplo, n, src, lda, dst, info, g_queue);
    return g_prec == 's' ? gchol_stfttr_gpu(transr, uplo, n, src, dst, lda, info, g_queue)
                         : gchol_dtfttr_gpu(transr, uplo, n, src, dst, lda, info, g_queue);
}

/* The same conversion by LAPACKE_?trttf / ?tfttr; its return value. */
static lapack_int conv_lapacke(char transr, char uplo, int64_t n, const void *src, void *dst,
                               int64_t lda)
{
    const lapack_int ln = (lapack_int)n, llda = (lapack_int)lda;
    if (g_conv == TESTING_TRTTF)
        return g_prec == 's'
                   ? LAPACKE_strttf(LAPACK_COL_MAJOR, transr, uplo, ln, src, llda, dst)
                   : LAPACKE_dtrttf(LAPACK_COL_MAJOR, transr, uplo, ln, src, llda, dst);
    return g_prec == 's' ? LAPACKE_stfttr(LAPACK_COL_MAJOR, transr, uplo, ln, src, dst, llda)
                         : LAPACKE_dtfttr(LAPACK_COL_MAJOR, transr, uplo, ln, src, dst, llda);
}

static void print_conv(testing_result_t res, char transr, char uplo, int64_t n, int64_t lda)
{
    printf("  %-7s %-6s %c%c n=%-5lld lda=%-5lld", testing_result_name(res), conv_name(), transr,
           uplo, (long long)n, (long long)lda);
}

/* The full array A (lda x n; padding NaN; the other triangle NaN when
 * nan_other, else values) of order n. */
static void make_full(char uplo, int64_t n, void *A, int64_t lda, int nan_other)
{
    testing_fill_nan(g_prec, lda * max64(1, n), A);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            int in = uplo == 'L' ? i >= j : i <= j;
            if (in || !nan_other)
                testing_set(g_prec, A, lda, i, j,
                            testing_hash_uniform(0xC0FFEEull + (uint64_t)n, i, j));
        }
}

/* The RFP array's values of order n (nt elements). */
static void make_rfp(int64_t n, void *R)
{
    for (int64_t p = 0; p < testing_rfp_size(n); p++)
        testing_set(g_prec, R, 0, p, 0, testing_hash_uniform(0xF00Dull + (uint64_t)n, p, 7));
}

/* Elements of the uplo triangle of A and R (n x n, lda) whose bytes differ. */
static int64_t triangle_diff(char uplo, int64_t n, const void *A, const void *R, int64_t lda)
{
    int64_t bad = 0;
    for (int64_t j = 0; j < n; j++) {
        int64_t lo = uplo == 'L' ? j : 0, hi = uplo == 'L' ? n : j + 1;
        bad += testing_count_diff(g_prec, hi - lo, elem(A, lo + j * lda), elem(R, lo + j * lda));
    }
    return bad;
}

/* One case of order n, lda = n + pad, the full array F and the guarded RFP
 * array R on the GPU.
 *   trttf: F the input (padding NaN; the other triangle NaN when flag,
 *          else values), R the output (NaN between the guard elements):
 *          R as LAPACKE's, its guards and F untouched.
 *   tfttr: R the input (values), F the output (poisoned: the sentinel when
 *          flag, else NaN): F's triangle as LAPACKE's, the rest of F (the
 *          other triangle, the padding rows) and R with its guards
 *          untouched.
 * Skipped without a GPU. */
static testing_result_t run_case(char transr, char uplo, int64_t n, int64_t pad, int flag)
{
    const int trttf = g_conv == TESTING_TRTTF;
    const size_t es = testing_elsize(g_prec);
    char why[256] = "";
    int64_t lda = max64(1, n + pad), nt = testing_rfp_size(n), asize = lda * max64(1, n),
            ret = INFO_POISON, info = INFO_POISON, bad = 0, other = 0;
    const size_t abytes = (size_t)asize * es, rbytes = (size_t)(nt + 2 * GUARD) * es;
    testing_result_t res;

    if (!testing_have_gpu()) {
        print_conv(TESTING_SKIPPED, transr, uplo, n, lda);
        printf(" (no GPU)\n");
        return testing_record(TESTING_SKIPPED);
    }
    /* F0, R0 before the call, F, R after it; ref LAPACKE's output */
    void *F0 = malloc(abytes), *F = malloc(abytes);
    void *R0 = testing_guarded_new(g_prec, NULL, nt), *R = testing_guarded_new(g_prec, NULL, nt);
    void *ref = malloc(trttf ? (size_t)max64(1, nt) * es : abytes);
    void *dF = NULL, *dR = NULL;
    if (!F0 || !F || !R0 || !R || !ref) {
        testing_fail_reason(why, sizeof why, "out of host memory");
        goto done;
    }
    if (trttf) {
        make_full(uplo, n, F0, lda, flag);
    } else {
        make_rfp(n, elem(R0, GUARD));
        testing_fill_value(g_prec, asize, F0, flag ? TESTING_SENTINEL : NAN);
        memcpy(ref, F0, abytes);
    }
    LAPACKE_set_nancheck(0);
    if (n > 0 && conv_lapacke(transr, uplo, n, trttf ? F0 : elem(R0, GUARD), ref, lda) != 0) {
        testing_fail_reason(why, sizeof why,
                            trttf ? "LAPACKE trttf failed" : "LAPACKE tfttr failed");
        goto done;
    }
    if (!(dF = testing_upload(F0, abytes)) || !(dR = testing_upload(R0, rbytes))) {
        testing_fail_reason(why, sizeof why, "CUDA error in the harness");
        goto done;
    }
    ret = trttf ? conv_gpu(transr, uplo, n, dF, elem(dR, GUARD), lda, &info)
                : conv_gpu(transr, uplo, n, elem(dR, GUARD), dF, lda, &info);
    if (ret != 0 || info != 0)
        testing_fail_reason(why, sizeof why, "ret / info not 0");
    /* the output first, then the input */
    if (gchol_queue_sync(g_queue) != 0 ||
        (trttf ? testing_download(R, dR, rbytes) || testing_download(F, dF, abytes)
               : testing_download(F, dF, abytes) || testing_download(R, dR, rbytes))) {
        testing_fail_reason(why, sizeof why, "sync / download failed");
        goto done;
    }
    if (trttf) {
        bad = testing_count_diff(g_prec, nt, elem(R, GUARD), ref);
        other = testing_guard_violations(g_prec, R, R0, nt);
        if (bad)
            testing_fail_reason(why, sizeof why, "RFP differs from LAPACKE");
        if (other)
            testing_fail_reason(why, sizeof why, "guard elements modified");
        if (testing_count_diff(g_prec, asize, F0, F))
            testing_fail_reason(why, sizeof why, "input A modified");
    } else {
        bad = triangle_diff(uplo, n, F, ref, lda);
        other = testing_count_untouched_violations(g_prec, uplo, n, F, F0, lda);
        if (bad)
            testing_fail_reason(why, sizeof why, "triangle differs from LAPACKE");
        if (other)
            testing_fail_reason(why, sizeof why, "other triangle or padding modified");
        if (testing_count_diff(g_prec, nt + 2 * GUARD, R, R0))
            testing_fail_reason(why, sizeof why, "input RFP array modified");
    }
done:
    res = testing_record(why[0] ? TESTING_FAILED : TESTING_PASSED);
    print_conv(res, transr, uplo, n, lda);
    if (trttf)
        printf(" other=%-3s", flag ? "nan" : "val");
    else
        printf(" poison=%-4s", flag ? "sent" : "nan");
    printf(" ret=%lld info=%lld differ=%lld %s=%lld%s%s\n", (long long)ret, (long long)info,
           (long long)bad, trttf ? "guards" : "outside", (long long)other, why[0] ? " -- " : "",
           why);
    cudaFree(dF);
    cudaFree(dR);
    free(F0); free(F); free(R0); free(R); free(ref);
    return res;
}

/* n = 0..nmax and the larger sizes, every variant; the padding and the
 * other triangle's contents (trttf) or the poison (tfttr) rotate. */
static void run_conversions(int quick)
{
    static const int64_t big_full[] = { 127, 128, 129, 1000, 1001 }, big_quick[] = { 128, 129 };
    const int64_t *big = quick ? big_quick : big_full;
    int nbig = quick ? TESTING_LEN(big_quick) : TESTING_LEN(big_full), rot = 0;
    int64_t nmax = quick ? 12 : 40;
    printf("\n-- %s against LAPACKE (exact): n = 0..%lld and", conv_name(), (long long)nmax);
    for (int i = 0; i < nbig; i++)
        printf(" %lld", (long long)big[i]);
    printf(", 4 variants --\n");
    for (int64_t k = 0; k <= nmax + nbig; k++) {
        int64_t n = k <= nmax ? k : big[k - nmax - 1];
        for (int v = 0; v < 4; v++, rot++) {
            const int64_t pad = g_conv == TESTING_TRTTF ? (rot % 3 == 0 ? 0 : 3)
                                                        : (rot % 3 == 1 ? 0 : 2);
            run_case(testing_rfp_transr[v], testing_rfp_uplo[v], n, pad, rot % 2);
        }
    }
}

static void run_quick_return(void)
{
    if (!testing_gpu_section("quick return", 1))
        return;
    int64_t info = INFO_POISON;
    const int64_t ret = g_conv == TESTING_TRTTF
                            ? conv_gpu('T', 'L', 0, NULL, NULL, 1, &info)
                            : conv_gpu('N', 'U', 0, NULL, NULL, 1, &info);
    testing_expect(ret == 0 && info == 0, "%s_gpu n=0: ret %lld info %lld", conv_name(),
                   (long long)ret, (long long)info);
}

static void run_suite(int quick)
{
    run_quick_return();
    run_conversions(quick);
}

/* One row of the table: the GPU conversion timed (median of niter after a
 * warm-up), LAPACKE's once, their results compared. */
static void table_row(char transr, char uplo, int64_t n, int niter)
{
    const int trttf = g_conv == TESTING_TRTTF;
    const size_t es = testing_elsize(g_prec);
    const int64_t nt = testing_rfp_size(n), lda = max64(1, n);
    const size_t abytes = (size_t)(lda * n) * es, rbytes = (size_t)max64(1, nt) * es;
    /* A full (trttf's input, tfttr's output), R the RFP array (the other way
     * round), ref LAPACKE's output */
    void *A = malloc(abytes), *R = malloc(rbytes), *ref = malloc(trttf ? rbytes : abytes);
    void *dA = NULL, *dR = NULL;
    double *times = calloc((size_t)niter, sizeof(double)), tg = 0, tc = -1;
    int64_t info = INFO_POISON, bad = -1;
    int ok = A && R && ref && times;
    if (ok && trttf) {
        make_full(uplo, n, A, lda, 1);
        ok = (dA = testing_upload(A, abytes)) != NULL &&
             !TESTING_CUDA(cudaMalloc((void **)&dR, rbytes));
    } else if (ok) {
        make_rfp(n, R);
        testing_fill_nan(g_prec, lda * n, ref);
        ok = (dR = testing_upload(R, rbytes)) != NULL &&
             (dA = testing_upload(ref, abytes)) != NULL;
    }
    for (int it = -1; it < niter && ok; it++) {
        double t = testing_wtime();
        ok = conv_gpu(transr, uplo, n, trttf ? dA : dR, trttf ? dR : dA, lda, &info) == 0 &&
             info == 0 && gchol_queue_sync(g_queue) == 0;
        if (it >= 0)
            times[it] = testing_wtime() - t;
    }
    tg = ok ? testing_median(times, niter) : 0;
    if (ok) {
        LAPACKE_set_nancheck(0);
        tc = testing_wtime();
        conv_lapacke(transr, uplo, n, trttf ? A : R, ref, lda);
        tc = testing_wtime() - tc;
        if (trttf) {
            ok = testing_download(R, dR, (size_t)nt * es) == 0;
            bad = ok ? testing_count_diff(g_prec, nt, R, ref) : -1;
        } else {
            ok = testing_download(A, dA, abytes) == 0;
            bad = ok ? triangle_diff(uplo, n, A, ref, lda) : -1;
        }
        ok = ok && bad == 0;
    }
    testing_record(ok ? TESTING_PASSED : TESTING_FAILED);
    const double gb = 2.0 * (double)nt * (double)es / 1e9; /* one read, one written */
    printf("%7lld %10.5f %9.1f %10.5f %9.1f %8lld  %s\n", (long long)n, tg, tg > 0 ? gb / tg : 0.0,
           tc, tc > 0 ? gb / tc : 0.0, (long long)bad, ok ? "ok" : "FAILED");
    fflush(stdout);
    cudaFree(dA);
    cudaFree(dR);
    free(A); free(R); free(ref); free(times);
}

static void run_table(const testing_cmdline_t *cmd)
{
    if (!testing_table_can_run(g_queue))
        return;
    printf("%s precision, gchol_%c%s_gpu, transr %c, uplo %c, niter %d (median)\n",
           testing_prec_name(g_prec), g_prec, conv_name(), cmd->transr, cmd->uplo, cmd->niter);
    printf("CPU reference: LAPACKE_%c%s; GB/s of the %s read and the %s written\n", g_prec,
           conv_name(), g_conv == TESTING_TRTTF ? "triangle" : "RFP array",
           g_conv == TESTING_TRTTF ? "RFP array" : "triangle");
    printf("%7s %10s %9s %10s %9s %8s  %s\n", "n", "GPU s", "GPU GB/s", "CPU s", "CPU GB/s",
           "differ", "check");
    for (int64_t i = 0; i < cmd->ns.count; i++)
        table_row(cmd->transr, cmd->uplo, cmd->ns.v[i], cmd->niter);
}

int testing_rfp_conversion_main(int argc, char **argv, char prec, testing_rfp_conv_t conv,
                                const testing_entry_t *entries, int nentries)
{
    g_prec = prec;
    g_conv = conv;
    const testing_tester_t t = { prec, conv_name(), TESTING_CMD_TRANSR, &g_queue, entries,
                                 nentries, run_suite, run_table };
    return testing_tester_main(argc, argv, &t);
}
