/*
 * testing_posv_batched.c -- tests gchol_?posv_batched_gpu and
 * gchol_?potrs_batched_gpu, pointer and strided forms (gchol_batched.h),
 * against LAPACK system by system. Precision-generic: -DGCHOL_PREC_D gives
 * testing_dposv_batched, -DGCHOL_PREC_S testing_sposv_batched.
 *
 *   testing_dposv_batched --suite [--quick] [--part I/K]
 *
 * Cases: n = 1 .. 64 sampled and 65 .. 300, nrhs = 1, 3, 16 and 40, both
 * triangles, both forms, lda = n + 0..2 and ldb = n + 1. posv: batches mixing
 * SPD systems with ones whose A(k, k) = -1 or NaN: dinfo[b] as LAPACK's
 * (testing_reference_info); where 0 the backward error max_j ||b_j - A
 * x_j||_inf / (||A||_inf ||x_j||_inf n eps) < 30 and the factor's residual
 * < 30; where not, B untouched. potrs: the factors from LAPACKE_?potrf, the
 * same backward error. The blocked solves also with each form of L's panels
 * forced (staged in shared memory, read where used: the test hook). In every case the other triangle and the padding rows
 * of A and B untouched (NaN poison). Also the argument checks (on any
 * machine).
 *
 * Ends with "SUMMARY passed=P failed=F skipped=S".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include <lapacke.h>

#include "gchol.h"
#include "gchol_batched.h"
#include "testing_prec.h"
#include "util.h"
#include "../src/test_hooks.h"

#define LEN(a) TESTING_LEN(a)

static gchol_queue_t g_queue;

typedef struct {
    char    uplo;
    int64_t n, nrhs, pad, batch;
    int     pointers, posv; /* posv, or potrs on LAPACK's factors */
} scase_t;

