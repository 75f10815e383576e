/*
 * testing_common.c -- helpers shared by the gchol testers (see the header).
 *
 * Uses the CUDA runtime and cuBLAS C APIs for the device side, OpenBLAS
 * (cblas) and LAPACKE for the CPU references. Every residual is in double.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>
#include <cublas_v2.h>
#include <cblas.h>
#include <lapacke.h>

#include "testing_common.h"

/* ===========================================================================
 * Results counter.
 * ========================================================================= */
static int64_t g_count[3]; /* indexed by testing_result_t */

/* Counts one case. */
testing_result_t testing_record(testing_result_t result)
{
    g_count[result]++;
    return result;
}

int64_t testing_count(testing_result_t result) { return g_count[result]; }

/* Text for a result, as the case lines print it. */
const char *testing_result_name(testing_result_t result)
{
    return result == TESTING_PASSED ? "ok"
         : result == TESTING_FAILED ? "FAILED" : "skipped";
}

/* Records one check and prints it. */
testing_result_t testing_expect(int cond, const char *fmt, ...)
{
    va_list ap;
    testing_result_t r = cond ? TESTING_PASSED : TESTING_FAILED;
    printf("  %-7s ", testing_result_name(r));
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    return testing_record(r);
}

/* Prints the one SUMMARY line; exit status 1 if any case failed. */
int testing_summary(void)
{
    printf("SUMMARY passed=%lld failed=%lld skipped=%lld\n",
           (long long)g_count[TESTING_PASSED], (long long)g_count[TESTING_FAILED],
           (long long)g_count[TESTING_SKIPPED]);
    fflush(stdout);
    return g_count[TESTING_FAILED] ? 1 : 0;
}

/* ===========================================================================
 * Command line, time, environment.
 * ========================================================================= */

/* Parses one decimal integer; *end is set past it. */
static int parse_int(const char *s, const char **end, int64_t *value)
{
    char *e;
    errno = 0;
    long long v = strtoll(s, &e, 10);
    if (e == s || errno)
        return -1;
    *value = (int64_t)v;
    *end = e;
    return 0;
}

/* Appends v to a growing array. */
static int push_size(int64_t **a, int64_t *count, int64_t *cap, int64_t v)
{
    if (*count == *cap) {
        int64_t ncap = *cap ? 2 * *cap : 16;
        int64_t *b = realloc(*a, (size_t)ncap * sizeof(int64_t));
        if (!b)
            return -1;
        *a = b;
        *cap = ncap;
    }
    (*a)[(*count)++] = v;
    return 0;
}

/* "N", "a,b,c", "start:stop[:step]" and comma lists of those. */
int testing_parse_sizes(const char *spec, int64_t **sizes, int64_t *count)
{
    int64_t *a = NULL, cap = 0, cnt = 0;
    const char *p = spec;
    *sizes = NULL;
    *count = 0;
    if (!spec || !*spec)
        return -1;
    for (;;) {
        int64_t start, stop, step = 1;
        const char *e;
        if (parse_int(p, &e, &start) || start < 0)
            goto bad;
        stop = start;
        if (*e == ':') {
            if (parse_int(e + 1, &e, &stop) || stop < start)
                goto bad;
            if (*e == ':' && (parse_int(e + 1, &e, &step) || step <= 0))
                goto bad;
        }
        for (int64_t v = start; v <= stop; v += step)
            if (push_size(&a, &cnt, &cap, v))
                goto bad;
        if (*e == '\0')
            break;
        if (*e != ',')
            goto bad;
        p = e + 1;
    }
    *sizes = a;
    *count = cnt;
    return 0;
bad:
    free(a);
    return -1;
}

