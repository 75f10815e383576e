// trsmbench.cu (session 17): the solve of L21 in pftrf 'U', double, k = n/2 square.
// N,U realigned solves L11 X = M (side left, lower, N; leading dimension n for both);
// T,U solves X U11 = A21 (side right, upper, N; leading dimension k). gchol's
// recursive trsm with leaf 128 (since this session on gchol's tile trsm kernel where
// the right-hand sides are many) / 256 / 512 / 1024, cuBLAS dtrsm on the whole and on
// one leaf. CUDA events, median of 3, fresh right-hand side each run. The kernel
// leaf's result against cuBLAS dtrsm's: max |X - X_cublas| / max |X_cublas|.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cstring>
#include <cmath>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cublasLt.h>
extern "C" {
#include "internal.h"
}
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define GK(x) do { long long s_ = (long long)(x); if (s_ != 0) { printf("%s:%d status %lld\n", __FILE__, __LINE__, s_); exit(1); } } while (0)

__global__ void gen(double *A, int64_t m, int64_t n, int64_t ld, int tri_lower, int tri_upper, double diag, unsigned seed)
{
    for (int64_t p = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; p < m * n; p += (int64_t)gridDim.x * blockDim.x) {
        int64_t i = p % m, j = p / m;
        unsigned long long h = (unsigned long long)p * 0x9e3779b97f4a7c15ull + seed;
        h ^= h >> 33; h *= 0xff51afd7ed558ccdull; h ^= h >> 33;
        double v = (double)(h >> 11) / 9007199254740992.0 * 2.0 - 1.0;
        if ((tri_lower && j > i) || (tri_upper && i > j)) v = 0;
        if (i == j) v += diag;
        A[i + j * ld] = v;
    }
}

__global__ void maxdiff(const double *X, const double *Y, int64_t m, int64_t n, int64_t ld, unsigned long long *out)
{
    double d = 0, a = 0;
    for (int64_t p = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; p < m * n; p += (int64_t)gridDim.x * blockDim.x) {
        int64_t i = p % m, j = p / m;
        d = fmax(d, fabs(X[i + j * ld] - Y[i + j * ld])); a = fmax(a, fabs(Y[i + j * ld]));
    }
    atomicMax(out, __double_as_longlong(d)); atomicMax(out + 1, __double_as_longlong(a));
}

int main()
{
    cublasHandle_t h; cublasCreate(&h);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    const double one = 1;
    for (int64_t k : {2304, 4096, 8192, 16384}) {
        const int64_t n = 2 * k;
        double *A, *B0, *B, *Bref; unsigned long long *dd;
        CK(cudaMalloc(&A, n * k * 8)); CK(cudaMalloc(&B0, n * k * 8)); CK(cudaMalloc(&B, n * k * 8)); CK(cudaMalloc(&Bref, n * k * 8)); CK(cudaMalloc(&dd, 16));
        for (int side = 0; side < 2; ++side) { // 0: left lower N, ld n;  1: right upper N, ld k
            const int64_t ld = side == 0 ? n : k;
            gen<<<2048, 256>>>(A, k, k, ld, side == 0, side == 1, (double)k, 1);
            gen<<<2048, 256>>>(B0, k, k, ld, 0, 0, 0.0, 2);
            CK(cudaGetLastError());
            auto timeit = [&](auto f) {
                std::vector<float> t;
                for (int r = 0; r < 4; ++r) {
                    CK(cudaMemcpy(B, B0, ld * k * 8, cudaMemcpyDeviceToDevice));
                    CK(cudaEventRecord(e0)); f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
                    float ms; cudaEventElapsedTime(&ms, e0, e1); if (r) t.push_back(ms);
                }
                std::sort(t.begin(), t.end()); return t[1];
            };
            const cublasSideMode_t sm = side == 0 ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
            const cublasFillMode_t fm = side == 0 ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
            const double fl = (double)k * k * k;
            for (int64_t leaf : {128, 256, 512, 1024}) {
                float ms = timeit([&] { GK(gchol_dtrsm_rec_leaf(h, sm, fm, CUBLAS_OP_N, k, k, A, ld, B, ld, leaf)); });
                printf("k=%5lld %-26s leaf %4lld  %8.2f ms  %5.1f TFLOP/s\n", (long long)k, side == 0 ? "left lower N (N,U re.)" : "right upper N (T,U)", (long long)leaf, ms, fl / ms / 1e9);
            }
            float ms = timeit([&] { GK(cublasDtrsm(h, sm, fm, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, k, k, &one, A, ld, B, ld)); });
            CK(cudaMemcpy(Bref, B, ld * k * 8, cudaMemcpyDeviceToDevice));
            CK(cudaMemcpy(B, B0, ld * k * 8, cudaMemcpyDeviceToDevice));
            GK(gchol_dtrsm_rec(h, sm, fm, CUBLAS_OP_N, k, k, A, ld, B, ld));
            CK(cudaMemset(dd, 0, 16)); maxdiff<<<1024, 256>>>(B, Bref, k, k, ld, dd); CK(cudaGetLastError());
            unsigned long long hd[2]; CK(cudaMemcpy(hd, dd, 16, cudaMemcpyDeviceToHost));
            double dv, av; memcpy(&dv, &hd[0], 8); memcpy(&av, &hd[1], 8);
            float msd = timeit([&] { GK(gchol_dtrsm_rec(h, sm, fm, CUBLAS_OP_N, k, k, A, ld, B, ld)); });
            printf("k=%5lld %-26s default    %8.2f ms  %5.1f TFLOP/s  (against cublasDtrsm: %.2e)\n", (long long)k, side == 0 ? "left lower N" : "right upper N", msd, fl / msd / 1e9, dv / av);
            printf("k=%5lld %-26s cublasDtrsm whole  %8.2f ms  %5.1f TFLOP/s\n", (long long)k, side == 0 ? "left lower N" : "right upper N", ms, fl / ms / 1e9);
            for (int64_t lf : {256, 512}) {
                ms = timeit([&] { GK(cublasDtrsm(h, sm, fm, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, side == 0 ? lf : k, side == 0 ? k : lf, &one, A, ld, B, ld)); });
                printf("k=%5lld %-26s cublasDtrsm leaf %4lld  %8.3f ms  %5.1f TFLOP/s\n", (long long)k, side == 0 ? "left lower N" : "right upper N", (long long)lf, ms, (double)lf * lf * k / ms / 1e9);
            }
        }
        CK(cudaFree(A)); CK(cudaFree(B0)); CK(cudaFree(B)); CK(cudaFree(Bref)); CK(cudaFree(dd));
    }
    return 0;
}
