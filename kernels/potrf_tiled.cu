/*
 * potrf_tiled.cu -- the whole Cholesky factorization of a small or medium
 * matrix in ONE kernel launch, scheduled by data flow between tiles.
 *
 * Why: below n ~ 8192 the blocked drivers are bound by their chain of small
 * dependent launches (a potf2, a trsm, a syrk per block column, tied by
 * cross-stream events): each costs a few microseconds of launch and wait
 * while most of the GPU idles. Here the dependencies are kept on the GPU.
 *
 * The lower view is cut into kTB x kTB tiles (ti, tj), ti >= tj. Block 0
 * of a persistent grid (at most what fits on the GPU at once) is the chain
 * block: it alone walks the diagonal (potrf_tiled_chain.cuh). At step k,
 * with U(k-1) = L(k-1, k-1)^{-T} in its shared memory:
 *
 *   L(k, k-1) = P U(k-1)          P = A(k, k-1) - sum_{j<k-1} L(k,j) L(k-1,j)^T
 *   W -= L(k, k-1) L(k, k-1)^T    W = A(k, k)   - sum_{j<k-1} L(k,j) L(k,j)^T
 *   factor the panel [W; I]: L(k, k) = chol(W) on top, U(k) below (potf2_panel)
 *
 * Every other block takes worker items from an atomic ticket (worker_item,
 * potrf_tiled_sched.cuh): the partial tiles P and W above (flag kPartial),
 * and every other tile whole, left-looking on its own:
 *
 *   C = A(ti, tj) - sum_{k<tj} L(ti, k) L(tj, k)^T    (waits for each L(., k))
 *   L(ti, tj) = C U(tj)                                (waits for U(tj); a product)
 *   publish: store the tile, barrier, release its flag (kFinal)
 *
 * Items are numbered so that each depends only on items with smaller
 * numbers and on chain steps whose own inputs have smaller numbers still:
 * the waits always end, whatever the number of resident blocks (two: the
 * chain block and one worker, suffice).
 *
 * Memory ordering: a producer stores its tile, the block synchronizes, then
 * one thread sets the flag with a release store (cumulative: it orders the
 * whole block's stores, as in CUTLASS's semaphore).
 * A consumer's one polling thread reads the flag with acquire semantics, the
 * block synchronizes, then every read of another block's tile goes through
 * L2 (ld.global.cg), never through the SM's L1, which may hold a stale line
 * shared with a neighbouring tile.
 *
 * A failed pivot (<= 0 or NaN) in diagonal tile tj sets info = its global
 * column (1-based) and the abort word to tj + 1. That tile and U(tj) are
 * still published and the chain block solves the tile below, so the tiles
 * below finish the columns before the pivot, as LAPACK's potrf leaves them;
 * every block working on a later tile column sees the word (at its next
 * wait or ticket) and leaves, so nothing hangs.
 * Tiles of later columns are left as they were or partly updated: as in
 * LAPACK, the part from the failing column on is not a factor.
 *
 * With one block per SM there is shared memory for a second pair of operand
 * tiles: a worker copies step k+1's tiles with cp.async while step k's
 * product runs, whenever their flags are already set (double upper,
 * n = 4096: 14% faster).
 *
 * The tile update and the product by U run on the tensor cores
 * (potrf_tiled_acc.cuh): FP64 DMMA in double, 3xTF32 (FP32 accuracy) in
 * single, 16% faster than FFMA at n = 4096. potf2_panel is the one-block
 * algorithm of the standalone potf2 kernel (tile_factor.cuh). On sm_90 the
 * chain block gets a helper block beside it in a thread block cluster
 * (potrf_tiled_helper.cuh).
 *
 * Why U: the solve C L^{-T} by one block is a chain of 64 dependent
 * columns, and each step of the factorization waits for one (the tile
 * below the diagonal). Factoring [C; I] instead of C costs the diagonal
 * block a little more and makes each solve a 64 x 64 x 64 product: the
 * kernel runs 14% faster at n = 1024. Explicit inverses of the diagonal
 * blocks are also how MAGMA's trsm works; U is formed by the same column
 * solves as the trsm it replaces.
 */
#include "gchol_kernels.h"

#include <cooperative_groups.h>

#include "potrf_tiled_chain.cuh"
#include "potrf_tiled_helper.cuh"

