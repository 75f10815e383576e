/*
 * syrk_diag.cu -- C := alpha * A * D^2 * A^T + beta * C on a triangular grid.
 *
 * A is m x n (column-major, lda), D = diag(d). Only the 128 x 128 tiles of
 * the lower triangle of C are launched: block t of the grid is tile (ti, tj),
 * ti >= tj, with t = ti(ti+1)/2 + tj. The tiles of the other triangle get no
 * thread block at all.
 *
 * Each tile is a GEMM over the long dimension n in chunks of BK columns,
 * scaled by D on the way through shared memory, so that no scaled copy of A
 * exists.
 * - Double precision multiplies on the FP64 tensor cores (mma m16n8k4,
 *   DMMA). Stages arrive by cp.async, three deep; the copies of stage kt+2
 *   and the scaling of stage kt+1 are issued in parts between the k-steps
 *   of stage kt's DMMAs, so the tensor pipe never waits on them.
 * - Single precision multiplies on the TF32 tensor cores as 3xTF32 (each
 *   operand split into a TF32 head and its remainder, three products), with
 *   the mma sums added into FP32 sums after every stage: FP32 accuracy, on
 *   the same pipeline.
 *
 * The result goes through an output map: full storage (either triangle) or
 * LAPACK's RFP (four variants), so one kernel serves syrk_diag and sfrk_diag.
 * When the triangle has too few tiles to fill the GPU (m small, n long), the
 * n dimension is split: each split writes its partial tile to a workspace and
 * a second kernel sums the splits in a fixed order (deterministic) and
 * applies alpha, beta and the map.
 */
#include "gchol_kernels.h"
#include "rfp_index.h"
#include "tile_common.cuh"

#include <cmath>
#include <type_traits>

