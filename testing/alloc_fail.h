/*
 * alloc_fail.h -- what testing_alloc_fail.c runs, one routine family at a
 * time: the routines (device forms on a new queue, host forms on the
 * library-owned queue, the LAPACK shim through its GPU engine), each call's
 * fresh inputs, the call itself, and the judgment of its outcome: an
 * out-of-memory status with the arrays it promises to leave alone
 * untouched, or a correct result (LAPACK's residual ratios < 30), or the
 * shim's CPU fallback. testing_alloc_fail.c includes it once.
 */
#ifndef GCHOL_TESTING_ALLOC_FAIL_H
#define GCHOL_TESTING_ALLOC_FAIL_H

#include <dlfcn.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cblas.h>
#include <cuda_runtime_api.h>
#include <lapacke.h>

#include "gchol.h"
#include "gchol_lapack.h"
#include "gchol_batched.h"
#include "gchol_mixed.h"
#include "test_hooks.h"
#include "util.h"

#define IS_OOM(st) ((st) == GCHOL_ERR_DEVICE_ALLOC || (st) == GCHOL_ERR_HOST_ALLOC)

/* ---- the routines ------------------------------------------------------------ */
typedef enum {
    POTRF_GPU, POTRF_ASYNC, POTRF_EXPERT, POTRF, POTRS_GPU, POTRS, POSV, DSPOSV_GPU, DSPOSV,
    DXPOSV_GPU, DXPOSV, POTRF_BATCHED, PFTRF_GPU, PFTRF, SYRK_GPU, SYRK, WLS_GPU, WLS, DSWLS_GPU, DSWLS,
    SH_POTRF, SH_POTRS, SH_POSV, SH_PFTRF, SH_DSPOSV
} routine_t;
typedef enum { G_SPD, G_SOLVE, G_RFP, G_SYRK, G_WLS } group_t;
typedef enum { Q_NEW, Q_DEFAULT, Q_SHIM } where_t; /* the queue a call runs on */

typedef struct {
    routine_t r;
    char prec;
    const char *name;
    int form;      /* SYRK_GPU: test_hooks.h's syrk_diag_path; DSWLS_GPU: nonzero,
                      the expert form with these products; POTRF_BATCHED: its
                      batched_kernel (7: cuBLAS's products) */
    int in_quick;
} family_t;

static group_t group_of(routine_t r)
{
    switch (r) {
    case POTRF_GPU: case POTRF_ASYNC: case POTRF_EXPERT: case POTRF: case POTRF_BATCHED:
    case SH_POTRF: return G_SPD;
    case PFTRF_GPU: case PFTRF: case SH_PFTRF: return G_RFP;
    case SYRK_GPU: case SYRK: return G_SYRK;
    case WLS_GPU: case WLS: case DSWLS_GPU: case DSWLS: return G_WLS;
    default: return G_SOLVE;
    }
}
/* dsposv and dxposv, device and host forms: X apart from B, B never written */
static int mixed_solve(routine_t r)
{
    return r == DSPOSV_GPU || r == DSPOSV || r == DXPOSV_GPU || r == DXPOSV;
}
static where_t where_of(routine_t r)
{
    if (r >= SH_POTRF) return Q_SHIM;
    switch (r) {
    case POTRF_GPU: case POTRF_ASYNC: case POTRF_EXPERT: case POTRS_GPU: case DSPOSV_GPU:
    case DXPOSV_GPU: case PFTRF_GPU: case SYRK_GPU: case WLS_GPU: case DSWLS_GPU: return Q_NEW;
    default: return Q_DEFAULT;
    }
}
static int device_arrays(routine_t r) { return where_of(r) == Q_NEW && r != POTRF_EXPERT; }

/* ---- the LAPACK shim and its engine, opened from build/lib ---------------------- */
typedef void potrf_f(const char *, const int *, void *, const int *, int *, size_t);
typedef void solve_f(const char *, const int *, const int *, void *, const int *, void *,
                     const int *, int *, size_t);
