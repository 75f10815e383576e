/*
 * potrf_tiled_acc.cuh -- the tile product of the tiled Cholesky,
 * acc += SA * SB^T on 64 x 64 x 64 tiles in shared memory, on the tensor
 * cores: FP64 DMMA in double, 3xTF32 (FP32 accuracy) in single. Both run
 * on sm_80 and sm_90 (dmma_16x8x4 takes the sm_80 form there).
 *
 * Part of potrf_tiled.cu's translation unit (its anonymous namespace);
 * include it from there only.
 */
#ifndef GCHOL_POTRF_TILED_ACC_CUH
#define GCHOL_POTRF_TILED_ACC_CUH

#include "potrf_tiled_ops.cuh"

namespace {

/* DMMA form: warp w owns rows 32 (w % 2) + 0..31 and columns
 * 16 cb(w) + 0..15 as 2 x 2 tiles of m16n8; lane (g, q) = (lane / 4,
 * lane % 4) holds rows g, g + 8 and columns 2q, 2q + 1 of each. cb pairs
 * the column blocks 0 + 3 and 1 + 2 on warps w and w + 4, which share a
 * scheduler, so a B that is upper triangular (kUpperB: B(n, k) = 0 for
 * k > n, only k < 16 (cb + 1) counts) gives every scheduler the same work,
 * 5/8 of the full product. */
struct TileAccDmma {
    double acc[2][2][4];

    static __device__ __forceinline__ int col_block(int warp)
    {
        return warp < 4 ? warp / 2 : 3 - (warp - 4) / 2;
    }
    __device__ __forceinline__ void zero() { zero_all(acc); }
    /* Element (m, k) of an operand is at m*sm + k*sk: column-major
     * (sm, sk) = (1, ld), row-major (ld, 1), chosen per operand, ld = kLdA
     * or kLdB (each 4 mod 16, see tile_ld). */
    template <bool kARow, bool kBRow, int kLdA = kLdo, int kLdB = kLdo, bool kUpperB = false>
    __device__ __forceinline__ void update(const double *SA, const double *SB)
    {
        constexpr int am = kARow ? kLdA : 1, ak = kARow ? 1 : kLdA;
        constexpr int bm = kBRow ? kLdB : 1, bk = kBRow ? 1 : kLdB;
        const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
        const int cb = col_block(warp);
        const double *a = SA + (32 * (warp % 2) + g) * am + q * ak;
        const double *b = SB + (16 * cb + g) * bm + q * bk;
        const int kend = kUpperB ? 16 * (cb + 1) : kTB;
#pragma unroll 4
        for (int kk = 0; kk < kend; kk += 4) {
            double a0[2], a1[2], bv[2];
#pragma unroll
            for (int mt = 0; mt < 2; ++mt) {
                a0[mt] = a[16 * mt * am + kk * ak];
                a1[mt] = a[(16 * mt + 8) * am + kk * ak];
            }
#pragma unroll
            for (int nt = 0; nt < 2; ++nt) bv[nt] = b[8 * nt * bm + kk * bk];
#pragma unroll
            for (int mt = 0; mt < 2; ++mt)
#pragma unroll
                for (int nt = 0; nt < 2; ++nt) dmma_16x8x4(acc[mt][nt], a0[mt], a1[mt], bv[nt]);
        }
    }
    template <bool kARow, bool kBRow, typename F> __device__ __forceinline__ void for_each(F f) const
    {
        const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
#pragma unroll
        for (int mt = 0; mt < 2; ++mt)
#pragma unroll
            for (int nt = 0; nt < 2; ++nt)
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    f(32 * (warp % 2) + 16 * mt + g + 8 * (e / 2),
                      16 * col_block(warp) + 8 * nt + 2 * q + (e % 2), acc[mt][nt][e]);
    }
};

/* 3xTF32 form (single precision): the warp layout of TileAccDmma
 * (rows 32 (w % 2) + 0..31, columns 16 cb(w) + 0..15 as 2 x 2 tiles of
 * m16n8), with mma m16n8k8 on the TF32 tensor cores, each product
 * a_lo b_hi + a_hi b_lo + a_hi b_hi (tf32_split). The mma sums of one
 * update (k <= 64) go into FP32 sums by rounded FADDs, since the tensor
 * cores' accumulation truncates.
 * Every operand value is fetched in 8-byte pairs. The mma's k slots q and
 * q + 4 take k = 2q and 2q + 1 (any permutation of k serves, applied to
 * both operands). A row-major operand (X(m, k) at S[k + m*ld]) reads the
 * two as one pair, and lane g takes rows (columns) sig(g) = 0 2 4 6 1 3 5 7
 * of each 8, so that a half-warp's pairs hit all 32 banks (as WarpTileK in
 * syrk_diag_tile.cuh). A column-major one (S[m + k*ld]) pairs two m
 * instead: A's slots g and g + 8 of a 16-row tile are its rows 2g and
 * 2g + 1, B's slot g of the two 8-column tiles its columns 2g and 2g + 1 (as
 * the double WarpTile there); with k = 2q the pairs of a half-warp again
 * hit all 32 banks (ld = 4 mod 32 words). row_of / col_of undo the maps. */
struct TileAcc3xTF32 {
    float acc[2][2][4]; /* one update's mma sums */
    float sum[2][2][4]; /* FP32 sums */

