/*
 * test_hooks.c -- the internal test entry point (test_hooks.h).
 */
#include "test_hooks.h"

#include "tune/tune.h"

#include <stdatomic.h>

static gchol_test_hooks_t hooks;
static _Atomic int64_t    allocs; /* since the last set */

void gchol_test_hooks_set(const gchol_test_hooks_t *h)
{
    static const gchol_test_hooks_t none;
    hooks = h ? *h : none;
    atomic_store(&allocs, 0);
    gchol_tune_refresh(); /* the tables' copies that carry hooked values */
}

const gchol_test_hooks_t *gchol_test_hooks(void) { return &hooks; }

int64_t gchol_test_alloc_count(void) { return atomic_load(&allocs); }

int gchol_test_alloc_fails(void)
{
    const int64_t k = atomic_fetch_add(&allocs, 1) + 1;
    return hooks.alloc_fail_at > 0 && k == hooks.alloc_fail_at;
}
