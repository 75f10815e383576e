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
 * (U). Half the bytes of the whole array for large n; the rest of the device
 * copy is left as it was. */
enum { kTriBlock = 256 };
static int64_t upload_triangle(gchol_stage_t *stager, const gchol_host_array_t *a, char *d,
                               cudaStream_t s)
{
    const size_t es = a->elsize;
    const int64_t n = a->cols;
    const int upper = a->tri == 'U' || a->tri == 'u';
    cudaError_t e = cudaSuccess;
    for (int64_t j = 0; j < n && e == cudaSuccess; j += kTriBlock) {
        const int64_t jb = n - j < kTriBlock ? n - j : kTriBlock;
        const int64_t r0 = upper ? 0 : j, rows = upper ? j + jb : n - j;
        e = gchol_copy_2d(stager, cudaMemcpyHostToDevice, d + ((size_t)j * a->width + r0 * es),
                          a->width, (const char *)a->up + ((size_t)j * a->ld + r0 * es), a->ld,
                          (size_t)rows * es, jb, s);
    }
    return gchol_from_cuda(e);
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
