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
 * The short pivot step in double, for a positive normal x: r, the hardware
 * estimate of 1/sqrt(x) (relative error ~2^-20, subnormals flushed), and
 * e = 1 - x*r^2 give both
 *   1/sqrt(x) = r (1 + e/2 + 3e^2/8)   (returned; ~1 ulp)
 *   1/x       = r^2 (1 + h),  h = e + e^2,
 * to rounding, as the dropped terms are O(e^3). The library rsqrt has a
 * branch for special inputs, which keeps the compiler from overlapping one
 * column's steps with the next (see diag_block_row). A zero or positive
 * subnormal x gives a non-finite 1/sqrt, as do negative, infinite and NaN x.
 */
__device__ __forceinline__ double rsqrt_parts(double x, double &r, double &h)
{
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
    const double e = fma(-x, r * r, 1.0);
    h = fma(e, e, e);
    return fma(r * e, fma(e, 0.375, 0.5), r);
}

/*
 * (b) of potf2_panel for thread t: factor the kIB x kIB diagonal block at
 * jb (ib valid columns) redundantly in registers, and solve this thread's
 * row jb + t of the inner panel with it, x := x * L^{-T}, one column per
 * step, so that its chain runs beside the pivots' instead of after them.
 * Returns in x the solved row
 * (for rows t < kIB, x[c], c < t, is L(jb + t, jb + c): the same
 * operations as l[t][c]), in diag L(jb + t, jb + t) for t < kIB, in bad
 * the first failing column (kIB if none). Reads only; the caller stores.
 *
 * Short takes each pivot's 1/sqrt from the hardware estimate, without the
 * library's branch for special inputs, which kept the compiler from
 * overlapping one column's steps with the next. In double (rsqrt_parts)
 * it also forms the next pivot from the entry before its column is scaled,
 *   A(c+1,c+1) - (A(c+1,c) r)^2 (1 + h)   [= A(c+1,c)^2 / x_c],
 * so that it does not wait for the scaling by 1/sqrt(x_c); (A(c+1,c) r)^2
 * has the range of the plain step's square of the scaled entry (a 128 x 64
 * panel in double: 8% faster). That is exact to rounding while every
 * pivot is positive and
 * normal; *redo says when that did not hold (the sum of the block's 1/sqrt
 * is not finite: a failing, subnormal or, in double, infinite pivot; a
 * square that overflows makes the next pivot -Inf and its 1/sqrt NaN), and
 * the caller does the block again with Short = false
 * (diag_block_row_plain), whose steps are LAPACK's. (In single, an infinite
 * pivot's estimate is 0, as rsqrtf's: d = Inf and a zero column without
 * the redo.)
 */
template <typename T, bool Short>
__device__ __forceinline__ void diag_block_row(const T *S, int lds, int jb, int ib, int t,
                                               T (&x)[kIB], T &diag, int &bad, bool *redo)
{
    static_assert(kIB == 8, "the check below sums eight reciprocals");
    constexpr bool kNext = Short && std::is_same<T, double>::value;
    const T *row = S + (jb + t);
    T l[kIB][kIB]; /* lower triangle of the diagonal block; identity past ib */
    T rd[kIB];
    bad = kIB;
    diag = T(0);
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
        T next = T(0); /* Short: L(c+1, c+1) before its own step */
        if constexpr (kNext) {
            double r, h;
            rd[c] = rsqrt_parts(piv, r, h);
            if (c + 1 < kIB) {
                const T ar = l[c + 1][c] * r;
                const T m = ar * ar;
                next = fma(-m, h, l[c + 1][c + 1] - m);
            }
        } else if constexpr (Short) {
            /* single: the estimate alone is rsqrtf's, less its handling
             * of subnormal inputs (which come out as Inf, and redo) */
            T r;
            asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(piv));
            rd[c] = r;
        } else {
            rd[c] = rsqrt_t(piv);
        }
        /* d = piv * rd, not sqrt(piv): IEEE sqrt puts about 130 cycles
         * per column on the critical path. An infinite pivot must still
         * give d = Inf and a zero column, as in LAPACK, not Inf * 0 = NaN. */
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
            for (int r = c2; r < kIB; ++r)
                if (!kNext || r != c + 1) l[r][c2] -= l[r][c] * l[c2][c];
        if (kNext && c + 1 < kIB) l[c + 1][c + 1] = next;
    }
    if constexpr (Short) {
        const T sum = ((rd[0] + rd[1]) + (rd[2] + rd[3])) + ((rd[4] + rd[5]) + (rd[6] + rd[7]));
        *redo = !(fabs(sum) < T(INFINITY));
    }
}

