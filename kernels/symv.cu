/*
 * symv.cu -- y := alpha A x + beta y for a symmetric n x n A of which one
 * stored triangle is read (column-major, lda), deterministic: the
 * mixed-precision solve's residual and GMRES matvec (src/refine_ops_gpu.c).
 *
 * The stored triangle is read once. Phase 1 runs a 2-D grid over tiles of
 * it: block (J, c) takes panel J (columns J*kNb .. +kNb) and its row chunk c
 * (kMb rows), reads the tile once and writes two partial vectors to the
 * workspace: the rows' sums A_cJ x_J and the columns' sums A_cJ^T x_c (the
 * diagonal excluded there, so that it counts once). Phase 2 adds each row's
 * partials in a fixed order and applies alpha and beta. No atomics: every
 * sum has one order, so results repeat bit for bit.
 *
 * Chunks of the lower triangle start at the panel's diagonal (chunk 0 holds
 * the diagonal tile), those of the upper at row 0 (the last holds it); only
 * those chunks, the last panel and the last chunk test each element, the
 * others read whole tiles unpredicated and, where A and lda allow, with
 * 16-byte loads. The other triangle is never read.
 */
#include "gchol_kernels.h"

#include <cuda_runtime.h>

namespace {

constexpr int kNb = 64;             /* panel width: the columns' partials a chunk writes */
constexpr int kMb = 256;            /* chunk height: 32 KiB (double) per panel and chunk
                                       read by a block against 0.5 KiB of partials    */
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kColsPerWarp = kNb / kWarps; /* 8 */
constexpr int kRowsPerLane = kMb / 32;     /* 8 */
constexpr int kSegs = 8;                   /* phase 2: threads per row     */
/* Columns whose loads a lane has in flight at once: 8 16-byte loads (16
 * scalar ones) a lane, about 64 KiB a multiprocessor at two blocks, above
 * what the memory's latency asks, within 128 registers. */
template <int VW> constexpr int kBatchCols() { return VW == 1 ? 2 : VW; }

template <typename T, int VW> struct vec;
template <> struct vec<double, 1> { typedef double type; };
template <> struct vec<double, 2> { typedef double2 type; };
template <> struct vec<float, 1> { typedef float type; };
template <> struct vec<float, 4> { typedef float4 type; };

/* Element v of a loaded vector. */
__device__ __forceinline__ double elem(double a, int) { return a; }
__device__ __forceinline__ float elem(float a, int) { return a; }
__device__ __forceinline__ double elem(const double2 &a, int v) { return v ? a.y : a.x; }
__device__ __forceinline__ float elem(const float4 &a, int v)
{
    return v == 0 ? a.x : v == 1 ? a.y : v == 2 ? a.z : a.w;
}

/* Rows and chunks of panel J: lower, rows J*kNb .. n-1 in chunks from the
 * diagonal; upper, rows 0 .. min(n, (J+1)*kNb)-1 in chunks from row 0. */
__host__ __device__ __forceinline__ int64_t panel_first_row(int64_t J, int upper)
{
    return upper ? 0 : J * kNb;
}
__host__ __device__ __forceinline__ int64_t panel_rows(int64_t n, int64_t J, int upper)
{
    return upper ? ((J + 1) * kNb < n ? (J + 1) * kNb : n) : n - J * kNb;
}
/* Where panel J's row partials start in the workspace: the panels before
 * it, back to back (64-bit: about n^2 / (2 kNb) in all). */
__host__ __device__ __forceinline__ int64_t panel_offset(int64_t n, int64_t J, int upper)
{
    return upper ? kNb * (J * (J + 1) / 2) : J * n - kNb * (J * (J - 1) / 2);
}

__host__ __device__ __forceinline__ int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Phase 1. Lane l of warp w holds the rows k*32*VW + l*VW + v of the chunk
 * (k < kMb / (32 VW), v < VW) and the warp's kColsPerWarp columns: loads of
 * a column are coalesced, the row sums stay in registers until one pass
 * through shared memory adds the warps' in order, and each column's sum is
 * one butterfly over the warp. EDGE: every element tested (in the chunk's
 * rows_here rows and the panel's cols_here columns, and in the triangle:
 * lower i - j >= -diag, upper i - j <= -diag with diag = r0 - j0 clamped,
 * local indices); else the whole tile is read as is. Ac: the chunk's first
 * row in the panel's first column. */
template <typename T, int VW, int KB, bool EDGE>
__device__ __forceinline__ void tile_sums(const T *__restrict__ Ac, int64_t lda, int upper,
                                          int rows_here, int cols_here, int diag, const T *xs,
                                          const T (&xr)[kRowsPerLane], T (&acc)[kRowsPerLane],
                                          T &colsum)
{
    typedef typename vec<T, VW>::type V;
    constexpr int kLoads = kRowsPerLane / VW;                 /* vector loads per column */
    constexpr int kBatch = KB;                                /* columns in flight */
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    const T *col = Ac + (int64_t)(w * kColsPerWarp) * lda + lane * VW;
#pragma unroll
    for (int t0 = 0; t0 < kColsPerWarp; t0 += kBatch) {
        T a[kBatch][kRowsPerLane];
#pragma unroll
        for (int b = 0; b < kBatch; ++b, col += lda) {
            const int jl = w * kColsPerWarp + t0 + b;
#pragma unroll
            for (int k = 0; k < kLoads; ++k) {
                if (EDGE) {
#pragma unroll
                    for (int v = 0; v < VW; ++v) {
                        const int il = k * 32 * VW + lane * VW + v;
                        const bool in = il < rows_here && jl < cols_here &&
                                        (upper ? il - jl <= -diag : il - jl >= -diag);
                        a[b][k * VW + v] = in ? __ldcs(col + k * 32 * VW + v) : T(0);
                    }
                } else {
                    /* streaming: A is read once a call and outgrows L2; the
                     * partials and x stay there */
                    const V p = __ldcs(reinterpret_cast<const V *>(col + k * 32 * VW));
#pragma unroll
                    for (int v = 0; v < VW; ++v) a[b][k * VW + v] = elem(p, v);
                }
            }
        }
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
            const int t = t0 + b, jl = w * kColsPerWarp + t;
            const T xj = xs[jl];
            T cs = 0;
#pragma unroll
            for (int r = 0; r < kRowsPerLane; ++r) {
                acc[r] += a[b][r] * xj;
                const int il = (r / VW) * 32 * VW + lane * VW + r % VW;
                if (!EDGE || il - jl != -diag) cs += a[b][r] * xr[r]; /* the diagonal once */
            }
#pragma unroll
            for (int o = 16; o > 0; o >>= 1) cs += __shfl_xor_sync(0xffffffffu, cs, o);
            if (lane == t) colsum = cs;
        }
    }
}

