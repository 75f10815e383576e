/*
 * potrf_batched.cu -- Cholesky of many matrices of one order n in one launch
 * (gchol_?potrf_batched_launch, gchol_kernels.h), each matrix's info in
 * dinfo[b], no matrix stopping another. Three kernels by n:
 *
 *   n <= 32     a group of G lanes (G the power of two >= n) per matrix, G
 *               rows of L in registers (lane r holds row r), right-looking
 *               with the pivot and each l_jk passed by shuffles within the
 *               group: the matrix read once and written once;
 *   n <= 64     a block of 64 threads per matrix (up to the tuning's n),
 *               thread r holding row r in registers, right-looking with
 *               each column passed through shared memory (one barrier a
 *               column): again the matrix read once and written once;
 *   n <= smem   a thread block per matrix, its triangle packed in shared
 *               memory, right-looking by panels of 32 columns (the
 *               diagonal block in one warp's registers, the updates in
 *               register tiles);
 *   n <= 512    a thread block per matrix, left-looking by panels of 32
 *               columns, each panel in shared memory;
 *   larger      the right-looking steps on the matrix in global memory.
 *
 * Every kernel reads and writes only the uplo triangle (padding and the
 * other triangle untouched). At the first pivot that is not positive (or
 * NaN), column k (1-based dinfo[b] = k) is left unscaled with the failed
 * pivot in A(k,k), columns 1..k-1 hold the factor's, as gchol_?potrf.
 */
#include "gchol_kernels.h"
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
            const T ljk = __shfl_sync(0xffffffffu, a[k], j, G);
            if (go && lane >= j) a[j] -= a[k] * ljk;
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

/* The rows kernel's G: a thread's 64 entries in registers (166 registers
 * in double; at G = 128 nvcc keeps single's row in local memory). */
constexpr int kRowsMax = 64;

/* n <= G: a block of G threads per matrix, thread r holding row r of the
 * lower view (a[j] = L(r, j), j <= r). Step k: each thread puts its a[k]
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

constexpr int kBlockX = 32, kBlockY = 8; /* the global kernel's threads */

/* The blocked kernel: a thread block per matrix, its lower view packed by
 * columns in shared memory (column j's rows j..n-1 from packed_col(j, n)),
 * right-looking by panels of kPw columns:
 *   the diagonal block by warp 0 in registers (lane r row r, shuffles),
 *   the rows below by one thread each (x := x L11^-T, L11 from a dense copy),
 *   the trailing triangle in 32 x 32 tiles, the threads 16 x 16 with 2 x 2
 *   sums each (a warp reads 16 consecutive rows and 2 columns: one shared
 *   memory wavefront a load).
 * About 3n/kPw barriers in all, against 3n by columns. Orders whose
 * triangle does not fit keep their first cs columns (a multiple of kPw) in
 * global memory, where the same steps read and write them through the
 * cache: only the trailing n - cs columns are packed in shared memory. */
constexpr int kPw = 32, kBlkThreads = 256, kChunk = 8;

__device__ __forceinline__ int packed_col(int j, int n) { return j * n - (j * (j - 1)) / 2; }

/* Column j of the lower view from its diagonal: element (i, j) at
 * p[(i - j) * s]. */
template <typename T> struct Col {
    T *p;
    int64_t s;
};
template <typename T> struct View {
    T *P;       /* the packed columns cs.. (n - cs of them)          */
    T *A;       /* the matrix (columns < cs)                          */
    int64_t ld;
    int upper, n, cs;
    __device__ __forceinline__ Col<T> col(int j) const
    {
        if (j >= cs) return { P + packed_col(j - cs, n - cs), 1 };
        return { A + j + (int64_t)j * ld, upper ? ld : 1 }; /* 'U': (i, j) at A(j, i) */
    }
};

/* two blocks an SM at least: double's diagonal block in registers then
 * spills a few hundred bytes, at three several kilobytes */
