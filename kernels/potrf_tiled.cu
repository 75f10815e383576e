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
 * block: it alone walks the diagonal (chain_block below). At step k, with
 * U(k-1) = L(k-1, k-1)^{-T} in its shared memory:
 *
 *   L(k, k-1) = P U(k-1)          P = A(k, k-1) - sum_{j<k-1} L(k,j) L(k-1,j)^T
 *   W -= L(k, k-1) L(k, k-1)^T    W = A(k, k)   - sum_{j<k-1} L(k,j) L(k,j)^T
 *   factor the panel [W; I]: L(k, k) = chol(W) on top, U(k) below (potf2_panel)
 *
 * Every other block takes worker items from an atomic ticket (worker_item):
 * the partial tiles P and W above (flag kPartial), and every other tile
 * whole, left-looking on its own:
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
 * product runs, whenever their flags are already set (n = 4096, double:
 * upper 1.53 -> 1.32 ms, lower unchanged at 1.31; single 1.45 -> 1.39).
 *
 * The tile update and the product by U run on the tensor cores on sm_90:
 * FP64 (mma m16n8k4) in double, 3xTF32 (mma m16n8k8, FP32 accuracy) in
 * single (n = 1024 / 4096 lower 0.283 -> 0.260 / 1.35 -> 1.14 ms against
 * FFMA, docs/results/s10/); on FMA otherwise. potf2_panel is the one-block
 * algorithm of the standalone potf2 kernel (tile_factor.cuh).
 *
 * Why U: the solve C L^{-T} by one block is a chain of 64 dependent
 * columns (~11k cycles for 64 x 64 on the H100), and each step of the
 * factorization waits for one (the tile below the diagonal). Factoring
 * [C; I] instead of C costs the diagonal block a little more and makes each
 * solve a 64 x 64 x 64 product. Measured (lower, ms): double n = 1024
 * 0.366 -> 0.314, 4096 1.56 -> 1.42; single 1024 0.375 -> 0.329. Explicit
 * inverses of the diagonal blocks are also how MAGMA's trsm works; U is
 * formed by the same column solves as the trsm it replaces.
 */
#include "gchol_kernels.h"

#include <stdlib.h>

#include "tile_factor.cuh"

/* The chain block's helper (below) needs thread block clusters: sm_90. */
#if defined(GCHOL_GPU_ARCH) && GCHOL_GPU_ARCH >= 90
#define GCHOL_TILED_HELPER 1
#include <cooperative_groups.h>
#endif

