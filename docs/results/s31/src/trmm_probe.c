/* trmm_probe.c -- rates of the three ways to solve a left-looking panel's rows below its
 * diagonal block on the main stream (B := B L^{-T}, B m x k, L k x k, ld 16384, double):
 * cublasDtrsm; cublasDtrmm with U = L^{-T} (out of place); cublasDgemm with the full k x k
 * inverse (twice trsm's flops). Rates count trsm's m k^2 flops for all three. CUDA events,
 * median of 7 after a warm-up. Build: cc -O2 trmm_probe.c -lcublas -lcudart. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { if ((x) != 0) { fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #x); exit(1); } } while (0)

static int cmp(const void *a, const void *b) { float x = *(const float *)a, y = *(const float *)b; return (x > y) - (x < y); }

int main(void)
{
    const long ld = 16384, kmax = 2048, mmax = 16384;
    double *A, *B, *C, *L;
    CK(cudaMalloc((void **)&A, sizeof(double) * ld * kmax));
    CK(cudaMalloc((void **)&B, sizeof(double) * ld * kmax));
    CK(cudaMalloc((void **)&C, sizeof(double) * ld * kmax));
    CK(cudaMalloc((void **)&L, sizeof(double) * kmax * kmax));
    /* values: B random-ish via a host fill; L well conditioned lower (diag 2, small below) */
    double *h = malloc(sizeof(double) * ld * kmax);
    for (long i = 0; i < ld * kmax; ++i) h[i] = (double)((i * 2654435761u) % 1000) / 1000.0 - 0.5;
    CK(cudaMemcpy(B, h, sizeof(double) * ld * kmax, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(A, h, sizeof(double) * ld * kmax, cudaMemcpyHostToDevice));
    for (long j = 0; j < kmax; ++j)
        for (long i = 0; i < kmax; ++i) h[i + j * kmax] = i == j ? 2.0 : (i > j ? 1e-3 * h[i + j * kmax] : 0.0);
    CK(cudaMemcpy(L, h, sizeof(double) * kmax * kmax, cudaMemcpyHostToDevice));
    cublasHandle_t hb;
    CK(cublasCreate(&hb));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const double one = 1, zero = 0;
    const long ms[] = { 4096, 8192, 15360 }, ks[] = { 512, 1024, 2048 };
    printf("%6s %5s | %9s %7s | %9s %7s | %9s %7s | %9s %7s\n", "m", "k", "trsm ms", "TF/s",
           "trmm ms", "TF/s", "gemm ms", "TF/s", "gemmhalf", "TF/s");
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
            const long m = ms[a], k = ks[b];
            if (m > mmax) continue;
            float t[4][7];
            for (int form = 0; form < 4; ++form)
                for (int r = -2; r < 7; ++r) {
                    CK(cudaMemcpy2DAsync(B, ld * sizeof(double), A, ld * sizeof(double), m * sizeof(double), k, cudaMemcpyDeviceToDevice, 0));
                    CK(cudaEventRecord(e0, 0));
                    if (form == 0)
                        CK(cublasDtrsm(hb, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m, k, &one, L, kmax, B, ld));
                    else if (form == 1) /* U = L^T stands in for L^{-T}: same shape, upper */
                        CK(cublasDtrmm(hb, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m, k, &one, L, kmax, B, ld, C, ld));
                    else if (form == 2)
                        CK(cublasDgemm(hb, CUBLAS_OP_N, CUBLAS_OP_T, m, k, k, &one, B, ld, L, kmax, &zero, C, ld));
                    else /* U's product blocked once: the left half of C from U's leading
                          * triangle as a square (k/2 x k/2), the right half from U's full
                          * last k/2 columns: 1.5x trsm's flops, all in gemm */
                    {
                        const long k1 = k / 2;
                        CK(cublasDgemm(hb, CUBLAS_OP_N, CUBLAS_OP_T, m, k1, k1, &one, B, ld, L, kmax, &zero, C, ld));
                        CK(cublasDgemm(hb, CUBLAS_OP_N, CUBLAS_OP_T, m, k - k1, k, &one, B, ld, L + k1, kmax, &zero, C + k1 * ld, ld));
                    }
                    CK(cudaEventRecord(e1, 0));
                    CK(cudaEventSynchronize(e1));
                    float ms_ = 0;
                    CK(cudaEventElapsedTime(&ms_, e0, e1));
                    if (r >= 0) t[form][r] = ms_;
                }
            printf("%6ld %5ld", m, k);
            for (int form = 0; form < 4; ++form) {
                qsort(t[form], 7, sizeof(float), cmp);
                const double flops = (double)m * k * k; /* trsm's */
                printf(" | %9.3f %7.2f", t[form][3], flops / (t[form][3] * 1e-3) / 1e12);
            }
            printf("\n");
        }
    return 0;
}