namespace gchol {
namespace {

constexpr int kBM      = 128;      /* tile order                              */
constexpr int kLDS     = kBM + 4;  /* shared row pitch: conflict-free DMMA
                                      fragment reads, 16-byte float4 rows     */
constexpr int kThr     = 256;      /* 8 warps as 2 (rows) x 4 (cols), 64 x 32 */

/* Per precision: columns of A per pipeline stage and the stage's size in
 * shared memory (see mainloop). Wider stages spread each stage's fixed costs
 * -- the barrier, the first fragment loads -- over more multiplies: double
 * 32 columns, single 64 (A/B on the H100, docs/results/s8/: single 3xTF32
 * with 32 columns was 3-5% slower). Three stages take 199 KiB of shared
 * memory: sm_90 has 227 KiB per block, sm_80 164 KiB (there: half). */
#ifndef GCHOL_GPU_ARCH
#define GCHOL_GPU_ARCH 90
#endif
constexpr int kStageScale = GCHOL_GPU_ARCH >= 90 ? 1 : 2;
template <typename T> struct Cfg {
    static constexpr int BK    = (sizeof(T) == 8 ? 32 : 64) / kStageScale;
    static constexpr int Stage = 2 * BK * kLDS + BK;
};

/*
 * Tile (ti, tj), ti >= tj, of block t in an L2-friendly order: the tile rows
 * are taken in bands of kBand, and each band column by column, so the blocks
 * that run at the same time share few panels of A (about kBand row panels
 * and wave/kBand column panels, instead of one column panel per block).
 */
constexpr int kBand = 8;

__device__ __forceinline__ void banded_tile_of(int64_t t, int64_t nt, int64_t &ti, int64_t &tj)
{
    /* band b covers rows [b*G, b*G + g), g = min(G, nt - b*G); it holds
     * g*b*G rectangle tiles (tj < b*G) and g(g+1)/2 triangle tiles */
    const int64_t G = kBand;
    int64_t b = 0, start = 0;
    for (;;) {
        const int64_t g = min(G, nt - b * G);
        const int64_t count = g * b * G + g * (g + 1) / 2;
        if (t < start + count) break;
        start += count;
        ++b;
    }
    const int64_t g = min(G, nt - b * G), r0 = b * G;
    int64_t u = t - start;
    if (u < g * r0) { /* rectangle, column by column */
        tj = u / g;
        ti = r0 + u % g;
        return;
    }
    u -= g * r0; /* triangle, column c holds rows c..g-1 */
    int64_t c = 0;
    while (u >= g - c) { u -= g - c; ++c; }
    tj = r0 + c;
    ti = r0 + c + u;
}

/*
 * Tile (ti, tj) of block t when only the first ntc < nt tile columns are
 * wanted (a trapezoid: potrf's block-column update). Row by row: row ti
 * holds min(ti + 1, ntc) tiles, so the blocks that run at the same time
 * share a few row panels of A and all ntc column panels.
 */
__device__ __forceinline__ void trapezoid_tile_of(int64_t t, int64_t ntc, int64_t &ti, int64_t &tj)
{
    const int64_t tri = ntc * (ntc + 1) / 2;
    if (t >= tri) {
        ti = ntc + (t - tri) / ntc;
        tj = (t - tri) % ntc;
        return;
    }
    ti = 0;
    while ((ti + 1) * (ti + 2) / 2 <= t) ++ti;
    tj = t - ti * (ti + 1) / 2;
}

__device__ __forceinline__ void tile_of(int64_t t, int64_t nt, int64_t ntc, int64_t &ti, int64_t &tj)
{
    if (ntc < nt) trapezoid_tile_of(t, ntc, ti, tj);
    else banded_tile_of(t, nt, ti, tj);
}

/* Where symmetric element (i, j), i >= j, of C is stored. */
struct OutMap {
    int     rfp;        /* 0: full storage, 1: RFP                           */
    int     upper;      /* the triangle of C that is stored                  */
    int     transposed; /* RFP transr = 'T'                                  */
    int64_t ld;         /* full storage: ldc                                 */
    int64_t n;          /* order of C                                        */
};

__device__ __forceinline__ int64_t out_offset(const OutMap &map, int64_t i, int64_t j)
{
    if (map.rfp) return gchol_rfp_offset(map.transposed, map.upper, map.n, i, j);
    return map.upper ? j + i * map.ld : i + j * map.ld;
}

/* ---- the per-warp 64 x 32 product ------------------------------------------ */

template <typename T> struct WarpTile;

/*
 * f(row, col, value) for every value of a warp's 4 x 4 mma tiles (m16n8
 * accumulator layout: lane (g, t4) holds rows g, g+8 and columns 2 t4,
 * 2 t4 + 1 of each), in tile coordinates, where lane g's i-th row (slot g of
 * tile i/2 for even i, slot g+8 for odd) is row_of(g, i) and column slot j
 * of tile nt is col_of(j, nt): each fragment map says where its slots sit.
 */
template <typename T, typename RowOf, typename ColOf, typename F>
__device__ __forceinline__ void for_each_fragment(const T (&v)[4][4][4], int wm, int wn, RowOf row_of,
                                                  ColOf col_of, F f)
{
    const int lane = threadIdx.x % 32, g = lane / 4, t4 = lane % 4;
#pragma unroll
    for (int mt = 0; mt < 4; ++mt)
#pragma unroll
        for (int nt = 0; nt < 4; ++nt)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                f(wm * 64 + row_of(g, 2 * mt + e / 2), wn * 32 + col_of(2 * t4 + e % 2, nt), v[mt][nt][e]);
}

/* FP64 tensor cores: 4 x 4 mma m16n8k4 tiles. The DMMA's rows and columns
 * are a permutation of the tile's (see load_frags), chosen so that the
 * stages keep A's rows in their natural order. */
template <> struct WarpTile<double> {
    static constexpr int kK = 4; /* k per multiply step */
    double acc[4][4][4];

    __device__ __forceinline__ void zero() { zero_all(acc); }

    /* Fragments of k-step kk at k = kk + t4. Thread (g, t4) supplies the
     * DMMA's rows g and g+8 of a 16-row tile, and column g of two 8-column
     * tiles; any assignment of tile rows to those slots gives a correct
     * product as long as for_each undoes it. Rows 2g and 2g+1 take them:
     * each pair is then one 16-byte load straight into the aligned registers
     * the DMMA reads, and the stages hold A's rows in natural order, which
     * lets the copies move 16 bytes each. */
    __device__ __forceinline__ static void load_frags(double2 (&af)[4], double2 (&bf)[2],
                                                      const double *As, const double *Bs, int kk,
                                                      int wm, int wn)
    {
        const int lane = threadIdx.x % 32, g = lane / 4, t4 = lane % 4;
        const double *a = As + (kk + t4) * kLDS + wm * 64 + 2 * g;
        const double *b = Bs + (kk + t4) * kLDS + wn * 32 + 2 * g;
#pragma unroll
        for (int mt = 0; mt < 4; ++mt) af[mt] = *reinterpret_cast<const double2 *>(a + mt * 16);
#pragma unroll
        for (int np = 0; np < 2; ++np) bf[np] = *reinterpret_cast<const double2 *>(b + np * 16);
    }

    /* The fragments of the next k-step load while this one multiplies: with
     * two warps per scheduler, shared-memory latency is otherwise exposed.
     * hook(step) runs after each k-step's DMMAs are issued: the main loop
     * puts the next stages' copies and scaling there, so that their integer
     * and memory instructions issue while the tensor pipe is busy. */
    template <bool kOne = false, typename Hook> /* (kOne: single precision's) */
    __device__ __forceinline__ void mma(const double *As, const double *Bs, int wm, int wn, Hook &&hook)
    {
        double2 af[2][4], bf[2][2];
        load_frags(af[0], bf[0], As, Bs, 0, wm, wn);
#pragma unroll
        for (int step = 0; step < Cfg<double>::BK / 4; ++step) {
            const int cur = step % 2;
            if (step + 1 < Cfg<double>::BK / 4) load_frags(af[cur ^ 1], bf[cur ^ 1], As, Bs, 4 * (step + 1), wm, wn);
#pragma unroll
            for (int mt = 0; mt < 4; ++mt)
#pragma unroll
                for (int nt = 0; nt < 4; ++nt) {
                    const double b = nt % 2 ? bf[cur][nt / 2].y : bf[cur][nt / 2].x;
                    dmma_16x8x4(acc[mt][nt], af[cur][mt].x, af[cur][mt].y, b);
                }
            hook(step);
        }
    }

    /* f(row, col, value) for every accumulator, in tile coordinates: lane
     * g's rows 16 (i/2) + 2g + i%2, column slot j of tile nt at
     * 16 (nt/2) + 2j + nt%2 (see load_frags). */
    template <typename F>
    __device__ __forceinline__ void for_each(int wm, int wn, F f) const
    {
        for_each_fragment(
            acc, wm, wn, [](int g, int i) { return 16 * (i / 2) + 2 * g + i % 2; },
            [](int j, int nt) { return 16 * (nt / 2) + 2 * j + nt % 2; }, f);
    }
};

/*
 * Single precision on the TF32 tensor cores, 3xTF32, to FP32 accuracy:
 * each operand x is split into x_hi = x rounded to TF32 (11 significant
 * bits) and x_lo = x - x_hi (exact), and a*b is formed as
 * a_lo*b_hi + a_hi*b_lo + a_hi*b_hi. The mma reads x_lo's leading 11 bits,
 * so x_hi + x_lo carries x to within 2^-21 |x|, and the dropped a_lo*b_lo is
 * below 2^-22 |a b|. 4 x 4 mma m16n8k8 tiles per warp, like the double path.
 *
 * The split is two integer operations and one FADD: rounding with the
 * cvt.rna.tf32 instruction instead left the kernel 20% slower (measured,
 * docs/results/s8/). An infinite x gives x_lo = NaN: entries of C that see an
 * infinite entry of A (or of A times d^2) come out NaN, not +-Inf.
 *
 * The tensor cores' FP32 accumulation truncates; summed over all of n in
 * one accumulator, that bias grew linearly with n (4096 x 65536: error ratio
 * 38, above the test's 30). So the mma accumulates one stage (BK columns)
 * and is then added to an FP32 sum by rounded FADDs: error ratios 0.05-0.26,
 * below the FFMA kernel's 0.2-1.4 at the same sizes.
 *
 * Lane (g, t4) supplies k = t4 and t4 + 4 of every fragment, and the rows
 * (columns) of four 16-row (8-column) tiles from two row quads of the stage,
 * quad(g) and quad(g) + 8 (one quad for B): one 16-byte shared load per quad
 * and k. quad() pairs lanes 2h and 2h+1 on quads h and h + 4, which makes
 * each load phase of 8 lanes hit all 32 banks (the stage pitch is 4 mod 32
 * words). for_each undoes the permutation.
 */
template <> struct WarpTile<float> {
    static constexpr int kK = 8;
    float acc[4][4][4]; /* the mma's, one stage at a time */
    float sum[4][4][4]; /* FP32 sums of the stages */

    __device__ __forceinline__ void zero() { zero_all(acc); zero_all(sum); }

    __device__ __forceinline__ static int quad(int g) { return (g & 1) * 4 + (g >> 1); }

    /* hook(step) runs after each k-step's mmas (see WarpTile<double>::mma). */
    template <bool kOne = false, typename Hook>
    __device__ __forceinline__ void mma(const float *As, const float *Bs, int wm, int wn, Hook &&hook)
    {
        const int lane = threadIdx.x % 32, g = lane / 4, t4 = lane % 4, q = quad(g);
        const float *ap = As + t4 * kLDS + wm * 64 + 4 * q;
        const float *bp = Bs + t4 * kLDS + wn * 32 + 4 * q;
#pragma unroll
        for (int step = 0; step < Cfg<float>::BK / kK; ++step) {
            const int kk = step * kK * kLDS;
            /* a[h][j]: k = t4 + 4h, rows 32 j + 4q .. + 3; b[h]: k = t4 + 4h */
            float4 a[2][2], b[2];
#pragma unroll
            for (int h = 0; h < 2; ++h) {
#pragma unroll
                for (int j = 0; j < 2; ++j)
                    a[h][j] = *reinterpret_cast<const float4 *>(ap + kk + 4 * h * kLDS + 32 * j);
                b[h] = *reinterpret_cast<const float4 *>(bp + kk + 4 * h * kLDS);
            }
            unsigned bh[2][4], bl[2][4];
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                tf32_split(b[h].x, bh[h][0], bl[h][0]);
                tf32_split(b[h].y, bh[h][1], bl[h][1]);
                tf32_split(b[h].z, bh[h][2], bl[h][2]);
                tf32_split(b[h].w, bh[h][3], bl[h][3]);
            }
#pragma unroll
            for (int mt = 0; mt < 4; ++mt) {
                /* tile mt: rows R[2mt] (slot g) and R[2mt+1] (slot g+8) */
                const float4 &a0 = a[0][mt / 2], &a1 = a[1][mt / 2];
                unsigned ah[4], al[4];
                tf32_split(mt % 2 ? a0.z : a0.x, ah[0], al[0]);
                tf32_split(mt % 2 ? a0.w : a0.y, ah[1], al[1]);
                tf32_split(mt % 2 ? a1.z : a1.x, ah[2], al[2]);
                tf32_split(mt % 2 ? a1.w : a1.y, ah[3], al[3]);
#pragma unroll
                for (int nt = 0; nt < 4; ++nt) mma3<kOne>(mt, nt, ah, al, bh[0][nt], bh[1][nt], bl[0][nt], bl[1][nt]);
            }
            hook(step);
        }
        flush();
    }

