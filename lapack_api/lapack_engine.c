/*
 * lapack_engine.c -- the GPU side of the LAPACK shim: built with gchol
 * (lib/libgchol.a) and its CUDA libraries into lib/libgchol_lapack_gpu.so,
 * which exports only gchol_lapack_engine and, for testers, two entries into
 * its copy of the library's test hooks (lapack_engine.map). The shim opens
 * it at its first call routed to the GPU (lapack_engine.h says why).
 */
#include "lapack_engine.h"

#include "gchol.h"
#include "../src/host_io.h"    /* gchol_host_inout_written */
#include "../src/test_hooks.h" /* the testers' entries below */

static int *inout_written(void) { return &gchol_host_inout_written; }

static const gchol_lapack_engine_t kEngine = {
    .version = GCHOL_LAPACK_ENGINE_VERSION,
    .d_potrf = gchol_dpotrf, .d_potrs = gchol_dpotrs, .d_posv = gchol_dposv,
    .d_pftrf = gchol_dpftrf, .d_pftrs = gchol_dpftrs,
    .s_potrf = gchol_spotrf, .s_potrs = gchol_spotrs, .s_posv = gchol_sposv,
    .s_pftrf = gchol_spftrf, .s_pftrs = gchol_spftrs,
    .dsposv = gchol_dsposv,
    .inout_written = inout_written,
    .strerror = gchol_strerror,
    .finalize = gchol_finalize,
};

const gchol_lapack_engine_t *gchol_lapack_engine(void);
const gchol_lapack_engine_t *gchol_lapack_engine(void) { return &kEngine; }

/* For testers (test_hooks.h): the hooks of this copy of the library, which
 * the program's own copy does not reach; the shim never calls them. */
void gchol_lapack_engine_test_hooks_set(const gchol_test_hooks_t *h);
void gchol_lapack_engine_test_hooks_set(const gchol_test_hooks_t *h) { gchol_test_hooks_set(h); }
int64_t gchol_lapack_engine_test_alloc_count(void);
int64_t gchol_lapack_engine_test_alloc_count(void) { return gchol_test_alloc_count(); }
