/*
 * potrf_batched_live.cu -- the batched potrf kernel for orders 193 to 256
 * (gchol_?potrf_batched_live_launch, potrf_batched_live.h): a thread block
 * per matrix, left-looking by tile columns of 32, with only the live tiles
 * in shared memory, those a later step still reads. The whole triangle of
 * 36 tiles at n = 256 fits no SM in double; the live ones are at most 23
 * (207 KiB in double, one block an SM; 104 in single, two), so each
 * element is read from global memory once and written once, where the
 * warp-per-matrix kernel reads L again through a cache that no longer
 * holds it (three times the triangle's bytes at 256 in double).
 *
 * Step J, two phases, one block barrier each (the tiles, products, solves
 * and diagonal factorization of potrf_batched_tiles.cuh):
 *   1. the tiles below diagonal tile J, X := X L(J, J)^-T, a warp a tile;
 *      meanwhile the copies of tile column J + 2 are in flight;
 *   2. one warp updates diagonal tile J + 1 by tile column J and factors
 *      it; the others take block rows I >= J + 2: tile (I, J + 1) updated
 *      by tile column J (its last update) and tile (I, J + 2) by tile
 *      columns 0..J at once (every update but its last) in one sum of
 *      products; then they store tile column J, the least loaded first.
 * So the critical path is a step's solve, one product and the diagonal
 * tile's 32-pivot chain; the other work runs beside it. A tile (I, K)
 * lives from its copy to step I; its slot (a 32 x 36 tile) is reused by a
 * later copy (LivePlan, the same for every block of an order, made at
 * compile time). The products run on the FP64 tensor cores in both
 * precisions (LiveProductF32: single's operands converted), but for
 * single's diagonal tile update, on FMAs; single solves and factors with
 * the rolled routines (kLiveRolled).
 *
 * At the first pivot that is not positive (or NaN), in diagonal tile K:
 * the tiles below it get its columns before the failed one (the rest as
 * updated by the tile columns before K), and nothing right of tile column
 * K is written, as the other batched kernels leave it.
 */
#include "potrf_batched_live.h"
#include "potrf_batched_small.cuh"
#include "potrf_batched_tiles.cuh"
#include "tile_common.cuh"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kLiveWarps = 8;
constexpr int kLiveThreads = 32 * kLiveWarps;
constexpr int kLiveMaxNt = GCHOL_BATCHED_LIVE_MAX_N / kTw; /* tile columns */
constexpr int kLiveTiles = kLiveMaxNt * (kLiveMaxNt + 1) / 2;
/* phase 2: a factoring warp, and up to 6 block rows below it (their two
 * tiles on two warps for 3 rows or fewer) */
static_assert(kLiveWarps == 8 && kLiveMaxNt <= 8, "phase 2's warps");

__host__ __device__ constexpr int live_index(int I, int J) { return I * (I + 1) / 2 + J; }

/* The slot of each tile (I, J) of an order of nt tile columns at
 * slot[live_index(I, J)], in the kernel's order of copies and last uses,
 * the lowest free slot first; returns the slots taken at once at most. */
struct LivePlan {
    unsigned char slot[kLiveTiles] = {};
    unsigned used = 0;
    int live = 0, peak = 0;

    __host__ __device__ constexpr void take(int I, int J)
    {
        int s = 0;
        while (used >> s & 1u) ++s;
        used |= 1u << s;
        slot[live_index(I, J)] = (unsigned char)s;
        if (++live > peak) peak = live;
    }
    __host__ __device__ constexpr void drop(int I, int J)
    {
        used &= ~(1u << slot[live_index(I, J)]);
        --live;
    }
    __host__ __device__ constexpr int plan(int nt)
    {
        used = 0;
        live = peak = 0;
        /* tile columns 0, 1, 2 before step 0 */
        for (int J = 0; J < 3 && J < nt; ++J)
            for (int I = J; I < nt; ++I) take(I, J);
        for (int J = 0; J < nt; ++J) {
            if (J >= 1 && J + 2 < nt)
                for (int I = J + 2; I < nt; ++I) take(I, J + 2);
            drop(J, J); /* after phase 1 */
            if (J + 1 < nt) drop(J + 1, J);
            if (J + 2 < nt)
                for (int K = 0; K <= J; ++K) drop(J + 2, K); /* after phase 2 */
        }
        return peak;
    }
};

