/*
 * bench_potrf_batched.c -- batched Cholesky (gchol_batched.h) against
 * cuSOLVER's potrfBatched / potrsBatched and the GPU's copy bandwidth, one
 * precision at a time:
 *   gchol     gchol_?potrf_strided_batched_gpu, and the pointer form
 *   cuSOLVER  cusolverDn?potrfBatched (an array of pointers, int info)
 *   copy      cudaMemcpyAsync of the batch's bytes (device to device): the
 *             bandwidth a kernel that reads each matrix once and writes it
 *             once can reach
 *   solves    gchol_?potrs_strided_batched_gpu with nrhs 1 and 16 against
 *             cuSOLVER's potrsBatched (nrhs 1 only: 16 calls for 16)
 * Per order n: batch sized so that the matrices take about --bytes (2 GB),
 * and a batch of --small (100). The same SPD matrices for everyone (one
 * generated per 1024 and repeated), a fresh device copy per run made outside
 * the timed region, a warm-up, the median of --niter runs (CUDA events;
 * --small-niter for the small batch, whose run of about 10 us varies by 20%
 * from one launch to the next); every info checked (gchol's and cuSOLVER's),
 * gchol's factors checked by LAPACK's residual on 16 matrices spread over
 * the batch, and the two solves' answers compared (ok; INFO: an info not 0;
 * RESID: a residual past 30; SOLVE: the solutions differ by more than 1e-8,
 * single 1e-2, relative); any row not ok makes the exit status 1. GB/s
 * counts each matrix read once and written once (2 n^2 elements), %copy
 * against the copy of the same bytes; GFLOP/s n^3/3 + n^2/2 + n/6 per matrix
 * (flops.h).
 *
 * --kernel blocked|panel|rows|mma|mma1|mma2 runs gchol's potrf on that kernel past
 * n = 32 whatever the tuning picks (a test hook; rows from n = 17 to 64, then
 * panel; mma the tiled left-looking kernel to 512, mma1 the same with one
 * chunk buffer, mma2 with two wherever they fit; cublas block columns of
 * --cublas-nb (default the tuning's, at most 32) on cuBLAS's batched
 * products past that width; warp a warp per matrix from 33 to 256, then
 * panel; tiles the tiles kernel where its tiles fit in shared memory; dmma
 * the FP64 tensor cores' warp kernel from 33 to 512; live the live tiles
 * kernel to 256; replica the replica kernel to 64; panels the panels kernel
 * from 17 to 32; --cublas-fused 1|2 their panel step in one launch or two;
 * --cublas-tail N their last columns, at most N (-1: none), on the live
 * tiles kernel), to
 * compare them in one process; --dmma-blocks K that kernel at K blocks
 * of four warps an SM; --warp-max N the warp kernel up
 * to order N; --cublas-work B caps the block columns' workspace (larger
 * batches by chunks); --potrs staged|direct the solves' blocked form past
 * n = 32 (L's panels staged in shared memory, or read where used).
 *
 *   bench_potrf_batched [--prec d|s] [-n LIST] [--bytes B] [--small K] [--niter K]
 *                       [--small-niter K]
 *                       [--kernel auto|blocked|panel|rows|mma|mma1|mma2|cublas|warp|tiles|dmma|live|replica|panels]
 *                       [--cublas-nb K] [--cublas-work B] [--cublas-fused K]
 *                       [--cublas-tail N] [--warp-max N] [--dmma-blocks K] [--potrs auto|staged|direct] [--csv FILE]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "gchol_batched.h"
#include "../src/test_hooks.h"

typedef struct {
    bench_context_t *ctx;
    char     prec;
    int64_t  n, batch, ld, stride, nrhs;
    void    *dA0, *dA, *dB0, *dB, **dptr, **dbptr;
    int64_t *dinfo;
    int     *dinfo32;
    size_t   es;
} job_t;

static void fresh(void *p)
{
    job_t *c = p;
    BENCH_CUDA(cudaMemcpyAsync(c->dA, c->dA0, (size_t)(c->stride * c->batch) * c->es,
                               cudaMemcpyDeviceToDevice, c->ctx->stream));
    if (c->dB)
        BENCH_CUDA(cudaMemcpyAsync(c->dB, c->dB0, (size_t)(c->ld * c->nrhs * c->batch) * c->es,
                                   cudaMemcpyDeviceToDevice, c->ctx->stream));
    BENCH_CUDA(cudaStreamSynchronize(c->ctx->stream));
}

static int64_t run_gchol(void *p, int64_t *info)
{
    job_t *c = p;
    (void)info;
    return c->prec == 'd'
        ? gchol_dpotrf_strided_batched_gpu('L', c->n, c->dA, c->ld, c->stride, c->dinfo, c->batch,
                                           c->ctx->queue)
        : gchol_spotrf_strided_batched_gpu('L', c->n, c->dA, c->ld, c->stride, c->dinfo, c->batch,
                                           c->ctx->queue);
}

static int64_t run_gchol_ptr(void *p, int64_t *info)
{
    job_t *c = p;
    (void)info;
    return c->prec == 'd'
        ? gchol_dpotrf_batched_gpu('L', c->n, (double *const *)c->dptr, c->ld, c->dinfo, c->batch,
                                   c->ctx->queue)
        : gchol_spotrf_batched_gpu('L', c->n, (float *const *)c->dptr, c->ld, c->dinfo, c->batch,
                                   c->ctx->queue);
}

static int64_t run_cusolver(void *p, int64_t *info)
{
    job_t *c = p;
    (void)info;
    cusolverDnHandle_t h = c->ctx->cusolver.handle;
    if (c->prec == 'd')
        BENCH_CUSOLVER(cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, (int)c->n,
                                               (double **)c->dptr, (int)c->ld, c->dinfo32,
                                               (int)c->batch));
    else
        BENCH_CUSOLVER(cusolverDnSpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, (int)c->n,
                                               (float **)c->dptr, (int)c->ld, c->dinfo32,
                                               (int)c->batch));
    return 0;
}

static int64_t run_copy(void *p, int64_t *info)
{
    job_t *c = p;
    (void)info;
    BENCH_CUDA(cudaMemcpyAsync(c->dA, c->dA0, (size_t)(c->n * c->n * c->batch) * c->es,
                               cudaMemcpyDeviceToDevice, c->ctx->stream));
    return 0;
}

static int64_t run_gchol_potrs(void *p, int64_t *info)
{
    job_t *c = p;
    (void)info;
    return c->prec == 'd'
        ? gchol_dpotrs_strided_batched_gpu('L', c->n, c->nrhs, c->dA, c->ld, c->stride, c->dB, c->ld,
                                           c->ld * c->nrhs, c->batch, c->ctx->queue)
        : gchol_spotrs_strided_batched_gpu('L', c->n, c->nrhs, c->dA, c->ld, c->stride, c->dB, c->ld,
                                           c->ld * c->nrhs, c->batch, c->ctx->queue);
}

/* cuSOLVER's potrsBatched takes one right-hand side: nrhs calls. */
static int64_t run_cusolver_potrs(void *p, int64_t *info)
{
    job_t *c = p;
    (void)info;
    cusolverDnHandle_t h = c->ctx->cusolver.handle;
    for (int64_t r = 0; r < c->nrhs; ++r) {
        void **bp = c->dbptr + r * c->batch;
        if (c->prec == 'd')
            BENCH_CUSOLVER(cusolverDnDpotrsBatched(h, CUBLAS_FILL_MODE_LOWER, (int)c->n, 1,
                                                   (double **)c->dptr, (int)c->ld, (double **)bp,
                                                   (int)c->ld, c->dinfo32, (int)c->batch));
        else
            BENCH_CUSOLVER(cusolverDnSpotrsBatched(h, CUBLAS_FILL_MODE_LOWER, (int)c->n, 1,
                                                   (float **)c->dptr, (int)c->ld, (float **)bp,
                                                   (int)c->ld, c->dinfo32, (int)c->batch));
    }
    return 0;
}

