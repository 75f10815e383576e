/*
 * bench_xposv.c -- the mixed-precision ladder (gchol_mixed.h) against its
 * peers, A X = B in double, A SPD with condition number kappa
 * (testing_generate_cond_spd):
 *   gchol xposv    gchol_dxposv_gpu, automatic (FP16 first from the tuning
 *                  table's crossover order, escalating; below it double)
 *   gchol FP16     gchol_dxposv_gpu with the FP16 rung asked for
 *   gchol TF32     gchol_dsposv_expert_gpu with products = TF32
 *   gchol dposv    gchol_dpotrf_gpu + gchol_dpotrs_gpu
 *   cuSOLVER dposv cusolverDnXpotrf + cusolverDnXpotrs
 *   cuSOLVER IRS   cusolverDnIRSXgesv (LU) with FP16, BF16 and TF32 as the
 *                  lowest precision, classical refinement, fallback on
 * Same matrix and right-hand sides for everyone, a fresh device copy of A
 * per run made outside the timed region, a warm-up, the median of --niter
 * runs (CUDA events); ratio = cuSOLVER dposv's time / the column's; every
 * answer's backward error ||b - A x|| / (||A|| ||x|| eps) checked on the GPU.
 * --kappa-table LIST: at each order, for kappa = 1e1 .. 1e14, the rung the
 * automatic ladder ends on, its ITER, time and backward error, the same
 * with the FP32 rung in the ladder (the test hooks), and gchol's dposv.
 * --lowp-table N: at order N (kappa --kappa), the FP16 factorization alone
 * (gchol_spotrf_lowp on a fresh copy of S = D A D) and the automatic solve
 * for each block size and panel form (cublasStrsm, or through the inverted
 * diagonal blocks), beside cuBLAS's FP16 gemm of the update's shape: the
 * rows that src/tune/ takes. --no-rows: the tables alone (--csv then
 * takes the kappa table, unless --kappa-csv does).
 *
 *   bench_xposv [-n LIST] [--nrhs K] [--kappa K] [--niter K] [--csv FILE] [--no-rows]
 *               [--kappa-table LIST [--kappa-csv FILE]]
 *               [--lowp-table N [--lowp-csv FILE] [--lowp-leaf L]] [--no-time-limit]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "../kernels/gchol_kernels.h"
#include "gchol_mixed.h"
#include "../src/potrf_lowp.h"
#include "../src/test_hooks.h"

static const char *prec_name[] = { "auto", "fp16", "bf16", "tf32", "fp32", "fp64" };

/* The test hooks every solve runs under (--no-time-limit); the tables add
 * theirs to them. */
static gchol_test_hooks_t g_hooks;

typedef struct {
    bench_context_t *ctx;
    int64_t  n, nrhs, ld;
    double  *dA0, *dA, *dB, *dX;
    gchol_xposv_result_t xres, xres16;
    int64_t  iter_tf32;
    void    *dwork, *hwork;
    size_t   dwork_bytes, hwork_bytes;
    int     *dinfo;
    cusolverDnIRSParams_t irs;
    cusolverDnIRSInfos_t irs_infos;
    int      irs_iter;
} job_ctx_t;

static void fresh_copy(void *p)
{
    job_ctx_t *c = p;
    bench_device_copy('d', c->n, c->n, c->dA0, c->ld, c->dA, c->ld, c->ctx->stream);
    BENCH_CUDA(cudaStreamSynchronize(c->ctx->stream));
}

static void fresh_copy_and_x(void *p)
{
    job_ctx_t *c = p;
    bench_device_copy('d', c->n, c->n, c->dA0, c->ld, c->dA, c->ld, c->ctx->stream);
    BENCH_CUDA(cudaMemcpy2DAsync(c->dX, (size_t)c->ld * 8, c->dB, (size_t)c->ld * 8,
                                 (size_t)c->n * 8, (size_t)c->nrhs, cudaMemcpyDeviceToDevice,
                                 c->ctx->stream));
    BENCH_CUDA(cudaStreamSynchronize(c->ctx->stream));
}

