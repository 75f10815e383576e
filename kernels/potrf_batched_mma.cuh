/*
 * potrf_batched_mma.cuh -- the batched potrf kernel for medium orders (up
 * to 512) whose updates run as matrix-multiply-accumulate tiles: in double
 * on the FP64 tensor cores (16 x 8 x 4 mma), in single as register tiles of
 * FMAs (the tensor cores' TF32 would lose single's accuracy). Included by
 * potrf_batched.cu only, after potrf_batched_small.cuh (the batch forms,
 * view_at).
 *
 * A thread block per matrix, left-looking by panels of kMmaW columns:
 *   1. the panel's update, sums = L(k0:n, 0:k0) L(k0:k0+kMmaW, 0:k0)^T, by
 *      chunks of kMmaW columns: each chunk S = L(k0:n, j0:j0+kMmaW) staged
 *      in shared memory by columns. The panel's own rows of S are the
 *      product's right factor, so one staging serves both operands. Each
 *      warp keeps up to two row tiles (16 x kMmaW) of sums in registers.
 *      With two buffers (Two), the next chunk's copies are in flight while
 *      the tiles take the current one;
 *   2. P = A(panel) - sums, in shared memory (over S);
 *   3. the diagonal block factored by warp 0 in registers (lane r row r,
 *      pivots and l_jk by shuffles), and copied for the rows below;
 *   4. each row below solved by one thread, x := x L11^-T, in registers;
 *   5. the panel written back.
 * Five barriers a panel, and two a chunk of its update (Two: three, and one
 * more a panel for its first chunk).
 */
#ifndef GCHOL_POTRF_BATCHED_MMA_CUH
#define GCHOL_POTRF_BATCHED_MMA_CUH

#include "potrf_batched_small.cuh"

#include "tile_common.cuh"

