/*
 * panel_mp.c -- what the distributed drivers share (view.h): the view of
 * sub(A), the buffers, and moving a panel along the process rows and
 * columns. Compiled twice (prec.h).
 */
#include "../prec.h"
#include "view.h"

#include <stdlib.h>
#include <string.h>

void PFX(mp_view_init)(view_t *v, char uplo, int64_t n, FLOAT *A, int64_t ia, int64_t ja,
                       const gchol_mp_desc_t *d, gchol_mp_grid_t g)
{
    const int trans = uplo == 'U' || uplo == 'u';
    memset(v, 0, sizeof *v);
    v->trans = trans;
    v->nprow = trans ? g->npcol : g->nprow;
    v->npcol = trans ? g->nprow : g->npcol;
    v->myrow = trans ? g->mycol : g->myrow;
    v->mycol = trans ? g->myrow : g->mycol;
    v->row = trans ? g->col : g->row;
    v->col = trans ? g->row : g->col;
    v->all = g->all;
    v->grid_npcol = g->npcol;
    v->n = n;
    v->nb = d->nb;
    v->nblk = (n + d->nb - 1) / d->nb;
    v->b0r = (trans ? ja - 1 : ia - 1) / d->nb;
    v->b0c = (trans ? ia - 1 : ja - 1) / d->nb;
    v->srcr = trans ? d->csrc : d->rsrc;
    v->srcc = trans ? d->rsrc : d->csrc;
    v->A = A;
    v->lld = d->lld;
}

#if defined(GCHOL_PREC_D)
int64_t gchol_mp_step_status(int64_t st, MPI_Comm comm)
{
    int64_t worst = st;
    if (MPI_Allreduce(&st, &worst, 1, MPI_INT64_T, MPI_MIN, comm) != MPI_SUCCESS)
        return GCHOL_ERR_COMM;
    return worst;
}
#endif

int64_t PFX(mp_work_alloc)(const mp_ops_t *ops, const view_t *v, mp_work_t *w)
{
    const int64_t nb = v->nb;
    const size_t e = sizeof(FLOAT);
    memset(w, 0, sizeof *w);
    w->maxr = rows_from(v, first_after(-1, v->myrow, v->b0r, v->srcr, v->nprow), v->nprow);
    w->maxc = rows_from(v, first_after(-1, v->mycol, v->b0c, v->srcc, v->npcol), v->npcol);
    const size_t lbytes = (size_t)(nb * nb) * e, rbytes = (size_t)((w->maxr + 1) * nb) * e,
                 cbytes = (size_t)((w->maxc + 1) * nb) * e;
    const int staged = !ops->bcast; /* panels through host memory */
    if (staged) {
        w->hL = calloc(1, lbytes);
        w->hP = malloc(rbytes);
        w->hC = malloc(cbytes);
        w->hS = malloc(rbytes);
    }
    w->counts = malloc((size_t)v->nprow * sizeof(int));
    w->displs = malloc((size_t)v->nprow * sizeof(int));
    int64_t st = (!staged || (w->hL && w->hP && w->hC && w->hS)) && w->counts && w->displs
                     ? GCHOL_SUCCESS : GCHOL_ERR_HOST_ALLOC;
    OPS_TRY(ops->alloc(ops->ctx, (void **)&w->Lkk, lbytes));
    OPS_TRY(ops->alloc(ops->ctx, (void **)&w->Prow, rbytes));
    OPS_TRY(ops->alloc(ops->ctx, (void **)&w->Pahead, rbytes));
    OPS_TRY(ops->alloc(ops->ctx, (void **)&w->Pcol, cbytes));
    if (ops->bcast) { /* the gather's buffers, and the next panel's columns: local */
        OPS_TRY(ops->alloc(ops->ctx, (void **)&w->dS, rbytes));
        OPS_TRY(ops->alloc(ops->ctx, (void **)&w->dR, cbytes));
        OPS_TRY(ops->alloc(ops->ctx, (void **)&w->Pcol_ahead, cbytes));
    }
    return gchol_mp_step_status(st, v->all);
}

void PFX(mp_work_free)(const mp_ops_t *ops, mp_work_t *w)
{
    if (ops->wait_side) (void)ops->wait_side(ops->ctx); /* the frees after the side's work */
    if (w->Lkk) ops->free(ops->ctx, w->Lkk);
    if (w->Prow) ops->free(ops->ctx, w->Prow);
    if (w->Pahead) ops->free(ops->ctx, w->Pahead);
    if (w->dS) ops->free(ops->ctx, w->dS);
    if (w->dR) ops->free(ops->ctx, w->dR);
    if (w->Pcol) ops->free(ops->ctx, w->Pcol);
    if (w->Pcol_ahead) ops->free(ops->ctx, w->Pcol_ahead);
    free(w->hL); free(w->hP); free(w->hC); free(w->hS); free(w->counts); free(w->displs);
    memset(w, 0, sizeof *w);
}