template <typename T, typename Batch>
__global__ void __launch_bounds__(kBlkThreads, 2)
potrf_batched_blocked_kernel(Batch batch, int upper, int cs_max, int64_t *dinfo)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    __shared__ T L11[kPw * (kPw + 1)]; /* L11(r, c) at L11[r * (kPw + 1) + c] */
    __shared__ T inv_diag[kPw];
    __shared__ int info, good; /* good: the panel's columns factored */
    const int64_t b = blockIdx.x;
    const int arg = batch.check(b), n = arg == 0 ? batch.order(b) : 0;
    const int64_t ld = batch.lead(b);
    T *A = n > 0 ? batch.at(b) : nullptr;
    /* this matrix's head in global memory: cs_max, or all of a smaller one */
    const int cs = n < cs_max ? n : cs_max;
    const View<T> v = { reinterpret_cast<T *>(smem_raw), A, ld, upper, n, cs };
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, warps = kBlkThreads / 32;
    /* the packed columns in, coalesced in A: 'L' down columns, 'U' along rows */
    if (upper) {
        for (int i = cs + warp; i < n; i += warps)
            for (int j = cs + lane; j <= i; j += 32)
                v.P[packed_col(j - cs, n - cs) + i - j] = A[j + (int64_t)i * ld];
    } else {
        for (int j = cs + warp; j < n; j += warps)
            for (int i = j + lane; i < n; i += 32)
                v.P[packed_col(j - cs, n - cs) + i - j] = A[i + (int64_t)j * ld];
    }
    if (tid == 0) info = 0;
    __syncthreads();
    for (int k0 = 0; k0 < n; k0 += kPw) {
        const int kb = n - k0 < kPw ? n - k0 : kPw, r0 = k0 + kb, m = n - r0;
        if (warp == 0) {
            T a[kPw];
#pragma unroll
            for (int c = 0; c < kPw; ++c) {
                a[c] = T(0);
                if (lane < kb && c <= lane) {
                    const Col<T> col = v.col(k0 + c);
                    a[c] = col.p[(lane - c) * col.s];
                }
            }
            int fail = 0; /* uniform: every lane sees the same pivots */
#pragma unroll
            for (int k = 0; k < kPw; ++k) {
                const T pivot = __shfl_sync(0xffffffffu, a[k], k);
                const bool step = k < kb && fail == 0;
                if (step && !(pivot > T(0))) fail = k + 1;
                const bool go = step && fail == 0;
                const T d = go ? sqrt(pivot) : T(1), rd = T(1) / d;
                if (go && lane >= k) a[k] = lane == k ? d : a[k] * rd;
                if (go && lane == k) inv_diag[k] = rd;
#pragma unroll
                for (int j = k + 1; j < kPw; ++j) {
                    const T ljk = __shfl_sync(0xffffffffu, a[k], j);
                    if (go && lane >= j) a[j] -= a[k] * ljk;
                }
            }
#pragma unroll
            for (int c = 0; c < kPw; ++c) {
                if (lane < kb && c <= lane) {
                    const Col<T> col = v.col(k0 + c);
                    col.p[(lane - c) * col.s] = a[c];
                }
                L11[lane * (kPw + 1) + c] = c <= lane ? a[c] : T(0);
            }
            if (lane == 0) {
                good = fail ? fail - 1 : kb;
                if (fail) info = k0 + fail;
            }
        }
        __syncthreads();
        const int kg = good; /* the rows below get the good columns even after a failure */
        /* x := x L11^-T by chunks of kChunk columns: the earlier columns'
         * solved values come back from the matrix, the chunk's own stay in
         * registers */
        for (int i = r0 + tid; i < n; i += kBlkThreads) {
            for (int q = 0; q < kg; q += kChunk) {
                T x[kChunk];
#pragma unroll
                for (int r = 0; r < kChunk; ++r) {
                    x[r] = T(0);
                    if (q + r < kg) {
                        const Col<T> col = v.col(k0 + q + r);
                        x[r] = col.p[(i - (k0 + q + r)) * col.s];
                    }
                }
                for (int cc = 0; cc < q; ++cc) {
                    const Col<T> col = v.col(k0 + cc);
                    const T w = col.p[(i - (k0 + cc)) * col.s];
#pragma unroll
                    for (int r = 0; r < kChunk; ++r) x[r] -= w * L11[(q + r) * (kPw + 1) + cc];
                }
#pragma unroll
                for (int r = 0; r < kChunk; ++r) {
#pragma unroll
                    for (int rr = 0; rr < r; ++rr) x[r] -= x[rr] * L11[(q + r) * (kPw + 1) + q + rr];
                    x[r] *= inv_diag[q + r];
                }
#pragma unroll
                for (int r = 0; r < kChunk; ++r)
                    if (q + r < kg) {
                        const Col<T> col = v.col(k0 + q + r);
                        col.p[(i - (k0 + q + r)) * col.s] = x[r];
                    }
            }
        }
        if (info) break; /* uniform: read after the barrier above */
        __syncthreads();
        /* A22 -= L21 L21^T on the lower triangle, 32 x 32 tiles (I, J), J <= I */
        const int tx = tid % 16, ty = tid / 16, tiles = (m + 31) / 32;
        for (int t = 0; t < tiles * (tiles + 1) / 2; ++t) {
            int I = 0;
            while ((I + 1) * (I + 2) / 2 <= t) ++I;
            const int J = t - I * (I + 1) / 2;
            const int i0 = r0 + 32 * I + tx, j0 = r0 + 32 * J + ty;
            if (I == J && j0 > i0 + 16) continue; /* its four sums all above the diagonal */
            T acc[2][2] = { { T(0), T(0) }, { T(0), T(0) } };
#pragma unroll 8
            for (int c = 0; c < kb; ++c) {
                const Col<T> col = v.col(k0 + c);
                T li[2], lj[2];
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    li[h] = i0 + 16 * h < n ? col.p[(i0 + 16 * h - (k0 + c)) * col.s] : T(0);
                    lj[h] = j0 + 16 * h < n ? col.p[(j0 + 16 * h - (k0 + c)) * col.s] : T(0);
                }
#pragma unroll
                for (int h = 0; h < 2; ++h)
#pragma unroll
                    for (int g = 0; g < 2; ++g) acc[h][g] += li[h] * lj[g];
            }
#pragma unroll
            for (int g = 0; g < 2; ++g) {
                const int j = j0 + 16 * g;
                if (j >= n) continue;
                const Col<T> col = v.col(j);
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int i = i0 + 16 * h;
                    if (i < n && i >= j) col.p[(i - j) * col.s] -= acc[h][g];
                }
            }
        }
        __syncthreads();
    }
    __syncthreads();
    if (upper) {
        for (int i = cs + warp; i < n; i += warps)
            for (int j = cs + lane; j <= i; j += 32)
                A[j + (int64_t)i * ld] = v.P[packed_col(j - cs, n - cs) + i - j];
    } else {
        for (int j = cs + warp; j < n; j += warps)
            for (int i = j + lane; i < n; i += 32)
                A[i + (int64_t)j * ld] = v.P[packed_col(j - cs, n - cs) + i - j];
    }
    if (tid == 0) dinfo[b] = arg != 0 ? arg : info;
}

