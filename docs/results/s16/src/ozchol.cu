// session 16, for the next session (call 8, after ozbench): a left-looking Cholesky (lower, nb =
// 1024, no lookahead, one stream) whose bulk update runs on the INT8 tensor cores through the
// Ozaki scheme II (oz_common.cuh), against the same loop on cuBLAS dsyrk + dgemm, gchol's own
// dpotrf and cuSOLVER, in one process on the same matrix: does an emulated update pay inside a
// factorization, and is the factor as good?
//
// Why the scaling is sound: row i of L has 2-norm sqrt(a_ii), so with row i scaled by
// 2^(alpha - e_i), sqrt(a_ii) < 2^e_i, every entry is an integer below 2^alpha and, by
// Cauchy-Schwarz, every update entry is below 2^(2 alpha) <= P/2: alpha = 54 with 14 moduli
// (P ~ 2^110), 62 with 16 (P ~ 2^125). The truncation error of an update entry is then about
// 2^-alpha sqrt(a_ii a_jj), the form of Cholesky's own backward error bound; on a matrix whose
// rows are dominated by the diagonal that is coarser, entry by entry, than native dgemm's error,
// hence the two variants. Each block column of L is converted once, after its trsm (S int8
// planes of n x n, K-major, row stride n); rows j .. j+nb of block column j are never read again.
//
// The diagonal block's potrf is gchol's (async, same stream), the panel's trsm cuBLAS's.
// Checks: ||A x - L (L^T x)|| / (n eps ||A x||) (bench_potrf's) and info.
#include "oz_common.cuh"
#include <cusolverDn.h>
#include "gchol.h"

#define CKB(x) CK((int)(x))

constexpr int kMaxPlanes = 16;

__global__ void spd_fill(double *A, int64_t n, unsigned seed) {
  // a_ij = a_ji uniform in (-1, 1) from (min, max), plus n on the diagonal (bench_potrf's kind)
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < n * n; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t i = e % n, j = e / n, lo = i < j ? i : j, hi = i < j ? j : i;
    unsigned long long z = (unsigned long long)(lo * n + hi) * 0x9E3779B97F4A7C15ull + seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull; z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; z ^= z >> 31;
    A[e] = ((double)(z >> 11) / 9007199254740992.0) * 2.0 - 1.0 + (i == j ? (double)n : 0.0);
  }
}

// mu[i] = alpha - e_i, sqrt(a_ii) < 2^e_i
__global__ void diag_scale(int64_t n, const double *A, int alpha, int *mu) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  int e = 0;
  frexp(sqrt(A[i + i * n]) * (1 + 1e-15), &e);
  mu[i] = alpha - e;
}

struct Ctx {
  int64_t n, nb;
  cudaStream_t s;
  cublasHandle_t h;
  cublasLtHandle_t lt;
  gchol_queue_t q;
  int64_t *dinfo;
  void *ws; size_t wsb;
  int8_t *R = nullptr; int32_t *Cl = nullptr; int *mu = nullptr;
  float t_imma = 0, t_crt = 0, t_conv = 0; // emulated phases, summed over one factorization
};

