/*
 * lapack_route.c -- the LAPACK shim's routing: which calls go to the GPU,
 * the lookup of the CPU LAPACK behind the shim and the opening of the GPU
 * engine (lapack_engine.h), and the per-thread record of where the last call
 * ran. The routines themselves are in lapack_shim.c.
 */
#define _GNU_SOURCE /* dlsym(RTLD_NEXT), dladdr */
#include "lapack_shim.h"
#include "gchol.h"

#include <dlfcn.h>
#include <link.h> /* dl_iterate_phdr */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h> /* access */

/* Defaults of the routing (GCHOL_LAPACK_MIN_N, GCHOL_LAPACK_MIN_N_SOLVE),
 * from bench_lapack_shim against OpenBLAS on 16 cores of an H100 machine:
 * the GPU's potrf, transfers included, is faster from n = 128 on; its
 * solves, which move the factor's triangle for 2 n^2 nrhs flops, win at
 * every nrhs from n = 2048 in both precisions and lose below. */
enum { kDefaultMinN = 128, kDefaultMinNSolve = 2048 };

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static _Atomic int     route_mode = GCHOL_LAPACK_AUTO;
static _Atomic int64_t route_min_n = kDefaultMinN;
static _Atomic int64_t route_min_n_solve = kDefaultMinNSolve;
static _Atomic int     verbose;
static _Atomic int     no_device;     /* a GPU call found no usable device */
static _Thread_local int last_path;   /* gchol_lapack_path_t               */
static _Thread_local int cpu_depth;   /* > 0 inside a CPU LAPACK call       */
static _Atomic int     warned_no_cpu; /* the one warning was printed       */

static int64_t env_int(const char *name, int64_t dflt)
{
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') return dflt;
    char *end = NULL;
    long long x = strtoll(v, &end, 10);
    if (*end != '\0' || x < 0) {
        fprintf(stderr, "gchol LAPACK shim: ignoring %s=%s (not a count)\n", name, v);
        return dflt;
    }
    return (int64_t)x;
}

static void read_env(void)
{
    const char *m = getenv("GCHOL_LAPACK");
    if (m && *m) {
        if (strcasecmp(m, "gpu") == 0) route_mode = GCHOL_LAPACK_GPU;
        else if (strcasecmp(m, "cpu") == 0) route_mode = GCHOL_LAPACK_CPU;
        else if (strcasecmp(m, "auto") != 0)
            fprintf(stderr, "gchol LAPACK shim: ignoring GCHOL_LAPACK=%s (auto, gpu or cpu)\n", m);
    }
    route_min_n = env_int("GCHOL_LAPACK_MIN_N", kDefaultMinN);
    route_min_n_solve = env_int("GCHOL_LAPACK_MIN_N_SOLVE", kDefaultMinNSolve);
    verbose = env_int("GCHOL_LAPACK_VERBOSE", 0) != 0;
}

void gchol_lapack_route(int mode, int64_t min_n, int64_t min_n_solve)
{
    pthread_once(&env_once, read_env); /* a later first call must not undo this */
    no_device = 0;                     /* and the GPU is tried again */
    if (mode >= GCHOL_LAPACK_AUTO && mode <= GCHOL_LAPACK_CPU) route_mode = mode;
    if (min_n >= 0) route_min_n = min_n;
    if (min_n_solve >= 0) route_min_n_solve = min_n_solve;
}

void gchol_lapack_get_route(int *mode, int64_t *min_n, int64_t *min_n_solve)
{
    pthread_once(&env_once, read_env);
    if (mode) *mode = route_mode;
    if (min_n) *min_n = route_min_n;
    if (min_n_solve) *min_n_solve = route_min_n_solve;
}

int gchol_lapack_last_path(void) { return last_path; }

/* What the routing decides for one call. */
typedef enum {
    SHIM_CPU = 0,        /* the CPU LAPACK (path 'C')                     */
    SHIM_GPU = 1,        /* the GPU                                       */
    SHIM_CPU_NO_GPU = 2  /* the CPU, because no GPU can run it (path 'F') */
} shim_choice_t;

/* nrhs < 0: a factorization (min_n decides); nrhs > 0: a solve (min_n_solve).
 * Without a CPU LAPACK the GPU runs everything it can. */