/* The median time of run; a failed run ends the benchmark. The info words
 * are poisoned first, so that a contender that never ran cannot pass. */
static double timed(job_t *c, int64_t (*run)(void *, int64_t *), int niter, const char *what)
{
    const testing_job_t j = { fresh, run, NULL };
    int64_t info = 0;
    BENCH_CUDA(cudaMemset(c->dinfo, 0xff, (size_t)c->batch * sizeof(int64_t)));
    BENCH_CUDA(cudaMemset(c->dinfo32, 0xff, (size_t)c->batch * sizeof(int)));
    const double t = testing_time_job(&j, c, c->ctx->stream, 0, niter, &info);
    BENCH_CUDA(cudaGetLastError());
    if (!(t >= 0)) {
        fprintf(stderr, "bench_potrf_batched: %s at n = %lld, batch %lld failed (%lld)\n", what,
                (long long)c->n, (long long)c->batch, (long long)info);
        exit(1);
    }
    return t;
}

/* max |Y - X| / max |X| over count elements (device; Y overwritten by Y - X),
 * by cuBLAS on the benchmark's stream. */
static double rel_diff(job_t *c, void *dY, const void *dX, int64_t count)
{
    cublasHandle_t h = c->ctx->cublas;
    int64_t ix = 0, iy = 0;
    double x = 0, y = 0;
    if (c->prec == 'd') {
        const double m1 = -1;
        BENCH_CUBLAS(cublasDaxpy_64(h, count, &m1, dX, 1, dY, 1));
        BENCH_CUBLAS(cublasIdamax_64(h, count, dX, 1, &ix));
        BENCH_CUBLAS(cublasIdamax_64(h, count, dY, 1, &iy));
        BENCH_CUDA(cudaMemcpy(&x, (const double *)dX + ix - 1, 8, cudaMemcpyDeviceToHost));
        BENCH_CUDA(cudaMemcpy(&y, (const double *)dY + iy - 1, 8, cudaMemcpyDeviceToHost));
    } else {
        const float m1 = -1;
        float xs = 0, ys = 0;
        BENCH_CUBLAS(cublasSaxpy_64(h, count, &m1, dX, 1, dY, 1));
        BENCH_CUBLAS(cublasIsamax_64(h, count, dX, 1, &ix));
        BENCH_CUBLAS(cublasIsamax_64(h, count, dY, 1, &iy));
        BENCH_CUDA(cudaMemcpy(&xs, (const float *)dX + ix - 1, 4, cudaMemcpyDeviceToHost));
        BENCH_CUDA(cudaMemcpy(&ys, (const float *)dY + iy - 1, 4, cudaMemcpyDeviceToHost));
        x = xs;
        y = ys;
    }
    return fabs(y) / fabs(x);
}

