/*
 * potrf_batched_cublas.cu -- the kernels of the batched Cholesky by block
 * columns on cuBLAS's batched products (src/potrf_batched_cublas.c): a
 * step's pointer arrays, and the panel step, which finishes a block column
 * of every matrix (the product's sums added, the diagonal block factored,
 * the rows below solved). Grid-stride loops over the batch: any count.
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

/* The panel step in two launches. The diagonal blocks: a warp per matrix,
 * lane r holding row r in registers, plus the product's sums from G, L_kk
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
static_assert(GCHOL_BATCHED_PANEL_WORK == kPanelW * kPanelW, "G's layout");

/* A matrix's share of G: the diagonal block's sums, (r, c) at [r + c *
 * kPanelW]. */
__device__ __forceinline__ int64_t g_at(int64_t b) { return b * GCHOL_BATCHED_PANEL_WORK; }

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

template <typename T>
__global__ void __launch_bounds__(kPanelThreads)
    batched_diag_kernel(int64_t count, int kb, int upper, T *A, T *const *A_array,
                        int64_t stride, int64_t ld, int64_t k0, int sums, T *G, int64_t *dinfo)
{
    __shared__ __align__(16) T Lcol_all[kDiagWarps][kPanelW * kPanelW];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    T *Lcol = Lcol_all[warp];
    const Strides a_at(upper, ld);
    for (int64_t b = blockIdx.x * (int64_t)kDiagWarps + warp; b < count;
         b += (int64_t)gridDim.x * kDiagWarps) {
        if (dinfo[b] != 0) continue; /* failed in an earlier block column: left alone */
        T *P = (A_array ? A_array[b] : A + b * stride) + k0 + k0 * ld; /* A(k0, k0) */
        T *g = G + g_at(b);
        T a[kPanelW];
        /* lanes past the block: zeros */
        panel_row(a, P + lane * a_at.rs, a_at.cs, sums ? g + lane : nullptr, kPanelW,
                  lane < kb ? kb : 0);
        int fail = 0;
#pragma unroll 1
        for (int k = 0; k < kb; ++k) {
            const T pivot = __shfl_sync(0xffffffffu, a[0], k);
            const bool mine = lane >= k && lane < kb; /* rows with a column k */
            if (!(pivot > T(0))) { /* uniform: column k stays unscaled */
                fail = k + 1;
                if (mine) P[lane * a_at.rs + k * a_at.cs] = a[0];
                break;
            }
            /* side by side rather than 1 / d: each step's latency is the
             * whole step's */
            const T d = sqrt(pivot), rd = rsqrt_of(pivot);
            const T l = lane == k ? d : a[0] * rd;
            if (mine) P[lane * a_at.rs + k * a_at.cs] = l;
            /* lanes past k: their L(lane, k); the others zero the tail */
            const int c = lane > k ? lane - k - 1 : kPanelW - 1 - lane;
            const T v = lane > k ? l : T(0);
            Lcol[k * kPanelW + c] = v;
            __syncwarp();
            shift_update<kPanelW>(a, l, Lcol + k * kPanelW);
        }
        if (fail && lane == 0) dinfo[b] = k0 + fail;
        __syncwarp(); /* Lcol read before the next matrix's */
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
#pragma unroll 1
        for (int j = 0; j < good; ++j) {
            const T xj = x[0] * rdiag[j];
            pr[j * a_at.cs] = xj;
            shift_update<kPanelW>(x, xj, Lcol + j * kPanelW);
        }
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
                 int64_t stride, int64_t ld, int64_t k, int sums, T *G, int64_t *dinfo,
                 cudaStream_t stream)
{
    if (count <= 0 || kb <= 0) return cudaSuccess;
    if (kb > kPanelW || rows < kb || rows > 0x7fffffff) return cudaErrorInvalidValue;
    batched_diag_kernel<T><<<blocks_for((count + kDiagWarps - 1) / kDiagWarps), kPanelThreads, 0,
                             stream>>>(count, (int)kb, upper, A, A_array, stride, ld, k, sums, G,
                                       dinfo);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || rows == kb) return e;
    const int64_t parts = (rows - kb + kPanelThreads - 1) / kPanelThreads;
    batched_solve_kernel<T><<<blocks_for(count * parts), kPanelThreads, 0, stream>>>(
        count, (int)kb, (int)rows, upper, A, A_array, stride, ld, k, dinfo);
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
                                int sums, double *G, int64_t *dinfo, cudaStream_t stream)
{
    return panel_launch(count, kb, rows, upper, dA, dA_array, stride, ldda, k, sums, G, dinfo,
                        stream);
}
int gchol_sbatched_panel_launch(int64_t count, int64_t kb, int64_t rows, int upper, float *dA,
                                float *const *dA_array, int64_t stride, int64_t ldda, int64_t k,
                                int sums, float *G, int64_t *dinfo, cudaStream_t stream)
{
    return panel_launch(count, kb, rows, upper, dA, dA_array, stride, ldda, k, sums, G, dinfo,
                        stream);
}

} // extern "C"
