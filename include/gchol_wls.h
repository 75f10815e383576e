/*
 * gchol_wls.h -- weighted least squares of gchol by the normal equations
 * (A D^2 A^T) Y = A D^2 B: gchol_?wls_gpu, their RFP forms, the mixed-
 * precision gchol_dswls_gpu, and their host-memory forms.
 *
 * Conventions as in gchol.h (which includes this header, and which this
 * header includes): column-major, 64-bit sizes, return value 0, -i for bad
 * argument i, k > 0 from the factorization, or a library error <= -100.
 */
#ifndef GCHOL_WLS_H
#define GCHOL_WLS_H

#include "gchol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Weighted least squares by the normal equations (the problem A*D^2*A^T
 * comes from): for each column b of B,
 *     y = argmin || D (A^T y - b) ||_2,  i.e.  (A D^2 A^T) y = A D^2 b,
 * with A m x n (column-major, ldda), D = diag(d) n x n, B n x nrhs and
 * Y m x nrhs. A unique solution needs rank(A D) = m, so m <= n. d holds D
 * itself (not D^2), as in syrk_diag; d = NULL means D = I (ordinary least
 * squares). Interior-point methods solve exactly these systems.
 *
 * gchol_?wls_gpu: C := A D^2 A^T (syrk_diag), C := chol(C) (?potrf),
 * Y := C^{-1} (A (D^2 B)) (?potrs), all in one precision. Synchronous.
 *   uplo (1) 'L'/'U': the triangle of C formed and factored,
 *   m (2) >= 0, n (3) >= 0, nrhs (4) >= 0,
 *   dA (5) device m x n, ldda (6) >= max(1,m),
 *   dd (7) device n entries or NULL,
 *   dB (8) device n x nrhs, not written, lddb (9) >= max(1,n),
 *   dC (10) device m x m: receives the Cholesky factor of A D^2 A^T in its
 *       uplo triangle (the other triangle is kept, as in ?potrf_gpu), for
 *       later solves with ?potrs; lddc (11) >= max(1,m),
 *   dY (12) device m x nrhs, receives Y; must not overlap the inputs;
 *   lddy (13) >= max(1,m),
 *   info (14) 0, -i, k > 0 (the leading minor of order k of A D^2 A^T is
 *       not positive definite, NaN included: rank(A D) < m in the working
 *       precision; Y is then not written), or a library error (<= -100),
 *   queue (15).
 * m > n is the caller's to avoid (A D^2 A^T is singular; rounding usually,
 * not always, reports it as k > 0). nrhs = 0 still forms and factors C.
 * ------------------------------------------------------------------------- */
int64_t gchol_dwls_gpu(char uplo, int64_t m, int64_t n, int64_t nrhs, const double *dA,
                       int64_t ldda, const double *dd, const double *dB, int64_t lddb,
                       double *dC, int64_t lddc, double *dY, int64_t lddy, int64_t *info,
                       gchol_queue_t queue);
int64_t gchol_swls_gpu(char uplo, int64_t m, int64_t n, int64_t nrhs, const float *dA,
                       int64_t ldda, const float *dd, const float *dB, int64_t lddb,
                       float *dC, int64_t lddc, float *dY, int64_t lddy, int64_t *info,
                       gchol_queue_t queue);

/* gchol_?wls_rfp_gpu: the same with C in RFP storage (as LAPACK's dsfrk,
 * dpftrf and dpftrs keep it, described below): m(m+1)/2 elements instead of
 * m x m, for the m at which C would not fit in full. C := A D^2 A^T
 * (sfrk_diag), C := chol(C) (?pftrf), Y := C^{-1} (A (D^2 B)) (?pftrs).
 * Synchronous.
 *   transr (1) 'N' or 'T', uplo (2) 'L'/'U': the RFP variant of C,
 *   m (3), n (4), nrhs (5), dA (6), ldda (7), dd (8), dB (9), lddb (10) as
 *   above,
 *   dC (11) device RFP array of m(m+1)/2: receives the Cholesky factor of
 *       A D^2 A^T, as ?pftrf leaves it (for later solves with ?pftrs),
 *   dY (12), lddy (13), info (14), queue (15) as above. */
int64_t gchol_dwls_rfp_gpu(char transr, char uplo, int64_t m, int64_t n, int64_t nrhs,
                           const double *dA, int64_t ldda, const double *dd, const double *dB,
                           int64_t lddb, double *dC, double *dY, int64_t lddy, int64_t *info,
                           gchol_queue_t queue);
int64_t gchol_swls_rfp_gpu(char transr, char uplo, int64_t m, int64_t n, int64_t nrhs,
                           const float *dA, int64_t ldda, const float *dd, const float *dB,
                           int64_t lddb, float *dC, float *dY, int64_t lddy, int64_t *info,
                           gchol_queue_t queue);

