/*
 * pftrf.c -- Cholesky factorization in RFP storage (LAPACK ?pftrf) on the GPU:
 * gchol_?pftrf_expert_gpu, gchol_?pftrf_gpu (device array) and gchol_?pftrf
 * (host array).
 * Precision-generic (see prec.h).
 *
 * An RFP array is two triangles and a rectangle, each an ordinary
 * column-major block with one leading dimension (rfp_index.h). With
 *   A = [A11 A21^T; A21 A22],  L11 = chol(A11),  L21 = A21 L11^{-T},
 *   L22 = chol(A22 - L21 L21^T),
 * the factorization is LAPACK dpftrf's algorithm in two forms:
 *
 * - fused (large n): gchol's left-looking driver, lookahead included, runs
 *   across the RFP blocks (potrf_driver.c, gchol_?potrf_blocks): the bulk
 *   gemms of every block column keep the GPU busy while the panels factor
 *   beside them, over the whole matrix instead of two half-size potrf with
 *   a trsm and a syrk between them. For uplo = 'L', [L11; L21] is one
 *   strided block, so one call factors every column. For 'U', L21 is
 *   stored apart from L11 (transposed against it), so L11 is factored by
 *   potrf and L21 solved by a recursive trsm first; one call then factors
 *   the columns of L22, folding A22 -= L21 L21^T into its updates.
 * - four steps (small n, below the tuning table's io_tiled_below):
 *   potrf on L11, a recursive (gemm-rich) trsm for L21, a recursive syrk
 *   on A22, potrf on L22 (trsm_rec.c, syrk_rec.c), each with the flags that
 *   match how its block is stored.
 */
#include "prec.h"

#include "args.h"
#include "blas_ext.h"
#include "host_io.h"
#include "options_ext.h"
#include "potrf.h"
#include "queue.h"
#include "status.h"

#include "tune/tune.h"

#include "../kernels/gchol_kernels.h"
#include "../kernels/rfp_index.h"

/* L21 := A21 L11^{-T}, or its transpose M := L11^{-1} M. With L11 kept as
 * its transpose (upper), the transpose flag flips. */
static int64_t solve_l21(const gchol_rfp_blocks_t *b, FLOAT *dA, gchol_queue_t queue)
{
    const FLOAT *A11 = dA + b->off11;
    FLOAT *A21 = dA + b->off21;
    const cublasFillMode_t fill11 = b->t11 ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    if (!b->t21)
        return PFX(trsm_rec)(queue->blas, CUBLAS_SIDE_RIGHT, fill11,
                             b->t11 ? CUBLAS_OP_N : CUBLAS_OP_T, b->n1, b->n2, A11, b->ld, A21,
                             b->ld);
    return PFX(trsm_rec)(queue->blas, CUBLAS_SIDE_LEFT, fill11, b->t11 ? CUBLAS_OP_T : CUBLAS_OP_N,
                         b->n1, b->n2, A11, b->ld, A21, b->ld);
}

/* Whether pftrf takes the fused form (n2: the second block's order). */
static int fused_form(const gchol_options_t *o, const gchol_tune_t *t, int64_t n, int64_t n2)
{
    return n2 > 0 && (o->variant == GCHOL_VARIANT_LEFT ||
                      (o->variant == GCHOL_VARIANT_AUTO &&
                       n >= gchol_left_auto_from_tuned(t, PREC_CHAR)));
}

/* opts: variant auto takes the fused form from the tuning table's
 * io_tiled_below (the four steps around two half-size potrf are slower
 * there), left forces it (with the options' nb, recnb and lookahead), right or
 * tiled force the four steps, whose two potrf then run with these options.
 * pb: the blocks of dA (as stored, or realigned); opts: not NULL. The queue
 * is entered. */
