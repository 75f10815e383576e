/*
 * testing_lansy.c -- the infinity norm of a symmetric matrix from one stored
 * triangle on the GPU (gchol_?lansy_inf_launch and the _tile forms that fix
 * the tile side, kernels/mixed_prec.cu) against LAPACKE_?lansy('I'), double
 * and single, lower and upper storage: every n from 0 to 70, then orders
 * around the multiples of the tile sides up to 5000 (6000: the automatic
 * tile past 64), each with every tile side and the automatic one. lda > n;
 * the other triangle and the padding rows hold NaN (never read), and each
 * workspace is exactly the size its work function gives, filled with NaN
 * before each run (a partial sum left unwritten shows). Each run twice,
 * bitwise equal; then NaN, +Inf and -Inf planted in the stored triangle
 * (on the diagonal, in a diagonal tile, in the tile farthest from it) give
 * NaN, Inf and Inf, and NaN beside Inf gives NaN.
 *
 *   testing_lansy [--suite] [--quick]   (--quick: fewer orders, for make sanitize)
 *
 * Without a GPU the whole is one skipped case. Ends with
 * "SUMMARY passed=P failed=F skipped=S".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <lapacke.h>

#include "gchol.h"
#include "opts.h"
#include "util.h"
#include "../kernels/gchol_kernels.h"

/* 0: the automatic tile through gchol_?lansy_inf_launch */
static const int64_t g_tiles[] = { 0, 64, 128, 256, 512 };

typedef struct {
    char        prec, uplo;
    int64_t     n, lda;
    void       *A;      /* host copy of dA                                  */
    void       *dA;     /* lda x n, NaN outside the stored triangle         */
    double     *dnorm;
    double      ref_d;  /* LAPACKE_dlansy on the entries in double           */
    double      ref_s;  /* LAPACKE_slansy for single, else ref_d             */
} lcase_t;

static size_t work_doubles(int64_t n, int64_t tile)
{
    return tile ? gchol_lansy_inf_tile_work(n, tile) : gchol_lansy_inf_work(n);
}

/* One run with dnorm and the workspace poisoned first; 0, or -1 on a CUDA
 * failure (reported). */
static int gpu_norm(const lcase_t *c, int64_t tile, double *dwork, size_t work, double *out)
{
    const int upper = c->uplo == 'U';
    int e;
    if (TESTING_CUDA(cudaMemset(dwork, 0xff, work * sizeof(double))) ||
        TESTING_CUDA(cudaMemset(c->dnorm, 0xff, sizeof(double))))
        return -1;
    if (c->prec == 'd')
        e = tile ? gchol_dlansy_inf_tile_launch(c->n, c->dA, c->lda, upper, tile, dwork, c->dnorm, 0)
                 : gchol_dlansy_inf_launch(c->n, c->dA, c->lda, upper, dwork, c->dnorm, 0);
    else
        e = tile ? gchol_slansy_inf_tile_launch(c->n, c->dA, c->lda, upper, tile, dwork, c->dnorm, 0)
                 : gchol_slansy_inf_launch(c->n, c->dA, c->lda, upper, dwork, c->dnorm, 0);
    if (TESTING_CUDA(e) ||
        TESTING_CUDA(cudaMemcpy(out, c->dnorm, sizeof(double), cudaMemcpyDeviceToHost)))
        return -1;
    return 0;
}

/* Element (i, j) of the device matrix := v (rounded to the precision). */
static int set_device(const lcase_t *c, int64_t i, int64_t j, double v)
{
    const size_t es = testing_elsize(c->prec);
    char buf[8];
    testing_set(c->prec, buf, 1, 0, 0, v);
    return TESTING_CUDA(cudaMemcpy((char *)c->dA + (size_t)(i + j * c->lda) * es, buf, es,
                                   cudaMemcpyHostToDevice));
}

/* |got - ref| within 3 n eps of ref, eps of the summation's precision */
static int close_to(double got, double ref, int64_t n, double eps, double *ratio)
{
    if (ref == 0) {
        *ratio = got == 0 ? 0 : INFINITY;
        return got == 0;
    }
    const double r = fabs(got - ref) / (ref * (double)(n > 1 ? n : 1) * eps);
    if (!(r <= *ratio)) *ratio = r;
    return r <= 3.0;
}

/* The planted entries, in the stored triangle: the last diagonal entry, one
 * below (or right of) the first diagonal entry, the corner farthest from the
 * diagonal, and one inside. */
static int plant_spots(int64_t n, int64_t spots[4][2])
{
    const int64_t lo[4][2] = { { n - 1, n - 1 }, { 1, 0 }, { n - 1, 0 }, { (2 * n) / 3, n / 3 } };
    int k = 0;
    for (int s = 0; s < 4; s++)
        if (lo[s][0] < n && lo[s][1] <= lo[s][0]) {
            spots[k][0] = lo[s][0];
            spots[k][1] = lo[s][1];
            k++;
        }
    return k;
}

/* Every tile side on case c; 1 if all pass, else 0 with the first failure
 * in why. ratio: the largest error over n eps seen. */
