// session 9: the triangle swap alone: tile 32 against 64, GB/s against a D2D copy of the same bytes
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__device__ inline void tile_pair_of(int64_t t, int64_t *bi, int64_t *bj)
{
    int64_t i = (int64_t)((sqrt(8.0 * (double)t + 1.0) - 1.0) * 0.5);
    while (i * (i + 1) / 2 > t) --i;
    while ((i + 1) * (i + 2) / 2 <= t) ++i;
    *bi = i; *bj = t - i * (i + 1) / 2;
}

template <typename Bits, int kT>
__global__ void __launch_bounds__(256) swap_kernel(int64_t n, Bits *__restrict__ A, int64_t lda)
{
    extern __shared__ unsigned char smem_raw[];
    Bits (*lower)[kT + 1] = reinterpret_cast<Bits (*)[kT + 1]>(smem_raw);
    Bits (*upper)[kT + 1] = lower + kT;
    int64_t bi, bj;
    tile_pair_of(blockIdx.x, &bi, &bj);
    const int64_t r0 = bi * kT, c0 = bj * kT;
    const bool diagonal = bi == bj;
    for (int c = threadIdx.y; c < kT; c += 8)
        for (int tx = threadIdx.x; tx < kT; tx += 32) {
            if (r0 + tx < n && c0 + c < n) lower[c][tx] = A[(r0 + tx) + (c0 + c) * lda];
            if (!diagonal && c0 + tx < n && r0 + c < n) upper[c][tx] = A[(c0 + tx) + (r0 + c) * lda];
        }
    __syncthreads();
    for (int c = threadIdx.y; c < kT; c += 8)
        for (int tx = threadIdx.x; tx < kT; tx += 32) {
            if (diagonal) {
                if (tx != c && r0 + tx < n && c0 + c < n) A[(r0 + tx) + (c0 + c) * lda] = lower[tx][c];
                continue;
            }
            if (r0 + tx < n && c0 + c < n) A[(r0 + tx) + (c0 + c) * lda] = upper[tx][c];
            if (c0 + tx < n && r0 + c < n) A[(c0 + tx) + (r0 + c) * lda] = lower[tx][c];
        }
}

template <typename Bits, int kT>
float run(int64_t n, Bits *dA, int reps)
{
    const int64_t tiles = (n + kT - 1) / kT, pairs = tiles * (tiles + 1) / 2;
    size_t smem = 2 * kT * (kT + 1) * sizeof(Bits);
    CK(cudaFuncSetAttribute(swap_kernel<Bits, kT>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = 0; r < reps + 1; ++r) {
        CK(cudaEventRecord(a));
        swap_kernel<Bits, kT><<<(unsigned)pairs, dim3(32, 8), smem>>>(n, dA, n);
        CK(cudaGetLastError());
        CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b)); if (r) t.push_back(ms);
    }
    std::sort(t.begin(), t.end()); return t[t.size() / 2];
}

template <typename Bits, int kT>
bool check(int64_t n)
{
    std::vector<Bits> h(n * n), g(n * n);
    for (int64_t i = 0; i < n * n; ++i) h[i] = (Bits)(i * 2654435761ull + 12345);
    Bits *d; CK(cudaMalloc(&d, n * n * sizeof(Bits)));
    CK(cudaMemcpy(d, h.data(), n * n * sizeof(Bits), cudaMemcpyHostToDevice));
    const int64_t tiles = (n + kT - 1) / kT, pairs = tiles * (tiles + 1) / 2;
    size_t smem = 2 * kT * (kT + 1) * sizeof(Bits);
    CK(cudaFuncSetAttribute(swap_kernel<Bits, kT>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    swap_kernel<Bits, kT><<<(unsigned)pairs, dim3(32, 8), smem>>>(n, d, n);
    CK(cudaMemcpy(g.data(), d, n * n * sizeof(Bits), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int64_t j = 0; j < n; ++j) for (int64_t i = 0; i < n; ++i) ok &= g[i + j * n] == h[j + i * n];
    CK(cudaFree(d)); return ok;
}

template <typename Bits>
void sweep(const char *name)
{
    printf("%s: check n=1000 t32 %d t64 %d, n=77 t32 %d t64 %d\n", name, (int)check<Bits, 32>(1000), (int)check<Bits, 64>(1000), (int)check<Bits, 32>(77), (int)check<Bits, 64>(77));
    for (int64_t n : {8192, 16384, 32768}) {
        Bits *dA, *dB; size_t bytes = n * n * sizeof(Bits);
        CK(cudaMalloc(&dA, bytes)); CK(cudaMalloc(&dB, bytes)); CK(cudaMemset(dA, 1, bytes));
        float t32 = run<Bits, 32>(n, dA, 9), t64 = run<Bits, 64>(n, dA, 9);
        cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b)); std::vector<float> t;
        for (int r = 0; r < 10; ++r) { CK(cudaEventRecord(a)); CK(cudaMemcpyAsync(dB, dA, bytes, cudaMemcpyDeviceToDevice)); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); float ms; CK(cudaEventElapsedTime(&ms, a, b)); if (r) t.push_back(ms); }
        std::sort(t.begin(), t.end()); float tc = t[t.size() / 2];
        double gb = 2.0 * bytes / 1e9;
        printf("%s n=%lld: tile32 %.3f ms (%.0f GB/s)  tile64 %.3f ms (%.0f GB/s)  D2D copy %.3f ms (%.0f GB/s)\n", name, (long long)n, t32, gb / t32 * 1e3, t64, gb / t64 * 1e3, tc, gb / tc * 1e3);
        CK(cudaFree(dA)); CK(cudaFree(dB));
    }
}

int main() { sweep<unsigned int>("float"); sweep<unsigned long long>("double"); return 0; }
