/*
 * testing_threads.c -- gchol from many host threads at once, both precisions.
 *   testing_threads [--suite | --quick] [--seconds S] [--threads K] [--seed X]
 * For S seconds (10; --quick 2), side by side: K threads (8) each on its own
 * queue, remade every 32 calls (potrf_gpu, potrs_gpu, dsposv_gpu, dxposv_gpu, pftrf_gpu +
 * pftrs_gpu, syrk_diag_gpu / sfrk_diag_gpu, wls_gpu / wls_rfp_gpu, dswls_gpu,
 * and potrf_expert: host arrays on the caller's queue); K threads on the
 * library-owned queue (potrf, potrs, posv, dsposv, dxposv, pftrf + pftrs, syrk_diag /
 * sfrk_diag, wls / wls_rfp, dswls); one thread calling gchol_finalize every
 * 20..120 ms; past S seconds until each routine has run in both groups (at
 * most 10 S more). Each thread takes the routines in turn, precision and triangle at random, on fresh random inputs (SPD of order 32..600, padding NaN).
 * Checks, in double with OpenBLAS / LAPACKE: return value and info 0;
 * LAPACK's factor residual and the solve's backward error < 30; syrk_diag
 * componentwise against (|alpha| |A D| |A D|^T + |beta C|) (n + 2) eps < 30;
 * wls by the normal equations' backward residual (testing_wls's); iter in
 * 0..30, or -31 (the double fallback, counted); dsposv's and dxposv's A unchanged, or after
 * the fallback its factor; the other triangle untouched (potrf, syrk_diag).
 * RFP arrays go through LAPACKE_?trttf / ?tfttr. Without a GPU those cases
 * are skipped; 2K threads then call every host form beside gchol_finalize,
 * each call to return GCHOL_ERR_NO_DEVICE with its arrays untouched.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include <cblas.h>
#include <lapacke.h>

#include "gchol.h"
#include "gchol_batched.h"
#include "gchol_mixed.h"
#include "util.h"
#include "../src/test_hooks.h"

enum { NMAX = 600, PADMAX = 3, LDMAX = NMAX + PADMAX, RHSMAX = 8, MAXTHREADS = 64 };
enum { OP_POTRF, OP_POTRS, OP_POSV, OP_DSPOSV, OP_DXPOSV, OP_RFP, OP_SYRK, OP_WLS, OP_DSWLS,
       OP_COUNT };
enum { G_QUEUE, G_HOST, G_FIN, G_COUNT };
enum { REQUEUE_EVERY = 32, MAX_PRINTED = 20 };

static const char *const op_name[2][OP_COUNT] = {
    { "potrf_gpu", "potrs_gpu", "potrf_expert", "dsposv_gpu", "dxposv_gpu", "pftrf+pftrs_gpu",
      "syrk/sfrk_diag_gpu", "wls/wls_rfp_gpu", "dswls_gpu" },
    { "potrf", "potrs", "posv", "dsposv", "dxposv", "pftrf+pftrs", "syrk/sfrk_diag",
      "wls/wls_rfp", "dswls" }
};
static const char *const group_name[G_COUNT] = { "queue", "host", "finalize" };

/* Both precisions from one call site: arrays pass as void *. */
#define G(p, name, ...)  ((p) == 'd' ? gchol_d##name(__VA_ARGS__) : gchol_s##name(__VA_ARGS__))
#define LK(p, name, ...) ((p) == 'd' ? LAPACKE_d##name(__VA_ARGS__) : LAPACKE_s##name(__VA_ARGS__))

static atomic_int g_stop;
/* which routines each group has run: the run goes on past S seconds until every one has */
static atomic_int g_seen[2][OP_COUNT];
static pthread_mutex_t g_print = PTHREAD_MUTEX_INITIALIZER;
static int g_printed;

typedef struct {
    int           group, id;
    testing_rng_t rng;
    gchol_queue_t q;                   /* queue group: its own queue             */
    void         *M[4], *V[3], *d;     /* host: matrices, right-hand sides, d    */
    void         *dM[2], *dV[2], *dd;  /* queue group: device copies             */
    int64_t       calls[2], fails, op_calls[OP_COUNT], ncalls, fallbacks;
    char          desc[128], why[128];
} worker_t;

static int64_t rnd(worker_t *w, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(testing_rng_next(&w->rng) % (uint64_t)(hi - lo + 1));
}

static int fail(worker_t *w, const char *fmt, double v)
{
    snprintf(w->why, sizeof w->why, fmt, v);
    return 1;
}

static void report(worker_t *w)
{
    w->fails++;
    pthread_mutex_lock(&g_print);
    if (g_printed++ < MAX_PRINTED)
        printf("  FAILED  %s thread %d: %s: %s\n", w->group ? "host" : "queue", w->id, w->desc, w->why);
    pthread_mutex_unlock(&g_print);
}

