/*
 * potrf.c -- gchol_?potrf_gpu, gchol_?potrf_expert_gpu, gchol_?potrf_async:
 * Cholesky of a device matrix; and the library's own entry points into the
 * same driver (potrf.h): with the host interface's transfers, and on the
 * blocks of an RFP array. Resolves the options, sets up the view and the
 * two streams, and runs the tiled kernel or a blocked driver
 * (potrf_left.c, potrf_right.c). Precision-generic (see prec.h).
 */
#include "prec.h"
#include "potrf_driver.h"

#include "args.h"
#include "options_ext.h"
#include "potrf.h"
#include "queue.h"
#include "status.h"
#include "tune/tune.h"

#include "../kernels/gchol_kernels.h"
#include "../kernels/rfp_index.h"

/* Enqueues the factorization of view columns c0..n-1 (those before are
 * final) on the queue's stream; info to f->dinfo. A block view or c0 > 0
 * runs the left-looking driver whatever the options' variant. */
static int64_t factor(fact_t *f, int64_t n, int64_t c0, const gchol_options_t *user_opts)
{
    int64_t st = GCHOL_SUCCESS, st_join;
    gchol_options_t o;
    if (user_opts) o = *user_opts; else gchol_options_default(&o);
    f->order = n;
    if (f->io) gchol_options_resolve_host_tuned(&o, f->q->tune, PREC_CHAR, n);
    else gchol_options_resolve_tuned(&o, f->q->tune, PREC_CHAR, n);
    f->recnb = o.recnb < GCHOL_POTF2_MAX_N ? o.recnb : GCHOL_POTF2_MAX_N;
    f->panel_leaf = o.recnb > GCHOL_TILED_NB ? o.recnb : GCHOL_TILED_NB;
    f->tf32 = o.products == GCHOL_PRODUCTS_TF32;
    const int64_t nb = o.nb > f->recnb ? o.nb : f->recnb;
    /* whether a blocked driver runs (else the tiled kernel or one block) */
    const int blocked = f->split < n || c0 > 0 || (o.variant != GCHOL_VARIANT_TILED && n > nb);

    /* 'U' by swapping: the lower factorization on the swapped matrix, whose
     * accesses are contiguous. The left-looking lookahead swaps block by
     * block beside its work; otherwise all at once here. What was swapped
     * is swapped back below, whatever happens in between. */
    f->swap_n = 0;
    f->swap_pieces = 0;
    GCHOL_CUDA(cudaMemsetAsync(f->dinfo, 0, sizeof(int64_t), f->q->stream));
    if (o.upper == GCHOL_UPPER_SWAP && f->split == INT64_MAX && c0 == 0 && f->blk[B11].trans &&
        !f->io) {
        view_plain(f, f->blk[B11].base, f->ld, 0);
        f->swap_n = n;
        f->swap_cols = f->swap_rows = 0;
        f->swap_pieces = gchol_options_left_lookahead(&o, n);
        if (!f->swap_pieces) GCHOL_TRY(PFX(potrf_swap_columns_to)(f, n));
    }
    if (f->tracing) {
        GCHOL_CUDA(cudaEventCreate(&f->t0));
        GCHOL_CUDA(cudaEventRecord(f->t0, f->q->stream));
    }
    /* The panel stream joins in only where a blocked driver runs: the tiled
     * kernel, and a matrix of one block, use the queue's stream alone (the
     * fork and join took host time before every small factorization, while
     * the GPU waited). */
    if (blocked) {
        GCHOL_CUDA(cudaEventRecord(f->q->ev_fork, f->q->stream));
        GCHOL_CUDA(cudaStreamWaitEvent(f->q->panel_stream, f->q->ev_fork, 0));
    }
    /* only the left-looking lookahead interleaves the host transfers */
    if (f->io && !gchol_options_left_lookahead(&o, n)) {
        GCHOL_TRY(f->io->need(f->io->ctx, n));
        f->io = NULL;
    }

    if (f->split < n || c0 > 0)
        st = PFX(potrf_left)(f, c0, n, nb, o.lookahead == GCHOL_LOOKAHEAD_ON);
    else if (o.variant == GCHOL_VARIANT_TILED)
        TRACED(MAIN, GCHOL_OP_POTRF_DIAG, 0, n, n, 0,
               gchol_from_cuda((cudaError_t)POTRF_TILED_LAUNCH(n, n, f->blk[B11].base, f->ld,
                                                               f->blk[B11].trans, 0,
                                                               f->dinfo, f->q->dtile_sync,
                                                               (FLOAT *)f->q->dscratch[0],
                                                               &f->q->tune->kernel,
                                                               f->q->stream)));
    else if (n <= nb)
        PANEL(MAIN, 0, n, 0);
    else if (o.variant == GCHOL_VARIANT_LEFT)
        st = PFX(potrf_left)(f, 0, n, nb, o.lookahead == GCHOL_LOOKAHEAD_ON);
    else
        st = PFX(potrf_right)(f, n, nb, o.lookahead == GCHOL_LOOKAHEAD_ON);

done:
    /* Join even after a failure, so the caller's stream never runs ahead of
     * work still queued on the panel stream. */
    st_join = GCHOL_SUCCESS;
    if (blocked) {
        st_join = gchol_from_cuda(cudaEventRecord(f->q->ev_join, f->q->panel_stream));
        if (st_join == GCHOL_SUCCESS)
            st_join = gchol_from_cuda(cudaStreamWaitEvent(f->q->stream, f->q->ev_join, 0));
    }
    if (f->swap_n > 0) {
        /* without the join, wait for the panel stream here: the pairs
         * swapped come back in every case */
        int64_t st_back = st_join == GCHOL_SUCCESS
                              ? GCHOL_SUCCESS
                              : gchol_from_cuda(cudaStreamSynchronize(f->q->panel_stream));
        if (st_back == GCHOL_SUCCESS) st_back = PFX(potrf_swap_rows_back_to)(f, n);
        if (st_join == GCHOL_SUCCESS) st_join = st_back;
    }
    return st != GCHOL_SUCCESS ? st : st_join;
}

