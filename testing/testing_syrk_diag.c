/*
 * testing_syrk_diag.c -- tests and times gchol_?syrk_diag_gpu (full storage)
 * and gchol_?sfrk_diag_gpu (RFP storage): C := alpha*A*D^2*A^T + beta*C.
 * Precision-generic: -DGCHOL_PREC_D gives testing_dsyrk_diag, -DGCHOL_PREC_S
 * gives testing_ssyrk_diag. The suite also runs their host-memory forms,
 * gchol_?syrk_diag and gchol_?sfrk_diag (A streamed through the GPU in
 * blocks of columns), with blocks made small through the library's test
 * hooks (src/test_hooks.h); the argument checks and quick returns of all four
 * entry points, which run without a GPU too; and the split plan of the long
 * dimension (gchol_syrk_diag_splits).
 *
 * Table mode (MAGMA style; the default, with m = 512..4096 and n = 16384):
 *   testing_dsyrk_diag [-m LIST] [-n LIST] [--uplo L|U] [--rfp N|T]
 *       [--d I|rand] [--alpha X] [--beta Y] [--niter K]
 *   LIST is "N", "a,b,c" or "start:stop:step"; the table is the m x n cross.
 * Suite mode (make test):   testing_dsyrk_diag --suite
 * Reduced suite (sanitizer): testing_dsyrk_diag --suite --quick (or --quick)
 *
 * Reference: B = A*D formed in double from the (float or double) inputs,
 * then cblas_dsyrk (full) or LAPACKE_dsfrk (RFP, on the same starting RFP
 * array) in double. Error ratio, per referenced element (i, j):
 *     |C_ij - Cref_ij| / ((|alpha| G_ij + |beta| |C0_ij|) * eps * sqrt(max(n,1)))
 * with G = |B| |B|^T. The componentwise bound of any summation order is
 * gamma_{n+3} (|alpha| G + |beta| |C0|) (Higham, Thm 3.5 / 3.7); sqrt(n)
 * instead of n is the probabilistic form of that bound (Higham & Mary, 2019),
 * which is what random data reaches in practice. Passing: max ratio < 30.
 * Where the bound is 0 (alpha = beta = 0, or zero columns) C must be exact.
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
#include "argcheck.h"
#include "flops.h"
#include "opts.h"
#include "test_hooks.h"
#include "testing_prec.h"
#include "util.h"
#include "../kernels/gchol_kernels.h"

#if defined(GCHOL_PREC_S)
#define EXT_EXP   40   /* a_ik, d_k up to 2^+-40 (d_k^2 up to 2^+-82)     */
#else
#define EXT_EXP   300  /* a_ik, d_k up to 2^+-300 (d_k^2 up to 2^+-602)   */
#endif

#define GUARD     TESTING_GUARD    /* sentinel elements before and after RFP arrays */
#define SENTINEL  TESTING_SENTINEL /* finite poison value                          */
#define LEN(a)    TESTING_LEN(a)

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* ---------------------------------------------------------------------------
 * Test cases.
 * ------------------------------------------------------------------------- */
typedef enum {
    D_NONE,     /* dd = NULL: D = I                                          */
    D_RAND,     /* d_k = +-(0.5 .. 2)                                        */
    D_ZEROS,    /* as D_RAND, every third d_k = 0                            */
    D_EXTREME,  /* a_ik = u 2^e_k, d_k = v 2^-e_k, |e_k| up to EXT_EXP: A
                   and D span a huge range, A*D does not. d_k^2, a_ik d_k^2
                   and a_ik a_jk stay normal numbers: the header allows d_k^2
                   to be formed (double, off the diagonal). With EXT_EXP 70
                   (float) / 600 (double) this would also check that d_k^2 is
                   never formed.                                             */
    D_COUNT
} dmode_t;
static const char *dmode_name[D_COUNT] = { "I", "rand", "zeros", "extreme" };