typedef void pftrf_f(const char *, const char *, const int *, void *, int *, size_t, size_t);
typedef void dsposv_f(const char *, const int *, const int *, double *, const int *,
                      const double *, const int *, double *, const int *, double *, float *,
                      int *, int *, size_t);
static struct {
    potrf_f *dpotrf, *spotrf;
    solve_f *dposv, *dpotrs;
    pftrf_f *dpftrf;
    dsposv_f *dsposv;
    void (*route)(int, int64_t, int64_t);
    int (*last_path)(void);
    void (*finalize)(void);
    gchol_test_hooks_set_fn *hooks_set;
    gchol_test_alloc_count_fn *alloc_count;
    int ok;
} shim;

/* The shim (RTLD_LOCAL: LAPACKE keeps OpenBLAS) and, at the same path as
 * GCHOL_LAPACK_GPU_LIB makes the shim open, its engine. */
static void load_shim(void)
{
    char exe[4096] = "", path[4200];
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return;
    exe[len] = '\0';
    const char *dir = dirname(exe);
    snprintf(path, sizeof path, "%s/../lib/libgchol_lapack_gpu.so", dir);
    setenv("GCHOL_LAPACK_GPU_LIB", path, 1);
    void *e = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    snprintf(path, sizeof path, "%s/../lib/libgchol_lapack.so", dir);
    void *s = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!e || !s) {
        printf("  (cannot open the shim or its engine: %s)\n", dlerror());
        return;
    }
    *(void **)&shim.hooks_set = dlsym(e, GCHOL_ENGINE_TEST_HOOKS_SET);
    *(void **)&shim.alloc_count = dlsym(e, GCHOL_ENGINE_TEST_ALLOC_COUNT);
    *(void **)&shim.dpotrf = dlsym(s, "dpotrf_");
    *(void **)&shim.spotrf = dlsym(s, "spotrf_");
    *(void **)&shim.dposv = dlsym(s, "dposv_");
    *(void **)&shim.dpotrs = dlsym(s, "dpotrs_");
    *(void **)&shim.dpftrf = dlsym(s, "dpftrf_");
    *(void **)&shim.dsposv = dlsym(s, "dsposv_");
    *(void **)&shim.route = dlsym(s, "gchol_lapack_route");
    *(void **)&shim.last_path = dlsym(s, "gchol_lapack_last_path");
    *(void **)&shim.finalize = dlsym(s, "gchol_lapack_finalize");
    shim.ok = shim.hooks_set && shim.alloc_count && shim.dpotrf && shim.spotrf && shim.dposv &&
              shim.dpotrs && shim.dpftrf && shim.dsposv && shim.route && shim.last_path &&
              shim.finalize;
}

/* The hooks of the library that runs routine f: ours, or the engine's. The
 * stager's pinned buffers are made small (1 MiB, not 16): every host call
 * on a new queue makes four. dxposv factors in FP16 at every order, so
 * that its low rung's allocations are the ones that fail. */
static void hooks_set(const family_t *f, int64_t k)
{
    const gchol_test_hooks_t h = { .alloc_fail_at = k,
                                   .syrk_diag_path = f->r == SYRK_GPU ? f->form : 0,
                                   .batched_kernel = f->r == POTRF_BATCHED ? f->form : 0,
                                   .stage_bytes = (size_t)1 << 20,
                                   .xposv_auto_lowp_from_n = -1, .xposv_auto_time = 1 };
    if (where_of(f->r) == Q_SHIM) shim.hooks_set(&h);
    else gchol_test_hooks_set(&h);
}
static int64_t alloc_count(const family_t *f)
{
    return where_of(f->r) == Q_SHIM ? shim.alloc_count() : gchol_test_alloc_count();
}
static void hooks_off(const family_t *f)
{
    if (where_of(f->r) == Q_SHIM) shim.hooks_set(NULL);
    else gchol_test_hooks_set(NULL);
}

