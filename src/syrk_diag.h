/*
 * syrk_diag.h -- A*D^2*A^T on the device without the argument checks
 * (syrk_diag.c), for the drivers that form it themselves: wls, dswls and
 * the streamed host forms. Not installed.
 */
#ifndef GCHOL_SYRK_DIAG_H
#define GCHOL_SYRK_DIAG_H

#include "gchol.h"

/* gchol_?syrk_diag_gpu, arguments checked; tf32 = 1 (single only)
 * multiplies with one TF32 product instead of three. */
int64_t gchol_dsyrk_diag_full(char uplo, int64_t m, int64_t n, double alpha, const double *dA,
                              int64_t ldda, const double *dd, double beta, double *dC,
                              int64_t lddc, int tf32, gchol_queue_t queue);
int64_t gchol_ssyrk_diag_full(char uplo, int64_t m, int64_t n, float alpha, const float *dA,
                              int64_t ldda, const float *dd, float beta, float *dC, int64_t lddc,
                              int tf32, gchol_queue_t queue);
/* The same on C's first ncols columns of its lower view, every row ('U': its
 * first ncols rows, every column); host_stream.c's last block, in pieces. */
int64_t gchol_dsyrk_diag_cols(char uplo, int64_t m, int64_t ncols, int64_t n, double alpha,
                              const double *dA, int64_t ldda, const double *dd, double beta,
                              double *dC, int64_t lddc, int tf32, gchol_queue_t queue);
int64_t gchol_ssyrk_diag_cols(char uplo, int64_t m, int64_t ncols, int64_t n, float alpha,
                              const float *dA, int64_t ldda, const float *dd, float beta,
                              float *dC, int64_t lddc, int tf32, gchol_queue_t queue);

#endif
