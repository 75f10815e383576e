/*
 * potrf_batched.cu -- Cholesky of many matrices of one order n in one launch
 * (gchol_?potrf_batched_launch, gchol_kernels.h), each matrix's info in
 * dinfo[b], no matrix stopping another. The kernels by n (the register
 * ones in potrf_batched_small.cuh, the block-per-matrix ones in
 * potrf_batched_block.cuh; here their launch), after the live tiles kernel
 * (potrf_batched_live.cu, from 193 to 256), which src/potrf_batched.c
 * launches ahead of them where the tuning table has it:
 *
 *   n <= 512    on large batches, from the tuning's order up to its
 *               largest, ahead of all below: a warp per matrix, four a
 *               block, left-looking by block columns of 32 with the
 *               updates on the FP64 tensor cores (single's operands
 *               converted), each block's rows in registers for its
 *               factorization or solve (potrf_batched_dmma.cuh);
 *   n <= 64     on batches of a few matrices an SM, from the tuning's
 *               order: a warp per 8 columns, each lane factoring the
 *               panel's diagonal block itself (potrf_batched_replica.cuh);
 *   n <= 32     on small batches, from the tuning's order: four warps per
 *               matrix, warp w holding columns 8w..8w+7 of every row,
 *               right-looking by panels of 8 (each factored by its warp
 *               with shuffles, then a rank-8 update by the later warps);
 *   n <= 32     a group of G lanes (G the power of two >= n) per matrix, G
 *               rows of L in registers (lane r holds row r), right-looking
 *               with the pivot and each l_jk passed by shuffles within the
 *               group: the matrix read once and written once;
 *   n <= 288    from the tuning's order up to its largest (where the
 *               triangle's 32 x 32 tiles fit in shared memory: 192 in
 *               double, 288 in single), a block per matrix, right-looking
 *               by tile columns on chip (potrf_batched_tiles.cuh);
 *   n <= 256    past the lane groups up to the tuning's order, a warp per
 *               matrix, left-looking by block columns of 32, a lane's row
 *               of a block in registers (potrf_batched_warp.cuh);
 *   n <= 64     between the tuning's orders, a block of 64 threads per
 *               matrix (32 to n = 32), thread r holding row r in registers,
 *               right-looking with each column passed through shared
 *               memory (one barrier a column; past 32, a loop over the
 *               columns with the rows shifted): again the matrix read once
 *               and written once;
 *   n <= 512    (up to the tuning's n) a thread block per matrix,
 *               left-looking by panels of 32 columns, the updates as
 *               multiply-accumulate tiles (FP64 tensor cores in double);
 *   n <= smem   a thread block per matrix, its triangle packed in shared
 *               memory, right-looking by panels of 32 columns (the
 *               diagonal block in one warp's registers, the updates in
 *               register tiles);
 *   n <= 512    a thread block per matrix, left-looking by panels of 32
 *               columns, each panel in shared memory;
 *   larger      the right-looking steps on the matrix in global memory.
 *
 * Every kernel reads and writes only the uplo triangle (padding and the
 * other triangle untouched). At the first pivot that is not positive (or
 * NaN), column k (1-based dinfo[b] = k) is left unscaled with the failed
 * pivot in A(k,k), columns 1..k-1 hold the factor's, as gchol_?potrf.
 */
#include "gchol_kernels.h"
#include "potrf_batched_block.cuh"
#include "potrf_batched_dmma.cuh"
#include "potrf_batched_mma.cuh"
#include "potrf_batched_replica.cuh"
#include "potrf_batched_small.cuh"
#include "potrf_batched_tiles.cuh"
#include "potrf_batched_warp.cuh"
#include "tile_common.cuh"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

/* Blocks per launch: the grid's x dimension (kernels index matrices from
 * their block and the first matrix's offset). */
constexpr int64_t kMaxGrid = 0x7fffffff;

