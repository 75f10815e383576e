/*
 * tune.c -- the choice of a table by compute capability, and the live
 * copies of the tables that the queues point to: the measured tables
 * (sm90.c) and the defaults derived from them, with the test hooks
 * (test_hooks.h) applied.
 */
#include "tune.h"

#include "../env.h"
#include "../host_stage.h"
#include "../test_hooks.h"

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <unistd.h>

enum { SM90 = 0, DEFAULT = 1 };
static gchol_tune_t live[2];
static pthread_once_t live_once = PTHREAD_ONCE_INIT;

static gchol_tune_t hooked(const gchol_tune_t *base, const gchol_test_hooks_t *h)
{
    gchol_tune_t t = *base;
    if (h->tiled_one_block_up_to > 0) t.kernel.tiled_one_block_up_to = h->tiled_one_block_up_to;
    if (h->tiled_cluster_helper > 0) t.kernel.tiled_cluster_helper = h->tiled_cluster_helper == 2;
    if (h->stage_bytes > 0) t.stage_bytes = h->stage_bytes;
    if (h->stage_parallel_min > 0) t.stage_parallel_min = (size_t)h->stage_parallel_min;
    if (h->host_parts_from_m > 0) t.host_parts_from_m = h->host_parts_from_m;
    if (h->syrk_diag_scratch_bytes > 0) t.syrk_diag_cublas_scratch_bytes = h->syrk_diag_scratch_bytes;
    if (h->lowp_nb > 0) t.lowp_nb_small = t.lowp_nb_large = h->lowp_nb;
    if (h->lowp_panel > 0 && h->lowp_panel <= 4) t.lowp_panel_inverse = h->lowp_panel - 1;
    if (h->lowp_keep_inverse > 0) t.lowp_keep_inverse = h->lowp_keep_inverse == 2;
    if (h->lowp_lookahead > 0 && h->lowp_lookahead <= 4) t.lowp_lookahead = h->lowp_lookahead - 1;
    if (h->lowp_update_leaf != 0)
        t.lowp_update_leaf = h->lowp_update_leaf > 0 ? h->lowp_update_leaf : 0;
    if (h->xposv_auto_fp32 > 0) t.xposv_auto_fp32 = h->xposv_auto_fp32 == 2;
    if (h->xposv_auto_lowp_from_n != 0)
        t.xposv_auto_lowp_from_n = h->xposv_auto_lowp_from_n > 0 ? h->xposv_auto_lowp_from_n : 0;
    if (h->xposv_auto_time == 1) t.xposv_auto_share = 0;
    if (h->xposv_auto_time == 2) t.xposv_auto_share = 1e-12;
    if (h->xposv_symv > 0) t.xposv_symv = h->xposv_symv == 1;
    for (int p = 0; p < 2 && h->syrk_diag_path > 0; p++) {
        t.prec[p].syrk_diag_cublas_from_m = h->syrk_diag_path == 1 ? INT64_MAX : 0;
        t.prec[p].syrk_diag_cublas_below_m = INT64_MAX;
    }
    return t;
}

static void derive(void)
{
    const gchol_test_hooks_t *h = gchol_test_hooks();
    live[SM90] = hooked(&gchol_tune_sm90_table, h);
    /* Every GPU without its own table: sm_90's choices, which are correct
     * on any GPU, without the tiled kernel's cluster helper (thread block
     * clusters need sm_90). Nothing of it was measured on such GPUs. */
    live[DEFAULT] = hooked(&gchol_tune_sm90_table, h);
    live[DEFAULT].name = "default";
    live[DEFAULT].kernel.tiled_cluster_helper = 0;
    /* gchol's symv kernel is plain CUDA, deterministic, on every GPU */
    if (h->xposv_symv <= 0) live[DEFAULT].xposv_symv = 1;
    /* the ladder's time limit and its crossover to double hold the H200's
     * times: neither elsewhere */
    if (h->xposv_auto_time != 2) live[DEFAULT].xposv_auto_share = 0;
    if (h->xposv_auto_lowp_from_n <= 0) live[DEFAULT].xposv_auto_lowp_from_n = 0;
}

void gchol_tune_refresh(void)
{
    (void)pthread_once(&live_once, derive);
    derive();
}

const gchol_tune_t *gchol_tune_select(int cc_major, int cc_minor)
{
    (void)cc_minor;
    (void)pthread_once(&live_once, derive);
    return cc_major == 9 ? &live[SM90] : &live[DEFAULT];
}

/* The compute capability of device dev; 0 if it cannot be had. */
static int capability(int dev, int *major, int *minor)
{
    if (cudaDeviceGetAttribute(major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return 1;
}

const gchol_tune_t *gchol_tune_for_device(int device)
{
    int major = 0, minor = 0;
    if (!capability(device, &major, &minor)) return gchol_tune_select(0, 0);
    return gchol_tune_select(major, minor);
}

const gchol_tune_t *gchol_tune_current(void)
{
    int dev = 0, major = 9, minor = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) (void)cudaGetLastError();
    else if (!capability(dev, &major, &minor)) major = 9, minor = 0;
    return gchol_tune_select(major, minor);
}

void gchol_tune_stage_config(const gchol_tune_t *t, gchol_stage_config_t *cfg)
{
    long threads = 0;
    if (!gchol_env_host_threads(&threads)) {
        const long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 && cores < t->host_threads ? cores : t->host_threads;
    }
    cfg->buffer_bytes = t->stage_bytes;
    cfg->parallel_min = t->stage_parallel_min;
    cfg->threads = threads < 1 ? 1 : threads > 1024 ? 1024 : (int)threads;
}
