/*
 * testing_host.c -- host-side tests of gchol and of the testing helpers.
 *
 * Runs without a GPU (and with one): error strings, options, argument
 * checking of every public entry point (with NULL / poisoned pointers that
 * must never be dereferenced), n = 0 quick returns, queue creation, and the
 * helpers the GPU testers rely on (residual, SPD generator, poison checker,
 * size parser, reference info), kernels/rfp_index.h against LAPACKE_dtrttf,
 * and the host RFP Cholesky without a GPU. Ends with the SUMMARY line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <lapacke.h>

#include "gchol.h"
#include "testing_common.h"
#include "../kernels/gchol_kernels.h"
#include "../kernels/rfp_index.h"
#include "../src/internal.h" /* gchol_left_auto_from */

#define INFO_POISON ((int64_t)-987654321)
#define LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---------------------------------------------------------------------------
 * gchol_strerror.
 * ------------------------------------------------------------------------- */
static void test_strerror(void)
{
    static const int64_t lib[] = { GCHOL_SUCCESS, GCHOL_ERR_NO_DEVICE,
        GCHOL_ERR_DEVICE_ALLOC, GCHOL_ERR_HOST_ALLOC, GCHOL_ERR_CUDA,
        GCHOL_ERR_CUBLAS, GCHOL_ERR_INVALID_QUEUE, GCHOL_ERR_INVALID_VALUE };
    static const int64_t other[] = { -1, -7, 1, 12345, -99, -107, -100000 };
    int distinct = 1;
    printf("-- gchol_strerror --\n");
    for (int i = 0; i < LEN(lib); i++) {
        const char *s = gchol_strerror(lib[i]);
        testing_expect(s && *s, "strerror(%lld) = \"%s\"", (long long)lib[i], s ? s : "(null)");
        for (int j = 0; j < i && s; j++) {
            const char *t = gchol_strerror(lib[j]);
            distinct &= !(t && !strcmp(s, t));
        }
    }
    testing_expect(distinct, "library codes have distinct strings");
    for (int i = 0; i < LEN(other); i++) {
        const char *s = gchol_strerror(other[i]);
        testing_expect(s && *s, "strerror(%lld) = \"%s\"", (long long)other[i], s ? s : "(null)");
    }
}

/* ---------------------------------------------------------------------------
 * Options.
 * ------------------------------------------------------------------------- */

/* What auto resolves to for (precision, n), through resolve (the device
 * routines' or the host interface's): variant and block sizes, and
 * lookahead on for the blocked driver. */
typedef struct {
    char    prec;
    int64_t n;
    int     variant;
    int64_t nb, recnb;
} resolved_t;

static void expect_resolved(const char *name, void (*resolve)(gchol_options_t *, char, int64_t),
                            const resolved_t *want, int count)
{
    for (int i = 0; i < count; i++) {
        gchol_options_t o;
        gchol_options_default(&o);
        resolve(&o, want[i].prec, want[i].n);
        testing_expect(o.variant == want[i].variant && o.nb == want[i].nb &&
                           o.recnb == want[i].recnb &&
                           (o.variant == GCHOL_VARIANT_TILED || o.lookahead == GCHOL_LOOKAHEAD_ON),
                       "%s('%c', %lld): variant %d nb %lld recnb %lld lookahead %d (want %d, %lld, "
                       "%lld)",
                       name, want[i].prec, (long long)want[i].n, o.variant, (long long)o.nb,
                       (long long)o.recnb, o.lookahead, want[i].variant, (long long)want[i].nb,
                       (long long)want[i].recnb);
    }
}

static void test_options(void)
{
    static const int64_t ns[] = { 0, 1, 2, 31, 64, 100, 129, 1000, 4096, 10000, 46500 };
    static const char precs[] = { 'd', 's' };
    gchol_options_t o;
    gchol_trace_t dummy;
    printf("-- options --\n");
    memset(&o, 0x5A, sizeof(o));
    gchol_options_default(&o);
    testing_expect(o.variant == GCHOL_VARIANT_AUTO && o.nb == 0 && o.recnb == 0 &&
                   o.lookahead == GCHOL_LOOKAHEAD_AUTO && o.trace == NULL,
                   "options_default: variant %d nb %lld recnb %lld lookahead %d trace %p",
                   o.variant, (long long)o.nb, (long long)o.recnb, o.lookahead, (void *)o.trace);
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < LEN(ns); i++) {
            gchol_options_default(&o);
            gchol_options_resolve(&o, precs[p], ns[i]);
            testing_expect((o.variant == GCHOL_VARIANT_LEFT || o.variant == GCHOL_VARIANT_RIGHT ||
                            (o.variant == GCHOL_VARIANT_TILED && o.nb == 64 && ns[i] <= 16384)) &&
                           o.nb >= 1 && o.recnb >= 1 &&
                           (o.lookahead == GCHOL_LOOKAHEAD_ON || o.lookahead == GCHOL_LOOKAHEAD_OFF) &&
                           o.trace == NULL,
                           "resolve('%c', n=%lld): variant %d nb %lld recnb %lld lookahead %d",
                           precs[p], (long long)ns[i], o.variant, (long long)o.nb,
                           (long long)o.recnb, o.lookahead);
        }
    /* explicit choices are kept */
    gchol_options_default(&o);
    o.variant = GCHOL_VARIANT_LEFT;
    o.nb = 256;
    o.recnb = 32;
    o.lookahead = GCHOL_LOOKAHEAD_ON;
    o.trace = &dummy;
    gchol_options_resolve(&o, 'd', 5000);
    testing_expect(o.variant == GCHOL_VARIANT_LEFT && o.nb == 256 && o.recnb == 32 &&
                   o.lookahead == GCHOL_LOOKAHEAD_ON && o.trace == &dummy,
                   "resolve keeps explicit choices (left, nb 256, recnb 32, lookahead on)");
    /* the tiled kernel: kept up to its largest n, left-looking above */
    for (int p = 0; p < 2; p++) {
        gchol_options_default(&o);
        o.variant = GCHOL_VARIANT_TILED;
        gchol_options_resolve(&o, precs[p], 16384);
        testing_expect(o.variant == GCHOL_VARIANT_TILED && o.nb == 64 &&
                       o.lookahead == GCHOL_LOOKAHEAD_OFF,
                       "resolve('%c', tiled, n=16384) stays tiled (variant %d nb %lld)", precs[p],
                       o.variant, (long long)o.nb);
        gchol_options_default(&o);
        o.variant = GCHOL_VARIANT_TILED;
        gchol_options_resolve(&o, precs[p], 16385);
        testing_expect(o.variant == GCHOL_VARIANT_LEFT && o.nb >= 128,
                       "resolve('%c', tiled, n=16385) falls back to left-looking (variant %d nb %lld)",
                       precs[p], o.variant, (long long)o.nb);
    }
    /* auto: tiled below the switch (4864 in double, 8448 in single), then
     * left-looking with lookahead and the nb of the table */
    {
        static const resolved_t want[] = {
            { 'd', 4863, GCHOL_VARIANT_TILED, 64, 64 },    { 'd', 4864, GCHOL_VARIANT_LEFT, 1024, 1024 },
            { 'd', 10240, GCHOL_VARIANT_LEFT, 1024, 512 }, { 'd', 20480, GCHOL_VARIANT_LEFT, 1024, 256 },
            { 'd', 24575, GCHOL_VARIANT_LEFT, 1024, 256 }, { 'd', 24576, GCHOL_VARIANT_LEFT, 2048, 256 },
            { 'd', 27647, GCHOL_VARIANT_LEFT, 2048, 256 }, { 'd', 27648, GCHOL_VARIANT_LEFT, 1024, 256 },
            { 'd', 30719, GCHOL_VARIANT_LEFT, 1024, 256 }, { 'd', 30720, GCHOL_VARIANT_LEFT, 2048, 256 },
            { 'd', 40960, GCHOL_VARIANT_LEFT, 2048, 256 },
            { 's', 8447, GCHOL_VARIANT_TILED, 64, 64 },    { 's', 8448, GCHOL_VARIANT_LEFT, 1024, 1024 },
            { 's', 10239, GCHOL_VARIANT_LEFT, 1024, 1024 }, { 's', 10240, GCHOL_VARIANT_LEFT, 1536, 1024 },
            { 's', 20479, GCHOL_VARIANT_LEFT, 1536, 1024 }, { 's', 20480, GCHOL_VARIANT_LEFT, 2048, 512 },
        };
        expect_resolved("resolve", gchol_options_resolve, want, LEN(want));
    }
    /* the host interface's auto: left-looking from 6144 in single and 4608
     * in double (its transfers run beside that driver only); a variant
     * asked for is kept */
    {
        static const resolved_t want[] = {
            { 's', 6143, GCHOL_VARIANT_TILED, 64, 64 },    { 's', 6144, GCHOL_VARIANT_LEFT, 1024, 1024 },
            { 's', 8191, GCHOL_VARIANT_LEFT, 1024, 1024 }, { 's', 20480, GCHOL_VARIANT_LEFT, 2048, 512 },
            { 'd', 4607, GCHOL_VARIANT_TILED, 64, 64 },    { 'd', 4608, GCHOL_VARIANT_LEFT, 1024, 1024 },
            /* the device table's 2048 from 24576, not here: 1024 (options.c) */
            { 'd', 24576, GCHOL_VARIANT_LEFT, 1024, 256 }, { 'd', 40960, GCHOL_VARIANT_LEFT, 1024, 256 },
        };
        expect_resolved("resolve_host", gchol_options_resolve_host, want, LEN(want));
        gchol_options_default(&o);
        gchol_options_resolve(&o, 's', 6144);
        testing_expect(o.variant == GCHOL_VARIANT_TILED, "resolve('s', 6144): variant %d (want "
                       "tiled: the device switch is at 8448)", o.variant);
        /* pftrf's fused form from the same n */
        testing_expect(gchol_left_auto_from('s') == 6144 && gchol_left_auto_from('d') == 4608,
                       "left_auto_from: s %lld d %lld (want 6144, 4608)",
                       (long long)gchol_left_auto_from('s'), (long long)gchol_left_auto_from('d'));
        gchol_options_default(&o);
        o.variant = GCHOL_VARIANT_TILED;
        gchol_options_resolve_host(&o, 's', 7000);
        testing_expect(o.variant == GCHOL_VARIANT_TILED, "resolve_host('s', 7000, tiled asked): "
                       "variant %d (want tiled)", o.variant);
    }
    /* products: accurate by default; values outside the enum are argument 6 */
    {
        double a = 1.0;
        int64_t info = 0;
        gchol_options_default(&o);
        testing_expect(o.products == GCHOL_PRODUCTS_ACCURATE, "options_default: products %d (want "
                       "accurate)", o.products);
        for (int v = -1; v <= 2; v += 3) {
            o.products = v;
            int64_t r = gchol_dpotrf_expert_gpu('L', 1, &a, 1, &info, &o, NULL);
            testing_expect(r == -6 && info == -6, "potrf_expert_gpu with products %d: %lld (want -6)",
                           v, (long long)r);
        }
    }
    /* a variant past the last one is argument 6 */
    {
        double a = 1.0;
        int64_t info = 0;
        gchol_options_default(&o);
        o.variant = GCHOL_VARIANT_TILED + 1;
        int64_t r = gchol_dpotrf_expert_gpu('L', 1, &a, 1, &info, &o, NULL);
        testing_expect(r == -6 && info == -6, "potrf_expert_gpu with variant %d: %lld (want -6)",
                       o.variant, (long long)r);
    }
    /* how 'U' runs: auto by default, the swap from the table's n on (single
     * only), explicit choices kept, values outside the enum are argument 6 */
    {
        static const struct { char prec; int64_t n; int upper; } want[] = {
            { 'd', 1024, GCHOL_UPPER_VIEW }, { 'd', 40960, GCHOL_UPPER_VIEW },
            { 's', 8447, GCHOL_UPPER_VIEW }, { 's', 8448, GCHOL_UPPER_SWAP },
            { 's', 40960, GCHOL_UPPER_SWAP },
        };
        gchol_options_default(&o);
        testing_expect(o.upper == GCHOL_UPPER_AUTO, "options_default: upper %d (want auto)",
                       o.upper);
        for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
            gchol_options_default(&o);
            gchol_options_resolve(&o, want[i].prec, want[i].n);
            testing_expect(o.upper == want[i].upper, "resolve('%c', %lld): upper %d (want %d)",
                           want[i].prec, (long long)want[i].n, o.upper, want[i].upper);
        }
        /* auto swaps only where it was measured: left-looking with lookahead */
        static const int forced[] = { GCHOL_VARIANT_RIGHT, GCHOL_VARIANT_TILED };
        for (int i = 0; i < LEN(forced); i++) {
            gchol_options_default(&o);
            o.variant = forced[i];
            gchol_options_resolve(&o, 's', 8448);
            testing_expect(o.upper == GCHOL_UPPER_VIEW, "resolve('s', 8448, variant %d): upper %d "
                           "(want the view)", forced[i], o.upper);
        }
        gchol_options_default(&o);
        o.lookahead = GCHOL_LOOKAHEAD_OFF;
        gchol_options_resolve(&o, 's', 8448);
        testing_expect(o.upper == GCHOL_UPPER_VIEW, "resolve('s', 8448, lookahead off): upper %d "
                       "(want the view)", o.upper);
        for (int u = GCHOL_UPPER_VIEW; u <= GCHOL_UPPER_SWAP; u++) {
            gchol_options_default(&o);
            o.upper = u;
            gchol_options_resolve(&o, 's', u == GCHOL_UPPER_VIEW ? 40960 : 100);
            testing_expect(o.upper == u, "resolve keeps upper %d", u);
        }
        static const int bad[] = { GCHOL_UPPER_AUTO - 1, GCHOL_UPPER_SWAP + 1 };
        for (int i = 0; i < LEN(bad); i++) {
            double a = 1.0;
            int64_t info = 0;
            gchol_options_default(&o);
            o.upper = bad[i];
            int64_t r = gchol_dpotrf_expert_gpu('U', 1, &a, 1, &info, &o, NULL);
            testing_expect(r == -6 && info == -6 && a == 1.0,
                           "potrf_expert_gpu with upper %d: %lld (want -6)", o.upper, (long long)r);
        }
    }
}

