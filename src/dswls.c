/*
 * dswls.c -- gchol_dswls_gpu: weighted least squares in double precision by
 * mixed-precision refinement of the normal equations (A D^2 A^T) Y = A D^2 B,
 * in the manner of LAPACK's dsposv:
 *
 *   A_s = (float) A, d_s = (float) d           (overflow: iter -2)
 *   C_s = A_s D_s^2 A_s^T (syrk_diag), L_s = chol(C_s) (spotrf)
 *   R = A (D^2 B), Y = 0
 *   repeat (a first solve, then up to 30 corrections):
 *       Y += (double) solve(L_s, (float) R)
 *       R = A (D^2 (B - A^T Y))                 (double, cuBLAS gemm/gemv)
 *   until every column has ||r||_inf <= eps (sqrt(max(m,n)) - 2) (||C_s||_inf
 *       ||y||_inf + ||A D^2||_inf ||b||_inf)
 *
 * The residual is the normal equations' but is formed through the weighted
 * residual B - A^T Y in n-space (corrected semi-normal equations), so C is
 * never formed in double and each correction reads A twice. The test's
 * second term is the rounding floor of forming A D^2 (B - A^T Y) when the
 * weighted residual is large (an inconsistent system): without it such a
 * system would never pass dsposv's test ||r|| <= eps sqrt(n) ||C|| ||y||.
 * The "- 2" is dsposv's room for the rounding of r itself: a residual formed
 * again by other code differs by a few eps times the same terms.
 *
 * iter and the fallback are dsposv's (see dsposv.c): -1 no workspace, or a
 * non-finite y or r; -2 an overflow of A, d, C_s or R in single precision;
 * -3 spotrf failed; -31 no convergence: 30 corrections, or (unlike dsposv)
 * a correction that did not halve the residual of a column not yet
 * converged, which stops a hopeless refinement after its first correction
 * where dsposv runs all 30. Out of memory for the single-precision work
 * (the workspace, syrk_diag's or spotrf's) is -1, and falls back too.
 * iter < 0 falls back to the double method of gchol_dwls_gpu (wls.c) on a
 * temporary m x m C.
 *
 * With FP16 or BF16 products (the expert form), C_s is formed with TF32
 * products, scaled to a unit diagonal, S = E^2 C_s E^2 (its upper triangle
 * zeroed), and factored by
 * potrf_lowp.c; each solve is then E^2 L^-T L^-1 E^2 (the scaling keeps S
 * and its factor in FP16's range, as in dxposv.c).
 */
#include "host_io.h"
#include "options_ext.h"
#include "potrf_lowp.h"
#include "queue.h"
#include "refine.h"
#include "status.h"
#include "syrk_diag.h"
#include "wls.h"

#include "../kernels/gchol_kernels.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

enum { kItermax = 30 };

static const double one = 1, minus_one = -1, zero = 0;