#include "threads_ops.h" /* inputs, calls and checks */

/* ---- the threads --------------------------------------------------------------- */

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    const int host = w->group == G_HOST;
    int op = (int)rnd(w, 0, OP_COUNT - 1); /* the routines in turn, from a random one */
    while (!atomic_load(&g_stop)) {
        const char p = op == OP_DSPOSV || op == OP_DXPOSV || op == OP_DSWLS ? 'd'
                     : rnd(w, 0, 1) ? 's' : 'd';
        w->desc[0] = w->why[0] = 0;
        const int bad = op == OP_RFP ? op_rfp(w, p) : op == OP_SYRK ? op_syrk(w, p)
                      : op == OP_WLS || op == OP_DSWLS ? op_wls(w, op, p) : op_chol(w, op, p);
        w->op_calls[op]++;
        atomic_store(&g_seen[host][op], 1);
        if (bad) report(w);
        op = (op + 1) % OP_COUNT;
        if (!host && w->ncalls >= REQUEUE_EVERY) { /* queues made and freed beside the others */
            w->ncalls = 0;
            gchol_queue_destroy(w->q);
            w->q = NULL;
            if (gchol_queue_create(-1, &w->q) != 0) {
                snprintf(w->desc, sizeof w->desc, "gchol_queue_create");
                fail(w, "failed", 0);
                report(w);
                break;
            }
        }
    }
    return NULL;
}

static void sleep_ms(double ms)
{
    struct timespec ts = { (time_t)(ms / 1000), (long)(fmod(ms, 1000.0) * 1e6) };
    while (nanosleep(&ts, &ts) != 0) {}
}

static void *finalizer_main(void *arg)
{
    worker_t *w = arg;
    while (!atomic_load(&g_stop)) {
        sleep_ms((double)rnd(w, 20, 120));
        gchol_finalize();
        w->ncalls++;
    }
    return NULL;
}

static int worker_init(worker_t *w, int group, int id, uint64_t seed)
{
    const size_t mat = (size_t)LDMAX * NMAX * sizeof(double), rhs = (size_t)LDMAX * RHSMAX * sizeof(double);
    memset(w, 0, sizeof *w);
    w->group = group;
    w->id = id;
    testing_rng_seed(&w->rng, seed * 1000003u + (uint64_t)(group * MAXTHREADS + id));
    if (group == G_FIN) return 0;
    int ok = (w->d = malloc(NMAX * sizeof(double))) != NULL;
    for (int k = 0; k < 4; k++) ok = ok && (w->M[k] = malloc(mat)) != NULL;
    for (int k = 0; k < 3; k++) ok = ok && (w->V[k] = malloc(rhs)) != NULL;
    if (!ok || group == G_HOST) return !ok;
    ok = gchol_queue_create(-1, &w->q) == 0 && cudaMalloc(&w->dd, NMAX * sizeof(double)) == 0;
    for (int k = 0; k < 2; k++)
        ok = ok && cudaMalloc(&w->dM[k], mat) == 0 && cudaMalloc(&w->dV[k], rhs) == 0;
    return !ok;
}

static void worker_free(worker_t *w)
{
    for (int k = 0; k < 4; k++) free(w->M[k]);
    for (int k = 0; k < 3; k++) free(w->V[k]);
    for (int k = 0; k < 2; k++) cudaFree(w->dM[k]), cudaFree(w->dV[k]);
    free(w->d);
    cudaFree(w->dd);
    gchol_queue_destroy(w->q);
}

