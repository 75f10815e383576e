/*
 * potrf_batched.c -- gchol_?potrf_batched_gpu, gchol_?potrf_strided_batched_gpu,
 * gchol_?potrf_vbatched_gpu and the host form gchol_?potrf_strided_batched
 * (gchol_batched.h): the argument checks and the launch of the batched
 * kernels (kernels/potrf_batched.cu), which pick their form by the
 * (largest) order. Precision-generic (see prec.h).
 */
#include "prec.h"

#include "args.h"
#include "host_io.h"
#include "gchol_batched.h"
#include "potrf_batched.h"
#include "potrf_batched_cublas.h"
#include "queue.h"
#include "status.h"
#include "test_hooks.h"
#include "tune/tune.h"

#include "../kernels/gchol_kernels.h"
#include "../kernels/potrf_batched_live.h"

/* The checked call: n = 0 zeroes dinfo, else the kernels on the queue's
 * stream. */
static int64_t run(int upper, int64_t n, FLOAT *dA, FLOAT *const *dA_array, const int64_t *dn,
                   int64_t ldda, const int64_t *dldda, int64_t stride, int64_t *dinfo,
                   int64_t batch, gchol_queue_t queue)
{
    int64_t st = GCHOL_SUCCESS;
    int prev = 0;
    if ((st = gchol_queue_enter(queue, &prev)) != GCHOL_SUCCESS) return st;
    gchol_kernel_tune_t kt = queue->tune->kernel;
    const int forced = gchol_test_hooks()->batched_kernel;
    if (forced >= 1 && forced <= 6) {
        const int rows = forced == 3 ? 64 : 0, mma = forced >= 4 ? 512 : 0;
        kt.batched_rows_from_n[0] = kt.batched_rows_from_n[1] = forced == 3 ? 17 : 0;
        kt.batched_rows_max_n[0] = kt.batched_rows_max_n[1] = rows;
        kt.batched_mma_from_n[0] = kt.batched_mma_from_n[1] = 0;
        kt.batched_mma_max_n[0] = kt.batched_mma_max_n[1] = mma;
    }
    if (forced == 1) kt.batched_smem_max_n = 0, kt.batched_hybrid_max_n = 512;
    if (forced >= 2 && forced <= 6) kt.batched_smem_max_n = 1, kt.batched_hybrid_max_n = 0;
    if (forced >= 5 && forced <= 6) kt.batched_mma_buffers = forced - 4;
    const int warp_max = gchol_test_hooks()->batched_warp_max_n;
    if (warp_max > 0) kt.batched_warp_max_n[0] = kt.batched_warp_max_n[1] = warp_max;
    if (forced >= 1 && forced <= 6) kt.batched_warp_max_n[0] = kt.batched_warp_max_n[1] = 0;
    if (forced != 0 && forced != 9) kt.batched_tiles_max_n[0] = kt.batched_tiles_max_n[1] = 0;
    if (forced == 9) { /* the tiles kernel past the lane groups, wherever its tiles fit */
        kt.batched_tiles_from_n[0] = kt.batched_tiles_from_n[1] = 1;
        kt.batched_tiles_max_n[0] = kt.batched_tiles_max_n[1] = 512;
        kt.batched_rows_max_n[0] = kt.batched_rows_max_n[1] = 0;
    }
    if (forced == 8) { /* the warp kernel to 256, then the panel kernel */
        kt.batched_warp_max_n[0] = kt.batched_warp_max_n[1] = 256;
        kt.batched_rows_from_n[0] = kt.batched_rows_from_n[1] = 0;
        kt.batched_rows_max_n[0] = kt.batched_rows_max_n[1] = 0;
        kt.batched_mma_max_n[0] = kt.batched_mma_max_n[1] = 0;
        kt.batched_smem_max_n = 1, kt.batched_hybrid_max_n = 0;
    }
    const int dmma_blocks = gchol_test_hooks()->batched_dmma_blocks;
    if (dmma_blocks > 0) kt.batched_dmma_blocks[0] = kt.batched_dmma_blocks[1] = dmma_blocks;
    if (forced == 10) { /* the FP64 tensor cores' warp kernel past the lane groups */
        kt.batched_dmma_from_n[0] = kt.batched_dmma_from_n[1] = 33;
        kt.batched_dmma_max_n[0] = kt.batched_dmma_max_n[1] = 512;
        kt.batched_rows_max_n[0] = kt.batched_rows_max_n[1] = 0;
    } else if (forced) {
        kt.batched_dmma_max_n[0] = kt.batched_dmma_max_n[1] = 0;
    }
    const gchol_tune_t *t = queue->tune;
    const double bytes = (double)batch * (double)n * (double)n * (double)sizeof(FLOAT);
    /* the FP64 tensor cores' warp kernel where the table has it and the
     * batch is large enough (dmma_on: ahead of everything else) */
    if (!forced && bytes < (double)t->batched_dmma_min_bytes[PREC_INDEX])
        kt.batched_dmma_max_n[PREC_INDEX] = 0;
    const int dmma_on = n >= kt.batched_dmma_from_n[PREC_INDEX] &&
                        n <= kt.batched_dmma_max_n[PREC_INDEX];
    /* the live tiles kernel where the table has it, ahead of everything
     * else (the hook: every order it takes) */
    const int64_t live_max_bytes = t->batched_live_max_bytes[PREC_INDEX];
    const int live_on = forced == 11 ? n <= GCHOL_BATCHED_LIVE_MAX_N
                      : !forced && t->batched_live_from_n[PREC_INDEX] > 0 &&
                        n >= t->batched_live_from_n[PREC_INDEX] &&
                        n <= t->batched_live_max_n[PREC_INDEX] &&
                        (live_max_bytes <= 0 || bytes < (double)live_max_bytes);
    if (live_on && n > 0) {
        int launched = 0;
        GCHOL_CUDA((cudaError_t)POTRF_BATCHED_LIVE_LAUNCH(n, dA, dA_array, dn, ldda, dldda,
                                                          stride, upper, dinfo, batch,
                                                          &launched, queue->stream));
        if (launched) goto done;
    }
    /* small batches: the tiles kernel from a lower order, ahead of the
     * rows kernel, and the panels kernel to 32 (n is the largest order in
     * the variable-size form) */
    const int64_t small_from = t->batched_tiles_small_from_n[PREC_INDEX];
    if (!forced && small_from > 0 && bytes < (double)t->batched_tiles_small_bytes) {
        if (kt.batched_tiles_from_n[PREC_INDEX] > small_from)
            kt.batched_tiles_from_n[PREC_INDEX] = small_from;
        if (kt.batched_rows_max_n[PREC_INDEX] >= small_from)
            kt.batched_rows_max_n[PREC_INDEX] = small_from - 1;
        /* and the panels kernel to 32, ahead of the rows kernel */
        kt.batched_panels_from_n[PREC_INDEX] = (int)t->batched_panels_small_from_n[PREC_INDEX];
    }
    /* the hook: the panels kernel from 17 to 32, any batch */
    if (forced == 13) kt.batched_panels_from_n[PREC_INDEX] = 17;
    /* a few matrices an SM: the replica kernel, where the table has it (the
     * hook: every order to 64, any batch) */
    if (forced == 12) {
        kt.batched_replica_from_n[PREC_INDEX] = 1;
        kt.batched_replica_max_n[PREC_INDEX] = 64;
    } else if (!forced && n <= 64 &&
               batch <= t->batched_replica_per_sm[PREC_INDEX] * queue->sm_count) {
        kt.batched_replica_from_n[PREC_INDEX] = (int)t->batched_replica_from_n[PREC_INDEX];
        kt.batched_replica_max_n[PREC_INDEX] = (int)t->batched_replica_max_n[PREC_INDEX];
    }
    /* block columns on cuBLAS's products (fixed order), where the table
     * (order and batch bytes) or the hook says; without room for their
     * workspace, the kernels */
    const int64_t cnb = gchol_test_hooks()->batched_cublas_nb > 0
                            ? gchol_test_hooks()->batched_cublas_nb : t->batched_cublas_nb;
    /* a kernel forced by the hook runs wherever it may, never the products */
    const int64_t from = forced == 7 ? 1 : forced ? 0 : t->batched_cublas_from_n[PREC_INDEX];
    /* the tiles kernel, where the table has it, ahead of the products on
     * batches below its size */
    const int tiles = n >= kt.batched_tiles_from_n[PREC_INDEX] &&
                      n <= kt.batched_tiles_max_n[PREC_INDEX] &&
                      (t->batched_tiles_max_bytes <= 0 || bytes < (double)t->batched_tiles_max_bytes);
    const int64_t min_bytes = forced == 7 ? 0 : t->batched_cublas_min_bytes;
    const int large = bytes >= (double)min_bytes;
    if (!dn && from > 0 && n >= from && n > cnb && cnb > 0 && large && !tiles && !dmma_on) {
        int no_room = 0;
        const int hook_fused = gchol_test_hooks()->batched_cublas_fused;
        const int64_t fused_max = t->batched_cublas_fused_max_bytes[PREC_INDEX];
        const int fused = hook_fused ? hook_fused == 1 : bytes < (double)fused_max;
        /* the trailing matrix on the live tiles kernel: the table's, on
         * the batches whose panel step is one launch, or the hook's (< 0:
         * none) */
        const int64_t hook_tail = gchol_test_hooks()->batched_cublas_tail;
        const int64_t tail = hook_tail ? (hook_tail > 0 ? hook_tail : 0)
                           : fused     ? t->batched_cublas_tail_n[PREC_INDEX] : 0;
        st = PFX(potrf_batched_cublas)(upper, n, cnb, fused, tail, dA, dA_array, ldda, stride,
                                       dinfo, batch, queue, &no_room);
        if (!no_room) goto done;
    }
    if (n == 0 && !dn)
        GCHOL_CUDA(cudaMemsetAsync(dinfo, 0, (size_t)batch * sizeof(int64_t), queue->stream));
    else
        GCHOL_CUDA((cudaError_t)POTRF_BATCHED_LAUNCH(n, dA, dA_array, dn, ldda, dldda,
                                                     stride, upper, dinfo, batch,
                                                     &kt, queue->stream));
done:
    gchol_queue_leave(prev);
    return st;
}

