/*
 * testing_wls.c -- tests and times gchol's weighted least squares by the
 * normal equations: gchol_dwls_gpu, gchol_swls_gpu (one precision), their
 * RFP forms, their host-memory forms gchol_?wls / gchol_?wls_rfp (A and B
 * streamed through the GPU in blocks, about five of the largest size
 * through the library's test hooks, src/test_hooks.h), and the
 * mixed-precision gchol_dswls_gpu / gchol_dswls_expert_gpu and its host
 * form gchol_dswls (A, d and B up whole, Y down), against CPU
 * references in double (OpenBLAS, LAPACKE). For each column b of B,
 *     y = argmin || D (A^T y - b) ||_2,  i.e.  (A D^2 A^T) y = A D^2 b,
 * A m x n, D = diag(d) n x n, B n x nrhs, Y m x nrhs.
 *
 * Suite mode (make test):            testing_wls --suite
 * Reduced (compute-sanitizer):       testing_wls --suite --quick
 *   One table row per call: m, n, nrhs, variant (dwls L/U, swls L/U, dswls,
 *   dswls_x = the expert form with opts NULL, dswls_tf32 = the expert form
 *   with products = TF32), the input kind, GPU ms, the checks' numbers, iter,
 *   info, and ok / FAILED (a FAILED row is followed by its reason).
 * Table mode (timing):
 *   testing_wls [-m LIST] [-n LIST] [--nrhs K] [--niter K]
 *               [--weights uniform|spread|none]
 *   m and n lists of equal length are paired; a single value pairs with
 *   every value of the other list. Prints the median GPU time of each
 *   variant and the backward residual ratio of each answer.
 *
 * CPU references, all in double: C = (A D)(A D)^T (cblas_dsyrk), its
 * Cholesky factor (LAPACKE_dpotrf), Y_ne = C^{-1} A D^2 B (dpotrs: the
 * normal equations solved in double), cond_1(C) (dpocon), and, for moderate
 * sizes, the QR answer Y_qr (LAPACKE_dgels on the n x m matrix D A^T with the
 * right-hand sides D B), printed for information only.
 *
 * Checks of every call that should succeed:
 * - backward residual of the normal equations, per column j,
 *       ||A D^2 (b_j - A^T y_j)||_inf / (||A D^2||_inf ||b_j||_inf
 *                                        + ||C||_inf ||y_j||_inf)
 *       / (eps max(m, n)) < 30                          (eps of the precision);
 * - forward error max|Y - Y_ne| / max|Y_ne| <= max(1e-10, 30 cond(C) eps) in
 *   double (dwls, dswls), <= max(1e-3, 30 cond(C) eps_s) for swls;
 * - wls: the factor in dC, ||C - L L^T||_1 / (m ||C||_1 eps) < 30, and dC's
 *   other triangle and padding rows bit for bit untouched (poisoned with
 *   NaNs of distinct payloads before the call);
 * - dY's padding rows untouched; dA, dd and dB (padding rows included) bit
 *   for bit unchanged; the return value equal to *info;
 * - dswls: iter in 0..30 on well-conditioned input (the TF32 form as well),
 *   or -31 below max(m,n) = 144, where a residual may stall at its rounding level.
 * The fallback and failure kinds:
 * - ill: cond(C) ~ 1e9, beyond single precision: dswls iter -3 or -31 (the
 *   fallback), its error within 10x of dwls's or <= 1e-4;
 * - big_A (one entry of A = 1e39 > FLT_MAX), big_d (d ~ 1e20: D^2 and C
 *   overflow single precision), huge_d (d ~ 1e39): dswls iter -2 and the
 *   same answer as dwls (relative difference <= 1e-12);
 * - rankdef (m > n): info in (n, m] and, for wls, Y untouched; dswls iter < 0
 *   and the same info range;
 * - nan_A (a NaN in row r of A): info = r + 1 exactly (the leading minors
 *   of order <= r do not see the NaN), Y untouched (wls); dswls iter < 0;
 * - nan_B (a NaN in B's column 0): info 0, Y's column 0 all NaN, the other
 *   columns checked as above; dswls iter -1 or -31;
 * - n = 0 with m > 0: C = 0 is not positive definite: info 1 (dswls: iter
 *   -3 then the fallback's info 1); nrhs = 0: wls still forms and factors C
 *   (checked), dswls returns at once with iter 0.
 * - argument checks (-i for every argument of every form, NULL pointers
 *   where the sizes allow them, the order of the checks) and the m = 0 /
 *   nrhs = 0 quick returns: these never touch the device, so they run and
 *   pass without a GPU too (on a fake queue that must never be used).
 *
 * Without a GPU every GPU case is recorded as skipped. Every mode ends with
 * "SUMMARY passed=P failed=F skipped=S".
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cublas_v2.h>

#include <cblas.h>
#include <lapacke.h>

#include "gchol.h"
#include "opts.h"
#include "test_hooks.h"
#include "util.h"

#define INFO_POISON TESTING_INFO_POISON
#define LEN(a)      TESTING_LEN(a)

/* Forward-error floors for well-conditioned inputs. */
#define FWD_TOL_DOUBLE 1e-10
#define FWD_TOL_SINGLE 1e-3
/* QR references (dgels, 2 n m^2 flops) only up to this n m^2. */
#define QR_MAX_WORK 2.5e10
/* A metric that does not apply to a row (printed "-"); NaN stays a NaN. */
#define NOT_APPLICABLE (-1.0)
/* The CPU forms C = (A D)(A D)^T up to this m^2 n, the GPU (cuBLAS) above. */
#define GRAM_CPU_MAX_WORK 1.5e11

static gchol_queue_t g_queue;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (!p) {
        fprintf(stdout, "out of host memory (%zu bytes)\n", bytes);
        fflush(stdout);
        exit(testing_summary() ? 1 : 3);
    }
    return p;
}

/* ===========================================================================
 * Device helpers: exact-size allocations, so that memcheck sees overruns.
 * ========================================================================= */
static void *dev_upload(const void *h, size_t bytes) { return testing_upload(h, bytes); }

static int dev_download(void *h, const void *d, size_t bytes)
{
    return testing_download(h, d, bytes);
}

/* ===========================================================================
 * Problems.
 * ========================================================================= */
typedef enum {
    K_WELL,    /* d uniform in [0.5, 2]                                      */
    K_NOD,     /* d = NULL (D = I)                                           */
    K_SPREAD,  /* d log-uniform in [1e-3, 1e3]                               */
    K_ILL,     /* the last row of A = its first + 1e-4 x random: cond(C) ~1e9 */
    K_BIG_A,   /* one entry of A = 1e39: beyond single, fine in double      */
    K_BIG_D,   /* d uniform in [0.5, 2] x 1e20: D^2 and C overflow single   */
    K_HUGE_D,  /* d uniform in [0.5, 2] x 1e39: d overflows single          */
    K_RANKDEF, /* m > n: rank(A D) = n < m                                   */
    K_NAN_A,   /* one NaN in row m / 2 of A                                  */
    K_NAN_B,   /* one NaN in column 0 of B                                   */
    K_ZERO_N,  /* n = 0 < m: C = 0                                           */
    K_COUNT
} kind_t;
static const char *const kind_name[K_COUNT] = { "well", "d=NULL", "spread", "ill", "big_A",
                                                "big_d", "huge_d", "rankdef", "nan_A", "nan_B",
                                                "n=0" };

/* V_?RFP_*: gchol_?wls_rfp_gpu, C in RFP storage (transr, uplo), the four
 * RFP variants spread over the two precisions. V_DSHOST: gchol_dswls, the
 * host form of dswls. V_?HOST*: the host-memory
 * forms gchol_?wls and gchol_?wls_rfp (A and B streamed in blocks, made
 * small through the test hooks: about five of the largest). */
typedef enum {
    V_DWLS_L, V_DWLS_U, V_SWLS_L, V_SWLS_U, V_DSWLS, V_DSWLS_X, V_DSWLS_TF32,
    V_DRFP_NL, V_DRFP_TU, V_SRFP_TL, V_SRFP_NU,
    V_DHOST_L, V_SHOST_U, V_DHOST_RFP_NU, V_SHOST_RFP_TL, V_DSHOST, V_COUNT
} variant_t;
static const char *const variant_name[V_COUNT] = { "dwls L", "dwls U", "swls L", "swls U",
                                                   "dswls", "dswls_x", "dswls_tf32",
                                                   "dwls rfp NL", "dwls rfp TU", "swls rfp TL",
                                                   "swls rfp NU", "dwls host L", "swls host U",
                                                   "dwls hostNU", "swls hostTL", "dswls host" };
#define VB(v) (1u << (v))
#define V_RFP (VB(V_DRFP_NL) | VB(V_DRFP_TU) | VB(V_SRFP_TL) | VB(V_SRFP_NU))
#define V_HOST (VB(V_DHOST_L) | VB(V_SHOST_U) | VB(V_DHOST_RFP_NU) | VB(V_SHOST_RFP_TL) | \
                VB(V_DSHOST))
#define V_SINGLE (VB(V_SWLS_L) | VB(V_SWLS_U) | VB(V_SRFP_TL) | VB(V_SRFP_NU) | VB(V_SHOST_U) | \
                  VB(V_SHOST_RFP_TL))
#define V_ALL (VB(V_DWLS_L) | VB(V_DWLS_U) | VB(V_SWLS_L) | VB(V_SWLS_U) | VB(V_DSWLS) | \
               VB(V_DSWLS_TF32) | V_RFP | V_HOST)

static int in(variant_t v, unsigned set) { return (VB(v) & set) != 0; }
static int is_host(variant_t v) { return in(v, V_HOST); }
static int is_rfp(variant_t v) { return in(v, V_RFP | VB(V_DHOST_RFP_NU) | VB(V_SHOST_RFP_TL)); }
static int is_wls(variant_t v) { return v <= V_SWLS_U || is_rfp(v) || (is_host(v) && v != V_DSHOST); }
static int is_single(variant_t v) { return in(v, V_SINGLE); }
static char variant_uplo(variant_t v)
{
    return in(v, VB(V_DWLS_U) | VB(V_SWLS_U) | VB(V_DRFP_TU) | VB(V_SRFP_NU) | VB(V_SHOST_U) |
                     VB(V_DHOST_RFP_NU)) ? 'U' : 'L';
}
/* 0 for full storage */
static char variant_transr(variant_t v)
{
    return !is_rfp(v) ? 0 : in(v, VB(V_DRFP_NL) | VB(V_SRFP_NU) | VB(V_DHOST_RFP_NU)) ? 'N' : 'T';
}

/* Extra rows of the leading dimensions: lda = m + a, ldb = n + b, lddc =
 * m + c, lddy = m + y. */
