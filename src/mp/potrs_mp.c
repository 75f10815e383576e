/*
 * potrs_mp.c -- gchol_mp_?potrs: A X = B with A's distributed Cholesky
 * factor (gchol_mp_?potrf), B block-cyclic with A's row blocks (as
 * ScaLAPACK's p?potrs asks), by block rows of nb:
 *
 *   forward, K = 0, 1, ...   L_KK along B_K's process row, which solves
 *                            B_K := L_KK^-1 B_K; B_K down every process
 *                            column; the panel L_IK (I > K) to the ranks of
 *                            B's rows I, which update B_I -= L_IK B_K
 *   backward, K = last ...   the panel again; each rank's share of
 *                            sum_I L_IK^T B_I summed up its process column
 *                            to B_K's row, which subtracts it and solves
 *                            B_K := L_KK^-T B_K
 *
 * The panel moves as in potrf (view.h): for 'L' along the process rows, for
 * 'U' (the view's rows are the grid's columns) along the rows of the view
 * and then gathered along its columns, the grid's rows. Compiled twice.
 */
#include "../prec.h"
#include "view.h"

#include <stdlib.h>
#include <string.h>

int64_t PFX(mp_potrs_ops)(const mp_ops_t *ops_in, char uplo, int64_t n, int64_t nrhs,
                          const FLOAT *A, int64_t ia, int64_t ja, const gchol_mp_desc_t *da,
                          FLOAT *B, int64_t ib, int64_t jb, const gchol_mp_desc_t *db,
                          gchol_mp_grid_t g)
{
    view_t v;
    mp_work_t w;
    mp_ops_t own = *ops_in; /* its blocks move by MPI through host memory */
    own.bcast = NULL, own.gatherv = NULL, own.copy2d = NULL;
    const mp_ops_t *ops = &own;
    /* one rank holds all of sub(A) and sub(B): the two solves in place */
    if (g->nprow == 1 && g->npcol == 1) {
        const int t = uplo == 'U' || uplo == 'u';
        const FLOAT *L = A + (ia - 1) + (ja - 1) * da->lld;
        FLOAT *X = B + (ib - 1) + (jb - 1) * db->lld;
        int64_t st = ops->trsm_b(ops->ctx, t, 0, n, nrhs, L, da->lld, X, db->lld);
        if (st == GCHOL_SUCCESS) st = ops->trsm_b(ops->ctx, t, 1, n, nrhs, L, da->lld, X, db->lld);
        return st != GCHOL_SUCCESS ? st : ops->sync(ops->ctx);
    }
    PFX(mp_view_init)(&v, uplo, n, (FLOAT *)A, ia, ja, da, g);
    const int trans = v.trans;
    const int64_t nb = v.nb, e = sizeof(FLOAT);
    /* B's row block K on process row (rsrc_A + I0 + K) % nprow, local rows
     * from lrowb(K); this rank's columns of sub(B): c0 .. c0 + nloc - 1 */
    const int64_t I0a = (ia - 1) / nb, I0b = (ib - 1) / db->mb;
    const int64_t c0 = gchol_mp_numroc(jb - 1, db->nb, g->mycol, db->csrc, g->npcol);
    const int64_t nloc = gchol_mp_numroc(jb + nrhs - 1, db->nb, g->mycol, db->csrc, g->npcol) - c0;
#define BROW(K) ((da->rsrc + I0a + (K)) % g->nprow)
#define LROWB(K) ((I0b + (K)) / g->nprow * nb)
    FLOAT *Y = NULL, *hY = malloc((size_t)(nb * (nloc > 0 ? nloc : 1)) * e);
    FLOAT *hZ = malloc((size_t)(nb * (nloc > 0 ? nloc : 1)) * e);
    FLOAT *hZs = malloc((size_t)(nb * (nloc > 0 ? nloc : 1)) * e);
    int64_t st = PFX(mp_work_alloc)(ops, &v, &w);
    if (st == GCHOL_SUCCESS && !(hY && hZ && hZs)) st = GCHOL_ERR_HOST_ALLOC;
    OPS_TRY(ops->alloc(ops->ctx, (void **)&Y, (size_t)(nb * (nloc > 0 ? nloc : 1)) * e));
    if ((st = gchol_mp_step_status(st, v.all)) != GCHOL_SUCCESS) goto done;

    for (int pass = 0; pass < 2; ++pass) {
        for (int64_t s = 0; s < v.nblk; ++s) {
            const int64_t K = pass == 0 ? s : v.nblk - 1 - s;
            const int64_t kb = bsize(&v, K), pr = owner_row(&v, K), pc = owner_col(&v, K);
            const int mine = g->myrow == BROW(K); /* this rank holds rows of B_K */
            FLOAT *BK = B + LROWB(K) + c0 * db->lld;
            /* the panel of column K to the ranks of B's rows I > K: P (mr rows,
             * blocks R0, R0 + nprow, ... of the grid's rows) */
            const int64_t I0 = first_after(K, v.myrow, v.b0r, v.srcr, v.nprow);
            const int64_t mt = rows_from(&v, I0, v.nprow);
            if (v.mycol == pc && mt > 0) {
                OPS_TRY(ops->get(ops->ctx, trans, 0, mt, kb, at(&v, lrow(&v, I0), lcol(&v, K)),
                                 v.lld, w.Prow, mt));
                OPS_TRY(ops->to_host(ops->ctx, w.hP, w.Prow, (size_t)(mt * kb) * e));
            }
            int64_t nt = 0;
            if ((st = PFX(mp_spread_panel)(ops, &v, &w, K, kb, pc, I0, mt, trans, &nt, st)) !=
                GCHOL_SUCCESS)
                goto done;
            const FLOAT *P = trans ? w.Pcol : w.Prow;
            const int64_t mr = trans ? nt : mt;
            const int64_t R0 = trans ? first_after(K, v.mycol, v.b0c, v.srcc, v.npcol) : I0;
            FLOAT *BR = mr > 0 ? B + LROWB(R0) + c0 * db->lld : NULL;
            if (pass == 1) {
                /* this rank's share of -sum_I L_IK^T B_I (gemm_b subtracts),
                 * summed to B_K's row, which adds it */
                if (mr > 0 && nloc > 0) {
                    OPS_TRY(ops->gemm_b(ops->ctx, 1, kb, nloc, mr, P, mr, BR, db->lld, 0, Y, kb));
                    OPS_TRY(ops->to_host(ops->ctx, hZ, Y, (size_t)(kb * nloc) * e));
                } else {
                    memset(hZ, 0, (size_t)(kb * (nloc > 0 ? nloc : 1)) * e);
                }
                if ((st = gchol_mp_step_status(st, v.all)) != GCHOL_SUCCESS) goto done;
                MPI_TRY(MPI_Reduce(hZ, hZs, (int)(kb * nloc), MPI_FLT, MPI_SUM, (int)BROW(K),
                                   g->col));
                if (mine && nloc > 0) {
                    OPS_TRY(ops->to_host2d(ops->ctx, hY, BK, db->lld, kb, nloc));
                    for (int64_t i = 0; i < kb * nloc; ++i) hY[i] += hZs[i];
                    OPS_TRY(ops->to_local2d(ops->ctx, BK, db->lld, hY, kb, nloc));
                }
            }
            /* L_KK along B_K's process row, from the diagonal block's owner */
            if (mine) {
                const int64_t src = trans ? pr : pc; /* its grid column */
                if (g->mycol == src)
                    OPS_TRY(ops->get(ops->ctx, trans, 1, kb, kb,
                                     at(&v, lrow(&v, K), lcol(&v, K)), v.lld, w.Lkk, kb));
                if (g->mycol == src)
                    OPS_TRY(ops->to_host(ops->ctx, w.hL, w.Lkk, (size_t)(kb * kb) * e));
                if ((st = gchol_mp_step_status(st, g->row)) == GCHOL_SUCCESS)
                    MPI_TRY(MPI_Bcast(w.hL, (int)(kb * kb), MPI_FLT, (int)src, g->row));
                if (g->mycol != src)
                    OPS_TRY(ops->to_local(ops->ctx, w.Lkk, w.hL, (size_t)(kb * kb) * e));
                if (nloc > 0)
                    OPS_TRY(ops->trsm_b(ops->ctx, trans, pass, kb, nloc, w.Lkk, kb, BK, db->lld));
            }
            if (pass == 0) {
                /* B_K down every process column, then B_I -= L_IK B_K */
                if (mine && nloc > 0) OPS_TRY(ops->to_host2d(ops->ctx, hY, BK, db->lld, kb, nloc));
                if ((st = gchol_mp_step_status(st, v.all)) != GCHOL_SUCCESS) goto done;
                if (nloc > 0) {
                    MPI_TRY(MPI_Bcast(hY, (int)(kb * nloc), MPI_FLT, (int)BROW(K), g->col));
                    if (mr > 0) {
                        OPS_TRY(ops->to_local(ops->ctx, Y, hY, (size_t)(kb * nloc) * e));
                        OPS_TRY(ops->gemm_b(ops->ctx, 0, mr, nloc, kb, P, mr, Y, kb, 1, BR,
                                            db->lld));
                    }
                }
            }
            if ((st = gchol_mp_step_status(st, v.all)) != GCHOL_SUCCESS) goto done;
        }
    }
    /* the last solves done before the caller reads B */
    st = gchol_mp_step_status(ops->sync(ops->ctx), v.all);
#undef BROW
#undef LROWB
done:
    /* a failed step may leave operations queued: none outlives the call */
    if (st != GCHOL_SUCCESS) (void)ops->sync(ops->ctx);
    if (Y) ops->free(ops->ctx, Y);
    free(hY); free(hZ); free(hZs);
    PFX(mp_work_free)(ops, &w);
    return st;
}

#if defined(GCHOL_PREC_D)
#define MP_POTRS gchol_mp_dpotrs
#else
#define MP_POTRS gchol_mp_spotrs
#endif

int64_t MP_POTRS(char uplo, int64_t n, int64_t nrhs, const FLOAT *dA, int64_t ia, int64_t ja,
                 const gchol_mp_desc_t *desca, FLOAT *dB, int64_t ib, int64_t jb,
                 const gchol_mp_desc_t *descb, int64_t *info, gchol_mp_grid_t grid)
{
    if (!grid) return -13;
    int64_t st = gchol_mp_check_potrs(uplo, n, nrhs, dA, ia, ja, desca, dB, ib, jb, descb, info,
                                      grid);
    if ((st = gchol_mp_agree(st, grid)) != GCHOL_SUCCESS) return st;
    *info = 0;
    if (n == 0 || nrhs == 0) return GCHOL_SUCCESS;
    mp_ops_t ops;
    if ((st = gchol_mp_agree(PFX(mp_gpu_ops)(grid, &ops), grid)) != GCHOL_SUCCESS) return st;
    return PFX(mp_potrs_ops)(&ops, uplo, n, nrhs, dA, ia, ja, desca, dB, ib, jb, descb, grid);
}
