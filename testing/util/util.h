/*
 * util.h -- the helper library of the gchol testers and benchmarks (plain
 * C11): results and the SUMMARY line, precision helpers, random numbers and
 * matrix generators, poison and padding checks, LAPACK residual ratios and
 * references, device copies, and whether a usable GPU exists.
 *
 * Precision-neutral: routines that touch matrix entries take a precision
 * character ('d' double, 's' single) and void pointers, so one copy serves
 * both precisions. Every residual and comparison is computed in double.
 *
 * Results: each test case is recorded with testing_record() (or
 * testing_expect(), which also prints its "  ok      ..." / "  FAILED  ..."
 * line); the tester ends with testing_summary(), which prints exactly one line
 *     SUMMARY passed=P failed=F skipped=S
 * that testing/run_tests.sh parses.
 *
 * The other headers of the library: opts.h (the command-line parser of every
 * tester and benchmark), flops.h (flop counts), timer.h (CUDA-event timing),
 * argcheck.h (argument checks of entry points, by the role of each
 * argument), guard.h (host arrays against inaccessible pages),
 * testing_prec.h (the precision of a precision-generic tester).
 *
 * Files: util.c (results, precision, lists, random numbers, the host thread
 * pool; needs neither gchol nor CUDA), options.c, device.c (the GPU side),
 * matrix.c (generators, poison and padding checks), check.c (residuals and
 * references), tester.c (the main() and table pieces the testers share),
 * rfp_check.c (RFP variants and arrays, and the RFP conversion testers).
 */
#ifndef GCHOL_TESTING_UTIL_H
#define GCHOL_TESTING_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "gchol.h"
#include "argcheck.h"
#include "opts.h"

/* LAPACK's pass threshold for the scaled residual ratios. */
#define TESTING_TOL 30.0

/* Above this n the potrf residual is computed on the GPU (cuBLAS). */
#define TESTING_GPU_RESIDUAL_MIN_N 4096

/* What a tester stores in an info word before a call, to see it written. */
#define TESTING_INFO_POISON ((int64_t)-987654321)

/* Elements of a static array. */
#define TESTING_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---------------------------------------------------------------------------
 * Results.
 * ------------------------------------------------------------------------- */
typedef enum {
    TESTING_PASSED  = 0,
    TESTING_FAILED  = 1,
    TESTING_SKIPPED = 2
} testing_result_t;

/* Counts one case; returns `result` so callers can chain. */
testing_result_t testing_record(testing_result_t result);

