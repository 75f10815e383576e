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
 * by warp 0 (lane r row r in registers), then each row below by one thread
 * (x := x L_kk^-T). Both are loops over the block's columns that are not
 * unrolled: a row's registers shift by one column each step (a[c] :=
 * a[c + 1] - l L(k + 1 + c, k), in place), so column k is always a[0] and
 * the kernel stays a few kilobytes of code. Fully unrolled, the block's
 * triangle made the kernel larger than the instruction cache, and it ran
 * slower than cuBLAS's trsmBatched. Column k's entries below its diagonal
 * go to shared memory, the rows' right factor (16-byte broadcasts). The
 * other warps' first rows are loaded before the barrier, in flight while
 * warp 0 factors. */
constexpr int kPanelThreads = 128, kPanelW = GCHOL_BATCHED_PANEL_MAX;
static_assert(kPanelW == 32, "a lane per row of the diagonal block");

/* A row's kb entries (element c at p[c * cs]) plus the product's sums (at
 * w[c * wcs], when there are any); 0 past kb. */
template <typename T>
__device__ __forceinline__ void panel_row(T (&x)[kPanelW], const T *p, int64_t cs, const T *w,
                                          int64_t wcs, int kb)
{
    if (w) {
#pragma unroll
        for (int c = 0; c < kPanelW; ++c, p += cs, w += wcs) x[c] = c < kb ? *p + *w : T(0);
    } else {
#pragma unroll
        for (int c = 0; c < kPanelW; ++c, p += cs) x[c] = c < kb ? *p : T(0);
    }
}

/* x[c] := x[c + 1] - f col[c] (x[kPanelW - 1] := -f col[kPanelW - 1]):
 * the row's next column to x[0], with column k's update (col: L(k + 1 + c,
 * k), 0 past the block). */
template <typename T>
__device__ __forceinline__ void shift_update(T (&x)[kPanelW], T f, const T *col)
{
    using V = Vec16<T>;
    constexpr int W = V::width;
#pragma unroll
    for (int c = 0; c < kPanelW; c += W) {
        const typename V::type v = *reinterpret_cast<const typename V::type *>(col + c);
#pragma unroll
        for (int t = 0; t < W; ++t)
            x[c + t] = (c + t + 1 < kPanelW ? x[c + t + 1] : T(0)) - f * V::at(v, t);
    }
}

template <typename T>
__global__ void __launch_bounds__(kPanelThreads, 4)
    batched_panel_kernel(int64_t count, int kb, int rows, int upper, T *A, T *const *A_array,
                         int64_t stride, int64_t ld, int64_t k0, const T *W, int64_t ldw,
                         int64_t wstride, int64_t *dinfo)
{
    /* column k below its diagonal, L(k + 1 + c, k), at Lcol[k * kPanelW + c] */
    __shared__ __align__(16) T Lcol[kPanelW * kPanelW];
    __shared__ T inv_diag[kPanelW];
    __shared__ int fail_s;
    const int tid = threadIdx.x, lane = tid % 32;
    /* the lower view's (r, c) at r * rs + c * cs, in A and in W */
    const int64_t rs = upper ? ld : 1, cs = upper ? 1 : ld;
    const int64_t wrs = upper ? ldw : 1, wcs = upper ? 1 : ldw;
    for (int64_t b = blockIdx.x; b < count; b += gridDim.x) {
        /* a matrix that failed in an earlier block column is left as it is
         * (uniform; its dinfo is written below, after every read of it) */
        if (dinfo[b] != 0) continue;
        T *P = (A_array ? A_array[b] : A + b * stride) + k0 + k0 * ld; /* A(k0, k0) */
        const T *w = W ? W + b * wstride : nullptr;
        T x[kPanelW];
        int r = kb + tid;
        if (tid >= 32) {
            if (r < rows) panel_row(x, P + r * rs, cs, w ? w + r * wrs : nullptr, wcs, kb);
        } else {
            T a[kPanelW];
            /* lanes past the block: zeros */
            panel_row(a, P + lane * rs, cs, w ? w + lane * wrs : nullptr, wcs, lane < kb ? kb : 0);
            int fail = 0;
#pragma unroll 1
            for (int k = 0; k < kb; ++k) {
                const T pivot = __shfl_sync(0xffffffffu, a[0], k);
                const bool mine = lane >= k && lane < kb; /* rows with a column k */
                if (!(pivot > T(0))) { /* uniform: column k stays unscaled */
                    fail = k + 1;
                    if (mine) P[lane * rs + k * cs] = a[0];
                    break;
                }
                /* side by side rather than 1 / d: each step's latency is
                 * the block's */
                const T d = sqrt(pivot), rd = rsqrt_of(pivot);
                const T l = lane == k ? d : a[0] * rd;
                if (mine) P[lane * rs + k * cs] = l;
                if (lane == k) inv_diag[k] = rd;
                /* lanes past k: their L(lane, k); the others zero the tail */
                Lcol[k * kPanelW + (lane > k ? lane - k - 1 : kPanelW - 1 - lane)] =
                    lane > k ? l : T(0);
                __syncwarp();
                shift_update(a, l, Lcol + k * kPanelW);
            }
            if (lane == 0) fail_s = fail;
        }
        __syncthreads();
        /* the rows below get the columns before a failed pivot */
        const int good = fail_s ? fail_s - 1 : kb;
#pragma unroll 1
        for (; r < rows; r += kPanelThreads) {
            T *pr = P + r * rs;
            if (tid < 32 || r != kb + tid)
                panel_row(x, pr, cs, w ? w + r * wrs : nullptr, wcs, kb);
#pragma unroll 1
            for (int j = 0; j < good; ++j) {
                const T xj = x[0] * inv_diag[j];
                pr[j * cs] = xj;
                shift_update(x, xj, Lcol + j * kPanelW);
            }
        }
        __syncthreads(); /* the shared columns read before the next matrix's */
        if (tid == 0 && fail_s) dinfo[b] = k0 + fail_s;
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
