/*
 * host_stage.h -- staged 2D copies between pageable host memory and the
 * device (host_stage.c). Not installed.
 */
#ifndef GCHOL_HOST_STAGE_H
#define GCHOL_HOST_STAGE_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "gchol.h" /* the status codes */

/* A stager's configuration, fixed at creation (the queue's from its tuning
 * table: gchol_tune_stage_config). */
typedef struct gchol_stage_config_s {
    size_t buffer_bytes; /* each pinned buffer; > 0                          */
    size_t parallel_min; /* copies of fewer bytes: the caller's thread alone */
    int    threads;      /* copy threads, the caller's included (1: alone;
                            bounded by the stager)                          */
} gchol_stage_config_t;

/* create: GCHOL_SUCCESS, GCHOL_ERR_HOST_ALLOC (pinned buffers or memory),
 * GCHOL_ERR_INVALID_VALUE (cfg NULL or buffer_bytes 0) or a CUDA error's
 * status. h2d returns once the data is staged (the DMA runs on s); d2h once
 * it is in h. Pitches and width in bytes, height = number of runs. */
typedef struct gchol_stage_s gchol_stage_t;
int64_t     gchol_stage_create(gchol_stage_t **st, const gchol_stage_config_t *cfg);
void        gchol_stage_destroy(gchol_stage_t *st);
cudaError_t gchol_stage_h2d(gchol_stage_t *st, void *d, size_t dpitch, const void *h,
                            size_t hpitch, size_t width, size_t height, cudaStream_t s);
cudaError_t gchol_stage_d2h(gchol_stage_t *st, void *h, size_t hpitch, const void *d,
                            size_t dpitch, size_t width, size_t height, cudaStream_t s);

#endif
