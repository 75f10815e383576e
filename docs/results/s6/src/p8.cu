// potf2 phase timestamps (thread 8) + knobs: knobs 1 skip (a), 2 skip 8x8 trailing updates, 4 skip row solves, 8 rsqrt -> mul
#include "../../kernels/tile_factor.cuh"
#include <cstdio>
#include <vector>
#include <cstdlib>
#define CK(x) do{cudaError_t e=(x); if(e){printf("%s:%d %s\n",__FILE__,__LINE__,cudaGetErrorString(e)); exit(1);} }while(0)
__device__ long long g_cyc;
__device__ int g_fail;
__device__ long long g_ts[8][6];
__device__ __forceinline__ long long clk(){ long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory"); return c; }
namespace gchol {
template <typename T, int MaxRows, int K>
__device__ __forceinline__ int potf2_k(T *S, int lds, int m, int n, int *flag)
{
    static_assert(MaxRows <= kThreads, "(b) gives each row of the panel its own thread");
    const int t = threadIdx.x;

    __shared__ volatile double sink[2];
    long long ts[8][6];
    for (int jb = 0; jb < n; jb += kIB) {
        const int ib = min(kIB, n - jb);
        if (jb < 64) ts[jb/8][0] = clk();

        /* (a) left-looking update of the inner panel by all threads. */
        if (jb > 0) {
            T *P = S + jb; /* rows jb.. of the tile */
            inner_update<T, MaxRows>(P + jb * lds, lds, P, lds, P, lds, m - jb, ib, jb, true);
            __syncthreads();
        }

        if (jb < 64) ts[jb/8][1] = clk();
        /* (b) */
        T l[kIB][kIB]; /* lower triangle of the diagonal block; identity past ib */
        int done = 0;  /* columns of the block that are final */
        int bad = kIB; /* first failing column of the block */
        const bool active = t < m - jb;
        if (active) {
            /* Thread t >= kIB also solves row jb + t below the block, x :=
             * x * L^{-T}, one column per step of the factorization, so its
             * chain runs beside the pivots' instead of after them (~270
             * cycles per inner block on the H100). No other thread reads
             * this row in (b); rows t < kIB compute x and drop it. */
            T rd[kIB], x[kIB];
            T *row = S + (jb + t);
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
            if (t == 8) { sink[0] = (double)rd[kIB-1] + (double)l[kIB-1][kIB-1]; if (jb < 64) ts[jb/8][2] = clk(); }
            if (t >= kIB) {
#pragma unroll
                for (int c = 0; c < kIB; ++c)
                    if (c < done) row[(jb + c) * lds] = x[c];
                if (t == 8) { sink[1] = (double)x[kIB-1]; if (jb < 64) ts[jb/8][3] = clk(); }
            }
            /* thread 0 always takes part; the others found the same column */
            if (t == 0) *flag = bad < ib ? jb + bad : -1;
        }
        __syncthreads(); /* every thread has read the diagonal block */
        if (jb < 64) ts[jb/8][4] = clk();
        if (t == 0) {
            /* thread 0 stores the diagonal block, with register indices known
             * at compile time: one thread per row (indexing l by t) took a
             * branch per row and ~750 cycles per block on the H100, against
             * ~2.2k for the whole block. Nothing reads rows jb..jb+kIB-1
             * before the next barrier: (a) of the next block starts at row
             * jb + kIB. */
            T *D = S + jb + jb * lds;
            if (done == kIB) {
#pragma unroll
                for (int c = 0; c < kIB; ++c)
#pragma unroll
                    for (int r = c; r < kIB; ++r) D[r + c * lds] = l[r][c];
            } else {
#pragma unroll
                for (int c = 0; c < kIB; ++c)
#pragma unroll
                    for (int r = c; r < kIB; ++r)
                        if (r < ib && (c < done || (c == bad && r == c))) D[r + c * lds] = l[r][c];
            }
        }
        const int fail = *flag; /* uniform; rewritten only after the next (a) barrier */
        if (jb < 64) ts[jb/8][5] = clk() + (fail > 1000);
        if (fail >= 0) {
            __syncthreads();
            return fail;
        }
    }
    __syncthreads(); /* the last block's diagonal rows */
    if (t == 8) for (int i = 0; i < 8; ++i) for (int j = 0; j < 6; ++j) g_ts[i][j] = ts[i][j];
    return -1;
}





}

template <typename T, int K>
__global__ void __launch_bounds__(256) bench(const T* A, T* out, int reps, int m) {
  constexpr int lds = gchol::tile_ld(128);
  extern __shared__ __align__(16) unsigned char sm[]; T* S=(T*)sm; __shared__ int flag;
  long long tot = 0;
  for (int it = 0; it < reps; ++it) {
    for (int i = threadIdx.x; i < 64*64; i += 256) { int r=i%64,c=i/64; S[r+c*lds]=A[i]; S[64+r+c*lds] = r==c; }
    __syncthreads();
    long long t0 = clock64();
    int fl = gchol::potf2_k<T,128,K>(S, lds, m, 64, &flag); if (threadIdx.x == 0) g_fail = fl;
    __syncthreads();
    tot += clock64() - t0;
  }
  if (threadIdx.x == 0) g_cyc = tot / reps;
  for (int i = threadIdx.x; i < 64*64; i += 256) { int r=i%64,c=i/64; out[i] = S[r+c*lds]; }
}
template <typename T, int K> void run(const char* name, int m) {
  const int N=64; std::vector<T> h(N*N); srand(7);
  for (int j=0;j<N;j++) for(int i=j;i<N;i++) h[i+j*N] = (i==j)? T(N) : T(rand()/(double)RAND_MAX-0.5);
  for (int j=0;j<N;j++) for(int i=0;i<j;i++) h[i+j*N]=h[j+i*N];
  T *d, *o; CK(cudaMalloc(&d, sizeof(T)*N*N)); CK(cudaMalloc(&o, sizeof(T)*N*N));
  CK(cudaMemcpy(d,h.data(),sizeof(T)*N*N,cudaMemcpyHostToDevice));
  size_t sm = sizeof(T)*64*gchol::tile_ld(128);
  CK(cudaFuncSetAttribute(bench<T,K>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm));
  long long c0;
  for (int rep=0; rep<2; rep++) { bench<T,K><<<1,256,sm>>>(d, o, 50, m); CK(cudaDeviceSynchronize()); }
  CK(cudaMemcpyFromSymbol(&c0, g_cyc, 8));
  printf("%s m=%3d knobs=%2d: %6lld cycles\n", name, m, K, c0);
  int fl; CK(cudaMemcpyFromSymbol(&fl, g_fail, 4)); printf("  fail=%d\n", fl);
  long long ts[8][6]; CK(cudaMemcpyFromSymbol(ts, g_ts, sizeof(ts)));
  for (int i = 0; i < 8; ++i) printf("  blk %d: a %5lld  fac %5lld  rows %5lld  bar %5lld  flag %5lld | next-gap %5lld\n", i, ts[i][1]-ts[i][0], ts[i][2]-ts[i][1], ts[i][3]-ts[i][2], ts[i][4]-ts[i][3], ts[i][5]-ts[i][4], i<7? ts[i+1][0]-ts[i][5] : 0);
  cudaFree(d); cudaFree(o);
}
template <typename T> void all(const char* nm) {
  for (int m : {64, 128}) { run<T,0>(nm, m); }
  run<T,4>(nm,64);
}
int main() { all<double>("d"); all<float>("s"); }
