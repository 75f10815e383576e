/*
 * potrf_batched_small.cuh -- the batch forms of potrf_batched.cu (one array
 * with a stride, an array of pointers, pointers with per-matrix orders) and
 * its register kernels: lane groups for n <= 32, a row a thread for n <= 64.
 * Included by potrf_batched.cu only.
 */
#ifndef GCHOL_POTRF_BATCHED_SMALL_CUH
#define GCHOL_POTRF_BATCHED_SMALL_CUH

#include "tile_common.cuh"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

/* A batch's matrices: one array with a stride, an array of pointers, or
 * an array of pointers with each matrix's own order and leading dimension
 * (device arrays). check(b): 0, or the info of a matrix whose own
 * arguments are bad (-1 its order < 0 or above the call's largest, -2 its
 * leading dimension < max(1, order)): nothing of it is touched. */
template <typename T> struct Strided {
    T *A;
    int64_t stride;
    int n;
    int64_t ld;
    __device__ T *at(int64_t b) const { return A + b * stride; }
    __device__ int order(int64_t) const { return n; }
    __device__ int64_t lead(int64_t) const { return ld; }
    __device__ int check(int64_t) const { return 0; }
};
template <typename T> struct Pointers {
    T *const *A;
    int n;
    int64_t ld;
    __device__ T *at(int64_t b) const { return A[b]; }
    __device__ int order(int64_t) const { return n; }
    __device__ int64_t lead(int64_t) const { return ld; }
    __device__ int check(int64_t) const { return 0; }
};
template <typename T> struct Sized {
    T *const *A;
    const int64_t *n, *ld;
    int n_max;
    __device__ T *at(int64_t b) const { return A[b]; }
    __device__ int check(int64_t b) const
    {
        const int64_t v = n[b];
        if (v < 0 || v > n_max) return -1;
        return ld[b] < (v > 1 ? v : 1) ? -2 : 0;
    }
    __device__ int order(int64_t b) const { return check(b) == 0 ? (int)n[b] : 0; }
    __device__ int64_t lead(int64_t b) const { return ld[b]; }
};

/* Element (i, j), i >= j, of the lower view: A(i, j) for 'L', A(j, i) for 'U'. */
__device__ __forceinline__ int64_t view_at(int64_t i, int64_t j, int64_t ld, int upper)
{
    return upper ? j + i * ld : i + j * ld;
}

__device__ __forceinline__ double rsqrt_of(double x) { return rsqrt(x); }
__device__ __forceinline__ float rsqrt_of(float x) { return rsqrtf(x); }

constexpr int kRegThreads = 128;

/* A panel's diagonal block (kb <= 32 columns) factored by one warp in
 * registers: lane r holds row r (a[c] = A(r, c) for c <= r, 0 elsewhere),
 * the pivots and l_jk passed by shuffles. Stops at the first pivot that is
 * not positive (or NaN) and returns its 1-based column (0: none), whose
 * pivot stays unscaled; inv_diag[k] = 1 / l_kk for the columns before.
 * Every lane sees the same pivots, so the result is uniform. */
template <typename T>
__device__ __forceinline__ int factor_diag_block_warp(T (&a)[32], int kb, int lane, T *inv_diag)
{
    int fail = 0;
#pragma unroll
    for (int k = 0; k < 32; ++k) {
        const T pivot = __shfl_sync(0xffffffffu, a[k], k);
        const bool step = k < kb && fail == 0;
        if (step && !(pivot > T(0))) fail = k + 1;
        const bool go = step && fail == 0;
        const T d = go ? sqrt(pivot) : T(1), rd = T(1) / d;
        if (go && lane >= k) a[k] = lane == k ? d : a[k] * rd;
        if (go && lane == k) inv_diag[k] = rd;
#pragma unroll
        for (int j = k + 1; j < 32; ++j) {
            const T ljk = __shfl_sync(0xffffffffu, a[k], j);
            if (go && lane >= j) a[j] -= a[k] * ljk;
        }
    }
    return fail;
}