typedef struct { int64_t a, b, c, y; } pads_t;

typedef struct {
    int64_t m, n, nrhs;
    int64_t lda, ldb;      /* of the host arrays and of dA, dB           */
    kind_t  kind;
    int64_t defect_row;    /* nan_A, big_A: the row of the defect        */
    double *A, *d, *B;     /* inputs; padding rows NaN; d NULL for D = I */
    float  *As, *ds, *Bs;  /* the same rounded to single (swls)          */
    /* references */
    int     have_ref;
    double *C;             /* m x m, both triangles, ld m                */
    double  normC;         /* ||C||_inf = ||C||_1                        */
    double  normAD2;       /* ||A D^2||_inf                              */
    int64_t ref_info;      /* LAPACKE_dpotrf on C                        */
    double *Yne;           /* m x nrhs, ld m; NULL unless ref_info = 0   */
    double *Yqr;           /* m x nrhs, ld m; NULL when not computed     */
    double  kappa;         /* cond_1(C) from dpocon, or NOT_APPLICABLE   */
    /* dwls L's answer, for the dswls comparisons */
    double *Ydwls;
    double  err_dwls;
} problem_t;

static void problem_free(problem_t *p)
{
    free(p->A); free(p->d); free(p->B);
    free(p->As); free(p->ds); free(p->Bs);
    free(p->C); free(p->Yne); free(p->Yqr); free(p->Ydwls);
    memset(p, 0, sizeof(*p));
}

/* Whether the problem is meant to be representable in single precision. */
static int kind_fits_single(kind_t k) { return k != K_BIG_A && k != K_BIG_D && k != K_HUGE_D; }

/* A (m x n): uniform(-1, 1) when n >= 4m (then cond(A) <= about 3); else
 * 3 [I 0] + uniform(-1, 1) / sqrt(n), whose singular values lie within
 * 3 -+ 1.16 (Weyl): well-conditioned for any shape. d and B per the kind.
 * with_single: also the single-precision copies (swls). */
static void generate(problem_t *p, uint64_t seed, int with_single)
{
    const int64_t m = p->m, n = p->n, nrhs = p->nrhs, lda = p->lda, ldb = p->ldb;
    const int shifted = n < 4 * m;
    const double scale = shifted ? 1.0 / sqrt((double)max64(n, 1)) : 1.0;
    testing_rng_t rng;
    testing_rng_seed(&rng, seed);

    p->A = xmalloc((size_t)(lda * n) * sizeof(double));
    testing_fill_nan('d', lda * n, p->A);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            p->A[i + j * lda] = testing_rng_uniform(&rng) * scale + (shifted && i == j ? 3.0 : 0.0);
    if (p->kind == K_ILL && m >= 2)
        for (int64_t j = 0; j < n; j++)
            p->A[m - 1 + j * lda] = p->A[j * lda] + 1e-4 * p->A[m - 1 + j * lda];
    p->defect_row = m / 2;
    if (p->kind == K_BIG_A && n > 0) /* not 1e300: its square overflows double */
        p->A[p->defect_row + ((p->defect_row + n / 2) % n) * lda] = 1e39;
    if (p->kind == K_NAN_A && n > 0)
        p->A[p->defect_row + (n / 3) * lda] = NAN;

    p->d = NULL;
    if (p->kind != K_NOD && n > 0) {
        p->d = xmalloc((size_t)n * sizeof(double));
        for (int64_t k = 0; k < n; k++) {
            const double u = testing_rng_uniform(&rng); /* (-1, 1) */
            double v = pow(2.0, u);                      /* [0.5, 2] */
            if (p->kind == K_SPREAD) v = pow(10.0, 3.0 * u);
            if (p->kind == K_BIG_D) v *= 1e20;
            if (p->kind == K_HUGE_D) v *= 1e39;
            p->d[k] = v;
        }
    }

    p->B = xmalloc((size_t)(ldb * nrhs) * sizeof(double));
    testing_fill_nan('d', ldb * nrhs, p->B);
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < n; i++) p->B[i + j * ldb] = testing_rng_uniform(&rng);
    if (p->kind == K_NAN_B && n > 0 && nrhs > 0) p->B[n / 2] = NAN;

    if (with_single && kind_fits_single(p->kind)) {
        p->As = xmalloc((size_t)(lda * n) * sizeof(float));
        p->Bs = xmalloc((size_t)(ldb * nrhs) * sizeof(float));
        for (int64_t i = 0; i < lda * n; i++) p->As[i] = (float)p->A[i];
        for (int64_t i = 0; i < ldb * nrhs; i++) p->Bs[i] = (float)p->B[i];
        if (p->d) {
            p->ds = xmalloc((size_t)n * sizeof(float));
            for (int64_t k = 0; k < n; k++) p->ds[k] = (float)p->d[k];
        }
    }
}

/* W = A D (m x n, ld max(1, m)). */
static double *scaled_copy(const problem_t *p)
{
    const int64_t m = p->m, n = p->n, ldw = max64(1, m);
    double *W = xmalloc((size_t)(ldw * n) * sizeof(double));
    for (int64_t j = 0; j < n; j++) {
        const double dj = p->d ? p->d[j] : 1.0;
        for (int64_t i = 0; i < m; i++) W[i + j * ldw] = p->A[i + j * p->lda] * dj;
    }
    return W;
}

/* C = W W^T in the lower triangle of C (ld m) on the GPU with cuBLAS (an
 * independent reference, for sizes the CPU would take long on). */
static int gram_gpu(int64_t m, int64_t n, const double *W, double *C)
{
    double *dW = NULL, *dC = NULL;
    cublasHandle_t h = NULL;
    const double one = 1, zero = 0;
    int rc = -1;
    if (!(dW = dev_upload(W, (size_t)(m * n) * sizeof(double))) ||
        TESTING_CUDA(cudaMalloc((void **)&dC, (size_t)(m * m) * sizeof(double))) ||
        TESTING_CUBLAS(cublasCreate(&h)) ||
        TESTING_CUBLAS(cublasDsyrk_64(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, m, n, &one, dW, m,
                                      &zero, dC, m)) ||
        TESTING_CUDA(cudaDeviceSynchronize()) ||
        dev_download(C, dC, (size_t)(m * m) * sizeof(double)))
        goto out;
    rc = 0;
out:
    if (h) cublasDestroy(h);
    cudaFree(dW);
    cudaFree(dC);
    return rc;
}

/* The references. full = 0 (table mode): C and the norms only. */
static int compute_references(problem_t *p, int full)
{
    const int64_t m = p->m, n = p->n, nrhs = p->nrhs;
    p->kappa = NOT_APPLICABLE;
    p->ref_info = 0;
    p->C = xmalloc((size_t)(m * m) * sizeof(double));
    memset(p->C, 0, (size_t)(m * m) * sizeof(double));
    p->normAD2 = 0;
    for (int64_t i = 0; i < m; i++) {
        double s = 0;
        for (int64_t k = 0; k < n; k++) {
            const double dk = p->d ? p->d[k] : 1.0;
            s += fabs(p->A[i + k * p->lda]) * dk * dk;
        }
        p->normAD2 = s > p->normAD2 || isnan(s) ? s : p->normAD2;
    }
    double *W = NULL;
    if (n > 0 && m > 0) {
        W = scaled_copy(p);
        const double work = (double)m * (double)m * (double)n;
        if (work > GRAM_CPU_MAX_WORK && testing_have_gpu()) {
            if (gram_gpu(m, n, W, p->C)) { free(W); return -1; }
        } else {
            cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (blasint)m, (blasint)n, 1.0, W,
                        (blasint)m, 0.0, p->C, (blasint)m);
        }
    }
    for (int64_t j = 0; j < m; j++) /* mirror the lower triangle */
        for (int64_t i = 0; i < j; i++) p->C[i + j * m] = p->C[j + i * m];
    p->normC = 0;
    for (int64_t i = 0; i < m; i++) {
        double s = 0;
        for (int64_t j = 0; j < m; j++) s += fabs(p->C[i + j * m]);
        p->normC = s > p->normC || isnan(s) ? s : p->normC;
    }
    p->have_ref = 1;
    if (!full || m == 0) {
        free(W);
        return 0;
    }

    /* Y_ne: the normal equations in double; F = W (D B) */
    const int64_t ldf = max64(1, max64(m, n));
    double *DB = xmalloc((size_t)(ldf * max64(nrhs, 1)) * sizeof(double));
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < n; i++)
            DB[i + j * ldf] = p->B[i + j * p->ldb] * (p->d ? p->d[i] : 1.0);
    double *L = xmalloc((size_t)(m * m) * sizeof(double));
    memcpy(L, p->C, (size_t)(m * m) * sizeof(double));
    /* OpenBLAS's dpotrf does not flag NaN pivots: netlib semantics for nan_A */
    if (n == 0)
        p->ref_info = 1;
    else if (p->kind == K_NAN_A)
        p->ref_info = testing_reference_info('d', 'L', m, p->C, m);
    else
        p->ref_info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)m, L, (lapack_int)m);
    if (p->ref_info == 0) {
        double rcond = 0;
        if (LAPACKE_dpocon(LAPACK_COL_MAJOR, 'L', (lapack_int)m, L, (lapack_int)m, p->normC,
                           &rcond) == 0 && rcond > 0)
            p->kappa = 1.0 / rcond;
        if (nrhs > 0) {
            p->Yne = xmalloc((size_t)(m * nrhs) * sizeof(double));
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (blasint)m, (blasint)nrhs,
                        (blasint)n, 1.0, W, (blasint)m, DB, (blasint)ldf, 0.0, p->Yne, (blasint)m);
            LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', (lapack_int)m, (lapack_int)nrhs, L,
                           (lapack_int)m, p->Yne, (lapack_int)m);
        }
    }
    free(L);

    /* Y_qr: min || D A^T y - D b ||_2 by QR, for information */
    const double qr_work = (double)n * (double)m * (double)m;
    if (p->ref_info == 0 && nrhs > 0 && n >= m && qr_work <= QR_MAX_WORK &&
        (p->kind == K_WELL || p->kind == K_NOD || p->kind == K_SPREAD || p->kind == K_ILL)) {
        double *M = xmalloc((size_t)(n * m) * sizeof(double));
        for (int64_t j = 0; j < n; j++) /* M = W^T, n x m */
            for (int64_t i = 0; i < m; i++) M[j + i * n] = W[i + j * m];
        if (LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', (lapack_int)n, (lapack_int)m, (lapack_int)nrhs,
                          M, (lapack_int)n, DB, (lapack_int)ldf) == 0) {
            p->Yqr = xmalloc((size_t)(m * nrhs) * sizeof(double));
            for (int64_t j = 0; j < nrhs; j++)
                memcpy(p->Yqr + j * m, DB + j * ldf, (size_t)m * sizeof(double));
        }
        free(M);
    }
    free(DB);
    free(W);
    return 0;
}

