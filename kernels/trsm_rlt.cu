/*
 * trsm_rlt.cu -- X := B * L^{-T} for a tall B (m x k) and a lower triangular
 * L (k x k, k <= 128), both addressed as lower views (see tile_common.cuh):
 * the panel solve of the Cholesky drivers and the leaf of their recursive
 * trsm, where cuBLAS trsm runs far below the GPU's rate.
 *
 * Rows of B are independent, so each thread block takes kRowsPerBlock of
 * them and the whole of L in shared memory, and solves them the way potf2
 * factors: blocked by kIB columns, (a) X[:, J] -= X[:, <J] * L[J, <J]^T on
 * all threads (DMMA in double), (b) X[:, J] := X[:, J] * L[J, J]^{-T} by
 * forward substitution, one thread per row.
 */
#include "gchol_kernels.h"

#include "tile_factor.cuh"

namespace {

using namespace gchol;

constexpr int kMaxK         = GCHOL_TRSM_MAX_K;
constexpr int kRowsPerBlock = 64;

template <typename T>
__global__ void __launch_bounds__(kThreads)
trsm_rlt_kernel(int64_t m, int k, const T *__restrict__ L, int64_t ldl_g, int upper_l,
                T *__restrict__ B, int64_t ld, int upper)
{
    extern __shared__ unsigned char smem_raw[];
    const int ldl = tile_ld(k), ldx = tile_ld(kRowsPerBlock);
    T *Ls = reinterpret_cast<T *>(smem_raw);   /* k x k, lower          */
    T *Xs = Ls + (size_t)ldl * k;              /* kRowsPerBlock x k     */
    T *rdiag = Xs + (size_t)ldx * k;           /* 1 / L[j][j]           */

    const int64_t row0 = (int64_t)blockIdx.x * kRowsPerBlock;
    const int rows = (int)min((int64_t)kRowsPerBlock, m - row0);
    /* view (row0, 0) of B */
    T *Bblk = upper ? B + row0 * ld : B + row0;

    load_view_tile(Ls, ldl, L, ldl_g, upper_l, k, k, kLowerTriangle);
    load_view_tile(Xs, ldx, Bblk, ld, upper, rows, k, kFull);
    __syncthreads(); /* the diagonal was loaded by other threads */
    trsm_tile<T, kRowsPerBlock>(Xs, ldx, rows, Ls, ldl, k, rdiag);
    store_view_tile(Bblk, ld, upper, Xs, ldx, rows, k, kFull);
}

/* gchol_dtrsm_rlt_launch, gchol_strsm_rlt_launch */
template <typename T>
int trsm_rlt_launch(int64_t m, int64_t k, const T *L, int64_t ldl, int upper_l, T *B, int64_t ld,
                    int upper, cudaStream_t stream)
{
    if (m <= 0 || k <= 0) return cudaSuccess;
    if (k > kMaxK) return cudaErrorInvalidValue;
    const int kk = (int)k;
    const size_t smem = ((size_t)tile_ld(kk) * kk + (size_t)tile_ld(kRowsPerBlock) * kk + kk) * sizeof(T);
    static DeviceFlags opted_in;
    const size_t most = ((size_t)tile_ld(kMaxK) * kMaxK + (size_t)tile_ld(kRowsPerBlock) * kMaxK + kMaxK)
                        * sizeof(T);
    cudaError_t e = opt_in_shared(trsm_rlt_kernel<T>, most, opted_in);
    if (e != cudaSuccess) return e;
    const int64_t blocks = (m + kRowsPerBlock - 1) / kRowsPerBlock;
    if (blocks > 0x7fffffff) return cudaErrorInvalidValue;
    trsm_rlt_kernel<T><<<(unsigned)blocks, kThreads, smem, stream>>>(m, kk, L, ldl, upper_l, B, ld,
                                                                      upper);
    return cudaGetLastError();
}

} // namespace

extern "C" int gchol_dtrsm_rlt_launch(int64_t m, int64_t k, const double *L, int64_t ldl,
                                      int upper_l, double *B, int64_t ld, int upper,
                                      cudaStream_t stream)
{
    return trsm_rlt_launch<double>(m, k, L, ldl, upper_l, B, ld, upper, stream);
}

extern "C" int gchol_strsm_rlt_launch(int64_t m, int64_t k, const float *L, int64_t ldl,
                                      int upper_l, float *B, int64_t ld, int upper,
                                      cudaStream_t stream)
{
    return trsm_rlt_launch<float>(m, k, L, ldl, upper_l, B, ld, upper, stream);
}
