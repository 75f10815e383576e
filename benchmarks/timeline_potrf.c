/*
 * timeline_potrf.c -- timeline of one gchol factorization from the CUDA event
 * timestamps the library records (gchol_options_t.trace), with lookahead on
 * and off. For each, writes a CSV (stream,op,block,m,n,k,start_ms,end_ms) and
 * prints the total time, each stream's busy time, and the overlap: the time
 * during which both the main (update) stream and the panel stream are busy.
 *
 *   timeline_potrf [-n N] [--prec d|s] [--uplo L|U] [--variant auto|left|right]
 *                  [--nb N] [--recnb N] [--out PREFIX]
 *
 * Files: PREFIX_<prec><n>_<variant>_<on|off>.csv (default PREFIX "timeline");
 * plot them with plot_timeline.py.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs one traced factorization on a fresh copy; grows the trace buffer
 * until every event fits. Returns the factorization's info. */
static int64_t traced_run(char prec, char uplo, int64_t n, const void *dA0, void *dA,
                          int64_t ldda, gchol_options_t *opts, gchol_trace_t *trace,
                          gchol_queue_t queue)
{
    for (;;) {
        int64_t info = 0;
        trace->count = 0;
        opts->trace = trace;
        bench_device_copy(prec, n, n, dA0, ldda, dA, ldda, gchol_queue_stream(queue));
        if (prec == 'd') gchol_dpotrf_expert_gpu(uplo, n, dA, ldda, &info, opts, queue);
        else             gchol_spotrf_expert_gpu(uplo, n, dA, ldda, &info, opts, queue);
        opts->trace = NULL;
        if (info != 0 || trace->count <= trace->capacity) return info;
        trace->capacity = trace->count;
        free(trace->events);
        trace->events = bench_malloc(trace->capacity * sizeof(gchol_trace_event_t));
    }
}

/* Writes the CSV and prints the totals and overlap of one trace. */
static void analyse(const gchol_trace_t *trace, const char *path)
{
    if (bench_trace_csv(trace->events, trace->count, path) != 0) { perror(path); exit(EXIT_FAILURE); }
    double op_time[2][5] = { { 0 } };
    int64_t op_count[2][5] = { { 0 } };
    for (int64_t e = 0; e < trace->count; ++e) {
        const gchol_trace_event_t *ev = &trace->events[e];
        int s = ev->stream == 1, op = ev->op >= 0 && ev->op < 4 ? ev->op : 4;
        op_time[s][op] += ev->end_ms - ev->start_ms;
        ++op_count[s][op];
    }
    const bench_trace_summary_t sum = bench_trace_summary(trace->events, trace->count);
    const double total = sum.total_ms;
    printf("  %lld events -> %s\n", (long long) trace->count, path);
    printf("  total %.3f ms; busy: main %.3f ms (%.1f%%), panel %.3f ms (%.1f%%)\n", total,
           sum.busy_ms[0], total > 0 ? 100 * sum.busy_ms[0] / total : 0.0, sum.busy_ms[1],
           total > 0 ? 100 * sum.busy_ms[1] / total : 0.0);
    printf("  overlap (both streams busy) %.3f ms = %.1f%% of total\n", sum.both_ms,
           total > 0 ? 100 * sum.both_ms / total : 0.0);
    for (int s = 0; s < 2; ++s)
        for (int op = 0; op < 5; ++op)
            if (op_count[s][op])
                printf("    %-5s stream %-5s %5lld ops %10.3f ms\n",
                       op < 4 ? bench_trace_op_name(op) : "other", s ? "panel" : "main",
                       (long long) op_count[s][op], op_time[s][op]);
}

