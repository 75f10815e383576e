// pfphase.cu (session 17): where pftrf 'U' spends its time, phase by phase,
// double, n = 16384 / 32768: T,U as stored, N,U realigned (rotations timed
// apart) and N,U as stored (GCHOL_RFP_REALIGN=0's layout). The phases are
// pftrf.c's fused 'U' form: potrf of L11 (auto options at n1), the solve of
// L21 (recursive trsm), the left-looking driver from column n1. Each phase
// synchronous, timed by host clock around a device sync; median of 3, each
// run from a fresh copy of the same RFP array.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cublasLt.h>
extern "C" {
#include "internal.h"
}
#include "../../../../kernels/gchol_kernels.h"
#include "../../../../kernels/rfp_index.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define GK(x) do { int64_t s_ = (x); if (s_ != 0) { printf("%s:%d status %lld\n", __FILE__, __LINE__, (long long)s_); exit(1); } } while (0)

__global__ void gen(double *A, int64_t n)
{
    for (int64_t p = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; p < n * n; p += (int64_t)gridDim.x * blockDim.x) {
        int64_t i = p % n, j = p / n, lo = i < j ? i : j, hi = i < j ? j : i;
        unsigned long long h = (unsigned long long)(lo * 2654435761ull) ^ (unsigned long long)(hi * 40503ull + 0x9e3779b97f4a7c15ull);
        h ^= h >> 33; h *= 0xff51afd7ed558ccdull; h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ull; h ^= h >> 33;
        A[p] = (double)(h >> 11) / 9007199254740992.0 * 2.0 - 1.0 + (i == j ? (double)n : 0.0);
    }
}

static double now() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static double med(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main()
{
    gchol_queue_t q; GK(gchol_queue_create(-1, &q));
    for (int64_t n : {16384, 32768}) {
        const int64_t nt = n * (n + 1) / 2, k = n / 2, len = n + 1;
        double *dA, *dR0, *dR;
        CK(cudaMalloc(&dA, n * n * 8)); CK(cudaMalloc(&dR0, nt * 8)); CK(cudaMalloc(&dR, nt * 8));
        gen<<<2048, 256>>>(dA, n); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        for (int var = 0; var < 3; ++var) { // 0: T,U  1: N,U realigned  2: N,U as stored
            const char transr = var == 0 ? 'T' : 'N';
            int64_t info = 0;
            GK(gchol_dtrttf_gpu(transr, 'U', n, dA, n, dR0, &info, q));
            const gchol_rfp_blocks_t b = var == 1 ? gchol_rfp_blocks_realigned(1, n) : gchol_rfp_blocks(var == 0, 1, n);
            std::vector<double> t0, t1, t2, t3, t4;
            for (int r = 0; r < 4; ++r) {
                CK(cudaMemcpy(dR, dR0, nt * 8, cudaMemcpyDeviceToDevice)); CK(cudaDeviceSynchronize());
                double a = now();
                if (var == 1) CK((cudaError_t)gchol_drotate_columns_launch(dR, len, k, k + 1, 1, 0, q->stream));
                CK(cudaDeviceSynchronize()); double b0 = now();
                gchol_options_t o; gchol_options_default(&o);
                GK(gchol_dpotrf_expert_gpu(b.t11 ? 'U' : 'L', b.n1, dR + b.off11, b.ld, &info, &o, q));
                CK(cudaDeviceSynchronize()); double b1 = now();
                const cublasFillMode_t fill11 = b.t11 ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
                if (!b.t21) GK(gchol_dtrsm_rec(q->blas, CUBLAS_SIDE_RIGHT, fill11, b.t11 ? CUBLAS_OP_N : CUBLAS_OP_T, b.n1, b.n2, dR + b.off11, b.ld, dR + b.off21, b.ld));
                else        GK(gchol_dtrsm_rec(q->blas, CUBLAS_SIDE_LEFT, fill11, b.t11 ? CUBLAS_OP_T : CUBLAS_OP_N, b.n1, b.n2, dR + b.off11, b.ld, dR + b.off21, b.ld));
                CK(cudaDeviceSynchronize()); double b2 = now();
                GK(gchol_dpotrf_blocks(&b, n, dR, b.n1, &o, q));
                CK(cudaDeviceSynchronize()); double b3 = now();
                if (var == 1) CK((cudaError_t)gchol_drotate_columns_launch(dR, len, k, len - (k + 1), -1, 0, q->stream));
                CK(cudaDeviceSynchronize()); double b4 = now();
                if (r) { t0.push_back(b0 - a); t1.push_back(b1 - b0); t2.push_back(b2 - b1); t3.push_back(b3 - b2); t4.push_back(b4 - b3); }
            }
            // check: back to full, compare one column of L against a fresh factor is too slow; check the diagonal is positive and finite
            const char *nm[] = {"T,U", "N,U realigned", "N,U stored"};
            printf("n=%6lld %-14s rotate %.2f  potrf L11 %.2f  trsm L21 %.2f  driver from n1 %.2f  rotate back %.2f  total %.2f ms\n",
                   (long long)n, nm[var], 1e3 * med(t0), 1e3 * med(t1), 1e3 * med(t2), 1e3 * med(t3), 1e3 * med(t4),
                   1e3 * (med(t0) + med(t1) + med(t2) + med(t3) + med(t4)));
        }
        CK(cudaFree(dA)); CK(cudaFree(dR0)); CK(cudaFree(dR));
    }
    gchol_queue_destroy(q);
    return 0;
}
