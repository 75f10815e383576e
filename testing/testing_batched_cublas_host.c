/*
 * testing_batched_cublas_host.c -- host-side test of the batched Cholesky
 * by block columns on cuBLAS's products (src/potrf_batched_cublas.c, both
 * precisions) with cuBLAS, the CUDA runtime and gchol's launchers mocked:
 * each batched product a loop of column-major products in double, each
 * launcher its documented semantics (kernels/gchol_kernels.h), the
 * diagonal blocks by LAPACK. So the driver's offsets, operands, triangles
 * and chunks are checked against LAPACK without a GPU: it runs in CI.
 *
 * For both triangles, both forms (strided, arrays of pointers), orders 65
 * to 200 and block columns of 16, 31, 32 and 64 (run at the panel's
 * largest width, 32), batches with matrices that
 * are not positive definite at a chosen column, padded leading dimensions
 * and gaps between matrices (NaN), the other triangle poisoned: the factor
 * as LAPACK's (relative difference below 1e-10 in double, 1e-3 in single),
 * each info as LAPACK's, nothing outside the triangles written. Then the
 * batch by chunks (a small workspace cap), and each workspace allocation
 * failing in turn: no room reported, nothing written. All of it with the
 * panel step in two launches and in one (the whole panel's sums), and
 * with the last columns as one trailing matrix on the live tiles kernel
 * (mocked by LAPACK), also where that kernel does not fit the device.
 */
#include "../src/potrf_batched_cublas.h"
#include "../src/queue.h"
#include "../src/test_hooks.h"
#include "util.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the mocks ------------------------------------------------------------- */
static gchol_test_hooks_t g_hooks;
static int g_allocs, g_fail_at;
static long g_products;

const gchol_test_hooks_t *gchol_test_hooks(void) { return &g_hooks; }
cudaError_t gchol_dev_malloc_async(void **p, size_t bytes, cudaMemPool_t pool, cudaStream_t s)
{
    (void)pool;
    (void)s;
    if (++g_allocs == g_fail_at) { *p = NULL; return cudaErrorMemoryAllocation; }
    *p = malloc(bytes ? bytes : 1);
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaFreeAsync(void *p, cudaStream_t s) { (void)s; free(p); return cudaSuccess; }
cudaError_t cudaMemsetAsync(void *p, int v, size_t bytes, cudaStream_t s)
{
    (void)s;
    memset(p, v, bytes);
    return cudaSuccess;
}

/* C := alpha op(A) op(B) + beta C, one matrix, sums in double. */
#define GEMM_ONE(T)                                                                            \
    static void gemm_one_##T(cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,  \
                             int64_t k, T alpha, const T *A, int64_t lda, const T *B,          \
                             int64_t ldb, T beta, T *C, int64_t ldc)                           \
    {                                                                                          \
        for (int64_t j = 0; j < n; ++j)                                                        \
            for (int64_t i = 0; i < m; ++i) {                                                  \
                double s = 0;                                                                  \
                for (int64_t l = 0; l < k; ++l)                                                \
                    s += (double)(ta == CUBLAS_OP_N ? A[i + l * lda] : A[l + i * lda]) *       \
                         (double)(tb == CUBLAS_OP_N ? B[l + j * ldb] : B[j + l * ldb]);        \
                /* beta 0: C not read, as cuBLAS */                                           \
                C[i + j * ldc] = (T)((double)alpha * s +                                       \
                                     (beta == 0 ? 0 : (double)beta * (double)C[i + j * ldc])); \
            }                                                                                  \
        g_products++;                                                                          \
    }
GEMM_ONE(double)
GEMM_ONE(float)

#define CUBLAS_MOCKS(T, P)                                                                     \
    cublasStatus_t cublas##P##gemmBatched_64(                                                  \
        cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,    \
        int64_t k, const T *alpha, const T *const A[], int64_t lda, const T *const B[],        \
        int64_t ldb, const T *beta, T *const C[], int64_t ldc, int64_t count)                  \
    {                                                                                          \
        (void)h;                                                                               \
        for (int64_t b = 0; b < count; ++b)                                                    \
            gemm_one_##T(ta, tb, m, n, k, *alpha, A[b], lda, B[b], ldb, *beta, C[b], ldc);     \
        return CUBLAS_STATUS_SUCCESS;                                                          \
    }                                                                                          \
    cublasStatus_t cublas##P##gemmStridedBatched_64(                                           \
        cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,    \
        int64_t k, const T *alpha, const T *A, int64_t lda, long long sa, const T *B,          \
        int64_t ldb, long long sb, const T *beta, T *C, int64_t ldc, long long sc,             \
        int64_t count)                                                                         \
    {                                                                                          \
        (void)h;                                                                               \
        for (int64_t b = 0; b < count; ++b)                                                    \
            gemm_one_##T(ta, tb, m, n, k, *alpha, A + b * sa, lda, B + b * sb, ldb, *beta,     \
                         C + b * sc, ldc);                                                     \
        return CUBLAS_STATUS_SUCCESS;                                                          \
    }
