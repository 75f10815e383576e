/*
 * bench_common.h -- helpers shared by the gchol benchmarks (bench_potrf,
 * demo_potrf, timeline_potrf).
 *
 * Precision is a run-time `char prec` ('d' or 's') and matrices are void*
 * buffers, so each helper is written once for both precisions. Unlike the
 * library, a benchmark may exit: every CUDA, cuBLAS and cuSOLVER call of the
 * benchmarks goes through the BENCH_* checks below, which report the failing
 * call and exit with status 1. No CUDA device at all exits with status 2.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cusolverDn.h>

#include "gchol.h"

/* ---------------------------------------------------------------------------
 * Status checks: report "file:line: call: message" and exit(1).
 * ------------------------------------------------------------------------- */
#define BENCH_CUDA(call)     bench_check_cuda((call), #call, __FILE__, __LINE__)
#define BENCH_CUBLAS(call)   bench_check_cublas((call), #call, __FILE__, __LINE__)
#define BENCH_CUSOLVER(call) bench_check_cusolver((call), #call, __FILE__, __LINE__)
#define BENCH_GCHOL(call)    bench_check_gchol((call), #call, __FILE__, __LINE__)

void bench_check_cuda(cudaError_t err, const char *call, const char *file, int line);
void bench_check_cublas(cublasStatus_t st, const char *call, const char *file, int line);
void bench_check_cusolver(cusolverStatus_t st, const char *call, const char *file, int line);
void bench_check_gchol(int64_t code, const char *call, const char *file, int line);

/* Exits with status 2 and a clear message when no CUDA GPU is usable;
 * otherwise selects `device` and prints its name, SM count and memory. */
void bench_require_gpu(int device, const char *program);

/* Allocation on the host that exits when out of memory. */
void *bench_malloc(size_t bytes);

/* ---------------------------------------------------------------------------
 * Precision helpers.
 * ------------------------------------------------------------------------- */
size_t       bench_elsize(char prec);   /* 8 for 'd', 4 for 's'             */
double       bench_eps(char prec);      /* unit roundoff: DBL/FLT_EPSILON/2  */
cudaDataType bench_cuda_type(char prec);/* CUDA_R_64F or CUDA_R_32F          */
const char  *bench_prec_name(char prec);/* "double" or "single"              */

/* ---------------------------------------------------------------------------
 * Random numbers and matrices.
 * ------------------------------------------------------------------------- */
/* splitmix64: a seeded, fast, statistically good 64-bit generator. */
typedef struct { uint64_t state; } bench_rng_t;
void     bench_rng_seed(bench_rng_t *rng, uint64_t seed);
uint64_t bench_rng_next(bench_rng_t *rng);
double   bench_rng_uniform(bench_rng_t *rng);      /* uniform in (-1, 1)    */

/* Counter-based variant: the value for (seed, counter) alone, uniform in
 * (-1, 1); lets threads fill any part of a matrix independently. */
double   bench_hash_uniform(uint64_t seed, uint64_t counter);

/* Runs fn(arg, begin, end) over [0, count) split into contiguous chunks on
 * all host cores (pthreads). */
void bench_parallel_for(int64_t count, void (*fn)(void *arg, int64_t begin, int64_t end),
                        void *arg);

/* A freshly allocated n x n host matrix (leading dimension lda >= n), full
 * square, symmetric positive definite: a_ij = a_ji = uniform(-1,1) from the
 * seed and (i,j), plus n on the diagonal. Independent of the thread count;
 * 'd' and 's' give the same matrix up to rounding. */
void *bench_spd_host(char prec, int64_t n, int64_t lda, uint64_t seed);

/* A freshly allocated m x n host matrix (leading dimension lda >= m) with
 * entries uniform in the open interval (lo, hi), from the seed and (i, j);
 * padding rows are 0. Independent of the thread count. */
void *bench_random_host(char prec, int64_t m, int64_t n, int64_t lda, uint64_t seed,
                        double lo, double hi);

/* Host copy B := A of an n-column matrix (m rows), in parallel. */
void bench_host_copy(char prec, int64_t m, int64_t n, const void *A, int64_t lda,
                     void *B, int64_t ldb);

/* ---------------------------------------------------------------------------
 * Device memory.
 * ------------------------------------------------------------------------- */
/* Leading dimension used for device matrices: n rounded up to 32 elements. */
int64_t bench_ldda(int64_t n);

/* cudaMalloc that exits on failure. */
void *bench_device_malloc(size_t bytes);

