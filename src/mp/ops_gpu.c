/*
 * ops_gpu.c -- the distributed drivers' local operations on the GPU: the
 * diagonal blocks by gchol_?potrf_gpu, the rest on cuBLAS, all on the
 * grid's queue; with the NCCL transport, the panels' broadcasts and gathers
 * too. Compiled twice (prec.h); the queue's setup once
 * (GCHOL_PREC_D).
 */
#include "mp.h"
#include "../prec.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#define OPS_CUDA(call)  do { if ((call) != cudaSuccess) { (void)cudaGetLastError(); return GCHOL_ERR_CUDA; } } while (0)
#define OPS_BLAS(call)  do { if ((call) != CUBLAS_STATUS_SUCCESS) return GCHOL_ERR_CUBLAS; } while (0)

static cublasHandle_t handle(void *ctx) { return (cublasHandle_t)((gchol_mp_grid_t)ctx)->blas; }
static cudaStream_t stream(void *ctx) { return gchol_queue_stream(((gchol_mp_grid_t)ctx)->queue); }

/* gchol_?potrf_gpu returns its info k > 0 too; the drivers take a status and the info apart */
static int64_t potrf(void *ctx, int trans, int64_t n, void *a, int64_t lda, int64_t *info)
{
    const int64_t st = PFX(potrf_gpu)(trans ? 'U' : 'L', n, (FLOAT *)a, lda, info,
                                      ((gchol_mp_grid_t)ctx)->queue);
    return st > 0 ? GCHOL_SUCCESS : st;
}

static int64_t trsm(void *ctx, int trans, int64_t m, int64_t n, const void *l, int64_t ldl,
                    void *b, int64_t ldb)
{
    const FLOAT one = 1;
    if (trans) /* stored B^T := U^-T B^T, U = L^T as stored */
        OPS_BLAS(BLAS_TRSM(handle(ctx), CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
                           CUBLAS_DIAG_NON_UNIT, n, m, &one, (const FLOAT *)l, ldl, (FLOAT *)b,
                           ldb));
    else
        OPS_BLAS(BLAS_TRSM(handle(ctx), CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                           CUBLAS_DIAG_NON_UNIT, m, n, &one, (const FLOAT *)l, ldl, (FLOAT *)b,
                           ldb));
    return GCHOL_SUCCESS;
}

static int64_t syrk(void *ctx, int trans, int64_t n, int64_t k, const void *a, int64_t lda,
                    void *c, int64_t ldc)
{
    const FLOAT minus_one = -1, one = 1;
    OPS_BLAS(BLAS_SYRK(handle(ctx), trans ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER,
                       CUBLAS_OP_N, n, k, &minus_one, (const FLOAT *)a, lda, &one, (FLOAT *)c,
                       ldc));
    return GCHOL_SUCCESS;
}

static int64_t gemm(void *ctx, int trans, int64_t m, int64_t n, int64_t k, const void *a,
                    int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc)
{
    const FLOAT minus_one = -1, one = 1;
    if (trans) /* stored C^T -= B A^T */
        OPS_BLAS(BLAS_GEMM(handle(ctx), CUBLAS_OP_N, CUBLAS_OP_T, n, m, k, &minus_one,
                           (const FLOAT *)b, ldb, (const FLOAT *)a, lda, &one, (FLOAT *)c, ldc));
    else
        OPS_BLAS(BLAS_GEMM(handle(ctx), CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &minus_one,
                           (const FLOAT *)a, lda, (const FLOAT *)b, ldb, &one, (FLOAT *)c, ldc));
    return GCHOL_SUCCESS;
}

