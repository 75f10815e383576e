/*
 * testing_potrf.c -- tests and times gchol_?potrf (precision-generic).
 *
 * Compiled twice: -DGCHOL_PREC_D gives testing_dpotrf, -DGCHOL_PREC_S gives
 * testing_spotrf.
 *
 * Table mode (MAGMA style):
 *   testing_dpotrf -n 1024:8192:1024 [--uplo L|U] [--variant auto|left|right|tiled]
 *       [--lookahead on|off|auto] [--nb N] [--recnb N] [--niter K] [--check]
 *       [--interface gpu|async|host] [--lda-pad P]
 * Suite mode (make test):   testing_dpotrf --suite [--quick]
 * Large case (make test-large, double only): testing_dpotrf --large
 *
 * Every mode ends with "SUMMARY passed=P failed=F skipped=S".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include <cblas.h>
#include <lapacke.h>

#include "gchol.h"
#include "flops.h"
#include "opts.h"
#include "util.h"
#include "../kernels/gchol_kernels.h"

/* ---------------------------------------------------------------------------
 * Precision macros.
 * ------------------------------------------------------------------------- */
#if defined(GCHOL_PREC_S)
typedef float FLOAT;
#define PREC        's'
#define PREC_NAME   "single"
#define GCHOL(name) gchol_s##name
#define LAPACKE_POTRF LAPACKE_spotrf
#define SWAP_TRIANGLES gchol_sswap_triangles_launch
typedef uint32_t BITS;
#elif defined(GCHOL_PREC_D)
typedef double FLOAT;
#define PREC        'd'
#define PREC_NAME   "double"
#define GCHOL(name) gchol_d##name
#define LAPACKE_POTRF LAPACKE_dpotrf
#define SWAP_TRIANGLES gchol_dswap_triangles_launch
typedef uint64_t BITS;
#else
#error "compile with -DGCHOL_PREC_D or -DGCHOL_PREC_S"
#endif

#define ES           sizeof(FLOAT)
#define INFO_POISON  TESTING_INFO_POISON
#define LARGE_N      46500
#define MAX_FACTOR_CHECK_N 2048  /* compare with LAPACKE's factor up to here */

/* ---------------------------------------------------------------------------
 * Test cases.
 * ------------------------------------------------------------------------- */
typedef enum {
    IF_GPU,          /* gchol_?potrf_gpu                                   */
    IF_EXPERT_GPU,   /* gchol_?potrf_expert_gpu with options               */
    IF_ASYNC,        /* gchol_?potrf_async, info from the device word       */
    IF_HOST,         /* gchol_?potrf (host memory, library queue)           */
    IF_HOST_EXPERT,  /* gchol_?potrf_expert (host memory, our queue)        */
    IF_STREAM,       /* async on a queue made from our own stream           */
    IF_HOST_PINNED,  /* gchol_?potrf_expert on pinned host memory           */
    IF_COUNT
} iface_t;
static const char *iface_name[IF_COUNT] = {
    "gpu", "expert_gpu", "async", "host", "host_expert", "stream", "host_pinned" };

typedef enum {
    DEF_NONE,       /* SPD                                  */
    DEF_NEG,        /* A(k,k) = -1                          */
    DEF_NAN_DIAG,   /* A(k,k) = NaN                         */
    DEF_INF_DIAG,   /* A(k,k) = Inf                         */
    DEF_NAN_OFF,    /* A(k,j) = NaN, j = k/2 < k (mirrored for 'U') */
    DEF_ILLCOND,    /* SPD, cond ~ 2/ILLCOND_MU, not diagonally dominant */
    DEF_TINY,       /* SPD scaled by SCALE_TINY: pivots near underflow */
    DEF_HUGE,       /* SPD scaled by SCALE_HUGE: pivots near overflow  */
    DEF_SUB_PIVOT,  /* A(k,k) = SUBNORMAL_PIVOT, row and column k zero  */
    DEF_SQ_UNDER,   /* rows and columns k, k+1: [p, a; a, b] with a^2 below
                       the normal range and a^2/p half of b (SQ_UNDER_*)  */
    DEF_GRADED_TINY,/* D A D, D = diag(1, g, 1, g, ...), g = GRADE_TINY */
    DEF_GRADED_HUGE /* the same with g = GRADE_HUGE                     */
} defect_t;
static const char *defect_name[] = { "spd", "neg", "nan_diag", "inf_diag", "nan_off", "illcond",
                                     "tiny", "huge", "subnormal", "sq_under",
                                     "graded_tiny", "graded_huge" };

/* The shift of the ill-conditioned matrices: cond(A) ~ 2e9 in double, 2e3
 * in single. The tiled kernel solves with explicit inverses of its 64 x 64
 * diagonal tiles; these cases check that its backward error stays LAPACK's. */
#define ILLCOND_MU (PREC == 'd' ? 1e-9 : 1e-3)

/* The scaled matrices: their pivots (~n times the scale) lie near 2^-1010
 * and above 2^1000 in double, in single near FLT_MIN and FLT_MAX; in single
 * many tiny entries are subnormal (the residual is larger, still < 0.1). */
#define SCALE_TINY (PREC == 'd' ? 0x1p-1020 : 0x1p-120)
#define SCALE_HUGE (PREC == 'd' ? 0x1p995 : 0x1p110)
/* A subnormal pivot that is still positive: LAPACK factors it (L(k,k) =
 * its square root, column k zero below); no hardware estimate may flush it */
#define SUBNORMAL_PIVOT (PREC == 'd' ? 0x1p-1060 : 0x1p-140)
/* [p, a; a, b]: L(k+1,k+1)^2 = b - a^2/p = b/2, though a^2 underflows */
#define SQ_UNDER_P (PREC == 'd' ? 0x1p-1000 : 0x1p-120)
#define SQ_UNDER_A (PREC == 'd' ? 0x1p-540 : 0x1p-70)
#define SQ_UNDER_B (PREC == 'd' ? 0x1p-79 : 0x1p-19)
/* Graded matrices: every other pivot near underflow or overflow, entries
 * between a scaled and an unscaled row at the square root of that, so the
 * kernels' short pivot step runs at the ends of its range (no hand-over) */
#define GRADE_TINY (PREC == 'd' ? 0x1p-500 : 0x1p-60)
#define GRADE_HUGE (PREC == 'd' ? 0x1p480 : 0x1p55)

typedef struct {
    int64_t n, pad;        /* lda = n + pad                        */
    char    uplo;
    int     iface;         /* iface_t                              */
    int     variant;       /* gchol_variant_t                      */
    int     lookahead;     /* gchol_lookahead_t                    */
    int64_t nb, recnb;
    int     defect;        /* defect_t                             */
    int64_t k;             /* 1-based column of the defect         */
    int     upper;         /* gchol_upper_t: how 'U' runs          */
} case_t;

/* Outcome of one factorization, with what the checks need. */
typedef struct {
    int64_t ret, info;
    double  seconds;
} run_t;

/* ---------------------------------------------------------------------------
 * Shared device state: the default queue, a device info word, and the
 * caller-owned stream with its queue (created at first use).
 * ------------------------------------------------------------------------- */
static gchol_queue_t g_queue;
static gchol_queue_t g_stream_queue;
static cudaStream_t  g_user_stream;
static int64_t      *g_dinfo;  /* 2 words: [0] dinfo, [1] its copy on the stream */

/* Creates the default queue and the device info words. Returns 0 or -1. */
static int setup_device(void)
{
    int64_t st;
    if (!testing_have_gpu())
        return 0;
    st = gchol_queue_create(-1, &g_queue);
    if (st != 0) {
        printf("gchol_queue_create failed: %lld (%s)\n", (long long)st, gchol_strerror(st));
        g_queue = NULL;
        return -1;
    }
    return TESTING_CUDA(cudaMalloc((void **)&g_dinfo, 2 * sizeof(int64_t))) ? -1 : 0;
}

/* Creates, at first use, our own non-blocking stream and a queue on it. */
static int setup_user_stream(void)
{
    int64_t st;
    if (g_stream_queue)
        return 0;
    if (TESTING_CUDA(cudaStreamCreateWithFlags(&g_user_stream, cudaStreamNonBlocking)))
        return -1;
    st = gchol_queue_create_from_stream(-1, g_user_stream, &g_stream_queue);
    if (st != 0) {
        printf("    gchol_queue_create_from_stream failed: %lld (%s)\n",
               (long long)st, gchol_strerror(st));
        g_stream_queue = NULL;
        return -1;
    }
    return 0;
}