/* The same steps in global memory, for orders whose triangle does not fit
 * in shared memory ('U' through the lower view's transposed index). */
template <typename T, typename Batch>
__global__ void __launch_bounds__(kBlockX *kBlockY)
potrf_batched_global_kernel(Batch batch, int upper, int64_t *dinfo)
{
    const int tx = threadIdx.x, ty = threadIdx.y, tid = tx + ty * kBlockX;
    const int64_t b = blockIdx.x;
    const int arg = batch.check(b), n = arg == 0 ? batch.order(b) : 0;
    const int64_t ld = batch.lead(b);
    T *A = n > 0 ? batch.at(b) : nullptr;
    __shared__ int info;
    if (tid == 0) info = 0;
    for (int k = 0; k < n; ++k) {
        __syncthreads();
        const T pivot = A[view_at(k, k, ld, upper)];
        __syncthreads();
        if (!(pivot > T(0))) {
            if (tid == 0) info = k + 1;
            break;
        }
        const T d = sqrt(pivot);
        for (int i = k + 1 + tid; i < n; i += kBlockX * kBlockY) A[view_at(i, k, ld, upper)] /= d;
        if (tid == 0) A[view_at(k, k, ld, upper)] = d;
        __syncthreads();
        for (int j = k + 1 + ty; j < n; j += kBlockY) {
            const T ljk = A[view_at(j, k, ld, upper)];
            for (int i = j + tx; i < n; i += kBlockX)
                A[view_at(i, j, ld, upper)] -= A[view_at(i, k, ld, upper)] * ljk;
        }
    }
    __syncthreads();
    if (tid == 0) dinfo[b] = arg != 0 ? arg : info;
}

/* Larger orders, a block per matrix, left-looking by panels of kPanel
 * columns: the panel (rows k0..n-1) in shared memory, updated by the
 * columns left of it in chunks of kPanel (their rows k0..k0+kb-1 staged as T,
 * each thread's rows accumulated in registers, each L entry read once per
 * panel), then factored in shared memory and written back. The block has
 * kPanelChunks rows a thread: n_max / kPanelChunks threads rounded up to a
 * warp (blockDim.x), so that small orders run several matrices an SM (94
 * registers a thread in double: 512 threads leave room for no second). */
