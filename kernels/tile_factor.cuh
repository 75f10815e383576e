/*
 * tile_factor.cuh -- the two one-block tile algorithms, as device functions
 * on shared memory, so that the standalone kernels (potf2.cu, trsm_rlt.cu)
 * and the single-kernel tiled Cholesky (potrf_tiled.cu) share one copy:
 *
 *   potf2_panel: Cholesky of an m x n panel (n x n lower tile on top), m <= MaxRows;
 *   potf2_tile:  the same with no rows below;
 *   trsm_tile:  X := X * L^{-T} for a rows x k tile X, k <= 128.
 *
 * Both are internally blocked by kIB columns and left-looking inside:
 * (a) all warps update the next kIB columns from the ones to their left
 * (inner_update), (b) a few threads finish those kIB columns. Every thread
 * of the block must call them; they end with a block barrier.
 */
#ifndef GCHOL_TILE_FACTOR_CUH
#define GCHOL_TILE_FACTOR_CUH

#include "tile_common.cuh"

namespace gchol {

/* 1/sqrt in one call: the pivot's reciprocal is what the column scaling
 * needs, and sqrt followed by a division costs twice the latency on the
 * panel's critical path. */
template <typename T> __device__ __forceinline__ T rsqrt_t(T x);
template <> __device__ __forceinline__ double rsqrt_t<double>(double x) { return rsqrt(x); }
template <> __device__ __forceinline__ float rsqrt_t<float>(float x) { return rsqrtf(x); }

/*
 * Cholesky of the m x n panel S (column-major, lds; m >= n): the n x n lower
 * triangle on top is factored, L11 = chol(S11), and the m - n rows below are
 * solved, L21 = S21 * L11^{-T}, as LAPACK's potf2 would leave an m x n panel.
 * The strict upper part of S11 may hold anything and is not written. Returns,
 * in every thread, the 0-based column of the first pivot that is <= 0 or
 * NaN, or -1; columns before it are factored, as LAPACK's potf2 leaves them.
 * *flag is a shared int the block uses to agree on the failing column.
 *
 * With S21 = I (the panel [S11; I], m = 2n) the rows below come out as
 * L11^{-T}: the tiled Cholesky uses that to turn every triangular solve by
 * L11 into a product, for a few percent more work here. unit_below says so:
 * row n + i of I is then zero left of column i while the factorization runs,
 * so the inner block at jb updates and solves only rows n .. n + jb + kIB - 1
 * of it (the rest stay zero), a quarter less work in (a) (128 x 64 panel on
 * the H100: double 15.2k -> 14.9k cycles, single 12.1k -> 11.7k; the tiled
 * Cholesky at n = 1024, lower, 0.231-0.233 -> 0.224-0.225 ms in double).
 *
 * (b), which is on the critical path of every Cholesky built on this tile,
 * has no shuffles and no barrier inside: each thread that owns a row of the
 * inner panel (thread t: row jb + t) factors the kIB x kIB diagonal block
 * redundantly in registers and finishes its own row with it as it goes.
 * Only warps with rows to do take part.
 */
template <typename T, int MaxRows>
__device__ __forceinline__ int potf2_panel(T *S, int lds, int m, int n, int *flag,
                                           bool unit_below = false)
{
    static_assert(MaxRows <= kThreads, "(b) gives each row of the panel its own thread");
    const int t = threadIdx.x;

    for (int jb = 0; jb < n; jb += kIB) {
        const int ib = min(kIB, n - jb);
        /* rows jb .. jb + rows - 1 can change in this inner block */
        const int rows = unit_below ? min(m - jb, n + kIB) : m - jb;

        /* (a) left-looking update of the inner panel by all threads. */
        if (jb > 0) {
            T *P = S + jb; /* rows jb.. of the tile */
            inner_update<T, MaxRows>(P + jb * lds, lds, P, lds, P, lds, rows, ib, jb, true);
            __syncthreads();
        }

        /* (b) */
        T l[kIB][kIB]; /* lower triangle of the diagonal block; identity past ib */
        T x[kIB];      /* this thread's row of the inner panel, solved */
        T diag = T(0); /* rows t < kIB: L(jb + t, jb + t) as stored */
        int done = 0;  /* columns of the block that are final */
        int bad = kIB; /* first failing column of the block */
        const bool active = t < rows;
        T *row = S + (jb + t);
        if (active) {
            /* Thread t also solves its row jb + t, x := x * L^{-T}, one
             * column per step of the factorization, so its chain runs
             * beside the pivots' instead of after them (~270 cycles per
             * inner block on the H100). No other thread reads this row in
             * (b). For rows t < kIB of the diagonal block, x[c] (c < t) is
             * L(jb + t, jb + c): the same operations as l[t][c]. */
            T rd[kIB];
#pragma unroll
            for (int c = 0; c < kIB; ++c) x[c] = c < ib ? row[(jb + c) * lds] : T(0);
#pragma unroll
            for (int r = 0; r < kIB; ++r)
#pragma unroll
                for (int c = 0; c <= r; ++c)
                    l[r][c] = (r < ib) ? S[(jb + r) + (jb + c) * lds] : T(r == c);
#pragma unroll
            for (int c = 0; c < kIB; ++c) {
                const T piv = l[c][c];
                if (bad == kIB && !(piv > T(0))) bad = c; /* also catches NaN */
                /* d = piv * rd, not sqrt(piv): IEEE sqrt put ~130 cycles per
                 * column on the critical path (measured on the H100). An
                 * infinite pivot must still give d = Inf and a zero column,
                 * as in LAPACK, not Inf * 0 = NaN. */
                rd[c] = rsqrt_t(piv);
                if (c < bad) l[c][c] = piv == T(INFINITY) ? piv : piv * rd[c];
                if (c == t) diag = l[c][c]; /* off the chain */
#pragma unroll
                for (int r = c + 1; r < kIB; ++r) l[r][c] *= rd[c];
                x[c] *= rd[c];
#pragma unroll
                for (int c2 = c + 1; c2 < kIB; ++c2) x[c2] -= x[c] * l[c2][c];
#pragma unroll
                for (int c2 = c + 1; c2 < kIB; ++c2)
#pragma unroll
                    for (int r = c2; r < kIB; ++r) l[r][c2] -= l[r][c] * l[c2][c];
            }
            done = min(bad, ib);
            if (t >= ib) { /* a row below the diagonal block */
#pragma unroll
                for (int c = 0; c < kIB; ++c)
                    if (c < done) row[(jb + c) * lds] = x[c];
            }
        }
        /* every thread has read the diagonal block; and whether a pivot
         * failed, from the barrier's reduction (every active thread found
         * the same column) */
        const int failed = __syncthreads_or(active && bad < ib);
        if (active && t < ib) {
            /* Row t of the diagonal block, by its own thread: its columns
             * before the diagonal from x, the diagonal (or the failing
             * pivot, as LAPACK leaves it) from diag. Thread 0 storing the
             * whole block held warp 0 ~250 cycles per 8 columns on the
             * H100. Nothing reads rows jb..jb+kIB-1 before the next
             * barrier: (a) of the next block starts at row jb + kIB. */
#pragma unroll
            for (int c = 0; c < kIB; ++c)
                if (c < t && c < done) row[(jb + c) * lds] = x[c];
            if (t < done || t == bad) row[(jb + t) * lds] = diag;
        }
        if (failed) {
            /* thread 0 always takes part: it tells the others the column */
            if (t == 0) *flag = jb + bad;
            __syncthreads();
            const int fail = *flag;
            __syncthreads(); /* before a caller reuses flag */
            return fail;
        }
    }
    __syncthreads(); /* the last block's diagonal rows */
    return -1;
}

/* Cholesky of the n x n lower triangle of S: potf2_panel with no rows below. */
template <typename T, int MaxN>
__device__ __forceinline__ int potf2_tile(T *S, int lds, int n, int *flag)
{
    return potf2_panel<T, MaxN>(S, lds, n, n, flag);
}

/*
 * X := X * L^{-T}: X is rows x k (rows <= MaxRows <= kThreads, ldx), L the
 * k x k lower triangle of Ls (ldl; the strict upper part is not read).
 * rdiag is k entries of shared scratch. Rows are solved independently: (b)
 * is a forward substitution by one thread per row.
 */
template <typename T, int MaxRows>
__device__ __forceinline__ void trsm_tile(T *Xs, int ldx, int rows, const T *Ls, int ldl, int k,
                                          T *rdiag)
{
    static_assert(MaxRows <= kThreads, "(b) uses one thread per row");
    for (int j = threadIdx.x; j < k; j += kThreads) rdiag[j] = T(1) / Ls[j + j * ldl];
    __syncthreads();

    for (int jb = 0; jb < k; jb += kIB) {
        const int ib = min(kIB, k - jb);
        if (jb > 0) {
            inner_update<T, MaxRows>(Xs + jb * ldx, ldx, Xs, ldx, Ls + jb, ldl, rows, ib, jb,
                                     false);
            __syncthreads();
        }
        const int r = threadIdx.x;
        if (r < rows) {
            T x[kIB];
#pragma unroll
            for (int c = 0; c < kIB; ++c) x[c] = c < ib ? Xs[r + (jb + c) * ldx] : T(0);
#pragma unroll
            for (int c = 0; c < kIB; ++c) {
                if (c < ib) {
                    x[c] *= rdiag[jb + c];
#pragma unroll
                    for (int c2 = c + 1; c2 < kIB; ++c2)
                        if (c2 < ib) x[c2] -= x[c] * Ls[(jb + c2) + (jb + c) * ldl];
                }
            }
#pragma unroll
            for (int c = 0; c < kIB; ++c)
                if (c < ib) Xs[r + (jb + c) * ldx] = x[c];
        }
        __syncthreads();
    }
}

} // namespace gchol

#endif
