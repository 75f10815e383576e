/*
 * potrf_batched_tiles.cuh -- the batched potrf kernel that keeps a whole
 * matrix on chip: a thread block per matrix, the lower view's triangle of
 * 32 x 32 tiles in shared memory, read once (cp.async, every element in
 * flight at once) and written once. Included by potrf_batched.cu only,
 * after potrf_batched_small.cuh (the batch forms, view_at, Vec16).
 *
 * Right-looking by tile columns K with a lookahead of one, three phases
 * (three block barriers) a tile column:
 *   1. the tiles below the diagonal, X := X L(K, K)^-T, a warp a tile (lane
 *      r row r, each column's updates of the later ones independent);
 *   2. tile column K + 1 updated by tile column K, a warp a tile;
 *   3. one warp factors the diagonal tile K + 1 (lane r row r in registers,
 *      the pivot by a shuffle, each column through shared memory) while
 *      the others update the rest of the trailing triangle.
 * The factoring warp turns with K and the block, so that the blocks an SM
 * runs factor on different schedulers. The updates are 32 x 32 x 32 tile
 * products, C -= X Y^T: on the FP64 tensor cores (m16n8k4) in double,
 * register tiles of FMAs in single (the TF32 tensor cores would lose
 * single's accuracy).
 *
 * At the first pivot that is not positive (or NaN), in diagonal tile K:
 * the tiles below it get its columns before the failed one, the rest of
 * the trailing triangle keeps the updates of tile columns before K, as the
 * other kernels leave it.
 */
#ifndef GCHOL_POTRF_BATCHED_TILES_CUH
#define GCHOL_POTRF_BATCHED_TILES_CUH

#include "potrf_batched_small.cuh"

#include "tile_common.cuh"

