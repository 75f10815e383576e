/*
 * potrs_batched.cu -- A X = B for many matrices of one order n with their
 * Cholesky factors (gchol_?potrs_batched_launch, gchol_kernels.h), any
 * number of right-hand sides. With dinfo, a matrix whose dinfo[b] is not 0
 * (its factorization failed) is skipped: its B is not written.
 *
 *   n <= 32   a group of G lanes per matrix (G the power of two >= n):
 *             lane r holds row r and column r of L in registers (the
 *             forward solve needs L(r, k), the backward L(k, r) at lane r),
 *             each right-hand side in turn, its entries passed by shuffles;
 *   larger    a thread block per matrix, L staged in shared memory by
 *             panels of 32 columns, the right-hand sides there too (in
 *             chunks of up to 32 columns): blocked solves, L read once
 *             each way per chunk; from the tuning table's
 *             batched_potrs_direct_from_n, the same solves with L read
 *             where it is used, through the cache, and only the
 *             right-hand sides in shared memory (the direct form);
 *   beyond    (L's panel no longer fits) a warp per right-hand side, lanes
 *             across the rows, L read through the cache.
 *
 * For 'U' the factor is U = L^T: L(i, j) is stored at A(j, i).
 */
#include "gchol_kernels.h"
#include "tile_common.cuh"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

template <typename T> struct Mats {
    T *A;           /* strided: matrix b at A + b * stride      */
    T *const *ptrs; /* or at ptrs[b]                            */
    int64_t stride;
    __device__ T *at(int64_t b) const { return ptrs ? ptrs[b] : A + b * stride; }
};

/* L(i, j), i >= j, of the factor stored in the uplo triangle. */
__device__ __forceinline__ int64_t l_at(int64_t i, int64_t j, int64_t ld, int upper)
{
    return upper ? j + i * ld : i + j * ld;
}

/* x / d as x * (1 / d), the reciprocal formed once: a division's latency
 * sat on each step's critical path. Where 1 / d is not a normal number (d
 * below about 5.6e-309 or above 4.5e307 in double, or 0, Inf, NaN) the
 * division itself, so that nothing overflows or loses bits that the
 * division keeps. */
template <typename T> struct Pivot {
    T d, r;
    bool exact;
    __device__ explicit Pivot(T d_) : d(d_), r(T(1) / d_), exact(!gchol::is_normal(r)) {}
    __device__ T divide(T x) const { return exact ? x / d : x * r; }
};

constexpr int kRegThreads = 128;

template <typename T, int G>
__global__ void __launch_bounds__(kRegThreads)
potrs_batched_reg_kernel(int n, int64_t nrhs, Mats<const T> As, int64_t ldda, Mats<T> Bs,
                         int64_t lddb, int upper, const int64_t *dinfo, int64_t count)
{
    const int lane = threadIdx.x % G;
    const int64_t b = (int64_t)blockIdx.x * (kRegThreads / G) + threadIdx.x / G;
    const bool live = b < count && !(dinfo && dinfo[b] != 0);
    const T *A = live ? As.at(b) : nullptr;
    T *B = live ? Bs.at(b) : nullptr;
    T row[G], col[G]; /* row[j] = L(lane, j), j <= lane; col[i] = L(i, lane), i >= lane */
    T diag = T(1);
#pragma unroll
    for (int j = 0; j < G; ++j) {
        row[j] = live && lane < n && j <= lane ? A[l_at(lane, j, ldda, upper)] : T(0);
        col[j] = live && lane < n && j < n && j >= lane ? A[l_at(j, lane, ldda, upper)] : T(1);
        if (j == lane) diag = col[j];
    }
    const Pivot<T> piv(diag);
    for (int64_t c = 0; c < nrhs; ++c) {
        T x = live && lane < n ? B[lane + c * lddb] : T(0);
        /* L y = b: y_k at lane k, then every lane below takes its part */
#pragma unroll
        for (int k = 0; k < G; ++k) {
            if (lane == k && k < n) x = piv.divide(x);
            const T yk = __shfl_sync(0xffffffffu, x, k, G);
            if (lane > k && lane < n) x -= row[k] * yk;
        }
        /* L^T x = y: x_k at lane k, then every lane above takes its part */
#pragma unroll
        for (int k = G - 1; k >= 0; --k) {
            if (lane == k && k < n) x = piv.divide(x);
            const T xk = __shfl_sync(0xffffffffu, x, k, G);
            if (lane < k && k < n) x -= col[k] * xk;
        }
        if (live && lane < n) B[lane + c * lddb] = x;
    }
}

