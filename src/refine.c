/*
 * refine.c -- the host steps that the mixed-precision refinements share
 * (dsposv.c, dswls.c, dxposv.c; refine.h): one stream-ordered workspace
 * carved into parts, the per-step copy of the column norms and the overflow
 * flag, the tests on them, and the double-precision fallback.
 */
#include "refine.h"

#include "host_io.h"
#include "queue.h"
#include "status.h"

#include <math.h>
#include <string.h>

cudaError_t gchol_alloc_parts(void **base, const gchol_part_t *parts, int count, gchol_queue_t q)
{
    cudaStream_t s = q->stream;
    size_t total = 0;
    for (int k = 0; k < count; ++k) total += (parts[k].bytes + 255) / 256 * 256;
    cudaError_t e = gchol_queue_malloc(q, base, total > 0 ? total : 256);
    if (e != cudaSuccess) return e;
    char *p = (char *)*base;
    for (int k = 0; k < count; ++k) {
        const gchol_part_t *t = &parts[k];
        *t->ptr = t->bytes ? (void *)p : NULL;
        if (e == cudaSuccess && t->bytes && t->ld > t->rows && t->cols > 0)
            e = cudaMemset2DAsync(p + (size_t)t->rows * t->elsize, (size_t)t->ld * t->elsize, 0,
                                  (size_t)(t->ld - t->rows) * t->elsize, (size_t)t->cols, s);
        p += (t->bytes + 255) / 256 * 256;
    }
    if (e != cudaSuccess) { /* a failed memset: nothing kept */
        (void)gchol_free_parts(*base, GCHOL_SUCCESS, s);
        *base = NULL;
    }
    return e;
}

int64_t gchol_refine_alloc_failed(cudaError_t e, int64_t *iter)
{
    (void)cudaGetLastError(); /* a failed allocation is not sticky */
    if (e != cudaErrorMemoryAllocation) return gchol_from_cuda(e);
    *iter = -1;
    return GCHOL_SUCCESS;
}

int64_t gchol_fetch_norms(const double *dnorms, const int *dflag, int64_t first, int64_t count,
                          double *h, int *hflag, cudaStream_t s)
{
    int64_t st = GCHOL_SUCCESS;
    GCHOL_CUDA(cudaMemcpyAsync(h + first, dnorms + first, (size_t)count * sizeof(double),
                               cudaMemcpyDeviceToHost, s));
    GCHOL_CUDA(cudaMemcpyAsync(hflag, dflag, sizeof(int), cudaMemcpyDeviceToHost, s));
    GCHOL_CUDA(cudaStreamSynchronize(s));
done:
    return st;
}

int gchol_any_non_finite(const double *h, int64_t count)
{
    for (int64_t j = 0; j < count; ++j)
        if (!isfinite(h[j])) return 1;
    return 0;
}

int64_t gchol_free_parts(void *base, int64_t st, cudaStream_t s)
{
    if (!base) return st;
    cudaError_t e = cudaFreeAsync(base, s);
    return e != cudaSuccess && st == GCHOL_SUCCESS ? gchol_from_cuda(e) : st;
}

int64_t gchol_refine_fallback_double(char uplo, int64_t n, int64_t nrhs, double *dA, int64_t ldda,
                                     const double *dB, int64_t lddb, double *dX, int64_t lddx,
                                     gchol_queue_t q)
{
    int64_t st = GCHOL_SUCCESS, finfo = 0;
    GCHOL_CUDA(cudaMemcpy2DAsync(dX, (size_t)lddx * 8, dB, (size_t)lddb * 8, (size_t)n * 8,
                                 (size_t)nrhs, cudaMemcpyDeviceToDevice, q->stream));
    st = gchol_dpotrf_gpu(uplo, n, dA, ldda, &finfo, q);
    if (st != GCHOL_SUCCESS) return st; /* k > 0 or a library error */
    GCHOL_TRY(gchol_dpotrs_gpu(uplo, n, nrhs, dA, ldda, dX, lddx, &finfo, q));
    GCHOL_CUDA(cudaStreamSynchronize(q->stream));
done:
    return st;
}

static int64_t round_up(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

/* gchol_refine_host_call's job for gchol_host_call: the buffer's parts. */
typedef struct {
    gchol_refine_host_job_t job;
    void  *ctx;
    size_t boff, xoff;
} host_job_t;

static int64_t host_job(gchol_queue_t q, char *dbase, void *ctx, int *download)
{
    const host_job_t *c = ctx;
    return c->job(q, (const double *)dbase, (const double *)(dbase + c->boff),
                  (double *)(dbase + c->xoff), c->ctx, download);
}

int64_t gchol_refine_host_call(char uplo, int64_t n, int64_t nrhs, const double *A, int64_t lda,
                               const double *B, int64_t ldb, double *X, int64_t ldx,
                               gchol_refine_host_job_t job, void *ctx)
{
    const size_t w = sizeof(double), boff = (size_t)round_up(n * n, 32) * w;
    const size_t xoff = boff + (size_t)round_up(n * nrhs, 32) * w;
    host_job_t hj = { job, ctx, boff, xoff };
    const gchol_host_array_t arrays[] = {
        /* A's uplo triangle only: the refinements never read the other one */
        { .up = A, .ld = (size_t)lda * w, .width = (size_t)n * w, .offset = 0, .cols = n,
          .tri = uplo, .elsize = w },
        { .up = B, .ld = (size_t)ldb * w, .width = (size_t)n * w, .offset = boff, .cols = nrhs },
        { .down = X, .ld = (size_t)ldx * w, .width = (size_t)n * w, .offset = xoff,
          .cols = nrhs },
    };
    return gchol_host_call(arrays, 3, xoff + (size_t)(n * nrhs) * w, host_job, &hj);
}

int64_t gchol_refine_fallback_host(char uplo, int64_t n, int64_t nrhs, double *A, int64_t lda,
                                   const double *B, int64_t ldb, double *X, int64_t ldx)
{
    int64_t finfo = 0;
    int64_t st = gchol_dpotrf(uplo, n, A, lda, &finfo);
    for (int64_t j = 0; st == GCHOL_SUCCESS && j < nrhs; ++j)
        memcpy(X + j * ldx, B + j * ldb, (size_t)n * sizeof(double));
    if (st == GCHOL_SUCCESS) st = gchol_dpotrs(uplo, n, nrhs, A, lda, X, ldx, &finfo);
    return st;
}
