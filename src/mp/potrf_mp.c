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
 * 'U' is the same on the transposed grid: sub(A) stored upper on a
 * p x q grid is its transpose stored lower on the q x p grid, each local
 * block transposed (the ops take the flag). Panels move through host memory
 * on MPI. Compiled twice (prec.h).
 */
#include "mp.h"
#include "../prec.h"

#include <stdlib.h>
#include <string.h>

#if defined(GCHOL_PREC_D)
#define MPI_FLT MPI_DOUBLE
#else
#define MPI_FLT MPI_FLOAT
#endif

/* The lower view of sub(A) on this rank. */
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

static int64_t owner_row(const view_t *v, int64_t K) { return (v->srcr + v->b0r + K) % v->nprow; }
static int64_t owner_col(const view_t *v, int64_t K) { return (v->srcc + v->b0c + K) % v->npcol; }
static int64_t bsize(const view_t *v, int64_t K)
{
    const int64_t r = v->n - K * v->nb;
    return r < v->nb ? r : v->nb;
}
/* local row (column) offset of view block row (column) K on its owner */
static int64_t lrow(const view_t *v, int64_t K) { return (v->b0r + K) / v->nprow * v->nb; }
static int64_t lcol(const view_t *v, int64_t K) { return (v->b0c + K) / v->npcol * v->nb; }
/* the local view element (r, c): stored transposed for 'U' */
static FLOAT *at(const view_t *v, int64_t r, int64_t c)
{
    return v->trans ? v->A + c + r * v->lld : v->A + r + c * v->lld;
}
/* the grid rank (of all) of view process (pr, pc) */
static int root_of(const view_t *v, int64_t pr, int64_t pc)
{
    return (int)(v->trans ? pc * v->grid_npcol + pr : pr * v->grid_npcol + pc);
}
/* the first view block after K of view process row pr (or column), and the
 * rows from it to the end of sub(A) */
static int64_t first_after(int64_t K, int64_t pr, int64_t b0, int64_t src, int64_t np)
{
    const int64_t own = (src + b0 + K + 1) % np;
    return K + 1 + (pr - own + np) % np;
}
static int64_t rows_from(const view_t *v, int64_t K, int64_t np) /* owned blocks K, K+np, ... */
{
    int64_t rows = 0;
    for (int64_t I = K; I < v->nblk; I += np) rows += bsize(v, I);
    return rows;
}

#define MPI_TRY(call)                                              \
    do {                                                           \
        if ((call) != MPI_SUCCESS) { st = GCHOL_ERR_COMM; goto done; } \
    } while (0)
#define OPS_TRY(call)                                              \
    do {                                                           \
        if (st == GCHOL_SUCCESS) st = (call);                      \
    } while (0)

/* Every rank's status after a step: the most negative. */
static int64_t step_status(int64_t st, MPI_Comm all)
{
    int64_t worst = st;
    if (MPI_Allreduce(&st, &worst, 1, MPI_INT64_T, MPI_MIN, all) != MPI_SUCCESS)
        return GCHOL_ERR_COMM;
    return worst;
}

