/*
 * potrf_batched_cublas.cu -- the kernels of the batched Cholesky by block
 * columns on cuBLAS's batched products (src/potrf_batched_cublas.c): a
 * step's pointer arrays, and the panel step, which finishes a block column
 * of every matrix in one launch (the product's sums added, the diagonal
 * block factored, the rows below solved). Grid-stride loops over the
 * batch: any count.
 */
#include "gchol_kernels.h"
#include "potrf_batched_small.cuh"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 1 << 20;

struct Offsets {
    int64_t at[GCHOL_BATCHED_PTRS_MAX];
    int count;
};

template <typename T>
__global__ void __launch_bounds__(kThreads)
    batched_ptrs_kernel(int64_t count, T *A, T *const *A_array, int64_t stride, Offsets off,
                        T **out)
{
    for (int64_t b = blockIdx.x * (int64_t)kThreads + threadIdx.x; b < count;
         b += (int64_t)gridDim.x * kThreads) {
        T *base = A_array ? A_array[b] : A + b * stride;
        for (int c = 0; c < off.count; ++c) out[c * count + b] = base + off.at[c];
    }
}

/* The panel step: a block of kPanelThreads per matrix, the diagonal block
 * by warp 0 in registers (lane r row r, shuffles), then each row below by
 * one thread (x := x L11^-T, L11 broadcast from shared memory). The other
 * warps' first rows are loaded before the barrier, in flight while warp 0
 * factors. 128 threads a block: four rows a thread at n = 512, and three
 * blocks an SM (168 registers a thread; at 128, double spills 6 KB). */
constexpr int kPanelThreads = 128, kPanelW = GCHOL_BATCHED_PANEL_MAX;
static_assert(kPanelW == 32, "a lane per column of the diagonal block");

/* Row r of the panel's lower view, its kb columns: A's entries plus the
 * product's sums (when there are any), 0 past kb. */
template <typename T>
__device__ __forceinline__ void panel_row(T (&x)[kPanelW], const T *P, int64_t ld, const T *w,
                                          int64_t ldw, int upper, int r, int kb)
{
#pragma unroll
    for (int c = 0; c < kPanelW; ++c) {
        x[c] = T(0);
        if (c < kb) {
            x[c] = P[view_at(r, c, ld, upper)];
            if (w) x[c] += w[view_at(r, c, ldw, upper)];
        }
    }
}

template <typename T>
__global__ void __launch_bounds__(kPanelThreads, 3)
    batched_panel_kernel(int64_t count, int kb, int rows, int upper, T *A, T *const *A_array,
                         int64_t stride, int64_t ld, int64_t k, const T *W, int64_t ldw,
                         int64_t wstride, int64_t *dinfo)
{
    __shared__ T L11[kPanelW * (kPanelW + 1)]; /* L11(r, c) at L11[r * (kPanelW + 1) + c] */
    __shared__ T inv_diag[kPanelW];
    __shared__ int fail_s;
    const int tid = threadIdx.x, lane = tid % 32;
    for (int64_t b = blockIdx.x; b < count; b += gridDim.x) {
        /* a matrix that failed in an earlier block column is left as it is
         * (uniform; its dinfo is written below, after every read of it) */
        if (dinfo[b] != 0) continue;
        T *P = (A_array ? A_array[b] : A + b * stride) + k + k * ld; /* A(k, k) */
        const T *w = W ? W + b * wstride : nullptr;
        /* the first row of warps 1.. in flight while warp 0 factors */
        T x[kPanelW];
        int r = kb + tid;
        if (tid >= 32 && r < rows) panel_row(x, P, ld, w, ldw, upper, r, kb);
        if (tid < 32) {
            T a[kPanelW];
#pragma unroll
            for (int c = 0; c < kPanelW; ++c) {
                a[c] = T(0);
                if (lane < kb && c <= lane) {
                    a[c] = P[view_at(lane, c, ld, upper)];
                    if (w) a[c] += w[view_at(lane, c, ldw, upper)];
                }
            }
            const int fail = factor_diag_block_warp(a, kb, lane, inv_diag);
#pragma unroll
            for (int c = 0; c < kPanelW; ++c) {
                if (lane < kb && c <= lane) P[view_at(lane, c, ld, upper)] = a[c];
                L11[lane * (kPanelW + 1) + c] = c <= lane ? a[c] : T(0);
            }
            if (lane == 0) fail_s = fail;
        }
        __syncthreads();
        /* the rows below get the columns before a failed pivot */
        const int good = fail_s ? fail_s - 1 : kb;
        /* read where used: hoisted out of the row loop, L11's 496 entries
         * would not fit in registers */
        const volatile T *Lv = L11;
#pragma unroll 1
        for (; r < rows; r += kPanelThreads) {
            if (tid < 32 || r != kb + tid) panel_row(x, P, ld, w, ldw, upper, r, kb);
#pragma unroll
            for (int j = 0; j < kPanelW; ++j) {
                if (j < good) { /* uniform */
                    x[j] *= inv_diag[j];
#pragma unroll
                    for (int c = j + 1; c < kPanelW; ++c) x[c] -= x[j] * Lv[c * (kPanelW + 1) + j];
                }
            }
#pragma unroll
            for (int c = 0; c < kPanelW; ++c)
                if (c < kb) P[view_at(r, c, ld, upper)] = x[c];
        }
        __syncthreads(); /* the shared block read before the next matrix's */
        if (tid == 0 && fail_s) dinfo[b] = k + fail_s;
    }
}