typedef struct {
    int      rfp;        /* 0: syrk_diag (full storage), 1: sfrk_diag (RFP) */
    char     transr;     /* RFP only                                        */
    char     uplo;
    int64_t  m, n;
    int64_t  pada, padc; /* ldda = m + pada, lddc = m + padc (full)         */
    double   alpha, beta;
    int      dmode;      /* dmode_t                                         */
    int      poison;     /* 0: NaN, 1: finite sentinel outside the triangle */
    int      nan_a;      /* alpha = 0: A and d are NaN (BLAS: not read)     */
    int      host;       /* the host form: 1 pageable arrays, 2 A pinned    */
    int64_t  chunk;      /* host: the largest block's bytes (0: the default) */
    int64_t  parts_from; /* host: C back in parts from this m (0: default)  */
    int      path;       /* full storage: 0 the tuned choice, 1 the kernel,
                            2 the cuBLAS composition (test_hooks.h)         */
    size_t   scratch;    /* path 2: its chunk bytes (0: the default)        */
    uint64_t seed;
} case_t;

static gchol_queue_t g_queue;

static int64_t case_lda(const case_t *c) { return max64(1, c->m + c->pada); }
static int64_t case_ldc(const case_t *c) { return max64(1, c->m + c->padc); }

/* Elements of the C array as allocated: lddc x m (full) or the RFP array
 * with GUARD sentinels on each side. */
static int64_t case_csize(const case_t *c)
{
    return c->rfp ? testing_rfp_size(c->m) + 2 * GUARD : case_ldc(c) * max64(1, c->m);
}

#include "syrk_diag_ref.h"

/* ---------------------------------------------------------------------------
 * Running one case on the GPU.
 * ------------------------------------------------------------------------- */

/* Device copies of a case's arrays. */
typedef struct {
    FLOAT *dA, *dd, *dC;
} dev_t;

static void dev_free(dev_t *v)
{
    cudaFree(v->dA);
    cudaFree(v->dd);
    cudaFree(v->dC);
    v->dA = v->dd = v->dC = NULL;
}

/* Allocates and uploads A, d and C. Returns 0 or -1. */
static int dev_upload(const case_t *c, const FLOAT *A, const FLOAT *d, const FLOAT *C, dev_t *v)
{
    size_t abytes = (size_t)(case_lda(c) * max64(1, c->n)) * ES;
    size_t dbytes = (size_t)max64(1, c->n) * ES, cbytes = (size_t)case_csize(c) * ES;
    if (TESTING_CUDA(cudaMalloc((void **)&v->dA, abytes)) ||
        TESTING_CUDA(cudaMalloc((void **)&v->dd, dbytes)) ||
        TESTING_CUDA(cudaMalloc((void **)&v->dC, cbytes)) ||
        TESTING_CUDA(cudaMemcpy(v->dA, A, abytes, cudaMemcpyHostToDevice)) ||
        TESTING_CUDA(cudaMemcpy(v->dd, d, dbytes, cudaMemcpyHostToDevice)) ||
        TESTING_CUDA(cudaMemcpy(v->dC, C, cbytes, cudaMemcpyHostToDevice)))
        return -1;
    return 0;
}

/* Enqueues the case's routine on g_queue; returns its return value. */
static int64_t call_case(const case_t *c, const dev_t *v)
{
    const FLOAT *dd = c->dmode == D_NONE ? NULL : v->dd;
    if (c->path) {
        const gchol_test_hooks_t hooks = { .syrk_diag_path = c->path,
                                           .syrk_diag_scratch_bytes = c->scratch };
        gchol_test_hooks_set(&hooks);
        const int64_t ret = GCHOL(syrk_diag_gpu)(c->uplo, c->m, c->n, (FLOAT)c->alpha, v->dA,
                                                 case_lda(c), dd, (FLOAT)c->beta, v->dC,
                                                 case_ldc(c), g_queue);
        gchol_test_hooks_set(NULL);
        return ret;
    }
    if (c->rfp)
        return GCHOL(sfrk_diag_gpu)(c->transr, c->uplo, c->m, c->n, (FLOAT)c->alpha, v->dA,
                                    case_lda(c), dd, (FLOAT)c->beta, v->dC + GUARD, g_queue);
    return GCHOL(syrk_diag_gpu)(c->uplo, c->m, c->n, (FLOAT)c->alpha, v->dA, case_lda(c), dd,
                                (FLOAT)c->beta, v->dC, case_ldc(c), g_queue);
}

