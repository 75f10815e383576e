/*
 * testing_potrf_batched.c -- tests gchol_?potrf_batched_gpu (device
 * pointers) and gchol_?potrf_strided_batched_gpu (gchol_batched.h) against
 * LAPACK, matrix by matrix. Precision-generic: -DGCHOL_PREC_D gives
 * testing_dpotrf_batched, -DGCHOL_PREC_S testing_spotrf_batched.
 *
 *   testing_dpotrf_batched --suite [--quick] [--part I/K]   (also the default)
 *
 * Cases: every n from 0 to 64 (--quick: to 40), then n = 65 .. 600 sampled
 * (the shared-memory, panel and global-memory kernels' ranges), and medium
 * orders on each kernel forced (test hooks: the blocked, panel, rows and tiled
 * left-looking kernels, the last also with one and with two chunk buffers,
 * the cuBLAS block columns (to the last column, and with the last ones as
 * a trailing matrix on the live tiles kernel), the warp, tiles and FP64
 * tensor cores' warp
 * kernels, the live tiles, replica and panels kernels, whatever the tuning
 * picks); both
 * triangles, both forms (the pointers in shuffled order), lda = n + 0..3
 * and a stride with a gap. Each batch mixes SPD matrices (testing_generate_spd, a seed per
 * matrix) with matrices that are not: A(k, k) = -1, NaN on the diagonal, Inf
 * on the diagonal, a zero leading entry. Checks per matrix: dinfo[b] equal
 * to reference LAPACK's info (testing_reference_info); for info = 0 LAPACK's
 * factor residual < 30; the other triangle, the padding rows and the gaps
 * between matrices untouched (NaN poison, byte for byte); every dinfo
 * written. Also a large batch at n = 16, n = 0 (dinfo zeroed), and the
 * argument checks (on any machine).
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
#include "../kernels/gchol_kernels.h" /* GCHOL_BATCHED_PANEL_WORK */
#include "testing_prec.h"
#include "util.h"
#include "../src/test_hooks.h"

#define LEN(a) TESTING_LEN(a)

static gchol_queue_t g_queue;

/* The defect of matrix b of a batch: 0 none (SPD), else one that makes it
 * not positive definite (or NaN / Inf) at a column from its seed. */
enum { D_NONE, D_NEG, D_NAN, D_INF, D_ZERO };
static int defect_of(int64_t b) { return b % 5 == 3 ? 1 + (int)(b / 5 % 4) : D_NONE; }

/* Matrix b (n >= 2) of a batch is SPD with a subnormal first pivot: its
 * leading 2 x 2 block [[t, 0.1], [0.1, h]] (t 1e-310 / 1e-40, h 1.5e308 /
 * 3e38; l_21 = 0.1 / sqrt(t) and the Schur complement h - 0.01 / t stay
 * finite, 0.1 / t does not), decoupled from the rest of the random SPD
 * matrix. LAPACK factors it (info 0); so must every kernel. */
static int tiny_pivot_of(int64_t b) { return b % 5 == 1; }
static void make_tiny_pivot(char uplo, int64_t n, FLOAT *M, int64_t lda)
{
    for (int64_t i = 2; i < n; ++i)
        for (int c = 0; c < 2; ++c) M[uplo == 'L' ? i + c * lda : c + i * lda] = 0;
    M[0] = PREC == 'd' ? (FLOAT)1e-310 : (FLOAT)1e-40f;
    M[uplo == 'L' ? 1 : lda] = (FLOAT)0.1;
    M[1 + lda] = PREC == 'd' ? (FLOAT)1.5e308 : (FLOAT)3e38f;
}

typedef struct {
    char    uplo;
    int64_t n, pad, gap, batch;
    int     pointers; /* 1: the pointer-array form */
    int     host;     /* 1: the strided form on host arrays */
} bcase_t;

/* Runs one batch; returns the number of bad matrices (or -1 on a setup
 * failure) and describes the first in why. */