/* ---- one problem: fresh random inputs, host and (device forms) device copies -- */
typedef struct {
    const family_t *f;
    char prec, uplo, transr;
    int64_t m, n, nrhs, ld, ldb, na, nb, nx, nc; /* sizes; na.. elements of A, B, X, C */
    void *A0, *Ain, *A, *B0, *B, *X0, *X, *d0, *d, *C0, *C; /* A0: the matrix; Ain: A passed */
    void *dA, *dB, *dX, *dd, *dC, *dinfo;
    int64_t iter, own_allocs; /* own_allocs: potrf_async's, its queue made */
    int path;
} prob_t;

static void *copy_of(const void *p, size_t bytes)
{
    void *q = testing_malloc(bytes);
    if (q && p) memcpy(q, p, bytes);
    return q;
}

static void prob_free(prob_t *p)
{
    void *h[] = { p->A0, p->Ain, p->A, p->B0, p->B, p->X0, p->X, p->d0, p->d, p->C0, p->C };
    void *dv[] = { p->dA, p->dB, p->dX, p->dd, p->dC, p->dinfo };
    for (int i = 0; i < TESTING_LEN(h); ++i) free(h[i]);
    for (int i = 0; i < TESTING_LEN(dv); ++i) if (dv[i]) cudaFree(dv[i]);
    memset(p, 0, sizeof *p);
}

static int prob_new(prob_t *p, const family_t *f, uint64_t seed)
{
    const routine_t r = f->r;
    const char prec = f->prec;
    const size_t es = testing_elsize(prec);
    memset(p, 0, sizeof *p);
    p->f = f;
    p->prec = prec;
    p->uplo = prec == 'd' ? 'L' : 'U';
    p->transr = prec == 'd' ? 'N' : 'T';
    switch (group_of(r)) {
    case G_SPD: p->n = 700; p->ld = 703; break;
    case G_SOLVE: p->n = 600; p->ld = p->ldb = 602; p->nrhs = 5; break;
    case G_RFP: p->n = 640; p->ld = 640; break;
    case G_SYRK: p->m = r == SYRK ? 300 : 192; p->n = r == SYRK ? 5000 : 8000; p->ld = p->m; break;
    case G_WLS: p->m = 160; p->n = 1000; p->nrhs = 3; p->ld = p->m; p->ldb = p->n; break;
    }
    const group_t g = group_of(r);
    const int sym = g == G_SPD || g == G_SOLVE || g == G_RFP;
    p->na = g == G_RFP ? p->n * (p->n + 1) / 2 : p->ld * p->n;
    p->nb = p->ldb * p->nrhs;
    p->nx = g == G_WLS ? p->m * p->nrhs : p->nb;
    p->nc = g == G_SYRK || r == WLS_GPU || r == WLS ? p->m * p->m : 0;
    p->A0 = testing_malloc((size_t)(p->ld * p->n) * es);
    p->Ain = testing_malloc((size_t)p->na * es);
    if (!p->A0 || !p->Ain) return -1;
    if (sym) testing_generate_spd(prec, 'A', p->n, p->A0, p->ld, seed);
    else testing_generate_random(prec, p->m, p->n, p->A0, p->ld, seed, -1, 1);
    if (r == POTRS_GPU || r == POTRS || r == SH_POTRS) { /* the factor is potrs's A */
        memcpy(p->Ain, p->A0, (size_t)p->na * es);
        const lapack_int rc = prec == 'd'
            ? LAPACKE_dpotrf(LAPACK_COL_MAJOR, p->uplo, (lapack_int)p->n, p->Ain, (lapack_int)p->ld)
            : LAPACKE_spotrf(LAPACK_COL_MAJOR, p->uplo, (lapack_int)p->n, p->Ain, (lapack_int)p->ld);
        if (rc) return -1;
    } else if (g == G_RFP) {
        const lapack_int rc = prec == 'd'
            ? LAPACKE_dtrttf(LAPACK_COL_MAJOR, p->transr, p->uplo, (lapack_int)p->n, p->A0,
                             (lapack_int)p->ld, p->Ain)
            : LAPACKE_strttf(LAPACK_COL_MAJOR, p->transr, p->uplo, (lapack_int)p->n, p->A0,
                             (lapack_int)p->ld, p->Ain);
        if (rc) return -1;
    } else {
        memcpy(p->Ain, p->A0, (size_t)p->na * es);
    }
    if (p->nrhs) {
        p->B0 = testing_malloc((size_t)p->nb * es);
        p->X0 = testing_malloc((size_t)p->nx * es);
        if (!p->B0 || !p->X0) return -1;
        testing_generate_rhs(prec, p->n, p->nrhs, p->B0, p->ldb, seed + 7);
        testing_fill_nan(prec, p->nx, p->X0);
    }
    if (!sym) { /* D, and C (not read: beta = 0) */
        p->d0 = testing_malloc((size_t)p->n * es);
        p->C0 = testing_malloc((size_t)p->nc * es);
        if (!p->d0 || !p->C0) return -1;
        testing_generate_random(prec, p->n, 1, p->d0, p->n, seed + 3, 0.5, 2.0);
        testing_fill_nan(prec, p->nc, p->C0);
    }
    p->A = copy_of(p->Ain, (size_t)p->na * es);
    p->B = copy_of(p->B0, (size_t)p->nb * es);
    p->X = copy_of(p->X0, (size_t)p->nx * es);
    p->d = p->d0 ? copy_of(p->d0, (size_t)p->n * es) : NULL;
    p->C = copy_of(p->C0, (size_t)p->nc * es);
    if (!device_arrays(r)) return 0;
    if (!(p->dA = testing_upload(p->A, (size_t)p->na * es))) return -1;
    if (p->nrhs && (!(p->dB = testing_upload(p->B, (size_t)p->nb * es)) ||
                    !(p->dX = testing_upload(p->X, (size_t)p->nx * es))))
        return -1;
    if (p->d && !(p->dd = testing_upload(p->d, (size_t)p->n * es))) return -1;
    if (p->nc && !(p->dC = testing_upload(p->C, (size_t)p->nc * es))) return -1;
    if (r == POTRF_ASYNC && TESTING_CUDA(cudaMalloc(&p->dinfo, sizeof(int64_t)))) return -1;
    return 0;
}