/* LAPACK-order argument check shared by the device forms: uplo (1), n (2),
 * dA (3), ldda (4), info (5), then opts (6) and the queue (7) where the form
 * has options (has_opts; a trace only where allow_trace), else the queue
 * (6). */
static int64_t check_args(char uplo, int64_t n, const void *dA, int64_t ldda, const void *info,
                          int has_opts, const gchol_options_t *opts, int allow_trace,
                          gchol_queue_t queue)
{
    if (!gchol_uplo_valid(uplo)) return -1;
    if (n < 0) return -2;
    if (n > 0 && dA == NULL) return -3;
    if (ldda < (n > 1 ? n : 1)) return -4;
    if (info == NULL) return -5;
    if (has_opts && (!gchol_options_valid(opts) || (!allow_trace && opts && opts->trace)))
        return -6;
    if (queue == NULL) return has_opts ? -7 : -6;
    return 0;
}

/* Runs the factorization of columns c0..n-1 of f's view and waits for it;
 * returns *info as in LAPACK, or a library error. */
static int64_t factor_sync(fact_t *f, int64_t n, int64_t c0, const gchol_options_t *opts)
{
    gchol_queue_t queue = f->q;
    int prev = 0;
    int64_t st = gchol_queue_enter(queue, &prev);
    if (st != GCHOL_SUCCESS) return st;
    gchol_trace_t *trace = opts ? opts->trace : NULL;
    f->dinfo = queue->dinfo;
    f->tracing = trace != NULL;
    st = factor(f, n, c0, opts);
    if (st == GCHOL_SUCCESS)
        st = gchol_from_cuda(cudaMemcpyAsync(queue->hinfo, queue->dinfo, sizeof(int64_t),
                                             cudaMemcpyDeviceToHost, queue->stream));
    cudaError_t e = cudaStreamSynchronize(queue->stream);
    if (st == GCHOL_SUCCESS) st = gchol_from_cuda(e);
    if (f->tracing) PFX(potrf_trace_finish)(f, trace, st == GCHOL_SUCCESS);
    if (st == GCHOL_SUCCESS) st = *queue->hinfo;
    gchol_queue_leave(prev);
    return st;
}

static int64_t potrf_sync(char uplo, int64_t n, FLOAT *dA, int64_t ldda,
                          const gchol_options_t *opts, const gchol_host_io_t *io,
                          gchol_queue_t queue)
{
    fact_t f = { .q = queue, .io = io };
    view_plain(&f, dA, ldda, gchol_uplo_is_upper(uplo));
    return factor_sync(&f, n, 0, opts);
}

/* gchol_dpotrf_blocks, gchol_spotrf_blocks: the left-looking driver on an
 * RFP array of order n whose blocks b describes (rfp_index.h:
 * gchol_rfp_blocks or the realigned layout), factoring the columns c0..n-1
 * of its lower view; those before c0 must be final. Synchronous; returns
 * 0, k > 0 (the global column of the first failed pivot) or a library
 * error. opts' variant is ignored (trace must be NULL); nb, recnb and
 * lookahead are used, resolved at n. */