template <typename T, int G, typename Batch>
cudaError_t launch_reg(Batch batch, int upper, int64_t *dinfo, int64_t count, cudaStream_t stream)
{
    const int64_t per_block = kRegThreads / G, blocks = (count + per_block - 1) / per_block;
    potrf_batched_reg_kernel<T, G, Batch>
        <<<(unsigned)blocks, kRegThreads, 0, stream>>>(batch, upper, dinfo, count);
    return cudaGetLastError();
}

/* Kernel<<<blocks, threads, bytes, stream>>>(args...), the kernel opted in
 * to the device's whole shared-memory limit once: a per-call size could
 * lower it under another host thread's launch. */
template <auto Kernel, typename... Args>
cudaError_t launch_opted_in(size_t limit, int64_t blocks, unsigned threads, size_t bytes,
                            cudaStream_t stream, Args... args)
{
    static gchol::DeviceFlags opted_in;
    const cudaError_t e = gchol::opt_in_shared(Kernel, limit, opted_in);
    if (e != cudaSuccess) return e;
    Kernel<<<(unsigned)blocks, threads, bytes, stream>>>(args...);
    return cudaGetLastError();
}

template <typename T, int G, typename Batch>
cudaError_t launch_rows(Batch batch, int upper, int64_t *dinfo, int64_t count, cudaStream_t stream)
{
    if constexpr (G <= 32)
        potrf_batched_rows_kernel<T, G, Batch><<<(unsigned)count, G, 0, stream>>>(batch, upper,
                                                                                 dinfo);
    else
        potrf_batched_rows_shift_kernel<T, G, Batch><<<(unsigned)count, G, 0, stream>>>(
            batch, upper, dinfo);
    return cudaGetLastError();
}

/* The dynamic shared memory a block of the blocked kernel may have (the
 * device's opt-in limit less its static arrays, as compiled: the largest
 * extern alignment in this file pads them) and the largest order whose
 * packed lower view (n (n + 1) / 2 entries) fits in it. */
template <typename T> cudaError_t smem_limits(size_t *bytes, int *n_max)
{
    static gchol::DeviceInts known;
    const cudaError_t e =
        gchol::dynamic_smem_limit(potrf_batched_blocked_kernel<T, Strided<T>>, known, bytes);
    if (e != cudaSuccess) return e;
    int n = 0;
    while ((size_t)(n + 1) * (size_t)(n + 2) / 2 * sizeof(T) <= *bytes) ++n;
    *n_max = n;
    return cudaSuccess;
}

/* One launch of the tiled kernel with one or two chunk buffers (Two). */
template <typename T, bool Two, typename Batch>
cudaError_t launch_mma_form(int n_max, Batch batch, int upper, int64_t *dinfo, int64_t count,
                            size_t limit, cudaStream_t stream)
{
    const unsigned nt = (unsigned)(n_max > 64 ? (n_max + 31) / 32 * 32 : 64);
    return launch_opted_in<potrf_batched_mma_kernel<T, Two, Batch>>(
        limit, count, nt, mma_smem_bytes<T>(n_max, Two), stream, batch, upper, mma_lds(n_max), dinfo);
}

template <typename T, typename Batch>
cudaError_t launch_mma(int n_max, Batch batch, int upper, int64_t *dinfo, int64_t count,
                       size_t limit, int buffers, cudaStream_t stream)
{
    /* two chunk buffers where two blocks an SM still fit (each block's
     * share less the 1 KiB the SM reserves for it), or as the table says */
    int dev = 0, per_sm = 0;
    if (buffers == 0) {
        cudaError_t e = cudaGetDevice(&dev);
        if (e == cudaSuccess)
            e = cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
        if (e != cudaSuccess) return e;
    }
    const size_t two_bytes = mma_smem_bytes<T>(n_max, true);
    const bool two = buffers == 2 ? two_bytes <= limit
                   : buffers == 0 && two_bytes + 1024 <= (size_t)per_sm / 2;
    return two ? launch_mma_form<T, true>(n_max, batch, upper, dinfo, count, limit, stream)
               : launch_mma_form<T, false>(n_max, batch, upper, dinfo, count, limit, stream);
}

