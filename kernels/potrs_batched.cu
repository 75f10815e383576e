/*
 * potrs_batched.cu -- A X = B for many matrices of one order n with their
 * Cholesky factors (gchol_?potrs_batched_launch, gchol_kernels.h), any
 * number of right-hand sides. With dinfo, a matrix whose dinfo[b] is not 0
 * (its factorization failed) is skipped: its B is not written.
 *
 *   n <= 32   a group of G lanes per matrix (G the power of two >= n):
 *             lane r holds row r and column r of L in registers (the
 *             forward solve needs L(r, k), the backward L(k, r) at lane r),
 *             each right-hand side in turn, its entries passed by shuffles;
 *   larger    a thread block per matrix, a warp per right-hand side, lanes
 *             across the rows, L read through the cache.
 *
 * For 'U' the factor is U = L^T: L(i, j) is stored at A(j, i).
 */
#include "gchol_kernels.h"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

template <typename T> struct Mats {
    T *A;           /* strided: matrix b at A + b * stride      */
    T *const *ptrs; /* or at ptrs[b]                            */
    int64_t stride;
    __device__ T *at(int64_t b) const { return ptrs ? ptrs[b] : A + b * stride; }
};

/* L(i, j), i >= j, of the factor stored in the uplo triangle. */
__device__ __forceinline__ int64_t l_at(int64_t i, int64_t j, int64_t ld, int upper)
{
    return upper ? j + i * ld : i + j * ld;
}

constexpr int kRegThreads = 128;

template <typename T, int G>
__global__ void __launch_bounds__(kRegThreads)
potrs_batched_reg_kernel(int n, int64_t nrhs, Mats<const T> As, int64_t ldda, Mats<T> Bs,
                         int64_t lddb, int upper, const int64_t *dinfo, int64_t count)
{
    const int lane = threadIdx.x % G;
    const int64_t b = (int64_t)blockIdx.x * (kRegThreads / G) + threadIdx.x / G;
    const bool live = b < count && !(dinfo && dinfo[b] != 0);
    const T *A = live ? As.at(b) : nullptr;
    T *B = live ? Bs.at(b) : nullptr;
    T row[G], col[G]; /* row[j] = L(lane, j), j <= lane; col[i] = L(i, lane), i >= lane */
#pragma unroll
    for (int j = 0; j < G; ++j) {
        row[j] = live && lane < n && j <= lane ? A[l_at(lane, j, ldda, upper)] : T(0);
        col[j] = live && lane < n && j < n && j >= lane ? A[l_at(j, lane, ldda, upper)] : T(1);
    }
    for (int64_t c = 0; c < nrhs; ++c) {
        T x = live && lane < n ? B[lane + c * lddb] : T(0);
        /* L y = b: y_k at lane k, then every lane below takes its part */
#pragma unroll
        for (int k = 0; k < G; ++k) {
            if (lane == k && k < n) x /= row[k];
            const T yk = __shfl_sync(0xffffffffu, x, k, G);
            if (lane > k && lane < n) x -= row[k] * yk;
        }
        /* L^T x = y: x_k at lane k, then every lane above takes its part */
#pragma unroll
        for (int k = G - 1; k >= 0; --k) {
            if (lane == k && k < n) x /= col[k];
            const T xk = __shfl_sync(0xffffffffu, x, k, G);
            if (lane < k && k < n) x -= col[k] * xk;
        }
        if (live && lane < n) B[lane + c * lddb] = x;
    }
}

constexpr int kWarps = 8;

/* A block per matrix, warp w on the right-hand sides w, w + kWarps, ...;
 * each step's entry is final before the lanes update below (above) it, the
 * warp's lanes in step by __syncwarp. */
template <typename T>
__global__ void __launch_bounds__(32 * kWarps)
potrs_batched_warp_kernel(int n, int64_t nrhs, Mats<const T> As, int64_t ldda, Mats<T> Bs,
                          int64_t lddb, int upper, const int64_t *dinfo)
{
    const int64_t b = blockIdx.x;
    if (dinfo && dinfo[b] != 0) return;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const T *A = As.at(b);
    T *B = Bs.at(b);
    for (int64_t c = warp; c < nrhs; c += kWarps) {
        T *x = B + c * lddb;
        for (int k = 0; k < n; ++k) {
            __syncwarp();
            const T yk = x[k] / A[l_at(k, k, ldda, upper)];
            __syncwarp();
            if (lane == 0) x[k] = yk;
            for (int r = k + 1 + lane; r < n; r += 32) x[r] -= A[l_at(r, k, ldda, upper)] * yk;
        }
        for (int k = n - 1; k >= 0; --k) {
            __syncwarp();
            const T xk = x[k] / A[l_at(k, k, ldda, upper)];
            __syncwarp();
            if (lane == 0) x[k] = xk;
            for (int r = lane; r < k; r += 32) x[r] -= A[l_at(k, r, ldda, upper)] * xk;
        }
    }
}

