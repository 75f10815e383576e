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
 *
 * The warp tiles are in syrk_diag_tile.cuh, the pipeline in
 * syrk_diag_pipeline.cuh; this file holds the tile order, the kernels and
 * the launchers.
 */
#include "gchol_kernels.h"
#include "rfp_index.h"
#include "syrk_diag_pipeline.cuh"

#include <cmath>
#include <type_traits>

namespace gchol {
namespace {

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

/* Tiles of the lower triangle of an m x m C restricted to its first ncols
 * columns (ncols = m: the whole triangle). */
inline int64_t tile_count(int64_t m, int64_t ncols)
{
    const int64_t nt = (m + kBM - 1) / kBM, ntc = (min(ncols, m) + kBM - 1) / kBM;
    return ntc * (ntc + 1) / 2 + (nt - ntc) * ntc;
}

/* C (the first ncols columns of the lower triangle of an m x m matrix,
 * through cmap) := alpha * A D^2 A^T + beta * C. kmajor: A's element (i, k)
 * is at dA[i*lda + k] (then without d). gchol_dsyrk_diag_launch,
 * gchol_ssyrk_diag_launch, gchol_ssyrk_update_launch. */
template <typename T>
int launch(int64_t m, int64_t ncols, int64_t n, T alpha, const T *dA, int64_t lda, const T *dd,
           T beta, T *dC, const gchol_outmap_t *cmap, int splits, T *dwork, cudaStream_t stream,
           bool kmajor = false, bool one = false)
{
    static DeviceFlags opted[2][2], opted_kmajor[2][2], opted_one[2][2];
    if (one && sizeof(T) != 4) return cudaErrorInvalidValue;
    if (m <= 0 || ncols <= 0) return cudaSuccess;
    if (kmajor && dd) return cudaErrorInvalidValue;
    if (ncols > m) ncols = m;
    const OutMap map = { cmap->rfp, cmap->upper, cmap->transposed, cmap->ldc, m };
    const int64_t tiles = tile_count(m, ncols);
    if (splits < 1 || n == 0) splits = 1;
    const int64_t kchunk = splits == 1 ? (n > 0 ? n : 1)
                                       : ((n + splits - 1) / splits + 31) / 32 * 32;
    /* the stage size of the code that runs (syrk_diag_tile.cuh) */
    static DeviceBytes sm90_of;
    bool sm90 = false;
    cudaError_t e = runs_sm90_code(syrk_diag_reduce_kernel<T>, sm90_of, sm90);
    if (e != cudaSuccess) return e;
    const size_t smem = smem_bytes_for<T, false>(sm90);
    const dim3 grid((unsigned)tiles, (unsigned)splits);
    /* Row groups move as one 16-byte piece when every column of A starts on
     * a 16-byte boundary. */
    const bool vec = (uintptr_t)dA % 16 == 0 && lda % kVecRows<T> == 0;
    auto run = [&](auto kernel, DeviceFlags &done) {
        cudaError_t e = opt_in_shared(kernel, smem, done);
        if (e != cudaSuccess) return e;
        kernel<<<grid, kThr, smem, stream>>>(m, ncols, n, alpha, dA, lda, dd, beta, dC, map, splits,
                                             kchunk, dwork);
        return cudaGetLastError();
    };
    if (kmajor) {
        if constexpr (sizeof(T) == 4) { /* only potrf's single-precision update */
            const size_t smem_k = smem_bytes_for<T, true>(sm90);
            auto run_k = [&](auto kernel, DeviceFlags &done) {
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
    using namespace gchol;
    *splits = 1;
    *work_bytes = 0;
    if (m <= 0 || n <= 0) return cudaSuccess;
    int dev = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess) return e;
    /* resident blocks: min_blocks per SM */
    const int64_t slots = (int64_t)sms * (elsize == 8 ? min_blocks<double>() : min_blocks<float>());
    const int64_t nt = (m + kBM - 1) / kBM, tiles = nt * (nt + 1) / 2;
    const int p = elsize == 8 ? 0 : 1;
    const double rate = kt && kt->syrk_diag_flops_per_byte[p] > 0.0
                            ? kt->syrk_diag_flops_per_byte[p]
                        : p == 0 ? GCHOL_KT_DEFAULT_SYRK_FLOPS_PER_BYTE_D
                                 : GCHOL_KT_DEFAULT_SYRK_FLOPS_PER_BYTE_S;
    *splits = gchol_syrk_diag_splits_at(tiles, slots, n, elsize, rate);
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