static int64_t run_batch(const bcase_t *c, char *why, size_t wlen)
{
    const int64_t n = c->n, lda = n + c->pad > 1 ? n + c->pad : 1, mat = lda * (n > 0 ? n : 1);
    const int64_t stride = mat + c->gap, total = stride * c->batch;
    FLOAT *A0 = malloc((size_t)total * ES), *F = malloc((size_t)total * ES);
    int64_t *info = malloc((size_t)c->batch * sizeof(int64_t));
    FLOAT *dA = NULL, **dptr = NULL, **hptr = malloc((size_t)c->batch * sizeof(FLOAT *));
    int64_t *dinfo = NULL, bad = -1;
    if (!A0 || !F || !info || !hptr) goto done;
    testing_fill_nan(PREC, total, A0);
    for (int64_t b = 0; b < c->batch; ++b) {
        FLOAT *M = A0 + b * stride;
        FLOAT *T = malloc((size_t)mat * ES);
        if (!T) goto done;
        testing_generate_spd(PREC, c->uplo, n, T, lda, 1000 + (uint64_t)b);
        if (n >= 2 && tiny_pivot_of(b)) make_tiny_pivot(c->uplo, n, T, lda);
        for (int64_t j = 0; j < n; ++j) /* only the triangle: the rest stays NaN */
            for (int64_t i = 0; i < n; ++i)
                if (c->uplo == 'L' ? i >= j : i <= j) M[i + j * lda] = T[i + j * lda];
        free(T);
        const int d = n > 0 ? defect_of(b) : D_NONE;
        const int64_t k = n > 0 ? (int64_t)(testing_hash_uniform(77, b, 0) * 0.5 * (double)n + 0.5 * (double)n) % n : 0;
        if (d == D_NEG) M[k + k * lda] = -1;
        if (d == D_NAN) M[k + k * lda] = NAN;
        if (d == D_INF) M[k + k * lda] = INFINITY;
        if (d == D_ZERO) M[0] = 0;
    }
    memcpy(F, A0, (size_t)total * ES);
    if (c->host) {
        for (int64_t b = 0; b < c->batch; ++b) info[b] = TESTING_INFO_POISON;
        const int64_t ret = GCHOL(potrf_strided_batched)(c->uplo, n, F, lda, stride, info, c->batch);
        if (ret != 0) {
            snprintf(why, wlen, "returned %lld", (long long)ret);
            bad = c->batch;
            goto done;
        }
        goto check;
    }
    if (!(dA = testing_upload(F, (size_t)total * ES)) ||
        TESTING_CUDA(cudaMalloc((void **)&dinfo, (size_t)c->batch * sizeof(int64_t))) ||
        TESTING_CUDA(cudaMemset(dinfo, 0x7f, (size_t)c->batch * sizeof(int64_t))))
        goto done;
    int64_t ret;
    if (c->pointers) {
        /* matrix b at slot (7 b + 3) mod batch: not in memory order */
        for (int64_t b = 0; b < c->batch; ++b) hptr[b] = dA + ((b * 7 + 3) % c->batch) * stride;
        if (!(dptr = testing_upload(hptr, (size_t)c->batch * sizeof(FLOAT *)))) goto done;
        ret = GCHOL(potrf_batched_gpu)(c->uplo, n, dptr, lda, dinfo, c->batch, g_queue);
    } else {
        ret = GCHOL(potrf_strided_batched_gpu)(c->uplo, n, dA, lda, stride, dinfo, c->batch,
                                               g_queue);
    }
    if (ret != 0) {
        snprintf(why, wlen, "returned %lld", (long long)ret);
        bad = c->batch;
        goto done;
    }
    if (TESTING_CUDA(cudaDeviceSynchronize()) || testing_download(F, dA, (size_t)total * ES) ||
        testing_download(info, dinfo, (size_t)c->batch * sizeof(int64_t)))
        goto done;
check:
    bad = 0;
    for (int64_t b = 0; b < c->batch; ++b) {
        /* where matrix b lies: its own slot, or the pointer form's */
        const int64_t slot = c->pointers ? (b * 7 + 3) % c->batch : b;
        const FLOAT *M0 = A0 + slot * stride, *M = F + slot * stride;
        const int64_t want = testing_reference_info(PREC, c->uplo, n, M0, lda);
        const int64_t outside = testing_count_untouched_violations(PREC, c->uplo, n, M, M0, lda);
        const int64_t gap = c->gap ? testing_count_diff(PREC, c->gap, M + mat, M0 + mat) : 0;
        double resid = 0;
        /* an Inf pivot's factor has an Inf on its diagonal: info and the rest only */
        if (want == 0 && info[b] == 0 && !(n > 0 && defect_of(slot) == D_INF))
            resid = testing_residual_cpu(PREC, c->uplo, n, M0, lda, M, lda);
        const char *what = info[b] != want ? "info" : outside || gap ? "untouched" :
                           !(resid >= 0 && resid < TESTING_TOL) ? "residual" : NULL;
        if (what) {
            if (bad++ == 0)
                snprintf(why, wlen, "matrix %lld: %s (info %lld, reference %lld, %lld outside "
                         "written, gap %lld, residual %.2e)", (long long)b, what,
                         (long long)info[b], (long long)want, (long long)outside, (long long)gap,
                         resid);
        }
    }
done:
    if (bad < 0 && !why[0]) snprintf(why, wlen, "setup failed");
    cudaFree(dA);
    cudaFree(dptr);
    cudaFree(dinfo);
    free(A0); free(F); free(info); free(hptr);
    return bad;
}

