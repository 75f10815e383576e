/*
 * mp_ops_cpu.c -- the distributed drivers' local operations on the CPU
 * (CBLAS and an unblocked potrf), with the GPU ops' semantics (src/mp/mp.h): the tests run
 * the drivers' algorithm and communication under mpirun on machines
 * without a GPU. Compiled twice (prec.h).
 */
#include "mp_ops_cpu.h"
#include "prec.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(GCHOL_PREC_D)
#define CB(name) cblas_d##name
#else
#define CB(name) cblas_s##name
#endif

/* unblocked, with reference LAPACK's dpotf2 semantics: a pivot <= 0 or NaN
 * stops it (OpenBLAS's potrf does not flag NaN, and LAPACKE refuses NaN) */
static int64_t potrf(void *ctx, int trans, int64_t n, void *a, int64_t lda, int64_t *info)
{
    (void)ctx;
    FLOAT *A = a;
#define L(i, j) A[trans ? (j) + (i) * lda : (i) + (j) * lda] /* the lower view */
    *info = 0;
    for (int64_t j = 0; j < n; ++j) {
        double ajj = L(j, j);
        for (int64_t p = 0; p < j; ++p) ajj -= (double)L(j, p) * L(j, p);
        if (!(ajj > 0)) {
            L(j, j) = (FLOAT)ajj;
            *info = j + 1;
            return GCHOL_SUCCESS;
        }
        ajj = sqrt(ajj);
        L(j, j) = (FLOAT)ajj;
        for (int64_t i = j + 1; i < n; ++i) {
            double v = L(i, j);
            for (int64_t p = 0; p < j; ++p) v -= (double)L(i, p) * L(j, p);
            L(i, j) = (FLOAT)(v / ajj);
        }
    }
#undef L
    return GCHOL_SUCCESS;
}

static int64_t trsm(void *ctx, int trans, int64_t m, int64_t n, const void *l, int64_t ldl,
                    void *b, int64_t ldb)
{
    (void)ctx;
    if (trans)
        CB(trsm)(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, (int)n, (int)m,
                 1, (const FLOAT *)l, (int)ldl, (FLOAT *)b, (int)ldb);
    else
        CB(trsm)(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, (int)m, (int)n,
                 1, (const FLOAT *)l, (int)ldl, (FLOAT *)b, (int)ldb);
    return GCHOL_SUCCESS;
}

static int64_t syrk(void *ctx, int trans, int64_t n, int64_t k, const void *a, int64_t lda,
                    void *c, int64_t ldc)
{
    (void)ctx;
    CB(syrk)(CblasColMajor, trans ? CblasUpper : CblasLower, CblasNoTrans, (int)n, (int)k, -1,
             (const FLOAT *)a, (int)lda, 1, (FLOAT *)c, (int)ldc);
    return GCHOL_SUCCESS;
}

static int64_t gemm(void *ctx, int trans, int64_t m, int64_t n, int64_t k, const void *a,
                    int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc)
{
    (void)ctx;
    if (trans)
        CB(gemm)(CblasColMajor, CblasNoTrans, CblasTrans, (int)n, (int)m, (int)k, -1,
                 (const FLOAT *)b, (int)ldb, (const FLOAT *)a, (int)lda, 1, (FLOAT *)c, (int)ldc);
    else
        CB(gemm)(CblasColMajor, CblasNoTrans, CblasTrans, (int)m, (int)n, (int)k, -1,
                 (const FLOAT *)a, (int)lda, (const FLOAT *)b, (int)ldb, 1, (FLOAT *)c, (int)ldc);
    return GCHOL_SUCCESS;
}

static int64_t get(void *ctx, int trans, int lower, int64_t m, int64_t n, const void *s,
                   int64_t lds, void *d, int64_t ldd)
{
    (void)ctx;
    const FLOAT *S = s;
    FLOAT *D = d;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            if (lower) { /* the stored triangle, as stored; the other zero */
                D[i + j * ldd] = (trans ? i <= j : i >= j) ? S[i + j * lds] : 0;
            } else {
                D[i + j * ldd] = trans ? S[j + i * lds] : S[i + j * lds];
            }
        }
    return GCHOL_SUCCESS;
}

static int64_t trsm_b(void *ctx, int trans, int tsolve, int64_t m, int64_t n, const void *l,
                      int64_t ldl, void *b, int64_t ldb)
{
    (void)ctx;
    if (m <= 0 || n <= 0) return GCHOL_SUCCESS;
    CB(trsm)(CblasColMajor, CblasLeft, trans ? CblasUpper : CblasLower,
             (tsolve != 0) != (trans != 0) ? CblasTrans : CblasNoTrans, CblasNonUnit, (int)m,
             (int)n, 1, (const FLOAT *)l, (int)ldl, (FLOAT *)b, (int)ldb);
    return GCHOL_SUCCESS;
}

