/*
 * mixed_prec.cu -- the small kernels of mixed-precision iterative refinement
 * (src/sposv.c, LAPACK dsposv; src/dswls.c): precision conversions that
 * report overflow (dlag2s, dlat2s), X += (double) S, the infinity norm of a
 * symmetric matrix from one pass over one stored triangle (dlansy / slansy
 * 'I', summed in double), ||A D^2||_inf, the largest |entry| of each column (idamax, per
 * column), and the row scaling X := D^2 X of the normal equations.
 *
 * NaN: the norms propagate it (a NaN entry gives a NaN result), so that the
 * driver's convergence test, written as !(r <= x * cte), never accepts a NaN
 * residual. The conversions follow dlag2s: only a finite value beyond
 * FLT_MAX (or an infinity) counts as overflow; NaN converts to NaN.
 */
#include "gchol_kernels.h"

#include <cfloat>
#include <cuda_runtime.h>

namespace {

/* max that keeps a NaN from either side */
__device__ __forceinline__ double nan_max(double a, double b)
{
    if (b != b) return b;
    if (a != a) return a;
    return b > a ? b : a;
}

__device__ __forceinline__ double warp_sum(double v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ double warp_max(double v)
{
    for (int o = 16; o > 0; o >>= 1) v = nan_max(v, __shfl_down_sync(0xffffffffu, v, o));
    return v;
}

/* One 32 x 32 tile per block; threadIdx.x runs down the column. tri: 0 the
 * whole rectangle, 1 the lower triangle (i >= j), 2 the upper (i <= j); the
 * other triangle is zeroed within 64 of the diagonal, since cuBLAS's
 * triangular solves read the diagonal tiles whole. */
__global__ void d2s_kernel(int64_t m, int64_t n, const double *__restrict__ A, int64_t lda,
                           float *__restrict__ S, int64_t lds, int tri, int *flag)
{
    const int64_t i = (int64_t)blockIdx.x * 32 + threadIdx.x;
    if (i >= m) return;
    int over = 0;
    /* column blocks of 32, gridDim.y of them at a time (n may exceed 65535 blocks) */
    for (int64_t jb = blockIdx.y; jb * 32 < n; jb += gridDim.y)
        for (int64_t j = jb * 32 + threadIdx.y; j < n && j < (jb + 1) * 32; j += blockDim.y) {
            if ((tri == 1 && i < j) || (tri == 2 && i > j)) {
                if (i - j < 64 && j - i < 64) S[i + j * lds] = 0.0f;
                continue;
            }
            const double a = A[i + j * lda];
            if (a > (double)FLT_MAX || a < -(double)FLT_MAX) over = 1;
            S[i + j * lds] = (float)a;
        }
    if (over) *flag = 1; /* every writer stores the same value */
}

__global__ void add_s_to_d_kernel(int64_t m, int64_t n, const float *__restrict__ S, int64_t lds,
                                  double *__restrict__ X, int64_t ldx)
{
    const int64_t i = (int64_t)blockIdx.x * 32 + threadIdx.x;
    if (i >= m) return;
    for (int64_t jb = blockIdx.y; jb * 32 < n; jb += gridDim.y)
        for (int64_t j = jb * 32 + threadIdx.y; j < n && j < (jb + 1) * 32; j += blockDim.y)
            X[i + j * ldx] += (double)S[i + j * lds];
}

/* The block's max of v (NaN kept), valid in thread 0; blockDim.x a multiple
 * of 32. */
__device__ double block_max(double v)
{
    __shared__ double wmax[32];
    v = warp_max(v);
    if (threadIdx.x % 32 == 0) wmax[threadIdx.x / 32] = v;
    __syncthreads();
    v = 0;
    if (threadIdx.x < 32) {
        v = threadIdx.x < blockDim.x / 32 ? wmax[threadIdx.x] : 0.0;
        v = warp_max(v);
    }
    return v;
}

/* ?lansy 'I' in one pass over the stored triangle. The triangle splits into
 * TB x TB tiles (TB = 32 * RPL), one block of 8 warps a tile; warp w reads
 * the tile's columns w, w + 8, ... whole (lane l: rows l, l + 32, ...), so
 * a column's sum over the tile's rows is one warp's, and a row's sum over
 * the tile's columns is the 8 warps' through shared memory. By symmetry a
 * tile off the diagonal, in row block bi and column block bj, gives its row
 * sums to the rows of block bi and its column sums to the rows of block bj;
 * a diagonal tile gives both, its diagonal once. Row x thus gets exactly one
 * partial sum per block index k (the tile's other block), part[k * n + x],
 * and rows_max adds them in the order of k: deterministic without atomics.
 * Entries outside the stored triangle and rows n..lda-1 are never read.
 * Block b is tile (p, q), p >= q, of the lower triangle of tiles, row by
 * row; for upper storage the tile (q, p). Sums in double whatever T is. */
constexpr int kLansyWarps = 8;

template <typename T, int RPL, bool DIAG>
__device__ __forceinline__ void lansy_tile_columns(const T *__restrict__ A, int64_t lda,
                                                   int upper, int nr, int nc, double *racc,
                                                   double *cols)
{
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    for (int c = w; c < 32 * RPL; c += kLansyWarps) {
        double cs = 0;
        if (c < nc) {
            const T *col = A + (int64_t)c * lda;
            /* a diagonal tile holds rows c.. (lower) or ..c (upper) of column c */
            const int lo = DIAG && !upper ? c : 0, hi = DIAG && upper ? min(c + 1, nr) : nr;
            T v[RPL];
#pragma unroll
            for (int i = 0; i < RPL; ++i) {
                const int r = lane + 32 * i;
                v[i] = r >= lo && r < hi ? col[r] : T(0);
            }
#pragma unroll
            for (int i = 0; i < RPL; ++i) {
                const double a = fabs((double)v[i]);
                racc[i] += a;
                if (!DIAG || lane + 32 * i != c) cs += a; /* the diagonal counts in its row only */
            }
        }
        cs = warp_sum(cs);
        if (lane == 0) cols[c] = cs;
    }
}

template <typename T, int RPL>
__global__ void __launch_bounds__(32 * kLansyWarps)
lansy_tiles_kernel(int64_t n, const T *__restrict__ A, int64_t lda, int upper,
                   double *__restrict__ part)
{
    constexpr int TB = 32 * RPL;
    __shared__ double rows[kLansyWarps][TB];
    __shared__ double cols[TB];
    const int64_t b = blockIdx.x;
    int64_t p = (int64_t)((sqrt(8.0 * (double)b + 1.0) - 1.0) * 0.5);
    while (p * (p + 1) / 2 > b) --p;
    while ((p + 1) * (p + 2) / 2 <= b) ++p;
    const int64_t q = b - p * (p + 1) / 2;
    const int64_t bi = upper ? q : p, bj = upper ? p : q; /* row block, column block */
    const int64_t r0 = bi * TB, c0 = bj * TB;
    const int nr = (int)min((int64_t)TB, n - r0), nc = (int)min((int64_t)TB, n - c0);
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    double racc[RPL];
#pragma unroll
    for (int i = 0; i < RPL; ++i) racc[i] = 0;
    if (p == q) lansy_tile_columns<T, RPL, true>(A + r0 + c0 * lda, lda, upper, nr, nc, racc, cols);
    else lansy_tile_columns<T, RPL, false>(A + r0 + c0 * lda, lda, upper, nr, nc, racc, cols);
#pragma unroll
    for (int i = 0; i < RPL; ++i) rows[w][lane + 32 * i] = racc[i];
    __syncthreads();
    for (int t = threadIdx.x; t < TB; t += blockDim.x) {
        double s = rows[0][t];
#pragma unroll
        for (int k = 1; k < kLansyWarps; ++k) s += rows[k][t];
        if (p == q) s += cols[t];
        if (t < nr) part[bj * n + r0 + t] = s;
        if (p != q && t < nc) part[bi * n + c0 + t] = cols[t];
    }
}

/* Row sums of |A| in pieces for ||A D^2||_inf: thread per row r, chunks of
 * kChunk columns (block row y takes chunks y, y + gridDim.y, ...: n may need
 * more than 65535), part[cb * m + r] := the sum over chunk cb's columns c of
 * |A(r, c)|, times d_c^2 where d is given; consecutive threads read
 * consecutive rows of a column. */
constexpr int kChunk = 1024;

template <typename T>
__global__ void row_abs_sums_kernel(int64_t m, int64_t n, const T *__restrict__ A, int64_t lda,
                                    const double *__restrict__ d, double *__restrict__ part)
{
    const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= m) return;
    for (int64_t cb = blockIdx.y; cb * kChunk < n; cb += gridDim.y) {
        const int64_t lo = cb * kChunk, hi = min(n, lo + kChunk);
        double s = 0;
        if (d)
            for (int64_t c = lo; c < hi; ++c) s += fabs((double)A[r + c * lda]) * (d[c] * d[c]);
        else
            for (int64_t c = lo; c < hi; ++c) s += fabs((double)A[r + c * lda]);
        part[cb * m + r] = s;
    }
}

/* The sum of row r = its chunks added in a fixed order (deterministic); each
 * block's max over its rows into bmax. */
__global__ void rows_max_kernel(int64_t m, int64_t chunks, const double *__restrict__ part,
                                double *__restrict__ bmax)
{
    double mx = 0;
    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < m;
         r += (int64_t)gridDim.x * blockDim.x) {
        double s = 0;
#pragma unroll 8
        for (int64_t k = 0; k < chunks; ++k) s += part[k * m + r];
        mx = nan_max(mx, s);
    }
    mx = block_max(mx);
    if (threadIdx.x == 0) bmax[blockIdx.x] = mx;
}