namespace {

using namespace gchol;

constexpr int kTB  = GCHOL_TILED_NB;
constexpr int kLdc = tile_ld(kTB); /* the tile being factored */
/* Operand tiles are copied as they lie in memory: column-major in the view
 * for uplo = L, row-major for uplo = U. kLdo = tile_ld(64) = 68 keeps the
 * DMMA fragment loads free of bank conflicts in both orders (see tile_ld;
 * 72, used before for L, was 2-way conflicted: lower ran 13% behind upper
 * at n = 8192) and rows 16-byte aligned. */
constexpr int kLdo = tile_ld(kTB);
constexpr int kLdp = tile_ld(2 * kTB); /* a diagonal tile's [C; I] panel */
constexpr int kMaxTiles = GCHOL_TILED_MAX_N / kTB;

static_assert(kTB == 64, "the thread mappings below assume 64 x 64 tiles");
static_assert(kThreads == 256, "and 256 threads");

/* Sync words: [0] ticket, [1] abort, [2 + tj * nt + ti] ready flag (nt tile
 * rows, as many tile columns as are factored). */
enum { kTicket = 0, kAbort = 1, kFlags = 2 };

__device__ __forceinline__ int load_acquire(const int *p)
{
    int v;
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void store_release(int *p, int v)
{
    asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* ---- tile copies between global memory (view) and shared memory ---------- */

/* This thread's share of a 64 x 64 tile, in memory order: element u
 * (0..15) is at p[inner + outer*ld] with outer = ob + 4u, from the tile's
 * first stored element. In the view, (r, c) = (inner, outer) for uplo = L
 * and (outer, inner) for uplo = U.
 *
 * Straight: a warp's lanes walk 32 consecutive inner, whole lines in global
 * memory and, when the tile lands as it lies, in shared memory too.
 * Transposed (uplo = U copied to view order, where shared memory is
 * contiguous in outer): lane (i, j) = (lane / 4, lane % 4) takes inner
 * 8w + i and outer 4u + j, so a warp still reads 32-byte sectors whole while
 * its shared accesses, stride 68 apart in inner, hit distinct banks (the
 * straight order gave 4-way conflicts there: d U ran 14% behind d L at
 * n = 4096). */
struct TileShare {
    int inner, ob;
    int64_t off0, step;
    __device__ __forceinline__ TileShare(int64_t ld, bool transposed)
    {
        const int t = threadIdx.x;
        inner = transposed ? 8 * (t >> 5) + ((t & 31) >> 2) : t & 63;
        ob = transposed ? t & 3 : t >> 6;
        off0 = inner + ob * ld;
        step = 4 * ld;
    }
};

/* Where a tile lands in shared memory: in view order, S[r + c*lds] (the tile
 * being factored, the diagonal L), or as it lies in memory, S[inner +
 * outer*lds] (operands of the update; see kLdo). */
enum SmemOrder { kViewOrder, kMemoryOrder };

/* Copies view tile (r0.., c0..) into S: elements with r < rows, c < cols
 * (and r >= c if lower_only), else 0; the diagonal of the padding is 1 when
 * unit_pad, so a ragged diagonal tile factors (and solves with) [L 0; 0 I].
 * Reads bypass L1. */
template <typename T> struct TileRegs {
    T v[16];

    /* The global half of load_tile: this thread's 16 elements, in flight
     * together (two fetches before two puts overlap two tiles' latency). */
    template <SmemOrder kOrder>
    __device__ __forceinline__ void fetch(const T *A, int64_t ld, int upper, int64_t r0,
                                          int64_t c0, int rows, int cols, bool lower_only)
    {
        const TileShare sh(ld, upper && kOrder == kViewOrder);
        const T *p = (upper ? A + c0 + r0 * ld : A + r0 + c0 * ld) + sh.off0;
#pragma unroll
        for (int u = 0; u < 16; ++u) {
            const int outer = sh.ob + 4 * u;
            const int r = upper ? outer : sh.inner, c = upper ? sh.inner : outer;
            const bool in = r < rows && c < cols && (!lower_only || r >= c);
            v[u] = in ? __ldcg(p + u * sh.step) : T(0);
        }
    }
    /* The shared half (ld only fixes the thread's share, as in fetch). */
    template <SmemOrder kOrder, typename D = T> /* D: the shared copy's type (the helper's double P) */
    __device__ __forceinline__ void put(D *S, int lds, int64_t ld, int upper, int rows,
                                        bool unit_pad) const
    {
        const TileShare sh(ld, upper && kOrder == kViewOrder);
#pragma unroll
        for (int u = 0; u < 16; ++u) {
            const int outer = sh.ob + 4 * u;
            const int r = upper ? outer : sh.inner, c = upper ? sh.inner : outer;
            const bool pad1 = unit_pad && r == c && r >= rows;
            const int at = kOrder == kViewOrder ? r + c * lds : sh.inner + outer * lds;
            S[at] = pad1 ? D(1) : D(v[u]);
        }
    }
};

template <SmemOrder kOrder, typename T>
__device__ __forceinline__ void load_tile(T *S, int lds, const T *A, int64_t ld,
                                          int upper, int64_t r0, int64_t c0, int rows, int cols,
                                          bool lower_only, bool unit_pad)
{
    TileRegs<T> t;
    t.template fetch<kOrder>(A, ld, upper, r0, c0, rows, cols, lower_only);
    t.template put<kOrder>(S, lds, ld, upper, rows, unit_pad);
}

/* view(r0 + r, c0 + c) for r < rows, c < cols (r >= c if lower_only) from
 * S holding the tile as it lies in memory, S[inner + outer*lds] ((r, c) =
 * (inner, outer) in lower, (outer, inner) in upper), so a warp's accesses
 * are contiguous on both sides. Each thread moves 16 bytes at a time when
 * the tile allows (whole tile, 16-byte aligned A and ld, inner extent a
 * multiple of the vector): a 64 x 64 tile is then 4 (single) or 8 (double)
 * stores per thread instead of 16. The chain block's stores are on the
 * critical path; H100, tiled kernel, ms, lower: s 1024 / 2048 / 4096
 * 0.185-0.186 / 0.368-0.370 / 0.885-0.886 -> 0.177-0.180 / 0.355 / 0.854-
 * 0.866, d 1024 / 2048 / 4096 (with the copy of L(k, k-1) below) 0.209-
 * 0.211 / 0.415-0.420 / 1.099 -> 0.198 / 0.390-0.397 / 1.071-1.073
 * (docs/results/s25/c8/). The diagonal tiles' lower triangles stay
 * scalar: with vectors as well (the one holding the diagonal element by
 * parts) the kernel ran 5-10% slower at n = 1024-3072
 * (docs/results/s25/c10/). */
template <typename T>
__device__ __forceinline__ void store_tile_mem(T *A, int64_t ld, int upper, int64_t r0,
                                               int64_t c0, const T *S, int lds, int rows,
                                               int cols, bool lower_only)
{
    constexpr int kV = 16 / (int)sizeof(T);
    const int inner_n = upper ? cols : rows, outer_n = upper ? rows : cols;
    T *p = upper ? A + c0 + r0 * ld : A + r0 + c0 * ld;
    if (!lower_only && inner_n % kV == 0 && lds % kV == 0 && ld % kV == 0 &&
        (uintptr_t)A % 16 == 0) {
        for (int i = threadIdx.x * kV; i < kTB * kTB; i += kThreads * kV) {
            const int inner = i % kTB, outer = i / kTB;
            if (inner < inner_n && outer < outer_n)
                *reinterpret_cast<uint4 *>(p + inner + outer * ld) =
                    *reinterpret_cast<const uint4 *>(S + inner + outer * lds);
        }
        return;
    }
    const TileShare sh(ld, false);
    p += sh.off0;
#pragma unroll
    for (int u = 0; u < 16; ++u) {
        const int outer = sh.ob + 4 * u;
        const int r = upper ? outer : sh.inner, c = upper ? sh.inner : outer;
        if (r < rows && c < cols && (!lower_only || r >= c))
            p[u * sh.step] = S[sh.inner + outer * lds];
    }
}

/* The same from S in view order, S[r + c*lds]: in lower that is memory
 * order; upper's stores are transposed (TileShare) and scalar. */
template <typename T>
__device__ __forceinline__ void store_tile(T *A, int64_t ld, int upper, int64_t r0, int64_t c0,
                                           const T *S, int lds, int rows, int cols,
                                           bool lower_only)
{
    if (!upper) {
        store_tile_mem(A, ld, upper, r0, c0, S, lds, rows, cols, lower_only);
        return;
    }
    const TileShare sh(ld, true);
    T *p = A + c0 + r0 * ld + sh.off0;
#pragma unroll
    for (int u = 0; u < 16; ++u) {
        const int r = sh.ob + 4 * u, c = sh.inner;
        if (r < rows && c < cols && (!lower_only || r >= c)) p[u * sh.step] = S[r + c * lds];
    }
}

/* ---- asynchronous operand copies (cp.async, sm_80+) ------------------------- */

/* 16 bytes from global to shared memory without registers; bytes past
 * src_bytes are zero-filled. .cg reads through L2, as every read of another
 * block's tile must. Groups: cp_async_commit / cp_async_wait
 * (tile_common.cuh). */
__device__ __forceinline__ void cp_async16(void *dst_smem, const void *src, int src_bytes)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst_smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(src_bytes)
                 : "memory");
}

/* The operand copy of load_tile<kMemoryOrder> (view rows r0.., columns
 * c0..c0+kTB-1, rows past `rows` zero) as 16-byte cp.async chunks, issued
 * and left in flight. Needs 16-byte aligned columns: A and ld aligned. */
template <typename T>
__device__ __forceinline__ void copy_operand_async(T *S, const T *A, int64_t ld, int upper,
                                                   int64_t r0, int64_t c0, int rows)
{
    constexpr int kVec = 16 / sizeof(T), kChunks = kTB / kVec; /* per stored column */
    const T *p = upper ? A + c0 + r0 * ld : A + r0 + c0 * ld;
    for (int i = threadIdx.x; i < kTB * kChunks; i += kThreads) {
        const int inner = (i % kChunks) * kVec, outer = i / kChunks;
        /* lower: (r, c) = (inner, outer); upper: (outer, inner) */
        const int valid = upper ? (outer < rows ? kVec : 0) : max(0, min(kVec, rows - inner));
        const T *src = p + inner + (int64_t)outer * ld;
        cp_async16(S + inner + outer * kLdo, valid ? src : p, valid * (int)sizeof(T));
    }
}

/* ---- the tile update: acc += SA * SB^T (64 x 64 x 64) --------------------- */

/* FMA form: thread (tx, ty) = (tid % 16, tid / 16) owns a 4 x 4 block of
 * the product; both operands are read as 4-vectors. */
template <typename T> struct TileAccFma {
    T acc[4][4];

    __device__ __forceinline__ void zero() { zero_all(acc); }
    /* Operand X(m, k) is at S[m + k*ld] (column-major) or S[k + m*ld]
     * (row-major), per operand, ld = kLdA or kLdB. A thread reads 4-vectors
     * along the contiguous direction: a column-major operand gives it 4
     * consecutive m (4t..4t+3), a row-major one m = t + 16x, which keeps the
     * lanes of a 4-vector read on distinct banks. Thread (tx, ty) = (tid % 16,
     * tid / 16). */
    template <bool kARow, bool kBRow, int kLdA = kLdo, int kLdB = kLdo, bool kUpperB = false>
    __device__ __forceinline__ void update(const T *SA, const T *SB)
    {
        /* kUpperB: B's zeros are multiplied anyway (every thread has columns
         * in all four blocks) */
        const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
#pragma unroll 2
        for (int k = 0; k < kTB; k += 4) {
            T a[4][4], b[4][4]; /* [m][k] */
            load_operand<kARow, kLdA>(SA, tx, k, a);
            load_operand<kBRow, kLdB>(SB, ty, k, b);
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)
#pragma unroll
                for (int x = 0; x < 4; ++x)
#pragma unroll
                    for (int y = 0; y < 4; ++y) acc[x][y] = fma(a[x][kk], b[y][kk], acc[x][y]);
        }
    }
    /* f(row, col, value) for every accumulator. */
    template <bool kARow, bool kBRow, typename F> __device__ __forceinline__ void for_each(F f) const
    {
        const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
#pragma unroll
        for (int x = 0; x < 4; ++x)
#pragma unroll
            for (int y = 0; y < 4; ++y) f(index<kARow>(tx, x), index<kBRow>(ty, y), acc[x][y]);
    }

