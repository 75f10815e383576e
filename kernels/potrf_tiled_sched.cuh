/*
 * potrf_tiled_sched.cuh -- the data-flow schedule of the tiled Cholesky:
 * the sync words (ticket, abort word, one ready flag per tile), the
 * numbering of the worker items, and the waits on flags.
 *
 * Part of potrf_tiled.cu's translation unit (its anonymous namespace);
 * include it from there only.
 */
#ifndef GCHOL_POTRF_TILED_SCHED_CUH
#define GCHOL_POTRF_TILED_SCHED_CUH

#include "potrf_tiled_ops.cuh"

namespace {

/* Sync words: [0] ticket, [1] abort, [2 + tj * nt + ti] ready flag (nt tile
 * rows, as many tile columns as are factored). */
enum { kTicket = 0, kAbort = 1, kFlags = 2 };

/* A tile's ready flag: kPartial once a worker has stored the part of its
 * update that the chain block finishes (see the kernel), kFinal once it
 * holds its factor. */
enum { kPartial = 1, kFinal = 2 };

/* Tile column of ticket t in column-major order of the lower tiles: column j
 * starts at j*nt - j(j-1)/2. */
__device__ __forceinline__ void tile_of_ticket(int t, int nt, int &ti, int &tj)
{
    const double b = 2.0 * nt + 1.0;
    int j = (int)((b - sqrt(b * b - 8.0 * t)) * 0.5);
    auto start = [nt](int jj) { return jj * nt - jj * (jj - 1) / 2; };
    if (j < 0) j = 0;
    while (j > 0 && start(j) > t) --j;
    while (j + 1 < nt && start(j + 1) <= t) ++j;
    tj = j;
    ti = j + (t - start(j));
}

struct Shared {
    int ticket, fail;
};

/* Whether a failure in tile column abort - 1 (abort = 0: none) stops work
 * on tile column tj. */
__device__ __forceinline__ bool aborted(const int *abort_word, int tj)
{
    const int a = *(volatile const int *)abort_word;
    return a != 0 && tj >= a;
}

/* Thread 0 waits until a flag reaches `want`, or for a failure that stops
 * tile column tj (tj = -1: never); the barrier's reduction tells the block
 * which, with no shared word that a later wait could overwrite before
 * everyone has read it. */
__device__ __forceinline__ bool wait_ready(const int *flag, int want, const int *abort_word, int tj)
{
    int ok = 1;
    if (threadIdx.x == 0) {
        while (load_acquire(flag) < want) {
            if (aborted(abort_word, tj)) { ok = 0; break; }
            __nanosleep(32);
        }
    }
    return __syncthreads_and(ok) != 0;
}

/* How many of the update steps k0, k0 + 1, ... (up to 32, below kend) have
 * both operand tiles final, L(ti, k) and L(tj, k): warp 0 reads their flags
 * at once, one step per lane, with acquire semantics (the block barrier
 * after this carries them to every thread, as in wait_ready). One L2 round
 * trip then covers many steps: a step's flags are usually long set, and
 * polling them one step at a time put a round trip and a barrier before
 * every tile product. Warp 0 only; every lane gets the count. */
__device__ __forceinline__ int ready_steps(const int *sync, int nt, int ti, int tj, bool diag,
                                           int k0, int kend)
{
    const int lane = threadIdx.x % kWarpSize, k = k0 + lane;
    bool ok = false;
    if (k < kend) {
        const int *base = sync + kFlags;
        ok = load_acquire(base + k * nt + ti) >= kFinal &&
             (diag || load_acquire(base + k * nt + tj) >= kFinal);
    }
    const unsigned ready = __ballot_sync(0xffffffffu, ok);
    return __ffs(~ready) - 1 < 0 ? kWarpSize : __ffs(~ready) - 1;
}

/* The thread that sets the chain block's flags: the release store waits for
 * the block's stores to land (about 1 us), and the last warp has no rows in
 * the first inner block of potf2_panel, so the wait overlaps work. */
constexpr int kPublisher = kThreads - 1;

/* Worker items, numbered in column order so that an item depends only on
 * items with smaller numbers and on the chain block. Column j (the tiles
 * that column j of L finishes) holds, for 1 <= j <= nt - 2:
 *   p = 0: kPanelItem, tile (j+1, j):   C = A - sum_{k<j} L(j+1,k) L(j,k)^T
 *   p = 1: kDiagItem,  tile (j+1, j+1): C = A - sum_{k<j} L(j+1,k) L(j+1,k)^T
 * and, for every j, p = 2 .. nt-1-j: kSolveItem, tile (j+p, j), the whole
 * tile: its update over k < j, then the product with U(j). Column 0 has no
 * panel or diagonal item (their sums are empty), the last column none at
 * all. This is column-major numbering of the lower tiles shifted by two. */
enum ItemKind { kPanelItem, kDiagItem, kSolveItem };

__device__ __forceinline__ void worker_item(int t, int nt, int &ti, int &tj, int &col, ItemKind &kind)
{
    int i0;
    tile_of_ticket(t + 2, nt, i0, col);
    const int p = i0 - col;
    kind = p == 0 ? kPanelItem : p == 1 ? kDiagItem : kSolveItem;
    ti = p <= 1 ? col + 1 : col + p;
    tj = p == 1 ? col + 1 : col;
}

__host__ __device__ constexpr int worker_items(int nt) { return nt >= 3 ? nt * (nt + 1) / 2 - 3 : 0; }

/* In panel mode (ntc < nt tile columns factored) the items of columns
 * 0 .. ntc-1, less the diagonal item of column ntc-1: tile (ntc, ntc) lies
 * outside the panel and is left alone. */
__host__ __device__ constexpr int worker_items(int nt, int ntc)
{
    return ntc < nt ? ntc * nt - ntc * (ntc - 1) / 2 - 2 : worker_items(nt);
}

} // namespace

#endif