/* ---------------------------------------------------------------------------
 * Argument checks of every entry point, through one signature.
 * ------------------------------------------------------------------------- */
typedef int64_t (*entry_t)(char, int64_t, void *, int64_t, int64_t *,
                           const gchol_options_t *, gchol_queue_t);

/* Wrappers giving the five forms of precision P one signature. */
#define WRAP(P, T)                                                                      \
static int64_t P##_gpu(char u, int64_t n, void *A, int64_t ld, int64_t *i,              \
                       const gchol_options_t *o, gchol_queue_t q)                       \
{ (void)o; return gchol_##P##potrf_gpu(u, n, (T *)A, ld, i, q); }                       \
static int64_t P##_expert_gpu(char u, int64_t n, void *A, int64_t ld, int64_t *i,       \
                              const gchol_options_t *o, gchol_queue_t q)                \
{ return gchol_##P##potrf_expert_gpu(u, n, (T *)A, ld, i, o, q); }                      \
static int64_t P##_async(char u, int64_t n, void *A, int64_t ld, int64_t *i,            \
                         const gchol_options_t *o, gchol_queue_t q)                     \
{ return gchol_##P##potrf_async(u, n, (T *)A, ld, i, o, q); }                           \
static int64_t P##_host(char u, int64_t n, void *A, int64_t ld, int64_t *i,             \
                        const gchol_options_t *o, gchol_queue_t q)                      \
{ (void)o; (void)q; return gchol_##P##potrf(u, n, (T *)A, ld, i); }                     \
static int64_t P##_expert(char u, int64_t n, void *A, int64_t ld, int64_t *i,           \
                          const gchol_options_t *o, gchol_queue_t q)                    \
{ return gchol_##P##potrf_expert(u, n, (T *)A, ld, i, o, q); }
WRAP(d, double)
WRAP(s, float)

typedef struct {
    const char *name;
    entry_t     fn;
    char        prec;
    int         nargs;     /* 5, 6 or 7                              */
    int         queue_arg; /* argument number of the queue, 0: none  */
    int         async;     /* info is a device word                  */
} entry_desc_t;

static const entry_desc_t entries[] = {
    { "gchol_dpotrf_gpu",        d_gpu,        'd', 6, 6, 0 },
    { "gchol_dpotrf_expert_gpu", d_expert_gpu, 'd', 7, 7, 0 },
    { "gchol_dpotrf_async",      d_async,      'd', 7, 7, 1 },
    { "gchol_dpotrf",            d_host,       'd', 5, 0, 0 },
    { "gchol_dpotrf_expert",     d_expert,     'd', 7, 7, 0 },
    { "gchol_spotrf_gpu",        s_gpu,        's', 6, 6, 0 },
    { "gchol_spotrf_expert_gpu", s_expert_gpu, 's', 7, 7, 0 },
    { "gchol_spotrf_async",      s_async,      's', 7, 7, 1 },
    { "gchol_spotrf",            s_host,       's', 5, 0, 0 },
    { "gchol_spotrf_expert",     s_expert,     's', 7, 7, 0 },
};

static gchol_queue_t g_queue;   /* real queue with a GPU, else a fake one */
static int64_t      *g_dinfo;   /* device info word (GPU only)            */

/* Calls e with argument argno illegal (0: a legal n = 0 call) on n = n0 and
 * a NaN-poisoned host buffer that must stay untouched. For ldda the illegal
 * value is max(1,n)-1. Checks the return value, *info and the buffers. */
static void check_entry_arg(const entry_desc_t *e, int argno, int64_t n0)
{
    double buf[64], saved[64]; /* big enough for 8 x 8 of either precision */
    int64_t hinfo = INFO_POISON, *pinfo = &hinfo, ret, expect = -argno, dinfo = INFO_POISON;
    int64_t n = argno == 2 ? -1 : n0;
    int64_t ld = argno == 4 ? (n > 1 ? n - 1 : 0) : (n > 1 ? n : 1);
    void *A = (argno == 3 || (argno == 0 && n0 == 0)) ? NULL : (void *)buf;
    gchol_queue_t q = argno != 0 && argno == e->queue_arg ? NULL : g_queue;
    gchol_options_t o;
    int ok = 1, gpu = testing_have_gpu();

    gchol_options_default(&o);
    testing_fill_nan('d', 64, buf);
    memcpy(saved, buf, sizeof(buf));
    if (e->async) {
        pinfo = gpu ? g_dinfo : &dinfo;
        if (gpu && TESTING_CUDA(cudaMemcpy(g_dinfo, &dinfo, sizeof(dinfo), cudaMemcpyHostToDevice)))
            ok = 0;
    }
    if (argno == 5)
        pinfo = NULL;
    ret = e->fn(argno == 1 ? 'X' : 'L', n, A, ld, pinfo, &o, q);
    if (e->async && gpu) {
        if (ret == 0 && TESTING_CUDA(cudaStreamSynchronize(gchol_queue_stream(g_queue))))
            ok = 0;
        if (TESTING_CUDA(cudaMemcpy(&dinfo, g_dinfo, sizeof(dinfo), cudaMemcpyDeviceToHost)))
            ok = 0;
    }
    /* Without a device, async cannot write its device info word for n = 0. */
    if (e->async && !gpu && argno == 0 && ret == GCHOL_ERR_NO_DEVICE)
        expect = ret;
    ok = ok && ret == expect && !memcmp(buf, saved, sizeof(buf));
    if (e->async) /* untouched after -i; 0 after n = 0 (when it can be read) */
        ok = ok && (argno ? dinfo == INFO_POISON : (!gpu || dinfo == 0));
    else if (pinfo)
        ok = ok && hinfo == expect;
    testing_expect(ok, "%-24s %-18s n=%-2lld ld=%lld: ret %lld (expected %lld), info %lld",
                   e->name, argno ? "illegal argument" : "n=0 quick return", (long long)n,
                   (long long)ld, (long long)ret, (long long)expect,
                   (long long)(e->async ? dinfo : hinfo));
}

static void test_arguments(void)
{
    printf("-- argument checks and n = 0 (%s) --\n",
           testing_have_gpu() ? "real queue" : "no GPU: fake queue, never to be used");
    for (int i = 0; i < LEN(entries); i++) {
        const entry_desc_t *e = &entries[i];
        for (int a = 1; a <= e->nargs; a++)
            if (a != 6 || e->queue_arg == 6) /* opts (arg 6) cannot be illegal */
                check_entry_arg(e, a, 8);
        check_entry_arg(e, 4, 0);           /* ldda = 0 < max(1, 0)          */
        check_entry_arg(e, 0, 0);           /* quick return                  */
    }
}

/* Without a GPU the host interface reports GCHOL_ERR_NO_DEVICE and leaves A
 * alone. */
static void test_host_no_device(void)
{
    double A[64], saved[64];
    float As[64], saveds[64];
    int64_t info = INFO_POISON, ret;
    if (testing_have_gpu())
        return;
    printf("-- host interface without a GPU --\n");
    testing_generate_spd('d', 'L', 8, A, 8, 1);
    testing_generate_spd('d', 'U', 8, A, 8, 1);
    testing_generate_spd('s', 'L', 8, As, 8, 1);
    testing_generate_spd('s', 'U', 8, As, 8, 1);
    memcpy(saved, A, sizeof(A));
    memcpy(saveds, As, sizeof(As));
    ret = gchol_dpotrf('L', 8, A, 8, &info);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && info == ret && !memcmp(A, saved, sizeof(A)),
                   "gchol_dpotrf without GPU: ret %lld info %lld", (long long)ret, (long long)info);
    info = INFO_POISON;
    ret = gchol_spotrf('U', 8, As, 8, &info);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && info == ret && !memcmp(As, saveds, sizeof(As)),
                   "gchol_spotrf without GPU: ret %lld info %lld", (long long)ret, (long long)info);
    /* the streamed A*D^2*A^T: C (here A itself) untouched */
    ret = gchol_dsyrk_diag('L', 8, 8, 1.0, saved, 8, NULL, 0.5, A, 8);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && !memcmp(A, saved, sizeof(A)),
                   "gchol_dsyrk_diag without GPU: ret %lld", (long long)ret);
    ret = gchol_ssfrk_diag('T', 'U', 8, 8, 1.0f, saveds, 8, saveds, 0.0f, As);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && !memcmp(As, saveds, sizeof(As)),
                   "gchol_ssfrk_diag without GPU: ret %lld", (long long)ret);
}

