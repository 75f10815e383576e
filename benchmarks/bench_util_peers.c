/*
 * bench_util_peers.c -- the contenders every benchmark times in the same process
 * (bench_util.h): cusolverDnXpotrf, gchol's potrf through its device and host
 * interfaces, OpenBLAS's LAPACKE_?potrf, and the cuBLAS GEMM rate; the shared
 * context (queue, stream, cuSOLVER, cuBLAS) and the spin-up to boost clock.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

/* OpenBLAS extensions (declared here so that no particular cblas.h is needed). */
char *openblas_get_corename(void);
int   openblas_get_num_threads(void);

static cublasFillMode_t fill_mode(char uplo)
{
    return (uplo == 'L' || uplo == 'l') ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
}

/* ===========================================================================
 * cuSOLVER
 * ========================================================================= */

void bench_cusolver_create(bench_cusolver_t *cs, cudaStream_t stream)
{
    memset(cs, 0, sizeof(*cs));
    cs->stream = stream;
    BENCH_CUSOLVER(cusolverDnCreate(&cs->handle));
    BENCH_CUSOLVER(cusolverDnSetStream(cs->handle, stream));
    BENCH_CUSOLVER(cusolverDnCreateParams(&cs->params));
    BENCH_CUDA(cudaMalloc((void **) &cs->dinfo, sizeof(int)));
}

void bench_cusolver_destroy(bench_cusolver_t *cs)
{
    BENCH_CUDA(cudaFree(cs->dwork));
    BENCH_CUDA(cudaFree(cs->dinfo));
    free(cs->hwork);
    BENCH_CUSOLVER(cusolverDnDestroyParams(cs->params));
    BENCH_CUSOLVER(cusolverDnDestroy(cs->handle));
    memset(cs, 0, sizeof(*cs));
}

/* The cuSOLVER job: a fresh copy of dA0, the timed call, its info word. */
typedef struct {
    bench_cusolver_t *cs;
    char prec;
    int64_t n;
    const void *dA0;
    void *dA;
    int64_t ldda;
    cudaDataType type;
    cublasFillMode_t fill;
} cusolver_run_t;

static void cusolver_prepare(void *ctx)
{
    const cusolver_run_t *r = ctx;
    bench_device_copy(r->prec, r->n, r->n, r->dA0, r->ldda, r->dA, r->ldda, r->cs->stream);
}

static int64_t cusolver_run(void *ctx, int64_t *info)
{
    const cusolver_run_t *r = ctx;
    bench_cusolver_t *cs = r->cs;
    (void) info;
    BENCH_CUSOLVER(cusolverDnXpotrf(cs->handle, cs->params, r->fill, r->n, r->type, r->dA, r->ldda,
                                    r->type, cs->dwork, cs->dwork_bytes, cs->hwork,
                                    cs->hwork_bytes, cs->dinfo));
    return 0;
}

static void cusolver_finish(void *ctx, int64_t *info)
{
    const cusolver_run_t *r = ctx;
    int run_info = 0;
    BENCH_CUDA(cudaMemcpy(&run_info, r->cs->dinfo, sizeof(int), cudaMemcpyDeviceToHost));
    *info = run_info;
}

/* Warm-up + niter runs of cusolverDnXpotrf, each on a fresh copy of dA0. */
double bench_cusolver_potrf(bench_cusolver_t *cs, char prec, char uplo, int64_t n,
                            const void *dA0, void *dA, int64_t ldda, int niter, int *info)
{
    const cudaDataType type = bench_cuda_type(prec);
    const cublasFillMode_t fill = fill_mode(uplo);
    size_t dbytes = 0, hbytes = 0;
    BENCH_CUSOLVER(cusolverDnXpotrf_bufferSize(cs->handle, cs->params, fill, n, type, dA, ldda,
                                               type, &dbytes, &hbytes));
    if (dbytes > cs->dwork_bytes) {
        BENCH_CUDA(cudaFree(cs->dwork));
        cs->dwork = bench_device_malloc(dbytes);
        cs->dwork_bytes = dbytes;
    }
    if (hbytes > cs->hwork_bytes) {
        free(cs->hwork);
        cs->hwork = bench_malloc(hbytes);
        cs->hwork_bytes = hbytes;
    }

    cusolver_run_t run = { cs, prec, n, dA0, dA, ldda, type, fill };
    const testing_job_t job = { cusolver_prepare, cusolver_run, cusolver_finish };
    int64_t run_info = 0;
    double median = testing_time_job(&job, &run, cs->stream, 0, niter, &run_info);
    *info = (int) run_info;
    return median;
}

