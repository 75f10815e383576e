/*
 * testing_alloc_fail.c -- allocation failures, injected: every public
 * routine family, both precisions where it has them, with its k-th device or
 * pinned host allocation made to fail (the library's test hook,
 * src/test_hooks.h: alloc_fail_at), for k = 1, 2, ... until a call makes
 * fewer than k allocations and completes normally (k <= 64).
 *
 * Each failing call must end in one of:
 *  - GCHOL_ERR_DEVICE_ALLOC or GCHOL_ERR_HOST_ALLOC, with the host arrays
 *    it reads untouched (the host-memory contract: a library error before
 *    the download writes nothing) and the arrays it never writes unchanged;
 *  - 0 and a correct result, where the library recovers by design (the
 *    pinned stager's buffers, dsposv's, dxposv's and dswls's fallback to double,
 *    syrk_diag's cuBLAS composition, the streamed forms' halved blocks, batched
 *    potrf's kernels when the products' workspace cannot be had);
 *  - through the LAPACK shim, whose GPU engine (libgchol_lapack_gpu.so, its
 *    own copy of the library) gets the failure through its test entries
 *    (dlsym): the call redone on the CPU (path 'F', LAPACK's result), or
 *    the documented failure (path 'E', info a gchol status).
 * After each, a normal call on the same queue must be correct (LAPACK's
 * residual ratios < 30). Device routines get a new queue per call (its
 * creation's allocations are counted), host routines the library-owned
 * queue with gchol_finalize between calls, the shim gchol_lapack_finalize.
 * gchol_?potrf_async must allocate nothing on an existing queue.
 *
 * Leaks: after a warm-up call, the device's free memory (cudaMemGetInfo
 * after cudaDeviceSynchronize and trimming the default memory pool) must
 * come back within 2 MiB after 100 failing calls (20 with --quick). CUDA
 * modules load eagerly (CUDA_MODULE_LOADING=EAGER), so that a kernel first
 * run on a fallback path does not count. Pinned host memory is not measured.
 *
 * Without a GPU the GPU cases are skipped; these run on any machine: the
 * wrappers' counting and injection (src/alloc.h), illegal arguments making
 * no allocation, no device making none, the engine's test entries.
 *
 *   testing_alloc_fail [--suite] [--quick]
 */
#define _GNU_SOURCE /* readlink, setenv: alloc_fail.h */
#include "alloc_fail.h"

#include "alloc.h"

enum { KCAP = 64 };
#define SLACK ((int64_t)2 << 20)

static int have_gpu, quick;

/* ---- one routine family ---------------------------------------------------------- */
typedef struct { int dev, host, ok, cpu, err; } tally_t;

/* One call on fresh inputs (seed) with the k-th allocation failing (k = 0:
 * none). *q: the queue of a Q_NEW routine (NULL: one is made, counted
 * with the call). 1 if the outcome is allowed; *injected: the k-th
 * allocation was made (and failed); *count: the allocations counted. */
static int one_call(const family_t *f, int64_t k, uint64_t seed, gchol_queue_t *q, int *injected,
                    int64_t *count, tally_t *t, char *why, size_t len)
{
    prob_t p;
    const int had_queue = *q != NULL;
    if (prob_new(&p, f, seed)) {
        prob_free(&p);
        return bad(why, len, "cannot set up the inputs");
    }
    hooks_set(f, k);
    int64_t st = 0;
    if (where_of(f->r) == Q_NEW && *q == NULL) st = gchol_queue_create(-1, q);
    if (st == 0) st = call(&p, *q);
    *count = alloc_count(f);
    hooks_off(f);
    *injected = k > 0 && *count >= k;
    const char *kind = "?";
    int ok = judge(&p, st, *injected, &kind, why, len);
    if (ok && f->r == POTRF_ASYNC && had_queue && p.own_allocs != 0)
        ok = bad(why, len, "potrf_async allocated %lld times", (long long)p.own_allocs);
    if (t && ok) {
        t->dev += kind[0] == '-' && kind[3] == '1';
        t->host += kind[0] == '-' && kind[3] == '2';
        t->ok += kind[0] == '0';
        t->cpu += kind[0] == 'F';
        t->err += kind[0] == 'E';
    }
    if (!ok) {
        char s[64];
        snprintf(s, sizeof s, " (k = %lld, %lld allocations)", (long long)k, (long long)*count);
        testing_fail_reason(why, len, s);
    }
    prob_free(&p);
    return ok;
}