// One left-looking factorization of the n x n lower triangle of A (ld n). S > 0: the update on
// INT8 with S moduli (phases timed with events when asked), S = 0: cublasDsyrk + cublasDgemm.
template <int S>
static void left_looking(Ctx &c, double *A, bool phases) {
  constexpr bool emulate = S > 0;
  constexpr int kS = S > 0 ? S : 1;
  const int64_t n = c.n, nb = c.nb;
  const double m1 = -1, one = 1;
  std::vector<cudaEvent_t> ev;
  auto mark = [&] { if (!phases) return; cudaEvent_t e; CK(cudaEventCreate(&e)); CK(cudaEventRecord(e, c.s)); ev.push_back(e); };
  if constexpr (emulate) {
    double log2P = 0;
    diag_scale<<<(unsigned)((n + 255) / 256), 256, 0, c.s>>>(n, A, oz_setup<kS>(&log2P), c.mu);
    CK(cudaGetLastError());
  }
  for (int64_t j = 0; j < n; j += nb) {
    const int64_t mrows = n - j, jb = std::min(nb, n - j);
    if (j > 0) {
      if constexpr (emulate) {
        cublasLtMatmulDesc_t op; CKB(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32I, CUDA_R_32I));
        cublasOperation_t tt = CUBLAS_OP_T, tn = CUBLAS_OP_N;
        CKB(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &tt, sizeof(tt)));
        CKB(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tn, sizeof(tn)));
        cublasLtMatrixLayout_t la, lb, lc;
        CKB(cublasLtMatrixLayoutCreate(&la, CUDA_R_8I, j, mrows, n));
        CKB(cublasLtMatrixLayoutCreate(&lb, CUDA_R_8I, j, jb, n));
        CKB(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32I, mrows, jb, mrows));
        const int32_t batch = kS;
        const int64_t sab = n * n, sc = mrows * jb;
        for (auto [L, st] : {std::pair{la, sab}, std::pair{lb, sab}, std::pair{lc, sc}}) {
          CKB(cublasLtMatrixLayoutSetAttribute(L, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof(batch)));
          CKB(cublasLtMatrixLayoutSetAttribute(L, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &st, sizeof(st)));
        }
        cublasLtMatmulPreference_t pref; CKB(cublasLtMatmulPreferenceCreate(&pref));
        CKB(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &c.wsb, sizeof(c.wsb)));
        cublasLtMatmulHeuristicResult_t res; int nres = 0;
        const cublasStatus_t hs = cublasLtMatmulAlgoGetHeuristic(c.lt, op, la, lb, lc, lc, pref, 1, &res, &nres);
        if (hs != CUBLAS_STATUS_SUCCESS || nres == 0) { printf("no INT8 algorithm at j = %lld (status %d)\n", (long long)j, (int)hs); exit(1); }
        const int32_t ione = 1, izero = 0;
        const int8_t *Rj = c.R + j * n; // row j of every plane, columns 0 .. j
        mark();
        CKB(cublasLtMatmul(c.lt, op, &ione, Rj, la, Rj, lb, &izero, c.Cl, lc, c.Cl, lc, &res.algo, c.ws, c.wsb, c.s));
        mark();
        crt_update<kS><<<(unsigned)((mrows * jb + 255) / 256), 256, 0, c.s>>>((int)mrows, (int)jb, c.Cl, c.mu + j, c.mu + j,
                                                                           A + j + j * n, n, true);
        CK(cudaGetLastError());
        mark();
        cublasLtMatmulPreferenceDestroy(pref);
        cublasLtMatrixLayoutDestroy(la); cublasLtMatrixLayoutDestroy(lb); cublasLtMatrixLayoutDestroy(lc);
        cublasLtMatmulDescDestroy(op);
      } else {
        CKB(cublasDsyrk(c.h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, (int)jb, (int)j, &m1, A + j, (int)n, &one, A + j + j * n, (int)n));
        if (mrows > jb)
          CKB(cublasDgemm(c.h, CUBLAS_OP_N, CUBLAS_OP_T, (int)(mrows - jb), (int)jb, (int)j, &m1, A + j + jb, (int)n, A + j, (int)n,
                          &one, A + j + jb + j * n, (int)n));
      }
    }
    // (dinfo ends with the last block's info; the residual check covers the others)
    CKB(gchol_dpotrf_async('L', jb, A + j + j * n, n, c.dinfo, NULL, c.q));
    if (mrows > jb) {
      CKB(cublasDtrsm(c.h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, (int)(mrows - jb), (int)jb,
                      &one, A + j + j * n, (int)n, A + j + jb + j * n, (int)n));
      if constexpr (emulate) if (j + jb < n) {
        mark();
        // rows j+jb .. n of block column j -> planes at (row, column j)
        to_residues<kS><<<dim3((unsigned)((mrows - jb + 31) / 32), (unsigned)((jb + 31) / 32)), dim3(32, 8), 0, c.s>>>(
            (int)(mrows - jb), jb, A + j + jb + j * n, n, c.mu + j + jb, c.R + (j + jb) * n + j, n, n * n);
        CK(cudaGetLastError());
        mark();
      }
    }
  }
  if (phases && !ev.empty()) {
    CK(cudaEventSynchronize(ev.back()));
    // marks come in runs: (imma start, imma end = crt start, crt end) per update, (conv start, end) per panel
    size_t e = 0;
    for (int64_t j = 0; j < n; j += nb) {
      float ms = 0;
      if (j > 0) {
        CK(cudaEventElapsedTime(&ms, ev[e], ev[e + 1])); c.t_imma += ms;
        CK(cudaEventElapsedTime(&ms, ev[e + 1], ev[e + 2])); c.t_crt += ms;
        e += 3;
      }
      if (j + nb < n) { CK(cudaEventElapsedTime(&ms, ev[e], ev[e + 1])); c.t_conv += ms; e += 2; }
    }
    for (auto x : ev) cudaEventDestroy(x);
  }
}

