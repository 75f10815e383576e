/*
 * testing_symv.c -- tests and times gchol's symmetric matrix-vector product
 * (kernels/symv.cu, gchol_?symv_launch): y := alpha A x + beta y from one
 * stored triangle, in double and single.
 *
 *   testing_symv [--quick] [--prec ds]
 *   testing_symv --time [-n LIST] [--niter K] [--prec ds] [--uplo L|U]
 *
 * The checks (the default; --quick: sampled sizes up to 1100 only), one
 * row each, MAGMA style: n = 0..70, then sampled n up to 5000 (around the
 * kernel's 64-column panels and 256-row chunks, and not multiples of
 * either), both triangles, lda = n and lda > n (odd too, and A one element
 * off 16-byte alignment: the kernel's scalar loads); (alpha, beta) = (-1,
 * 1), (1, 0), (0.5, -2), fresh random inputs each case. A's other triangle
 * and padding rows hold NaN; with beta = 0 so does y. Each row passes when
 *   ratio = max_i |y_i - y_ref,i| / ((|alpha| (|A||x|)_i + |beta y_i|) (n + 2) eps) < 30
 * (y_ref and |A||x| formed in double on the host), A comes back bit for
 * bit, the elements past y's end are untouched, and a second run gives the
 * same bits (deterministic).
 *
 * --time: gchol's kernel against cuBLAS ?symv on the same data, ms and
 * GB/s of the stored triangle (n (n + 1) / 2 elements), median of K runs.
 *
 * Without a GPU: "skipped", one case. Ends with "SUMMARY passed=P failed=F
 * skipped=S".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "opts.h"
#include "util.h"
#include "../kernels/gchol_kernels.h"

enum { Y_GUARD = 16 };

static uint64_t g_seed = 1;

typedef struct {
    double alpha, beta;
} scalars_t;
static const scalars_t kScalars[] = { { -1, 1 }, { 1, 0 }, { 0.5, -2 } };

/* y := alpha A x + beta y on the device, in the precision. */
static int launch(char prec, int64_t n, double alpha, const void *dA, int64_t lda, int upper,
                  const void *dx, double beta, void *dy, void *dwork)
{
    if (prec == 'd')
        return gchol_dsymv_launch(n, alpha, dA, lda, upper, dx, beta, dy, dwork, 0);
    return gchol_ssymv_launch(n, (float)alpha, dA, lda, upper, dx, (float)beta, dy, dwork, 0);
}

/* Element (i, j) of the symmetric A, from its stored triangle. */
static double sym_get(char prec, const void *A, int64_t lda, int upper, int64_t i, int64_t j)
{
    const int swap = upper ? i > j : i < j;
    return swap ? testing_get(prec, A, lda, j, i) : testing_get(prec, A, lda, i, j);
}

/* One case: 1 passed, 0 failed (printed as a row). off: A one element past
 * the allocation's start. */