/* ===========================================================================
 * Checks of an answer Y (double, m x nrhs, ld ldy), columns col0..nrhs-1.
 * ========================================================================= */

/* max_j ||A D^2 (b_j - A^T y_j)||_inf / (||A D^2||_inf ||b_j||_inf +
 * ||C||_inf ||y_j||_inf) / (eps max(m, n)); NaN if any entry is NaN. */
static double backward_ratio(const problem_t *p, const double *Y, int64_t ldy, int64_t col0,
                             double eps)
{
    const int64_t m = p->m, n = p->n, nrhs = p->nrhs - col0, ldt = max64(1, n);
    if (nrhs <= 0 || m == 0) return 0;
    const double *B = p->B + col0 * p->ldb;
    Y += col0 * ldy;
    double *T = xmalloc((size_t)(ldt * nrhs) * sizeof(double));
    double *R = xmalloc((size_t)(m * nrhs) * sizeof(double));
    for (int64_t j = 0; j < nrhs; j++)
        memcpy(T + j * ldt, B + j * p->ldb, (size_t)n * sizeof(double));
    if (n > 0) {
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (blasint)n, (blasint)nrhs,
                    (blasint)m, -1.0, p->A, (blasint)p->lda, Y, (blasint)ldy, 1.0, T,
                    (blasint)ldt);
        if (p->d)
            for (int64_t j = 0; j < nrhs; j++)
                for (int64_t i = 0; i < n; i++) T[i + j * ldt] *= p->d[i] * p->d[i];
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (blasint)m, (blasint)nrhs,
                    (blasint)n, 1.0, p->A, (blasint)p->lda, T, (blasint)ldt, 0.0, R, (blasint)m);
    } else {
        memset(R, 0, (size_t)(m * nrhs) * sizeof(double));
    }
    double worst = 0;
    for (int64_t j = 0; j < nrhs && !isnan(worst); j++) {
        double rn = 0, yn = 0, bn = 0;
        for (int64_t i = 0; i < m; i++) {
            rn = fmax(rn, fabs(R[i + j * m]));
            yn = fmax(yn, fabs(Y[i + j * ldy]));
            if (isnan(R[i + j * m]) || isnan(Y[i + j * ldy])) rn = NAN;
        }
        for (int64_t i = 0; i < n; i++) bn = fmax(bn, fabs(B[i + j * p->ldb]));
        if (isnan(rn)) { worst = NAN; break; }
        const double den = p->normAD2 * bn + p->normC * yn;
        const double q = rn == 0 ? 0 : rn / (den > 0 ? den : 1.0);
        worst = fmax(worst, q);
    }
    free(T);
    free(R);
    return worst / (eps * (double)max64(1, max64(m, n)));
}

/* max |Y - R| / max |R| over columns col0.., Y ld ldy, R ld m; NaN on NaN. */
static double rel_diff(int64_t m, int64_t nrhs, int64_t col0, const double *Y, int64_t ldy,
                       const double *R)
{
    double dmax = 0, rmax = 0;
    if (!R) return NAN;
    for (int64_t j = col0; j < nrhs; j++)
        for (int64_t i = 0; i < m; i++) {
            const double diff = fabs(Y[i + j * ldy] - R[i + j * m]);
            if (isnan(diff)) return NAN;
            dmax = fmax(dmax, diff);
            rmax = fmax(rmax, fabs(R[i + j * m]));
        }
    return dmax / (rmax > 0 ? rmax : 1.0);
}

static double fwd_tol(char prec, double kappa)
{
    const double floor_tol = prec == 's' ? FWD_TOL_SINGLE : FWD_TOL_DOUBLE;
    const double est = 30.0 * kappa * testing_eps(prec);
    return isnan(est) || est < floor_tol ? floor_tol : est;
}

/* ===========================================================================
 * One call of one variant on one problem, checked.
 * ========================================================================= */
static int64_t call_variant(variant_t v, const problem_t *p, const void *dA, const void *dd,
                            const void *dB, void *dC, int64_t lddc, void *dY, int64_t lddy,
                            int64_t *iter, int64_t *info)
{
    const char uplo = variant_uplo(v), transr = variant_transr(v);
    gchol_options_t o;
    gchol_options_default(&o);
    o.products = GCHOL_PRODUCTS_TF32;
    switch (v) {
    case V_DRFP_NL: case V_DRFP_TU:
        return gchol_dwls_rfp_gpu(transr, uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb,
                                  dC, dY, lddy, info, g_queue);
    case V_SRFP_TL: case V_SRFP_NU:
        return gchol_swls_rfp_gpu(transr, uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb,
                                  dC, dY, lddy, info, g_queue);
    case V_DWLS_L: case V_DWLS_U:
        return gchol_dwls_gpu(uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dC, lddc, dY,
                              lddy, info, g_queue);
    case V_SWLS_L: case V_SWLS_U:
        return gchol_swls_gpu(uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dC, lddc, dY,
                              lddy, info, g_queue);
    case V_DSWLS:
        return gchol_dswls_gpu(p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dY, lddy, iter,
                               info, g_queue);
    case V_DSWLS_X:
        return gchol_dswls_expert_gpu(p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dY, lddy,
                                      iter, info, NULL, g_queue);
    case V_DHOST_L:
        return gchol_dwls(uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dC, lddc, dY,
                          lddy, info);
    case V_SHOST_U:
        return gchol_swls(uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dC, lddc, dY,
                          lddy, info);
    case V_DHOST_RFP_NU:
        return gchol_dwls_rfp(transr, uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dC,
                              dY, lddy, info);
    case V_SHOST_RFP_TL:
        return gchol_swls_rfp(transr, uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dC,
                              dY, lddy, info);
    case V_DSHOST:
        return gchol_dswls(p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dY, lddy, iter, info);
    default:
        return gchol_dswls_expert_gpu(p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dY, lddy,
                                      iter, info, &o, g_queue);
    }
}

static void *dup_bytes(const void *h, size_t bytes)
{
    void *c = xmalloc(bytes ? bytes : 1);
    if (h && bytes) memcpy(c, h, bytes);
    return c;
}

/* The info a kind calls for: [lo, hi]. */
static void want_info(const problem_t *p, int64_t *lo, int64_t *hi)
{
    switch (p->kind) {
    case K_RANKDEF: *lo = p->n + 1; *hi = p->m; break;
    case K_NAN_A:   *lo = *hi = p->defect_row + 1; break;
    case K_ZERO_N:  *lo = *hi = 1; break;
    default:        *lo = *hi = 0; break;
    }
}

/* Whether iter is what dswls should report on this kind. */
static int iter_expected(const problem_t *p, int64_t iter)
{
    if (p->nrhs == 0) return iter == 0;
    switch (p->kind) {
    case K_WELL: case K_NOD: case K_SPREAD: /* below 144 a residual may stall at its
                                                rounding level, short of the bound */
        return (iter >= 0 && iter <= 30) || (iter == -31 && (p->m > p->n ? p->m : p->n) < 144);
    case K_ILL:    return iter == -3 || iter == -31;
    case K_BIG_A: case K_BIG_D: case K_HUGE_D: return iter == -2;
    case K_NAN_B:  return iter == -1 || iter == -31;
    case K_ZERO_N: return iter == -3;
    default:       return iter < 0; /* rankdef, nan_A */
    }
}

static void print_table_header(void)
{
    printf("  %5s %6s %4s %-11s %-7s %9s %9s %9s %9s %9s %8s %4s %5s  %s\n", "m", "n", "nrhs",
           "variant", "kind", "GPU ms", "resid", "err_ne", "err_qr", "factor", "cond(C)", "iter",
           "info", "check");
}

/* "%.2e", or "-" for NOT_APPLICABLE (and an unknown condition number). */
static void format_metric(char *buf, size_t size, double v)
{
    if (v == NOT_APPLICABLE)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.2e", v);
}

