/*
 * tile_common.cuh -- device building blocks shared by the one-block tile
 * kernels (potf2, trsm): block shape, view-aware tile loads and stores, and
 * the inner-panel update C -= A * B^T that both kernels are built around.
 *
 * A "view" is the lower-view addressing of the host drivers: for uplo = L
 * element (i, j) lives at p[i + j*ld]; for uplo = U at p[j + i*ld]. Tiles in
 * shared memory are always column-major in view coordinates.
 */
#ifndef GCHOL_TILE_COMMON_CUH
#define GCHOL_TILE_COMMON_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include <atomic>
#include <type_traits>

namespace gchol {

constexpr int kThreads  = 256; /* threads of every tile kernel          */
constexpr int kWarpSize = 32;
constexpr int kIB       = 8;   /* inner block                           */
constexpr int kBatch    = 16;  /* global loads in flight per thread     */

/*
 * The column stride of an n-row tile in shared memory: n rounded up to 16,
 * plus 4, so that ld = 4 (mod 16). 64-bit shared loads are served 16 lanes
 * at a time; a DMMA fragment load takes lanes (g, q), g < 4, from
 * g + q*ld, and with ld = 4 (mod 16) those are 16 distinct bank pairs (an
 * odd ld such as n + 1 gave 4-way conflicts). Row walks by one thread per
 * row stay conflict-free with any ld. The 64 x 64 trsm_tile in double runs
 * 30% faster than with ld = n + 1.
 */
__host__ __device__ constexpr int tile_ld(int n) { return (n + 15) / 16 * 16 + 4; }

/* x is a normal number (not 0, subnormal, Inf or NaN): a reciprocal used in
 * place of a division keeps the division's accuracy only there. */
template <typename T> struct NormalRange;
template <> struct NormalRange<double> {
    static constexpr double lo = 2.2250738585072014e-308, hi = 1.7976931348623157e308;
};
template <> struct NormalRange<float> {
    static constexpr float lo = 1.17549435e-38f, hi = 3.40282347e38f;
};
template <typename T> __device__ __forceinline__ bool is_normal(T x)
{
    const T a = x < T(0) ? -x : x;
    return a >= NormalRange<T>::lo && a <= NormalRange<T>::hi;
}

/* Which part of a rows x cols view block a tile copy moves. */
enum TilePart { kFull = 0, kLowerTriangle = 1 };

/*
 * Copies view block (0:rows, 0:cols) of p into S[r + c*lds]. Lanes walk the
 * stored (contiguous) direction, warps the other, so global accesses
 * coalesce for both uplo with no integer division; kBatch loads per thread
 * are issued before the first shared store. Outside `part` (the strict upper
 * triangle of the view) S gets 0.
 */
template <typename T>
__device__ __forceinline__ void load_view_tile(T *S, int lds, const T *p, int64_t ld, int upper,
                                               int rows, int cols, TilePart part)
{
    constexpr int kWarps = kThreads / kWarpSize;
    const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
    const int inner = upper ? cols : rows, outer = upper ? rows : cols; /* stored extents */
    for (int b0 = warp; b0 < outer; b0 += kWarps * kBatch) {
        for (int a = lane; a < inner; a += kWarpSize) {
            T v[kBatch];
#pragma unroll
            for (int u = 0; u < kBatch; ++u) {
                const int b = b0 + u * kWarps;
                const int r = upper ? b : a, c = upper ? a : b; /* view (row, col) */
                const bool in = b < outer && (part == kFull || r >= c);
                v[u] = in ? p[a + (int64_t)b * ld] : T(0);
            }
#pragma unroll
            for (int u = 0; u < kBatch; ++u) {
                const int b = b0 + u * kWarps;
                const int r = upper ? b : a, c = upper ? a : b;
                if (b < outer) S[r + c * lds] = v[u];
            }
        }
    }
}

/* The reverse of load_view_tile; writes only `part` of the block. */
template <typename T>
__device__ __forceinline__ void store_view_tile(T *p, int64_t ld, int upper, const T *S, int lds,
                                                int rows, int cols, TilePart part)
{
    constexpr int kWarps = kThreads / kWarpSize;
    const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
    const int inner = upper ? cols : rows, outer = upper ? rows : cols;
    for (int b = warp; b < outer; b += kWarps) {
        for (int a = lane; a < inner; a += kWarpSize) {
            const int r = upper ? b : a, c = upper ? a : b;
            if (part == kFull || r >= c) p[a + (int64_t)b * ld] = S[r + c * lds];
        }
    }
}

/* Sets every element of a (possibly nested) register array to zero. */
template <typename T> __device__ __forceinline__ void zero_all(T &x) { x = T(0); }
template <typename T, int N> __device__ __forceinline__ void zero_all(T (&x)[N])
{
#pragma unroll
    for (int i = 0; i < N; ++i) zero_all(x[i]);
}

/* acc (16 x 8) += a (16 x 4) * b (4 x 8) on the FP64 tensor cores. Not
 * volatile, so the compiler may schedule loads around it. The m16n8k4 shape
 * needs sm_90 (twice the rate of m8n8k4 there); sm_80 runs two m8n8k4 with
 * the same fragments (rows g and g+8). */
__device__ __forceinline__ void dmma_16x8x4(double (&acc)[4], double a0, double a1, double b)
{
#if __CUDA_ARCH__ >= 900
    asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "
        "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
        : "+d"(acc[0]), "+d"(acc[1]), "+d"(acc[2]), "+d"(acc[3])
        : "d"(a0), "d"(a1), "d"(b));
#else
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
        : "+d"(acc[0]), "+d"(acc[1]) : "d"(a0), "d"(b));
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
        : "+d"(acc[2]), "+d"(acc[3]) : "d"(a1), "d"(b));