static void run_case(char prec, int64_t n, char uplo, int64_t lda, int off, scalars_t s)
{
    const size_t es = testing_elsize(prec);
    const int upper = uplo == 'U';
    const int64_t alen = lda * n + off, ylen = n + Y_GUARD;
    void *A = testing_malloc((size_t)alen * es), *A2 = testing_malloc((size_t)alen * es);
    void *x = testing_malloc((size_t)(n ? n : 1) * es), *y0 = testing_malloc((size_t)ylen * es);
    void *y1 = testing_malloc((size_t)ylen * es), *y2 = testing_malloc((size_t)ylen * es);
    void *dA = NULL, *dx = NULL, *dy = NULL, *dwork = NULL;
    const size_t work = gchol_symv_work(n) * es;
    double ratio = NAN;
    int ok = 0, same = 0, a_kept = 0, guard_kept = 0, err = 0;
    char why[120] = "";
    if (!A || !A2 || !x || !y0 || !y1 || !y2) { snprintf(why, sizeof why, "out of memory"); goto report; }

    /* A: NaN everywhere, then the stored triangle random */
    const uint64_t seed = g_seed++;
    testing_fill_nan(prec, alen, A);
    void *Av = (char *)A + (size_t)off * es;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = upper ? 0 : j; i < (upper ? j + 1 : n); ++i)
            testing_set(prec, Av, lda, i, j, testing_hash_uniform(seed, i, j));
    for (int64_t i = 0; i < n; ++i) testing_set(prec, x, 1, i, 0, testing_hash_uniform(seed, i, -1));
    testing_fill_nan(prec, ylen, y0);
    if (s.beta != 0)
        for (int64_t i = 0; i < n; ++i) testing_set(prec, y0, 1, i, 0, testing_hash_uniform(seed, i, -2));

    dA = testing_upload(A, (size_t)alen * es);
    dx = testing_upload(x, (size_t)(n ? n : 1) * es);
    dy = testing_upload(y0, (size_t)ylen * es);
    if (!dA || !dx || !dy || TESTING_CUDA(cudaMalloc(&dwork, work ? work : 1))) { err = 1; goto report; }
    void *dAv = (char *)dA + (size_t)off * es;
    err = TESTING_CUDA(launch(prec, n, s.alpha, dAv, lda, upper, dx, s.beta, dy, dwork)) ||
          TESTING_CUDA(cudaDeviceSynchronize()) || testing_download(y1, dy, (size_t)ylen * es) ||
          TESTING_CUDA(cudaMemcpy(dy, y0, (size_t)ylen * es, cudaMemcpyHostToDevice)) ||
          TESTING_CUDA(launch(prec, n, s.alpha, dAv, lda, upper, dx, s.beta, dy, dwork)) ||
          TESTING_CUDA(cudaDeviceSynchronize()) || testing_download(y2, dy, (size_t)ylen * es) ||
          testing_download(A2, dA, (size_t)alen * es);
    if (err) goto report;
    same = memcmp(y1, y2, (size_t)ylen * es) == 0;
    a_kept = memcmp(A, A2, (size_t)alen * es) == 0;
    guard_kept = testing_count_diff(prec, Y_GUARD, (char *)y1 + (size_t)n * es,
                                    (char *)y0 + (size_t)n * es) == 0;

    /* the reference and its bound, in double */
    ratio = 0;
    const double eps = testing_eps(prec);
    for (int64_t i = 0; i < n; ++i) {
        double sum = 0, bound = 0;
        for (int64_t j = 0; j < n; ++j) {
            const double a = sym_get(prec, Av, lda, upper, i, j), xj = testing_get(prec, x, 1, j, 0);
            sum += a * xj;
            bound += fabs(a * xj);
        }
        const double yi0 = s.beta != 0 ? testing_get(prec, y0, 1, i, 0) : 0;
        const double ref = s.alpha * sum + s.beta * yi0;
        const double scale = (fabs(s.alpha) * bound + fabs(s.beta * yi0)) * (double)(n + 2) * eps;
        const double diff = fabs(testing_get(prec, y1, 1, i, 0) - ref);
        const double r = scale > 0 ? diff / scale : diff == 0 ? 0 : INFINITY;
        if (!(r <= ratio)) ratio = r; /* NaN kept */
    }
    ok = ratio < TESTING_TOL && same && a_kept && guard_kept;
    if (!same) testing_fail_reason(why, sizeof why, "runs differ");
    if (!a_kept) testing_fail_reason(why, sizeof why, "A changed");
    if (!guard_kept) testing_fail_reason(why, sizeof why, "y past n written");

report:
    if (err) testing_fail_reason(why, sizeof why, "CUDA error");
    printf("  %c %5lld  %c  %5lld %c %5.1f %5.1f   %9.2e  %-6s %s\n", prec, (long long)n, uplo,
           (long long)lda, off ? '+' : ' ', s.alpha, s.beta, ratio, ok ? "ok" : "FAILED", why);
    testing_record(ok ? TESTING_PASSED : TESTING_FAILED);
    cudaFree(dA); cudaFree(dx); cudaFree(dy); cudaFree(dwork);
    free(A); free(A2); free(x); free(y0); free(y1); free(y2);
}