/* ---------------------------------------------------------------------------
 * A*D^2*A^T and RFP routines: argument checks, quick returns.
 *
 * Every entry point is called through one argument struct; an entry lists
 * the role of each of its arguments in order, so "argument i illegal" is
 * generic. With a GPU the buffers are device memory and the queue is real;
 * without one they are host memory and the queue a fake that must never be
 * used. Buffers are NaN-filled and must come back unchanged.
 * ------------------------------------------------------------------------- */
typedef struct {
    char          transr, uplo;
    int64_t       m, n, nrhs, ld, ldc;
    void         *A, *d, *C;
    void         *X;        /* dsposv's X (the d buffer) */
    int64_t       ldx;
    int64_t      *iter;
    int64_t      *info;
    const gchol_options_t *opts;
    gchol_queue_t q;
} rargs_t;

typedef enum {
    R_END = 0, R_TRANSR, R_UPLO, R_M, R_N, R_NRHS, R_ALPHA, R_A, R_LD, R_D, R_BETA, R_C,
    R_LDC, R_INFO, R_OPTS, R_QUEUE, R_X, R_LDX, R_ITER
} role_t;

#define RWRAP(P, T)                                                                       \
static int64_t P##syrk_w(const rargs_t *a)                                                \
{ return gchol_##P##syrk_diag_gpu(a->uplo, a->m, a->n, (T)1.5, (const T *)a->A, a->ld,    \
                                  (const T *)a->d, (T)0.5, (T *)a->C, a->ldc, a->q); }    \
static int64_t P##sfrk_w(const rargs_t *a)                                                \
{ return gchol_##P##sfrk_diag_gpu(a->transr, a->uplo, a->m, a->n, (T)1.5, (const T *)a->A,\
                                  a->ld, (const T *)a->d, (T)0.5, (T *)a->C, a->q); }     \
static int64_t P##syrk_host_w(const rargs_t *a)                                          \
{ return gchol_##P##syrk_diag(a->uplo, a->m, a->n, (T)1.5, (const T *)a->A, a->ld,        \
                              (const T *)a->d, (T)0.5, (T *)a->C, a->ldc); }              \
static int64_t P##sfrk_host_w(const rargs_t *a)                                          \
{ return gchol_##P##sfrk_diag(a->transr, a->uplo, a->m, a->n, (T)1.5, (const T *)a->A,    \
                              a->ld, (const T *)a->d, (T)0.5, (T *)a->C); }               \
static int64_t P##trttf_w(const rargs_t *a)                                               \
{ return gchol_##P##trttf_gpu(a->transr, a->uplo, a->n, (const T *)a->A, a->ld,           \
                              (T *)a->C, a->info, a->q); }                                \
static int64_t P##tfttr_w(const rargs_t *a)                                               \
{ return gchol_##P##tfttr_gpu(a->transr, a->uplo, a->n, (const T *)a->A, (T *)a->C,       \
                              a->ld, a->info, a->q); }                                    \
static int64_t P##pftrf_gpu_w(const rargs_t *a)                                           \
{ return gchol_##P##pftrf_gpu(a->transr, a->uplo, a->n, (T *)a->A, a->info, a->q); }      \
static int64_t P##pftrf_x_w(const rargs_t *a)                                             \
{ return gchol_##P##pftrf_expert_gpu(a->transr, a->uplo, a->n, (T *)a->A, a->info, a->opts,\
                                     a->q); }                                             \
static int64_t P##pftrs_w(const rargs_t *a)                                               \
{ return gchol_##P##pftrs_gpu(a->transr, a->uplo, a->n, a->nrhs, (const T *)a->A,         \
                              (T *)a->C, a->ld, a->info, a->q); }                         \
static int64_t P##pftrf_host_w(const rargs_t *a)                                          \
{ return gchol_##P##pftrf(a->transr, a->uplo, a->n, (T *)a->A, a->info); }               \
static int64_t P##pftrs_host_w(const rargs_t *a)                                          \
{ return gchol_##P##pftrs(a->transr, a->uplo, a->n, a->nrhs, (const T *)a->A, (T *)a->C,  \
                          a->ld, a->info); }                                              \
static int64_t P##potrs_w(const rargs_t *a)                                               \
{ return gchol_##P##potrs_gpu(a->uplo, a->n, a->nrhs, (const T *)a->A, a->ld, (T *)a->C,  \
                              a->ldc, a->info, a->q); }                                   \
static int64_t P##potrs_host_w(const rargs_t *a)                                          \
{ return gchol_##P##potrs(a->uplo, a->n, a->nrhs, (const T *)a->A, a->ld, (T *)a->C,      \
                          a->ldc, a->info); }                                             \
static int64_t P##posv_host_w(const rargs_t *a)                                           \
{ return gchol_##P##posv(a->uplo, a->n, a->nrhs, (T *)a->A, a->ld, (T *)a->C, a->ldc,     \
                         a->info); }
RWRAP(d, double)
RWRAP(s, float)
static int64_t dsposv_w(const rargs_t *a)
{ return gchol_dsposv_gpu(a->uplo, a->n, a->nrhs, (double *)a->A, a->ld, (const double *)a->C,
                          a->ldc, (double *)a->X, a->ldx, a->iter, a->info, a->q); }
static int64_t dsposv_x_w(const rargs_t *a)
{ return gchol_dsposv_expert_gpu(a->uplo, a->n, a->nrhs, (double *)a->A, a->ld,
                                 (const double *)a->C, a->ldc, (double *)a->X, a->ldx, a->iter,
                                 a->info, a->opts, a->q); }
static int64_t dsposv_host_w(const rargs_t *a)
{ return gchol_dsposv(a->uplo, a->n, a->nrhs, (double *)a->A, a->ld, (const double *)a->C,
                      a->ldc, (double *)a->X, a->ldx, a->iter, a->info); }

typedef struct {
    const char *name;
    int64_t   (*fn)(const rargs_t *);
    int         host_mem;  /* 1: the arrays are host memory (gchol_?pftrf, ?pftrs) */
    int         rfp_order; /* 1: n is the order (RFP routines); 0: m    */
    role_t      roles[14]; /* argument i is roles[i-1]; R_END ends      */
} rentry_t;

#define SYRK_ROLES  { R_UPLO, R_M, R_N, R_ALPHA, R_A, R_LD, R_D, R_BETA, R_C, R_LDC, R_QUEUE }
#define SFRK_ROLES  { R_TRANSR, R_UPLO, R_M, R_N, R_ALPHA, R_A, R_LD, R_D, R_BETA, R_C, R_QUEUE }
#define SYRKH_ROLES { R_UPLO, R_M, R_N, R_ALPHA, R_A, R_LD, R_D, R_BETA, R_C, R_LDC }
#define SFRKH_ROLES { R_TRANSR, R_UPLO, R_M, R_N, R_ALPHA, R_A, R_LD, R_D, R_BETA, R_C }
#define TRTTF_ROLES { R_TRANSR, R_UPLO, R_N, R_A, R_LD, R_C, R_INFO, R_QUEUE }
#define TFTTR_ROLES { R_TRANSR, R_UPLO, R_N, R_A, R_C, R_LD, R_INFO, R_QUEUE }
#define PFTRF_ROLES { R_TRANSR, R_UPLO, R_N, R_A, R_INFO, R_QUEUE }
#define PFTRFX_ROLES { R_TRANSR, R_UPLO, R_N, R_A, R_INFO, R_OPTS, R_QUEUE }
#define PFTRS_ROLES { R_TRANSR, R_UPLO, R_N, R_NRHS, R_A, R_C, R_LD, R_INFO, R_QUEUE }
#define HOSTF_ROLES { R_TRANSR, R_UPLO, R_N, R_A, R_INFO }
#define HOSTS_ROLES { R_TRANSR, R_UPLO, R_N, R_NRHS, R_A, R_C, R_LD, R_INFO }
#define POTRS_ROLES { R_UPLO, R_N, R_NRHS, R_A, R_LD, R_C, R_LDC, R_INFO, R_QUEUE }
#define POTRSH_ROLES { R_UPLO, R_N, R_NRHS, R_A, R_LD, R_C, R_LDC, R_INFO }
#define SPOSV_ROLES { R_UPLO, R_N, R_NRHS, R_A, R_LD, R_C, R_LDC, R_X, R_LDX, R_ITER, R_INFO, R_QUEUE }
#define SPOSVX_ROLES { R_UPLO, R_N, R_NRHS, R_A, R_LD, R_C, R_LDC, R_X, R_LDX, R_ITER, R_INFO, R_OPTS, R_QUEUE }
#define SPOSVH_ROLES { R_UPLO, R_N, R_NRHS, R_A, R_LD, R_C, R_LDC, R_X, R_LDX, R_ITER, R_INFO }

