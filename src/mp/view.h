/*
 * view.h -- the distributed drivers' lower view of sub(A) on one rank, and
 * the panel movement they share (panel_mp.c). Included by the generic
 * drivers after prec.h.
 *
 * 'U' stored on a p x q grid is its transpose stored lower on the q x p
 * grid, each local block transposed: the view swaps the grid's rows and
 * columns for 'U', and the local operations take the flag.
 */
#ifndef GCHOL_SRC_MP_VIEW_H
#define GCHOL_SRC_MP_VIEW_H

#include "mp.h"

#include <stdint.h>

#if defined(GCHOL_PREC_D)
#define MPI_FLT MPI_DOUBLE
#else
#define MPI_FLT MPI_FLOAT
#endif

typedef struct {
    int64_t nprow, npcol, myrow, mycol; /* the view's grid                     */
    MPI_Comm row, col, all;             /* row: rank = view column, col: rank =
                                           view row; all: the grid's own      */
    int64_t grid_npcol;                 /* the stored grid's, for ranks of all */
    int trans;
    int64_t n, nb, nblk;
    int64_t b0r, b0c;   /* global block row / column of sub(A)'s first block */
    int64_t srcr, srcc; /* the process row / column of global block 0        */
    FLOAT *A;
    int64_t lld;
} view_t;

static inline int64_t owner_row(const view_t *v, int64_t K) { return (v->srcr + v->b0r + K) % v->nprow; }
static inline int64_t owner_col(const view_t *v, int64_t K) { return (v->srcc + v->b0c + K) % v->npcol; }
static inline int64_t bsize(const view_t *v, int64_t K)
{
    const int64_t r = v->n - K * v->nb;
    return r < v->nb ? r : v->nb;
}
/* local row (column) offset of view block row (column) K on its owner */
static inline int64_t lrow(const view_t *v, int64_t K) { return (v->b0r + K) / v->nprow * v->nb; }
static inline int64_t lcol(const view_t *v, int64_t K) { return (v->b0c + K) / v->npcol * v->nb; }
/* the local view element (r, c): stored transposed for 'U' */
static inline FLOAT *at(const view_t *v, int64_t r, int64_t c)
{
    return v->trans ? v->A + c + r * v->lld : v->A + r + c * v->lld;
}
/* the grid rank (of all) of view process (pr, pc) */
static inline int root_of(const view_t *v, int64_t pr, int64_t pc)
{
    return (int)(v->trans ? pc * v->grid_npcol + pr : pr * v->grid_npcol + pc);
}
/* the first view block after K of process row (column) pr of np */
static inline int64_t first_after(int64_t K, int64_t pr, int64_t b0, int64_t src, int64_t np)
{
    const int64_t own = (src + b0 + K + 1) % np;
    return K + 1 + (pr - own + np) % np;
}
/* the rows of blocks K, K + np, ... of sub(A) */
static inline int64_t rows_from(const view_t *v, int64_t K, int64_t np)
{
    int64_t rows = 0;
    for (int64_t I = K; I < v->nblk; I += np) rows += bsize(v, I);
    return rows;
}

#define MPI_TRY(call)                                                    \
    do {                                                                 \
        if ((call) != MPI_SUCCESS) { st = GCHOL_ERR_COMM; goto done; }   \
    } while (0)
#define OPS_TRY(call)                                                    \
    do {                                                                 \
        if (st == GCHOL_SUCCESS) st = (call);                            \
    } while (0)

/* The buffers of a driver: local (ops memory) and host staging. */
typedef struct {
    FLOAT *Lkk, *Prow, *Pcol;       /* local: L_KK, the panel by rows, by columns */
    FLOAT *Pahead, *Pcol_ahead;     /* local: the next panel by rows (lookahead),
                                       and by columns (the direct transport's) */
    FLOAT *dS, *dR;                 /* local: the gather's sends and receipts    */
    FLOAT *hL, *hP, *hC, *hS;       /* host: their staging, hS the gather's sends */
    int *counts, *displs;
    int64_t maxr, maxc;             /* the most trailing rows / columns here     */
} mp_work_t;

/* The view of sub(A) = A(ia.., ja..) for uplo on grid g. */
void PFX(mp_view_init)(view_t *v, char uplo, int64_t n, FLOAT *A, int64_t ia, int64_t ja,
                       const gchol_mp_desc_t *d, gchol_mp_grid_t g);
/* The buffers (0, or the status agreed over the grid), and their release. */
int64_t PFX(mp_work_alloc)(const mp_ops_t *ops, const view_t *v, mp_work_t *w);
void PFX(mp_work_free)(const mp_ops_t *ops, mp_work_t *w);

/*
 * Panel K (view blocks (I, K), I > K) from view process column pc, where
 * each rank holds its rows I0, I0 + nprow, ... (mt rows) packed in w->hP
 * (host) and w->Prow (local): along every process row, so that every rank
 * has L_IK for its trailing view rows (w->Prow, mt x kb); then, with cols,
 * gathered along every process column, so that every rank has L_JK for its
 * trailing view columns J (w->Pcol, *nt x kb, the blocks in order).
 * Collective over the grid; returns the status agreed over it.
 */
int64_t PFX(mp_spread_panel)(const mp_ops_t *ops, const view_t *v, mp_work_t *w, int64_t K,
                             int64_t kb, int64_t pc, int64_t I0, int64_t mt, int cols,
                             int64_t *nt, int64_t st);

#endif