/* Device matrix with ldda = bench_ldda(m), uploaded from the host matrix A. */
void *bench_upload(char prec, int64_t m, int64_t n, const void *A, int64_t lda, int64_t *ldda);

/* dB := dA for an m x n device matrix, ordered on `stream`, then waits for it
 * (so a following timed region never includes the copy). */
void bench_device_copy(char prec, int64_t m, int64_t n, const void *dA, int64_t ldda,
                       void *dB, int64_t lddb, cudaStream_t stream);

/* Device bytes a potrf benchmark of size n needs for `nmatrices` n x n copies
 * plus a margin for library and cuSOLVER workspaces. */
size_t bench_potrf_bytes(char prec, int64_t n, int nmatrices);

/* ---------------------------------------------------------------------------
 * Timing.
 * ------------------------------------------------------------------------- */
/* A pair of CUDA events timing a region of one stream. */
typedef struct { cudaEvent_t start, stop; cudaStream_t stream; } bench_timer_t;
void   bench_timer_create(bench_timer_t *t, cudaStream_t stream);
void   bench_timer_destroy(bench_timer_t *t);
void   bench_timer_start(bench_timer_t *t);
double bench_timer_stop(bench_timer_t *t);     /* waits; returns seconds   */

double bench_wtime(void);                      /* host wall clock, seconds */
double bench_median(const double *values, int count);

/* One timed job, the loop every benchmark shares: for a warm-up and then
 * niter runs, prepare (untimed; e.g. a fresh copy of the input), run (timed),
 * finish (untimed; e.g. read back a device info word). run returns < 0 on an
 * error and may set *info; prepare and finish may be NULL. */
typedef struct {
    void    (*prepare)(void *ctx);
    int64_t (*run)(void *ctx, int64_t *info);
    void    (*finish)(void *ctx, int64_t *info);
} bench_job_t;

/* The least time that bench_time_job's warm-up keeps the GPU busy. */
#define BENCH_WARMUP_S 0.025

/* Times job with CUDA events on stream (wall_clock = 0) or with the host wall
 * clock (wall_clock = 1; stream unused). Returns the median seconds of the
 * niter timed runs and sets *info to the first nonzero info of any run; or,
 * when a run returns an error, stops there, sets *info to it and returns -1.
 * The warm-up runs the job at least once and until BENCH_WARMUP_S has passed. */
double bench_time_job(const bench_job_t *job, void *ctx, cudaStream_t stream, int wall_clock,
                      int niter, int64_t *info);

/* potrf flop count n^3/3 + n^2/2 + n/6 (LAPACK/MAGMA timing convention). */
double bench_potrf_flops(int64_t n);
/* TFLOP/s of a potrf of size n that took `seconds` (0 when seconds <= 0). */
double bench_potrf_tflops(int64_t n, double seconds);

/* ---------------------------------------------------------------------------
 * Timed factorizations. Every one: a warm-up run, then `niter` timed runs,
 * each on a fresh copy dA := dA0 made outside the timed region; returns the
 * median in seconds. dA holds the last factor on return.
 * ------------------------------------------------------------------------- */
/* cuSOLVER cusolverDnXpotrf (64-bit API) with its workspace kept between
 * calls; everything on `stream`. */
typedef struct {
    cusolverDnHandle_t handle;
    cusolverDnParams_t params;
    cudaStream_t       stream;
    void              *dwork;
    size_t             dwork_bytes;
    void              *hwork;
    size_t             hwork_bytes;
    int               *dinfo;
} bench_cusolver_t;

void   bench_cusolver_create(bench_cusolver_t *cs, cudaStream_t stream);
void   bench_cusolver_destroy(bench_cusolver_t *cs);
/* *info: the first nonzero devInfo of any run, else 0. */
double bench_cusolver_potrf(bench_cusolver_t *cs, char prec, char uplo, int64_t n,
                            const void *dA0, void *dA, int64_t ldda, int niter, int *info);

/* How gchol is called when timed. */
typedef enum {
    BENCH_GCHOL_ASYNC = 0, /* gchol_?potrf_async, info read after each run */
    BENCH_GCHOL_GPU   = 1  /* gchol_?potrf_gpu, or _expert_gpu with opts  */
} bench_gchol_api_t;

/* gchol on `queue`, events on gchol_queue_stream(queue). dinfo is a device
 * int64_t (used by the async form). Returns the median in seconds, or a
 * negative value when a call returned an error; *info: that error, else the
 * first nonzero LAPACK info of any run, else 0. */
