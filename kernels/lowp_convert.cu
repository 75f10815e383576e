/*
 * lowp_convert.cu -- the conversions of the low-precision SPD solve
 * (src/dxposv.c, src/potrf_lowp.c):
 *   - the inverse square roots of A's diagonal, d_i = 1 / sqrt(a_ii), with a
 *     flag for a diagonal entry that is not positive and finite (A is then
 *     not positive definite, or not representable: the double path answers);
 *   - S := D A D in single precision, lower triangle, from A's uplo triangle
 *     (the upper one read transposed through shared memory): a unit
 *     diagonal and |s_ij| <= 1 for an SPD A (Higham, Pranesh and Zounon's
 *     two-sided scaling), so that FP16's range holds every entry of its
 *     factor;
 *   - a panel of S to FP16 or BF16 with a power-of-two scale;
 *   - the preconditioner's conversions: t := (float)(2^-e d .* v) and
 *     z := 2^e d .* (double) t, 2^e near max |d_i v_i| (found on the device),
 *     so that single's range never clips a vector whatever its scale;
 *   - a shift of S's diagonal, for a retry after a failed pivot;
 *   - a single-precision S scaled in place to a unit diagonal (the weighted
 *     least squares' C_s, src/dswls.c).
 */
#include "gchol_kernels.h"

#include <cfloat>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace {

constexpr int kTile = 32;

__global__ void diag_inv_sqrt_kernel(int64_t n, const double *__restrict__ A, int64_t lda,
                                     double *__restrict__ d, int *flag)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const double a = A[i + i * lda];
    if (!(a > 0) || !(a <= DBL_MAX)) { /* NaN, <= 0 or Inf */
        *flag = 1;
        d[i] = 0;
        return;
    }
    d[i] = 1 / sqrt(a);
}

/* One 32 x 32 tile (bi, bj), bi >= bj, of S's lower triangle per block;
 * threads 32 x 8. upper: A's upper triangle holds A, read as A(j, i)
 * through shared memory so that both the reads and the writes run down
 * columns. The upper triangle of the diagonal tiles and the tiles just
 * above them are zeroed: cuBLAS's triangular solves read diagonal tiles
 * whole. */
__global__ void scale_lower_kernel(int64_t n, const double *__restrict__ A, int64_t lda, int upper,
                                   const double *__restrict__ d, float *__restrict__ S,
                                   int64_t lds, int *flag)
{
    __shared__ double tile[kTile][kTile + 1];
    const int64_t bi = blockIdx.x, bj = blockIdx.y;
    if (bi + 1 < bj) return;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t i0 = bi * kTile, j0 = bj * kTile;
    if (upper) { /* tile (bj, bi) of A's upper triangle, columns i0.. */
        for (int r = ty; r < kTile; r += blockDim.y) {
            const int64_t row = j0 + tx, col = i0 + r;
            tile[r][tx] = row < n && col < n && row <= col ? A[row + col * lda] : 0.0;
        }
        __syncthreads();
    }
    int over = 0;
    for (int c = ty; c < kTile; c += blockDim.y) {
        const int64_t i = i0 + tx, j = j0 + c;
        if (i >= n || j >= n) continue;
        if (i < j) {
            S[i + j * lds] = 0.0f;
            continue;
        }
        const double a = upper ? tile[tx][c] : A[i + j * lda];
        const double s = d[i] * a * d[j];
        if (!(fabs(s) <= (double)FLT_MAX)) over = 1; /* NaN or beyond single */
        S[i + j * lds] = (float)s;
    }
    if (over) *flag = 1;
}

template <typename H>
__device__ __forceinline__ H to_lowp(float v);
template <>
__device__ __forceinline__ __half to_lowp<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ __nv_bfloat16 to_lowp<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

template <typename H>
__global__ void panel_to_lowp_kernel(int64_t m, int64_t n, const float *__restrict__ S, int64_t lds,
                                     H *__restrict__ P, int64_t ldp, float scale,
                                     float *__restrict__ C, int64_t ldc)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    for (int64_t j = blockIdx.y; j < n; j += gridDim.y) {
        const float v = S[i + j * lds];
        P[i + j * ldp] = to_lowp<H>(scale * v);
        if (C) C[i + j * ldc] = v;
    }
}

/* *amax := max |W| over the n x n W as its bits (a non-negative float
 * orders as its bit pattern; NaN, above Inf, wins), amax zeroed before. */
__global__ void inverse_amax_kernel(int64_t n, const float *__restrict__ W, int64_t ldw,
                                    unsigned *amax)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned bits = 0;
    if (i < n)
        for (int64_t j = blockIdx.y; j < n; j += gridDim.y) {
            const unsigned b = __float_as_uint(fabsf(W[i + j * ldw]));
            bits = b > bits ? b : bits;
        }
    for (int o = 16; o > 0; o >>= 1) {
        const unsigned other = __shfl_down_sync(0xffffffffu, bits, o);
        bits = other > bits ? other : bits;
    }
    if (threadIdx.x % 32 == 0 && bits) atomicMax(amax, bits);
}

