/*
 * host_copy.c -- 2D copies between host and device memory for the
 * host-memory forms (host_io.h): straight through the driver from pinned
 * memory, through the queue's stager from pageable memory, whole arrays or
 * one triangle in block columns.
 */
#include "host_io.h"

#include "env.h"
#include "host_stage.h"
#include "queue.h"
#include "tune/tune.h"

gchol_stage_t *gchol_queue_stager(gchol_queue_t q, const void *h)
{
    struct cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, h) == cudaSuccess && attr.type == cudaMemoryTypeHost)
        return NULL;
    (void)cudaGetLastError();
    if (q->stager || q->stager_failed) return q->stager;
    gchol_stage_config_t cfg;
    gchol_tune_stage_config(q->tune, &cfg);
    if (!gchol_env_host_stage() || gchol_stage_create(&q->stager, &cfg) != GCHOL_SUCCESS) {
        q->stager = NULL;
        q->stager_failed = 1;
    }
    return q->stager;
}

cudaError_t gchol_copy_2d(gchol_stage_t *st, enum cudaMemcpyKind kind, void *dst, size_t dpitch,
                          const void *src, size_t spitch, size_t width, size_t height,
                          cudaStream_t s)
{
    const int up = kind == cudaMemcpyHostToDevice;
    if (st == NULL) return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, s);
    return up ? gchol_stage_h2d(st, dst, dpitch, src, spitch, width, height, s)
              : gchol_stage_d2h(st, dst, dpitch, src, spitch, width, height, s);
}

/* A square array's 'L' or 'U' triangle only, with whole diagonal blocks of
 * kTriBlock columns: each block column in one copy, rows j.. (L) or ..j+jb
 * (U). Half the bytes of the whole array for large n; the rest of the
 * destination is left as it was. A part: block columns [c0, c1) of 'L',
 * or rows [c0, c1) of every block column from c0 on of 'U'. */
enum { kTriBlock = GCHOL_TRI_BLOCK };
cudaError_t gchol_host_copy_triangle_part(gchol_stage_t *stager, enum cudaMemcpyKind kind,
                                          int upper, int64_t n, int64_t c0, int64_t c1, size_t es,
                                          char *d, size_t dpitch, char *h, size_t hpitch,
                                          cudaStream_t s)
{
    const int up = kind == cudaMemcpyHostToDevice;
    cudaError_t e = cudaSuccess;
    for (int64_t j = c0; j < (upper ? n : c1) && e == cudaSuccess; j += kTriBlock) {
        const int64_t jb = n - j < kTriBlock ? n - j : kTriBlock;
        const int64_t r1 = upper ? (j + jb < c1 ? j + jb : c1) : n;
        const int64_t r0 = upper ? c0 : j, rows = r1 - r0;
        char *dj = d + ((size_t)j * dpitch + r0 * es), *hj = h + ((size_t)j * hpitch + r0 * es);
        e = up ? gchol_copy_2d(stager, kind, dj, dpitch, hj, hpitch, (size_t)rows * es, jb, s)
               : gchol_copy_2d(stager, kind, hj, hpitch, dj, dpitch, (size_t)rows * es, jb, s);
    }
    return e;
}

cudaError_t gchol_host_copy_triangle(gchol_stage_t *stager, enum cudaMemcpyKind kind, int upper,
                                     int64_t n, size_t es, char *d, size_t dpitch, char *h,
                                     size_t hpitch, cudaStream_t s)
{
    return gchol_host_copy_triangle_part(stager, kind, upper, n, 0, n, es, d, dpitch, h, hpitch, s);
}

cudaError_t gchol_host_upload_diag_blocks(gchol_stage_t *stager, int64_t n, size_t es, char *d,
                                          size_t dpitch, const char *h, size_t hpitch,
                                          cudaStream_t s)
{
    cudaError_t e = cudaSuccess;
    for (int64_t j = 0; j < n && e == cudaSuccess; j += kTriBlock) {
        const int64_t jb = n - j < kTriBlock ? n - j : kTriBlock;
        const size_t off_d = (size_t)j * dpitch + j * es, off_h = (size_t)j * hpitch + j * es;
        e = gchol_copy_2d(stager, cudaMemcpyHostToDevice, d + off_d, dpitch, h + off_h, hpitch,
                          (size_t)jb * es, jb, s);
    }
    return e;
}
