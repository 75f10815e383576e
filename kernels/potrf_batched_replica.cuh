/*
 * potrf_batched_replica.cuh -- the batched potrf kernel for small batches
 * of n <= 64: a block of W warps per matrix (W = 4, 6 or 8: 8 W >= n),
 * warp w holding columns 8w .. 8w + 7 of every row (lane r rows r and
 * r + 32), right-looking by panels of 8. Panel k's 8 x 8 diagonal block
 * goes through shared memory to every lane of warp k, and each lane
 * factors it alone, in registers: no shuffle and no branch on the pivots'
 * chain, whose step is a reciprocal square root, a product and an FMA.
 * Each lane then solves its rows' 8 entries against the block, the
 * panel's L goes to shared memory, one block barrier, and the later warps
 * take their rank-8 updates. Included by potrf_batched.cu only, after
 * potrf_batched_small.cuh (the batch forms, view_at, Vec16, rsqrt_of).
 *
 * The chain's reciprocal square root is the hardware's approximation and
 * one cubic step (for double; single's approximation alone), which takes
 * positive normal pivots below 2^1022 (2^126 in single) to within an ulp
 * or two, as rsqrt does; a block with a pivot outside that range
 * (subnormal, huge or Inf) is factored again with rsqrt_of.
 *
 * Ahead of the panels kernel and the tiles kernel where the batch leaves
 * most multiprocessors one block: at 100 matrices the chain is the time
 * (n = 32 in double: 0.0103 ms against the panels kernel's 0.0114; n =
 * 64: 0.0168 against the tiles kernel's 0.0189); on full waves the
 * replicated factorizations' work is (1,000 matrices of 64 in double:
 * 0.108 ms against 0.051).
 *
 * At the first pivot that is not positive (or NaN), column k (1-based
 * dinfo[b] = k) is left unscaled with the failed pivot in A(k, k), the
 * columns before it hold the factor's, the panel's later columns partly
 * updated and the later panels as the earlier panels left them (LAPACK
 * leaves them unspecified).
 */
#ifndef GCHOL_POTRF_BATCHED_REPLICA_CUH
#define GCHOL_POTRF_BATCHED_REPLICA_CUH

#include "potrf_batched_small.cuh"