/* ===========================================================================
 * gchol
 * ========================================================================= */

/* One gchol factorization through the chosen interface; returns what the
 * routine returned, and sets *hinfo for the synchronous form. */
static int64_t bench_gchol_call(bench_gchol_api_t api, char prec, char uplo, int64_t n,
                                void *dA, int64_t ldda, int64_t *dinfo, int64_t *hinfo,
                                const gchol_options_t *opts, gchol_queue_t queue)
{
    if (api == BENCH_GCHOL_ASYNC)
        return prec == 'd' ? gchol_dpotrf_async(uplo, n, dA, ldda, dinfo, opts, queue)
                           : gchol_spotrf_async(uplo, n, dA, ldda, dinfo, opts, queue);
    if (opts == NULL)
        return prec == 'd' ? gchol_dpotrf_gpu(uplo, n, dA, ldda, hinfo, queue)
                           : gchol_spotrf_gpu(uplo, n, dA, ldda, hinfo, queue);
    return prec == 'd' ? gchol_dpotrf_expert_gpu(uplo, n, dA, ldda, hinfo, opts, queue)
                       : gchol_spotrf_expert_gpu(uplo, n, dA, ldda, hinfo, opts, queue);
}

/* The gchol jobs: a fresh copy of the input, the timed call, and for the
 * asynchronous form the device info word read back after the timer. */
typedef struct {
    gchol_queue_t queue;
    bench_gchol_api_t api;
    char prec, uplo;
    int64_t n;
    const void *A0;
    void *A;
    int64_t ld;
    const gchol_options_t *opts;
    int64_t *dinfo;
} gchol_run_t;

static void gchol_device_prepare(void *ctx)
{
    const gchol_run_t *r = ctx;
    bench_device_copy(r->prec, r->n, r->n, r->A0, r->ld, r->A, r->ld, gchol_queue_stream(r->queue));
}

static int64_t gchol_device_run(void *ctx, int64_t *info)
{
    const gchol_run_t *r = ctx;
    return bench_gchol_call(r->api, r->prec, r->uplo, r->n, r->A, r->ld, r->dinfo, info, r->opts,
                            r->queue);
}

static void gchol_device_finish(void *ctx, int64_t *info)
{
    const gchol_run_t *r = ctx;
    if (r->api == BENCH_GCHOL_ASYNC)
        BENCH_CUDA(cudaMemcpy(info, r->dinfo, sizeof(int64_t), cudaMemcpyDeviceToHost));
}

static void gchol_host_prepare(void *ctx)
{
    const gchol_run_t *r = ctx;
    bench_host_copy(r->prec, r->n, r->n, r->A0, r->ld, r->A, r->ld);
}

static int64_t gchol_host_run(void *ctx, int64_t *info)
{
    const gchol_run_t *r = ctx;
    return r->prec == 'd' ? gchol_dpotrf_expert(r->uplo, r->n, r->A, r->ld, info, r->opts, r->queue)
                          : gchol_spotrf_expert(r->uplo, r->n, r->A, r->ld, info, r->opts, r->queue);
}

/* Warm-up + niter runs of gchol on the device, each on a fresh copy of dA0. */
double bench_gchol_potrf(gchol_queue_t queue, bench_gchol_api_t api, char prec, char uplo,
                         int64_t n, const void *dA0, void *dA, int64_t ldda,
                         const gchol_options_t *opts, int64_t *dinfo, int niter, int64_t *info)
{
    gchol_run_t run = { queue, api, prec, uplo, n, dA0, dA, ldda, opts, dinfo };
    const testing_job_t job = { gchol_device_prepare, gchol_device_run, gchol_device_finish };
    return testing_time_job(&job, &run, gchol_queue_stream(queue), 0, niter, info);
}