static int64_t get(void *ctx, int trans, int lower, int64_t m, int64_t n, const void *s,
                   int64_t lds, void *d, int64_t ldd)
{
    const FLOAT one = 1, zero = 0;
    if (lower) {
        /* the stored triangle alone, through packed storage: the other
         * triangle of the matrix is never read. D's other triangle is zero
         * first: cuBLAS's solves read D by whole tiles, and the broadcasts
         * send all of it. */
        const cublasFillMode_t fill = trans ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
        FLOAT *packed = NULL;
        OPS_CUDA(cudaMemset2DAsync(d, (size_t)ldd * sizeof(FLOAT), 0, (size_t)n * sizeof(FLOAT),
                                   (size_t)n, stream(ctx)));
        OPS_CUDA(cudaMallocAsync((void **)&packed, (size_t)(n * (n + 1) / 2) * sizeof(FLOAT),
                                 stream(ctx)));
        cublasStatus_t bs = BLAS_TRTTP(handle(ctx), fill, (int)n, (const FLOAT *)s, (int)lds, packed);
        if (bs == CUBLAS_STATUS_SUCCESS)
            bs = BLAS_TPTTR(handle(ctx), fill, (int)n, packed, (FLOAT *)d, (int)ldd);
        OPS_CUDA(cudaFreeAsync(packed, stream(ctx)));
        return bs == CUBLAS_STATUS_SUCCESS ? GCHOL_SUCCESS : GCHOL_ERR_CUBLAS;
    }
    if (trans) /* D := (S^T stored n x m)^T */
        OPS_BLAS(BLAS_GEAM(handle(ctx), CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, (const FLOAT *)s,
                           lds, &zero, (const FLOAT *)d, ldd, (FLOAT *)d, ldd));
    else
        OPS_CUDA(cudaMemcpy2DAsync(d, (size_t)ldd * sizeof(FLOAT), s, (size_t)lds * sizeof(FLOAT),
                                   (size_t)m * sizeof(FLOAT), (size_t)n, cudaMemcpyDeviceToDevice,
                                   stream(ctx)));
    return GCHOL_SUCCESS;
}

static int64_t trsm_b(void *ctx, int trans, int tsolve, int64_t m, int64_t n, const void *l,
                      int64_t ldl, void *b, int64_t ldb)
{
    const FLOAT one = 1;
    /* L as stored: lower, or its transpose U (trans) */
    const cublasOperation_t op = (tsolve != 0) != (trans != 0) ? CUBLAS_OP_T : CUBLAS_OP_N;
    OPS_BLAS(BLAS_TRSM(handle(ctx), CUBLAS_SIDE_LEFT,
                       trans ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER, op,
                       CUBLAS_DIAG_NON_UNIT, m, n, &one, (const FLOAT *)l, ldl, (FLOAT *)b, ldb));
    return GCHOL_SUCCESS;
}

static int64_t gemm_b(void *ctx, int ta, int64_t m, int64_t n, int64_t k, const void *a,
                      int64_t lda, const void *b, int64_t ldb, int beta, void *c, int64_t ldc)
{
    const FLOAT minus_one = -1, bf = (FLOAT)beta;
    OPS_BLAS(BLAS_GEMM(handle(ctx), ta ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                       &minus_one, (const FLOAT *)a, lda, (const FLOAT *)b, ldb, &bf, (FLOAT *)c,
                       ldc));
    return GCHOL_SUCCESS;
}

/* rows x cols between two arrays on the queue's stream; a copy to or from the
 * host waits for it (the host array may be read or rewritten next) */
static int64_t memcpy2d(void *ctx, void *dst, int64_t ldd, const void *src, int64_t lds,
                       int64_t rows, int64_t cols, enum cudaMemcpyKind kind)
{
    if (rows <= 0 || cols <= 0) return GCHOL_SUCCESS;
    const size_t e = sizeof(FLOAT);
    OPS_CUDA(cudaMemcpy2DAsync(dst, (size_t)ldd * e, src, (size_t)lds * e, (size_t)rows * e,
                               (size_t)cols, kind, stream(ctx)));
    if (kind != cudaMemcpyDeviceToDevice) OPS_CUDA(cudaStreamSynchronize(stream(ctx)));
    return GCHOL_SUCCESS;
}

static int64_t to_host2d(void *ctx, void *host, const void *local, int64_t ld, int64_t rows,
                         int64_t cols)
{
    return memcpy2d(ctx, host, rows, local, ld, rows, cols, cudaMemcpyDeviceToHost);
}

static int64_t to_local2d(void *ctx, void *local, int64_t ld, const void *host, int64_t rows,
                          int64_t cols)
{
    return memcpy2d(ctx, local, ld, host, rows, rows, cols, cudaMemcpyHostToDevice);
}

static int64_t to_host(void *ctx, void *host, const void *local, size_t bytes)
{
    OPS_CUDA(cudaMemcpyAsync(host, local, bytes, cudaMemcpyDeviceToHost, stream(ctx)));
    OPS_CUDA(cudaStreamSynchronize(stream(ctx)));
    return GCHOL_SUCCESS;
}