/* The plans of every order, made at compile time: a block copies its
 * order's slots from constant memory (one thread making them held every
 * block back: 2.50 ms against 2.09 for 2 GiB at n = 256 in double). */
struct LivePlans {
    unsigned char slot[kLiveMaxNt][kLiveTiles] = {};
    int peak[kLiveMaxNt] = {};
};
constexpr LivePlans make_live_plans()
{
    LivePlans t;
    for (int nt = 1; nt <= kLiveMaxNt; ++nt) {
        LivePlan p;
        t.peak[nt - 1] = p.plan(nt);
        for (int i = 0; i < kLiveTiles; ++i) t.slot[nt - 1][i] = p.slot[i];
    }
    return t;
}
constexpr LivePlans kLivePlans = make_live_plans();
__constant__ LivePlans live_plans = kLivePlans;

/* The dynamic shared memory for orders up to n (<= GCHOL_BATCHED_LIVE_MAX_N). */
template <typename T> size_t live_smem_bytes(int n)
{
    const int nt = (n + kTw - 1) / kTw;
    return nt > 0 ? (size_t)kLivePlans.peak[nt - 1] * kTileElems * sizeof(T) : 0;
}

/* Single's tile products on the FP64 tensor cores (m16n8k4), operands
 * converted: the products exact, the sums in double, and the FMA pipe left
 * to the solves and the diagonal factorizations, which ran beside FMA
 * products at about half their speed. Lane (g, q) takes k = 2q and 2q + 1
 * of each 8 (one k step each), so that a warp's loads of a column pair
 * (stride kTld = 4 mod 32 words) fall in 32 distinct banks. Rows and
 * columns as TileProduct<double>; kLower: a diagonal tile's, without the
 * two m16n8 blocks above its diagonal (rows 0..15, columns 16..31). */
struct LiveProductF32 {
    double acc[2][4][4];

    template <bool kLower = false> __device__ __forceinline__ void add(const float *X, const float *Y)
    {
        const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
        const float *x = X + g + 2 * q * kTld, *y = Y + g + 2 * q * kTld;
#pragma unroll
        for (int k = 0; k < kTw; k += 4) {
            const int off = (k / 8 * 8 + k % 8 / 4) * kTld;
            double a[2][2], b[4];
#pragma unroll
            for (int t = 0; t < 2; ++t) {
                a[t][0] = x[16 * t + off];
                a[t][1] = x[16 * t + 8 + off];
            }
#pragma unroll
            for (int c = 0; c < 4; ++c) b[c] = y[8 * c + off];
#pragma unroll
            for (int t = 0; t < 2; ++t)
#pragma unroll
                for (int c = 0; c < 4; ++c)
                    if (!kLower || t > 0 || c < 2)
                        gchol::dmma_16x8x4(acc[t][c], a[t][0], a[t][1], b[c]);
        }
    }
    template <bool kLower = false> __device__ __forceinline__ void subtract_from(float *C) const
    {
        const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
#pragma unroll
        for (int t = 0; t < 2; ++t)
#pragma unroll
            for (int c = 0; c < 4; ++c)
                if (!kLower || t > 0 || c < 2)
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        float &r = C[16 * t + g + 8 * (e / 2) + (8 * c + 2 * q + e % 2) * kTld];
                        r = (float)((double)r - acc[t][c][e]);
                    }
    }
};
template <typename T> struct LiveProductOf { using type = TileProduct<T>; };
template <> struct LiveProductOf<float> { using type = LiveProductF32; };
/* Sums into diagonal tiles without the blocks above the diagonal, in
 * single only: in double the skipped blocks did not pay for a second copy
 * of the sum's code (2.12 ms against 2.09 for 2 GiB at n = 256), in
 * single they gain (2.67 against 2.77). */