/* Wh := 2^f W with 2^f from *amax (inverse_to_lowp); block (0, 0)'s first
 * thread leaves alpha = 1 / (panel_scale 2^f) and beta = 0 for the product. */
template <typename H>
__global__ void inverse_to_lowp_kernel(int64_t n, const float *__restrict__ W, int64_t ldw,
                                       H *__restrict__ Wh, int64_t ldh, const unsigned *amax,
                                       float panel_scale, float *alpha_beta)
{
    const float m = __uint_as_float(*amax);
    int e = 0;
    const bool finite = m > 0 && m <= FLT_MAX;
    if (finite) frexpf(m, &e); /* m in [2^(e-1), 2^e) */
    const int f = finite ? 15 - e : 0;
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0 && blockIdx.y == 0) {
        alpha_beta[0] = ldexpf(1.0f / panel_scale, -f);
        alpha_beta[1] = 0.0f;
    }
    if (i >= n) return;
    for (int64_t j = blockIdx.y; j < n; j += gridDim.y)
        Wh[i + j * ldh] = to_lowp<H>(ldexpf(W[i + j * ldw], f));
}

/* *amax := max |d_i v_i| as its bits (a non-negative double orders as its
 * bit pattern; NaN, above Inf, wins), amax zeroed before. */
__global__ void scaled_amax_kernel(int64_t n, const double *__restrict__ d,
                                   const double *__restrict__ v, unsigned long long *amax)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long bits = 0;
    if (i < n) bits = (unsigned long long)__double_as_longlong(fabs(d[i] * v[i]));
    for (int o = 16; o > 0; o >>= 1) {
        const unsigned long long other = __shfl_down_sync(0xffffffffu, bits, o);
        bits = other > bits ? other : bits;
    }
    if (threadIdx.x % 32 == 0 && bits) atomicMax(amax, bits);
}

/* The exponent e with 2^e near amax (0 for 0, NaN or Inf: the NaN or Inf
 * then reaches t as it is). */
__device__ __forceinline__ int scale_exponent(const unsigned long long *amax)
{
    const double m = __longlong_as_double((long long)*amax);
    int e = 0;
    if (m > 0 && m <= DBL_MAX) frexp(m, &e);
    return e;
}

__global__ void scaled_d2s_kernel(int64_t n, const double *__restrict__ d,
                                  const double *__restrict__ v, float *__restrict__ t,
                                  const unsigned long long *amax)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) t[i] = (float)ldexp(d[i] * v[i], -scale_exponent(amax));
}

__global__ void scaled_s2d_kernel(int64_t n, const double *__restrict__ d,
                                  const float *__restrict__ t, double *__restrict__ z,
                                  const unsigned long long *amax)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = d[i] * ldexp((double)t[i], scale_exponent(amax));
}

__global__ void add_diag_kernel(int64_t n, float *__restrict__ S, int64_t lds, float shift)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) S[i + i * lds] += shift;
}

/* e_i := S(i, i)^(-1/4), or 1 where S(i, i) is not positive and finite (its
 * pivot then fails in the factorization, as it would unscaled). */
__global__ void quarter_inv_root_kernel(int64_t n, const float *__restrict__ S, int64_t lds,
                                        float *__restrict__ e)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float s = S[i + i * lds];
    e[i] = s > 0 && s <= FLT_MAX ? rsqrtf(sqrtf(s)) : 1.0f;
}

/* S(i, j) *= e_i^2 e_j^2 on the lower triangle, and the strictly upper one
 * zeroed (the factorization's updates read it in their diagonal blocks, and
 * cuBLAS's triangular solves read diagonal tiles whole); threads 32 x 8 over
 * 32 x 32 tiles. */
__global__ void scale_lower_sq_kernel(int64_t n, float *__restrict__ S, int64_t lds,
                                      const float *__restrict__ e)
{
    const int64_t bi = blockIdx.x, bj = blockIdx.y;
    const int64_t i = bi * kTile + threadIdx.x;
    if (i >= n) return;
    const float di = e[i] * e[i];
    for (int c = threadIdx.y; c < kTile; c += blockDim.y) {
        const int64_t j = bj * kTile + c;
        if (j >= n) break;
        S[i + j * lds] = j > i ? 0.0f : di * S[i + j * lds] * (e[j] * e[j]);
    }
}

unsigned blocks_of(int64_t count, int threads) { return (unsigned)((count + threads - 1) / threads); }

} // namespace

extern "C" int gchol_diag_inv_sqrt_launch(int64_t n, const double *A, int64_t lda, double *d,
                                          int *dflag, cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    if ((n + 255) / 256 > 0x7fffffff) return cudaErrorInvalidValue;
    diag_inv_sqrt_kernel<<<blocks_of(n, 256), 256, 0, stream>>>(n, A, lda, d, dflag);
    return cudaGetLastError();
}

