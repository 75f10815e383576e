/*
 * bench_common.c -- helpers shared by the gchol benchmarks; see bench_common.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lapacke.h>

/* OpenBLAS extensions (declared here so that no particular cblas.h is needed). */
char *openblas_get_corename(void);
int   openblas_get_num_threads(void);

/* A scalar in either precision: pass (void *)&s where cuBLAS wants a pointer
 * to the precision's type; the member in use sits at offset 0. */
typedef union { double d; float s; } bench_scalar_t;

static bench_scalar_t bench_scalar(char prec, double value)
{
    bench_scalar_t v;
    if (prec == 'd') v.d = value; else v.s = (float) value;
    return v;
}

static double bench_scalar_value(char prec, bench_scalar_t v)
{
    return prec == 'd' ? v.d : (double) v.s;
}

/* cuBLAS dispatch on prec: BENCH_BLAS(prec, gemm_64, ...) calls
 * cublasDgemm_64 or cublasSgemm_64 with the same arguments (void* buffers). */
#define BENCH_BLAS(prec, routine, ...) \
    BENCH_CUBLAS((prec) == 'd' ? cublasD##routine(__VA_ARGS__) : cublasS##routine(__VA_ARGS__))

static cublasFillMode_t bench_fill(char uplo)
{
    return (uplo == 'L' || uplo == 'l') ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
}

static int bench_is_lower(char uplo) { return uplo == 'L' || uplo == 'l'; }

/* ===========================================================================
 * Status checks
 * ========================================================================= */

/* Reports a failed CUDA runtime call and exits. */
void bench_check_cuda(cudaError_t err, const char *call, const char *file, int line)
{
    if (err == cudaSuccess) return;
    fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, call,
            cudaGetErrorString(err), cudaGetErrorName(err));
    exit(EXIT_FAILURE);
}

/* Reports a failed cuBLAS call and exits. */
void bench_check_cublas(cublasStatus_t st, const char *call, const char *file, int line)
{
    if (st == CUBLAS_STATUS_SUCCESS) return;
    fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, call, cublasGetStatusString(st));
    exit(EXIT_FAILURE);
}

/* Reports a failed cuSOLVER call and exits. */
void bench_check_cusolver(cusolverStatus_t st, const char *call, const char *file, int line)
{
    if (st == CUSOLVER_STATUS_SUCCESS) return;
    fprintf(stderr, "%s:%d: %s failed: cusolverStatus_t %d\n", file, line, call, (int) st);
    exit(EXIT_FAILURE);
}

/* Reports a gchol call that returned nonzero and exits. */
void bench_check_gchol(int64_t code, const char *call, const char *file, int line)
{
    if (code == 0) return;
    fprintf(stderr, "%s:%d: %s failed: %lld (%s)\n", file, line, call,
            (long long) code, gchol_strerror(code));
    exit(EXIT_FAILURE);
}

/* Exits with status 2 when there is no usable CUDA GPU; else selects it. */
void bench_require_gpu(int device, const char *program)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        fprintf(stderr, "%s: a CUDA GPU is required, but none is usable here (%s).\n",
                program, err != cudaSuccess ? cudaGetErrorString(err) : "no device found");
        exit(2);
    }
    if (device < 0 || device >= count) device = 0;
    BENCH_CUDA(cudaSetDevice(device));
    struct cudaDeviceProp prop;
    BENCH_CUDA(cudaGetDeviceProperties(&prop, device));
    printf("# device %d: %s, %d SMs, %.1f GiB, CUDA runtime %d\n", device, prop.name,
           prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0, CUDART_VERSION);
}

/* malloc that exits when out of memory. */
void *bench_malloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "out of host memory (%.2f GB)\n", bytes / 1e9);
        exit(EXIT_FAILURE);
    }
    return p;
}

/* ===========================================================================
 * Precision helpers
 * ========================================================================= */

size_t       bench_elsize(char prec)    { return prec == 'd' ? sizeof(double) : sizeof(float); }
double       bench_eps(char prec)       { return prec == 'd' ? DBL_EPSILON / 2 : FLT_EPSILON / 2; }
cudaDataType bench_cuda_type(char prec) { return prec == 'd' ? CUDA_R_64F : CUDA_R_32F; }
const char  *bench_prec_name(char prec) { return prec == 'd' ? "double" : "single"; }