/* n <= G <= 32: G lanes per matrix, lane r holding row r of the lower view. */
template <typename T, int G, typename Batch>
__global__ void __launch_bounds__(kRegThreads)
potrf_batched_reg_kernel(Batch batch, int upper, int64_t *dinfo, int64_t count)
{
    const int lane = threadIdx.x % G;
    const int64_t b = (int64_t)blockIdx.x * (kRegThreads / G) + threadIdx.x / G;
    const bool live = b < count;
    const int arg = live ? batch.check(b) : 0;
    const int n = live && arg == 0 ? batch.order(b) : 0;
    const int64_t ld = live ? batch.lead(b) : 1;
    T *A = live && n > 0 ? batch.at(b) : nullptr;
    T a[G];
#pragma unroll
    for (int j = 0; j < G; ++j)
        a[j] = lane < n && j <= lane ? A[view_at(lane, j, ld, upper)] : T(0);
    int info = 0;
    /* every lane of the warp takes part in each shuffle: the steps past n or
     * after a failure change nothing, by predicates */
#pragma unroll
    for (int k = 0; k < G; ++k) {
        const T pivot = __shfl_sync(0xffffffffu, a[k], k, G);
        const bool step = k < n && info == 0;
        if (step && !(pivot > T(0))) info = k + 1;
        const bool go = step && info == 0;
        /* side by side rather than a division by sqrt: the step's latency is its chain */
        const T d = go ? sqrt(pivot) : T(1), rd = go ? rsqrt_of(pivot) : T(1);
        if (go && lane >= k) a[k] = lane == k ? d : a[k] * rd;
#pragma unroll
        for (int j = k + 1; j < G; ++j) {
            /* every lane, its entries right of its diagonal too: those are
             * never stored nor passed on, and one predicate fewer a step */
            const T ljk = __shfl_sync(0xffffffffu, a[k], j, G);
            if (go) a[j] -= a[k] * ljk;
        }
    }
    if (!live) return;
#pragma unroll
    for (int j = 0; j < G; ++j)
        if (lane < n && j <= lane) A[view_at(lane, j, ld, upper)] = a[j];
    if (lane == 0) dinfo[b] = arg != 0 ? arg : info;
}

/* Shared-memory vectors of 16 bytes: a column's entries in twos (double)
 * or fours (single). */
template <typename T> struct Vec16;
template <> struct Vec16<double> {
    using type = double2;
    static constexpr int width = 2;
    __device__ static double at(const double2 &v, int t) { return t == 0 ? v.x : v.y; }
};
template <> struct Vec16<float> {
    using type = float4;
    static constexpr int width = 4;
    __device__ static float at(const float4 &v, int t)
    {
        return t == 0 ? v.x : t == 1 ? v.y : t == 2 ? v.z : v.w;
    }
};

/* x[c] := x[c + 1] - f col[c] for c < Wd (x[Wd - 1] := -f col[Wd - 1]),
 * 16-byte loads of col: a row's registers shifted one column down with a
 * column's update, in place. A loop over columns that keeps its current
 * column in x[0] needs no unrolling (a register array is indexed by
 * constants only), so its code stays small. */
template <int Wd, typename T, int N>
__device__ __forceinline__ void shift_update(T (&x)[N], T f, const T *col)
{
    static_assert(Wd <= N, "the shifted entries are the row's");
    using V = Vec16<T>;
    constexpr int W = V::width;
#pragma unroll
    for (int c = 0; c < Wd; c += W) {
        const typename V::type v = *reinterpret_cast<const typename V::type *>(col + c);
#pragma unroll
        for (int t = 0; t < W; ++t)
            x[c + t] = (c + t + 1 < Wd ? x[c + t + 1] : T(0)) - f * V::at(v, t);
    }
}

