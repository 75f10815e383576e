/*
 * alloc.c -- the library's device and pinned host allocations (alloc.h),
 * each counted by the test hooks and failed when they ask.
 */
#include "alloc.h"

#include "test_hooks.h"

/* A failed allocation is not sticky: clear it, so that it is not reported
 * again by the next launch. */
static cudaError_t failed(void **p, cudaError_t e)
{
    *p = NULL;
    (void)cudaGetLastError();
    return e;
}

cudaError_t gchol_dev_malloc(void **p, size_t bytes)
{
    if (gchol_test_alloc_fails()) { *p = NULL; return cudaErrorMemoryAllocation; }
    const cudaError_t e = cudaMalloc(p, bytes);
    return e == cudaSuccess ? e : failed(p, e);
}

cudaError_t gchol_dev_malloc_async(void **p, size_t bytes, cudaMemPool_t pool, cudaStream_t s)
{
    if (gchol_test_alloc_fails()) { *p = NULL; return cudaErrorMemoryAllocation; }
    const cudaError_t e = pool ? cudaMallocFromPoolAsync(p, bytes, pool, s) : cudaMallocAsync(p, bytes, s);
    return e == cudaSuccess ? e : failed(p, e);
}

cudaError_t gchol_host_malloc(void **p, size_t bytes)
{
    if (gchol_test_alloc_fails()) { *p = NULL; return cudaErrorMemoryAllocation; }
    const cudaError_t e = cudaMallocHost(p, bytes);
    return e == cudaSuccess ? e : failed(p, e);
}

/* A handle's creation allocates its workspace on the device. */
cublasStatus_t gchol_blas_create(cublasHandle_t *h)
{
    *h = NULL;
    if (gchol_test_alloc_fails()) return CUBLAS_STATUS_ALLOC_FAILED;
    const cublasStatus_t s = cublasCreate(h);
    if (s != CUBLAS_STATUS_SUCCESS) {
        *h = NULL;
        (void)cudaGetLastError();
    }
    return s;
}

cublasStatus_t gchol_blaslt_create(cublasLtHandle_t *h)
{
    *h = NULL;
    if (gchol_test_alloc_fails()) return CUBLAS_STATUS_ALLOC_FAILED;
    const cublasStatus_t s = cublasLtCreate(h);
    if (s != CUBLAS_STATUS_SUCCESS) {
        *h = NULL;
        (void)cudaGetLastError();
    }
    return s;
}
