/*
 * example.c -- the smallest complete gchol program, built by run.sh against
 * an installed gchol (pkg-config and CMake). It prints the library's
 * version and checks it against the header's, then factors an SPD matrix on
 * the GPU: create a queue, cudaMalloc the matrix, upload it,
 * gchol_dpotrf_gpu, check info, download the factor, check L*L^T = A. It
 * also links the mixed-precision solve of gchol_mixed.h and the batched
 * Cholesky of gchol_batched.h.
 *
 * Exit status: 0 passed; 77 no usable GPU (the version check passed, the
 * factorization was not run); 1 failed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <gchol.h>
#include <gchol_batched.h>
#include <gchol_mixed.h>

static int cuda_ok(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    return e == cudaSuccess;
}

int main(void)
{
    int major, minor, patch;
    /* the second public header's routines are exported too */
    int64_t (*volatile xposv)(char, int64_t, int64_t, double *, int64_t, const double *,
                              int64_t, double *, int64_t, const gchol_xposv_options_t *,
                              gchol_xposv_result_t *, int64_t *, gchol_queue_t) = gchol_dxposv_gpu;
    int64_t (*volatile batched)(char, int64_t, double *, int64_t, int64_t, int64_t *, int64_t,
                                gchol_queue_t) = gchol_dpotrf_strided_batched_gpu;
    if (!xposv || !batched) return 1;
    gchol_version_numbers(&major, &minor, &patch);
    printf("gchol %s (header %s)\n", gchol_version(), GCHOL_VERSION_STRING);
    if (strcmp(gchol_version(), GCHOL_VERSION_STRING) != 0 || major != GCHOL_VERSION_MAJOR ||
        minor != GCHOL_VERSION_MINOR || patch != GCHOL_VERSION_PATCH) {
        fprintf(stderr, "library and header versions differ\n");
        return 1;
    }

    gchol_queue_t q;
    int64_t st = gchol_queue_create(-1, &q);  /* -1: the current device */
    if (st == GCHOL_ERR_NO_DEVICE) {
        printf("no usable GPU: %s\n", gchol_strerror(st));
        return 77;
    }
    if (st != 0) {
        fprintf(stderr, "gchol_queue_create: %s\n", gchol_strerror(st));
        return 1;
    }

    /* A = I*n + 1/(1+|i-j|): symmetric, diagonally dominant, so SPD. */
    const int64_t n = 300, lda = n;
    double *A = malloc(sizeof(double) * (size_t)(lda * n));
    double *L = malloc(sizeof(double) * (size_t)(lda * n));
    double *dA = NULL;
    int status = 1;
    if (!A || !L) {
        fprintf(stderr, "out of host memory\n");
        goto done;
    }
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
            A[i + j * lda] = 1.0 / (1.0 + (double)llabs(i - j)) + (i == j ? (double)n : 0.0);

    const size_t bytes = sizeof(double) * (size_t)(lda * n);
    if (!cuda_ok(cudaMalloc((void **)&dA, bytes), "cudaMalloc") ||
        !cuda_ok(cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the GPU"))
        goto done;

    int64_t info;
    gchol_dpotrf_gpu('L', n, dA, lda, &info, q);  /* A = L*L^T, L in the lower triangle */
    if (info != 0) {
        fprintf(stderr, "gchol_dpotrf_gpu: info %lld: %s\n", (long long)info,
                gchol_strerror(info));
        goto done;
    }
    if (!cuda_ok(cudaMemcpy(L, dA, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to the host"))
        goto done;

    /* max |A - L*L^T| over the lower triangle, relative to max |A| */
    double err = 0.0, amax = 0.0;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = j; i < n; ++i) {
            double s = 0.0;
            for (int64_t k = 0; k <= j; ++k)
                s += L[i + k * lda] * L[j + k * lda];
            err = fmax(err, fabs(A[i + j * lda] - s));
            amax = fmax(amax, fabs(A[i + j * lda]));
        }
    const double rel = err / amax;
    printf("n = %lld: info 0, max |A - L*L^T| / max |A| = %.2e\n", (long long)n, rel);
    status = rel < 1e-12 ? 0 : 1;

done:
    cudaFree(dA);
    gchol_queue_destroy(q);
    free(A);
    free(L);
    return status;
}
