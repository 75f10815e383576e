/* Session 28: the tiled kernel's single-precision factor with the helper
 * block and without it (GCHOL_TILED_HELPER=0), compared bit for bit. Prints
 * one line per case: uplo, n, info and a 64-bit FNV hash of the whole
 * matrix buffer (both triangles and the padding) after gchol_spotrf_gpu,
 * and a second hash of the part that LAPACK defines after a failure at info
 * = k: the first k - 1 columns of L (for U, its first k - 1 rows). The rest
 * of a failed matrix depends on when the blocks saw the abort.
 * Run it twice, with and without the variable, and diff the outputs.
 * Inputs: G G^T / n + 0.5 I with G uniform in [-1, 1) from a fixed LCG,
 * formed with cublasSsyrk (lower; mirrored for upper); failing cases put
 * -1 or NaN on one diagonal entry. */
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include "gchol.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

static uint64_t fnv(const void *p, size_t bytes)
{
    const unsigned char *c = (const unsigned char *)p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < bytes; ++i) h = (h ^ c[i]) * 1099511628211ull;
    return h;
}

int main()
{
    cublasHandle_t cb;
    if (cublasCreate(&cb) != CUBLAS_STATUS_SUCCESS) { printf("cublas\n"); return 1; }
    gchol_queue_t q;
    if (gchol_queue_create(0, &q) != 0) { printf("queue\n"); return 1; }
    const int64_t sizes[] = { 64, 65, 128, 1000, 1023, 1024, 1025, 2048, 3071, 4097, 8193 };
    uint64_t seed = 12345;
    for (int64_t n : sizes)
        for (char uplo : { 'L', 'U' })
            for (int bad = 0; bad < 3; ++bad) { /* 0 SPD, 1 -1 on the diagonal, 2 NaN */
                const int64_t ld = n + 3;
                std::vector<float> g((size_t)n * n), a((size_t)ld * n);
                for (auto &x : g) {
                    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                    x = (float)((double)(seed >> 11) / 9007199254740992.0 * 2 - 1);
                }
                float *dG, *dA;
                CK(cudaMalloc(&dG, g.size() * 4));
                CK(cudaMalloc(&dA, a.size() * 4));
                CK(cudaMemcpy(dG, g.data(), g.size() * 4, cudaMemcpyHostToDevice));
                CK(cudaMemset(dA, 0, a.size() * 4));
                const float alpha = 1.0f / n, beta = 0;
                cublasSsyrk(cb, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, (int)n, (int)n, &alpha, dG, (int)n, &beta, dA, (int)ld);
                CK(cudaMemcpy(a.data(), dA, a.size() * 4, cudaMemcpyDeviceToHost));
                for (int64_t j = 0; j < n; ++j) {
                    a[j + j * ld] += 0.5f;
                    for (int64_t i = j + 1; i < n; ++i) a[j + i * ld] = a[i + j * ld];
                    for (int64_t i = n; i < ld; ++i) a[i + j * ld] = -7.25f; /* padding */
                }
                const int64_t k = n * 7 / 10;
                if (bad == 1) a[k + k * ld] = -1.0f;
                if (bad == 2) a[k + k * ld] = NAN;
                CK(cudaMemcpy(dA, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
                int64_t info = -99;
                const int64_t rc = gchol_spotrf_gpu(uplo, n, dA, ld, &info, q);
                CK(cudaMemcpy(a.data(), dA, a.size() * 4, cudaMemcpyDeviceToHost));
                /* the defined part: L(:, 0 .. m-1) lower, U(0 .. m-1, :) upper */
                const int64_t m = info > 0 ? info - 1 : n;
                std::vector<float> def;
                for (int64_t j = 0; j < n; ++j)
                    for (int64_t i = 0; i < n; ++i)
                        if (uplo == 'L' ? (i >= j && j < m) : (i <= j && i < m)) def.push_back(a[i + j * ld]);
                printf("%c %6lld bad=%d rc=%lld info=%lld defined=%016llx all=%016llx\n", uplo, (long long)n, bad,
                       (long long)rc, (long long)info, (unsigned long long)fnv(def.data(), def.size() * 4),
                       (unsigned long long)fnv(a.data(), a.size() * 4));
                CK(cudaFree(dG));
                CK(cudaFree(dA));
            }
    gchol_queue_destroy(q);
    cublasDestroy(cb);
    return 0;
}
