/*
 * potrf_batched_dmma.cuh -- the batched potrf kernel for medium orders on
 * large batches: one warp per matrix, kDmmaWarps matrices a block, no
 * block barriers; the updates on the FP64 tensor cores in both precisions
 * (single's operands converted: their products exact, summed in double,
 * rounded once), the factorization and the solves in the matrix's own
 * precision. Included by potrf_batched.cu only, after
 * potrf_batched_small.cuh (the batch forms).
 *
 * Left-looking by block columns of 32 ('L'; 'U' is its transpose through
 * the strides). For block column J, each block row I >= J:
 *   1. C := A(I, J) - sum over K < J of L(I, K) L(J, K)^T on the FP64
 *      tensor cores (16 x 8 x 4 mma), the operands loaded from global
 *      memory straight into the fragments: the warp wrote them a moment
 *      before, and the cache has them;
 *   2. C to rows through the warp's 32 x 32 tile in shared memory, lane r
 *      holding row r in registers;
 *   3. I = J: factored right-looking, a column a step (one __syncwarp a
 *      column), L(J, J) left by columns in shared memory;
 *      I > J: C := C L(J, J)^-T, L(J, J)'s columns read by broadcasts;
 *   4. the row written back.
 * The matrix is read once, written once, and its L read again from the
 * cache (from DRAM where the L2 no longer holds it: 1.7 times the
 * triangle's bytes at n = 128 in double, 3 times at 256); the work a warp
 * waits on (each column's pivot, the loads) is hidden by the other
 * matrices of its SM, twelve or sixteen. Compact code (the steps are
 * those of 32-wide blocks), where the FMA-based warp kernel waits on the
 * instruction cache.
 *
 * At the first pivot that is not positive (or NaN) the steps stop, as the
 * other kernels': the block rows below that block get its columns before
 * the failed one, and nothing right of it is touched.
 */
#ifndef GCHOL_POTRF_BATCHED_DMMA_CUH
#define GCHOL_POTRF_BATCHED_DMMA_CUH

#include "potrf_batched_small.cuh"
#include "tile_common.cuh"