static int64_t run_xposv(void *p, int64_t *info)
{
    job_ctx_t *c = p;
    return gchol_dxposv_gpu('L', c->n, c->nrhs, c->dA, c->ld, c->dB, c->ld, c->dX, c->ld, NULL,
                            &c->xres, info, c->ctx->queue);
}

/* The FP16 rung asked for (the ladder above it still answers a failure). */
static int64_t run_xposv_fp16(void *p, int64_t *info)
{
    job_ctx_t *c = p;
    const gchol_xposv_options_t o = { .factor = GCHOL_XPREC_FP16 };
    return gchol_dxposv_gpu('L', c->n, c->nrhs, c->dA, c->ld, c->dB, c->ld, c->dX, c->ld, &o,
                            &c->xres16, info, c->ctx->queue);
}

static int64_t run_tf32(void *p, int64_t *info)
{
    job_ctx_t *c = p;
    gchol_options_t o;
    gchol_options_default(&o);
    o.products = GCHOL_PRODUCTS_TF32;
    return gchol_dsposv_expert_gpu('L', c->n, c->nrhs, c->dA, c->ld, c->dB, c->ld, c->dX, c->ld,
                                   &c->iter_tf32, info, &o, c->ctx->queue);
}

static int64_t run_dposv(void *p, int64_t *info)
{
    job_ctx_t *c = p;
    const int64_t st = gchol_dpotrf_gpu('L', c->n, c->dA, c->ld, info, c->ctx->queue);
    if (st != 0) return st;
    return gchol_dpotrs_gpu('L', c->n, c->nrhs, c->dA, c->ld, c->dX, c->ld, info, c->ctx->queue);
}

static int64_t run_cusolver(void *p, int64_t *info)
{
    job_ctx_t *c = p;
    (void)info;
    bench_cusolver_dposv(&c->ctx->cusolver, 'L', c->n, c->nrhs, c->dA, c->ld, c->dX, c->dwork,
                         c->dwork_bytes, c->hwork, c->hwork_bytes, c->dinfo);
    return 0;
}

static int64_t run_irs(void *p, int64_t *info)
{
    job_ctx_t *c = p;
    cusolver_int_t it = 0;
    (void)info;
    BENCH_CUSOLVER(cusolverDnIRSXgesv(c->ctx->cusolver.handle, c->irs, c->irs_infos,
                                      (cusolver_int_t)c->n, (cusolver_int_t)c->nrhs, c->dA,
                                      (cusolver_int_t)c->ld, c->dB, (cusolver_int_t)c->ld, c->dX,
                                      (cusolver_int_t)c->ld, c->dwork, c->dwork_bytes, &it,
                                      c->dinfo));
    c->irs_iter = (int)it;
    return 0;
}

static void read_dinfo(void *p, int64_t *info)
{
    bench_read_dinfo(((job_ctx_t *)p)->dinfo, info);
}

/* One problem of order n on the device: A0 (kappa), B, and the buffers. */
static void problem_create(job_ctx_t *c, bench_context_t *ctx, int64_t n, int64_t nrhs,
                           double kappa, double *normA)
{
    memset(c, 0, sizeof *c);
    c->ctx = ctx;
    c->n = n;
    c->nrhs = nrhs;
    double *A = bench_malloc((size_t)(n * n) * 8);
    if (testing_generate_cond_spd('d', n, A, n, kappa, 71 + (uint64_t)n)) {
        fprintf(stderr, "bench_xposv: out of host memory at n = %lld\n", (long long)n);
        exit(1);
    }
    *normA = testing_norm_inf('d', 'L', n, A, n);
    double *B = bench_random_host('d', n, nrhs, n, 99, -1.0, 1.0);
    c->dA0 = bench_upload('d', n, n, A, n, &c->ld);
    int64_t ldb = 0;
    c->dB = bench_upload('d', n, nrhs, B, n, &ldb);
    c->dA = bench_device_malloc((size_t)(c->ld * n) * 8);
    c->dX = bench_device_malloc((size_t)(c->ld * nrhs) * 8);
    BENCH_CUDA(cudaMalloc((void **)&c->dinfo, 2 * sizeof(int))); /* potrf's, potrs's */
    free(A);
    free(B);
}

