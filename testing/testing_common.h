/*
 * testing_common.h -- helpers shared by the gchol testers (plain C11).
 *
 * Precision-neutral: routines that touch matrix entries take a precision
 * character ('d' double, 's' single) and void pointers, so one copy serves
 * both testing_dpotrf and testing_spotrf. Every residual and comparison is
 * computed in double.
 *
 * Results: each test case is recorded with testing_record(); the tester ends
 * with testing_summary(), which prints exactly one line
 *     SUMMARY passed=P failed=F skipped=S
 * that testing/run_tests.sh parses.
 */
#ifndef TESTING_COMMON_H
#define TESTING_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "gchol.h"

/* LAPACK-style pass threshold for the scaled residual. */
#define TESTING_TOL 30.0

/* Above this n the residual is computed on the GPU (cuBLAS, 64-bit API). */
#define TESTING_GPU_RESIDUAL_MIN_N 4096

/* ---------------------------------------------------------------------------
 * Results counter.
 * ------------------------------------------------------------------------- */
typedef enum {
    TESTING_PASSED  = 0,
    TESTING_FAILED  = 1,
    TESTING_SKIPPED = 2
} testing_result_t;

/* Counts one case; returns `result` so callers can chain. */
testing_result_t testing_record(testing_result_t result);

/* Records (passed iff cond) and prints "  ok   what" or "  FAILED what". */
testing_result_t testing_expect(int cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "ok", "FAILED" or "skipped". */
const char *testing_result_name(testing_result_t result);

/* Cases recorded so far with that result. */
int64_t testing_count(testing_result_t result);

/* Prints the SUMMARY line; returns the process exit status (1 if any failed). */
int testing_summary(void);

/* ---------------------------------------------------------------------------
 * Command line, time, environment.
 * ------------------------------------------------------------------------- */

/* Parses "N", "a,b,c" or "start:stop:step" (stop inclusive; lists of ranges
 * "a:b:s,c" also work) into a malloc'ed array. Returns 0, or -1 on a
 * malformed spec (then *sizes is NULL). */
int testing_parse_sizes(const char *spec, int64_t **sizes, int64_t *count);

/* Wall-clock time in seconds (monotonic). */
double testing_wtime(void);

/* The median of v[0, count) (the upper one for even count), sorting v in
 * place; count >= 1. */
double testing_median(double *v, int64_t count);

/* 1 if a CUDA device is usable, 0 when cudaGetDeviceCount fails or finds 0
 * devices. The answer is cached. */
int testing_have_gpu(void);

/* Whether a table run can go on: without a GPU it is recorded as skipped
 * (and says so), without a queue as failed. */
int testing_table_can_run(gchol_queue_t queue);

/* With a GPU, a new queue on the current device; NULL without one, or (with
 * a message: the GPU cases will then fail) when creating it fails. */
gchol_queue_t testing_queue_or_null(void);

/* Machine epsilon as LAPACK's ?lamch('E'): 2^-53 for 'd', 2^-24 for 's'. */
double testing_eps(char prec);

/* Bytes per element of precision prec. */
size_t testing_elsize(char prec);

/* LAPACK flop count of potrf: n^3/3 + n^2/2 + n/6. */
double testing_potrf_flops(int64_t n);

/* The library's default options with variant (gchol_variant_t), lookahead
 * (gchol_lookahead_t), nb and recnb forced. */
gchol_options_t testing_options(int variant, int lookahead, int64_t nb,
                                int64_t recnb);

/* Prints a CUDA / cuBLAS failure (file:line) and returns nonzero on failure,
 * so callers write `if (TESTING_CUDA(cudaMalloc(...))) goto cleanup;`. */
int testing_cuda_failed(int status, const char *call, const char *file, int line);
int testing_cublas_failed(int status, const char *call, const char *file, int line);
#define TESTING_CUDA(call)   testing_cuda_failed((int)(call), #call, __FILE__, __LINE__)
#define TESTING_CUBLAS(call) testing_cublas_failed((int)(call), #call, __FILE__, __LINE__)

/* ---------------------------------------------------------------------------
 * Random numbers and matrices.
 * ------------------------------------------------------------------------- */
typedef struct { uint64_t state; } testing_rng_t;

void     testing_rng_seed(testing_rng_t *rng, uint64_t seed);
uint64_t testing_rng_next(testing_rng_t *rng);      /* splitmix64 */
double   testing_rng_uniform(testing_rng_t *rng);   /* uniform(-1, 1) */

/* Counter-based: the same (seed, i, j) always gives the same uniform(-1,1)
 * value, so the matrix can be generated column by column in any order. */
double testing_hash_uniform(uint64_t seed, int64_t i, int64_t j);

/* Writes the referenced triangle (uplo, diagonal included) of the SPD matrix
 * A(i,j) = A(j,i) = u(seed, max(i,j), min(i,j)) + (i == j ? n : 0), with u
 * uniform(-1,1): strictly diagonally dominant, hence SPD, and so are all its
 * leading minors. Nothing else of A is written. 'L' and 'U' give the same
 * symmetric matrix. */
void testing_generate_spd(char prec, char uplo, int64_t n, void *A, int64_t lda,
                          uint64_t seed);

/* Fills count elements with quiet NaNs, each with its own payload. */
void testing_fill_nan(char prec, int64_t count, void *A);

/* Reads / writes element (i, j) (0-based) of a column-major matrix. */
double testing_get(char prec, const void *A, int64_t lda, int64_t i, int64_t j);
void   testing_set(char prec, void *A, int64_t lda, int64_t i, int64_t j, double v);

/* Number of elements of A, outside the referenced triangle (padding rows
 * n..lda-1 of every column, and the other strict triangle), whose bytes
 * differ from those of `saved` (same lda). 0 means untouched. */
int64_t testing_count_untouched_violations(char prec, char uplo, int64_t n,
                                           const void *A, const void *saved,
                                           int64_t lda);

/* Fills count elements with the value v (rounded to the precision). */
void testing_fill_value(char prec, int64_t count, void *A, double v);

/* Number of elements among the first count whose bytes differ (0: equal). */
int64_t testing_count_diff(char prec, int64_t count, const void *A, const void *B);

/* Converts the m x n block A (lda, precision prec) to double D (ldd). */
void testing_to_double(char prec, int64_t m, int64_t n, const void *A, int64_t lda,
                       double *D, int64_t ldd);

/* Elements of an RFP array of order n: n(n+1)/2 (0 for n <= 0). */
int64_t testing_rfp_size(int64_t n);

/* A "Gram" SPD matrix, not diagonally dominant: A = B*B^T/n + mu*I with B an
 * n x n matrix of uniform(-1,1) entries (testing_hash_uniform(seed, i, j)),
 * formed in double (cblas_dsyrk) and rounded to prec. Both triangles are
 * written (A is symmetric), padding rows are not. Its eigenvalues lie in
 * about [mu, 4/3 + mu] (Marchenko-Pastur), so cond(A) <= about (4/3+mu)/mu,
 * and every principal submatrix is SPD. Returns 0, or -1 if out of memory. */
int testing_generate_gram_spd(char prec, int64_t n, void *A, int64_t lda, double mu,
                              uint64_t seed);

/* An ill-conditioned SPD matrix: A = B*B^T/rank + mu*I with B an n x rank
 * matrix of uniform(-1,1) entries, formed in double and rounded to prec;
 * only the `uplo` triangle (diagonal included) is written. n - rank of its
 * eigenvalues are mu, the others lie in about [mu, (1 + sqrt(n/rank))^2/3 +
 * mu], so cond(A) is about 2/mu for rank = n/2. Returns 0, or -1 if out of
 * memory. */
int testing_generate_lowrank_spd(char prec, char uplo, int64_t n, void *A, int64_t lda,
                                 int64_t rank, double mu, uint64_t seed);

/* ---------------------------------------------------------------------------
 * References and checks (all in double).
 * ------------------------------------------------------------------------- */

/* Scaled residual ||A - L*L^T||_1 / (n * ||A||_1 * eps) ('U': A - U^T*U),
 * A and L host triangles of precision prec, on the CPU with OpenBLAS.
 * Returns NaN when L holds NaN, -1 when out of memory; 0 for n = 0. */
double testing_residual_cpu(char prec, char uplo, int64_t n,
                            const void *A, int64_t lda,
                            const void *L, int64_t ldl);

/* The same on the GPU with cuBLAS 64-bit APIs; A is on the host, dL on the
 * device. Returns 0 and sets *resid, or -1 on a CUDA / cuBLAS failure. */
int testing_residual_gpu(char prec, char uplo, int64_t n,
                         const void *A, int64_t lda,
                         const void *dL, int64_t lddl, double *resid);

/* Picks: the GPU for n > TESTING_GPU_RESIDUAL_MIN_N when a GPU exists,
 * otherwise the CPU. The factor is L (host, may be NULL) and/or dL (device,
 * may be NULL); what is missing is transferred. Returns 0 or -1. */
int testing_residual(char prec, char uplo, int64_t n,
                     const void *A, int64_t lda,
                     const void *L, int64_t ldl,
                     const void *dL, int64_t lddl, double *resid);

/* Reference (partial) factor in double: R (ldr >= n) receives the referenced
 * triangle of A (other triangle zero); the leading ncols x ncols block is
 * factored with LAPACKE_dpotrf, and the rest of the first ncols columns of
 * the factor (rows ncols..n-1 of L, or of U^T) by a triangular solve: exactly
 * the "valid partial factor" of columns 1..ncols. Returns LAPACKE's info for
 * the leading block, or -1 on out of memory. */
int64_t testing_reference_factor(char prec, char uplo, int64_t n, int64_t ncols,
                                 const void *A, int64_t lda,
                                 double *R, int64_t ldr);

/* max |L - R| / max |R| over the first ncols columns of the referenced
 * triangle (for 'U': rows 0..j of column j). NaN if L holds NaN there. */
double testing_factor_diff(char prec, char uplo, int64_t n, int64_t ncols,
                           const void *L, int64_t ldl,
                           const double *R, int64_t ldr);

/* info of the native-precision LAPACKE_?potrf (OpenBLAS) on a copy of A
 * (NaN check disabled). OpenBLAS does not flag NaN pivots. */
int64_t testing_lapacke_info(char prec, char uplo, int64_t n,
                             const void *A, int64_t lda);

/* info with reference-LAPACK (netlib dpotf2) semantics, computed unblocked in
 * double: the first j whose pivot is <= 0 or NaN, 0 if none. */
int64_t testing_reference_info(char prec, char uplo, int64_t n,
                               const void *A, int64_t lda);

/* ---------------------------------------------------------------------------
 * Device helpers.
 * ------------------------------------------------------------------------- */

/* Copies an m x n column-major block (element size es) between host and
 * device with leading dimensions ld_src / ld_dst. Returns 0 or -1. */
int testing_copy_h2d(size_t es, int64_t m, int64_t n,
                     const void *src, int64_t ld_src, void *dst, int64_t ld_dst);
int testing_copy_d2h(size_t es, int64_t m, int64_t n,
                     const void *src, int64_t ld_src, void *dst, int64_t ld_dst);

/* A zeroed host block that stands in for a queue where none can be made (no
 * GPU): argument checks must reject before using it. Freed at exit. */
gchol_queue_t testing_fake_queue(void);

#endif /* TESTING_COMMON_H */
