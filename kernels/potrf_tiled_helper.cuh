/*
 * potrf_tiled_helper.cuh -- the chain block with a helper block (sm_90:
 * the two blocks form a thread block cluster and write into each other's
 * shared memory; primitives in potrf_tiled_cluster.cuh).
 *
 * Why: a chain step does potf2 of [W; I] and then, on the same critical
 * path, the product L(k+1, k) = P U(k), its stores, and W -= L(k+1, k)
 * L(k+1, k)^T. But U(k) comes out of potf2 eight columns at a time:
 * columns jb .. jb+7 of U are final after potf2's inner block at jb, and
 * column j of P U(k) needs only column j of U (U is upper triangular). So
 * in double the helper block computes the product and the update while
 * potf2 still runs, and only the last columns' share is left when the
 * panel is done. Single takes another form (helper_single, below): U(k)
 * goes after potf2, whole, and the helper runs the chain block's own step,
 * with the same arithmetic, so that the factor is the same bit for bit.
 *
 *   chain block (rank 0): potf2 of its panel [W; I] (two panels, by step
 *     parity). Each thread that solves a row of U in potf2's inner block at
 *     jb sends its eight new entries into the helper's copy of U with
 *     st.async, which counts their bytes on the helper's barrier for those
 *     columns: no fence, and the thread does not wait. Then it stores L(k,
 *     k) and U(k), publishes them, writes the identity below its other
 *     panel and waits on its own barrier for the helper to fill that
 *     panel's top with W(k+1) the same way.
 *   helper (rank 1): for step k, loads P = tile (k+1, k) and W = tile
 *     (k+1, k+1), partly updated by the workers; then, for all columns of
 *     U(k) that have arrived, X(:, cols) = P U(:, cols), stored, and acc +=
 *     X(:, cols) X(:, cols)^T (registers); at the end it sends W - acc
 *     (lower triangle) into the chain block's next panel and publishes X =
 *     L(k+1, k).
 *
 * A chain step takes about 7% less time with the helper, which shows where
 * the chain sets the pace (small n; at large n the workers do). What bounds
 * it: P arrives from its worker only shortly before potf2 ends (its last
 * term needs L(k, k-1) and L(k+1, k-1), both final only at the end of the
 * step before), and the helper's products then occupy one SM's FP64 tensor
 * pipe for a few microseconds.
 *
 * The device code exists where __CUDA_ARCH__ >= 900; helper_smem_bytes is
 * the host's as well.
 * Part of potrf_tiled.cu's translation unit (its anonymous namespace);
 * include it from there only.
 */
#ifndef GCHOL_POTRF_TILED_HELPER_CUH
#define GCHOL_POTRF_TILED_HELPER_CUH

#include "potrf_tiled_acc.cuh"
#include "potrf_tiled_cluster.cuh"
#include "potrf_tiled_sched.cuh"