/* The host form on host arrays A, d, C (C + GUARD for RFP); with host = 2
 * on a pinned copy of A (copied back after, so that a change shows). */
static int64_t call_host(const case_t *c, FLOAT *A, const FLOAT *d, FLOAT *C)
{
    const FLOAT *dd = c->dmode == D_NONE ? NULL : d;
    const size_t abytes = (size_t)(case_lda(c) * max64(1, c->n)) * ES;
    FLOAT *Ause = A;
    if (c->host == 2 && TESTING_CUDA(cudaMallocHost((void **)&Ause, abytes))) return -999;
    if (Ause != A) memcpy(Ause, A, abytes);
    const gchol_test_hooks_t hooks = { .host_chunk_bytes = c->chunk,
                                       .host_parts_from_m = c->parts_from };
    gchol_test_hooks_set(&hooks);
    const int64_t ret =
        c->rfp ? GCHOL(sfrk_diag)(c->transr, c->uplo, c->m, c->n, (FLOAT)c->alpha, Ause,
                                  case_lda(c), dd, (FLOAT)c->beta, C + GUARD)
               : GCHOL(syrk_diag)(c->uplo, c->m, c->n, (FLOAT)c->alpha, Ause, case_lda(c), dd,
                                  (FLOAT)c->beta, C, case_ldc(c));
    gchol_test_hooks_set(NULL);
    if (Ause != A) {
        memcpy(A, Ause, abytes);
        cudaFreeHost(Ause);
    }
    return ret;
}

/* Number of elements of the C array outside what the routine may write. */
static int64_t outside_violations(const case_t *c, const FLOAT *C, const FLOAT *C0)
{
    if (c->rfp) {
        int64_t nt = testing_rfp_size(c->m);
        return testing_count_diff(PREC, GUARD, C, C0) +
               testing_count_diff(PREC, GUARD, C + GUARD + nt, C0 + GUARD + nt);
    }
    return testing_count_untouched_violations(PREC, c->uplo, c->m, C, C0, case_ldc(c));
}

static void print_case(const case_t *c, testing_result_t res)
{
    char var[8];
    if (c->rfp)
        snprintf(var, sizeof(var), "%c%c", c->transr, c->uplo);
    else
        snprintf(var, sizeof(var), "%c", c->uplo);
    printf("  %-7s %s%s %-2s m=%-5lld n=%-6lld ldda=%-5lld ", testing_result_name(res),
           c->rfp ? "sfrk" : "syrk", c->host ? (c->host == 2 ? "(host,pinned)" : "(host)") : "",
           var, (long long)c->m, (long long)c->n, (long long)case_lda(c));
    if (c->chunk)
        printf("chunk=%lldB ", (long long)c->chunk);
    if (c->parts_from)
        printf("parts ");
    if (c->path)
        printf("%s ", c->path == 1 ? "kernel" : "cublas");
    if (c->rfp)
        printf("rfp+guards ");
    else
        printf("lddc=%-5lld  ", (long long)case_ldc(c));
    printf("alpha=%-5g beta=%-5g d=%-7s poison=%-4s%s", c->alpha, c->beta,
           dmode_name[c->dmode], c->poison ? "sent" : "nan", c->nan_a ? " A=NaN" : "");
}

/* Appends a failure reason. */
static void fail(char *why, size_t len, const char *reason)
{
    size_t l = strlen(why);
    snprintf(why + l, len - l, "%s%s", l ? ", " : "", reason);
}