/* Monotonic wall clock in seconds. */
double testing_wtime(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double testing_median(double *v, int64_t count)
{
    qsort(v, (size_t)count, sizeof(double), cmp_double);
    return v[count / 2];
}

/* 1 when cudaGetDeviceCount succeeds with at least one device. */
int testing_have_gpu(void)
{
    static int cached = -1;
    if (cached < 0) {
        int count = 0;
        cudaError_t err = cudaGetDeviceCount(&count);
        cached = (err == cudaSuccess && count > 0) ? 1 : 0;
        (void)cudaGetLastError(); /* clear a sticky "no device" error */
    }
    return cached;
}

int testing_table_can_run(gchol_queue_t queue)
{
    if (!testing_have_gpu()) {
        printf("no GPU: table skipped\n");
        testing_record(TESTING_SKIPPED);
        return 0;
    }
    if (!queue) {
        testing_record(TESTING_FAILED);
        return 0;
    }
    return 1;
}

/* LAPACK's ?lamch('E'). */
double testing_eps(char prec)
{
    return prec == 's' ? (double)FLT_EPSILON / 2 : DBL_EPSILON / 2;
}

size_t testing_elsize(char prec)
{
    return prec == 's' ? sizeof(float) : sizeof(double);
}

double testing_potrf_flops(int64_t n)
{
    double x = (double)n;
    return x * x * x / 3.0 + x * x / 2.0 + x / 6.0;
}

gchol_options_t testing_options(int variant, int lookahead, int64_t nb,
                                int64_t recnb)
{
    gchol_options_t o;
    gchol_options_default(&o);
    o.variant = variant;
    o.lookahead = lookahead;
    o.nb = nb;
    o.recnb = recnb;
    return o;
}

/* Reports a failed CUDA runtime call. */
int testing_cuda_failed(int status, const char *call, const char *file, int line)
{
    if (status == (int)cudaSuccess)
        return 0;
    fprintf(stdout, "    CUDA error %d (%s) in %s at %s:%d\n", status,
            cudaGetErrorString((cudaError_t)status), call, file, line);
    return 1;
}

/* Reports a failed cuBLAS call. */
int testing_cublas_failed(int status, const char *call, const char *file, int line)
{
    if (status == (int)CUBLAS_STATUS_SUCCESS)
        return 0;
    fprintf(stdout, "    cuBLAS error %d in %s at %s:%d\n", status, call, file, line);
    return 1;
}

/* ===========================================================================
 * Random numbers and matrices.
 * ========================================================================= */

/* splitmix64 finalizer. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* 53 random bits to uniform(-1, 1). */
static double bits_to_uniform(uint64_t x)
{
    return 2.0 * ((double)(x >> 11) * 0x1.0p-53) - 1.0;
}

void testing_rng_seed(testing_rng_t *rng, uint64_t seed)
{
    rng->state = seed;
}

uint64_t testing_rng_next(testing_rng_t *rng)
{
    rng->state += 0x9E3779B97F4A7C15ull;
    return mix64(rng->state);
}

double testing_rng_uniform(testing_rng_t *rng)
{
    return bits_to_uniform(testing_rng_next(rng));
}

double testing_hash_uniform(uint64_t seed, int64_t i, int64_t j)
{
    uint64_t key = mix64(seed + 0x9E3779B97F4A7C15ull)
                 ^ ((uint64_t)i * 0xD6E8FEB86659FD93ull)
                 ^ ((uint64_t)j * 0xC2B2AE3D27D4EB4Full + 0x165667B19E3779F9ull);
    return bits_to_uniform(mix64(key));
}

/* Rows of column j inside the referenced triangle: [*lo, *hi). */
static void triangle_rows(char uplo, int64_t n, int64_t j, int64_t *lo, int64_t *hi)
{
    if (uplo == 'L' || uplo == 'l') {
        *lo = j;
        *hi = n;
    } else {
        *lo = 0;
        *hi = j + 1;
    }
}

/* Value of the test matrix at (i, j): symmetric in (i, j). */
static double spd_entry(uint64_t seed, int64_t n, int64_t i, int64_t j)
{
    int64_t hi = i > j ? i : j, lo = i > j ? j : i;
    return testing_hash_uniform(seed, hi, lo) + (i == j ? (double)n : 0.0);
}

void testing_generate_spd(char prec, char uplo, int64_t n, void *A, int64_t lda,
                          uint64_t seed)
{
    for (int64_t j = 0; j < n; j++) {
        int64_t lo, hi;
        triangle_rows(uplo, n, j, &lo, &hi);
        if (prec == 's') {
            float *col = (float *)A + j * lda;
            for (int64_t i = lo; i < hi; i++)
                col[i] = (float)spd_entry(seed, n, i, j);
        } else {
            double *col = (double *)A + j * lda;
            for (int64_t i = lo; i < hi; i++)
                col[i] = spd_entry(seed, n, i, j);
        }
    }
}

void testing_fill_nan(char prec, int64_t count, void *A)
{
    /* quiet NaNs whose payloads differ from element to element, so that a
     * byte comparison also catches elements moved to the wrong place */
    for (int64_t i = 0; i < count; i++) {
        const uint64_t tag = ((uint64_t)i * 2654435761u) ^ ((uint64_t)i >> 7);
        if (prec == 's') {
            const uint32_t bits = 0x7fc00000u | (uint32_t)(tag & 0x3fffffu);
            memcpy((float *)A + i, &bits, sizeof bits);
        } else {
            const uint64_t bits = 0x7ff8000000000000ull | (tag & 0x7ffffffffffffull);
            memcpy((double *)A + i, &bits, sizeof bits);
        }
    }
}

double testing_get(char prec, const void *A, int64_t lda, int64_t i, int64_t j)
{
    return prec == 's' ? (double)((const float *)A)[i + j * lda]
                       : ((const double *)A)[i + j * lda];
}

void testing_set(char prec, void *A, int64_t lda, int64_t i, int64_t j, double v)
{
    if (prec == 's')
        ((float *)A)[i + j * lda] = (float)v;
    else
        ((double *)A)[i + j * lda] = v;
}

/* Elements in [lo, hi) of one column whose bytes differ. */
static int64_t count_diff_range(size_t es, const unsigned char *a,
                                const unsigned char *b, int64_t lo, int64_t hi)
{
    int64_t bad = 0;
    if (hi <= lo || !memcmp(a + lo * es, b + lo * es, (size_t)(hi - lo) * es))
        return 0;
    for (int64_t i = lo; i < hi; i++)
        bad += memcmp(a + i * es, b + i * es, es) != 0;
    return bad;
}

int64_t testing_count_untouched_violations(char prec, char uplo, int64_t n,
                                           const void *A, const void *saved,
                                           int64_t lda)
{
    size_t es = testing_elsize(prec);
    int64_t bad = 0;
    for (int64_t j = 0; j < n; j++) {
        const unsigned char *a = (const unsigned char *)A + (size_t)(j * lda) * es;
        const unsigned char *s = (const unsigned char *)saved + (size_t)(j * lda) * es;
        int64_t lo, hi;
        triangle_rows(uplo, n, j, &lo, &hi);
        bad += count_diff_range(es, a, s, 0, lo);   /* other triangle ('L')  */
        bad += count_diff_range(es, a, s, hi, n);   /* other triangle ('U')  */
        bad += count_diff_range(es, a, s, n, lda);  /* padding rows          */
    }
    return bad;
}

void testing_fill_value(char prec, int64_t count, void *A, double v)
{
    if (prec == 's') {
        float *a = A, fv = (float)v;
        for (int64_t i = 0; i < count; i++)
            a[i] = fv;
    } else {
        double *a = A;
        for (int64_t i = 0; i < count; i++)
            a[i] = v;
    }
}

int64_t testing_count_diff(char prec, int64_t count, const void *A, const void *B)
{
    size_t es = testing_elsize(prec);
    if (count <= 0)
        return 0;
    return count_diff_range(es, (const unsigned char *)A, (const unsigned char *)B, 0, count);
}

void testing_to_double(char prec, int64_t m, int64_t n, const void *A, int64_t lda,
                       double *D, int64_t ldd)
{
    for (int64_t j = 0; j < n; j++) {
        double *dcol = D + j * ldd;
        if (prec == 's') {
            const float *a = (const float *)A + j * lda;
            for (int64_t i = 0; i < m; i++)
                dcol[i] = (double)a[i];
        } else {
            const double *a = (const double *)A + j * lda;
            for (int64_t i = 0; i < m; i++)
                dcol[i] = a[i];
        }
    }
}

int64_t testing_rfp_size(int64_t n)
{
    return n > 0 ? n * (n + 1) / 2 : 0;
}

/* A = B*B^T/rank + mu*I, B n x rank uniform(-1,1), formed in double and
 * written to `part`: 'L' or 'U' (that triangle, diagonal included) or 'B'
 * (both). Returns 0, or -1 if out of memory. */
static int gram_into(char prec, char part, int64_t n, void *A, int64_t lda, int64_t rank,
                     double mu, uint64_t seed)
{
    double *B, *G;
    if (n <= 0)
        return 0;
    if (rank < 1)
        rank = 1;
    B = malloc((size_t)(n * rank) * sizeof(double));
    G = calloc((size_t)(n * n), sizeof(double));
    if (!B || !G) {
        free(B);
        free(G);
        return -1;
    }
    for (int64_t j = 0; j < rank; j++)
        for (int64_t i = 0; i < n; i++)
            B[i + j * n] = testing_hash_uniform(seed, i, j);
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (blasint)n, (blasint)rank,
                1.0 / (double)rank, B, (blasint)n, 0.0, G, (blasint)n);
    for (int64_t j = 0; j < n; j++) {
        G[j + j * n] += mu;
        for (int64_t i = j; i < n; i++) {
            if (part != 'U')
                testing_set(prec, A, lda, i, j, G[i + j * n]);
            if (part != 'L')
                testing_set(prec, A, lda, j, i, G[i + j * n]);
        }
    }
    free(B);
    free(G);
    return 0;
}