/* The groups side by side for `seconds`, then the table and the cases. */
static void run_threads(int nthreads, double seconds, uint64_t seed)
{
    static worker_t ws[G_COUNT][MAXTHREADS];
    pthread_t th[G_COUNT][MAXTHREADS];
    int started[G_COUNT][MAXTHREADS] = { { 0 } }, count[G_COUNT] = { nthreads, nthreads, 1 };
    int setup_failed[G_COUNT] = { 0 };
    const double t0 = testing_wtime();
    printf("\n-- %d threads on their own queues, %d on the library-owned queue, gchol_finalize "
           "beside them: %.1f s --\n", nthreads, nthreads, seconds);
    atomic_store(&g_stop, 0);
    for (int g = 0; g < G_COUNT; g++)
        for (int i = 0; i < count[g]; i++) {
            if (worker_init(&ws[g][i], g, i, seed)) {
                printf("  FAILED  %s thread %d: out of memory or no queue\n", group_name[g], i);
                setup_failed[g]++;
                continue;
            }
            started[g][i] = pthread_create(&th[g][i], NULL, g == G_FIN ? finalizer_main : worker_main,
                                           &ws[g][i]) == 0;
            setup_failed[g] += !started[g][i];
        }
    for (int g = 0; g < 2; g++)
        for (int k = 0; k < OP_COUNT; k++) atomic_store(&g_seen[g][k], 0);
    sleep_ms(seconds * 1000);
    /* on a loaded machine the host group's calls are few: on until each routine has run in
     * both groups, at most 10 S more (then the table names the one that did not) */
    for (double waited = 0; waited < 10 * seconds; waited += 0.1) {
        int all = 1;
        for (int g = 0; g < 2; g++)
            for (int k = 0; k < OP_COUNT; k++) all = all && atomic_load(&g_seen[g][k]);
        if (all) break;
        sleep_ms(100);
    }
    atomic_store(&g_stop, 1);
    for (int g = 0; g < G_COUNT; g++)
        for (int i = 0; i < count[g]; i++)
            if (started[g][i]) pthread_join(th[g][i], NULL);
    printf("\n%-9s %7s %8s %8s %8s %8s  %s\n", "group", "threads", "calls", "d calls", "s calls",
           "failures", "check");
    for (int g = 0; g < G_COUNT; g++) {
        int64_t calls[2] = { 0, 0 }, fails = setup_failed[g], ops[OP_COUNT] = { 0 }, fb = 0;
        char ds[2][24] = { "-", "-" };
        int all_ops = 1;
        for (int i = 0; i < count[g]; i++) {
            worker_t *w = &ws[g][i];
            calls[0] += g == G_FIN ? w->ncalls : w->calls[0]; /* finalize: gchol_finalize calls */
            calls[1] += w->calls[1];
            fails += w->fails;
            fb += w->fallbacks;
            for (int k = 0; k < OP_COUNT; k++) ops[k] += w->op_calls[k];
            worker_free(w);
        }
        for (int k = 0; k < OP_COUNT && g != G_FIN; k++) all_ops = all_ops && ops[k] > 0;
        for (int k = 0; k < 2 && g != G_FIN; k++) snprintf(ds[k], sizeof ds[k], "%lld", (long long)calls[k]);
        const int ok = fails == 0 && calls[0] + calls[1] > 0 && all_ops;
        printf("%-9s %7d %8lld %8s %8s %8lld  %s\n", group_name[g], count[g],
               (long long)(calls[0] + calls[1]), ds[0], ds[1], (long long)fails, ok ? "ok" : "FAILED");
        for (int k = 0; k < OP_COUNT && g != G_FIN; k++)
            printf("%s%s %lld%s", k ? "" : "          ", op_name[g][k], (long long)ops[k],
                   k + 1 < OP_COUNT ? ", " : "");
        if (g != G_FIN) printf("; iter -31 (double fallback) %lld\n", (long long)fb);
        testing_expect(ok, "%s: %d threads, %lld library calls, %lld failures%s", group_name[g],
                       count[g], (long long)(calls[0] + calls[1]), (long long)fails,
                       all_ops ? "" : ", a routine never ran");
    }
    printf("threads time %.1f s\n", testing_wtime() - t0);
}

/* ---- without a GPU: the library mutex's path ------------------------------------- */

static atomic_llong g_nogpu_bad, g_nogpu_calls;