// ||A0 x - L (L^T x)|| / (n eps ||A0 x||)
static double check(Ctx &c, const double *A0, const double *L) {
  const int64_t n = c.n;
  double *x, *y, *z;
  CK(cudaMalloc(&x, n * 8)); CK(cudaMalloc(&y, n * 8)); CK(cudaMalloc(&z, n * 8));
  std::vector<double> hx(n);
  unsigned s = 777;
  for (auto &v : hx) { s = s * 1103515245u + 12345u; v = (double)(s >> 8) / 16777216.0 - 0.5; }
  CK(cudaMemcpy(x, hx.data(), n * 8, cudaMemcpyHostToDevice));
  const double one = 1, zero = 0, m1 = -1;
  CKB(cublasDsymv(c.h, CUBLAS_FILL_MODE_LOWER, (int)n, &one, A0, (int)n, x, 1, &zero, y, 1));
  CK(cudaMemcpyAsync(z, x, n * 8, cudaMemcpyDeviceToDevice, c.s));
  CKB(cublasDtrmv(c.h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, (int)n, L, (int)n, z, 1));
  CKB(cublasDtrmv(c.h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, (int)n, L, (int)n, z, 1));
  double ny = 0, nd = 0;
  CKB(cublasDnrm2(c.h, (int)n, y, 1, &ny));
  CKB(cublasDaxpy(c.h, (int)n, &m1, y, 1, z, 1));
  CKB(cublasDnrm2(c.h, (int)n, z, 1, &nd));
  CK(cudaStreamSynchronize(c.s));
  cudaFree(x); cudaFree(y); cudaFree(z);
  return nd / ((double)n * 1.11e-16 * ny);
}