CUBLAS_MOCKS(double, D)
CUBLAS_MOCKS(float, S)

/* The launchers, as kernels/gchol_kernels.h documents them. */
#define LAUNCH_MOCKS(T, p, LAPACK_POTRF)                                                       \
    int gchol_##p##batched_ptrs_launch(int64_t count, T *dA, T *const *dA_array,               \
                                       int64_t stride, const int64_t *off, int noff, T **out,  \
                                       cudaStream_t s)                                         \
    {                                                                                          \
        (void)s;                                                                               \
        if (noff < 1 || noff > GCHOL_BATCHED_PTRS_MAX) return cudaErrorInvalidValue;           \
        for (int c = 0; c < noff; ++c)                                                         \
            for (int64_t b = 0; b < count; ++b)                                                \
                out[c * count + b] = (dA_array ? dA_array[b] : dA + b * stride) + off[c];      \
        return cudaSuccess;                                                                    \
    }                                                                                          \
    int gchol_##p##batched_panel_launch(int64_t count, int64_t kb, int64_t rows, int upper,   \
                                        T *dA, T *const *dA_array, int64_t stride,             \
                                        int64_t ldda, int64_t k, const T *W, int64_t ldw,      \
                                        int64_t wstride, int fused, int64_t *dinfo,            \
                                        cudaStream_t s)                                        \
    {                                                                                          \
        (void)s;                                                                               \
        if (kb < 1 || kb > GCHOL_BATCHED_PANEL_MAX || rows < kb) return cudaErrorInvalidValue; \
        T *X = malloc((size_t)(rows * kb) * sizeof(T));                                        \
        for (int64_t b = 0; b < count; ++b) {                                                  \
            if (dinfo[b] != 0) continue;                                                       \
            T *P = (dA_array ? dA_array[b] : dA + b * stride) + k + k * ldda;                  \
            /* X := the panel's lower view plus W's sums (its top only, unless fused), */   \
            /* by columns (ld rows) */                                                        \
            const T *S = W ? W + b * wstride : NULL;                                           \
            for (int64_t c = 0; c < kb; ++c)                                                   \
                for (int64_t r = c; r < rows; ++r) {                                           \
                    const int64_t e = upper ? c + r * ldda : r + c * ldda;                      \
                    const T w = S && (fused || r < kb) ? S[upper ? c + r * ldw : r + c * ldw]   \
                                                       : (T)0;                                 \
                    X[r + c * rows] = P[e] + w;                                                \
                }                                                                              \
            const lapack_int f = LAPACK_POTRF(LAPACK_COL_MAJOR, 'L', (lapack_int)kb, X,         \
                                              (lapack_int)rows);                               \
            const int64_t good = f > 0 ? f - 1 : kb;                                           \
            for (int64_t r = kb; r < rows; ++r) /* x := x L^-T, the good columns */          \
                for (int64_t c = 0; c < good; ++c) {                                           \
                    double t = X[r + c * rows];                                                \
                    for (int64_t j = 0; j < c; ++j)                                            \
                        t -= (double)X[r + j * rows] * (double)X[c + j * rows];                \
                    X[r + c * rows] = (T)(t / (double)X[c + c * rows]);                        \
                }                                                                              \
            for (int64_t c = 0; c < kb; ++c)                                                   \
                for (int64_t r = c; r < rows; ++r)                                             \
                    P[upper ? c + r * ldda : r + c * ldda] = X[r + c * rows];                  \
            if (f > 0) dinfo[b] = k + f;                                                       \
        }                                                                                      \
        free(X);                                                                               \
        return cudaSuccess;                                                                    \
    }
LAUNCH_MOCKS(double, d, LAPACKE_dpotrf_work)
LAUNCH_MOCKS(float, s, LAPACKE_spotrf_work)

/* The trailing matrix's copy and the live tiles kernel on it
 * (kernels/potrf_batched_live.h); g_live_fits 0: that kernel does not fit
 * the device (nothing launched). */
