/*
 * dsposv.c -- gchol_dsposv_gpu, gchol_dsposv_expert_gpu and gchol_dsposv:
 * A X = B for a symmetric positive definite A in double precision, by
 * mixed-precision iterative refinement (LAPACK dsposv): factor in single
 * precision, refine X in double, and fall back to the double factorization
 * when that does not work.
 *
 *   anrm = ||A||_inf, eps = 2^-53 (dlamch('E'))
 *   A_s = (float) A, L_s = chol(A_s)                (gchol_spotrf_gpu)
 *   X = (double) solve(L_s, (float) B);  R = B - A X  (cublasDsymm)
 *   repeat up to 30 times while some column is not converged:
 *       X += (double) solve(L_s, (float) R);  R = B - A X
 *
 * A column converges when ||r||_inf <= eps (sqrt(n) anrm ||x||_inf - 2 (||b||_inf
 * + anrm ||x||_inf)): LAPACK's test (||r|| <= ||x|| anrm eps sqrt(n)) with
 * room for the rounding of r itself, so that r formed again by another BLAS
 * (LAPACK's testers recompute it with their own dsymm) still meets LAPACK's
 * bound; two evaluations of b - A x differ by a few eps (|b| + |A| |x|), which
 * at small n is the size of the bound. Hence also: n <= 16, where the bound
 * is within that rounding, goes to the double factorization at once (iter
 * -1); and a refinement stops (iter -31) once, for 4 corrections in a row,
 * every column not converged has its residual at that rounding level,
 * 4 eps (||b|| + anrm ||x||), which no correction can lower.
 *
 * iter (LAPACK's ITER): 0 no correction was needed; k > 0 converged after k
 * corrections; -1 n <= 16, the single-precision workspace could not be had, or X or
 * a residual holds NaN or Inf (a NaN in B, say: no correction can recover,
 * so the refinement stops there rather than run 30 sweeps); -2 an
 * entry of A, B or R overflows single precision; -3 spotrf failed (A is not
 * positive definite in single precision); -31 no convergence after 30
 * corrections, or a residual at its rounding level. iter < 0 always falls back: dpotrf on A, dpotrs on X = B;
 * info then refers to that factorization. A is unchanged when iter >= 0.
 *
 * Deviations from LAPACK, on purpose: the test is !(r <= x * cte), so a NaN
 * residual never counts as converged (LAPACK's r > x * cte does), and a
 * non-finite x or r falls back at once (iter -1); nrhs = 0 returns at once
 * (as MAGMA; LAPACK still factors A then).
 */
#include "args.h"
#include "options_ext.h"
#include "queue.h"
#include "refine.h"
#include "status.h"

#include "../kernels/gchol_kernels.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

enum { kItermax = 30, kRefineMinN = 17, kStallsMax = 4 };

static const double one = 1, minus_one = -1;