static void problem_destroy(job_ctx_t *c)
{
    BENCH_CUDA(cudaFree(c->dA0)); BENCH_CUDA(cudaFree(c->dA)); BENCH_CUDA(cudaFree(c->dB));
    BENCH_CUDA(cudaFree(c->dX)); BENCH_CUDA(cudaFree(c->dinfo));
    if (c->dwork) BENCH_CUDA(cudaFree(c->dwork));
    free(c->hwork);
}

/* Times a job; *berr its answer's backward error. A failed run prints as
 * NaN, not as a time. */
static double timed(job_ctx_t *c, const testing_job_t *j, int niter, double normA, double *berr)
{
    int64_t info = 0;
    double t = testing_time_job(j, c, c->ctx->stream, 0, niter, &info);
    if (!(t >= 0)) t = NAN;
    *berr = bench_solve_berr(c->ctx->cublas, 'L', c->n, c->nrhs, c->dA0, c->ld, c->dB, c->dX, normA);
    if (info != 0) *berr = NAN;
    return t;
}

/* The IRS solver's workspace for the lowest precision `low`. */
static void irs_setup(job_ctx_t *c, cusolverPrecType_t low)
{
    bench_cusolver_t *cs = &c->ctx->cusolver;
    BENCH_CUSOLVER(cusolverDnIRSParamsSetSolverPrecisions(c->irs, CUSOLVER_R_64F, low));
    BENCH_CUSOLVER(cusolverDnIRSParamsSetRefinementSolver(c->irs, CUSOLVER_IRS_REFINE_CLASSICAL));
    BENCH_CUSOLVER(cusolverDnIRSParamsEnableFallback(c->irs));
    size_t bytes = 0;
    BENCH_CUSOLVER(cusolverDnIRSXgesv_bufferSize(cs->handle, c->irs, (cusolver_int_t)c->n,
                                                 (cusolver_int_t)c->nrhs, &bytes));
    if (bytes > c->dwork_bytes) {
        if (c->dwork) BENCH_CUDA(cudaFree(c->dwork));
        c->dwork = bench_device_malloc(bytes);
        c->dwork_bytes = bytes;
    }
}

static void kappa_table(bench_context_t *ctx, int64_t n, int64_t nrhs, int niter, FILE *csv)
{
    printf("\nkappa table, n = %lld, nrhs %lld: the automatic ladder (FP16 then double), and "
           "with the FP32 rung between\n", (long long)n, (long long)nrhs);
    printf("%8s | %5s %5s %6s %6s %10s %9s | %5s %5s %10s %9s | %10s\n", "kappa", "rung", "iter",
           "inner", "syncs", "ms", "berr", "rung", "iter", "ms", "berr", "dposv ms");
    for (double kappa = 1e1; kappa <= 1e14 * 1.0001; kappa *= 10) {
        job_ctx_t c;
        double normA = 0, berr = NAN, berr32 = NAN, bd = NAN;
        problem_create(&c, ctx, n, nrhs, kappa, &normA);
        const testing_job_t j = { fresh_copy, run_xposv, NULL };
        const double t = timed(&c, &j, niter, normA, &berr);
        const gchol_xposv_result_t r0 = c.xres;
        gchol_test_hooks_t with_fp32 = g_hooks;
        with_fp32.xposv_auto_fp32 = 2;
        gchol_test_hooks_set(&with_fp32);
        const double t32 = timed(&c, &j, niter, normA, &berr32);
        gchol_test_hooks_set(&g_hooks);
        const testing_job_t j_d = { fresh_copy_and_x, run_dposv, NULL };
        const double td = timed(&c, &j_d, niter, normA, &bd);
        const int r = r0.prec >= 0 && r0.prec <= GCHOL_XPREC_FP64 ? r0.prec : 0;
        const int r32 = c.xres.prec >= 0 && c.xres.prec <= GCHOL_XPREC_FP64 ? c.xres.prec : 0;
        printf("%8.0e | %5s %5lld %6lld %6lld %10.3f %9.2e | %5s %5lld %10.3f %9.2e | %10.3f\n",
               kappa, prec_name[r], (long long)r0.iter, (long long)r0.inner,
               (long long)r0.host_syncs, 1e3 * t, berr, prec_name[r32], (long long)c.xres.iter,
               1e3 * t32, berr32, 1e3 * td);
        fflush(stdout);
        if (csv)
            fprintf(csv, "%lld,%lld,%.0e,%s,%lld,%lld,%lld,%.6e,%.3e,%s,%lld,%.6e,%.3e,%.6e\n",
                    (long long)n, (long long)nrhs, kappa, prec_name[r], (long long)r0.iter,
                    (long long)r0.inner, (long long)r0.host_syncs, t, berr, prec_name[r32],
                    (long long)c.xres.iter, t32, berr32, td);
        problem_destroy(&c);
    }
}

