/*
 * bench_potrf.c -- gchol potrf sweep against cuSOLVER (and OpenBLAS).
 *
 * For each precision, size and uplo: one SPD matrix is generated, uploaded,
 * factored by cusolverDnXpotrf once (warm-up + niter timed runs), then by each
 * gchol configuration on the same matrix in the same process. Every gchol
 * result is checked (info and ||Ax - L L^T x||); a failing one posts no time.
 * The cuBLAS GEMM rate of each precision is measured in the same run as the
 * ceiling. Prints a table and optionally writes a CSV (options: --help).
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"
#include "test_hooks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_CHECK_LIMIT 30.0    /* factor check threshold (LAPACK's 30) */
#define BENCH_MAX_CONFIGS 64

typedef struct {
    int64_t    *sizes;
    int         nsizes;
    const char *precs;           /* "d", "s" or "ds"                        */
    const char *uplos;           /* "L", "U" or "LU"                        */
    const char *variant;         /* auto, left, right, all                  */
    int         lookahead;       /* for a single variant                    */
    int         upper;           /* gchol_upper_t, or UPPER_BOTH            */
    int64_t    *nbs, *recnbs;    /* --nb / --recnb lists ({0}: automatic)   */
    int         nnbs, nrecnbs;
    int         niter;
    int         openblas;
    int64_t     openblas_max;    /* 0: no limit                             */
    int         host;
    int         host_pinned; /* --host-pinned: the host matrix in pinned memory */
    const char *csv;
    double      memory_max_gb;   /* 0: what cudaMemGetInfo reports free     */
    int64_t     gemm_n;
    int64_t     tiled_one_block_up_to; /* test hook; 0: the tuning table's */
    uint64_t    seed;
    int         device;
} bench_args_t;

typedef struct { int variant, lookahead; int64_t nb, recnb; } bench_config_t;

/* --upper both: each 'U' configuration run with the view and with the swap. */
#define UPPER_BOTH 2

/* Timings of the references for one (prec, n, uplo). */
typedef struct {
    double cusolver_s, openblas_s, gemm_tflops;
} bench_refs_t;

