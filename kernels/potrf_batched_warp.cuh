/*
 * potrf_batched_warp.cuh -- the batched potrf kernel for orders 33 to 256:
 * one warp per matrix, the matrix as block rows of 32, each lane holding
 * one row of a block in registers. Included by potrf_batched.cu only,
 * after potrf_batched_small.cuh (the batch forms, view_at,
 * factor_diag_block_warp).
 *
 * Left-looking by block columns J of 32 ('L'; 'U' is its transpose through
 * view_at). For block column J:
 *   1. the block row L(J, 0:J), final, to the warp's shared rows (lane r
 *      row 32 J + r; a lane reads back what it wrote itself);
 *   2. for each block row I >= J, lane r's row of it:
 *        acc := A(I, J)(r, :) - sum over K < J of L(I, K)(r, :) L(J, K)^T,
 *      L(I, K)'s row in registers, L(J, K)'s entries read from shared
 *      memory (one address for the whole warp, a broadcast);
 *      I = J: acc factored by shuffles (factor_diag_block_warp), L(J, J)
 *      to the shared rows; I > J: acc := acc L(J, J)^-T column by column
 *      (each column's updates of the later ones independent);
 *      the row written back.
 * No block barriers (a warp owns its matrix and its shared rows), compact
 * code (the unrolled steps are those of 32-wide blocks), at most two rows
 * of 32 in a lane's registers. Shared memory a matrix: 32 rows of
 * 32 ceil(n / 32) entries and 16 bytes each (33 KiB in double at n = 128).
 *
 * At the first pivot that is not positive (or NaN) the steps stop, as the
 * other kernels': the block rows below that block get its columns before
 * the failed one, and nothing right of it is touched.
 */
#ifndef GCHOL_POTRF_BATCHED_WARP_CUH
#define GCHOL_POTRF_BATCHED_WARP_CUH

#include "potrf_batched_small.cuh"

namespace {

constexpr int kWarpMaxN = 256;
/* Warps an SM the registers must allow: eight (255 registers a thread at
 * most; double takes 254, single about 220; capped at 168 both spill). */
constexpr int kWarpMinBlocks = 8;

/* The shared rows' stride for orders up to n: whole blocks of 32, plus 16
 * bytes, so that the updates read two (double) or four (single) entries of
 * a row in one 16-byte load and a lane's row writes spread over the banks. */
template <typename T> __host__ __device__ constexpr int warp_lds(int n)
{
    return (n + 31) / 32 * 32 + Vec16<T>::width;
}

/* Shared memory a matrix: its 32 rows, then the pivots' reciprocals. */
template <typename T> constexpr size_t warp_smem_bytes(int n)
{
    return ((size_t)32 * warp_lds<T>(n) + 32) * sizeof(T);
}

/* One matrix a block of 32 threads; lds = warp_lds(the largest order). */
template <typename T, typename Batch>
__global__ void __launch_bounds__(32, kWarpMinBlocks)
potrf_batched_warp_kernel(Batch batch, int upper, int lds, int64_t *dinfo)
{
    extern __shared__ __align__(16) unsigned char warp_smem[];
    T *S = reinterpret_cast<T *>(warp_smem); /* row i of block row J, column c: S[i * lds + c] */
    T *rd = S + 32 * lds;                    /* 1 / l_kk of the diagonal block L(J, J) */
    const int lane = threadIdx.x;
    const int64_t b = blockIdx.x;
    const int arg = batch.check(b), n = arg == 0 ? batch.order(b) : 0;
    const int64_t ld = batch.lead(b);
    T *A = n > 0 ? batch.at(b) : nullptr;
    const int blocks = (n + 31) / 32;
    int info = 0;
    for (int J = 0; J < blocks; ++J) {
        const int c0 = 32 * J, kb = n - c0 < 32 ? n - c0 : 32;
        const bool rowJ = lane < kb;
        /* 1. L(J, 0:J) */
#pragma unroll 8
        for (int c = 0; c < c0; ++c)
            S[lane * lds + c] = rowJ ? A[view_at(c0 + lane, c, ld, upper)] : T(0);
        __syncwarp();
        int good = kb; /* the diagonal block's factored columns */
        for (int I = J; I < blocks; ++I) {
            const int r0 = 32 * I, rows = n - r0 < 32 ? n - r0 : 32, gr = r0 + lane;
            const bool mine = lane < rows;
            /* 2. A(I, J)'s row (the diagonal block's lower triangle) less
             * the products of the block columns left of J */
            T acc[32];
#pragma unroll
            for (int j = 0; j < 32; ++j)
                acc[j] = mine && j < kb && (I > J || j <= lane) ? A[view_at(gr, c0 + j, ld, upper)]
                                                              : T(0);
            for (int k0 = 0; k0 < c0; k0 += 32) {
                T l[32];
#pragma unroll
                for (int c = 0; c < 32; ++c) l[c] = mine ? A[view_at(gr, k0 + c, ld, upper)] : T(0);
                /* every j: the entries right of a lane's diagonal are never
                 * read; L(J, K)(j, c..c+W-1) in one 16-byte load */
                using V = Vec16<T>;
                constexpr int W = V::width;
#pragma unroll
                for (int c = 0; c < 32; c += W)
#pragma unroll
                    for (int j = 0; j < 32; ++j) {
                        const typename V::type v =
                            *reinterpret_cast<const typename V::type *>(S + j * lds + k0 + c);
#pragma unroll
                        for (int t = 0; t < W; ++t) acc[j] -= l[c + t] * V::at(v, t);
                    }
            }
            if (I == J) {
                const int fail = factor_diag_block_warp(acc, kb, lane, rd);
                if (fail) {
                    info = c0 + fail;
                    good = fail - 1;
                }
#pragma unroll
                for (int j = 0; j < 32; ++j) {
                    S[lane * lds + c0 + j] = j <= lane ? acc[j] : T(0);
                    if (mine && j <= lane && j < kb) A[view_at(gr, c0 + j, ld, upper)] = acc[j];
                }
                __syncwarp();
            } else {
                /* acc := acc L(J, J)^-T for the factored columns: column j
                 * final, then its share taken from the later ones */
#pragma unroll
                for (int j = 0; j < 32; ++j) {
                    if (j < good) { /* uniform */
                        acc[j] *= rd[j];
#pragma unroll
                        for (int c = j + 1; c < 32; ++c) acc[c] -= acc[j] * S[c * lds + c0 + j];
                    }
                }
                if (mine) {
#pragma unroll
                    for (int j = 0; j < 32; ++j) A[view_at(gr, c0 + j, ld, upper)] = acc[j];
                }
            }
        }
        if (info) break; /* uniform */
        __syncwarp(); /* the shared rows read: the next block row's go in */
    }
    if (lane == 0) dinfo[b] = arg != 0 ? arg : info;
}

} // namespace

#endif