/* gchol_dpotrf_batched_run, gchol_spotrf_batched_run (potrf_batched.h) */
int64_t PFX(potrf_batched_run)(int upper, int64_t n, FLOAT *dA, FLOAT *const *dA_array,
                               int64_t ldda, int64_t stride, int64_t *dinfo, int64_t batch,
                               gchol_queue_t queue)
{
    return run(upper, n, dA, dA_array, NULL, ldda, NULL, stride, dinfo, batch, queue);
}

/* gchol_dpotrf_batched_gpu, gchol_spotrf_batched_gpu: arguments in
 * gchol_batched.h. */
int64_t PFX(potrf_batched_gpu)(char uplo, int64_t n, FLOAT *const *dA_array, int64_t ldda,
                               int64_t *dinfo, int64_t batch, gchol_queue_t queue)
{
    if (!gchol_uplo_valid(uplo)) return -1;
    if (n < 0) return -2;
    if (n > 0 && batch > 0 && dA_array == NULL) return -3;
    if (ldda < (n > 1 ? n : 1)) return -4;
    if (batch > 0 && dinfo == NULL) return -5;
    if (batch < 0) return -6;
    if (queue == NULL) return -7;
    if (batch == 0) return GCHOL_SUCCESS;
    return run(gchol_uplo_is_upper(uplo), n, NULL, dA_array, NULL, ldda, NULL, 0, dinfo, batch,
               queue);
}

