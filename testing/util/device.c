/*
 * device.c -- the GPU side of the testing library (util.h): whether a GPU is
 * usable and why not, queues, CUDA / cuBLAS error reports, device copies.
 */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>
#include <cublas_v2.h>

#include "util.h"

/* ===========================================================================
 * Is there a GPU?
 * ========================================================================= */
static testing_gpu_status_t g_status = (testing_gpu_status_t)-1;
static char g_why[256];

/* Asks the driver and the runtime once: cudaDriverGetVersion gives 0 when no
 * driver is loaded; cudaGetDeviceCount fails with cudaErrorInsufficientDriver
 * when the driver is too old for this runtime, or when the driver's CUDA
 * version is below CUDART_VERSION and nothing else answers (a newer minor
 * runtime on an older driver of the same major version may still run: then
 * the device count decides), and with cudaErrorNoDevice when a driver has no
 * device. */
static void probe(void)
{
    int driver = 0, count = 0;
    cudaError_t err = cudaDriverGetVersion(&driver);
    if (err != cudaSuccess || driver == 0) {
        g_status = TESTING_GPU_NO_DRIVER;
        snprintf(g_why, sizeof g_why, "no GPU or no NVIDIA driver found");
        (void)cudaGetLastError();
        return;
    }
    err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count > 0) {
        g_status = TESTING_GPU_OK;
        snprintf(g_why, sizeof g_why, "%d CUDA GPU%s found", count, count > 1 ? "s" : "");
    } else if (err == cudaErrorInsufficientDriver ||
               (err != cudaSuccess && err != cudaErrorNoDevice && driver < CUDART_VERSION)) {
        g_status = TESTING_GPU_DRIVER_TOO_OLD;
        snprintf(g_why, sizeof g_why,
                 "the NVIDIA driver is too old: it supports CUDA %d.%d, this build needs "
                 "CUDA %d.%d (update the driver)", driver / 1000, driver % 1000 / 10,
                 CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    } else if (err == cudaErrorNoDevice || err == cudaSuccess) {
        g_status = TESTING_GPU_NO_DEVICE;
        snprintf(g_why, sizeof g_why, "an NVIDIA driver but no CUDA GPU found");
    } else {
        g_status = TESTING_GPU_ERROR;
        snprintf(g_why, sizeof g_why, "no usable CUDA GPU: %s (%s)", cudaGetErrorString(err),
                 cudaGetErrorName(err));
    }
    (void)cudaGetLastError(); /* clear a sticky "no device" error */
}

testing_gpu_status_t testing_gpu_status(char *why, size_t size)
{
    if ((int)g_status < 0)
        probe();
    if (why && size)
        snprintf(why, size, "%s", g_why);
    return g_status;
}

int testing_have_gpu(void) { return testing_gpu_status(NULL, 0) == TESTING_GPU_OK; }

int testing_table_can_run(gchol_queue_t queue)
{
    if (!testing_have_gpu()) {
        printf("no GPU: table skipped\n");
        testing_record(TESTING_SKIPPED);
        return 0;
    }
    if (!queue) {
        testing_record(TESTING_FAILED);
        return 0;
    }
    return 1;
}

int testing_gpu_section(const char *title, int cases)
{
    printf("\n-- %s --\n", title);
    if (testing_have_gpu())
        return 1;
    testing_skip("%s (no GPU)", title);
    for (int i = 1; i < cases; i++)
        testing_record(TESTING_SKIPPED);
    return 0;
}

int testing_no_gpu_section(const char *title)
{
    if (testing_have_gpu())
        return 0;
    printf("\n-- %s --\n", title);
    return 1;
}

gchol_queue_t testing_queue_or_null(void)
{
    gchol_queue_t q = NULL;
    if (!testing_have_gpu())
        return NULL;
    int64_t st = gchol_queue_create(-1, &q);
    if (st != 0) {
        printf("gchol_queue_create failed: %lld (%s): GPU cases will fail\n", (long long)st,
               gchol_strerror(st));
        return NULL;
    }
    return q;
}

gchol_queue_t testing_fake_queue(void)
{
    static _Alignas(64) unsigned char fake[1 << 16];
    return (gchol_queue_t)(void *)fake;
}

/* ===========================================================================
 * Error reports.
 * ========================================================================= */
int testing_cuda_failed(int status, const char *call, const char *file, int line)
{
    if (status == (int)cudaSuccess)
        return 0;
    fprintf(stdout, "    CUDA error %d (%s) in %s at %s:%d\n", status,
            cudaGetErrorString((cudaError_t)status), call, file, line);
    return 1;
}

int testing_cublas_failed(int status, const char *call, const char *file, int line)
{
    if (status == (int)CUBLAS_STATUS_SUCCESS)
        return 0;
    fprintf(stdout, "    cuBLAS error %d in %s at %s:%d\n", status, call, file, line);
    return 1;
}

/* ===========================================================================
 * Copies.
 * ========================================================================= */
static int copy_2d(size_t es, int64_t m, int64_t n, const void *src, int64_t ld_src,
                   void *dst, int64_t ld_dst, enum cudaMemcpyKind kind)
{
    if (m <= 0 || n <= 0)
        return 0;
    return TESTING_CUDA(cudaMemcpy2D(dst, (size_t)ld_dst * es, src, (size_t)ld_src * es,
                                     (size_t)m * es, (size_t)n, kind)) ? -1 : 0;
}

int testing_copy_h2d(size_t es, int64_t m, int64_t n,
                     const void *src, int64_t ld_src, void *dst, int64_t ld_dst)
{
    return copy_2d(es, m, n, src, ld_src, dst, ld_dst, cudaMemcpyHostToDevice);
}

int testing_copy_d2h(size_t es, int64_t m, int64_t n,
                     const void *src, int64_t ld_src, void *dst, int64_t ld_dst)
{
    return copy_2d(es, m, n, src, ld_src, dst, ld_dst, cudaMemcpyDeviceToHost);
}

void *testing_upload(const void *h, size_t bytes)
{
    void *d = NULL;
    if (TESTING_CUDA(cudaMalloc(&d, bytes > 0 ? bytes : 1)))
        return NULL;
    if (bytes > 0 && TESTING_CUDA(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice))) {
        cudaFree(d);
        (void)cudaGetLastError(); /* reported: not the next case's failure */
        return NULL;
    }
    return d;
}

int testing_download(void *h, const void *d, size_t bytes)
{
    if (bytes == 0)
        return 0;
    return TESTING_CUDA(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost)) ? -1 : 0;
}