constexpr int kWarps = 8;

/* A block per matrix, warp w on the right-hand sides w, w + kWarps, ...;
 * each step's entry is final before the lanes update below (above) it, the
 * warp's lanes in step by __syncwarp. */
template <typename T>
__global__ void __launch_bounds__(32 * kWarps)
potrs_batched_warp_kernel(int n, int64_t nrhs, Mats<const T> As, int64_t ldda, Mats<T> Bs,
                          int64_t lddb, int upper, const int64_t *dinfo)
{
    const int64_t b = blockIdx.x;
    if (dinfo && dinfo[b] != 0) return;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const T *A = As.at(b);
    T *B = Bs.at(b);
    for (int64_t c = warp; c < nrhs; c += kWarps) {
        T *x = B + c * lddb;
        for (int k = 0; k < n; ++k) {
            __syncwarp();
            const T yk = x[k] / A[l_at(k, k, ldda, upper)];
            __syncwarp();
            if (lane == 0) x[k] = yk;
            for (int r = k + 1 + lane; r < n; r += 32) x[r] -= A[l_at(r, k, ldda, upper)] * yk;
        }
        for (int k = n - 1; k >= 0; --k) {
            __syncwarp();
            const T xk = x[k] / A[l_at(k, k, ldda, upper)];
            __syncwarp();
            if (lane == 0) x[k] = xk;
            for (int r = lane; r < k; r += 32) x[r] -= A[l_at(k, r, ldda, upper)] * xk;
        }
    }
}

/* The blocked kernel: a block per matrix, the right-hand sides in chunks of
 * at most nr columns held in shared memory (Y, ld n), L in panels of kPw
 * columns staged in shared memory (Lp(i - k0, c) = L(i, k0 + c), ld
 * kPw + 1), read once in each direction:
 *   forward,  each panel: Y1 := L11^-1 Y1 (a warp per column, shuffles),
 *             then Y2 -= L21 Y1 (a thread per row of Y2 and kJ columns,
 *             or one where that would leave threads idle);
 *   backward, each panel from the last: X1 -= L21^T X2 (each entry's sum
 *             split over kParts lanes, added by shuffles in a fixed order,
 *             a lane on kJ columns), then X1 := L11^-T X1.
 * kJ independent sums a thread: one sum a thread was a chain of dependent
 * FMAs, and each L entry was loaded once per column.
 * Shared memory: (n (kPw + 1) + n nr) entries. */
constexpr int kPw = 32, kBlkThreads = 256, kParts = 8, kJ = 4;
static_assert(kBlkThreads % kParts == 0 && 32 % kParts == 0, "lane groups of kParts");

/* The panel's rows k0..n-1, lower view only: the other triangle of the
 * diagonal block is not read (its Lp cells are never used). */
template <typename T>
__device__ __forceinline__ void stage_panel(T *Lp, const T *A, int n, int k0, int kb, int64_t ld,
                                            int upper)
{
    const int rows = n - k0;
    if (upper) { /* L(i, k0 + c) at A(k0 + c, i): c fastest */
        for (int idx = threadIdx.x; idx < rows * kb; idx += kBlkThreads) {
            const int c = idx % kb, i = idx / kb;
            if (c <= i) Lp[i * (kPw + 1) + c] = A[(k0 + c) + (int64_t)(k0 + i) * ld];
        }
    } else {
        for (int idx = threadIdx.x; idx < rows * kb; idx += kBlkThreads) {
            const int i = idx % rows, c = idx / rows;
            if (c <= i) Lp[i * (kPw + 1) + c] = A[(k0 + i) + (int64_t)(k0 + c) * ld];
        }
    }
}

/* L(k0 + i, k0 + c) of the current panel: from its staged copy (Staged),
 * or from the matrix itself, through the cache. */
template <typename T, bool Staged> struct PanelL {
    const T *Lp, *A;
    int64_t ld;
    int upper, k0;
    __device__ __forceinline__ T operator()(int i, int c) const
    {
        return Staged ? Lp[i * (kPw + 1) + c] : __ldg(A + l_at(k0 + i, k0 + c, ld, upper));
    }
};

/* Staged = false, the direct form: no panel in shared memory, only Y, so
 * that several blocks share an SM where a staged panel (n (kPw + 1)
 * entries) would leave room for one. */