  private:
    template <bool kRow> static __device__ __forceinline__ int index(int t, int x)
    {
        return kRow ? t + 16 * x : 4 * t + x;
    }
    /* v[x][kk] = X(index(t, x), k + kk) */
    template <bool kRow, int kLd>
    static __device__ __forceinline__ void load_operand(const T *S, int t, int k, T (&v)[4][4])
    {
        if (kRow) {
#pragma unroll
            for (int x = 0; x < 4; ++x) load_vec(S + k + (t + 16 * x) * kLd, v[x]);
        } else {
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) {
                T w[4];
                load_vec(S + 4 * t + (k + kk) * kLd, w);
#pragma unroll
                for (int x = 0; x < 4; ++x) v[x][kk] = w[x];
            }
        }
    }
};

/* DMMA form (sm_90): warp w owns rows 32 (w % 2) + 0..31 and columns
 * 16 cb(w) + 0..15 as 2 x 2 tiles of m16n8; lane (g, q) = (lane / 4,
 * lane % 4) holds rows g, g + 8 and columns 2q, 2q + 1 of each. cb pairs
 * the column blocks 0 + 3 and 1 + 2 on warps w and w + 4, which share a
 * scheduler, so a B that is upper triangular (kUpperB: B(n, k) = 0 for
 * k > n, only k < 16 (cb + 1) counts) gives every scheduler the same work,
 * 5/8 of the full product. */
struct TileAccDmma {
    double acc[2][2][4];

    static __device__ __forceinline__ int col_block(int warp)
    {
        return warp < 4 ? warp / 2 : 3 - (warp - 4) / 2;
    }
    __device__ __forceinline__ void zero() { zero_all(acc); }
    /* Element (m, k) of an operand is at m*sm + k*sk: column-major
     * (sm, sk) = (1, ld), row-major (ld, 1), chosen per operand, ld = kLdA
     * or kLdB (each 4 mod 16, see tile_ld). */
    template <bool kARow, bool kBRow, int kLdA = kLdo, int kLdB = kLdo, bool kUpperB = false>
    __device__ __forceinline__ void update(const double *SA, const double *SB)
    {
        constexpr int am = kARow ? kLdA : 1, ak = kARow ? 1 : kLdA;
        constexpr int bm = kBRow ? kLdB : 1, bk = kBRow ? 1 : kLdB;
        const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
        const int cb = col_block(warp);
        const double *a = SA + (32 * (warp % 2) + g) * am + q * ak;
        const double *b = SB + (16 * cb + g) * bm + q * bk;
        const int kend = kUpperB ? 16 * (cb + 1) : kTB;
#pragma unroll 4
        for (int kk = 0; kk < kend; kk += 4) {
            double a0[2], a1[2], bv[2];
#pragma unroll
            for (int mt = 0; mt < 2; ++mt) {
                a0[mt] = a[16 * mt * am + kk * ak];
                a1[mt] = a[(16 * mt + 8) * am + kk * ak];
            }
#pragma unroll
            for (int nt = 0; nt < 2; ++nt) bv[nt] = b[8 * nt * bm + kk * bk];
#pragma unroll
            for (int mt = 0; mt < 2; ++mt)
#pragma unroll
                for (int nt = 0; nt < 2; ++nt) dmma_16x8x4(acc[mt][nt], a0[mt], a1[mt], bv[nt]);
        }
    }
    template <bool kARow, bool kBRow, typename F> __device__ __forceinline__ void for_each(F f) const
    {
        const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
#pragma unroll
        for (int mt = 0; mt < 2; ++mt)
#pragma unroll
            for (int nt = 0; nt < 2; ++nt)
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    f(32 * (warp % 2) + 16 * mt + g + 8 * (e / 2),
                      16 * col_block(warp) + 8 * nt + 2 * q + (e % 2), acc[mt][nt][e]);
    }
};

