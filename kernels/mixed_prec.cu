/*
 * mixed_prec.cu -- the small kernels of mixed-precision iterative refinement
 * (src/sposv.c, LAPACK dsposv; src/dswls.c): precision conversions that
 * report overflow (dlag2s, dlat2s), X += (double) S, the infinity norm of a
 * symmetric matrix from one stored triangle (dlansy / slansy 'I', summed in
 * double), ||A D^2||_inf, the largest |entry| of each column (idamax, per
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

/* ?lansy 'I', part 1: one warp per stored column c sums |A| over the stored
 * triangle's part of that column, diagonal included (lower: rows c..n-1,
 * upper: rows 0..c), coalesced; in double whatever T is. */
template <typename T>
__global__ void lansy_cols_kernel(int64_t n, const T *__restrict__ A, int64_t lda, int upper,
                                  double *__restrict__ colsum)
{
    const int64_t c = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (c >= n) return;
    const int64_t r0 = upper ? 0 : c, r1 = upper ? c + 1 : n;
    double s = 0;
    for (int64_t r = r0 + lane; r < r1; r += 32) s += fabs((double)A[r + c * lda]);
    s = warp_sum(s);
    if (lane == 0) colsum[c] = s;
}

/* Row sums of |A| in pieces: thread per row r, chunks of kChunk columns
 * (block row y takes chunks y, y + gridDim.y, ...: n may need more than
 * 65535), part[cb * m + r] := the sum over chunk cb's columns c that `cols`
 * keeps (kAllCols; kBelowRow: c < r; kAboveRow: c > r) of |A(r, c)|, times
 * d_c^2 where d is given; consecutive threads read consecutive rows of a
 * column. ?lansy's part 2 (the stored triangle's off-diagonal part of each
 * row) and ||A D^2||_inf's only part. */
constexpr int kChunk = 1024;
enum { kAllCols = 0, kBelowRow = 1, kAboveRow = 2 };

template <typename T>
__global__ void row_abs_sums_kernel(int64_t m, int64_t n, const T *__restrict__ A, int64_t lda,
                                    int cols, const double *__restrict__ d,
                                    double *__restrict__ part)
{
    const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= m) return;
    for (int64_t cb = blockIdx.y; cb * kChunk < n; cb += gridDim.y) {
        const int64_t c0 = cb * kChunk, c1 = min(n, c0 + kChunk);
        int64_t lo = c0, hi = c1;
        if (cols == kAboveRow) lo = max(lo, r + 1);
        else if (cols == kBelowRow) hi = min(hi, r);
        double s = 0;
        if (d)
            for (int64_t c = lo; c < hi; ++c) s += fabs((double)A[r + c * lda]) * (d[c] * d[c]);
        else
            for (int64_t c = lo; c < hi; ++c) s += fabs((double)A[r + c * lda]);
        part[cb * m + r] = s;
    }
}

/* The sum of row r = colsum[r] (if given) + its chunks in a fixed order
 * (deterministic); each block's max over its rows into bmax. */
__global__ void rows_max_kernel(int64_t m, int64_t chunks, const double *__restrict__ colsum,
                                const double *__restrict__ part, double *__restrict__ bmax)
{
    double mx = 0;
    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < m;
         r += (int64_t)gridDim.x * blockDim.x) {
        double s = colsum ? colsum[r] : 0.0;
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

/* max over the m row sums that row_abs_sums_kernel leaves in dwork (plus
 * colsum where given) into *dnorm; dwork: chunks * m partial sums, then
 * kMaxBlocks block maxima. */
int rows_max(int64_t m, int64_t chunks, const double *colsum, double *dwork, double *dnorm,
             cudaStream_t stream)
{
    const int64_t blocks = min((int64_t)kMaxBlocks, (m + 255) / 256);
    double *bmax = dwork + chunks * m;
    rows_max_kernel<<<(unsigned)blocks, 256, 0, stream>>>(m, chunks, colsum, dwork, bmax);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    max_reduce_kernel<<<1, 256, 0, stream>>>(blocks, bmax, dnorm);
    return cudaGetLastError();
}

/* gchol_dlansy_inf_launch, gchol_slansy_inf_launch */
template <typename T>
int lansy_inf(int64_t n, const T *A, int64_t lda, int upper, double *dwork, double *dnorm,
              cudaStream_t stream)
{
    if (n <= 0) return (int)cudaMemsetAsync(dnorm, 0, sizeof(double), stream);
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    if (chunks > 65535 || (n + 255) / 256 > 2147483647) return cudaErrorInvalidValue;
    double *colsum = dwork, *part = dwork + n;
    lansy_cols_kernel<T><<<(unsigned)((n + 7) / 8), 256, 0, stream>>>(n, A, lda, upper, colsum);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    row_abs_sums_kernel<T><<<dim3((unsigned)((n + 255) / 256), (unsigned)chunks), 256, 0, stream>>>(
        n, n, A, lda, upper ? kAboveRow : kBelowRow, nullptr, part);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    return rows_max(n, chunks, colsum, part, dnorm, stream);
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

extern "C" size_t gchol_lansy_inf_work(int64_t n)
{
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    return (size_t)(n + chunks * n + kMaxBlocks);
}

extern "C" int gchol_dlansy_inf_launch(int64_t n, const double *A, int64_t lda, int upper,
                                       double *dwork, double *dnorm, cudaStream_t stream)
{
    return lansy_inf<double>(n, A, lda, upper, dwork, dnorm, stream);
}

extern "C" int gchol_slansy_inf_launch(int64_t n, const float *A, int64_t lda, int upper,
                                       double *dwork, double *dnorm, cudaStream_t stream)
{
    return lansy_inf<float>(n, A, lda, upper, dwork, dnorm, stream);
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
                                  256, 0, stream>>>(m, n, A, lda, kAllCols, d, dwork);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    return rows_max(m, chunks, nullptr, dwork, dnorm, stream);
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
