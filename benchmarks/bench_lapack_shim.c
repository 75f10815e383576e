/*
 * bench_lapack_shim.c -- where the LAPACK shim should send a call: ?potrf_
 * and ?potrs_ on host (pageable) arrays through libgchol_lapack.so, in mode
 * 'cpu' (the CPU LAPACK behind it: OpenBLAS on all cores) and mode 'gpu'
 * (gchol's host forms, transfers included), and the same work as a user
 * would offload it to cuSOLVER by hand (cudaMemcpy2D of the array up,
 * cusolverDnXpotrf / Xpotrs, the array down), all in one process on the same
 * matrix. Wall-clock seconds of whole calls, median of --runs after a
 * warm-up, each from a fresh copy of the input.
 *
 *   bench_lapack_shim [--prec d|s] [--n list] [--nrhs list] [--solve-n list]
 *                     [--posv-n list] [--runs r] [--csv file]
 * (?posv_ too: OpenBLAS's, the shim's one trip, cuSOLVER potrf + potrs by hand.)
 * Prints a table; ratio columns are OpenBLAS time / GPU time (> 1: the GPU
 * pays) and cuSOLVER-by-hand time / shim GPU time.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>
#include <lapack.h>

#include "bench_common.h"
#include "gchol_lapack.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int r)
{
    qsort(v, (size_t)r, sizeof *v, cmp_double);
    return v[r / 2];
}

static int parse_list(const char *s, int *v, int max)
{
    int k = 0;
    while (s && *s && k < max) {
        v[k++] = atoi(s);
        s = strchr(s, ',');
        if (s) ++s;
    }
    return k;
}

typedef struct {
    char prec;
    cusolverDnHandle_t h;
    cusolverDnParams_t params;
    cudaStream_t stream;
} peer_t;

/* The hand-written offload: A up, Xpotrf (+ Xpotrs: B up, solve, B down), A down. */
static int peer_call(peer_t *p, int n, int nrhs, void *A, int lda, void *B, int ldb, void *dA,
                     void *dB, void *dwork, size_t dwork_bytes, void *hwork, size_t hwork_bytes,
                     int *dinfo)
{
    const size_t es = bench_elsize(p->prec);
    const cudaDataType t = bench_cuda_type(p->prec);
    BENCH_CUDA(cudaMemcpy2D(dA, (size_t)n * es, A, (size_t)lda * es, (size_t)n * es, n,
                            cudaMemcpyHostToDevice));
    if (nrhs == 0) {
        BENCH_CUSOLVER(cusolverDnXpotrf(p->h, p->params, CUBLAS_FILL_MODE_LOWER, n, t, dA, n, t,
                                        dwork, dwork_bytes, hwork, hwork_bytes, dinfo));
        BENCH_CUDA(cudaMemcpy2D(A, (size_t)lda * es, dA, (size_t)n * es, (size_t)n * es, n,
                                cudaMemcpyDeviceToHost));
    } else {
        BENCH_CUDA(cudaMemcpy2D(dB, (size_t)n * es, B, (size_t)ldb * es, (size_t)n * es, nrhs,
                                cudaMemcpyHostToDevice));
        BENCH_CUSOLVER(cusolverDnXpotrs(p->h, p->params, CUBLAS_FILL_MODE_LOWER, n, nrhs, t, dA,
                                        n, t, dB, n, dinfo));
        BENCH_CUDA(cudaMemcpy2D(B, (size_t)ldb * es, dB, (size_t)n * es, (size_t)n * es, nrhs,
                                cudaMemcpyDeviceToHost));
    }
    int info = 0;
    BENCH_CUDA(cudaMemcpy(&info, dinfo, sizeof info, cudaMemcpyDeviceToHost));
    return info;
}