static const rentry_t rentries[] = {
    { "gchol_dsyrk_diag_gpu", dsyrk_w,      0, 0, SYRK_ROLES },
    { "gchol_dsfrk_diag_gpu", dsfrk_w,      0, 0, SFRK_ROLES },
    { "gchol_dsyrk_diag",    dsyrk_host_w, 1, 0, SYRKH_ROLES },
    { "gchol_dsfrk_diag",    dsfrk_host_w, 1, 0, SFRKH_ROLES },
    { "gchol_dtrttf_gpu",     dtrttf_w,     0, 1, TRTTF_ROLES },
    { "gchol_dtfttr_gpu",     dtfttr_w,     0, 1, TFTTR_ROLES },
    { "gchol_dpftrf_gpu",     dpftrf_gpu_w, 0, 1, PFTRF_ROLES },
    { "gchol_dpftrf_expert_gpu", dpftrf_x_w, 0, 1, PFTRFX_ROLES },
    { "gchol_dpftrs_gpu",     dpftrs_w,     0, 1, PFTRS_ROLES },
    { "gchol_dpftrf",         dpftrf_host_w, 1, 1, HOSTF_ROLES },
    { "gchol_dpftrs",         dpftrs_host_w, 1, 1, HOSTS_ROLES },
    { "gchol_ssyrk_diag_gpu", ssyrk_w,      0, 0, SYRK_ROLES },
    { "gchol_ssfrk_diag_gpu", ssfrk_w,      0, 0, SFRK_ROLES },
    { "gchol_ssyrk_diag",    ssyrk_host_w, 1, 0, SYRKH_ROLES },
    { "gchol_ssfrk_diag",    ssfrk_host_w, 1, 0, SFRKH_ROLES },
    { "gchol_strttf_gpu",     strttf_w,     0, 1, TRTTF_ROLES },
    { "gchol_stfttr_gpu",     stfttr_w,     0, 1, TFTTR_ROLES },
    { "gchol_spftrf_gpu",     spftrf_gpu_w, 0, 1, PFTRF_ROLES },
    { "gchol_spftrf_expert_gpu", spftrf_x_w, 0, 1, PFTRFX_ROLES },
    { "gchol_spftrs_gpu",     spftrs_w,     0, 1, PFTRS_ROLES },
    { "gchol_spftrf",         spftrf_host_w, 1, 1, HOSTF_ROLES },
    { "gchol_spftrs",         spftrs_host_w, 1, 1, HOSTS_ROLES },
    { "gchol_dpotrs_gpu",     dpotrs_w,     0, 1, POTRS_ROLES },
    { "gchol_dpotrs",         dpotrs_host_w, 1, 1, POTRSH_ROLES },
    { "gchol_spotrs_gpu",     spotrs_w,     0, 1, POTRS_ROLES },
    { "gchol_spotrs",         spotrs_host_w, 1, 1, POTRSH_ROLES },
    { "gchol_dposv",          dposv_host_w, 1, 1, POTRSH_ROLES },
    { "gchol_sposv",          sposv_host_w, 1, 1, POTRSH_ROLES },
    { "gchol_dsposv_gpu",     dsposv_w,     0, 1, SPOSV_ROLES },
    { "gchol_dsposv_expert_gpu", dsposv_x_w, 0, 1, SPOSVX_ROLES },
    { "gchol_dsposv",         dsposv_host_w, 1, 1, SPOSVH_ROLES },
};

enum { RBUF = 64 }; /* doubles per buffer: 8 x 8, or an RFP array of order 8 */

static int rentry_nargs(const rentry_t *e)
{
    int k = 0;
    while (k < 14 && e->roles[k] != R_END)
        k++;
    return k;
}

/* Argument number of a role in an entry, 0 if it has none. */
static int rentry_argno(const rentry_t *e, role_t role)
{
    for (int k = 0; k < rentry_nargs(e); k++)
        if (e->roles[k] == role)
            return k + 1;
    return 0;
}

/* Roles an illegal value exists for (alpha, beta, d: any value is legal). */
static int role_can_be_illegal(role_t r)
{
    return r != R_ALPHA && r != R_BETA && r != R_D;
}

/* Makes one role illegal in *a. */
static void make_illegal(rargs_t *a, role_t r, int rfp_order)
{
    int64_t order = rfp_order ? a->n : a->m;
    switch (r) {
    case R_TRANSR: a->transr = 'X'; break;
    case R_UPLO:   a->uplo = 'X'; break;
    case R_M:      a->m = -1; break;
    case R_N:      a->n = -1; break;
    case R_NRHS:   a->nrhs = -1; break;
    case R_A:      a->A = NULL; break;
    case R_LD:     a->ld = order > 1 ? order - 1 : 0; break;
    case R_C:      a->C = NULL; break;
    case R_LDC:    a->ldc = order > 1 ? order - 1 : 0; break;
    case R_INFO:   a->info = NULL; break;
    case R_X:      a->X = NULL; break;
    case R_LDX:    a->ldx = order > 1 ? order - 1 : 0; break;
    case R_ITER:   a->iter = NULL; break;
    case R_OPTS: {
        static gchol_options_t bad;
        gchol_options_default(&bad);
        bad.variant = 99;
        a->opts = &bad;
        break;
    }
    case R_QUEUE:  a->q = NULL; break;
    default: break;
    }
}

/* The three buffers: device memory with a GPU (host memory for host_mem
 * entries), else host memory. */
typedef struct {
    double  h[3][RBUF], saved[3][RBUF];
    void   *p[3];
    int     dev;
} rbufs_t;

static int rbufs_setup(rbufs_t *b, int host_mem)
{
    int gpu = testing_have_gpu();
    b->dev = gpu && !host_mem;
    for (int i = 0; i < 3; i++) {
        testing_fill_nan('d', RBUF, b->h[i]);
        memcpy(b->saved[i], b->h[i], sizeof(b->h[i]));
        b->p[i] = b->h[i];
        if (b->dev) {
            b->p[i] = NULL;
            if (TESTING_CUDA(cudaMalloc(&b->p[i], sizeof(b->h[i]))) ||
                TESTING_CUDA(cudaMemcpy(b->p[i], b->h[i], sizeof(b->h[i]), cudaMemcpyHostToDevice)))
                return -1;
        }
    }
    return 0;
}

static int rbufs_check_free(rbufs_t *b);

/* rbufs_setup, recording a failure (and cleaning up) when it fails. */
static int rbufs_ready(rbufs_t *b, int host_mem)
{
    if (rbufs_setup(b, host_mem) == 0)
        return 1;
    rbufs_check_free(b);
    testing_record(TESTING_FAILED);
    return 0;
}

/* 1 if every buffer is unchanged; frees the device buffers. */
static int rbufs_check_free(rbufs_t *b)
{
    int ok = 1;
    for (int i = 0; i < 3; i++) {
        if (b->dev) {
            if (!b->p[i] || TESTING_CUDA(cudaMemcpy(b->h[i], b->p[i], sizeof(b->h[i]),
                                                    cudaMemcpyDeviceToHost)))
                ok = 0;
            cudaFree(b->p[i]);
            b->p[i] = NULL;
        }
        ok = ok && !memcmp(b->h[i], b->saved[i], sizeof(b->h[i]));
    }
    return ok;
}

/* Legal base arguments: m = n = 8, nrhs = 3, leading dimensions 8. */
static rargs_t rargs_base(rbufs_t *b, int64_t *info)
{
    rargs_t a;
    a.transr = 'N';
    a.uplo = 'L';
    a.m = a.n = 8;
    a.nrhs = 3;
    a.ld = a.ldc = 8;
    a.A = b->p[0];
    a.d = b->p[1];
    a.C = b->p[2];
    a.X = b->p[1];
    a.ldx = 8;
    {
        static int64_t iter;
        a.iter = &iter;
    }
    a.info = info;
    a.opts = NULL;
    a.q = g_queue;
    return a;
}

/* Calls e with arguments a; expects return `expect`, the same in *info when
 * e has an info argument that is not NULL, and the buffers untouched. */
static void rcall_expect(const rentry_t *e, rargs_t a, rbufs_t *b, int64_t expect,
                         const char *what)
{
    int64_t ret, *info = a.info;
    int has_info = rentry_argno(e, R_INFO) != 0, ok = 1;
    if (info)
        *info = INFO_POISON;
    ret = e->fn(&a);
    if (b->dev && testing_have_gpu() && g_queue && gchol_queue_sync(g_queue) != 0)
        ok = 0;
    ok = ok && rbufs_check_free(b) && ret == expect;
    if (has_info && info)
        ok = ok && *info == expect;
    {
        char itext[40] = "";
        if (has_info && info)
            snprintf(itext, sizeof(itext), ", info %lld", (long long)*info);
        testing_expect(ok, "%-22s %-34s ret %lld (expected %lld)%s", e->name, what,
                       (long long)ret, (long long)expect, itext);
    }
}

static void test_rfp_arguments(void)
{
    printf("-- syrk_diag / sfrk_diag / RFP routines: argument checks, quick returns (%s) --\n",
           testing_have_gpu() ? "device buffers, real queue"
                              : "no GPU: host buffers, fake queue, never to be used");
    for (int i = 0; i < LEN(rentries); i++) {
        const rentry_t *e = &rentries[i];
        int nargs = rentry_nargs(e), ldarg = rentry_argno(e, R_LD), ldcarg = rentry_argno(e, R_LDC);
        int64_t info;
        rbufs_t b;
        char what[64];

        /* each illegal argument on its own */
        for (int k = 1; k <= nargs; k++) {
            rargs_t a;
            if (!role_can_be_illegal(e->roles[k - 1]) || !rbufs_ready(&b, e->host_mem))
                continue;
            a = rargs_base(&b, &info);
            make_illegal(&a, e->roles[k - 1], e->rfp_order);
            snprintf(what, sizeof(what), "argument %d illegal", k);
            rcall_expect(e, a, &b, -k, what);
        }
        /* all of them at once: the first one is reported */
        if (rbufs_ready(&b, e->host_mem)) {
            rargs_t a = rargs_base(&b, &info);
            for (int k = 1; k <= nargs; k++)
                if (role_can_be_illegal(e->roles[k - 1]) && e->roles[k - 1] != R_INFO)
                    make_illegal(&a, e->roles[k - 1], e->rfp_order);
            rcall_expect(e, a, &b, -1, "all arguments illegal");
        }
        /* leading dimension 0 with order 0 (max(1, 0) = 1) */
        for (int which = 0; which < 2; which++) {
            int argno = which ? ldcarg : ldarg;
            rargs_t a;
            if (!argno || !rbufs_ready(&b, e->host_mem))
                continue;
            a = rargs_base(&b, &info);
            if (e->rfp_order)
                a.n = 0;
            else
                a.m = 0;
            a.ld = which ? 1 : 0;
            a.ldc = which ? 0 : 1;
            snprintf(what, sizeof(what), "order 0, argument %d = 0", argno);
            rcall_expect(e, a, &b, -argno, what);
        }
        /* quick returns: order 0 (lower-case uplo is legal), nrhs = 0 */
        if (rbufs_ready(&b, e->host_mem)) {
            rargs_t a = rargs_base(&b, &info);
            a.transr = 'T';
            a.uplo = 'u';
            if (e->rfp_order)
                a.n = 0;
            else
                a.m = 0;
            a.ld = a.ldc = 1;
            rcall_expect(e, a, &b, 0, e->rfp_order ? "n = 0, uplo 'u': quick return"
                                                   : "m = 0, uplo 'u': quick return");
        }
        /* (posv factors A also when nrhs = 0, as LAPACK's does: no quick return) */
        if (rentry_argno(e, R_NRHS) && rbufs_ready(&b, e->host_mem) &&
            strcmp(e->name, "gchol_dposv") != 0 && strcmp(e->name, "gchol_sposv") != 0) {
            rargs_t a = rargs_base(&b, &info);
            a.nrhs = 0;
            rcall_expect(e, a, &b, 0, "nrhs = 0: quick return");
        }
    }
}