static int64_t to_local(void *ctx, void *local, const void *host, size_t bytes)
{
    OPS_CUDA(cudaMemcpyAsync(local, host, bytes, cudaMemcpyHostToDevice, stream(ctx)));
    OPS_CUDA(cudaStreamSynchronize(stream(ctx))); /* host may be rewritten next */
    return GCHOL_SUCCESS;
}

static int64_t alloc(void *ctx, void **p, size_t bytes)
{
    *p = NULL;
    if (cudaMallocAsync(p, bytes > 0 ? bytes : 1, stream(ctx)) != cudaSuccess) {
        (void)cudaGetLastError();
        *p = NULL;
        return GCHOL_ERR_DEVICE_ALLOC;
    }
    return GCHOL_SUCCESS;
}

static void release(void *ctx, void *p) { (void)cudaFreeAsync(p, stream(ctx)); }

static int64_t sync(void *ctx)
{
    OPS_CUDA(cudaStreamSynchronize(stream(ctx)));
    return GCHOL_SUCCESS;
}

/* The NCCL transport, on the queue's stream (NCCL's ncclFloat64 = 8, ncclFloat32 = 7) */
#if defined(GCHOL_PREC_D)
#define NCCL_FLT 8
#else
#define NCCL_FLT 7
#endif
static int64_t bcast(void *ctx, int along_col, void *local, int64_t count, int root)
{
    if (count <= 0) return GCHOL_SUCCESS;
    return gchol_mp_nccl_bcast((gchol_mp_grid_t)ctx, along_col, local, (size_t)count, NCCL_FLT,
                               root, stream(ctx));
}

static int64_t gatherv(void *ctx, int along_col, const void *send, void *recv, const int *counts,
                       const int *displs)
{
    return gchol_mp_nccl_gatherv((gchol_mp_grid_t)ctx, along_col, send, recv, counts, displs,
                                 sizeof(FLOAT), NCCL_FLT, stream(ctx));
}

static int64_t copy2d(void *ctx, void *dst, int64_t ldd, const void *src, int64_t lds,
                      int64_t rows, int64_t cols)
{
    return memcpy2d(ctx, dst, ldd, src, lds, rows, cols, cudaMemcpyDeviceToDevice);
}

int64_t PFX(mp_gpu_ops)(gchol_mp_grid_t grid, mp_ops_t *ops)
{
    const int64_t st = gchol_mp_gpu_open(grid);
    if (st != GCHOL_SUCCESS) return st;
    const int nccl = grid->transport == GCHOL_MP_TRANSPORT_NCCL;
    const mp_ops_t o = { grid, 0, potrf, trsm, syrk, gemm, get, trsm_b, gemm_b, to_host2d,
                         to_local2d, to_host, to_local, alloc, release, sync,
                         nccl ? bcast : NULL, nccl ? gatherv : NULL, nccl ? copy2d : NULL };
    *ops = o;
    return GCHOL_SUCCESS;
}

#if defined(GCHOL_PREC_D)
int64_t gchol_mp_gpu_open(gchol_mp_grid_t grid)
{
    if (grid->queue && grid->blas) return GCHOL_SUCCESS;
    if (grid->device < 0) return GCHOL_ERR_NO_DEVICE;
    int64_t st = grid->queue ? GCHOL_SUCCESS : gchol_queue_create(grid->device, &grid->queue);
    if (st != GCHOL_SUCCESS) return st;
    cublasHandle_t h = NULL;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return GCHOL_ERR_CUBLAS;
    if (cublasSetStream(h, gchol_queue_stream(grid->queue)) != CUBLAS_STATUS_SUCCESS) {
        cublasDestroy(h);
        return GCHOL_ERR_CUBLAS;
    }
    grid->blas = h;
    return GCHOL_SUCCESS;
}

void gchol_mp_gpu_close(gchol_mp_grid_t grid)
{
    gchol_mp_nccl_close(grid); /* before the stream its operations ran on */
    if (grid->blas) cublasDestroy((cublasHandle_t)grid->blas);
    grid->blas = NULL;
    if (grid->queue) (void)gchol_queue_destroy(grid->queue);
    grid->queue = NULL;
}
#endif
