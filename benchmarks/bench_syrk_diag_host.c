/*
 * bench_syrk_diag_host.c -- the host-memory A*D^2*A^T, gchol_dsyrk_diag /
 * gchol_ssyrk_diag (A streamed through the GPU in blocks of columns), against
 * what the caller would otherwise write: A and d copied up with cudaMemcpy,
 * then the device form, then C copied back (the whole m x m array). Also,
 * in the same process, the parts alone: the device form with A already on the
 * device (the compute, whole and in the host form's blocks), and the copy of
 * A up (pinned and pageable), which bound the streamed form from below by
 * the larger of the two. Also the weighted least squares built on it,
 * gchol_?wls (host, A streamed) against gchol_?wls_gpu, one right-hand side.
 *
 *   bench_syrk_diag_host [--prec d|s] [--shapes m x n,...] [--runs R] [--wls-only]
 *                        [--chunk-bytes B]
 * --chunk-bytes sets the host form's largest block (through the library's
 * test hooks, src/test_hooks.h): tools/retune.sh's host-blocks sweep.
 *
 * Each row: median of R runs after a warm-up, CUDA events or wall clock
 * around the synchronous calls; the same random A (uniform(-1,1)) and d
 * (uniform(0.5,2)) for every contender. Lower triangle, alpha = 1, beta = 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "test_hooks.h"
#include "tune/tune.h" /* the host form's blocks: the tuning table's */

typedef enum { HOST_PAGEABLE, HOST_PINNED, HOST_PINNED_C, COPY_THEN_DEVICE, DEVICE_ONLY,
               DEVICE_BLOCKS, COPY_PINNED, COPY_PAGEABLE, WLS_HOST, WLS_DEVICE, NCONT } contender_t;
static const char *const kName[NCONT] = {
    "gchol host form, A and C pageable", "gchol host form, A pinned", "gchol host form, A and C pinned",
    "cudaMemcpy A, d up + device form + C down", "device form alone (A on the device)",
    "device form in the host form's blocks", "copy of A up, pinned", "copy of A up, pageable",
    "gchol_?wls host, A and C pinned, nrhs 1", "gchol_?wls_gpu (A, b on the device)" };

