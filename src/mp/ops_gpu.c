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
/* the timeline (gchol_mp_grid_set_trace): an operation's start, and its end as the return value */
#define TRACE_BEGIN(ctx, s)                                                          \
    do {                                                                             \
        const int64_t t_ = gchol_mp_trace_begin((gchol_mp_grid_t)(ctx), (s));         \
        if (t_ != GCHOL_SUCCESS) return t_;                                          \
    } while (0)
#define TRACE_END(ctx, s, op, m, n, k) \
    gchol_mp_trace_end((gchol_mp_grid_t)(ctx), (s), on_side(ctx, s), (op), (m), (n), (k))

static cublasHandle_t handle(void *ctx) { return (cublasHandle_t)((gchol_mp_grid_t)ctx)->blas; }
static cudaStream_t stream(void *ctx) { return gchol_queue_stream(((gchol_mp_grid_t)ctx)->queue); }
/* the transport's stream: the side stream between side(1) and side(0) */
static cudaStream_t xfer(void *ctx)
{
    const gchol_mp_grid_t g = ctx;
    return g->on_side && g->side ? (cudaStream_t)g->side : stream(ctx);
}
static int on_side(void *ctx, cudaStream_t s) { return s != stream(ctx); }

/* gchol_?potrf_gpu returns its info k > 0 too; the drivers take a status and the info apart */
static int64_t potrf(void *ctx, int trans, int64_t n, void *a, int64_t lda, int64_t *info)
{
    TRACE_BEGIN(ctx, stream(ctx));
    const int64_t st = PFX(potrf_gpu)(trans ? 'U' : 'L', n, (FLOAT *)a, lda, info,
                                      ((gchol_mp_grid_t)ctx)->queue);
    if (st < 0) return st;
    return TRACE_END(ctx, stream(ctx), GCHOL_OP_POTRF_DIAG, n, n, 0);
}

static int64_t trsm(void *ctx, int trans, int64_t m, int64_t n, const void *l, int64_t ldl,
                    void *b, int64_t ldb)
{
    const FLOAT one = 1;
    TRACE_BEGIN(ctx, stream(ctx));
    if (trans) /* stored B^T := U^-T B^T, U = L^T as stored */
        OPS_BLAS(BLAS_TRSM(handle(ctx), CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
                           CUBLAS_DIAG_NON_UNIT, n, m, &one, (const FLOAT *)l, ldl, (FLOAT *)b,
                           ldb));
    else
        OPS_BLAS(BLAS_TRSM(handle(ctx), CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                           CUBLAS_DIAG_NON_UNIT, m, n, &one, (const FLOAT *)l, ldl, (FLOAT *)b,
                           ldb));
    return TRACE_END(ctx, stream(ctx), GCHOL_OP_TRSM, m, n, 0);
}

static int64_t syrk(void *ctx, int trans, int64_t n, int64_t k, const void *a, int64_t lda,
                    void *c, int64_t ldc)
{
    const FLOAT minus_one = -1, one = 1;
    TRACE_BEGIN(ctx, stream(ctx));
    OPS_BLAS(BLAS_SYRK(handle(ctx), trans ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER,
                       CUBLAS_OP_N, n, k, &minus_one, (const FLOAT *)a, lda, &one, (FLOAT *)c,
                       ldc));
    return TRACE_END(ctx, stream(ctx), GCHOL_OP_SYRK, n, n, k);
}

static int64_t gemm(void *ctx, int trans, int64_t m, int64_t n, int64_t k, const void *a,
                    int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc)
{
    const FLOAT minus_one = -1, one = 1;
    TRACE_BEGIN(ctx, stream(ctx));
    if (trans) /* stored C^T -= B A^T */
        OPS_BLAS(BLAS_GEMM(handle(ctx), CUBLAS_OP_N, CUBLAS_OP_T, n, m, k, &minus_one,
                           (const FLOAT *)b, ldb, (const FLOAT *)a, lda, &one, (FLOAT *)c, ldc));
    else
        OPS_BLAS(BLAS_GEMM(handle(ctx), CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &minus_one,
                           (const FLOAT *)a, lda, (const FLOAT *)b, ldb, &one, (FLOAT *)c, ldc));
    return TRACE_END(ctx, stream(ctx), GCHOL_OP_GEMM, m, n, k);
}

