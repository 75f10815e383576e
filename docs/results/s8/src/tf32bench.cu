// register-only mma.sync m16n8k8 tf32 rate on this GPU: 16 independent accumulators per warp
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(float *out, int iters, unsigned seed) {
  float acc[16][4] = {};
  unsigned a[4], b[2];
  for (int i = 0; i < 4; ++i) a[i] = seed * (threadIdx.x + i);
  b[0] = seed ^ threadIdx.x; b[1] = seed + threadIdx.x;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < 16; ++j)
      asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
          : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
  float s = 0; for (int j = 0; j < 16; ++j) for (int e = 0; e < 4; ++e) s += acc[j][e];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
int main() {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  float *o; cudaMalloc(&o, 132 * 8 * 1024 * 4);
  int iters = 20000;
  for (int warps : {4, 8, 16}) for (int bps : {1, 2}) {
    int grid = sms * bps; int thr = warps * 32;
    k<<<grid, thr>>>(o, 100, 1); cudaDeviceSynchronize();
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    cudaEventRecord(e0); k<<<grid, thr>>>(o, iters, 3); cudaEventRecord(e1); cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    double flops = 2.0 * 16 * 8 * 8 * 16 * (double)iters * grid * warps;
    printf("warps/block %2d blocks/SM %d: %.1f TF/s tf32 mma.sync m16n8k8 (%s)\n", warps, bps, flops / ms / 1e9, cudaGetErrorString(cudaGetLastError()));
  }
}