/* ---- the call ----------------------------------------------------------------- */
#define DS(fn, ...) (dbl ? gchol_d##fn(__VA_ARGS__) : gchol_s##fn(__VA_ARGS__))

static int64_t call_shim(prob_t *p)
{
    const int n = (int)p->n, nrhs = (int)p->nrhs, ld = (int)p->ld, ldb = (int)p->ldb;
    const char u[2] = { p->uplo, 0 }, t[2] = { p->transr, 0 };
    int info = -777, iter = 0;
    switch (p->f->r) {
    case SH_POTRF: (p->prec == 'd' ? shim.dpotrf : shim.spotrf)(u, &n, p->A, &ld, &info, 1); break;
    case SH_POSV: shim.dposv(u, &n, &nrhs, p->A, &ld, p->B, &ldb, &info, 1); break;
    case SH_POTRS: shim.dpotrs(u, &n, &nrhs, p->A, &ld, p->B, &ldb, &info, 1); break;
    case SH_PFTRF: shim.dpftrf(t, u, &n, p->A, &info, 1, 1); break;
    default: { /* SH_DSPOSV */
        double *work = testing_malloc((size_t)(n * nrhs) * 8);
        float *swork = testing_malloc((size_t)(n * (n + nrhs)) * 4);
        if (work && swork)
            shim.dsposv(u, &n, &nrhs, p->A, &ld, p->B, &ldb, p->X, &ldb, work, swork, &iter,
                        &info, 1);
        free(work);
        free(swork);
    }
    }
    p->iter = iter;
    p->path = shim.last_path();
    return info;
}

/* The routine on the problem's arrays, on queue q where it takes one; its
 * status (for the asynchronous forms, with the queue synchronized). */