    /* The stage's mma sums into the FP32 sums (rounded FADDs). */
    __device__ __forceinline__ void flush()
    {
#pragma unroll
        for (int mt = 0; mt < 4; ++mt)
#pragma unroll
            for (int nt = 0; nt < 4; ++nt)
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    sum[mt][nt][e] += acc[mt][nt][e];
                    acc[mt][nt][e] = 0.f;
                }
    }

    /* The three products of one (mt, nt) tile; kOne: only a_hi * b_hi, one
     * TF32 product (inputs rounded to 11 significant bits: for factors that
     * are refined afterwards, gchol_dsposv_expert_gpu). */
    template <bool kOne = false>
    __device__ __forceinline__ void mma3(int mt, int nt, const unsigned (&ah)[4], const unsigned (&al)[4],
                                         unsigned bh0, unsigned bh1, unsigned bl0, unsigned bl1)
    {
        if constexpr (!kOne) {
            mma_16x8x8_tf32(acc[mt][nt], al, bh0, bh1);
            mma_16x8x8_tf32(acc[mt][nt], ah, bl0, bl1);
        }
        mma_16x8x8_tf32(acc[mt][nt], ah, bh0, bh1);
    }

    /* Lane g's rows R[i] = 32 (i/4) + 4 quad(g) + i%4; column slot j of
     * tile nt is column 4 quad(j) + nt. */
    template <typename F>
    __device__ __forceinline__ void for_each(int wm, int wn, F f) const
    {
        for_each_fragment(
            sum, wm, wn, [](int g, int i) { return 32 * (i / 4) + 4 * quad(g) + i % 4; },
            [](int j, int nt) { return 4 * quad(j) + nt; }, f);
    }
};

/*
 * The same 3xTF32 product for K-major stages (potrf's upper update: A's
 * element (i, k) at A[i*lda + k]): the stage holds rows of kLDK floats,
 * [row][k], filled by 16-byte copies along k. The mma's k slots t4 and t4+4
 * take k = 2 t4 and 2 t4 + 1 (any permutation of k serves, applied to both
 * operands), so each row's pair is one 8-byte load. Lane g takes rows
 * 8i + sig(g), i < 8 (columns 8 nt + sig(g) of B), with sig = 0 2 4 6 1 3 5 7:
 * the four lanes g of a half-warp then read rows 2 apart, and with a row
 * pitch of 4 mod 32 words each 8-byte load phase hits all 32 banks.
 */