int testing_generate_gram_spd(char prec, int64_t n, void *A, int64_t lda, double mu,
                              uint64_t seed)
{
    return gram_into(prec, 'B', n, A, lda, n, mu, seed);
}

int testing_generate_lowrank_spd(char prec, char uplo, int64_t n, void *A, int64_t lda,
                                 int64_t rank, double mu, uint64_t seed)
{
    return gram_into(prec, uplo == 'U' ? 'U' : 'L', n, A, lda, rank, mu, seed);
}

/* ===========================================================================
 * References and checks.
 * ========================================================================= */

/* Converts the referenced triangle of columns j0..j0+jb-1 of the n x n
 * matrix (precision prec) into W (double). A and W both point at column j0.
 * Other entries of W are not written. */
static void triangle_to_double(char prec, char uplo, int64_t n, int64_t j0,
                               int64_t jb, const void *A, int64_t lda,
                               double *W, int64_t ldw)
{
    for (int64_t j = j0; j < j0 + jb; j++) {
        int64_t lo, hi;
        double *w = W + (j - j0) * ldw;
        triangle_rows(uplo, n, j, &lo, &hi);
        if (prec == 's') {
            const float *a = (const float *)A + (j - j0) * lda;
            for (int64_t i = lo; i < hi; i++)
                w[i] = (double)a[i];
        } else {
            const double *a = (const double *)A + (j - j0) * lda;
            for (int64_t i = lo; i < hi; i++)
                w[i] = a[i];
        }
    }
}

