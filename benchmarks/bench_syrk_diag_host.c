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
 *
 * Each row: median of R runs after a warm-up, CUDA events or wall clock
 * around the synchronous calls; the same random A (uniform(-1,1)) and d
 * (uniform(0.5,2)) for every contender. Lower triangle, alpha = 1, beta = 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

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
    int runs = 3, wls_only = 0; /* --wls-only: the least-squares rows alone */
    const char *shapes = "1024x65536,4096x65536,8192x32768,16384x16384";
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--prec") && i + 1 < argc) prec = argv[++i][0];
        else if (!strcmp(argv[i], "--shapes") && i + 1 < argc) shapes = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--wls-only")) wls_only = 1;
        else {
            fprintf(stderr, "usage: %s [--prec d|s] [--shapes MxN,...] [--runs R] [--wls-only]\n",
                    argv[0]);
            return 1;
        }
    }
    if (runs < 1 || runs > 50 || (prec != 'd' && prec != 's')) return 1;
    bench_require_gpu(0, argv[0]);
    const size_t es = bench_elsize(prec);
    printf("%s A*D^2*A^T with A in host memory; median of %d; ms (TFLOP/s of m(m+1)n flops)\n",
           bench_prec_name(prec), runs);
    printf("(the last column: the contender's time over the larger of the device form alone and "
           "the pinned copy of A)\n");
    for (const char *p = shapes; p && *p;) {
        long long m = 0, n = 0;
        if (sscanf(p, "%lldx%lld", &m, &n) != 2 || m < 1 || n < 1) return 1;
        p = strchr(p, ',');
        if (p) ++p;
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
                const double t0 = bench_wtime();
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
                case DEVICE_BLOCKS: { /* the library's blocks (syrk_diag_host.c): kc/8,
                                         doubling to kc = max(m/2, 4096) columns, at most
                                         1 GiB (or GCHOL_HOST_CHUNK_BYTES) */
                    const char *env = getenv("GCHOL_HOST_CHUNK_BYTES");
                    const long long mes = (long long)m * (long long)es;
                    int64_t kc = m / 2 > 4096 ? m / 2 : 4096, k = 0;
                    if (kc > (1ll << 30) / mes) kc = (1ll << 30) / mes;
                    if (env && atoll(env) > 0) kc = atoll(env) / mes;
                    if (kc < 1) kc = 1;
                    for (int64_t j = 0; j < n; j += k) {
                        k = j ? (2 * k < kc ? 2 * k : kc) : (kc + 7) / 8;
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
                if (r >= 0) t[c][r] = bench_wtime() - t0;
            }
        }
        const double flops = (double)m * (m + 1) * n;
        double med[NCONT];
        const int c_first = wls_only ? WLS_HOST : 0;
        for (int c = c_first; c < NCONT; ++c) med[c] = median(t[c], runs);
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
    return 0;
}