#endif
}

/* Single precision on the TF32 tensor cores as 3xTF32 (syrk_diag and the
 * tiled potrf): x = hi + lo with hi = x rounded to nearest (ties away)
 * at TF32's 10 fraction bits and lo = x - hi exact; a*b is then
 * a_lo*b_hi + a_hi*b_lo + a_hi*b_hi to within about 2^-21 |a b|. The split
 * is two integer operations and one FADD (cvt.rna.tf32 was slower). */
__device__ __forceinline__ void tf32_split(float x, unsigned &hi, unsigned &lo)
{
    hi = (__float_as_uint(x) + 0x1000u) & 0xffffe000u;
    lo = __float_as_uint(x - __uint_as_float(hi));
}

/* c (16 x 8) += a (16 x 8) * b (8 x 8), TF32 inputs, FP32 accumulation
 * (which truncates: callers sum short runs of k into rounded FP32 sums).
 * Lane (g, q) holds a rows g, g+8 at k q, q+4; b k q, q+4 at column g; c
 * rows g, g+8 at columns 2q, 2q+1. */
__device__ __forceinline__ void mma_16x8x8_tf32(float (&c)[4], const unsigned (&a)[4], unsigned b0,
                                                unsigned b1)
{
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

/* Double precision: the update is a rows x 8 x kk product on DMMA, one
 * 16-row tile per warp with mma m16n8k4 (dmma_16x8x4: on sm_90 twice the
 * rate of m8n8k4, which keeps the FP64 tensor pipe busy), two k phases for
 * two independent accumulator chains. Rows past `rows` are read clamped,
 * never stored. */
template <int MaxRows>
__device__ __forceinline__ void inner_update_dmma(double *C, int ldc, const double *A, int lda,
                                                  const double *B, int ldb, int rows, int ib,
                                                  int kk, bool lower_only)
{
    static_assert(kIB == 8, "the DMMA update assumes an inner block of 8");
    constexpr int kWarps = kThreads / kWarpSize;
    const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
    const int g = lane >> 2, q = lane & 3;
    const int ntiles = (rows + 15) / 16;
    const int cb = min(g, ib - 1); /* B(k, g) = B[g + k*ldb] */
    for (int t = warp; t < ntiles; t += kWarps) {
        const int ra0 = min(16 * t + g, rows - 1), ra1 = min(16 * t + 8 + g, rows - 1);
        double acc[2][4] = {}; /* [k phase][fragment] */
        for (int k = q; k < kk; k += 8) {
            dmma_16x8x4(acc[0], A[ra0 + k * lda], A[ra1 + k * lda], B[cb + k * ldb]);
            dmma_16x8x4(acc[1], A[ra0 + (k + 4) * lda], A[ra1 + (k + 4) * lda],
                        B[cb + (k + 4) * ldb]);
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int r = 16 * t + g + 8 * (e / 2), c = 2 * q + (e % 2);
            if (r < rows && c < ib && (!lower_only || r >= c))
                C[r + c * ldc] -= acc[0][e] + acc[1][e];
        }
    }
}

/* Single precision on the TF32 tensor cores as 3xTF32 (tf32_split: FP32
 * accuracy, as the tiled kernel's tile products): one 16-row tile per warp,
 * mma m16n8k8, the three products in three accumulators (independent
 * chains), summed in FP32 at the end (kk <= 128 here, a short run for the
 * truncating accumulation). On FFMA this update took about 60% of potf2's
 * time in single.
 * Fragment maps as TileAcc3xTF32's column-major operands (conflict-free with
 * ld = 4 mod 32 words): A's slots g and g + 8 are rows 2g and 2g + 1, read
 * as one pair; k slots q and q + 4 are k = 2q and 2q + 1; B's slot g is
 * column g. A, B and lda, ldb must keep the pairs 8-byte aligned; rows past
 * `rows` are read (clamped to the last even row pair, within the column
 * stride), never stored. */
/* One 8-deep step of a 3xTF32 16 x 8 product with column-major operands,
 * the three products into acc[0..2] (lo*hi, hi*lo, hi*hi): A's rows 2g and
 * 2g + 1 (slots g and g + 8) as one pair at a[0] (k slot q: k = 2q) and
 * a[lda] (slot q + 4: k = 2q + 1), B's column g (slot g) at b[0] and b[ldb].
 * With ld = 4 mod 32 words the pairs of a half-warp hit all 32 banks. */
__device__ __forceinline__ void mma_3xtf32_step(float (&acc)[3][4], const float *a, int lda,
                                                const float *b, int ldb)
{
    const float2 v0 = *reinterpret_cast<const float2 *>(a);
    const float2 v1 = *reinterpret_cast<const float2 *>(a + lda);
    unsigned ah[4], al[4], bh0, bl0, bh1, bl1;
    tf32_split(v0.x, ah[0], al[0]); /* (2g,     2q)     slot (g,     q)     */
    tf32_split(v0.y, ah[1], al[1]); /* (2g + 1, 2q)     slot (g + 8, q)     */
    tf32_split(v1.x, ah[2], al[2]); /* (2g,     2q + 1) slot (g,     q + 4) */
    tf32_split(v1.y, ah[3], al[3]); /* (2g + 1, 2q + 1) slot (g + 8, q + 4) */
    tf32_split(b[0], bh0, bl0);
    tf32_split(b[ldb], bh1, bl1);
    mma_16x8x8_tf32(acc[0], al, bh0, bh1);
    mma_16x8x8_tf32(acc[1], ah, bl0, bl1);
    mma_16x8x8_tf32(acc[2], ah, bh0, bh1);
}

template <int MaxRows>
__device__ __forceinline__ void inner_update_tf32(float *C, int ldc, const float *A, int lda,
                                                  const float *B, int ldb, int rows, int ib,
                                                  int kk, bool lower_only)
{
    static_assert(kIB == 8, "one n8 tile");
    constexpr int kWarps = kThreads / kWarpSize;
    const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
    const int g = lane >> 2, q = lane & 3;
    const int ntiles = (rows + 15) / 16;
    const int cb = min(g, ib - 1);
    for (int t = warp; t < ntiles; t += kWarps) {
        const int pr = min(16 * t + 2 * g, (rows - 1) & ~1); /* this lane's row pair */
        const float *a = A + pr + 2 * q * lda;
        const float *b = B + cb + 2 * q * ldb;
        float acc[3][4] = {}; /* lo*hi, hi*lo, hi*hi */
        for (int k = 0; k < kk; k += 8) mma_3xtf32_step(acc, a + k * lda, lda, b + k * ldb, ldb);
        /* c0, c1: row slot g (row 2g), columns 2q, 2q + 1; c2, c3: slot g + 8 */
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int r = 16 * t + 2 * g + e / 2, c = 2 * q + (e % 2);
            if (r < rows && c < ib && (!lower_only || r >= c))
                C[r + c * ldc] -= (acc[0][e] + acc[1][e]) + acc[2][e];
        }
    }
}

