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

/* ---------------------------------------------------------------------------
 * --max-n
 *
 * For one storage: a fresh queue; a small warm-up factorization (loads the
 * kernels, which take device memory under lazy loading); F = free bytes from
 * cudaMemGetInfo; n = the largest multiple of 32 whose array fits in
 * F - margin (n(n+1)/2 elements in RFP, n*n with ldda = n in full storage).
 * Then the array is allocated, filled ON THE DEVICE and factored once (CUDA
 * events). When the allocation or the factorization runs out of memory
 * (GCHOL_ERR_DEVICE_ALLOC), n shrinks by 1% and it tries again, 5 times at most.
 *
 * The matrix: a host vector v of 2^24 entries uniform(0, 1) is uploaded into
 * the start of the array, which is then tiled with it by doubling device
 * copies (a_k = v[k mod 2^24] for every stored element k); the diagonal is
 * then overwritten with n + uniform(0, 1). The symmetric matrix defined by the
 * stored triangle has off-diagonal entries in (0, 1) and diagonal > n, so it
 * is strictly diagonally dominant, hence SPD.
 *
 * Check without a copy of A (no memory for one): the last row of A = L L^T
 * gives sum_k L(n-1,k)^2 = a(n-1,n-1), known on the host; the last row of L
 * (n elements) is gathered back and
 *   |sum_k L(n-1,k)^2 - a(n-1,n-1)| / (n eps a(n-1,n-1)) < 30
 * is required. This row depends on every step of the factorization.
 * ------------------------------------------------------------------------- */
#define MAXN_TILE ((int64_t) 1 << 24)
#define MAXN_ATTEMPTS 6                    /* the first try and 5 retries */

typedef struct {
    int     rfp;              /* 1: RFP (pftrf), 0: full (potrf, uplo L) */
    char    transr, uplo;     /* RFP variant                             */
    int64_t n, n_first;       /* factored / first tried                  */
    size_t  bytes, free_bytes, used_bytes;
    double  seconds, wall, check;
    int64_t info;             /* LAPACK info, or the last error           */
    int     attempts, ok;
    char    status[96];
} maxn_t;

/* Offset of element (i, j), i >= j, of the symmetric matrix in the storage. */
static int64_t maxn_offset(const maxn_t *r, int64_t n, int64_t i, int64_t j)
{
    return r->rfp ? gchol_rfp_offset(r->transr == 'T', r->uplo == 'U', n, i, j) : i + j * n;
}

static size_t maxn_bytes(int rfp, char prec, int64_t n)
{
    return (size_t) (rfp ? rfp_elements(n) : n * n) * testing_elsize(prec);
}

/* Largest multiple of 32 whose array fits in budget bytes. */
static int64_t maxn_fit(int rfp, char prec, double budget)
{
    if (budget <= 0) return 0;
    const double elements = budget / testing_elsize(prec);
    int64_t n = (int64_t) (rfp ? (sqrt(1.0 + 8.0 * elements) - 1.0) / 2.0 : sqrt(elements));
    n = n / 32 * 32;
    while (n > 0 && (double) maxn_bytes(rfp, prec, n) > budget) n -= 32;
    while ((double) maxn_bytes(rfp, prec, n + 32) <= budget) n += 32;
    return n;
}

/* Copies count elements between the device array (at the given offsets) and a
 * contiguous vector (device vector for scatter, host vector for gather), one
 * cudaMemcpy2D per run of offsets with a constant positive stride. Returns the
 * number of runs; *stride0, *stride1: the strides of the first two runs. */
static int64_t maxn_strided_copy(char prec, void *dArray, const int64_t *offsets, int64_t count,
                                 void *vec, int scatter, int64_t *stride0, int64_t *stride1)
{
    const size_t es = testing_elsize(prec);
    int64_t runs = 0;
    for (int64_t start = 0; start < count;) {
        int64_t len = 1, stride = 1;
        if (start + 1 < count && offsets[start + 1] > offsets[start]) {
            stride = offsets[start + 1] - offsets[start];
            while (start + len < count && offsets[start + len] - offsets[start + len - 1] == stride)
                ++len;
        }
        char *a = (char *) dArray + (size_t) offsets[start] * es;
        char *x = (char *) vec + (size_t) start * es;
        if (scatter)
            BENCH_CUDA(cudaMemcpy2D(a, stride * es, x, es, es, len, cudaMemcpyDeviceToDevice));
        else
            BENCH_CUDA(cudaMemcpy2D(x, es, a, stride * es, es, len, cudaMemcpyDeviceToHost));
        if (runs == 0 && stride0) *stride0 = len > 1 ? stride : 0;
        if (runs == 1 && stride1) *stride1 = len > 1 ? stride : 0;
        ++runs;
        start += len;
    }
    return runs;
}

