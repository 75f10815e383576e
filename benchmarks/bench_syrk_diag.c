/*
 * bench_syrk_diag.c -- C = A*D^2*A^T: gchol_?syrk_diag_gpu (full storage) and
 * gchol_?sfrk_diag_gpu (RFP) against the two ways cuBLAS can do it.
 *
 * For each precision and (m, n): A is m x n uniform(-1, 1), d has n entries
 * uniform in (0.5, 2), generated on the host cores and uploaded once; every
 * contender gets the same device inputs and its own output buffer:
 *   gchol full   gchol_?syrk_diag_gpu('L', m, n, 1, A, d, 0, C)
 *   gchol RFP    gchol_?sfrk_diag_gpu('N', 'L', ...)   (--all-rfp: all four)
 *   dgmm+syrk    cublas?dgmm_64  B = A*D, then cublas?syrk_64  C = B*B^T
 *   dgmm+syrkx   cublas?dgmm_64  B = A*D^2 (d^2 squared once on the host:
 *                an input transformation of n numbers), then
 *                cublas?syrkx_64 C = A*B^T
 * Each: a warm-up call, then --runs timed calls (CUDA events on the gchol
 * queue's stream, which the cuBLAS handle shares), median reported, after
 * the GPU is raised to its boost clock. The contenders take turns, one call
 * each per round, so that clock drift falls on all of them alike.
 * Flops: n*m*(m+1), cuBLAS's syrk convention (m(m+1)/2 entries, n
 * multiply-adds each); the m*n products by D are not counted, for anyone.
 *
 * Checks, on the GPU: err = max|C - C_ref| / max|C_ref| over the lower
 * triangle, C_ref = dgmm+syrk; gchol full against it, each RFP result (back
 * to full storage by gchol_?tfttr_gpu) against it, and syrkx against it (for
 * information). Above 1e-10 (double) or 1e-3 (single) fails the row.
 *
 * --gemm-shape adds a reference that is not a peer: cuBLAS ?gemm_64 (N, T)
 * forming the whole m x m product B*B^T of the same B = A*D (made once,
 * untimed), timed in the same rounds. Its rate (2*m*m*n flops) is what
 * cuBLAS's GEMM reaches on this shape and this data, on this card at this
 * moment; "at gemm rate" is the best peer's time over the time the
 * triangle's n*m*(m+1) flops would take at that rate: the most any kernel
 * running at cuBLAS GEMM's rate could show against the peers.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"
#include "bench_syrk_diag_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define NRFP 4
static const char RFP_TRANSR[NRFP] = { 'N', 'N', 'T', 'T' };
static const char RFP_UPLO[NRFP]   = { 'L', 'U', 'L', 'U' };


/* ---------------------------------------------------------------------------
 * Command line
 * ------------------------------------------------------------------------- */
typedef struct {
    int64_t    *m, *n;
    int         nsizes;
    const char *precs;
    int         runs;
    int         all_rfp;
    int         gemm_shape;
    const char *csv;
    int64_t     gemm_n;
    int64_t     lddc_pad;
    int         cyclic;
    uint64_t    seed;
    int         device;
} args_t;

