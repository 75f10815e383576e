/*
 * syrk_diag_tile.cuh -- the shape of syrk_diag's pipeline stages and the
 * per-warp 64 x 32 product on the tensor cores: DMMA in double, 3xTF32 in
 * single (column-major and K-major stages).
 *
 * Part of syrk_diag.cu's translation unit (its anonymous namespace);
 * include it from there only.
 */
#ifndef GCHOL_SYRK_DIAG_TILE_CUH
#define GCHOL_SYRK_DIAG_TILE_CUH

#include "tile_common.cuh"

#include <type_traits>

namespace gchol {
namespace {

constexpr int kBM      = 128;      /* tile order                              */
constexpr int kLDS     = kBM + 4;  /* shared row pitch: conflict-free DMMA
                                      fragment reads, 16-byte float4 rows     */
constexpr int kThr     = 256;      /* 8 warps as 2 (rows) x 4 (cols), 64 x 32 */

/* Columns of A per pipeline stage: double 32, single 64. Wider stages
 * spread each stage's fixed costs (the barrier, the first fragment loads)
 * over more multiplies. Three such stages fit in sm_90's shared memory
 * (227 KiB per block); sm_80 has less and takes half the columns. The
 * device code takes the scale of the architecture it is compiled for
 * (__CUDA_ARCH__); the launcher asks which code runs (runs_sm90_code) and
 * sizes the shared memory to match (smem_bytes_for). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
constexpr int kStageScale = 2;
#else
constexpr int kStageScale = 1;
#endif
__host__ __device__ constexpr int stage_bk(int elsize, int scale)
{
    return (elsize == 8 ? 32 : 64) / scale;
}
template <typename T> struct Cfg {
    static constexpr int BK    = stage_bk((int)sizeof(T), kStageScale);
    static constexpr int Stage = 2 * BK * kLDS + BK;
};

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
 * cvt.rna.tf32 instruction instead leaves the kernel 20% slower. An
 * infinite x gives x_lo = NaN: entries of C that see an
 * infinite entry of A (or of A times d^2) come out NaN, not +-Inf.
 *
 * The tensor cores' FP32 accumulation truncates; summed over all of n in
 * one accumulator, that bias grows linearly with n (at 4096 x 65536 the
 * error is beyond the tests' bound). So the mma accumulates one stage (BK
 * columns) and is then added to an FP32 sum by rounded FADDs, which is more
 * accurate than an FFMA kernel at the same sizes.
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
constexpr int kLDK = Cfg<float>::BK + 4;

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

} // namespace
} // namespace gchol

#endif