/* Adds |W| of columns j0..j0+jb-1 (a triangle of a symmetric matrix, W's
 * column 0 is column j0) to the symmetric column sums; flags NaN. */
static void sym_colsum_add(char uplo, int64_t n, int64_t j0, int64_t jb,
                           const double *W, int64_t ldw, double *colsum,
                           int *has_nan)
{
    for (int64_t j = j0; j < j0 + jb; j++) {
        int64_t lo, hi;
        const double *w = W + (j - j0) * ldw;
        triangle_rows(uplo, n, j, &lo, &hi);
        for (int64_t i = lo; i < hi; i++) {
            double v = fabs(w[i]);
            if (isnan(v))
                *has_nan = 1;
            colsum[j] += v;
            if (i != j)
                colsum[i] += v;
        }
    }
}

/* max of the column sums, NaN when flagged. */
static double colsum_max(int64_t n, const double *colsum, int has_nan)
{
    double m = 0;
    if (has_nan)
        return NAN;
    for (int64_t j = 0; j < n; j++)
        m = colsum[j] > m ? colsum[j] : m;
    return m;
}

/* ||A||_1 of a symmetric matrix stored as a host triangle. */
static double sym_norm1_host(char prec, char uplo, int64_t n, const void *A,
                             int64_t lda, double *colsum, double *work_col)
{
    int has_nan = 0;
    memset(colsum, 0, (size_t)n * sizeof(double));
    for (int64_t j = 0; j < n; j++) {
        const char *col = (const char *)A + (size_t)(j * lda) * testing_elsize(prec);
        triangle_to_double(prec, uplo, n, j, 1, col, lda, work_col, n);
        sym_colsum_add(uplo, n, j, 1, work_col, n, colsum, &has_nan);
    }
    return colsum_max(n, colsum, has_nan);
}

/* Scales ||R||_1 into the LAPACK residual. */
static double scaled_residual(char prec, int64_t n, double normR, double normA)
{
    if (isnan(normR) || isnan(normA))
        return NAN;
    return normR / ((double)n * (normA > 0 ? normA : 1.0) * testing_eps(prec));
}

