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

#include "potrf_matrix.h"

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

#include "potrf_badargs.h"
#include "potrf_suite.h"
#include "potrf_table.h"

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