static void parse_args(int argc, char **argv, args_t *args)
{
    static const int order_values[] = { 0, 1 };
    const char *sizes = "1024:65536,4096:65536,8192:32768,16384:16384";
    *args = (args_t) { .precs = "d", .runs = 5, .gemm_n = 8192, .seed = 2026 };
    const opt_t opts[] = {
        OPT("--sizes", OPT_STRING, &sizes, "m:n,m:n,...", "shapes of A (m x n, C is m x m); "
            "'x' works as well as ':'\ndefault 1024:65536,4096:65536,8192:32768,16384:16384"),
        OPT("--prec", OPT_CHARS, &args->precs, "d|s|ds", "precisions (default d)",
            .choices = "ds"),
        OPT("--runs", OPT_INT, &args->runs, "N", "timed runs after a warm-up, median reported "
            "(default 5)", OPT_MIN(1)),
        OPT("--all-rfp", OPT_FLAG, &args->all_rfp, NULL, "time all four RFP variants (transr "
            "N/T x uplo L/U),\nnot only N,L"),
        OPT("--csv", OPT_STRING, &args->csv, "FILE", "write the results as CSV"),
        OPT("--gemm-n", OPT_INT64, &args->gemm_n, "N", "size of the cuBLAS GEMM ceiling "
            "(default 8192)", OPT_MIN(1)),
        OPT("--gemm-shape", OPT_FLAG, &args->gemm_shape, NULL, "also time cuBLAS ?gemm (N,T) "
            "forming all of B*B^T,\nB = A*D, on each shape: the rate the triangle would\n"
            "need to match a GEMM (a reference, not a peer)"),
        OPT("--lddc-pad", OPT_INT64, &args->lddc_pad, "P", "leading dimension of the "
            "full-storage C: m rounded up\nto 32, plus P (default 0)", OPT_MIN(0)),
        OPT("--order", OPT_CHOICE, &args->cyclic, "shuffle|cyclic", "order of the contenders "
            "in each timed round:\na fresh shuffle per round (default), or the same\ncyclic "
            "order, each round starting one further on", .choices = "shuffle|cyclic",
            .values = order_values),
        OPT("--seed", OPT_UINT64, &args->seed, "S", "random inputs (default 2026)"),
        OPT("--device", OPT_INT, &args->device, "D", "the GPU (default 0)"),
        OPT_END
    };
    const opts_program_t prog = { "[options]", NULL, EXIT_FAILURE };
    opts_parse(argc, argv, opts, &prog);
    const int64_t count = testing_parse_shapes(sizes, &args->m, &args->n);
    if (count <= 0) opts_fail(argv[0], opts, &prog, "bad --sizes %s", sizes);
    args->nsizes = (int) count;
}

/* ---------------------------------------------------------------------------
 * The contenders: one call each, everything on the queue's stream.
 * ------------------------------------------------------------------------- */
typedef struct {
    char           prec;
    int64_t        m, n;
    const void    *dA, *dd, *dd2;    /* A (ldda), d, d.^2                     */
    int64_t        ldda;
    void          *dB;               /* m x n scratch (ldda) for dgmm          */
    const void    *dAD;              /* A*D (ldda), made once, for --gemm-shape */
    void          *dC;               /* the contender's output                 */
    int64_t        lddc;
    char           transr, uplo;     /* RFP variant                            */
    gchol_queue_t  queue;
    cublasHandle_t cublas;
} job_t;

typedef int64_t (*job_fn)(const job_t *job);

static int64_t run_gchol_full(const job_t *j)
{
    return j->prec == 'd'
        ? gchol_dsyrk_diag_gpu('L', j->m, j->n, 1.0, j->dA, j->ldda, j->dd, 0.0, j->dC, j->lddc,
                               j->queue)
        : gchol_ssyrk_diag_gpu('L', j->m, j->n, 1.0f, j->dA, j->ldda, j->dd, 0.0f, j->dC, j->lddc,
                               j->queue);
}

static int64_t run_gchol_rfp(const job_t *j)
{
    return j->prec == 'd'
        ? gchol_dsfrk_diag_gpu(j->transr, j->uplo, j->m, j->n, 1.0, j->dA, j->ldda, j->dd, 0.0,
                               j->dC, j->queue)
        : gchol_ssfrk_diag_gpu(j->transr, j->uplo, j->m, j->n, 1.0f, j->dA, j->ldda, j->dd, 0.0f,
                               j->dC, j->queue);
}

