/*
 * prec.h -- the precision switch of the precision-generic C sources.
 * Each generic source is compiled twice: with -DGCHOL_PREC_D and with
 * -DGCHOL_PREC_S. PFX(potrf_gpu) names gchol_dpotrf_gpu or gchol_spotrf_gpu.
 */
#ifndef GCHOL_PREC_H
#define GCHOL_PREC_H

#if defined(GCHOL_PREC_D)
typedef double FLOAT;
#define PREC_CHAR       'd'
#define PFX(name)       gchol_d##name
#define BLAS_TRSM       cublasDtrsm_64
#define BLAS_SYRK       cublasDsyrk_64
#define BLAS_GEMM       cublasDgemm_64
#define POTF2_LAUNCH    gchol_dpotf2_launch
#elif defined(GCHOL_PREC_S)
typedef float FLOAT;
#define PREC_CHAR       's'
#define PFX(name)       gchol_s##name
#define BLAS_TRSM       cublasStrsm_64
#define BLAS_SYRK       cublasSsyrk_64
#define BLAS_GEMM       cublasSgemm_64
#define POTF2_LAUNCH    gchol_spotf2_launch
#else
#error "compile with -DGCHOL_PREC_D or -DGCHOL_PREC_S"
#endif

#endif