static shim_choice_t choose(int64_t n, int64_t nrhs, int cpu_found)
{
    pthread_once(&env_once, read_env);
    const int mode = route_mode;
    if (cpu_found) {
        if (mode == GCHOL_LAPACK_CPU || n == 0 || nrhs == 0) return SHIM_CPU;
        if (mode == GCHOL_LAPACK_AUTO && n < (nrhs > 0 ? route_min_n_solve : route_min_n))
            return SHIM_CPU;
    }
    return no_device ? SHIM_CPU_NO_GPU : SHIM_GPU;
}

/* ---- finding the CPU LAPACK ---------------------------------------------- */

/* Libraries tried last, when no loaded object defines the routine (a program
 * linked --as-needed that calls LAPACK only through the shim). */
static const char *const kCpuLibraries[] = { "liblapack.so.3", "libopenblas.so.0",
                                             "libmkl_rt.so.2", "libmkl_rt.so" };
/* The same for the ILP64 symbols (dpotrf_64_): Debian's and Fedora's names. */
static const char *const kCpuLibraries64[] = { "liblapack64.so.3", "libopenblas64.so.0",
                                               "libopenblas64_.so.0" };
static char kMissing; /* cached "not found" */

/* An address inside the shim's own object: static, so that no other object's
 * definition can stand in for it (an exported symbol's address may be). */
static const char kSelfAnchor = 0;

/* Whether f is inside the shim's own object (never the CPU LAPACK). */
static int in_shim(void *f)
{
    Dl_info self, it;
    return dladdr((const void *)&kSelfAnchor, &self) && dladdr(f, &it) &&
           self.dli_fbase == it.dli_fbase;
}

/* The loaded shared objects' names (the program itself left out), copied
 * out first: dlopen must not run inside dl_iterate_phdr's callback. */
enum { kMaxObjects = 512 };
typedef struct { char *names[kMaxObjects]; int count; } objects_t;

static int collect_object(struct dl_phdr_info *info, size_t size, void *p)
{
    (void)size;
    objects_t *o = p;
    if (info->dlpi_name && info->dlpi_name[0] && o->count < kMaxObjects)
        o->names[o->count++] = strdup(info->dlpi_name);
    return 0;
}

/* `name` in an already loaded object other than the shim, or NULL. */
static void *search_loaded(const char *name)
{
    objects_t o = { .count = 0 };
    void *found = NULL;
    dl_iterate_phdr(collect_object, &o);
    for (int i = 0; i < o.count; ++i) {
        void *h = (found || !o.names[i]) ? NULL : dlopen(o.names[i], RTLD_LAZY | RTLD_NOLOAD);
        if (h) {
            void *f = dlsym(h, name);
            if (f && !in_shim(f)) found = f;
            dlclose(h); /* NOLOAD: only drops the reference it took */
        }
        free(o.names[i]);
    }
    return found;
}

/* GCHOL_LAPACK_CPU_LIB if set; else the next definition after the shim
 * (RTLD_NEXT: what the program would have called); else any loaded object
 * (RTLD_NEXT does not see them from a library loaded with dlopen, as Python,
 * R or MATLAB extensions are); else a system LAPACK opened now. */
static void *find_cpu(const char *name, int warn)
{
    const char *lib = getenv("GCHOL_LAPACK_CPU_LIB");
    void *f = NULL;
    if (lib && *lib) {
        void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
        f = h ? dlsym(h, name) : NULL;
        if (f && !in_shim(f)) return f;
        if (warn)
            fprintf(stderr, "gchol LAPACK shim: GCHOL_LAPACK_CPU_LIB=%s does not define %s (%s)\n",
                    lib, name, h ? "no such symbol" : dlerror());
    }
    f = dlsym(RTLD_NEXT, name);
    if (f && !in_shim(f)) return f;
    if ((f = search_loaded(name)) != NULL) return f;
    const size_t len = strlen(name);
    const int ilp64 = len > 4 && strcmp(name + len - 4, "_64_") == 0;
    const char *const *libs = ilp64 ? kCpuLibraries64 : kCpuLibraries;
    const size_t nlibs = ilp64 ? sizeof kCpuLibraries64 / sizeof *kCpuLibraries64
                               : sizeof kCpuLibraries / sizeof *kCpuLibraries;
    for (size_t i = 0; i < nlibs; ++i) {
        void *h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL); /* kept open */
        f = h ? dlsym(h, name) : NULL;
        if (f && !in_shim(f)) return f;
    }
    return NULL;
}

