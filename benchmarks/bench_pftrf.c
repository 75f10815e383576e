/*
 * bench_pftrf.c -- Cholesky in RFP storage (gchol_?pftrf_gpu) against full
 * storage (gchol_?potrf_gpu and cusolverDnXpotrf), and the largest n each
 * storage can factor on this GPU (--max-n).
 *
 * Sweep (default): for each precision and n, one SPD matrix (a_ij = a_ji
 * uniform(-1, 1) plus n on the diagonal, the same as bench_potrf's) is
 * generated on the host cores and uploaded once in full storage (dA0); the
 * RFP array is built from it on the GPU by gchol_?trttf_gpu (dR0), so every
 * contender factors the same matrix. Each contender: a warm-up, then --runs
 * timed runs, each on a fresh device copy of its pristine input made outside
 * the timed region, CUDA events on the queue's stream around the call, median
 * reported, after the GPU is raised to its boost clock. Flops: n^3/3 + n^2/2
 * + n/6. Every factor is checked (info == 0 and ||Ax - LL^Tx|| / (n eps ||Ax||)
 * < 30; the RFP factor goes back to full storage by gchol_?tfttr_gpu first);
 * a failing one posts no time and makes the exit status 1.
 *
 * --max-n: the largest n that fits in free device memory (less a margin) in
 * RFP storage and in full storage, each actually allocated, generated on the
 * GPU (no host copy) and factored once; see maxn() below.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"
#include "../kernels/rfp_index.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_LIMIT 30.0                   /* factor checks, LAPACK's 30 */
#define NRFP 4
static const char RFP_TRANSR[NRFP] = { 'N', 'N', 'T', 'T' };
static const char RFP_UPLO[NRFP]   = { 'L', 'U', 'L', 'U' };

/* ---------------------------------------------------------------------------
 * Command line
 * ------------------------------------------------------------------------- */
typedef struct {
    int64_t    *sizes;
    int         nsizes;
    const char *precs;         /* NULL: "ds" for the sweep, "d" for --max-n */
    int         runs;
    int         all_rfp;
    char        transr, uplo;  /* the RFP variant without --all-rfp        */
    const char *csv;
    int         max_n;         /* 1: --max-n; 2: --max-n-rfp-only          */
    double      margin_gb;
    uint64_t    seed;
    int         device;
} args_t;

/* --form: the options pftrf runs with (gchol_?pftrf_expert_gpu) */
static int g_pftrf_variant = GCHOL_VARIANT_AUTO;
static const char *g_pftrf_form = "auto";
static int64_t g_pftrf_nb, g_pftrf_recnb; /* --nb / --recnb for pftrf (0: the table's) */