double testing_residual_cpu(char prec, char uplo, int64_t n,
                            const void *A, int64_t lda,
                            const void *L, int64_t ldl)
{
    double *W, *Ld, *colsum, normA, normR, resid;
    int has_nan = 0, lower = (uplo == 'L' || uplo == 'l');
    if (n <= 0)
        return 0;
    W = calloc((size_t)(n * n), sizeof(double));
    Ld = calloc((size_t)(n * n), sizeof(double));
    colsum = calloc((size_t)n, sizeof(double));
    if (!W || !Ld || !colsum) {
        free(W); free(Ld); free(colsum);
        return -1;
    }
    normA = sym_norm1_host(prec, uplo, n, A, lda, colsum, W);
    memset(W, 0, (size_t)n * sizeof(double));
    triangle_to_double(prec, uplo, n, 0, n, A, lda, W, n);
    triangle_to_double(prec, uplo, n, 0, n, L, ldl, Ld, n);
    /* W = A - L*L^T ('L') or A - U^T*U ('U'), referenced triangle only. */
    cblas_dsyrk(CblasColMajor, lower ? CblasLower : CblasUpper,
                lower ? CblasNoTrans : CblasTrans, (blasint)n, (blasint)n,
                -1.0, Ld, (blasint)n, 1.0, W, (blasint)n);
    memset(colsum, 0, (size_t)n * sizeof(double));
    sym_colsum_add(uplo, n, 0, n, W, n, colsum, &has_nan);
    normR = colsum_max(n, colsum, has_nan);
    resid = scaled_residual(prec, n, normR, normA);
    free(W); free(Ld); free(colsum);
    return resid;
}

/* Uploads the referenced triangle of columns [j0, j0+jb) of a host matrix of
 * precision prec (A points at column j0) as double, other triangle zero, into
 * dW (ld n). */
static int upload_triangle_block(char prec, char uplo, int64_t n, int64_t j0,
                                 int64_t jb, const void *A, int64_t lda,
                                 double *stage, double *dW)
{
    memset(stage, 0, (size_t)(n * jb) * sizeof(double));
    triangle_to_double(prec, uplo, n, j0, jb, A, lda, stage, n);
    return TESTING_CUDA(cudaMemcpy(dW + j0 * n, stage, (size_t)(n * jb) * sizeof(double),
                                   cudaMemcpyHostToDevice)) ? -1 : 0;
}

int testing_residual_gpu(char prec, char uplo, int64_t n,
                         const void *A, int64_t lda,
                         const void *dL, int64_t lddl, double *resid)
{
    const int64_t nb = 256;
    size_t es = testing_elsize(prec);
    int lower = (uplo == 'L' || uplo == 'l'), has_nan = 0, rc = -1;
    double *dW = NULL, *dLd = NULL, *stage = NULL, *colsum = NULL;
    void *lstage = NULL;
    cublasHandle_t handle = NULL;
    double minus_one = -1.0, one = 1.0, normA, normR;

    *resid = 0;
    if (n <= 0)
        return 0;
    stage = malloc((size_t)(n * nb) * sizeof(double));
    lstage = malloc((size_t)(n * nb) * es);
    colsum = calloc((size_t)n, sizeof(double));
    if (!stage || !lstage || !colsum)
        goto cleanup;
    if (TESTING_CUDA(cudaMalloc((void **)&dW, (size_t)(n * n) * sizeof(double))) ||
        TESTING_CUDA(cudaMalloc((void **)&dLd, (size_t)(n * n) * sizeof(double))) ||
        TESTING_CUBLAS(cublasCreate(&handle)))
        goto cleanup;

    /* dW = A and dLd = L (other triangles zero), column block by block. */
    for (int64_t j0 = 0; j0 < n; j0 += nb) {
        int64_t jb = n - j0 < nb ? n - j0 : nb;
        if (upload_triangle_block(prec, uplo, n, j0, jb,
                                  (const char *)A + (size_t)(j0 * lda) * es, lda, stage, dW))
            goto cleanup;
        if (testing_copy_d2h(es, n, jb, (const char *)dL + (size_t)(j0 * lddl) * es,
                             lddl, lstage, n))
            goto cleanup;
        if (upload_triangle_block(prec, uplo, n, j0, jb, lstage, n, stage, dLd))
            goto cleanup;
    }
    if (TESTING_CUBLAS(cublasDsyrk_64(handle, lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
                                      lower ? CUBLAS_OP_N : CUBLAS_OP_T, n, n, &minus_one,
                                      dLd, n, &one, dW, n)) ||
        TESTING_CUDA(cudaDeviceSynchronize()))
        goto cleanup;

    /* ||A - L L^T||_1 from the downloaded triangle of dW. */
    for (int64_t j0 = 0; j0 < n; j0 += nb) {
        int64_t jb = n - j0 < nb ? n - j0 : nb;
        if (TESTING_CUDA(cudaMemcpy(stage, dW + j0 * n, (size_t)(n * jb) * sizeof(double),
                                    cudaMemcpyDeviceToHost)))
            goto cleanup;
        sym_colsum_add(uplo, n, j0, jb, stage, n, colsum, &has_nan);
    }
    normR = colsum_max(n, colsum, has_nan);
    normA = sym_norm1_host(prec, uplo, n, A, lda, colsum, stage);
    *resid = scaled_residual(prec, n, normR, normA);
    rc = 0;
cleanup:
    if (handle)
        cublasDestroy(handle);
    cudaFree(dW);
    cudaFree(dLd);
    free(stage);
    free(lstage);
    free(colsum);
    return rc;
}