static int64_t call(prob_t *p, gchol_queue_t q)
{
    const int dbl = p->prec == 'd';
    const char u = p->uplo;
    const int64_t m = p->m, n = p->n, nrhs = p->nrhs, ld = p->ld, ldb = p->ldb;
    int64_t info = 0, st = 0;
    switch (p->f->r) {
    case POTRF_GPU: return DS(potrf_gpu, u, n, p->dA, ld, &info, q);
    case POTRF_ASYNC: {
        const int64_t before = gchol_test_alloc_count();
        st = DS(potrf_async, u, n, p->dA, ld, p->dinfo, NULL, q);
        p->own_allocs = gchol_test_alloc_count() - before;
        if (st == 0) st = gchol_queue_sync(q);
        if (st == 0 && testing_download(&info, p->dinfo, sizeof info) == 0) st = info;
        return st;
    }
    case POTRF_EXPERT: return DS(potrf_expert, u, n, p->A, ld, &info, NULL, q);
    case POTRF: return DS(potrf, u, n, p->A, ld, &info);
    case POTRS_GPU:
        st = DS(potrs_gpu, u, n, nrhs, p->dA, ld, p->dB, ldb, &info, q);
        return st == 0 ? gchol_queue_sync(q) : st;
    case POTRS: return DS(potrs, u, n, nrhs, p->A, ld, p->B, ldb, &info);
    case POSV: return DS(posv, u, n, nrhs, p->A, ld, p->B, ldb, &info);
    case DSPOSV_GPU:
        return gchol_dsposv_gpu(u, n, nrhs, p->dA, ld, p->dB, ldb, p->dX, ldb, &p->iter, &info, q);
    case DSPOSV: return gchol_dsposv(u, n, nrhs, p->A, ld, p->B, ldb, p->X, ldb, &p->iter, &info);
    case DXPOSV_GPU: case DXPOSV: {
        gchol_xposv_result_t res;
        st = p->f->r == DXPOSV_GPU
                 ? gchol_dxposv_gpu(u, n, nrhs, p->dA, ld, p->dB, ldb, p->dX, ldb, NULL, &res, &info, q)
                 : gchol_dxposv(u, n, nrhs, p->A, ld, p->B, ldb, p->X, ldb, NULL, &res, &info);
        p->iter = res.iter;
        return st;
    }
    case POTRF_BATCHED: { /* one matrix of the batched host form */
        int64_t binfo = 0;
        st = DS(potrf_strided_batched, u, n, p->A, ld, ld * n, &binfo, 1);
        return st != 0 ? st : binfo;
    }
    case PFTRF_GPU: return DS(pftrf_gpu, p->transr, u, n, p->dA, &info, q);
    case PFTRF: return DS(pftrf, p->transr, u, n, p->A, &info);
    case SYRK_GPU:
        st = DS(syrk_diag_gpu, u, m, n, 1.0, p->dA, ld, p->dd, 0.0, p->dC, m, q);
        return st == 0 ? gchol_queue_sync(q) : st;
    case SYRK: return DS(syrk_diag, u, m, n, 1.0, p->A, ld, p->d, 0.0, p->C, m);
    case WLS_GPU:
        return DS(wls_gpu, u, m, n, nrhs, p->dA, ld, p->dd, p->dB, ldb, p->dC, m, p->dX, m, &info, q);
    case WLS: return DS(wls, u, m, n, nrhs, p->A, ld, p->d, p->B, ldb, p->C, m, p->X, m, &info);
    case DSWLS_GPU:
        if (p->f->form) {
            gchol_options_t o;
            gchol_options_default(&o);
            o.products = p->f->form;
            return gchol_dswls_expert_gpu(m, n, nrhs, p->dA, ld, p->dd, p->dB, ldb, p->dX, m,
                                          &p->iter, &info, &o, q);
        }
        return gchol_dswls_gpu(m, n, nrhs, p->dA, ld, p->dd, p->dB, ldb, p->dX, m, &p->iter, &info, q);
    case DSWLS: return gchol_dswls(m, n, nrhs, p->A, ld, p->d, p->B, ldb, p->X, m, &p->iter, &info);
    default: return call_shim(p);
    }
}