static void *cpu_symbol(void *_Atomic *slot, const char *name, int warn)
{
    void *f = atomic_load(slot);
    if (f == NULL) {
        pthread_once(&env_once, read_env);
        f = find_cpu(name, warn);
        if (f == NULL && warn && !atomic_exchange(&warned_no_cpu, 1))
            fprintf(stderr, "gchol LAPACK shim: no CPU LAPACK defines %s (set "
                            "GCHOL_LAPACK_CPU_LIB); such calls run on the GPU only\n", name);
        atomic_store(slot, f ? f : (void *)&kMissing);
    }
    return f == (void *)&kMissing ? NULL : f;
}
void *gchol_lapack_cpu_symbol(void *_Atomic *slot, const char *name)
{
    return cpu_symbol(slot, name, 1);
}
void *gchol_lapack_cpu_symbol_quiet(void *_Atomic *slot, const char *name)
{
    return cpu_symbol(slot, name, 0);
}

/* ---- opening the GPU engine ----------------------------------------------- */

static const char kEngineName[] = "libgchol_lapack_gpu.so";
static pthread_once_t engine_once = PTHREAD_ONCE_INIT;
static const gchol_lapack_engine_t *_Atomic engine; /* NULL: not open (yet) */
static char engine_beside[4096];                    /* the engine's path beside the shim */

/* Where the engine sits beside the shim, taken while the shim is loaded: its
 * file name may be relative to the directory the program starts in (a
 * relative LD_PRELOAD), which the program may leave before its first GPU
 * call; realpath also follows a symlink to the installed file. */
__attribute__((constructor)) static void find_engine_beside(void)
{
    Dl_info self;
    char real[4096];
    if (!dladdr((const void *)&kSelfAnchor, &self) || !self.dli_fname ||
        !realpath(self.dli_fname, real))
        return;
    const char *slash = strrchr(real, '/');
    if (slash && (size_t)(slash - real) + sizeof kEngineName + 1 < sizeof engine_beside)
        snprintf(engine_beside, sizeof engine_beside, "%.*s/%s", (int)(slash - real), real,
                 kEngineName);
}

/* The engine's table from the library at `path`, or NULL with *why set (a
 * rejected library is closed again, so that it maps nothing for nothing). */
static const gchol_lapack_engine_t *open_engine(const char *path, char *why, size_t len)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL); /* kept open */
    if (h == NULL) {
        snprintf(why, len, "%s", dlerror());
        return NULL;
    }
    gchol_lapack_engine_fn *get = (gchol_lapack_engine_fn *)dlsym(h, GCHOL_LAPACK_ENGINE_SYMBOL);
    const gchol_lapack_engine_t *e = get ? get() : NULL;
    if (e == NULL || e->version != GCHOL_LAPACK_ENGINE_VERSION) {
        snprintf(why, len, "%s: %s", path, e ? "another version of the engine" : "not an engine");
        dlclose(h);
        return NULL;
    }
    return e;
}

/* GCHOL_LAPACK_GPU_LIB if set; else libgchol_lapack_gpu.so beside the shim
 * (as installed and as built) if that file exists, else wherever dlopen
 * finds it (LD_LIBRARY_PATH, the shim's $ORIGIN, the loader's cache). Once
 * per process: an engine that cannot be opened is said once on stderr, and
 * the calls then run on the CPU LAPACK for the rest of the process. */
static void load_engine(void)
{
    char why[768] = "";
    const gchol_lapack_engine_t *e = NULL;
    const char *lib = getenv("GCHOL_LAPACK_GPU_LIB");
    if (lib && *lib)
        e = open_engine(lib, why, sizeof why);
    else if (engine_beside[0] && access(engine_beside, F_OK) == 0)
        e = open_engine(engine_beside, why, sizeof why); /* its own error, if it fails */
    else
        e = open_engine(kEngineName, why, sizeof why);
    if (e == NULL)
        fprintf(stderr, "gchol LAPACK shim: cannot open the GPU engine (%s); the calls run on the "
                        "CPU LAPACK\n", why);
    atomic_store(&engine, e);
}

static const gchol_lapack_engine_t *gpu_engine(void)
{
    pthread_once(&engine_once, load_engine);
    return atomic_load(&engine);
}

static double clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The caller's info, LP64 or ILP64. */
static void set_info(const shim_call_t *c, int64_t v)
{
    if (c->info64) *c->info64 = v;
    else *c->info = (int)v;
}
static long long get_info(const shim_call_t *c)
{
    return c->info64 ? (long long)*c->info64 : (long long)*c->info;
}

