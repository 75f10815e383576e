/*
 * potrf_tiled_chain.cuh -- the chain block of the tiled Cholesky: block 0
 * of the grid, which factors every diagonal tile and solves the tile below
 * each, in order, on the critical path of the factorization.
 *
 * Part of potrf_tiled.cu's translation unit (its anonymous namespace);
 * include it from there only.
 */
#ifndef GCHOL_POTRF_TILED_CHAIN_CUH
#define GCHOL_POTRF_TILED_CHAIN_CUH

#include "potrf_tiled_acc.cuh"
#include "potrf_tiled_sched.cuh"

namespace {

/*
 * The chain block: every diagonal tile and the tile below each, in order,
 * so that the critical path of the factorization never waits for another
 * block's store and flag (each publish and handoff cost ~2 us per step).
 * Step k, with U(k-1) = L(k-1,k-1)^{-T} still in the bottom of its panel:
 *   L(k, k-1) = P U(k-1), P = tile (k, k-1) less its updates by k' < k-1
 *   panel top  = W - L(k, k-1) L(k, k-1)^T, W = tile (k, k) likewise
 *   factor the panel [top; I]: L(k, k) and U(k)
 * P and W come from the workers (kPartial), which have all of step k-1 to
 * make them.
 */
template <typename T, bool kUpper, bool kPrefetch>
__device__ __forceinline__ void chain_block(int n, int ntc, T *A, int64_t ld, int64_t col0,
                                            int64_t *dinfo, int *sync, T *work, T *smem, Shared &sh)
{
    using Acc = typename TileAccOf<T>::type;
    constexpr int upper = kUpper;
    /* P and L(k, k-1) are kept as they lie in memory (view order in lower,
     * row-major in upper), so that their copies are contiguous on both sides
     * (a transposed copy takes four 32-byte sectors per warp access) */
    constexpr SmemOrder kPOrder = kUpper ? kMemoryOrder : kViewOrder;
    T *SP = smem;             /* the [W; I] panel, kTB x kLdp */
    T *SX = SP + kTB * kLdp;  /* P, then L(k, k-1), kTB x kLdo, memory order */
    const int nt = (n + kTB - 1) / kTB;
    int *abort_word = sync + kAbort;
    auto flag = [sync, nt](int ti, int tj) { return sync + kFlags + tj * nt + ti; };

    /* L(k, k-1) = P U(k-1), stored and left in SX; U(k-1) is in SP's bottom */
    auto solve_below = [&](int k) {
        const int rows = min(kTB, n - k * kTB);
        const int64_t r0 = (int64_t)k * kTB, c0 = r0 - kTB;
        Acc acc;
        acc.zero();
        acc.template update<kUpper, true, kLdo, kLdp, true>(SX, SP + kTB);
        __syncthreads(); /* every read of P */
        /* through shared memory, for store_tile_mem's 16-byte stores: faster
         * than storing from the accumulators (double lower, n = 1024: 5%) */
        acc.template for_each<kUpper, true>(
            [&](int r, int c, T v) { SX[kUpper ? c + r * kLdo : r + c * kLdo] = v; });
        __syncthreads();
        store_tile_mem(A, ld, upper, r0, c0, SX, kLdo, rows, kTB, false);
    };

    /* Only L(k, k-1), with no step k after it: below a failed pivot, and
     * below the last diagonal tile of a panel. */
    auto finish_below = [&](int k) {
        if (k >= 2) wait_ready(flag(k, k - 1), kPartial, abort_word, -1);
        load_tile<kPOrder>(SX, kLdo, A, ld, upper, (int64_t)k * kTB, (int64_t)(k - 1) * kTB,
                              min(kTB, n - k * kTB), kTB, false, false);
        __syncthreads();
        solve_below(k);
        __syncthreads();
        if (threadIdx.x == kPublisher) store_release(flag(k, k - 1), kFinal);
    };

    /* Threads kPoller and kPoller + 1 look at the next step's two flags as
     * soon as a panel is factored, so that their round trip to L2 overlaps
     * the stores of the step (each wait_ready costs one, about 0.4 us, when
     * the flags are long set).
     * kPrefetch: the barrier before the publish tells the block, which then
     * fetches the next step's P and W into registers while the release
     * store waits for the step's stores to land, instead of a round trip
     * after it (single upper, n = 4096: 7% faster). Only at one block per
     * SM: at two, the live tiles overflow the 128 registers and the kernel
     * runs slower. */
    constexpr int kPoller = kWarpSize;
    int ready_early = 0;
    bool have_pw = false; /* p and w hold this step's P and W */
    TileRegs<T> p, w;
    auto fetch_pw = [&](int k) {
        const int64_t ck = (int64_t)k * kTB;
        const int rk = min(kTB, n - k * kTB);
        p.template fetch<kPOrder>(A, ld, upper, ck, ck - kTB, rk, kTB, false);
        w.template fetch<kViewOrder>(A, ld, upper, ck, ck, rk, rk, true);
    };
    for (int k = 0; k < ntc; ++k) {
        const int rows = min(kTB, n - k * kTB);
        const int64_t c0 = (int64_t)k * kTB;
        const bool below = k + 1 < nt;
        int *pending = nullptr;
        if (k > 0) {
            if (!have_pw) {
                /* the chain block never gives up waiting */
                int seen = 0; /* (with kPrefetch, have_pw already says no) */
                if constexpr (!kPrefetch)
                    if (k >= 2)
                        seen = __syncthreads_count(
                            (threadIdx.x == kPoller || threadIdx.x == kPoller + 1) && ready_early);
                if (k >= 2 && seen < 2) {
                    wait_ready(flag(k, k - 1), kPartial, abort_word, -1);
                    wait_ready(flag(k, k), kPartial, abort_word, -1);
                }
                fetch_pw(k);
            }
            p.template put<kPOrder>(SX, kLdo, ld, upper, rows, false);
            w.template put<kViewOrder>(SP, kLdp, ld, upper, rows, true);
            __syncthreads();
            solve_below(k);
            /* panel top -= L(k, k-1) L(k, k-1)^T, its lower triangle only */
            lower_product_sub<T, kUpper>(SP, kLdp, SX, kLdo);
            pending = flag(k, k - 1);
        } else {
            load_tile<kViewOrder>(SP, kLdp, A, ld, upper, c0, c0, rows, rows, true, true);
        }
        if (below)
            for (int i = threadIdx.x; i < kTB * kTB; i += kThreads)
                SP[kTB + i % kTB + (i / kTB) * kLdp] = T(i % kTB == i / kTB);
        __syncthreads();
        /* L(k, k-1)'s stores have had a few hundred cycles to land */
        if (pending && threadIdx.x == kPublisher) store_release(pending, kFinal);
        const int fail = potf2_panel<T, 2 * kTB>(SP, kLdp, below ? 2 * kTB : kTB, kTB, &sh.fail,
                                                 true /* [W; I] */);
        const bool next = k + 1 < ntc && below;
        ready_early = 0;
        if (next && k + 1 >= 2 && (threadIdx.x == kPoller || threadIdx.x == kPoller + 1))
            ready_early = load_acquire(threadIdx.x == kPoller ? flag(k + 1, k) : flag(k + 1, k + 1)) >=
                          kPartial;
        store_tile(A, ld, upper, c0, c0, SP, kLdp, rows, rows, true);
        /* U(k) row-major: work[c + j*kTB] = U(c, j), for the solve items;
         * 16 bytes at a time (the workspace is cudaMalloc'd) */
        if (below) {
            constexpr int kV = 16 / (int)sizeof(T);
            static_assert(kLdp % kV == 0, "the panel's columns start on 16 bytes");
            for (int i = threadIdx.x * kV; i < kTB * kTB; i += kThreads * kV)
                *reinterpret_cast<uint4 *>(work + (int64_t)k * kTB * kTB + i) =
                    *reinterpret_cast<const uint4 *>(SP + kTB + i % kTB + (i / kTB) * kLdp);
        }
        /* info before the flag: a later (garbage) failure cannot win */
        if (fail >= 0 && threadIdx.x == 0) {
            atomicCAS(reinterpret_cast<unsigned long long *>(dinfo), 0ull,
                      (unsigned long long)(col0 + c0 + fail + 1));
            atomicCAS(abort_word, 0, k + 1);
        }
        if constexpr (kPrefetch) {
            /* step k+1's P and W are final where both pollers saw their
             * flags (step 1's are the matrix's own tiles) */
            const int seen = __syncthreads_count(
                (threadIdx.x == kPoller || threadIdx.x == kPoller + 1) && ready_early);
            if (threadIdx.x == kPublisher) store_release(flag(k, k), kFinal);
            have_pw = next && fail < 0 && (k + 1 < 2 || seen == 2);
            if (have_pw) fetch_pw(k + 1);
        } else {
            __syncthreads();
            if (threadIdx.x == kPublisher) store_release(flag(k, k), kFinal);
        }
        if (fail >= 0) {
            /* The tiles below still get the columns before the pivot, as
             * LAPACK's potf2 leaves them: the workers solve all but the
             * first (their column is not stopped), which is done here. */
            if (below) finish_below(k + 1);
            return;
        }
    }
    if (ntc < nt) finish_below(ntc);
}

/* The chain block compiled as its own function, apart from the workers'
 * code, with registers and an instruction schedule of its own: 3-5%
 * faster than inlined into the kernel. */
template <typename T, bool kUpper, bool kPrefetch>
__device__ __noinline__ void chain_block_outlined(int n, int ntc, T *A, int64_t ld, int64_t col0,
                                                  int64_t *dinfo, int *sync, T *work, T *smem,
                                                  Shared &sh)
{
    chain_block<T, kUpper, kPrefetch>(n, ntc, A, ld, col0, dinfo, sync, work, smem, sh);
}

} // namespace

#endif