static int64_t run_dgmm_syrk(const job_t *j)
{
    bench_scalar_t one = bench_scalar(j->prec, 1.0), zero = bench_scalar(j->prec, 0.0);
    BENCH_BLAS(j->prec, dgmm_64, j->cublas, CUBLAS_SIDE_RIGHT, j->m, j->n, j->dA, j->ldda, j->dd, 1,
         j->dB, j->ldda);
    BENCH_BLAS(j->prec, syrk_64, j->cublas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, j->m, j->n,
         (void *) &one, j->dB, j->ldda, (void *) &zero, j->dC, j->lddc);
    return 0;
}

static int64_t run_dgmm_syrkx(const job_t *j)
{
    bench_scalar_t one = bench_scalar(j->prec, 1.0), zero = bench_scalar(j->prec, 0.0);
    BENCH_BLAS(j->prec, dgmm_64, j->cublas, CUBLAS_SIDE_RIGHT, j->m, j->n, j->dA, j->ldda, j->dd2, 1,
         j->dB, j->ldda);
    BENCH_BLAS(j->prec, syrkx_64, j->cublas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, j->m, j->n,
         (void *) &one, j->dA, j->ldda, j->dB, j->ldda, (void *) &zero, j->dC, j->lddc);
    return 0;
}

/* The reference of --gemm-shape: all of C = (A*D)(A*D)^T by one GEMM. */
static int64_t run_gemm_full(const job_t *j)
{
    bench_scalar_t one = bench_scalar(j->prec, 1.0), zero = bench_scalar(j->prec, 0.0);
    BENCH_BLAS(j->prec, gemm_64, j->cublas, CUBLAS_OP_N, CUBLAS_OP_T, j->m, j->m, j->n, (void *) &one,
         j->dAD, j->ldda, j->dAD, j->ldda, (void *) &zero, j->dC, j->lddc);
    return 0;
}

/* A contender: its routine and its own copy of the job (output buffer,
 * RFP variant); the median time and the code of its first failed call. */
typedef struct {
    job_fn  fn;
    job_t   job;
    double  seconds;
    int64_t code;
} contender_t;

/*
 * Times the contenders in rounds: one warm-up call each, then `runs` rounds
 * in which each is timed once, median per contender. Interleaving spreads
 * the clock's drift under a long FP64 load (power, temperature) over every
 * contender alike; timed one after the other, a contender that meets a slow
 * spell measures up to 15% slower than the same kernel.
 * Each round runs the contenders in a fresh shuffled order (seeded), so that
 * none always follows the same one: a fixed order (--order cyclic: each
 * round starting one further on) keeps every contender's predecessor, and
 * what runs just before a kernel changes its time. A contender whose call
 * fails is not run again (seconds = -1, code set).
 */
static void time_interleaved(contender_t *c, int nc, int runs, int cyclic, uint64_t seed,
                             cudaStream_t stream)
{
    int order[64];
    uint64_t state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    if (nc > 64) nc = 64;
    testing_timer_t timer;
    bench_timer_create(&timer, stream);
    double *times = bench_malloc((size_t) nc * (runs > 0 ? runs : 1) * sizeof(double));
    for (int i = 0; i < nc; ++i) {
        c[i].seconds = -1.0;
        c[i].code = c[i].fn(&c[i].job); /* warm-up */
    }
    for (int it = 0; it < runs; ++it) {
        for (int q = 0; q < nc; ++q) order[q] = (it + q) % nc;
        if (!cyclic)
            for (int q = nc - 1; q > 0; --q) { /* Fisher-Yates, 64-bit LCG */
                state = state * 6364136223846793005ULL + 1442695040888963407ULL;
                const int r = (int) ((state >> 33) % (uint64_t) (q + 1));
                const int t = order[q];
                order[q] = order[r];
                order[r] = t;
            }
        for (int q = 0; q < nc; ++q) {
            const int i = order[q];
            if (c[i].code != 0) continue;
            bench_timer_start(&timer);
            c[i].code = c[i].fn(&c[i].job);
            times[(size_t) i * runs + it] = bench_timer_stop(&timer);
        }
    }
    for (int i = 0; i < nc; ++i)
        if (c[i].code == 0) c[i].seconds = testing_median(times + (size_t) i * runs, runs);
    free(times);
    bench_timer_destroy(&timer);
}