/* Records the path and, with GCHOL_LAPACK_VERBOSE, prints one line. */
static void done(const shim_call_t *c, int path, double t0)
{
    last_path = path;
    if (!verbose) return;
    const char *where = path == GCHOL_LAPACK_RAN_GPU ? "gpu"
                      : path == GCHOL_LAPACK_RAN_CPU ? "cpu"
                      : path == GCHOL_LAPACK_RAN_FALLBACK ? "cpu (gpu unavailable)" : "failed";
    fprintf(stderr, "gchol LAPACK shim: %s n=%lld", c->routine, (long long)c->n);
    if (c->nrhs >= 0) fprintf(stderr, " nrhs=%lld", (long long)c->nrhs);
    fprintf(stderr, " info=%lld %s %.6f s\n", get_info(c), where, clock_now() - t0);
}

/* The CPU LAPACK routine; the calls it makes back into the shim's symbols
 * (OpenBLAS's dsposv calls spotrf_, its dpftrf dpotrf_) go straight to the
 * CPU as well. */
static void run_cpu(const shim_call_t *c)
{
    ++cpu_depth;
    c->run_cpu(c->args);
    --cpu_depth;
}

void gchol_lapack_dispatch(const shim_call_t *c)
{
    const int cpu_found = c->run_cpu != NULL;
    if (cpu_depth > 0 && cpu_found) { /* inside a CPU LAPACK call: no routing, no record */
        c->run_cpu(c->args);
        return;
    }
    const double t0 = clock_now();
    if (c->bad_arg) {
        if (cpu_found) {
            run_cpu(c);
        } else {
            /* the message of LAPACK's reference xerbla, which would have printed it */
            fprintf(stderr, " ** On entry to %s parameter number %2d had an illegal value\n",
                    c->routine, c->bad_arg);
            set_info(c, -c->bad_arg);
        }
        done(c, GCHOL_LAPACK_RAN_CPU, t0);
        return;
    }
    if (!cpu_found && (c->n == 0 || c->nrhs == 0)) { /* LAPACK's quick return */
        set_info(c, 0);
        done(c, GCHOL_LAPACK_RAN_CPU, t0);
        return;
    }
    shim_choice_t choice = choose(c->n, c->nrhs, cpu_found);
    if (choice == SHIM_GPU) {
        const gchol_lapack_engine_t *e = gpu_engine();
        int64_t st = GCHOL_ERR_NO_DEVICE;
        int written = 0;
        if (e != NULL) {
            int *flag = e->inout_written(); /* this thread's */
            *flag = 0;
            st = c->run_gpu(e, c->args);
            written = *flag;
        }
        if (st > GCHOL_ERR_NO_DEVICE) { /* 0, k > 0, or -i for what LAPACK lets pass */
            set_info(c, st);
            done(c, GCHOL_LAPACK_RAN_GPU, t0);
            return;
        }
        if (st == GCHOL_ERR_NO_DEVICE || st == GCHOL_ERR_DRIVER_TOO_OLD) no_device = 1;
        const char *why = e ? e->strerror(st) : "no GPU engine";
        if (written || !cpu_found) {
            fprintf(stderr, "gchol LAPACK shim: %s failed on the GPU%s: %s (info = %lld)\n",
                    c->routine, cpu_found ? " after it had written part of its input arrays" : "",
                    why, (long long)st);
            set_info(c, st);
            done(c, GCHOL_LAPACK_RAN_FAILED, t0);
            return;
        }
        if (verbose)
            fprintf(stderr, "gchol LAPACK shim: %s on the GPU: %s; redone on the CPU\n",
                    c->routine, why);
        choice = SHIM_CPU_NO_GPU;
    }
    if (!cpu_found) { /* no GPU either */
        fprintf(stderr, "gchol LAPACK shim: %s has neither a GPU nor a CPU LAPACK to run on\n",
                c->routine);
        set_info(c, GCHOL_ERR_NO_DEVICE);
        done(c, GCHOL_LAPACK_RAN_FAILED, t0);
        return;
    }
    run_cpu(c);
    done(c, choice == SHIM_CPU ? GCHOL_LAPACK_RAN_CPU : GCHOL_LAPACK_RAN_FALLBACK, t0);
}

/* Frees what the engine holds on the device; does not open it. */
void gchol_lapack_finalize(void)
{
    const gchol_lapack_engine_t *e = atomic_load(&engine);
    if (e != NULL) e->finalize();
}