static int64_t round_up(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

/* The refinement's device workspace, one stream-ordered allocation. */
typedef struct {
    void   *base;
    float  *sA;    int64_t ldsa; /* A in single                           */
    float  *sd;                  /* d in single (NULL when D = I)         */
    float  *se;                  /* FP16 / BF16: C_s's diagonal^(-1/4)    */
    float  *sC;    int64_t ldsc; /* C_s, then its factor                  */
    float  *sR;    int64_t ldsr; /* R in single, then its solution        */
    double *T;     int64_t ldt;  /* D^2 (B - A^T Y), n x nrhs             */
    double *R;     int64_t ldr;  /* A T, m x nrhs                         */
    double *norms;               /* |y|, |r|, |b| per column; |C|, |AD^2| */
    double *red;                 /* the norms' partial sums                */
    int    *flag;                /* overflow of a conversion to single    */
} workspace_t;

static cudaError_t workspace_alloc(workspace_t *w, int64_t m, int64_t n, int64_t nrhs, int has_d,
                                   int lowp, gchol_queue_t q)
{
    w->ldsa = round_up(m, 32);
    w->ldsc = round_up(m, 32);
    w->ldsr = round_up(m, 32);
    w->ldt = round_up(n > 0 ? n : 1, 16);
    w->ldr = round_up(m, 16);
    size_t red = gchol_lansy_inf_work(m), red2 = gchol_row_wabs_max_work(m, n);
    if (red2 > red) red = red2;
    const gchol_part_t parts[] = {
        { .ptr = (void **)&w->sA, .bytes = (size_t)(w->ldsa * n) * 4,
          .rows = m, .ld = w->ldsa, .cols = n, .elsize = 4 },
        { .ptr = (void **)&w->sd, .bytes = has_d ? (size_t)n * 4 : 0 },
        { .ptr = (void **)&w->se, .bytes = lowp ? (size_t)m * 4 : 0 },
        { .ptr = (void **)&w->sC, .bytes = (size_t)(w->ldsc * m) * 4 }, /* cleared whole */
        { .ptr = (void **)&w->sR, .bytes = (size_t)(w->ldsr * nrhs) * 4,
          .rows = m, .ld = w->ldsr, .cols = nrhs, .elsize = 4 },
        { .ptr = (void **)&w->T, .bytes = (size_t)(w->ldt * nrhs) * 8 },
        { .ptr = (void **)&w->R, .bytes = (size_t)(w->ldr * nrhs) * 8 },
        { .ptr = (void **)&w->norms, .bytes = (size_t)(3 * nrhs + 2) * 8 },
        { .ptr = (void **)&w->red, .bytes = red * 8 },
        { .ptr = (void **)&w->flag, .bytes = sizeof(int) },
    };
    return gchol_alloc_parts(&w->base, parts, (int)(sizeof(parts) / sizeof(parts[0])), q);
}

/* R := A (D^2 (B - A^T Y)) (with_y = 0: Y = 0, R := A D^2 B); with_y also
 * puts the column norms of Y and R into w->norms. */
static int64_t residual(const workspace_t *w, int64_t m, int64_t n, int64_t nrhs,
                        const double *dA, int64_t ldda, const double *dd, const double *dB,
                        int64_t lddb, const double *dY, int64_t lddy, int with_y, gchol_queue_t q)
{
    int64_t st = GCHOL_SUCCESS;
    cudaStream_t s = q->stream;
    GCHOL_CUDA(cudaMemcpy2DAsync(w->T, (size_t)w->ldt * 8, dB, (size_t)lddb * 8, (size_t)n * 8,
                                 (size_t)nrhs, cudaMemcpyDeviceToDevice, s));
    if (with_y) {
        if (nrhs == 1)
            GCHOL_BLAS(cublasDgemv_64(q->blas, CUBLAS_OP_T, m, n, &minus_one, dA, ldda, dY, 1, &one,
                                      w->T, 1));
        else
            GCHOL_BLAS(cublasDgemm_64(q->blas, CUBLAS_OP_T, CUBLAS_OP_N, n, nrhs, m, &minus_one, dA,
                                      ldda, dY, lddy, &one, w->T, w->ldt));
    }
    if (dd) GCHOL_CUDA((cudaError_t)gchol_dscale_rows_sq_launch(n, nrhs, dd, w->T, w->ldt, s));
    if (nrhs == 1)
        GCHOL_BLAS(cublasDgemv_64(q->blas, CUBLAS_OP_N, m, n, &one, dA, ldda, w->T, 1, &zero, w->R,
                                  1));
    else
        GCHOL_BLAS(cublasDgemm_64(q->blas, CUBLAS_OP_N, CUBLAS_OP_N, m, nrhs, n, &one, dA, ldda,
                                  w->T, w->ldt, &zero, w->R, w->ldr));
    if (with_y) {
        GCHOL_CUDA((cudaError_t)gchol_dcol_absmax_launch(m, nrhs, dY, lddy, w->norms, s));
        GCHOL_CUDA((cudaError_t)gchol_dcol_absmax_launch(m, nrhs, w->R, w->ldr, w->norms + nrhs, s));
    }
done:
    return st;
}

/* h: |y| (nrhs), |r| (nrhs), |b| (nrhs), |C|, |A D^2|, then the previous
 * step's |r| (nrhs). */
static int column_converged(const double *h, int64_t nrhs, int64_t j, double eps_sqrt)
{
    const double cnorm = h[3 * nrhs], adnorm = h[3 * nrhs + 1];
    const double tol = eps_sqrt * (cnorm * h[j] + adnorm * h[2 * nrhs + j]);
    return h[nrhs + j] <= tol; /* NaN: not converged */
}

static int converged(const double *h, int64_t nrhs, double eps_sqrt)
{
    for (int64_t j = 0; j < nrhs; ++j)
        if (!column_converged(h, nrhs, j, eps_sqrt)) return 0;
    return 1;
}

/* A column not yet converged whose residual did not halve in the last
 * correction (a column converged at the previous step has +Inf there): the
 * single factor is too far from C for the refinement to reach double
 * accuracy in the corrections left (a halving rate needs ~30 of them from
 * single precision's 1e-7 to 1e-16), so it stops there. */
static int stalled(const double *h, int64_t nrhs, double eps_sqrt)
{
    const double *prev = h + 3 * nrhs + 2;
    for (int64_t j = 0; j < nrhs; ++j)
        if (!column_converged(h, nrhs, j, eps_sqrt) && !(h[nrhs + j] <= 0.5 * prev[j])) return 1;
    return 0;
}

/* The refinement. Returns 0 with *iter set (< 0: the caller falls back) or
 * a library error. */
static int64_t refine(int64_t m, int64_t n, int64_t nrhs, const double *dA, int64_t ldda,
                      const double *dd, const double *dB, int64_t lddb, double *dY, int64_t lddy,
                      int64_t *iter, double *h, const gchol_options_t *opts, gchol_queue_t q)
{
    cudaStream_t s = q->stream;
    workspace_t w = { 0 };
    int64_t st = GCHOL_SUCCESS, sinfo = 0;
    int hflag = 0;
    const int products = opts ? opts->products : GCHOL_PRODUCTS_ACCURATE;
    const int lowp = products == GCHOL_PRODUCTS_FP16 || products == GCHOL_PRODUCTS_BF16;
    const int tf32 = products == GCHOL_PRODUCTS_TF32 || lowp; /* lowp: rounds as FP16's */
    /* dsposv's room for the rounding of r itself (dsposv.c): 2 eps off the
     * bound's sqrt(k) eps; k <= 4 does not converge, and falls back */
    const double eps_sqrt = (DBL_EPSILON / 2) * fmax(sqrt((double)(m > n ? m : n)) - 2, 0);
    const cudaError_t ea = workspace_alloc(&w, m, n, nrhs, dd != NULL, lowp, q);
    if (ea != cudaSuccess) return gchol_refine_alloc_failed(ea, iter);
    double *cnorm = w.norms + 3 * nrhs, *adnorm = cnorm + 1;

    /* conversions, and the norms of the data */
    GCHOL_CUDA(cudaMemsetAsync(w.flag, 0, sizeof(int), s));
    GCHOL_CUDA((cudaError_t)gchol_d2s_launch(m, n, dA, ldda, w.sA, w.ldsa, 0, w.flag, s));
    if (dd) GCHOL_CUDA((cudaError_t)gchol_d2s_launch(n, 1, dd, n > 1 ? n : 1, w.sd, n, 0, w.flag, s));
    GCHOL_CUDA((cudaError_t)gchol_drow_wabs_max_launch(m, n, dA, ldda, dd, w.red, adnorm, s));
    GCHOL_CUDA((cudaError_t)gchol_dcol_absmax_launch(n, nrhs, dB, lddb, w.norms + 2 * nrhs, s));

    /* C_s and its factor. cuBLAS strsm's 32-column kernel loads whole
     * diagonal tiles, the unreferenced triangle too: C_s is cleared first so
     * that nothing it reads is undefined (m^2 floats, beside m^2 n flops). */
    GCHOL_CUDA(cudaMemsetAsync(w.sC, 0, (size_t)(w.ldsc * m) * 4, s));
    st = gchol_ssyrk_diag_full('L', m, n, 1, w.sA, w.ldsa, w.sd, 0, w.sC, w.ldsc, tf32, q);
    if (st == GCHOL_ERR_DEVICE_ALLOC) { /* its split partials: fall back, as for spotrf's */
        st = gchol_refine_alloc_failed(cudaErrorMemoryAllocation, iter);
        goto done;
    }
    if (st < 0) goto done;
    GCHOL_CUDA((cudaError_t)gchol_slansy_inf_launch(m, w.sC, w.ldsc, 0, w.red, cnorm, s));
    GCHOL_TRY(gchol_fetch_norms(w.norms, w.flag, 2 * nrhs, nrhs + 2, h, &hflag, s));
    if (hflag || !isfinite(h[3 * nrhs])) { *iter = -2; goto done; }
    if (lowp) {
        int64_t nb = 0, update_leaf = 0;
        int keep_inverse = 0, panel_inverse = 0, lookahead = 0;
        gchol_lowp_plan_for(m, &nb, &keep_inverse, &panel_inverse, &lookahead, &update_leaf);
        const gchol_lowp_plan_t plan = { nb, NULL, 0, lookahead, update_leaf };
        GCHOL_CUDA((cudaError_t)gchol_s_unit_diag_launch(m, w.sC, w.ldsc, w.se, s));
        st = gchol_spotrf_lowp(m, w.sC, w.ldsc, products == GCHOL_PRODUCTS_BF16, &plan, &sinfo, q);
    } else {
        st = gchol_spotrf_expert_gpu('L', m, w.sC, w.ldsc, &sinfo, opts, q);
    }
    if (st == GCHOL_ERR_DEVICE_ALLOC) {
        st = gchol_refine_alloc_failed(cudaErrorMemoryAllocation, iter);
        goto done;
    }
    if (st < 0) goto done;
    if (sinfo > 0) { st = GCHOL_SUCCESS; *iter = -3; goto done; }

    /* R = A D^2 B with Y = 0; then a solve and up to 30 corrections */
    GCHOL_CUDA(cudaMemset2DAsync(dY, (size_t)lddy * 8, 0, (size_t)m * 8, (size_t)nrhs, s));
    GCHOL_TRY(residual(&w, m, n, nrhs, dA, ldda, dd, dB, lddb, dY, lddy, 0, q));
    for (int64_t it = 0; it <= kItermax; ++it) {
        /* the flag is read with the norms: an overflow leaves Y wrong, and
         * the fallback rewrites it */
        GCHOL_CUDA((cudaError_t)gchol_d2s_launch(m, nrhs, w.R, w.ldr, w.sR, w.ldsr, 0, w.flag, s));
        if (lowp) GCHOL_CUDA((cudaError_t)gchol_sscale_rows_sq_launch(m, nrhs, w.se, w.sR, w.ldsr, s));
        GCHOL_TRY(gchol_spotrs_gpu('L', m, nrhs, w.sC, w.ldsc, w.sR, w.ldsr, &sinfo, q));
        if (lowp) GCHOL_CUDA((cudaError_t)gchol_sscale_rows_sq_launch(m, nrhs, w.se, w.sR, w.ldsr, s));
        GCHOL_CUDA((cudaError_t)gchol_add_s_to_d_launch(m, nrhs, w.sR, w.ldsr, dY, lddy, s));
        GCHOL_TRY(residual(&w, m, n, nrhs, dA, ldda, dd, dB, lddb, dY, lddy, 1, q));
        GCHOL_TRY(gchol_fetch_norms(w.norms, w.flag, 0, 2 * nrhs, h, &hflag, s));
        if (hflag) { *iter = -2; goto done; }
        if (gchol_any_non_finite(h, 2 * nrhs)) { *iter = -1; goto done; }
        if (converged(h, nrhs, eps_sqrt)) { *iter = it; goto done; }
        if (it > 0 && stalled(h, nrhs, eps_sqrt)) break;
        /* the previous residuals; a converged column's as +Inf, so that rounding
         * that lifts it back above the test is not taken for a stall */
        for (int64_t j = 0; j < nrhs; ++j)
            h[3 * nrhs + 2 + j] = column_converged(h, nrhs, j, eps_sqrt) ? INFINITY : h[nrhs + j];
    }
    *iter = -(kItermax + 1);
done:
    return gchol_free_parts(w.base, st, s);
}

/* The double fallback on a temporary C: 0, k > 0 or a library error. */
static int64_t fallback(int64_t m, int64_t n, int64_t nrhs, const double *dA, int64_t ldda,
                        const double *dd, const double *dB, int64_t lddb, double *dY,
                        int64_t lddy, gchol_queue_t q)
{
    double *dC = NULL;
    const int64_t lddc = round_up(m, 32);
    int64_t st = GCHOL_SUCCESS;
    cudaError_t e = gchol_queue_malloc(q, (void **)&dC, (size_t)lddc * m * sizeof(double));
    if (e != cudaSuccess) return gchol_from_cuda(e);
    /* cleared, as C_s is: cuBLAS dtrsm loads the unreferenced triangle too */
    e = cudaMemsetAsync(dC, 0, (size_t)lddc * m * sizeof(double), q->stream);
    if (e == cudaSuccess)
        st = gchol_dwls_run(0, 'L', m, n, nrhs, dA, ldda, dd, dB, lddb, dC, lddc, dY, lddy,
                            q);
    else
        st = gchol_from_cuda(e);
    e = cudaFreeAsync(dC, q->stream);
    if (st == GCHOL_SUCCESS) st = gchol_from_cuda(e);
    if (st == GCHOL_SUCCESS) st = gchol_from_cuda(cudaStreamSynchronize(q->stream));
    return st;
}

/* The options of the expert form: gchol_options_valid's, and also the FP16
 * and BF16 products that only this routine takes. */
static int options_valid(const gchol_options_t *opts)
{
    if (opts == NULL) return 1;
    gchol_options_t o = *opts;
    if (o.products == GCHOL_PRODUCTS_FP16 || o.products == GCHOL_PRODUCTS_BF16)
        o.products = GCHOL_PRODUCTS_ACCURATE;
    return gchol_options_valid(&o);
}

/* Arguments 1-12, common to both forms; 0 or -i. */
static int64_t check_args(int64_t m, int64_t n, int64_t nrhs, const double *dA, int64_t ldda,
                          const double *dB, int64_t lddb, const double *dY, int64_t lddy,
                          const int64_t *iter, const int64_t *info)
{
    const int64_t mmin = m > 1 ? m : 1, nmin = n > 1 ? n : 1;
    if (m < 0) return -1;
    if (n < 0) return -2;
    if (nrhs < 0) return -3;
    if (m > 0 && n > 0 && dA == NULL) return -4;
    if (ldda < mmin) return -5;
    if (n > 0 && nrhs > 0 && dB == NULL) return -7;
    if (lddb < nmin) return -8;
    if (m > 0 && nrhs > 0 && dY == NULL) return -9;
    if (lddy < mmin) return -10;
    if (iter == NULL) return -11;
    if (info == NULL) return -12;
    return 0;
}

/* The work of both forms: arguments checked, m and nrhs > 0. */
static int64_t swls_gpu(int64_t m, int64_t n, int64_t nrhs, const double *dA, int64_t ldda,
                        const double *dd, const double *dB, int64_t lddb, double *dY, int64_t lddy,
                        int64_t *iter, const gchol_options_t *opts, gchol_queue_t queue)
{
    int prev = 0;
    int64_t st = GCHOL_SUCCESS;
    double *h = (double *)malloc((size_t)(4 * nrhs + 2) * sizeof(double));
    if (!h) return GCHOL_ERR_HOST_ALLOC;
    if ((st = gchol_queue_enter(queue, &prev)) == GCHOL_SUCCESS) {
        st = refine(m, n, nrhs, dA, ldda, dd, dB, lddb, dY, lddy, iter, h, opts, queue);
        if (st == GCHOL_SUCCESS && *iter < 0)
            st = fallback(m, n, nrhs, dA, ldda, dd, dB, lddb, dY, lddy, queue);
        gchol_queue_leave(prev);
    }
    free(h);
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_dswls_gpu: Y = argmin || D (A^T Y - B) || in double precision, by a
 * single-precision normal-equations Cholesky and double refinement.
 * Synchronous. A, d and B are not written.
 *   m (1) >= 0, n (2) >= 0, nrhs (3) >= 0, dA (4) device m x n,
 *   ldda (5) >= max(1,m), dd (6) device n entries of D or NULL (D = I),
 *   dB (7) device n x nrhs, lddb (8) >= max(1,n), dY (9) device m x nrhs,
 *   receives Y (must not overlap the inputs), lddy (10) >= max(1,m),
 *   iter (11) (see above; 0 when m = 0 or nrhs = 0), info (12) 0, -i, k > 0
 *   (the fallback's double factorization found the leading minor of order k
 *   of A D^2 A^T not positive definite; Y then holds no solution) or a
 *   library error (<= -100), queue (13).
 * -------------------------------------------------------------------------- */
int64_t gchol_dswls_gpu(int64_t m, int64_t n, int64_t nrhs, const double *dA, int64_t ldda,
                        const double *dd, const double *dB, int64_t lddb, double *dY,
                        int64_t lddy, int64_t *iter, int64_t *info, gchol_queue_t queue)
{
    int64_t st = check_args(m, n, nrhs, dA, ldda, dB, lddb, dY, lddy, iter, info);
    if (st == 0 && queue == NULL) st = -13;
    if (iter) *iter = 0;
    if (st == 0 && m > 0 && nrhs > 0)
        st = swls_gpu(m, n, nrhs, dA, ldda, dd, dB, lddb, dY, lddy, iter, NULL, queue);
    if (info) *info = st;
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_dswls_expert_gpu: the same with options: arguments 1-12 as above,
 * opts (13) NULL for defaults (trace must be NULL), queue (14).
 * opts->products = GCHOL_PRODUCTS_TF32 forms C_s with one TF32 product per
 * multiply (inputs rounded to 11 significant bits) and factors it the same
 * way: for well-conditioned A D, where the refinement still converges.
 * GCHOL_PRODUCTS_FP16 or _BF16 forms C_s so and factors it, scaled to a unit
 * diagonal, with FP16 or BF16 operands and FP32 sums: faster still, for
 * cond(A D)^2 well below 2^11 (FP16) or 2^8 (BF16).
 * -------------------------------------------------------------------------- */
int64_t gchol_dswls_expert_gpu(int64_t m, int64_t n, int64_t nrhs, const double *dA,
                               int64_t ldda, const double *dd, const double *dB, int64_t lddb,
                               double *dY, int64_t lddy, int64_t *iter, int64_t *info,
                               const gchol_options_t *opts, gchol_queue_t queue)
{
    int64_t st = check_args(m, n, nrhs, dA, ldda, dB, lddb, dY, lddy, iter, info);
    if (st == 0 && (!options_valid(opts) || (opts && opts->trace))) st = -13;
    else if (st == 0 && queue == NULL) st = -14;
    if (iter) *iter = 0;
    if (st == 0 && m > 0 && nrhs > 0)
        st = swls_gpu(m, n, nrhs, dA, ldda, dd, dB, lddb, dY, lddy, iter, opts, queue);
    if (info) *info = st;
    return st;
}

/* ---- the host-memory form: A, d and B up, the device form, Y down -------- */
typedef struct {
    int64_t  m, n, nrhs;
    size_t   aoff, doff, boff, yoff;
    int      has_d;
    int64_t *iter;
} host_dswls_t;

static int64_t host_dswls_job(gchol_queue_t q, char *dbase, void *ctx, int *download)
{
    const host_dswls_t *c = (const host_dswls_t *)ctx;
    (void)download; /* gchol_host_call copies Y back only when this returns 0 */
    return swls_gpu(c->m, c->n, c->nrhs, (const double *)(dbase + c->aoff), c->m,
                    c->has_d ? (const double *)(dbase + c->doff) : NULL,
                    (const double *)(dbase + c->boff), c->n > 1 ? c->n : 1,
                    (double *)(dbase + c->yoff), c->m, c->iter, NULL, q);
}

/* -----------------------------------------------------------------------------
 * gchol_dswls: gchol_dswls_gpu with A, d, B and Y in host memory (pinned or
 * pageable), on the library-owned queue; synchronous. A, d and B go up whole
 * into the queue's device buffer (unlike gchol_dwls, A is not streamed: the
 * refinement reads A in double at every correction, so A, B, Y and the
 * single-precision work must fit on the device), then the device form runs,
 * and Y (its m x nrhs block only) comes back when info = 0. A, d and B are
 * not written.
 *   m (1), n (2), nrhs (3), A (4) host m x n, lda (5) >= max(1,m), d (6) host
 *   n entries or NULL (D = I), B (7) host n x nrhs, ldb (8) >= max(1,n),
 *   Y (9) host m x nrhs, ldy (10) >= max(1,m), iter (11), info (12): as
 *   gchol_dswls_gpu's. info = k > 0 (after the fallback): Y is not written.
 * -------------------------------------------------------------------------- */
int64_t gchol_dswls(int64_t m, int64_t n, int64_t nrhs, const double *A, int64_t lda,
                    const double *d, const double *B, int64_t ldb, double *Y, int64_t ldy,
                    int64_t *iter, int64_t *info)
{
    int64_t st = check_args(m, n, nrhs, A, lda, B, ldb, Y, ldy, iter, info);
    if (iter) *iter = 0;
    if (st != 0 || m == 0 || nrhs == 0) {
        if (info) *info = st;
        return st;
    }
    const size_t w = sizeof(double);
    host_dswls_t job = { .m = m, .n = n, .nrhs = nrhs, .has_d = d != NULL && n > 0, .iter = iter };
    /* A (ld m), d, B (ld max(1, n)), Y (ld m), each on 256 bytes; sizes
     * beyond any memory must not wrap */
    const int64_t ldb_dev = n > 1 ? n : 1;
    int64_t elems = 0, t = 0;
    if (__builtin_mul_overflow(m, n, &elems) || __builtin_mul_overflow(ldb_dev, nrhs, &t) ||
        __builtin_add_overflow(elems, t, &elems) || __builtin_mul_overflow(m, nrhs, &t) ||
        __builtin_add_overflow(elems, t, &elems) || elems > INT64_MAX / 16) {
        *info = GCHOL_ERR_DEVICE_ALLOC;
        return *info;
    }
    job.aoff = 0;
    job.doff = job.aoff + (size_t)round_up(m * n, 32) * w;
    job.boff = job.doff + (size_t)round_up(n, 32) * w;
    job.yoff = job.boff + (size_t)round_up(ldb_dev * nrhs, 32) * w;
    const size_t bytes = job.yoff + (size_t)(m * nrhs) * w;
    gchol_host_array_t arrays[4];
    int count = 0;
    if (n > 0) {
        arrays[count++] = (gchol_host_array_t){ .up = A, .ld = (size_t)lda * w,
                                                .width = (size_t)m * w, .offset = job.aoff,
                                                .cols = n };
        if (job.has_d)
            arrays[count++] = (gchol_host_array_t){ .up = d, .ld = (size_t)n * w,
                                                    .width = (size_t)n * w, .offset = job.doff,
                                                    .cols = 1 };
        arrays[count++] = (gchol_host_array_t){ .up = B, .ld = (size_t)ldb * w,
                                                .width = (size_t)n * w, .offset = job.boff,
                                                .cols = nrhs };
    }
    arrays[count++] = (gchol_host_array_t){ .down = Y, .ld = (size_t)ldy * w,
                                            .width = (size_t)m * w, .offset = job.yoff,
                                            .cols = nrhs };
    st = gchol_host_call(arrays, count, bytes, host_dswls_job, &job);
    *info = st;
    return st;
}