unsigned blocks_for(int64_t units)
{
    return (unsigned)(units < kMaxBlocks ? (units > 0 ? units : 1) : kMaxBlocks);
}

template <typename T>
int ptrs_launch(int64_t count, T *A, T *const *A_array, int64_t stride, const int64_t *off,
                int noff, T **out, cudaStream_t stream)
{
    if (count <= 0) return cudaSuccess;
    if (noff < 1 || noff > GCHOL_BATCHED_PTRS_MAX) return cudaErrorInvalidValue;
    Offsets o = {};
    for (int c = 0; c < noff; ++c) o.at[c] = off[c];
    o.count = noff;
    batched_ptrs_kernel<T><<<blocks_for((count + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
        count, A, A_array, stride, o, out);
    return cudaGetLastError();
}

template <typename T>
int panel_launch(int64_t count, int64_t kb, int64_t rows, int upper, T *A, T *const *A_array,
                 int64_t stride, int64_t ld, int64_t k, const T *W, int64_t ldw, int64_t wstride,
                 int64_t *dinfo, cudaStream_t stream)
{
    if (count <= 0 || kb <= 0) return cudaSuccess;
    if (kb > kPanelW || rows < kb || rows > 0x7fffffff) return cudaErrorInvalidValue;
    batched_panel_kernel<T><<<blocks_for(count), kPanelThreads, 0, stream>>>(
        count, (int)kb, (int)rows, upper, A, A_array, stride, ld, k, W, ldw, wstride, dinfo);
    return cudaGetLastError();
}

} // namespace

extern "C" {

int gchol_dbatched_ptrs_launch(int64_t count, double *dA, double *const *dA_array,
                               int64_t stride, const int64_t *off, int noff, double **out,
                               cudaStream_t stream)
{
    return ptrs_launch(count, dA, dA_array, stride, off, noff, out, stream);
}
int gchol_sbatched_ptrs_launch(int64_t count, float *dA, float *const *dA_array, int64_t stride,
                               const int64_t *off, int noff, float **out, cudaStream_t stream)
{
    return ptrs_launch(count, dA, dA_array, stride, off, noff, out, stream);
}
int gchol_dbatched_panel_launch(int64_t count, int64_t kb, int64_t rows, int upper, double *dA,
                                double *const *dA_array, int64_t stride, int64_t ldda, int64_t k,
                                const double *W, int64_t ldw, int64_t wstride, int64_t *dinfo,
                                cudaStream_t stream)
{
    return panel_launch(count, kb, rows, upper, dA, dA_array, stride, ldda, k, W, ldw, wstride,
                        dinfo, stream);
}
int gchol_sbatched_panel_launch(int64_t count, int64_t kb, int64_t rows, int upper, float *dA,
                                float *const *dA_array, int64_t stride, int64_t ldda, int64_t k,
                                const float *W, int64_t ldw, int64_t wstride, int64_t *dinfo,
                                cudaStream_t stream)
{
    return panel_launch(count, kb, rows, upper, dA, dA_array, stride, ldda, k, W, ldw, wstride,
                        dinfo, stream);
}

} // extern "C"
