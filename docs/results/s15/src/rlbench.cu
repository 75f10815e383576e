// session 15: can a right-looking update with an aligned copy of the panel
// dodge the odd leading dimension of RFP 'N' (ld = n + 1, base one off)?
// Sums over the block columns (n = 16384 / 32768, nb = 1024) of:
//  L   left-looking:  dsyrk + dgemm(N,T) (n-c-nb) x nb x c, all operands in the array
//  R   right-looking: trailing triangle (n-j) -= P P^T, P aligned (n-j) x nb,
//      recursive halves (gemm off-diagonal, dsyrk leaves <= 1024), C in the array
//  RS  right-looking, column strips of 1024: dsyrk + dgemm (rest) x 1024 x 1024
//  RG  right-looking on gchol's DMMA syrk kernel (one launch per step, full map)
//  CP  the panel copies alone (cublasDgeam, array -> aligned P)
// each with the array at ld = n (aligned) and ld = n + 1, base + 1 (RFP 'N').
// Also cublasLt's heuristic list on one odd-ld left-looking shape.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cuda_runtime.h>
#include "../../../../kernels/gchol_kernels.h"
#define CK(x) do { auto e_ = (x); if (e_ != 0) { printf("error %d at %s:%d\n", (int)e_, __FILE__, __LINE__); exit(1); } } while (0)
__global__ void fill(double *a, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)(i * 2654435761u) ^ seed; h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    a[i] = ((double)(h & 0xffffff) / 16777216.0 - 0.5) * 1e-3;
  }
}
static cublasHandle_t h;
static const double m1 = -1, one = 1, zero = 0;
static void rec(double *C, int64_t ldc, const double *P, int64_t ldp, int64_t i0, int64_t nn, int64_t k) {
  if (nn <= 1024) { CK(cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, nn, k, &m1, P + i0, ldp, &one, C + i0 + i0 * ldc, ldc)); return; }
  const int64_t n1 = ((nn / 2 + 255) / 256) * 256, n2 = nn - n1;
  rec(C, ldc, P, ldp, i0, n1, k);
  CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n2, n1, k, &m1, P + i0 + n1, ldp, P + i0, ldp, &one, C + i0 + n1 + i0 * ldc, ldc));
  rec(C, ldc, P, ldp, i0 + n1, n2, k);
}
int main() {
  CK(cublasCreate(&h));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  const int64_t nb = 1024;
  for (int64_t n : {16384, 32768}) {
    size_t elems = (size_t)(n + 2) * (n + 1) + 64;
    double *buf; CK(cudaMalloc(&buf, elems * 8));
    const int64_t ldp = n;
    double *P; CK(cudaMalloc(&P, (size_t)ldp * nb * 8));
    CK(cudaMemset(P, 0, (size_t)ldp * nb * 8));
    fill<<<1024, 256>>>(P, (size_t)ldp * nb, 99); CK(cudaGetLastError());
    double flops = 0;
    for (int64_t c = nb; c + nb <= n; c += nb) flops += 2.0 * c * (nb * (double)(n - c - nb) + nb * (nb + 1) / 2.0);
    double rflops = 0;
    for (int64_t j = nb; j < n; j += nb) rflops += (double)(n - j) * (n - j + 1) * nb;
    struct Cfg { int64_t ld, off; const char *name; } cfgs[] = {{n, 0, "ld=n"}, {n + 1, 1, "ld=n+1,+1"}};
    for (auto cf : cfgs) {
      double *A = buf + cf.off; const int64_t ld = cf.ld;
      const char *vn[] = {"L", "R", "RS", "RG", "CP"};
      for (int v = 0; v < 5; ++v) {
        std::vector<float> t;
        for (int rep = 0; rep < 4; ++rep) {
          fill<<<1024, 256>>>(buf, elems, 1234 + rep); CK(cudaGetLastError());
          CK(cudaEventRecord(e0));
          if (v == 0) {
            for (int64_t c = nb; c + nb <= n; c += nb) {
              const int64_t m = n - c - nb;
              CK(cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, nb, c, &m1, A + c, ld, &one, A + c + c * ld, ld));
              if (m) CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, nb, c, &m1, A + c + nb, ld, A + c, ld, &one, A + c + nb + c * ld, ld));
            }
          } else if (v == 1) {
            for (int64_t j = nb; j < n; j += nb) rec(A + j + j * ld, ld, P, ldp, 0, n - j, nb);
          } else if (v == 2) {
            for (int64_t j = nb; j < n; j += nb) {
              const int64_t mt = n - j; double *C = A + j + j * ld;
              for (int64_t c = 0; c < mt; c += 1024) {
                const int64_t w = std::min<int64_t>(1024, mt - c), r = mt - c - w;
                CK(cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, w, nb, &m1, P + c, ldp, &one, C + c + c * ld, ld));
                if (r) CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, r, w, nb, &m1, P + c + w, ldp, P + c, ldp, &one, C + c + w + c * ld, ld));
              }
            }
          } else if (v == 3) {
            gchol_outmap_t map = {0, 0, 0, ld};
            for (int64_t j = nb; j < n; j += nb)
              CK(gchol_dsyrk_diag_launch(n - j, nb, -1.0, P, ldp, nullptr, 1.0, A + j + j * ld, &map, 1, nullptr, 0));
          } else {
            for (int64_t j = nb; j < n; j += nb)
              CK(cublasDgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, n - j, nb, &one, A + j + (j - nb) * ld, ld, &zero, P, ldp, P, ldp));
          }
          CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
          float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
          if (rep > 0) t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        const double fl = v == 0 ? flops : rflops;
        printf("n=%6lld %-10s %-3s ms %9.2f  TF/s %6.2f\n", (long long)n, cf.name, vn[v], t[1], v == 4 ? 0.0 : fl / (t[1] * 1e-3) / 1e12);
        fflush(stdout);
      }
    }
    // cublasLt heuristics on one left-looking shape: m = n/2 - nb, nn = nb, k = n/2, odd ld, base + 1
    {
      cublasLtHandle_t lt; CK(cublasLtCreate(&lt));
      const int64_t c = n / 2, m = n - c - nb; 
      for (auto cf : cfgs) {
        double *A = buf + cf.off; const int64_t ld = cf.ld;
        cublasLtMatmulDesc_t op; CK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_64F, CUDA_R_64F));
        cublasOperation_t tn = CUBLAS_OP_N, tt = CUBLAS_OP_T;
        CK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &tn, sizeof(tn)));
        CK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tt, sizeof(tt)));
        cublasLtMatrixLayout_t la, lb, lc;
        CK(cublasLtMatrixLayoutCreate(&la, CUDA_R_64F, m, c, ld));
        CK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_64F, nb, c, ld));
        CK(cublasLtMatrixLayoutCreate(&lc, CUDA_R_64F, m, nb, ld));
        cublasLtMatmulPreference_t pref; CK(cublasLtMatmulPreferenceCreate(&pref));
        size_t wsb = 64 << 20; void *ws; CK(cudaMalloc(&ws, wsb));
        CK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsb, sizeof(wsb)));
        cublasLtMatmulHeuristicResult_t res[24]; int nres = 0;
        const double *Ap = A + c + nb, *Bp = A + c; double *Cp = A + c + nb + c * ld;
        CK(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 24, res, &nres));
        printf("cublasLt n=%lld %s shape %lldx%lldx%lld: %d algos\n", (long long)n, cf.name, (long long)m, (long long)nb, (long long)c, nres);
        for (int a = 0; a < nres; ++a) {
          std::vector<float> t;
          for (int rep = 0; rep < 5; ++rep) {
            CK(cudaEventRecord(e0));
            cublasStatus_t s = cublasLtMatmul(lt, op, &m1, Ap, la, Bp, lb, &one, Cp, lc, Cp, lc, &res[a].algo, ws, wsb, 0);
            if (s) { printf("  algo %d status %d\n", a, (int)s); break; }
            CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
            float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (rep) t.push_back(ms);
          }
          if (t.size() < 4) continue;
          std::sort(t.begin(), t.end());
          int tile = 0, stages = 0, splitk = 0; size_t sz;
          cublasLtMatmulAlgoConfigGetAttribute(&res[a].algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof(tile), &sz);
          cublasLtMatmulAlgoConfigGetAttribute(&res[a].algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof(stages), &sz);
          cublasLtMatmulAlgoConfigGetAttribute(&res[a].algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk, sizeof(splitk), &sz);
          printf("  algo %2d tile %3d stages %3d splitk %2d: %.3f ms %.2f TF/s\n", a, tile, stages, splitk, t[1], 2.0 * m * nb * c / (t[1] * 1e-3) / 1e12);
        }
        CK(cudaEventRecord(e0));
        CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, nb, c, &m1, Ap, ld, Bp, ld, &one, Cp, ld));
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        std::vector<float> t;
        for (int rep = 0; rep < 3; ++rep) {
          CK(cudaEventRecord(e0));
          CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, nb, c, &m1, Ap, ld, Bp, ld, &one, Cp, ld));
          CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
          float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        printf("  cublasDgemm: %.3f ms %.2f TF/s\n", t[1], 2.0 * m * nb * c / (t[1] * 1e-3) / 1e12);
        // aligned A/B (P), odd C: the right-looking shape m x nb x k=nb
        {
          std::vector<float> t2;
          for (int rep = 0; rep < 4; ++rep) {
            CK(cudaEventRecord(e0));
            CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n - 2 * nb, nb, nb, &m1, P + nb, ldp, P, ldp, &one, A + nb + nb + nb * ld, ld));
            CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
            float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (rep) t2.push_back(ms);
          }
          std::sort(t2.begin(), t2.end());
          printf("  P-aligned gemm %lldx%lldx%lld into C %s: %.3f ms %.2f TF/s\n", (long long)(n - 2 * nb), (long long)nb, (long long)nb, cf.name, t2[1], 2.0 * (n - 2 * nb) * nb * nb / (t2[1] * 1e-3) / 1e12);
        }
        cudaFree(ws);
        cublasLtMatmulPreferenceDestroy(pref); cublasLtMatrixLayoutDestroy(la); cublasLtMatrixLayoutDestroy(lb); cublasLtMatrixLayoutDestroy(lc); cublasLtMatmulDescDestroy(op);
      }
      cublasLtDestroy(lt);
    }
    CK(cudaFree(buf)); CK(cudaFree(P));
  }
  return 0;
}