/* a[c] -= sum_q L[q][row] L[q][c0 + c] (c < 8): a row's 8 entries in
 * columns c0 .. c0 + 7 updated by a panel of 8 columns whose L(i, q) is at
 * L[q][i] (shared memory), the columns' entries in 16-byte loads. */
template <typename T, int R>
__device__ __forceinline__ void panel_rank8_update(T (&a)[8], const T (*L)[R], int row, int c0)
{
    using V = Vec16<T>;
    constexpr int W = V::width;
    T lr[8];
#pragma unroll
    for (int q = 0; q < 8; ++q) lr[q] = L[q][row];
#pragma unroll
    for (int q = 0; q < 8; ++q) {
#pragma unroll
        for (int c = 0; c < 8; c += W) {
            const typename V::type v = *reinterpret_cast<const typename V::type *>(&L[q][c0 + c]);
#pragma unroll
            for (int t = 0; t < W; ++t) a[c + t] -= lr[q] * V::at(v, t);
        }
    }
}

/* 17 <= n <= 32 (any n <= 32): a block of four warps per matrix, warp w
 * holding columns 8w..8w+7 of every row (lane r: row r of the lower view,
 * a[c] = A(r, 8w + c) where 8w + c <= r). Right-looking by panels of 8:
 * the panel's warp factors it alone (the pivot and each l_jk passed by
 * shuffles, l = a rsqrt(pivot)), puts its columns in shared memory, one
 * barrier, then each later warp updates its 8 columns by the panel (rank
 * 8). One warp issuing a step's whole row update was the lane groups'
 * and the rows kernel's limit on small batches (an instruction about
 * every 3.6 cycles): here a step's update is spread over the warps and
 * one barrier serves 8 columns. At a failed pivot the block stops: the
 * panel's later columns are left partly updated, the later panels as the
 * earlier panels left them (LAPACK leaves them unspecified). */
constexpr int kPanelCols = 8, kPanelWarps = 4;

template <typename T, typename Batch>
__global__ void __launch_bounds__(32 * kPanelWarps)
potrf_batched_panels_kernel(Batch batch, int upper, int64_t *dinfo)
{
    __shared__ __align__(16) T lp[2][kPanelCols][32]; /* a panel's L(r, k) at [k % 8][r] */
    __shared__ int s_info[2]; /* a panel's failure, two buffers as lp */
    const int r = threadIdx.x % 32, w = threadIdx.x / 32, c0 = w * kPanelCols;
    const int64_t b = blockIdx.x;
    const int arg = batch.check(b), n = arg == 0 ? batch.order(b) : 0;
    const int64_t ld = batch.lead(b);
    T *A = n > 0 ? batch.at(b) : nullptr;
    T a[kPanelCols];
#pragma unroll
    for (int c = 0; c < kPanelCols; ++c)
        a[c] = r < n && c0 + c <= r ? A[view_at(r, c0 + c, ld, upper)] : T(0);
    int info = 0;
#pragma unroll 1
    for (int kb = 0; kb < kPanelWarps && kb * kPanelCols < n; ++kb) {
        T (*L)[32] = lp[kb & 1]; /* two buffers: panel kb + 2 writes one after every read of kb's */
        if (w == kb) {
#pragma unroll
            for (int c = 0; c < kPanelCols; ++c) {
                const int k = c0 + c;
                if (k >= n) break; /* uniform */
                const T pivot = __shfl_sync(0xffffffffu, a[c], k);
                if (!(pivot > T(0))) { /* column k stays unscaled */
                    info = k + 1;
                    break;
                }
                const T rd = rsqrt_of(pivot);
                const T l = r > k ? a[c] * rd : T(0);
                /* LAPACK's sqrt(Inf) for an infinite pivot */
                if (r == k) a[c] = isinf(pivot) ? pivot : pivot * rd;
                else if (r > k) a[c] = l;
                L[c][r] = l;
#pragma unroll
                for (int j = c + 1; j < kPanelCols; ++j)
                    a[j] -= l * __shfl_sync(0xffffffffu, l, c0 + j);
            }
            if (r == 0) s_info[kb & 1] = info;
        }
        __syncthreads();
        if ((info = s_info[kb & 1]) != 0) break; /* uniform */
        if (w > kb) panel_rank8_update(a, L, r, c0);
    }
    if (r < n) {
#pragma unroll
        for (int c = 0; c < kPanelCols; ++c)
            if (c0 + c <= r) A[view_at(r, c0 + c, ld, upper)] = a[c];
    }
    if (threadIdx.x == 0) dinfo[b] = arg != 0 ? arg : info;
}