static void teardown_device(void)
{
    gchol_queue_destroy(g_stream_queue);
    gchol_queue_destroy(g_queue);
    if (g_user_stream)
        cudaStreamDestroy(g_user_stream);
    cudaFree(g_dinfo);
    gchol_finalize();
}

/* Options of a case for the expert forms. */
static gchol_options_t case_options(const case_t *c)
{
    gchol_options_t o = testing_options(c->variant, c->lookahead, c->nb, c->recnb);
    o.upper = c->upper;
    return o;
}

static int64_t case_lda(const case_t *c)
{
    return c->n + c->pad > 1 ? c->n + c->pad : 1;
}

static size_t case_bytes(const case_t *c)
{
    return (size_t)(case_lda(c) * (c->n > 0 ? c->n : 1)) * ES;
}

/* ---------------------------------------------------------------------------
 * Running one factorization.
 * ------------------------------------------------------------------------- */

/* Sets the device info word to the poison value. */
static int poison_dinfo(void)
{
    int64_t poison[2] = { INFO_POISON, INFO_POISON };
    return TESTING_CUDA(cudaMemcpy(g_dinfo, poison, sizeof(poison), cudaMemcpyHostToDevice)) ? -1 : 0;
}

/* The same on stream s, ordered before what s runs next: a cudaMemcpy from
 * pageable memory may return before its DMA has landed, and the legacy
 * stream it runs on does not order a non-blocking stream's work. */
static int poison_dinfo_on(cudaStream_t s)
{
    int64_t poison[2] = { INFO_POISON, INFO_POISON };
    return TESTING_CUDA(cudaMemcpyAsync(g_dinfo, poison, sizeof(poison), cudaMemcpyHostToDevice, s))
               ? -1 : 0;
}

/* gchol_?potrf_async on the default queue; info read back after the queue's
 * stream is synchronized. dA already holds the matrix. */
static int factor_async(const case_t *c, FLOAT *dA, run_t *r)
{
    gchol_options_t o = case_options(c);
    double t;
    if (poison_dinfo())
        return -1;
    t = testing_wtime();
    r->ret = GCHOL(potrf_async)(c->uplo, c->n, dA, case_lda(c), g_dinfo, &o, g_queue);
    if (r->ret == 0 && TESTING_CUDA(cudaStreamSynchronize(gchol_queue_stream(g_queue))))
        return -1;
    r->seconds = testing_wtime() - t;
    if (r->ret == 0 &&
        TESTING_CUDA(cudaMemcpy(&r->info, g_dinfo, sizeof(int64_t), cudaMemcpyDeviceToHost)))
        return -1;
    return 0;
}

/* Ordering on the caller's stream: on g_user_stream we enqueue
 *   poison dA (0xFF bytes: NaN) -> copy the matrix into dA -> gchol async ->
 *   copy dA and dinfo elsewhere,
 * then synchronize only g_user_stream. The copies see the factor and info
 * only if gchol's work is ordered between them. The copy ends up in dA. */
static int factor_on_user_stream(const case_t *c, const FLOAT *hA, FLOAT *dA, run_t *r)
{
    gchol_options_t o = case_options(c);
    size_t bytes = case_bytes(c);
    FLOAT *dB = NULL;
    int rc = -1;
    double t;
    /* every upload on the user stream itself (poison_dinfo_on): a
     * cudaMemcpy from pageable memory may return before its DMA has
     * landed, and the user stream would then copy a stale dB */
    if (setup_user_stream() || poison_dinfo_on(g_user_stream) ||
        TESTING_CUDA(cudaMalloc((void **)&dB, bytes)) ||
        TESTING_CUDA(cudaMemcpyAsync(dB, hA, bytes, cudaMemcpyHostToDevice, g_user_stream)))
        goto cleanup;
    t = testing_wtime();
    if (TESTING_CUDA(cudaMemsetAsync(dA, 0xFF, bytes, g_user_stream)) ||
        TESTING_CUDA(cudaMemcpyAsync(dA, dB, bytes, cudaMemcpyDeviceToDevice, g_user_stream)))
        goto cleanup;
    r->ret = GCHOL(potrf_async)(c->uplo, c->n, dA, case_lda(c), g_dinfo, &o, g_stream_queue);
    if (TESTING_CUDA(cudaMemcpyAsync(dB, dA, bytes, cudaMemcpyDeviceToDevice, g_user_stream)) ||
        TESTING_CUDA(cudaMemcpyAsync(g_dinfo + 1, g_dinfo, sizeof(int64_t),
                                     cudaMemcpyDeviceToDevice, g_user_stream)) ||
        TESTING_CUDA(cudaStreamSynchronize(g_user_stream)))
        goto cleanup;
    r->seconds = testing_wtime() - t;
    if (TESTING_CUDA(cudaMemcpy(&r->info, g_dinfo + 1, sizeof(int64_t), cudaMemcpyDeviceToHost)) ||
        TESTING_CUDA(cudaMemcpy(dA, dB, bytes, cudaMemcpyDeviceToDevice)))
        goto cleanup;
    rc = 0;
cleanup:
    cudaFree(dB);
    return rc;
}

static int is_device_iface(int iface)
{
    return iface != IF_HOST && iface != IF_HOST_EXPERT && iface != IF_HOST_PINNED;
}

/* Runs the case's interface once on a fresh copy of hA. Device interfaces
 * leave the factor in dA, host interfaces in hW. Returns 0, or -1 when a
 * CUDA call of the harness itself failed. */
static int factor_once(const case_t *c, const FLOAT *hA, FLOAT *dA, FLOAT *hW, run_t *r)
{
    gchol_options_t o = case_options(c);
    int64_t lda = case_lda(c);
    double t;
    r->ret = r->info = INFO_POISON;
    r->seconds = 0;
    if (!is_device_iface(c->iface)) {
        memcpy(hW, hA, case_bytes(c));
        t = testing_wtime();
        r->ret = c->iface == IF_HOST
               ? GCHOL(potrf)(c->uplo, c->n, hW, lda, &r->info)
               : GCHOL(potrf_expert)(c->uplo, c->n, hW, lda, &r->info, &o, g_queue);
        r->seconds = testing_wtime() - t;
        return 0;
    }
    if (c->iface == IF_STREAM)
        return factor_on_user_stream(c, hA, dA, r);
    if (TESTING_CUDA(cudaMemcpy(dA, hA, case_bytes(c), cudaMemcpyHostToDevice)))
        return -1;
    if (c->iface == IF_ASYNC)
        return factor_async(c, dA, r);
    t = testing_wtime();
    r->ret = c->iface == IF_GPU
           ? GCHOL(potrf_gpu)(c->uplo, c->n, dA, lda, &r->info, g_queue)
           : GCHOL(potrf_expert_gpu)(c->uplo, c->n, dA, lda, &r->info, &o, g_queue);
    r->seconds = testing_wtime() - t;
    return 0;
}


/* ---------------------------------------------------------------------------
 * Matrices of a case.
 * ------------------------------------------------------------------------- */

/* Zeroes row and column k of the referenced triangle but the diagonal. */
static void zero_row_col(const case_t *c, FLOAT *A, int64_t lda, int64_t k)
{
    int lower = c->uplo == 'L';
    for (int64_t i = 0; i < c->n; i++)
        if (i != k)
            testing_set(PREC, A, lda, lower == (i > k) ? i : k, lower == (i > k) ? k : i, 0.0);
}

/* Writes the case's defect into the referenced triangle of A. */
static void apply_defect(const case_t *c, FLOAT *A, int64_t lda)
{
    int64_t k = c->k - 1, j = (c->k - 1) / 2;
    int lower = c->uplo == 'L';
    switch (c->defect) {
    case DEF_NEG:      testing_set(PREC, A, lda, k, k, -1.0);     break;
    case DEF_NAN_DIAG: testing_set(PREC, A, lda, k, k, NAN);      break;
    case DEF_INF_DIAG: testing_set(PREC, A, lda, k, k, INFINITY); break;
    case DEF_NAN_OFF:
        testing_set(PREC, A, lda, lower ? k : j, lower ? j : k, NAN);
        break;
    case DEF_SUB_PIVOT:
        zero_row_col(c, A, lda, k);
        testing_set(PREC, A, lda, k, k, SUBNORMAL_PIVOT);
        break;
    case DEF_SQ_UNDER:
        zero_row_col(c, A, lda, k);
        zero_row_col(c, A, lda, k + 1);
        testing_set(PREC, A, lda, k, k, SQ_UNDER_P);
        testing_set(PREC, A, lda, lower ? k + 1 : k, lower ? k : k + 1, SQ_UNDER_A);
        testing_set(PREC, A, lda, k + 1, k + 1, SQ_UNDER_B);
        break;
    default: break;
    }
}