/* ===========================================================================
 * Random numbers
 * ========================================================================= */

/* The splitmix64 output function. */
static uint64_t bench_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Maps 64 random bits to the open interval (-1, 1). */
static double bench_bits_to_uniform(uint64_t bits)
{
    return 2.0 * (((double) (bits >> 11) + 0.5) * 0x1.0p-53) - 1.0;
}

void bench_rng_seed(bench_rng_t *rng, uint64_t seed) { rng->state = bench_mix64(seed); }

uint64_t bench_rng_next(bench_rng_t *rng)
{
    rng->state += 0x9E3779B97F4A7C15ull;
    return bench_mix64(rng->state);
}

double bench_rng_uniform(bench_rng_t *rng) { return bench_bits_to_uniform(bench_rng_next(rng)); }

/* Value number `counter` of the stream of an already mixed seed. */
static double bench_stream_uniform(uint64_t mixed_seed, uint64_t counter)
{
    return bench_bits_to_uniform(bench_mix64(mixed_seed + (counter + 1) * 0x9E3779B97F4A7C15ull));
}

double bench_hash_uniform(uint64_t seed, uint64_t counter)
{
    return bench_stream_uniform(bench_mix64(seed), counter);
}

/* ===========================================================================
 * Host parallelism
 * ========================================================================= */

typedef struct {
    void  (*fn)(void *arg, int64_t begin, int64_t end);
    void   *arg;
    int64_t begin, end;
} bench_chunk_t;

static void *bench_chunk_run(void *p)
{
    bench_chunk_t *c = p;
    c->fn(c->arg, c->begin, c->end);
    return NULL;
}

/* Splits [0, count) over the host cores; runs inline when small. */
void bench_parallel_for(int64_t count, void (*fn)(void *arg, int64_t begin, int64_t end),
                        void *arg)
{
    enum { MAX_THREADS = 256 };
    long ncores = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t nthreads = ncores < 1 ? 1 : (ncores > MAX_THREADS ? MAX_THREADS : ncores);
    if (nthreads > count) nthreads = count;
    if (nthreads <= 1) { if (count > 0) fn(arg, 0, count); return; }

    pthread_t     threads[MAX_THREADS];
    bench_chunk_t chunks[MAX_THREADS];
    int           started[MAX_THREADS];
    for (int64_t t = 0; t < nthreads; ++t) {
        chunks[t] = (bench_chunk_t) { fn, arg, count * t / nthreads, count * (t + 1) / nthreads };
        started[t] = pthread_create(&threads[t], NULL, bench_chunk_run, &chunks[t]) == 0;
        if (!started[t]) bench_chunk_run(&chunks[t]);   /* no thread: do it here */
    }
    for (int64_t t = 0; t < nthreads; ++t)
        if (started[t]) pthread_join(threads[t], NULL);
}

/* ===========================================================================
 * Host matrices
 * ========================================================================= */

typedef struct { char prec; int64_t n, lda; uint64_t seed; void *A; } bench_spd_job_t; /* seed: mixed */

/* Fills columns [j0, j1) of the SPD matrix; a_ij depends on (seed, max, min). */
static void bench_spd_columns(void *p, int64_t j0, int64_t j1)
{
    const bench_spd_job_t *job = p;
    const int64_t n = job->n, lda = job->lda;
    for (int64_t j = j0; j < j1; ++j) {
        for (int64_t i = 0; i < lda; ++i) {
            double v = 0.0;
            if (i < n) {
                uint64_t r = (uint64_t) (i > j ? i : j), c = (uint64_t) (i > j ? j : i);
                v = bench_stream_uniform(job->seed, r * (r + 1) / 2 + c) + (i == j ? (double) n : 0.0);
            }
            if (job->prec == 'd') ((double *) job->A)[i + j * lda] = v;
            else                  ((float  *) job->A)[i + j * lda] = (float) v;
        }
    }
}

void *bench_spd_host(char prec, int64_t n, int64_t lda, uint64_t seed)
{
    bench_spd_job_t job = { prec, n, lda, bench_mix64(seed), bench_malloc((size_t) lda * n * bench_elsize(prec)) };
    bench_parallel_for(n, bench_spd_columns, &job);
    return job.A;
}

