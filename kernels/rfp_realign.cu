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
 * One block owns a column at a time. Two methods:
 * - piece in shared memory (default where it fits: the smaller piece is at
 *   most (n+1)/2 elements, 128 KB at n = 32768 in double): save the smaller
 *   piece, move the larger one over it in chunks (each chunk loaded, a
 *   barrier, then stored, walking away from the data not yet read), put the
 *   saved piece back at the other end. One read and one write per element.
 * - three reversals, [h t] -> [h^R t^R] -> [t h]: independent pairwise swaps,
 *   no workspace at all, but two reads and two writes per element (half of
 *   it from L2 at best); for columns whose smaller piece does not fit.
 */
#include "gchol_kernels.h"

#include "tile_common.cuh"

namespace gchol {
namespace {

constexpr int kThreads = 1024, kPairsPerThread = 4, kMovePerThread = 8;

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

/* p[dst + i] = p[src + i] for i in [0, cnt), in place, |dst - src| >= 1:
 * chunks walk away from what is not yet read (ascending when moving down). */
template <typename T>
__device__ __forceinline__ void move_within(T *__restrict__ p, int64_t dst, int64_t src, int64_t cnt)
{
    constexpr int64_t kChunk = (int64_t)kThreads * kMovePerThread;
    const bool down = dst < src;
    for (int64_t c = 0; c < cnt; c += kChunk) {
        const int64_t base = down ? c : (cnt - c - kChunk); /* may be negative going up */
        T v[kMovePerThread];
#pragma unroll
        for (int u = 0; u < kMovePerThread; ++u) {
            const int64_t i = base + threadIdx.x + (int64_t)u * kThreads;
            if (i >= 0 && i < cnt) v[u] = p[src + i];
        }
        __syncthreads(); /* the chunk's loads before its stores, which may overlap them */
#pragma unroll
        for (int u = 0; u < kMovePerThread; ++u) {
            const int64_t i = base + threadIdx.x + (int64_t)u * kThreads;
            if (i >= 0 && i < cnt) p[dst + i] = v[u];
        }
    }
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
rotate_columns_smem_kernel(T *__restrict__ A, int64_t len, int64_t ncols, int64_t s0, int64_t ds)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *piece = reinterpret_cast<T *>(smem_raw);
    for (int64_t j = blockIdx.x; j < ncols; j += gridDim.x) {
        const int64_t s = ((s0 + ds * j) % len + len) % len;
        if (s == 0) continue;
        T *p = A + j * len;
        if (s <= len - s) { /* [h t] -> [t h], h (s) saved */
            for (int64_t i = threadIdx.x; i < s; i += kThreads) piece[i] = p[i];
            __syncthreads();
            move_within(p, 0, s, len - s);
            __syncthreads(); /* every load of the move before h lands on its tail */
            for (int64_t i = threadIdx.x; i < s; i += kThreads) p[len - s + i] = piece[i];
        } else {            /* [h t] -> [t h], t (len - s) saved */
            const int64_t t = len - s;
            for (int64_t i = threadIdx.x; i < t; i += kThreads) piece[i] = p[s + i];
            __syncthreads();
            move_within(p, t, 0, s);
            __syncthreads();
            for (int64_t i = threadIdx.x; i < t; i += kThreads) p[i] = piece[i];
        }
        __syncthreads(); /* the piece buffer is reused by the next column */
    }
}

/* gchol_drotate_columns_launch, gchol_srotate_columns_launch */
template <typename T>
int launch(T *dA, int64_t len, int64_t ncols, int64_t s0, int64_t ds, int method,
           cudaStream_t stream)
{
    if (len <= 1 || ncols <= 0) return cudaSuccess;
    int dev = 0, sms = 0, smem_max = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    if (e != cudaSuccess) return e;
    const size_t piece_bytes = (size_t)(len / 2) * sizeof(T);
    int per_sm = 0;
    bool smem = method != GCHOL_ROTATE_REVERSALS && piece_bytes <= (size_t)smem_max;
    if (method == GCHOL_ROTATE_SMEM && !smem) return cudaErrorInvalidValue;
    if (smem) {
        /* the device's whole opt-in limit, once: a per-call size could lower
         * it under another host thread's launch */
        static DeviceFlags opted_in;
        e = opt_in_shared(rotate_columns_smem_kernel<T>, (size_t)smem_max, opted_in);
        if (e == cudaSuccess)
            e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &per_sm, rotate_columns_smem_kernel<T>, kThreads, piece_bytes);
        if (e != cudaSuccess) {
            if (method == GCHOL_ROTATE_SMEM) return e;
            (void)cudaGetLastError(); /* auto: the reversals need none of it */
            smem = false;
        }
    }
    if (!smem) {
        const int64_t grid = ncols < sms ? ncols : sms;
        rotate_columns_kernel<T><<<(unsigned)grid, kThreads, 0, stream>>>(dA, len, ncols, s0, ds);
        return cudaGetLastError();
    }
    const int64_t resident = (int64_t)sms * (per_sm > 0 ? per_sm : 1);
    const int64_t grid = ncols < resident ? ncols : resident;
    rotate_columns_smem_kernel<T><<<(unsigned)grid, kThreads, piece_bytes, stream>>>(
        dA, len, ncols, s0, ds);
    return cudaGetLastError();
}

} // namespace
} // namespace gchol

extern "C" int gchol_drotate_columns_launch(double *dA, int64_t len, int64_t ncols, int64_t s0,
                                            int64_t ds, int method, cudaStream_t stream)
{
    return gchol::launch<double>(dA, len, ncols, s0, ds, method, stream);
}

extern "C" int gchol_srotate_columns_launch(float *dA, int64_t len, int64_t ncols, int64_t s0,
                                            int64_t ds, int method, cudaStream_t stream)
{
    return gchol::launch<float>(dA, len, ncols, s0, ds, method, stream);
}
