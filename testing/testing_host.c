/*
 * testing_host.c -- host-side tests of gchol and of the testing helpers.
 *
 * Runs without a GPU (and with one): error strings, options, argument
 * checking of every public entry point (with NULL / poisoned pointers that
 * must never be dereferenced), n = 0 quick returns, queue creation, and the
 * helpers the GPU testers rely on (residual, SPD generator, poison checker,
 * size parser, reference info). Ends with the SUMMARY line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <lapacke.h>

#include "gchol.h"
#include "testing_common.h"

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
            testing_expect((o.variant == GCHOL_VARIANT_LEFT || o.variant == GCHOL_VARIANT_RIGHT) &&
                           o.nb >= 1 && o.recnb >= 1 && o.recnb <= 128 &&
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
    if (gpu) {
        gchol_queue_destroy(g_queue);
        cudaFree(g_dinfo);
        gchol_finalize();
    }
    return testing_summary();
}