static void parse_args(int argc, char **argv, bench_args_t *args)
{
    static const int lookahead_values[] = { GCHOL_LOOKAHEAD_AUTO, GCHOL_LOOKAHEAD_ON,
                                            GCHOL_LOOKAHEAD_OFF };
    static const int upper_values[] = { GCHOL_UPPER_AUTO, GCHOL_UPPER_VIEW, GCHOL_UPPER_SWAP,
                                        UPPER_BOTH };
    static testing_list_t sizes, nbs, recnbs;
    int host_pinned = 0;
    *args = (bench_args_t) { .precs = "ds", .uplos = "L", .variant = "auto",
                             .lookahead = GCHOL_LOOKAHEAD_AUTO, .upper = GCHOL_UPPER_AUTO,
                             .niter = 3, .gemm_n = 8192, .seed = 2026 };
    const opt_t opts[] = {
        OPT("-n", OPT_LIST, &sizes, "LIST", "sizes: a,b,c and/or start:stop[:step] (no step: "
            "doubling)\ndefault 1024,2048,4096,8192,16384,32768,40960",
            .doubling = 1, .def = "1024,2048,4096,8192,16384,32768,40960"),
        OPT("--prec", OPT_CHARS, &args->precs, "d|s|ds", "precisions (default ds)",
            .choices = "ds"),
        OPT("--uplo", OPT_CHARS, &args->uplos, "L|U|LU", "triangles (default L)",
            .choices = "LU"),
        OPT("--variant", OPT_STRING, &args->variant, "V", "auto|left|right|tiled|all (default "
            "auto); all = left and right\neach with lookahead on and off, tiled, plus auto"),
        OPT("--lookahead", OPT_CHOICE, &args->lookahead, "X", "auto|on|off for a single variant "
            "(default auto)", .choices = "auto|on|off", .values = lookahead_values),
        OPT("--nb", OPT_LIST, &nbs, "LIST", "block sizes nb (default 0: automatic); with lists",
            .doubling = 1, .def = "0"),
        OPT("--recnb", OPT_LIST, &recnbs, "LIST", "... and recnb: every pair with recnb <= nb "
            "is a configuration", .doubling = 1, .def = "0"),
        OPT("--upper", OPT_CHOICE, &args->upper, "X", "auto|view|swap|both: how 'U' runs "
            "(default auto;\nboth = each 'U' row twice, tagged /view and /swap)",
            .choices = "auto|view|swap|both", .values = upper_values),
        OPT("--niter", OPT_INT, &args->niter, "K", "timed runs after the warm-up, median "
            "reported (default 3)", OPT_MIN(1)),
        OPT("--openblas", OPT_FLAG, &args->openblas, NULL, "also time OpenBLAS LAPACKE_?potrf "
            "on the host cores"),
        OPT("--openblas-max", OPT_INT64, &args->openblas_max, "N", "... only for n <= N",
            OPT_MIN(0)),
        OPT("--host", OPT_FLAG, &args->host, NULL, "also time the host interface "
            "gchol_?potrf_expert\n(with transfers; variant \"host\"; the options of the\n"
            "one --variant given, auto with all)"),
        OPT("--host-pinned", OPT_FLAG, &host_pinned, NULL, "the same with the host matrix in "
            "pinned memory\n(cudaMallocHost: direct copies, no staging)"),
        OPT("--csv", OPT_STRING, &args->csv, "FILE", "write the results as CSV"),
        OPT("--memory-max", OPT_DOUBLE, &args->memory_max_gb, "GB", "skip sizes needing more "
            "device memory than this\n(sizes that do not fit in free memory are always "
            "skipped)", OPT_MIN(0)),
        OPT("--gemm-n", OPT_INT64, &args->gemm_n, "N", "size of the cuBLAS GEMM ceiling "
            "(default 8192)", OPT_MIN(1)),
        OPT("--tiled-one-block-up-to", OPT_INT64, &args->tiled_one_block_up_to, "N", "the "
            "tiled kernel runs one block per SM up to this n\n(default 0: the tuning table's; "
            "tools/retune.sh tiled-blocks)", OPT_MIN(0)),
        OPT("--seed", OPT_UINT64, &args->seed, "S", "random matrices (default 2026)"),
        OPT("--device", OPT_INT, &args->device, "D", "the GPU (default 0)"),
        OPT_END
    };
    const opts_program_t prog = { "[options]", NULL, EXIT_FAILURE };
    opts_parse(argc, argv, opts, &prog);
    if (host_pinned) args->host = args->host_pinned = 1;
    if (args->tiled_one_block_up_to > 0) {
        const gchol_test_hooks_t hooks = { .tiled_one_block_up_to = args->tiled_one_block_up_to };
        gchol_test_hooks_set(&hooks);
    }
    args->sizes = sizes.v;
    args->nsizes = (int) sizes.count;
    args->nbs = nbs.v;
    args->nnbs = (int) nbs.count;
    args->recnbs = recnbs.v;
    args->nrecnbs = (int) recnbs.count;
}

/* The gchol configurations that --variant (and --lookahead) ask for, each
 * with every (nb, recnb) of the lists, recnb <= nb where both are set. */
static int make_variants(const bench_args_t *args, bench_config_t *configs);
static int make_configs(const bench_args_t *args, bench_config_t *configs)
{
    bench_config_t variants[BENCH_MAX_CONFIGS];
    const int nvariants = make_variants(args, variants);
    int count = 0;
    for (int v = 0; v < nvariants; ++v)
        for (int i = 0; i < args->nnbs; ++i)
            for (int k = 0; k < args->nrecnbs; ++k) {
                const int64_t nb = args->nbs[i], recnb = args->recnbs[k];
                if (nb > 0 && recnb > nb) continue;
                if (count == BENCH_MAX_CONFIGS) {
                    fprintf(stderr, "too many configurations (at most %d)\n", BENCH_MAX_CONFIGS);
                    exit(EXIT_FAILURE);
                }
                configs[count] = variants[v];
                configs[count].nb = nb;
                configs[count++].recnb = recnb;
            }
    return count;
}
static int make_variants(const bench_args_t *args, bench_config_t *configs)
{
    if (strcmp(args->variant, "all") == 0) {
        int count = 0;
        for (int v = GCHOL_VARIANT_LEFT; v <= GCHOL_VARIANT_RIGHT; ++v) {
            configs[count++] = (bench_config_t) { v, GCHOL_LOOKAHEAD_ON, 0, 0 };
            configs[count++] = (bench_config_t) { v, GCHOL_LOOKAHEAD_OFF, 0, 0 };
        }
        configs[count++] = (bench_config_t) { GCHOL_VARIANT_TILED, GCHOL_LOOKAHEAD_AUTO, 0, 0 };
        configs[count++] = (bench_config_t) { GCHOL_VARIANT_AUTO, GCHOL_LOOKAHEAD_AUTO, 0, 0 };
        return count;
    }
    for (int v = GCHOL_VARIANT_AUTO; v <= GCHOL_VARIANT_TILED; ++v)
        if (strcmp(args->variant, testing_variant_name(v)) == 0) {
            configs[0] = (bench_config_t) { v, args->lookahead, 0, 0 };
            return 1;
        }
    fprintf(stderr, "--variant: auto, left, right, tiled or all\n");
    exit(EXIT_FAILURE);
}

