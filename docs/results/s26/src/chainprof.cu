// Chain-step profile of the one-kernel tiled Cholesky (from session 6; session 26: both triangles, 1024 / 2048, two rounds): per-phase %globaltimer of the chain block.
// nvcc -DGCHOL_TILED_PROFILE=20000 -Ikernels -Iinclude ... chainprof.cu
#include "potrf_tiled.cu" /* -Ikernels */
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cstdlib>
#define CK(x) do{cudaError_t e=(cudaError_t)(x); if(e){printf("%s:%d %s\n",__FILE__,__LINE__,cudaGetErrorString(e)); exit(1);} }while(0)
template <typename T> double run(int n, int ncols, char prec, int upper, bool print) {
  size_t N=(size_t)n*n; std::vector<T> h(N);
  srand(1); for(size_t i=0;i<N;i++) h[i]=(T)(rand()/(double)RAND_MAX*2-1);
  for(int j=0;j<n;j++) for(int i=0;i<j;i++) h[i+(size_t)j*n]=h[j+(size_t)i*n];
  for(int i=0;i<n;i++) h[i+(size_t)i*n]+=n;
  T *dA0,*dA; int64_t *di; int *ds; void *dw; CK(cudaMalloc(&dA0,N*sizeof(T))); CK(cudaMalloc(&dA,N*sizeof(T)));
  CK(cudaMalloc(&di,8)); CK(cudaMalloc(&ds,GCHOL_TILED_SYNC_WORDS*4)); CK(cudaMalloc(&dw,GCHOL_TILED_WORK_ELEMS*8));
  CK(cudaMemcpy(dA0,h.data(),N*sizeof(T),cudaMemcpyHostToDevice));
  cudaEvent_t a,b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> ts;
  for(int it=0;it<15;it++){
    CK(cudaMemcpy(dA,dA0,N*sizeof(T),cudaMemcpyDeviceToDevice)); CK(cudaMemset(di,0,8));
    cudaEventRecord(a); CK(potrf_tiled_launch<T>(n,ncols,dA,n,upper,0,di,ds,(T*)dw,0)); cudaEventRecord(b);
    CK(cudaEventSynchronize(b)); float ms; cudaEventElapsedTime(&ms,a,b); if (it >= 3) ts.push_back(ms);
  }
  int64_t info; CK(cudaMemcpy(&info,di,8,cudaMemcpyDeviceToHost));
  // residual check on the factored columns: compare with a CPU Cholesky of the leading 256 block
  std::vector<T> L(N); CK(cudaMemcpy(L.data(),dA,N*sizeof(T),cudaMemcpyDeviceToHost));
  int m = n <= 1024 ? n : std::min(n, 512); double err=0, nrm=0;
  for (int i=0;i<m;i++) for (int j=0;j<=i;j++) { double s=0; for(int k=0;k<=j;k++){ double lik = upper? L[k+(size_t)i*n]:L[i+(size_t)k*n]; double ljk = upper? L[k+(size_t)j*n]:L[j+(size_t)k*n]; s+=lik*ljk;} double aij=h[i+(size_t)j*n]; err=std::max(err,fabs(s-aij)); nrm=std::max(nrm,fabs(aij)); }
  std::sort(ts.begin(),ts.end());
  double med = ts[ts.size()/2];
  printf("%c%c n=%5d ncols=%5d median %.4f ms  min %.4f  info %lld  leading-%d relerr %.1e\n",prec,upper?'U':'L',n,ncols,med,ts[0],(long long)info, m, err/nrm);
  if (print) {
    int nt=(n+63)/64, total=worker_items(nt);
    std::vector<unsigned long long> p((size_t)(total+2*nt)*6);
    CK(cudaMemcpyFromSymbol(p.data(), g_tiled_prof, sizeof(unsigned long long)*6*std::min(total+2*nt,GCHOL_TILED_PROFILE)));
    unsigned long long t0=~0ull; for(int t=0;t<total+nt;t++) if (p[t*6]) t0=std::min(t0,p[t*6]);
    auto us=[&](int t,int ph){ return (p[t*6+ph]-t0)/1000.0; };
    auto tick=[&](int j,int pp){ return j*nt - j*(j-1)/2 + pp - 2; };
    double s0=0,s1=0,s2=0,s3=0,wp=0,ww=0; int cnt=0;
    for(int k=2;k<nt;k++){
      int c=total+k; double start = us(total+k-1,3);
      double pr = us(tick(k-1,0),4), wr = us(tick(k-1,1),4);
      s0+=us(c,0)-start; s1+=us(c,1)-us(c,0); s2+=us(c,2)-us(c,1); s3+=us(c,3)-us(c,2); wp+=pr-start; ww+=wr-start; cnt++;
    }
    double f[6]={0};
    for(int k=2;k<nt;k++){ int c=total+k, d=total+nt+k;
      f[0]+=us(d,0)-us(c,0); f[1]+=us(d,1)-us(d,0); f[2]+=us(d,2)-us(d,1); f[3]+=us(d,3)-us(d,2); f[4]+=us(d,4)-us(d,3); f[5]+=us(c,1)-us(d,4); }
    printf("   split: X product %.2f, X to smem %.2f, X store %.2f, syrk %.2f, subtract %.2f, identity+barrier %.2f\n", f[0]/cnt,f[1]/cnt,f[2]/cnt,f[3]/cnt,f[4]/cnt,f[5]/cnt);
    printf("   avg k>=2: step %.2f us = waits+loads %.2f + solve+syrk %.2f + potf2 %.2f + store+publish %.2f | P ready %.2f, W ready %.2f after step start\n", (s0+s1+s2+s3)/cnt, s0/cnt,s1/cnt,s2/cnt,s3/cnt,wp/cnt,ww/cnt);
  }
  cudaFree(dA);cudaFree(dA0);cudaFree(di);cudaFree(ds);cudaFree(dw);
  return med;
}
int main(int argc,char**argv){
  // warm the clocks
  { double *x; CK(cudaMalloc(&x, 1<<28)); for (int i=0;i<200;i++) CK(cudaMemset(x, i, 1<<28)); CK(cudaDeviceSynchronize()); cudaFree(x); }
  for (int n : {1024, 2048}) {
    for (int r = 0; r < 2; ++r) {
      run<double>(n,n,'d',0,true); run<double>(n,n,'d',1,true);
      run<float>(n,n,'s',0,true); run<float>(n,n,'s',1,true);
    }
  }
  return 0; }