namespace {

/* The helper's shared memory: four tiles of kTB x kLdo. */
constexpr size_t helper_smem_bytes(size_t elem) { return 4 * elem * kTB * kLdo; }

} // namespace

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
namespace {

/* Single sends U(k) after potf2, whole, and its helper runs the chain
 * block's own step (helper_single, below). */
template <typename T> constexpr bool kWholeU = std::is_same<T, float>::value;
constexpr int kChunks = kTB / kIB;
struct HelperWords {
    unsigned long long cols_bar[kChunks]; /* the helper's: U(k)'s eight columns, one phase per step */
    unsigned long long w_bar;             /* the chain block's: W(k+1), one phase per step */
    int fail;                             /* the helper's: the step's panel failed (sent with the last columns) */
    int avail;                            /* the helper's: columns arrived (its thread 0's count) */
};
/* the bytes that complete the helper's barrier of columns jb .. jb+7: rows
 * 0 .. jb+7 of U, and the failure word with the last */
__device__ __forceinline__ unsigned chunk_bytes(int jb)
{
    return (unsigned)((jb + kIB) * kIB * sizeof(double)) + (jb + kIB == kTB ? 4u : 0u);
}
constexpr int kLowerElems = kTB * (kTB + 1) / 2; /* W(k+1)'s lower triangle */
/* kWholeU: the bytes of cols_bar[0]: all of U(k) and the failure word */
constexpr unsigned kWholeUBytes = kTB * kTB * sizeof(float) + 4u;

/* X(:, c0 .. c1-1) = P U(:, c0 .. c1-1) in double, U upper triangular
 * (column j needs rows < j + 1 of U, read up to the end of its 8-column
 * block): 16 x 8 tiles over the eight warps (warp w: row tile w % 4, column
 * blocks of parity w / 4), mma m16n8k4 in four k phases. P and X in memory
 * order (kUpper: row-major), U row-major: U(i, j) = U[j + i*kLdo]. */
template <bool kUpper>
__device__ __forceinline__ void below_columns(double *X, const double *P, const double *U, int c0,
                                              int c1)
{
    const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
    const int g = lane >> 2, q = lane & 3, r0 = 16 * (warp % 4) + g;
    auto p = [P](int r, int i) { return P[kUpper ? i + r * kLdo : r + i * kLdo]; };
    const int b0 = c0 / kIB + ((c0 / kIB) % 2 != warp / 4 ? 1 : 0);
    for (int b = b0; b < c1 / kIB; b += 2) {
        const int jb = kIB * b;
        const double *u = U + jb + g;
        double acc[4][4] = {};
        int k = 0;
        for (; k + 16 <= jb + kIB; k += 16)
#pragma unroll
            for (int ph = 0; ph < 4; ++ph)
                dmma_16x8x4(acc[ph], p(r0, k + 4 * ph + q), p(r0 + 8, k + 4 * ph + q),
                            u[(k + 4 * ph + q) * kLdo]);
        if (k < jb + kIB) /* the last 8 */
#pragma unroll
            for (int ph = 0; ph < 2; ++ph)
                dmma_16x8x4(acc[ph], p(r0, k + 4 * ph + q), p(r0 + 8, k + 4 * ph + q),
                            u[(k + 4 * ph + q) * kLdo]);
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int r = r0 + 8 * (e / 2), c = jb + 2 * q + (e % 2);
            const int at = kUpper ? c + r * kLdo : r + c * kLdo;
            X[at] = (acc[0][e] + acc[1][e]) + (acc[2][e] + acc[3][e]);
        }
    }
}

/* acc = X X^T over the lower 16 x 8 tiles of a 64 x 64 tile (the tiles of
 * lower_product_sub), some columns of X (double, memory order) at a time. */
template <bool kUpper> struct ChunkedLowerProduct {
    double acc[3][2][4]; /* [tile][k phase][fragment] */
    LowerTilesOfWarp w;
    int g, q;
    __device__ __forceinline__ void init()
    {
        zero_all(acc);
        const int lane = threadIdx.x % kWarpSize;
        g = lane >> 2;
        q = lane & 3;
        w = lower_tiles_of_warp(threadIdx.x / kWarpSize);
    }
    static __device__ __forceinline__ double x(const double *X, int r, int k)
    {
        return X[kUpper ? k + r * kLdo : r + k * kLdo];
    }
    __device__ __forceinline__ void add(const double *X, int c0, int c1)
    {
        for (int k = c0; k < c1; k += 8)
#pragma unroll
            for (int ph = 0; ph < 2; ++ph) {
                const int kk = k + 4 * ph + q;
                const double a0 = x(X, 16 * w.i + g, kk), a1 = x(X, 16 * w.i + 8 + g, kk);
#pragma unroll
                for (int s = 0; s < 3; ++s)
                    if (s < w.count) dmma_16x8x4(acc[s][ph], a0, a1, x(X, 8 * (w.j0 + s) + g, kk));
            }
    }
    /* W(r, c) - acc(r, c), r >= c, sent into the chain block's panel (ld
     * kLdp), counted on its barrier */
    template <typename T>
    __device__ __forceinline__ void send(unsigned peer_panel, const T *W, unsigned peer_bar) const
    {
#pragma unroll
        for (int s = 0; s < 3; ++s)
            if (s < w.count)
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int r = 16 * w.i + g + 8 * (e / 2), c = 8 * (w.j0 + s) + 2 * q + (e % 2);
                    if (r >= c)
                        st_async(peer_panel + (unsigned)((r + c * kLdp) * sizeof(T)),
                                 T((double)W[r + c * kLdo] - (acc[s][0][e] + acc[s][1][e])), peer_bar);
                }
    }
};

