/*
 * lapack_engine.h -- the table through which the LAPACK shim reaches gchol.
 *
 * The shim (lib/libgchol_lapack.so) links no CUDA library: a program that
 * links it or preloads it starts without loading cuBLAS or the CUDA runtime,
 * and starts at all on a machine without them. Its first call routed to the
 * GPU opens the engine, lib/libgchol_lapack_gpu.so (gchol with its CUDA
 * libraries; lapack_api/lapack_engine.c), and takes this table from it. If the
 * engine cannot be opened, every call runs on the CPU LAPACK, as with no
 * device. GCHOL_LAPACK_GPU_LIB names another engine (the tests load a
 * fault-injecting one). Not installed.
 */
#ifndef GCHOL_LAPACK_ENGINE_H
#define GCHOL_LAPACK_ENGINE_H

#include <stdint.h>

/* Raised whenever a field changes meaning; the shim refuses another. */
#define GCHOL_LAPACK_ENGINE_VERSION 1

/* One routine of each precision, with gchol's host-memory signature. */
#define GCHOL_ENGINE_ROUTINES(FLOAT, P)                                                       \
    int64_t (*P##potrf)(char uplo, int64_t n, FLOAT *A, int64_t lda, int64_t *info);           \
    int64_t (*P##potrs)(char uplo, int64_t n, int64_t nrhs, const FLOAT *A, int64_t lda,       \
                        FLOAT *B, int64_t ldb, int64_t *info);                                 \
    int64_t (*P##posv)(char uplo, int64_t n, int64_t nrhs, FLOAT *A, int64_t lda, FLOAT *B,    \
                       int64_t ldb, int64_t *info);                                            \
    int64_t (*P##pftrf)(char transr, char uplo, int64_t n, FLOAT *A, int64_t *info);           \
    int64_t (*P##pftrs)(char transr, char uplo, int64_t n, int64_t nrhs, const FLOAT *A,       \
                        FLOAT *B, int64_t ldb, int64_t *info);

typedef struct {
    int version;     /* GCHOL_LAPACK_ENGINE_VERSION */
    GCHOL_ENGINE_ROUTINES(double, d_)
    GCHOL_ENGINE_ROUTINES(float, s_)
    int64_t (*dsposv)(char uplo, int64_t n, int64_t nrhs, double *A, int64_t lda,
                      const double *B, int64_t ldb, double *X, int64_t ldx, int64_t *iter,
                      int64_t *info);
    /* The calling thread's flag that the routine it ran last had begun to
     * write one of its input arrays (gchol_host_inout_written): a failure
     * before that leaves every input as it was, and the CPU can redo it. */
    int *(*inout_written)(void);
    const char *(*strerror)(int64_t status);
    void (*finalize)(void);
} gchol_lapack_engine_t;

/* The engine's one exported symbol. */
typedef const gchol_lapack_engine_t *gchol_lapack_engine_fn(void);
#define GCHOL_LAPACK_ENGINE_SYMBOL "gchol_lapack_engine"

#endif
