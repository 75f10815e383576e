/*
 * refine_engine.c -- the mixed-precision refinement engine (refine_engine.h):
 * classical iterative refinement and GMRES-IR over an operations table.
 * Host logic only; the ops do the arithmetic wherever the vectors live.
 */
#include "refine_engine.h"

#include "gchol.h"

#include <float.h>
#include <math.h>
#include <string.h>

enum { kItermaxIR = 30, kItermaxGmres = 10, kStallsMax = 4, kSlowMax = 3 };

static const double kTauDefault = 1e-6;

/* Run an op; a failure returns its status from the calling function. */
#define REFINE_TRY(call)                                      \
    do { const int64_t t_ = (call); if (t_ != 0) return t_; } while (0)

size_t gchol_refine_host_len(int64_t m)
{
    /* H (m+1) x m, cs m, sn m, g m+1, y m */
    return m > 0 ? (size_t)((m + 1) * m + 4 * m + 1) : 0;
}

typedef enum { kRefining, kConverged, kAtRoundingLevel } progress_t;

/* dsposv.c's test on one column; a NaN is never converged. */
static progress_t progress(double rn, double xn, double anrm, double bnorm, int64_t n)
{
    const double eps = DBL_EPSILON / 2, ulp_r = eps * (bnorm + anrm * xn);
    if (rn <= sqrt((double)n) * anrm * eps * xn - 2 * ulp_r) return kConverged;
    return rn <= 4 * ulp_r ? kAtRoundingLevel : kRefining;
}

/* r := b - A x and its norms into nrm (one read-back), noted in res. */
static int64_t true_residual(const gchol_refine_ops_t *ops, const double *b, const double *x,
                             double *r, double *nrm, double anrm, gchol_refine_result_t *res)
{
    const double eps = DBL_EPSILON / 2;
    ++res->readbacks;
    REFINE_TRY(ops->residual(ops->ctx, b, x, r, nrm));
    res->rnorm = nrm[0];
    res->xnorm = nrm[1];
    res->berr = nrm[0] == 0 ? 0 : nrm[0] / (anrm * nrm[1] * eps);
    return 0;
}

static int64_t stop(gchol_refine_result_t *res, int64_t iter, gchol_refine_stop_t why)
{
    res->iter = iter;
    res->stop = (int)why;
    return 0;
}

/* Plane rotation (c, s) with [c s; -s c] [a; b] = [rho; 0]. */
static void givens(double a, double b, double *c, double *s)
{
    const double rho = hypot(a, b);
    if (rho == 0) { *c = 1; *s = 0; return; }
    *c = a / rho;
    *s = b / rho;
}

/* One GMRES-IR correction: FGMRES from d = 0 on A d = r, x += d. r holds
 * the residual with ||r||_2 = beta > 0. *nonfinite set when a Krylov
 * coefficient is NaN or Inf (x then unchanged). */
static int64_t gmres_step(const gchol_refine_ops_t *ops, const gchol_refine_work_t *w,
                          int64_t m, double tau, double beta, double *x, int *nonfinite,
                          gchol_refine_result_t *res)
{
    const int64_t ldh = m + 1;
    double *H = w->host, *cs = H + ldh * m, *sn = cs + m, *g = sn + m, *y = g + m + 1;
    int64_t k = 0; /* columns of H in the least-squares problem */
    *nonfinite = 0;
    REFINE_TRY(ops->scal_copy(ops->ctx, 1 / beta, w->r, w->V));
    g[0] = beta;
    for (int64_t j = 0; j < m; ++j) {
        double *vj = w->V + j * w->ldv, *vn = w->V + (j + 1) * w->ldv, *zj = w->Z + j * w->ldz;
        double *h = H + j * ldh;
        ++res->preconds;
        REFINE_TRY(ops->precond(ops->ctx, vj, zj));
        REFINE_TRY(ops->matvec(ops->ctx, zj, vn));
        ++res->inner;
        ++res->readbacks;
        REFINE_TRY(ops->orthonormalize(ops->ctx, w->V, w->ldv, j, vn, h));
        for (int64_t i = 0; i <= j + 1; ++i)
            if (!isfinite(h[i])) { *nonfinite = 1; return 0; }
        /* earlier rotations, then the one that zeroes h[j+1] */
        for (int64_t i = 0; i < j; ++i) {
            const double t = cs[i] * h[i] + sn[i] * h[i + 1];
            h[i + 1] = -sn[i] * h[i] + cs[i] * h[i + 1];
            h[i] = t;
        }
        if (hypot(h[j], h[j + 1]) == 0) break; /* A Z(:,j) adds nothing: drop it */
        givens(h[j], h[j + 1], &cs[j], &sn[j]);
        h[j] = cs[j] * h[j] + sn[j] * h[j + 1];
        h[j + 1] = 0;
        g[j + 1] = -sn[j] * g[j];
        g[j] = cs[j] * g[j];
        k = j + 1;
        /* |g[j+1]| is ||r - A Z y||_2 in exact arithmetic; 0 on breakdown */
        if (fabs(g[j + 1]) <= tau * beta) break;
    }
    if (k == 0) return 0;
    for (int64_t i = k - 1; i >= 0; --i) { /* y := H(0:k,0:k)^{-1} g */
        double t = g[i];
        for (int64_t l = i + 1; l < k; ++l) t -= H[i + l * ldh] * y[l];
        y[i] = t / H[i + i * ldh];
    }
    for (int64_t i = 0; i < k; ++i)
        if (!isfinite(y[i])) { *nonfinite = 1; return 0; }
    return ops->gemv_update(ops->ctx, w->Z, w->ldz, k - 1, y, x);
}

