/*
 * dxposv.c -- gchol_dxposv_gpu: A X = B in double, A SPD, from a factor on
 * the lowest rung of the precision ladder that refines to double accuracy
 * (gchol_mixed.h):
 *
 *   d_i = 1 / sqrt(a_ii);  S = D A D in single, lower (unit diagonal)
 *   for each rung from the first (FP16 -> TF32 -> FP32; BF16 -> TF32 ...;
 *   automatic: FP16 -> double, or FP16 -> FP32 -> double, tune.h):
 *       L = chol(S) on that rung (potrf_lowp.c, or gchol_spotrf_expert_gpu);
 *           a failed pivot retries once with S + 8 u_f I
 *       each column: x refined by IR, GMRES-IR or IR turning into GMRES-IR
 *           where IR is slow (refine_engine.c) with
 *           M^{-1} = D L^-T L^-1 D, to dsposv's stopping test
 *       all columns converged: done; else S again and the next rung
 *   last: gchol_dpotrf_gpu + gchol_dpotrs_gpu on A (LAPACK's info); also
 *   at once for n <= 16 (as dsposv), NaN or Inf in A or B, or no memory.
 *
 * The scaling makes |s_ij| <= 1 for an SPD A, so FP16's range holds S and
 * its factor (Higham, Pranesh and Zounon); the shift follows Abdelfattah et
 * al. A rung's failure is never returned as an answer: every column passes
 * the stopping test, or the next rung runs.
 */
#include "gchol_mixed.h"

#include "args.h"
#include "potrf_lowp.h"
#include "queue.h"
#include "refine.h"
#include "refine_ops_gpu.h"
#include "status.h"
#include "tune/tune.h"

#include "../kernels/gchol_kernels.h"

#include <math.h>
#include <stdlib.h>

/* Several right-hand sides refine together in blocks of at most kBlockCols
 * columns (the block form's scratch is 24 bytes per element). */
enum { kRefineMinN = 17, kBlockCols = 64 };

