/*
 * gchol_mixed.h -- the mixed-precision SPD solve of gchol: A X = B in
 * double from a Cholesky factor on a ladder of precisions (FP16 or BF16 on
 * the tensor cores, TF32, FP32), refined to double accuracy by iterative
 * refinement or GMRES-IR, escalating to the next precision when a
 * refinement fails and ending, at worst, with the double factorization.
 * A rung's failure is never returned as an answer: every column passes
 * LAPACK dsposv's stopping test, or the next rung runs.
 *
 * Conventions as in gchol.h (which this header includes): column-major,
 * 64-bit sizes, info = 0, -i or k > 0, codes <= -100 library errors.
 */
#ifndef GCHOL_MIXED_H
#define GCHOL_MIXED_H

#include "gchol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The factorization's precision: a rung of the ladder. */
typedef enum {
    GCHOL_XPREC_AUTO = 0, /* FP16, then double (FP32 between where the
                             tuning table says so), the rungs below double
                             within a share of the double solve's time;
                             below the table's crossover order the double
                             solve at once (iter -1)                        */
    GCHOL_XPREC_FP16 = 1, /* FP16 products (scaled to unit diagonal)      */
    GCHOL_XPREC_BF16 = 2, /* BF16 products                                */
    GCHOL_XPREC_TF32 = 3, /* one TF32 product per multiply                */
    GCHOL_XPREC_FP32 = 4, /* single precision (3xTF32 products)           */
    GCHOL_XPREC_FP64 = 5  /* double: gchol_dpotrf_gpu + gchol_dpotrs_gpu  */
} gchol_xprec_t;

/* The refinement. */
typedef enum {
    GCHOL_XREFINE_AUTO  = 0, /* IR while each correction halves the
                                residual, GMRES-IR from the first that
                                does not                                    */
    GCHOL_XREFINE_IR    = 1, /* classical iterative refinement              */
    GCHOL_XREFINE_GMRES = 2  /* GMRES-IR                                    */
} gchol_xrefine_t;

/* Options; all zeros is the default. */
typedef struct {
    int     factor;    /* gchol_xprec_t: the first rung                      */
    int     refine;    /* gchol_xrefine_t                                    */
    int64_t max_iter;  /* refinement steps per rung; 0: 30 (IR, AUTO),
                          10 (GMRES)                                         */
    int64_t max_inner; /* GMRES iterations per step; 0: 50                   */
    double  inner_tol; /* GMRES relative tolerance; 0: 1e-6                  */
    int     no_fallback; /* 1: stop at the first rung instead of escalating:
                            when it fails, iter < 0, prec that rung and X
                            unspecified (n <= 16 and a workspace that cannot
                            be had still answer in double)                 */
} gchol_xposv_options_t;

/* What produced the answer. */
typedef struct {
    int64_t iter;       /* LAPACK's ITER for the answer: k >= 0 refinement
                           steps on rung `prec`; < 0 the double solve
                           answered (-2 A cannot be scaled: a diagonal
                           entry not positive or a scaled entry beyond
                           single's range; -3 the last rung's factorization
                           failed; -31 no convergence; -1 otherwise)       */
    int     prec;       /* gchol_xprec_t of the rung that answered          */
    int64_t inner;      /* GMRES iterations, all columns and rungs          */
    int64_t host_syncs; /* host synchronizations of the whole solve (api.md) */
    double  berr;       /* max over columns of ||b - A x||_inf /
                           (||A||_inf ||x||_inf eps), the refinement's own
                           residual; 0 after the double fallback             */
} gchol_xposv_result_t;

/* A X = B, A SPD (its uplo triangle), on the GPU, synchronous. A failed
 * pivot on the FP16, BF16 or TF32 rung is retried once with a shift of
 * 8 u_f (S has a unit diagonal) when it is near 0 (> -8 u_f); a clearly
 * negative one, or any on the FP32 rung, goes up the ladder, so that a matrix that is not positive definite ends with the
 * double factorization's info. One that is indefinite only at the level of
 * the low precision's rounding may still be solved (info 0).
 *   uplo (1), n (2), nrhs (3), dA (4) n x n, unchanged unless the double
 *   fallback answers (then its factor, as dpotrf), ldda (5), dB (6) not
 *   written, lddb (7), dX (8) receives X, lddx (9), opts (10) NULL for the
 *   defaults, res (11) not NULL, info (12) 0, -i, k > 0 (the double
 *   factorization's, when the fallback found A not positive definite) or a
 *   library error, queue (13). */
int64_t gchol_dxposv_gpu(char uplo, int64_t n, int64_t nrhs, double *dA, int64_t ldda,
                         const double *dB, int64_t lddb, double *dX, int64_t lddx,
                         const gchol_xposv_options_t *opts, gchol_xposv_result_t *res,
                         int64_t *info, gchol_queue_t queue);

/* The same with A, B and X in host memory, on the library-owned queue: only
 * A's uplo triangle and B go up, X comes down; when the double fallback
 * answers (n <= 16, or every rung failed) it runs through the host
 * interface (gchol_dpotrf, gchol_dpotrs) and A's referenced triangle
 * receives the double factor; otherwise A is not written. B is never
 * written. Arguments 1-12 as above (4 A, 5 lda, 6 B, 7 ldb, 8 X, 9 ldx on the
 * host). */
int64_t gchol_dxposv(char uplo, int64_t n, int64_t nrhs, double *A, int64_t lda, const double *B,
                     int64_t ldb, double *X, int64_t ldx, const gchol_xposv_options_t *opts,
                     gchol_xposv_result_t *res, int64_t *info);

#ifdef __cplusplus
}
#endif
#endif /* GCHOL_MIXED_H */
