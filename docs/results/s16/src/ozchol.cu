// session 16, call 8: a left-looking Cholesky (lower, nb =
// 1024, no lookahead, one stream) whose bulk update runs on the INT8 tensor cores through the
// Ozaki scheme II (oz_common.cuh), against the same loop on cuBLAS dsyrk + dgemm, gchol's own
// dpotrf and cuSOLVER, in one process on the same matrix: does an emulated update pay inside a
// factorization, and is the factor as good?
//
// Why the scaling is sound: row i of L has 2-norm sqrt(a_ii), so with row i scaled by
// 2^(alpha - e_i), sqrt(a_ii) < 2^e_i, every entry is an integer below 2^alpha and, by
// Cauchy-Schwarz, every update entry is below 2^(2 alpha) <= P/2: alpha = 54 with 14 moduli
// (P ~ 2^110), 62 with 16 (P ~ 2^125). The rounding error of an update entry over k columns is
// then at most ~4 sqrt(k) 2^-alpha sqrt(a_ii a_jj), typically ~2^-alpha sqrt(a_ii a_jj): the
// form of Cholesky's own backward error bound, but on rows dominated by the diagonal coarser,
// entry by entry, than native dgemm's error (a CPU simulation of the review: 14 moduli lose
// ~1.5 digits of L's off-diagonal entries at n = 1024, 16 match native), hence both variants
// and two matrices: bench_potrf's uniform(-1,1) + n I, and B B^T / n + I/100 (B uniform),
// whose rows are not dominated by the diagonal. Each block column of L is converted once,
// after its trsm (S int8 planes of n x n, K-major, row stride n; n a multiple of 16 here);
// rows j .. j+nb of block column j are never read again.
//
// Not a library path yet: a matrix that is not positive definite can make a row's partial norm
// exceed sqrt(a_ii), and the CRT then wraps silently (the residual check below catches it);
// NaN converts to zero residues. A library form needs a per-row norm check in the conversion.
//
// The diagonal block's potrf is gchol's (async, same stream), the panel's trsm cuBLAS's.
// Checks: ||A x - L (L^T x)|| / (n eps ||A x||) (bench_potrf's), info (a word per diagonal
// block, the first failure kept), and L entry by entry against cuSOLVER's on 65536 sampled
// entries below the diagonal (largest and 99th-percentile relative difference).
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

// B B^T / n + I/100 for a symmetric B (n x n, uniform in (-1, 1)) in Bscratch: the lower
// triangle of A0 (eigenvalues in about [0.01, 1.34])
static void wishart(cublasHandle_t h, cudaStream_t s, int64_t n, double *A0, double *Bscratch);

// L[idx[t]] -> out[t]
__global__ void gather(int64_t count, const int64_t *idx, const double *L, double *out) {
  const int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (t < count) out[t] = L[idx[t]];
}
__global__ void add_diag(int64_t n, double *A, double v) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) A[i + i * n] += v;
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
    // one info word per diagonal block (each call clears its own)
    CKB(gchol_dpotrf_async('L', jb, A + j + j * n, n, c.dinfo + j / nb, NULL, c.q));
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

static void wishart(cublasHandle_t h, cudaStream_t s, int64_t n, double *A0, double *Bscratch) {
  CK(cudaMemsetAsync(A0, 0, n * n * 8, s)); // (the upper triangle is never read)
  spd_fill<<<4096, 256, 0, s>>>(Bscratch, n, 99u);
  CK(cudaGetLastError());
  add_diag<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(n, Bscratch, -(double)n); // remove spd_fill's n I
  CK(cudaGetLastError());
  const double scale = 1.0 / (double)n, zero = 0;
  CKB(cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, (int)n, (int)n, &scale, Bscratch, (int)n, &zero, A0, (int)n));
  add_diag<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(n, A0, 0.01);
  CK(cudaGetLastError());
}