/* After a call: its queue, the library's and the shim's are freed. */
static void release(const family_t *f, gchol_queue_t *q)
{
    if (*q) gchol_queue_destroy(*q);
    *q = NULL;
    if (where_of(f->r) == Q_SHIM) shim.finalize();
    else gchol_finalize();
}

/* The device's free memory, the default pool trimmed. */
static int64_t device_free(void)
{
    size_t fr = 0, total = 0;
    int dev = 0;
    cudaMemPool_t pool;
    (void)cudaDeviceSynchronize();
    if (cudaGetDevice(&dev) == cudaSuccess && cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess)
        (void)cudaMemPoolTrimTo(pool, 0);
    (void)cudaMemGetInfo(&fr, &total);
    (void)cudaGetLastError();
    return (int64_t)fr;
}

static void run_family(const family_t *f, int nfail)
{
    if (!have_gpu) {
        testing_skip("%-24s allocation failures (no GPU)", f->name);
        return;
    }
    if (where_of(f->r) == Q_SHIM && !shim.ok) {
        testing_expect(0, "%-24s the shim could not be opened", f->name);
        return;
    }
    char why[512] = "";
    tally_t t = { 0 };
    gchol_queue_t q = NULL;
    int injected = 0, k = 1, kfail = 0, fails = 0;
    int64_t allocs = 0, count = 0, leak = 0;
    /* a normal call first: CUDA's and cuBLAS's own memory in place */
    int ok = one_call(f, 0, 1, &q, &injected, &allocs, NULL, why, sizeof why);
    release(f, &q);
    const int64_t free0 = device_free();
    for (; ok && k <= KCAP; ++k) {
        ok = one_call(f, k, 100 + (uint64_t)k, &q, &injected, &count, &t, why, sizeof why);
        if (ok && injected) kfail = k, fails++;
        if (ok) { /* a normal call where that one failed */
            int inj;
            int64_t c;
            ok = one_call(f, 0, 200 + (uint64_t)k, &q, &inj, &c, NULL, why, sizeof why);
            if (!ok) testing_fail_reason(why, sizeof why, "in the normal call after it");
        }
        release(f, &q);
        if (!injected) break;
    }
    if (ok && k > KCAP) ok = bad(why, sizeof why, "no call completed up to k = %d", KCAP);
    for (int i = 0; ok && kfail > 0 && fails < nfail; ++i, ++fails) { /* for the leak check */
        ok = one_call(f, 1 + i % kfail, 300 + (uint64_t)i, &q, &injected, &count, &t, why,
                      sizeof why);
        release(f, &q);
    }
    if (ok) leak = free0 - device_free();
    if (ok && leak > SLACK) ok = bad(why, sizeof why, "%lld bytes of device memory lost", (long long)leak);
    char seen[96] = "", *s = seen;
    const int n[5] = { t.dev, t.host, t.ok, t.cpu, t.err };
    const char *name[5] = { "-101", "-102", "ok", "cpu", "E" };
    for (int i = 0; i < 5; ++i)
        if (n[i]) s += snprintf(s, sizeof seen - (size_t)(s - seen), "%s%s:%d", s > seen ? " " : "", name[i], n[i]);
    char ks[24];
    snprintf(ks, sizeof ks, kfail ? "1..%d" : "-", kfail);
    testing_record(ok ? TESTING_PASSED : TESTING_FAILED);
    printf("  %-24s %6lld  %-8s %5d  %-30s %10lld  %s\n", f->name, (long long)allocs, ks, fails,
           seen, (long long)leak, ok ? "ok" : "FAILED");
    if (!ok) printf("      %s\n", why);
    fflush(stdout);
}

