// posv_phase.cu (session 18): where gchol_dsposv_gpu spends its time, phase by
// phase, lower, nrhs = 1 and 16: the steps of src/sposv.c's refine() timed apart
// with CUDA events (median of 5), plus alternatives for the memory-bound steps:
// cublasDsymv against cublasDsymm for one right-hand side, cuBLAS strsm against
// gchol's recursive trsm for the solves.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cublas_v2.h>
extern "C" {
#include "internal.h"
}
#include "../../../../kernels/gchol_kernels.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define GK(x) do { int64_t s_ = (x); if (s_ != 0) { printf("%s:%d status %lld\n", __FILE__, __LINE__, (long long)s_); exit(1); } } while (0)
#define BK(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { printf("%s:%d cublas %d\n", __FILE__, __LINE__, (int)s_); exit(1); } } while (0)

__global__ void gen(double *A, int64_t n, int64_t ld)
{
    for (int64_t p = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; p < n * n; p += (int64_t)gridDim.x * blockDim.x) {
        int64_t i = p % n, j = p / n, lo = i < j ? i : j, hi = i < j ? j : i;
        unsigned long long h = (unsigned long long)(lo * 2654435761ull) ^ (unsigned long long)(hi * 40503ull + 0x9e3779b97f4a7c15ull);
        h ^= h >> 33; h *= 0xff51afd7ed558ccdull; h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ull; h ^= h >> 33;
        A[i + j * ld] = (double)(h >> 11) / 9007199254740992.0 * 2.0 - 1.0 + (i == j ? (double)n : 0.0);
    }
}

static cudaStream_t g_s;
template <class F> static double time_ms(F f, int reps = 5)
{
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    std::vector<double> v;
    for (int r = 0; r <= reps; ++r) {
        CK(cudaStreamSynchronize(g_s));
        CK(cudaEventRecord(a, g_s)); f(); CK(cudaEventRecord(b, g_s)); CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b)); if (r) v.push_back(ms);
    }
    std::sort(v.begin(), v.end());
    CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
    return v[v.size() / 2];
}

