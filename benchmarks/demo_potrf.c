/*
 * demo_potrf.c -- the main job (`make demo`): factor an SPD matrix on the GPU
 * with gchol_?potrf_gpu, check LAPACK's residual ||A - L L^T||_1 / (n ||A||_1 eps)
 * computed on the GPU, and compare the time with cusolverDnXpotrf measured in
 * the same run on the same matrix; in double (the main result) and single.
 *
 *   demo_potrf [-n N] [--niter K] [--uplo L|U] [--seed S]     (default n = 16384)
 *
 * Exit status: 0 when both residuals pass (< 30), 1 when one fails, 2 when
 * there is no usable CUDA GPU (then one line says why: no GPU or no NVIDIA
 * driver, or a driver too old for this build's CUDA runtime).
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEMO_RESIDUAL_LIMIT 30.0

/* Factors the matrix in precision prec with gchol and cuSOLVER, prints the
 * residual, times and ratio; returns 1 when the gchol factor passes. */
static int demo_one(char prec, char uplo, int64_t n, int niter, uint64_t seed,
                    gchol_queue_t queue, bench_cusolver_t *cusolver, cublasHandle_t cublas)
{
    const size_t es = testing_elsize(prec);
    void *hA = bench_spd_host(prec, n, n, seed);
    int64_t ldda;
    void *dA0 = bench_upload(prec, n, n, hA, n, &ldda);
    void *dA  = bench_device_malloc((size_t) ldda * n * es);
    free(hA);

    int cusolver_info = 0;
    bench_spin_up(0.3);
    double cusolver_s = bench_cusolver_potrf(cusolver, prec, uplo, n, dA0, dA, ldda, niter,
                                             &cusolver_info);
    int64_t info = 0;
    double gchol_s = bench_gchol_potrf(queue, BENCH_GCHOL_GPU, prec, uplo, n, dA0, dA, ldda,
                                       NULL, NULL, niter, &info);
    int ok = 0;
    printf("%cpotrf  n = %lld, uplo %c (%s precision)\n", prec, (long long) n, uplo,
           testing_prec_name(prec));
    if (gchol_s < 0 || info != 0) {
        printf("  gchol_%cpotrf_gpu       FAILED: info %lld (%s)\n", prec, (long long) info,
               gchol_strerror(info));
    } else {
        double resid = bench_potrf_residual(cublas, prec, uplo, n, dA0, dA, ldda);
        ok = resid < DEMO_RESIDUAL_LIMIT;
        printf("  residual ||A - LL^T||_1 / (n ||A||_1 eps) = %.3g   %s\n", resid,
               ok ? "ok" : "FAILED");
        printf("  gchol_%cpotrf_gpu       %9.2f ms  %6.2f TFLOP/s\n", prec, gchol_s * 1e3,
               bench_potrf_tflops(n, gchol_s));
    }
    printf("  cusolverDnXpotrf       %9.2f ms  %6.2f TFLOP/s%s\n", cusolver_s * 1e3,
           bench_potrf_tflops(n, cusolver_s), cusolver_info ? "  (cuSOLVER info != 0)" : "");
    if (ok)
        printf("  speed ratio cuSOLVER time / gchol time = %.3f\n\n", cusolver_s / gchol_s);
    BENCH_CUDA(cudaFree(dA));
    BENCH_CUDA(cudaFree(dA0));
    return ok;
}

int main(int argc, char **argv)
{
    int64_t n = 16384;
    int niter = 3;
    char uplo = 'L';
    uint64_t seed = 2026;
    const opt_t opts[] = {
        OPT("-n", OPT_INT64, &n, "N", "order of the matrix (default 16384)", OPT_MIN(1)),
        OPT("--niter", OPT_INT, &niter, "K", "timed runs after a warm-up, median reported "
            "(default 3)", OPT_MIN(1)),
        OPT("--uplo", OPT_CHAR, &uplo, "L|U", "triangle (default L)", .choices = "LU"),
        OPT("--seed", OPT_UINT64, &seed, "S", "random matrix (default 2026)"),
        OPT_END
    };
    const opts_program_t prog = { "[-n N] [--niter K] [--uplo L|U] [--seed S]", NULL,
                                  EXIT_FAILURE };
    opts_parse(argc, argv, opts, &prog);

    char why[256];
    if (testing_gpu_status(why, sizeof why) != TESTING_GPU_OK) {
        printf("gchol %s demo: skipped: %s; the demo needs a CUDA GPU\n", gchol_version(), why);
        return 2;
    }
    bench_require_gpu(-1, argv[0]);

    bench_context_t ctx;
    bench_context_create(&ctx);
    gchol_queue_t queue = ctx.queue;
    cublasHandle_t cublas = ctx.cublas;

    printf("gchol %s demo: SPD matrix, uniform(-1,1) + n on the diagonal; median of %d "
           "runs after a warm-up, CUDA events; flops n^3/3 + n^2/2 + n/6\n\n",
           gchol_version(), niter);
    int ok_d = demo_one('d', uplo, n, niter, seed, queue, &ctx.cusolver, cublas);
    int ok_s = demo_one('s', uplo, n, niter, seed, queue, &ctx.cusolver, cublas);
    printf("%s\n", ok_d && ok_s ? "demo: ok" : "demo: FAILED");

    bench_context_destroy(&ctx);
    return ok_d && ok_s ? EXIT_SUCCESS : EXIT_FAILURE;
}
