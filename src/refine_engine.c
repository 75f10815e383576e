/*
 * refine_engine.c -- the mixed-precision refinement engine (refine_engine.h):
 * classical iterative refinement and GMRES-IR over an operations table.
 * Host logic only; the ops do the arithmetic wherever the vectors live.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "refine_engine.h"

#include "gchol.h"

#include <float.h>
#include <math.h>
#include <string.h>
#include <time.h>

enum { kItermaxIR = 30, kItermaxGmres = 10, kStallsMax = 4, kSlowMax = 3, kRateFrom = 4 };

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

/* Under a budget of `avail` more inner iterations, whether GMRES's rate so
 * far (its residual down to rho of where it started after k iterations)
 * needs more than twice what is left to reach rho_req: convergence is
 * often faster later than at first, hence the factor. */
static int rate_too_slow(double rho, int64_t k, double rho_req, int64_t avail)
{
    if (k < kRateFrom || !(rho > rho_req) || rho_req >= 1) return 0;
    if (!(rho < 1)) return 1;
    const double need = (double)k * log(rho_req) / log(rho);
    return need > (double)k + 2 * ((double)avail - (double)k); /* avail may be INT64_MAX */
}

/* One GMRES-IR correction: FGMRES from d = 0 on A d = r, x += d. r holds
 * the residual with ||r||_2 = beta > 0. *nonfinite set when a Krylov
 * coefficient is NaN or Inf (x then unchanged). With avail > 0 (a budget),
 * *too_slow is set, and x left unchanged, once the residual's fall so far
 * cannot reach rho_req beta within the avail inner iterations the budget
 * still allows (rate_too_slow). */