/* ---- without a GPU too --------------------------------------------------------- */
/* Each wrapper with the second of three calls failing: the hook counts
 * three, the second returns out of memory and NULL without calling CUDA;
 * with a GPU, no error is left pending, and a real failure leaves none.
 * (Without a GPU the cuBLAS wrappers make only the injected call: a failed
 * cublasLtCreate leaks its own memory, which the ASan build would report.) */
static void wrappers(void)
{
    static const char *names[5] = { "gchol_dev_malloc", "gchol_dev_malloc_async",
                                    "gchol_host_malloc", "gchol_blas_create",
                                    "gchol_blaslt_create" };
    printf("\n-- the allocation wrappers (src/alloc.h), the 2nd of 3 calls failing --\n");
    for (int w = 0; w < 5; ++w) {
        const int alone = !have_gpu && w >= 3, first = alone ? 1 : 0, last = alone ? 2 : 3;
        const gchol_test_hooks_t h = { .alloc_fail_at = alone ? 1 : 2 };
        gchol_test_hooks_set(&h);
        const int64_t c0 = gchol_test_alloc_count();
        int r[3] = { 0, 0, 0 }, pending = 0;
        void *ptr[3] = { NULL, NULL, NULL };
        for (int i = first; i < last; ++i) {
            ptr[i] = (void *)&h; /* must become NULL on failure */
            switch (w) {
            case 0: r[i] = gchol_dev_malloc(&ptr[i], 64); break;
            case 1: r[i] = gchol_dev_malloc_async(&ptr[i], 64, NULL, 0); break;
            case 2: r[i] = gchol_host_malloc(&ptr[i], 64); break;
            case 3: r[i] = gchol_blas_create((cublasHandle_t *)&ptr[i]); break;
            default: r[i] = gchol_blaslt_create((cublasLtHandle_t *)&ptr[i]); break;
            }
            if (have_gpu) pending |= cudaPeekAtLastError() != cudaSuccess;
            if (r[i] == 0 && ptr[i]) {
                if (w == 0) cudaFree(ptr[i]);
                else if (w == 1) { cudaFreeAsync(ptr[i], 0); cudaStreamSynchronize(0); }
                else if (w == 2) cudaFreeHost(ptr[i]);
                else if (w == 3) cublasDestroy((cublasHandle_t)ptr[i]);
                else cublasLtDestroy((cublasLtHandle_t)ptr[i]);
            }
        }
        const int64_t c = gchol_test_alloc_count();
        gchol_test_hooks_set(NULL);
        const int oom = w < 3 ? cudaErrorMemoryAllocation : CUBLAS_STATUS_ALLOC_FAILED;
        int ok = c0 == 0 && c == last - first && r[1] == oom && ptr[1] == NULL && !pending;
        for (int i = 0; i < 3 && !alone; i += 2) ok &= have_gpu ? r[i] == 0 : r[i] != 0 && ptr[i] == NULL;
        if (alone)
            testing_expect(ok, "%s: the one call injected fails (%d, want %d), 1 counted", names[w],
                           r[1], oom);
        else
            testing_expect(ok, "%s: results %d %d %d (want %s, %d, %s), %lld counted, %s", names[w],
                           r[0], r[1], r[2], have_gpu ? "0" : "an error", oom,
                           have_gpu ? "0" : "an error", (long long)(c - c0),
                           pending ? "an error left pending" : "no error pending");
    }
    if (!have_gpu) {
        testing_skip("a real failed allocation (2^50 bytes) leaves no error pending (no GPU)");
        return;
    }
    void *p = (void *)&p;
    const cudaError_t e = gchol_dev_malloc(&p, (size_t)1 << 50);
    testing_expect(e == cudaErrorMemoryAllocation && p == NULL && cudaPeekAtLastError() == cudaSuccess,
                   "a real failed allocation (2^50 bytes): error %d, no error pending", (int)e);
    (void)cudaGetLastError();
}