static void parse_args(int argc, char **argv, args_t *args)
{
    static const int form_values[] = { GCHOL_VARIANT_AUTO, GCHOL_VARIANT_LEFT,
                                       GCHOL_VARIANT_RIGHT };
    static const char *const form_names[] = { "auto", "fused", "steps" };
    static testing_list_t sizes;
    int max_n = 0, max_n_rfp_only = 0;
    *args = (args_t) { .runs = 3, .transr = 'N', .uplo = 'L', .margin_gb = 1.0, .seed = 2026 };
    const opt_t opts[] = {
        OPT("--sizes", OPT_LIST, &sizes, "LIST", "n values: a,b,c and/or start:stop[:step] "
            "(default 16384,32768)", .doubling = 1, .def = "16384,32768"),
        OPT("-n", OPT_LIST, &sizes, "LIST", "the same as --sizes", .doubling = 1),
        OPT("--prec", OPT_CHARS, &args->precs, "d|s|ds", "precisions (default ds; d with "
            "--max-n)", .choices = "ds"),
        OPT("--runs", OPT_INT, &args->runs, "N", "timed runs after a warm-up, median reported "
            "(default 3)", OPT_MIN(1)),
        OPT("--transr", OPT_CHAR, &args->transr, "N|T", "RFP variant (default N) ...",
            .choices = "NT"),
        OPT("--uplo", OPT_CHAR, &args->uplo, "L|U", "... and triangle (default L); potrf and "
            "cuSOLVER use the same\nuplo as the RFP variant they are compared with",
            .choices = "LU"),
        OPT("--all-rfp", OPT_FLAG, &args->all_rfp, NULL, "all four RFP variants (transr N/T x "
            "uplo L/U)"),
        OPT("--form", OPT_CHOICE, &g_pftrf_variant, "F", "auto|fused|steps: pftrf's form "
            "(gchol_?pftrf_expert_gpu\nwith variant auto, left or right; default auto)",
            .choices = "auto|fused|steps", .values = form_values),
        OPT("--nb", OPT_INT64, &g_pftrf_nb, "N", "pftrf's block size (default 0: the "
            "automatic table's)", OPT_MIN(0)),
        OPT("--recnb", OPT_INT64, &g_pftrf_recnb, "N", "pftrf's recursive block size (default "
            "0: the table's)", OPT_MIN(0)),
        OPT("--csv", OPT_STRING, &args->csv, "FILE", "write the results as CSV"),
        OPT("--max-n", OPT_FLAG, &max_n, NULL, "largest n that fits in free device memory, "
            "RFP storage\n(?pftrf_gpu, variant --transr/--uplo) against full storage\n"
            "(?potrf_gpu, L): allocated, generated on the GPU, factored once"),
        OPT("--max-n-rfp-only", OPT_FLAG, &max_n_rfp_only, NULL, "the same, RFP only (full "
            "storage only predicted)"),
        OPT("--margin-gb", OPT_DOUBLE, &args->margin_gb, "G", "memory left free in --max-n mode "
            "(default 1 GiB)", OPT_MIN(0)),
        OPT("--seed", OPT_UINT64, &args->seed, "S", "random matrices (default 2026)"),
        OPT("--device", OPT_INT, &args->device, "D", "the GPU (default 0)"),
        OPT_END
    };
    const opts_program_t prog = { "[options]", NULL, EXIT_FAILURE };
    opts_parse(argc, argv, opts, &prog);
    args->max_n = max_n_rfp_only ? 2 : max_n ? 1 : 0;
    if (args->precs == NULL) args->precs = args->max_n ? "d" : "ds";
    for (int64_t k = 0; k < sizes.count; ++k)
        if (sizes.v[k] < 1) opts_fail(argv[0], opts, &prog, "sizes must be at least 1");
    args->sizes = sizes.v;
    args->nsizes = (int) sizes.count;
    for (int f = 0; f < 3; ++f)
        if (form_values[f] == g_pftrf_variant) g_pftrf_form = form_names[f];
}

/* ---------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------- */
static int64_t rfp_elements(int64_t n) { return n * (n + 1) / 2; }

static int64_t gchol_pftrf(char prec, char transr, char uplo, int64_t n, void *dA, int64_t *info,
                           gchol_queue_t queue)
{
    gchol_options_t o;
    gchol_options_default(&o);
    o.variant = g_pftrf_variant;
    o.nb = g_pftrf_nb;
    o.recnb = g_pftrf_recnb;
    return prec == 'd' ? gchol_dpftrf_expert_gpu(transr, uplo, n, dA, info, &o, queue)
                       : gchol_spftrf_expert_gpu(transr, uplo, n, dA, info, &o, queue);
}

static int64_t gchol_potrf(char prec, char uplo, int64_t n, void *dA, int64_t ldda,
                           int64_t *info, gchol_queue_t queue)
{
    return prec == 'd' ? gchol_dpotrf_gpu(uplo, n, dA, ldda, info, queue)
                       : gchol_spotrf_gpu(uplo, n, dA, ldda, info, queue);
}