constexpr int kLDK = Cfg<float>::BK + 4; /* 68 on sm_90 */

struct WarpTileK : WarpTile<float> {
    __device__ __forceinline__ static int sig(int g) { return g < 4 ? 2 * g : 2 * (g - 4) + 1; }

    template <bool kOne = false, typename Hook>
    __device__ __forceinline__ void mma(const float *As, const float *Bs, int wm, int wn, Hook &&hook)
    {
        const int lane = threadIdx.x % 32, g = lane / 4, t4 = lane % 4, sg = sig(g);
        const float *ap = As + (wm * 64 + sg) * kLDK + 2 * t4;
        const float *bp = Bs + (wn * 32 + sg) * kLDK + 2 * t4;
#pragma unroll
        for (int step = 0; step < Cfg<float>::BK / kK; ++step) {
            const int kk = step * kK;
            unsigned bh[4][2], bl[4][2];
#pragma unroll
            for (int nt = 0; nt < 4; ++nt) {
                const float2 b = *reinterpret_cast<const float2 *>(bp + 8 * nt * kLDK + kk);
                tf32_split(b.x, bh[nt][0], bl[nt][0]);
                tf32_split(b.y, bh[nt][1], bl[nt][1]);
            }
#pragma unroll
            for (int mt = 0; mt < 4; ++mt) {
                /* rows R[2mt] = 8(2mt) + sg (slot g) and R[2mt+1] (slot g+8) */
                const float2 r0 = *reinterpret_cast<const float2 *>(ap + 16 * mt * kLDK + kk);
                const float2 r1 = *reinterpret_cast<const float2 *>(ap + (16 * mt + 8) * kLDK + kk);
                unsigned ah[4], al[4];
                tf32_split(r0.x, ah[0], al[0]);
                tf32_split(r1.x, ah[1], al[1]);
                tf32_split(r0.y, ah[2], al[2]);
                tf32_split(r1.y, ah[3], al[3]);
#pragma unroll
                for (int nt = 0; nt < 4; ++nt) mma3<kOne>(mt, nt, ah, al, bh[nt][0], bh[nt][1], bl[nt][0], bl[nt][1]);
            }
            hook(step);
        }
        flush();
    }

    /* Lane g's rows R[i] = 8i + sig(g); column slot j of tile nt is column
     * 8 nt + sig(j). */
    template <typename F>
    __device__ __forceinline__ void for_each(int wm, int wn, F f) const
    {
        for_each_fragment(
            sum, wm, wn, [](int g, int i) { return 8 * i + sig(g); },
            [](int j, int nt) { return 8 * nt + sig(j); }, f);
    }
};

/* Stage b of the pipeline holds A's rows at smem + b*Stage, B's after them,
 * then BK entries of d. A diagonal tile copies its rows twice, as A and as
 * B, which keeps the copy code free of branches. */

/* Stages of the pipeline. */
constexpr int kAsyncStages = 3;

/* Elements of one stage: A's and B's tiles, then d. */
template <typename T, bool kKMajor> constexpr int stage_size()
{
    return kKMajor ? 2 * kBM * kLDK + Cfg<T>::BK : Cfg<T>::Stage;
}

/* Global -> shared copies that bypass registers; the bytes past src_bytes
 * are zero-filled (the tile's rows past m, columns past the chunk). One
 * element (4 or 8 bytes), or 16 bytes, which skip L1: each element is read
 * by one block only once. */
template <typename T>
__device__ __forceinline__ void cp_async_el(T *dst, const T *src, int src_bytes)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(s), "l"(src),
                 "n"((int)sizeof(T)), "r"(src_bytes));
}

__device__ __forceinline__ void cp_async16(void *dst, const void *src, int src_bytes)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src),
                 "r"(src_bytes));
}

/* The multiply steps of a stage, between which its neighbours' copies and
 * scaling are issued: DMMA k-steps of 4 (double), single k (float). */
template <typename T> constexpr int kSteps = Cfg<T>::BK / WarpTile<T>::kK;

/* Stages are copied in groups of V = 16 / sizeof(T) consecutive rows: thread
 * t takes rows V (t % kRowGroups) .. + V - 1 of the tile, in columns
 * c0 + kColGroups q with c0 = t / kRowGroups, q < kCopies. */
template <typename T> constexpr int kVecRows = 16 / (int)sizeof(T);
template <typename T> constexpr int kRowGroups = kBM / kVecRows<T>;
template <typename T> constexpr int kColGroups = kThr / kRowGroups<T>;
template <typename T> constexpr int kCopies = Cfg<T>::BK / kColGroups<T>;

/* Parts a stage's copies and scaling are cut into: the copies of stage kt+2
 * run after the first multiply steps of stage kt, one part each, and the
 * scaling of stage kt+1 after the last. Measured on the H100
 * (docs/results/s7/), double: copies in 1, 2 or 8 parts, scaling in 1, 4 or
 * 8, or scaling earlier in the stage were 1-10% slower. Single precision
 * (64-column stages, 8 copies per operand) takes 4 and 2 parts. */
template <typename T> constexpr int kScaleParts = kCopies<T> >= 2 ? 2 : 1;
template <typename T> constexpr int issue_parts()
{
    int p = 4; /* fewer where the stage has fewer copies or steps (sm_80) */
    while (p > 1 && (p > kCopies<T> || p > kSteps<T> - kScaleParts<T> || kCopies<T> % p)) p /= 2;
    return p;
}
template <typename T> constexpr int kIssueParts = issue_parts<T>();

/* Where this thread's row group sits in a tile, and how many of its 16
 * bytes exist (rows past m zero-fill). */
template <typename T> struct GroupSrc {
    const T *p; /* the group's element in column kbeg + c0 (row 0 if past m) */
    int rows;   /* rows of the group that are < m */
};

template <typename T>
__device__ __forceinline__ GroupSrc<T> group_src(const T *A, int64_t lda, int64_t m, int64_t row0, int64_t k0)
{
    const int64_t row = row0 + kVecRows<T> * (threadIdx.x % kRowGroups<T>);
    const int rows = (int)max((int64_t)0, min((int64_t)kVecRows<T>, m - row));
    return { A + (rows ? row : 0) + (k0 + threadIdx.x / kRowGroups<T>) * lda, rows };
}

