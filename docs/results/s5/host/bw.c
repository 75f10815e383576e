// bandwidth probe: pageable vs pinned H2D/D2H, multi-threaded host memcpy
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
typedef struct {char*d;const char*s;size_t n;} job_t;
static void*run(void*p){job_t*j=p;memcpy(j->d,j->s,j->n);return NULL;}
static double mtcopy(char*d,const char*s,size_t n,int T){pthread_t th[64];job_t j[64];double t=now();size_t per=(n+T-1)/T;
 for(int i=0;i<T;i++){size_t o=i*per,l=o<n?(n-o<per?n-o:per):0;j[i]=(job_t){d+o,s+o,l};pthread_create(&th[i],0,run,&j[i]);}
 for(int i=0;i<T;i++)pthread_join(th[i],0);return now()-t;}
int main(){size_t n=(size_t)1<<30; char*h=malloc(n),*h2=malloc(n),*p,*d; memset(h,1,n);memset(h2,2,n);
 cudaHostAlloc((void**)&p,n,0); cudaMalloc((void**)&d,n); memset(p,3,n);
 cudaEvent_t a,b; cudaEventCreate(&a);cudaEventCreate(&b); float ms;
 for(int r=0;r<2;r++){
 double t=now(); cudaMemcpy(d,h,n,cudaMemcpyHostToDevice); printf("pageable H2D %.1f GB/s\n",n/(now()-t)/1e9);
 t=now(); cudaMemcpy(h,d,n,cudaMemcpyDeviceToHost); printf("pageable D2H %.1f GB/s\n",n/(now()-t)/1e9);
 cudaEventRecord(a,0);cudaMemcpyAsync(d,p,n,cudaMemcpyHostToDevice,0);cudaEventRecord(b,0);cudaEventSynchronize(b);cudaEventElapsedTime(&ms,a,b);printf("pinned H2D %.1f GB/s\n",n/ms/1e6);
 cudaEventRecord(a,0);cudaMemcpyAsync(p,d,n,cudaMemcpyDeviceToHost,0);cudaEventRecord(b,0);cudaEventSynchronize(b);cudaEventElapsedTime(&ms,a,b);printf("pinned D2H %.1f GB/s\n",n/ms/1e6);
 for(int T=1;T<=16;T*=2){double tt=mtcopy(p,h,n,T); printf("memcpy pageable->pinned T=%d %.1f GB/s\n",T,n/tt/1e9);}
 for(int T=1;T<=16;T*=2){double tt=mtcopy(h2,p,n,T); printf("memcpy pinned->pageable T=%d %.1f GB/s\n",T,n/tt/1e9);}
 }
 // bidirectional pinned
 cudaStream_t s1,s2; cudaStreamCreate(&s1);cudaStreamCreate(&s2); char*p2; cudaHostAlloc((void**)&p2,n,0); char*d2; cudaMalloc((void**)&d2,n);
 double t=now(); cudaMemcpyAsync(d,p,n,cudaMemcpyHostToDevice,s1); cudaMemcpyAsync(p2,d2,n,cudaMemcpyDeviceToHost,s2); cudaDeviceSynchronize(); printf("pinned bidir %.1f GB/s total\n",2*n/(now()-t)/1e9);
 printf("nproc %ld\n", sysconf(84));
 return 0;}