/* Runs, checks, prints and records one case. */
static testing_result_t run_case(const case_t *c)
{
    char why[256] = "";
    int64_t ret = -987654321, outside = 0;
    int64_t abytes = case_lda(c) * max64(1, c->n), csize = case_csize(c);
    ratio_t r = { 0, 0, 0 };
    FLOAT *A = NULL, *A2 = NULL, *d = NULL, *d2 = NULL, *C0 = NULL, *C = NULL;
    dev_t v = { NULL, NULL, NULL };
    testing_result_t res;

    if (!testing_case_in_part())
        return TESTING_SKIPPED;
    if (!testing_have_gpu()) {
        print_case(c, TESTING_SKIPPED);
        printf(" (no GPU)\n");
        return testing_record(TESTING_SKIPPED);
    }
    A = malloc((size_t)abytes * ES);
    A2 = malloc((size_t)abytes * ES);
    d = malloc((size_t)max64(1, c->n) * ES);
    d2 = malloc((size_t)max64(1, c->n) * ES);
    C0 = malloc((size_t)csize * ES);
    C = malloc((size_t)csize * ES);
    if (!g_queue) {
        fail(why, sizeof(why), "no queue");
    } else if (!A || !A2 || !d || !d2 || !C0 || !C) {
        fail(why, sizeof(why), "out of host memory");
    } else {
        make_inputs(c, A, d);
        make_c(c, C0);
        int got = 0; /* C, A2 and d2 hold what the call left */
        if (c->host) {
            /* A2, d2: A and d before the call, which must leave them alone */
            memcpy(A2, A, (size_t)abytes * ES);
            memcpy(d2, d, (size_t)max64(1, c->n) * ES);
            memcpy(C, C0, (size_t)csize * ES);
            ret = call_host(c, A, d, C);
            if (ret == -999) {
                fail(why, sizeof(why), "CUDA error in the harness (pinned memory)");
            } else {
                if (ret != 0) fail(why, sizeof(why), "returned non-zero");
                got = 1;
            }
        } else if (dev_upload(c, A, d, C0, &v)) {
            fail(why, sizeof(why), "CUDA error in the harness (upload)");
        } else {
            ret = call_case(c, &v);
            if (ret != 0)
                fail(why, sizeof(why), "returned non-zero");
            if (gchol_queue_sync(g_queue) != 0 || TESTING_CUDA(cudaGetLastError()))
                fail(why, sizeof(why), "queue_sync failed");
            else if (TESTING_CUDA(cudaMemcpy(C, v.dC, (size_t)csize * ES, cudaMemcpyDeviceToHost)) ||
                     TESTING_CUDA(cudaMemcpy(A2, v.dA, (size_t)abytes * ES, cudaMemcpyDeviceToHost)) ||
                     TESTING_CUDA(cudaMemcpy(d2, v.dd, (size_t)max64(1, c->n) * ES,
                                             cudaMemcpyDeviceToHost)))
                fail(why, sizeof(why), "CUDA error in the harness (download)");
            else
                got = 1;
        }
        if (got) {
            if (testing_count_diff(PREC, abytes, A, A2))
                fail(why, sizeof(why), "A modified");
            if (testing_count_diff(PREC, max64(1, c->n), d, d2))
                fail(why, sizeof(why), "d modified");
            outside = outside_violations(c, C, C0);
            if (outside)
                fail(why, sizeof(why), c->rfp ? "guard elements modified"
                                              : "other triangle or padding modified");
            if (error_ratio(c, A, d, C0, C, &r))
                fail(why, sizeof(why), "out of host memory (reference)");
            else if (r.nan)
                fail(why, sizeof(why), "NaN in the result");
            else if (!(r.ratio < TESTING_TOL))
                fail(why, sizeof(why), "error too large");
        }
    }
    res = testing_record(why[0] ? TESTING_FAILED : TESTING_PASSED);
    print_case(c, res);
    printf(" ret=%lld ratio=%.2e err=%.2e", (long long)ret, r.nan ? NAN : r.ratio, r.maxerr);
    if (outside)
        printf(" outside=%lld", (long long)outside);
    printf("%s%s\n", why[0] ? " -- " : "", why);
    fflush(stdout);
    dev_free(&v);
    free(A); free(A2); free(d); free(d2); free(C0); free(C);
    return res;
}

