// session 16, call 8: can FP64 emulation on the H100's INT8 tensor cores
// (Ozaki scheme II: integer slices modulo small coprime moduli, one exact INT8 GEMM per modulus,
// Chinese remaindering back to double) beat native DGEMM on the left-looking bulk-update shapes?
// The issue-3 target for double at 32768 / 40960 (1.3x cuSOLVER, ~57 TFLOP/s) lies above what
// native DGEMM runs at on those shapes, so only a faster product can reach it.
//
// Per shape C (m x n) -= A (m x k) * B (n x k)^T, double, all three inside one N x N column-major
// array as a left-looking factorization has them (N = m + n + k, ld N):
//   native  cublasDgemm (N, T) in place;
//   conv    A and B to S planes of int8 residues each (each row scaled by a power of two so
//           that its 2-norm stays below 2^alpha, alpha <= 62 chosen from the moduli's product P
//           so that |A'B'^T| < P/2; K-major planes for the INT8 GEMM's TN form);
//   imma    the S products as one strided-batched cublasLt INT8 GEMM (int32 sums, exact:
//           k * 128^2 < 2^31 for k < 131072);
//   crt     per output: the balanced residues, Garner's mixed radix with balanced digits (the
//           exact balanced representative, no cancellation), Horner in double, unscaled, C -= it.
// Reports ms and the equivalent TFLOP/s (2mnk / t) of each, and the errors of native and
// emulated results on sampled entries against a long-double reference, relative to
// sum_h |a_ih||b_jh| (the scale of DGEMM's error bound); slack = 8 repeats S = 14 with each row
// scaled 8 bits below its norm (the error when the scale comes from a larger bound). In a Cholesky the conversions of L's
// columns would be done once (row i of L has 2-norm sqrt(a_ii), a scaling known in advance),
// so "imma + crt" is the per-update cost to compare with "native".
#include "oz_common.cuh"

struct Shape { int64_t m, n, k; };

