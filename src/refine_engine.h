/*
 * refine_engine.h -- a portable mixed-precision refinement engine for SPD
 * solves A x = b (refine_engine.c). Not installed.
 *
 * Plain C11, no CUDA: the engine drives the arithmetic through an operations
 * table, so the same code refines on the GPU (ops on device pointers) and on
 * the CPU (ops on host arrays). Every vector is an opaque pointer that the
 * engine passes to the ops and offsets by whole columns (V + j * ldv), but
 * never dereferences. Scalars cross from the ops to the host only where an
 * op's contract says "read-back"; the engine counts those calls.
 *
 * M = L L^T is the caller's low-precision factor of A (FP16, BF16, TF32,
 * FP32, ...); A, b, x, residuals and the Krylov basis are double.
 *
 * Two refinements, one right-hand side per call:
 *   GCHOL_REFINE_IR     x0 = M^{-1} b; repeat: r = b - A x, stop by the test
 *                       below, x += M^{-1} r.
 *   GCHOL_REFINE_AUTO   IR, switching to GMRES-IR at its first correction
 *                       that does not halve ||r||_inf.
 *   GCHOL_REFINE_GMRES  GMRES-IR (Carson & Higham): each step solves A d = r
 *                       by FGMRES in double, right-preconditioned by M
 *                       (Z = M^{-1} V kept, so M may vary), to ||r - A d||_2
 *                       <= tau ||r||_2 within m iterations; x += d, and r is
 *                       formed again by `residual`. The refinement step is
 *                       FGMRES's restart: each cycle starts from the true
 *                       residual.
 *
 * Stopping test (dsposv.c's), after each true residual, eps = 2^-53:
 *   converged       ||r||_inf <= eps (sqrt(n) anrm ||x||_inf
 *                                     - 2 (||b||_inf + anrm ||x||_inf));
 *   rounding level  ||r||_inf <= 4 eps (||b||_inf + anrm ||x||_inf): for
 *                   4 corrections in a row -> iter -31;
 *   stagnation      a correction that does not halve ||r||_inf (away from
 *                   the rounding level), 3 in a row -> iter -31: IR that
 *                   diverges (kappa u_f > 1) or GMRES that cannot reach tau;
 *   max_iter        corrections without convergence -> iter -31;
 *   budget          the preconditioner applied `budget` times, or as
 *                   many as the time to `deadline` holds, without
 *                   convergence (a GMRES cycle is cut short to fit) ->
 *                   iter -31; and under a budget, a GMRES cycle whose
 *                   residual, after 4 or more inner iterations, falls too
 *                   slowly to meet the test (at its rate so far) within
 *                   twice the iterations left -> iter -31 at once;
 *   non-finite      NaN or Inf in ||r||, ||x|| or a Krylov coefficient
 *                   -> iter -1 at once.
 *
 * Host read-backs: one per residual (the first and one per correction) and,
 * in GMRES-IR, one per inner iteration (orthonormalize); nothing else waits.
 */
#ifndef GCHOL_REFINE_ENGINE_H
#define GCHOL_REFINE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/* The operations. Each returns 0 or a negative library status (gchol.h),
 * which the engine returns at once. n-vectors live in the ops' memory
 * space; "host" arguments are host memory. Pointers passed in one call
 * never overlap unless stated. */
typedef struct {
    void   *ctx;  /* the ops' state, passed first to each op */
    int64_t n;    /* order of A */

    /* r := b - A x in double, against the original A; then, read-back (one
     * per call): norms_host[0] = ||r||_inf, [1] = ||x||_inf, [2] = ||r||_2.
     * A NaN or Inf anywhere in r or x must make the norm non-finite. */
    int64_t (*residual)(void *ctx, const double *b, const double *x, double *r,
                        double *norms_host);
    /* z := M^{-1} v (two triangular solves with the low-precision factor;
     * any internal rounding of v or z is the ops' choice). z != v. */
    int64_t (*precond)(void *ctx, const double *v, double *z);
    /* w := A z in double. */
    int64_t (*matvec)(void *ctx, const double *z, double *w);
    /* w orthonormalized against V(:, 0..k) (orthonormal columns, ld ldv) by
     * classical Gram-Schmidt twice: h = V^T w, w -= V h, twice, the two h
     * summed into h_host[0..k]; h_host[k+1] := ||w||_2; w := w / h_host[k+1]
     * (w unspecified when that is 0). Read-back: the k + 2 coefficients, one
     * per call. The engine passes w = V(:, k+1). */
    int64_t (*orthonormalize)(void *ctx, const double *V, int64_t ldv, int64_t k, double *w,
                              double *h_host);
    /* y := alpha x. */
    int64_t (*scal_copy)(void *ctx, double alpha, const double *x, double *y);
    /* y := y + alpha x. */
    int64_t (*axpy)(void *ctx, double alpha, const double *x, double *y);
    /* x := x + Z(:, 0..k) y_host, y_host k + 1 host doubles (an upload). */
    int64_t (*gemv_update)(void *ctx, const double *Z, int64_t ldz, int64_t k,
                           const double *y_host, double *x);
} gchol_refine_ops_t;