typedef struct {
    char prec; int64_t m, lda; uint64_t seed; double lo, hi; void *A;  /* seed: mixed */
} bench_random_job_t;

/* Fills columns [j0, j1) of the random matrix; a_ij depends on (seed, i + j m). */
static void bench_random_columns(void *p, int64_t j0, int64_t j1)
{
    const bench_random_job_t *job = p;
    const int64_t m = job->m, lda = job->lda;
    const double half = 0.5 * (job->hi - job->lo), mid = job->lo + half;
    for (int64_t j = j0; j < j1; ++j) {
        for (int64_t i = 0; i < lda; ++i) {
            double v = i < m ? mid + half * bench_stream_uniform(job->seed, (uint64_t) (i + j * m))
                             : 0.0;
            if (job->prec == 'd') ((double *) job->A)[i + j * lda] = v;
            else                  ((float  *) job->A)[i + j * lda] = (float) v;
        }
    }
}

void *bench_random_host(char prec, int64_t m, int64_t n, int64_t lda, uint64_t seed,
                        double lo, double hi)
{
    bench_random_job_t job = { prec, m, lda, bench_mix64(seed), lo, hi,
                               bench_malloc((size_t) lda * n * bench_elsize(prec)) };
    bench_parallel_for(n, bench_random_columns, &job);
    return job.A;
}

typedef struct { size_t rowbytes; const char *A; size_t lda; char *B; size_t ldb; } bench_copy_job_t;

static void bench_copy_columns(void *p, int64_t j0, int64_t j1)
{
    const bench_copy_job_t *job = p;
    for (int64_t j = j0; j < j1; ++j)
        memcpy(job->B + j * job->ldb, job->A + j * job->lda, job->rowbytes);
}

void bench_host_copy(char prec, int64_t m, int64_t n, const void *A, int64_t lda,
                     void *B, int64_t ldb)
{
    const size_t es = bench_elsize(prec);
    bench_copy_job_t job = { m * es, A, lda * es, B, ldb * es };
    bench_parallel_for(n, bench_copy_columns, &job);
}

/* ===========================================================================
 * Device memory
 * ========================================================================= */

int64_t bench_ldda(int64_t n) { return n < 1 ? 1 : (n + 31) / 32 * 32; }

void *bench_device_malloc(size_t bytes)
{
    void *p = NULL;
    BENCH_CUDA(cudaMalloc(&p, bytes > 0 ? bytes : 1));
    return p;
}

void *bench_upload(char prec, int64_t m, int64_t n, const void *A, int64_t lda, int64_t *ldda)
{
    const size_t es = bench_elsize(prec);
    *ldda = bench_ldda(m);
    void *dA = bench_device_malloc((size_t) *ldda * n * es);
    BENCH_CUDA(cudaMemcpy2D(dA, *ldda * es, A, lda * es, m * es, n, cudaMemcpyHostToDevice));
    return dA;
}

void bench_device_copy(char prec, int64_t m, int64_t n, const void *dA, int64_t ldda,
                       void *dB, int64_t lddb, cudaStream_t stream)
{
    const size_t es = bench_elsize(prec);
    BENCH_CUDA(cudaMemcpy2DAsync(dB, lddb * es, dA, ldda * es, m * es, n,
                                 cudaMemcpyDeviceToDevice, stream));
    BENCH_CUDA(cudaStreamSynchronize(stream));
}

size_t bench_potrf_bytes(char prec, int64_t n, int nmatrices)
{
    const size_t es = bench_elsize(prec);
    return (size_t) nmatrices * bench_ldda(n) * n * es   /* the matrices          */
         + (size_t) n * 1024 * es                        /* panels and workspaces */
         + ((size_t) 512 << 20);                         /* contexts, cuSOLVER    */
}

/* ===========================================================================
 * Timing
 * ========================================================================= */

void bench_timer_create(bench_timer_t *t, cudaStream_t stream)
{
    BENCH_CUDA(cudaEventCreate(&t->start));
    BENCH_CUDA(cudaEventCreate(&t->stop));
    t->stream = stream;
}

void bench_timer_destroy(bench_timer_t *t)
{
    BENCH_CUDA(cudaEventDestroy(t->start));
    BENCH_CUDA(cudaEventDestroy(t->stop));
}