static void *nogpu_main(void *arg)
{
    enum { N = 8, LD = 9, NCALLS = 13 };
    worker_t *w = arg;
    double buf[5][LD * N], s[4][LD * N]; /* A, B, C, Y, d; saved A, B, C, Y */
    void *A = buf[0], *B = buf[1], *C = buf[2], *Y = buf[3], *d = buf[4];
    for (int it = 0; it < 40 * NCALLS; it++) {
        const char p = (it / NCALLS) % 2 ? 's' : 'd';
        const char uplo = it % 2 ? 'U' : 'L';
        int64_t info = TESTING_INFO_POISON, iter = 0, ret;
        gen_spd(w, p, N, A, LD);
        gen_rand(w, p, N, 2, B, LD, 1.0, 0.0);
        gen_rand(w, p, N, N, C, LD, 1.0, 0.0);
        gen_rand(w, p, N, 2, Y, LD, 1.0, 0.0);
        gen_d(w, p, N, d);
        memcpy(s, buf, sizeof s);
        switch (it % NCALLS) {
        case 0: ret = G(p, potrf, uplo, N, A, LD, &info); break;
        case 1: ret = G(p, potrs, uplo, N, 2, A, LD, B, LD, &info); break;
        case 2: ret = G(p, posv, uplo, N, 2, A, LD, B, LD, &info); break;
        case 3: ret = gchol_dsposv(uplo, N, 2, A, LD, B, LD, Y, LD, &iter, &info); break;
        case 4: ret = G(p, pftrf, 'N', uplo, N, A, &info); break;
        case 5: ret = G(p, pftrs, 'T', uplo, N, 2, A, B, LD, &info); break;
        case 6: ret = info = G(p, syrk_diag, uplo, N, N, 1.0, A, LD, d, 0.5, C, LD); break;
        case 7: ret = info = G(p, sfrk_diag, 'N', uplo, N, N, 1.0, A, LD, d, 0.5, C); break;
        case 8: ret = G(p, wls, uplo, N, N, 2, A, LD, d, B, LD, C, LD, Y, LD, &info); break;
        case 9: ret = G(p, wls_rfp, 'T', uplo, N, N, 2, A, LD, d, B, LD, C, Y, LD, &info); break;
        case 10: ret = gchol_dswls(N, N, 2, A, LD, d, B, LD, Y, LD, &iter, &info); break;
        case 11: { /* two matrices of order 4 in A, their infos in C's first words */
            int64_t binfo[2] = { 7, 7 };
            ret = info = G(p, potrf_strided_batched, uplo, 4, A, 4, 16, binfo, 2);
            if (binfo[0] != 7 || binfo[1] != 7) ret = 0; /* an info written: counted bad */
            break;
        }
        default: {
            gchol_xposv_result_t xres;
            ret = gchol_dxposv(uplo, N, 2, A, LD, B, LD, Y, LD, NULL, &xres, &info);
            break;
        }
        }
        if (ret != GCHOL_ERR_NO_DEVICE || info != ret || memcmp(s, buf, sizeof s))
            atomic_fetch_add(&g_nogpu_bad, 1);
        atomic_fetch_add(&g_nogpu_calls, 1);
        if (it % NCALLS == 0) gchol_finalize();
    }
    return NULL;
}

static void run_no_gpu(int nthreads, uint64_t seed)
{
    static worker_t ws[2 * MAXTHREADS];
    pthread_t th[2 * MAXTHREADS];
    int started = 0;
    if (!testing_no_gpu_section("host forms from many threads without a GPU"))
        return;
    for (int i = 0; i < 2 * nthreads; i++) {
        worker_init(&ws[i], G_FIN, i, seed); /* the rng only */
        if (pthread_create(&th[i], NULL, nogpu_main, &ws[i]) != 0) break;
        started++;
    }
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    testing_expect(started == 2 * nthreads && atomic_load(&g_nogpu_bad) == 0,
                   "%d threads, %lld host calls beside gchol_finalize: each GCHOL_ERR_NO_DEVICE, "
                   "arrays untouched (%lld not)", started, (long long)atomic_load(&g_nogpu_calls),
                   (long long)atomic_load(&g_nogpu_bad));
}

int main(int argc, char **argv)
{
    int suite = 0, quick = 0, nthreads = 8;
    double seconds = -1;
    uint64_t seed = 1;
    const opt_t opts[] = {
        OPT("--suite", OPT_FLAG, &suite, NULL, "the test suite (make test): 10 s"),
        OPT("--quick", OPT_FLAG, &quick, NULL, "the suite in about 2 s"),
        OPT("--seconds", OPT_DOUBLE, &seconds, "S", "how long the threads run (default 10)",
            OPT_MIN(0)),
        OPT("--threads", OPT_INT, &nthreads, "K", "threads per group (default 8, at most 64)",
            OPT_MIN(1)),
        OPT("--seed", OPT_UINT64, &seed, "X", "random seed (default 1)"),
        OPT_END
    };
    const opts_program_t prog = { "[--suite | --quick] [--seconds S] [--threads K] [--seed X]",
                                  NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    if (nthreads > MAXTHREADS) opts_fail(argv[0], opts, &prog, "--threads: at most %d", MAXTHREADS);
    if (seconds < 0) seconds = quick ? 2.0 : 10.0;
    openblas_set_num_threads(1); /* the checks run on many threads already */
    LAPACKE_set_nancheck(0);     /* padding rows hold NaN */
    printf("testing_threads%s%s  (both precisions, %s)\n", suite ? " --suite" : "",
           quick ? " --quick" : "", testing_have_gpu() ? "GPU present" : "no GPU");
    if (testing_have_gpu()) {
        /* dxposv factors in FP16 at every order here, below its crossover
         * to double too, and refines without the time limit: the low rung
         * is what the threads share */
        const gchol_test_hooks_t hooks = { .xposv_auto_lowp_from_n = -1, .xposv_auto_time = 1 };
        gchol_test_hooks_set(&hooks);
        run_threads(nthreads, seconds, seed);
        gchol_finalize();
    } else {
        for (int g = 0; g < G_COUNT; g++)
            testing_skip("%s group: %d threads, %.1f s (no GPU)", group_name[g],
                         g == G_FIN ? 1 : nthreads, seconds);
        run_no_gpu(nthreads, seed);
    }
    return testing_summary();
}
