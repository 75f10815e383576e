/*
 * potrf_batched_mma.cuh -- the batched potrf kernel for medium orders (up
 * to 512) whose updates run as matrix-multiply-accumulate tiles: in double
 * on the FP64 tensor cores (wmma, 8 x 8 x 4), in single as register tiles of
 * FMAs (the tensor cores' TF32 would lose single's accuracy). Included by
 * potrf_batched.cu only, after potrf_batched_small.cuh (the batch forms,
 * view_at).
 *
 * A thread block per matrix, left-looking by panels of kMmaW columns:
 *   1. the panel's update, sums = L(k0:n, 0:k0) L(k0:k0+kMmaW, 0:k0)^T, by
 *      chunks of kMmaW columns: each chunk S = L(k0:n, j0:j0+kMmaW) staged
 *      in shared memory by columns. The panel's own rows of S are the
 *      product's right factor, so one staging serves both operands. Each
 *      warp keeps up to kMmaRowTiles row tiles (8 x kMmaW) of sums in
 *      registers;
 *   2. P = A(panel) - sums, in shared memory (over S);
 *   3. the diagonal block factored by warp 0 in registers (lane r row r,
 *      pivots and l_jk by shuffles), and copied for the rows below;
 *   4. each row below solved by one thread, x := x L11^-T, in registers;
 *   5. the panel written back.
 * Five barriers a panel, and two a chunk of its update.
 */
#ifndef GCHOL_POTRF_BATCHED_MMA_CUH
#define GCHOL_POTRF_BATCHED_MMA_CUH

#include "potrf_batched_small.cuh"

#include <mma.h>