/* The variable-size form: matrix b of order n_b in 0..max_n (zeros
 * included), lda_b = n_b + 0..2; every 9th has a bad order (-1 or above
 * max_n, info -1) and every 13th a bad leading dimension (info -2), both
 * left untouched. Returns the bad matrices (-1 setup failure). */
static int64_t run_vbatch(char uplo, int64_t max_n, int64_t batch, char *why, size_t wlen)
{
    int64_t *n = malloc((size_t)batch * 8), *ld = malloc((size_t)batch * 8);
    int64_t *off = malloc((size_t)(batch + 1) * 8), *info = malloc((size_t)batch * 8);
    int64_t *want_arg = malloc((size_t)batch * 8), bad = -1;
    FLOAT **hptr = malloc((size_t)batch * sizeof(FLOAT *)), *A0 = NULL, *F = NULL, *dA = NULL;
    FLOAT **dptr = NULL;
    int64_t *dn = NULL, *dld = NULL, *dinfo = NULL;
    if (!n || !ld || !off || !info || !want_arg || !hptr) goto done;
    off[0] = 0;
    for (int64_t b = 0; b < batch; ++b) {
        const int64_t nb = (int64_t)((testing_hash_uniform(91, b, 0) + 1) * 0.5 * (double)(max_n + 1));
        n[b] = nb > max_n ? max_n : nb;
        ld[b] = (n[b] > 1 ? n[b] : 1) + b % 3;
        want_arg[b] = 0;
        if (b % 9 == 4) { n[b] = b % 2 ? -1 : max_n + 1; want_arg[b] = -1; }
        else if (b % 13 == 6 && n[b] >= 2) { ld[b] = n[b] - 1; want_arg[b] = -2; }
        const int64_t cols = n[b] > 0 ? n[b] : 1, rows = ld[b] > 0 ? ld[b] : 1;
        off[b + 1] = off[b] + rows * (cols > max_n + 1 ? max_n + 1 : cols) + 3;
    }
    A0 = malloc((size_t)off[batch] * ES);
    F = malloc((size_t)off[batch] * ES);
    if (!A0 || !F) goto done;
    testing_fill_nan(PREC, off[batch], A0);
    for (int64_t b = 0; b < batch; ++b)
        if (want_arg[b] == 0 && n[b] > 0) {
            FLOAT *T = malloc((size_t)(ld[b] * n[b]) * ES);
            if (!T) goto done;
            testing_generate_spd(PREC, uplo, n[b], T, ld[b], 2000 + (uint64_t)b);
            for (int64_t j = 0; j < n[b]; ++j)
                for (int64_t i = 0; i < n[b]; ++i)
                    if (uplo == 'L' ? i >= j : i <= j) A0[off[b] + i + j * ld[b]] = T[i + j * ld[b]];
            free(T);
            if (b % 5 == 2) A0[off[b] + (n[b] - 1) * (ld[b] + 1)] = -1; /* the last pivot */
        }
    memcpy(F, A0, (size_t)off[batch] * ES);
    if (!(dA = testing_upload(F, (size_t)off[batch] * ES))) goto done;
    for (int64_t b = 0; b < batch; ++b) hptr[b] = dA + off[b];
    if (!(dptr = testing_upload(hptr, (size_t)batch * sizeof(FLOAT *))) ||
        !(dn = testing_upload(n, (size_t)batch * 8)) || !(dld = testing_upload(ld, (size_t)batch * 8)) ||
        TESTING_CUDA(cudaMalloc((void **)&dinfo, (size_t)batch * 8)) ||
        TESTING_CUDA(cudaMemset(dinfo, 0x7f, (size_t)batch * 8)))
        goto done;
    const int64_t ret = GCHOL(potrf_vbatched_gpu)(uplo, dn, dptr, dld, max_n, dinfo, batch, g_queue);
    if (ret != 0) {
        snprintf(why, wlen, "returned %lld", (long long)ret);
        bad = batch;
        goto done;
    }
    if (TESTING_CUDA(cudaDeviceSynchronize()) || testing_download(F, dA, (size_t)off[batch] * ES) ||
        testing_download(info, dinfo, (size_t)batch * 8))
        goto done;
    bad = 0;
    for (int64_t b = 0; b < batch; ++b) {
        const FLOAT *M0 = A0 + off[b], *M = F + off[b];
        const int64_t len = off[b + 1] - off[b];
        int64_t want = want_arg[b], changed = 0;
        double resid = 0;
        if (want == 0 && n[b] > 0) {
            want = testing_reference_info(PREC, uplo, n[b], M0, ld[b]);
            changed = testing_count_untouched_violations(PREC, uplo, n[b], M, M0, ld[b]) +
                      testing_count_diff(PREC, len - ld[b] * n[b], M + ld[b] * n[b], M0 + ld[b] * n[b]);
            if (want == 0 && info[b] == 0)
                resid = testing_residual_cpu(PREC, uplo, n[b], M0, ld[b], M, ld[b]);
        } else {
            changed = testing_count_diff(PREC, len, M, M0); /* nothing of it touched */
        }
        if (info[b] != want || changed || !(resid >= 0 && resid < TESTING_TOL)) {
            if (bad++ == 0)
                snprintf(why, wlen, "matrix %lld (n %lld, ld %lld): info %lld, want %lld, %lld "
                         "changed outside, residual %.2e", (long long)b, (long long)n[b],
                         (long long)ld[b], (long long)info[b], (long long)want, (long long)changed,
                         resid);
        }
    }
done:
    if (bad < 0 && !why[0]) snprintf(why, wlen, "setup failed");
    cudaFree(dA); cudaFree(dptr); cudaFree(dn); cudaFree(dld); cudaFree(dinfo);
    free(n); free(ld); free(off); free(info); free(want_arg); free(hptr); free(A0); free(F);
    return bad;
}