/* ---- the checks --------------------------------------------------------------- */
/* W = A D in double (m x n, ld m). */
static double *weighted(const prob_t *p)
{
    double *W = malloc((size_t)(p->m * p->n) * sizeof(double));
    if (!W) return NULL;
    testing_to_double(p->prec, p->m, p->n, p->A0, p->ld, W, p->m);
    for (int64_t k = 0; k < p->n; ++k)
        cblas_dscal((int)p->m, testing_get(p->prec, p->d0, p->n, k, 0), W + k * p->m, 1);
    return W;
}

/* G = W W^T (or |W| |W|^T), both triangles, m x m. */
static double *gram(const prob_t *p, const double *W, int absolute)
{
    const int64_t m = p->m, n = p->n;
    double *G = calloc((size_t)(m * m), sizeof(double)), *V = NULL;
    if (!G) return NULL;
    if (absolute && (V = malloc((size_t)(m * n) * sizeof(double))))
        for (int64_t i = 0; i < m * n; ++i) V[i] = fabs(W[i]);
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)m, (int)n, 1.0, V ? V : W, (int)m,
                0.0, G, (int)m);
    for (int64_t j = 0; j < m; ++j)
        for (int64_t i = 0; i < j; ++i) G[i + j * m] = G[j + i * m];
    free(V);
    return G;
}

/* syrk_diag: max |C - Cref| / (|W| |W|^T eps sqrt(n)) over C's triangle. */
static double syrk_ratio(const prob_t *p)
{
    double *W = weighted(p), *R = W ? gram(p, W, 0) : NULL, *G = W ? gram(p, W, 1) : NULL;
    double worst = R && G ? 0 : NAN;
    const double scale = testing_eps(p->prec) * sqrt((double)p->n);
    for (int64_t j = 0; j < p->m && R && G; ++j)
        for (int64_t i = p->uplo == 'L' ? j : 0; i < (p->uplo == 'L' ? p->m : j + 1); ++i) {
            const double e = fabs(testing_get(p->prec, p->C, p->m, i, j) - R[i + j * p->m]);
            worst = isnan(e) ? NAN : fmax(worst, e / (G[i + j * p->m] * scale));
        }
    free(W); free(R); free(G);
    return worst;
}

/* wls: the factor's residual against C = A D^2 A^T (as testing_residual_cpu),
 * and the backward ratio of Y, max_j ||A D^2 (b_j - A^T y_j)|| /
 * (||A D^2|| ||b_j|| + ||C|| ||y_j||) / (eps max(m, n)), infinity norms. */
static void wls_ratios(const prob_t *p, double eps, double *fact, double *back)
{
    const int64_t m = p->m, n = p->n, nrhs = p->nrhs;
    double *W = weighted(p), *Cr = W ? gram(p, W, 0) : NULL;
    double *A = malloc((size_t)(m * n) * 8), *T = malloc((size_t)(n * nrhs) * 8);
    double *Y = malloc((size_t)(m * nrhs) * 8), *R = malloc((size_t)(m * nrhs) * 8);
    void *Cp = testing_malloc((size_t)(m * m) * testing_elsize(p->prec));
    *fact = *back = NAN;
    if (Cr && A && T && Y && R && Cp) {
        for (int64_t i = 0; i < m * m; ++i) testing_set(p->prec, Cp, m, i, 0, Cr[i]);
        if (p->nc) *fact = testing_residual_cpu(p->prec, p->uplo, m, Cp, m, p->C, m);
        testing_to_double(p->prec, m, n, p->A0, p->ld, A, m);
        testing_to_double(p->prec, n, nrhs, p->B0, p->ldb, T, n);
        testing_to_double(p->prec, m, nrhs, p->X, m, Y, m);
        double nad2 = 0, nc = 0; /* ||A D^2||, ||C|| */
        for (int64_t i = 0; i < m; ++i) {
            double s = 0, c = 0;
            for (int64_t k = 0; k < n; ++k) s += fabs(W[i + k * m] * testing_get(p->prec, p->d0, n, k, 0));
            for (int64_t k = 0; k < m; ++k) c += fabs(Cr[i + k * m]);
            nad2 = fmax(nad2, s);
            nc = fmax(nc, c);
        }
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)n, (int)nrhs, (int)m, -1.0, A,
                    (int)m, Y, (int)m, 1.0, T, (int)n);
        for (int64_t j = 0; j < nrhs; ++j)
            for (int64_t k = 0; k < n; ++k) {
                const double dk = testing_get(p->prec, p->d0, n, k, 0);
                T[k + j * n] *= dk * dk;
            }
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)nrhs, (int)n, 1.0, A,
                    (int)m, T, (int)n, 0.0, R, (int)m);
        *back = 0;
        for (int64_t j = 0; j < nrhs; ++j) {
            double rn = 0, yn = 0, bn = 0;
            for (int64_t i = 0; i < m; ++i) {
                rn = isnan(R[i + j * m]) ? NAN : fmax(rn, fabs(R[i + j * m]));
                yn = fmax(yn, fabs(Y[i + j * m]));
            }
            for (int64_t k = 0; k < n; ++k) bn = fmax(bn, fabs(testing_get(p->prec, p->B0, n, k, j)));
            *back = isnan(rn) ? NAN : fmax(*back, rn / (nad2 * bn + nc * yn));
        }
        *back /= eps * (double)(m > n ? m : n);
    }
    free(W); free(Cr); free(A); free(T); free(Y); free(R); free(Cp);
}

