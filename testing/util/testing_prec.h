/*
 * testing_prec.h -- the precision of a precision-generic tester: compiled
 * with -DGCHOL_PREC_D it tests the double-precision routines (testing_d<x>),
 * with -DGCHOL_PREC_S the single-precision ones (testing_s<x>).
 *
 *   FLOAT            double / float
 *   PREC, PREC_NAME  'd' / 's', "double" / "single"
 *   ES               sizeof(FLOAT)
 *   GCHOL(potrf)     gchol_dpotrf / gchol_spotrf
 *   GCHOL_NAME("x")  "gchol_dx" / "gchol_sx"
 *   LAPACKE(potrf)   LAPACKE_dpotrf / LAPACKE_spotrf
 *   CBLAS(syrk)      cblas_dsyrk / cblas_ssyrk
 */
#ifndef GCHOL_TESTING_PREC_H
#define GCHOL_TESTING_PREC_H

#if defined(GCHOL_PREC_S)
typedef float FLOAT;
#define PREC             's'
#define PREC_NAME        "single"
#define GCHOL(name)      gchol_s##name
#define GCHOL_NAME(name) "gchol_s" name
#define LAPACKE(name)    LAPACKE_s##name
#define CBLAS(name)      cblas_s##name
#elif defined(GCHOL_PREC_D)
typedef double FLOAT;
#define PREC             'd'
#define PREC_NAME        "double"
#define GCHOL(name)      gchol_d##name
#define GCHOL_NAME(name) "gchol_d" name
#define LAPACKE(name)    LAPACKE_d##name
#define CBLAS(name)      cblas_d##name
#else
#error "compile with -DGCHOL_PREC_D or -DGCHOL_PREC_S"
#endif

#define ES sizeof(FLOAT)

#endif /* GCHOL_TESTING_PREC_H */
