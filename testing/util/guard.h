/*
 * guard.h -- host arrays placed against inaccessible pages, so that a
 * routine reading or writing a host array one byte outside it is caught.
 *
 * LAPACK's extent of an m x n array with leading dimension ld is
 * ld*(n-1) + m elements: the last column has no padding rows. A routine that
 * copies ld*n elements, or rounds a size up, reads past a legal caller's
 * array; heap arrays hide that (the bytes after them are usually mapped).
 * testing_guard_alloc puts the array's last byte just before a PROT_NONE page
 * (TESTING_GUARD_TAIL) or its first byte just after one (TESTING_GUARD_HEAD);
 * the rest of its pages is filled with a byte pattern, checked by
 * testing_guard_slack_ok (a write that stays inside the page).
 *
 * A touch of a guard page raises SIGSEGV (or makes a CUDA copy fail, when the
 * driver pins the pages). testing_guard_trap installs a handler that prints
 * "FAILED <label>: touched a guard page? SIGSEGV at <address>, the guard page
 * after array ... (k bytes past its end)", the SUMMARY line with that
 * failure counted, and exits: run_tests.sh then counts it as failed.
 */
#ifndef GCHOL_TESTING_GUARD_H
#define GCHOL_TESTING_GUARD_H

#include <stddef.h>

enum { TESTING_GUARD_TAIL = 0, TESTING_GUARD_HEAD = 1 };

/* bytes >= 1; NULL when mmap fails. At most 64 arrays live at once. */
void *testing_guard_alloc(size_t bytes, int where);

/* 1 when the bytes of the array's pages outside the array are untouched. */
int testing_guard_slack_ok(const void *p);

/* Frees an array of testing_guard_alloc (NULL is a no-op). */
void testing_guard_free(void *p);

/* Installs the SIGSEGV / SIGBUS handler (once). */
void testing_guard_trap(void);

/* Names the case now running, for the handler's message (printf format). */
void testing_guard_label(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* GCHOL_TESTING_GUARD_H */
