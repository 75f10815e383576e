/*
 * potrf_batched_cublas.cu -- the kernels of the batched Cholesky by block
 * columns on cuBLAS's batched products (src/potrf_batched_cublas.c): a
 * step's pointer arrays, and the panel step, which finishes a block column
 * of every matrix (the product's sums added, the diagonal block factored,
 * the rows below solved), and the trailing matrices' copies for the live
 * tiles kernel. Grid-stride loops over the batch: any count.
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

/* The panel step in two launches (or in one, batched_fused_kernel
 * below). The diagonal blocks: a warp per matrix,
 * lane r holding row r in registers, plus the product's sums from W, L_kk
 * to A. The rows below: a block of kPanelThreads per kPanelThreads rows of
 * one matrix, a row a thread, x := x L_kk^-T with L_kk's columns read from
 * A into shared memory (16-byte broadcasts). Apart, the
 * rows' blocks never wait on a factorization, so the loads stay in flight;
 * in one block per matrix, three warps waited on the fourth's and the
 * step ran at 1.6 TB/s.
 *
 * Both are loops over the block's columns that are not unrolled: a row's
 * registers shift by one column each step (x[c] := x[c + 1] -
 * f L(k + 1 + c, k), in place), so column k is always x[0] and the code
 * stays a few kilobytes. Fully unrolled, the block's triangle made the
 * kernel larger than the instruction cache, slower than cuBLAS's
 * trsmBatched. */
constexpr int kPanelThreads = 128, kPanelW = GCHOL_BATCHED_PANEL_MAX;
constexpr int kDiagWarps = kPanelThreads / 32;
static_assert(kPanelW == 32, "a lane per row of the diagonal block");

/* A row's kb entries (element c at p[c * cs]) plus the sums (at w[c *
 * wcs], when there are any); 0 past kb. */
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

/* The lower view's (r, c) at r * rs + c * cs. */
struct Strides {
    int64_t rs, cs;
    __device__ Strides(int upper, int64_t ld) : rs(upper ? ld : 1), cs(upper ? 1 : ld) {}
};

/* Warp work on one matrix's diagonal block: lane r holds row r of the
 * block plus its sums (a, zeros past kb). Factors it in place, L_kk to A
 * (P its top left), column k's entries below the diagonal to Lcol[k * 32 +
 * c] (zeros past the block) and 1/L(k, k) to rdiag[k] (when given), for the
 * columns before a failed pivot. Returns 0, or the failed column (1-based);
 * that column is left unscaled in A. */
template <typename T>
__device__ __forceinline__ int factor_diag_warp(T (&a)[kPanelW], T *P, const Strides &a_at,
                                                int kb, int lane, T *Lcol, T *rdiag)
{
#pragma unroll 1
    for (int k = 0; k < kb; ++k) {
        const T pivot = __shfl_sync(0xffffffffu, a[0], k);
        const bool mine = lane >= k && lane < kb; /* rows with a column k */
        if (!(pivot > T(0))) { /* uniform: column k stays unscaled */
            if (mine) P[lane * a_at.rs + k * a_at.cs] = a[0];
            return k + 1;
        }
        /* L(k, k) as pivot * rsqrt(pivot) (LAPACK's sqrt(Inf) for an
         * infinite pivot): one special-function chain a step, each step's
         * latency being the whole step's (100 matrices of 512 in single:
         * 0.53 ms against 0.56 with sqrt beside rsqrt) */
        const T rd = rsqrt_of(pivot);
        const T l = lane == k ? (isinf(pivot) ? pivot : pivot * rd) : a[0] * rd;
        if (mine) P[lane * a_at.rs + k * a_at.cs] = l;
        if (rdiag && lane == k) rdiag[k] = rd;
        /* lanes past k: their L(lane, k); the others zero the tail */
        const int c = lane > k ? lane - k - 1 : kPanelW - 1 - lane;
        const T v = lane > k ? l : T(0);
        Lcol[k * kPanelW + c] = v;
        __syncwarp();
        shift_update<kPanelW>(a, l, Lcol + k * kPanelW);
    }
    return 0;
}

