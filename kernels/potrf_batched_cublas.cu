/*
 * potrf_batched_cublas.cu -- the small kernels of the batched Cholesky by
 * block columns on cuBLAS's batched products (src/potrf_batched_cublas.c):
 * a step's pointer arrays, and each matrix's diagonal block copied to its
 * square in the workspace and its factor back, the block's info merged
 * into the matrix's. Grid-stride loops over the batch: any count.
 */
#include "gchol_kernels.h"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 1 << 20;

struct Offsets {
    int64_t at[GCHOL_BATCHED_PTRS_MAX];
    int count;
};

template <typename T>
__global__ void __launch_bounds__(kThreads)
    batched_ptrs_kernel(int64_t count, T *A, T *const *A_array, int64_t stride, Offsets off,
                        T **out)
{
    for (int64_t b = blockIdx.x * (int64_t)kThreads + threadIdx.x; b < count;
         b += (int64_t)gridDim.x * kThreads) {
        T *base = A_array ? A_array[b] : A + b * stride;
        for (int c = 0; c < off.count; ++c) out[c * count + b] = base + off.at[c];
    }
}

/* Element (i, j) of a kb x kb block in the uplo triangle. */
__device__ __forceinline__ bool in_triangle(int i, int j, int upper)
{
    return upper ? i <= j : i >= j;
}

/* W_b := the uplo triangle of D[b]'s block, the other triangle 0. */
template <typename T>
__global__ void __launch_bounds__(kThreads)
    batched_diag_get_kernel(int64_t count, int kb, int upper, T *const *D, int64_t ldd, T *W,
                            int64_t ldw, int64_t wstride)
{
    for (int64_t b = blockIdx.x; b < count; b += gridDim.x) {
        const T *d = D[b];
        T *w = W + b * wstride;
        for (int64_t e = threadIdx.x; e < (int64_t)kb * kb; e += kThreads) {
            const int i = (int)(e % kb), j = (int)(e / kb);
            w[i + j * ldw] = in_triangle(i, j, upper) ? d[i + j * ldd] : T(0);
        }
    }
}

/* D[b]'s uplo triangle := W_b's; the matrix's info from its block's. */
template <typename T>
__global__ void __launch_bounds__(kThreads)
    batched_diag_put_kernel(int64_t count, int kb, int upper, const T *W, int64_t ldw,
                            int64_t wstride, T *const *D, int64_t ldd, const int64_t *winfo,
                            int64_t *dinfo, int64_t k)
{
    for (int64_t b = blockIdx.x; b < count; b += gridDim.x) {
        const T *w = W + b * wstride;
        T *d = D[b];
        for (int64_t e = threadIdx.x; e < (int64_t)kb * kb; e += kThreads) {
            const int i = (int)(e % kb), j = (int)(e / kb);
            if (in_triangle(i, j, upper)) d[i + j * ldd] = w[i + j * ldw];
        }
        if (threadIdx.x == 0 && dinfo[b] == 0 && winfo[b] > 0) dinfo[b] = k + winfo[b];
    }
}

unsigned blocks_for(int64_t units)
{
    return (unsigned)(units < kMaxBlocks ? (units > 0 ? units : 1) : kMaxBlocks);
}

template <typename T>
int ptrs_launch(int64_t count, T *A, T *const *A_array, int64_t stride, const int64_t *off,
                int noff, T **out, cudaStream_t stream)
{
    if (count <= 0) return cudaSuccess;
    if (noff < 1 || noff > GCHOL_BATCHED_PTRS_MAX) return cudaErrorInvalidValue;
    Offsets o = {};
    for (int c = 0; c < noff; ++c) o.at[c] = off[c];
    o.count = noff;
    batched_ptrs_kernel<T><<<blocks_for((count + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
        count, A, A_array, stride, o, out);
    return cudaGetLastError();
}

template <typename T>
int diag_get_launch(int64_t count, int64_t kb, int upper, T *const *D, int64_t ldd, T *W,
                    int64_t ldw, int64_t wstride, cudaStream_t stream)
{
    if (count <= 0 || kb <= 0) return cudaSuccess;
    if (kb > 0x7fffffff) return cudaErrorInvalidValue;
    batched_diag_get_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(
        count, (int)kb, upper, D, ldd, W, ldw, wstride);
    return cudaGetLastError();
}

template <typename T>
int diag_put_launch(int64_t count, int64_t kb, int upper, const T *W, int64_t ldw,
                    int64_t wstride, T *const *D, int64_t ldd, const int64_t *winfo,
                    int64_t *dinfo, int64_t k, cudaStream_t stream)
{
    if (count <= 0 || kb <= 0) return cudaSuccess;
    if (kb > 0x7fffffff) return cudaErrorInvalidValue;
    batched_diag_put_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(
        count, (int)kb, upper, W, ldw, wstride, D, ldd, winfo, dinfo, k);
    return cudaGetLastError();
}

} // namespace

extern "C" {

int gchol_dbatched_ptrs_launch(int64_t count, double *dA, double *const *dA_array,
                               int64_t stride, const int64_t *off, int noff, double **out,
                               cudaStream_t stream)
{
    return ptrs_launch(count, dA, dA_array, stride, off, noff, out, stream);
}
int gchol_sbatched_ptrs_launch(int64_t count, float *dA, float *const *dA_array, int64_t stride,
                               const int64_t *off, int noff, float **out, cudaStream_t stream)
{
    return ptrs_launch(count, dA, dA_array, stride, off, noff, out, stream);
}
int gchol_dbatched_diag_get_launch(int64_t count, int64_t kb, int upper, double *const *D,
                                   int64_t ldd, double *W, int64_t ldw, int64_t wstride,
                                   cudaStream_t stream)
{
    return diag_get_launch(count, kb, upper, D, ldd, W, ldw, wstride, stream);
}
int gchol_sbatched_diag_get_launch(int64_t count, int64_t kb, int upper, float *const *D,
                                   int64_t ldd, float *W, int64_t ldw, int64_t wstride,
                                   cudaStream_t stream)
{
    return diag_get_launch(count, kb, upper, D, ldd, W, ldw, wstride, stream);
}
int gchol_dbatched_diag_put_launch(int64_t count, int64_t kb, int upper, const double *W,
                                   int64_t ldw, int64_t wstride, double *const *D, int64_t ldd,
                                   const int64_t *winfo, int64_t *dinfo, int64_t k,
                                   cudaStream_t stream)
{
    return diag_put_launch(count, kb, upper, W, ldw, wstride, D, ldd, winfo, dinfo, k, stream);
}
int gchol_sbatched_diag_put_launch(int64_t count, int64_t kb, int upper, const float *W,
                                   int64_t ldw, int64_t wstride, float *const *D, int64_t ldd,
                                   const int64_t *winfo, int64_t *dinfo, int64_t k,
                                   cudaStream_t stream)
{
    return diag_put_launch(count, kb, upper, W, ldw, wstride, D, ldd, winfo, dinfo, k, stream);
}

} // extern "C"