static int check_case(const lcase_t *c, int plant, double *ratio, char *why, size_t size)
{
    const double eps_d = testing_eps('d'), eps_s = testing_eps('s');
    int64_t spots[4][2];
    const int nspots = c->n > 0 && plant ? plant_spots(c->n, spots) : 0;
    for (int t = 0; t < TESTING_LEN(g_tiles); t++) {
        const int64_t tile = g_tiles[t];
        const size_t work = work_doubles(c->n, tile);
        double *dwork = NULL, g1 = -1, g2 = -1;
        int ok = 1;
        if (TESTING_CUDA(cudaMalloc((void **)&dwork, work * sizeof(double)))) {
            snprintf(why, size, "cudaMalloc of the workspace");
            return 0;
        }
        if (gpu_norm(c, tile, dwork, work, &g1) || gpu_norm(c, tile, dwork, work, &g2)) {
            snprintf(why, size, "CUDA failure, tile %lld", (long long)tile);
            ok = 0;
        } else if (memcmp(&g1, &g2, sizeof(double))) {
            snprintf(why, size, "tile %lld: two runs differ (%.17g, %.17g)", (long long)tile, g1, g2);
            ok = 0;
        } else if (!close_to(g1, c->ref_d, c->n, eps_d, ratio) ||
                   (c->prec == 's' && !close_to(g1, c->ref_s, c->n, eps_s, ratio))) {
            snprintf(why, size, "tile %lld: %.17g, LAPACKE %.17g (dlansy) %.9g (%clansy)",
                     (long long)tile, g1, c->ref_d, c->ref_s, c->prec);
            ok = 0;
        }
        /* planted: NaN, +Inf, -Inf alone, then NaN beside +Inf at the next spot */
        for (int s = 0; ok && s < nspots; s++)
            for (int kind = 0; ok && kind < 4; kind++) {
                const double v = kind == 0 || kind == 3 ? NAN : kind == 1 ? INFINITY : -INFINITY;
                const int64_t i = c->uplo == 'L' ? spots[s][0] : spots[s][1],
                              j = c->uplo == 'L' ? spots[s][1] : spots[s][0];
                const int s2 = (s + 1) % nspots;
                const int64_t i2 = c->uplo == 'L' ? spots[s2][0] : spots[s2][1],
                              j2 = c->uplo == 'L' ? spots[s2][1] : spots[s2][0];
                const int second = kind == 3 && (i2 != i || j2 != j);
                double got = 0;
                if (set_device(c, i, j, v) || (second && set_device(c, i2, j2, INFINITY)) ||
                    gpu_norm(c, tile, dwork, work, &got) ||
                    set_device(c, i, j, testing_get(c->prec, c->A, c->lda, i, j)) ||
                    (second && set_device(c, i2, j2, testing_get(c->prec, c->A, c->lda, i2, j2)))) {
                    snprintf(why, size, "CUDA failure planting, tile %lld", (long long)tile);
                    ok = 0;
                } else if (kind == 1 || kind == 2 ? got != INFINITY : !isnan(got)) {
                    snprintf(why, size, "tile %lld: %s at (%lld, %lld)%s gives %.17g", (long long)tile,
                             kind == 1 ? "Inf" : kind == 2 ? "-Inf" : "NaN", (long long)i, (long long)j,
                             second ? " beside Inf" : "", got);
                    ok = 0;
                }
            }
        cudaFree(dwork);
        if (!ok) return 0;
    }
    return 1;
}

/* Builds case (prec, uplo, n) on the host and the device and checks it;
 * returns 1 if all passed, 0 with why. */
static int run_order(char prec, char uplo, int64_t n, int plant, double *ratio, char *why,
                     size_t size)
{
    lcase_t c = { prec, uplo, n, n + 1 + n % 5, NULL, NULL, NULL, 0, 0 };
    const size_t es = testing_elsize(prec), count = (size_t)(c.lda * (n > 0 ? n : 1));
    double *D = NULL;
    int ok = 0;
    c.A = testing_malloc(count * es);
    D = testing_malloc(count * sizeof(double) + (size_t)(n + 1) * sizeof(double));
    if (!c.A || !D) {
        snprintf(why, size, "out of memory");
        goto done;
    }
    testing_fill_nan(prec, (int64_t)count, c.A);
    /* entries of both signs and magnitudes up to 2^5, the rows' sums far apart */
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = uplo == 'L' ? j : 0; i < (uplo == 'L' ? n : j + 1); i++)
            testing_set(prec, c.A, c.lda, i, j,
                        testing_hash_uniform(31 + n, i, j) * (double)(1 << ((i + 3 * j) % 6)));
    testing_to_double(prec, c.lda, n, c.A, c.lda, D, c.lda);
    /* the _work forms: no NaN check (the other triangle is NaN) */
    c.ref_d = n > 0 ? LAPACKE_dlansy_work(LAPACK_COL_MAJOR, 'I', uplo, (lapack_int)n, D,
                                          (lapack_int)c.lda, D + count) : 0;
    c.ref_s = c.ref_d;
    if (prec == 's' && n > 0) {
        float *ws = malloc((size_t)n * sizeof(float));
        if (!ws) {
            snprintf(why, size, "out of memory");
            goto done;
        }
        c.ref_s = LAPACKE_slansy_work(LAPACK_COL_MAJOR, 'I', uplo, (lapack_int)n, c.A,
                                      (lapack_int)c.lda, ws);
        free(ws);
    }
    c.dA = testing_upload(c.A, count * es);
    if (!c.dA || TESTING_CUDA(cudaMalloc((void **)&c.dnorm, sizeof(double)))) {
        snprintf(why, size, "device allocation");
        goto done;
    }
    ok = check_case(&c, plant, ratio, why, size);