static int64_t get(void *ctx, int trans, int lower, int64_t m, int64_t n, const void *s,
                   int64_t lds, void *d, int64_t ldd)
{
    const FLOAT one = 1, zero = 0;
    TRACE_BEGIN(ctx, stream(ctx));
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
        if (bs != CUBLAS_STATUS_SUCCESS) return GCHOL_ERR_CUBLAS;
        return TRACE_END(ctx, stream(ctx), GCHOL_OP_COPY, n, n, 0);
    }
    if (trans) /* D := (S^T stored n x m)^T */
        OPS_BLAS(BLAS_GEAM(handle(ctx), CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, (const FLOAT *)s,
                           lds, &zero, (const FLOAT *)d, ldd, (FLOAT *)d, ldd));
    else
        OPS_CUDA(cudaMemcpy2DAsync(d, (size_t)ldd * sizeof(FLOAT), s, (size_t)lds * sizeof(FLOAT),
                                   (size_t)m * sizeof(FLOAT), (size_t)n, cudaMemcpyDeviceToDevice,
                                   stream(ctx)));
    return TRACE_END(ctx, stream(ctx), GCHOL_OP_COPY, m, n, 0);
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
static int64_t memcpy2d(void *ctx, cudaStream_t s, void *dst, int64_t ldd, const void *src,
                       int64_t lds, int64_t rows, int64_t cols, enum cudaMemcpyKind kind)
{
    if (rows <= 0 || cols <= 0) return GCHOL_SUCCESS;
    const size_t e = sizeof(FLOAT);
    TRACE_BEGIN(ctx, s);
    OPS_CUDA(cudaMemcpy2DAsync(dst, (size_t)ldd * e, src, (size_t)lds * e, (size_t)rows * e,
                               (size_t)cols, kind, s));
    const int64_t st = TRACE_END(ctx, s, GCHOL_OP_COPY, rows, cols, 0);
    if (kind != cudaMemcpyDeviceToDevice) OPS_CUDA(cudaStreamSynchronize(s));
    return st;
}

static int64_t to_host2d(void *ctx, void *host, const void *local, int64_t ld, int64_t rows,
                         int64_t cols)
{
    return memcpy2d(ctx, stream(ctx), host, rows, local, ld, rows, cols, cudaMemcpyDeviceToHost);
}

static int64_t to_local2d(void *ctx, void *local, int64_t ld, const void *host, int64_t rows,
                          int64_t cols)
{
    return memcpy2d(ctx, stream(ctx), local, ld, host, rows, rows, cols, cudaMemcpyHostToDevice);
}

static int64_t to_host(void *ctx, void *host, const void *local, size_t bytes)
{
    TRACE_BEGIN(ctx, stream(ctx));
    OPS_CUDA(cudaMemcpyAsync(host, local, bytes, cudaMemcpyDeviceToHost, stream(ctx)));
    const int64_t st = TRACE_END(ctx, stream(ctx), GCHOL_OP_COPY, (int64_t)(bytes / sizeof(FLOAT)), 1, 0);
    if (st != GCHOL_SUCCESS) return st;
    OPS_CUDA(cudaStreamSynchronize(stream(ctx)));
    return GCHOL_SUCCESS;
}

static int64_t to_local(void *ctx, void *local, const void *host, size_t bytes)
{
    TRACE_BEGIN(ctx, stream(ctx));
    OPS_CUDA(cudaMemcpyAsync(local, host, bytes, cudaMemcpyHostToDevice, stream(ctx)));
    const int64_t st = TRACE_END(ctx, stream(ctx), GCHOL_OP_COPY, (int64_t)(bytes / sizeof(FLOAT)), 1, 0);
    if (st != GCHOL_SUCCESS) return st;
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
    const gchol_mp_grid_t g = ctx;
    if (g->side) OPS_CUDA(cudaStreamSynchronize((cudaStream_t)g->side));
    OPS_CUDA(cudaStreamSynchronize(stream(ctx)));
    return GCHOL_SUCCESS;
}

/* The NCCL transport, on the queue's stream or the side stream (NCCL's
 * ncclFloat64 = 8, ncclFloat32 = 7) */
#if defined(GCHOL_PREC_D)
#define NCCL_FLT 8
#else
#define NCCL_FLT 7
#endif
static int64_t bcast(void *ctx, int along_col, void *local, int64_t count, int root)
{
    if (count <= 0) return GCHOL_SUCCESS;
    TRACE_BEGIN(ctx, xfer(ctx));
    const int64_t st = gchol_mp_nccl_bcast((gchol_mp_grid_t)ctx, along_col, local, (size_t)count,
                                           NCCL_FLT, root, xfer(ctx));
    return st != GCHOL_SUCCESS ? st : TRACE_END(ctx, xfer(ctx), GCHOL_OP_BCAST, count, 1, 0);
}

static int64_t gatherv(void *ctx, int along_col, const void *send, void *recv, const int *counts,
                       const int *displs)
{
    const gchol_mp_grid_t g = ctx;
    int size = 0;
    int64_t total = 0;
    if (MPI_Comm_size(along_col ? g->col : g->row, &size) != MPI_SUCCESS) return GCHOL_ERR_COMM;
    for (int p = 0; p < size; ++p) total += counts[p];
    TRACE_BEGIN(ctx, xfer(ctx));
    const int64_t st = gchol_mp_nccl_gatherv((gchol_mp_grid_t)ctx, along_col, send, recv, counts,
                                             displs, sizeof(FLOAT), NCCL_FLT, xfer(ctx));
    return st != GCHOL_SUCCESS ? st : TRACE_END(ctx, xfer(ctx), GCHOL_OP_GATHER, total, 1, 0);
}