namespace {

constexpr int kMmaW = 32;       /* panel and chunk width */
constexpr int kMmaMaxN = 512;
static_assert(kMmaW == 32, "a lane per column of a chunk or panel");

/* The leading dimension of S and P (by columns) for orders up to n:
 * gchol::tile_ld's (4 mod 16: the fragment loads in distinct banks, and a
 * multiple of 4 for single's 16-byte loads) of at least kMmaW rows, which
 * the right factor reads. */
__host__ __device__ constexpr int mma_lds(int n) { return gchol::tile_ld(n > kMmaW ? n : kMmaW); }

/* Shared memory of the kernel for orders up to n: S (kMmaW x lds; two of
 * them with two buffers), the diagonal block's copy, its reciprocal pivots
 * and two flags. */
template <typename T> constexpr size_t mma_smem_bytes(int n, bool two = false)
{
    return ((size_t)kMmaW * mma_lds(n) * (two ? 2 : 1) + kMmaW * (kMmaW + 1) + kMmaW) * sizeof(T) +
           2 * sizeof(int);
}

/* One warp's sums: row tiles warp and warp + warps (16 rows each, rows <=
 * 32 warps), each 16 x kMmaW. add() accumulates S(tile rows, :) S(0:kMmaW, :)^T
 * for one staged chunk (S(r, k) at S[r + k * lds]); store() writes the sums
 * to P(r, c) at P[r + c * lds]. A warp past the tiles does nothing. */
template <typename T> struct PanelSums;

/* Double on the FP64 tensor cores (gchol::dmma_16x8x4): lane (g, q) = (lane
 * / 4, lane % 4) loads A(16 t + g, k + q), A(16 t + 8 + g, k + q) and B(k + q,
 * 8 c + g) = S(8 c + g, k + q), and holds the sums of rows 16 t + g and
 * 16 t + 8 + g at columns 8 c + 2 q, 8 c + 2 q + 1. With lds = 4 mod 16, each
 * half warp's loads fall in distinct banks. */
template <> struct PanelSums<double> {
    double acc[2][kMmaW / 8][4];

    __device__ __forceinline__ void zero() { gchol::zero_all(acc); }
    __device__ __forceinline__ void add(const double *S, int lds, int warp, int warps, int tiles)
    {
        if (warp >= tiles) return; /* uniform in the warp */
        const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4, t1 = warp + warps;
        const bool two = t1 < tiles;
        const double *s = S + g + q * lds;
#pragma unroll 2
        for (int k = 0; k < kMmaW; k += 4, s += 4 * lds) {
            double bq[kMmaW / 8];
#pragma unroll
            for (int c = 0; c < kMmaW / 8; ++c) bq[c] = s[8 * c];
            const double a0 = s[16 * warp], a1 = s[16 * warp + 8];
#pragma unroll
            for (int c = 0; c < kMmaW / 8; ++c) gchol::dmma_16x8x4(acc[0][c], a0, a1, bq[c]);
            if (two) {
                const double a2 = s[16 * t1], a3 = s[16 * t1 + 8];
#pragma unroll
                for (int c = 0; c < kMmaW / 8; ++c) gchol::dmma_16x8x4(acc[1][c], a2, a3, bq[c]);
            }
        }
    }
    __device__ __forceinline__ void store(double *P, int lds, int warp, int warps, int tiles) const
    {
        const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
#pragma unroll
        for (int t = 0; t < 2; ++t) {
            const int tile = warp + t * warps;
            if (tile >= tiles) continue;
#pragma unroll
            for (int c = 0; c < kMmaW / 8; ++c) {
                double *p = P + 16 * tile + g + (8 * c + 2 * q) * lds;
                p[0] = acc[t][c][0];
                p[lds] = acc[t][c][1];
                p[8] = acc[t][c][2];
                p[8 + lds] = acc[t][c][3];
            }
        }
    }
};

/* Single: lane l holds rows 16 t + l / 4 and 16 t + 8 + l / 4, columns
 * 8 (l % 4) .. 8 (l % 4) + 7; per column k of the chunk, two loads of its
 * rows' entries a tile and two 16-byte loads of the eight columns' (lds is
 * a multiple of 4). */
template <> struct PanelSums<float> {
    float acc[2][2][8];

    __device__ __forceinline__ void zero() { gchol::zero_all(acc); }
    __device__ __forceinline__ void add(const float *S, int lds, int warp, int warps, int tiles)
    {
        if (warp >= tiles) return;
        const int lane = threadIdx.x % 32, rr = lane / 4, c0 = 8 * (lane % 4), t1 = warp + warps;
        const bool two = t1 < tiles;
        const float *s = S;
#pragma unroll 4
        for (int k = 0; k < kMmaW; ++k, s += lds) {
            const float4 *bp = reinterpret_cast<const float4 *>(s + c0);
            const float4 b0 = bp[0], b1 = bp[1];
            const float b[8] = { b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w };
            /* every load of the step first, then the FMAs */
            const float a[2][2] = {
                { s[16 * warp + rr], s[16 * warp + 8 + rr] },
                { two ? s[16 * t1 + rr] : 0.0f, two ? s[16 * t1 + 8 + rr] : 0.0f } };
#pragma unroll
            for (int t = 0; t < 2; ++t)
#pragma unroll
                for (int h = 0; h < 2; ++h)
#pragma unroll
                    for (int j = 0; j < 8; ++j) acc[t][h][j] = fmaf(a[t][h], b[j], acc[t][h][j]);
        }
    }
    __device__ __forceinline__ void store(float *P, int lds, int warp, int warps, int tiles) const
    {
        const int lane = threadIdx.x % 32, rr = lane / 4, c0 = 8 * (lane % 4);
#pragma unroll
        for (int t = 0; t < 2; ++t) {
            const int tile = warp + t * warps;
            if (tile >= tiles) continue;
#pragma unroll
            for (int h = 0; h < 2; ++h)
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    P[16 * tile + 8 * h + rr + (c0 + j) * lds] = acc[t][h][j];
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

/* Chunk j0 of the panel's rows into S: S(r, k) = L(k0 + r, j0 + k), zero
 * past the rows (fill rows in all), by copies that take no registers, all
 * of a thread's in flight at once (committed as one group). */
template <typename T>
__device__ __forceinline__ void stage_chunk(T *S, int lds, const T *A, int64_t lda, int upper,
                                            int k0, int j0, int rows, int fill, int lane, int warp,
                                            int warps)
{
    if (upper) { /* a warp on 32 / W rows x W columns: 32-byte pieces of A's rows,
                  * distinct banks in S */
        constexpr int W = 32 / sizeof(T), R = 32 / W;
        for (int r = warp * R + lane / W; r < fill; r += warps * R)
            for (int k = lane % W; k < kMmaW; k += W)
                gchol::cp_async_el(S + r + k * lds, r < rows ? A + j0 + k + (int64_t)(k0 + r) * lda : A,
                                   r < rows ? (int)sizeof(T) : 0);
    } else {
        for (int k = warp; k < kMmaW; k += warps)
            for (int r = lane; r < fill; r += 32)
                gchol::cp_async_el(S + r + k * lds, r < rows ? A + k0 + r + (int64_t)(j0 + k) * lda : A,
                                   r < rows ? (int)sizeof(T) : 0);
    }
    gchol::cp_async_commit();
}

/* blockDim.x: the order rounded up to a warp, at least 64; lds = mma_lds(the
 * largest order of the batch). 128 registers a thread (512 threads): two
 * blocks an SM up to n = 256 (about 200 bytes of spills in double, local
 * to the phases outside the updates). Two: a second chunk buffer, the
 * next chunk staged while the current one is multiplied. */
template <typename T, bool Two, typename Batch>
__global__ void __launch_bounds__(kMmaMaxN)
potrf_batched_mma_kernel(Batch batch, int upper, int lds, int64_t *dinfo)
{
    extern __shared__ __align__(128) unsigned char mma_smem[];
    const int64_t b = blockIdx.x;
    const int arg = batch.check(b), n = arg == 0 ? batch.order(b) : 0;
    const int64_t lda = batch.lead(b);
    T *A = n > 0 ? batch.at(b) : nullptr;
    T *S = reinterpret_cast<T *>(mma_smem);  /* S(r, k), then P(r, c), at [r + k * lds] */
    T *S2 = S + (size_t)kMmaW * lds;         /* the second chunk buffer (Two)          */
    T *L11 = S + (size_t)kMmaW * lds * (Two ? 2 : 1); /* L11(r, c) at [r * (kMmaW + 1) + c] */
    T *inv_diag = L11 + kMmaW * (kMmaW + 1);
    int *flags = reinterpret_cast<int *>(inv_diag + kMmaW); /* info, the good columns */
    const int tid = threadIdx.x, nt = blockDim.x, lane = tid % 32, warp = tid / 32;
    const int warps = nt / 32;
    if (tid == 0) flags[0] = 0;
    for (int k0 = 0; k0 < n; k0 += kMmaW) {
        const int kb = n - k0 < kMmaW ? n - k0 : kMmaW, rows = n - k0, tiles = (rows + 15) / 16;
        const int fill = 16 * tiles > kMmaW ? 16 * tiles : kMmaW; /* rows of S the tiles read */
        PanelSums<T> sums;
        sums.zero();
        if (Two && k0 > 0) { /* the first chunk, once the previous panel left S */
            __syncthreads();
            stage_chunk(S, lds, A, lda, upper, k0, 0, rows, fill, lane, warp, warps);
        }
        for (int j0 = 0, c = 0; j0 < k0; j0 += kMmaW, ++c) {
            T *Sc = Two && c % 2 ? S2 : S;
            if (Two) {
                /* the next chunk into the other buffer, which every warp
                 * left at the barrier ending the last step; this one's
                 * copies waited for */
                if (j0 + kMmaW < k0) {
                    stage_chunk(c % 2 ? S : S2, lds, A, lda, upper, k0, j0 + kMmaW, rows, fill,
                                lane, warp, warps);
                    gchol::cp_async_wait<1>();
                } else {
                    gchol::cp_async_wait<0>();
                }
            } else {
                __syncthreads(); /* S free */
                stage_chunk(S, lds, A, lda, upper, k0, j0, rows, fill, lane, warp, warps);
                gchol::cp_async_wait<0>();
            }
            __syncthreads();
            sums.add(Sc, lds, warp, warps, tiles);
            if (Two) __syncthreads(); /* Sc read: the next step stages into it */
        }
        if (!Two || k0 == 0) __syncthreads(); /* S read (Two: the loop's last barrier) */
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
            const int fail = factor_diag_block_warp(a, kb, lane, inv_diag);
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