/* The rows kernels' largest G: a thread's 64 entries in registers. */
constexpr int kRowsMax = 64;

/* n <= G <= 32: a block of G threads per matrix, thread r holding row r of
 * the lower view (a[j] = L(r, j), j <= r), the steps unrolled. Step k: each thread puts its a[k]
 * into col (column k as the earlier steps left it), one barrier, then each
 * reads the pivot col[k] and updates its row by the column in 16-byte
 * loads: a[j] -= (l_rk / d) col[j], j > k, d = sqrt(pivot). Two buffers:
 * step k + 1 writes one while no thread reads step k - 1's any more (the
 * scaled copy of a tiny pivot's column is written only after a barrier
 * that every reader of the previous one has passed). The
 * entries right of a thread's diagonal take no part (its factor is 0) and
 * are never stored. Control flow is uniform: n and the pivot are the
 * block's. */
template <typename T, int G, typename Batch>
__global__ void __launch_bounds__(G)
potrf_batched_rows_kernel(Batch batch, int upper, int64_t *dinfo)
{
    static_assert(G <= 32, "unrolled: 3k instructions at 32, 11k at 64");
    using V = Vec16<T>;
    constexpr int W = V::width;
    __shared__ __align__(16) T col[3][G]; /* two for the column, one for its scaled copy */
    const int r = threadIdx.x;
    const int64_t b = blockIdx.x;
    const int arg = batch.check(b), n = arg == 0 ? batch.order(b) : 0;
    const int64_t ld = batch.lead(b);
    T *A = n > 0 ? batch.at(b) : nullptr;
    const bool mine = r < n;
    T a[G];
#pragma unroll
    for (int j = 0; j < G; ++j) a[j] = mine && j <= r ? A[view_at(r, j, ld, upper)] : T(0);
    int info = 0;
#pragma unroll
    for (int k = 0; k < G; ++k) {
        if (k >= n || info != 0) continue; /* uniform */
        T *c = col[k & 1];
        c[r] = a[k];
        __syncthreads();
        const T pivot = c[k];
        if (!(pivot > T(0))) {
            info = k + 1; /* column k stays unscaled, the failed pivot in A(k, k) */
            continue;
        }
        /* side by side rather than 1 / sqrt: the step's latency is its chain */
        const T d = sqrt(pivot), rd = rsqrt_of(pivot), rd2 = rd * rd;
        const T l = r > k ? a[k] * rd : T(0); /* L(r, k) */
        /* a[j] -= (a_rk / pivot) a_jk, unless 1 / pivot is not a normal
         * number (a pivot below about 2^-1022 or Inf): then LAPACK's
         * L(r, k) L(j, k), the scaled column through a third buffer and a
         * second barrier (uniform: the pivot is the block's) */
        T f = r > k ? a[k] * rd2 : T(0);
        const T *src = c;
        if (!gchol::is_normal(rd2)) {
            T *cs = col[2];
            cs[r] = l;
            __syncthreads();
            f = l;
            src = cs;
        }
        if (r == k) a[k] = d;
        else if (r > k) a[k] = l;
#pragma unroll
        for (int j0 = (k + 1) / W * W; j0 < G; j0 += W) {
            const typename V::type v = *reinterpret_cast<const typename V::type *>(src + j0);
#pragma unroll
            for (int t = 0; t < W; ++t)
                if (j0 + t > k) a[j0 + t] -= f * V::at(v, t);
        }
    }
    if (mine) {
#pragma unroll
        for (int j = 0; j < G; ++j)
            if (j <= r) A[view_at(r, j, ld, upper)] = a[j];
    }
    if (r == 0) dinfo[b] = arg != 0 ? arg : info;
}