/* One row group (`rows` of them valid, the rest zero-filled): a 16-byte
 * copy, or one copy per element where A or lda is not aligned for that. */
template <typename T, bool kVec>
__device__ __forceinline__ void copy_group(T *dst, const T *src, int rows)
{
    if (kVec) {
        cp_async16(dst, src, rows * (int)sizeof(T));
    } else {
#pragma unroll
        for (int e = 0; e < kVecRows<T>; ++e)
            cp_async_el(dst + e, e < rows ? src + e : src, e < rows ? (int)sizeof(T) : 0);
    }
}

/*
 * Part `part` of this thread's copies of one operand of a stage (src: the
 * group's element in the stage's column c0). Columns at or past kleft (the
 * chunk's end; <= 0 for the stages past it) zero-fill from a safe address.
 * Branch-free, so that the multiply steps around it stay one scheduling
 * region. Successive copies are one pointer step apart: a 64-bit add each.
 */
template <typename T, bool kVec, bool kFull>
__device__ __forceinline__ void issue_part(T *S, const T *src, int rows, int64_t ldstep, int kleft,
                                           int part, const T *safe)
{
    constexpr int Q = kCopies<T> / kIssueParts<T>, CG = kColGroups<T>;
    const int rg = threadIdx.x % kRowGroups<T>, c0 = threadIdx.x / kRowGroups<T>;
    const T *p = src + (int64_t)(part * Q) * ldstep;
    T *dst = S + (c0 + CG * part * Q) * kLDS + kVecRows<T> * rg;
#pragma unroll
    for (int j = 0; j < Q; ++j, p += ldstep) {
        if constexpr (kFull) { /* the stage lies inside the chunk: no column test */
            copy_group<T, kVec>(dst + CG * j * kLDS, p, rows);
        } else {
            const bool in = c0 + CG * (part * Q + j) < kleft;
            copy_group<T, kVec>(dst + CG * j * kLDS, in ? p : safe, in ? rows : 0);
        }
    }
}

/*
 * Part `part` of this thread's copies of one operand of a K-major stage (A's
 * element (r, k) at A[r*lda + k]; the stage is [row][k] with pitch kLDK, see
 * WarpTileK): groups of 4 consecutive k of one row, 16 bytes, or element by
 * element where A or lda is not 16-byte aligned. Thread t takes k quad t % 16
 * of rows t / 16 + 16 j; a warp copies 2 rows of 256 bytes. base: element
 * (0, k0) of the tile's rows; rows past `rows` and columns past kleft
 * zero-fill from a safe address. Only without d (the scaling pass assumes
 * the M-major copy map).
 */
template <bool kVec>
__device__ __forceinline__ void issue_part_kmajor(float *S, const float *base, int64_t lda, int rows,
                                                  int kleft, int part, const float *safe)
{
    constexpr int KQ = Cfg<float>::BK / 4, RS = kThr / KQ, PER = kBM / RS;
    constexpr int Q = PER / kIssueParts<float>;
    static_assert(PER % kIssueParts<float> == 0 && (Cfg<float>::BK + 4) == kLDK, "K-major stage");
    /* successive copies are RS rows apart: one pointer step each */
    const int k = 4 * (threadIdx.x % KQ), kvalid = max(0, min(4, kleft - k));
    const int r0 = threadIdx.x / KQ + RS * part * Q;
    const int64_t step = (int64_t)RS * lda;
    const float *p = base + (int64_t)r0 * lda + k;
    float *dst = S + r0 * kLDK + k;
#pragma unroll
    for (int j = 0; j < Q; ++j, p += step, dst += RS * kLDK) {
        const int valid = r0 + RS * j < rows ? kvalid : 0;
        const float *src = valid ? p : safe;
        if (kVec) {
            cp_async16(dst, src, valid * 4);
        } else {
#pragma unroll
            for (int e = 0; e < 4; ++e)
                cp_async_el(dst + e, e < valid ? src + e : safe, e < valid ? 4 : 0);
        }
    }
}

/* Copies d[k0 .. k0+BK) of the stage next to its tiles (zeros past kend). */
template <typename T>
__device__ __forceinline__ void issue_stage_d(T *dS, const T *__restrict__ d, int64_t k0, int64_t kend)
{
    if (threadIdx.x < Cfg<T>::BK) {
        const int64_t k = k0 + threadIdx.x;
        cp_async_el(dS + threadIdx.x, k < kend ? d + k : d, k < kend ? (int)sizeof(T) : 0);
    }
}

/* Scales part `part` of this thread's own elements of a stage (the row
 * groups it copied) by d. Branch-free: past kend both the tile and d were
 * zero-filled. */
template <typename T>
__device__ __forceinline__ void scale_part(T *S, const T *dS, int part)
{
    constexpr int Q = kCopies<T> / kScaleParts<T>, V = kVecRows<T>, CG = kColGroups<T>;
    const int rg = threadIdx.x % kRowGroups<T>, c0 = threadIdx.x / kRowGroups<T>;
    T v[Q][V], w[Q];
#pragma unroll
    for (int j = 0; j < Q; ++j) {
        const T *g = S + (c0 + CG * (part * Q + j)) * kLDS + V * rg;
        if constexpr (V == 2) {
            const double2 x = *reinterpret_cast<const double2 *>(g);
            v[j][0] = x.x; v[j][1] = x.y;
        } else {
            const float4 x = *reinterpret_cast<const float4 *>(g);
            v[j][0] = x.x; v[j][1] = x.y; v[j][2] = x.z; v[j][3] = x.w;
        }
        w[j] = dS[c0 + CG * (part * Q + j)];
    }
#pragma unroll
    for (int j = 0; j < Q; ++j) {
        T *g = S + (c0 + CG * (part * Q + j)) * kLDS + V * rg;
        if constexpr (V == 2)
            *reinterpret_cast<double2 *>(g) = make_double2(v[j][0] * w[j], v[j][1] * w[j]);
        else
            *reinterpret_cast<float4 *>(g) =
                make_float4(v[j][0] * w[j], v[j][1] * w[j], v[j][2] * w[j], v[j][3] * w[j]);
    }
}