template <typename T, bool Staged>
__global__ void __launch_bounds__(kBlkThreads)
potrs_batched_blocked_kernel(int n, int64_t nrhs, int nr_max, Mats<const T> As, int64_t ldda,
                             Mats<T> Bs, int64_t lddb, int upper, const int64_t *dinfo)
{
    const int64_t b = blockIdx.x;
    if (dinfo && dinfo[b] != 0) return;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *Lp = reinterpret_cast<T *>(smem_raw);
    T *Y = Staged ? Lp + (size_t)n * (kPw + 1) : Lp;
    const T *A = As.at(b);
    T *B = Bs.at(b);
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, warps = kBlkThreads / 32;
    for (int64_t j0 = 0; j0 < nrhs; j0 += nr_max) {
        const int nr = nrhs - j0 < nr_max ? (int)(nrhs - j0) : nr_max;
        for (int idx = tid; idx < n * nr; idx += kBlkThreads)
            Y[idx] = B[idx % n + (j0 + idx / n) * lddb];
        for (int k0 = 0; k0 < n; k0 += kPw) { /* L Y = B */
            const int kb = n - k0 < kPw ? n - k0 : kPw, r0 = k0 + kb, m = n - r0;
            const PanelL<T, Staged> L = { Lp, A, ldda, upper, k0 };
            __syncthreads(); /* Lp free, Y loaded or updated */
            if (Staged) {
                stage_panel(Lp, A, n, k0, kb, ldda, upper);
                __syncthreads();
            }
            const Pivot<T> piv(lane < kb ? L(lane, lane) : T(1));
            for (int j = warp; j < nr; j += warps) {
                T y = lane < kb ? Y[k0 + lane + j * n] : T(0);
                for (int k = 0; k < kb; ++k) {
                    if (lane == k) y = piv.divide(y);
                    const T yk = __shfl_sync(0xffffffffu, y, k);
                    if (lane > k && lane < kb) y -= L(lane, k) * yk;
                }
                if (lane < kb) Y[k0 + lane + j * n] = y;
            }
            __syncthreads();
            /* a thread a row and jw columns: jw sums side by side, the row's
             * L entry loaded once for them (one column a thread where the
             * entries would not fill the block) */
            const int jw = m * nr > kBlkThreads ? kJ : 1, groups = (nr + jw - 1) / jw;
            for (int idx = tid; idx < m * groups; idx += kBlkThreads) {
                const int i = idx % m, jq = idx / m * jw;
                const T *y1 = Y + k0 + jq * n;
                T acc[kJ];
#pragma unroll
                for (int q = 0; q < kJ; ++q) acc[q] = T(0);
                for (int c = 0; c < kb; ++c) {
                    const T lc = L(kb + i, c);
#pragma unroll
                    for (int q = 0; q < kJ; ++q)
                        if (q < jw && jq + q < nr) acc[q] += lc * y1[c + q * n];
                }
#pragma unroll
                for (int q = 0; q < kJ; ++q)
                    if (q < jw && jq + q < nr) Y[r0 + i + (jq + q) * n] -= acc[q];
            }
        }
        for (int k0 = (n - 1) / kPw * kPw; k0 >= 0; k0 -= kPw) { /* L^T X = Y */
            const int kb = n - k0 < kPw ? n - k0 : kPw, r0 = k0 + kb, m = n - r0;
            const PanelL<T, Staged> L = { Lp, A, ldda, upper, k0 };
            __syncthreads();
            if (Staged) {
                stage_panel(Lp, A, n, k0, kb, ldda, upper);
                __syncthreads();
            }
            /* X1(c, j) -= sum_i L21(i, c) X2(i, j): each sum split over the
             * kParts lanes of a lane group (rows r0 + part, r0 + part +
             * kParts, ...), a lane on kJ columns, the parts added by
             * shuffles in a fixed order. The passes are uniform, so that
             * every lane takes part in the shuffles. */
            const int groups = (nr + kJ - 1) / kJ, items = kb * groups;
            for (int it0 = 0; it0 < items; it0 += kBlkThreads / kParts) {
                const int it = it0 + tid / kParts, part = tid % kParts;
                const bool live = it < items;
                const int c = live ? it % kb : 0, jq = live ? it / kb * kJ : 0;
                T acc[kJ];
#pragma unroll
                for (int q = 0; q < kJ; ++q) acc[q] = T(0);
                for (int i = part; live && i < m; i += kParts) {
                    const T l = L(kb + i, c);
                    const T *x2 = Y + r0 + i + jq * n;
#pragma unroll
                    for (int q = 0; q < kJ; ++q)
                        if (jq + q < nr) acc[q] += l * x2[q * n];
                }
#pragma unroll
                for (int q = 0; q < kJ; ++q)
#pragma unroll
                    for (int off = kParts / 2; off > 0; off /= 2)
                        acc[q] += __shfl_down_sync(0xffffffffu, acc[q], off, kParts);
                if (live && part == 0) {
#pragma unroll
                    for (int q = 0; q < kJ; ++q)
                        if (jq + q < nr) Y[k0 + c + (jq + q) * n] -= acc[q];
                }
            }
            __syncthreads();
            const Pivot<T> piv(lane < kb ? L(lane, lane) : T(1));
            for (int j = warp; j < nr; j += warps) {
                T x = lane < kb ? Y[k0 + lane + j * n] : T(0);
                for (int k = kb - 1; k >= 0; --k) {
                    if (lane == k) x = piv.divide(x);
                    const T xk = __shfl_sync(0xffffffffu, x, k);
                    if (lane < k) x -= L(k, lane) * xk;
                }
                if (lane < kb) Y[k0 + lane + j * n] = x;
            }
        }
        __syncthreads();
        for (int idx = tid; idx < n * nr; idx += kBlkThreads)
            B[idx % n + (j0 + idx / n) * lddb] = Y[idx];
        __syncthreads(); /* Y read out before the next chunk loads it */
    }
}