/* ---------------------------------------------------------------------------
 * The suite.
 * ------------------------------------------------------------------------- */
typedef struct {
    case_t *v;
    int64_t count, cap;
} case_list_t;

static void push(case_list_t *l, case_t c)
{
    l->v = testing_grow(l->v, l->count, &l->cap, sizeof(case_t));
    c.seed = 0x5EED0000ull + (uint64_t)l->count * 7919u;
    l->v[l->count++] = c;
}

/* Adds one case (full storage when transr is 0, else RFP). */
static void add(case_list_t *l, char transr, char uplo, int64_t m, int64_t n, int64_t pada,
                int64_t padc, double alpha, double beta, int dmode, int poison, int nan_a)
{
    case_t c;
    memset(&c, 0, sizeof(c));
    c.rfp = transr != 0;
    c.transr = transr ? transr : 'N';
    c.uplo = uplo;
    c.m = m;
    c.n = n;
    c.pada = pada;
    c.padc = c.rfp ? 0 : padc;
    c.alpha = alpha;
    c.beta = beta;
    c.dmode = dmode;
    c.poison = poison;
    c.nan_a = nan_a;
    push(l, c);
}

/* The six storage variants: full L, full U, RFP NL, NU, TL, TU. */
static const char var_transr[6] = { 0, 0, 'N', 'N', 'T', 'T' };
static const char var_uplo[6]   = { 'L', 'U', 'L', 'U', 'L', 'U' };

/* All six variants of one (m, n, alpha, beta, d) combination. */
static void add_all_variants(case_list_t *l, int64_t m, int64_t n, int64_t pada, int64_t padc,
                             double alpha, double beta, int dmode, int poison, int nan_a)
{
    for (int s = 0; s < 6; s++)
        add(l, var_transr[s], var_uplo[s], m, n, pada, padc, alpha, beta, dmode, poison, nan_a);
}

typedef struct { double alpha, beta; } ab_t;
static const ab_t ab_list[] = {
    { 1, 0 }, { 1, 1 }, { -1, 0.5 }, { 0.7, -2 }, { -2.5, 1 }, { 0, 2.5 }, { 0, 0 }, { 0, 1 },
    { 1.5, -1 } };

typedef struct { int64_t m, n; } shape_t;