/* gchol_dpotrf_strided_batched_gpu, gchol_spotrf_strided_batched_gpu */
int64_t PFX(potrf_strided_batched_gpu)(char uplo, int64_t n, FLOAT *dA, int64_t ldda,
                                       int64_t strideA, int64_t *dinfo, int64_t batch,
                                       gchol_queue_t queue)
{
    if (!gchol_uplo_valid(uplo)) return -1;
    if (n < 0) return -2;
    if (n > 0 && batch > 0 && dA == NULL) return -3;
    if (ldda < (n > 1 ? n : 1)) return -4;
    if (batch > 1 && strideA < ldda * n) return -5;
    if (batch > 0 && dinfo == NULL) return -6;
    if (batch < 0) return -7;
    if (queue == NULL) return -8;
    if (batch == 0) return GCHOL_SUCCESS;
    return run(gchol_uplo_is_upper(uplo), n, dA, NULL, NULL, ldda, NULL, strideA, dinfo, batch,
               queue);
}

/* gchol_dpotrf_vbatched_gpu, gchol_spotrf_vbatched_gpu */
int64_t PFX(potrf_vbatched_gpu)(char uplo, const int64_t *dn, FLOAT *const *dA_array,
                                const int64_t *dldda, int64_t max_n, int64_t *dinfo,
                                int64_t batch, gchol_queue_t queue)
{
    if (!gchol_uplo_valid(uplo)) return -1;
    if (batch > 0 && dn == NULL) return -2;
    if (batch > 0 && dA_array == NULL) return -3;
    if (batch > 0 && dldda == NULL) return -4;
    if (max_n < 0) return -5;
    if (batch > 0 && dinfo == NULL) return -6;
    if (batch < 0) return -7;
    if (queue == NULL) return -8;
    if (batch == 0) return GCHOL_SUCCESS;
    return run(gchol_uplo_is_upper(uplo), max_n, NULL, dA_array, dn, 0, dldda, 0, dinfo, batch,
               queue);
}

