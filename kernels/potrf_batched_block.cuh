/*
 * potrf_batched_block.cuh -- the block-per-matrix kernels of potrf_batched.cu:
 * the blocked kernel on the packed triangle in shared memory (with its
 * global-memory head), the left-looking panel kernel, and the steps in
 * global memory for the largest orders. Included by potrf_batched.cu only,
 * after potrf_batched_small.cuh (the batch forms, view_at).
 */
#ifndef GCHOL_POTRF_BATCHED_BLOCK_CUH
#define GCHOL_POTRF_BATCHED_BLOCK_CUH

#include "potrf_batched_small.cuh"

namespace {

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
            const int fail = factor_diag_block_warp(a, kb, lane, inv_diag);
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
            /* by the reciprocal square root where it is normal: a division's
             * latency on every column's path */
            const T d = sqrt(pivot), rd = rsqrt_of(pivot);
            const bool exact = !gchol::is_normal(rd);
            for (int r = c + 1 + tid; r < rows; r += nt)
                P[r * ldp + c] = exact ? P[r * ldp + c] / d : P[r * ldp + c] * rd;
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

} // namespace

#endif
