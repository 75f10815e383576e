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

#include "tile_common.cuh"

namespace {

using namespace gchol;

constexpr int kMaxN        = GCHOL_POTF2_MAX_N;
constexpr int kRowsPerLane = kMaxN / kWarpSize; /* rows of the panel per lane in (b) */

static_assert(kIB <= kWarpSize, "the inner block must fit in one warp");

/* 1/sqrt in one call: the pivot's reciprocal is what the column scaling
 * needs, and sqrt followed by a division costs twice the latency on the
 * panel's critical path. */
template <typename T> __device__ __forceinline__ T rsqrt_t(T x);
template <typename T> __device__ __forceinline__ T sqrt_t(T x) { return sqrt(x); }
template <> __device__ __forceinline__ double rsqrt_t<double>(double x) { return rsqrt(x); }
template <> __device__ __forceinline__ float rsqrt_t<float>(float x) { return rsqrtf(x); }

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

    /* The lower view, its strict upper part zeroed so every shared read is
     * of initialised memory. */
    load_view_tile(S, lds, dA, ldda, upper, n, n, kLowerTriangle);
    if (tid == 0) failed = 0;
    __syncthreads();

    const int lane = tid % kWarpSize, warp = tid / kWarpSize;

    for (int jb = 0; jb < n; jb += kIB) {
        const int ib = min(kIB, n - jb);

        /* (a) left-looking update of the inner panel by all threads. */
        if (jb > 0) {
            T *P = S + jb; /* rows jb.. of the tile */
            inner_update<T, kMaxN>(P + jb * lds, lds, P, lds, P, lds, n - jb, ib, jb, true);
            __syncthreads();
        }

        /* (b) warp 0 factors the n-jb by ib panel in registers. Lane l holds
         * rows jb + l + 32 e; row jb + c of the diagonal block is lane c.
         * Every shuffle runs unconditionally and columns past ib or past a
         * failure are masked by selects: with no branch around them the
         * compiler emits plain SHFLs instead of divergence-safe loops. */
        if (warp == 0) {
            T p[kRowsPerLane][kIB];
#pragma unroll
            for (int e = 0; e < kRowsPerLane; ++e) {
                const int i = min(jb + lane + e * kWarpSize, n - 1);
#pragma unroll
                for (int c = 0; c < kIB; ++c) p[e][c] = S[i + (jb + min(c, ib - 1)) * lds];
            }
            int fail_col = -1; /* same value in every lane */
#pragma unroll
            for (int c = 0; c < kIB; ++c) {
                const T piv = __shfl_sync(0xffffffffu, p[0][c], c);
                const bool live = c < ib && fail_col < 0;
                if (live && !(piv > T(0))) fail_col = jb + c; /* also catches NaN */
                const bool act = live && fail_col < 0;
                /* d from sqrt, not piv * rd: an infinite pivot must give
                 * d = Inf and a zero column, as in LAPACK, not Inf*0 = NaN. */
                const T rd = rsqrt_t(piv), d = sqrt_t(piv);
#pragma unroll
                for (int e = 0; e < kRowsPerLane; ++e) {
                    const int i = jb + lane + e * kWarpSize;
                    const T scaled = (i == jb + c) ? d : p[e][c] * rd;
                    p[e][c] = act ? scaled : p[e][c];
                }
#pragma unroll
                for (int c2 = c + 1; c2 < kIB; ++c2) {
                    const T l = __shfl_sync(0xffffffffu, p[0][c], c2);
#pragma unroll
                    for (int e = 0; e < kRowsPerLane; ++e) {
                        const T upd = p[e][c2] - p[e][c] * l;
                        p[e][c2] = act ? upd : p[e][c2];
                    }
                }
            }
            /* Lanes past the tile read row n-1, which its owner lane writes
             * back below: order those reads before the writes explicitly. */
            __syncwarp();
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
    store_view_tile(dA, ldda, upper, S, lds, n, n, kLowerTriangle);
}

template <typename T>
int potf2_launch(int64_t n, T *dA, int64_t ldda, int upper, int64_t col0,
                 int64_t *dinfo, cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    if (n > kMaxN) return cudaErrorInvalidValue;
    const int nn = (int)n;
    const size_t smem = (size_t)nn * (size_t)(nn | 1) * sizeof(T);
    static bool opted_in[64];
    cudaError_t e = opt_in_shared(potf2_kernel<T>, (size_t)kMaxN * (kMaxN | 1) * sizeof(T), opted_in);
    if (e != cudaSuccess) return e;
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