/*
 * Main loop through cp.async: stages land without holding registers, which
 * the accumulators need (64 doubles per thread; in single precision 64
 * floats and 64 stage sums). With d, each thread scales its own elements of stage kt+1
 * (d sits in shared memory next to the stage) while stage kt is read by all,
 * so one barrier per stage publishes both the landed copies and the scaling.
 *
 * The copies of stage kt+2 and the scaling of stage kt+1 are cut into parts
 * that run between the multiply steps of stage kt: the copies in the first
 * steps (so they land before the next barrier), the scaling in the last.
 * Issued all at once after the barrier, their integer and memory
 * instructions left the tensor pipe idle on every warp at once.
 */
template <typename T, bool kHasD, bool kVec, bool kKMajor, bool kOne, typename Tile>
__device__ __forceinline__ void mainloop(Tile &acc, T *smem, const T *__restrict__ A,
                                         int64_t lda, const T *__restrict__ d, int64_t m,
                                         int64_t row0, int64_t col0, int64_t kbeg, int64_t kend,
                                         bool active, int wm, int wn)
{
    static_assert(kAsyncStages == 3, "copies run two stages ahead, scaling one");
    static_assert(!(kKMajor && (kHasD || sizeof(T) != 4)), "K-major A: single, no d");
    constexpr int BK = Cfg<T>::BK, NS = kSteps<T>;
    constexpr int kScaleAt = NS - kScaleParts<T>;
    static_assert(kIssueParts<T> <= kScaleAt, "copies first, then the scaling, one part per step");
    static_assert(kCopies<T> % kIssueParts<T> == 0 && kCopies<T> % kScaleParts<T> == 0, "even parts");
    /* B's rows, d of a stage */
    constexpr int boff = kKMajor ? kBM * kLDK : BK * kLDS, doff = 2 * boff;
    const int nk = (int)((kend - kbeg + BK - 1) / BK);
    const GroupSrc<T> a_src = group_src(A, lda, m, row0, kbeg), b_src = group_src(A, lda, m, col0, kbeg);
    const int64_t ldstep = kColGroups<T> * lda, stride = BK * lda;
    auto stage = [&](int buf) { return smem + buf * stage_size<T, kKMajor>(); };
    /* Part `part` of stage kt's copies, into buffer buf; the last part closes
     * the group. Stages past the chunk zero-fill (nobody reads them), which
     * keeps this free of branches. full: std::true_type where the stage lies
     * wholly inside the chunk (M-major copies then skip the column test). */
    auto issue = [&](int kt, int buf, int part, auto full) {
        [[maybe_unused]] constexpr bool kFull = decltype(full)::value;
        T *S = stage(buf);
        [[maybe_unused]] const int64_t k0 = kbeg + (int64_t)kt * BK, off = kt * stride;
        const int kleft = (int)max((int64_t)0, min((int64_t)BK, kend - k0));
        if constexpr (kKMajor) {
            const int64_t k0l = kbeg + (int64_t)kt * BK;
            issue_part_kmajor<kVec>(S, A + row0 * lda + k0l, lda, (int)min((int64_t)kBM, m - row0),
                                    kleft, part, A);
            issue_part_kmajor<kVec>(S + boff, A + col0 * lda + k0l, lda,
                                    (int)min((int64_t)kBM, m - col0), kleft, part, A);
        } else {
            issue_part<T, kVec, kFull>(S, a_src.p + off, a_src.rows, ldstep, kleft, part, A);
            issue_part<T, kVec, kFull>(S + boff, b_src.p + off, b_src.rows, ldstep, kleft, part, A);
        }
        if (kHasD && part == 0) issue_stage_d(S + doff, d, k0, kend);
        if (part == kIssueParts<T> - 1) cp_async_commit();
    };
    /* Only A's rows are scaled, by d^2: half the multiplies (in double they
     * share the pipe with the DMMAs). The thread that copied d_k squares it
     * once its copy has landed, before the barrier that lets others read it. */
    auto square_d = [&](int buf) {
        if (kHasD && threadIdx.x < BK) {
            T *dS = stage(buf) + doff;
            dS[threadIdx.x] *= dS[threadIdx.x];
        }
    };
    auto scale = [&](int buf, int part) {
        if (kHasD) scale_part(stage(buf), stage(buf) + doff, part);
    };
#pragma unroll
    for (int s = 0; s < kAsyncStages - 1; ++s)
#pragma unroll
        for (int part = 0; part < kIssueParts<T>; ++part) issue(s, s, part, std::false_type{});
    cp_async_wait<kAsyncStages - 2>(); /* stage 0 */
    square_d(0);
    __syncthreads();
#pragma unroll
    for (int part = 0; part < kScaleParts<T>; ++part) scale(0, part);
    int buf = 0; /* kt % kAsyncStages */
    auto run_stage = [&](int kt, auto full) {
        const int buf1 = buf == 2 ? 0 : buf + 1, buf2 = buf1 == 2 ? 0 : buf1 + 1;
        cp_async_wait<0>(); /* stage kt+1 */
        square_d(buf1);
        __syncthreads(); /* kt scaled and visible, kt+1 landed, kt-1 free */
        auto between = [&](int step) {
            if (step < kIssueParts<T>) issue(kt + 2, buf2, step, full);
            if (step >= kScaleAt) scale(buf1, step - kScaleAt);
        };
        if (active) {
            acc.template mma<kOne>(stage(buf), stage(buf) + boff, wm, wn, between);
        } else {
#pragma unroll
            for (int step = 0; step < NS; ++step) between(step);
        }
        buf = buf1;
    };
    /* Stages whose copies lie wholly inside the chunk skip the column test:
     * 17% fewer instructions issued in double, 2-4% faster at 16384 x 16384
     * and unchanged elsewhere (docs/results/s24/, calls 3 and 4). */
    const int nfast = (int)max((int64_t)0, min((int64_t)nk, (kend - kbeg) / BK - (kAsyncStages - 1)));
    int kt = 0;
    if constexpr (!kKMajor) /* (its copies have no such test to skip) */
        for (; kt < nfast; ++kt) run_stage(kt, std::true_type{});
    for (; kt < nk; ++kt) run_stage(kt, std::false_type{});
    cp_async_wait<0>();
}

