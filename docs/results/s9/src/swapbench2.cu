// session 9: the library's triangle swap alone (kernels/swap_triangles.cu): bit-exact checks, GB/s against a D2D copy
#include "../../kernels/swap_triangles.cu"
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (cudaError_t)(x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

template <typename T> int launchr(int64_t n, T *A, int64_t lda, int64_t a, int64_t b, int64_t c, int64_t d);
template <> int launchr<float>(int64_t n, float *A, int64_t lda, int64_t a, int64_t b, int64_t c, int64_t d) { return gchol_sswap_triangles_launch(n, A, lda, a, b, c, d, 0); }
template <> int launchr<double>(int64_t n, double *A, int64_t lda, int64_t a, int64_t b, int64_t c, int64_t d) { return gchol_dswap_triangles_launch(n, A, lda, a, b, c, d, 0); }
template <typename T> int launch(int64_t n, T *A, int64_t lda) { return launchr<T>(n, A, lda, 0, n, 0, n); }

template <typename T> bool check(int64_t n, int64_t lda, int off)
{
    typedef typename std::conditional<sizeof(T) == 4, unsigned, unsigned long long>::type B;
    size_t cnt = lda * n + off;
    std::vector<B> h(cnt), g(cnt);
    for (size_t i = 0; i < cnt; ++i) h[i] = (B)(i * 2654435761ull + 12345);
    B *d; CK(cudaMalloc(&d, cnt * sizeof(B)));
    CK(cudaMemcpy(d, h.data(), cnt * sizeof(B), cudaMemcpyHostToDevice));
    /* forward by column blocks of width w (odd widths too), then back by row blocks */
    const int64_t w = 1 + (n * 7) / 23 + off;
    if (n > 4) { for (int64_t j = 0; j < n; j += w) CK(launchr<T>(n, (T *)(d + off), lda, 0, n, j, j + w < n ? j + w : n)); }
    else CK(launch<T>(n, (T *)(d + off), lda));
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(g.data(), d, cnt * sizeof(B), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (size_t k = 0; k < cnt; ++k) {
        int64_t q = (int64_t)k - off; int64_t i = q >= 0 ? q % lda : -1, j = q >= 0 ? q / lda : -1;
        B want = (q >= 0 && i < n && j < n) ? h[off + j + i * lda] : h[k];
        ok &= g[k] == want;
    }
    const int64_t w2 = 1 + (n * 5) / 17;
    for (int64_t i = 0; i < n; i += w2) CK(launchr<T>(n, (T *)(d + off), lda, i, i + w2 < n ? i + w2 : n, 0, n));
    CK(cudaMemcpy(g.data(), d, cnt * sizeof(B), cudaMemcpyDeviceToHost));
    ok &= g == h;
    CK(cudaFree(d)); return ok;
}

template <typename T> void sweep(const char *name)
{
    int bad = 0, total = 0;
    for (int64_t n : {2, 3, 31, 32, 33, 63, 64, 65, 77, 128, 129, 1000, 1001})
        for (int64_t pad : {0, 1, 2}) for (int off : {0, 1}) { bool ok = check<T>(n, n + pad, off); bad += !ok; ++total; if (!ok) printf("%s FAIL n=%lld pad=%lld off=%d\n", name, (long long)n, (long long)pad, off); }
    printf("%s: %d of %d checks passed\n", name, total - bad, total);
    for (int64_t n : {8192, 16384, 32768}) for (int64_t pad : {0, 1}) {
        T *dA, *dB; size_t bytes = (n + pad) * n * sizeof(T);
        CK(cudaMalloc(&dA, bytes)); CK(cudaMalloc(&dB, bytes)); CK(cudaMemset(dA, 1, bytes));
        cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b)); std::vector<float> t, tc;
        for (int r = 0; r < 10; ++r) { CK(cudaEventRecord(a)); CK(launch<T>(n, dA, n + pad)); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); float ms; CK(cudaEventElapsedTime(&ms, a, b)); if (r) t.push_back(ms); }
        for (int r = 0; r < 10; ++r) { CK(cudaEventRecord(a)); CK(cudaMemcpyAsync(dB, dA, bytes, cudaMemcpyDeviceToDevice)); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); float ms; CK(cudaEventElapsedTime(&ms, a, b)); if (r) tc.push_back(ms); }
        std::sort(t.begin(), t.end()); std::sort(tc.begin(), tc.end());
        double gb = 2.0 * n * n * sizeof(T) / 1e9;
        printf("%s n=%lld lda=n+%lld: swap %.3f ms (%.0f GB/s)  D2D copy %.3f ms (%.0f GB/s)\n", name, (long long)n, (long long)pad, t[4], gb / t[4] * 1e3, tc[4], gb / tc[4] * 1e3);
        CK(cudaFree(dA)); CK(cudaFree(dB));
    }
}
int main() { sweep<float>("float"); sweep<double>("double"); return 0; }