int main(int argc, char **argv) {
  std::vector<int64_t> sizes = {16384, 32768, 40960};
  if (argc > 1 && !strcmp(argv[1], "--quick")) sizes = {3072}; // (for the sanitizer)
  Ctx c;
  c.nb = 1024;
  CKB(gchol_queue_create(0, &c.q));
  c.s = gchol_queue_stream(c.q);
  CKB(cublasCreate(&c.h)); CKB(cublasSetStream(c.h, c.s));
  CKB(cublasLtCreate(&c.lt));
  cusolverDnHandle_t sol; CKB(cusolverDnCreate(&sol)); CKB(cusolverDnSetStream(sol, c.s));
  CK(cudaMalloc(&c.dinfo, 8));
  c.wsb = 64 << 20; CK(cudaMalloc(&c.ws, c.wsb));
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  double log2P = 0;
  const int a16 = oz_setup<16>(&log2P);
  double log2P14 = 0;
  const int a14 = oz_setup<14>(&log2P14);
  oz_setup<16>(&log2P);
  printf("# left-looking lower, nb 1024, no lookahead; emulated update: Ozaki II, rows scaled by sqrt(a_ii):\n"
         "# oz14 = 14 moduli (log2 P %.1f, alpha %d), oz16 = 16 (log2 P %.1f, alpha %d)\n", log2P14, a14, log2P, a16);
  printf("#     n variant     |       ms   TF/s | x cuSOLVER | check  info | imma  crt  conv (ms, summed)\n");
  for (int64_t n : sizes) {
    c.n = n;
    double *A0, *A;
    CK(cudaMalloc(&A0, n * n * 8)); CK(cudaMalloc(&A, n * n * 8));
    CK(cudaMalloc(&c.R, (size_t)kMaxPlanes * n * n)); CK(cudaMalloc(&c.Cl, (size_t)kMaxPlanes * n * c.nb * 4));
    CK(cudaMalloc(&c.mu, n * 4));
    spd_fill<<<4096, 256, 0, c.s>>>(A0, n, 1234u);
    CK(cudaGetLastError());
    int lwork = 0; double *work; int *sinfo;
    CKB(cusolverDnDpotrf_bufferSize(sol, CUBLAS_FILL_MODE_LOWER, (int)n, A, (int)n, &lwork));
    CK(cudaMalloc(&work, (size_t)lwork * 8)); CK(cudaMalloc(&sinfo, 4));
    const double fl = (double)n * n * n / 3.0;
    double t_sol = 0;
    const char *names[5] = {"cusolver", "gchol", "plain", "oz14", "oz16"};
    for (int v = 0; v < 5; ++v) {
      // warm-up + 3 timed, fresh copy each (the copy not timed)
      std::vector<float> ts;
      for (int r = 0; r < 4; ++r) {
        CK(cudaMemcpyAsync(A, A0, n * n * 8, cudaMemcpyDeviceToDevice, c.s));
        CK(cudaMemsetAsync(c.dinfo, 0, 8, c.s));
        CK(cudaEventRecord(e0, c.s));
        if (v == 0) CKB(cusolverDnDpotrf(sol, CUBLAS_FILL_MODE_LOWER, (int)n, A, (int)n, work, lwork, sinfo));
        else if (v == 1) CKB(gchol_dpotrf_async('L', n, A, n, c.dinfo, NULL, c.q));
        else if (v == 2) left_looking<0>(c, A, false);
        else if (v == 3) left_looking<14>(c, A, false);
        else left_looking<16>(c, A, false);
        CK(cudaEventRecord(e1, c.s)); CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r > 0) ts.push_back(ms);
      }
      std::sort(ts.begin(), ts.end());
      const double t = ts[1];
      if (v == 0) t_sol = t;
      int64_t info = 0; int sinf = 0;
      CK(cudaMemcpy(&info, c.dinfo, 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&sinf, sinfo, 4, cudaMemcpyDeviceToHost));
      if (v == 0) info = sinf;
      const double chk = check(c, A0, A);
      c.t_imma = c.t_crt = c.t_conv = 0;
      if (v >= 3) { // one more run with phase events, for the breakdown
        CK(cudaMemcpyAsync(A, A0, n * n * 8, cudaMemcpyDeviceToDevice, c.s));
        if (v == 3) left_looking<14>(c, A, true);
        else left_looking<16>(c, A, true);
      }
      printf("%7lld %-10s | %8.2f %6.2f | %10.3f | %5.3f %5lld | %s", (long long)n, names[v], t, fl / t / 1e9, t_sol / t, chk,
             (long long)info, chk < 30 && info == 0 ? "ok    " : "FAILED");
      if (v >= 3) printf(" | %.1f %.1f %.1f", c.t_imma, c.t_crt, c.t_conv);
      printf("\n");
      fflush(stdout);
    }
    cudaFree(work); cudaFree(sinfo); cudaFree(A0); cudaFree(A); cudaFree(c.R); cudaFree(c.Cl); cudaFree(c.mu);
  }
  return 0;
}