/* The direct form's shared memory a block at most (Y alone): four blocks
 * an SM within sm_90's 227 KiB. */
constexpr size_t kDirectBytes = 56 * 1024;

/* The columns a chunk of the blocked kernel may hold at order n within the
 * device's opt-in shared memory (the direct form: within kDirectBytes; 0:
 * the kernel does not fit). */
template <typename T> cudaError_t blocked_columns(int n, int64_t nrhs, bool staged, int *nr,
                                                  size_t *bytes, size_t *limit)
{
    static gchol::DeviceInts known;
    size_t optin = 0;
    const cudaError_t e = gchol::dynamic_smem_limit(nullptr, known, &optin);
    if (e != cudaSuccess) return e;
    *limit = optin;
    const size_t fixed = staged ? (size_t)n * (kPw + 1) * sizeof(T) : 0;
    const size_t per_col = (size_t)n * sizeof(T);
    const size_t room = staged || optin < kDirectBytes ? optin : kDirectBytes;
    int64_t cols = room > fixed ? (int64_t)((room - fixed) / per_col) : 0;
    if (cols > kPw) cols = kPw;
    if (cols > nrhs) cols = nrhs;
    *nr = (int)cols;
    *bytes = fixed + (size_t)cols * per_col;
    return cudaSuccess;
}

constexpr int64_t kMaxGrid = 0x7fffffff;

/* One launch of the blocked kernel in the form Staged, opted in to the
 * device's whole shared memory once (a per-call size could lower it under
 * another host thread's launch). */
template <typename T, bool Staged>
cudaError_t launch_blocked(int64_t count, size_t bytes, size_t limit, int n, int64_t nrhs, int nr,
                           Mats<const T> As, int64_t ldda, Mats<T> Bs, int64_t lddb, int upper,
                           const int64_t *dinfo, cudaStream_t stream)
{
    static gchol::DeviceFlags opted_in;
    const cudaError_t e =
        gchol::opt_in_shared(potrs_batched_blocked_kernel<T, Staged>, limit, opted_in);
    if (e != cudaSuccess) return e;
    potrs_batched_blocked_kernel<T, Staged><<<(unsigned)count, kBlkThreads, bytes, stream>>>(
        n, nrhs, nr, As, ldda, Bs, lddb, upper, dinfo);
    return cudaSuccess;
}

