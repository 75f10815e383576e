/*
 * rfp_convert.cu -- full triangle <-> RFP (LAPACK dtrttf / dtfttr).
 *
 * A triangular grid of 32 x 32 tiles (lower coordinates). Each tile passes
 * through shared memory so that both the read and the write run along the
 * contiguous direction of their own storage: the full matrix is contiguous
 * in i for uplo = L and in j for uplo = U; within one RFP block the stored
 * direction is found from the offsets themselves. Offsets are always computed
 * element by element (rfp_index.h), so a tile that straddles two RFP blocks
 * is still exact, only less coalesced.
 */
#include "gchol_kernels.h"
#include "rfp_index.h"
#include "tile_common.cuh"

namespace gchol {
namespace {

constexpr int kT = 32, kRowsPerPass = 8;

template <typename T>
__global__ void __launch_bounds__(kT * kRowsPerPass)
rfp_convert_kernel(int to_rfp, int transposed, int upper, int64_t n, T *__restrict__ A,
                   int64_t lda, T *__restrict__ R)
{
    __shared__ T tile[kT][kT + 1]; /* tile[jl][il] */
    int64_t ti, tj;
    lower_tile_of(blockIdx.x, ti, tj);
    const int64_t i0 = ti * kT, j0 = tj * kT;

    /* Is the RFP side contiguous in i within this tile? */
    bool rfp_i_contig = true;
    if (i0 + 1 < n)
        rfp_i_contig = gchol_rfp_offset(transposed, upper, n, i0 + 1, j0) -
                       gchol_rfp_offset(transposed, upper, n, i0, j0) == 1;
    const bool full_i_contig = !upper;
    const bool src_i = to_rfp ? full_i_contig : rfp_i_contig;
    const bool dst_i = to_rfp ? rfp_i_contig : full_i_contig;

    for (int p = threadIdx.y; p < kT; p += kRowsPerPass) {
        const int q = threadIdx.x;
        const int il = src_i ? q : p, jl = src_i ? p : q;
        const int64_t i = i0 + il, j = j0 + jl;
        if (i < n && j <= i)
            tile[jl][il] = to_rfp ? A[upper ? j + i * lda : i + j * lda]
                                  : R[gchol_rfp_offset(transposed, upper, n, i, j)];
    }
    __syncthreads();
    for (int p = threadIdx.y; p < kT; p += kRowsPerPass) {
        const int q = threadIdx.x;
        const int il = dst_i ? q : p, jl = dst_i ? p : q;
        const int64_t i = i0 + il, j = j0 + jl;
        if (i < n && j <= i) {
            if (to_rfp) R[gchol_rfp_offset(transposed, upper, n, i, j)] = tile[jl][il];
            else        A[upper ? j + i * lda : i + j * lda] = tile[jl][il];
        }
    }
}

/* gchol_drfp_convert_launch, gchol_srfp_convert_launch */
template <typename T>
int launch(int to_rfp, int transposed, int upper, int64_t n, T *dA, int64_t ldda, T *dARF,
           cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    const int64_t nt = (n + kT - 1) / kT, tiles = nt * (nt + 1) / 2;
    rfp_convert_kernel<T><<<(unsigned)tiles, dim3(kT, kRowsPerPass), 0, stream>>>(
        to_rfp, transposed, upper, n, dA, ldda, dARF);
    return cudaGetLastError();
}

} // namespace
} // namespace gchol

extern "C" int gchol_drfp_convert_launch(int to_rfp, int transposed, int upper, int64_t n,
                                         double *dA, int64_t ldda, double *dARF,
                                         cudaStream_t stream)
{
    return gchol::launch<double>(to_rfp, transposed, upper, n, dA, ldda, dARF, stream);
}

extern "C" int gchol_srfp_convert_launch(int to_rfp, int transposed, int upper, int64_t n,
                                         float *dA, int64_t ldda, float *dARF,
                                         cudaStream_t stream)
{
    return gchol::launch<float>(to_rfp, transposed, upper, n, dA, ldda, dARF, stream);
}