int64_t PFX(potrf_blocks)(const gchol_rfp_blocks_t *blocks, int64_t n, FLOAT *dA, int64_t c0,
                          const gchol_options_t *opts, gchol_queue_t queue)
{
    const gchol_rfp_blocks_t b = *blocks;
    fact_t f = { .q = queue, .split = b.n1, .ld = b.ld };
    f.blk[B11] = (block_t){ dA + b.off11, b.t11 };
    f.blk[B21] = (block_t){ dA + b.off21, b.t21 };
    f.blk[B22] = (block_t){ dA + b.off22, b.t22 };
    f.rows_contig = b.t21 == b.t11 && f.blk[B21].base == at_in(&f, B11, b.n1, 0);
    f.cols_contig = b.t22 == b.t21 && f.blk[B22].base == at_in(&f, B21, b.n1, b.n1);
    gchol_options_t o;
    if (opts) o = *opts; else gchol_options_default(&o);
    o.variant = GCHOL_VARIANT_LEFT;
    o.trace = NULL;
    return factor_sync(&f, n, c0, &o);
}

/* -----------------------------------------------------------------------------
 * gchol_dpotrf_expert_gpu, gchol_spotrf_expert_gpu: Cholesky of a device
 * matrix, synchronous.
 *   uplo   (1) 'L': A = L L^T in the lower triangle; 'U': A = U^T U, upper.
 *   n      (2) order, n >= 0.
 *   dA     (3) device array, ldda x n; the other triangle's values are
 *              kept (opts->upper = GCHOL_UPPER_SWAP uses its storage during
 *              the call and restores it bit for bit).
 *   ldda   (4) >= max(1, n).
 *   info   (5) 0, -i for illegal argument i, k > 0 for a minor that is not
 *              positive definite, or a gchol_status_t (<= -100).
 *   opts   (6) NULL for defaults; variant, nb, recnb, lookahead, trace,
 *              upper.
 *   queue  (7) from gchol_queue_create*.
 * -------------------------------------------------------------------------- */
int64_t PFX(potrf_expert_gpu)(char uplo, int64_t n, FLOAT *dA, int64_t ldda, int64_t *info,
                              const gchol_options_t *opts, gchol_queue_t queue)
{
    int64_t st = check_args(uplo, n, dA, ldda, info, 1, opts, 1, queue);
    if (st == 0 && n == 0 && opts && opts->trace) opts->trace->count = 0;
    if (st == 0 && n > 0) st = potrf_sync(uplo, n, dA, ldda, opts, NULL, queue);
    if (info) *info = st;
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_dpotrf_gpu, gchol_spotrf_gpu: the same with default options.
 *   uplo (1), n (2), dA (3), ldda (4), info (5) as above, queue (6).
 * -------------------------------------------------------------------------- */
int64_t PFX(potrf_gpu)(char uplo, int64_t n, FLOAT *dA, int64_t ldda, int64_t *info,
                       gchol_queue_t queue)
{
    int64_t st = check_args(uplo, n, dA, ldda, info, 0, NULL, 0, queue);
    if (st == 0 && n > 0) st = potrf_sync(uplo, n, dA, ldda, NULL, NULL, queue);
    if (info) *info = st;
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_dpotrf_async, gchol_spotrf_async: enqueues the factorization on the
 * queue's stream and returns without synchronizing the host.
 *   uplo (1), n (2), dA (3), ldda (4) as in the expert form,
 *   dinfo (5) device int64_t: receives the LAPACK info (0 or k > 0) in
 *             stream order,
 *   opts (6) NULL for defaults; opts->trace must be NULL, queue (7).
 * Returns -i for an illegal argument (nothing enqueued, nothing touched), a
 * library error (<= -100), or 0.
 * -------------------------------------------------------------------------- */
int64_t PFX(potrf_async)(char uplo, int64_t n, FLOAT *dA, int64_t ldda, int64_t *dinfo,
                         const gchol_options_t *opts, gchol_queue_t queue)
{
    int64_t st = check_args(uplo, n, dA, ldda, dinfo, 1, opts, 0, queue);
    if (st != 0) return st;
    int prev = 0;
    if ((st = gchol_queue_enter(queue, &prev)) != GCHOL_SUCCESS) return st;
    if (n == 0) {
        st = gchol_from_cuda(cudaMemsetAsync(dinfo, 0, sizeof(int64_t), queue->stream));
    } else {
        fact_t f = { .q = queue, .dinfo = dinfo };
        view_plain(&f, dA, ldda, gchol_uplo_is_upper(uplo));
        st = factor(&f, n, 0, opts);
    }
    gchol_queue_leave(prev);
    return st;
}

/* gchol_dpotrf_io, gchol_spotrf_io: the synchronous factorization with the
 * host interface's transfers interleaved (potrf.h); arguments are checked
 * by the caller. */
int64_t PFX(potrf_io)(char uplo, int64_t n, FLOAT *dA, int64_t ldda, const gchol_options_t *opts,
                      const gchol_host_io_t *io, gchol_queue_t queue)
{
    return potrf_sync(uplo, n, dA, ldda, opts, io, queue);
}
