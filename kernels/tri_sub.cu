/*
 * tri_sub.cu -- C := C - W on the referenced triangle of an nn x nn lower
 * view C (see tile_common.cuh), W symmetric and column-major. It finishes a
 * symmetric update computed by gemm into scratch, for the shapes where
 * cuBLAS syrk is slow (single precision, small nn, long k); the other
 * triangle of C is never touched.
 */
#include "gchol_kernels.h"

#include <cuda_runtime.h>

namespace {

constexpr int kTile = 32;

template <typename T>
__global__ void tri_sub_kernel(int64_t nn, const T *__restrict__ W, int64_t ldw,
                               T *__restrict__ C, int64_t ldc, int upper)
{
    /* Block (bx, by) covers stored rows bx*32.., stored columns by*32..;
     * threadIdx.x runs along the contiguous stored direction. */
    const int64_t a = (int64_t)blockIdx.x * kTile + threadIdx.x; /* stored row */
    if (a >= nn) return;
    for (int64_t b = (int64_t)blockIdx.y * kTile + threadIdx.y; b < nn && b < (int64_t)(blockIdx.y + 1) * kTile;
         b += blockDim.y) {
        const bool referenced = upper ? a <= b : a >= b;
        if (referenced) C[a + b * ldc] -= W[a + b * ldw]; /* W symmetric: stored = view */
    }
}

/* gchol_dtri_sub_launch, gchol_stri_sub_launch */
template <typename T>
int tri_sub_launch(int64_t nn, const T *W, int64_t ldw, T *C, int64_t ldc, int upper,
                   cudaStream_t stream)
{
    if (nn <= 0) return cudaSuccess;
    const int64_t tiles = (nn + kTile - 1) / kTile;
    if (tiles > 65535) return cudaErrorInvalidValue;
    dim3 grid((unsigned)tiles, (unsigned)tiles), block(kTile, 8);
    tri_sub_kernel<T><<<grid, block, 0, stream>>>(nn, W, ldw, C, ldc, upper);
    return cudaGetLastError();
}

} // namespace

extern "C" int gchol_dtri_sub_launch(int64_t nn, const double *W, int64_t ldw, double *C,
                                     int64_t ldc, int upper, cudaStream_t stream)
{
    return tri_sub_launch<double>(nn, W, ldw, C, ldc, upper, stream);
}

extern "C" int gchol_stri_sub_launch(int64_t nn, const float *W, int64_t ldw, float *C,
                                     int64_t ldc, int upper, cudaStream_t stream)
{
    return tri_sub_launch<float>(nn, W, ldw, C, ldc, upper, stream);
}