static void build_suite(case_list_t *l, int quick)
{
    static const int64_t tiny[] = { 0, 1, 2, 3 };
    static const int64_t cross_full[] = { 1, 5, 17, 127, 128, 129, 255, 300, 513, 1000 };
    static const int64_t cross_quick[] = { 1, 5, 17, 128, 129, 300 };
    static const shape_t shapes_full[] = { { 100, 5000 }, { 2000, 3 }, { 3, 2000 },
        { 1000, 20000 }, { 2049, 17 }, { 16, 100000 }, { 4097, 1 } };
    static const shape_t shapes_quick[] = { { 64, 2000 }, { 700, 3 } };
    static const shape_t ab_shapes[] = { { 129, 300 }, { 64, 1 } };
    static const shape_t d_shapes[] = { { 300, 513 }, { 127, 1000 } };
    static const int64_t pads[][2] = { { 0, 0 }, { 3, 5 }, { 0, 64 }, { 17, 1 } };
    const int64_t *cross = quick ? cross_quick : cross_full;
    const int ncross = quick ? LEN(cross_quick) : LEN(cross_full);
    const shape_t *shapes = quick ? shapes_quick : shapes_full;
    const int nshapes = quick ? LEN(shapes_quick) : LEN(shapes_full);
    int rot = 0;

    /* 1. tiny m, n (0..3), every variant, alpha/beta/d rotating */
    for (int i = 0; i < LEN(tiny); i++)
        for (int j = 0; j < LEN(tiny); j++)
            for (int s = 0; s < 6; s++, rot++) {
                const ab_t *ab = &ab_list[rot % LEN(ab_list)];
                add(l, var_transr[s], var_uplo[s], tiny[i], tiny[j], rot % 2, (rot / 2) % 3,
                    ab->alpha, ab->beta, rot % 3 == 0 ? D_NONE : D_RAND, rot % 2, 0);
            }
    /* 2. m x n cross of odd / even / non-multiples of 16 and 128: one full
     * and one RFP case per pair, with uplo, transr, alpha/beta, d, padding
     * and poison rotating */
    for (int i = 0; i < ncross; i++)
        for (int j = 0; j < ncross; j++, rot++) {
            const ab_t *ab = &ab_list[rot % 5]; /* alpha != 0 */
            const int64_t *pd = pads[rot % LEN(pads)];
            int dm = (int)(rot % 3);             /* I, rand, zeros */
            add(l, 0, rot % 2 ? 'U' : 'L', cross[i], cross[j], pd[0], pd[1], ab->alpha,
                ab->beta, dm, rot % 2, 0);
            add(l, (rot / 2) % 2 ? 'T' : 'N', (rot / 4) % 2 ? 'U' : 'L', cross[i], cross[j],
                pd[0], 0, ab->alpha, ab->beta, (dm + 1) % 3, (rot + 1) % 2, 0);
        }
    /* 3. shapes: m << n and m >> n, every variant */
    for (int i = 0; i < nshapes; i++)
        add_all_variants(l, shapes[i].m, shapes[i].n, i % 2, 3 * (i % 3), -1, 0.5, D_RAND,
                         i % 2, 0);
    /* 4. alpha / beta combinations (beta = 0 over NaN, alpha = 0: C := beta C,
     * also with A and d NaN, which alpha = 0 must not read) */
    for (int s = 0; s < (quick ? 1 : LEN(ab_shapes)); s++)
        for (int i = 0; i < LEN(ab_list); i++) {
            add_all_variants(l, ab_shapes[s].m, ab_shapes[s].n, 2, 1, ab_list[i].alpha,
                             ab_list[i].beta, D_RAND, i % 2, 0);
            if (ab_list[i].alpha == 0)
                add_all_variants(l, ab_shapes[s].m, ab_shapes[s].n, 0, 0, 0, ab_list[i].beta,
                                 D_RAND, 1, 1);
        }
    /* 5. D: identity (NULL), random, with zeros, extreme scaling */
    for (int s = 0; s < (quick ? 1 : LEN(d_shapes)); s++)
        for (int dm = 0; dm < D_COUNT; dm++)
            add_all_variants(l, d_shapes[s].m, d_shapes[s].n, 1, 2, dm == D_EXTREME ? 1 : -1,
                             dm == D_EXTREME ? 0 : 1, dm, 0, 0);
    /* 6. n = 0 with m > 0: C := beta C (beta = 1: untouched; 0: zeroed NaN) */
    {
        static const double betas[] = { 0, 1, -0.5 };
        for (int i = 0; i < LEN(betas); i++)
            add_all_variants(l, 129, 0, 0, 3, 1, betas[i], D_RAND, i % 2, 0);
    }
    /* 7. full storage on each path, whatever the tuned choice at that m:
     * the kernel, and the cuBLAS composition in several column chunks (a
     * small scratch: chunks of 1024 columns, the last one partial), with
     * D = I (plain syrk), padding, beta = 0 over NaN and both triangles */
    {
        static const shape_t path_shapes[] = { { 300, 2500 }, { 2049, 1100 }, { 129, 3000 },
                                               { 1000, 1 } };
        const int nps = quick ? 2 : LEN(path_shapes);
        for (int i = 0; i < nps; i++)
            for (int path = 1; path <= 2; path++)
                for (int u = 0; u < 2; u++, rot++) {
                    const ab_t *ab = &ab_list[rot % 5];
                    const int64_t from = l->count;
                    add(l, 0, u ? 'U' : 'L', path_shapes[i].m, path_shapes[i].n, rot % 3,
                        (rot % 2) * 7, ab->alpha, ab->beta, rot % 4 == 0 ? D_NONE : D_RAND,
                        rot % 2, 0);
                    l->v[from].path = path;
                    l->v[from].scratch = (size_t)path_shapes[i].m * 1024 * ES;
                }
    }
    /* 8. the host forms (A streamed in blocks of columns): every variant,
     * many blocks (a small largest block, test_hooks.h) and one, A pinned (every
     * fourth case), beta = 0 over NaN, alpha = 0 over NaN A, n = 0, D = I,
     * padded lda / ldc */
#define HOST(chunk_bytes, ...)                                                  \
    do {                                                                        \
        const int64_t from_ = l->count;                                         \
        __VA_ARGS__;                                                            \
        for (int64_t i_ = from_; i_ < l->count; i_++) {                         \
            l->v[i_].host = i_ % 4 == 3 ? 2 : 1;                                \
            l->v[i_].chunk = (chunk_bytes);                                     \
        }                                                                       \
    } while (0)
    HOST(65536, add_all_variants(l, 300, 5000, 3, 5, -1, 0.5, D_RAND, 0, 0)); /* up to 27 columns */
    HOST(8, add_all_variants(l, 129, 7, 0, 2, 1, 1, D_RAND, 1, 0));           /* 1 column */
    HOST(0, add_all_variants(l, 64, 2000, 1, 0, 0.7, -2, D_NONE, 0, 0));      /* one block */
    /* the quick suite (the sanitizers) streams about as many blocks, of a
     * tenth of the columns */
    const int64_t wide = quick ? 2000 : 20000;
    HOST(quick ? 1 << 17 : 1 << 20,                                           /* 16 / 131 columns */
         add(l, 0, 'L', 1000, wide, 0, 0, 1, 0, D_RAND, 0, 0));
    HOST(0, add(l, 'T', 'U', 1000, wide, 0, 0, 1, 0.5, D_ZEROS, 1, 0));      /* one block */
    HOST(65536, add(l, 0, 'U', 257, 3000, 17, 64, 1.5, 0, D_RAND, 1, 0));     /* beta = 0, NaN C */
    HOST(65536, add(l, 'N', 'L', 257, 3000, 0, 0, 0, 2.5, D_RAND, 1, 1));     /* alpha = 0, NaN A */
    HOST(0, add(l, 0, 'L', 200, 0, 2, 3, 1, -0.5, D_RAND, 0, 0));             /* n = 0 */
    HOST(100000, add(l, 'T', 'L', 200, 4097, 0, 0, 1, 1, D_EXTREME, 0, 0));
    if (!quick) /* 2049 x 40000 in blocks of 128 .. 1023 columns */
        HOST(1 << 24, add_all_variants(l, 2049, 40000, 1, 1, 1, 1, D_RAND, 0, 0));
    /* C back in four parts beside the last block's product (full storage;
     * from m = 8192 by default, here from any m): parts of 256-column
     * blocks, some of them empty at m = 300; beta = 0 over NaN C */
#define PARTS(...)                                                              \
    do {                                                                        \
        const int64_t from_ = l->count;                                         \
        __VA_ARGS__;                                                            \
        for (int64_t i_ = from_; i_ < l->count; i_++) l->v[i_].parts_from = 1;  \
    } while (0)
    const int64_t deep = quick ? 300 : 3000; /* C's parts follow m */
    PARTS(HOST(65536, add_all_variants(l, 1000, deep, 3, 5, -1, 0.5, D_RAND, 0, 0)));
    PARTS(HOST(0, add(l, 0, 'U', 1100, 700, 17, 64, 1.5, 0, D_RAND, 1, 0)));
    PARTS(HOST(65536, add(l, 0, 'L', 1100, deep, 0, 0, 1, 0, D_RAND, 1, 0)));
    PARTS(HOST(0, add(l, 0, 'L', 300, 500, 1, 2, 1, 0, D_NONE, 1, 0)));
    PARTS(HOST(0, add(l, 0, 'U', 300, 500, 1, 2, -1, 1, D_RAND, 0, 0)));
#undef PARTS
#undef HOST
    /* 7. leading dimensions well above m */
    if (!quick) {
        static const int64_t bigpads[][2] = { { 1, 1 }, { 7, 64 }, { 128, 3 } };
        for (int i = 0; i < LEN(bigpads); i++)
            for (int u = 0; u < 2; u++)
                add(l, 0, u ? 'U' : 'L', 257, 129, bigpads[i][0], bigpads[i][1], 1, 1,
                    D_RAND, u, 0);
    }
}

