/*
 * bench_util_trace.c -- timelines (gchol_trace_t) for the benchmarks: each
 * stream's busy time, the time both streams are busy, and the CSV that
 * plot_timeline.py draws.
 */
#include "bench_util.h"

#include <stdlib.h>

typedef struct { float start, end; } interval_t;

const char *bench_trace_op_name(int op)
{
    static const char *names[] = { "potrf", "trsm", "syrk", "gemm", "bcast", "gather", "copy" };
    return op >= 0 && op < (int)(sizeof names / sizeof names[0]) ? names[op] : "other";
}

static int cmp_interval(const void *a, const void *b)
{
    const float x = ((const interval_t *)a)->start, y = ((const interval_t *)b)->start;
    return (x > y) - (x < y);
}

/* The union of the intervals of `stream`, as sorted disjoint intervals in
 * *out (malloc'd); returns their count and the busy time in *busy. */
static int64_t stream_union(const gchol_trace_event_t *events, int64_t count, int stream,
                            interval_t **out, double *busy)
{
    interval_t *iv = bench_malloc((size_t)(count > 0 ? count : 1) * sizeof(interval_t));
    int64_t m = 0;
    for (int64_t e = 0; e < count; ++e)
        if (events[e].stream == stream && events[e].end_ms > events[e].start_ms)
            iv[m++] = (interval_t){ events[e].start_ms, events[e].end_ms };
    qsort(iv, (size_t)m, sizeof(interval_t), cmp_interval);
    int64_t k = 0;
    for (int64_t i = 0; i < m; ++i) {
        if (k > 0 && iv[i].start <= iv[k - 1].end) {
            if (iv[i].end > iv[k - 1].end) iv[k - 1].end = iv[i].end;
        } else {
            iv[k++] = iv[i];
        }
    }
    *busy = 0.0;
    for (int64_t i = 0; i < k; ++i) *busy += iv[i].end - iv[i].start;
    *out = iv;
    return k;
}

/* Length of the intersection of two sorted disjoint interval lists. */
static double intersection(const interval_t *a, int64_t na, const interval_t *b, int64_t nb)
{
    double total = 0.0;
    for (int64_t i = 0, j = 0; i < na && j < nb;) {
        const float lo = a[i].start > b[j].start ? a[i].start : b[j].start;
        const float hi = a[i].end < b[j].end ? a[i].end : b[j].end;
        if (hi > lo) total += hi - lo;
        if (a[i].end < b[j].end) ++i; else ++j;
    }
    return total;
}

bench_trace_summary_t bench_trace_summary(const gchol_trace_event_t *events, int64_t count)
{
    bench_trace_summary_t s = { 0 };
    for (int64_t e = 0; e < count; ++e)
        if (events[e].end_ms > s.total_ms) s.total_ms = events[e].end_ms;
    interval_t *busy0, *busy1;
    const int64_t n0 = stream_union(events, count, 0, &busy0, &s.busy_ms[0]);
    const int64_t n1 = stream_union(events, count, 1, &busy1, &s.busy_ms[1]);
    s.both_ms = intersection(busy0, n0, busy1, n1);
    free(busy0);
    free(busy1);
    return s;
}

int bench_trace_csv(const gchol_trace_event_t *events, int64_t count, const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) return -1;
    fprintf(f, "stream,op,block,m,n,k,start_ms,end_ms\n");
    for (int64_t e = 0; e < count; ++e) {
        const gchol_trace_event_t *ev = &events[e];
        fprintf(f, "%d,%s,%lld,%lld,%lld,%lld,%.6f,%.6f\n", ev->stream,
                bench_trace_op_name(ev->op), (long long)ev->block, (long long)ev->m,
                (long long)ev->n, (long long)ev->k, ev->start_ms, ev->end_ms);
    }
    return fclose(f) == 0 ? 0 : -1;
}