/* Without a GPU the host RFP Cholesky reports GCHOL_ERR_NO_DEVICE and leaves
 * the array (and what lies around it) alone. */
static void test_pftrf_host_no_device(void)
{
    enum { N = 8, NT = N * (N + 1) / 2, G = 8 };
    double A[N * N], R[NT + 2 * G], saved[NT + 2 * G];
    float As[N * N], Rs[NT + 2 * G], saveds[NT + 2 * G];
    int64_t info = INFO_POISON, ret;
    if (testing_have_gpu())
        return; /* with a GPU it would factor: testing_?pftrf covers that */
    printf("-- host RFP Cholesky without a GPU --\n");
    testing_generate_spd('d', 'L', N, A, N, 9);
    testing_generate_spd('s', 'U', N, As, N, 9);
    testing_fill_nan('d', NT + 2 * G, R);
    testing_fill_nan('s', NT + 2 * G, Rs);
    LAPACKE_set_nancheck(0);
    LAPACKE_dtrttf(LAPACK_COL_MAJOR, 'N', 'L', N, A, N, R + G);
    LAPACKE_strttf(LAPACK_COL_MAJOR, 'T', 'U', N, As, N, Rs + G);
    memcpy(saved, R, sizeof(R));
    memcpy(saveds, Rs, sizeof(Rs));
    ret = gchol_dpftrf('N', 'L', N, R + G, &info);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && info == ret && !memcmp(R, saved, sizeof(R)),
                   "gchol_dpftrf without GPU: ret %lld info %lld, array untouched",
                   (long long)ret, (long long)info);
    info = INFO_POISON;
    ret = gchol_spftrf('T', 'U', N, Rs + G, &info);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && info == ret && !memcmp(Rs, saveds, sizeof(Rs)),
                   "gchol_spftrf without GPU: ret %lld info %lld, array untouched",
                   (long long)ret, (long long)info);
    {   /* the host solve: factor and right-hand sides untouched */
        double B[2 * N], savedB[2 * N];
        testing_fill_nan('d', 2 * N, B);
        for (int i = 0; i < N; i++)
            B[i] = 1.0 + i;
        memcpy(savedB, B, sizeof(B));
        info = INFO_POISON;
        ret = gchol_dpftrs('N', 'L', N, 1, R + G, B, 2 * N, &info);
        testing_expect(ret == GCHOL_ERR_NO_DEVICE && info == ret && !memcmp(B, savedB, sizeof(B)) &&
                           !memcmp(R, saved, sizeof(R)),
                       "gchol_dpftrs without GPU: ret %lld info %lld, arrays untouched",
                       (long long)ret, (long long)info);
    }
}

/* Without a GPU the host solves (potrs, posv, dsposv) report GCHOL_ERR_NO_DEVICE
 * and leave every array alone. */
static void test_solve_host_no_device(void)
{
    enum { N = 8, LD = 10 };
    double A[LD * N], B[LD * 2], X[LD * 2], sA[LD * N], sB[LD * 2], sX[LD * 2];
    float Af[LD * N], Bf[LD * 2], sAf[LD * N], sBf[LD * 2];
    int64_t info = INFO_POISON, iter = INFO_POISON, ret;
    if (testing_have_gpu())
        return; /* with a GPU they would solve: testing_dsposv covers that */
    printf("-- host solves without a GPU --\n");
    testing_fill_nan('d', LD * N, A);
    testing_generate_spd('d', 'L', N, A, LD, 3);
    testing_fill_nan('s', LD * N, Af);
    testing_generate_spd('s', 'U', N, Af, LD, 3);
    testing_fill_nan('d', LD * 2, B);
    testing_fill_nan('s', LD * 2, Bf);
    testing_fill_nan('d', LD * 2, X);
    for (int i = 0; i < N; i++) B[i] = Bf[i] = 1.0f + (float)i;
    memcpy(sA, A, sizeof(A)); memcpy(sB, B, sizeof(B)); memcpy(sX, X, sizeof(X));
    memcpy(sAf, Af, sizeof(Af)); memcpy(sBf, Bf, sizeof(Bf));
    /* potrs and posv, each precision: GCHOL_ERR_NO_DEVICE, A and B as they were */
    for (int k = 0; k < 4; k++) {
        const int single = k % 2, posv = k / 2;
        info = INFO_POISON;
        ret = single ? (posv ? gchol_sposv('U', N, 2, Af, LD, Bf, LD, &info)
                             : gchol_spotrs('U', N, 2, Af, LD, Bf, LD, &info))
                     : (posv ? gchol_dposv('L', N, 2, A, LD, B, LD, &info)
                             : gchol_dpotrs('L', N, 2, A, LD, B, LD, &info));
        const int kept = single ? !memcmp(Af, sAf, sizeof(Af)) && !memcmp(Bf, sBf, sizeof(Bf))
                                : !memcmp(A, sA, sizeof(A)) && !memcmp(B, sB, sizeof(B));
        testing_expect(ret == GCHOL_ERR_NO_DEVICE && info == ret && kept,
                       "gchol_%c%s without GPU: ret %lld info %lld, arrays untouched",
                       single ? 's' : 'd', posv ? "posv" : "potrs", (long long)ret,
                       (long long)info);
    }
    info = INFO_POISON;
    ret = gchol_dsposv('L', N, 2, A, LD, B, LD, X, LD, &iter, &info);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && info == ret && iter == 0 &&
                       !memcmp(A, sA, sizeof(A)) && !memcmp(B, sB, sizeof(B)) &&
                       !memcmp(X, sX, sizeof(X)),
                   "gchol_dsposv without GPU: ret %lld info %lld iter %lld, arrays untouched",
                   (long long)ret, (long long)info, (long long)iter);
}

/* ---------------------------------------------------------------------------
 * kernels/rfp_index.h against LAPACKE_dtrttf: n = 1..40 in each (transr,
 * uplo) and parity of n, i.e. LAPACK's eight RFP cases.
 * ------------------------------------------------------------------------- */

/* A distinct value for each symmetric element (i, j). */
static double rfp_value(int64_t i, int64_t j)
{
    int64_t hi = i > j ? i : j, lo = i > j ? j : i;
    return 1.0 + (double)(hi * 64 + lo);
}

/* 1 if arf[off] exists and holds the value of (i, j). */
static int rfp_at(const double *arf, int64_t nt, int64_t off, int64_t i, int64_t j)
{
    return off >= 0 && off < nt && arf[off] == rfp_value(i, j);
}

/* Offset of element (r, c) of a block stored as is (t = 0) or transposed. */
static int64_t blk(int64_t off, int t, int64_t ld, int64_t r, int64_t c)
{
    return off + (t ? c + r * ld : r + c * ld);
}

static void test_rfp_index(void)
{
    enum { NMAX = 40 };
    static double A[NMAX * NMAX], arf[NMAX * (NMAX + 1) / 2];
    printf("-- rfp_index.h against LAPACKE_dtrttf (n = 1..%d) --\n", NMAX);
    for (int t = 0; t < 2; t++)
        for (int u = 0; u < 2; u++)
            for (int parity = 1; parity >= 0; parity--) {
                char transr = t ? 'T' : 'N', uplo = u ? 'U' : 'L';
                int ok_off = 1, ok_blk = 1;
                char first[160] = "";
                for (int64_t n = parity ? 1 : 2; n <= NMAX; n += 2) {
                    int64_t nt = n * (n + 1) / 2;
                    gchol_rfp_blocks_t b = gchol_rfp_blocks(t, u, n);
                    for (int64_t j = 0; j < n; j++)
                        for (int64_t i = 0; i < n; i++)
                            A[i + j * n] = rfp_value(i, j);
                    for (int64_t p = 0; p < nt; p++)
                        arf[p] = -1;
                    LAPACKE_dtrttf(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, A,
                                   (lapack_int)n, arf);
                    /* every element's offset */
                    for (int64_t j = 0; j < n; j++)
                        for (int64_t i = j; i < n; i++)
                            if (!rfp_at(arf, nt, gchol_rfp_offset(t, u, n, i, j), i, j)) {
                                if (ok_off)
                                    snprintf(first, sizeof(first), "offset n=%lld (%lld,%lld)",
                                             (long long)n, (long long)i, (long long)j);
                                ok_off = 0;
                            }
                    /* the block descriptor: split, then L11, L21, L22 */
                    if (b.n1 + b.n2 != n || b.n1 != (u ? n / 2 : (n + 1) / 2)) {
                        if (ok_blk)
                            snprintf(first, sizeof(first), "split n=%lld n1=%lld n2=%lld",
                                     (long long)n, (long long)b.n1, (long long)b.n2);
                        ok_blk = 0;
                    }
                    for (int64_t c = 0; c < b.n1; c++)
                        for (int64_t r = c; r < b.n1; r++)
                            ok_blk &= rfp_at(arf, nt, blk(b.off11, b.t11, b.ld, r, c), r, c);
                    for (int64_t c = 0; c < b.n1; c++)
                        for (int64_t r = 0; r < b.n2; r++)
                            ok_blk &= rfp_at(arf, nt, blk(b.off21, b.t21, b.ld, r, c),
                                             b.n1 + r, c);
                    for (int64_t c = 0; c < b.n2; c++)
                        for (int64_t r = c; r < b.n2; r++)
                            ok_blk &= rfp_at(arf, nt, blk(b.off22, b.t22, b.ld, r, c),
                                             b.n1 + r, b.n1 + c);
                    if (!ok_blk && !first[0])
                        snprintf(first, sizeof(first), "blocks n=%lld", (long long)n);
                }
                testing_expect(ok_off, "gchol_rfp_offset  transr %c uplo %c, %s n: every "
                               "element where LAPACKE_dtrttf puts it%s%s", transr, uplo,
                               parity ? "odd" : "even", ok_off ? "" : " -- first: ", ok_off ? "" : first);
                testing_expect(ok_blk, "gchol_rfp_blocks  transr %c uplo %c, %s n: split and "
                               "L11, L21, L22 blocks%s%s", transr, uplo, parity ? "odd" : "even",
                               ok_blk ? "" : " -- first: ", ok_blk ? "" : first);
            }
}