static void run_vcase(char uplo, int64_t max_n, int64_t batch)
{
    char why[300] = "";
    if (!testing_case_in_part()) return;
    if (!testing_have_gpu()) {
        testing_skip("vbatched        max_n=%-4lld %c batch=%lld (no GPU)", (long long)max_n, uplo,
                     (long long)batch);
        return;
    }
    const int64_t bad = run_vbatch(uplo, max_n, batch, why, sizeof why);
    testing_expect(bad == 0, "vbatched        max_n=%-4lld %c batch=%-6lld: %s%s", (long long)max_n,
                   uplo, (long long)batch, bad == 0 ? "every matrix as LAPACK" : "FAILED ", why);
}

static void run_case(const bcase_t *c)
{
    char why[300] = "";
    if (!testing_case_in_part()) return;
    if (!testing_have_gpu()) {
        testing_skip("%s n=%-4lld %c lda=n+%lld batch=%lld (no GPU)",
                     c->host ? "strided (host) " : c->pointers ? "batched        " : "strided_batched", (long long)c->n,
                     c->uplo, (long long)c->pad, (long long)c->batch);
        return;
    }
    const int64_t bad = run_batch(c, why, sizeof why);
    testing_expect(bad == 0, "%s n=%-4lld %c lda=n+%lld batch=%-6lld gap=%lld: %s%s",
                   c->host ? "strided (host) " : c->pointers ? "batched        " : "strided_batched",
                   (long long)c->n, c->uplo,
                   (long long)c->pad, (long long)c->batch, (long long)c->gap,
                   bad == 0 ? "every matrix as LAPACK" : "FAILED ", why);
}