/* One block of 8 warps per SM in both precisions: the accumulators (and in
 * single precision the stage sums) take 220-240 registers per thread. */
template <typename T> constexpr int min_blocks() { return 1; }

/*
 * One tile of the lower triangle, over columns [split*kchunk, (split+1)*kchunk)
 * of A. splits == 1: writes alpha*acc + beta*C through the map. Otherwise
 * writes the raw partial tile to work[(t*splits + split) * kBM^2].
 */
template <typename T, bool kHasD, bool kVec, bool kKMajor = false, bool kOne = false>
__global__ void __launch_bounds__(kThr, min_blocks<T>())
syrk_diag_kernel(int64_t m, int64_t ncols, int64_t n, T alpha, const T *__restrict__ A, int64_t lda,
                 const T *__restrict__ d, T beta, T *__restrict__ C, OutMap map, int splits,
                 int64_t kchunk, T *__restrict__ work)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *smem = reinterpret_cast<T *>(smem_raw);
    const int64_t t = blockIdx.x;
    int64_t ti, tj;
    tile_of(t, (m + kBM - 1) / kBM, (ncols + kBM - 1) / kBM, ti, tj);
    const bool diag = ti == tj;
    const int64_t row0 = ti * kBM, col0 = tj * kBM;
    const int64_t kbeg = (int64_t)blockIdx.y * kchunk;
    const int64_t kend = min(n, kbeg + kchunk);

    const int warp = threadIdx.x / 32, wm = warp / 4, wn = warp % 4;
    /* In a diagonal tile, warps whose 64 x 32 lies above the diagonal idle. */
    const bool active = !(diag && wn * 32 >= wm * 64 + 64);

    std::conditional_t<kKMajor, WarpTileK, WarpTile<T>> acc;
    acc.zero();
    if (kbeg < kend)
        mainloop<T, kHasD, kVec, kKMajor, kOne>(acc, smem, A, lda, d, m, row0, col0, kbeg, kend, active,
                                          wm, wn);

    if (splits == 1) {
        acc.for_each(wm, wn, [&](int r, int c, T v) {
            const int64_t i = row0 + r, j = col0 + c;
            if (i < m && j <= i && j < ncols) {
                const int64_t off = out_offset(map, i, j);
                T out = alpha * v;
                if (beta != T(0)) out += beta * C[off];
                C[off] = out;
            }
        });
    } else {
        T *W = work + ((int64_t)t * splits + blockIdx.y) * (int64_t)(kBM * kBM);
        acc.for_each(wm, wn, [&](int r, int c, T v) { W[r + c * kBM] = v; });
    }
}

/* Sums the splits of each tile in order and writes through the map. */
template <typename T>
__global__ void __launch_bounds__(kThr)
syrk_diag_reduce_kernel(int64_t m, int64_t ncols, T alpha, T beta, T *__restrict__ C, OutMap map,
                        int splits, const T *__restrict__ work)
{
    const int64_t t = blockIdx.x;
    int64_t ti, tj;
    tile_of(t, (m + kBM - 1) / kBM, (ncols + kBM - 1) / kBM, ti, tj);
    const T *W = work + (int64_t)t * splits * (kBM * kBM);
    for (int e = threadIdx.x; e < kBM * kBM; e += kThr) {
        const int r = e % kBM, c = e / kBM;
        const int64_t i = ti * kBM + r, j = tj * kBM + c;
        if (i >= m || j > i || j >= ncols) continue;
        T v = T(0);
        for (int s = 0; s < splits; ++s) v += W[(int64_t)s * (kBM * kBM) + e];
        const int64_t off = out_offset(map, i, j);
        T out = alpha * v;
        if (beta != T(0)) out += beta * C[off];
        C[off] = out;
    }
}

template <typename T, bool kKMajor = false>
constexpr size_t kSmemBytes = kAsyncStages * stage_size<T, kKMajor>() * sizeof(T);

/* Tiles of the lower triangle of an m x m C restricted to its first ncols
 * columns (ncols = m: the whole triangle). */
inline int64_t tile_count(int64_t m, int64_t ncols)
{
    const int64_t nt = (m + kBM - 1) / kBM, ntc = (min(ncols, m) + kBM - 1) / kBM;
    return ntc * (ntc + 1) / 2 + (nt - ntc) * ntc;
}

/* C (the first ncols columns of the lower triangle of an m x m matrix,
 * through cmap) := alpha * A D^2 A^T + beta * C. kmajor: A's element (i, k)
 * is at dA[i*lda + k] (then without d). */
