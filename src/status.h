/*
 * status.h -- gchol's status from CUDA and cuBLAS results, and the macros
 * that check each call. Not installed.
 */
#ifndef GCHOL_STATUS_H
#define GCHOL_STATUS_H

#include "alloc.h"
#include "gchol.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

/* Maps a CUDA error to a gchol status. No device and a missing or too old
 * driver are all GCHOL_ERR_NO_DEVICE here: queue creation, where they
 * surface, tells them apart (gchol_no_device_status). */
static inline int64_t gchol_from_cuda(cudaError_t e)
{
    switch (e) {
    case cudaSuccess:                return GCHOL_SUCCESS;
    case cudaErrorMemoryAllocation:  return GCHOL_ERR_DEVICE_ALLOC;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInvalidDevice:     return GCHOL_ERR_NO_DEVICE;
    default:                         return GCHOL_ERR_CUDA;
    }
}

static inline int64_t gchol_from_cublas(cublasStatus_t s)
{
    if (s == CUBLAS_STATUS_SUCCESS) return GCHOL_SUCCESS;
    if (s == CUBLAS_STATUS_ALLOC_FAILED) return GCHOL_ERR_DEVICE_ALLOC;
    return GCHOL_ERR_CUBLAS;
}

/* The status for a CUDA runtime that found no device to use (e from
 * cudaGetDeviceCount and the like; errors.c): GCHOL_ERR_DRIVER_TOO_OLD when
 * an NVIDIA driver is loaded but older than this CUDA runtime, else
 * GCHOL_ERR_NO_DEVICE (no GPU, or no driver). */
int64_t gchol_no_device_status(cudaError_t e);

/* Evaluate a CUDA / cuBLAS call; on failure store the status in `st` and jump
 * to the function's `done` label, where cleanup runs. */
#define GCHOL_CUDA(call)                                                     \
    do { cudaError_t e_ = (call);                                            \
         if (e_ != cudaSuccess) { st = gchol_from_cuda(e_); goto done; } } while (0)
#define GCHOL_BLAS(call)                                                     \
    do { cublasStatus_t s_ = (call);                                         \
         if (s_ != CUBLAS_STATUS_SUCCESS) { st = gchol_from_cublas(s_); goto done; } } while (0)
#define GCHOL_TRY(call)                                                      \
    do { int64_t t_ = (call); if (t_ != GCHOL_SUCCESS) { st = t_; goto done; } } while (0)

/* The status of a failed pinned host allocation. */
static inline int64_t gchol_from_host_alloc(cudaError_t e)
{
    return e == cudaErrorMemoryAllocation ? GCHOL_ERR_HOST_ALLOC : gchol_from_cuda(e);
}

#endif