void bench_timer_start(bench_timer_t *t) { BENCH_CUDA(cudaEventRecord(t->start, t->stream)); }

double bench_timer_stop(bench_timer_t *t)
{
    float ms = 0.0f;
    BENCH_CUDA(cudaEventRecord(t->stop, t->stream));
    BENCH_CUDA(cudaEventSynchronize(t->stop));
    BENCH_CUDA(cudaEventElapsedTime(&ms, t->start, t->stop));
    return ms * 1e-3;
}

double bench_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

double bench_median(const double *values, int count)
{
    if (count <= 0) return 0.0;
    double *v = bench_malloc(count * sizeof(double));
    memcpy(v, values, count * sizeof(double));
    qsort(v, count, sizeof(double), bench_cmp_double);
    double med = count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
    free(v);
    return med;
}

double bench_time_job(const bench_job_t *job, void *ctx, cudaStream_t stream, int wall_clock,
                      int niter, int64_t *info)
{
    bench_timer_t timer;
    if (!wall_clock) bench_timer_create(&timer, stream);
    double *times = bench_malloc((niter > 0 ? niter : 1) * sizeof(double));
    double median = -1.0;
    *info = 0;
    /* The warm-up repeats until the GPU has been busy for BENCH_WARMUP_S (at
     * least once): after the host's work between cells (a new matrix, the
     * residual checks) the GPU idles, and a short cell timed right after
     * ran at lowered clocks in both contenders (s28 c4 / c7 sweeps: a few
     * lower cells, the first after each new matrix, 15-33% slow). */
    const double warm_end = bench_wtime() + BENCH_WARMUP_S;
    for (int it = -1; it < niter; ++it) {              /* it = -1: warm-up */
        if (it == 0 && bench_wtime() < warm_end) it = -1; /* warm up again */
        if (job->prepare) job->prepare(ctx);
        int64_t run_info = 0;
        double t0 = 0.0;
        if (wall_clock) t0 = bench_wtime();
        else bench_timer_start(&timer);
        int64_t ret = job->run(ctx, &run_info);
        double seconds = wall_clock ? bench_wtime() - t0 : bench_timer_stop(&timer);
        if (ret < 0) { *info = ret; goto done; }       /* error: no time */
        if (job->finish) job->finish(ctx, &run_info);
        if (*info == 0) *info = run_info;
        if (it >= 0) times[it] = seconds;
    }
    median = bench_median(times, niter);
done:
    free(times);
    if (!wall_clock) bench_timer_destroy(&timer);
    return median;
}

double bench_potrf_flops(int64_t n)
{
    double x = (double) n;
    return x * x * x / 3.0 + x * x / 2.0 + x / 6.0;
}

double bench_potrf_tflops(int64_t n, double seconds)
{
    return seconds > 0 ? bench_potrf_flops(n) / seconds * 1e-12 : 0.0;
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
    const cublasFillMode_t fill = bench_fill(uplo);
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
    const bench_job_t job = { cusolver_prepare, cusolver_run, cusolver_finish };
    int64_t run_info = 0;
    double median = bench_time_job(&job, &run, cs->stream, 0, niter, &run_info);
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
    const bench_job_t job = { gchol_device_prepare, gchol_device_run, gchol_device_finish };
    return bench_time_job(&job, &run, gchol_queue_stream(queue), 0, niter, info);
}