/* The caller's workspace; the engine allocates nothing. */
typedef struct {
    double *r;        /* n: the residual (both refinements)              */
    double *z;        /* n: the IR correction (IR only)                  */
    double *V;        /* n x (m + 1), ld ldv: the Krylov basis (GMRES)    */
    int64_t ldv;
    double *Z;        /* n x m, ld ldz: M^{-1} V (GMRES)                  */
    int64_t ldz;
    int64_t m;        /* columns of Z: the most inner iterations (GMRES)  */
    double *host;     /* host scratch, gchol_refine_host_len(m) doubles
                         (GMRES; pinned memory helps a device's read-backs) */
    size_t  host_len;
} gchol_refine_work_t;

typedef enum {
    GCHOL_REFINE_IR    = 0,
    GCHOL_REFINE_GMRES = 1,
    GCHOL_REFINE_AUTO  = 2  /* IR while each correction halves ||r||_inf (the
                               cheap steps); at the first that does not,
                               GMRES-IR from that x on. Needs every op. */
} gchol_refine_method_t;

/* Options; zeros select the defaults. */
typedef struct {
    int     method;   /* gchol_refine_method_t                              */
    int64_t max_iter; /* corrections; 0: 30 (IR, AUTO), 10 (GMRES)          */
    int64_t m;        /* inner iterations per step; 0: min(50, work m);
                         never more than n or work m                        */
    double  tau;      /* inner relative tolerance; 0: 1e-6                  */
    int     x0_given; /* 1: x holds x0 on entry; 0: x0 = M^{-1} b          */
    int64_t budget;   /* preconditioner applications (x0's, each IR
                         correction's, each inner iteration's) at most;
                         spent without convergence -> iter -31. 0: none    */
    double  deadline; /* when to stop, on gchol_refine_clock(), read after
                         the read-backs (so that it counts the device's
                         work): a budget of the applications the time
                         left holds at the call's mean rate so far; one
                         deadline may span several calls. 0: none         */
} gchol_refine_opts_t;

/* The host's monotonic clock in seconds, the deadline's. */
double gchol_refine_clock(void);

/* Why a refinement stopped. */
typedef enum {
    GCHOL_REFINE_CONVERGED = 0,
    GCHOL_REFINE_NONFINITE,  /* iter -1                                       */
    GCHOL_REFINE_MAX_ITER,   /* iter -31: max_iter corrections               */
    GCHOL_REFINE_ROUNDING,   /* iter -31: 4 in a row at the rounding level   */
    GCHOL_REFINE_STAGNATION, /* iter -31: 3 in a row that did not halve r    */
    GCHOL_REFINE_BUDGET,     /* iter -31: the budget of preconditioner
                                applications spent                           */
    GCHOL_REFINE_SLOW        /* iter -31: under a budget, GMRES's rate cannot
                                meet the stopping test within what is left  */
} gchol_refine_stop_t;

/* What a refinement did. */
typedef struct {
    int64_t iter;      /* k >= 0: converged after k corrections; -1 a
                          non-finite value; -31 no convergence             */
    int     stop;      /* gchol_refine_stop_t                               */
    int64_t steps;     /* corrections made                                  */
    int64_t inner;     /* FGMRES iterations (orthonormalize calls), total   */
    int64_t preconds;  /* precond calls, total                              */
    int64_t readbacks; /* op calls with a read-back: 1 + steps (IR),
                          1 + steps + inner (GMRES); 0 when anrm or
                          bnorm is not finite (iter -1 before any op)      */
    double  rnorm, xnorm; /* ||r||_inf, ||x||_inf of the last residual      */
    double  berr;      /* rnorm / (anrm xnorm eps), ddrvac's unit           */
} gchol_refine_result_t;