/*
 * C(r, c) -= sum_k X(r, k) X(c, k) for r >= c of a 64 x 64 tile, k < 64 (the
 * chain block's W -= L L^T), on the FP64 tensor cores in both precisions:
 * only the 20 of the 32 m16n8 tiles that hold lower elements, five for the
 * two warps of each scheduler (w, w + 4). C(r, c) = C[r + c*ldc], X(r, k) =
 * X[r + k*ldx], ldx = 4 mod 16 (double) or mod 32 (single).
 * mma m16n8k4, two k phases; each warp takes 2 or 3 tiles of one 16-row
 * block and loads their A fragment once per k step for all of them (one
 * tile at a time put 3 shared loads on each DMMA, and the shared-memory
 * bandwidth set the pace: 15% slower).
 * Single converts its operands to double: the products are exact and the
 * sums double, and it is faster than a 3xTF32 form, whose chains of shared
 * load, split and mma run at latency, not at the pipe's rate.
 * k slots: double q and q + 4 (8-byte words, conflict-free with ld = 4 mod
 * 16); single 2q and 2q + 1 (banks g + 8q, distinct with ld = 4 mod 32).
 * kRowX: X(r, k) = X[k + r*ldx] instead (row-major; the chain block of upper
 * keeps L(k, k-1) as it lies in memory), k slots q and q + 4 in both
 * precisions (banks 4g + q: distinct for single, and for double's 8-byte
 * words within each half-warp).
 */
