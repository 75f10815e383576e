/*
 * potrf_batched_replica.cuh -- the batched potrf kernel for small batches
 * of n <= 64: a block of W warps per matrix (W = 4, 6 or 8: 8 W >= n),
 * warp w holding columns 8w .. 8w + 7 of every row (lane r rows r and
 * r + 32), right-looking by panels of 8. Panel k's 8 x 8 diagonal block
 * goes through shared memory to every lane of warp k, and each lane
 * factors it alone, in registers: no shuffle, no branch and no select on
 * the pivots' chain, whose step is a reciprocal and one FMA (the next
 * pivot d - l^2 / p, l^2 formed off the chain). Each lane solves its rows'
 * 8 entries against the block (with one row a lane, issued with the
 * factorization), the panel's L goes to shared memory, one block barrier,
 * and the later warps take their rank-8 updates. Included by
 * potrf_batched.cu only, after potrf_batched_small.cuh (the batch forms,
 * view_at, Vec16, rsqrt_of).
 *
 * That fast path takes pivots in [2^-500, 2^500] ([2^-60, 2^60] in
 * single), where the hardware's approximations with one cubic step
 * (single: alone) are exact to an ulp or two; a block with any other pivot
 * (not positive, NaN, tiny or huge) is factored again with rsqrt_of and a
 * select per step, the rows' solve redone from a copy.
 *
 * Ahead of the panels kernel and the tiles kernel where the batch leaves
 * most multiprocessors one block: at 100 matrices the chain is the time
 * (n = 32 in double: 0.0108 ms against the panels kernel's 0.0114; n =
 * 64: 0.0160 against the tiles kernel's 0.0189); on full waves the
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

/* 1 / sqrt(x) and 1 / x for a pivot in the fast path's range
 * (replica_pivot_ok): the hardware's approximation and one cubic step in
 * double (single's approximation alone), to an ulp or two. */
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
__device__ __forceinline__ double replica_rcp(double x)
{
    double y;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
    const double e = fma(-x, y, 1.0);
    return fma(fma(e, e, e), y, y);
}
__device__ __forceinline__ float replica_rcp(float x)
{
    float y;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}
/* The fast path's pivots: in [2^-500, 2^500] (single [2^-60, 2^60]), so
 * that the approximations hold and the unscaled products l_j1 l_j2 / p of
 * its updates keep their precision; false for NaN. */
__device__ __forceinline__ bool replica_pivot_ok(double p) { return p >= 0x1p-500 && p <= 0x1p500; }
__device__ __forceinline__ bool replica_pivot_ok(float p) { return p >= 0x1p-60f && p <= 0x1p60f; }

/* The lower triangle of the 8 x 8 block d (every lane alike), padded with
 * a unit diagonal past n, factored in place on the fast path: d(j, c) :=
 * L(j, c) below the diagonal, rdv[c] = 1 / L(c, c). The chain from one
 * pivot to the next is a reciprocal and one FMA, p' = d - d_c^2 (1 / p),
 * with no select on it; false (the block to be factored again by
 * replica_factor) if any pivot is outside replica_pivot_ok. */
template <typename T>
__device__ __forceinline__ bool replica_factor_fast(T (&d)[kReplicaCols][kReplicaCols],
                                                    T (&rdv)[kReplicaCols])
{
    constexpr int C = kReplicaCols;
    bool ok = true;
#pragma unroll
    for (int c = 0; c < C; ++c) {
        const T p = d[c][c];
        ok &= replica_pivot_ok(p);
        const T inv = replica_rcp(p);
        rdv[c] = replica_rsqrt(p);
        if (c + 1 < C) d[c + 1][c + 1] = fma(-(d[c + 1][c] * d[c + 1][c]), inv, d[c + 1][c + 1]);
#pragma unroll
        for (int j = c + 1; j < C; ++j) {
            const T t = d[j][c] * inv;
#pragma unroll
            for (int i = j; i < C; ++i)
                if (i > c + 1) d[i][j] = fma(-d[i][c], t, d[i][j]);
        }
#pragma unroll
        for (int j = c + 1; j < C; ++j) d[j][c] *= rdv[c];
    }
    return ok;
}

/* The lower triangle of the 8 x 8 block d (every lane alike) factored in
 * place, the columns at and after c0 + 8 >= n skipped: d(j, c) := L(j, c)
 * below the diagonal, rdv[c] = 1 / L(c, c), 0 from the first pivot that
 * is not positive (or NaN) on, whose 1-based column in the matrix it
 * returns (0: none). Straight code: every step runs, a failed one with a
 * factor of 0. */
template <typename T>
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
        const T rd = rsqrt_of(ok ? pivot : T(1));
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