/* A row of the panel solved by the block's first good columns: x := x
 * L_kk^-T, each entry stored to pr as it is final. */
template <typename T>
__device__ __forceinline__ void solve_row(T (&x)[kPanelW], T *pr, int64_t cs, int good,
                                          const T *Lcol, const T *rdiag)
{
#pragma unroll 1
    for (int j = 0; j < good; ++j) {
        const T xj = x[0] * rdiag[j];
        pr[j * cs] = xj;
        shift_update<kPanelW>(x, xj, Lcol + j * kPanelW);
    }
}

template <typename T>
__global__ void __launch_bounds__(kPanelThreads)
    batched_diag_kernel(int64_t count, int kb, int upper, T *A, T *const *A_array,
                        int64_t stride, int64_t ld, int64_t k0, const T *W, int64_t ldw,
                        int64_t wstride, int64_t *dinfo)
{
    __shared__ __align__(16) T Lcol_all[kDiagWarps][kPanelW * kPanelW];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    T *Lcol = Lcol_all[warp];
    const Strides a_at(upper, ld), w_at(upper, ldw);
    for (int64_t b = blockIdx.x * (int64_t)kDiagWarps + warp; b < count;
         b += (int64_t)gridDim.x * kDiagWarps) {
        if (dinfo[b] != 0) continue; /* failed in an earlier block column: left alone */
        T *P = (A_array ? A_array[b] : A + b * stride) + k0 + k0 * ld; /* A(k0, k0) */
        const T *w = W ? W + b * wstride + lane * w_at.rs : nullptr;
        T a[kPanelW];
        /* lanes past the block: zeros */
        panel_row(a, P + lane * a_at.rs, a_at.cs, w, w_at.cs, lane < kb ? kb : 0);
        const int fail = factor_diag_warp(a, P, a_at, kb, lane, Lcol, static_cast<T *>(nullptr));
        if (fail && lane == 0) dinfo[b] = k0 + fail;
        __syncwarp(); /* Lcol read before the next matrix's */
    }
}

/* The panel step in one launch, for batches too small to fill the GPU
 * with the two above: a block per matrix, warp 0 factoring the diagonal
 * block while the other warps' rows (a row a thread, the sums from W added
 * to every row) are in flight, then those warps solve them. */
constexpr int kFusedThreads = 512;

template <typename T>
__global__ void __launch_bounds__(kFusedThreads)
    batched_fused_kernel(int64_t count, int kb, int rows, int upper, T *A, T *const *A_array,
                         int64_t stride, int64_t ld, int64_t k0, const T *W, int64_t ldw,
                         int64_t wstride, int64_t *dinfo)
{
    __shared__ __align__(16) T Lcol[kPanelW * kPanelW];
    __shared__ T rdiag[kPanelW];
    __shared__ int s_good;
    const int tid = threadIdx.x, lane = tid % 32, solvers = (int)blockDim.x - 32;
    const Strides a_at(upper, ld), w_at(upper, ldw);
    for (int64_t b = blockIdx.x; b < count; b += gridDim.x) {
        /* read by every thread before the first barrier, written after it */
        if (dinfo[b] != 0) continue;
        T *P = (A_array ? A_array[b] : A + b * stride) + k0 + k0 * ld; /* A(k0, k0) */
        const T *w = W ? W + b * wstride : nullptr;
        T x[kPanelW];
        int r = kb + tid - 32; /* a solver's first row */
        if (tid < 32) {
            panel_row(x, P + lane * a_at.rs, a_at.cs, w ? w + lane * w_at.rs : nullptr,
                      w_at.cs, lane < kb ? kb : 0);
            const int fail = factor_diag_warp(x, P, a_at, kb, lane, Lcol, rdiag);
            if (lane == 0) s_good = fail ? fail - 1 : kb;
        } else if (r < rows) {
            panel_row(x, P + r * a_at.rs, a_at.cs, w ? w + r * w_at.rs : nullptr, w_at.cs, kb);
        }
        __syncthreads();
        const int good = s_good;
        if (tid == 0 && good < kb) dinfo[b] = k0 + good + 1;
        if (tid >= 32)
            for (; r < rows; r += solvers) {
                if (r >= kb + solvers) /* rows past the block's first pass */
                    panel_row(x, P + r * a_at.rs, a_at.cs, w ? w + r * w_at.rs : nullptr,
                              w_at.cs, kb);
                solve_row(x, P + r * a_at.rs, a_at.cs, good, Lcol, rdiag);
            }
        __syncthreads(); /* Lcol, rdiag and s_good read before the next matrix's */
    }
}

