// (session 24: the eighteenth session's probe, with PROBE_CFG=name and PROBE_SHAPES=i,j,...
// to run one configuration on some shapes, for ncu and clock sampling beside bench_syrk_diag)
// dgemm_probe.cu -- can a hand-written FP64 tensor-core (DMMA, mma.sync) GEMM
// match cuBLAS dgemm on the H100?  Standalone; build with
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -o dgemm_probe dgemm_probe.cu -lcublas
//
// Computes  C := alpha * A * B^T + beta * C   (alpha = -1, beta = 1 here:
// the shape of a Cholesky trailing / left-looking update), i.e.
// cublasDgemm(CUBLAS_OP_N, CUBLAS_OP_T, ...):
//   A  m x k column-major (lda), B  n x k column-major (ldb),
//   C  m x n column-major (ldc).
// Probe restrictions (checked on the host): m % BM == 0, n % BN == 0,
// k % BK == 0, lda, ldb, ldc even (16-byte aligned columns).
//
// ---------------------------------------------------------------------------
// FP64 DMMA fragment layouts (sm_90).  Lane = 4*g + q, g = groupID = lane>>2,
// q = threadID_in_group = lane&3.  A is the 16 x K "row" operand, B the
// K x 8 "col" operand, C/D 16 x 8.  (row, col) of each register:
//
//   m16n8k4 : a0 (g, q)  a1 (g+8, q)
//             b0 (k=q, n=g)
//   m16n8k8 : a_i (g + 8*(i%2),  q + 4*(i/2))      i = 0..3
//             b_i (k = q + 4*i,  n = g)            i = 0..1
//   m16n8k16: a_i (g + 8*(i%2),  q + 4*(i/2))      i = 0..7
//             b_i (k = q + 4*i,  n = g)            i = 0..3
//   C/D (all three): c_i (g + 8*(i/2),  2*q + (i%2))   i = 0..3
//
// Sources checked:
//  * PTX ISA, "Matrix Fragments for mma.m16n8k8" / "mma.m16n8k16" (.f64):
//    k8:  row = g for a0,a2; g+8 for a1,a3; col = q for a0,a1; q+4 for a2,a3.
//    k16: row = g for even i, g+8 otherwise; col = 2*i + q (even i),
//         2*i - 2 + q (odd i)   [= q + 4*(i/2)].
//  * CUTLASS include/cute/atom/mma_traits_sm90.hpp, MMA_Traits of
//    SM90_16x8x{4,8,16}_F64F64F64F64_TN (thread (q,g) strides (16,1) into A's
//    16 x K column-major index; value strides (8, 64): +8 rows, +4 k;
//    B: (8,1), values stride 32 = +4 k; C: (32,1), values (16,8) = +1 col,
//    +8 rows), and include/cute/arch/mma_sm90.hpp for the operand order
//    {d0..d3},{a0..},{b0..},{c0..c3}.
//  * gchol kernels/tile_common.cuh dmma_16x8x4 (same m16n8k4 convention).
//
// Row / column remapping (free, since the MMA sums over k and any bijection
// of the 16 A rows / 8 B columns just permutes C the same way):
//   A row slot s (0..15) of m-block mi  <->  tile row 16*mi + 2*(s%8) + s/8,
//     so a lane's slots g and g+8 are the adjacent rows 2g, 2g+1 at the same k:
//     one 16-byte shared load (LDS.128) fills (a_{2i}, a_{2i+1}).
//   B column slot s of n-block j        <->  tile col 16*(j/2) + 2*s + (j&1),
//     so n-blocks 2p and 2p+1 of a lane are adjacent columns 2g, 2g+1 of the
//     16-column pair p: one LDS.128 fills b of both n-blocks.
//   C then holds rows (2g, 2g+1) together (one 16-byte store).
//
// Shared memory: per stage sA[BK][BM], sB[BK][BN] (the global layout, m- or
// n-contiguous: each cp.async moves 2 consecutive rows of one column).
// Unpadded, XOR-swizzled in 16-byte chunks:
//      element (k, r), r even, lives at  k*BM + 2*((r/2) ^ (2*(k&3))).
// Fragment reads: lane (g,q) reads chunk (8*c + g) of k-row 4*c' + q, i.e.
// physical chunk (g ^ 2q) (mod 8) of a row starting on a 128-byte boundary.
// An LDS.128 is served a quarter warp (8 lanes) per wavefront: lanes 0-7
// (g in {0,1}, q 0..3) hit chunks {0,1},{2,3},{4,5},{6,7}; lanes 8-15
// (g in {2,3}) {2,3},{0,1},{6,7},{4,5}; likewise lanes 16-31: conflict-free.
// cp.async writes: a warp writes 32 consecutive 16-byte chunks of one k-row,
// permuted only within aligned groups of 8 chunks: conflict-free.  No
// padding, so 64x64x32 x 3 stages is 96 KiB (2 blocks / SM fit in 228 KB).
//
// Pipeline: STAGES-deep cp.async.cg (16 B) ring with commit/wait_group;
// DB = 1: register double buffering -- the fragments of k-step s+1 (also
// across the stage boundary: wait_group + __syncthreads is done before the
// last k-step's MMAs) are loaded from shared memory before k-step s's MMAs
// are issued.  DB = 0: plain "wait, sync, issue next stage, load+mma per
// k-step" loop (ptxas may still hoist the loads).
// Block order: grouped ("GROUP_M" = 1024/BM block rows per group) for L2 reuse.
// ---------------------------------------------------------------------------