/* The plain steps of diag_block_row, out of line: only blocks that the
 * short steps cannot do come here, and (b) inlined twice takes more
 * registers and runs slower (a 128 x 64 panel: 23%). */
template <typename T> struct BlockRow {
    T x[kIB];
    T diag;
    int bad;
};
template <typename T>
__device__ __noinline__ BlockRow<T> diag_block_row_plain(const T *S, int lds, int jb, int ib, int t)
{
    BlockRow<T> b;
    diag_block_row<T, false>(S, lds, jb, ib, t, b.x, b.diag, b.bad, nullptr);
    return b;
}

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
 * so the inner block at jb solves only rows n .. n + jb + kIB - 1 of it and
 * updates only rows n .. n + jb - 1 (the rest stay zero): less work in (a)
 * and (b) (the tiled Cholesky at n = 1024 in double: 3% faster).
 *
 * (b), which is on the critical path of every Cholesky built on this tile,
 * has no shuffles and no barrier inside: each thread that owns a row of the
 * inner panel (thread t: row jb + t) factors the kIB x kIB diagonal block
 * redundantly in registers and finishes its own row with it as it goes
 * (diag_block_row). Only warps with rows to do take part.
 *
 * hook.row(jb, t, x) runs in each thread t >= kIB that has a row of the
 * inner panel at jb, once it holds that row solved (x: its columns jb ..
 * jb + kIB - 1, final where no pivot failed before them), before the
 * block's barrier: the tiled Cholesky's chain block hands U's rows to its
 * helper block there.
 */
struct NoHook {
    template <typename T> __device__ __forceinline__ void row(int, int, const T (&)[kIB]) const {}
};
template <typename T, int MaxRows, typename Hook = NoHook>
__device__ __forceinline__ int potf2_panel(T *S, int lds, int m, int n, int *flag,
                                           bool unit_below = false, Hook hook = Hook())
{
    static_assert(MaxRows <= kThreads, "(b) gives each row of the panel its own thread");
    const int t = threadIdx.x;

    for (int jb = 0; jb < n; jb += kIB) {
        const int ib = min(kIB, n - jb);
        /* rows jb .. jb + rows - 1 can change in this inner block */
        const int rows = unit_below ? min(m - jb, n + kIB) : m - jb;

        /* (a) left-looking update of the inner panel by all threads. Below a
         * unit panel, rows n + jb .. n + jb + kIB - 1 are still zero left of
         * column jb: their update is zero, and skipping it leaves (a) 16-row
         * tiles of 64 rows (one per warp scheduler) instead of 72 (two on one
         * of them, whose DMMA and mma rate then sets the pace: a 128 x 64
         * panel in single runs 10% slower; more independent k phases per
         * tile are slower too). */
        if (jb > 0) {
            T *P = S + jb; /* rows jb.. of the tile */
            const int rows_a = unit_below ? min(m - jb, n) : rows;
            inner_update<T, MaxRows>(P + jb * lds, lds, P, lds, P, lds, rows_a, ib, jb, true);
            __syncthreads();
        }

        /* (b) */
        T x[kIB];      /* this thread's row of the inner panel, solved */
        T diag = T(0); /* rows t < kIB: L(jb + t, jb + t) as stored */
        int done = 0;  /* columns of the block that are final */
        int bad = kIB; /* first failing column of the block */
        const bool active = t < rows;
        T *row = S + (jb + t);
        if (active) {
            bool redo = false;
            diag_block_row<T, true>(S, lds, jb, ib, t, x, diag, bad, &redo);
            if (redo) { /* the same in every active thread */
                const BlockRow<T> b = diag_block_row_plain<T>(S, lds, jb, ib, t);
#pragma unroll
                for (int c = 0; c < kIB; ++c) x[c] = b.x[c];
                diag = b.diag;
                bad = b.bad;
            }
            done = min(bad, ib);
            if (t >= ib) { /* a row below the diagonal block */
#pragma unroll
                for (int c = 0; c < kIB; ++c)
                    if (c < done) row[(jb + c) * lds] = x[c];
                hook.row(jb, t, x);
            }
        }
        /* every thread has read the diagonal block; and whether a pivot
         * failed, from the barrier's reduction (every active thread found
         * the same column) */
        const int failed = __syncthreads_or(active && bad < ib);
        if (active && t < ib) {
            /* Row t of the diagonal block, by its own thread: its columns
             * before the diagonal from x, the diagonal (or the failing
             * pivot, as LAPACK leaves it) from diag (thread 0 storing the
             * whole block holds warp 0 about 250 cycles per 8 columns).
             * Nothing reads rows jb..jb+kIB-1 before the next
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