/* The helper's shared memory, four tiles of kTB x kLdo: double P, U
 * (row-major), X and W; single (kWholeU) P, U (column-major, as the chain
 * block's panel holds it), X and W. */
template <typename T> struct HelperSmem {
    T *P, *U, *X, *W;
    __device__ __forceinline__ explicit HelperSmem(void *smem)
    {
        constexpr int kTile = kTB * kLdo;
        P = reinterpret_cast<T *>(smem);
        U = P + kTile;
        X = U + kTile;
        W = X + kTile;
    }
};

/* What both helper loops (helper_single, helper_block) start from: the
 * tile count, the abort word and flags, their own buffers, and the chain
 * block's panels and W barrier in its shared memory (rank 0). */
template <typename T> struct HelperCtx {
    int nt;
    int *sync, *abort_word;
    HelperSmem<T> hs;
    unsigned chain_smem, chain_w_bar;
    __device__ __forceinline__ HelperCtx(int n, int *sync_, T *smem, HelperWords &hw)
        : nt((n + kTB - 1) / kTB), sync(sync_), abort_word(sync_ + kAbort), hs(smem),
          chain_smem(peer_addr(smem, 0)), chain_w_bar(peer_addr(&hw.w_bar, 0))
    {
    }
    __device__ __forceinline__ int *flag(int ti, int tj) const
    {
        return sync + kFlags + tj * nt + ti;
    }
};

/* potf2_panel's hook in the chain block (double): rows kTB.. of [W; I] are
 * U's, sent to the helper as they are solved */
struct SendURows {
    unsigned helper_u, helper_bar0; /* U(0, 0) and cols_bar[0] in the helper */
    bool below;
    __device__ __forceinline__ void send(int jb, int i, const double (&x)[kIB]) const
    {
        send_row8(helper_u + (unsigned)((jb + i * kLdo) * sizeof(double)), x,
                  helper_bar0 + (unsigned)(sizeof(unsigned long long) * (jb / kIB)));
    }
    __device__ __forceinline__ void row(int jb, int t, const double (&x)[kIB]) const
    {
        const int i = jb + t - kTB; /* U's row */
        if (below && i >= 0) send(jb, i, x);
    }
};