int main(int argc, char **argv) {
  // (n, matrix kind): 0 = uniform(-1,1) + n I, 1 = B B^T / n + I/100
  std::vector<std::pair<int64_t, int>> cases = {{16384, 0}, {32768, 0}, {40960, 0}, {16384, 1}, {32768, 1}};
  if (argc > 1 && !strcmp(argv[1], "--quick")) cases = {{3072, 0}, {3072, 1}}; // (for the sanitizer)
  Ctx c;
  c.nb = 1024;
  CKB(gchol_queue_create(0, &c.q));
  c.s = gchol_queue_stream(c.q);
  CKB(cublasCreate(&c.h)); CKB(cublasSetStream(c.h, c.s));
  CKB(cublasLtCreate(&c.lt));
  cusolverDnHandle_t sol; CKB(cusolverDnCreate(&sol)); CKB(cusolverDnSetStream(sol, c.s));
  CK(cudaMalloc(&c.dinfo, 64 * 8)); // a word per diagonal block (n <= 65536)
  c.wsb = 64 << 20; CK(cudaMalloc(&c.ws, c.wsb));
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  double log2P = 0;
  const int a16 = oz_setup<16>(&log2P);
  double log2P14 = 0;
  const int a14 = oz_setup<14>(&log2P14);
  printf("# left-looking lower, nb 1024, no lookahead; emulated update: Ozaki II, rows scaled by sqrt(a_ii):\n"
         "# oz14 = 14 moduli (log2 P %.1f, alpha %d), oz16 = 16 (log2 P %.1f, alpha %d)\n", log2P14, a14, log2P, a16);
  printf("#     n A    variant  |       ms   TF/s | x cuSOLVER | check  info | L vs cuSOLVER: max 99%% | imma  crt  conv (ms, summed)\n");
  for (auto [n, kind] : cases) {
    c.n = n;
    double *A0, *A;
    CK(cudaMalloc(&A0, n * n * 8)); CK(cudaMalloc(&A, n * n * 8));
    CK(cudaMalloc(&c.R, (size_t)kMaxPlanes * n * n)); CK(cudaMalloc(&c.Cl, (size_t)kMaxPlanes * n * c.nb * 4));
    CK(cudaMalloc(&c.mu, n * 4));
    if (kind == 0) {
      spd_fill<<<4096, 256, 0, c.s>>>(A0, n, 1234u);
      CK(cudaGetLastError());
    } else {
      wishart(c.h, c.s, n, A0, A);
    }
    // sampled entries below the diagonal, for the comparison with cuSOLVER's L
    const int64_t nsamp = 65536;
    std::vector<int64_t> hidx(nsamp);
    unsigned long long z = 4242;
    for (auto &ix : hidx) {
      z = z * 6364136223846793005ull + 1442695040888963407ull; int64_t i = (int64_t)((z >> 20) % (unsigned long long)n);
      z = z * 6364136223846793005ull + 1442695040888963407ull; int64_t j = (int64_t)((z >> 20) % (unsigned long long)n);
      if (i == j) i = (i + 1) % n;
      if (i < j) std::swap(i, j);
      ix = i + j * n;
    }
    int64_t *didx; double *dsamp;
    CK(cudaMalloc(&didx, nsamp * 8)); CK(cudaMalloc(&dsamp, nsamp * 8));
    CK(cudaMemcpy(didx, hidx.data(), nsamp * 8, cudaMemcpyHostToDevice));
    std::vector<double> ref(nsamp), got(nsamp);
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
        CK(cudaMemsetAsync(c.dinfo, 0, 64 * 8, c.s));
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
      int64_t info = 0, words[64]; int sinf = 0;
      CK(cudaMemcpy(words, c.dinfo, sizeof(words), cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&sinf, sinfo, 4, cudaMemcpyDeviceToHost));
      if (v == 0) info = sinf;
      else if (v == 1) info = words[0];
      else for (int b = 0; b < 64 && !info; ++b) if (words[b] > 0) info = b * c.nb + words[b];
      const double chk = check(c, A0, A);
      gather<<<(unsigned)((nsamp + 255) / 256), 256, 0, c.s>>>(nsamp, didx, A, dsamp);
      CK(cudaGetLastError());
      CK(cudaMemcpy(v == 0 ? ref.data() : got.data(), dsamp, nsamp * 8, cudaMemcpyDeviceToHost));
      double dmax = 0, d99 = 0;
      if (v > 0) {
        std::vector<double> rel;
        for (int64_t t = 0; t < nsamp; ++t)
          if (ref[t] != 0) rel.push_back(std::fabs(got[t] - ref[t]) / std::fabs(ref[t]));
        std::sort(rel.begin(), rel.end());
        if (!rel.empty()) { dmax = rel.back(); d99 = rel[(size_t)(0.99 * (rel.size() - 1))]; }
      }
      c.t_imma = c.t_crt = c.t_conv = 0;
      if (v >= 3) { // one more run with phase events, for the breakdown
        CK(cudaMemcpyAsync(A, A0, n * n * 8, cudaMemcpyDeviceToDevice, c.s));
        if (v == 3) left_looking<14>(c, A, true);
        else left_looking<16>(c, A, true);
      }
      printf("%7lld %-4s %-8s | %8.2f %6.2f | %10.3f | %5.3f %5lld | %8.1e %8.1e | %s", (long long)n, kind ? "BBt" : "u+nI",
             names[v], t, fl / t / 1e9, t_sol / t, chk, (long long)info, dmax, d99, chk < 30 && info == 0 ? "ok    " : "FAILED");
      if (v >= 3) printf(" | %.1f %.1f %.1f", c.t_imma, c.t_crt, c.t_conv);
      printf("\n");
      fflush(stdout);
    }
    cudaFree(work); cudaFree(sinfo); cudaFree(A0); cudaFree(A); cudaFree(c.R); cudaFree(c.Cl); cudaFree(c.mu);
    cudaFree(didx); cudaFree(dsamp);
  }
  return 0;
}