/* 3xTF32 form (single precision, sm_90): the warp layout of TileAccDmma
 * (rows 32 (w % 2) + 0..31, columns 16 cb(w) + 0..15 as 2 x 2 tiles of
 * m16n8), with mma m16n8k8 on the TF32 tensor cores, each product
 * a_lo b_hi + a_hi b_lo + a_hi b_hi (tf32_split). The mma sums of one
 * update (k <= 64) go into FP32 sums by rounded FADDs, since the tensor
 * cores' accumulation truncates.
 * Every operand value is fetched in 8-byte pairs. The mma's k slots q and
 * q + 4 take k = 2q and 2q + 1 (any permutation of k serves, applied to
 * both operands). A row-major operand (X(m, k) at S[k + m*ld]) reads the
 * two as one pair, and lane g takes rows (columns) sig(g) = 0 2 4 6 1 3 5 7
 * of each 8, so that a half-warp's pairs hit all 32 banks (as syrk_diag.cu's
 * WarpTileK). A column-major one (S[m + k*ld]) pairs two m instead: A's
 * slots g and g + 8 of a 16-row tile are its rows 2g and 2g + 1, B's slot g
 * of the two 8-column tiles its columns 2g and 2g + 1 (as the double
 * WarpTile of syrk_diag.cu); with k = 2q the pairs of a half-warp again hit
 * all 32 banks (ld = 4 mod 32 words). row_of / col_of undo the maps. */
struct TileAcc3xTF32 {
    float acc[2][2][4]; /* one update's mma sums */
    float sum[2][2][4]; /* FP32 sums */

    __device__ __forceinline__ static int sig(int g) { return g < 4 ? 2 * g : 2 * (g - 4) + 1; }
    /* Row of A's slot g (h = 0) or g + 8 (h = 1) in 16-row tile mt; column
     * of B's slot j in 8-column tile nt. */
    template <bool kRow>
    __device__ __forceinline__ static int row_of(int mt, int h, int g)
    {
        return kRow ? 16 * mt + 8 * h + sig(g) : 16 * mt + 2 * g + h;
    }
    template <bool kRow> __device__ __forceinline__ static int col_of(int nt, int j)
    {
        return kRow ? 8 * nt + sig(j) : 2 * j + nt;
    }
    /* The pair at p: (k, k + 1) of a row-major operand, (m, m + 1) of a
     * column-major one. */
    __device__ __forceinline__ static float2 pair(const float *p)
    {
        return *reinterpret_cast<const float2 *>(p);
    }

    __device__ __forceinline__ void zero() { zero_all(sum); }
    template <bool kARow, bool kBRow, int kLdA = kLdo, int kLdB = kLdo, bool kUpperB = false>
    __device__ __forceinline__ void update(const float *SA, const float *SB)
    {
        constexpr int am = kARow ? kLdA : 1, ak = kARow ? 1 : kLdA;
        constexpr int bm = kBRow ? kLdB : 1, bk = kBRow ? 1 : kLdB;
        const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
        const int cb = TileAccDmma::col_block(warp);
        /* element (row_of(0, 0, g), 2q) of this warp's rows, (col_of(0, g), 2q) of B */
        const float *a = SA + (32 * (warp % 2) + row_of<kARow>(0, 0, g)) * am + 2 * q * ak;
        const float *b = SB + (16 * cb + col_of<kBRow>(0, g)) * bm + 2 * q * bk;
        const int kend = kUpperB ? 16 * (cb + 1) : kTB;
        zero_all(acc);
#pragma unroll 2
        for (int kk = 0; kk < kend; kk += 8) {
            float av[2][2][2], bv[2][2]; /* A [mt][h][k slot], B [nt][k slot] */
#pragma unroll
            for (int mt = 0; mt < 2; ++mt) {
                const float *p = a + 16 * mt * am + kk * ak;
                if constexpr (kARow) {
#pragma unroll
                    for (int h = 0; h < 2; ++h) {
                        const float2 v = pair(p + 8 * h * am);
                        av[mt][h][0] = v.x;
                        av[mt][h][1] = v.y;
                    }
                } else {
#pragma unroll
                    for (int j = 0; j < 2; ++j) {
                        const float2 v = pair(p + j * ak);
                        av[mt][0][j] = v.x;
                        av[mt][1][j] = v.y;
                    }
                }
            }
            if constexpr (kBRow) {
#pragma unroll
                for (int nt = 0; nt < 2; ++nt) {
                    const float2 v = pair(b + 8 * nt * bm + kk * bk);
                    bv[nt][0] = v.x;
                    bv[nt][1] = v.y;
                }
            } else {
#pragma unroll
                for (int j = 0; j < 2; ++j) {
                    const float2 v = pair(b + (kk + j) * bk);
                    bv[0][j] = v.x;
                    bv[1][j] = v.y;
                }
            }
            unsigned ah[2][4], al[2][4], bh[2][2], bl[2][2];
#pragma unroll
            for (int mt = 0; mt < 2; ++mt) {
                tf32_split(av[mt][0][0], ah[mt][0], al[mt][0]);
                tf32_split(av[mt][1][0], ah[mt][1], al[mt][1]);
                tf32_split(av[mt][0][1], ah[mt][2], al[mt][2]);
                tf32_split(av[mt][1][1], ah[mt][3], al[mt][3]);
            }
#pragma unroll
            for (int nt = 0; nt < 2; ++nt) {
                tf32_split(bv[nt][0], bh[nt][0], bl[nt][0]);
                tf32_split(bv[nt][1], bh[nt][1], bl[nt][1]);
            }
#pragma unroll
            for (int mt = 0; mt < 2; ++mt)
#pragma unroll
                for (int nt = 0; nt < 2; ++nt) {
                    mma_16x8x8_tf32(acc[mt][nt], al[mt], bh[nt][0], bh[nt][1]);
                    mma_16x8x8_tf32(acc[mt][nt], ah[mt], bl[nt][0], bl[nt][1]);
                    mma_16x8x8_tf32(acc[mt][nt], ah[mt], bh[nt][0], bh[nt][1]);
                }
        }
#pragma unroll
        for (int mt = 0; mt < 2; ++mt)
#pragma unroll
            for (int nt = 0; nt < 2; ++nt)
#pragma unroll
                for (int e = 0; e < 4; ++e) sum[mt][nt][e] += acc[mt][nt][e];
    }
    /* f(row, col, value) for every sum: the accumulator holds slots g,
     * g + 8 and columns slots 2q, 2q + 1 of each m16n8 tile. */
    template <bool kARow, bool kBRow, typename F> __device__ __forceinline__ void for_each(F f) const
    {
        const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
#pragma unroll
        for (int mt = 0; mt < 2; ++mt)
#pragma unroll
            for (int nt = 0; nt < 2; ++nt)
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    f(32 * (warp % 2) + row_of<kARow>(mt, e / 2, g),
                      16 * TileAccDmma::col_block(warp) + col_of<kBRow>(nt, 2 * q + e % 2),
                      sum[mt][nt][e]);
    }
};

