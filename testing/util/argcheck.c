/*
 * argcheck.c -- argument checks and quick returns of gchol entry points
 * (argcheck.h).
 */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "argcheck.h"
#include "util.h"

enum { RBUF = 64 }; /* doubles per buffer: 8 x 8, or an RFP array of order 8 */

static gchol_queue_t g_queue; /* the real queue with a GPU, else a fake one */

static int entry_nargs(const testing_entry_t *e)
{
    int k = 0;
    while (k < 14 && e->roles[k] != R_END)
        k++;
    return k;
}

/* Argument number of a role in an entry, 0 if it has none. */
static int entry_argno(const testing_entry_t *e, testing_role_t role)
{
    for (int k = 0; k < entry_nargs(e); k++)
        if (e->roles[k] == role)
            return k + 1;
    return 0;
}

/* Roles an illegal value exists for (alpha, beta, d: any value is legal). */
static int role_can_be_illegal(testing_role_t r)
{
    return r != R_ALPHA && r != R_BETA && r != R_D;
}

/* Makes one role illegal in *a. */
static void make_illegal(testing_args_t *a, testing_role_t r, int rfp_order)
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

/* rbufs_setup, recording a failure (and cleaning up) when it fails. */
static int rbufs_ready(rbufs_t *b, int host_mem)
{
    if (rbufs_setup(b, host_mem) == 0)
        return 1;
    rbufs_check_free(b);
    testing_record(TESTING_FAILED);
    return 0;
}

/* Legal base arguments: m = n = 8, nrhs = 3, leading dimensions 8. */
static testing_args_t args_base(rbufs_t *b, int64_t *info)
{
    static int64_t iter;
    testing_args_t a;
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
    a.iter = &iter;
    a.info = info;
    a.opts = NULL;
    a.q = g_queue;
    return a;
}

/* Calls e with arguments a; expects return `expect`, the same in *info when
 * e has an info argument that is not NULL, and the buffers untouched. */
static void call_expect(const testing_entry_t *e, testing_args_t a, rbufs_t *b, int64_t expect,
                        const char *what)
{
    int64_t ret, *info = a.info;
    int has_info = entry_argno(e, R_INFO) != 0, ok = 1;
    if (info)
        *info = TESTING_INFO_POISON;
    ret = e->fn(&a);
    if (b->dev && testing_have_gpu() && g_queue && gchol_queue_sync(g_queue) != 0)
        ok = 0;
    ok = ok && rbufs_check_free(b) && ret == expect;
    if (has_info && info)
        ok = ok && *info == expect;
    char itext[40] = "";
    if (has_info && info)
        snprintf(itext, sizeof(itext), ", info %lld", (long long)*info);
    testing_expect(ok, "%-22s %-34s ret %lld (expected %lld)%s", e->name, what,
                   (long long)ret, (long long)expect, itext);
}

/* Every check of one entry. */
static void check_entry(const testing_entry_t *e)
{
    int nargs = entry_nargs(e), ldarg = entry_argno(e, R_LD), ldcarg = entry_argno(e, R_LDC);
    int64_t info;
    rbufs_t b;
    char what[64];

    /* each illegal argument on its own */
    for (int k = 1; k <= nargs; k++) {
        testing_args_t a;
        if (!role_can_be_illegal(e->roles[k - 1]) || !rbufs_ready(&b, e->host_mem))
            continue;
        a = args_base(&b, &info);
        make_illegal(&a, e->roles[k - 1], e->rfp_order);
        snprintf(what, sizeof(what), "argument %d illegal", k);
        call_expect(e, a, &b, -k, what);
    }
    /* all of them at once: the first one is reported */
    if (rbufs_ready(&b, e->host_mem)) {
        testing_args_t a = args_base(&b, &info);
        for (int k = 1; k <= nargs; k++)
            if (role_can_be_illegal(e->roles[k - 1]) && e->roles[k - 1] != R_INFO)
                make_illegal(&a, e->roles[k - 1], e->rfp_order);
        call_expect(e, a, &b, -1, "all arguments illegal");
    }
    /* leading dimension 0 with order 0 (max(1, 0) = 1) */
    for (int which = 0; which < 2; which++) {
        int argno = which ? ldcarg : ldarg;
        testing_args_t a;
        if (!argno || !rbufs_ready(&b, e->host_mem))
            continue;
        a = args_base(&b, &info);
        if (e->rfp_order)
            a.n = 0;
        else
            a.m = 0;
        a.ld = which ? 1 : 0;
        a.ldc = which ? 0 : 1;
        snprintf(what, sizeof(what), "order 0, argument %d = 0", argno);
        call_expect(e, a, &b, -argno, what);
    }
    /* quick returns: order 0 (lower-case uplo is legal), nrhs = 0 */
    if (rbufs_ready(&b, e->host_mem)) {
        testing_args_t a = args_base(&b, &info);
        a.transr = 'T';
        a.uplo = 'u';
        if (e->rfp_order)
            a.n = 0;
        else
            a.m = 0;
        a.ld = a.ldc = 1;
        call_expect(e, a, &b, 0, e->rfp_order ? "n = 0, uplo 'u': quick return"
                                              : "m = 0, uplo 'u': quick return");
    }
    if (entry_argno(e, R_NRHS) && !e->nrhs0_runs && rbufs_ready(&b, e->host_mem)) {
        testing_args_t a = args_base(&b, &info);
        a.nrhs = 0;
        call_expect(e, a, &b, 0, "nrhs = 0: quick return");
    }
}

void testing_check_arguments(const testing_entry_t *entries, int count, gchol_queue_t queue)
{
    g_queue = queue ? queue : testing_have_gpu() ? NULL : testing_fake_queue();
    printf("-- argument checks, quick returns (%s) --\n",
           testing_have_gpu() ? "device buffers, real queue"
                              : "no GPU: host buffers, fake queue, never to be used");
    for (int i = 0; i < count; i++)
        if (testing_case_in_part()) check_entry(&entries[i]); /* --part: one entry a case */
}

void testing_check_solve_no_device(char prec, const testing_entry_t *e, const char *title)
{
    enum { N = 8, LD = 10 };
    union { double d[LD * N]; float s[LD * N]; } A;
    union { double d[LD * 2]; float s[LD * 2]; } B;
    unsigned char sA[sizeof A], sB[sizeof B];
    void *a = prec == 's' ? (void *)A.s : (void *)A.d, *b = prec == 's' ? (void *)B.s : (void *)B.d;
    const size_t abytes = LD * N * testing_elsize(prec), bbytes = LD * 2 * testing_elsize(prec);
    const char uplo = prec == 'd' ? 'L' : 'U';
    int64_t info = TESTING_INFO_POISON;
    if (testing_have_gpu())
        return;
    printf("-- %s --\n", title);
    testing_fill_nan(prec, LD * N, a);
    testing_generate_spd(prec, uplo, N, a, LD, 3);
    testing_fill_nan(prec, LD * 2, b);
    for (int i = 0; i < N; i++)
        testing_set(prec, b, LD, i, 0, 1.0 + i);
    memcpy(sA, a, abytes);
    memcpy(sB, b, bbytes);
    const testing_args_t args = { .uplo = uplo, .n = N, .nrhs = 2, .A = a, .ld = LD, .C = b,
                                  .ldc = LD, .info = &info };
    const int64_t ret = e->fn(&args);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && info == ret && !memcmp(a, sA, abytes) &&
                       !memcmp(b, sB, bbytes),
                   "%s without GPU: ret %lld info %lld, arrays untouched", e->name,
                   (long long)ret, (long long)info);
}