/* One batch; the number of bad systems (-1 setup failure), the first in why. */
static int64_t run_batch(const scase_t *c, char *why, size_t wlen)
{
    const int64_t n = c->n, lda = n + c->pad, ldb = n + 1, nrhs = c->nrhs;
    const int64_t sa = lda * n + 3, sb = ldb * nrhs + 2, bt = c->batch;
    FLOAT *A0 = malloc((size_t)(sa * bt) * ES), *Ain = malloc((size_t)(sa * bt) * ES);
    FLOAT *F = malloc((size_t)(sa * bt) * ES), *B0 = malloc((size_t)(sb * bt) * ES);
    FLOAT *X = malloc((size_t)(sb * bt) * ES), **ha = malloc((size_t)bt * sizeof(FLOAT *));
    FLOAT **hb = malloc((size_t)bt * sizeof(FLOAT *)), *dA = NULL, *dB = NULL;
    FLOAT **pa = NULL, **pb = NULL;
    int64_t *info = malloc((size_t)bt * 8), *want = malloc((size_t)bt * 8), *dinfo = NULL, bad = -1;
    if (!A0 || !Ain || !F || !B0 || !X || !ha || !hb || !info || !want) goto done;
    testing_fill_nan(PREC, sa * bt, A0);
    testing_fill_nan(PREC, sb * bt, B0);
    for (int64_t b = 0; b < bt; ++b) {
        FLOAT *M = A0 + b * sa, *T = malloc((size_t)(lda * n) * ES);
        if (!T) goto done;
        testing_generate_spd(PREC, c->uplo, n, T, lda, 3000 + (uint64_t)b);
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < n; ++i)
                if (c->uplo == 'L' ? i >= j : i <= j) M[i + j * lda] = T[i + j * lda];
        free(T);
        if (c->posv && b % 4 == 1) M[(n / 2) * (lda + 1)] = b % 8 == 1 ? -1 : NAN;
        FLOAT *Bb = malloc((size_t)(ldb * nrhs) * ES);
        if (!Bb) goto done;
        testing_generate_rhs(PREC, n, nrhs, Bb, ldb, 4000 + (uint64_t)b);
        for (int64_t j = 0; j < nrhs; ++j) memcpy(B0 + b * sb + j * ldb, Bb + j * ldb, (size_t)n * ES);
        free(Bb);
        want[b] = testing_reference_info(PREC, c->uplo, n, M, lda);
    }
    memcpy(Ain, A0, (size_t)(sa * bt) * ES);
    if (!c->posv) /* potrs's input: LAPACK's factors */
        for (int64_t b = 0; b < bt; ++b)
            if (LAPACKE(potrf)(LAPACK_COL_MAJOR, c->uplo, (lapack_int)n, Ain + b * sa, (lapack_int)lda)) {
                snprintf(why, wlen, "LAPACKE potrf failed");
                goto done;
            }
    memcpy(X, B0, (size_t)(sb * bt) * ES);
    if (!(dA = testing_upload(Ain, (size_t)(sa * bt) * ES)) ||
        !(dB = testing_upload(X, (size_t)(sb * bt) * ES)) ||
        TESTING_CUDA(cudaMalloc((void **)&dinfo, (size_t)bt * 8)))
        goto done;
    for (int64_t b = 0; b < bt; ++b) {
        ha[b] = dA + b * sa;
        hb[b] = dB + b * sb;
    }
    if (c->pointers && (!(pa = testing_upload(ha, (size_t)bt * sizeof(FLOAT *))) ||
                        !(pb = testing_upload(hb, (size_t)bt * sizeof(FLOAT *)))))
        goto done;
    int64_t ret;
    if (c->posv)
        ret = c->pointers
            ? GCHOL(posv_batched_gpu)(c->uplo, n, nrhs, pa, lda, pb, ldb, dinfo, bt, g_queue)
            : GCHOL(posv_strided_batched_gpu)(c->uplo, n, nrhs, dA, lda, sa, dB, ldb, sb, dinfo, bt,
                                              g_queue);
    else
        ret = c->pointers
            ? GCHOL(potrs_batched_gpu)(c->uplo, n, nrhs, (const FLOAT *const *)pa, lda, pb, ldb, bt,
                                       g_queue)
            : GCHOL(potrs_strided_batched_gpu)(c->uplo, n, nrhs, dA, lda, sa, dB, ldb, sb, bt,
                                               g_queue);
    if (ret != 0) {
        snprintf(why, wlen, "returned %lld", (long long)ret);
        bad = bt;
        goto done;
    }
    if (TESTING_CUDA(cudaDeviceSynchronize()) || testing_download(F, dA, (size_t)(sa * bt) * ES) ||
        testing_download(X, dB, (size_t)(sb * bt) * ES) ||
        (c->posv && testing_download(info, dinfo, (size_t)bt * 8)))
        goto done;
    bad = 0;
    for (int64_t b = 0; b < bt; ++b) {
        const FLOAT *M0 = A0 + b * sa, *Mi = Ain + b * sa, *M = F + b * sa;
        const FLOAT *Bb0 = B0 + b * sb, *Xb = X + b * sb;
        const int64_t got = c->posv ? info[b] : 0, w = c->posv ? want[b] : 0;
        int64_t outside = testing_count_untouched_violations(PREC, c->uplo, n, M, Mi, lda) +
                          testing_count_diff(PREC, 3, M + lda * n, Mi + lda * n);
        for (int64_t j = 0; j < nrhs; ++j) /* B's padding rows and the gap */
            outside += testing_count_diff(PREC, ldb - n, Xb + j * ldb + n, Bb0 + j * ldb + n);
        outside += testing_count_diff(PREC, 2, Xb + ldb * nrhs, Bb0 + ldb * nrhs);
        double berr = 0, fres = 0;
        int64_t bwritten = 0;
        if (w == 0 && got == 0) {
            berr = testing_solve_berr(PREC, c->uplo, n, nrhs, M0, lda, Bb0, ldb, Xb, ldb);
            if (c->posv) fres = testing_residual_cpu(PREC, c->uplo, n, M0, lda, M, lda);
        } else {
            bwritten = testing_count_diff(PREC, sb, Xb, Bb0);
        }
        if (got != w || outside || bwritten || !(berr >= 0 && berr < TESTING_TOL) ||
            !(fres >= 0 && fres < TESTING_TOL)) {
            if (bad++ == 0)
                snprintf(why, wlen, "system %lld: info %lld (reference %lld), %lld outside "
                         "written, B written %lld, backward error %.2e, factor residual %.2e",
                         (long long)b, (long long)got, (long long)w, (long long)outside,
                         (long long)bwritten, berr, fres);
        }
    }