#include "syrk_diag_badargs.h"

#include "syrk_diag_table.h"

/* ---------------------------------------------------------------------------
 * Command line.
 * ------------------------------------------------------------------------- */
int main(int argc, char **argv)
{
    static const int d_values[] = { D_NONE, D_RAND };
    table_opts_t t;
    testing_list_t ms = { NULL, 0 }, ns = { NULL, 0 };
    char rfp = 0;
    int suite = 0, quick = 0;
    const char *part = NULL;
    memset(&t, 0, sizeof(t));
    t.base.transr = 'N';
    t.base.uplo = 'L';
    t.base.alpha = 1;
    t.base.beta = 0;
    t.base.dmode = D_RAND;
    t.niter = 3;
    const opt_t opts[] = {
        OPT("--suite", OPT_FLAG, &suite, NULL, "the test suite (make test)"),
        OPT("--quick", OPT_FLAG, &quick, NULL, "the suite with fewer cases (the sanitizers)"),
        OPT("--part", OPT_STRING, &part, "I/K", "with --suite: only cases I, I+K, ... (from 0)"),
        OPT("-m", OPT_LIST, &ms, "LIST", "table: m (default 512,1024,2048,4096)",
            .def = "512,1024,2048,4096"),
        OPT("-n", OPT_LIST, &ns, "LIST", "table: n (default 16384); the table is the m x n "
            "cross", .def = "16384"),
        OPT("--uplo", OPT_CHAR, &t.base.uplo, "L|U", "table: triangle (default L)",
            .choices = "LU"),
        OPT("--rfp", OPT_CHAR, &rfp, "N|T", "table: RFP storage with this transr (default: "
            "full storage)", .choices = "NT"),
        OPT("--d", OPT_CHOICE, &t.base.dmode, "I|rand", "table: D (default rand)",
            .choices = "I|rand", .values = d_values),
        OPT("--alpha", OPT_DOUBLE, &t.base.alpha, "X", "table: alpha (default 1)"),
        OPT("--beta", OPT_DOUBLE, &t.base.beta, "Y", "table: beta (default 0)"),
        OPT("--niter", OPT_INT, &t.niter, "K", "table: timed runs, median reported (default 3)",
            OPT_MIN(1)),
        OPT_END
    };
    const opts_program_t prog = { "[--suite [--quick] | table options]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    if (part && testing_parse_part(part) != 0)
        opts_fail(argv[0], opts, &prog, "--part: expected I/K with 0 <= I < K");
    if (rfp) {
        t.base.rfp = 1;
        t.base.transr = rfp;
    }
    t.ms = ms.v;
    t.nm = ms.count;
    t.ns = ns.v;
    t.nn = ns.count;
    g_queue = testing_queue_or_null();
    if (suite || quick)
        run_suite(quick);
    else
        run_table(&t);
    if (g_queue)
        gchol_queue_destroy(g_queue);
    if (testing_have_gpu()) gchol_finalize(); /* the host forms' default queue */
    free(t.ms);
    free(t.ns);
    return testing_summary();
}
