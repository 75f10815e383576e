// cuBLAS gemm rate with an even vs odd leading dimension, on the left-looking
// update shapes of an RFP 'N' array (ld = n + 1 for even n): C(m x nb) -= A(m x k) B(nb x k)^T.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do{auto e=(x); if((int)e){printf("err %d line %d\n",(int)e,__LINE__); exit(1);}}while(0)
template<class T> cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,int m,int n,int k,const T*a,const T*A,int lda,const T*B,int ldb,const T*b,T*C,int ldc);
template<> cublasStatus_t gemm<double>(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,int m,int n,int k,const double*a,const double*A,int lda,const double*B,int ldb,const double*b,double*C,int ldc){return cublasDgemm(h,ta,tb,m,n,k,a,A,lda,B,ldb,b,C,ldc);}
template<> cublasStatus_t gemm<float>(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,int m,int n,int k,const float*a,const float*A,int lda,const float*B,int ldb,const float*b,float*C,int ldc){return cublasSgemm(h,ta,tb,m,n,k,a,A,lda,B,ldb,b,C,ldc);}
template<class T> __global__ void fill(T*A,size_t N){for(size_t i=blockIdx.x*(size_t)blockDim.x+threadIdx.x;i<N;i+=(size_t)gridDim.x*blockDim.x){unsigned x=(unsigned)(i*2654435761u)^0x9e3779b9u; x^=x>>13; x*=0x5bd1e995u; x^=x>>15; A[i]=(T)((x&0xffffff)/16777216.0-0.5)*(T)1e-3;}}
template<class T> void run(cublasHandle_t h, const char *p, int n, int nb) {
  size_t N=(size_t)(n+2)*(n+2); T *A; CK(cudaMalloc(&A, sizeof(T)*N)); fill<T><<<1024,256>>>(A,N); CK(cudaDeviceSynchronize());
  T one=1, m1=-1; cudaEvent_t e0,e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int i=0;i<30;i++) gemm<T>(h,CUBLAS_OP_N,CUBLAS_OP_T,n/2,n/2,n/2,&m1,A,n,A,n,&one,A+(size_t)n*n/2,n);
  for (int off : {0, 1}) {
    printf("%s n=%d nb=%d", p, n, nb);
    for (int ld : {n, n+1, n+2}) {
      // lower (N,T): rows j.. of columns 0..j, offset `off` elements (RFP's [L11; L21] starts at row 1)
      double tot=0, fl=0; float ms[5];
      for (int j = nb; j + nb < n; j += 2*nb) {
        int m = n - j;
        for (int r=0;r<5;r++){ cudaEventRecord(e0); CK(gemm<T>(h,CUBLAS_OP_N,CUBLAS_OP_T,m,nb,j,&m1,A+off+j,ld,A+off+j,ld,&one,A+off+j+(size_t)j*ld,ld)); cudaEventRecord(e1); cudaEventSynchronize(e1); cudaEventElapsedTime(&ms[r],e0,e1);}
        std::sort(ms,ms+5); tot+=ms[2]; fl+=2.0*m*nb*(double)j;
      }
      // upper (T,N): C(nb x m) -= A(k x nb)^T B(k x m)
      double totu=0;
      for (int j = nb; j + nb < n; j += 2*nb) {
        int m = n - j;
        for (int r=0;r<5;r++){ cudaEventRecord(e0); CK(gemm<T>(h,CUBLAS_OP_T,CUBLAS_OP_N,nb,m,j,&m1,A+off+(size_t)j*ld,ld,A+off+(size_t)j*ld,ld,&one,A+off+j+(size_t)j*ld,ld)); cudaEventRecord(e1); cudaEventSynchronize(e1); cudaEventElapsedTime(&ms[r],e0,e1);}
        std::sort(ms,ms+5); totu+=ms[2];
      }
      printf(" | ld=%d off=%d: NT %.1f TF/s, TN %.1f TF/s", ld, off, fl/tot/1e9, fl/totu/1e9);
    }
    printf("\n");
  }
  cudaFree(A);
}
int main(){ cublasHandle_t h; CK(cublasCreate(&h));
  run<double>(h,"d",16384,1024); run<double>(h,"d",16384,512); run<float>(h,"s",16384,1024); run<double>(h,"d",8192,1024); return 0; }