/* The factor in an RFP array against A0. */
static double rfp_residual(const prob_t *p)
{
    void *F = testing_malloc((size_t)(p->n * p->n) * testing_elsize(p->prec));
    double r = NAN;
    if (F) {
        testing_fill_nan(p->prec, p->n * p->n, F);
        const lapack_int rc = p->prec == 'd'
            ? LAPACKE_dtfttr(LAPACK_COL_MAJOR, p->transr, p->uplo, (lapack_int)p->n, p->A, F, (lapack_int)p->n)
            : LAPACKE_stfttr(LAPACK_COL_MAJOR, p->transr, p->uplo, (lapack_int)p->n, p->A, F, (lapack_int)p->n);
        if (rc == 0) r = testing_residual_cpu(p->prec, p->uplo, p->n, p->A0, p->ld, F, p->n);
    }
    free(F);
    return r;
}

/* Appends a reason to why; returns 0. */
static int bad(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t len, const char *fmt, ...)
{
    char s[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s, sizeof s, fmt, ap);
    va_end(ap);
    testing_fail_reason(why, len, s);
    return 0;
}
#define DIFF(x, y, cnt) testing_count_diff(p->prec, (cnt), (x), (y))

/* Whether the outcome st of a call is allowed (oom: the k-th allocation was
 * made, and failed). *kind: "-101", "-102", "0" (a correct result), "F" or
 * "E" (the shim's paths). */
