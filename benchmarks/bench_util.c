/*
 * bench_util.c -- status checks, device buffers, host matrices and table /
 * CSV fields of the benchmarks (bench_util.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    char why[256];
    if (testing_gpu_status(why, sizeof why) != TESTING_GPU_OK) {
        fprintf(stderr, "%s: a CUDA GPU is required: %s.\n", program, why);
        exit(2);
    }
    int count = 0;
    BENCH_CUDA(cudaGetDeviceCount(&count));
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

cudaDataType bench_cuda_type(char prec) { return prec == 'd' ? CUDA_R_64F : CUDA_R_32F; }

bench_scalar_t bench_scalar(char prec, double value)
{
    bench_scalar_t v;
    if (prec == 'd') v.d = value; else v.s = (float) value;
    return v;
}

double bench_scalar_value(char prec, bench_scalar_t v)
{
    return prec == 'd' ? v.d : (double) v.s;
}

/* ===========================================================================
 * Host matrices
 * ========================================================================= */

void *bench_spd_host(char prec, int64_t n, int64_t lda, uint64_t seed)
{
    void *A = bench_malloc((size_t) lda * n * testing_elsize(prec));
    testing_generate_spd(prec, 'A', n, A, lda, seed);
    return A;
}

void *bench_random_host(char prec, int64_t m, int64_t n, int64_t lda, uint64_t seed,
                        double lo, double hi)
{
    void *A = bench_malloc((size_t) lda * n * testing_elsize(prec));
    testing_generate_random(prec, m, n, A, lda, seed, lo, hi);
    return A;
}

typedef struct { size_t rowbytes; const char *A; size_t lda; char *B; size_t ldb; } copy_job_t;

static void copy_columns(void *p, int64_t j0, int64_t j1)
{
    const copy_job_t *job = p;
    for (int64_t j = j0; j < j1; ++j)
        memcpy(job->B + j * job->ldb, job->A + j * job->lda, job->rowbytes);
}

void bench_host_copy(char prec, int64_t m, int64_t n, const void *A, int64_t lda,
                     void *B, int64_t ldb)
{
    const size_t es = testing_elsize(prec);
    copy_job_t job = { m * es, A, lda * es, B, ldb * es };
    testing_parallel_for(n, copy_columns, &job);
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
    const size_t es = testing_elsize(prec);
    *ldda = bench_ldda(m);
    void *dA = bench_device_malloc((size_t) *ldda * n * es);
    BENCH_CUDA(cudaMemcpy2D(dA, *ldda * es, A, lda * es, m * es, n, cudaMemcpyHostToDevice));
    return dA;
}

void bench_device_copy(char prec, int64_t m, int64_t n, const void *dA, int64_t ldda,
                       void *dB, int64_t lddb, cudaStream_t stream)
{
    const size_t es = testing_elsize(prec);
    BENCH_CUDA(cudaMemcpy2DAsync(dB, lddb * es, dA, ldda * es, m * es, n,
                                 cudaMemcpyDeviceToDevice, stream));
    BENCH_CUDA(cudaStreamSynchronize(stream));
}

size_t bench_potrf_bytes(char prec, int64_t n, int nmatrices)
{
    const size_t es = testing_elsize(prec);
    return (size_t) nmatrices * bench_ldda(n) * n * es   /* the matrices          */
         + (size_t) n * 1024 * es                        /* panels and workspaces */
         + ((size_t) 512 << 20);                         /* contexts, cuSOLVER    */
}

/* ===========================================================================
 * Timing
 * ========================================================================= */

void bench_timer_create(testing_timer_t *t, cudaStream_t stream)
{
    BENCH_CUDA(testing_timer_create(t, stream));
}

void bench_timer_destroy(testing_timer_t *t) { BENCH_CUDA(testing_timer_destroy(t)); }

void bench_timer_start(testing_timer_t *t) { BENCH_CUDA(testing_timer_start(t)); }

double bench_timer_stop(testing_timer_t *t)
{
    double seconds = 0.0;
    BENCH_CUDA(testing_timer_stop(t, &seconds));
    return seconds;
}

double bench_potrf_tflops(int64_t n, double seconds)
{
    return testing_tflops(testing_flops_potrf(n), seconds);
}

/* ===========================================================================
 * Tables and CSV
 * ========================================================================= */

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

FILE *bench_csv_open(const char *path, const char *header)
{
    if (path == NULL) return NULL;
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        exit(EXIT_FAILURE);
    }
    /* a row a line, so that a run stopped part way keeps the rows it finished */
    setvbuf(f, NULL, _IOLBF, 0);
    fprintf(f, "%s\n", header);
    return f;
}