namespace {

constexpr int kTw = 32;              /* tile order */
constexpr int kTilesThreads = 128;   /* four warps */
/* a tile's column stride: 4 mod 16, so that each half warp's fragment loads
 * fall in distinct banks, and a multiple of 4 for single's 16-byte loads */
constexpr int kTld = 36;
constexpr int kTileElems = kTw * kTld;

/* Tiles of the triangle for order n, and the shared memory they take. */
__host__ __device__ constexpr int tiles_count(int n)
{
    return ((n + kTw - 1) / kTw) * ((n + kTw - 1) / kTw + 1) / 2;
}
template <typename T> constexpr size_t tiles_smem_bytes(int n)
{
    return (size_t)tiles_count(n) * kTileElems * sizeof(T);
}

/* Tile (I, J), J <= I, of the packed triangle of tiles. */
template <typename T> __device__ __forceinline__ T *tile_at(T *S, int I, int J)
{
    return S + (I * (I + 1) / 2 + J) * kTileElems;
}

/* acc = X Y^T for two tiles (element (r, c) at r + c * kTld) (run; add: acc +=
 * X Y^T), then C -= acc. */
template <typename T> struct TileProduct;

/* Double: m16n8k4 on the FP64 tensor cores; lane (g, q) = (lane / 4, lane
 * % 4) holds rows 16 t + g and 16 t + 8 + g at columns 8 c + 2 q, 8 c +
 * 2 q + 1 (t < 2, c < 4). */
template <> struct TileProduct<double> {
    double acc[2][4][4];

    __device__ __forceinline__ void run(const double *X, const double *Y)
    {
        gchol::zero_all(acc);
        add(X, Y);
    }
    /* acc += X Y^T */
    __device__ __forceinline__ void add(const double *X, const double *Y)
    {
        const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
        const double *x = X + g + q * kTld, *y = Y + g + q * kTld;
#pragma unroll
        for (int k = 0; k < kTw; k += 4) {
            double a[2][2], b[4];
#pragma unroll
            for (int t = 0; t < 2; ++t) {
                a[t][0] = x[16 * t + k * kTld];
                a[t][1] = x[16 * t + 8 + k * kTld];
            }
#pragma unroll
            for (int c = 0; c < 4; ++c) b[c] = y[8 * c + k * kTld];
#pragma unroll
            for (int t = 0; t < 2; ++t)
#pragma unroll
                for (int c = 0; c < 4; ++c) gchol::dmma_16x8x4(acc[t][c], a[t][0], a[t][1], b[c]);
        }
    }
    __device__ __forceinline__ void subtract_from(double *C) const
    {
        const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
#pragma unroll
        for (int t = 0; t < 2; ++t)
#pragma unroll
            for (int c = 0; c < 4; ++c)
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    C[16 * t + g + 8 * (e / 2) + (8 * c + 2 * q + e % 2) * kTld] -= acc[t][c][e];
    }
};

/* Single: lane (rr, q) = (lane / 4, lane % 4) holds rows rr + 8 h (h < 4)
 * at columns 8 q .. 8 q + 7; per k one load a row and two 16-byte loads of
 * the eight columns' entries. */
template <> struct TileProduct<float> {
    float acc[4][8];

    __device__ __forceinline__ void run(const float *X, const float *Y)
    {
        gchol::zero_all(acc);
        add(X, Y);
    }
    __device__ __forceinline__ void add(const float *X, const float *Y)
    {
        const int lane = threadIdx.x % 32, rr = lane / 4, c0 = 8 * (lane % 4);
#pragma unroll 8
        for (int k = 0; k < kTw; ++k) {
            float a[4];
#pragma unroll
            for (int h = 0; h < 4; ++h) a[h] = X[rr + 8 * h + k * kTld];
            const float4 b0 = *reinterpret_cast<const float4 *>(Y + c0 + k * kTld);
            const float4 b1 = *reinterpret_cast<const float4 *>(Y + c0 + 4 + k * kTld);
            const float b[8] = { b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w };
#pragma unroll
            for (int h = 0; h < 4; ++h)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[h][j] += a[h] * b[j];
        }
    }
    __device__ __forceinline__ void subtract_from(float *C) const
    {
        const int lane = threadIdx.x % 32, rr = lane / 4, c0 = 8 * (lane % 4);
#pragma unroll
        for (int h = 0; h < 4; ++h)
#pragma unroll
            for (int j = 0; j < 8; ++j) C[rr + 8 * h + (c0 + j) * kTld] -= acc[h][j];
    }
};

/* C -= X Y^T by one warp. Not inlined, as the other steps a warp takes:
 * one copy of each in the kernel keeps its code within the instruction
 * cache. */
template <typename T> __device__ __noinline__ void tile_update(T *C, const T *X, const T *Y)
{
    TileProduct<T> p;
    p.run(X, Y);
    p.subtract_from(C);
}

/* Row r (this lane's) of tile P := P L^-T, L the factored diagonal tile
 * (its lower triangle only is read) with reciprocal pivots rd, for its
 * first kg columns; the others are not stored. Every column is solved,
 * without a branch (one block of straight code, scheduled across the
 * steps): past kg the values are garbage and reach only the columns right
 * of it, which are not stored. */
template <typename T>
__device__ __noinline__ void tile_solve_row(T *P, const T *L, const T *rd, int kg)
{
    using V = Vec16<T>;
    constexpr int W = V::width;
    const int r = threadIdx.x % 32;
    T x[kTw];
#pragma unroll
    for (int c = 0; c < kTw; ++c) x[c] = P[r + c * kTld];
#pragma unroll
    for (int m = 0; m < kTw; ++m) {
        x[m] *= rd[m];
        /* L(c, m), c > m, by 16-byte loads from the aligned one at or below m + 1 */
#pragma unroll
        for (int c = (m + 1) / W * W; c < kTw; c += W) {
            const typename V::type v = *reinterpret_cast<const typename V::type *>(L + c + m * kTld);
#pragma unroll
            for (int t = 0; t < W; ++t)
                if (c + t > m) x[c + t] -= x[m] * V::at(v, t);
        }
    }
#pragma unroll
    for (int c = 0; c < kTw; ++c)
        if (c < kg) P[r + c * kTld] = x[c];
}

/* Lane r's row r of diagonal tile D into a (0 right of the diagonal);
 * returns the first pivot, a(0, 0), on every lane. */
template <typename T> __device__ __forceinline__ T diag_row_in(T (&a)[kTw], const T *D, int lane)
{
#pragma unroll
    for (int c = 0; c < kTw; ++c) a[c] = c <= lane ? D[lane + c * kTld] : T(0);
    return __shfl_sync(0xffffffffu, a[0], 0);
}

/* Diagonal tile D (kb columns) factored by one warp, lane r row r in
 * registers, right-looking: at step k each lane puts its l(r, k) into D's
 * column k, and after one warp barrier reads the column (16-byte loads)
 * and updates its row, a[j] -= l(r, k) l(j, k): one FMA an entry. The
 * next pivot does not wait for that round trip: lane k + 1 holds l(k + 1,
 * k) itself, so a[k + 1] - l(k + 1, k)^2 (the same FMA its row update
 * makes) goes out by shuffle first, and the chain a step is a shuffle,
 * the reciprocal square root, a product and an FMA. The steps have no
 * branch (a branch a step kept the next step's chain from starting during
 * this step's row updates): past kb or a failure they go on with a
 * factor of 0, which changes nothing. Returns the 1-based column of the
 * first pivot that is not positive (or NaN; 0: none), left unscaled with
 * the rows below; rd[k] = 1 / l_kk for the columns before. */
template <typename T> __device__ __noinline__ int tile_factor_diag(T *D, int kb, T *rd)
{
    using V = Vec16<T>;
    constexpr int W = V::width;
    const int lane = threadIdx.x % 32;
    T a[kTw];
    T pivot = diag_row_in(a, D, lane);
    int fail = 0;
#pragma unroll
    for (int k = 0; k < kTw; ++k) {
        /* uniform: every lane holds the same pivot */
        if (fail == 0 && k < kb && !(pivot > T(0))) fail = k + 1;
        const bool ok = fail == 0 && k < kb;
        /* l_kk = pivot / sqrt(pivot): one operation on the step's chain */
        const T rdk = rsqrt_of(ok ? pivot : T(1));
        const T l = lane > k ? a[k] * rdk : lane == k ? pivot * rdk : T(0); /* 0 above: never read */
        const T f = ok ? l : T(0);
        a[k] = ok ? l : a[k];
        if (k + 1 < kTw) pivot = __shfl_sync(0xffffffffu, a[k + 1] - f * f, k + 1);
        T *col = D + k * kTld;
        col[lane] = f;
        if (lane == 0 && ok) rd[k] = rdk;
        __syncwarp();
#pragma unroll
        for (int j = (k + 1) / W * W; j < kTw; j += W) {
            const typename V::type v = *reinterpret_cast<const typename V::type *>(col + j);
#pragma unroll
            for (int t = 0; t < W; ++t)
                if (j + t > k) a[j + t] -= f * V::at(v, t);
        }
    }
    /* the failed column and those right of it as the steps left them */
    if (fail) {
#pragma unroll
        for (int c = 0; c < kTw; ++c)
            if (c >= fail - 1 && c <= lane) D[lane + c * kTld] = a[c];
    }
    __syncwarp();
    return fail;
}

/* The solve and the diagonal factorization above as loops, a few hundred
 * bytes of code each where the unrolled ones take 12 and 26 KB: for a
 * kernel whose warps run different routines at once beside a co-resident
 * block, the unrolled code's instruction fetches stall (half the solve's
 * and the factorization's stall samples in single at n = 256), the loops
 * stay cached at the cost of more instructions. */
constexpr int kSolveGroup = 4; /* columns a pass of the rolled solve */

/* The rolled solve's passes over column groups m0 = M0, M0 + G, .. < M1:
 * x[0 .. G - 1] holds the group (solved by its L block, stored for the
 * columns before kg), then x[c] := x[c + G] - its update, c < Wd (the
 * rows below the group, a shift that keeps each group in x[0 .. G - 1];
 * entries that would be rows past the tile are garbage never used). */
template <int Wd, typename T>
__device__ __forceinline__ void solve_groups(T (&x)[kTw], T *P, const T *L, const T *rd, int kg,
                                             int M0, int M1, int r)
{
    using V = Vec16<T>;
    constexpr int W = V::width, G = kSolveGroup;
#pragma unroll 1
    for (int m0 = M0; m0 < M1; m0 += G) {
        T y[G];
#pragma unroll
        for (int j = 0; j < G; ++j) {
            y[j] = x[j] * rd[m0 + j];
#pragma unroll
            for (int i = j + 1; i < G; ++i) x[i] -= y[j] * L[m0 + i + (m0 + j) * kTld];
        }
#pragma unroll
        for (int j = 0; j < G; ++j)
            if (m0 + j < kg) P[r + (m0 + j) * kTld] = y[j];
        if (Wd > 0 && m0 + G < kTw) {
#pragma unroll
            for (int c = 0; c < Wd; c += W) {
                typename V::type v[G];
#pragma unroll
                for (int j = 0; j < G; ++j)
                    v[j] = *reinterpret_cast<const typename V::type *>(L + m0 + G + c +
                                                                       (m0 + j) * kTld);
#pragma unroll
                for (int t = 0; t < W; ++t) {
                    T s = x[c + t + G];
#pragma unroll
                    for (int j = 0; j < G; ++j) s -= y[j] * V::at(v[j], t);
                    x[c + t] = s;
                }
            }
        }
    }
}

/* The rolled solve's column groups in kSolveParts parts, part p's rows
 * below updated kTw - M0 - kSolveGroup wide (M0 its first column): each
 * part only as wide as its rows below, against 28 for every group (four
 * parts: 2.41 ms against 2.45 in two, 2 GiB at n = 256 in single). */
constexpr int kSolveParts = 4;
template <int Part, typename T>
__device__ __forceinline__ void solve_parts(T (&x)[kTw], T *P, const T *L, const T *rd, int kg, int r)
{
    constexpr int M0 = kTw * Part / kSolveParts, M1 = kTw * (Part + 1) / kSolveParts;
    solve_groups<kTw - M0 - kSolveGroup>(x, P, L, rd, kg, M0, M1, r);
    if constexpr (Part + 1 < kSolveParts) solve_parts<Part + 1>(x, P, L, rd, kg, r);
}

/* tile_solve_row as loops (solve_parts). */
template <typename T>
__device__ __noinline__ void tile_solve_row_rolled(T *P, const T *L, const T *rd, int kg)
{
    const int r = threadIdx.x % 32;
    T x[kTw];
#pragma unroll
    for (int c = 0; c < kTw; ++c) x[c] = P[r + c * kTld];
    solve_parts<0>(x, P, L, rd, kg, r);
}

/* 1 / sqrt(x) on the factorization's chain: single's approximation
 * without the scaling of subnormal arguments, which take the exact path
 * (uniform: every lane holds the same pivot). */
__device__ __forceinline__ float rsqrt_chain(float x)
{
    float y;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return x < 1.17549435e-38f ? rsqrt_of(x) : y;
}
__device__ __forceinline__ double rsqrt_chain(double x) { return rsqrt_of(x); }

/* tile_factor_diag as a loop (same results, same return and rd): at step
 * k lane r holds a[c] = entry (r, k + c), so that the step's update is
 * a[c] := a[c + 1] - l(r, k) l(k + 1 + c, k), the column below the pivot
 * read from scr[k % 2] (two 32-entry buffers, 16-byte aligned: a step
 * writes one while no lane reads the other any more). The pivot's chain
 * a step: a shuffle, the reciprocal square root, a product, a select and
 * an FMA. The steps run in kFactorParts parts, part p's updates kTw - K0
 * wide (K0 its first step: 31 - k entries are live at step k), against
 * kTw for every step (two parts: 2.39 ms against 2.41 in one or four). */
constexpr int kFactorParts = 2;
template <int Part, typename T>
__device__ __forceinline__ void factor_parts(T (&a)[kTw], T *D, int kb, T *rd, T (*scr)[kTw],
                                             int &fail, T &pivot, int lane)
{
    constexpr int K0 = kTw * Part / kFactorParts, K1 = kTw * (Part + 1) / kFactorParts;
#pragma unroll 2
    for (int k = K0; k < K1; ++k) {
        /* uniform: every lane holds the same pivot */
        if (fail == 0 && k < kb && !(pivot > T(0))) fail = k + 1;
        const bool ok = fail == 0 && k < kb;
        const T x = lane > k ? a[0] : lane == k ? pivot : T(0);
        const T rdk = rsqrt_chain(pivot);
        const T f = ok ? x * rdk : T(0); /* l(lane, k), 0 above */
        pivot = __shfl_sync(0xffffffffu, a[1] - f * f, (k + 1) % kTw);
        /* the failed column and those right of it as the steps left them */
        D[lane + k * kTld] = fail && lane >= k ? a[0] : f;
        T *col = scr[k % 2];
        if (lane > k) col[lane - k - 1] = f;
        if (lane == 0 && ok) rd[k] = rdk;
        __syncwarp();
        shift_update<kTw - K0>(a, f, col);
    }
    if constexpr (Part + 1 < kFactorParts)
        factor_parts<Part + 1>(a, D, kb, rd, scr, fail, pivot, lane);
}

template <typename T>
__device__ __noinline__ int tile_factor_diag_rolled(T *D, int kb, T *rd, T (*scr)[kTw])
{
    const int lane = threadIdx.x % 32;
    T a[kTw];
    T pivot = diag_row_in(a, D, lane);
    int fail = 0;
    factor_parts<0>(a, D, kb, rd, scr, fail, pivot, lane);
    __syncwarp();
    return fail;
}

/* The copy of tile (I, J) from A into the tile at P, issued by thread th
 * of NTH, zeros past order n; 'L' with A and ld aligned to 16 bytes (vec)
 * in 16-byte pieces of columns, else element by element, a warp's 32
 * lanes on consecutive addresses ('L' down columns, 'U' along rows of the
 * view). Unrolled: all of a thread's copies issued back to back. */
template <int NTH, typename T>
__device__ __forceinline__ void tile_copy_in(T *P, const T *A, int64_t ld, int upper, int n,
                                             bool vec, int I, int J, int th)
{
    constexpr int W = Vec16<T>::width, kPieces = kTw * kTw / W;
    static_assert(kPieces % NTH == 0, "whole rounds of pieces");
    if (vec) {
#pragma unroll
        for (int it = 0; it < kPieces / NTH; ++it) {
            const int q = it * NTH + th;
            const int r = q % (kTw / W) * W, c = q / (kTw / W);
            const int i = kTw * I + r, j = kTw * J + c;
            const int rows = j < n ? (n - i < W ? n - i : W) : 0;
            const T *src = rows > 0 ? A + i + (int64_t)j * ld : A;
            gchol::cp_async16(P + r + c * kTld, src, rows > 0 ? rows * (int)sizeof(T) : 0);
        }
    } else {
#pragma unroll 8
        for (int it = 0; it < kTw * kTw / NTH; ++it) {
            const int q = it * NTH + th;
            const int inner = q % kTw, outer = q / kTw;
            const int r = upper ? outer : inner, c = upper ? inner : outer;
            const int i = kTw * I + r, j = kTw * J + c;
            const bool live = i < n && j < n;
            const T *src = live ? A + view_at(i, j, ld, upper) : A;
            gchol::cp_async_el(P + r + c * kTld, src, live ? (int)sizeof(T) : 0);
        }
    }
}

/* Tiles t0 .. t1 - 1 of the packed triangle ((I, J) the first's) copied in. */
template <int NTH, typename T>
__device__ __forceinline__ void tiles_copy_in(T *S, const T *A, int64_t ld, int upper, int n,
                                              bool vec, int t0, int t1, int I, int J, int th)
{
    for (int t = t0; t < t1; ++t) {
        tile_copy_in<NTH>(S + t * kTileElems, A, ld, upper, n, vec, I, J, th);
        if (++J > I) ++I, J = 0;
    }
}

/* Tile (I, J) at P back to A by thread th of NTH, the lower view's
 * entries only (i < n, j <= i); unrolled as the copies in. */
template <int NTH, typename T>
__device__ __forceinline__ void tile_store(T *A, const T *P, int64_t ld, int upper, int n, int I,
                                           int J, bool vec, int th)
{
    using V = Vec16<T>;
    constexpr int W = V::width, kPieces = kTw * kTw / W;
    if (vec) {
#pragma unroll
        for (int it = 0; it < kPieces / NTH; ++it) {
            const int q = it * NTH + th;
            const int r = q % (kTw / W) * W, c = q / (kTw / W);
            const int i = kTw * I + r, j = kTw * J + c;
            if (j >= n || i >= n || (I == J && r + W - 1 < c)) continue;
            const typename V::type v = *reinterpret_cast<const typename V::type *>(P + r + c * kTld);
            T *dst = A + i + (int64_t)j * ld;
            if (i + W <= n && (I > J || r >= c))
                *reinterpret_cast<typename V::type *>(dst) = v;
            else
#pragma unroll
                for (int u = 0; u < W; ++u)
                    if (i + u < n && (I > J || r + u >= c)) dst[u] = V::at(v, u);
        }
    } else {
#pragma unroll 8
        for (int it = 0; it < kTw * kTw / NTH; ++it) {
            const int q = it * NTH + th;
            const int inner = q % kTw, outer = q / kTw;
            const int r = upper ? outer : inner, c = upper ? inner : outer;
            const int i = kTw * I + r, j = kTw * J + c;
            if (i < n && j <= i) A[view_at(i, j, ld, upper)] = P[r + c * kTld];
        }
    }
}

/* All tiles back to A. */
template <typename T>
__device__ __forceinline__ void tiles_store(T *A, const T *S, int64_t ld, int upper, int n, int nt,
                                            bool vec)
{
    for (int t = 0, I = 0, J = 0; t < nt * (nt + 1) / 2; ++t) {
        tile_store<kTilesThreads>(A, S + t * kTileElems, ld, upper, n, I, J, vec, (int)threadIdx.x);
        if (++J > I) ++I, J = 0;
    }
}

/* Diagonal tile K by one warp: the columns factored to *good and, at a
 * failure, the matrix's 1-based column to *info. */
template <typename T>
__device__ __forceinline__ void tiles_factor_step(T *S, int K, int n, T *rd, int *good, int *info)
{
    const int kb = n - kTw * K < kTw ? n - kTw * K : kTw;
    const int fail = tile_factor_diag(tile_at(S, K, K), kb, rd);
    if (threadIdx.x % 32 == 0) {
        *good = fail ? fail - 1 : kb;
        if (fail) *info = kTw * K + fail;
    }
}

/* One matrix a block of kTilesThreads; dynamic shared memory
 * tiles_smem_bytes(the largest order). Four warps rather than eight: the
 * diagonal tiles' chains leave the others waiting, and the registers of
 * two blocks an SM (three where the compiler needs no more than 170 a
 * thread) hold the diagonal tile's rows and its column without spilling. */
template <typename T, typename Batch>
__global__ void __launch_bounds__(kTilesThreads, 2)
potrf_batched_tiles_kernel(Batch batch, int upper, int64_t *dinfo)
{
    extern __shared__ __align__(16) unsigned char tiles_smem[];
    T *S = reinterpret_cast<T *>(tiles_smem);
    __shared__ __align__(16) T rd[kTw]; /* the diagonal tile's reciprocal pivots */
    __shared__ int info, good;
    const int64_t b = blockIdx.x;
    const int arg = batch.check(b), n = arg == 0 ? batch.order(b) : 0;
    const int64_t ld = batch.lead(b);
    const int tid = threadIdx.x, warp = tid / 32, warps = kTilesThreads / 32;
    const int nt = (n + kTw - 1) / kTw, tiles = nt * (nt + 1) / 2;
    T *A = n > 0 ? batch.at(b) : nullptr;
    const bool vec = !upper && reinterpret_cast<uintptr_t>(A) % 16 == 0 &&
                     ld % Vec16<T>::width == 0;
    /* Diagonal tile K is factored by warp (K + b) % warps: the blocks an SM
     * runs then factor on different schedulers (warp w of each block runs
     * on the same one). That warp copies the first diagonal tile and
     * factors it while the other copies are in flight. */
    const int fw0 = (int)(b % warps);
    if (tid == 32 * fw0) info = 0; /* the lane that reports the first tile's failure */
    if (n > 0) {
        if (warp == fw0) {
            tiles_copy_in<32>(S, A, ld, upper, n, vec, 0, 1, 0, 0, tid % 32);
            gchol::cp_async_commit();
        }
        tiles_copy_in<kTilesThreads>(S, A, ld, upper, n, vec, 1, tiles, 1, 0, tid);
        gchol::cp_async_commit();
        if (warp == fw0) {
            gchol::cp_async_wait<1>();
            __syncwarp();
            tiles_factor_step(S, 0, n, rd, &good, &info);
        }
        gchol::cp_async_wait<0>();
    }
    __syncthreads();
    for (int K = 0; K < nt; ++K) {
        const int kg = good;
        /* 1. the panel below the diagonal tile */
        for (int I = K + 1 + warp; I < nt; I += warps)
            tile_solve_row(tile_at(S, I, K), tile_at(S, K, K), rd, kg);
        __syncthreads();
        if (info != 0 || K + 1 == nt) break; /* uniform */
        /* 2. tile column K + 1 by tile column K */
        const int J = K + 1;
        for (int I = J + warp; I < nt; I += warps)
            tile_update(tile_at(S, I, J), tile_at(S, I, K), tile_at(S, J, K));
        __syncthreads();
        /* 3. the next diagonal tile (warp fw), the rest of the trailing
         * triangle (the others): tiles (K + 2 + I, K + 2 + J2), J2 <= I */
        const int fw = (fw0 + J) % warps;
        if (warp == fw) {
            tiles_factor_step(S, J, n, rd, &good, &info);
        } else {
            const int w = (warp - fw + warps) % warps - 1; /* 0 .. warps - 2 */
            for (int t = w, I = 0, J2 = 0; t < (nt - K - 2) * (nt - K - 1) / 2; t += warps - 1) {
                while (I * (I + 1) / 2 + J2 < t)
                    if (++J2 > I) ++I, J2 = 0;
                tile_update(tile_at(S, K + 2 + I, K + 2 + J2), tile_at(S, K + 2 + I, K),
                            tile_at(S, K + 2 + J2, K));
            }
        }
        __syncthreads();
    }
    if (n > 0) tiles_store(A, S, ld, upper, n, nt, vec);
    if (tid == 0) dinfo[b] = arg != 0 ? arg : info;
}

} // namespace

#endif
