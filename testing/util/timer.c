/*
 * timer.c -- CUDA-event timing and the timed job loop (timer.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "timer.h"
#include "util.h"

cudaError_t testing_timer_create(testing_timer_t *t, cudaStream_t stream)
{
    t->start = t->stop = NULL;
    t->stream = stream;
    cudaError_t err = cudaEventCreate(&t->start);
    if (err == cudaSuccess)
        err = cudaEventCreate(&t->stop);
    return err;
}

cudaError_t testing_timer_destroy(testing_timer_t *t)
{
    cudaError_t e1 = t->start ? cudaEventDestroy(t->start) : cudaSuccess;
    cudaError_t e2 = t->stop ? cudaEventDestroy(t->stop) : cudaSuccess;
    t->start = t->stop = NULL;
    return e1 != cudaSuccess ? e1 : e2;
}

cudaError_t testing_timer_start(testing_timer_t *t)
{
    return cudaEventRecord(t->start, t->stream);
}

cudaError_t testing_timer_stop(testing_timer_t *t, double *seconds)
{
    float ms = 0.0f;
    cudaError_t err = cudaEventRecord(t->stop, t->stream);
    if (err == cudaSuccess)
        err = cudaEventSynchronize(t->stop);
    if (err == cudaSuccess)
        err = cudaEventElapsedTime(&ms, t->start, t->stop);
    *seconds = err == cudaSuccess ? ms * 1e-3 : 0.0;
    return err;
}

double testing_time_job(const testing_job_t *job, void *ctx, cudaStream_t stream,
                        int wall_clock, int niter, int64_t *info)
{
    testing_timer_t timer;
    double *times = malloc((size_t)(niter > 0 ? niter : 1) * sizeof(double));
    double median = -1.0;
    *info = 0;
    if (!times || (!wall_clock && TESTING_CUDA(testing_timer_create(&timer, stream)))) {
        *info = times ? GCHOL_ERR_CUDA : GCHOL_ERR_HOST_ALLOC;
        free(times);
        return -1.0;
    }
    const double warm_end = testing_wtime() + TESTING_WARMUP_S;
    for (int it = -1; it < niter; ++it) {                    /* it = -1: warm-up */
        if (it == 0 && testing_wtime() < warm_end) it = -1;  /* warm up again    */
        if (job->prepare) job->prepare(ctx);
        int64_t run_info = 0;
        double t0 = 0.0, seconds = 0.0;
        if (wall_clock) t0 = testing_wtime();
        else if (TESTING_CUDA(testing_timer_start(&timer))) { *info = GCHOL_ERR_CUDA; goto done; }
        const int64_t ret = job->run(ctx, &run_info);
        if (wall_clock) seconds = testing_wtime() - t0;
        else if (TESTING_CUDA(testing_timer_stop(&timer, &seconds))) { *info = GCHOL_ERR_CUDA; goto done; }
        if (ret < 0) { *info = ret; goto done; }             /* error: no time   */
        if (job->finish) job->finish(ctx, &run_info);
        if (*info == 0) *info = run_info;
        if (it >= 0) times[it] = seconds;
    }
    median = testing_median(times, niter);
done:
    free(times);
    if (!wall_clock) testing_timer_destroy(&timer);
    return median;
}
