// rotbench.cu (session 17): the cost of pftrf's realignment alone, the
// in-place rotation of the n/2 columns (n + 1 long) of a transr = 'N' RFP
// array into the layout with leading dimension n and back
// (kernels/rfp_realign.cu). Median of 5 after a warm-up, CUDA events; the
// array is filled with a pattern and checked after each round trip.
// Methods: 1 three reversals, 2 the smaller piece through shared memory.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include "../../../../kernels/gchol_kernels.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static int g_method = 0;
template <typename T> int rot(T *, int64_t, int64_t, int64_t, int64_t);
template <> int rot<double>(double *a, int64_t l, int64_t c, int64_t s0, int64_t ds)
{ return gchol_drotate_columns_launch(a, l, c, s0, ds, g_method, 0); }
template <> int rot<float>(float *a, int64_t l, int64_t c, int64_t s0, int64_t ds)
{ return gchol_srotate_columns_launch(a, l, c, s0, ds, g_method, 0); }

template <typename T> __global__ void fill(T *a, int64_t nt)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < nt; i += (int64_t)gridDim.x * blockDim.x)
        a[i] = (T)(i % 1000003);
}
template <typename T> __global__ void check(const T *a, int64_t nt, unsigned long long *bad)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < nt; i += (int64_t)gridDim.x * blockDim.x)
        if (a[i] != (T)(i % 1000003)) atomicAdd(bad, 1ull);
}

template <typename T> void run(const char *name, int64_t n, int upper)
{
    const int64_t nt = n * (n + 1) / 2, len = n + 1, k = n / 2;
    const int64_t s0 = upper ? k + 1 : 1;
    T *a; unsigned long long *bad;
    CK(cudaMalloc(&a, nt * sizeof(T))); CK(cudaMalloc(&bad, 8)); CK(cudaMemset(bad, 0, 8));
    fill<<<1024, 256>>>(a, nt); CK(cudaGetLastError());
    cudaEvent_t e0, e1, e2; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1)); CK(cudaEventCreate(&e2));
    std::vector<float> tf, tb;
    for (int r = 0; r < 6; ++r) {
        CK(cudaEventRecord(e0));
        CK((cudaError_t)rot<T>(a, len, k, s0, 1));
        CK(cudaEventRecord(e1));
        CK((cudaError_t)rot<T>(a, len, k, len - s0, -1));
        CK(cudaEventRecord(e2)); CK(cudaEventSynchronize(e2));
        float f, b; CK(cudaEventElapsedTime(&f, e0, e1)); CK(cudaEventElapsedTime(&b, e1, e2));
        if (r) { tf.push_back(f); tb.push_back(b); }
        check<<<1024, 256>>>(a, nt, bad); CK(cudaGetLastError());
    }
    unsigned long long h = 0; CK(cudaMemcpy(&h, bad, 8, cudaMemcpyDeviceToHost));
    std::sort(tf.begin(), tf.end()); std::sort(tb.begin(), tb.end());
    const double gb = 2.0 * nt * sizeof(T) / 1e9; // one read + one write of the array
    printf("%s m%d n=%6lld %c  forward %.3f ms  back %.3f ms  (%.0f / %.0f GB/s per pass-equivalent)  %s\n",
           name, g_method, (long long)n, upper ? 'U' : 'L', tf[2], tb[2], gb / tf[2] * 1e3, gb / tb[2] * 1e3,
           h ? "MISMATCH" : "round trip ok");
    CK(cudaFree(a)); CK(cudaFree(bad));
}

int main()
{
    for (g_method = 1; g_method <= 2; ++g_method)
    for (int64_t n : {8192, 16384, 32768, 40960}) {
        run<double>("d", n, 0); run<double>("d", n, 1);
        run<float>("s", n, 0);  run<float>("s", n, 1);
    }
    return 0;
}