/* The batch's infos all 0 (gchol's int64, cuSOLVER's int). */
static int infos_zero(const job_t *c, int cusolver)
{
    const size_t es = cusolver ? sizeof(int) : sizeof(int64_t);
    char *h = bench_malloc((size_t)c->batch * es);
    BENCH_CUDA(cudaMemcpy(h, cusolver ? (void *)c->dinfo32 : (void *)c->dinfo,
                          (size_t)c->batch * es, cudaMemcpyDeviceToHost));
    int ok = 1;
    for (int64_t b = 0; b < c->batch && ok; ++b)
        ok = cusolver ? ((int *)h)[b] == 0 : ((int64_t *)h)[b] == 0;
    free(h);
    return ok;
}

/* LAPACK's factor residual ||A - L L^T||_1 / (n ||A||_1 eps), the largest
 * over kChecked matrices spread over the batch (the first and the last
 * among them): gchol's factors in c->dA against the pristine matrices in
 * h (matrix b is h's b % distinct). */
enum { kChecked = 16 };
static double factor_resid(const job_t *c, const void *h, int64_t distinct)
{
    const size_t mbytes = (size_t)(c->n * c->n) * c->es;
    void *L = bench_malloc(mbytes ? mbytes : 1);
    double worst = 0;
    const int64_t picks = c->batch < kChecked ? c->batch : kChecked;
    for (int64_t k = 0; k < picks; ++k) {
        const int64_t b = picks > 1 ? k * (c->batch - 1) / (picks - 1) : 0;
        BENCH_CUDA(cudaMemcpy(L, (const char *)c->dA + (size_t)(b * c->stride) * c->es, mbytes,
                              cudaMemcpyDeviceToHost));
        const double r = testing_residual_cpu(c->prec, 'L', c->n,
                                              (const char *)h + (size_t)(b % distinct * c->stride) * c->es,
                                              c->n, L, c->n);
        if (!(r <= worst)) worst = r; /* NaN sticks */
    }
    free(L);
    return worst;
}

