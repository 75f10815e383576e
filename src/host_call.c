/*
 * host_call.c -- the trip that the host-memory forms of the solves share
 * (potrs.c, pftrs.c, sposv.c): the library-owned queue, its device buffer,
 * the host arrays up through the queue's stager, a device job, the results
 * down, one wait. (potrf_host.c and pftrf.c overlap their transfers with the
 * factorization and keep their own.)
 */
#include "internal.h"

enum { GCHOL_HOST_CALL_MAX = 8 };

_Thread_local int gchol_host_inout_written;

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
static int64_t upload_triangle(gchol_stage_t *stager, const gchol_host_array_t *a, char *d,
                               cudaStream_t s)
{
    const int upper = a->tri == 'U' || a->tri == 'u';
    return gchol_from_cuda(gchol_host_copy_triangle(stager, cudaMemcpyHostToDevice, upper,
                                                    a->cols, a->elsize, d, a->width,
                                                    (char *)a->up, a->ld, s));
}

int64_t gchol_host_call(const gchol_host_array_t *arrays, int count, size_t bytes,
                        gchol_host_job_t job, void *ctx)
{
    gchol_queue_t q = NULL;
    int prev = 0;
    int64_t st = gchol_default_queue_acquire(&q);
    if (st == GCHOL_SUCCESS && (st = gchol_queue_enter(q, &prev)) == GCHOL_SUCCESS) {
        st = gchol_queue_reserve_device(q, bytes);
        char *dbase = (char *)q->dwork;
        gchol_stage_t *stager[GCHOL_HOST_CALL_MAX] = { 0 };
        if (count > GCHOL_HOST_CALL_MAX) st = GCHOL_ERR_INVALID_VALUE;
        for (int k = 0; k < count && st == GCHOL_SUCCESS; ++k) /* one lookup per array */
            stager[k] = gchol_queue_stager(q, arrays[k].up ? arrays[k].up : arrays[k].down);
        for (int k = 0; k < count && st == GCHOL_SUCCESS; ++k) {
            const gchol_host_array_t *a = &arrays[k];
            if (a->up && a->tri)
                st = upload_triangle(stager[k], a, dbase + a->offset, q->stream);
            else if (a->up)
                st = gchol_from_cuda(gchol_copy_2d(stager[k], cudaMemcpyHostToDevice,
                                                   dbase + a->offset,
                                                   a->width, a->up, a->ld, a->width, a->cols,
                                                   q->stream));
        }
        int download = 1;
        if (st == GCHOL_SUCCESS) st = job(q, dbase, ctx, &download);
        for (int k = 0; k < count && st == GCHOL_SUCCESS && download; ++k) {
            const gchol_host_array_t *a = &arrays[k];
            if (a->down && a->up) gchol_host_inout_written = 1;
            if (a->down)
                st = gchol_from_cuda(gchol_copy_2d(stager[k], cudaMemcpyDeviceToHost, a->down,
                                                   a->ld,
                                                   dbase + a->offset, a->width, a->width, a->cols,
                                                   q->stream));
        }
        cudaError_t e = cudaStreamSynchronize(q->stream);
        if (st == GCHOL_SUCCESS) st = gchol_from_cuda(e);
        gchol_queue_leave(prev);
    }
    gchol_default_queue_release();
    return st;
}