template <typename T> struct TileAccOf { using type = TileAccFma<T>; };
#if defined(GCHOL_GPU_ARCH) && GCHOL_GPU_ARCH >= 90
template <> struct TileAccOf<double> { using type = TileAccDmma; };
#ifndef GCHOL_TILED_FMA_SINGLE /* (1: FFMA tile products in single, for A/B builds) */
template <> struct TileAccOf<float> { using type = TileAcc3xTF32; };
#endif
#endif

/* ---- the kernel ------------------------------------------------------------ */

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

/* Optional phase timestamps per work item (scratch profiling builds only). */
#ifdef GCHOL_TILED_PROFILE
__device__ unsigned long long g_tiled_prof[GCHOL_TILED_PROFILE][6];
__device__ __forceinline__ void prof(int t, int phase)
{
    if (threadIdx.x == 0 && t < GCHOL_TILED_PROFILE) {
        unsigned long long ns;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
        g_tiled_prof[t][phase] = ns;
    }
}
#else
__device__ __forceinline__ void prof(int, int) {}
#endif

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

/* A tile's ready flag: kPartial once a worker has stored the part of its
 * update that the chain block finishes (see the kernel), kFinal once it
 * holds its factor. */
enum { kPartial = 1, kFinal = 2 };

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
 * the block's stores to land (~1 us), and the last warp has no rows in the
 * first inner block of potf2_panel, so the wait overlaps work. */
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
     * (upper copied them transposed, four 32-byte sectors per warp access,
     * until the twenty-sixth session) */
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
        prof(worker_items(nt) + nt + k, 0);
        __syncthreads(); /* every read of P */
        /* (Double lower stored X straight from the accumulators from the
         * sixth session; with store_tile's 16-byte stores the copy through
         * shared memory is faster: d L 1024 0.209-0.211 -> 0.198 ms.) */
        acc.template for_each<kUpper, true>(
            [&](int r, int c, T v) { SX[kUpper ? c + r * kLdo : r + c * kLdo] = v; });
        __syncthreads();
        prof(worker_items(nt) + nt + k, 1);
        store_tile_mem(A, ld, upper, r0, c0, SX, kLdo, rows, kTB, false);
        prof(worker_items(nt) + nt + k, 2);
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
     * the stores of the step (each wait_ready costs one, ~0.4 us, when the
     * flags are long set).
     * kPrefetch: the barrier before the publish tells the block, which then
     * fetches the next step's P and W into registers while the release
     * store waits for the step's stores to land; without it the fetch took
     * a round trip after that. Tiled kernel alone, ms, lower / upper: d 1024
     * 0.254-0.258 / 0.274-0.277 -> 0.250-0.252 / 0.254-0.257, s 4096
     * 1.063-1.070 / 1.156-1.162 -> 1.030-1.034 / 1.076-1.080
     * (docs/results/s11/c7/). Only at one block per SM: at two, whose 128
     * registers the live tiles overflow, d 6144 took 3.02 -> 3.48 ms. */
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
            prof(worker_items(nt) + k, 0);
            solve_below(k);
            /* panel top -= L(k, k-1) L(k, k-1)^T, its lower triangle only
             * where the tensor-core form exists */
#if defined(GCHOL_GPU_ARCH) && GCHOL_GPU_ARCH >= 90
            lower_product_sub<T, kUpper>(SP, kLdp, SX, kLdo);
#else
            {
                Acc acc;
                acc.zero();
                acc.template update<kUpper, kUpper>(SX, SX);
                acc.template for_each<kUpper, kUpper>([&](int r, int c, T v) {
                    if (r >= c) SP[r + c * kLdp] -= v;
                });
            }
#endif
            prof(worker_items(nt) + nt + k, 3);
            prof(worker_items(nt) + nt + k, 4);
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
        prof(worker_items(nt) + k, 1);
        const int fail = potf2_panel<T, 2 * kTB>(SP, kLdp, below ? 2 * kTB : kTB, kTB, &sh.fail,
                                                 true /* [W; I] */);
        prof(worker_items(nt) + k, 2);
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
        prof(worker_items(nt) + k, 3);
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
 * code (registers and instruction schedule of its own). Measured on the
 * H100, tiled kernel alone, ms, inline -> outlined: double lower n = 4096
 * 1.316 -> 1.278, a 1024-column panel of n = 8192 0.484 -> 0.471; single
 * lower n = 1024 0.300 -> 0.289, 2048 0.600 -> 0.580; double upper within
 * 1%. Single upper, with FFMA tile products, ran slower outlined (1024
 * 0.299 -> 0.309) and stayed inline; with the 3xTF32 products it runs
 * faster outlined (1024 0.291-0.296 -> 0.282-0.287, 4096 1.236-1.249 ->
 * 1.192-1.199, 5120 1.89 -> 1.79; docs/results/s10/c5/). */