/* The FP16 factorization alone: S fresh from S0 per run. */
typedef struct {
    cudaStream_t stream;
    gchol_queue_t queue;
    int64_t n, lds;
    const float *S0;
    float *S;
    gchol_lowp_plan_t plan;
} lowp_ctx_t;

static void lowp_fresh(void *p)
{
    lowp_ctx_t *c = p;
    BENCH_CUDA(cudaMemcpyAsync(c->S, c->S0, (size_t)(c->lds * c->n) * 4, cudaMemcpyDeviceToDevice,
                               c->stream));
    BENCH_CUDA(cudaStreamSynchronize(c->stream));
}

static int64_t lowp_run(void *p, int64_t *info)
{
    lowp_ctx_t *c = p;
    return gchol_spotrf_lowp(c->n, c->S, c->lds, 0, &c->plan, info, c->queue);
}

/* cuBLAS's FP16 gemm, FP32 sums into FP32: C (n x n) -= P P^T, P n x k. */
static double fp16_gemm_tflops(int64_t n, int64_t k, int niter, cublasHandle_t h, cudaStream_t s)
{
    void *P = bench_device_malloc((size_t)(n * k) * 2);
    float *C = bench_device_malloc((size_t)(n * n) * 4);
    BENCH_CUDA(cudaMemset(P, 0x3c, (size_t)(n * k) * 2)); /* ~1.06 in FP16 */
    BENCH_CUDA(cudaMemset(C, 0, (size_t)(n * n) * 4));
    const float alpha = -1, beta = 1;
    double ms[16];
    cudaEvent_t e0, e1;
    BENCH_CUDA(cudaEventCreate(&e0));
    BENCH_CUDA(cudaEventCreate(&e1));
    if (niter > 15) niter = 15;
    for (int it = 0; it <= niter; it++) {
        BENCH_CUDA(cudaEventRecord(e0, s));
        BENCH_CUBLAS(cublasGemmEx_64(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, k, &alpha, P, CUDA_R_16F, n,
                                     P, CUDA_R_16F, n, &beta, C, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                                     CUBLAS_GEMM_DEFAULT));
        BENCH_CUDA(cudaEventRecord(e1, s));
        BENCH_CUDA(cudaEventSynchronize(e1));
        float t = 0;
        BENCH_CUDA(cudaEventElapsedTime(&t, e0, e1));
        ms[it] = t; /* ms[0] is the warm-up */
    }
    const double med = testing_median(ms + 1, niter);
    BENCH_CUDA(cudaEventDestroy(e0));
    BENCH_CUDA(cudaEventDestroy(e1));
    BENCH_CUDA(cudaFree(P));
    BENCH_CUDA(cudaFree(C));
    return 2.0 * (double)n * (double)n * (double)k / (med * 1e-3) / 1e12;
}