/* Host matrix of a case: NaN everywhere (padding and the other triangle),
 * then the SPD referenced triangle and the defect. NULL if out of memory. */
static FLOAT *make_matrix(const case_t *c)
{
    int64_t lda = case_lda(c);
    FLOAT *A = malloc(case_bytes(c));
    if (!A)
        return NULL;
    testing_fill_nan(PREC, lda * (c->n > 0 ? c->n : 1), A);
    if (c->defect == DEF_ILLCOND) {
        if (testing_generate_lowrank_spd(PREC, c->uplo, c->n, A, lda, c->n / 2 > 0 ? c->n / 2 : 1,
                                         ILLCOND_MU, 0x111Cull + (uint64_t)c->n) != 0) {
            free(A);
            return NULL;
        }
        return A;
    }
    testing_generate_spd(PREC, c->uplo, c->n, A, lda, 0x5EEDull + (uint64_t)c->n);
    apply_defect(c, A, lda);
    if (c->defect == DEF_GRADED_TINY || c->defect == DEF_GRADED_HUGE) {
        double g = c->defect == DEF_GRADED_TINY ? GRADE_TINY : GRADE_HUGE;
        for (int64_t j = 0; j < c->n; j++)
            for (int64_t i = 0; i < lda; i++)
                A[i + j * lda] = (FLOAT)(A[i + j * lda] * ((i & 1) ? g : 1.0) * ((j & 1) ? g : 1.0));
    }
    if (c->defect == DEF_TINY || c->defect == DEF_HUGE) {
        /* the NaN padding and other triangle stay NaN */
        double scale = c->defect == DEF_TINY ? SCALE_TINY : SCALE_HUGE;
        for (int64_t i = 0; i < lda * c->n; i++)
            A[i] = (FLOAT)(A[i] * scale);
    }
    return A;
}

/* The info the case must return (reference-LAPACK semantics). */
static int64_t expected_info(const case_t *c, const FLOAT *A)
{
    switch (c->defect) {
    case DEF_NONE: return 0;
    case DEF_NEG:  return c->k;
    default:       return testing_reference_info(PREC, c->uplo, c->n, A, case_lda(c));
    }
}

/* Tolerance of the relative factor difference against the reference. */
static double factor_tol(int64_t n)
{
    return TESTING_TOL * (double)(n > 1 ? n : 1) * testing_eps(PREC);
}

/* ---------------------------------------------------------------------------
 * Checks of one case.
 * ------------------------------------------------------------------------- */
typedef struct {
    int64_t expect, lapacke_info, untouched_bad;
    double  resid, diff;
    char    why[256];
} check_t;

/* Appends a failure reason. */
static void fail(check_t *k, const char *reason)
{
    size_t len = strlen(k->why);
    snprintf(k->why + len, sizeof(k->why) - len, "%s%s", len ? ", " : "", reason);
}

/* Compares the first ncols columns of the factor with the reference. */
static void check_factor(const case_t *c, const FLOAT *A, const FLOAT *L,
                         int64_t ncols, check_t *k)
{
    int64_t n = c->n, lda = case_lda(c);
    double *R = malloc((size_t)(n * n) * sizeof(double));
    if (!R) {
        fail(k, "out of host memory");
        return;
    }
    if (testing_reference_factor(PREC, c->uplo, n, ncols, A, lda, R, n) != 0)
        fail(k, "reference factor failed");
    else if (!((k->diff = testing_factor_diff(PREC, c->uplo, n, ncols, L, lda, R, n))
               < factor_tol(n)))
        fail(k, ncols < n ? "partial factor differs from LAPACK" : "factor differs from LAPACK");
    free(R);
}

/* All checks of a finished case; L is the host copy of the result. */
static void check_case(const case_t *c, const FLOAT *A, const FLOAT *L,
                       const run_t *r, check_t *k)
{
    int64_t n = c->n, lda = case_lda(c);
    int async = c->iface == IF_ASYNC || c->iface == IF_STREAM;
    if (async ? r->ret != 0 : r->ret != r->info)
        fail(k, async ? "async did not return 0" : "return value != info");
    if (r->info != k->expect)
        fail(k, "wrong info");
    if (c->defect == DEF_NEG && k->lapacke_info != c->k)
        fail(k, "LAPACKE info != k (generator?)");
    k->untouched_bad = testing_count_untouched_violations(PREC, c->uplo, n, L, A, lda);
    if (k->untouched_bad)
        fail(k, "padding or other triangle modified");
    if (r->info != k->expect || n == 0)
        return;
    if (k->expect == 0 && (c->defect == DEF_NONE || c->defect == DEF_ILLCOND ||
                           c->defect == DEF_TINY || c->defect == DEF_HUGE ||
                           c->defect == DEF_SUB_PIVOT || c->defect == DEF_SQ_UNDER ||
                           c->defect == DEF_GRADED_TINY || c->defect == DEF_GRADED_HUGE)) {
        if (testing_residual(PREC, c->uplo, n, A, lda, L, lda, NULL, 0, &k->resid))
            fail(k, "residual failed");
        else if (!(k->resid < TESTING_TOL))
            fail(k, "residual too large");
        /* two backward-stable factors of an ill-conditioned matrix differ by
         * ~cond(A) eps: only the residual is LAPACK's criterion there */
        if (n <= MAX_FACTOR_CHECK_N && c->defect == DEF_NONE)
            check_factor(c, A, L, n, k);
        /* the 2 x 2 block is decoupled from the rest, whose norm would hide
         * a wrong L(k+1,k+1) from the residual: check its three entries */
        if (c->defect == DEF_SQ_UNDER) {
            int64_t j = c->k - 1;
            int lower = c->uplo == 'L';
            double want[3] = { sqrt(SQ_UNDER_P), SQ_UNDER_A / sqrt(SQ_UNDER_P),
                               sqrt(SQ_UNDER_B / 2) };
            double got[3] = { testing_get(PREC, L, lda, j, j),
                              testing_get(PREC, L, lda, lower ? j + 1 : j, lower ? j : j + 1),
                              testing_get(PREC, L, lda, j + 1, j + 1) };
            for (int e = 0; e < 3; e++)
                if (!(fabs(got[e] - want[e]) <= 16 * testing_eps(PREC) * want[e]))
                    fail(k, "2 x 2 block differs from sqrt(b - a^2/p)");
        }
    } else if (c->defect == DEF_NEG && k->expect > 1) {
        check_factor(c, A, L, k->expect - 1, k);
    }
}

/* Prints the case's description (no newline). */
static void print_case(const case_t *c, testing_result_t res)
{
    static const char *var[] = { "auto", "left", "right", "tiled" };
    const char *la = c->lookahead == GCHOL_LOOKAHEAD_ON ? "on"
                   : c->lookahead == GCHOL_LOOKAHEAD_OFF ? "off" : "auto";
    const char *up = c->upper == GCHOL_UPPER_SWAP ? "swap"
                   : c->upper == GCHOL_UPPER_VIEW ? "view" : "auto";
    printf("  %-7s %-11s n=%-5lld lda=%-5lld uplo=%c var=%-5s la=%-4s up=%-4s %-8s k=%-5lld",
           testing_result_name(res), iface_name[c->iface], (long long)c->n,
           (long long)case_lda(c), c->uplo, var[c->variant], la, up,
           defect_name[c->defect], (long long)c->k);
}