int64_t PFX(mp_spread_panel)(const mp_ops_t *ops, const view_t *v, mp_work_t *w, int64_t K,
                             int64_t kb, int64_t pc, int64_t I0, int64_t mt, int cols,
                             int64_t *nt, int64_t st)
{
    const size_t e = sizeof(FLOAT);
    const int64_t nb = v->nb;
    FLOAT *hR = NULL;
    *nt = 0;
    if ((st = gchol_mp_step_status(st, v->all)) != GCHOL_SUCCESS) return st;
    const int direct = ops->bcast != NULL; /* local memory to local memory */
    /* along each process row (mt is the row's own) */
    if (mt > 0 && direct) {
        st = ops->bcast(ops->ctx, v->trans, w->Prow, mt * kb, (int)pc);
    } else if (mt > 0) {
        MPI_TRY(MPI_Bcast(w->hP, (int)(mt * kb), MPI_FLT, (int)pc, v->row));
        if (v->mycol != pc) OPS_TRY(ops->to_local(ops->ctx, w->Prow, w->hP, (size_t)(mt * kb) * e));
    }
    if (!cols) goto done;
    /* L_JK for this rank's trailing columns J, gathered along the process
     * column: process row p sends its blocks J with owner_col(J) = mycol,
     * rows of hP packed block by block */
    const int64_t J0 = first_after(K, v->mycol, v->b0c, v->srcc, v->npcol);
    *nt = rows_from(v, J0, v->npcol);
    int64_t sent = 0, total = 0;
    for (int64_t p = 0; p < v->nprow; ++p) {
        int64_t c = 0;
        for (int64_t J = J0; J < v->nblk; J += v->npcol)
            if (owner_row(v, J) == p) c += bsize(v, J) * kb;
        w->counts[p] = (int)c;
        w->displs[p] = (int)total;
        total += c;
    }
    for (int64_t J = J0; J < v->nblk; J += v->npcol) {
        if (owner_row(v, J) != v->myrow) continue;
        const int64_t bs = bsize(v, J), off = (J - I0) / v->nprow * nb; /* J's rows in hP */
        if (direct)
            OPS_TRY(ops->copy2d(ops->ctx, w->dS + sent, bs, w->Prow + off, mt, bs, kb));
        else
            for (int64_t c = 0; c < kb; ++c)
                memcpy(w->hS + sent + c * bs, w->hP + off + c * mt, (size_t)bs * e);
        sent += bs * kb;
    }
    if (direct) { /* the same gather, local memory to local memory */
        if (total > 0 && (st = gchol_mp_step_status(st, v->col)) == GCHOL_SUCCESS)
            st = ops->gatherv(ops->ctx, !v->trans, w->dS, w->dR, w->counts, w->displs);
        int64_t row = 0;
        for (int64_t J = J0; J < v->nblk && total > 0; J += v->npcol) {
            const int64_t p = owner_row(v, J), bs = bsize(v, J);
            OPS_TRY(ops->copy2d(ops->ctx, w->Pcol + row, *nt, w->dR + w->displs[p], bs, bs, kb));
            w->displs[p] += (int)(bs * kb);
            row += bs;
        }
        goto done;
    }
    hR = total > 0 ? malloc((size_t)total * e) : NULL;
    if (total > 0 && !hR) st = GCHOL_ERR_HOST_ALLOC;
    /* total is the process column's own: all of it gathers or none */
    if (total > 0 && (st = gchol_mp_step_status(st, v->col)) == GCHOL_SUCCESS) {
        MPI_TRY(MPI_Allgatherv(w->hS, (int)sent, MPI_FLT, hR, w->counts, w->displs, MPI_FLT,
                               v->col));
        /* hC: nt x kb, the blocks J in order; displs[p] walks p's blocks */
        int64_t row = 0;
        for (int64_t J = J0; J < v->nblk; J += v->npcol) {
            const int64_t p = owner_row(v, J), bs = bsize(v, J);
            for (int64_t c = 0; c < kb; ++c)
                memcpy(w->hC + row + c * *nt, hR + w->displs[p] + c * bs, (size_t)bs * e);
            w->displs[p] += (int)(bs * kb);
            row += bs;
        }
        OPS_TRY(ops->to_local(ops->ctx, w->Pcol, w->hC, (size_t)(*nt * kb) * e));
    }
done:
    free(hR);
    return gchol_mp_step_status(st, v->all);
}