template <typename T, bool kUpper>
__device__ __noinline__ void chain_block_helped(int n, int ntc, T *A, int64_t ld, int64_t col0,
                                                int64_t *dinfo, int *sync, T *work, T *smem,
                                                HelperWords &hw)
{
    constexpr int upper = kUpper;
    const int nt = (n + kTB - 1) / kTB;
    int *abort_word = sync + kAbort;
    auto panel = [smem](int k) { return smem + (k & 1) * kTB * kLdp; };
    auto identity_below = [](T *SP) {
        for (int i = threadIdx.x; i < kTB * kTB; i += kThreads)
            SP[kTB + i % kTB + (i / kTB) * kLdp] = T(i % kTB == i / kTB);
    };
    SendURows send;
    send.helper_u = peer_addr(HelperSmem<T>(smem).U, 1);
    send.helper_bar0 = peer_addr(&hw.cols_bar[0], 1);
    const unsigned helper_fail = peer_addr(&hw.fail, 1);
    __shared__ int fail_sh;
    for (int k = 0; k < ntc; ++k) {
        const int rows = min(kTB, n - k * kTB);
        const int64_t c0 = (int64_t)k * kTB;
        const bool below = k + 1 < nt;
        T *SP = panel(k);
        if (k == 0) {
            load_tile<kViewOrder>(SP, kLdp, A, ld, upper, c0, c0, rows, rows, true, true);
            if (below) identity_below(SP);
        } else if (threadIdx.x == 0) {
            mbar_wait(&hw.w_bar, (k - 1) & 1);
            if (k + 1 < ntc) mbar_expect(&hw.w_bar, kLowerElems * sizeof(T)); /* W(k+2)'s */
        }
        __syncthreads();
        int fail;
        if constexpr (kWholeU<T>) {
            fail = potf2_panel<T, 2 * kTB>(SP, kLdp, below ? 2 * kTB : kTB, kTB, &fail_sh,
                                           true /* [W; I] */);
            if (below) {
                /* U(k) as the panel holds it (after a failure too: the
                 * helper forms L(k+1, k) from it as the chain block would),
                 * 16 bytes per store, then the failure word. (Sending only
                 * the rows that the product reads was no faster.) */
                for (int e = threadIdx.x; e < kTB * kTB / 4; e += kThreads) {
                    const int c = e / (kTB / 4), r = 4 * (e % (kTB / 4));
                    const float *u = reinterpret_cast<const float *>(SP) + kTB + r + c * kLdp;
                    const float v[4] = { u[0], u[1], u[2], u[3] };
                    st_async16(send.helper_u + (unsigned)((r + c * kLdo) * sizeof(float)), v,
                               send.helper_bar0);
                }
                if (threadIdx.x == kPublisher) st_async(helper_fail, fail >= 0 ? 1 : 0, send.helper_bar0);
            }
        } else {
            send.below = below;
            fail = potf2_panel<T, 2 * kTB>(SP, kLdp, below ? 2 * kTB : kTB, kTB, &fail_sh,
                                           true /* [W; I] */, send);
            if (below) {
                /* After a failure, the columns potf2 did not reach go as they
                 * are (not a factor); then the failure word, with the last. */
                if (fail >= 0)
                    for (int e = threadIdx.x; e < kTB * kChunks; e += kThreads) {
                        const int b = e / kTB, i = e % kTB, jb = kIB * b;
                        if (jb > fail && i < jb + kIB) {
                            T x[kIB];
#pragma unroll
                            for (int c = 0; c < kIB; ++c) x[c] = SP[kTB + i + (jb + c) * kLdp];
                            send.send(jb, i, x);
                        }
                    }
                if (threadIdx.x == kPublisher)
                    st_async(helper_fail, fail >= 0 ? 1 : 0,
                             send.helper_bar0 + (unsigned)(sizeof(unsigned long long) * (kChunks - 1)));
            }
        }
        store_tile(A, ld, upper, c0, c0, SP, kLdp, rows, rows, true);
        if (below) { /* U(k) row-major for the solve items, as chain_block */
            constexpr int kV = 16 / (int)sizeof(T);
            for (int i = threadIdx.x * kV; i < kTB * kTB; i += kThreads * kV)
                *reinterpret_cast<uint4 *>(work + (int64_t)k * kTB * kTB + i) =
                    *reinterpret_cast<const uint4 *>(SP + kTB + i % kTB + (i / kTB) * kLdp);
        }
        if (fail >= 0 && threadIdx.x == 0) {
            atomicCAS(reinterpret_cast<unsigned long long *>(dinfo), 0ull,
                      (unsigned long long)(col0 + c0 + fail + 1));
            atomicCAS(abort_word, 0, k + 1);
        }
        /* the next panel's U(k-1) was sent during step k-1 */
        if (fail < 0 && k + 1 < ntc && k + 2 < nt) identity_below(panel(k + 1));
        __syncthreads();
        if (threadIdx.x == kPublisher) store_release(sync + kFlags + k * nt + k, kFinal);
        if (fail >= 0) return; /* the helper finishes L(k+1, k) */
    }
}