/* Fills the array as described above; hv: the 2^24-entry host tile, hdiag: the
 * n diagonal values. Returns 0, or -1 when the small diagonal buffer could not
 * be allocated (out of memory). */
static int maxn_fill(const maxn_t *r, char prec, int64_t n, void *dA, const void *hv,
                     const void *hdiag, int verbose)
{
    const size_t es = testing_elsize(prec);
    const int64_t count = r->rfp ? rfp_elements(n) : n * n;
    int64_t first = count < MAXN_TILE ? count : MAXN_TILE;
    BENCH_CUDA(cudaMemcpy(dA, hv, (size_t) first * es, cudaMemcpyHostToDevice));
    for (int64_t done = first; done < count; done *= 2) {
        int64_t chunk = count - done < done ? count - done : done;
        BENCH_CUDA(cudaMemcpy((char *) dA + (size_t) done * es, dA, (size_t) chunk * es,
                              cudaMemcpyDeviceToDevice));
    }

    void *ddiag = NULL;
    if (cudaMalloc(&ddiag, (size_t) n * es) != cudaSuccess) {
        (void) cudaGetLastError();
        return -1;
    }
    BENCH_CUDA(cudaMemcpy(ddiag, hdiag, (size_t) n * es, cudaMemcpyHostToDevice));
    int64_t *offsets = bench_malloc((size_t) n * sizeof(int64_t));
    for (int64_t i = 0; i < n; ++i) offsets[i] = maxn_offset(r, n, i, i);
    int64_t stride0 = 0, stride1 = 0;
    int64_t runs = maxn_strided_copy(prec, dA, offsets, n, ddiag, 1, &stride0, &stride1);
    if (verbose) {
        const int64_t ld = r->rfp ? gchol_rfp_blocks(r->transr == 'T', r->uplo == 'U', n).ld : n;
        printf("#   diagonal: %lld run(s) of constant stride, strides %lld, %lld (ld + 1 = %lld)\n",
               (long long) runs, (long long) stride0, (long long) stride1, (long long) (ld + 1));
    }
    free(offsets);
    BENCH_CUDA(cudaDeviceSynchronize());
    BENCH_CUDA(cudaFree(ddiag));
    return 0;
}

/* The last-row check of the factor in dA (see above). */
static double maxn_check(const maxn_t *r, char prec, int64_t n, const void *dA, double a_last)
{
    const size_t es = testing_elsize(prec);
    int64_t *offsets = bench_malloc((size_t) n * sizeof(int64_t));
    void *row = bench_malloc((size_t) n * es);
    for (int64_t k = 0; k < n; ++k) offsets[k] = maxn_offset(r, n, n - 1, k);
    maxn_strided_copy(prec, (void *) dA, offsets, n, row, 0, NULL, NULL);
    double sum = 0.0;
    for (int64_t k = 0; k < n; ++k) {
        double l = prec == 'd' ? ((double *) row)[k] : (double) ((float *) row)[k];
        sum += l * l;
    }
    free(row);
    free(offsets);
    double check = fabs(sum - a_last) / (n * testing_eps(prec) * a_last);
    return isfinite(check) ? check : INFINITY;
}

/* Host diagonal n + uniform(0, 1) for order n. */
static void *maxn_diagonal(char prec, int64_t n, uint64_t seed)
{
    void *h = bench_random_host(prec, n, 1, n, seed, 0.0, 1.0);
    for (int64_t i = 0; i < n; ++i) {
        if (prec == 'd') ((double *) h)[i] += (double) n;
        else             ((float *) h)[i] += (float) n;
    }
    return h;
}

static double maxn_diag_value(char prec, const void *h, int64_t i)
{
    return prec == 'd' ? ((const double *) h)[i] : (double) ((const float *) h)[i];
}

/* One attempt at order n: allocate, fill, factor, check. Fills r (n, info:
 * the LAPACK info or the error, ...). Returns 0 when the factorization ran,
 * 1 when out of device memory (try smaller), -1 on another error. */