/* Warm-up + niter runs of the host interface, wall clock with transfers. */
double bench_gchol_host_potrf(gchol_queue_t queue, char prec, char uplo, int64_t n,
                              const void *A0, void *A, int64_t lda,
                              const gchol_options_t *opts, int niter, int64_t *info)
{
    gchol_run_t run = { queue, BENCH_GCHOL_GPU, prec, uplo, n, A0, A, lda, opts, NULL };
    const testing_job_t job = { gchol_host_prepare, gchol_host_run, NULL };
    return testing_time_job(&job, &run, NULL, 1, niter, info);
}

/* ===========================================================================
 * OpenBLAS
 * ========================================================================= */

/* The OpenBLAS job: a fresh host copy, LAPACKE_?potrf_work (no NaN check). */
typedef struct {
    char prec, uplo;
    int64_t n;
    const void *A0;
    void *A;
    int64_t lda;
} openblas_run_t;

static void openblas_prepare(void *ctx)
{
    const openblas_run_t *r = ctx;
    bench_host_copy(r->prec, r->n, r->n, r->A0, r->lda, r->A, r->lda);
}

static int64_t openblas_run(void *ctx, int64_t *info)
{
    const openblas_run_t *r = ctx;
    *info = r->prec == 'd'
        ? LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, r->uplo, (lapack_int) r->n, r->A, (lapack_int) r->lda)
        : LAPACKE_spotrf_work(LAPACK_COL_MAJOR, r->uplo, (lapack_int) r->n, r->A, (lapack_int) r->lda);
    return 0;
}

/* Warm-up + niter runs of LAPACKE_?potrf_work, wall clock. */
double bench_openblas_potrf(char prec, char uplo, int64_t n, const void *A0, void *A,
                            int64_t lda, int niter, int *info)
{
    openblas_run_t run = { prec, uplo, n, A0, A, lda };
    const testing_job_t job = { openblas_prepare, openblas_run, NULL };
    int64_t run_info = 0;
    double median = testing_time_job(&job, &run, NULL, 1, niter, &run_info);
    *info = (int) run_info;
    return median;
}

const char *bench_openblas_config(void)
{
    static char text[128];
    snprintf(text, sizeof(text), "OpenBLAS core %s, %d threads", openblas_get_corename(),
             openblas_get_num_threads());
    return text;
}

/* ===========================================================================
 * cuBLAS GEMM ceiling
 * ========================================================================= */

/* The GEMM ceiling job: C = A A^T, n x n x n. */
typedef struct {
    cublasHandle_t handle;
    char prec;
    int64_t n;
    void *dA;
    int64_t ldda;
    void *dC;
    bench_scalar_t one, zero;
} gemm_run_t;

static int64_t gemm_run(void *ctx, int64_t *info)
{
    gemm_run_t *r = ctx;
    (void) info;
    BENCH_BLAS(r->prec, gemm_64, r->handle, CUBLAS_OP_N, CUBLAS_OP_T, r->n, r->n, r->n,
               (void *) &r->one, r->dA, r->ldda, r->dA, r->ldda, (void *) &r->zero, r->dC, r->ldda);
    return 0;
}

/* The rate of cuBLAS ?gemm on n x n random data: the median of niter
 * calls after a warm-up, or, with seconds > 0, calls back to back for at
 * least that long, timed as one (the rate the power limit leaves). */
static double gemm_rate(char prec, int64_t n, int niter, double seconds, cudaStream_t stream)
{
    int64_t ldda;
    void *hA = bench_spd_host(prec, n, n, 2024);
    void *dA = bench_upload(prec, n, n, hA, n, &ldda);
    free(hA);
    void *dC = bench_device_malloc((size_t) ldda * n * testing_elsize(prec));
    BENCH_CUDA(cudaMemset(dC, 0, (size_t) ldda * n * testing_elsize(prec)));

    cublasHandle_t handle;
    BENCH_CUBLAS(cublasCreate(&handle));
    BENCH_CUBLAS(cublasSetStream(handle, stream));
    gemm_run_t run = { handle, prec, n, dA, ldda, dC, bench_scalar(prec, 1.0),
                       bench_scalar(prec, 0.0) };
    const testing_job_t job = { NULL, gemm_run, NULL };
    int64_t info = 0;
    double t = testing_time_job(&job, &run, stream, 0, niter, &info);
    int64_t calls = 1;
    if (seconds > 0 && t > 0) {
        calls = (int64_t) ceil(seconds / t);
        cudaEvent_t e0, e1;
        BENCH_CUDA(cudaEventCreate(&e0));
        BENCH_CUDA(cudaEventCreate(&e1));
        BENCH_CUDA(cudaEventRecord(e0, stream));
        for (int64_t c = 0; c < calls; ++c) (void) gemm_run(&run, &info);
        BENCH_CUDA(cudaEventRecord(e1, stream));
        BENCH_CUDA(cudaEventSynchronize(e1));
        float ms = 0;
        BENCH_CUDA(cudaEventElapsedTime(&ms, e0, e1));
        t = ms * 1e-3;
        BENCH_CUDA(cudaEventDestroy(e0));
        BENCH_CUDA(cudaEventDestroy(e1));
    }
    BENCH_CUBLAS(cublasDestroy(handle));
    BENCH_CUDA(cudaFree(dA));
    BENCH_CUDA(cudaFree(dC));
    return t > 0 ? 2.0 * n * (double) n * n * (double) calls / t * 1e-12 : 0.0;
}