int main()
{
    gchol_queue_t q; GK(gchol_queue_create(-1, &q));
    g_s = q->stream;
    const double one = 1, m1 = -1; const float onef = 1;
    for (int64_t nrhs : {1, 16})
    for (int64_t n : {1024, 4096, 16384, 32768}) {
        const int64_t ld = (n + 31) / 32 * 32;
        double *A, *B, *X, *R, *work, *norms; float *sA, *sX, *sA0; int *flag;
        CK(cudaMalloc(&A, ld * n * 8)); CK(cudaMalloc(&sA, ld * n * 4)); CK(cudaMalloc(&sA0, ld * n * 4));
        CK(cudaMalloc(&B, ld * nrhs * 8)); CK(cudaMalloc(&X, ld * nrhs * 8)); CK(cudaMalloc(&R, ld * nrhs * 8));
        CK(cudaMalloc(&sX, ld * nrhs * 4)); CK(cudaMalloc(&flag, 4)); CK(cudaMalloc(&norms, (2 * nrhs + 1) * 8));
        CK(cudaMalloc(&work, gchol_dlansy_inf_work(n) * 8));
        gen<<<2048, 256, 0, g_s>>>(A, n, ld); CK(cudaGetLastError());
        CK(cudaMemsetAsync(B, 0, ld * nrhs * 8, g_s));
        CK(cudaMemcpy2DAsync(B, ld * 8, A, ld * 8, n * 8, nrhs, cudaMemcpyDeviceToDevice, g_s));
        CK(cudaStreamSynchronize(g_s));
        int64_t info = 0, iter = 0;
        double t_alloc = time_ms([&] { void *p; CK(cudaMallocAsync(&p, (ld * n * 4 + ld * nrhs * 20 + gchol_dlansy_inf_work(n) * 8), g_s)); CK(cudaFreeAsync(p, g_s)); });
        double t_lansy = time_ms([&] { CK((cudaError_t)gchol_dlansy_inf_launch(n, A, ld, 0, work, norms + 2 * nrhs, g_s)); });
        double t_d2s = time_ms([&] { CK((cudaError_t)gchol_d2s_launch(n, n, A, ld, sA, ld, 1, flag, g_s)); });
        double t_d2s_b = time_ms([&] { CK((cudaError_t)gchol_d2s_launch(n, nrhs, B, ld, sX, ld, 0, flag, g_s)); });
        CK(cudaMemcpyAsync(sA0, sA, ld * n * 4, cudaMemcpyDeviceToDevice, g_s));
        double t_spotrf = time_ms([&] { CK(cudaMemcpyAsync(sA, sA0, ld * n * 4, cudaMemcpyDeviceToDevice, g_s)); GK(gchol_spotrf_gpu('L', n, sA, ld, &info, q)); });
        double t_copy = time_ms([&] { CK(cudaMemcpyAsync(sA, sA0, ld * n * 4, cudaMemcpyDeviceToDevice, g_s)); });
        GK(gchol_spotrf_gpu('L', n, sA, ld, &info, q));
        double t_spotrs = time_ms([&] { GK(gchol_spotrs_gpu('L', n, nrhs, sA, ld, sX, ld, &info, q)); });
        double t_strsm = time_ms([&] {
            BK(cublasStrsm_64(q->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, nrhs, &onef, sA, ld, sX, ld));
            BK(cublasStrsm_64(q->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, n, nrhs, &onef, sA, ld, sX, ld)); });
        double t_strsv = nrhs > 1 ? 0 : time_ms([&] {
            BK(cublasStrsv_64(q->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, sA, ld, sX, 1));
            BK(cublasStrsv_64(q->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, n, sA, ld, sX, 1)); });
        double t_setx = time_ms([&] { CK(cudaMemset2DAsync(X, ld * 8, 0, n * 8, nrhs, g_s)); CK((cudaError_t)gchol_add_s_to_d_launch(n, nrhs, sX, ld, X, ld, g_s)); });
        double t_symm = time_ms([&] { CK(cudaMemcpy2DAsync(R, ld * 8, B, ld * 8, n * 8, nrhs, cudaMemcpyDeviceToDevice, g_s));
            BK(cublasDsymm_64(q->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, n, nrhs, &m1, A, ld, X, ld, &one, R, ld)); });
        double t_symv = nrhs > 1 ? 0 : time_ms([&] { CK(cudaMemcpy2DAsync(R, ld * 8, B, ld * 8, n * 8, nrhs, cudaMemcpyDeviceToDevice, g_s));
            BK(cublasDsymv_64(q->blas, CUBLAS_FILL_MODE_LOWER, n, &m1, A, ld, X, 1, &one, R, 1)); });
        double t_absmax = time_ms([&] { CK((cudaError_t)gchol_dcol_absmax_launch(n, nrhs, X, ld, norms, g_s)); CK((cudaError_t)gchol_dcol_absmax_launch(n, nrhs, R, ld, norms + nrhs, g_s)); });
        double hbuf[64]; int hflag;
        double t_fetch = time_ms([&] { CK(cudaMemcpyAsync(hbuf, norms, 2 * nrhs * 8, cudaMemcpyDeviceToHost, g_s)); CK(cudaMemcpyAsync(&hflag, flag, 4, cudaMemcpyDeviceToHost, g_s)); CK(cudaStreamSynchronize(g_s)); });
        double t_total = time_ms([&] { GK(gchol_dsposv_gpu('L', n, nrhs, A, ld, B, ld, X, ld, &iter, &info, q)); });
        double t_dpotrs = time_ms([&] { CK(cudaMemcpy2DAsync(X, ld * 8, B, ld * 8, n * 8, nrhs, cudaMemcpyDeviceToDevice, g_s)); GK(gchol_dpotrs_gpu('L', n, nrhs, A, ld, X, ld, &info, q)); });
        printf("n=%6lld nrhs=%2lld iter %lld | total %8.3f | alloc %.3f lansy %.3f d2s(A) %.3f d2s(B) %.3f spotrf %.3f (incl. copy %.3f) spotrs %.3f [cuBLAS strsm %.3f strsv %.3f] setX %.3f symm+copy %.3f [symv %.3f] absmax %.3f fetch %.3f | dpotrs(on A, as a ref) %.3f ms\n",
               (long long)n, (long long)nrhs, (long long)iter, t_total, t_alloc, t_lansy, t_d2s, t_d2s_b, t_spotrf - t_copy, t_copy, t_spotrs, t_strsm, t_strsv, t_setx, t_symm, t_symv, t_absmax, t_fetch, t_dpotrs);
        fflush(stdout);
        cudaFree(A); cudaFree(sA); cudaFree(sA0); cudaFree(B); cudaFree(X); cudaFree(R); cudaFree(sX); cudaFree(flag); cudaFree(norms); cudaFree(work);
    }
    gchol_queue_destroy(q);
    return 0;
}