double bench_gchol_potrf(gchol_queue_t queue, bench_gchol_api_t api, char prec, char uplo,
                         int64_t n, const void *dA0, void *dA, int64_t ldda,
                         const gchol_options_t *opts, int64_t *dinfo, int niter, int64_t *info);

/* gchol host interface gchol_?potrf_expert, wall clock including transfers;
 * each run on a fresh host copy A := A0 (made outside the timed region). */
double bench_gchol_host_potrf(gchol_queue_t queue, char prec, char uplo, int64_t n,
                              const void *A0, void *A, int64_t lda,
                              const gchol_options_t *opts, int niter, int64_t *info);

/* OpenBLAS LAPACKE_?potrf_work on all host cores, wall clock; A as above. */
double bench_openblas_potrf(char prec, char uplo, int64_t n, const void *A0, void *A,
                            int64_t lda, int niter, int *info);
/* "OpenBLAS <core>, <k> threads" */
const char *bench_openblas_config(void);

/* What every timing program holds: a gchol queue, its stream, a cuSOLVER
 * context and a cuBLAS handle on that stream (for checks and residuals). */
typedef struct {
    gchol_queue_t    queue;
    cudaStream_t     stream;
    bench_cusolver_t cusolver;
    cublasHandle_t   cublas;
} bench_context_t;

void bench_context_create(bench_context_t *ctx);
void bench_context_destroy(bench_context_t *ctx);

/* Raises the GPU to its boost clock: ~`seconds` of dgemm. Call before timing. */
void bench_spin_up(double seconds);

/* cuBLAS ?gemm rate (TFLOP/s) for n x n x n, median of niter after a warm-up,
 * on random data. */
double bench_gemm_tflops(char prec, int64_t n, int niter, cudaStream_t stream);

/* ---------------------------------------------------------------------------
 * Checks of a factor, on the GPU.
 * ------------------------------------------------------------------------- */
/* Cheap check of a factor against the matrix it came from: with a random x,
 * ||A x - L (L^T x)||_2 / (n eps ||A x||_2) (uplo 'U': U^T (U x)).
 * Costs three matrix-vector products. A factor is good when this is < 30. */
double bench_factor_check(cublasHandle_t handle, char prec, char uplo, int64_t n,
                          const void *dA0, const void *dF, int64_t ldda);

/* 1-norm of the symmetric n x n device matrix stored in the `uplo` triangle
 * of dA (like LAPACK ?lansy('1')): column sums accumulated on the host from
 * column blocks copied back. */
double bench_lansy_one(char prec, char uplo, int64_t n, const void *dA, int64_t ldda);

/* LAPACK's Cholesky residual ||A - L L^T||_1 / (n ||A||_1 eps) of the factor
 * in dF (uplo triangle) of dA0, formed on the GPU (trmm to extract L, syrk to
 * subtract L L^T). Needs two n x n device buffers of scratch. */
double bench_potrf_residual(cublasHandle_t handle, char prec, char uplo, int64_t n,
                            const void *dA0, const void *dF, int64_t ldda);

/* ---------------------------------------------------------------------------
 * Small parsing helpers for the command lines.
 * ------------------------------------------------------------------------- */
/* Parses "a,b,c" and ranges "start:stop[:step]" (mixed), into *sizes (malloc'd).
 * Returns the count, or -1 on a malformed list. */
int bench_parse_sizes(const char *text, int64_t **sizes);

/* Matches argv[*i] against "--name value" or "--name=value": returns the
 * value and advances *i past it, NULL when argv[*i] is another option; exits
 * when the value is missing. */
const char *bench_option_value(int argc, char **argv, int *i, const char *name);
/* The last branch of an option loop: -h / --help prints usage and exits 0,
 * anything else is reported with usage and exits 1. */
void bench_help_or_unknown(const char *arg, const char *program, void (*usage)(const char *));

const char *bench_variant_name(int variant);   /* auto, left, right, tiled */
const char *bench_lookahead_name(int lookahead);/* auto, off, on       */


/* 1 if text is non-empty and every character of it is in allowed (option
 * values like "ds" or "LU"). */
int bench_is_subset(const char *text, const char *allowed);

/* A table field: value * scale printed with format into text (32 bytes), or
 * "-" when not measured (value <= 0 or not finite). Returns text. */
const char *bench_field(char *text, const char *format, double value, double scale);

/* A CSV number followed by ',', or just ',' when not measured (<= 0). */
void bench_csv_num(FILE *f, double value);

#endif /* BENCH_COMMON_H */