int64_t PFX(mp_potrf_ops)(const mp_ops_t *ops, char uplo, int64_t n, FLOAT *A, int64_t ia,
                          int64_t ja, const gchol_mp_desc_t *d, int64_t *info, gchol_mp_grid_t g)
{
    const int trans = uplo == 'U' || uplo == 'u';
    view_t v = { 0 };
    v.trans = trans;
    v.nprow = trans ? g->npcol : g->nprow;
    v.npcol = trans ? g->nprow : g->npcol;
    v.myrow = trans ? g->mycol : g->myrow;
    v.mycol = trans ? g->myrow : g->mycol;
    v.row = trans ? g->col : g->row;
    v.col = trans ? g->row : g->col;
    v.all = g->all;
    v.grid_npcol = g->npcol;
    v.n = n;
    v.nb = d->nb;
    v.nblk = (n + d->nb - 1) / d->nb;
    v.b0r = (trans ? ja - 1 : ia - 1) / d->nb;
    v.b0c = (trans ? ia - 1 : ja - 1) / d->nb;
    v.srcr = trans ? d->csrc : d->rsrc;
    v.srcc = trans ? d->rsrc : d->csrc;
    v.A = A;
    v.lld = d->lld;
    *info = 0;

    const int64_t nb = v.nb;
    /* the most rows (columns) of sub(A) any step leaves this rank */
    const int64_t maxr = rows_from(&v, first_after(-1, v.myrow, v.b0r, v.srcr, v.nprow), v.nprow);
    const int64_t maxc = rows_from(&v, first_after(-1, v.mycol, v.b0c, v.srcc, v.npcol), v.npcol);
    const size_t w = sizeof(FLOAT);
    FLOAT *Lkk = NULL, *Prow = NULL, *Pcol = NULL; /* local buffers */
    FLOAT *hL = malloc((size_t)(nb * nb) * w), *hP = malloc((size_t)((maxr + 1) * nb) * w);
    FLOAT *hC = malloc((size_t)((maxc + 1) * nb) * w), *hS = malloc((size_t)((maxr + 1) * nb) * w);
    int *counts = malloc((size_t)v.nprow * sizeof(int)), *displs = malloc((size_t)v.nprow * sizeof(int));
    int64_t st = hL && hP && hC && hS && counts && displs ? GCHOL_SUCCESS : GCHOL_ERR_HOST_ALLOC;
    OPS_TRY(ops->alloc(ops->ctx, (void **)&Lkk, (size_t)(nb * nb) * w));
    OPS_TRY(ops->alloc(ops->ctx, (void **)&Prow, (size_t)((maxr + 1) * nb) * w));
    OPS_TRY(ops->alloc(ops->ctx, (void **)&Pcol, (size_t)((maxc + 1) * nb) * w));
    if ((st = step_status(st, v.all)) != GCHOL_SUCCESS) goto done;

    for (int64_t K = 0; K < v.nblk; ++K) {
        const int64_t kb = bsize(&v, K), pr = owner_row(&v, K), pc = owner_col(&v, K);
        /* 1. the diagonal block; its info (or failure) to every rank */
        int64_t word[2] = { GCHOL_SUCCESS, 0 };
        if (v.myrow == pr && v.mycol == pc)
            word[0] = ops->potrf(ops->ctx, trans, kb, at(&v, lrow(&v, K), lcol(&v, K)), v.lld,
                                 &word[1]);
        MPI_TRY(MPI_Bcast(word, 2, MPI_INT64_T, root_of(&v, pr, pc), v.all));
        if (word[0] != GCHOL_SUCCESS) { st = word[0]; goto done; }
        if (word[1] != 0) { *info = K * nb + word[1]; break; }

        /* this rank's trailing rows: view blocks I0, I0 + nprow, ... */
        const int64_t I0 = first_after(K, v.myrow, v.b0r, v.srcr, v.nprow);
        const int64_t mt = rows_from(&v, I0, v.nprow);
        /* 2. L_KK down process column pc, its panel solved there, packed */
        if (v.mycol == pc) {
            if (v.myrow == pr) {
                OPS_TRY(ops->get(ops->ctx, trans, 1, kb, kb, at(&v, lrow(&v, K), lcol(&v, K)),
                                 v.lld, Lkk, kb));
                OPS_TRY(ops->to_host(ops->ctx, hL, Lkk, (size_t)(kb * kb) * w));
            }
            /* a failure stops the column here and every rank below */
            if ((st = step_status(st, v.col)) == GCHOL_SUCCESS)
                MPI_TRY(MPI_Bcast(hL, (int)(kb * kb), MPI_FLT, (int)pr, v.col));
            if (v.myrow != pr) OPS_TRY(ops->to_local(ops->ctx, Lkk, hL, (size_t)(kb * kb) * w));
            if (mt > 0) {
                FLOAT *panel = at(&v, lrow(&v, I0), lcol(&v, K));
                OPS_TRY(ops->trsm(ops->ctx, trans, mt, kb, Lkk, kb, panel, v.lld));
                OPS_TRY(ops->get(ops->ctx, trans, 0, mt, kb, panel, v.lld, Prow, mt));
                OPS_TRY(ops->to_host(ops->ctx, hP, Prow, (size_t)(mt * kb) * w));
            }
        }
        if ((st = step_status(st, v.all)) != GCHOL_SUCCESS) goto done;
        /* 3. the panel along each process row (mt is the row's own) */
        if (mt > 0) {
            MPI_TRY(MPI_Bcast(hP, (int)(mt * kb), MPI_FLT, (int)pc, v.row));
            if (v.mycol != pc) OPS_TRY(ops->to_local(ops->ctx, Prow, hP, (size_t)(mt * kb) * w));
        }
        /* 4. L_JK for this rank's trailing columns J, gathered along the
         * process column: process row p sends its blocks J with
         * owner_col(J) = mycol, rows of hP packed block by block */
        const int64_t J0 = first_after(K, v.mycol, v.b0c, v.srcc, v.npcol);
        const int64_t nt = rows_from(&v, J0, v.npcol);
        int64_t sent = 0, total = 0;
        for (int64_t p = 0; p < v.nprow; ++p) {
            int64_t c = 0;
            for (int64_t J = J0; J < v.nblk; J += v.npcol)
                if (owner_row(&v, J) == p) c += bsize(&v, J) * kb;
            counts[p] = (int)c;
            displs[p] = (int)total;
            total += c;
        }
        for (int64_t J = J0; J < v.nblk; J += v.npcol) {
            if (owner_row(&v, J) != v.myrow) continue;
            const int64_t bs = bsize(&v, J), off = (J - I0) / v.nprow * nb; /* J's rows in hP */
            for (int64_t c = 0; c < kb; ++c)
                memcpy(hS + sent + c * bs, hP + off + c * mt, (size_t)bs * w);
            sent += bs * kb;
        }
        FLOAT *hR = total > 0 ? malloc((size_t)total * w) : NULL;
        if (total > 0 && !hR) st = GCHOL_ERR_HOST_ALLOC;
        /* total is the process column's own: all of it gathers or none */
        if (total > 0 && (st = step_status(st, v.col)) == GCHOL_SUCCESS) {
            if (MPI_Allgatherv(hS, (int)sent, MPI_FLT, hR, counts, displs, MPI_FLT, v.col) !=
                MPI_SUCCESS) {
                free(hR);
                st = GCHOL_ERR_COMM;
                goto done;
            }
            /* hC: nt x kb, the blocks J in order; block J of process row p
             * follows p's earlier blocks in hR */
            int64_t row = 0; /* displs[p] now walks p's blocks */
            for (int64_t J = J0; J < v.nblk; J += v.npcol) {
                const int64_t p = owner_row(&v, J), bs = bsize(&v, J);
                for (int64_t c = 0; c < kb; ++c)
                    memcpy(hC + row + c * nt, hR + displs[p] + c * bs, (size_t)bs * w);
                displs[p] += (int)(bs * kb);
                row += bs;
            }
            OPS_TRY(ops->to_local(ops->ctx, Pcol, hC, (size_t)(nt * kb) * w));
        }
        free(hR);
        /* 5. the trailing update, one block column J at a time: rows I >= J */
        for (int64_t J = J0; J < v.nblk && mt > 0; J += v.npcol) {
            const int64_t bs = bsize(&v, J), ccol = (J - J0) / v.npcol * nb;
            const int64_t I = first_after(J - 1, v.myrow, v.b0r, v.srcr, v.nprow);
            if (I >= v.nblk) break;
            const int64_t prow_off = (I - I0) / v.nprow * nb, m = rows_from(&v, I, v.nprow);
            FLOAT *c = at(&v, lrow(&v, I), lcol(&v, J));
            if (I == J) {
                OPS_TRY(ops->syrk(ops->ctx, trans, bs, kb, Prow + prow_off, mt, c, v.lld));
                if (m > bs)
                    OPS_TRY(ops->gemm(ops->ctx, trans, m - bs, bs, kb, Prow + prow_off + bs, mt,
                                      Pcol + ccol, nt, at(&v, lrow(&v, I) + bs, lcol(&v, J)),
                                      v.lld));
            } else {
                OPS_TRY(ops->gemm(ops->ctx, trans, m, bs, kb, Prow + prow_off, mt, Pcol + ccol,
                                  nt, c, v.lld));
            }
        }
        if ((st = step_status(st, v.all)) != GCHOL_SUCCESS) goto done;
    }
done:
    if (Lkk) ops->free(ops->ctx, Lkk);
    if (Prow) ops->free(ops->ctx, Prow);
    if (Pcol) ops->free(ops->ctx, Pcol);
    free(hL); free(hP); free(hC); free(hS); free(counts); free(displs);
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
    return PFX(mp_potrf_ops)(&ops, uplo, n, dA, ia, ja, desca, info, grid);
}