/* Illegal arguments are reported before any allocation. */
static void illegal_args(void)
{
    double buf[64];
    float *fb = (float *)buf;
    int64_t info = 0, iter = 0;
    const gchol_queue_t fq = testing_fake_queue();
    gchol_queue_t *none = NULL;
    printf("\n-- illegal arguments: reported before any allocation (k = 1) --\n");
#define ILLEGAL(want, call)                                                                   \
    do {                                                                                      \
        const gchol_test_hooks_t h_ = { .alloc_fail_at = 1 };                                 \
        gchol_test_hooks_set(&h_);                                                            \
        const int64_t st_ = (call);                                                           \
        const int64_t c_ = gchol_test_alloc_count();                                          \
        gchol_test_hooks_set(NULL);                                                           \
        testing_expect(st_ == (want) && c_ == 0, "%-48.48s -> %lld, %lld allocations", #call, \
                       (long long)st_, (long long)c_);                                        \
    } while (0)
    ILLEGAL(GCHOL_ERR_INVALID_VALUE, gchol_queue_create(0, none));
    ILLEGAL(-1, gchol_dpotrf_gpu('X', 4, buf, 4, &info, fq));
    ILLEGAL(-1, gchol_spotrf_async('X', 4, fb, 4, &info, NULL, fq));
    ILLEGAL(-4, gchol_dpotrf('L', 4, buf, 3, &info));
    ILLEGAL(-7, gchol_spotrf_expert('L', 4, fb, 4, &info, NULL, NULL));
    ILLEGAL(-3, gchol_dpotrs_gpu('L', 4, -1, buf, 4, buf, 4, &info, fq));
    ILLEGAL(-7, gchol_spotrs('U', 4, 1, fb, 4, fb, 2, &info));
    ILLEGAL(-1, gchol_dposv('X', 4, 1, buf, 4, buf, 4, &info));
    ILLEGAL(-12, gchol_dsposv_gpu('L', 4, 1, buf, 4, buf, 4, buf, 4, &iter, &info, NULL));
    ILLEGAL(-9, gchol_dsposv('L', 4, 1, buf, 4, buf, 4, buf, 3, &iter, &info));
    ILLEGAL(-1, gchol_dpftrf_gpu('X', 'L', 4, buf, &info, fq));
    ILLEGAL(-2, gchol_spftrf('N', 'X', 4, fb, &info));
    ILLEGAL(-6, gchol_dsyrk_diag_gpu('L', 4, 4, 1.0, buf, 3, buf, 0.0, buf, 4, fq));
    ILLEGAL(-1, gchol_ssyrk_diag('X', 4, 4, 1.0f, fb, 4, fb, 0.0f, fb, 4));
    ILLEGAL(-1, gchol_dwls_gpu('X', 2, 4, 1, buf, 2, buf, buf, 4, buf, 2, buf, 2, &info, fq));
    ILLEGAL(-4, gchol_swls('L', 2, 4, -1, fb, 2, fb, fb, 4, fb, 2, fb, 2, &info));
    ILLEGAL(-1, gchol_dswls_gpu(-1, 4, 1, buf, 2, buf, buf, 4, buf, 2, &iter, &info, fq));
    ILLEGAL(-10, gchol_dswls(2, 4, 1, buf, 2, buf, buf, 4, buf, 1, &iter, &info));
#undef ILLEGAL
}

