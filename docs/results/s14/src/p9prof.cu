// potf2_panel cycles on a 64-column [W; I] panel (m = 128) and a 64 x 64 tile (m = 64), one block,
// clock64 around the call, mean of 50 calls; and the factor's error against a double CPU Cholesky.
// Built per variant (call 1: -DGCHOL_AB_OLD_INNER; call 2: -I a directory holding an older tile_factor.cuh).
// potf2_panel phase profile (session 14): p9 with timestamps at GCHOL_POTF2_PROF points for threads 0 (warp 0)
// and 64 (warp 2: the rows of I); per phase the cycles summed over the inner blocks, mean of the reps.
__device__ long long g_ph[2][8]; __device__ long long g_last[2];
#define GCHOL_POTF2_PROF(i) do { if (threadIdx.x == 0 || threadIdx.x == 64) { const int w_ = threadIdx.x ? 1 : 0; \
  long long c_ = clock64(); if (i) g_ph[w_][i] += c_ - g_last[w_]; g_last[w_] = c_; } } while (0)
#include "tile_factor.cuh" /* -Ikernels, or a copy of an older one */
#include <cstdio>
#include <cmath>
#include <vector>
#include <cstdlib>
#define CK(x) do{cudaError_t e=(x); if(e){printf("%s:%d %s\n",__FILE__,__LINE__,cudaGetErrorString(e)); exit(1);} }while(0)
__device__ long long g_cyc;
__device__ int g_fail;
template <typename T>
__global__ void __launch_bounds__(256) bench(const T* A, T* out, int reps, int m) {
  constexpr int lds = gchol::tile_ld(128);
  extern __shared__ __align__(16) unsigned char sm[]; T* S=(T*)sm; __shared__ int flag;
  long long tot = 0;
  for (int it = 0; it < reps; ++it) {
    for (int i = threadIdx.x; i < 64*64; i += 256) { int r=i%64,c=i/64; S[r+c*lds]=A[i]; S[64+r+c*lds] = r==c; }
    __syncthreads();
    long long t0 = clock64();
    int fl = gchol::potf2_panel<T,128>(S, lds, m, 64, &flag, true); if (threadIdx.x == 0) g_fail = fl;
    __syncthreads();
    tot += clock64() - t0;
  }
  if (threadIdx.x == 0) g_cyc = tot / reps;
  for (int i = threadIdx.x; i < 128*64; i += 256) { int r=i%128,c=i/128; out[i] = S[r+c*lds]; }
}
template <typename T> void run(const char* name, int m) {
  const int N=64; std::vector<T> h(N*N); srand(7);
  for (int j=0;j<N;j++) for(int i=j;i<N;i++) h[i+j*N] = (i==j)? T(N) : T(rand()/(double)RAND_MAX-0.5);
  for (int j=0;j<N;j++) for(int i=0;i<j;i++) h[i+j*N]=h[j+i*N];
  std::vector<double> L(N*N, 0.0);  // CPU Cholesky in double
  for (int j=0;j<N;j++){ double s=h[j+j*N]; for(int k=0;k<j;k++) s-=L[j+k*N]*L[j+k*N]; L[j+j*N]=sqrt(s);
    for(int i=j+1;i<N;i++){ double t=h[i+j*N]; for(int k=0;k<j;k++) t-=L[i+k*N]*L[j+k*N]; L[i+j*N]=t/L[j+j*N]; } }
  T *d, *o; CK(cudaMalloc(&d, sizeof(T)*N*N)); CK(cudaMalloc(&o, sizeof(T)*128*N));
  CK(cudaMemcpy(d,h.data(),sizeof(T)*N*N,cudaMemcpyHostToDevice));
  size_t sm = sizeof(T)*64*gchol::tile_ld(128);
  CK(cudaFuncSetAttribute(bench<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm));
  long long c0;
  for (int rep=0; rep<3; rep++) { bench<T><<<1,256,sm>>>(d, o, 50, m); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); }
  CK(cudaMemcpyFromSymbol(&c0, g_cyc, 8));
  int fl; CK(cudaMemcpyFromSymbol(&fl, g_fail, 4));
  std::vector<T> out(128*N); CK(cudaMemcpy(out.data(), o, sizeof(T)*128*N, cudaMemcpyDeviceToHost));
  double err = 0, erru = 0;
  for (int j=0;j<N;j++) for(int i=j;i<N;i++) err = fmax(err, fabs(out[i+j*128]-L[i+j*N]));
  if (m == 128) { // bottom = L^{-T}: check L^T * U = I  (U(i,j) = out[64+i + j*128], upper)
    for (int i=0;i<N;i++) for (int j=0;j<N;j++) { double s=0; for (int k=0;k<N;k++) s += L[k+i*N]*out[64+k+j*128]; erru = fmax(erru, fabs(s-(i==j))); } }
  long long ph[2][8]; CK(cudaMemcpyFromSymbol(ph, g_ph, sizeof ph)); long long z[16]={0}; CK(cudaMemcpyToSymbol(g_ph, z, sizeof z));
  for (int w=0; w<2; w++) { printf("  %s m=%d thread %d phases (cycles/call): a %lld  bar_a %lld  b %lld  stores %lld  bar_b %lld\n", name, m, w?64:0, ph[w][1]/150, ph[w][2]/150, ph[w][3]/150, ph[w][4]/150, ph[w][5]/150); }
  printf("%s m=%3d: %6lld cycles  fail=%d  max|L-Lref|=%.2e  max|L^T U - I|=%.2e\n", name, m, c0, fl, err, erru);
  cudaFree(d); cudaFree(o);
}
int main() { for (int m : {64, 128}) run<double>("d", m); for (int m : {64, 128}) run<float>("s", m); }