template <int S>
static void run_shape(cublasHandle_t h, cublasLtHandle_t lt, const Shape &sh, int slack, void *ws, size_t wsb) {
  const int64_t m = sh.m, n = sh.n, k = sh.k;
  double log2P = 0;
  const int alpha = oz_setup<S>(&log2P);

  // The operands where the factorization has them (as ltprobe): one N x N array, N = m + n + k,
  // column c = k; A = rows c+n.. of columns 0..c, B = rows c..c+n, C below the diagonal block.
  const int64_t N = m + n + k, c = k;
  double *L, *C0, *Ce;
  CK(cudaMalloc(&L, N * N * 8)); CK(cudaMalloc(&C0, m * n * 8)); CK(cudaMalloc(&Ce, m * n * 8));
  fill<<<1024, 256>>>(L, N * N, 11);
  CK(cudaGetLastError());
  const double *A = L + c + n, *B = L + c;
  double *Cn = L + c + n + c * N;
  CK(cudaMemcpy2D(C0, m * 8, Cn, N * 8, m * 8, n, cudaMemcpyDeviceToDevice));
  int8_t *RA, *RB; int32_t *Cl; int *mu, *nu;
  // residue planes packed (ld k); in a factorization they would keep the array's row stride
  CK(cudaMalloc(&RA, (size_t)S * m * k)); CK(cudaMalloc(&RB, (size_t)S * n * k));
  CK(cudaMalloc(&Cl, (size_t)S * m * n * 4)); CK(cudaMalloc(&mu, m * 4)); CK(cudaMalloc(&nu, n * 4));

  // native, in place at ld N
  const double m1 = -1, one = 1;
  auto native = [&] { CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, (int)m, (int)n, (int)k, &m1, A, (int)N, B, (int)N, &one, Cn, (int)N)); };
  const float t_nat = med(native);

  // emulated pieces
  auto conv = [&] {
    row_scale<<<(unsigned)((m + 127) / 128), 128>>>((int)m, k, A, N, alpha, slack, mu);
    row_scale<<<(unsigned)((n + 127) / 128), 128>>>((int)n, k, B, N, alpha, slack, nu);
    to_residues<S><<<dim3((unsigned)((m + 31) / 32), (unsigned)((k + 31) / 32)), dim3(32, 8)>>>((int)m, k, A, N, mu, RA, k, m * k);
    to_residues<S><<<dim3((unsigned)((n + 31) / 32), (unsigned)((k + 31) / 32)), dim3(32, 8)>>>((int)n, k, B, N, nu, RB, k, n * k);
    CK(cudaGetLastError());
  };
  cublasLtMatmulDesc_t op; CK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32I, CUDA_R_32I));
  cublasOperation_t tt = CUBLAS_OP_T, tn = CUBLAS_OP_N;
  CK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &tt, sizeof(tt)));
  CK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tn, sizeof(tn)));
  cublasLtMatrixLayout_t la, lb, lc;
  CK(cublasLtMatrixLayoutCreate(&la, CUDA_R_8I, k, m, k));
  CK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_8I, k, n, k));
  CK(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32I, m, n, m));
  const int32_t batch = S;
  const int64_t sa = m * k, sb = n * k, sc = m * n;
  for (auto [Lay, st] : {std::pair{la, sa}, std::pair{lb, sb}, std::pair{lc, sc}}) {
    CK(cublasLtMatrixLayoutSetAttribute(Lay, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof(batch)));
    CK(cublasLtMatrixLayoutSetAttribute(Lay, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &st, sizeof(st)));
  }
  cublasLtMatmulPreference_t pref; CK(cublasLtMatmulPreferenceCreate(&pref));
  CK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsb, sizeof(wsb)));
  cublasLtMatmulHeuristicResult_t res[8]; int nres = 0;
  const cublasStatus_t hs = cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 8, res, &nres);
  if (hs != CUBLAS_STATUS_SUCCESS || nres == 0) { printf("no INT8 algorithm (status %d)\n", (int)hs); exit(1); }
  const int32_t ione = 1, izero = 0;
  auto imma = [&] { CK(cublasLtMatmul(lt, op, &ione, RA, la, RB, lb, &izero, Cl, lc, Cl, lc, &res[0].algo, ws, wsb, 0)); };
  auto crt = [&] {
    crt_update<S><<<(unsigned)((m * n + 255) / 256), 256>>>((int)m, (int)n, Cl, mu, nu, Ce, m);
    CK(cudaGetLastError());
  };
  const float t_conv = med(conv), t_imma = med(imma);
  CK(cudaMemcpy(Ce, C0, m * n * 8, cudaMemcpyDeviceToDevice));
  const float t_crt = med([&] { crt(); });
  // one clean pass of each for the error check
  CK(cudaMemcpy2D(Cn, N * 8, C0, m * 8, m * 8, n, cudaMemcpyDeviceToDevice)); native();
  CK(cudaMemcpy(Ce, C0, m * n * 8, cudaMemcpyDeviceToDevice)); conv(); imma(); crt();
  CK(cudaDeviceSynchronize());

  // sampled long-double reference (operands copied out packed)
  std::vector<double> hA(m * k), hB(n * k), hC0(m * n), hCn(m * n), hCe(m * n);
  CK(cudaMemcpy2D(hA.data(), m * 8, A, N * 8, m * 8, k, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy2D(hB.data(), n * 8, B, N * 8, n * 8, k, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy2D(hCn.data(), m * 8, Cn, N * 8, m * 8, n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hC0.data(), C0, m * n * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hCe.data(), Ce, m * n * 8, cudaMemcpyDeviceToHost));
  double en = 0, ee = 0;
  unsigned s = 12345;
  for (int t = 0; t < 256; ++t) {
    s = s * 1103515245u + 12345u; const int64_t i = (s >> 8) % m;
    s = s * 1103515245u + 12345u; const int64_t j = (s >> 8) % n;
    long double acc = hC0[i + j * m], mag = std::fabs(hC0[i + j * m]);
    for (int64_t hh = 0; hh < k; ++hh) {
      const long double p = (long double)hA[i + hh * m] * hB[j + hh * n];
      acc -= p; mag += std::fabs(p);
    }
    en = std::max(en, (double)(std::fabs((long double)hCn[i + j * m] - acc) / mag));
    ee = std::max(ee, (double)(std::fabs((long double)hCe[i + j * m] - acc) / mag));
  }
  const double fl = 2.0 * m * n * k;
  printf("S=%2d log2P=%6.1f alpha=%2d slack=%d  %6lld x %5lld x %6lld (ld %6lld) | native %8.3f ms %5.1f TF | conv %7.3f | imma %8.3f ms (%6.1f TOPS int8, %5.1f TF eq) "
         "| crt %6.3f | imma+crt %8.3f ms %5.1f TF eq = %.2fx native | max err/(eps sum|a||b|) native %.2f emul %.2f\n",
         S, log2P, alpha, slack, (long long)m, (long long)n, (long long)k, (long long)N, t_nat, fl / t_nat / 1e9, t_conv, t_imma,
         fl * S / t_imma / 1e9, fl / t_imma / 1e9, t_crt, t_imma + t_crt, fl / (t_imma + t_crt) / 1e9,
         t_nat / (t_imma + t_crt), en / 1.11e-16, ee / 1.11e-16);
  fflush(stdout);
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(la); cublasLtMatrixLayoutDestroy(lb); cublasLtMatrixLayoutDestroy(lc);
  cublasLtMatmulDescDestroy(op);
  for (void *p : {(void *)L, (void *)C0, (void *)Ce, (void *)RA, (void *)RB, (void *)Cl, (void *)mu, (void *)nu}) CK(cudaFree(p));
}

int main(int argc, char **argv) {
  const bool quick = argc > 1 && !strcmp(argv[1], "--quick"); // one small shape (for the sanitizer)
  cublasHandle_t h; CK(cublasCreate(&h));
  cublasLtHandle_t lt; CK(cublasLtCreate(&lt));
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  size_t wsb = 64 << 20; void *ws; CK(cudaMalloc(&ws, wsb));
  // left-looking update shapes of n = 32768 / 40960 (nb = 1024), and a square product at ld 24576
  const Shape shapes[] = {{23552, 1024, 8192}, {15360, 1024, 16384}, {7168, 1024, 24576},
                          {19456, 1024, 20480}, {8192, 8192, 8192}};
  if (quick) {
    run_shape<14>(h, lt, Shape{1000, 256, 1024}, 0, ws, wsb);
    return 0;
  }
  for (const Shape &sh : shapes) {
    run_shape<16>(h, lt, sh, 0, ws, wsb);
    run_shape<14>(h, lt, sh, 0, ws, wsb);
    run_shape<13>(h, lt, sh, 0, ws, wsb);
    run_shape<14>(h, lt, sh, 8, ws, wsb);
  }
  return 0;
}