template <typename T>
cudaError_t run(int64_t n, int64_t nrhs, const T *dA, const T *const *dA_array, int64_t ldda,
                int64_t strideA, T *dB, T *const *dB_array, int64_t lddb, int64_t strideB,
                int upper, const int64_t *dinfo, int64_t count, const gchol_kernel_tune_t *kt,
                cudaStream_t stream)
{
    if (n <= 0 || nrhs <= 0 || count <= 0) return cudaSuccess;
    if (n > 0x7fffffff) return cudaErrorInvalidValue;
    const int nn = (int)n;
    int reg_max = kt && kt->batched_reg_max_n > 0 ? kt->batched_reg_max_n
                                                  : GCHOL_KT_DEFAULT_BATCHED_REG_MAX_N;
    if (reg_max > 32) reg_max = 32;
    int nr = 0;
    size_t bytes = 0, limit = 0;
    /* the direct form from its tuned order, where a chunk fits it */
    const int direct_from = kt ? kt->batched_potrs_direct_from_n[sizeof(T) == 4] : 0;
    bool staged = !(direct_from > 0 && nn >= direct_from);
    if (nn > reg_max) {
        cudaError_t e = blocked_columns<T>(nn, nrhs, staged, &nr, &bytes, &limit);
        if (e == cudaSuccess && !staged && nr == 0) {
            staged = true;
            e = blocked_columns<T>(nn, nrhs, staged, &nr, &bytes, &limit);
        }
        if (e != cudaSuccess) return e;
    }
    for (int64_t b0 = 0; b0 < count; b0 += kMaxGrid) {
        const int64_t c = count - b0 < kMaxGrid ? count - b0 : kMaxGrid;
        const Mats<const T> As = { dA_array ? nullptr : dA + b0 * strideA,
                                   dA_array ? dA_array + b0 : nullptr, strideA };
        const Mats<T> Bs = { dB_array ? nullptr : dB + b0 * strideB,
                             dB_array ? dB_array + b0 : nullptr, strideB };
        const int64_t *di = dinfo ? dinfo + b0 : nullptr;
        if (nn <= reg_max) {
            const int g = nn <= 4 ? 4 : nn <= 8 ? 8 : nn <= 16 ? 16 : 32;
            const int64_t blocks = (c + kRegThreads / g - 1) / (kRegThreads / g);
            switch (g) {
            case 4: potrs_batched_reg_kernel<T, 4><<<(unsigned)blocks, kRegThreads, 0, stream>>>(
                        nn, nrhs, As, ldda, Bs, lddb, upper, di, c); break;
            case 8: potrs_batched_reg_kernel<T, 8><<<(unsigned)blocks, kRegThreads, 0, stream>>>(
                        nn, nrhs, As, ldda, Bs, lddb, upper, di, c); break;
            case 16: potrs_batched_reg_kernel<T, 16><<<(unsigned)blocks, kRegThreads, 0, stream>>>(
                         nn, nrhs, As, ldda, Bs, lddb, upper, di, c); break;
            default: potrs_batched_reg_kernel<T, 32><<<(unsigned)blocks, kRegThreads, 0, stream>>>(
                         nn, nrhs, As, ldda, Bs, lddb, upper, di, c); break;
            }
        } else if (nr > 0) {
            const cudaError_t e =
                staged ? launch_blocked<T, true>(c, bytes, limit, nn, nrhs, nr, As, ldda, Bs, lddb,
                                                 upper, di, stream)
                       : launch_blocked<T, false>(c, bytes, limit, nn, nrhs, nr, As, ldda, Bs,
                                                  lddb, upper, di, stream);
            if (e != cudaSuccess) return e;
        } else {
            potrs_batched_warp_kernel<T><<<(unsigned)c, 32 * kWarps, 0, stream>>>(
                nn, nrhs, As, ldda, Bs, lddb, upper, di);
        }
        const cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

} // namespace

extern "C" int gchol_dpotrs_batched_launch(int64_t n, int64_t nrhs, const double *dA,
                                           const double *const *dA_array, int64_t ldda,
                                           int64_t strideA, double *dB, double *const *dB_array,
                                           int64_t lddb, int64_t strideB, int upper,
                                           const int64_t *dinfo, int64_t count,
                                           const gchol_kernel_tune_t *kt, cudaStream_t stream)
{
    return run<double>(n, nrhs, dA, dA_array, ldda, strideA, dB, dB_array, lddb, strideB, upper,
                       dinfo, count, kt, stream);
}

extern "C" int gchol_spotrs_batched_launch(int64_t n, int64_t nrhs, const float *dA,
                                           const float *const *dA_array, int64_t ldda,
                                           int64_t strideA, float *dB, float *const *dB_array,
                                           int64_t lddb, int64_t strideB, int upper,
                                           const int64_t *dinfo, int64_t count,
                                           const gchol_kernel_tune_t *kt, cudaStream_t stream)
{
    return run<float>(n, nrhs, dA, dA_array, ldda, strideA, dB, dB_array, lddb, strideB, upper,
                      dinfo, count, kt, stream);
}
