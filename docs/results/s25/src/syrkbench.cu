// Session 25: the chain block's W -= X X^T (lower_product_sub) and X = P U alone, in one block of
// 256 threads on shared-memory operands: cycles per call (clock64, thread 0, after a barrier) and
// the error against a double reference. Built once per -DGCHOL_AB_CHAIN_SYRK=0/1/2.
// nvcc ... -Ikernels -Iinclude -DGCHOL_AB_CHAIN_SYRK=v syrkbench.cu
#include "potrf_tiled.cu" /* -Ikernels */
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#define CK(x) do{cudaError_t e=(cudaError_t)(x); if(e){printf("%s:%d %s\n",__FILE__,__LINE__,cudaGetErrorString(e)); exit(1);} }while(0)

template <typename T>
__global__ void bench(T *Cout, const T *Cin, const T *Xin, long long *cyc, int reps)
{
    extern __shared__ __align__(16) unsigned char raw[];
    T *C = reinterpret_cast<T *>(raw);   /* 128 x 64 panel, ld kLdp */
    T *X = C + kTB * kLdp;               /* 64 x 64, ld kLdo */
    for (int i = threadIdx.x; i < kTB * kLdp; i += blockDim.x) C[i] = Cin[i];
    for (int i = threadIdx.x; i < kTB * kLdo; i += blockDim.x) X[i] = Xin[i];
    __syncthreads();
    lower_product_sub(C, kLdp, X, kLdo);
    __syncthreads();
    for (int i = threadIdx.x; i < kTB * kLdp; i += blockDim.x) Cout[i] = C[i];
    __syncthreads();
    long long t0 = clock64();
    for (int r = 0; r < reps; ++r) {
        lower_product_sub(C, kLdp, X, kLdo);
        __syncthreads();
    }
    long long t1 = clock64();
    /* X = P U (U upper triangular in the panel's bottom), as solve_below */
    using Acc = typename TileAccOf<T>::type;
    for (int r = 0; r < reps; ++r) {
        Acc acc;
        acc.zero();
        acc.template update<false, true, kLdo, kLdp, true>(X, C + kTB);
        __syncthreads();
        acc.template for_each<false, true>([&](int rr, int c, T v) { X[rr + c * kLdo] = v * T(1e-30); });
        __syncthreads();
    }
    long long t2 = clock64();
    /* potf2 of the [W; I] panel, as the chain block: W = the product's C
     * top made SPD (diagonal + 64), I below; copied in before each call */
    __shared__ int fail_word;
    long long tp = 0;
    int fails = 0;
    for (int r = 0; r < reps; ++r) {
        for (int i = threadIdx.x; i < kTB * kTB; i += blockDim.x) {
            const int rr = i % kTB, c = i / kTB;
            const T v = rr >= c ? Cin[rr + c * kLdp] * T(0.5) + (rr == c ? T(64) : T(0)) : T(0);
            C[rr + c * kLdp] = v;
            C[kTB + rr + c * kLdp] = T(rr == c);
        }
        __syncthreads();
        const long long a = clock64();
        const int f = potf2_panel<T, 2 * kTB>(C, kLdp, 2 * kTB, kTB, &fail_word, true);
        __syncthreads();
        tp += clock64() - a;
        fails += f >= 0;
    }
    for (int i = threadIdx.x; i < kTB * kLdp; i += blockDim.x) Cout[kTB * kLdp + i] = C[i];
    if (threadIdx.x == 0) { cyc[0] = (t1 - t0) / reps; cyc[1] = (t2 - t1) / reps; cyc[2] = tp / reps; cyc[3] = fails; }
}

template <typename T> void run(const char *name)
{
    const int nC = kTB * kLdp, nX = kTB * kLdo;
    std::vector<T> C(nC), X(nX), out(2 * nC);
    srand(3);
    for (auto &v : C) v = (T)(rand() / (double)RAND_MAX * 2 - 1);
    for (auto &v : X) v = (T)(rand() / (double)RAND_MAX * 2 - 1);
    T *dC, *dX, *dO; long long *dc;
    CK(cudaMalloc(&dC, nC * sizeof(T))); CK(cudaMalloc(&dX, nX * sizeof(T))); CK(cudaMalloc(&dO, 2 * nC * sizeof(T)));
    CK(cudaMalloc(&dc, 32));
    CK(cudaMemcpy(dC, C.data(), nC * sizeof(T), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dX, X.data(), nX * sizeof(T), cudaMemcpyHostToDevice));
    const size_t smem = (nC + nX) * sizeof(T);
    CK(cudaFuncSetAttribute(bench<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    long long cyc[4] = {0, 0, 0, 0};
    for (int it = 0; it < 3; ++it) {
        bench<T><<<1, kThreads, smem>>>(dO, dC, dX, dc, 200);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    }
    CK(cudaMemcpy(cyc, dc, 32, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(out.data(), dO, 2 * nC * sizeof(T), cudaMemcpyDeviceToHost));
    double err = 0, upper_changed = 0;
    for (int c = 0; c < kTB; ++c)
        for (int r = 0; r < 2 * kTB; ++r) {
            double ref = C[r + c * kLdp];
            if (r < kTB && r >= c)
                for (int k = 0; k < kTB; ++k) ref -= (double)X[r + k * kLdo] * X[c + k * kLdo];
            const double d = fabs((double)out[r + c * kLdp] - ref);
            if (r < kTB && r >= c) err = fmax(err, d); else upper_changed = fmax(upper_changed, d);
        }
    /* the panel: L L^T = W on top, L U = I below (U = L^{-T}) */
    const T *P = out.data() + nC;
    double perr = 0, uerr = 0, wmax = 0;
    for (int i = 0; i < kTB; ++i)
        for (int j = 0; j <= i; ++j) {
            const double w = C[i + j * kLdp] * 0.5 + (i == j ? 64.0 : 0.0);
            double s = 0, u = 0;
            for (int k = 0; k <= j; ++k) s += (double)P[i + k * kLdp] * P[j + k * kLdp];
            /* U = L^{-T}: (L^T U)(j, i) = sum_{j <= k <= i} L(k, j) U(k, i) */
            for (int k = j; k <= i; ++k) u += (double)P[k + j * kLdp] * P[kTB + k + i * kLdp];
            perr = fmax(perr, fabs(s - w)); wmax = fmax(wmax, fabs(w));
            uerr = fmax(uerr, fabs(u - (i == j)));
        }
    printf("%s syrk %lld cycles/call, X product %lld, potf2 [W; I] %lld (fails %lld); max|err| syrk %.2e (untouched moved %.1e), |LL^T - W|/|W| %.1e, |LU - I| %.1e\n",
           name, cyc[0], cyc[1], cyc[2], cyc[3], err, upper_changed, perr / wmax, uerr);
    cudaFree(dC); cudaFree(dX); cudaFree(dO); cudaFree(dc);
}

int main()
{
    run<float>("s");
    run<double>("d");
    return 0;
}
