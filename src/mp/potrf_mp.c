/*
 * potrf_mp.c -- gchol_mp_?potrf_ops: the distributed Cholesky of sub(A) on
 * the lower view, right-looking by block columns of nb (= MB = NB). Step K:
 *
 *   the diagonal block's owner factors it;   its info goes to every rank
 *   L_KK down the owner's process column;    that column solves its panel
 *                                            blocks L_IK = A_IK L_KK^-T
 *   the panel along each process row;        every rank then has L_IK for
 *                                            its trailing rows I
 *   L_JK for each rank's trailing columns J  gathered along its process
 *                                            column from the rows' owners
 *   A_IJ -= L_IK L_JK^T on each rank's       syrk on owned diagonal blocks,
 *   trailing blocks, I >= J                  one gemm per block column
 *
 * with a lookahead of one: block column K + 1 is updated first and panel
 * K + 1 factored and solved before the rest of step K's update, so that on
 * the GPU (whose local operations queue up) the panel's broadcast along the
 * process rows (MPI) overlaps the trailing updates. With the direct
 * transport (NCCL) panel K + 1 also moves along the rows and columns during
 * the rest of step K's update, on the ops' side stream where they have one:
 * in order on one stream, its broadcast would wait for the root's whole
 * update and hold up the others'.
 *
 * On a 1 x 1 grid the rank's local part holds all of sub(A), column-major:
 * the ops' potrf factors it whole (on the GPU, gchol_?potrf_gpu).
 *
 * 'U' is the same on the transposed grid: sub(A) stored upper on a
 * p x q grid is its transpose stored lower on the q x p grid, each local
 * block transposed (the ops take the flag). Panels move through host memory
 * on MPI, or local memory to local memory by the ops' transport (NCCL).
 * Compiled twice (prec.h).
 */
#include "../prec.h"
#include "view.h"

#include <stdlib.h>
#include <string.h>

/* Steps 1-2 of block K, by the ranks of its process column only: the
 * diagonal block's owner factors it and sends its status and info down the
 * column (word); unless that failed, L_KK follows and the column solves its
 * panel blocks, packed into P (local, mt x kb) and w->hP. Returns the
 * column's status. */
static int64_t factor_panel(const mp_ops_t *ops, const view_t *v, mp_work_t *w, int64_t K,
                            FLOAT *P, int64_t word[2], int64_t st)
{
    const int trans = v->trans;
    const int64_t kb = bsize(v, K), pr = owner_row(v, K);
    const size_t e = sizeof(FLOAT);
    const int64_t I0 = first_after(K, v->myrow, v->b0r, v->srcr, v->nprow);
    const int64_t mt = rows_from(v, I0, v->nprow);
    word[0] = GCHOL_SUCCESS;
    word[1] = 0;
    if (v->myrow == pr && st == GCHOL_SUCCESS)
        word[0] = ops->potrf(ops->ctx, trans, kb, at(v, lrow(v, K), lcol(v, K)), v->lld, &word[1]);
    MPI_TRY(MPI_Bcast(word, 2, MPI_INT64_T, (int)pr, v->col));
    if (word[0] != GCHOL_SUCCESS || word[1] != 0) return st; /* the grid learns it next */
    const int direct = ops->bcast != NULL; /* local memory to local memory */
    if (v->myrow == pr) {
        OPS_TRY(ops->get(ops->ctx, trans, 1, kb, kb, at(v, lrow(v, K), lcol(v, K)), v->lld,
                         w->Lkk, kb));
        if (!direct) OPS_TRY(ops->to_host(ops->ctx, w->hL, w->Lkk, (size_t)(kb * kb) * e));
    }
    /* a failure stops the column here and every rank below */
    if ((st = gchol_mp_step_status(st, v->col)) == GCHOL_SUCCESS) {
        if (direct)
            st = ops->bcast(ops->ctx, !trans, w->Lkk, kb * kb, (int)pr);
        else
            MPI_TRY(MPI_Bcast(w->hL, (int)(kb * kb), MPI_FLT, (int)pr, v->col));
    }
    if (!direct && v->myrow != pr)
        OPS_TRY(ops->to_local(ops->ctx, w->Lkk, w->hL, (size_t)(kb * kb) * e));
    if (mt > 0) {
        FLOAT *panel = at(v, lrow(v, I0), lcol(v, K));
        OPS_TRY(ops->trsm(ops->ctx, trans, mt, kb, w->Lkk, kb, panel, v->lld));
        OPS_TRY(ops->get(ops->ctx, trans, 0, mt, kb, panel, v->lld, P, mt));
        if (!direct) OPS_TRY(ops->to_host(ops->ctx, w->hP, P, (size_t)(mt * kb) * e));
    }
done:
    return st;
}