static testing_result_t run_variant(problem_t *p, variant_t v, const pads_t *pads)
{
    const int64_t m = p->m, n = p->n, nrhs = p->nrhs;
    const char prec = is_single(v) ? 's' : 'd', uplo = variant_uplo(v);
    const char transr = variant_transr(v);
    const size_t es = testing_elsize(prec);
    const int64_t lddc = max64(1, m + pads->c), lddy = max64(1, m + pads->y);
    /* RFP: the array and kRfpGuard poisoned elements after it */
    enum { kRfpGuard = 7 };
    const int64_t c_elems = transr ? testing_rfp_size(m) + kRfpGuard : lddc * m;
    const int wls = is_wls(v);
    char why[200] = "";
    double ms = NAN, resid = NOT_APPLICABLE, err_ne = NOT_APPLICABLE;
    double err_qr = NOT_APPLICABLE, fact = NOT_APPLICABLE;
    int64_t iter = INFO_POISON, info = INFO_POISON, ret = INFO_POISON;
    testing_result_t res = TESTING_FAILED;
    void *dA = NULL, *dd = NULL, *dB = NULL, *dC = NULL, *dY = NULL;
    const void *hA = is_single(v) ? (const void *)p->As : (const void *)p->A;
    const void *hd = is_single(v) ? (const void *)p->ds : (const void *)p->d;
    const void *hB = is_single(v) ? (const void *)p->Bs : (const void *)p->B;
    const size_t bytesA = (size_t)(p->lda * n) * es, bytesB = (size_t)(p->ldb * nrhs) * es;
    const size_t bytesd = (size_t)n * es;
    const size_t bytesC = (size_t)c_elems * es, bytesY = (size_t)(lddy * nrhs) * es;
    void *C0 = xmalloc(bytesC), *C = xmalloc(bytesC), *Y0 = xmalloc(bytesY), *Y = xmalloc(bytesY);
    void *back = xmalloc(bytesA > bytesB ? (bytesA > bytesd ? bytesA : bytesd)
                                         : (bytesB > bytesd ? bytesB : bytesd));
    double *Yd = xmalloc((size_t)(max64(1, m) * nrhs) * sizeof(double));
    testing_fill_nan(prec, c_elems, C0);
    testing_fill_nan(prec, lddy * nrhs, Y0);
    memcpy(C, C0, bytesC);
    memcpy(Y, Y0, bytesY);

    int64_t changed = 0;
    if (is_host(v)) {
        /* host arrays: copies of the inputs (compared after), C and Y as the
         * poisoned C0 and Y0 */
        void *cA = dup_bytes(hA, bytesA), *cd = hd ? dup_bytes(hd, bytesd) : NULL;
        void *cB = dup_bytes(hB, bytesB);
        const gchol_test_hooks_t hooks = { .host_chunk_bytes = m * (int64_t)es * max64(1, n / 5) };
        gchol_test_hooks_set(&hooks);
        /* the RFP variants with every array pinned (direct copies), the
         * others pageable (through the stager) */
        void *pin[5] = { cA, cd, cB, C, Y };
        const size_t pin_bytes[5] = { bytesA, bytesd, bytesB, bytesC, bytesY };
        int pinned[5] = { 0, 0, 0, 0, 0 };
        for (int k = 0; k < 5 && transr; k++)
            if (pin[k] && pin_bytes[k])
                pinned[k] = cudaHostRegister(pin[k], pin_bytes[k], cudaHostRegisterDefault) ==
                            cudaSuccess;
        (void)cudaGetLastError();
        const double t0 = testing_wtime();
        ret = call_variant(v, p, n > 0 ? cA : NULL, cd, n > 0 && nrhs > 0 ? cB : NULL, C, lddc,
                           nrhs > 0 ? Y : NULL, lddy, &iter, &info);
        ms = 1e3 * (testing_wtime() - t0);
        gchol_test_hooks_set(NULL);
        for (int k = 0; k < 5; k++)
            if (pinned[k]) cudaHostUnregister(pin[k]);
        changed = testing_count_diff(prec, p->lda * n, cA, hA) +
                  (hd ? testing_count_diff(prec, n, cd, hd) : 0) +
                  testing_count_diff(prec, p->ldb * nrhs, cB, hB);
        free(cA); free(cd); free(cB);
        goto results;
    }
    /* NULL where the sizes allow it: dA and dB with n = 0, dB and dY with
     * nrhs = 0 */
    if (n > 0 && !(dA = dev_upload(hA, bytesA))) goto out;
    if (hd && n > 0 && !(dd = dev_upload(hd, bytesd))) goto out;
    if (n > 0 && nrhs > 0 && !(dB = dev_upload(hB, bytesB))) goto out;
    if (wls && !(dC = dev_upload(C0, bytesC))) goto out;
    if (nrhs > 0 && !(dY = dev_upload(Y0, bytesY))) goto out;
    if (TESTING_CUDA(cudaDeviceSynchronize())) goto out;

    const double t0 = testing_wtime();
    ret = call_variant(v, p, dA, dd, dB, dC, lddc, dY, lddy, &iter, &info);
    ms = 1e3 * (testing_wtime() - t0);
    if (TESTING_CUDA(cudaDeviceSynchronize())) goto out;

    /* inputs unchanged, bit for bit */
    if (dA && !dev_download(back, dA, bytesA)) changed += testing_count_diff(prec, p->lda * n, back, hA);
    if (dd && !dev_download(back, dd, bytesd)) changed += testing_count_diff(prec, n, back, hd);
    if (dB && !dev_download(back, dB, bytesB)) changed += testing_count_diff(prec, p->ldb * nrhs, back, hB);
    if ((dC && dev_download(C, dC, bytesC)) || (dY && dev_download(Y, dY, bytesY))) goto out;

results:;
    int64_t lo, hi;
    want_info(p, &lo, &hi);
    const int want_ok = lo == 0;
    const int64_t col0 = p->kind == K_NAN_B ? 1 : 0;
    int64_t ypad = 0, ytouched = 0, cbad = 0, col0_not_nan = 0;
    for (int64_t j = 0; j < nrhs; j++)
        ypad += testing_count_diff(prec, lddy - m, (const char *)Y + (size_t)(j * lddy + m) * es,
                                   (const char *)Y0 + (size_t)(j * lddy + m) * es);
    if (wls && !want_ok) ytouched = testing_count_diff(prec, lddy * nrhs, Y, Y0);
    if (wls && transr) /* the guard after the RFP array */
        cbad = testing_count_diff(prec, kRfpGuard, (const char *)C + (size_t)(c_elems - kRfpGuard) * es,
                                  (const char *)C0 + (size_t)(c_elems - kRfpGuard) * es);
    else if (wls)
        cbad = testing_count_untouched_violations(prec, uplo, m, C, C0, lddc);
    testing_to_double(prec, m, nrhs, Y, lddy, Yd, max64(1, m));

    if (want_ok && info == 0 && p->have_ref) {
        const double eps = testing_eps(prec);
        resid = backward_ratio(p, Yd, max64(1, m), col0, eps);
        if (p->Yne) err_ne = rel_diff(m, nrhs, col0, Yd, max64(1, m), p->Yne);
        if (p->Yqr) err_qr = rel_diff(m, nrhs, col0, Yd, max64(1, m), p->Yqr);
        if (p->kind == K_NAN_B)
            for (int64_t i = 0; i < m; i++) col0_not_nan += !isnan(Yd[i]);
        if (wls && m > 0) {
            void *Cp = p->C; /* the reference C in the variant's precision */
            if (prec == 's') {
                Cp = xmalloc((size_t)(m * m) * sizeof(float));
                for (int64_t i = 0; i < m * m; i++) ((float *)Cp)[i] = (float)p->C[i];
            }
            if (transr) { /* the RFP factor as a full triangle, as LAPACK's ?tfttr writes it */
                void *Cfull = xmalloc((size_t)(m * m) * es);
                testing_fill_nan(prec, m * m, Cfull);
                const lapack_int rc = prec == 's'
                    ? LAPACKE_stfttr(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)m, C, Cfull, (lapack_int)m)
                    : LAPACKE_dtfttr(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)m, C, Cfull, (lapack_int)m);
                if (rc || testing_residual(prec, uplo, m, Cp, m, Cfull, m, NULL, m, &fact)) fact = NAN;
                free(Cfull);
            } else if (testing_residual(prec, uplo, m, Cp, m, C, lddc, dC, lddc, &fact)) {
                fact = NAN;
            }
            if (Cp != p->C) free(Cp);
        } else if (wls) {
            fact = 0;
        }
    }
    /* dwls L's answer: what the dswls fallbacks are compared with */
    if (v == V_DWLS_L && want_ok && info == 0 && nrhs > 0) {
        free(p->Ydwls);
        p->Ydwls = xmalloc((size_t)(m * nrhs) * sizeof(double));
        for (int64_t j = 0; j < nrhs; j++) memcpy(p->Ydwls + j * m, Yd + j * m, (size_t)m * sizeof(double));
        p->err_dwls = err_ne;
    }

    /* the forward-error check each kind calls for */
    const double tol = fwd_tol(prec, p->kappa);
    double cmp_dwls = NAN;
    int fwd_ok = 1;
    if (want_ok && info == 0 && nrhs > col0 && p->have_ref) {
        const int vs_dwls = !wls && p->Ydwls &&
                            (p->kind == K_BIG_A || p->kind == K_BIG_D || p->kind == K_HUGE_D);
        if (vs_dwls) {
            cmp_dwls = rel_diff(m, nrhs, col0, Yd, max64(1, m), p->Ydwls);
            fwd_ok = cmp_dwls <= 1e-12;
        }
        if (p->kind == K_ILL && !wls)
            fwd_ok = p->Yne && err_ne <= fmax(1e-4, isnan(p->err_dwls) ? 0.0 : 10.0 * p->err_dwls);
        else if (p->kind != K_BIG_A)
            fwd_ok = fwd_ok && p->Yne && err_ne <= tol;
    }

    if (ret != info)
        snprintf(why, sizeof why, "return %lld != info %lld", (long long)ret, (long long)info);
    else if (info <= GCHOL_ERR_NO_DEVICE)
        snprintf(why, sizeof why, "library error %lld: %s", (long long)info, gchol_strerror(info));
    else if (info < lo || info > hi)
        snprintf(why, sizeof why, "info %lld, want %lld..%lld (CPU dpotrf on C: %lld)",
                 (long long)info, (long long)lo, (long long)hi, (long long)p->ref_info);
    else if (!wls && !iter_expected(p, iter))
        snprintf(why, sizeof why, "iter %lld not expected for kind %s", (long long)iter,
                 kind_name[p->kind]);
    else if (changed)
        snprintf(why, sizeof why, "inputs A, d or B written (%lld elements)", (long long)changed);
    else if (ypad)
        snprintf(why, sizeof why, "Y padding rows written (%lld)", (long long)ypad);
    else if (ytouched)
        snprintf(why, sizeof why, "Y written although info > 0 (%lld)", (long long)ytouched);
    else if (cbad)
        snprintf(why, sizeof why, "C outside the %s written (%lld)",
                 transr ? "RFP array" : uplo == 'U' ? "U triangle" : "L triangle", (long long)cbad);
    else if (want_ok && !(resid < TESTING_TOL))
        snprintf(why, sizeof why, "backward residual ratio %.2e >= %.0f", resid, TESTING_TOL);
    else if (want_ok && wls && !(fact < TESTING_TOL))
        snprintf(why, sizeof why, "factor residual %.2e >= %.0f", fact, TESTING_TOL);
    else if (col0_not_nan)
        snprintf(why, sizeof why, "NaN in b_0 did not make y_0 NaN (%lld finite)", (long long)col0_not_nan);
    else if (!fwd_ok)
        snprintf(why, sizeof why, "forward error %.2e (tol %.1e, cond %.1e; dwls %.2e, vs dwls %.2e)",
                 err_ne, tol, p->kappa, p->err_dwls, cmp_dwls);
    else
        res = TESTING_PASSED;
out:;
    char iter_s[24] = "-", nums[5][16];
    if (!wls) snprintf(iter_s, sizeof iter_s, "%lld", (long long)iter);
    const double shown[5] = { resid, err_ne, err_qr, fact, p->kappa };
    for (int k = 0; k < 5; k++) format_metric(nums[k], sizeof nums[k], shown[k]);
    printf("  %5lld %6lld %4lld %-11s %-7s %9.3f %9s %9s %9s %9s %8s %4s %5lld  %s\n",
           (long long)m, (long long)n, (long long)nrhs, variant_name[v], kind_name[p->kind], ms,
           nums[0], nums[1], nums[2], nums[3], nums[4], iter_s, (long long)info,
           testing_result_name(res));
    if (res != TESTING_PASSED)
        printf("        -> %s\n", why[0] ? why : "a CUDA call failed (see above)");
    fflush(stdout);
    cudaFree(dA); cudaFree(dd); cudaFree(dB); cudaFree(dC); cudaFree(dY);
    free(C0); free(C); free(Y0); free(Y); free(back); free(Yd);
    return testing_record(res);
}

/* Generates one problem, computes its references and runs the variants in
 * `variants` (dwls L first: dswls's fallbacks are compared with it). */
