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

/* 1/sqrt in one call: the pivot's reciprocal is what the column scaling
 * needs, and sqrt followed by a division costs twice the latency on the
 * panel's critical path. */
template <typename T> __device__ __forceinline__ T rsqrt_t(T x);
template <> __device__ __forceinline__ double rsqrt_t<double>(double x) { return rsqrt(x); }
template <> __device__ __forceinline__ float rsqrt_t<float>(float x) { return rsqrtf(x); }

/*
 * (a) of the kernel: S[jb:n, jb:jb+ib] -= S[jb:n, 0:jb] * S[jb:jb+ib, 0:jb]^T
 * over the lower part only, jb a multiple of kIB. Generic form: thread
 * (row group, column) owns rows jb+rg, jb+rg+32, ... of column jb+c.
 */
template <typename T>
__device__ __forceinline__ void update_inner_panel(T *S, int lds, int n, int jb, int ib)
{
    constexpr int kRowStride = kThreads / kIB;
    constexpr int kRows      = kMaxN / kRowStride;
    const int c  = threadIdx.x % kIB;
    const int rg = threadIdx.x / kIB;
    if (c >= ib) return;
    T acc[kRows];
#pragma unroll
    for (int e = 0; e < kRows; ++e) acc[e] = T(0);
    const T *Sc = S + (jb + c);
    /* Unrolled by kIB so many independent shared loads are in flight. Rows
     * past n read row n-1 (valid memory) and are never stored. */
    for (int k0 = 0; k0 < jb; k0 += kIB) {
#pragma unroll
        for (int k = k0; k < k0 + kIB; ++k) {
            const T b = Sc[k * lds];
#pragma unroll
            for (int e = 0; e < kRows; ++e) {
                const int i = min(jb + rg + e * kRowStride, n - 1);
                acc[e] += S[i + k * lds] * b;
            }
        }
    }
#pragma unroll
    for (int e = 0; e < kRows; ++e) {
        const int i = jb + rg + e * kRowStride;
        if (i < n && i >= jb + c) S[i + (jb + c) * lds] -= acc[e];
    }
}

/* D += A * B on the FP64 tensor cores: one 8x8x4 step for the whole warp.
 * Lane l holds A[l/4][l%4], B[l%4][l/4] and D[l/4][2(l%4) .. 2(l%4)+1]. */
__device__ __forceinline__ void dmma_8x8x4(double &d0, double &d1, double a, double b)
{
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
                 "{%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(d0), "+d"(d1) : "d"(a), "d"(b));
}

/* Double precision (a): the update is an (n-jb) x 8 x jb product, so each
 * warp takes 8-row tiles and runs it on DMMA; two tiles and two k-phases per
 * warp give four independent accumulator chains. */
template <>
__device__ __forceinline__ void update_inner_panel<double>(double *S, int lds, int n, int jb, int ib)
{
    constexpr int kWarps = kThreads / kWarpSize;
    static_assert(kIB == 8, "the DMMA update assumes an inner block of 8");
    const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
    const int g = lane >> 2, q = lane & 3;
    const int ntiles = (n - jb + 7) / 8;
    const int rb = min(jb + g, n - 1); /* B(k, g) = S[jb+g][k] */
    for (int t = warp; t < ntiles; t += 2 * kWarps) {
        const int t2 = t + kWarps;
        const int ra  = min(jb + 8 * t + g, n - 1);
        const int ra2 = min(jb + 8 * t2 + g, n - 1);
        double c[2][2][2] = {}; /* [tile][k phase][pair] */
        for (int k = q; k < jb; k += 8) {
            const double b0 = S[rb + k * lds], b1 = S[rb + (k + 4) * lds];
            dmma_8x8x4(c[0][0][0], c[0][0][1], S[ra + k * lds], b0);
            dmma_8x8x4(c[0][1][0], c[0][1][1], S[ra + (k + 4) * lds], b1);
            if (t2 < ntiles) {
                dmma_8x8x4(c[1][0][0], c[1][0][1], S[ra2 + k * lds], b0);
                dmma_8x8x4(c[1][1][0], c[1][1][1], S[ra2 + (k + 4) * lds], b1);
            }
        }
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const int i = jb + 8 * (u ? t2 : t) + g;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int col = 2 * q + h;
                if (i < n && col < ib && i >= jb + col)
                    S[i + (jb + col) * lds] -= c[u][0][h] + c[u][1][h];
            }
        }
    }
}

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

        /* (a) left-looking update of the inner panel by all threads. */
        if (jb > 0) {
            update_inner_panel(S, lds, n, jb, ib);
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
                        const T rd = rsqrt_t(piv), d = piv * rd;
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