/* The ops the method calls are there. */
static int ops_complete(const gchol_refine_ops_t *o, int method)
{
    if (!o || !o->residual || !o->precond || o->n < 0) return 0;
    const int gmres_ops = o->matvec && o->orthonormalize && o->scal_copy && o->gemv_update;
    return method == GCHOL_REFINE_IR ? !!o->axpy
         : method == GCHOL_REFINE_GMRES ? gmres_ops : gmres_ops && o->axpy;
}

int64_t gchol_refine_solve(const gchol_refine_ops_t *ops, const gchol_refine_opts_t *opts,
                           const gchol_refine_work_t *work, const double *b, double *x,
                           double anrm, double bnorm, gchol_refine_result_t *res)
{
    static const gchol_refine_opts_t defaults = { 0 };
    if (!res) return GCHOL_ERR_INVALID_VALUE;
    memset(res, 0, sizeof *res);
    if (!opts) opts = &defaults;
    const int method = opts->method, gmres = method != GCHOL_REFINE_IR; /* GMRES may run */
    if ((method != GCHOL_REFINE_IR && method != GCHOL_REFINE_GMRES && method != GCHOL_REFINE_AUTO) ||
        opts->max_iter < 0 || opts->m < 0 || !(opts->tau >= 0 && opts->tau < 1) ||
        opts->budget < 0 ||
        !ops_complete(ops, method) || !work)
        return GCHOL_ERR_INVALID_VALUE;
    const int64_t n = ops->n;
    if (n == 0) return 0; /* iter 0: nothing to refine */
    if (!b || !x || !work->r || anrm < 0 || bnorm < 0) return GCHOL_ERR_INVALID_VALUE;
    int64_t m = 0;
    if (gmres) {
        if (!work->V || !work->Z || work->m < 1 || work->ldv < n || work->ldz < n || !work->host ||
            work->host_len < gchol_refine_host_len(work->m) || opts->m > work->m)
            return GCHOL_ERR_INVALID_VALUE;
        m = opts->m ? opts->m : work->m < GCHOL_REFINE_DEFAULT_M ? work->m : GCHOL_REFINE_DEFAULT_M;
        if (m > n) m = n; /* n orthonormal columns at most */
    }
    if (method != GCHOL_REFINE_GMRES && !work->z) return GCHOL_ERR_INVALID_VALUE;
    const int64_t max_iter = opts->max_iter ? opts->max_iter
                           : method == GCHOL_REFINE_GMRES ? kItermaxGmres : kItermaxIR;
    int use_gmres = method == GCHOL_REFINE_GMRES;
    const double tau = opts->tau > 0 ? opts->tau : kTauDefault;
    double nrm[3], rprev = 0; /* ||r||_inf, ||x||_inf, ||r||_2 */

    if (!isfinite(anrm) || !isfinite(bnorm)) return stop(res, -1, GCHOL_REFINE_NONFINITE);
    if (!opts->x0_given) {
        ++res->preconds;
        REFINE_TRY(ops->precond(ops->ctx, b, x));
    }
    REFINE_TRY(true_residual(ops, b, x, work->r, nrm, anrm, res));
    for (int64_t stalls = 0, slow = 0;;) {
        if (!isfinite(nrm[0]) || !isfinite(nrm[1]) || !isfinite(nrm[2]))
            return stop(res, -1, GCHOL_REFINE_NONFINITE);
        const progress_t p = progress(nrm[0], nrm[1], anrm, bnorm, n);
        if (p == kConverged) return stop(res, res->steps, GCHOL_REFINE_CONVERGED);
        if (res->steps > 0) {
            /* at the rounding level no correction lowers r, but a few more
             * may meet the bound (dsposv.c); elsewhere each must halve r */
            if (p == kAtRoundingLevel) {
                slow = 0;
                if (++stalls == kStallsMax)
                    return stop(res, GCHOL_REFINE_ITER_FAILED, GCHOL_REFINE_ROUNDING);
            } else {
                const int halved = nrm[0] <= rprev / 2;
                stalls = 0;
                if (!halved && method == GCHOL_REFINE_AUTO && !use_gmres) {
                    use_gmres = 1; /* IR is too slow here: GMRES-IR from this x */
                } else {
                    slow = halved ? 0 : slow + 1;
                    if (slow == kSlowMax)
                        return stop(res, GCHOL_REFINE_ITER_FAILED, GCHOL_REFINE_STAGNATION);
                }
            }
        }
        if (res->steps == max_iter)
            return stop(res, GCHOL_REFINE_ITER_FAILED, GCHOL_REFINE_MAX_ITER);
        const int64_t left = opts->budget ? opts->budget - res->preconds : m + 1;
        if (left <= 0) return stop(res, GCHOL_REFINE_ITER_FAILED, GCHOL_REFINE_BUDGET);
        rprev = nrm[0];
        if (nrm[2] == 0) {
            /* r = 0 (below a negative bound, tiny n): nothing to correct */
        } else if (use_gmres) {
            int nonfinite = 0;
            REFINE_TRY(gmres_step(ops, work, left < m ? left : m, tau, nrm[2], x, &nonfinite, res));
            if (nonfinite) return stop(res, -1, GCHOL_REFINE_NONFINITE);
        } else {
            ++res->preconds;
            REFINE_TRY(ops->precond(ops->ctx, work->r, work->z));
            REFINE_TRY(ops->axpy(ops->ctx, 1, work->z, x));
        }
        ++res->steps;
        REFINE_TRY(true_residual(ops, b, x, work->r, nrm, anrm, res));
    }
}