static void run_problem(int64_t m, int64_t n, int64_t nrhs, kind_t kind, unsigned variants,
                        const pads_t *pads)
{
    if (!testing_have_gpu() || !g_queue) {
        for (int v = 0; v < V_COUNT; v++)
            if (variants & VB(v)) {
                const testing_result_t r = testing_have_gpu() ? TESTING_FAILED : TESTING_SKIPPED;
                printf("  %5lld %6lld %4lld %-11s %-7s %s  %s\n", (long long)m, (long long)n,
                       (long long)nrhs, variant_name[v], kind_name[kind],
                       testing_have_gpu() ? "(no queue)" : "(no GPU)", testing_result_name(r));
                testing_record(r);
            }
        return;
    }
    problem_t p;
    memset(&p, 0, sizeof p);
    p.m = m; p.n = n; p.nrhs = nrhs; p.kind = kind;
    p.lda = max64(1, m + pads->a);
    p.ldb = max64(1, n + pads->b);
    p.err_dwls = NAN;
    generate(&p, 0x5eed0000ull + 1000003ull * (uint64_t)m + 7919ull * (uint64_t)n +
                     101ull * (uint64_t)kind + (uint64_t)nrhs,
             (variants & V_SINGLE) != 0);
    if (compute_references(&p, 1)) {
        printf("  reference computation failed for m=%lld n=%lld\n", (long long)m, (long long)n);
        testing_record(TESTING_FAILED);
        problem_free(&p);
        return;
    }
    for (int v = 0; v < V_COUNT; v++)
        if (variants & VB(v)) {
            if (is_single((variant_t)v) && !kind_fits_single(kind)) continue;
            run_variant(&p, (variant_t)v, pads);
        }
    problem_free(&p);
}

/* ===========================================================================
 * Argument checks and quick returns: never touch the device.
 * ========================================================================= */
typedef enum { F_DWLS, F_SWLS, F_DSWLS, F_DSWLS_X, F_DWLS_RFP, F_SWLS_RFP, F_COUNT } form_t;
static const char *const form_name[F_COUNT] = { "dwls_gpu", "swls_gpu", "dswls_gpu",
                                                "dswls_expert", "dwls_rfp_gpu", "swls_rfp_gpu" };

enum { P_A = 1, P_D = 2, P_B = 4, P_C = 8, P_Y = 16, P_ITER = 32, P_INFO = 64, P_QUEUE = 128,
       P_OPTS = 256 };
enum { BAD_OPTS_NONE, BAD_OPTS_PRODUCTS, BAD_OPTS_TRACE };

typedef struct {
    const char *what;
    char        transr;   /* the RFP forms */
    char        uplo;
    int64_t     m, n, nrhs, ldda, lddb, lddc, lddy;
    unsigned    nulls;    /* P_* bits: pointers passed as NULL */
    int         bad_opts; /* expert form: an invalid opts      */
    int64_t     expect;   /* the return value and *info        */
} argcase_t;

#define ARG_BUF 64 /* elements of each argument buffer (doubles) */

static argcase_t base_case(const char *what, int64_t expect)
{
    argcase_t c = { what, 'N', 'L', 4, 6, 2, 4, 6, 4, 4, 0, BAD_OPTS_NONE, expect };
    return c;
}

/* Runs one argument case on buffers that must stay untouched: device buffers
 * with a GPU, host buffers (and a fake queue) without one. */
static testing_result_t run_argcase(form_t f, const argcase_t *c)
{
    const int gpu = testing_have_gpu() && g_queue;
    double host[5][ARG_BUF], saved[5][ARG_BUF];
    void *buf[5] = { NULL, NULL, NULL, NULL, NULL }; /* A, d, B, C, Y */
    gchol_queue_t q = gpu ? g_queue : testing_fake_queue();
    int64_t iter = INFO_POISON, info = INFO_POISON, ret = INFO_POISON;
    gchol_trace_event_t events[4];
    gchol_trace_t trace = { events, LEN(events), 0 };
    gchol_options_t o;
    int ok = 1;

    testing_fill_nan('d', 5 * ARG_BUF, host);
    memcpy(saved, host, sizeof host);
    for (int k = 0; k < 5; k++) {
        if (gpu) {
            if (!(buf[k] = dev_upload(host[k], sizeof host[k]))) ok = 0;
        } else {
            buf[k] = host[k];
        }
    }
    gchol_options_default(&o);
    if (c->bad_opts == BAD_OPTS_PRODUCTS) o.products = 7;
    if (c->bad_opts == BAD_OPTS_TRACE) o.trace = &trace;

    const void *A = c->nulls & P_A ? NULL : buf[0], *d = c->nulls & P_D ? NULL : buf[1];
    const void *B = c->nulls & P_B ? NULL : buf[2];
    void *C = c->nulls & P_C ? NULL : buf[3], *Y = c->nulls & P_Y ? NULL : buf[4];
    int64_t *piter = c->nulls & P_ITER ? NULL : &iter, *pinfo = c->nulls & P_INFO ? NULL : &info;
    const gchol_options_t *po = c->nulls & P_OPTS ? NULL : &o;
    if (c->nulls & P_QUEUE) q = NULL;

    if (ok) {
        switch (f) {
        case F_DWLS:
            ret = gchol_dwls_gpu(c->uplo, c->m, c->n, c->nrhs, A, c->ldda, d, B, c->lddb, C,
                                 c->lddc, Y, c->lddy, pinfo, q);
            break;
        case F_SWLS:
            ret = gchol_swls_gpu(c->uplo, c->m, c->n, c->nrhs, A, c->ldda, d, B, c->lddb, C,
                                 c->lddc, Y, c->lddy, pinfo, q);
            break;
        case F_DSWLS:
            ret = gchol_dswls_gpu(c->m, c->n, c->nrhs, A, c->ldda, d, B, c->lddb, Y, c->lddy,
                                  piter, pinfo, q);
            break;
        case F_DWLS_RFP:
            ret = gchol_dwls_rfp_gpu(c->transr, c->uplo, c->m, c->n, c->nrhs, A, c->ldda, d, B,
                                     c->lddb, C, Y, c->lddy, pinfo, q);
            break;
        case F_SWLS_RFP:
            ret = gchol_swls_rfp_gpu(c->transr, c->uplo, c->m, c->n, c->nrhs, A, c->ldda, d, B,
                                     c->lddb, C, Y, c->lddy, pinfo, q);
            break;
        default:
            ret = gchol_dswls_expert_gpu(c->m, c->n, c->nrhs, A, c->ldda, d, B, c->lddb, Y,
                                         c->lddy, piter, pinfo, po, q);
            break;
        }
    }
    for (int k = 0; k < 5 && gpu; k++)
        if (!buf[k] || dev_download(host[k], buf[k], sizeof host[k])) ok = 0;
    const int untouched = memcmp(host, saved, sizeof host) == 0;
    const int is_dswls = f == F_DSWLS || f == F_DSWLS_X;
    /* iter: 0 on the quick returns; not specified after -i */
    const int iter_ok = !is_dswls || c->expect != 0 || !piter || iter == 0;
    ok = ok && ret == c->expect && (!pinfo || info == c->expect) && untouched && iter_ok;
    for (int k = 0; k < 5 && gpu; k++) cudaFree(buf[k]);
    return testing_expect(ok, "%-12s %-58s ret %lld (want %lld) info %lld%s%s", form_name[f],
                          c->what, (long long)ret, (long long)c->expect,
                          (long long)(pinfo ? info : ret), untouched ? "" : " BUFFERS WRITTEN",
                          iter_ok ? "" : " iter not 0");
}

/* The host forms gchol_dwls (rfp = 0) and gchol_swls_rfp (rfp = 1) on host
 * buffers that must stay untouched: every argument position, the m = 0
 * quick return, and (without a GPU) a legal call: GCHOL_ERR_NO_DEVICE. */
static void run_host_arg_checks(int rfp)
{
    const int64_t s = rfp; /* the RFP form's arguments 2-11 are the full form's 1-10 */
    argcase_t list[24];
    int k = 0;
    argcase_t c;
    if (rfp) { c = base_case("arg 1: transr = 'C'", -1); c.transr = 'C'; list[k++] = c; }
    c = base_case("uplo = 'X'", -(1 + s)); c.uplo = 'X'; list[k++] = c;
    c = base_case("m = -1", -(2 + s)); c.m = -1; list[k++] = c;
    c = base_case("n = -1", -(3 + s)); c.n = -1; list[k++] = c;
    c = base_case("nrhs = -1", -(4 + s)); c.nrhs = -1; list[k++] = c;
    c = base_case("A = NULL", -(5 + s)); c.nulls = P_A; list[k++] = c;
    c = base_case("lda = m - 1", -(6 + s)); c.ldda = 3; list[k++] = c;
    c = base_case("B = NULL", -(8 + s)); c.nulls = P_B; list[k++] = c;
    c = base_case("ldb = n - 1", -(9 + s)); c.lddb = 5; list[k++] = c;
    c = base_case("C = NULL", -(10 + s)); c.nulls = P_C; list[k++] = c;
    if (!rfp) { c = base_case("ldc = m - 1", -11); c.lddc = 3; list[k++] = c; }
    c = base_case("Y = NULL", -12); c.nulls = P_Y; list[k++] = c;
    c = base_case("ldy = m - 1", -13); c.lddy = 3; list[k++] = c;
    c = base_case("info = NULL", -14); c.nulls = P_INFO; list[k++] = c;
    c = base_case("quick return m = 0 (A, C, Y NULL)", 0);
    c.m = 0; c.ldda = c.lddc = c.lddy = 1; c.nulls = P_A | P_C | P_Y; list[k++] = c;
    if (!testing_have_gpu()) {
        c = base_case("legal, no GPU: GCHOL_ERR_NO_DEVICE", GCHOL_ERR_NO_DEVICE); list[k++] = c;
    }
    for (int i = 0; i < k; i++) {
        double host[5][ARG_BUF], saved[5][ARG_BUF];
        testing_fill_nan('d', 5 * ARG_BUF, host);
        memcpy(saved, host, sizeof host);
        const argcase_t *a = &list[i];
        int64_t info = INFO_POISON, ret;
        int64_t *pinfo = a->nulls & P_INFO ? NULL : &info;
        void *A = a->nulls & P_A ? NULL : host[0], *d = host[1];
        void *B = a->nulls & P_B ? NULL : host[2], *C = a->nulls & P_C ? NULL : host[3];
        void *Y = a->nulls & P_Y ? NULL : host[4];
        if (rfp)
            ret = gchol_swls_rfp(a->transr, a->uplo, a->m, a->n, a->nrhs, A, a->ldda, d, B,
                                 a->lddb, C, Y, a->lddy, pinfo);
        else
            ret = gchol_dwls(a->uplo, a->m, a->n, a->nrhs, A, a->ldda, d, B, a->lddb, C, a->lddc,
                             Y, a->lddy, pinfo);
        const int untouched = memcmp(host, saved, sizeof host) == 0;
        testing_expect(ret == a->expect && (!pinfo || info == a->expect) && untouched,
                       "%-12s %-58s ret %lld (want %lld) info %lld%s", rfp ? "swls_rfp" : "dwls",
                       a->what, (long long)ret, (long long)a->expect,
                       (long long)(pinfo ? info : ret), untouched ? "" : " BUFFERS WRITTEN");
    }
}