/* A CSV field: the value, or nothing when it was not measured. */
static void csv_field(FILE *f, double value, int last)
{
    if (value > 0 && isfinite(value)) fprintf(f, "%.6g", value);
    fputc(last ? '\n' : ',', f);
}

/* A table field: value * scale with `format`, or "-" when not measured. */
static const char *table_field(char *text, size_t size, const char *format, double value,
                               double scale)
{
    if (value > 0 && isfinite(value)) snprintf(text, size, format, value * scale);
    else snprintf(text, size, "-");
    return text;
}

/* Prints one table row and its CSV line. gchol_s <= 0: no gchol time. */
static void report_row(FILE *csv, char prec, int64_t n, char uplo, const char *variant,
                       const gchol_options_t *resolved, double gchol_s,
                       const bench_refs_t *refs, const char *status)
{
    double gchol_tf = bench_potrf_tflops(n, gchol_s), cus_tf = bench_potrf_tflops(n, refs->cusolver_s);
    double obl_tf = bench_potrf_tflops(n, refs->openblas_s);
    double ratio = gchol_s > 0 && refs->cusolver_s > 0 ? refs->cusolver_s / gchol_s : 0.0;
    char f[4][32];
    printf("%c %6lld %c %-12s %-4s %4lld %4lld | %10s %6s | %10.3f %6.2f | %6s | %8s | %s\n",
           prec, (long long) n, uplo, variant, testing_lookahead_name(resolved->lookahead),
           (long long) resolved->nb, (long long) resolved->recnb,
           table_field(f[0], 32, "%.3f", gchol_s, 1e3), table_field(f[1], 32, "%.2f", gchol_tf, 1),
           refs->cusolver_s * 1e3, cus_tf, table_field(f[2], 32, "%.3f", ratio, 1),
           table_field(f[3], 32, "%.2f", obl_tf, 1), status);
    fflush(stdout);
    if (csv == NULL) return;
    const char *tag = strncmp(variant, "auto", 4) == 0 ? "auto" : variant;
    fprintf(csv, "%lld,%c,%c,%s,%s,%lld,%lld,", (long long) n, prec, uplo, tag,
            testing_lookahead_name(resolved->lookahead), (long long) resolved->nb,
            (long long) resolved->recnb);
    csv_field(csv, gchol_s, 0);
    csv_field(csv, refs->cusolver_s, 0);
    csv_field(csv, refs->openblas_s, 0);
    csv_field(csv, gchol_tf, 0);
    csv_field(csv, cus_tf, 0);
    csv_field(csv, obl_tf, 0);
    csv_field(csv, refs->gemm_tflops, 0);
    csv_field(csv, ratio, 1);
    fflush(csv);
}

/* Turns (time, info, check) into a status word; clears *seconds on failure. */
static const char *judge(double *seconds, int64_t info, double check, char *text, size_t size)
{
    if (*seconds < 0 || info < 0)
        snprintf(text, size, "ERROR %lld: %s", (long long) info, gchol_strerror(info));
    else if (info > 0)
        snprintf(text, size, "FAILED info=%lld", (long long) info);
    else if (!(check < BENCH_CHECK_LIMIT))
        snprintf(text, size, "FAILED check %.2g", check);
    else {
        snprintf(text, size, "ok (check %.2g)", check);
        return text;
    }
    *seconds = 0.0;
    return text;
}