#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <vector>
#include <string>
#include <algorithm>
#include <cuda_runtime.h>
#include <cublas_v2.h>

#define CK(x)                                                                            \
    do {                                                                                 \
        cudaError_t e_ = (x);                                                            \
        if (e_ != cudaSuccess) {                                                         \
            fprintf(stderr, "CUDA error '%s' at %s:%d: %s\n", cudaGetErrorString(e_),    \
                    __FILE__, __LINE__, #x);                                             \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)
#define CB(x)                                                                            \
    do {                                                                                 \
        cublasStatus_t s_ = (x);                                                         \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                               \
            fprintf(stderr, "cuBLAS error %d at %s:%d: %s\n", (int)s_, __FILE__,         \
                    __LINE__, #x);                                                       \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)
#define CKL() CK(cudaGetLastError())

// ------------------------------- device helpers ----------------------------

__device__ __forceinline__ void cp_async16(double *s, const double *g)
{
    unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(s));
    size_t ga = __cvta_generic_to_global(g);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(ga));
}
__device__ __forceinline__ void cp_async_commit()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N> __device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// c (16x8) += a (16xKM) * b (KMx8).  a[kg] = (a_{2kg}, a_{2kg+1}),
// b[kg] = b_kg  (layouts in the header comment).
template <int KM>
__device__ __forceinline__ void dmma(double (&c)[4], const double2 (&a)[KM / 4],
                                     const double (&b)[KM / 4])
{
    if constexpr (KM == 4) {
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "
                     "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                     : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                     : "d"(a[0].x), "d"(a[0].y), "d"(b[0]));
    } else if constexpr (KM == 8) {
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                     : "d"(a[0].x), "d"(a[0].y), "d"(a[1].x), "d"(a[1].y), "d"(b[0]),
                       "d"(b[1]));
    } else {
        static_assert(KM == 16, "KM must be 4, 8 or 16");
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 "
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, "
                     "{%0,%1,%2,%3};\n"
                     : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                     : "d"(a[0].x), "d"(a[0].y), "d"(a[1].x), "d"(a[1].y), "d"(a[2].x),
                       "d"(a[2].y), "d"(a[3].x), "d"(a[3].y), "d"(b[0]), "d"(b[1]),
                       "d"(b[2]), "d"(b[3]));
    }
}

// --------------------------------- the kernel ------------------------------

template <int BM, int BN, int WM, int WN, int BK, int STAGES, int KM, int MINB, int DB>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, MINB)
dgemm_nt_kernel(int m, int n, int k, double alpha, const double *__restrict__ A, int lda,
                const double *__restrict__ B, int ldb, double beta, double *__restrict__ C,
                int ldc, int group_m)
{
    constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN, NT = WARPS_M * WARPS_N * 32;
    constexpr int MI = WM / 16, NI = WN / 8, NP = NI / 2, KG = KM / 4, KSTEPS = BK / KM;
    constexpr int A_RPP = NT / (BM / 2), A_PASSES = BK / A_RPP; // k-rows per copy pass
    constexpr int B_RPP = NT / (BN / 2), B_PASSES = BK / B_RPP;
    static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 16 == 0, "tiles");
    static_assert(BK % KM == 0 && STAGES >= 2, "k tiling");
    static_assert(NT % (BM / 2) == 0 && NT % (BN / 2) == 0, "copy mapping");
    static_assert(A_RPP % 4 == 0 && B_RPP % 4 == 0, "swizzle phase constant per thread");
    static_assert(BK % A_RPP == 0 && BK % B_RPP == 0, "copy passes");
    static_assert(DB == 0 || KSTEPS % 2 == 0, "DB=1 needs an even number of k-steps");

    extern __shared__ __align__(128) double smem[];
    double *sA = smem;                        // [STAGES][BK][BM]
    double *sB = smem + STAGES * BK * BM;     // [STAGES][BK][BN]

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, q = lane & 3;
    const int wm = warp % WARPS_M, wn = warp / WARPS_M;

    // grouped block order: group_m block rows, walked column by column
    const int tiles_m = m / BM, tiles_n = n / BN;
    const int per_group = group_m * tiles_n;
    const int grp = blockIdx.x / per_group;
    const int first_m = grp * group_m;
    const int gsz = min(tiles_m - first_m, group_m);
    const int rr = blockIdx.x - grp * per_group;
    const int m0 = (first_m + rr % gsz) * BM, n0 = (rr / gsz) * BN;

    // global -> shared copy mapping (chunk = 2 doubles of one column)
    const int ca = tid % (BM / 2), ka = tid / (BM / 2);
    const int cb = tid % (BN / 2), kb = tid / (BN / 2);
    const double *gA = A + (m0 + 2 * ca) + (size_t)ka * lda;
    const double *gB = B + (n0 + 2 * cb) + (size_t)kb * ldb;
    const size_t a_pass = (size_t)A_RPP * lda, b_pass = (size_t)B_RPP * ldb;
    const size_t a_tile = (size_t)BK * lda, b_tile = (size_t)BK * ldb;
    const int a_soff = ka * BM + 2 * (ca ^ ((ka & 3) << 1));
    const int b_soff = kb * BN + 2 * (cb ^ ((kb & 3) << 1));

    // fragment read offsets (k-row q of each 4-group; swizzled chunk g ^ 2q)
    const int a_foff = q * BM + wm * WM + 2 * (g ^ (2 * q));
    const int b_foff = q * BN + wn * WN + 2 * (g ^ (2 * q));

    const int KT = k / BK;

    auto load_stage = [&](int stage, int t) {
        const double *ga = gA + (size_t)t * a_tile;
        const double *gb = gB + (size_t)t * b_tile;
        double *sa = sA + stage * (BK * BM) + a_soff;
        double *sb = sB + stage * (BK * BN) + b_soff;
#pragma unroll
        for (int i = 0; i < A_PASSES; ++i) cp_async16(sa + i * A_RPP * BM, ga + i * a_pass);
#pragma unroll
        for (int i = 0; i < B_PASSES; ++i) cp_async16(sb + i * B_RPP * BN, gb + i * b_pass);
    };

    auto load_frags = [&](int stage, int ks, double2 (&fa)[MI][KG], double2 (&fb)[NP][KG]) {
        const double *sa = sA + stage * (BK * BM) + a_foff + ks * KM * BM;
        const double *sb = sB + stage * (BK * BN) + b_foff + ks * KM * BN;
#pragma unroll
        for (int kg = 0; kg < KG; ++kg) {
#pragma unroll
            for (int mi = 0; mi < MI; ++mi)
                fa[mi][kg] = *reinterpret_cast<const double2 *>(sa + kg * 4 * BM + 16 * mi);
#pragma unroll
            for (int p = 0; p < NP; ++p)
                fb[p][kg] = *reinterpret_cast<const double2 *>(sb + kg * 4 * BN + 16 * p);
        }
    };

    double acc[MI][NI][4];
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
        for (int j = 0; j < NI; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[mi][j][e] = 0.0;

    auto mma_all = [&](const double2 (&fa)[MI][KG], const double2 (&fb)[NP][KG]) {
#pragma unroll
        for (int mi = 0; mi < MI; ++mi)
#pragma unroll
            for (int j = 0; j < NI; ++j) {
                double b[KG];
#pragma unroll
                for (int kg = 0; kg < KG; ++kg) b[kg] = (j & 1) ? fb[j >> 1][kg].y : fb[j >> 1][kg].x;
                dmma<KM>(acc[mi][j], fa[mi], b);
            }
    };

    // prologue: tiles 0 .. STAGES-2
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < KT) load_stage(s, s);
        cp_async_commit();
    }

    if constexpr (DB == 1) {
        double2 fa[2][MI][KG], fb[2][NP][KG];
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        load_frags(0, 0, fa[0], fb[0]);
        int rs = 0, ws = STAGES - 1;
#pragma unroll 1
        for (int t = 0; t < KT; ++t) {
            const int rs_next = (rs + 1 == STAGES) ? 0 : rs + 1;
#pragma unroll
            for (int ks = 0; ks < KSTEPS; ++ks) {
                if (ks == 0) {
                    // stage ws was last read in iteration t-1, before its final barrier
                    if (t + STAGES - 1 < KT) load_stage(ws, t + STAGES - 1);
                    cp_async_commit();
                }
                if (ks < KSTEPS - 1) {
                    load_frags(rs, ks + 1, fa[(ks + 1) & 1], fb[(ks + 1) & 1]);
                } else {
                    cp_async_wait<STAGES - 2>(); // tile t+1 has landed (this thread)
                    __syncthreads();             // ... for all threads; stage rs is free
                    load_frags(rs_next, 0, fa[(ks + 1) & 1], fb[(ks + 1) & 1]);
                }
                mma_all(fa[ks & 1], fb[ks & 1]);
            }
            rs = rs_next;
            ws = (ws + 1 == STAGES) ? 0 : ws + 1;
        }
    } else {
        double2 fa[MI][KG], fb[NP][KG];
        int rs = 0, ws = STAGES - 1;
#pragma unroll 1
        for (int t = 0; t < KT; ++t) {
            cp_async_wait<STAGES - 2>(); // tile t landed
            __syncthreads();             // visible to all; everyone done with tile t-1
            if (t + STAGES - 1 < KT) load_stage(ws, t + STAGES - 1);
            cp_async_commit();
#pragma unroll
            for (int ks = 0; ks < KSTEPS; ++ks) {
                load_frags(rs, ks, fa, fb);
                mma_all(fa, fb);
            }
            rs = (rs + 1 == STAGES) ? 0 : rs + 1;
            ws = (ws + 1 == STAGES) ? 0 : ws + 1;
        }
    }
    cp_async_wait<0>();

    // epilogue: acc[mi][j][h], acc[mi][j][h+2] are rows 2g, 2g+1 of m-block mi
    // at column 16*(j/2) + 2*(2q+h) + (j&1) of the warp tile.
    const int row0 = m0 + wm * WM + 2 * g;
    const int col0 = n0 + wn * WN + 4 * q;
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
        for (int j = 0; j < NI; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int row = row0 + 16 * mi;
                const int col = col0 + 16 * (j >> 1) + 2 * h + (j & 1);
                double2 *p = reinterpret_cast<double2 *>(C + row + (size_t)col * ldc);
                double2 v = make_double2(alpha * acc[mi][j][h], alpha * acc[mi][j][h + 2]);
                if (beta != 0.0) {
                    const double2 c = *p;
                    v.x = fma(beta, c.x, v.x);
                    v.y = fma(beta, c.y, v.y);
                }
                *p = v;
            }
}

