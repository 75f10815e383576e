/*
 * host_stage.c -- 2D copies between pageable host memory and the device at
 * the speed of the link, for the host-memory interfaces.
 *
 * Why: a copy from or to pageable memory goes through the driver's own
 * small staging, one host thread at a time, at a sixth of the rate from
 * pinned memory (~9 GB/s up on the H100 machine). Pinning the caller's
 * array for the call costs more than it saves (cudaHostRegister: ~60 ms per
 * GB with the unregister). So each copy goes through a few pinned buffers of the queue,
 * chunk by chunk: a pool of host threads packs a chunk into a buffer (or
 * unpacks one out of it) while the DMA of another chunk runs. Eight memcpy
 * threads together move ~38 GB/s.
 *
 * Uploads return once the data is in the pinned buffers (the caller's array
 * may then change); the DMA runs on the given stream, so work enqueued
 * after it on that stream sees the data. Downloads return once the data is
 * in the caller's array. A stager belongs to one queue and, like the queue,
 * is used by one host thread at a time. Its buffer size, copy threshold and
 * thread count come from its creator (gchol_stage_config_t): the queue's
 * tuning table, or a test.
 */
#include "host_stage.h"
#include "alloc.h"
#include "status.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { kBufs = 2, kMaxThreads = 16 };

/* height runs of width bytes, each run at src + i*spitch to dst + i*dpitch */
typedef struct {
    char       *dst;
    const char *src;
    size_t      dpitch, spitch, width, height;
} rect_t;

struct gchol_stage_s;
typedef struct {
    struct gchol_stage_s *st;
    int                   part;
} worker_arg_t;

struct gchol_stage_s {
    void           *buf[2][kBufs]; /* [0]: uploads, [1]: downloads; pinned */
    cudaEvent_t     ev[2][kBufs];  /* the last DMA from / into each buffer  */
    int             next_up;
    int             nworkers;      /* threads besides the caller's          */
    pthread_t       th[kMaxThreads];
    worker_arg_t    arg[kMaxThreads];
    pthread_mutex_t mu;
    pthread_cond_t  go, done;
    int             sync_ready;    /* mu, go, done initialized              */
    unsigned        gen;           /* job number                            */
    int             pending, quit;
    rect_t          job;
    size_t          buf_bytes;     /* each buffer                           */
    size_t          parallel_min;  /* smaller copies: the caller alone      */
};

/* Part `part` of `parts` of a rectangle: a band of runs, or, with fewer
 * runs than parts (one long run, say), a band of bytes of every run. */
static void copy_part(const rect_t *r, int part, int parts)
{
    if (r->height >= (size_t)parts) {
        const size_t h0 = r->height * part / parts, h1 = r->height * (part + 1) / parts;
        for (size_t i = h0; i < h1; ++i)
            memcpy(r->dst + i * r->dpitch, r->src + i * r->spitch, r->width);
    } else {
        const size_t w0 = r->width * part / parts, w1 = r->width * (part + 1) / parts;
        for (size_t i = 0; i < r->height; ++i)
            memcpy(r->dst + i * r->dpitch + w0, r->src + i * r->spitch + w0, w1 - w0);
    }
}

static void *worker(void *p)
{
    const worker_arg_t *a = p;
    struct gchol_stage_s *st = a->st;
    unsigned seen = 0;
    pthread_mutex_lock(&st->mu);
    for (;;) {
        while (st->gen == seen && !st->quit) pthread_cond_wait(&st->go, &st->mu);
        if (st->quit) break;
        seen = st->gen;
        const rect_t job = st->job;
        pthread_mutex_unlock(&st->mu);
        copy_part(&job, a->part, st->nworkers + 1);
        pthread_mutex_lock(&st->mu);
        if (--st->pending == 0) pthread_cond_signal(&st->done);
    }
    pthread_mutex_unlock(&st->mu);
    return NULL;
}