/* Warm-up + niter runs of the host interface, wall clock with transfers. */
double bench_gchol_host_potrf(gchol_queue_t queue, char prec, char uplo, int64_t n,
                              const void *A0, void *A, int64_t lda,
                              const gchol_options_t *opts, int niter, int64_t *info)
{
    gchol_run_t run = { queue, BENCH_GCHOL_GPU, prec, uplo, n, A0, A, lda, opts, NULL };
    const bench_job_t job = { gchol_host_prepare, gchol_host_run, NULL };
    return bench_time_job(&job, &run, NULL, 1, niter, info);
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
    const bench_job_t job = { openblas_prepare, openblas_run, NULL };
    int64_t run_info = 0;
    double median = bench_time_job(&job, &run, NULL, 1, niter, &run_info);
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

double bench_gemm_tflops(char prec, int64_t n, int niter, cudaStream_t stream)
{
    int64_t ldda;
    void *hA = bench_spd_host(prec, n, n, 2024);
    void *dA = bench_upload(prec, n, n, hA, n, &ldda);
    free(hA);
    void *dC = bench_device_malloc((size_t) ldda * n * bench_elsize(prec));
    BENCH_CUDA(cudaMemset(dC, 0, (size_t) ldda * n * bench_elsize(prec)));

    cublasHandle_t handle;
    BENCH_CUBLAS(cublasCreate(&handle));
    BENCH_CUBLAS(cublasSetStream(handle, stream));
    gemm_run_t run = { handle, prec, n, dA, ldda, dC, bench_scalar(prec, 1.0),
                       bench_scalar(prec, 0.0) };
    const bench_job_t job = { NULL, gemm_run, NULL };
    int64_t info = 0;
    double median = bench_time_job(&job, &run, stream, 0, niter, &info);
    BENCH_CUBLAS(cublasDestroy(handle));
    BENCH_CUDA(cudaFree(dA));
    BENCH_CUDA(cudaFree(dC));
    return median > 0 ? 2.0 * n * (double) n * n / median * 1e-12 : 0.0;
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

/* Keeps the GPU busy with dgemm for about `seconds`. An idle H100 sits at
 * ~400 MHz and needs a few milliseconds of steady load to reach its boost
 * clock (seen here: 128-column potf2 at 56 us per call over 50 calls, 25 us
 * over 400), so every contender is timed only after this. */
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
    const double t0 = bench_wtime();
    while (bench_wtime() - t0 < seconds) {
        for (int i = 0; i < 8; ++i)
            BENCH_CUBLAS(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int) n, (int) n, (int) n,
                                     &one, buf, (int) n, buf, (int) n, &zero, buf + n * n, (int) n));
        BENCH_CUDA(cudaDeviceSynchronize());
    }
    BENCH_CUBLAS(cublasDestroy(handle));
}

/* ===========================================================================
 * Checks of a factor
 * ========================================================================= */

/* ||A x - F F^T x|| / (n eps ||A x||) with three matrix-vector products. */
double bench_factor_check(cublasHandle_t handle, char prec, char uplo, int64_t n,
                          const void *dA0, const void *dF, int64_t ldda)
{
    if (n <= 0) return 0.0;
    const size_t es = bench_elsize(prec);
    const cublasFillMode_t fill = bench_fill(uplo);
    const int lower = bench_is_lower(uplo);
    void *A = (void *) dA0, *F = (void *) dF;
    bench_rng_t rng;
    bench_rng_seed(&rng, 7);
    void *hx = bench_malloc(n * es);
    for (int64_t i = 0; i < n; ++i) {
        double v = bench_rng_uniform(&rng);
        if (prec == 'd') ((double *) hx)[i] = v; else ((float *) hx)[i] = (float) v;
    }
    void *dx = bench_device_malloc(n * es), *dy = bench_device_malloc(n * es);
    BENCH_CUDA(cudaMemcpy(dx, hx, n * es, cudaMemcpyHostToDevice));
    free(hx);

    bench_scalar_t one = bench_scalar(prec, 1.0), zero = bench_scalar(prec, 0.0);
    bench_scalar_t minus_one = bench_scalar(prec, -1.0), norm_ax, norm_diff;
    /* y = A x from the uplo triangle of the pristine matrix */
    BENCH_BLAS(prec, symv_64, handle, fill, n, (void *) &one, A, ldda, dx, 1,
               (void *) &zero, dy, 1);
    /* x := F F^T x (lower) or F^T F x (upper), innermost product first */
    BENCH_BLAS(prec, trmv_64, handle, fill, lower ? CUBLAS_OP_T : CUBLAS_OP_N,
               CUBLAS_DIAG_NON_UNIT, n, F, ldda, dx, 1);
    BENCH_BLAS(prec, trmv_64, handle, fill, lower ? CUBLAS_OP_N : CUBLAS_OP_T,
               CUBLAS_DIAG_NON_UNIT, n, F, ldda, dx, 1);
    BENCH_BLAS(prec, nrm2_64, handle, n, dy, 1, (void *) &norm_ax);
    BENCH_BLAS(prec, axpy_64, handle, n, (void *) &minus_one, dy, 1, dx, 1);
    BENCH_BLAS(prec, nrm2_64, handle, n, dx, 1, (void *) &norm_diff);
    BENCH_CUDA(cudaFree(dx));
    BENCH_CUDA(cudaFree(dy));

    double denom = n * bench_eps(prec) * bench_scalar_value(prec, norm_ax);
    double diff = bench_scalar_value(prec, norm_diff);
    return isfinite(diff) && denom > 0 ? diff / denom : INFINITY;
}