done:
    cudaFree(c.dA);
    cudaFree(c.dnorm);
    free(c.A);
    free(D);
    return ok;
}

/* Tile sides the launch must refuse, and n = 0's norm. */
static void test_arguments(void)
{
    double *dwork = NULL, *dnorm = NULL, got = -1;
    double a = 1;
    int ok = !TESTING_CUDA(cudaMalloc((void **)&dwork, gchol_lansy_inf_tile_work(64, 64) * 8)) &&
             !TESTING_CUDA(cudaMalloc((void **)&dnorm, sizeof(double)));
    const int64_t bad[] = { -64, 1, 32, 100, 1024 };
    for (int k = 0; ok && k < TESTING_LEN(bad); k++)
        ok = gchol_dlansy_inf_tile_launch(1, dwork, 1, 0, bad[k], dwork, dnorm, 0) ==
                 cudaErrorInvalidValue &&
             gchol_slansy_inf_tile_launch(1, (const float *)dwork, 1, 1, bad[k], dwork, dnorm, 0) ==
                 cudaErrorInvalidValue;
    testing_expect(ok, "tile sides other than 0, 64, 128, 256, 512: cudaErrorInvalidValue");
    ok = dwork && dnorm && !TESTING_CUDA(cudaMemcpy(dnorm, &a, sizeof(double), cudaMemcpyHostToDevice)) &&
         !TESTING_CUDA(gchol_dlansy_inf_launch(0, NULL, 1, 0, dwork, dnorm, 0)) &&
         !TESTING_CUDA(cudaMemcpy(&got, dnorm, sizeof(double), cudaMemcpyDeviceToHost));
    testing_expect(ok && got == 0, "n = 0: norm 0 (got %g)", got);
    cudaFree(dwork);
    cudaFree(dnorm);
}

static void run_suite(int quick)
{
    static const int64_t sampled[] = { 95,   127,  128,  129,  191,  255,  256,  257,  383,
                                       511,  512,  513,  777,  1023, 1024, 1025, 1500, 2047,
                                       2048, 2049, 3071, 4095, 4096, 4097, 5000, 6000 };
    const char precs[2] = { 'd', 's' }, uplos[2] = { 'L', 'U' };
    if (!testing_gpu_section("?lansy_inf (one stored triangle) against LAPACKE_?lansy('I')", 1))
        return;
    test_arguments();
    for (int p = 0; p < 2; p++)
        for (int u = 0; u < 2; u++) {
            const char prec = precs[p], uplo = uplos[u];
            /* n = 0..70 as one case, naming the first failure */
            double ratio = 0;
            char why[256] = "", first[300] = "";
            int ok = 1;
            for (int64_t n = 0; n <= 70 && ok; n++) {
                const int plant = !quick || n % 16 == 1 || n == 64 || n == 65 || n == 70;
                ok = run_order(prec, uplo, n, plant, &ratio, why, sizeof why);
                if (!ok) snprintf(first, sizeof first, " -- n = %lld: %s", (long long)n, why);
            }
            testing_expect(ok, "%clansy_inf %c n = 0..70 every tile, NaN / Inf planted, bitwise "
                           "repeatable: error <= %.2f n eps%s", prec, uplo, ratio, first);
            for (int k = 0; k < TESTING_LEN(sampled); k++) {
                const int64_t n = sampled[k];
                if (quick && n > 1025) continue;
                ratio = 0;
                why[0] = 0;
                ok = run_order(prec, uplo, n, 1, &ratio, why, sizeof why);
                testing_expect(ok, "%clansy_inf %c n = %-4lld lda = %-4lld every tile, NaN / Inf "
                               "planted, bitwise repeatable: error %.2f n eps%s%s", prec, uplo,
                               (long long)n, (long long)(n + 1 + n % 5), ratio, ok ? "" : " -- ",
                               why);
            }
        }
}

int main(int argc, char **argv)
{
    int suite = 0, quick = 0;
    const opt_t opts[] = {
        OPT("--suite", OPT_FLAG, &suite, NULL, "run the test suite (the default)"),
        OPT("--quick", OPT_FLAG, &quick, NULL, "fewer orders (make sanitize)"),
        OPT_END
    };
    const opts_program_t prog = { "[--suite] [--quick]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    (void)suite;
    const int gpu = testing_have_gpu();
    printf("testing_lansy (%s)\n", gpu ? "GPU present" : "no GPU");
    run_suite(quick);
    return testing_summary();
}