template <typename T, int VW>
__global__ void __launch_bounds__(kThreads, 2)
symv_tiles_kernel(int64_t n, const T *__restrict__ A, int64_t lda, int upper,
                  const T *__restrict__ x, T *__restrict__ wrows, T *__restrict__ wcols,
                  int64_t max_chunks)
{
    __shared__ T xs[kNb];
    __shared__ T rs[kWarps][kMb];
    const int64_t J = blockIdx.x, c = blockIdx.y, j0 = J * kNb;
    const int64_t first = panel_first_row(J, upper), rows = panel_rows(n, J, upper);
    const int64_t r0 = first + c * kMb;
    if (c * kMb >= rows) return; /* past this panel's chunks: the grid is rectangular */
    const int64_t r_end = first + (rows < (c + 1) * kMb ? rows : (c + 1) * kMb);
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    if (threadIdx.x < kNb) xs[threadIdx.x] = j0 + threadIdx.x < n ? x[j0 + threadIdx.x] : T(0);
    T xr[kRowsPerLane], acc[kRowsPerLane];
#pragma unroll
    for (int r = 0; r < kRowsPerLane; ++r) {
        const int64_t i = r0 + (r / VW) * 32 * VW + lane * VW + r % VW;
        xr[r] = i < r_end ? x[i] : T(0);
        acc[r] = 0;
    }
    __syncthreads();
    /* the diagonal tile, the last panel and the last chunk test elements */
    const int rows_here = (int)(r_end - r0), cols_here = (int)(n - j0 < kNb ? n - j0 : kNb);
    const bool on_diag = upper ? r_end > j0 : c == 0;
    const T *Ac = A + r0 + j0 * lda;
    T colsum = 0;
    if (on_diag || cols_here < kNb || rows_here < kMb) {
        /* r0 - j0, clamped where no element of the tile can reach the diagonal */
        const int64_t d = r0 - j0;
        const int diag = d > 4 * kMb ? 4 * kMb : d < -4 * kMb ? -4 * kMb : (int)d;
        tile_sums<T, VW, kBatchCols<VW>(), true>(Ac, lda, upper, rows_here, cols_here, diag, xs, xr, acc, colsum);
    } else {
        tile_sums<T, VW, kBatchCols<VW>(), false>(Ac, lda, upper, kMb, kNb, 0, xs, xr, acc, colsum);
    }
    if (lane < kColsPerWarp)
        wcols[(J * max_chunks + c) * kNb + w * kColsPerWarp + lane] = colsum;
#pragma unroll
    for (int r = 0; r < kRowsPerLane; ++r)
        rs[w][(r / VW) * 32 * VW + lane * VW + r % VW] = acc[r];
    __syncthreads();
    const int64_t i = r0 + threadIdx.x;
    if (i < r_end) {
        T s = 0;
#pragma unroll
        for (int q = 0; q < kWarps; ++q) s += rs[q][threadIdx.x];
        wrows[panel_offset(n, J, upper) + (i - first)] = s;
    }
}