/* Records (passed iff cond) and prints "  ok      what" or "  FAILED  what". */
testing_result_t testing_expect(int cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Records a skipped case and prints "  skipped what". */
testing_result_t testing_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "ok", "FAILED" or "skipped". */
const char *testing_result_name(testing_result_t result);

/* Cases recorded so far with that result. */
int64_t testing_count(testing_result_t result);

/* Prints the SUMMARY line; returns the process exit status (1 if any failed). */
int testing_summary(void);

/* The suite split into parts (--part I/K, 0 <= I < K): a case runner asks
 * testing_case_in_part() before anything else, and a case outside this
 * run's part returns at once, neither printed nor recorded, so that the K
 * runs together run each case once (the sanitizers run the parts side by
 * side). testing_parse_part takes "I/K"; 0, or -1 if malformed. */
int testing_parse_part(const char *text);
int testing_case_in_part(void);

/* Appends ", reason" (or "reason" to an empty text) to a failure text. */
void testing_fail_reason(char *why, size_t size, const char *reason);

/* ---------------------------------------------------------------------------
 * Precision, time, lists.
 * ------------------------------------------------------------------------- */

/* Bytes per element of precision prec ('d' 8, 's' 4). */
size_t testing_elsize(char prec);

/* Unit roundoff as LAPACK's ?lamch('E'): 2^-53 for 'd', 2^-24 for 's'. */
double testing_eps(char prec);

/* "double" or "single". */
const char *testing_prec_name(char prec);

/* Reads / writes element (i, j) (0-based) of a column-major matrix. */
double testing_get(char prec, const void *A, int64_t lda, int64_t i, int64_t j);
void   testing_set(char prec, void *A, int64_t lda, int64_t i, int64_t j, double v);

/* malloc of at least one byte, so that an empty array is still a distinct
 * pointer; NULL when out of memory. */
void *testing_malloc(size_t bytes);

/* Wall-clock time in seconds (monotonic). */
double testing_wtime(void);

/* The median of v[0, count): the middle value, the mean of the two middle
 * ones for even count; sorts v in place. 0 for count < 1. */
double testing_median(double *v, int64_t count);

/* Parses "N", "a,b,c", "start:stop[:step]" (stop inclusive) and comma lists
 * of those into a malloc'ed array. A range without a step counts up by one,
 * or with `doubling` doubles (0 is followed by 1). Returns 0, or -1 on a
 * malformed or negative spec (then *sizes is NULL). */
int testing_parse_list(const char *spec, int doubling, int64_t **sizes, int64_t *count);

/* Room for one more element in the growing array v of count elements of
 * `size` bytes, capacity *cap (doubled when full, 256 at first): returns
 * the array, which may have moved. Out of memory prints "out of memory"
 * and exits with status 1. */
void *testing_grow(void *v, int64_t count, int64_t *cap, size_t size);

/* testing_parse_list without doubling. */
int testing_parse_sizes(const char *spec, int64_t **sizes, int64_t *count);

/* Parses shapes "MxN,MxN,..." (':' works as 'x'), each at least 1, into
 * malloc'ed *ms and *ns. Returns the count, or -1 on a malformed list. */
int64_t testing_parse_shapes(const char *spec, int64_t **ms, int64_t **ns);

/* 1 if text is non-empty and every character of it is in allowed (option
 * values like "ds" or "LU"). */
int testing_is_subset(const char *text, const char *allowed);

/* The library's default options with variant (gchol_variant_t), lookahead
 * (gchol_lookahead_t), nb and recnb forced (options.c, as the two below). */
gchol_options_t testing_options(int variant, int lookahead, int64_t nb, int64_t recnb);

/* "auto", "left", "right", "tiled" / "auto", "off", "on" ("?" otherwise). */
const char *testing_variant_name(int variant);
const char *testing_lookahead_name(int lookahead);

/* ---------------------------------------------------------------------------
 * The GPU.
 * ------------------------------------------------------------------------- */
typedef enum {
    TESTING_GPU_OK             = 0,
    TESTING_GPU_NO_DRIVER      = 1, /* no NVIDIA driver loaded                */
    TESTING_GPU_DRIVER_TOO_OLD = 2, /* the driver predates the CUDA runtime   */
    TESTING_GPU_NO_DEVICE      = 3, /* a driver, but no CUDA device           */
    TESTING_GPU_ERROR          = 4  /* another CUDA error                      */
} testing_gpu_status_t;

/* Whether a CUDA GPU is usable, and if not why: a sentence (without a final
 * period) in why[0, size) when why is not NULL. The answer is cached. */
testing_gpu_status_t testing_gpu_status(char *why, size_t size);

/* 1 if a CUDA device is usable (testing_gpu_status() == TESTING_GPU_OK). */
int testing_have_gpu(void);

/* Whether a table run can go on: without a GPU it is recorded as skipped
 * (and says so), without a queue as failed. */
int testing_table_can_run(gchol_queue_t queue);

/* Opens a section of `cases` cases that need a GPU: prints "\n-- title --";
 * without a GPU also "  skipped title (no GPU)", records the cases as
 * skipped and returns 0; with one returns 1. */
int testing_gpu_section(const char *title, int cases);

/* Opens the section that checks, without a GPU, that host forms report
 * GCHOL_ERR_NO_DEVICE and write nothing: without a GPU prints
 * "\n-- title --" and returns 1; with one returns 0 (the suite runs the
 * host forms for real then). */
int testing_no_gpu_section(const char *title);

/* With a GPU, a new queue on the current device; NULL without one, or (with
 * a message: the GPU cases will then fail) when creating it fails. */
gchol_queue_t testing_queue_or_null(void);

/* A zeroed host block that stands in for a queue where none can be made (no
 * GPU): argument checks must reject before using it. */
gchol_queue_t testing_fake_queue(void);

/* Prints a CUDA / cuBLAS failure (file:line) and returns nonzero on failure,
 * so callers write `if (TESTING_CUDA(cudaMalloc(...))) goto cleanup;`. */
int testing_cuda_failed(int status, const char *call, const char *file, int line);
int testing_cublas_failed(int status, const char *call, const char *file, int line);
#define TESTING_CUDA(call)   testing_cuda_failed((int)(call), #call, __FILE__, __LINE__)
#define TESTING_CUBLAS(call) testing_cublas_failed((int)(call), #call, __FILE__, __LINE__)

/* Copies an m x n column-major block (element size es) between host and
 * device with leading dimensions ld_src / ld_dst. Returns 0 or -1. */
int testing_copy_h2d(size_t es, int64_t m, int64_t n,
                     const void *src, int64_t ld_src, void *dst, int64_t ld_dst);
int testing_copy_d2h(size_t es, int64_t m, int64_t n,
                     const void *src, int64_t ld_src, void *dst, int64_t ld_dst);

/* A device copy of `bytes` bytes of h (at least one byte allocated, so that
 * a size-0 array is still a distinct pointer); NULL on a CUDA failure
 * (reported). */
void *testing_upload(const void *h, size_t bytes);

/* bytes from d to h; 0 or -1 (nothing to do for bytes = 0). */
int testing_download(void *h, const void *d, size_t bytes);

/* ---------------------------------------------------------------------------
 * Random numbers.
 * ------------------------------------------------------------------------- */
typedef struct { uint64_t state; } testing_rng_t;

void     testing_rng_seed(testing_rng_t *rng, uint64_t seed);
uint64_t testing_rng_next(testing_rng_t *rng);      /* splitmix64          */
double   testing_rng_uniform(testing_rng_t *rng);   /* uniform in (-1, 1)  */

/* Counter-based: the same (seed, i, j) always gives the same uniform(-1, 1)
 * value, so a matrix can be generated column by column in any order, on any
 * number of threads. */
double testing_hash_uniform(uint64_t seed, int64_t i, int64_t j);

/* Runs fn(arg, begin, end) over [0, count) split into contiguous chunks on
 * all host cores (pthreads); inline when count is small. */
void testing_parallel_for(int64_t count, void (*fn)(void *arg, int64_t begin, int64_t end),
                          void *arg);

/* ---------------------------------------------------------------------------
 * Matrices (matrix.c).
 * ------------------------------------------------------------------------- */

/* The SPD matrix A(i,j) = A(j,i) = u(seed, max(i,j), min(i,j)) + (i == j ? n
 * : 0), u = testing_hash_uniform: strictly diagonally dominant, hence SPD,
 * and so are all its leading minors. uplo 'L' or 'U' writes that triangle
 * (diagonal included) and nothing else; 'A' writes the whole n x n matrix and
 * zeroes rows n..lda-1 of every column. Built on all host cores; 'd' and 's'
 * give the same matrix up to rounding. */
void testing_generate_spd(char prec, char uplo, int64_t n, void *A, int64_t lda,
                          uint64_t seed);

/* An m x n matrix (rows m..lda-1 zero) of entries uniform in the open
 * interval (lo, hi), from the seed and (i, j); on all host cores. */
void testing_generate_random(char prec, int64_t m, int64_t n, void *A, int64_t lda,
                             uint64_t seed, double lo, double hi);

/* Right-hand sides: the ldb x nrhs array B NaN, then its n x nrhs block
 * testing_hash_uniform(seed, i, j) (rounded to the precision). */
void testing_generate_rhs(char prec, int64_t n, int64_t nrhs, void *B, int64_t ldb,
                          uint64_t seed);

/* A "Gram" SPD matrix, not diagonally dominant: A = B*B^T/n + mu*I with B an
 * n x n matrix of uniform(-1,1) entries (testing_hash_uniform(seed, i, j)),
 * formed in double (cblas_dsyrk) and rounded to prec. Both triangles are
 * written (A is symmetric), padding rows are not. Its eigenvalues lie in
 * about [mu, 4/3 + mu] (Marchenko-Pastur), so cond(A) <= about (4/3+mu)/mu,
 * and every principal submatrix is SPD. Returns 0, or -1 if out of memory. */
int testing_generate_gram_spd(char prec, int64_t n, void *A, int64_t lda, double mu,
                              uint64_t seed);

/* testing_generate_gram_spd's matrix of order n with lda = n, kept from one
 * call to the next, for testers whose cases come grouped by n: the same
 * (prec, n, mu, seed) returns the kept matrix, another one replaces it.
 * NULL when out of memory. The caller must not free it:
 * testing_gram_release() does (testing_tester_main() calls it). */
const void *testing_gram_cached(char prec, int64_t n, double mu, uint64_t seed);
void testing_gram_release(void);

/* An ill-conditioned SPD matrix: A = B*B^T/rank + mu*I with B an n x rank
 * matrix of uniform(-1,1) entries, formed in double and rounded to prec;
 * only the `uplo` triangle (diagonal included) is written. n - rank of its
 * eigenvalues are mu, the others lie in about [mu, (1 + sqrt(n/rank))^2/3 +
 * mu], so cond(A) is about 2/mu for rank = n/2. Returns 0, or -1 if out of
 * memory. */
int testing_generate_lowrank_spd(char prec, char uplo, int64_t n, void *A, int64_t lda,
                                 int64_t rank, double mu, uint64_t seed);

/* An SPD matrix with the prescribed 2-norm condition number kappa:
 * Q diag(kappa^(-i/(n-1))) Q^T, eigenvalues from 1 down to 1/kappa
 * geometrically (LAPACK dlatms' mode 3), Q a product of three random
 * Householder reflections (a dense matrix, formed in O(n^2) in double and
 * rounded to prec). Both triangles are written, padding rows are not.
 * Returns 0, or -1 if out of memory. */
int testing_generate_cond_spd(char prec, int64_t n, void *A, int64_t lda, double kappa,
                              uint64_t seed);

/* Fills count elements with quiet NaNs, each with its own payload, so that a
 * byte comparison also catches elements moved to the wrong place. */
void testing_fill_nan(char prec, int64_t count, void *A);

/* Fills count elements with the value v (rounded to the precision). */
void testing_fill_value(char prec, int64_t count, void *A, double v);

/* Number of elements among the first count whose bytes differ (0: equal). */
int64_t testing_count_diff(char prec, int64_t count, const void *A, const void *B);

/* Number of elements of A, outside the referenced triangle (padding rows
 * n..lda-1 of every column, and the other strict triangle), whose bytes
 * differ from those of `saved` (same lda). 0 means untouched. */
int64_t testing_count_untouched_violations(char prec, char uplo, int64_t n,
                                           const void *A, const void *saved,
                                           int64_t lda);

/* Elements of padding rows n..ld-1 of the ncols columns of B that differ
 * from those of B0 (same ld). */
int64_t testing_count_padding_diff(char prec, int64_t n, int64_t ncols, const void *B,
                                   const void *B0, int64_t ld);

/* Converts the m x n block A (lda, precision prec) to double D (ldd). */
void testing_to_double(char prec, int64_t m, int64_t n, const void *A, int64_t lda,
                       double *D, int64_t ldd);

/* Elements of an RFP array of order n: n(n+1)/2 (0 for n <= 0). */
int64_t testing_rfp_size(int64_t n);

/* Guarded arrays: count elements with TESTING_GUARD sentinel elements
 * (TESTING_SENTINEL) on each side; the body is a copy of body, or NaN when
 * body is NULL. The caller frees the whole array (base pointer); the body
 * starts at base + TESTING_GUARD elements. NULL when out of memory. */
#define TESTING_GUARD    64
#define TESTING_SENTINEL (-7777.25)
void *testing_guarded_new(char prec, const void *body, int64_t count);

/* Guard elements of guarded array h that differ from those of h0. */
int64_t testing_guard_violations(char prec, const void *h, const void *h0, int64_t count);

/* ---------------------------------------------------------------------------
 * References and checks, all in double (check.c).
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

/* ||A||_inf of the n x n matrix A: symmetric from its uplo triangle ('L' or
 * 'U'), or general ('G'). NaN if an entry read is NaN. */
double testing_norm_inf(char prec, char uplo, int64_t n, const void *A, int64_t lda);

/* The solve's backward error ratio, in double:
 *     max_j ||b_j - A x_j||_inf / (||A||_inf ||x_j||_inf)
 * with A read as testing_norm_inf reads it, B n x nrhs (ldb), X n x nrhs
 * (ldx). NaN if any entry is NaN, -1 when out of memory. LAPACK's test
 * ratio divides it by n eps (?potrs) or eps (?sposv). */
double testing_solve_ratio(char prec, char uplo, int64_t n, int64_t nrhs, const void *A,
                           int64_t lda, const void *B, int64_t ldb, const void *X, int64_t ldx);

/* testing_solve_ratio over n eps (n at least 1), ?potrs's test ratio; -1
 * when out of memory, NaN when an entry is NaN. */
double testing_solve_berr(char prec, char uplo, int64_t n, int64_t nrhs, const void *A,
                          int64_t lda, const void *B, int64_t ldb, const void *X, int64_t ldx);

/* ---------------------------------------------------------------------------
 * The testers' command line and main() (tester.c).
 *
 * The testers of the solves and the RFP routines take one command line:
 *   --suite, --quick (the suite with fewer cases), -n LIST (the table's
 *   orders, default 1024,2048,4096,8192), --nrhs K and --transr N|T where
 *   the tester asks for them, --uplo L|U, --niter K (default 3).
 * Their main() hands testing_tester_main() a testing_tester_t.
 * ------------------------------------------------------------------------- */
enum { TESTING_CMD_NRHS = 1, TESTING_CMD_TRANSR = 2 };

typedef struct {
    int            suite, quick, niter;
    testing_list_t ns;
    int64_t        nrhs;         /* 1 unless --nrhs       */
    char           transr, uplo; /* 'N', 'L' unless given */
} testing_cmdline_t;

typedef struct {
    char           prec;         /* 'd' / 's', or 0 for a tester of one
                                    precision whose name says it (dsposv)    */
    const char    *routine;      /* "potrs": the suite's first line names
                                    testing_<prec><routine>                   */
    int            options;      /* TESTING_CMD_NRHS | TESTING_CMD_TRANSR      */
    gchol_queue_t *queue;        /* receives testing_queue_or_null(); NULL: the
                                    tester makes no queue (host forms only)   */
    const testing_entry_t *entries; /* the argument checks of the suite       */
    int            nentries;
    void         (*suite)(int quick);
    void         (*table)(const testing_cmdline_t *cmd);
} testing_tester_t;

/* Parses the command line, makes the queue, then runs either the suite (its
 * first line "testing_<prec><routine> --suite ...", the argument checks,
 * t->suite, "suite time ...") or the table; then destroys the queue,
 * finalizes gchol (with a GPU), releases the kept Gram matrix, frees the
 * list and returns testing_summary()'s exit status. */
int testing_tester_main(int argc, char **argv, const testing_tester_t *t);

/* The solve testers' table (?potrs, ?pftrs): the reference and header
 * lines; then one row per n, which passes when ok and 0 <= berr <
 * TESTING_TOL, is recorded, and shows the GPU and CPU seconds and GFLOP/s
 * (2 n^2 nrhs). */
void testing_solve_table_head(char prec, const char *routine, double mu);
void testing_solve_table_row(int64_t n, int64_t nrhs, double tg, double tc, double berr, int ok);

/* ---------------------------------------------------------------------------
 * RFP (rfp_check.c).
 * ------------------------------------------------------------------------- */

/* The four RFP variants (transr, uplo), in the order the testers run them:
 * NL, NU, TL, TU. */
extern const char testing_rfp_transr[4], testing_rfp_uplo[4];

/* The small RFP array of the host forms' checks without a GPU: the SPD
 * matrix of order 8 (testing_generate_spd, seed 9) as an RFP array (transr,
 * uplo; by LAPACKE) of 36 elements, between 8 NaN elements either side:
 * R and saved hold TESTING_RFP_SMALL_LEN elements, the array starts at
 * element TESTING_RFP_SMALL_GUARD of R, saved receives a copy of R. */
enum { TESTING_RFP_SMALL_N = 8, TESTING_RFP_SMALL_GUARD = 8, TESTING_RFP_SMALL_LEN = 36 + 2 * 8 };
void testing_rfp_small_spd(char prec, char transr, char uplo, void *R, void *saved);

/* The whole of testing_?trttf (full storage to RFP) and testing_?tfttr (RFP
 * to full storage), against LAPACKE_?trttf / ?tfttr bit for bit: the suite
 * (with the tester's argument checks, entries) and the table of
 * testing_tester_main(); returns main()'s exit status. */
typedef enum { TESTING_TRTTF, TESTING_TFTTR } testing_rfp_conv_t;
int testing_rfp_conversion_main(int argc, char **argv, char prec, testing_rfp_conv_t conv,
                                const testing_entry_t *entries, int nentries);

#endif /* GCHOL_TESTING_UTIL_H */
