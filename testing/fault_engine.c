/*
 * fault_engine.c -- a stand-in for the LAPACK shim's GPU engine
 * (src/lapack_engine.h) that fails every call, so that testing_preload.sh
 * can check on any machine what the shim does with a GPU failure. Loaded
 * through GCHOL_LAPACK_GPU_LIB; GCHOL_FAULT picks the failure:
 *   before   out of device memory before any input array is written: the
 *            shim must redo the call on the CPU (path 'F', LAPACK's result);
 *   after    a CUDA error once the copy back has begun (the first entry of
 *            the in-out array is overwritten): the shim must return
 *            info = GCHOL_ERR_CUDA (path 'E') and say so on stderr;
 *   version  the table of another engine version: the shim must refuse it
 *            and run on the CPU (its routines fail as in "after", so that
 *            an engine wrongly accepted shows).
 */
#include "../lapack_api/lapack_engine.h"
#include "gchol.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local int written;
static int *inout_written(void) { return &written; }

/* The failure; `out` is the array a partial copy back would have reached. */
static int64_t fail(void *out, int is_double, int64_t *info)
{
    const char *mode = getenv("GCHOL_FAULT");
    int64_t st = GCHOL_ERR_DEVICE_ALLOC;
    if (mode && (strcmp(mode, "after") == 0 || strcmp(mode, "version") == 0)) {
        written = 1;
        if (is_double) *(double *)out = NAN;
        else *(float *)out = NAN;
        st = GCHOL_ERR_CUDA;
    }
    *info = st;
    return st;
}

#define FAULTS(FLOAT, P, IS_D)                                                                  \
    static int64_t P##potrf(char u, int64_t n, FLOAT *A, int64_t lda, int64_t *info)           \
    { (void)u, (void)n, (void)lda; return fail(A, IS_D, info); }                               \
    static int64_t P##potrs(char u, int64_t n, int64_t r, const FLOAT *A, int64_t lda,         \
                            FLOAT *B, int64_t ldb, int64_t *info)                              \
    { (void)u, (void)n, (void)r, (void)A, (void)lda, (void)ldb; return fail(B, IS_D, info); }  \
    static int64_t P##posv(char u, int64_t n, int64_t r, FLOAT *A, int64_t lda, FLOAT *B,      \
                           int64_t ldb, int64_t *info)                                         \
    { (void)u, (void)n, (void)r, (void)B, (void)lda, (void)ldb; return fail(A, IS_D, info); }  \
    static int64_t P##pftrf(char t, char u, int64_t n, FLOAT *A, int64_t *info)                \
    { (void)t, (void)u, (void)n; return fail(A, IS_D, info); }                                 \
    static int64_t P##pftrs(char t, char u, int64_t n, int64_t r, const FLOAT *A, FLOAT *B,    \
                            int64_t ldb, int64_t *info)                                        \
    { (void)t, (void)u, (void)n, (void)r, (void)A, (void)ldb; return fail(B, IS_D, info); }
FAULTS(double, d_, 1)
FAULTS(float, s_, 0)

static int64_t dsposv(char u, int64_t n, int64_t r, double *A, int64_t lda, const double *B,
                      int64_t ldb, double *X, int64_t ldx, int64_t *iter, int64_t *info)
{
    (void)u, (void)n, (void)r, (void)A, (void)lda, (void)B, (void)ldb, (void)ldx;
    *iter = 0;
    return fail(X, 1, info);
}
static const char *status_text(int64_t st)
{
    return st == GCHOL_ERR_CUDA ? "injected CUDA error" : "injected out of device memory";
}
static void finalize(void) {}

static gchol_lapack_engine_t table = {
    .version = GCHOL_LAPACK_ENGINE_VERSION,
    .d_potrf = d_potrf, .d_potrs = d_potrs, .d_posv = d_posv, .d_pftrf = d_pftrf,
    .d_pftrs = d_pftrs,
    .s_potrf = s_potrf, .s_potrs = s_potrs, .s_posv = s_posv, .s_pftrf = s_pftrf,
    .s_pftrs = s_pftrs,
    .dsposv = dsposv, .inout_written = inout_written, .strerror = status_text,
    .finalize = finalize,
};

const gchol_lapack_engine_t *gchol_lapack_engine(void);
const gchol_lapack_engine_t *gchol_lapack_engine(void)
{
    const char *mode = getenv("GCHOL_FAULT");
    if (mode && strcmp(mode, "version") == 0) table.version = GCHOL_LAPACK_ENGINE_VERSION + 1;
    return &table;
}