/* CPU reference of the column rotation (kernels/rfp_realign.cu): column j
 * of ncols columns, len long, left by (s0 + ds*j) mod len. */
static void rotate_columns_ref(double *A, int64_t len, int64_t ncols, int64_t s0, int64_t ds)
{
    double *tmp = malloc((size_t)len * sizeof(double));
    for (int64_t j = 0; tmp && j < ncols; j++) {
        const int64_t s = ((s0 + ds * j) % len + len) % len;
        double *p = A + j * len;
        for (int64_t i = 0; i < len; i++) tmp[i] = p[(i + s) % len];
        memcpy(p, tmp, (size_t)len * sizeof(double));
    }
    free(tmp);
}

/* The GPU rotation on long columns (20001: moves of several 8192-element
 * chunks, reversals of several passes), the saved piece being the head or
 * the tail, shifts growing and shrinking, both methods, against the CPU
 * reference. */
static void test_rotate_long_columns(int gpu)
{
    enum { LEN = 20001, NCOLS = 6 };
    static const int64_t shifts[][2] = { { 7, 1 }, { 15000, -1 }, { 9999, 1 }, { LEN - 1, -3 } };
    if (!gpu) {
        printf("  skipped gchol_drotate_columns_launch  long columns (no GPU)\n");
        testing_record(TESTING_SKIPPED);
        return;
    }
    const size_t bytes = (size_t)LEN * NCOLS * sizeof(double);
    double *h0 = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes), *d = NULL;
    int ok = h0 && ref && got && !TESTING_CUDA(cudaMalloc((void **)&d, bytes));
    for (int64_t p = 0; ok && p < (int64_t)LEN * NCOLS; p++) h0[p] = (double)p;
    for (int m = GCHOL_ROTATE_REVERSALS; ok && m <= GCHOL_ROTATE_SMEM; m++)
        for (size_t t = 0; ok && t < sizeof(shifts) / sizeof(shifts[0]); t++) {
            memcpy(ref, h0, bytes);
            rotate_columns_ref(ref, LEN, NCOLS, shifts[t][0], shifts[t][1]);
            ok = !TESTING_CUDA(cudaMemcpy(d, h0, bytes, cudaMemcpyHostToDevice)) &&
                 !TESTING_CUDA(gchol_drotate_columns_launch(d, LEN, NCOLS, shifts[t][0],
                                                            shifts[t][1], m, 0)) &&
                 !TESTING_CUDA(cudaMemcpy(got, d, bytes, cudaMemcpyDeviceToHost)) &&
                 memcmp(got, ref, bytes) == 0;
        }
    testing_expect(ok, "gchol_drotate_columns_launch  long columns (%d), both methods, head and "
                   "tail saved: equals the CPU reference", LEN);
    cudaFree(d);
    free(h0); free(ref); free(got);
}

/* dsposv's kernels (kernels/mixed_prec.cu) against the CPU: the infinity
 * norm from one stored triangle against LAPACKE_dlansy('I') with the other
 * triangle huge (it must not be read), n across the 1024-column chunks; the
 * triangle conversion's overflow flag ignores the other triangle and sees
 * its own; column maxima. */
static void test_mixed_kernels(int gpu)
{
    static const int64_t ns[] = { 1, 5, 1000, 2500 };
    if (!gpu) {
        printf("  skipped dsposv kernels: dlansy_inf, d2s, dcol_absmax (no GPU)\n");
        testing_record(TESTING_SKIPPED);
        return;
    }
    for (size_t t = 0; t < sizeof(ns) / sizeof(ns[0]); t++)
        for (int upper = 0; upper < 2; upper++) {
            const int64_t n = ns[t], lda = n + 3;
            const size_t bytes = (size_t)(lda * n) * sizeof(double);
            double *A = malloc(bytes), *dA = NULL, *dwork = NULL, *dnorm = NULL, got = -1;
            float *dS = NULL;
            int *dflag = NULL, flag_tri = -1, flag_full = -1;
            double maxref[3] = { 0, 0, 0 }, maxgot[3] = { -1, -1, -1 };
            int ok = A != NULL;
            for (int64_t j = 0; ok && j < n; j++)
                for (int64_t i = 0; i < lda; i++) {
                    const int referenced = i < n && (upper ? i <= j : i >= j);
                    A[i + j * lda] = referenced ? testing_hash_uniform(77, i, j) * (i == j ? 3.0 : 1.0)
                                                : (i < n ? 1e39 : NAN);
                }
            ok = ok && !TESTING_CUDA(cudaMalloc((void **)&dA, bytes)) &&
                 !TESTING_CUDA(cudaMalloc((void **)&dwork, gchol_lansy_inf_work(n) * sizeof(double))) &&
                 !TESTING_CUDA(cudaMalloc((void **)&dnorm, 4 * sizeof(double))) &&
                 !TESTING_CUDA(cudaMalloc((void **)&dS, (size_t)(lda * n) * sizeof(float))) &&
                 !TESTING_CUDA(cudaMalloc((void **)&dflag, sizeof(int))) &&
                 !TESTING_CUDA(cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice)) &&
                 !TESTING_CUDA(gchol_dlansy_inf_launch(n, dA, lda, upper, dwork, dnorm, 0)) &&
                 !TESTING_CUDA(cudaMemcpy(&got, dnorm, sizeof(double), cudaMemcpyDeviceToHost)) &&
                 !TESTING_CUDA(cudaMemset(dflag, 0, sizeof(int))) &&
                 !TESTING_CUDA(gchol_d2s_launch(n, n, dA, lda, dS, lda, upper ? 2 : 1, dflag, 0)) &&
                 !TESTING_CUDA(cudaMemcpy(&flag_tri, dflag, sizeof(int), cudaMemcpyDeviceToHost)) &&
                 !TESTING_CUDA(cudaMemset(dflag, 0, sizeof(int))) &&
                 !TESTING_CUDA(gchol_d2s_launch(n, n, dA, lda, dS, lda, 0, dflag, 0)) &&
                 !TESTING_CUDA(cudaMemcpy(&flag_full, dflag, sizeof(int), cudaMemcpyDeviceToHost)) &&
                 !TESTING_CUDA(gchol_dcol_absmax_launch(n, n < 3 ? n : 3, dA, lda, dnorm, 0)) &&
                 !TESTING_CUDA(cudaMemcpy(maxgot, dnorm, 3 * sizeof(double), cudaMemcpyDeviceToHost));
            const double ref = ok ? LAPACKE_dlansy(LAPACK_COL_MAJOR, 'I', upper ? 'U' : 'L', n, A, lda) : 0;
            for (int64_t j = 0; j < n && j < 3; j++)
                for (int64_t i = 0; i < n; i++)
                    maxref[j] = fabs(A[i + j * lda]) > maxref[j] ? fabs(A[i + j * lda]) : maxref[j];
            const int col_ok = maxgot[0] == maxref[0] && (n < 2 || maxgot[1] == maxref[1]) &&
                               (n < 3 || maxgot[2] == maxref[2]);
            /* n = 1: the matrix has no other triangle, so the full conversion sees no 1e39 */
            testing_expect(ok && fabs(got - ref) <= 1e-14 * ref && flag_tri == 0 &&
                               flag_full == (n > 1) && col_ok,
                           "dsposv kernels %c n=%-4lld: dlansy_inf %.15g (LAPACKE %.15g), d2s flag "
                           "triangle %d / all %d, column maxima %s", upper ? 'U' : 'L', (long long)n,
                           got, ref, flag_tri, flag_full, col_ok ? "equal" : "DIFFER");
            cudaFree(dA); cudaFree(dwork); cudaFree(dnorm); cudaFree(dS); cudaFree(dflag);
            free(A);
        }
}

/* pftrf's realigned layout of transr = 'N', even n (rfp_index.h): after the
 * rotation every element sits where gchol_rfp_blocks_realigned says (leading
 * dimension n, L11 at 0, L21 at n/2, L22^T at n), and the inverse rotation
 * restores LAPACKE_dtrttf's array bit for bit. With a GPU, the kernel must
 * give the reference's result for both directions. */