template <typename T, bool kUpper, bool kPrefetch>
__device__ __noinline__ void chain_block_outlined(int n, int ntc, T *A, int64_t ld, int64_t col0,
                                                  int64_t *dinfo, int *sync, T *work, T *smem,
                                                  Shared &sh)
{
    chain_block<T, kUpper, kPrefetch>(n, ntc, A, ld, col0, dinfo, sync, work, smem, sh);
}

#ifdef GCHOL_TILED_HELPER
/*
 * The chain block with a helper (sm_90: the two blocks form a thread block
 * cluster and write into each other's shared memory).
 *
 * Why: the chain step did potf2 of [W; I] (~5.7 us in single, n = 1024)
 * and then, on the same critical path, the product L(k+1, k) = P U(k), its
 * stores, and W -= L(k+1, k) L(k+1, k)^T (~4 us more). But U(k) comes out
 * of potf2 eight columns at a time: columns jb .. jb+7 of U are final after
 * potf2's inner block at jb, and column j of P U(k) needs only column j of
 * U (U is upper triangular). So in double the helper block computes the
 * product and the update while potf2 still runs, and only the last
 * columns' share is left when the panel is done. Single takes another form
 * (helper_single, below): U(k) goes after potf2, whole, and the helper runs
 * the chain block's own step, bit for bit.
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
 * Measured on the H100 (tiled kernel alone, ms, helper off -> on): double
 * lower 1024 / 2048 / 3072 0.197-0.200 / 0.398-0.403 / 0.594-0.617 ->
 * 0.189-0.191 / 0.380-0.381 / 0.573-0.574 (docs/results/s27/c8), 4096
 * unchanged (the workers set the pace there), upper within the spread; a
 * chain step of 12.0 -> 11.3 us. What keeps it from more: P arrives from
 * its worker only ~0.5-1 us before potf2 ends (its last term needs L(k,
 * k-1) and L(k+1, k-1), both final only at the end of the step before), and
 * the helper's products take ~3 us of one SM's FP64 tensor pipe after
 * that; sending U costs potf2 ~0.4 us. U sent by the idle warps 4-7 after
 * each inner block slowed potf2 more (s27 c9, src/idle_warps_c9.patch).
 * Single lower 1024 / 2048 / 3072 0.175-0.182 / 0.347-0.355 / 0.517-0.524
 * -> 0.167-0.168 / 0.320-0.323 / 0.485-0.499, upper 1024 / 2048
 * 0.182-0.184 / 0.361-0.363 -> 0.165-0.171 / 0.318-0.320 (s28 c1), a chain
 * step of 10.6 -> 9.8 us; the factor is the same bit for bit (s28 c1-c2,
 * bitcmp.cu).
 */
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

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}
/* The address of the same shared variable in block `rank` of the cluster. */
__device__ __forceinline__ unsigned peer_addr(const void *p, unsigned rank)
{
    unsigned r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(smem_addr(p)), "r"(rank));
    return r;
}
__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
/* this phase completes once `bytes` more have arrived (and this arrival) */
__device__ __forceinline__ void mbar_expect(unsigned long long *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ bool mbar_test(unsigned long long *bar, unsigned parity)
{
    unsigned ok;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(ok) : "r"(smem_addr(bar)), "r"(parity) : "memory");
    return ok != 0;
}
__device__ __forceinline__ void mbar_wait(unsigned long long *bar, unsigned parity)
{
    unsigned ok;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(ok) : "r"(smem_addr(bar)), "r"(parity) : "memory");
    } while (!ok);
}
/* st.async: a store into another block's shared memory whose bytes count
 * on a barrier there; no fence, the thread does not wait */