static int64_t round_up(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

/* The device workspace, one stream-ordered allocation. */
typedef struct {
    void   *base;
    float  *S;   int64_t lds;  /* D A D, then its factor                  */
    double *d;                 /* the scaling                              */
    double *r, *z, *V, *Z;     /* the engine's vectors                     */
    int64_t ldv;
    float  *t, *u;             /* the preconditioner's single vectors     */
    float  *inv;               /* FP16 / BF16: the factor's inverted
                                  diagonal blocks (potrf_lowp.h), or NULL */
    int64_t nb;                /* FP16 / BF16: the factor's block size    */
    int     panel_inverse;     /* ... and its panels through inv          */
    int     lookahead;         /* ... and its lookahead                    */
    int64_t update_leaf;       /* ... and its trailing updates' form      */
    double *norms;             /* anrm, ||b_j||_inf; the ops' 3 norms and
                                  the preconditioner's scale              */
    double *lansy;             /* dlansy's partial sums                   */
    double *dh, *dy;           /* the ops' coefficients                   */
    int    *flag;
    int64_t nblock;            /* columns refined together (0: one by one) */
    double *Rb, *Zb;           /* n x nblock: the block's residuals and
                                  corrections (ld ldv)                     */
    float  *tb, *ub;           /* n x nblock: its single-precision solves */
    double *normsb, *amaxb;    /* 2 nblock and nblock device doubles      */
    double *symv;              /* gchol_symv_work(n): the one-column
                                  residual's and A z's kernel (NULL: cuBLAS
                                  dsymv, tune.h xposv_symv)              */
} work_t;

/* The host side of the refinements. */
typedef struct {
    double *gmres;                /* gchol_refine_host_len(m) doubles     */
    double *norms;                /* 2 nblock doubles                      */
    void   *state;                /* gchol_refine_block_state_bytes       */
    gchol_refine_result_t *res;   /* nblock                                */
} host_t;

static cudaError_t work_alloc(work_t *w, int64_t n, int64_t nrhs, int64_t m, int lowp,
                              int symv, gchol_queue_t q)
{
    int keep_inverse = 0;
    gchol_lowp_plan_for(n, &w->nb, &keep_inverse, &w->panel_inverse, &w->lookahead,
                        &w->update_leaf);
    w->lds = round_up(n, 32);
    w->ldv = round_up(n, 4);
    w->nblock = nrhs > 1 ? (nrhs < kBlockCols ? nrhs : kBlockCols) : 0;
    const size_t nbl = (size_t)(w->ldv * w->nblock);
    const gchol_part_t parts[] = {
        { .ptr = (void **)&w->S, .bytes = (size_t)(w->lds * n) * 4,
          .rows = n, .ld = w->lds, .cols = n, .elsize = 4 },
        { .ptr = (void **)&w->d, .bytes = (size_t)n * 8 },
        { .ptr = (void **)&w->r, .bytes = (size_t)n * 8 },
        { .ptr = (void **)&w->z, .bytes = (size_t)n * 8 },
        { .ptr = (void **)&w->V, .bytes = (size_t)(w->ldv * (m + 1)) * 8 },
        { .ptr = (void **)&w->Z, .bytes = (size_t)(w->ldv * m) * 8 },
        { .ptr = (void **)&w->t, .bytes = (size_t)n * 4 },
        { .ptr = (void **)&w->u, .bytes = (size_t)n * 4 },
        { .ptr = (void **)&w->inv, .bytes = lowp && keep_inverse ? (size_t)(w->nb * n) * 4 : 0 },
        { .ptr = (void **)&w->norms, .bytes = (size_t)(nrhs + 5) * 8 },
        { .ptr = (void **)&w->lansy, .bytes = gchol_lansy_inf_work(n) * 8 },
        { .ptr = (void **)&w->dh, .bytes = (size_t)(2 * (m + 2)) * 8 },
        { .ptr = (void **)&w->dy, .bytes = (size_t)(m + 1) * 8 },
        { .ptr = (void **)&w->flag, .bytes = sizeof(int) },
        { .ptr = (void **)&w->Rb, .bytes = nbl * 8 },
        { .ptr = (void **)&w->Zb, .bytes = nbl * 8 },
        { .ptr = (void **)&w->tb, .bytes = nbl * 4,
          .rows = n, .ld = w->ldv, .cols = w->nblock, .elsize = 4 },
        { .ptr = (void **)&w->ub, .bytes = nbl * 4,
          .rows = n, .ld = w->ldv, .cols = w->nblock, .elsize = 4 },
        { .ptr = (void **)&w->normsb, .bytes = (size_t)(2 * w->nblock) * 8 },
        { .ptr = (void **)&w->amaxb, .bytes = (size_t)w->nblock * 8 },
        { .ptr = (void **)&w->symv, .bytes = symv ? gchol_symv_work(n) * 8 : 0 },
    };
    return gchol_alloc_parts(&w->base, parts, (int)(sizeof(parts) / sizeof(parts[0])), q);
}

/* GMRES iterations per step: the option or 50, at most n. */
static int64_t inner_max(const gchol_xposv_options_t *o, int64_t n)
{
    const int64_t m = o->max_inner > 0 ? o->max_inner : GCHOL_REFINE_DEFAULT_M;
    return m < n ? m : n;
}

/* The rungs above `prec` in escalation order; FP64 ends it. The automatic
 * ladder skips TF32 (its products round as FP16's: what FP16 could not
 * solve, it cannot either) and, as the table says, FP32. */
static int next_rung(int prec, int automatic)
{
    if (automatic)
        return prec != GCHOL_XPREC_FP32 && gchol_tune_current()->xposv_auto_fp32
                   ? GCHOL_XPREC_FP32 : GCHOL_XPREC_FP64;
    switch (prec) {
    case GCHOL_XPREC_FP16: case GCHOL_XPREC_BF16: return GCHOL_XPREC_TF32;
    case GCHOL_XPREC_TF32: return GCHOL_XPREC_FP32;
    default: return GCHOL_XPREC_FP64;
    }
}

/* The rung's unit roundoff in its products. */
static double rung_u(int prec)
{
    return prec == GCHOL_XPREC_BF16 ? 0x1p-8 : prec == GCHOL_XPREC_FP32 ? 0x1p-24 : 0x1p-11;
}

/* The automatic ladder's deadline, on the host's clock (the refinement
 * engine's), read only after the stream was synchronized, so that it
 * counts the GPU's work: the rungs below double may take a share of the
 * double solve's time (tune.h), so that a matrix that must end in double
 * costs about that much more than the double solve alone (a factorization
 * or a GMRES cycle once begun runs to its end). A rung without time for
 * its shifted retry, or for any refinement, gives up, and no rung starts
 * once the time is spent; the refinement gets what is left. */

/* The double solve's time at order n with nrhs right-hand sides: the
 * table's points at n = 1024 << k (one right-hand side), between two on
 * the power law through them, below the first its time (there launches,
 * not flops, set it), above the last as n^3; each further right-hand side
 * two triangular solves, 8 n^2 bytes at the table's rate. */
static double double_solve_s(int64_t n, int64_t nrhs, const gchol_tune_t *t)
{
    const double *ms = t->xposv_auto_double_ms;
    const int last = GCHOL_XPOSV_DOUBLE_POINTS - 1;
    const double x = (double)n / 1024, more = (double)(nrhs - 1) * 8 * (double)n * (double)n /
                                              (1e9 * t->xposv_auto_solve_gbs);
    if (x <= 1) return 1e-3 * ms[0] + more;
    const double k = log2(x);
    if (k >= last) return 1e-3 * ms[last] * pow(x / (double)(1 << last), 3) + more;
    const int i = (int)k;
    return 1e-3 * ms[i] * pow(ms[i + 1] / ms[i], k - i) + more;
}

/* Seconds left before the deadline (0: none set, then never spent). */
static double time_left(double deadline)
{
    return deadline > 0 ? deadline - gchol_refine_clock() : INFINITY;
}

/* S := D A D (lower, single); *bad := 1 when A cannot be scaled. The upper
 * parts of the diagonal blocks are zeroed: S's upper triangle is never
 * read, but the update gemms read and write it there, and an earlier
 * attempt may have left Inf or NaN in it. */
static int64_t make_s(const work_t *w, int upper, int64_t n, const double *dA, int64_t ldda,
                      int *bad, cudaStream_t s)
{
    int64_t st = GCHOL_SUCCESS;
    for (int64_t k = 0; k < n; k += w->nb) {
        const int64_t kb = n - k < w->nb ? n - k : w->nb;
        GCHOL_CUDA(cudaMemset2DAsync(w->S + k + k * w->lds, (size_t)w->lds * 4, 0, (size_t)kb * 4,
                                     (size_t)kb, s));
    }
    GCHOL_CUDA(cudaMemsetAsync(w->flag, 0, sizeof(int), s));
    GCHOL_CUDA((cudaError_t)gchol_diag_inv_sqrt_launch(n, dA, ldda, w->d, w->flag, s));
    GCHOL_CUDA((cudaError_t)gchol_scale_lower_d2s_launch(n, dA, ldda, upper, w->d, w->S, w->lds,
                                                         w->flag, s));
    GCHOL_CUDA(cudaMemcpyAsync(bad, w->flag, sizeof(int), cudaMemcpyDeviceToHost, s));
    GCHOL_CUDA(cudaStreamSynchronize(s));
done:
    return st;
}

/* L := chol(S) on the rung; *finfo > 0 for a failed pivot. */
static int64_t factor_rung(const work_t *w, int prec, int64_t n, int64_t *finfo, gchol_queue_t q)
{
    if (prec == GCHOL_XPREC_FP16 || prec == GCHOL_XPREC_BF16) {
        const gchol_lowp_plan_t plan = { w->nb, w->inv, w->panel_inverse, w->lookahead,
                                         w->update_leaf };
        return gchol_spotrf_lowp(n, w->S, w->lds, prec == GCHOL_XPREC_BF16, &plan, finfo, q);
    }
    gchol_options_t o;
    gchol_options_default(&o);
    if (prec == GCHOL_XPREC_TF32) o.products = GCHOL_PRODUCTS_TF32;
    const int64_t st = gchol_spotrf_expert_gpu('L', n, w->S, w->lds, finfo, &o, q);
    return st > 0 ? GCHOL_SUCCESS : st;
}

/* One rung: factor (with one shifted retry), then refine every column;
 * deadline: the automatic ladder's, or 0 (no limit).
 * *outcome: 0 every column converged, else the iter code of the failure. */
static int64_t run_rung(const work_t *w, int prec, char uplo, int64_t n, int64_t nrhs,
                        const double *dA, int64_t ldda, const double *dB, int64_t lddb,
                        double *dX, int64_t lddx, const gchol_xposv_options_t *o, double anrm,
                        const double *bnorm, const host_t *host, double deadline,
                        gchol_xposv_result_t *res, int64_t *outcome, gchol_queue_t q)
{
    const int upper = gchol_uplo_is_upper(uplo);
    cudaStream_t s = q->stream;
    int64_t st = GCHOL_SUCCESS, finfo = 0;
    int bad = 0;
    const float shift = (float)(8 * rung_u(prec));
    const double attempt_from = gchol_refine_clock();
    for (int attempt = 0; attempt < 2; ++attempt) {
        GCHOL_TRY(make_s(w, upper, n, dA, ldda, &bad, s));
        res->host_syncs++;
        if (bad) { *outcome = -2; return GCHOL_SUCCESS; }
        if (attempt == 1) GCHOL_CUDA((cudaError_t)gchol_s_add_diag_launch(n, w->S, w->lds, shift, s));
        st = factor_rung(w, prec, n, &finfo, q);
        res->host_syncs++; /* its one wait for the pivots */
        if (st == GCHOL_ERR_DEVICE_ALLOC) { /* the rung's own workspace: double needs none */
            (void)cudaGetLastError();
            *outcome = -1;
            return GCHOL_SUCCESS;
        }
        if (st != GCHOL_SUCCESS || finfo == 0 || prec == GCHOL_XPREC_FP32 || attempt == 1) break;
        if (time_left(deadline) < gchol_refine_clock() - attempt_from) break; /* no time to retry */
        /* the failed pivot stays in S(k, k): a shift of the rung's rounding
         * may mend a pivot near 0, but not one clearly negative (A is then
         * not positive definite: the double factorization gives LAPACK's
         * info) */
        float pivot = 0;
        GCHOL_CUDA(cudaMemcpyAsync(&pivot, w->S + (finfo - 1) * (w->lds + 1), sizeof(float),
                                   cudaMemcpyDeviceToHost, s));
        GCHOL_CUDA(cudaStreamSynchronize(s));
        res->host_syncs++;
        if (!(pivot > -shift)) break;
    }
    if (st != GCHOL_SUCCESS) goto done;
    if (finfo > 0) { *outcome = -3; return GCHOL_SUCCESS; }
    if (!(time_left(deadline) > 0)) { *outcome = GCHOL_REFINE_ITER_FAILED; return GCHOL_SUCCESS; }

    const int lowp = prec == GCHOL_XPREC_FP16 || prec == GCHOL_XPREC_BF16;
    gchol_gpu_ops_t g = { n, dA, ldda, upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER,
                          w->d, w->S, w->lds, w->t, w->norms + nrhs + 1, w->dh, w->dy,
                          w->norms + nrhs + 4, q->blas, s, lowp ? w->inv : NULL, w->nb, w->u,
                          w->nblock, w->tb, w->ub, w->ldv, w->normsb, w->amaxb, w->symv };
    gchol_refine_ops_t ops;
    gchol_refine_block_ops_t bops;
    gchol_gpu_ops_table(&g, &ops);
    gchol_gpu_block_ops_table(&bops);
    const int method = o->refine == GCHOL_XREFINE_IR ? GCHOL_REFINE_IR
                     : o->refine == GCHOL_XREFINE_GMRES ? GCHOL_REFINE_GMRES : GCHOL_REFINE_AUTO;
    const int64_t m = inner_max(o, n);
    const gchol_refine_work_t rw = { w->r, w->z, w->V, w->ldv, w->Z, w->ldv, m, host->gmres,
                                     gchol_refine_host_len(m) };
    const gchol_refine_block_work_t bw = { w->Rb, w->ldv, w->Zb, w->ldv, host->norms, host->state,
                                           w->nblock };
    const gchol_refine_opts_t ro = { method, o->max_iter, m, o->inner_tol, 0, 0, deadline };
    double berr = 0;
    int64_t steps = 0;
    /* one column alone, or blocks of columns together */
    for (int64_t j0 = 0; j0 < nrhs; j0 += w->nblock ? w->nblock : 1) {
        const int64_t k = w->nblock ? (nrhs - j0 < w->nblock ? nrhs - j0 : w->nblock) : 1;
        int64_t shared = 0;
        if (w->nblock)
            st = gchol_refine_solve_block(&ops, &bops, &ro, &rw, &bw, dB + j0 * lddb, lddb,
                                          dX + j0 * lddx, lddx, k, anrm, bnorm + j0, host->res,
                                          &shared);
        else
            st = gchol_refine_solve(&ops, &ro, &rw, dB, dX, anrm, bnorm[0], host->res);
        res->host_syncs += shared;
        for (int64_t j = 0; j < k; ++j) {
            res->inner += host->res[j].inner;
            res->host_syncs += host->res[j].readbacks;
        }
        if (st == GCHOL_ERR_DEVICE_ALLOC) { /* cuBLAS's own workspace */
            (void)cudaGetLastError();
            *outcome = -1;
            return GCHOL_SUCCESS;
        }
        if (st != GCHOL_SUCCESS) goto done;
        for (int64_t j = 0; j < k; ++j) {
            const gchol_refine_result_t *rr = &host->res[j];
            if (rr->iter < 0) { *outcome = rr->iter; return GCHOL_SUCCESS; }
            if (rr->iter > steps) steps = rr->iter;
            if (rr->berr > berr) berr = rr->berr;
        }
    }
    *outcome = 0;
    res->iter = steps;
    res->berr = berr;
done:
    return st;
}

/* The solve on the queue's device: arguments checked, n and nrhs > 0;
 * timed: the automatic ladder under its time limit (a double solve follows
 * a failure, here or on the host). */
static int64_t xposv(char uplo, int64_t n, int64_t nrhs, double *dA, int64_t ldda,
                     const double *dB, int64_t lddb, double *dX, int64_t lddx,
                     const gchol_xposv_options_t *o, int timed, gchol_xposv_result_t *res,
                     gchol_queue_t q)
{
    const int upper = gchol_uplo_is_upper(uplo);
    cudaStream_t s = q->stream;
    work_t w = { 0 };
    int64_t st = GCHOL_SUCCESS, outcome = -1;
    const int64_t m = inner_max(o, n);
    const int64_t nb = nrhs < kBlockCols ? nrhs : kBlockCols;
    double *h = malloc((size_t)(nrhs + 1) * sizeof(double));
    host_t host = { malloc((gchol_refine_host_len(m) + (size_t)(2 * nb)) * sizeof(double)), NULL,
                    malloc(gchol_refine_block_state_bytes(nb) + 1),
                    malloc((size_t)nb * sizeof(gchol_refine_result_t)) };
    int prec = o->factor == GCHOL_XPREC_AUTO ? GCHOL_XPREC_FP16 : o->factor;
    if (!h || !host.gmres || !host.state || !host.res) { st = GCHOL_ERR_HOST_ALLOC; goto done; }
    host.norms = host.gmres + gchol_refine_host_len(m);
    if (prec == GCHOL_XPREC_FP64) goto double_solve; /* asked for: iter 0 */
    if (n < kRefineMinN) { /* dsposv's bound is within r's rounding there */
        res->iter = -1;
        goto double_solve;
    }
    if (o->factor == GCHOL_XPREC_AUTO && n < gchol_tune_current()->xposv_auto_lowp_from_n) {
        res->iter = -1; /* the double solve is the faster there (tune.h) */
        goto double_solve;
    }
    const int lowp = prec == GCHOL_XPREC_FP16 || prec == GCHOL_XPREC_BF16;
    cudaError_t ea = work_alloc(&w, n, nrhs, m, lowp, q->tune->xposv_symv, q);
    if (ea == cudaErrorMemoryAllocation && q->tune->xposv_symv) {
        /* without gchol's symv's workspace (cuBLAS dsymv needs none) */
        (void)cudaGetLastError();
        ea = work_alloc(&w, n, nrhs, m, lowp, 0, q);
    }
    if (ea != cudaSuccess) {
        (void)cudaGetLastError();
        if (ea != cudaErrorMemoryAllocation) { st = gchol_from_cuda(ea); goto done; }
        res->iter = -1; /* no room for the low rungs: double needs none */
        goto double_solve;
    }
    /* anrm and every ||b_j||_inf, in one read-back */
    GCHOL_CUDA((cudaError_t)gchol_dlansy_inf_launch(n, dA, ldda, upper, w.lansy, w.norms, s));
    GCHOL_CUDA((cudaError_t)gchol_dcol_absmax_launch(n, nrhs, dB, lddb, w.norms + 1, s));
    GCHOL_CUDA(cudaMemcpyAsync(h, w.norms, (size_t)(nrhs + 1) * 8, cudaMemcpyDeviceToHost, s));
    GCHOL_CUDA(cudaStreamSynchronize(s));
    res->host_syncs++;
    for (int64_t j = 0; j <= nrhs; ++j)
        if (!isfinite(h[j])) { /* NaN or Inf in A or B: no refinement can converge */
            res->iter = -1;
            if (o->no_fallback) {
                res->prec = prec;
                goto done;
            }
            goto fallback_solve;
        }
    /* the automatic ladder's deadline, from here (the stream just
     * synchronized) */
    const int automatic = o->factor == GCHOL_XPREC_AUTO;
    const gchol_tune_t *t = gchol_tune_current();
    const double deadline = automatic && timed && t->xposv_auto_share > 0
                              ? gchol_refine_clock() +
                                    t->xposv_auto_share * double_solve_s(n, nrhs, t)
                              : 0;
    for (int tried = 0; prec != GCHOL_XPREC_FP64;
         prec = o->no_fallback ? GCHOL_XPREC_FP64 : next_rung(prec, automatic), ++tried) {
        if (tried && !(time_left(deadline) > 0)) break; /* no time for another rung */
        GCHOL_TRY(run_rung(&w, prec, uplo, n, nrhs, dA, ldda, dB, lddb, dX, lddx, o, h[0], h + 1,
                           &host, deadline, res, &outcome, q));
        if (outcome == 0) { res->prec = prec; goto done; }
        if (outcome == -2) break; /* A itself does not scale: no rung can */
    }
    res->iter = outcome;
    if (o->no_fallback) { /* the rung that failed; X unspecified */
        res->prec = o->factor == GCHOL_XPREC_AUTO ? GCHOL_XPREC_FP16 : o->factor;
        goto done;
    }
fallback_solve: {
        void *base = w.base; /* freed once, whatever the free returns */
        w.base = NULL;
        GCHOL_TRY(gchol_free_parts(base, GCHOL_SUCCESS, s));
    }
double_solve:
    res->prec = GCHOL_XPREC_FP64;
    res->berr = 0;
    st = gchol_refine_fallback_double(uplo, n, nrhs, dA, ldda, dB, lddb, dX, lddx, q);
    res->host_syncs += st == GCHOL_SUCCESS ? 2 : 1; /* dpotrf's info, then dpotrs's end */
done:
    free(h);
    free(host.gmres);
    free(host.state);
    free(host.res);
    return gchol_free_parts(w.base, st, s);
}

/* Arguments 1-12, common to both forms (on host arrays for the host form);
 * 0 or -i. */
static int64_t check_args(char uplo, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                          const void *B, int64_t ldb, const void *X, int64_t ldx,
                          const gchol_xposv_options_t *o, const gchol_xposv_result_t *res,
                          const int64_t *info)
{
    const int64_t st = gchol_check_solve_args(uplo, n, nrhs, A, lda, B, ldb);
    if (st != 0) return st;
    if (n > 0 && nrhs > 0 && X == NULL) return -8;
    if (ldx < (n > 1 ? n : 1)) return -9;
    if (o->factor < GCHOL_XPREC_AUTO || o->factor > GCHOL_XPREC_FP64 ||
        o->refine < GCHOL_XREFINE_AUTO || o->refine > GCHOL_XREFINE_GMRES || o->max_iter < 0 ||
        o->max_inner < 0 || !(o->inner_tol >= 0 && o->inner_tol < 1))
        return -10;
    if (res == NULL) return -11;
    if (info == NULL) return -12;
    return 0;
}

int64_t gchol_dxposv_gpu(char uplo, int64_t n, int64_t nrhs, double *dA, int64_t ldda,
                         const double *dB, int64_t lddb, double *dX, int64_t lddx,
                         const gchol_xposv_options_t *opts, gchol_xposv_result_t *res,
                         int64_t *info, gchol_queue_t queue)
{
    static const gchol_xposv_options_t defaults;
    const gchol_xposv_options_t *o = opts ? opts : &defaults;
    int64_t st = check_args(uplo, n, nrhs, dA, ldda, dB, lddb, dX, lddx, o, res, info);
    if (st == 0 && queue == NULL) st = -13;
    if (res) {
        const gchol_xposv_result_t none = { 0, GCHOL_XPREC_AUTO, 0, 0, 0 };
        *res = none;
    }
    if (st == 0 && n > 0 && nrhs > 0) {
        int prev = 0;
        if ((st = gchol_queue_enter(queue, &prev)) == GCHOL_SUCCESS) {
            st = xposv(uplo, n, nrhs, dA, ldda, dB, lddb, dX, lddx, o, !o->no_fallback, res,
                       queue);
            gchol_queue_leave(prev);
        }
    }
    if (info) *info = st;
    return st;
}

/* The host form's device job (gchol_refine_host_call): the ladder without
 * the double fallback on A, B and X in the queue's buffer; X comes back
 * only when a rung answered (the caller falls back on the host arrays
 * else). */
typedef struct {
    char     uplo;
    int64_t  n, nrhs;
    const gchol_xposv_options_t *o;
    gchol_xposv_result_t *res;
} host_xposv_t;

static int64_t host_xposv_job(gchol_queue_t q, const double *dA, const double *dB, double *dX,
                              void *ctx, int *download)
{
    const host_xposv_t *c = ctx;
    gchol_xposv_options_t o = *c->o;
    o.no_fallback = 1;
    /* dA is the buffer's copy of A: only the double solve that answers when
     * no rung can have memory writes it; the caller's own no_fallback
     * decides the time limit (the host solves in double after a failure) */
    const int64_t st = xposv(c->uplo, c->n, c->nrhs, (double *)dA, c->n, dB, c->n, dX, c->n, &o,
                             !c->o->no_fallback, c->res, q);
    *download = st == GCHOL_SUCCESS && c->res->iter >= 0 && c->res->prec != GCHOL_XPREC_FP64;
    return st;
}

int64_t gchol_dxposv(char uplo, int64_t n, int64_t nrhs, double *A, int64_t lda, const double *B,
                     int64_t ldb, double *X, int64_t ldx, const gchol_xposv_options_t *opts,
                     gchol_xposv_result_t *res, int64_t *info)
{
    static const gchol_xposv_options_t defaults;
    const gchol_xposv_options_t *o = opts ? opts : &defaults;
    int64_t st = check_args(uplo, n, nrhs, A, lda, B, ldb, X, ldx, o, res, info);
    if (res) {
        const gchol_xposv_result_t none = { 0, GCHOL_XPREC_AUTO, 0, 0, 0 };
        *res = none;
    }
    if (st != 0 || n == 0 || nrhs == 0) {
        if (info) *info = st;
        return st;
    }
    /* the double solve at once: asked for, n <= 16, or AUTO below the
     * crossover (the table of the current device, which the host form
     * runs on) */
    const int direct = n < kRefineMinN || o->factor == GCHOL_XPREC_FP64 ||
                       (o->factor == GCHOL_XPREC_AUTO &&
                        n < gchol_tune_current()->xposv_auto_lowp_from_n);
    if (!direct) {
        host_xposv_t job = { uplo, n, nrhs, o, res };
        st = gchol_refine_host_call(uplo, n, nrhs, A, lda, B, ldb, X, ldx, host_xposv_job, &job);
        if (st != GCHOL_SUCCESS || (res->iter >= 0 && res->prec != GCHOL_XPREC_FP64) ||
            (o->no_fallback && res->prec != GCHOL_XPREC_FP64)) { /* answered, or the rung's own failure */
            *info = st;
            return st;
        }
        if (res->iter >= 0) res->iter = -1; /* double answered inside: no memory for a rung */
    } else {
        res->iter = o->factor == GCHOL_XPREC_FP64 ? 0 : -1;
    }
    res->prec = GCHOL_XPREC_FP64;
    res->berr = 0;
    st = gchol_refine_fallback_host(uplo, n, nrhs, A, lda, B, ldb, X, ldx);
    res->host_syncs += st == GCHOL_SUCCESS ? 2 : 1; /* dpotrf's end, then dpotrs's */
    *info = st;
    return st;
}