done:
    if (bad < 0 && !why[0]) snprintf(why, wlen, "setup failed");
    cudaFree(dA); cudaFree(dB); cudaFree(pa); cudaFree(pb); cudaFree(dinfo);
    free(A0); free(Ain); free(F); free(B0); free(X); free(ha); free(hb); free(info); free(want);
    return bad;
}

static void run_case(const scase_t *c)
{
    char why[300] = "", label[120];
    if (!testing_case_in_part()) return;
    snprintf(label, sizeof label, "%s%s n=%-4lld nrhs=%-3lld %c lda=n+%lld batch=%lld",
             c->posv ? "posv" : "potrs", c->pointers ? "_batched        " : "_strided_batched",
             (long long)c->n, (long long)c->nrhs, c->uplo, (long long)c->pad, (long long)c->batch);
    if (!testing_have_gpu()) {
        testing_skip("%s (no GPU)", label);
        return;
    }
    const int64_t bad = run_batch(c, why, sizeof why);
    testing_expect(bad == 0, "%s: %s%s", label, bad == 0 ? "every system as LAPACK" : "FAILED ",
                   why);
}

static void run_arguments(void)
{
    FLOAT *f = (FLOAT *)(uintptr_t)0x1000, *const *fp = (FLOAT *const *)(uintptr_t)0x2000;
    const FLOAT *const *cfp = (const FLOAT *const *)(uintptr_t)0x2000;
    int64_t *fi = (int64_t *)(uintptr_t)0x3000;
    gchol_queue_t q = (gchol_queue_t)(uintptr_t)0x4000; /* never reached */
    const struct { const char *what; int64_t got, want; } cases[] = {
        { "potrs: uplo", GCHOL(potrs_batched_gpu)('x', 4, 2, cfp, 4, fp, 4, 3, q), -1 },
        { "potrs: n", GCHOL(potrs_batched_gpu)('L', -1, 2, cfp, 4, fp, 4, 3, q), -2 },
        { "potrs: nrhs", GCHOL(potrs_batched_gpu)('L', 4, -1, cfp, 4, fp, 4, 3, q), -3 },
        { "potrs: dA_array", GCHOL(potrs_batched_gpu)('L', 4, 2, NULL, 4, fp, 4, 3, q), -4 },
        { "potrs: ldda", GCHOL(potrs_batched_gpu)('L', 4, 2, cfp, 3, fp, 4, 3, q), -5 },
        { "potrs: dB_array", GCHOL(potrs_batched_gpu)('L', 4, 2, cfp, 4, NULL, 4, 3, q), -6 },
        { "potrs: lddb", GCHOL(potrs_batched_gpu)('L', 4, 2, cfp, 4, fp, 3, 3, q), -7 },
        { "potrs: batch", GCHOL(potrs_batched_gpu)('L', 4, 2, cfp, 4, fp, 4, -1, q), -8 },
        { "potrs: queue", GCHOL(potrs_batched_gpu)('L', 4, 2, cfp, 4, fp, 4, 3, NULL), -9 },
        { "potrs strided: strideA", GCHOL(potrs_strided_batched_gpu)('L', 4, 2, f, 4, 15, f, 4, 8, 3, q), -6 },
        { "potrs strided: strideB", GCHOL(potrs_strided_batched_gpu)('L', 4, 2, f, 4, 16, f, 4, 7, 3, q), -9 },
        { "potrs strided: queue", GCHOL(potrs_strided_batched_gpu)('L', 4, 2, f, 4, 16, f, 4, 8, 3, NULL), -11 },
        { "posv: dinfo", GCHOL(posv_batched_gpu)('L', 4, 2, fp, 4, fp, 4, NULL, 3, q), -8 },
        { "posv: batch", GCHOL(posv_batched_gpu)('L', 4, 2, fp, 4, fp, 4, fi, -1, q), -9 },
        { "posv: queue", GCHOL(posv_batched_gpu)('L', 4, 2, fp, 4, fp, 4, fi, 3, NULL), -10 },
        { "posv strided: dA", GCHOL(posv_strided_batched_gpu)('L', 4, 2, NULL, 4, 16, f, 4, 8, fi, 3, q), -4 },
        { "posv strided: dinfo", GCHOL(posv_strided_batched_gpu)('L', 4, 2, f, 4, 16, f, 4, 8, NULL, 3, q), -10 },
        { "posv strided: queue", GCHOL(posv_strided_batched_gpu)('L', 4, 2, f, 4, 16, f, 4, 8, fi, 3, NULL), -12 },
        { "posv: batch 0 (nothing)", GCHOL(posv_batched_gpu)('L', 4, 2, NULL, 4, NULL, 4, NULL, 0, q), 0 },
    };
    for (int i = 0; i < LEN(cases); ++i)
        testing_expect(cases[i].got == cases[i].want, "%s %s: %lld (want %lld)",
                       GCHOL_NAME("posv_batched"), cases[i].what, (long long)cases[i].got,
                       (long long)cases[i].want);
}

