/*
 * queue.c -- the gchol queue (queue.h): device, streams, cuBLAS handles,
 * events, device info word and reusable workspace.
 */
#include "queue.h"

#include "host_stage.h"
#include "status.h"
#include "tune/tune.h"

#include "../kernels/gchol_kernels.h"

#include <stdlib.h>

int64_t gchol_queue_enter(gchol_queue_t q, int *prev)
{
    cudaError_t e = cudaGetDevice(prev);
    if (e != cudaSuccess) return gchol_from_cuda(e);
    if (*prev != q->device) {
        e = cudaSetDevice(q->device);
        if (e != cudaSuccess) return gchol_from_cuda(e);
    }
    return GCHOL_SUCCESS;
}

void gchol_queue_leave(int prev)
{
    int cur;
    if (cudaGetDevice(&cur) == cudaSuccess && cur != prev) (void)cudaSetDevice(prev);
}

/* Creates everything but the main stream, which the caller has set. */
static int64_t queue_init(gchol_queue_t q)
{
    int64_t st = GCHOL_SUCCESS;
    int least, greatest;
    GCHOL_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    /* The panel is the critical path: its blocks go first when SMs free up. */
    GCHOL_CUDA(cudaStreamCreateWithPriority(&q->panel_stream, cudaStreamNonBlocking, greatest));
    GCHOL_BLAS(gchol_blas_create(&q->blas));
    GCHOL_BLAS(cublasSetStream(q->blas, q->stream));
    GCHOL_BLAS(gchol_blas_create(&q->panel_blas));
    GCHOL_BLAS(cublasSetStream(q->panel_blas, q->panel_stream));
    GCHOL_BLAS(gchol_blaslt_create(&q->lt));
    GCHOL_CUDA(cudaEventCreateWithFlags(&q->ev_fork, cudaEventDisableTiming));
    GCHOL_CUDA(cudaEventCreateWithFlags(&q->ev_join, cudaEventDisableTiming));
    GCHOL_CUDA(cudaEventCreateWithFlags(&q->ev_panel, cudaEventDisableTiming));
    GCHOL_CUDA(cudaEventCreateWithFlags(&q->ev_update, cudaEventDisableTiming));
    GCHOL_CUDA(cudaStreamCreateWithFlags(&q->up_stream, cudaStreamNonBlocking));
    GCHOL_CUDA(cudaStreamCreateWithFlags(&q->down_stream, cudaStreamNonBlocking));
    GCHOL_CUDA(gchol_dev_malloc((void **)&q->dinfo, sizeof(int64_t)));
    {
        const cudaError_t e = gchol_host_malloc((void **)&q->hinfo, sizeof(int64_t));
        if (e != cudaSuccess) { st = gchol_from_host_alloc(e); goto done; }
    }
    /* Allocated here, never in a factorization: the async form must not
     * synchronize the host, and cudaMalloc may. */
    for (int i = 0; i < 2; ++i)
        GCHOL_CUDA(gchol_dev_malloc(&q->dscratch[i],
                                    (size_t)GCHOL_SCRATCH_N * GCHOL_SCRATCH_N * sizeof(double)));
    GCHOL_CUDA(gchol_dev_malloc((void **)&q->dtile_sync, GCHOL_TILED_SYNC_WORDS * sizeof(int)));
    {
        /* The queue's own pool, so that what it keeps (none by default: its
         * release threshold is 0, as the default pool's) is the queue's
         * alone; without stream-ordered pools, the default's calls fail
         * alike and the routines answer as for no room. */
        struct cudaMemPoolProps props = { 0 };
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = q->device;
        if (cudaMemPoolCreate(&q->pool, &props) != cudaSuccess) {
            (void)cudaGetLastError();
            q->pool = NULL;
        }
    }
done:
    return st;
}

static int64_t queue_create(int device, cudaStream_t stream, int own, gchol_queue_t *queue)
{
    if (queue == NULL) return GCHOL_ERR_INVALID_VALUE;
    *queue = NULL;
    /* No GPU or no driver (GCHOL_ERR_NO_DEVICE) is told apart from a driver
     * too old for this CUDA runtime (GCHOL_ERR_DRIVER_TOO_OLD). */
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        (void)cudaGetLastError(); /* clear the sticky-free error */
        return e != cudaSuccess ? gchol_no_device_status(e) : GCHOL_ERR_NO_DEVICE;
    }
    int prev = 0;
    if (cudaGetDevice(&prev) != cudaSuccess) return GCHOL_ERR_NO_DEVICE;
    if (device < 0) device = prev;
    if (device >= count) return GCHOL_ERR_NO_DEVICE;

    gchol_queue_t q = calloc(1, sizeof(*q));
    if (q == NULL) return GCHOL_ERR_HOST_ALLOC;
    q->device = device;
    q->tune = gchol_tune_for_device(device); /* the tables of its architecture */
    int64_t st = GCHOL_SUCCESS;
    GCHOL_CUDA(cudaSetDevice(device));
    GCHOL_CUDA(cudaDeviceGetAttribute(&q->sm_count, cudaDevAttrMultiProcessorCount, device));
    if (own) {
        /* A blocking stream: it synchronizes with the legacy default stream,
         * so a plain cudaMemcpy before or after a gchol call is ordered with
         * it (a pageable cudaMemcpy can return before its DMA has landed). */
        GCHOL_CUDA(cudaStreamCreateWithFlags(&q->stream, cudaStreamDefault));
        q->owns_stream = 1;
    } else {
        q->stream = stream;
    }
    GCHOL_TRY(queue_init(q));
