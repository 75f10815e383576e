/*
 * wls.h -- the work of the weighted least-squares drivers (wls.c), which
 * dswls.c's fallback runs too. Not installed.
 */
#ifndef GCHOL_SRC_WLS_H
#define GCHOL_SRC_WLS_H

#include "gchol.h"

/* The work of gchol_?wls_gpu (transr = 0, C full with lddc) and of
 * gchol_?wls_rfp_gpu (transr 'N'/'T', C in RFP), arguments checked and
 * m > 0: 0, k > 0 or a library error; synchronous. */
int64_t gchol_dwls_run(char transr, char uplo, int64_t m, int64_t n, int64_t nrhs,
                       const double *dA, int64_t ldda, const double *dd, const double *dB,
                       int64_t lddb, double *dC, int64_t lddc, double *dY, int64_t lddy,
                       gchol_queue_t q);
int64_t gchol_swls_run(char transr, char uplo, int64_t m, int64_t n, int64_t nrhs,
                       const float *dA, int64_t ldda, const float *dd, const float *dB,
                       int64_t lddb, float *dC, int64_t lddc, float *dY, int64_t lddy,
                       gchol_queue_t q);

#endif