/* Each bad argument alone: -i, on any machine (nothing is touched before). */
static void run_arguments(void)
{
    FLOAT *fake = (FLOAT *)(uintptr_t)0x1000, *const *fakep = (FLOAT *const *)(uintptr_t)0x2000;
    int64_t *fakei = (int64_t *)(uintptr_t)0x3000;
    gchol_queue_t q = (gchol_queue_t)(uintptr_t)0x4000; /* never reached */
    const struct { const char *what; int64_t got, want; } cases[] = {
        { "batched: uplo 'X'", GCHOL(potrf_batched_gpu)('X', 4, fakep, 4, fakei, 2, q), -1 },
        { "batched: n -1", GCHOL(potrf_batched_gpu)('L', -1, fakep, 4, fakei, 2, q), -2 },
        { "batched: dA_array NULL", GCHOL(potrf_batched_gpu)('L', 4, NULL, 4, fakei, 2, q), -3 },
        { "batched: ldda < n", GCHOL(potrf_batched_gpu)('U', 4, fakep, 3, fakei, 2, q), -4 },
        { "batched: ldda 0 at n 0", GCHOL(potrf_batched_gpu)('L', 0, fakep, 0, fakei, 2, q), -4 },
        { "batched: dinfo NULL", GCHOL(potrf_batched_gpu)('L', 4, fakep, 4, NULL, 2, q), -5 },
        { "batched: batch -1", GCHOL(potrf_batched_gpu)('L', 4, fakep, 4, fakei, -1, q), -6 },
        { "batched: queue NULL", GCHOL(potrf_batched_gpu)('L', 4, fakep, 4, fakei, 2, NULL), -7 },
        { "batched: batch 0 (nothing)", GCHOL(potrf_batched_gpu)('L', 4, NULL, 4, NULL, 0, q), 0 },
        { "strided: uplo 'X'", GCHOL(potrf_strided_batched_gpu)('X', 4, fake, 4, 16, fakei, 2, q), -1 },
        { "strided: n -1", GCHOL(potrf_strided_batched_gpu)('L', -1, fake, 4, 16, fakei, 2, q), -2 },
        { "strided: dA NULL", GCHOL(potrf_strided_batched_gpu)('L', 4, NULL, 4, 16, fakei, 2, q), -3 },
        { "strided: ldda < n", GCHOL(potrf_strided_batched_gpu)('L', 4, fake, 3, 16, fakei, 2, q), -4 },
        { "strided: stride < ldda n", GCHOL(potrf_strided_batched_gpu)('L', 4, fake, 5, 19, fakei, 2, q), -5 },
        { "strided: dinfo NULL", GCHOL(potrf_strided_batched_gpu)('L', 4, fake, 4, 16, NULL, 2, q), -6 },
        { "strided: batch -1", GCHOL(potrf_strided_batched_gpu)('L', 4, fake, 4, 16, fakei, -1, q), -7 },
        { "strided: queue NULL", GCHOL(potrf_strided_batched_gpu)('L', 4, fake, 4, 16, fakei, 2, NULL), -8 },
        { "strided: batch 0 (nothing)", GCHOL(potrf_strided_batched_gpu)('L', 4, NULL, 4, 0, NULL, 0, q), 0 },
        { "host: uplo 'X'", GCHOL(potrf_strided_batched)('X', 4, fake, 4, 16, fakei, 2), -1 },
        { "host: stride < lda n", GCHOL(potrf_strided_batched)('L', 4, fake, 5, 19, fakei, 2), -5 },
        { "host: info NULL", GCHOL(potrf_strided_batched)('L', 4, fake, 4, 16, NULL, 2), -6 },
        { "host: batch -1", GCHOL(potrf_strided_batched)('L', 4, fake, 4, 16, fakei, -1), -7 },
        { "vbatched: uplo 'X'", GCHOL(potrf_vbatched_gpu)('X', fakei, fakep, fakei, 4, fakei, 2, q), -1 },
        { "vbatched: dn NULL", GCHOL(potrf_vbatched_gpu)('L', NULL, fakep, fakei, 4, fakei, 2, q), -2 },
        { "vbatched: dA_array NULL", GCHOL(potrf_vbatched_gpu)('L', fakei, NULL, fakei, 4, fakei, 2, q), -3 },
        { "vbatched: dldda NULL", GCHOL(potrf_vbatched_gpu)('L', fakei, fakep, NULL, 4, fakei, 2, q), -4 },
        { "vbatched: max_n -1", GCHOL(potrf_vbatched_gpu)('L', fakei, fakep, fakei, -1, fakei, 2, q), -5 },
        { "vbatched: dinfo NULL", GCHOL(potrf_vbatched_gpu)('L', fakei, fakep, fakei, 4, NULL, 2, q), -6 },
        { "vbatched: batch -1", GCHOL(potrf_vbatched_gpu)('L', fakei, fakep, fakei, 4, fakei, -1, q), -7 },
        { "vbatched: queue NULL", GCHOL(potrf_vbatched_gpu)('L', fakei, fakep, fakei, 4, fakei, 2, NULL), -8 },
        { "vbatched: batch 0 (nothing)", GCHOL(potrf_vbatched_gpu)('L', NULL, NULL, NULL, 4, NULL, 0, q), 0 },
    };
    for (int i = 0; i < LEN(cases); ++i)
        testing_expect(cases[i].got == cases[i].want, "%s %s: %lld (want %lld)",
                       GCHOL_NAME("potrf_batched"), cases[i].what, (long long)cases[i].got,
                       (long long)cases[i].want);
}

/* Without a GPU the host form answers GCHOL_ERR_NO_DEVICE and writes nothing
 * (n = 0 is the quick return: infos 0, no GPU needed). */
static void run_no_device(void)
{
    if (!testing_no_gpu_section("the host form without a GPU")) return;
    FLOAT A[3 * 16], A0[3 * 16];
    int64_t info[3] = { 5, 5, 5 };
    testing_generate_spd(PREC, 'A', 4, A, 4, 1);
    testing_generate_spd(PREC, 'A', 4, A + 16, 4, 2);
    testing_generate_spd(PREC, 'A', 4, A + 32, 4, 3);
    memcpy(A0, A, sizeof A);
    const int64_t ret = GCHOL(potrf_strided_batched)('L', 4, A, 4, 16, info, 3);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && memcmp(A, A0, sizeof A) == 0 && info[0] == 5,
                   "%s: %lld (want GCHOL_ERR_NO_DEVICE), A and info untouched",
                   GCHOL_NAME("potrf_strided_batched"), (long long)ret);
    const int64_t r0 = GCHOL(potrf_strided_batched)('L', 0, NULL, 1, 0, info, 3);
    testing_expect(r0 == 0 && info[0] == 0 && info[1] == 0 && info[2] == 0,
                   "%s n = 0: %lld, infos 0 (the quick return)", GCHOL_NAME("potrf_strided_batched"),
                   (long long)r0);
}