/* max over v[0..count) into *out, one block */
__global__ void max_reduce_kernel(int64_t count, const double *__restrict__ v, double *out)
{
    double mx = 0;
    for (int64_t k = threadIdx.x; k < count; k += blockDim.x) mx = nan_max(mx, v[k]);
    mx = block_max(mx);
    if (threadIdx.x == 0) *out = mx;
}

/* one block per column: max |A(:, j)| */
__global__ void col_absmax_kernel(int64_t m, const double *__restrict__ A, int64_t lda,
                                  double *__restrict__ out)
{
    const int64_t j = blockIdx.x;
    double v = 0;
    for (int64_t i = threadIdx.x; i < m; i += blockDim.x) v = nan_max(v, fabs(A[i + j * lda]));
    v = block_max(v);
    if (threadIdx.x == 0) out[j] = v;
}

/* X(i, j) *= d_i^2 (the weights of the normal equations' right-hand side) */
template <typename T>
__global__ void scale_rows_sq_kernel(int64_t m, int64_t n, const T *__restrict__ d,
                                     T *__restrict__ X, int64_t ldx)
{
    const int64_t i = (int64_t)blockIdx.x * 32 + threadIdx.x;
    if (i >= m) return;
    const T w = d[i] * d[i];
    for (int64_t jb = blockIdx.y; jb * 32 < n; jb += gridDim.y)
        for (int64_t j = jb * 32 + threadIdx.y; j < n && j < (jb + 1) * 32; j += blockDim.y)
            X[i + j * ldx] *= w;
}