/* gchol_dswls (host arrays): dswls_gpu's arguments 1-12, no queue. */
static void run_dswls_host_arg_checks(void)
{
    argcase_t list[24];
    int k = 0;
    argcase_t c;
    c = base_case("m = -1", -1); c.m = -1; list[k++] = c;
    c = base_case("n = -1", -2); c.n = -1; list[k++] = c;
    c = base_case("nrhs = -1", -3); c.nrhs = -1; list[k++] = c;
    c = base_case("A = NULL", -4); c.nulls = P_A; list[k++] = c;
    c = base_case("lda = m - 1", -5); c.ldda = 3; list[k++] = c;
    c = base_case("B = NULL", -7); c.nulls = P_B; list[k++] = c;
    c = base_case("ldb = n - 1", -8); c.lddb = 5; list[k++] = c;
    c = base_case("Y = NULL", -9); c.nulls = P_Y; list[k++] = c;
    c = base_case("ldy = m - 1", -10); c.lddy = 3; list[k++] = c;
    c = base_case("iter = NULL", -11); c.nulls = P_ITER; list[k++] = c;
    c = base_case("info = NULL", -12); c.nulls = P_INFO; list[k++] = c;
    c = base_case("order: lda = m - 1 and info NULL", -5); c.ldda = 3; c.nulls = P_INFO;
    list[k++] = c;
    c = base_case("quick return m = 0 (A, Y NULL)", 0);
    c.m = 0; c.ldda = c.lddy = 1; c.nulls = P_A | P_Y; list[k++] = c;
    c = base_case("quick return nrhs = 0 (B, Y NULL)", 0);
    c.nrhs = 0; c.nulls = P_B | P_Y; list[k++] = c;
    if (!testing_have_gpu()) {
        c = base_case("legal, no GPU: GCHOL_ERR_NO_DEVICE", GCHOL_ERR_NO_DEVICE); list[k++] = c;
        c = base_case("legal, d = NULL, no GPU: GCHOL_ERR_NO_DEVICE", GCHOL_ERR_NO_DEVICE);
        c.nulls = P_D; list[k++] = c;
    }
    for (int i = 0; i < k; i++) {
        double host[4][ARG_BUF], saved[4][ARG_BUF];
        testing_fill_nan('d', 4 * ARG_BUF, host);
        memcpy(saved, host, sizeof host);
        const argcase_t *a = &list[i];
        int64_t info = INFO_POISON, iter = INFO_POISON;
        int64_t *pinfo = a->nulls & P_INFO ? NULL : &info, *piter = a->nulls & P_ITER ? NULL : &iter;
        const double *A = a->nulls & P_A ? NULL : host[0], *d = a->nulls & P_D ? NULL : host[1];
        const double *B = a->nulls & P_B ? NULL : host[2];
        double *Y = a->nulls & P_Y ? NULL : host[3];
        const int64_t ret = gchol_dswls(a->m, a->n, a->nrhs, A, a->ldda, d, B, a->lddb, Y,
                                        a->lddy, piter, pinfo);
        const int untouched = memcmp(host, saved, sizeof host) == 0;
        const int iter_ok = !piter || (a->expect == 0 ? iter == 0 : 1);
        testing_expect(ret == a->expect && (!pinfo || info == a->expect) && untouched && iter_ok,
                       "%-12s %-58s ret %lld (want %lld) info %lld iter %lld%s", "dswls (host)",
                       a->what, (long long)ret, (long long)a->expect,
                       (long long)(pinfo ? info : ret), (long long)(piter ? iter : 0),
                       untouched ? "" : " BUFFERS WRITTEN");
    }
}

static void run_arg_checks(void)
{
    printf("\n-- argument checks and quick returns (host side: run without a GPU too) --\n");
    run_host_arg_checks(0);
    run_host_arg_checks(1);
    run_dswls_host_arg_checks();
    for (int f = F_DWLS; f <= F_SWLS; f++) {
        argcase_t list[32];
        int k = 0;
        argcase_t c;
        c = base_case("arg 1: uplo = 'X'", -1); c.uplo = 'X'; list[k++] = c;
        c = base_case("arg 2: m = -1", -2); c.m = -1; list[k++] = c;
        c = base_case("arg 3: n = -1", -3); c.n = -1; list[k++] = c;
        c = base_case("arg 4: nrhs = -1", -4); c.nrhs = -1; list[k++] = c;
        c = base_case("arg 5: dA = NULL", -5); c.nulls = P_A; list[k++] = c;
        c = base_case("arg 6: ldda = m - 1", -6); c.ldda = 3; list[k++] = c;
        c = base_case("arg 7: dd = NULL is legal (then queue NULL: -15)", -15);
        c.nulls = P_D | P_QUEUE; list[k++] = c;
        c = base_case("arg 8: dB = NULL", -8); c.nulls = P_B; list[k++] = c;
        c = base_case("arg 9: lddb = n - 1", -9); c.lddb = 5; list[k++] = c;
        c = base_case("arg 10: dC = NULL", -10); c.nulls = P_C; list[k++] = c;
        c = base_case("arg 11: lddc = m - 1", -11); c.lddc = 3; list[k++] = c;
        c = base_case("arg 12: dY = NULL", -12); c.nulls = P_Y; list[k++] = c;
        c = base_case("arg 13: lddy = m - 1", -13); c.lddy = 3; list[k++] = c;
        c = base_case("arg 14: info = NULL", -14); c.nulls = P_INFO; list[k++] = c;
        c = base_case("arg 15: queue = NULL", -15); c.nulls = P_QUEUE; list[k++] = c;
        c = base_case("uplo 'u' is legal (queue NULL: -15)", -15); c.uplo = 'u';
        c.nulls = P_QUEUE; list[k++] = c;
        c = base_case("m = 0: dA, dC, dY NULL, ldda = lddc = lddy = 1 legal", -15);
        c.m = 0; c.ldda = c.lddc = c.lddy = 1; c.nulls = P_A | P_C | P_Y | P_QUEUE; list[k++] = c;
        c = base_case("n = 0: dA, dd, dB NULL, lddb = 1 legal", -15);
        c.n = 0; c.lddb = 1; c.nulls = P_A | P_D | P_B | P_QUEUE; list[k++] = c;
        c = base_case("nrhs = 0: dB, dY NULL legal", -15);
        c.nrhs = 0; c.nulls = P_B | P_Y | P_QUEUE; list[k++] = c;
        c = base_case("m = 0, ldda = 0 < max(1, m)", -6); c.m = 0; c.ldda = 0; list[k++] = c;
        c = base_case("n = 0, lddb = 0 < max(1, n)", -9); c.n = 0; c.lddb = 0; list[k++] = c;
        c = base_case("m = 0, lddc = 0 < max(1, m)", -11); c.m = 0; c.ldda = 1; c.lddc = 0;
        c.lddy = 1; list[k++] = c;
        c = base_case("m = 0, lddy = 0 < max(1, m)", -13); c.m = 0; c.ldda = 1; c.lddc = 1;
        c.lddy = 0; list[k++] = c;
        c = base_case("order: m = -1 and queue NULL", -2); c.m = -1; c.nulls = P_QUEUE; list[k++] = c;
        c = base_case("order: lddc = m - 1 and info NULL", -11); c.lddc = 3; c.nulls = P_INFO;
        list[k++] = c;
        c = base_case("order: dA NULL, ldda bad, dY NULL", -5); c.ldda = 1;
        c.nulls = P_A | P_Y; list[k++] = c;
        c = base_case("quick return m = 0 (dA, dC, dY NULL)", 0);
        c.m = 0; c.ldda = c.lddc = c.lddy = 1; c.nulls = P_A | P_C | P_Y; list[k++] = c;
        c = base_case("quick return m = 0, n = 0, nrhs = 0 (all NULL)", 0);
        c.m = c.n = c.nrhs = 0; c.ldda = c.lddb = c.lddc = c.lddy = 1;
        c.nulls = P_A | P_D | P_B | P_C | P_Y; list[k++] = c;
        for (int i = 0; i < k; i++) run_argcase((form_t)f, &list[i]);
    }
    /* the RFP forms: transr first and no lddc, so arguments 2-11 are the
     * full forms' 1-10 */
    for (int f = F_DWLS_RFP; f <= F_SWLS_RFP; f++) {
        argcase_t list[32];
        int k = 0;
        argcase_t c;
        c = base_case("arg 1: transr = 'C'", -1); c.transr = 'C'; list[k++] = c;
        c = base_case("arg 2: uplo = 'X'", -2); c.uplo = 'X'; list[k++] = c;
        c = base_case("arg 3: m = -1", -3); c.m = -1; list[k++] = c;
        c = base_case("arg 4: n = -1", -4); c.n = -1; list[k++] = c;
        c = base_case("arg 5: nrhs = -1", -5); c.nrhs = -1; list[k++] = c;
        c = base_case("arg 6: dA = NULL", -6); c.nulls = P_A; list[k++] = c;
        c = base_case("arg 7: ldda = m - 1", -7); c.ldda = 3; list[k++] = c;
        c = base_case("arg 8: dd = NULL is legal (then queue NULL: -15)", -15);
        c.nulls = P_D | P_QUEUE; list[k++] = c;
        c = base_case("arg 9: dB = NULL", -9); c.nulls = P_B; list[k++] = c;
        c = base_case("arg 10: lddb = n - 1", -10); c.lddb = 5; list[k++] = c;
        c = base_case("arg 11: dC = NULL", -11); c.nulls = P_C; list[k++] = c;
        c = base_case("arg 12: dY = NULL", -12); c.nulls = P_Y; list[k++] = c;
        c = base_case("arg 13: lddy = m - 1", -13); c.lddy = 3; list[k++] = c;
        c = base_case("arg 14: info = NULL", -14); c.nulls = P_INFO; list[k++] = c;
        c = base_case("arg 15: queue = NULL", -15); c.nulls = P_QUEUE; list[k++] = c;
        c = base_case("transr 't', uplo 'u' legal (queue NULL: -15)", -15); c.transr = 't';
        c.uplo = 'u'; c.nulls = P_QUEUE; list[k++] = c;
        c = base_case("lddc is not an argument: 0 ignored (queue NULL: -15)", -15); c.lddc = 0;
        c.nulls = P_QUEUE; list[k++] = c;
        c = base_case("m = 0: dA, dC, dY NULL, ldda = lddy = 1 legal", -15);
        c.m = 0; c.ldda = c.lddy = 1; c.nulls = P_A | P_C | P_Y | P_QUEUE; list[k++] = c;
        c = base_case("nrhs = 0: dB, dY NULL legal", -15);
        c.nrhs = 0; c.nulls = P_B | P_Y | P_QUEUE; list[k++] = c;
        c = base_case("order: transr bad and m = -1", -1); c.transr = 'X'; c.m = -1; list[k++] = c;
        c = base_case("order: dC NULL and lddy bad", -11); c.nulls = P_C; c.lddy = 3; list[k++] = c;
        c = base_case("quick return m = 0, n = 0, nrhs = 0 (all NULL)", 0);
        c.m = c.n = c.nrhs = 0; c.ldda = c.lddb = c.lddy = 1;
        c.nulls = P_A | P_D | P_B | P_C | P_Y; list[k++] = c;
        for (int i = 0; i < k; i++) run_argcase((form_t)f, &list[i]);
    }
    for (int f = F_DSWLS; f <= F_DSWLS_X; f++) {
        const int x = f == F_DSWLS_X; /* expert: opts is arg 13, queue 14 */
        const int64_t qarg = x ? -14 : -13;
        argcase_t list[32];
        int k = 0;
        argcase_t c;
        c = base_case("arg 1: m = -1", -1); c.m = -1; list[k++] = c;
        c = base_case("arg 2: n = -1", -2); c.n = -1; list[k++] = c;
        c = base_case("arg 3: nrhs = -1", -3); c.nrhs = -1; list[k++] = c;
        c = base_case("arg 4: dA = NULL", -4); c.nulls = P_A; list[k++] = c;
        c = base_case("arg 5: ldda = m - 1", -5); c.ldda = 3; list[k++] = c;
        c = base_case("arg 6: dd = NULL is legal (then queue NULL)", qarg);
        c.nulls = P_D | P_QUEUE; list[k++] = c;
        c = base_case("arg 7: dB = NULL", -7); c.nulls = P_B; list[k++] = c;
        c = base_case("arg 8: lddb = n - 1", -8); c.lddb = 5; list[k++] = c;
        c = base_case("arg 9: dY = NULL", -9); c.nulls = P_Y; list[k++] = c;
        c = base_case("arg 10: lddy = m - 1", -10); c.lddy = 3; list[k++] = c;
        c = base_case("arg 11: iter = NULL", -11); c.nulls = P_ITER; list[k++] = c;
        c = base_case("arg 12: info = NULL", -12); c.nulls = P_INFO; list[k++] = c;
        c = base_case(x ? "arg 14: queue = NULL" : "arg 13: queue = NULL", qarg);
        c.nulls = P_QUEUE; list[k++] = c;
        if (x) {
            c = base_case("arg 13: opts->products = 7", -13); c.bad_opts = BAD_OPTS_PRODUCTS;
            list[k++] = c;
            c = base_case("arg 13: opts->trace set", -13); c.bad_opts = BAD_OPTS_TRACE;
            list[k++] = c;
            c = base_case("arg 13: opts = NULL is legal (queue NULL: -14)", -14);
            c.nulls = P_OPTS | P_QUEUE; list[k++] = c;
            c = base_case("order: opts->trace set and queue NULL", -13);
            c.bad_opts = BAD_OPTS_TRACE; c.nulls = P_QUEUE; list[k++] = c;
        }
        c = base_case("m = 0: dA, dY NULL, ldda = lddy = 1 legal", qarg);
        c.m = 0; c.ldda = c.lddy = 1; c.nulls = P_A | P_Y | P_QUEUE; list[k++] = c;
        c = base_case("n = 0: dA, dd, dB NULL, lddb = 1 legal", qarg);
        c.n = 0; c.lddb = 1; c.nulls = P_A | P_D | P_B | P_QUEUE; list[k++] = c;
        c = base_case("nrhs = 0: dB, dY NULL legal", qarg);
        c.nrhs = 0; c.nulls = P_B | P_Y | P_QUEUE; list[k++] = c;
        c = base_case("m = 0, ldda = 0 < max(1, m)", -5); c.m = 0; c.ldda = 0; c.lddy = 1;
        list[k++] = c;
        c = base_case("n = 0, lddb = 0 < max(1, n)", -8); c.n = 0; c.lddb = 0; list[k++] = c;
        c = base_case("m = 0, lddy = 0 < max(1, m)", -10); c.m = 0; c.ldda = 1; c.lddy = 0;
        list[k++] = c;
        c = base_case("order: n = -1 and iter NULL", -2); c.n = -1; c.nulls = P_ITER;
        list[k++] = c;
        c = base_case("order: lddy = m - 1 and info NULL", -10); c.lddy = 3; c.nulls = P_INFO;
        list[k++] = c;
        c = base_case("quick return m = 0 (dA, dY NULL)", 0);
        c.m = 0; c.ldda = c.lddy = 1; c.nulls = P_A | P_Y; list[k++] = c;
        c = base_case("quick return nrhs = 0 (dB, dY NULL)", 0);
        c.nrhs = 0; c.nulls = P_B | P_Y; list[k++] = c;
        c = base_case("quick return m = 0, n = 0, nrhs = 0 (all NULL)", 0);
        c.m = c.n = c.nrhs = 0; c.ldda = c.lddb = c.lddy = 1;
        c.nulls = P_A | P_D | P_B | P_Y; list[k++] = c;
        if (x) {
            c = base_case("quick return nrhs = 0, opts NULL", 0);
            c.nrhs = 0; c.nulls = P_B | P_Y | P_OPTS; list[k++] = c;
        }
        for (int i = 0; i < k; i++) run_argcase((form_t)f, &list[i]);
    }
}