/* Host-memory forms of the two above (A, d, B, C and Y in host memory, pinned
 * or pageable; synchronous, on the library-owned queue; the arguments less
 * the queue, info argument 14). A and B stream through the GPU in blocks of
 * columns of A (rows of B) as in gchol_?syrk_diag, each block adding
 * A_b D_b^2 A_b^T to C and A_b D_b^2 B_b to the right-hand side on the
 * device, so A may be larger than the device memory: C, m x nrhs and two
 * blocks must fit, with the factorization's own workspace. C's factor comes
 * back in its uplo triangle (or RFP array; LAPACK's partial factor when
 * info = k > 0, Y then not written). Full storage, where the
 * factorization is left-looking with lookahead and does not swap the
 * triangles (large m; the tuning module chooses): the factor's columns come
 * back while later ones are factored, and nothing but C's uplo triangle is
 * read or written. Otherwise the triangle comes back after it, in 256-column blocks
 * with their whole diagonal blocks, whose other half goes up first and
 * comes back with the same values (do not write it from elsewhere during the
 * call); nothing else of the host C is written. */
int64_t gchol_dwls(char uplo, int64_t m, int64_t n, int64_t nrhs, const double *A, int64_t lda,
                   const double *d, const double *B, int64_t ldb, double *C, int64_t ldc,
                   double *Y, int64_t ldy, int64_t *info);
int64_t gchol_swls(char uplo, int64_t m, int64_t n, int64_t nrhs, const float *A, int64_t lda,
                   const float *d, const float *B, int64_t ldb, float *C, int64_t ldc,
                   float *Y, int64_t ldy, int64_t *info);
int64_t gchol_dwls_rfp(char transr, char uplo, int64_t m, int64_t n, int64_t nrhs,
                       const double *A, int64_t lda, const double *d, const double *B,
                       int64_t ldb, double *C, double *Y, int64_t ldy, int64_t *info);
int64_t gchol_swls_rfp(char transr, char uplo, int64_t m, int64_t n, int64_t nrhs,
                       const float *A, int64_t lda, const float *d, const float *B,
                       int64_t ldb, float *C, float *Y, int64_t ldy, int64_t *info);

/* gchol_dswls_gpu: the same problem in double precision by mixed precision
 * (as dsposv): A and d go to single precision, C_s = A_s D_s^2 A_s^T and its
 * Cholesky factor are formed in single precision, and Y is refined in double
 * with the residual of the normal equations computed as A (D^2 (B - A^T Y))
 * in double (corrected semi-normal equations; C is never formed in double).
 * Column j has converged when
 *     ||r_j||_inf <= eps * sqrt(max(m,n)) * (||C||_inf ||y_j||_inf
 *                                           + ||A D^2||_inf ||b_j||_inf)
 * (eps = 2^-53; ||C|| from C_s): the first term is dsposv's test, the second
 * the rounding floor of forming A D^2 B, which dominates when the weighted
 * residual D (A^T y - b) is large. Synchronous.
 *   m (1), n (2), nrhs (3), dA (4), ldda (5), dd (6), dB (7), lddb (8) as
 *   above; dY (9) device m x nrhs, receives Y; lddy (10) >= max(1,m);
 *   iter (11): 0 no correction needed, k > 0 converged after k corrections;
 *       after the fallback -1 (no memory for the single-precision work, or a
 *       non-finite y or r), -2 (A, d, d^2, C_s or a residual overflows
 *       single precision, or A or d holds NaN), -3
 *       (C_s is not positive definite in single precision: cond(A D)^2 too
 *       large for it), -31 (no convergence: 30 corrections, or one that did
 *       not halve the residual of a column not yet converged);
 *   info (12): 0, -i, k > 0 from the double fallback's factorization, or a
 *       library error (<= -100; the fallback needs m x m doubles of device
 *       memory, and GCHOL_ERR_DEVICE_ALLOC reports that they could not be
 *       had);
 *   queue (13).
 * iter < 0 always falls back to gchol_dwls_gpu's method on a temporary C.
 * m = 0 or nrhs = 0 returns at once with iter = 0.
 * The expert form adds opts (13; NULL: defaults; trace must be NULL; products =
 * GCHOL_PRODUCTS_TF32 forms C_s and factors it with one TF32 product per
 * multiply: faster where cond(A D)^2 * 2^-11 is well below 1; _FP16 or _BF16
 * forms it so, scales it to a unit diagonal and factors it with FP16 or BF16
 * operands and FP32 sums: for cond(A D)^2 well below 2^11 or 2^8) and moves
 * the queue to 14. */
int64_t gchol_dswls_gpu(int64_t m, int64_t n, int64_t nrhs, const double *dA, int64_t ldda,
                        const double *dd, const double *dB, int64_t lddb, double *dY,
                        int64_t lddy, int64_t *iter, int64_t *info, gchol_queue_t queue);
int64_t gchol_dswls_expert_gpu(int64_t m, int64_t n, int64_t nrhs, const double *dA,
                               int64_t ldda, const double *dd, const double *dB, int64_t lddb,
                               double *dY, int64_t lddy, int64_t *iter, int64_t *info,
                               const gchol_options_t *opts, gchol_queue_t queue);
/* Host-memory form: A, d, B and Y in host memory (pinned or pageable), the
 * arguments of gchol_dswls_gpu less the queue; synchronous, on the
 * library-owned queue. A, d and B go up whole (not streamed: the refinement
 * reads A in double at every correction, so A and the work must fit on the
 * device); Y comes back (its m x nrhs block) only when info = 0. */
int64_t gchol_dswls(int64_t m, int64_t n, int64_t nrhs, const double *A, int64_t lda,
                    const double *d, const double *B, int64_t ldb, double *Y, int64_t ldy,
                    int64_t *iter, int64_t *info);

#ifdef __cplusplus
}
#endif
#endif /* GCHOL_WLS_H */
