// Session 26: what a single-precision tiled factorization at n = 1024 spends outside its kernel.
// Times (CUDA events, median of 31 after warm-ups, fresh copy of the matrix before each):
//   full   gchol_spotrf_async (the driver: dinfo memset, fork/join events, sync memset, kernel)
//   launch potrf_tiled_launch alone (sync memset + kernel)
//   kernel the kernel alone, its sync words zeroed before the start event
//   memset the two memsets alone
// nvcc ... -Iinclude -Ikernels overhead.cu lib/libgchol.a -lcublasLt -lcublas
#include "potrf_tiled.cu" /* -Ikernels */
#include "gchol.h"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e = (cudaError_t)(x); if (e) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)
int main()
{
    const int n = 1024;
    const size_t N = (size_t)n * n;
    std::vector<float> h(N);
    srand(3);
    for (size_t i = 0; i < N; ++i) h[i] = (float)(rand() / (double)RAND_MAX - 0.5);
    for (int j = 0; j < n; ++j) for (int i = 0; i < j; ++i) h[i + (size_t)j * n] = h[j + (size_t)i * n];
    for (int i = 0; i < n; ++i) h[i + (size_t)i * n] += n;
    float *dA0, *dA, *dw; int64_t *di; int *ds;
    CK(cudaMalloc(&dA0, N * 4)); CK(cudaMalloc(&dA, N * 4)); CK(cudaMalloc(&dw, GCHOL_TILED_WORK_ELEMS * 4));
    CK(cudaMalloc(&di, 8)); CK(cudaMalloc(&ds, GCHOL_TILED_SYNC_WORDS * 4));
    CK(cudaMemcpy(dA0, h.data(), N * 4, cudaMemcpyHostToDevice));
    gchol_queue_t q; if (gchol_queue_create(0, &q) != 0) { printf("queue\n"); return 1; }
    cudaStream_t st = gchol_queue_stream(q);
    int64_t *dinfo; CK(cudaMalloc(&dinfo, 8));
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    /* the kernel as the launcher sets it up, without its memset */
    auto kernel = potrf_tiled_kernel<float, false, 1>;
    const size_t smem = tiled_smem_bytes<float>(true);
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    int sms = 0, per_sm = 0; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, smem));
    const int nt = n / kTB, total = worker_items(nt);
    int grid = std::min(sms * per_sm, 1 + total);
    const char *names[4] = { "full", "launch", "kernel", "memset" };
    for (int mode = 0; mode < 4; ++mode) {
        std::vector<float> ts;
        for (int it = 0; it < 40; ++it) {
            CK(cudaMemcpyAsync(dA, dA0, N * 4, cudaMemcpyDeviceToDevice, st));
            CK(cudaMemsetAsync(di, 0, 8, st));
            if (mode == 2) CK(cudaMemsetAsync(ds, 0, (2 + nt * nt) * 4, st));
            CK(cudaStreamSynchronize(st));
            CK(cudaEventRecord(a, st));
            if (mode == 0) { if (gchol_spotrf_async('L', n, dA, n, dinfo, NULL, q) != 0) { printf("call\n"); return 1; } }
            else if (mode == 1) CK(potrf_tiled_launch<float>(n, n, dA, n, 0, 0, di, ds, dw, st));
            else if (mode == 2) { kernel<<<grid, kThreads, smem, st>>>(n, nt, dA, n, 0, di, ds, dw, 1); CK(cudaGetLastError()); }
            else { CK(cudaMemsetAsync(di, 0, 8, st)); CK(cudaMemsetAsync(ds, 0, (2 + nt * nt) * 4, st)); }
            CK(cudaEventRecord(b, st));
            CK(cudaEventSynchronize(b));
            float ms; CK(cudaEventElapsedTime(&ms, a, b));
            if (it >= 9) ts.push_back(ms);
        }
        std::sort(ts.begin(), ts.end());
        printf("%-7s median %.4f ms  min %.4f  max %.4f\n", names[mode], ts[ts.size() / 2], ts[0], ts.back());
    }
    return 0;
}