template <typename T>
__global__ void __launch_bounds__(kPanelThreads)
    batched_solve_kernel(int64_t count, int kb, int rows, int upper, T *A, T *const *A_array,
                         int64_t stride, int64_t ld, int64_t k0, const int64_t *dinfo)
{
    __shared__ __align__(16) T Lcol[kPanelW * kPanelW]; /* L(k + 1 + c, k) at [k * 32 + c] */
    __shared__ T rdiag[kPanelW];
    const int tid = threadIdx.x;
    const int64_t parts = (rows - kb + kPanelThreads - 1) / kPanelThreads;
    const Strides a_at(upper, ld);
    for (int64_t id = blockIdx.x; id < count * parts; id += gridDim.x) {
        const int64_t b = id / parts;
        /* the good columns: all, those before this block's failed pivot,
         * or none where an earlier block failed (uniform) */
        const int64_t info = dinfo[b];
        if (info != 0 && info <= k0) continue;
        const int good = info == 0 ? kb : (int)(info - k0 - 1);
        T *P = (A_array ? A_array[b] : A + b * stride) + k0 + k0 * ld; /* A(k0, k0) */
        const int r = kb + (int)(id % parts) * kPanelThreads + tid;
        T *pr = P + r * a_at.rs;
        T x[kPanelW]; /* loaded first: in flight while L_kk is */
        if (r < rows) panel_row(x, pr, a_at.cs, static_cast<const T *>(nullptr), 0, kb);
        __syncthreads(); /* the previous matrix's Lcol read */
        /* L_kk from A: column k's rows below the diagonal, 0 past the block */
        for (int e = tid; e < kPanelW * kPanelW; e += kPanelThreads) {
            const int k = e / kPanelW, i = k + 1 + e % kPanelW;
            Lcol[e] = k < good && i < kb ? P[i * a_at.rs + k * a_at.cs] : T(0);
        }
        if (tid < good) rdiag[tid] = T(1) / P[tid * (a_at.rs + a_at.cs)];
        __syncthreads();
        if (r >= rows) continue;
        solve_row(x, pr, a_at.cs, good, Lcol, rdiag);
    }
}

/* The trailing matrices' view triangles, n x n at A(k0, k0) (n <=
 * kTrailingMax), to W + b * wstride (leading dimension ldw, the same
 * view): a warp a column, its loads all in flight before the stores. */
constexpr int kTrailingMax = 256;