namespace {

/* One instantiation per triangle (each carries one update path) and per
 * blocks-per-SM target. Two blocks per SM cap registers at 128: the double
 * kernel then spills a little in potf2_panel, which lengthens the critical
 * path; one block per SM does not spill but halves the blocks that overlap
 * waiting with work. Small n runs faster with one, large n with two (the
 * launcher's one_block_up_to). Block 0 is the chain block, the others take
 * worker items from the ticket; with `helped` (sm_90 code, clusters of two)
 * block 1 is the chain block's helper. */
template <typename T, bool kUpper, int kMinBlocks>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
potrf_tiled_kernel(int n, int ntc, T *__restrict__ A, int64_t ld, int64_t col0,
                   int64_t *__restrict__ dinfo, int *__restrict__ sync, T *__restrict__ work,
                   int double_buffer, int helped)
{
    constexpr int upper = kUpper;
    /* the workers' update and their product by U(tj) */
    using Acc = typename TileAccOf<T>::type;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *SA = reinterpret_cast<T *>(smem_raw);        /* kTB x kLdo */
    T *SB = SA + kTB * kLdo;                         /* kTB x kLdo */
    T *SC = SB + kTB * kLdo;                         /* kTB x kLdc */
    T *SA2 = SC + kTB * kLdc, *SB2 = SA2 + kTB * kLdo; /* second buffers, if double_buffer */
    /* the asynchronous copies need 16-byte aligned columns */
    const bool async_ok = double_buffer && ((uintptr_t)A % 16 == 0) &&
                          (ld % (16 / (int)sizeof(T)) == 0);
    static_assert(kTB * kLdp + kTB * kLdo <= 2 * kTB * kLdo + kTB * kLdc,
                  "the chain block's panel and tile fit in the workers' three tiles");
    static_assert(kLdc == kLdo, "C is an operand of the product with U");
    __shared__ Shared sh;

    if (*(volatile int64_t *)dinfo != 0) return; /* an earlier step failed */

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    /* launched as clusters of two: block 0 is the chain block, block 1 its
     * helper (see chain_block_helped). Both read dinfo above before either
     * passes the cluster barrier, so both see the same value. */
    if constexpr (kMinBlocks == 1) {
        if (helped && blockIdx.x < 2) {
            __shared__ HelperWords hw;
            if (blockIdx.x == 0) {
                /* both panels: their strict upper parts stay zero */
                for (int i = threadIdx.x; i < 2 * kTB * kLdp; i += kThreads) SA[i] = T(0);
                if (threadIdx.x == 0) {
                    mbar_init(&hw.w_bar, 1);
                    if (ntc >= 2) mbar_expect(&hw.w_bar, kLowerElems * sizeof(T)); /* W(1)'s */
                }
            } else if (threadIdx.x == 0) {
                for (int b = 0; b < kChunks; ++b) mbar_init(&hw.cols_bar[b], 1);
            }
            asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
            cooperative_groups::this_cluster().sync(); /* both started, barriers set */
            if (blockIdx.x == 0)
                chain_block_helped<T, kUpper>(n, ntc, A, ld, col0, dinfo, sync, work, SA, hw);
            else
                helper_block<T, kUpper>(n, ntc, A, ld, sync, SA, hw);
            /* neither leaves while the other may still use its shared memory */
            cooperative_groups::this_cluster().sync();
            return;
        }
    }
#else
    (void)helped; /* the launcher asks for the helper only of sm_90 code */
#endif
    if (blockIdx.x == 0) {
        chain_block_outlined<T, kUpper, kMinBlocks == 1>(n, ntc, A, ld, col0, dinfo, sync, work,
                                                          SA, sh);
        return;
    }

    const int nt = (n + kTB - 1) / kTB, total = worker_items(nt, ntc);
    int *abort_word = sync + kAbort;
    /* C in shared memory as it lies in memory, so that its load and store
     * are contiguous on both sides (as the chain block's P) */
    constexpr SmemOrder kCOrder = kUpper ? kMemoryOrder : kViewOrder;
    auto c_at = [](int r, int c) { return kUpper ? c + r * kLdc : r + c * kLdc; };
    auto flag = [sync, nt](int ti, int tj) { return sync + kFlags + tj * nt + ti; };

    for (;;) {
        if (threadIdx.x == 0) sh.ticket = atomicAdd(sync + kTicket, 1);
        __syncthreads();
        const int t = sh.ticket;
        if (t >= total) return;
        int ti, tj, col;
        ItemKind kind;
        worker_item(t, nt, ti, tj, col, kind);
        /* tickets run in column order: every later one is stopped too */
        if (__syncthreads_or(threadIdx.x == 0 && aborted(abort_word, col))) return;
        if (ti >= ntc && kind == kDiagItem) continue; /* outside the panel */
        const bool diag = kind == kDiagItem;
        const int rows = min(kTB, n - ti * kTB), cols = min(kTB, n - tj * kTB);
        const int64_t r0 = (int64_t)ti * kTB, c0 = (int64_t)tj * kTB;

        load_tile<kCOrder>(SC, kLdc, A, ld, upper, r0, c0, rows, cols, diag, false);

        /* C -= sum_{k < col} L(ti, k) L(tj, k)^T */
        Acc acc;
        acc.zero();
        /* steps below `known` have their flags set (block-uniform) */
        int known = 0;
        auto poll = [&](int k0) {
            int c = 0;
            if (threadIdx.x < kWarpSize) c = ready_steps(sync, nt, ti, tj, diag, k0, col);
            /* the count, through the barrier's reduction (no shared word
             * that the next poll could overwrite before it is read) */
            known = k0 + __syncthreads_count(threadIdx.x < c);
        };
        if (async_ok) {
            /* Two operand buffers: the tiles of step k + 1 are copied
             * (cp.async) while step k's product runs, whenever their flags
             * are already set; otherwise the step waits as below. */
            auto buf_a = [&](int b) { return b ? SA2 : SA; };
            auto buf_b = [&](int b) { return b ? SB2 : SB; };
            auto issue = [&](int k, int b) {
                const int64_t ck = (int64_t)k * kTB;
                copy_operand_async(buf_a(b), A, ld, upper, r0, ck, rows);
                if (!diag) copy_operand_async(buf_b(b), A, ld, upper, c0, ck, cols);
                cp_async_commit();
            };
            auto wait_step = [&](int k) {
                return wait_ready(flag(ti, k), kFinal, abort_word, col) &&
                       (diag || wait_ready(flag(tj, k), kFinal, abort_word, col));
            };
            if (col > 0) {
                poll(0);
                if (known == 0 && !wait_step(0)) return;
                issue(0, 0);
            }
            for (int k = 0; k < col; ++k) {
                const int b = k & 1;
                bool ahead = false;
                if (k + 1 < col) {
                    if (k + 1 >= known) poll(k + 1);
                    ahead = k + 1 < known;
                    if (ahead) issue(k + 1, b ^ 1);
                }
                if (ahead) cp_async_wait<1>(); else cp_async_wait<0>();
                __syncthreads(); /* every thread's chunks of step k have landed */
                acc.template update<kUpper, kUpper>(buf_a(b), diag ? buf_a(b) : buf_b(b));
                __syncthreads(); /* before buffer b is written again */
                if (k + 1 < col && !ahead) {
                    if (!wait_step(k + 1)) return;
                    issue(k + 1, b ^ 1);
                }
            }
        } else {
            for (int k = 0; k < col; ++k) {
                if (k >= known) poll(k);
                if (k >= known) {
                    if (!wait_ready(flag(ti, k), kFinal, abort_word, col)) return;
                    if (!diag && !wait_ready(flag(tj, k), kFinal, abort_word, col)) return;
                }
                const int64_t ck = (int64_t)k * kTB;
                load_tile<kMemoryOrder>(SA, kLdo, A, ld, upper, r0, ck, rows, kTB, false, false);
                if (!diag)
                    load_tile<kMemoryOrder>(SB, kLdo, A, ld, upper, c0, ck, cols, kTB, false, false);
                __syncthreads();
                acc.template update<kUpper, kUpper>(SA, diag ? SA : SB);
                __syncthreads(); /* before the next tiles overwrite SA, SB */
            }
        }
        __syncthreads(); /* SC was loaded by other threads */
        acc.template for_each<kUpper, kUpper>([&](int r, int c, T v) {
            if (!diag || r >= c) SC[c_at(r, c)] -= v;
        });

        if (kind == kSolveItem) {
            __syncthreads();
            if (!wait_ready(flag(tj, tj), kFinal, abort_word, col)) return;
            /* L(ti, tj) = C U(tj): SB(j, k) = U(k, j) is row-major, C
             * in memory order. Columns before a failed pivot only use
             * columns of U that are final, as LAPACK leaves them. */
            load_tile<kMemoryOrder>(SB, kLdo, work + (int64_t)tj * kTB * kTB, kTB, 0, 0, 0, kTB,
                                    kTB, false, false);
            __syncthreads();
            Acc sacc;
            sacc.zero();
            sacc.template update<kUpper, true, kLdo, kLdo, true>(SC, SB);
            __syncthreads(); /* every read of C is done */
            sacc.template for_each<kUpper, true>([&](int r, int c, T v) { SC[c_at(r, c)] = v; });
        }
        __syncthreads();
        store_tile_mem(A, ld, upper, r0, c0, SC, kLdc, rows, cols, diag);

        /* publish: the barrier orders every thread's stores before thread 0's
         * release store (cumulative at GPU scope), the pattern of CUTLASS's
         * semaphore; a fence in every thread costs about 1 us per tile. */
        __syncthreads();
        if (threadIdx.x == 0) store_release(flag(ti, tj), kind == kSolveItem ? kFinal : kPartial);
    }
}

template <typename T> constexpr size_t tiled_smem_bytes(bool double_buffer)
{
    return (size_t)((double_buffer ? 4 : 2) * kTB * kLdo + kTB * kLdc) * sizeof(T);
}

/* gchol_dpotrf_tiled_launch, gchol_spotrf_tiled_launch. kt: its
 * tiled_one_block_up_to and tiled_cluster_helper, or the built-in choices
 * (gchol_kernels.h) where NULL. */
template <typename T>
int potrf_tiled_launch(int64_t n, int64_t ncols, T *dA, int64_t ldda, int upper, int64_t col0,
                       int64_t *dinfo, int *dsync, T *dwork, const gchol_kernel_tune_t *kt,
                       cudaStream_t stream)
{
    if (n <= 0 || ncols <= 0) return cudaSuccess;
    if (ncols > n || ncols > GCHOL_TILED_MAX_N || (ncols < n && ncols % kTB != 0) ||
        n > INT32_MAX - kTB || (uintptr_t)dwork % 16 != 0)
        return cudaErrorInvalidValue;
    const int nt = (int)((n + kTB - 1) / kTB), ntc = (int)((ncols + kTB - 1) / kTB);
    if ((int64_t)nt * ntc > (int64_t)kMaxTiles * kMaxTiles) return cudaErrorInvalidValue;
    const int total = worker_items(nt, ntc);
    const int64_t one_block_up_to =
        kt ? kt->tiled_one_block_up_to : (int64_t)GCHOL_KT_DEFAULT_ONE_BLOCK_UP_TO;
    const bool helper_wanted =
        kt ? kt->tiled_cluster_helper != 0 : GCHOL_KT_DEFAULT_CLUSTER_HELPER != 0;
    /* the ticket, the abort word and the flags of the tiles used */
    cudaError_t e = cudaMemsetAsync(dsync, 0, (size_t)(kFlags + nt * ntc) * sizeof(int), stream);
    if (e != cudaSuccess) return e;
    static DeviceFlags opted_in[2][2][2]; /* [double_buffer][upper][two]: one per kernel */
    /* The device's attributes and each kernel's occupancy, once per device
     * (two threads at once at worst both query): the queries took host
     * time on every call, while the GPU waited for the launch. */
    static DeviceInts optin_of, sms_of, per_sm_of[2][2][2];
    /* Two blocks per SM only for a whole factorization: a panel runs
     * beside the main stream's gemm, on the SMs it leaves free, where one
     * block per SM with double-buffered copies is faster. */
    const int two = ncols == n && n > one_block_up_to ? 1 : 0;
    auto kernel = upper ? (two ? potrf_tiled_kernel<T, true, 2> : potrf_tiled_kernel<T, true, 1>)
                        : (two ? potrf_tiled_kernel<T, false, 2> : potrf_tiled_kernel<T, false, 1>);
    int dev = 0, sms = 0, per_sm = 0, optin = 0;
    if ((e = cudaGetDevice(&dev)) != cudaSuccess) return e;
    const bool cached = dev < 64 && sms_of[dev].load(std::memory_order_acquire) > 0;
    if (cached) {
        optin = optin_of[dev].load(std::memory_order_relaxed);
        sms = sms_of[dev].load(std::memory_order_relaxed);
    } else {
        if ((e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) !=
            cudaSuccess)
            return e;
        if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess)
            return e;
        if (dev < 64) {
            optin_of[dev].store(optin, std::memory_order_relaxed);
            sms_of[dev].store(sms, std::memory_order_release); /* after optin: sms marks both */
        }
    }
    /* one block per SM takes a second pair of operand buffers where the
     * shared memory allows (sm_90's does) */
    const int double_buffer = !two && (size_t)optin >= tiled_smem_bytes<T>(true);
    const size_t smem = tiled_smem_bytes<T>(double_buffer);
    if ((e = opt_in_shared(kernel, smem, opted_in[double_buffer][upper ? 1 : 0][two])) != cudaSuccess)
        return e;
    std::atomic<int> *per_sm_cached =
        dev < 64 ? &per_sm_of[double_buffer][upper ? 1 : 0][two][dev] : nullptr;
    if (per_sm_cached && per_sm_cached->load(std::memory_order_relaxed) > 0) {
        per_sm = per_sm_cached->load(std::memory_order_relaxed);
    } else {
        if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, smem)) !=
            cudaSuccess)
            return e;
        if (per_sm_cached) per_sm_cached->store(per_sm, std::memory_order_relaxed);
    }
    /* The chain block with its helper, as clusters of two blocks (sm_90
     * code; one block per SM, room for the chain block's two panels). */
    static_assert(2 * kTB * kLdp <= 4 * kTB * kLdo + kTB * kLdc, "two panels fit");
    bool sm90 = false;
    if (helper_wanted && !two && double_buffer && nt >= 2 &&
        (size_t)optin >= helper_smem_bytes(sizeof(T))) {
        static DeviceBytes sm90_of;
        if ((e = runs_sm90_code(kernel, sm90_of, sm90)) != cudaSuccess) return e;
    }
    if (sm90) {
        cudaLaunchConfig_t cfg = {};
        /* the helper's buffers (four tiles) */
        const size_t smem_helped = smem > helper_smem_bytes(sizeof(T)) ? smem : helper_smem_bytes(sizeof(T));
        static DeviceFlags opted_in_helped[2];
        if ((e = opt_in_shared(kernel, smem_helped, opted_in_helped[upper ? 1 : 0])) != cudaSuccess)
            return e;
        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeClusterDimension;
        attr[0].val.clusterDim.x = 2;
        attr[0].val.clusterDim.y = 1;
        attr[0].val.clusterDim.z = 1;
        cfg.blockDim = dim3(kThreads);
        cfg.dynamicSmemBytes = smem_helped;
        cfg.stream = stream;
        cfg.attrs = attr;
        cfg.numAttrs = 1;
        static DeviceInts clusters_of[2]; /* [upper][dev] */
        int clusters = dev < 64 ? clusters_of[upper ? 1 : 0][dev].load(std::memory_order_relaxed) : 0;
        if (clusters <= 0) {
            cfg.gridDim = dim3(2 * sms);
            if ((e = cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg)) != cudaSuccess)
                return e;
            if (dev < 64) clusters_of[upper ? 1 : 0][dev].store(clusters, std::memory_order_relaxed);
        }
        /* the chain block, its helper and the workers, all resident: one
         * worker at least beside them (a second cluster) */
        int grid = 2 * clusters;
        if (grid > 2 + total) grid = (2 + total + 1) / 2 * 2;
        if (total == 0 || grid >= 4) {
            cfg.gridDim = dim3(grid);
            if ((e = cudaLaunchKernelEx(&cfg, kernel, (int)n, ntc, dA, ldda, col0, dinfo, dsync,
                                        dwork, double_buffer, 1)) != cudaSuccess)
                return e;
            return cudaGetLastError();
        }
    }
    /* the chain block and the workers, all resident: the chain block waits
     * on worker items, so one worker at least must run beside it */
    int grid = sms * (per_sm > 0 ? per_sm : 1);
    if (total > 0 && grid < 2) return cudaErrorNotSupported;
    if (grid > 1 + total) grid = 1 + total;
    kernel<<<grid, kThreads, smem, stream>>>((int)n, ntc, dA, ldda, col0, dinfo, dsync, dwork,
                                             double_buffer, 0);
    return cudaGetLastError();
}

} // namespace

extern "C" int gchol_dpotrf_tiled_launch(int64_t n, int64_t ncols, double *dA, int64_t ldda,
                                         int upper, int64_t col0, int64_t *dinfo, int *dsync,
                                         double *dwork, const gchol_kernel_tune_t *kt,
                                         cudaStream_t stream)
{
    return potrf_tiled_launch<double>(n, ncols, dA, ldda, upper, col0, dinfo, dsync, dwork, kt,
                                      stream);
}

extern "C" int gchol_spotrf_tiled_launch(int64_t n, int64_t ncols, float *dA, int64_t ldda,
                                         int upper, int64_t col0, int64_t *dinfo, int *dsync,
                                         float *dwork, const gchol_kernel_tune_t *kt,
                                         cudaStream_t stream)
{
    return potrf_tiled_launch<float>(n, ncols, dA, ldda, upper, col0, dinfo, dsync, dwork, kt,
                                     stream);
}
