/*
 * rfp_realign.cu -- rotates every column of a column-major array in place:
 * column j (len elements) is rotated left by s_j = (s0 + ds*j) mod len, i.e.
 * new[i] = old[(i + s_j) mod len].
 *
 * pftrf uses it to move an RFP array with transr = 'N' and even n (leading
 * dimension n + 1, odd) into a layout with leading dimension n and back
 * (rfp_index.h, gchol_rfp_blocks_realigned): each of its columns is two
 * pieces of two triangles, and swapping the pieces is exactly that layout.
 *
 * A rotation is three reversals, [h t] -> [h^R t^R] -> [t h]: both passes are
 * independent pairwise swaps, so no workspace is needed. One block owns a
 * column at a time, and the grid is one block per SM so that the column
 * (at most a few hundred KB) is still in L2 for the second pass.
 */
#include "gchol_kernels.h"

namespace gchol {
namespace {

constexpr int kThreads = 1024, kPairsPerThread = 4;

/* Swaps the pairs q of two reversals at once: pairs [0, pa) reverse
 * p[0, a), pairs [pa, pa + pb) reverse p[a, a + b). Each thread loads all of
 * its pairs before storing any (the pairs are disjoint). */
template <typename T>
__device__ __forceinline__ void reverse_two(T *__restrict__ p, int64_t a, int64_t b)
{
    const int64_t pa = a / 2, pairs = pa + b / 2;
    for (int64_t q0 = 0; q0 < pairs; q0 += (int64_t)kThreads * kPairsPerThread) {
        int64_t lo[kPairsPerThread], hi[kPairsPerThread];
        T vlo[kPairsPerThread], vhi[kPairsPerThread];
#pragma unroll
        for (int u = 0; u < kPairsPerThread; ++u) {
            const int64_t q = q0 + threadIdx.x + (int64_t)u * kThreads;
            if (q < pa) { lo[u] = q; hi[u] = a - 1 - q; }
            else if (q < pairs) { lo[u] = a + (q - pa); hi[u] = a + b - 1 - (q - pa); }
            else { lo[u] = hi[u] = -1; }
            if (lo[u] >= 0) { vlo[u] = p[lo[u]]; vhi[u] = p[hi[u]]; }
        }
#pragma unroll
        for (int u = 0; u < kPairsPerThread; ++u)
            if (lo[u] >= 0) { p[lo[u]] = vhi[u]; p[hi[u]] = vlo[u]; }
    }
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
rotate_columns_kernel(T *__restrict__ A, int64_t len, int64_t ncols, int64_t s0, int64_t ds)
{
    for (int64_t j = blockIdx.x; j < ncols; j += gridDim.x) {
        const int64_t s = ((s0 + ds * j) % len + len) % len;
        if (s == 0) continue;
        T *p = A + j * len;
        reverse_two(p, s, len - s);
        __syncthreads(); /* the first pass's stores before the second's loads */
        reverse_two(p, len, 0); /* the next column is disjoint: no barrier */
    }
}

template <typename T>
int launch(T *dA, int64_t len, int64_t ncols, int64_t s0, int64_t ds, cudaStream_t stream)
{
    if (len <= 1 || ncols <= 0) return cudaSuccess;
    int dev = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess) return e;
    const int64_t grid = ncols < sms ? ncols : sms;
    rotate_columns_kernel<T><<<(unsigned)grid, kThreads, 0, stream>>>(dA, len, ncols, s0, ds);
    return cudaGetLastError();
}

} // namespace
} // namespace gchol

extern "C" int gchol_drotate_columns_launch(double *dA, int64_t len, int64_t ncols, int64_t s0,
                                            int64_t ds, cudaStream_t stream)
{
    return gchol::launch<double>(dA, len, ncols, s0, ds, stream);
}

extern "C" int gchol_srotate_columns_launch(float *dA, int64_t len, int64_t ncols, int64_t s0,
                                            int64_t ds, cudaStream_t stream)
{
    return gchol::launch<float>(dA, len, ncols, s0, ds, stream);
}
