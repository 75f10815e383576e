// session 10: left-looking update shapes at even / odd leading dimension:
// cuBLAS dsyrk+dgemm (N,T), cuBLAS dgemm (T,N) on the transposed view, and
// gchol's DMMA trapezoid update (gchol_dsyrk_update_launch).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include "../../kernels/gchol_kernels.h"
#define CK(x) do { auto e_ = (x); if (e_ != 0) { printf("error %d at %s:%d\n", (int)e_, __FILE__, __LINE__); exit(1); } } while (0)
__global__ void fill(double *a, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)(i * 2654435761u) ^ seed; h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    a[i] = ((double)(h & 0xffffff) / 16777216.0 - 0.5) * 1e-3;
  }
}
// C(i,j) -= W1(i,j) + W2(i+1,j+1) on i >= j - jofs (lower part of the block column)
__global__ void add2(int64_t m, int64_t nn, double *C, int64_t ldc, const double *W1, int64_t ld1, const double *W2, int64_t ld2) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  int64_t j = blockIdx.y;
  if (i >= m || i < j) return;
  C[i + j * ldc] -= W1[i + j * ld1] + W2[(i + 1) + (j + 1) * ld2];
}
int main(int argc, char **argv) {
  int64_t nbs[] = {1024};
  int64_t ns[] = {16384, 32768};
  cublasHandle_t h; CK(cublasCreate(&h));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  const double m1 = -1, one = 1;
  for (int64_t n : ns) for (int64_t nb : nbs) {
    size_t elems = (size_t)(n + 2) * (n + 1) + 64;
    double *buf; CK(cudaMalloc(&buf, elems * 8));
    const int64_t ldw = n + 2; double *W1, *W2; CK(cudaMalloc(&W1, ldw * (1026) * 8)); CK(cudaMalloc(&W2, ldw * 1026 * 8));
    double flops = 0;
    for (int64_t c = nb; c + nb <= n; c += nb) flops += 2.0 * c * (nb * (double)(n - c - nb) + nb * (nb + 1) / 2.0);
    struct Cfg { int64_t ld, off; } cfgs[] = {{n, 0}, {n + 1, 1}, {n + 1, 0}, {n + 2, 1}};
    for (auto cf : cfgs) {
      double *A = buf + cf.off; int64_t ld = cf.ld;
      for (int v = 0; v < 5; ++v) {
        if (v >= 3 && ld % 2 == 0) continue;
        std::vector<float> t;
        for (int rep = 0; rep < 4; ++rep) {
          fill<<<1024, 256>>>(buf, elems, 1234 + rep); CK(cudaGetLastError());
          CK(cudaEventRecord(e0));
          for (int64_t c = nb; c + nb <= n; c += nb) {
            const int64_t m = n - c - nb;
            if (v == 0) {  // lower view: syrk + gemm (N,T)
              CK(cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, nb, c, &m1, A + c, ld, &one, A + c + c * ld, ld));
              if (m) CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, nb, c, &m1, A + c + nb, ld, A + c, ld, &one, A + c + nb + c * ld, ld));
            } else if (v == 1) {  // upper view (transposed): syrk + gemm (T,N)
              CK(cublasDsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, nb, c, &m1, A + c * ld, ld, &one, A + c + c * ld, ld));
              if (m) CK(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, nb, m, c, &m1, A + c * ld, ld, A + (c + nb) * ld, ld, &one, A + c + (c + nb) * ld, ld));
            } else if (v >= 3) {  // parity split: aligned columns and row-shifted misaligned columns into scratch, then one add
              const int64_t chunk = v == 3 ? n : 8192;
              const int64_t par = ((uintptr_t)(A + c) / 8) & 1;  // parity of column 0 at row c
              const int64_t ja = par ? 1 : 0, jm = 1 - ja;       // first aligned / misaligned column
              const int64_t ka = (c - ja + 1) / 2, km = (c - jm + 1) / 2;
              for (int64_t r = c; r < n; r += chunk) {
                const int64_t mr = n - r < chunk ? n - r : chunk;
                const double zero = 0;
                // rows r.. (aligned when the column is) for the aligned columns
                CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, mr, nb, ka, &one, A + r + ja * ld, 2 * ld, A + c + ja * ld, 2 * ld, &zero, W1, ldw));
                CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, mr + 1, nb + 1, km, &one, A + r - 1 + jm * ld, 2 * ld, A + c - 1 + jm * ld, 2 * ld, &zero, W2, ldw));
                dim3 g((unsigned)((mr + 255) / 256), (unsigned)nb);
                add2<<<g, 256>>>(mr, nb, A + r + c * ld, ld, W1, ldw, W2, ldw);
                CK(cudaGetLastError());
                (void)r;
              }
            } else {  // DMMA trapezoid
              CK(gchol_dsyrk_update_launch(n - c, nb, c, A + c, ld, A + c + c * ld, ld, 0, 0));
            }
          }
          CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
          float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
          if (rep) t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        const char *nm[] = {"cublas syrk+gemm(N,T)", "cublas syrk+gemm(T,N) upper", "gchol DMMA trapezoid", "parity split, whole", "parity split, 8192 rows"};
        printf("n=%6ld nb=%4ld ld=n%+ld base+%ld  %-28s %8.2f ms  %6.2f TF/s\n", (long)n, (long)nb, (long)(ld - n), (long)cf.off, nm[v], t[t.size() / 2], flops / (t[t.size() / 2] * 1e9));
      }
    }
    CK(cudaFree(buf)); CK(cudaFree(W1)); CK(cudaFree(W2));
  }
  return 0;
}