/* Column sums of |A| for the symmetric matrix in the uplo triangle, host side. */
double bench_lansy_one(char prec, char uplo, int64_t n, const void *dA, int64_t ldda)
{
    if (n <= 0) return 0.0;
    const size_t es = bench_elsize(prec);
    const int lower = bench_is_lower(uplo);
    int64_t nb = ((int64_t) 64 << 20) / ((int64_t) es * n);       /* ~64 MB per block */
    nb = nb < 1 ? 1 : (nb > n ? n : nb);
    double *colsum = calloc(n, sizeof(double));
    void   *block  = bench_malloc((size_t) n * nb * es);
    if (colsum == NULL) { fprintf(stderr, "out of host memory\n"); exit(EXIT_FAILURE); }

    for (int64_t j0 = 0; j0 < n; j0 += nb) {
        int64_t jb = n - j0 < nb ? n - j0 : nb;
        BENCH_CUDA(cudaMemcpy2D(block, n * es, (const char *) dA + (size_t) j0 * ldda * es,
                                ldda * es, n * es, jb, cudaMemcpyDeviceToHost));
        for (int64_t jj = 0; jj < jb; ++jj) {
            const int64_t j = j0 + jj;
            const int64_t ibeg = lower ? j : 0, iend = lower ? n : j + 1;
            double sum = 0.0;
            for (int64_t i = ibeg; i < iend; ++i) {
                double a = fabs(prec == 'd' ? ((double *) block)[i + jj * n]
                                            : (double) ((float *) block)[i + jj * n]);
                sum += a;
                if (i != j) colsum[i] += a;             /* a_ji by symmetry */
            }
            colsum[j] += sum;
        }
    }
    double norm = 0.0;
    for (int64_t j = 0; j < n; ++j)
        if (!(colsum[j] <= norm)) norm = colsum[j];    /* propagates NaN */
    free(block);
    free(colsum);
    return norm;
}

/* ||A - L L^T||_1 / (n ||A||_1 eps): W := tri(F) by trmm on an identity,
 * R := A - W W^T (lower) or A - W^T W (upper) by syrk, then both 1-norms. */
double bench_potrf_residual(cublasHandle_t handle, char prec, char uplo, int64_t n,
                            const void *dA0, const void *dF, int64_t ldda)
{
    if (n <= 0) return 0.0;
    const size_t es = bench_elsize(prec), bytes = (size_t) ldda * n * es;
    const cublasFillMode_t fill = bench_fill(uplo);
    cudaStream_t stream;
    BENCH_CUBLAS(cublasGetStream(handle, &stream));
    void *dW = bench_device_malloc(bytes), *dR = bench_device_malloc(bytes);

    /* W := I (ones copied onto the diagonal with a pitch of ldda + 1) */
    bench_scalar_t one = bench_scalar(prec, 1.0), minus_one = bench_scalar(prec, -1.0);
    char *ones = bench_malloc(n * es);
    for (int64_t i = 0; i < n; ++i) memcpy(ones + i * es, &one, es);
    BENCH_CUDA(cudaMemsetAsync(dW, 0, bytes, stream));
    BENCH_CUDA(cudaMemcpy2DAsync(dW, (ldda + 1) * es, ones, es, es, n,
                                 cudaMemcpyHostToDevice, stream));
    BENCH_CUDA(cudaStreamSynchronize(stream));
    free(ones);
    /* W := tri(F) * I, in place (cuBLAS trmm with C == B) */
    BENCH_BLAS(prec, trmm_64, handle, CUBLAS_SIDE_LEFT, fill, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
               n, n, (void *) &one, (void *) dF, ldda, dW, ldda, dW, ldda);
    /* R := A - W W^T (lower) or A - W^T W (upper), in the uplo triangle */
    bench_device_copy(prec, n, n, dA0, ldda, dR, ldda, stream);
    BENCH_BLAS(prec, syrk_64, handle, fill, bench_is_lower(uplo) ? CUBLAS_OP_N : CUBLAS_OP_T,
               n, n, (void *) &minus_one, dW, ldda, (void *) &one, dR, ldda);
    BENCH_CUDA(cudaStreamSynchronize(stream));

    double norm_r = bench_lansy_one(prec, uplo, n, dR, ldda);
    double norm_a = bench_lansy_one(prec, uplo, n, dA0, ldda);
    BENCH_CUDA(cudaFree(dW));
    BENCH_CUDA(cudaFree(dR));
    double denom = n * norm_a * bench_eps(prec);
    return isfinite(norm_r) && denom > 0 ? norm_r / denom : INFINITY;
}