static void test_rfp_realigned(int gpu)
{
    enum { NMAX = 40 };
    static double A[NMAX * NMAX], arf[NMAX * (NMAX + 1) / 2], rot[NMAX * (NMAX + 1) / 2],
        back[NMAX * (NMAX + 1) / 2];
    printf("-- the realigned layout of transr 'N', even n = 2..%d --\n", NMAX);
    for (int u = 0; u < 2; u++) {
        const char uplo = u ? 'U' : 'L';
        int ok_blk = 1, ok_back = 1, ok_gpu = 1, gpu_err = 0;
        char first[160] = "";
        for (int64_t n = 2; n <= NMAX; n += 2) {
            const int64_t nt = n * (n + 1) / 2, len = n + 1, s0 = gchol_rfp_realign_shift(u, n, 0);
            const gchol_rfp_blocks_t b = gchol_rfp_blocks_realigned(u, n);
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = 0; i < n; i++)
                    A[i + j * n] = rfp_value(i, j);
            LAPACKE_dtrttf(LAPACK_COL_MAJOR, 'N', uplo, (lapack_int)n, A, (lapack_int)n, arf);
            memcpy(rot, arf, (size_t)nt * sizeof(double));
            rotate_columns_ref(rot, len, n / 2, s0, 1);
            int ok = b.ld == n && b.n1 == n / 2 && b.n2 == n / 2;
            for (int64_t c = 0; c < b.n1; c++)
                for (int64_t r = c; r < b.n1; r++)
                    ok &= rfp_at(rot, nt, blk(b.off11, b.t11, b.ld, r, c), r, c);
            for (int64_t c = 0; c < b.n1; c++)
                for (int64_t r = 0; r < b.n2; r++)
                    ok &= rfp_at(rot, nt, blk(b.off21, b.t21, b.ld, r, c), b.n1 + r, c);
            for (int64_t c = 0; c < b.n2; c++)
                for (int64_t r = c; r < b.n2; r++)
                    ok &= rfp_at(rot, nt, blk(b.off22, b.t22, b.ld, r, c), b.n1 + r, b.n1 + c);
            if (!ok && ok_blk) snprintf(first, sizeof(first), "blocks n=%lld", (long long)n);
            ok_blk &= ok;
            memcpy(back, rot, (size_t)nt * sizeof(double));
            rotate_columns_ref(back, len, n / 2, len - s0, -1);
            ok_back &= memcmp(back, arf, (size_t)nt * sizeof(double)) == 0;
            for (int m = GCHOL_ROTATE_REVERSALS; gpu && m <= GCHOL_ROTATE_SMEM; m++) {
                double *dR = NULL;
                int e = TESTING_CUDA(cudaMalloc((void **)&dR, (size_t)nt * sizeof(double)));
                if (!e) e = TESTING_CUDA(cudaMemcpy(dR, arf, (size_t)nt * sizeof(double),
                                                    cudaMemcpyHostToDevice));
                if (!e) e = TESTING_CUDA(gchol_drotate_columns_launch(dR, len, n / 2, s0, 1, m, 0));
                if (!e) e = TESTING_CUDA(cudaMemcpy(back, dR, (size_t)nt * sizeof(double),
                                                    cudaMemcpyDeviceToHost));
                if (!e) ok_gpu &= memcmp(back, rot, (size_t)nt * sizeof(double)) == 0;
                if (!e) e = TESTING_CUDA(
                            gchol_drotate_columns_launch(dR, len, n / 2, len - s0, -1, m, 0));
                if (!e) e = TESTING_CUDA(cudaMemcpy(back, dR, (size_t)nt * sizeof(double),
                                                    cudaMemcpyDeviceToHost));
                if (!e) ok_gpu &= memcmp(back, arf, (size_t)nt * sizeof(double)) == 0;
                cudaFree(dR);
                gpu_err |= e;
            }
        }
        testing_expect(ok_blk, "gchol_rfp_blocks_realigned  uplo %c: rotated columns put L11, "
                       "L21, L22 where the descriptor says%s%s", uplo, ok_blk ? "" : " -- first: ",
                       ok_blk ? "" : first);
        testing_expect(ok_back, "gchol_rfp_realign_shift  uplo %c: the inverse rotation restores "
                       "LAPACKE_dtrttf's array", uplo);
        if (gpu)
            testing_expect(ok_gpu && !gpu_err, "gchol_drotate_columns_launch  uplo %c: GPU "
                           "rotation both ways, both methods, equals the CPU reference", uplo);
        else {
            printf("  skipped gchol_drotate_columns_launch  uplo %c (no GPU)\n", uplo);
            testing_record(TESTING_SKIPPED);
        }
    }
}

/* The split plan of A*D^2*A^T's long dimension (gchol_syrk_diag_splits) on
 * the H100's 132 SMs, 128 x 128 tiles: one resident block per SM in both
 * precisions. Split where the triangle has too few tiles for a wave;
 * never to trim a large triangle's ragged last wave (the plan before the
 * seventh session split 16384^2 11 ways, 8192 x 32768 13 ways). */
static void test_syrk_diag_plan(void)
{
    typedef struct { int64_t m, n; int es, want; } plan_case_t;
    static const plan_case_t cases[] = {
        { 1024, 65536, 8, 11 }, { 4096, 65536, 8, 1 }, { 8192, 32768, 8, 1 },
        { 16384, 16384, 8, 1 }, { 1024, 65536, 4, 11 }, { 8192, 32768, 4, 1 },
        { 16384, 16384, 4, 1 }, { 16, 100000, 8, 16 }, { 100, 5000, 8, 4 },
        { 64, 2047, 8, 1 },      /* chunks of >= 1024 columns: no split below 2048 */
        { 64, 2048, 8, 2 },
    };
    printf("-- syrk_diag split plan (132 SMs) --\n");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const plan_case_t *c = &cases[i];
        const int64_t nt = (c->m + 127) / 128, tiles = nt * (nt + 1) / 2;
        const int64_t slots = 132;
        const int got = gchol_syrk_diag_splits(tiles, slots, c->n, (size_t)c->es);
        testing_expect(got == c->want, "gchol_syrk_diag_splits  %s m=%lld n=%lld: %d splits "
                       "(expected %d)", c->es == 8 ? "double" : "single", (long long)c->m,
                       (long long)c->n, got, c->want);
    }
    testing_expect(gchol_syrk_diag_splits(0, 132, 1000, 8) == 1 &&
                       gchol_syrk_diag_splits(10, 132, 0, 8) == 1,
                   "gchol_syrk_diag_splits  no tiles or n = 0: 1");
}

/* The helpers the RFP testers add: Gram generator, counters. */
static void test_rfp_helpers(void)
{
    const int64_t n = 200, lda = 203;
    double *A = malloc((size_t)(lda * n) * sizeof(double)), mindiag = 1e300, maxoff = 0;
    float *As = malloc((size_t)(lda * n) * sizeof(float));
    int sym = 1, same = 1;
    printf("-- RFP tester helpers --\n");
    if (!A || !As) {
        testing_record(TESTING_FAILED);
        free(A); free(As);
        return;
    }
    testing_fill_nan('d', lda * n, A);
    testing_fill_nan('s', lda * n, As);
    testing_expect(testing_generate_gram_spd('d', n, A, lda, 0.25, 11) == 0 &&
                   testing_generate_gram_spd('s', n, As, lda, 0.25, 11) == 0,
                   "testing_generate_gram_spd n=%lld", (long long)n);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            double v = A[i + j * lda];
            sym &= v == A[j + i * lda];
            same &= (float)v == As[i + j * lda];
            if (i == j)
                mindiag = v < mindiag ? v : mindiag;
            else
                maxoff = fabs(v) > maxoff ? fabs(v) : maxoff;
        }
    sym &= isnan(A[n + 5 * lda]) && isnan(As[n + 2 + 7 * lda]); /* padding not written */
    testing_expect(sym && same, "Gram matrix symmetric, float = rounded double, padding kept");
    testing_expect(mindiag > 0.25 && maxoff > 0.05,
                   "Gram matrix not diagonal-like: min diagonal %.3f, max |off-diagonal| %.3f",
                   mindiag, maxoff);
    testing_expect(testing_lapacke_info('d', 'L', n, A, lda) == 0 &&
                   testing_lapacke_info('s', 'U', n, As, lda) == 0,
                   "Gram matrix is SPD (LAPACKE ?potrf info 0)");
    {
        /* the ill-conditioned generator: referenced triangle only, SPD, and
         * as ill-conditioned as documented (1-norm estimate from LAPACKE) */
        int tri = 1;
        double anorm = 0, rcond = 0;
        testing_fill_nan('d', lda * n, A);
        testing_expect(testing_generate_lowrank_spd('d', 'U', n, A, lda, n / 2, 1e-9, 5) == 0,
                       "testing_generate_lowrank_spd n=%lld", (long long)n);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) {
                double v = A[i + j * lda];
                tri &= i <= j ? !isnan(v) : isnan(v);
                if (i <= j)
                    anorm = fmax(anorm, fabs(v));
            }
        anorm *= (double)n; /* a bound on the 1-norm is enough for the estimate */
        testing_expect(tri, "low-rank SPD matrix: only the upper triangle written");
        const int ok = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', (lapack_int)n, A, (lapack_int)lda) == 0 &&
                       LAPACKE_dpocon(LAPACK_COL_MAJOR, 'U', (lapack_int)n, A, (lapack_int)lda,
                                      anorm, &rcond) == 0;
        testing_expect(ok && rcond > 0 && rcond < 1e-7,
                       "low-rank SPD matrix is SPD and ill-conditioned (rcond estimate %.1e)", rcond);
    }
    {
        double x[5] = { 1, 2, 3, 4, 5 }, y[5] = { 1, 2, 3, 4, 5 };
        int64_t c0 = testing_count_diff('d', 5, x, y), c1;
        y[3] = -4;
        c1 = testing_count_diff('d', 5, x, y);
        testing_fill_value('d', 5, y, 2.5);
        testing_expect(c0 == 0 && c1 == 1 && y[0] == 2.5 && y[4] == 2.5 &&
                       testing_rfp_size(0) == 0 && testing_rfp_size(7) == 28,
                       "testing_count_diff, testing_fill_value, testing_rfp_size");
    }
    free(A);
    free(As);
}

/* ---------------------------------------------------------------------------
 * Queues.
 * ------------------------------------------------------------------------- */
static void test_queues(void)
{
    gchol_queue_t q = NULL;
    int64_t ret;
    printf("-- queues --\n");
    testing_expect(gchol_queue_destroy(NULL) == 0, "gchol_queue_destroy(NULL) returns 0");
    ret = gchol_queue_create(-1, &q);
    if (!testing_have_gpu()) {
        testing_expect(ret == GCHOL_ERR_NO_DEVICE, "queue_create without GPU: %lld", (long long)ret);
        ret = gchol_queue_create_from_stream(-1, NULL, &q);
        testing_expect(ret == GCHOL_ERR_NO_DEVICE, "queue_create_from_stream without GPU: %lld",
                       (long long)ret);
        return;
    }
    testing_expect(ret == 0 && q != NULL, "queue_create: %lld", (long long)ret);
    if (ret == 0) {
        testing_expect(gchol_queue_stream(q) != NULL, "queue_stream is the queue's own stream");
        testing_expect(gchol_queue_sync(q) == 0, "queue_sync");
        testing_expect(gchol_queue_destroy(q) == 0, "queue_destroy");
    }
    {
        cudaStream_t s = NULL;
        q = NULL;
        if (!TESTING_CUDA(cudaStreamCreate(&s))) {
            ret = gchol_queue_create_from_stream(-1, s, &q);
            testing_expect(ret == 0 && gchol_queue_stream(q) == s,
                           "queue_create_from_stream: %lld, stream kept", (long long)ret);
            if (ret == 0) {
                testing_expect(gchol_queue_sync(q) == 0, "queue_sync (own stream)");
                testing_expect(gchol_queue_destroy(q) == 0, "queue_destroy (own stream)");
            }
            testing_expect(cudaStreamSynchronize(s) == cudaSuccess,
                           "caller's stream still valid after queue_destroy");
            cudaStreamDestroy(s);
        } else {
            testing_record(TESTING_FAILED);
        }
    }
}

/* ---------------------------------------------------------------------------
 * The helpers themselves.
 * ------------------------------------------------------------------------- */

