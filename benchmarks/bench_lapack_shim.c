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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapack.h>

#include "bench_util.h"
#include "gchol_lapack.h"

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
    const size_t es = testing_elsize(p->prec);
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
    const size_t es = testing_elsize(p->prec);
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
    int runs = 5;
    testing_list_t ns = { NULL, 0 }, nrhss = { NULL, 0 }, sns = { NULL, 0 }, pns = { NULL, 0 };
    const char *csv_path = NULL;
    const opt_t opts[] = {
        OPT("--prec", OPT_CHAR, &prec, "d|s", "precision (default d)", .choices = "ds"),
        OPT("--n", OPT_LIST, &ns, "LIST", "orders of ?potrf_ (default 128,256,384,512,768,1024,"
            "1536,2048,3072,4096,8192,16384)",
            .def = "128,256,384,512,768,1024,1536,2048,3072,4096,8192,16384"),
        OPT("--nrhs", OPT_LIST, &nrhss, "LIST", "right-hand sides of ?potrs_ and ?posv_ "
            "(default 1,16,64,256)", .def = "1,16,64,256"),
        OPT("--solve-n", OPT_LIST, &sns, "LIST", "orders of ?potrs_ (default 1024,4096,8192)",
            .def = "1024,4096,8192"),
        OPT("--posv-n", OPT_LIST, &pns, "LIST", "orders of ?posv_ (default 256,1024,4096,8192)",
            .def = "256,1024,4096,8192"),
        OPT("--runs", OPT_INT, &runs, "R", "timed runs after a warm-up, median reported "
            "(default 5, at most 64)", OPT_MIN(1)),
        OPT("--csv", OPT_STRING, &csv_path, "FILE", "also write the results as CSV"),
        OPT_END
    };
    const opts_program_t prog = { "[--prec d|s] [--n LIST] [--nrhs LIST] [--solve-n LIST] "
                                  "[--posv-n LIST] [--runs R] [--csv FILE]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    if (runs > 64) opts_fail(argv[0], opts, &prog, "--runs: at most 64");
    const int nn = (int) ns.count, nnrhs = (int) nrhss.count, nsn = (int) sns.count;
    const int npn = (int) pns.count;
    bench_require_gpu(0, argv[0]);
    FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
    if (csv) fprintf(csv, "routine,precision,n,nrhs,openblas_s,shim_gpu_s,cusolver_by_hand_s,"
                          "openblas_over_gpu,cusolver_over_gpu\n");
    printf("OpenBLAS core %s, %d threads; %s, median of %d after a warm-up, seconds of whole "
           "calls on pageable host arrays\n", openblas_get_corename(), openblas_get_num_threads(),
           testing_prec_name(prec), runs);

    peer_t peer = { .prec = prec };
    BENCH_CUSOLVER(cusolverDnCreate(&peer.h));
    BENCH_CUSOLVER(cusolverDnCreateParams(&peer.params));
    const size_t es = testing_elsize(prec);
    const cudaDataType t = bench_cuda_type(prec);
    double tc[64], tg[64], tp[64];

    printf("\n%cpotrf_ 'L'\n%7s %12s %12s %12s %10s %10s\n", prec, "n", "OpenBLAS", "shim gpu",
           "cuSOLVER+cp", "cpu/gpu", "cusol/gpu");
    for (int k = 0; k < nn; ++k) {
        const int n = (int) ns.v[k], lda = n;
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
            t0 = testing_wtime(); shim_potrf(prec, n, A, lda, &info); if (r >= 0) tc[r] = testing_wtime() - t0;
            if (info) { fprintf(stderr, "cpu info %d\n", info); return 1; }
            bench_host_copy(prec, n, n, A0, lda, A, lda);
            gchol_lapack_route(GCHOL_LAPACK_GPU, -1, -1);
            t0 = testing_wtime(); shim_potrf(prec, n, A, lda, &info); if (r >= 0) tg[r] = testing_wtime() - t0;
            if (r < 0 && k == 0) /* the process's first GPU call */
                printf("first GPU call (the shim's queue, buffers and cuBLAS handles; the CUDA context exists already; n = %d): "
                       "%.3f s\n", n, testing_wtime() - t0);
            if (info || gchol_lapack_last_path() != GCHOL_LAPACK_RAN_GPU) {
                fprintf(stderr, "gpu info %d path %c\n", info, gchol_lapack_last_path());
                return 1;
            }
            bench_host_copy(prec, n, n, A0, lda, A, lda);
            t0 = testing_wtime();
            info = peer_call(&peer, n, 0, A, lda, NULL, 0, dA, NULL, dwork, dwb, hwork, hwb, dinfo);
            if (r >= 0) tp[r] = testing_wtime() - t0;
            if (info) { fprintf(stderr, "cusolver info %d\n", info); return 1; }
        }
        const double c = testing_median(tc, runs), g = testing_median(tg, runs), p = testing_median(tp, runs);
        printf("%7d %12.6f %12.6f %12.6f %10.2f %10.2f\n", n, c, g, p, c / g, p / g);
        if (csv) fprintf(csv, "potrf,%c,%d,0,%.6e,%.6e,%.6e,%.4f,%.4f\n", prec, n, c, g, p, c / g, p / g);
        free(A0); free(A); free(hwork);
        BENCH_CUDA(cudaFree(dA)); BENCH_CUDA(cudaFree(dwork)); BENCH_CUDA(cudaFree(dinfo));
    }

    printf("\n%cpotrs_ 'L' (the factor from the CPU)\n%7s %5s %12s %12s %12s %10s %10s\n", prec,
           "n", "nrhs", "OpenBLAS", "shim gpu", "cuSOLVER+cp", "cpu/gpu", "cusol/gpu");
    for (int k = 0; k < nsn; ++k) {
        const int n = (int) sns.v[k], lda = n, ldb = n;
        void *A = bench_spd_host(prec, n, lda, 21 + n);
        int info = 0;
        gchol_lapack_route(GCHOL_LAPACK_CPU, -1, -1);
        shim_potrf(prec, n, A, lda, &info);
        for (int q = 0; q < nnrhs; ++q) {
            const int nrhs = (int) nrhss.v[q];
            void *B0 = bench_random_host(prec, n, nrhs, ldb, 31 + nrhs, -1, 1);
            void *B = bench_malloc((size_t)ldb * nrhs * es);
            void *dA = bench_device_malloc((size_t)n * n * es), *dB = bench_device_malloc((size_t)n * nrhs * es);
            int *dinfo = bench_device_malloc(sizeof(int));
            for (int r = -1; r < runs; ++r) {
                double t0;
                bench_host_copy(prec, n, nrhs, B0, ldb, B, ldb);
                gchol_lapack_route(GCHOL_LAPACK_CPU, -1, -1);
                t0 = testing_wtime(); shim_potrs(prec, n, nrhs, A, lda, B, ldb, &info); if (r >= 0) tc[r] = testing_wtime() - t0;
                bench_host_copy(prec, n, nrhs, B0, ldb, B, ldb);
                gchol_lapack_route(GCHOL_LAPACK_GPU, -1, -1);
                t0 = testing_wtime(); shim_potrs(prec, n, nrhs, A, lda, B, ldb, &info); if (r >= 0) tg[r] = testing_wtime() - t0;
                if (info || gchol_lapack_last_path() != GCHOL_LAPACK_RAN_GPU) return 1;
                bench_host_copy(prec, n, nrhs, B0, ldb, B, ldb);
                t0 = testing_wtime();
                info = peer_call(&peer, n, nrhs, A, lda, B, ldb, dA, dB, NULL, 0, NULL, 0, dinfo);
                if (r >= 0) tp[r] = testing_wtime() - t0;
            }
            const double c = testing_median(tc, runs), g = testing_median(tg, runs), p = testing_median(tp, runs);
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
        const int n = (int) pns.v[k], lda = n, ldb = n;
        void *A0 = bench_spd_host(prec, n, lda, 41 + n), *A = bench_malloc((size_t)lda * n * es);
        void *dA = bench_device_malloc((size_t)n * n * es);
        int *dinfo = bench_device_malloc(sizeof(int));
        size_t dwb = 0, hwb = 0;
        BENCH_CUSOLVER(cusolverDnXpotrf_bufferSize(peer.h, peer.params, CUBLAS_FILL_MODE_LOWER, n,
                                                   t, dA, n, t, &dwb, &hwb));
        void *dwork = bench_device_malloc(dwb ? dwb : 1), *hwork = bench_malloc(hwb ? hwb : 1);
        for (int q = 0; q < nnrhs; ++q) {
            const int nrhs = (int) nrhss.v[q];
            void *B0 = bench_random_host(prec, n, nrhs, ldb, 51 + nrhs, -1, 1);
            void *B = bench_malloc((size_t)ldb * nrhs * es), *dB = bench_device_malloc((size_t)n * nrhs * es);
            int info = 0;
            for (int r = -1; r < runs; ++r) {
                double t0;
                bench_host_copy(prec, n, n, A0, lda, A, lda); bench_host_copy(prec, n, nrhs, B0, ldb, B, ldb);
                gchol_lapack_route(GCHOL_LAPACK_CPU, -1, -1);
                t0 = testing_wtime(); shim_posv(prec, n, nrhs, A, lda, B, ldb, &info); if (r >= 0) tc[r] = testing_wtime() - t0;
                bench_host_copy(prec, n, n, A0, lda, A, lda); bench_host_copy(prec, n, nrhs, B0, ldb, B, ldb);
                gchol_lapack_route(GCHOL_LAPACK_GPU, -1, -1);
                t0 = testing_wtime(); shim_posv(prec, n, nrhs, A, lda, B, ldb, &info); if (r >= 0) tg[r] = testing_wtime() - t0;
                if (info || gchol_lapack_last_path() != GCHOL_LAPACK_RAN_GPU) return 1;
                bench_host_copy(prec, n, n, A0, lda, A, lda); bench_host_copy(prec, n, nrhs, B0, ldb, B, ldb);
                t0 = testing_wtime();
                info = peer_posv(&peer, n, nrhs, A, lda, B, ldb, dA, dB, dwork, dwb, hwork, hwb, dinfo);
                if (r >= 0) tp[r] = testing_wtime() - t0;
            }
            const double c = testing_median(tc, runs), g = testing_median(tg, runs), p = testing_median(tp, runs);
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
