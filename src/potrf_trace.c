/*
 * potrf_trace.c -- the timeline of a traced factorization
 * (gchol_options_t.trace): a pair of CUDA events around each driver-level
 * operation, read out once the factorization has completed.
 * Precision-generic (see prec.h).
 */
#include "prec.h"
#include "potrf_driver.h"

#include "status.h"

#include <stdlib.h>

/* gchol_dpotrf_trace_begin, gchol_spotrf_trace_begin */
int64_t PFX(potrf_trace_begin)(fact_t *f, int s)
{
    if (!f->tracing) return GCHOL_SUCCESS;
    if (f->nrecs == f->caprecs) {
        int64_t cap = f->caprecs ? 2 * f->caprecs : 256;
        trace_rec_t *p = realloc(f->recs, (size_t)cap * sizeof(*p));
        if (p == NULL) return GCHOL_ERR_HOST_ALLOC;
        f->recs = p;
        f->caprecs = cap;
    }
    trace_rec_t *r = &f->recs[f->nrecs];
    cudaError_t e = cudaEventCreate(&r->start);
    if (e != cudaSuccess) return gchol_from_cuda(e);
    if ((e = cudaEventCreate(&r->end)) != cudaSuccess) {
        cudaEventDestroy(r->start);
        return gchol_from_cuda(e);
    }
    f->nrecs++;
    return gchol_from_cuda(cudaEventRecord(r->start, stream_of(f, s)));
}

/* gchol_dpotrf_trace_end, gchol_spotrf_trace_end */
int64_t PFX(potrf_trace_end)(fact_t *f, int s, int op, int64_t block, int64_t m, int64_t n,
                             int64_t k)
{
    if (!f->tracing) return GCHOL_SUCCESS;
    trace_rec_t *r = &f->recs[f->nrecs - 1];
    gchol_trace_event_t ev = { s, op, block, m, n, k, 0.f, 0.f };
    r->info = ev;
    return gchol_from_cuda(cudaEventRecord(r->end, stream_of(f, s)));
}

/* gchol_dpotrf_trace_finish, gchol_spotrf_trace_finish */
void PFX(potrf_trace_finish)(fact_t *f, gchol_trace_t *trace, int ok)
{
    if (trace != NULL) trace->count = ok ? f->nrecs : 0;
    for (int64_t i = 0; i < f->nrecs; ++i) {
        trace_rec_t *r = &f->recs[i];
        if (ok && i < trace->capacity) {
            r->info.start_ms = r->info.end_ms = 0.f;
            (void)cudaEventElapsedTime(&r->info.start_ms, f->t0, r->start);
            (void)cudaEventElapsedTime(&r->info.end_ms, f->t0, r->end);
            trace->events[i] = r->info;
        }
        cudaEventDestroy(r->start);
        cudaEventDestroy(r->end);
    }
    free(f->recs);
    if (f->t0) cudaEventDestroy(f->t0);
}