static int maxn_attempt(maxn_t *r, char prec, int64_t n, gchol_queue_t queue, const void *hv,
                        uint64_t seed, int verbose)
{
    const size_t bytes = maxn_bytes(r->rfp, prec, n);
    r->n = n;
    r->bytes = bytes;
    r->seconds = r->wall = 0.0;
    r->check = INFINITY;
    r->ok = 0;
    r->info = GCHOL_ERR_DEVICE_ALLOC;
    void *dA = NULL;
    if (cudaMalloc(&dA, bytes) != cudaSuccess) {
        (void) cudaGetLastError();                       /* not sticky: clear it */
        if (verbose) printf("#   n = %lld: cudaMalloc of %.2f GiB failed\n", (long long) n,
                            bytes / 1073741824.0);
        return 1;
    }
    void *hdiag = maxn_diagonal(prec, n, seed);
    double t0 = testing_wtime();
    if (maxn_fill(r, prec, n, dA, hv, hdiag, verbose) != 0) {
        if (verbose) printf("#   n = %lld: no device memory left for the diagonal (%.1f MB)\n",
                            (long long) n, n * testing_elsize(prec) / 1e6);
        free(hdiag);
        BENCH_CUDA(cudaFree(dA));
        return 1;
    }
    if (verbose)
        printf("#   n = %lld: %.2f GiB allocated and filled on the device in %.2f s\n",
               (long long) n, bytes / 1073741824.0, testing_wtime() - t0);

    cudaStream_t stream = gchol_queue_stream(queue);
    testing_timer_t timer;
    bench_timer_create(&timer, stream);
    int64_t info = 0;
    bench_spin_up(0.2);
    double w0 = testing_wtime();
    bench_timer_start(&timer);
    int64_t ret = r->rfp ? gchol_pftrf(prec, r->transr, r->uplo, n, dA, &info, queue)
                         : gchol_potrf(prec, 'L', n, dA, n, &info, queue);
    double seconds = bench_timer_stop(&timer);
    r->wall = testing_wtime() - w0;
    bench_timer_destroy(&timer);

    size_t free_after, total;
    BENCH_CUDA(cudaMemGetInfo(&free_after, &total));
    r->used_bytes = total - free_after;
    r->info = ret < 0 ? ret : info;
    if (ret == 0 && info == 0) {
        r->seconds = seconds;
        r->check = maxn_check(r, prec, n, dA, maxn_diag_value(prec, hdiag, n - 1));
        r->ok = r->check < CHECK_LIMIT;
    }
    if (verbose && ret < 0)
        printf("#   n = %lld: %s_gpu returned %lld (%s)\n", (long long) n,
               r->rfp ? "pftrf" : "potrf", (long long) ret, gchol_strerror(ret));
    free(hdiag);
    BENCH_CUDA(cudaFree(dA));
    return ret == GCHOL_ERR_DEVICE_ALLOC ? 1 : (ret < 0 ? -1 : 0);
}

/* The largest n of one storage; fills *r. */
static void maxn_storage(maxn_t *r, char prec, double margin, const void *hv, uint64_t seed)
{
    gchol_queue_t queue;
    BENCH_GCHOL(gchol_queue_create(-1, &queue));

    /* warm-up at a small size: kernels loaded, the spin-up buffer allocated */
    maxn_t warm = *r;
    bench_spin_up(0.1);
    if (maxn_attempt(&warm, prec, 2048, queue, hv, seed, 0) != 0 || !warm.ok) {
        printf("# %s warm-up at n = 2048 failed: info %lld (%s), check %.2g\n",
               r->rfp ? "RFP" : "full", (long long) warm.info, gchol_strerror(warm.info),
               warm.check);
        *r = warm;
        r->n = 0;
        snprintf(r->status, sizeof(r->status), "FAILED warm-up at n = 2048");
        BENCH_GCHOL(gchol_queue_destroy(queue));
        return;
    }

    size_t free_bytes, total;
    BENCH_CUDA(cudaMemGetInfo(&free_bytes, &total));
    r->free_bytes = free_bytes;
    int64_t n = maxn_fit(r->rfp, prec, (double) free_bytes - margin);
    r->n_first = n;
    printf("# %s storage: %.2f GiB free of %.2f, margin %.2f GiB -> n = %lld\n",
           r->rfp ? "RFP" : "full", free_bytes / 1073741824.0, total / 1073741824.0,
           margin / 1073741824.0, (long long) n);
    int status = 1;
    for (r->attempts = 0; n > 0 && r->attempts < MAXN_ATTEMPTS;) {
        ++r->attempts;
        status = maxn_attempt(r, prec, n, queue, hv, seed, 1);
        if (status <= 0 || r->attempts == MAXN_ATTEMPTS) break;
        n = (int64_t) (n * 0.99) / 32 * 32;
        printf("#   out of device memory: retrying with n = %lld (-1%%)\n", (long long) n);
    }
    if (n <= 0)
        snprintf(r->status, sizeof(r->status), "FAILED: nothing fits in free memory - margin");
    else if (status > 0)
        snprintf(r->status, sizeof(r->status), "FAILED: out of device memory after %d tries",
                 r->attempts);
    else if (r->info != 0)
        snprintf(r->status, sizeof(r->status), "FAILED info %lld: %s", (long long) r->info,
                 gchol_strerror(r->info));
    else if (!r->ok)
        snprintf(r->status, sizeof(r->status), "FAILED check");
    else
        snprintf(r->status, sizeof(r->status), "ok");
    BENCH_GCHOL(gchol_queue_destroy(queue));
}