/* 32 < n <= G = 64: a block of G threads per matrix, thread r holding row
 * r of the lower view, right-looking by columns in a loop that is not
 * unrolled: at
 * step k, a[c] is the row's entry in column k + c (shift_update). Each
 * thread r > k puts its a[0] into col at r - k - 1 (the pivot's own into
 * pv), one barrier, then with the pivot's d = sqrt(pivot):
 * L(r, k) = a[0] / d to A, and a[c] := a[c + 1] - (a[0] / pivot) col[c],
 * the column's unscaled entries against the row's scaled one (one barrier
 * a step). Unless 1 / pivot is not a normal number (a pivot below about
 * 2^-1022 or Inf): then LAPACK's L(r, k) L(j, k), the scaled column
 * through a third buffer and a second barrier (uniform: the pivot is the
 * block's). Two column buffers: step k + 1 writes one while no thread
 * reads step k - 1's any more. With G = 64, a row past 31 has at most 32
 * entries left from column 32 on, and a row below 32 none: the updates
 * take 32 entries there, and none. Unrolled over the columns, the kernel
 * was 11k instructions, past the instruction cache, and half as fast in
 * double; at G = 32 the unrolled one is 20% faster. */
template <typename T, int G, typename Batch>
__global__ void __launch_bounds__(G)
potrf_batched_rows_shift_kernel(Batch batch, int upper, int64_t *dinfo)
{
    static_assert(G == 64, "two warps, the second's rows wider");
    __shared__ __align__(16) T col[3][G];
    __shared__ T pv[2];
    const int r = threadIdx.x;
    const int64_t b = blockIdx.x;
    const int arg = batch.check(b), n = arg == 0 ? batch.order(b) : 0;
    const int64_t ld = batch.lead(b);
    T *A = n > 0 ? batch.at(b) : nullptr;
    const bool mine = r < n;
    /* the lower view's (r, c) at r * rs + c * cs */
    const int64_t rs = upper ? ld : 1, cs = upper ? 1 : ld;
    T *row = mine ? A + r * rs : nullptr;
    T a[G];
    {
        const T *p = row;
#pragma unroll
        for (int c = 0; c < G; ++c, p += cs) a[c] = mine && c <= r ? *p : T(0);
    }
    int info = 0;
#pragma unroll 1
    for (int k = 0; k < n; ++k) {
        T *c = col[k & 1];
        if (r > k) c[r - k - 1] = a[0];
        if (r == k) pv[k & 1] = a[0];
        __syncthreads();
        const T pivot = pv[k & 1];
        if (!(pivot > T(0))) { /* uniform: column k stays unscaled */
            info = k + 1;
            if (mine && r >= k) row[k * cs] = a[0];
            break;
        }
        /* side by side rather than 1 / sqrt: the step's latency is its chain */
        const T d = sqrt(pivot), rd = rsqrt_of(pivot), rd2 = rd * rd;
        const T l = r > k ? a[0] * rd : T(0); /* L(r, k) */
        T f = r > k ? a[0] * rd2 : T(0);
        const T *src = c;
        if (!gchol::is_normal(rd2)) {
            T *cl = col[2];
            if (r > k) cl[r - k - 1] = l;
            __syncthreads();
            f = l;
            src = cl;
        }
        if (mine && r >= k) row[k * cs] = r == k ? d : l;
        /* uniform in each warp */
        if (r >= 32 && k < 32) shift_update<G>(a, f, src);
        else if (r >= 32 || k < 32) shift_update<32>(a, f, src);
    }
    if (r == 0) dinfo[b] = arg != 0 ? arg : info;
}

} // namespace

#endif