/* The hand-written offload of posv: A and B up, Xpotrf, Xpotrs, A and B down. */
static int peer_posv(peer_t *p, int n, int nrhs, void *A, int lda, void *B, int ldb, void *dA,
                     void *dB, void *dwork, size_t dwork_bytes, void *hwork, size_t hwork_bytes,
                     int *dinfo)
{
    const size_t es = bench_elsize(p->prec);
    const cudaDataType t = bench_cuda_type(p->prec);
    BENCH_CUDA(cudaMemcpy2D(dA, (size_t)n * es, A, (size_t)lda * es, (size_t)n * es, n,
                            cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy2D(dB, (size_t)n * es, B, (size_t)ldb * es, (size_t)n * es, nrhs,
                            cudaMemcpyHostToDevice));
    BENCH_CUSOLVER(cusolverDnXpotrf(p->h, p->params, CUBLAS_FILL_MODE_LOWER, n, t, dA, n, t,
                                    dwork, dwork_bytes, hwork, hwork_bytes, dinfo));
    BENCH_CUSOLVER(cusolverDnXpotrs(p->h, p->params, CUBLAS_FILL_MODE_LOWER, n, nrhs, t, dA, n,
                                    t, dB, n, dinfo));
    BENCH_CUDA(cudaMemcpy2D(A, (size_t)lda * es, dA, (size_t)n * es, (size_t)n * es, n,
                            cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy2D(B, (size_t)ldb * es, dB, (size_t)n * es, (size_t)n * es, nrhs,
                            cudaMemcpyDeviceToHost));
    int info = 0;
    BENCH_CUDA(cudaMemcpy(&info, dinfo, sizeof info, cudaMemcpyDeviceToHost));
    return info;
}

static void shim_posv(char prec, int n, int nrhs, void *A, int lda, void *B, int ldb, int *info)
{
    if (prec == 'd') LAPACK_dposv("L", &n, &nrhs, A, &lda, B, &ldb, info);
    else LAPACK_sposv("L", &n, &nrhs, A, &lda, B, &ldb, info);
}

static void shim_potrf(char prec, int n, void *A, int lda, int *info)
{
    if (prec == 'd') LAPACK_dpotrf("L", &n, A, &lda, info);
    else LAPACK_spotrf("L", &n, A, &lda, info);
}
static void shim_potrs(char prec, int n, int nrhs, const void *A, int lda, void *B, int ldb,
                       int *info)
{
    if (prec == 'd') LAPACK_dpotrs("L", &n, &nrhs, A, &lda, B, &ldb, info);
    else LAPACK_spotrs("L", &n, &nrhs, A, &lda, B, &ldb, info);
}

int main(int argc, char **argv)
{
    char prec = 'd';
    int ns[64], nn = 0, nrhss[16], nnrhs = 0, sns[16], nsn = 0, pns[16], npn = 0, runs = 5;
    const char *csv_path = NULL;
    nn = parse_list("128,256,384,512,768,1024,1536,2048,3072,4096,8192,16384", ns, 64);
    nnrhs = parse_list("1,16,64,256", nrhss, 16);
    nsn = parse_list("1024,4096,8192", sns, 16);
    npn = parse_list("256,1024,4096,8192", pns, 16);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--prec")) prec = argv[i + 1][0];
        else if (!strcmp(argv[i], "--n")) nn = parse_list(argv[i + 1], ns, 64);
        else if (!strcmp(argv[i], "--nrhs")) nnrhs = parse_list(argv[i + 1], nrhss, 16);
        else if (!strcmp(argv[i], "--solve-n")) nsn = parse_list(argv[i + 1], sns, 16);
        else if (!strcmp(argv[i], "--posv-n")) npn = parse_list(argv[i + 1], pns, 16);
        else if (!strcmp(argv[i], "--runs")) runs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--csv")) csv_path = argv[i + 1];
        else { fprintf(stderr, "unknown option %s\n", argv[i]); return 2; }
    }
    if (runs < 1 || runs > 64 || (prec != 'd' && prec != 's')) return 2;
    bench_require_gpu(0, argv[0]);
    FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
    if (csv) fprintf(csv, "routine,precision,n,nrhs,openblas_s,shim_gpu_s,cusolver_by_hand_s,"
                          "openblas_over_gpu,cusolver_over_gpu\n");
    printf("OpenBLAS core %s, %d threads; %s, median of %d after a warm-up, seconds of whole "
           "calls on pageable host arrays\n", openblas_get_corename(), openblas_get_num_threads(),
           bench_prec_name(prec), runs);

    peer_t peer = { .prec = prec };
    BENCH_CUSOLVER(cusolverDnCreate(&peer.h));
    BENCH_CUSOLVER(cusolverDnCreateParams(&peer.params));
    const size_t es = bench_elsize(prec);
    const cudaDataType t = bench_cuda_type(prec);
    double tc[64], tg[64], tp[64];

    printf("\n%cpotrf_ 'L'\n%7s %12s %12s %12s %10s %10s\n", prec, "n", "OpenBLAS", "shim gpu",
           "cuSOLVER+cp", "cpu/gpu", "cusol/gpu");
    for (int k = 0; k < nn; ++k) {
        const int n = ns[k], lda = n;
        void *A0 = bench_spd_host(prec, n, lda, 11 + n), *A = bench_malloc((size_t)lda * n * es);
        void *dA = bench_device_malloc((size_t)n * n * es), *hwork = NULL, *dwork = NULL;
        int *dinfo = bench_device_malloc(sizeof(int));
        size_t dwb = 0, hwb = 0;
        BENCH_CUSOLVER(cusolverDnXpotrf_bufferSize(peer.h, peer.params, CUBLAS_FILL_MODE_LOWER, n,
                                                   t, dA, n, t, &dwb, &hwb));
        dwork = bench_device_malloc(dwb ? dwb : 1);
        hwork = bench_malloc(hwb ? hwb : 1);
        int info = 0;
        for (int r = -1; r < runs; ++r) { /* r = -1: warm-up */
            double t0;
            bench_host_copy(prec, n, n, A0, lda, A, lda);
            gchol_lapack_route(GCHOL_LAPACK_CPU, -1, -1);
            t0 = now(); shim_potrf(prec, n, A, lda, &info); if (r >= 0) tc[r] = now() - t0;
            if (info) { fprintf(stderr, "cpu info %d\n", info); return 1; }
            bench_host_copy(prec, n, n, A0, lda, A, lda);
            gchol_lapack_route(GCHOL_LAPACK_GPU, -1, -1);
            t0 = now(); shim_potrf(prec, n, A, lda, &info); if (r >= 0) tg[r] = now() - t0;
            if (r < 0 && k == 0) /* the process's first GPU call */
                printf("first GPU call (the shim's queue, buffers and cuBLAS handles; the CUDA context exists already; n = %d): "
                       "%.3f s\n", n, now() - t0);
            if (info || gchol_lapack_last_path() != GCHOL_LAPACK_RAN_GPU) {
                fprintf(stderr, "gpu info %d path %c\n", info, gchol_lapack_last_path());
                return 1;
            }
            bench_host_copy(prec, n, n, A0, lda, A, lda);
            t0 = now();
            info = peer_call(&peer, n, 0, A, lda, NULL, 0, dA, NULL, dwork, dwb, hwork, hwb, dinfo);
            if (r >= 0) tp[r] = now() - t0;
            if (info) { fprintf(stderr, "cusolver info %d\n", info); return 1; }
        }
        const double c = median(tc, runs), g = median(tg, runs), p = median(tp, runs);
        printf("%7d %12.6f %12.6f %12.6f %10.2f %10.2f\n", n, c, g, p, c / g, p / g);
        if (csv) fprintf(csv, "potrf,%c,%d,0,%.6e,%.6e,%.6e,%.4f,%.4f\n", prec, n, c, g, p, c / g, p / g);
        free(A0); free(A); free(hwork);
        BENCH_CUDA(cudaFree(dA)); BENCH_CUDA(cudaFree(dwork)); BENCH_CUDA(cudaFree(dinfo));
    }

    printf("\n%cpotrs_ 'L' (the factor from the CPU)\n%7s %5s %12s %12s %12s %10s %10s\n", prec,
           "n", "nrhs", "OpenBLAS", "shim gpu", "cuSOLVER+cp", "cpu/gpu", "cusol/gpu");
    for (int k = 0; k < nsn; ++k) {
        const int n = sns[k], lda = n, ldb = n;
        void *A = bench_spd_host(prec, n, lda, 21 + n);
        int info = 0;
        gchol_lapack_route(GCHOL_LAPACK_CPU, -1, -1);
        shim_potrf(prec, n, A, lda, &info);
        for (int q = 0; q < nnrhs; ++q) {
            const int nrhs = nrhss[q];
            void *B0 = bench_random_host(prec, n, nrhs, ldb, 31 + nrhs, -1, 1);
            void *B = bench_malloc((size_t)ldb * nrhs * es);
            void *dA = bench_device_malloc((size_t)n * n * es), *dB = bench_device_malloc((size_t)n * nrhs * es);
            int *dinfo = bench_device_malloc(sizeof(int));
            for (int r = -1; r < runs; ++r) {
                double t0;
                bench_host_copy(prec, n, nrhs, B0, ldb, B, ldb);
                gchol_lapack_route(GCHOL_LAPACK_CPU, -1, -1);
                t0 = now(); shim_potrs(prec, n, nrhs, A, lda, B, ldb, &info); if (r >= 0) tc[r] = now() - t0;
                bench_host_copy(prec, n, nrhs, B0, ldb, B, ldb);
                gchol_lapack_route(GCHOL_LAPACK_GPU, -1, -1);
                t0 = now(); shim_potrs(prec, n, nrhs, A, lda, B, ldb, &info); if (r >= 0) tg[r] = now() - t0;
                if (info || gchol_lapack_last_path() != GCHOL_LAPACK_RAN_GPU) return 1;
                bench_host_copy(prec, n, nrhs, B0, ldb, B, ldb);
                t0 = now();
                info = peer_call(&peer, n, nrhs, A, lda, B, ldb, dA, dB, NULL, 0, NULL, 0, dinfo);
                if (r >= 0) tp[r] = now() - t0;
            }
            const double c = median(tc, runs), g = median(tg, runs), p = median(tp, runs);
            printf("%7d %5d %12.6f %12.6f %12.6f %10.2f %10.2f\n", n, nrhs, c, g, p, c / g, p / g);
            if (csv) fprintf(csv, "potrs,%c,%d,%d,%.6e,%.6e,%.6e,%.4f,%.4f\n", prec, n, nrhs, c, g, p, c / g, p / g);
            free(B0); free(B);
            BENCH_CUDA(cudaFree(dA)); BENCH_CUDA(cudaFree(dB)); BENCH_CUDA(cudaFree(dinfo));
        }
        free(A);
    }
    printf("\n%cposv_ 'L'\n%7s %5s %12s %12s %12s %10s %10s\n", prec, "n", "nrhs", "OpenBLAS",
           "shim gpu", "cuSOLVER+cp", "cpu/gpu", "cusol/gpu");
    for (int k = 0; k < npn; ++k) {
        const int n = pns[k], lda = n, ldb = n;
        void *A0 = bench_spd_host(prec, n, lda, 41 + n), *A = bench_malloc((size_t)lda * n * es);
        void *dA = bench_device_malloc((size_t)n * n * es);
        int *dinfo = bench_device_malloc(sizeof(int));
        size_t dwb = 0, hwb = 0;
        BENCH_CUSOLVER(cusolverDnXpotrf_bufferSize(peer.h, peer.params, CUBLAS_FILL_MODE_LOWER, n,
                                                   t, dA, n, t, &dwb, &hwb));
        void *dwork = bench_device_malloc(dwb ? dwb : 1), *hwork = bench_malloc(hwb ? hwb : 1);
        for (int q = 0; q < nnrhs; ++q) {
            const int nrhs = nrhss[q];
            void *B0 = bench_random_host(prec, n, nrhs, ldb, 51 + nrhs, -1, 1);
            void *B = bench_malloc((size_t)ldb * nrhs * es), *dB = bench_device_malloc((size_t)n * nrhs * es);
            int info = 0;
            for (int r = -1; r < runs; ++r) {
                double t0;
                bench_host_copy(prec, n, n, A0, lda, A, lda); bench_host_copy(prec, n, nrhs, B0, ldb, B, ldb);
                gchol_lapack_route(GCHOL_LAPACK_CPU, -1, -1);
                t0 = now(); shim_posv(prec, n, nrhs, A, lda, B, ldb, &info); if (r >= 0) tc[r] = now() - t0;
                bench_host_copy(prec, n, n, A0, lda, A, lda); bench_host_copy(prec, n, nrhs, B0, ldb, B, ldb);
                gchol_lapack_route(GCHOL_LAPACK_GPU, -1, -1);
                t0 = now(); shim_posv(prec, n, nrhs, A, lda, B, ldb, &info); if (r >= 0) tg[r] = now() - t0;
                if (info || gchol_lapack_last_path() != GCHOL_LAPACK_RAN_GPU) return 1;
                bench_host_copy(prec, n, n, A0, lda, A, lda); bench_host_copy(prec, n, nrhs, B0, ldb, B, ldb);
                t0 = now();
                info = peer_posv(&peer, n, nrhs, A, lda, B, ldb, dA, dB, dwork, dwb, hwork, hwb, dinfo);
                if (r >= 0) tp[r] = now() - t0;
            }
            const double c = median(tc, runs), g = median(tg, runs), p = median(tp, runs);
            printf("%7d %5d %12.6f %12.6f %12.6f %10.2f %10.2f\n", n, nrhs, c, g, p, c / g, p / g);
            if (csv) fprintf(csv, "posv,%c,%d,%d,%.6e,%.6e,%.6e,%.4f,%.4f\n", prec, n, nrhs, c, g, p, c / g, p / g);
            free(B0); free(B); BENCH_CUDA(cudaFree(dB));
        }
        free(A0); free(A); free(hwork);
        BENCH_CUDA(cudaFree(dA)); BENCH_CUDA(cudaFree(dwork)); BENCH_CUDA(cudaFree(dinfo));
    }
    if (csv) fclose(csv);
    cusolverDnDestroyParams(peer.params);
    cusolverDnDestroy(peer.h);
    return 0;
}