constexpr int kPanel = 32, kPanelMaxThreads = 512, kPanelChunks = 1;
constexpr int kPanelMaxRows = kPanelMaxThreads * kPanelChunks; /* n up to 512 */

template <typename T, typename Batch>
__global__ void __launch_bounds__(kPanelMaxThreads)
potrf_batched_panel_kernel(Batch batch, int upper, int64_t *dinfo)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const int64_t b = blockIdx.x;
    const int arg = batch.check(b), n = arg == 0 ? batch.order(b) : 0;
    const int64_t ld = batch.lead(b);
    T *A = n > 0 ? batch.at(b) : nullptr;
    T *P = reinterpret_cast<T *>(smem_raw);  /* P(r, c) at P[r * (kPanel + 1) + c]  */
    T *Tt = P + (size_t)n * (kPanel + 1);    /* T(c, j) at Tt[c + j * (kPanel + 1)] */
    const int tid = threadIdx.x, nt = blockDim.x, ldp = kPanel + 1;
    __shared__ int info;
    if (tid == 0) info = 0;
    for (int k0 = 0; k0 < n; k0 += kPanel) {
        const int kb = n - k0 < kPanel ? n - k0 : kPanel, rows = n - k0;
        /* the panel's lower view; 0 above the diagonal block's diagonal */
        for (int idx = tid; idx < rows * kPanel; idx += nt) {
            const int r = idx % rows, c = idx / rows;
            P[r * ldp + c] = c < kb && r >= c ? A[view_at(k0 + r, k0 + c, ld, upper)] : T(0);
        }
        T acc[kPanelChunks][kPanel];
#pragma unroll
        for (int h = 0; h < kPanelChunks; ++h)
#pragma unroll
            for (int c = 0; c < kPanel; ++c) acc[h][c] = T(0);
        for (int j0 = 0; j0 < k0; j0 += kPanel) {
            __syncthreads(); /* Tt free */
            for (int idx = tid; idx < kPanel * kPanel; idx += nt) {
                const int c = idx % kPanel, j = idx / kPanel;
                Tt[c + j * ldp] = c < kb ? A[view_at(k0 + c, j0 + j, ld, upper)] : T(0);
            }
            __syncthreads();
#pragma unroll
            for (int h = 0; h < kPanelChunks; ++h) {
                const int r = tid + h * nt;
                if (r >= rows) continue;
#pragma unroll 4 /* several loads of the row in flight */
                for (int j = 0; j < kPanel; ++j) {
                    const T l = A[view_at(k0 + r, j0 + j, ld, upper)];
#pragma unroll
                    for (int c = 0; c < kPanel; ++c) acc[h][c] += l * Tt[c + j * ldp];
                }
            }
        }
        __syncthreads(); /* the panel's loads done */
#pragma unroll
        for (int h = 0; h < kPanelChunks; ++h) {
            const int r = tid + h * nt;
            if (r >= rows) continue;
#pragma unroll
            for (int c = 0; c < kPanel; ++c)
                if (c < kb && r >= c) P[r * ldp + c] -= acc[h][c];
        }
        __syncthreads();
        /* the panel's own columns, right-looking in shared memory */
        int failed = 0;
        for (int c = 0; c < kb; ++c) {
            const T pivot = P[c * ldp + c];
            __syncthreads(); /* everyone has the pivot before it changes */
            if (!(pivot > T(0))) {
                if (tid == 0) info = k0 + c + 1;
                failed = 1;
                break;
            }
            const T d = sqrt(pivot);
            for (int r = c + 1 + tid; r < rows; r += nt) P[r * ldp + c] /= d;
            if (tid == 0) P[c * ldp + c] = d;
            __syncthreads();
            for (int r = c + 1 + tid; r < rows; r += nt) {
                const T lrc = P[r * ldp + c];
                for (int cc = c + 1; cc < kb && cc <= r; ++cc) P[r * ldp + cc] -= lrc * P[cc * ldp + c];
            }
            __syncthreads();
        }
        __syncthreads();
        for (int idx = tid; idx < rows * kb; idx += nt) {
            const int r = idx % rows, c = idx / rows;
            if (r >= c) A[view_at(k0 + r, k0 + c, ld, upper)] = P[r * ldp + c];
        }
        __syncthreads(); /* stores done before the next panel reads them */
        if (failed) break;
    }
    if (tid == 0) dinfo[b] = arg != 0 ? arg : info;
}