/* Step K's update of this rank's block column J: A_IJ -= L_IK L_JK^T for
 * its rows I >= J (w->Prow: its trailing rows from I0, mt of them; w->Pcol:
 * its trailing columns from J0, nt of them). */
static int64_t update_column(const mp_ops_t *ops, const view_t *v, const mp_work_t *w,
                             int64_t K, int64_t J, int64_t I0, int64_t mt, int64_t J0, int64_t nt)
{
    const int trans = v->trans;
    const int64_t kb = bsize(v, K), nb = v->nb, bs = bsize(v, J), ccol = (J - J0) / v->npcol * nb;
    const int64_t I = first_after(J - 1, v->myrow, v->b0r, v->srcr, v->nprow);
    if (mt == 0 || I >= v->nblk) return GCHOL_SUCCESS;
    const int64_t prow_off = (I - I0) / v->nprow * nb, m = rows_from(v, I, v->nprow);
    FLOAT *c = at(v, lrow(v, I), lcol(v, J));
    int64_t st = GCHOL_SUCCESS;
    if (I == J) {
        OPS_TRY(ops->syrk(ops->ctx, trans, bs, kb, w->Prow + prow_off, mt, c, v->lld));
        if (m > bs)
            OPS_TRY(ops->gemm(ops->ctx, trans, m - bs, bs, kb, w->Prow + prow_off + bs, mt,
                              w->Pcol + ccol, nt, at(v, lrow(v, I) + bs, lcol(v, J)), v->lld));
    } else {
        OPS_TRY(ops->gemm(ops->ctx, trans, m, bs, kb, w->Prow + prow_off, mt, w->Pcol + ccol, nt,
                          c, v->lld));
    }
    return st;
}

/* With the direct transport: block K's status and info (word, from its
 * diagonal block's owner) to every rank, then, unless they stop the
 * factorization, panel K (by rows in P, from its process column) along the
 * process rows and its trailing columns' blocks along the process columns
 * into C (*nt rows), on the ops' side stream. Collective over the grid. */
static int64_t announce_and_move(const mp_ops_t *ops, const view_t *v, mp_work_t *w, int64_t K,
                                 FLOAT *P, FLOAT *C, int64_t word[2], int64_t *nt, int64_t st)
{
    const int64_t kb = bsize(v, K), pc = owner_col(v, K);
    const int64_t I0 = first_after(K, v->myrow, v->b0r, v->srcr, v->nprow);
    const int64_t mt = rows_from(v, I0, v->nprow);
    MPI_TRY(MPI_Bcast(word, 2, MPI_INT64_T, root_of(v, owner_row(v, K), pc), v->all));
    *nt = 0;
    if (ops->at_step) ops->at_step(ops->ctx, K * v->nb);
    if (word[0] != GCHOL_SUCCESS || word[1] != 0) return st; /* the next step stops */
    mp_work_t wk = *w;
    wk.Prow = P;
    wk.Pcol = C;
    if (ops->side) OPS_TRY(ops->side(ops->ctx, 1));
    st = PFX(mp_spread_panel)(ops, v, &wk, K, kb, pc, I0, mt, 1, nt, st);
    if (ops->side) { /* back on the main stream on every rank, then agreed */
        const int64_t back = ops->side(ops->ctx, 0);
        st = gchol_mp_step_status(st == GCHOL_SUCCESS ? back : st, v->all);
    }
done:
    return st;
}