// ------------------------------ utility kernels ----------------------------

__device__ __forceinline__ uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

__global__ void fill_kernel(double *p, size_t count, uint64_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x) {
        const uint64_t h = splitmix64(i ^ (seed * 0x2545F4914F6CDD1Dull));
        p[i] = (double)(h >> 11) * (2.0 / 9007199254740992.0) - 1.0; // [-1, 1)
    }
}

// out[0] = max |X - R| (NaN -> inf), out[1] = max |R|, as ordered bit patterns
__global__ void diff_kernel(const double *X, const double *R, int m, int n, int ld,
                            unsigned long long *out)
{
    double md = 0.0, mr = 0.0;
    const size_t total = (size_t)m * n;
    for (size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x; idx < total;
         idx += (size_t)gridDim.x * blockDim.x) {
        const size_t i = idx % m, j = idx / m;
        const double x = X[i + j * ld], r = R[i + j * ld];
        double d = fabs(x - r);
        if (isnan(d)) d = INFINITY;
        md = fmax(md, d);
        mr = fmax(mr, fabs(r));
    }
    for (int o = 16; o > 0; o >>= 1) {
        md = fmax(md, __shfl_xor_sync(0xffffffffu, md, o));
        mr = fmax(mr, __shfl_xor_sync(0xffffffffu, mr, o));
    }
    if ((threadIdx.x & 31) == 0) {
        atomicMax(&out[0], (unsigned long long)__double_as_longlong(md));
        atomicMax(&out[1], (unsigned long long)__double_as_longlong(mr));
    }
}