static void run_checks(const char *precs, int quick)
{
    static const int64_t sampled[] = { 96,   127,  128,  129,  255,  256,  257,  320,  511,
                                       512,  513,  777,  1000, 1023, 1088, 2047, 2048, 2049,
                                       3001, 4096, 5000 };
    printf("\n  p     n uplo  lda   alpha  beta       ratio  status\n");
    for (const char *p = precs; *p; ++p) {
        int k = 0;
        for (int64_t n = 0; n <= 70; ++n)
            for (int u = 0; u < 2; ++u, ++k)
                run_case(*p, n, u ? 'U' : 'L', (n > 1 ? n : 1) + (k % 3 == 2 ? 1 + k % 5 : 0),
                         k % 7 == 3, kScalars[k % 3]);
        for (int i = 0; i < TESTING_LEN(sampled); ++i) {
            if (quick && sampled[i] > 1100) continue;
            for (int u = 0; u < 2; ++u)
                for (int a = 0; a < 3; ++a, ++k) {
                    /* lda: n, n + 3 (odd where n is even), n + 8; A off
                     * alignment in every fourth */
                    const int64_t pad = a == 0 ? 0 : a == 1 ? 3 : 8;
                    run_case(*p, sampled[i], u ? 'U' : 'L', sampled[i] + pad, k % 4 == 1,
                             kScalars[(a + u) % 3]);
                }
        }
    }
}

/* gchol's kernel against cuBLAS: seconds of one call, median of niter. */
/* A (n x n, lda n) and x random, not zeros: A by 64-column panels from a few
 * random host panels in turn (a memory-bound kernel reads them all alike). */
static int fill_random(char prec, int64_t n, void *dA, void *dx)
{
    enum { kCols = 64, kPanels = 4 };
    const size_t es = testing_elsize(prec);
    void *h = testing_malloc((size_t)(n * kCols) * es);
    if (!h) return 1;
    int err = 0;
    for (int k = 0; k < kPanels && !err; ++k) {
        for (int64_t j = 0; j < kCols; ++j)
            for (int64_t i = 0; i < n; ++i)
                testing_set(prec, h, n, i, j, testing_hash_uniform(g_seed + (uint64_t)k, i, j));
        for (int64_t j0 = (int64_t)k * kCols; j0 < n && !err; j0 += kPanels * kCols) {
            const int64_t cols = n - j0 < kCols ? n - j0 : kCols;
            err = TESTING_CUDA(cudaMemcpy((char *)dA + (size_t)(j0 * n) * es, h,
                                          (size_t)(cols * n) * es, cudaMemcpyHostToDevice));
        }
    }
    for (int64_t i = 0; i < n && !err; ++i)
        testing_set(prec, h, 1, i, 0, testing_hash_uniform(g_seed + kPanels, i, -1));
    if (!err) err = TESTING_CUDA(cudaMemcpy(dx, h, (size_t)n * es, cudaMemcpyHostToDevice));
    free(h);
    return err;
}