/* Batches at each of the orders ns (the quick suite: every other one), the
 * triangle, padding and form alternating, on whatever kernel the hooks set. */
static void run_orders(const int64_t *ns, int count, int quick)
{
    for (int i = 0; i < count; ++i) {
        if (quick && i % 2) continue;
        const int64_t t = quick ? i / 2 : i;
        const bcase_t c = { t % 2 ? 'U' : 'L', ns[i], i % 3, 3, 9 + i % 4, i % 2, 0 };
        run_case(&c);
    }
}

static void run_suite(int quick)
{
    run_arguments();
    run_no_device();
    if (!testing_gpu_section("batches of every small order, both forms, both triangles", 1))
        return;
    const int64_t small_max = quick ? 40 : 64;
    for (int64_t n = 0; n <= small_max; ++n)
        for (int u = 0; u < 2; ++u) {
            const bcase_t c = { u ? 'U' : 'L', n, n % 4, (n % 3) * 5, quick ? 23 : 37, (int)(n % 2), 0 };
            run_case(&c);
        }
    printf("\n-- larger orders: the shared-memory, panel and global-memory forms --\n");
    static const int64_t ns[] = { 65, 80, 96, 127, 128, 129, 150, 160, 168, 169, 170, 200, 237,
                                  238, 239, 256, 300, 384, 511, 512, 513, 600 };
    for (int i = 0; i < LEN(ns); ++i) {
        if (quick && i % 3) continue;
        for (int u = 0; u < 2; ++u) {
            const bcase_t c = { u ? 'U' : 'L', ns[i], i % 3, 7, ns[i] > 256 ? 6 : 11, (i + u) % 2, 0 };
            run_case(&c);
        }
    }
    /* the tuning picks one kernel per order; each is tested wherever it may run */
    static const char *const forced_name[10] = { "the blocked kernel", "the panel kernel",
                                                "the rows kernel", "the tiled left-looking kernel",
                                                "the tiled kernel with one chunk buffer",
                                                "the tiled kernel with two chunk buffers",
                                                "block columns of 24 on cuBLAS's products, "
                                                "the panel step in one launch",
                                                "block columns of 32 on cuBLAS's products, "
                                                "the panel step in two launches",
                                                "a warp a matrix to 256",
                                                "the tiles kernel where its tiles fit" };
    static const int64_t fns[] = { 33, 64, 100, 128, 200, 237, 300, 512 };
    /* 17..32: its block of 32; 65: the panel kernel's */
    static const int64_t rows_ns[] = { 17, 24, 31, 32, 33, 40, 47, 63, 64, 65 };
    /* the tiled kernel: partial row tiles, a last panel narrower than 32 or
     * than 8 rows, the largest blocks */
    static const int64_t mma_ns[] = { 33, 36, 64, 65, 71, 96, 97, 128, 161, 255, 256, 257,
                                      385, 449, 500, 512 };
    /* the warp kernel: a last block of 1, 2, partial, whole rows; 257:
     * the panel kernel's */
    static const int64_t warp_ns[] = { 33, 34, 40, 47, 63, 64, 65, 66, 96, 100, 127, 128,
                                       129, 160, 200, 255, 256, 257 };
    /* the products' block columns: one and a partial last, several, whole */
    static const int64_t cublas_ns[] = { 65, 96, 100, 128, 129, 200, 256, 300, 512, 600 };
    /* the tiles kernel: one tile and a partial one, several, whole; past
     * its shared memory (double's 160 and more fit one block an SM) */
    static const int64_t tiles_ns[] = { 33, 40, 63, 64, 65, 96, 100, 127, 128, 129, 160, 161,
                                        192, 200, 256, 288, 300 };
    for (int f = 0; f < 10; ++f) {
        printf("\n-- medium orders on %s, whatever the tuning picks --\n", forced_name[f]);
        /* the products' panel step: at these batches the table's (one
         * launch), on f == 7 in two */
        const gchol_test_hooks_t hooks = { .batched_kernel = f < 6 ? f + 1 : f >= 8 ? f : 7,
                                           .batched_cublas_nb = f == 6 ? 24 : 32,
                                           .batched_cublas_fused = f == 7 ? 2 : 0 };
        gchol_test_hooks_set(&hooks);
        const int64_t *ns_f = f == 9 ? tiles_ns : f == 8 ? warp_ns : f == 2 ? rows_ns
                            : f >= 6 ? cublas_ns : f >= 3 ? mma_ns : fns;
        const int count_f = f == 9 ? LEN(tiles_ns) : f == 8 ? LEN(warp_ns) : f == 2 ? LEN(rows_ns)
                          : f >= 6 ? LEN(cublas_ns) : f >= 3 ? LEN(mma_ns) : LEN(fns);
        for (int i = 0; i < count_f; ++i) {
            if (quick && i % 2 != f % 2) continue;
            /* the quick suite keeps every other order: its triangle alternates too */
            const int64_t t = quick ? i / 2 : i;
            const bcase_t c = { (t + f) % 2 ? 'U' : 'L', ns_f[i], i % 3, 3, ns_f[i] > 256 ? 5 : 9,
                                i % 2, 0 };
            run_case(&c);
        }
        if (f < 2 && (!quick || f == 0)) run_vcase(f ? 'U' : 'L', 300, 30);
        if (f == 2) run_vcase('L', 64, 120);
        if (f == 2) run_vcase('U', 32, 120);
        if (f == 2 && !quick) run_vcase('U', 64, 120);
        if (f == 3) run_vcase('U', 300, 30);
        if (f == 3 && !quick) run_vcase('L', 512, 12);
        if (f == 4) run_vcase('L', 160, 30);
        if (f == 5) run_vcase('U', 400, 30); /* small enough for two buffers in double */
        if (f == 9) { /* orders from 0 up in one batch */
            run_vcase('L', 128, 60);
            run_vcase('U', 200, 40);
        }
        if (f == 8) { /* orders from 0 up in one batch */
            run_vcase('L', 64, 120);
            run_vcase('U', 200, 40);
            if (!quick) run_vcase('U', 64, 120);
            /* block columns of 16 on cuBLAS's products, narrower than
             * the panel step's 32, to the last column (no trailing matrix) */
            const gchol_test_hooks_t cw = { .batched_kernel = 7, .batched_cublas_nb = 16,
                                            .batched_cublas_tail = -1 };
            gchol_test_hooks_set(&cw);
            const bcase_t c1 = { 'L', 300, 1, 3, 5, 0, 0 }, c2 = { 'U', 512, 0, 2, 4, 1, 0 };
            run_case(&c1);
            if (!quick) run_case(&c2);
        }
        if (f == 6 || f == 7) { /* the host form, a batch of one, and chunks of 3 matrices */
            const bcase_t hc = { f == 6 ? 'L' : 'U', 200, 2, 5, 7, 0, 1 };
            const bcase_t one = { f == 6 ? 'U' : 'L', 129, 0, 0, 1, f - 6, 0 };
            run_case(&hc);
            run_case(&one);
            /* three matrices' workspace: the panel step's elements, and
             * four pointers in the pointer form (f == 7) */
            const int64_t nbc = f == 6 ? 24 : 32, nc = 150;
            const int64_t work = f == 6 ? nc * GCHOL_BATCHED_PANEL_MAX : GCHOL_BATCHED_PANEL_WORK;
            const gchol_test_hooks_t small = {
                .batched_kernel = 7, .batched_cublas_nb = nbc,
                .batched_cublas_fused = f == 7 ? 2 : 1,
                .batched_cublas_work_bytes =
                    3 * (work * (int64_t)sizeof(FLOAT) +
                         (f == 7 ? 4 * (int64_t)sizeof(void *) : 0)) };
            gchol_test_hooks_set(&small);
            const bcase_t chunks = { f == 6 ? 'L' : 'U', nc, 1, 2, 11, f - 6, 0 };
            run_case(&chunks);
            /* a trailing matrix of at most 100 and 40 columns (n - k0 = 80
             * or 72, and 33) on the live tiles kernel */
            const gchol_test_hooks_t tail = { .batched_kernel = 7, .batched_cublas_nb = nbc,
                                              .batched_cublas_fused = f == 7 ? 2 : 0,
                                              .batched_cublas_tail = 100 };
            gchol_test_hooks_set(&tail);
            const bcase_t t1 = { f == 6 ? 'U' : 'L', 200, 3, 1, 9, f - 6, 0 };
            run_case(&t1);
            const gchol_test_hooks_t tail40 = { .batched_kernel = 7, .batched_cublas_nb = nbc,
                                                .batched_cublas_tail = 40 };
            gchol_test_hooks_set(&tail40);
            const bcase_t t2 = { f == 6 ? 'L' : 'U', 129, 0, 2, 9, 7 - f, 0 };
            run_case(&t2);
        }
        gchol_test_hooks_set(NULL);
    }
    {
        printf("\n-- medium orders on the FP64 tensor cores' warp kernel, whatever the tuning "
               "picks --\n");
        /* a last block of 1, 2, partial, whole rows; several warps a block,
         * the last one's matrices fewer than its warps */
        static const int64_t dmma_ns[] = { 33, 34, 40, 47, 63, 64, 65, 66, 96, 100, 127, 128,
                                           129, 160, 200, 255, 256, 257, 300, 384, 511, 512 };
        for (int i = 0; i < LEN(dmma_ns); ++i) {
            if (quick && i % 2) continue;
            const int64_t t = quick ? i / 2 : i;
            /* its two forms: three blocks an SM and four */
            const gchol_test_hooks_t hooks = { .batched_kernel = 10,
                                               .batched_dmma_blocks = 3 + (int)(t / 2 % 2) };
            gchol_test_hooks_set(&hooks);
            const bcase_t c = { t % 2 ? 'U' : 'L', dmma_ns[i], i % 3, 3,
                                dmma_ns[i] > 256 ? 6 : 9 + i % 4, i % 2, 0 };
            run_case(&c);
        }
        const gchol_test_hooks_t hooks = { .batched_kernel = 10 };
        gchol_test_hooks_set(&hooks);
        run_vcase('L', 128, 60);
        run_vcase('U', 300, 30);
        if (!quick) run_vcase('U', 64, 120);
        gchol_test_hooks_set(NULL);
    }
    {
        printf("\n-- orders to 256 on the live tiles kernel, whatever the tuning picks --\n");
        /* one tile and a partial one; every tile count to 8, whole and
         * partial; the peak of live tiles (7, 8 tile columns) */
        static const int64_t live_ns[] = { 1, 5, 31, 32, 33, 40, 63, 64, 65, 96, 100, 127, 128,
                                           129, 160, 161, 192, 200, 224, 225, 240, 255, 256 };
        const gchol_test_hooks_t hooks = { .batched_kernel = 11 };
        gchol_test_hooks_set(&hooks);
        run_orders(live_ns, LEN(live_ns), quick);
        run_vcase('L', 256, 40);
        run_vcase('U', 200, 40);
        if (!quick) run_vcase('U', 64, 120);
        gchol_test_hooks_set(NULL);
    }
    {
        printf("\n-- orders to 64 on the replica kernel, whatever the tuning picks --\n");
        /* one warp's panel and a partial one; four, six and eight warps,
         * whole and partial; the second row half from 33 */
        static const int64_t replica_ns[] = { 1, 2, 7, 8, 9, 16, 17, 24, 31, 32, 33, 40, 41,
                                              47, 48, 49, 56, 63, 64 };
        const gchol_test_hooks_t hooks = { .batched_kernel = 12 };
        gchol_test_hooks_set(&hooks);
        run_orders(replica_ns, LEN(replica_ns), quick);
        run_vcase('L', 64, 120);
        run_vcase('U', 32, 120);
        if (!quick) run_vcase('U', 48, 120);
        gchol_test_hooks_set(NULL);
    }
    {
        printf("\n-- orders 17 to 32 on the panels kernel, whatever the tuning picks --\n");
        static const int64_t panels_ns[] = { 17, 20, 23, 24, 25, 31, 32 };
        const gchol_test_hooks_t hooks = { .batched_kernel = 13 };
        gchol_test_hooks_set(&hooks);
        run_orders(panels_ns, LEN(panels_ns), quick);
        run_vcase('L', 32, 120);
        gchol_test_hooks_set(NULL);
    }
    printf("\n-- each matrix its own order and leading dimension (zeros and bad ones among "
           "them) --\n");
    static const int64_t max_ns[] = { 0, 5, 16, 32, 33, 100, 168, 300 };
    for (int i = 0; i < LEN(max_ns); ++i) {
        if (quick && i % 2) continue;
        for (int u = 0; u < 2; ++u) run_vcase(u ? 'U' : 'L', max_ns[i], max_ns[i] > 100 ? 40 : 120);
    }
    printf("\n-- the host form --\n");
    static const int64_t hn[] = { 0, 7, 20, 100, 300 };
    for (int i = 0; i < LEN(hn); ++i) {
        const bcase_t c = { i % 2 ? 'U' : 'L', hn[i], 1, 5, hn[i] > 100 ? 5 : 17, 0, 1 };
        run_case(&c);
    }
    printf("\n-- many small matrices --\n");
    for (int p = 0; p < 2; ++p) {
        const bcase_t c = { p ? 'U' : 'L', 16, 1, 0, quick ? 20000 : 200001, p, 0 };
        run_case(&c);
    }
}

static void run_table(const testing_cmdline_t *cmd)
{
    (void)cmd;
    run_suite(0);
}

int main(int argc, char **argv)
{
    const testing_tester_t t = { PREC, "potrf_batched", 0, &g_queue, NULL, 0, run_suite, run_table };
    return testing_tester_main(argc, argv, &t);
}
