// Session 33: cuBLAS DGEMM's rate on this card against its input data (the card runs at its
// power cap, so the rate depends on how many bits toggle). C = A B, n x n, median of 7 after
// two warm-up products, CUDA events; inputs: uniform(-1,1) random, the same rounded to
// integers in [-8, 8], all ones, all zeros. Also prints nvidia-smi's reading after each set.
// nvcc -O2 dgemm_data.cu -lcublas -lcurand
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>
#include <curand.h>
#define CK(x) do{ if((x)!=0){ printf("%s:%d error\n",__FILE__,__LINE__); exit(1);} }while(0)
__global__ void shape(double *a, size_t n, int mode) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = a[i] * 2.0 - 1.0;                     /* uniform(-1, 1) */
  if (mode == 1) v = rint(v * 8.0);                /* small integers */
  if (mode == 2) v = 1.0;
  if (mode == 3) v = 0.0;
  a[i] = v;
}
int main(int argc, char **argv) {
  const char *names[] = {"uniform(-1,1)", "integers [-8,8]", "ones", "zeros"};
  cublasHandle_t h; CK(cublasCreate(&h));
  curandGenerator_t g; CK(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT)); CK(curandSetPseudoRandomGeneratorSeed(g, 7));
  for (int n : {8192, 16384}) {
    size_t N = (size_t)n * n; double *A, *B, *C;
    CK(cudaMalloc(&A, N * 8)); CK(cudaMalloc(&B, N * 8)); CK(cudaMalloc(&C, N * 8));
    for (int mode = 0; mode < 4; ++mode) {
      CK(curandGenerateUniformDouble(g, A, N)); CK(curandGenerateUniformDouble(g, B, N));
      shape<<<(N + 255) / 256, 256>>>(A, N, mode); shape<<<(N + 255) / 256, 256>>>(B, N, mode);
      const double one = 1, zero = 0; cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
      std::vector<float> t;
      for (int r = 0; r < 9; ++r) {
        cudaEventRecord(e0);
        CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n));
        cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1); if (r >= 2) t.push_back(ms);
      }
      std::sort(t.begin(), t.end());
      const double tf = 2.0 * n * (double)n * n / (t[t.size() / 2] * 1e-3) / 1e12;
      printf("dgemm n=%d %-16s median %.2f ms  %.1f TFLOP/s  (min %.2f ms)\n", n, names[mode], t[t.size() / 2], tf, t[0]);
      fflush(stdout);
      if (n == 16384) { /* the card's own reading, right after */
        for (int r = 0; r < 8; ++r) cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n);
        system("nvidia-smi --query-gpu=clocks.sm,power.draw,power.limit,clocks_throttle_reasons.active --format=csv,noheader");
        cudaDeviceSynchronize();
      }
    }
    cudaFree(A); cudaFree(B); cudaFree(C);
  }
  return 0;
}