/* Status word of one contender; clears *seconds on failure. */
static const char *judge(const char *who, double *seconds, int64_t info, double check,
                         char *text, size_t size)
{
    if (*seconds < 0 || info < 0)
        snprintf(text, size, "%s ERROR %lld: %s", who, (long long) info, gchol_strerror(info));
    else if (info > 0)
        snprintf(text, size, "%s FAILED info=%lld", who, (long long) info);
    else if (!(check < CHECK_LIMIT))
        snprintf(text, size, "%s FAILED check %.2g", who, check);
    else
        return NULL;
    *seconds = 0.0;
    return text;
}

/* ---------------------------------------------------------------------------
 * Sweep
 * ------------------------------------------------------------------------- */
/* The pftrf job: a fresh device copy of the RFP array, then the timed call. */
typedef struct {
    gchol_queue_t queue;
    char prec, transr, uplo;
    int64_t n;
    const void *dR0;
    void *dR;
} pftrf_run_t;

static void pftrf_prepare(void *ctx)
{
    const pftrf_run_t *r = ctx;
    const size_t bytes = (size_t) rfp_elements(r->n) * testing_elsize(r->prec);
    cudaStream_t stream = gchol_queue_stream(r->queue);
    BENCH_CUDA(cudaMemcpyAsync(r->dR, r->dR0, bytes, cudaMemcpyDeviceToDevice, stream));
    BENCH_CUDA(cudaStreamSynchronize(stream));
}

static int64_t pftrf_run(void *ctx, int64_t *info)
{
    const pftrf_run_t *r = ctx;
    return gchol_pftrf(r->prec, r->transr, r->uplo, r->n, r->dR, info, r->queue);
}

/* Warm-up + runs of ?pftrf_gpu, each on a fresh copy dR := dR0 (outside the
 * timed region). Median seconds, or -1 with *info the error; else *info is the
 * first nonzero info of any run, or 0. */
static double time_pftrf(gchol_queue_t queue, char prec, char transr, char uplo, int64_t n,
                         const void *dR0, void *dR, int runs, int64_t *info)
{
    pftrf_run_t run = { queue, prec, transr, uplo, n, dR0, dR };
    const testing_job_t job = { pftrf_prepare, pftrf_run, NULL };
    return testing_time_job(&job, &run, gchol_queue_stream(queue), 0, runs, info);
}

/* Full-storage references of one uplo, measured once per (prec, n, uplo). */
typedef struct {
    int     done;
    double  potrf_s, cusolver_s, potrf_check, cusolver_check;
    int64_t potrf_info;
    int     cusolver_info;
} refs_t;