/* ===========================================================================
 * The suite.
 * ========================================================================= */
typedef struct { int64_t m, n; } shape_t;

static void run_suite(int quick)
{
    const double t0 = testing_wtime();
    printf("testing_wls --suite%s  (%s)\n", quick ? " --quick" : "",
           testing_have_gpu() ? "GPU present" : "no GPU");
    LAPACKE_set_nancheck(0);
    run_arg_checks();

    printf("\n-- correctness against CPU references (double) --\n");
    print_table_header();
    static const shape_t full_shapes[] = {
        { 1, 1 }, { 1, 7 }, { 5, 5 }, { 17, 40 }, { 64, 64 }, { 100, 1000 }, { 257, 3000 },
        { 1000, 1000 }, { 1024, 20000 }, { 2500, 8000 }, { 4100, 4100 },
    };
    static const shape_t quick_shapes[] = {
        { 1, 1 }, { 1, 7 }, { 5, 5 }, { 17, 40 }, { 64, 64 }, { 96, 600 },
    };
    static const int64_t nrhs_cycle[] = { 1, 3, 16 };
    const shape_t *shapes = quick ? quick_shapes : full_shapes;
    const int nshapes = quick ? LEN(quick_shapes) : LEN(full_shapes);
    for (int i = 0; i < nshapes; i++) {
        const int64_t m = shapes[i].m, n = shapes[i].n, nrhs = nrhs_cycle[i % 3];
        /* padding: some leading dimensions exact (memcheck sees overruns),
         * some with extra rows (checked untouched) */
        const pads_t pads = { i % 2 ? 3 : 0, i % 3 ? 1 : 0, i % 2 ? 0 : 3, i % 3 == 1 ? 0 : 2 };
        run_problem(m, n, nrhs, K_WELL, V_ALL, &pads);
        if (i % 2 == 0)
            run_problem(m, n, i % 3 ? 2 : 1, K_NOD,
                        quick ? VB(V_DWLS_L) | VB(V_DSWLS_X) | VB(V_DHOST_L)
                              : VB(V_DWLS_L) | VB(V_SWLS_U) | VB(V_DSWLS_X) | VB(V_DSWLS_TF32) |
                                V_HOST,
                        &pads);
        if (n >= 4 * m && m > 1) /* log-spread weights: cond(C) up to ~1e4 */
            run_problem(m, n, 3, K_SPREAD, VB(V_DWLS_U) | VB(V_SWLS_L) | VB(V_DSWLS), &pads);
    }
    if (!quick) {
        const pads_t p0 = { 0, 0, 0, 0 };
        printf("\n-- dswls with TF32 products at m = 3000, n = 30000 --\n");
        print_table_header();
        run_problem(3000, 30000, 2, K_WELL, VB(V_DWLS_L) | VB(V_DSWLS) | VB(V_DSWLS_TF32), &p0);
    }

    printf("\n-- degenerate sizes: nrhs = 0 (wls still factors C), n = 0 < m (info 1) --\n");
    print_table_header();
    {
        const pads_t pads = { 1, 2, 3, 1 };
        run_problem(5, 30, 0, K_WELL, VB(V_DWLS_L) | VB(V_SWLS_U) | VB(V_DSWLS) |
                                      VB(V_DSWLS_TF32), &pads);
        run_problem(37, 200, 0, K_WELL, VB(V_DWLS_U) | VB(V_SWLS_L), &pads);
        run_problem(5, 0, 2, K_ZERO_N, VB(V_DWLS_L) | VB(V_SWLS_U) | VB(V_DSWLS) |
                                       VB(V_DSWLS_TF32) | V_RFP | V_HOST, &pads);
        run_problem(36, 150, 0, K_WELL, V_RFP | V_HOST, &pads);
    }

    printf("\n-- failures and dswls's fallbacks --\n");
    print_table_header();
    {
        const pads_t pa = { 2, 1, 1, 3 }, pb = { 0, 0, 0, 0 };
        const unsigned fb = VB(V_DWLS_L) | VB(V_DWLS_U) | VB(V_DSWLS) | VB(V_DSWLS_TF32);
        run_problem(quick ? 64 : 100, quick ? 400 : 1000, 2, K_ILL, fb, &pa);
        if (!quick) run_problem(300, 2000, 1, K_ILL, VB(V_DWLS_L) | VB(V_DSWLS), &pb);
        run_problem(17, 40, 2, K_BIG_A, VB(V_DWLS_L) | VB(V_DSWLS) | VB(V_DSWLS_TF32), &pa);
        if (!quick) run_problem(100, 1000, 1, K_BIG_A, VB(V_DWLS_L) | VB(V_DWLS_U) | VB(V_DSWLS), &pb);
        run_problem(quick ? 48 : 100, quick ? 300 : 1000, 3, K_BIG_D,
                    VB(V_DWLS_L) | VB(V_DSWLS) | VB(V_DSWLS_TF32), &pa);
        run_problem(60, 500, 2, K_HUGE_D, VB(V_DWLS_L) | VB(V_DSWLS_X), &pb);
        run_problem(20, 10, 2, K_RANKDEF, V_ALL, &pa);
        run_problem(quick ? 40 : 150, quick ? 30 : 100, 1, K_RANKDEF,
                    VB(V_DWLS_L) | VB(V_SWLS_U) | VB(V_DSWLS), &pb);
        run_problem(50, 300, 2, K_NAN_A, VB(V_DWLS_L) | VB(V_DWLS_U) | VB(V_SWLS_U) |
                                         VB(V_DSWLS) | VB(V_DSWLS_TF32) | V_RFP, &pa);
        run_problem(51, 301, 1, K_NAN_A, V_RFP | V_HOST, &pb);
        if (!quick) run_problem(300, 1200, 1, K_NAN_A, VB(V_DWLS_L) | VB(V_DSWLS), &pb);
        run_problem(64, 640, 3, K_NAN_B, VB(V_DWLS_L) | VB(V_SWLS_L) | VB(V_DSWLS) | V_HOST, &pa);
    }
    printf("suite time %.1f s\n", testing_wtime() - t0);
}

