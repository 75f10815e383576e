#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(){ cudaFree(0);
 for (size_t gb=1; gb<=8; gb*=2){ size_t n=gb<<30; char*h=malloc(n); memset(h,1,n); char*d; cudaMalloc((void**)&d,n);
  double t=now(); cudaError_t e=cudaHostRegister(h,n,cudaHostRegisterDefault); double tr=now()-t;
  t=now(); cudaMemcpyAsync(d,h,n,cudaMemcpyHostToDevice,0); cudaDeviceSynchronize(); double tc=now()-t;
  t=now(); cudaMemcpyAsync(h,d,n,cudaMemcpyDeviceToHost,0); cudaDeviceSynchronize(); double td=now()-t;
  t=now(); cudaHostUnregister(h); double tu=now()-t;
  printf("%zu GB: register %s %.1f ms, H2D %.1f GB/s, D2H %.1f GB/s, unregister %.1f ms\n",gb,cudaGetErrorString(e),tr*1e3,n/tc/1e9,n/td/1e9,tu*1e3);
  // 2D partial register: a sub-range not page aligned
  free(h); cudaFree(d);}
 return 0;}