static int judge(prob_t *p, int64_t st, int oom, const char **kind, char *why, size_t len)
{
    const routine_t r = p->f->r;
    const group_t g = group_of(r);
    const size_t es = testing_elsize(p->prec);
    const int dbl_wls = r == DSWLS_GPU || r == DSWLS;
    int ok = 1;
    if (device_arrays(r)) { /* everything back to the host copies */
        if (testing_download(p->A, p->dA, (size_t)p->na * es) ||
            (p->dB && testing_download(p->B, p->dB, (size_t)p->nb * es)) ||
            (p->dX && testing_download(p->X, p->dX, (size_t)p->nx * es)) ||
            (p->dd && testing_download(p->d, p->dd, (size_t)p->n * es)) ||
            (p->dC && testing_download(p->C, p->dC, (size_t)p->nc * es)))
            return bad(why, len, "download failed");
    }
    /* never written */
    if ((r == POTRS_GPU || r == POTRS || r == SH_POTRS || g == G_SYRK || g == G_WLS) &&
        DIFF(p->A, p->Ain, p->na))
        ok = bad(why, len, "A written (%lld)", (long long)DIFF(p->A, p->Ain, p->na));
    if ((mixed_solve(r) || r == SH_DSPOSV || g == G_WLS) && DIFF(p->B, p->B0, p->nb))
        ok = bad(why, len, "B written (%lld)", (long long)DIFF(p->B, p->B0, p->nb));
    if (p->d && DIFF(p->d, p->d0, p->n)) ok = bad(why, len, "d written");
    if (where_of(r) == Q_SHIM && (p->path == GCHOL_LAPACK_RAN_FAILED || IS_OOM(st))) {
        *kind = "E"; /* documented: info a gchol status, the inputs maybe written */
        return ok && oom && IS_OOM(st) && p->path == GCHOL_LAPACK_RAN_FAILED
                   ? 1 : bad(why, len, "shim path %c, info %lld", p->path, (long long)st);
    }
    if (IS_OOM(st)) { /* the arrays it reads: untouched */
        *kind = st == GCHOL_ERR_DEVICE_ALLOC ? "-101" : "-102";
        if (!oom) return bad(why, len, "status %lld with nothing injected", (long long)st);
        if ((g == G_SPD || g == G_RFP || r == POSV || mixed_solve(r)) &&
            DIFF(p->A, p->Ain, p->na))
            ok = bad(why, len, "A written (%lld) before failing", (long long)DIFF(p->A, p->Ain, p->na));
        if ((r == POTRS_GPU || r == POTRS || r == POSV) && DIFF(p->B, p->B0, p->nb))
            ok = bad(why, len, "B written (%lld) before failing", (long long)DIFF(p->B, p->B0, p->nb));
        if ((g == G_SYRK || r == WLS) && DIFF(p->C, p->C0, p->nc))
            ok = bad(why, len, "C written (%lld) before failing", (long long)DIFF(p->C, p->C0, p->nc));
        if ((r == WLS || r == DSWLS) && DIFF(p->X, p->X0, p->nx))
            ok = bad(why, len, "Y written (%lld) before failing", (long long)DIFF(p->X, p->X0, p->nx));
        return ok;
    }
    if (st != 0) return bad(why, len, "status %lld", (long long)st);
    *kind = where_of(r) == Q_SHIM && p->path == GCHOL_LAPACK_RAN_FALLBACK ? "F" : "0";
    if (**kind == 'F' && !oom) ok = bad(why, len, "redone on the CPU with nothing injected");
    if (where_of(r) == Q_SHIM && p->path != GCHOL_LAPACK_RAN_FALLBACK && p->path != GCHOL_LAPACK_RAN_GPU)
        ok = bad(why, len, "shim path %c", p->path);
    double r1 = 0, r2 = 0;
    const char *what = "residual";
    switch (g) {
    case G_SPD: r1 = testing_residual_cpu(p->prec, p->uplo, p->n, p->A0, p->ld, p->A, p->ld); break;
    case G_RFP: r1 = rfp_residual(p); break;
    case G_SYRK: r1 = syrk_ratio(p); what = "error ratio"; break;
    case G_WLS: wls_ratios(p, testing_eps(dbl_wls ? 'd' : p->prec), &r2, &r1);
        if (dbl_wls) r2 = 0;
        what = "backward ratio"; break;
    case G_SOLVE: {
        const int x = mixed_solve(r) || r == SH_DSPOSV; /* else B := X */
        if (r == POSV || r == SH_POSV)
            r2 = testing_residual_cpu(p->prec, p->uplo, p->n, p->A0, p->ld, p->A, p->ld);
        r1 = testing_solve_berr(p->prec, p->uplo, p->n, p->nrhs, p->A0, p->ld, p->B0, p->ldb,
                                x ? p->X : p->B, p->ldb);
        what = "backward error";
        break;
    }
    }
    if (!(r1 >= 0 && r1 < TESTING_TOL)) ok = bad(why, len, "%s %.2e", what, r1);
    if (!(r2 >= 0 && r2 < TESTING_TOL)) ok = bad(why, len, "factor residual %.2e", r2);
    return ok;
}

#endif