template <typename T>
int launch(int64_t m, int64_t ncols, int64_t n, T alpha, const T *dA, int64_t lda, const T *dd,
           T beta, T *dC, const gchol_outmap_t *cmap, int splits, T *dwork, cudaStream_t stream,
           bool kmajor = false, bool one = false)
{
    static bool opted[2][2][64], opted_kmajor[2][2][64], opted_one[2][2][64];
    if (one && sizeof(T) != 4) return cudaErrorInvalidValue;
    if (m <= 0 || ncols <= 0) return cudaSuccess;
    if (kmajor && dd) return cudaErrorInvalidValue;
    if (ncols > m) ncols = m;
    const OutMap map = { cmap->rfp, cmap->upper, cmap->transposed, cmap->ldc, m };
    const int64_t tiles = tile_count(m, ncols);
    if (splits < 1 || n == 0) splits = 1;
    const int64_t kchunk = splits == 1 ? (n > 0 ? n : 1)
                                       : ((n + splits - 1) / splits + 31) / 32 * 32;
    const size_t smem = kSmemBytes<T>;
    const dim3 grid((unsigned)tiles, (unsigned)splits);
    /* Row groups move as one 16-byte piece when every column of A starts on
     * a 16-byte boundary. */
    const bool vec = (uintptr_t)dA % 16 == 0 && lda % kVecRows<T> == 0;
    auto run = [&](auto kernel, bool(&done)[64]) {
        cudaError_t e = opt_in_shared(kernel, smem, done);
        if (e != cudaSuccess) return e;
        kernel<<<grid, kThr, smem, stream>>>(m, ncols, n, alpha, dA, lda, dd, beta, dC, map, splits,
                                             kchunk, dwork);
        return cudaGetLastError();
    };
    cudaError_t e;
    if (kmajor) {
        if constexpr (sizeof(T) == 4) { /* only potrf's single-precision update */
            const size_t smem_k = kSmemBytes<T, true>;
            auto run_k = [&](auto kernel, bool(&done)[64]) {
                cudaError_t ek = opt_in_shared(kernel, smem_k, done);
                if (ek != cudaSuccess) return ek;
                kernel<<<grid, kThr, smem_k, stream>>>(m, ncols, n, alpha, dA, lda, dd, beta, dC, map,
                                                       splits, kchunk, dwork);
                return cudaGetLastError();
            };
            if (one)
                e = vec ? run_k(syrk_diag_kernel<T, false, true, true, true>, opted_kmajor[1][1])
                        : run_k(syrk_diag_kernel<T, false, false, true, true>, opted_kmajor[1][0]);
            else
                e = vec ? run_k(syrk_diag_kernel<T, false, true, true>, opted_kmajor[0][1])
                        : run_k(syrk_diag_kernel<T, false, false, true>, opted_kmajor[0][0]);
        } else {
            e = cudaErrorNotSupported;
        }
    } else if (one) {
        if constexpr (sizeof(T) == 4) {
            if (dd)
                e = vec ? run(syrk_diag_kernel<T, true, true, false, true>, opted_one[1][1])
                        : run(syrk_diag_kernel<T, true, false, false, true>, opted_one[1][0]);
            else
                e = vec ? run(syrk_diag_kernel<T, false, true, false, true>, opted_one[0][1])
                        : run(syrk_diag_kernel<T, false, false, false, true>, opted_one[0][0]);
        } else {
            e = cudaErrorNotSupported;
        }
    } else if (dd)
        e = vec ? run(syrk_diag_kernel<T, true, true>, opted[1][1])
                : run(syrk_diag_kernel<T, true, false>, opted[1][0]);
    else
        e = vec ? run(syrk_diag_kernel<T, false, true>, opted[0][1])
                : run(syrk_diag_kernel<T, false, false>, opted[0][0]);
    if (e != cudaSuccess) return e;
    if (splits > 1) {
        syrk_diag_reduce_kernel<T><<<(unsigned)tiles, kThr, 0, stream>>>(m, ncols, alpha, beta, dC,
                                                                        map, splits, dwork);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    return cudaSuccess;
}

} // namespace
} // namespace gchol

extern "C" int gchol_syrk_diag_plan(int64_t m, int64_t n, size_t elsize,
                                    const gchol_kernel_tune_t *kt, int *splits,
                                    size_t *work_bytes)
{
    (void)kt; /* NULL: the built-in defaults */
    using namespace gchol;
    *splits = 1;
    *work_bytes = 0;
    if (m <= 0 || n <= 0) return cudaSuccess;
    int dev = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess) return e;
    /* Resident blocks per SM: register-bound (double) or 2 (single). */
    const int64_t slots = (int64_t)sms * (elsize == 8 ? min_blocks<double>() : min_blocks<float>());
    const int64_t nt = (m + kBM - 1) / kBM, tiles = nt * (nt + 1) / 2;
    /* (The old flat 0.2% per split split 8192 x 32768 13 ways to trim a
     * 16-wave tail, writing and reading 3.5 GB of partials.) */
    *splits = gchol_syrk_diag_splits(tiles, slots, n, elsize);
    if (*splits > 1) *work_bytes = (size_t)tiles * (size_t)*splits * kBM * kBM * elsize;
    return cudaSuccess;
}

extern "C" int gchol_dsyrk_diag_launch(int64_t m, int64_t ncols, int64_t n, double alpha,
                                       const double *dA, int64_t ldda, const double *dd,
                                       double beta, double *dC, const gchol_outmap_t *map,
                                       int splits, double *dwork, int tf32, cudaStream_t stream)
{
    if (tf32) return cudaErrorInvalidValue; /* no TF32 form of double */
    return gchol::launch<double>(m, ncols, n, alpha, dA, ldda, dd, beta, dC, map, splits, dwork,
                                 stream);
}

extern "C" int gchol_ssyrk_diag_launch(int64_t m, int64_t ncols, int64_t n, float alpha,
                                       const float *dA, int64_t ldda, const float *dd, float beta,
                                       float *dC, const gchol_outmap_t *map, int splits,
                                       float *dwork, int tf32, cudaStream_t stream)
{
    return gchol::launch<float>(m, ncols, n, alpha, dA, ldda, dd, beta, dC, map, splits, dwork,
                                stream, false, tf32 != 0);
}

extern "C" int64_t gchol_syrk_update_tiles(int64_t m, int64_t ncols)
{
    return m <= 0 || ncols <= 0 ? 0 : gchol::tile_count(m, ncols);
}

extern "C" int gchol_ssyrk_update_launch(int64_t m, int64_t ncols, int64_t k, const float *dA,
                                         int64_t ldda, int trans_a, float *dC, int64_t lddc,
                                         int trans_c, int tf32, cudaStream_t stream)
{
    const gchol_outmap_t map = { 0, trans_c, 0, lddc };
    return gchol::launch<float>(m, ncols, k, -1.0f, dA, ldda, nullptr, 1.0f, dC, &map, 1, nullptr,
                                stream, trans_a != 0, tf32 != 0);
}