static void lowp_table(bench_context_t *ctx, int64_t n, int64_t nrhs, double kappa, int niter,
                       int64_t leaf, FILE *csv)
{
    static const int64_t nbs[] = { 512, 1024, 2048 };
    job_ctx_t c;
    double normA = 0;
    problem_create(&c, ctx, n, nrhs, kappa, &normA);
    lowp_ctx_t l = { ctx->stream, ctx->queue, n, (n + 31) / 32 * 32, NULL, NULL, { 0, NULL, 0, 0, 0 } };
    float *S0 = bench_device_malloc((size_t)(l.lds * n) * 4);
    double *d = bench_device_malloc((size_t)n * 8);
    int *flag = bench_device_malloc(sizeof(int));
    float *inv = bench_device_malloc((size_t)(2048 * n) * 4);
    l.S = bench_device_malloc((size_t)(l.lds * n) * 4);
    BENCH_CUDA(cudaMemset(S0, 0, (size_t)(l.lds * n) * 4));
    BENCH_CUDA(cudaMemset(flag, 0, sizeof(int)));
    BENCH_CUDA((cudaError_t)gchol_diag_inv_sqrt_launch(n, c.dA0, c.ld, d, flag, ctx->stream));
    BENCH_CUDA((cudaError_t)gchol_scale_lower_d2s_launch(n, c.dA0, c.ld, 0, d, S0, l.lds, flag,
                                                         ctx->stream));
    BENCH_CUDA(cudaStreamSynchronize(ctx->stream));
    l.S0 = S0;
    const double flops = (double)n * n * n / 3;
    printf("\nFP16 factorization, n = %lld, kappa %.0e, nrhs %lld (median of %d)\n", (long long)n,
           kappa, (long long)nrhs, niter);
    printf("form: the panel (trsm, or through the inverted diagonal block: inverse on TF32, "
           "inverse32 in single, inverse16 on FP16) and the solves (strsv, or gemv by the "
           "inverses); +la: with the lookahead, +la/hi: its chain on the high-priority stream, "
           "+pairs: its bulk two panels at a time; +split: the trailing updates split in halves "
           "down to squares of %lld\n",
           (long long)leaf);
    printf("%5s %16s | %9s %7s %10s | %9s %5s %4s %9s\n", "nb", "form", "factor ms", "TFLOP/s",
           "gemm TF/s", "xposv ms", "rung", "iter", "berr");
    /* each form: the panel (0 trsm panels, strsv solves; 1 trsm panels, inverses kept;
     * 2 .. 4 panels through the inverses on TF32, in single, on FP16), the lookahead (0
     * none, 1 its chain at the bulk's priority, 2 at high priority, 3 the bulk two panels
     * at a time), the split updates */
    static const char *const panel_name[5] = { "trsm/strsv", "trsm/inverse", "inverse",
                                               "inverse32", "inverse16" };
    static const char *const ahead_name[4] = { "", "+la", "+la/hi", "+pairs" };
    static const int forms[][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 },
                                    { 4, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 }, { 2, 1, 0 },
                                    { 3, 1, 0 }, { 4, 1, 0 }, { 2, 2, 0 }, { 4, 2, 0 },
                                    { 2, 1, 1 }, { 4, 1, 1 }, { 2, 3, 0 }, { 4, 3, 0 } };
    for (int b = 0; b < 3; b++) {
        const double gemm = fp16_gemm_tflops(n, nbs[b] < n ? nbs[b] : n, niter, ctx->cublas,
                                             ctx->stream);
        for (size_t fi = 0; fi < sizeof forms / sizeof forms[0]; fi++) {
            const int64_t nb = nbs[b] < n ? nbs[b] : n;
            const int f = forms[fi][0], ahead = forms[fi][1], split = forms[fi][2];
            char name[32];
            snprintf(name, sizeof name, "%s%s%s", panel_name[f], ahead_name[ahead],
                     split ? "+split" : "");
            const int panel = f >= 2 ? f : 1; /* the hook's: 1 trsm, 2 TF32, 3 single, 4 FP16 */
            l.plan.nb = nb;
            l.plan.inv = f > 0 ? inv : NULL;
            l.plan.panel_inverse = f >= 2 ? f - 1 : 0;
            l.plan.lookahead = ahead;
            l.plan.update_leaf = split ? leaf : 0;
            const testing_job_t jf = { lowp_fresh, lowp_run, NULL };
            int64_t info = 0;
            double tf = testing_time_job(&jf, &l, ctx->stream, 0, niter, &info);
            if (!(tf >= 0) || info != 0) tf = NAN; /* failed: no time */
            gchol_test_hooks_t hooks = g_hooks;
            hooks.lowp_nb = nb;
            hooks.lowp_panel = panel;
            hooks.lowp_keep_inverse = f > 0 ? 2 : 1;
            hooks.lowp_lookahead = ahead + 1;
            hooks.lowp_update_leaf = split ? leaf : -1;
            hooks.xposv_auto_lowp_from_n = -1; /* FP16 first at every order */
            gchol_test_hooks_set(&hooks);
            double berr = NAN;
            const testing_job_t jx = { fresh_copy, run_xposv, NULL };
            const double tx = timed(&c, &jx, niter, normA, &berr);
            gchol_test_hooks_set(&g_hooks);
            const int r = c.xres.prec >= 0 && c.xres.prec <= GCHOL_XPREC_FP64 ? c.xres.prec : 0;
            printf("%5lld %16s | %9.3f %7.1f %10.1f | %9.3f %5s %4lld %9.2e%s\n", (long long)nb,
                   name, 1e3 * tf, flops / tf / 1e12, gemm, 1e3 * tx,
                   prec_name[r], (long long)c.xres.iter, berr, info ? "  (factor info != 0)" : "");
            fflush(stdout);
            if (csv)
                fprintf(csv, "%lld,%.0e,%lld,%s,%.6e,%.2f,%.2f,%.6e,%s,%lld,%.3e\n", (long long)n,
                        kappa, (long long)nb, name, tf,
                        flops / tf / 1e12, gemm, tx, prec_name[r], (long long)c.xres.iter, berr);
        }
    }
    BENCH_CUDA(cudaFree(S0)); BENCH_CUDA(cudaFree(l.S)); BENCH_CUDA(cudaFree(d));
    BENCH_CUDA(cudaFree(flag)); BENCH_CUDA(cudaFree(inv));
    problem_destroy(&c);
}