static int bench_size(const args_t *args, bench_context_t *ctx, char prec, int64_t n, FILE *csv)
{
    const size_t es = testing_elsize(prec);
    const int64_t ldda = bench_ldda(n);
    const size_t bytes_full = (size_t) ldda * n * es, bytes_rfp = (size_t) rfp_elements(n) * es;

    size_t free_bytes, total_bytes;
    BENCH_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    double need = (double) bench_potrf_bytes(prec, n, 2) + 2.0 * bytes_rfp;
    if (need > (double) free_bytes) {
        printf("# skipped %s n=%lld: needs %.1f GB of device memory, %.1f GB free\n",
               testing_prec_name(prec), (long long) n, need / 1e9, free_bytes / 1e9);
        return 0;
    }

    /* The same matrix as bench_potrf's for this (seed, n). */
    void *hA0 = bench_spd_host(prec, n, n, args->seed ^ (uint64_t) n);
    int64_t ldda_up;                                      /* == ldda */
    void *dA0 = bench_upload(prec, n, n, hA0, n, &ldda_up);
    free(hA0);
    void *dA  = bench_device_malloc(bytes_full);
    void *dR0 = bench_device_malloc(bytes_rfp), *dR = bench_device_malloc(bytes_rfp);
    int64_t *dinfo = bench_device_malloc(sizeof(int64_t));

    refs_t refs[2];
    memset(refs, 0, sizeof(refs));
    int failures = 0;
    const int nvar = args->all_rfp ? NRFP : 1;
    for (int v = 0; v < nvar; ++v) {
        const char transr = args->all_rfp ? RFP_TRANSR[v] : args->transr;
        const char uplo = args->all_rfp ? RFP_UPLO[v] : args->uplo;
        refs_t *ref = &refs[uplo == 'U'];
        char status[3][128], text[400];
        int64_t info = 0;

        /* the RFP input, from the uplo triangle of dA0 */
        int64_t ret = prec == 'd'
            ? gchol_dtrttf_gpu(transr, uplo, n, dA0, ldda, dR0, &info, ctx->queue)
            : gchol_strttf_gpu(transr, uplo, n, dA0, ldda, dR0, &info, ctx->queue);
        BENCH_GCHOL(ret);
        BENCH_GCHOL(info);
        BENCH_CUDA(cudaStreamSynchronize(ctx->stream));

        bench_spin_up(0.3);
        int64_t pinfo = 0;
        double pftrf_s = time_pftrf(ctx->queue, prec, transr, uplo, n, dR0, dR, args->runs, &pinfo);
        double pcheck = INFINITY;
        if (pftrf_s >= 0 && pinfo == 0) {                /* factor back to full storage */
            ret = prec == 'd'
                ? gchol_dtfttr_gpu(transr, uplo, n, dR, dA, ldda, &info, ctx->queue)
                : gchol_stfttr_gpu(transr, uplo, n, dR, dA, ldda, &info, ctx->queue);
            BENCH_GCHOL(ret);
            BENCH_GCHOL(info);
            BENCH_CUDA(cudaStreamSynchronize(ctx->stream));
            pcheck = bench_factor_check(ctx->cublas, prec, uplo, n, dA0, dA, ldda);
        }

        if (!ref->done) {
            ref->done = 1;
            ref->potrf_s = bench_gchol_potrf(ctx->queue, BENCH_GCHOL_GPU, prec, uplo, n, dA0, dA,
                                             ldda, NULL, dinfo, args->runs, &ref->potrf_info);
            ref->potrf_check = ref->potrf_s >= 0 && ref->potrf_info == 0
                ? bench_factor_check(ctx->cublas, prec, uplo, n, dA0, dA, ldda) : INFINITY;
            ref->cusolver_s = bench_cusolver_potrf(&ctx->cusolver, prec, uplo, n, dA0, dA, ldda,
                                                   args->runs, &ref->cusolver_info);
            ref->cusolver_check = bench_factor_check(ctx->cublas, prec, uplo, n, dA0, dA, ldda);
        }

        double potrf_s = ref->potrf_s, cusolver_s = ref->cusolver_s;
        const char *sp = judge("pftrf", &pftrf_s, pinfo, pcheck, status[0], sizeof(status[0]));
        const char *sg = judge("potrf", &potrf_s, ref->potrf_info, ref->potrf_check, status[1],
                               sizeof(status[1]));
        const char *sc = judge("cuSOLVER", &cusolver_s, ref->cusolver_info, ref->cusolver_check,
                               status[2], sizeof(status[2]));
        failures += sp != NULL || sg != NULL;
        snprintf(text, sizeof(text), "%s%s%s%s%s", sp ? sp : "", sp && (sg || sc) ? "; " : "",
                 sg ? sg : "", sg && sc ? "; " : "", sc ? sc : "");
        if (!sp && !sg && !sc) snprintf(text, sizeof(text), "ok");

        const double ratio = pftrf_s > 0 && potrf_s > 0 ? potrf_s / pftrf_s : 0.0;
        const double pf_tf = bench_potrf_tflops(n, pftrf_s), po_tf = bench_potrf_tflops(n, potrf_s);
        const double cu_tf = bench_potrf_tflops(n, cusolver_s);
        const double cus_bytes = (double) bytes_full + (double) ctx->cusolver.dwork_bytes;
        char f[7][32];
        printf("%6lld %c %c %c | %8s %6s | %8s %6s | %8s %6s | %6s | %7.3f %7.3f %7.3f |"
               " %6.2f %6.2f %6.2f | %s\n",
               (long long) n, prec, transr, uplo,
               bench_field(f[0], "%.4f", pftrf_s, 1), bench_field(f[1], "%.2f", pf_tf, 1),
               bench_field(f[2], "%.4f", potrf_s, 1), bench_field(f[3], "%.2f", po_tf, 1),
               bench_field(f[4], "%.4f", cusolver_s, 1), bench_field(f[5], "%.2f", cu_tf, 1),
               bench_field(f[6], "%.3f", ratio, 1),
               bytes_rfp / 1073741824.0, bytes_full / 1073741824.0, cus_bytes / 1073741824.0,
               pcheck, ref->potrf_check, ref->cusolver_check, text);
        fflush(stdout);
        if (csv) {
            fprintf(csv, "%lld,%c,%c,%c,%s,", (long long) n, prec, transr, uplo, g_pftrf_form);
            bench_csv_num(csv, pftrf_s);    bench_csv_num(csv, pf_tf);
            bench_csv_num(csv, potrf_s);    bench_csv_num(csv, po_tf);
            bench_csv_num(csv, cusolver_s); bench_csv_num(csv, cu_tf);
            bench_csv_num(csv, ratio);
            fprintf(csv, "%zu,%zu,%zu,%.3g,%.3g,%.3g,\"%s\"\n", bytes_rfp, bytes_full,
                    ctx->cusolver.dwork_bytes, pcheck, ref->potrf_check, ref->cusolver_check,
                    text);
            fflush(csv);
        }
    }

    BENCH_CUDA(cudaFree(dinfo));
    BENCH_CUDA(cudaFree(dR));
    BENCH_CUDA(cudaFree(dR0));
    BENCH_CUDA(cudaFree(dA));
    BENCH_CUDA(cudaFree(dA0));
    return failures;
}