template <typename T> constexpr bool kLiveLower = sizeof(T) == 4;
/* Single's solves and diagonal factorizations by the rolled routines,
 * and its diagonal tile's last update by FMAs (the tensor cores are the
 * sums'): 2.68 -> 2.50 ms for 2 GiB at n = 256. Double keeps the unrolled
 * ones, whose triangular loops save more FP64 work than the instruction
 * fetches cost (2.00 against 2.21 ms). */
template <typename T> constexpr bool kLiveRolled = sizeof(T) == 4;
/* Phase 2 gives the last updates of tile column J + 1 warps of their own
 * from this many block rows down (above, a warp takes both tiles of a
 * row): in single also at 4 rows, where the sums were the step's longest
 * path (2.50 -> 2.46 ms); in double the factorization is longer there. */
template <typename T> constexpr int kLiveSplitRows = sizeof(T) == 4 ? 4 : 3;

/* C -= X Y^T by one warp (not inlined: tile_update). */
template <typename T> __device__ __noinline__ void live_update(T *C, const T *X, const T *Y)
{
    typename LiveProductOf<T>::type p;
    gchol::zero_all(p.acc);
    p.add(X, Y);
    p.subtract_from(C);
}

/* C -= sum over K < nk of X_K Y_K^T, X_K = tile (I, K), Y_K = tile (J, K)
 * (one warp): one sum, one pass over C; kLower: C a diagonal tile (I = J),
 * its lower triangle (and the blocks it shares) updated. */
template <bool kLower, typename T>
__device__ __noinline__ void live_update_sum(T *C, const T *S, const unsigned char *slot, int I,
                                             int J, int nk)
{
    typename LiveProductOf<T>::type p;
    gchol::zero_all(p.acc);
    for (int K = 0; K < nk; ++K) {
        const T *X = S + slot[live_index(I, K)] * kTileElems;
        const T *Y = S + slot[live_index(J, K)] * kTileElems;
        if constexpr (kLower)
            p.template add<true>(X, Y);
        else
            p.add(X, Y);
    }
    if constexpr (kLower)
        p.template subtract_from<true>(C);
    else
        p.subtract_from(C);
}

/* With kFromW, a block reads its matrix not where the batch stores it but,
 * for the trailing matrix of a larger order (potrf_batched_cublas.c), from
 * its updated copy at W + b * wstride (leading dimension ldw, the same
 * view; ldw and wstride multiples of 4 elements, W 16-byte aligned); a
 * matrix whose dinfo is not 0 is left alone, and a failure's info is k0
 * past the trailing matrix's own. A template flag: the plain form's
 * registers stay as they are (single's are at the 128 of two blocks an SM). */
template <typename T> struct LiveSource {
    const T *W;
    int64_t wstride, ldw, k0;
};

/* One matrix a block of kLiveThreads; dynamic shared memory
 * live_smem_bytes<T>(the largest order). */