int testing_residual(char prec, char uplo, int64_t n,
                     const void *A, int64_t lda,
                     const void *L, int64_t ldl,
                     const void *dL, int64_t lddl, double *resid)
{
    size_t es = testing_elsize(prec);
    int use_gpu = n > TESTING_GPU_RESIDUAL_MIN_N && testing_have_gpu();
    int rc = -1;
    void *tmp = NULL;

    if (use_gpu && dL)
        return testing_residual_gpu(prec, uplo, n, A, lda, dL, lddl, resid);
    if (!use_gpu && L) {
        *resid = testing_residual_cpu(prec, uplo, n, A, lda, L, ldl);
        return *resid == -1 ? -1 : 0;
    }
    if (use_gpu) { /* only a host factor: upload it */
        if (TESTING_CUDA(cudaMalloc(&tmp, (size_t)(ldl * n) * es)))
            return -1;
        if (!testing_copy_h2d(es, n, n, L, ldl, tmp, ldl))
            rc = testing_residual_gpu(prec, uplo, n, A, lda, tmp, ldl, resid);
        cudaFree(tmp);
        return rc;
    }
    if (!dL || !(tmp = malloc((size_t)(lddl * n) * es))) /* download it */
        return -1;
    if (!testing_copy_d2h(es, n, n, dL, lddl, tmp, lddl)) {
        *resid = testing_residual_cpu(prec, uplo, n, A, lda, tmp, lddl);
        rc = *resid == -1 ? -1 : 0;
    }
    free(tmp);
    return rc;
}

int64_t testing_reference_factor(char prec, char uplo, int64_t n, int64_t ncols,
                                 const void *A, int64_t lda,
                                 double *R, int64_t ldr)
{
    int lower = (uplo == 'L' || uplo == 'l');
    int64_t info = 0;
    for (int64_t j = 0; j < n; j++)
        memset(R + j * ldr, 0, (size_t)n * sizeof(double));
    triangle_to_double(prec, uplo, n, 0, n, A, lda, R, ldr);
    if (ncols <= 0)
        return 0;
    LAPACKE_set_nancheck(0);
    info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, lower ? 'L' : 'U', (lapack_int)ncols,
                          R, (lapack_int)ldr);
    if (info != 0 || ncols >= n)
        return info;
    if (lower) /* L21 = A21 * L11^{-T} */
        cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit,
                    (blasint)(n - ncols), (blasint)ncols, 1.0, R, (blasint)ldr,
                    R + ncols, (blasint)ldr);
    else       /* U12 = U11^{-T} * A12 */
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit,
                    (blasint)ncols, (blasint)(n - ncols), 1.0, R, (blasint)ldr,
                    R + ncols * ldr, (blasint)ldr);
    return 0;
}

double testing_factor_diff(char prec, char uplo, int64_t n, int64_t ncols,
                           const void *L, int64_t ldl,
                           const double *R, int64_t ldr)
{
    double maxdiff = 0, maxref = 0;
    for (int64_t j = 0; j < ncols; j++) {
        int64_t lo, hi;
        triangle_rows(uplo, n, j, &lo, &hi);
        for (int64_t i = lo; i < hi; i++) {
            double l = testing_get(prec, L, ldl, i, j), r = R[i + j * ldr];
            double d = fabs(l - r);
            if (isnan(d))
                return NAN;
            maxdiff = d > maxdiff ? d : maxdiff;
            maxref = fabs(r) > maxref ? fabs(r) : maxref;
        }
    }
    return maxdiff / (maxref > 0 ? maxref : 1.0);
}