static int sweep(const args_t *args)
{
    bench_context_t ctx;
    bench_context_create(&ctx);
    FILE *csv = NULL;
    if (args->csv) {
        csv = fopen(args->csv, "w");
        if (csv == NULL) { perror(args->csv); exit(EXIT_FAILURE); }
        fprintf(csv, "n,precision,transr,uplo,form,pftrf_s,pftrf_tflops,potrf_s,potrf_tflops,"
                     "cusolver_s,cusolver_tflops,ratio,rfp_bytes,full_bytes,cusolver_work_bytes,"
                     "pftrf_check,potrf_check,cusolver_check,status\n");
    }
    printf("# runs %d (median after a warm-up, fresh device copy each run), flops n^3/3 + n^2/2 "
           "+ n/6\n# pftrf: gchol_?pftrf_expert_gpu (RFP), form %s; potrf: gchol_?potrf_gpu (full, ldda = n "
           "rounded up to 32); cuSOLVER: cusolverDnXpotrf (full), same uplo\n"
           "# ratio = pftrf rate / gchol potrf rate; memory in GiB: RFP array, full matrix, "
           "full + cuSOLVER workspace\n# check = ||Ax - LL^Tx|| / (n eps ||Ax||) < %g\n",
           args->runs, g_pftrf_form, CHECK_LIMIT);
    int failures = 0;
    for (const char *p = args->precs; *p; ++p) {
        printf("\n#     n p t u |  pftrf s   TF/s |  potrf s   TF/s | cuSOLVER   TF/s |  ratio |"
               "  RFP GiB full GiB cuS GiB | pf chk po chk cu chk | status\n");
        for (int k = 0; k < args->nsizes; ++k)
            failures += bench_size(args, &ctx, *p, args->sizes[k], csv);
    }
    if (csv) fclose(csv);
    bench_context_destroy(&ctx);
    if (failures) printf("\n# %d gchol run(s) failed\n", failures);
    return failures;
}

#include "bench_pftrf_maxn.h"

int main(int argc, char **argv)
{
    args_t args;
    parse_args(argc, argv, &args);
    bench_require_gpu(args.device, argv[0]);
    int failures = args.max_n ? maxn(&args) : sweep(&args);
    free(args.sizes);
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