/* Blocks per launch: the grid's x dimension (kernels index matrices from
 * their block and the first matrix's offset). */
constexpr int64_t kMaxGrid = 0x7fffffff;

template <typename T, int G, typename Batch>
cudaError_t launch_reg(Batch batch, int upper, int64_t *dinfo, int64_t count, cudaStream_t stream)
{
    const int64_t per_block = kRegThreads / G, blocks = (count + per_block - 1) / per_block;
    potrf_batched_reg_kernel<T, G, Batch>
        <<<(unsigned)blocks, kRegThreads, 0, stream>>>(batch, upper, dinfo, count);
    return cudaGetLastError();
}

template <typename T, int G, typename Batch>
cudaError_t launch_rows(Batch batch, int upper, int64_t *dinfo, int64_t count, cudaStream_t stream)
{
    potrf_batched_rows_kernel<T, G, Batch><<<(unsigned)count, G, 0, stream>>>(batch, upper, dinfo);
    return cudaGetLastError();
}

/* The dynamic shared memory a block of the blocked kernel may have (the
 * device's opt-in limit less its static arrays) and the largest order whose
 * packed lower view (n (n + 1) / 2 entries) fits in it. */
template <typename T> cudaError_t smem_limits(size_t *bytes, int *n_max)
{
    constexpr size_t kStatic = (kPw * (kPw + 1) + kPw) * sizeof(T) + 64;
    int dev = 0, optin = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    if (e != cudaSuccess) return e;
    *bytes = (size_t)optin > kStatic ? (size_t)optin - kStatic : 0;
    int n = 0;
    while ((size_t)(n + 1) * (size_t)(n + 2) / 2 * sizeof(T) <= *bytes) ++n;
    *n_max = n;
    return cudaSuccess;
}

/* count matrices (every order <= n_max) by the kernel for n_max: lane
 * groups up to reg_max, rows in registers up to rows_max, shared memory up
 * to smem_max (0: what fits), then with a global-memory head up to
 * hybrid_max. */
template <typename T, typename Batch>
cudaError_t launch(int n_max, Batch batch, int upper, int64_t *dinfo, int64_t count, int reg_max,
                   int rows_max, int smem_max, int hybrid_max, cudaStream_t stream)
{
    if (n_max <= reg_max) {
        switch (n_max <= 4 ? 4 : n_max <= 8 ? 8 : n_max <= 16 ? 16 : 32) {
        case 4: return launch_reg<T, 4>(batch, upper, dinfo, count, stream);
        case 8: return launch_reg<T, 8>(batch, upper, dinfo, count, stream);
        case 16: return launch_reg<T, 16>(batch, upper, dinfo, count, stream);
        default: return launch_reg<T, 32>(batch, upper, dinfo, count, stream);
        }
    }
    if (n_max <= rows_max) return launch_rows<T, kRowsMax>(batch, upper, dinfo, count, stream);
    size_t limit = 0;
    int smem_n = 0;
    cudaError_t e = smem_limits<T>(&limit, &smem_n);
    if (e != cudaSuccess) return e;
    const dim3 threads(kBlockX, kBlockY);
    if (smem_max > 0 && smem_max < smem_n) smem_n = smem_max;
    if (n_max <= smem_n) {
        const size_t bytes = (size_t)n_max * (size_t)(n_max + 1) / 2 * sizeof(T);
        /* the device's whole limit, once: a per-call size could lower it
         * under another host thread's launch */
        static gchol::DeviceFlags opted_in;
        e = gchol::opt_in_shared(potrf_batched_blocked_kernel<T, Batch>, limit, opted_in);
        if (e != cudaSuccess) return e;
        potrf_batched_blocked_kernel<T, Batch>
            <<<(unsigned)count, kBlkThreads, bytes, stream>>>(batch, upper, 0, dinfo);
        return cudaGetLastError();
    }
    if (n_max <= hybrid_max) {
        /* the first cs columns in global memory, the rest packed */
        const int cs = (n_max - smem_n + kPw - 1) / kPw * kPw, rest = n_max - cs;
        const size_t bytes = (size_t)rest * (size_t)(rest + 1) / 2 * sizeof(T);
        static gchol::DeviceFlags opted_in;
        e = gchol::opt_in_shared(potrf_batched_blocked_kernel<T, Batch>, limit, opted_in);
        if (e != cudaSuccess) return e;
        potrf_batched_blocked_kernel<T, Batch>
            <<<(unsigned)count, kBlkThreads, bytes, stream>>>(batch, upper, cs, dinfo);
        return cudaGetLastError();
    }
    /* the panel kernel: the panel (n x (kPanel + 1)) and T in shared memory */
    const size_t panel_bytes = ((size_t)n_max + kPanel) * (kPanel + 1) * sizeof(T);
    if (n_max <= kPanelMaxRows && panel_bytes <= limit) {
        static gchol::DeviceFlags panel_opted_in;
        e = gchol::opt_in_shared(potrf_batched_panel_kernel<T, Batch>, limit, panel_opted_in);
        if (e != cudaSuccess) return e;
        const int rows_per = (n_max + kPanelChunks - 1) / kPanelChunks;
        const unsigned nt = (unsigned)((rows_per + 31) / 32 * 32);
        potrf_batched_panel_kernel<T, Batch>
            <<<(unsigned)count, nt, panel_bytes, stream>>>(batch, upper, dinfo);
        return cudaGetLastError();
    }
    potrf_batched_global_kernel<T, Batch><<<(unsigned)count, threads, 0, stream>>>(batch, upper,
                                                                                   dinfo);
    return cudaGetLastError();
}