/* ===========================================================================
 * Command-line helpers
 * ========================================================================= */

/* "1024,2048,4096:16384:4096" -> sizes; a range without a step doubles. */
int bench_parse_sizes(const char *text, int64_t **sizes)
{
    int count = 0, capacity = 16;
    int64_t *list = bench_malloc(capacity * sizeof(int64_t));
    const char *p = text;
    while (*p) {
        char *end;
        long long start = strtoll(p, &end, 10), stop = start, step = 0;
        if (end == p || start < 0) goto bad;
        p = end;
        if (*p == ':') {
            stop = strtoll(p + 1, &end, 10);
            if (end == p + 1 || stop < start) goto bad;
            p = end;
            if (*p == ':') {
                step = strtoll(p + 1, &end, 10);
                if (end == p + 1 || step <= 0) goto bad;
                p = end;
            }
        }
        for (long long n = start; n <= stop; n = step ? n + step : (n ? 2 * n : 1)) {
            if (count == capacity) {
                capacity *= 2;
                int64_t *grown = realloc(list, capacity * sizeof(int64_t));
                if (grown == NULL) goto bad;
                list = grown;
            }
            list[count++] = n;
        }
        if (*p == ',') ++p;
        else if (*p) goto bad;
    }
    *sizes = list;
    return count;
bad:
    free(list);
    *sizes = NULL;
    return -1;
}

const char *bench_option_value(int argc, char **argv, int *i, const char *name)
{
    size_t len = strlen(name);
    if (strncmp(argv[*i], name, len) != 0) return NULL;
    if (argv[*i][len] == '=') return argv[*i] + len + 1;
    if (argv[*i][len] != '\0') return NULL;
    if (*i + 1 >= argc) { fprintf(stderr, "%s needs a value\n", name); exit(EXIT_FAILURE); }
    return argv[++*i];
}

void bench_help_or_unknown(const char *arg, const char *program, void (*usage)(const char *))
{
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
        usage(program);
        exit(EXIT_SUCCESS);
    }
    fprintf(stderr, "unknown option %s\n", arg);
    usage(program);
    exit(EXIT_FAILURE);
}

const char *bench_variant_name(int variant)
{
    switch (variant) {
    case GCHOL_VARIANT_AUTO:  return "auto";
    case GCHOL_VARIANT_LEFT:  return "left";
    case GCHOL_VARIANT_RIGHT: return "right";
    case GCHOL_VARIANT_TILED: return "tiled";
    default:                  return "?";
    }
}

const char *bench_lookahead_name(int lookahead)
{
    switch (lookahead) {
    case GCHOL_LOOKAHEAD_AUTO: return "auto";
    case GCHOL_LOOKAHEAD_OFF:  return "off";
    case GCHOL_LOOKAHEAD_ON:   return "on";
    default:                   return "?";
    }
}

int bench_is_subset(const char *text, const char *allowed)
{
    if (*text == '\0') return 0;
    for (; *text; ++text)
        if (strchr(allowed, *text) == NULL) return 0;
    return 1;
}

const char *bench_field(char *text, const char *format, double value, double scale)
{
    if (value > 0 && isfinite(value)) snprintf(text, 32, format, value * scale);
    else snprintf(text, 32, "-");
    return text;
}

void bench_csv_num(FILE *f, double value)
{
    if (value > 0 && isfinite(value)) fprintf(f, "%.6g,", value);
    else fputc(',', f);
}
