/*
 * queue.h -- the queue's layout (queue.c) and what the drivers do with it:
 * enter its device, grow its buffers, take the library-owned queue of the
 * host interface. Not installed.
 */
#ifndef GCHOL_QUEUE_H
#define GCHOL_QUEUE_H

#include "alloc.h"
#include "gchol.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

/* Order of the largest symmetric update done through scratch. */
#define GCHOL_SCRATCH_N 1024

struct gchol_tune_s;
struct gchol_stage_s;
struct gchol_queue_s {
    int            device;
    int            sm_count;     /* the device's multiprocessors               */
    const struct gchol_tune_s *tune; /* the tables for this device (src/tune/) */
    cudaStream_t   stream;       /* main stream: updates, results ordered here */
    cudaStream_t   panel_stream; /* high priority: lookahead panels            */
    int            owns_stream;  /* 0 when created from the caller's stream    */
    cublasHandle_t blas;         /* bound to stream                            */
    cublasHandle_t panel_blas;   /* bound to panel_stream: a handle's workspace
                                    must not be shared by two streams at once */
    cublasLtHandle_t lt;         /* for gemm_lt.c (stream passed per call)     */
    cudaEvent_t    ev_fork, ev_join, ev_panel, ev_update;
    cudaStream_t   up_stream;    /* host interface: uploads, and downloads of */
    cudaStream_t   down_stream;  /* finished columns beside the factorization */
    int64_t       *dinfo;        /* device info word of the synchronous forms  */
    int64_t       *hinfo;        /* pinned copy of it                          */
    void          *dwork;        /* device matrix of the host interface        */
    size_t         dwork_bytes;
    void          *hstage;       /* pinned staging of diagonal blocks          */
    void          *dscratch[2];  /* per stream (main, panel): GCHOL_SCRATCH_N^2
                                    elements of double, for syrk via gemm and
                                    the tiled kernel's inverses (dwork) when
                                    it runs on that stream                   */
    size_t         hstage_bytes;
    struct gchol_stage_s *stager; /* pinned chunked copies (host_stage.c)     */
    int            stager_failed;
    cudaMemPool_t  pool;         /* the routines' stream-ordered workspace: the
                                    queue's own pool, which keeps what
                                    gchol_queue_keep_memory allows across
                                    synchronizations (NULL: the device's
                                    default pool)                          */
    int           *dtile_sync;   /* GCHOL_TILED_SYNC_WORDS: tickets and ready
                                    flags of the tiled kernel; one launch at
                                    a time uses them (whole matrix on the main
                                    stream, or each panel in turn)          */
};

/* Makes the queue's device current; *prev receives the device to restore. */
int64_t gchol_queue_enter(gchol_queue_t q, int *prev);
void    gchol_queue_leave(int prev);

/* A routine's workspace, stream-ordered on the queue's stream from its pool;
 * no error is left behind when it fails (*p NULL then). Counted by the test
 * hooks (alloc.h). */
static inline cudaError_t gchol_queue_malloc(gchol_queue_t q, void **p, size_t bytes)
{
    return gchol_dev_malloc_async(p, bytes, q->pool, q->stream);
}

/* Grows the queue's device / pinned host buffers to at least `bytes`. */
int64_t gchol_queue_reserve_device(gchol_queue_t q, size_t bytes);
int64_t gchol_queue_reserve_host(gchol_queue_t q, size_t bytes);

/* The library-owned queue of the plain host interface, locked while used
 * (host_default_queue.c). */
int64_t gchol_default_queue_acquire(gchol_queue_t *q);
void    gchol_default_queue_release(void);

#endif
