/*
 * potrf_tiled_ops.cuh -- tile shapes and tile copies of the single-kernel
 * tiled Cholesky (potrf_tiled.cu): loads of view tiles into shared memory
 * through registers or cp.async, stores back, and the release / acquire
 * accesses that publish tiles between blocks.
 *
 * Part of potrf_tiled.cu's translation unit (its anonymous namespace);
 * include it from there only.
 */
#ifndef GCHOL_POTRF_TILED_OPS_CUH
#define GCHOL_POTRF_TILED_OPS_CUH

#include "gchol_kernels.h"
#include "tile_factor.cuh"

namespace {

using namespace gchol;

constexpr int kTB  = GCHOL_TILED_NB;
constexpr int kLdc = tile_ld(kTB); /* the tile being factored */
/* Operand tiles are copied as they lie in memory: column-major in the view
 * for uplo = L, row-major for uplo = U. kLdo = tile_ld(64) keeps the DMMA
 * fragment loads free of bank conflicts in both orders (see tile_ld) and
 * rows 16-byte aligned; a stride of 72 was 2-way conflicted. */
constexpr int kLdo = tile_ld(kTB);
constexpr int kLdp = tile_ld(2 * kTB); /* a diagonal tile's [C; I] panel */
constexpr int kMaxTiles = GCHOL_TILED_MAX_N / kTB;

static_assert(kTB == 64, "the thread mappings below assume 64 x 64 tiles");
static_assert(kThreads == 256, "and 256 threads");

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
 * straight order is 4-way conflicted there). */
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
 * stores per thread instead of 16, which shortens the chain block's
 * critical path by about 4%. The diagonal tiles' lower triangles stay
 * scalar: vector stores of them by parts were slower. */
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

} // namespace

#endif