// ---------------------------------- host -----------------------------------

typedef void (*LaunchFn)(int, int, int, double, const double *, int, const double *, int,
                         double, double *, int);

struct Config {
    std::string name, desc;
    int BM, BN, BK, NT, minb;
    size_t smem;
    const void *func;
    LaunchFn launch;
    bool ok = false;
    std::string why;
    int regs = 0, blocks_per_sm = 0;
    size_t local = 0;
};

template <int BM, int BN, int WM, int WN, int BK, int STAGES, int KM, int MINB, int DB>
static void launch_probe(int m, int n, int k, double alpha, const double *A, int lda,
                         const double *B, int ldb, double beta, double *C, int ldc)
{
    constexpr int NT = (BM / WM) * (BN / WN) * 32;
    const size_t smem = (size_t)STAGES * BK * (BM + BN) * sizeof(double);
    const int grid = (m / BM) * (n / BN);
    const int group_m = std::max(1, 1024 / BM);
    dgemm_nt_kernel<BM, BN, WM, WN, BK, STAGES, KM, MINB, DB>
        <<<grid, NT, smem>>>(m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, group_m);
    CKL();
}

template <int BM, int BN, int WM, int WN, int BK, int STAGES, int KM, int MINB, int DB>
static Config make_config(const char *name)
{
    Config c;
    char buf[160];
    snprintf(buf, sizeof buf, "%dx%d warp %dx%d BK%d S%d k%d minB%d DB%d", BM, BN, WM, WN, BK,
             STAGES, KM, MINB, DB);
    c.name = name;
    c.desc = buf;
    c.BM = BM;
    c.BN = BN;
    c.BK = BK;
    c.NT = (BM / WM) * (BN / WN) * 32;
    c.minb = MINB;
    c.smem = (size_t)STAGES * BK * (BM + BN) * sizeof(double);
    c.func = (const void *)dgemm_nt_kernel<BM, BN, WM, WN, BK, STAGES, KM, MINB, DB>;
    c.launch = launch_probe<BM, BN, WM, WN, BK, STAGES, KM, MINB, DB>;
    return c;
}

