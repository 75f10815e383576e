/*
 * potrf_batched_warp.cuh -- the batched potrf kernel for orders 33 to 64:
 * one warp per matrix, the matrix as two block rows of 32, each lane
 * holding one row of a block in registers. Included by potrf_batched.cu
 * only, after potrf_batched_small.cuh (the batch forms, view_at,
 * factor_diag_block_warp, kRegThreads).
 *
 * For lane r, with n1 = min(n, 32) and n2 = n - n1 (blocked right-looking,
 * 'L'; 'U' is its transpose through view_at):
 *   1. a := A11(r, :) and x := A21(r, :) loaded; A11 = L11 L11^T by
 *      shuffles (factor_diag_block_warp), L11 and 1 / l_kk to the warp's
 *      shared square;
 *   2. x := x L11^-T, column by column (each column's updates of the
 *      later ones independent: one multiply and one fma deep a column),
 *      L11's entries read from shared memory (one address for the whole
 *      warp, a broadcast);
 *   3. L21 to the shared square; y := A22(r, :) - L21(r, :) L21^T;
 *   4. A22 - L21 L21^T = L22 L22^T by shuffles.
 * No block barriers (a warp owns its matrix and its shared square), and
 * compact code: the unrolled steps are those of 32-wide blocks. At most
 * two rows of 32 live in a lane's registers at a time.
 *
 * At the first pivot that is not positive (or NaN) the steps stop, as the
 * other kernels': in block 1 at column k, the rows of A21 are solved for
 * the columns before k and A22 is untouched; A11 and A21 written back.
 */
#ifndef GCHOL_POTRF_BATCHED_WARP_CUH
#define GCHOL_POTRF_BATCHED_WARP_CUH

#include "potrf_batched_small.cuh"

namespace {

constexpr int kWarpMaxN = 64;
constexpr int kWarpBlocksPerSm = 3; /* 170 registers a thread at most */
constexpr int kWarpLds = 33; /* the shared square's row stride: a lane's row
                                writes fall two lanes to a bank pair */

/* count matrices, kRegThreads / 32 a block, orders up to kWarpMaxN. */
template <typename T, typename Batch>
__global__ void __launch_bounds__(kRegThreads, kWarpBlocksPerSm)
potrf_batched_warp_kernel(Batch batch, int upper, int64_t *dinfo, int64_t count)
{
    constexpr int kWarps = kRegThreads / 32;
    __shared__ T square[kWarps][32 * kWarpLds]; /* L11, then L21: (i, j) at [i * kWarpLds + j] */
    __shared__ T rdiag[kWarps][32];             /* 1 / l_kk of the block being used */
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    const int64_t b = (int64_t)blockIdx.x * kWarps + w;
    if (b >= count) return; /* a whole warp: nothing below waits on a block barrier */
    const int arg = batch.check(b), n = arg == 0 ? batch.order(b) : 0;
    const int64_t ld = batch.lead(b);
    T *A = n > 0 ? batch.at(b) : nullptr;
    T *S = square[w], *rd = rdiag[w];
    const int n1 = n < 32 ? n : 32, n2 = n - n1, r2 = 32 + lane;
    const bool row1 = lane < n1, row2 = lane < n2;

    /* 1. block 1 */
    T a[32], x[32];
#pragma unroll
    for (int j = 0; j < 32; ++j) a[j] = row1 && j <= lane ? A[view_at(lane, j, ld, upper)] : T(0);
    const int fail1 = factor_diag_block_warp(a, n1, lane, rd);
    const int good1 = fail1 ? fail1 - 1 : n1; /* block 1's factored columns */
#pragma unroll
    for (int j = 0; j < 32; ++j) {
        S[lane * kWarpLds + j] = j <= lane ? a[j] : T(0);
        if (row1 && j <= lane) A[view_at(lane, j, ld, upper)] = a[j];
    }
    __syncwarp();
#pragma unroll
    for (int j = 0; j < 32; ++j) x[j] = row2 ? A[view_at(r2, j, ld, upper)] : T(0);

    /* 2. x := x L11^-T for the factored columns: column j final, then its
     * share taken from the later ones */
    if (n2 > 0) {
#pragma unroll
        for (int j = 0; j < 32; ++j) {
            if (j < good1) { /* uniform */
                x[j] *= rd[j];
#pragma unroll
                for (int c = j + 1; c < 32; ++c) x[c] -= x[j] * S[c * kWarpLds + j];
            }
        }
    }
    if (fail1 || n2 == 0) {
        if (row2) {
#pragma unroll
            for (int j = 0; j < 32; ++j) A[view_at(r2, j, ld, upper)] = x[j];
        }
        if (lane == 0) dinfo[b] = arg != 0 ? arg : fail1;
        return; /* uniform */
    }

    /* 3. L21 out and to the square (every lane done with L11's), then
     * y := A22(r, :) - L21(r, :) L21^T, rows past n2 zero */
    __syncwarp();
    T y[32];
#pragma unroll
    for (int j = 0; j < 32; ++j) {
        y[j] = row2 && j <= lane ? A[view_at(r2, 32 + j, ld, upper)] : T(0);
        S[lane * kWarpLds + j] = x[j];
        if (row2) A[view_at(r2, j, ld, upper)] = x[j];
    }
    __syncwarp();
    /* every j: the entries right of a lane's diagonal are never read */
#pragma unroll
    for (int c = 0; c < 32; ++c) {
#pragma unroll
        for (int j = 0; j < 32; ++j) y[j] -= x[c] * S[j * kWarpLds + c];
    }

    /* 4. block 2 */
    const int fail2 = factor_diag_block_warp(y, n2, lane, rd);
#pragma unroll
    for (int j = 0; j < 32; ++j)
        if (row2 && j <= lane) A[view_at(r2, 32 + j, ld, upper)] = y[j];
    if (lane == 0) dinfo[b] = arg != 0 ? arg : fail2 ? 32 + fail2 : 0;
}

} // namespace

#endif