static int64_t pftrf_blocks(const gchol_rfp_blocks_t *pb, int upper, int64_t n, FLOAT *dA,
                            const gchol_options_t *opts, gchol_queue_t queue)
{
    const gchol_rfp_blocks_t b = *pb;
    FLOAT *A11 = dA + b.off11, *A21 = dA + b.off21, *A22 = dA + b.off22;
    int64_t st = GCHOL_SUCCESS, info = 0;
    gchol_options_t o = *opts;
    const int fused = fused_form(&o, queue->tune, n, b.n2);

    if (fused && !upper) return PFX(potrf_blocks)(&b, n, dA, 0, &o, queue);
    /* L11: potrf of the block's stored triangle. */
    st = PFX(potrf_expert_gpu)(b.t11 ? 'U' : 'L', b.n1, A11, b.ld, &info, &o, queue);
    if (st != GCHOL_SUCCESS || b.n2 == 0) return st;
    GCHOL_TRY(solve_l21(&b, dA, queue));
    if (fused) return PFX(potrf_blocks)(&b, n, dA, b.n1, &o, queue);
    /* A22 -= L21 L21^T on the triangle A22 is stored in. */
    GCHOL_TRY(PFX(syrk_rec)(queue->blas, b.t22 ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER,
                            b.t21 ? CUBLAS_OP_T : CUBLAS_OP_N, b.n2, b.n1, -1, A21, b.ld, 1, A22,
                            b.ld));

    /* L22; a failing minor of A22 is minor n1 + k of A. */
    st = PFX(potrf_expert_gpu)(b.t22 ? 'U' : 'L', b.n2, A22, b.ld, &info, &o, queue);
    if (st > 0) st += b.n1;
done:
    return st;
}

/* transr = 'N' with even n runs on the realigned layout (rfp_index.h): its
 * leading dimension n is even where the stored one, n + 1, is odd. Only in
 * the fused form, from the tuning table's rfp_realign_from: the four steps
 * below it lose to the rotations' launches (3-9% at 1024-4096). */
static int realign_wanted(int transposed, int64_t n, const gchol_options_t *o,
                          const gchol_tune_t *t)
{
    return !transposed && n % 2 == 0 && n >= gchol_tune_prec(t, PREC_CHAR)->rfp_realign_from &&
           fused_form(o, t, n, n / 2);
}