struct LowerTilesOfWarp {
    int i, j0, count; /* tiles (i, j0 .. j0 + count - 1) of 16 x 8 */
};
__device__ __forceinline__ LowerTilesOfWarp lower_tiles_of_warp(int warp)
{
    static_assert(kThreads / kWarpSize == 8, "20 tiles over 8 warps");
    /* warp:  0    1    2    3    4    5    6    7
     * i:     3    3    3    1    1    0    2    2
     * j0:    0    3    6    0    2    0    0    3
     * count: 3    3    2    2    2    2    3    3   (per scheduler 5) */
    constexpr unsigned long long kI = 0x0202000101030303ull, kJ0 = 0x0300000200060300ull,
                                 kCount = 0x0303020202020303ull;
    const int sh = 8 * warp;
    return { int((kI >> sh) & 0xff), int((kJ0 >> sh) & 0xff), int((kCount >> sh) & 0xff) };
}
/* f(r, c, v) with v = (X X^T)(r, c) rounded to T, for each r >= c of the
 * 64 x 64 tile (lower_product_sub below; the tiled kernel's helper block
 * sends C - v to another block instead, with the same rounding) */
template <typename T, bool kRowX = false, typename F>
__device__ __forceinline__ void lower_product_each(const T *X, int ldx, F f)
{
    constexpr bool kPairs = sizeof(T) == 4 && !kRowX; /* k slots 2q, 2q + 1 */
    constexpr int kSlot = kPairs ? 2 : 1, kPhase = kPairs ? 1 : 4;
    /* X(m, k) = X[m * sm + k * sk] */
    const int sm = kRowX ? ldx : 1, sk = kRowX ? 1 : ldx;
    const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
    const int g = lane >> 2, q = lane & 3;
    const LowerTilesOfWarp w = lower_tiles_of_warp(warp);
    const T *a = X + (16 * w.i + g) * sm + kSlot * q * sk,
            *b = X + (8 * w.j0 + g) * sm + kSlot * q * sk;
    double acc[3][2][4] = {}; /* [tile][k phase][fragment] */
#pragma unroll 2
    for (int k = 0; k < 64; k += 8) {
        const double a00 = a[k * sk], a01 = a[8 * sm + k * sk];
        const double a10 = a[(k + kPhase) * sk], a11 = a[8 * sm + (k + kPhase) * sk];
#pragma unroll
        for (int s = 0; s < 3; ++s)
            if (s < w.count) {
                dmma_16x8x4(acc[s][0], a00, a01, b[8 * s * sm + k * sk]);
                dmma_16x8x4(acc[s][1], a10, a11, b[8 * s * sm + (k + kPhase) * sk]);
            }
    }
#pragma unroll
    for (int s = 0; s < 3; ++s)
        if (s < w.count)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int r = 16 * w.i + g + 8 * (e / 2), c = 8 * (w.j0 + s) + 2 * q + (e % 2);
                if (r >= c) f(r, c, T(acc[s][0][e] + acc[s][1][e]));
            }
}
template <typename T, bool kRowX = false>
__device__ __forceinline__ void lower_product_sub(T *C, int ldc, const T *X, int ldx)
{
    lower_product_each<T, kRowX>(X, ldx, [C, ldc](int r, int c, T v) { C[r + c * ldc] -= v; });
}