int main(int argc, char **argv)
{
    testing_list_t sizes = { NULL, 0 };
    int64_t nrhs = 1, lowp_n = 0, lowp_leaf = 1024;
    testing_list_t kappa_sizes = { NULL, 0 };
    int niter = 5;
    double kappa = 1e2;
    int no_time_limit = 0, return_memory = 0, no_rows = 0;
    const char *csv = NULL, *kappa_csv = NULL, *lowp_csv = NULL;
    const opt_t opts[] = {
        OPT("-n", OPT_LIST, &sizes, "LIST", "orders (default 8192,16384,32768,40960)",
            .def = "8192,16384,32768,40960"),
        OPT("--nrhs", OPT_INT64, &nrhs, "K", "right-hand sides (default 1)", OPT_MIN(1)),
        OPT("--kappa", OPT_DOUBLE, &kappa, "K", "condition number of A (default 1e2)"),
        OPT("--niter", OPT_INT, &niter, "K", "timed runs after a warm-up, median reported "
            "(default 5)", OPT_MIN(1)),
        OPT("--csv", OPT_STRING, &csv, "FILE", "also write the table as CSV"),
        OPT("--no-rows", OPT_FLAG, &no_rows, NULL, "no comparison rows, the tables alone (--csv "
            "then takes the kappa table unless --kappa-csv does)"),
        OPT("--kappa-table", OPT_LIST, &kappa_sizes, "LIST", "the kappa table at these orders"),
        OPT("--lowp-table", OPT_INT64, &lowp_n, "N", "the FP16 factorization's block sizes and "
            "panel forms at order N (0: none)", OPT_MIN(0)),
        OPT("--lowp-leaf", OPT_INT64, &lowp_leaf, "L", "the lowp table's split updates: "
            "squares of at most L, by block columns (default 1024)", OPT_MIN(1)),
        OPT("--kappa-csv", OPT_STRING, &kappa_csv, "FILE", "also write the kappa table as CSV"),
        OPT("--lowp-csv", OPT_STRING, &lowp_csv, "FILE", "also write the lowp table as CSV"),
        OPT("--no-time-limit", OPT_FLAG, &no_time_limit, NULL, "the automatic ladder's rungs "
            "below double without their time limit (tune.h)"),
        OPT("--return-memory", OPT_FLAG, &return_memory, NULL, "gchol's queue returns its "
            "workspace at each synchronization (gchol_queue_keep_memory 0) rather than keeping it "
            "between solves, as the peers' callers keep theirs"),
        OPT_END
    };
    const opts_program_t prog = { "[-n LIST] [--nrhs K] [--kappa K] [--niter K] [--csv FILE] "
                                  "[--no-rows] [--kappa-table LIST [--kappa-csv FILE]] "
                                  "[--lowp-table N [--lowp-csv FILE] [--lowp-leaf L]] "
                                  "[--no-time-limit] [--return-memory]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    if (no_rows) {
        if (!kappa_csv) kappa_csv = csv;
        csv = NULL;
        sizes.count = 0;
    }
    g_hooks.xposv_auto_time = no_time_limit ? 1 : 0;
    gchol_test_hooks_set(&g_hooks);
    bench_require_gpu(0, argv[0]);
    bench_context_t ctx;
    bench_context_create(&ctx);
    BENCH_GCHOL(gchol_queue_keep_memory(ctx.queue, return_memory ? 0 : SIZE_MAX));
    FILE *out = bench_csv_open(csv, "n,nrhs,kappa,xposv_rung,xposv_iter,xposv_s,tf32_s,dposv_s,"
                               "cusolver_dposv_s,irs_fp16_s,irs_bf16_s,irs_tf32_s,berr_xposv,"
                               "berr_tf32,berr_dposv,berr_irs_fp16,berr_irs_bf16,berr_irs_tf32,"
                               "fp16_rung,fp16_iter,fp16_s,berr_fp16");
    printf("A X = B, double, A SPD with kappa %.0e (geometric spectrum), B uniform(-1,1), lower, "
           "nrhs %lld, median of %d\n", kappa, (long long)nrhs, niter);
    printf("ratio = cuSOLVER dpotrf+dpotrs time / the column's time; gchol's queue %s its "
           "workspace between solves\n", return_memory ? "returns" : "keeps");
    printf("auto: the automatic ladder; FP16: the FP16 rung asked for (the ladder above it "
           "answers a failure)\n");
    printf("%6s | %4s %4s %9s %6s | %4s %4s %9s %6s | %9s %6s | %9s %6s | %9s | %9s %9s %9s %6s | "
           "%8s\n", "n", "auto", "iter", "xposv ms", "ratio", "FP16", "iter", "xposv ms", "ratio",
           "TF32 ms", "ratio", "dposv ms", "ratio", "cuS dposv", "IRS fp16", "IRS bf16",
           "IRS tf32", "best", "berr");
    for (int64_t k = 0; k < sizes.count; k++) {
        job_ctx_t c;
        double normA = 0, bx = NAN, b16 = NAN, bt = NAN, bd = NAN, bc = NAN;
        double bi[3] = { NAN, NAN, NAN };
        problem_create(&c, &ctx, sizes.v[k], nrhs, kappa, &normA);
        const testing_job_t j_x = { fresh_copy, run_xposv, NULL };
        const testing_job_t j_16 = { fresh_copy, run_xposv_fp16, NULL };
        const testing_job_t j_t = { fresh_copy, run_tf32, NULL };
        const testing_job_t j_d = { fresh_copy_and_x, run_dposv, NULL };
        const testing_job_t j_c = { fresh_copy_and_x, run_cusolver, read_dinfo };
        const testing_job_t j_i = { fresh_copy, run_irs, read_dinfo };
        const double tx = timed(&c, &j_x, niter, normA, &bx);
        const double t16 = timed(&c, &j_16, niter, normA, &b16);
        const double tt = timed(&c, &j_t, niter, normA, &bt);
        const double td = timed(&c, &j_d, niter, normA, &bd);
        bench_cusolver_t *cs = &ctx.cusolver;
        BENCH_CUSOLVER(cusolverDnXpotrf_bufferSize(cs->handle, cs->params, CUBLAS_FILL_MODE_LOWER,
                                                   c.n, CUDA_R_64F, c.dA, c.ld, CUDA_R_64F,
                                                   &c.dwork_bytes, &c.hwork_bytes));
        c.dwork = bench_device_malloc(c.dwork_bytes > 0 ? c.dwork_bytes : 1);
        c.hwork = bench_malloc(c.hwork_bytes > 0 ? c.hwork_bytes : 1);
        const double tc = timed(&c, &j_c, niter, normA, &bc);
        double ti[3];
        const cusolverPrecType_t lows[3] = { CUSOLVER_R_16F, CUSOLVER_R_16BF, CUSOLVER_R_TF32 };
        BENCH_CUSOLVER(cusolverDnIRSParamsCreate(&c.irs));
        BENCH_CUSOLVER(cusolverDnIRSInfosCreate(&c.irs_infos));
        for (int l = 0; l < 3; l++) {
            irs_setup(&c, lows[l]);
            ti[l] = timed(&c, &j_i, niter, normA, &bi[l]);
        }
        BENCH_CUSOLVER(cusolverDnIRSInfosDestroy(c.irs_infos));
        BENCH_CUSOLVER(cusolverDnIRSParamsDestroy(c.irs));
        double best = ti[0];
        for (int l = 1; l < 3; l++) best = ti[l] < best ? ti[l] : best;
        const int r = c.xres.prec >= 0 && c.xres.prec <= GCHOL_XPREC_FP64 ? c.xres.prec : 0;
        const int r16 = c.xres16.prec >= 0 && c.xres16.prec <= GCHOL_XPREC_FP64 ? c.xres16.prec : 0;
        double worst = bx;
        const double others[] = { b16, bt, bd, bc, bi[0], bi[1], bi[2] };
        for (int l = 0; l < 7; l++) worst = isnan(others[l]) || others[l] > worst ? others[l] : worst;
        printf("%6lld | %4s %4lld %9.3f %6.2f | %4s %4lld %9.3f %6.2f | %9.3f %6.2f | %9.3f %6.2f | "
               "%9.3f | %9.3f %9.3f %9.3f %6.2f | %8.2e\n",
               (long long)c.n, prec_name[r], (long long)c.xres.iter, 1e3 * tx, tc / tx,
               prec_name[r16], (long long)c.xres16.iter, 1e3 * t16, tc / t16, 1e3 * tt, tc / tt,
               1e3 * td, tc / td, 1e3 * tc, 1e3 * ti[0], 1e3 * ti[1], 1e3 * ti[2], best / tx,
               worst);
        fflush(stdout);
        if (out)
            fprintf(out, "%lld,%lld,%.3e,%s,%lld,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%.3e,%.3e,%.3e,"
                         "%.3e,%.3e,%.3e,%s,%lld,%.6e,%.3e\n",
                    (long long)c.n, (long long)nrhs, kappa, prec_name[r], (long long)c.xres.iter,
                    tx, tt, td, tc, ti[0], ti[1], ti[2], bx, bt, bd, bi[0], bi[1], bi[2],
                    prec_name[r16], (long long)c.xres16.iter, t16, b16);
        problem_destroy(&c);
    }
    if (kappa_sizes.count > 0) {
        FILE *kc = bench_csv_open(kappa_csv, "n,nrhs,kappa,rung,iter,inner,syncs,xposv_s,berr,"
                                  "rung_fp32,iter_fp32,xposv_fp32_s,berr_fp32,dposv_s");
        for (int64_t k = 0; k < kappa_sizes.count; k++)
            kappa_table(&ctx, kappa_sizes.v[k], nrhs, niter, kc);
        if (kc) fclose(kc);
    }
    if (lowp_n > 0) {
        FILE *lc = bench_csv_open(lowp_csv, "n,kappa,nb,form,factor_s,factor_tflops,gemm_tflops,"
                                  "xposv_s,rung,iter,berr");
        lowp_table(&ctx, lowp_n, nrhs, kappa, niter, lowp_leaf, lc);
        if (lc) fclose(lc);
    }
    if (out) fclose(out);
    bench_context_destroy(&ctx);
    opts_free_list(&sizes);
    opts_free_list(&kappa_sizes);
    return 0;
}