/* The FP64 tensor cores' warp kernel at Blocks blocks an SM. */
template <typename T, int Blocks, typename Batch>
cudaError_t launch_dmma(Batch batch, int upper, int64_t *dinfo, int64_t count, size_t limit,
                        cudaStream_t stream)
{
    return launch_opted_in<potrf_batched_dmma_kernel<T, Batch, Blocks>>(
        limit, (count + kDmmaWarps - 1) / kDmmaWarps, 32 * kDmmaWarps, dmma_smem_bytes<T>(),
        stream, batch, upper, dinfo, count);
}

/* The kernel's choice by order, from the tuning table (run() below). */
struct Choice {
    int reg_max, warp_max, rows_from, rows_max, mma_from, mma_max, smem_max, hybrid_max;
    int mma_buffers, tiles_from, tiles_max, dmma_from, dmma_max, dmma_blocks, panels_from;
    int replica_from, replica_max;
};

/* The replica kernel at gchol_batched_replica_warps(n_max) warps a matrix. */
template <typename T, typename Batch>
cudaError_t launch_replica(int n_max, Batch batch, int upper, int64_t *dinfo, int64_t count,
                           cudaStream_t stream)
{
    switch (gchol_batched_replica_warps(n_max)) {
    case 4:
        potrf_batched_replica_kernel<T, 4, Batch><<<(unsigned)count, 128, 0, stream>>>(batch, upper,
                                                                                      dinfo);
        break;
    case 6:
        potrf_batched_replica_kernel<T, 6, Batch><<<(unsigned)count, 192, 0, stream>>>(batch, upper,
                                                                                      dinfo);
        break;
    default:
        potrf_batched_replica_kernel<T, 8, Batch><<<(unsigned)count, 256, 0, stream>>>(batch, upper,
                                                                                      dinfo);
    }
    return cudaGetLastError();
}

/* count matrices (every order <= n_max) by the kernel for n_max: rows in
 * registers from rows_from to rows_max (a block of 32 threads a matrix to
 * n = 32, of 64 beyond), else lane groups up to reg_max; the tiled
 * left-looking kernel from mma_from to mma_max, shared memory up to smem_max
 * (0: what fits), then with a global-memory head up to hybrid_max. Past
 * the rows and the lane groups, a warp per matrix up to warp_max comes
 * first. */
