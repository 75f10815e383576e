/*
 * timer.h -- timing of GPU work for the benchmarks and the testers' tables:
 * a pair of CUDA events around a region of one stream, and the timed job
 * loop (a warm-up that keeps the GPU busy for a while, then the median of
 * niter runs, each run's input prepared outside the timed region).
 */
#ifndef GCHOL_TESTING_TIMER_H
#define GCHOL_TESTING_TIMER_H

#include <stdint.h>

#include <cuda_runtime_api.h>

/* A pair of CUDA events timing a region of one stream. */
typedef struct {
    cudaEvent_t  start, stop;
    cudaStream_t stream;
} testing_timer_t;

/* Each returns the first CUDA error (cudaSuccess when all went well). */
cudaError_t testing_timer_create(testing_timer_t *t, cudaStream_t stream);
cudaError_t testing_timer_destroy(testing_timer_t *t);
cudaError_t testing_timer_start(testing_timer_t *t);
/* Records the stop event, waits for it and sets *seconds. */
cudaError_t testing_timer_stop(testing_timer_t *t, double *seconds);

/* One timed job: for a warm-up and then niter runs, prepare (untimed; e.g. a
 * fresh copy of the input), run (timed), finish (untimed; e.g. read back a
 * device info word). run returns < 0 on an error and may set *info; prepare
 * and finish may be NULL. */
typedef struct {
    void    (*prepare)(void *ctx);
    int64_t (*run)(void *ctx, int64_t *info);
    void    (*finish)(void *ctx, int64_t *info);
} testing_job_t;

/* The least time that the warm-up keeps the GPU busy: after the host's work
 * between measurements (a new matrix, the checks) the GPU idles, and a short
 * job timed right after it runs at lowered clocks. */
#define TESTING_WARMUP_S 0.025

/* Times job with CUDA events on stream (wall_clock = 0) or with the host wall
 * clock (wall_clock = 1; stream unused). Returns the median seconds of the
 * niter timed runs and sets *info to the first nonzero info of any run; or,
 * when a run returns an error, stops there, sets *info to it and returns -1
 * (also on a CUDA error of the timer itself: *info = GCHOL_ERR_CUDA). The
 * warm-up runs the job at least once and until TESTING_WARMUP_S has passed. */
double testing_time_job(const testing_job_t *job, void *ctx, cudaStream_t stream,
                        int wall_clock, int niter, int64_t *info);

#endif /* GCHOL_TESTING_TIMER_H */