static void maxn_report(const maxn_t *r, char prec, double margin, FILE *csv)
{
    double tf = bench_potrf_tflops(r->n, r->seconds);
    const char *status = r->status;
    printf("%-4s %c %c %c | %7lld %7lld | %8.2f | %8.2f %8.2f %7.2f | %4lld | %7.2f | %4d | %9.2g | %s\n",
           r->rfp ? "RFP" : "full", prec, r->rfp ? r->transr : '-', r->rfp ? r->uplo : 'L',
           (long long) r->n, (long long) r->n_first, r->bytes / 1073741824.0, r->seconds,
           r->wall, tf, (long long) r->info, r->used_bytes / 1073741824.0, r->attempts,
           r->check, status);
    fflush(stdout);
    if (csv) {
        fprintf(csv, "%s,%c,%c,%c,%lld,%lld,%zu,%zu,%.0f,", r->rfp ? "rfp" : "full", prec,
                r->rfp ? r->transr : '-', r->rfp ? r->uplo : 'L', (long long) r->n,
                (long long) r->n_first, r->bytes, r->free_bytes, margin);
        bench_csv_num(csv, r->seconds);
        bench_csv_num(csv, tf);
        fprintf(csv, "%lld,%d,%zu,%.3g,\"%s\"\n", (long long) r->info, r->attempts, r->used_bytes,
                r->check, status);
        fflush(csv);
    }
}

static int maxn(const args_t *args)
{
    const double margin = args->margin_gb * 1073741824.0;
    FILE *csv = NULL;
    if (args->csv) {
        csv = fopen(args->csv, "w");
        if (csv == NULL) { perror(args->csv); exit(EXIT_FAILURE); }
        fprintf(csv, "storage,precision,transr,uplo,n,n_first,bytes,free_bytes,margin_bytes,"
                     "seconds,tflops,info,attempts,used_bytes,check,status\n");
    }
    printf("# --max-n: largest n (multiple of 32) whose array fits in free memory - %.2f GiB;\n"
           "# generated on the device (tiled uniform(0,1), diagonal n + uniform(0,1)), factored "
           "once\n# check = |sum_k L(n-1,k)^2 - a(n-1,n-1)| / (n eps a(n-1,n-1)) < %g\n",
           args->margin_gb, CHECK_LIMIT);
    int failures = 0;
    for (const char *p = args->precs; *p; ++p) {
        const char prec = *p;
        void *hv = bench_random_host(prec, MAXN_TILE, 1, MAXN_TILE, args->seed, 0.0, 1.0);
        maxn_t rfp = { .rfp = 1, .transr = args->transr, .uplo = args->uplo };
        maxn_t full = { .rfp = 0, .transr = 'N', .uplo = 'L' };
        printf("\n# %s\n", testing_prec_name(prec));
        maxn_storage(&rfp, prec, margin, hv, args->seed + 1);
        failures += !rfp.ok;
        if (args->max_n == 1) {
            maxn_storage(&full, prec, margin, hv, args->seed + 1);
            failures += !full.ok;
        }
        printf("\n# stor p t u |       n n first | GiB      | event s    wall s    TF/s | info |"
               " used GiB | try | check     | status\n");
        maxn_report(&rfp, prec, margin, csv);
        if (args->max_n == 1) maxn_report(&full, prec, margin, csv);

        /* the ratio, measured or (with --max-n-rfp-only) predicted from the RFP run's free memory */
        int64_t n_full = args->max_n == 1 ? full.n
                       : maxn_fit(0, prec, (double) rfp.free_bytes - margin);
        if (n_full > 0 && rfp.ok && (args->max_n == 2 || full.ok))
            printf("# %s: n_rfp = %lld, n_full = %lld%s: ratio %.3f (target >= 1.35; "
                   "sqrt(2) = 1.414 up to rounding n to 32)\n", testing_prec_name(prec), (long long) rfp.n,
                   (long long) n_full, args->max_n == 1 ? "" : " (predicted, not run)",
                   (double) rfp.n / (double) n_full);
        free(hv);
    }
    if (csv) fclose(csv);
    if (failures) printf("\n# %d factorization(s) failed\n", failures);
    return failures;
}

int main(int argc, char **argv)
{
    args_t args;
    parse_args(argc, argv, &args);
    bench_require_gpu(args.device, argv[0]);
    int failures = args.max_n ? maxn(&args) : sweep(&args);
    free(args.sizes);
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