static int g_failed; /* a row that did not end in ok: the exit status is 1 */

static void bench_one(bench_context_t *ctx, char prec, int64_t n, int64_t batch, int niter,
                      double copy_gbs_ref, FILE *csv)
{
    job_t c = { ctx, prec, n, batch, n, n * n, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                testing_elsize(prec) };
    const size_t bytes = (size_t)(c.stride * batch) * c.es;
    /* 1024 distinct SPD matrices, repeated */
    const int64_t distinct = batch < 1024 ? batch : 1024;
    void *h = bench_malloc((size_t)(c.stride * distinct) * c.es);
    for (int64_t b = 0; b < distinct; ++b)
        testing_generate_spd(prec, 'A', n, (char *)h + (size_t)(b * c.stride) * c.es, n,
                             11 + (uint64_t)b);
    c.dA0 = bench_device_malloc(bytes);
    c.dA = bench_device_malloc(bytes);
    for (int64_t b0 = 0; b0 < batch; b0 += distinct) {
        const int64_t k = batch - b0 < distinct ? batch - b0 : distinct;
        BENCH_CUDA(cudaMemcpy((char *)c.dA0 + (size_t)(b0 * c.stride) * c.es, h,
                              (size_t)(k * c.stride) * c.es, cudaMemcpyHostToDevice));
    }
    void **hp = bench_malloc((size_t)batch * sizeof(void *));
    for (int64_t b = 0; b < batch; ++b) hp[b] = (char *)c.dA + (size_t)(b * c.stride) * c.es;
    c.dptr = bench_device_malloc((size_t)batch * sizeof(void *));
    BENCH_CUDA(cudaMemcpy(c.dptr, hp, (size_t)batch * sizeof(void *), cudaMemcpyHostToDevice));
    c.dinfo = bench_device_malloc((size_t)batch * sizeof(int64_t));
    c.dinfo32 = bench_device_malloc((size_t)batch * sizeof(int));

    const double tg = timed(&c, run_gchol, niter, "gchol strided");
    const int ok_g = infos_zero(&c, 0);
    const double tp = timed(&c, run_gchol_ptr, niter, "gchol pointers");
    const int ok_p = infos_zero(&c, 0);
    const double tc = timed(&c, run_cusolver, niter, "cuSOLVER potrfBatched");
    const int ok_c = infos_zero(&c, 1);
    const double tcopy = timed(&c, run_copy, niter, "copy");

    /* the solves on gchol's factors: nrhs 1 and 16 */
    double ts[2], tcs[2];
    const int64_t nrhss[2] = { 1, 16 };
    const double solve_tol = prec == 'd' ? 1e-8 : 1e-2; /* one factor, two solves' roundings */
    int solve_ok = 1;
    fresh(&c); /* the factors the solves take: gchol's, checked first */
    BENCH_GCHOL(run_gchol(&c, NULL));
    BENCH_CUDA(cudaStreamSynchronize(ctx->stream));
    const double resid = factor_resid(&c, h, distinct);
    const int resid_ok = resid <= TESTING_TOL;
    free(h);
    BENCH_CUDA(cudaMemcpy(c.dA0, c.dA, bytes, cudaMemcpyDeviceToDevice));
    for (int r = 0; r < 2; ++r) {
        c.nrhs = nrhss[r];
        const size_t bbytes = (size_t)(c.ld * c.nrhs * batch) * c.es;
        void *hb = bench_random_host(prec, n, c.nrhs * (batch < 1024 ? batch : 1024), n, 5, -1, 1);
        c.dB0 = bench_device_malloc(bbytes);
        c.dB = bench_device_malloc(bbytes);
        const int64_t per = c.ld * c.nrhs, dist = batch < 1024 ? batch : 1024;
        for (int64_t b0 = 0; b0 < batch; b0 += dist) {
            const int64_t k = batch - b0 < dist ? batch - b0 : dist;
            BENCH_CUDA(cudaMemcpy((char *)c.dB0 + (size_t)(b0 * per) * c.es, hb,
                                  (size_t)(k * per) * c.es, cudaMemcpyHostToDevice));
        }
        free(hb);
        /* cuSOLVER: right-hand side r of system b at its column r */
        void **hbp = bench_malloc((size_t)(batch * c.nrhs) * sizeof(void *));
        for (int64_t rr = 0; rr < c.nrhs; ++rr)
            for (int64_t b = 0; b < batch; ++b)
                hbp[rr * batch + b] = (char *)c.dB + (size_t)(b * per + rr * c.ld) * c.es;
        c.dbptr = bench_device_malloc((size_t)(batch * c.nrhs) * sizeof(void *));
        BENCH_CUDA(cudaMemcpy(c.dbptr, hbp, (size_t)(batch * c.nrhs) * sizeof(void *),
                              cudaMemcpyHostToDevice));
        free(hbp);
        ts[r] = timed(&c, run_gchol_potrs, niter, "gchol potrs");
        void *dXg = bench_device_malloc(bbytes); /* gchol's solutions, against cuSOLVER's */
        BENCH_CUDA(cudaMemcpy(dXg, c.dB, bbytes, cudaMemcpyDeviceToDevice));
        tcs[r] = timed(&c, run_cusolver_potrs, niter, "cuSOLVER potrsBatched");
        BENCH_CUDA(cudaStreamSynchronize(ctx->stream));
        solve_ok = solve_ok && rel_diff(&c, dXg, c.dB, c.ld * c.nrhs * batch) <= solve_tol;
        BENCH_CUDA(cudaFree(dXg));
        BENCH_CUDA(cudaFree(c.dB0)); BENCH_CUDA(cudaFree(c.dB)); BENCH_CUDA(cudaFree(c.dbptr));
        c.dB0 = c.dB = NULL;
        c.dbptr = NULL;
    }
    c.nrhs = 1;

    const double moved = 2.0 * (double)(n * n * batch) * (double)c.es; /* read + write */
    const double flops = (double)batch * testing_flops_potrf(n);
    const double gbs = moved / tg / 1e9, copy_gbs = moved / tcopy / 1e9;
    printf("%5lld %9lld | %9.3f %8.1f %8.1f %5.0f%% | %9.3f | %9.3f %6.2f | %9.3f %7.2f %s | "
           "%8.3f %8.3f %6.2f | %8.3f %8.3f %6.2f\n",
           (long long)n, (long long)batch, 1e3 * tg, flops / tg / 1e9, gbs,
           100 * gbs / (copy_gbs_ref > 0 ? copy_gbs_ref : copy_gbs), 1e3 * tp, 1e3 * tc, tc / tg,
           1e3 * tcopy, copy_gbs,
           !(ok_g && ok_p && ok_c) ? "INFO" : !resid_ok ? "RESID" : solve_ok ? "ok" : "SOLVE",
           1e3 * ts[0], 1e3 * tcs[0], tcs[0] / ts[0], 1e3 * ts[1], 1e3 * tcs[1], tcs[1] / ts[1]);
    fflush(stdout);
    if (csv)
        fprintf(csv, "%c,%lld,%lld,%.6e,%.6e,%.6e,%.6e,%.2f,%.2f,%.6e,%.6e,%.6e,%.6e,%d\n", prec,
                (long long)n, (long long)batch, tg, tp, tc, tcopy, gbs, copy_gbs, ts[0], tcs[0],
                ts[1], tcs[1], ok_g && ok_p && ok_c && solve_ok && resid_ok);
    if (!(ok_g && ok_p && ok_c && solve_ok && resid_ok)) g_failed = 1;
    BENCH_CUDA(cudaFree(c.dA0)); BENCH_CUDA(cudaFree(c.dA)); BENCH_CUDA(cudaFree(c.dptr));
    BENCH_CUDA(cudaFree(c.dinfo)); BENCH_CUDA(cudaFree(c.dinfo32));
    free(hp);
}