/* Without a device: reported before any allocation, the host array untouched. */
static void no_device(void)
{
    if (!testing_no_gpu_section("without a device: no allocation, nothing written")) return;
    double A[64], A0[64];
    int64_t info = 0;
    gchol_queue_t q = (gchol_queue_t)A;
    testing_generate_spd('d', 'A', 8, A, 8, 5);
    memcpy(A0, A, sizeof A);
    const gchol_test_hooks_t h = { .alloc_fail_at = 1 };
    gchol_test_hooks_set(&h);
    const int64_t s1 = gchol_queue_create(-1, &q);
    const int64_t s2 = gchol_dpotrf('L', 8, A, 8, &info);
    const int64_t c = gchol_test_alloc_count();
    gchol_test_hooks_set(NULL);
    const int nodev1 = s1 == GCHOL_ERR_NO_DEVICE || s1 == GCHOL_ERR_DRIVER_TOO_OLD;
    const int nodev2 = s2 == GCHOL_ERR_NO_DEVICE || s2 == GCHOL_ERR_DRIVER_TOO_OLD;
    testing_expect(nodev1 && q == NULL && nodev2 && info == s2 && c == 0 &&
                   memcmp(A, A0, sizeof A) == 0,
                   "gchol_queue_create %lld, gchol_dpotrf %lld: %lld allocations, A %s", (long long)s1,
                   (long long)s2, (long long)c, memcmp(A, A0, sizeof A) ? "written" : "untouched");
}

/* The engine's test entries reach its own hooks, not the program's. */
static void engine_entries(void)
{
    printf("\n-- the LAPACK shim's engine: its test entries (dlsym) --\n");
    if (!shim.ok) {
        testing_expect(0, "the shim and its engine (build/lib) open, with the engine's test entries");
        return;
    }
    const gchol_test_hooks_t h = { .alloc_fail_at = 3 };
    gchol_test_hooks_set(NULL);
    shim.hooks_set(&h);
    const int64_t c_engine = shim.alloc_count();
    void *p = (void *)&p;
    const int r = gchol_host_malloc(&p, 64); /* the program's copy: nothing injected */
    if (r == 0) cudaFreeHost(p);
    shim.hooks_set(NULL);
    testing_expect(c_engine == 0 && gchol_test_alloc_count() == 1 && shim.alloc_count() == 0 &&
                   (r == 0) == have_gpu,
                   "%s and %s: the engine's count %lld, the program's %lld", GCHOL_ENGINE_TEST_HOOKS_SET,
                   GCHOL_ENGINE_TEST_ALLOC_COUNT, (long long)c_engine, (long long)gchol_test_alloc_count());
}

