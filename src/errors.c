/* errors.c -- gchol_strerror: a message for every value gchol returns. */
#include "gchol.h"

const char *gchol_strerror(int64_t code)
{
    switch (code) {
    case GCHOL_SUCCESS:           return "success";
    case GCHOL_ERR_NO_DEVICE:     return "no usable CUDA device (or no driver)";
    case GCHOL_ERR_DEVICE_ALLOC:  return "out of device memory";
    case GCHOL_ERR_HOST_ALLOC:    return "out of pinned host memory";
    case GCHOL_ERR_CUDA:          return "a CUDA runtime call or kernel launch failed";
    case GCHOL_ERR_CUBLAS:        return "a cuBLAS call failed";
    case GCHOL_ERR_INVALID_QUEUE: return "invalid queue (NULL, or for another device)";
    case GCHOL_ERR_INVALID_VALUE: return "invalid option value";
    default: break;
    }
    if (code > 0) return "the leading minor of order info is not positive definite";
    if (code < 0 && code > -100) return "argument -info had an illegal value";
    return "unknown gchol status";
}