static void setup_config(Config &c, const cudaDeviceProp &prop)
{
    if (c.smem > prop.sharedMemPerBlockOptin) {
        c.why = "smem " + std::to_string(c.smem) + " > opt-in max " +
                std::to_string(prop.sharedMemPerBlockOptin);
        return;
    }
    cudaError_t e = cudaFuncSetAttribute(c.func, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)c.smem);
    if (e != cudaSuccess) {
        cudaGetLastError();
        c.why = std::string("cudaFuncSetAttribute: ") + cudaGetErrorString(e);
        return;
    }
    CK(cudaFuncSetAttribute(c.func, cudaFuncAttributePreferredSharedMemoryCarveout,
                            (int)cudaSharedmemCarveoutMaxShared));
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, c.func));
    c.regs = fa.numRegs;
    c.local = fa.localSizeBytes;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&c.blocks_per_sm, c.func, c.NT, c.smem));
    if (c.blocks_per_sm < 1) {
        c.why = "does not fit on an SM (regs " + std::to_string(c.regs) + ", smem " +
                std::to_string(c.smem) + ")";
        return;
    }
    c.ok = true;
}

struct Shape {
    int m, n, k, lda, ldb, ldc;
};

static void fill(double *p, size_t count, uint64_t seed)
{
    fill_kernel<<<2048, 256>>>(p, count, seed);
    CKL();
}

