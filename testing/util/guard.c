/*
 * guard.c -- host arrays against inaccessible pages (see the header).
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, SA_SIGINFO */

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"
#include "guard.h"

enum { kMaxArrays = 64, kPattern = 0xA5 };

typedef struct {
    unsigned char *base;  /* the mapping: guard page, data pages, guard page */
    size_t         len;
    unsigned char *p;     /* the array */
    size_t         bytes;
} guarded_t;

static guarded_t g_arrays[kMaxArrays];
static char      g_label[256] = "(no case)";
static size_t    g_page; /* cached outside the handler (sysconf is not async-signal-safe) */

static size_t page_size(void)
{
    if (g_page == 0) g_page = (size_t)sysconf(_SC_PAGESIZE);
    return g_page;
}

void *testing_guard_alloc(size_t bytes, int where)
{
    const size_t pg = page_size(), data = (bytes + pg - 1) / pg * pg;
    if (bytes == 0) return NULL;
    int slot = 0;
    while (slot < kMaxArrays && g_arrays[slot].base) slot++;
    if (slot == kMaxArrays) return NULL;
    unsigned char *base = mmap(NULL, data + 2 * pg, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
    if (mprotect(base, pg, PROT_NONE) != 0 || mprotect(base + pg + data, pg, PROT_NONE) != 0) {
        munmap(base, data + 2 * pg);
        return NULL;
    }
    memset(base + pg, kPattern, data);
    unsigned char *p = where == TESTING_GUARD_HEAD ? base + pg : base + pg + data - bytes;
    g_arrays[slot] = (guarded_t){ base, data + 2 * pg, p, bytes };
    return p;
}

static guarded_t *find(const void *p)
{
    for (int i = 0; i < kMaxArrays; i++)
        if (g_arrays[i].base && g_arrays[i].p == p) return &g_arrays[i];
    return NULL;
}

int testing_guard_slack_ok(const void *p)
{
    const guarded_t *g = find(p);
    if (g == NULL) return 0;
    const size_t pg = page_size();
    for (const unsigned char *c = g->base + pg; c < g->p; c++)
        if (*c != kPattern) return 0;
    for (const unsigned char *c = g->p + g->bytes; c < g->base + g->len - pg; c++)
        if (*c != kPattern) return 0;
    return 1;
}

void testing_guard_free(void *p)
{
    guarded_t *g = p ? find(p) : NULL;
    if (g == NULL) return;
    munmap(g->base, g->len);
    memset(g, 0, sizeof *g);
}

void testing_guard_label(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_label, sizeof g_label, fmt, ap);
    va_end(ap);
}

/* --- the handler: write(2) only, no stdio --- */
static void put(const char *s) { ssize_t r = write(1, s, strlen(s)); (void)r; }

static void put_u64(uint64_t v, int base)
{
    char b[24];
    int i = sizeof b;
    b[--i] = '\0';
    do { b[--i] = "0123456789abcdef"[v % (uint64_t)base]; v /= (uint64_t)base; } while (v && i > 0);
    put(b + i);
}

static void on_fault(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    const unsigned char *a = si->si_addr;
    const size_t pg = page_size();
    put("  FAILED  ");
    put(g_label);
    put(sig == SIGBUS ? ": touched a guard page? SIGBUS at 0x" : ": touched a guard page? SIGSEGV at 0x");
    put_u64((uint64_t)(uintptr_t)a, 16);
    for (int i = 0; i < kMaxArrays; i++) {
        const guarded_t *g = &g_arrays[i];
        if (!g->base) continue;
        if (a >= g->base && a < g->base + pg) {
            put(", the guard page before array 0x");
            put_u64((uint64_t)(uintptr_t)g->p, 16);
            put(" (");
            put_u64((uint64_t)(g->p - a), 10);
            put(" bytes before its start)");
        } else if (a >= g->base + g->len - pg && a < g->base + g->len) {
            put(", the guard page after array 0x");
            put_u64((uint64_t)(uintptr_t)g->p, 16);
            put(" of ");
            put_u64((uint64_t)g->bytes, 10);
            put(" bytes (");
            put_u64((uint64_t)(a - (g->p + g->bytes)), 10);
            put(" bytes past its end)");
        }
    }
    put("\nSUMMARY passed=");
    put_u64((uint64_t)testing_count(TESTING_PASSED), 10);
    put(" failed=");
    put_u64((uint64_t)testing_count(TESTING_FAILED) + 1, 10);
    put(" skipped=");
    put_u64((uint64_t)testing_count(TESTING_SKIPPED), 10);
    put("\n");
    _exit(1);
}

void testing_guard_trap(void)
{
    static int installed;
    if (installed) return;
    (void)page_size(); /* the handler reads the cached value */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    installed = 1;
}
