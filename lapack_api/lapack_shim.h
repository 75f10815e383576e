/*
 * lapack_shim.h -- what the LAPACK shim's routines (lapack_shim.c, compiled
 * once per precision) share with its routing (lapack_route.c). Not installed.
 */
#ifndef GCHOL_LAPACK_SHIM_H
#define GCHOL_LAPACK_SHIM_H

#include "gchol_lapack.h"
#include "lapack_engine.h"

#include <stdint.h>

/* One call of a LAPACK routine, as the shim's dispatcher sees it (LP64
 * dpotrf_ or ILP64 dpotrf_64_: the integers are widened here). */
typedef struct {
    const char *routine;           /* "DPOTRF"                                */
    int         bad_arg;           /* LAPACK's first illegal argument, or 0   */
    int64_t     n, nrhs;           /* nrhs < 0: a factorization (min_n), else
                                      a solve (min_n_solve); 0: CPU           */
    int64_t   (*run_gpu)(const gchol_lapack_engine_t *, void *);
                                   /* gchol's host form: its status           */
    void      (*run_cpu)(void *);  /* the CPU LAPACK routine; NULL if none    */
    void       *args;
    int        *info;              /* the caller's info: LP64 ...           */
    int64_t    *info64;            /* ... or ILP64 (the other one NULL)     */
} shim_call_t;

/* Runs the call where the routing sends it: the CPU LAPACK for an illegal
 * argument (its xerbla, its info), for small sizes and in mode 'cpu'; else
 * the GPU, and the CPU again if the GPU could not run it before writing any
 * input array. Records the path (gchol_lapack_last_path). */
void gchol_lapack_dispatch(const shim_call_t *call);

/* The CPU LAPACK's routine `name` ("dpotrf_"): the next definition after the
 * shim in the symbol search order, or NULL if there is none; looked up once
 * into *slot. */
void *gchol_lapack_cpu_symbol(void *_Atomic *slot, const char *name);
/* The same, without the one warning when no CPU LAPACK defines `name` (an
 * ILP64 symbol, name_64_, which most CPU LAPACKs do not have). */
void *gchol_lapack_cpu_symbol_quiet(void *_Atomic *slot, const char *name);

#endif
