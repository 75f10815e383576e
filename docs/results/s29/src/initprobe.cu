// initprobe.cu -- where the uninitialized reads that initcheck reports on the host interface
// come from. Uploads what gchol's host path uploads into a fresh device buffer with the host
// path's leading dimension (n rounded up to 32): each column's referenced part, diagonal blocks
// of 256 whole; the padding rows and the rest of the other triangle are never written. Then
// factors (and solves, nrhs = 3, B with the same padding) and prints the buffer's base and ld, so
// that initcheck's addresses can be mapped to (row, column).
//   initprobe d|s L|U n
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "gchol.h"

template <typename T>
static int run(char uplo, int64_t n)
{
    const int64_t ld = (n + 31) / 32 * 32, nrhs = 3;
    std::vector<T> A((size_t)(n * n)), B((size_t)(n * nrhs));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
            A[i + j * n] = (T)((i == j ? n : 0) + 1.0 / (1.0 + i + j));
    for (auto &b : B) b = (T)1;
    T *dA = nullptr, *dB = nullptr;
    if (cudaMalloc(&dA, sizeof(T) * ld * n) || cudaMalloc(&dB, sizeof(T) * ld * nrhs)) return 1;
    const bool up = uplo == 'U';
    for (int64_t j = 0; j < n; ++j) {
        const int64_t jb0 = j / 256 * 256, jb1 = jb0 + 256 < n ? jb0 + 256 : n;
        const int64_t r0 = up ? 0 : jb0, r1 = up ? jb1 : n; /* referenced part + diagonal block */
        cudaMemcpy(dA + r0 + j * ld, &A[r0 + j * n], sizeof(T) * (r1 - r0), cudaMemcpyHostToDevice);
    }
    for (int64_t j = 0; j < nrhs; ++j)
        cudaMemcpy(dB + j * ld, &B[j * n], sizeof(T) * n, cudaMemcpyHostToDevice);
    printf("PROBE %c %c n=%lld ld=%lld dA=%p dA_end=%p dB=%p dB_end=%p\n", sizeof(T) == 8 ? 'd' : 's',
           uplo, (long long)n, (long long)ld, (void *)dA, (void *)(dA + ld * n), (void *)dB,
           (void *)(dB + ld * nrhs));
    gchol_queue_t q;
    if (gchol_queue_create(0, &q)) return 1;
    int64_t info = -1, info2 = -1;
    int64_t st;
    if constexpr (sizeof(T) == 8) {
        st = gchol_dpotrf_gpu(uplo, n, dA, ld, &info, q);
        if (!st) st = gchol_dpotrs_gpu(uplo, n, nrhs, dA, ld, dB, ld, &info2, q);
    } else {
        st = gchol_spotrf_gpu(uplo, n, dA, ld, &info, q);
        if (!st) st = gchol_spotrs_gpu(uplo, n, nrhs, dA, ld, dB, ld, &info2, q);
    }
    cudaDeviceSynchronize();
    printf("PROBE status %lld info %lld %lld\n", (long long)st, (long long)info, (long long)info2);
    gchol_queue_destroy(q);
    cudaFree(dA);
    cudaFree(dB);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) return 2;
    const int64_t n = atoll(argv[3]);
    return argv[1][0] == 'd' ? run<double>(argv[2][0], n) : run<float>(argv[2][0], n);
}