int64_t PFX(mp_potrf_ops)(const mp_ops_t *ops, char uplo, int64_t n, FLOAT *A, int64_t ia,
                          int64_t ja, const gchol_mp_desc_t *d, int64_t *info, gchol_mp_grid_t g)
{
    view_t v;
    mp_work_t w;
    PFX(mp_view_init)(&v, uplo, n, A, ia, ja, d, g);
    *info = 0;
    /* one rank holds all of sub(A), column-major: the single-GPU engine */
    if (g->nprow == 1 && g->npcol == 1) {
        const int64_t st = ops->potrf(ops->ctx, v.trans, n, A + (ia - 1) + (ja - 1) * d->lld,
                                      d->lld, info);
        return st != GCHOL_SUCCESS ? st : ops->sync(ops->ctx);
    }
    int64_t st = PFX(mp_work_alloc)(ops, &v, &w);
    if (st != GCHOL_SUCCESS) goto done;

    /* the lookahead: panel K + 1 is factored and solved right after its own
     * block column's update by panel K, before the rest of that update, so
     * that its communication meets the local updates in flight */
    const int early = ops->bcast != NULL; /* panel K + 1 moved during step K */
    int64_t word[2] = { GCHOL_SUCCESS, 0 }, next[2] = { GCHOL_SUCCESS, 0 }, nt_next = 0;
    if (v.mycol == owner_col(&v, 0)) st = factor_panel(ops, &v, &w, 0, w.Prow, word, st);
    /* the side stream's start: the buffers allocated, panel 0 here */
    if (early && ops->mark) OPS_TRY(ops->mark(ops->ctx));
    if (early && (st = announce_and_move(ops, &v, &w, 0, w.Prow, w.Pcol, word, &nt_next, st)) !=
                     GCHOL_SUCCESS)
        goto done;
    for (int64_t K = 0; K < v.nblk; ++K) {
        const int64_t kb = bsize(&v, K), pc = owner_col(&v, K);
        if (ops->at_step) ops->at_step(ops->ctx, K * v.nb);
        /* 1. block K's status and info, from its diagonal block's owner */
        if (!early) MPI_TRY(MPI_Bcast(word, 2, MPI_INT64_T, root_of(&v, owner_row(&v, K), pc), v.all));
        if (word[0] != GCHOL_SUCCESS) { st = word[0]; goto done; }
        if (word[1] != 0) { *info = K * v.nb + word[1]; break; }
        /* 2. (done) 3-4. the panel along the process rows, then its trailing
         * columns' blocks along the process columns (moved during step K - 1
         * with the direct transport) */
        const int64_t I0 = first_after(K, v.myrow, v.b0r, v.srcr, v.nprow);
        const int64_t mt = rows_from(&v, I0, v.nprow);
        const int64_t J0 = first_after(K, v.mycol, v.b0c, v.srcc, v.npcol);
        int64_t nt = nt_next;
        if (early) {
            if (ops->wait_side) OPS_TRY(ops->wait_side(ops->ctx));
        } else if ((st = PFX(mp_spread_panel)(ops, &v, &w, K, kb, pc, I0, mt, 1, &nt, st)) !=
                   GCHOL_SUCCESS) {
            goto done;
        }
        /* 5. block column K + 1's update, then panel K + 1, then the rest */
        const int ahead = K + 1 < v.nblk && v.mycol == owner_col(&v, K + 1);
        if (ahead) {
            OPS_TRY(update_column(ops, &v, &w, K, K + 1, I0, mt, J0, nt));
            st = factor_panel(ops, &v, &w, K + 1, w.Pahead, next, st);
        }
        /* the side stream's start: panel K + 1 here, step K - 1's buffers free */
        if (early && ops->mark) OPS_TRY(ops->mark(ops->ctx));
        for (int64_t J = J0; J < v.nblk; J += v.npcol)
            if (J != K + 1) OPS_TRY(update_column(ops, &v, &w, K, J, I0, mt, J0, nt));
        if ((st = gchol_mp_step_status(st, v.all)) != GCHOL_SUCCESS) goto done;
        if (early && K + 1 < v.nblk) {
            if ((st = announce_and_move(ops, &v, &w, K + 1, w.Pahead, w.Pcol_ahead, next, &nt_next,
                                        st)) != GCHOL_SUCCESS)
                goto done;
            FLOAT *t = w.Pcol;
            w.Pcol = w.Pcol_ahead;
            w.Pcol_ahead = t;
        }
        if (ahead || (early && K + 1 < v.nblk)) {
            FLOAT *t = w.Prow;
            w.Prow = w.Pahead;
            w.Pahead = t;
            word[0] = next[0];
            word[1] = next[1];
        }
    }
    /* the last updates done before the caller reads A */
    st = gchol_mp_step_status(ops->sync(ops->ctx), v.all);
done:
    /* a failed step may leave updates queued: none outlives the call (with the
     * direct transport the caller first aborts it, whose peers may be gone) */
    if (st != GCHOL_SUCCESS && !ops->bcast) (void)ops->sync(ops->ctx);
    PFX(mp_work_free)(ops, &w);
    return st;
}

#if defined(GCHOL_PREC_D)
#define MP_POTRF gchol_mp_dpotrf
#else
#define MP_POTRF gchol_mp_spotrf
#endif

int64_t MP_POTRF(char uplo, int64_t n, FLOAT *dA, int64_t ia, int64_t ja,
                 const gchol_mp_desc_t *desca, int64_t *info, gchol_mp_grid_t grid)
{
    if (!grid) return -8;
    int64_t st = gchol_mp_check_potrf(uplo, n, dA, ia, ja, desca, info, grid);
    if ((st = gchol_mp_agree(st, grid)) != GCHOL_SUCCESS) return st;
    *info = 0;
    if (n == 0) return GCHOL_SUCCESS;
    mp_ops_t ops;
    if ((st = gchol_mp_agree(PFX(mp_gpu_ops)(grid, &ops), grid)) != GCHOL_SUCCESS) return st;
    (void)gchol_mp_trace_start(grid);
    st = PFX(mp_potrf_ops)(&ops, uplo, n, dA, ia, ja, desca, info, grid);
    if (st != GCHOL_SUCCESS) mp_ops_abandon(grid, &ops);
    gchol_mp_trace_finish(grid, st == GCHOL_SUCCESS);
    return st;
}