static int64_t gemm_b(void *ctx, int ta, int64_t m, int64_t n, int64_t k, const void *a,
                      int64_t lda, const void *b, int64_t ldb, int beta, void *c, int64_t ldc)
{
    (void)ctx;
    if (m <= 0 || n <= 0) return GCHOL_SUCCESS;
    if (k <= 0) { /* C := beta C */
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i)
                if (!beta) ((FLOAT *)c)[i + j * ldc] = 0;
        return GCHOL_SUCCESS;
    }
    CB(gemm)(CblasColMajor, ta ? CblasTrans : CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k,
             -1, (const FLOAT *)a, (int)lda, (const FLOAT *)b, (int)ldb, (FLOAT)beta, (FLOAT *)c,
             (int)ldc);
    return GCHOL_SUCCESS;
}

static int64_t to_host2d(void *ctx, void *host, const void *local, int64_t ld, int64_t rows,
                         int64_t cols)
{
    (void)ctx;
    for (int64_t j = 0; j < cols; ++j)
        memcpy((FLOAT *)host + j * rows, (const FLOAT *)local + j * ld, (size_t)rows * sizeof(FLOAT));
    return GCHOL_SUCCESS;
}

static int64_t to_local2d(void *ctx, void *local, int64_t ld, const void *host, int64_t rows,
                          int64_t cols)
{
    (void)ctx;
    for (int64_t j = 0; j < cols; ++j)
        memcpy((FLOAT *)local + j * ld, (const FLOAT *)host + j * rows, (size_t)rows * sizeof(FLOAT));
    return GCHOL_SUCCESS;
}

static int64_t copy(void *ctx, void *dst, const void *src, size_t bytes)
{
    (void)ctx;
    memmove(dst, src, bytes);
    return GCHOL_SUCCESS;
}

static int64_t alloc(void *ctx, void **p, size_t bytes)
{
    (void)ctx;
    *p = malloc(bytes > 0 ? bytes : 1);
    return *p ? GCHOL_SUCCESS : GCHOL_ERR_HOST_ALLOC;
}

static void release(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static int64_t sync(void *ctx)
{
    (void)ctx;
    return GCHOL_SUCCESS;
}

void PFX(mp_cpu_ops)(mp_ops_t *ops)
{
    const mp_ops_t o = { NULL, 0, potrf, trsm, syrk, gemm, get, trsm_b, gemm_b, to_host2d,
                         to_local2d, copy, copy, alloc, release, sync, NULL, NULL, NULL,
                         NULL, NULL, NULL, NULL };
    *ops = o;
}

#if defined(GCHOL_PREC_D)
#define MPI_FLT MPI_DOUBLE
#else
#define MPI_FLT MPI_FLOAT
#endif
static MPI_Comm axis(void *ctx, int along_col)
{
    const gchol_mp_grid_t g = ctx;
    return along_col ? g->col : g->row;
}

static int64_t bcast(void *ctx, int along_col, void *local, int64_t count, int root)
{
    if (count <= 0) return GCHOL_SUCCESS;
    return MPI_Bcast(local, (int)count, MPI_FLT, root, axis(ctx, along_col)) == MPI_SUCCESS
               ? GCHOL_SUCCESS : GCHOL_ERR_COMM;
}

static int64_t gatherv(void *ctx, int along_col, const void *send, void *recv, const int *counts,
                       const int *displs)
{
    int me = 0;
    const MPI_Comm c = axis(ctx, along_col);
    if (MPI_Comm_rank(c, &me) != MPI_SUCCESS) return GCHOL_ERR_COMM;
    return MPI_Allgatherv(send, counts[me], MPI_FLT, recv, counts, displs, MPI_FLT, c) ==
                   MPI_SUCCESS ? GCHOL_SUCCESS : GCHOL_ERR_COMM;
}

static int64_t copy2d(void *ctx, void *dst, int64_t ldd, const void *src, int64_t lds,
                      int64_t rows, int64_t cols)
{
    (void)ctx;
    for (int64_t j = 0; j < cols && rows > 0; ++j)
        memcpy((FLOAT *)dst + j * ldd, (const FLOAT *)src + j * lds, (size_t)rows * sizeof(FLOAT));
    return GCHOL_SUCCESS;
}

void PFX(mp_cpu_ops_direct)(mp_ops_t *ops, gchol_mp_grid_t grid)
{
    PFX(mp_cpu_ops)(ops);
    ops->ctx = grid;
    ops->bcast = bcast;
    ops->gatherv = gatherv;
    ops->copy2d = copy2d;
}
