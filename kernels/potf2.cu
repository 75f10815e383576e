/*
 * potf2.cu -- the fused Cholesky kernel for one diagonal tile (n <= 128).
 *
 * One thread block factors the whole tile in a single launch; the loop over
 * columns lives inside the kernel. The tile sits in shared memory in its
 * "lower view" (for uplo = U the transpose is loaded, so one code path serves
 * both triangles at the same speed). It is internally blocked with an inner
 * block IB and left-looking inside:
 *
 *   for each inner block of IB columns starting at jb:
 *     (a) all warps: S[jb:n, jb:jb+IB] -= S[jb:n, 0:jb] * S[jb:jb+IB, 0:jb]^T
 *     (b) warp 0:    unblocked Cholesky of that n-jb by IB panel, held in
 *                    registers and broadcast with shuffles (no block barrier
 *                    per column, only one per inner block).
 *
 * A pivot <= 0 or NaN stops the kernel and records the global column in the
 * device info word; a kernel that finds info already set returns at once, so
 * work after a failure is skipped without a host synchronization.
 */
#include "gchol_kernels.h"

#include <cuda_runtime.h>

namespace {

constexpr int kThreads     = 256;
constexpr int kWarpSize    = 32;
constexpr int kMaxN        = GCHOL_POTF2_MAX_N;
constexpr int kRowsPerLane = kMaxN / kWarpSize; /* rows of the panel per lane in (b) */
constexpr int kIB          = 8;                  /* inner block */

static_assert(kIB <= kWarpSize, "the inner block must fit in one warp");

template <typename T> __device__ __forceinline__ T sqrt_t(T x);
template <> __device__ __forceinline__ double sqrt_t<double>(double x) { return sqrt(x); }
template <> __device__ __forceinline__ float sqrt_t<float>(float x) { return sqrtf(x); }

template <typename T>
__global__ void __launch_bounds__(kThreads)
potf2_kernel(int n, T *__restrict__ dA, int64_t ldda, int upper, int64_t col0,
             int64_t *__restrict__ dinfo)
{
    extern __shared__ unsigned char smem_raw[];
    T *S = reinterpret_cast<T *>(smem_raw);
    __shared__ int failed;

    if (*(volatile int64_t *)dinfo != 0) return; /* an earlier tile failed */

    const int lds = n | 1; /* odd stride: column walks hit distinct banks */
    const int tid = threadIdx.x;

    /* Load the lower view; zero its strict upper part so every shared read
     * is of initialised memory. Consecutive threads walk the stored column,
     * so the global reads coalesce for both triangles. */
    for (int idx = tid; idx < n * n; idx += kThreads) {
        const int r = idx % n, c = idx / n; /* stored (row, col) */
        const T v = dA[r + (int64_t)c * ldda];
        if (!upper) S[r + c * lds] = (r >= c) ? v : T(0);
        else        S[c + r * lds] = (r <= c) ? v : T(0);
    }
    if (tid == 0) failed = 0;
    __syncthreads();

    const int lane = tid % kWarpSize, warp = tid / kWarpSize;

    for (int jb = 0; jb < n; jb += kIB) {
        const int ib = min(kIB, n - jb);

        /* (a) left-looking update of the inner panel by all threads: thread
         * (row group, column) owns rows jb+rg, jb+rg+32, ... of column jb+c. */
        if (jb > 0) {
            const int c  = tid % kIB;
            const int rg = tid / kIB; /* 0 .. kThreads/kIB - 1 */
            constexpr int kRowStride = kThreads / kIB;
            if (c < ib) {
                T acc[kMaxN / kRowStride];
#pragma unroll
                for (int e = 0; e < kMaxN / kRowStride; ++e) acc[e] = T(0);
                const T *Sc = S + (jb + c);
                for (int k = 0; k < jb; ++k) {
                    const T b = Sc[k * lds];
#pragma unroll
                    for (int e = 0; e < kMaxN / kRowStride; ++e) {
                        const int i = jb + rg + e * kRowStride;
                        if (i < n) acc[e] += S[i + k * lds] * b;
                    }
                }
#pragma unroll
                for (int e = 0; e < kMaxN / kRowStride; ++e) {
                    const int i = jb + rg + e * kRowStride;
                    if (i < n && i >= jb + c) S[i + (jb + c) * lds] -= acc[e];
                }
            }
            __syncthreads();
        }

        /* (b) warp 0 factors the n-jb by ib panel in registers. Lane l holds
         * rows jb + l + 32 e; row jb + c of the diagonal block is lane c. */
        if (warp == 0) {
            T p[kRowsPerLane][kIB];
#pragma unroll
            for (int e = 0; e < kRowsPerLane; ++e) {
                const int i = jb + lane + e * kWarpSize;
#pragma unroll
                for (int c = 0; c < kIB; ++c)
                    p[e][c] = (i < n && c < ib) ? S[i + (jb + c) * lds] : T(0);
            }
            int fail_col = -1;
#pragma unroll
            for (int c = 0; c < kIB; ++c) {
                if (c < ib && fail_col < 0) {
                    const T piv = __shfl_sync(0xffffffffu, p[0][c], c);
                    if (!(piv > T(0))) { /* also catches NaN */
                        fail_col = jb + c;
                    } else {
                        const T d = sqrt_t(piv), rd = T(1) / d;
#pragma unroll
                        for (int e = 0; e < kRowsPerLane; ++e) {
                            const int i = jb + lane + e * kWarpSize;
                            p[e][c] = (i == jb + c) ? d : p[e][c] * rd;
                        }
#pragma unroll
                        for (int c2 = c + 1; c2 < kIB; ++c2) {
                            const T l = __shfl_sync(0xffffffffu, p[0][c], c2);
#pragma unroll
                            for (int e = 0; e < kRowsPerLane; ++e)
                                p[e][c2] -= p[e][c] * l;
                        }
                    }
                }
            }
#pragma unroll
            for (int e = 0; e < kRowsPerLane; ++e) {
                const int i = jb + lane + e * kWarpSize;
#pragma unroll
                for (int c = 0; c < kIB; ++c)
                    if (i < n && c < ib && i >= jb + c) S[i + (jb + c) * lds] = p[e][c];
            }
            if (fail_col >= 0 && lane == 0) {
                failed = 1;
                atomicCAS(reinterpret_cast<unsigned long long *>(dinfo), 0ull,
                          (unsigned long long)(col0 + fail_col + 1));
            }
        }
        __syncthreads();
        if (failed) break; /* uniform: read after the barrier */
    }

    /* Store the referenced triangle back; the other one is never written. */
    for (int idx = tid; idx < n * n; idx += kThreads) {
        const int r = idx % n, c = idx / n;
        if (!upper) { if (r >= c) dA[r + (int64_t)c * ldda] = S[r + c * lds]; }
        else        { if (r <= c) dA[r + (int64_t)c * ldda] = S[c + r * lds]; }
    }
}

template <typename T>
int potf2_launch(int64_t n, T *dA, int64_t ldda, int upper, int64_t col0,
                 int64_t *dinfo, cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    if (n > kMaxN) return cudaErrorInvalidValue;
    const int nn = (int)n;
    const size_t smem = (size_t)nn * (size_t)(nn | 1) * sizeof(T);
    /* More than 48 KB of dynamic shared memory needs an opt-in, once. */
    static bool opted_in[64]; /* per device; a benign race at worst repeats it */
    int dev = 0;
    cudaError_t ge = cudaGetDevice(&dev);
    if (ge != cudaSuccess) return ge;
    if (dev >= 64 || !opted_in[dev]) {
        const size_t most = (size_t)kMaxN * (kMaxN | 1) * sizeof(T);
        cudaError_t e = cudaFuncSetAttribute(potf2_kernel<T>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)most);
        if (e != cudaSuccess) return e;
        if (dev < 64) opted_in[dev] = true;
    }
    potf2_kernel<T><<<1, kThreads, smem, stream>>>(nn, dA, ldda, upper, col0, dinfo);
    return cudaGetLastError();
}

} // namespace

extern "C" int gchol_dpotf2_launch(int64_t n, double *dA, int64_t ldda, int upper,
                                   int64_t col0, int64_t *dinfo, cudaStream_t stream)
{
    return potf2_launch<double>(n, dA, ldda, upper, col0, dinfo, stream);
}

extern "C" int gchol_spotf2_launch(int64_t n, float *dA, int64_t ldda, int upper,
                                   int64_t col0, int64_t *dinfo, cudaStream_t stream)
{
    return potf2_launch<float>(n, dA, ldda, upper, col0, dinfo, stream);
}