__device__ __forceinline__ void st_async16(unsigned peer, const double (&v)[2], unsigned peer_bar)
{
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f64 [%0], {%1, %2}, [%3];"
                 ::"r"(peer), "d"(v[0]), "d"(v[1]), "r"(peer_bar) : "memory");
}
__device__ __forceinline__ void st_async16(unsigned peer, const float (&v)[4], unsigned peer_bar)
{
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.f32 [%0], {%1, %2, %3, %4}, [%5];"
                 ::"r"(peer), "f"(v[0]), "f"(v[1]), "f"(v[2]), "f"(v[3]), "r"(peer_bar) : "memory");
}
/* one element (double, float or a 32-bit word) */
template <typename V> __device__ __forceinline__ void st_async(unsigned peer, V v, unsigned peer_bar)
{
    if constexpr (std::is_same<V, double>::value)
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.f64 [%0], %1, [%2];"
                     ::"r"(peer), "d"(v), "r"(peer_bar) : "memory");
    else if constexpr (std::is_same<V, float>::value)
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.f32 [%0], %1, [%2];"
                     ::"r"(peer), "f"(v), "r"(peer_bar) : "memory");
    else
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];"
                     ::"r"(peer), "r"(v), "r"(peer_bar) : "memory");
}
/* eight consecutive doubles (16-byte aligned) into another block's shared memory */
__device__ __forceinline__ void send_row8(unsigned peer, const double (&x)[kIB], unsigned peer_bar)
{
#pragma unroll
    for (int v = 0; v < kIB; v += 2) {
        const double part[2] = { x[v], x[v + 1] };
        st_async16(peer + (unsigned)(v * sizeof(double)), part, peer_bar);
    }
}

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
constexpr size_t helper_smem_bytes(size_t elem) { return 4 * elem * kTB * kLdo; }

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
        prof(worker_items(nt) + k, 0);
        int fail;
        if constexpr (kWholeU<T>) {
            fail = potf2_panel<T, 2 * kTB>(SP, kLdp, below ? 2 * kTB : kTB, kTB, &fail_sh,
                                           true /* [W; I] */);
            if (below) {
                /* U(k) as the panel holds it (after a failure too: the
                 * helper forms L(k+1, k) from it as the chain block would),
                 * 16 bytes per store, then the failure word. (Only the rows
                 * that the product reads, 10 of 16 KB: no faster, s28 c6.) */
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
        prof(worker_items(nt) + k, 1);
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
        prof(worker_items(nt) + k, 2);
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
 * inside potf2 slowed it by 0.5-0.8 us: s27 c5-c9, c13.) */
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
        prof(worker_items(nt) + nt + k, 0);
        mbar_wait(&hw.cols_bar[0], k & 1);
        __syncthreads(); /* also: the puts of P and W */
        prof(worker_items(nt) + nt + k, 4);
        const bool failed = *(volatile int *)&hw.fail != 0;
        typename TileAccOf<float>::type acc; /* the chain block's (TileAcc3xTF32 by default) */
        acc.zero();
        acc.template update<kUpper, true, kLdo, kLdo, true>(hs.P, hs.U);
        acc.template for_each<kUpper, true>(
            [&](int r, int c, float v) { hs.X[kUpper ? c + r * kLdo : r + c * kLdo] = v; });
        __syncthreads();
        prof(worker_items(nt) + nt + k, 5);
        if (need_w && !failed) {
            const unsigned panel = h.chain_smem + (unsigned)((k1 & 1) * kTB * kLdp * sizeof(float));
            /* the chain block's update, each element sent as it comes out
             * of the accumulators (c2: W -= X X^T here first, then sent by
             * columns 16 bytes per store, was no faster: step 9.75 -> 9.90 us) */
            lower_product_each<float, kUpper>(hs.X, kLdo, [&](int r, int c, float v) {
                st_async(panel + (unsigned)((r + c * kLdp) * sizeof(float)), hs.W[r + c * kLdo] - v,
                         h.chain_w_bar);
            });
        }
        prof(worker_items(nt) + nt + k, 1);
        store_tile_mem(A, ld, upper, r1, c0, hs.X, kLdo, rows1, kTB, false);
        prof(worker_items(nt) + nt + k, 2);
        __syncthreads(); /* every store of X */
        if (threadIdx.x == kPublisher) store_release(h.flag(k1, k), kFinal);
        prof(worker_items(nt) + nt + k, 3);
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
            prof(worker_items(nt) + nt + k, 0);
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
                if (done == 0) prof(worker_items(nt) + nt + k, 4);
                below_columns<kUpper>(hs.X, hs.P, hs.U, done, avail);
                __syncthreads();
                /* X's new columns to memory now: only the publish waits */
                const int w = avail - done;
                for (int e = threadIdx.x; e < kTB * w; e += kThreads) {
                    const int r = upper ? e / w : e % kTB, c = done + (upper ? e % w : e / kTB);
                    if (r < rows1) out[upper ? c + r * ld : r + c * ld] = hs.X[upper ? c + r * kLdo : r + c * kLdo];
                }
                if (need_w) wacc.add(hs.X, done, avail);
                if (done == 0) prof(worker_items(nt) + nt + k, 5);
                done = avail;
            }
            prof(worker_items(nt) + nt + k, 1);
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
            prof(worker_items(nt) + nt + k, 2);
            __syncthreads(); /* every store of X */
            if (threadIdx.x == kPublisher) store_release(h.flag(k1, k), kFinal);
            prof(worker_items(nt) + nt + k, 3);
            if (failed) return;
        }
    }
}
#endif

/* One instantiation per triangle (each carries one update path) and per
 * blocks-per-SM target. Two blocks per SM cap registers at 128: the double
 * kernel then spills a little in potf2_panel, which lengthens the critical
 * path; one block per SM does not spill but halves the blocks that overlap
 * waiting with work. Measured on the H100 (double, lower): n = 4096 took
 * 1.84 ms with one block per SM against 2.36 with two; n = 6144 4.41 ms with
 * two against 5.01. Block 0 is the chain block, the others take worker items
 * from the ticket. */
template <typename T, bool kUpper, int kMinBlocks>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
potrf_tiled_kernel(int n, int ntc, T *__restrict__ A, int64_t ld, int64_t col0,
                   int64_t *__restrict__ dinfo, int *__restrict__ sync, T *__restrict__ work,
                   int double_buffer, int helped)
{
    constexpr int upper = kUpper;
    /* the workers' update and their product by U(tj). (Single upper up to
     * n = 3072 used FFMA for the update from the tenth session, where
     * 3xTF32 measured slower; with the twelfth session's shorter chain step
     * 3xTF32 is faster there too: n = 1024 / 2048 / 3072 upper 0.226-0.229
     * / 0.445-0.451 / 0.682-0.692 -> 0.220-0.224 / 0.424-0.434 /
     * 0.632-0.637 ms, docs/results/s12/c8/.) */
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

#ifdef GCHOL_TILED_HELPER
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
        prof(t, 0);

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
        prof(t, 1);
        acc.template for_each<kUpper, kUpper>([&](int r, int c, T v) {
            if (!diag || r >= c) SC[c_at(r, c)] -= v;
        });

        if (kind == kSolveItem) {
            __syncthreads();
            if (!wait_ready(flag(tj, tj), kFinal, abort_word, col)) return;
            prof(t, 2);
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
        prof(t, 3);
        store_tile_mem(A, ld, upper, r0, c0, SC, kLdc, rows, cols, diag);

        /* publish: the barrier orders every thread's stores before thread 0's
         * release store (cumulative at GPU scope), the pattern of CUTLASS's
         * semaphore; a fence in every thread cost ~1 us per tile here. */
        __syncthreads();
        if (threadIdx.x == 0) store_release(flag(ti, tj), kind == kSolveItem ? kFinal : kPartial);
        prof(t, 4);
    }
}

/* Up to this n one block per SM (see the kernel's comment), per precision.
 * Measured on the H100 with the chain block and, at one block per SM, the
 * double-buffered operand copies (ms, one / two blocks per SM, lower, upper):
 * double 4096: 1.31, 1.32 / 1.58, 1.65; 5120: 2.32, 2.31 / 2.22, 2.21;
 * single 4096: 1.39, 1.39 / 1.45, 1.50; 5120: 2.38, 2.39 / 2.15, 2.33.
 * Both switched between their two measured points (4608). Since the
 * eleventh session's shorter waits (docs/results/s11/c11/, two runs):
 * double 5120 1.97-1.98, 2.03-2.04 / 2.22, 2.22-2.23; 6144 3.19-3.20,
 * 3.29-3.30 / 3.00, 3.15; single 5120 1.58, 1.63 / 1.62-1.64, 1.69; 6144
 * 2.46-2.49, 2.55-2.56 / 2.45, 2.46-2.47: the switch moves to 5376. */