/* The inner-panel update, the (a) step of the tile kernels (tile_factor.cuh):
 *   C[r + c*ldc] -= sum_{k < kk} A[r + k*lda] * B[c + k*ldb]
 * for r < rows (<= MaxRows), c < ib (<= kIB), kk a multiple of kIB; with
 * lower_only, only r >= c is stored. DMMA in double, 3xTF32 in single. */
template <typename T, int MaxRows>
__device__ __forceinline__ void inner_update(T *C, int ldc, const T *A, int lda, const T *B,
                                             int ldb, int rows, int ib, int kk, bool lower_only)
{
    if constexpr (std::is_same<T, double>::value)
        inner_update_dmma<MaxRows>(C, ldc, A, lda, B, ldb, rows, ib, kk, lower_only);
    else
        inner_update_tf32<MaxRows>(C, ldc, A, lda, B, ldb, rows, ib, kk, lower_only);
}

/* Groups of cp.async copies (sm_80+, global -> shared without registers):
 * close the group issued so far; wait until at most N groups are pending
 * (a block barrier must follow before other threads read the data). */
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
/* One element (4 or 8 bytes) from global to shared memory; zero-filled
 * where src_bytes is 0. */
template <typename T>
__device__ __forceinline__ void cp_async_el(T *dst, const T *src, int src_bytes)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(s), "l"(src),
                 "n"((int)sizeof(T)), "r"(src_bytes));
}
/* 16 bytes; the bytes past src_bytes zero-filled. .cg reads through L2 and
 * skips L1: each piece is read once by one block (and another block's data
 * must come from L2). Needs 16-byte aligned addresses. */
__device__ __forceinline__ void cp_async16(void *dst, const void *src, int src_bytes)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src),
                 "r"(src_bytes)
                 : "memory");
}
template <int N> __device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/* The launchers' per-device caches (index: device ordinal < 64), filled at
 * the first launch on a device; atomics, as host threads on other queues
 * may launch at the same time. */