int main(int argc, char **argv)
{
    testing_list_t sizes = { NULL, 0 };
    char prec = 'd';
    int64_t total = (int64_t)2 << 30, small = 100, cublas_nb = 0, cublas_work = 0,
            cublas_tail = 0;
    int warp_max = 0, dmma_blocks = 0, cublas_fused = 0;
    int niter = 5, small_niter = 51;
    const char *csv = NULL, *kernel = "auto", *potrs = "auto";
    const opt_t opts[] = {
        OPT("--prec", OPT_CHAR, &prec, "d|s", "precision (default d)", .choices = "ds"),
        OPT("--kernel", OPT_STRING, &kernel, "auto|blocked|panel|rows|mma|mma1|mma2|cublas|warp|tiles|dmma|live|replica|panels",
            "potrf's kernel past n = 32 (rows: past 16; cublas: past --cublas-nb; default "
            "auto: the tuning's)"),
        OPT("--cublas-nb", OPT_INT64, &cublas_nb, "K", "--kernel cublas's block columns, "
            "at most 32 (default 0: the tuning's)", OPT_MIN(0)),
        OPT("--cublas-work", OPT_INT64, &cublas_work, "B", "the cuBLAS block columns' "
            "workspace, bytes at most (larger batches by chunks; default 0: the library's)",
            OPT_MIN(0)),
        OPT("--cublas-fused", OPT_INT, &cublas_fused, "K", "the cuBLAS block columns' panel "
            "step: 1 in one launch, 2 in two (default 0: the tuning's)", OPT_MIN(0)),
        OPT("--cublas-tail", OPT_INT64, &cublas_tail, "N", "the cuBLAS block columns' last "
            "columns, at most N, on the live tiles kernel (-1: none; default 0: the tuning's)"),
        OPT("--dmma-blocks", OPT_INT, &dmma_blocks, "K", "the FP64 tensor cores' warp kernel "
            "at K blocks an SM (3 or 4; default the tuning's)", OPT_MIN(0)),
        OPT("--warp-max", OPT_INT, &warp_max, "N", "the warp kernel up to order N (<= 256; "
            "default 0: the tuning's)", OPT_MIN(0)),
        OPT("--potrs", OPT_STRING, &potrs, "auto|staged|direct",
            "the solves' blocked form (default auto: the tuning's)"),
        OPT("-n", OPT_LIST, &sizes, "LIST", "orders (default 4,8,16,32,64,128,256,512)",
            .def = "4,8,16,32,64,128,256,512"),
        OPT("--bytes", OPT_INT64, &total, "B", "the large batch's matrix bytes (default 2^31)",
            OPT_MIN(1)),
        OPT("--small", OPT_INT64, &small, "K", "the small batch (default 100; 0: none)", OPT_MIN(0)),
        OPT("--niter", OPT_INT, &niter, "K", "timed runs after a warm-up, median reported "
            "(default 5)", OPT_MIN(1)),
        OPT("--small-niter", OPT_INT, &small_niter, "K", "the same for the small batch "
            "(default 51)", OPT_MIN(1)),
        OPT("--csv", OPT_STRING, &csv, "FILE", "also write the table as CSV"),
        OPT_END
    };
    const opts_program_t prog = { "[--prec d|s] [-n LIST] [--bytes B] [--small K] [--niter K] "
                                  "[--small-niter K] [--kernel auto|blocked|panel|rows|mma|mma1|mma2|cublas|warp|tiles|dmma|live|replica|panels] "
                                  "[--cublas-nb K] [--cublas-work B] [--cublas-fused K] "
                                  "[--cublas-tail N] [--warp-max N] "
                                  "[--dmma-blocks K] "
                                  "[--potrs auto|staged|direct] [--csv FILE]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    const int forced = !strcmp(kernel, "blocked") ? 1 : !strcmp(kernel, "panel") ? 2
                     : !strcmp(kernel, "rows") ? 3 : !strcmp(kernel, "mma") ? 4
                     : !strcmp(kernel, "mma1") ? 5 : !strcmp(kernel, "mma2") ? 6
                     : !strcmp(kernel, "cublas") ? 7 : !strcmp(kernel, "warp") ? 8
                     : !strcmp(kernel, "tiles") ? 9 : !strcmp(kernel, "dmma") ? 10
                     : !strcmp(kernel, "live") ? 11 : !strcmp(kernel, "replica") ? 12
                     : !strcmp(kernel, "panels") ? 13 : 0;
    if (!forced && strcmp(kernel, "auto")) {
        fprintf(stderr, "--kernel: auto, blocked, panel, rows, mma, mma1, mma2, cublas, warp, tiles, dmma, live, "
                "replica or panels, not '%s'\n", kernel);
        return 2;
    }
    const int potrs_form = !strcmp(potrs, "staged") ? 1 : !strcmp(potrs, "direct") ? 2 : 0;
    if (!potrs_form && strcmp(potrs, "auto")) {
        fprintf(stderr, "--potrs: auto, staged or direct, not '%s'\n", potrs);
        return 2;
    }
    bench_require_gpu(0, argv[0]);
    const gchol_test_hooks_t hooks = { .batched_kernel = forced, .batched_potrs_kernel = potrs_form,
                                       .batched_cublas_nb = cublas_nb,
                                       .batched_cublas_work_bytes = cublas_work,
                                       .batched_cublas_fused = cublas_fused,
                                       .batched_cublas_tail = cublas_tail,
                                       .batched_warp_max_n = warp_max,
                                       .batched_dmma_blocks = dmma_blocks };
    if (forced || potrs_form || cublas_nb || cublas_work || cublas_fused || cublas_tail ||
        warp_max || dmma_blocks)
        gchol_test_hooks_set(&hooks);
    bench_context_t ctx;
    bench_context_create(&ctx);
    FILE *out = bench_csv_open(csv, "prec,n,batch,gchol_s,gchol_ptr_s,cusolver_s,copy_s,gchol_gbs,"
                               "copy_gbs,potrs1_s,cusolver_potrs1_s,potrs16_s,cusolver_potrs16_s,"
                               "info_ok");
    printf("batched Cholesky, %s, lower, SPD (testing_generate_spd), median of %d (small batch "
           "%d); kernel past n = 32: %s; solves: %s\n", prec == 'd' ? "double" : "single", niter,
           small_niter, kernel, potrs);
    printf("GB/s: 2 n^2 elements per matrix (read, write); %%copy: of the same bytes' "
           "device-to-device copy rate\n");
    printf("%5s %9s | %9s %8s %8s %6s | %9s | %9s %6s | %9s %7s %4s | %8s %8s %6s | %8s %8s %6s\n",
           "n", "batch", "gchol ms", "GFLOP/s", "GB/s", "%copy", "ptrs ms", "cuS ms", "ratio",
           "copy ms", "GB/s", "info", "rs1 ms", "cuS1 ms", "ratio", "rs16 ms", "cuS16 ms",
           "ratio");
    for (int64_t k = 0; k < sizes.count; k++) {
        const int64_t n = sizes.v[k];
        const size_t per = (size_t)(n * n) * testing_elsize(prec);
        int64_t big = (int64_t)((size_t)total / per);
        if (big > 0x7fffffff / 16) big = 0x7fffffff / 16; /* cuSOLVER's int batch and pointers */
        if (big < 1) big = 1;
        bench_one(&ctx, prec, n, big, niter, 0, out);
        if (small > 0) bench_one(&ctx, prec, n, small, small_niter, 0, out);
    }
    if (out) fclose(out);
    bench_context_destroy(&ctx);
    opts_free_list(&sizes);
    return g_failed;
}