static int g_live_fits = 1;
static long g_trailing;
#define TRAILING_MOCKS(T, p, LAPACK_POTRF)                                                     \
    int gchol_##p##batched_trailing_copy_launch(int64_t count, int64_t n, int upper,          \
                                                const T *dA, T *const *dA_array,               \
                                                int64_t stride, int64_t ldda, int64_t k0,      \
                                                T *W, int64_t ldw, int64_t wstride,            \
                                                cudaStream_t s)                                \
    {                                                                                          \
        (void)s;                                                                               \
        if (ldw < n) return cudaErrorInvalidValue;                                             \
        for (int64_t b = 0; b < count; ++b) {                                                  \
            const T *P = (dA_array ? dA_array[b] : dA + b * stride) + k0 + k0 * ldda;          \
            for (int64_t c = 0; c < n; ++c)                                                    \
                for (int64_t r = upper ? 0 : c; r < (upper ? c + 1 : n); ++r)                  \
                    W[b * wstride + r + c * ldw] = P[r + c * ldda];                            \
        }                                                                                      \
        return cudaSuccess;                                                                    \
    }                                                                                          \
    int gchol_##p##potrf_batched_live_trailing_launch(                                         \
        int64_t n, T *dA, T *const *dA_array, int64_t ldda, int64_t stride, int upper,         \
        const T *W, int64_t ldw, int64_t wstride, int64_t k0, int64_t *dinfo, int64_t count,   \
        int *launched, cudaStream_t s)                                                         \
    {                                                                                          \
        (void)s;                                                                               \
        *launched = 0;                                                                         \
        if (!W || ldw < n || ldw % 4 || wstride % 4) return cudaErrorInvalidValue;             \
        if (!g_live_fits) return cudaSuccess;                                                  \
        T *X = malloc((size_t)(n * n) * sizeof(T));                                            \
        for (int64_t b = 0; b < count; ++b) {                                                  \
            if (dinfo[b] != 0) continue;                                                       \
            const T *S = W + b * wstride;                                                      \
            T *P = dA_array ? dA_array[b] : dA + b * stride;                                   \
            for (int64_t c = 0; c < n; ++c)                                                    \
                for (int64_t r = c; r < n; ++r)                                                \
                    X[r + c * n] = S[upper ? c + r * ldw : r + c * ldw];                       \
            const lapack_int f = LAPACK_POTRF(LAPACK_COL_MAJOR, 'L', (lapack_int)n, X,          \
                                              (lapack_int)n);                                  \
            for (int64_t c = 0; c < (f > 0 ? f - 1 : n); ++c)                                  \
                for (int64_t r = c; r < n; ++r)                                                \
                    P[upper ? c + r * ldda : r + c * ldda] = X[r + c * n];                     \
            if (f > 0) dinfo[b] = k0 + f;                                                      \
        }                                                                                      \
        free(X);                                                                               \
        g_trailing++;                                                                          \
        *launched = 1;                                                                         \
        return cudaSuccess;                                                                    \
    }
TRAILING_MOCKS(double, d, LAPACKE_dpotrf_work)
TRAILING_MOCKS(float, s, LAPACKE_spotrf_work)

/* ---- the cases -------------------------------------------------------------- */
typedef struct {
    char prec, uplo;
    int64_t n, nb, pad, gap, batch;
    int pointers;
    int64_t cap;     /* the workspace cap (bytes; 0: the library's) */
    int fail_alloc;  /* the k-th workspace allocation fails (0: none) */
    int fused;       /* the panel step in one launch, the whole panel's sums */
    int64_t tail;    /* the trailing matrix's order at most (0: none) */
    int no_live;     /* the live tiles kernel does not fit: block columns to the end */
} bcase_t;

/* Matrix b's defect: 0 none, else a non-positive pivot at column 1 + (b * 37) % n. */
static int64_t defect_column(const bcase_t *c, int64_t b)
{
    return b % 3 == 2 ? 1 + (b * 37) % c->n : 0;
}