int main(int argc, char **argv)
{
    bench_args_t args;
    parse_args(argc, argv, &args);
    bench_require_gpu(args.device, argv[0]);

    bench_config_t configs[BENCH_MAX_CONFIGS];
    const int nconfigs = make_configs(&args, configs);

    bench_context_t ctx;
    bench_context_create(&ctx);
    gchol_queue_t queue = ctx.queue;
    cudaStream_t stream = ctx.stream;
    cublasHandle_t cublas = ctx.cublas;
    int64_t *dinfo = bench_device_malloc(sizeof(int64_t));

    FILE *csv = NULL;
    if (args.csv) {
        csv = fopen(args.csv, "w");
        if (csv == NULL) { perror(args.csv); return EXIT_FAILURE; }
        fprintf(csv, "n,precision,uplo,variant,lookahead,nb,recnb,gchol_s,cusolver_s,openblas_s,"
                     "gchol_tflops,cusolver_tflops,openblas_tflops,gemm_tflops,ratio\n");
    }
    if (args.openblas)
        printf("# %s (set OPENBLAS_CORETYPE if that is not this host's core)\n",
               bench_openblas_config());
    printf("# niter %d (median after a warm-up), flops n^3/3 + n^2/2 + n/6, "
           "check = ||Ax - LL^Tx|| / (n eps ||Ax||) < %g\n", args.niter, BENCH_CHECK_LIMIT);

    int failures = 0;
    for (const char *p = args.precs; *p; ++p) {
        const char prec = *p;
        const size_t es = testing_elsize(prec);
        bench_refs_t refs = { 0 };
        refs.gemm_tflops = bench_gemm_tflops(prec, args.gemm_n, args.niter, stream);
        printf("\n# %s: cuBLAS %cgemm n=%lld: %.2f TFLOP/s (ceiling)\n", testing_prec_name(prec),
               prec, (long long) args.gemm_n, refs.gemm_tflops);
        printf("# p      n u variant      la     nb recnb|   gchol ms  TF/s | cusolver ms  TF/s |"
               "  ratio | OpenBLAS | status\n");

        for (int in = 0; in < args.nsizes; ++in) {
            const int64_t n = args.sizes[in];
            size_t free_bytes, total_bytes;
            BENCH_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
            double limit = (double) free_bytes;
            if (args.memory_max_gb > 0 && args.memory_max_gb * 1e9 < limit)
                limit = args.memory_max_gb * 1e9;
            double need = (double) bench_potrf_bytes(prec, n, args.host ? 3 : 2);
            if (need > limit) {
                printf("# skipped %s n=%lld: needs %.1f GB of device memory, %.1f GB allowed\n",
                       testing_prec_name(prec), (long long) n, need / 1e9, limit / 1e9);
                continue;
            }

            /* One matrix per (prec, n): pristine copy dA0 and working copy dA. */
            void *hA0 = bench_spd_host(prec, n, n, args.seed ^ (uint64_t) n);
            int64_t ldda;
            void *dA0 = bench_upload(prec, n, n, hA0, n, &ldda);
            void *dA  = bench_device_malloc((size_t) ldda * n * es);
            void *hA = NULL;
            if (args.host_pinned)
                BENCH_CUDA(cudaMallocHost(&hA, (size_t) n * n * es));
            else if (args.openblas || args.host)
                hA = bench_malloc((size_t) n * n * es);

            gchol_options_t autopick;
            gchol_options_default(&autopick);
            autopick.nb = configs[0].nb;
            autopick.recnb = configs[0].recnb;
            gchol_options_resolve(&autopick, prec, n);
            printf("# auto for %s n=%lld: variant %s, lookahead %s, nb %lld, recnb %lld\n",
                   testing_prec_name(prec), (long long) n, testing_variant_name(autopick.variant),
                   testing_lookahead_name(autopick.lookahead), (long long) autopick.nb,
                   (long long) autopick.recnb);

            for (const char *u = args.uplos; *u; ++u) {
                const char uplo = *u;
                char status[160];
                int cinfo = 0;
                bench_spin_up(0.3);
                refs.cusolver_s = bench_cusolver_potrf(&ctx.cusolver, prec, uplo, n, dA0, dA, ldda,
                                                       args.niter, &cinfo);
                double ccheck = bench_factor_check(cublas, prec, uplo, n, dA0, dA, ldda);
                if (cinfo != 0 || !(ccheck < BENCH_CHECK_LIMIT))
                    printf("# warning: cuSOLVER info %d, check %.2g\n", cinfo, ccheck);

                refs.openblas_s = 0.0;
                if (args.openblas && (args.openblas_max == 0 || n <= args.openblas_max)) {
                    int oinfo = 0;
                    refs.openblas_s = bench_openblas_potrf(prec, uplo, n, hA0, hA, n,
                                                           args.niter, &oinfo);
                    if (oinfo != 0) printf("# warning: OpenBLAS info %d\n", oinfo);
                }

                const int nuppers = uplo == 'U' && args.upper == UPPER_BOTH ? 2 : 1;
                for (int cu = 0; cu < nconfigs * nuppers; ++cu) {
                    const int c = cu / nuppers;
                    gchol_options_t opts, resolved;
                    gchol_options_default(&opts);
                    opts.variant = configs[c].variant;
                    opts.lookahead = configs[c].lookahead;
                    opts.nb = configs[c].nb;
                    opts.recnb = configs[c].recnb;
                    opts.upper = args.upper == UPPER_BOTH
                                     ? (cu % nuppers ? GCHOL_UPPER_SWAP : GCHOL_UPPER_VIEW)
                                     : args.upper;
                    resolved = opts;
                    gchol_options_resolve(&resolved, prec, n);

                    int64_t info = 0;
                    double seconds = bench_gchol_potrf(queue, BENCH_GCHOL_ASYNC, prec, uplo, n,
                                                       dA0, dA, ldda, &opts, dinfo, args.niter,
                                                       &info);
                    double check = seconds >= 0 && info == 0
                        ? bench_factor_check(cublas, prec, uplo, n, dA0, dA, ldda) : INFINITY;
                    judge(&seconds, info, check, status, sizeof(status));
                    failures += seconds <= 0;

                    char variant[32];
                    if (configs[c].variant == GCHOL_VARIANT_AUTO)
                        snprintf(variant, sizeof(variant), "auto>%s", testing_variant_name(resolved.variant));
                    else
                        snprintf(variant, sizeof(variant), "%s", testing_variant_name(configs[c].variant));
                    if (uplo == 'U' && opts.upper != GCHOL_UPPER_AUTO)
                        snprintf(variant + strlen(variant), sizeof(variant) - strlen(variant), "/%s",
                                 resolved.upper == GCHOL_UPPER_SWAP ? "swap" : "view");
                    report_row(csv, prec, n, uplo, variant, &resolved, seconds, &refs, status);
                }

                if (args.host) {
                    /* host interface with transfers: the options of the one
                     * variant asked for (auto by default), or auto */
                    gchol_options_t hopts;
                    gchol_options_default(&hopts);
                    if (nconfigs == 1) {
                        hopts.variant = configs[0].variant;
                        hopts.lookahead = configs[0].lookahead;
                        hopts.nb = configs[0].nb;
                        hopts.recnb = configs[0].recnb;
                    }
                    gchol_options_t hresolved = hopts;
                    gchol_options_resolve_host(&hresolved, prec, n);
                    int64_t info = 0;
                    double seconds = bench_gchol_host_potrf(queue, prec, uplo, n, hA0, hA, n,
                                                            &hopts, args.niter, &info);
                    double check = INFINITY;
                    if (seconds >= 0 && info == 0) {
                        BENCH_CUDA(cudaMemcpy2D(dA, ldda * es, hA, n * es, n * es, n,
                                                cudaMemcpyHostToDevice));
                        check = bench_factor_check(cublas, prec, uplo, n, dA0, dA, ldda);
                    }
                    judge(&seconds, info, check, status, sizeof(status));
                    failures += seconds <= 0;
                    report_row(csv, prec, n, uplo, args.host_pinned ? "host_pinned" : "host",
                               &hresolved, seconds, &refs, status);
                }
            }
            if (args.host_pinned) cudaFreeHost(hA); else free(hA);
            free(hA0);
            BENCH_CUDA(cudaFree(dA));
            BENCH_CUDA(cudaFree(dA0));
        }
    }

    if (csv) fclose(csv);
    BENCH_CUDA(cudaFree(dinfo));
    bench_context_destroy(&ctx);
    free(args.sizes);
    if (failures) printf("\n# %d gchol run(s) failed\n", failures);
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