static void run_time(const char *precs, const testing_list_t *ns, int niter, char uplo)
{
    cublasHandle_t blas = NULL;
    if (TESTING_CUBLAS(cublasCreate(&blas))) { testing_record(TESTING_FAILED); return; }
    printf("\n  p       n uplo   gchol ms   GB/s   cuBLAS ms   GB/s   speedup\n");
    for (const char *p = precs; *p; ++p)
        for (int64_t t = 0; t < ns->count; ++t) {
            const int64_t n = ns->v[t];
            const size_t es = testing_elsize(*p);
            void *dA = NULL, *dx = NULL, *dy = NULL, *dwork = NULL;
            double *tg = malloc((size_t)niter * sizeof(double)), *tc = malloc((size_t)niter * sizeof(double));
            cudaEvent_t e0 = NULL, e1 = NULL;
            int err = !tg || !tc || TESTING_CUDA(cudaMalloc(&dA, (size_t)(n * n) * es)) ||
                      TESTING_CUDA(cudaMalloc(&dx, (size_t)n * es)) ||
                      TESTING_CUDA(cudaMalloc(&dy, (size_t)n * es)) ||
                      TESTING_CUDA(cudaMalloc(&dwork, gchol_symv_work(n) * es + 1)) ||
                      TESTING_CUDA(cudaEventCreate(&e0)) || TESTING_CUDA(cudaEventCreate(&e1)) ||
                      fill_random(*p, n, dA, dx);
            const cublasFillMode_t fill = uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
            const double one = 1, zero = 0;
            const float fone = 1, fzero = 0;
            for (int it = -1; !err && it < niter; ++it) { /* it = -1: warm-up */
                float ms = 0;
                err = TESTING_CUDA(cudaEventRecord(e0, 0)) ||
                      TESTING_CUDA(launch(*p, n, 1, dA, n, uplo == 'U', dx, 0, dy, dwork)) ||
                      TESTING_CUDA(cudaEventRecord(e1, 0)) || TESTING_CUDA(cudaEventSynchronize(e1)) ||
                      TESTING_CUDA(cudaEventElapsedTime(&ms, e0, e1));
                if (!err && it >= 0) tg[it] = 1e-3 * ms;
                err = err || TESTING_CUDA(cudaEventRecord(e0, 0)) ||
                      TESTING_CUBLAS(*p == 'd' ? cublasDsymv_64(blas, fill, n, &one, dA, n, dx, 1,
                                                                &zero, dy, 1)
                                               : cublasSsymv_64(blas, fill, n, &fone, dA, n, dx, 1,
                                                                &fzero, dy, 1)) ||
                      TESTING_CUDA(cudaEventRecord(e1, 0)) || TESTING_CUDA(cudaEventSynchronize(e1)) ||
                      TESTING_CUDA(cudaEventElapsedTime(&ms, e0, e1));
                if (!err && it >= 0) tc[it] = 1e-3 * ms;
            }
            if (!err) {
                const double g = testing_median(tg, niter), c = testing_median(tc, niter);
                const double bytes = (double)n * (double)(n + 1) / 2 * (double)es;
                printf("  %c %7lld  %c   %9.3f %6.0f   %9.3f %6.0f   %6.2fx\n", *p, (long long)n,
                       uplo, 1e3 * g, bytes / g * 1e-9, 1e3 * c, bytes / c * 1e-9, c / g);
            }
            testing_record(err ? TESTING_FAILED : TESTING_PASSED);
            if (e0) cudaEventDestroy(e0);
            if (e1) cudaEventDestroy(e1);
            cudaFree(dA); cudaFree(dx); cudaFree(dy); cudaFree(dwork);
            free(tg); free(tc);
        }
    cublasDestroy(blas);
}

int main(int argc, char **argv)
{
    int quick = 0, time = 0, niter = 10;
    const char *precs = "ds";
    char uplo = 'L';
    testing_list_t ns = { 0 };
    const opt_t opts[] = {
        OPT("--quick", OPT_FLAG, &quick, NULL, "the checks on sampled sizes up to 1100"),
        OPT("--time", OPT_FLAG, &time, NULL, "time gchol's kernel against cuBLAS instead"),
        OPT("-n", OPT_LIST, &ns, "LIST", "--time's orders", .def = "2048,4096,8192,16384,32768",
            .doubling = 1),
        OPT("--niter", OPT_INT, &niter, "K", "--time's runs (default 10)", OPT_MIN(1)),
        OPT("--prec", OPT_CHARS, &precs, "ds", "precisions (default ds)", .choices = "ds"),
        OPT("--uplo", OPT_CHAR, &uplo, "L|U", "--time's triangle (default L)", .choices = "LU"),
        OPT_END
    };
    const opts_program_t prog = { "[--quick] [--time [-n LIST] [--niter K]] [--prec ds]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    printf("testing_symv%s%s\n", quick ? " --quick" : "", time ? " --time" : "");
    char why[200];
    if (testing_gpu_status(why, sizeof why) != TESTING_GPU_OK) {
        testing_skip("testing_symv (no GPU: %s)", why);
    } else {
        if (time)
            run_time(precs, &ns, niter, uplo);
        else
            run_checks(precs, quick);
        gchol_finalize();
    }
    opts_free_list(&ns);
    return testing_summary();
}