/* The batch in launches of at most kMaxGrid matrices (the register kernel
 * takes several a block, the others one). */
template <typename T>
cudaError_t run(int64_t n_max, T *dA, T *const *dA_array, const int64_t *dn, int64_t ldda,
                const int64_t *dldda, int64_t stride, int upper, int64_t *dinfo, int64_t count,
                const gchol_kernel_tune_t *kt, cudaStream_t stream)
{
    if (count <= 0 || (n_max <= 0 && !dn)) return cudaSuccess;
    if (n_max > 0x7fffffff) return cudaErrorInvalidValue;
    /* the orders a Sized batch accepts go to n_max; the kernel's form needs
     * one of order at least 1 */
    const int nm = (int)n_max, form = nm > 1 ? nm : 1;
    int reg_max = kt && kt->batched_reg_max_n > 0 ? kt->batched_reg_max_n
                                                  : GCHOL_KT_DEFAULT_BATCHED_REG_MAX_N;
    if (reg_max > 32) reg_max = 32;
    int rows_max = kt ? kt->batched_rows_max_n[sizeof(T) == 4] : 0;
    if (rows_max > kRowsMax) rows_max = kRowsMax;
    const int smem_max = kt ? kt->batched_smem_max_n : 0;
    const int hybrid_max = kt ? kt->batched_hybrid_max_n : 0;
    for (int64_t b0 = 0; b0 < count; b0 += kMaxGrid) {
        const int64_t c = count - b0 < kMaxGrid ? count - b0 : kMaxGrid;
        cudaError_t e;
        if (dn) {
            const Sized<T> batch = { dA_array + b0, dn + b0, dldda + b0, nm };
            e = launch<T>(form, batch, upper, dinfo + b0, c, reg_max, rows_max, smem_max,
                          hybrid_max, stream);
        } else if (dA_array) {
            const Pointers<T> batch = { dA_array + b0, nm, ldda };
            e = launch<T>(form, batch, upper, dinfo + b0, c, reg_max, rows_max, smem_max,
                          hybrid_max, stream);
        } else {
            const Strided<T> batch = { dA + b0 * stride, stride, nm, ldda };
            e = launch<T>(form, batch, upper, dinfo + b0, c, reg_max, rows_max, smem_max,
                          hybrid_max, stream);
        }
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

} // namespace

extern "C" int gchol_dpotrf_batched_launch(int64_t n, double *dA, double *const *dA_array,
                                           const int64_t *dn, int64_t ldda, const int64_t *dldda,
                                           int64_t stride, int upper, int64_t *dinfo,
                                           int64_t count, const gchol_kernel_tune_t *kt,
                                           cudaStream_t stream)
{
    return run<double>(n, dA, dA_array, dn, ldda, dldda, stride, upper, dinfo, count, kt, stream);
}

extern "C" int gchol_spotrf_batched_launch(int64_t n, float *dA, float *const *dA_array,
                                           const int64_t *dn, int64_t ldda, const int64_t *dldda,
                                           int64_t stride, int upper, int64_t *dinfo,
                                           int64_t count, const gchol_kernel_tune_t *kt,
                                           cudaStream_t stream)
{
    return run<float>(n, dA, dA_array, dn, ldda, dldda, stride, upper, dinfo, count, kt, stream);
}
