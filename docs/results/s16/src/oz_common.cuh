// session 16: the shared pieces of ozbench.cu and ozchol.cu (Ozaki scheme II on INT8 tensor cores).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CK(x) do { auto e_ = (x); if ((int)e_ != 0) { printf("error %d at %s:%d\n", (int)e_, __FILE__, __LINE__); exit(1); } } while (0)

constexpr int kMaxS = 16;
// pairwise coprime, <= 256, so that balanced residues fit int8
__host__ __device__ constexpr int modp(int l) {
  const int p[kMaxS] = {256, 255, 253, 251, 247, 241, 239, 233, 229, 227, 223, 217, 211, 199, 197, 193};
  return p[l];
}
#define kP(l) modp(l)
// (p_0 ... p_{l-1})^{-1} mod p_l, the same for every S >= l + 1 (oz_setup checks it)
__constant__ int cInv[kMaxS] = {0, 1, 211, 182, 246, 184, 41, 115, 161, 54, 163, 149, 46, 142, 91, 116};

__device__ __forceinline__ int balanced(int r, int p) { // r in (-p, p) -> [-(p/2), (p-1)/2]
  if (r > (p - 1) / 2) r -= p;
  else if (r < -(p / 2)) r += p;
  return r;
}

__global__ void fill(double *a, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)(i * 2654435761u) ^ seed; h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    unsigned g = (unsigned)((i >> 32) * 2246822519u) ^ h; g ^= g >> 16;
    a[i] = (double)(h & 0xffffff) / 16777216.0 - 0.5 + (double)(g & 0xfff) / 68719476736.0;
  }
}

// Row scaling by the row's 2-norm: mu[i] = alpha - e_i, ||a_i|| < 2^e_i, so ||a_i|| 2^mu < 2^alpha
// and, by Cauchy-Schwarz, |sum_h A'_ih B'_jh| < 2^(2 alpha) whatever k is (a row-max scaling
// would need k 2^(2 alpha) < P/2: log2 k more bits, one or two more moduli). Each integer is
// then at most 2^alpha <= 2^62 and exact in double (above 2^52 a double is an integer already).
// Rounded to nearest, not truncated: truncation biases every product toward zero, which on a
// diagonal sums to ~sqrt(k) times the rounding error; the extra half unit moves the bound by a
// factor (1 + sqrt(k) 2^-(alpha+1))^2, far inside the margin of 2^(2 alpha) <= P/2.
// slack: bits left unused at the top (a Cholesky would scale row i of L by sqrt(a_ii), the norm of
// the whole row, not of the k columns an update reads: early updates then use fewer bits).
__global__ void row_scale(int rows, int64_t k, const double *A, int64_t lda, int alpha, int slack, int *mu) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  double ss = 0;
  for (int64_t h = 0; h < k; ++h) ss = fma(A[i + h * lda], A[i + h * lda], ss);
  int e = 0;
  frexp(sqrt(ss) * (1 + 1e-15), &e);
  mu[i] = ss > 0 ? alpha - e - slack : 0;
}

// A (rows x k, column-major) -> S planes R[l*plane + i*ldr + h] (K-major) of balanced residues
// of rint(a_ih 2^mu_i), through a 32 x 32 shared tile (coalesced reads along i, writes along h).
template <int S>
__global__ void to_residues(int rows, int64_t k, const double *A, int64_t lda, const int *mu, int8_t *R,
                            int64_t ldr, int64_t plane) {
  __shared__ double t[32][33];
  const int64_t i0 = (int64_t)blockIdx.x * 32, h0 = (int64_t)blockIdx.y * 32;
  for (int y = threadIdx.y; y < 32; y += 8) {
    const int64_t i = i0 + threadIdx.x, h = h0 + y;
    t[y][threadIdx.x] = (i < rows && h < k) ? rint(ldexp(A[i + h * lda], mu[i])) : 0.0;
  }
  __syncthreads();
  for (int y = threadIdx.y; y < 32; y += 8) {
    const int64_t i = i0 + y, h = h0 + threadIdx.x;
    if (i >= rows || h >= k) continue;
    const double x = t[threadIdx.x][y]; // |x| <= 2^62: an exact integer
#pragma unroll
    for (int l = 0; l < S; ++l) {
      const double p = kP(l);
      const double q = rint(x * (1.0 / p));
      // q is within ~6 of x/p (x (1/p) has relative error 2^-52, |x/p| < 2^55), so x - q p is an
      // integer below ~7p: the fma's single rounding leaves it exact
      const int r = (int)fma(-q, p, x);
      R[l * plane + i * ldr + h] = (int8_t)balanced(r % kP(l), kP(l));
    }
  }
}

// C[i + j ldc] -= 2^-(mu_i + nu_j) * CRT(Cl[l][i + j m]); lower: only i >= j.
template <int S>
__global__ void crt_update(int m, int n, const int32_t *Cl, const int *mu, const int *nu, double *C, int64_t ldc,
                           bool lower = false) {
  const int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (e >= (int64_t)m * n) return;
  const int i = (int)(e % m), j = (int)(e / m);
  if (lower && i < j) return;
  int v[S];
#pragma unroll
  for (int l = 0; l < S; ++l) {
    const int r = balanced(Cl[(size_t)l * m * n + e] % kP(l), kP(l));
    if (l == 0) { v[0] = r; continue; }
    int t = v[l - 1] % kP(l);
#pragma unroll
    for (int jj = l - 2; jj >= 0; --jj) t = (t * (kP(jj) % kP(l)) + v[jj]) % kP(l);
    v[l] = balanced(((r - t) % kP(l)) * cInv[l] % kP(l), kP(l));
  }
  double x = v[S - 1];
#pragma unroll
  for (int l = S - 2; l >= 0; --l) x = fma(x, (double)kP(l), (double)v[l]);
  C[i + (int64_t)j * ldc] -= ldexp(x, -(mu[i] + nu[j]));
}

static cudaEvent_t e0, e1;
template <typename F> static float med(F f, int reps = 5) {
  f();
  CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(e0)); f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms);
  }
  std::sort(t.begin(), t.end()); return t[reps / 2];
}

static int modinv(int a, int p) { // p small
  a %= p; if (a < 0) a += p;
  for (int x = 1; x < p; ++x) if (a * x % p == 1) return x;
  return -1;
}

// Checks the Garner inverses of the first S moduli against cInv's initializer; returns alpha,
// the bits per scaled row (2^(2 alpha) <= P/2, at most 62), and log2 P.
template <int S> static int oz_setup(double *log2P) {
  static const int table[kMaxS] = {0, 1, 211, 182, 246, 184, 41, 115, 161, 54, 163, 149, 46, 142, 91, 116};
  int inv[kMaxS] = {0};
  *log2P = 0;
  for (int l = 0; l < S; ++l) {
    *log2P += std::log2((double)kP(l));
    if (l > 0) {
      long long M = 1;
      for (int j = 0; j < l; ++j) M = M * kP(j) % kP(l);
      inv[l] = modinv((int)M, kP(l));
      if (inv[l] < 0 || inv[l] != table[l]) { printf("moduli not coprime or cInv wrong at %d\n", l); exit(1); }
    }
  }
  return std::min(62, (int)std::floor((*log2P - 1.0) / 2.0));
}

