/*
 * util.c -- results and the SUMMARY line, precision helpers, time, size
 * lists, random numbers and the host thread pool of the testing library
 * (util.h). Needs neither gchol nor CUDA (testing_host_stage links it
 * alone).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <float.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* ===========================================================================
 * Results.
 * ========================================================================= */
static int64_t g_count[3]; /* indexed by testing_result_t */

testing_result_t testing_record(testing_result_t result)
{
    g_count[result]++;
    return result;
}

int64_t testing_count(testing_result_t result) { return g_count[result]; }

const char *testing_result_name(testing_result_t result)
{
    return result == TESTING_PASSED ? "ok"
         : result == TESTING_FAILED ? "FAILED" : "skipped";
}

/* Prints "  <result> <what>" and records the result. */
static testing_result_t report(testing_result_t r, const char *fmt, va_list ap)
{
    printf("  %-7s ", testing_result_name(r));
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    return testing_record(r);
}

testing_result_t testing_expect(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    testing_result_t r = report(cond ? TESTING_PASSED : TESTING_FAILED, fmt, ap);
    va_end(ap);
    return r;
}

testing_result_t testing_skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    testing_result_t r = report(TESTING_SKIPPED, fmt, ap);
    va_end(ap);
    return r;
}

int testing_summary(void)
{
    printf("SUMMARY passed=%lld failed=%lld skipped=%lld\n",
           (long long)g_count[TESTING_PASSED], (long long)g_count[TESTING_FAILED],
           (long long)g_count[TESTING_SKIPPED]);
    fflush(stdout);
    return g_count[TESTING_FAILED] ? 1 : 0;
}

static int64_t g_part_index, g_part_count = 1, g_part_cases;

int testing_parse_part(const char *text)
{
    long i = -1, k = 0;
    char tail = 0;
    if (!text || sscanf(text, "%ld/%ld%c", &i, &k, &tail) != 2 || k < 1 || i < 0 || i >= k)
        return -1;
    g_part_index = i;
    g_part_count = k;
    return 0;
}

int testing_case_in_part(void)
{
    return g_part_cases++ % g_part_count == g_part_index;
}

void testing_fail_reason(char *why, size_t size, const char *reason)
{
    size_t len = strlen(why);
    if (len < size)
        snprintf(why + len, size - len, "%s%s", len ? ", " : "", reason);
}

/* ===========================================================================
 * Precision, time, lists, names.
 * ========================================================================= */
size_t testing_elsize(char prec) { return prec == 's' ? sizeof(float) : sizeof(double); }

double testing_eps(char prec) { return prec == 's' ? (double)FLT_EPSILON / 2 : DBL_EPSILON / 2; }

const char *testing_prec_name(char prec) { return prec == 's' ? "single" : "double"; }

double testing_get(char prec, const void *A, int64_t lda, int64_t i, int64_t j)
{
    return prec == 's' ? (double)((const float *)A)[i + j * lda]
                       : ((const double *)A)[i + j * lda];
}

void testing_set(char prec, void *A, int64_t lda, int64_t i, int64_t j, double v)
{
    if (prec == 's')
        ((float *)A)[i + j * lda] = (float)v;
    else
        ((double *)A)[i + j * lda] = v;
}

void *testing_malloc(size_t bytes) { return malloc(bytes > 0 ? bytes : 1); }