int64_t testing_lapacke_info(char prec, char uplo, int64_t n,
                             const void *A, int64_t lda)
{
    size_t bytes = (size_t)(lda * (n > 0 ? n : 1)) * testing_elsize(prec);
    void *C = malloc(bytes);
    int64_t info;
    if (!C)
        return -1;
    memcpy(C, A, bytes);
    LAPACKE_set_nancheck(0);
    info = prec == 's'
         ? LAPACKE_spotrf(LAPACK_COL_MAJOR, uplo, (lapack_int)n, C, (lapack_int)lda)
         : LAPACKE_dpotrf(LAPACK_COL_MAJOR, uplo, (lapack_int)n, C, (lapack_int)lda);
    free(C);
    return info;
}

/* Unblocked upper Cholesky (netlib dpotf2) of U (ld n, holding A's upper
 * triangle); returns the first j (1-based) with pivot <= 0 or NaN. */
static int64_t potf2_upper_info(int64_t n, double *U)
{
    for (int64_t j = 0; j < n; j++) {
        double *uj = U + j * n;
        double ajj = uj[j] - cblas_ddot((blasint)j, uj, 1, uj, 1);
        if (ajj <= 0 || isnan(ajj))
            return j + 1;
        ajj = sqrt(ajj);
        uj[j] = ajj;
        if (j + 1 < n) {
            cblas_dgemv(CblasColMajor, CblasTrans, (blasint)j, (blasint)(n - j - 1),
                        -1.0, U + (j + 1) * n, (blasint)n, uj, 1,
                        1.0, U + j + (j + 1) * n, (blasint)n);
            cblas_dscal((blasint)(n - j - 1), 1.0 / ajj, U + j + (j + 1) * n, (blasint)n);
        }
    }
    return 0;
}

int64_t testing_reference_info(char prec, char uplo, int64_t n,
                               const void *A, int64_t lda)
{
    double *U = calloc((size_t)(n > 0 ? n * n : 1), sizeof(double));
    int64_t info;
    if (!U)
        return -1;
    /* U = A's upper triangle (the transpose of the lower one for 'L'). */
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i <= j; i++)
            U[i + j * n] = (uplo == 'L' || uplo == 'l') ? testing_get(prec, A, lda, j, i)
                                                        : testing_get(prec, A, lda, i, j);
    info = potf2_upper_info(n, U);
    free(U);
    return info;
}

/* ===========================================================================
 * Device helpers.
 * ========================================================================= */
static int copy_2d(size_t es, int64_t m, int64_t n, const void *src, int64_t ld_src,
                   void *dst, int64_t ld_dst, enum cudaMemcpyKind kind)
{
    if (m <= 0 || n <= 0)
        return 0;
    return TESTING_CUDA(cudaMemcpy2D(dst, (size_t)ld_dst * es, src, (size_t)ld_src * es,
                                     (size_t)m * es, (size_t)n, kind)) ? -1 : 0;
}

int testing_copy_h2d(size_t es, int64_t m, int64_t n,
                     const void *src, int64_t ld_src, void *dst, int64_t ld_dst)
{
    return copy_2d(es, m, n, src, ld_src, dst, ld_dst, cudaMemcpyHostToDevice);
}

int testing_copy_d2h(size_t es, int64_t m, int64_t n,
                     const void *src, int64_t ld_src, void *dst, int64_t ld_dst)
{
    return copy_2d(es, m, n, src, ld_src, dst, ld_dst, cudaMemcpyDeviceToHost);
}

gchol_queue_t testing_fake_queue(void)
{
    static _Alignas(64) unsigned char fake[1 << 16];
    return (gchol_queue_t)(void *)fake;
}

gchol_queue_t testing_queue_or_null(void)
{
    gchol_queue_t q = NULL;
    if (!testing_have_gpu())
        return NULL;
    int64_t st = gchol_queue_create(-1, &q);
    if (st != 0) {
        printf("gchol_queue_create failed: %lld (%s): GPU cases will fail\n", (long long)st,
               gchol_strerror(st));
        return NULL;
    }
    return q;
}
