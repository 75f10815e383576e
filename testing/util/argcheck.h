/*
 * argcheck.h -- argument checks and quick returns of gchol entry points,
 * generic over the routine: a tester describes each entry point by the role
 * of each of its arguments (in order), and testing_check_arguments() calls it
 * with each illegal argument alone (expecting -i), with all of them at once
 * (-1: the first is reported), with a leading dimension 0 at order 0, and
 * with the quick returns (order 0, nrhs = 0), every time on NaN-filled
 * buffers that must come back unchanged, and *info equal to the return
 * value. With a GPU the buffers are device memory (host memory for host
 * entry points) and the queue is real; without one they are host memory and
 * the queue a fake one that must never be used: these cases run, and pass,
 * on any machine. So does the check of a host-array solve without a GPU.
 */
#ifndef GCHOL_TESTING_ARGCHECK_H
#define GCHOL_TESTING_ARGCHECK_H

#include <stdint.h>

#include "gchol.h"

/* The arguments of one call; an entry's wrapper passes those it takes. The
 * scalars alpha and beta are the wrapper's own (any value is legal). */
typedef struct {
    char          transr, uplo;
    int64_t       m, n, nrhs, ld, ldc;
    void         *A, *d, *C;
    void         *X;        /* dsposv's X (the d buffer) */
    int64_t       ldx;
    int64_t      *iter;
    int64_t      *info;
    const gchol_options_t *opts;
    gchol_queue_t q;
} testing_args_t;

typedef enum {
    R_END = 0, R_TRANSR, R_UPLO, R_M, R_N, R_NRHS, R_ALPHA, R_A, R_LD, R_D, R_BETA, R_C,
    R_LDC, R_INFO, R_OPTS, R_QUEUE, R_X, R_LDX, R_ITER
} testing_role_t;

typedef struct {
    const char    *name;
    int64_t      (*fn)(const testing_args_t *);
    int            host_mem;   /* 1: the arrays are host memory              */
    int            rfp_order;  /* 1: n is the order (RFP routines, solves); 0: m */
    int            nrhs0_runs; /* 1: nrhs = 0 is no quick return (posv still
                                  factors A, as LAPACK's does)               */
    testing_role_t roles[14];  /* argument i is roles[i-1]; R_END ends       */
} testing_entry_t;

/* Runs every check of every entry on `queue` (NULL: a fake queue without a
 * GPU, which the entries must never use), printing one line per case. */
void testing_check_arguments(const testing_entry_t *entries, int count, gchol_queue_t queue);

/* Without a GPU a host-array solve e (uplo, n, nrhs, A, ld, C: B, ldc,
 * info) must report GCHOL_ERR_NO_DEVICE, in *info too, and leave A and B
 * alone: A the SPD matrix of order 8 (testing_generate_spd, seed 3, 'L' in
 * double and 'U' in single; NaN elsewhere, ld 10), B two right-hand sides
 * (the second and the padding NaN). Prints "-- title --" first. With a GPU
 * it does nothing: the suite solves then. */
void testing_check_solve_no_device(char prec, const testing_entry_t *e, const char *title);

#endif /* GCHOL_TESTING_ARGCHECK_H */