double testing_wtime(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double testing_median(double *v, int64_t count)
{
    if (count < 1)
        return 0.0;
    qsort(v, (size_t)count, sizeof(double), cmp_double);
    return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

void *testing_grow(void *v, int64_t count, int64_t *cap, size_t size)
{
    if (count < *cap)
        return v;
    *cap = *cap ? 2 * *cap : 256;
    v = realloc(v, (size_t)*cap * size);
    if (!v) {
        printf("out of memory\n");
        exit(1);
    }
    return v;
}

/* Parses one decimal integer; *end is set past it. */
static int parse_int(const char *s, const char **end, int64_t *value)
{
    char *e;
    errno = 0;
    long long v = strtoll(s, &e, 10);
    if (e == s || errno)
        return -1;
    *value = (int64_t)v;
    *end = e;
    return 0;
}

/* Appends v to a growing array. */
static int push(int64_t **a, int64_t *count, int64_t *cap, int64_t v)
{
    if (*count == *cap) {
        int64_t ncap = *cap ? 2 * *cap : 16;
        int64_t *b = realloc(*a, (size_t)ncap * sizeof(int64_t));
        if (!b)
            return -1;
        *a = b;
        *cap = ncap;
    }
    (*a)[(*count)++] = v;
    return 0;
}

int testing_parse_list(const char *spec, int doubling, int64_t **sizes, int64_t *count)
{
    int64_t *a = NULL, cap = 0, cnt = 0;
    const char *p = spec;
    *sizes = NULL;
    *count = 0;
    if (!spec || !*spec)
        return -1;
    for (;;) {
        int64_t start, stop, step = 0;
        const char *e;
        if (parse_int(p, &e, &start) || start < 0)
            goto bad;
        stop = start;
        if (*e == ':') {
            if (parse_int(e + 1, &e, &stop) || stop < start)
                goto bad;
            if (*e == ':' && (parse_int(e + 1, &e, &step) || step <= 0))
                goto bad;
        }
        if (step == 0 && !doubling)
            step = 1;
        /* v steps by step, or doubles (0 to 1); it stops before passing stop,
           without computing a value beyond it (no overflow near INT64_MAX) */
        for (int64_t v = start;; ) {
            const int64_t gap = step ? step : (v ? v : 1);
            if (push(&a, &cnt, &cap, v))
                goto bad;
            if (v > stop - gap)
                break;
            v += gap;
        }
        if (*e == '\0')
            break;
        if (*e != ',')
            goto bad;
        p = e + 1;
    }
    *sizes = a;
    *count = cnt;
    return 0;
bad:
    free(a);
    return -1;
}

int testing_parse_sizes(const char *spec, int64_t **sizes, int64_t *count)
{
    return testing_parse_list(spec, 0, sizes, count);
}

int64_t testing_parse_shapes(const char *spec, int64_t **ms, int64_t **ns)
{
    int64_t *m = NULL, *n = NULL, cm = 0, cn = 0, capm = 0, capn = 0;
    const char *p = spec;
    *ms = *ns = NULL;
    if (!spec || !*spec)
        return -1;
    for (;;) {
        int64_t mv, nv;
        const char *e;
        if (parse_int(p, &e, &mv) || mv < 1 || (*e != ':' && *e != 'x'))
            goto bad;
        if (parse_int(e + 1, &e, &nv) || nv < 1)
            goto bad;
        if (push(&m, &cm, &capm, mv) || push(&n, &cn, &capn, nv))
            goto bad;
        if (*e == '\0')
            break;
        if (*e != ',')
            goto bad;
        p = e + 1;
    }
    *ms = m;
    *ns = n;
    return cm;
bad:
    free(m);
    free(n);
    return -1;
}

int testing_is_subset(const char *text, const char *allowed)
{
    if (!text || *text == '\0')
        return 0;
    for (; *text; ++text)
        if (strchr(allowed, *text) == NULL)
            return 0;
    return 1;
}

/* ===========================================================================
 * Random numbers.
 * ========================================================================= */

/* splitmix64 finalizer. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* 53 random bits to uniform(-1, 1). */
static double bits_to_uniform(uint64_t x)
{
    return 2.0 * ((double)(x >> 11) * 0x1.0p-53) - 1.0;
}

void testing_rng_seed(testing_rng_t *rng, uint64_t seed) { rng->state = seed; }

uint64_t testing_rng_next(testing_rng_t *rng)
{
    rng->state += 0x9E3779B97F4A7C15ull;
    return mix64(rng->state);
}

double testing_rng_uniform(testing_rng_t *rng) { return bits_to_uniform(testing_rng_next(rng)); }

double testing_hash_uniform(uint64_t seed, int64_t i, int64_t j)
{
    uint64_t key = mix64(seed + 0x9E3779B97F4A7C15ull)
                 ^ ((uint64_t)i * 0xD6E8FEB86659FD93ull)
                 ^ ((uint64_t)j * 0xC2B2AE3D27D4EB4Full + 0x165667B19E3779F9ull);
    return bits_to_uniform(mix64(key));
}

/* ===========================================================================
 * Host thread pool.
 * ========================================================================= */
typedef struct {
    void  (*fn)(void *arg, int64_t begin, int64_t end);
    void   *arg;
    int64_t begin, end;
} chunk_t;

static void *chunk_run(void *p)
{
    chunk_t *c = p;
    c->fn(c->arg, c->begin, c->end);
    return NULL;
}

void testing_parallel_for(int64_t count, void (*fn)(void *arg, int64_t begin, int64_t end),
                          void *arg)
{
    enum { MAX_THREADS = 256, MIN_PER_THREAD = 16 };
    long ncores = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t nthreads = ncores < 1 ? 1 : (ncores > MAX_THREADS ? MAX_THREADS : ncores);
    if (nthreads > count / MIN_PER_THREAD)
        nthreads = count / MIN_PER_THREAD;
    if (nthreads <= 1) {
        if (count > 0)
            fn(arg, 0, count);
        return;
    }
    pthread_t threads[MAX_THREADS];
    chunk_t   chunks[MAX_THREADS];
    int       started[MAX_THREADS];
    for (int64_t t = 0; t < nthreads; ++t) {
        chunks[t] = (chunk_t){ fn, arg, count * t / nthreads, count * (t + 1) / nthreads };
        started[t] = pthread_create(&threads[t], NULL, chunk_run, &chunks[t]) == 0;
        if (!started[t])
            chunk_run(&chunks[t]); /* no thread: do it here */
    }
    for (int64_t t = 0; t < nthreads; ++t)
        if (started[t])
            pthread_join(threads[t], NULL);
}