static int64_t copy2d(void *ctx, void *dst, int64_t ldd, const void *src, int64_t lds,
                      int64_t rows, int64_t cols)
{
    return memcpy2d(ctx, xfer(ctx), dst, ldd, src, lds, rows, cols, cudaMemcpyDeviceToDevice);
}

static int64_t mark(void *ctx)
{
    const gchol_mp_grid_t g = ctx;
    OPS_CUDA(cudaEventRecord((cudaEvent_t)g->side_from, stream(ctx)));
    return GCHOL_SUCCESS;
}

static int64_t side(void *ctx, int on)
{
    const gchol_mp_grid_t g = ctx;
    const cudaStream_t s = (cudaStream_t)g->side;
    g->on_side = on;
    if (on) OPS_CUDA(cudaStreamWaitEvent(s, (cudaEvent_t)g->side_from, 0));
    else OPS_CUDA(cudaEventRecord((cudaEvent_t)g->side_done, s));
    return GCHOL_SUCCESS;
}

static void at_step(void *ctx, int64_t col) { ((gchol_mp_grid_t)ctx)->trace_block = col; }

static int64_t wait_side(void *ctx)
{
    const gchol_mp_grid_t g = ctx;
    OPS_CUDA(cudaStreamWaitEvent(stream(ctx), (cudaEvent_t)g->side_done, 0));
    return GCHOL_SUCCESS;
}

int64_t PFX(mp_gpu_ops)(gchol_mp_grid_t grid, mp_ops_t *ops)
{
    const int64_t st = gchol_mp_gpu_open(grid);
    if (st != GCHOL_SUCCESS) return st;
    const int nccl = grid->transport == GCHOL_MP_TRANSPORT_NCCL;
    const int two = nccl && grid->side; /* the transport beside the updates */
    const mp_ops_t o = { grid, 0, potrf, trsm, syrk, gemm, get, trsm_b, gemm_b, to_host2d,
                         to_local2d, to_host, to_local, alloc, release, sync,
                         nccl ? bcast : NULL, nccl ? gatherv : NULL, nccl ? copy2d : NULL,
                         two ? mark : NULL, two ? side : NULL, two ? wait_side : NULL, at_step };
    grid->on_side = 0;
    *ops = o;
    return GCHOL_SUCCESS;
}

#if defined(GCHOL_PREC_D)
/* The side stream at the device's highest priority, so that the transport's
 * kernels start ahead of the updates' blocks, and its two events; without
 * them (a CUDA failure) the transport stays on the queue's stream. */
static void side_open(gchol_mp_grid_t grid)
{
    if (grid->side) return;
    int prev = -1, least = 0, greatest = 0;
    cudaStream_t s = NULL;
    cudaEvent_t from = NULL, done = NULL;
    if (cudaGetDevice(&prev) != cudaSuccess || cudaSetDevice(grid->device) != cudaSuccess) {
        (void)cudaGetLastError();
        return;
    }
    if (cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess &&
        cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest) == cudaSuccess &&
        cudaEventCreateWithFlags(&from, cudaEventDisableTiming) == cudaSuccess &&
        cudaEventCreateWithFlags(&done, cudaEventDisableTiming) == cudaSuccess) {
        grid->side = s;
        grid->side_from = from;
        grid->side_done = done;
    } else {
        (void)cudaGetLastError();
        if (from) (void)cudaEventDestroy(from);
        if (s) (void)cudaStreamDestroy(s);
    }
    (void)cudaSetDevice(prev);
}

int64_t gchol_mp_gpu_open(gchol_mp_grid_t grid)
{
    if (grid->queue && grid->blas) {
        side_open(grid);
        return GCHOL_SUCCESS;
    }
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
    side_open(grid);
    return GCHOL_SUCCESS;
}

void gchol_mp_gpu_close(gchol_mp_grid_t grid)
{
    gchol_mp_nccl_close(grid); /* before the stream its operations ran on */
    if (grid->side) {
        (void)cudaStreamSynchronize((cudaStream_t)grid->side);
        (void)cudaEventDestroy((cudaEvent_t)grid->side_from);
        (void)cudaEventDestroy((cudaEvent_t)grid->side_done);
        (void)cudaStreamDestroy((cudaStream_t)grid->side);
    }
    grid->side = grid->side_from = grid->side_done = NULL;
    if (grid->blas) cublasDestroy((cublasHandle_t)grid->blas);
    grid->blas = NULL;
    if (grid->queue) (void)gchol_queue_destroy(grid->queue);
    grid->queue = NULL;
}
#endif