int main(int argc, char **argv)
{
    char prec = 'd';
    int runs = 3, wls_only = 0;
    int64_t chunk_bytes = 0;
    const char *shapes = "1024x65536,4096x65536,8192x32768,16384x16384";
    const opt_t opts[] = {
        OPT("--prec", OPT_CHAR, &prec, "d|s", "precision (default d)", .choices = "ds"),
        OPT("--shapes", OPT_STRING, &shapes, "MxN,...", "shapes of A (default 1024x65536,"
            "4096x65536,8192x32768,16384x16384)"),
        OPT("--runs", OPT_INT, &runs, "R", "timed runs after a warm-up, median reported "
            "(default 3, at most 50)", OPT_MIN(1)),
        OPT("--wls-only", OPT_FLAG, &wls_only, NULL, "the least-squares rows alone"),
        OPT("--chunk-bytes", OPT_INT64, &chunk_bytes, "B", "the host form's largest block of A, "
            "in bytes (default 0:\nthe tuning table's)", OPT_MIN(0)),
        OPT_END
    };
    const opts_program_t prog = { "[--prec d|s] [--shapes MxN,...] [--runs R] [--wls-only] "
                                  "[--chunk-bytes B]", NULL, EXIT_FAILURE };
    opts_parse(argc, argv, opts, &prog);
    if (runs > 50) opts_fail(argv[0], opts, &prog, "--runs: at most 50");
    int64_t *ms = NULL, *ns = NULL;
    const int64_t nshapes = testing_parse_shapes(shapes, &ms, &ns);
    if (nshapes <= 0) opts_fail(argv[0], opts, &prog, "bad --shapes %s", shapes);
    if (chunk_bytes > 0) {
        const gchol_test_hooks_t hooks = { .host_chunk_bytes = chunk_bytes };
        gchol_test_hooks_set(&hooks);
    }
    bench_require_gpu(0, argv[0]);
    const size_t es = testing_elsize(prec);
    printf("%s A*D^2*A^T with A in host memory; median of %d; ms (TFLOP/s of m(m+1)n flops)\n",
           testing_prec_name(prec), runs);
    printf("(the last column: the contender's time over the larger of the device form alone and "
           "the pinned copy of A)\n");
    const gchol_tune_t *tune = gchol_tune_for_device(0);
    for (int64_t sh = 0; sh < nshapes; ++sh) {
        const long long m = ms[sh], n = ns[sh];
        const size_t abytes = (size_t)m * n * es, cbytes = (size_t)m * m * es;
        void *A = bench_random_host(prec, m, n, m, 11, -1, 1);
        void *d = bench_random_host(prec, n, 1, n, 12, 0.5, 2);
        void *C = bench_malloc(cbytes), *Ap = NULL, *Cp = NULL, *dA = NULL, *dd = NULL, *dC = NULL;
        BENCH_CUDA(cudaMallocHost(&Ap, abytes));
        BENCH_CUDA(cudaMallocHost(&Cp, cbytes));
        memcpy(Ap, A, abytes);
        BENCH_CUDA(cudaMalloc(&dA, abytes));
        BENCH_CUDA(cudaMalloc(&dd, (size_t)n * es));
        BENCH_CUDA(cudaMalloc(&dC, cbytes));
        void *y = bench_malloc((size_t)m * es), *dy = NULL;
        BENCH_CUDA(cudaMalloc(&dy, (size_t)m * es));
        /* the device contenders' A and d (the copying contender uploads them again) */
        BENCH_CUDA(cudaMemcpy(dA, A, abytes, cudaMemcpyHostToDevice));
        BENCH_CUDA(cudaMemcpy(dd, d, (size_t)n * es, cudaMemcpyHostToDevice));
        gchol_queue_t q = NULL;
        BENCH_GCHOL(gchol_queue_create(0, &q));
        cudaStream_t s = gchol_queue_stream(q);
        double t[NCONT][50];
        for (int r = -1; r < runs; ++r) { /* r = -1: warm-up */
            for (int c = wls_only ? WLS_HOST : 0; c < NCONT; ++c) {
                const double t0 = testing_wtime();
                switch (c) {
                case HOST_PAGEABLE:
                case HOST_PINNED:
                case HOST_PINNED_C: {
                    const void *Ause = c == HOST_PAGEABLE ? A : Ap;
                    void *Cuse = c == HOST_PINNED_C ? Cp : C;
                    int64_t st = prec == 'd'
                        ? gchol_dsyrk_diag('L', m, n, 1.0, Ause, m, d, 0.0, Cuse, m)
                        : gchol_ssyrk_diag('L', m, n, 1.0f, Ause, m, d, 0.0f, Cuse, m);
                    BENCH_GCHOL(st);
                    break;
                }
                case DEVICE_BLOCKS: { /* the host form's blocks (host_stream.c): the first
                                         1 / host_first_block_frac of the largest, doubling
                                         to max(m / 2, host_block_min_cols) columns, at
                                         most host_block_max_bytes (or --chunk-bytes) */
                    const long long mes = (long long)m * (long long)es;
                    int64_t kc = m / 2 > tune->host_block_min_cols ? m / 2
                                                                   : tune->host_block_min_cols, k = 0;
                    if (kc > tune->host_block_max_bytes / mes) kc = tune->host_block_max_bytes / mes;
                    if (chunk_bytes > 0) kc = chunk_bytes / mes;
                    if (kc < 1) kc = 1;
                    const int64_t frac = tune->host_first_block_frac > 1 ? tune->host_first_block_frac : 1;
                    for (int64_t j = 0; j < n; j += k) {
                        k = j ? (2 * k < kc ? 2 * k : kc) : (kc + frac - 1) / frac;
                        if (k > n - j) k = n - j;
                        const char *Aj = (const char *)dA + (size_t)j * m * es;
                        const char *dj = (const char *)dd + (size_t)j * es;
                        int64_t st = prec == 'd'
                            ? gchol_dsyrk_diag_gpu('L', m, k, 1.0, (const double *)Aj, m,
                                                   (const double *)dj, j ? 1.0 : 0.0, dC, m, q)
                            : gchol_ssyrk_diag_gpu('L', m, k, 1.0f, (const float *)Aj, m,
                                                   (const float *)dj, j ? 1.0f : 0.0f, dC, m, q);
                        BENCH_GCHOL(st);
                    }
                    BENCH_CUDA(cudaStreamSynchronize(s));
                    break;
                }
                case COPY_THEN_DEVICE:
                    BENCH_CUDA(cudaMemcpy(dA, A, abytes, cudaMemcpyHostToDevice));
                    BENCH_CUDA(cudaMemcpy(dd, d, (size_t)n * es, cudaMemcpyHostToDevice));
                    /* fall through */
                case DEVICE_ONLY: {
                    int64_t st = prec == 'd'
                        ? gchol_dsyrk_diag_gpu('L', m, n, 1.0, dA, m, dd, 0.0, dC, m, q)
                        : gchol_ssyrk_diag_gpu('L', m, n, 1.0f, dA, m, dd, 0.0f, dC, m, q);
                    BENCH_GCHOL(st);
                    BENCH_CUDA(cudaStreamSynchronize(s));
                    if (c == COPY_THEN_DEVICE)
                        BENCH_CUDA(cudaMemcpy(C, dC, cbytes, cudaMemcpyDeviceToHost));
                    break;
                }
                case WLS_HOST:
                case WLS_DEVICE: { /* y = (A D^2 A^T)^{-1} A D^2 b, b = d: C formed, factored, solved */
                    int64_t info = 0, st;
                    if (c == WLS_HOST)
                        st = prec == 'd'
                            ? gchol_dwls('L', m, n, 1, Ap, m, d, d, n, Cp, m, y, m, &info)
                            : gchol_swls('L', m, n, 1, Ap, m, d, d, n, Cp, m, y, m, &info);
                    else
                        st = prec == 'd'
                            ? gchol_dwls_gpu('L', m, n, 1, dA, m, dd, dd, n, dC, m, dy, m, &info, q)
                            : gchol_swls_gpu('L', m, n, 1, dA, m, dd, dd, n, dC, m, dy, m, &info, q);
                    BENCH_GCHOL(st);
                    break;
                }
                case COPY_PINNED:
                    BENCH_CUDA(cudaMemcpy(dA, Ap, abytes, cudaMemcpyHostToDevice));
                    break;
                case COPY_PAGEABLE:
                    BENCH_CUDA(cudaMemcpy(dA, A, abytes, cudaMemcpyHostToDevice));
                    break;
                }
                if (r >= 0) t[c][r] = testing_wtime() - t0;
            }
        }
        const double flops = (double)m * (m + 1) * n;
        double med[NCONT];
        const int c_first = wls_only ? WLS_HOST : 0;
        for (int c = c_first; c < NCONT; ++c) med[c] = testing_median(t[c], runs);
        const double bound = wls_only ? med[WLS_DEVICE]
                           : med[DEVICE_ONLY] > med[COPY_PINNED] ? med[DEVICE_ONLY] : med[COPY_PINNED];
        printf("m x n = %lld x %lld (A: %.2f GB)%s\n", m, n, abytes / 1e9,
               wls_only ? " (last column: over gchol_?wls_gpu)" : "");
        for (int c = c_first; c < NCONT; ++c) {
            if (c == COPY_PINNED || c == COPY_PAGEABLE)
                printf("  %-44s %9.2f ms  %6.1f GB/s    %5.2f\n", kName[c], 1e3 * med[c],
                       abytes / med[c] / 1e9, med[c] / bound);
            else
                printf("  %-44s %9.2f ms  %6.1f TFLOP/s %5.2f\n", kName[c], 1e3 * med[c],
                       flops / med[c] / 1e12, med[c] / bound);
        }
        fflush(stdout);
        gchol_queue_destroy(q);
        cudaFree(dA); cudaFree(dd); cudaFree(dC); cudaFree(dy); cudaFreeHost(Ap); cudaFreeHost(Cp);
        free(y);
        free(A); free(d); free(C);
    }
    free(ms);
    free(ns);
    return 0;
}