static int64_t round_up(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

/* The refinement's device workspace, one stream-ordered allocation. */
typedef struct {
    void   *base;
    float  *sA;    int64_t ldsa; /* A in single, then its factor          */
    float  *sX;    int64_t ldsx; /* B or R in single, then its solution   */
    double *R;     int64_t ldr;  /* residual B - A X                      */
    double *norms;               /* |x|_inf, |r|_inf per column; anrm;
                                    |b|_inf per column                    */
    double *lansy;               /* dlansy's partial sums                 */
    int    *flag;                /* overflow of a conversion to single    */
} workspace_t;

static cudaError_t workspace_alloc(workspace_t *w, int64_t n, int64_t nrhs, gchol_queue_t q)
{
    w->ldsa = round_up(n, 32);
    w->ldsx = round_up(n, 32);
    w->ldr = round_up(n, 16);
    const gchol_part_t parts[] = {
        { .ptr = (void **)&w->sA, .bytes = (size_t)(w->ldsa * n) * 4,
          .rows = n, .ld = w->ldsa, .cols = n, .elsize = 4 },
        { .ptr = (void **)&w->sX, .bytes = (size_t)(w->ldsx * nrhs) * 4,
          .rows = n, .ld = w->ldsx, .cols = nrhs, .elsize = 4 },
        { .ptr = (void **)&w->R, .bytes = (size_t)(w->ldr * nrhs) * 8 },
        { .ptr = (void **)&w->norms, .bytes = (size_t)(3 * nrhs + 1) * 8 },
        { .ptr = (void **)&w->lansy, .bytes = gchol_lansy_inf_work(n) * 8 },
        { .ptr = (void **)&w->flag, .bytes = sizeof(int) },
    };
    return gchol_alloc_parts(&w->base, parts, (int)(sizeof(parts) / sizeof(parts[0])), q);
}

/* R := B - A X, then the column norms of X and R into w->norms. */
static int64_t residual(const workspace_t *w, cublasFillMode_t fill, int64_t n, int64_t nrhs,
                        const double *dA, int64_t ldda, const double *dB, int64_t lddb,
                        const double *dX, int64_t lddx, gchol_queue_t q)
{
    int64_t st = GCHOL_SUCCESS;
    GCHOL_CUDA(cudaMemcpy2DAsync(w->R, (size_t)w->ldr * 8, dB, (size_t)lddb * 8, (size_t)n * 8,
                                 (size_t)nrhs, cudaMemcpyDeviceToDevice, q->stream));
    /* one right-hand side: symv reads A once, in half symm's time */
    if (nrhs == 1)
        GCHOL_BLAS(cublasDsymv_64(q->blas, fill, n, &minus_one, dA, ldda, dX, 1, &one, w->R, 1));
    else
        GCHOL_BLAS(cublasDsymm_64(q->blas, CUBLAS_SIDE_LEFT, fill, n, nrhs, &minus_one, dA, ldda,
                                  dX, lddx, &one, w->R, w->ldr));
    GCHOL_CUDA((cudaError_t)gchol_dcol_absmax_launch(n, nrhs, dX, lddx, w->norms, q->stream));
    GCHOL_CUDA((cudaError_t)gchol_dcol_absmax_launch(n, nrhs, w->R, w->ldr, w->norms + nrhs,
                                                     q->stream));
done:
    return st;
}

/* h: |x|_inf, |r|_inf per column, anrm, |b|_inf per column. */
typedef enum { kRefining, kConverged, kAtRoundingLevel } progress_t;

static progress_t progress(const double *h, int64_t n, int64_t nrhs)
{
    const double eps = DBL_EPSILON / 2, anrm = h[2 * nrhs], *b = h + 2 * nrhs + 1;
    int at_rounding = 1, all = 1;
    for (int64_t j = 0; j < nrhs; ++j) {
        const double x = h[j], r = h[nrhs + j], ulp_r = eps * (b[j] + anrm * x);
        if (r <= sqrt((double)n) * anrm * eps * x - 2 * ulp_r) continue; /* NaN: not */
        all = 0;
        if (!(r <= 4 * ulp_r)) at_rounding = 0;
    }
    return all ? kConverged : at_rounding ? kAtRoundingLevel : kRefining;
}

/* The refinement. Returns 0 with *iter set (< 0: the caller falls back) or
 * a library error. */
static int64_t refine(char uplo, int64_t n, int64_t nrhs, const double *dA, int64_t ldda,
                      const double *dB, int64_t lddb, double *dX, int64_t lddx, int64_t *iter,
                      double *h, const gchol_options_t *opts, gchol_queue_t q)
{
    const int upper = gchol_uplo_is_upper(uplo);
    const cublasFillMode_t fill = upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    cudaStream_t s = q->stream;
    workspace_t w = { 0 };
    int64_t st = GCHOL_SUCCESS, sinfo = 0;
    int hflag = 0;
    if (n < kRefineMinN) { *iter = -1; return GCHOL_SUCCESS; }
    const cudaError_t ea = workspace_alloc(&w, n, nrhs, q);
    if (ea != cudaSuccess) return gchol_refine_alloc_failed(ea, iter);

    GCHOL_CUDA((cudaError_t)gchol_dlansy_inf_launch(n, dA, ldda, upper, w.lansy, w.norms + 2 * nrhs, s));
    GCHOL_CUDA((cudaError_t)gchol_dcol_absmax_launch(n, nrhs, dB, lddb, w.norms + 2 * nrhs + 1, s));
    GCHOL_CUDA(cudaMemsetAsync(w.flag, 0, sizeof(int), s));
    GCHOL_CUDA((cudaError_t)gchol_d2s_launch(n, nrhs, dB, lddb, w.sX, w.ldsx, 0, w.flag, s));
    GCHOL_CUDA((cudaError_t)gchol_d2s_launch(n, n, dA, ldda, w.sA, w.ldsa, upper ? 2 : 1, w.flag, s));
    GCHOL_TRY(gchol_fetch_norms(w.norms, w.flag, 2 * nrhs, 1 + nrhs, h, &hflag, s));
    if (hflag) { *iter = -2; goto done; }

    st = gchol_spotrf_expert_gpu(uplo, n, w.sA, w.ldsa, &sinfo, opts, q);
    if (st == GCHOL_ERR_DEVICE_ALLOC) {
        st = gchol_refine_alloc_failed(cudaErrorMemoryAllocation, iter);
        goto done;
    }
    if (st < 0) goto done;
    if (sinfo > 0) { st = GCHOL_SUCCESS; *iter = -3; goto done; }
    GCHOL_TRY(gchol_spotrs_gpu(uplo, n, nrhs, w.sA, w.ldsa, w.sX, w.ldsx, &sinfo, q));
    /* X := (double) X_s */
    GCHOL_CUDA(cudaMemset2DAsync(dX, (size_t)lddx * 8, 0, (size_t)n * 8, (size_t)nrhs, s));
    GCHOL_CUDA((cudaError_t)gchol_add_s_to_d_launch(n, nrhs, w.sX, w.ldsx, dX, lddx, s));
    GCHOL_TRY(residual(&w, fill, n, nrhs, dA, ldda, dB, lddb, dX, lddx, q));
    GCHOL_TRY(gchol_fetch_norms(w.norms, w.flag, 0, 2 * nrhs, h, &hflag, s));
    if (gchol_any_non_finite(h, 2 * nrhs)) { *iter = -1; goto done; }
    if (progress(h, n, nrhs) == kConverged) { *iter = 0; goto done; }

    for (int64_t it = 1, stalls = 0; it <= kItermax; ++it) {
        /* the flag is read with the norms: an overflow leaves X wrong, and
         * the fallback rewrites it */
        GCHOL_CUDA((cudaError_t)gchol_d2s_launch(n, nrhs, w.R, w.ldr, w.sX, w.ldsx, 0, w.flag, s));
        GCHOL_TRY(gchol_spotrs_gpu(uplo, n, nrhs, w.sA, w.ldsa, w.sX, w.ldsx, &sinfo, q));
        GCHOL_CUDA((cudaError_t)gchol_add_s_to_d_launch(n, nrhs, w.sX, w.ldsx, dX, lddx, s));
        GCHOL_TRY(residual(&w, fill, n, nrhs, dA, ldda, dB, lddb, dX, lddx, q));
        GCHOL_TRY(gchol_fetch_norms(w.norms, w.flag, 0, 2 * nrhs, h, &hflag, s));
        if (hflag) { *iter = -2; goto done; }
        if (gchol_any_non_finite(h, 2 * nrhs)) { *iter = -1; goto done; }
        const progress_t p = progress(h, n, nrhs);
        if (p == kConverged) { *iter = it; goto done; }
        /* at the rounding level each correction redraws r's rounding: a few
         * more may meet the bound, beyond that none will */
        stalls = p == kAtRoundingLevel ? stalls + 1 : 0;
        if (stalls == kStallsMax) break;
    }
    *iter = -(kItermax + 1);
done:
    return gchol_free_parts(w.base, st, s);
}

/* Arguments 1-11, common to the device forms (and, on host arrays, to the
 * host form); 0 or -i. */
static int64_t check_args(char uplo, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                          const void *B, int64_t ldb, const void *X, int64_t ldx,
                          const int64_t *iter, const int64_t *info)
{
    const int64_t st = gchol_check_solve_args(uplo, n, nrhs, A, lda, B, ldb);
    const int64_t ldmin = n > 1 ? n : 1;
    if (st != 0) return st;
    if (n > 0 && nrhs > 0 && X == NULL) return -8;
    if (ldx < ldmin) return -9;
    if (iter == NULL) return -10;
    if (info == NULL) return -11;
    return 0;
}

/* The device form's work: arguments checked, n and nrhs > 0. */
static int64_t sposv_gpu(char uplo, int64_t n, int64_t nrhs, double *dA, int64_t ldda,
                         const double *dB, int64_t lddb, double *dX, int64_t lddx, int64_t *iter,
                         const gchol_options_t *opts, gchol_queue_t queue)
{
    int prev = 0;
    int64_t st = GCHOL_SUCCESS;
    double *h = (double *)malloc((size_t)(3 * nrhs + 1) * sizeof(double));
    if (!h) return GCHOL_ERR_HOST_ALLOC;
    if ((st = gchol_queue_enter(queue, &prev)) == GCHOL_SUCCESS) {
        st = refine(uplo, n, nrhs, dA, ldda, dB, lddb, dX, lddx, iter, h, opts, queue);
        if (st == GCHOL_SUCCESS && *iter < 0)
            st = gchol_refine_fallback_double(uplo, n, nrhs, dA, ldda, dB, lddb, dX, lddx, queue);
        gchol_queue_leave(prev);
    }
    free(h);
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_dsposv_gpu: solves A X = B, A symmetric positive definite, by
 * single-precision Cholesky and double-precision iterative refinement (LAPACK
 * dsposv). Synchronous.
 *   uplo (1) 'L'/'U': the triangle of dA that holds A, n (2) >= 0,
 *   nrhs (3) >= 0, dA (4) device n x n, unchanged when iter >= 0, else
 *   overwritten by the double factor (as dpotrf),
 *   ldda (5) >= max(1,n), dB (6) device n x nrhs, not written,
 *   lddb (7) >= max(1,n), dX (8) device n x nrhs, receives X (must not
 *   overlap dA or dB), lddx (9) >= max(1,n),
 *   iter (10) LAPACK's ITER (see above; 0 when n = 0 or nrhs = 0),
 *   info (11) 0, -i, k > 0 (the leading minor of order k is not positive
 *   definite, NaN included, in the double factorization of the fallback) or
 *   a library error (<= -100), queue (12).
 * -------------------------------------------------------------------------- */
int64_t gchol_dsposv_gpu(char uplo, int64_t n, int64_t nrhs, double *dA, int64_t ldda,
                         const double *dB, int64_t lddb, double *dX, int64_t lddx, int64_t *iter,
                         int64_t *info, gchol_queue_t queue)
{
    int64_t st = check_args(uplo, n, nrhs, dA, ldda, dB, lddb, dX, lddx, iter, info);
    if (st == 0 && queue == NULL) st = -12;
    if (iter) *iter = 0;
    if (st == 0 && n > 0 && nrhs > 0)
        st = sposv_gpu(uplo, n, nrhs, dA, ldda, dB, lddb, dX, lddx, iter, NULL, queue);
    if (info) *info = st;
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_dsposv_expert_gpu: the same with options for the single-precision
 * factorization (gchol_spotrf_expert_gpu): arguments 1-11 as above,
 * opts (12) NULL for defaults (trace must be NULL), queue (13).
 * opts->products = GCHOL_PRODUCTS_TF32 factors with one TF32 product per
 * multiply in the blocked driver's updates (where the automatic choice is
 * a blocked driver): a faster, less accurate factor, which the refinement
 * corrects where cond(A) allows, and the fallback covers where it does
 * not.
 * -------------------------------------------------------------------------- */
int64_t gchol_dsposv_expert_gpu(char uplo, int64_t n, int64_t nrhs, double *dA, int64_t ldda,
                                const double *dB, int64_t lddb, double *dX, int64_t lddx,
                                int64_t *iter, int64_t *info, const gchol_options_t *opts,
                                gchol_queue_t queue)
{
    int64_t st = check_args(uplo, n, nrhs, dA, ldda, dB, lddb, dX, lddx, iter, info);
    if (st == 0 && (!gchol_options_valid(opts) || (opts && opts->trace))) st = -12;
    else if (st == 0 && queue == NULL) st = -13;
    if (iter) *iter = 0;
    if (st == 0 && n > 0 && nrhs > 0)
        st = sposv_gpu(uplo, n, nrhs, dA, ldda, dB, lddb, dX, lddx, iter, opts, queue);
    if (info) *info = st;
    return st;
}

/* The host form's device job (gchol_refine_host_call): the refinement on
 * A, B and X in the queue's buffer; X comes back only when it converged
 * (the caller falls back on the host arrays otherwise). */
typedef struct {
    char     uplo;
    int64_t  n, nrhs;
    int64_t *iter;
} host_sposv_t;

static int64_t host_sposv_job(gchol_queue_t q, const double *dA, const double *dB, double *dX,
                              void *ctx, int *download)
{
    const host_sposv_t *c = (const host_sposv_t *)ctx;
    double *h = (double *)malloc((size_t)(3 * c->nrhs + 1) * sizeof(double));
    if (!h) return GCHOL_ERR_HOST_ALLOC;
    const int64_t st = refine(c->uplo, c->n, c->nrhs, dA, c->n, dB, c->n, dX, c->n, c->iter, h,
                              NULL, q);
    free(h);
    *download = *c->iter >= 0;
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_dsposv: the same with A, B and X in host memory, on the library-owned
 * queue. Only A's uplo triangle goes up (with whole 256-wide diagonal
 * blocks); when iter < 0 the fallback runs through the host
 * interface (gchol_dpotrf, gchol_dpotrs), which writes the factor back into
 * A's referenced triangle only. B, the padding rows and A's other triangle
 * are never written; only the n x nrhs block of X is.
 *   uplo (1), n (2), nrhs (3), A (4) host, lda (5) >= max(1,n), B (6) host,
 *   ldb (7) >= max(1,n), X (8) host, ldx (9) >= max(1,n), iter (10),
 *   info (11).
 * -------------------------------------------------------------------------- */
int64_t gchol_dsposv(char uplo, int64_t n, int64_t nrhs, double *A, int64_t lda, const double *B,
                     int64_t ldb, double *X, int64_t ldx, int64_t *iter, int64_t *info)
{
    int64_t st = check_args(uplo, n, nrhs, A, lda, B, ldb, X, ldx, iter, info);
    if (iter) *iter = 0;
    if (st != 0 || n == 0 || nrhs == 0) {
        if (info) *info = st;
        return st;
    }
    if (n < kRefineMinN) {
        *iter = -1; /* no refinement (see above): the fallback below at once */
    } else {
        host_sposv_t job = { uplo, n, nrhs, iter };
        st = gchol_refine_host_call(uplo, n, nrhs, A, lda, B, ldb, X, ldx, host_sposv_job, &job);
    }
    if (st == GCHOL_SUCCESS && *iter < 0)
        st = gchol_refine_fallback_host(uplo, n, nrhs, A, lda, B, ldb, X, ldx);
    *info = st;
    return st;
}