using DeviceFlags = std::atomic<bool>[64];
using DeviceBytes = std::atomic<signed char>[64];
using DeviceInts  = std::atomic<int>[64];

/* Opts a kernel into more than 48 KB of dynamic shared memory, once per
 * device (two threads at once at worst both make the call). */
template <typename Kernel>
cudaError_t opt_in_shared(Kernel kernel, size_t bytes, DeviceFlags &done)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    if (dev < 64 && done[dev].load(std::memory_order_acquire)) return cudaSuccess;
    e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    if (e == cudaSuccess && dev < 64) done[dev].store(true, std::memory_order_release);
    /* a refusal is returned here, not left for the next launch's check */
    if (e != cudaSuccess) (void)cudaGetLastError();
    return e;
}

/* The dynamic shared memory a block of kernel may have on the current
 * device: the opt-in limit less the kernel's static arrays (kernel
 * nullptr: the limit alone). Queried once per device (known: the bytes +
 * 1, 0 unknown): a query on every call costs host time while the GPU
 * waits for the launch. */
template <typename Kernel>
cudaError_t dynamic_smem_limit(Kernel kernel, DeviceInts &known, size_t *bytes)
{
    int dev = 0, optin = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    const int cached = dev < 64 ? known[dev].load(std::memory_order_relaxed) : 0;
    if (cached > 0) {
        *bytes = (size_t)(cached - 1);
        return cudaSuccess;
    }
    if ((e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) !=
        cudaSuccess)
        return e;
    size_t fixed = 0;
    if (kernel) {
        cudaFuncAttributes fa;
        if ((e = cudaFuncGetAttributes(&fa, kernel)) != cudaSuccess) return e;
        fixed = fa.sharedSizeBytes;
    }
    *bytes = (size_t)optin > fixed ? (size_t)optin - fixed : 0;
    if (dev < 64) known[dev].store((int)*bytes + 1, std::memory_order_relaxed);
    return cudaSuccess;
}

/* Whether the device code that runs on the current device was compiled for
 * sm_90 or later: the device's compute capability is 9 or more and the
 * probe kernel's PTX version (the __CUDA_ARCH__ its code saw) 9.0 or more.
 * One fatbinary carries sm_80 and sm_90 code; the forms that need Hopper
 * (thread block clusters, pipeline stages sized for its shared memory)
 * exist only in the sm_90 code, and the launcher must know which runs.
 * probe: a kernel of the calling file (all of a file's kernels are compiled
 * for the same targets). known: per device, 0 unknown, 1 no, 2 yes, filled
 * on the first call (two threads at once at worst both query). */
template <typename Kernel>
cudaError_t runs_sm90_code(Kernel probe, DeviceBytes &known, bool &yes)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    const signed char k = dev < 64 ? known[dev].load(std::memory_order_relaxed) : 0;
    if (k != 0) {
        yes = k == 2;
        return cudaSuccess;
    }
    int major = 0;
    if ((e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev)) != cudaSuccess)
        return e;
    cudaFuncAttributes fa;
    if ((e = cudaFuncGetAttributes(&fa, probe)) != cudaSuccess) return e;
    yes = major >= 9 && fa.ptxVersion >= 90;
    if (dev < 64) known[dev].store(yes ? 2 : 1, std::memory_order_relaxed);
    return cudaSuccess;
}

/* Tile (ti, tj), ti >= tj, numbered row by row through the lower triangle:
 * t = ti (ti + 1) / 2 + tj. Lets a grid cover only the triangle's tiles. */
__device__ __forceinline__ void lower_tile_of(int64_t t, int64_t &ti, int64_t &tj)
{
    int64_t r = (int64_t)((sqrt(8.0 * (double)t + 1.0) - 1.0) * 0.5);
    while (r * (r + 1) / 2 > t) --r;
    while ((r + 1) * (r + 2) / 2 <= t) ++r;
    ti = r;
    tj = t - r * (r + 1) / 2;
}

} // namespace gchol

#endif