int main(int argc, char **argv)
{
    int suite = 0;
    const opt_t opts[] = {
        OPT("--suite", OPT_FLAG, &suite, NULL, "the test suite (the default; make test)"),
        OPT("--quick", OPT_FLAG, &quick, NULL, "double precision only, 20 failing calls per routine"),
        OPT_END
    };
    const opts_program_t prog = { "[--suite] [--quick]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    (void)suite;
    setenv("CUDA_MODULE_LOADING", "EAGER", 0); /* before CUDA starts */
    have_gpu = testing_have_gpu();
    LAPACKE_set_nancheck(0);
    printf("testing_alloc_fail --suite%s  (%s)\n", quick ? " --quick" : "",
           have_gpu ? "GPU present" : "no GPU: the GPU cases are skipped");
    load_shim();
    if (shim.ok) shim.route(GCHOL_LAPACK_GPU, -1, -1);
    wrappers();
    illegal_args();
    no_device();
    engine_entries();

    static const family_t fams[] = {
        { POTRF_GPU, 'd', "dpotrf_gpu", 0, 1 },       { POTRF_GPU, 's', "spotrf_gpu", 0, 0 },
        { POTRF_ASYNC, 'd', "dpotrf_async", 0, 1 },   { POTRF_ASYNC, 's', "spotrf_async", 0, 0 },
        { POTRF_EXPERT, 'd', "dpotrf_expert", 0, 1 }, { POTRF_EXPERT, 's', "spotrf_expert", 0, 0 },
        { POTRF, 'd', "dpotrf", 0, 1 },               { POTRF, 's', "spotrf", 0, 0 },
        { POTRS_GPU, 'd', "dpotrs_gpu", 0, 1 },       { POTRS_GPU, 's', "spotrs_gpu", 0, 0 },
        { POTRS, 'd', "dpotrs", 0, 1 },               { POTRS, 's', "spotrs", 0, 0 },
        { POSV, 'd', "dposv", 0, 1 },                 { POSV, 's', "sposv", 0, 0 },
        { DSPOSV_GPU, 'd', "dsposv_gpu", 0, 1 },      { DSPOSV, 'd', "dsposv", 0, 1 },
        { DXPOSV_GPU, 'd', "dxposv_gpu", 0, 1 },      { DXPOSV, 'd', "dxposv", 0, 1 },
        { POTRF_BATCHED, 'd', "dpotrf_strided_batched", 0, 1 },
        { POTRF_BATCHED, 's', "spotrf_strided_batched", 0, 0 },
        { POTRF_BATCHED, 'd', "dpotrf_strided_batched (cuBLAS)", 7, 1 },
        { PFTRF_GPU, 'd', "dpftrf_gpu", 0, 1 },       { PFTRF_GPU, 's', "spftrf_gpu", 0, 0 },
        { PFTRF, 'd', "dpftrf", 0, 1 },               { PFTRF, 's', "spftrf", 0, 0 },
        { SYRK_GPU, 'd', "dsyrk_diag_gpu", 0, 1 },    { SYRK_GPU, 's', "ssyrk_diag_gpu", 0, 0 },
        { SYRK_GPU, 'd', "dsyrk_diag_gpu (cuBLAS)", 2, 1 },
        { SYRK, 'd', "dsyrk_diag", 0, 1 },            { SYRK, 's', "ssyrk_diag", 0, 0 },
        { WLS_GPU, 'd', "dwls_gpu", 0, 1 },           { WLS_GPU, 's', "swls_gpu", 0, 0 },
        { WLS, 'd', "dwls", 0, 1 },                   { WLS, 's', "swls", 0, 0 },
        { DSWLS_GPU, 'd', "dswls_gpu", 0, 1 },        { DSWLS, 'd', "dswls", 0, 1 },
        { DSWLS_GPU, 'd', "dswls_expert_gpu (FP16)", GCHOL_PRODUCTS_FP16, 1 },
        { SH_POTRF, 'd', "dpotrf_ (shim)", 0, 1 },    { SH_POTRF, 's', "spotrf_ (shim)", 0, 0 },
        { SH_POTRS, 'd', "dpotrs_ (shim)", 0, 1 },    { SH_POSV, 'd', "dposv_ (shim)", 0, 1 },
        { SH_PFTRF, 'd', "dpftrf_ (shim)", 0, 1 },    { SH_DSPOSV, 'd', "dsposv_ (shim)", 0, 1 },
    };
    const int nfail = quick ? 20 : 100;
    printf("\n-- every routine with its k-th allocation failing, k = 1, 2, ... --\n");
    if (have_gpu) {
        printf("  allocs: of a normal call (queue included); k failed: the k whose call failed;\n"
               "  calls: failing calls in all; seen: -101/-102 out of device/host memory, ok\n"
               "  recovered, cpu redone on the CPU, E the shim's failure; leak: device bytes\n"
               "  %-24s %6s  %-8s %5s  %-30s %10s  %s\n", "routine", "allocs", "k failed",
               "calls", "seen", "leak", "check");
    }
    for (int i = 0; i < TESTING_LEN(fams); ++i)
        if (!quick || fams[i].in_quick) run_family(&fams[i], nfail);
    if (have_gpu) gchol_finalize();
    return testing_summary();
}