/* ===========================================================================
 * Table mode.
 * ========================================================================= */
enum { T_DWLS, T_SWLS, T_DSWLS, T_TF32, T_COUNT };

static void table_row(int64_t m, int64_t n, int64_t nrhs, kind_t kind, int niter)
{
    problem_t p;
    memset(&p, 0, sizeof p);
    p.m = m; p.n = n; p.nrhs = nrhs; p.kind = kind;
    p.lda = max64(1, m);
    p.ldb = max64(1, n);
    generate(&p, 0x7ab1e000ull + 31ull * (uint64_t)m + (uint64_t)n, 1);
    double times[T_COUNT][16], med[T_COUNT], resid[T_COUNT];
    int64_t info[T_COUNT], iter[T_COUNT] = { 0, 0, 0, 0 };
    testing_result_t res = TESTING_FAILED;
    void *dA = NULL, *dd = NULL, *dB = NULL, *sA = NULL, *sd = NULL, *sB = NULL;
    double *dC = NULL, *dY = NULL;
    float *sC = NULL, *sY = NULL;
    const int64_t ldy = max64(1, m);
    double *Y = xmalloc((size_t)(ldy * nrhs) * sizeof(double));
    float *Ys = xmalloc((size_t)(ldy * nrhs) * sizeof(float));
    double *Ysd = xmalloc((size_t)(ldy * nrhs) * sizeof(double));
    gchol_options_t o;
    gchol_options_default(&o);
    o.products = GCHOL_PRODUCTS_TF32;
    for (int t = 0; t < T_COUNT; t++) { med[t] = resid[t] = NAN; info[t] = INFO_POISON; }
    if (niter > 16) niter = 16;

    if (!(dA = dev_upload(p.A, (size_t)(p.lda * n) * 8)) ||
        (p.d && !(dd = dev_upload(p.d, (size_t)n * 8))) ||
        !(dB = dev_upload(p.B, (size_t)(p.ldb * nrhs) * 8)) ||
        !(sA = dev_upload(p.As, (size_t)(p.lda * n) * 4)) ||
        (p.ds && !(sd = dev_upload(p.ds, (size_t)n * 4))) ||
        !(sB = dev_upload(p.Bs, (size_t)(p.ldb * nrhs) * 4)) ||
        TESTING_CUDA(cudaMalloc((void **)&dC, (size_t)(m * m) * 8)) ||
        TESTING_CUDA(cudaMalloc((void **)&dY, (size_t)(ldy * nrhs) * 8)) ||
        TESTING_CUDA(cudaMalloc((void **)&sC, (size_t)(m * m) * 4)) ||
        TESTING_CUDA(cudaMalloc((void **)&sY, (size_t)(ldy * nrhs) * 4)))
        goto out;
    for (int t = 0; t < T_COUNT; t++) {
        for (int r = -1; r < niter; r++) { /* r = -1: warm-up */
            if (TESTING_CUDA(cudaDeviceSynchronize())) goto out;
            const double t0 = testing_wtime();
            switch (t) {
            case T_DWLS:
                gchol_dwls_gpu('L', m, n, nrhs, dA, p.lda, dd, dB, p.ldb, dC, m, dY, ldy,
                               &info[t], g_queue);
                break;
            case T_SWLS:
                gchol_swls_gpu('L', m, n, nrhs, sA, p.lda, sd, sB, p.ldb, sC, m, sY, ldy,
                               &info[t], g_queue);
                break;
            case T_DSWLS:
                gchol_dswls_gpu(m, n, nrhs, dA, p.lda, dd, dB, p.ldb, dY, ldy, &iter[t],
                                &info[t], g_queue);
                break;
            default:
                gchol_dswls_expert_gpu(m, n, nrhs, dA, p.lda, dd, dB, p.ldb, dY, ldy, &iter[t],
                                       &info[t], &o, g_queue);
                break;
            }
            if (r >= 0) times[t][r] = 1e3 * (testing_wtime() - t0);
        }
        med[t] = testing_median(times[t], niter);
        if (TESTING_CUDA(cudaDeviceSynchronize())) goto out;
        if (info[t] != 0) continue;
        if (!p.have_ref && compute_references(&p, 0)) goto out;
        if (t == T_SWLS) {
            if (dev_download(Ys, sY, (size_t)(ldy * nrhs) * 4)) goto out;
            testing_to_double('s', m, nrhs, Ys, ldy, Ysd, ldy);
            resid[t] = backward_ratio(&p, Ysd, ldy, 0, testing_eps('s'));
        } else {
            if (dev_download(Y, dY, (size_t)(ldy * nrhs) * 8)) goto out;
            resid[t] = backward_ratio(&p, Y, ldy, 0, testing_eps('d'));
        }
    }
    res = TESTING_PASSED;
    for (int t = 0; t < T_COUNT; t++)
        if (info[t] != 0 || !(resid[t] < TESTING_TOL)) res = TESTING_FAILED;
out:
    printf("%6lld %7lld %4lld %10.3f %10.3f %10.3f %4lld %10.3f %4lld %6.2f %9.2e %9.2e %9.2e %9.2e  %s\n",
           (long long)m, (long long)n, (long long)nrhs, med[T_DWLS], med[T_SWLS], med[T_DSWLS],
           (long long)iter[T_DSWLS], med[T_TF32], (long long)iter[T_TF32],
           med[T_DWLS] / med[T_TF32], resid[T_DWLS], resid[T_SWLS], resid[T_DSWLS], resid[T_TF32],
           testing_result_name(res));
    if (res != TESTING_PASSED)
        printf("        -> info dwls %lld swls %lld dswls %lld tf32 %lld\n", (long long)info[T_DWLS],
               (long long)info[T_SWLS], (long long)info[T_DSWLS], (long long)info[T_TF32]);
    fflush(stdout);
    testing_record(res);
    cudaFree(dA); cudaFree(dd); cudaFree(dB); cudaFree(sA); cudaFree(sd); cudaFree(sB);
    cudaFree(dC); cudaFree(dY); cudaFree(sC); cudaFree(sY);
    free(Y); free(Ys); free(Ysd);
    problem_free(&p);
}

static void run_table(const int64_t *ms, int64_t mcount, const int64_t *ns, int64_t ncount,
                      int64_t nrhs, kind_t kind, int niter)
{
    if (!testing_table_can_run(g_queue)) return;
    const int64_t rows = max64(mcount, ncount);
    printf("gchol weighted least squares, d %s, niter %d (median GPU ms); uplo L, lda = m;\n"
           "resid: ||A D^2 (b - A^T y)|| / (||A D^2|| ||b|| + ||C|| ||y||) / (eps max(m,n)),"
           " < %.0f; x: dwls / dswls_tf32 time\n",
           kind == K_NOD ? "= NULL" : kind == K_SPREAD ? "in 1e-3..1e3" : "in [0.5, 2]", niter,
           TESTING_TOL);
    printf("%6s %7s %4s %10s %10s %10s %4s %10s %4s %6s %9s %9s %9s %9s  %s\n", "m", "n", "nrhs",
           "dwls", "swls", "dswls", "iter", "tf32", "iter", "x", "r_dwls", "r_swls", "r_dswls",
           "r_tf32", "check");
    for (int64_t i = 0; i < rows; i++)
        table_row(ms[mcount == 1 ? 0 : i], ns[ncount == 1 ? 0 : i], nrhs, kind, niter);
}

int main(int argc, char **argv)
{
    static const int kind_values[] = { K_WELL, K_SPREAD, K_NOD };
    testing_list_t ms = { NULL, 0 }, ns = { NULL, 0 };
    int64_t nrhs = 1;
    int suite = 0, quick = 0, niter = 3, kind = K_WELL;
    const opt_t opts[] = {
        OPT("--suite", OPT_FLAG, &suite, NULL, "the test suite (make test)"),
        OPT("--quick", OPT_FLAG, &quick, NULL, "the suite with fewer cases (the sanitizers)"),
        OPT("-m", OPT_LIST, &ms, "LIST", "table: m (default 1000,2000,4000)",
            .def = "1000,2000,4000"),
        OPT("-n", OPT_LIST, &ns, "LIST", "table: n (default 10000,20000,40000); lists of equal "
            "length\nare paired, a single value goes with each of the other",
            .def = "10000,20000,40000"),
        OPT("--nrhs", OPT_INT64, &nrhs, "K", "table: right-hand sides (default 1)", OPT_MIN(1)),
        OPT("--niter", OPT_INT, &niter, "K", "table: timed runs, median reported (default 3)",
            OPT_MIN(1)),
        OPT("--weights", OPT_CHOICE, &kind, "W", "table: d uniform in [0.5, 2], spread over "
            "1e-3..1e3, or none\n(d = NULL): uniform|spread|none (default uniform)",
            .choices = "uniform|spread|none", .values = kind_values),
        OPT_END
    };
    const opts_program_t prog = { "[--suite [--quick] | table options]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    if (ms.count != ns.count && ms.count != 1 && ns.count != 1)
        opts_fail(argv[0], opts, &prog, "-m and -n lists differ in length (%lld, %lld)",
                  (long long)ms.count, (long long)ns.count);
    LAPACKE_set_nancheck(0); /* inputs are NaN outside what is read */
    g_queue = testing_queue_or_null();
    if (suite || quick)
        run_suite(quick);
    else
        run_table(ms.v, ms.count, ns.v, ns.count, nrhs, (kind_t)kind, niter);
    if (g_queue) gchol_queue_destroy(g_queue);
    if (testing_have_gpu()) gchol_finalize();
    opts_free_list(&ms);
    opts_free_list(&ns);
    return testing_summary();
}