/* Appends "; " (when text is not empty) and a formatted note to text. */
static void append(char *text, size_t size, const char *format, ...)
{
    size_t used = strlen(text);
    if (used > 0 && used + 2 < size) { strcpy(text + used, "; "); used += 2; }
    if (used + 1 >= size) return;
    va_list ap;
    va_start(ap, format);
    vsnprintf(text + used, size - used, format, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------------------
 * Output
 * ------------------------------------------------------------------------- */
static double tflops(double flops, double seconds)
{
    return seconds > 0 ? flops / seconds * 1e-12 : 0.0;
}

static void csv_err(FILE *f, double value, int measured)
{
    if (measured) fprintf(f, "%.3g,", value);
    else fputc(',', f);
}

typedef struct {
    double full_s, syrk_s, syrkx_s, gemm_s;
    double rfp_s[NRFP];
    double err_full, err_syrkx, err_rfp[NRFP];
    int    rfp_measured[NRFP];
    int64_t code_full, code_rfp[NRFP];
} result_t;

/* ---------------------------------------------------------------------------
 * One (precision, m, n)
 * ------------------------------------------------------------------------- */
static int bench_shape(const args_t *args, bench_context_t *ctx, char prec, int64_t m, int64_t n,
                       double gemm_tf, FILE *csv)
{
    const size_t es = testing_elsize(prec);
    const double tol = prec == 'd' ? 1e-10 : 1e-3;
    const int nrfp = args->all_rfp ? NRFP : 1;
    const int64_t ldda = bench_ldda(m), lddc = bench_ldda(m) + args->lddc_pad;
    const size_t bytes_A = (size_t) ldda * n * es, bytes_C = (size_t) lddc * m * es;
    const size_t bytes_rfp = (size_t) (m * (m + 1) / 2) * es;

    /* A, B, four m x m buffers (gchol, two peers, scratch), the RFP outputs */
    size_t free_bytes, total_bytes;
    BENCH_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    double need = 2.0 * bytes_A + 4.0 * bytes_C + nrfp * (double) bytes_rfp + 2.0 * n * es
                + (args->gemm_shape ? (double) bytes_A + bytes_C : 0.0) + (512 << 20);
    if (need > (double) free_bytes) {
        printf("# skipped %c %lld x %lld: needs %.1f GB of device memory, %.1f GB free\n", prec,
               (long long) m, (long long) n, need / 1e9, free_bytes / 1e9);
        return 0;
    }

    /* The inputs: once on the host, uploaded once, shared by everyone. */
    const uint64_t seed = args->seed ^ ((uint64_t) m << 32) ^ (uint64_t) n;
    void *hA = bench_random_host(prec, m, n, m, seed, -1.0, 1.0);
    void *hd = bench_random_host(prec, n, 1, n, seed + 1, 0.5, 2.0);
    void *hd2 = bench_malloc(n * es);
    for (int64_t k = 0; k < n; ++k) {
        if (prec == 'd') ((double *) hd2)[k] = ((double *) hd)[k] * ((double *) hd)[k];
        else             ((float *) hd2)[k]  = ((float *) hd)[k] * ((float *) hd)[k];
    }
    int64_t ldda_up;                                     /* == ldda */
    void *dA = bench_upload(prec, m, n, hA, m, &ldda_up);
    void *dd = bench_device_malloc(n * es), *dd2 = bench_device_malloc(n * es);
    BENCH_CUDA(cudaMemcpy(dd, hd, n * es, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(dd2, hd2, n * es, cudaMemcpyHostToDevice));
    free(hd2);

    void *dB = bench_device_malloc(bytes_A);
    void *dCg = bench_device_malloc(bytes_C), *dC1 = bench_device_malloc(bytes_C);
    void *dC2 = bench_device_malloc(bytes_C), *dS = bench_device_malloc(bytes_C);
    void *dR[NRFP] = { 0 };
    void *dAD = NULL, *dG = NULL;                        /* --gemm-shape */
    if (args->gemm_shape) {
        dAD = bench_device_malloc(bytes_A);
        dG = bench_device_malloc(bytes_C);
        BENCH_BLAS(prec, dgmm_64, ctx->cublas, CUBLAS_SIDE_RIGHT, m, n, dA, ldda, dd, 1, dAD, ldda);
    }
    for (int v = 0; v < nrfp; ++v) dR[v] = bench_device_malloc(bytes_rfp);
    /* the triangle nobody writes and the padding rows stay 0 in every m x m buffer */
    BENCH_CUDA(cudaMemset(dCg, 0, bytes_C));
    BENCH_CUDA(cudaMemset(dC1, 0, bytes_C));
    BENCH_CUDA(cudaMemset(dC2, 0, bytes_C));
    BENCH_CUDA(cudaMemset(dS, 0, bytes_C));

    job_t job = { .prec = prec, .m = m, .n = n, .dA = dA, .dd = dd, .dd2 = dd2, .ldda = ldda,
                  .dB = dB, .dAD = dAD, .lddc = lddc, .queue = ctx->queue,
                  .cublas = ctx->cublas };
    result_t r;
    memset(&r, 0, sizeof(r));

    /* Timings, interleaved after the spin-up: dgmm+syrk, dgmm+syrkx, gchol
     * full, gchol RFP (each variant measured), and with --gemm-shape the
     * GEMM reference. */
    contender_t c[4 + NRFP];
    int nc = 0;
    c[nc++] = (contender_t) { .fn = run_dgmm_syrk, .job = job };
    c[nc - 1].job.dC = dC1;
    c[nc++] = (contender_t) { .fn = run_dgmm_syrkx, .job = job };
    c[nc - 1].job.dC = dC2;
    c[nc++] = (contender_t) { .fn = run_gchol_full, .job = job };
    c[nc - 1].job.dC = dCg;
    for (int v = 0; v < nrfp; ++v) {
        c[nc++] = (contender_t) { .fn = run_gchol_rfp, .job = job };
        c[nc - 1].job.dC = dR[v];
        c[nc - 1].job.transr = RFP_TRANSR[v];
        c[nc - 1].job.uplo = RFP_UPLO[v];
    }
    const int gemm_slot = nc;
    if (args->gemm_shape) {
        c[nc++] = (contender_t) { .fn = run_gemm_full, .job = job };
        c[nc - 1].job.dC = dG;
    }
    bench_spin_up(0.3);
    time_interleaved(c, nc, args->runs, args->cyclic, args->seed + (uint64_t) m * 31 + (uint64_t) n,
                     ctx->stream);
    r.syrk_s = c[0].seconds;
    r.syrkx_s = c[1].seconds;
    r.full_s = c[2].seconds;
    r.code_full = c[2].code;
    for (int v = 0; v < nrfp; ++v) {
        r.rfp_s[v] = c[3 + v].seconds;
        r.code_rfp[v] = c[3 + v].code;
    }
    r.gemm_s = args->gemm_shape ? c[gemm_slot].seconds : 0.0;
    BENCH_CUDA(cudaStreamSynchronize(ctx->stream));

    /* Checks against dgmm+syrk. */
    r.err_syrkx = compare_lower(ctx->cublas, prec, m, dC2, 0, dC1, lddc, dS);
    r.err_full = r.code_full == 0 ? compare_lower(ctx->cublas, prec, m, dCg, 0, dC1, lddc, dS)
                                  : INFINITY;
    for (int v = 0; v < nrfp; ++v) {
        r.err_rfp[v] = INFINITY;
        if (r.code_rfp[v] != 0) continue;
        int64_t info = 0;
        const char uplo = RFP_UPLO[v];
        BENCH_CUDA(cudaMemsetAsync(dCg, 0, bytes_C, ctx->stream));   /* dCg is checked: reuse */
        int64_t ret = prec == 'd'
            ? gchol_dtfttr_gpu(RFP_TRANSR[v], uplo, m, dR[v], dCg, lddc, &info, ctx->queue)
            : gchol_stfttr_gpu(RFP_TRANSR[v], uplo, m, dR[v], dCg, lddc, &info, ctx->queue);
        BENCH_CUDA(cudaStreamSynchronize(ctx->stream));
        if (ret != 0 || info != 0) {
            printf("# %c %lld x %lld: gchol_%ctfttr_gpu(%c, %c) returned %lld, info %lld (%s)\n",
                   prec, (long long) m, (long long) n, prec, RFP_TRANSR[v], uplo, (long long) ret,
                   (long long) info, gchol_strerror(ret != 0 ? ret : info));
            continue;
        }
        r.rfp_measured[v] = 1;
        r.err_rfp[v] = compare_lower(ctx->cublas, prec, m, dCg, uplo == 'U', dC1, lddc, dS);
    }

    /* Single precision: every float result against the double-precision truth
     * (dCg now holds the last RFP result unpacked; re-run full storage into it). */
    double truth[3] = { INFINITY, INFINITY, INFINITY };
    int truth_measured = 0;
    if (prec == 's' && r.code_full == 0) {
        BENCH_CUDA(cudaMemsetAsync(dCg, 0, bytes_C, ctx->stream));
        if (run_gchol_full(&c[2].job) == 0) {
            BENCH_CUDA(cudaStreamSynchronize(ctx->stream));
            const float *res[3] = { dCg, dC1, dC2 };
            const int tr[3] = { 0, 0, 0 };
            truth_measured = compare_double_truth(ctx->cublas, m, n, hA, hd, lddc, res, tr, 3,
                                                  truth) == 0;
        }
    }

    /* Verdict: a failing gchol result posts no time. */
    int failed = 0;
    char status[256] = "";
    if (r.code_full != 0 || !(r.err_full <= tol)) {
        failed = 1;
        append(status, sizeof(status), "FAILED full: %s",
               r.code_full != 0 ? gchol_strerror(r.code_full) : "err above limit");
        r.full_s = 0;
    }
    for (int v = 0; v < nrfp; ++v)
        if (r.code_rfp[v] != 0 || !(r.err_rfp[v] <= tol)) {
            failed = 1;
            append(status, sizeof(status), "FAILED RFP %c%c: %s", RFP_TRANSR[v], RFP_UPLO[v],
                   r.code_rfp[v] != 0 ? gchol_strerror(r.code_rfp[v]) : "err above limit");
            r.rfp_s[v] = 0;
        }
    if (!failed) append(status, sizeof(status), "ok");
    if (!(r.err_syrkx <= tol))
        append(status, sizeof(status), "warning: syrkx and syrk peers differ");

    const double flops = (double) n * m * (m + 1);
    const double best_peer = r.syrk_s < r.syrkx_s ? r.syrk_s : r.syrkx_s;
    const double ratio_full = r.full_s > 0 ? best_peer / r.full_s : 0.0;
    const double ratio_rfp = r.full_s > 0 && r.rfp_s[0] > 0 ? r.full_s / r.rfp_s[0] : 0.0;
    const double gemm_flops = 2.0 * (double) n * m * m;
    /* the triangle's flops at the GEMM's rate, and the best peer against that */
    const double tri_at_gemm_s = r.gemm_s > 0 ? r.gemm_s * flops / gemm_flops : 0.0;
    const double ratio_at_gemm = tri_at_gemm_s > 0 ? best_peer / tri_at_gemm_s : 0.0;
    char f[10][32];
    printf("%6lld %6lld %c | %9s %6s | %9s %6s | %9s %6s | %9s %6s | %9s | %8s | %8.1e %8.1e %8.1e | %s\n",
           (long long) m, (long long) n, prec,
           bench_field(f[0], "%.3f", r.full_s, 1e3), bench_field(f[1], "%.2f", tflops(flops, r.full_s), 1),
           bench_field(f[2], "%.3f", r.rfp_s[0], 1e3), bench_field(f[3], "%.2f", tflops(flops, r.rfp_s[0]), 1),
           bench_field(f[4], "%.3f", r.syrk_s, 1e3), bench_field(f[5], "%.2f", tflops(flops, r.syrk_s), 1),
           bench_field(f[6], "%.3f", r.syrkx_s, 1e3), bench_field(f[7], "%.2f", tflops(flops, r.syrkx_s), 1),
           bench_field(f[8], "%.3f", ratio_full, 1), bench_field(f[9], "%.3f", ratio_rfp, 1),
           r.err_full, r.err_rfp[0], r.err_syrkx, status);
    for (int v = 1; v < nrfp; ++v)
        printf("%15s | RFP transr %c uplo %c: %9s ms %6s TF/s, full/RFP %s, err %.1e\n", "",
               RFP_TRANSR[v], RFP_UPLO[v], bench_field(f[0], "%.3f", r.rfp_s[v], 1e3),
               bench_field(f[1], "%.2f", tflops(flops, r.rfp_s[v]), 1),
               bench_field(f[2], "%.3f", r.full_s > 0 && r.rfp_s[v] > 0 ? r.full_s / r.rfp_s[v] : 0, 1),
               r.err_rfp[v]);
    if (args->gemm_shape)
        printf("%15s | cuBLAS %cgemm (N,T), all of (AD)(AD)^T: %s ms, %s TF/s; the triangle at "
               "that rate: %s ms, best peer / that %s\n", "", prec,
               bench_field(f[0], "%.3f", r.gemm_s, 1e3),
               bench_field(f[1], "%.2f", tflops(gemm_flops, r.gemm_s), 1),
               bench_field(f[2], "%.3f", tri_at_gemm_s, 1e3),
               bench_field(f[3], "%.3f", ratio_at_gemm, 1));
    if (truth_measured)
        printf("%15s | against C in double: err gchol full %.1e, sgmm+ssyrk %.1e, sgmm+ssyrkx "
               "%.1e\n", "", truth[0], truth[1], truth[2]);
    fflush(stdout);

    if (csv) {
        double err_all = 0.0;
        for (int v = 0; v < nrfp; ++v)
            if (!(r.err_rfp[v] <= err_all)) err_all = r.err_rfp[v];
        fprintf(csv, "%lld,%lld,%c,%.6g,", (long long) m, (long long) n, prec, flops);
        bench_csv_num(csv, r.full_s);   bench_csv_num(csv, tflops(flops, r.full_s));
        bench_csv_num(csv, r.rfp_s[0]); bench_csv_num(csv, tflops(flops, r.rfp_s[0]));
        bench_csv_num(csv, r.syrk_s);   bench_csv_num(csv, tflops(flops, r.syrk_s));
        bench_csv_num(csv, r.syrkx_s);  bench_csv_num(csv, tflops(flops, r.syrkx_s));
        bench_csv_num(csv, gemm_tf);
        bench_csv_num(csv, ratio_full);
        bench_csv_num(csv, ratio_rfp);
        csv_err(csv, r.err_full, r.code_full == 0);
        csv_err(csv, r.err_rfp[0], r.rfp_measured[0]);
        csv_err(csv, r.err_syrkx, 1);
        for (int v = 1; v < NRFP; ++v) bench_csv_num(csv, v < nrfp ? r.rfp_s[v] : 0.0);
        csv_err(csv, err_all, args->all_rfp);
        bench_csv_num(csv, r.gemm_s);
        bench_csv_num(csv, tflops(gemm_flops, r.gemm_s));
        bench_csv_num(csv, ratio_at_gemm);
        fprintf(csv, "\"%s\"\n", status);
        fflush(csv);
    }

    free(hA);
    free(hd);
    for (int v = 0; v < nrfp; ++v) BENCH_CUDA(cudaFree(dR[v]));
    if (dG) BENCH_CUDA(cudaFree(dG));
    if (dAD) BENCH_CUDA(cudaFree(dAD));
    BENCH_CUDA(cudaFree(dS));
    BENCH_CUDA(cudaFree(dC2));
    BENCH_CUDA(cudaFree(dC1));
    BENCH_CUDA(cudaFree(dCg));
    BENCH_CUDA(cudaFree(dB));
    BENCH_CUDA(cudaFree(dd2));
    BENCH_CUDA(cudaFree(dd));
    BENCH_CUDA(cudaFree(dA));
    return failed;
}

int main(int argc, char **argv)
{
    args_t args;
    parse_args(argc, argv, &args);
    bench_require_gpu(args.device, argv[0]);

    bench_context_t ctx;
    bench_context_create(&ctx);

    FILE *csv = NULL;
    if (args.csv) {
        csv = fopen(args.csv, "w");
        if (csv == NULL) { perror(args.csv); return EXIT_FAILURE; }
        fprintf(csv, "m,n,precision,flops,gchol_full_s,gchol_full_tflops,gchol_rfp_s,"
                     "gchol_rfp_tflops,dgmm_syrk_s,dgmm_syrk_tflops,dgmm_syrkx_s,dgmm_syrkx_tflops,"
                     "gemm_tflops,ratio_full,ratio_packed_full,err_full,err_rfp,err_syrkx,"
                     "rfp_NU_s,rfp_TL_s,rfp_TU_s,err_rfp_all,gemm_shape_s,gemm_shape_tflops,"
                     "ratio_at_gemm_rate,status\n");
    }
    printf("# C = A D^2 A^T, A m x n uniform(-1,1), d uniform(0.5,2); runs %d (median after a "
           "warm-up; contenders in %s order each round)\n# flops n*m*(m+1) (syrk convention; the m*n products by D not counted)\n"
           "# gchol full: ?syrk_diag_gpu L; RFP: ?sfrk_diag_gpu N,L; peers: cuBLAS ?dgmm + ?syrk, "
           "?dgmm(d^2) + ?syrkx (64-bit API)\n"
           "# peer/full = best peer time / gchol full time; full/RFP = gchol full time / RFP "
           "time\n# err = max|C - C_dgmm+syrk| / max|C_dgmm+syrk| (lower triangle), limit 1e-10 "
           "double, 1e-3 single\n", args.runs, args.cyclic ? "the same cyclic" : "a shuffled");

    int failures = 0;
    for (const char *p = args.precs; *p; ++p) {
        const char prec = *p;
        double gemm_tf = bench_gemm_tflops(prec, args.gemm_n, args.runs, ctx.stream);
        printf("\n# %s: cuBLAS %cgemm n=%lld: %.2f TFLOP/s (ceiling)\n", testing_prec_name(prec),
               prec, (long long) args.gemm_n, gemm_tf);
        printf("#    m      n p |   full ms   TF/s |    RFP ms   TF/s | dgmm+syrk   TF/s |"
               " dgmm+syrkx  TF/s | peer/full | full/RFP | err full  err RFP err syrkx | status\n");
        for (int s = 0; s < args.nsizes; ++s)
            failures += bench_shape(&args, &ctx, prec, args.m[s], args.n[s], gemm_tf, csv);
    }

    if (csv) fclose(csv);
    bench_context_destroy(&ctx);
    free(args.m);
    free(args.n);
    if (failures) printf("\n# %d shape(s) with a failing gchol result\n", failures);
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