template <typename T, typename Batch, bool kFromW>
__global__ void __launch_bounds__(kLiveThreads, sizeof(T) == 8 ? 1 : 2)
potrf_batched_live_kernel(Batch batch, LiveSource<T> src, int upper, int64_t *dinfo)
{
    extern __shared__ __align__(16) unsigned char live_smem[];
    T *S = reinterpret_cast<T *>(live_smem);
    __shared__ __align__(16) T rd[kTw]; /* the diagonal tile's reciprocal pivots */
    __shared__ unsigned char slot[kLiveTiles];
    /* the rolled factorization's columns (single only) */
    __shared__ __align__(16) T fcol[2][kLiveRolled<T> ? kTw : 1];
    __shared__ int info, good;
    const int64_t b = blockIdx.x;
    const bool failed_before = kFromW && dinfo[b] != 0;
    const int arg = batch.check(b), n = arg == 0 && !failed_before ? batch.order(b) : 0;
    const int64_t ld = batch.lead(b);
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int nt = (n + kTw - 1) / kTw;
    T *A = n > 0 ? batch.at(b) : nullptr;
    const bool vec = !upper && reinterpret_cast<uintptr_t>(A) % 16 == 0 &&
                     ld % Vec16<T>::width == 0;
    /* the copies' source */
    const T *In = kFromW ? src.W + b * src.wstride : A;
    const int64_t ldi = kFromW ? src.ldw : ld;
    const bool vec_in = kFromW ? !upper : vec;
    if (tid == 0) {
        info = 0;
        good = 0;
    }
    if (nt > 0 && tid < nt * (nt + 1) / 2) slot[tid] = live_plans.slot[nt - 1][tid];
    __syncthreads();
    auto tile = [&](int I, int J) { return S + slot[live_index(I, J)] * kTileElems; };
    /* diagonal tile K by one warp, factored (stored with its tile column) */
    auto factor = [&](int K) {
        T *D = tile(K, K);
        const int kb = n - kTw * K < kTw ? n - kTw * K : kTw;
        int fail;
        if constexpr (kLiveRolled<T>)
            fail = tile_factor_diag_rolled(D, kb, rd, fcol);
        else
            fail = tile_factor_diag(D, kb, rd);
        if (lane == 0) {
            good = fail ? fail - 1 : kb;
            if (fail) info = kTw * K + fail;
        }
    };
    /* Step J's phase 2 (below): the factoring warp fw(J) and the others,
     * w(J) = 0 .. warps - 2 in the order of warp numbers after it (in
     * double, the warp on fw's scheduler, fw + 4, last: the factorization's
     * DFMAs share the FP64 pipe with the tensor cores, so that warp takes
     * the lightest job, 2.08 -> 2.00 ms for 2 GiB at n = 256; single's
     * factorization is on the FMA pipe, and its products are faster
     * spread over all four schedulers); with R = nt - J - 2 block rows below
     * the next diagonal tile, w = 0 .. R - 1 each take block row I = J + 2
     * + w: tile (I, J + 2) and, for more than kLiveSplitRows rows, tile
     * (I, J + 1), else the warps past R take those in turn; from step 1
     * each tile of column J + 2 is copied in by the warp that updates it.
     * Diagonal tile J + 1 is factored by warp (J + 1 + b) % warps: the
     * blocks an SM runs factor on different schedulers. */
    const int fw0 = (int)(b % kLiveWarps);
    auto fw_of = [&](int J) { return (fw0 + J + 1) % kLiveWarps; };
    auto w_of = [&](int J) {
        const int d = (warp - fw_of(J) + kLiveWarps) % kLiveWarps; /* fw: 0 */
        if (sizeof(T) == 8 && d >= kLiveWarps / 2)
            return d == kLiveWarps / 2 ? kLiveWarps - 2 : d - 2;
        return d - 1;
    };
    /* Before step 0: warp fw0 copies the first diagonal tile and factors
     * it while the rest of tile columns 0, 1 and 2 is in flight. */
    if (nt > 0) {
        if (warp == fw0) tile_copy_in<32>(tile(0, 0), In, ldi, upper, n, vec_in, 0, 0, lane);
        gchol::cp_async_commit();
        for (int J = 0; J < 3 && J < nt; ++J)
            for (int I = J > 0 ? J : 1; I < nt; ++I)
                tile_copy_in<kLiveThreads>(tile(I, J), In, ldi, upper, n, vec_in, I, J, tid);
        gchol::cp_async_commit();
        if (warp == fw0) {
            gchol::cp_async_wait<1>();
            __syncwarp();
            factor(0);
        }
        gchol::cp_async_wait<0>();
    }
    __syncthreads();
    for (int J = 0; J < nt; ++J) {
        const int w = w_of(J);
        const int R = nt - J - 2;
        const bool split = R <= kLiveSplitRows<T>;
        if (J >= 1 && w >= 0 && w < R)
            tile_copy_in<32>(tile(J + 2 + w, J + 2), In, ldi, upper, n, vec_in, J + 2 + w, J + 2,
                             lane);
        gchol::cp_async_commit();
        /* 1. the tiles below diagonal tile J (stored in phase 2); its
         * factorization's outcome read before the barrier, past which the
         * next diagonal tile's may change it */
        const int kg = good;
        const bool stop = info != 0;
        for (int I = J + 1 + warp; I < nt; I += kLiveWarps)
            if constexpr (kLiveRolled<T>)
                tile_solve_row_rolled(tile(I, J), tile(J, J), rd, kg);
            else
                tile_solve_row(tile(I, J), tile(J, J), rd, kg);
        __syncthreads();
        if (stop || J + 1 == nt) { /* uniform: tile column J stored, the last one */
            for (int I = J + warp; I < nt; I += kLiveWarps)
                tile_store<32>(A, tile(I, J), ld, upper, n, I, J, vec, lane);
            break;
        }
        /* 2. diagonal tile J + 1; tile columns J + 1 and J + 2 below it;
         * tile column J stored. First this warp's copies of column J + 2. */
        gchol::cp_async_wait<0>();
        __syncwarp();
        if (w < 0) {
            T *D = tile(J + 1, J + 1);
            const T *X = tile(J + 1, J);
            if constexpr (kLiveRolled<T>)
                tile_update(D, X, X);
            else
                live_update(D, X, X);
            __syncwarp();
            factor(J + 1);
        } else {
            if (w < R) {
                const int I = J + 2 + w;
                if (!split) live_update(tile(I, J + 1), tile(I, J), tile(J + 1, J));
                if (kLiveLower<T> && I == J + 2)
                    live_update_sum<kLiveLower<T>>(tile(I, J + 2), S, slot, I, J + 2, J + 1);
                else
                    live_update_sum<false>(tile(I, J + 2), S, slot, I, J + 2, J + 1);
            } else if (split) {
                for (int r = w - R; r < R; r += kLiveWarps - 1 - R)
                    live_update(tile(J + 2 + r, J + 1), tile(J + 2 + r, J), tile(J + 1, J));
            }
            /* tile (J + t, J) by warp w = warps - 2 - t (mod warps - 1):
             * the least loaded first */
            for (int t = kLiveWarps - 2 - w; J + t < nt; t += kLiveWarps - 1)
                tile_store<32>(A, tile(J + t, J), ld, upper, n, J + t, J, vec, lane);
        }
        __syncthreads();
    }
    gchol::cp_async_wait<0>(); /* a failure's copies, before the block ends */
    if (tid == 0 && !kFromW) dinfo[b] = arg != 0 ? arg : info;
    else if (tid == 0 && info != 0) dinfo[b] = src.k0 + info;
}