static int64_t gmres_step(const gchol_refine_ops_t *ops, const gchol_refine_work_t *w,
                          int64_t m, double tau, double beta, double rho_req, int64_t avail,
                          double *x, int *nonfinite, int *too_slow, gchol_refine_result_t *res)
{
    const int64_t ldh = m + 1;
    double *H = w->host, *cs = H + ldh * m, *sn = cs + m, *g = sn + m, *y = g + m + 1;
    int64_t k = 0; /* columns of H in the least-squares problem */
    *nonfinite = 0;
    *too_slow = 0;
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
        if (avail > 0 && rate_too_slow(fabs(g[j + 1]) / beta, k, rho_req, avail)) {
            *too_slow = 1;
            return 0;
        }
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

/* What every column's refinement shares: the options resolved. */
typedef struct {
    int     method;
    int64_t n, m, max_iter, budget;
    double  tau, anrm;
    double  deadline, t0; /* when to stop (0: never); the call's start */
} config_t;

double gchol_refine_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Whether the refinement runs under a limit (budget or deadline). */
static int limited(const config_t *c) { return c->budget > 0 || c->deadline > 0; }

/* The preconditioner applications that the budget and the time left still
 * allow after `used` of them (the time's at their mean rate so far in this
 * call; none used yet: any number while time is left); without a limit,
 * one GMRES cycle's m + 1. */
static int64_t applications_left(const config_t *c, int64_t used)
{
    if (!limited(c)) return c->m + 1;
    int64_t left = c->budget ? c->budget - used : INT64_MAX;
    if (c->deadline > 0) {
        const double now = gchol_refine_clock(), t_left = c->deadline - now;
        if (!(t_left > 0)) return 0;
        if (used > 0 && now > c->t0) {
            const double fit = t_left / ((now - c->t0) / (double)used);
            if (fit < (double)left) left = (int64_t)fit;
        }
    }
    return left;
}

/* Checks the options, ops and workspace common to both entry points; 0 or
 * GCHOL_ERR_INVALID_VALUE. */
static int64_t configure(const gchol_refine_ops_t *ops, const gchol_refine_opts_t *opts,
                         const gchol_refine_work_t *work, double anrm, config_t *c)
{
    const int method = opts->method, gmres = method != GCHOL_REFINE_IR; /* GMRES may run */
    if ((method != GCHOL_REFINE_IR && method != GCHOL_REFINE_GMRES && method != GCHOL_REFINE_AUTO) ||
        opts->max_iter < 0 || opts->m < 0 || !(opts->tau >= 0 && opts->tau < 1) ||
        opts->budget < 0 || !(opts->deadline >= 0 && isfinite(opts->deadline)) ||
        !ops_complete(ops, method) || !work)
        return GCHOL_ERR_INVALID_VALUE;
    c->method = method;
    c->n = ops->n;
    c->m = 0;
    c->anrm = anrm;
    if (c->n == 0) return 0;
    if (!work->r || anrm < 0) return GCHOL_ERR_INVALID_VALUE;
    if (gmres) {
        if (!work->V || !work->Z || work->m < 1 || work->ldv < c->n || work->ldz < c->n ||
            !work->host || work->host_len < gchol_refine_host_len(work->m) || opts->m > work->m)
            return GCHOL_ERR_INVALID_VALUE;
        c->m = opts->m ? opts->m : work->m < GCHOL_REFINE_DEFAULT_M ? work->m : GCHOL_REFINE_DEFAULT_M;
        if (c->m > c->n) c->m = c->n; /* n orthonormal columns at most */
    }
    if (method != GCHOL_REFINE_GMRES && !work->z) return GCHOL_ERR_INVALID_VALUE;
    c->max_iter = opts->max_iter ? opts->max_iter
                : method == GCHOL_REFINE_GMRES ? kItermaxGmres : kItermaxIR;
    c->budget = opts->budget;
    c->deadline = opts->deadline;
    c->t0 = gchol_refine_clock();
    c->tau = opts->tau > 0 ? opts->tau : kTauDefault;
    return 0;
}

/* One column's state between its true residuals. */
typedef struct {
    int64_t stalls, slow;
    double  rprev, bnorm;
    int     use_gmres;
} column_t;

/* After a true residual with norms nrm (||r||_inf, ||x||_inf, ||r||_2): 1
 * when the column stops (res's iter and stop set), else 0 with *left the
 * preconditioner applications the next correction may use. */
static int decide(const config_t *c, column_t *col, const double *nrm, gchol_refine_result_t *res,
                  int64_t *left)
{
    if (!isfinite(nrm[0]) || !isfinite(nrm[1]) || !isfinite(nrm[2]))
        return stop(res, -1, GCHOL_REFINE_NONFINITE), 1;
    const progress_t p = progress(nrm[0], nrm[1], c->anrm, col->bnorm, c->n);
    if (p == kConverged) return stop(res, res->steps, GCHOL_REFINE_CONVERGED), 1;
    if (res->steps > 0) {
        /* at the rounding level no correction lowers r, but a few more
         * may meet the bound (dsposv.c); elsewhere each must halve r */
        if (p == kAtRoundingLevel) {
            col->slow = 0;
            if (++col->stalls == kStallsMax)
                return stop(res, GCHOL_REFINE_ITER_FAILED, GCHOL_REFINE_ROUNDING), 1;
        } else {
            const int halved = nrm[0] <= col->rprev / 2;
            col->stalls = 0;
            if (!halved && c->method == GCHOL_REFINE_AUTO && !col->use_gmres) {
                col->use_gmres = 1; /* IR is too slow here: GMRES-IR from this x */
            } else {
                col->slow = halved ? 0 : col->slow + 1;
                if (col->slow == kSlowMax)
                    return stop(res, GCHOL_REFINE_ITER_FAILED, GCHOL_REFINE_STAGNATION), 1;
            }
        }
    }
    if (res->steps == c->max_iter)
        return stop(res, GCHOL_REFINE_ITER_FAILED, GCHOL_REFINE_MAX_ITER), 1;
    *left = applications_left(c, res->preconds);
    if (*left <= 0) return stop(res, GCHOL_REFINE_ITER_FAILED, GCHOL_REFINE_BUDGET), 1;
    col->rprev = nrm[0];
    return 0;
}

/* Refines one column from x (x0 already there) until it stops. resume: the
 * column comes from the block refinement, which has decided its next
 * correction (GMRES-IR from this x): r is formed again and corrected at
 * once. */
static int64_t refine_column(const gchol_refine_ops_t *ops, const config_t *c,
                             const gchol_refine_work_t *work, const double *b, double *x,
                             column_t *col, int resume, gchol_refine_result_t *res)
{
    double nrm[3]; /* ||r||_inf, ||x||_inf, ||r||_2 */
    int64_t left = 0;
    REFINE_TRY(true_residual(ops, b, x, work->r, nrm, c->anrm, res));
    for (;;) {
        if (resume) {
            resume = 0;
            left = applications_left(c, res->preconds);
            if (left <= 0) return stop(res, GCHOL_REFINE_ITER_FAILED, GCHOL_REFINE_BUDGET);
        } else if (decide(c, col, nrm, res, &left)) {
            return 0;
        }
        if (nrm[2] == 0) {
            /* r = 0 (below a negative bound, tiny n): nothing to correct */
        } else if (col->use_gmres) {
            int nonfinite = 0, too_slow = 0;
            /* the fall in ||r||_2 that the stopping test needs at least:
             * sqrt(n) eps anrm ||x||_inf, times sqrt(n) from ||r||_inf >=
             * ||r||_2 / sqrt(n) */
            const double rho_req = (double)c->n * c->anrm * (DBL_EPSILON / 2) * nrm[1] / nrm[2];
            REFINE_TRY(gmres_step(ops, work, left < c->m ? left : c->m, c->tau, nrm[2], rho_req,
                                  limited(c) ? left : 0, x, &nonfinite, &too_slow, res));
            if (nonfinite) return stop(res, -1, GCHOL_REFINE_NONFINITE);
            if (too_slow) return stop(res, GCHOL_REFINE_ITER_FAILED, GCHOL_REFINE_SLOW);
        } else {
            ++res->preconds;
            REFINE_TRY(ops->precond(ops->ctx, work->r, work->z));
            REFINE_TRY(ops->axpy(ops->ctx, 1, work->z, x));
        }
        ++res->steps;
        REFINE_TRY(true_residual(ops, b, x, work->r, nrm, c->anrm, res));
    }
}

int64_t gchol_refine_solve(const gchol_refine_ops_t *ops, const gchol_refine_opts_t *opts,
                           const gchol_refine_work_t *work, const double *b, double *x,
                           double anrm, double bnorm, gchol_refine_result_t *res)
{
    static const gchol_refine_opts_t defaults = { 0 };
    if (!res) return GCHOL_ERR_INVALID_VALUE;
    memset(res, 0, sizeof *res);
    if (!opts) opts = &defaults;
    config_t c;
    REFINE_TRY(configure(ops, opts, work, anrm, &c));
    if (c.n == 0) return 0; /* iter 0: nothing to refine */
    if (!b || !x || bnorm < 0) return GCHOL_ERR_INVALID_VALUE;
    if (!isfinite(anrm) || !isfinite(bnorm)) return stop(res, -1, GCHOL_REFINE_NONFINITE);
    column_t col = { 0, 0, 0, bnorm, c.method == GCHOL_REFINE_GMRES };
    if (!opts->x0_given) {
        ++res->preconds;
        REFINE_TRY(ops->precond(ops->ctx, b, x));
    }
    return refine_column(ops, &c, work, b, x, &col, 0, res);
}

int64_t gchol_refine_solve_block(const gchol_refine_ops_t *ops,
                                 const gchol_refine_block_ops_t *bops,
                                 const gchol_refine_opts_t *opts, const gchol_refine_work_t *work,
                                 const gchol_refine_block_work_t *bw, const double *B, int64_t ldb,
                                 double *X, int64_t ldx, int64_t ncols, double anrm,
                                 const double *bnorm, gchol_refine_result_t *res,
                                 int64_t *block_readbacks)
{
    static const gchol_refine_opts_t defaults = { 0 };
    enum { kActive, kStopped, kToGmres };
    if (!res || !block_readbacks || ncols < 0) return GCHOL_ERR_INVALID_VALUE;
    *block_readbacks = 0;
    for (int64_t j = 0; j < ncols; ++j) memset(&res[j], 0, sizeof res[j]);
    if (!opts) opts = &defaults;
    config_t c;
    REFINE_TRY(configure(ops, opts, work, anrm, &c));
    if (c.n == 0 || ncols == 0) return 0;
    if (!bops || !bops->residual || !bops->precond || !bw || !bw->R || !bw->Z || !bw->host ||
        !bw->state || bw->ldr < c.n || bw->ldz < c.n || bw->ncols < ncols || !B || !X ||
        ldb < c.n || ldx < c.n || !bnorm)
        return GCHOL_ERR_INVALID_VALUE;
    for (int64_t j = 0; j < ncols; ++j)
        if (bnorm[j] < 0) return GCHOL_ERR_INVALID_VALUE;
    /* GMRES-IR from the start: each column on its own */
    if (c.method == GCHOL_REFINE_GMRES) {
        for (int64_t j = 0; j < ncols; ++j)
            REFINE_TRY(gchol_refine_solve(ops, opts, work, B + j * ldb, X + j * ldx, anrm, bnorm[j],
                                          &res[j]));
        return 0;
    }
    column_t *col = bw->state;
    int *phase = (int *)(col + ncols);
    int64_t active = 0;
    for (int64_t j = 0; j < ncols; ++j) {
        col[j] = (column_t){ 0, 0, 0, bnorm[j], 0 };
        phase[j] = kActive;
        if (!isfinite(anrm) || !isfinite(bnorm[j])) {
            stop(&res[j], -1, GCHOL_REFINE_NONFINITE);
            phase[j] = kStopped;
        }
        active += phase[j] == kActive;
    }
    if (active == 0) return 0;
    if (!opts->x0_given) {
        REFINE_TRY(bops->precond(ops->ctx, B, ldb, X, ldx, ncols));
        for (int64_t j = 0; j < ncols; ++j) res[j].preconds += phase[j] == kActive;
    }
    /* IR on every column at once, until each has stopped or turns to
     * GMRES-IR */
    for (;;) {
        ++*block_readbacks;
        REFINE_TRY(bops->residual(ops->ctx, B, ldb, X, ldx, bw->R, bw->ldr, ncols, bw->host));
        active = 0;
        for (int64_t j = 0; j < ncols; ++j) {
            if (phase[j] != kActive) continue;
            const double rn = bw->host[j], xn = bw->host[ncols + j];
            const double nrm[3] = { rn, xn, rn }; /* the 2-norm only for its zero and finiteness */
            const double eps = DBL_EPSILON / 2;
            res[j].rnorm = rn;
            res[j].xnorm = xn;
            res[j].berr = rn == 0 ? 0 : rn / (anrm * xn * eps);
            int64_t left = 0;
            if (decide(&c, &col[j], nrm, &res[j], &left)) {
                phase[j] = kStopped;
            } else if (col[j].use_gmres) {
                phase[j] = kToGmres;
            } else {
                ++active;
            }
        }
        if (active == 0) break;
        REFINE_TRY(bops->precond(ops->ctx, bw->R, bw->ldr, bw->Z, bw->ldz, ncols));
        for (int64_t j = 0; j < ncols; ++j) {
            if (phase[j] != kActive) continue;
            if (bw->host[j] != 0) { /* r = 0: nothing to correct, as alone */
                ++res[j].preconds;
                REFINE_TRY(ops->axpy(ops->ctx, 1, bw->Z + j * bw->ldz, X + j * ldx));
            }
            ++res[j].steps;
        }
    }
    for (int64_t j = 0; j < ncols; ++j)
        if (phase[j] == kToGmres)
            REFINE_TRY(refine_column(ops, &c, work, B + j * ldb, X + j * ldx, &col[j], 1, &res[j]));
    return 0;
}

size_t gchol_refine_block_state_bytes(int64_t ncols)
{
    return ncols > 0 ? (size_t)ncols * (sizeof(column_t) + sizeof(int)) : 0;
}