double bench_gemm_tflops(char prec, int64_t n, int niter, cudaStream_t stream)
{
    return gemm_rate(prec, n, niter, 0, stream);
}

double bench_gemm_sustained_tflops(char prec, int64_t n, double seconds, cudaStream_t stream)
{
    return gemm_rate(prec, n, 3, seconds, stream);
}

void bench_context_create(bench_context_t *ctx)
{
    BENCH_GCHOL(gchol_queue_create(-1, &ctx->queue));
    ctx->stream = gchol_queue_stream(ctx->queue);
    bench_cusolver_create(&ctx->cusolver, ctx->stream);
    BENCH_CUBLAS(cublasCreate(&ctx->cublas));
    BENCH_CUBLAS(cublasSetStream(ctx->cublas, ctx->stream));
}

void bench_context_destroy(bench_context_t *ctx)
{
    BENCH_CUBLAS(cublasDestroy(ctx->cublas));
    bench_cusolver_destroy(&ctx->cusolver);
    BENCH_GCHOL(gchol_queue_destroy(ctx->queue));
}

/* Keeps the GPU busy with dgemm for about `seconds`. An idle GPU runs at a
 * low clock and needs a few milliseconds of steady load to reach its boost
 * clock (a short kernel runs about twice as slow before), so every
 * contender is timed only after this. */
void bench_spin_up(double seconds)
{
    static double *buf;
    const int64_t n = 2048;
    if (buf == NULL) {
        buf = bench_device_malloc((size_t) 2 * n * n * sizeof(double));
        BENCH_CUDA(cudaMemset(buf, 0, (size_t) 2 * n * n * sizeof(double)));
    }
    cublasHandle_t handle;
    BENCH_CUBLAS(cublasCreate(&handle));
    const double one = 1.0, zero = 0.0;
    const double t0 = testing_wtime();
    while (testing_wtime() - t0 < seconds) {
        for (int i = 0; i < 8; ++i)
            BENCH_CUBLAS(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int) n, (int) n, (int) n,
                                     &one, buf, (int) n, buf, (int) n, &zero, buf + n * n, (int) n));
        BENCH_CUDA(cudaDeviceSynchronize());
    }
    BENCH_CUBLAS(cublasDestroy(handle));
}


void bench_cusolver_dposv(bench_cusolver_t *cs, char uplo, int64_t n, int64_t nrhs, double *dA,
                          int64_t ld, double *dX, void *dwork, size_t dwork_bytes, void *hwork,
                          size_t hwork_bytes, int *dinfo)
{
    const cublasFillMode_t fill = fill_mode(uplo);
    BENCH_CUSOLVER(cusolverDnXpotrf(cs->handle, cs->params, fill, n, CUDA_R_64F, dA, ld, CUDA_R_64F,
                                    dwork, dwork_bytes, hwork, hwork_bytes, dinfo));
    BENCH_CUSOLVER(cusolverDnXpotrs(cs->handle, cs->params, fill, n, nrhs, CUDA_R_64F, dA, ld,
                                    CUDA_R_64F, dX, ld, dinfo + 1));
}

void bench_read_dinfo(const int *dinfo, int64_t *info)
{
    int h = 0;
    BENCH_CUDA(cudaMemcpy(&h, dinfo, sizeof(int), cudaMemcpyDeviceToHost));
    if (h != 0 && *info == 0) *info = h;
}