constexpr int64_t kMaxGrid = 0x7fffffff;

/* The kernel opted in to the device's whole shared-memory limit (limit)
 * once: a per-call size could lower it under another host thread's launch. */
template <typename T, bool kFromW, typename Batch>
cudaError_t launch(Batch batch, LiveSource<T> src, int upper, int64_t *dinfo, int64_t count,
                   size_t bytes, size_t limit, cudaStream_t stream)
{
    static gchol::DeviceFlags opted_in;
    const cudaError_t e = gchol::opt_in_shared(potrf_batched_live_kernel<T, Batch, kFromW>, limit,
                                               opted_in);
    if (e != cudaSuccess) return e;
    potrf_batched_live_kernel<T, Batch, kFromW><<<(unsigned)count, kLiveThreads, bytes, stream>>>(
        batch, src, upper, dinfo);
    return cudaGetLastError();
}

template <typename T, bool kFromW>
int run(int64_t n_max, T *dA, T *const *dA_array, const int64_t *dn, int64_t ldda,
        const int64_t *dldda, int64_t stride, int upper, LiveSource<T> src, int64_t *dinfo,
        int64_t count, int *launched, cudaStream_t stream)
{
    *launched = 0;
    if (n_max < 1 || n_max > GCHOL_BATCHED_LIVE_MAX_N || count <= 0) return cudaSuccess;
    /* where the device's shared memory holds the tiles (less the static arrays) */
    static gchol::DeviceInts known;
    size_t limit = 0;
    cudaError_t e =
        gchol::dynamic_smem_limit(potrf_batched_live_kernel<T, Strided<T>, false>, known, &limit);
    if (e != cudaSuccess) return e;
    const int nm = (int)n_max;
    const size_t bytes = live_smem_bytes<T>(nm);
    if (bytes > limit) return cudaSuccess;
    for (int64_t b0 = 0; b0 < count; b0 += kMaxGrid) {
        const int64_t c = count - b0 < kMaxGrid ? count - b0 : kMaxGrid;
        LiveSource<T> s = src;
        if (kFromW) s.W += b0 * s.wstride;
        if constexpr (!kFromW) { /* the variable-size form: its own matrices only */
            if (dn) {
                const Sized<T> batch = { dA_array + b0, dn + b0, dldda + b0, nm };
                e = launch<T, kFromW>(batch, s, upper, dinfo + b0, c, bytes, limit, stream);
                if (e != cudaSuccess) return e;
                continue;
            }
        }
        if (dA_array) {
            const Pointers<T> batch = { dA_array + b0, nm, ldda };
            e = launch<T, kFromW>(batch, s, upper, dinfo + b0, c, bytes, limit, stream);
        } else {
            const Strided<T> batch = { dA + b0 * stride, stride, nm, ldda };
            e = launch<T, kFromW>(batch, s, upper, dinfo + b0, c, bytes, limit, stream);
        }
        if (e != cudaSuccess) return e;
    }
    *launched = 1;
    return cudaSuccess;
}

