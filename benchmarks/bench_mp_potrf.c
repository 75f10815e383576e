/*
 * bench_mp_potrf.c -- the distributed Cholesky (gchol_mp_dpotrf) under
 * mpirun, each rank on its node-local GPU (gchol_mp_use_local_gpu: one GPU
 * per rank, or ranks sharing one), panels on NCCL where every rank has a GPU
 * of its own (--transport auto; mpi, nccl to force):
 *
 *   mpirun --bind-to none -np P bench_mp_potrf [-n LIST] [--nb LIST] [--grid PxQ]
 *              [--uplo L|U] [--prec d|s] [--single 0|1] [--transport T]
 *              [--source auto|host|gen] [--niter K] [--csv FILE] [--timeline PREFIX]
 *
 * (--bind-to none: each rank fills its part on all host cores; bound to one
 * core, a 100 GB part takes minutes.)
 *
 * For each n and block size: the block-cyclic SPD matrix A(i,j) =
 * u(max(i,j), min(i,j)) + n [i = j] (u uniform in (-1,1) from (i, j): the
 * same matrix as testing_generate_spd) on the grid (default the squarest
 * P = p x q, p <= q), a fresh device copy of each rank's part before every
 * run, a warm-up, then the median of --niter runs; a run's time is the
 * slowest rank's, between barriers. Beside it, rank 0 alone times
 * gchol_dpotrf_gpu on the whole matrix on its GPU when it fits (CUDA events,
 * same matrix, fresh copies, median): on one rank the ratio is the
 * distributed driver's overhead (single / distributed); on P GPUs it is the
 * per-GPU efficiency, the TFLOP/s per GPU over the single GPU's. Built
 * with cuSOLVERMp (the Makefile's CUSOLVERMP_HOME), its cusolverMpPotrf
 * runs on the same matrix and grid where every rank has its own GPU, timed
 * the same way (ratio: its time over gchol's).
 *
 * Each timed factor is checked by a solve with it (bench_mp_resid.h): the
 * row ends in ok or FAILED, and the exit status is 1 when any failed.
 *
 * --prec s runs gchol_mp_spotrf (and the peer in single). Where a rank's
 * pristine copy and its working copy do not both fit in its GPU's memory,
 * the pristine copy stays in host memory (--source auto or host), or each
 * run regenerates the part (--source gen: no host copy, for many ranks of one
 * host), and each run starts from an upload outside the timed region
 * (bench_mp_source.h), so that matrices of about 100 GB a GPU run; the
 * single-GPU reference keeps its copy in host memory where the whole matrix
 * fits on the GPU once (--single 0: none).
 *
 * Rank 0 also prints the per-GPU ceilings measured in the same run: cuBLAS
 * ?gemm at n = 16384 on its GPU, the median of single calls and the rate of
 * calls back to back for 3 s (what the power limit leaves to a long run).
 *
 * --timeline PREFIX: after the timed runs of each n and block size, one more
 * factorization with each rank's timeline (gchol_mp_grid_set_trace), written
 * to PREFIX_<prec><n>_nb<nb>_<p>x<q>_rank<r>.csv (plot_timeline.py draws
 * them), and a row a rank: the updates' busy time, the transport's on its
 * side stream, and how much of that ran while the updates did (hidden).
 */
#include <mpi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "gchol_mp.h"

#include "bench_mp_source.h"

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One factorization with each rank's timeline: its CSV, and rank 0 prints a
 * row a rank. */
