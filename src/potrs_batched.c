/*
 * potrs_batched.c -- gchol_?potrs_batched_gpu, gchol_?posv_batched_gpu and
 * their strided forms (gchol_batched.h): the argument checks and the
 * launches of the batched kernels (kernels/potrs_batched.cu; posv
 * factors by potrf_batched.c's choice, as potrf_batched does).
 * Precision-generic (see prec.h).
 */
#include "prec.h"

#include "args.h"
#include "gchol_batched.h"
#include "potrf_batched.h"
#include "queue.h"
#include "status.h"
#include "test_hooks.h"
#include "tune/tune.h"

#include "../kernels/gchol_kernels.h"

/* The arguments every form shares, by role; 0 or the first bad one's -i
 * (i from the caller's numbering: pos[k] for role k). Roles: 0 uplo, 1 n,
 * 2 nrhs, 3 A, 4 ldda, 5 strideA, 6 B, 7 lddb, 8 strideB, 9 dinfo, 10 batch,
 * 11 queue; pos[k] = 0 when the form has no such argument. */
typedef struct {
    char uplo;
    int64_t n, nrhs;
    const void *A;
    int64_t ldda, strideA;
    const void *B;
    int64_t lddb, strideB;
    const int64_t *dinfo;
    int64_t batch;
    gchol_queue_t queue;
} args_t;

static int64_t check(const args_t *a, const int pos[12])
{
    const int64_t nmin = a->n > 1 ? a->n : 1, work = a->n > 0 && a->batch > 0;
    const int bad[12] = {
        !gchol_uplo_valid(a->uplo),
        a->n < 0,
        a->nrhs < 0,
        work && a->A == NULL,
        a->ldda < nmin,
        pos[5] && a->batch > 1 && a->strideA < a->ldda * a->n,
        work && a->nrhs > 0 && a->B == NULL,
        a->lddb < nmin,
        pos[8] && a->batch > 1 && a->strideB < a->lddb * a->nrhs,
        pos[9] && a->batch > 0 && a->dinfo == NULL,
        a->batch < 0,
        a->queue == NULL,
    };
    for (int k = 0; k < 12; ++k)
        if (pos[k] && bad[k]) return -pos[k];
    return 0;
}

/* potrf (with dinfo) then potrs on the systems it factored, or potrs alone
 * (dinfo NULL), on the queue's stream. */
static int64_t run(const args_t *a, FLOAT *dA, FLOAT *const *dA_array, FLOAT *dB,
                   FLOAT *const *dB_array, int64_t *dinfo)
{
    int64_t st = GCHOL_SUCCESS;
    int prev = 0;
    const int upper = gchol_uplo_is_upper(a->uplo);
    if ((st = gchol_queue_enter(a->queue, &prev)) != GCHOL_SUCCESS) return st;
    cudaStream_t s = a->queue->stream;
    gchol_kernel_tune_t kt_forced = a->queue->tune->kernel;
    const int forced = gchol_test_hooks()->batched_potrs_kernel;
    if (forced == 1 || forced == 2)
        kt_forced.batched_potrs_direct_from_n[0] = kt_forced.batched_potrs_direct_from_n[1] = forced == 2 ? 1 : 0;
    const gchol_kernel_tune_t *kt = &kt_forced;
    if (dinfo && (st = PFX(potrf_batched_run)(upper, a->n, dA, dA_array, a->ldda, a->strideA,
                                              dinfo, a->batch, a->queue)) != GCHOL_SUCCESS)
        goto done;
    GCHOL_CUDA((cudaError_t)POTRS_BATCHED_LAUNCH(a->n, a->nrhs, dA, (const FLOAT *const *)dA_array,
                                                 a->ldda, a->strideA, dB, dB_array, a->lddb,
                                                 a->strideB, upper, dinfo, a->batch, kt, s));
done:
    gchol_queue_leave(prev);
    return st;
}

/* gchol_dpotrs_batched_gpu, gchol_spotrs_batched_gpu */
int64_t PFX(potrs_batched_gpu)(char uplo, int64_t n, int64_t nrhs, const FLOAT *const *dA_array,
                               int64_t ldda, FLOAT *const *dB_array, int64_t lddb, int64_t batch,
                               gchol_queue_t queue)
{
    static const int pos[12] = { 1, 2, 3, 4, 5, 0, 6, 7, 0, 0, 8, 9 };
    const args_t a = { uplo, n, nrhs, dA_array, ldda, 0, dB_array, lddb, 0, NULL, batch, queue };
    const int64_t st = check(&a, pos);
    if (st != 0 || batch == 0 || n == 0 || nrhs == 0) return st;
    return run(&a, NULL, (FLOAT *const *)dA_array, NULL, dB_array, NULL);
}

/* gchol_dpotrs_strided_batched_gpu, gchol_spotrs_strided_batched_gpu */
int64_t PFX(potrs_strided_batched_gpu)(char uplo, int64_t n, int64_t nrhs, const FLOAT *dA,
                                       int64_t ldda, int64_t strideA, FLOAT *dB, int64_t lddb,
                                       int64_t strideB, int64_t batch, gchol_queue_t queue)
{
    static const int pos[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 10, 11 };
    const args_t a = { uplo, n, nrhs, dA, ldda, strideA, dB, lddb, strideB, NULL, batch, queue };
    const int64_t st = check(&a, pos);
    if (st != 0 || batch == 0 || n == 0 || nrhs == 0) return st;
    return run(&a, (FLOAT *)dA, NULL, dB, NULL, NULL);
}

/* gchol_dposv_batched_gpu, gchol_sposv_batched_gpu */
int64_t PFX(posv_batched_gpu)(char uplo, int64_t n, int64_t nrhs, FLOAT *const *dA_array,
                              int64_t ldda, FLOAT *const *dB_array, int64_t lddb, int64_t *dinfo,
                              int64_t batch, gchol_queue_t queue)
{
    static const int pos[12] = { 1, 2, 3, 4, 5, 0, 6, 7, 0, 8, 9, 10 };
    const args_t a = { uplo, n, nrhs, dA_array, ldda, 0, dB_array, lddb, 0, dinfo, batch, queue };
    const int64_t st = check(&a, pos);
    if (st != 0 || batch == 0) return st;
    return run(&a, NULL, dA_array, NULL, dB_array, dinfo);
}

/* gchol_dposv_strided_batched_gpu, gchol_sposv_strided_batched_gpu */
int64_t PFX(posv_strided_batched_gpu)(char uplo, int64_t n, int64_t nrhs, FLOAT *dA, int64_t ldda,
                                      int64_t strideA, FLOAT *dB, int64_t lddb, int64_t strideB,
                                      int64_t *dinfo, int64_t batch, gchol_queue_t queue)
{
    static const int pos[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
    const args_t a = { uplo, n, nrhs, dA, ldda, strideA, dB, lddb, strideB, dinfo, batch, queue };
    const int64_t st = check(&a, pos);
    if (st != 0 || batch == 0) return st;
    return run(&a, dA, NULL, dB, NULL, dinfo);
}