template <typename T, typename Batch>
cudaError_t launch(int n_max, Batch batch, int upper, int64_t *dinfo, int64_t count,
                   const Choice &ch, cudaStream_t stream)
{
    size_t limit = 0;
    int smem_n = 0;
    cudaError_t e;
    if (n_max >= ch.dmma_from && n_max <= ch.dmma_max && n_max <= kDmmaMaxN) {
        if ((e = smem_limits<T>(&limit, &smem_n)) != cudaSuccess) return e;
        if (dmma_smem_bytes<T>() <= limit)
            return ch.dmma_blocks == 4
                       ? launch_dmma<T, 4>(batch, upper, dinfo, count, limit, stream)
                       : launch_dmma<T, 3>(batch, upper, dinfo, count, limit, stream);
    }
    if (ch.replica_from > 0 && n_max >= ch.replica_from && n_max <= ch.replica_max &&
        n_max <= kReplicaMaxWarps * kReplicaCols)
        return launch_replica<T>(n_max, batch, upper, dinfo, count, stream);
    if (ch.panels_from > 0 && n_max >= ch.panels_from && n_max <= kPanelWarps * kPanelCols) {
        potrf_batched_panels_kernel<T, Batch>
            <<<(unsigned)count, 32 * kPanelWarps, 0, stream>>>(batch, upper, dinfo);
        return cudaGetLastError();
    }
    if (n_max >= ch.rows_from && n_max <= ch.rows_max)
        return n_max <= 32 ? launch_rows<T, 32>(batch, upper, dinfo, count, stream)
                           : launch_rows<T, kRowsMax>(batch, upper, dinfo, count, stream);
    if (n_max <= ch.reg_max) {
        switch (n_max <= 4 ? 4 : n_max <= 8 ? 8 : n_max <= 16 ? 16 : 32) {
        case 4: return launch_reg<T, 4>(batch, upper, dinfo, count, stream);
        case 8: return launch_reg<T, 8>(batch, upper, dinfo, count, stream);
        case 16: return launch_reg<T, 16>(batch, upper, dinfo, count, stream);
        default: return launch_reg<T, 32>(batch, upper, dinfo, count, stream);
        }
    }
    if ((e = smem_limits<T>(&limit, &smem_n)) != cudaSuccess) return e;
    if (n_max >= ch.tiles_from && n_max <= ch.tiles_max && tiles_smem_bytes<T>(n_max) <= limit)
        return launch_opted_in<potrf_batched_tiles_kernel<T, Batch>>(
            limit, count, kTilesThreads, tiles_smem_bytes<T>(n_max), stream, batch, upper, dinfo);
    if (n_max <= ch.warp_max && n_max <= kWarpMaxN && warp_smem_bytes<T>(n_max) <= limit)
        return launch_opted_in<potrf_batched_warp_kernel<T, Batch>>(
            limit, count, 32, warp_smem_bytes<T>(n_max), stream, batch, upper, warp_lds<T>(n_max),
            dinfo);
    /* where its shared memory fits; else the kernels below */
    if (n_max >= ch.mma_from && n_max <= ch.mma_max && n_max <= kMmaMaxN &&
        mma_smem_bytes<T>(n_max) <= limit)
        return launch_mma<T>(n_max, batch, upper, dinfo, count, limit, ch.mma_buffers, stream);
    const dim3 threads(kBlockX, kBlockY);
    if (ch.smem_max > 0 && ch.smem_max < smem_n) smem_n = ch.smem_max;
    if (n_max <= smem_n) {
        const size_t bytes = (size_t)n_max * (size_t)(n_max + 1) / 2 * sizeof(T);
        return launch_opted_in<potrf_batched_blocked_kernel<T, Batch>>(
            limit, count, kBlkThreads, bytes, stream, batch, upper, 0, dinfo);
    }
    if (n_max <= ch.hybrid_max) {
        /* the first cs columns in global memory, the rest packed */
        const int cs = (n_max - smem_n + kPw - 1) / kPw * kPw, rest = n_max - cs;
        const size_t bytes = (size_t)rest * (size_t)(rest + 1) / 2 * sizeof(T);
        return launch_opted_in<potrf_batched_blocked_kernel<T, Batch>>(
            limit, count, kBlkThreads, bytes, stream, batch, upper, cs, dinfo);
    }
    /* the panel kernel: the panel (n x (kPanel + 1)) and T in shared memory */
    const size_t panel_bytes = ((size_t)n_max + kPanel) * (kPanel + 1) * sizeof(T);
    if (n_max <= kPanelMaxRows && panel_bytes <= limit) {
        const int rows_per = (n_max + kPanelChunks - 1) / kPanelChunks;
        const unsigned nt = (unsigned)((rows_per + 31) / 32 * 32);
        return launch_opted_in<potrf_batched_panel_kernel<T, Batch>>(limit, count, nt, panel_bytes,
                                                                       stream, batch, upper, dinfo);
    }
    potrf_batched_global_kernel<T, Batch><<<(unsigned)count, threads, 0, stream>>>(batch, upper,
                                                                                   dinfo);
    return cudaGetLastError();
}

/* The batch in launches of at most kMaxGrid matrices (the register kernel
 * takes several a block, the others one). */