namespace {

constexpr int kDmmaMaxN = 512;
constexpr int kDmmaWarps = 4; /* matrices a block */
/* The tile's stride: each half warp's (double) or warp's (single) fragment
 * stores (rows g, columns 2q + e) fall in distinct banks. */
template <typename T> __host__ __device__ constexpr int dmma_ld() { return sizeof(T) == 8 ? 34 : 36; }
/* L(J, J)'s column j below the diagonal (31 - j entries), shifted, at
 * D[dmma_dcol<T>(j)]: packed, each column from a 16-byte boundary so that
 * its 16-byte loads stay aligned, the last column first. A step's update
 * reads 32 entries from its column's start, past its end into the columns
 * before it, written at earlier steps and not again: no step writes where
 * another lane may still read. */
template <typename T> __host__ __device__ constexpr int dmma_dcol(int j)
{
    constexpr int W = 16 / (int)sizeof(T);
    int o = 0;
    for (int i = j + 1; i < 32; ++i) o += (31 - i + W - 1) / W * W;
    return o;
}
/* A warp's shared memory: the tile, L(J, J) packed (and the 32 entries
 * that column 0's update reads), 1 / l_jj: 13 KiB in double, 7 in single. */
template <typename T> __host__ __device__ constexpr int dmma_warp_elems()
{
    return 32 * dmma_ld<T>() + dmma_dcol<T>(0) + 32 + 32;
}
template <typename T> constexpr size_t dmma_smem_bytes()
{
    return (size_t)kDmmaWarps * dmma_warp_elems<T>() * sizeof(T);
}

/* The diagonal block (kb <= 32 columns) factored by the warp, lane r
 * holding row r, right-looking in a loop that is not unrolled: at step k,
 * a[c] is the row's entry in column k + c (shift_update). The pivot
 * reaches the lanes by a shuffle; L(r, k) = a[0] / l_kk goes to the row
 * (global memory) and, below the diagonal, to D's column k shifted
 * (D[dmma_dcol(k) + r - k - 1]), from where each row takes its update
 * a[c] := a[c + 1] - L(r, k) L(k + 1 + c, k): LAPACK's order, whatever
 * the pivot's size. rd[k] = 1 / l_kk. Stops at the first pivot that is
 * not positive (or NaN), that column unscaled in the row, and returns its
 * 1-based column (0: none). Uniform: every lane sees the same pivots. The
 * steps unrolled were 4,700 instructions, past the instruction cache. */
template <typename T>
__device__ __forceinline__ int dmma_factor_diag(T (&a)[32], int kb, int lane, bool mine, T *row,
                                                int64_t cs, T *D, T *rd)
{
    constexpr int W = Vec16<T>::width;
#pragma unroll 1
    for (int k = 0, off = dmma_dcol<T>(0); k < kb; off -= (30 - k + W - 1) / W * W, ++k) {
        const T pivot = __shfl_sync(0xffffffffu, a[0], k);
        if (!(pivot > T(0))) {
            if (mine && lane >= k) row[k * cs] = a[0];
            return k + 1;
        }
        /* l_kk = pivot / sqrt(pivot): one square-root sequence on the step's chain */
        const T rdk = rsqrt_of(pivot), d = pivot * rdk, l = a[0] * rdk;
        T *col = D + off;
        if (lane > k) col[lane - k - 1] = l;
        if (lane == k) rd[k] = rdk;
        if (mine && lane >= k) row[k * cs] = lane == k ? d : l;
        __syncwarp();
        /* past column 31 the slots hold what they may: never stored */
        shift_update<32>(a, l, col);
    }
    return 0;
}

/* a := a L(J, J)^-T for its first `good` columns (lane r row r): column j
 * final, then its share taken from the later ones, L(c, j) from D's
 * shifted column j by broadcasts. */
template <typename T>
__device__ __forceinline__ void dmma_solve_row(T (&a)[32], int good, const T *D, const T *rd)
{
    using V = Vec16<T>;
    constexpr int W = V::width;
#pragma unroll
    for (int j = 0; j < 31; ++j) {
        if (j >= good) continue; /* uniform */
        const T x = a[j] * rd[j];
        a[j] = x;
        const T *col = D + dmma_dcol<T>(j);
#pragma unroll
        for (int m = 0; j + 1 + m < 32; m += W) {
            const typename V::type v = *reinterpret_cast<const typename V::type *>(col + m);
#pragma unroll
            for (int e = 0; e < W; ++e)
                if (j + 1 + m + e < 32) a[j + 1 + m + e] -= x * V::at(v, e);
        }
    }
    if (good == 32) a[31] *= rd[31];
}

/* count matrices of order <= kDmmaMaxN, kDmmaWarps a block of
 * 32 kDmmaWarps threads, dmma_smem_bytes<T>() of shared memory, Blocks
 * blocks an SM: 3 (at most 170 registers a thread, two k steps' fragments
 * in flight) or 4 (128, one step's; double spills a few). */
template <typename T, typename Batch, int Blocks>
__global__ void __launch_bounds__(32 * kDmmaWarps, Blocks)
potrf_batched_dmma_kernel(Batch batch, int upper, int64_t *dinfo, int64_t count)
{
    extern __shared__ __align__(16) unsigned char dmma_smem[];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
    const int64_t b = (int64_t)blockIdx.x * kDmmaWarps + warp;
    if (b >= count) return; /* the whole warp: no block barriers below */
    constexpr int ldt = dmma_ld<T>();
    T *S = reinterpret_cast<T *>(dmma_smem) + warp * dmma_warp_elems<T>(); /* the tile */
    T *D = S + 32 * ldt, *rd = D + dmma_dcol<T>(0) + 32;
    const int arg = batch.check(b), n = arg == 0 ? batch.order(b) : 0;
    const int64_t ld = batch.lead(b);
    T *A = n > 0 ? batch.at(b) : nullptr;
    /* the lower view's (i, j) at A[i * rs + j * cs] */
    const int64_t rs = upper ? ld : 1, cs = upper ? 1 : ld;
    const int blocks = (n + 31) / 32;
    int info = 0;
    for (int J = 0; J < blocks; ++J) {
        const int c0 = 32 * J, kb = n - c0 < 32 ? n - c0 : 32;
        int good = kb; /* the diagonal block's factored columns */
        for (int I = J; I < blocks; ++I) {
            const int r0 = 32 * I, rows = n - r0 < 32 ? n - r0 : 32;
            /* A(I, J) (the lower view's tile; 0 outside it) and the sum,
             * lane (g, q): rows 16 t + 8 h + g, columns 8 c + 2 q + e. The
             * tile is first used after the sum, so that its loads' wait
             * runs beside the sum's (1.90 -> 1.69 ms at n = 128 in double,
             * 2 GiB). */
            T a0[2][4][4];
            double acc[2][4][4];
#pragma unroll
            for (int t = 0; t < 2; ++t)
#pragma unroll
                for (int c = 0; c < 4; ++c)
#pragma unroll
                    for (int v = 0; v < 4; ++v) {
                        const int i = 16 * t + 8 * (v / 2) + g, j = 8 * c + 2 * q + v % 2;
                        const bool in = i < rows && j < kb && (I > J || j <= i);
                        a0[t][c][v] = in ? A[(r0 + i) * rs + (c0 + j) * cs] : T(0);
                    }
            gchol::zero_all(acc);
            /* sum over K < J of L(I, K) L(J, K)^T, A fragments L(I, K)(16 t + 8 h + g,
             * kk + q), B fragments L(J, K)(8 c + g, kk + q) */
            const T *pa = A + (r0 + g) * rs + q * cs, *pb = A + (c0 + g) * rs + q * cs;
            for (int K = 0; K < J; ++K, pa += 32 * cs, pb += 32 * cs) {
/* two steps at a time at 170 registers: all eight held 64 more and spilled */
#pragma unroll(Blocks == 3 ? 2 : 1)
                for (int kk = 0; kk < 32; kk += 4) {
                    double fa[2][2], fb[4];
#pragma unroll
                    for (int t = 0; t < 2; ++t)
#pragma unroll
                        for (int h = 0; h < 2; ++h)
                            fa[t][h] = 16 * t + 8 * h + g < rows
                                           ? double(pa[(16 * t + 8 * h) * rs + kk * cs]) : 0.0;
#pragma unroll
                    for (int c = 0; c < 4; ++c)
                        fb[c] = 8 * c + g < kb ? double(pb[8 * c * rs + kk * cs]) : 0.0;
#pragma unroll
                    for (int t = 0; t < 2; ++t)
#pragma unroll
                        for (int c = 0; c < 4; ++c)
                            gchol::dmma_16x8x4(acc[t][c], fa[t][0], fa[t][1], fb[c]);
                }
            }
            /* to rows through the tile (the previous block row's reads done) */
            __syncwarp();
#pragma unroll
            for (int t = 0; t < 2; ++t)
#pragma unroll
                for (int c = 0; c < 4; ++c)
#pragma unroll
                    for (int v = 0; v < 4; ++v)
                        S[(8 * c + 2 * q + v % 2) * ldt + 16 * t + 8 * (v / 2) + g] =
                            T(double(a0[t][c][v]) - acc[t][c][v]);
            __syncwarp();
            T a[32];
#pragma unroll
            for (int j = 0; j < 32; ++j) a[j] = S[j * ldt + lane];
            __syncwarp();
            const bool mine = lane < rows;
            T *row = A + (r0 + (mine ? lane : 0)) * rs + c0 * cs;
            if (I == J) {
                const int fail = dmma_factor_diag(a, kb, lane, mine, row, cs, D, rd);
                if (fail) {
                    info = c0 + fail;
                    good = fail - 1;
                }
                __syncwarp(); /* D and rd, for the block rows below */
            } else {
                dmma_solve_row(a, good, D, rd);
                if (mine) {
#pragma unroll
                    for (int j = 0; j < 32; ++j)
                        if (j < good) row[j * cs] = a[j];
                }
            }
        }
        if (info) break; /* uniform */
        /* block column J's stores before the lanes read them as L(., K) */
        __syncwarp();
    }
    if (lane == 0) dinfo[b] = arg != 0 ? arg : info;
}

} // namespace

#endif