/* The block's lower triangle from shared memory into every lane (16-byte
 * loads), a unit diagonal past n where Pad. */
template <bool Pad, typename T>
__device__ __forceinline__ void replica_load_block(T (&d)[kReplicaCols][kReplicaCols],
                                                   const T (*diag)[kReplicaCols], int c0, int n)
{
    using V = Vec16<T>;
#pragma unroll
    for (int i = 0; i < kReplicaCols; ++i)
#pragma unroll
        for (int j0 = 0; j0 <= i; j0 += V::width) {
            const typename V::type v = *reinterpret_cast<const typename V::type *>(&diag[i][j0]);
#pragma unroll
            for (int t = 0; t < V::width; ++t)
                if (j0 + t <= i) d[i][j0 + t] = V::at(v, t);
        }
    if (Pad) {
#pragma unroll
        for (int i = 0; i < kReplicaCols; ++i)
            if (c0 + i >= n) d[i][i] = T(1);
    }
}

/* Each lane's rows against the factored block: x_c = a_c / L(c, c), a_j
 * -= x_c L(j, c), the panel's L (0 at and above the diagonal) to L[c][row].
 * Careful (after replica_factor): unscaled from the failed column on, an
 * Inf pivot's L(k, k) LAPACK's sqrt(Inf). Else no select on the chain:
 * the entries at and above the diagonal that it spoils are never stored. */
template <bool Careful, typename T, int H, int R>
__device__ __forceinline__ void replica_solve(T (&a)[H][kReplicaCols],
                                              const T (&d)[kReplicaCols][kReplicaCols],
                                              const T (&rdv)[kReplicaCols], T (*L)[R], int r,
                                              int c0)
{
    constexpr int C = kReplicaCols;
#pragma unroll
    for (int h = 0; h < H; ++h) {
        if (32 * h + 31 < c0) continue; /* uniform: no rows at or below the panel */
        const int row = r + 32 * h;
#pragma unroll
        for (int c = 0; c < C; ++c) {
            if (Careful) {
                const bool ok = rdv[c] != T(0);
                const T x = ok ? a[h][c] * rdv[c] : a[h][c];
                const T f = ok && row > c0 + c ? x : T(0);
#pragma unroll
                for (int j = c + 1; j < C; ++j) a[h][j] -= f * d[j][c];
                if (row == c0 + c && ok) a[h][c] = isinf(a[h][c]) ? a[h][c] : x;
                else if (row > c0 + c) a[h][c] = x;
                L[c][row] = f;
            } else {
                const T x = a[h][c] * rdv[c];
#pragma unroll
                for (int j = c + 1; j < C; ++j) a[h][j] = fma(-x, d[j][c], a[h][j]);
                a[h][c] = x;
                L[c][row] = row > c0 + c ? x : T(0);
            }
        }
    }
}

/* Panel c0 / 8: its block (diag) factored by every lane of its warp, and
 * each lane's rows solved against it; returns the failed column (0: none).
 * With one row a lane the solve is issued with the fast factorization, its
 * steps in the gaps of the pivots' chain, and the row kept for the careful
 * path; with two rows it gains nothing (level in double, slower in single at 64). */
template <int H, int R, typename T>
__device__ __forceinline__ int replica_panel(T (&a)[H][kReplicaCols],
                                             const T (*diag)[kReplicaCols], T (*L)[R], int r,
                                             int c0, int n)
{
    constexpr int C = kReplicaCols;
    T d[C][C], rdv[C];
    replica_load_block<true>(d, diag, c0, n);
    if (H == 1) {
        T keep[C];
#pragma unroll
        for (int c = 0; c < C; ++c) keep[c] = a[0][c];
        const bool fast = replica_factor_fast(d, rdv);
        replica_solve<false>(a, d, rdv, L, r, c0);
        if (fast) return 0; /* uniform: every lane holds the same block */
#pragma unroll
        for (int c = 0; c < C; ++c) a[0][c] = keep[c];
    } else if (replica_factor_fast(d, rdv)) {
        replica_solve<false>(a, d, rdv, L, r, c0);
        return 0;
    }
    replica_load_block<false>(d, diag, c0, n);
    const int fail = replica_factor(d, rdv, c0, n);
    replica_solve<true>(a, d, rdv, L, r, c0);
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
    __shared__ __align__(16) T diag[C][C];
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
        int fail = 0;
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
            fail = replica_panel(a, diag, L, r, c0, n);
            if (r == 0) s_info[kb & 1] = fail;
        }
        if (__syncthreads_or(fail != 0)) { /* uniform */
            info = s_info[kb & 1];
            break;
        }
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
