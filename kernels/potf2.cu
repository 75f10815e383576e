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

#include "tile_factor.cuh"

namespace {

using namespace gchol;

constexpr int kMaxN = GCHOL_POTF2_MAX_N;

template <typename T>
__global__ void __launch_bounds__(kThreads)
potf2_kernel(int n, T *__restrict__ dA, int64_t ldda, int upper, int64_t col0,
             int64_t *__restrict__ dinfo)
{
    extern __shared__ unsigned char smem_raw[];
    T *S = reinterpret_cast<T *>(smem_raw);
    __shared__ int fail_flag;

    if (*(volatile int64_t *)dinfo != 0) return; /* an earlier tile failed */

    const int lds = tile_ld(n);

    /* The lower view, its strict upper part zeroed so every shared read is
     * of initialised memory. */
    load_view_tile(S, lds, dA, ldda, upper, n, n, kLowerTriangle);
    __syncthreads();
    const int fail = potf2_tile<T, kMaxN>(S, lds, n, &fail_flag);
    if (fail >= 0 && threadIdx.x == 0)
        atomicCAS(reinterpret_cast<unsigned long long *>(dinfo), 0ull,
                  (unsigned long long)(col0 + fail + 1));

    /* Store the referenced triangle back; the other one is never written. */
    store_view_tile(dA, ldda, upper, S, lds, n, n, kLowerTriangle);
}

/* gchol_dpotf2_launch, gchol_spotf2_launch */
template <typename T>
int potf2_launch(int64_t n, T *dA, int64_t ldda, int upper, int64_t col0,
                 int64_t *dinfo, cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    if (n > kMaxN) return cudaErrorInvalidValue;
    const int nn = (int)n;
    const size_t smem = (size_t)nn * (size_t)tile_ld(nn) * sizeof(T);
    static DeviceFlags opted_in;
    cudaError_t e = opt_in_shared(potf2_kernel<T>, (size_t)kMaxN * tile_ld(kMaxN) * sizeof(T), opted_in);
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