/* The helper in single precision: the chain block's own step after its
 * potf2, moved here whole, with the same arithmetic in the same order (the
 * same 3xTF32 product with U by columns, the same DMMA update with its one
 * rounding to single, so that the factor is bit for bit the chain block's
 * alone): P and W are loaded while potf2 runs; U(k) arrives whole after
 * potf2; then X = P U(k), W - X X^T sent into the chain block's next
 * panel, and X stored and published. (In single P arrives at about the end
 * of potf2, so column passes beside it gain nothing, and sending rows from
 * inside potf2 slows it down.) */
template <bool kUpper>
__device__ __forceinline__ void helper_single(int n, int ntc, float *A, int64_t ld, int *sync,
                                              float *smem, HelperWords &hw)
{
    constexpr int upper = kUpper;
    constexpr SmemOrder kPOrder = kUpper ? kMemoryOrder : kViewOrder;
    const HelperCtx<float> h(n, sync, smem, hw);
    const int nt = h.nt;
    const HelperSmem<float> &hs = h.hs;
    for (int k = 0; k < ntc && k + 1 < nt; ++k) {
        const int k1 = k + 1, rows1 = min(kTB, n - k1 * kTB);
        const bool need_w = k1 < ntc;
        const int64_t r1 = (int64_t)k1 * kTB, c0 = (int64_t)k * kTB;
        /* this step's phase: the previous one is complete */
        if (threadIdx.x == 0) mbar_expect(&hw.cols_bar[0], kWholeUBytes);
        if (k1 >= 2) wait_ready(h.flag(k1, k), kPartial, h.abort_word, -1);
        TileRegs<float> p, wr;
        p.template fetch<kPOrder>(A, ld, upper, r1, c0, rows1, kTB, false);
        if (need_w) {
            if (k1 >= 2) wait_ready(h.flag(k1, k1), kPartial, h.abort_word, -1);
            wr.template fetch<kViewOrder>(A, ld, upper, r1, r1, rows1, rows1, true);
        }
        /* as the chain block puts them (P: memory order, W: lower, unit pad) */
        p.template put<kPOrder>(hs.P, kLdo, ld, upper, rows1, false);
        if (need_w) wr.template put<kViewOrder>(hs.W, kLdo, ld, upper, rows1, true);
        mbar_wait(&hw.cols_bar[0], k & 1);
        __syncthreads(); /* also: the puts of P and W */
        const bool failed = *(volatile int *)&hw.fail != 0;
        typename TileAccOf<float>::type acc; /* the chain block's product */
        acc.zero();
        acc.template update<kUpper, true, kLdo, kLdo, true>(hs.P, hs.U);
        acc.template for_each<kUpper, true>(
            [&](int r, int c, float v) { hs.X[kUpper ? c + r * kLdo : r + c * kLdo] = v; });
        __syncthreads();
        if (need_w && !failed) {
            const unsigned panel = h.chain_smem + (unsigned)((k1 & 1) * kTB * kLdp * sizeof(float));
            /* the chain block's update, each element sent as it comes out
             * of the accumulators (forming W - X X^T here first and sending
             * it by columns, 16 bytes per store, was no faster) */
            lower_product_each<float, kUpper>(hs.X, kLdo, [&](int r, int c, float v) {
                st_async(panel + (unsigned)((r + c * kLdp) * sizeof(float)), hs.W[r + c * kLdo] - v,
                         h.chain_w_bar);
            });
        }
        store_tile_mem(A, ld, upper, r1, c0, hs.X, kLdo, rows1, kTB, false);
        __syncthreads(); /* every store of X */
        if (threadIdx.x == kPublisher) store_release(h.flag(k1, k), kFinal);
        if (failed) return;
    }
}