namespace {

constexpr int kReplicaCols = 8;     /* a panel: a warp's columns (panel_rank8_update's) */
constexpr int kReplicaMaxWarps = 8; /* n <= 64 */

/* 1 / sqrt(x) on the chain, exact to an ulp or two for positive normal x
 * below the ranges above (replica_fast_ok); anything else is refactored. */
__device__ __forceinline__ double replica_rsqrt(double x)
{
    double y;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
    const double e = fma(-x, y * y, 1.0);
    return fma(fma(e, 0.375, 0.5), y * e, y);
}
__device__ __forceinline__ float replica_rsqrt(float x)
{
    float y;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}
/* rd = replica_rsqrt(pivot) came from a pivot in [2^-996, 2^996] (double;
 * [2^-120, 2^120] single): false for a subnormal, huge or infinite one */
__device__ __forceinline__ bool replica_fast_ok(double rd) { return rd > 0x1p-498 && rd < 0x1p498; }
__device__ __forceinline__ bool replica_fast_ok(float rd) { return rd > 0x1p-60f && rd < 0x1p60f; }

/* The lower triangle of the 8 x 8 block d (every lane alike) factored in
 * place, the columns at and after c0 + 8 >= n skipped: d(j, c) := L(j, c)
 * below the diagonal, rdv[c] = 1 / L(c, c), 0 from the first pivot that
 * is not positive (or NaN) on, whose 1-based column in the matrix it
 * returns (0: none). Straight code: every step runs, a failed one with a
 * factor of 0. Fast: replica_rsqrt, else rsqrt_of. */
template <bool Fast, typename T>
__device__ __forceinline__ int replica_factor(T (&d)[kReplicaCols][kReplicaCols],
                                              T (&rdv)[kReplicaCols], int c0, int n)
{
    int fail = 0;
#pragma unroll
    for (int c = 0; c < kReplicaCols; ++c) {
        const T pivot = d[c][c];
        const bool live = c0 + c < n && fail == 0;
        if (live && !(pivot > T(0))) fail = c0 + c + 1;
        const bool ok = live && fail == 0;
        const T rd = Fast ? replica_rsqrt(pivot) : rsqrt_of(ok ? pivot : T(1));
        rdv[c] = ok ? rd : T(0);
#pragma unroll
        for (int j = c + 1; j < kReplicaCols; ++j) d[j][c] = ok ? d[j][c] * rd : T(0);
#pragma unroll
        for (int j = c + 1; j < kReplicaCols; ++j)
#pragma unroll
            for (int i = j; i < kReplicaCols; ++i) d[i][j] -= d[i][c] * d[j][c];
    }
    return fail;
}

/* Block of 32 W threads per matrix; W * 8 >= the batch's largest order. */
template <typename T, int W, typename Batch>
__global__ void __launch_bounds__(32 * W)
potrf_batched_replica_kernel(Batch batch, int upper, int64_t *dinfo)
{
    static_assert(W >= 1 && W <= kReplicaMaxWarps, "n <= 64");
    constexpr int H = (kReplicaCols * W + 31) / 32, R = 32 * H; /* rows a lane, rows */
    constexpr int C = kReplicaCols;
    /* a panel's L(r, 8k + c) at [k % 2][c][r] (two buffers: panel k + 2
     * writes one after every read of panel k's), its diagonal block */
    __shared__ __align__(16) T lp[2][C][R];
    __shared__ T diag[C][C];
    __shared__ int s_info[2];
    const int r = threadIdx.x % 32, w = threadIdx.x / 32, c0 = w * C;
    const int64_t b = blockIdx.x;
    const int arg = batch.check(b), n = arg == 0 ? batch.order(b) : 0;
    const int64_t ld = batch.lead(b);
    T *A = n > 0 ? batch.at(b) : nullptr;
    T a[H][C]; /* a[h][c] = A(r + 32 h, c0 + c) of the lower view, 0 above it */
#pragma unroll
    for (int h = 0; h < H; ++h)
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const int row = r + 32 * h;
            a[h][c] = row < n && c0 + c <= row ? A[view_at(row, c0 + c, ld, upper)] : T(0);
        }
    int info = 0;
#pragma unroll 1
    for (int kb = 0; kb < W && kb * C < n; ++kb) {
        T (*L)[R] = lp[kb & 1];
        if (w == kb) {
            /* the diagonal block: lanes i0 .. i0 + 7 of row half hk */
            const int hk = c0 / 32, i0 = c0 % 32;
            if (r >= i0 && r < i0 + C) {
#pragma unroll
                for (int h = 0; h < H; ++h)
                    if (h == hk) {
#pragma unroll
                        for (int c = 0; c < C; ++c) diag[r - i0][c] = a[h][c];
                    }
            }
            __syncwarp();
            T d[C][C], rdv[C];
#pragma unroll
            for (int i = 0; i < C; ++i)
#pragma unroll
                for (int j = 0; j <= i; ++j) d[i][j] = diag[i][j];
            int fail = replica_factor<true>(d, rdv, c0, n);
            bool fast = true;
#pragma unroll
            for (int c = 0; c < C; ++c) fast = fast && (rdv[c] == T(0) || replica_fast_ok(rdv[c]));
            if (!fast) { /* uniform: every lane holds the same block */
#pragma unroll
                for (int i = 0; i < C; ++i)
#pragma unroll
                    for (int j = 0; j <= i; ++j) d[i][j] = diag[i][j];
                fail = replica_factor<false>(d, rdv, c0, n);
            }
            /* each lane's rows: x_c = a_c / L(c, c), a_j -= x_c L(j, c);
             * unscaled from the failed column on; an Inf pivot's L(k, k)
             * is LAPACK's sqrt(Inf) */
#pragma unroll
            for (int h = 0; h < H; ++h) {
                if (32 * h + 31 < c0) continue; /* uniform: no rows at or below the panel */
                const int row = r + 32 * h;
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    const bool ok = rdv[c] != T(0);
                    const T x = ok ? a[h][c] * rdv[c] : a[h][c];
                    const T f = ok && row > c0 + c ? x : T(0);
#pragma unroll
                    for (int j = c + 1; j < C; ++j) a[h][j] -= f * d[j][c];
                    if (row == c0 + c && ok) a[h][c] = isinf(a[h][c]) ? a[h][c] : x;
                    else if (row > c0 + c) a[h][c] = x;
                    L[c][row] = f;
                }
            }
            if (r == 0) s_info[kb & 1] = fail;
        }
        __syncthreads();
        if ((info = s_info[kb & 1]) != 0) break; /* uniform */
        if (w > kb) {
#pragma unroll
            for (int h = 0; h < H; ++h)
                if (32 * h + 31 >= c0) panel_rank8_update(a[h], L, r + 32 * h, c0); /* uniform */
        }
    }
#pragma unroll
    for (int h = 0; h < H; ++h) {
        const int row = r + 32 * h;
        if (row < n) {
#pragma unroll
            for (int c = 0; c < C; ++c)
                if (c0 + c <= row) A[view_at(row, c0 + c, ld, upper)] = a[h][c];
        }
    }
    if (threadIdx.x == 0) dinfo[b] = arg != 0 ? arg : info;
}

} // namespace

#endif
