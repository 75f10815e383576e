// p10 with the inner update (a) stamped too (thread STAMP_T: setup, k loop, epilogue). potf2_panel phase timestamps (clock64) of the current tile_factor.cuh, generated from it
// (gen in session 12): per inner block, (a) update, (b) factor+solve (thread STAMP_T), the barrier, the
// diagonal-row stores and the flag read. Built with -DSTAMP_T=0 (warp 0) and -DSTAMP_T=64 (a row below).
#include "tile_factor.cuh"
#include <cstdio>
#include <vector>
#include <cstdlib>
#define CK(x) do{cudaError_t e=(x); if(e){printf("%s:%d %s\n",__FILE__,__LINE__,cudaGetErrorString(e)); exit(1);} }while(0)
__device__ long long g_cyc; __device__ long long g_ts[8][5]; __device__ long long g_u[8][3]; __device__ int g_blk;
__device__ __forceinline__ long long clk(){ long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory"); return c; }
namespace gchol {
template <int MaxRows>
__device__ __forceinline__ void iu_dmma_st(double *C, int ldc, const double *A, int lda,
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
        if (threadIdx.x == STAMP_T) g_u[g_blk][0] = clk();
        for (int k = q; k < kk; k += 8) {
            dmma_16x8x4(acc[0], A[ra0 + k * lda], A[ra1 + k * lda], B[cb + k * ldb]);
            dmma_16x8x4(acc[1], A[ra0 + (k + 4) * lda], A[ra1 + (k + 4) * lda],
                        B[cb + (k + 4) * ldb]);
        }
        if (threadIdx.x == STAMP_T) g_u[g_blk][1] = clk();
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int r = 16 * t + g + 8 * (e / 2), c = 2 * q + (e % 2);
            if (r < rows && c < ib && (!lower_only || r >= c))
                C[r + c * ldc] -= acc[0][e] + acc[1][e];
        }
        if (threadIdx.x == STAMP_T) g_u[g_blk][2] = clk();
    }
}
template <int MaxRows>
__device__ __forceinline__ void iu_tf32_st(float *C, int ldc, const float *A, int lda,
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
        if (threadIdx.x == STAMP_T) g_u[g_blk][0] = clk();
        for (int k = 0; k < kk; k += 8) {
            const float2 v0 = *reinterpret_cast<const float2 *>(a + k * lda);
            const float2 v1 = *reinterpret_cast<const float2 *>(a + (k + 1) * lda);
            unsigned ah[4], al[4], bh0, bl0, bh1, bl1;
            tf32_split(v0.x, ah[0], al[0]); /* (2g,     2q)     slot (g,     q)     */
            tf32_split(v0.y, ah[1], al[1]); /* (2g + 1, 2q)     slot (g + 8, q)     */
            tf32_split(v1.x, ah[2], al[2]); /* (2g,     2q + 1) slot (g,     q + 4) */
            tf32_split(v1.y, ah[3], al[3]); /* (2g + 1, 2q + 1) slot (g + 8, q + 4) */
            tf32_split(b[k * ldb], bh0, bl0);
            tf32_split(b[(k + 1) * ldb], bh1, bl1);
            mma_16x8x8_tf32(acc[0], al, bh0, bh1);
            mma_16x8x8_tf32(acc[1], ah, bl0, bl1);
            mma_16x8x8_tf32(acc[2], ah, bh0, bh1);
        }
        if (threadIdx.x == STAMP_T) g_u[g_blk][1] = clk();
        /* c0, c1: row slot g (row 2g), columns 2q, 2q + 1; c2, c3: slot g + 8 */
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int r = 16 * t + 2 * g + e / 2, c = 2 * q + (e % 2);
            if (r < rows && c < ib && (!lower_only || r >= c))
                C[r + c * ldc] -= (acc[0][e] + acc[1][e]) + acc[2][e];
        }
        if (threadIdx.x == STAMP_T) g_u[g_blk][2] = clk();
    }
}
template <typename T, int MaxRows>
__device__ __forceinline__ void iu_st(T *C, int ldc, const T *A, int lda, const T *B, int ldb, int rows, int ib, int kk, bool lo)
{
    if constexpr (std::is_same<T, double>::value) iu_dmma_st<MaxRows>(C, ldc, A, lda, B, ldb, rows, ib, kk, lo);
    else iu_tf32_st<MaxRows>(C, ldc, A, lda, B, ldb, rows, ib, kk, lo);
}
template <typename T, int MaxRows>
__device__ __forceinline__ int potf2_stamped(T *S, int lds, int m, int n, int *flag)
{
    static_assert(MaxRows <= kThreads, "(b) gives each row of the panel its own thread");
    const int t = threadIdx.x;

    long long ts[8][5];
    for (int jb = 0; jb < n; jb += kIB) {
        const int ib = min(kIB, n - jb);
        ts[jb/8][0] = clk();

        /* (a) left-looking update of the inner panel by all threads. */
        if (jb > 0) {
            T *P = S + jb; /* rows jb.. of the tile */
            if (t == 0) g_blk = jb / 8;
            __syncthreads();
            iu_st<T, MaxRows>(P + jb * lds, lds, P, lds, P, lds, m - jb, ib, jb, true);
            __syncthreads();
        }
        ts[jb/8][1] = clk();

        /* (b) */
        T l[kIB][kIB]; /* lower triangle of the diagonal block; identity past ib */
        T x[kIB];      /* this thread's row of the inner panel, solved */
        T diag = T(0); /* rows t < kIB: L(jb + t, jb + t) as stored */
        int done = 0;  /* columns of the block that are final */
        int bad = kIB; /* first failing column of the block */
        const bool active = t < m - jb;
        T *row = S + (jb + t);
        if (active) {
            /* Thread t also solves its row jb + t, x := x * L^{-T}, one
             * column per step of the factorization, so its chain runs
             * beside the pivots' instead of after them (~270 cycles per
             * inner block on the H100). No other thread reads this row in
             * (b). For rows t < kIB of the diagonal block, x[c] (c < t) is
             * L(jb + t, jb + c): the same operations as l[t][c]. */
            T rd[kIB];
#pragma unroll
            for (int c = 0; c < kIB; ++c) x[c] = c < ib ? row[(jb + c) * lds] : T(0);
#pragma unroll
            for (int r = 0; r < kIB; ++r)
#pragma unroll
                for (int c = 0; c <= r; ++c)
                    l[r][c] = (r < ib) ? S[(jb + r) + (jb + c) * lds] : T(r == c);
#pragma unroll
            for (int c = 0; c < kIB; ++c) {
                const T piv = l[c][c];
                if (bad == kIB && !(piv > T(0))) bad = c; /* also catches NaN */
                /* d = piv * rd, not sqrt(piv): IEEE sqrt put ~130 cycles per
                 * column on the critical path (measured on the H100). An
                 * infinite pivot must still give d = Inf and a zero column,
                 * as in LAPACK, not Inf * 0 = NaN. */
                rd[c] = rsqrt_t(piv);
                if (c < bad) l[c][c] = piv == T(INFINITY) ? piv : piv * rd[c];
                if (c == t) diag = l[c][c]; /* off the chain */
#pragma unroll
                for (int r = c + 1; r < kIB; ++r) l[r][c] *= rd[c];
                x[c] *= rd[c];
#pragma unroll
                for (int c2 = c + 1; c2 < kIB; ++c2) x[c2] -= x[c] * l[c2][c];
#pragma unroll
                for (int c2 = c + 1; c2 < kIB; ++c2)
#pragma unroll
                    for (int r = c2; r < kIB; ++r) l[r][c2] -= l[r][c] * l[c2][c];
            }
            done = min(bad, ib);
            if (t >= ib) { /* a row below the diagonal block */
#pragma unroll
                for (int c = 0; c < kIB; ++c)
                    if (c < done) row[(jb + c) * lds] = x[c];
            }
        }
        /* every thread has read the diagonal block; and whether a pivot
         * failed, from the barrier's reduction (every active thread found
         * the same column) */
        ts[jb/8][2] = clk();
        const int failed = __syncthreads_or(active && bad < ib);
        ts[jb/8][3] = clk();
        if (active && t < ib) {
            /* Row t of the diagonal block, by its own thread: its columns
             * before the diagonal from x, the diagonal (or the failing
             * pivot, as LAPACK leaves it) from diag. Thread 0 storing the
             * whole block held warp 0 ~250 cycles per 8 columns on the
             * H100. Nothing reads rows jb..jb+kIB-1 before the next
             * barrier: (a) of the next block starts at row jb + kIB. */
#pragma unroll
            for (int c = 0; c < kIB; ++c)
                if (c < t && c < done) row[(jb + c) * lds] = x[c];
            if (t < done || t == bad) row[(jb + t) * lds] = diag;
        }
        ts[jb/8][4] = clk();
        if (failed) {
            /* thread 0 always takes part: it tells the others the column */
            if (t == 0) *flag = jb + bad;
            __syncthreads();
            const int fail = *flag;
            __syncthreads(); /* before a caller reuses flag */
            return fail;
        }
    }
    __syncthreads(); /* the last block's diagonal rows */
    if (t == STAMP_T) for (int a = 0; a < 8; ++a) for (int b = 0; b < 5; ++b) g_ts[a][b] = ts[a][b];
    return -1;
}

}
template <typename T>
__global__ void __launch_bounds__(256) bench(const T* A, int reps, int m) {
  constexpr int lds = gchol::tile_ld(128);
  extern __shared__ __align__(16) unsigned char sm[]; T* S=(T*)sm; __shared__ int flag;
  long long tot = 0;
  for (int it = 0; it < reps; ++it) {
    for (int i = threadIdx.x; i < 64*64; i += 256) { int r=i%64,c=i/64; S[r+c*lds]=A[i]; S[64+r+c*lds] = r==c; }
    __syncthreads();
    long long t0 = clk();
    gchol::potf2_stamped<T,128>(S, lds, m, 64, &flag);
    __syncthreads();
    tot += clk() - t0;
  }
  if (threadIdx.x == 0) g_cyc = tot / reps;
}
template <typename T> void run(const char* name, int m) {
  const int N=64; std::vector<T> h(N*N); srand(7);
  for (int j=0;j<N;j++) for(int i=j;i<N;i++) h[i+j*N] = (i==j)? T(N) : T(rand()/(double)RAND_MAX-0.5);
  for (int j=0;j<N;j++) for(int i=0;i<j;i++) h[i+j*N]=h[j+i*N];
  T *d; CK(cudaMalloc(&d, sizeof(T)*N*N)); CK(cudaMemcpy(d,h.data(),sizeof(T)*N*N,cudaMemcpyHostToDevice));
  size_t sm = sizeof(T)*64*gchol::tile_ld(128);
  CK(cudaFuncSetAttribute(bench<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm));
  for (int rep=0; rep<3; rep++) { bench<T><<<1,256,sm>>>(d, 50, m); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); }
  long long c0, ts[8][5]; CK(cudaMemcpyFromSymbol(&c0, g_cyc, 8)); CK(cudaMemcpyFromSymbol(ts, g_ts, sizeof(ts)));
  printf("%s m=%3d thread %d: %6lld cycles\n", name, m, STAMP_T, c0);
  long long u[8][3]; CK(cudaMemcpyFromSymbol(u, g_u, sizeof(u)));
  for (int i = 1; i < 8; ++i) printf("  blk %d (a): start->loop %5lld  loop %5lld  epilogue %5lld  (from (a) start: %5lld)\n", i, u[i][0]-ts[i][0], u[i][1]-u[i][0], u[i][2]-u[i][1], u[i][2]-ts[i][0]);
  for (int i = 0; i < 8; ++i) printf("  blk %d: a %5lld  b %5lld  bar %5lld  diag+flag %5lld | next-gap %5lld\n", i, ts[i][1]-ts[i][0], ts[i][2]-ts[i][1], ts[i][3]-ts[i][2], ts[i][4]-ts[i][3], i<7? ts[i+1][0]-ts[i][4] : 0);
  cudaFree(d);
}
int main() { run<double>("d", 128); run<float>("s", 128); }