/* Phase 2: row i's partials are the row sums of every panel whose rows hold
 * it (lower: panels 0 .. i/kNb; upper: i/kNb .. last) and the column sums
 * of its own panel's chunks. A block takes 32 rows (one panel's, so the
 * list is the block's) and splits the list in kSegs fixed segments, one a
 * warp, added in order through shared memory. with_sum 0: y := beta y. */
template <typename T>
__global__ void __launch_bounds__(32 * kSegs)
symv_sum_kernel(int64_t n, int upper, const T *__restrict__ wrows, const T *__restrict__ wcols,
                int64_t max_chunks, T alpha, T beta, T *__restrict__ y, int with_sum)
{
    __shared__ T part[kSegs][32];
    const int lane = threadIdx.x % 32, seg = threadIdx.x / 32;
    const int64_t i0 = (int64_t)blockIdx.x * 32, i = i0 + lane, Jd = i0 / kNb;
    const int64_t panels = ceil_div(n, kNb);
    const int64_t j_first = upper ? Jd : 0, nj = upper ? panels - Jd : Jd + 1;
    const int64_t nterms = with_sum ? nj + ceil_div(panel_rows(n, Jd, upper), kMb) : 0;
    const int64_t k0 = nterms * seg / kSegs, k1 = nterms * (seg + 1) / kSegs;
    T s = 0;
    if (i < n)
        for (int64_t k = k0; k < k1; ++k) {
            if (k < nj) {
                const int64_t J = j_first + k;
                s += wrows[panel_offset(n, J, upper) + (i - panel_first_row(J, upper))];
            } else {
                s += wcols[(Jd * max_chunks + (k - nj)) * kNb + (i - Jd * kNb)];
            }
        }
    part[seg][lane] = s;
    __syncthreads();
    if (seg == 0 && i < n) {
        T sum = 0;
#pragma unroll
        for (int q = 0; q < kSegs; ++q) sum += part[q][lane];
        /* beta = 0: y is not read (it may hold NaN) */
        y[i] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[i];
    }
}

/* The workspace: the row partials of every panel (the upper layout's
 * total, which is at least the lower's), then the column partials at
 * (J * max_chunks + c) * kNb. */
int64_t rows_work(int64_t n)
{
    const int64_t panels = ceil_div(n, kNb);
    return panel_offset(n, panels - 1, 1) + n;
}

/* n past which the chunk grid (gridDim.y <= 65535) would overflow */
constexpr int64_t kMaxN = (int64_t)65535 * kMb;

template <typename T>
int symv(int64_t n, T alpha, const T *A, int64_t lda, int upper, const T *x, T beta, T *y,
         T *work, cudaStream_t stream)
{
    if (n < 0 || n > kMaxN || lda < (n > 1 ? n : 1)) return cudaErrorInvalidValue;
    if (n == 0 || (alpha == T(0) && beta == T(1))) return cudaSuccess;
    const int64_t panels = ceil_div(n, kNb), max_chunks = ceil_div(n, kMb);
    T *wrows = work, *wcols = work + rows_work(n);
    const int with_sum = alpha != T(0); /* alpha = 0: A and x are not read */
    if (with_sum) {
        constexpr int kVw = 16 / sizeof(T);
        const dim3 grid((unsigned)panels, (unsigned)max_chunks);
        const bool wide = reinterpret_cast<uintptr_t>(A) % 16 == 0 && lda % kVw == 0;
        if (wide)
            symv_tiles_kernel<T, kVw><<<grid, kThreads, 0, stream>>>(n, A, lda, upper, x, wrows,
                                                                     wcols, max_chunks);
        else
            symv_tiles_kernel<T, 1><<<grid, kThreads, 0, stream>>>(n, A, lda, upper, x, wrows,
                                                                   wcols, max_chunks);
        const cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
    }
    symv_sum_kernel<T><<<(unsigned)ceil_div(n, 32), 32 * kSegs, 0, stream>>>(
        n, upper, wrows, wcols, max_chunks, alpha, beta, y, with_sum);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t gchol_symv_work(int64_t n)
{
    if (n <= 0 || n > kMaxN) return 0;
    return (size_t)(rows_work(n) + ceil_div(n, kNb) * ceil_div(n, kMb) * kNb);
}

extern "C" int gchol_dsymv_launch(int64_t n, double alpha, const double *dA, int64_t ldda,
                                  int upper, const double *dx, double beta, double *dy,
                                  double *dwork, cudaStream_t stream)
{
    return symv<double>(n, alpha, dA, ldda, upper, dx, beta, dy, dwork, stream);
}

extern "C" int gchol_ssymv_launch(int64_t n, float alpha, const float *dA, int64_t ldda,
                                  int upper, const float *dx, float beta, float *dy, float *dwork,
                                  cudaStream_t stream)
{
    return symv<float>(n, alpha, dA, ldda, upper, dx, beta, dy, dwork, stream);
}
