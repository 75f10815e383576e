/*
 * host_call.c -- the trip that the host-memory forms of the solves share
 * (potrs.c, pftrs.c, dsposv.c, dswls.c; host_io.h): the library-owned queue,
 * its device buffer, the host arrays up through the queue's stager, a device
 * job, the results down, one wait. (potrf_host.c and pftrf.c overlap their
 * transfers with the factorization and keep their own.)
 */
#include "host_io.h"

#include "queue.h"
#include "status.h"

enum { GCHOL_HOST_CALL_MAX = 8 };

_Thread_local int gchol_host_inout_written;

/* A's triangle (a->tri) up, with whole diagonal blocks. */
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