#ifndef GCHOL_TILED_ONE_BLOCK_UP_TO /* (overridable: sanitizer runs of the two-block kernel at small n) */
#define GCHOL_TILED_ONE_BLOCK_UP_TO 5376
#endif
template <typename T> constexpr int64_t one_block_per_sm_up_to()
{
    return GCHOL_TILED_ONE_BLOCK_UP_TO;
}

template <typename T> constexpr size_t tiled_smem_bytes(bool double_buffer)
{
    return (size_t)((double_buffer ? 4 : 2) * kTB * kLdo + kTB * kLdc) * sizeof(T);
}

template <typename T>
int potrf_tiled_launch(int64_t n, int64_t ncols, T *dA, int64_t ldda, int upper, int64_t col0,
                       int64_t *dinfo, int *dsync, T *dwork, cudaStream_t stream)
{
    if (n <= 0 || ncols <= 0) return cudaSuccess;
    if (ncols > n || ncols > GCHOL_TILED_MAX_N || (ncols < n && ncols % kTB != 0) ||
        n > INT32_MAX - kTB || (uintptr_t)dwork % 16 != 0)
        return cudaErrorInvalidValue;
    const int nt = (int)((n + kTB - 1) / kTB), ntc = (int)((ncols + kTB - 1) / kTB);
    if ((int64_t)nt * ntc > (int64_t)kMaxTiles * kMaxTiles) return cudaErrorInvalidValue;
    const int total = worker_items(nt, ntc);
    /* the ticket, the abort word and the flags of the tiles used */
    cudaError_t e = cudaMemsetAsync(dsync, 0, (size_t)(kFlags + nt * ntc) * sizeof(int), stream);
    if (e != cudaSuccess) return e;
    static bool opted_in[2][2][2][64]; /* [double_buffer][upper][two]: one per kernel */
    /* The device's attributes and each kernel's occupancy, once per device
     * (a benign race at worst repeats the queries): the queries took host
     * time on every call, while the GPU waited for the launch. */
    static int optin_of[64], sms_of[64], per_sm_of[2][2][2][64];
    /* A panel runs beside the main stream's gemm, on the SMs it leaves
     * free: one block per SM with double-buffered copies measured 0-5%
     * faster there than two (left-looking, nb = 512, n = 8192-32768). */
    const int two = ncols == n && n > one_block_per_sm_up_to<T>() ? 1 : 0;
    auto kernel = upper ? (two ? potrf_tiled_kernel<T, true, 2> : potrf_tiled_kernel<T, true, 1>)
                        : (two ? potrf_tiled_kernel<T, false, 2> : potrf_tiled_kernel<T, false, 1>);
    int dev = 0, sms = 0, per_sm = 0, optin = 0;
    if ((e = cudaGetDevice(&dev)) != cudaSuccess) return e;
    const bool cached = dev < 64 && sms_of[dev] > 0;
    if (cached) {
        optin = optin_of[dev];
        sms = sms_of[dev];
    } else {
        if ((e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) !=
            cudaSuccess)
            return e;
        if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess)
            return e;
        if (dev < 64) {
            optin_of[dev] = optin;
            sms_of[dev] = sms;
        }
    }
    /* one block per SM takes a second pair of operand buffers where the
     * shared memory allows (the H100's 227 KB do) */
    const int double_buffer = !two && (size_t)optin >= tiled_smem_bytes<T>(true);
    const size_t smem = tiled_smem_bytes<T>(double_buffer);
    if ((e = opt_in_shared(kernel, smem, opted_in[double_buffer][upper ? 1 : 0][two])) != cudaSuccess)
        return e;
    int *per_sm_cached = dev < 64 ? &per_sm_of[double_buffer][upper ? 1 : 0][two][dev] : nullptr;
    if (per_sm_cached && *per_sm_cached > 0) {
        per_sm = *per_sm_cached;
    } else {
        if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, smem)) !=
            cudaSuccess)
            return e;
        if (per_sm_cached) *per_sm_cached = per_sm;
    }
#ifdef GCHOL_TILED_HELPER
    /* The chain block with its helper, as clusters of two blocks (one block
     * per SM, room for the chain block's two panels). GCHOL_TILED_HELPER=0
     * in the environment turns it off (A/B measurements). */
    static int helper_env = -1;
    if (helper_env < 0) {
        const char *v = getenv("GCHOL_TILED_HELPER");
        helper_env = v && v[0] == '0' ? 0 : 1;
    }
    static_assert(2 * kTB * kLdp <= 4 * kTB * kLdo + kTB * kLdc, "two panels fit");
    if (helper_env && !two && double_buffer && nt >= 2 &&
        (size_t)optin >= helper_smem_bytes(sizeof(T))) {
        cudaLaunchConfig_t cfg = {};
        /* the helper's buffers (four tiles) */
        const size_t smem_helped = smem > helper_smem_bytes(sizeof(T)) ? smem : helper_smem_bytes(sizeof(T));
        static bool opted_in_helped[2][64];
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
        static int clusters_of[2][64]; /* [upper][dev] */
        int clusters = dev < 64 ? clusters_of[upper ? 1 : 0][dev] : 0;
        if (clusters <= 0) {
            cfg.gridDim = dim3(2 * sms);
            if ((e = cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg)) != cudaSuccess)
                return e;
            if (dev < 64) clusters_of[upper ? 1 : 0][dev] = clusters;
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
#endif
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
    (void)kt; /* NULL: the built-in defaults */
    return potrf_tiled_launch<double>(n, ncols, dA, ldda, upper, col0, dinfo, dsync, dwork, stream);
}

extern "C" int gchol_spotrf_tiled_launch(int64_t n, int64_t ncols, float *dA, int64_t ldda,
                                         int upper, int64_t col0, int64_t *dinfo, int *dsync,
                                         float *dwork, const gchol_kernel_tune_t *kt,
                                         cudaStream_t stream)
{
    (void)kt; /* NULL: the built-in defaults */
    return potrf_tiled_launch<float>(n, ncols, dA, ldda, upper, col0, dinfo, dsync, dwork, stream);
}
