/*
 * errors.c -- gchol_strerror: a message for every value gchol returns; and
 * the status for a CUDA runtime that finds no device to use.
 */
#include "status.h"

#include <cuda_runtime_api.h>

const char *gchol_strerror(int64_t code)
{
    switch (code) {
    case GCHOL_SUCCESS:           return "success";
    case GCHOL_ERR_NO_DEVICE:     return "no CUDA GPU, or no NVIDIA driver loaded";
    case GCHOL_ERR_DEVICE_ALLOC:  return "out of device memory";
    case GCHOL_ERR_HOST_ALLOC:    return "out of pinned host memory";
    case GCHOL_ERR_CUDA:          return "a CUDA runtime call or kernel launch failed";
    case GCHOL_ERR_CUBLAS:        return "a cuBLAS call failed";
    case GCHOL_ERR_INVALID_QUEUE: return "invalid queue (NULL, or for another device)";
    case GCHOL_ERR_INVALID_VALUE: return "invalid option value";
    case GCHOL_ERR_DRIVER_TOO_OLD:
        return "the NVIDIA driver is too old for the CUDA runtime gchol was built with "
               "(update the driver)";
    case GCHOL_ERR_COMM:          return "an MPI or NCCL call failed";
    default: break;
    }
    if (code > 0) return "the leading minor of order info is not positive definite";
    if (code < 0 && code > -100) return "argument -info had an illegal value";
    if (code <= -300 && code > -10000) /* ScaLAPACK's -(100 i + j) */
        return "entry j of array argument i had an illegal value (info = -(100 i + j))";
    return "unknown gchol status";
}

/* cudaErrorInsufficientDriver means either: no driver at all (libcuda
 * cannot be loaded; cudaDriverGetVersion then reports 0), or a driver older
 * than the runtime (it reports that driver's version, below the runtime's). */
int64_t gchol_no_device_status(cudaError_t e)
{
    if (e == cudaErrorInsufficientDriver) {
        int driver = 0, runtime = 0;
        if (cudaRuntimeGetVersion(&runtime) != cudaSuccess || runtime <= 0)
            runtime = CUDART_VERSION;
        if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0 && driver < runtime)
            return GCHOL_ERR_DRIVER_TOO_OLD;
    }
    return GCHOL_ERR_NO_DEVICE;
}