template <typename T>
int trailing(int64_t n, T *dA, T *const *dA_array, int64_t ldda, int64_t stride, int upper,
             const T *W, int64_t ldw, int64_t wstride, int64_t k0, int64_t *dinfo, int64_t count,
             int *launched, cudaStream_t stream)
{
    *launched = 0;
    if (!W || ldw < (n > 1 ? n : 1) || ldw % 4 || wstride % 4 ||
        reinterpret_cast<uintptr_t>(W) % 16)
        return cudaErrorInvalidValue;
    return run<T, true>(n, dA, dA_array, nullptr, ldda, nullptr, stride, upper,
                        LiveSource<T>{ W, wstride, ldw, k0 }, dinfo, count, launched, stream);
}

} // namespace

extern "C" int gchol_dpotrf_batched_live_launch(int64_t n, double *dA, double *const *dA_array,
                                                const int64_t *dn, int64_t ldda,
                                                const int64_t *dldda, int64_t stride, int upper,
                                                int64_t *dinfo, int64_t count, int *launched,
                                                cudaStream_t stream)
{
    return run<double, false>(n, dA, dA_array, dn, ldda, dldda, stride, upper,
                              LiveSource<double>{}, dinfo, count, launched, stream);
}

extern "C" int gchol_spotrf_batched_live_launch(int64_t n, float *dA, float *const *dA_array,
                                                const int64_t *dn, int64_t ldda,
                                                const int64_t *dldda, int64_t stride, int upper,
                                                int64_t *dinfo, int64_t count, int *launched,
                                                cudaStream_t stream)
{
    return run<float, false>(n, dA, dA_array, dn, ldda, dldda, stride, upper,
                             LiveSource<float>{}, dinfo, count, launched, stream);
}

extern "C" int gchol_dpotrf_batched_live_trailing_launch(
    int64_t n, double *dA, double *const *dA_array, int64_t ldda, int64_t stride, int upper,
    const double *W, int64_t ldw, int64_t wstride, int64_t k0, int64_t *dinfo, int64_t count,
    int *launched, cudaStream_t stream)
{
    return trailing(n, dA, dA_array, ldda, stride, upper, W, ldw, wstride, k0, dinfo, count,
                    launched, stream);
}

extern "C" int gchol_spotrf_batched_live_trailing_launch(
    int64_t n, float *dA, float *const *dA_array, int64_t ldda, int64_t stride, int upper,
    const float *W, int64_t ldw, int64_t wstride, int64_t k0, int64_t *dinfo, int64_t count,
    int *launched, cudaStream_t stream)
{
    return trailing(n, dA, dA_array, ldda, stride, upper, W, ldw, wstride, k0, dinfo, count,
                    launched, stream);
}