static int64_t pftrf_run(int transposed, int upper, int64_t n, FLOAT *dA,
                         const gchol_options_t *opts, gchol_queue_t queue)
{
    int prev = 0;
    gchol_options_t o;
    if (opts) o = *opts; else gchol_options_default(&o);
    int64_t st = gchol_queue_enter(queue, &prev);
    if (st != GCHOL_SUCCESS) return st;
    if (!realign_wanted(transposed, n, &o, queue->tune)) {
        const gchol_rfp_blocks_t b = gchol_rfp_blocks(transposed, upper, n);
        st = pftrf_blocks(&b, upper, n, dA, &o, queue);
    } else {
        /* Rotate each of the n/2 columns (n + 1 long) into the realigned
         * layout, factor there, and rotate back: also after a failed pivot,
         * so that the array holds LAPACK's partial factor in RFP. */
        const int64_t len = n + 1, s0 = gchol_rfp_realign_shift(upper, n, 0);
        const gchol_rfp_blocks_t b = gchol_rfp_blocks_realigned(upper, n);
        st = gchol_from_cuda(
            ROTATE_COLUMNS_LAUNCH(dA, len, n / 2, s0, 1, GCHOL_ROTATE_AUTO, queue->stream));
        if (st == GCHOL_SUCCESS) {
            st = pftrf_blocks(&b, upper, n, dA, &o, queue);
            int64_t st_back = gchol_from_cuda(
                ROTATE_COLUMNS_LAUNCH(dA, len, n / 2, len - s0, -1, GCHOL_ROTATE_AUTO,
                                      queue->stream));
            if (st_back == GCHOL_SUCCESS)
                st_back = gchol_from_cuda(cudaStreamSynchronize(queue->stream));
            if (st_back != GCHOL_SUCCESS && st >= 0) st = st_back;
        }
    }
    gchol_queue_leave(prev);
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_?pftrf_expert_gpu: Cholesky of a device RFP matrix, synchronous.
 *   transr (1) 'N'/'T', uplo (2) 'L'/'U', n (3) >= 0,
 *   dA (4) device RFP array, n(n+1)/2 elements, overwritten by the factor,
 *   info (5) 0, -i, k > 0 (leading minor k not positive definite, NaN
 *   included; as LAPACK's ?pftrf) or a library error (<= -100),
 *   opts (6) NULL for defaults; variant (see pftrf_blocks), nb, recnb,
 *   lookahead, upper (the half-size potrf of a block stored as 'U'; a
 *   swap restores the other block of its square bit for bit); trace must
 *   be NULL, queue (7).
 * -------------------------------------------------------------------------- */
/* gchol_dpftrf_expert_gpu, gchol_spftrf_expert_gpu */
int64_t PFX(pftrf_expert_gpu)(char transr, char uplo, int64_t n, FLOAT *dA, int64_t *info,
                              const gchol_options_t *opts, gchol_queue_t queue)
{
    int64_t st = 0;
    if (!gchol_transr_valid(transr)) st = -1;
    else if (!gchol_uplo_valid(uplo)) st = -2;
    else if (n < 0) st = -3;
    else if (n > 0 && dA == NULL) st = -4;
    else if (info == NULL) st = -5;
    else if (!gchol_options_valid(opts) || (opts && opts->trace)) st = -6;
    else if (queue == NULL) st = -7;
    if (st == 0 && n > 0)
        st = pftrf_run(gchol_transr_is_trans(transr), gchol_uplo_is_upper(uplo), n, dA, opts,
                       queue);
    if (info) *info = st;
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_?pftrf_gpu: Cholesky of a device RFP matrix, synchronous.
 *   transr (1) 'N'/'T', uplo (2) 'L'/'U', n (3) >= 0,
 *   dA (4) device RFP array, n(n+1)/2 elements, overwritten by the factor,
 *   info (5) 0, -i, k > 0 (leading minor k not positive definite, NaN
 *   included; as LAPACK's ?pftrf) or a library error (<= -100), queue (6).
 * -------------------------------------------------------------------------- */
/* gchol_dpftrf_gpu, gchol_spftrf_gpu */
int64_t PFX(pftrf_gpu)(char transr, char uplo, int64_t n, FLOAT *dA, int64_t *info,
                       gchol_queue_t queue)
{
    /* the expert form with default options; its queue is argument 7 */
    int64_t st = PFX(pftrf_expert_gpu)(transr, uplo, n, dA, info, NULL, queue);
    if (st == -7) st = -6;
    if (info) *info = st;
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_?pftrf: the same on a host RFP array, on the library-owned queue. The
 * array goes up, is factored, and comes back (also when info > 0: it then
 * holds LAPACK's partial factor).
 *   transr (1), uplo (2), n (3), A (4) host, n(n+1)/2 elements, info (5).
 * -------------------------------------------------------------------------- */
/* gchol_dpftrf, gchol_spftrf */
int64_t PFX(pftrf)(char transr, char uplo, int64_t n, FLOAT *A, int64_t *info)
{
    int64_t st = 0;
    if (!gchol_transr_valid(transr)) st = -1;
    else if (!gchol_uplo_valid(uplo)) st = -2;
    else if (n < 0) st = -3;
    else if (n > 0 && A == NULL) st = -4;
    else if (info == NULL) st = -5;
    if (st != 0 || n == 0) {
        if (info) *info = st;
        return st;
    }
    gchol_queue_t q = NULL;
    const size_t bytes = (size_t)n * (size_t)(n + 1) / 2 * sizeof(FLOAT);
    int prev = 0;
    st = gchol_default_queue_acquire(&q);
    if (st == GCHOL_SUCCESS && (st = gchol_queue_enter(q, &prev)) == GCHOL_SUCCESS) {
        st = gchol_queue_reserve_device(q, bytes);
        FLOAT *dA = q->dwork;
        gchol_stage_t *stager = gchol_queue_stager(q, A);
        if (st == GCHOL_SUCCESS)
            st = gchol_from_cuda(gchol_copy_2d(stager, cudaMemcpyHostToDevice, dA, bytes, A, bytes, bytes, 1, q->stream));
        if (st == GCHOL_SUCCESS) {
            int64_t finfo = 0;
            st = PFX(pftrf_gpu)(transr, uplo, n, dA, &finfo, q);
            if (st >= 0) {
                gchol_host_inout_written = 1;
                int64_t st_copy = gchol_from_cuda(
                    gchol_copy_2d(stager, cudaMemcpyDeviceToHost, A, bytes, dA, bytes, bytes, 1, q->stream));
                if (st_copy == GCHOL_SUCCESS)
                    st_copy = gchol_from_cuda(cudaStreamSynchronize(q->stream));
                if (st_copy != GCHOL_SUCCESS) st = st_copy;
            }
        }
        gchol_queue_leave(prev);
    }
    gchol_default_queue_release();
    *info = st;
    return st;
}