enum { GCHOL_REFINE_DEFAULT_M = 50, GCHOL_REFINE_ITER_FAILED = -31 };

/* Several right-hand sides at once (gchol_refine_solve_block): the IR steps
 * of every column in one residual and one preconditioner call, blocks of
 * columns of ld ldr / ldz; ctx is the single ops' ctx. */
typedef struct {
    /* R := B - A X, ncols columns; then, read-back (one per call):
     * norms_host[j] = ||r_j||_inf, norms_host[ncols + j] = ||x_j||_inf (NaN
     * or Inf in r_j or x_j non-finite). */
    int64_t (*residual)(void *ctx, const double *B, int64_t ldb, const double *X, int64_t ldx,
                        double *R, int64_t ldr, int64_t ncols, double *norms_host);
    /* Z := M^{-1} V, ncols columns. Z != V. */
    int64_t (*precond)(void *ctx, const double *V, int64_t ldv, double *Z, int64_t ldz,
                       int64_t ncols);
} gchol_refine_block_ops_t;

typedef struct {
    double *R;  int64_t ldr;  /* n x ncols: the residuals                 */
    double *Z;  int64_t ldz;  /* n x ncols: the corrections               */
    double *host;             /* host: 2 ncols doubles (the norms)        */
    void   *state;            /* host: gchol_refine_block_state_bytes     */
    int64_t ncols;            /* the most columns these hold              */
} gchol_refine_block_work_t;

/* Host scratch doubles for m inner iterations: the Hessenberg matrix and
 * the Givens rotations. */
size_t gchol_refine_host_len(int64_t m);

/* Refines x for A x = b. anrm = ||A||_inf, bnorm = ||b||_inf (the caller's;
 * NaN or Inf gives iter -1 at once). IR calls residual, precond, axpy;
 * GMRES-IR residual, precond, matvec, orthonormalize, scal_copy,
 * gemv_update (the others may be NULL). Returns 0 with *res filled,
 * GCHOL_ERR_INVALID_VALUE for a missing op or workspace part, a negative
 * norm or a bad option, or the first failing op's status (res then holds
 * the counts so far; x and r are unspecified). */
int64_t gchol_refine_solve(const gchol_refine_ops_t *ops, const gchol_refine_opts_t *opts,
                           const gchol_refine_work_t *work, const double *b, double *x,
                           double anrm, double bnorm, gchol_refine_result_t *res);

/* gchol_refine_solve on the ncols columns of B (ld ldb) into X (ld ldx),
 * bnorm[j] = ||b_j||_inf, res[j] each column's result. IR and AUTO run the
 * IR steps of all columns together (bops: one residual, one read-back and
 * one preconditioner call per step for all of them), each column stopping
 * by its own test; a column that AUTO turns to GMRES-IR goes on alone from
 * its x (its residual formed again), as gchol_refine_solve would. GMRES
 * runs each column alone. With block ops that do the single ops'
 * arithmetic column by column, every column's iter, steps and x are what
 * gchol_refine_solve gives it (the GPU's dsymm and strsm round otherwise
 * than dsymv and strsv: there they agree to rounding); its read-backs count
 * only its own GMRES part, and *block_readbacks the shared residuals'.
 * Returns as gchol_refine_solve. */
int64_t gchol_refine_solve_block(const gchol_refine_ops_t *ops,
                                 const gchol_refine_block_ops_t *bops,
                                 const gchol_refine_opts_t *opts, const gchol_refine_work_t *work,
                                 const gchol_refine_block_work_t *bw, const double *B, int64_t ldb,
                                 double *X, int64_t ldx, int64_t ncols, double anrm,
                                 const double *bnorm, gchol_refine_result_t *res,
                                 int64_t *block_readbacks);

/* Bytes of host state the block refinement needs for ncols columns. */
size_t gchol_refine_block_state_bytes(int64_t ncols);

#endif