/* The rectangle copied by the caller's thread and the workers together. */
static void parallel_copy(gchol_stage_t *st, rect_t r)
{
    if (r.dpitch == r.width && r.spitch == r.width) { /* one run */
        r.width *= r.height;
        r.height = 1;
        r.dpitch = r.spitch = r.width;
    }
    if (st->nworkers == 0 || r.width * r.height < st->parallel_min) {
        copy_part(&r, 0, 1);
        return;
    }
    pthread_mutex_lock(&st->mu);
    st->job = r;
    st->pending = st->nworkers;
    st->gen++;
    pthread_cond_broadcast(&st->go);
    pthread_mutex_unlock(&st->mu);
    copy_part(&r, 0, st->nworkers + 1);
    pthread_mutex_lock(&st->mu);
    while (st->pending > 0) pthread_cond_wait(&st->done, &st->mu);
    pthread_mutex_unlock(&st->mu);
}

void gchol_stage_destroy(gchol_stage_t *st)
{
    if (st == NULL) return;
    if (st->sync_ready) {
        pthread_mutex_lock(&st->mu);
        st->quit = 1;
        pthread_cond_broadcast(&st->go);
        pthread_mutex_unlock(&st->mu);
        for (int i = 0; i < st->nworkers; ++i) pthread_join(st->th[i], NULL);
        pthread_mutex_destroy(&st->mu);
        pthread_cond_destroy(&st->go);
        pthread_cond_destroy(&st->done);
    }
    for (int d = 0; d < 2; ++d)
        for (int i = 0; i < kBufs; ++i) {
            if (st->ev[d][i]) {
                (void)cudaEventSynchronize(st->ev[d][i]);
                cudaEventDestroy(st->ev[d][i]);
            }
            if (st->buf[d][i]) cudaFreeHost(st->buf[d][i]);
        }
    free(st);
}

int64_t gchol_stage_create(gchol_stage_t **out, const gchol_stage_config_t *cfg)
{
    *out = NULL;
    if (cfg == NULL || cfg->buffer_bytes == 0) return GCHOL_ERR_INVALID_VALUE;
    gchol_stage_t *st = calloc(1, sizeof(*st));
    if (st == NULL) return GCHOL_ERR_HOST_ALLOC;
    st->buf_bytes = cfg->buffer_bytes;
    st->parallel_min = cfg->parallel_min;
    for (int d = 0; d < 2; ++d)
        for (int i = 0; i < kBufs; ++i) {
            if (gchol_host_malloc(&st->buf[d][i], st->buf_bytes) != cudaSuccess) {
                gchol_stage_destroy(st);
                return GCHOL_ERR_HOST_ALLOC;
            }
            cudaError_t e = cudaEventCreateWithFlags(&st->ev[d][i], cudaEventDisableTiming);
            if (e != cudaSuccess) {
                st->ev[d][i] = NULL;
                gchol_stage_destroy(st);
                return gchol_from_cuda(e);
            }
        }
    if (pthread_mutex_init(&st->mu, NULL) == 0) {
        if (pthread_cond_init(&st->go, NULL) == 0) {
            if (pthread_cond_init(&st->done, NULL) == 0) st->sync_ready = 1;
            else pthread_cond_destroy(&st->go);
        }
        if (!st->sync_ready) pthread_mutex_destroy(&st->mu);
    }
    /* without threads (or some of them) the caller copies more itself */
    const int threads = cfg->threads < 1 ? 1 : cfg->threads > kMaxThreads + 1 ? kMaxThreads + 1
                                                                              : cfg->threads;
    const int want = st->sync_ready ? threads - 1 : 0;
    for (int i = 0; i < want; ++i) {
        st->arg[i] = (worker_arg_t){ st, i + 1 };
        if (pthread_create(&st->th[i], NULL, worker, &st->arg[i]) != 0) break;
        st->nworkers = i + 1;
    }
    *out = st;
    return GCHOL_SUCCESS;
}