static void traced_run(const char *prefix, char prec, char uplo, int64_t n, int64_t nb, int64_t p,
                       int64_t q, int rank, int size, gchol_mp_grid_t grid, const source_t *src,
                       void *dA, const gchol_mp_desc_t *desc)
{
    gchol_trace_t tr = { NULL, 1 << 16, 0 };
    int64_t info = 0, need = 0;
    for (;;) {
        tr.events = bench_malloc((size_t)tr.capacity * sizeof(gchol_trace_event_t));
        BENCH_GCHOL(gchol_mp_grid_set_trace(grid, &tr));
        fresh(src, dA);
        MPI_Barrier(MPI_COMM_WORLD);
        if (prec == 's') BENCH_GCHOL(gchol_mp_spotrf(uplo, n, dA, 1, 1, desc, &info, grid));
        else BENCH_GCHOL(gchol_mp_dpotrf(uplo, n, dA, 1, 1, desc, &info, grid));
        BENCH_GCHOL(gchol_mp_grid_set_trace(grid, NULL));
        MPI_Allreduce(&tr.count, &need, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
        if (need <= tr.capacity) break;
        free(tr.events);
        tr.capacity = need;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s_%c%lld_nb%lld_%lldx%lld_rank%d.csv", prefix, prec, (long long)n,
             (long long)nb, (long long)p, (long long)q, rank);
    if (bench_trace_csv(tr.events, tr.count, path) != 0) perror(path);
    /* the transport's events on the updates' stream count as exposed */
    const bench_trace_summary_t s = bench_trace_summary(tr.events, tr.count);
    double moves_main = 0;
    for (int64_t e = 0; e < tr.count; ++e)
        if (tr.events[e].stream == 0 &&
            (tr.events[e].op == GCHOL_OP_BCAST || tr.events[e].op == GCHOL_OP_GATHER))
            moves_main += tr.events[e].end_ms - tr.events[e].start_ms;
    double mine[6] = { s.total_ms, s.busy_ms[0], s.busy_ms[1], s.both_ms, moves_main,
                       (double)tr.count };
    double *all = rank == 0 ? bench_malloc((size_t)size * sizeof mine) : NULL;
    MPI_Gather(mine, 6, MPI_DOUBLE, all, 6, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("# timeline, n %lld nb %lld, %lldx%lld, info %lld: %s_%c%lld_nb%lld_%lldx%lld_rank*.csv\n",
               (long long)n, (long long)nb, (long long)p, (long long)q, (long long)info, prefix,
               prec, (long long)n, (long long)nb, (long long)p, (long long)q);
        printf("# %4s %10s %12s %14s %12s %8s %16s %7s\n", "rank", "total ms", "updates ms",
               "side stream ms", "hidden ms", "hidden", "moves on main ms", "events");
        /* the same rows as CSV, for the report */
        snprintf(path, sizeof path, "%s_%c%lld_nb%lld_%lldx%lld_summary.csv", prefix, prec,
                 (long long)n, (long long)nb, (long long)p, (long long)q);
        FILE *sum = fopen(path, "w");
        if (!sum) perror(path);
        else fprintf(sum, "prec,n,nb,p,q,rank,total_ms,updates_ms,side_ms,hidden_ms,"
                          "moves_main_ms,events\n");
        for (int r = 0; r < size; ++r) {
            const double *x = all + 6 * r;
            printf("# %4d %10.3f %12.3f %14.3f %12.3f %7.1f%% %16.3f %7.0f\n", r, x[0], x[1], x[2],
                   x[3], x[2] > 0 ? 100 * x[3] / x[2] : 0.0, x[4], x[5]);
            if (sum)
                fprintf(sum, "%c,%lld,%lld,%lld,%lld,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.0f\n", prec,
                        (long long)n, (long long)nb, (long long)p, (long long)q, r, x[0], x[1],
                        x[2], x[3], x[4], x[5]);
        }
        if (sum) fclose(sum);
        fflush(stdout);
    }
    free(all);
    free(tr.events);
}

#include "bench_mp_resid.h"

#if defined(GCHOL_BENCH_CUSOLVERMP)
#include "bench_mp_cusolvermp.h"
#else
typedef struct { int ok; } mp_peer_t;
static void peer_open(mp_peer_t *pr, int rank, int size, int dev, int64_t p, int64_t q)
{
    (void)size, (void)dev, (void)p, (void)q;
    pr->ok = 0;
    if (rank == 0) printf("# cuSOLVERMp: not built in (make CUSOLVERMP_HOME=...)\n");
}
static void peer_close(mp_peer_t *pr) { (void)pr; }
static double peer_time(const mp_peer_t *pr, int single, char uplo, int64_t n, int64_t nb,
                        int64_t lld, const source_t *src, int64_t niter, double *t, int64_t *info)
{
    (void)pr, (void)single, (void)uplo, (void)n, (void)nb, (void)lld, (void)src, (void)niter, (void)t;
    *info = 0;
    return NAN;
}
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *nlist = "8192,16384,32768", *nblist = "512,1024", *csv = NULL, *timeline = NULL;
    int64_t p = 0, q = 0, niter = 3;
    char uplo = 'L', prec = 'd';
    int with_single = 1;
    const char *transport = "auto", *source = "auto";
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) nlist = argv[++i];
        else if (!strcmp(argv[i], "--nb") && i + 1 < argc) nblist = argv[++i];
        else if (!strcmp(argv[i], "--grid") && i + 1 < argc) {
            long long a = 0, b = 0;
            if (sscanf(argv[++i], "%lldx%lld", &a, &b) == 2) { p = a; q = b; }
        } else if (!strcmp(argv[i], "--uplo") && i + 1 < argc) uplo = argv[++i][0];
        else if (!strcmp(argv[i], "--prec") && i + 1 < argc) prec = argv[++i][0];
        else if (!strcmp(argv[i], "--single") && i + 1 < argc) with_single = atoi(argv[++i]) != 0;
        else if (!strcmp(argv[i], "--transport") && i + 1 < argc) transport = argv[++i];
        else if (!strcmp(argv[i], "--source") && i + 1 < argc) source = argv[++i];
        else if (!strcmp(argv[i], "--niter") && i + 1 < argc) niter = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc) csv = argv[++i];
        else if (!strcmp(argv[i], "--timeline") && i + 1 < argc) timeline = argv[++i];
        else {
            if (rank == 0)
                fprintf(stderr, "usage: mpirun -np P %s [-n LIST] [--nb LIST] [--grid PxQ] "
                                "[--uplo L|U] [--prec d|s] [--single 0|1] [--transport auto|mpi|nccl] "
                                "[--source auto|host|gen] [--niter K] [--csv FILE] [--timeline PREFIX]\n", argv[0]);
            MPI_Finalize();
            return 2;
        }
    }
    if (strcmp(source, "auto") && strcmp(source, "host") && strcmp(source, "gen")) {
        if (rank == 0) fprintf(stderr, "%s: --source auto, host or gen\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    if (prec != 'd' && prec != 's') {
        if (rank == 0) fprintf(stderr, "%s: --prec d or s\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    const int single = prec == 's';
    const size_t es = single ? sizeof(float) : sizeof(double);
    if (p <= 0 || q <= 0) {
        for (p = 1; (p + 1) * (p + 1) <= size; ++p) {}
        while (size % p) --p;
        q = size / p;
    }
    int64_t *ns = NULL, *nbs = NULL, nn = 0, nnb = 0;
    testing_parse_list(nlist, 0, &ns, &nn);
    testing_parse_list(nblist, 0, &nbs, &nnb);
    /* each rank on its node's GPU of its node-local rank */
    BENCH_GCHOL(gchol_mp_use_local_gpu(NULL));
    gchol_mp_grid_t grid = NULL;
    BENCH_GCHOL(gchol_mp_grid_create(MPI_COMM_WORLD, p, q, 'R', &grid));
    FILE *out = rank == 0 && csv ? fopen(csv, "w") : NULL;
    if (out) fprintf(out, "prec,n,nb,p,q,uplo,mp_s,tflops,tflops_per_gpu,single_s,ratio,info,"
                          "cusolvermp_s,cusolvermp_info,gemm_tflops,resid,source,gemm_sustained_tflops\n");
    double gemm_tflops = NAN, gemm_sustained = NAN;
    int failed = 0; /* rank 0's count of factors that failed their check */
    if (!grid) { /* ranks beyond p x q */
        MPI_Finalize();
        return 0;
    }
    int64_t nprow, npcol, myrow, mycol;
    gchol_mp_grid_info(grid, &nprow, &npcol, &myrow, &mycol);
    /* NCCL where it can run (auto), or as asked; MPI stays otherwise */
    int64_t tst = 0;
    if (strcmp(transport, "mpi") != 0)
        tst = gchol_mp_grid_set_transport(grid, GCHOL_MP_TRANSPORT_NCCL);
    if (tst != 0 && !strcmp(transport, "nccl")) {
        if (rank == 0) fprintf(stderr, "%s: the NCCL transport: %lld\n", argv[0], (long long)tst);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const int on_nccl = strcmp(transport, "mpi") != 0 && tst == 0;
    int dev = 0;
    struct cudaDeviceProp prop;
    BENCH_CUDA(cudaGetDevice(&dev));
    BENCH_CUDA(cudaGetDeviceProperties(&prop, dev));
    mp_peer_t peer;
    peer_open(&peer, rank, size, dev, p, q);
    if (rank == 0) {
        printf("# gchol_mp_%cpotrf, %lld ranks as a %lldx%lld grid, uplo %c, %s; median of %lld\n",
               prec, (long long)size, (long long)p, (long long)q, uplo, prop.name, (long long)niter);
        printf("# transport: %s; source %s: a row marked host kept a rank's pristine part in host "
               "memory (two do not fit on its GPU), gen regenerated it before each run\n",
               on_nccl ? "NCCL" : "MPI", source);
        printf("# ratio: on one rank gchol_dpotrf_gpu's time over the distributed one's; on several,"
               " TFLOP/s per GPU over one GPU's\n");
        /* the per-GPU ceiling in the same run: cuBLAS ?gemm on rank 0's GPU */
        gemm_tflops = bench_gemm_tflops(prec, 16384, 3, 0);
        gemm_sustained = bench_gemm_sustained_tflops(prec, 16384, 3.0, 0);
        printf("# ceiling: cuBLAS %cgemm n=16384 on rank 0's GPU: %.2f TFLOP/s, back to back "
               "for 3 s: %.2f TFLOP/s\n", prec, gemm_tflops, gemm_sustained);
        printf("# resid: ||b - A x||_inf / (||A||_inf ||x||_inf n eps), x from gchol_mp_%cpotrs "
               "with the timed factor; ok at most %.0f\n", prec, RESID_THRESHOLD);
        printf("%7s %5s %5s | %10s %8s %8s | %10s %7s | %10s %7s | %9s | info\n", "n", "nb",
               "grid", "mp ms", "TFLOP/s", "per GPU", "1-GPU ms", "ratio", "cuSMp ms", "ratio",
               "resid");
    }
    for (int64_t a = 0; a < nn; ++a)
        for (int64_t b = 0; b < nnb; ++b) {
            const int64_t n = ns[a], nb = nbs[b];
            fill_t f = { NULL, single, n, nb, 0, nprow, npcol, myrow, mycol,
                         gchol_mp_numroc(n, nb, myrow, 0, nprow), gchol_mp_numroc(n, nb, mycol, 0, npcol),
                         42, NULL, 0 };
            f.lld = f.locr > 1 ? f.locr : 1;
            f.colsum = bench_malloc((size_t)(f.locc > 0 ? f.locc : 1) * sizeof(double));
            const size_t bytes = (size_t)(f.lld * (f.locc > 1 ? f.locc : 1)) * es;
            source_t src;
            source_open(&src, &f, source, bytes, rank);
            const double anorm = matrix_norm_inf(&f);
            int mode_any = src.mode; /* the row names the farthest source of any rank */
            MPI_Allreduce(&src.mode, &mode_any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            void *dA = NULL;
            BENCH_CUDA(cudaMalloc(&dA, bytes));
            gchol_mp_desc_t desc;
            BENCH_GCHOL(gchol_mp_desc_init(&desc, n, n, nb, nb, 0, 0, grid, f.lld));
            double *t = malloc((size_t)(niter + 1) * sizeof(double));
            int64_t info = 0;
            for (int64_t it = 0; it <= niter; ++it) {
                fresh(&src, dA);
                MPI_Barrier(MPI_COMM_WORLD);
                const double t0 = MPI_Wtime();
                if (single) BENCH_GCHOL(gchol_mp_spotrf(uplo, n, dA, 1, 1, &desc, &info, grid));
                else BENCH_GCHOL(gchol_mp_dpotrf(uplo, n, dA, 1, 1, &desc, &info, grid));
                MPI_Barrier(MPI_COMM_WORLD);
                double dt = MPI_Wtime() - t0, worst = dt;
                MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                if (it > 0) t[it - 1] = worst;
            }
            qsort(t, (size_t)niter, sizeof(double), cmp_double);
            const double tmp = t[niter / 2], flops = (double)n * n * n / 3.0;
            int64_t solve_info = 0;
            const double resid = solve_residual(&f, uplo, grid, &desc, dA, &src, anorm, &solve_info);
            if (timeline)
                traced_run(timeline, prec, uplo, n, nb, p, q, rank, size, grid, &src, dA, &desc);
            BENCH_CUDA(cudaFree(dA)); /* the peer's own working copy in its place */
            int64_t peer_info = 0;
            const double tpeer = peer.ok ? peer_time(&peer, single, uplo, n, nb, f.lld, &src, niter,
                                                     t, &peer_info)
                                         : NAN;
            source_close(&src, &f);
            free(f.colsum);
            /* rank 0 alone: the whole matrix on its GPU, when it fits (its
             * pristine copy in host memory where two do not) */
            double single_t = NAN;
            if (rank == 0) {
                const size_t whole = (size_t)n * (size_t)n * es;
                const int dev2 = fits(2, whole, (size_t)1 << 30), dev1 = fits(1, whole, (size_t)2 << 30);
                void *h = with_single && (dev2 || dev1) ? malloc(whole) : NULL;
                if (h) {
                    void *d = NULL;
                    testing_generate_spd(prec, 'A', n, h, n, 42);
                    source_t one = { .mode = SOURCE_HOST, .host = h, .bytes = whole };
                    int one_pinned = 0;
                    if (dev2) {
                        BENCH_CUDA(cudaMalloc(&one.dev, whole));
                        BENCH_CUDA(cudaMemcpy(one.dev, h, whole, cudaMemcpyHostToDevice));
                        free(h);
                        one.host = NULL;
                    } else {
                        one_pinned = pin(h, whole);
                    }
                    BENCH_CUDA(cudaMalloc(&d, whole));
                    gchol_queue_t qu = NULL;
                    BENCH_GCHOL(gchol_queue_create(dev, &qu));
                    cudaEvent_t e0, e1;
                    BENCH_CUDA(cudaEventCreate(&e0));
                    BENCH_CUDA(cudaEventCreate(&e1));
                    for (int64_t it = 0; it <= niter; ++it) {
                        fresh(&one, d);
                        int64_t sinfo = 0;
                        BENCH_CUDA(cudaEventRecord(e0, gchol_queue_stream(qu)));
                        if (single) BENCH_GCHOL(gchol_spotrf_gpu(uplo, n, d, n, &sinfo, qu));
                        else BENCH_GCHOL(gchol_dpotrf_gpu(uplo, n, d, n, &sinfo, qu));
                        BENCH_CUDA(cudaEventRecord(e1, gchol_queue_stream(qu)));
                        BENCH_CUDA(cudaEventSynchronize(e1));
                        float ms = 0;
                        BENCH_CUDA(cudaEventElapsedTime(&ms, e0, e1));
                        if (it > 0) t[it - 1] = ms * 1e-3;
                    }
                    qsort(t, (size_t)niter, sizeof(double), cmp_double);
                    single_t = t[niter / 2];
                    BENCH_CUDA(cudaEventDestroy(e0));
                    BENCH_CUDA(cudaEventDestroy(e1));
                    BENCH_GCHOL(gchol_queue_destroy(qu));
                    BENCH_CUDA(cudaFree(d));
                    if (one.dev) BENCH_CUDA(cudaFree(one.dev));
                    if (one_pinned) BENCH_CUDA(cudaHostUnregister(one.host));
                    free(one.host);
                }
                const double gpus = (double)(p * q);
                const double ratio = gpus == 1 ? single_t / tmp
                                               : (flops / tmp / gpus) / (flops / single_t);
                const int ok = info == 0 && solve_info == 0 && resid <= RESID_THRESHOLD;
                failed += !ok;
                printf("%7lld %5lld %2lldx%-2lld | %10.3f %8.2f %8.2f | %10.3f %7.3f | %10.3f %7.3f | "
                       "%9.2e | %lld %s%s%s\n",
                       (long long)n, (long long)nb, (long long)p, (long long)q, tmp * 1e3,
                       flops / tmp * 1e-12, flops / tmp / gpus * 1e-12, single_t * 1e3, ratio,
                       tpeer * 1e3, tpeer / tmp, resid, (long long)info, ok ? "ok" : "FAILED",
                       mode_any != SOURCE_DEVICE ? "  " : "",
                       mode_any != SOURCE_DEVICE ? source_name[mode_any] : "");
                fflush(stdout);
                if (out)
                    fprintf(out, "%c,%lld,%lld,%lld,%lld,%c,%.6e,%.4f,%.4f,%.6e,%.4f,%lld,%.6e,%lld,"
                                 "%.4f,%.3e,%s,%.4f\n",
                            prec, (long long)n, (long long)nb, (long long)p, (long long)q, uplo, tmp,
                            flops / tmp * 1e-12, flops / tmp / gpus * 1e-12, single_t, ratio,
                            (long long)info, tpeer, (long long)peer_info, gemm_tflops, resid,
                            source_name[mode_any], gemm_sustained);
            }
            MPI_Barrier(MPI_COMM_WORLD);
            free(t);
        }
    if (out) fclose(out);
    peer_close(&peer);
    gchol_mp_grid_destroy(grid);
    free(ns);
    free(nbs);
    MPI_Finalize();
    return failed ? 1 : 0; /* mpirun passes rank 0's status on */
}
