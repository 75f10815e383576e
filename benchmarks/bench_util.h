/*
 * bench_util.h -- what only the gchol benchmarks need, on top of the testing
 * library (testing/util: random matrices, options, timing, flops): status
 * checks that exit, device buffers, the peers measured in the same process
 * (cuSOLVER, OpenBLAS, the cuBLAS GEMM rate), checks of a factor on the GPU,
 * and table / CSV fields.
 *
 * Precision is a run-time `char prec` ('d' or 's') and matrices are void*
 * buffers, so each helper is written once for both precisions. Unlike the
 * library, a benchmark may exit: every CUDA, cuBLAS and cuSOLVER call of the
 * benchmarks goes through the BENCH_* checks below, which report the failing
 * call and exit with status 1. No usable CUDA device exits with status 2.
 */
#ifndef GCHOL_BENCH_UTIL_H
#define GCHOL_BENCH_UTIL_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cusolverDn.h>

#include "gchol.h"
#include "flops.h"
#include "opts.h"
#include "timer.h"
#include "util.h"

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

/* Exits with status 2 and a message that says why (no driver, a driver too
 * old, no device) when no CUDA GPU is usable; otherwise selects `device`
 * (the first one when out of range) and prints its name, SM count, memory. */
void bench_require_gpu(int device, const char *program);

/* Allocation on the host that exits when out of memory. */
void *bench_malloc(size_t bytes);

/* CUDA_R_64F or CUDA_R_32F. */
cudaDataType bench_cuda_type(char prec);

/* A scalar in either precision: pass (void *)&s where cuBLAS wants a pointer
 * to the precision's type; the member in use sits at offset 0. */
typedef union { double d; float s; } bench_scalar_t;
bench_scalar_t bench_scalar(char prec, double value);
double         bench_scalar_value(char prec, bench_scalar_t v);

/* cuBLAS dispatch on prec: BENCH_BLAS(prec, gemm_64, ...) calls
 * cublasDgemm_64 or cublasSgemm_64 with the same arguments (void* buffers). */
#define BENCH_BLAS(prec, routine, ...) \
    BENCH_CUBLAS((prec) == 'd' ? cublasD##routine(__VA_ARGS__) : cublasS##routine(__VA_ARGS__))

/* ---------------------------------------------------------------------------
 * Host and device matrices.
 * ------------------------------------------------------------------------- */
/* A freshly allocated n x n host matrix (leading dimension lda >= n, padding
 * rows 0), full square, the SPD matrix of testing_generate_spd. */
void *bench_spd_host(char prec, int64_t n, int64_t lda, uint64_t seed);

/* A freshly allocated m x n host matrix (lda >= m, padding rows 0) of entries
 * uniform in the open interval (lo, hi) (testing_generate_random). */
void *bench_random_host(char prec, int64_t m, int64_t n, int64_t lda, uint64_t seed,
                        double lo, double hi);

/* Host copy B := A of an n-column matrix (m rows), on all host cores. */
void bench_host_copy(char prec, int64_t m, int64_t n, const void *A, int64_t lda,
                     void *B, int64_t ldb);

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

/* The CUDA-event timer of the testing library, exiting on a CUDA error. */
void   bench_timer_create(testing_timer_t *t, cudaStream_t stream);
void   bench_timer_destroy(testing_timer_t *t);
void   bench_timer_start(testing_timer_t *t);
double bench_timer_stop(testing_timer_t *t);   /* waits; returns seconds */

/* TFLOP/s of a potrf of size n that took `seconds` (0 when seconds <= 0). */
double bench_potrf_tflops(int64_t n, double seconds);

/* ---------------------------------------------------------------------------
 * The peers and gchol's potrf, timed (bench_util_peers.c). Every one: a warm-up
 * run, then `niter` timed runs, each on a fresh copy dA := dA0 made outside
 * the timed region; returns the median in seconds. dA holds the last factor
 * on return.
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

/* cuSOLVER's double solve, untimed: cusolverDnXpotrf on dA (its workspaces
 * dwork / hwork of the sizes cusolverDnXpotrf_bufferSize gave), then
 * cusolverDnXpotrs on the n x nrhs dX (leading dimension ld for both);
 * dinfo (device, 2 ints) receives potrf's info, then potrs's. */
void bench_cusolver_dposv(bench_cusolver_t *cs, char uplo, int64_t n, int64_t nrhs, double *dA,
                          int64_t ld, double *dX, void *dwork, size_t dwork_bytes, void *hwork,
                          size_t hwork_bytes, int *dinfo);
/* A device int info word into *info, unless *info is already nonzero. */
void bench_read_dinfo(const int *dinfo, int64_t *info);

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
/* "OpenBLAS core <core>, <k> threads" */
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
/* The same, calls back to back for at least `seconds` timed as one: the rate
 * that the power limit leaves to a long GEMM-bound run. */
double bench_gemm_sustained_tflops(char prec, int64_t n, double seconds, cudaStream_t stream);

/* ---------------------------------------------------------------------------
 * Checks of a factor, on the GPU (bench_util_check.c).
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
 * Tables and CSV.
 * ------------------------------------------------------------------------- */
/* A table field: value * scale printed with format into text (32 bytes), or
 * "-" when not measured (value <= 0 or not finite). Returns text. */
/* A solve's backward error in double, on the GPU: max_j ||b_j - A x_j||_inf /
 * (normA ||x_j||_inf eps), A symmetric from its uplo triangle of dA0; B and
 * X n x nrhs with the same leading dimension ld. NaN if any entry is. */
double bench_solve_berr(cublasHandle_t handle, char uplo, int64_t n, int64_t nrhs,
                        const double *dA0, int64_t ld, const double *dB, const double *dX,
                        double normA);

const char *bench_field(char *text, const char *format, double value, double scale);

/* A CSV number followed by ',', or just ',' when not measured (<= 0). */
void bench_csv_num(FILE *f, double value);

/* Opens path for writing and writes the header line (header + "\n"); exits
 * with a message when the file cannot be written. NULL path: returns NULL. */
FILE *bench_csv_open(const char *path, const char *header);

/* ---------------------------------------------------------------------------
 * Timelines (bench_util_trace.c) of gchol_trace_t events.
 * ------------------------------------------------------------------------- */
typedef struct {
    double total_ms;   /* the last event's end                              */
    double busy_ms[2]; /* the time stream 0 / stream 1 has an event running */
    double both_ms;    /* the time both have                                */
} bench_trace_summary_t;
bench_trace_summary_t bench_trace_summary(const gchol_trace_event_t *events, int64_t count);
/* "potrf", "trsm", "syrk", "gemm", "bcast", "gather", "copy" (gchol_op_t), else "other". */
const char *bench_trace_op_name(int op);
/* The events as CSV (stream,op,block,m,n,k,start_ms,end_ms); 0, or -1 when
 * the file cannot be written. */
int bench_trace_csv(const gchol_trace_event_t *events, int64_t count, const char *path);

#endif /* GCHOL_BENCH_UTIL_H */