/* Chunks of a width x height copy that fit one buffer: columns of width
 * runs when a run fits, else pieces of runs one run at a time. */
typedef struct {
    size_t wc, rows_per, nw, nr;
} chunking_t;

static chunking_t chunking(const gchol_stage_t *st, size_t width, size_t height)
{
    chunking_t c;
    c.wc = width < st->buf_bytes ? width : st->buf_bytes;
    c.rows_per = st->buf_bytes / c.wc;
    c.nw = (width + c.wc - 1) / c.wc;
    c.nr = (height + c.rows_per - 1) / c.rows_per;
    return c;
}

/* Chunk i: bytes [w0, w0+ww) of runs [r0, r0+rr). */
static void chunk_at(const chunking_t *c, size_t width, size_t height, size_t i, size_t *w0,
                     size_t *ww, size_t *r0, size_t *rr)
{
    *w0 = (i / c->nr) * c->wc;
    *r0 = (i % c->nr) * c->rows_per;
    *ww = width - *w0 < c->wc ? width - *w0 : c->wc;
    *rr = height - *r0 < c->rows_per ? height - *r0 : c->rows_per;
}

cudaError_t gchol_stage_h2d(gchol_stage_t *st, void *d, size_t dpitch, const void *h,
                            size_t hpitch, size_t width, size_t height, cudaStream_t s)
{
    if (width == 0 || height == 0) return cudaSuccess;
    const chunking_t c = chunking(st, width, height);
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < c.nw * c.nr && e == cudaSuccess; ++i) {
        size_t w0, ww, r0, rr;
        chunk_at(&c, width, height, i, &w0, &ww, &r0, &rr);
        const int b = st->next_up;
        st->next_up = (b + 1) % kBufs;
        /* the buffer's previous DMA has read it */
        if ((e = cudaEventSynchronize(st->ev[0][b])) != cudaSuccess) break;
        parallel_copy(st, (rect_t){ st->buf[0][b], (const char *)h + r0 * hpitch + w0, ww, hpitch,
                                    ww, rr });
        e = cudaMemcpy2DAsync((char *)d + r0 * dpitch + w0, dpitch, st->buf[0][b], ww, ww, rr,
                              cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess) e = cudaEventRecord(st->ev[0][b], s);
    }
    return e;
}

cudaError_t gchol_stage_d2h(gchol_stage_t *st, void *h, size_t hpitch, const void *d,
                            size_t dpitch, size_t width, size_t height, cudaStream_t s)
{
    if (width == 0 || height == 0) return cudaSuccess;
    const chunking_t c = chunking(st, width, height);
    const size_t count = c.nw * c.nr;
    cudaError_t e = cudaSuccess;
    /* DMA of chunk i into buffer i % kBufs; kBufs chunks in flight */
    for (size_t i = 0; i < count + kBufs && e == cudaSuccess; ++i) {
        size_t w0, ww, r0, rr;
        if (i >= kBufs) { /* unpack chunk i - kBufs */
            const size_t k = i - kBufs;
            const int b = (int)(k % kBufs);
            chunk_at(&c, width, height, k, &w0, &ww, &r0, &rr);
            if ((e = cudaEventSynchronize(st->ev[1][b])) != cudaSuccess) break;
            parallel_copy(st, (rect_t){ (char *)h + r0 * hpitch + w0, st->buf[1][b], hpitch, ww,
                                        ww, rr });
        }
        if (i < count) {
            const int b = (int)(i % kBufs);
            chunk_at(&c, width, height, i, &w0, &ww, &r0, &rr);
            e = cudaMemcpy2DAsync(st->buf[1][b], ww, (const char *)d + r0 * dpitch + w0, dpitch,
                                  ww, rr, cudaMemcpyDeviceToHost, s);
            if (e == cudaSuccess) e = cudaEventRecord(st->ev[1][b], s);
        }
    }
    return e;
}