/* Runs, checks, prints and records one case. */
static testing_result_t run_case(const case_t *c)
{
    check_t k = { 0, 0, 0, 0, 0, "" };
    run_t r = { INFO_POISON, INFO_POISON, 0 };
    FLOAT *A = NULL, *L = NULL, *dA = NULL;
    testing_result_t res;

    if (!testing_case_in_part())
        return TESTING_SKIPPED;
    if (!testing_have_gpu()) {
        print_case(c, TESTING_SKIPPED);
        printf(" (no GPU)\n");
        return testing_record(TESTING_SKIPPED);
    }
    A = make_matrix(c);
    /* pinned: the host interface copies straight from it (no staging) */
    if (c->iface == IF_HOST_PINNED) {
        if (TESTING_CUDA(cudaMallocHost((void **)&L, case_bytes(c)))) L = NULL;
    } else {
        L = malloc(case_bytes(c));
    }
    if (!g_queue)
        fail(&k, "no queue");
    else if (!A || !L)
        fail(&k, "out of host memory");
    else {
        k.expect = expected_info(c, A);
        k.lapacke_info = c->defect == DEF_NONE ? 0
                       : testing_lapacke_info(PREC, c->uplo, c->n, A, case_lda(c));
        if (is_device_iface(c->iface) && TESTING_CUDA(cudaMalloc((void **)&dA, case_bytes(c))))
            fail(&k, "cudaMalloc");
        else if (factor_once(c, A, dA, L, &r))
            fail(&k, "CUDA error in the harness");
        else if (dA && TESTING_CUDA(cudaMemcpy(L, dA, case_bytes(c), cudaMemcpyDeviceToHost)))
            fail(&k, "download");
        else
            check_case(c, A, L, &r, &k);
    }
    res = testing_record(k.why[0] ? TESTING_FAILED : TESTING_PASSED);
    print_case(c, res);
    printf(" ret=%lld info=%lld exp=%lld", (long long)r.ret, (long long)r.info,
           (long long)k.expect);
    if (c->defect != DEF_NONE)
        printf(" lapacke=%lld", (long long)k.lapacke_info);
    printf(" resid=%.2e diff=%.2e %s%s\n", k.resid, k.diff, k.why[0] ? "-- " : "", k.why);
    fflush(stdout);
    if (dA)
        cudaFree(dA);
    free(A);
    if (c->iface == IF_HOST_PINNED)
        cudaFreeHost(L);
    else
        free(L);
    return res;
}

/* ---------------------------------------------------------------------------
 * Argument checks, n = 0 quick return.
 * ------------------------------------------------------------------------- */
typedef struct {
    int     iface;
    int     argno;   /* the illegal argument; 0: none (n = 0 quick return) */
    int64_t n;       /* n used when argno is not 2                          */
} badarg_t;

/* Calls an interface with explicit arguments; ptr_info is the host info for
 * the synchronous forms and the device word for async. */
static int64_t call_iface(int iface, char uplo, int64_t n, FLOAT *A, int64_t lda,
                          int64_t *ptr_info, const gchol_options_t *o, gchol_queue_t q)
{
    switch (iface) {
    case IF_GPU:        return GCHOL(potrf_gpu)(uplo, n, A, lda, ptr_info, q);
    case IF_EXPERT_GPU: return GCHOL(potrf_expert_gpu)(uplo, n, A, lda, ptr_info, o, q);
    case IF_ASYNC:      return GCHOL(potrf_async)(uplo, n, A, lda, ptr_info, o, q);
    case IF_HOST:       return GCHOL(potrf)(uplo, n, A, lda, ptr_info);
    default:            return GCHOL(potrf_expert)(uplo, n, A, lda, ptr_info, o, q);
    }
}

/* Number of the queue argument of an interface (0: none). */
static int queue_argno(int iface)
{
    return iface == IF_GPU ? 6 : iface == IF_HOST ? 0 : 7;
}

/* Runs one argument-check case. The matrix is an 8 x 8 NaN-filled buffer,
 * on the device for device forms when a GPU exists, else on the host (it
 * must never be touched either way); without a GPU the queue is a fake one
 * that must never be used. Expected: return -argno (0 for n = 0), the same in
 * *info, and the buffer and the device info word untouched. */
static testing_result_t run_badarg(const badarg_t *b)
{
    const int64_t nn = 8;
    int gpu = testing_have_gpu(), dev = gpu && is_device_iface(b->iface);
    FLOAT hbuf[8 * 8], saved[8 * 8], *A = hbuf, *dbuf = NULL;
    int64_t hinfo = INFO_POISON, dinfo_val = INFO_POISON, *pinfo = &hinfo;
    int64_t n = b->argno == 2 ? -1 : b->n, lda = b->argno == 4 ? (n > 0 ? n - 1 : 0) : (n > 0 ? n : 1);
    int64_t expect = -b->argno, ret;
    char uplo = b->argno == 1 ? 'X' : 'L';
    gchol_options_t o;
    gchol_queue_t q = gpu ? g_queue : testing_fake_queue();
    int ok = 1;

    gchol_options_default(&o);
    testing_fill_nan(PREC, nn * nn, hbuf);
    memcpy(saved, hbuf, sizeof(hbuf));
    if (gpu && !g_queue)
        ok = 0;
    if (dev && ok) {
        if (TESTING_CUDA(cudaMalloc((void **)&dbuf, sizeof(hbuf))) ||
            TESTING_CUDA(cudaMemcpy(dbuf, hbuf, sizeof(hbuf), cudaMemcpyHostToDevice)) ||
            poison_dinfo())
            ok = 0;
        A = dbuf;
    }
    if (b->iface == IF_ASYNC) /* the info argument is a device word */
        pinfo = gpu ? g_dinfo : &dinfo_val;
    if (b->argno == 3 || (b->argno == 0 && b->n == 0))
        A = NULL;
    if (b->argno == 5)
        pinfo = NULL;
    if (b->argno != 0 && b->argno == queue_argno(b->iface))
        q = NULL;

    ret = ok ? call_iface(b->iface, uplo, n, A, lda, pinfo, &o, q) : INFO_POISON;
    if (b->iface == IF_ASYNC && ok && gpu) {
        /* info word: poisoned after -i, 0 after the n = 0 quick return */
        if (ret == 0 && TESTING_CUDA(cudaStreamSynchronize(gchol_queue_stream(q))))
            ok = 0;
        if (TESTING_CUDA(cudaMemcpy(&dinfo_val, g_dinfo, sizeof(int64_t), cudaMemcpyDeviceToHost)))
            ok = 0;
    }
    if (dev && dbuf && TESTING_CUDA(cudaMemcpy(hbuf, dbuf, sizeof(hbuf), cudaMemcpyDeviceToHost)))
        ok = 0;
    /* Without a device, async cannot write its device info word for n = 0. */
    if (b->iface == IF_ASYNC && !gpu && b->argno == 0 && ret == GCHOL_ERR_NO_DEVICE)
        expect = ret;
    ok = ok && ret == expect && memcmp(hbuf, saved, sizeof(hbuf)) == 0;
    if (b->iface == IF_ASYNC)
        ok = ok && (b->argno == 0 ? (!gpu || dinfo_val == 0) : dinfo_val == INFO_POISON);
    else if (pinfo)
        ok = ok && hinfo == expect;
    cudaFree(dbuf);
    return testing_expect(ok, "%-11s %s arg %d: ret=%lld (expected %lld) info=%lld",
                          iface_name[b->iface], b->argno ? "illegal" : "n=0 quick return",
                          b->argno, (long long)ret, (long long)expect,
                          (long long)(b->iface == IF_ASYNC ? dinfo_val : hinfo));
}

/* All argument cases: every illegal argument of every form (arg 6 = opts of
 * the expert forms cannot be illegal), ldda = 0 with n = 0, and n = 0. */
static void run_badargs(void)
{
    static const int nargs[IF_COUNT] = { 6, 7, 7, 5, 7, 0 };
    printf("\n-- argument checks (%s) --\n", PREC_NAME);
    for (int iface = 0; iface < IF_STREAM; iface++) {
        badarg_t quick = { iface, 0, 0 }, ld0 = { iface, 4, 0 };
        for (int a = 1; a <= nargs[iface]; a++) {
            badarg_t b = { iface, a, 8 };
            if (a == 6 && iface != IF_GPU)
                continue;
            run_badarg(&b);
        }
        run_badarg(&ld0);
        run_badarg(&quick);
    }
}

/* Without a GPU the host interface reports GCHOL_ERR_NO_DEVICE and leaves A
 * alone. */
static void run_host_no_device(void)
{
    FLOAT A[64], saved[64];
    int64_t info = INFO_POISON, ret;
    if (!testing_no_gpu_section("host interface without a GPU"))
        return;
    testing_generate_spd(PREC, 'A', 8, A, 8, 1);
    memcpy(saved, A, sizeof(A));
    ret = GCHOL(potrf)(PREC == 'd' ? 'L' : 'U', 8, A, 8, &info);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && info == ret && !memcmp(A, saved, sizeof(A)),
                   "gchol_%cpotrf without GPU: ret %lld info %lld", PREC, (long long)ret,
                   (long long)info);
}

