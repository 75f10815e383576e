/*
 * alloc.h -- every device and pinned host allocation of the library goes
 * through these (alloc.c), so that a test can make any one of them fail
 * (test_hooks.h: alloc_fail_at) and reach each out-of-memory path. Not
 * installed.
 *
 * Each returns what the CUDA or cuBLAS call it wraps returns; an injected
 * failure returns cudaErrorMemoryAllocation (CUBLAS_STATUS_ALLOC_FAILED)
 * without calling it. On any failure the result pointer or handle is NULL
 * and no CUDA error is left pending (a later launch's cudaGetLastError
 * would report it again).
 */
#ifndef GCHOL_ALLOC_H
#define GCHOL_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

cudaError_t gchol_dev_malloc(void **p, size_t bytes);                         /* cudaMalloc */
cudaError_t gchol_dev_malloc_async(void **p, size_t bytes, cudaMemPool_t pool,
                                   cudaStream_t s);   /* cudaMalloc(FromPool)Async; pool NULL: the default */
cudaError_t gchol_host_malloc(void **p, size_t bytes);                        /* cudaMallocHost */
cublasStatus_t gchol_blas_create(cublasHandle_t *h);                          /* cublasCreate */
cublasStatus_t gchol_blaslt_create(cublasLtHandle_t *h);                      /* cublasLtCreate */

#endif