template <typename T, bool kUpper>
__device__ __noinline__ void helper_block(int n, int ntc, T *A, int64_t ld, int *sync, T *smem,
                                          HelperWords &hw)
{
    if constexpr (kWholeU<T>) {
        helper_single<kUpper>(n, ntc, A, ld, sync, smem, hw);
        return;
    } else {
        constexpr int upper = kUpper;
        constexpr SmemOrder kPOrder = kUpper ? kMemoryOrder : kViewOrder;
        const HelperCtx<T> h(n, sync, smem, hw);
        const int nt = h.nt;
        const HelperSmem<T> &hs = h.hs;
        for (int k = 0; k < ntc && k + 1 < nt; ++k) {
            const int k1 = k + 1, rows1 = min(kTB, n - k1 * kTB);
            const bool need_w = k1 < ntc;
            const int64_t r1 = (int64_t)k1 * kTB, c0 = (int64_t)k * kTB;
            /* this step's barriers: the previous step's phases are complete */
            if (threadIdx.x == 0)
                for (int b = 0; b < kChunks; ++b) mbar_expect(&hw.cols_bar[b], chunk_bytes(kIB * b));
            /* P first: the products need it. W, only needed at the end, is
             * fetched into registers beside P if it is ready, else later. */
            if (k1 >= 2) wait_ready(h.flag(k1, k), kPartial, h.abort_word, -1);
            TileRegs<T> p, wr;
            p.template fetch<kPOrder>(A, ld, upper, r1, c0, rows1, kTB, false);
            bool have_w = need_w && (k1 < 2 || __syncthreads_or(threadIdx.x == 0 &&
                                                                load_acquire(h.flag(k1, k1)) >= kPartial));
            if (have_w) wr.template fetch<kViewOrder>(A, ld, upper, r1, r1, rows1, rows1, true);
            p.template put<kPOrder>(hs.P, kLdo, ld, upper, rows1, false);
            ChunkedLowerProduct<kUpper> wacc;
            wacc.init();
            T *out = upper ? A + c0 + r1 * ld : A + r1 + c0 * ld;
            for (int done = 0; done < kTB;) {
                /* warp 0 waits for the next eight columns and counts every
                 * further eight already arrived, one lane per barrier */
                if (threadIdx.x < kWarpSize) {
                    const int b = done / kIB + threadIdx.x;
                    unsigned ready;
                    do {
                        ready = __ballot_sync(0xffffffffu, b < kChunks && mbar_test(&hw.cols_bar[b], k & 1));
                    } while (!(ready & 1u));
                    if (threadIdx.x == 0) hw.avail = done + kIB * (__ffs(~ready) - 1);
                }
                __syncthreads(); /* also: the loads of P */
                const int avail = hw.avail;
                below_columns<kUpper>(hs.X, hs.P, hs.U, done, avail);
                __syncthreads();
                /* X's new columns to memory now: only the publish waits */
                const int w = avail - done;
                for (int e = threadIdx.x; e < kTB * w; e += kThreads) {
                    const int r = upper ? e / w : e % kTB, c = done + (upper ? e % w : e / kTB);
                    if (r < rows1) out[upper ? c + r * ld : r + c * ld] = hs.X[upper ? c + r * kLdo : r + c * kLdo];
                }
                if (need_w) wacc.add(hs.X, done, avail);
                done = avail;
            }
            const bool failed = *(volatile int *)&hw.fail != 0; /* arrived with the last columns */
            if (need_w && !failed) {
                if (!have_w) {
                    wait_ready(h.flag(k1, k1), kPartial, h.abort_word, -1);
                    wr.template fetch<kViewOrder>(A, ld, upper, r1, r1, rows1, rows1, true);
                }
                wr.template put<kViewOrder>(hs.W, kLdo, ld, upper, rows1, true);
                __syncthreads();
                wacc.send(h.chain_smem + (unsigned)((k1 & 1) * kTB * kLdp * sizeof(T)), hs.W, h.chain_w_bar);
            }
            __syncthreads(); /* every store of X */
            if (threadIdx.x == kPublisher) store_release(h.flag(k1, k), kFinal);
            if (failed) return;
        }
    }
}

} // namespace
#endif

#endif