static void max_diff(const double *X, const double *R, int m, int n, int ld,
                     unsigned long long *d_out, double &md, double &mr)
{
    CK(cudaMemset(d_out, 0, 2 * sizeof(unsigned long long)));
    diff_kernel<<<2048, 256>>>(X, R, m, n, ld, d_out);
    CKL();
    unsigned long long h[2];
    CK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
    memcpy(&md, &h[0], 8);
    memcpy(&mr, &h[1], 8);
}

int main()
{
    int dev = 0;
    CK(cudaSetDevice(dev));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, dev));
    printf("device: %s, %d SMs, smem/block opt-in %zu, smem/SM %zu, regs/SM %d\n", prop.name,
           prop.multiProcessorCount, (size_t)prop.sharedMemPerBlockOptin,
           (size_t)prop.sharedMemPerMultiprocessor, prop.regsPerMultiprocessor);

    std::vector<Config> cfgs;
    // c1: cuBLAS's own shape (sm90_xmma_gemm_f64 ... 64x64x32_stage3_warpsize2x2x1_tensor16x8x16)
    cfgs.push_back(make_config<64, 64, 32, 32, 32, 3, 16, 2, 1>("c1"));
    // c2: c1 with 4 stages (128 KiB: only 1 block/SM can fit)
    cfgs.push_back(make_config<64, 64, 32, 32, 32, 4, 16, 2, 1>("c2"));
    // c3: 128x128, 8 warps of 64x32 (full k16 register double buffer would need
    //     ~320 registers, so the plain loop, DB=0)
    cfgs.push_back(make_config<128, 128, 64, 32, 32, 3, 16, 1, 0>("c3"));
    // c4: 128x64, 8 warps of 32x32 (144 KiB smem: 1 block/SM)
    cfgs.push_back(make_config<128, 64, 32, 32, 32, 3, 16, 1, 1>("c4"));
    // c5: c1 with m16n8k4
    cfgs.push_back(make_config<64, 64, 32, 32, 32, 3, 4, 2, 1>("c5"));
    // c6: c1 with m16n8k8
    cfgs.push_back(make_config<64, 64, 32, 32, 32, 3, 8, 2, 1>("c6"));
    // c7: c1 without explicit register double buffering
    cfgs.push_back(make_config<64, 64, 32, 32, 32, 3, 16, 2, 0>("c7"));
    // c8: gchol's syrk_diag double layout (128x128, 8 warps of 64x32, m16n8k4,
    //     next k-step's fragments preloaded)
    cfgs.push_back(make_config<128, 128, 64, 32, 32, 3, 4, 1, 1>("c8"));
    // c9: c4 with m16n8k8
    cfgs.push_back(make_config<128, 64, 32, 32, 32, 3, 8, 1, 1>("c9"));
    // c10: c4 with 4 stages (192 KiB)
    cfgs.push_back(make_config<128, 64, 32, 32, 32, 4, 16, 1, 1>("c10"));

    printf("\nconfigurations:\n");
    for (auto &c : cfgs) {
        setup_config(c, prop);
        if (c.ok)
            printf("  %-3s %-40s thr %3d regs %3d local(spill) %zu B smem %6zu B blocks/SM %d "
                   "(intended %d)%s\n",
                   c.name.c_str(), c.desc.c_str(), c.NT, c.regs, c.local, c.smem,
                   c.blocks_per_sm, c.minb, c.local ? "  [WARNING: local memory / spills]" : "");
        else
            printf("  %-3s %-40s skipped: %s\n", c.name.c_str(), c.desc.c_str(), c.why.c_str());
    }

    std::vector<Shape> shapes = {
        {8192, 8192, 8192, 8192, 8192, 8192},
        {4096, 4096, 65536, 4096, 4096, 4096},
        {16384, 16384, 16384, 16384, 16384, 16384},
        {31744, 1024, 16384, 31744, 1024, 31744},
        {16384, 1024, 31744, 16384, 1024, 16384},
        {16384, 1024, 16384, 32768, 32768, 32768},
    };

    cublasHandle_t handle;
    CB(cublasCreate(&handle));
    CB(cublasSetStream(handle, 0));
    unsigned long long *d_out;
    CK(cudaMalloc(&d_out, 2 * sizeof(unsigned long long)));
    cudaEvent_t ev0, ev1;
    CK(cudaEventCreate(&ev0));
    CK(cudaEventCreate(&ev1));

    const double alpha = -1.0, beta = 1.0;
    const int WARM = 2, REPS = 5, ROUNDS = WARM + REPS;
    const int NC = (int)cfgs.size();

    // results for the final table
    std::vector<std::vector<double>> tf(shapes.size(), std::vector<double>(NC + 1, -1.0));
    std::vector<double> worst_err(shapes.size(), 0.0);

    for (size_t si = 0; si < shapes.size(); ++si) {
        if (getenv("PROBE_SHAPES")) {
            const std::string want = std::string(",") + getenv("PROBE_SHAPES") + ",";
            if (want.find("," + std::to_string(si) + ",") == std::string::npos) continue;
        }
        const Shape s = shapes[si];
        const double flops = 2.0 * s.m * (double)s.n * s.k;
        printf("\n=== m=%d n=%d k=%d lda=%d ldb=%d ldc=%d (C = -A*B^T + C) ===\n", s.m, s.n, s.k,
               s.lda, s.ldb, s.ldc);
        if (s.lda < s.m || s.ldb < s.n || s.ldc < s.m || (s.lda | s.ldb | s.ldc) & 1) {
            fprintf(stderr, "bad leading dimensions\n");
            return 1;
        }
        const size_t nA = (size_t)s.lda * s.k, nB = (size_t)s.ldb * s.k, nC = (size_t)s.ldc * s.n;
        double *A, *B, *C0, *Cref, *Ct;
        CK(cudaMalloc(&A, nA * sizeof(double)));
        CK(cudaMalloc(&B, nB * sizeof(double)));
        CK(cudaMalloc(&C0, nC * sizeof(double)));
        CK(cudaMalloc(&Cref, nC * sizeof(double)));
        CK(cudaMalloc(&Ct, nC * sizeof(double)));
        fill(A, nA, 1000 + si);
        fill(B, nB, 2000 + si);
        fill(C0, nC, 3000 + si);

        // which configs run on this shape
        std::vector<int> run_cfg;
        for (int c = 0; c < NC; ++c) {
            const Config &cf = cfgs[c];
            if (!cf.ok) continue;
            if (getenv("PROBE_CFG") && cf.name != getenv("PROBE_CFG")) continue;
            if (s.m % cf.BM || s.n % cf.BN || s.k % cf.BK) {
                printf("  %s: shape not a multiple of the tile, skipped\n", cf.name.c_str());
                continue;
            }
            run_cfg.push_back(c);
        }

        // reference: cuBLAS once on a copy of C0
        CK(cudaMemcpy(Cref, C0, nC * sizeof(double), cudaMemcpyDeviceToDevice));
        CB(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, s.m, s.n, s.k, &alpha, A, s.lda, B,
                       s.ldb, &beta, Cref, s.ldc));
        CK(cudaDeviceSynchronize());
        {   // sanity check of the comparison itself: the update is far from zero
            double md, mr;
            max_diff(C0, Cref, s.m, s.n, s.ldc, d_out, md, mr);
            printf("  check: max|C0 - C_cublas| = %.3e, max|C_cublas| = %.3e (must be > 0)\n", md,
                   mr);
            if (!(md > 0.0 && mr > 0.0)) {
                fprintf(stderr, "comparison sanity check failed\n");
                return 1;
            }
        }

        std::vector<double> err(NC, -1.0);
        for (int c : run_cfg) {
            CK(cudaMemcpy(Ct, C0, nC * sizeof(double), cudaMemcpyDeviceToDevice));
            cfgs[c].launch(s.m, s.n, s.k, alpha, A, s.lda, B, s.ldb, beta, Ct, s.ldc);
            CK(cudaDeviceSynchronize());
            double md, mr;
            max_diff(Ct, Cref, s.m, s.n, s.ldc, d_out, md, mr);
            err[c] = md / (mr > 0 ? mr : 1.0);
            worst_err[si] = std::max(worst_err[si], err[c]);
        }

        // timing: rounds alternate all contenders (cuBLAS first); all write into Ct
        std::vector<std::vector<float>> t(NC + 1);
        for (int r = 0; r < ROUNDS; ++r) {
            for (int ci = -1; ci < (int)run_cfg.size(); ++ci) {
                CK(cudaEventRecord(ev0, 0));
                if (ci < 0) {
                    CB(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, s.m, s.n, s.k, &alpha, A,
                                   s.lda, B, s.ldb, &beta, Ct, s.ldc));
                } else {
                    const Config &cf = cfgs[run_cfg[ci]];
                    cf.launch(s.m, s.n, s.k, alpha, A, s.lda, B, s.ldb, beta, Ct, s.ldc);
                }
                CK(cudaEventRecord(ev1, 0));
                CK(cudaEventSynchronize(ev1));
                float ms;
                CK(cudaEventElapsedTime(&ms, ev0, ev1));
                if (r >= WARM) t[ci < 0 ? 0 : run_cfg[ci] + 1].push_back(ms);
            }
        }
        auto median = [](std::vector<float> v) {
            std::sort(v.begin(), v.end());
            return (double)v[v.size() / 2];
        };
        const double ms_cb = median(t[0]);
        const double tf_cb = flops / (ms_cb * 1e-3) / 1e12;
        tf[si][0] = tf_cb;
        printf("  %-6s %-40s %9.3f ms %7.2f TF/s\n", "cuBLAS", "", ms_cb, tf_cb);
        for (int c : run_cfg) {
            const double ms = median(t[c + 1]);
            const double rate = flops / (ms * 1e-3) / 1e12;
            tf[si][c + 1] = rate;
            printf("  %-6s %-40s %9.3f ms %7.2f TF/s  ratio %.3f  max|dC|/max|C| %.2e%s\n",
                   cfgs[c].name.c_str(), cfgs[c].desc.c_str(), ms, rate, rate / tf_cb, err[c],
                   err[c] > 1e-12 ? "  ** WRONG **" : "");
        }
        CK(cudaFree(A));
        CK(cudaFree(B));
        CK(cudaFree(C0));
        CK(cudaFree(Cref));
        CK(cudaFree(Ct));
    }

    // compact table
    printf("\nTF/s (C = -A*B^T + C, median of %d; '-' = skipped)\n", REPS);
    printf("%-32s %7s", "m,n,k (lda,ldb,ldc)", "cuBLAS");
    for (auto &c : cfgs) printf(" %6s", c.name.c_str());
    printf(" %9s\n", "max relerr");
    bool any_wrong = false;
    for (size_t si = 0; si < shapes.size(); ++si) {
        const Shape &s = shapes[si];
        char lbl[96];
        snprintf(lbl, sizeof lbl, "%d,%d,%d (%d,%d,%d)", s.m, s.n, s.k, s.lda, s.ldb, s.ldc);
        printf("%-32s %7.2f", lbl, tf[si][0]);
        for (int c = 0; c < NC; ++c) {
            if (tf[si][c + 1] < 0)
                printf(" %6s", "-");
            else
                printf(" %6.2f", tf[si][c + 1]);
        }
        printf(" %9.2e\n", worst_err[si]);
        if (worst_err[si] > 1e-12) any_wrong = true;
    }
    printf("\nconfigs:");
    for (auto &c : cfgs)
        printf("\n  %-3s %s%s", c.name.c_str(), c.desc.c_str(),
               c.ok ? "" : ("  skipped: " + c.why).c_str());
    printf("\n");

    CK(cudaEventDestroy(ev0));
    CK(cudaEventDestroy(ev1));
    CK(cudaFree(d_out));
    CB(cublasDestroy(handle));
    if (any_wrong) {
        fprintf(stderr, "some configuration produced a wrong result\n");
        return 2;
    }
    return 0;
}
