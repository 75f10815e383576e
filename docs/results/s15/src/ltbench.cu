// session 15, call 2: the left-looking bulk-update gemms (op N,T; m = n-c-nb, nn = nb, k = c,
// ld = n) through cublasDgemm against every algorithm of cublasLt's heuristic list, per shape,
// and the sums over the block columns with: cublasDgemm, Lt's first choice, the best per shape,
// and one fixed configuration (the 64x64 tile with 32x3 stages that the list offered -- second --
// for the first shape at n = 16384, reused as the same struct for every shape). Double precision, nb = 1024.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cuda_runtime.h>
#define CK(x) do { auto e_ = (x); if (e_ != 0) { printf("error %d at %s:%d\n", (int)e_, __FILE__, __LINE__); exit(1); } } while (0)
__global__ void fill(double *a, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)(i * 2654435761u) ^ seed; h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    a[i] = ((double)(h & 0xffffff) / 16777216.0 - 0.5) * 1e-3;
  }
}
static cudaEvent_t e0, e1;
template <typename F> static float med(F f, int reps = 3) {
  f();
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(e0)); f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms);
  }
  std::sort(t.begin(), t.end()); return t[reps / 2];
}
static int attr(const cublasLtMatmulAlgo_t &a, cublasLtMatmulAlgoConfigAttributes_t w) {
  int v = 0; size_t sz; cublasLtMatmulAlgoConfigGetAttribute(&a, w, &v, sizeof(v), &sz); return v;
}
int main() {
  cublasHandle_t h; CK(cublasCreate(&h));
  cublasLtHandle_t lt; CK(cublasLtCreate(&lt));
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  const double m1 = -1, one = 1;
  size_t wsb = 32 << 20; void *ws; CK(cudaMalloc(&ws, wsb));
  cublasLtMatmulPreference_t pref; CK(cublasLtMatmulPreferenceCreate(&pref));
  CK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsb, sizeof(wsb)));
  cublasLtMatmulDesc_t op; CK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_64F, CUDA_R_64F));
  cublasOperation_t tn = CUBLAS_OP_N, tt = CUBLAS_OP_T;
  CK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &tn, sizeof(tn)));
  CK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tt, sizeof(tt)));
  const int64_t nb = 1024;
  bool have_fixed = false; cublasLtMatmulAlgo_t fixed;
  for (int64_t n : {16384, 24576, 32768, 40960}) {
    double *A; CK(cudaMalloc(&A, (size_t)n * n * 8));
    fill<<<1024, 256>>>(A, (size_t)n * n, 7); CK(cudaGetLastError());
    double s_blas = 0, s_first = 0, s_best = 0, s_fixed = 0, flops = 0;
    for (int64_t c = nb; c + nb < n; c += nb) {
      const int64_t m = n - c - nb;
      const double *Ap = A + c + nb, *Bp = A + c; double *Cp = A + c + nb + c * n;
      const double fl = 2.0 * m * nb * c; flops += fl;
      float tb = med([&] { CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, nb, c, &m1, Ap, n, Bp, n, &one, Cp, n)); });
      cublasLtMatrixLayout_t la, lb, lc;
      CK(cublasLtMatrixLayoutCreate(&la, CUDA_R_64F, m, c, n));
      CK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_64F, nb, c, n));
      CK(cublasLtMatrixLayoutCreate(&lc, CUDA_R_64F, m, nb, n));
      cublasLtMatmulHeuristicResult_t res[32]; int nres = 0;
      CK(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 32, res, &nres));
      if (!have_fixed)
        for (int a = 0; a < nres; ++a)
          if (attr(res[a].algo, CUBLASLT_ALGO_CONFIG_TILE_ID) == 15 && attr(res[a].algo, CUBLASLT_ALGO_CONFIG_STAGES_ID) == 9 &&
              attr(res[a].algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM) <= 1) { fixed = res[a].algo; have_fixed = true; break; }
      float tfirst = 0, tbest = 1e30f; int best = -1;
      printf("n=%5lld c=%5lld  %6lldx%lldx%-6lld blas %7.3f ms %5.2f |", (long long)n, (long long)c, (long long)m, (long long)nb, (long long)c, tb, fl / tb / 1e9);
      for (int a = 0; a < nres; ++a) {
        float t = med([&] { CK(cublasLtMatmul(lt, op, &m1, Ap, la, Bp, lb, &one, Cp, lc, Cp, lc, &res[a].algo, ws, wsb, 0)); });
        if (a == 0) tfirst = t;
        if (t < tbest) { tbest = t; best = a; }
        printf(" %d:%d/%d/%d/%d %.2f", a, attr(res[a].algo, CUBLASLT_ALGO_CONFIG_ID), attr(res[a].algo, CUBLASLT_ALGO_CONFIG_TILE_ID),
               attr(res[a].algo, CUBLASLT_ALGO_CONFIG_STAGES_ID), attr(res[a].algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM), fl / t / 1e9);
      }
      float tf = 0;
      if (have_fixed) {
        cublasLtMatmulHeuristicResult_t chk; memset(&chk, 0, sizeof(chk));
        if (cublasLtMatmulAlgoCheck(lt, op, la, lb, lc, lc, &fixed, &chk) == CUBLAS_STATUS_SUCCESS)
          tf = med([&] { CK(cublasLtMatmul(lt, op, &m1, Ap, la, Bp, lb, &one, Cp, lc, Cp, lc, &fixed, ws, wsb, 0)); });
      }
      printf(" | fixed %.2f best %d\n", tf > 0 ? fl / tf / 1e9 : 0.0, best);
      s_blas += tb; s_first += tfirst; s_best += tbest; s_fixed += tf > 0 ? tf : tb;
      cublasLtMatrixLayoutDestroy(la); cublasLtMatrixLayoutDestroy(lb); cublasLtMatrixLayoutDestroy(lc);
    }
    printf("SUM n=%lld: blas %.2f ms (%.2f TF/s)  lt-first %.2f (%.2f)  lt-best %.2f (%.2f)  fixed %.2f (%.2f)\n", (long long)n,
           s_blas, flops / s_blas / 1e9, s_first, flops / s_first / 1e9, s_best, flops / s_best / 1e9, s_fixed, flops / s_fixed / 1e9);
    fflush(stdout);
    CK(cudaFree(A));
  }
  return 0;
}