template <typename T>
cudaError_t run(int64_t n_max, T *dA, T *const *dA_array, const int64_t *dn, int64_t ldda,
                const int64_t *dldda, int64_t stride, int upper, int64_t *dinfo, int64_t count,
                const gchol_kernel_tune_t *kt, cudaStream_t stream)
{
    if (count <= 0 || (n_max <= 0 && !dn)) return cudaSuccess;
    if (n_max > 0x7fffffff) return cudaErrorInvalidValue;
    /* the orders a Sized batch accepts go to n_max; the kernel's form needs
     * one of order at least 1 */
    const int nm = (int)n_max, form = nm > 1 ? nm : 1;
    const int prec = sizeof(T) == 4;
    Choice ch;
    ch.reg_max = kt && kt->batched_reg_max_n > 0 ? kt->batched_reg_max_n
                                                 : GCHOL_KT_DEFAULT_BATCHED_REG_MAX_N;
    if (ch.reg_max > 32) ch.reg_max = 32;
    ch.warp_max = kt ? kt->batched_warp_max_n[prec] : 0;
    if (ch.warp_max > kWarpMaxN) ch.warp_max = kWarpMaxN;
    ch.rows_max = kt ? kt->batched_rows_max_n[prec] : 0;
    if (ch.rows_max > kRowsMax) ch.rows_max = kRowsMax;
    /* the rows kernel from its tuned order, else past the lane groups */
    ch.rows_from = kt ? kt->batched_rows_from_n[prec] : 0;
    if (ch.rows_from <= 0) ch.rows_from = ch.reg_max + 1;
    ch.mma_from = kt ? kt->batched_mma_from_n[prec] : 0;
    ch.mma_max = kt ? kt->batched_mma_max_n[prec] : 0;
    ch.mma_buffers = kt ? kt->batched_mma_buffers : 0;
    ch.smem_max = kt ? kt->batched_smem_max_n : 0;
    ch.hybrid_max = kt ? kt->batched_hybrid_max_n : 0;
    ch.tiles_from = kt && kt->batched_tiles_from_n[prec] > 0 ? kt->batched_tiles_from_n[prec] : 1;
    ch.tiles_max = kt ? kt->batched_tiles_max_n[prec] : 0;
    ch.dmma_from = kt ? kt->batched_dmma_from_n[prec] : 0;
    ch.dmma_max = kt ? kt->batched_dmma_max_n[prec] : 0;
    ch.dmma_blocks = kt ? kt->batched_dmma_blocks[prec] : 0;
    ch.panels_from = kt ? kt->batched_panels_from_n[prec] : 0;
    ch.replica_from = kt ? kt->batched_replica_from_n[prec] : 0;
    ch.replica_max = kt ? kt->batched_replica_max_n[prec] : 0;
    for (int64_t b0 = 0; b0 < count; b0 += kMaxGrid) {
        const int64_t c = count - b0 < kMaxGrid ? count - b0 : kMaxGrid;
        cudaError_t e;
        if (dn) {
            const Sized<T> batch = { dA_array + b0, dn + b0, dldda + b0, nm };
            e = launch<T>(form, batch, upper, dinfo + b0, c, ch, stream);
        } else if (dA_array) {
            const Pointers<T> batch = { dA_array + b0, nm, ldda };
            e = launch<T>(form, batch, upper, dinfo + b0, c, ch, stream);
        } else {
            const Strided<T> batch = { dA + b0 * stride, stride, nm, ldda };
            e = launch<T>(form, batch, upper, dinfo + b0, c, ch, stream);
        }
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

} // namespace

extern "C" int gchol_dpotrf_batched_launch(int64_t n, double *dA, double *const *dA_array,
                                           const int64_t *dn, int64_t ldda, const int64_t *dldda,
                                           int64_t stride, int upper, int64_t *dinfo,
                                           int64_t count, const gchol_kernel_tune_t *kt,
                                           cudaStream_t stream)
{
    return run<double>(n, dA, dA_array, dn, ldda, dldda, stride, upper, dinfo, count, kt, stream);
}

extern "C" int gchol_spotrf_batched_launch(int64_t n, float *dA, float *const *dA_array,
                                           const int64_t *dn, int64_t ldda, const int64_t *dldda,
                                           int64_t stride, int upper, int64_t *dinfo,
                                           int64_t count, const gchol_kernel_tune_t *kt,
                                           cudaStream_t stream)
{
    return run<float>(n, dA, dA_array, dn, ldda, dldda, stride, upper, dinfo, count, kt, stream);
}