namespace {

constexpr int kMmaW = 32;       /* panel and chunk width */
constexpr int kMmaRowTiles = 4; /* row tiles of 8 a warp: rows <= 32 * warps */
constexpr int kMmaMaxN = 512;
static_assert(kMmaW == 32, "a lane per column of a chunk or panel");

/* The leading dimension of S and P (by columns) for orders up to n: the rows
 * rounded up to 16, plus 4, so that the 8-byte loads of an 8 x 4 tile fall in
 * distinct banks in each half warp; even, as wmma wants for double. */
__host__ __device__ constexpr int mma_lds(int n) { return (n > 32 ? (n + 15) / 16 * 16 : 32) + 4; }

/* Shared memory of the kernel for orders up to n: S (kMmaW x lds), the
 * diagonal block's copy, its reciprocal pivots and two flags. */
template <typename T> constexpr size_t mma_smem_bytes(int n)
{
    return ((size_t)kMmaW * mma_lds(n) + kMmaW * (kMmaW + 1) + kMmaW) * sizeof(T) + 2 * sizeof(int);
}

/* One warp's sums: row tiles warp, warp + warps, ... (up to kMmaRowTiles),
 * each 8 rows x kMmaW columns. add() accumulates S(tile rows, :) S(0:kMmaW, :)^T
 * for one staged chunk (S(r, k) at S[r + k * lds]); store() writes the sums
 * to P(r, c) at P[r + c * lds]. */
template <typename T> struct PanelSums;

template <> struct PanelSums<double> {
    nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 8, 8, 4, double> acc[kMmaRowTiles][kMmaW / 8];

    __device__ __forceinline__ void zero()
    {
#pragma unroll
        for (int t = 0; t < kMmaRowTiles; ++t)
#pragma unroll
            for (int c = 0; c < kMmaW / 8; ++c) nvcuda::wmma::fill_fragment(acc[t][c], 0.0);
    }
    __device__ __forceinline__ void add(const double *S, int lds, int warp, int warps, int tiles)
    {
        using namespace nvcuda;
#pragma unroll 2
        for (int k = 0; k < kMmaW; k += 4) {
            /* B(kk, c) = S(c, k + kk): row-major from S's columns */
            wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> bf[kMmaW / 8];
#pragma unroll
            for (int c = 0; c < kMmaW / 8; ++c)
                wmma::load_matrix_sync(bf[c], S + 8 * c + (size_t)k * lds, lds);
#pragma unroll
            for (int t = 0; t < kMmaRowTiles; ++t) {
                const int tile = warp + t * warps;
                if (tile >= tiles) continue; /* uniform in the warp */
                wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> af;
                wmma::load_matrix_sync(af, S + 8 * tile + (size_t)k * lds, lds);
#pragma unroll
                for (int c = 0; c < kMmaW / 8; ++c) wmma::mma_sync(acc[t][c], af, bf[c], acc[t][c]);
            }
        }
    }
    __device__ __forceinline__ void store(double *P, int lds, int warp, int warps, int tiles) const
    {
#pragma unroll
        for (int t = 0; t < kMmaRowTiles; ++t) {
            const int tile = warp + t * warps;
            if (tile >= tiles) continue;
#pragma unroll
            for (int c = 0; c < kMmaW / 8; ++c)
                nvcuda::wmma::store_matrix_sync(P + 8 * tile + (size_t)8 * c * lds, acc[t][c], lds,
                                                nvcuda::wmma::mem_col_major);
        }
    }
};

/* Single: lane l holds row l / 4 of each of its row tiles, columns
 * 8 (l % 4) .. 8 (l % 4) + 7; per column k of the chunk, one load of its
 * rows' entries and two 16-byte loads of the eight columns' (lds is a
 * multiple of 4). */
template <> struct PanelSums<float> {
    float acc[kMmaRowTiles][8];

    __device__ __forceinline__ void zero()
    {
#pragma unroll
        for (int t = 0; t < kMmaRowTiles; ++t)
#pragma unroll
            for (int q = 0; q < 8; ++q) acc[t][q] = 0.0f;
    }
    __device__ __forceinline__ void add(const float *S, int lds, int warp, int warps, int tiles)
    {
        const int lane = threadIdx.x % 32, rr = lane / 4, c0 = 8 * (lane % 4);
#pragma unroll 4
        for (int k = 0; k < kMmaW; ++k) {
            const float4 *bp = reinterpret_cast<const float4 *>(S + c0 + (size_t)k * lds);
            const float4 b0 = bp[0], b1 = bp[1];
            const float b[8] = { b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w };
#pragma unroll
            for (int t = 0; t < kMmaRowTiles; ++t) {
                const int tile = warp + t * warps;
                if (tile >= tiles) continue;
                const float a = S[8 * tile + rr + (size_t)k * lds];
#pragma unroll
                for (int q = 0; q < 8; ++q) acc[t][q] = fmaf(a, b[q], acc[t][q]);
            }
        }
    }
    __device__ __forceinline__ void store(float *P, int lds, int warp, int warps, int tiles) const
    {
        const int lane = threadIdx.x % 32, rr = lane / 4, c0 = 8 * (lane % 4);
#pragma unroll
        for (int t = 0; t < kMmaRowTiles; ++t) {
            const int tile = warp + t * warps;
            if (tile >= tiles) continue;
#pragma unroll
            for (int q = 0; q < 8; ++q) P[8 * tile + rr + (size_t)(c0 + q) * lds] = acc[t][q];
        }
    }
};

/* f(r, c) over the panel's lower view (rows 0..rows-1, columns 0..kb-1,
 * r >= c, kb <= 32), by warps so that A's side is coalesced: 'L' a column
 * a warp, its lanes down the rows; 'U' a row a warp, lane c column c. */
template <typename F>
__device__ __forceinline__ void for_panel(int rows, int kb, int upper, int lane, int warp,
                                          int warps, F f)
{
    if (upper) {
        for (int r = warp; r < rows; r += warps)
            if (lane < kb && r >= lane) f(r, lane);
    } else {
        for (int c = warp; c < kb; c += warps)
            for (int r = c + lane; r < rows; r += 32) f(r, c);
    }
}

/* blockDim.x: the order rounded up to a warp, at least 64; lds = mma_lds(the
 * largest order of the batch). 128 registers a thread (512 threads): two
 * blocks an SM up to n = 256; the diagonal block in registers spills a few
 * hundred bytes in double, as in the blocked kernel. */
template <typename T, typename Batch>
__global__ void __launch_bounds__(kMmaMaxN)
potrf_batched_mma_kernel(Batch batch, int upper, int lds, int64_t *dinfo)
{
    extern __shared__ __align__(128) unsigned char mma_smem[];
    const int64_t b = blockIdx.x;
    const int arg = batch.check(b), n = arg == 0 ? batch.order(b) : 0;
    const int64_t lda = batch.lead(b);
    T *A = n > 0 ? batch.at(b) : nullptr;
    T *S = reinterpret_cast<T *>(mma_smem);  /* S(r, k), then P(r, c), at [r + k * lds] */
    T *L11 = S + (size_t)kMmaW * lds;        /* L11(r, c) at L11[r * (kMmaW + 1) + c]  */
    T *inv_diag = L11 + kMmaW * (kMmaW + 1);
    int *flags = reinterpret_cast<int *>(inv_diag + kMmaW); /* info, the good columns */
    const int tid = threadIdx.x, nt = blockDim.x, lane = tid % 32, warp = tid / 32;
    const int warps = nt / 32;
    if (tid == 0) flags[0] = 0;
    for (int k0 = 0; k0 < n; k0 += kMmaW) {
        const int kb = n - k0 < kMmaW ? n - k0 : kMmaW, rows = n - k0, tiles = (rows + 7) / 8;
        const int fill = 8 * tiles > kMmaW ? 8 * tiles : kMmaW; /* rows of S the tiles read */
        PanelSums<T> sums;
        sums.zero();
        for (int j0 = 0; j0 < k0; j0 += kMmaW) {
            __syncthreads(); /* S free */
            /* S(r, k) = L(k0 + r, j0 + k), zero past the rows */
            if (upper) {
                for (int r = warp; r < fill; r += warps)
                    S[r + (size_t)lane * lds] = r < rows ? A[j0 + lane + (k0 + r) * lda] : T(0);
            } else {
                for (int k = warp; k < kMmaW; k += warps)
                    for (int r = lane; r < fill; r += 32)
                        S[r + (size_t)k * lds] = r < rows ? A[k0 + r + (j0 + k) * lda] : T(0);
            }
            __syncthreads();
            sums.add(S, lds, warp, warps, tiles);
        }
        __syncthreads(); /* S read */
        if (k0 > 0) sums.store(S, lds, warp, warps, tiles);
        __syncthreads();
        for_panel(rows, kb, upper, lane, warp, warps, [&](int r, int c) {
            const T a = A[view_at(k0 + r, k0 + c, lda, upper)];
            S[r + (size_t)c * lds] = k0 > 0 ? a - S[r + (size_t)c * lds] : a;
        });
        __syncthreads();
        if (warp == 0) {
            T a[kMmaW];
#pragma unroll
            for (int c = 0; c < kMmaW; ++c)
                a[c] = lane < kb && c <= lane ? S[lane + (size_t)c * lds] : T(0);
            int fail = 0; /* uniform: every lane sees the same pivots */
#pragma unroll
            for (int k = 0; k < kMmaW; ++k) {
                const T pivot = __shfl_sync(0xffffffffu, a[k], k);
                const bool step = k < kb && fail == 0;
                if (step && !(pivot > T(0))) fail = k + 1;
                const bool go = step && fail == 0;
                const T d = go ? sqrt(pivot) : T(1), rd = T(1) / d;
                if (go && lane >= k) a[k] = lane == k ? d : a[k] * rd;
                if (go && lane == k) inv_diag[k] = rd;
#pragma unroll
                for (int j = k + 1; j < kMmaW; ++j) {
                    const T ljk = __shfl_sync(0xffffffffu, a[k], j);
                    if (go && lane >= j) a[j] -= a[k] * ljk;
                }
            }
#pragma unroll
            for (int c = 0; c < kMmaW; ++c) {
                if (lane < kb && c <= lane) S[lane + (size_t)c * lds] = a[c];
                L11[lane * (kMmaW + 1) + c] = c <= lane ? a[c] : T(0);
            }
            if (lane == 0) {
                flags[1] = fail ? fail - 1 : kb;
                if (fail) flags[0] = k0 + fail;
            }
        }
        __syncthreads();
        /* the rows below get the good columns even after a failure */
        const int kg = flags[1];
        for (int r = kb + tid; r < rows; r += nt) {
            T x[kMmaW];
#pragma unroll
            for (int c = 0; c < kMmaW; ++c) x[c] = S[r + (size_t)c * lds];
#pragma unroll
            for (int c = 0; c < kMmaW; ++c) {
                if (c < kg) {
                    T s = x[c];
#pragma unroll
                    for (int j = 0; j < c; ++j) s -= x[j] * L11[c * (kMmaW + 1) + j];
                    x[c] = s * inv_diag[c];
                }
            }
#pragma unroll
            for (int c = 0; c < kMmaW; ++c)
                if (c < kg) S[r + (size_t)c * lds] = x[c];
        }
        __syncthreads();
        for_panel(rows, kb, upper, lane, warp, warps, [&](int r, int c) {
            A[view_at(k0 + r, k0 + c, lda, upper)] = S[r + (size_t)c * lds];
        });
        if (flags[0]) break; /* uniform: set before the barrier above */
    }
    if (tid == 0) dinfo[b] = arg != 0 ? arg : flags[0];
}

} // namespace

#endif