int grid_2d(int64_t m, int64_t n, dim3 &grid)
{
    const int64_t gx = (m + 31) / 32, gy = min((n + 31) / 32, (int64_t)65535);
    if (gx > 2147483647) return 0;
    grid = dim3((unsigned)gx, (unsigned)gy);
    return 1;
}

constexpr int kMaxBlocks = 264;

/* max over the m row sums that row_abs_sums_kernel or lansy_tiles_kernel
 * leave in dwork into *dnorm; dwork: chunks * m partial sums, then
 * kMaxBlocks block maxima. */
int rows_max(int64_t m, int64_t chunks, double *dwork, double *dnorm, cudaStream_t stream)
{
    const int64_t blocks = min((int64_t)kMaxBlocks, (m + 255) / 256);
    double *bmax = dwork + chunks * m;
    rows_max_kernel<<<(unsigned)blocks, 256, 0, stream>>>(m, chunks, dwork, bmax);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    max_reduce_kernel<<<1, 256, 0, stream>>>(blocks, bmax, dnorm);
    return cudaGetLastError();
}

/* The tile side of ?lansy_inf at order n: the largest of 512, 256, 128 with
 * at least kLansyMinTiles tiles in the triangle (several blocks for each SM
 * of a large GPU, so the pass runs at the memory's bandwidth), else 64.
 * Larger tiles mean fewer partial sums per row (n / TB). */