static void run_suite(int quick)
{
    static const int64_t ns[] = { 1, 2, 3, 5, 8, 13, 16, 17, 31, 32, 33, 48, 64, 65, 100, 128, 200,
                                  300 };
    /* nrhs 5 and 37: a chunk with a full group of four right-hand sides and a tail */
    static const int64_t nrhss[] = { 1, 3, 5, 16, 37, 40 };
    run_arguments();
    if (!testing_gpu_section("batched solves, both forms, both triangles", 1)) return;
    for (int i = 0; i < LEN(ns); ++i)
        for (int r = 0; r < LEN(nrhss); ++r) {
            if (quick && (i + r) % 3) continue;
            for (int k = 0; k < 2; ++k) {
                const scase_t c = { (i + k) % 2 ? 'U' : 'L', ns[i], nrhss[r], (i + r) % 3,
                                    ns[i] > 100 ? 9 : 33, (i + r + k) % 2, k };
                run_case(&c);
            }
        }
    /* n = 600: in double the blocked solve's chunks shrink to what shared
     * memory holds beside L's panel (15 columns on sm_90), a tail in each */
    for (int k = 0; k < 2; ++k) {
        const scase_t c = { k ? 'U' : 'L', 600, 37, 1, 3, k, k };
        run_case(&c);
    }
    /* each form of the blocked solve, whatever the tuning picks: the direct
     * form's chunks at n = 600 hold 11 columns in double (its shared-memory
     * cap), at 1100 six */
    static const int64_t fns[] = { 33, 64, 100, 257, 600, 1100 };
    static const int64_t frhs[] = { 1, 5, 16, 37 };
    static const char *const form_name[2] = { "L's panels staged", "L read where used" };
    for (int f = 0; f < 2; ++f) {
        printf("\n-- the blocked solves with %s --\n", form_name[f]);
        const gchol_test_hooks_t hooks = { .batched_potrs_kernel = f + 1 };
        gchol_test_hooks_set(&hooks);
        for (int i = 0; i < LEN(fns); ++i)
            for (int r = 0; r < LEN(frhs); ++r) {
                if (quick && (i + r) % 2) continue;
                const scase_t c = { (i + r) % 2 ? 'U' : 'L', fns[i], frhs[r], (i + f) % 3,
                                    fns[i] > 500 ? 3 : 7, (i + r + f) % 2, (r + f) % 2 };
                run_case(&c);
            }
        gchol_test_hooks_set(NULL);
    }
}

static void run_table(const testing_cmdline_t *cmd)
{
    (void)cmd;
    run_suite(0);
}

int main(int argc, char **argv)
{
    const testing_tester_t t = { PREC, "posv_batched", 0, &g_queue, NULL, 0, run_suite, run_table };
    return testing_tester_main(argc, argv, &t);
}
