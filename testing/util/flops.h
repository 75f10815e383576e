/*
 * flops.h -- floating-point operation counts of the gchol routines, as the
 * testers and benchmarks report rates (LAPACK / MAGMA timing conventions:
 * one multiply-add is two operations, lower-order terms kept where LAPACK's
 * count has them). All in double, so that large sizes do not overflow.
 */
#ifndef GCHOL_TESTING_FLOPS_H
#define GCHOL_TESTING_FLOPS_H

#include <stdint.h>

/* ?potrf and ?pftrf of order n: n^3/3 + n^2/2 + n/6. */
static inline double testing_flops_potrf(int64_t n)
{
    const double x = (double)n;
    return x * x * x / 3.0 + x * x / 2.0 + x / 6.0;
}

/* ?potrs and ?pftrs: two triangular solves with nrhs right-hand sides. */
static inline double testing_flops_potrs(int64_t n, int64_t nrhs)
{
    return 2.0 * (double)n * (double)n * (double)nrhs;
}

/* ?posv: the factorization and the solves. */
static inline double testing_flops_posv(int64_t n, int64_t nrhs)
{
    return testing_flops_potrf(n) + testing_flops_potrs(n, nrhs);
}

/* ?syrk_diag / ?sfrk_diag (C = A D^2 A^T, A m x n): cuBLAS's syrk count,
 * n m (m + 1) (the m n products by D are not counted). */
static inline double testing_flops_syrk_diag(int64_t m, int64_t n)
{
    return (double)n * (double)m * ((double)m + 1.0);
}

/* ?gemm, m x n x k. */
static inline double testing_flops_gemm(int64_t m, int64_t n, int64_t k)
{
    return 2.0 * (double)m * (double)n * (double)k;
}

/* ?wls (A m x n, nrhs columns): C = A D^2 A^T, its factorization, the right
 * side A D^2 B and the solves. */
static inline double testing_flops_wls(int64_t m, int64_t n, int64_t nrhs)
{
    return testing_flops_syrk_diag(m, n) + testing_flops_potrf(m) +
           testing_flops_gemm(m, nrhs, n) + testing_flops_potrs(m, nrhs);
}

/* Rate in TFLOP/s of `flops` done in `seconds` (0 when seconds <= 0). */
static inline double testing_tflops(double flops, double seconds)
{
    return seconds > 0 ? flops / seconds * 1e-12 : 0.0;
}

#endif /* GCHOL_TESTING_FLOPS_H */