constexpr int64_t kLansyMinTiles = 1024;

int64_t lansy_tile(int64_t n)
{
    for (int64_t tb = 512; tb > 64; tb /= 2) {
        const int64_t nb = (n + tb - 1) / tb;
        if (nb * (nb + 1) / 2 >= kLansyMinTiles) return tb;
    }
    return 64;
}

/* gchol_?lansy_inf_launch, gchol_?lansy_inf_tile_launch */
template <typename T>
int lansy_inf(int64_t n, const T *A, int64_t lda, int upper, int64_t tile, double *dwork,
              double *dnorm, cudaStream_t stream)
{
    if (tile == 0) tile = lansy_tile(n);
    if (tile != 64 && tile != 128 && tile != 256 && tile != 512) return cudaErrorInvalidValue;
    if (n <= 0) return (int)cudaMemsetAsync(dnorm, 0, sizeof(double), stream);
    /* nb <= 65535 keeps the nb (nb + 1) / 2 blocks within gridDim.x */
    const int64_t nb = (n + tile - 1) / tile, tiles = nb * (nb + 1) / 2;
    if (nb > 65535) return cudaErrorInvalidValue;
    const unsigned grid = (unsigned)tiles, threads = 32 * kLansyWarps;
    switch (tile) {
    case 64: lansy_tiles_kernel<T, 2><<<grid, threads, 0, stream>>>(n, A, lda, upper, dwork); break;
    case 128: lansy_tiles_kernel<T, 4><<<grid, threads, 0, stream>>>(n, A, lda, upper, dwork); break;
    case 256: lansy_tiles_kernel<T, 8><<<grid, threads, 0, stream>>>(n, A, lda, upper, dwork); break;
    default: lansy_tiles_kernel<T, 16><<<grid, threads, 0, stream>>>(n, A, lda, upper, dwork); break;
    }
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    return rows_max(n, nb, dwork, dnorm, stream);
}

/* gchol_dscale_rows_sq_launch, gchol_sscale_rows_sq_launch */
template <typename T>
int scale_rows_sq(int64_t m, int64_t n, const T *d, T *X, int64_t ldx, cudaStream_t stream)
{
    if (m <= 0 || n <= 0) return cudaSuccess;
    dim3 grid;
    if (!grid_2d(m, n, grid)) return cudaErrorInvalidValue;
    scale_rows_sq_kernel<T><<<grid, dim3(32, 8), 0, stream>>>(m, n, d, X, ldx);
    return cudaGetLastError();
}

} // namespace

extern "C" int gchol_d2s_launch(int64_t m, int64_t n, const double *A, int64_t lda, float *S,
                                int64_t lds, int tri, int *dflag, cudaStream_t stream)
{
    if (m <= 0 || n <= 0) return cudaSuccess;
    dim3 grid;
    if (!grid_2d(m, n, grid)) return cudaErrorInvalidValue;
    d2s_kernel<<<grid, dim3(32, 8), 0, stream>>>(m, n, A, lda, S, lds, tri, dflag);
    return cudaGetLastError();
}