extern "C" int gchol_scale_lower_d2s_launch(int64_t n, const double *A, int64_t lda, int upper,
                                            const double *d, float *S, int64_t lds, int *dflag,
                                            cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    const int64_t tiles = (n + kTile - 1) / kTile;
    if (tiles > 65535) return cudaErrorInvalidValue; /* n <= 2 097 120 */
    scale_lower_kernel<<<dim3((unsigned)tiles, (unsigned)tiles), dim3(kTile, 8), 0, stream>>>(
        n, A, lda, upper, d, S, lds, dflag);
    return cudaGetLastError();
}

extern "C" int gchol_panel_to_lowp_launch(int64_t m, int64_t n, const float *S, int64_t lds,
                                          void *P, int64_t ldp, int bf16, float scale,
                                          float *copy, int64_t ldc, cudaStream_t stream)
{
    if (m <= 0 || n <= 0) return cudaSuccess;
    if ((m + 255) / 256 > 0x7fffffff) return cudaErrorInvalidValue;
    const dim3 grid(blocks_of(m, 256), (unsigned)(n < 65535 ? n : 65535));
    if (bf16)
        panel_to_lowp_kernel<<<grid, 256, 0, stream>>>(m, n, S, lds, (__nv_bfloat16 *)P, ldp, scale,
                                                       copy, ldc);
    else
        panel_to_lowp_kernel<<<grid, 256, 0, stream>>>(m, n, S, lds, (__half *)P, ldp, scale, copy,
                                                       ldc);
    return cudaGetLastError();
}

extern "C" int gchol_inverse_to_lowp_launch(int64_t n, const float *W, int64_t ldw, void *Wh,
                                            int64_t ldh, int bf16, float panel_scale, void *words,
                                            cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    if ((n + 255) / 256 > 0x7fffffff) return cudaErrorInvalidValue;
    unsigned *amax = (unsigned *)words;
    float *alpha_beta = (float *)words + 1;
    cudaError_t e = cudaMemsetAsync(amax, 0, sizeof(unsigned), stream);
    if (e != cudaSuccess) return e;
    /* a few columns a block: the max's atomics stay few */
    const dim3 grid(blocks_of(n, 256), (unsigned)(n < 256 ? n : 256));
    inverse_amax_kernel<<<grid, 256, 0, stream>>>(n, W, ldw, amax);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    const dim3 grid2(blocks_of(n, 256), (unsigned)(n < 65535 ? n : 65535));
    if (bf16)
        inverse_to_lowp_kernel<<<grid2, 256, 0, stream>>>(n, W, ldw, (__nv_bfloat16 *)Wh, ldh, amax,
                                                         panel_scale, alpha_beta);
    else
        inverse_to_lowp_kernel<<<grid2, 256, 0, stream>>>(n, W, ldw, (__half *)Wh, ldh, amax,
                                                         panel_scale, alpha_beta);
    return cudaGetLastError();
}

extern "C" int gchol_scaled_d2s_launch(int64_t n, const double *d, const double *v, float *t,
                                       void *amax, cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    if ((n + 255) / 256 > 0x7fffffff) return cudaErrorInvalidValue;
    cudaError_t e = cudaMemsetAsync(amax, 0, sizeof(unsigned long long), stream);
    if (e != cudaSuccess) return e;
    scaled_amax_kernel<<<blocks_of(n, 256), 256, 0, stream>>>(n, d, v, (unsigned long long *)amax);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    scaled_d2s_kernel<<<blocks_of(n, 256), 256, 0, stream>>>(n, d, v, t,
                                                             (const unsigned long long *)amax);
    return cudaGetLastError();
}

extern "C" int gchol_scaled_s2d_launch(int64_t n, const double *d, const float *t, double *z,
                                       const void *amax, cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    if ((n + 255) / 256 > 0x7fffffff) return cudaErrorInvalidValue;
    scaled_s2d_kernel<<<blocks_of(n, 256), 256, 0, stream>>>(n, d, t, z,
                                                             (const unsigned long long *)amax);
    return cudaGetLastError();
}

extern "C" int gchol_s_add_diag_launch(int64_t n, float *S, int64_t lds, float shift,
                                       cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    if ((n + 255) / 256 > 0x7fffffff) return cudaErrorInvalidValue;
    add_diag_kernel<<<blocks_of(n, 256), 256, 0, stream>>>(n, S, lds, shift);
    return cudaGetLastError();
}

extern "C" int gchol_s_unit_diag_launch(int64_t n, float *S, int64_t lds, float *e,
                                        cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    const int64_t tiles = (n + kTile - 1) / kTile;
    if (tiles > 65535) return cudaErrorInvalidValue; /* n <= 2 097 120 */
    quarter_inv_root_kernel<<<blocks_of(n, 256), 256, 0, stream>>>(n, S, lds, e);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return err;
    scale_lower_sq_kernel<<<dim3((unsigned)tiles, (unsigned)tiles), dim3(kTile, 8), 0, stream>>>(
        n, S, lds, e);
    return cudaGetLastError();
}