done:
    gchol_queue_leave(prev);
    if (st != GCHOL_SUCCESS) { gchol_queue_destroy(q); return st; }
    *queue = q;
    return GCHOL_SUCCESS;
}

int64_t gchol_queue_create(int device, gchol_queue_t *queue)
{
    return queue_create(device, NULL, 1, queue);
}

int64_t gchol_queue_create_from_stream(int device, cudaStream_t stream, gchol_queue_t *queue)
{
    return queue_create(device, stream, 0, queue);
}

int64_t gchol_queue_destroy(gchol_queue_t q)
{
    if (q == NULL) return GCHOL_SUCCESS;
    int prev = 0;
    int64_t st = gchol_queue_enter(q, &prev);
    if (st == GCHOL_SUCCESS) {
        if (q->stream) st = gchol_from_cuda(cudaStreamSynchronize(q->stream));
        if (q->panel_stream) (void)cudaStreamSynchronize(q->panel_stream);
        if (q->up_stream) (void)cudaStreamSynchronize(q->up_stream);
        if (q->down_stream) (void)cudaStreamSynchronize(q->down_stream);
        if (q->blas) cublasDestroy(q->blas);
        if (q->panel_blas) cublasDestroy(q->panel_blas);
        if (q->lt) cublasLtDestroy(q->lt);
        if (q->ev_fork) cudaEventDestroy(q->ev_fork);
        if (q->ev_join) cudaEventDestroy(q->ev_join);
        if (q->ev_panel) cudaEventDestroy(q->ev_panel);
        if (q->ev_update) cudaEventDestroy(q->ev_update);
        if (q->dinfo) cudaFree(q->dinfo);
        if (q->hinfo) cudaFreeHost(q->hinfo);
        if (q->dwork) cudaFree(q->dwork);
        for (int i = 0; i < 2; ++i)
            if (q->dscratch[i]) cudaFree(q->dscratch[i]);
        if (q->dtile_sync) cudaFree(q->dtile_sync);
        if (q->pool) cudaMemPoolDestroy(q->pool); /* every workspace freed above */
        if (q->hstage) cudaFreeHost(q->hstage);
        gchol_stage_destroy(q->stager);
        if (q->panel_stream) cudaStreamDestroy(q->panel_stream);
        if (q->up_stream) cudaStreamDestroy(q->up_stream);
        if (q->down_stream) cudaStreamDestroy(q->down_stream);
        if (q->owns_stream && q->stream) cudaStreamDestroy(q->stream);
        gchol_queue_leave(prev);
    }
    free(q);
    return st;
}

cudaStream_t gchol_queue_stream(gchol_queue_t q) { return q ? q->stream : NULL; }

int64_t gchol_queue_sync(gchol_queue_t q)
{
    if (q == NULL) return GCHOL_ERR_INVALID_QUEUE;
    int prev = 0;
    int64_t st = gchol_queue_enter(q, &prev);
    if (st != GCHOL_SUCCESS) return st;
    st = gchol_from_cuda(cudaStreamSynchronize(q->stream));
    gchol_queue_leave(prev);
    return st;
}

int64_t gchol_queue_keep_memory(gchol_queue_t q, size_t bytes)
{
    if (q == NULL) return GCHOL_ERR_INVALID_QUEUE;
    if (q->pool == NULL) return GCHOL_SUCCESS; /* nothing kept: nothing to do */
    int prev = 0;
    int64_t st = gchol_queue_enter(q, &prev);
    if (st != GCHOL_SUCCESS) return st;
    uint64_t threshold = bytes;
    GCHOL_CUDA(cudaMemPoolSetAttribute(q->pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    /* what the queue's finished work freed, beyond `bytes`, returns now */
    GCHOL_CUDA(cudaStreamSynchronize(q->stream));
    GCHOL_CUDA(cudaMemPoolTrimTo(q->pool, bytes));
done:
    gchol_queue_leave(prev);
    return st;
}

int64_t gchol_queue_reserve_device(gchol_queue_t q, size_t bytes)
{
    if (bytes <= q->dwork_bytes) return GCHOL_SUCCESS;
    if (q->dwork) {
        cudaError_t e = cudaStreamSynchronize(q->stream);
        if (e != cudaSuccess) return gchol_from_cuda(e);
        cudaFree(q->dwork);
        q->dwork = NULL;
        q->dwork_bytes = 0;
    }
    cudaError_t e = gchol_dev_malloc(&q->dwork, bytes);
    if (e != cudaSuccess) return gchol_from_cuda(e);
    q->dwork_bytes = bytes;
    return GCHOL_SUCCESS;
}

int64_t gchol_queue_reserve_host(gchol_queue_t q, size_t bytes)
{
    if (bytes <= q->hstage_bytes) return GCHOL_SUCCESS;
    if (q->hstage) {
        cudaError_t e = cudaStreamSynchronize(q->stream);
        if (e != cudaSuccess) return gchol_from_cuda(e);
        cudaFreeHost(q->hstage);
        q->hstage = NULL;
        q->hstage_bytes = 0;
    }
    cudaError_t e = gchol_host_malloc(&q->hstage, bytes);
    if (e != cudaSuccess) return gchol_from_host_alloc(e);
    q->hstage_bytes = bytes;
    return GCHOL_SUCCESS;
}
