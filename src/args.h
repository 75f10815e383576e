/*
 * args.h -- the argument checks that several routines share, in LAPACK's
 * order: 0 or -i for the first illegal argument i. Not installed.
 */
#ifndef GCHOL_ARGS_H
#define GCHOL_ARGS_H

#include <stddef.h>
#include <stdint.h>

static inline int gchol_uplo_valid(char uplo)
{
    return uplo == 'L' || uplo == 'l' || uplo == 'U' || uplo == 'u';
}
static inline int gchol_uplo_is_upper(char uplo) { return uplo == 'U' || uplo == 'u'; }

/* RFP's transr: 'N' (normal) or 'T' (transposed), either case. */
static inline int gchol_transr_valid(char t)
{
    return t == 'N' || t == 'n' || t == 'T' || t == 't';
}
static inline int gchol_transr_is_trans(char t) { return t == 'T' || t == 't'; }

/* The argument checks that LAPACK's ?potrs, ?posv and dsposv share: uplo (1),
 * n (2), nrhs (3), A (4), lda (5), B (6), ldb (7); 0 or -i. A and B may be
 * NULL only where the sizes leave them unused. The callers check the rest. */
static inline int64_t gchol_check_solve_args(char uplo, int64_t n, int64_t nrhs, const void *A,
                                             int64_t lda, const void *B, int64_t ldb)
{
    const int64_t ldmin = n > 1 ? n : 1;
    if (!gchol_uplo_valid(uplo)) return -1;
    if (n < 0) return -2;
    if (nrhs < 0) return -3;
    if (n > 0 && A == NULL) return -4;
    if (lda < ldmin) return -5;
    if (n > 0 && nrhs > 0 && B == NULL) return -6;
    if (ldb < ldmin) return -7;
    return 0;
}

/* The argument checks of syrk_diag (rfp = 0) and sfrk_diag (rfp = 1), device
 * and host forms, in their order: full uplo (1), m (2), n (3), alpha (4),
 * A (5), lda (6), d (7), beta (8), C (9), ldc (10); RFP has transr first and
 * no ldc, so its arguments 2-10 are the full form's 1-9. 0 or -i; the device
 * forms check their queue (11) after. A may be NULL where the sizes or
 * alpha = 0 leave it unread, C where m = 0. */
static inline int64_t gchol_check_syrk_diag_args(int rfp, char transr, char uplo, int64_t m,
                                                 int64_t n, int alpha_nonzero, const void *A,
                                                 int64_t lda, const void *C, int64_t ldc)
{
    const int64_t s = rfp ? 1 : 0, mmin = m > 1 ? m : 1;
    if (rfp && !gchol_transr_valid(transr)) return -1;
    if (!gchol_uplo_valid(uplo)) return -(1 + s);
    if (m < 0) return -(2 + s);
    if (n < 0) return -(3 + s);
    if (m > 0 && n > 0 && alpha_nonzero && A == NULL) return -(5 + s);
    if (lda < mmin) return -(6 + s);
    if (m > 0 && C == NULL) return -(9 + s);
    if (!rfp && ldc < mmin) return -10;
    return 0;
}

#endif