constexpr int64_t kMaxGrid = 0x7fffffff;

template <typename T>
cudaError_t run(int64_t n, int64_t nrhs, const T *dA, const T *const *dA_array, int64_t ldda,
                int64_t strideA, T *dB, T *const *dB_array, int64_t lddb, int64_t strideB,
                int upper, const int64_t *dinfo, int64_t count, const gchol_kernel_tune_t *kt,
                cudaStream_t stream)
{
    if (n <= 0 || nrhs <= 0 || count <= 0) return cudaSuccess;
    if (n > 0x7fffffff) return cudaErrorInvalidValue;
    const int nn = (int)n;
    int reg_max = kt && kt->batched_reg_max_n > 0 ? kt->batched_reg_max_n
                                                  : GCHOL_KT_DEFAULT_BATCHED_REG_MAX_N;
    if (reg_max > 32) reg_max = 32;
    for (int64_t b0 = 0; b0 < count; b0 += kMaxGrid) {
        const int64_t c = count - b0 < kMaxGrid ? count - b0 : kMaxGrid;
        const Mats<const T> As = { dA_array ? nullptr : dA + b0 * strideA,
                                   dA_array ? dA_array + b0 : nullptr, strideA };
        const Mats<T> Bs = { dB_array ? nullptr : dB + b0 * strideB,
                             dB_array ? dB_array + b0 : nullptr, strideB };
        const int64_t *di = dinfo ? dinfo + b0 : nullptr;
        if (nn <= reg_max) {
            const int g = nn <= 4 ? 4 : nn <= 8 ? 8 : nn <= 16 ? 16 : 32;
            const int64_t blocks = (c + kRegThreads / g - 1) / (kRegThreads / g);
            switch (g) {
            case 4: potrs_batched_reg_kernel<T, 4><<<(unsigned)blocks, kRegThreads, 0, stream>>>(
                        nn, nrhs, As, ldda, Bs, lddb, upper, di, c); break;
            case 8: potrs_batched_reg_kernel<T, 8><<<(unsigned)blocks, kRegThreads, 0, stream>>>(
                        nn, nrhs, As, ldda, Bs, lddb, upper, di, c); break;
            case 16: potrs_batched_reg_kernel<T, 16><<<(unsigned)blocks, kRegThreads, 0, stream>>>(
                         nn, nrhs, As, ldda, Bs, lddb, upper, di, c); break;
            default: potrs_batched_reg_kernel<T, 32><<<(unsigned)blocks, kRegThreads, 0, stream>>>(
                         nn, nrhs, As, ldda, Bs, lddb, upper, di, c); break;
            }
        } else {
            potrs_batched_warp_kernel<T><<<(unsigned)c, 32 * kWarps, 0, stream>>>(
                nn, nrhs, As, ldda, Bs, lddb, upper, di);
        }
        const cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

} // namespace

extern "C" int gchol_dpotrs_batched_launch(int64_t n, int64_t nrhs, const double *dA,
                                           const double *const *dA_array, int64_t ldda,
                                           int64_t strideA, double *dB, double *const *dB_array,
                                           int64_t lddb, int64_t strideB, int upper,
                                           const int64_t *dinfo, int64_t count,
                                           const gchol_kernel_tune_t *kt, cudaStream_t stream)
{
    return run<double>(n, nrhs, dA, dA_array, ldda, strideA, dB, dB_array, lddb, strideB, upper,
                       dinfo, count, kt, stream);
}

extern "C" int gchol_spotrs_batched_launch(int64_t n, int64_t nrhs, const float *dA,
                                           const float *const *dA_array, int64_t ldda,
                                           int64_t strideA, float *dB, float *const *dB_array,
                                           int64_t lddb, int64_t strideB, int upper,
                                           const int64_t *dinfo, int64_t count,
                                           const gchol_kernel_tune_t *kt, cudaStream_t stream)
{
    return run<float>(n, nrhs, dA, dA_array, ldda, strideA, dB, dB_array, lddb, strideB, upper,
                      dinfo, count, kt, stream);
}
