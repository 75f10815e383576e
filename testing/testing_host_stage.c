/*
 * testing_host_stage.c -- host-side test of the staged copies of
 * src/host_stage.c (pinned buffers, chunking, the thread pool), with the
 * CUDA runtime mocked: "pinned" buffers are malloc'd and each DMA is a
 * synchronous 2D memcpy. The stagers get a small buffer size and a small
 * threshold for the thread pool (gchol_stage_config_t), so that every
 * rectangle is cut into many chunks, runs into pieces, buffers are reused
 * and the threads split each chunk. Needs neither a GPU nor libgchol: it
 * runs in CI.
 *
 * For random rectangles (width x height runs, source and destination
 * pitches with padding, long single runs, contiguous ones) and 1, 4 and 9
 * threads, it uploads from a "host" array to a "device" array and
 * downloads into a third array, then checks that every byte arrived and
 * that no padding byte of either destination was written. First, each
 * pinned buffer's allocation fails in turn: the creation must report
 * GCHOL_ERR_HOST_ALLOC and free what it had.
 */
#include "host_stage.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STAGE_BYTES = 4096, STAGE_PARALLEL_MIN = 64 };

/* ---- the mocked runtime --------------------------------------------------- */
static long g_dma;
cudaError_t cudaMallocHost(void **p, size_t b)
{
    *p = malloc(b);
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaFreeHost(void *p) { free(p); return cudaSuccess; }
/* src/alloc.c's wrapper (not linked here): the g_fail_at-th call fails */
static int g_pinned, g_fail_at;
cudaError_t gchol_host_malloc(void **p, size_t b)
{
    if (++g_pinned == g_fail_at) { *p = NULL; return cudaErrorMemoryAllocation; }
    return cudaMallocHost(p, b);
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
    (void)flags;
    *e = (cudaEvent_t)malloc(16);
    return *e ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaEventDestroy(cudaEvent_t e) { free(e); return cudaSuccess; }
cudaError_t cudaEventSynchronize(cudaEvent_t e) { (void)e; return cudaSuccess; }
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) { (void)e; (void)s; return cudaSuccess; }
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
cudaError_t cudaMemcpy2DAsync(void *d, size_t dpitch, const void *s, size_t spitch, size_t w,
                              size_t h, enum cudaMemcpyKind kind, cudaStream_t st)
{
    (void)kind; (void)st;
    g_dma++;
    for (size_t i = 0; i < h; ++i) memcpy((char *)d + i * dpitch, (const char *)s + i * spitch, w);
    return cudaSuccess;
}

/* ---- the test ------------------------------------------------------------- */
/* One rectangle up and back; 0 if every byte arrived and no pad changed. */
static int round_trip(gchol_stage_t *st, size_t width, size_t height, size_t hp, size_t dp)
{
    char *h = malloc(hp * height), *d = malloc(dp * height), *back = malloc(hp * height);
    int bad = !h || !d || !back;
    if (!bad) {
        for (size_t i = 0; i < hp * height; ++i) { h[i] = (char)rand(); back[i] = 0x5a; }
        memset(d, 0xa5, dp * height);
        bad = gchol_stage_h2d(st, d, dp, h, hp, width, height, 0) != cudaSuccess ||
              gchol_stage_d2h(st, back, hp, d, dp, width, height, 0) != cudaSuccess;
        for (size_t i = 0; i < height && !bad; ++i) {
            bad = memcmp(h + i * hp, back + i * hp, width) != 0;
            for (size_t k = width; k < hp && !bad; ++k) bad = back[i * hp + k] != 0x5a;
            for (size_t k = width; k < dp && !bad; ++k) bad = d[i * dp + k] != (char)0xa5;
        }
    }
    free(h); free(d); free(back);
    return bad;
}

int main(int argc, char **argv)
{
    static const int threads[] = { 1, 4, 9 };
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: testing_host_stage (no options)\n");
        return 2;
    }
    printf("testing_host_stage  (src/host_stage.c, CUDA mocked, stage %d bytes)\n",
           (int)STAGE_BYTES);
    srand(2026);
    /* each pinned buffer failing in turn: the creation reports it and frees
     * what it had (the ASan build checks the leaks); then one succeeds */
    for (int k = 1;; ++k) {
        const gchol_stage_config_t cfg = { STAGE_BYTES, STAGE_PARALLEL_MIN, 4 };
        gchol_stage_t *st = (gchol_stage_t *)&g_dma;
        g_pinned = 0;
        g_fail_at = k;
        const int64_t r = gchol_stage_create(&st, &cfg);
        g_fail_at = 0;
        if (r == GCHOL_SUCCESS || k > 8) {
            testing_expect(r == GCHOL_SUCCESS && st && k == 5 && g_pinned == 4,
                           "create after %d failing pinned allocations: status %lld, %d buffers",
                           k - 1, (long long)r, g_pinned);
            gchol_stage_destroy(st);
            break;
        }
        testing_expect(r == GCHOL_ERR_HOST_ALLOC && st == NULL && g_pinned == k,
                       "create with pinned buffer %d failing: status %lld (want %d), stager %s",
                       k, (long long)r, GCHOL_ERR_HOST_ALLOC, st ? "set" : "NULL");
    }
    for (int t = 0; t < 3; ++t) {
        const gchol_stage_config_t cfg = { STAGE_BYTES, STAGE_PARALLEL_MIN, threads[t] };
        gchol_stage_t *st = NULL;
        if (gchol_stage_create(&st, &cfg) != GCHOL_SUCCESS) {
            testing_expect(0, "create with %d threads", threads[t]);
            continue;
        }
        int ok = 0, bad = 0;
        const long dma0 = g_dma;
        for (int c = 0; c < 300; ++c) {
            size_t width = 1 + rand() % 3000, height = 1 + rand() % 700;
            if (c % 7 == 0) { width = 1 + rand() % 200000; height = 1 + rand() % 3; } /* long runs */
            size_t hp = width + rand() % 50, dp = width + rand() % 50;
            if (c % 5 == 0) hp = dp = width; /* contiguous */
            if (round_trip(st, width, height, hp, dp)) {
                printf("  FAILED  %d threads: width %zu height %zu pitches %zu/%zu\n", threads[t],
                       width, height, hp, dp);
                testing_record(TESTING_FAILED);
                bad++;
            } else {
                testing_record(TESTING_PASSED);
                ok++;
            }
        }
        /* empty copies do nothing */
        if (gchol_stage_h2d(st, NULL, 0, NULL, 0, 0, 5, 0) != cudaSuccess ||
            gchol_stage_d2h(st, NULL, 0, NULL, 0, 7, 0, 0) != cudaSuccess) {
            testing_record(TESTING_FAILED);
            bad++;
        } else {
            testing_record(TESTING_PASSED);
            ok++;
        }
        printf("  %-7s %d threads: %d round trips of random rectangles, %ld DMAs\n",
               bad ? "FAILED" : "ok", threads[t], ok + bad, g_dma - dma0);
        gchol_stage_destroy(st);
    }
    return testing_summary();
}