template <typename T>
__global__ void __launch_bounds__(kThreads)
    batched_trailing_copy_kernel(int64_t count, int n, int upper, const T *A, T *const *A_array,
                                 int64_t stride, int64_t ld, int64_t k0, T *W, int64_t ldw,
                                 int64_t wstride)
{
    constexpr int kWarps = kThreads / 32, kPer = kTrailingMax / 32;
    const int lane = threadIdx.x % 32;
    for (int64_t u = blockIdx.x * (int64_t)kWarps + threadIdx.x / 32; u < count * n;
         u += (int64_t)gridDim.x * kWarps) {
        const int64_t b = u / n;
        const int c = (int)(u % n);
        const T *p = (A_array ? A_array[b] : A + b * stride) + k0 + (k0 + c) * ld;
        T *w = W + b * wstride + c * ldw;
        /* column c of the stored triangle: rows c..n-1 ('L'), 0..c ('U') */
        const int r0 = (upper ? 0 : c) + lane, r1 = upper ? c + 1 : n;
        T v[kPer];
#pragma unroll
        for (int i = 0; i < kPer; ++i)
            if (r0 + 32 * i < r1) v[i] = p[r0 + 32 * i];
#pragma unroll
        for (int i = 0; i < kPer; ++i)
            if (r0 + 32 * i < r1) w[r0 + 32 * i] = v[i];
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
                 int fused, int64_t *dinfo, cudaStream_t stream)
{
    if (count <= 0 || kb <= 0) return cudaSuccess;
    if (kb > kPanelW || rows < kb || rows > 0x7fffffff) return cudaErrorInvalidValue;
    if (fused) {
        /* warp 0 and a warp per 32 rows below, at most kFusedThreads */
        const int64_t below = (rows - kb + 31) / 32 * 32;
        const int threads = 32 + (int)(below < kFusedThreads - 32 ? below : kFusedThreads - 32);
        batched_fused_kernel<T><<<blocks_for(count), threads, 0, stream>>>(
            count, (int)kb, (int)rows, upper, A, A_array, stride, ld, k, W, ldw, wstride, dinfo);
        return cudaGetLastError();
    }
    batched_diag_kernel<T><<<blocks_for((count + kDiagWarps - 1) / kDiagWarps), kPanelThreads, 0,
                             stream>>>(count, (int)kb, upper, A, A_array, stride, ld, k, W, ldw,
                                       wstride, dinfo);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || rows == kb) return e;
    const int64_t parts = (rows - kb + kPanelThreads - 1) / kPanelThreads;
    batched_solve_kernel<T><<<blocks_for(count * parts), kPanelThreads, 0, stream>>>(
        count, (int)kb, (int)rows, upper, A, A_array, stride, ld, k, dinfo);
    return cudaGetLastError();
}

template <typename T>
int trailing_copy_launch(int64_t count, int64_t n, int upper, const T *A, T *const *A_array,
                         int64_t stride, int64_t ld, int64_t k0, T *W, int64_t ldw,
                         int64_t wstride, cudaStream_t stream)
{
    if (count <= 0 || n <= 0) return cudaSuccess;
    if (n > kTrailingMax || ldw < n) return cudaErrorInvalidValue;
    constexpr int kWarps = kThreads / 32;
    batched_trailing_copy_kernel<T><<<blocks_for((count * n + kWarps - 1) / kWarps), kThreads, 0,
                                      stream>>>(count, (int)n, upper, A, A_array, stride, ld, k0,
                                                W, ldw, wstride);
    return cudaGetLastError();
}

} // namespace

extern "C" {

int gchol_dbatched_trailing_copy_launch(int64_t count, int64_t n, int upper, const double *dA,
                                        double *const *dA_array, int64_t stride, int64_t ldda,
                                        int64_t k0, double *W, int64_t ldw, int64_t wstride,
                                        cudaStream_t stream)
{
    return trailing_copy_launch(count, n, upper, dA, dA_array, stride, ldda, k0, W, ldw, wstride,
                                stream);
}
int gchol_sbatched_trailing_copy_launch(int64_t count, int64_t n, int upper, const float *dA,
                                        float *const *dA_array, int64_t stride, int64_t ldda,
                                        int64_t k0, float *W, int64_t ldw, int64_t wstride,
                                        cudaStream_t stream)
{
    return trailing_copy_launch(count, n, upper, dA, dA_array, stride, ldda, k0, W, ldw, wstride,
                                stream);
}

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
                                const double *W, int64_t ldw, int64_t wstride, int fused,
                                int64_t *dinfo, cudaStream_t stream)
{
    return panel_launch(count, kb, rows, upper, dA, dA_array, stride, ldda, k, W, ldw, wstride,
                        fused, dinfo, stream);
}
int gchol_sbatched_panel_launch(int64_t count, int64_t kb, int64_t rows, int upper, float *dA,
                                float *const *dA_array, int64_t stride, int64_t ldda, int64_t k,
                                const float *W, int64_t ldw, int64_t wstride, int fused,
                                int64_t *dinfo, cudaStream_t stream)
{
    return panel_launch(count, kb, rows, upper, dA, dA_array, stride, ldda, k, W, ldw, wstride,
                        fused, dinfo, stream);
}

} // extern "C"