static void run_case(const bcase_t *c)
{
    const int d = c->prec == 'd';
    const size_t es = d ? sizeof(double) : sizeof(float);
    const int64_t n = c->n, ld = n + c->pad, mat = ld * n, stride = mat + c->gap;
    const int64_t total = stride * c->batch;
    char *A = malloc((size_t)total * es), *A0 = malloc((size_t)total * es);
    char *R = malloc((size_t)total * es);
    int64_t *info = malloc((size_t)c->batch * 8), *want = malloc((size_t)c->batch * 8);
    void **ptrs = malloc((size_t)c->batch * sizeof(void *));
    testing_fill_nan(c->prec, total, A0);
    for (int64_t b = 0; b < c->batch; ++b) {
        char *M = A0 + (size_t)(b * stride) * es;
        testing_generate_spd(c->prec, c->uplo, n, M, ld, 100 + (uint64_t)b);
        for (int64_t j = 0; j < n; ++j) /* the other triangle poisoned */
            for (int64_t i = 0; i < n; ++i)
                if (c->uplo == 'L' ? i < j : i > j) {
                    if (d) ((double *)M)[i + j * ld] = 7.0;
                    else ((float *)M)[i + j * ld] = 7.0f;
                }
        const int64_t k = defect_column(c, b);
        if (k) {
            if (d) ((double *)M)[(k - 1) * (ld + 1)] = -1.0;
            else ((float *)M)[(k - 1) * (ld + 1)] = -1.0f;
        }
    }
    memcpy(A, A0, (size_t)total * es);
    memcpy(R, A0, (size_t)total * es);
    for (int64_t b = 0; b < c->batch; ++b) {
        char *M = R + (size_t)(b * stride) * es;
        want[b] = d ? LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, c->uplo, (lapack_int)n, (double *)M,
                                          (lapack_int)ld)
                    : LAPACKE_spotrf_work(LAPACK_COL_MAJOR, c->uplo, (lapack_int)n, (float *)M,
                                          (lapack_int)ld);
        ptrs[b] = A + (size_t)(b * stride) * es;
        info[b] = -77;
    }
    struct gchol_queue_s q;
    memset(&q, 0, sizeof q);
    g_hooks.batched_cublas_work_bytes = c->cap;
    g_allocs = 0;
    g_fail_at = c->fail_alloc;
    g_live_fits = !c->no_live;
    int no_room = -1;
    const int upper = c->uplo == 'U';
    const int64_t st =
        d ? gchol_dpotrf_batched_cublas(upper, n, c->nb, c->fused, c->tail,
                                        c->pointers ? NULL : (double *)A,
                                        c->pointers ? (double *const *)ptrs : NULL, ld, stride,
                                        info, c->batch, &q, &no_room)
          : gchol_spotrf_batched_cublas(upper, n, c->nb, c->fused, c->tail,
                                        c->pointers ? NULL : (float *)A,
                                        c->pointers ? (float *const *)ptrs : NULL, ld, stride,
                                        info, c->batch, &q, &no_room);
    g_fail_at = 0;
    g_live_fits = 1;
    g_hooks.batched_cublas_work_bytes = 0;
    char why[160] = "";
    if (c->fail_alloc) {
        if (st != 0 || no_room != 1 || testing_count_diff(c->prec, total, A, A0) != 0 ||
            info[0] != -77)
            snprintf(why, sizeof why, "status %lld, no_room %d, A or info written", (long long)st,
                     no_room);
    } else if (st != 0 || no_room != 0) {
        snprintf(why, sizeof why, "status %lld, no_room %d", (long long)st, no_room);
    } else {
        double worst = 0;
        for (int64_t b = 0; b < c->batch && !why[0]; ++b) {
            const size_t o = (size_t)(b * stride) * es;
            if (info[b] != want[b]) {
                snprintf(why, sizeof why, "matrix %lld: info %lld, LAPACK's %lld", (long long)b,
                         (long long)info[b], (long long)want[b]);
                break;
            }
            /* outside the triangle, the padding, the gap: byte for byte */
            for (int64_t e = 0; e < stride && b * stride + e < total; ++e) {
                const int64_t i = e % ld, j = e / ld;
                const int inside = j < n && i < n && (c->uplo == 'L' ? i >= j : i <= j);
                if (!inside && memcmp(A + o + (size_t)e * es, A0 + o + (size_t)e * es, es)) {
                    snprintf(why, sizeof why, "matrix %lld: (%lld, %lld) outside the triangle "
                             "written", (long long)b, (long long)i, (long long)j);
                    break;
                }
            }
            if (want[b] != 0) continue; /* a failed matrix: its info only */
            double diff = 0, big = 0;
            for (int64_t j = 0; j < n; ++j)
                for (int64_t i = 0; i < n; ++i) {
                    if (c->uplo == 'L' ? i < j : i > j) continue;
                    const int64_t e = i + j * ld;
                    const double x = d ? ((double *)(A + o))[e] : ((float *)(A + o))[e];
                    const double r = d ? ((double *)(R + o))[e] : ((float *)(R + o))[e];
                    diff = fmax(diff, fabs(x - r));
                    big = fmax(big, fabs(r));
                }
            worst = fmax(worst, diff / big);
        }
        if (!why[0] && !(worst < (d ? 1e-10 : 1e-3)))
            snprintf(why, sizeof why, "relative difference from LAPACK %.2e", worst);
    }
    char tail[48] = "";
    if (c->tail)
        snprintf(tail, sizeof tail, ", tail %lld%s", (long long)c->tail,
                 c->no_live ? " (no room)" : "");
    testing_expect(!why[0], "%cpotrf_batched_cublas %c n=%-3lld nb=%-2lld ld=n+%lld gap %lld "
                   "batch %lld %s%s%s%s%s %s", c->prec, c->uplo, (long long)n, (long long)c->nb,
                   (long long)c->pad, (long long)c->gap, (long long)c->batch,
                   c->pointers ? "pointers" : "strided", c->fused ? ", fused" : "", tail,
                   c->cap ? ", by chunks" : "",
                   c->fail_alloc ? ", a workspace allocation failing" : "", why);
    free(A); free(A0); free(R); free(info); free(want); free(ptrs);
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: testing_batched_cublas_host (no options)\n");
        return 2;
    }
    openblas_set_num_threads(1); /* LAPACK on tiny blocks: threads only wait */
    printf("testing_batched_cublas_host  (src/potrf_batched_cublas.c, cuBLAS and CUDA mocked, "
           "LAPACK's factors)\n");
    static const int64_t ns[] = { 65, 100, 129, 200 }, nbs[] = { 16, 31, 32, 64 };
    int t = 0;
    for (int fu = 0; fu < 2; ++fu) /* the panel step in two launches, then in one */
        for (int p = 0; p < 2; ++p)
            for (int u = 0; u < 2; ++u)
                for (int i = 0; i < 4; ++i)
                    for (int k = 0; k < 4; ++k, ++t) {
                        const bcase_t c = { p ? 's' : 'd', u ? 'U' : 'L', ns[i], nbs[k], t % 3,
                                            (t % 2) * 5, 5, t % 2, 0, 0, fu, 0, 0 };
                        run_case(&c);
                    }
    /* chunks of two matrices' workspace: 7 matrices in 4 chunks */
    for (int fu = 0; fu < 2; ++fu)
        for (int p = 0; p < 2; ++p)
            for (int f = 0; f < 2; ++f) {
                const int64_t nb = 32, es = p ? 4 : 8, n = 100;
                const int64_t work = fu ? n * GCHOL_BATCHED_PANEL_MAX : GCHOL_BATCHED_PANEL_WORK;
                const bcase_t c = { p ? 's' : 'd', f ? 'U' : 'L', n, nb, 1, 3, 7, f,
                                    2 * (work * es + (f ? 4 * (int64_t)sizeof(void *) : 0)), 0,
                                    fu, 0, 0 };
                run_case(&c);
            }
    /* each workspace allocation failing (the pointer form has two) */
    for (int a = 1; a <= 3; ++a)
        for (int fu = 0; fu < 2; ++fu) {
            const bcase_t c = { a % 2 ? 'd' : 's', a % 2 ? 'L' : 'U', 100, 32, 2, 1, 4, a >= 2, 0,
                                a <= 1 ? a : a - 1, fu, 0, 0 };
            run_case(&c);
        }
    /* a trailing matrix on the live tiles kernel: of at most 70 or 100
     * columns, every form above; then that kernel not fitting the device
     * (the block columns go on over the workspace), and by chunks */
    for (int fu = 0; fu < 2; ++fu)
        for (int p = 0; p < 2; ++p)
            for (int u = 0; u < 2; ++u)
                for (int i = 0; i < 4; ++i)
                    for (int k = 0; k < 4; ++k, ++t) {
                        const bcase_t c = { p ? 's' : 'd', u ? 'U' : 'L', ns[i], nbs[k], t % 3,
                                            (t % 2) * 5, 5, t % 2, 0, 0, fu, t % 2 ? 70 : 100,
                                            0 };
                        run_case(&c);
                    }
    for (int fu = 0; fu < 2; ++fu)
        for (int p = 0; p < 2; ++p) {
            const bcase_t c = { p ? 's' : 'd', p ? 'U' : 'L', 200, 32, 1, 2, 5, p, 0, 0, fu, 100,
                                1 };
            run_case(&c);
            const int64_t es = p ? 4 : 8, m = 72; /* n 200, tail 100: k0 128 */
            const bcase_t ch = { p ? 's' : 'd', p ? 'L' : 'U', 200, 32, 1, 3, 7, p,
                                 2 * (m * m * es + (p ? 4 * (int64_t)sizeof(void *) : 0)), 0, fu,
                                 100, 0 };
            run_case(&ch);
        }
    printf("  (%ld products, %ld trailing matrices)\n", g_products, g_trailing);
    return testing_summary();
}