/* The host form's device job: the strided batch at dbase, the infos behind it. */
typedef struct {
    char uplo;
    int64_t n, lda, stride, batch;
    size_t info_off;
} host_batch_t;

static int64_t host_batch_job(gchol_queue_t q, char *dbase, void *ctx, int *download)
{
    const host_batch_t *c = (const host_batch_t *)ctx;
    (void)download;
    return run(gchol_uplo_is_upper(c->uplo), c->n, (FLOAT *)dbase, NULL, NULL, c->lda, NULL,
               c->stride, (int64_t *)(dbase + c->info_off), c->batch, q);
}

/* gchol_dpotrf_strided_batched, gchol_spotrf_strided_batched: host arrays */
int64_t PFX(potrf_strided_batched)(char uplo, int64_t n, FLOAT *A, int64_t lda, int64_t strideA,
                                   int64_t *info, int64_t batch)
{
    if (!gchol_uplo_valid(uplo)) return -1;
    if (n < 0) return -2;
    if (n > 0 && batch > 0 && A == NULL) return -3;
    if (lda < (n > 1 ? n : 1)) return -4;
    if (batch > 1 && strideA < lda * n) return -5;
    if (batch > 0 && info == NULL) return -6;
    if (batch < 0) return -7;
    if (n == 0) /* the quick return: no GPU needed */
        for (int64_t b = 0; b < batch; ++b) info[b] = 0;
    if (batch == 0 || n == 0) return GCHOL_SUCCESS;
    /* every element from the first matrix to the last one's end, gaps
     * included, goes up and comes back (the same values outside the
     * triangles); the infos behind them, 256-byte aligned */
    const size_t w = sizeof(FLOAT);
    const int64_t span = (batch - 1) * strideA + lda * (n - 1) + n;
    const size_t info_off = ((size_t)span * w + 255) / 256 * 256;
    const host_batch_t job = { uplo, n, lda, strideA, batch, info_off };
    const gchol_host_array_t arrays[] = {
        { .up = A, .down = A, .ld = (size_t)span * w, .width = (size_t)span * w, .offset = 0,
          .cols = 1 },
        { .down = info, .ld = (size_t)batch * 8, .width = (size_t)batch * 8, .offset = info_off,
          .cols = 1 },
    };
    return gchol_host_call(arrays, 2, info_off + (size_t)batch * 8, host_batch_job, (void *)&job);
}