extern "C" int gchol_add_s_to_d_launch(int64_t m, int64_t n, const float *S, int64_t lds,
                                       double *X, int64_t ldx, cudaStream_t stream)
{
    if (m <= 0 || n <= 0) return cudaSuccess;
    dim3 grid;
    if (!grid_2d(m, n, grid)) return cudaErrorInvalidValue;
    add_s_to_d_kernel<<<grid, dim3(32, 8), 0, stream>>>(m, n, S, lds, X, ldx);
    return cudaGetLastError();
}

extern "C" size_t gchol_lansy_inf_tile_work(int64_t n, int64_t tile)
{
    if (tile == 0) tile = lansy_tile(n);
    if (n <= 0 || tile <= 0) return (size_t)kMaxBlocks;
    return (size_t)((n + tile - 1) / tile * n + kMaxBlocks);
}

extern "C" size_t gchol_lansy_inf_work(int64_t n)
{
    return gchol_lansy_inf_tile_work(n, 0);
}

extern "C" int gchol_dlansy_inf_tile_launch(int64_t n, const double *A, int64_t lda, int upper,
                                            int64_t tile, double *dwork, double *dnorm,
                                            cudaStream_t stream)
{
    return lansy_inf<double>(n, A, lda, upper, tile, dwork, dnorm, stream);
}

extern "C" int gchol_slansy_inf_tile_launch(int64_t n, const float *A, int64_t lda, int upper,
                                            int64_t tile, double *dwork, double *dnorm,
                                            cudaStream_t stream)
{
    return lansy_inf<float>(n, A, lda, upper, tile, dwork, dnorm, stream);
}

extern "C" int gchol_dlansy_inf_launch(int64_t n, const double *A, int64_t lda, int upper,
                                       double *dwork, double *dnorm, cudaStream_t stream)
{
    return lansy_inf<double>(n, A, lda, upper, 0, dwork, dnorm, stream);
}

extern "C" int gchol_slansy_inf_launch(int64_t n, const float *A, int64_t lda, int upper,
                                       double *dwork, double *dnorm, cudaStream_t stream)
{
    return lansy_inf<float>(n, A, lda, upper, 0, dwork, dnorm, stream);
}

extern "C" size_t gchol_row_wabs_max_work(int64_t m, int64_t n)
{
    const int64_t chunks = n > 0 ? (n + kChunk - 1) / kChunk : 1;
    return (size_t)(chunks * m + kMaxBlocks);
}

extern "C" int gchol_drow_wabs_max_launch(int64_t m, int64_t n, const double *A, int64_t lda,
                                          const double *d, double *dwork, double *dnorm,
                                          cudaStream_t stream)
{
    if (m <= 0 || n <= 0) return (int)cudaMemsetAsync(dnorm, 0, sizeof(double), stream);
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    if ((m + 255) / 256 > 2147483647) return cudaErrorInvalidValue;
    row_abs_sums_kernel<double><<<dim3((unsigned)((m + 255) / 256), (unsigned)min(chunks, (int64_t)65535)),
                                  256, 0, stream>>>(m, n, A, lda, d, dwork);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    return rows_max(m, chunks, dwork, dnorm, stream);
}

extern "C" int gchol_dscale_rows_sq_launch(int64_t m, int64_t n, const double *d, double *X,
                                           int64_t ldx, cudaStream_t stream)
{
    return scale_rows_sq<double>(m, n, d, X, ldx, stream);
}

extern "C" int gchol_sscale_rows_sq_launch(int64_t m, int64_t n, const float *d, float *X,
                                           int64_t ldx, cudaStream_t stream)
{
    return scale_rows_sq<float>(m, n, d, X, ldx, stream);
}

extern "C" int gchol_dcol_absmax_launch(int64_t m, int64_t n, const double *A, int64_t lda,
                                        double *dout, cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    if (n > 2147483647) return cudaErrorInvalidValue;
    if (m <= 0) return (int)cudaMemsetAsync(dout, 0, (size_t)n * sizeof(double), stream);
    col_absmax_kernel<<<(unsigned)n, 256, 0, stream>>>(m, A, lda, dout);
    return cudaGetLastError();
}