int main(int argc, char **argv)
{
    static const int variant_values[] = { GCHOL_VARIANT_AUTO, GCHOL_VARIANT_LEFT,
                                          GCHOL_VARIANT_RIGHT };
    int64_t n = 16384, nb = 0, recnb = 0;
    char prec = 'd', uplo = 'L';
    int variant = GCHOL_VARIANT_AUTO;
    const char *prefix = "timeline";
    const opt_t opts[] = {
        OPT("-n", OPT_INT64, &n, "N", "order of the matrix (default 16384)", OPT_MIN(1)),
        OPT("--prec", OPT_CHAR, &prec, "d|s", "precision (default d)", .choices = "ds"),
        OPT("--uplo", OPT_CHAR, &uplo, "L|U", "triangle (default L)", .choices = "LU"),
        OPT("--variant", OPT_CHOICE, &variant, "V", "auto|left|right (default auto)",
            .choices = "auto|left|right", .values = variant_values),
        OPT("--nb", OPT_INT64, &nb, "N", "block size (default 0: automatic)", OPT_MIN(0)),
        OPT("--recnb", OPT_INT64, &recnb, "N", "recursive block size (default 0: automatic)",
            OPT_MIN(0)),
        OPT("--out", OPT_STRING, &prefix, "PREFIX", "CSV files PREFIX_<prec><n>_<variant>_"
            "<on|off>.csv (default timeline)"),
        OPT_END
    };
    const opts_program_t prog = { "[-n N] [--prec d|s] [--uplo L|U] [--variant auto|left|right] "
                                  "[--nb N] [--recnb N] [--out PREFIX]", NULL, EXIT_FAILURE };
    opts_parse(argc, argv, opts, &prog);
    const char *variant_name = testing_variant_name(variant);
    bench_require_gpu(-1, argv[0]);

    gchol_queue_t queue;
    BENCH_GCHOL(gchol_queue_create(-1, &queue));
    void *hA = bench_spd_host(prec, n, n, 2026);
    int64_t ldda;
    void *dA0 = bench_upload(prec, n, n, hA, n, &ldda);
    void *dA  = bench_device_malloc((size_t) ldda * n * testing_elsize(prec));
    free(hA);
    gchol_trace_t trace = { bench_malloc(16384 * sizeof(gchol_trace_event_t)), 16384, 0 };
    int status = EXIT_SUCCESS;

    const int lookaheads[2] = { GCHOL_LOOKAHEAD_ON, GCHOL_LOOKAHEAD_OFF };
    for (int l = 0; l < 2; ++l) {
        gchol_options_t opts, resolved;
        gchol_options_default(&opts);
        opts.variant = variant;
        opts.lookahead = lookaheads[l];
        opts.nb = nb;
        opts.recnb = recnb;
        resolved = opts;
        gchol_options_resolve(&resolved, prec, n);
        printf("%cpotrf n=%lld uplo %c variant %s%s%s lookahead %s nb %lld recnb %lld\n", prec,
               (long long) n, uplo, variant_name, variant ? "" : ">",
               variant ? "" : testing_variant_name(resolved.variant),
               testing_lookahead_name(opts.lookahead), (long long) resolved.nb,
               (long long) resolved.recnb);

        /* Untraced time first (warm-up + 3 runs), then one traced run. */
        int64_t info = 0;
        double untraced = bench_gchol_potrf(queue, BENCH_GCHOL_GPU, prec, uplo, n, dA0, dA, ldda,
                                            &opts, NULL, 3, &info);
        if (untraced < 0 || info != 0) {
            printf("  FAILED: %lld (%s)\n", (long long) info, gchol_strerror(info));
            status = EXIT_FAILURE;
            continue;
        }
        info = traced_run(prec, uplo, n, dA0, dA, ldda, &opts, &trace, queue);
        if (info != 0) {
            printf("  traced run FAILED: %lld (%s)\n", (long long) info, gchol_strerror(info));
            status = EXIT_FAILURE;
            continue;
        }
        printf("  untraced %.3f ms (%.2f TFLOP/s)\n", untraced * 1e3,
               bench_potrf_tflops(n, untraced));
        if (trace.count == 0) printf("  warning: the library recorded no events\n");

        char path[1024];
        snprintf(path, sizeof(path), "%s_%c%lld_%s_%s.csv", prefix, prec, (long long) n,
                 testing_variant_name(variant ? variant : resolved.variant),
                 testing_lookahead_name(opts.lookahead));
        analyse(&trace, path);
    }

    free(trace.events);
    BENCH_CUDA(cudaFree(dA));
    BENCH_CUDA(cudaFree(dA0));
    BENCH_GCHOL(gchol_queue_destroy(queue));
    return status;
}