/* Factors A (lda) with LAPACKE into a copy; returns the copy or NULL. */
static void *lapacke_factor(char prec, char uplo, int64_t n, const void *A, int64_t lda,
                            int64_t *info)
{
    size_t bytes = (size_t)(lda * n) * testing_elsize(prec);
    void *L = malloc(bytes);
    if (!L)
        return NULL;
    memcpy(L, A, bytes);
    *info = prec == 's' ? LAPACKE_spotrf(LAPACK_COL_MAJOR, uplo, (lapack_int)n, L, (lapack_int)lda)
                        : LAPACKE_dpotrf(LAPACK_COL_MAJOR, uplo, (lapack_int)n, L, (lapack_int)lda);
    return L;
}

/* The GPU residual of a host factor, NaN on failure. */
static double gpu_residual(char prec, char uplo, int64_t n, const void *A, int64_t lda,
                           const void *L)
{
    size_t es = testing_elsize(prec);
    void *dL = NULL;
    double resid = NAN;
    if (TESTING_CUDA(cudaMalloc(&dL, (size_t)(lda * n) * es)) ||
        testing_copy_h2d(es, lda, n, L, lda, dL, lda) ||
        testing_residual_gpu(prec, uplo, n, A, lda, dL, lda, &resid))
        resid = NAN;
    cudaFree(dL);
    return resid;
}

/* Residual of a LAPACK factor is small, of a perturbed one large: on the CPU,
 * and on the GPU when there is one. */
static void test_residual(void)
{
    static const int64_t ns[] = { 1, 50, 300 };
    static const char precs[] = { 'd', 's' }, uplos[] = { 'L', 'U' };
    int gpu = testing_have_gpu();
    printf("-- residual helpers --\n");
    LAPACKE_set_nancheck(0);
    for (int p = 0; p < 2; p++)
        for (int u = 0; u < 2; u++)
            for (int i = 0; i < LEN(ns); i++) {
                char prec = precs[p], uplo = uplos[u];
                int64_t n = ns[i], lda = n + 3, info = -1, j = n / 2;
                void *A = malloc((size_t)(lda * n) * testing_elsize(prec)), *L = NULL;
                double good, bad, ggood = 0, gbad = 1e300;
                if (A) {
                    testing_fill_nan(prec, lda * n, A);
                    testing_generate_spd(prec, uplo, n, A, lda, 77 + (uint64_t)n);
                    L = lapacke_factor(prec, uplo, n, A, lda, &info);
                }
                if (!L) {
                    free(A);
                    testing_record(TESTING_FAILED);
                    continue;
                }
                good = testing_residual_cpu(prec, uplo, n, A, lda, L, lda);
                ggood = gpu ? gpu_residual(prec, uplo, n, A, lda, L) : 0;
                testing_set(prec, L, lda, j, j, 1.1 * testing_get(prec, L, lda, j, j));
                bad = testing_residual_cpu(prec, uplo, n, A, lda, L, lda);
                gbad = gpu ? gpu_residual(prec, uplo, n, A, lda, L) : 1e300;
                testing_expect(info == 0 && good < TESTING_TOL && bad > 100,
                               "CPU residual %c%c n=%lld: LAPACKE factor %.3e, perturbed %.3e",
                               prec, uplo, (long long)n, good, bad);
                if (gpu)
                    testing_expect(ggood < TESTING_TOL && gbad > 100 && fabs(gbad - bad) < 1e-3 * bad,
                                   "GPU residual %c%c n=%lld: LAPACKE factor %.3e, perturbed %.3e",
                                   prec, uplo, (long long)n, ggood, gbad);
                free(A);
                free(L);
            }
}

/* The generator gives the same symmetric SPD matrix for 'L' and 'U', in the
 * promised ranges; A(k,k) = -1 gives info k; the reference info follows
 * reference LAPACK on NaN / Inf pivots. */
static void test_generator(void)
{
    const int64_t n = 500, lda = 503, k = 129;
    double *AL = malloc((size_t)(lda * n) * sizeof(double));
    double *AU = malloc((size_t)(lda * n) * sizeof(double));
    int sym = 1, range = 1;
    int64_t info;
    printf("-- SPD generator and reference info --\n");
    if (!AL || !AU) {
        testing_record(TESTING_FAILED);
        free(AL); free(AU);
        return;
    }
    testing_fill_nan('d', lda * n, AL);
    testing_fill_nan('d', lda * n, AU);
    testing_generate_spd('d', 'L', n, AL, lda, 3);
    testing_generate_spd('d', 'U', n, AU, lda, 3);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            double v = AL[i + j * lda];
            sym &= v == AU[j + i * lda];
            range &= i == j ? (v > n - 1 && v < n + 1) : (fabs(v) < 1 && v != 0);
        }
    testing_expect(sym, "'L' and 'U' generate the same symmetric matrix");
    testing_expect(range, "entries: |off-diagonal| < 1, diagonal in (n-1, n+1)");
    testing_expect(testing_lapacke_info('d', 'L', n, AL, lda) == 0 &&
                   testing_lapacke_info('d', 'U', n, AU, lda) == 0,
                   "generated matrix is SPD (LAPACKE_dpotrf info 0, both uplo)");
    AL[(k - 1) * (lda + 1)] = -1;
    info = testing_lapacke_info('d', 'L', n, AL, lda);
    testing_expect(info == k && testing_reference_info('d', 'L', n, AL, lda) == k,
                   "A(k,k) = -1 gives info k = %lld (LAPACKE %lld)", (long long)k, (long long)info);
    AL[(k - 1) * (lda + 1)] = NAN;
    info = testing_reference_info('d', 'L', n, AL, lda);
    testing_expect(info == k, "reference info with NaN pivot at %lld: %lld", (long long)k,
                   (long long)info);
    AL[(k - 1) * (lda + 1)] = INFINITY;
    info = testing_reference_info('d', 'L', n, AL, lda);
    testing_expect(info == 0, "reference info with Inf diagonal: %lld (expected 0)", (long long)info);
    AU[(k - 1) + (k + 9) * lda] = NAN; /* A(k, k+10) in 'U' = A(k+10, k) */
    info = testing_reference_info('d', 'U', n, AU, lda);
    testing_expect(info == k + 10, "reference info with NaN at A(%lld,%lld): %lld",
                   (long long)k + 10, (long long)k, (long long)info);
    free(AL);
    free(AU);
}

/* The untouched-checker catches one modified byte outside the referenced
 * triangle and ignores changes inside it. */
static void test_untouched_checker(void)
{
    enum { N = 20, LDA = 25 };
    static const char precs[] = { 'd', 's' }, uplos[] = { 'L', 'U' };
    printf("-- padding / other-triangle checker --\n");
    for (int p = 0; p < 2; p++)
        for (int u = 0; u < 2; u++) {
            char prec = precs[p], uplo = uplos[u];
            size_t es = testing_elsize(prec);
            double A[LDA * N], S[LDA * N];
            unsigned char *a = (unsigned char *)A;
            int64_t pad_at = 22 + 3 * LDA, other_at = uplo == 'L' ? 2 + 9 * LDA : 9 + 2 * LDA;
            int64_t ref_at = uplo == 'L' ? 9 + 2 * LDA : 2 + 9 * LDA;
            int64_t c0, c1, c2, c3;
            testing_fill_nan(prec, LDA * N, A);
            testing_generate_spd(prec, uplo, N, A, LDA, 5);
            memcpy(S, A, sizeof(A));
            c0 = testing_count_untouched_violations(prec, uplo, N, A, S, LDA);
            a[pad_at * es] ^= 1;
            c1 = testing_count_untouched_violations(prec, uplo, N, A, S, LDA);
            a[pad_at * es] ^= 1;
            a[other_at * es + 1] ^= 0x10;
            c2 = testing_count_untouched_violations(prec, uplo, N, A, S, LDA);
            a[other_at * es + 1] ^= 0x10;
            a[ref_at * es] ^= 1;
            c3 = testing_count_untouched_violations(prec, uplo, N, A, S, LDA);
            testing_expect(c0 == 0 && c1 == 1 && c2 == 1 && c3 == 0,
                           "checker %c%c: clean %lld, padding byte %lld, other-triangle byte "
                           "%lld, referenced %lld", prec, uplo, (long long)c0, (long long)c1,
                           (long long)c2, (long long)c3);
        }
}

/* Size lists and ranges. */
static void test_parse_sizes(void)
{
    static const struct { const char *spec; int64_t count, first, last; } ok[] = {
        { "1024:8192:1024", 8, 1024, 8192 }, { "1,2,3", 3, 1, 3 }, { "7", 1, 7, 7 },
        { "1:5:2,10", 4, 1, 10 }, { "0:3", 4, 0, 3 } };
    static const char *const bad[] = { "", "abc", "5:1", "1,,2", "1:4:0", "-3", "4x" };
    printf("-- size parser --\n");
    for (int i = 0; i < LEN(ok); i++) {
        int64_t *v = NULL, c = 0;
        int rc = testing_parse_sizes(ok[i].spec, &v, &c);
        testing_expect(rc == 0 && c == ok[i].count && v[0] == ok[i].first &&
                       v[c - 1] == ok[i].last, "parse \"%s\": %lld sizes", ok[i].spec,
                       (long long)c);
        free(v);
    }
    for (int i = 0; i < LEN(bad); i++) {
        int64_t *v = NULL, c = 0;
        testing_expect(testing_parse_sizes(bad[i], &v, &c) != 0 && !v,
                       "parse \"%s\" rejected", bad[i]);
    }
}

int main(void)
{
    int gpu = testing_have_gpu();
    printf("testing_host (%s)\n", gpu ? "GPU present" : "no GPU");
    if (gpu) {
        int64_t st = gchol_queue_create(-1, &g_queue);
        if (st != 0 || TESTING_CUDA(cudaMalloc((void **)&g_dinfo, sizeof(int64_t)))) {
            printf("setup failed: %lld (%s)\n", (long long)st, gchol_strerror(st));
            testing_record(TESTING_FAILED);
            return testing_summary();
        }
    } else {
        g_queue = testing_fake_queue();
    }
    test_strerror();
    test_options();
    test_arguments();
    test_host_no_device();
    test_queues();
    test_residual();
    test_generator();
    test_untouched_checker();
    test_parse_sizes();
    test_rfp_arguments();
    test_pftrf_host_no_device();
    test_solve_host_no_device();
    test_rfp_index();
    test_rfp_realigned(gpu);
    test_rotate_long_columns(gpu);
    test_mixed_kernels(gpu);
    test_rfp_helpers();
    test_syrk_diag_plan();
    if (gpu) {
        gchol_queue_destroy(g_queue);
        cudaFree(g_dinfo);
        gchol_finalize();
    }
    return testing_summary();
}