    __device__ __forceinline__ static int sig(int g) { return g < 4 ? 2 * g : 2 * (g - 4) + 1; }
    /* Row of A's slot g (h = 0) or g + 8 (h = 1) in 16-row tile mt; column
     * of B's slot j in 8-column tile nt. */
    template <bool kRow>
    __device__ __forceinline__ static int row_of(int mt, int h, int g)
    {
        return kRow ? 16 * mt + 8 * h + sig(g) : 16 * mt + 2 * g + h;
    }
    template <bool kRow> __device__ __forceinline__ static int col_of(int nt, int j)
    {
        return kRow ? 8 * nt + sig(j) : 2 * j + nt;
    }
    /* The pair at p: (k, k + 1) of a row-major operand, (m, m + 1) of a
     * column-major one. */
    __device__ __forceinline__ static float2 pair(const float *p)
    {
        return *reinterpret_cast<const float2 *>(p);
    }

    __device__ __forceinline__ void zero() { zero_all(sum); }
    template <bool kARow, bool kBRow, int kLdA = kLdo, int kLdB = kLdo, bool kUpperB = false>
    __device__ __forceinline__ void update(const float *SA, const float *SB)
    {
        constexpr int am = kARow ? kLdA : 1, ak = kARow ? 1 : kLdA;
        constexpr int bm = kBRow ? kLdB : 1, bk = kBRow ? 1 : kLdB;
        const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
        const int cb = TileAccDmma::col_block(warp);
        /* element (row_of(0, 0, g), 2q) of this warp's rows, (col_of(0, g), 2q) of B */
        const float *a = SA + (32 * (warp % 2) + row_of<kARow>(0, 0, g)) * am + 2 * q * ak;
        const float *b = SB + (16 * cb + col_of<kBRow>(0, g)) * bm + 2 * q * bk;
        const int kend = kUpperB ? 16 * (cb + 1) : kTB;
        zero_all(acc);
#pragma unroll 2
        for (int kk = 0; kk < kend; kk += 8) {
            float av[2][2][2], bv[2][2]; /* A [mt][h][k slot], B [nt][k slot] */
#pragma unroll
            for (int mt = 0; mt < 2; ++mt) {
                const float *p = a + 16 * mt * am + kk * ak;
                if constexpr (kARow) {
#pragma unroll
                    for (int h = 0; h < 2; ++h) {
                        const float2 v = pair(p + 8 * h * am);
                        av[mt][h][0] = v.x;
                        av[mt][h][1] = v.y;
                    }
                } else {
#pragma unroll
                    for (int j = 0; j < 2; ++j) {
                        const float2 v = pair(p + j * ak);
                        av[mt][0][j] = v.x;
                        av[mt][1][j] = v.y;
                    }
                }
            }
            if constexpr (kBRow) {
#pragma unroll
                for (int nt = 0; nt < 2; ++nt) {
                    const float2 v = pair(b + 8 * nt * bm + kk * bk);
                    bv[nt][0] = v.x;
                    bv[nt][1] = v.y;
                }
            } else {
#pragma unroll
                for (int j = 0; j < 2; ++j) {
                    const float2 v = pair(b + (kk + j) * bk);
                    bv[0][j] = v.x;
                    bv[1][j] = v.y;
                }
            }
            unsigned ah[2][4], al[2][4], bh[2][2], bl[2][2];
#pragma unroll
            for (int mt = 0; mt < 2; ++mt) {
                tf32_split(av[mt][0][0], ah[mt][0], al[mt][0]);
                tf32_split(av[mt][1][0], ah[mt][1], al[mt][1]);
                tf32_split(av[mt][0][1], ah[mt][2], al[mt][2]);
                tf32_split(av[mt][1][1], ah[mt][3], al[mt][3]);
            }
#pragma unroll
            for (int nt = 0; nt < 2; ++nt) {
                tf32_split(bv[nt][0], bh[nt][0], bl[nt][0]);
                tf32_split(bv[nt][1], bh[nt][1], bl[nt][1]);
            }
#pragma unroll
            for (int mt = 0; mt < 2; ++mt)
#pragma unroll
                for (int nt = 0; nt < 2; ++nt) {
                    mma_16x8x8_tf32(acc[mt][nt], al[mt], bh[nt][0], bh[nt][1]);
                    mma_16x8x8_tf32(acc[mt][nt], ah[mt], bl[nt][0], bl[nt][1]);
                    mma_16x8x8_tf32(acc[mt][nt], ah[mt], bh[nt][0], bh[nt][1]);
                }
        }
#pragma unroll
        for (int mt = 0; mt < 2; ++mt)
#pragma unroll
            for (int nt = 0; nt < 2; ++nt)
#pragma unroll
                for (int e = 0; e < 4; ++e) sum[mt][nt][e] += acc[mt][nt][e];
    }
    /* f(row, col, value) for every sum: the accumulator holds slots g,
     * g + 8 and columns slots 2q, 2q + 1 of each m16n8 tile. */
    template <bool kARow, bool kBRow, typename F> __device__ __forceinline__ void for_each(F f) const
    {
        const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
#pragma unroll
        for (int mt = 0; mt < 2; ++mt)
#pragma unroll
            for (int nt = 0; nt < 2; ++nt)
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    f(32 * (warp % 2) + row_of<kARow>(mt, e / 2, g),
                      16 * TileAccDmma::col_block(warp) + col_of<kBRow>(nt, 2 * q + e % 2),
                      sum[mt][nt][e]);
    }
};

/* The product of each precision. */
template <typename T> struct TileAccOf;
template <> struct TileAccOf<double> { using type = TileAccDmma; };
template <> struct TileAccOf<float> { using type = TileAcc3xTF32; };

} // namespace

#endif
