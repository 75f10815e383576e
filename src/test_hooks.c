/*
 * test_hooks.c -- the internal test entry point (test_hooks.h).
 */
#include "test_hooks.h"

#include "tune/tune.h"

static gchol_test_hooks_t hooks;

void gchol_test_hooks_set(const gchol_test_hooks_t *h)
{
    static const gchol_test_hooks_t none;
    hooks = h ? *h : none;
    gchol_tune_refresh(); /* the tables' copies that carry hooked values */
}

const gchol_test_hooks_t *gchol_test_hooks(void) { return &hooks; }