/* ---------------------------------------------------------------------------
 * The suite.
 * ------------------------------------------------------------------------- */
typedef struct {
    case_t *v;
    int64_t count, cap;
} case_list_t;

static void add(case_list_t *l, int64_t n, int64_t pad, char uplo, int iface,
                int variant, int lookahead, int defect, int64_t k)
{
    case_t c = { n, pad, uplo, iface, variant, lookahead, 0, 0, defect, k, GCHOL_UPPER_AUTO };
    l->v = testing_grow(l->v, l->count, &l->cap, sizeof(case_t));
    l->v[l->count++] = c;
}

/* The last case added, with an explicit way of running 'U'. */
static void set_upper(case_list_t *l, int upper)
{
    l->v[l->count - 1].upper = upper;
}

/* The last case added, with explicit block sizes. */
static void set_blocks(case_list_t *l, int64_t nb, int64_t recnb)
{
    l->v[l->count - 1].nb = nb;
    l->v[l->count - 1].recnb = recnb;
}

static int in_list(int64_t x, const int64_t *v, int len)
{
    for (int i = 0; i < len; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

#define LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char uplos[] = { 'L', 'U' };
static const int  variants[] = { GCHOL_VARIANT_LEFT, GCHOL_VARIANT_RIGHT, GCHOL_VARIANT_TILED };
static const int  lookaheads[] = { GCHOL_LOOKAHEAD_ON, GCHOL_LOOKAHEAD_OFF };

/* Every option combination (uplo x variant x lookahead) of one matrix. */
static void add_cross(case_list_t *l, int64_t n, int64_t pad, int defect, int64_t k)
{
    for (int u = 0; u < 2; u++)
        for (int v = 0; v < LEN(variants); v++)
            for (int a = 0; a < 2; a++)
                add(l, n, pad, uplos[u], IF_EXPERT_GPU, variants[v], lookaheads[a], defect, k);
}

/* A list of sizes (or columns) with its length. */
typedef struct {
    const int64_t *v;
    int len;
} list_t;
#define LIST(a) { a, LEN(a) }

/* The suite's parameters; the quick set (for the sanitizers) is smaller. */
typedef struct {
    list_t  sizes, cross, iface_n, pad_n, neg_k, boundary_k, nan_k;
    int64_t nd;      /* order of the non-SPD / NaN matrices              */
    int     thin;    /* 1: one variant per (uplo, k) instead of all      */
} suite_t;

static const int64_t sizes_full[] = { 0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129,
    255, 256, 257, 511, 512, 513, 1000, 1023, 1025, 2049, 3001 };
static const int64_t sizes_quick[] = { 0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129,
    255, 256, 257 };
static const int64_t cross_full[] = { 1, 3, 65, 129, 257, 513, 1025, 2049, 3001 };
static const int64_t cross_quick[] = { 65, 257 };
static const int64_t iface_full[] = { 1, 33, 257, 1025 }, iface_quick[] = { 257 };
static const int64_t pad_full[] = { 65, 513, 1000 }, pad_quick[] = { 65 };
static const int64_t neg_full[] = { 1, 37, 100, 550, 1100 }, neg_quick[] = { 1, 37, 150, 300 };
static const int64_t bnd_full[] = { 64, 65, 128, 129, 256, 257, 512, 513 };
static const int64_t bnd_quick[] = { 64, 65, 128, 129, 256, 257 };
static const int64_t nan_full[] = { 1, 129, 550, 1100 }, nan_quick[] = { 129 };

static const suite_t suite_full = { LIST(sizes_full), LIST(cross_full), LIST(iface_full),
    LIST(pad_full), LIST(neg_full), LIST(bnd_full), LIST(nan_full), 1100, 0 };
static const suite_t suite_quick = { LIST(sizes_quick), LIST(cross_quick), LIST(iface_quick),
    LIST(pad_quick), LIST(neg_quick), LIST(bnd_quick), LIST(nan_quick), 300, 1 };

/* One matrix with a defect: all variants (x lookahead if cross), or in thin
 * mode one variant and lookahead chosen by `pick`. */
static void add_defect(case_list_t *l, const suite_t *s, char uplo, int defect, int64_t k,
                       int cross, int pick)
{
    for (int v = 0; v < LEN(variants); v++)
        for (int a = 0; a < (cross ? 2 : 1); a++)
            if (!s->thin || (v == pick % LEN(variants) && a == (cross ? pick / LEN(variants) % 2 : 0)))
                add(l, s->nd, 0, uplo, IF_EXPERT_GPU, variants[v],
                    cross ? lookaheads[a] : GCHOL_LOOKAHEAD_AUTO, defect, k);
}

/* Builds the case list. */
static void build_suite(case_list_t *l, int quick)
{
    static const int ifaces[] = { IF_ASYNC, IF_HOST, IF_HOST_EXPERT, IF_STREAM };
    static const int bad_values[] = { DEF_NAN_DIAG, DEF_INF_DIAG, DEF_NAN_OFF };
    static const int64_t pads[] = { 3, 64 };
    const suite_t *s = quick ? &suite_quick : &suite_full;
    int pick = 0;

    /* sizes: full option cross product for a subset, defaults for the rest */
    for (int i = 0; i < s->sizes.len; i++) {
        int64_t n = s->sizes.v[i];
        if (in_list(n, s->cross.v, s->cross.len))
            add_cross(l, n, 0, DEF_NONE, 0);
        else
            for (int u = 0; u < (quick ? 1 : 2); u++)
                add(l, n, 0, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
    }
    /* the other interfaces */
    for (int i = 0; i < s->iface_n.len; i++)
        for (int u = 0; u < 2; u++)
            for (int f = 0; f < LEN(ifaces); f++)
                add(l, s->iface_n.v[i], 0, uplos[u], ifaces[f], 0, GCHOL_LOOKAHEAD_AUTO,
                    DEF_NONE, 0);
    /* lda > n with NaN padding */
    for (int i = 0; i < s->pad_n.len; i++)
        for (int p = 0; p < LEN(pads); p++)
            for (int u = 0; u < 2; u++) {
                int64_t n = s->pad_n.v[i];
                add(l, n, pads[p], uplos[u], IF_EXPERT_GPU, variants[p], lookaheads[p], DEF_NONE, 0);
                add(l, n, pads[p], uplos[u], IF_ASYNC, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
                add(l, n, pads[p], uplos[u], IF_HOST_EXPERT, variants[1 - p],
                    GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
                add(l, n, pads[p], uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_TILED,
                    GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
            }
    /* not SPD at column k: tiny, through every interface, first / inside the
     * recursion / middle / last, and at block boundaries */
    for (int u = 0; u < 2; u++) {
        add(l, 1, 0, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 1);
        add(l, 2, 0, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 2);
        add(l, 3, 1, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 2);
        for (int f = 0; f < LEN(ifaces); f++)
            add(l, s->nd, 5, uplos[u], ifaces[f], 0, GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 100);
        for (int i = 0; i < s->neg_k.len; i++)
            add_defect(l, s, uplos[u], DEF_NEG, s->neg_k.v[i], 0, pick++);
        for (int i = 0; i < s->boundary_k.len; i++)
            add_defect(l, s, uplos[u], DEF_NEG, s->boundary_k.v[i], 1, pick++);
    }
    /* NaN / Inf: info as reference LAPACK, no hang */
    for (int d = 0; d < LEN(bad_values); d++)
        for (int u = 0; u < 2; u++) {
            for (int i = 0; i < s->nan_k.len; i++)
                if (!(bad_values[d] == DEF_NAN_OFF && s->nan_k.v[i] < 2))
                    add_defect(l, s, uplos[u], bad_values[d], s->nan_k.v[i], 0, pick++);
            if (!quick)
                add(l, 100, 0, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, bad_values[d], 50);
        }
    /* pivots near underflow and overflow: every variant, and the tiled
     * kernel alone at a size of two blocks per SM */
    static const int scaled[] = { DEF_TINY, DEF_HUGE, DEF_GRADED_TINY, DEF_GRADED_HUGE };
    for (int q = 0; q < LEN(scaled); q++)
        for (int u = 0; u < 2; u++) {
            add_defect(l, s, uplos[u], scaled[q], 0, 0, pick++);
            add(l, quick ? 200 : 3000, 1, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_TILED,
                GCHOL_LOOKAHEAD_AUTO, scaled[q], 0);
        }
    for (int u = 0; u < 2; u++) {
        add_defect(l, s, uplos[u], DEF_SUB_PIVOT, 37, 0, pick++);
        add(l, quick ? 200 : 3000, 1, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_TILED,
            GCHOL_LOOKAHEAD_AUTO, DEF_SUB_PIVOT, quick ? 100 : 1500);
        /* k, k + 1 in one 8-column block of potf2 (k = 37, 1501) */
        add_defect(l, s, uplos[u], DEF_SQ_UNDER, 37, 0, pick++);
        add(l, quick ? 200 : 3000, 1, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_TILED,
            GCHOL_LOOKAHEAD_AUTO, DEF_SQ_UNDER, quick ? 101 : 1501);
    }
    /* blocked drivers with panels wider than recnb: split around a syrk and
     * gemm, tiled leaves (and the recursive fallback, nb not a multiple of
     * the tiles); a pivot failure inside a split panel */
    {
        static const int64_t blk_full[] = { 1025, 3001 }, blk_quick[] = { 1025 };
        static const int64_t nbs[][2] = { { 512, 128 }, { 320, 192 }, { 200, 128 } };
        const int64_t *blk = quick ? blk_quick : blk_full;
        const int nblk = quick ? LEN(blk_quick) : LEN(blk_full);
        for (int i = 0; i < nblk; i++)
            for (int u = 0; u < 2; u++)
                for (int v = 0; v < 2; v++)
                    for (int b = 0; b < LEN(nbs); b++) {
                        add(l, blk[i], 0, uplos[u], IF_EXPERT_GPU, variants[v], lookaheads[b % 2],
                            DEF_NONE, 0);
                        set_blocks(l, nbs[b][0], nbs[b][1]);
                    }
        for (int u = 0; u < 2; u++)
            for (int v = 0; v < 2; v++) {
                add(l, 1025, 0, uplos[u], IF_EXPERT_GPU, variants[v], GCHOL_LOOKAHEAD_ON, DEF_NEG,
                    700);
                set_blocks(l, 512, 128);
            }
        /* the automatic table's widest pair (2048 / 256, double): eight
         * tiled leaves per block column, a failure in the second one */
        if (!quick)
            for (int u = 0; u < 2; u++) {
                add(l, 5000, 3, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NONE, 0);
                set_blocks(l, 2048, 256);
                add(l, 4500, 0, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NEG, 2400);
                set_blocks(l, 2048, 256);
            }
        /* the host interface with its transfers interleaved (left-looking
         * with lookahead): NaN padding and other triangle, a failure; from
         * pageable memory (staged copies) and from pinned memory (direct) */
        static const int host_ifaces[] = { IF_HOST_EXPERT, IF_HOST_PINNED };
        for (int h = 0; h < 2; h++)
            for (int u = 0; u < 2; u++) {
                add(l, 1025, 7, uplos[u], host_ifaces[h], GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NONE, 0);
                set_blocks(l, 128, 128);
                add(l, 1025, 7, uplos[u], host_ifaces[h], GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NEG, 700);
                set_blocks(l, 256, 128);
            }
        /* the bulk update on the single-precision 3xTF32 syrk kernel (used
         * where its tiles fill 3/4 of the waves: here 132 or more tiles);
         * ld a multiple of 4 (16-byte copies) and odd (element copies) */
        for (int u = 0; u < 2; u++) {
            add(l, 2500, 0, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                DEF_NONE, 0);
            set_blocks(l, 1024, 512);
            if (!quick) {
                add(l, 4099, 1, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_OFF,
                    DEF_NONE, 0);
                set_blocks(l, 512, 256);
                add(l, 4099, 2, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NEG, 3000);
                set_blocks(l, 512, 256);
                add(l, 5000, 0, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_AUTO,
                    DEF_ILLCOND, 0);
                set_blocks(l, 1024, 512);
            }
        }
        if (!quick) {
            for (int u = 0; u < 2; u++) {
                add(l, 3001, 5, uplos[u], IF_HOST_EXPERT, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NONE, 0);
                set_blocks(l, 1024, 512);
                /* copies of more than one 16 MB staging buffer each */
                add(l, 6000, 9, uplos[u], IF_HOST_EXPERT, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NONE, 0);
                set_blocks(l, 1024, 512);
                /* the host interface's own auto: left-looking (transfers
                 * interleaved) from its own switch (io_tiled_below of the
                 * tuning table), below the device routines' tiled switch */
                add(l, 7000, 0, uplos[u], IF_HOST, GCHOL_VARIANT_AUTO, GCHOL_LOOKAHEAD_AUTO,
                    DEF_NONE, 0);
                /* the tiled kernel on a whole matrix: single upper's
                 * 3xTF32 worker update at one block per SM, and auto's
                 * sizes around its switch (tiled_below of the tuning
                 * table); two blocks per SM above the table's one-block
                 * limit; a failed pivot there */
                add(l, 4000, 3, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_TILED,
                    GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
                add(l, 5300, 1, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 4400);
                add(l, 6500, 0, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
                add(l, 6500, 1, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_TILED,
                    GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 5000);
            }
            /* updates taller than the tuning table's gemm_upper_chunk
             * (single, 'U') and gemm_lower_chunk ('L') go in pieces (4096
             * and 8192 rows on sm_90) */
            add(l, 4700, 3, 'U', IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON, DEF_NONE, 0);
            set_blocks(l, 256, 256);
            add(l, 8800, 3, 'L', IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON, DEF_NONE, 0);
            set_blocks(l, 512, 256);
            /* lda >= the tuning table's gemm_wide_tile_ld (double, 18432
             * on sm_90): the updates run on cublasLt's 128 x 128 tiles
             * (src/gemm_lt.c) where the columns are 16-byte aligned (not
             * lda 18433); a failure past them */
            for (int u = 0; u < 2; u++) {
                add(l, 3000, 18436 - 3000, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT,
                    GCHOL_LOOKAHEAD_ON, DEF_NONE, 0);
                set_blocks(l, 512, 256);
                add(l, 3001, 18433 - 3001, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT,
                    GCHOL_LOOKAHEAD_ON, DEF_NEG, 2500);
                set_blocks(l, 512, 512);
            }
            add(l, 2900, 18440 - 2900, 'U', IF_EXPERT_GPU, GCHOL_VARIANT_RIGHT,
                GCHOL_LOOKAHEAD_ON, DEF_NONE, 0);
            set_blocks(l, 512, 256);
            add(l, 12000, 36868 - 12000, 'L', IF_EXPERT_GPU, GCHOL_VARIANT_LEFT,
                GCHOL_LOOKAHEAD_ON, DEF_NONE, 0);
            set_blocks(l, 1024, 512);
            add(l, 12000, 36870 - 12000, 'L', IF_EXPERT_GPU, GCHOL_VARIANT_LEFT,
                GCHOL_LOOKAHEAD_OFF, DEF_NEG, 11000);
            set_blocks(l, 1024, 256);
        }
    }
    /* 'U' by swapping the triangles (the default for large single): every
     * variant, odd sizes, padding, the interfaces, pivot failures and NaN
     * (the other triangle, tagged NaNs, must come back bit for bit); the
     * host interface falls back to the view. And the view where auto swaps. */
    {
        static const int64_t sw_full[] = { 2, 3, 33, 65, 257, 1025, 3001 },
                             sw_quick[] = { 2, 65, 257 };
        const int64_t *sw = quick ? sw_quick : sw_full;
        const int nsw = quick ? LEN(sw_quick) : LEN(sw_full);
        for (int i = 0; i < nsw; i++)
            for (int v = 0; v < LEN(variants); v++) {
                add(l, sw[i], i % 3, 'U', IF_EXPERT_GPU, variants[v], lookaheads[i % 2], DEF_NONE,
                    0);
                set_upper(l, GCHOL_UPPER_SWAP);
            }
        static const int sw_ifaces[] = { IF_ASYNC, IF_STREAM, IF_HOST_EXPERT };
        for (int f = 0; f < LEN(sw_ifaces); f++) {
            add(l, quick ? 257 : 1025, 5, 'U', sw_ifaces[f], 0, GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
            set_upper(l, GCHOL_UPPER_SWAP);
        }
        for (int v = 0; v < LEN(variants); v++) {
            add(l, s->nd, 3, 'U', IF_EXPERT_GPU, variants[v], GCHOL_LOOKAHEAD_AUTO, DEF_NEG,
                s->nd / 2 + 1);
            set_upper(l, GCHOL_UPPER_SWAP);
            add(l, s->nd, 0, 'U', IF_EXPERT_GPU, variants[v], GCHOL_LOOKAHEAD_AUTO, DEF_NAN_OFF,
                s->nd / 3);
            set_upper(l, GCHOL_UPPER_SWAP);
        }
        add(l, 1025, 0, 'U', IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON, DEF_NEG, 700);
        set_blocks(l, 512, 128);
        set_upper(l, GCHOL_UPPER_SWAP);
        /* block by block (left-looking lookahead): block columns not a
         * multiple of the swap's tiles, odd lda */
        add(l, quick ? 1001 : 2049, 1, 'U', IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
            DEF_NONE, 0);
        set_blocks(l, 200, 128);
        set_upper(l, GCHOL_UPPER_SWAP);
        if (!quick) {
            /* the sizes where auto swaps in single: swapped and not */
            add(l, 8500, 1, 'U', IF_EXPERT_GPU, GCHOL_VARIANT_AUTO, GCHOL_LOOKAHEAD_AUTO, DEF_NONE,
                0);
            add(l, 8500, 1, 'U', IF_EXPERT_GPU, GCHOL_VARIANT_AUTO, GCHOL_LOOKAHEAD_AUTO, DEF_NONE,
                0);
            set_upper(l, GCHOL_UPPER_VIEW);
            add(l, 8500, 0, 'U', IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 5000);
        }
    }
    /* ill-conditioned SPD: the residual of the tiled kernel (explicit
     * inverses of its diagonal tiles) and of the blocked drivers */
    {
        static const int64_t ill_full[] = { 300, 1000, 2049 }, ill_quick[] = { 300 };
        const int64_t *ill = quick ? ill_quick : ill_full;
        const int nill = quick ? LEN(ill_quick) : LEN(ill_full);
        for (int i = 0; i < nill; i++)
            for (int u = 0; u < 2; u++)
                for (int v = 0; v < LEN(variants); v++)
                    add(l, ill[i], 0, uplos[u], IF_EXPERT_GPU, variants[v], GCHOL_LOOKAHEAD_AUTO,
                        DEF_ILLCOND, 0);
    }
}

/* ---------------------------------------------------------------------------
 * The triangle swap kernel behind uplo = 'U' with GCHOL_UPPER_SWAP, alone:
 * forward by block columns of width w, the result checked against the
 * whole transpose (bit for bit, padding and a guard element before the
 * array included), then back by block rows of width w2, checked against
 * the original; misaligned bases (odd offsets) and odd lda take the
 * element-by-element path.
 * ------------------------------------------------------------------------- */
static testing_result_t run_swap_case(int64_t n, int64_t pad, int64_t off, int64_t w, int64_t w2)
{
    const int64_t lda = n + pad > 1 ? n + pad : 1, cnt = lda * n + off;
    BITS *h = malloc((size_t)cnt * sizeof(BITS)), *g = malloc((size_t)cnt * sizeof(BITS));
    BITS *d = NULL;
    int64_t bad = -1;
    if (!testing_have_gpu()) {
        printf("  skipped swap_triangles n=%-5lld lda=%-5lld off=%lld (no GPU)\n", (long long)n,
               (long long)lda, (long long)off);
        free(h); free(g);
        return testing_record(TESTING_SKIPPED);
    }
    if (h && g && !TESTING_CUDA(cudaMalloc((void **)&d, (size_t)cnt * sizeof(BITS)))) {
        for (int64_t i = 0; i < cnt; i++) h[i] = (BITS)((uint64_t)i * 2654435761ull + 977);
        FLOAT *dA = (FLOAT *)(d + off);
        int err = TESTING_CUDA(cudaMemcpy(d, h, (size_t)cnt * sizeof(BITS), cudaMemcpyHostToDevice));
        for (int64_t j = 0; !err && j < n; j += w)
            err = TESTING_CUDA(SWAP_TRIANGLES(n, dA, lda, 0, n, j, j + w < n ? j + w : n, 0));
        if (!err) err = TESTING_CUDA(cudaMemcpy(g, d, (size_t)cnt * sizeof(BITS), cudaMemcpyDeviceToHost));
        if (!err) {
            bad = 0;
            for (int64_t k = 0; k < cnt; k++) {
                const int64_t q = k - off, i = q >= 0 ? q % lda : n, j = q >= 0 ? q / lda : 0;
                const int64_t src = i < n && i != j ? off + j + i * lda : k;
                bad += g[k] != h[src];
            }
        }
        for (int64_t i = 0; !err && i < n; i += w2)
            err = TESTING_CUDA(SWAP_TRIANGLES(n, dA, lda, i, i + w2 < n ? i + w2 : n, 0, n, 0));
        if (!err) err = TESTING_CUDA(cudaMemcpy(g, d, (size_t)cnt * sizeof(BITS), cudaMemcpyDeviceToHost));
        if (err) bad = -1;
        else for (int64_t k = 0; k < cnt; k++) bad += g[k] != h[k];
    }
    testing_result_t res = testing_record(bad == 0 ? TESTING_PASSED : TESTING_FAILED);
    printf("  %-7s swap_triangles n=%-5lld lda=%-5lld off=%lld columns by %lld, rows back by %lld: "
           "%lld wrong%s\n", testing_result_name(res), (long long)n, (long long)lda, (long long)off,
           (long long)w, (long long)w2, (long long)bad, bad < 0 ? " (CUDA error)" : "");
    cudaFree(d);
    free(h);
    free(g);
    return res;
}

static void run_swap_cases(int quick)
{
    static const int64_t ns_full[] = { 1, 2, 3, 31, 64, 65, 129, 200, 1000, 1001 };
    static const int64_t ns_quick[] = { 2, 65, 200 };
    const int64_t *ns = quick ? ns_quick : ns_full;
    const int nn = quick ? 3 : 10;
    printf("\n-- swap_triangles kernel (uplo = 'U' by swapping) --\n");
    for (int i = 0; i < nn; i++)
        for (int64_t pad = 0; pad <= 1; pad++)
            for (int64_t off = 0; off <= 1; off++) {
                const int64_t n = ns[i];
                run_swap_case(n, pad, off, n > 8 ? 1 + (n * 7) / 23 + off : n, n > 8 ? 1 + (n * 5) / 17 : n);
            }
    /* an invalid range is refused, nothing launched */
    testing_result_t res = testing_record(
        SWAP_TRIANGLES(10, NULL, 10, 0, 11, 0, 10, 0) != 0 && SWAP_TRIANGLES(10, NULL, 9, 0, 10, 0, 10, 0) != 0
            ? TESTING_PASSED : TESTING_FAILED);
    printf("  %-7s swap_triangles: range past n and lda < n refused\n", testing_result_name(res));
}

static void run_suite(int quick)
{
    case_list_t l = { NULL, 0, 0 };
    printf("testing_%cpotrf --suite%s  (%s precision, %s)\n", PREC, quick ? " --quick" : "",
           PREC_NAME, testing_have_gpu() ? "GPU present" : "no GPU");
    run_badargs();
    run_host_no_device();
    run_swap_cases(quick);
    build_suite(&l, quick);
    printf("\n-- factorizations: %lld cases --\n", (long long)l.count);
    for (int64_t i = 0; i < l.count; i++)
        run_case(&l.v[i]);
    free(l.v);
}

/* ---------------------------------------------------------------------------
 * Table mode.
 * ------------------------------------------------------------------------- */
typedef struct {
    int64_t *sizes, nsizes;
    case_t   base;     /* uplo, iface, variant, lookahead, nb, recnb, pad */
    int      niter, check, warmup;
} table_opts_t;

/* Times LAPACKE_?potrf (OpenBLAS, native precision) on a copy of A; R
 * (n x n, double) receives its factor. Returns the seconds, -1 on failure. */
static double time_lapacke(const case_t *c, const FLOAT *A, double *R, int64_t *info)
{
    int64_t lda = case_lda(c);
    FLOAT *C = malloc(case_bytes(c));
    double t;
    if (!C || !R) {
        free(C);
        return -1;
    }
    memcpy(C, A, case_bytes(c));
    LAPACKE_set_nancheck(0);
    t = testing_wtime();
    *info = LAPACKE_POTRF(LAPACK_COL_MAJOR, c->uplo, (lapack_int)c->n, C, (lapack_int)lda);
    t = testing_wtime() - t;
    testing_reference_factor(PREC, c->uplo, c->n, 0, C, lda, R, c->n); /* copy only */
    free(C);
    return t;
}

/* One row of the table: factor with niter timed runs (median), check. */
static void table_row(const table_opts_t *t, int64_t n)
{
    case_t c = t->base;
    FLOAT *A, *W = NULL, *dA = NULL;
    double *times, resid = 0, diff = 0, tref = 0, tg = 0;
    run_t r = { 0, 0, 0 };
    int ok = 1, dev = is_device_iface(c.iface);
    int64_t ref_info = 0;

    c.n = n;
    A = make_matrix(&c);
    times = calloc((size_t)t->niter, sizeof(double));
    W = malloc(case_bytes(&c));
    if (!A || !times || !W || (dev && TESTING_CUDA(cudaMalloc((void **)&dA, case_bytes(&c))))) {
        printf("%7lld  allocation failed\n", (long long)n);
        ok = 0;
        goto done;
    }
    for (int it = -t->warmup; it < t->niter && ok; it++) {
        ok = factor_once(&c, A, dA, W, &r) == 0 && r.info == 0 &&
             (c.iface == IF_ASYNC || r.ret == r.info);
        if (it >= 0)
            times[it] = r.seconds;
    }
    tg = times ? testing_median(times, t->niter) : 0;
    if (ok && testing_residual(PREC, c.uplo, n, A, case_lda(&c), dev ? NULL : W, case_lda(&c),
                               dA, case_lda(&c), &resid))
        ok = 0;
    ok = ok && resid < TESTING_TOL;
    if (ok && t->check) {
        double *R = malloc((size_t)(n * n) * sizeof(double));
        if (dev && testing_copy_d2h(ES, case_lda(&c), n, dA, case_lda(&c), W, case_lda(&c)))
            ok = 0;
        tref = time_lapacke(&c, A, R, &ref_info);
        diff = tref >= 0 && ref_info == 0
             ? testing_factor_diff(PREC, c.uplo, n, n, W, case_lda(&c), R, n) : NAN;
        ok = ok && diff < 10 * factor_tol(n); /* two rounded factors */
        free(R);
    }
done:
    testing_record(ok ? TESTING_PASSED : TESTING_FAILED);
    {
        double fl = testing_flops_potrf(n) / 1e12;
        printf("%7lld %7lld %10.4f %9.2f", (long long)n, (long long)case_lda(&c), tg,
               tg > 0 ? fl / tg : 0.0);
        if (t->check)
            printf(" %10.4f %9.2f %9.2e", tref, tref > 0 ? fl / tref : 0.0, diff);
        printf(" %9.2e %6lld  %s\n", resid, (long long)r.info, ok ? "ok" : "FAILED");
        fflush(stdout);
    }
    free(A);
    free(W);
    free(times);
    cudaFree(dA);
}

static void run_table(const table_opts_t *t)
{
    gchol_options_t o = case_options(&t->base);
    if (!testing_table_can_run(g_queue)) return;
    gchol_options_resolve(&o, PREC, t->nsizes ? t->sizes[t->nsizes - 1] : 0);
    printf("%s precision, uplo %c, interface %s, niter %d (median), lda pad %lld\n",
           PREC_NAME, t->base.uplo, iface_name[t->base.iface], t->niter,
           (long long)t->base.pad);
    printf("options (resolved for the largest n): variant %d nb %lld recnb %lld lookahead %d "
           "upper %d\n", o.variant, (long long)o.nb, (long long)o.recnb, o.lookahead, o.upper);
    if (t->check)
        printf("CPU reference: LAPACKE_%cpotrf, OpenBLAS core %s\n", PREC,
               openblas_get_corename());
    printf("%7s %7s %10s %9s", "n", "lda", "GPU s", "GPU TF/s");
    if (t->check)
        printf(" %10s %9s %9s", "CPU s", "CPU TF/s", "|L-Lref|");
    printf(" %9s %6s  %s\n", "residual", "info", "check");
    for (int64_t i = 0; i < t->nsizes; i++)
        table_row(t, t->sizes[i]);
}

/* --large: one lower double factorization with n > 46341 (n*n > 2^31),
 * residual on the GPU. */
static void run_large(table_opts_t *t)
{
    static int64_t n_large = LARGE_N;
    if (PREC != 'd') {
        printf("  skipped --large is double only\n");
        testing_record(TESTING_SKIPPED);
        return;
    }
    t->sizes = &n_large;
    t->nsizes = 1;
    t->base.uplo = 'L';
    t->niter = 1;
    t->warmup = 0;
    t->check = 0;
    run_table(t);
    t->sizes = NULL;
}

/* ---------------------------------------------------------------------------
 * Command line.
 * ------------------------------------------------------------------------- */
int main(int argc, char **argv)
{
    static const int la_values[] = { GCHOL_LOOKAHEAD_AUTO, GCHOL_LOOKAHEAD_OFF,
                                     GCHOL_LOOKAHEAD_ON };
    static const int upper_values[] = { GCHOL_UPPER_AUTO, GCHOL_UPPER_VIEW, GCHOL_UPPER_SWAP };
    static const int if_values[] = { IF_EXPERT_GPU, IF_ASYNC, IF_HOST_EXPERT };
    table_opts_t t;
    testing_list_t sizes = { NULL, 0 };
    int suite = 0, quick = 0, large = 0;
    const char *part = NULL;
    memset(&t, 0, sizeof(t));
    t.base.uplo = 'L';
    t.base.iface = IF_EXPERT_GPU;
    t.base.lookahead = GCHOL_LOOKAHEAD_AUTO;
    t.base.upper = GCHOL_UPPER_AUTO;
    t.niter = 1;
    t.warmup = 1;
    const opt_t opts[] = {
        OPT("--suite", OPT_FLAG, &suite, NULL, "the test suite (make test)"),
        OPT("--quick", OPT_FLAG, &quick, NULL, "with --suite: fewer cases (the sanitizers)"),
        OPT("--part", OPT_STRING, &part, "I/K", "with --suite: only cases I, I+K, ... (from 0)"),
        OPT("--large", OPT_FLAG, &large, NULL, "one factorization with n*n > 2^31 (double only)"),
        OPT("-n", OPT_LIST, &sizes, "LIST", "table: sizes, N, a,b,c or start:stop:step"),
        OPT("--uplo", OPT_CHAR, &t.base.uplo, "L|U", "table: triangle (default L)",
            .choices = "LU"),
        OPT("--variant", OPT_CHOICE, &t.base.variant, "V", "table: auto|left|right|tiled "
            "(default auto)", .choices = "auto|left|right|tiled"),
        OPT("--lookahead", OPT_CHOICE, &t.base.lookahead, "X", "table: auto|off|on (default "
            "auto)", .choices = "auto|off|on", .values = la_values),
        OPT("--upper", OPT_CHOICE, &t.base.upper, "X", "table: how 'U' runs, auto|view|swap "
            "(default auto)", .choices = "auto|view|swap", .values = upper_values),
        OPT("--nb", OPT_INT64, &t.base.nb, "N", "table: block size (default 0: automatic)"),
        OPT("--recnb", OPT_INT64, &t.base.recnb, "N", "table: recursive block size (default 0)"),
        OPT("--niter", OPT_INT, &t.niter, "K", "table: timed runs, median reported (default 1)",
            OPT_MIN(1)),
        OPT("--check", OPT_FLAG, &t.check, NULL, "table: also time LAPACKE_?potrf and compare "
            "the factors"),
        OPT("--interface", OPT_CHOICE, &t.base.iface, "I", "table: gpu|async|host (default gpu)",
            .choices = "gpu|async|host", .values = if_values),
        OPT("--lda-pad", OPT_INT64, &t.base.pad, "P", "table: lda = n + P (default 0)",
            OPT_MIN(0)),
        OPT_END
    };
    const opts_program_t prog = { "[--suite [--quick] | --large | table options]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    if (part && testing_parse_part(part) != 0)
        opts_fail(argv[0], opts, &prog, "--part: expected I/K with 0 <= I < K");
    t.sizes = sizes.v;
    t.nsizes = sizes.count;
    if (!suite && !large && !t.nsizes)
        opts_fail(argv[0], opts, &prog, "table mode needs -n");
    if (setup_device())
        printf("device setup failed: GPU cases will fail\n");
    if (suite)
        run_suite(quick);
    else if (large)
        run_large(&t);
    else
        run_table(&t);
    if (testing_have_gpu())
        teardown_device();
    free(t.sizes);
    return testing_summary();
}
