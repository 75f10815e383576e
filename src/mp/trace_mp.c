/*
 * trace_mp.c -- a rank's timeline of a distributed factorization
 * (gchol_mp_grid_set_trace): a pair of CUDA events around each local
 * operation on the stream it runs on, read out once the call has completed.
 */
#include "mp.h"

#include <stdlib.h>

typedef struct {
    cudaEvent_t start, end;
    gchol_trace_event_t info;
} mp_trace_rec_t;

int64_t gchol_mp_grid_set_trace(gchol_mp_grid_t grid, gchol_trace_t *trace)
{
    if (!grid) return -1;
    if (trace && (trace->capacity < 0 || (trace->capacity > 0 && !trace->events))) return -2;
    grid->trace = trace;
    return GCHOL_SUCCESS;
}

/* Two events on the grid's device (the caller's current device may be
 * another); 0, or nonzero with none made. */
static int make_events(const gchol_mp_grid_t g, cudaEvent_t *a, cudaEvent_t *b)
{
    int prev = -1;
    *a = NULL;
    if (b) *b = NULL;
    if (cudaGetDevice(&prev) != cudaSuccess) return 1;
    if (prev != g->device && cudaSetDevice(g->device) != cudaSuccess) return 1;
    int bad = cudaEventCreate(a) != cudaSuccess || (b && cudaEventCreate(b) != cudaSuccess);
    if (bad) {
        if (*a) (void)cudaEventDestroy(*a);
        *a = NULL;
    }
    if (prev != g->device) (void)cudaSetDevice(prev);
    return bad;
}

/* The timeline is given up, the factorization goes on: finish reports no
 * events. */
static int64_t give_up(gchol_mp_grid_t g)
{
    (void)cudaGetLastError();
    g->trace_broken = 1;
    return GCHOL_SUCCESS;
}

int64_t gchol_mp_trace_start(gchol_mp_grid_t g)
{
    g->trace_count = 0;
    g->trace_block = 0;
    g->trace_broken = 0;
    if (!g->trace) return GCHOL_SUCCESS;
    cudaEvent_t t0 = NULL;
    if (make_events(g, &t0, NULL) != 0) return give_up(g);
    g->trace_t0 = t0;
    if (cudaEventRecord(t0, gchol_queue_stream(g->queue)) != cudaSuccess) return give_up(g);
    return GCHOL_SUCCESS;
}

int64_t gchol_mp_trace_begin(gchol_mp_grid_t g, cudaStream_t s)
{
    if (!g->trace || !g->trace_t0 || g->trace_broken) return GCHOL_SUCCESS;
    if (g->trace_count == g->trace_cap) {
        const int64_t cap = g->trace_cap ? 2 * g->trace_cap : 1024;
        mp_trace_rec_t *p = realloc(g->trace_recs, (size_t)cap * sizeof *p);
        if (!p) return give_up(g);
        g->trace_recs = p;
        g->trace_cap = cap;
    }
    mp_trace_rec_t *r = (mp_trace_rec_t *)g->trace_recs + g->trace_count;
    if (make_events(g, &r->start, &r->end) != 0) return give_up(g);
    const gchol_trace_event_t none = { -1, -1, 0, 0, 0, 0, 0.f, 0.f }; /* until its end */
    r->info = none;
    g->trace_count++;
    if (cudaEventRecord(r->start, s) != cudaSuccess) return give_up(g);
    return GCHOL_SUCCESS;
}

int64_t gchol_mp_trace_end(gchol_mp_grid_t g, cudaStream_t s, int stream_id, int op, int64_t m,
                           int64_t n, int64_t k)
{
    if (!g->trace || !g->trace_t0 || g->trace_broken || g->trace_count == 0)
        return GCHOL_SUCCESS;
    mp_trace_rec_t *r = (mp_trace_rec_t *)g->trace_recs + g->trace_count - 1;
    const gchol_trace_event_t ev = { stream_id, op, g->trace_block, m, n, k, 0.f, 0.f };
    if (cudaEventRecord(r->end, s) != cudaSuccess) return give_up(g);
    r->info = ev;
    return GCHOL_SUCCESS;
}

void gchol_mp_trace_finish(gchol_mp_grid_t g, int ok)
{
    gchol_trace_t *t = g->trace;
    mp_trace_rec_t *recs = g->trace_recs;
    if (!t) return;
    if (!g->trace_t0) { /* given up at the start */
        t->count = 0;
        return;
    }
    int64_t stored = 0;
    for (int64_t i = 0; i < g->trace_count; ++i) {
        mp_trace_rec_t *r = &recs[i];
        if (ok && !g->trace_broken && r->info.stream >= 0) {
            if (stored < t->capacity) {
                r->info.start_ms = r->info.end_ms = 0.f;
                (void)cudaEventElapsedTime(&r->info.start_ms, (cudaEvent_t)g->trace_t0, r->start);
                (void)cudaEventElapsedTime(&r->info.end_ms, (cudaEvent_t)g->trace_t0, r->end);
                t->events[stored] = r->info;
            }
            ++stored;
        }
        (void)cudaEventDestroy(r->start);
        (void)cudaEventDestroy(r->end);
    }
    (void)cudaGetLastError();
    t->count = stored;
    (void)cudaEventDestroy((cudaEvent_t)g->trace_t0);
    g->trace_t0 = NULL;
    free(g->trace_recs);
    g->trace_recs = NULL;
    g->trace_count = g->trace_cap = 0;
}
